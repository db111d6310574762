"""Average the weights of fine-tuned models that share a starting point and a shape (a
"model soup"): docs/experiments/2026-12-04-seed-soup.md.

    python experiments/soup.py MODEL MODEL [MODEL ...] --out DIR

Every model must hold the same tensors (names, shapes) and the same labels. The mean is
taken in fp32 and written in the first model's dtype; the first model's other files
(config, tokenizer, card) are copied, and the card gains "averaged_from" and loses
"floors" (a model's floors are chosen on its own validation scores). The directory
appears whole or not at all.
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

import torch
from safetensors.torch import load_file, save_file

from bertforge.errors import BertforgeError
from bertforge.files import atomic_directory

WEIGHTS = "model.safetensors"
CARD = "bertforge.json"


def soup(models: list[Path]) -> dict[str, torch.Tensor]:
    states = [load_file(str(m / WEIGHTS)) for m in models]
    first = states[0]
    for model, state in zip(models[1:], states[1:]):
        if state.keys() != first.keys() or any(state[k].shape != first[k].shape for k in first):
            raise BertforgeError(f"{model} does not hold the tensors of {models[0]}: only "
                                 f"models of one shape can be averaged")
    labels = [json.loads((m / "config.json").read_text()).get("id2label") for m in models]
    if any(lab != labels[0] for lab in labels):
        raise BertforgeError("the models tag different labels: average only one task's models")
    return {k: (sum(s[k].float() for s in states) / len(states)).to(first[k].dtype)
            for k in first}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("models", nargs="+", type=Path, metavar="MODEL")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    if len(args.models) < 2:
        parser.error("average at least two models")
    weights = soup(args.models)
    with atomic_directory(args.out) as staging:
        for path in args.models[0].iterdir():
            if path.is_file() and path.name != WEIGHTS:
                shutil.copy(path, staging / path.name)
        save_file(weights, str(staging / WEIGHTS), metadata={"format": "pt"})
        card_path = staging / CARD
        card = json.loads(card_path.read_text()) if card_path.exists() else {}
        card.pop("floors", None)
        card["averaged_from"] = [str(m) for m in args.models]
        card_path.write_text(json.dumps(card, indent=2) + "\n")
    print(f"{args.out}: the mean of {len(args.models)} models' {len(weights)} tensors")


if __name__ == "__main__":
    main()
