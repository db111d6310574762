"""Token tagging: character spans in, character spans out, BIO tags in between.

Training: each example's spans become a tag per token through the tokenizer's
character offsets (B-X on a span's first token, I-X on the rest, O elsewhere). A span
that covers only part of a token tags the whole token: "£1,250" annotated from the "1"
tags the "£" piece too if the tokenizer made one token of "£1". The round trip is
exact for spans on token boundaries and widens the others to the tokens they touch.
Two labelling schemes (`SUBTOKENS`): every sub-token of a word carries its tag, or only
the first does and the rest are ignored (as `transformers`' token-classification
example trains). Tokens inside an example's `ignore` ranges (a type the annotators
marked but the model is not asked to learn, `conll.py`) carry no loss at all.
Every document is cut into windows (`windows.py`); nothing is truncated.

Prediction: a document's windows end at its paragraph breaks where they can
(`windows.paragraph_windows`: overlap only inside a paragraph longer than a window);
all windows of all documents are batched together by length; each token keeps the
prediction of the window where it has most context. Decoding is by
word (`words`: pieces with no space or punctuation break between them), so a span
never starts or ends inside a word: each word takes one tag, from its first
sub-token's distribution or from the mean over its sub-tokens (`POOLS`), and the
words' tags become character spans as `seqeval` reads them (an I-X with no B-X before
it opens a span), each with a confidence: the mean probability of its words' tags.
`threshold_spans` decodes the same words for recall instead (the redactor's reading).
"""

from __future__ import annotations

import functools
import itertools
import os
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Collection, Sequence

import numpy as np
import torch

from ..card import ModelCard
from ..compress import ffn_importance, prune_ffn
from ..errors import BertforgeError
from ..model import Bert
from ..spans import Span
from ..tokenizer import Tokenizer
from ..windows import SIZE, STRIDE, merge, paragraph_windows, windows
from .examples import labels_of
from .fit import (IGNORE, FitSettings, fit, load_task_model, mix, prediction_inputs,
                  predict_logits, save_task_model, start_task_model)
from .metrics import span_scores


def tag_names(labels: Sequence[str]) -> list[str]:
    """["PER", "ORG"] -> ["O", "B-PER", "I-PER", "B-ORG", "I-ORG"]."""
    return ["O"] + [f"{p}-{label}" for label in labels for p in ("B", "I")]


def spans_to_tags(offsets: Sequence[tuple[int, int]], spans: Sequence[Span],
                  tags: list[str]) -> list[int]:
    """A tag id per token. `spans` are sorted and do not overlap."""
    index = {t: i for i, t in enumerate(tags)}
    out = [0] * len(offsets)
    starts = np.array([s for s, _ in offsets])
    ends = np.array([e for _, e in offsets])
    for span in spans:
        touched = np.nonzero((starts < span.end) & (ends > span.start) & (ends > starts))[0]
        for k, token in enumerate(touched):
            out[token] = index[("B-" if k == 0 else "I-") + span.label]
    return out


def to_spans(tags: Sequence[str]) -> list[Span]:
    """BIO tags -> spans from the first tag to one past the last (positions are the
    tags' indices). An I-X after O or after another label opens a new span, as
    seqeval's default reading does."""
    spans = []
    current = None  # [label, start]
    for i, tag in enumerate(list(tags) + ["O"]):
        prefix, _, label = tag.partition("-")
        continues = prefix == "I" and current is not None and current[0] == label
        if current is not None and not continues:
            spans.append(Span(current[1], i, current[0]))
            current = None
        if prefix in ("B", "I") and not continues:
            current = [label, i]
    return spans


# how a word's tag is read from its sub-tokens' distributions, and which sub-tokens
# carry a word's tag in training; both defaults chosen on validation splits by a rule
# written first (docs/experiments/2026-12-01-word-decoding.md): labelling every
# sub-token trained clearly better than labelling the first alone; the mean read
# about as well as the first sub-token, a little better where it was measured
POOLS = ("first", "mean")
POOL = "mean"
SUBTOKENS = ("all", "first")
SUBTOKEN = "all"
WORDS = ("text", "spaces")


@dataclass
class Words:
    """The words of a tokenized text: pieces with nothing between them and letters or
    digits on both sides of the join ("Lee" + "'s" are two words, "Shimo" + "##kawa"
    one)."""
    first: np.ndarray   # first token of each word
    last: np.ndarray    # one past its last token
    index: np.ndarray   # the word of each token

    def __len__(self) -> int:
        return len(self.first)


def words(text: str, offsets: Sequence[tuple[int, int]], by: str = "text") -> Words:
    """by="text": pieces glued by letters or digits on both sides of the join (the
    reading of running text: "Lee," is "Lee" and ","); by="spaces": everything between
    two spaces is one word (the reading of pre-tokenized text such as CoNLL's, whose
    words are joined by single spaces: "@jack" and "U.S." are one word each)."""
    if by not in WORDS:
        raise BertforgeError(f"words are read by one of {', '.join(WORDS)}, not {by!r}")
    return _words(text, *_bounds(offsets), by)


def _words(text: str, starts: np.ndarray, ends: np.ndarray, by: str = "text") -> Words:
    n = len(starts)
    if n == 0:
        empty = np.zeros(0, dtype=np.int64)
        return Words(empty, empty, empty)
    glued = np.zeros(n, dtype=bool)  # token i continues the word of token i-1
    glued[1:] = (starts[1:] == ends[:-1]) & (ends[:-1] > starts[:-1])
    if by == "text":  # where tokens touch, the characters on both sides of the join
        touching = np.flatnonzero(glued)
        if len(touching):
            at = starts[touching]
            alnum = _alnum(text)
            inner = (at > 0) & (at < len(text))
            glued[touching] = inner & alnum[at - 1] & alnum[np.minimum(at, len(text) - 1)]
    index = np.cumsum(~glued) - 1
    first = np.searchsorted(index, np.arange(int(index[-1]) + 1))
    return Words(first, np.append(first[1:], n), index)


_ASCII_ALNUM = np.array([chr(c).isalnum() for c in range(128)])


def _alnum(text: str) -> np.ndarray:
    """str.isalnum of each character of the text, as an array (ASCII by table, the rest
    one by one: tokens touch at thousands of places a document, not in a Python loop)."""
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    out = _ASCII_ALNUM[np.minimum(codes, 127)]
    wide = np.flatnonzero(codes > 127)
    if len(wide):
        out[wide] = [text[i].isalnum() for i in wide.tolist()]
    return out


def _bounds(offsets: Sequence[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray]:
    """(starts, ends) of the tokens as arrays, in one conversion (from a flat iterator:
    twice as fast as np.array on a list of pairs)."""
    both = np.fromiter(itertools.chain.from_iterable(offsets), dtype=np.int64,
                       count=2 * len(offsets)).reshape(-1, 2)
    return both[:, 0], both[:, 1]


def word_tags(probs: np.ndarray, w: Words, tags: list[str], pool: str = POOL
              ) -> tuple[np.ndarray, np.ndarray]:
    """(a tag id per word, its confidence). pool="first": the argmax of the word's first
    sub-token's distribution. pool="mean": the entity type (or O) with most probability
    mass over all the word's sub-tokens, begun (B-) or continued (I-) as its first
    sub-token says: the pieces after the first were trained as I- of their word, so
    only the first knows whether the word starts a new entity ("@ jack": two names)."""
    if pool == "first":
        dist = probs[w.first]
        best = dist.argmax(-1)
        return best, dist[np.arange(len(best)), best]
    if pool != "mean":
        raise BertforgeError(f"pool must be one of {', '.join(POOLS)}, not {pool!r}")
    mean = np.add.reduceat(probs, w.first, axis=0) / (w.last - w.first)[:, None]
    labels = sorted({t[2:] for t in tags if t != "O"})
    b_cols = np.array([tags.index(f"B-{label}") for label in labels])
    i_cols = np.array([tags.index(f"I-{label}") for label in labels])
    outside = mean[:, tags.index("O")]
    mass = mean[:, b_cols] + mean[:, i_cols]
    kind = mass.argmax(-1)
    rows = np.arange(len(kind))
    inside = mass[rows, kind] > outside
    first = probs[w.first]
    begins = first[rows, b_cols[kind]] >= first[rows, i_cols[kind]]
    best = np.where(inside, np.where(begins, b_cols[kind], i_cols[kind]), tags.index("O"))
    return best, np.where(inside, mass[rows, kind], outside)


def word_spans(text: str, offsets: Sequence[tuple[int, int]], probs: np.ndarray,
               tags: list[str], pool: str = POOL, by: str = "text") -> list[Span]:
    """Spans from one tag per word (`word_tags`; words read as `by` says), read as
    seqeval reads BIO tags; the score is the mean confidence of the words' tags."""
    w = words(text, offsets, by)
    if not len(w):
        return []
    best, chosen = word_tags(probs, w, tags, pool)
    out = []
    for run in to_spans([tags[t] for t in best]):   # a run of words
        s0, s1 = offsets[w.first[run.start]][0], offsets[w.last[run.end - 1] - 1][1]
        out.append(Span(s0, s1, run.label, text[s0:s1], float(chosen[run.start:run.end].mean())))
    return out


def _breaks(gap: str, before: str, after: str, multiline: Collection[str]) -> bool:
    """Whether the text between two inside words ends a run of them: a tab or three
    spaces (a column gap), a blank line, or a line break, unless both words carry one
    label of `multiline` (the labels whose values run over lines)."""
    return "\t" in gap or "   " in gap or "\n\n" in gap or \
        ("\n" in gap and not (before == after and before in multiline))


def _runs(inside: np.ndarray, broken) -> list[tuple[int, int]]:
    """Maximal runs [a, b) of inside words that `broken(v)` does not cut before word v."""
    edges = np.flatnonzero(np.diff(np.concatenate(([0], inside.astype(np.int8), [0]))))
    runs = []
    for a, b in zip(edges[::2].tolist(), edges[1::2].tolist()):  # runs of inside words
        for v in range(a + 1, b):
            if broken(v):
                runs.append((a, v))
                a = v
        runs.append((a, b))
    return runs


def _smoothed(lab: list[int], ends_new: bool) -> list[int]:
    """A run's word labels with lone changes undone: a word between two of another label
    takes theirs, and so does a word at either end whose neighbour's label goes on for
    two words (the last one not when it starts a new entity, `ends_new`)."""
    if len(lab) < 3:
        return lab
    lab = list(lab)
    for k in range(1, len(lab) - 1):
        if lab[k - 1] == lab[k + 1] != lab[k]:
            lab[k] = lab[k - 1]
    if lab[0] != lab[1] == lab[2]:
        lab[0] = lab[1]
    if lab[-1] != lab[-2] == lab[-3] and not ends_new:
        lab[-1] = lab[-2]
    return lab


def threshold_spans(text: str, offsets: Sequence[tuple[int, int]], probs: np.ndarray,
                    tags: list[str], threshold: float,
                    multiline: Collection[str] = ()) -> list[Span]:
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
      tab, three spaces, a blank line, or a line break comes between them (table
      cells, fixed-width columns and lines are separate values), except that a line
      break does not end a run of one of the `multiline` labels (the redactor's
      addresses).
      The score is the mean P(not O) of its tokens.
    Token-by-token argmax instead breaks entities into fragments whenever two labels
    trade places inside one."""
    if len(offsets) == 0:
        return []
    labels, b_cols, i_cols = _columns(tuple(tags))
    entity = 1.0 - probs[:, 0]
    running = np.concatenate(([0.0], np.cumsum(entity, dtype=np.float64)))  # for the means
    starts, ends = _bounds(offsets)
    w = _words(text, starts, ends)
    inside = np.add.reduceat((entity >= threshold).astype(int), w.first) > 0
    b_mass = np.add.reduceat(probs[:, b_cols], w.first, axis=0)
    i_mass = np.add.reduceat(probs[:, i_cols], w.first, axis=0)
    label = (b_mass + i_mass).argmax(-1).tolist()
    begins = (b_mass.sum(-1) > i_mass.sum(-1)).tolist()
    # each word's first and last character, as Python ints for the loops below
    word_start = starts[w.first].tolist()
    word_end = ends[w.last - 1].tolist()
    token_first, token_last = w.first.tolist(), w.last.tolist()

    def gap(v):  # the text between word v-1 and word v
        return text[word_end[v - 1]:word_start[v]]

    def broken(v):  # whether the text before word v ends a run (most gaps: one space)
        g = gap(v)
        return g not in ("", " ") and _breaks(g, labels[label[v - 1]], labels[label[v]], multiline)

    spans = []
    for a, b in _runs(inside, broken):
        lab = _smoothed(label[a:b], ends_new=begins[b - 1])
        start = a
        for k in range(a + 1, b + 1):
            if k < b and lab[k - a] == lab[k - a - 1] and not (begins[k] and gap(k) != " "):
                continue
            t0, t1 = token_first[start], token_last[k - 1]
            s0, s1 = word_start[start], word_end[k - 1]
            spans.append(Span(s0, s1, labels[lab[start - a]], text[s0:s1],
                              float((running[t1] - running[t0]) / (t1 - t0))))
            start = k
    return spans


@functools.lru_cache(maxsize=16)
def _columns(tags: tuple[str, ...]) -> tuple[list[str], np.ndarray, np.ndarray]:
    """(the entity labels, sorted; the column of each one's B- tag; of its I- tag)."""
    labels = sorted({t[2:] for t in tags if t != "O"})
    return (labels, np.array([tags.index(f"B-{label}") for label in labels]),
            np.array([tags.index(f"I-{label}") for label in labels]))


# An uncased vocabulary cannot see capital letters, the first cue for a name in real
# text. A tagger trained with case=True is told each token's case shape through the
# segment ids, which a one-text input leaves at 0: the segment table grows from 2 rows to
# 5, the new rows start as copies of row 0 (so the network starts as it was) and learn.
# The network stays a plain BERT; its inputs carry one more fact.
CASE_TYPES = {"lower": 0, "capitalised": 2, "upper": 3, "mixed": 4}  # 1: a pair's 2nd text


def case_types(text: str, offsets: Sequence[tuple[int, int]]) -> list[int]:
    """Each token's case shape as a segment id (`CASE_TYPES`): from the characters it
    covers in the original text; a token without capitals (or without letters) is 0."""
    out = []
    for start, end in offsets:
        piece = text[start:end]
        if not any(c.isupper() for c in piece):
            out.append(0)
        elif len([c for c in piece if c.isalpha()]) > 1 and not any(c.islower() for c in piece):
            out.append(3)
        elif piece[:1].isupper() and not any(c.isupper() for c in piece[1:]):
            out.append(2)
        else:
            out.append(2 if len(piece) == 1 else 4)
    return out


def add_case_types(model: Bert) -> Bert:
    """Grow the model's segment table to hold the case shapes (new rows copy row 0)."""
    rows = max(CASE_TYPES.values()) + 1
    old = model.embeddings.segments
    if old.num_embeddings >= rows:
        return model
    grown = torch.nn.Embedding(rows, old.embedding_dim).to(old.weight.device, old.weight.dtype)
    with torch.no_grad():
        grown.weight[:old.num_embeddings] = old.weight
        grown.weight[old.num_embeddings:] = old.weight[0]
    model.embeddings.segments = grown
    model.config = replace(model.config, type_vocab_size=rows)
    return model


BLANK_LINE = re.compile(r"\n[ \t\r\f\v]*\n")


def paragraph_starts(text: str, offsets: Sequence[tuple[int, int]]) -> list[int]:
    """The tokens that start a paragraph: the first after each blank line."""
    ends = [m.end() for m in BLANK_LINE.finditer(text)]
    if not ends or not len(offsets):
        return []
    return np.unique(np.searchsorted(_bounds(offsets)[0], ends)).tolist()


def segment_ids(text: str, offsets, case: bool) -> list[int]:
    """The segment ids of one text's tokens (no specials): its case shapes, or zeros."""
    return case_types(text, offsets) if case else [0] * len(offsets)


def tagging_features(tokenizer: Tokenizer, examples: Sequence[dict], tags: list[str],
                     size: int = SIZE, stride: int = STRIDE, subtokens: str = SUBTOKEN,
                     case: bool = False) -> list[dict]:
    """Every window of every example as a model input with a tag per token (IGNORE on
    the tokens of an example's `ignore` ranges, and with subtokens="first" on every
    sub-token of a word but its first); case: segment ids carry the case shapes."""
    if subtokens not in SUBTOKENS:
        raise BertforgeError(f"subtokens must be one of {', '.join(SUBTOKENS)}, not {subtokens!r}")
    encodings = tokenizer.encode_batch([e["text"] for e in examples], add_special_tokens=False)
    features = []
    for example, encoding in zip(examples, encodings):
        tag_ids = label_tokens(example, encoding.offsets, tags, subtokens)
        types = segment_ids(example["text"], encoding.offsets, case)
        for w in windows(len(encoding.ids), size, stride):
            ids = encoding.ids[w.start:w.end]
            features.append({"input_ids": [tokenizer.cls_id] + ids + [tokenizer.sep_id],
                             "token_type_ids": [0] + types[w.start:w.end] + [0],
                             "labels": [IGNORE] + tag_ids[w.start:w.end] + [IGNORE],
                             "source": example.get("source")})
    return features


def label_tokens(example: dict, offsets: Sequence[tuple[int, int]], tags: list[str],
                 subtokens: str = "all") -> list[int]:
    """The training label of each token of one example (a tag id, or IGNORE)."""
    tag_ids = spans_to_tags(offsets, example["spans"], tags)
    if subtokens == "first" and offsets:
        w = words(example["text"], offsets, words_of(example))
        keep = np.zeros(len(offsets), dtype=bool)
        keep[w.first] = True
        tag_ids = [t if k else IGNORE for t, k in zip(tag_ids, keep)]
    for start, end in example.get("ignore", ()):
        for token, (a, b) in enumerate(offsets):
            if a < end and b > start and b > a:
                tag_ids[token] = IGNORE
    return tag_ids


def words_of(example: dict) -> str:
    """How an example's words are read: by spaces if it came pre-tokenized (CoNLL)."""
    return "spaces" if example.get("pretokenized") else "text"


def drop_ignored(spans: Sequence[Span], ignore: Sequence[tuple[int, int]]) -> list[Span]:
    """The spans that overlap none of the `ignore` ranges: a prediction there earns
    neither credit nor blame."""
    return [sp for sp in spans if not any(sp.start < e and s < sp.end for s, e in ignore)]


TOKEN_TYPES = "token_types"  # the card's key: "case" when segment ids carry the case


def told_case(model: Bert) -> bool:
    """Whether the model's card says its segment ids carry the case."""
    return ModelCard.read(getattr(model, "source", None)).token_types == "case"


class Tagger:
    """A token-classification BERT with its tokenizer, tags and window settings."""

    def __init__(self, model: Bert, tokenizer: Tokenizer, size: int = SIZE, stride: int = STRIDE,
                 case: bool = False):
        if model.head != "token-classification":
            raise BertforgeError(f"a tagger needs a token-classification model, not {model.head!r}")
        if case and model.config.type_vocab_size <= max(CASE_TYPES.values()):
            raise BertforgeError(f"a tagger told the case needs {max(CASE_TYPES.values()) + 1} "
                                 f"segment rows; this model has {model.config.type_vocab_size}")
        self.model, self.tokenizer, self.size, self.stride = model, tokenizer, size, stride
        self.case = case  # segment ids carry each token's case shape (`case_types`)
        self.tags = list(model.config.labels)
        self.labels = sorted({t[2:] for t in self.tags if t != "O"})

    @classmethod
    def load(cls, source: str | os.PathLike, device=None) -> "Tagger":
        """The tagger saved at `source` (fine-tuned, or a feature tagger), on `device`
        (default the CPU)."""
        if (Path(source) / "tagger.safetensors").is_file():
            from .features import load_feature_tagger

            tagger = load_feature_tagger(source)
            tagger.model.to(device or "cpu")
            return tagger
        model, tokenizer, size, stride = load_task_model(source, "token-classification", device)
        return cls(model, tokenizer, size, stride, case=told_case(model))

    def save(self, directory: str | os.PathLike, info: dict | None = None) -> Path:
        if hasattr(self.model, "head_state"):  # a feature tagger: its own format
            from .features import save_feature_tagger

            return save_feature_tagger(self, directory, info)
        return save_task_model(self, directory, {"task": "tagging", "entity_labels": self.labels}
                               | self.input_card() | (info or {}))

    def input_card(self) -> dict:
        """What a reader of the saved model must feed it beyond the token ids."""
        if not self.case:
            return {}
        return {TOKEN_TYPES: "case", "inputs": (
            "token_type_ids carry each token's case shape, not a segment: 0 no capitals, "
            "2 Capitalised, 3 UPPER, 4 mIxed, from the characters the token covers in the "
            "original text (bertforge.finetune.tagging.case_types); 0 for [CLS] and [SEP]. "
            "It loads as a plain BertForTokenClassification, which given zeros reads "
            "every word as lower case and tags worse")}

    def predict(self, texts: Sequence[str], batch: int | None = None, progress: bool = False,
                precision: str = "auto", threshold: float | None = None,
                pool: str = POOL, by: str = "text",
                multiline: Collection[str] = ()) -> list[list[Span]]:
        """Spans for each text; windows of all texts are batched together.
        precision: "auto" (bf16 where the hardware has it) or "fp32" (see predict_logits).
        threshold: None gives each word its most probable tag (`word_spans`, the word's
        distribution read as `pool` says, words as `by` says: "spaces" for text that is
        pre-tokenized words joined by spaces); a number puts a word in an entity when
        P(not O) of any of its tokens reaches it (lower: more recall), `threshold_spans`,
        whose runs of a `multiline` label go on over line breaks."""
        results = []
        for text, encoding, probs in zip(texts, *self.probabilities(texts, batch, progress,
                                                                     precision)):
            if probs is None:
                results.append([])
                continue
            if threshold is not None:
                results.append(threshold_spans(text, encoding.offsets, probs, self.tags,
                                               threshold, multiline))
                continue
            results.append(word_spans(text, encoding.offsets, probs, self.tags, pool, by))
        return results

    def window_features(self, texts: Sequence[str]):
        """(encodings, the model input of every window of every text, (text index,
        window) of each): what `probabilities` runs the model on."""
        encodings = self.tokenizer.encode_batch(list(texts), add_special_tokens=False)
        features, owners = [], []
        for doc, (text, encoding) in enumerate(zip(texts, encodings)):
            types = segment_ids(text, encoding.offsets, self.case)
            for w in paragraph_windows(len(encoding.ids), paragraph_starts(text, encoding.offsets),
                                       self.size, self.stride):
                ids = encoding.ids[w.start:w.end]
                features.append({"input_ids": [self.tokenizer.cls_id] + ids + [self.tokenizer.sep_id],
                                 "token_type_ids": [0] + types[w.start:w.end] + [0]})
                owners.append((doc, w))
        return encodings, features, owners

    def probabilities(self, texts: Sequence[str], batch: int | None = None, progress: bool = False,
                      precision: str = "auto"):
        """(encodings, per text a (tokens, tags) array of tag probabilities or None for
        a text without tokens), each token's row from the window where it has most
        context."""
        encodings, features, owners = self.window_features(texts)
        probs = predict_logits(self.model, features, self.tokenizer.pad_id, batch,
                               progress=progress, precision=precision,
                               probabilities=True) if features else []
        per_doc: list[list] = [[] for _ in texts]
        for (doc, w), rows in zip(owners, probs):
            per_doc[doc].append((w, rows[1:-1]))  # drop [CLS] and [SEP]
        merged = [merge([w for w, _ in parts], [p for _, p in parts], len(encoding.ids))
                  if parts and encoding.ids else None
                  for encoding, parts in zip(encodings, per_doc)]
        return encodings, merged

    def evaluate(self, examples: Sequence[dict], batch: int | None = None,
                 precision: str = "auto", pool: str = POOL) -> dict:
        """Strict and overlap span scores against the examples' spans (predictions on an
        example's `ignore` ranges are left out; pre-tokenized examples read by spaces)."""
        predicted = [None] * len(examples)
        for by in WORDS:
            chosen = [k for k, e in enumerate(examples) if words_of(e) == by]
            found = self.predict([examples[k]["text"] for k in chosen], batch,
                                 precision=precision, pool=pool, by=by) if chosen else []
            for k, spans in zip(chosen, found):
                predicted[k] = spans
        gold = [ex["spans"] for ex in examples]
        found = [drop_ignored(spans, ex.get("ignore", ())) for spans, ex in zip(predicted, examples)]
        return {"strict": span_scores(gold, found), "overlap": span_scores(gold, found, overlap=True)}


def train_tagger(examples: Sequence[dict], base: str | os.PathLike,
                 settings: FitSettings | None = None, labels: Sequence[str] | None = None,
                 size: int = SIZE, stride: int = STRIDE, from_scratch: bool = False,
                 layers: int | None = None, ffn: int | None = None,
                 teacher: str | os.PathLike | None = None, subtokens: str = SUBTOKEN,
                 weights: dict | None = None, case: bool = False) -> Tagger:
    """Fine-tune `base` (any BERT directory, packaged model or hub id) to tag the
    examples' spans. from_scratch: the same network from random weights instead;
    layers: only the base's first `layers` layers; ffn: only the `ffn` feed-forward
    units of each layer that do most on the first 512 training windows; teacher: a
    tagger with the same tags whose probabilities the model learns as well as the
    labels (distillation, `fit`); subtokens: which sub-tokens of a word carry its tag
    ("all", or "first" with the rest ignored); weights: each example's "source" to its
    share of the training windows (`fit.mix`); case: tell the model each token's case
    shape (`add_case_types`)."""
    settings = settings or FitSettings()
    if not examples:
        raise BertforgeError("no training examples")
    labels = sorted(labels) if labels else labels_of(examples)
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
    case = case or told_case(model)  # a base told the case stays so
    if case:
        add_case_types(model)
    features = tagging_features(tokenizer, examples, tags, size, stride, subtokens, case)
    if weights is not None:
        features = mix(features, weights, settings.seed)
    if ffn is not None:
        device = next(model.parameters()).device
        batches = (inputs for _, inputs in prediction_inputs(features[:512], tokenizer.pad_id, device))
        model = prune_ffn(model, ffn, ffn_importance(model, batches), inplace=True)
    fit(model, features, settings, tokenizer.pad_id, teacher=teacher_model)
    return Tagger(model, tokenizer, size, stride, case=case)
