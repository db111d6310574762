"""CoNLL column files as tagging examples, and label maps that rename or ignore types.

The format: one word a line with its tag in the last column (tab- or space-separated;
the columns between are ignored), a blank line between sentences, a `-DOCSTART-` line
between documents. Tags are IOB1 or IOB2 (or plain O): both read the same way, as
`seqeval` does, so neither needs saying: B-X always opens an entity, I-X continues one
of type X and opens one after anything else.

Each example's text is its words joined by single spaces (and, for a document, its
sentences joined by newlines), so every span's character offsets are exact:
`text[start:end]` is the entity's words with single spaces between them.

A label map (`parse_label_map("PER=PERSON,MISC=ignore,*=O")`) renames a type, makes it
plain text (`O`: the model learns that it is not an entity), or `ignore`s it: its
words carry no loss in training and predictions on them earn neither credit nor
blame in scoring (partial annotation: a corpus that marks teams can teach names
without teaching that teams are names). `*` stands for every type not named; types
not named and no `*` keep their names.
"""

from __future__ import annotations

import logging
import re
from dataclasses import replace
from pathlib import Path

from ..errors import BertforgeError
from ..spans import Span
from .tagging import to_spans

log = logging.getLogger(__name__)

IGNORE_LABEL = "ignore"
OUTSIDE = "O"
DOCSTART = "-DOCSTART-"
_TAG = re.compile(r"^(O|[BI]-\S+)$")


def parse_label_map(spec: str | dict | None) -> dict[str, str]:
    """"PER=PERSON,MISC=ignore" -> {"PER": "PERSON", "MISC": "ignore"}."""
    if spec is None or isinstance(spec, dict):
        return dict(spec or {})
    mapping = {}
    for item in filter(None, (part.strip() for part in spec.split(","))):
        source, sep, target = (x.strip() for x in item.partition("="))
        if not sep or not source or not target or target[:2] in ("B-", "I-"):
            raise BertforgeError(f"label map entry {item!r}: write TYPE=NEW, TYPE=ignore or "
                                 f"TYPE=O (for example PER=PERSON,MISC=ignore,*=O)")
        if source in mapping:
            raise BertforgeError(f"label map names {source!r} twice")
        mapping[source] = target
    return mapping


def map_label(label: str, mapping: dict[str, str]) -> str:
    """The new name of `label`: a type, "ignore" or "O"."""
    return mapping.get(label, mapping.get("*", label))


def apply_label_map(spans: list[Span], mapping: dict[str, str]
                    ) -> tuple[list[Span], list[tuple[int, int]]]:
    """(kept spans renamed, ignored ranges) of one example's spans."""
    kept, ignored = [], []
    for span in spans:
        new = map_label(span.label, mapping)
        if new == IGNORE_LABEL:
            ignored.append((span.start, span.end))
        elif new != OUTSIDE:
            kept.append(replace(span, label=new))
    return kept, ignored


def corpus_reference(source: str) -> bool:
    """Whether `source` names a public corpus split ("wikigold:train") and no file."""
    from .corpora import CORPORA, SPLITS

    name, _, split = str(source).partition(":")
    return not Path(source).exists() and name in CORPORA and split in SPLITS


def looks_like_conll(path: str | Path, lines: int = 20) -> bool:
    """Whether a file's first non-blank lines are word-and-tag columns."""
    if Path(path).suffix == ".gz":  # compressed JSONL (the frozen splits), never columns
        return False
    seen = 0
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as f:
            for line in f:
                if not line.strip():
                    continue
                columns = line.split()
                if columns[0] != DOCSTART and (len(columns) < 2 or not _TAG.match(columns[-1])):
                    return False
                seen += 1
                if seen == lines:
                    break
    except OSError:
        return False
    return seen > 0


def _sentences(path: Path, raw: str) -> tuple[list, list[int], bool]:
    """(sentences as (words, tags, first line), the document of each, whether the file
    has -DOCSTART- lines), every line checked: a word and a valid tag, or a blank."""
    sentences: list[tuple[list[str], list[str], int]] = []  # words, tags, first line
    doc_of: list[int] = []
    doc, words, tags, first = 0, [], [], 0
    has_docstart = False
    blank = 0

    def close():
        nonlocal words, tags
        if words:
            sentences.append((words, tags, first))
            doc_of.append(doc)
        words, tags = [], []

    for number, line in enumerate(raw.splitlines(), 1):
        columns = line.split("\t") if "\t" in line else line.split()
        columns = [c.strip() for c in columns]
        if not line.strip():
            close()
            continue
        if columns[0] == DOCSTART:
            close()
            has_docstart = True
            doc += 1
            continue
        if len(columns) < 2:
            raise BertforgeError(f"{path}:{number}: expected a word and a tag separated by a "
                                 f"tab or spaces, got {line.strip()[:60]!r}")
        tag = columns[-1]
        if not _TAG.match(tag):
            raise BertforgeError(f"{path}:{number}: {tag!r} is not a tag (O, B-TYPE or I-TYPE: "
                                 f"IOB1 or IOB2)")
        if not columns[0]:  # a blank word (real files hold a few): nothing to write
            if tag != OUTSIDE:
                raise BertforgeError(f"{path}:{number}: a blank word tagged {tag!r}")
            blank += 1
            continue
        if not words:
            first = number
        words.append(columns[0])
        tags.append(tag)
    close()
    if blank:
        log.warning("%s: skipped %d line(s) whose word is blank (tagged O)", path, blank)
    if not sentences:
        raise BertforgeError(f"{path} holds no sentences (a word and a tag a line)")
    return sentences, doc_of, has_docstart


def read_conll(path: str | Path, labels: str | dict | None = None,
               documents: bool = False) -> list[dict]:
    """Tagging examples {"text", "spans": [Span], "ignore": [(start, end)],
    "where", "document" (0 before the first -DOCSTART-, then 1, 2, ...), "pretokenized":
    True (its words are the file's: decode them by spaces)} from a CoNLL file: one per sentence, or with `documents` one per
    `-DOCSTART-` document, its sentences joined by newlines (a file without
    `-DOCSTART-` lines keeps one example per sentence)."""
    path = Path(path)
    mapping = parse_label_map(labels)
    try:
        raw = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as error:
        raise BertforgeError(f"{path} is not UTF-8 text (byte {error.start})") from None
    except OSError as error:
        raise BertforgeError(f"cannot read {path}: {error.strerror}") from None

    sentences, doc_of, has_docstart = _sentences(path, raw)
    examples = []
    if documents and has_docstart:
        groups: dict[int, list[int]] = {}
        for k, d in enumerate(doc_of):
            groups.setdefault(d, []).append(k)
        for d, members in groups.items():
            examples.append(_example([sentences[k] for k in members], path, mapping) |
                            {"document": d})
    else:
        for sentence, d in zip(sentences, doc_of):
            examples.append(_example([sentence], path, mapping) | {"document": d})
    return examples


def _example(sentences, path: Path, mapping: dict[str, str]) -> dict:
    text_parts, spans, at = [], [], 0
    for words, tags, _ in sentences:
        if text_parts:
            at += 1  # the newline between sentences
        positions = []
        for word in words:
            positions.append((at, at + len(word)))
            at += len(word) + 1
        at -= 1
        text_parts.append(" ".join(words))
        spans += [(positions[run.start][0], positions[run.end - 1][1], run.label)
                  for run in to_spans(tags)]
    text = "\n".join(text_parts)
    kept, ignored = apply_label_map([Span(a, b, label, text[a:b], 1.0, "gold")
                                     for a, b, label in spans], mapping)
    return {"text": text, "spans": kept, "ignore": ignored,
            "where": f"{path}:{sentences[0][2]}", "pretokenized": True}

