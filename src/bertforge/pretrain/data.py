"""Corpus -> training examples, once, on disk; examples -> masked batches, every step.

Reading: plain-text files (a blank line ends a document; within one, each line is split
into sentences), JSONL files with a "text" field (a document a line), or any
`datasets` source with a "text" column (a local dataset directory, or a hub name when
online).

Building: documents are split into sentences and tokenized with `datasets.map`
(batched, several processes), then turned into examples (NSP pairs or packed rows,
`pairs.py`), and the result is saved as Arrow files that are memory-mapped when read,
so a corpus larger than memory works. The cache is keyed by the corpus files, the
vocabulary and the settings: a second run (or a resumed one) skips all of it.

Batching: masking happens when a batch is made (`masking.py`), so every epoch sees
fresh masks. The randomness of step s (its examples, its masks) is a function of the
seed and s alone: a resumed run draws exactly what an uninterrupted one would.
"""

from __future__ import annotations

import codecs
import hashlib
import json
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np
import torch

from ..errors import BertforgeError
from ..files import atomic_directory
from ..optional import require
from ..tokenizer import Tokenizer
from .masking import IGNORE, MaskingVocab, mask_tokens
from .pairs import pack, pairs_from_document

OBJECTIVES = ("mlm", "mlm+nsp")
FORMAT_VERSION = 1
# a sentence ends at . ! or ? followed by space and something that can start one
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[A-Z0-9])")


def split_sentences(text: str) -> list[str]:
    """Lines, each cut after sentence-ending punctuation. Crude, and enough: NSP only
    needs boundaries that are mostly right."""
    sentences = []
    for line in text.split("\n"):
        sentences.extend(s.strip() for s in _SENTENCE_END.split(line) if s.strip())
    return sentences


# ------------------------------------------------------------------ reading
def read_corpus(sources: Sequence[str], cache_dir: Path):
    """A `datasets.Dataset` with one "text" per document."""
    datasets = require("datasets", "reading a corpus")

    if not sources:
        raise BertforgeError("no corpus given: pass text files, JSONL files or a dataset")
    paths = [Path(s) for s in sources]
    if all(p.is_file() for p in paths):
        for path in paths:
            check_utf8(path)
        if sum(p.stat().st_size for p in paths) == 0:
            raise BertforgeError("the corpus is empty: " + ", ".join(map(str, paths)))
        kinds = {p.suffix.lower() in (".jsonl", ".json") for p in paths}
        if len(kinds) > 1:
            raise BertforgeError("mix of JSONL and plain-text files: pass one kind at a time")
        try:
            if kinds == {True}:
                corpus = datasets.load_dataset("json", data_files=[str(p) for p in paths],
                                               split="train", cache_dir=str(cache_dir))
            else:
                corpus = datasets.load_dataset("text", data_files=[str(p) for p in paths],
                                               sample_by="paragraph", split="train",
                                               cache_dir=str(cache_dir))
        except Exception as error:  # datasets wraps parse errors in its own types
            raise BertforgeError(f"cannot read the corpus: {error}") from None
    elif len(paths) == 1 and paths[0].is_dir():
        try:
            corpus = datasets.load_from_disk(str(paths[0]))
        except Exception as error:
            raise BertforgeError(f"{paths[0]} is not a saved `datasets` dataset: {error}") from None
        if isinstance(corpus, datasets.DatasetDict):
            corpus = corpus["train"]
    else:
        missing = [str(p) for p in paths if not p.exists()]
        hub_name = re.fullmatch(r"[A-Za-z0-9][\w.-]*/[\w.-]+", sources[0])
        if (len(sources) != 1 or not hub_name or paths[0].exists()
                or paths[0].suffix.lower() in (".txt", ".json", ".jsonl", ".csv")):
            raise BertforgeError(f"no such corpus file: {', '.join(missing) or sources}")
        try:
            corpus = datasets.load_dataset(sources[0], split="train", cache_dir=str(cache_dir))
        except Exception as error:
            raise BertforgeError(f"cannot load dataset {sources[0]!r} ({error}); offline, pass "
                                 f"local files instead") from None
    if "text" not in corpus.column_names:
        raise BertforgeError(f"the corpus has no 'text' column (it has "
                             f"{', '.join(corpus.column_names)})")
    corpus = corpus.select_columns(["text"]).filter(lambda t: bool(t and t.strip()),
                                                   input_columns="text")
    if len(corpus) == 0:
        raise BertforgeError("the corpus holds no text")
    return corpus


def check_utf8(path: Path) -> None:
    """Fail early, with the place, on a file that is not UTF-8 text."""
    offset = 0
    decoder = codecs.getincrementaldecoder("utf-8")()
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            try:
                decoder.decode(chunk)
            except UnicodeDecodeError as error:
                raise BertforgeError(f"{path} is not UTF-8 text (bad byte at offset "
                                     f"{offset + error.start}); convert it, e.g. "
                                     f"`iconv -f latin1 -t utf-8`") from None
            offset += len(chunk)


# ----------------------------------------------------------------- building
@dataclass
class Examples:
    train: object   # datasets.Dataset: input_ids, token_type_ids[, next_sentence_label]
    valid: object
    unigram_entropy: float  # nats per token of the training text: the "no context" bar


def build_examples(sources: Sequence[str], tokenizer: Tokenizer, max_length: int,
                   objective: str, cache_dir: Path, seed: int = 0, num_proc: int = 1,
                   valid_share: float = 0.02, max_valid: int = 1000) -> Examples:
    """Tokenize the corpus and build examples, or load them from the cache."""
    datasets = require("datasets", "building pre-training examples")

    if objective not in OBJECTIVES:
        raise BertforgeError(f"unknown objective {objective!r}; choose {' or '.join(OBJECTIVES)}")
    cache_dir.mkdir(parents=True, exist_ok=True)
    key = _cache_key(sources, tokenizer, max_length, objective, seed, valid_share, max_valid)
    target = cache_dir / f"examples-{key}"
    if (target / "done.json").is_file():
        info = json.loads((target / "done.json").read_text())
        return Examples(datasets.load_from_disk(str(target / "train")),
                        datasets.load_from_disk(str(target / "valid")), info["unigram_entropy"])

    corpus = read_corpus(sources, cache_dir / "raw")
    tokenized = corpus.map(_tokenize_documents, batched=True, batch_size=256,
                           num_proc=_procs(num_proc, len(corpus)), remove_columns=["text"],
                           fn_kwargs={"tokenizer": tokenizer}, desc="tokenizing")
    tokenized = tokenized.filter(lambda s: len(s) > 0, input_columns="sentences")
    if len(tokenized) == 0:
        raise BertforgeError("the corpus holds no text the tokenizer could read")
    entropy = _unigram_entropy(tokenized, tokenizer)

    # hold out whole documents when there are enough of them, else examples
    by_document = len(tokenized) >= 20
    if by_document:
        n_valid = min(max_valid, max(1, round(valid_share * len(tokenized))))
        split = tokenized.train_test_split(test_size=n_valid, seed=seed)
        parts = {"train": split["train"], "valid": split["test"]}
    else:
        parts = {"train": tokenized}
    built = {}
    for name, documents in parts.items():
        fn_kwargs = {"max_length": max_length, "objective": objective, "seed": seed + len(name),
                     "cls_id": tokenizer.cls_id, "sep_id": tokenizer.sep_id,
                     "documents": documents if objective == "mlm+nsp" else None}
        built[name] = documents.map(
            _make_examples, batched=True, batch_size=1000, with_indices=True,
            num_proc=_procs(num_proc, len(documents)), remove_columns=["sentences"],
            fn_kwargs=fn_kwargs, desc=f"building {name} examples")
    if not by_document:
        n_valid = min(max_valid, max(1, round(valid_share * len(built["train"]))))
        if len(built["train"]) < 2:
            raise BertforgeError("the corpus is too small: it makes fewer than 2 examples")
        split = built["train"].train_test_split(test_size=n_valid, seed=seed)
        built = {"train": split["train"], "valid": split["test"]}
    if len(built["train"]) == 0:
        raise BertforgeError("the corpus makes no training examples at this sequence length")

    with atomic_directory(target) as staging:  # a cache that is whole, or none
        for name, dataset in built.items():
            dataset.save_to_disk(str(staging / name))
        (staging / "done.json").write_text(json.dumps({"unigram_entropy": entropy,
                                                       "train": len(built["train"]),
                                                       "valid": len(built["valid"])}))
    return Examples(datasets.load_from_disk(str(target / "train")),
                    datasets.load_from_disk(str(target / "valid")), entropy)


def _procs(num_proc: int, rows: int) -> int | None:
    n = min(num_proc, max(1, rows // 1000))
    return n if n > 1 else None


def _tokenize_documents(batch: dict, tokenizer: Tokenizer) -> dict:
    out = []
    for text in batch["text"]:
        sentences = split_sentences(text)
        encodings = tokenizer.encode_batch(sentences, add_special_tokens=False) if sentences else []
        out.append([e.ids for e in encodings if e.ids])
    return {"sentences": out}


def _make_examples(batch: dict, indices: list[int], max_length: int, objective: str,
                   seed: int, cls_id: int, sep_id: int, documents) -> dict:
    rows: dict[str, list] = {"input_ids": [], "token_type_ids": []}
    if objective == "mlm":
        streams = ([t for s in document for t in s] for document in batch["sentences"])
        for ids in pack(streams, max_length, cls_id, sep_id):
            rows["input_ids"].append(ids)
            rows["token_type_ids"].append([0] * len(ids))
        return rows
    rows["next_sentence_label"] = []
    for document, index in zip(batch["sentences"], indices):
        rng = random.Random(f"{seed}:{index}")  # each document's own, whoever builds it

        def random_document() -> list[list[int]]:
            for _ in range(10):  # another document, if there is one
                j = rng.randrange(len(documents))
                if j != index:
                    break
            return documents[j]["sentences"]

        for example in pairs_from_document(document, max_length, rng, random_document,
                                           cls_id, sep_id):
            for name in rows:
                rows[name].append(example[name])
    return rows


def _unigram_entropy(tokenized, tokenizer: Tokenizer) -> float:
    """-Σ p log p over the corpus's token frequencies (a sample of up to 20k documents):
    the loss of a model that knows word frequencies and nothing else."""
    counts = np.zeros(tokenizer.vocab_size, dtype=np.int64)
    sample = tokenized.select(range(min(len(tokenized), 20_000)))
    for sentences in sample["sentences"]:
        for sentence in sentences:
            np.add.at(counts, np.asarray(sentence, dtype=np.int64), 1)
    p = counts[counts > 0] / counts.sum()
    return float(-(p * np.log(p)).sum())


def _cache_key(sources, tokenizer: Tokenizer, *settings) -> str:
    digest = hashlib.sha256()
    for source in sources:
        path = Path(source)
        stat = path.stat() if path.exists() else None
        digest.update(f"{path.resolve() if stat else source}:{stat and stat.st_size}:"
                      f"{stat and stat.st_mtime_ns}".encode())
    digest.update(json.dumps(sorted(tokenizer.vocab().items())).encode())
    digest.update(f"{tokenizer.lowercase}:{settings}:{FORMAT_VERSION}".encode())
    return digest.hexdigest()[:16]


# ----------------------------------------------------------------- batching
@dataclass
class Batch:
    input_ids: torch.Tensor         # masked
    token_type_ids: torch.Tensor
    attention_mask: torch.Tensor
    labels: torch.Tensor            # original id where picked, IGNORE elsewhere
    next_sentence_label: torch.Tensor | None

    def rows(self, start: int, stop: int) -> "Batch":
        nsp = None if self.next_sentence_label is None else self.next_sentence_label[start:stop]
        return Batch(self.input_ids[start:stop], self.token_type_ids[start:stop],
                     self.attention_mask[start:stop], self.labels[start:stop], nsp)


def collate(rows: list[dict], pad_id: int) -> dict[str, torch.Tensor]:
    width = max(len(r["input_ids"]) for r in rows)
    ids = np.full((len(rows), width), pad_id, dtype=np.int64)
    types = np.zeros((len(rows), width), dtype=np.int64)
    mask = np.zeros((len(rows), width), dtype=np.int64)
    for i, row in enumerate(rows):
        n = len(row["input_ids"])
        ids[i, :n], types[i, :n], mask[i, :n] = row["input_ids"], row["token_type_ids"], 1
    out = {"input_ids": torch.from_numpy(ids), "token_type_ids": torch.from_numpy(types),
           "attention_mask": torch.from_numpy(mask)}
    if "next_sentence_label" in rows[0]:
        out["next_sentence_label"] = torch.tensor([r["next_sentence_label"] for r in rows])
    return out


class Batches:
    """The global batch of step s, drawn from a seeded per-epoch shuffle and masked
    with a generator seeded by (seed, s). Every process of a distributed run builds the
    same global batch and trains on its share of the rows."""

    def __init__(self, dataset, batch_size: int, vocab: MaskingVocab, pad_id: int,
                 seed: int, variant: str = "token", rate: float = 0.15,
                 split: tuple[float, float, float] = (0.8, 0.1, 0.1)):
        if len(dataset) < batch_size:
            raise BertforgeError(f"the corpus makes {len(dataset)} training examples, fewer "
                                 f"than one batch of {batch_size}: use a smaller --batch or "
                                 f"more text")
        self.dataset, self.batch_size, self.vocab, self.pad_id = dataset, batch_size, vocab, pad_id
        self.seed, self.variant, self.rate, self.split = seed, variant, rate, split
        self.per_epoch = len(dataset) // batch_size  # the incomplete last batch is dropped
        self._order: tuple[int, np.ndarray] | None = None

    def indices(self, step: int) -> np.ndarray:
        epoch, k = divmod(step, self.per_epoch)
        if self._order is None or self._order[0] != epoch:
            rng = np.random.default_rng([self.seed, epoch])
            self._order = (epoch, rng.permutation(len(self.dataset)))
        return self._order[1][k * self.batch_size:(k + 1) * self.batch_size]

    def __call__(self, step: int) -> Batch:
        rows = self.dataset.select(self.indices(step).tolist()).to_list()
        return mask_batch(collate(rows, self.pad_id), self.vocab, hash_seed(self.seed, step),
                          self.variant, self.rate, self.split)


def mask_batch(tensors: dict[str, torch.Tensor], vocab: MaskingVocab, seed: int, variant: str,
               rate: float = 0.15, split: tuple[float, float, float] = (0.8, 0.1, 0.1)) -> Batch:
    generator = torch.Generator().manual_seed(seed)
    masked, labels = mask_tokens(tensors["input_ids"], vocab, generator,
                                 attention_mask=tensors["attention_mask"], rate=rate,
                                 variant=variant, split=split)
    return Batch(masked, tensors["token_type_ids"], tensors["attention_mask"], labels,
                 tensors.get("next_sentence_label"))


def hash_seed(*parts: int) -> int:
    """A 63-bit seed from a few integers, the same in every process and run."""
    return int.from_bytes(hashlib.sha256(repr(parts).encode()).digest()[:8], "little") >> 1


def eval_batches(dataset, batch_size: int, vocab: MaskingVocab, pad_id: int, seed: int,
                 variant: str) -> list[Batch]:
    """The held-out set, masked once with a fixed seed, so every evaluation scores the
    same predictions."""
    batches = []
    for start in range(0, len(dataset), batch_size):
        rows = dataset.select(range(start, min(start + batch_size, len(dataset)))).to_list()
        batches.append(mask_batch(collate(rows, pad_id), vocab, hash_seed(seed, -1 - start),
                                  variant))
    return batches


__all__ = ["IGNORE", "Batch", "Batches", "Examples", "build_examples", "eval_batches",
           "mask_batch", "read_corpus", "split_sentences"]
