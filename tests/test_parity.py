"""Our network against transformers' BertModel and its heads: same checkpoint, same
input (a padded batch with a pair), fp32, dropout off; every number within 1e-5."""

import pytest
import torch

from bertforge import load_model, load_tokenizer
from bertforge.checkpoint import their_name
from bertforge.compress import use_onednn
from bertforge.model import SelfAttention, causal_mask, dropout, keep_mask
from conftest import HF_CLASSES, TEXTS, hf_model

TOL = 1e-5


def batch_for(directory):
    tok = load_tokenizer(directory)
    return tok([a for a, _ in TEXTS], [b for _, b in TEXTS])


def gap(a, b):
    return (a - b).abs().max().item()


@pytest.mark.parametrize("eager, onednn", [(False, False), (True, False), (False, True)],
                         ids=["sdpa", "explicit-softmax", "onednn"])
def test_packaged_checkpoint_matches_bertmodel(minilm, eager, onednn):
    batch = batch_for(minilm)
    assert batch.attention_mask.min() == 0, "the batch must contain padding"
    real = batch.attention_mask.bool()
    ours = use_onednn(load_model(minilm), onednn)
    theirs = hf_model(minilm, None, eager=eager)
    with torch.no_grad():
        mine = ours(**batch.model_inputs(), output_hidden_states=True, output_attentions=eager)
        ref = theirs(**batch.model_inputs(), output_hidden_states=True, output_attentions=eager)
    assert len(mine.hidden_states) == len(ref.hidden_states) == 7
    for layer, (a, b) in enumerate(zip(mine.hidden_states, ref.hidden_states)):
        assert gap(a[real], b[real]) <= TOL, f"hidden state {layer}"
    assert gap(mine.pooler_output, ref.pooler_output) <= TOL
    if eager:
        for a, b in zip(mine.attentions, ref.attentions):
            # rows of real queries; the weights they give padding must be exactly 0
            assert gap(a.transpose(1, 2)[real], b.transpose(1, 2)[real]) <= TOL
            assert torch.allclose(a.sum(-1), torch.ones(()), atol=1e-5)
            for row in range(len(TEXTS)):  # no real token attends to padding
                to_padding = a[row][:, real[row]][:, :, ~real[row]]
                assert to_padding.numel() == 0 or to_padding.abs().max() == 0


@pytest.mark.parametrize("onednn", [False, True], ids=["default", "onednn"])
@pytest.mark.parametrize("head", list(HF_CLASSES), ids=lambda h: h or "base")
def test_each_head_matches_transformers(tiny_dirs, head, onednn):
    directory = tiny_dirs[head]
    batch = batch_for(directory)
    real = batch.attention_mask.bool()
    ours = use_onednn(load_model(directory), onednn)
    assert ours.head == head
    theirs = hf_model(directory, head)
    with torch.no_grad():
        mine = ours(**batch.model_inputs(), output_hidden_states=True, output_attentions=True)
        ref = theirs(**batch.model_inputs(), output_hidden_states=True, output_attentions=True)
    for a, b in zip(mine.hidden_states, ref.hidden_states):
        assert gap(a[real], b[real]) <= TOL
    for a, b in zip(mine.attentions, ref.attentions):
        assert gap(a.transpose(1, 2)[real], b.transpose(1, 2)[real]) <= TOL
    if head == "pretraining":
        assert gap(mine.logits[real], ref.prediction_logits[real]) <= TOL
        assert gap(mine.nsp_logits, ref.seq_relationship_logits) <= TOL
    elif head in ("masked-lm", "token-classification"):
        assert gap(mine.logits[real], ref.logits[real]) <= TOL
    elif head == "sequence-classification":
        assert mine.logits.shape == (len(TEXTS), 3)
        assert gap(mine.logits, ref.logits) <= TOL
    else:
        assert gap(mine.pooler_output, ref.pooler_output) <= TOL


def test_padding_does_not_change_real_positions(minilm):
    """A text alone and the same text padded in a batch give the same vectors."""
    tok, model = load_tokenizer(minilm), load_model(minilm)
    alone = tok(["Short text."])
    padded = tok(["Short text.", "A much longer text that forces padding onto the first."])
    with torch.no_grad():
        a = model(**alone.model_inputs()).last_hidden_state[0]
        b = model(**padded.model_inputs()).last_hidden_state[0, : a.shape[0]]
    assert gap(a, b) <= TOL


def test_packed_inputs_match_bertmodel(minilm):
    """Two inputs in one row, each counting its positions from 0 and seeing only itself
    (what `finetune.fit.pack` builds), read as `transformers`' BertModel reads a packed
    row (it finds the inputs where the positions restart); positions that do not restart
    read the same in both too."""
    ours, theirs = load_model(minilm), hf_model(minilm, None)
    torch.manual_seed(0)
    ids = torch.randint(1000, 5000, (1, 13))
    positions = torch.tensor([[0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 6, 7, 8]])
    block = torch.tensor([[0] * 4 + [1] * 9])
    alone = block[:, :, None] == block[:, None, :]
    with torch.no_grad():
        packed = ours(ids, position_ids=positions, attention_mask=alone).last_hidden_state
        reference = theirs(input_ids=ids, position_ids=positions).last_hidden_state
        unmasked = ours(ids, position_ids=positions).last_hidden_state
        shifted = [m(ids, position_ids=torch.arange(2, 15)[None]).last_hidden_state
                   for m in (ours, theirs)]
        first = ours(ids[:, :4]).last_hidden_state  # the first input alone
    assert gap(packed, reference) <= TOL and gap(packed[:, :4], first) <= TOL
    assert gap(unmasked, reference) > 1e-2  # without the block mask the inputs mix
    assert gap(*shifted) <= TOL


def test_causal_mask_hides_the_right(tiny_dirs):
    """With the causal mask a token's vector does not depend on any later token; without
    it, it does (BERT reads both ways)."""
    model = load_model(tiny_dirs[None])
    torch.manual_seed(0)
    ids = torch.randint(1000, 2000, (1, 12))
    changed = ids.clone()
    changed[0, 8:] = torch.randint(2000, 3000, (4,))
    mask = torch.ones_like(ids)
    with torch.no_grad():
        for path in (False, True):  # SDPA and the explicit softmax
            causal = [model(x, attention_mask=causal_mask(mask), output_attentions=path)
                      .last_hidden_state for x in (ids, changed)]
            both = [model(x, attention_mask=mask, output_attentions=path).last_hidden_state
                    for x in (ids, changed)]
            assert gap(causal[0][0, :8], causal[1][0, :8]) == 0
            assert gap(both[0][0, :8], both[1][0, :8]) > 1e-3
        weights = model(ids, attention_mask=causal_mask(mask), output_attentions=True).attentions
    assert torch.all(weights[0][0, :, 3, 4:] == 0)  # token 3 gives nothing to 4 and later


def test_onednn_path_is_inference_only(minilm):
    """With gradients on, the oneDNN switch changes nothing: training is the plain path.
    Without them it does take another kernel (not bit-equal on a real model)."""
    model = load_model(minilm)
    ids = torch.randint(1000, 2000, (2, 64), generator=torch.Generator().manual_seed(0))
    plain = model(ids).last_hidden_state
    fast = use_onednn(model)
    fused = fast(ids).last_hidden_state
    assert torch.equal(plain, fused) and fused.requires_grad
    with torch.no_grad():
        assert not torch.equal(fast(ids).last_hidden_state, plain)
        assert torch.equal(model(ids).last_hidden_state, plain)  # the original is untouched
    assert fast.state_dict().keys() == model.state_dict().keys()
    assert all(a is b for a, b in zip(fast.parameters(), model.parameters()))  # shared


def test_int8_model_stays_close_to_fp32_and_refuses_training(minilm, tmp_path):
    """`quantize_int8` swaps the 36 dense layers of the encoder for int8 ones: the hidden
    states move (another kernel) but stay close to fp32's; training and saving refuse."""
    from bertforge import BertforgeError
    from bertforge.checkpoint import save_model
    from bertforge.compress import Int8Dense, quantize_int8

    batch = batch_for(minilm)
    real = batch.attention_mask.bool()
    model = load_model(minilm)
    with torch.no_grad():
        full = model(**batch.model_inputs()).last_hidden_state
    original = model
    model = quantize_int8(original)
    assert sum(isinstance(m, Int8Dense) for m in model.modules()) == 6 * 6
    assert not any(isinstance(m, Int8Dense) for m in original.modules())  # left as it was
    save_model(original, None, tmp_path / "original")  # and still saves
    with torch.inference_mode():
        small = model(**batch.model_inputs()).last_hidden_state
    cosine = torch.nn.functional.cosine_similarity(full[real], small[real], dim=-1)
    # measured: min 0.913, mean 0.960 (the redactor's F1 moves by about 0.01; test_pii)
    assert cosine.min() > 0.9 and cosine.mean() > 0.95, cosine
    assert gap(full[real], small[real]) > 1e-3  # it did take the int8 kernels
    with pytest.raises(BertforgeError, match="inference only"):
        model(**batch.model_inputs())  # gradients on
    with pytest.raises(BertforgeError, match="int8"):
        save_model(model, None, tmp_path / "saved")


def test_training_forward_matches_bertmodel_in_training(minilm):
    """In training on a CPU attention takes the explicit path (for the faster dropout):
    with dropout that drops nothing (p = 1e-9 rounds to no element), it computes what
    transformers' BertModel computes in training, padding and all."""
    batch = batch_for(minilm)
    real = batch.attention_mask.bool()
    ours = load_model(minilm).train()
    for module in ours.modules():
        if isinstance(module, torch.nn.Dropout):
            module.p = 1e-9
        elif isinstance(module, SelfAttention):  # its probability is a number, not a module
            module.dropout = 1e-9
    theirs = hf_model(minilm, None).train()
    for module in theirs.modules():
        if isinstance(module, torch.nn.Dropout):
            module.p = 1e-9
    mine = ours(**batch.model_inputs()).last_hidden_state
    ref = theirs(**batch.model_inputs()).last_hidden_state
    assert gap(mine[real], ref[real]) <= TOL
    # and the gradients, those of the queries', keys' and values' weights among them
    # (training makes the three in one product, their weights side by side)
    (mine[real] ** 2).sum().backward()
    (ref[real] ** 2).sum().backward()
    theirs_by_name = dict(theirs.named_parameters())
    compared = 0
    for name, p in ours.named_parameters():
        other = theirs_by_name.get(their_name(name, prefixed=False))
        if other is not None and p.grad is not None and "pooler" not in name:
            assert gap(p.grad, other.grad) <= 1e-4 * max(1.0, other.grad.abs().max().item()), name
            compared += 1
    assert compared >= 6 * 16  # every weight and bias of the six layers


def test_dropout_drops_a_share_p_and_scales_the_rest():
    """`dropout` on a CPU: each element zeroed with probability p independently of its
    neighbours (two share a 32-bit draw), the rest scaled by 1 / (1 - p), the gradient
    through the same mask; the identity in evaluation; the same seed, the same mask."""
    torch.manual_seed(0)
    x = torch.ones(1000, 1000, requires_grad=True)
    y = dropout(x, 0.1, True)
    kept = y != 0
    assert abs(1 - kept.float().mean().item() - 0.1) < 0.003  # 10 standard deviations
    assert torch.allclose(y[kept], torch.tensor(1 / 0.9))
    pairs = kept.view(-1, 2)  # the two lanes of one draw
    assert abs((~pairs).all(1).float().mean().item() - 0.01) < 0.002
    y.sum().backward()
    assert torch.equal(x.grad, y.detach())
    for p in (0.0, 0.5):
        assert dropout(x, p, False) is x
    torch.manual_seed(1)
    a = keep_mask(torch.Size([64, 64]), 0.3)
    torch.manual_seed(1)
    assert torch.equal(a, keep_mask(torch.Size([64, 64]), 0.3))
    assert not torch.equal(a, keep_mask(torch.Size([64, 64]), 0.3))
    assert dropout(x, 0.0, True) is x
    # in bf16 a kept value is x / (1 - p) rounded once, as F.dropout gives it
    x = torch.randn(10_000).bfloat16()
    y = dropout(x, 0.1, True)
    assert y.dtype == torch.bfloat16
    assert torch.equal(y[y != 0], (x.float() * (1 / 0.9)).bfloat16()[y != 0])
