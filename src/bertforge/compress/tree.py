"""Swapping modules of a network without touching the one the caller holds."""

from __future__ import annotations

import copy
from typing import Callable

from torch import nn


def shallow_copy(module: nn.Module) -> nn.Module:
    """A copy of the module tree whose modules are new objects but whose parameters and
    buffers are the same tensors: swapping a layer in the copy leaves the original
    whole, and nothing is duplicated in memory."""
    clone = copy.copy(module)
    clone._parameters = dict(module._parameters)
    clone._buffers = dict(module._buffers)
    clone._modules = {name: None if child is None else shallow_copy(child)
                      for name, child in module._modules.items()}
    return clone


def swap(model: nn.Module, wanted: Callable[[nn.Module], bool],
         make: Callable[[nn.Module], nn.Module], inplace: bool,
         within: Callable[[nn.Module], list[nn.Module]] | None = None) -> nn.Module:
    """`model` (or a shallow copy of it) with each child module for which `wanted` is
    true replaced by `make(child)`; `within` limits the search to those parents (by
    default, every module)."""
    model = model if inplace else shallow_copy(model)
    parents = list(model.modules()) if within is None else within(model)
    for parent in parents:
        for name, child in list(parent.named_children()):
            if wanted(child):
                setattr(parent, name, make(child))
    return model
