"""Smaller models cut from a trained one: fewer feed-forward units, fewer layers."""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable

import torch
from torch import nn

from ..errors import BertforgeError
from .tree import shallow_copy


@torch.no_grad()
def ffn_importance(model: nn.Module, batches: Iterable[dict]) -> list[torch.Tensor]:
    """Per layer, how much each feed-forward unit adds to the layer's output on the
    batches' real tokens (each batch: the model's keyword inputs, with an
    `attention_mask`): its |activation| summed over those tokens times the length of
    its output weights. The units with the lowest scores are the ones to prune."""
    model.eval()
    device = next(model.parameters()).device
    sums = [torch.zeros(layer.up.out_features, device=device) for layer in model.layers]
    real = {}

    def add(i):  # a hook on layer i's up-projection (its output is after the activation)
        return lambda module, inputs, output: \
            sums[i].add_((output.abs() * real["mask"]).sum((0, 1)))

    hooks = [layer.up.register_forward_hook(add(i)) for i, layer in enumerate(model.layers)]
    try:
        for inputs in batches:
            real["mask"] = inputs["attention_mask"][..., None].float()
            model(**inputs)
    finally:
        for hook in hooks:
            hook.remove()
    return [total.cpu() * layer.down.weight.detach().float().norm(dim=0).cpu()
            for total, layer in zip(sums, model.layers)]


@torch.no_grad()
def prune_ffn(model: nn.Module, units: int, importance: list[torch.Tensor],
              inplace: bool = False) -> nn.Module:
    """`model` keeping, in each layer's feed-forward block, the `units` hidden units that
    `importance` (one score per unit and layer, `ffn_importance`) ranks highest: a
    smaller, faster model to fine-tune (halving them removes a third of the encoder's
    matrix products). It trains and saves like any other."""
    if not 1 <= units <= model.config.intermediate_size:
        raise BertforgeError(f"a feed-forward block of {units} units: this model's have "
                             f"{model.config.intermediate_size}; keep 1 to "
                             f"{model.config.intermediate_size} of them")
    if len(importance) != len(model.layers):
        raise BertforgeError(f"{len(importance)} importance rows for {len(model.layers)} layers")
    model = model if inplace else shallow_copy(model)
    for layer, score in zip(model.layers, importance):
        keep = score.topk(units).indices.sort().values.to(layer.up.weight.device)
        layer.up.weight = nn.Parameter(layer.up.weight[keep].clone())
        layer.up.bias = nn.Parameter(layer.up.bias[keep].clone())
        layer.down.weight = nn.Parameter(layer.down.weight[:, keep].clone())
        layer.up.out_features = layer.down.in_features = units
    model.config = replace(model.config, intermediate_size=units)
    return model


def keep_layers(model: nn.Module, layers: int, inplace: bool = False) -> nn.Module:
    """`model` with only its first `layers` encoder layers (the top layers are the ones
    fine-tuning can best do without)."""
    have = model.config.num_hidden_layers
    if not 1 <= layers <= have:
        raise BertforgeError(f"keeping {layers} layers: the model has {have} layers; keep "
                             f"1 to {have}")
    model = model if inplace else shallow_copy(model)
    model.layers = model.layers[:layers]
    model.config = replace(model.config, num_hidden_layers=layers)
    return model
