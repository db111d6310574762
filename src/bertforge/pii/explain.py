"""Why each span is a span: the recognizer that found it, the check it passed, the
model's score against its floor, and what it was chosen over.

Read after the stages ran, from what each stage saw (the model's spans before the
merge, every recognizer's matches), so the stages themselves stay as they are.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from ..spans import Span
from .patterns import PatternMatch


def explain(spans: Sequence[Span], model: Sequence[Span], matches: Sequence[PatternMatch],
            recognizers, threshold: float, floors: dict[str, float]) -> list[Span]:
    """The spans, each with its `explanation`."""
    by_name = {r.name: r for r in recognizers}
    out = []
    for span in spans:
        out.append(replace(span, explanation="; ".join(
            _found(span, matches, by_name, threshold, floors) + _over(span, model, matches))))
    return out


def _found(span: Span, matches, by_name, threshold: float, floors: dict) -> list[str]:
    if span.source == "deny":
        return [f"on the policy's deny-list as {span.label}"]
    if span.source == "model":
        floor = floors.get(span.label)
        said = f"the model: score {span.score:.2f} (tokens at P(personal) >= {threshold:g})"
        said += f", at or above {span.label}'s floor {floor:g}" if floor else ""
        agree = sorted({m.by for m in matches if m.start < span.end and span.start < m.end
                        and m.group == span.label and m.by})
        return [said + (f"; recognizer {', '.join(agree)} agrees" if agree else "")]
    found = [m for m in matches if m.start < span.end and span.start < m.end
             and m.group == span.label]
    if not found:
        return [f"a pattern, as {span.label}"]
    m = max(found, key=lambda m: (m.checked, m.end - m.start))
    check = getattr(by_name.get(m.by), "check", "") or "its pattern"
    trust = ("checked: wins over the model" if m.checked
             else "a shape: kept where the model found nothing that covers it"
             + ("" if m.sure_start else ", nor a span of its kind that ends with it"))
    return [f"recognizer {m.by or '?'} ({m.kind}): {check}; {trust}"]


def _over(span: Span, model: Sequence[Span], matches) -> list[str]:
    """What the span was chosen over: the model's spans it overlaps and is not."""
    beaten = [m for m in model if m.start < span.end and span.start < m.end
              and (m.start, m.end, m.label) != (span.start, span.end, span.label)]
    if span.source == "model" or not beaten:
        return []
    return ["chosen over the model's " + ", ".join(
        f"{m.label} {m.text!r} ({m.score:.2f})" for m in beaten[:3])]
