"""The `bertforge` command: the parser made from `commands/` (one module per verb), and
`main`, which runs a verb and turns a `BertforgeError` into one line on stderr.

Bad input (a `BertforgeError`) is printed as one line, without a traceback, and the
command exits 2; success exits 0; a failed check exits 1.
"""

from __future__ import annotations

import argparse
import logging
import sys
from typing import Sequence

from . import __version__
from .errors import BertforgeError


def build_parser() -> argparse.ArgumentParser:
    from .commands import MODULES

    parser = argparse.ArgumentParser(
        prog="bertforge", description="BERT from scratch that matches the reference.")
    parser.add_argument("--version", action="version", version=f"bertforge {__version__}")
    verbs = parser.add_subparsers(dest="verb", required=True, metavar="VERB")
    for module in MODULES:
        module.register(verbs)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:
        # argparse gives a "*" positional nothing when an option comes before it
        # (`probe MODEL --top-k 3 "text"`): hand those texts over instead of refusing them
        rest = next((n for n in ("text", "files") if isinstance(getattr(args, n, None), list)),
                    None)
        if rest and not any(e.startswith("-") for e in extra):
            getattr(args, rest).extend(extra)
        else:
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
    # the CLI, never the library, configures logging, and only for this call: a handler
    # left behind would write to a stream that is gone (a test's captured stderr)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("bertforge: %(message)s"))
    logger = logging.getLogger("bertforge")
    saved = logger.level, logger.propagate
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    try:
        return args.run(args)
    except BertforgeError as error:
        print(f"bertforge: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("bertforge: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `bertforge … | head`
        return 0
    finally:
        logger.removeHandler(handler)
        logger.setLevel(saved[0])
        logger.propagate = saved[1]


if __name__ == "__main__":
    sys.exit(main())
