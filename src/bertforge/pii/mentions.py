"""Every mention of a name the model found, over the whole document.

A document names a person in full once and then by part of the name: an article says
"Ben Player" and then "Player", an email is signed "Priya Raman" and greets "Priya".
An uncased model reads "says Player" as "says player" and often misses the short
mention; left in clear, it undoes the mask of the full one. So once the segments of a
document are merged, each PERSON name the model was sure of is looked for again: the
name itself, and the runs of its words at its start and at its end (the runs that
`redact.Entities` already gives the same pseudonym), wherever no span covers them yet.

Only a name of two words or more is looked for (a one-word name is too often a word).
A run is matched as whole words with the case it has in the name ("Player" is not
"player"), and only a run of capitalised words, one of them Capitalised with three
letters or more, stands for the name alone ("ben player" in a chat finds "ben player"
again, never every "ben"; "Mr", "HB" or an initial never stands alone). The rule was adopted by a
pre-registered comparison on validation splits: docs/experiments/2026-12-02-mentions.md.
"""

from __future__ import annotations

import bisect
import re
from typing import Callable, Sequence

from ..spans import Span

SURE = 0.9  # a model PERSON span at least this sure is a name to look for again
WORD = re.compile(r"[^\W\d_]+")  # a run of letters
TITLES = {"mr", "mrs", "ms", "miss", "mx", "dr", "prof", "sir", "dame", "lord", "lady",
          "rev", "fr", "st", "jr", "sr", "mme", "mlle", "herr", "frau"}


def _forms(name: str) -> list[tuple[str, str]]:
    """(first word, regular expression) of the name and of the runs of its words at its
    start and its end that can stand for it, each matching as written (any whitespace
    between words)."""
    words = list(WORD.finditer(name))
    if len(words) < 2:  # a one-word name is too often a word ("Mara", "Will")
        return []
    runs = [(0, len(words))]
    for n in range(1, len(words)):
        runs += [(0, n), (len(words) - n, len(words))]
    out = []
    for i, j in runs:
        part = words[i:j]
        if (i, j) != (0, len(words)) and not _stands_alone([w.group() for w in part]):
            continue
        written = name[part[0].start():part[-1].end()]
        out.append((part[0].group(), r"\s+".join(map(re.escape, written.split()))))
    return list(dict.fromkeys(out))


def _stands_alone(words: list[str]) -> bool:
    """Whether a run of a name's words can stand for the name: capitalised words, one
    of them Capitalised with three letters or more and not a title ("Lee", not "HB",
    "Ib", "Mr" or an initial)."""
    return all(w[:1].isupper() for w in words) and \
        any(len(w) > 2 and not w.isupper() and w.casefold() not in TITLES for w in words)


def every_mention(text: str, spans: Sequence[Span], sure: float = SURE,
                  allowed: Callable[[str], bool] | None = None) -> list[Span]:
    """The spans, plus a PERSON span (from the model, with its name's score) for every
    other mention of a name the model found with a score of at least `sure` that no
    span covers; `allowed(value)` true keeps a value in clear."""
    spans = sorted(spans)
    forms: dict[str, dict[str, float]] = {}  # first word -> {form: its name's score}
    for s in spans:
        if s.label == "PERSON" and s.source == "model" and s.score >= sure:
            for word, form in _forms(s.text):
                known = forms.setdefault(word, {})
                known[form] = max(known.get(form, 0.0), s.score)
    if not forms:
        return spans
    found = {word: (re.compile(r"(?<!\w)(?:" + "|".join(
        f"({f})" for f in sorted(held, key=len, reverse=True)) + r")(?!\w)"),
        [held[f] for f in sorted(held, key=len, reverse=True)]) for word, held in forms.items()}
    starts = [s.start for s in spans]
    added, end = [], 0
    for m in WORD.finditer(text):  # at each word that begins a form, the longest that matches
        if m.start() < end or m.group() not in found:
            continue
        pattern, scores = found[m.group()]
        hit = pattern.match(text, m.start())
        if not hit:
            continue
        a, b = hit.span()
        end = b
        k = bisect.bisect_right(starts, a)
        if (k and spans[k - 1].end > a) or (k < len(spans) and spans[k].start < b):
            continue  # a span covers part of it already
        if allowed is None or not allowed(text[a:b]):
            added.append(Span(a, b, "PERSON", text[a:b], scores[hit.lastindex - 1], "model"))
    return sorted(spans + added) if added else spans
