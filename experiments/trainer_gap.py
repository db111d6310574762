"""The runs of `docs/experiments/2026-12-02-trainer-gap.md`: Trainer vs bertforge with
sorted and with random batches, on the validation splits.

    pip install -e '.[test,bench]'
    python experiments/trainer_gap.py [--corpora wikigold,wnut17] [--seeds 0,1,2]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from finetune_vs_trainer import EPOCHS, MODEL, trainer_run  # noqa: E402
from common import tune_allocator  # noqa: E402


def bertforge_run(train, test, labels, seed: int, sort_pool: int):
    from bertforge.finetune.fit import FitSettings
    from bertforge.finetune.tagging import train_tagger

    settings = FitSettings(epochs=EPOCHS, batch=16, lr=5e-5, warmup=0.1, weight_decay=0.01,
                           seed=seed, progress=False, sort_pool=sort_pool)
    started = time.perf_counter()
    tagger = train_tagger(train, MODEL, settings, labels=labels)
    seconds = time.perf_counter() - started
    return tagger.predict([e["text"] for e in test], by="spaces"), seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpora", default="wikigold,wnut17")
    parser.add_argument("--seeds", default="0,1,2")
    args = parser.parse_args()
    tune_allocator()
    from bertforge.finetune.corpora import corpus_split
    from bertforge.finetune.examples import labels_of
    from bertforge.finetune.metrics import MICRO, span_scores
    from bertforge.finetune.tagging import tag_names

    arms = {"A Trainer": None, "B sorted pools": 50, "C random batches": 1}
    results: dict[tuple, tuple[float, float]] = {}
    with tempfile.TemporaryDirectory(prefix="trainer-gap-") as tmp:
        for name in args.corpora.split(","):
            train, valid = corpus_split(name, "train"), corpus_split(name, "validation")
            labels = labels_of(train)
            gold = [e["spans"] for e in valid]
            for seed in map(int, args.seeds.split(",")):
                for arm, pool in arms.items():
                    if pool is None:
                        found, seconds = trainer_run(train, valid, tag_names(labels), seed,
                                                     Path(tmp))
                    else:
                        found, seconds = bertforge_run(train, valid, labels, seed, pool)
                    f1 = span_scores(gold, found)[MICRO].f1
                    results[name, seed, arm] = (f1, seconds)
                    print(f"{name:<9} seed {seed} {arm:<17} F1 {f1:.4f}  {seconds:6.1f} s",
                          flush=True)
    print()
    for arm in arms:
        f1s = [v[0] for (n, s, a), v in results.items() if a == arm]
        per = "  ".join(f"{n} {statistics.mean(v[0] for (m, s, a), v in results.items() if m == n and a == arm):.4f}"
                        for n in args.corpora.split(","))
        secs = sum(v[1] for (n, s, a), v in results.items() if a == arm)
        print(f"{arm:<17} mean F1 {statistics.mean(f1s):.4f}  {per}  ({secs:.0f} s in all)")


if __name__ == "__main__":
    main()
