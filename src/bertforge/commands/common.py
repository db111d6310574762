"""What several verbs share: plain-text tables, the redactor's options, CoNLL options."""

from __future__ import annotations

import argparse
from typing import Sequence

from ..model import HEADS
from ..pii.detector import PRECISIONS as REDACT_PRECISIONS

DEVICE_HELP = "auto (a CUDA GPU when PyTorch sees one, else the CPU), cpu, or cuda[:N]"
HEAD_CHOICES = ["auto", *(head or "none" for head in HEADS)]


def head(value: str) -> str | None:
    return None if value == "none" else value


def table(rows: Sequence[Sequence[object]], headers: Sequence[str], right: Sequence[int] = ()) -> str:
    """A plain-text table; columns whose index is in `right` are right-aligned."""
    cells = [[str(c) for c in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]

    def line(row):
        return "  ".join(c.rjust(w) if i in right else c.ljust(w)
                         for i, (c, w) in enumerate(zip(row, widths))).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(cells[0]), rule] + [line(r) for r in cells[1:]])


def plural(n: int, word: str) -> str:
    """ "1 document", "2 documents"."""
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def redactor_options(p, patterns: bool = True) -> None:
    """The options that say which redactor to run: `redact`, `pii evaluate`, `pii calibrate`."""
    p.add_argument("--model", metavar="DIR",
                   help="a model from `bertforge pii train` (default: the bundled model)")
    p.add_argument("--threshold", type=float,
                   help="P(personal data) a token needs (default: the model card's; 0.6 for "
                        "the bundled model)")
    if patterns:
        p.add_argument("--no-patterns", action="store_true", help="the model alone")
    else:
        p.set_defaults(no_patterns=False)
    p.add_argument("--precision", choices=REDACT_PRECISIONS, default="auto",
                   help="auto: the fastest of fp32, bf16 and int8 on this machine that finds "
                        "what fp32 finds on a calibration text, measured once and cached "
                        "(`bertforge doctor` shows it)")
    p.add_argument("--device", default="auto", help=DEVICE_HELP)


def load_redactor(args, policy=None):
    from ..pii import Redactor

    return Redactor.load(args.model, threshold=args.threshold, use_patterns=not args.no_patterns,
                         precision=args.precision, device=args.device, policy=policy)


def label_map(value: str):
    """--labels: a map as written, or `pii` for the redactor's own kind-to-group map."""
    if value == "pii":
        from ..pii.labels import GROUP_OF

        return dict(GROUP_OF)
    return value


def weight_list(value: str) -> list[float]:
    """--weights: numbers separated by commas."""
    try:
        return [float(x) for x in value.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r}: write one number per source, separated "
                                         f"by commas (for example 0.5,0.25,0.25)") from None


def conll_options(p, each: bool = False) -> None:
    """How spans are read from CoNLL files (or a public corpus split: wikigold:train);
    each: --labels may be given once per source."""
    p.add_argument("--labels", metavar="MAP", type=label_map,
                   action="append" if each else "store",
                   help="rename or drop entity types: PER=PERSON,MISC=ignore,*=O (ignore: "
                        "no loss and no score inside; O: plain text; * every other type); "
                        "`pii`: Gretel's 29 kinds (pii generate's output) to the 12 groups" +
                        ("; once for all sources or once for each, in order (a public "
                         "corpus without one uses the redactor's map for it)" if each else ""))
    p.add_argument("--conll-docs", action="store_true",
                   help="CoNLL input: one example per -DOCSTART- document (its sentences "
                        "joined by newlines) instead of one per sentence")


def overwrite_option(p) -> None:
    p.add_argument("--overwrite", action="store_true",
                   help="replace DIR if it already holds something (a model, notes, reports)")
