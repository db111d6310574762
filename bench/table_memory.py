"""Memory stays flat in a table's size: `bertforge redact --table` on a CSV of --gb
gigabytes, run as a user runs it (the command line, in a child process), with its peak
RSS, time and throughput printed.

The CSV has rows of about 500 bytes: an id, an email column replaced whole
(`--mask-columns email=EMAIL`), a notes column redacted by the model (text in one row of
--every, empty in the others: the model's speed is measured elsewhere, by
bench/redact_speed.py and bench/table_speed.py; this is the reading, the parts, the
writing and the assembly of a table that does not fit in memory), and a description
that is kept byte for byte.

    python bench/table_memory.py [--gb 2] [--every 500] [--keep DIR]
"""

from __future__ import annotations

import argparse
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

NOTES = ["Call Ann Lee on +44 20 7946 0958 about card 4111 1111 1111 1111.",
         "Refund to IBAN DE89 3704 0044 0532 0130 00, requested by Tomasz Nowak.",
         "Mr. Ravi Patel moved to 12 Harbour Road, Leeds LS1 4AB."]


def write_csv(path: Path, size: int, every: int) -> int:
    draw = random.Random(0)
    words = "ledger invoice balance transfer quarterly statement review pending".split()
    rows, written = 0, 0
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write("id,email,notes,description\r\n")
        chunk = []
        while written < size:
            note = f'"{draw.choice(NOTES)}"' if rows % every == 0 else ""
            text = " ".join(draw.choice(words) for _ in range(55))
            line = f'{rows},user{rows}@example.com,{note},"{text}, ref {rows}"\r\n'
            chunk.append(line)
            written += len(line)
            rows += 1
            if len(chunk) == 10_000:
                f.write("".join(chunk))
                chunk = []
        f.write("".join(chunk))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--gb", type=float, default=2.0)
    parser.add_argument("--every", type=int, default=500, help="one row in this many has notes")
    parser.add_argument("--keep", help="write the files here and keep them")
    args = parser.parse_args()
    folder = Path(args.keep or tempfile.mkdtemp(prefix="bertforge-table-memory-"))
    folder.mkdir(parents=True, exist_ok=True)
    source = folder / "table.csv"
    rows = write_csv(source, int(args.gb * 2**30), args.every)
    size = source.stat().st_size
    print(f"{source}: {size / 2**30:.2f} GiB, {rows:,} rows")
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "bertforge", "redact", "--table", str(source),
                           "--out", str(folder / "out.csv"), "--columns", "notes",
                           "--mask-columns", "email=EMAIL", "--part-rows", "10000"],
                          stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "")
    if done.returncode != 0:
        raise SystemExit(done.stderr)
    out = folder / "out.csv"
    with open(out, "rb") as f:
        lines = sum(chunk.count(b"\r\n") for chunk in iter(lambda: f.read(1 << 24), b""))
    print(f"output {out.stat().st_size / 2**30:.2f} GiB, {lines - 1:,} rows (input {rows:,})")
    print(f"{seconds:,.0f} s, {size / 2**20 / seconds:,.1f} MB/s, peak RSS {peak:,.0f} MB "
          f"(target: a few hundred MB for 2 GB)")
    if not args.keep:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
