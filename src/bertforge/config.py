"""BertConfig: the blueprint of one BERT, read from and written to `config.json`.

The field names are Hugging Face's, so a `config.json` written by `transformers` is read
as it is and one written here is read by `transformers`. Fields this class has no use
for (`architectures` aside, which the saver sets from the model's head) are kept in
`extra` and written back unchanged, so a round trip loses nothing.

This module owns the meaning of the activation names a config may give (`ACTIVATIONS`)
and the named model sizes (`PRESETS`); it leaves building the network to `model.py`.
"""

from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import torch
import torch.nn.functional as F

from .errors import ConfigError


def _gelu_tanh(x: torch.Tensor) -> torch.Tensor:
    return F.gelu(x, approximate="tanh")


def _quick_gelu(x: torch.Tensor) -> torch.Tensor:
    return x * torch.sigmoid(1.702 * x)


# The activations BERT-family configs name, as `transformers` defines them.
# "gelu" is the exact one (x·Φ(x)) that Google's BERT uses; the tanh formula is what
# "gelu_new", "gelu_fast" and "gelu_pytorch_tanh" name, up to float rounding.
ACTIVATIONS: dict[str, Callable[[torch.Tensor], torch.Tensor]] = {
    "gelu": F.gelu,
    "gelu_python": F.gelu,
    "gelu_new": _gelu_tanh,
    "gelu_fast": _gelu_tanh,
    "gelu_pytorch_tanh": _gelu_tanh,
    "quick_gelu": _quick_gelu,
    "relu": F.relu,
    "silu": F.silu,
    "swish": F.silu,
    "tanh": torch.tanh,
    "mish": F.mish,
}


@dataclass
class BertConfig:
    """Every number that fixes the shape of a BERT. The defaults are BERT-base."""

    vocab_size: int = 30522
    hidden_size: int = 768
    num_hidden_layers: int = 12
    num_attention_heads: int = 12
    intermediate_size: int = 3072
    hidden_act: str = "gelu"
    hidden_dropout_prob: float = 0.1
    attention_probs_dropout_prob: float = 0.1
    max_position_embeddings: int = 512
    type_vocab_size: int = 2
    initializer_range: float = 0.02
    layer_norm_eps: float = 1e-12
    pad_token_id: int = 0
    classifier_dropout: float | None = None
    # Class names of a classification head, in logit order; None when there is none.
    labels: list[str] | None = None
    # Everything else config.json held (`architectures` among it), written back as it
    # came, but for `architectures`, which the saver sets from the model's head.
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.validate()

    # ------------------------------------------------------------------ checks
    def validate(self) -> None:
        """Refuse values that cannot make a working BERT, naming the field."""
        positive = ("vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads",
                    "intermediate_size", "max_position_embeddings", "type_vocab_size")
        for name in positive:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ConfigError(f"{name} must be a positive whole number, got {value!r}")
        if self.hidden_size % self.num_attention_heads:
            raise ConfigError(
                f"hidden_size ({self.hidden_size}) must be divisible by num_attention_heads "
                f"({self.num_attention_heads}): each head gets hidden_size / heads dimensions")
        if self.hidden_act not in ACTIVATIONS:
            raise ConfigError(
                f"hidden_act {self.hidden_act!r} is not an activation bertforge knows; "
                f"use one of {', '.join(sorted(ACTIVATIONS))}")
        dropouts = ["hidden_dropout_prob", "attention_probs_dropout_prob"]
        if self.classifier_dropout is not None:
            dropouts.append("classifier_dropout")
        for name in dropouts:
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not 0.0 <= value < 1.0:
                raise ConfigError(f"{name} must be a probability in [0, 1), got {value!r}")
        if not isinstance(self.layer_norm_eps, (int, float)) or not self.layer_norm_eps > 0:
            raise ConfigError(f"layer_norm_eps must be a small positive number, "
                              f"got {self.layer_norm_eps!r}")
        if not isinstance(self.initializer_range, (int, float)) or not self.initializer_range > 0:
            raise ConfigError(f"initializer_range must be positive, got {self.initializer_range!r}")
        if self.pad_token_id is not None and not 0 <= self.pad_token_id < self.vocab_size:
            raise ConfigError(f"pad_token_id ({self.pad_token_id}) must be an id in the "
                              f"vocabulary, 0 to {self.vocab_size - 1}")
        if self.labels is not None:
            if not self.labels or len(set(self.labels)) != len(self.labels):
                raise ConfigError(f"labels must be a non-empty list of distinct names, "
                                  f"got {self.labels!r}")

    @property
    def head_size(self) -> int:
        """Dimensions per attention head (64 in BERT-base)."""
        return self.hidden_size // self.num_attention_heads

    @property
    def num_labels(self) -> int | None:
        return None if self.labels is None else len(self.labels)

    # -------------------------------------------------------------- conversion
    @classmethod
    def from_dict(cls, data: dict[str, Any], source: str = "config") -> "BertConfig":
        """Read a Hugging Face config dictionary; unknown keys go to `extra`."""
        data = dict(data)
        model_type = data.get("model_type", "bert")
        if model_type != "bert":
            raise ConfigError(f"{source}: model_type is {model_type!r}; bertforge reads BERT "
                              f"checkpoints (model_type 'bert') only")
        position_type = data.pop("position_embedding_type", "absolute")
        if position_type != "absolute":
            raise ConfigError(f"{source}: position_embedding_type {position_type!r} is not "
                              f"supported; BERT uses 'absolute' (learned) positions")
        known = {f.name for f in dataclasses.fields(cls)} - {"labels", "extra"}
        values = {name: data.pop(name) for name in list(data) if name in known}
        id2label = data.pop("id2label", None)
        data.pop("label2id", None)
        num_labels = data.pop("num_labels", None)
        data.pop("model_type", None)
        labels = None
        if id2label:
            try:
                ordered = sorted(id2label.items(), key=lambda item: int(item[0]))
            except (TypeError, ValueError):
                raise ConfigError(f"{source}: id2label keys must be integers, "
                                  f"got {list(id2label)!r}") from None
            labels = [str(name) for _, name in ordered]
        elif num_labels:
            labels = [f"LABEL_{i}" for i in range(int(num_labels))]
        try:
            config = cls(**values, labels=labels, extra=data)
        except ConfigError as error:
            raise ConfigError(f"{source}: {error}") from None
        except TypeError as error:  # a value of a type the checks cannot compare
            raise ConfigError(f"{source}: {error}") from None
        return config

    @classmethod
    def from_json(cls, path: str | os.PathLike) -> "BertConfig":
        path = Path(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ConfigError(f"no config file at {path}") from None
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise ConfigError(f"{path} is not valid JSON ({error}); a model directory needs "
                              f"the config.json that `transformers` writes") from None
        if not isinstance(data, dict):
            raise ConfigError(f"{path} must hold a JSON object of config fields")
        return cls.from_dict(data, source=str(path))

    def to_dict(self, architecture: str | None = None) -> dict[str, Any]:
        """The Hugging Face form of this config (what `config.json` holds)."""
        data: dict[str, Any] = dict(self.extra)
        if architecture:
            data["architectures"] = [architecture]
        data["model_type"] = "bert"
        for f in dataclasses.fields(self):
            if f.name not in ("labels", "extra"):
                data[f.name] = getattr(self, f.name)
        data["position_embedding_type"] = "absolute"
        if self.labels is not None:
            data["id2label"] = {str(i): name for i, name in enumerate(self.labels)}
            data["label2id"] = {name: i for i, name in enumerate(self.labels)}
        return dict(sorted(data.items()))

    def to_json(self, architecture: str | None = None) -> str:
        return json.dumps(self.to_dict(architecture), indent=2) + "\n"

    def replace(self, **changes: Any) -> "BertConfig":
        """A copy with some fields changed (checked again)."""
        return dataclasses.replace(self, **changes)

    @classmethod
    def preset(cls, name: str, **changes: Any) -> "BertConfig":
        """A named size: the compact BERTs of Turc et al. (2019), BERT-base and -large."""
        if name not in PRESETS:
            raise ConfigError(f"no model size called {name!r}; the presets are "
                              f"{', '.join(PRESETS)}")
        layers, hidden = PRESETS[name]
        heads = max(1, hidden // 64)
        return cls(num_hidden_layers=layers, hidden_size=hidden, num_attention_heads=heads,
                   intermediate_size=4 * hidden, **changes)


# name -> (layers, hidden size); heads = hidden / 64 and feed-forward = 4 × hidden, as in
# Google's 24 compact BERTs and the two originals.
PRESETS: dict[str, tuple[int, int]] = {
    "tiny": (2, 128),
    "mini": (4, 256),
    "small": (4, 512),
    "medium": (8, 512),
    "base": (12, 768),
    "large": (24, 1024),
}
