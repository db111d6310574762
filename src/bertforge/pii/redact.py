"""Masking what was found, with nothing else changed.

Each span is replaced by its group's `Operator` (a policy, `policy.py`, names one per
group); the styles of `bertforge redact --style` are one operator for every group:
- "group" (default): "[PERSON]";
- "numbered": "[PERSON_1]", one number per entity within a document ("Ann Lee" and a
  later "Lee" are one person, "Brightwater Joinery Ltd." and "Brightwater" one company:
  `Entities`), so a reader can still tell who did what;
- "mask": every character but whitespace becomes "*" (the layout survives);
- "fake": a fake value that reads like the original (`fakes.py`: the same format,
  country and checksums). The key is secret: with a public one, anybody could fake
  every candidate value (every date from 1930 to 2005, every name on a list) and read
  the original back from its fake. `redact` without a key uses this process's random
  one (`session_key`); a policy draws one per document unless told otherwise.

`html` shows the spans highlighted by group, for review.
"""

from __future__ import annotations

import html as html_module
import os
import re
import string
from dataclasses import dataclass
from typing import Sequence

from ..errors import BertforgeError
from ..spans import Span
from .fakes import fake_value, session_key

OPERATORS = ("replace", "mask", "hash", "fake", "encrypt", "keep")
PLACEHOLDERS = {"replace": ("group", "n"), "hash": ("group", "n", "hash")}


@dataclass(frozen=True)
class Operator:
    """How one group's values are replaced (a policy names one per group):
    - replace: `template` with {group} and {n} (one number per entity in a document);
    - mask: every character but whitespace becomes `char`, except the first
      `keep_first` and the last `keep_last`;
    - hash: `template` with {hash}, the first `length` hex digits of a keyed HMAC-SHA256;
    - fake: a fake value of the same kind (`fake_value`);
    - encrypt: a token that `restore` turns back into the value (`crypto.encrypt`);
    - keep: the value stays as it is."""
    name: str = "replace"
    template: str = ""
    char: str = "*"
    keep_first: int = 0
    keep_last: int = 0
    length: int = 16

    def __post_init__(self):
        if self.name not in OPERATORS:
            raise BertforgeError(f"unknown operator {self.name!r}; choose one of "
                                 f"{', '.join(OPERATORS)}")
        if not self.template and self.name in PLACEHOLDERS:
            object.__setattr__(self, "template", "[{group}]" if self.name == "replace"
                               else "[{group}:{hash}]")
        for name in string.Formatter().parse(self.template):
            if name[1] is not None and name[1] not in PLACEHOLDERS.get(self.name, ()):
                raise BertforgeError(f"the template {self.template!r} names {{{name[1]}}}; "
                                     f"{self.name} fills "
                                     f"{', '.join('{%s}' % p for p in PLACEHOLDERS.get(self.name, ())) or 'none'}")
        if len(self.char) != 1 or self.char.isspace():
            raise BertforgeError(f"a mask character is one visible character, not {self.char!r}")
        if min(self.keep_first, self.keep_last) < 0 or not 4 <= self.length <= 64:
            raise BertforgeError("keep_first and keep_last are 0 or more; a hash length is 4 to 64")


# the styles of `bertforge redact --style`: one operator for every group
STYLES = {"group": Operator("replace", "[{group}]"), "numbered": Operator("replace", "[{group}_{n}]"),
          "mask": Operator("mask"), "fake": Operator("fake")}


def check(text: str, spans: Sequence[Span]) -> list[Span]:
    """Spans sorted, inside the text and not overlapping; else a clear error."""
    ordered = sorted(spans, key=lambda s: (s.start, s.end))
    for s in ordered:
        if not 0 <= s.start < s.end <= len(text):
            raise BertforgeError(f"span ({s.start}, {s.end}, {s.label}) is outside a text of "
                                 f"{len(text)} characters")
    for a, b in zip(ordered, ordered[1:]):
        if b.start < a.end:
            raise BertforgeError(f"spans ({a.start}, {a.end}, {a.label}) and ({b.start}, "
                                 f"{b.end}, {b.label}) overlap")
    return ordered


def redact(text: str, spans: Sequence[Span], style: str = "group",
           key: str | bytes | None = None) -> str:
    """The text with exactly the spans replaced in one of the `STYLES`; `key` seeds the
    "fake" style (default: this process's random `session_key()`). A policy
    (`policy.Policy`) chooses per group instead."""
    if style not in STYLES:
        raise BertforgeError(f"unknown redaction style {style!r}; choose one of {', '.join(STYLES)}")
    return replace_spans(text, spans, lambda group: STYLES[style], fake_key=key)[0]


def replace_spans(text: str, spans: Sequence[Span], operator_of, key=None,
                  fake_key: str | bytes | None = None, shift_days: int | None = None,
                  vault=None) -> tuple[str, list[str]]:
    """(the text with each span replaced by its group's operator, the operator applied
    to each span in order). `key`: a `crypto.Key`, which hash and encrypt need;
    `fake_key`: what seeds fakes (default: `session_key()`); `shift_days`: move every
    fake date by this many days instead of drawing each; `vault`: a `vault.Vault` that
    keeps each numbered and fake replacement, across documents, for `restore`."""
    entities = Entities(vault)
    fakes = {"key": fake_key, "shift_days": shift_days}
    out, applied, last = [], [], 0
    for span in check(text, spans):
        operator = operator_of(span.label)
        value = text[span.start:span.end]
        out += [text[last:span.start], _replacement(operator, span.label, value, entities,
                                                    key, fakes)]
        applied.append(operator.name)
        last = span.end
    out.append(text[last:])
    return "".join(out), applied


def _replacement(op: Operator, group: str, value: str, entities: "Entities", key,
                 fakes: dict) -> str:
    from . import crypto

    if op.name == "keep":
        return value
    if op.name == "mask":
        return _mask(value, op)
    if op.name == "fake":
        canonical = entities.canonical(group, value)
        fake = entities.kept(group, canonical, "fake") or fake_value(
            group, canonical, fakes["key"], fakes["shift_days"])
        return entities.keep(op, group, canonical, value, _same_part(value, canonical, fake), fake)
    if op.name in ("hash", "encrypt") and key is None:
        raise BertforgeError(f"{op.name} for {group} needs a key: give the policy "
                             f"key: {{file: ...}} or key: {{env: ...}}, or --key-file")
    if op.name == "encrypt":
        return crypto.encrypt(key, group, value)
    canonical = entities.canonical(group, value)
    fields = {"group": group, "n": entities.number(group, value)}
    if op.name == "hash":
        fields["hash"] = crypto.keyed_hash(key, group, canonical, op.length)
    replacement = op.template.format(**fields)
    return entities.keep(op, group, canonical, value, replacement, replacement)


def _mask(value: str, op: Operator) -> str:
    end = len(value) - op.keep_last
    return "".join(c if k < op.keep_first or k >= end or c.isspace() else op.char
                   for k, c in enumerate(value))


# words a company's name may carry or drop ("Brightwater Joinery Ltd." is "Brightwater")
COMPANY_FORMS = {"ltd", "limited", "plc", "llc", "llp", "inc", "incorporated", "corp",
                 "corporation", "co", "company", "gmbh", "ag", "sa", "sas", "bv", "nv", "pty"}


# the groups whose shorter mentions ("Lee" of "Ann Lee", "Brightwater" of "Brightwater
# Joinery Ltd.") are the entity named in full before them
PARTS = ("PERSON", "COMPANY")


class Entities:
    """Mentions of one entity within a document: a person's or a company's shorter
    mention ("Ann Lee" then "Lee"; "Brightwater Joinery Ltd." then "Brightwater") is the
    entity named in full before it, so it gets the same number, hash and fake; any other
    value is itself (compared without case, spacing or surrounding punctuation). With a
    `vault.Vault`, numbers and replacements come from it and are kept in it."""

    def __init__(self, vault=None):
        self.full: dict[tuple[str, str], str] = {}      # (group, normalised) -> canonical
        # (group, words) -> canonical of the first entry of self.full that those words
        # begin or end, so a mention finds its entity without a scan over all of them
        # (a 20 MB document names tens of thousands)
        self.runs: dict[tuple, str] = {}
        self.numbers: dict[tuple[str, str], int] = {}
        self.counts: dict[str, int] = {}
        self.vault = vault

    def canonical(self, group: str, value: str) -> str:
        words = re.findall(r"\w+", value.casefold())
        if group == "COMPANY":
            words = [w for w in words if w not in COMPANY_FORMS] or words
        norm = " ".join(words) or " ".join(value.casefold().split())
        if (group, norm) in self.full:
            return self.full[(group, norm)]
        canonical = value.strip()
        if group in PARTS and words:
            canonical = self.runs.get((group, tuple(words)), canonical)
        self._add(group, norm, canonical)
        return canonical

    def _add(self, group: str, norm: str, canonical: str) -> None:
        self.full[(group, norm)] = canonical
        if group in PARTS:
            whole = tuple(norm.split())
            for n in range(1, len(whole)):  # every shorter run at its start or end;
                for run in (whole[:n], whole[-n:]):  # the entity named first keeps it
                    self.runs.setdefault((group, run), canonical)

    def number(self, group: str, value: str) -> int:
        key = (group, self.canonical(group, value))
        if self.vault is not None:
            return self.vault.number(*key)
        if key not in self.numbers:
            self.counts[group] = self.counts.get(group, 0) + 1
            self.numbers[key] = self.counts[group]
        return self.numbers[key]

    def kept(self, group: str, canonical: str, operator: str) -> str | None:
        """The replacement the vault already holds for this entity, if any."""
        return self.vault.kept(group, canonical, operator) if self.vault is not None else None

    def keep(self, op: Operator, group: str, canonical: str, value: str, shown: str,
             full: str) -> str:
        """`shown`, recorded in the vault (the entity's `full` replacement, and what
        `shown` hides) where there is one and the replacement names one entity."""
        unique = op.name in ("fake", "hash") or "{n}" in op.template
        if self.vault is not None and unique:
            self.vault.keep(group, canonical, op.name, value, shown, full)
        return shown


def _same_part(value: str, canonical: str, fake: str) -> str:
    """The part of the entity's fake that `value` is of its full name: "Lee" of "Ann
    Lee" faked as "Chris Ortega" is "Ortega"."""
    words, whole, faked = value.split(), canonical.split(), fake.split()
    if value.strip() == canonical or len(words) >= len(whole) or len(faked) < 2:
        return fake
    n = min(len(words), len(faked) - 1)
    tail = [w.casefold() for w in whole[-len(words):]] == [w.casefold() for w in words]
    return " ".join(faked[-n:] if tail else faked[:n])


def read_key(path: str | os.PathLike) -> bytes:
    """A key kept in a file (e.g. `head -c 32 /dev/urandom > fake.key`), for fakes that
    stay the same across runs; at least 16 bytes."""
    from .crypto import key_from

    return key_from(file=path).material


COLORS = {"PERSON": "#D23F57", "COMPANY": "#6A55D8", "ADDRESS": "#0F8C7E", "LOCATION": "#2A7AB0",
          "DATE": "#C27A0E", "EMAIL": "#B5477E", "PHONE": "#4E8A2B", "BANK": "#8C5A2B",
          "CARD": "#C0392B", "GOV_ID": "#7D3C98", "ACCOUNT": "#2E86C1", "DIGITAL": "#5B6575"}


def html(text: str, spans: Sequence[Span], title: str = "") -> str:
    """A fragment showing the text with each span highlighted and labelled by group."""
    pieces, last = [], 0
    for span in check(text, spans):
        color = COLORS.get(span.label, "#5B6575")
        pieces.append(html_module.escape(text[last:span.start]))
        pieces.append(
            f'<span class="pii" title="{span.label} · {span.source} · {span.score:.2f}" '
            f'style="background:{color}2e;border-bottom:2px solid {color};padding:0 2px">'
            f'{html_module.escape(text[span.start:span.end])}<sub style="color:{color};'
            f'font-size:0.7em"> {span.label}</sub></span>')
        last = span.end
    pieces.append(html_module.escape(text[last:]))
    heading = f"<h3>{html_module.escape(title)}</h3>" if title else ""
    return (f'{heading}<div style="white-space:pre-wrap;font-family:ui-monospace,monospace;'
            f'font-size:0.85em;line-height:1.55">{"".join(pieces)}</div>')


def html_page(sections: list[str], title: str = "bertforge redact") -> str:
    legend = " ".join(f'<span style="border-bottom:2px solid {c};padding:0 4px">{g}</span>'
                      for g, c in COLORS.items())
    return (f"<!doctype html><meta charset=utf-8><title>{html_module.escape(title)}</title>"
            f"<body style='font-family:system-ui,sans-serif;max-width:70rem;margin:2rem auto'>"
            f"<h1>{html_module.escape(title)}</h1><p>{legend}</p>" + "\n<hr>\n".join(sections)
            + "</body>\n")
