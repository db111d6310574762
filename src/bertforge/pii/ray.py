"""Redacting a data set on a Ray cluster (`pip install 'bertforge[ray]'`).

Ray Data reads the data set in blocks, and `map_batches` hands batches of rows to a
pool of actors, each of which loads the model once (`_Worker`) and redacts the chosen
columns with the same code as the single-process path (`tables.Cells.arrow`): the
output of a data set is the output of `bertforge redact --table` on it, row for row.
Row order is kept (`preserve_order`). Reads and writes stream: no worker holds more
than its batches.

    import ray
    from bertforge.pii.ray import redact_dataset

    ray.init()                                  # or ray.init("ray://head:10001")
    ds = ray.data.read_parquet("s3://bucket/tickets/")
    clean = redact_dataset(ds, columns=["subject", "body"], actors=8)
    clean.write_parquet("s3://bucket/clean/")   # Ray's writer: a folder of files

`bertforge redact --table ... --ray` writes one file, in the input's order, from the
driver (`redact_files`).

A numbered or fake replacement is consistent within a cell (as a vault would make it
across cells only in one process: `--vault` runs without --ray).
"""

from __future__ import annotations

from typing import Sequence

from ..errors import BertforgeError
from ..optional import require
from ..files import atomic_file, check_writable
from .batch import check_output
from .tables import Cells, RaySettings, TableSettings, column_list, json_line, mask_map


class _Worker:
    """One actor: the model loaded once, then batch after batch."""

    def __init__(self, columns, mask_columns, policy, model, threshold, patterns, precision,
                 threads):
        import torch

        from .detector import Redactor

        torch.set_num_threads(threads)  # the CPUs this actor was given, not the machine's
        redactor = Redactor.load(model, threshold=threshold, use_patterns=patterns,
                                 precision=precision, policy=policy)
        self.cells = Cells(redactor, policy, columns, mask_columns)

    def __call__(self, table):
        return self.cells.arrow(table)


def redact_dataset(dataset, columns: Sequence[str] | None = None,
                   mask_columns: dict[str, str | None] | None = None, policy=None,
                   model: str | None = None, threshold: float | None = None,
                   patterns: bool = True, precision: str = "auto",
                   actors: int = RaySettings.actors, batch_size: int = RaySettings.batch_size,
                   cpus_per_actor: float | None = RaySettings.cpus_per_actor):
    """A `ray.data.Dataset` with `columns` (default: every string column) redacted and
    `mask_columns` ({name: group or None}) replaced whole, by `actors` workers that each
    load the model once (`model`: a directory, default the bundled model) and take
    `batch_size` rows at a time, with `cpus_per_actor` CPUs each (default: one, less
    where the cluster would have none left for the tasks that read and write, which
    would then wait for ever). Lazy, like every Ray Data transform: write it, or
    iterate over it."""
    ray = require("ray", "redacting on Ray")
    if actors < 1 or batch_size < 1:
        raise BertforgeError("actors and batch size are at least 1")
    if cpus_per_actor is None:
        spare = ray.cluster_resources().get("CPU", 1) - 1
        cpus_per_actor = min(1.0, max(0.25, spare / actors))
    arguments = {"threads": max(1, int(cpus_per_actor)), "columns": list(columns) if columns else None, "mask_columns": mask_columns,
                 "policy": policy, "model": model, "threshold": threshold,
                 "patterns": patterns, "precision": precision}
    # blocks of a batch each, as they stream past: one file, or one row group, would
    # otherwise be one block, which one actor takes while the others wait
    dataset = dataset.repartition(target_num_rows_per_block=batch_size)
    redacted = dataset.map_batches(_Worker, fn_constructor_kwargs=arguments,
                                   batch_size=batch_size, batch_format="pyarrow",
                                   num_cpus=cpus_per_actor,
                                   compute=ray.data.ActorPoolStrategy(size=actors))
    redacted.context.execution_options.preserve_order = True
    return redacted


def redact_files(source: str, out: str, kind: str, policy, settings: TableSettings,
                 ray_settings: RaySettings, address: str = "local", model: str | None = None,
                 threshold: float | None = None, patterns: bool = True,
                 precision: str = "auto") -> int:
    """`bertforge redact --table SOURCE --ray [ADDRESS] --out OUT`: Parquet or JSONL (a
    file, a folder of them, or any URI pyarrow reads) redacted by the cluster and
    written here, in order, to the file `out` (whole or not at all). Ray's own writers
    are not used: they write a folder of files and, in the Ray this was built on, did
    not always keep the order of the rows across blocks. Returns the rows written."""
    ray = require("ray", "redacting on Ray")
    if kind not in ("parquet", "jsonl"):
        raise BertforgeError(f"--ray reads Parquet and JSONL; a {kind.upper()} table runs "
                             f"without --ray (which keeps its bytes), or convert it to Parquet")
    if settings.resume:
        raise BertforgeError("--resume is for the single-process path; on Ray, rerun the job "
                             "(Ray retries failed tasks itself)")
    target = check_output(source, out) if "://" not in source else check_writable(out)
    if not ray.is_initialized():
        import logging

        ray.init(address=None if address == "local" else address, logging_level=logging.WARNING,
                 include_dashboard=False, log_to_driver=False)
    # a data set copies the current context when it is made: the order is kept from the read
    ray.data.DataContext.get_current().execution_options.preserve_order = True
    read = ray.data.read_parquet if kind == "parquet" else \
        (lambda path: ray.data.read_json(path, lines=True))
    dataset = redact_dataset(read(source),
                             column_list(settings.columns), mask_map(settings.mask_columns),
                             policy, model, threshold, patterns, precision,
                             ray_settings.actors, ray_settings.batch_size,
                             ray_settings.cpus_per_actor)
    import warnings

    # Ray warns, planning, that one file is one input for the actors; the repartition in
    # `redact_dataset` splits it into blocks for them all the same
    warnings.filterwarnings("ignore", message="The minimum number of concurrent actors")
    rows = 0
    batches = dataset.iter_batches(batch_format="pyarrow", batch_size=None)
    with atomic_file(target, text=False, private_to=source if "://" not in source else None) as f:
        if kind == "parquet":
            pq = require("pyarrow.parquet", "Parquet tables")
            writer = None
            for batch in batches:
                writer = writer or pq.ParquetWriter(f, batch.schema)
                writer.write_table(batch)
                rows += len(batch)
            if writer is not None:
                writer.close()
        else:
            for batch in batches:
                for record in batch.to_pylist():
                    f.write(json_line(record).encode("utf-8"))
                rows += len(batch)
    return rows
