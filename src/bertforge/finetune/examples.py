"""Reading fine-tuning examples, and refusing bad ones with the place they came from.

Tagging: `{"text": ..., "spans": [{"start", "end", "label"}, ...]}` per JSONL line, or
a CoNLL column file (`conll.py`). Classification: `{"text": ..., "label": ...}` or
`{"text_a": ..., "text_b": ..., "label"}`. Or a `datasets` source (a directory saved by
`datasets`, or a hub name when online) with the same fields. Each example keeps `where` ("train.jsonl:12") for error messages.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Sequence

from ..errors import BertforgeError
from ..optional import require
from ..spans import Span


def read_records(source: str) -> list[dict]:
    """Records with a `where` field: lines of a JSONL file (gzip-compressed when its
    name ends in .gz), or rows of a dataset."""
    path = Path(source)
    if path.is_file():
        records = []
        try:
            raw = path.read_bytes()
            text = (gzip.decompress(raw) if path.suffix == ".gz" else raw).decode("utf-8")
        except UnicodeDecodeError as error:
            raise BertforgeError(f"{path} is not UTF-8 text (byte {error.start})") from None
        except (OSError, EOFError) as error:
            raise BertforgeError(f"{path} cannot be read ({error})") from None
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            where = f"{path}:{number}"
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                raise BertforgeError(f"{where}: not valid JSON ({error.msg})") from None
            if not isinstance(record, dict):
                raise BertforgeError(f"{where}: each line must be a JSON object")
            records.append(record | {"where": where})
        if not records:
            raise BertforgeError(f"{path} holds no examples")
        return records
    datasets = require("datasets", f"reading {source!r} as a data set")
    try:
        data = (datasets.load_from_disk(str(path)) if path.is_dir()
                else datasets.load_dataset(source, split="train"))
    except Exception as error:
        raise BertforgeError(f"cannot read examples from {source!r}: no such file, and not "
                             f"a dataset ({str(error).splitlines()[0]})") from None
    if isinstance(data, datasets.DatasetDict):
        data = data["train"]
    if len(data) == 0:
        raise BertforgeError(f"{source} holds no examples")
    return [dict(row) | {"where": f"{source}[{i}]"} for i, row in enumerate(data)]


def tagging_examples(source: str, labels: str | dict | None = None,
                     conll_docs: bool = False) -> list[dict]:
    """{"text", "spans": [Span], "ignore": [(start, end)], "where"},
    checked: from JSONL or a dataset, from a CoNLL column file (`conll.py`; one
    example a sentence, or a document with `conll_docs`), or a split of a public corpus
    named "wikigold:train" (`corpora.py`). `labels` maps types ("PER=PERSON,MISC=ignore")."""
    from .conll import (apply_label_map, corpus_reference, looks_like_conll, parse_label_map,
                        read_conll)
    from .corpora import corpus_split

    if corpus_reference(source):  # "wikigold:train"
        return corpus_split(*str(source).split(":"), labels=labels, documents=conll_docs)
    if Path(source).is_file() and looks_like_conll(source):
        return read_conll(source, labels, conll_docs)
    mapping = parse_label_map(labels)
    examples = []
    for record in read_records(source):
        where = record["where"]
        # Gretel's schema (`bertforge pii generate` writes it) names the two otherwise
        text = record.get("text", record.get("generated_text"))
        if not isinstance(text, str):
            raise BertforgeError(f"{where}: needs a \"text\" string")
        spans = record.get("spans", record.get("pii_spans", []))
        if isinstance(spans, str):  # Gretel's schema keeps spans as a JSON string
            try:
                spans = json.loads(spans)
            except json.JSONDecodeError:
                raise BertforgeError(f"{where}: \"spans\" is a string that is not JSON") from None
        kept, ignored = apply_label_map(check_spans(text, spans, where), mapping)
        examples.append({"text": text, "spans": kept, "ignore": ignored, "where": where})
    return examples


def labels_of(examples: Sequence[dict]) -> list[str]:
    """The sorted labels the examples' spans use."""
    return sorted({span.label for e in examples for span in e["spans"]})


def check_spans(text: str, spans, where: str) -> list[Span]:
    """Gold spans ({"start", "end", "label"} records), sorted; refused if out of bounds,
    empty or overlapping."""
    if not isinstance(spans, list):
        raise BertforgeError(f"{where}: \"spans\" must be a list")
    out = []
    for k, span in enumerate(spans):
        try:
            start, end, label = int(span["start"]), int(span["end"]), str(span["label"])
        except (KeyError, TypeError, ValueError):
            raise BertforgeError(f"{where}: span {k} needs integer \"start\", \"end\" and a "
                                 f"\"label\"") from None
        if not 0 <= start < end <= len(text):
            raise BertforgeError(f"{where}: span {k} ({start}, {end}, {label}) is out of bounds "
                                 f"of a text of {len(text)} characters")
        if not label or label == "O" or label[:2] in ("B-", "I-"):
            raise BertforgeError(f"{where}: span {k} has label {label!r}; give the entity type "
                                 f"(PERSON), not a tag")
        out.append(Span(start, end, label, text[start:end], 1.0, "gold"))
    out.sort()
    for a, b in zip(out, out[1:]):
        if b.start < a.end:
            raise BertforgeError(f"{where}: spans ({a.start}, {a.end}, {a.label}) and "
                                 f"({b.start}, {b.end}, {b.label}) overlap; a token has one tag")
    return out


def classification_examples(source: str) -> list[dict]:
    """{"text", "text_b" (or None), "label", "where"}, checked."""
    examples = []
    for record in read_records(source):
        where = record["where"]
        text = record.get("text", record.get("text_a"))
        if not isinstance(text, str):
            raise BertforgeError(f"{where}: needs a \"text\" (or \"text_a\") string")
        pair = record.get("text_b")
        if pair is not None and not isinstance(pair, str):
            raise BertforgeError(f"{where}: \"text_b\" must be a string")
        label = record.get("label")
        if label is None or isinstance(label, (dict, list)):
            raise BertforgeError(f"{where}: needs a \"label\" (a name or a number)")
        examples.append({"text": text, "text_b": pair, "label": str(label), "where": where})
    return examples


def check_labels(examples: list[dict], known: list[str], labels_of) -> None:
    """Every label in `examples` must be one the model was trained on."""
    for example in examples:
        for label in labels_of(example):
            if label not in known:
                raise BertforgeError(f"{example['where']}: label {label!r} was not seen in "
                                     f"training (known: {', '.join(known)})")
