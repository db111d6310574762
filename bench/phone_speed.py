"""Phone numbers: bertforge's recognizer (phonenumbers reads only the stretches around
runs of seven digits or more) against the same recognizer with phonenumbers reading each
whole text, the way its documentation uses it, in one process, on the frozen test split; the numbers each finds are
compared, and the ratio of the times printed.

    python bench/phone_speed.py [--rounds 3] [--region US]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from bertforge.pii.dataset import read_documents
from bertforge.pii.recognizers import Phones

TEST = Path(__file__).resolve().parent / "pii_test.jsonl.gz"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="passes each, in turn; best kept")
    parser.add_argument("--region", default="US")
    args = parser.parse_args()
    texts = [d["text"] for d in read_documents(str(TEST))]
    ours = Phones(args.region)
    times = {"bertforge Phones": [], "phonenumbers, whole text": []}
    for _ in range(args.rounds):
        start = time.perf_counter()
        found = [{(m.start, m.end) for m in ours.find(t)} for t in texts]
        times["bertforge Phones"].append(time.perf_counter() - start)
        start = time.perf_counter()
        reference = [{(m.start, m.end) for m in ours.find(t, prefilter=False)} for t in texts]
        times["phonenumbers, whole text"].append(time.perf_counter() - start)
    same = sum(a == b for a, b in zip(found, reference))
    anchor = min(times["phonenumbers, whole text"])
    print(f"{len(texts)} documents of the frozen test split, region {args.region}, "
          f"best of {args.rounds}\n")
    for name, values in times.items():
        print(f"{name:<28}{min(values):>8.2f} s{anchor / min(values):>8.2f}x")
    print(f"\nthe same numbers in {same} of {len(texts)} documents "
          f"({sum(map(len, found)):,} numbers)")


if __name__ == "__main__":
    main()
