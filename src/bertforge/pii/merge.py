"""The merge policy: the model's spans and the recognizers' matches of one text become
one list of spans that never overlap, in this order:

1. A pattern backed by a checksum or an equally strict shape (IBAN mod-97, card Luhn
   with an issuer prefix, ABA routing with its keyword, SSN rules, CVV after its
   keyword, email, IP address) wins for its kind: its span replaces whatever the model
   found there. A model span that overlaps it is cut back to the part outside, without
   a scheme's name that labels the value ("Standard Bank, [SWIFT] SBZAZAJJ",
   `tidy.without_scheme`), and dropped if what is left is too short or not of its
   group's shape (`tidy.worth_masking`: the "lautet" of "Ihre IBAN lautet DE89 ..." is
   no bank's number). So is a model span
   that overlaps a stretch whose format says it holds no personal data
   (`patterns.not_personal`: the balances and statement lines of SWIFT MT940
   statements, the references of ISO 20022 payments), and unchecked patterns there are
   dropped.
2. Where context decides (names, companies, addresses, and shapes with no checksum:
   dates, times, phone numbers, BIC codes without their keyword), the model wins: a
   pattern span of that kind is added where the model found nothing, and replaces model
   spans only when they are fragments of it (each inside the match); where a model span
   sticks out of the match, or covers it, the model's spans keep their labels and
   boundaries (unless it only lists the patterns' firms, "Coinbase and Binance":
   `_lists`). A pattern that knows where a value ends but not where it starts (a firm's
   legal form: trust "end") also gives way to a model span of its group that ends with
   it and starts inside it ("Taxi [First Philippe & Co.]": the model read the start),
   unless that span starts on a firm's word (`_starts_well`: "[Finance Ltd]" of
   "Everyday Finance Ltd").
   A firm's match that starts with a person's full name the model found, then a comma,
   starts after the comma (`_named_first`: "Deirdre Fitzsimmons, Baker Whitcombe LLP" on
   a letter's copy list is a person and a firm).
3. Before the merge, model spans are tidied (`tidy.tidy`): whole words, no markup names,
   and the shape every value of their group has (a name holds no digits, a phone
   number at least 7, a date a digit or a month or day name and no leading "before"
   or "on"); then those whose score is under their group's floor are dropped
   (`tidy.above_floors`: the card's `floors`, chosen on a validation split by `bertforge
   pii calibrate`), so a pattern can take their place.
4. Spans never overlap; each has a `source` ("model" or "pattern") and a `score` (the
   model's mean tag probability; 1.0 for a pattern).
"""

from __future__ import annotations

import bisect
from dataclasses import replace
from typing import Iterable, Sequence

from ..spans import Span
from . import patterns
from .tidy import FIRM_STARTS, FIRM_WORDS, LIST_GAP, strip, without_scheme, worth_masking

def merge(model_spans: Sequence[Span], matches: Iterable[patterns.PatternMatch],
          text: str) -> list[Span]:
    """Model spans and pattern matches of one text, merged by the policy above.
    Linear in the number of spans after sorting (a 5 MB log has hundreds of thousands)."""
    matches = [_stripped(text, m) for m in matches]  # "(+44 20 7946 0958" -> "+44 20 7946 0958"
    matches = sorted((m for m in matches if m.end > m.start),
                     key=lambda m: (-m.checked, -(m.end - m.start), m.start))
    chosen = _Intervals()
    for m in matches:  # pattern matches among themselves: strict first, then longest
        if not chosen.overlaps(m.start, m.end):
            chosen.add(m.start, m.end, m)
    checked = _Intervals()
    for start, end, m in chosen.items():
        if m.checked:
            checked.add(start, end, m)
    for start, end in patterns.not_personal(text):
        if not checked.overlaps(start, end):
            checked.add(start, end, None)
    spans, kept, grown = _model_pieces(model_spans, checked, text)
    listed = _lists(kept, chosen, text)
    dropped: set[int] = set(listed)
    for start, end, m in chosen.items():
        if checked.within(start, end) and not m.checked:
            continue  # inside a stretch that holds no personal data
        if m.checked:
            start, end = grown.get((start, end), (start, end))
            spans.append(Span(start, end, m.group, text[start:end], 1.0, "pattern"))
            continue
        rivals = [s for _, _, s in kept.within(start, end) if id(s) not in listed]
        if any(s.start <= start and s.end >= end for s in rivals):
            continue  # the model marked all of it: its label stands
        if not m.sure_start and any(s.label == m.group and s.end == end and _starts_well(s)
                                    for s in rivals):
            continue  # the pattern knows where the value ends, the model where it starts
        head = _named_first(text, start, end, m, rivals)
        if head is not None:  # the model's person stands; the firm is what follows
            start, rivals = head, [s for s in rivals if s.start >= head]
        if all(start <= s.start and s.end <= end for s in rivals):
            dropped.update(id(s) for s in rivals)  # fragments of what the pattern marks
            spans.append(Span(start, end, m.group, text[start:end], 1.0, "pattern"))
        # else a model span sticks out of the match: dropping it would leave its part
        # outside the match in clear, so the model's spans stand
    return sorted((s for s in spans if id(s) not in dropped), key=lambda s: s.start)


def _starts_well(span: Span) -> bool:
    """Whether a model span may say where a firm found by its legal form starts: not on
    a firm's word, which ends firms' names (`tidy.FIRM_WORDS`: "[Finance Ltd]" of
    "Everyday Finance Ltd" was cut short), unless it is one that starts banks' ("Bank")."""
    first = span.text.split(" ")[0]
    return first not in FIRM_WORDS or first in FIRM_STARTS


def _lists(kept: "_Intervals", chosen: "_Intervals", text: str) -> set[int]:
    """The model's COMPANY spans that list firms the patterns found ("Coinbase and
    Binance": two or more COMPANY matches, with nothing else between or around them but
    commas, spaces, "and", "or" and "&"): they give way to the matches, one span a firm."""
    out = set()
    for start, end, span in kept.items():
        if span.label != "COMPANY":
            continue
        inside = [(a, b) for a, b, m in chosen.within(start, end)
                  if not m.checked and m.group == "COMPANY" and start <= a and b <= end]
        if len(inside) < 2:
            continue
        gaps = zip([start] + [b for _, b in inside], [a for a, _ in inside] + [end])
        if all(LIST_GAP.fullmatch(text, a, b) for a, b in gaps):
            out.add(id(span))
    return out


def _named_first(text: str, start: int, end: int, m: patterns.PatternMatch,
                 rivals: list[Span]) -> int | None:
    """Where a firm's match starts anew after a person's full name the model found at
    its start and a comma, the rest two words at least ("Deirdre Fitzsimmons, Baker
    Whitcombe LLP"); None where it does not. A one-word name may be a firm's first
    partner ("Wachtell, Lipton, Rosen & Katz"), and a name with only a legal form after
    it a firm's whole name ("Jane Doe, LLC")."""
    if m.group != "COMPANY":
        return None
    for s in rivals:
        if s.start == start and s.label == "PERSON" and s.source == "model" and \
                " " in s.text and text.startswith(", ", s.end) and \
                " " in text[s.end + 2:end].strip():
            return s.end + 2
    return None


def _stripped(text: str, m: patterns.PatternMatch) -> patterns.PatternMatch:
    a, b = strip(text, m.start, m.end)
    return m if (a, b) == (m.start, m.end) else replace(m, start=a, end=b)


def _model_pieces(model_spans: Sequence[Span], checked: "_Intervals", text: str):
    """(spans, their intervals, grown bounds of checked matches): each model span cut
    back to the parts outside the checked matches and the stretches that hold no
    personal data; a part glued to the match that cut it ("-90" after the "12-345678" a
    pattern took) is the same value, so the match grows to take it in and no value is
    left partly in clear."""
    spans: list[Span] = []
    kept = _Intervals()
    grown: dict[tuple[int, int], list[int]] = {}  # a checked match -> its bounds, widened
    for span in model_spans:
        pieces = [(span.start, span.end)]
        cutters = checked.within(span.start, span.end)
        for start, end, _ in cutters:
            pieces = [part for a, b in pieces for part in _cut(a, b, start, end)]
        for a, b in pieces:
            if (a, b) != (span.start, span.end):
                for start, end, m in cutters:
                    bounds = grown.setdefault((start, end), [start, end])
                    if a == end and m is not None:
                        glue = _glued(text, a, b)
                        bounds[1] = max(bounds[1], glue)
                        a = glue
                    elif b == start and m is not None:
                        glue = _glued_before(text, a, b)
                        bounds[0] = min(bounds[0], glue)
                        b = glue
                a, b = strip(text, a, without_scheme(text, a, b))  # "Bank, [SWIFT] SBZA..."
                if not worth_masking(text[a:b], span.label):  # "IBAN [lautet] DE89 ..."
                    continue
                span = Span(a, b, span.label, text[a:b], span.score, "model")
            spans.append(span)
            kept.add(span.start, span.end, span)
    return spans, kept, grown


class _Intervals:
    """Non-overlapping intervals, sorted, with overlap queries by binary search."""

    def __init__(self):
        self.starts: list[int] = []
        self.rows: list[tuple[int, int, object]] = []

    def add(self, start: int, end: int, item) -> None:
        i = bisect.bisect_left(self.starts, start)
        self.starts.insert(i, start)
        self.rows.insert(i, (start, end, item))

    def within(self, start: int, end: int) -> list[tuple[int, int, object]]:
        """The intervals that overlap [start, end)."""
        i = max(0, bisect.bisect_left(self.starts, start) - 1)
        out = []
        while i < len(self.rows) and self.rows[i][0] < end:
            if self.rows[i][1] > start:
                out.append(self.rows[i])
            i += 1
        return out

    def overlaps(self, start: int, end: int) -> bool:
        return bool(self.within(start, end))

    def items(self):
        return list(self.rows)


def _glued(text: str, a: int, b: int) -> int:
    """Where the run of non-space characters that starts at `a` ends (at most `b`),
    if it holds a letter or digit; else `a`."""
    end = a
    while end < b and not text[end].isspace():
        end += 1
    return end if any(c.isalnum() for c in text[a:end]) else a


def _glued_before(text: str, a: int, b: int) -> int:
    """Where the run of non-space characters that ends at `b` starts (at least `a`),
    if it holds a letter or digit; else `b`."""
    start = b
    while start > a and not text[start - 1].isspace():
        start -= 1
    return start if any(c.isalnum() for c in text[start:b]) else b


def _cut(a: int, b: int, start: int, end: int) -> list[tuple[int, int]]:
    if end <= a or b <= start:
        return [(a, b)]
    return [(x, y) for x, y in ((a, start), (end, b)) if y > x]
