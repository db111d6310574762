"""The encoder's dense layers in int8, for CPU inference on machines without bf16."""

from __future__ import annotations

import warnings

import torch
from torch import nn

from ..config import ACTIVATIONS
from ..errors import BertforgeError
from ..model import Dense
from .onednn import OneDNNDense
from .tree import swap


class Int8Dense(nn.Module):
    """A `Dense` for CPU inference in int8: weights rounded to 8 bits once (one scale per
    output row, symmetric), inputs rounded per call (one scale per matrix), products
    summed in int32 by PyTorch's quantised kernel (fbgemm), the activation in fp32 after
    it. It holds no fp32 weights and no gradient: it refuses to train, and a model that
    holds one cannot be saved as a checkpoint."""

    def __init__(self, dense: nn.Module):
        super().__init__()
        weight = dense.weight.detach().float()
        scale = weight.abs().amax(dim=1).clamp(min=1e-8) / 127
        with warnings.catch_warnings():  # PyTorch marks quantised tensors as deprecated
            warnings.filterwarnings("ignore", message=".*quantized tensor creation")
            q = torch.quantize_per_channel(weight, scale, torch.zeros(len(scale), dtype=torch.long),
                                           0, torch.qint8)
        try:  # packed for the build's default engine: fbgemm on x86
            self.packed = torch.ops.quantized.linear_prepack(q, dense.bias.detach().float())
        except (AttributeError, RuntimeError) as error:
            raise BertforgeError(f"this PyTorch build cannot run int8 linear layers ({error}); "
                                 f"use precision fp32 or bf16") from error
        self.act = dense.act

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if torch.is_grad_enabled() and x.requires_grad:
            raise BertforgeError("an int8 model is for inference only; train the fp32 one")
        # inputs in 7 bits, not 8 (PyTorch's advice for x86): pairs of products then fit
        # in 16 bits on AVX2, and the kernel gives AVX2 and AVX-512 CPUs the same numbers
        y = torch.ops.quantized.linear_dynamic(x.float(), self.packed, True)
        return y if self.act is None else ACTIVATIONS[self.act](y)


def is_quantized(model: nn.Module) -> bool:
    return any(isinstance(m, Int8Dense) for m in model.modules())


def quantize_int8(model: nn.Module, inplace: bool = False) -> nn.Module:
    """`model` with the dense layers of its encoder layers in int8 (`Int8Dense`):
    faster than fp32 on CPUs without bf16, F1 within about 0.02 on the redactor's
    sets. Embeddings, norms, the attention products and the heads stay fp32. The
    original is left as it was (and can still be trained and saved) unless `inplace`."""
    if next(model.parameters()).device.type != "cpu":
        raise BertforgeError("int8 runs on the CPU; on a GPU use fp32 or bf16")
    if is_quantized(model):
        return model

    def encoder_layers(m):
        return [parent for layer in m.layers for parent in (layer, layer.attention)]

    return swap(model, lambda m: isinstance(m, (Dense, OneDNNDense)),
                Int8Dense, inplace, within=encoder_layers)
