"""Span precision, recall and F1: strict (exact boundaries and label) and by overlap.

Gold and predicted spans are `Span`s (`spans.py`); positions may be characters or
tokens, as long as gold and prediction agree. Strict
scoring is what `seqeval` computes on BIO tags (the tests hold the two to the same
numbers). The overlap variant counts a prediction as right when it overlaps a gold span
of the same label not already matched; it forgives boundaries, not labels, and tells
how much of a strict score's loss is only about where a span starts or ends.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Sequence

from ..spans import Span

MICRO = "micro"  # the key of the overall (micro-averaged) scores


@dataclass
class Scores:
    precision: float
    recall: float
    f1: float
    gold: int        # spans in the reference
    predicted: int   # spans predicted
    correct: int

    @classmethod
    def of(cls, correct: int, gold: int, predicted: int) -> "Scores":
        p = correct / predicted if predicted else 0.0
        r = correct / gold if gold else 0.0
        f = 2 * p * r / (p + r) if p + r else 0.0
        return cls(p, r, f, gold, predicted, correct)


def span_scores(gold: Sequence[Iterable[Span]], predicted: Sequence[Iterable[Span]],
                overlap: bool = False) -> dict[str, Scores]:
    """Scores per label and overall (`MICRO`), over documents given in the same order."""
    if len(gold) != len(predicted):
        raise ValueError(f"{len(gold)} gold documents but {len(predicted)} predicted")
    correct, n_gold, n_pred = Counter(), Counter(), Counter()
    for gold_spans, predicted_spans in zip(gold, predicted):
        g = [s.key for s in gold_spans]
        p = [s.key for s in predicted_spans]
        n_gold.update(label for label, _, _ in g)
        n_pred.update(label for label, _, _ in p)
        if overlap:
            unmatched = list(g)
            for label, start, end in p:
                for k, (gl, gs, ge) in enumerate(unmatched):
                    if gl == label and gs < end and start < ge:
                        correct[label] += 1
                        del unmatched[k]
                        break
        else:
            both = Counter(g) & Counter(p)
            for (label, _, _), n in both.items():
                correct[label] += n
    labels = sorted(set(n_gold) | set(n_pred))
    scores = {label: Scores.of(correct[label], n_gold[label], n_pred[label]) for label in labels}
    scores[MICRO] = Scores.of(sum(correct.values()), sum(n_gold.values()), sum(n_pred.values()))
    return scores


def format_scores(scores: dict[str, Scores]) -> str:
    """A table: label, precision, recall, F1, gold count."""
    lines = [f"{'label':<14}{'precision':>10}{'recall':>8}{'F1':>8}{'gold':>7}"]
    lines.append("-" * len(lines[0]))
    for label, s in scores.items():
        lines.append(f"{label:<14}{s.precision:>10.3f}{s.recall:>8.3f}{s.f1:>8.3f}{s.gold:>7}")
    return "\n".join(lines)
