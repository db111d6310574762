"""The public NER corpora beside the project (`../shared/corpora/ner/`), with fixed splits.

Each split is written here once and never chosen by a score. Splits go by document
(a Wikipedia article, a tweet or post) or by section, never by sentence within a
document, so no article lends sentences to both sides:

- **wikigold** (Wikipedia, 145 articles, PER / ORG / LOC / MISC, IOB1): article k is in
  validation when k % 10 == 8, in test when k % 10 == 9, in training otherwise.
- **wnut17** (WNUT-17: Twitter, Reddit, YouTube, Stack Overflow; person, location,
  corporation, product, creative-work, group): the shared task's own files: train,
  dev (validation), test.
- **btc** (the Broad Twitter Corpus, six sections of tweets, PER / ORG / LOC): section
  F (2,000 tweets of well-known accounts, 2009-2014) is the test split, every fourth
  tweet of section H (non-UK, 2014) validation, and sections A, B, E, G and the rest of
  H training.

All three are CC-BY 4.0; `CORPORA[name].licence` and `.citation` say so for a card.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ..errors import BertforgeError
from .conll import read_conll

SPLITS = ("train", "validation", "test")


@dataclass(frozen=True)
class Corpus:
    name: str
    description: str
    licence: str
    citation: str


CORPORA = {
    "wikigold": Corpus(
        "wikigold", "Wikipedia articles annotated with PER, ORG, LOC, MISC", "CC-BY 4.0",
        "Balasuriya, Ringland, Nothman, Murphy and Curran (2009), Named Entity Recognition "
        "in Wikipedia, Workshop on The People's Web Meets NLP"),
    "wnut17": Corpus(
        "wnut17", "WNUT-17 emerging entities: Twitter, Reddit, YouTube, Stack Overflow",
        "CC-BY 4.0",
        "Derczynski, Nichols, van Erp and Limsopatham (2017), Results of the WNUT2017 "
        "Shared Task on Novel and Emerging Entity Recognition, W-NUT"),
    "btc": Corpus(
        "btc", "the Broad Twitter Corpus: tweets annotated with PER, ORG, LOC", "CC-BY 4.0",
        "Derczynski, Bontcheva and Roberts (2016), Broad Twitter Corpus: A Diverse Named "
        "Entity Recognition Resource, COLING"),
}


def corpora_root() -> Path:
    """$BERTFORGE_CORPORA, or `shared/corpora/ner` beside the checkout."""
    if os.environ.get("BERTFORGE_CORPORA"):
        return Path(os.environ["BERTFORGE_CORPORA"])
    here = Path(__file__).resolve()
    for parent in here.parents:
        candidate = parent / "shared" / "corpora" / "ner"
        if candidate.is_dir():
            return candidate
    return here.parents[3].parent / "shared" / "corpora" / "ner"


def corpus_split(name: str, split: str, root: str | Path | None = None,
                 labels: str | dict | None = None, documents: bool = False) -> list[dict]:
    """The examples (one a sentence or tweet) of one split of one corpus, its labels
    mapped by `labels` (`conll.parse_label_map`); with `documents`, one a document
    where the corpus marks them (wikigold's articles; a tweet is its own document).
    Each example's "where" names its file and line."""
    if name not in CORPORA:
        raise BertforgeError(f"no corpus {name!r}; known: {', '.join(CORPORA)}")
    if split not in SPLITS:
        raise BertforgeError(f"split must be one of {', '.join(SPLITS)}, not {split!r}")
    base = Path(root) if root is not None else corpora_root()
    folder = base / name
    if not folder.is_dir():
        raise BertforgeError(f"the {name} corpus is not at {folder}: set BERTFORGE_CORPORA to "
                             f"the folder that holds wikigold/, wnut17/ and btc/")
    if name == "wikigold":
        rows = read_conll(folder / "wikigold.conll.txt", labels, documents)
        bucket = {8: "validation", 9: "test"}
        return [r for r in rows if bucket.get(r["document"] % 10, "train") == split]
    if name == "wnut17":
        files = {"train": "wnut17train.conll", "validation": "emerging.dev.conll",
                 "test": "emerging.test.annotated"}
        return read_conll(folder / files[split], labels)
    if split == "test":
        return read_conll(folder / "f.conll", labels)
    h = read_conll(folder / "h.conll", labels)
    if split == "validation":
        return h[::4]
    rest = [r for k, r in enumerate(h) if k % 4]
    return [r for s in "abeg" for r in read_conll(folder / f"{s}.conll", labels)] + rest
