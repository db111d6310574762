"""The runs of `docs/experiments/2026-12-03-wnut-handles.md`: `Trainer` and bertforge
(every sub-token labelled, and the first only), each trained once on a corpus's train
split and read on its validation and test splits, scored by type; and how the corpus
writes and labels user handles in each split.

    pip install -e '.[test,bench]'
    python experiments/wnut_handles.py [--corpora wnut17,btc] [--seed 0]
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from finetune_vs_trainer import EPOCHS, MODEL, trainer_run  # noqa: E402
from common import tune_allocator  # noqa: E402

SPLITS = ("validation", "test")


def handles(examples) -> tuple[Counter, Counter]:
    """The labels of handles written glued ("@name") and apart ("@ name")."""
    glued, apart = Counter(), Counter()
    for e in examples:
        for pattern, counts, name_at in ((r"(?<!\S)@\w+", glued, 1), (r"(?<!\S)@ \w+", apart, 2)):
            for m in re.finditer(pattern, e["text"]):
                at = m.start() + name_at
                counts[next((s.label for s in e["spans"] if s.start <= at < s.end), "O")] += 1
    return glued, apart


def bertforge_run(train, texts, labels, seed: int, subtokens: str):
    from bertforge.finetune.fit import FitSettings
    from bertforge.finetune.tagging import train_tagger

    settings = FitSettings(epochs=EPOCHS, batch=16, lr=5e-5, warmup=0.1, weight_decay=0.01,
                           seed=seed, progress=False)
    tagger = train_tagger(train, MODEL, settings, labels=labels, subtokens=subtokens)
    return tagger.predict(texts, by="spaces")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpora", default="wnut17,btc")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    tune_allocator()
    from bertforge.finetune.corpora import corpus_split
    from bertforge.finetune.examples import labels_of
    from bertforge.finetune.metrics import MICRO, span_scores
    from bertforge.finetune.tagging import tag_names

    for name in args.corpora.split(","):
        train = corpus_split(name, "train")
        read = {split: corpus_split(name, split) for split in SPLITS}
        for split, examples in (("train", train), *read.items()):
            glued, apart = handles(examples)
            print(f"{name} {split}: '@name' {dict(glued)}; '@ name' {dict(apart)}")
        both = read["validation"] + read["test"]
        labels = labels_of(train)
        with tempfile.TemporaryDirectory() as tmp:
            found = {"Trainer": trainer_run(train, both, tag_names(labels), args.seed,
                                            Path(tmp))[0]}
        for subtokens in ("all", "first"):
            found[f"bertforge ({subtokens})"] = bertforge_run(
                train, [e["text"] for e in both], labels, args.seed, subtokens)
        cut = len(read["validation"])
        for split, lo, hi in (("validation", 0, cut), ("test", cut, len(both))):
            gold = [e["spans"] for e in both[lo:hi]]
            for system, predicted in found.items():
                scores = span_scores(gold, predicted[lo:hi])
                by_type = "  ".join(f"{k} R {v.recall:.2f} F {v.f1:.3f}"
                                    for k, v in scores.items() if k != MICRO)
                print(f"{name} {split:<10} {system:<18} micro {scores[MICRO].f1:.3f}  {by_type}",
                      flush=True)


if __name__ == "__main__":
    main()
