"""The runs of `docs/experiments/2026-12-04-neighbours.md`: each model's records' row
(`compare_models.row`) and the mean PERSON F1 of the real validation splits read after an
unrelated paragraph (`paragraphs_alone.after_a_paragraph_scores`).

    python experiments/neighbours.py MODEL [MODEL ...] [--probe bench/pii_news_lists.txt]
"""

from __future__ import annotations

import argparse

from compare_models import row, say, table
from paragraphs_alone import AFTER, after_a_paragraph_scores

from bertforge.pii.detector import Redactor


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("models", nargs="+", metavar="MODEL")
    parser.add_argument("--probe", default="bench/pii_news_lists.txt")
    args = parser.parse_args()
    bundled = Redactor.load(None, precision="fp32")
    rows = {}
    for model in args.models:
        redactor = bundled if model == "bundled" else \
            Redactor.load(model, threshold=bundled.threshold, precision="fp32")
        rows[model] = row(redactor, "validation", args.probe) | \
            {AFTER: after_a_paragraph_scores(redactor)[AFTER]}
        say(model, rows[model])
    table(rows)


if __name__ == "__main__":
    main()
