"""BERT's masking recipe: which tokens to hide, and what to put in their place.

Pick 15% of the real tokens of a batch (never [CLS], [SEP] or padding). Of those, 80%
become [MASK], 10% a random ordinary token, and 10% stay as they are; the model must
predict the original at every picked position and nowhere else (label -100). Why not
always [MASK]? Because [MASK] never appears when the model is used: a model that only
ever had to predict at [MASK] would learn nothing useful about the other tokens' vectors.

Three ways to pick, a user's choice:

- "token": a coin per token (what today's libraries do);
- "exact": exactly round(0.15·n) tokens per sequence, at most `max_predictions`
  (what Google's data generator did);
- "whole-word": a coin per word, and a word's pieces are picked together (Google's
  later whole-word models); the 80/10/10 is still decided per token, as there.

Everything is one batch at a time, vectorised, and drawn from the `torch.Generator`
passed in, so the same seed gives the same masks. Building the batch is `data.py`'s job.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from ..errors import BertforgeError

VARIANTS = ("token", "exact", "whole-word")
IGNORE = -100  # the label of a position that is not predicted (cross_entropy's default)


@dataclass(frozen=True)
class MaskingVocab:
    """What masking needs to know about a vocabulary."""

    mask_id: int
    special_ids: tuple[int, ...]     # never picked, never used as a random replacement
    ordinary_ids: torch.Tensor       # the ids a random replacement is drawn from
    continuation: torch.Tensor       # bool per id: a "##" piece that continues a word

    @classmethod
    def from_tokenizer(cls, tokenizer) -> "MaskingVocab":
        vocab = tokenizer.vocab()
        size = max(vocab.values()) + 1
        continuation = torch.zeros(size, dtype=torch.bool)
        special = torch.zeros(size, dtype=torch.bool)
        for token, i in vocab.items():
            continuation[i] = token.startswith("##")
            special[i] = i in tokenizer.special_ids or (token.startswith("[") and token.endswith("]"))
        return cls(tokenizer.mask_id, tuple(sorted(tokenizer.special_ids)),
                   torch.nonzero(~special).flatten(), continuation)


def mask_tokens(
    input_ids: torch.Tensor,
    vocab: MaskingVocab,
    generator: torch.Generator,
    attention_mask: torch.Tensor | None = None,
    rate: float = 0.15,
    variant: str = "token",
    split: tuple[float, float, float] = (0.8, 0.1, 0.1),
    max_predictions: int | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Mask a batch: returns (masked input_ids, labels). `split` is the share of picked
    tokens that become [MASK], a random token, or stay."""
    if variant not in VARIANTS:
        raise BertforgeError(f"unknown masking variant {variant!r}; choose one of "
                             f"{', '.join(VARIANTS)}")
    if not 0.0 <= rate <= 1.0:
        raise BertforgeError(f"masking rate must be in [0, 1], got {rate}")
    if abs(sum(split) - 1.0) > 1e-6 or min(split) < 0:
        raise BertforgeError(f"the mask/random/keep split must be three shares adding up "
                             f"to 1, got {split}")
    eligible = _eligible(input_ids, vocab, attention_mask)
    if variant == "token":
        picked = eligible & (_uniform(input_ids.shape, generator) < rate)
    elif variant == "exact":
        picked = _pick_exact(eligible, rate, max_predictions, generator)
    else:
        picked = _pick_whole_words(input_ids, eligible, vocab, rate, generator)

    labels = torch.where(picked, input_ids, torch.full_like(input_ids, IGNORE))
    masked = input_ids.clone()
    roll = _uniform(input_ids.shape, generator)
    to_mask = picked & (roll < split[0])
    to_random = picked & (roll >= split[0]) & (roll < split[0] + split[1])
    masked[to_mask] = vocab.mask_id
    choice = torch.randint(len(vocab.ordinary_ids), (int(to_random.sum()),), generator=generator)
    masked[to_random] = vocab.ordinary_ids[choice].to(masked.dtype)
    return masked, labels


def _uniform(shape, generator: torch.Generator) -> torch.Tensor:
    return torch.rand(shape, generator=generator)


def _eligible(input_ids, vocab: MaskingVocab, attention_mask) -> torch.Tensor:
    eligible = ~torch.isin(input_ids, torch.tensor(vocab.special_ids, dtype=input_ids.dtype))
    if attention_mask is not None:
        eligible &= attention_mask.bool()
    return eligible


def _pick_exact(eligible: torch.Tensor, rate: float, cap: int | None,
                generator: torch.Generator) -> torch.Tensor:
    """round(rate·n) eligible tokens per row (at least one where any is eligible), at
    most `cap`: rank the eligible positions by a random key and keep the first k."""
    n = eligible.sum(dim=1)
    k = torch.round(n.double() * rate).long()
    k = torch.where((n > 0) & (rate > 0), k.clamp(min=1), k)
    if cap is not None:
        k = k.clamp(max=cap)
    keys = _uniform(eligible.shape, generator).masked_fill(~eligible, 2.0)
    rank = keys.argsort(dim=1).argsort(dim=1)
    return eligible & (rank < k[:, None])


def _pick_whole_words(input_ids, eligible, vocab: MaskingVocab, rate: float,
                      generator: torch.Generator) -> torch.Tensor:
    """A coin per word: a word starts at every eligible token that is not a ## piece."""
    starts = eligible & ~vocab.continuation[input_ids.clamp(0, len(vocab.continuation) - 1)]
    word = torch.cumsum(starts.long(), dim=1)  # word number of each token, 1-based
    coins = _uniform((input_ids.shape[0], input_ids.shape[1] + 1), generator) < rate
    return eligible & coins.gather(1, word)
