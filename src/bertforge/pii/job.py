"""A redaction run over a file, in parts, that can be killed at any point and resumed.

The output of a run on `OUT` is built in a folder of its own beside it,
`.OUT.<pid>.parts/`:

    job.json             what the run is (input, format, columns, policy, model, part size)
    part-000000.data     a part's rows, redacted, in the output's format
    part-000000.json     the commit of that part: its rows, where the next part starts in
                         the input, its problems and audit lines (written after the data,
                         renamed into place: a part without it is redone)
    vault                the vault as it stood after the last part (with --vault)

When every part is in, the output is assembled under a temporary name and renamed to
`OUT` (`files.atomic_file`), then the folder is removed. `resume=True` takes over the
folder of a run that no longer runs (by renaming it to this process's), checks that it
was the same job, and starts after its last committed part: the parts are the same rows
batched the same way, so the output is byte for byte the one an uninterrupted run
writes (fakes drawn without a key excepted: they differ between any two runs). Two runs
on one `OUT` at once each build their own folder; the last to finish writes `OUT`.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..errors import BertforgeError
from ..files import atomic_file, check_writable, running
from .tables import Cells, Problem

MANIFEST = "job.json"


@dataclass
class Outcome:
    target: Path
    rows: int                       # rows read (a resumed run counts the earlier parts too)
    problems: list[Problem] = field(default_factory=list)
    resumed_from: int = 0           # rows done before this process began
    cells: int = 0                  # cells redacted
    errors: Path | None = None      # where the problems were listed, if anywhere


def _folders(target: Path) -> list[Path]:
    return sorted(p for p in target.parent.glob(f".{target.name}.*.parts") if p.is_dir())


def _pid(folder: Path, target: Path) -> int | None:
    middle = folder.name[len(target.name) + 2:-len(".parts")]
    return int(middle) if middle.isdigit() else None


def _alive(pid: int | None) -> bool:
    return pid is not None and (pid == os.getpid() or running(pid))


def _committed(folder: Path) -> list[dict]:
    """The parts committed in order, stopping at the first gap."""
    out = []
    while (folder / f"part-{len(out):06d}.json").exists():
        out.append(json.loads((folder / f"part-{len(out):06d}.json").read_text()))
    return out


def _write(path: Path, data: bytes) -> None:
    """Written to disk, then renamed into place: the rename is the commit."""
    with atomic_file(path, text=False) as f:
        f.write(data)


def _claim(target: Path, identity: dict, resume: bool, warn: Callable) -> tuple[Path, list[dict]]:
    """This run's folder, and the parts already committed in it (a resumed run's)."""
    mine = target.parent / f".{target.name}.{os.getpid()}.parts"
    stopped = [f for f in _folders(target) if not _alive(_pid(f, target))]
    done_in = {f: len(_committed(f)) for f in stopped}
    if resume and stopped:
        folder = max(stopped, key=lambda f: done_in[f])
        try:
            old = json.loads((folder / MANIFEST).read_text())
        except (OSError, ValueError):
            old = None
        if old != identity:
            changed = sorted(k for k in identity if old is None or old.get(k) != identity[k])
            raise BertforgeError(f"the stopped run in {folder} was another job (its "
                                 f"{', '.join(changed) or 'manifest'} differ); rerun without "
                                 f"--resume to start again")
        os.replace(folder, mine)
        return mine, _committed(mine)
    if resume:
        warn(f"no stopped run of {target} to resume; starting from the first row")
    elif any(done_in.values()):
        folder = max(stopped, key=lambda f: done_in[f])
        warn(f"a stopped run of {target} left {done_in[folder]} finished part(s) in {folder}; "
             f"this run starts again from the first row (--resume continues that one)")
    mine.mkdir(mode=0o700)
    _write(mine / MANIFEST, json.dumps(identity, sort_keys=True).encode())
    return mine, []


def run(fmt, cells: Cells, source: str, out: str | os.PathLike, identity: dict, rows: int,
        resume: bool = False, progress: bool = True, audit=None, audit_id=None,
        warn: Callable = print) -> Outcome:
    """Redact the table `fmt` (a `tables` format) into `out`, `rows` rows a part; see the
    module's docstring. `identity`: what must match for a stopped run to be resumed;
    `audit` (an `audit.Audit`) gets one line per redacted cell, by `audit_id(row,
    column, data)`; the vault is `cells.vault`."""
    from tqdm import tqdm

    if rows < 1:
        raise BertforgeError("a part holds at least one row (--part-rows)")
    target = check_writable(out)
    identity = identity | {"format": fmt.describe(), "part_rows": rows}
    folder, done = _claim(target, identity, resume, warn)
    if done and cells.vault is not None and (folder / "vault").exists():
        cells.vault.load(folder / "vault")
    start = done[-1]["end"] if done else fmt.start
    first = done[-1]["first"] + done[-1]["rows"] if done else 1
    before, count = first - 1, len(done)
    if done:
        warn(f"continuing the stopped run of {target}: {before:,} rows were done")
    known = getattr(fmt, "total_rows", None)  # else estimated from the bytes read
    with tqdm(total=known, initial=before, unit="row", disable=not progress, delay=1,
              dynamic_ncols=True) as bar:  # delay: no bar for a run of a second
        for part in fmt.parts(start, first, rows):
            _commit(folder, count, part, fmt, cells, audit, audit_id)
            count += 1
            if known is None and part.end > fmt.start:
                bar.total = int((part.first + part.rows - 1) * (fmt.size - fmt.start)
                                / (part.end - fmt.start))
            bar.update(part.rows)
    return _finish(fmt, cells, folder, count, target, source, audit, before)


def _commit(folder: Path, number: int, part, fmt, cells: Cells, audit, audit_id) -> None:
    """Redact one part and commit it: its data, the vault as it now stands, then the
    file whose rename says the part is done (its rows, where the next one starts, its
    problems and audit lines)."""
    results, problems = cells.redact(part.cells)
    data = fmt.write(part, results)
    lines = [audit.line(audit_id(row, column, part), value, r.spans, r.operators)
             for (row, column, value), r in zip(part.cells, results)
             if isinstance(value, str) and value.strip()] if audit is not None else []
    _write(folder / f"part-{number:06d}.data", data)
    if cells.vault is not None:
        cells.vault.save(folder / "vault")
    _write(folder / f"part-{number:06d}.json", json.dumps({
        "first": part.first, "rows": part.rows, "end": part.end, "cells": len(part.cells),
        "problems": [p.to_dict() for p in part.problems + problems],
        "audit": lines}).encode())


def _finish(fmt, cells: Cells, folder: Path, count: int, target: Path, source: str, audit,
            before: int) -> Outcome:
    """The output assembled from the parts (whole or not at all), the vault saved, the
    audit lines appended, the parts removed, with the stopped runs of the same output."""
    parts = [folder / f"part-{i:06d}" for i in range(count)]
    private = source if "://" not in str(source) else None
    with atomic_file(target, text=False, private_to=private) as f:
        fmt.assemble(f, (p.with_suffix(".data").read_bytes() for p in parts))
    if cells.vault is not None:
        cells.vault.save()
    problems, rows_read, cells_done = [], 0, 0
    for path in parts:
        meta = json.loads(path.with_suffix(".json").read_text())
        problems += sorted((Problem(**p) for p in meta["problems"]), key=lambda p: p.row)
        rows_read += meta["rows"]
        cells_done += meta["cells"]
        if audit is not None:
            audit.append(meta["audit"])
    shutil.rmtree(folder, ignore_errors=True)
    for other in _folders(target):  # stopped runs of the same output: superseded now
        if not _alive(_pid(other, target)):
            shutil.rmtree(other, ignore_errors=True)
    return Outcome(target, rows_read, problems, before, cells_done)
