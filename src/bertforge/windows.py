"""Overlapping windows over long inputs, and merging what the model says about each.

BERT reads at most 512 positions; a document is any length. So a document's tokens are
cut into windows of at most `size` tokens (510 by default, leaving room for [CLS] and
[SEP]) whose starts are at most `stride` tokens apart (384), so every token is in at
least one window, neighbours share at least `size - stride` tokens, and no document is
ever truncated. A document longer than one window gets the fewest windows that allow,
all of one length, spread evenly from its first token to its last: 359 tokens in
windows of 254 every 192 are read as 0-211 and 148-359 (422 tokens of work), not as
0-254 and 105-359 (508).

A token near a window's edge is read with little context on one side. Where windows
overlap, `merge` keeps, for each token, the prediction of the window in which it sits
furthest from an edge (the "maximum context" rule of BERT's SQuAD code).

Across a paragraph break there is little context to give, so `paragraph_windows` ends
windows at breaks where it can: whole paragraphs packed into windows without overlap,
and overlapping windows only inside a paragraph longer than a window. A long letter or
report then costs what its paragraphs would as separate documents.

This module knows nothing about models or text: windows are token ranges, predictions
are arrays with one row per token of the window.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from .errors import BertforgeError

SIZE, STRIDE = 510, 384


@dataclass(frozen=True)
class Window:
    start: int  # first token of the document in the window
    end: int    # one past the last

    def __len__(self) -> int:
        return self.end - self.start


def windows(n_tokens: int, size: int = SIZE, stride: int = STRIDE) -> list[Window]:
    """Windows covering tokens 0 … n_tokens-1; one window if the document fits."""
    if size < 1 or stride < 1:
        raise BertforgeError(f"window size and stride must be positive, got {size} and {stride}")
    if stride > size:
        raise BertforgeError(f"a stride of {stride} over windows of {size} tokens would skip "
                             f"tokens: the stride must not exceed the window")
    if n_tokens <= size:
        return [Window(0, n_tokens)]
    count = -(-(n_tokens - size) // stride) + 1               # the fewest windows
    length = -(-(n_tokens + (count - 1) * (size - stride)) // count)  # <= size
    step = (n_tokens - length) / (count - 1)                   # <= length - (size - stride)
    return [Window(s, s + length) for s in (round(i * step) for i in range(count))]


def paragraph_windows(n_tokens: int, breaks: Sequence[int], size: int = SIZE,
                      stride: int = STRIDE) -> list[Window]:
    """Windows covering tokens 0 … n_tokens-1 that end where a paragraph does: whole
    paragraphs (`breaks`: the tokens that start one) packed into windows of at most
    `size` tokens, without overlap, as evenly as the breaks allow (`_pack`); a
    paragraph longer than a window is read in overlapping `windows` of its own. A text
    that fits, or has no breaks, gets exactly `windows(n_tokens, size, stride)`.
    Overlap is there to give a token context on both sides; across a blank line there
    is little to give, and a long document of many paragraphs then costs what its
    paragraphs would as documents."""
    cuts = sorted({b for b in breaks if 0 < b < n_tokens})
    if n_tokens <= size or not cuts:
        return windows(n_tokens, size, stride)
    bounds = [0, *cuts, n_tokens]
    out, run = [], 0  # run: where the current run of paragraphs that fit a window starts
    for k in range(len(bounds) - 1):
        a, b = bounds[k], bounds[k + 1]
        if b - a > size:  # one paragraph longer than a window
            out += _pack(bounds[run:k + 1], size)
            out += [Window(a + w.start, a + w.end) for w in windows(b - a, size, stride)]
            run = k + 1
    return out + _pack(bounds[run:], size)


def _pack(bounds: Sequence[int], size: int) -> list[Window]:
    """Consecutive paragraphs (`bounds`: where each starts, then where the last ends;
    none longer than `size`) in the fewest windows of at most `size` tokens, cut so that
    the longest window is as short as the breaks allow: a short last paragraph is read
    with the ones before it, not alone (a signature block alone in a window loses the
    letter that says what its lines are)."""
    if len(bounds) < 2:
        return []
    count = len(_greedy(bounds, size))
    longest = max(b - a for a, b in zip(bounds, bounds[1:]))
    low, high = max(longest, -(-(bounds[-1] - bounds[0]) // count)), size
    while low < high:  # the smallest limit at which `count` windows still suffice
        middle = (low + high) // 2
        if len(_greedy(bounds, middle)) <= count:
            high = middle
        else:
            low = middle + 1
    return _greedy(bounds, low)


def _greedy(bounds: Sequence[int], limit: int) -> list[Window]:
    """Each window takes every following paragraph that still fits in `limit` tokens."""
    out, start, last = [], bounds[0], bounds[0]
    for b in bounds[1:]:
        if b - start > limit:
            out.append(Window(start, last))
            start = last
        last = b
    return out + [Window(start, last)]


def context(window: Window) -> np.ndarray:
    """For each token of the window, its distance to the nearer edge."""
    position = np.arange(len(window))
    return np.minimum(position, len(window) - 1 - position)


def merge(spans: Sequence[Window], predictions: Sequence[np.ndarray], n_tokens: int) -> np.ndarray:
    """One row per document token, each from the window that gives it most context
    (the earlier window on a tie). predictions[i] has len(spans[i]) rows."""
    if len(spans) != len(predictions):
        raise BertforgeError(f"{len(spans)} windows but {len(predictions)} predictions")
    if not spans:
        raise BertforgeError("nothing to merge: no windows")
    first = np.asarray(predictions[0])
    merged = np.zeros((n_tokens,) + first.shape[1:], dtype=first.dtype)
    best = np.full(n_tokens, -1)
    for window, prediction in zip(spans, predictions):
        prediction = np.asarray(prediction)
        if len(prediction) != len(window):
            raise BertforgeError(f"window {window.start}:{window.end} has {len(window)} tokens "
                                 f"but {len(prediction)} predictions")
        score = context(window)
        where = slice(window.start, window.end)
        better = score > best[where]
        merged[where][better] = prediction[better]
        best[where] = np.where(better, score, best[where])
    if (best < 0).any():
        raise BertforgeError("the windows do not cover every token")
    return merged
