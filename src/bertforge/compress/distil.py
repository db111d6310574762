"""Distillation: a small model taught by a large one's softened outputs."""

from __future__ import annotations

import torch
import torch.nn.functional as F


def distillation_loss(logits: torch.Tensor, teacher_logits: torch.Tensor,
                      mask: torch.Tensor | None, temperature: float) -> torch.Tensor:
    """KL(teacher || student) of the two softened distributions, times T² (so its
    gradients keep their size as T changes), averaged over the rows `mask` keeps (every
    real token of a tagger; every example of a classifier, `mask` None)."""
    student = F.log_softmax(logits.float() / temperature, dim=-1)
    target = F.log_softmax(teacher_logits.float() / temperature, dim=-1)
    kl = F.kl_div(student, target, log_target=True, reduction="none").sum(-1)
    return (kl[mask] if mask is not None else kl).mean() * temperature ** 2
