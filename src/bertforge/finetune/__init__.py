"""Fine-tuning: tagging, classification, the feature-based tagger, metrics, curves."""
