"""Masking what was found, with nothing else changed.

Styles:
- "group" (default): "[PERSON]";
- "numbered": "[PERSON_1]", the same number for the same value within a document, so a
  reader can still tell who did what;
- "mask": every character but whitespace becomes "*" (the layout survives);
- "fake": a consistent fake value of the same kind (pseudonymisation): the same value
  and key always give the same replacement. The key is secret: with a public one,
  anybody could fake every candidate value (every date from 1930 to 2005, every name
  on a list) and read the original back from its fake. Without a key, each process
  draws a random one (`session_key`): fakes are consistent within a run, unlinkable
  across runs. Fake card numbers and IBANs pass their checksums (Luhn, mod-97) and fake
  SSNs have a valid area, so downstream validators accept them; they are random, not
  reserved test numbers, and may belong to somebody.

`html` shows the spans highlighted by group, for review.
"""

from __future__ import annotations

import hashlib
import hmac
import html as html_module
import os
import re
import secrets
from pathlib import Path
from typing import Sequence

from ..errors import BertforgeError
from ..optional import require
from ..finetune.tagging import Span

STYLES = ("group", "numbered", "mask", "fake")


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
    """The text with exactly the spans replaced; `key` seeds the "fake" style (default:
    this process's random `session_key()`)."""
    if style not in STYLES:
        raise BertforgeError(f"unknown redaction style {style!r}; choose one of {', '.join(STYLES)}")
    numbers: dict[tuple[str, str], int] = {}
    counts: dict[str, int] = {}
    out, last = [], 0
    for span in check(text, spans):
        value = text[span.start:span.end]
        if style == "group":
            replacement = f"[{span.label}]"
        elif style == "numbered":
            key = (span.label, " ".join(value.casefold().split()))
            if key not in numbers:
                counts[span.label] = counts.get(span.label, 0) + 1
                numbers[key] = counts[span.label]
            replacement = f"[{span.label}_{numbers[key]}]"
        elif style == "mask":
            replacement = re.sub(r"\S", "*", value)
        else:
            replacement = fake_value(span.label, value, key)
        out += [text[last:span.start], replacement]
        last = span.end
    out.append(text[last:])
    return "".join(out)


_SESSION_KEY = secrets.token_bytes(32)


def session_key() -> bytes:
    """This process's random key for fakes: consistent within a run, not across runs."""
    return _SESSION_KEY


def read_key(path: str | os.PathLike) -> bytes:
    """A key kept in a file (e.g. `head -c 32 /dev/urandom > fake.key`), for fakes that
    stay the same across runs; at least 16 bytes."""
    try:
        key = Path(path).read_bytes().strip()
    except OSError as error:
        raise BertforgeError(f"cannot read the key file {path}: {error.strerror}") from None
    if len(key) < 16:
        raise BertforgeError(f"the key in {path} has {len(key)} bytes; a key needs at least "
                             f"16 (make one with: head -c 32 /dev/urandom > {path})")
    return key


def fake_value(label: str, value: str, key: str | bytes | None = None) -> str:
    """A fake value of the same kind, the same for the same (label, value, key)."""
    Faker = require("faker", "fake values").Faker
    key = session_key() if key is None else key.encode() if isinstance(key, str) else key
    digest = hmac.new(key, f"{label}\x00{value.casefold()}".encode("utf-8", "surrogatepass"),
                      hashlib.sha256).digest()
    fake = Faker("en_US")
    fake.seed_instance(int.from_bytes(digest[:8], "big"))
    digits = re.sub(r"\D", "", value)
    if label == "PERSON":
        return fake.name().upper() if value.isupper() else fake.name()
    if label == "COMPANY":
        return fake.company()
    if label == "ADDRESS":
        return ", ".join(fake.address().splitlines())
    if label == "LOCATION":
        return f"{float(fake.latitude()):.4f}, {float(fake.longitude()):.4f}"
    if label == "DATE":
        return fake.date(pattern="%H:%M" if re.fullmatch(r"[\d: apmAPM.]+", value) and ":" in value
                         else "%Y-%m-%d")
    if label == "EMAIL":
        return fake.email()
    if label == "PHONE":
        return fake.numerify("(###) ###-####")
    if label == "CARD":
        return fake.credit_card_security_code() if len(digits) <= 4 else fake.credit_card_number()
    if label == "BANK":
        compact = value.replace(" ", "")
        if re.match(r"[A-Z]{2}\d{2}", compact) and len(digits) > 8:
            return fake.iban()
        if re.fullmatch(r"[A-Z]{6}[A-Z0-9]{2}(?:[A-Z0-9]{3})?", compact):  # a BIC
            return fake.swift(length=len(compact))
        return fake.numerify("#" * max(len(digits), 6))
    if label == "GOV_ID":
        return fake.ssn()
    if label == "DIGITAL":
        if re.fullmatch(r"[\d.]+", value):
            return fake.ipv4()
        if ":" in value:
            return fake.ipv6()
        return fake.user_name() if len(value) < 16 else fake.sha256()[:len(value)]
    # ACCOUNT and anything else: the same shape, other characters
    return fake.bothify(re.sub(r"[A-Za-z]", "?", re.sub(r"\d", "#", value)))


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
