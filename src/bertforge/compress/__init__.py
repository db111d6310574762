"""Making a trained BERT smaller or faster, from outside the network.

`model.py` is the network and nothing else; everything here takes a `Bert` and gives
back one that computes (nearly) the same thing another way:

    onednn.use_onednn     fp32 CPU inference through oneDNN's fused linear kernels
    int8.quantize_int8    the encoder's dense layers in int8 (CPU inference)
    prune.prune_ffn       fewer feed-forward units, chosen by `prune.ffn_importance`
    prune.keep_layers     only the first N layers
    distil.distillation_loss   the loss that teaches a small model from a large one

Each returns a new model and leaves the one it was handed as it was, unless called with
`inplace=True`. The new model shares the tensors it did not change with the old one (no
copy of the weights), so it costs only what was swapped.
"""

from .distil import distillation_loss
from .int8 import Int8Dense, is_quantized, quantize_int8
from .onednn import OneDNNDense, use_onednn
from .prune import ffn_importance, keep_layers, prune_ffn

__all__ = ["distillation_loss", "Int8Dense", "is_quantized", "quantize_int8", "OneDNNDense",
           "use_onednn", "ffn_importance", "keep_layers", "prune_ffn"]
