"""A model's blueprint: its config in the lesson's terms, and where its parameters live.

`bertforge inspect` prints these; the analysis report reuses them. A config is counted
without building the model it describes: one layer is built on the `meta` device (no
weights allocated) and its count multiplied by the number of layers, which are all
alike. So BERT-large, or a config that asks for a million layers, is counted in
milliseconds and a few kilobytes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import torch

from . import plots
from .config import PRESETS, BertConfig
from .model import CLASSIFIER_HEADS, Bert

# The settings the lesson's blueprint table shows, in its order.
BLUEPRINT_FIELDS = ("num_hidden_layers", "hidden_size", "num_attention_heads",
                    "intermediate_size", "hidden_act", "max_position_embeddings",
                    "type_vocab_size", "vocab_size", "layer_norm_eps")
PARTS = ("word embeddings", "positions, segments, norm", "attention", "feed-forward",
         "pooler", "heads")


def part_of(name: str) -> str:
    """Which part of BERT one of our parameter names belongs to."""
    if name == "embeddings.words.weight":
        return "word embeddings"
    if name.startswith("embeddings."):
        return "positions, segments, norm"
    if name.startswith("layers."):
        return "attention" if ".attention" in name else "feed-forward"
    if name.startswith("pooler."):
        return "pooler"
    return "heads"


@dataclass
class ParameterCount:
    tensors: int
    parameters: int
    by_part: dict[str, int]   # PARTS order; parts the model lacks are left out


def count_parameters(model: Bert) -> ParameterCount:
    """Tensors and parameters, each shared tensor counted once (the masked-LM decoder
    is the word table, so it adds nothing)."""
    by_part = dict.fromkeys(PARTS, 0)
    tensors = 0
    for name, parameter in model.named_parameters():
        by_part[part_of(name)] += parameter.numel()
        tensors += 1
    present = {p: n for p, n in by_part.items() if n}
    return ParameterCount(tensors, sum(present.values()), present)


def count_config(config: BertConfig, head: str | None = None) -> ParameterCount:
    """What `count_parameters` would say of `Bert(config, head)`, without building it."""
    with torch.device("meta"):
        one = count_parameters(Bert(config.replace(num_hidden_layers=1), head=head))
        layer = Bert(config.replace(num_hidden_layers=1), head=None)
    per_layer = {p: 0 for p in PARTS}
    tensors = 0
    for name, parameter in layer.named_parameters():
        if name.startswith("layers."):
            per_layer[part_of(name)] += parameter.numel()
            tensors += 1
    more = config.num_hidden_layers - 1
    by_part = {p: n + more * per_layer[p] for p, n in one.by_part.items()}
    return ParameterCount(one.tensors + more * tensors, sum(by_part.values()), by_part)


@dataclass
class Description:
    """What `bertforge inspect` shows of a model or a config."""
    config: BertConfig
    head: str | None
    pooler: bool
    count: ParameterCount


def describe(source: str | os.PathLike, head: str | None = "auto") -> Description:
    """A model directory, packaged model or hub id (loaded), or a config.json file or a
    preset name (`base`, `large`, …: counted from the config alone)."""
    path = Path(source)
    config = None
    if path.is_file():
        config = BertConfig.from_json(path)
    elif not path.exists() and str(source) in PRESETS:
        config = BertConfig.preset(str(source))
    if config is None:
        from .checkpoint import load_model
        model = load_model(source, head=head)
        return Description(model.config, model.head, model.pooler is not None,
                           count_parameters(model))
    head = "pretraining" if head == "auto" else head
    if head in CLASSIFIER_HEADS and not config.labels:
        config = config.replace(labels=["LABEL_0", "LABEL_1"])
    with torch.device("meta"):
        pooler = Bert(config.replace(num_hidden_layers=1), head=head).pooler is not None
    return Description(config, head, pooler, count_config(config, head))


def blueprint(config: BertConfig) -> list[tuple[str, str]]:
    return [(name, str(getattr(config, name))) for name in BLUEPRINT_FIELDS]


def plot_parameters(count: ParameterCount, path: str | os.PathLike, title: str) -> Path:
    """A horizontal bar chart of millions of parameters per part."""
    names = list(count.by_part)[::-1]
    values = [count.by_part[n] / 1e6 for n in names]
    fig, ax = plots.figure(7, 0.45 * len(names) + 1.2)
    bars = ax.barh(names, values, color=plots.BLUE)
    for bar, value in zip(bars, values):
        ax.text(bar.get_width(), bar.get_y() + bar.get_height() / 2, f" {value:.1f}M",
                va="center", color=plots.GREY)
    ax.set_xlabel("millions of parameters")
    ax.set_title(title)
    ax.set_xlim(0, max(values) * 1.18)
    return plots.save(fig, path)
