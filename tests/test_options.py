"""The command line holds no defaults of its own: its options are made from the
library's settings dataclasses (and the signatures of the functions it calls)."""

import argparse
import dataclasses
import re
from pathlib import Path

import pytest

from bertforge.cli import build_parser
from bertforge.finetune.curve import CURVE_FIT
from bertforge.finetune.features import FEATURE_FIT
from bertforge.finetune.fit import FitSettings
from bertforge.options import settings_from
from bertforge.pii.service.settings import ServiceSettings
from bertforge.pii.tables import RaySettings, TableSettings
from bertforge.pii.train import RECIPE
from bertforge.pretrain.loop import Recipe

COMMANDS = Path(__file__).resolve().parents[1] / "src" / "bertforge" / "commands"


def subparser(*path):
    parser = build_parser()
    for name in path:
        action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        parser = action.choices[name]
    return parser


def defaults(parser):
    return {a.dest: a.default for a in parser._actions}


@pytest.mark.parametrize("path, settings_class, base", [
    (("pretrain",), Recipe, None),
    (("finetune", "tag"), FitSettings, FitSettings()),
    (("finetune", "classify"), FitSettings, FitSettings()),
    (("finetune", "features"), FitSettings, FEATURE_FIT),
    (("finetune", "curve"), FitSettings, CURVE_FIT),
    (("pii", "train"), FitSettings, RECIPE),
    (("serve",), ServiceSettings, None),
    (("redact",), TableSettings, None),
    (("redact",), RaySettings, None),
], ids=lambda v: " ".join(v) if isinstance(v, tuple) else None)
def test_each_option_defaults_to_its_settings_field(path, settings_class, base):
    shown = defaults(subparser(*path))
    for f in dataclasses.fields(settings_class):
        expected = getattr(base, f.name) if base is not None else f.default
        if expected is dataclasses.MISSING:  # a required option or a positional
            assert shown.get(f.name) is None, f.name
            continue
        assert f.name in shown, f"{' '.join(path)} has no option for {f.name}"
        assert shown[f.name] == expected, (f.name, shown[f.name], expected)


def test_the_command_modules_write_no_number_as_a_default():
    """Defaults come from the library; a number written in a command module would be a
    second place for one."""
    found = [f"{path.name}: {m.group(0)}" for path in COMMANDS.glob("*.py")
             for m in re.finditer(r"default=-?[\d.]+", path.read_text(encoding="utf-8"))]
    assert not found, found


def test_parsed_options_become_the_settings():
    args = build_parser().parse_args(["pretrain", "a.txt", "b.txt", "--out", "run",
                                      "--steps", "7", "--quiet", "--micro-batch", "4"])
    recipe = settings_from(Recipe, args)
    assert recipe == Recipe(corpus=["a.txt", "b.txt"], out="run", steps=7, progress=False,
                            micro_batch=4)
    args = build_parser().parse_args(["pii", "train", "d.jsonl", "--out", "m", "--lr", "1e-4"])
    assert settings_from(FitSettings, args) == dataclasses.replace(RECIPE, lr=1e-4)


def test_every_verb_is_one_module_that_registers_itself():
    from bertforge.commands import MODULES

    verbs = next(a for a in build_parser()._actions
                 if isinstance(a, argparse._SubParsersAction)).choices
    assert set(verbs) == {"inspect", "check", "export", "tokenize", "vocab", "pretrain",
                          "finetune", "probe", "bias", "attention", "report", "redact",
                          "restore", "pii", "serve", "doctor", "toy"}
    assert all(hasattr(module, "register") for module in MODULES)
