"""Classification: one label per text, or per pair of texts, from the [CLS] vector.

A single text longer than a window is cut into windows (`windows.py`); in training
every window carries the text's label, and in prediction the text's logits are the
mean of its windows' logits. A pair is encoded as [CLS] A [SEP] B [SEP] with segment
ids 0 and 1 (the longer side truncated first if the two exceed the model's length).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Sequence

import numpy as np

from ..errors import BertforgeError
from ..model import Bert
from ..tokenizer import Tokenizer
from ..windows import SIZE, STRIDE, windows
from .fit import (FitSettings, fit, load_task_model, predict_logits, save_task_model, softmax,
                  start_task_model)


def classification_features(tokenizer: Tokenizer, examples: Sequence[dict],
                            labels: Sequence[str] | None, size: int = SIZE,
                            stride: int = STRIDE) -> tuple[list[dict], list[int]]:
    """Model inputs and, for each, the index of the example it came from."""
    index = {label: i for i, label in enumerate(labels)} if labels is not None else None
    features, owners = [], []
    singles = [i for i, e in enumerate(examples) if e.get("text_b") is None]
    pairs = [i for i, e in enumerate(examples) if e.get("text_b") is not None]
    if singles:
        encodings = tokenizer.encode_batch([examples[i]["text"] for i in singles],
                                           add_special_tokens=False)
        for i, encoding in zip(singles, encodings):
            for w in windows(len(encoding.ids), size, stride):
                ids = encoding.ids[w.start:w.end]
                features.append({"input_ids": [tokenizer.cls_id] + ids + [tokenizer.sep_id],
                                 "token_type_ids": [0] * (len(ids) + 2)})
                owners.append(i)
    if pairs:
        encodings = tokenizer.encode_batch([examples[i]["text"] for i in pairs],
                                           [examples[i]["text_b"] for i in pairs],
                                           max_length=size + 2)
        for i, encoding in zip(pairs, encodings):
            features.append({"input_ids": encoding.ids, "token_type_ids": encoding.type_ids})
            owners.append(i)
    if index is not None:
        for feature, i in zip(features, owners):
            feature["labels"] = index[examples[i]["label"]]
    return features, owners


class Classifier:
    """A sequence-classification BERT with its tokenizer and window settings."""

    def __init__(self, model: Bert, tokenizer: Tokenizer, size: int = SIZE, stride: int = STRIDE):
        if model.head != "sequence-classification":
            raise BertforgeError(f"a classifier needs a sequence-classification model, "
                                 f"not {model.head!r}")
        self.model, self.tokenizer, self.size, self.stride = model, tokenizer, size, stride
        self.labels = list(model.config.labels)

    @classmethod
    def load(cls, source: str | os.PathLike) -> "Classifier":
        return cls(*load_task_model(source, "sequence-classification"))

    def save(self, directory: str | os.PathLike, info: dict | None = None) -> Path:
        return save_task_model(self, directory, {"task": "classification"} | (info or {}))

    def predict_proba(self, texts: Sequence[str], pairs: Sequence[str | None] | None = None,
                      batch: int | None = None, precision: str = "auto") -> np.ndarray:
        """(texts, classes) probabilities; a long text's logits are its windows' mean."""
        examples = [{"text": t, "text_b": None if pairs is None else pairs[i]}
                    for i, t in enumerate(texts)]
        features, owners = classification_features(self.tokenizer, examples, None,
                                                   self.size, self.stride)
        logits = predict_logits(self.model, features, self.tokenizer.pad_id, batch,
                                precision=precision)
        pooled = np.zeros((len(texts), len(self.labels)), dtype=np.float64)
        counts = np.zeros(len(texts))
        for i, row in zip(owners, logits):
            pooled[i] += row
            counts[i] += 1
        return softmax(pooled / np.maximum(counts, 1)[:, None])

    def predict(self, texts: Sequence[str], pairs: Sequence[str | None] | None = None,
                batch: int | None = None) -> list[str]:
        return [self.labels[i] for i in self.predict_proba(texts, pairs, batch).argmax(-1)]

    def evaluate(self, examples: Sequence[dict]) -> dict:
        predicted = self.predict([e["text"] for e in examples], [e.get("text_b") for e in examples])
        right = sum(p == e["label"] for p, e in zip(predicted, examples))
        return {"accuracy": right / len(examples), "examples": len(examples)}


def train_classifier(examples: Sequence[dict], base: str | os.PathLike,
                     settings: FitSettings | None = None, labels: Sequence[str] | None = None,
                     size: int = SIZE, stride: int = STRIDE, from_scratch: bool = False) -> Classifier:
    settings = settings or FitSettings()
    if not examples:
        raise BertforgeError("no training examples")
    labels = sorted(labels or {e["label"] for e in examples})
    if len(labels) < 2:
        raise BertforgeError(f"classification needs at least two labels; the examples have "
                             f"{labels}")
    model, tokenizer, size, stride = start_task_model(base, "sequence-classification", labels,
                                                      size, stride, settings.seed, from_scratch)
    features, _ = classification_features(tokenizer, examples, labels, size, stride)
    fit(model, features, settings, tokenizer.pad_id)
    return Classifier(model, tokenizer, size, stride)
