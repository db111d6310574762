"""The runs of `docs/experiments/2026-12-04-adam-epsilon.md`: bertforge's fine-tuning with
AdamW's epsilon at 1e-6 and at 1e-8, on the validation splits.

    pip install -e '.[test,bench]'
    python experiments/adam_epsilon.py [--corpora wikigold,wnut17,btc] [--seeds 0,1]
"""

from __future__ import annotations

import argparse
import functools
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from common import tune_allocator  # noqa: E402
from trainer_gap import bertforge_run  # noqa: E402

ARMS = {"E6": 1e-6, "E8": 1e-8}


def run(train, valid, labels, seed: int, eps: float):
    """`trainer_gap.bertforge_run` (the benchmark's recipe, random batches) with AdamW's
    epsilon at `eps`."""
    from bertforge import training
    from bertforge.finetune import fit

    fit.adamw = functools.partial(training.adamw, eps=eps)  # the one thing the arms change
    try:
        return bertforge_run(train, valid, labels, seed, sort_pool=1)
    finally:
        fit.adamw = training.adamw


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpora", default="wikigold,wnut17,btc")
    parser.add_argument("--seeds", default="0,1")
    args = parser.parse_args()
    tune_allocator()
    from bertforge.finetune.corpora import corpus_split
    from bertforge.finetune.examples import labels_of
    from bertforge.finetune.metrics import MICRO, span_scores

    corpora = args.corpora.split(",")
    results: dict[tuple, float] = {}
    for name in corpora:
        train, valid = corpus_split(name, "train"), corpus_split(name, "validation")
        labels = labels_of(train)
        gold = [e["spans"] for e in valid]
        for seed in map(int, args.seeds.split(",")):
            for arm, eps in ARMS.items():
                found, seconds = run(train, valid, labels, seed, eps)
                score = span_scores(gold, found)[MICRO]
                results[name, seed, arm] = score.f1
                print(f"{name:<9} seed {seed} {arm} F1 {score.f1:.4f}  P {score.precision:.4f}  "
                      f"R {score.recall:.4f}  spans {sum(map(len, found))} "
                      f"(gold {sum(map(len, gold))})  {seconds:6.1f} s", flush=True)
    print()
    for arm in ARMS:
        per = {n: statistics.mean(f for (m, _, a), f in results.items() if m == n and a == arm)
               for n in corpora}
        print(f"{arm} mean F1 {statistics.mean(per.values()):.4f}  " +
              "  ".join(f"{n} {f:.4f}" for n, f in per.items()))


if __name__ == "__main__":
    main()
