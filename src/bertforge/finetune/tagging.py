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
from .fit import (IGNORE, FitSettings, ffn_importance, fit, load_task_model, predict_logits,
                  save_task_model, softmax, start_task_model)
from .metrics import span_scores


@dataclass
class Span:
    start: int
    end: int
    label: str
    text: str = ""
    score: float = 1.0
    source: str = "model"   # "model", or "pattern" for spans a pattern found (pii/)

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


def _breaks(gap: str, before: str, after: str) -> bool:
    """Whether the text between two inside words ends a run of them: a tab or three
    spaces (a column gap), a blank line, or a line break outside an address."""
    return "\t" in gap or "   " in gap or "\n\n" in gap or \
        ("\n" in gap and not before == after == "ADDRESS")


def threshold_spans(text: str, offsets: Sequence[tuple[int, int]], probs: np.ndarray,
                    tags: list[str], threshold: float) -> list[Span]:
    """Spans by word rather than by token, for recall with clean boundaries:

    - a word (pieces with no space between them) is inside some span when any of its
      tokens has P(not O) >= threshold, and takes the label with most probability mass
      over its tokens;
    - a word whose two neighbours agree on another label takes theirs, and so does a
      word at either end of a run whose neighbour's label goes on for two words or more
      ("lat 40.71 lon -74.01" is one location, not four fragments), unless that word
      is the start of a new entity at the end ("Ann Lee, EMP-4410": a name, then an ID);
    - consecutive inside words form one span until the label changes, a word's B- mass
      beats its I- mass (a new entity starts) after anything but a plain space, or a
      tab, three spaces, a blank line, or a line break not inside an address comes
      between them (table cells, fixed-width columns and lines are separate values;
      only addresses run over lines).
      The score is the mean P(not O) of its tokens.
    Token-by-token argmax instead breaks entities into fragments whenever two labels
    trade places inside one."""
    n = len(offsets)
    if n == 0:
        return []
    labels = sorted({t[2:] for t in tags if t != "O"})
    b_cols = np.array([tags.index(f"B-{label}") for label in labels])
    i_cols = np.array([tags.index(f"I-{label}") for label in labels])
    entity = 1.0 - probs[:, 0]
    starts = np.array([a for a, _ in offsets])
    ends = np.array([b for _, b in offsets])
    glued = np.zeros(n, dtype=bool)  # token i continues the word of token i-1
    glued[1:] = (starts[1:] == ends[:-1]) & (ends[:-1] > starts[:-1])
    glued[1:] &= np.array([0 < a < len(text) and text[a - 1].isalnum() and text[a].isalnum()
                           for a in starts[1:]], dtype=bool)
    word = np.cumsum(~glued) - 1
    words = int(word[-1]) + 1
    first = np.searchsorted(word, np.arange(words))           # first token of each word
    last = np.append(first[1:], n)                             # one past its last token
    inside = np.add.reduceat((entity >= threshold).astype(int), first) > 0
    b_mass = np.add.reduceat(probs[:, b_cols], first, axis=0)
    i_mass = np.add.reduceat(probs[:, i_cols], first, axis=0)
    label = (b_mass + i_mass).argmax(-1)
    begins = b_mass.sum(-1) > i_mass.sum(-1)

    def gap(w):  # the text between word w-1 and word w
        return text[ends[last[w - 1] - 1]:starts[first[w]]]

    runs, w = [], 0
    while w < words:  # maximal runs of inside words not broken by a blank line
        if not inside[w]:
            w += 1
            continue
        v = w + 1
        while v < words and inside[v] and not _breaks(gap(v), labels[label[v - 1]],
                                                      labels[label[v]]):
            v += 1
        runs.append((w, v))
        w = v
    spans = []
    for a, b in runs:
        lab = label[a:b].copy()
        for k in range(1, len(lab) - 1):
            if lab[k - 1] == lab[k + 1] != lab[k]:
                lab[k] = lab[k - 1]
        if len(lab) >= 3 and lab[0] != lab[1] == lab[2]:
            lab[0] = lab[1]
        if len(lab) >= 3 and lab[-1] != lab[-2] == lab[-3] and not begins[b - 1]:
            lab[-1] = lab[-2]
        start = a
        for k in range(a + 1, b + 1):
            if k < b and lab[k - a] == lab[k - a - 1] and not (begins[k] and gap(k) != " "):
                continue
            t0, t1 = first[start], last[k - 1]
            s0, s1 = int(starts[t0]), int(ends[t1 - 1])
            spans.append(Span(s0, s1, labels[int(lab[start - a])], text[s0:s1],
                              float(entity[t0:t1].mean())))
            start = k
    return spans


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
    def load(cls, source: str | os.PathLike, device=None) -> "Tagger":
        """The tagger saved at `source`, on `device` (default the CPU)."""
        return cls(*load_task_model(source, "token-classification", device))

    def save(self, directory: str | os.PathLike, info: dict | None = None) -> Path:
        return save_task_model(self, directory, {"task": "tagging",
                                                 "entity_labels": self.labels} | (info or {}))

    def predict(self, texts: Sequence[str], batch: int | None = None, progress: bool = False,
                precision: str = "auto", threshold: float | None = None) -> list[list[Span]]:
        """Spans for each text; windows of all texts are batched together.
        precision: "auto" (bf16 where the hardware has it) or "fp32" (see predict_logits).
        threshold: None tags each token with its most probable tag; a number tags it as
        an entity when P(not O) reaches it (lower: more recall), with the most probable
        entity tag."""
        results = []
        for text, encoding, probs in zip(texts, *self.probabilities(texts, batch, progress,
                                                                     precision)):
            if probs is None:
                results.append([])
                continue
            if threshold is not None:
                results.append(threshold_spans(text, encoding.offsets, probs, self.tags, threshold))
                continue
            tag_ids = probs.argmax(-1)
            chosen = probs[np.arange(len(tag_ids)), tag_ids]
            results.append(tags_to_spans(text, encoding.offsets, tag_ids, chosen, self.tags))
        return results

    def probabilities(self, texts: Sequence[str], batch: int | None = None, progress: bool = False,
                      precision: str = "auto"):
        """(encodings, per text a (tokens, tags) array of tag probabilities or None for
        a text without tokens), each token's row from the window where it has most
        context."""
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
        merged = [merge([w for w, _ in parts], [p for _, p in parts], len(encoding.ids))
                  if parts and encoding.ids else None
                  for encoding, parts in zip(encodings, per_doc)]
        return encodings, merged

    def evaluate(self, examples: Sequence[dict], batch: int | None = None,
                 precision: str = "auto") -> dict:
        """Strict and overlap span scores against the examples' spans."""
        predicted = self.predict([e["text"] for e in examples], batch, precision=precision)
        gold = [[(label, s, e) for s, e, label in ex["spans"]] for ex in examples]
        found = [[(sp.label, sp.start, sp.end) for sp in spans] for spans in predicted]
        return {"strict": span_scores(gold, found), "overlap": span_scores(gold, found, overlap=True)}


def train_tagger(examples: Sequence[dict], base: str | os.PathLike,
                 settings: FitSettings | None = None, labels: Sequence[str] | None = None,
                 size: int = SIZE, stride: int = STRIDE, from_scratch: bool = False,
                 layers: int | None = None, ffn: int | None = None,
                 teacher: str | os.PathLike | None = None) -> Tagger:
    """Fine-tune `base` (any BERT directory, packaged model or hub id) to tag the
    examples' spans. from_scratch: the same network from random weights instead;
    layers: only the base's first `layers` layers; ffn: only the `ffn` feed-forward
    units of each layer that do most on the first 512 training windows; teacher: a
    tagger with the same tags whose probabilities the model learns as well as the
    labels (distillation, `fit`)."""
    settings = settings or FitSettings()
    if not examples:
        raise BertforgeError("no training examples")
    labels = sorted(labels or {label for e in examples for _, _, label in e["spans"]})
    if not labels:
        raise BertforgeError("the training examples hold no spans: nothing to learn to tag")
    tags = tag_names(labels)
    model, tokenizer, size, stride = start_task_model(base, "token-classification", tags, size,
                                                      stride, settings.seed, from_scratch,
                                                      layers)
    teacher_model = None
    if teacher is not None:  # checked before any window is built
        teacher_model, teacher_tokenizer, _, _ = load_task_model(teacher, "token-classification")
        if list(teacher_model.config.labels or []) != tags:
            raise BertforgeError(f"the teacher {teacher} tags {teacher_model.config.labels}, "
                                 f"not this model's {tags}: distil from a tagger trained for "
                                 f"the same labels")
        if teacher_tokenizer.backend.get_vocab() != tokenizer.backend.get_vocab() or \
                teacher_tokenizer.lowercase != tokenizer.lowercase:
            raise BertforgeError(f"the teacher {teacher} reads text with another vocabulary "
                                 f"than {base}: distil from a tagger with the base's tokenizer")
    features = tagging_features(tokenizer, examples, tags, size, stride)
    if ffn is not None:
        model.prune_ffn(ffn, ffn_importance(model, features[:512], tokenizer.pad_id))
    fit(model, features, settings, tokenizer.pad_id, teacher=teacher_model)
    return Tagger(model, tokenizer, size, stride)
