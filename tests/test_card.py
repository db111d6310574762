"""bertforge.json: one reader and one writer, typed where the code acts on a key."""

import json

import pytest

from bertforge import CheckpointError
from bertforge.card import ModelCard


def test_a_card_round_trips_typed_fields_and_keeps_the_rest(tmp_path):
    data = {"head": "token-classification", "labels": ["O", "B-PERSON", "I-PERSON"],
            "window": 254, "stride": 192, "threshold": 0.8, "floors": {"CARD": 0.995},
            "recipe": {"lr": 5e-5, "steps": 700}, "sources": [{"path": "a.jsonl"}]}
    (tmp_path / "bertforge.json").write_text(json.dumps(data))
    card = ModelCard.read(tmp_path)
    assert (card.window, card.threshold, card.floors) == (254, 0.8, {"CARD": 0.995})
    assert card.extra == {"recipe": {"lr": 5e-5, "steps": 700}, "sources": [{"path": "a.jsonl"}]}
    assert card.to_dict() == data
    card.updated(floors={"ADDRESS": 0.99}, evaluation={"x": 1}).write(tmp_path)
    again = ModelCard.read(tmp_path)
    assert again.floors == {"ADDRESS": 0.99} and again.extra["evaluation"] == {"x": 1}
    assert again.threshold == 0.8 and again.extra["recipe"] == data["recipe"]


def test_no_card_is_an_empty_card_unless_one_is_required(tmp_path):
    card = ModelCard.read(tmp_path)
    assert card == ModelCard() and card.to_dict() == {}
    with pytest.raises(CheckpointError, match="bertforge.json is missing"):
        ModelCard.read(tmp_path, required=True)


@pytest.mark.parametrize("text, message", [
    ("{not json", "cannot be read"),
    ("[1, 2]", "must hold a JSON object"),
    ('{"threshold": "0.8"}', "'threshold' is '0.8', which is not a probability"),
    ('{"floors": {"CARD": 2}}', "'floors'"),
    ('{"window": 0}', "'window' is 0"),
])
def test_a_broken_card_is_an_error_naming_the_file_and_key(tmp_path, text, message):
    (tmp_path / "bertforge.json").write_text(text)
    with pytest.raises(CheckpointError, match=message) as error:
        ModelCard.read(tmp_path)
    assert str(tmp_path / "bertforge.json") in str(error.value)


def test_a_redactor_with_a_broken_card_fails_closed(tmp_path):
    """An unreadable card used to be read as no card: the redactor then ran at the
    default threshold without its floors. Now loading stops and says why."""
    import shutil

    from bertforge.pii import Redactor
    from bertforge.pii.detector import BUNDLED

    model = tmp_path / "model"
    shutil.copytree(BUNDLED, model)
    (model / "bertforge.json").write_text('{"head": "token-classification", "threshold": 8}')
    with pytest.raises(CheckpointError, match="threshold"):
        Redactor.load(model)
