"""The BERT network, in the order data flows through it.

    ids ─► Embeddings (word + position + segment, LayerNorm, dropout)
        ─► N × Layer (self-attention → add & norm → feed-forward → add & norm)
        ─► [Pooler: tanh(dense([CLS]))]
        ─► a head: masked LM │ masked LM + next sentence │ tag per token │ class per input

One class, `Bert`, is the encoder with at most one head on top; the head is chosen by
name (`HEADS`). Tasks never reach inside: they call `forward` and read `BertOutput`.
This module owns the arithmetic and nothing else: names on disk and loading live in
`checkpoint.py`, faster kernels, int8 and pruning in `compress/`.
Parameter names here are our own and short; `checkpoint.NAME_MAP` ties each to the
Hugging Face (and Google) name.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

from .config import ACTIVATIONS, BertConfig
from .errors import BertforgeError

# Dropout's keep mask on a CPU: PyTorch's own draws a random float per element from a
# generator that runs on one thread, a large share of a fine-tuning step. Fifteen random
# bits an element are as fair a coin for p (in steps of 1/32768: 0.1 is 0.100006), and
# one 32-bit draw holds two of them: half the draws, and no floats.
LANE_BITS = 15


def keep_mask(shape: torch.Size, p: float) -> torch.Tensor:
    """A CPU boolean tensor, True with probability 1 - p (p rounded to 1/32768)."""
    count = shape.numel()
    draws = torch.empty((count + 1) // 2, dtype=torch.int32).random_()  # 31 random bits
    lanes = draws.view(torch.int16)[:count] & ((1 << LANE_BITS) - 1)
    return (lanes >= round(p * (1 << LANE_BITS))).view(shape)


def dropout(x: torch.Tensor, p: float, training: bool) -> torch.Tensor:
    """F.dropout (zero each element with probability p, scale the rest by 1 / (1 - p)),
    with the mask from `keep_mask` on a CPU; elsewhere PyTorch's own, fused kernel."""
    if not training or p == 0.0:
        return x
    if x.device.type != "cpu" or not 0.0 < p < 1.0:
        return F.dropout(x, p, training)
    # the mask in x's dtype, then the scale: vectorised products (a `where` or a boolean
    # factor is half as fast); scaling the product, not the mask, rounds once as F.dropout
    # does (1 / 0.9 in bf16 is 1.109375, which would shrink every kept value)
    return (x * keep_mask(x.shape, p).to(x.dtype)).mul_(1.0 / (1.0 - p))


class Dropout(nn.Dropout):
    """nn.Dropout through `dropout`."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return dropout(x, self.p, self.training)

@dataclass(frozen=True)
class Head:
    """One head the encoder can carry: what `transformers` calls a model with it,
    whether it reads the pooled [CLS] vector (and so needs the pooler), and whether it
    is a classifier over `config.labels` (created fresh for fine-tuning when a
    checkpoint lacks it)."""

    architecture: str
    pooled: bool = False
    classifier: bool = False


# The one table of heads, by name (None: the encoder alone, with its pooler)
HEAD_TABLE: dict[str | None, Head] = {
    None: Head("BertModel"),
    "masked-lm": Head("BertForMaskedLM"),
    "pretraining": Head("BertForPreTraining", pooled=True),
    "token-classification": Head("BertForTokenClassification", classifier=True),
    "sequence-classification": Head("BertForSequenceClassification", pooled=True,
                                    classifier=True),
}
HEADS = tuple(HEAD_TABLE)
POOLED_HEADS = tuple(h for h, t in HEAD_TABLE.items() if t.pooled)
CLASSIFIER_HEADS = tuple(h for h, t in HEAD_TABLE.items() if t.classifier)


@dataclass
class BertOutput:
    """What `Bert.forward` returns; fields a head does not produce stay None."""

    last_hidden_state: torch.Tensor                   # (batch, length, hidden)
    pooler_output: torch.Tensor | None = None         # (batch, hidden)
    logits: torch.Tensor | None = None                # masked LM, tags or classes
    nsp_logits: torch.Tensor | None = None            # (batch, 2): IsNext, NotNext
    hidden_states: tuple[torch.Tensor, ...] | None = None  # embeddings, then each layer
    attentions: tuple[torch.Tensor, ...] | None = None     # (batch, heads, length, length)


class Dense(nn.Linear):
    """nn.Linear with an optional activation after it (`compress` swaps these for
    faster kernels from outside)."""

    def __init__(self, d_in: int, d_out: int, act: str | None = None):
        super().__init__(d_in, d_out)
        self.act = act

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.linear(x, self.weight, self.bias)
        return y if self.act is None else ACTIVATIONS[self.act](y)


def _table(rows: int, d: int, padding_idx: int | None = None) -> nn.Embedding:
    """An embedding table without PyTorch's own initial values: `Bert` draws BERT's, so
    drawing them twice is wasted work, and on the meta device (where `bertforge inspect`
    and the memory check only declare a model) drawing normal values takes most of a
    second the first time."""
    return nn.Embedding(rows, d, padding_idx=padding_idx, _weight=torch.empty(rows, d))


class Embeddings(nn.Module):
    """A token's vector is its word's, plus its position's, plus its segment's."""

    def __init__(self, config: BertConfig):
        super().__init__()
        d = config.hidden_size
        self.words = _table(config.vocab_size, d, padding_idx=config.pad_token_id)
        self.positions = _table(config.max_position_embeddings, d)
        self.segments = _table(config.type_vocab_size, d)
        self.norm = nn.LayerNorm(d, eps=config.layer_norm_eps)
        self.dropout = Dropout(config.hidden_dropout_prob)

    def forward(self, input_ids: torch.Tensor, token_type_ids: torch.Tensor,
                position_ids: torch.Tensor | None = None) -> torch.Tensor:
        if position_ids is None:
            position_ids = torch.arange(input_ids.shape[1], device=input_ids.device)
        x = self.words(input_ids) + self.segments(token_type_ids) + self.positions(position_ids)
        return self.dropout(self.norm(x))


class SelfAttention(nn.Module):
    """Multi-head self-attention. No causal mask: every token sees every other one,
    except where `mask` (True = may attend) says otherwise."""

    def __init__(self, config: BertConfig):
        super().__init__()
        d = config.hidden_size
        self.heads = config.num_attention_heads
        self.q, self.k, self.v = Dense(d, d), Dense(d, d), Dense(d, d)
        self.out = Dense(d, d)
        self.dropout = config.attention_probs_dropout_prob

    def split(self, x: torch.Tensor) -> torch.Tensor:
        """(batch, length, hidden) -> (batch, heads, length, head_size)"""
        batch, length, d = x.shape
        return x.view(batch, length, self.heads, d // self.heads).transpose(1, 2)

    def project(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """Queries, keys and values. In training one product makes the three (their
        weights side by side, which changes every step): one cast of x under autocast
        and one kernel instead of three. Prediction keeps three layers, which `compress`
        may have swapped for other kernels."""
        parts = (self.q, self.k, self.v)
        if not self.training or any(type(p) is not Dense for p in parts):
            return tuple(p(x) for p in parts)
        y = F.linear(x, torch.cat([p.weight for p in parts]), torch.cat([p.bias for p in parts]))
        return y.split([p.out_features for p in parts], dim=-1)

    def forward(self, x: torch.Tensor, mask: torch.Tensor | None, keep_weights: bool):
        q, k, v = (self.split(t) for t in self.project(x))
        p = self.dropout if self.training else 0.0
        # The explicit path when someone wants to look at the weights, and for dropout on
        # a CPU: SDPA's CPU kernels have none, so it falls back to the same arithmetic
        # with PyTorch's slower mask (`dropout`).
        if keep_weights or (p > 0.0 and x.device.type == "cpu"):
            scores = (q @ k.transpose(-2, -1)) * q.shape[-1] ** -0.5
            if mask is not None:  # a very negative number, not -inf: no NaN in empty rows
                scores = scores.masked_fill(~mask, torch.finfo(scores.dtype).min)
            weights = scores.softmax(dim=-1)
            y = dropout(weights, p, self.training) @ v
            weights = weights if keep_weights else None
        else:
            weights = None
            y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=p)
        y = y.transpose(1, 2).reshape(x.shape)
        return self.out(y), weights


class Layer(nn.Module):
    """Post-norm Transformer block: x = norm(x + attention(x)); x = norm(x + ffn(x))."""

    def __init__(self, config: BertConfig):
        super().__init__()
        d, eps = config.hidden_size, config.layer_norm_eps
        self.attention = SelfAttention(config)
        self.attention_norm = nn.LayerNorm(d, eps=eps)
        self.up = Dense(d, config.intermediate_size, act=config.hidden_act)
        self.down = Dense(config.intermediate_size, d)
        self.output_norm = nn.LayerNorm(d, eps=eps)
        self.dropout = Dropout(config.hidden_dropout_prob)

    def forward(self, x: torch.Tensor, mask: torch.Tensor | None, keep_weights: bool):
        a, weights = self.attention(x, mask, keep_weights)
        x = self.attention_norm(x + self.dropout(a))
        f = self.down(self.up(x))
        x = self.output_norm(x + self.dropout(f))
        return x, weights


class Pooler(nn.Module):
    """The [CLS] vector through a dense layer and tanh: the input's summary for NSP
    and sequence classification."""

    def __init__(self, config: BertConfig):
        super().__init__()
        self.dense = Dense(config.hidden_size, config.hidden_size, act="tanh")

    def forward(self, h: torch.Tensor) -> torch.Tensor:
        return self.dense(h[:, 0])


class MaskedLMHead(nn.Module):
    """Scores every vocabulary word at each position: dense, activation, LayerNorm,
    then a dot product with the word-embedding table itself (tied, passed in by the
    caller, so there is one matrix and nothing to keep in sync), plus a bias per word."""

    def __init__(self, config: BertConfig):
        super().__init__()
        self.dense = Dense(config.hidden_size, config.hidden_size, act=config.hidden_act)
        self.norm = nn.LayerNorm(config.hidden_size, eps=config.layer_norm_eps)
        self.bias = nn.Parameter(torch.zeros(config.vocab_size))

    def forward(self, h: torch.Tensor, words: torch.Tensor) -> torch.Tensor:
        return F.linear(self.norm(self.dense(h)), words, self.bias)


class Bert(nn.Module):
    """The encoder with at most one head.

    head: None (hidden states only), "masked-lm", "pretraining" (masked LM + next
    sentence), "token-classification" or "sequence-classification" (these two need
    `config.labels`). pooler: whether to build the pooler; by default, when the head
    needs it or there is no head.
    """

    def __init__(self, config: BertConfig, head: str | None = None, pooler: bool | None = None):
        super().__init__()
        if head not in HEADS:
            raise BertforgeError(f"unknown head {head!r}; choose one of "
                                 f"{', '.join(str(h) for h in HEADS)}")
        if head in CLASSIFIER_HEADS and not config.labels:
            raise BertforgeError(f"a {head} head needs class names: set config.labels "
                                 f"(or pass labels= to load_model)")
        if pooler is None:
            pooler = head is None or head in POOLED_HEADS
        elif not pooler and head in POOLED_HEADS:
            raise BertforgeError(f"the {head} head reads the pooled [CLS] vector; it needs "
                                 f"the pooler")
        self.config, self.head = config, head
        self.embeddings = Embeddings(config)
        self.layers = nn.ModuleList(Layer(config) for _ in range(config.num_hidden_layers))
        self.pooler = Pooler(config) if pooler else None
        if head in ("masked-lm", "pretraining"):
            self.mlm = MaskedLMHead(config)
        if head == "pretraining":
            self.nsp = Dense(config.hidden_size, 2)
        if head in CLASSIFIER_HEADS:
            p = config.classifier_dropout
            self.classifier_dropout = Dropout(config.hidden_dropout_prob if p is None else p)
            self.classifier = Dense(config.hidden_size, len(config.labels))
        self.apply(self._init_weights)

    def _init_weights(self, module: nn.Module) -> None:
        """BERT's initialisation: normal(0, 0.02) weights, zero biases, unit norms.
        Nothing on the meta device, where a model is only declared (drawing values there
        goes through PyTorch's reference ops, whose first use takes most of a second)."""
        if any(p.is_meta for p in module.parameters(recurse=False)):
            return
        std = self.config.initializer_range
        if isinstance(module, nn.Linear):
            nn.init.normal_(module.weight, std=std)
            nn.init.zeros_(module.bias)
        elif isinstance(module, nn.Embedding):
            nn.init.normal_(module.weight, std=std)
            if module.padding_idx is not None:
                with torch.no_grad():
                    module.weight[module.padding_idx].zero_()
        elif isinstance(module, nn.LayerNorm):
            nn.init.ones_(module.weight)
            nn.init.zeros_(module.bias)

    def forward(
        self,
        input_ids: torch.Tensor,
        token_type_ids: torch.Tensor | None = None,
        attention_mask: torch.Tensor | None = None,
        output_attentions: bool = False,
        output_hidden_states: bool = False,
        mlm_positions: torch.Tensor | None = None,
        position_ids: torch.Tensor | None = None,
    ) -> BertOutput:
        """input_ids: (batch, length). attention_mask, as in `transformers`: 1 for a real
        token, 0 for padding, shape (batch, length); or (batch, length, length) to say
        which key each query may see (`causal_mask` builds the left-to-right one).
        mlm_positions: (batch, length) bool; the masked LM then scores only there and
        its logits are (n, vocab). Pre-training predicts 15% of positions, so this
        skips 85% of the largest matrix product. position_ids: (batch, length), each
        token's position (default 0, 1, 2, ...): inputs laid end to end in one row
        (`finetune.fit.pack`) each count from 0."""
        self._check_input(input_ids)
        if token_type_ids is None:
            token_type_ids = torch.zeros_like(input_ids)
        mask = self._attention_mask(attention_mask, input_ids.shape)
        x = self.embeddings(input_ids, token_type_ids, position_ids)
        hidden_states, attentions = [x], []
        for layer in self.layers:
            x, weights = layer(x, mask, output_attentions)
            hidden_states.append(x)
            attentions.append(weights)
        out = BertOutput(
            last_hidden_state=x,
            hidden_states=tuple(hidden_states) if output_hidden_states else None,
            attentions=tuple(attentions) if output_attentions else None,
        )
        if self.pooler is not None:
            out.pooler_output = self.pooler(x)
        if self.head in ("masked-lm", "pretraining"):
            h = x if mlm_positions is None else x[mlm_positions]
            out.logits = self.mlm(h, self.embeddings.words.weight)
        if self.head == "pretraining":
            out.nsp_logits = self.nsp(out.pooler_output)
        elif self.head == "token-classification":
            out.logits = self.classifier(self.classifier_dropout(x))
        elif self.head == "sequence-classification":
            out.logits = self.classifier(self.classifier_dropout(out.pooler_output))
        return out

    @property
    def packs(self) -> bool:
        """Whether inputs may share a row (`finetune.fit.pack`): true where the head reads
        each token on its own, not a row's first token (the pooler's)."""
        return self.head in (None, "token-classification", "masked-lm")

    @property
    def looks_words_up(self) -> bool:
        """Whether the word table is read only at the input's ids (`finetune.fit.used_rows`
        trains only those rows): not where the masked LM scores every word against it."""
        return self.head not in ("masked-lm", "pretraining")

    def _check_input(self, input_ids: torch.Tensor) -> None:
        if input_ids.dim() != 2:
            raise BertforgeError(f"input_ids must be (batch, length), got shape "
                                 f"{tuple(input_ids.shape)}")
        length, limit = input_ids.shape[1], self.config.max_position_embeddings
        if length > limit:
            raise BertforgeError(f"an input of {length} tokens is longer than this model's "
                                 f"{limit} positions; cut long texts into windows")
        if torch.compiler.is_compiling():  # a graph (export, compile): no data-dependent check
            return
        if input_ids.numel() and (input_ids.min() < 0 or input_ids.max() >= self.config.vocab_size):
            raise BertforgeError(f"input_ids hold ids outside the vocabulary "
                                 f"(0 to {self.config.vocab_size - 1}): was the text encoded "
                                 f"with this model's tokenizer?")

    @staticmethod
    def _attention_mask(attention_mask: torch.Tensor | None, shape: torch.Size):
        """The boolean mask attention takes (True = may attend), broadcast over heads;
        None when nothing is hidden, which lets attention take its fastest kernel."""
        if attention_mask is None:
            return None
        mask = attention_mask.bool()
        if mask.dim() == 2 and tuple(mask.shape) == tuple(shape):
            # a graph (ONNX export, torch.compile) keeps the mask: whether it hides
            # anything depends on the data
            keep = torch.compiler.is_compiling() or not mask.all()
            return mask[:, None, None, :] if keep else None
        if mask.dim() == 3 and tuple(mask.shape) == (shape[0], shape[1], shape[1]):
            return mask[:, None, :, :]
        raise BertforgeError(f"attention_mask must be (batch, length) = {tuple(shape)} or "
                             f"(batch, length, length), got {tuple(attention_mask.shape)}")


def causal_mask(attention_mask: torch.Tensor) -> torch.Tensor:
    """(batch, length) padding mask -> (batch, length, length) mask in which each token
    sees only itself and the real tokens to its left: BERT read like GPT."""
    length = attention_mask.shape[1]
    left = torch.ones(length, length, dtype=torch.bool, device=attention_mask.device).tril()
    return left[None] & attention_mask.bool()[:, None, :]
