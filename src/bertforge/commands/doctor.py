"""bertforge doctor: what this machine offers the redactor, and which precision "auto"
chose here and why (`pii.precision`)."""

from __future__ import annotations


def register(verbs) -> None:
    p = verbs.add_parser(
        "doctor", help="which precision the redactor runs in here, and why",
        description="Print this machine's CPU, kernels and threads, each precision's speed on "
                    "the calibration text and whether it finds what fp32 finds, and the one "
                    "`--precision auto` uses (measured on first use, then cached).")
    p.add_argument("--model", metavar="DIR",
                   help="a model from `bertforge pii train` (default: the bundled model)")
    p.add_argument("--remeasure", action="store_true",
                   help="measure again and replace the cached choice")
    p.set_defaults(run=doctor)


def doctor(args) -> int:
    from ..pii import Redactor
    from ..pii.precision import cache_path, choose, machine

    redactor = Redactor.load(args.model, precision="fp32", use_patterns=False)
    facts = machine()
    print(f"CPU          {facts['cpu']}")
    print(f"kernels      {facts['capability']}, native bf16: {'yes' if facts['bf16'] else 'no'}"
          + (f", limited by {facts['limits']}" if facts["limits"] else ""))
    print(f"threads      {facts['threads']}; torch {facts['torch']}, bertforge {facts['bertforge']}")
    print(f"cache        {cache_path()}\n")
    choice = choose(redactor, remeasure=args.remeasure)
    print("\n".join(choice.describe()))
    return 0
