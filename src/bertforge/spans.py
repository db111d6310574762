"""The one span type: a labelled range of a text.

Gold annotations, a tagger's predictions, a recognizer's finds and what the
redactor masks are all `Span`s, so scoring, merging and writing never convert
between shapes. `start` and `end` are positions in whatever the caller indexes:
characters of a document almost everywhere; tokens or words where `to_spans` reads
BIO tags. Spans sort by position (start, then end, then label).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True, order=True)
class Span:
    start: int
    end: int
    label: str
    text: str = ""
    score: float = 1.0
    source: str = "model"   # which recognizer found it: "model", "pattern", "deny", "gold"
    explanation: str = ""   # why it is a span (`Redactor.detect(explain=True)`)

    @property
    def key(self) -> tuple[str, int, int]:
        """What a strict score compares: the label and the boundaries."""
        return (self.label, self.start, self.end)

    def to_dict(self) -> dict:
        """Its fields; the explanation only where there is one."""
        out = asdict(self)
        if not self.explanation:
            del out["explanation"]
        return out
