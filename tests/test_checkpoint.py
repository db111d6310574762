"""Loading and saving: round trips with transformers, Google's legacy names, the
`bert.` prefix, .bin files, hub ids (against a local cache), and every way a
checkpoint can be broken."""

import json
import os
import shutil

import pytest
import torch
from safetensors.torch import load_file, save_file

from bertforge import BertforgeError, CheckpointError, load_model, load_tokenizer, save_model
from bertforge.checkpoint import NAME_MAP, our_name, their_name
from bertforge.model import Bert
from conftest import HF_CLASSES, TEXTS, hf_model

TOL = 1e-5


def outputs(model, directory):
    batch = load_tokenizer(directory)([a for a, _ in TEXTS], [b for _, b in TEXTS])
    with torch.no_grad():
        out = model(**batch.model_inputs(), output_hidden_states=False)
    real = batch.attention_mask.bool()
    primary = out.logits if out.logits is not None else out.last_hidden_state
    return (primary[real] if primary.dim() == 3 else primary), real


def hf_outputs(model, directory):
    batch = load_tokenizer(directory)([a for a, _ in TEXTS], [b for _, b in TEXTS])
    with torch.no_grad():
        out = model(**batch.model_inputs())
    real = batch.attention_mask.bool()
    primary = getattr(out, "prediction_logits", None)
    if primary is None:
        primary = getattr(out, "logits", None)
    if primary is None:
        primary = out.last_hidden_state
    return primary[real] if primary.dim() == 3 else primary


def test_name_map_round_trips_every_parameter():
    for head in ("pretraining", "token-classification"):
        from bertforge import BertConfig
        config = BertConfig.preset("tiny", labels=["O", "B-X"]) if head != "pretraining" \
            else BertConfig.preset("tiny")
        for name in Bert(config, head=head).state_dict():
            assert our_name(their_name(name, prefixed=True)) == name
            assert our_name(their_name(name, prefixed=False)) == name
    assert len(NAME_MAP) == len({ours for ours, _ in NAME_MAP})


@pytest.mark.parametrize("head", list(HF_CLASSES), ids=lambda h: h or "base")
def test_ours_saved_loads_in_transformers_with_same_outputs(tiny_dirs, tmp_path, head):
    """theirs -> ours -> saved -> transformers' matching class -> the same numbers."""
    ours = load_model(tiny_dirs[head])
    tok = load_tokenizer(tiny_dirs[head])
    saved = save_model(ours, tok, tmp_path / "saved")
    config = json.loads((saved / "config.json").read_text())
    assert config["architectures"] == [HF_CLASSES[head]]
    card = json.loads((saved / "bertforge.json").read_text())
    assert card["head"] == head
    theirs = hf_model(saved, head)
    mine, _ = outputs(ours, saved)
    assert (mine - hf_outputs(theirs, saved)).abs().max().item() <= TOL
    if ours.config.labels:
        labels = ours.config.labels
        assert [theirs.config.id2label[i] for i in range(len(labels))] == labels
    # and ours reads back what it wrote, bit for bit
    again = load_model(saved)
    for (n1, t1), (n2, t2) in zip(ours.state_dict().items(), again.state_dict().items()):
        assert n1 == n2 and torch.equal(t1, t2)


def test_legacy_gamma_beta_bin_without_prefix_loads(tiny_dirs, tmp_path):
    """Google's TensorFlow-era names (LayerNorm.gamma/beta) in a pytorch_model.bin,
    with and without the `bert.` prefix, give the same model."""
    source = tiny_dirs["pretraining"]
    reference, _ = outputs(load_model(source), source)
    tensors = load_file(source / "model.safetensors")
    for prefixed in (True, False):
        legacy = {}
        for name, tensor in tensors.items():
            name = name.replace("LayerNorm.weight", "LayerNorm.gamma").replace("LayerNorm.bias",
                                                                              "LayerNorm.beta")
            if not prefixed:
                name = name.removeprefix("bert.")
            legacy[name] = tensor
        # old checkpoints also carry the tied decoder and the position_ids buffer
        legacy["cls.predictions.decoder.weight"] = tensors["bert.embeddings.word_embeddings.weight"]
        legacy["embeddings.position_ids"] = torch.arange(64)[None]
        directory = tmp_path / f"legacy-{prefixed}"
        shutil.copytree(source, directory)
        os.remove(directory / "model.safetensors")
        torch.save(legacy, directory / "pytorch_model.bin")
        assert any(k.endswith("gamma") for k in legacy)
        model = load_model(directory)
        mine, _ = outputs(model, directory)
        assert model.head == "pretraining"
        assert (mine - reference).abs().max().item() == 0


def test_fresh_classification_head_on_a_base_checkpoint(minilm):
    model = load_model(minilm, head="token-classification", labels=["O", "B-PER", "I-PER"])
    assert model.config.labels == ["O", "B-PER", "I-PER"]
    assert model.new_parameters == ["classifier.weight", "classifier.bias"]
    with pytest.raises(CheckpointError, match="labels"):
        load_model(minilm, head="sequence-classification")


def test_head_missing_from_checkpoint_is_an_error(minilm):
    with pytest.raises(CheckpointError) as info:
        load_model(minilm, head="masked-lm")
    assert "missing: cls.predictions.bias" in str(info.value)
    assert "cls.predictions.transform.dense.weight" in str(info.value)


# ----------------------------------------------------------------- bad input
def test_missing_directory():
    with pytest.raises(CheckpointError, match="no model directory at /nonexistent/model"):
        load_model("/nonexistent/model")


def test_directory_without_weights(tmp_path, minilm):
    shutil.copy(minilm / "config.json", tmp_path / "config.json")
    with pytest.raises(CheckpointError, match="has no weights: expected one of model.safetensors"):
        load_model(tmp_path)


@pytest.mark.parametrize("damage", ["truncated", "corrupt", "empty"])
def test_broken_safetensors(tiny_dirs, tmp_path, damage):
    directory = tmp_path / "broken"
    shutil.copytree(tiny_dirs[None], directory)
    weights = directory / "model.safetensors"
    data = weights.read_bytes()
    if damage == "truncated":
        weights.write_bytes(data[: len(data) // 2])
    elif damage == "corrupt":
        weights.write_bytes(os.urandom(len(data)))
    else:
        weights.write_bytes(b"")
    with pytest.raises(CheckpointError, match="not a readable safetensors file.*truncated or corrupt"):
        load_model(directory)


def test_wrong_shape_and_unexpected_tensor_are_listed(tiny_dirs, tmp_path):
    directory = tmp_path / "wrong"
    shutil.copytree(tiny_dirs[None], directory)
    tensors = load_file(directory / "model.safetensors")
    tensors["encoder.layer.1.intermediate.dense.weight"] = torch.zeros(47, 32)
    tensors["encoder.layer.0.attention.self.rotary.weight"] = torch.zeros(3)
    del tensors["encoder.layer.0.output.LayerNorm.bias"]
    save_file(tensors, directory / "model.safetensors")
    with pytest.raises(CheckpointError) as info:
        load_model(directory)
    message = str(info.value)
    # named as the file names them (this one has no "bert." prefix)
    assert "missing: encoder.layer.0.output.LayerNorm.bias" in message
    assert "wrong shape: encoder.layer.1.intermediate.dense.weight: file (47, 32), config (48, 32)" in message
    assert "not part of BERT: encoder.layer.0.attention.self.rotary.weight" in message


def test_bin_with_pickled_objects_is_refused(tiny_dirs, tmp_path):
    directory = tmp_path / "pickle"
    shutil.copytree(tiny_dirs[None], directory)
    os.remove(directory / "model.safetensors")
    torch.save({"weights": load_file(tiny_dirs[None] / "model.safetensors"), "hook": print},
               directory / "pytorch_model.bin")
    with pytest.raises(CheckpointError, match="(?i)refused for safety") as refused:
        load_model(directory)
    # never the advice to rerun with weights_only=False: that runs the file's code
    assert "weights_only" not in str(refused.value)


def test_bad_config_names_the_field(tiny_dirs, tmp_path):
    directory = tmp_path / "badconfig"
    shutil.copytree(tiny_dirs[None], directory)
    config = json.loads((directory / "config.json").read_text())
    config["num_attention_heads"] = 5
    (directory / "config.json").write_text(json.dumps(config))
    with pytest.raises(BertforgeError, match="hidden_size \\(32\\) must be divisible by "
                                             "num_attention_heads \\(5\\)"):
        load_model(directory)


# ----------------------------------------------------------------------- hub
def fake_hub_cache(cache, repo_id, files_from):
    """The layout huggingface_hub keeps on disk: refs/main names a snapshot."""
    commit = "0123456789abcdef0123456789abcdef01234567"
    repo = cache / ("models--" + repo_id.replace("/", "--"))
    snapshot = repo / "snapshots" / commit
    snapshot.mkdir(parents=True)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(commit)
    for path in files_from.iterdir():
        shutil.copy(path, snapshot / path.name)
    return snapshot


def test_hub_id_loads_from_the_local_cache_offline(tiny_dirs, tmp_path, monkeypatch):
    cache = tmp_path / "hub"
    fake_hub_cache(cache, "acme/tiny-bert", tiny_dirs["masked-lm"])
    monkeypatch.setenv("HF_HUB_CACHE", str(cache))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    import huggingface_hub.constants as constants
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(cache))
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    model = load_model("acme/tiny-bert")
    assert model.head == "masked-lm"
    expected, _ = outputs(load_model(tiny_dirs["masked-lm"]), tiny_dirs["masked-lm"])
    mine, _ = outputs(model, tiny_dirs["masked-lm"])
    assert torch.equal(mine, expected)
    assert load_tokenizer("acme/tiny-bert").vocab_size == 30522
    with pytest.raises(CheckpointError, match="could not be reached.*Pass a local model directory"):
        load_model("acme/not-cached-bert")


def test_unreachable_hub_falls_back_to_the_cache_at_once(tiny_dirs, tmp_path, monkeypatch):
    """Network on paper but no route to the Hub (this machine's case): only the cache is
    asked, with no request (and so no half minute of retries), and an uncached id fails
    with the advice."""
    import huggingface_hub
    import huggingface_hub.constants as constants

    cache = tmp_path / "hub"
    fake_hub_cache(cache, "acme/tiny-bert", tiny_dirs[None])
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(cache))
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setattr(constants, "ENDPOINT", "https://hub.example.invalid")
    calls = []
    real = huggingface_hub.hf_hub_download

    def spy(*args, **kwargs):
        calls.append(kwargs.get("local_files_only"))
        return real(*args, **kwargs)

    monkeypatch.setattr(huggingface_hub, "hf_hub_download", spy)
    assert load_model("acme/tiny-bert").head is None
    with pytest.raises(CheckpointError, match="hf download acme/other"):
        load_model("acme/other")
    assert calls and all(calls), "every lookup must stay in the local cache"


# -------------------------------------------------------------------- saving
def test_save_is_atomic_and_refuses_foreign_directories(tiny_dirs, tmp_path, monkeypatch):
    model, tok = load_model(tiny_dirs[None]), load_tokenizer(tiny_dirs[None])
    target = tmp_path / "model"
    save_model(model, tok, target)
    before = {p.name: p.read_bytes() for p in target.iterdir()}

    def explode(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr("bertforge.checkpoint.save_file", explode)
    with pytest.raises(OSError, match="disk full"):
        save_model(model, tok, target)
    assert {p.name: p.read_bytes() for p in target.iterdir()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model"]  # no debris
    monkeypatch.undo()

    foreign = tmp_path / "photos"
    foreign.mkdir()
    (foreign / "cat.jpg").write_bytes(b"\xff\xd8")
    with pytest.raises(CheckpointError, match="refusing to replace it"):
        save_model(model, tok, foreign)
    assert (foreign / "cat.jpg").exists()
