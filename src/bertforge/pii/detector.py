"""Finding personal data: a fine-tuned tagger and validated patterns, merged.

The merge policy, in order:

1. A pattern backed by a checksum or an equally strict shape (IBAN mod-97, card Luhn
   with an issuer prefix, ABA routing with its keyword, SSN rules, CVV after its
   keyword, email, IP address) wins for its kind: its span replaces whatever the model
   found there. A model span that overlaps it is cut back to the part outside (dropped
   if nothing worth masking is left). So is a model span that overlaps a stretch whose
   format says it holds no personal data (`patterns.not_personal`: the balances and
   statement lines of SWIFT MT940 statements, the references of ISO 20022 payments),
   and unchecked patterns there are dropped.
2. Where context decides (names, companies, addresses, and shapes with no checksum:
   dates, times, phone numbers, BIC codes without their keyword), the model wins: a
   pattern span of that kind is added where the model found nothing, and replaces model
   spans only when they are fragments of it (each shorter than the match and none
   covering it); a model span that covers the match keeps its label and boundaries.
3. Before the merge, model spans are tidied (`_tidy`): whole words, no markup names,
   and the shape every value of their group has (a name holds no digits, a phone
   number at least 7, a date a digit or a month or day name and no leading "before"
   or "on"); then those whose score is under their group's floor are dropped
   (`above_floors`: the card's `floors`, chosen on a validation split by `bertforge
   pii calibrate`), so a pattern can take their place.
4. Spans never overlap; each has a `source` ("model" or "pattern") and a `score` (the
   model's mean tag probability; 1.0 for a pattern).

The model tags a token as personal data when P(not O) reaches the threshold (default
0.3, chosen for recall: a missed account number costs more than a masked word). Long
documents go through overlapping windows; many documents are batched together.
"""

from __future__ import annotations

import bisect
import copy
import logging
import os
import re
import unicodedata
from pathlib import Path
from typing import Iterable, Sequence

from ..compress import quantize_int8
from ..errors import BertforgeError
from ..card import ModelCard
from ..finetune.tagging import Span, Tagger
from . import patterns
from .labels import GROUPS

log = logging.getLogger(__name__)
BUNDLED = Path(__file__).resolve().parent / "model"
THRESHOLD = 0.3


def merge(model_spans: Sequence[Span], matches: Iterable[patterns.PatternMatch],
          text: str) -> list[Span]:
    """Model spans and pattern matches of one text, merged by the policy above.
    Linear in the number of spans after sorting (a 5 MB log has hundreds of thousands)."""
    matches = [m if (m.start, m.end) == _strip(text, m.start, m.end) else
               patterns.PatternMatch(*_strip(text, m.start, m.end), m.kind, m.checked)
               for m in matches]  # "(+44 20 7946 0958" -> "+44 20 7946 0958"
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
                # the part of a piece glued to the match that cut it ("-90" after the
                # "12-345678" a pattern took) is the same value: the match takes it in,
                # so that no value is left partly in clear
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
                if sum(c.isalnum() for c in text[a:b]) < 2:
                    continue
                a, b = _strip(text, a, b)
                span = Span(a, b, span.label, text[a:b], span.score, "model")
            spans.append(span)
            kept.add(span.start, span.end, span)
    dropped: set[int] = set()
    for start, end, m in chosen.items():
        if checked.within(start, end) and not m.checked:
            continue  # inside a stretch that holds no personal data
        if m.checked:
            start, end = grown.get((start, end), (start, end))
            spans.append(Span(start, end, m.group, text[start:end], 1.0, "pattern"))
            continue
        rivals = [s for _, _, s in kept.within(start, end)]
        if any(s.start <= start and s.end >= end for s in rivals):
            continue  # the model marked all of it: its label stands
        if all(s.end - s.start < end - start for s in rivals):
            dropped.update(id(s) for s in rivals)  # fragments of what the pattern marks
            spans.append(Span(start, end, m.group, text[start:end], 1.0, "pattern"))
    return sorted((s for s in spans if id(s) not in dropped), key=lambda s: s.start)


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


LOOSE = set(" \t\r\n,;:|'\"")  # never the first or last character of a span
LOOSE_END = LOOSE | set("-/(")


def _symbol(char: str) -> bool:
    """A symbol such as "▶", "•" or "€" never starts personal data ("+" of a phone does)."""
    return char != "+" and unicodedata.category(char).startswith("S")


def _closes(text: str, a: int, b: int) -> int:
    """Where the bracket opened at text[a] closes before b (-1: not before b)."""
    depth = 0
    for i in range(a, b):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return i
    return -1


def _strip(text: str, a: int, b: int) -> tuple[int, int]:
    while a < b and (text[a] in LOOSE or _symbol(text[a])):
        a += 1
    while b > a and text[b - 1] in LOOSE_END:
        b -= 1
    # a bracket that opens or closes around the value, not inside it: "(+44 20 7946 0958)";
    # a word in brackets is the word ("(52140)"), a pair is a tuple ("(40.71, -74.01)")
    if b - a > 2 and text[a] == "(" and text[b - 1] == ")" and _closes(text, a, b) == b - 1 \
            and not any(c.isspace() for c in text[a:b]):
        return _strip(text, a + 1, b - 1)
    if b > a and text[a] == "(" and text.count(")", a, b) < text.count("(", a, b):
        return _strip(text, a + 1, b)
    if b > a and text[b - 1] == ")" and text.count(")", a, b) > text.count("(", a, b):
        return _strip(text, a, b - 1)
    return a, b


PRECISIONS = ("auto", "fp32", "bf16", "int8")

# A long text is read in segments of SEGMENT characters, each with MARGIN characters of
# context either side, GROUP segments at a time: memory stays bounded whatever the
# document's size (about 50,000 tokens a group), and each group is batched like many
# short documents. A margin is longer than any value (an address runs to a few hundred
# characters) and than the context any rule looks at (`_in_markup`: 200), so a
# segment's core is decided as if the whole text were there; a span that starts in a
# core belongs to that segment.
SEGMENT, MARGIN, GROUP = 16_384, 1_024, 8  # 64 a group: 2.1 GB peak and slower


def _release_memory() -> None:
    """Give the freed temporaries of a group back to the OS. glibc keeps them, and over
    a long text its heap creeps up from the model's tokens, logits and spans of each
    group in turn; elsewhere this does nothing."""
    if _LIBC is not None:
        _LIBC.malloc_trim(0)


def _libc():
    try:
        import ctypes
        libc = ctypes.CDLL("libc.so.6")
        return libc if hasattr(libc, "malloc_trim") else None
    except OSError:
        return None


_LIBC = _libc()


def segments(text: str) -> list[tuple[int, int, int, int]]:
    """(start, end, core start, core end) of each segment of `text`: the cores tile it,
    cut at a line break (or else a space) near every SEGMENT characters."""
    if len(text) <= SEGMENT + 2 * MARGIN:
        return [(0, len(text), 0, len(text))]
    cuts = [0]
    while len(text) - cuts[-1] > SEGMENT + MARGIN:
        nominal = cuts[-1] + SEGMENT
        low = nominal - MARGIN // 2
        cut = text.rfind("\n", low, nominal)
        if cut < 0:
            cut = text.rfind(" ", low, nominal)
        cuts.append(cut + 1 if cut >= 0 else nominal)
    cuts.append(len(text))
    return [(max(0, a - MARGIN), min(len(text), b + MARGIN), a, b)
            for a, b in zip(cuts, cuts[1:])]


class Redactor:
    """Finds and masks personal data. `Redactor.load()` is the bundled model, offline."""

    def __init__(self, tagger: Tagger | None, threshold: float = THRESHOLD,
                 use_patterns: bool = True, region: str = "US", precision: str = "auto",
                 floors: dict[str, float] | None = None):
        """precision: "auto" (bf16 where the CPU or GPU has it, else fp32), "fp32",
        "bf16", or "int8" (a copy of the model with its dense layers quantised, for CPUs
        without bf16: faster, F1 within about 0.02; see `compress.quantize_int8`).
        floors: the lowest score a model span of each group may have, e.g.
        {"ACCOUNT": 0.99}; groups not named have none."""
        if tagger is None and not use_patterns:
            raise BertforgeError("a redactor needs a model, patterns, or both")
        if precision not in PRECISIONS:
            raise BertforgeError(f"precision must be one of {', '.join(PRECISIONS)}, "
                                 f"not {precision!r}")
        if not 0.0 < threshold <= 1.0:
            raise BertforgeError(f"the threshold is a probability in (0, 1], got {threshold}")
        floors = dict(floors or {})
        for group, floor in floors.items():
            if group not in GROUPS or not isinstance(floor, (int, float)) or not 0 <= floor <= 1:
                raise BertforgeError(f"a floor is a score in [0, 1] for one of the groups "
                                     f"{', '.join(GROUPS)}; got {group!r}: {floor!r}")
        if tagger is not None:
            unknown = sorted(set(tagger.labels) - set(GROUPS))
            if unknown:
                raise BertforgeError(f"{getattr(tagger.model, 'source', 'the model')} tags "
                                     f"{', '.join(unknown)}, which are not personal-data groups "
                                     f"({', '.join(GROUPS)}); train it with `bertforge pii train`")
        if precision == "int8" and tagger is not None:
            # a quantised copy: the caller's tagger stays as it was (trainable, saveable)
            tagger = copy.copy(tagger)
            tagger.model = quantize_int8(tagger.model)
        self.tagger, self.threshold = tagger, threshold
        self.use_patterns, self.region, self.floors = use_patterns, region, floors
        # an int8 model takes fp32 inputs: no autocast around it
        self.precision = "fp32" if precision == "int8" else precision

    @classmethod
    def load(cls, source: str | os.PathLike | None = None, threshold: float | None = None,
             use_patterns: bool = True, precision: str = "auto",
             device: str = "auto", floors: dict[str, float] | None = None) -> "Redactor":
        """The model at `source` (a directory from `bertforge pii train`), or the bundled
        one; its card's threshold and floors unless given; precision as for `Redactor`;
        device: cpu, cuda, or auto (a CUDA GPU when PyTorch sees one; the CPU for int8)."""
        from ..training import resolve_device

        directory = Path(source) if source is not None else BUNDLED
        if source is None and not (BUNDLED / "config.json").is_file():
            raise BertforgeError(f"the bundled model is missing from {BUNDLED}; reinstall "
                                 f"bertforge or pass --model DIR")
        if device == "auto" and precision == "int8":
            device = "cpu"
        tagger = Tagger.load(directory, resolve_device(device))
        card = ModelCard.read(tagger.model.source)
        if card.warning:
            log.warning("%s: %s", directory, card.warning)
        return cls(tagger, (card.threshold or THRESHOLD) if threshold is None else threshold,
                   use_patterns, precision=precision,
                   floors=card.floors if floors is None else floors)

    def detect(self, text: str) -> list[Span]:
        return self.detect_batch([text])[0]

    def detect_batch(self, texts: Sequence[str], batch: int | None = None,
                     progress: bool = False) -> list[list[Span]]:
        """Spans for each text; the windows of all texts are batched together, and a
        long text goes through in segments (`segments`), in bounded memory."""
        return self._by_segments(texts, lambda part: self._detect(part, batch), progress)

    def model_spans(self, texts: Sequence[str], batch: int | None = None,
                    progress: bool = False,
                    floors: dict[str, float] | None = None) -> list[list[Span]]:
        """The model's spans alone (tidied, above their floors: the redactor's, unless
        `floors` is given), none without a model."""
        return self._by_segments(texts, lambda part: self._model_spans(part, batch, floors),
                                 progress)

    def _detect(self, texts: Sequence[str], batch: int | None) -> list[list[Span]]:
        found = self._model_spans(texts, batch, None)
        if not self.use_patterns:
            return found
        return [merge(spans, patterns.find(text, region=self.region), text)
                for text, spans in zip(texts, found)]

    def _model_spans(self, texts: Sequence[str], batch: int | None,
                     floors: dict[str, float] | None) -> list[list[Span]]:
        if self.tagger is None:
            return [[] for _ in texts]
        found = self.tagger.predict(texts, batch, precision=self.precision,
                                    threshold=self.threshold)
        floors = self.floors if floors is None else floors
        return [above_floors(_tidy(text, spans), floors) for text, spans in zip(texts, found)]

    @staticmethod
    def _by_segments(texts: Sequence[str], detect, progress: bool) -> list[list[Span]]:
        """`detect` over the segments of the texts, GROUP segments at a time; each
        segment's spans that start in its core, in the text's offsets."""
        from tqdm import tqdm

        for i, text in enumerate(texts):
            if not isinstance(text, str):
                raise BertforgeError(f"text {i} is {type(text).__name__}, not a string")
        pieces = [(i, piece) for i, text in enumerate(texts) for piece in segments(text)]
        out: list[list[Span]] = [[] for _ in texts]
        with tqdm(total=sum(map(len, texts)), unit="char", unit_scale=True,
                  disable=not progress, dynamic_ncols=True) as bar:
            for k in range(0, len(pieces), GROUP):
                group = pieces[k:k + GROUP]
                found = detect([texts[i][a:b] for i, (a, b, _, _) in group])
                for (i, (a, _, core_start, core_end)), spans in zip(group, found):
                    kept = out[i]
                    for span in spans:
                        start = span.start + a
                        if core_start <= start < core_end and (not kept or start >= kept[-1].end):
                            kept.append(Span(start, span.end + a, span.label, span.text,
                                             span.score, span.source))
                    bar.update(core_end - core_start)
                if len(pieces) > GROUP:
                    _release_memory()
        return out

    def redact(self, text: str, style: str = "group", key: str | bytes | None = None) -> str:
        """The text with what `detect` finds replaced (`pii.redact`: styles, fake keys)."""
        from .redact import redact

        return redact(text, self.detect(text), style, key)


def _whole_words(text: str, a: int, b: int) -> tuple[int, int]:
    """A span that cuts a run of letters, digits and underscores in two, widened to it."""
    if b > a:
        while a > 0 and _word(text[a - 1]) and _word(text[a]):
            a -= 1
        while b < len(text) and _word(text[b - 1]) and _word(text[b]):
            b += 1
    return a, b


def _in_markup(text: str, a: int, b: int) -> bool:
    """Whether a span is a tag or attribute name inside "<...>" (not a quoted value):
    XML and HTML names such as "PstlAdr" or "td" are never personal data. Looks no
    further than a tag's length either side: a 5 MB log has many spans and no tags."""
    reach = 200
    opened = text.rfind("<", max(0, a - reach), a)
    if opened < 0 or text.rfind(">", opened, a) >= 0 or "\n" in text[opened:a]:
        return False
    closed = text.find(">", b, b + reach)
    return closed >= 0 and "<" not in text[b:closed] and text.count('"', opened, a) % 2 == 0 \
        and "@" not in text[a:b]


def _word(char: str) -> bool:
    return char.isalnum() or char == "_"


ESCAPE = re.compile(r"\\u[0-9a-fA-F]{4}")  # "\u00e9" in JSON: a letter, not digits
NONSPACE = re.compile(r"\S+")


def _names(text: str, span: Span) -> list[Span]:
    """A person's name has no digits: the words of a PERSON span that hold one are not
    part of it ("04NTRFNONREF", "Smith 4410" -> "Smith"). Other labels pass unchanged."""
    if span.label != "PERSON" or not any(c.isdigit() for c in ESCAPE.sub("", span.text)):
        return [span]
    pieces: list[list[int]] = []  # runs of words without digits, as [start, end]
    after_digits = True
    for m in NONSPACE.finditer(text, span.start, span.end):
        if any(c.isdigit() for c in ESCAPE.sub("", m.group())):
            after_digits = True
        elif after_digits:
            pieces.append([m.start(), m.end()])
            after_digits = False
        else:
            pieces[-1][1] = m.end()
    return [Span(a, b, span.label, text[a:b], span.score, span.source) for a, b in pieces]


def _date_end(text: str, a: int, b: int, label: str) -> int:
    """A full stop after "10:30 AM" or "2024-03-01" ends the sentence, not the date
    ("a.m." keeps its own)."""
    if label == "DATE" and b - a > 2 and text[b - 1] == "." and text[b - 2] != "." \
            and (text[b - 2].isdigit() or text[b - 3:b - 1].upper() in ("AM", "PM")):
        return b - 1
    return b


# Words that lead into a date without being part of it ("before 12 May 2025", "due by
# Friday"). The generator never labels them, yet a model can give such a word a B-DATE
# probability right at the threshold, so whether it joins the span flips with the CPU's
# summation order: the decoding leaves them out whatever the model says.
DATE_LEAD = re.compile(r"(?i)(?:(?:before|after|by|on|or|until|till|since|from|due|as\s+of|"
                       r"no(?:t)?\s+later\s+than|of|at|in|around|between|during|"
                       r"effective|dated|starting|ending)\s+)+")


def _date_start(text: str, a: int, b: int, label: str) -> int:
    """A DATE span starts after the prepositions that lead into it (`DATE_LEAD`)."""
    if label == "DATE":
        lead = DATE_LEAD.match(text, a, b)
        if lead and lead.end() < b:
            return lead.end()
    return a


CALENDAR = re.compile(r"(?i)\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|"
                      r"fri|sat|sun|noon|midnight)")


def _plausible(value: str, label: str) -> bool:
    """The shape every value of some groups has: a phone number has at least 7 digits
    ("200 512" of an access log is no phone), an ID number, card or coordinate at least
    one, and a date a digit or a month or day name ("minutes" is no date)."""
    digits = sum(c.isdigit() for c in value)
    if label == "PHONE":
        return digits >= 7
    if label in ("GOV_ID", "CARD", "LOCATION"):
        return digits > 0
    if label == "DATE":
        return digits > 0 or bool(CALENDAR.search(value))
    return True


def _enough(value: str, label: str) -> bool:
    """Long enough to be personal data: three letters or digits, or a name of two
    letters ("Wu", "王伟": short names are common). A list number or a stray "12" is
    not, nor a two-letter COMPANY: on the validation split those were departments
    ("HR", 15 times) and scraps ("Co."), never a gold span."""
    alnum = sum(c.isalnum() for c in value)
    return alnum >= 3 or (alnum == 2 and label == "PERSON" and any(c.isalpha() for c in value))


def _tidy(text: str, spans: Sequence[Span]) -> list[Span]:
    """Model spans without the spaces and punctuation a widened token can bring along,
    widened to whole words ("svc_" of "svc_payments" is the user name, not half of it),
    joined with a span they touch (the model's "12-345678" and "-90" are one value,
    masked whole), and without scraps too short to be personal data (`_enough`),
    markup names and values of the wrong shape (`_plausible`), and names without
    digits."""
    out: list[Span] = []
    for span in (piece for s in spans for piece in _names(text, s)):
        a, b = _whole_words(text, *_strip(text, span.start, span.end))
        a, b = _date_start(text, a, b, span.label), _date_end(text, a, b, span.label)
        if b <= a:
            continue
        if out and a <= out[-1].end:  # touches the span before: one value, the longer's label
            last = out.pop()
            label = last.label if last.end - last.start >= b - a else span.label
            a, b = last.start, max(b, last.end)
            span = Span(a, b, label, text[a:b], max(last.score, span.score), span.source)
        out.append(span if (a, b) == (span.start, span.end) else
                   Span(a, b, span.label, text[a:b], span.score, span.source))
    return [s for s in out if _enough(s.text, s.label) and _plausible(s.text, s.label)
            and not _in_markup(text, s.start, s.end)]


def above_floors(spans: Sequence[Span], floors: dict[str, float]) -> list[Span]:
    """The spans whose score reaches their group's floor (a group without one: all)."""
    return [s for s in spans if s.score >= floors.get(s.label, 0.0)]



