"""Weight averaging: several fine-tuned copies of one model made into one.

Models fine-tuned from the same pre-trained weights with different seeds (different
data order, different fresh heads) usually end up in one basin of the loss, where the
element-wise mean of their weights is itself a good model, and often a better and
steadier one than a typical member ("model soups", Wortsman et al., 2022). The mean costs
nothing at prediction time: it is one model of the same size.

Only models of one architecture, head and label set can be averaged; anything else is an
error, not a silently broken model.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Sequence

import torch

from ..checkpoint import load_model
from ..errors import BertforgeError
from ..model import Bert

# card entries that describe one trained model's own scores or timing, not the mean's
_OWN = ("score", "training_minutes", "threshold_choice")


def average_models(sources: Sequence[str | os.PathLike]) -> tuple[Bert, dict]:
    """(the element-wise mean of the models at `sources`, a card for it): the first
    model's card without its own scores, with `averaged_from` naming every source and
    its recipe's seed. Weights are averaged in fp32."""
    if len(sources) < 2:
        raise BertforgeError(f"averaging needs two or more models, got {len(sources)}")
    models = [load_model(source, head="auto") for source in sources]
    first = models[0]
    reference = first.config.to_dict()
    for source, model in zip(sources[1:], models[1:]):
        if model.head != first.head or model.config.to_dict() != reference:
            raise BertforgeError(f"{source} is not the same architecture, head and labels as "
                                 f"{sources[0]}: only copies of one model can be averaged")
    states = [model.state_dict() for model in models]
    mean = {}
    for name, tensor in states[0].items():
        if not tensor.is_floating_point():
            mean[name] = tensor
            continue
        mean[name] = torch.stack([state[name].float() for state in states]).mean(0)
    first.load_state_dict(mean)
    cards = [_card(Path(model.source)) for model in models]
    card = {k: v for k, v in cards[0].items()
            if not any(word in k for word in _OWN) and k not in ("bertforge_version", "head", "labels")}
    card["averaged_from"] = [{"model": str(source), "seed": c.get("recipe", {}).get("seed")}
                             for source, c in zip(sources, cards)]
    return first, card


def _card(directory: Path) -> dict:
    path = directory / "bertforge.json"
    if not path.is_file():
        return {}
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return {}
