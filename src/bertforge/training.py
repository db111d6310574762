"""What every training run here shares: the optimiser, the schedule, the precision.

BERT's recipe: AdamW with weight decay on the weight matrices but not on LayerNorms and
biases, a learning rate that rises linearly over a warm-up and then falls linearly to
zero. Pre-training (`pretrain/loop.py`) and fine-tuning (`finetune/fit.py`) both take
them from here.
"""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path

import torch

from .errors import BertforgeError

PRECISIONS = ("auto", "fp32", "bf16", "fp16")


def adamw(model: torch.nn.Module, lr: float, weight_decay: float = 0.01,
          eps: float = 1e-6, rates: dict[str, float] | None = None) -> torch.optim.AdamW:
    """AdamW over the trainable parameters; no decay on LayerNorms and biases.
    rates: a learning rate of their own for the parameters so named (a table that
    starts untrained inside a trained network learns faster than the rest of it).
    The fused kernel where the device has one, else the multi-tensor one."""
    rates = rates or {}
    groups: dict[tuple[float, float], list] = {}
    for name, p in model.named_parameters():
        if p.requires_grad:
            decay = 0.0 if name.endswith("bias") or "norm" in name else weight_decay
            groups.setdefault((rates.get(name, lr), decay), []).append(p)
    groups = [{"params": held, "lr": rate, "weight_decay": decay}
              for (rate, decay), held in groups.items()]
    try:
        return torch.optim.AdamW(groups, lr=lr, betas=(0.9, 0.999), eps=eps, fused=True)
    except (RuntimeError, TypeError, ValueError):  # no fused kernel for this device
        return torch.optim.AdamW(groups, lr=lr, betas=(0.9, 0.999), eps=eps, foreach=True)


def linear_schedule(optimizer, steps: int, warmup: float):
    """Warm-up over `warmup` steps (a share of `steps` when below 1), then linear decay
    to zero at `steps`."""
    warm = max(1, int(warmup * steps if warmup < 1 else warmup))

    def factor(step: int) -> float:
        if step < warm:
            return (step + 1) / warm
        return max(0.0, (steps - step) / max(1, steps - warm))

    return torch.optim.lr_scheduler.LambdaLR(optimizer, factor)


def resolve_device(device: str | torch.device | None = "auto") -> torch.device:
    """auto (or None): the first CUDA GPU when PyTorch sees one, else the CPU."""
    if device is None or device == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    try:
        resolved = torch.device(device)
    except (RuntimeError, TypeError) as error:
        raise BertforgeError(f"unknown device {device!r}; give auto, cpu or cuda") from error
    if resolved.type not in ("cpu", "cuda"):
        raise BertforgeError(f"device {device!r} is not supported; give auto, cpu or cuda")
    if resolved.type == "cuda" and not torch.cuda.is_available():
        raise BertforgeError(f"device {device!r}: PyTorch sees no CUDA GPU here; use cpu "
                             f"or auto")
    return resolved


def cpu_has_bf16() -> bool:
    """Whether this CPU computes bf16 natively (AVX-512 BF16 or AMX on x86, BF16 on Arm)
    and the kernels may use it. oneDNN's own check also says yes on AVX-512 CPUs
    without those instructions, where it emulates bf16: 2.5x slower than fp32 there."""
    try:
        supported = bool(torch.ops.mkldnn._is_mkldnn_bf16_supported())  # False under ISA limits
    except (AttributeError, RuntimeError):
        return False
    flags = _cpu_flags()
    return supported and (flags is None or bool(flags & {"avx512_bf16", "amx_bf16", "bf16"}))


def _cpu_flags() -> set[str] | None:
    """The CPU's feature flags from /proc/cpuinfo, or None where it cannot be read."""
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return None
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip() in ("flags", "Features"):
            return set(value.split())
    return None


def autocast_for(precision: str, device: torch.device):
    """(a context factory for forward passes, a GradScaler or None, the precision chosen).
    auto: bf16 on a GPU that has it, else fp16 with a scaler; bf16 on a CPU with native
    bf16 (AVX-512 BF16, AMX: ~1.35x faster here for the same loss), else fp32."""
    if precision not in PRECISIONS:
        raise BertforgeError(f"precision must be one of {', '.join(PRECISIONS)}, not {precision!r}")
    if precision == "auto":
        if device.type == "cuda":
            precision = "bf16" if torch.cuda.is_bf16_supported() else "fp16"
        else:
            precision = "bf16" if cpu_has_bf16() else "fp32"
    if precision == "fp32":
        return nullcontext, None, precision
    if precision == "fp16" and device.type != "cuda":
        raise BertforgeError("fp16 training needs a GPU; on a CPU use bf16 or fp32")
    dtype = torch.bfloat16 if precision == "bf16" else torch.float16
    scaler = torch.amp.GradScaler("cuda") if precision == "fp16" else None
    return (lambda: torch.autocast(device.type, dtype=dtype)), scaler, precision


def clip_gradients(parameters, clip: float) -> torch.Tensor:
    """`clip_grad_norm_`'s result (gradients scaled by min(1, clip / (norm + 1e-6))), but
    the gradients are only touched when that factor is below 1: a multiply by 1 is a
    pass over every gradient for nothing, and most fine-tuning steps are not clipped.
    Returns the norm before clipping. On a GPU it always multiplies: asking whether to
    would wait for the GPU every step."""
    parameters = [p for p in parameters if p.grad is not None]
    norm = torch.nn.utils.get_total_norm([p.grad for p in parameters], foreach=True)
    # inf clips too (as clip_grad_norm_ does); the comparison is False for NaN, whose
    # update the scaler skips (fp16) or which spoils the weights either way
    if norm.device.type != "cpu" or float(norm) + 1e-6 > clip:
        torch.nn.utils.clip_grads_with_norm_(parameters, clip, norm, foreach=True)
    return norm


def step(parameters, optimizer, scheduler, scaler, clip: float) -> torch.Tensor:
    """Clip the gradients (unscaled first under fp16), take the optimiser and schedule
    one step, clear the gradients; returns the norm before clipping."""
    if scaler is not None:
        scaler.unscale_(optimizer)
    norm = clip_gradients(parameters, clip)
    if scaler is not None:
        scaler.step(optimizer)
        scaler.update()
    else:
        optimizer.step()
    scheduler.step()
    optimizer.zero_grad(set_to_none=True)
    return norm
