"""Pre-training: masking statistics, sentence pairs, learning, resuming, distributed
data parallelism, and bad input, on a corpus generated here from a small grammar."""

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from bertforge import BertConfig, BertforgeError, load_model, load_tokenizer
from bertforge.pretrain.data import Batches, split_sentences
from bertforge.pretrain.loop import Recipe, pretrain
from bertforge.pretrain.masking import IGNORE, MaskingVocab, mask_tokens
from bertforge.pretrain.pairs import pack, pairs_from_document
from bertforge.tokenizer import Tokenizer

SUBJECTS = {"the clerk": "s", "the bankers": "p", "a customer": "s", "the auditors": "p",
            "my sister": "s", "the traders": "p", "our manager": "s", "two lawyers": "p"}
VERBS = [("signs", "sign"), ("reviews", "review"), ("approves", "approve"),
         ("rejects", "reject"), ("files", "file"), ("checks", "check")]
OBJECTS = {"loan": ["interest", "rate", "collateral"], "invoice": ["amount", "vendor", "due"],
           "contract": ["clause", "signature", "party"], "account": ["balance", "deposit", "owner"],
           "report": ["figures", "summary", "quarter"]}


def sentence(rng: random.Random, topic: str) -> str:
    subject, number = rng.choice(list(SUBJECTS.items()))
    verb = rng.choice(VERBS)[0 if number == "s" else 1]
    detail = rng.choice(OBJECTS[topic])
    return f"{subject.capitalize()} {verb} the {topic} about the {detail}."


def write_corpus(path: Path, documents: int = 400, seed: int = 0) -> Path:
    """Documents of one topic each: the object noun and its details agree within a
    document, the verb agrees with its subject; context predicts much of each word."""
    rng = random.Random(seed)
    paragraphs = []
    for _ in range(documents):
        topic = rng.choice(list(OBJECTS))
        paragraphs.append(" ".join(sentence(rng, topic) for _ in range(rng.randint(3, 8))))
    path.write_text("\n\n".join(paragraphs) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    return write_corpus(tmp_path_factory.mktemp("corpus") / "finance.txt")


@pytest.fixture(scope="module")
def vocab_dir(tmp_path_factory, corpus):
    directory = tmp_path_factory.mktemp("vocab")
    Tokenizer.train([corpus], vocab_size=200, min_frequency=1, show_progress=False).save(directory)
    return directory


@pytest.fixture(scope="module")
def tiny_config(tmp_path_factory, vocab_dir):
    size = load_tokenizer(vocab_dir).vocab_size
    path = tmp_path_factory.mktemp("config") / "config.json"
    path.write_text(BertConfig(vocab_size=size, hidden_size=64, num_hidden_layers=2,
                               num_attention_heads=4, intermediate_size=128,
                               max_position_embeddings=64).to_json())
    return path


def recipe(corpus, vocab_dir, tiny_config, out, **changes) -> Recipe:
    settings = dict(corpus=[str(corpus)], out=str(out), size=str(tiny_config),
                    vocab=str(vocab_dir), seq_len=48, batch=16, steps=8, lr=1e-3,
                    precision="fp32", eval_every=1000, save_every=1000, progress=False)
    settings.update(changes)
    return Recipe(**settings)


# ------------------------------------------------------------------ masking
@pytest.fixture(scope="module")
def minilm_vocab(minilm):
    tok = load_tokenizer(minilm)
    return tok, MaskingVocab.from_tokenizer(tok)


def random_batch(tok, rows=1200, width=128, seed=0):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(1000, tok.vocab_size, (rows, width), generator=g)
    lengths = torch.randint(width // 2, width + 1, (rows,), generator=g)
    mask = (torch.arange(width)[None] < lengths[:, None]).long()
    ids[:, 0] = tok.cls_id
    ids[torch.arange(rows), lengths - 1] = tok.sep_id
    ids[mask == 0] = tok.pad_id
    return ids, mask


@pytest.mark.parametrize("variant", ["token", "exact"])
def test_masking_shares(minilm_vocab, variant):
    tok, vocab = minilm_vocab
    ids, attention = random_batch(tok)
    eligible = (attention == 1) & (ids != tok.cls_id) & (ids != tok.sep_id)
    assert eligible.sum() > 100_000
    masked, labels = mask_tokens(ids, vocab, torch.Generator().manual_seed(1),
                                 attention_mask=attention, variant=variant)
    picked = labels != IGNORE
    assert not (picked & ~eligible).any(), "a special token or padding was picked"
    assert torch.equal(labels[picked], ids[picked])
    assert torch.equal(masked[~picked], ids[~picked])
    share = picked.sum() / eligible.sum()
    assert abs(share - 0.15) <= 0.005
    n = picked.sum().item()
    as_mask = (masked[picked] == tok.mask_id).sum().item() / n
    kept = (masked[picked] == ids[picked]).sum().item() / n
    randomised = 1 - as_mask - kept
    assert abs(as_mask - 0.8) <= 0.015 and abs(kept - 0.1) <= 0.015
    assert abs(randomised - 0.1) <= 0.015
    replaced = masked[picked & (masked != tok.mask_id) & (masked != ids)]
    assert not torch.isin(replaced, torch.tensor(sorted(tok.special_ids))).any()
    if variant == "exact":
        per_row = picked.sum(1)
        expected = torch.round(eligible.sum(1).double() * 0.15).long().clamp(min=1)
        assert torch.equal(per_row, expected)


def test_exact_masking_respects_the_cap(minilm_vocab):
    tok, vocab = minilm_vocab
    ids, attention = random_batch(tok, rows=50)
    _, labels = mask_tokens(ids, vocab, torch.Generator().manual_seed(0), attention_mask=attention,
                            variant="exact", max_predictions=5)
    assert ((labels != IGNORE).sum(1) == 5).all()


def test_whole_word_masking_never_splits_a_word(minilm_vocab):
    tok, vocab = minilm_vocab
    rng = random.Random(0)
    text = " ".join(sentence(rng, rng.choice(list(OBJECTS))) for _ in range(400))
    text += " unbothered counterparties reconciliation misappropriation " * 200
    pieces = tok.encode(text, add_special_tokens=False).ids
    rows = [[tok.cls_id] + pieces[i:i + 126] + [tok.sep_id] for i in range(0, len(pieces) - 126, 126)]
    ids = torch.tensor(rows)
    _, labels = mask_tokens(ids, vocab, torch.Generator().manual_seed(3), variant="whole-word")
    picked = labels != IGNORE
    continuation = vocab.continuation[ids]
    assert continuation.sum() > 1000, "the text must hold many multi-piece words"
    # a ## piece is picked exactly when the token before it (same word) is; a row may
    # begin inside a word, where the token before the piece is [CLS]
    inside = continuation[:, 1:] & (ids[:, :-1] != tok.cls_id)
    assert torch.equal(picked[:, 1:][inside], picked[:, :-1][inside])
    share = picked.sum() / (ids.numel() - 2 * len(rows))
    assert 0.12 < share < 0.18


def test_masking_is_reproducible(minilm_vocab):
    tok, vocab = minilm_vocab
    ids, attention = random_batch(tok, rows=20)
    a = mask_tokens(ids, vocab, torch.Generator().manual_seed(7), attention_mask=attention)
    b = mask_tokens(ids, vocab, torch.Generator().manual_seed(7), attention_mask=attention)
    c = mask_tokens(ids, vocab, torch.Generator().manual_seed(8), attention_mask=attention)
    assert torch.equal(a[0], b[0]) and torch.equal(a[1], b[1]) and not torch.equal(a[1], c[1])


# -------------------------------------------------------------------- pairs
def test_pairs_shares_and_layout():
    rng = random.Random(0)
    documents = [[[rng.randint(10, 99) for _ in range(rng.randint(3, 30))]
                  for _ in range(rng.randint(1, 12))] for _ in range(600)]
    examples = []
    for doc in documents:
        examples += pairs_from_document(doc, 64, rng, lambda: rng.choice(documents), 1, 2)
    assert len(examples) > 1500
    is_next = sum(e["next_sentence_label"] == 0 for e in examples) / len(examples)
    assert abs(is_next - 0.5) <= 0.03
    for e in examples:
        ids, types = e["input_ids"], e["token_type_ids"]
        assert len(ids) <= 64 and len(ids) == len(types)
        assert ids[0] == 1 and ids[-1] == 2 and ids.count(2) == 2 and ids.count(1) == 1
        first_sep = ids.index(2)
        assert 1 < first_sep < len(ids) - 2, "both segments hold text"
        assert types == [0] * (first_sep + 1) + [1] * (len(ids) - first_sep - 1)
    lengths = [len(e["input_ids"]) for e in examples]
    assert sum(l < 40 for l in lengths) > 0.03 * len(lengths), "some short targets (10%)"


def test_packing_fills_every_row():
    docs = [list(range(10, 10 + n)) for n in (5, 50, 7, 120, 3)]
    rows = list(pack(docs, 32, 1, 2))
    assert rows and all(len(r) == 32 and r[0] == 1 and r[-1] == 2 for r in rows)
    stream = [t for r in rows for t in r[1:-1]]
    assert stream[:5] == docs[0] and stream[5] == 2 and stream[6:56] == docs[1]


def test_split_sentences():
    assert split_sentences("One. Two is here! Three? x.y stays\nNew line.") == [
        "One.", "Two is here!", "Three? x.y stays", "New line."]


# ------------------------------------------------------------------ learning
def test_learns_well_below_unigram_entropy(corpus, vocab_dir, tiny_config, tmp_path):
    result = pretrain(recipe(corpus, vocab_dir, tiny_config, tmp_path / "run", steps=250,
                             batch=32, lr=2e-3, eval_every=125, precision="auto",
                             objective="mlm+nsp"))
    records = [json.loads(l) for l in (tmp_path / "run" / "train.jsonl").read_text().splitlines()]
    start, entropy = records[0]["eval"]["mlm_loss"], records[0]["unigram_entropy"]
    assert result["mlm_loss"] < entropy - 1.0, (result, entropy)
    assert result["mlm_loss"] < start - 2.5
    assert result["mlm_accuracy"] > 0.4
    assert (tmp_path / "run" / "loss.png").stat().st_size > 5000
    # the output is a model directory transformers loads as BertForPreTraining
    transformers = pytest.importorskip("transformers")
    theirs = transformers.BertForPreTraining.from_pretrained(tmp_path / "run" / "model").eval()
    ours = load_model(tmp_path / "run" / "model")
    assert ours.head == "pretraining"
    batch = load_tokenizer(tmp_path / "run" / "model")(["The clerk signs the loan about the rate."])
    with torch.no_grad():
        a = ours(**batch.model_inputs()).logits
        b = theirs(**batch.model_inputs()).prediction_logits
    assert (a - b).abs().max() < 1e-4


# -------------------------------------------------------------------- resume
def weights(directory):
    return load_model(directory).state_dict()


def test_resume_repeats_an_uninterrupted_run(corpus, vocab_dir, tiny_config, tmp_path,
                                             monkeypatch, caplog):
    settings = dict(steps=12, save_every=6, objective="mlm+nsp")
    pretrain(recipe(corpus, vocab_dir, tiny_config, tmp_path / "straight", **settings))

    real_call = Batches.__call__

    def stop_at_9(self, step):
        if step == 9:
            raise KeyboardInterrupt
        return real_call(self, step)

    monkeypatch.setattr(Batches, "__call__", stop_at_9)
    with pytest.raises(KeyboardInterrupt):
        pretrain(recipe(corpus, vocab_dir, tiny_config, tmp_path / "stopped", **settings))
    monkeypatch.undo()
    saved = sorted((tmp_path / "stopped" / "checkpoints").glob("step-*.pt"))
    assert [p.name for p in saved] == ["step-00000006.pt"]
    # a newer, damaged checkpoint must be skipped, never loaded
    damaged = saved[0].with_name("step-00000008.pt")
    damaged.write_bytes(saved[0].read_bytes()[:5000])
    with caplog.at_level("WARNING"):
        pretrain(recipe(corpus, vocab_dir, tiny_config, tmp_path / "stopped", **settings))
    assert "skipping damaged checkpoint" in caplog.text and "step-00000008.pt" in caplog.text
    a, b = weights(tmp_path / "straight" / "model"), weights(tmp_path / "stopped" / "model")
    assert all(torch.equal(a[k], b[k]) for k in a)
    log = [json.loads(l)["step"] for l in (tmp_path / "stopped" / "train.jsonl").read_text().splitlines()]
    assert log == list(range(13))


def test_resume_with_another_recipe_is_refused(corpus, vocab_dir, tiny_config, tmp_path):
    pretrain(recipe(corpus, vocab_dir, tiny_config, tmp_path / "r", steps=2, save_every=2))
    with pytest.raises(BertforgeError, match="different recipe.*batch"):
        pretrain(recipe(corpus, vocab_dir, tiny_config, tmp_path / "r", steps=4, batch=8))
    with pytest.raises(BertforgeError, match="already at step 2"):
        pretrain(recipe(corpus, vocab_dir, tiny_config, tmp_path / "r", steps=1))


def test_a_finished_run_is_extended_with_more_steps(corpus, vocab_dir, tiny_config, tmp_path):
    out = tmp_path / "r"
    pretrain(recipe(corpus, vocab_dir, tiny_config, out, steps=3, save_every=3, warmup=1))
    pretrain(recipe(corpus, vocab_dir, tiny_config, out, steps=6, save_every=3, warmup=1))
    log = [json.loads(l) for l in (out / "train.jsonl").read_text().splitlines()]
    assert [r["step"] for r in log] == list(range(7))
    # the schedule of a 6-step run from step 3 on: linear decay to zero at step 6
    lrs = [r["lr"] for r in log[4:]]
    assert lrs[0] > 0 and all(a > b for a, b in zip(lrs, lrs[1:])) and lrs[-1] == 0
    assert (out / "checkpoints" / "step-00000006.pt").is_file()


# -------------------------------------------------- accumulation and processes
def losses(out, field="loss"):
    return [json.loads(l)[field] for l in (Path(out) / "train.jsonl").read_text().splitlines()[1:]]


def same(a, b, tolerance=1e-5):
    return len(a) == len(b) and max(abs(x - y) for x, y in zip(a, b)) <= tolerance


def test_micro_batches_add_up_to_the_batch(corpus, vocab_dir, tiny_config, tmp_path):
    whole = dict(steps=4, dropout=0.0, objective="mlm")
    pretrain(recipe(corpus, vocab_dir, tiny_config, tmp_path / "one", **whole))
    pretrain(recipe(corpus, vocab_dir, tiny_config, tmp_path / "four", micro_batch=4, **whole))
    assert same(losses(tmp_path / "one"), losses(tmp_path / "four"))
    # Adam hardly notices a gradient scaled by a constant; the gradient norm does
    assert same(losses(tmp_path / "one", "grad_norm"), losses(tmp_path / "four", "grad_norm"))


def test_two_processes_match_one(corpus, vocab_dir, tiny_config, tmp_path):
    args = ["-m", "bertforge", "pretrain", str(corpus), "--vocab", str(vocab_dir), "--size",
            str(tiny_config), "--seq-len", "48", "--batch", "16", "--steps", "4",
            "--precision", "fp32", "--dropout", "0", "--quiet", "--lr", "1e-3"]
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    subprocess.run([sys.executable, *args, "--out", str(tmp_path / "single")], check=True,
                   env=env, capture_output=True, timeout=300)
    done = subprocess.run([sys.executable, "-m", "torch.distributed.run", "--nproc_per_node", "2",
                           "--master_port", str(29500 + os.getpid() % 1000), *args,
                           "--out", str(tmp_path / "double")],
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    single, double = losses(tmp_path / "single"), losses(tmp_path / "double")
    assert len(single) == len(double) == 4
    assert same(single, double), (single, double)
    assert same(losses(tmp_path / "single", "grad_norm"), losses(tmp_path / "double", "grad_norm"))


def test_mlm_only_output_is_a_masked_lm(corpus, vocab_dir, tiny_config, tmp_path):
    """Packed rows, no NSP: the output loads in transformers as BertForMaskedLM."""
    transformers = pytest.importorskip("transformers")
    pretrain(recipe(corpus, vocab_dir, tiny_config, tmp_path / "mlm", steps=3, objective="mlm"))
    model_dir = tmp_path / "mlm" / "model"
    assert json.loads((model_dir / "config.json").read_text())["architectures"] == ["BertForMaskedLM"]
    theirs = transformers.BertForMaskedLM.from_pretrained(model_dir).eval()
    ours = load_model(model_dir)
    batch = load_tokenizer(model_dir)(["The auditors check the account about the balance."])
    with torch.no_grad():
        assert (ours(**batch.model_inputs()).logits - theirs(**batch.model_inputs()).logits
                ).abs().max() < 1e-5
    card = json.loads((model_dir / "bertforge.json").read_text())
    assert card["recipe"]["objective"] == "mlm" and "mlm_loss" in card["held_out"]


def test_jsonl_and_saved_dataset_corpora(corpus, vocab_dir, tiny_config, tmp_path):
    import datasets

    documents = corpus.read_text(encoding="utf-8").split("\n\n")
    jsonl = tmp_path / "docs.jsonl"
    jsonl.write_text("".join(json.dumps({"id": i, "text": d}) + "\n" for i, d in enumerate(documents)))
    pretrain(recipe(jsonl, vocab_dir, tiny_config, tmp_path / "a", steps=2))
    datasets.Dataset.from_dict({"text": documents}).save_to_disk(str(tmp_path / "saved"))
    pretrain(recipe(tmp_path / "saved", vocab_dir, tiny_config, tmp_path / "b", steps=2))
    first = [json.loads(l) for l in (tmp_path / "a" / "train.jsonl").read_text().splitlines()]
    assert len(first) == 3 and first[-1]["mlm_loss"] > 0
    (tmp_path / "nofield.jsonl").write_text('{"body": "no text field here"}\n')
    with pytest.raises(BertforgeError, match="no 'text' column"):
        pretrain(recipe(tmp_path / "nofield.jsonl", vocab_dir, tiny_config, tmp_path / "c"))


# ---------------------------------------------------------------- bad input
def test_bad_input_fails_before_training(corpus, vocab_dir, tiny_config, tmp_path):
    (tmp_path / "empty.txt").write_text("")
    with pytest.raises(BertforgeError, match="empty"):
        pretrain(recipe(tmp_path / "empty.txt", vocab_dir, tiny_config, tmp_path / "a"))
    (tmp_path / "latin1.txt").write_bytes("Caf\xe9 au lait, s'il vous pla\xeet.".encode("latin-1"))
    with pytest.raises(BertforgeError, match="not UTF-8 text \\(bad byte at offset 3\\)"):
        pretrain(recipe(tmp_path / "latin1.txt", vocab_dir, tiny_config, tmp_path / "b"))
    (tmp_path / "small.txt").write_text("The clerk signs the loan. The bankers file the report.\n")
    with pytest.raises(BertforgeError, match="fewer than one batch of 16"):
        pretrain(recipe(tmp_path / "small.txt", vocab_dir, tiny_config, tmp_path / "c"))
    wrong = tmp_path / "wrong.json"
    wrong.write_text(BertConfig(vocab_size=999, hidden_size=64, num_hidden_layers=1,
                                num_attention_heads=4, intermediate_size=64).to_json())
    with pytest.raises(BertforgeError, match="vocab_size 999, but the vocabulary has"):
        pretrain(recipe(corpus, vocab_dir, wrong, tmp_path / "d"))
    for name in "abcd":
        assert not (tmp_path / name / "train.jsonl").exists(), "training must not have started"
    with pytest.raises(BertforgeError, match="no such corpus file"):
        pretrain(recipe(tmp_path / "missing.txt", vocab_dir, tiny_config, tmp_path / "e"))


def test_cli_refuses_to_overwrite_a_run(corpus, vocab_dir, tiny_config, tmp_path, capsys):
    from bertforge.cli import main

    argv = ["pretrain", str(corpus), "--vocab", str(vocab_dir), "--size", str(tiny_config),
            "--seq-len", "48", "--batch", "16", "--steps", "2", "--quiet", "--out",
            str(tmp_path / "run")]
    assert main(argv) == 0
    assert main(argv) == 2
    assert "pass --resume" in capsys.readouterr().err
