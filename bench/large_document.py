"""One large document through `bertforge redact`, against the same text as many small
documents through the batch path (`redact --jsonl`), each a fresh process: time, rate
and peak memory of each, and the ratio of the rates. A single document should go
through at the batch path's rate, in bounded memory.

    python bench/large_document.py [--mb 20] [--precision auto] [--skip-batch] [--rounds 1]

With --rounds N the two paths run in turn N times each (this machine's speed drifts by
more than the gap measured) and the median ratio is printed.

The text is the generator's test-split documents (types training never saw), one after
another, separated by blank lines, up to --mb megabytes.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bertforge.pii.synth import generate


def build(megabytes: float) -> list[str]:
    want, documents, size, seed = int(megabytes * 1_000_000), [], 0, 0
    while size < want:
        for row in generate(500, seed=seed, split="test"):
            documents.append(row["generated_text"])
            size += len(row["generated_text"].encode()) + 2
            if size >= want:
                break
        seed += 1
    return documents


def run(argv: list[str]) -> tuple[float, float]:
    """(seconds, peak RSS in MB) of one bertforge process."""
    started = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "bertforge", *argv],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    errors = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)  # this child's own peak, not the largest so far
    seconds = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status):
        sys.exit(f"bertforge {' '.join(argv)} failed:\n{errors[-2000:]}")
    return seconds, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=float, default=20.0)
    parser.add_argument("--precision", default="auto")
    parser.add_argument("--rounds", type=int, default=1, help="each path this many times, in turn")
    parser.add_argument("--skip-batch", action="store_true",
                        help="only the single document (the batch path takes as long again)")
    args = parser.parse_args()
    documents = build(args.mb)
    with tempfile.TemporaryDirectory() as folder:
        big = Path(folder) / "big.txt"
        big.write_text("\n\n".join(documents), encoding="utf-8")
        megabytes = big.stat().st_size / 1e6
        lines = Path(folder) / "docs.jsonl"
        lines.write_text("".join(json.dumps({"text": d}) + "\n" for d in documents))
        rows, ratios = [], []
        for _ in range(args.rounds):
            if not args.skip_batch:
                seconds, peak = run(["redact", "--precision", args.precision, "--jsonl",
                                     str(lines), "--out", str(Path(folder) / "out.jsonl")])
                rows.append((f"{len(documents):,} documents (--jsonl)", seconds, peak))
            seconds, peak = run(["redact", "--precision", args.precision, str(big)])
            rows.append(("one document", seconds, peak))
            if not args.skip_batch:
                ratios.append(rows[-2][1] / rows[-1][1])
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                if l.startswith("model name")), "?")
    print(f"{megabytes:.1f} MB of text, precision {args.precision}, {os.cpu_count()} cores "
          f"({cpu})\n")
    print(f"{'input':<28} {'seconds':>8} {'KB/s':>7} {'peak RSS MB':>12}")
    for name, seconds, peak in rows:
        print(f"{name:<28} {seconds:8.0f} {megabytes * 1000 / seconds:7.1f} {peak:12.0f}")
    if len(ratios) == 1:
        print(f"\none document at {ratios[0]:.2f}x the batch path's rate")
    elif ratios:
        print(f"\none document at {', '.join(f'{r:.2f}x' for r in ratios)} the batch path's "
              f"rate, round by round: median {statistics.median(ratios):.2f}x")


if __name__ == "__main__":
    main()
