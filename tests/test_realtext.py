"""The redactor on real annotated text: several sources mixed by weight, each with its
label map; the public corpora's maps (BTC's handles); contract prose; scores on the
groups a corpus marks; the card naming the corpora and their licences."""

import json
from collections import Counter

import numpy as np
import pytest

from bertforge.errors import BertforgeError
from bertforge.finetune.fit import mix
from bertforge.spans import Span

WIKIGOLD = "".join(f"-DOCSTART- O\n\nAnn B-PER\nLee I-PER\nof O\nAcme I-ORG\nsang O\nin O\n"
                   f"Paris I-LOC\n{k} O\n\n" for k in range(10))


@pytest.fixture
def corpora(tmp_path, monkeypatch):
    """A corpus root holding a tiny wikigold of ten articles (the 8th: validation, the
    9th: test)."""
    (tmp_path / "corpora" / "wikigold").mkdir(parents=True)
    (tmp_path / "corpora" / "wikigold" / "wikigold.conll.txt").write_text(WIKIGOLD)
    monkeypatch.setenv("BERTFORGE_CORPORA", str(tmp_path / "corpora"))
    return tmp_path / "corpora"


def test_mix_gives_each_source_its_share_of_the_windows():
    features = [{"source": "a", "i": i} for i in range(900)] + \
               [{"source": "b", "i": i} for i in range(100)]
    mixed = mix(features, {"a": 1, "b": 1}, seed=0)
    assert len(mixed) == 1000
    assert Counter(f["source"] for f in mixed) == {"a": 500, "b": 500}
    # b is repeated whole five times; a is sampled without repeats
    assert Counter(f["i"] for f in mixed if f["source"] == "b") == {i: 5 for i in range(100)}
    assert len({f["i"] for f in mixed if f["source"] == "a"}) == 500
    assert mixed == mix(features, {"a": 1, "b": 1}, seed=0)
    assert mixed != mix(features, {"a": 1, "b": 1}, seed=1)
    shares = Counter(f["source"] for f in mix(features, {"a": 0.2, "b": 0.8}))
    assert shares == {"a": 200, "b": 800}
    assert "a" not in Counter(f["source"] for f in mix(features, {"a": 0, "b": 1}))
    for weights, message in (({"a": 1}, "no weight for source"), ({"a": -1, "b": 1}, "zero or more"),
                             ({"a": 0, "b": 0}, "not all zero"),
                             ({"a": 1, "b": 1, "c": 1}, "have a weight but no windows")):
        with pytest.raises(BertforgeError, match=message):
            mix(features, weights)


def test_sources_take_one_weight_and_map_for_all_or_one_each():
    from bertforge.pii.train import Source, sources_of

    assert sources_of("a.jsonl") == [Source("a.jsonl")]
    assert sources_of(["a", "b"], [1, 3], "PER=PERSON") == [Source("a", 1.0, "PER=PERSON"),
                                                            Source("b", 3.0, "PER=PERSON")]
    assert sources_of(["a", "b"], None, ["X=PERSON", None])[1] == Source("b", 1.0, None)
    with pytest.raises(BertforgeError, match="3 weights for 2 training sources"):
        sources_of(["a", "b"], [1, 2, 3])
    with pytest.raises(BertforgeError, match="weights are zero or more"):
        sources_of(["a", "b"], [1, -2])


def test_corpora_are_read_with_the_redactors_map_for_them(corpora):
    from bertforge.pii.dataset import marked_groups, read_documents

    test = read_documents("wikigold:test")
    assert len(test) == 1 and test[0]["text"].endswith(" 8")  # the ninth article
    # PER is a person; ORG ignored (teams and bands are not companies); LOC plain text
    [doc] = test
    assert [(doc["text"][s.start:s.end], s.label) for s in doc["spans"]] == [("Ann Lee", "PERSON")]
    assert [doc["text"][s:e] for s, e in doc["ignore"]] == ["Acme"]
    assert marked_groups("wikigold:test") == ["PERSON"]
    assert marked_groups("wnut17:test") == ["PERSON", "COMPANY"]
    assert marked_groups("data/train.jsonl") is None
    # a map given by the user wins over the corpus's own
    [doc] = read_documents("wikigold:test", labels="PER=PERSON,ORG=COMPANY,LOC=ADDRESS,*=O")
    assert [s.label for s in doc["spans"]] == ["PERSON", "COMPANY", "ADDRESS"]


def test_handles_are_ignored_not_taught_as_names():
    from bertforge.pii.dataset import handles_ignored

    text = "@ colgo hey Ann Lee and @ bob_k or @jo_b"
    example = {"text": text, "spans": [Span(a, b, "PERSON") for a, b in (
        (0, 1), (2, 7), (12, 19), (24, 25), (26, 31), (35, 40))], "ignore": []}
    out = handles_ignored(example)
    assert [text[s.start:s.end] for s in out["spans"]] == ["Ann Lee"]
    assert [text[s:e] for s, e in out["ignore"]] == ["@", "colgo", "@", "bob_k", "@jo_b"]


def test_contract_prose_marks_parties_and_signatories_and_no_defined_term():
    from bertforge.pii.legal import DOCUMENTS, ROLES, TERMS, generate_legal

    rows = generate_legal(60, seed=0)
    assert rows == generate_legal(60, seed=0) and rows != generate_legal(60, seed=1)
    defined = set(ROLES) | set(TERMS) | set(DOCUMENTS)
    labels = Counter()
    for row in rows:
        text = row["generated_text"]
        for span in json.loads(row["pii_spans"]):
            value = text[span["start"]:span["end"]]
            labels[span["label"]] += 1
            assert value.strip() == value and value not in defined, value
    assert {"company", "name", "date"} <= set(labels)
    words = " ".join(r["generated_text"] for r in rows)
    assert sum(words.count(term) for term in ("Servicer", "Liens", "Indenture")) > 60


def test_listings_mark_every_name_between_numbers_and_no_country_or_score():
    from bertforge.pii.listings import COUNTRIES, LAYOUTS, generate_listings

    rows = generate_listings(40, seed=0)
    assert rows == generate_listings(40, seed=0) and rows != generate_listings(40, seed=1)
    assert {r["template"] for r in rows} == {f"listings/{f.__name__}" for f in LAYOUTS}
    labels = Counter()
    for row in rows:
        text, spans = row["generated_text"], json.loads(row["pii_spans"])
        assert all(a["end"] <= b["start"] for a, b in zip(spans, spans[1:]))  # apart, in order
        for span in spans:
            value = text[span["start"]:span["end"]]
            labels[span["label"]] += 1
            assert value.strip() == value and value not in COUNTRIES, value
            if span["label"] != "date":
                assert not any(c.isdigit() for c in value), value
        # the names a scorecard line holds: batsman, fielder and bowler all marked
        for line in text.splitlines():
            if " c " in line and " b " in line and "Bowling" not in line:
                start = len(text.split(line)[0])
                inside = [s for s in spans if start <= s["start"] < start + len(line)]
                assert len(inside) == 3, line
    assert {"name", "last_name", "first_name", "date"} <= set(labels)
    assert sum(r["generated_text"].count(" ( ") > 0 for r in rows) > 5  # the spaced style
    assert sum("(" in r["generated_text"] and " ( " not in r["generated_text"]
               for r in rows) > 5                                       # and running text's


def test_sentences_are_given_an_unrelated_paragraph_beside_them_with_their_own_labels():
    from bertforge.pii.train import paragraphs, with_neighbours

    letter = "Dear Ann Lee,\n\nPlease pay invoice 4410 to Acme Corp by Friday.\n\n" \
             "Address: 12 Oak Street,\n\nSpringfield\n\nRegards, Bo Park, Acme Corp"
    found = {s: letter.index(s) for s in ("Ann Lee", "Acme Corp", "Bo Park")}
    spans = sorted([Span(found["Ann Lee"], found["Ann Lee"] + 7, "PERSON", "Ann Lee"),
                    Span(found["Acme Corp"], found["Acme Corp"] + 9, "COMPANY", "Acme Corp"),
                    Span(letter.index("12 Oak"), letter.index("Springfield") + 11, "ADDRESS",
                         "12 Oak Street,\n\nSpringfield"),
                    Span(found["Bo Park"], found["Bo Park"] + 7, "PERSON", "Bo Park")])
    generated = {"text": letter, "spans": spans, "source": 0}
    # paragraphs of 20-800 characters; the address runs over a blank line: its two are left out
    assert [(p, [s.text for s in ps]) for p, ps in paragraphs(generated, shortest=20)] == [
        ("Please pay invoice 4410 to Acme Corp by Friday.", ["Acme Corp"]),
        ("Regards, Bo Park, Acme Corp", ["Bo Park"])]
    tweets = []
    for k in range(400):
        text = f"RT @ fan{k} : Cy Ray scored"
        at = text.index("Cy Ray")
        tweets.append({"text": text, "spans": [Span(at, at + 6, "PERSON", "Cy Ray")],
                       "ignore": [(5, at - 3)], "source": 1})
    documents = [generated] + tweets
    out = with_neighbours(documents, 0.3, seed=0)
    assert out[0] is generated and len(out) == len(documents)  # whole documents as they were
    joined = [(d, t) for d, t in zip(out[1:], tweets) if d["text"] != t["text"]]
    assert 90 <= len(joined) <= 150  # about 30% of the 400
    assert all(d["source"] == 1 for d, _ in joined)  # a joined sentence counts for its source
    before = sum(d["text"].startswith(t["text"]) for d, t in joined)
    assert 0.3 < before / len(joined) < 0.7  # the paragraph before or after the sentence
    for d, t in joined:
        assert t["text"] in d["text"].split("\n\n")
        assert all(d["text"][s.start:s.end] == s.text for s in d["spans"])
        assert "Cy Ray" in [s.text for s in d["spans"]]
        assert len(d["spans"]) == 2  # the sentence's name and the paragraph's own span
        assert [d["text"][a:b] for a, b in d["ignore"]] == [t["text"][a:b] for a, b in t["ignore"]]
    assert out == with_neighbours(documents, 0.3, seed=0) != with_neighbours(documents, 0.3, seed=1)
    assert with_neighbours(documents, 0.0) is documents
    with pytest.raises(BertforgeError, match="Gretel's schema"):
        with_neighbours(tweets, 0.3)
    with pytest.raises(BertforgeError, match="in \\[0, 1\\]"):
        with_neighbours(documents, 1.5)


def test_training_mixes_sources_and_the_card_names_the_corpora(corpora, tiny_dirs, tmp_path,
                                                               capsys):
    from bertforge.cli import main

    data = tmp_path / "data"
    assert main(["pii", "generate", "--out", str(data), "--train", "20", "--validation", "0",
                 "--test", "0", "--legal", "10", "--listings", "4"]) == 0
    assert (data / "legal.jsonl").is_file() and (data / "listings.jsonl").is_file()
    model = tmp_path / "model"
    assert main(["pii", "train", str(data / "train.jsonl"), str(data / "legal.jsonl"),
                 "wikigold:train", "--weights", "2,1,1", "--out", str(model), "--base",
                 str(tiny_dirs[None]), "--steps", "2", "--window", "62", "--stride", "48",
                 "--neighbours", "0.5", "--quiet"]) == 0
    printed = capsys.readouterr().out
    assert "8 training documents from wikigold:train (weight 1)" in printed
    card = json.loads((model / "bertforge.json").read_text())
    assert [(s["data"].split("/")[-1], s["weight"]) for s in card["sources"]] == [
        ("train.jsonl", 2.0), ("legal.jsonl", 1.0), ("wikigold:train", 1.0)]
    assert card["recipe"]["neighbours"] == 0.5
    [corpus] = card["corpora"]
    assert corpus["name"] == "wikigold" and corpus["licence"] == "CC-BY 4.0"
    assert "Balasuriya" in corpus["citation"]
    assert main(["pii", "train", str(data / "train.jsonl"), "wikigold:train", "--weights",
                 "1,2,3", "--out", str(tmp_path / "bad"), "--base", str(tiny_dirs[None]),
                 "--steps", "1", "--quiet"]) == 2
    assert "3 weights for 2 training sources" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["pii", "train", "wikigold:train", "--weights", "a,b", "--out", str(tmp_path / "x")])
    assert "write one number per source" in capsys.readouterr().err
    # evaluation: the generator's documents and the corpus side by side, one line each
    assert main(["pii", "evaluate", str(data / "train.jsonl"), "wikigold:test", "--model",
                 str(model), "--limit", "5", "--out", str(tmp_path / "scores"), "--record"]) == 0
    printed = capsys.readouterr().out
    assert "scored on PERSON: the groups wikigold:test marks" in printed
    summary = printed[printed.rindex("source "):]
    assert "train.jsonl" in summary and "wikigold:test" in summary and "all" in summary
    assert (tmp_path / "scores" / "wikigold-test" / "scores.json").is_file()
    scores = json.loads((tmp_path / "scores" / "wikigold-test" / "scores.json").read_text())
    assert scores["groups_scored"] == ["PERSON"] and set(scores["scores"]["hybrid"]) <= {
        "PERSON", "micro"}
    recorded = json.loads((model / "bertforge.json").read_text())["evaluation"]
    assert set(recorded) == {str(data / "train.jsonl"), "wikigold:test"}
    assert recorded["wikigold:test"]["hybrid_f1"] == {k: v["f1"] for k, v in
                                                      scores["scores"]["hybrid"].items()}


def test_case_types_read_the_original_text():
    from bertforge.finetune.tagging import case_types

    text = "Ann LEE of iPhone said a 42 ok."
    offsets = [(0, 3), (4, 7), (8, 10), (11, 17), (18, 22), (23, 24), (25, 27), (28, 30), (30, 31)]
    assert case_types(text, offsets) == [2, 3, 0, 4, 0, 0, 0, 0, 0]
    assert case_types("A", [(0, 1)]) == [2]


def test_a_tagger_told_the_case_saves_what_a_reader_needs_and_matches_transformers(
        tiny_dirs, tmp_path):
    import torch
    from transformers import BertForTokenClassification

    from bertforge.finetune.fit import FitSettings
    from bertforge.finetune.tagging import Tagger, case_types, train_tagger

    examples = [{"text": f"Ann Lee met bob {k} in PARIS", "spans": [Span(0, 7, "PER")]}
                for k in range(16)]
    tagger = train_tagger(examples, tiny_dirs[None], FitSettings(steps=3, progress=False),
                          size=30, stride=20, case=True)
    segments = tagger.model.embeddings.segments.weight
    assert segments.shape[0] == 5 and not torch.equal(segments[2], segments[0])  # it learned
    tagger.save(tmp_path / "cased")
    card = json.loads((tmp_path / "cased" / "bertforge.json").read_text())
    assert card["token_types"] == "case" and "case shape" in card["inputs"]
    loaded = Tagger.load(tmp_path / "cased")
    assert loaded.case
    text = "Ann Lee met Bob in PARIS"
    ours = loaded.probabilities([text], precision="fp32")[1][0]  # parity is fp32
    assert not np.allclose(ours, Tagger(loaded.model, loaded.tokenizer).probabilities([text])[1][0])
    # transformers runs it as the plain BertForTokenClassification it is, given the case
    encoding = loaded.tokenizer.encode(text, add_special_tokens=False)
    ids = torch.tensor([[loaded.tokenizer.cls_id, *encoding.ids, loaded.tokenizer.sep_id]])
    types = torch.tensor([[0, *case_types(text, encoding.offsets), 0]])
    reference = BertForTokenClassification.from_pretrained(tmp_path / "cased").eval()
    with torch.no_grad():
        logits = reference(input_ids=ids, token_type_ids=types).logits[0, 1:-1]
    assert np.allclose(torch.softmax(logits, -1).numpy(), ours, atol=1e-5)


def test_every_type_of_the_real_corpora_has_a_place_in_the_redactors_map():
    from bertforge.finetune.corpora import CORPORA, corpora_root
    from bertforge.pii.dataset import read_documents

    if not (corpora_root() / "wikigold").is_dir():
        pytest.skip("the public corpora are not beside this checkout")
    for name in CORPORA:
        for split in ("train", "validation", "test"):
            documents = read_documents(f"{name}:{split}")  # an unmapped type would raise
            spans = [(s.text, s.label) for d in documents for s in d["spans"]]
            assert {g for _, g in spans} <= {"PERSON", "COMPANY"}
            assert sum(g == "PERSON" for _, g in spans) > 30  # wikigold:test holds 33
            assert sum(len(d["ignore"]) for d in documents) > 20  # ORG, groups, handles
            assert not any(text.startswith("@") or text == "@" for text, _ in spans)


CONTRACT = """SECTION 7.02. Liens. The Borrower shall not, and shall not permit any Restricted \
Subsidiary to, create, incur, assume or suffer to exist any Lien upon any of its property, \
whether now owned or hereafter acquired, except Permitted Encumbrances. The Servicer shall \
remit all Collections to the Indenture Trustee within two Business Days after receipt. Any \
notice given by facsimile shall be deemed received upon confirmation of transmission. Each \
Grantor agrees to indemnify the Collateral Agent (hereinafter, the "Agent") against all Losses \
arising under the Security Documents. The Guarantor is a Delaware limited partnership duly \
organized and validly existing, and the Pledged Equity constitutes Collateral.

IN WITNESS WHEREOF, the undersigned has executed this Amendment as of the date first written above.

By: /s/ Margaret O'Connell
Name: Margaret O'Connell
Title: Senior Vice President
"""


@pytest.mark.model_output
def test_the_bundled_redactor_masks_the_signatory_and_no_word_of_the_contract():
    """Written by hand for this test, in words the contract prose generator does not use
    ("Restricted Subsidiary", "Permitted Encumbrances", "Grantor", "Pledged Equity")."""
    from bertforge.pii import Redactor

    spans = Redactor.load().detect(CONTRACT)
    assert [(s.label, s.text) for s in spans] == [("PERSON", "Margaret O'Connell")] * 2
    assert min(s.score for s in spans) > 0.95


@pytest.mark.model_output
def test_a_signature_block_is_read_with_the_letter_before_it():
    """The demo's email (272 tokens) ends with the sender's address under her name; read
    in a window of its own, without the letter above it, the address was left in clear
    (docs/experiments/2026-12-02-paragraph-windows.md)."""
    from pathlib import Path

    from bertforge.pii import Redactor

    text = (Path(__file__).resolve().parents[1] / "examples/documents/wire-dispute-email.txt").read_text()
    spans = Redactor.load().detect(text)
    assert any(s.label == "ADDRESS" and s.text == "12 Wharf Street, Leeds LS2 7EQ" for s in spans)
