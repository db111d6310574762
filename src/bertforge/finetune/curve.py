"""What pre-training is worth: the lesson's learning curve.

The same network is fine-tuned for tagging from its pre-trained weights and from
random ones (BERT's initialisation), with the same number of updates, on training
sets of growing size; both are scored (strict span F1) on the same held-out set.
The gap is what the pre-training bought.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Sequence

from .. import plots
from ..windows import SIZE, STRIDE
from .examples import labels_of
from .fit import FitSettings
from .metrics import MICRO
from .tagging import SUBTOKEN, train_tagger

SIZES = (25, 50, 100, 200, 400)  # training examples at each point
CURVE_FIT = FitSettings(steps=100)  # the same number of updates at every size


@dataclass
class Point:
    examples: int
    pretrained_f1: float
    random_f1: float


def learning_curve(train: Sequence[dict], test: Sequence[dict], base: str | os.PathLike,
                   sizes: Sequence[int], settings: FitSettings, size: int = SIZE,
                   stride: int = STRIDE, subtokens: str = SUBTOKEN) -> list[Point]:
    """Strict micro F1 on `test` after training on the first n (shuffled) examples."""
    order = list(train)
    random.Random(settings.seed).shuffle(order)
    labels = labels_of(train)
    points = []
    for n in sizes:
        subset = order[:n]
        f1 = {}
        for scratch in (False, True):
            tagger = train_tagger(subset, base, replace(settings, progress=False), labels=labels,
                                  size=size, stride=stride, from_scratch=scratch,
                                  subtokens=subtokens)
            f1[scratch] = tagger.evaluate(test)["strict"][MICRO].f1
        points.append(Point(len(subset), f1[False], f1[True]))
        if settings.progress:
            print(f"{len(subset):>6} examples: pre-trained F1 {f1[False]:.3f}, "
                  f"random weights F1 {f1[True]:.3f}")
    return points


def plot_curve(points: Sequence[Point], path: str | os.PathLike, title: str) -> Path:
    fig, ax = plots.figure()
    sizes = [p.examples for p in points]
    ax.plot(sizes, [p.pretrained_f1 for p in points], "o-", color=plots.BLUE, label="pre-trained")
    ax.plot(sizes, [p.random_f1 for p in points], "s--", color=plots.ORANGE, label="random weights")
    ax.set_xscale("log")
    ax.set_xticks(sizes, [str(s) for s in sizes])
    ax.set_xlabel("training examples")
    ax.set_ylabel("strict span F1 (held out)")
    ax.set_ylim(0, 1.02)
    ax.set_title(title)
    ax.legend(loc="lower right")
    return plots.save(fig, path)


def format_curve(points: Sequence[Point]) -> str:
    lines = [f"{'examples':>9}{'pre-trained F1':>16}{'random F1':>11}{'gap':>7}"]
    lines.append("-" * len(lines[0]))
    for p in points:
        lines.append(f"{p.examples:>9}{p.pretrained_f1:>16.3f}{p.random_f1:>11.3f}"
                     f"{p.pretrained_f1 - p.random_f1:>7.3f}")
    return "\n".join(lines)
