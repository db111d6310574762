"""Documents in Gretel's schema (`generated_text`, `pii_spans` as a JSON string of
{start, end, label}, `document_type`, `language`), from a JSONL file or, when online,
from `datasets` (`gretelai/synthetic_pii_finance_multilingual`), as tagging examples
whose labels are the 12 groups; or hand-written documents marked up inline (see
`parse_marked`), which is how an evaluation set is written by hand."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

from ..errors import BertforgeError
from ..optional import require
from ..finetune.examples import check_spans, read_records
from .labels import CORPUS_LABELS, GROUPS, group

GRETEL = "gretelai/synthetic_pii_finance_multilingual"


def read_documents(source: str, split: str = "train", language: str | None = "English",
                   labels: str | dict | None = None, conll_docs: bool = False) -> list[dict]:
    """{"text", "spans": [Span labelled with a GROUP], "ignore": [(start, end)], "document_type",
    "where"} per document. A CoNLL column file or a public corpus split
    ("wikigold:train") is read by the fine-tuning reader with the label map `labels`,
    which must bring its types to groups (PER=PERSON,*=ignore; a corpus's default is
    `labels.CORPUS_LABELS`); a .txt or .md file is
    read as marked-up documents (`read_marked`), any other file as JSONL; anything else
    is a `datasets` name or saved directory.
    Overlapping spans (real annotations have some) keep the longer one."""
    path = Path(source)
    if is_conll_source(source):
        return _from_conll(source, labels, conll_docs)
    if path.is_file() and path.suffix in (".txt", ".md"):
        records = read_marked(path)
    elif path.is_file():
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


def is_conll_source(source: str) -> bool:
    from ..finetune.conll import corpus_reference, looks_like_conll

    return corpus_reference(source) or (Path(source).is_file() and looks_like_conll(source))


def _from_conll(source: str, labels, conll_docs: bool) -> list[dict]:
    from ..finetune.conll import corpus_reference
    from ..finetune.examples import tagging_examples

    corpus = str(source).partition(":")[0] if corpus_reference(source) else None
    if labels is None and corpus is not None:
        labels = CORPUS_LABELS[corpus]
    documents = []
    for example in tagging_examples(source, labels, conll_docs):
        if corpus is not None:
            example = handles_ignored(example)
        spans = []
        for span in example["spans"]:
            try:
                spans.append(replace(span, label=group(span.label)))
            except BertforgeError:
                raise BertforgeError(f"{example['where']}: {span.label!r} is not a group of the "
                                     f"redactor; map it with --labels (for example "
                                     f"PER=PERSON,ORG=COMPANY,*=ignore)") from None
        documents.append({"text": example["text"], "spans": spans, "ignore": example["ignore"],
                          "document_type": "conll", "where": example["where"]})
    return documents


def marked_groups(source: str, labels: str | dict | None = None) -> list[str] | None:
    """The groups a CoNLL source or public corpus marks once its label map is applied
    (None for documents in Gretel's schema, which mark every group): a prediction of
    any other group there is neither right nor wrong, and goes unscored."""
    from ..finetune.conll import OUTSIDE, IGNORE_LABEL, corpus_reference, parse_label_map

    if not is_conll_source(source):
        return None
    if labels is None and corpus_reference(source):
        labels = CORPUS_LABELS[str(source).partition(":")[0]]
    targets = {v for v in parse_label_map(labels).values() if v not in (OUTSIDE, IGNORE_LABEL)}
    if not targets:
        return None
    return [g for g in GROUPS if g in {group(t) for t in targets}]


def handles_ignored(example: dict) -> dict:
    """The example with each marked user handle moved from its spans to its ignored
    ranges: "@" and the name as two tokens, each a span (the Broad Twitter Corpus's
    convention), or one span "@name" (a few in WNUT-17)."""
    text, spans = example["text"], sorted(example["spans"])
    handles = set()
    for k, span in enumerate(spans):
        said = text[span.start:span.end]
        if said.startswith("@") and len(said) > 1:
            handles.add(k)
        elif said == "@":
            handles.add(k)
            if k + 1 < len(spans) and spans[k + 1].start <= span.end + 1:
                handles.add(k + 1)
    if not handles:
        return example
    return example | {
        "spans": [s for k, s in enumerate(spans) if k not in handles],
        "ignore": sorted(list(example.get("ignore", [])) +
                         [(spans[k].start, spans[k].end) for k in sorted(handles)])}


MARK = re.compile(r"\[\[([A-Za-z_]+):(.*?)\]\]", re.S)


def parse_marked(marked: str, where: str = "text") -> tuple[str, list[dict]]:
    """Plain text and spans from text marked up as "[[PERSON:Jane Doe]] paid
    [[BANK:GB82 WEST 1234 5698 7654 32]]": each mark becomes its value in the text and a
    span with that label (a group or one of Gretel's labels)."""
    parts, spans, size, at = [], [], 0, 0
    for match in MARK.finditer(marked):
        label, value = match.group(1), match.group(2)
        if not value.strip() or "[[" in value:
            raise BertforgeError(f"{where}: mark at character {match.start()} is empty or "
                                 f"nested: {match.group(0)[:60]!r}")
        parts.append(marked[at:match.start()])
        size += match.start() - at
        spans.append({"start": size, "end": size + len(value), "label": label})
        parts.append(value)
        size += len(value)
        at = match.end()
    parts.append(marked[at:])
    text = "".join(parts)
    if "[[" in text:
        where_left = text.index("[[")
        raise BertforgeError(f"{where}: unclosed or malformed mark near "
                             f"{text[where_left:where_left + 40]!r}; write [[LABEL:value]]")
    return text, spans


def read_marked(path: Path) -> list[dict]:
    """Documents from a marked-up text file: each starts with a line "=== title"."""
    try:
        content = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise BertforgeError(f"{path}: not UTF-8 text ({error.reason} at byte {error.start})") from None
    records = []
    for k, chunk in enumerate(re.split(r"^=== ?", content, flags=re.M)[1:], 1):
        title, _, body = chunk.partition("\n")
        where = f"{path}: document {k} ({title.strip()})"
        text, spans = parse_marked(body.strip("\n") + "\n", where)
        records.append({"generated_text": text, "pii_spans": spans,
                        "document_type": title.strip(), "where": where})
    if not records:
        raise BertforgeError(f"{path}: no documents; start each with a line \"=== title\"")
    return records


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
    datasets = require("datasets", f"reading {source!r} as a data set")
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
