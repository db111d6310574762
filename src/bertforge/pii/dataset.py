"""Documents in Gretel's schema (`generated_text`, `pii_spans` as a JSON string of
{start, end, label}, `document_type`, `language`), from a JSONL file or, when online,
from `datasets` (`gretelai/synthetic_pii_finance_multilingual`), as tagging examples
whose labels are the 12 groups."""

from __future__ import annotations

import json
from pathlib import Path

from ..errors import BertforgeError
from ..finetune.examples import check_spans, read_records
from .labels import group

GRETEL = "gretelai/synthetic_pii_finance_multilingual"


def read_documents(source: str, split: str = "train", language: str | None = "English") -> list[dict]:
    """{"text", "spans": [(start, end, GROUP)], "document_type", "where"} per document.
    A file is read as JSONL; anything else is a `datasets` name or saved directory.
    Overlapping spans (real annotations have some) keep the longer one."""
    path = Path(source)
    if path.is_file():
        records = read_records(source)
    else:
        records = _from_datasets(source, split)
    documents = []
    for record in records:
        where = record["where"]
        if language and record.get("language", language) != language:
            continue
        text = record.get("generated_text", record.get("text"))
        if not isinstance(text, str):
            raise BertforgeError(f"{where}: needs a \"generated_text\" (or \"text\") string")
        spans = record.get("pii_spans", record.get("spans", []))
        if isinstance(spans, str):
            try:
                spans = json.loads(spans)
            except json.JSONDecodeError:
                raise BertforgeError(f"{where}: \"pii_spans\" is a string that is not JSON") from None
        if not isinstance(spans, list):
            raise BertforgeError(f"{where}: \"pii_spans\" must be a list of spans")
        grouped = []
        for k, span in enumerate(spans):
            try:
                grouped.append({"start": int(span["start"]), "end": int(span["end"]),
                                "label": group(str(span["label"]))})
            except (KeyError, TypeError, ValueError):
                raise BertforgeError(f"{where}: span {k} needs integer \"start\", \"end\" and a "
                                     f"\"label\"") from None
            except BertforgeError as error:
                raise BertforgeError(f"{where}: span {k}: {error}") from None
        documents.append({"text": text, "spans": check_spans(text, _no_overlaps(grouped), where),
                          "document_type": record.get("document_type", ""), "where": where})
    if not documents:
        raise BertforgeError(f"{source} holds no {language or ''} documents".replace("  ", " "))
    return documents


def _no_overlaps(spans: list[dict]) -> list[dict]:
    kept: list[dict] = []
    for span in sorted(spans, key=lambda s: (s["start"], -(s["end"] - s["start"]))):
        if kept and span["start"] < kept[-1]["end"]:
            if span["end"] - span["start"] > kept[-1]["end"] - kept[-1]["start"]:
                kept[-1] = span
            continue
        kept.append(span)
    return kept


def _from_datasets(source: str, split: str) -> list[dict]:
    import datasets

    try:
        path = Path(source)
        data = datasets.load_from_disk(str(path)) if path.is_dir() else \
            datasets.load_dataset(source, split=split)
    except Exception as error:
        raise BertforgeError(f"cannot read documents from {source!r}: not a file, and not a "
                             f"dataset that can be loaded ({str(error).splitlines()[0]}); "
                             f"offline, use `bertforge pii generate` and pass its JSONL") from None
    if isinstance(data, datasets.DatasetDict):
        data = data[split]
    return [dict(row) | {"where": f"{source}[{split}][{i}]"} for i, row in enumerate(data)]
