"""Token tagging: character spans in, character spans out, BIO tags in between.

Training: each example's spans become a tag per token through the tokenizer's
character offsets (B-X on a span's first token, I-X on the rest, O elsewhere). A span
that covers only part of a token tags the whole token: "£1,250" annotated from the "1"
tags the "£" piece too if the tokenizer made one token of "£1". The round trip is
exact for spans on token boundaries and widens the others to the tokens they touch.
Every document is cut into windows (`windows.py`); nothing is truncated.

Prediction: all windows of all documents are batched together by length; each
token keeps the prediction of the window where it has most context; tags become
character spans again (an I-X with no B-X before it opens a span, as `seqeval` reads
it), each with a confidence: the mean probability of its tokens' tags.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

from ..errors import BertforgeError
from ..model import Bert
from ..tokenizer import Tokenizer
from ..windows import SIZE, STRIDE, merge, windows
from .fit import (IGNORE, FitSettings, fit, load_task_model, predict_logits, save_task_model,
                  softmax, start_task_model)
from .metrics import span_scores


@dataclass
class Span:
    start: int
    end: int
    label: str
    text: str = ""
    score: float = 1.0

    def to_dict(self) -> dict:
        return asdict(self)


def tag_names(labels: Sequence[str]) -> list[str]:
    """["PER", "ORG"] -> ["O", "B-PER", "I-PER", "B-ORG", "I-ORG"]."""
    return ["O"] + [f"{p}-{label}" for label in labels for p in ("B", "I")]


def spans_to_tags(offsets: Sequence[tuple[int, int]], spans: Sequence[tuple[int, int, str]],
                  tags: list[str]) -> list[int]:
    """A tag id per token. `spans` are (start, end, label), sorted, not overlapping."""
    index = {t: i for i, t in enumerate(tags)}
    out = [0] * len(offsets)
    starts = np.array([s for s, _ in offsets])
    ends = np.array([e for _, e in offsets])
    for start, end, label in spans:
        touched = np.nonzero((starts < end) & (ends > start) & (ends > starts))[0]
        for k, token in enumerate(touched):
            out[token] = index[("B-" if k == 0 else "I-") + label]
    return out


def to_spans(tags: Sequence[str]) -> list[tuple[str, int, int]]:
    """BIO tags -> (label, first token, last token + 1). An I-X after O or after
    another label opens a new span, as seqeval's default reading does."""
    spans = []
    current = None  # [label, start]
    for i, tag in enumerate(list(tags) + ["O"]):
        prefix, _, label = tag.partition("-")
        continues = prefix == "I" and current is not None and current[0] == label
        if current is not None and not continues:
            spans.append((current[0], current[1], i))
            current = None
        if prefix in ("B", "I") and not continues:
            current = [label, i]
    return spans


def tags_to_spans(text: str, offsets: Sequence[tuple[int, int]], tag_ids: Sequence[int],
                  probabilities: np.ndarray | None, tags: list[str]) -> list[Span]:
    """Character spans from a tag per token (with each tag's probability, if given)."""
    out = []
    for label, first, last in to_spans([tags[t] for t in tag_ids]):
        start, end = offsets[first][0], offsets[last - 1][1]
        score = 1.0 if probabilities is None else float(probabilities[first:last].mean())
        out.append(Span(start, end, label, text[start:end], score))
    return out


def tagging_features(tokenizer: Tokenizer, examples: Sequence[dict], tags: list[str],
                     size: int = SIZE, stride: int = STRIDE) -> list[dict]:
    """Every window of every example as a model input with a tag per token."""
    encodings = tokenizer.encode_batch([e["text"] for e in examples], add_special_tokens=False)
    features = []
    for example, encoding in zip(examples, encodings):
        tag_ids = spans_to_tags(encoding.offsets, example["spans"], tags)
        for w in windows(len(encoding.ids), size, stride):
            ids = encoding.ids[w.start:w.end]
            features.append({"input_ids": [tokenizer.cls_id] + ids + [tokenizer.sep_id],
                             "token_type_ids": [0] * (len(ids) + 2),
                             "labels": [IGNORE] + tag_ids[w.start:w.end] + [IGNORE]})
    return features


class Tagger:
    """A token-classification BERT with its tokenizer, tags and window settings."""

    def __init__(self, model: Bert, tokenizer: Tokenizer, size: int = SIZE, stride: int = STRIDE):
        if model.head != "token-classification":
            raise BertforgeError(f"a tagger needs a token-classification model, not {model.head!r}")
        self.model, self.tokenizer, self.size, self.stride = model, tokenizer, size, stride
        self.tags = list(model.config.labels)
        self.labels = sorted({t[2:] for t in self.tags if t != "O"})

    @classmethod
    def load(cls, source: str | os.PathLike) -> "Tagger":
        return cls(*load_task_model(source, "token-classification"))

    def save(self, directory: str | os.PathLike, info: dict | None = None) -> Path:
        return save_task_model(self, directory, {"task": "tagging",
                                                 "entity_labels": self.labels} | (info or {}))

    def predict(self, texts: Sequence[str], batch: int = 32, progress: bool = False,
                precision: str = "auto") -> list[list[Span]]:
        """Spans for each text; windows of all texts are batched together.
        precision: "auto" (bf16 where the hardware has it) or "fp32" (see predict_logits)."""
        encodings = self.tokenizer.encode_batch(list(texts), add_special_tokens=False)
        features, owners = [], []
        for doc, encoding in enumerate(encodings):
            for w in windows(len(encoding.ids), self.size, self.stride):
                ids = encoding.ids[w.start:w.end]
                features.append({"input_ids": [self.tokenizer.cls_id] + ids + [self.tokenizer.sep_id],
                                 "token_type_ids": [0] * (len(ids) + 2)})
                owners.append((doc, w))
        logits = predict_logits(self.model, features, self.tokenizer.pad_id, batch,
                                progress=progress, precision=precision) if features else []
        per_doc: list[list] = [[] for _ in texts]
        for (doc, w), rows in zip(owners, logits):
            per_doc[doc].append((w, softmax(rows[1:-1])))  # drop [CLS] and [SEP]
        results = []
        for text, encoding, parts in zip(texts, encodings, per_doc):
            if not parts or not encoding.ids:
                results.append([])
                continue
            probs = merge([w for w, _ in parts], [p for _, p in parts], len(encoding.ids))
            tag_ids = probs.argmax(-1)
            chosen = probs[np.arange(len(tag_ids)), tag_ids]
            results.append(tags_to_spans(text, encoding.offsets, tag_ids, chosen, self.tags))
        return results

    def evaluate(self, examples: Sequence[dict], batch: int = 32, precision: str = "auto") -> dict:
        """Strict and overlap span scores against the examples' spans."""
        predicted = self.predict([e["text"] for e in examples], batch, precision=precision)
        gold = [[(label, s, e) for s, e, label in ex["spans"]] for ex in examples]
        found = [[(sp.label, sp.start, sp.end) for sp in spans] for spans in predicted]
        return {"strict": span_scores(gold, found), "overlap": span_scores(gold, found, overlap=True)}


def train_tagger(examples: Sequence[dict], base: str | os.PathLike,
                 settings: FitSettings | None = None, labels: Sequence[str] | None = None,
                 size: int = SIZE, stride: int = STRIDE, from_scratch: bool = False) -> Tagger:
    """Fine-tune `base` (any BERT directory, packaged model or hub id) to tag the
    examples' spans. from_scratch: the same network from random weights instead."""
    settings = settings or FitSettings()
    if not examples:
        raise BertforgeError("no training examples")
    labels = sorted(labels or {label for e in examples for _, _, label in e["spans"]})
    if not labels:
        raise BertforgeError("the training examples hold no spans: nothing to learn to tag")
    tags = tag_names(labels)
    model, tokenizer, size, stride = start_task_model(base, "token-classification", tags, size,
                                                      stride, settings.seed, from_scratch)
    features = tagging_features(tokenizer, examples, tags, size, stride)
    fit(model, features, settings, tokenizer.pad_id)
    return Tagger(model, tokenizer, size, stride)
