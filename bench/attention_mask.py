"""Which mask `scaled_dot_product_attention` is fastest with on this CPU, at the
redactor's shapes (12 heads of 32, windows of up to 254 tokens): a boolean mask (what
bertforge passes), an additive float mask (what `transformers`' BERT passes to SDPA),
and no mask at all (what bertforge passes for a batch without padding). Side by side in
one process, fp32 and bf16, best of --rounds passes taken in turn.

    python bench/attention_mask.py [--batch 16] [--length 254] [--rounds 5]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parent))
from redact_speed import precision_note  # noqa: E402


def timed(function, rounds: int) -> float:
    function()
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        for _ in range(10):
            function()
        best = min(best, (time.perf_counter() - started) / 10)
    return best


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--length", type=int, default=254)
    parser.add_argument("--heads", type=int, default=12)
    parser.add_argument("--head-size", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    torch.manual_seed(0)
    b, h, n, d = args.batch, args.heads, args.length, args.head_size
    # real lengths of a sorted batch: the longest full, the rest up to a quarter shorter
    lengths = torch.linspace(n, int(n * 0.75), b).long()
    keep = torch.arange(n)[None, :] < lengths[:, None]                    # (b, n)
    print(f"batch {b} x {n} tokens, {h} heads of {d}; {1 - keep.float().mean():.1%} "
          f"padding; {precision_note()}, {torch.get_num_threads()} threads, torch "
          f"{torch.__version__}")
    print(f"\n{'dtype':6s} {'boolean (ours)':>15s} {'additive (transformers)':>24s} "
          f"{'no mask, unpadded':>18s} {'bool/additive':>14s}")
    for dtype in (torch.float32, torch.bfloat16):
        q, k, v = (torch.randn(b, h, n, d, dtype=dtype) for _ in range(3))
        boolean = keep[:, None, None, :]
        additive = torch.zeros(b, 1, 1, n, dtype=dtype).masked_fill(~boolean, torch.finfo(dtype).min)
        with torch.no_grad():
            a = F.scaled_dot_product_attention(q, k, v, attn_mask=boolean)
            c = F.scaled_dot_product_attention(q, k, v, attn_mask=additive)
            assert torch.allclose(a.float(), c.float(), atol=1e-2), "the two masks disagree"
            times = [timed(lambda m=m: F.scaled_dot_product_attention(q, k, v, attn_mask=m),
                           args.rounds) for m in (boolean, additive, None)]
        print(f"{str(dtype).split('.')[1]:6s} {times[0] * 1e3:12.2f} ms {times[1] * 1e3:21.2f} ms "
              f"{times[2] * 1e3:15.2f} ms {times[1] / times[0]:13.2f}x")


if __name__ == "__main__":
    main()
