"""WordPiece tokenization with character offsets, over the `tokenizers` library.

BERT's tokenizer is four steps, each a `tokenizers` component configured the way the
checkpoint says: normalise (clean control characters, space out CJK characters,
lowercase and strip accents for an uncased model), split on whitespace and punctuation,
WordPiece each word (greedy longest match, `##` marks a continuation), and wrap in
[CLS] … [SEP] (… [SEP] for a pair, whose second part gets segment id 1).

This module owns turning text into ids (with the character span of every token in the
original text) and training a vocabulary; cutting long inputs into windows is
`windows.py`'s job, so nothing here truncates unless asked.
"""

from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np
import torch
from tokenizers import Tokenizer as Backend
from tokenizers import decoders, models, normalizers, pre_tokenizers, processors, trainers

from .errors import TokenizerError

SPECIAL_TOKENS = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")


class Encoding:
    """One encoded text (or pair of texts). Each field becomes a Python list when it is
    first read: the redactor reads only ids and offsets, and converting every field of
    every token is work on its hot path."""

    def __init__(self, encoding):
        self._encoding = encoding

    @functools.cached_property
    def ids(self) -> list[int]:
        return self._encoding.ids

    @functools.cached_property
    def type_ids(self) -> list[int]:
        return self._encoding.type_ids

    @functools.cached_property
    def tokens(self) -> list[str]:
        return self._encoding.tokens

    @functools.cached_property
    def offsets(self) -> list[tuple[int, int]]:
        """Into the text the token came from; (0, 0) for specials."""
        return self._encoding.offsets

    @functools.cached_property
    def sequence_ids(self) -> list[int | None]:
        """0 or 1: which text of a pair; None for specials."""
        return self._encoding.sequence_ids


@dataclass
class Batch:
    """Encoded texts padded to one length, as tensors the model takes."""

    input_ids: torch.Tensor       # (batch, length)
    token_type_ids: torch.Tensor  # segment ids, 0 / 1
    attention_mask: torch.Tensor  # 1 for a real token, 0 for padding
    encodings: list[Encoding]

    @property
    def offsets(self) -> list[list[tuple[int, int]]]:
        return [e.offsets for e in self.encodings]

    @property
    def tokens(self) -> list[list[str]]:
        return [e.tokens for e in self.encodings]

    def __len__(self) -> int:
        return len(self.encodings)

    def to(self, device: str | torch.device) -> "Batch":
        return Batch(self.input_ids.to(device), self.token_type_ids.to(device),
                     self.attention_mask.to(device), self.encodings)

    def model_inputs(self) -> dict[str, torch.Tensor]:
        """The keyword arguments of `Bert.forward`."""
        return {"input_ids": self.input_ids, "token_type_ids": self.token_type_ids,
                "attention_mask": self.attention_mask}


class Tokenizer:
    """BERT's WordPiece tokenizer. Build with `load_tokenizer`, `from_vocab` or `train`."""

    def __init__(self, backend: Backend, lowercase: bool, strip_accents: bool | None = None,
                 tokenize_chinese_chars: bool = True, model_max_length: int = 512):
        self.backend = backend
        self.backend.no_padding()
        self.backend.no_truncation()
        self.lowercase = lowercase
        self.strip_accents = strip_accents
        self.tokenize_chinese_chars = tokenize_chinese_chars
        self.model_max_length = model_max_length
        ids = _special_ids(backend)
        self.pad_id, self.unk_id = ids["[PAD]"], ids["[UNK]"]
        self.cls_id, self.sep_id, self.mask_id = ids["[CLS]"], ids["[SEP]"], ids["[MASK]"]
        self.special_ids = frozenset(ids.values())

    # ------------------------------------------------------------ construction
    @classmethod
    def from_vocab(cls, vocab: str | os.PathLike | dict[str, int], lowercase: bool = True,
                   strip_accents: bool | None = None, tokenize_chinese_chars: bool = True,
                   model_max_length: int = 512) -> "Tokenizer":
        """The tokenizer a `vocab.txt` (or a token -> id dict) describes.
        strip_accents None means: strip them when lowercasing, as BERT does."""
        if not isinstance(vocab, dict):
            vocab = read_vocab(Path(vocab))
        backend = Backend(models.WordPiece(vocab, unk_token="[UNK]",
                                           max_input_chars_per_word=100))
        # "[CLS]" written in a text is the token, not five characters (as in transformers)
        backend.add_special_tokens([t for t in SPECIAL_TOKENS if t in vocab])
        cls._assemble(backend, lowercase, strip_accents, tokenize_chinese_chars)
        return cls(backend, lowercase, strip_accents, tokenize_chinese_chars, model_max_length)

    @staticmethod
    def _assemble(backend: Backend, lowercase: bool, strip_accents: bool | None,
                  tokenize_chinese_chars: bool) -> None:
        backend.normalizer = normalizers.BertNormalizer(
            clean_text=True, handle_chinese_chars=tokenize_chinese_chars,
            strip_accents=strip_accents, lowercase=lowercase)
        backend.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
        ids = _special_ids(backend)
        cls_id, sep_id = ids["[CLS]"], ids["[SEP]"]
        backend.post_processor = processors.TemplateProcessing(
            single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1",
            special_tokens=[("[CLS]", cls_id), ("[SEP]", sep_id)])
        backend.decoder = decoders.WordPiece(prefix="##")

    @classmethod
    def train(cls, files: Sequence[str | os.PathLike], vocab_size: int = 30522,
              lowercase: bool = True, strip_accents: bool | None = None,
              min_frequency: int = 2, limit_alphabet: int = 1000,
              show_progress: bool = True) -> "Tokenizer":
        """Learn a WordPiece vocabulary from plain-text files (one or more)."""
        paths = [str(Path(f)) for f in files]
        for path in paths:
            if not Path(path).is_file():
                raise TokenizerError(f"no text file at {path}")
        if not any(Path(p).stat().st_size for p in paths):
            raise TokenizerError("the training files are empty: a vocabulary needs text")
        return cls._train(lambda backend, trainer: backend.train(paths, trainer), vocab_size,
                          lowercase, strip_accents, min_frequency, limit_alphabet, show_progress)

    @classmethod
    def train_from_texts(cls, texts: Iterable[str], vocab_size: int = 30522,
                         lowercase: bool = True, strip_accents: bool | None = None,
                         min_frequency: int = 2, limit_alphabet: int = 1000,
                         show_progress: bool = True) -> "Tokenizer":
        """Learn a WordPiece vocabulary from any iterable of texts (a dataset column)."""
        return cls._train(lambda backend, trainer: backend.train_from_iterator(texts, trainer),
                          vocab_size, lowercase, strip_accents, min_frequency, limit_alphabet,
                          show_progress)

    @classmethod
    def _train(cls, run, vocab_size, lowercase, strip_accents, min_frequency, limit_alphabet,
               show_progress) -> "Tokenizer":
        backend = Backend(models.WordPiece(unk_token="[UNK]", max_input_chars_per_word=100))
        backend.normalizer = normalizers.BertNormalizer(
            clean_text=True, handle_chinese_chars=True, strip_accents=strip_accents,
            lowercase=lowercase)
        backend.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
        trainer = trainers.WordPieceTrainer(
            vocab_size=vocab_size, min_frequency=min_frequency, show_progress=show_progress,
            special_tokens=list(SPECIAL_TOKENS), limit_alphabet=limit_alphabet,
            continuing_subword_prefix="##")
        try:
            run(backend, trainer)
        except Exception as error:  # the Rust side raises plain Exceptions
            raise TokenizerError(f"training a vocabulary failed: {error}") from None
        if backend.get_vocab_size() <= len(SPECIAL_TOKENS):
            raise TokenizerError("the training text makes no vocabulary: is it empty?")
        cls._assemble(backend, lowercase, strip_accents, True)
        return cls(backend, lowercase, strip_accents)

    # ---------------------------------------------------------------- encoding
    @property
    def vocab_size(self) -> int:
        return self.backend.get_vocab_size(with_added_tokens=True)

    def vocab(self) -> dict[str, int]:
        return self.backend.get_vocab(with_added_tokens=True)

    def token_to_id(self, token: str) -> int | None:
        return self.backend.token_to_id(token)

    def convert_ids_to_tokens(self, ids: Iterable[int]) -> list[str]:
        return [self.backend.id_to_token(int(i)) for i in ids]

    def tokenize(self, text: str) -> list[str]:
        """The WordPiece tokens of a text, without [CLS] and [SEP]."""
        return self.encode(text, add_special_tokens=False).tokens

    def encode(self, text: str, pair: str | None = None, add_special_tokens: bool = True,
               max_length: int | None = None) -> Encoding:
        """One text, or a pair; `max_length` truncates (the longer part first)."""
        return self.encode_batch([text], None if pair is None else [pair],
                                 add_special_tokens, max_length)[0]

    def encode_batch(self, texts: Sequence[str], pairs: Sequence[str | None] | None = None,
                     add_special_tokens: bool = True,
                     max_length: int | None = None) -> list[Encoding]:
        """Many texts at once (in parallel, in Rust). `pairs[i]`, where given and not
        None, is the second text of input i."""
        texts = _check_texts(texts, "texts")
        inputs: list = texts
        if pairs is not None:
            pairs = _check_texts(pairs, "pairs", allow_none=True)
            if len(pairs) != len(texts):
                raise TokenizerError(f"{len(texts)} texts but {len(pairs)} pairs: give one "
                                     f"second text (or None) for each first text")
            inputs = [t if p is None else (t, p) for t, p in zip(texts, pairs)]
        if max_length is not None:
            self.backend.enable_truncation(max_length, strategy="longest_first")
        try:
            raw = self.backend.encode_batch(inputs, add_special_tokens=add_special_tokens)
        except Exception as error:
            # the Rust tokenizer names no input; a lone surrogate is the usual cause
            why = next((f"text {i}: {problem}" for i, text in enumerate(texts)
                        if (problem := text_error(text))), error)
            raise TokenizerError(f"cannot encode: {why}") from None
        finally:
            self.backend.no_truncation()
        return [Encoding(e) for e in raw]

    def __call__(self, texts: str | Sequence[str], pairs: str | Sequence[str] | None = None,
                 padding: bool = True, max_length: int | None = None,
                 return_offsets: bool = True) -> Batch:
        """Encode a batch as tensors: `tok(["a text", "another"])`. Shorter inputs are
        padded to the longest (with attention_mask 0). Offsets ride along in
        `batch.encodings` either way; `return_offsets` is kept for the familiar call."""
        if isinstance(texts, str):
            texts = [texts]
            pairs = [pairs] if isinstance(pairs, str) else pairs
        encodings = self.encode_batch(texts, pairs, max_length=max_length)
        lengths = [len(e.ids) for e in encodings]
        if not padding and len(set(lengths)) > 1:
            raise TokenizerError("texts of different lengths need padding=True to be batched")
        width = max(lengths, default=0)
        ids = np.full((len(encodings), width), self.pad_id, dtype=np.int64)
        types = np.zeros((len(encodings), width), dtype=np.int64)
        mask = np.zeros((len(encodings), width), dtype=np.int64)
        for row, e in enumerate(encodings):
            ids[row, :len(e.ids)] = e.ids
            types[row, :len(e.ids)] = e.type_ids
            mask[row, :len(e.ids)] = 1
        return Batch(torch.from_numpy(ids), torch.from_numpy(types), torch.from_numpy(mask),
                     encodings)

    def decode(self, ids: Iterable[int], skip_special_tokens: bool = True) -> str:
        return self.backend.decode([int(i) for i in ids], skip_special_tokens=skip_special_tokens)

    # ------------------------------------------------------------------ saving
    def save(self, directory: str | os.PathLike) -> None:
        """vocab.txt, tokenizer.json and tokenizer_config.json: what both `transformers`
        tokenizer classes (and Google's code, from vocab.txt) read."""
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        by_id = sorted(self.vocab().items(), key=lambda item: item[1])
        (directory / "vocab.txt").write_text("".join(t + "\n" for t, _ in by_id), encoding="utf-8")
        self.backend.save(str(directory / "tokenizer.json"))
        config = {
            "tokenizer_class": "BertTokenizer", "do_lower_case": self.lowercase,
            "strip_accents": self.strip_accents,
            "tokenize_chinese_chars": self.tokenize_chinese_chars,
            "model_max_length": self.model_max_length,
            "unk_token": "[UNK]", "sep_token": "[SEP]", "pad_token": "[PAD]",
            "cls_token": "[CLS]", "mask_token": "[MASK]",
        }
        (directory / "tokenizer_config.json").write_text(json.dumps(config, indent=2) + "\n",
                                                         encoding="utf-8")
        specials = {"unk_token": "[UNK]", "sep_token": "[SEP]", "pad_token": "[PAD]",
                    "cls_token": "[CLS]", "mask_token": "[MASK]"}
        (directory / "special_tokens_map.json").write_text(json.dumps(specials, indent=2) + "\n",
                                                           encoding="utf-8")


def _special_ids(backend: Backend) -> dict[str, int]:
    ids = {token: backend.token_to_id(token) for token in SPECIAL_TOKENS}
    missing = [token for token, i in ids.items() if i is None]
    if missing:
        raise TokenizerError(f"the vocabulary lacks BERT's special tokens "
                             f"{', '.join(missing)}; is this a BERT vocabulary?")
    return ids


def text_error(text: str) -> str | None:
    """Why a string cannot be tokenized or redacted, or None: a lone surrogate is no
    character."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        return (f"its text holds a lone surrogate (\\u{ord(text[error.start]):04x} at "
                f"character {error.start}), which is not a character; fix the producer")
    return None


def _check_texts(texts, what: str, allow_none: bool = False) -> list:
    if isinstance(texts, str):
        raise TokenizerError(f"{what} must be a list of strings, got one string")
    texts = list(texts)
    for i, text in enumerate(texts):
        if not isinstance(text, str) and not (allow_none and text is None):
            raise TokenizerError(f"{what}[{i}] is a {type(text).__name__}, not a string")
    return texts


def read_vocab(path: Path) -> dict[str, int]:
    """vocab.txt: one token a line, its id the line number."""
    try:
        lines = path.read_text(encoding="utf-8").split("\n")
    except FileNotFoundError:
        raise TokenizerError(f"no vocabulary file at {path}") from None
    except UnicodeDecodeError as error:
        raise TokenizerError(f"{path} is not UTF-8 text ({error})") from None
    if lines and lines[-1] == "":
        lines.pop()
    vocab: dict[str, int] = {}
    for token in lines:
        vocab.setdefault(token.rstrip("\r"), len(vocab))
    if not vocab:
        raise TokenizerError(f"{path} is empty")
    return vocab


def load_tokenizer(source: str | os.PathLike, revision: str | None = None) -> Tokenizer:
    """The tokenizer of a model directory, packaged model or hub id: `tokenizer.json`
    when there is one, else `vocab.txt`, configured by `tokenizer_config.json`."""
    from .checkpoint import resolve

    directory = resolve(source, revision)
    settings = {}
    config_path = directory / "tokenizer_config.json"
    if config_path.is_file():
        try:
            settings = json.loads(config_path.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise TokenizerError(f"{config_path} is not valid JSON ({error})") from None
    vocab_path, json_path = directory / "vocab.txt", directory / "tokenizer.json"
    if not vocab_path.is_file() and not json_path.is_file():
        raise TokenizerError(f"{directory} has no tokenizer: expected vocab.txt or "
                             f"tokenizer.json")
    if "do_lower_case" in settings:
        lowercase = bool(settings["do_lower_case"])
    elif vocab_path.is_file():
        lowercase = not _vocab_is_cased(read_vocab(vocab_path))
    else:
        lowercase = True
    strip_accents = settings.get("strip_accents")
    chinese = settings.get("tokenize_chinese_chars", True)
    max_length = settings.get("model_max_length", 512)
    if not isinstance(max_length, int) or max_length > 1_000_000:  # "no limit" sentinels
        max_length = 512
    if json_path.is_file():
        try:
            backend = Backend.from_file(str(json_path))
        except Exception as error:
            raise TokenizerError(f"{json_path} cannot be read ({error})") from None
        return Tokenizer(backend, lowercase, strip_accents, chinese, max_length)
    return Tokenizer.from_vocab(vocab_path, lowercase, strip_accents, chinese, max_length)


def _vocab_is_cased(vocab: dict[str, int]) -> bool:
    """Without a tokenizer_config.json, tell a cased vocabulary by its capitals."""
    words = [t for t in vocab if t.isalpha() and not t.startswith("[")]
    capitals = sum(1 for t in words if t[0].isupper())
    return capitals > 0.05 * max(len(words), 1)
