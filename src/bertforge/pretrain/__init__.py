"""Pre-training: masking, sentence pairs, data, and the training loop."""
