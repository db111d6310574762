"""The one place figures are made and saved: every PNG bertforge writes comes through here.

Figures are drawn off-screen (matplotlib's Agg backend, no display needed), in one
plain style, and written atomically: a temporary file renamed into place, so a reader
never finds half a PNG.
"""

from __future__ import annotations

import os
from pathlib import Path

from .errors import BertforgeError
from .optional import require
from .files import atomic_file

BLUE, ORANGE, GREY = "#4c72b0", "#dd8452", "#555555"


def figure(width: float = 7.0, height: float = 4.0, nrows: int = 1, ncols: int = 1,
           layout: str | None = None):
    """(figure, axes) on the off-screen backend; axes is an array when there are several.
    layout="constrained" suits figures with a shared colour bar."""
    require("matplotlib", "plots").use("Agg")
    plt = require("matplotlib.pyplot", "plots")

    return plt.subplots(nrows, ncols, figsize=(width, height), layout=layout)


def save(fig, path: str | os.PathLike) -> Path:
    """Tidy the axes, write the figure atomically, close it; returns the path."""
    plt = require("matplotlib.pyplot", "plots")
    path = Path(path)
    if path.suffix.lower() not in (".png", ".svg", ".pdf"):
        plt.close(fig)
        raise BertforgeError(f"{path}: give a file name ending in .png, .svg or .pdf")
    path.parent.mkdir(parents=True, exist_ok=True)
    for ax in fig.axes:
        for side in ("top", "right"):
            ax.spines[side].set_visible(False)
    if fig.get_layout_engine() is None:
        fig.tight_layout()
    try:
        with atomic_file(path, text=False) as f:
            fig.savefig(f, dpi=120, format=path.suffix.lstrip(".") or "png")
    finally:
        plt.close(fig)
    return path
