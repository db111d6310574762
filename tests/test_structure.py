"""The shape of the code, held: functions a reader can take in at once, and layers that
only import downward (the network and its files know nothing of the tasks built on them,
the tasks nothing of the command line)."""

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "bertforge"
LONGEST = 60  # lines of one function, its docstring included

# package or module -> what it must never import (by bertforge's own module names)
LOWER = {"model.py": ("finetune", "pretrain", "analysis", "pii", "commands", "cli", "compress"),
         "config.py": ("finetune", "pretrain", "analysis", "pii", "commands", "cli"),
         "checkpoint.py": ("finetune", "pretrain", "analysis", "pii", "commands", "cli"),
         "compress": ("finetune", "pretrain", "analysis", "pii", "commands", "cli"),
         "finetune": ("pretrain", "analysis", "pii", "commands", "cli"),
         "pretrain": ("finetune", "analysis", "pii", "commands", "cli"),
         # analysis scores the masked LM with pre-training's own masking: that one is allowed
         "analysis": ("finetune", "pii", "commands", "cli"),
         "pii": ("pretrain", "analysis", "commands", "cli")}


def modules():
    for path in sorted(SRC.rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"))


def test_no_function_is_longer_than_a_screen():
    long = [f"{path.relative_to(SRC)}:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1})"
            for path, tree in modules() for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.end_lineno - node.lineno + 1 > LONGEST]
    assert not long, long


def _imported(path: Path, tree: ast.AST) -> set[str]:
    """bertforge's top-level modules and packages that a file imports (relative ones)."""
    depth = len(path.relative_to(SRC).parts) - 1
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            parts = path.relative_to(SRC).parts[:depth - node.level + 1]
            target = [*parts, *(node.module.split(".") if node.module else [])]
            if target:
                out.add(target[0])
            else:  # `from . import x` at the top level
                out.update(alias.name for alias in node.names)
    return out


def test_layers_only_import_downward():
    upward = []
    for path, tree in modules():
        rel = path.relative_to(SRC)
        layer = rel.parts[0]
        forbidden = LOWER.get(layer, ())
        for name in _imported(path, tree):
            if name.removesuffix(".py") in forbidden or name in forbidden:
                upward.append(f"{rel} imports {name}")
    assert not upward, upward
