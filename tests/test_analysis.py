"""Looking inside: fill-mask, MLM loss, the bias probe, attention heads and the report,
each against transformers computing the same thing where there is a reference."""

import json
import math
from pathlib import Path

import numpy as np
import pytest
import torch

from bertforge.analysis import attention, probes
from bertforge.checkpoint import load_model
from bertforge.cli import main
from bertforge.errors import BertforgeError
from bertforge.tokenizer import load_tokenizer

transformers = pytest.importorskip("transformers")

WIKITEXT = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "wikitext-2-raw-test.txt"
SENTENCES = ["The keys to the old [MASK] were on the table.",
             "Paris is the [MASK] of [MASK], a city of two million people.",
             "[MASK] went to the bank."]


@pytest.fixture(scope="module")
def mlm(tiny_dirs):
    return probes.load_masked_lm(tiny_dirs["masked-lm"])


# ------------------------------------------------------------------ fill-mask
def test_fill_mask_equals_the_transformers_pipeline(mlm, tiny_dirs):
    pipe = transformers.pipeline("fill-mask", model=str(tiny_dirs["masked-lm"]), top_k=5,
                                 device="cpu")
    ours = probes.fill_mask(*mlm, SENTENCES, top_k=5)
    for text, per_mask in zip(SENTENCES, ours):
        theirs = pipe(text)
        if text.count("[MASK]") == 1:
            theirs = [theirs]
        assert len(per_mask) == len(theirs) == text.count("[MASK]")
        for mine, reference in zip(per_mask, theirs):
            assert [g.id for g in mine] == [r["token"] for r in reference]
            assert [g.token for g in mine] == [mlm[1].convert_ids_to_tokens([r["token"]])[0]
                                                for r in reference]
            np.testing.assert_allclose([g.probability for g in mine],
                                       [r["score"] for r in reference], atol=1e-5, rtol=0)


def test_fill_mask_needs_a_mask(mlm):
    with pytest.raises(BertforgeError, match=r"no \[MASK\] in 'no blank here'"):
        probes.fill_mask(*mlm, ["A [MASK] here.", "no blank here"])


def test_probes_need_a_masked_lm_head(minilm, capsys):
    with pytest.raises(BertforgeError, match="not a masked-LM head"):
        probes.load_masked_lm(minilm)
    assert main(["probe", str(minilm), "Paris is the capital of [MASK]."]) == 2
    assert "cannot fill in [MASK]" in capsys.readouterr().err


def test_probe_suite_and_cli(mlm, tiny_dirs, capsys):
    rows = probes.probe_suite(*mlm)
    assert [r[1] for r in rows] == [text for _, text in probes.PROBES]
    assert all(r[2].count("%") == 3 for r in rows)
    assert main(["probe", str(tiny_dirs["masked-lm"]), SENTENCES[1], "--top-k", "2"]) == 0
    out = capsys.readouterr().out
    assert "[MASK] 1:" in out and "[MASK] 2:" in out
    assert main(["probe", str(tiny_dirs["masked-lm"]), "--suite"]) == 0
    assert "Birds cannot [MASK]." in capsys.readouterr().out


# ------------------------------------------------------------------ MLM loss
def test_initialised_network_scores_log_v(mlm):
    model, tokenizer = mlm
    fresh = probes.initialised_like(model)
    text = " ".join(["The bank raised its rates on Tuesday and savers moved their money."] * 4)
    loss = probes.masked_lm_loss(fresh, tokenizer, text, repeats=10)
    assert abs(loss - math.log(model.config.vocab_size)) < 0.1


def test_masked_lm_loss_reads_long_texts_in_windows(mlm):
    model, tokenizer = mlm  # 64 positions: this text needs several windows
    text = " ".join(f"Account {i} was opened in March by the branch manager." for i in range(40))
    report = probes.loss_report(model, tokenizer, text, repeats=3)
    tokens = len(tokenizer.encode(text, add_special_tokens=False).ids)
    assert tokens > 3 * 62
    assert 0.1 * tokens < report.predictions / 3 < 0.2 * tokens  # 15% of every window
    with pytest.raises(BertforgeError, match="empty"):
        probes.masked_lm_loss(model, tokenizer, "   ")


def test_pretrained_model_scores_lower_on_held_out_text(tmp_path):
    from bertforge.pretrain.loop import pretrain
    from test_pretrain import recipe, write_corpus

    from bertforge.tokenizer import Tokenizer
    corpus = write_corpus(tmp_path / "corpus.txt")
    held_out = write_corpus(tmp_path / "held-out.txt", documents=20, seed=99).read_text()
    vocab = tmp_path / "vocab"
    Tokenizer.train([corpus], vocab_size=200, min_frequency=1, show_progress=False).save(vocab)
    config = tmp_path / "config.json"
    config.write_text(json.dumps(dict(vocab_size=load_tokenizer(vocab).vocab_size, hidden_size=64,
                                      num_hidden_layers=2, num_attention_heads=2,
                                      intermediate_size=128, max_position_embeddings=64)))
    pretrain(recipe(corpus, vocab, config, tmp_path / "run", steps=150, batch=32, lr=2e-3,
                    objective="mlm", precision="auto"))
    model, tokenizer = probes.load_masked_lm(tmp_path / "run" / "model")
    report = probes.loss_report(model, tokenizer, held_out, repeats=5)
    assert abs(report.initialised - report.uniform) < 0.1
    assert report.model < report.initialised - 1.5, report


# ------------------------------------------------------------------ bias probe
def test_pronoun_shares_match_transformers(mlm, tiny_dirs):
    model, tokenizer = mlm
    jobs = ["nurse", "pilot", "farmer"]
    shares = probes.pronoun_shares(model, tokenizer, jobs)
    hf_tok = transformers.AutoTokenizer.from_pretrained(tiny_dirs["masked-lm"])
    hf = transformers.BertForMaskedLM.from_pretrained(tiny_dirs["masked-lm"]).eval()
    she, he = hf_tok.convert_tokens_to_ids(["she", "he"])
    for job in jobs:
        batch = hf_tok(f"the {job} said that [MASK] would be late.", return_tensors="pt")
        with torch.no_grad():
            logits = hf(**batch).logits[0]
        p = logits[batch["input_ids"][0] == hf_tok.mask_token_id][0].softmax(-1)
        assert shares[job] == pytest.approx(float(p[she] / (p[she] + p[he])), abs=1e-5)


def test_bias_probe_options_and_errors(mlm, tiny_dirs, tmp_path, capsys):
    model, tokenizer = mlm
    shares = probes.pronoun_shares(model, tokenizer, ["cook"], "a {job} thinks [MASK] is right.",
                                   ("him", "her"))
    assert 0 < shares["cook"] < 1
    with pytest.raises(BertforgeError, match="exactly one"):
        probes.pronoun_shares(model, tokenizer, ["cook"], "the {job} said [MASK] [MASK].")
    with pytest.raises(BertforgeError, match="not one token"):
        probes.pronoun_shares(model, tokenizer, ["cook"], pair=("she", "xylophonist"))
    plot = tmp_path / "bias.png"
    assert main(["bias", str(tiny_dirs["masked-lm"]), "--plot", str(plot)]) == 0
    out = capsys.readouterr().out
    assert all(job in out for job in probes.JOBS) and plot.stat().st_size > 5000


# ------------------------------------------------------------------ attention
def reference_shares(directory, texts, max_length=128):
    """The four shares from transformers' output_attentions, one token at a time."""
    tok = transformers.AutoTokenizer.from_pretrained(directory)
    model = transformers.BertModel.from_pretrained(directory, attn_implementation="eager").eval()
    cfg = model.config
    totals = {t: np.zeros((cfg.num_hidden_layers, cfg.num_attention_heads)) for t in attention.TARGETS}
    count = 0
    for text in texts:
        batch = tok(text, truncation=True, max_length=max_length, return_tensors="pt")
        with torch.no_grad():
            out = model(**batch, output_attentions=True)
        ids = batch["input_ids"][0].tolist()
        special = {tok.cls_token_id, tok.sep_token_id}
        for layer, weights in enumerate(out.attentions):
            w = weights[0].double().numpy()  # heads, query, key
            for q in range(len(ids)):
                totals["[CLS]"][layer] += w[:, q, 0]
                totals["[SEP]"][layer] += sum(w[:, q, k] for k in range(len(ids))
                                              if ids[k] == tok.sep_token_id)
                if q > 0 and ids[q - 1] not in special:
                    totals["previous"][layer] += w[:, q, q - 1]
                if q + 1 < len(ids) and ids[q + 1] not in special:
                    totals["next"][layer] += w[:, q, q + 1]
        count += len(ids)
    return {t: v / count for t, v in totals.items()}


def test_attention_shares_equal_transformers(tiny_dirs):
    directory = tiny_dirs["masked-lm"]
    texts = ["The bank raised its rates.", "A much longer sentence about the river bank, "
             "where we sat unbothered for an hour.", "Short one."]
    model = load_model(directory, head=None)
    ours = attention.head_shares(model, load_tokenizer(directory), texts, batch_size=2)
    theirs = reference_shares(directory, texts)
    for target in attention.TARGETS:
        np.testing.assert_allclose(ours[target].numpy(), theirs[target], atol=1e-6)
        assert ((ours[target] >= 0) & (ours[target] <= 1)).all()
    assert (sum(ours.values()) <= 1 + 1e-6).all()


def test_attention_on_the_packaged_checkpoint(minilm, tmp_path, capsys):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("= Heading =\n\n" + "\n\n".join(
        f"Paragraph {i}: " + "The clerk checked the ledger and found the error near the end. " * 5
        for i in range(6)) + "\n\nToo short.\n")
    assert len(attention.read_paragraphs(corpus)) == 6
    assert main(["attention", str(minilm), "--corpus", str(corpus), "--out",
                 str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "the most previous-token head: layer" in out
    shares = json.loads((tmp_path / "out" / "shares.json").read_text())
    assert np.array(shares["previous"]).shape == (6, 12)
    for name in ("heads.png", "previous-head.png"):
        assert (tmp_path / "out" / name).stat().st_size > 10_000


@pytest.mark.skipif(not WIKITEXT.is_file(), reason=f"no corpus at {WIKITEXT}")
def test_attention_on_wikitext(minilm, tmp_path):
    paragraphs = attention.read_paragraphs(WIKITEXT, limit=32)
    assert len(paragraphs) == 32 and all(len(p) > 200 for p in paragraphs)
    model = load_model(minilm, head=None)
    shares = attention.head_shares(model, load_tokenizer(minilm), paragraphs)
    layer, head, share = attention.most_devoted(shares, "previous")
    assert share > 0.5  # MiniLM has a previous-token head, as BERT-base does
    path = attention.plot_heat_maps(shares, tmp_path / "heads.png", "MiniLM")
    assert path.stat().st_size > 10_000


def test_attention_bad_input(minilm, tmp_path, capsys):
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    assert main(["attention", str(minilm), "--corpus", str(empty), "--out", str(tmp_path)]) == 2
    assert "no paragraph longer than 200 characters" in capsys.readouterr().err
    latin = tmp_path / "latin.txt"
    latin.write_bytes("café ".encode("latin-1") * 100)
    with pytest.raises(BertforgeError, match="not UTF-8"):
        attention.read_paragraphs(latin)
    with pytest.raises(BertforgeError, match="no corpus file"):
        attention.read_paragraphs(tmp_path / "missing.txt")


# ------------------------------------------------------------------ report
def test_report_for_a_masked_lm(tiny_dirs, tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("\n\n".join("The clerk checked the ledger and found the error. " * 6
                                  for _ in range(3)))
    assert main(["report", str(tiny_dirs["masked-lm"]), "--out", str(tmp_path / "r"),
                 "--corpus", str(corpus)]) == 0
    page = (tmp_path / "r" / "index.html").read_text()
    for piece in ("Blueprint", "Masked-LM loss", "Birds cannot [MASK].", "bias.png",
                  "heads.png", "previous-head.png", "parameters.png"):
        assert piece in page
    for name in ("bias.png", "heads.png", "previous-head.png", "parameters.png"):
        assert (tmp_path / "r" / name).is_file()


def test_report_for_an_encoder_without_head(minilm, tmp_path):
    assert main(["report", str(minilm), "--out", str(tmp_path / "r")]) == 0
    page = (tmp_path / "r" / "index.html").read_text()
    assert "No masked-LM head" in page and "No corpus given" in page


def test_cli_texts_after_options_and_loss(tiny_dirs, capsys):
    model = str(tiny_dirs["masked-lm"])
    assert main(["probe", model, "--top-k", "2", SENTENCES[0]]) == 0
    assert SENTENCES[0] in capsys.readouterr().out
    assert main(["probe", model, "--loss", "--repeats", "3", "The bank raised its rates again."]) == 0
    out = capsys.readouterr().out
    assert "the same network at BERT's initialisation" in out and "3 random maskings" in out
    assert main(["probe", model]) == 2
    assert "give a text with [MASK]" in capsys.readouterr().err
