"""bertforge pretrain: a BERT from scratch, with the options of `pretrain.loop.Recipe`."""

from __future__ import annotations

from pathlib import Path

from ..errors import BertforgeError
from ..options import add_options, settings_from
from ..pretrain.loop import Recipe


def register(verbs) -> None:
    p = verbs.add_parser(
        "pretrain", help="pre-train a BERT with masked LM (and next-sentence prediction)",
        description="Pre-train a BERT from scratch on text files (a blank line ends a "
                    "document), JSONL files with a 'text' field, or a `datasets` source. "
                    "Run on several processes with `torchrun --nproc_per_node N -m "
                    "bertforge pretrain ...`. The model lands in OUT/model.")
    add_options(p, Recipe)
    p.add_argument("--resume", action="store_true", help="continue from the last checkpoint")
    p.set_defaults(run=pretrain)


def pretrain(args) -> int:
    from ..pretrain.loop import pretrain as run

    recipe = settings_from(Recipe, args)
    if not args.resume and (Path(recipe.out) / "checkpoints").is_dir():
        raise BertforgeError(f"{recipe.out} already holds a run's checkpoints: pass --resume to "
                             f"continue it, or choose another --out")
    run(recipe)
    return 0
