"""bertforge toy: the bracket-language lab."""

from __future__ import annotations

import time

from ..options import default_of
from ..errors import BertforgeError
from ..toy import MIN_STEPS, run_lab


def register(verbs) -> None:
    steps = default_of(run_lab, "steps")
    p = verbs.add_parser(
        "toy", help="the bracket-language lab: BERT's argument in a minute on a CPU",
        description="Six demonstrations on a toy language in which half the tokens can "
                    "only be predicted from the right: the masking recipe, attention with "
                    "and without the causal mask, a tiny BERT pre-trained, the same with "
                    "a causal mask, three broken recipes, and fine-tuning on [CLS]. Built "
                    "from the project's own model, masking and attention mask.")
    p.add_argument("--seed", type=int, default=default_of(run_lab, "seed"),
                   help="the same seed prints the same numbers")
    p.add_argument("--plot", metavar="DIR", help="write one PNG per demonstration here")
    p.add_argument("--steps", type=int, default=steps,
                   help=f"training steps per model (default {steps})")
    p.set_defaults(run=toy)


def toy(args) -> int:
    from ..toy import plot_lab

    if args.steps < MIN_STEPS:
        raise BertforgeError(f"--steps {args.steps} is too few to learn anything; give "
                             f"{MIN_STEPS} or more (default {default_of(run_lab, 'steps')})")
    started = time.perf_counter()
    results = run_lab(args.seed, steps=args.steps)
    if args.plot:
        print()
        for path in plot_lab(results, args.plot):
            print(f"wrote {path}")
    print(f"\nthe lab took {time.perf_counter() - started:.0f} s (seed {args.seed})")
    return 0
