"""The feature-based alternative to fine-tuning (the BERT paper's NER experiment).

Instead of training the whole network, freeze it, read some of its hidden layers as
features of each token, and train a small tagger on top: a two-layer bidirectional
LSTM and a linear layer. The paper (its Table 7, CoNLL-2003 NER, BERT-base) compared
six ways of reading the layers (`LAYERS`) with fine-tuning, and found concatenating
the last four within 0.3 F1 of fine-tuning; one encoder pass can serve several taggers.

The encoder's parameters never change: they take no gradient, the optimiser never sees
them, and the encoder stays in eval mode (no dropout) even while the tagger trains.

A saved feature tagger is a directory: `encoder/` (the frozen BERT, a plain model
directory any BERT reader loads), `tagger.safetensors` (the LSTM, the layer weights and
the classifier) and `bertforge.json` (task "feature-tagging", which layers, the tags).
It is not a `BertForTokenClassification`; `transformers` finds no model at its top.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Sequence

import torch
from safetensors.torch import load_file, save_file
from torch import nn

from .. import __version__
from ..card import ModelCard
from ..checkpoint import load_model, save_model
from ..errors import BertforgeError
from ..files import atomic_directory
from ..model import Bert, BertOutput, Dropout
from ..tokenizer import load_tokenizer
from ..windows import SIZE, STRIDE
from .examples import labels_of
from .fit import FitSettings, fit, load_task_model
from .tagging import SUBTOKEN, Tagger, tag_names, tagging_features

# how the hidden layers become a token's features, named as the paper's rows
# (hidden_states[0] is the embedding layer's output, then one per layer)
LAYERS = {
    "embeddings": "Embeddings",
    "second-to-last": "Second-to-last hidden",
    "last": "Last hidden",
    "last4-sum": "Weighted sum last four hidden",
    "last4-concat": "Concat last four hidden",
    "all-sum": "Weighted sum of all layers",
}
# the paper's CoNLL-2003 dev F1 for BERT-base (Table 7)
PAPER_F1 = {"fine-tuning": 96.4, "embeddings": 91.0, "second-to-last": 95.6, "last": 94.9,
            "last4-sum": 95.9, "last4-concat": 96.1, "all-sum": 95.5}
FEATURE_LR = 1e-3  # the LSTM learns from scratch: far more than fine-tuning's 5e-5
FEATURE_FIT = FitSettings(lr=FEATURE_LR)
TASK = "feature-tagging"


class FeatureTagger(nn.Module):
    head = "token-classification"  # so a Tagger can drive it like a fine-tuned model

    def __init__(self, encoder: Bert, tags: Sequence[str], layers: str = "last4-concat",
                 lstm_size: int = 256, lstm_layers: int = 2, dropout: float = 0.1):
        super().__init__()
        if layers not in LAYERS:
            raise BertforgeError(f"layers must be one of {', '.join(LAYERS)}, not {layers!r}")
        self.encoder, self.layers, self.lstm_size = encoder, layers, lstm_size
        self.config = replace(encoder.config, labels=list(tags))
        for p in self.encoder.parameters():
            p.requires_grad_(False)
        hidden, depth = encoder.config.hidden_size, encoder.config.num_hidden_layers
        self.chosen = {"embeddings": [0], "second-to-last": [depth - 1], "last": [depth],
                       "last4-sum": list(range(depth - 3, depth + 1)),
                       "last4-concat": list(range(depth - 3, depth + 1)),
                       "all-sum": list(range(1, depth + 1))}[layers]
        if min(self.chosen) < 0:
            raise BertforgeError(f"{layers} needs at least 4 layers; this encoder has {depth}")
        # a learned softmax weight per layer for the sums, all equal at the start
        self.mix = nn.Parameter(torch.zeros(len(self.chosen))) if layers.endswith("sum") else None
        width = hidden * (len(self.chosen) if layers == "last4-concat" else 1)
        self.lstm = nn.LSTM(width, lstm_size, num_layers=lstm_layers, bidirectional=True,
                            batch_first=True, dropout=dropout if lstm_layers > 1 else 0.0)
        self.dropout = Dropout(dropout)
        self.classifier = nn.Linear(2 * lstm_size, len(tags))

    def train(self, mode: bool = True) -> "FeatureTagger":
        super().train(mode)
        self.encoder.eval()  # frozen means no dropout either
        return self

    def features(self, hidden_states: Sequence[torch.Tensor]) -> torch.Tensor:
        chosen = [hidden_states[k].float() for k in self.chosen]
        if self.layers == "last4-concat":
            return torch.cat(chosen, dim=-1)
        if self.mix is not None:
            weights = torch.softmax(self.mix, 0)
            return sum(w * h for w, h in zip(weights, chosen))
        return chosen[0]

    def forward(self, input_ids, token_type_ids=None, attention_mask=None) -> BertOutput:
        if attention_mask is None:
            attention_mask = torch.ones_like(input_ids)
        with torch.no_grad():
            hidden = self.encoder(input_ids, token_type_ids=token_type_ids,
                                  attention_mask=attention_mask, output_hidden_states=True)
        features = self.features(hidden.hidden_states)
        lengths = attention_mask.sum(1).cpu()
        # packed, so that padding never flows into the backward direction
        packed = nn.utils.rnn.pack_padded_sequence(features, lengths, batch_first=True,
                                                   enforce_sorted=False)
        out, _ = self.lstm(packed)
        out, _ = nn.utils.rnn.pad_packed_sequence(out, batch_first=True,
                                                  total_length=input_ids.shape[1])
        logits = self.classifier(self.dropout(out))
        return BertOutput(last_hidden_state=hidden.last_hidden_state, logits=logits)

    def head_state(self) -> dict[str, torch.Tensor]:
        """Everything that trains: the LSTM, the layer weights, the classifier."""
        return {n: t.detach().cpu().contiguous() for n, t in self.state_dict().items()
                if not n.startswith("encoder.")}


def train_feature_tagger(examples: Sequence[dict], base: str | os.PathLike,
                         settings: FitSettings | None = None, labels: Sequence[str] | None = None,
                         layers: str = "last4-concat", lstm_size: int = 256,
                         size: int = SIZE, stride: int = STRIDE,
                         subtokens: str = SUBTOKEN) -> Tagger:
    """A BiLSTM tagger trained on the frozen layers of `base`; a Tagger that predicts
    and evaluates as a fine-tuned one does."""
    settings = settings or FitSettings(lr=FEATURE_LR)
    labels = sorted(labels) if labels else labels_of(examples)
    if not labels:
        raise BertforgeError("the training examples hold no spans: nothing to learn to tag")
    tags = tag_names(labels)
    tokenizer = load_tokenizer(base)
    encoder = load_model(base, head=None)
    size = min(size, encoder.config.max_position_embeddings - 2)
    stride = min(stride, size)
    torch.manual_seed(settings.seed)
    model = FeatureTagger(encoder, tags, layers, lstm_size)
    fit(model, tagging_features(tokenizer, examples, tags, size, stride, subtokens), settings,
        tokenizer.pad_id)
    return Tagger(model, tokenizer, size, stride)


def save_feature_tagger(tagger: Tagger, directory: str | os.PathLike,
                        info: dict | None = None) -> Path:
    """Write a feature tagger as the directory the module docstring describes, whole or
    not at all."""
    model = tagger.model
    if not isinstance(model, FeatureTagger):
        raise BertforgeError("save_feature_tagger saves a tagger trained by train_feature_tagger")
    directory = Path(directory)
    with atomic_directory(directory) as staging:
        save_model(model.encoder, tagger.tokenizer, staging / "encoder",
                   {"note": "the frozen encoder of a feature tagger: see ../bertforge.json"})
        save_file(model.head_state(), str(staging / "tagger.safetensors"),
                  metadata={"format": "pt"})
        card = {"bertforge_version": __version__, "task": TASK, "layers": model.layers,
                "lstm_size": model.lstm_size, "labels": model.config.labels,
                "entity_labels": tagger.labels, "window": tagger.size,
                "stride": tagger.stride} | (info or {})
        ModelCard.from_dict(card).write(staging)
    return directory


def load_feature_tagger(directory: str | os.PathLike) -> Tagger:
    directory = Path(directory)
    card = ModelCard.read(directory, required=True)
    if card.task != TASK:
        raise BertforgeError(f"{directory} is not a feature tagger (task {card.task!r}); "
                             f"load a fine-tuned tagger with Tagger.load")
    encoder, tokenizer, _, _ = load_task_model(directory / "encoder", None)
    model = FeatureTagger(encoder, card.labels, card.extra["layers"], card.extra["lstm_size"])
    state = load_file(str(directory / "tagger.safetensors"))
    missing = model.load_state_dict(state, strict=False)
    unexpected = [n for n in missing.missing_keys if not n.startswith("encoder.")]
    if unexpected or missing.unexpected_keys:
        raise BertforgeError(f"{directory}/tagger.safetensors does not match its card: missing "
                             f"{unexpected}, unexpected {missing.unexpected_keys}")
    return Tagger(model.eval(), tokenizer, card.window, card.stride)



def feature_table(train: Sequence[dict], valid: Sequence[dict], base: str | os.PathLike,
                  settings: FitSettings, finetune_lr: float = 5e-5, lstm_size: int = 256,
                  size: int = SIZE, stride: int = STRIDE, say=print) -> list[tuple[str, float]]:
    """The paper's Table 7 on these examples: (row, strict micro F1 on `valid`) for
    fine-tuning (at `finetune_lr`) and for each way of reading the frozen layers (at
    settings.lr), all with the same epochs, batch and seed."""
    from .metrics import MICRO
    from .tagging import train_tagger

    labels = labels_of(train)
    quiet = replace(settings, progress=False)
    rows = []
    tagger = train_tagger(train, base, replace(quiet, lr=finetune_lr), labels, size, stride)
    rows.append(("fine-tuning", tagger.evaluate(valid)["strict"][MICRO].f1))
    say(f"  {'fine-tuning':<16} F1 {rows[-1][1]:.3f}")
    for layers in LAYERS:
        tagger = train_feature_tagger(train, base, quiet, labels, layers, lstm_size, size, stride)
        rows.append((layers, tagger.evaluate(valid)["strict"][MICRO].f1))
        say(f"  {layers:<16} F1 {rows[-1][1]:.3f}")
    return rows


def format_table(rows: Sequence[tuple[str, float]]) -> str:
    """Our rows beside the paper's (CoNLL-2003 dev, BERT-base), each with its rank."""
    ours = {name: rank for rank, (name, _) in enumerate(sorted(rows, key=lambda r: -r[1]), 1)}
    paper = {name: rank for rank, name in enumerate(sorted(PAPER_F1, key=lambda n: -PAPER_F1[n]), 1)}
    titles = {name: "Fine-tuning" if name == "fine-tuning" else "Feature-based: " + LAYERS[name]
              for name, _ in rows}
    width = max(map(len, titles.values())) + 2
    lines = [f"{'approach':<{width}}{'F1 here':>8}{'rank':>6}{'paper F1':>10}{'rank':>6}",
             "-" * (width + 30)]
    for name, f1 in rows:
        lines.append(f"{titles[name]:<{width}}{f1 * 100:>8.1f}{ours[name]:>6}"
                     f"{PAPER_F1.get(name, float('nan')):>10.1f}{paper.get(name, 0):>6}")
    return "\n".join(lines)
