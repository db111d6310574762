"""Command-line options made from the library's settings, so that each setting has one
default and one help text: the dataclass field, or the parameter of the function that
does the work (the way `transformers`' HfArgumentParser makes options from dataclasses).

A field's `metadata` may hold: "help"; "choices"; "metavar"; "positional" (a list field
that is the verb's positional arguments); "negate" (a bool field that is True by default
and switched off by the named flag, e.g. progress -> --quiet).
"""

from __future__ import annotations

import argparse
import dataclasses
import inspect
from typing import Any, Callable

_KINDS = {"int": int, "float": float, "str": str}


def setting(default=dataclasses.MISSING, help: str = "", **more) -> dataclasses.Field:
    """A settings field: its default, and the help (and choices, metavar, ...) of the
    command-line option made from it."""
    return dataclasses.field(default=default, metadata={"help": help, **more})


def _kind(annotation: str) -> type:
    """The value type of a field's annotation as written ("int | None" -> int)."""
    first = str(annotation).replace(" ", "").split("|")[0]
    return bool if first == "bool" else _KINDS.get(first, str)


def add_options(parser: argparse.ArgumentParser, settings_class, base: Any = None) -> None:
    """One option per field of `settings_class`, with the field's default (or, when
    `base` is an instance, that instance's value: a recipe's own defaults), kind,
    choices and help."""
    for f in dataclasses.fields(settings_class):
        meta = f.metadata
        default = getattr(base, f.name) if base is not None else f.default
        kind = _kind(f.type)
        text = meta.get("help", "").replace("%", "%%")  # argparse formats help with %
        flag = "--" + f.name.replace("_", "-")
        if meta.get("positional"):
            parser.add_argument(f.name, nargs="+", metavar=meta.get("metavar", f.name.upper()),
                                help=text or None)
        elif kind is bool and meta.get("negate"):
            parser.add_argument(f"--{meta['negate']}", dest=f.name, action="store_false",
                                default=default, help=text or None)
        elif kind is bool:
            parser.add_argument(flag, action="store_true", default=default, help=text or None)
        elif default is dataclasses.MISSING:
            parser.add_argument(flag, type=kind, required=True, metavar=meta.get("metavar"),
                                choices=meta.get("choices"), help=text or None)
        else:
            shown = "" if default is None or "default" in text else f" (default: {default})"
            parser.add_argument(flag, type=kind, default=default, metavar=meta.get("metavar"),
                                choices=meta.get("choices"),
                                help=(text + shown).strip() or None)


def settings_from(settings_class, args: argparse.Namespace, **overrides):
    """The settings the parsed options describe."""
    names = {f.name for f in dataclasses.fields(settings_class)}
    values = {k: v for k, v in vars(args).items() if k in names}
    return settings_class(**(values | overrides))


def default_of(function: Callable, parameter: str):
    """The default of one parameter of a library function: the option that feeds it
    then has no default of its own."""
    value = inspect.signature(function).parameters[parameter].default
    if value is inspect.Parameter.empty:
        raise TypeError(f"{function.__qualname__}({parameter}) has no default")
    return value
