"""A bertforge model as an ONNX graph, for ONNX Runtime and the engines that read ONNX.

The graph takes what `transformers`' exports take, `input_ids`, `attention_mask` and
`token_type_ids` (int64, any batch size and length up to the model's positions), and
gives what the head gives: `logits` (token or sequence classification, masked LM),
`logits` and `nsp_logits` (pre-training), or `last_hidden_state` (a bare encoder). It is
written by torch.onnx's exporter (torch.export underneath) and then checked: ONNX
Runtime runs it on a padded batch and every real token's output must be within
`TOLERANCE` of PyTorch's, or nothing is written. The output directory is a model
directory with `model.onnx` in place of the weights (config, tokenizer and card copied),
so one folder holds everything a reader needs.
"""

from __future__ import annotations

import logging
import os
import shutil
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn

from .errors import BertforgeError
from .files import atomic_directory
from .optional import require

TOLERANCE = 1e-4
OPSET = 18
INPUTS = ("input_ids", "attention_mask", "token_type_ids")
# sample texts for the check: lengths that differ, so the batch is padded
CHECK_TEXTS = ("Wire 2,500 EUR to Ann Lee at DE89 3704 0044 0532 0130 00 by Friday.",
               "ok", "The committee met on 3 May; Brightwater Joinery Ltd. sent its accounts.")


def output_names(head: str | None) -> tuple[str, ...]:
    return {None: ("last_hidden_state",), "pretraining": ("logits", "nsp_logits")}.get(
        head, ("logits",))


class _Graph(nn.Module):
    """The model's forward with plain tensors in and out, as an exporter wants it."""

    def __init__(self, model: nn.Module):
        super().__init__()
        self.model = model
        self.names = output_names(model.head)

    def forward(self, input_ids, attention_mask, token_type_ids):
        out = self.model(input_ids, token_type_ids=token_type_ids, attention_mask=attention_mask)
        return tuple(getattr(out, name) for name in self.names)


@dataclass
class ExportReport:
    path: Path
    outputs: tuple[str, ...]
    largest_difference: float   # ONNX Runtime against PyTorch on the check batch


def export_onnx(source: str | os.PathLike, out: str | os.PathLike, head: str | None = "auto",
                opset: int = OPSET) -> ExportReport:
    """Write `source` (a model directory, packaged model or hub id) as `out/model.onnx`
    beside its config, tokenizer and card, checked against PyTorch (see the module)."""
    from .checkpoint import load_model
    from .tokenizer import load_tokenizer

    require("onnx", "ONNX export")
    require("onnxscript", "ONNX export")
    ort = require("onnxruntime", "checking an ONNX export")
    model = load_model(source, head=head).eval()
    tokenizer = load_tokenizer(model.source)
    batch = tokenizer(list(CHECK_TEXTS), padding=True)
    inputs = tuple(getattr(batch, name).long() for name in INPUTS)
    graph = _Graph(model).eval()   # eval: no dropout in the graph
    names = graph.names
    axes = {name: {0: "batch", 1: "sequence"} for name in INPUTS}
    for name in names:
        axes[name] = {0: "batch"} if model.head in ("sequence-classification",) or \
            name == "nsp_logits" else {0: "batch", 1: "sequence"}
    with atomic_directory(out) as staging:
        target = staging / "model.onnx"
        exporter_log = logging.getLogger("torch.onnx")  # notes on operators we do not use
        level = exporter_log.level
        exporter_log.setLevel(logging.ERROR)
        try:
            with warnings.catch_warnings(), torch.no_grad():
                warnings.simplefilter("ignore")
                # one file: the weights inside the graph (ONNX allows that up to 2 GB)
                torch.onnx.export(graph, inputs, str(target), input_names=list(INPUTS),
                                  output_names=list(names), dynamic_axes=axes,
                                  opset_version=opset, dynamo=True, verbose=False,
                                  external_data=_size(model) >= 2 ** 31 - 2 ** 26)
        except Exception as error:  # the exporter's own errors are many kinds
            raise BertforgeError(f"could not export {source} to ONNX: "
                                 f"{type(error).__name__}: {str(error)[:300]}") from error
        finally:
            exporter_log.setLevel(level)
        difference = _check(ort, target, model, inputs, names)
        _copy_beside(model.source, staging)
    return ExportReport(Path(out) / "model.onnx", names, difference)


def _size(model) -> int:
    return sum(p.numel() * p.element_size() for p in model.parameters())


def _check(ort, path: Path, model, inputs, names) -> float:
    """The largest difference between ONNX Runtime's outputs and PyTorch's on the real
    tokens of `inputs`; an error above TOLERANCE."""
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    got = session.run(list(names), {n: t.numpy() for n, t in zip(INPUTS, inputs)})
    with torch.no_grad():
        want = _Graph(model).eval()(*inputs)
    real = inputs[1].bool().numpy()
    largest = 0.0
    for name, a, b in zip(names, got, want):
        b = b.float().numpy()
        gap = np.abs(a - b)
        if gap.ndim >= 2 and gap.shape[:2] == real.shape:  # per token: padding is free
            gap = gap[real]
        largest = max(largest, float(gap.max()))
    if largest > TOLERANCE:
        raise BertforgeError(f"the ONNX graph differs from PyTorch by {largest:.2e} (more than "
                             f"{TOLERANCE:g}); nothing was written")
    return largest


def _copy_beside(source: Path | None, staging: Path) -> None:
    """The config, tokenizer and card of the model, without its weights."""
    if source is None:
        return
    for path in Path(source).iterdir():
        if path.is_file() and path.suffix not in (".safetensors", ".bin", ".pt", ".onnx") and \
                not path.name.startswith("."):
            shutil.copy2(path, staging / path.name)
