"""BertConfig: read and write Hugging Face's config.json; refuse contradictions."""

import json

import pytest

from bertforge import BertConfig, ConfigError
from bertforge.config import ACTIVATIONS

transformers = pytest.importorskip("transformers")


def test_defaults_are_bert_base():
    config = BertConfig()
    assert (config.num_hidden_layers, config.hidden_size, config.num_attention_heads,
            config.intermediate_size, config.vocab_size) == (12, 768, 12, 3072, 30522)
    assert config.head_size == 64


def test_round_trip_through_transformers(tmp_path):
    theirs = transformers.BertConfig(hidden_size=96, num_attention_heads=6, num_hidden_layers=3,
                                     intermediate_size=200, hidden_act="gelu_new",
                                     id2label={0: "O", 1: "B-PER"}, layer_norm_eps=1e-7,
                                     pad_token_id=3, type_vocab_size=4)
    theirs.save_pretrained(tmp_path / "a")
    ours = BertConfig.from_json(tmp_path / "a" / "config.json")
    assert (ours.hidden_size, ours.num_attention_heads, ours.num_hidden_layers) == (96, 6, 3)
    assert ours.hidden_act == "gelu_new" and ours.layer_norm_eps == 1e-7
    assert ours.pad_token_id == 3 and ours.type_vocab_size == 4
    assert ours.labels == ["O", "B-PER"]
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "config.json").write_text(ours.to_json("BertForTokenClassification"))
    again = transformers.BertConfig.from_pretrained(tmp_path / "b")
    for name in ("hidden_size", "num_attention_heads", "num_hidden_layers", "intermediate_size",
                 "hidden_act", "layer_norm_eps", "pad_token_id", "type_vocab_size",
                 "max_position_embeddings", "vocab_size", "hidden_dropout_prob",
                 "attention_probs_dropout_prob"):
        assert getattr(again, name) == getattr(theirs, name), name
    assert again.id2label == {0: "O", 1: "B-PER"}
    assert again.architectures == ["BertForTokenClassification"]
    # fields we have no use for survive the trip
    assert json.loads(ours.to_json())["tie_word_embeddings"] is True


@pytest.mark.parametrize("changes, field", [
    ({"hidden_size": 100, "num_attention_heads": 12}, "hidden_size \\(100\\) must be divisible"),
    ({"hidden_act": "swiglu"}, "hidden_act 'swiglu' is not an activation"),
    ({"num_hidden_layers": 0}, "num_hidden_layers must be a positive"),
    ({"hidden_dropout_prob": 1.5}, "hidden_dropout_prob must be a probability"),
    ({"pad_token_id": 40000}, "pad_token_id \\(40000\\)"),
    ({"vocab_size": "many"}, "vocab_size must be a positive"),
])
def test_inconsistent_values_are_refused_by_name(changes, field):
    with pytest.raises(ConfigError, match=field):
        BertConfig(**changes)
    with pytest.raises(ConfigError, match=field):
        BertConfig.from_dict(BertConfig().to_dict() | changes)


def test_other_models_and_position_types_are_refused():
    with pytest.raises(ConfigError, match="model_type is 'roberta'"):
        BertConfig.from_dict({"model_type": "roberta"})
    with pytest.raises(ConfigError, match="relative_key"):
        BertConfig.from_dict({"position_embedding_type": "relative_key"})


def test_bad_json(tmp_path):
    (tmp_path / "config.json").write_text("{not json")
    with pytest.raises(ConfigError, match="not valid JSON"):
        BertConfig.from_json(tmp_path / "config.json")
    with pytest.raises(ConfigError, match="no config file"):
        BertConfig.from_json(tmp_path / "missing.json")


def test_activations_match_transformers():
    import torch
    from transformers.activations import ACT2FN

    x = torch.linspace(-6, 6, 1001)
    for name, fn in ACTIVATIONS.items():
        assert torch.allclose(fn(x), ACT2FN[name](x), atol=1e-6), name


def test_presets():
    assert BertConfig.preset("tiny").hidden_size == 128
    assert BertConfig.preset("large").num_attention_heads == 16
    with pytest.raises(ConfigError, match="no model size called 'huge'"):
        BertConfig.preset("huge")
