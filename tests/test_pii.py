"""The personal-data redactor: validators, patterns, the merge policy, redaction (a
property over arbitrary text and spans), the generator, the JSONL contract, long
documents, and the bundled model."""

import json
import re
from pathlib import Path

import pytest
from hypothesis import example, given, settings, strategies as st

from bertforge.cli import main
from bertforge.errors import BertforgeError
from bertforge.spans import Span
from bertforge.pii import patterns
from bertforge.pii.merge import merge
from bertforge.pii.recognizers import REGISTRY, default_recognizers, find
from bertforge.pii.labels import FINE_LABELS, GROUP_OF, GROUPS, MULTILINE, group
from bertforge.pii.redact import STYLES, Entities, _replacement, fake_value, html, redact

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


# ------------------------------------------------------------------ labels
def spans_at(text: str, values) -> list:
    """Model spans over each value (a string, a PERSON; or a (string, label) pair, or a
    (string, label, n) triple for its n-th later place) at its first place in the text,
    as the model gave them in a record's probe."""
    out = []
    for value in values:
        value, label, nth = (value, "PERSON", 0) if isinstance(value, str) else (*value, 0)[:3]
        start = -1
        for _ in range(nth + 1):
            start = text.index(value, start + 1)
        out.append(Span(start, start + len(value), label, value, 0.9, "model"))
    return out


def spans_in_turn(text: str, values) -> list:
    """Model spans over each value (a string, a PERSON; or a (string, label) pair) where
    it next occurs after the value before it, as the model gave them in a record's probe."""
    out, at = [], 0
    for value in values:
        value, label = (value, "PERSON") if isinstance(value, str) else value
        at = text.index(value, at)
        out.append(Span(at, at + len(value), label, value, 0.9, "model"))
        at += len(value)
    return out


def test_29_labels_in_12_groups():
    assert len(FINE_LABELS) == 29 and len(GROUPS) == 12
    assert set(GROUP_OF.values()) == set(GROUPS)
    assert group("iban") == "BANK" and group("PERSON") == "PERSON"
    with pytest.raises(BertforgeError, match="unknown personal-data label"):
        group("shoe_size")


# ------------------------------------------------------------------ validators
@pytest.mark.parametrize("iban", ["GB82 WEST 1234 5698 7654 32", "DE89370400440532013000",
                                  "FR1420041010050500013M02606", "NL91ABNA0417164300"])
def test_valid_ibans(iban):
    assert patterns.valid_iban(iban)


@pytest.mark.parametrize("iban", ["GB82 WEST 1234 5698 7654 33", "DE89370400440532013001",
                                  "DE8937040044053201300", "XX89370400440532013000", "GB82"])
def test_invalid_ibans(iban):
    assert not patterns.valid_iban(iban)


@pytest.mark.parametrize("card", ["4111 1111 1111 1111", "5500-0000-0000-0004",
                                  "378282246310005", "6011111111111117", "3530111333300000"])
def test_valid_cards(card):
    assert patterns.valid_card(card)


@pytest.mark.parametrize("card", ["4111 1111 1111 1112",   # Luhn fails
                                  "1234 5678 9012 3452",   # Luhn passes, no issuer
                                  "41111111111",           # too short
                                  "5500 0000 0000 00004"])  # wrong length for the scheme
def test_invalid_cards(card):
    assert not patterns.valid_card(card)


def test_routing_numbers_and_ssns():
    for good in ("011000015", "021000021", "121000358"):
        assert patterns.valid_routing(good)
    for bad in ("011000016", "991000021", "12345678"):
        assert not patterns.valid_routing(bad)
    for good in ("123-45-6789", "078-05-1120", "123456789"):
        assert patterns.valid_ssn(good)
    for bad in ("000-12-3456", "666-12-3456", "912-34-5678", "123-00-4567", "123-45-0000"):
        assert not patterns.valid_ssn(bad)


def test_bic_needs_a_country():
    assert patterns.valid_bic("DEUTDEFF") and patterns.valid_bic("NWBKGB2L") \
        and patterns.valid_bic("CHASUS33XXX")
    assert not patterns.valid_bic("DEUTQQFF") and not patterns.valid_bic("DEUTDEF")


def kinds(text):
    return {(text[m.start:m.end], m.kind) for m in find(text)}


def test_patterns_find_each_shape_in_context():
    text = ("Pay GB82 WEST 1234 5698 7654 32 (BIC NWBKGB2L) from card 4111-1111-1111-1111, "
            "CVV 123. Routing number 021000021; SSN 123-45-6789. Mail jane.doe@example.co.uk "
            "from 192.168.0.12 or 2001:db8::8a2e:370:7334 on 2024-03-15 at 14:30, "
            "call (212) 555-0187.")
    found = kinds(text)
    for item in [("GB82 WEST 1234 5698 7654 32", "iban"), ("NWBKGB2L", "swift_bic_code"),
                 ("4111-1111-1111-1111", "credit_card_number"), ("123", "credit_card_security_code"),
                 ("021000021", "bank_routing_number"), ("123-45-6789", "ssn"),
                 ("jane.doe@example.co.uk", "email"), ("192.168.0.12", "ipv4"),
                 ("2001:db8::8a2e:370:7334", "ipv6"), ("2024-03-15 at 14:30", "date"),
                 ("(212) 555-0187", "phone_number")]:
        assert item in found, (item, found)


def test_patterns_reject_lookalikes():
    text = ("Invoice INV-2023-00417 for $4,111.11, 12.5% APR, order 4111111111111112, "
            "version 1.2.3.4.5, 999.1.1.1, ratio 12:75, product 123456789 (no keyword), "
            "date 2023-02-30, STATEMENT BUSINESS")
    assert kinds(text) == set(), kinds(text)


def test_cvv_needs_its_keyword():
    assert ("482", "credit_card_security_code") in kinds("security code: 482")
    assert not any(k == "credit_card_security_code" for _, k in kinds("room 482"))


# ------------------------------------------------------------------ merge policy
def test_checked_pattern_beats_the_model_and_model_wins_elsewhere():
    text = "Send to GB82WEST12345698765432 for Jane Smith on 15/03/2024."
    model = [Span(8, 20, "ACCOUNT", text[8:20], 0.6),          # a piece of the IBAN
             Span(35, 45, "PERSON", "Jane Smith", 0.9),
             Span(49, 59, "DATE", "15/03/2024", 0.8)]
    merged = merge(model, find(text), text)
    got = [(s.text, s.label, s.source) for s in merged]
    assert got == [("GB82WEST12345698765432", "BANK", "pattern"),
                   ("Jane Smith", "PERSON", "model"),
                   ("15/03/2024", "DATE", "model")]
    # what is left of a model span once the checked match took its part must be of its
    # group's shape: a verb before an IBAN is no bank's number (the bank-shapes record),
    # while a name's two letters are a name
    text = "Ihre IBAN lautet DE89 3704 0044 0532 0130 00 Wu DE89370400440532013000"
    first, second = text.index("lautet"), text.index("Wu")
    model = [Span(first, 44, "BANK", text[first:44], 0.9),
             Span(second, len(text), "PERSON", text[second:], 0.9)]
    assert [(s.text, s.label) for s in merge(model, find(text), text)] == [
        ("DE89 3704 0044 0532 0130 00", "BANK"), ("Wu", "PERSON"),
        ("DE89370400440532013000", "BANK")]
    # and the scheme's name that labels the value is no part of what is left (the
    # scheme-labels record): "Standard Bank of South Africa, SWIFT" is the bank; a
    # scheme's letters ending a word ("MARTIN") are not cut
    text = ("Beneficiary Bank: Standard Bank of South Africa, SWIFT SBZAZAJJ\n"
            "Payee: JAMES MARTIN GB82WEST12345698765432")
    bank, payee = text.index("Standard"), text.index("JAMES")
    model = [Span(bank, text.index("\n"), "COMPANY", text[bank:text.index("\n")], 0.9),
             Span(payee, len(text), "PERSON", text[payee:], 0.9)]
    assert [(s.text, s.label) for s in merge(model, find(text), text)] == [
        ("Standard Bank of South Africa", "COMPANY"), ("SBZAZAJJ", "BANK"),
        ("JAMES MARTIN", "PERSON"), ("GB82WEST12345698765432", "BANK")]


def test_unchecked_patterns_fill_what_the_model_missed():
    text = "Meeting on March 3, 2024; call +44 20 7946 0958."
    merged = merge([], find(text, default_recognizers("GB")), text)
    assert [(s.text, s.label) for s in merged] == [("March 3, 2024", "DATE"),
                                                   ("+44 20 7946 0958", "PHONE")]
    # a number after an account's keyword that is also a valid phone number is the
    # account's (the keyed-accounts record); the same number alone is a phone number
    text = "Please credit acct no. 2125550187 today, or call 2125550187."
    merged = merge([], find(text), text)
    assert [(s.text, s.label) for s in merged] == [("2125550187", "ACCOUNT"),
                                                   ("2125550187", "PHONE")]



def test_a_pattern_replaces_only_the_model_spans_inside_it():
    """The fragments-inside record: a firm pattern whose match overlaps the model's date
    ("Jul-2020" of "22-Jul-2020") does not replace it, which would leave "22-" in clear;
    model fragments inside a match are still replaced by it."""
    from bertforge.pii.patterns import PatternMatch

    text = "22-Jul-2020 Train Westonton Credit Union LLP; paid Harbor Lane Trust"
    date = Span(0, 11, "DATE", "22-Jul-2020", 0.9)
    firm = Span(18, 44, "COMPANY", "Westonton Credit Union LLP", 0.9)
    piece = Span(51, 57, "COMPANY", "Harbor", 0.9)
    matches = [PatternMatch(3, 40, "COMPANY", False, "banks"),
               PatternMatch(51, 68, "COMPANY", False, "firms")]
    merged = merge([date, firm, piece], matches, text)
    assert [(s.text, s.label, s.source) for s in merged] == [
        ("22-Jul-2020", "DATE", "model"), ("Westonton Credit Union LLP", "COMPANY", "model"),
        ("Harbor Lane Trust", "COMPANY", "pattern")]


def test_a_pattern_that_knows_only_where_a_firm_ends_leaves_its_start_to_the_model():
    """The firm-forms record's amendment: a legal form says where a firm's name ends, not
    where it starts. A model COMPANY span that ends with such a match and starts inside it
    stands ("Taxi [First Philippe & Co.]"); a model fragment that ends before the form
    still gives way ("[Aker] BP ASA"); a pattern sure of its start replaces both."""
    from bertforge.pii.patterns import PatternMatch

    text = "Taxi First Philippe & Co. paid; Aker BP ASA rose"
    firm = Span(5, 25, "COMPANY", "First Philippe & Co.", 0.9)
    piece = Span(32, 36, "COMPANY", "Aker", 0.9)
    matches = [PatternMatch(0, 25, "COMPANY", False, "firm_forms", sure_start=False),
               PatternMatch(32, 43, "COMPANY", False, "firm_forms", sure_start=False)]
    merged = merge([firm, piece], matches, text)
    assert [(s.text, s.source) for s in merged] == [("First Philippe & Co.", "model"),
                                                     ("Aker BP ASA", "pattern")]
    sure = [PatternMatch(0, 25, "COMPANY", False, "cells"), matches[1]]
    assert [s.text for s in merge([firm, piece], sure, text)] == ["Taxi First Philippe & Co.",
                                                                  "Aker BP ASA"]


def test_a_model_firm_that_starts_on_a_firms_word_leaves_the_legal_forms_match_its_start():
    """The firm-words-never-start-firms record's case (the hand-written validation set's
    collection letter): a model span that ends with a legal form's match and starts on a
    firm's word inside it ("[Finance Ltd]" of "Everyday Finance Ltd") was cut short: the
    match stands; one that starts on "Bank" says where the firm starts ("[Bank Leumi
    Ltd]")."""
    from bertforge.pii.patterns import PatternMatch

    text = "acts for Everyday Finance Ltd; paid Sunny Bank Leumi Ltd"
    cut = Span(18, 29, "COMPANY", "Finance Ltd", 0.9)
    bank = Span(42, 56, "COMPANY", "Bank Leumi Ltd", 0.9)
    matches = [PatternMatch(9, 29, "COMPANY", False, "firm_forms", sure_start=False),
               PatternMatch(36, 56, "COMPANY", False, "firm_forms", sure_start=False)]
    assert [(s.text, s.source) for s in merge([cut, bank], matches, text)] == [
        ("Everyday Finance Ltd", "pattern"), ("Bank Leumi Ltd", "model")]


def test_a_person_and_a_firm_after_a_comma_on_one_line_are_two_values():
    """The copy-lists record's probe: "Deirdre Fitzsimmons, Baker Whitcombe LLP", a firm's
    cell over a person the model found and a firm it missed, is the person and the firm;
    a one-word person ("Wachtell"), a person with only a legal form after the comma, a
    person with no comma after it and a person who is not where the match starts leave
    the firm's match whole, and so does a firm's span over the name; a match of another
    group is no firm's."""
    from bertforge.pii.patterns import PatternMatch

    lines = ["Deirdre Fitzsimmons, Baker Whitcombe LLP", "Wachtell, Lipton, Rosen & Katz LLP",
             "Jane Doe, LLC", "Jane Doe Baker Whitcombe LLP", "Acme Jane Doe, Baker Whitcombe LLP"]
    people = ["Deirdre Fitzsimmons", "Wachtell", "Jane Doe", "Jane Doe", "Jane Doe"]
    text = "\n".join(lines)
    spans, matches, at = [], [], 0
    for line, person in zip(lines, people):
        start = text.index(person, at)
        spans.append(Span(start, start + len(person), "PERSON", person, 0.99, "model"))
        matches.append(PatternMatch(at, at + len(line), "COMPANY", False, "firm_cells"))
        at += len(line) + 1
    assert [(s.text, s.label) for s in merge(spans, matches, text)] == [
        ("Deirdre Fitzsimmons", "PERSON"), ("Baker Whitcombe LLP", "COMPANY")] + [
        (line, "COMPANY") for line in lines[1:]]
    spans[0] = Span(spans[0].start, spans[0].end, "COMPANY", spans[0].text, 0.99, "model")
    assert merge(spans, matches, text)[0].text == lines[0]
    # a match of another group over the line keeps it whole
    text = "Ann Lee, 12 Elm Road Leeds"
    assert [s.text for s in merge([Span(0, 7, "PERSON", "Ann Lee", 0.99, "model")],
                                  [PatternMatch(0, 26, "ADDRESS", False, "x")], text)] == [text]


def test_a_model_span_that_lists_known_firms_gives_way_to_them():
    """The known-firms record's fourth probe: the model reads "Coinbase and Binance" as
    one firm; the `firms` pattern finds both, so the list becomes two spans (and a listed
    firm with "and" in its name stays one). A span the pattern knows only one firm of
    ("Binance and Sons"), or with other words between the firms, stays the model's."""
    text = ("Coinbase and Binance froze it; Klarna, Afterpay & Zelle declined. Slaughter and "
            "May and Coinbase met. Binance and Sons, and Klarna loans or Afterpay, did not.")

    def model(value):
        return Span(text.index(value), text.index(value) + len(value), "COMPANY", value, 0.9)

    spans = [model("Coinbase and Binance"), model("Klarna, Afterpay & Zelle"),
             model("Slaughter and May and Coinbase"), model("Binance and Sons"),
             model("Klarna loans or Afterpay")]
    merged = merge(spans, find(text, [REGISTRY["firms"]("US")]), text)
    assert [(s.text, s.source) for s in merged] == [
        ("Coinbase", "pattern"), ("Binance", "pattern"), ("Klarna", "pattern"),
        ("Afterpay", "pattern"), ("Zelle", "pattern"), ("Slaughter and May", "pattern"),
        ("Coinbase", "pattern"), ("Binance and Sons", "model"), ("Klarna loans or Afterpay", "model")]


def _stub_model(redactor, spans_of):
    """The redactor's tagger answers `spans_of(text)` instead of running the network."""
    redactor.tagger.predict = lambda texts, *args, **kwargs: [spans_of(t) for t in texts]
    return redactor


def test_floors_drop_unsure_model_spans_and_let_patterns_in(tiny_redactor_dir):
    from bertforge.pii import Redactor

    text = "Paid on 15/03/2024 to Jane Smith."
    guesses = [Span(8, 18, "ACCOUNT", "15/03/2024", 0.93),
               Span(22, 32, "PERSON", "Jane Smith", 0.9)]
    found = lambda floors: [(s.text, s.label, s.source) for s in _stub_model(
        Redactor.load(tiny_redactor_dir, floors=floors), lambda t: guesses).detect(text)]
    assert found({}) == [("15/03/2024", "ACCOUNT", "model"), ("Jane Smith", "PERSON", "model")]
    assert found({"ACCOUNT": 0.99}) == [("15/03/2024", "DATE", "pattern"),
                                        ("Jane Smith", "PERSON", "model")]
    assert found({"ACCOUNT": 0.9}) == found({})  # at or above the floor: kept
    for bad in ({"SHOE": 0.5}, {"ACCOUNT": 1.5}, {"ACCOUNT": "high"}):
        with pytest.raises(BertforgeError, match="floor"):
            Redactor.load(tiny_redactor_dir, floors=bad)



def test_a_name_read_as_an_email_is_made_a_name_only_past_the_emails_floor(tiny_redactor_dir):
    """The name-shapes record's second version, through the detector: "Chidi" read as
    an email becomes a name when the email's floor keeps it, and goes with it when not."""
    from bertforge.pii import Redactor

    # not after a sign-off ("Thanks, Chidi"), where the greeted-names recognizer finds the
    # name whatever the model's floor
    text = "ok, Chidi"
    guesses = [Span(4, 9, "EMAIL", "Chidi", 0.8)]
    found = lambda floors: [(s.text, s.label) for s in _stub_model(
        Redactor.load(tiny_redactor_dir, floors=floors), lambda t: guesses).detect(text)]
    assert found({"EMAIL": 0.7}) == [("Chidi", "PERSON")]
    assert found({"EMAIL": 0.9}) == []

def test_calibrate_chooses_floors_on_validation_and_writes_the_card(tiny_redactor_dir, tmp_path):
    import shutil

    from bertforge.pii import Redactor
    from bertforge.pii.evaluate import calibrate

    lines = []
    for i in range(25):  # 25 account numbers; the model also takes each rule code for one
        lines += [f"=== doc {i}", f"Account [[ACCOUNT:{40000000 + i}]] hit rule XSF-{7000 + i} "
                                  f"for [[PERSON:Ann Lee]]."]
    validation = tmp_path / "validation.txt"
    validation.write_text("\n".join(lines) + "\n", encoding="utf-8")

    def model(text):
        a, r, p = text.index("4000"), text.index("XSF"), text.index("Ann")
        return [Span(a, a + 8, "ACCOUNT", text[a:a + 8], 1.0),
                Span(r, r + 8, "ACCOUNT", text[r:r + 8], 0.9),
                Span(p, p + 7, "PERSON", text[p:p + 7], 0.91)]

    directory = tmp_path / "model"
    shutil.copytree(tiny_redactor_dir, directory)
    redactor = _stub_model(Redactor.load(directory), model)
    result = calibrate(str(validation), redactor, write=True, say=lambda *_: None)
    # every floor above 0.9 drops the codes; ties go to the lowest. PERSON: 25 spans,
    # all right, so a floor would only lose them. F1 0.667 -> 1.0
    assert result["floors"] == {"ACCOUNT": 0.95}
    assert result["before"]["ACCOUNT"] == pytest.approx(2 / 3, abs=1e-4)
    assert result["after"]["ACCOUNT"] == 1.0 and result["after"]["PERSON"] == 1.0
    card = json.loads((directory / "bertforge.json").read_text())
    assert card["floors"] == {"ACCOUNT": 0.95}
    assert "ACCOUNT 0.6667 -> 1.0000" in card["floors_choice"]
    assert card["threshold"] == redactor.threshold
    assert Redactor.load(directory).floors == {"ACCOUNT": 0.95}
    few = tmp_path / "few.txt"  # under 20 gold spans of a group: no floor for it
    few.write_text("\n".join(lines[:20]) + "\n", encoding="utf-8")
    assert calibrate(str(few), redactor, say=lambda *_: None)["floors"] == {}


def test_micr_line_gives_routing_and_account():
    text = "Memo: INV2024-40830\n\n⑆026644013⑆ 321218070885⑈ 437\n⑆20 66 33⑆ 41926819⑈ 12"
    found = kinds(text)
    for item in [("026644013", "bank_routing_number"), ("321218070885", "bban"),
                 ("20 66 33", "bank_routing_number"), ("41926819", "bban")]:
        assert item in found, (item, found)
    assert not any(value in ("437", "12", "INV2024-40830") for value, _ in found)
    assert not any(k == "bban" for _, k in kinds("account 321218070885, cheque 437"))


def test_swift_figures_and_payment_references_are_not_personal_data():
    text = (":20:STMT-0042\n:25:GB82WEST12345698765432\n:28C:00001/001\n"
            ":60F:C240131EUR1234,56\n:61:2402010201D12,50NTRFNONREF\n:86:Jane Smith rent\n"
            ":62F:C240229EUR1222,06\n-\n<EndToEndId>ORD-384337573</EndToEndId>")
    model = []
    for value, label in [("C240131EUR1234", "BANK"), ("2402010201D12", "BANK"),
                         ("50NTRFNONREF", "ACCOUNT"), ("Jane Smith", "PERSON"),
                         ("C240229EUR1222,06", "BANK"), ("ORD-384337573", "ACCOUNT")]:
        start = text.find(value)
        model.append(Span(start, start + len(value), label, text[start:start + len(value)], 0.9))
    merged = merge(sorted(model, key=lambda s: s.start), find(text), text)
    assert [(s.text, s.label) for s in merged] == [("GB82WEST12345698765432", "BANK"),
                                                   ("Jane Smith", "PERSON")]
    # the same figures outside a SWIFT field stay the model's to judge
    loose = "Ref C240131EUR1234 was paid."
    kept = merge([Span(4, 18, "BANK", "C240131EUR1234", 0.9)], find(loose), loose)
    assert [s.text for s in kept] == ["C240131EUR1234"]


def test_java_class_names_and_stack_frames_are_not_personal_data():
    """The java-names record's probe, with the model's spans as it gave them: a logger's
    abbreviated name, an exception's class and a stack frame are code, and the model's
    names, firms and secrets inside them go; the customer's name and an email stay, and
    so does a name after a full stop with no space ("fine.Thanks John") and a domain's
    dotted words in lower case."""
    text = ("ERROR c.n.p.PaymentService - failed for Karen Oyelaran: "
            "java.lang.IllegalStateException\n\tat com.northgate.payments.PaymentService"
            ".charge(PaymentService.java:142)\nmail karen.m.oyelaran@gmail.com; all fine.Thanks "
            "John. See registry.northgate.io")
    model = []
    for value, label in [("c.n.p.", "PERSON"), ("Karen Oyelaran", "PERSON"),
                         ("java.lang.IllegalStateException", "DIGITAL"), ("com", "COMPANY"),
                         ("142", "DIGITAL"), ("Thanks John", "PERSON"), ("northgate", "COMPANY")]:
        start = text.rfind(value) if value == "northgate" else text.find(value)
        model.append(Span(start, start + len(value), label, value, 0.9))
    merged = merge(sorted(model, key=lambda s: s.start), find(text), text)
    assert [(s.text, s.label) for s in merged] == [
        ("Karen Oyelaran", "PERSON"), ("karen.m.oyelaran@gmail.com", "EMAIL"),
        ("Thanks John", "PERSON"), ("northgate", "COMPANY")]


def test_a_court_reporters_citation_is_not_personal_data():
    """The case-citations record's probe, with the model's spans as it gave them: a
    reporter's citation read as an address, a joint appendix's initials read as a person
    and its pages as an ID go; the case's parties stay, and so do an address's numbers, a
    number before a word that is no reporter and a person's initials before a name."""
    text = ("Cortez v. Trans Union, LLC, 617 F.3d 688, 706 (3d Cir. 2010); see also J.A. "
            "214-16; 578 U.S. 330, 339. Mail to Unit 5 Block 12, Harbor Estate; J.A. Smith paid "
            "2021 WL 4307384.")
    model = spans_in_turn(text, ["Cortez", ("Trans Union, LLC", "COMPANY"),
                                 ("617 F.3d 688, 706", "ADDRESS"), "J.A.", ("214-16", "GOV_ID"),
                                 ("578 U.S. 330", "ADDRESS"), ("Unit 5 Block 12, Harbor Estate", "ADDRESS"),
                                 "J.A. Smith", ("4307384", "ACCOUNT")])
    assert [(s.text, s.label) for s in merge(model, [], text)] == [
        ("Cortez", "PERSON"), ("Trans Union, LLC", "COMPANY"),
        ("Unit 5 Block 12, Harbor Estate", "ADDRESS"), ("J.A. Smith", "PERSON")]


def test_a_courts_abbreviation_in_a_citation_is_not_personal_data():
    """The circuit-dates record's probes, with the model's spans as they came: a court's
    abbreviation in brackets read as a person's initials ("(S.D. Cal.)", "(9th Cir.
    2021)"), and its circuit or its year read as a date ("([4th] Cir. 2004)", "([4th
    Cir. 2008])"), go, and so does the dates recognizer's date inside one ("(S.D.N.Y.
    Mar. 4, 2019)"); a party, initials and a name in brackets elsewhere, and a date
    outside the brackets, stay."""
    from bertforge.pii.recognizers import REGISTRY, find

    text = ("Ramirez v. Coastline, No. 3:24-cv-01187 (S.D. Cal.), and Smith (9th Cir. 2021); "
            "D. Mass. spoke (D. Massey). Cf. Johnson, 357 F.3d 426 (4th Cir. 2004); Saunders "
            "(4th Cir. 2008); Baker (S.D.N.Y. Mar. 4, 2019). Heard on March 4, 2019.")
    model = spans_in_turn(text, ["Ramirez", "S.D. Cal", "9th Cir", "D. Mass", "D. Massey",
                                 "Johnson", ("4th", "DATE"), "Saunders", ("4th Cir. 2008", "DATE"),
                                 "Baker"])
    matches = find(text, [REGISTRY["dates"]("US")])
    assert [(s.text, s.label) for s in merge(model, matches, text)] == [
        ("Ramirez", "PERSON"), ("D. Mass", "PERSON"), ("D. Massey", "PERSON"),
        ("Johnson", "PERSON"), ("Saunders", "PERSON"), ("Baker", "PERSON"),
        ("March 4, 2019", "DATE")]
    # a court's abbreviation before what happened and the day (the filed-courts record);
    # a person in brackets before "filed" stays
    text = ("SEC v. Hutchins, No. 1:26-cv-08812 (S.D.N.Y. filed Nov. 20, 2026); Doe v. Roe (D. "
            "Mass. decided 2019); a complaint (Jane Roe filed Nov. 3, 2025).")
    model = spans_in_turn(text, ["S.D.N.Y.", "D. Mass", "Jane Roe"])
    assert [s.text for s in merge(model, [], text)] == ["Jane Roe"]


# ------------------------------------------------------------------ redaction
@st.composite
def text_and_spans(draw):
    text = draw(st.text(min_size=0, max_size=200))
    cuts = sorted(draw(st.lists(st.integers(0, len(text)), max_size=12, unique=True)))
    spans = []
    for a, b in zip(cuts[::2], cuts[1::2]):
        if b > a:
            spans.append(Span(a, b, draw(st.sampled_from(GROUPS)), text[a:b]))
    return text, spans


@settings(max_examples=300, deadline=None)
@given(text_and_spans(), st.sampled_from(["group", "numbered", "mask", "fake"]))
@example(("000:", [Span(0, 1, "PERSON", "0"), Span(2, 4, "PERSON", "0:")]), "fake")
def test_redaction_keeps_every_character_outside_the_spans(case, style):
    text, spans = case
    key = b"k" * 32
    out = redact(text, spans, style, key=key)
    # each span's replacement depends on the spans before it (a later mention of an
    # entity, "0" then "0:", shares its number and fake), never on the text around them:
    # replay the spans alone, in order, through one document's entities
    entities = Entities()
    position = 0
    last = 0
    for span in sorted(spans, key=lambda s: s.start):
        between = text[last:span.start]
        assert out[position:position + len(between)] == between
        position += len(between)
        replacement = _replacement(STYLES[style], span.label, text[span.start:span.end],
                                   entities, None, {"key": key, "shift_days": None})
        assert out[position:position + len(replacement)] == replacement
        position += len(replacement)
        last = span.end
    assert out[position:] == text[last:]
    if style == "mask":
        assert len(out) == len(text)


def test_redaction_refuses_bad_spans():
    with pytest.raises(BertforgeError, match="overlap"):
        redact("abcdef", [Span(0, 3, "PERSON"), Span(2, 4, "DATE")])
    with pytest.raises(BertforgeError, match="outside"):
        redact("abc", [Span(1, 9, "PERSON")])
    with pytest.raises(BertforgeError, match="unknown redaction style"):
        redact("abc", [], "blur")


def test_numbered_and_fake_are_consistent_per_value():
    text = "Ann Lee paid Bob Ray; later ANN LEE paid again."
    spans = [Span(0, 7, "PERSON"), Span(13, 20, "PERSON"), Span(28, 35, "PERSON")]
    assert redact(text, spans, "numbered") == \
        "[PERSON_1] paid [PERSON_2]; later [PERSON_1] paid again."
    fake = redact(text, spans, "fake", key=b"k" * 16)
    assert fake == redact(text, spans, "fake", key=b"k" * 16) != redact(text, spans, "fake",
                                                                        key=b"j" * 16)
    assert "Ann Lee" not in fake and "Bob Ray" not in fake
    card = fake_value("CARD", "4111 1111 1111 1111")
    digits = card.replace(" ", "")  # a fake keeps the layout: four groups of four
    assert card != "4111 1111 1111 1111" and card[4::5] == "   " and patterns.luhn(digits)
    assert fake_value("CARD", "482").isdigit() and len(fake_value("CARD", "482")) in (3, 4)


def test_fakes_are_keyed_by_a_secret_not_a_public_seed(tmp_path):
    import subprocess
    import sys

    from bertforge.pii.redact import read_key, session_key

    # without a key, each process draws its own: a fake links nothing across runs and
    # cannot be reversed by faking every candidate value with a known seed (issue 27)
    code = "from bertforge.pii.redact import fake_value; print(fake_value('DATE', '14 March 1987'))"
    runs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True).stdout for _ in range(2)}
    assert len(runs) == 2
    assert fake_value("DATE", "14 March 1987") == fake_value("DATE", "14 March 1987",
                                                             session_key())
    key = tmp_path / "fake.key"
    key.write_bytes(b"0123456789abcdef0123456789abcdef\n")
    assert read_key(key) == b"0123456789abcdef0123456789abcdef"
    assert fake_value("PERSON", "Ann Lee", read_key(key)) == fake_value("PERSON", "Ann Lee",
                                                                        read_key(key))
    key.write_bytes(b"short")
    with pytest.raises(BertforgeError, match="at least 16"):
        read_key(key)
    # the CLI: --key-file keeps fakes the same across runs
    text = tmp_path / "t.txt"
    text.write_text("Pay Ann Lee on 14 March 1987.\n")
    key.write_bytes(b"0123456789abcdef0123456789abcdef")
    outs = {subprocess.run([sys.executable, "-m", "bertforge", "redact", "--style", "fake",
                            "--key-file", str(key), "--no-patterns", str(text)],
                           capture_output=True, text=True, check=True).stdout for _ in range(2)}
    assert len(outs) == 1 and "Ann Lee" not in outs.pop()


def test_html_view_escapes_and_labels():
    page = html("<b>Ann</b> & co", [Span(3, 6, "PERSON", "Ann", 0.9)])
    assert "&lt;b&gt;" in page and "PERSON" in page and "<b>" not in page


# ------------------------------------------------------------------ the generator
@pytest.fixture(scope="module")
def generated():
    from bertforge.pii.synth import generate

    return {split: generate(n, seed=7, split=split)
            for split, n in (("train", 400), ("validation", 60), ("test", 150))}


def test_generator_is_deterministic_and_in_gretels_schema(generated):
    from bertforge.pii.synth import generate

    assert generate(20, seed=7, split="train") == generated["train"][:20]
    assert generate(20, seed=8, split="train") != generated["train"][:20]
    for row in generated["train"][:50]:
        assert {"generated_text", "pii_spans", "document_type", "language"} <= set(row)
        assert isinstance(row["pii_spans"], str) and row["language"] == "English"


def test_generator_does_not_depend_on_the_hash_seed():
    # Faker's it_IT city list came from a set: its cities changed with PYTHONHASHSEED
    import os
    import subprocess
    import sys

    code = ("import hashlib, json; from bertforge.pii.synth import generate; "
            "print(hashlib.md5(json.dumps(generate(40, 0, 'test')).encode()).hexdigest())")
    digests = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                              env=os.environ | {"PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")}
    assert len(digests) == 1


def test_generator_spans_are_exact_and_cover_every_label(generated):
    from bertforge.pii.synth import TYPES

    labels = set()
    for rows in generated.values():
        for row in rows:
            text, spans = row["generated_text"], json.loads(row["pii_spans"])
            last = 0
            for span in spans:
                value = text[span["start"]:span["end"]]
                assert span["start"] >= last and value and value == value.strip()
                last = span["end"]
                labels.add(span["label"])
    assert labels == set(FINE_LABELS)
    assert len(TYPES) >= 40


def test_generated_checksummed_values_pass_their_checks(generated):
    # Faker's en_IN writes IBANs that fail mod-97; real ones never do, so none may be generated
    checks = {"iban": patterns.valid_iban, "credit_card_number": patterns.valid_card}
    seen = {kind: 0 for kind in checks}
    for rows in generated.values():
        for row in rows:
            text = row["generated_text"]
            for span in json.loads(row["pii_spans"]):
                if span["label"] in checks:
                    value = json.loads(f'"{text[span["start"]:span["end"]]}"')
                    assert checks[span["label"]](value.replace(" ", "").replace("-", "")), value
                    seen[span["label"]] += 1
    assert min(seen.values()) >= 20, seen


def test_generator_splits_by_document_type(generated):
    types = {split: {r["document_type"] for r in rows} for split, rows in generated.items()}
    assert not types["test"] & types["train"] and not types["validation"] & types["train"]
    assert len(types["test"]) >= 8


def test_generator_has_long_documents_with_data_past_512_tokens(generated, minilm):
    from bertforge.tokenizer import load_tokenizer

    tokenizer = load_tokenizer(minilm)
    rows = [r for rows in generated.values() for r in rows]
    encodings = tokenizer.encode_batch([r["generated_text"] for r in rows], add_special_tokens=False)
    long_with_late_data = 0
    for row, encoding in zip(rows, encodings):
        if len(encoding.ids) > 512:
            limit = encoding.offsets[511][1]
            long_with_late_data += any(s["start"] > limit for s in json.loads(row["pii_spans"]))
    assert long_with_late_data / len(rows) >= 0.10


# ------------------------------------------------------------------ long documents
def test_five_megabytes_go_through_windows_not_truncated(tiny_redactor_dir):
    from bertforge.pii import Redactor

    redactor = Redactor.load(tiny_redactor_dir)
    calls = []
    real = redactor.tagger.probabilities

    def spy(texts, *args, **kwargs):
        encodings, probs = real(texts, *args, **kwargs)
        calls.append([(len(e.ids), None if p is None else len(p)) for e, p in zip(encodings, probs)])
        return encodings, probs

    redactor.tagger.probabilities = spy
    paragraph = ("Statement line: transfer of $1,250.00 to account GB82 WEST 1234 5698 7654 32, "
                 "reference INV-2024-0042, confirmed by email to ops@example.com.\n")
    text = paragraph * (5_000_000 // len(paragraph) + 1)
    spans = redactor.detect(text)
    segments = [row for call in calls for row in call]
    assert len(text) >= 5_000_000 and len(calls) > 1  # in bounded groups of segments
    assert sum(t for t, _ in segments) > 1_000_000 and all(r == t for t, r in segments)
    last_iban = text.rindex("GB82")
    assert any(s.start == last_iban and s.label == "BANK" for s in spans)
    emails = [s for s in spans if s.text == "ops@example.com"]
    assert len(emails) == text.count("ops@example.com") and {s.label for s in emails} == {"EMAIL"}
    out = redactor.redact(text[:len(paragraph) * 3])
    assert "GB82" not in out and "ops@example.com" not in out and out.count("[BANK]") >= 3


# ------------------------------------------------------------------ the bundled model
@pytest.fixture(scope="module", params=["auto", "int8"])
def bundled(request):
    """The bundled model as `bertforge redact` runs it, and quantised to int8."""
    from bertforge.pii import Redactor

    return Redactor.load(precision=request.param)


def test_int8_redactor_leaves_the_callers_tagger_as_it_was():
    """precision int8 quantises a copy: the tagger handed in still trains and saves."""
    from bertforge.compress import is_quantized
    from bertforge.finetune.tagging import Tagger
    from bertforge.pii import Redactor
    from bertforge.pii.detector import BUNDLED

    tagger = Tagger.load(BUNDLED)
    redactor = Redactor(tagger, precision="int8")
    assert is_quantized(redactor.tagger.model) and not is_quantized(tagger.model)
    assert redactor.tagger.tokenizer is tagger.tokenizer


@pytest.mark.model_output
def test_bundled_model_loads_offline_and_finds_the_obvious(bundled, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    text = (EXAMPLES / "documents" / "loan-application.txt").read_text(encoding="utf-8")
    found = {(s.text, s.label) for s in bundled.detect(text)}
    for item in [("Margaret O'Donnell", "PERSON"), ("m.odonnell79@gmail.com", "EMAIL"),
                 ("521-44-7310", "GOV_ID"), ("(203) 555-0148", "PHONE"),
                 ("4716 2089 4410 7735", "CARD"), ("021000021", "BANK"),
                 ("02/11/1979", "DATE")]:
        assert item in found, (item, sorted(found))
    assert any(label == "ADDRESS" and "Larchmont" in t for t, label in found)
    assert any(label == "COMPANY" and "Halvorsen" in t for t, label in found)
    redacted = bundled.redact(text)
    for secret in ("O'Donnell", "521-44-7310", "4716 2089", "odonnell79"):
        assert secret not in redacted
    assert "$18,500.00" in redacted and "48 months" in redacted  # amounts are not personal


@pytest.mark.model_output
def test_bundled_model_finds_data_past_token_512(bundled):
    from bertforge.pii.synth import generate

    rows = [r for r in generate(150, seed=5, split="train") if r["document_type"] == "Bank Statement"]
    row = max(rows, key=lambda r: len(r["generated_text"]))
    text, gold = row["generated_text"], json.loads(row["pii_spans"])
    encoding = bundled.tagger.tokenizer.encode(text, add_special_tokens=False)
    assert len(encoding.ids) > 1200
    limit = encoding.offsets[511][1]
    found = {(s.start, s.end) for s in bundled.detect(text)}

    def recall(spans):
        return sum((s["start"], s["end"]) in found for s in spans) / len(spans)

    early = [s for s in gold if s["end"] <= limit]
    late = [s for s in gold if s["start"] > limit]
    assert len(late) > 40
    assert recall(late) >= 0.85 and recall(late) >= recall(early) - 0.1


@pytest.mark.model_output
def test_cli_precision_int8_and_bad_precisions(capsys):
    from bertforge.pii import Redactor

    good = EXAMPLES / "documents" / "wire-dispute-email.txt"
    assert main(["redact", "--precision", "int8", str(good)]) == 0
    out = capsys.readouterr().out
    assert "[BANK]" in out and "GB29 NWBK" not in out
    with pytest.raises(SystemExit):  # argparse: not a choice
        main(["redact", "--precision", "fp16", str(good)])
    assert "invalid choice" in capsys.readouterr().err
    with pytest.raises(BertforgeError, match="precision must be one of"):
        Redactor(None, precision="int4")
    from bertforge.commands.common import REDACT_PRECISIONS
    from bertforge.pii.detector import PRECISIONS

    assert REDACT_PRECISIONS is PRECISIONS  # the CLI's choices are the library's, not a copy


@pytest.mark.model_output
def test_device_is_resolved_or_refused_clearly(capsys):
    import torch

    from bertforge.training import resolve_device

    gpu = torch.cuda.is_available()
    assert resolve_device("auto").type == ("cuda" if gpu else "cpu")
    assert resolve_device(None) == resolve_device("auto")
    assert resolve_device("cpu") == torch.device("cpu")
    for bad, message in [("meta", "not supported"), ("tpu", "unknown device")]:
        with pytest.raises(BertforgeError, match=message):
            resolve_device(bad)
    good = EXAMPLES / "documents" / "wire-dispute-email.txt"
    assert main(["redact", "--device", "cpu", str(good)]) == 0
    assert "[BANK]" in capsys.readouterr().out
    if not gpu:  # the error a user without a GPU sees
        assert main(["redact", "--device", "cuda", str(good)]) == 2
        assert "sees no CUDA GPU" in capsys.readouterr().err


@pytest.mark.model_output
def test_cli_redacts_files_and_reports_bad_ones(tmp_path, capsys):
    good = EXAMPLES / "documents" / "wire-dispute-email.txt"
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("Caf\xe9 owner: J\xfcrgen".encode("latin-1"))
    assert main(["redact", str(good), str(bad), str(tmp_path / "missing.txt")]) == 2
    captured = capsys.readouterr()
    assert "[BANK]" in captured.out and "GB29 NWBK" not in captured.out
    assert "latin1.txt: not UTF-8 text" in captured.err and "missing.txt: no such file" in captured.err
    assert main(["redact", "--format", "json", str(good)]) == 0
    [document] = json.loads(capsys.readouterr().out)  # a list, even of one file
    assert set(document["spans"][0]) == {"start", "end", "label", "text", "score", "source"}
    text = good.read_text(encoding="utf-8")
    assert all(text[s["start"]:s["end"]] == s["text"] for s in document["spans"])
    assert main(["redact", "--format", "html", "--style", "numbered", str(good)]) == 0
    assert "<span class=\"pii\"" in capsys.readouterr().out


@pytest.mark.model_output
def test_cli_jsonl_contract_round_trips(tmp_path, capsys):
    lines = [json.dumps({"id": 1, "text": "Call Ann Lee on (212) 555-0187.", "team": "ops"}),
             "{not json",
             json.dumps({"id": 3, "body": "no text field"}),
             json.dumps({"id": 4, "text": "IBAN DE89370400440532013000, thanks."})]
    source = tmp_path / "in.jsonl"
    source.write_bytes(("\n".join(lines) + "\n").encode() + b'{"id": 5, "text": "\xff"}\n')
    target = tmp_path / "out.jsonl"
    assert main(["redact", "--jsonl", str(source), "--out", str(target)]) == 2
    out = [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()]
    assert len(out) == 5
    assert out[0]["id"] == 1 and out[0]["team"] == "ops" and "[PHONE]" in out[0]["redacted"]
    assert all(out[0]["text"][s["start"]:s["end"]] == s["text"] for s in out[0]["spans"])
    assert "not valid JSON" in out[1]["error"] and out[2]["id"] == 3 and "text" in out[2]["error"]
    assert out[3]["redacted"] == "IBAN [BANK], thanks."
    assert "not UTF-8" in out[4]["error"]
    assert "3 lines with errors" in capsys.readouterr().err


def gpu_names() -> list[str]:
    import torch

    return [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())]


def _tagger_with_vocab(tokens, directory):
    """A random 1-layer tagger for the 12 groups over a vocabulary of `tokens`."""
    from bertforge.config import BertConfig
    from bertforge.finetune.tagging import Tagger, tag_names
    from bertforge.model import Bert
    from bertforge.tokenizer import Tokenizer

    tokenizer = Tokenizer.from_vocab({t: i for i, t in enumerate(tokens)})
    config = BertConfig(vocab_size=len(tokens), hidden_size=16, num_hidden_layers=1,
                        num_attention_heads=2, intermediate_size=32,
                        labels=tag_names(sorted(GROUPS)))
    Tagger(Bert(config, head="token-classification"), tokenizer, 62, 48).save(directory)


def test_cli_generate_train_evaluate(tiny_dirs, tmp_path, capsys):
    data = tmp_path / "data"
    assert main(["pii", "generate", "--out", str(data), "--train", "40", "--validation", "5",
                 "--test", "20", "--seed", "3"]) == 0
    rows = [json.loads(l) for l in (data / "train.jsonl").read_text().splitlines()]
    assert len(rows) == 40 and all("pii_spans" in r for r in rows)
    model = tmp_path / "model"
    assert main(["pii", "train", str(data / "train.jsonl"), "--out", str(model), "--base",
                 str(tiny_dirs[None]), "--steps", "3", "--window", "62", "--stride", "48",
                 "--layers", "1", "--ffn", "20", "--half", "--quiet", "--sort-pool", "1"]) == 0
    card = json.loads((model / "bertforge.json").read_text())
    assert card["recipe"]["steps"] == 3 and card["window"] == 62 and card["documents"] == 40
    # the batching is part of the recipe: the card says how to draw the batches again
    assert card["recipe"]["sort_pool"] == 1 and card["recipe"]["pack"] is True
    assert card["recipe"]["layers"] == 1 and card["recipe"]["ffn"] == 20
    assert card["recipe"]["device"] == (gpu_names()[0] if gpu_names() else "cpu")
    config = json.loads((model / "config.json").read_text())
    assert config["num_hidden_layers"] == 1 and config["intermediate_size"] == 20
    assert sorted(card["entity_labels"]) == sorted(GROUPS)
    student = tmp_path / "student"  # distilled from the model just trained
    capsys.readouterr()
    assert main(["pii", "train", str(data / "train.jsonl"), "--out", str(student), "--base",
                 str(tiny_dirs[None]), "--teacher", str(model), "--steps", "2", "--window",
                 "62", "--stride", "48", "--quiet", "--validation",
                 str(data / "validation.jsonl")]) == 0
    student_card = json.loads((student / "bertforge.json").read_text())
    assert student_card["recipe"]["teacher"] == str(model)
    # two steps learn nothing: the model is saved, and says so where a user will see it
    assert "far below what this recipe reaches" in student_card["warning"]
    assert "warning: validation strict micro F1" in capsys.readouterr().out
    assert main(["redact", "--model", str(student), str(data / "train.jsonl")]) == 0
    assert "far below what this recipe reaches" in capsys.readouterr().err
    assert main(["pii", "train", str(data / "train.jsonl"), "--out", str(tmp_path / "bad"),
                 "--base", str(tiny_dirs[None]), "--teacher",
                 str(tiny_dirs["token-classification"]), "--steps", "2", "--quiet"]) == 2
    assert "same labels" in capsys.readouterr().err and not (tmp_path / "bad").exists()
    other = tmp_path / "other-vocab"  # the same tags, read through another vocabulary
    _tagger_with_vocab(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "account", "paid"], other)
    assert main(["pii", "train", str(data / "train.jsonl"), "--out", str(tmp_path / "bad"),
                 "--base", str(tiny_dirs[None]), "--teacher", str(other), "--steps", "2",
                 "--quiet"]) == 2
    assert "another vocabulary" in capsys.readouterr().err and not (tmp_path / "bad").exists()
    if not gpu_names():  # asking for a GPU that is not there: a clear error, at once
        assert main(["pii", "train", str(tmp_path / "not-read.jsonl"), "--out",
                     str(tmp_path / "gpu"), "--base", str(tiny_dirs[None]), "--steps", "3",
                     "--device", "cuda", "--quiet"]) == 2
        assert "sees no CUDA GPU" in capsys.readouterr().err
        assert not (tmp_path / "gpu").exists()
    capsys.readouterr()
    report = tmp_path / "report"
    assert main(["pii", "evaluate", str(data / "test.jsonl"), "--model", str(model), "--out",
                 str(report), "--limit", "10"]) == 0
    out = capsys.readouterr().out
    assert "all (micro)" in out and "documents/s" in out
    scores = json.loads((report / "scores.json").read_text())
    assert set(scores["scores"]) == {"model", "patterns", "hybrid"} and scores["documents"] == 10
    assert scores["scores"]["patterns"]["micro"]["f1"] > 0  # emails, IBANs, cards ...
    assert (report / "f1-by-group.png").stat().st_size > 10_000
    assert "<span class=\"pii\"" in (report / "examples.html").read_text()


def test_training_data_errors_name_the_line(tmp_path):
    from bertforge.pii.dataset import read_documents

    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"generated_text": "Ann", "pii_spans": json.dumps(
        [{"start": 0, "end": 3, "label": "shoe_size"}])}) + "\n")
    with pytest.raises(BertforgeError, match=r"bad.jsonl:1: span 0: unknown personal-data label"):
        read_documents(str(bad))
    bad.write_text(json.dumps({"generated_text": "Ann", "pii_spans": "[oops"}) + "\n")
    with pytest.raises(BertforgeError, match=r"bad.jsonl:1: \"pii_spans\" is a string that is not JSON"):
        read_documents(str(bad))


# ------------------------------------------------------------------ decoding boundaries
TAGS = ["O", "B-ACCOUNT", "I-ACCOUNT", "B-ADDRESS", "I-ADDRESS", "B-PERSON", "I-PERSON"]


def _decode(text, tagged):
    """threshold_spans over whitespace tokens, each given a tag with probability 0.9."""
    import re

    import numpy as np

    from bertforge.finetune.tagging import threshold_spans

    offsets = [m.span() for m in re.finditer(r"\S+", text)]
    assert len(offsets) == len(tagged)
    probs = np.full((len(offsets), len(TAGS)), 0.1 / (len(TAGS) - 1))
    for row, tag in zip(probs, tagged):
        row[TAGS.index(tag)] = 0.9
    return [(s.label, s.text) for s in threshold_spans(text, offsets, probs, TAGS, 0.5, MULTILINE)]


def test_spans_do_not_run_across_table_cells_or_lines():
    # before: "40118\tOkafor\tChidi" came out as one PERSON (the first cell smoothed over)
    assert _decode("40118\tOkafor\tChidi", ["B-ACCOUNT", "B-PERSON", "I-PERSON"]) == [
        ("ACCOUNT", "40118"), ("PERSON", "Okafor"), ("PERSON", "Chidi")]
    assert _decode("Tomasz\nmob", ["B-PERSON", "I-PERSON"]) == [("PERSON", "Tomasz"), ("PERSON", "mob")]
    # an address is the one value that runs over lines
    assert _decode("12 High St\nLeeds LS1", ["B-ADDRESS"] + ["I-ADDRESS"] * 4) == [
        ("ADDRESS", "12 High St\nLeeds LS1")]
    assert _decode("Jane Doe paid", ["B-PERSON", "I-PERSON", "O"]) == [("PERSON", "Jane Doe")]
    # a new entity at the end of a run keeps its label: a name, then an employee ID
    assert _decode("Ann Lee , EMP-4410", ["B-PERSON", "I-PERSON", "I-PERSON", "B-ACCOUNT"]) == [
        ("PERSON", "Ann Lee ,"), ("ACCOUNT", "EMP-4410")]


def test_spans_do_not_run_across_fixed_width_columns():
    # before: a sort code and an account number three spaces apart were one GOV_ID
    assert _decode("30-96-26   11044728", ["B-ACCOUNT", "I-ACCOUNT"]) == [
        ("ACCOUNT", "30-96-26"), ("ACCOUNT", "11044728")]
    assert _decode("Ann  Lee", ["B-PERSON", "I-PERSON"]) == [("PERSON", "Ann  Lee")]


def test_initials_glued_before_a_name_are_part_of_it():
    """The glued-initials record: the model may leave the first initials of "C.S.
    Venkatakrishnan" out; a name takes in the capitals and full stops glued before it,
    but not a word's last capital ("ABC.D. Jones"), a lower-case abbreviation ("e.g.S.
    Okafor"), nor what a space parts from it."""
    from bertforge.pii.tidy import tidy

    text = ("CEO C.S. Venkatakrishnan, J.R.R. Tolkien, ABC.D. Jones, e.g.S. Okafor and the "
            "U.S. Smith family.")
    found = tidy(text, spans_at(text, [("S. Venkatakrishnan", "PERSON"), ("R. Tolkien", "PERSON"),
                                       ("D. Jones", "PERSON"), ("S. Okafor", "PERSON"),
                                       ("Smith", "PERSON")]))
    assert [s.text for s in found] == ["C.S. Venkatakrishnan", "J.R.R. Tolkien", "D. Jones",
                                       "S. Okafor", "Smith"]


def test_model_spans_of_the_wrong_shape_are_dropped():
    from bertforge.pii.tidy import tidy

    text = 'GET /x HTTP/1.1" 200 512 in 7 minutes, ticket #58214, call 020 7946 0321 on Friday TIN'
    def span(word, label):
        start = text.index(word)
        return Span(start, start + len(word), label, word)
    found = tidy(text, [span("200 512", "PHONE"), span("minutes", "DATE"), span("58214", "PHONE"),
                         span("020 7946 0321", "PHONE"), span("Friday", "DATE"), span("TIN", "GOV_ID")])
    # a weekday alone is no date either (the weekdays record)
    assert [(s.label, s.text) for s in found] == [("PHONE", "020 7946 0321")]
    # a coordinate has a decimal point between digits (the coordinate-shape record)
    text = "BOUGHT 200 SHS @ 41.275; last seen at 28.3828, -136.4150 and 52,5200 13,4050."
    found = tidy(text, [span(".275", "LOCATION"), span("28.3828, -136.4150", "LOCATION"),
                        span("52,5200 13,4050", "LOCATION")])
    assert [s.text for s in found] == ["28.3828, -136.4150", "52,5200 13,4050"]
    # ... and more than an amount's two decimals (the statement-amounts record); a
    # coordinate written with three stays
    text = "TFL TRAVEL CH 6.80 1,204.15; FEE -10,5; seen at 51.507 only"
    found = tidy(text, [span("6.80", "LOCATION"), span("-10,5", "LOCATION"),
                        span("51.507", "LOCATION")])
    assert [s.text for s in found] == ["51.507"]
    # a secret or a user name is no such amount either (the rate-digits record): a pay
    # stub's rates go, a password with a decimal point and an IP address stay
    text = "Regular 80.00 31.25 2,500.00; Overtime 4.50 46.88; pw 7.25x!; host 10.0.0.12"
    found = tidy(text, [span("31.25", "DIGITAL"), span("4.50", "DIGITAL"),
                        span("7.25x!", "DIGITAL"), span("10.0.0.12", "DIGITAL")])
    assert [s.text for s in found] == ["7.25x!", "10.0.0.12"]
    # an account's number has a digit, or a key's "_" (the account-digits record)
    text = "Whitmore (CRD No. 4812377), customer cus_yGVbPrlx, account AC-0048812."
    found = tidy(text, [span("CRD", "ACCOUNT"), span("4812377", "ACCOUNT"),
                        span("cus_yGVbPrlx", "ACCOUNT"), span("AC-0048812", "ACCOUNT")])
    assert [s.text for s in found] == ["4812377", "cus_yGVbPrlx", "AC-0048812"]
    # a bank's number has a digit, or a BIC's capitals (the bank-shapes record)
    text = "Ihre IBAN lautet DE89 3704 0044 0532 0130 00, BIC COBADEFFXXX; SWIFT DEUTDEFF."
    found = tidy(text, [span("lautet", "BANK"), span("DE89 3704 0044 0532 0130 00", "BANK"),
                        span("COBADEFFXXX", "BANK"), span("DEUTDEFF", "BANK")])
    assert [s.text for s in found] == ["DE89 3704 0044 0532 0130 00", "COBADEFFXXX", "DEUTDEFF"]
    # a name or a firm has a letter (the letterless-names record): a statement's amount
    text = "11/05  CHECK #1187 PAID TO DESHAWN WILLIAMS   -400.00 to 7-Eleven"
    found = tidy(text, [span("DESHAWN WILLIAMS", "COMPANY"), span("-400", "COMPANY"),
                        span("7-Eleven", "COMPANY")])
    assert [s.text for s in found] == ["DESHAWN WILLIAMS", "7-Eleven"]
    # and a firm is more than a firm's word or legal form (the lone-firm-words record); a
    # person called so, and a firm with its word, stay
    text = "Group: Acme Group Inc.   Group No. 0047721; LLC; Trust Me Ltd; Mr. Bank"
    second = text.index("Group No")
    found = tidy(text, [span("Acme Group Inc.", "COMPANY"),
                        Span(second, second + len("Group"), "COMPANY", "Group"),
                        span("LLC", "COMPANY"), span("Trust Me Ltd", "COMPANY"),
                        span("Bank", "PERSON")])
    assert [s.text for s in found] == ["Acme Group Inc.", "Trust Me Ltd", "Bank"]
    # a symbol before a value is not part of it
    text = "Signature ▶ O. Adeyemi"
    assert [s.text for s in tidy(text, [Span(10, 22, "PERSON", text[10:])])] == ["O. Adeyemi"]
    # nor is the full stop of a title before a name
    text = "Spoke with Mr. Tomasz Nowak, +44"
    assert [s.text for s in tidy(text, [Span(13, 27, "PERSON", text[13:27])])] == ["Tomasz Nowak"]


def test_a_company_without_a_capital_is_a_word_where_the_writer_uses_capitals():
    """A contract writes its sentences, and its companies, with capitals: there a
    model COMPANY span in lower case is an ordinary word ("pledge"); a tweet in lower
    case keeps its "united", and names (typed in lower case in chats) are kept."""
    from bertforge.pii.tidy import tidy, written_with_capitals

    def spans(text, *words):
        return [Span(text.index(w), text.index(w) + len(w), label, w) for w, label in words]

    contract = ('"Lien" means any mortgage, pledge, hypothecation or charge. The Borrower '
                'shall notify Fedwire Services and dwayne hollis. "Lender" has the meaning '
                'given in the preamble.\n(b) Notices go to the Agent.')
    found = tidy(contract, spans(contract, ("pledge", "COMPANY"), ("hypothecation", "COMPANY"),
                                 ("Fedwire Services", "COMPANY"), ("dwayne hollis", "PERSON")))
    assert [(s.label, s.text) for s in found] == [("COMPANY", "Fedwire Services"),
                                                   ("PERSON", "dwayne hollis")]
    tweet = "sounds like united has put themselves in a bad spot . CEO should go"
    assert [s.text for s in tidy(tweet, spans(tweet, ("united", "COMPANY")))] == ["united"]
    # three sentence starts at least, four in five of them capitals, quotes passed over
    assert written_with_capitals(contract)
    assert not written_with_capitals(tweet)
    assert not written_with_capitals("Hi Ann. Thanks.")
    assert written_with_capitals("Hi Ann. Thanks. See you. \"Bank\" means a bank. ok then")
    assert not written_with_capitals("Hi Ann. thanks. see you. bye.")
    # a capital alone before a word starts a sentence too, an article or "I" (the
    # one-letter-starts record); a list's marker, a lone "i" and an initial do not
    assert written_with_capitals("Hoje o juro subiu. O ministro falou. A economista previu.")
    assert written_with_capitals("I paid. A refund came. Thanks.")
    assert written_with_capitals("Hi there. i paid. Ok then. Yes sir.")
    assert not written_with_capitals("\n(A) the fee\n(B) the tax\n(C) the rest")
    assert not written_with_capitals("A. B. C. D. E. F. Smith. ok")
    # a line of running text wrapped at its width goes on in mid-sentence: the next line's
    # start is no sentence's (the wrapped-capitals record: an 8-K's "Okoro,\nage 46"); a
    # short line's or a finished line's next line still counts
    filing = ("On November 30, 2026, Gareth M. Thornbury notified the Board of Directors\n"
              "of Cobalt Ridge Financial, Inc. of his decision to resign as Chief Operating\n"
              "officer. The Board appointed Adaeze N. Okoro, age 46, currently Senior Vice\n"
              "president, to succeed him. There are no family relationships.")
    assert written_with_capitals(filing)
    assert [s.text for s in tidy(filing, spans(filing, ("Adaeze N. Okoro", "PERSON"),
                                               ("age", "PERSON")))] == ["Adaeze N. Okoro"]
    assert not written_with_capitals("Thanks for the quick reply on the wire we sent us.\n"
                                     "ok. Yes. No.")
    assert not written_with_capitals("Hi Ann\nthanks\nsure. Yes. No.")
    # a capital after a long line that ends without a mark starts a form's next field
    # (the wrapped-capitals record's amendment: a term sheet's lines)
    sheet = ("SERIES A TERM SHEET\nInvestors: Northwind Ventures (lead), and angel investor Rahul "
             "Mehta\nBoard: Two seats for Common (Priya Nair, Daniel Osei), one for Series A\n"
             "Counsel to the Company: Cooley LLP (Attn: Samantha Greer)")
    assert written_with_capitals(sheet)


def test_a_lower_case_person_no_one_is_called_is_a_word_where_the_writer_uses_capitals():
    """In capitalised text a lower-case PERSON span is a word unless one of its words is
    a given name or surname (a name typed in lower case in a chat) or two glued together
    (a user name): the uncased model cannot see the case, the text can. A surname that
    is also a word of the vocabulary ("deep", the common-surnames record) is a word there;
    one that is not ("okonkwo") stays a name."""
    from bertforge.pii.lexicon import known_names
    from bertforge.pii.tidy import tidy

    def spans(text, *words):
        return [Span(text.index(w), text.index(w) + len(w), "PERSON", w) for w in words]

    article = ("The poem uses Buddhist terms such as dukkha and devaloka. It was written in "
               "1911. Chat log follows.\n[10:02] marco: sent to sinead mcallister and "
               "campbelllauren. Ann Lee agreed, and okonkwo. Siobhan brings deep experience.")
    found = tidy(article, spans(article, "dukkha", "devaloka", "marco", "sinead mcallister",
                                "campbelllauren", "Ann Lee", "okonkwo", "deep"))
    assert [s.text for s in found] == ["marco", "sinead mcallister", "campbelllauren", "Ann Lee",
                                       "okonkwo"]
    tweet = "lol dukkha and devaloka r my fave words"  # lower-case text: the model's reading stands
    assert [s.text for s in tidy(tweet, spans(tweet, "dukkha"))] == ["dukkha"]
    names = known_names()
    assert {"marco", "sinead", "hollis", "okonkwo", "deep"} <= names and \
        not {"dukkha", "escalation"} & names


def test_a_handle_read_as_an_email_is_a_user_name():
    """The handle-emails record's probes, a bug report and a ticket, with the model's
    spans as they came: "@lwheeler" and the "mhernandez" of "@mhernandez" read as emails
    are handles, without their "@"; an address, an address's "@" and domain read apart
    ("@acme.com", a domain's dot in it), and a word with no "@" near it stay as they
    were."""
    from bertforge.pii.tidy import tidy

    text = ("cc @lwheeler, escalated to @mhernandez; mail ann.lee@acme.com or "
            "ann@acme.com; ref jdoe42; reply to @ann@acme.com")
    values = [("@lwheeler", "EMAIL"), ("mhernandez", "EMAIL"), ("ann.lee@acme.com", "EMAIL"),
              ("@acme.com", "EMAIL", 1), ("jdoe42", "EMAIL"), ("@ann@acme.com", "EMAIL")]
    assert [(s.label, s.text) for s in tidy(text, spans_at(text, values))] == [
        ("DIGITAL", "lwheeler"), ("DIGITAL", "mhernandez"), ("EMAIL", "ann.lee@acme.com"),
        ("EMAIL", "@acme.com"), ("EMAIL", "jdoe42"), ("EMAIL", "@ann@acme.com")]


def test_a_phone_number_after_an_accounts_keyword_is_the_account():
    """The account-phones record's probe, with the model's spans as it gave them: a
    model PHONE span that is the whole number after an account's keyword ("account no.
    5521-884102", "NMLS #2284910") is an ACCOUNT; a phone number after other words, a
    piece of the keyed number and a recognizer's phone number stay phones."""
    from bertforge.pii.tidy import tidy

    text = ("Records for account no. 5521-884102 held by him; NMLS #2284910. Call 5521-884103; "
            "Acct 4471-223 990; customer number 8812-4471.")
    values = [("5521-884102", "PHONE"), ("2284910", "PHONE"), ("5521-884103", "PHONE"),
              ("4471-223", "PHONE")]
    spans = spans_at(text, values) + [Span(text.index("8812-4471"), len(text) - 1, "PHONE",
                                           "8812-4471", 1.0, "pattern")]
    assert [(s.label, s.text) for s in tidy(text, spans)] == [
        ("ACCOUNT", "5521-884102"), ("ACCOUNT", "2284910"), ("PHONE", "5521-884103"),
        ("PHONE", "4471-223"), ("PHONE", "8812-4471")]


def test_a_card_number_of_a_phone_numbers_length_is_a_phone_number():
    """A card number has 12 to 19 digits, a security code 3 or 4: a model CARD span of 7
    to 11 digits ("pay by card on 0747-226 2503") is masked as a PHONE."""
    from bertforge.pii.tidy import tidy

    text = "Pay by card on 0747-226 2503 or 4111 1111 1111 1111, CVV 123."
    spans = [Span(text.index(v), text.index(v) + len(v), "CARD", v)
             for v in ("0747-226 2503", "4111 1111 1111 1111", "123")]
    assert [(s.label, s.text) for s in tidy(text, spans)] == [
        ("PHONE", "0747-226 2503"), ("CARD", "4111 1111 1111 1111"), ("CARD", "123")]
    # and an ID number written as a North American phone number (the phone-shaped-ids
    # record); an SSN's, a SIN's and a longer number's groups stay an ID
    text = ("Witness: Ingrid Solheim, 604-555-0188 or (604) 555-0189; SSN 412-55-7890, SIN "
            "046-454-286, ID 1604-555-0188.")
    spans = [Span(text.index(v), text.index(v) + len(v), "GOV_ID", v)
             for v in ("604-555-0188", "(604) 555-0189", "412-55-7890", "046-454-286",
                       "1604-555-0188")]
    assert [s.label for s in tidy(text, spans)] == ["PHONE", "PHONE", "GOV_ID", "GOV_ID", "GOV_ID"]
    # and an account number written as a North American number without its area code
    # (the local-phones record); after an account's keyword, and in other groups, it stays
    text = ("RSVP to Sandra at 555-0148; account no. 555-0149; then 5550-148 and "
            "555-01489 paid.")
    spans = [Span(text.index(v), text.index(v) + len(v), "ACCOUNT", v, 0.9, "model")
             for v in ("555-0148", "555-0149", "5550-148", "555-01489")]
    assert [s.label for s in tidy(text, spans)] == ["PHONE", "ACCOUNT", "ACCOUNT", "ACCOUNT"]


def test_a_separator_before_a_value_and_a_day_after_a_date_are_not_part_of_them():
    """"- " and "/ " before a value separate it from its field; two dates joined by "and"
    are two dates, unless a side is no date by itself, and two names joined by "and",
    "or" or " , " two names; "tomorrow" names no date."""
    from bertforge.pii.tidy import tidy

    text = ("User ID - batch_ledger, IBAN GB96 / RUEPGBL35GU. Despite our letters of "
            "2025-04-08 and 2024-02-17, call before 12:21am tomorrow, between 1 and 3 May.")

    def span(value, label):
        return Span(text.index(value), text.index(value) + len(value), label, value)

    found = tidy(text, [span("- batch_ledger", "DIGITAL"), span("/ RUEPGBL35GU", "BANK"),
                        span("2025-04-08 and 2024-02-17", "DATE"),
                        span("12:21am tomorrow", "DATE"), span("1 and 3 May", "DATE")])
    assert [(s.label, s.text) for s in found] == [
        ("DIGITAL", "batch_ledger"), ("BANK", "RUEPGBL35GU"), ("DATE", "2025-04-08"),
        ("DATE", "2024-02-17"), ("DATE", "12:21am"), ("DATE", "1 and 3 May")]
    assert all(text[s.start:s.end] == s.text for s in found)
    # names too, by "and" or "or", where each side has a name ("Tom and jerry" is not
    # parted; in a sentence that writes full names with capitals its lower-case end is
    # then cut, the short-texts record); a firm stays whole
    text = "I Dewa Gede Budjana or Dewa Budjana met Tom and jerry at Jones, Romero and Pena LLP."
    found = tidy(text, [span("I Dewa Gede Budjana or Dewa Budjana", "PERSON"),
                        span("Tom and jerry", "PERSON"), span("Jones, Romero and Pena LLP", "COMPANY")])
    assert [s.text for s in found] == ["I Dewa Gede Budjana", "Dewa Budjana", "Tom",
                                       "Jones, Romero and Pena LLP"]
    # a list written with a space before each comma is names apart; "Miller, Brandon" is one
    text = "guitarists such as Tohpati , Ridho and Abdee Negara ; signed Miller, Brandon"
    found = tidy(text, [span("Tohpati , Ridho", "PERSON"), span("Abdee Negara", "PERSON"),
                        span("Miller, Brandon", "PERSON")])
    assert [s.text for s in found] == ["Tohpati", "Ridho", "Abdee Negara", "Miller, Brandon"]
    # handles listed after "cc", which the model read as one email, are one span each (a
    # user name without its "@": the handle-emails record); an address that is only a name
    # ("Chidi Okafor", read as an email) is not parted, nor WikiText's hyphen written " @-@ "
    text = "cc @mkowalczyk @dana-whitlock @li.wei, from Chidi Okafor; belles @-@ lettres"
    found = tidy(text, [span("mkowalczyk @dana-whitlock @li.wei", "EMAIL"),
                        span("Chidi Okafor", "EMAIL"), span("belles @-@ lettres", "EMAIL")])
    assert [(s.text, s.label) for s in found] == [
        ("mkowalczyk", "DIGITAL"), ("dana-whitlock", "DIGITAL"), ("li.wei", "DIGITAL"),
        ("Chidi Okafor", "EMAIL"), ("belles @-@ lettres", "EMAIL")]


def test_a_sentences_full_stop_is_not_part_of_a_name():
    """"Witness: Harold Fenwick-Lowe." masks the name, not the full stop; an initial's and
    "Jr."'s are the name's ("Esq." is no part of it, full stop and all: the name-ends
    record); a company's "Inc." is the company's; one after a space is nobody's; nor is
    a closing "!" or "?" a name's, while "Yahoo!" keeps its own."""
    from bertforge.pii.tidy import tidy

    text = ("Witness: Harold Fenwick-Lowe. Signed: John A. Copy: Sam Reed Jr. For: Ann Lee "
            "Esq. Seller: Keel Holdings Inc. Chair: Thomas A . Payee: Rita Moss! Who: Ian "
            "Ng?! Buyer: Yahoo!")
    values = {"Harold Fenwick-Lowe.": "PERSON", "John A.": "PERSON", "Sam Reed Jr.": "PERSON",
              "Ann Lee Esq.": "PERSON", "Keel Holdings Inc.": "COMPANY", "Thomas A .": "PERSON",
              "Rita Moss!": "PERSON", "Ian Ng?!": "PERSON", "Yahoo!": "COMPANY"}
    found = tidy(text, [Span(text.index(v), text.index(v) + len(v), label, v)
                        for v, label in values.items()])
    # a full stop standing apart ("Thomas A ." in text split into words) is nobody's
    assert [s.text for s in found] == ["Harold Fenwick-Lowe", "John A.", "Sam Reed Jr.",
                                       "Ann Lee", "Keel Holdings Inc.", "Thomas A", "Rita Moss",
                                       "Ian Ng", "Yahoo!"]


def test_a_name_does_not_end_in_an_ampersand():
    """The trailing-ampersands record's probe, with the model's spans as it gave them: a
    rich list's "Johann Rupert & family" masks the name without the "&", a firm's span
    too; "AT&T" keeps its own, and a secret ending in a glued "&" is not cut."""
    from bertforge.pii.tidy import tidy

    text = ("2. Johann Rupert & family; 3. Nicky Oppenheimer\t& family; Keel & Hart & Co; "
            "AT&T; password: Xy7q#Lm&")
    values = ["Johann Rupert &", "Nicky Oppenheimer\t&", ("Keel &", "COMPANY"),
              ("AT&T", "COMPANY"), ("Xy7q#Lm&", "DIGITAL")]
    assert [s.text for s in tidy(text, spans_in_turn(text, values))] == [
        "Johann Rupert", "Nicky Oppenheimer", "Keel", "AT&T", "Xy7q#Lm&"]


def test_an_initial_without_its_full_stop_that_ends_a_names_field_is_the_names():
    """The trailing-initials record's probes, a Form 4, an Indian loan form and minutes,
    with the model's spans as it gave them: an initial without its full stop after a name,
    where the line, a comma, a semicolon, a wider space or "D/o" ends the field, is the
    name's; not a capital that starts the next words ("John Smith A few"), nor one after
    a space and before a word."""
    from bertforge.pii.tidy import tidy

    text = ("Reporting Person: LINDQVIST ERIK M\nCo-borrower: Kavya R D/o Venkatesh Rao; "
            "Present: Rao K, Iyer P; TAMIKA R   Last name; met John Smith A few days. Nair S")
    values = ["LINDQVIST ERIK", "Kavya", "Venkatesh Rao", ("Rao", "PERSON", 1), "Iyer", "TAMIKA",
              "John Smith", "Nair"]
    found = tidy(text, spans_at(text, values))
    assert [s.text for s in found] == ["LINDQVIST ERIK M", "Kavya R", "Venkatesh Rao", "Rao K",
                                       "Iyer P", "TAMIKA R", "John Smith", "Nair S"]


def test_a_name_written_as_a_hashtag_is_masked_with_its_hash():
    """"#PaulMckenna" whole; a "#" glued to a word before it ("C#Sharp") is not a hashtag's."""
    from bertforge.pii.tidy import tidy

    text = "#PaulMckenna #dreams and C#Sharp, #1 fan of Ann Lee"
    found = tidy(text, [Span(text.index(v), text.index(v) + len(v), "PERSON", v)
                        for v in ("PaulMckenna", "Sharp", "Ann Lee")])
    assert [s.text for s in found] == ["#PaulMckenna", "Sharp", "Ann Lee"]


def test_lower_case_words_at_a_names_end_are_left_out_where_the_writer_uses_capitals():
    """"Bailey devise" is "Bailey" in prose written with capitals; "Ann Lee esq" keeps its
    ending and "Rosa de la Cruz" its particles; a firm keeps its legal form in lower case
    ("Kite Holdings plc") and the words after an "and" ("Lanfranchi e figli"), and loses
    other words ("Google app") and an "and" alone (the firm-tails record); the words
    before a name go too, but not a particle ("ping [Rodrigo]", "via [Stripe]", "van der
    Berg", the name-heads record), and a well-known firm's name left is a firm's
    ("grilled [Wells Fargo]", the cut-firms record); a firm keeps no "and" and pronouns
    after it, and was a person's name ("Henrik Aasgaard and myself", the pronouns
    record); what is left too short to be a firm goes ("chase [AP]", the cut-scraps
    record); and in a sentence alone that writes a full name with
    capitals; in a tweet written without capitals "Bailey devise" stays whole."""
    from dataclasses import replace

    from bertforge.pii.tidy import tidy

    prose = ("The editor requested that Bailey devise another story. Ann Lee esq signed it. "
             "Rosa de la Cruz agreed. Kite Holdings plc paid. We rely on Google app stores. "
             "Lanfranchi e figli paid Bull, Nolan and Wu. Ann Ortiz and friends came. "
             "Just ping Rodrigo, paid via Stripe Payments, said van der Berg. They grilled "
             "Wells Fargo. Both owners (Henrik Aasgaard and myself) signed. Ines to chase AP.")
    values = {"Bailey devise": "PERSON", "Ann Lee esq": "PERSON", "Rosa de la Cruz": "PERSON",
              "Kite Holdings plc": "COMPANY", "Google app": "COMPANY",
              "Lanfranchi e figli": "COMPANY", "Bull, Nolan and": "COMPANY",
              "Ann Ortiz and friends": "PERSON", "ping Rodrigo": "PERSON",
              "via Stripe Payments": "COMPANY", "van der Berg": "PERSON",
              "grilled Wells Fargo": "PERSON", "Henrik Aasgaard and myself": "COMPANY",
              "chase AP": "COMPANY"}

    def model(text):
        return [Span(text.index(v), text.index(v) + len(v), label, v, 0.9, "model")
                for v, label in values.items() if v in text]

    assert [(s.text, s.label) for s in tidy(prose, model(prose))] == [
        ("Bailey", "PERSON"), ("Ann Lee esq", "PERSON"), ("Rosa de la Cruz", "PERSON"),
        ("Kite Holdings plc", "COMPANY"), ("Google", "COMPANY"),
        ("Lanfranchi e figli", "COMPANY"), ("Bull, Nolan", "COMPANY"), ("Ann Ortiz", "PERSON"),
        ("Rodrigo", "PERSON"), ("Stripe Payments", "COMPANY"), ("van der Berg", "PERSON"),
        ("Wells Fargo", "COMPANY"), ("Henrik Aasgaard", "PERSON")]
    tweet = "lol Bailey devise is back"
    assert [s.text for s in tidy(tweet, model(tweet))] == ["Bailey devise"]
    # one sentence, too short to tell by its sentences, that writes a person's full name
    # with capitals (the short-texts record, wikigold read a sentence at a time): a name's
    # end as in prose, a lower-case person kept; a name of one word, a full name with a
    # word in lower case, or a firm's name, says nothing
    def spans(text, *values, label="PERSON"):
        return [Span(text.index(v), text.index(v) + len(v), label, v, 0.9, "model")
                for v in values]

    sentence = "In 1984 , script editor Eric Saward requested that Bailey devise it for trump ."
    assert [s.text for s in tidy(sentence, spans(sentence, "Eric Saward", "Bailey devise",
                                                 "trump"))] == ["Eric Saward", "Bailey", "trump"]
    # unless the model was less than half sure of it and it is no name (the
    # unsure-lower-case record: a log's "name mismatch"); a given name stays, and so does
    # a firm in lower case ("venmo")
    log = ('{"msg":"name mismatch","expected":"Jon Whitfield","got":"marco","via":"venmo",'
           '"note":"mismatch"}')
    unsure = [replace(s, score=0.22) for s in spans(log, "mismatch", "marco") +
              spans(log, "venmo", label="COMPANY")]
    sure = log.rindex("mismatch")
    found = tidy(log, spans(log, "Jon Whitfield") + unsure +
                 [Span(sure, sure + 8, "PERSON", "mismatch", 0.9, "model")])
    assert [s.text for s in found] == ["Jon Whitfield", "marco", "venmo", "mismatch"]
    for short, name in (("lol Eric said Bailey devise is back", "Eric"),
                        ("lol Donald trump said Bailey devise is back", "Donald trump")):
        assert [s.text for s in tidy(short, spans(short, name, "Bailey devise"))][-1] == \
            "Bailey devise"
    chat = "Agent: Thanks for contacting Northgate Bank.\nCustomer: Bailey devise is back"
    assert [s.text for s in tidy(chat, spans(chat, "Northgate Bank", label="COMPANY") +
                                 spans(chat, "Bailey devise"))] == ["Northgate Bank",
                                                                    "Bailey devise"]


def test_firms_listed_in_one_span_are_each_a_firm():
    """The firms-listed-together record's probe, with the model's spans as it gave them:
    a list of firms read as one is parted at its commas and "and" where the names either
    side are firms by themselves; not before a firm's word ("Hills Bank and Trust
    Company"), a legal form after a comma ("Acme Holdings, Inc."), a name that is no firm
    by itself ("Comerica", "Exchange Commission") or a name in lower case; a well-known
    firm is one by itself ("Barclays")."""
    from bertforge.pii.tidy import tidy

    firms = ["M&T Bank and Citizens Financial Group", "Webster Bank, Frost Bank and Wintrust",
             "BOK Financial, UMB Financial", "Hills Bank and Trust Company",
             "Acme Holdings, Inc. and Birch Capital LLC", "Comerica and Zions Bancorporation",
             "U.S. Securities and Exchange Commission", "Citizens Financial Group and its Bank",
             "Morgan Stanley and Co", "Barclays and Lloyds Bank"]
    text = "; ".join(firms)
    found = tidy(text, [Span(text.index(v), text.index(v) + len(v), "COMPANY", v, 0.9, "model")
                        for v in firms])
    assert [s.text for s in found] == [
        "M&T Bank", "Citizens Financial Group", "Webster Bank", "Frost Bank and Wintrust",
        "BOK Financial", "UMB Financial", "Hills Bank and Trust Company", "Acme Holdings, Inc.",
        "Birch Capital LLC", "Comerica and Zions Bancorporation",
        "U.S. Securities and Exchange Commission", "Citizens Financial Group and its Bank",
        "Morgan Stanley and Co", "Barclays", "Lloyds Bank"]


def test_two_full_names_read_as_a_firm_are_two_people_though_one_is_on_no_locales_list():
    """The rare-name-pairs record's probe: "Oluwaseun Adeyemi-Park and Teodor Halvorsen"
    is two people ("Oluwaseun" is outside the vocabulary, "Teodor" a given name); not
    where no name starts with a given name, a word is the vocabulary's ("Quillfeather
    Software and Teodor Halvorsen") or the last word is a legal form ("Kessler Dunmore &
    Pratt LLP")."""
    from bertforge.pii.tidy import tidy

    firms = ["Oluwaseun Adeyemi-Park and Teodor Halvorsen",
             "Oluwaseun Adeyemi and Qorvath Halvorsen", "Quillfeather Software and Teodor Halvorsen", "Kessler Dunmore & Pratt LLP"]
    text = "; ".join(firms)
    found = tidy(text, [Span(text.index(v), text.index(v) + len(v), "COMPANY", v, 0.9, "model")
                        for v in firms])
    assert [(s.text, s.label) for s in found] == [
        ("Oluwaseun Adeyemi-Park", "PERSON"), ("Teodor Halvorsen", "PERSON")] + [
        (v, "COMPANY") for v in firms[1:]]


def test_two_peoples_names_read_as_a_firm_are_two_names():
    """"Rafael Ortiz and Lena Ortiz" is two people, and so is "Ikechukwu Nnamdi and Adaeze
    Nnamdi" (one surname, though "Ikechukwu" is no name Faker knows), and in capitals with
    initials without their full stop (the tax-form-pairs record: "KOFI A MENSAH & ABENA
    MENSAH"); "Bull, Nolan and
    Bailey", "Johnson & Johnson", "Morgan Stanley & Co." and "Kite Motors and Lee
    Holdings" stay firms (the last two firms, by the firms-listed-together record)."""
    from bertforge.pii.tidy import tidy

    text = ("Buyer(s): Rafael Ortiz and Lena Ortiz; Bull, Nolan and Bailey; "
            "Johnson & Johnson; Morgan Stanley & Co.; Simon Wood & Ann J. Lee; "
            "Ikechukwu Nnamdi and Adaeze Nnamdi; Kite Motors and Lee Holdings; "
            "KOFI A MENSAH & ABENA MENSAH; DIANA K ROSS AND PAUL ROSS")
    firms = ["Rafael Ortiz and Lena Ortiz", "Bull, Nolan and Bailey", "Johnson & Johnson",
             "Morgan Stanley & Co.", "Simon Wood & Ann J. Lee",
             "Ikechukwu Nnamdi and Adaeze Nnamdi", "Kite Motors and Lee Holdings",
             "KOFI A MENSAH & ABENA MENSAH", "DIANA K ROSS AND PAUL ROSS"]
    found = tidy(text, [Span(text.index(v), text.index(v) + len(v), "COMPANY", v, 0.9, "model")
                        for v in firms])
    assert [(s.text, s.label) for s in found] == [
        ("Rafael Ortiz", "PERSON"), ("Lena Ortiz", "PERSON"),
        ("Bull, Nolan and Bailey", "COMPANY"), ("Johnson & Johnson", "COMPANY"),
        ("Morgan Stanley & Co.", "COMPANY"), ("Simon Wood", "PERSON"), ("Ann J. Lee", "PERSON"),
        ("Ikechukwu Nnamdi", "PERSON"), ("Adaeze Nnamdi", "PERSON"),
        ("Kite Motors", "COMPANY"), ("Lee Holdings", "COMPANY"), ("KOFI A MENSAH", "PERSON"),
        ("ABENA MENSAH", "PERSON"), ("DIANA K ROSS", "PERSON"), ("PAUL ROSS", "PERSON")]
    assert all(text[s.start:s.end] == s.text for s in found)
    # a couple named with one surname (the couples record); not where either first word
    # is no given name, with "&", nor where the full name is more than a given name and a
    # surname (an initial between them) or its surname no name
    text = ("Borrower(s): Kwame and Abena Asante; JAMES AND LINDA CARTER; Kite and Abena "
            "Asante; Kwame and Holdings Asante; Hughes & Lee Carter; Hughes and Lee Car Wash; "
            "Lowe and Taylor Airlines; Ann and Mary J. Okafor")
    firms = ["Kwame and Abena Asante", "JAMES AND LINDA CARTER", "Kite and Abena Asante",
             "Kwame and Holdings Asante", "Hughes & Lee Carter", "Hughes and Lee Car Wash",
             "Lowe and Taylor Airlines", "Ann and Mary J. Okafor"]
    found = tidy(text, [Span(text.index(v), text.index(v) + len(v), "COMPANY", v, 0.9, "model")
                        for v in firms])
    assert [(s.text, s.label) for s in found] == [
        ("Kwame", "PERSON"), ("Abena Asante", "PERSON"), ("JAMES", "PERSON"),
        ("LINDA CARTER", "PERSON"), ("Kite and Abena Asante", "COMPANY"),
        ("Kwame and Holdings Asante", "COMPANY"), ("Hughes & Lee Carter", "COMPANY"),
        ("Hughes and Lee Car Wash", "COMPANY"), ("Lowe and Taylor Airlines", "COMPANY"),
        ("Ann", "PERSON"), ("Mary J. Okafor", "PERSON")]


def test_a_name_on_a_signature_line_is_masked_without_the_line():
    """"_____J. Kowalczyk______" masks "J. Kowalczyk"; a user name keeps its underscores."""
    from bertforge.pii.tidy import tidy

    text = "Signature  _____J. Kowalczyk______   login: _svc_etl_ by __Keel Ltd__"
    values = {"_____J. Kowalczyk______": "PERSON", "_svc_etl_": "DIGITAL", "__Keel Ltd__": "COMPANY"}
    found = tidy(text, [Span(text.index(v), text.index(v) + len(v), label, v, 0.9, "model")
                        for v, label in values.items()])
    assert [s.text for s in found] == ["J. Kowalczyk", "_svc_etl_", "Keel Ltd"]


def test_a_firms_legal_form_is_masked_with_its_name():
    """"Atlas Renard" + " Inc.", "Tevetoğlu Tic" + ".", "Creek Title" & "Escrow" + ", LLC"
    are each one firm; "AS" and "SE" are words, and "AB-7731" is a reference."""
    from bertforge.pii.tidy import tidy

    text = ("Pay Atlas Renard Inc. and Tevetoğlu Tic. via Creek Title & Escrow, LLC at 8812 SE "
            "Lambert St; Keel AS agent; Kite Motors AB-7731; Banco Santander, S.A. and Basic.")
    values = [("Atlas Renard", "COMPANY"), ("Tevetoğlu Tic", "COMPANY"), ("Creek Title", "COMPANY"),
              ("Banco Santander, S.A", "COMPANY"), ("Basic", "COMPANY"),
              ("Escrow", "COMPANY"), ("8812 SE Lambert St", "ADDRESS"), ("Keel", "COMPANY"),
              ("Kite Motors", "COMPANY")]
    found = tidy(text, sorted(Span(text.index(v), text.index(v) + len(v), label, v, 0.9, "model")
                              for v, label in values))
    assert [(s.text, s.label) for s in found] == [
        ("Atlas Renard Inc.", "COMPANY"), ("Tevetoğlu Tic.", "COMPANY"),
        ("Creek Title & Escrow, LLC", "COMPANY"), ("8812 SE Lambert St", "ADDRESS"),
        ("Keel", "COMPANY"), ("Kite Motors", "COMPANY"), ("Banco Santander, S.A.", "COMPANY"),
        ("Basic", "COMPANY")]
    assert all(text[s.start:s.end] == s.text for s in found)
    # and the forms of professional firms and partnerships (the professional-forms record)
    text = ("Plante & Moran, PLLC, Ann Arbor; Luse Gorman, PC served; Castellan Partners III, "
            "L.P. and Oakmont Ventures LP and Ridge ULC; Dykema Gossett P.L.L.C. billed.")
    values = [("Plante & Moran", "COMPANY"), ("PLLC", "COMPANY"), ("Luse Gorman", "COMPANY"),
              ("Castellan Partners III", "COMPANY"), ("Oakmont Ventures", "COMPANY"),
              ("Ridge", "COMPANY"), ("Dykema Gossett", "COMPANY")]
    assert [s.text for s in tidy(text, spans_at(text, values))] == [
        "Plante & Moran, PLLC", "Luse Gorman, PC", "Castellan Partners III, L.P.",
        "Oakmont Ventures LP", "Ridge ULC", "Dykema Gossett P.L.L.C."]
    # and where a group's firm sits, in brackets before its form, with the model's span of
    # the seat (the firm-seats record); a bracket with no form after it stays out
    text = "Tata Steel (UK) Limited and Marlowe Holdings (BVI) Ltd paid Kite Motors (Ohio) today."
    values = [("Tata Steel", "COMPANY"), ("Marlowe Holdings", "COMPANY"), ("BVI", "COMPANY"),
              ("Kite Motors", "COMPANY")]
    found = tidy(text, sorted(Span(text.index(v), text.index(v) + len(v), label, v, 0.9, "model")
                              for v, label in values))
    assert [s.text for s in found] == ["Tata Steel (UK) Limited", "Marlowe Holdings (BVI) Ltd",
                                       "Kite Motors"]
    # firm words run the name on ("Davis" + " Academy"), then the form after them
    text = ("Hellwig Academy Inc. and Davis Academy; Kite Group Ann Lee; Kestrel Supplies Ltd; "
            "Castleford Recoveries")
    values = [("Hellwig", "COMPANY"), ("Davis", "COMPANY"), ("Kite", "COMPANY"), ("Ann Lee", "PERSON"),
              ("Kestrel", "COMPANY"), ("Castleford", "COMPANY")]
    found = tidy(text, spans_at(text, values))
    assert [s.text for s in found] == ["Hellwig Academy Inc.", "Davis Academy", "Kite Group",
                                       "Ann Lee", "Kestrel Supplies Ltd", "Castleford Recoveries"]
    # and the capitalised words before its legal form (the words-to-forms record's probe,
    # the model's span as it gave it); not a defined term's "The", nor four words
    text = ("the Trustee, Fidelity National Title Company, and Acme The Company; Kite Alpha "
            "Beta Gamma Delta Company")
    found = tidy(text, spans_at(text, [("Fidelity", "COMPANY"), ("Acme", "COMPANY"),
                                       ("Kite", "COMPANY")]))
    assert [s.text for s in found] == ["Fidelity National Title Company", "Acme", "Kite"]
    # and a practice's words (the care-firms record's probes, the model's spans as it gave
    # them: the lone word "Dental" takes its name in; "Greenway" runs on)
    text = ("Dr. Anand Krishnamurthy at Bayside Dental was great. Invoice from Greenway "
            "Veterinary Clinic; filled at Corner Pharmacy; Sunrise Pediatrics; Lakeside "
            "Dermatology; Harbor Orthodontics; Riverside Optometry.")
    values = [("Anand Krishnamurthy", "PERSON"), ("Dental", "COMPANY"), ("Greenway", "COMPANY"),
              ("Corner", "COMPANY"), ("Sunrise", "COMPANY"), ("Lakeside", "COMPANY"),
              ("Harbor", "COMPANY"), ("Riverside", "COMPANY")]
    found = tidy(text, spans_at(text, values))
    assert [s.text for s in found] == [
        "Anand Krishnamurthy", "Bayside Dental", "Greenway Veterinary Clinic", "Corner Pharmacy",
        "Sunrise Pediatrics", "Lakeside Dermatology", "Harbor Orthodontics", "Riverside Optometry"]
    # a form where another span starts is left to that span (a DIGITAL one: an account
    # number without a digit is dropped, the account-digits record)
    text = "Kite Motors Ltd"
    found = tidy(text, [Span(0, 11, "COMPANY", "Kite Motors", 0.9, "model"),
                        Span(12, 15, "DIGITAL", "Ltd", 0.9, "model")])
    assert [s.text for s in found] == ["Kite Motors", "Ltd"]
    # unless that span is the model's firm of the form itself (as the model gives
    # "JPMorgan Chase Bank" and "N.A."); "National Association" is a bank's form
    text = "JPMorgan Chase Bank, N.A. and U.S. Bank National Association, agents"
    values = [("JPMorgan Chase Bank", "COMPANY"), ("N.A.", "COMPANY"), ("U.S. Bank", "COMPANY")]
    found = tidy(text, spans_at(text, values))
    assert [s.text for s in found] == ["JPMorgan Chase Bank, N.A.",
                                       "U.S. Bank National Association"]



def test_a_firm_written_in_capitals_is_masked_whole():
    """Parties of a filing in capitals, as the bundled model gives them on the
    capital-firms record's probe: the forms and firm words in capitals join their firm,
    and two firm spans one space apart join when the second ends in a form; two firms a
    comma apart, and a firm followed by a plain word in capitals, stay as they are."""
    from bertforge.pii.tidy import tidy

    text = ("WELLS FARGO BANK, NATIONAL ASSOCIATION, as Agent; U.S. BANK TRUST COMPANY, NATIONAL "
            "ASSOCIATION; MORGAN STANLEY SENIOR FUNDING, INC.; BLUE RIDGE TIMBER COMPANY; "
            "ACME, BETA LLC; NORTHWIND PAYMENT")
    values = [("WELLS FARGO BANK", "COMPANY"), ("ASSOCIATION,", "COMPANY"), ("U.S. BANK TRUST", "COMPANY"),
              ("COMPANY, NATIONAL ASSOCIATION", "COMPANY"), ("MORGAN STANLEY", "COMPANY"),
              ("SENIOR FUNDING, INC.", "COMPANY"), ("BLUE RIDGE TIMBER", "COMPANY"),
              ("ACME", "COMPANY"), ("BETA LLC", "COMPANY"), ("NORTHWIND", "COMPANY")]
    found = tidy(text, spans_at(text, values))
    assert [s.text for s in found] == [
        "WELLS FARGO BANK, NATIONAL ASSOCIATION", "U.S. BANK TRUST COMPANY, NATIONAL ASSOCIATION",
        "MORGAN STANLEY SENIOR FUNDING, INC.", "BLUE RIDGE TIMBER COMPANY", "ACME", "BETA LLC",
        "NORTHWIND"]
    assert {s.label for s in found} == {"COMPANY"}
    # a person's name one space before a firm is no part of it
    text = "PAID BY ANNA KOWALSKA ACME HOLDINGS, INC."
    found = tidy(text, [Span(8, 21, "PERSON", "ANNA KOWALSKA", 0.9, "model"),
                        Span(22, 41, "COMPANY", "ACME HOLDINGS, INC.", 0.9, "model")])
    assert [(s.text, s.label) for s in found] == [("ANNA KOWALSKA", "PERSON"),
                                                  ("ACME HOLDINGS, INC.", "COMPANY")]

def test_a_numbered_name_in_a_line_up_is_a_name_not_an_address():
    """The model's spans of a football line-up as the bundled model gives them: "5 -
    Norio Omura" read as an address is the player's name; "5 - 7 High Street" and "12 -
    Baker Street" stay addresses."""
    from bertforge.pii.tidy import tidy

    text = ("Japan : 19 - Kenichi Shimokawa , 2 - Hiroshige Yanagimoto , 3 - Naoki Soma , "
            "4 - Masami Ihara , 5 - Norio Omura , 6 - Motohiro Yamaguchi , 8 - Masakiyo "
            "Maezono ( 7 - Yasuto Honda 71 ) , 9 - Takuya Takagi . Office: 5 - 7 High "
            "Street , 12 - Baker Street")
    given = [("Kenichi Shimokawa", "PERSON"), ("2 - Hiroshige Yanagimoto", "PERSON"),
             ("3 -", "ADDRESS"), ("Naoki Soma", "PERSON"), ("4 -", "ADDRESS"),
             ("Masami Ihara", "PERSON"), ("5 - Norio Omura", "ADDRESS"),
             ("6 - Motohiro Yamaguchi", "ADDRESS"), ("8 - Masakiyo Maezono", "ADDRESS"),
             ("7 - Yasuto Honda 71", "ADDRESS"), ("9 - Takuya Takagi", "ADDRESS"),
             ("5 - 7 High Street", "ADDRESS"), ("12 - Baker Street", "ADDRESS")]
    found = tidy(text, [Span(text.index(v), text.index(v) + len(v), label, v, 0.99, "model")
                        for v, label in given])
    assert [(s.text, s.label) for s in found] == [
        ("Kenichi Shimokawa", "PERSON"), ("Hiroshige Yanagimoto", "PERSON"),
        ("Naoki Soma", "PERSON"), ("Masami Ihara", "PERSON"), ("Norio Omura", "PERSON"),
        ("Motohiro Yamaguchi", "PERSON"), ("Masakiyo Maezono", "PERSON"),
        ("Yasuto Honda", "PERSON"), ("Takuya Takagi", "PERSON"),
        ("5 - 7 High Street", "ADDRESS"), ("12 - Baker Street", "ADDRESS")]
    assert all(text[s.start:s.end] == s.text for s in found)


def test_an_interest_rate_benchmark_is_nobodys_name():
    """The model's COMPANY spans of a loan agreement's interest clauses ("each Term SOFR
    Loan", "ABR Borrowings", the caption "Eurodollar Spread") are dropped; a firm with
    such a word among others ("Eurodollar Partners LLC") stays."""
    from bertforge.pii.tidy import tidy

    text = ("Each Term SOFR Loan bears interest at Term SOFR; each Eurodollar Borrowing at "
            "the Adjusted Eurodollar Rate; ABR Borrowings at the Prime Rate; the caption "
            "\"Eurodollar Spread\". Agent: Eurodollar Partners LLC.")

    def at(value, nth=0):
        start = -1
        for _ in range(nth + 1):
            start = text.index(value, start + 1)
        return Span(start, start + len(value), "COMPANY", value, 0.6, "model")

    found = tidy(text, [at("SOFR"), at("Term SOFR", 1), at("Eurodollar"), at("ABR"),
                        at("Eurodollar Spread"), at("Eurodollar Partners LLC")])
    assert [s.text for s in found] == ["Eurodollar Partners LLC"]



def test_a_banks_checks_on_a_customer_are_nobodys_name():
    """The compliance-terms record's probe, with the model's spans as it gave them: the
    checks of a KYC review ("EDD", "CDD", "UBO", "MLRO") and the EU's acronyms for its crypto
    and anti-money-laundering rules ("MiCA", "AMLD") are no one's, "EDD" although "Edd"
    is a given name; "Edd Kimber" and "Mica Levi" stay persons."""
    from bertforge.pii.tidy import tidy

    text = ("KYC Review Notes. EDD completed 02-Dec-2026; CDD refreshed; UBO verified; escalated "
            "to the MLRO under MiCA and AMLD. Met Edd Kimber and Mica Levi.")
    values = [("EDD", "PERSON"), ("CDD", "COMPANY"), ("UBO", "PERSON"), ("MLRO", "COMPANY"),
              ("MiCA", "PERSON"),
              ("AMLD", "COMPANY"), ("Edd Kimber", "PERSON"), ("Mica Levi", "PERSON")]
    found = tidy(text, spans_at(text, values))
    assert [s.text for s in found] == ["Edd Kimber", "Mica Levi"]


def test_statutes_and_standards_are_nobodys_name():
    """The contract-terms record's probe, with the model's spans as it gives them in bf16
    and in fp32: no statute, standard or benchmark stays masked, whatever its label and
    however the model lists it; a regulator listed with statutes ("FINRA") stays, and so
    do names in capitals ("SONIA RUBACHA", "SONIA" alone as a person) and a firm with a
    term among its words ("GAAP Advisors LLC")."""
    from bertforge.pii.tidy import tidy

    text = ("Section 6.14 ERISA. Each Loan Party complies with ERISA, HIPAA, COBRA, FATCA, "
            "CERCLA, RICO, the FCPA and the USA PATRIOT Act, in accordance with GAAP. Interest "
            "accrues at Daily Simple SONIA, EURIBOR or LIBOR. Dodd-Frank, Sarbanes-Oxley or "
            "FINRA rules apply. Payee: SONIA RUBACHA; name: SONIA; auditor: GAAP Advisors LLC. "
            "Bank: Vietcombank, SWIFT BFTVVNVX; Loan Officer: Ann Coles, NMLS #1893220; "
            "Ticket holder: Taylor Swift. Card ending 3318, ARN 74027656279000123456789; Arn "
            "Lindqvist signed.")

    def at(value, label, nth=0):
        start = -1
        for _ in range(nth + 1):
            start = text.index(value, start + 1)
        return Span(start, start + len(value), label, value, 0.9, "model")

    found = tidy(text, [at("ERISA", "PERSON"), at("ERISA, HIPAA", "COMPANY"), at("COBRA", "COMPANY"),
                        at("FATCA", "COMPANY"), at("CERCLA, RICO", "ADDRESS"),
                        at("the USA PATRIOT Act", "COMPANY"), at("GAAP", "COMPANY"),
                        at("Daily Simple SONIA, EURIBOR or", "COMPANY"),
                        at("Dodd-Frank, Sarbanes-Oxley or FINRA", "COMPANY"),
                        at("SONIA RUBACHA", "PERSON"), at("SONIA", "PERSON", 2),
                        at("GAAP Advisors LLC", "COMPANY"), at("SWIFT", "PERSON"),
                        at("Ann Coles", "PERSON"), at("NMLS", "PERSON"),
                        at("Taylor Swift", "PERSON"), at("ARN", "PERSON"),
                        at("Arn Lindqvist", "PERSON")])
    assert [(s.text, s.label) for s in found] == [
        ("FINRA", "COMPANY"), ("SONIA RUBACHA", "PERSON"), ("SONIA", "PERSON"),
        ("GAAP Advisors LLC", "COMPANY"), ("Ann Coles", "PERSON"), ("Taylor Swift", "PERSON"),
        ("Arn Lindqvist", "PERSON")]
    assert all(text[s.start:s.end] == s.text for s in found)

def test_a_person_whose_name_ends_in_a_firms_word_is_a_firm():
    """"Olausson Nilsson HB", "de Wit Groep" and "Banque de France" are firms, and so is
    "BDO Unibank", ending in a bank's glued name (the glued-bank-names record), and a team
    named with its plural, whole or in part (the team-names record); "Ann Banks", "Jordan
    Capitalo", "Ann Unibanks" and "Ann Chief" are people."""
    from bertforge.pii.tidy import tidy

    text = ("Olausson Nilsson HB; de Wit Groep; Banque de France; Ann Banks; Jordan Capitalo; "
            "BDO Unibank; Ann Unibanks; Kaizer Chiefs beat Orlando Pirates; Ann Chief")
    names = ["Olausson Nilsson HB", "de Wit Groep", "Banque de France", "Ann Banks",
             "Jordan Capitalo", "BDO Unibank", "Ann Unibanks", "Kaizer Chiefs", "Pirates",
             "Ann Chief"]
    found = tidy(text, [Span(text.index(v), text.index(v) + len(v), "PERSON", v, 0.9, "model")
                        for v in names])
    assert [s.label for s in found] == ["COMPANY", "COMPANY", "COMPANY", "PERSON", "PERSON",
                                        "COMPANY", "PERSON", "COMPANY", "COMPANY", "PERSON"]


def test_a_name_split_into_a_firm_and_a_person_is_one_person():
    """"Pompeo" (COMPANY) + "Pelli" (PERSON) is "Pompeo Pelli", either way round; a firm
    that is no name ("Acme") or of two words ("Kite Motors") stays a firm; and the two
    halves of a listed firm ("Merrill" + "Lynch") are that firm, not a person."""
    from bertforge.pii.tidy import tidy

    text = "| Pompeo Pelli | Boix Anacleto | Acme Ann | Kite Motors Lee | Merrill Lynch |"
    values = [("Pompeo", "COMPANY"), ("Pelli", "PERSON"), ("Boix", "PERSON"),
              ("Anacleto", "COMPANY"), ("Acme", "COMPANY"), ("Ann", "PERSON"),
              ("Kite Motors", "COMPANY"), ("Lee", "PERSON"), ("Merrill", "COMPANY"),
              ("Lynch", "PERSON")]
    found = tidy(text, sorted(Span(text.index(v), text.index(v) + len(v), label, v, 0.9, "model")
                              for v, label in values))
    assert [(s.text, s.label) for s in found] == [
        ("Pompeo Pelli", "PERSON"), ("Boix Anacleto", "PERSON"), ("Acme", "COMPANY"),
        ("Ann", "PERSON"), ("Kite Motors", "COMPANY"), ("Lee", "PERSON"),
        ("Merrill Lynch", "COMPANY")]
    # two counsel's names read as a firm up to the second's given name, the rest as a
    # person, are the two (the counsel-pairs record); a firm "and" a person stays so
    text = ("counsel, Laura Davis Jones and Timothy P. Cairns of Pachulski; Bull Nolan and "
            "Bailey Ross; Carter Freight and Lena Ortiz.")
    values = [("Laura Davis Jones and Timothy", "COMPANY"), ("P. Cairns", "PERSON"),
              ("Bull Nolan and Bailey", "COMPANY"), ("Ross", "PERSON"),
              ("Carter Freight and Lena", "COMPANY"), ("Ortiz", "PERSON")]
    assert [(s.text, s.label) for s in tidy(text, spans_at(text, values))] == [
        ("Laura Davis Jones", "PERSON"), ("Timothy P. Cairns", "PERSON"),
        ("Bull Nolan", "PERSON"), ("Bailey Ross", "PERSON"),
        ("Carter Freight and Lena", "COMPANY"), ("Ortiz", "PERSON")]


def test_a_given_name_read_as_a_place_before_its_surname_is_one_person():
    """The given-names-as-places record's probes: "/s/ [Hiroko]" (ADDRESS) + "[Matsudaira]"
    (PERSON) is one person, and so is "Sydney" (a place, but a widely given name) before
    a surname; a known place that is no given name ("London"), a word in capitals, a
    place before a person's name of two words and a place two spaces from a surname stay
    as the model read them."""
    from bertforge.pii.tidy import tidy

    text = ("/s/ Hiroko Matsudaira | met rep Yusuf Demirci. | Sydney Smith | London Smith | "
            "HIROKO Matsudaira | Hiroko Ann Lee | Hiroko  Matsudaira |")
    values = [("Hiroko", "ADDRESS"), "Matsudaira", ("Yusuf", "ADDRESS"), "Demirci",
              ("Sydney", "ADDRESS"), "Smith", ("London", "ADDRESS"), "Smith",
              ("HIROKO", "ADDRESS"), "Matsudaira", ("Hiroko", "ADDRESS"), "Ann Lee",
              ("Hiroko", "ADDRESS"), "Matsudaira"]
    assert [(s.text, s.label) for s in tidy(text, spans_in_turn(text, values))] == [
        ("Hiroko Matsudaira", "PERSON"), ("Yusuf Demirci", "PERSON"), ("Sydney Smith", "PERSON"),
        ("London", "ADDRESS"), ("Smith", "PERSON"), ("HIROKO", "ADDRESS"),
        ("Matsudaira", "PERSON"), ("Hiroko", "ADDRESS"), ("Ann Lee", "PERSON"),
        ("Hiroko", "ADDRESS"), ("Matsudaira", "PERSON")]


def test_a_given_name_read_as_a_firm_before_a_spouses_full_name_is_a_person():
    """The couples-given-names record's probe: "born to [Obiora] and [Ngozika Nwachukwu]",
    the first read as a firm, is two people; so is a given name Faker knows ("Maria");
    a word of the vocabulary ("Harbor"), a well-known firm ("Navient"), a word in capitals,
    one before a one-word person, one before "&" and a firm's span of two words stay
    firms."""
    from bertforge.pii.tidy import tidy

    text = ("born to Obiora and Ngozika Nwachukwu. Maria and Tom Lee; Harbor and Tom Lee; "
            "Navient and Tom Lee; OBIORA and Tom Lee; Obiora and Lee; Obiora & Tom Lee; "
            "Obiora Foods and Tom Lee.")
    values = [("Obiora", "COMPANY"), "Ngozika Nwachukwu", ("Maria", "COMPANY"), "Tom Lee",
              ("Harbor", "COMPANY"), "Tom Lee", ("Navient", "COMPANY"), "Tom Lee",
              ("OBIORA", "COMPANY"), "Tom Lee", ("Obiora", "COMPANY"), "Lee",
              ("Obiora", "COMPANY"), "Tom Lee", ("Obiora Foods", "COMPANY"), "Tom Lee"]
    found = tidy(text, spans_in_turn(text, values))
    assert [s.label for s in found if s.text != "Tom Lee"] == [
        "PERSON", "PERSON", "PERSON", "COMPANY", "COMPANY", "COMPANY", "COMPANY", "PERSON",
        "COMPANY", "COMPANY"]


def test_a_rare_given_name_read_as_a_firm_in_a_list_of_persons_joins_its_surname():
    """The rare-given-names record's probe: "Tully and [Deepak] [Menon]", a given name
    Faker's lists lack read as a firm before a known surname in a list of persons, is one
    person; a word of the vocabulary ("Harbor"), a word in capitals ("DEEPAK"), one
    before no known name ("Xqzv"), one after a firm's span rather than a person's, and
    one after a person's with no list's comma or "and" between stay as the model read
    them."""
    from bertforge.pii.tidy import tidy

    text = ("Elect Anna Kowalczyk, Robert J. Tully and Deepak Menon. Ann Lee, Harbor Menon. "
            "Ann Lee and DEEPAK Menon. Ann Lee, Deepak Xqzv. Acme Corp and Deepak Menon. "
            "Ann Lee: Deepak Menon.")
    values = [("Anna Kowalczyk", "PERSON"), ("Robert J. Tully", "PERSON"), ("Deepak", "COMPANY"),
              ("Menon", "PERSON"), ("Ann Lee", "PERSON"), ("Harbor", "COMPANY"),
              ("Menon", "PERSON"), ("Ann Lee", "PERSON"), ("DEEPAK", "COMPANY"),
              ("Menon", "PERSON"), ("Ann Lee", "PERSON"), ("Deepak", "COMPANY"),
              ("Xqzv", "PERSON"), ("Acme Corp", "COMPANY"), ("Deepak", "COMPANY"),
              ("Menon", "PERSON"), ("Ann Lee", "PERSON"), ("Deepak", "COMPANY"),
              ("Menon", "PERSON")]
    found = [(s.text, s.label) for s in tidy(text, spans_in_turn(text, values))]
    assert found[:3] == [("Anna Kowalczyk", "PERSON"), ("Robert J. Tully", "PERSON"),
                         ("Deepak Menon", "PERSON")]
    assert found[3:] == [(v, label) for v, label in values[4:]]


def test_a_filers_name_in_capitals_surname_first_is_a_person():
    """The filer-names record's probe, with the model's spans as it gave them: a Form 4's
    "FENWICK GRAHAM R" read as a firm is a person; firms in capitals with a last letter
    whose second word is no given name ("ACME HOLDINGS B"), or without an initial (the
    estate agents "BRIGHTON JAMES"), stay firms; and "Miller, Brandon" is a person."""
    from bertforge.pii.tidy import tidy

    text = ("Reporting Person: FENWICK GRAHAM R; Issuer: ACME HOLDINGS B; BRIGHTON JAMES; "
            "Miller, Brandon; Kite, Motors; Zentrix, Grace")
    values = [("FENWICK GRAHAM R", "COMPANY"), ("ACME HOLDINGS B", "COMPANY"),
              ("BRIGHTON JAMES", "COMPANY"), ("Miller, Brandon", "COMPANY"),
              ("Kite, Motors", "COMPANY"), ("Zentrix, Grace", "COMPANY")]
    assert [(s.label, s.text) for s in tidy(text, spans_at(text, values))] == [
        ("PERSON", "FENWICK GRAHAM R"), ("COMPANY", "ACME HOLDINGS B"),
        ("COMPANY", "BRIGHTON JAMES"), ("PERSON", "Miller, Brandon"),
        ("COMPANY", "Kite, Motors"), ("COMPANY", "Zentrix, Grace")]


def test_an_advisers_label_alone_is_nobodys():
    """The advisers-labels record's probe, with the model's spans as it gave them: a
    filing's or an insolvency's advisers' labels read alone as a firm or a person are
    nobody's ("[Solicitors]: Slaughter and May", "[Liquidator]: Paul Whitehead"), the
    firm and the name after them stay."""
    from bertforge.pii.tidy import tidy

    text = ("Auditors: PricewaterhouseCoopers LLP\nSolicitors: Slaughter and May\n"
            "Brokers: Numis Securities Limited\nLiquidator: Paul Whitehead\n"
            "Actuary: Ian Featherstone\nTrustee: Declan Moriarty\n"
            "Bookrunners: BNP Paribas\nArranger: Barclays")
    spans = spans_at(text, [("Auditors", "COMPANY"), ("PricewaterhouseCoopers LLP", "COMPANY"),
                            ("Solicitors", "COMPANY"), ("Slaughter and May", "COMPANY"),
                            ("Brokers", "COMPANY"), "Liquidator", "Paul Whitehead",
                            "Actuary", "Ian Featherstone", "Trustee", "Declan Moriarty",
                            ("Bookrunners", "COMPANY"), ("BNP Paribas", "COMPANY"),
                            ("Arranger", "COMPANY"), ("Barclays", "COMPANY")])
    assert [s.text for s in tidy(text, spans)] == [
        "PricewaterhouseCoopers LLP", "Slaughter and May", "Paul Whitehead",
        "Ian Featherstone", "Declan Moriarty", "BNP Paribas", "Barclays"]


def test_a_claims_handlers_label_alone_is_nobodys():
    """The claims-labels record's probe, with the model's spans as it gave them: a claim's
    handler's label read alone as a person is nobody's ("[Assessor]: Johan van der
    Merwe"), the name after it stays."""
    from bertforge.pii.tidy import tidy

    labels = ["Assessor", "Adjuster", "Adjustor", "Appraiser", "Surveyor"]
    text = "\n".join(f"{label}: Johan van der Merwe" for label in labels)
    spans = spans_at(text, [v for i, label in enumerate(labels)
                            for v in ((label, "PERSON"), ("Johan van der Merwe", "PERSON", i))])
    assert [s.text for s in tidy(text, spans)] == ["Johan van der Merwe"] * len(labels)


def test_a_partys_role_before_a_firm_is_no_part_of_it():
    """The party-leads record's probe, with the model's spans as it gave them: the
    "Appellee" of "Defendant-Appellee Meridian Capital Partners LLC" and a debtor's role
    are left out of the firm; a firm whose first word is no role, and a role alone, stay
    as they were."""
    from bertforge.pii.tidy import tidy

    text = ("against Defendant-Appellee Meridian Capital Partners LLC; Debtor Harborview "
            "Holdings, Inc. and Summit Lending Corp filed.")
    values = [("Appellee Meridian Capital Partners LLC", "COMPANY"),
              ("Debtor Harborview Holdings, Inc.", "COMPANY"), ("Summit Lending Corp", "COMPANY")]
    assert [s.text for s in tidy(text, spans_at(text, values))] == [
        "Meridian Capital Partners LLC", "Harborview Holdings, Inc.", "Summit Lending Corp"]
    # and before a person (the person-roles record's probe, an appeal's opinion); a
    # surname that is a role's plural after its given name stays, and a role alone goes
    text = ("Appellant Delphine Okoro-Whitfield appeals; Plaintiffs Ann Lee and Bo Kim; Jane "
            "Sellers signed; the Appellant.")
    values = ["Appellant Delphine Okoro-Whitfield", "Plaintiffs Ann Lee", "Bo Kim",
              "Jane Sellers", "Appellant"]
    assert [s.text for s in tidy(text, spans_in_turn(text, values))] == [
        "Delphine Okoro-Whitfield", "Ann Lee", "Bo Kim", "Jane Sellers"]


def test_a_name_written_surname_first_is_a_person_not_a_firm():
    """"Miller, Brandon" and "Hermansen, Ib" are people; "Bull, Nolan and Bailey" and
    "Skadden, Arps" (no given name second) are firms."""
    from bertforge.pii.tidy import tidy

    text = "| Miller, Brandon | Hermansen, Ib | Bull, Nolan and Bailey | Skadden, Arps |"
    values = ["Miller, Brandon", "Hermansen, Ib", "Bull, Nolan and Bailey", "Skadden, Arps"]
    found = tidy(text, [Span(text.index(v), text.index(v) + len(v), "COMPANY", v, 0.9, "model")
                        for v in values])
    assert [s.label for s in found] == ["PERSON", "PERSON", "COMPANY", "COMPANY"]


def test_a_payments_authorisation_code_is_not_masked_as_card_data():
    """"AUTH CODE 154" on a receipt is no security code; the card number above it and a
    CVV after its own keyword are masked."""
    from bertforge.pii.tidy import tidy

    text = "CARD 4111 1111 1111 1111\nAUTH CODE 154\nAuthorization #: 883921\nCVV 123"
    values = ["4111 1111 1111 1111", "154", "883921", "123"]
    found = tidy(text, [Span(text.index(v), text.index(v) + len(v), "CARD", v, 0.9, "model")
                        for v in values])
    assert [s.text for s in found] == ["4111 1111 1111 1111", "123"]


def test_a_secret_is_masked_with_its_first_and_last_characters_and_not_its_key():
    """A password's "^" or ")" is part of it (left in clear, it leaks); a KEY= or a JSON
    quote is not, nor a sentence's full stop, the brackets around a user name, or the
    bracket that closes an aside opened before it ("(login: t.okafor88)")."""
    from bertforge.pii.tidy import tidy

    text = ('Password: ^3l+@2_ip9P\npassword = dKz#qXRo9XiB3)\nDB_USER=svc_payments\n'
            '{"user":"jdoe_77"} Login (alex52). Send to bob99. A sign-in (login: t.okafor88) failed.')

    def span(value):
        return Span(text.index(value), text.index(value) + len(value), "DIGITAL", value)

    found = tidy(text, [span(v) for v in ("3l+@2_ip9P", "dKz#qXRo9XiB3", "svc_payments",
                                          "jdoe_77", "alex52", "bob99", "t.okafor88")])
    assert [s.text for s in found] == ["^3l+@2_ip9P", "dKz#qXRo9XiB3)", "svc_payments",
                                       "jdoe_77", "alex52", "bob99", "t.okafor88"]


def test_model_spans_are_widened_to_whole_words():
    from bertforge.pii.tidy import tidy

    text = "DB_USER=svc_payments\nuser etl_reader_02 read it"
    cut = [Span(8, 12, "DIGITAL", text[8:12]), Span(26, 36, "DIGITAL", text[26:36])]
    assert [s.text for s in tidy(text, cut)] == ["svc_payments", "etl_reader_02"]
    halves = [Span(8, 12, "DIGITAL", "svc_"), Span(15, 20, "ACCOUNT", "ments")]
    assert [(s.label, s.text) for s in tidy(text, halves)] == [("DIGITAL", "svc_payments")]
    whole = [Span(26, 39, "DIGITAL", "etl_reader_02")]  # (not "DB_USER": the setting-keys
    assert [s.text for s in tidy(text, whole)] == ["etl_reader_02"]  # record drops a key)


def test_brackets_around_a_value_are_not_part_of_it():
    from bertforge.pii.tidy import tidy

    text = "Employee: N. Erdogan (52140), call (212) 555-0187 (home) at (40.7128, -74.0060)"
    spans = [Span(21, 28, "ACCOUNT", "(52140)"), Span(35, 56, "PHONE", text[35:56]),
             Span(60, 79, "LOCATION", text[60:79])]
    assert [s.text for s in tidy(text, spans)] == ["52140", "(212) 555-0187 (home)",
                                                     "(40.7128, -74.0060)"]


def test_markup_names_are_not_personal_data():
    from bertforge.pii.tidy import tidy

    text = '<Dbtr><PstlAdr>12 High St</PstlAdr><Amt Ccy="EUR">5</Amt></Dbtr> Ann <ann@x.com>'
    spans = [Span(text.index(w), text.index(w) + len(w), "ADDRESS", w)
             for w in ("PstlAdr", "12 High St", "Amt Ccy", "EUR", "ann@x.com")]
    assert [s.text for s in tidy(text, spans)] == ["12 High St", "EUR", "ann@x.com"]


def test_names_have_no_digits():
    from bertforge.pii.tidy import tidy

    def person(text, word):
        start = text.index(word)
        return Span(start, start + len(word), "PERSON", word)

    # an MT940 line's transaction code is no name; a name with a number glued on is cut
    text = ":61:241017C283,27NTRFNONREF\n:86:ANNA KOWALSKA"
    assert [s.text for s in tidy(text, [person(text, "27NTRFNONREF"), person(text, "ANNA KOWALSKA")])] \
        == ["ANNA KOWALSKA"]
    text = "paid Jane Doe 4410 Ann Lee"
    assert [s.text for s in tidy(text, [person(text, "Jane Doe 4410 Ann Lee")])] == ["Jane Doe", "Ann Lee"]
    # a JSON escape is a letter, not digits
    text = '{"name": "Mar\\u00eda Jos\\u00e9 Rico"}'
    assert [s.text for s in tidy(text, [person(text, "Mar\\u00eda Jos\\u00e9 Rico")])] == [
        "Mar\\u00eda Jos\\u00e9 Rico"]
    # other groups keep their digits
    text = "user anna_k2 logged in"
    assert [s.text for s in tidy(text, [Span(5, 12, "DIGITAL", "anna_k2")])] == ["anna_k2"]


def test_a_full_stop_after_a_date_ends_the_sentence():
    from bertforge.pii.tidy import tidy

    text = "Seen on Jun 17, 2022 03:11 AM. Paid 2024-03-01. Called at 9 a.m. today"
    spans = [Span(text.index(w), text.index(w) + len(w), "DATE", w)
             for w in ("Jun 17, 2022 03:11 AM.", "2024-03-01.", "9 a.m.")]
    assert [s.text for s in tidy(text, spans)] == ["Jun 17, 2022 03:11 AM", "2024-03-01", "9 a.m."]
    found = [text[m.start:m.end] for m in find(text) if m.group == "DATE"]
    assert "Jun 17, 2022 03:11 AM" in found and not any(f.endswith("AM.") for f in found)
    text = "2025-02-19 08:14:33,902 ERROR job failed at 10:30, 5 retries"
    found = [text[m.start:m.end] for m in find(text) if m.group == "DATE"]
    assert found == ["2025-02-19 08:14:33,902", "10:30"]  # Python logging's milliseconds
    # and after a weekday's or a month's name in full (the calendar-full-stops record);
    # an abbreviation keeps its own
    text = "Due 12 March. Met 3 May, Friday. Paid 3 Sept. Sent 4 March, Fri. Got 5 Jan."
    values = ("12 March.", "3 May, Friday.", "3 Sept.", "4 March, Fri.", "5 Jan.")
    spans = [Span(text.index(w), text.index(w) + len(w), "DATE", w) for w in values]
    assert [s.text for s in tidy(text, spans)] == ["12 March", "3 May, Friday", *values[2:]]


def test_a_date_starts_after_the_preposition_before_it():
    from bertforge.pii.tidy import tidy

    # the bundled model gives "before" P(B-DATE) right at the threshold: whether it is
    # inside must not decide the span (issue 19)
    text = "Pay before 12 May 2025, due by Friday 3rd, or on or after 2025-06-01 at 10:30."
    spans = [Span(text.index(w), text.index(w) + len(w), "DATE", w)
             for w in ("before 12 May 2025", "due by Friday 3rd", "on or after 2025-06-01 at 10:30")]
    assert [s.text for s in tidy(text, spans)] == ["12 May 2025", "Friday 3rd",
                                                    "2025-06-01 at 10:30"]
    # only leading words, only dates, and never the whole span (the person loses only
    # the courtesy title, which is no part of a name, and keeps "On")
    text = "Paid 3rd of May to Dr Ann On, by cheque"
    spans = [Span(5, 15, "DATE", "3rd of May"), Span(19, 28, "PERSON", "Dr Ann On")]
    assert [s.text for s in tidy(text, spans)] == ["3rd of May", "Ann On"]


# ------------------------------------------------------------------ hand-written evaluation sets
def test_marked_text_gives_text_and_exact_spans(tmp_path):
    from bertforge.pii.dataset import parse_marked, read_documents

    text, spans = parse_marked("[[PERSON:Jane Doe]] paid [[BANK:GB29 NWBK 6016 1331 9268 19]] "
                               "on [[[DATE:1 May]]].")
    assert text == "Jane Doe paid GB29 NWBK 6016 1331 9268 19 on [1 May]."
    assert [(text[s["start"]:s["end"]], s["label"]) for s in spans] == [
        ("Jane Doe", "PERSON"), ("GB29 NWBK 6016 1331 9268 19", "BANK"), ("1 May", "DATE")]
    for bad in ("[[PERSON:Jane", "[[PERSON:]] x", "[[PERSON Jane]]"):
        with pytest.raises(BertforgeError, match="mark"):
            parse_marked(bad)
    path = tmp_path / "set.txt"
    path.write_text("=== one\nHi [[PERSON:Ann]].\n=== two\nMail [[email:a@b.co]]\n", encoding="utf-8")
    documents = read_documents(str(path))
    assert [d["document_type"] for d in documents] == ["one", "two"]
    assert [s.key for s in documents[1]["spans"]] == [("EMAIL", 5, 11)]
    path.write_text("no header\n", encoding="utf-8")
    with pytest.raises(BertforgeError, match="=== title"):
        read_documents(str(path))


def test_the_hand_written_sets_parse():
    from bertforge.pii.dataset import read_documents

    for name, least in (("pii_handwritten.txt", 13), ("pii_heldout.txt", 10), ("pii_fresh.txt", 10)):
        documents = read_documents(str(EXAMPLES.parent / "bench" / name))
        assert len(documents) >= least and all(d["spans"] for d in documents)


# ------------------------------------------------------------------ tidy, any spans
TIDY_PIECES = ["Tohpati , Ridho", " and ", "Abdee Negara", " . ", "Thomas A .", " ", ", ",
               "JPMorgan Chase Bank", ", N.A.", " National Association", "Kite Motors Ltd",
               "5 - Norio Omura", " ( 7 - Yasuto Honda 71 ) ", "Term SOFR Loan", "Miller, Brandon",
               "Rafael Ortiz and Lena Ortiz", "____J. Kowalczyk___", "#PaulMckenna", "@ann_lee",
               "2024-05-12 and 2024-06-01", " tomorrow", "AUTH CODE 154", "DB_USER=svc_etl",
               "GB82WEST12345698765432", "(+44 20 7946 0958)", "Davis Academy Inc.", " & ",
               "requested that Bailey devise", "\n", "Eurodollar Spread", "x", "."]


@st.composite
def text_and_model_spans(draw):
    pieces = draw(st.lists(st.sampled_from(TIDY_PIECES), min_size=1, max_size=8))
    text = "".join(pieces)
    starts = [sum(map(len, pieces[:k])) for k in range(len(pieces) + 1)]
    if draw(st.booleans()):  # whole pieces, as the model reads a value whole
        bounds = [(starts[k], starts[k + 1]) for k in range(len(pieces)) if draw(st.booleans())]
    else:  # cuts at words' edges, or anywhere
        edges = sorted(set(starts) | {m.start() for m in re.finditer(r"\b", text)})
        place = st.one_of(st.sampled_from(edges), st.integers(0, len(text)))
        cuts = sorted(draw(st.lists(place, max_size=10, unique=True)))
        bounds = list(zip(cuts[::2], cuts[1::2]))
    label = st.sampled_from(["PERSON", "COMPANY", "ADDRESS", *GROUPS])  # the names' groups
    return text, [Span(a, b, draw(label), text[a:b], draw(st.sampled_from([0.55, 0.9, 1.0])),
                       "model") for a, b in bounds if b > a]


@settings(max_examples=500, deadline=None)
@given(text_and_model_spans())
# a legal form the model found as a span of its own, joined to the firm before it
@example(("U.S. Bank National Association", [Span(0, 9, "COMPANY", "U.S. Bank", 0.9, "model"),
          Span(10, 30, "COMPANY", "National Association", 0.9, "model")]))
# a line-up's player read as an address; a list, a full stop standing apart
@example(("5 - Norio Omura", [Span(0, 15, "ADDRESS", "5 - Norio Omura", 0.9, "model")]))
@example(("Tohpati , Ridho . Thomas A .", [Span(0, 15, "PERSON", "Tohpati , Ridho", 0.9, "model"),
          Span(18, 28, "PERSON", "Thomas A .", 0.9, "model")]))
# a legal form ("National Association") the model read as two spans of its own
@example(("Thomas A . National Association", [
    Span(0, 10, "COMPANY", "Thomas A .", 0.55, "model"), Span(11, 19, "COMPANY", "National", 0.55, "model"),
    Span(20, 31, "COMPANY", "Association", 0.55, "model")]))
def test_tidy_gives_ordered_disjoint_spans_of_the_text_whatever_the_model_gives(case):
    """Every rule of `tidy` together, on any model spans over text built from the shapes
    the rules look for: the spans that come out lie inside the text, say what they
    cover, keep a known group and never overlap, in order."""
    from bertforge.pii.tidy import tidy

    text, spans = case
    found = tidy(text, spans)
    for s in found:
        assert 0 <= s.start < s.end <= len(text) and s.text == text[s.start:s.end], (s, text)
        assert s.label in GROUPS
    assert all(a.end <= b.start for a, b in zip(found, found[1:])), (found, text)


def test_a_names_generational_suffix_is_part_of_it():
    """"Smith" + ", Jr." and "Hughes" + " Jr." are one name each, as every gold name with
    a suffix is written; the model's lone "JR" after a name is part of it; "Esq." is a
    title, a firm's "II" is no person's (it is the firm's, with its form "LP": the
    professional-forms record), and a span that runs on past the suffix is left as it
    was."""
    from bertforge.pii.tidy import tidy

    text = ("John A. Smith, Jr., of Houston; JOHN A. SMITH, JR., individually; Robert "
            "Hughes Jr. and Carl Whitaker, Esq.; Fund II LP; Ann Lee III Capital.")
    values = [("John A. Smith", "PERSON"), ("JOHN A. SMITH", "PERSON"), ("JR", "PERSON"),
              ("Robert Hughes", "PERSON"), ("Carl Whitaker", "PERSON"), ("Fund", "COMPANY"),
              ("Ann Lee", "PERSON"), ("III Capital", "COMPANY")]
    found = tidy(text, sorted(Span(text.index(v), text.index(v) + len(v), label, v, 0.9, "model")
                              for v, label in values))
    assert [(s.text, s.label) for s in found] == [
        ("John A. Smith, Jr.", "PERSON"), ("JOHN A. SMITH, JR.", "PERSON"),
        ("Robert Hughes Jr.", "PERSON"), ("Carl Whitaker", "PERSON"),
        ("Fund II LP", "COMPANY"), ("Ann Lee", "PERSON"), ("III Capital", "COMPANY")]
    assert all(text[s.start:s.end] == s.text for s in found)


def test_a_courtesy_title_is_left_out_of_a_name():
    """"Mr. Tomasz Nowak" is masked as "Mr. [PERSON]", the generator's and hand-written
    sets' convention, in any case and with or without the full stop, and in five
    languages (the foreign-titles record: "Sra.", "Herr", "Mme"); a firm keeps its
    words, a title read alone is no name (the plural-titles record), and "Drummond" is a
    name, not "Dr" and a name."""
    from bertforge.pii.tidy import tidy

    text = ("Spoke with Mr. Tomasz Nowak and MRS JANE DOE; Dr Ana Ruiz; Mx. Sam Lee; "
            "Dr. Pepper Ltd; Mr.; Drummond Hale; Sra. Milagros Quispe; Herr Jörg Weiß; "
            "Mme Claire Roux.")
    values = [("Mr. Tomasz Nowak", "PERSON"), ("MRS JANE DOE", "PERSON"), ("Dr Ana Ruiz", "PERSON"),
              ("Mx. Sam Lee", "PERSON"), ("Dr. Pepper Ltd", "COMPANY"), ("Mr.;", "PERSON"),
              ("Drummond Hale", "PERSON"), ("Sra. Milagros Quispe", "PERSON"),
              ("Herr Jörg Weiß", "PERSON"), ("Mme Claire Roux", "PERSON")]
    found = tidy(text, sorted(Span(text.index(v), text.index(v) + len(v), label, v, 0.9, "model")
                              for v, label in values))
    assert [(s.text, s.label) for s in found] == [
        ("Tomasz Nowak", "PERSON"), ("JANE DOE", "PERSON"), ("Ana Ruiz", "PERSON"),
        ("Sam Lee", "PERSON"), ("Dr. Pepper Ltd", "COMPANY"), ("Drummond Hale", "PERSON"),
        ("Milagros Quispe", "PERSON"), ("Jörg Weiß", "PERSON"), ("Claire Roux", "PERSON")]
    assert all(text[s.start:s.end] == s.text for s in found)



def test_a_greeting_read_into_a_name_is_left_out_of_it():
    """The greetings-inside-names record's probe: "[Hey Angela]", as the model read a
    podcast's line, is "[Angela]"; so with a comma after the greeting, "Dear" before a
    full name and a greeting in French; a greeting read alone is no one, a firm keeps a
    greeting's word ("Cheers Brewing Co"), and "Heyward Lee" and a user's "HeyJude" are
    names."""
    from bertforge.pii.tidy import tidy

    text = ("OKAFOR: Hey Angela. Today; Hi, Marcus Lee; Dear Ana Ruiz, hi; Bonjour Claire; "
            "Hey; Cheers Brewing Co; Heyward Lee; thanks HeyJude.")
    values = ["Hey Angela", "Hi, Marcus Lee", "Dear Ana Ruiz", "Bonjour Claire", "Hey",
              ("Cheers Brewing Co", "COMPANY"), "Heyward Lee", "HeyJude"]
    assert [s.text for s in tidy(text, spans_in_turn(text, values))] == [
        "Angela", "Marcus Lee", "Ana Ruiz", "Claire", "Cheers Brewing Co", "Heyward Lee",
        "HeyJude"]


def test_a_title_of_office_is_left_out_of_a_name():
    """The titles-out record's amendment: "Justice [Sonia Sotomayor]", "Lt. Gov. [Eleni
    Kounalakis]", "SEN. [TIM SCOTT]"; a royal title stays part of the name, "General
    Motors" read as a person keeps its first word (the firm rules decide it), and
    "Justine Reyes" is a name, not "Justice"'s neighbour. The honorifics-of-office
    record: "Hon." is a title too, in capitals or read alone ("The [Hon]. Mark
    Dreyfus"). The malaysian-honours record: Malaysia's honours are titles too, alone
    or before a name ("Tan Sri [Azman Hashim]", "[Dato]' Sri ..."), not "Tan" of "Tan
    Wei Ming". The retired-ranks record: a retired officer's "(Ret.)" read alone."""
    from bertforge.pii.tidy import tidy

    text = ("Justice Sonia Sotomayor, Lt. Gov. Eleni Kounalakis and SEN. TIM SCOTT met Prince "
            "William, Justine Reyes and Rev Al Green; General Motors did not.\n"
            "/s/ Hon. Patricia Whelan-Moss\nHON. JAMES L. ROBART\nThe Hon. Mark Dreyfus\n"
            "Tan Sri Azman Hashim, Puan Sri Zarinah Anwar, Datuk Seri Najib Razak, Datin Seri "
            "Rosmah Mansor, Dato' Sri Tay Ah Lek, Datuk Khairussaleh Ramli, Dato' Lee Oi Hian, "
            "Datin Mariam Eusoff, Toh Puan Aishah Ong, Dato' Sri Liew; Tan Wei Ming.\n"
            "Gen. (Ret.) William Hargrove; Retta Moss")
    values = ["Justice Sonia Sotomayor", "Lt. Gov. Eleni Kounalakis", "SEN. TIM SCOTT",
              "Prince William", "Justine Reyes", "Rev Al Green", "General Motors",
              "Hon. Patricia Whelan-Moss", "HON. JAMES L. ROBART", "Hon", "Mark Dreyfus",
              "Tan Sri Azman Hashim", "Puan Sri Zarinah Anwar", "Datuk Seri Najib Razak",
              "Datin Seri Rosmah Mansor", "Dato' Sri Tay Ah Lek", "Datuk Khairussaleh Ramli",
              "Dato' Lee Oi Hian", "Datin Mariam Eusoff", "Toh Puan Aishah Ong",
              ("Dato", "PERSON", 2), "Tan Wei Ming", "Ret", "William Hargrove", "Retta Moss"]
    found = tidy(text, spans_at(text, values))
    assert [s.text for s in found] == ["Sonia Sotomayor", "Eleni Kounalakis", "TIM SCOTT",
                                       "Prince William", "Justine Reyes", "Al Green",
                                       "General Motors", "Patricia Whelan-Moss",
                                       "JAMES L. ROBART", "Mark Dreyfus", "Azman Hashim",
                                       "Zarinah Anwar", "Najib Razak", "Rosmah Mansor",
                                       "Tay Ah Lek", "Khairussaleh Ramli", "Lee Oi Hian",
                                       "Mariam Eusoff", "Aishah Ong", "Tan Wei Ming",
                                       "William Hargrove", "Retta Moss"]


def test_a_times_zone_ending_the_sentence_before_a_name_is_no_part_of_it():
    """The zone-leads record's probe, a mail's reply with the model's spans as it gave
    them: "at 15:40 [ET. Tobias] will follow up" is Tobias, and so after "UTC."; a zone
    without the sentence's full stop is left to the name."""
    from bertforge.pii.tidy import tidy

    text = ("The recall went out at 15:40 ET. Tobias will follow up. At 09:00 UTC. Maria "
            "Lopez called. Ask ET Tobias.")
    found = tidy(text, spans_at(text, ["ET. Tobias", "UTC. Maria Lopez", "ET Tobias"]))
    assert [s.text for s in found] == ["Tobias", "Maria Lopez", "ET Tobias"]


def test_an_introductions_verb_before_a_name_is_no_part_of_it():
    """The introducing-verbs record's probe, with the model's span as it gave it: "je
    m'[appelle Théo Marchand]" is Théo Marchand, and so after "llamo", "chiamo", "chamo"
    and "heiße", and before a name in lower case; "m'" glued to the verb goes with it."""
    from bertforge.pii.tidy import tidy

    for text, read, name in [("Bonjour, je m'appelle Théo Marchand.", "appelle Théo Marchand",
                              "Théo Marchand"), ("Me llamo Andrés.", "llamo Andrés", "Andrés"),
                             ("Mi chiamo Lorenzo.", "chiamo Lorenzo", "Lorenzo"),
                             ("Me chamo Inês.", "chamo Inês", "Inês"),
                             ("Ich heiße Jonas.", "heiße Jonas", "Jonas"),
                             ("Ich heisse Lukas.", "heisse Lukas", "Lukas"),
                             ("Je m'appelle Zoé.", "m'appelle Zoé", "Zoé"),
                             ("lol je m'appelle théo", "appelle théo", "théo")]:
        assert [s.text for s in tidy(text, spans_at(text, [read]))] == [name], text


def test_a_soldiers_ranks_are_left_out_of_a_name_and_a_rank_alone_is_nobodys():
    """The military-ranks record's probes, with the model's spans as it gave them: two
    ranks before a name are both left out ("Brig. Gen. [Tom Vance]", "Mr. Justice
    [Ann Cole]"), a rank written out or abbreviated is one ("Commander [Reyes]", "Cpl.
    [Jenna Morse]"), and a rank read alone is no one ("[Maj]", "[Cmdr]", "[Pvt]"); "Major"
    and "Private" are names and words, and stay."""
    from bertforge.pii.tidy import tidy

    text = ("Brig. Gen. Tom Vance and Mr. Justice Ann Cole met Commander Reyes and Cpl. Jenna "
            "Morse. Sgt. Maj. Ricardo Alvarez; Cmdr. Lisa Chen; Pvt. Eli Brooks. John Major "
            "spoke; Private Ryan.")
    values = ["Brig. Gen. Tom Vance", "Mr. Justice Ann Cole", "Commander Reyes",
              "Cpl. Jenna Morse", "Maj", "Ricardo Alvarez", "Cmdr", "Lisa Chen", "Pvt",
              "Eli Brooks", "John Major", "Private Ryan"]
    assert [s.text for s in tidy(text, spans_in_turn(text, values))] == [
        "Tom Vance", "Ann Cole", "Reyes", "Jenna Morse", "Ricardo Alvarez", "Lisa Chen",
        "Eli Brooks", "John Major", "Private Ryan"]


def test_a_police_officers_rank_is_left_out_of_a_name_and_a_rank_alone_is_nobodys():
    """The police-ranks record's probes, with the model's spans as it gave them: a
    British police rank before a name is no part of it ("DC [Harriet Lomax]", "PCSO
    [Amira Khan]", "Chief Constable [Sarah Crew]"), and a rank read alone is no one
    ("[Supt]"); "Di" and "Constable", a given name and a surname, stay."""
    from bertforge.pii.tidy import tidy

    text = ("DC Harriet Lomax and DCI Rebecca Thornton met PCSO Amira Khan. DS Nicola Byrne; "
            "PC Gareth Evans; Chief Constable Sarah Crew. Supt. Okafor spoke. Di Maria and "
            "John Constable came.")
    values = ["DC Harriet Lomax", "DCI Rebecca Thornton", "PCSO Amira Khan", "DS Nicola Byrne",
              "PC Gareth Evans", "Chief Constable Sarah Crew", "Supt", "Okafor", "Di Maria",
              "John Constable"]
    assert [s.text for s in tidy(text, spans_in_turn(text, values))] == [
        "Harriet Lomax", "Rebecca Thornton", "Amira Khan", "Nicola Byrne", "Gareth Evans",
        "Sarah Crew", "Okafor", "Di Maria", "John Constable"]


def test_a_legislators_letters_are_no_part_of_a_name():
    """The legislators-letters record's probe, with the model's spans as it gave them: a
    member's letters after the name go ("Ruth Davidson MSP"), and a span that is only
    them is nobody's; "TD" stays after a name, being a bank's name alone too."""
    from bertforge.pii.tidy import tidy

    text = ("Rachel Reeves MP, Ruth Davidson MSP, Naomi Long MLA, Barry Andrews MEP and Doug "
            "Ford MPP wrote; the MEP agreed. Michael McGrath TD; paid at TD Bank.")
    values = ["Rachel Reeves MP", "Ruth Davidson MSP", "Naomi Long MLA", "Barry Andrews MEP",
              "Doug Ford MPP", "MEP", "Michael McGrath TD", ("TD Bank", "COMPANY")]
    assert [s.text for s in tidy(text, spans_in_turn(text, values))] == [
        "Rachel Reeves", "Ruth Davidson", "Naomi Long", "Barry Andrews", "Doug Ford",
        "Michael McGrath TD", "TD Bank"]


def test_indian_and_nigerian_titles_and_honours_are_no_part_of_a_name():
    """The honorifics record's probe, with the model's spans as it gave them: "Shri",
    "Smt." and "Alhaji" before a name and an order's letters after it ("GCON", "OBE")
    are no part of it, nor is "Dame" (the honours record), nor a Senior Advocate of
    Nigeria's "SAN" (the senior-advocates record), nor a doctor's, nurse's or pharmacist's
    degrees (the medical-credentials record); "Sri Mulyani Indrawati", whose "Sri" is her
    given name, stays."""
    from bertforge.pii.tidy import tidy

    text = ("Shri Ramesh Iyer, Smt. Lakshmi Narayanan and Alhaji Aliko Dangote, GCON, met "
            "Dame Mary Berry OBE and Sri Mulyani Indrawati. Counsel: Rotimi Oyedepo, SAN. "
            "Dr Oluwatobi Adeyemi-Brooks MBBS MRCGP; Ann Lee, RN; Kofi Mensah, PharmD.")
    values = ["Shri Ramesh Iyer", "Smt. Lakshmi Narayanan", "Alhaji Aliko Dangote", "GCON",
              "Dame Mary Berry OBE", "Sri Mulyani Indrawati", "Rotimi Oyedepo, SAN",
              "Oluwatobi Adeyemi-Brooks MBBS", "Ann Lee, RN", "Kofi Mensah, PharmD"]
    found = tidy(text, spans_at(text, values))
    assert [s.text for s in found] == ["Ramesh Iyer", "Lakshmi Narayanan", "Aliko Dangote",
                                       "Mary Berry", "Sri Mulyani Indrawati", "Rotimi Oyedepo",
                                       "Oluwatobi Adeyemi-Brooks", "Ann Lee", "Kofi Mensah"]


def test_credentials_after_a_name_are_no_part_of_it_and_a_cut_name_keeps_no_comma():
    """The name-ends record's probe, with the model's spans as it gave them: each
    credential after a name read as a PERSON span of its own goes ("CPA", "Ph.D.",
    "M.D." and "Esq."), one inside the name's span is cut off with its comma, a name
    that only looks like one stays ("Mdina Cole"); and "Castellanos, age" loses "age"
    and the comma before it."""
    from bertforge.pii.tidy import tidy

    text = ("Prepared by Jane Doe, CPA and Ravi Shah, Ph.D., reviewed by Tom Reyes, M.D.; "
            "Mdina Cole. Attention: Margaret Osei, Esq.; Carl Whitaker Esq. "
            "Dr. Castellanos, age 52, previously served at Amgen. The report is final.")
    values = ["Jane Doe", "CPA", "Ravi Shah", "Ph.D.", "Tom Reyes, M.D.", "Mdina Cole",
              "Margaret Osei", "Esq.", "Carl Whitaker Esq", "Castellanos, age"]
    found = tidy(text, spans_at(text, values))
    assert [s.text for s in found] == ["Jane Doe", "Ravi Shah", "Tom Reyes", "Mdina Cole",
                                       "Margaret Osei", "Carl Whitaker", "Castellanos"]
    assert all(text[s.start:s.end] == s.text for s in found)
    # a certified credential's mark (the credential-marks record), alone or after a name
    text = "Gregory Atwood, CPA, CFP®\nLena Ortiz CFA™ signed."
    found = tidy(text, spans_at(text, [("Gregory Atwood", "PERSON"), ("CFP®", "COMPANY"),
                                       ("Lena Ortiz CFA™", "PERSON")]))
    assert [s.text for s in found] == ["Gregory Atwood", "Lena Ortiz"]


def test_the_letters_of_more_professions_are_no_part_of_a_name():
    """The professional-credentials record's probe, with the model's spans as it gave
    them: each profession's letters after a name are cut off, alone they go; and a
    signature's labelled name is matched without them."""
    from bertforge.pii.tidy import tidy

    for letters in ("MRICS", "FRICS", "AssocRICS", "ACA", "FCCA", "CTA", "CGMA", "CMA", "CFF",
                    "FIA", "FFA", "FCAS", "ACAS", "MAAA", "ACII", "FCII", "MCIArb", "FCIArb",
                    "TEP", "MCIPD", "FCIPD"):
        text = f"Signed by Helen Ashworth {letters} and Tom Reyes, {letters}, today."
        found = tidy(text, spans_at(text, [f"Helen Ashworth {letters}", "Tom Reyes",
                                           (letters, "PERSON", 1)]))
        assert [s.text for s in found] == ["Helen Ashworth", "Tom Reyes"], letters
    from bertforge.pii import Redactor
    from bertforge.pii.recognizers import REGISTRY

    text = "Prepared by: Sandeep Kaur ACA\nReviewed by: Thomas Reilly FCCA CTA"
    only = Redactor(None, recognizers=[REGISTRY["labelled_names"]("US")])
    assert [(s.text, s.label) for s in only.detect(text)] == [("Sandeep Kaur", "PERSON"),
                                                              ("Thomas Reilly", "PERSON")]


def test_a_role_or_a_kinship_word_is_left_out_of_a_name():
    """The titles-out record's second to fifth amendments: "Adjuster [Brian Koval]",
    "Teller [Jenna Brooks]", "COO [Raj Patel]", "uncle [Ray]" and "mr [peterson]" (lower
    case, as posts write them), "COACH [KERR]"; a word that only starts like one stays
    ("Agentina Ross", "Dadi Ola", "Opal Reyes"); a role read alone is no name (the
    plural-titles record's amendment); a grandparent, aunt or uncle in another language
    ("Nonna [Lucia]", the kin-abroad record); a clergy's "Revd" and "Archdeacon", and
    "aunty" (the clergy-and-kin record); a university's "Provost" and "Vice-Chancellor"
    and a school's "Headteacher" (the academic-heads record)."""
    from bertforge.pii.tidy import tidy

    text = ("Adjuster Brian Koval inspected it; shoutout to uncle Ray and COACH KERR, to "
            "Agentina Ross and Dadi Ola, and to the Manager; mr peterson did not; Teller Jenna "
            "Brooks did; COO Raj Patel agreed. My grandma (Nonna Lucia) and Tío Jorge; Opal "
            "Reyes. Rt Revd Stephen Ashdown, the Archdeacon Jane Hill, send it to aunty ngozi. "
            "Thanks to Provost Ramón Echeverría, Vice-Chancellor Nicola Hartwell and "
            "Headteacher Aileen Gorman.")
    values = ["Adjuster Brian Koval", "uncle Ray", "COACH KERR", "Agentina Ross", "Dadi Ola",
              "Manager", "mr peterson", "Teller Jenna Brooks", "COO Raj Patel", "Nonna Lucia",
              "Tío Jorge", "Opal Reyes", "Revd Stephen Ashdown", "Archdeacon Jane Hill",
              "aunty ngozi", "Provost Ramón Echeverría", "Vice-Chancellor Nicola Hartwell",
              "Headteacher Aileen Gorman"]
    found = tidy(text, spans_at(text, values))
    assert [s.text for s in found] == ["Brian Koval", "Ray", "KERR", "Agentina Ross",
                                       "Dadi Ola", "peterson", "Jenna Brooks", "Raj Patel",
                                       "Lucia", "Jorge", "Opal Reyes", "Stephen Ashdown",
                                       "Jane Hill", "ngozi", "Ramón Echeverría",
                                       "Nicola Hartwell", "Aileen Gorman"]


def test_a_kinship_word_alone_is_nobodys_name():
    """The kin-alone record's probe: a grandparent's or a parent's word that a family
    signs with, read alone as a name, is no one's ("it's [Gran]", "Love, [Grandad] xx"),
    nor greeted or introduced; one that is a surname too stays ("Cousin"), and before a
    name it is a title, the name after it kept ("Papa [Joe]")."""
    from bertforge.pii.recognizers import REGISTRY
    from bertforge.pii.tidy import tidy

    text = ("Hi Sam, it's Gran. Love, Gran xx\nHi Grandad! Love, Grandad\n"
            "Signed: Cousin\nAsk Papa Joe")
    spans = spans_at(text, ["Sam", "Gran", ("Gran", "PERSON", 1), "Grandad",
                            ("Grandad", "PERSON", 1), "Cousin", "Papa Joe"])
    assert [s.text for s in tidy(text, spans)] == ["Sam", "Cousin", "Joe"]
    greeted = REGISTRY["greeted_names"]("US").find(text)
    assert [text[m.start:m.end] for m in greeted] == ["Sam"]


def test_a_role_in_lower_case_is_left_out_of_a_name():
    """The role-words record: a role or a relation written in lower case before a name
    ("teller [Ashley Nguyen]", "server [Brianna]", "wife [Keisha]") is no part of it,
    nor, in other languages, with its possessive or article and a title after it (the
    roles-abroad record: "Ihr Mitarbeiter Herr [Özdemir]"); a name that only starts like
    one stays ("Sonya Hale", "Wifey Rose")."""
    from bertforge.pii.tidy import tidy

    text = ("She told teller Ashley Nguyen, then server Brianna and wife Keisha; Sonya Hale "
            "and Wifey Rose did not. Ihr Mitarbeiter Herr Özdemir, la conseillère Anne Roy. "
            "Su gestor, D. Álvaro Quintana. Su dijo. Cher Monsieur Lefèvre, Cher Ami, "
            "Lieber Herr Wolff, Dra. Inês Carvalho.")
    values = ["teller Ashley Nguyen", "server Brianna", "wife Keisha", "Sonya Hale", "Wifey Rose",
              "Ihr Mitarbeiter Herr Özdemir", "la conseillère Anne Roy", "Su gestor", "Su",
              "Cher Monsieur Lefèvre", "Cher Ami", "Lieber Herr Wolff", "Dra. Inês Carvalho"]
    # and, in a letter abroad, a possessive and its role read alone, or a salutation
    # before a title (the salutations-abroad record); "Su" that says something, and a
    # salutation before no title, stay
    found = tidy(text, spans_at(text, values[:8] + [("Su", "PERSON", 1)] + values[9:]))
    assert [s.text for s in found] == ["Ashley Nguyen", "Brianna", "Keisha", "Sonya Hale",
                                       "Wifey Rose", "Özdemir", "Anne Roy", "Su", "Lefèvre",
                                       "Cher Ami", "Wolff", "Inês Carvalho"]


def test_where_a_person_is_from_is_left_out_of_the_name():
    """The titles-out record's sixth amendment: the nouns for where a person is from,
    as sports news writes them before a name ("Swede [Stefan Edberg]", "DUTCHMAN [JOS
    VERSTAPPEN]", "Queenslander [Mitchell Rawlins]"); a name that only starts like one
    stays ("Danette Price", "Texana Hollis")."""
    from bertforge.pii.tidy import tidy

    text = ("Swede Stefan Edberg beat DUTCHMAN JOS VERSTAPPEN and Queenslander Mitchell Rawlins; "
            "Danette Price and Texana Hollis watched.")
    values = ["Swede Stefan Edberg", "DUTCHMAN JOS VERSTAPPEN", "Queenslander Mitchell Rawlins",
              "Danette Price", "Texana Hollis"]
    found = tidy(text, spans_at(text, values))
    assert [s.text for s in found] == ["Stefan Edberg", "JOS VERSTAPPEN", "Mitchell Rawlins",
                                       "Danette Price", "Texana Hollis"]


def test_a_title_for_several_people_parts_their_names_and_a_title_alone_is_nobodys():
    """The plural-titles record's probe, with the model's spans as it gave them:
    "Messrs. Thornbury, Vasquez" is two surnames, without the title (and "Drs. [Achebe,
    Mensah]" with the title outside the span, and "Mses." and "MSES.": the mses record);
    "Ms" and "Mses" read alone
    before "Okafor" goes; an inverted name without such a title stays one ("Miller,
    Brandon")."""
    from bertforge.pii.tidy import tidy

    text = ("During 2025, Messrs. Thornbury, Vasquez and Lindqvist served. Ms. Okafor was "
            "Chief Risk Officer. Signed: Miller, Brandon. Drs. Achebe, Mensah agreed; Sen. "
            "Elizabeth A. Warren did not. Mses. Devereaux, Oduya and MSES. KANE, LOWE met.")
    values = ["Messrs. Thornbury, Vasquez", "Lindqvist", "Ms", "Okafor", "Miller, Brandon",
              "Achebe, Mensah", "Sen", "Elizabeth A. Warren", "Mses", "Devereaux, Oduya",
              "KANE, LOWE"]
    found = tidy(text, spans_at(text, values))
    assert [s.text for s in found] == ["Thornbury", "Vasquez", "Lindqvist", "Okafor",
                                       "Miller, Brandon", "Achebe", "Mensah",
                                       "Elizabeth A. Warren", "Devereaux", "Oduya", "KANE",
                                       "LOWE"]


def test_full_names_listed_with_commas_are_apart_and_an_inverted_name_stays_whole():
    """The people-listed record's probes, with the model's spans as it gave them: full
    names listed with commas are each a name ("Winston A. Pruitt, Loretta J. Pruitt",
    three in "Ana García, Pieter de Vries, Yusuf Demir"); an inverted name with two
    surnames and two given names stays one, as does a name with its job or desk after the
    comma, a surname alone before it and a part that starts with no given name."""
    from bertforge.pii.tidy import tidy

    text = ("Borrower(s): Winston A. Pruitt, Loretta J. Pruitt. Contributors: Ana García, Pieter "
            "de Vries, Yusuf Demir. Autor: Silva Santos, Ana Maria. Signed: Mark Okafor, General "
            "Counsel; Joan Baez, Chief Officer; Thomas, Elias Berg; Anna Berg, Dreamy Vale.")
    values = ["Winston A. Pruitt, Loretta J. Pruitt", "Ana García, Pieter de Vries, Yusuf Demir",
              "Silva Santos, Ana Maria", "Mark Okafor, General Counsel", "Joan Baez, Chief Officer",
              "Thomas, Elias Berg", "Anna Berg, Dreamy Vale"]
    found = tidy(text, spans_at(text, values))
    assert [s.text for s in found] == ["Winston A. Pruitt", "Loretta J. Pruitt", "Ana García",
                                       "Pieter de Vries", "Yusuf Demir", *values[2:]]


def test_a_name_broken_by_a_lines_wrap_is_one_name():
    """The wrapped-names record's probe, with the model's spans as it gave them: an
    unfinished name (a given name alone, or ending in an initial) at the end of a line of
    running text and a name at the next line's start are one name; a full name at a long
    line's end before another line's name and names one per short line stay apart."""
    from bertforge.pii.tidy import tidy

    text = ("Copy to: Sidley Austin LLP, for the Agent, Attention: Jonathan D.\nPace, Esq., and "
            "for the record we also thank Maria\n"
            "Kowalski of the firm. Dr. Jens Weidmann; Olayemi Cardoso (CBN); Lael Brainard\n"
            "Fireside chat.\nAttendees:\nMaria\nKowalski\nand with them, and also, Ana Maria\n"
            "de la Cruz Ortega Vidal said.")  # (a full name, "Ana Maria": no join)
    values = ["Jonathan D.", "Pace, Esq.", "Maria", "Kowalski", "Lael Brainard", "Fireside",
              ("Maria", "PERSON", 1), ("Kowalski", "PERSON", 1), "Ana Maria",
              "de la Cruz Ortega Vidal"]
    assert [s.text for s in tidy(text, spans_at(text, values))] == [
        "Jonathan D.\nPace", "Maria\nKowalski", "Lael Brainard", "Fireside", "Maria",
        "Kowalski", "Ana Maria", "de la Cruz Ortega Vidal"]
    # the surname the model read as a firm's (the wrapped-surnames record); not a known
    # firm's name, nor two words
    text = ("Our assessor for this travel claim, Ms. Ingeborg\nSæther, requires it; otherwise you "
            "may always ask Maria\nBarclays about it, and our assessor for this one, Ms. Ingrid\n"
            "Solberg Holdings.")
    found = tidy(text, spans_at(text, ["Ingeborg", ("Sæther", "COMPANY"), "Maria",
                                       ("Barclays", "COMPANY"), "Ingrid",
                                       ("Solberg Holdings", "COMPANY")]))
    assert [(s.label, s.text) for s in found] == [
        ("PERSON", "Ingeborg\nSæther"), ("PERSON", "Maria"), ("COMPANY", "Barclays"),
        ("PERSON", "Ingrid"), ("COMPANY", "Solberg Holdings")]


def test_a_lawsuits_caption_read_as_one_name_is_its_parties():
    """The case-parties record's probe, with the model's spans as it gave them: a
    caption read as one firm is a person and a firm ("Reyes v. Northgate Bancorp,
    Inc."); "Miranda v." is the person without the "v."; a government's side is no one
    ("United States v. Delacroix"); a listed firm is a firm ("Barclays v. Okafor"); a name
    without "v." between words stays whole ("Ravi Vasquez")."""
    from bertforge.pii.tidy import tidy

    text = ("A class action captioned Reyes v. Northgate Bancorp, Inc. was filed. See Miranda "
            "v. Arizona; United States v. Delacroix; Barclays v. Okafor; Ravi Vasquez agreed.")
    values = [("Reyes v. Northgate Bancorp, Inc.", "COMPANY"), "Miranda v.",
              "United States v. Delacroix", "Barclays v. Okafor", "Ravi Vasquez"]
    found = tidy(text, spans_at(text, values))
    assert [(s.text, s.label) for s in found] == [
        ("Reyes", "PERSON"), ("Northgate Bancorp, Inc.", "COMPANY"), ("Miranda", "PERSON"),
        ("Delacroix", "PERSON"), ("Barclays", "COMPANY"), ("Okafor", "PERSON"),
        ("Ravi Vasquez", "PERSON")]
    assert all(text[s.start:s.end] == s.text for s in found)


def test_a_field_label_read_alone_is_nobodys():
    """The field-labels record's probe, with the model's spans as it gave them: "Attn"
    after a firm and before its colon, and "ATTN" in a wire's memo, read alone as firms,
    are labels; the firm and the person around them stay; "Attenborough" stays."""
    from bertforge.pii.tidy import tidy

    text = ("Questions go to Pachulski Stang Ziehl & Jones LLP, Attn: Laura Davis Jones.\n"
            "WIRE MEMO: ATTN ACCOUNTS PAYABLE / CONTACT PETRA SCHOLZ / c/o Attenborough")
    values = [("Pachulski Stang Ziehl & Jones LLP", "COMPANY"), ("Attn", "COMPANY"),
              "Laura Davis Jones", ("ATTN", "COMPANY"), "PETRA SCHOLZ", "Attenborough"]
    found = tidy(text, spans_at(text, values))
    assert [s.text for s in found] == ["Pachulski Stang Ziehl & Jones LLP", "Laura Davis Jones",
                                       "PETRA SCHOLZ", "Attenborough"]
    # and an abbreviation of office mail and chat (the work-abbreviations record)
    text = "@channel please review by EOD. FYI Dev is out; Eta signed."
    found = tidy(text, spans_at(text, ["EOD", "FYI", "Dev", "Eta"]))
    assert [s.text for s in found] == ["Dev", "Eta"]
    # and of a bank statement's lines (the statement-abbreviations record)
    text = ("11/06  ONLINE TRANSFER TO SAV XXXXXX4821\n11/10  WIRE TYPE:INTL OUT TRN:20261110 "
            "BNF:HIROSHI TANAKA ORIG:ACME XFER CHK WDL")
    found = tidy(text, spans_at(text, ["SAV", "INTL", "TRN", "BNF", "HIROSHI TANAKA", "ORIG",
                                       "XFER", "CHK", "WDL"]))
    assert [s.text for s in found] == ["HIROSHI TANAKA"]
    # and of a support desk's reports and a statement's transfer, and a contact card's
    # keyword (the desk-abbreviations record); the abbreviations written as a name stay
    text = ("Chat closed. CSAT survey sent; NPS 42, AHT 6m, FCR 71%. RMA 20931 for SKU "
            "B-114.\n21 Nov  TFR TO ANIL DESHMUKH\nBEGIN:VCARD\nFN:Nps Okafor\nEND:VCARD")
    values = ["CSAT", "NPS", "AHT", "FCR", "RMA", ("SKU", "COMPANY"), ("TFR", "COMPANY"),
              "ANIL DESHMUKH", "VCARD", "Nps Okafor", "VCARD"]
    found = tidy(text, spans_in_turn(text, values))
    assert [s.text for s in found] == ["ANIL DESHMUKH", "Nps Okafor"]
    # and of a forum's posts (the forum-acronyms record); written as a name, it stays
    text = ("AITA for refusing? My husband Darnell says so.\nUpdate: TIFU by wiring it. "
            "IANAL, but WIBTA if I sued? Op Okafor replied.")
    values = ["AITA", "Darnell", "TIFU", "IANAL", "WIBTA", "Op Okafor"]
    found = tidy(text, spans_in_turn(text, values))
    assert [s.text for s in found] == ["Darnell", "Op Okafor"]
    # and the family it names by its letters (the family-acronyms record)
    text = "So my MIL (Rosemary) keeps asking; DH says ignore it, FIL and DW agree."
    found = tidy(text, spans_in_turn(text, ["MIL", "Rosemary", "DH", "FIL", "DW"]))
    assert [s.text for s in found] == ["Rosemary"]
    # and the next field's label, a list's number or a form's box letter read as an
    # address's last line (the next-fields and box-letters records); a last line with a
    # digit before a colon, a town before a full stop and a ZIP code alone on a line stay
    text = ("C/O NORTHWIND CORP, 2200 MISSION COLLEGE BLVD\nSANTA CLARA, CA 95054\n2. Issuer\n"
            "Street address: 1207 Larkspur Court\nCity, state, ZIP: Boise, ID 83702\n"
            "at 4 Elm Road\nFlat 2: keys at the desk; 9 Oak Lane\nLeeds. Then 1 Bay Rd\n"
            "Boston, MA\n02110. Then 400 Harbor Blvd, Long Beach CA 90802\ne Employee's name")
    found = tidy(text, spans_at(text, [
        ("2200 MISSION COLLEGE BLVD\nSANTA CLARA, CA 95054\n2", "ADDRESS"),
        ("1207 Larkspur Court\nCity, state", "ADDRESS"), ("4 Elm Road\nFlat 2", "ADDRESS"),
        ("9 Oak Lane\nLeeds", "ADDRESS"), ("1 Bay Rd\nBoston, MA\n02110", "ADDRESS"),
        ("400 Harbor Blvd, Long Beach CA 90802\ne", "ADDRESS")]))
    assert [s.text for s in found] == ["2200 MISSION COLLEGE BLVD\nSANTA CLARA, CA 95054",
                                       "1207 Larkspur Court", "4 Elm Road\nFlat 2",
                                       "9 Oak Lane\nLeeds", "1 Bay Rd\nBoston, MA\n02110",
                                       "400 Harbor Blvd, Long Beach CA 90802"]


def test_a_statement_lines_known_firm_in_capitals_and_its_field_label():
    """The statement-lines record's probe, with the model's spans as it gave them: a
    known firm in capitals is a firm ("ZELLE"); a field's label glued to a "#" after a
    name is cut off ("KAREN OYELARAN CONF#"); a name in capitals that is no firm stays."""
    from bertforge.pii.tidy import tidy

    text = "03/02 ZELLE TO KAREN OYELARAN CONF# R8K2L9\n03/10 DEPOSIT FROM MARCUS DELACROIX"
    spans = [Span(text.index(v), text.index(v) + len(v), "PERSON", v, 0.9, "model")
             for v in ("ZELLE", "KAREN OYELARAN CONF", "MARCUS DELACROIX")]
    assert [(s.text, s.label) for s in tidy(text, spans)] == [
        ("ZELLE", "COMPANY"), ("KAREN OYELARAN", "PERSON"), ("MARCUS DELACROIX", "PERSON")]
    # and in lower case, as a post writes it, and a shop a report names (the
    # lower-case-firms record); a lower-case name that is no firm's, and a firm's name
    # mixed in case that no list holds, stay persons
    post = "my venmo is @sarah-3, paid at Kroger; ask kevin or VenMo"
    read = [Span(post.index(v), post.index(v) + len(v), "PERSON", v, 0.9, "model")
            for v in ("venmo", "Kroger", "kevin", "VenMo")]
    assert [(s.text, s.label) for s in tidy(post, read)] == [
        ("venmo", "COMPANY"), ("Kroger", "COMPANY"), ("kevin", "PERSON"), ("VenMo", "PERSON")]
    # and a firm Asian business news names (the news-firms-abroad record)
    post = "Shares of Rakuten fell."
    assert [s.label for s in tidy(post, [Span(10, 17, "PERSON", "Rakuten", 0.9, "model")])] == [
        "COMPANY"]
    # and the sites where people review firms and employers (the review-sites record)
    post = "Glassdoor - Senior Analyst. Reviewed by Kelsey M. on Trustpilot and Yelp"
    read = [Span(post.index(v), post.index(v) + len(v), "PERSON", v, 0.9, "model")
            for v in ("Glassdoor", "Kelsey M.", "Trustpilot", "Yelp")]
    assert [(s.text, s.label) for s in tidy(post, read)] == [
        ("Glassdoor", "COMPANY"), ("Kelsey M.", "PERSON"), ("Trustpilot", "COMPANY"),
        ("Yelp", "COMPANY")]
    # and the state funds deal news names as buyers (the sovereign-funds record)
    post = "Mubadala is weighing a bid; Temasek-backed Olam declined, as did CalPERS."
    read = [Span(post.index(v), post.index(v) + len(v), "PERSON", v, 0.9, "model")
            for v in ("Mubadala", "Temasek", "CalPERS")]
    assert [(s.text, s.label) for s in tidy(post, read)] == [
        ("Mubadala", "COMPANY"), ("Temasek", "COMPANY"), ("CalPERS", "COMPANY")]


def test_a_firms_span_ends_before_a_comma_and_lower_case_words():
    """The firm-commas record's probe, with the model's spans as it gave them: "Zelle,
    bank" ends before its comma; a lower-case legal form and a name after the comma stay."""
    from bertforge.pii.tidy import tidy

    text = "Paid through Zelle, bank says no. Acme Holdings, llc paid. Skadden, Arps won."
    spans = [Span(text.index(v), text.index(v) + len(v), "COMPANY", v, 0.9, "model")
             for v in ("Zelle, bank", "Acme Holdings, llc", "Skadden, Arps")]
    assert [s.text for s in tidy(text, spans)] == ["Zelle", "Acme Holdings, llc", "Skadden, Arps"]


def test_a_months_day_is_masked_with_the_month_read_as_a_date():
    """The month-days record's probe, with the model's spans as it gave them: a month
    alone read as a date takes in the day after or before it; a year after it, a number
    past 31, a time, and a month the model did not read as a date are left."""
    from bertforge.pii.tidy import tidy

    text = "LONDON, Jan 12 - On 3 Feb, in Mar 2024, March 45 cases, Apr 12:30; May 5 and June 7"
    spans = [Span(text.index(v), text.index(v) + len(v), label, v, 0.9, "model")
             for v, label in (("Jan", "DATE"), ("Feb", "DATE"), ("Mar", "DATE"), ("March", "DATE"),
                              ("Apr", "DATE"), ("May", "PERSON"))]
    assert [s.text for s in tidy(text, spans)] == ["Jan 12", "3 Feb", "Mar", "March", "Apr", "May"]


def test_a_months_abbreviation_its_full_stop_and_the_day_are_one_date():
    """The abbreviated-month-days record's probes, with the model's spans as it gave
    them: "[Nov]. 30" and "[Dec]. 1" take in the full stop and the day; a sentence's end
    and a number past 31 after it, and a year, are left."""
    from bertforge.pii.tidy import tidy

    text = "died Nov. 30. Your Dec. 1 editorial. In Jan. 45 cases. By Feb. 2026 it closed."
    spans = spans_in_turn(text, [(v, "DATE") for v in ("Nov", "Dec", "Jan", "Feb")])
    assert [s.text for s in tidy(text, spans)] == ["Nov. 30", "Dec. 1", "Jan", "Feb"]


def test_a_saints_name_in_a_place_or_a_charity_is_nobodys():
    """The saints record's probe, with the model's spans as it gave them: "St. [Mark]'s
    Church", "St. [Paul]", "St. [Vincent de Paul] Society" and a line that starts "St."
    go, and so does one after a bracket's "(St." (the bracketed-saints record); a name
    with a capitalised word before its "St." or "Saint" stays ("Elizabeth St.
    [John]", "Yves Saint Laurent"), and so does a name after a street's "St."."""
    from bertforge.pii.tidy import tidy

    text = ("Services at St. Mark's Church. They moved to St. Louis, then St. Paul. Donations "
            "to St. Vincent de Paul Society.\nSt. Jude Hospital thanks Elizabeth St. John, "
            "Yves Saint Laurent and, at 12 Elm St. Jane Doe. Rev. Emmanuel Boateng, St. Luke's "
            "Parish. Father Tom Brennan (St. Agnes Parish); \u201cSt. Anne\u201d, \"St. Bede\"")
    values = [("St. ", "Mark"), ("St. ", "Paul."), ("St. ", "Vincent de Paul"), ("St. ", "Jude"),
              ("thanks ", "Elizabeth"), ("St. ", "John"), ("", "Yves Saint Laurent"),
              ("", "Jane Doe"), ("Rev. ", "Emmanuel Boateng"), ("St. ", "Luke"),
              ("(St. ", "Agnes Parish"), ("\u201cSt. ", "Anne"), ('"St. ', "Bede")]
    spans = []
    for before, v in values:
        v = v.rstrip(".")
        at = text.index(before + v) + len(before)
        spans.append(Span(at, at + len(v), "PERSON", v, 0.9, "model"))
    found = tidy(text, spans)
    assert [s.text for s in found] == ["Elizabeth", "John", "Yves Saint Laurent", "Jane Doe",
                                       "Emmanuel Boateng"]


def test_a_saints_name_in_a_place_read_as_a_firm_is_nobodys():
    """The saint-firms record's probe: "of St. [Paul]" read as a firm goes; a firm of more
    words after "St." ("St. [James's Place]", a wealth manager), a word that is no name
    ("St. [Acme]") and a name after a capitalised word ("Elizabeth St. [John]") stay."""
    from bertforge.pii.tidy import tidy

    text = ("Erik Lindqvist of St. Paul; advised by St. James's Place; St. Acme; Elizabeth "
            "St. John")
    values = [("Erik Lindqvist", "PERSON"), ("Paul", "COMPANY"), ("James's Place", "COMPANY"),
              ("Acme", "COMPANY"), ("Elizabeth", "PERSON"), ("John", "COMPANY")]
    assert [s.text for s in tidy(text, spans_at(text, values))] == [
        "Erik Lindqvist", "James's Place", "Acme", "Elizabeth", "John"]


def test_a_lawmakers_party_and_state_tag_is_no_firm():
    """The party-tags record's probe, with the model's spans as it gave them: "D-Mass."
    and "R-N.C." go, the lawmakers stay; a firm that only starts like a tag stays
    ("D-Link Systems")."""
    from bertforge.pii.tidy import tidy

    text = ("Sen. Elizabeth Warren, D-Mass., pressed for a cap, while Rep. Patrick McHenry, "
            "R-N.C., and Sen. Bernie Sanders, I-Vt., did not; D-Link Systems declined.")
    values = [("Elizabeth Warren", "PERSON"), ("D-Mass.", "COMPANY"), ("Patrick McHenry", "PERSON"),
              ("R-N.C.", "COMPANY"), ("Bernie Sanders", "PERSON"), ("I-Vt.", "COMPANY"),
              ("D-Link Systems", "COMPANY")]
    found = tidy(text, spans_at(text, values))
    assert [s.text for s in found] == ["Elizabeth Warren", "Patrick McHenry", "Bernie Sanders",
                                       "D-Link Systems"]
    # read as a person, whose name loses the state's full stop (the party-tags record's
    # amendment): the tag goes too
    text = "Sen. Kyrsten Sinema, I-Ariz., who helped; Rep. Ro Khanna, D-Calif. spoke."
    found = tidy(text, spans_at(text, [("Kyrsten Sinema", "PERSON"), ("I-Ariz.", "PERSON"),
                                       ("Ro Khanna", "PERSON"), ("D-Calif.", "PERSON")]))
    assert [s.text for s in found] == ["Kyrsten Sinema", "Ro Khanna"]
    # the tag's end without the party's letter (the party-states record): it goes too
    text = "Rep. Patrick McHenry, R-N.C., defended it; Rep. Maxine Waters, D-Calif., spoke."
    found = tidy(text, spans_at(text, [("Patrick McHenry", "PERSON"), ("-N.C.", "PERSON"),
                                       ("Maxine Waters", "PERSON"), ("D", "PERSON"),
                                       ("Calif", "PERSON")]))
    assert [s.text for s in found] == ["Patrick McHenry", "Maxine Waters"]


def test_field_labels_statement_lines_and_mail_headers_are_nobodys():
    """The field-labels record's probes, with the model's spans as it gave them: "Attn"
    after a firm or an address and "C/O" before one are left out; "Ambassador" and
    "Speaker" before a name too; a statement line's date without the description's first
    word ("11/03 [ZELLE]"), while a month or a time zone stays ("14 MAY", "10:14 EST");
    a mail's Message-ID is no phone number and its "X-To" header no name."""
    from bertforge.pii.tidy import tidy

    text = ("Bill To: Greenleaf Organics LLC, Attn: Accounts Payable, 88 Harbor Blvd Attn: Ops\n"
            "KOWALSKI ANDREW J, C/O BRIGHTLINE INC.; Ambassador Paula Whitcombe; Speaker Mike "
            "Johnson\n11/03 ZELLE PAYMENT TO MARCUS WEBB -150.00\n14 MAY 10:14 EST, 3 MARCH\n"
            "Message-ID: <18782981.1075855378110.JavaMail.evans@thyme>\nX-To: Tim Belden")
    values = [("Greenleaf Organics LLC, Attn", "COMPANY"), ("88 Harbor Blvd Attn", "ADDRESS"),
              ("/O BRIGHTLINE INC.", "COMPANY"), ("Ambassador Paula Whitcombe", "PERSON"),
              ("Speaker Mike Johnson", "PERSON"), ("11/03 ZELLE", "DATE"),
              ("MARCUS WEBB", "PERSON"), ("14 MAY 10:14 EST", "DATE"), ("3 MARCH", "DATE"),
              ("18782981.1075855378110.JavaMail.evans@thyme", "PHONE"), ("X-To", "PERSON"),
              ("Tim Belden", "PERSON")]
    found = tidy(text, spans_at(text, values))
    assert [s.text for s in found] == ["Greenleaf Organics LLC", "88 Harbor Blvd",
                                       "BRIGHTLINE INC.", "Paula Whitcombe", "Mike Johnson",
                                       "11/03", "MARCUS WEBB", "14 MAY 10:14 EST", "3 MARCH",
                                       "Tim Belden"]
    assert all(text[s.start:s.end] == s.text for s in found)
    # a copy's "cc" (lower case, or with its colon) and German's "Herrn" are no part of a
    # name; "CC" starting a firm's name is (the copy-leads record)
    text = ("Please cc Shauna Mbeki and bcc: Lena Fischer; CC: Ann Lowe. CC Holdings LLC "
            "wrote to Herrn Matthias Brünning.")
    values = [("cc Shauna Mbeki", "PERSON"), ("bcc: Lena Fischer", "PERSON"),
              ("CC: Ann Lowe", "PERSON"), ("CC Holdings LLC", "COMPANY"),
              ("Herrn Matthias Brünning", "PERSON")]
    assert [s.text for s in tidy(text, spans_at(text, values))] == [
        "Shauna Mbeki", "Lena Fischer", "Ann Lowe", "CC Holdings LLC", "Matthias Brünning"]


def test_a_datelines_place_is_nobodys():
    """The datelines record's probe, with the model's spans as it gave them: the place
    of a dateline read as a person goes ("HARARE 1996-12-06", "HILVERSUM , Netherlands
    1996-08-30", "KABUL, Dec 3 (Reuters)", "ABUJA — President", the dateline-dashes
    record; "RIYADH - Saudi", "TOKYO -- SoftBank", the plain-dashes record); a headline's
    name stays ("CUTTITTA BACK"), and a name not at its line's start before a dash,
    and so do a known surname and two words in capitals before a date (a list of names
    and birth dates), and a place in the middle of a sentence."""
    from bertforge.pii.tidy import tidy

    text = ("HARARE 1996-12-06 President Robert Mugabe spoke .\nGOLF - SCORES . HILVERSUM , "
            "Netherlands 1996-08-30 Ian Woosnam led .\nKABUL, Dec 3 (Reuters) - Talks .\n"
            "RUGBY - CUTTITTA BACK FOR ITALY .\nSMITH 1990-05-01\nJOHN KOWALSKI 1990-05-01\n"
            "KINSHASA (Reuters) - Rebels attacked .\nKasongo 1996-12-06\n"
            "He met OKONJO 1996-12-06 .\nABUJA — President Bola Tinubu spoke.\n"
            "ADEYEMI — the defendant — spoke.\nNAIROBI – Kenya's central bank held.\n"
            "RIYADH - Saudi Aramco met.\nTOKYO -- SoftBank said.\nScorers: CUTTITTA - 3")
    values = ["HARARE", "Robert Mugabe", "HILVERSUM", "Ian Woosnam", "KABUL", "CUTTITTA", "SMITH",
              "JOHN KOWALSKI", "KINSHASA", "Kasongo", "OKONJO", "ABUJA", "Bola Tinubu", "ADEYEMI",
              "NAIROBI", "RIYADH", "TOKYO", ("CUTTITTA", "PERSON", 1)]
    found = tidy(text, spans_at(text, values))
    assert [s.text for s in found] == ["Robert Mugabe", "Ian Woosnam", "CUTTITTA", "SMITH",
                                       "JOHN KOWALSKI", "Kasongo", "OKONJO", "Bola Tinubu",
                                       "ADEYEMI", "CUTTITTA"]


def test_a_countrys_code_in_brackets_after_a_name_is_nobodys():
    """The country-codes record's probe, with the model's spans as it gave them: a
    country's three capitals in brackets after an athlete's name go, a known name
    ("DOM", "POL") as well as another ("BRN"); a nickname in brackets written with one
    capital ("Dom", "Bob") or of two capitals ("BO") stays, and so does a code with no
    name before it."""
    from bertforge.pii.tidy import tidy

    text = ("1. Marileidy Paulino (DOM) 48.17, 2. Salwa Eid Naser (BRN) 48.53, 3. Natalia "
            "Kaczmarek (POL) 48.98; Dominic (Dom) Reyes; Carl (Bob); Carl (BO); the (DOM) lot")
    values = ["Marileidy Paulino", "DOM", "Salwa Eid Naser", "BRN", "Natalia Kaczmarek", "POL",
              "Dominic", "Dom", "Reyes", "Carl", "Bob", "Carl", "BO", "DOM"]
    assert [s.text for s in tidy(text, spans_in_turn(text, values))] == [
        "Marileidy Paulino", "Salwa Eid Naser", "Natalia Kaczmarek", "Dominic (Dom) Reyes",
        "Carl", "Bob", "Carl", "BO", "DOM"]


def test_a_club_in_brackets_after_a_name_is_nobodys():
    """The affiliations record's probe, with the model's spans as it gave them: a club
    alone in brackets after a scorer's name goes ("( Fiorentina )", "(Lazio)"); a
    nickname stays ("Carl (Bo)"), and so do a name in brackets after a word that is no
    name ("the director ( Okonjo )") and a bracket that holds more ("( Okonjo 2 )")."""
    from bertforge.pii.tidy import tidy

    text = ("8 - Gabriel Batistuta ( Fiorentina ) , Giuseppe Signori (Lazio) ; Carl (Bo) ; "
            "the director ( Okonjo ) ; Ian Wright ( Okonjo 2 ) .")
    values = ["Gabriel Batistuta", "Fiorentina", "Giuseppe Signori", "Lazio", "Carl", "Bo",
              "Okonjo", "Ian Wright", "Okonjo 2"]
    spans, at = [], 0
    for v in values:
        at = text.index(v, at)
        name = v.removesuffix(" 2")  # the model's span: the name without the number
        spans.append(Span(at, at + len(name), "PERSON", name, 0.9, "model"))
        at += len(v)
    found = tidy(text, spans)
    assert [s.text for s in found] == ["Gabriel Batistuta", "Giuseppe Signori", "Carl", "Bo",
                                       "Okonjo", "Ian Wright", "Okonjo"]
    # a club named in a sentence, whole or a word of it (the football-clubs record); a
    # club's whole name that is a name too ("Chelsea"), a player's name beside a club, and a
    # name that only starts like a club's ("Werderman") stay
    text = ("Bayer Leverkusen beat Werder Bremen; Steaua Bucureşti won. Chelsea called Jude "
            "Bellingham of Real Madrid. Anna Werderman spoke.")
    found = tidy(text, spans_at(text, ["Bayer Leverkusen", "Werder", "Steaua", "Chelsea",
                                       "Jude Bellingham", "Anna Werderman"]))
    assert [s.text for s in found] == ["Chelsea", "Jude Bellingham", "Anna Werderman"]


def test_a_name_in_the_name_of_a_thing_or_an_institution_is_nobodys():
    """The eponyms record's probe, with the model's spans as it gave them: names that
    are part of a foundation's, an institute's, an airport's, a street's, a band's, a
    prize's or a theorem's name go ("Bill" + "Melinda Gates" of "Bill & Melinda Gates
    Foundation", "Dana" + "Farber" of "Dana-Farber Cancer Institute", "Martin Luther
    King Jr." of a boulevard, "Lou Gehrig's disease"); a person's name before other
    words stays, as does one before such a word on the next line."""
    from bertforge.pii.tidy import tidy

    text = ("From the Bill & Melinda Gates Foundation and the Dana-Farber Cancer Institute, down "
            "Martin Luther King Jr. Boulevard past John F. Kennedy International Airport, the "
            "Dave Matthews Band and Lou Gehrig's disease; Jane Doe Hughes spoke, Ann Lee Clinic "
            "staff thanked Raj Patel.\nRaj Patel\nFoundation Director")
    values = ["Bill", "Melinda Gates", "Dana", "Farber", "Martin Luther King Jr",
              "John F. Kennedy", "Dave Matthews", "Lou Gehrig", "Jane Doe Hughes", "Ann Lee",
              "Raj Patel", "Raj Patel\n"]
    found = tidy(text, spans_in_turn(text, [v.rstrip("\n") for v in values]))
    assert [s.text for s in found] == ["Jane Doe Hughes", "Raj Patel", "Raj Patel"]


def test_finances_terms_named_after_a_person_are_nobodys():
    """The finance-eponyms record's probes, with the model's spans as it gave them: a
    measure named after its author and the terms of `EPONYM_TERMS` go ("[Wells] Notice",
    "a [Keogh] plan", "[Treynor] ratio", "a [Roth] 401(k)", "a [Roth IRA]"); a full name
    before a term's words (an account's holder), a term's name before other words or in a
    longer name, another name before a term's words, and a term's name before a longer
    word stay."""
    from bertforge.pii.tidy import tidy

    text = ("Carrow received a Wells Notice. Open a Keogh plan. Treynor ratio fell; the Kelly "
            "criterion. A Roth 401(k) helps; a Roth IRA too. JOHN A SMITH ROTH IRA. Wells said "
            "so. Ms. Cole plan: rest. Ponzi schemers lied. Pell Grant Smith Notice.")
    values = ["Carrow", "Wells", "Keogh", "Treynor", "Kelly", "Roth", "Roth IRA",
              "JOHN A SMITH ROTH", "Wells", "Cole", "Ponzi", "Pell Grant Smith"]
    found = tidy(text, spans_in_turn(text, values))
    assert [s.text for s in found] == ["Carrow", "JOHN A SMITH ROTH", "Wells", "Cole", "Ponzi",
                                       "Pell Grant Smith"]


def test_a_storms_or_a_ships_name_is_nobodys():
    """The storms-and-ships record's probes, with the model's spans as it gave them: a
    storm's word first in the span or right before it, and a ship's prefix, make the
    name no one's; "Storm" alone (a given name too), a surname that is such a word and
    a name after a word that ends in one ("BOSS") stay."""
    from bertforge.pii.tidy import tidy

    text = ("Hurricane Helene hit Florida; insurers paid for Hurricane Ian. The USS Gerald R. "
            "Ford sailed. Storm Reid starred, Tom Hurricane spoke, and so did THE BOSS Ana Ruiz.")
    spans = spans_at(text, ["Hurricane Helene", "Ian", "Gerald R. Ford", "Storm Reid",
                            "Tom Hurricane", "Ana Ruiz"])
    assert [s.text for s in tidy(text, spans)] == ["Storm Reid", "Tom Hurricane", "Ana Ruiz"]


def test_a_filings_number_at_the_sec_is_nobodys():
    """The file-numbers record's probe, with the model's spans as it gave them: a
    Commission file number and registration statement numbers (and a piece of one) go;
    the employer identification number beside them and an account number after other
    words stay."""
    from bertforge.pii.tidy import tidy

    text = ("Commission File Number 001-35565 ABBVIE INC. Delaware 32-0375147. We consent to "
            "Registration Statement Nos. 333-181780, 333-189036 and 333-256742 on Form S-8 and "
            "No. 333-267412 on Form S-3. "
            "Wire to account 123-456789 today.")
    values = [("001-35565", "ACCOUNT"), ("32-0375147", "GOV_ID"), ("333-181780", "GOV_ID"),
              ("-189036", "GOV_ID"), ("333-256742", "ACCOUNT"), ("333-267412", "ACCOUNT"),
              ("123-456789", "ACCOUNT")]
    found = tidy(text, spans_at(text, values))
    assert [s.text for s in found] == ["32-0375147", "123-456789"]

def test_court_papers_parties_and_signatures():
    """The court-papers record's probe, with the model's spans as it gave them: a fund
    named after a person is a firm ("Erica P. John Fund, Inc."), a case name's "In re"
    is no part of the firm, a signature and the typed name under it are two names; a
    name that only repeats a word ("Ann Ann Lee") stays one."""
    from bertforge.pii.tidy import tidy

    text = ("Halliburton Co. v. Erica P. John Fund, Inc.; In re Lehman Brothers Holdings Inc.; "
            "/s/ Aaron J. Feldstein Aaron J. Feldstein (Bar No. 288134); Ann Ann Lee.")
    values = [("Erica P. John Fund", "PERSON"), ("re Lehman Brothers Holdings Inc.", "COMPANY"),
              ("Aaron J. Feldstein Aaron J. Feldstein", "PERSON"), ("Ann Ann Lee", "PERSON")]
    found = tidy(text, spans_at(text, values))
    assert [(s.text, s.label) for s in found] == [
        ("Erica P. John Fund, Inc.", "COMPANY"), ("Lehman Brothers Holdings Inc.", "COMPANY"),
        ("Aaron J. Feldstein", "PERSON"), ("Aaron J. Feldstein", "PERSON"),
        ("Ann Ann Lee", "PERSON")]


def test_a_department_and_its_comma_before_a_name_are_no_part_of_it():
    """The department-leads record's probe, an authorization to release information, with
    the model's span as it gave it: "HR, Beth Ann Morales" is the name; a department
    named with its word, and an address after one, too; a name that starts with a
    department's word and no comma, one with a department's word inside, and an inverted
    name whose surname is a department's word ("Sales, Bernardo", the amendment), stay."""
    from bertforge.pii.tidy import tidy

    text = ("(contact: HR, Beth Ann Morales); Legal Department, Acme Corp; Claims, 12 Elm St;"
            " Sales Rowe; Ann Finance, Acme; Sales, Bernardo")
    values = [("HR, Beth Ann Morales", "PERSON"), ("Legal Department, Acme Corp", "COMPANY"),
              ("Claims, 12 Elm St", "ADDRESS"), ("Sales Rowe", "PERSON"),
              ("Ann Finance, Acme", "COMPANY"), ("Sales, Bernardo", "PERSON")]
    assert [s.text for s in tidy(text, spans_at(text, values))] == [
        "Beth Ann Morales", "Acme Corp", "12 Elm St", "Sales Rowe", "Ann Finance, Acme",
        "Sales, Bernardo"]


def test_a_weekday_alone_is_no_date():
    """The weekdays record's probe, with the model's spans as it gave them: "Saturday"
    and "Mon" alone go; a weekday with its date, "Friday, 3 May 2024", and a month
    alone stay."""
    from bertforge.pii.tidy import tidy

    text = "Bayern won on Saturday. Date: Mon, then Friday, 3 May 2024, and in March."
    values = [("Saturday", "DATE"), ("Mon", "DATE"), ("Friday, 3 May 2024", "DATE"),
              ("March", "DATE")]
    assert [s.text for s in tidy(text, spans_at(text, values))] == ["Friday, 3 May 2024",
                                                                      "March"]


def test_a_known_firm_before_a_possessive_is_found_whole():
    """The field-labels record's possessive: "Goldman Sachs' David Solomon" (the model
    gave "Goldman" and a person "Sachs") is the firm whole; a name that only starts
    like a listed firm's does not match ("Lazard'ine")."""
    from bertforge.pii.patterns import FIRMS

    text = "Goldman Sachs' David Solomon and Lazard's banker met Lazard'ine."
    assert [m.group() for m in FIRMS.finditer(text)] == ["Goldman Sachs", "Lazard"]


def test_a_name_read_as_an_email_or_a_secret_is_a_name():
    """The name-shapes record's probes, with the model's spans as it gives them: "Chidi"
    signing under a mail's headers (read as EMAIL) and "Oluwaseun Adebayo-Okafor?" in a
    chat (read as DIGITAL) are names, without the "?"; "ops." read as EMAIL has no
    name's shape and stays as the model read it (so does a user name, "reyes.flores");
    an address, a user name and a key stay what they are. It comes
    after the floors: a span under its own group's floor goes as before ("Bank", read as
    an email twice in the generator's validation split)."""
    from bertforge.pii.tidy import above_floors, name_shaped, tidy

    text = ("Check with ops. Chidi\nUser: Oluwaseun Adebayo-Okafor? Mail ann.lee@example.com, "
            "login svc_payments, key AKIA 7731 QX.")
    values = [("ops.", "EMAIL"), ("Chidi", "EMAIL"), ("Oluwaseun Adebayo-Okafor?", "DIGITAL"),
              ("ann.lee@example.com", "EMAIL"), ("svc_payments", "DIGITAL"), ("AKIA 7731 QX", "DIGITAL")]
    spans = tidy(text, [Span(text.index(v), text.index(v) + len(v), label, v, 0.95, "model")
                        for v, label in values])
    found = name_shaped(text, above_floors(spans, {"EMAIL": 0.9}))
    assert [(s.text, s.label) for s in found] == [
        ("ops.", "EMAIL"), ("Chidi", "PERSON"), ("Oluwaseun Adebayo-Okafor", "PERSON"),
        ("ann.lee@example.com", "EMAIL"), ("svc_payments", "DIGITAL"), ("AKIA 7731 QX", "DIGITAL")]
    bank = Span(0, 4, "EMAIL", "Bank", 0.6, "model")
    assert name_shaped("Bank", above_floors([bank], {"EMAIL": 0.9})) == []
    # a surname read as an email one space after its given name ends that name (the
    # surnames-as-emails record's probe); two spaces, a line between, a firm before it
    # and a pattern's person before it leave two spans, and so do two persons' spans
    text = ("Investor Contact:\nMarisol Etxeberria\nir@q.com\nAna  Etxeberria; Ana\n"
            "Etxeberria; Acme Etxeberria; Ana Etxeberria; Ana Ruiz")
    values = ["Marisol", ("Etxeberria", "EMAIL"), ("ir@q.com", "EMAIL"), "Ana",
              ("Etxeberria", "EMAIL"), "Ana", ("Etxeberria", "EMAIL"), ("Acme", "COMPANY"),
              ("Etxeberria", "EMAIL"), "Ana", ("Etxeberria", "EMAIL"), "Ana", "Ruiz"]
    spans = spans_in_turn(text, values)
    spans[-4] = Span(spans[-4].start, spans[-4].end, "PERSON", "Ana", 1.0, "pattern")
    assert [(s.text, s.label) for s in name_shaped(text, spans)] == [
        ("Marisol Etxeberria", "PERSON"), ("ir@q.com", "EMAIL"), ("Ana", "PERSON"),
        ("Etxeberria", "PERSON"), ("Ana", "PERSON"), ("Etxeberria", "PERSON"),
        ("Acme", "COMPANY"), ("Etxeberria", "PERSON"), ("Ana", "PERSON"),
        ("Etxeberria", "PERSON"), ("Ana", "PERSON"), ("Ruiz", "PERSON")]


def test_a_nickname_in_quotes_or_brackets_is_part_of_the_name():
    """The nicknames record's probe, with the model's spans as it gives them ("Robert" +
    'Bob" Kline'): one name each, the real corpora's convention; a quotation after a name
    ('Ann "Bob Lee"'), or a nickname with nothing after it, stays apart; a nickname
    found without the surname after its closing mark takes it in (the nickname-surnames
    record: 'Chukwuemeka "Emeka" Obi'), and a span of the surname goes in with it; a
    name after another in brackets, followed by a comma, does not (an alias); nor does a
    word in brackets after a full name that does not end in a given name (the
    nickname-heads record: a rider's country, "Mauro Schmid (Sui) Jayco")."""
    from bertforge.pii.tidy import tidy

    text = ('Robert "Bob" Kline, William (Bill) Okafor, Elizabeth \'Liz\' Warren, '
            'Mae “Big Mama” Thornton; Ann "Bob Lee" left; Carl (Bo). Chukwuemeka "Emeka" Obi, '
            'Ngozi “Zee” Eze-Okafor and Tom "Tee" bought it. AL-RAWI, Ahmed (a.k.a. Rawi, Abu '
            'Omar). 4. Mauro Schmid (Sui) Jayco AlUla; Mary Ann (Molly) Brown.')
    values = ["Robert", 'Bob" Kline', "William", "Bill) Okafor", "Elizabeth", "Liz' Warren", "Mae",
              "Big Mama” Thornton", "Ann", "Bob Lee", "Carl", "Bo)", "Chukwuemeka", "Emeka",
              "Ngozi", "Zee", "Eze-Okafor", "Tom", "Tee", "AL-RAWI, Ahmed", "a.k.a. Rawi",
              "Abu Omar", "Mauro Schmid", "Sui", "Mary Ann", "Molly"]
    found = tidy(text, spans_in_turn(text, values))
    assert [s.text for s in found] == ['Robert "Bob" Kline', "William (Bill) Okafor",
                                       "Elizabeth 'Liz' Warren", "Mae “Big Mama” Thornton",
                                       "Ann", "Bob Lee", "Carl", "Bo",
                                       'Chukwuemeka "Emeka" Obi', "Ngozi “Zee” Eze-Okafor", "Tom",
                                       "Tee", "AL-RAWI, Ahmed", "Rawi", "Abu Omar",
                                       "Mauro Schmid", "Mary Ann (Molly) Brown"]

def test_a_legal_form_alone_takes_in_the_firm_before_it_or_goes():
    """"INC" of "ACME WIDGETS, INC." masked alone would leave the firm in clear: the
    name before it on its line comes in, with the form's full stop; a joining word, a
    field's colon or a span before it stop the name; "the Company" is no firm's name. A
    firm's word alone ("Bank") takes in the name before it as a form does, and goes where
    none is there (a firm's word alone names no firm: the lone-firm-words record)."""
    from bertforge.pii.tidy import tidy

    def tidied(text, values):
        return [(s.label, s.text) for s in tidy(text, sorted(
            Span(text.index(v), text.index(v) + len(v), label, v, 0.9, "model")
            for v, label in values))]

    assert tidied("Agreement. BORROWER: ACME WIDGETS, INC. By: ROBERT J. HALVORSEN",
                  [("INC", "COMPANY"), ("ROBERT J. HALVORSEN", "PERSON")]) == [
        ("COMPANY", "ACME WIDGETS, INC."), ("PERSON", "ROBERT J. HALVORSEN")]
    assert tidied("Notices to THE SERVICER AND HARBOR WIDGETS LLC shall be sent",
                  [("LLC", "COMPANY")]) == [("COMPANY", "HARBOR WIDGETS LLC")]
    assert tidied("Ann Lee Acme Inc", [("Ann Lee", "PERSON"), ("Inc", "COMPANY")]) == [
        ("PERSON", "Ann Lee"), ("COMPANY", "Acme Inc")]
    # a founder's name the model read as a person's is the firm's first word (the
    # founders-forms record), not a name of two words or one on the line before
    text = "Counsel: Vanessa Quintero, Quintero Law PLLC"
    assert [(s.label, s.text) for s in tidy(text, spans_at(text, [
        "Vanessa Quintero", ("Quintero", "PERSON", 1), ("PLLC", "COMPANY")]))] == [
        ("PERSON", "Vanessa Quintero"), ("COMPANY", "Quintero Law PLLC")]
    assert tidied("Signed: Okafor\nACME WIDGETS INC",
                  [("Okafor", "PERSON"), ("INC", "COMPANY")]) == [
        ("PERSON", "Okafor"), ("COMPANY", "ACME WIDGETS INC")]
    assert tidied("Consents: the Company shall deliver", [("Company", "COMPANY")]) == []
    assert tidied("was filed.\nLLC records", [("LLC", "COMPANY")]) == []
    # a firm at the start of its line, on the line under a name
    assert tidied("Signed: Ann Lee\nACME WIDGETS, INC.\nBy its officer",
                  [("Ann Lee", "PERSON"), ("INC", "COMPANY")]) == [
        ("PERSON", "Ann Lee"), ("COMPANY", "ACME WIDGETS, INC.")]
    # a firm's word alone takes in the name before it too (the firm-heads record), and
    # goes where none is there
    assert tidied("opened an account at Frost Bank.", [("Bank", "COMPANY")]) == [
        ("COMPANY", "Frost Bank")]
    assert tidied("the Bank shall pay", [("Bank", "COMPANY")]) == []  # (lone-firm-words)
    # and a unit's word alone (the unit-words record); a firm named so stays
    assert tidied("Yours sincerely,\nClaims Department\nAllianz Partners UK", [
        ("Department", "COMPANY")]) == []
    assert tidied("Paid to Team Rubicon Inc", [("Team Rubicon Inc", "COMPANY")]) == [
        ("COMPANY", "Team Rubicon Inc")]
    # and a home contractor's trade (the trade-words record: an insurer's claim notes)
    assert tidied("Contractor is Apex Roofing (Dale).", [("Roofing", "COMPANY")]) == [
        ("COMPANY", "Apex Roofing")]
    # and a food or drink trade's (the food-trades record: a payout to a merchant)
    assert tidied("The payout to Halfmoon Brewing bounced.", [("Brewing", "COMPANY")]) == [
        ("COMPANY", "Halfmoon Brewing")]
    # and a maker's (the industrial-firms record: a director's former employer)
    text = "she was President of Kessler Industrial. Mr. Ogunbiyi joined"
    assert [(s.label, s.text) for s in tidy(text, spans_at(text, [
        "Kessler", ("Industrial", "COMPANY"), "Ogunbiyi"]))] == [
        ("COMPANY", "Kessler Industrial"), ("PERSON", "Ogunbiyi")]
    # and a broker's research arm after its name (the news-firms-abroad record)
    assert tidied("Kotak Institutional Equities analyst Nischint Chawathe said", [
        ("Kotak Institutional", "COMPANY"), ("Nischint Chawathe", "PERSON")]) == [
        ("COMPANY", "Kotak Institutional Equities"), ("PERSON", "Nischint Chawathe")]
    # a firm the model found whole is left as it was
    assert tidied("paid Acme Widgets, Inc. in full", [("Acme Widgets, Inc.", "COMPANY")]) == [
        ("COMPANY", "Acme Widgets, Inc.")]


def test_a_hyphenated_name_is_masked_whole():
    """"Fatima Al" of "Fatima Al-Sayed" leaves half a surname readable: the word after a
    glued hyphen comes in when it is capitalised, and so does the start of one before;
    "Merkel-led", a reference's digits and two names both found stay as they were,
    unless the second starts in lower case or is one word after a full name."""
    from bertforge.pii.tidy import tidy

    def tidied(text, values):
        return [s.text for s in tidy(text, sorted(
            Span(text.index(v), text.index(v) + len(v), "PERSON", v, 0.9, "model")
            for v in values))]

    assert tidied("I escalated to Fatima Al-Sayed in disputes.", ["Fatima Al"]) == [
        "Fatima Al-Sayed"]
    assert tidied("Contact Sarah Smith-Jones now", ["Jones"]) == ["Smith-Jones"]
    assert tidied("the Trump-Biden debate", ["Trump", "Biden"]) == ["Trump", "Biden"]
    assert tidied("a Merkel-led coalition", ["Merkel"]) == ["Merkel"]
    assert tidied("ref Smith-4410 filed", ["Smith"]) == ["Smith"]
    # two found, the second starting in lower case: a romanised given name, one (the
    # hyphenated-given-names record's probe, as the model gave it)
    assert tidied("Hye-jin Choi, Head of Digital Assets", ["Hye", "jin Choi"]) == ["Hye-jin Choi"]
    # a full name and one word, a double-barrelled surname's second part (the
    # hyphen-surnames record's probe, a headline, as the model gave it); two full names
    # stay two
    assert tidied("Citi Banker Ngozi Adebayo-Hart to Lead", ["Ngozi Adebayo", "Hart"]) == [
        "Ngozi Adebayo-Hart"]
    assert tidied("the Joe Biden-Kamala Harris ticket", ["Joe Biden", "Kamala Harris"]) == [
        "Joe Biden", "Kamala Harris"]
    # and a given name and a full name, a double given name's first part (the
    # hyphen-given-names record's probe, a board's list); a surname before a full name
    # stays two
    assert tidied("Mary-Kate O'Connell\nHiroshi Tanaka", ["Mary", "Kate O'Connell"]) == [
        "Mary-Kate O'Connell"]
    assert tidied("the Merkel-Emmanuel Macron talks", ["Merkel", "Emmanuel Macron"]) == [
        "Merkel", "Emmanuel Macron"]
    # and a name spelled letter by letter, read as its last two letters (the spelled-names
    # record's probe, a call's transcript, as the model gave it)
    text = "Sure, it's K-O-W-A-L-C-Z-Y-K, first name Adam."
    assert [s.text for s in tidy(text, [Span(text.index("Y"), text.index("Y") + 1, "PERSON", "Y",
                                             0.6, "model"),
                                        Span(text.index("K,"), text.index("K,") + 1, "PERSON", "K",
                                             0.8, "model")])] == ["K-O-W-A-L-C-Z-Y-K"]


def test_a_depositions_answer_mark_is_no_initial():
    """The deposition-marks record's probe, with the model's span as it gave it: "A.
    Marcus James Ellerby." is the witness's name where the questions' lines start "Q.";
    in a text without them, and inside a line, "A." is an initial and stays."""
    from bertforge.pii.tidy import tidy

    text = ("Q. Please state your name.\nA. Marcus James Ellerby.\nQ. Who signed?\n"
            "A. I think it was A. Ruiz.")
    found = tidy(text, spans_at(text, ["A. Marcus James Ellerby", "A. Ruiz"]))
    assert [s.text for s in found] == ["Marcus James Ellerby", "A. Ruiz"]
    letter = "Signed:\nA. Marcus Ellerby\nBranch Manager"
    assert [s.text for s in tidy(letter, spans_at(letter, ["A. Marcus Ellerby"]))] == [
        "A. Marcus Ellerby"]


def test_a_depositions_question_mark_before_a_title_is_no_part_of_a_name():
    """The deposition-titles record's probe, with the model's spans as it gave them: "Q.
    Ms. Liu" at a line's start is the surname, and so is "A. Dr. Patel"; "Q. Smith" (no
    title after the mark) and "Q. Ms. Liu" inside a line stay."""
    from bertforge.pii.tidy import tidy

    text = ("Q. Ms. Liu, what was your role?\nA. Dr. Patel told me.\nQ. Smith\n"
            "I asked Q. Ms. Liu")
    found = tidy(text, spans_in_turn(text, ["Q. Ms. Liu", "A. Dr. Patel", "Q. Smith",
                                            "Q. Ms. Liu"]))
    assert [s.text for s in found] == ["Liu", "Patel", "Q. Smith", "Q. Ms. Liu"]


def test_a_calls_speakers_are_parted_from_their_marks_and_firms():
    """The call-transcripts record's probe, with the model's spans as it gave them: a
    question or answer mark before a speaker is left out ("A." may be an initial and
    stays); a spaced dash parts a name from the firm after it, a hyphen does not; a name,
    a comma and a firm are two spans ("Okonkwo, Chidi" is one name); a person with a
    firm's word after it is that firm, a field's label after a name is not."""
    from bertforge.pii.tidy import tidy

    text = ("Q - Kenneth Usdin: Thanks.\nA - Daniel Whitcombe: Yes.\nA. Daniel Whitcombe\n"
            "Jonathan Feld - Morgan Stanley\nKwame Asante-Boateng\n"
            "Hi, Betsy Graseck, Morgan Stanley. Okonkwo, Chidi\n"
            "Hannah Liebowitz\nProsek Partners\nAmy Reyes Direct: 555-0100")
    spans = [Span(text.index(v), text.index(v) + len(v), "PERSON", v, 0.9, "model")
             for v in ("Q - Kenneth Usdin", "A - Daniel Whitcombe", "A. Daniel Whitcombe",
                       "Jonathan Feld - Morgan Stanley", "Kwame Asante-Boateng",
                       "Betsy Graseck, Morgan Stanley", "Okonkwo, Chidi",
                       "Hannah Liebowitz", "Prosek", "Amy Reyes")]
    assert [(s.text, s.label) for s in tidy(text, spans)] == [
        ("Kenneth Usdin", "PERSON"), ("Daniel Whitcombe", "PERSON"),
        ("A. Daniel Whitcombe", "PERSON"), ("Jonathan Feld", "PERSON"),
        ("Morgan Stanley", "COMPANY"), ("Kwame Asante-Boateng", "PERSON"),
        ("Betsy Graseck", "PERSON"), ("Morgan Stanley", "COMPANY"),
        ("Okonkwo, Chidi", "PERSON"), ("Hannah Liebowitz", "PERSON"),
        ("Prosek Partners", "COMPANY"), ("Amy Reyes", "PERSON")]


def test_a_name_and_a_firm_read_as_one_firm_are_a_person_and_the_firm():
    """The names-before-firms record's probe, with the model's spans as it gave them: a
    transcript's speaker line read as one firm is the speaker and the firm, and so is a
    partner named with "of" before a firm that the legal-form pattern found whole; a
    firm's name before the dash stays one span, whether its first word is no given name,
    one of its words is a firm's or it is a well-known firm."""
    from bertforge.pii import Redactor
    from bertforge.pii.recognizers import FirmForms
    from bertforge.pii.tidy import tidy

    text = ("Mike Mayo -- Wells Fargo Securities -- Analyst\n"
            "Bank of Montreal Capital Markets\nSeaport Global -- Wolfe Research\n"
            "Clayton Holdings -- Apollo Global Management\n"
            "Morgan Stanley -- Smith Barney LLC\nCarla and partners -- Numis Securities")
    firms = ("Mike Mayo -- Wells Fargo Securities", "Bank of Montreal Capital Markets",
             "Seaport Global -- Wolfe Research", "Clayton Holdings -- Apollo Global Management",
             "Morgan Stanley -- Smith Barney LLC", "Carla and partners -- Numis Securities")
    spans = [Span(text.index(v), text.index(v) + len(v), "COMPANY", v, 0.9, "model")
             for v in firms]
    assert [(s.text, s.label) for s in tidy(text, spans)] == [
        ("Mike Mayo", "PERSON"), ("Wells Fargo Securities", "COMPANY")] + [
        (v, "COMPANY") for v in firms[1:]]
    notice = ("Joint Administrators: Andrew Pike and Lisa Thorogood of Begbies Traynor "
              "(Central) LLP\nThe Bank of Nova Scotia Ltd\nGraham Bank of Nova Scotia Ltd")
    assert [notice[m.start:m.end] for m in FirmForms().find(notice)] == [
        "Begbies Traynor (Central) LLP", "Bank of Nova Scotia Ltd",
        "Graham Bank of Nova Scotia Ltd"]
    found = [(s.text, s.label) for s in Redactor.load(None).detect(notice.split("\n")[0])]
    assert found == [("Andrew Pike", "PERSON"), ("Lisa Thorogood", "PERSON"),
                     ("Begbies Traynor (Central) LLP", "COMPANY")]


def test_a_name_of_a_firm_read_as_one_person_is_a_person_and_the_firm():
    """The firms-after-of record's probe, with the model's spans as it gave them: a name
    of two words, "of" and a well-known firm, or one ending in a firm's word, are a person
    and a firm (the firm's "the" left out); "of" after one word ("Bank of Montreal Capital
    Markets") or before no firm ("Joan of Arc Smith", "of counsel") stays, and a comma
    before a firm whose name holds "of" parts it first ("Ana Ruiz, Bank of Montreal
    Capital Markets")."""
    from bertforge.pii.tidy import tidy

    text = ("From Manan Gosalia of Morgan Stanley. Ana Ruiz of the Halvern Partners spoke. "
            "Bank of Montreal Capital Markets, Joan of Arc Smith and Ana Ruiz of counsel. "
            "Hi, Ana Ruiz, Bank of Montreal Capital Markets.")
    values = ["Manan Gosalia of Morgan Stanley", "Ana Ruiz of the Halvern Partners",
              "Bank of Montreal Capital Markets", "Joan of Arc Smith", "Ana Ruiz of counsel",
              "Ana Ruiz, Bank of Montreal Capital Markets"]
    assert [(s.text, s.label) for s in tidy(text, spans_in_turn(text, values))] == [
        ("Manan Gosalia", "PERSON"), ("Morgan Stanley", "COMPANY"), ("Ana Ruiz", "PERSON"),
        ("Halvern Partners", "COMPANY"), ("Bank of Montreal Capital Markets", "COMPANY"),
        ("Joan of Arc Smith", "PERSON"), ("Ana Ruiz", "PERSON"), ("Ana Ruiz", "PERSON"),
        ("Bank of Montreal Capital Markets", "COMPANY")]


def test_one_word_names_in_a_series_that_goes_on_are_each_a_name():
    """The series-names record's probe, with the model's span as it gave it: one-word
    names with commas between them and a series' ", and" after them are each a name; an
    inverted name at a line's end, or before a full stop, stays one, and so do full names
    of two words before ", and" (`_people_listed` judges those); before an "and" or "or"
    without its comma (the given-names-listed record), only given names are parted
    ("Simon, Laura and their auditor"; "Mbeki, Thabo or Ramaphosa" stays)."""
    from bertforge.pii.tidy import tidy

    text = ("to the early readers - Tunde, Haruki, and my brother Callum - who told me.\n"
            "Okonkwo, Chidi\nSigned by Okonkwo, Chidi. Then Mbeki, Thabo or Ramaphosa.\n"
            "Ask Mbeki, Thabo Ramaphosa, and the rest. Met Simon, Laura and their auditor.")
    spans = [Span(m.start(), m.end(), "PERSON", m.group(), 0.9, "model") for m in re.finditer(
        r"Tunde, Haruki|Callum|Okonkwo, Chidi|Mbeki, Thabo(?: Ramaphosa)?|Ramaphosa(?=\.)|"
        r"Simon, Laura", text)]
    assert [s.text for s in tidy(text, spans)] == [
        "Tunde", "Haruki", "Callum", "Okonkwo, Chidi", "Okonkwo, Chidi", "Mbeki, Thabo",
        "Ramaphosa", "Mbeki, Thabo Ramaphosa", "Simon", "Laura"]


def test_given_names_greeted_together_are_each_a_name():
    """The greeted-together record's probes, with the model's spans as they came: given
    names with commas between them after a greeting are each a name ("Dear Sophie,
    Ahmed,", "Hi Tom, Priya, Olga"); an inverted name after a greeting, given names
    listed with no greeting before them, and a greeting far before, stay whole."""
    from bertforge.pii.tidy import tidy

    text = ("Dear Sophie, Ahmed,\nHi Tom, Priya, Olga\nDear Okonkwo, Chidi:\n"
            "Signed: Laura, Simon\nHello to the whole team here, Maria, Daniel")
    values = ["Sophie, Ahmed", "Tom, Priya, Olga", "Okonkwo, Chidi", "Laura, Simon",
              "Maria, Daniel"]
    assert [s.text for s in tidy(text, spans_in_turn(text, values))] == [
        "Sophie", "Ahmed", "Tom", "Priya", "Olga", "Okonkwo, Chidi", "Laura, Simon",
        "Maria, Daniel"]
    # and alone on the letter's salutation line with its comma (the salutation-lines
    # record), at the text's start too; not an inverted name, nor names the line goes on
    # after
    text = ("Oliver, Sinead,\nAttached.\nTom, Priya,\nOkonkwo, Chidi,\nMaria, Daniel said so\n"
            "Simon, Laura,")
    values = ["Oliver, Sinead", "Tom, Priya", "Okonkwo, Chidi", "Maria, Daniel", "Simon, Laura"]
    assert [s.text for s in tidy(text, spans_in_turn(text, values))] == [
        "Oliver", "Sinead", "Tom", "Priya", "Okonkwo, Chidi", "Maria, Daniel", "Simon", "Laura"]


def test_per_before_a_one_word_name_and_its_possessive_is_no_part_of_it():
    """The labelled-names record's probe, with the model's spans as it gave them: "Per
    Mateus's email" is the preposition and a name; the Scandinavian given name, with a
    surname after it, stays whole, before a possessive too."""
    from bertforge.pii.tidy import tidy

    text = ("Per Mateus's email, the wire was sent. Per Gessle's album and Per Gessle sang. "
            "Per Anders Holm's boat.")
    spans = [Span(m, m + len(v), "PERSON", v, 0.9, "model")
             for v, m in (("Per Mateus", 0), ("Per Gessle", text.index("Per Gessle's")),
                          ("Per Gessle", text.rindex("Per Gessle")),
                          ("Per Anders Holm", text.index("Per Anders")))]
    assert [s.text for s in tidy(text, spans)] == ["Mateus", "Gessle", "Per Gessle",
                                                   "Per Anders Holm"]


def test_a_programs_name_read_as_a_person_is_nobodys():
    """The software-names record's probe, with the model's spans as it gave them: tools
    named in a developer's post are not masked; a person beside them is, and so is a name
    people are called that is also a program's ("Jenkins")."""
    from bertforge.pii.tidy import tidy

    text = ("Gunicorn keeps timing out, so restart the Jupyter kernel or use Conda. "
            "Kendra asked Jenkins about it. I parse it in pandas, then in DOCKER.")
    spans = [Span(text.index(v), text.index(v) + len(v), "PERSON", v, 0.9, "model")
             for v in ("Gunicorn", "Jupyter", "Conda", "Kendra", "Jenkins", "pandas", "DOCKER")]
    # in lower case, as code writes them, or in capitals too (the software-cases record)
    assert [s.text for s in tidy(text, spans)] == ["Kendra", "Jenkins"]


@pytest.mark.parametrize("text, spans, kept", [
    # a listed company's exchange and ticker (`_listing`); a bracket that is no listing stays
    ("Halverson Industries (NYSE: HLV) and Norsk Vind ASA (OSE: NVIND; TSX: NVD) rose. "
     "Mr. James (JAMES) spoke.", [("PERSON", "HLV"), ("PERSON", "OSE"), ("PERSON", "NVD"),
                                  ("PERSON", "James"), ("PERSON", "JAMES")],
     ["James", "JAMES"]),
    # a docket number's pieces (`_docket`), whatever found them; an account stays
    ("No. 3:24-cv-01187 and 1:19-cr-00365-JSR; account 44-01188", [
        ("DATE", "3:24"), ("ACCOUNT", "01187"), ("ACCOUNT", "00365"), ("ACCOUNT", "44-01188")],
     ["44-01188"]),
    # and a bankruptcy court's, with the judge's initials (the bankruptcy-case-numbers
    # record); without them, an account stays
    ("Case No. 24-10588 (KBO); Adv. Pro. No. 24-50012(JTD); account 24-10589 (ok)", [
        ("ACCOUNT", "10588"), ("ACCOUNT", "24-50012"), ("ACCOUNT", "24-10589")],
     ["24-10589"]),
    # a judgment's neutral citation, its year, court and number (the neutral-citations
    # record), and Canada's without brackets; a year and a number outside one stay
    ("Neutral Citation Number: [2023] EWHC 1187 (Ch). See [2020] EWCA Civ 1234, [2021] EWHC 88 "
     "(Comm), [2020] FCAFC 111 and R. v. Jordan, 2016 SCC 27; paid [2023] and EWHC 1187 in 2016",
     [("DATE", "2023"), ("ACCOUNT", "EWHC 1187"), ("PERSON", "EWCA"), ("ACCOUNT", "88 (Comm)"),
      ("PERSON", "FCAFC"),
      ("ACCOUNT", "SCC 27"), ("DATE", "2023", 1), ("ACCOUNT", "EWHC 1187", 1), ("DATE", "2016", 1)],
     ["2023", "EWHC 1187", "2016"]),
    # a program's version (`_version`); a date after a word that is no program's stays
    ("I'm on Ubuntu 22.04 with Python 3.12, torch==2.13.0 and Node v18.17.1; paid on 23.04",
     [("DATE", "22.04"), ("DATE", "3.12"), ("DIGITAL", "2.13.0"), ("DIGITAL", "18.17.1"),
      ("DATE", "23.04")], ["23.04"]),
    # a contract's numbered part after its word (the section-numbers record, `_section`);
    # a time after a word that names no part, and a name after one, stay
    ("set forth on Schedule 9.01; see Section 2.03 and § 1.402; call at 9.30 or 10.15; the "
     "Rules Tomasz wrote",
     [("DATE", "9.01"), ("DATE", "2.03"), ("DATE", "1.402"), ("DATE", "9.30"), ("DATE", "10.15"),
      ("PERSON", "Tomasz")],
     ["9.30", "10.15", "Tomasz"]),
    # a fiscal period (the fiscal-periods record); a date stays
    ("Review FY2026: Q3 2026 and FY 2025/26 beat H1-26; paid 2026-03-04",
     [("ACCOUNT", "FY2026"), ("DATE", "Q3 2026"), ("DATE", "FY 2025/26"), ("DATE", "H1-26"),
      ("DATE", "2026-03-04")], ["2026-03-04"]),
    # an address's scheme (the url-credentials record); a name before a colon stays
    ("DATABASE_URL=postgres://db.example.com/payments; Kendra: see https://x.example.com",
     [("COMPANY", "postgres"), ("PERSON", "Kendra")], ["Kendra"]),
    # a reference's pieces (the reference-dates record, `_reference_piece`); a month's
    # code, a date alone and an account's number in a code stay
    ("Our ref: KYC/2026/0093, due MAR-2024 or 2026/03/04 from ACCT-88213",
     [("DATE", "2026"), ("DATE", "0093"), ("DATE", "2024"), ("DATE", "2026/03/04"),
      ("ACCOUNT", "88213")],
     ["2024", "2026/03/04", "88213"]),
    # a credential read as a firm after a name (`_without_credentials`); the firm stays
    ("Liang Qiu, CFP®\nSenior Wealth Advisor | Meridian Wealth Partners",
     [("PERSON", "Liang Qiu"), ("COMPANY", "CFP"), ("COMPANY", "Meridian Wealth Partners")],
     ["Liang Qiu", "Meridian Wealth Partners"]),
    # a degree's letters, a degree and its field (the degrees record, `_degree`); a name
    # with initials that spell one stays, and so does a holder before an account's type
    # (`_without_credentials`)
    ("She holds an M.B.A. from Wharton; B.S. Finance, University of Illinois; a Ph.D. "
     "J.D. Vance spoke. Account: Ishaan Mehta IRA, and SEP IRA",
     [("PERSON", "B.A."), ("COMPANY", "B.S. Finance"), ("PERSON", "Ph.D"),
      ("PERSON", "J.D. Vance"), ("PERSON", "Ishaan Mehta IRA"), ("PERSON", "SEP IRA")],
     ["J.D. Vance", "Ishaan Mehta"]),
    # a dentist's, a vet's, a nurse's and an accountant's dotted letters, read alone or
    # with the name (the dotted-credentials record); the names stay
    ("Wei-Lin Huang, D.D.S., and Jo Park, D.M.D., met Robert Kim, C.P.A.\nDr. Sarah Mills, "
     "D.V.M., and Maria Santos, R.N., assisted. Ann Lee, Pharm.D. spoke.",
     [("PERSON", "Wei-Lin Huang"), ("PERSON", "D.D.S."), ("PERSON", "Jo Park"), ("PERSON", "D.M.D"),
      ("PERSON", "Robert Kim"), ("PERSON", "C.P.A"), ("PERSON", "Sarah Mills"),
      ("PERSON", "D.V.M."), ("PERSON", "Maria Santos"), ("PERSON", "R.N."),
      ("PERSON", "Ann Lee, Pharm.D")],
     ["Wei-Lin Huang", "Jo Park", "Robert Kim", "Sarah Mills", "Maria Santos", "Ann Lee"]),
    # a degree's Latin honour, whole or a piece, and a class's valedictorian (the
    # latin-honours record); "Magna", "Cum" and a name without "cum laude" after them stay
    ("Summa cum laude: Ann Lee\nBBA, Magna Cum Laude (2016)\nValedictorian, Lincoln High\n"
     "She graduated summa cum laude. Magna reported. Laude Smith and Cum Li spoke. Ask Cum.",
     [("PERSON", "Summa"), ("PERSON", "Ann Lee"), ("PERSON", "Cum"), ("PERSON", "Valedictorian"),
      ("PERSON", "summa cum"), ("COMPANY", "Magna", 1), ("PERSON", "Laude Smith"),
      ("PERSON", "Cum Li"), ("PERSON", "Cum", 2)],
     ["Ann Lee", "Magna", "Laude Smith", "Cum Li", "Cum"]),
    # an account's type after a firm, and the UK's and Canada's types after a name (the
    # account-types record); a firm with no type after it, or a type inside it, stays
    ("Account: Hargreaves Lansdown SIPP - 7731 2290. Questrade TFSA Holdings Inc. and AJ "
     "Bell ISA; Ruth Ng RRSP; Wealthsimple TFSA.",
     [("COMPANY", "Hargreaves Lansdown SIPP"), ("COMPANY", "Questrade TFSA Holdings Inc."),
      ("COMPANY", "AJ Bell ISA"), ("PERSON", "Ruth Ng RRSP"), ("COMPANY", "Wealthsimple TFSA")],
     ["Hargreaves Lansdown", "Questrade TFSA Holdings Inc.", "AJ Bell", "Ruth Ng",
      "Wealthsimple"]),
    # a security's identifier after its keyword (the security-ids record, `_security_id`),
    # whatever read it; a number of the same shape without the keyword stays
    ("Notes (CUSIP No. 037833DX5; ISIN US037833DX52), CUSIP 922908710, LEI: "
     "549300DTUYXVMJXZNY75, SEDOL 2046251; account 922908711",
     [("GOV_ID", "037833DX5"), ("GOV_ID", "US037833DX52"), ("BANK", "922908710"),
      ("ACCOUNT", "549300DTUYXVMJXZNY75"), ("PHONE", "2046251"), ("ACCOUNT", "922908711")],
     ["922908711"]),
    # the Latin of contracts and courts (the legal-latin record, `_legal_latin`), in any
    # case; a name beside a term stays
    ("The Notes rank Pari Passu; Force Majeure applies; no Ultra Vires claim; an AMICUS "
     "CURIAE brief; Inter Alia, Julia Passu signed.",
     [("PERSON", "Pari Passu"), ("PERSON", "Majeure"), ("PERSON", "Vires"),
      ("COMPANY", "AMICUS"), ("COMPANY", "Inter Alia"), ("PERSON", "Julia Passu")],
     ["Julia Passu"]),
    # and the old English of a preamble (the contract-old-english record)
    ("WITNESSETH: WHEREAS, the Issuer agrees; Hereinafter, Whitney Hereford signed.",
     [("PERSON", "WITNESSETH"), ("COMPANY", "WHEREAS"), ("PERSON", "Hereinafter"),
      ("PERSON", "Whitney Hereford")], ["Whitney Hereford"]),
    # a team's or a project's name (the calls-teams-patients record, `TEAM_NAME`); a
    # team's member named after it stays
    ("Congrats to Team Falcon and Project Atlas: Mireille Okafor, Team Lead Tanvir.",
     [("PERSON", "Falcon"), ("PERSON", "Atlas"), ("PERSON", "Mireille Okafor"),
      ("PERSON", "Tanvir")], ["Mireille Okafor", "Tanvir"]),
    # a nostro account's word (`CONTRACT_TERMS`) and chat's abbreviation after a name
    # (`CHAT_WORDS`; the nostro-and-chat record); "Ty", a given name, stays
    ("Subject: Nostro reconciliation, asking for my friend Dmitri lol, ask Ty",
     [("PERSON", "Nostro"), ("PERSON", "Dmitri lol"), ("PERSON", "Ty")], ["Dmitri", "Ty"]),
    # a letter's salutation and title alone (the foreign-letters record, `_salutation`);
    # "Doña" left outside the name after it
    ("Prezado Sr. Ferreira, e Doña Pilar Echeverría. Sehr geehrter Herr,",
     [("PERSON", "Prezado Sr."), ("PERSON", "Ferreira"), ("PERSON", "Doña Pilar Echeverría"),
      ("PERSON", "Sehr geehrter Herr")], ["Ferreira", "Pilar Echeverría"]),
    # a parcel's tracking number after its keyword (the recipients-and-shipments record,
    # `_tracking`); an account's number stays
    ("Tracking: 1Z999AA10123456784, tracking number 9400111899223, AWB 176-12345675; "
     "account 5561009321",
     [("BANK", "1Z999AA10123456784"), ("ACCOUNT", "9400111899223"), ("PHONE", "176-12345675"),
      ("ACCOUNT", "5561009321")], ["5561009321"]),
    # a city and its state (the city-and-state record, `_place`): the state after a
    # city, the city before its state, both in one span, a city whose first word is a
    # place's; a city that is also a name, a name before a state, a state with a word
    # after it and a word in capitals that is no state's code stay
    ("Eleanor Whitfield\nSarasota, Fla.\nCarla Ruiz of Tempe, Ariz., and Macon, GA; "
     "FORT WAYNE, Ind. -- Austin, Texas; Mary Ortiz, Texas; Ahn, Florida's senator; "
     "Oyelaran, Texas lawmaker; thanks Chidubem, OK.",
     [("PERSON", "Eleanor Whitfield"), ("PERSON", "Sarasota, Fla"), ("PERSON", "Carla Ruiz"),
      ("PERSON", "Ariz"), ("PERSON", "Macon"), ("COMPANY", "GA"), ("PERSON", "FORT WAYNE"),
      ("PERSON", "Austin"), ("PERSON", "Mary Ortiz"), ("PERSON", "Ahn"), ("PERSON", "Oyelaran"),
      ("PERSON", "Chidubem")],
     ["Eleanor Whitfield", "Carla Ruiz", "Austin", "Mary Ortiz", "Ahn", "Oyelaran", "Chidubem"]),
    # a city that is also a name before its state and a date or a ZIP code (the
    # dated-places record, `_place`); a name of two words so, or a city without them, stays
    ("Katherine M. Oyelaran, Corporate Secretary.\nHouston, Texas, March 20, 2026. "
     "Tyler, Texas 75701. Austin, Texas\nMarch 2026. Jackson, Miss., Mar. 3, 2026. Mary "
     "Ortiz, Texas, March 20, 2026; Dallas, Texas, said 20 were hurt.",
     [("PERSON", "Katherine M. Oyelaran"), ("PERSON", "Houston"), ("PERSON", "Tyler"),
      ("PERSON", "Austin"), ("PERSON", "Jackson"), ("PERSON", "Mary Ortiz"),
      ("PERSON", "Dallas")],
     ["Katherine M. Oyelaran", "Mary Ortiz", "Dallas"]),
    # a city before its state read as a firm (the firm-places record, `_place`), whatever
    # its word, and with its state in the firm's span (the firm-datelines record); a firm
    # of two words, with the state or not, and one without a state after it, stay
    ("Senior Credit Analyst - Charlotte, NC. Halvorsen Industrial, NC; Charlotte paid.\n"
     "NEWARK, N.J. - Halvorsen Industrial, N.J. said so.",
     [("COMPANY", "Charlotte"), ("COMPANY", "Halvorsen Industrial"), ("COMPANY", "Charlotte", 1),
      ("COMPANY", "NEWARK, N.J."), ("COMPANY", "Halvorsen Industrial, N.J.")],
     ["Halvorsen Industrial", "Charlotte", "Halvorsen Industrial, N.J."]),
    # a numbered record's word before its number (the numbered-records record,
    # `_numbered`); a name before a number, and a word before a number without "No.",
    # stay
    ("Docket No. 142 - MOTION by Ann Lee. Claim #4471 paid; Jordan No. 23 scored; "
     "Docket 143 - ORDER; Docket No. is blank.",
     [("PERSON", "Docket"), ("PERSON", "Ann Lee"), ("PERSON", "Claim"), ("PERSON", "Jordan"),
      ("PERSON", "Docket", 1), ("PERSON", "Docket", 2)],
     ["Ann Lee", "Jordan", "Docket", "Docket"]),
    # a thing's word and its Roman numeral (the numbered-things record, `_numbered`); a
    # name's suffix, a one-letter numeral, a word after a name and a rare word (a surname
    # Faker lacks) stay
    ("RE: capital call - Fund III; Phase II and Tier II ratios; Title VII, Chapter XI; "
     "Henry VIII; Walter Dunmore III; Fund V; Harbor Fund IV; Jordan Fund IV; Thibodeaux III.",
     [("PERSON", v) for v in ("Fund III", "Phase II", "Tier II", "Title VII", "Chapter XI",
                              "Henry VIII", "Walter Dunmore III", "Fund V", "Harbor Fund IV",
                              "Jordan Fund IV", "Thibodeaux III")],
     ["Henry VIII", "Walter Dunmore III", "Fund V", "Jordan Fund IV", "Thibodeaux III"]),
    # a job's title read as a firm (the job-titles record, `patterns.job_title`), alone
    # or after a name's comma, whose surname then joins the name; a firm named with a
    # job's word stays
    ("Tomasz Wieczorek, President and CEO | Rafael Ibarra Soto, EVP, Operations | Chief "
     "Financial Officer | Principal Financial paid",
     [("PERSON", "Tomasz Wieczorek"), ("COMPANY", "President and CEO"),
      ("PERSON", "Rafael Ibarra"), ("COMPANY", "Soto, EVP, Operations"),
      ("COMPANY", "Chief Financial Officer"), ("COMPANY", "Principal Financial")],
     ["Tomasz Wieczorek", "Rafael Ibarra Soto", "Principal Financial"]),
    # a form's field label in another language before its colon (the form-labels-abroad
    # record, `_form_label`), with its lower-case words; a name that is a label's word
    # without a colon after it, and the values, stay
    # (and Portugal's, the portugal-forms record: "Morada")
    ("Nachname: Havemann\nKontoinhaber: Jürgen Havemann\nNé le : 03/07/1985\n"
     "Titular de la cuenta: Lucía\nNome Marco Rossi paid. Morada: Rua Augusta",
     [("PERSON", "Nachname"), ("PERSON", "Havemann"), ("PERSON", "Kontoinhaber"),
      ("PERSON", "Jürgen Havemann"), ("PERSON", "Né le"), ("PERSON", "Titular"),
      ("PERSON", "Lucía"), ("PERSON", "Nome Marco Rossi"), ("PERSON", "Morada")],
     ["Havemann", "Jürgen Havemann", "Lucía", "Nome Marco Rossi"]),
    # (and the labels heading a customer's record in Dutch, Polish, Swedish, Finnish and
    # Turkish, the customer-labels record)
    # a word of a term a contract defines, in its quotes (the defined-terms record,
    # `_defined_term`), after what it names or before "means"; a short name made of the
    # words of the name before it, a quoted name, a call's argument, another group's value,
    # and the names defined, stay
    ('Ocean Harvest Partners LLC (the "Stalking Horse Bidder") buys; Deborah Lindgren (the '
     '"Executive"); Acme (in such capacity, the "Calculation Agent"); "Permitted Liens" '
     'means Liens; Brightline Analytics, Inc. ("Brightline"); she said "Maria Lopez called"; '
     'get_customer("Ann Lee") and get("cus_9Hk2LmP"); Jane Roe (email "jroe@acme.com")',
     [("COMPANY", "Ocean Harvest Partners LLC"), ("COMPANY", "Bidder"),
      ("PERSON", "Deborah Lindgren"), ("PERSON", "Executive"), ("COMPANY", "Acme"),
      ("COMPANY", "Calculation Agent"), ("COMPANY", "Permitted Liens"),
      ("COMPANY", "Brightline Analytics, Inc."), ("COMPANY", "Brightline", 1),
      ("PERSON", "Maria Lopez"), ("PERSON", "Ann Lee"), ("ACCOUNT", "cus_9Hk2LmP"),
      ("PERSON", "Jane Roe"), ("EMAIL", "jroe@acme.com")],
     ["Ocean Harvest Partners LLC", "Deborah Lindgren", "Acme", "Brightline Analytics, Inc.",
      "Brightline", "Maria Lopez", "Ann Lee", "cus_9Hk2LmP", "Jane Roe", "jroe@acme.com"]),
    # (and a contract's notice lines and an Italian invoice's labels, the notice-labels
    # record, read as firms too; a firm whose word is a label's, without a colon, stays)
    ("Facsimile: (215) 555-0190\nTelecopy: 555-0191\nCedente: Studio Rossi S.r.l.\n"
     "Pagamento: bonifico. Fax Express Ltd paid.",
     [("COMPANY", "Facsimile"), ("PERSON", "Telecopy"), ("COMPANY", "Cedente"),
      ("COMPANY", "Studio Rossi S.r.l."), ("PERSON", "Pagamento"), ("COMPANY", "Fax Express Ltd")],
     ["Studio Rossi S.r.l.", "Fax Express Ltd"]),
    # (and a company registry's officer's label, the correspondence-labels record)
    ("WHITCOMBE, Eleanor Jane\nCorrespondence address: 10 Fleet Place\nRole: Director",
     [("PERSON", "WHITCOMBE, Eleanor Jane"), ("PERSON", "Correspondence"),
      ("ADDRESS", "10 Fleet Place")],
     ["WHITCOMBE, Eleanor Jane", "10 Fleet Place"]),
    # (and a month's abbreviation read as a name, the month-abbreviations record, with
    # words in lower case after it too; "Jan", a given name, and "Nov Smith" stay)
    ("note: Nov bill - Olga. DEC rent paid, Oct. rent due. Ask Jan. Nov Smith paid.",
     [("PERSON", "Nov bill"), ("PERSON", "Olga"), ("PERSON", "DEC"), ("PERSON", "Oct."),
      ("PERSON", "Jan"), ("PERSON", "Nov Smith")],
     ["Olga", "Jan", "Nov Smith"]),
    # (and a mail's copy lines, the copy-line-labels record; a "Cc" with no colon after it
    # stays)
    ("Cc: de la Cruz, José Antonio\nCc Wong paid.",
     [("PERSON", "Cc"), ("PERSON", "de la Cruz"), ("PERSON", "Cc Wong")],
     ["de la Cruz", "Cc Wong"]),
    ("To: Ana Ruiz\nBcc: Li Wei", [("PERSON", "Ana Ruiz"), ("PERSON", "Bcc"), ("PERSON", "Li Wei")],
     ["Ana Ruiz", "Li Wei"]),
    # (and a filing cover's words, the filing-covers record: "STATES" of the line "UNITED
    # STATES", the regulator in capitals, "Mark One" in its brackets, "I.R.S." in its
    # field's label and a lower-case "Commission file number"'s number; the registrant,
    # its IRS number, a Mark One outside brackets, "States Capital LLC" and "Jane States"
    # on a line of her own stay)
    ("UNITED STATES\nSECURITIES AND EXCHANGE COMMISSION\n(Mark One)\n"
     "Commission file number 001-40123\nBLUE HERON THERAPEUTICS, INC.\n"
     "84-3345120 (I.R.S. Employer Identification No.)\n"
     "Signed by Mark One for States Capital LLC.\nJane States\n",
     [("COMPANY", "STATES"), ("COMPANY", "SECURITIES AND EXCHANGE COMMISSION"),
      ("PERSON", "Mark One"), ("PHONE", "001-40123"),
      ("COMPANY", "BLUE HERON THERAPEUTICS, INC."), ("GOV_ID", "84-3345120"),
      ("COMPANY", "I.R.S."), ("PERSON", "Mark One", 1), ("COMPANY", "States Capital LLC"),
      ("PERSON", "Jane States")],
     ["BLUE HERON THERAPEUTICS, INC.", "84-3345120", "Mark One", "States Capital LLC",
      "Jane States"]),
    # (and a city and its state's two letters without a comma, read as a firm, the
    # city-state-codes record: "Charlotte NC", "Plano TX", "Fort Mill SC", "Kansas City
    # MO"; before a ZIP code, two words that are no place, a person, and a firm with a
    # legal form that is a state's code too ("Engberg AB": Sweden's, and Alberta's), stay)
    ("Relationship Banker, Charlotte NC. Plano TX; Fort Mill SC. Ship to Reno NV 89501. "
     "Harbor Lane NC wrote. Ask Lisa NC. Kansas City MO office. Paid Engberg AB.",
     [("COMPANY", "Charlotte NC"), ("COMPANY", "Plano TX"), ("COMPANY", "Fort Mill SC"),
      ("COMPANY", "Reno NV"), ("COMPANY", "Harbor Lane NC"), ("PERSON", "Lisa NC"),
      ("COMPANY", "Kansas City MO"), ("COMPANY", "Engberg AB")],
     ["Reno NV", "Harbor Lane NC", "Lisa NC", "Engberg AB"]),
    # (and a piece of a body's name written in full, the government-body-pieces record:
    # "Exchange" of "The Securities and Exchange Commission", "Ombudsman Service" of the
    # UK's ombudsman; a firm named with a body's word and a body's word alone stay)
    ("The Securities and Exchange Commission sued. Dear Financial Ombudsman Service, "
     "Exchange Partners LLC and Federal Trade wrote.",
     [("COMPANY", "Exchange"), ("COMPANY", "Ombudsman Service"),
      ("COMPANY", "Exchange Partners LLC"), ("COMPANY", "Federal Trade")],
     ["Exchange Partners LLC", "Federal Trade"]),
    # (and a notice's means alone or with its number's word, and a citation's abbreviated
    # words, the contract-abbreviations record; a firm named after a means and a person
    # whose name starts as a citation's word stay)
    ("Sent by telecopy to Kestrel (Telecopy No. (303) 555-0199) and Fifth Third (Telecopy No. "
     "(513)); see Pub. L. 107-56 and Fed. R. Civ. P. 23. Fax Express Ltd paid Fed Pubman.",
     [("PERSON", "telecopy"), ("COMPANY", "Telecopy"), ("ADDRESS", "Telecopy No", 1),
      ("COMPANY", "Pub"), ("COMPANY", "Fed"), ("COMPANY", "Fax Express Ltd"),
      ("PERSON", "Fed Pubman")],
     ["Fax Express Ltd", "Fed Pubman"]),
    # (and a case's and a statute's citation, the case-citations record: a reporter's page
    # and year read as a phone, a code's letters, a section after its sign; the same
    # section after "Section", phones, and a phone read with a year after it but no
    # bracket's end, stay; a court before a day's date is the merge's, since the
    # circuit-dates record)
    ("See 84 F. 4th 312 (2023); 15 U.S.C. § 78u-4(b); "
     "Section 78u-4 of Title 15; call (212) 555-0100 (or 555-0199); 555-0142 (2024 rates).",
     [("PHONE", "4th 312 (2023"), ("COMPANY", "U.S.C"),
      ("GOV_ID", "78u-4"), ("GOV_ID", "78u-4", 1), ("PHONE", "(212) 555-0100"),
      ("PHONE", "555-0199"), ("PHONE", "555-0142 (2024")],
     ["78u-4", "(212) 555-0100", "555-0199", "555-0142 (2024"]),
    ("Klient: Jan Nowak\nKund: Anna Lind\nMüşteri: Ayşe Yılmaz\nAsiakas: Matti Virtanen\n"
     "Klant: Sanne de Vries",
     [("PERSON", "Klient"), ("PERSON", "Jan Nowak"), ("PERSON", "Kund"), ("PERSON", "Anna Lind"),
      ("PERSON", "Müşteri"), ("PERSON", "Ayşe Yılmaz"), ("PERSON", "Asiakas"),
      ("PERSON", "Matti Virtanen"), ("PERSON", "Klant"), ("PERSON", "Sanne de Vries")],
     ["Jan Nowak", "Anna Lind", "Ayşe Yılmaz", "Matti Virtanen", "Sanne de Vries"]),
    # a party's role (the party-roles record, `_party_role`), plural, possessive and
    # joined; a name beside a role, and a name that is a joining word, stay
    ("MARCUS T. DELGADO, Defendant-Appellee. Movant's motion; the Plaintiffs; the "
     "Debtor-in-Possession; Marcus Defendant spoke to Cross.",
     [("PERSON", "MARCUS T. DELGADO"), ("PERSON", "Defendant-Appellee"), ("COMPANY", "Movant's"),
      ("PERSON", "Plaintiffs"), ("COMPANY", "Debtor-in-Possession"), ("PERSON", "Marcus Defendant"),
      ("PERSON", "Cross")],
     ["MARCUS T. DELGADO", "Marcus Defendant", "Cross"]),
    # the parties of trade, finance and escrows (the contract-parties record), with the
    # words that make a role with one ("Escrow Agent"); such a word alone stays
    ("Consignor retains title; Escrow Agent and Paying Agent; the Escrow Holder; an Escrow "
     "fee; Mary Holder; ask Holder.",
     [("PERSON", "Consignor"), ("COMPANY", "Escrow Agent"), ("COMPANY", "Escrow Holder"),
      ("COMPANY", "Escrow", 2), ("PERSON", "Mary Holder"), ("PERSON", "Holder", 2)],
     ["Mary Holder", "Holder"]),
    # the banks of a wire's instructions (the wire-parties record); the banks named stay
    ("Beneficiary Bank: Bank of America, N.A.\nIntermediary Bank (for foreign wires): "
     "Citibank N.A.; Correspondent Bank: Banco Itaú; Remitter: Ana Souza",
     [("COMPANY", "Beneficiary Bank"), ("COMPANY", "Bank of America, N.A."),
      ("COMPANY", "Intermediary Bank"), ("COMPANY", "Citibank N.A."),
      ("COMPANY", "Correspondent Bank"), ("COMPANY", "Banco Itaú"), ("PERSON", "Remitter"),
      ("PERSON", "Ana Souza")],
     ["Bank of America, N.A.", "Citibank N.A.", "Banco Itaú", "Ana Souza"]),
    # the parties of insurance, cards and securities (the policy-roles record) and of a
    # sale (the plural-parties record); a name beside one stays
    ("The Insured shall notify the Insurer; Cardholder agrees; the Stockholders' rights; "
     "Marcus Reyes, the Policyholder. Sellers agree with Peter Sellers.",
     [("PERSON", "Insured"), ("COMPANY", "Insurer"), ("PERSON", "Cardholder"),
      ("COMPANY", "Stockholders'"), ("PERSON", "Marcus Reyes"), ("PERSON", "Policyholder"),
      ("PERSON", "Sellers"), ("PERSON", "Peter Sellers")],
     ["Marcus Reyes", "Peter Sellers"]),
    # a firm's department alone, in a signature (the department-words record); a name
    # with a department's word in it stays
    ("Sabine Krause, Kundenservice, Rheinland Direktbank AG. Customer Service | Acme; "
     "Mary Treasury called.",
     [("PERSON", "Sabine Krause"), ("PERSON", "Kundenservice"),
      ("COMPANY", "Rheinland Direktbank AG"), ("COMPANY", "Customer Service"),
      ("PERSON", "Mary Treasury")],
     ["Sabine Krause", "Rheinland Direktbank AG", "Mary Treasury"]),
    # a pronoun alone (the pronouns record)
    ("Both directors (Tomasz Wójcik and myself) signed; ask us.",
     [("PERSON", "Tomasz Wójcik"), ("PERSON", "myself"), ("PERSON", "us")],
     ["Tomasz Wójcik"]),
    # a deed's notary alone, and before a name (the notary-words record)
    ("Attest: Notary Public, State of Delaware. Sworn before Notary Adaeze Obi and Notary "
     "Public Lourdes Ibarra.",
     [("COMPANY", "Notary"), ("PERSON", "Notary Adaeze Obi"), ("PERSON", "Notary Public Lourdes Ibarra")],
     ["Adaeze Obi", "Lourdes Ibarra"]),
    # a person's home town after their name and "of", perhaps their age between (the
    # home-towns record, `_home_town`); a surname that is a city's, and a town after no
    # person's name, stay
    ("Dr. and Mrs. Obinna Eze of Enugu; Margaret Hale, 84, of Nairobi; the estate of "
     "John Smith of Houston; the Bank of Enugu.",
     [("PERSON", "Obinna Eze"), ("PERSON", "Enugu"), ("PERSON", "Margaret Hale"),
      ("PERSON", "Nairobi"), ("PERSON", "John Smith"), ("PERSON", "Houston"),
      ("PERSON", "Enugu", 1)],
     ["Obinna Eze", "Margaret Hale", "John Smith", "Houston", "Enugu"]),
    # (and any town after a person's age, the aged-home-towns record, whatever the name
    # before; a firm after the age, and a name after an age without "of", stay)
    ('Anthony "Tony" Maravelli, 46, of Paramus; Carlos Ibarra Jr., 41, of Hialeah, and '
     "Ruth Kagwe, 52, of Kisumu Water Ltd; the victims Ama Boateng, 38, Kofi Mensah, 40.",
     [("PERSON", 'Anthony "Tony" Maravelli'), ("PERSON", "Paramus"),
      ("PERSON", "Carlos Ibarra Jr."), ("PERSON", "Hialeah"), ("PERSON", "Ruth Kagwe"),
      ("COMPANY", "Kisumu Water Ltd"), ("PERSON", "Ama Boateng"), ("PERSON", "Kofi Mensah")],
     ['Anthony "Tony" Maravelli', "Carlos Ibarra Jr.", "Ruth Kagwe", "Kisumu Water Ltd",
      "Ama Boateng", "Kofi Mensah"]),
    # (and the offices of public money, the money-offices record: alone they are no one,
    # before a name no part of it)
    ("Former Deputy Comptroller, OCC. Comptroller Brad Lander wrote; Treasurer Fiona Ma "
     "agreed; Superintendent Adrienne Harris fined it; Registrar Chinwe Okoye signed.",
     [("PERSON", "Comptroller"), ("COMPANY", "OCC"), ("PERSON", "Comptroller Brad Lander"),
      ("PERSON", "Treasurer Fiona Ma"), ("PERSON", "Superintendent Adrienne Harris"),
      ("PERSON", "Registrar Chinwe Okoye")],
     ["OCC", "Brad Lander", "Fiona Ma", "Adrienne Harris", "Chinwe Okoye"]),
    # a place greeted (the greeted-places record, `_greeted_place`); a given name
    # several locales list, and a surname that is a city's outside a greeting, stay
    ("Hello Melbourne! Good morning, London. Thanks Sydney! Denver argued it.",
     [("PERSON", "Melbourne"), ("PERSON", "London"), ("PERSON", "Sydney"), ("PERSON", "Denver")],
     ["Sydney", "Denver"]),
    # a country or a city with what a place has after its possessive (the
    # civic-possessives record, `_civic`); a person's possessive, and a name that is no
    # place, stay
    ("Chad's president visited Niger; Sydney’s mayor spoke; Chad's mother called; "
     "Jordan's former king; Oyelaran's government job.",
     [("PERSON", "Chad"), ("PERSON", "Sydney"), ("PERSON", "Chad", 1), ("PERSON", "Jordan"),
      ("PERSON", "Oyelaran")],
     ["Chad", "Oyelaran"]),
    # a letter's salutation to no one and its sign-off's words (the german-salutations
    # record); the name after them stays
    ("Sehr geehrte Damen und Herren, Mit freundlichen Grüßen, Jürgen Havemann.\n"
     "Sehr geehrte Damen und Herren,",
     [("PERSON", "Sehr geehrte Damen"), ("PERSON", "Herren"), ("PERSON", "Grüßen"),
      ("PERSON", "Jürgen Havemann"), ("PERSON", "Sehr geehrte Damen und Herren", 1)],
     ["Jürgen Havemann"]),
    # ... read as firms too (the german-sign-offs record); the firm under them stays
    ("Mit freundlichen Grüßen\nComdirect Bank AG\nHallo Team,\nMed vänlig hälsning",
     [("COMPANY", "Grüßen"), ("COMPANY", "Comdirect Bank AG"), ("COMPANY", "Hallo"),
      ("COMPANY", "Med vänlig")],
     ["Comdirect Bank AG"]),
    # a greeting alone (the introductions record); "Ola", a given name too, stays
    ("Olá, my card was charged twice. Hola! Bonjour, Ola here.",
     [("PERSON", "Olá"), ("PERSON", "Hola"), ("PERSON", "Bonjour"), ("PERSON", "Ola")],
     ["Ola"]),
    # a reply alone, with its full stop or comma (the reply-words record); "Noa" stays
    ("Witness: No. Emeka never said. A: Yes, OK. Noa did.",
     [("PERSON", "No."), ("PERSON", "Yes"), ("PERSON", "OK"), ("PERSON", "Noa")],
     ["Noa"]),
    # a setting's key first on its line before "=" and a value (the setting-keys record,
    # `_setting_key`); its value, a comparison's "==", a key inside a sentence, a secret
    # that ends in base64's "=" and a name before "=" stay
    ("AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\n  export API_TOKEN = tok_9f8e7d\n"
     "x_token == y_token\nThe key AWS_KEY=x9\nc2VjcmV0IHRva2Vu=\nMaria_Lopez=approved",
     [("DIGITAL", "AWS_ACCESS_KEY_ID"), ("DIGITAL", "AKIAIOSFODNN7EXAMPLE"),
      ("DIGITAL", "API_TOKEN"), ("DIGITAL", "tok_9f8e7d"), ("DIGITAL", "x_token"),
      ("DIGITAL", "AWS_KEY"), ("DIGITAL", "c2VjcmV0IHRva2Vu"), ("PERSON", "Maria_Lopez")],
     ["AKIAIOSFODNN7EXAMPLE", "tok_9f8e7d", "x_token", "AWS_KEY", "c2VjcmV0IHRva2Vu",
      "Maria_Lopez"]),
    # German's greetings by the time of day (the german-greetings record); the names
    # after them stay
    ("Guten Tag, mein Name ist Katharina Schäfer. Guten Morgen Herr Weber! Guten Abend. "
     "Guten Tag.",
     [("PERSON", "Guten"), ("PERSON", "Katharina Schäfer"), ("PERSON", "Guten Morgen"),
      ("PERSON", "Weber"), ("PERSON", "Guten Abend"), ("PERSON", "Guten Tag", 1)],
     ["Katharina Schäfer", "Weber"]),
    # a sign-off's words at a line's start (the nordic-sign-offs record); the name under
    # it, a surname that is a sign-off's word in running text and a name after "Thanks" stay
    ("Med vänlig hälsning / Kind regards\nHannah Lindqvist\nMet vriendelijke groet,\n"
     "Best scored twice.\nThanks Maria",
     [("PERSON", "Med"), ("PERSON", "Hannah Lindqvist"), ("PERSON", "Met vriendelijke"),
      ("PERSON", "Best"), ("PERSON", "Maria")],
     ["Hannah Lindqvist", "Best", "Maria"]),
    # a method's call read as a secret (the dotted-calls record); a user name with dots
    # and a password with a dot and a bracket stay
    ('user = User.objects.create(username="jdoe"); stripe.Customer.retrieve() for priya.k '
     "with Tr0ub.4(dor or Pa55(word",
     [("DIGITAL", "User.objects.create(username"), ("DIGITAL", "jdoe"),
      ("DIGITAL", "stripe.Customer.retrieve()"), ("DIGITAL", "priya.k"),
      ("DIGITAL", "Tr0ub.4(dor"), ("DIGITAL", "Pa55(word")],
     ["jdoe", "priya.k", "Tr0ub.4(dor", "Pa55(word"]),
    # English's function words in lower case (the function-word-names record), in a text
    # of one sentence; a name in lower case, and one capitalised, stay
    ("RESOLVED, that Claire Boucher, Secretary, be and each hereby is authorized; jake and "
     "Be Nguyen too.",
     [("PERSON", "Claire Boucher"), ("PERSON", "be"), ("PERSON", "jake"), ("PERSON", "and each"),
      ("PERSON", "Be Nguyen")],
     ["Claire Boucher", "jake", "Be Nguyen"]),
    # ... and a family's nouns in lower case (the kin-nouns record); "Son", a surname, stays
    ("Primary beneficiary: Diego Gutiérrez (son), 25%; Rosa Gutiérrez (spouse); Masayoshi Son",
     [("PERSON", "Diego Gutiérrez"), ("PERSON", "son"), ("PERSON", "Rosa Gutiérrez"),
      ("PERSON", "spouse"), ("PERSON", "Masayoshi Son")],
     ["Diego Gutiérrez", "Rosa Gutiérrez", "Masayoshi Son"]),
    # a German number's word (the accounts-abroad record); a name stays
    ("Kontonummer 1234567890, Inhaber Jürgen Nummer", [("PERSON", "Kontonummer"),
     ("PERSON", "Jürgen Nummer")], ["Jürgen Nummer"]),
    # a program and its version in a user agent, and a browser engine's name (the
    # product-versions record); a path's number stays
    ('ua="okhttp/4.12.0" "Mozilla/5.0 (KHTML, like Gecko)" GET accounts/4471',
     [("DIGITAL", "okhttp/4.12.0"), ("PERSON", "Gecko"), ("DIGITAL", "accounts/4471")],
     ["accounts/4471"]),
    # a web address's domain read as an email (the web-addresses record), whole too (the
    # web-domains record); an address and a user name read as one stay
    ("www.atwoodcpa.com | linkedin.com/in/gregatwood | g.atwood@atwoodcpa.com | reyes.flores | "
     "www.harborlightbank.com and wealthfront.com/reset, thx j.doe.smith",
     [("EMAIL", ".atwoodcpa.com"), ("EMAIL", ".com"), ("EMAIL", "g.atwood@atwoodcpa.com"),
      ("EMAIL", "reyes.flores"), ("EMAIL", "harborlightbank.com"), ("EMAIL", "wealthfront.com"),
      ("EMAIL", "j.doe.smith")],
     ["g.atwood@atwoodcpa.com", "reyes.flores", "j.doe.smith"]),
    # character encodings' names in a text about encodings (the encoding-names record);
    # a user name and a word that only starts like one ("utf-8x") stay
    ("UnicodeDecodeError: 'utf-8' codec can't decode; I tried encoding='latin-1', "
     "@ryan_t said cp1252, then ISO-8859-15 and windows-1252; utf-8x is no encoding",
     [("DIGITAL", "utf-8"), ("DIGITAL", "latin-1"), ("DIGITAL", "ryan_t"), ("ACCOUNT", "cp1252"),
      ("ACCOUNT", "ISO-8859-15"), ("ACCOUNT", "windows-1252"), ("DIGITAL", "utf-8x")],
     ["@ryan_t", "utf-8x"]),
    # ... not where the text says nothing of encodings: a policy's number stays
    ("Your policy CP1252 renews on 1 May.", [("ACCOUNT", "CP1252")], ["CP1252"]),
])
def test_public_tokens_read_as_personal_data_are_nobodys(text, spans, kept):
    """The public-tokens record's probes, with the model's spans as it gave them."""
    from bertforge.pii.tidy import tidy

    values = [(v, label, *nth) for label, v, *nth in spans]  # (label, value[, nth])
    assert [s.text for s in tidy(text, spans_at(text, values))] == kept


def test_every_courts_neutral_citation_is_nobodys():
    """The neutral-citations record: each court's code, read as a person inside its
    judgment's citation, is nobody's; the same code outside one stays."""
    from bertforge.pii.tidy import tidy

    courts = ["UKSC", "UKPC", "UKHL", "EWCA Civ", "EWCA Crim", "EWHC", "EWFC", "EWCOP", "UKUT",
              "UKFTT", "UKEAT", "CSOH", "CSIH", "HCJAC", "NICA", "NIQB", "NIKB", "IESC", "IECA",
              "IEHC", "HCA", "FCA", "FCAFC", "NSWSC", "NSWCA", "VSC", "VSCA", "QSC", "QCA",
              "WASC", "NZSC", "NZCA", "NZHC", "SGCA", "SGHC", "HKCFA", "HKCA", "HKCFI", "ZASCA",
              "ZACC"]
    canadian = ["SCC", "ONCA", "ONSC", "BCCA", "BCSC", "ABCA", "ABKB", "ABQB", "QCCA", "QCCS",
                "FC"]
    for court, text in ([(c, f"See [2020] {c} 1234 on costs.") for c in courts] +
                        [(c, f"In R. v. Jordan, 2016 {c} 27, it held.") for c in canadian]):
        assert tidy(text, spans_at(text, [(court, "PERSON")])) == [], court
    text = "Ask EWHC Mara about it."
    assert [s.text for s in tidy(text, spans_at(text, ["EWHC Mara"]))] == ["EWHC Mara"]


def test_the_events_a_filings_risk_factors_name_are_nobodys():
    """The risk-events record's probe, with the model's spans as it gave them: "Brexit"
    and "COVID" (of "COVID-19") read as firms, and a variant's name, go; the firms listed
    beside them stay."""
    from bertforge.pii.tidy import tidy

    text = ("Competition from Amazon, Walmart and regional grocers may reduce margins. Brexit, "
            "COVID-19 and the war in Ukraine created uncertainty; Omicron too.")
    values = [("Amazon, Walmart", "COMPANY"), ("Brexit", "COMPANY"), ("COVID", "COMPANY"),
              ("Omicron", "PERSON")]
    assert [s.text for s in tidy(text, spans_at(text, values))] == ["Amazon, Walmart"]


def test_a_markets_names_for_securities_and_crudes_are_nobodys():
    """The market-words record's probe, with the model's spans as it gave them:
    "Treasuries", "Bunds and Gilts" and "Munis" read as firms, and "Brent crude" read as a
    person, go; "Brent" the colleague, "MBS" and the firm "Fannie Mae" stay."""
    from bertforge.pii.tidy import tidy

    text = ("Brent crude rose while 10-year Treasuries yielded 4.12%; Bunds and Gilts rallied. "
            "Fannie Mae priced Munis and MBS. Brent mentioned you might want CDs.")
    values = ["Brent crude", ("Treasuries", "COMPANY"), ("Bunds and Gilts", "COMPANY"),
              ("Fannie Mae", "COMPANY"), ("Munis", "COMPANY"), ("MBS", "COMPANY"), "Brent"]
    assert [s.text for s in tidy(text, spans_in_turn(text, values))] == [
        "Fannie Mae", "MBS", "Brent"]


def test_a_regulators_filing_system_named_in_capitals_is_nobodys():
    """The filing-systems record's probe, with the model's spans as it gave them: "EDGAR"
    and "EMMA" read as persons, and "TRACE" as a firm, go in a line with lower-case
    letters; "Emma" the person and "EDGAR" in a line in capitals stay."""
    from bertforge.pii.tidy import tidy

    text = ("Look it up on the SEC's EDGAR; EMMA has the MSRB's copy and TRACE the prices. "
            "Emma Lindqvist filed it.\nPAYEE: EDGAR\nMemo: rent")
    values = ["EDGAR", "EMMA", ("TRACE", "COMPANY"), "Emma Lindqvist", "EDGAR"]
    assert [s.text for s in tidy(text, spans_in_turn(text, values))] == [
        "Emma Lindqvist", "EDGAR"]
    # a letter's "VIA EDGAR" heading, in capitals (the sent-via record's probe); a payee
    # in capitals still stays
    text = "December 2, 2026\n\nVIA EDGAR\n\nMs. Brigitte Oyelaran\nPAYEE: EDGAR\nBY EDGAR"
    values = ["EDGAR", "Brigitte Oyelaran", "EDGAR", "EDGAR"]
    assert [s.text for s in tidy(text, spans_in_turn(text, values))] == [
        "Brigitte Oyelaran", "EDGAR", "EDGAR"]


def test_a_british_honour_before_a_name_is_no_part_of_it():
    """The honours record's probe, with the model's spans as it gave them: "Dame",
    "Baroness", "Sir" and "Viscount" before a name are left out, as a courtesy title is;
    "Lady" and "Lord", a given name and a surname too, stay ("Lady Gaga")."""
    from bertforge.pii.tidy import tidy

    text = ("Chair Dame Alison Rose; Sir Anthony Feltham and Baroness Lane-Fox signed; "
            "Viscount Rothermere owns it. Lady Gaga sang; Lord Sugar declined.")
    values = ["Dame Alison Rose", "Sir Anthony Feltham", "Baroness Lane-Fox",
              "Viscount Rothermere", "Lady Gaga", "Lord Sugar"]
    assert [s.text for s in tidy(text, spans_at(text, values))] == [
        "Alison Rose", "Anthony Feltham", "Lane-Fox", "Rothermere", "Lady Gaga", "Lord Sugar"]


def test_a_name_widened_at_its_hyphen_to_a_listed_firm_is_a_firm():
    """The payment-apps record's probe, with the model's spans as it gave them: "Pesa"
    widened to "M-Pesa" is the listed firm; a double-barrelled surname widened stays a
    person."""
    from bertforge.pii.tidy import tidy

    text = "Hi, my M-Pesa number is on file; Fatima Al-Sayed called."
    found = tidy(text, spans_at(text, ["Pesa", "Fatima Al"]))
    assert [(s.text, s.label) for s in found] == [("M-Pesa", "COMPANY"),
                                                   ("Fatima Al-Sayed", "PERSON")]


def test_a_docket_numbers_office_and_year_are_no_time():
    from bertforge.pii.recognizers import DatesAndTimes

    text = "No. 3:24-cv-01187, filed at 3:24 pm"
    assert [text[m.start:m.end] for m in DatesAndTimes().find(text)] == ["3:24 pm"]


def test_a_filings_tables_a_name_alone_in_a_cell_is_a_person_and_an_amount_is_nobodys():
    """The filing-tables record's probe, with the model's spans as it gave them: a
    person's name alone in its cell, read as a firm, is a person (not a firm named after
    its founder, a firm's word, or a name in running text), and so is one before a
    comma and a house number (the recipients-and-shipments record; a double-barrelled
    name is a person anywhere, the double-barrelled record); the pieces of
    amounts the model read as an ID, a bank number and an address (the amount-addresses
    record) are nobody's, an account number and an address are not."""
    from bertforge.pii.tidy import tidy

    text = ("Name                   Salary ($)   Total ($)\n"
            "Kwame Asante-Boateng   1,150,000    8,412,550\n"
            "Lucia Ferraro            640,000    2,901,337\n"
            "| Sofia Mendoza-Rey | 312,009 |\n"
            "Raymond James          Edward Jones\n"
            "Marcus Capital\n"
            "Fees paid to Lucia Ferraro and account 640000.\n"
            "Shipped to Ngozi Eze, 14 Admiralty Way; Ralph Lauren, 650 Madison Avenue.\n"
            "Lakeshore Capital Management, L.P. (1) | 4,512,330 | 9.8%\n")
    placed = sorted(spans_at(text, [
        ("Kwame Asante-Boateng", "COMPANY"), "Lucia Ferraro", ("640", "GOV_ID"), ("901", "BANK"),
        ("Sofia Mendoza-Rey", "COMPANY"), ("Raymond James", "COMPANY"),
        ("Edward Jones", "COMPANY"), ("Marcus Capital", "COMPANY"),
        ("Lucia Ferraro", "COMPANY", 1), ("640000", "ACCOUNT"), ("Ngozi Eze", "COMPANY"),
        ("Ralph Lauren", "COMPANY"), ("4,512,330", "ADDRESS"), ("14 Admiralty Way", "ADDRESS")]),
        key=lambda s: s.start)
    assert [(s.label, s.text) for s in tidy(text, placed)] == [
        ("PERSON", "Kwame Asante-Boateng"), ("PERSON", "Lucia Ferraro"),
        ("PERSON", "Sofia Mendoza-Rey"), ("COMPANY", "Raymond James"),
        ("COMPANY", "Edward Jones"), ("COMPANY", "Marcus Capital"),
        ("COMPANY", "Lucia Ferraro"), ("ACCOUNT", "640000"), ("PERSON", "Ngozi Eze"),
        ("ADDRESS", "14 Admiralty Way"), ("COMPANY", "Ralph Lauren")]


def test_a_name_before_its_job_title_read_as_a_firm_is_a_person():
    """The named-before-titles record's probe, with the model's spans as it gave them: a
    person's name before a comma and a job's title, read as a firm (with the title or
    without it), is a person; a firm named after its founder, a firm's word, a name
    before a word that is no title, and a name whose first word is no given name stay
    firms. The rare-surnames-titled record's probe: before a title the surname may be
    any word outside the vocabulary ("Deborah Ashworth"), not one of it ("Grace
    Kitchens"), and without the title (a table's cell) only a known name will do."""
    from bertforge.pii.tidy import tidy

    text = ("Seller: Whitaker Family Trust, Leonard Whitaker, Trustee\n"
            "Signed: Ana Ruiz, EVP, Operations; Edward Jones, Financial Advisor; "
            "Marcus Capital, Managing Director; Leonard Whitaker, Boston; Quill Whitaker, "
            "President.\nReporting to Deborah Ashworth, SVP and Chief Credit Officer; "
            "Grace Kitchens, CFO.\nDeborah Ashworth\n")
    placed = spans_at(text, [
        ("Whitaker Family Trust", "COMPANY"), ("Leonard Whitaker, Trustee", "COMPANY"),
        ("Ana Ruiz", "COMPANY"), ("Edward Jones", "COMPANY"), ("Marcus Capital", "COMPANY"),
        ("Leonard Whitaker", "COMPANY", 1), ("Quill Whitaker", "COMPANY"),
        ("Deborah Ashworth, SVP", "COMPANY"), ("Grace Kitchens", "COMPANY"),
        ("Deborah Ashworth", "COMPANY", 1)])
    assert [(s.label, s.text) for s in tidy(text, placed)] == [
        ("COMPANY", "Whitaker Family Trust"), ("PERSON", "Leonard Whitaker"),
        ("PERSON", "Ana Ruiz"), ("COMPANY", "Edward Jones"), ("COMPANY", "Marcus Capital"),
        ("COMPANY", "Leonard Whitaker"), ("COMPANY", "Quill Whitaker"),
        ("PERSON", "Deborah Ashworth"), ("COMPANY", "Grace Kitchens"),
        ("COMPANY", "Deborah Ashworth")]


def test_a_word_or_a_keyword_before_a_number_is_no_part_of_it():
    """The number-leads record's probes, with the model's spans as it gave them: a
    French preposition and a number's keyword at the start of a number's span are left
    out ("au 01 42 68 55 00", "EIN 84-1234567", "tel: +44 20 7946 0958"); a number glued to
    its letters ("acct12345") and a bank code of letters ("SWIFT BOFAUS3N") stay whole."""
    from bertforge.pii.tidy import tidy

    text = ("Joignable au 01 42 68 55 00. W-9 lists EIN 84-1234567; tel: +44 20 7946 0958; "
            "ref acct12345; SWIFT BOFAUS3N.")
    values = [("au 01 42 68 55 00", "BANK"), ("EIN 84-1234567", "ACCOUNT"),
              ("tel: +44 20 7946 0958", "PHONE"), ("acct12345", "ACCOUNT"),
              ("SWIFT BOFAUS3N", "BANK")]
    assert [s.text for s in tidy(text, spans_at(text, values))] == [
        "01 42 68 55 00", "84-1234567", "+44 20 7946 0958", "acct12345", "SWIFT BOFAUS3N"]
    # and a bank's customer file's, a branch code's and a tax reference's keyword (the
    # scheme-keys record)
    text = "Customer Hollis (CIF 00448812); BSB 062-000; your UTR 12345 67890 is due."
    values = [("CIF 00448812", "ACCOUNT"), ("BSB 062-000", "BANK"), ("UTR 12345 67890", "GOV_ID")]
    assert [s.text for s in tidy(text, spans_at(text, values))] == [
        "00448812", "062-000", "12345 67890"]


def test_an_account_number_in_groups_is_whole():
    """The grouped-numbers record's probe, with the model's spans as it gave them: an
    account's number ended at its first group of four digits ("BSB / Account: 062-000 /
    [1234] 5678") is the whole number, over every group one space apart; not past an
    amount's decimals, a hyphenated code, nor for a group of other length than four at
    the span's end or a label that is no account's, bank's or card's."""
    from bertforge.pii.tidy import tidy

    text = ("BSB / Account: 062-000 / 1234 5678\nCard 4111 1111 1111 1111 exp\n"
            "Acct 5521 640.50 due; IBAN ending 0042 2026-B; ref 98765 4321; SSN 1234 5678")
    values = [("1234", "ACCOUNT"), ("4111 1111", "CARD"), ("5521", "ACCOUNT"),
              ("0042", "BANK"), ("98765", "ACCOUNT"), ("1234", "GOV_ID", 1)]
    assert [s.text for s in tidy(text, spans_at(text, values))] == [
        "1234 5678", "4111 1111 1111 1111", "5521", "0042", "98765", "1234"]


def test_a_tax_forms_name_is_nobodys():
    """The tax-forms record's probe, with the model's spans as it gave them: a tax form's
    name read as an ID number ("1040-X", "1099-INT", "W-8BEN-E", "K-1"), and a bare form
    number after "Form" or "IRS", are nobody's, and so is a retirement plan's section
    ("401(k)", the plan-sections record); the SSN beside them, a card's last four digits
    that are a form's number too, and a card's code before a spaced bracket, stay (a PIN
    of three digits would go whatever follows it: the three-digit-accounts record)."""
    from bertforge.pii.tidy import tidy

    text = ("Attached is the revised 1040-X and your 1099-INT, W-8BEN-E and K-1; Form 1040 "
            "and IRS 941 too. SSN 512-44-9017; card ending 1099; SS-4 filed. 401(k) 125.00, "
            "403(b) too; CVV 457 (k)")
    values = [("1040-X", "GOV_ID"), ("1099-INT", "GOV_ID"), ("W-8BEN-E", "GOV_ID"),
              ("K-1", "GOV_ID"), ("1040", "GOV_ID"), ("941", "GOV_ID"),
              ("512-44-9017", "GOV_ID"), ("1099", "CARD", 1), ("SS-4", "GOV_ID"),
              ("401", "GOV_ID"), ("403", "ACCOUNT"), ("457", "CARD")]
    assert [s.text for s in tidy(text, spans_at(text, values))] == [
        "512-44-9017", "1099", "457"]


def test_a_place_alone_in_a_tables_cell_is_nobodys():
    """The place-cells record's probe, with the model's spans as it gave them: the cities
    of a CSV's last column (spaces may pad a line), and of a "|" table's cell, are no
    one's names; a widely given name in a cell ("Sydney"), the names in the other cells
    and a city in running text stay (the "Dallas" of
    `test_public_tokens_read_as_personal_data_are_nobodys`, between "; " and ", ")."""
    from bertforge.pii.tidy import tidy

    text = ("name,phone,city\nAna Lucía Ferreira,+55 11 98765-4321,São Paulo\n"
            "Dmitri Volkov,+7 916 555-12-34,,Moscow  \nSydney,Berlin\n  Nairobi,Wanjiru\n"
            "| Chen Jie | Shenzhen | Lagos 2026 |\nI moved, to Lagos, then Moscow.")
    values = ["Ana Lucía Ferreira", "São Paulo", "Dmitri Volkov", "Moscow", "Sydney", "Berlin",
              "Nairobi", "Wanjiru", "Chen Jie", "Shenzhen", "Lagos", ("Lagos", "PERSON", 1),
              ("Moscow", "PERSON", 1)]
    assert [s.text for s in tidy(text, spans_at(text, values))] == [
        "Ana Lucía Ferreira", "Dmitri Volkov", "Sydney", "Wanjiru", "Chen Jie", "Lagos", "Lagos",
        "Moscow"]


def test_an_amount_written_as_europe_writes_it_is_no_place():
    """The european-amounts record's probe, with the model's spans as it gave them: the
    "18.240" of "18.240,55 EUR" read as a coordinate is money; a coordinate's degrees
    ("52.520" of "52.520, 13.405", and of a pair written without a space) stay."""
    from bertforge.pii.tidy import tidy

    text = "Das Guthaben von 18.240,55 EUR; Standort 52.520, 13.405 oder 48.858,22.294"
    values = [("18.240", "LOCATION"), ("52.520", "LOCATION"), ("48.858", "LOCATION")]
    assert [s.text for s in tidy(text, spans_at(text, values))] == ["52.520", "48.858"]


def test_an_amount_with_its_currencys_code_before_it_is_no_account():
    """The currency-amounts record's probe, with the model's spans as it gave them: "GBP
    12" of a wire's "GBP 12,400.00" and "$ 3" of "$ 3,000" are money; a number after a
    longer word ("IBAN 12,400" is no amount's code), a number that goes on past the
    amount and a number with no thousands stay."""
    from bertforge.pii.tidy import tidy

    text = ("Amount: GBP 12,400.00 and $ 3,000. Ref ACCOUNT 44,120 then EUR 12,345678 and "
            "USD 4471 paid.")
    values = [("GBP 12", "BANK"), ("$ 3", "ACCOUNT"), ("ACCOUNT 44", "BANK"),
              ("EUR 12,345678", "BANK"), ("USD 4471", "ACCOUNT")]
    assert [s.text for s in tidy(text, spans_at(text, values))] == [
        "ACCOUNT 44", "EUR 12,345678", "USD 4471"]


def test_a_post_office_boxs_letters_are_its_addresss_not_the_firms():
    """The po-box-letters record's probe, with the model's spans as it gave them: "Experian,
    P.O." and "Box 2002, Allen, TX 75013" are the firm and the whole box; a firm's "PO"
    with no box after it stays (before an address or a firm of another start), and so
    does a span far from the box."""
    from bertforge.pii.tidy import tidy

    text = ("Experian, P.O. Box 2002, Allen, TX 75013. Equifax PO\nBOX 740241, Atlanta, "
            "GA 30374. Acme PO 12 Main St. Initech PO\nBox Hill Capital. TransUnion, P. O.  "
            "Box 1000. Lakeview Farms\nBox 44, Nome")
    values = [("Experian, P.O.", "COMPANY"), ("Box 2002, Allen, TX 75013", "ADDRESS"),
              ("Equifax PO", "COMPANY"), ("BOX 740241, Atlanta, GA 30374", "ADDRESS"),
              ("Acme PO", "COMPANY"), ("12 Main St", "ADDRESS"), ("Initech PO", "COMPANY"),
              ("Box Hill Capital", "COMPANY"), ("TransUnion, P. O.", "COMPANY"),
              ("Box 1000", "ADDRESS"), ("Lakeview Farms", "COMPANY"), ("Box 44, Nome", "ADDRESS")]
    assert [(s.label, s.text) for s in tidy(text, spans_at(text, values))] == [
        ("COMPANY", "Experian"), ("ADDRESS", "P.O. Box 2002, Allen, TX 75013"),
        ("COMPANY", "Equifax"), ("ADDRESS", "PO\nBOX 740241, Atlanta, GA 30374"),
        ("COMPANY", "Acme PO"), ("ADDRESS", "12 Main St"), ("COMPANY", "Initech PO"),
        ("COMPANY", "Box Hill Capital"), ("COMPANY", "TransUnion, P. O."),
        ("ADDRESS", "Box 1000"), ("COMPANY", "Lakeview Farms"), ("ADDRESS", "Box 44, Nome")]


def test_a_post_office_boxs_words_at_a_firms_end_are_its_addresss():
    """The po-box-words record's probe, with the model's spans as it gave them: "Experian,
    P.O. Box" and "2002, Allen, TX 75013" are the firm and the whole box; a firm's box
    words with no address after are dropped from it all the same; an address after them
    that starts with no number, one two spaces away, a firm whose name ends in "Box"
    without the box's letters, and an address that ends in the box's words, stay as they
    were."""
    from bertforge.pii.tidy import tidy

    text = ("Experian, P.O. Box 2002, Allen, TX 75013. Equifax PO BOX\n740241. Acme Lock Box "
            "12 Main St. Initech PO Box  30 Elm St. Globex, P.O. Box Unit 4, Reno. Suite 9, PO Box")
    values = [("Experian, P.O. Box", "COMPANY"), ("2002, Allen, TX 75013", "ADDRESS"),
              ("Equifax PO BOX", "COMPANY"), ("Acme Lock Box", "COMPANY"),
              ("12 Main St", "ADDRESS"), ("Initech PO Box", "COMPANY"), ("30 Elm St", "ADDRESS"),
              ("Globex, P.O. Box", "COMPANY"), ("Unit 4, Reno", "ADDRESS"),
              ("Suite 9, PO Box", "ADDRESS")]
    assert [(s.label, s.text) for s in tidy(text, spans_at(text, values))] == [
        ("COMPANY", "Experian"), ("ADDRESS", "P.O. Box 2002, Allen, TX 75013"),
        ("COMPANY", "Equifax"), ("COMPANY", "Acme Lock Box"), ("ADDRESS", "12 Main St"),
        ("COMPANY", "Initech"), ("ADDRESS", "30 Elm St"), ("COMPANY", "Globex"),
        ("ADDRESS", "Unit 4, Reno"), ("ADDRESS", "Suite 9, PO Box")]


def test_a_surname_read_as_an_addresss_first_line_is_the_names():
    """The surname-lines record's probe, with the model's spans as they came: a letter's
    signature "María José" + "Fernández\nDepartamento ...\nCalle ..." is the whole name
    and an address from its second line; a name on a line of its own before the address,
    an address whose first line is a street or a street's word, and a firm before one,
    stay as they were."""
    from bertforge.pii.tidy import tidy

    text = ("Atentamente,\nMaría José Fernández\nDepartamento de Recobros\nCalle de Alcalá "
            "120, 28009 Madrid\n\nAna Ruiz\nCalle Mayor 5, Madrid\nJuan Gil Calle\nSol 2\n"
            "Banco Sol Oficina\nGran Vía 1")
    values = [("María José", "PERSON"),
              ("Fernández\nDepartamento de Recobros\nCalle de Alcalá 120, 28009 Madrid", "ADDRESS"),
              ("Ana Ruiz", "PERSON"), ("Calle Mayor 5, Madrid", "ADDRESS"), ("Juan Gil", "PERSON"),
              ("Calle\nSol 2", "ADDRESS"), ("Banco Sol", "COMPANY"),
              ("Oficina\nGran Vía 1", "ADDRESS")]
    assert [(s.label, s.text) for s in tidy(text, spans_at(text, values))] == [
        ("PERSON", "María José Fernández"),
        ("ADDRESS", "Departamento de Recobros\nCalle de Alcalá 120, 28009 Madrid"),
        ("PERSON", "Ana Ruiz"), ("ADDRESS", "Calle Mayor 5, Madrid"), ("PERSON", "Juan Gil"),
        ("ADDRESS", "Calle\nSol 2"), ("COMPANY", "Banco Sol"), ("ADDRESS", "Oficina\nGran Vía 1")]


def test_a_name_ends_before_a_registrations_mark():
    """The registrations record's probes, with the model's spans as they came: "SUSAN K
    MILLER JTWROS" ends before its mark; after "TTEE," the trust's surname is the firm
    the model read next; after "POA" a second owner is a name of their own, itself cut
    before its mark; a name in mixed case, and a mark's letters inside a word, stay."""
    from bertforge.pii.tidy import tidy

    text = ("JOHN R MILLER & SUSAN K MILLER JTWROS\nMARGARET A CHEN TTEE, CHEN FAMILY TRUST\n"
            "HENRY A LOCKWOOD POA SARAH LOCKWOOD JTWROS\nTod Smith POA; JANE TODD PODESTA")
    values = [("JOHN R MILLER", "PERSON"), ("SUSAN K MILLER JTWROS", "PERSON"),
              ("MARGARET A CHEN TTEE, CHEN", "PERSON"), ("FAMILY TRUST", "COMPANY"),
              ("HENRY A LOCKWOOD POA SARAH LOCKWOOD JTWROS", "PERSON"),
              ("Tod Smith POA", "PERSON"), ("JANE TODD PODESTA", "PERSON")]
    assert [(s.label, s.text) for s in tidy(text, spans_at(text, values))] == [
        ("PERSON", "JOHN R MILLER"), ("PERSON", "SUSAN K MILLER"), ("PERSON", "MARGARET A CHEN"),
        ("COMPANY", "CHEN FAMILY TRUST"), ("PERSON", "HENRY A LOCKWOOD"),
        ("PERSON", "SARAH LOCKWOOD"), ("PERSON", "Tod Smith POA"), ("PERSON", "JANE TODD PODESTA")]


def test_a_name_ends_before_an_estates_executors_or_administrators_mark():
    """The estate-marks record's probes, with the model's spans as they came: "MARGARET
    FINCH EXECUTRIX" and "ROBERT K LEE ADMR" end before the mark; a mark's letters
    inside a word ("EXECUTIVE") and a name in mixed case stay."""
    from bertforge.pii.tidy import tidy

    text = ("ESTATE OF HAROLD B. FINCH, DECEASED, MARGARET FINCH EXECUTRIX\n"
            "ROBERT K LEE ADMR EST OF HELEN LEE DECD\nJAMES T OKAFOR EXECUTOR\n"
            "ANNA BELL EXECUTIVE\nDan Hart Executor")
    values = ["HAROLD B. FINCH", "MARGARET FINCH EXECUTRIX", "ROBERT K LEE ADMR", "HELEN LEE",
              "JAMES T OKAFOR EXECUTOR", "ANNA BELL EXECUTIVE", "Dan Hart Executor"]
    assert [s.text for s in tidy(text, spans_in_turn(text, values))] == [
        "HAROLD B. FINCH", "MARGARET FINCH", "ROBERT K LEE", "HELEN LEE", "JAMES T OKAFOR",
        "ANNA BELL EXECUTIVE", "Dan Hart Executor"]


def test_a_firm_read_as_a_person_before_its_officers_role_and_name_is_a_firm():
    """The officers-firms record's probes, with the model's spans as they came: "Kakao"
    before "founder Kim Beom-su" and "PIF" before "governor Yasir Al-Rumayyan" are firms;
    a given name before a role ("Morgan"), a word before a role with no name after it or
    a firm after it, two words, and a word before a word that is no role, stay persons."""
    from bertforge.pii.tidy import tidy

    text = ("Kakao founder Kim Beom-su met PIF governor Yasir Al-Rumayyan; Morgan CEO Ann Lee; "
            "Quillon founder left; Vexley Quillon founder Ann Roe; Zentrix boss Tom Hale; "
            "Okafor chairman Zentrix Holdings.")
    values = [("Kakao", "PERSON"), ("Kim Beom-su", "PERSON"), ("PIF", "PERSON"),
              ("Yasir Al-Rumayyan", "PERSON"), ("Morgan", "PERSON"), ("Ann Lee", "PERSON"),
              ("Quillon", "PERSON"), ("Vexley Quillon", "PERSON"), ("Ann Roe", "PERSON"),
              ("Zentrix", "PERSON"), ("Tom Hale", "PERSON"), ("Okafor", "PERSON"),
              ("Zentrix Holdings", "COMPANY")]
    assert [s.label for s in tidy(text, spans_at(text, values))] == [
        "COMPANY", "PERSON", "COMPANY", "PERSON", "PERSON", "PERSON", "PERSON", "PERSON",
        "PERSON", "PERSON", "PERSON", "PERSON", "COMPANY"]


def test_a_name_read_as_an_address_before_its_street_is_a_person():
    """The named-addresses record's probe, with the model's spans as they came: "Patricia
    Nunez" read as an address before ", 3111 Camino del Rio N" is a person, and so is
    one a line before its street; a place ("Jackson Heights", "Peter Cooper Village":
    a word no one is called) and a name before no street's number stay addresses."""
    from bertforge.pii.tidy import tidy

    text = ("c/o Law Office of Patricia Nunez, 3111 Camino del Rio N, Suite 400\n"
            "Mary Hill Farm, Route 9\nPeter Cooper Village\n12 First Ave\n"
            "Jackson Heights, 37-12 81st St\nClara Jones\n2 Elm St\nAnna Berg, Storgatan 4")
    values = [("Patricia Nunez", "ADDRESS"), ("3111 Camino del Rio N, Suite 400", "ADDRESS"),
              ("Mary Hill Farm", "ADDRESS"), ("Route 9", "ADDRESS"),
              ("Peter Cooper Village", "ADDRESS"), ("12 First Ave", "ADDRESS"),
              ("Jackson Heights", "ADDRESS"), ("37-12 81st St", "ADDRESS"),
              ("Clara Jones", "ADDRESS"), ("2 Elm St", "ADDRESS"), ("Anna Berg", "ADDRESS"),
              ("Storgatan 4", "ADDRESS")]
    assert [(s.label, s.text) for s in tidy(text, spans_at(text, values))] == [
        ("PERSON", "Patricia Nunez"), ("ADDRESS", "3111 Camino del Rio N, Suite 400"),
        ("ADDRESS", "Mary Hill Farm"), ("ADDRESS", "Route 9"),
        ("ADDRESS", "Peter Cooper Village"), ("ADDRESS", "12 First Ave"),
        ("ADDRESS", "Jackson Heights"), ("ADDRESS", "37-12 81st St"),
        ("PERSON", "Clara Jones"), ("ADDRESS", "2 Elm St"), ("ADDRESS", "Anna Berg"),
        ("ADDRESS", "Storgatan 4")]
    # and one at the start of the address span, before a comma and the street's number
    # (the address-heads record: a car's sale contract), in lower case too; a dealer's,
    # a place's (even one of names: "Santo Domingo") and a flat's heads, and a given name
    # alone, stay in the address
    text = ("Buyer: Brianna L. Castillo, 802 Wren Hollow Dr, Round Rock, TX 78664\n"
            "Seller: Round Rock Toyota, 2400 N Interstate 35\nJackson Heights, 37-12 81st St\n"
            "Flat Jones, 4 Elm St\nsend it to anna berg, 4 elm st\nMary, 9 Oak St\n"
            "Santo Domingo, 12 Calle El Conde")
    values = [("Brianna L. Castillo, 802 Wren Hollow Dr, Round Rock, TX 78664", "ADDRESS"),
              ("Round Rock Toyota, 2400 N Interstate 35", "ADDRESS"),
              ("Jackson Heights, 37-12 81st St", "ADDRESS"), ("Flat Jones, 4 Elm St", "ADDRESS"),
              ("anna berg, 4 elm st", "ADDRESS"), ("Mary, 9 Oak St", "ADDRESS"),
              ("Santo Domingo, 12 Calle El Conde", "ADDRESS")]
    assert [(s.label, s.text) for s in tidy(text, spans_at(text, values))] == [
        ("PERSON", "Brianna L. Castillo"), ("ADDRESS", "802 Wren Hollow Dr, Round Rock, TX 78664"),
        ("ADDRESS", "Round Rock Toyota, 2400 N Interstate 35"),
        ("ADDRESS", "Jackson Heights, 37-12 81st St"), ("ADDRESS", "Flat Jones, 4 Elm St"),
        ("PERSON", "anna berg"), ("ADDRESS", "4 elm st"), ("ADDRESS", "Mary, 9 Oak St"),
        ("ADDRESS", "Santo Domingo, 12 Calle El Conde")]
    # and one on the address's first line, above a line with a number (the name-lines
    # record: a wire's beneficiary), a double-barrelled surname too; a building's name,
    # a street's, and a line that is no name stay in the address
    text = (":59:/DE44500700100175526303\nKLAUS ABERNATHY-VOGT\nSCHILLERSTRASSE 14\n"
            "Victoria House\n12 High St\nGrace Court\n4 Elm St\nAccounts Payable\n9 Oak St\n")
    values = [("KLAUS ABERNATHY-VOGT\nSCHILLERSTRASSE 14", "ADDRESS"),
              ("Victoria House\n12 High St", "ADDRESS"), ("Grace Court\n4 Elm St", "ADDRESS"),
              ("Accounts Payable\n9 Oak St", "ADDRESS")]
    assert [(s.label, s.text) for s in tidy(text, spans_at(text, values))] == [
        ("PERSON", "KLAUS ABERNATHY-VOGT"), ("ADDRESS", "SCHILLERSTRASSE 14"),
        ("ADDRESS", "Victoria House\n12 High St"), ("ADDRESS", "Grace Court\n4 Elm St"),
        ("ADDRESS", "Accounts Payable\n9 Oak St")]


def test_a_firm_is_whole_past_its_industrys_word_and_an_ampersand():
    """The industry-words record's probes, with the model's spans as it gave them: a founder's
    name and the firm's industry, or "& Partners", make one firm; and a trade's word (the
    trade-words record: "DICK SMITH ELECTRONICS", "Halvorsen Shipping"), a lender's, a law
    practice's, two partners' surnames ("Pembury & Lowe") and a family firm's ("Hartley &
    Sons")."""
    from dataclasses import replace

    from bertforge.pii.tidy import tidy

    text = ("Kellner Pharma (LSE: KLP) was flat. Szymańska & Partners will file it. Next, "
            "Ebony Washington with Wolfe Research. Bluewater Payments will close it. "
            "Owner: Reshetnikov Family Trust; Anna Family, trustee.\n"
            "12/02 DICK SMITH ELECTRONICS SYDNEY; Halvorsen Shipping won. M/s. Shree Ganesh "
            "Traders and Gupta Agencies paid.")
    spans = [("PERSON", "Kellner"), ("COMPANY", "Pharma"), ("COMPANY", "Szymańska"),
             ("PERSON", "Ebony Washington"), ("PERSON", "Wolfe"), ("COMPANY", "Bluewater"),
             ("PERSON", "Reshetnikov"), ("PERSON", "Anna Family"),
             ("PERSON", "DICK SMITH ELECTRONICS"), ("PERSON", "Halvorsen"),
             ("PERSON", "Shree Ganesh Traders"), ("PERSON", "Gupta")]
    placed = spans_at(text, [(v, label) for label, v in spans])
    # (and a small trader's words, the traders-words record)
    assert [(s.label, s.text) for s in tidy(text, placed)] == [
        ("COMPANY", "Kellner Pharma"), ("COMPANY", "Szymańska & Partners"),
        ("PERSON", "Ebony Washington"), ("COMPANY", "Wolfe Research"),
        ("COMPANY", "Bluewater Payments"), ("COMPANY", "Reshetnikov Family Trust"),
        ("PERSON", "Anna Family"), ("COMPANY", "DICK SMITH ELECTRONICS"),
        ("COMPANY", "Halvorsen Shipping"), ("COMPANY", "Shree Ganesh Traders"),
        ("COMPANY", "Gupta Agencies")]
    # and a lender's words (the lender-words record); a home's word alone is not one
    text = "Marcus at Summit Home Loans; Lakeview Mortgage; Rocket Homes; Summit Home page."
    placed = spans_at(text, [("Summit", "COMPANY"), ("Lakeview", "COMPANY"),
                             ("Rocket", "COMPANY"), ("Summit", "COMPANY", 1)])
    assert [s.text for s in tidy(text, placed)] == [
        "Summit Home Loans", "Lakeview Mortgage", "Rocket Homes", "Summit"]
    # and a law practice's words, with a partner's surname the model read as a person
    # before " & " (the law-practices record); a given name before " & " stays a person,
    # and so does "Law" alone, a surname
    text = ("Evelyn Tran, Esq.\nTran & Whitlock Elder Law\nAnn & Kestrel Law Group; "
            "Jude Law said")
    placed = spans_at(text, [("Evelyn Tran", "PERSON"), ("Tran", "PERSON", 1),
                             ("Whitlock", "PERSON"), ("Ann", "PERSON"), ("Kestrel", "COMPANY"),
                             ("Jude Law", "PERSON")])
    assert [(s.label, s.text) for s in tidy(text, placed)] == [
        ("PERSON", "Evelyn Tran"), ("COMPANY", "Tran & Whitlock Elder Law"), ("PERSON", "Ann"),
        ("COMPANY", "Kestrel Law Group"), ("PERSON", "Jude Law")]
    # and two partners' surnames joined by " & " (the surname-partners record); not given
    # names, a name in lower case, a recognizer's name, nor two joined otherwise
    text = ("Choose Pembury & Lowe; John & Mary came; ask Pembury and Lowe; pembury & Lowe; "
            "Dear Pembury & Lowe.")
    placed = spans_at(text, ["Pembury", "Lowe", "John", "Mary", ("Pembury", "PERSON", 1),
                             ("Lowe", "PERSON", 1), "pembury", ("Lowe", "PERSON", 2),
                             ("Pembury", "PERSON", 2), ("Lowe", "PERSON", 3)])
    placed[-2] = replace(placed[-2], source="pattern")
    assert [(s.label, s.text) for s in tidy(text, placed)] == [
        ("COMPANY", "Pembury & Lowe"), ("PERSON", "John"), ("PERSON", "Mary"),
        ("PERSON", "Pembury"), ("PERSON", "Lowe"), ("PERSON", "pembury"), ("PERSON", "Lowe"),
        ("PERSON", "Pembury"), ("PERSON", "Lowe")]
    # and a family firm's (the family-firms record)
    text = "Naveen closed the Hartley & Sons refinancing; Kowalczyk Brothers paid."
    placed = spans_at(text, [("Hartley", "COMPANY"), ("Kowalczyk", "COMPANY")])
    assert [s.text for s in tidy(text, placed)] == ["Hartley & Sons", "Kowalczyk Brothers"]


def test_a_family_trust_is_one_firm_and_a_sentences_full_stop_no_part_of_a_firm():
    """The firm-ends record's probes, with the model's spans as it gave them: "Family"
    between two firm spans joins them, and a trust's kind with it (the trust-kinds record:
    "Lindqvist Family Irrevocable Trust"); a sentence's full stop after a firm's whole
    word is cut, and a legal form's, an abbreviated word's and a glued form's stay."""
    from bertforge.pii.tidy import tidy

    text = ("held by the Whitcombe Family Trust, of which he is trustee. Texting from First "
            "Horizon Bank. Paid Acme Corp. Paid Warner Bros. Paid Valbuena y asociados "
            "S.Coop. Paid Eraslan Alemdar San. Done. The Lindqvist Family Irrevocable Trust "
            "(3) holds it.")
    spans = [("COMPANY", "Whitcombe"), ("COMPANY", "Trust"), ("COMPANY", "First Horizon Bank."),
             ("COMPANY", "Acme Corp."), ("COMPANY", "Warner Bros."),
             ("COMPANY", "Valbuena y asociados S.Coop."), ("COMPANY", "Eraslan Alemdar San."),
             ("PERSON", "Lindqvist")]
    placed = spans_at(text, [(v, label) for label, v in spans])
    assert [s.text for s in tidy(text, placed)] == [
        "Whitcombe Family Trust", "First Horizon Bank", "Acme Corp.", "Warner Bros.",
        "Valbuena y asociados S.Coop.", "Eraslan Alemdar San.",
        "Lindqvist Family Irrevocable Trust"]


def test_a_sentences_full_stop_after_a_firms_word_outside_the_vocabulary_is_no_part_of_it():
    """The firm-words-before-full-stops record's probe, with the model's span as it gave
    it: a sentence's full stop after a firm's word that the vocabulary lacks ("Bancorp",
    "Therapeutics") is cut as after a vocabulary word; after a word that is neither, a
    name's own ("Qorvex Zyl."), it stays."""
    from bertforge.pii.tidy import tidy

    text = ("He was President at Fifth Third Bancorp. Then Orbis Therapeutics. Paid Qorvex Zyl. "
            "Done.")
    placed = spans_at(text, [("Fifth Third Bancorp.", "COMPANY"), ("Orbis Therapeutics.", "COMPANY"),
                             ("Qorvex Zyl.", "COMPANY")])
    assert [s.text for s in tidy(text, placed)] == [
        "Fifth Third Bancorp", "Orbis Therapeutics", "Qorvex Zyl."]


def test_a_sentences_full_stop_after_a_well_known_firm_is_no_part_of_it():
    """The listed-firms-before-full-stops record's probe, with the model's span as it gave
    it: "from [Citi.]" ends the sentence, the stop is the sentence's; after a firm the list
    does not hold ("Qorvex Zyl.") it stays."""
    from bertforge.pii.tidy import tidy

    text = "Next we have Thandeka Mthembu from Citi. Then Qorvex Zyl. Done."
    placed = spans_at(text, [("Citi.", "COMPANY"), ("Qorvex Zyl.", "COMPANY")])
    assert [s.text for s in tidy(text, placed)] == ["Citi", "Qorvex Zyl."]


def test_a_name_on_each_side_of_a_sentences_end_is_two_names():
    """The sentence-names record's probe, with the model's span as it gave it: "Tariq.
    Tariq Haddad" is two names; a title's or an abbreviated name's full stop, and a
    word no locale knows as a name before the stop, leave a span whole, but a word of
    prose in lower case goes ("yeah [probably. Lukas] is OOO")."""
    from bertforge.pii.tidy import tidy

    text = ("A. Only Tariq. Tariq Haddad, from accounting. Sen. Ann Lee and Geo. Smith "
            "signed; Acme Widgetry. Ann Lee too. Witness: No. Emeka Obi said. Yes, Ada Eze "
            "too; Jo. Ann Lee")
    placed = spans_at(text, ["Tariq. Tariq Haddad", "Sen. Ann Lee", "Geo. Smith",
                             "Widgetry. Ann Lee", "No. Emeka Obi", "Yes, Ada Eze",
                             "Jo. Ann Lee"])
    assert [s.text for s in tidy(text, placed)] == [
        "Tariq", "Tariq Haddad", "Ann Lee", "Geo. Smith", "Widgetry. Ann Lee", "Emeka Obi",
        "Ada Eze", "Jo. Ann Lee"]
    # a lower-case word of prose before the stop is left out (the prose-before-stops
    # record); not one with a capital, one no vocabulary holds, nor a name
    text = ("yeah probably. Lukas is OOO; said Probably. Lukas left; a widgetry. Lukas came; "
            "ask grace. Lukas Pfeiffer replied")
    placed = spans_at(text, ["probably. Lukas", "Probably. Lukas", "widgetry. Lukas",
                             "grace. Lukas Pfeiffer"])
    assert [s.text for s in tidy(text, placed)] == [
        "Lukas", "Probably. Lukas", "widgetry. Lukas", "grace", "Lukas Pfeiffer"]


def test_a_public_bodys_acronym_and_a_banks_one_word_name_are_firms():
    """The institutions record's probes, with the model's spans as they were: "ECB" and
    "Vietcombank" are firms, not persons; "Bank" alone and a name in capitals that is no
    body's stay as they were; "KC" after a lawyer's name is no part of it."""
    from bertforge.pii.tidy import tidy

    text = ("ECB board member Isabel Schnabel; the board of Vietcombank; Bank; ANN LEE; "
            "his lawyer, Ingrid Okoro KC, said so. SEBI chief Madhabi Puri Buch agreed. AfDB "
            "president Sidi Ould Tah; the ISDA negotiation. So, the Fed. Powell said.")
    placed = spans_at(text, ["ECB", "Isabel Schnabel", "Vietcombank", "Bank", "ANN LEE",
                             "Ingrid Okoro KC", "SEBI", "Madhabi Puri Buch", "AfDB",
                             "Sidi Ould Tah", "ISDA", "Fed", "Powell"])
    # (and the regulators abroad: the regulators-abroad record; development banks and
    # trade bodies: the trade-bodies record; a central bank's short name: the
    # central-bank-names record)
    assert [(s.label, s.text) for s in tidy(text, placed)] == [
        ("COMPANY", "ECB"), ("PERSON", "Isabel Schnabel"), ("COMPANY", "Vietcombank"),
        ("PERSON", "Bank"), ("PERSON", "ANN LEE"), ("PERSON", "Ingrid Okoro"),
        ("COMPANY", "SEBI"), ("PERSON", "Madhabi Puri Buch"), ("COMPANY", "AfDB"),
        ("PERSON", "Sidi Ould Tah"), ("COMPANY", "ISDA"), ("COMPANY", "Fed"),
        ("PERSON", "Powell")]


def test_a_firm_after_one_persons_courtesy_title_is_a_person():
    """The titled-firms record's probe, with the model's spans as it gave them: a firm
    right after "Dr." is the person; one whose name ends in a firm's word stays a firm,
    and so does a firm after a title for several people or no title."""
    from bertforge.pii.tidy import tidy

    text = ("An employment agreement with Dr. Arvind Subramaniam providing a salary; Ms Nkechi "
            "Obi signed; Dr. Reddy's Laboratories supplies; Drs. Kessler Vance; paid Kessler "
            "Vance.")
    values = [("Arvind Subramaniam", "COMPANY"), ("Nkechi Obi", "COMPANY"),
              ("Reddy's Laboratories", "COMPANY"), ("Kessler Vance", "COMPANY"),
              ("Kessler Vance", "COMPANY", 1)]
    assert [(s.label, s.text) for s in tidy(text, spans_at(text, values))] == [
        ("PERSON", "Arvind Subramaniam"), ("PERSON", "Nkechi Obi"),
        ("COMPANY", "Reddy's Laboratories"), ("COMPANY", "Kessler Vance"),
        ("COMPANY", "Kessler Vance")]
    # and one on the next line after a title that ends a wrapped line (the wrapped-titles
    # record: a filing's footnote); not two lines down
    text = ("held by the Oyelaran-Cole Family Trust, of which Ms.\nOyelaran-Cole is trustee; "
            "Mr.\n\nAcme")
    assert [(s.label, s.text) for s in tidy(text, spans_at(text, [
        ("Oyelaran-Cole", "COMPANY", 1), ("Acme", "COMPANY")]))] == [
        ("PERSON", "Oyelaran-Cole"), ("COMPANY", "Acme")]


def test_a_surname_found_alone_takes_in_a_rare_or_given_name_before_it():
    """The given-name-heads record's probes, with the model's spans as it gave them: a
    surname alone takes in the given name before it that is no word ("Refet") or no
    name Faker knows ("Sandeep"); not a word, a surname Faker knows, a title or role
    the name goes without, a party's role, a word in capitals or one a span holds, nor
    before a surname in lower case (the amendment)."""
    from bertforge.pii.tidy import tidy

    text = ("Economist Refet Gürkaynak agreed; ICICI Bank MD Sandeep Bakhshi too. Adjuster "
            "Kowalczyk called. Respondent Whitmore paid. The Chair Nakamura ruled. Okafor "
            "Mensah spoke. ICICI Vaswani left. Zorvath Malhotra came.")
    values = ["Gürkaynak", "Bakhshi", "Kowalczyk", "Whitmore", "Nakamura", "Mensah", "Vaswani",
              ("Zorvath", "COMPANY"), "Malhotra"]
    assert [s.text for s in tidy(text, spans_at(text, values))] == [
        "Refet Gürkaynak", "Sandeep Bakhshi", "Kowalczyk", "Whitmore", "Nakamura", "Mensah",
        "Vaswani", "Zorvath", "Malhotra"]
    text = "omg Spyder thoo lol"  # a tweet's word in lower case (the amendment)
    assert [s.text for s in tidy(text, spans_at(text, ["thoo"]))] == ["thoo"]


def test_a_firms_span_that_ends_in_a_given_name_before_a_persons_is_one_name():
    """The given-names-before-initials record's probe, with the model's spans as it gave
    them: a model firm's span whose last word is a name Faker knows, with only words in
    lower case before it, one space before a model person's span, is one person with it
    (the list's "and" left out); not after a firm's Capitalised word, with a comma
    between, a word no locale knows, nor a recognizer's firm."""
    from dataclasses import replace

    from bertforge.pii.tidy import tidy

    text = ("Elect Linda S. Marchetti and Jamal K. Whitfield. Then Halcyon Jamal K. Ode. Call "
            "and Jamal, K. Ray. Ask and Acme K. Lee. Pay and Jamal K. Ito.")
    spans = spans_at(text, [("and Jamal", "COMPANY"), "K. Whitfield", ("Halcyon Jamal", "COMPANY"),
                            "K. Ode", ("and Jamal", "COMPANY", 1), "K. Ray",
                            ("and Acme", "COMPANY"), "K. Lee", ("and Jamal", "COMPANY", 2),
                            "K. Ito"])
    spans[-2] = replace(spans[-2], source="pattern")
    assert [(s.text, s.label) for s in tidy(text, spans)] == [
        ("Jamal K. Whitfield", "PERSON"), ("Halcyon Jamal", "COMPANY"), ("K. Ode", "PERSON"),
        ("Jamal", "COMPANY"), ("K. Ray", "PERSON"), ("Acme", "COMPANY"), ("K. Lee", "PERSON"),
        ("and Jamal", "COMPANY"), ("K. Ito", "PERSON")]


def test_a_surname_written_first_after_a_courtesy_title_is_the_names():
    """The titled-surnames record's probe, with the model's spans as it gave them: after
    one person's courtesy title the word before a name of two words is its surname,
    written first ("Mr. Lim Boon Keng"); not a title after the courtesy title, nor a
    word before a name without one."""
    from bertforge.pii.tidy import tidy

    text = ("Mr. Lim Boon Keng will cover it; copy Ms. Nguyen Thi Lan. Mr. Chairman Ho Wei "
            "agreed. Ask Lim Wei Jie.")
    values = ["Boon Keng", "Thi Lan", "Ho Wei", "Wei Jie"]
    assert [s.text for s in tidy(text, spans_at(text, values))] == [
        "Lim Boon Keng", "Nguyen Thi Lan", "Ho Wei", "Wei Jie"]


def test_a_judges_title_after_the_surname_is_no_name():
    """The judges-titles record's probe, with the model's spans as it gave them: "C. J."
    and "JJ" after a justice's surname and comma go; an initial after a name stays."""
    from bertforge.pii.tidy import tidy

    text = ("SOTOMAYOR, J., delivered the opinion, in which ROBERTS, C. J., and KAGAN, "
            "JJ., joined. Michael J. Fox watched. /s/ E. Whitcombe-Hayes, U.S.D.J.")
    values = ("SOTOMAYOR", "ROBERTS", "C. J.", "KAGAN", "JJ", "Michael J.", "Whitcombe-Hayes",
              "U.S.D.J.")
    spans = spans_at(text, values)
    # (and a US district judge's, the federal-judges record)
    assert [s.text for s in tidy(text, spans)] == ["SOTOMAYOR", "ROBERTS", "KAGAN",
                                                   "Michael J.", "Whitcombe-Hayes"]


def test_a_functions_name_before_its_bracket_is_nobodys():
    """The developer-posts record's probe, with the model's spans as it gave them: a
    CamelCase name glued to the bracket of a call goes; a name before a spaced bracket,
    or a CamelCase name that is not called, stays."""
    from bertforge.pii.tidy import tidy

    text = 'Calling GetCustomer("Smith") fails; ask Ann McDonald (support) or DeShawn.'
    values = ("GetCustomer", "Smith", "Ann McDonald", "DeShawn")
    spans = spans_at(text, values)
    assert [s.text for s in tidy(text, spans)] == ["Smith", "Ann McDonald", "DeShawn"]


def test_a_name_and_an_initial_read_as_a_firm_is_a_person():
    """The initialled-names record's probe, with the model's spans as it gave them: a
    signature's "Priyanka S." read as a firm is a person, and so is a name with a
    double-barrelled surname (the double-barrelled record: "Oluwaseun Adeyemi-Hart") and
    a name with a middle initial (the middle-initials record: "Jonathan R. Sterling"); a
    firm's name that is an ordinary word and a letter ("Vanguard A."), whose words
    around a hyphen are ordinary ones ("Premier Rolls-Royce", "Jordan Home-Care"), or
    around an initial ("Premier R. Holdings"), is not made one."""
    from bertforge.pii.tidy import tidy

    text = ("Warm regards,\nPriyanka S.\nClient Services | Halcyon Wealth\nVanguard A. shares\n"
            "My name is Oluwaseun Adeyemi-Hart. Premier Rolls-Royce and Jordan Home-Care paid.\n"
            "Filed by Bluewater Capital GP, LLC and Jonathan R. Sterling; Premier R. Holdings.")
    values = ("Priyanka S.", "Halcyon Wealth", "Vanguard A.", "Oluwaseun Adeyemi-Hart",
              "Premier Rolls-Royce", "Jordan Home-Care", "Jonathan R. Sterling",
              "Premier R. Holdings")
    spans = spans_at(text, [(v, "COMPANY") for v in values])
    assert [(s.label, s.text) for s in tidy(text, spans)] == [
        ("PERSON", "Priyanka S."), ("COMPANY", "Halcyon Wealth"), ("COMPANY", "Vanguard A."),
        ("PERSON", "Oluwaseun Adeyemi-Hart"), ("COMPANY", "Premier Rolls-Royce"),
        ("COMPANY", "Jordan Home-Care"), ("PERSON", "Jonathan R. Sterling"),
        ("COMPANY", "Premier R. Holdings")]


def test_a_firms_first_word_before_a_possessive_and_a_person_is_the_firm():
    """The firms'-people and possessive-firms records' probes, with the model's spans as
    they were: "Goldman's Dan Dees" and "Scion's Michael Burry" name a firm's people; a
    surname that heads no listed firm, a given name that does ("Arthur"), and a firm's
    word before no full name stay persons."""
    from bertforge.pii.tidy import tidy

    text = ("Goldman's Dan Dees and Bridgewater's Greg Jensen met Sandberg's Dan Rosensweig, "
            "Arthur's Jane Doe and Goldman's team. Scion's Michael Burry; Celsius's lawyers.")

    spans = spans_at(text, ["Goldman", "Dan Dees", "Bridgewater", "Greg Jensen", "Sandberg",
                            "Dan Rosensweig", "Arthur", "Jane Doe", ("Goldman", "PERSON", 1),
                            "Scion", "Michael Burry", "Celsius"])
    assert [(s.label, s.text) for s in tidy(text, spans)] == [
        ("COMPANY", "Goldman"), ("PERSON", "Dan Dees"), ("COMPANY", "Bridgewater"),
        ("PERSON", "Greg Jensen"), ("PERSON", "Sandberg"), ("PERSON", "Dan Rosensweig"),
        ("PERSON", "Arthur"), ("PERSON", "Jane Doe"), ("PERSON", "Goldman"),
        ("COMPANY", "Scion"), ("PERSON", "Michael Burry"), ("PERSON", "Celsius")]
    # read as one name, the firm's and the person's are parted (the possessed-names
    # record), and a listed firm's whole name is a firm; a person's possessive and
    # one word, or a lower-case word, stay one span
    text = ("Blackstone's Jon Gray met Carter's Steve Bannon, Jefferies's Ann Lee, Ann's Jo and "
            "Ann's new Mini Cooper.")
    spans = spans_at(text, ["Blackstone's Jon Gray", "Carter's Steve Bannon",
                            "Jefferies's Ann Lee", "Ann's Jo", "Ann's new Mini Cooper"])
    assert [(s.label, s.text) for s in tidy(text, spans)] == [
        ("COMPANY", "Blackstone"), ("PERSON", "Jon Gray"), ("PERSON", "Carter"),
        ("PERSON", "Steve Bannon"), ("COMPANY", "Jefferies"), ("PERSON", "Ann Lee"),
        ("PERSON", "Ann's Jo"), ("PERSON", "Ann's new Mini Cooper")]
    # an officer's title between (the possessive-officers record), with its comma or
    # none, in any case; a title people have, a founder, a known surname before the
    # title, and a title before one word, stay persons
    text = ("Abrdn's chief executive Jason Windsor; Meridian's president, Craig O'Sullivan; "
            "Nomura's Chief Executive Kentaro Okuda; Bidenx's chief of staff Jeff Zients; "
            "Olam's co-founder Sunny Verghese; Sandberg's chairman Tom Lee; Baupost's CEO Seth.")
    spans = spans_at(text, ["Abrdn", "Jason Windsor", "Meridian", "Craig O'Sullivan", "Nomura",
                            "Kentaro Okuda", "Bidenx", "Jeff Zients", "Olam", "Sunny Verghese",
                            "Sandberg", "Tom Lee", "Baupost", "Seth"])
    assert [s.label for s in tidy(text, spans)] == ["COMPANY", "PERSON"] * 3 + ["PERSON"] * 8


def test_the_unnamed_parties_a_complaint_sues_are_nobodys():
    """The unknown-parties record's probe, with the model's spans as it gave them:
    "JOHN DOES 1-10" names no one; a plaintiff, and a "John Doe" who stands for a person,
    stay."""
    from bertforge.pii.tidy import tidy

    text = ("Plaintiff YOLANDA PIERRE-LOUIS sues JOHN DOES 1-10 and Jane Does 1 through 5. "
            "John Doe, a minor, appears by his mother.")
    values = ("YOLANDA PIERRE-LOUIS", "JOHN", "Jane Does", "John Doe")
    spans = spans_at(text, values)
    assert [s.text for s in tidy(text, spans)] == ["YOLANDA PIERRE-LOUIS", "John Doe"]


def test_a_name_before_a_footnotes_mark_is_whole_without_it():
    """The footnote-marks record's probe, with the model's spans as it gave them: an
    author's name with a superscript or a dagger glued to it is the whole name without
    the mark, and the name ends there; a word holding a digit is still no part of a
    name."""
    from bertforge.pii.tidy import tidy

    text = ("Amelia Whitford¹, Kenji Sato²\u2020 and Rukmini Iyer¹ Chen; ref Smith 4410. "
            "Ann Lee¹, Bo Li²")
    spans = spans_at(text, ["Amelia Whitford¹", "Kenji Sato²\u2020", "Rukmini Iyer¹ Chen",
                            "Smith 4410", "Ann Lee¹, Bo Li²"])
    assert [s.text for s in tidy(text, spans)] == [
        "Amelia Whitford", "Kenji Sato", "Rukmini Iyer", "Chen", "Smith", "Ann Lee", "Bo Li"]


def test_a_word_that_is_the_texts_own_domain_is_a_firm():
    """The firms-by-their-domains record's probe, with the model's spans as it gave them:
    "[BrightPay]" of a mail from support@brightpay.example, and a word that a URL's or a
    "www." host holds, is a firm; an email's part before the "@" ("Morimoto" of
    morimoto.t@...), a top-level domain, a given name's own site ("Priya" of priya.dev),
    a name of two words and a host the text does not name are none."""
    from bertforge.pii.tidy import tidy

    def labels(text, values):
        return [(s.text, s.label) for s in tidy(text, spans_in_turn(text, values))]

    text = "From: support@brightpay.example\nThanks,\nJordan M.\nBrightPay Customer Care"
    assert labels(text, ["Jordan M.", "BrightPay"]) == [("Jordan M.", "PERSON"),
                                                        ("BrightPay", "COMPANY")]
    text = "See https://docs.quillpay.io/start or www.ferncastle.co.uk. Quillpay and Ferncastle."
    assert labels(text, ["Quillpay", "Ferncastle"]) == [("Quillpay", "COMPANY"),
                                                        ("Ferncastle", "COMPANY")]
    for text, value in [("Write to morimoto.t@andrew.cmu.edu. Thanks, Morimoto", "Morimoto"),
                        ("Write to ann@post.example. Thanks, Example", "Example"),
                        ("Mail priya@priya.dev. Thanks, Priya", "Priya"),
                        ("Mail info@halvorsen.com. Thanks, Dag Halvorsen", "Dag Halvorsen"),
                        ("Mail info@halvorsen.com. Thanks, Brightwell", "Brightwell"),
                        ("Ask halvorsen.com staff. Thanks, Halvorsen", "Halvorsen")]:
        assert labels(text, [value]) == [(value, "PERSON")], text


def test_a_firm_named_after_its_founder_is_a_firm_where_it_stands_as_one():
    """The founders-firms record's probes, with the model's spans as it gave them: after
    "at" or before "advisor" or "branch", a firm named after its founder is a firm;
    elsewhere the same words stay a person."""
    from bertforge.pii.tidy import tidy

    text = ("Edward Jones advisor Greg called. My IRA at Edward Jones is fine. The Raymond "
            "James branch was rude. Edward Jones, 54, of Dayton, was charged.")
    spans = spans_at(text, ["Edward Jones", ("Edward Jones", "PERSON", 1), "Raymond James",
                            ("Edward Jones", "PERSON", 2)])
    assert [(s.label, s.text) for s in tidy(text, spans)] == [
        ("COMPANY", "Edward Jones"), ("COMPANY", "Edward Jones"), ("COMPANY", "Raymond James"),
        ("PERSON", "Edward Jones")]
    # after a job's title and a comma that start its line (the titled-founders record);
    # a title inside a sentence, a line's start that is no title, and a title before a
    # colon (a label, a person after it) leave a person
    text = ("Analyst, Raymond James (2016-2019)\nOur CEO, Charles Schwab, spoke.\n"
            "Dayton, Edward Jones said.\nAsk Analyst, William Blair.\nAnalyst: Paul Weiss\n")
    spans = spans_at(text, ["Raymond James", "Charles Schwab", "Edward Jones", "William Blair",
                            "Paul Weiss"])
    assert [s.label for s in tidy(text, spans)] == ["COMPANY"] + ["PERSON"] * 4


def test_a_firm_whose_shares_are_held_is_a_firm():
    """The held-firms record's probe, with the model's spans as it gave them: right after
    "Shares of", "a stake in", "bonds of", a person's span is a firm; after "shares" and
    another word ("shares with"), or after another word and "of", it stays a person."""
    from bertforge.pii.tidy import tidy

    text = ("Shares of Palantir rose. Thiel took a stake in Carvana; bonds of Evergrande fell. "
            "Karp shares with Thiel a view. The wife of Karp spoke.")
    spans = spans_at(text, ["Palantir", "Thiel", "Carvana", "Evergrande", "Karp",
                            ("Thiel", "PERSON", 1), ("Karp", "PERSON", 1)])
    assert [s.label for s in tidy(text, spans)] == ["COMPANY", "PERSON", "COMPANY", "COMPANY",
                                                    "PERSON", "PERSON", "PERSON"]


def test_a_name_with_which_after_it_is_no_persons():
    """The which-firms record's probe, with the model's spans as it gave them: a person's
    span with a comma and "which" after it is a firm; with "who", "which" without the
    comma (a question asked of the person), or a word that starts with "which"
    ("whichever"), it stays a person."""
    from bertforge.pii.tidy import tidy

    text = ("Our detractor was Carvana, which we exited. Ask Halden which fund. Karp, who "
            "spoke, and Thiel, whichever way.")
    spans = spans_at(text, ["Carvana", "Halden", "Karp", "Thiel"])
    assert [s.label for s in tidy(text, spans)] == ["COMPANY", "PERSON", "PERSON", "PERSON"]


def test_a_tables_surname_and_given_name_read_apart_are_one_name():
    """The inverted-cells record's probe, a payroll register, with the model's spans as
    they came: "Abernathy" + "Claire M." and "Olawale" + "Femi" at a column's edge are one
    name each, and so in a cell between bars; in running text, with a word of the
    vocabulary after the comma, or with more after it in its cell, they stay apart."""
    from bertforge.pii.tidy import tidy

    text = ("0012   Abernathy, Claire M.    ACCT\n0051   Olawale, Femi   SALES\n"
            "| Pham, Linh | HR |\nI met Abernathy, Claire and Tom.\n"
            "0063   Hale, Support    HR\n0070   Ruiz, Ana and Bo   OPS\nsent by Okafor, Chinedu\n")
    values = ["Abernathy", "Claire M.", "Olawale", "Femi", "Pham", "Linh",
              ("Abernathy", "PERSON", 1), ("Claire", "PERSON", 1), "Tom", "Hale", "Support",
              "Ruiz", "Ana", "Okafor", "Chinedu"]
    assert [s.text for s in tidy(text, spans_at(text, values))] == [
        "Abernathy, Claire M.", "Olawale, Femi", "Pham, Linh", "Abernathy", "Claire", "Tom",
        "Hale", "Support", "Ruiz", "Ana", "Okafor", "Chinedu"]


def test_a_surname_in_capitals_and_given_names_read_apart_are_one_name():
    """The capital-surnames record's probes, with the model's spans as they came: a
    registry's, a sanctions list's and a court's "SURNAME, Given" are one name each, in
    running text too; not where the given names are in capitals as well, where the
    surname is not in capitals, a job's title ("COO") or a word of the vocabulary
    ("HOLD"), or where a word of the vocabulary follows the comma."""
    from bertforge.pii.tidy import tidy

    text = ("HARGREAVES, Dennis Arthur (Director). AL-RASHIDI, Hassan Mahmoud (a.k.a. KARIM) "
            "and O'NEILL, Siobhan. Defendant KOWALCZYK, Marek is ordered. SMITH, JONES and "
            "Hale, Ann met. MCCARTHY, Support Desk. COO, Richard Vance. HOLD, Ann Lee")
    values = ["HARGREAVES", "Dennis Arthur", "AL-RASHIDI", "Hassan Mahmoud", "O'NEILL",
              "Siobhan", "KOWALCZYK", "Marek", "SMITH", "JONES", "Hale", "Ann", "MCCARTHY",
              "Support Desk", "COO", "Richard Vance", "HOLD", "Ann Lee"]
    assert [s.text for s in tidy(text, spans_in_turn(text, values))] == [
        "HARGREAVES, Dennis Arthur", "AL-RASHIDI, Hassan Mahmoud", "O'NEILL, Siobhan",
        "KOWALCZYK, Marek", "SMITH", "JONES", "Hale", "Ann", "MCCARTHY", "Support Desk",
        "Richard Vance", "HOLD", "Ann Lee"]


def test_two_surnames_in_capitals_before_given_names_are_one_name():
    """The capital-double-surnames record's probe, with the model's spans as they came: a
    sanctions list's "ALVAREZ MENDOZA, Jorge Luis" is one name; not where one of the two
    words in capitals is a given name ("JOHN SMITH, Jane Doe" are two people) or a word of
    the vocabulary."""
    from bertforge.pii.tidy import tidy

    text = ("SDN: ALVAREZ MENDOZA, Jorge Luis (a.k.a. El Contador). Met JOHN SMITH, Jane Doe "
            "and GARCIA HOLD, Ann.")
    values = ["ALVAREZ MENDOZA", "Jorge Luis", "JOHN SMITH", "Jane Doe", "GARCIA HOLD", "Ann"]
    assert [s.text for s in tidy(text, spans_in_turn(text, values))] == [
        "ALVAREZ MENDOZA, Jorge Luis", "JOHN SMITH", "Jane Doe", "GARCIA HOLD", "Ann"]


def test_a_firms_span_over_a_sentences_end_is_two_firms():
    """The firm-sentences record's probes, with the model's spans as they came: a firm's
    span over a full stop after an acronym (a legal form written without a full stop
    too), a hyphenated name, a word of the vocabulary or a well-known firm's whole name
    (the firms-ending-sentences record: "TransUnion. Tidewater") is parted there; after a
    legal form's own full stop, an abbreviation firms write with one, or another word
    outside the vocabulary, it stays whole."""
    from bertforge.pii.tidy import tidy

    values = ["Mellon and KPMG. CTP", "Pérez-Llorca. Lombard Odier", "Crédit Agricole CIB. Banca",
              "Acme Holdings. Zentrix", "Acme LLC. Zentrix", "Equifax and TransUnion. Tidewater",
              "ACME CORP. Zentrix", "Wong Bros. Trading", "Bank of Amer. Securities",
              "Acme and Quillzen. Tidewater"]
    text = "; ".join(values) + "."
    assert [s.text for s in tidy(text, spans_at(text, [(v, "COMPANY") for v in values]))] \
        == ["Mellon and KPMG", "CTP", "Pérez-Llorca", "Lombard Odier", "Crédit Agricole CIB",
            "Banca", "Acme Holdings", "Zentrix", "Acme LLC", "Zentrix", "Equifax and TransUnion",
            "Tidewater"] + values[6:]


def test_a_firms_word_read_as_a_person_after_the_firm_is_the_firms():
    """The firm-word-persons record's probe, with the model's spans as it gave them:
    "(Meridian Wealth)" read as a firm and a person is one firm, and so is a firm's word
    of two words; a firm's word with no firm right before it, a person after a firm, and
    a firm's word two spaces or a comma after a firm stay."""
    from bertforge.pii.tidy import tidy

    text = ("Priyanka Chopra-Vance (Meridian Wealth); Halden Home Loans; Capital rose; "
            "Acme Ltd Ann Lee; Birch  Partners; Oak, Partners")
    values = ["Priyanka Chopra-Vance", ("Meridian", "COMPANY"), "Wealth", ("Halden", "COMPANY"),
              "Home Loans", "Capital", ("Acme Ltd", "COMPANY"), "Ann Lee", ("Birch", "COMPANY"),
              "Partners", ("Oak", "COMPANY"), "Partners"]
    assert [(s.text, s.label) for s in tidy(text, spans_in_turn(text, values))] == [
        ("Priyanka Chopra-Vance", "PERSON"), ("Meridian Wealth", "COMPANY"),
        ("Halden Home Loans", "COMPANY"), ("Capital", "PERSON"), ("Acme Ltd", "COMPANY"),
        ("Ann Lee", "PERSON"), ("Birch", "COMPANY"), ("Partners", "PERSON"),
        ("Oak", "COMPANY"), ("Partners", "PERSON")]


def test_a_partys_short_name_is_the_firm_the_document_names_whole():
    """The parties-short-names record's probe, with the model's spans as they came: the
    claimant "HARLOW TRADING LIMITED" called "Harlow" is the firm; a widely given name
    ("Morgan" of "Morgan Widgets LLC"), a word after "Mr", a full name's surname, and a
    firm's first word where no firm has a legal form, stay persons."""
    from bertforge.pii.tidy import tidy

    text = ("HARLOW TRADING LIMITED (Claimant) v MORGAN WIDGETS LLC and KESTREL HOLDINGS LTD "
            "and Dana Kestrel. A claim by Harlow; Morgan replied; Mr Harlow and Kestrel "
            "spoke; Zentrix Group agreed and Zentrix paid.")
    spans = spans_at(text, [("HARLOW TRADING LIMITED", "COMPANY"),
                            ("MORGAN WIDGETS LLC", "COMPANY"),
                            ("KESTREL HOLDINGS LTD", "COMPANY"), "Dana Kestrel", "Harlow",
                            "Morgan", ("Harlow", "PERSON", 1), ("Kestrel", "PERSON", 1),
                            ("Zentrix Group", "COMPANY"), ("Zentrix", "PERSON", 1)])
    assert [(s.text, s.label) for s in tidy(text, spans)][3:] == [
        ("Dana Kestrel", "PERSON"), ("Harlow", "COMPANY"), ("Morgan", "PERSON"),
        ("Harlow", "PERSON"), ("Kestrel", "PERSON"), ("Zentrix Group", "COMPANY"),
        ("Zentrix", "PERSON")]


def test_a_persons_span_is_parted_at_a_word_of_prose_inside_it():
    """The prose-inside-names record's probes, with the model's spans as they came: a
    word of prose inside a person's span parts it, with its comma ("Edward Jones guy,
    Brent"); the words names hold ("van", "bin", "of", "y") do not, nor does a lower-case
    word that is no word of the vocabulary ("Ngozi ugwu Eze"), or one beside a word in
    lower case ("Tomasz said hello"), nor one in a text that does not start its
    sentences with capitals, unless it is a verb of speech ("Grace said Dave")."""
    from bertforge.pii.tidy import tidy

    text = ("My mom saw her local Edward Jones guy, Brent. Funds go to Mariam via GoFundMe. "
            "We read Vincent van Gogh, Mohammed bin Salman, Joan of Arc, José Ortega y "
            "Gasset, Ngozi ugwu Eze. Tomasz said hello.")
    values = ["Edward Jones guy, Brent", "Mariam via GoFundMe", "Vincent van Gogh",
              "Mohammed bin Salman", "Joan of Arc", "José Ortega y Gasset", "Ngozi ugwu Eze",
              "Tomasz"]
    assert [s.text for s in tidy(text, spans_at(text, values))] == [
        "Edward Jones", "Brent", "Mariam", "GoFundMe"] + values[2:]
    # a text that does not write its sentences with capitals (a tweet) may write a name's
    # part in lower case: the span stays as it came
    text = "lol. Grace gal Mahary is here. so good"
    assert [s.text for s in tidy(text, spans_at(text, ["Grace gal Mahary"]))] == \
        ["Grace gal Mahary"]
    # but a verb of speech parts a name's span in any text (the speech-inside-names record)
    text = "[19:47] Ola: lol. Grace said Dave from Homeserve is coming. so good"
    assert [s.text for s in tidy(text, spans_at(text, ["Grace said Dave"]))] == ["Grace", "Dave"]


def test_a_firm_read_in_two_at_a_particle_of_its_name_is_one_firm():
    """The particle-firms record's probes, with the model's spans as they came: a firm
    broken at "de" (the particle between the spans, or at the first's end) is one firm;
    a person's name with a particle, a firm after a word that is no particle, and a
    lower-case word after the particle, stay apart."""
    from bertforge.pii.tidy import tidy

    text = ("Caixa Geral de Depósitos; instructed by Mishcon de Reya LLP; Edmond de "
            "Rothschild Group; Maria de Souza; Acme for Beta Corp; Zentrix de fomento SA.")
    spans = spans_at(text, [("Caixa Geral", "COMPANY"), ("Depósitos", "COMPANY"),
                            "Mishcon de", ("Reya LLP", "COMPANY"), "Edmond",
                            ("Rothschild Group", "COMPANY"), "Maria", "Souza",
                            ("Acme", "COMPANY"), ("Beta Corp", "COMPANY"),
                            ("Zentrix", "COMPANY"), ("fomento SA", "COMPANY")])
    assert [(s.text, s.label) for s in tidy(text, spans)] == [
        ("Caixa Geral de Depósitos", "COMPANY"), ("Mishcon de Reya LLP", "COMPANY"),
        ("Edmond de Rothschild Group", "COMPANY"), ("Maria", "PERSON"), ("Souza", "PERSON"),
        ("Acme", "COMPANY"), ("Beta Corp", "COMPANY"), ("Zentrix", "COMPANY"),
        ("fomento SA", "COMPANY")]


def test_a_firm_after_a_name_and_a_job_title_read_as_a_person_is_the_firm():
    """The employers-after-titles record's probes, with the model's spans as they came:
    "Stripe" after "Dr. Hamza Qureshi, Chief Compliance Officer," and "Plaid Inc" after a
    CTO are firms; a given name there, a word after a title that may be a firm's
    ("Partner"), and a name after no title, stay persons."""
    from bertforge.pii.tidy import tidy

    text = ("Dr. Hamza Qureshi, Chief Compliance Officer, Stripe; Dana Ortiz, CTO, Plaid "
            "Labs; Ravi Menon, Director, Olivia Park; Erin Walsh, Partner, Sequoia; "
            "Ana Ruiz, Kwame Asante.")
    people = ["Hamza Qureshi", "Stripe", "Dana Ortiz", "Plaid Labs", "Ravi Menon",
              "Olivia Park", "Erin Walsh", "Sequoia", "Ana Ruiz", "Kwame Asante"]
    assert [s.label for s in tidy(text, spans_at(text, people))] == [
        "PERSON", "COMPANY", "PERSON", "COMPANY", "PERSON", "PERSON", "PERSON", "PERSON",
        "PERSON", "PERSON"]


def test_a_date_that_runs_on_into_its_sentences_subject_is_a_date_and_a_name():
    """The dated-subjects record's probes, with the model's spans as they came: a date's
    span that took the name after it ("2019 through 2025 Hutchins", "March 3 Martin") is
    a date and a person; a month, a day, a feast, a season or a word of the vocabulary
    after the digits, and a name after no digits, stay the date's."""
    from bertforge.pii.tidy import tidy

    values = ["2019 through 2025 Hutchins", "March 3 Martin", "2024 Budget",
              "25 December Christmas", "12 June", "2021 Tues", "2025 Fall", "2019 Easter",
              "Cinco de Mayo"]
    text = "; ".join(values) + "."
    assert [(s.text, s.label) for s in tidy(text, spans_at(text, [(v, "DATE") for v in values]))] \
        == [("2019 through 2025", "DATE"), ("Hutchins", "PERSON"), ("March 3", "DATE"),
            ("Martin", "PERSON")] + [(v, "DATE") for v in values[2:]]


def test_a_name_that_starts_inside_a_times_meridiem_starts_after_it():
    """The meridiem-starts record's probes, with the model's spans as they came (starting
    at the full stop inside "p.m."): a time zone left alone goes, a word after the time
    loses the "m." and stays; a name's initials "A.M." are no time's."""
    from bertforge.pii.tidy import tidy

    text = ("Call 8 a.m. to 9 p.m. ET or ask for Lisa Ramirez. At 5:32 p.m. Quorum "
            "confirmed. At 6 P.M. CST we close. Signed, Dr. A.M. Okafor.")
    spans = spans_at(text, [(".m. ET", "COMPANY"), "Lisa Ramirez", ".m. Quorum",
                            (".M. CST", "COMPANY"), ".M. Okafor"])
    assert [(s.text, s.label) for s in tidy(text, spans)] == [
        ("Lisa Ramirez", "PERSON"), ("Quorum", "PERSON"), ("A.M. Okafor", "PERSON")]


def test_a_number_alone_read_as_an_address_is_no_ones_without_a_postal_word():
    """The bare-numbers record's probes, with the model's spans as they came: a number
    alone as an address after "Book", "ID No." or "Pub" is nobody's; after a postal
    code's, a box's or a suite's word it stays, and so does a number with words."""
    from bertforge.pii.tidy import tidy

    text = ("Recorded in Book 5512, Page 201. Notary ID No. 88214. See IRS Pub 969. "
            "ZIP: 70501. P.O. Box 44512. Suite 200. Office at 12 Elm Street.")
    values = ["5512", "88214", "969", "70501", "44512", "200", "12 Elm Street"]
    spans = spans_at(text, [(v, "ADDRESS") for v in values])
    assert [s.text for s in tidy(text, spans)] == values[3:]


def test_an_examples_latin_lead_is_no_part_of_a_name():
    """The latin-leads record's probe, with the model's spans as they came: a firm's or a
    person's span starts after "e.g.", "i.e." (with a space inside and a comma after it
    too) and "cf."; a lower-case "viz." goes as a lower-case word before a name does."""
    from bertforge.pii.tidy import tidy

    text = ("Call your bank (e. g. Barclays) or ask (i. e., Lisa Ramirez) or viz. Acme Ltd; "
            "cf. Halden Group.")
    spans = spans_at(text, [("e. g. Barclays", "COMPANY"), "i. e., Lisa Ramirez",
                            ("viz. Acme Ltd", "COMPANY"), ("cf. Halden Group", "COMPANY")])
    assert [s.text for s in tidy(text, spans)] == [
        "Barclays", "Lisa Ramirez", "Acme Ltd", "Halden Group"]


def test_an_alias_mark_is_no_part_of_a_name():
    """The alias-marks record's probe, with the model's spans as they came: a person's or
    a firm's span starts after "a.k.a.", "a/k/a", "F/K/A" and "aka"; a span that is only
    the mark goes; a name that starts with the letters ("Akana", "AKAMAI") stays; in a
    chat in lower case too."""
    from bertforge.pii.tidy import tidy

    text = ("AL-RASHIDI (a.k.a. ABU KARIM; a. k. a Karim), Jon Reyes a/k/a Johnny Reyes, "
            "Bluewater LLC F/K/A Bluewater Capital LLC, Ana aka Nita, Lei Akana of AKAMAI.")
    values = ["a.k.a. ABU KARIM", "a. k. a", "Karim", "a/k/a Johnny Reyes",
              ("F/K/A Bluewater Capital LLC", "COMPANY"), "aka Nita", "Lei Akana",
              ("AKAMAI", "COMPANY")]
    assert [s.text for s in tidy(text, spans_in_turn(text, values))] == [
        "ABU KARIM", "Karim", "Johnny Reyes", "Bluewater Capital LLC", "Nita", "Lei Akana",
        "AKAMAI"]
    chat = "lol jon aka johnny b said hi"  # a text in lower case, where "aka" is no name's
    assert [s.text for s in tidy(chat, spans_in_turn(chat, ["aka johnny b"]))] == ["johnny b"]


def test_inverted_names_in_a_list_parted_by_semicolons_are_one_person_each():
    """The listed-inversions record's probes, with the model's spans as they came: a
    pleading's parties "Kowalski" + "Anna", "Brennan" + "Michael J.", "Tanaka" + "Hiroshi"
    are one person each, by the semicolon after or before; without a semicolon, or with a
    word after the comma that is no given name, they stay apart. A creditor read as a
    firm, "Oduya, Patience A.", is a person by its middle initial; without the initial, or
    with no given name before it, it stays a firm."""
    from bertforge.pii.tidy import tidy

    text = ("Plaintiffs: Kowalski, Anna; Brennan, Michael J.; Tanaka, Hiroshi.\n"
            "I met Abernathy, Claire and Tom; Hale, Okonjo; gone.\n"
            "3.4 Oduya, Patience A., 19 Birch Hollow Rd; 3.5 Oduya, Patience; "
            "3.6 Zentrix, Lumen A.\n")
    people = ["Kowalski", "Anna", "Brennan", "Michael J.", "Tanaka", "Hiroshi", "Abernathy",
              "Claire", "Tom", "Hale", "Okonjo"]
    firms = [("Oduya, Patience A.", "COMPANY"), ("Oduya, Patience", "COMPANY", 1),
             ("Zentrix, Lumen A.", "COMPANY")]
    assert [(s.text, s.label) for s in tidy(text, spans_at(text, people + firms))] == [
        ("Kowalski, Anna", "PERSON"), ("Brennan, Michael J.", "PERSON"),
        ("Tanaka, Hiroshi", "PERSON"), ("Abernathy", "PERSON"), ("Claire", "PERSON"),
        ("Tom", "PERSON"), ("Hale", "PERSON"), ("Okonjo", "PERSON"),
        ("Oduya, Patience A.", "PERSON"), ("Oduya, Patience", "COMPANY"),
        ("Zentrix, Lumen A.", "COMPANY")]


def test_a_known_name_read_as_a_firm_on_a_captions_side_is_a_person():
    """The caption-parties record's probe, a 10-K's legal proceedings, with the model's
    spans as they came: "Hernandez v. Crestline Bancorp" and "Acme v. Whitaker" name
    persons; a firm's name that is no name, a well-known firm's, two words, and a name
    far from any "v.", stay firms."""
    from bertforge.pii.tidy import tidy

    text = ("Hernandez v. Crestline Bancorp, Inc. and Zentrix v. Whitaker; Jefferies v. SEC; "
            "Morgan Stanley v. Ruiz; Hernandez said so.")
    spans = spans_at(text, [("Hernandez", "COMPANY"), ("Crestline Bancorp, Inc.", "COMPANY"),
                            ("Zentrix", "COMPANY"), ("Whitaker", "COMPANY"),
                            ("Jefferies", "COMPANY"),
                            ("Morgan Stanley", "COMPANY"), ("Ruiz", "PERSON"),
                            ("Hernandez", "COMPANY", 1)])
    assert [s.label for s in tidy(text, spans)] == [
        "PERSON", "COMPANY", "COMPANY", "PERSON", "COMPANY", "COMPANY", "PERSON", "COMPANY"]


def test_judges_in_an_opinions_caption_are_persons_and_their_plural_title_no_one():
    """The judges-captions record's probes, with the model's spans as it gave them: a
    judge's surname before a judges' office is a person, not a firm; "JJ." after a
    surname in any case is no one; a firm before other words stays a firm."""
    from bertforge.pii.tidy import tidy

    text = ("Before: LIVINGSTON, Chief Judge, PARK and NARDINI, Circuit Judges. The panel "
            "(Kearse, Pooler and Park, JJ.) affirmed; ACME won, Judge Ruiz said.")
    spans = spans_at(text, [("LIVINGSTON", "PERSON"), ("PARK", "COMPANY"), ("NARDINI", "COMPANY"),
                            "Kearse", "Pooler", ("Park", "PERSON", 0), ("JJ", "PERSON"),
                            ("ACME", "COMPANY"), "Ruiz"])
    assert [(s.label, s.text) for s in tidy(text, spans)] == [
        ("PERSON", "LIVINGSTON"), ("PERSON", "PARK"), ("PERSON", "NARDINI"), ("PERSON", "Kearse"),
        ("PERSON", "Pooler"), ("PERSON", "Park"), ("COMPANY", "ACME"), ("PERSON", "Ruiz")]


def test_emeritus_is_a_title_not_a_name():
    """The emeritus-titles record's probe, with the model's spans as it gave them: a
    retired professor's "Emerita" before a name is no part of it, and a span that is
    only "Emeritus" is nobody's."""
    from bertforge.pii.tidy import tidy

    text = "Professor Emerita Joan Blake followed; Dr. Marsh is Professor Emeritus of Finance."
    values = ["Emerita Joan Blake", "Emeritus"]
    assert [s.text for s in tidy(text, spans_in_turn(text, values))] == ["Joan Blake"]


def test_an_appeal_judges_and_an_engineers_titles_are_not_names():
    """The appeal-judges-and-engineers record's probe, with the model's spans as it gave
    them: "Lord Justice", "Lady Justice" and "Engr." before a name are no part of it, and
    "Engr" alone is nobody's; "Lord" alone before a name stays, a name too."""
    from bertforge.pii.tidy import tidy

    text = ("Before: Lord Justice Moylan, Lady Justice Falk. Engr. Tunde Fashola and Engr "
            "Ada Obi met Lord Lucan.")
    values = ["Lord Justice Moylan", "Lady Justice Falk", "Engr", "Tunde Fashola",
              "Engr Ada Obi", "Lord Lucan"]
    assert [s.text for s in tidy(text, spans_in_turn(text, values))] == [
        "Moylan", "Falk", "Tunde Fashola", "Ada Obi", "Lord Lucan"]


def test_a_documents_parts_are_no_ones_name():
    """The document-parts record's probes: a document's part or a letter's note before
    its colon or alone on its line is nobody's, read by the model (with its spans as it
    gave them) or as a chat's speaker by the greeted-names recognizer; a name there
    stays."""
    from bertforge.pii import Redactor
    from bertforge.pii.recognizers import REGISTRY
    from bertforge.pii.tidy import tidy

    text = "Thanks, Priya\n\nEnclosures\nThis message is meant for Tomas Herrera only."
    values = ["Priya", "Enclosures", "Tomas Herrera"]
    assert [s.text for s in tidy(text, spans_in_turn(text, values))] == [
        "Priya", "Tomas Herrera"]
    text = ("Disclaimer: this note was prepared by Lindiwe Dube.\n"
            "Thanh: the build is green now")
    greeted = Redactor(None, recognizers=[REGISTRY["greeted_names"]("US")])
    assert [s.text for s in greeted.detect(text)] == ["Thanh"]


def test_a_councillors_and_a_monsignors_abbreviations_are_titles_not_names():
    """The council-titles record's probes, with the model's spans as it gave them: "Cllr.",
    "Ald." and "Msgr." before a name are no part of it, and a span that is only one of
    them is nobody's."""
    from bertforge.pii.tidy import tidy

    text = ("Present: Cllr. Janet Oduya (Chair), Ald. Robert Szymanski and Cllr Fergus "
            "McBride; Msgr. Liam Keane presides; Monsignor Ana Ruiz and the Msgr.")
    values = ["Cllr. Janet Oduya", "Ald. Robert Szymanski", "Cllr Fergus McBride", "Msgr",
              "Monsignor Ana Ruiz", "Msgr"]
    assert [s.text for s in tidy(text, spans_in_turn(text, values))] == [
        "Janet Oduya", "Robert Szymanski", "Fergus McBride", "Ana Ruiz"]


def test_a_states_abbreviation_after_a_comma_is_no_part_of_a_name():
    """The states-after-names record's probe, with the model's spans as it gave them: a
    licence's state after a full name goes ("Roy Pettibone, GA"); after one word it
    stays, where it may be an inverted name's initials."""
    from bertforge.pii.tidy import tidy

    text = ("Settlement Agent Contact: Roy Pettibone, GA License 40218\nContact: Mia Fischer, NY"
            "\nTeller: Lee, AL")
    values = ["Roy Pettibone, GA", "Mia Fischer, NY", "Lee, AL"]
    assert [s.text for s in tidy(text, spans_in_turn(text, values))] == [
        "Roy Pettibone", "Mia Fischer", "Lee, AL"]


def test_an_identifiers_scheme_after_a_name_is_no_part_of_it():
    """The schemes-after-names record's probes, with the model's spans as it gave them: a
    scheme's name after a full name or a firm's, after a space or a comma, is cut ("NMLS",
    "EIN", "PEP"); one that is a name Faker knows ("SWIFT") stays."""
    from bertforge.pii.tidy import tidy

    text = ("LOAN OFFICER: Brent Castellano NMLS #1840223\nPayee JOHN SMITH, PEP status\n"
            "Agent: Hiroshi Tanaka EIN 84-1943375\nSINGER TAYLOR SWIFT\n"
            "Lender: Summit Home Lending NMLS 3030")
    values = ["Brent Castellano NMLS", "JOHN SMITH, PEP", "Hiroshi Tanaka EIN", "TAYLOR SWIFT",
              ("Summit Home Lending NMLS", "COMPANY")]
    assert [s.text for s in tidy(text, spans_in_turn(text, values))] == [
        "Brent Castellano", "JOHN SMITH", "Hiroshi Tanaka", "TAYLOR SWIFT", "Summit Home Lending"]


def test_a_name_ended_on_its_particles_takes_in_the_rest():
    """The particle-tails record's probes, with the model's spans as it gave them: a name
    that ends on "de", "dos" or "DE LOS" takes in the rest of it and the names there, and
    one more word that is a name; where a firm's word, a place or another label's span
    follows, or nothing, it ends before its particles; in capitals it then stays."""
    from bertforge.pii.tidy import tidy

    text = ("Signed: Juan Carlos Martínez de los Santos, Director\n"
            "Beneficiary: MARIA DE LOS ANGELES RODRIGUEZ, Account 4471\n"
            "Our adviser, Ana Lúcia dos Santos e Silva, will call.\n"
            "Present: Jean-Baptiste de la Tour d'Auvergne.\n"
            "Pedro Gómez de la Serna Director of Finance\n"
            "Luis Ortega de Bank Street; Marta Ruiz de Madrid; Tomás de.\n"
            "The payer was Elena Cruz de Vigo, per Nerea Gil de Garza.\nPAYEE: JOHN VAN\n"
            "Driver: van\nPaid to Tom Van for the job\n"
            "Client: Ana Lúcia dos Santos Pereira Neto\n")
    values = ["Juan Carlos Martínez de", "MARIA DE LOS", "Ana Lúcia dos", "Silva",
              "Jean-Baptiste de la", "Auvergne", "Pedro Gómez de", "Luis Ortega de",
              "Marta Ruiz de", "Tomás de", "Elena Cruz de", ("Vigo", "ADDRESS"), "Nerea Gil de",
              "JOHN VAN", "van", "Tom Van", "Ana Lúcia dos",
              "Santos Pereira Neto"]
    assert [s.text for s in tidy(text, spans_in_turn(text, values))] == [
        "Juan Carlos Martínez de los Santos", "MARIA DE LOS ANGELES RODRIGUEZ",
        "Ana Lúcia dos Santos e Silva", "Jean-Baptiste de la Tour d'Auvergne",
        "Pedro Gómez de la Serna", "Luis Ortega", "Marta Ruiz", "Tomás", "Elena Cruz", "Vigo",
        "Nerea Gil de Garza", "JOHN VAN", "van", "Tom Van", "Ana Lúcia dos Santos Pereira Neto"]


def test_a_surname_and_a_full_name_with_it_are_two_borrowers():
    """The surname-couples record's probe, with the model's spans as it gave them: "Marcus
    A" and a "firm" ". Delgado and Yesenia Delgado" are two people, and the labelled
    field's match then takes the first's whole name; a firm joined by "&", or whose
    words are no surname repeated, stays a firm."""
    from bertforge.pii.tidy import tidy

    text = ("Borrower: Marcus A. Delgado and Yesenia Delgado\nLender: Delgado and Partners\n"
            "Broker: Delgado & Sons Delgado\nServicer: Fenwick and Rowe Holdings")
    values = ["Marcus A", (". Delgado and Yesenia Delgado", "COMPANY"),
              ("Delgado and Partners", "COMPANY"), ("Delgado & Sons Delgado", "COMPANY"),
              ("Fenwick and Rowe Holdings", "COMPANY")]
    tidied = tidy(text, spans_in_turn(text, values))
    assert [(s.text, s.label) for s in tidied] == [
        ("Marcus A", "PERSON"), ("Delgado", "PERSON"), ("Yesenia Delgado", "PERSON"),
        ("Delgado and Partners", "COMPANY"), ("Delgado & Sons Delgado", "COMPANY"),
        ("Fenwick and Rowe Holdings", "COMPANY")]
    merged = [(s.text, s.label) for s in merge(tidied, find(text), text)]
    assert ("Marcus A. Delgado", "PERSON") in merged and ("Yesenia Delgado", "PERSON") in merged


def test_a_greeting_opens_its_line_and_after_a_word_is_a_name():
    """The greetings-open-sentences record's probe, with the model's spans as it gave
    them: a scoreboard's "c Moin Khan" keeps its given name, where a greeting opening a
    line or following a speaker's colon is cut ("Moin Sandra", "Agent: Hey Angela")."""
    from bertforge.pii.tidy import tidy

    text = ("A. Stewart c Moin Khan b Mushtaq Ahmed 44\nMoin Sandra, wie geht's?\n"
            "Agent: Hey Angela, thanks for waiting.")
    values = ["Moin Khan", "Mushtaq Ahmed", "Moin Sandra", "Hey Angela"]
    assert [s.text for s in tidy(text, spans_in_turn(text, values))] == [
        "Moin Khan", "Mushtaq Ahmed", "Sandra", "Angela"]


def test_a_firm_listed_between_two_people_is_a_person():
    """The listed-between record's probe, with the model's spans as it gave them: a
    committee "of Ari Feldman, [Bettina Kruger] and Colm O'Sullivan" lists three people;
    a listed firm, a firm's word, a firm's first word that is no given name, a "firm"
    with only one person beside it, or one that is no list's item ("From Ari Feldman,
    Stella Artois to ...") stays a firm."""
    from bertforge.pii.tidy import tidy

    text = ("The committee: Ari Feldman, Bettina Kruger and Colm O'Sullivan. Advisers: Ari "
            "Feldman, Morgan Stanley and Colm O'Sullivan; Ari Feldman, Grace Capital, Colm "
            "O'Sullivan; Ari Feldman, Halcrow Kruger and Colm O'Sullivan; Bettina Kruger "
            "and Colm O'Sullivan. From Ari Feldman, Stella Artois to Colm O'Sullivan.")
    values = ["Ari Feldman", ("Bettina Kruger", "COMPANY"), "Colm O'Sullivan",
              "Ari Feldman", ("Morgan Stanley", "COMPANY"), "Colm O'Sullivan",
              "Ari Feldman", ("Grace Capital", "COMPANY"), "Colm O'Sullivan",
              "Ari Feldman", ("Halcrow Kruger", "COMPANY"), "Colm O'Sullivan",
              ("Bettina Kruger", "COMPANY"), "Colm O'Sullivan",
              "Ari Feldman", ("Stella Artois", "COMPANY"), "Colm O'Sullivan"]
    labels = {(s.start, s.text): s.label for s in tidy(text, spans_in_turn(text, values))}
    assert [label for (_, value), label in sorted(labels.items())
            if value != "Ari Feldman" and value != "Colm O'Sullivan"] == [
        "PERSON", "COMPANY", "COMPANY", "COMPANY", "COMPANY", "COMPANY"]


def test_a_nickname_whose_closing_mark_the_model_left_out_joins_its_name():
    """The nickname-marks-inside record's probe, with the model's spans as it gave them:
    'Rosalind "Roz' and "Pettigrew" are one name; after a full name that cannot go on
    with a nickname, or without the mark's partner, they stay two."""
    from bertforge.pii.tidy import tidy

    text = ('Rosalind "Roz" Pettigrew died. Mary Jane Kowalski "Kit" Lane wrote. Ann "Bo\' '
            'Ortiz came. Jo "Jojo" and Lee Ortiz came.')
    values = ['Rosalind "Roz', "Pettigrew", 'Mary Jane Kowalski "Kit', "Lane", 'Ann "Bo',
              "Ortiz", 'Jo "Jojo', "Lee Ortiz"]
    assert [s.text for s in tidy(text, spans_in_turn(text, values))] == [
        'Rosalind "Roz" Pettigrew', 'Mary Jane Kowalski "Kit', "Lane", 'Ann "Bo', "Ortiz",
        'Jo "Jojo', "Lee Ortiz"]


def test_the_word_before_branch_is_a_place_not_a_person():
    """The branch-places record's probe, with the model's spans as it gave them: "your
    Koramangala branch" names a place; a given name that common, or a possessive, stays
    with the model."""
    from bertforge.pii.tidy import tidy

    text = ("I hold the account with your Koramangala branch. Sarah branch manager. "
            "Ask Okonkwo's branch.")
    values = ["Koramangala", "Sarah", "Okonkwo"]
    assert [s.text for s in tidy(text, spans_in_turn(text, values))] == ["Sarah", "Okonkwo"]


def test_a_full_name_a_comma_and_a_given_name_are_two_people():
    """The listed-given-names record's probe, with the model's spans as it gave them:
    "Ifeoma Chukwu, Tom" lists two attendees; an inverted name ("Okonkwo, Chidi", "van
    Hulten, Owen": the generator's Dutch names, "van" a given name in Faker's lists) or a
    given name first ("Tom, Ifeoma Chukwu") stays whole."""
    from bertforge.pii.tidy import tidy

    text = ("Attendees: Ifeoma Chukwu, Tom from legal. Name: Okonkwo, Chidi. Tom, Ifeoma Chukwu. "
            "Name: van Hulten, Owen.")
    values = ["Ifeoma Chukwu, Tom", "Okonkwo, Chidi", "Tom, Ifeoma Chukwu", "van Hulten, Owen"]
    assert [s.text for s in tidy(text, spans_in_turn(text, values))] == [
        "Ifeoma Chukwu", "Tom", "Okonkwo, Chidi", "Tom, Ifeoma Chukwu", "van Hulten, Owen"]


def test_a_firm_ending_in_esquire_is_a_lawyer():
    """The esquire-firms record's probe, with the model's spans as it gave them: "Rebecca
    Strand, Esq" read as a firm is the lawyer, without the "Esq"; a firm's word or legal
    form before it, or one word only, leaves the firm as it is."""
    from bertforge.pii.tidy import tidy

    text = ("a copy to Rebecca Strand, Esq., Strand & Moyo LLP; to Moyo Partners, Esq.; to "
            "Strand Esq.")
    values = [("Rebecca Strand, Esq", "COMPANY"), ("Strand & Moyo LLP", "COMPANY"),
              ("Moyo Partners, Esq", "COMPANY"), ("Strand Esq", "COMPANY")]
    assert [(s.text, s.label) for s in tidy(text, spans_in_turn(text, values))] == [
        ("Rebecca Strand", "PERSON"), ("Strand & Moyo LLP", "COMPANY"),
        ("Moyo Partners, Esq", "COMPANY"), ("Strand Esq", "COMPANY")]


def test_a_recitals_letter_is_no_firms_initial():
    """The recital-letters record's probe, with the model's spans as it gave them: "A.
    Brandt Fabrication, Inc." under a "B." paragraph is the firm without the letter; a
    firm's initial with no neighbouring letter on another line, one not at its line's
    start, and a person's initial stay."""
    from bertforge.pii.tidy import tidy

    text = ("A. Brandt Fabrication, Inc. has requested credit.\nB. Guarantor is its owner.\n"
            "A. Stewart signed.\n\n" + "x" * 4100 + "\nJ. Crew Group, Inc. replied.\n"
            "Paid to K. Hovnanian Homes, Inc. today.\nL. nothing.")
    values = [("A. Brandt Fabrication, Inc.", "COMPANY"), "A. Stewart",
              ("J. Crew Group, Inc.", "COMPANY"), ("K. Hovnanian Homes, Inc.", "COMPANY")]
    assert [s.text for s in tidy(text, spans_in_turn(text, values))] == [
        "Brandt Fabrication, Inc.", "A. Stewart", "J. Crew Group, Inc.",
        "K. Hovnanian Homes, Inc."]


def test_a_word_in_capitals_alone_on_its_line_is_a_heading():
    """The capital-headings record's probe, with the model's spans as it gave them:
    "COVENANTS" (the plural of a word of the vocabulary) alone on its line is nobody's,
    and so is "DEFINITIONS:"; a well-known firm ("GOOGLE", "IBM"), a name ("MORGAN"), a word
    that is not alone on its line ("See COVENANTS", "SUMMARY of terms"), one not in
    capitals, or one outside the vocabulary stays."""
    from bertforge.pii.tidy import tidy

    text = ("COVENANTS\nA loan.\n  DEFINITIONS:\nGOOGLE\nMORGAN\nSee COVENANTS\nCovenants\n"
            "ZORBLAX\nSUMMARY of terms\nIBM\n")
    values = [("COVENANTS", "COMPANY"), ("DEFINITIONS", "COMPANY"), ("GOOGLE", "COMPANY"),
              "MORGAN", ("COVENANTS", "COMPANY"), ("Covenants", "COMPANY"), ("ZORBLAX", "COMPANY"),
              ("SUMMARY", "COMPANY"), ("IBM", "COMPANY")]
    assert [s.text for s in tidy(text, spans_in_turn(text, values))] == [
        "GOOGLE", "MORGAN", "COVENANTS", "Covenants", "ZORBLAX", "SUMMARY", "IBM"]


def test_three_digits_alone_are_no_banks_or_governments_number():
    """The three-digit-ids record's probe, with the model's spans as it gave them: a
    remuneration table's "612" and "455" (in £000) are no bank's or ID's number, nor a
    credit score "720" an account's (the three-digit-accounts record); a card's security
    code of three digits, four digits of an ID and a PIN of four stay."""
    from bertforge.pii.tidy import tidy

    text = ("Mr J R Whitlock 612 24 455 1,046. CVV 123; SSN last four 6621. My credit is ~720 "
            "now; PIN 0412.")
    values = [("612", "BANK"), ("455", "GOV_ID"), ("123", "CARD"), ("6621", "GOV_ID"),
              ("720", "ACCOUNT"), ("0412", "ACCOUNT")]
    assert [s.text for s in tidy(text, spans_in_turn(text, values))] == ["123", "6621", "0412"]


def test_per_before_a_lower_case_word_is_the_preposition():
    """The per-before-lower-case record's probe, with the model's spans as it gave them:
    "[Per] our call" is the preposition; "Per Gessle" and a "Per" before a capital stay."""
    from bertforge.pii.tidy import tidy

    text = "Hi Beatriz,\n\nPer our call, please recall it. Per Gessle sang. Ask Per Lind."
    values = ["Per", "Per Gessle", "Per"]
    assert [s.text for s in tidy(text, spans_in_turn(text, values))] == ["Per Gessle", "Per"]


def test_a_departments_desk_alone_is_no_firm():
    """The department-desks record's probe, with the model's spans as it gave them: a
    signature's "Treasury Operations" is a department's desk; a firm's name ending so
    ("Bluewater Card Services") stays."""
    from bertforge.pii.tidy import tidy

    text = "Devon Achterberg | Treasury Operations\nBluewater Card Services | Payroll Support"
    values = [("Treasury Operations", "COMPANY"), ("Bluewater Card Services", "COMPANY"),
              ("Payroll Support", "COMPANY")]
    assert [s.text for s in tidy(text, spans_in_turn(text, values))] == [
        "Bluewater Card Services"]


def test_an_age_is_no_ones_number():
    """The ages record's probe, with the model's spans as it gave them: "an 89-year-old
    widow" names no ID, and neither does "45 years old"; a number with "year" in an ID's
    place ("case 2026-year-7781") stays."""
    from bertforge.pii.tidy import tidy

    text = "including an 89-year-old widow; he is 45 years old; ref 89-year-7781 filed"
    values = [("89-year-old", "GOV_ID"), ("45 years old", "GOV_ID"), ("89-year-7781", "GOV_ID")]
    assert [s.text for s in tidy(text, spans_in_turn(text, values))] == ["89-year-7781"]


def test_a_discourse_word_before_a_name_addressed_is_no_part_of_it():
    """The discourse-leads record's probes, with the model's spans as it gave them: "So
    [Oyelaran], on deposit costs" and "Okay, [Kwame]," opening their sentences; not without
    the comma after the name ("So Ji-sub starred", "So" a surname too), nor after a word on
    its line ("asked So Yeon,"), nor "Oh" ("Oh Se-hoon,", a surname)."""
    from bertforge.pii.tidy import tidy

    text = ("Thanks. So Oyelaran, on costs? Okay, Kwame, go on. So Ji-sub starred. He asked So "
            "Yeon, twice. Oh Se-hoon, the mayor.")
    values = [("So Oyelaran", "PERSON"), ("Okay, Kwame", "PERSON"), ("So Ji-sub", "PERSON"),
              ("So Yeon", "PERSON"), ("Oh Se-hoon", "PERSON")]
    assert [s.text for s in tidy(text, spans_in_turn(text, values))] == [
        "Oyelaran", "Kwame", "So Ji-sub", "So Yeon", "Oh Se-hoon"]


def test_an_english_adverb_alone_is_no_ones_name():
    """The adverbs-read-as-names record's probe, with the model's spans as it gave them:
    "[Slowly] , his style changed" and "KWAME: [Enormously]." (its stem a word of the
    vocabulary) are no one's names; a name in "-ly" ("Beverly"), a word of five letters
    (the surname "Jolly"), a word whose stem is too short ("Everly"), one outside the
    vocabulary ("Quorly"), two words and a word in another ending ("Slower") stay."""
    from bertforge.pii.tidy import tidy

    text = ("Slowly , his style changed. KWAME: Enormously. Ask Beverly. Jolly left. Everly sang. "
            "Quorly said. Frankly Smith. Slower came.")
    values = [("Slowly", "PERSON"), ("Enormously", "PERSON"), ("Beverly", "PERSON"),
              ("Jolly", "PERSON"), ("Everly", "PERSON"), ("Quorly", "PERSON"),
              ("Frankly Smith", "PERSON"), ("Slower", "PERSON")]
    assert [s.text for s in tidy(text, spans_in_turn(text, values))] == [
        "Beverly", "Jolly", "Everly", "Quorly", "Frankly Smith", "Slower"]


def test_a_double_barrelled_surname_read_as_a_firm_after_a_given_name_joins_it():
    """The barrelled-after-given record's probe, with the model's spans as it gave them:
    "Mrs Olufunke" + "Adebisi-Grant" (a firm) is one person; a hyphenated firm whose
    parts are words ("Rolls-Royce"), or one in lower case, stays a firm."""
    from bertforge.pii.tidy import tidy

    text = "Customer: Mrs Olufunke Adebisi-Grant. Charles Rolls-Royce. Ada Adebisi-grant."
    values = ["Mrs Olufunke", ("Adebisi-Grant", "COMPANY"), "Charles", ("Rolls-Royce", "COMPANY"),
              "Ada", ("Adebisi-grant", "COMPANY")]
    assert [(s.text, s.label) for s in tidy(text, spans_in_turn(text, values))] == [
        ("Olufunke Adebisi-Grant", "PERSON"), ("Charles", "PERSON"), ("Rolls-Royce", "COMPANY"),
        ("Ada", "PERSON"), ("Adebisi-grant", "COMPANY")]


def test_the_firm_after_an_analysts_name_in_an_operators_line_is_a_firm():
    """The operators-analyst-firms record's probes, with the model's spans as it gave
    them: "question comes from the line of Michael Tanaka with [Raymond James]" and "Next,
    we have Brody Preston from [Stephens]" name firms; a person after another's name without an
    operator's words before it ("Lunch with Anna Berg with Raymond James") stays a
    person, and so does each analyst."""
    from bertforge.pii.tidy import tidy

    text = ("Operator: Our first question comes from the line of Michael Tanaka with Raymond "
            "James. Next, we have Brody Preston from Stephens. Lunch with Anna Berg with Raymond "
            "James.")
    values = ["Michael Tanaka", "Raymond James", "Brody Preston", "Stephens", "Anna Berg",
              "Raymond James"]
    assert [(s.text, s.label) for s in tidy(text, spans_in_turn(text, values))] == [
        ("Michael Tanaka", "PERSON"), ("Raymond James", "COMPANY"), ("Brody Preston", "PERSON"),
        ("Stephens", "COMPANY"), ("Anna Berg", "PERSON"), ("Raymond James", "PERSON")]


def test_a_surname_led_by_its_particles_before_a_comma_and_a_given_name_is_one_name():
    """The inverted-particle-names record's probe, with the model's spans as it gave them:
    "Cc: de [la Cruz], [José Antonio]" is one name, surname first, with the particle the
    model left out; so are a header's "van den Berg, Anna; dos Santos, Maria Clara". A
    capitalised surname in running text ("met Van Dyke, Anna and Tom") stays apart."""
    from bertforge.pii.tidy import tidy

    text = ("Cc: de la Cruz, José Antonio\nTo: van den Berg, Anna; dos Santos, Maria Clara\n"
            "We met Van Dyke, Anna and Tom.")
    values = ["la Cruz", "José Antonio", "van den Berg", "Anna", "dos Santos", "Maria Clara",
              "Van Dyke", "Anna"]
    assert [s.text for s in tidy(text, spans_in_turn(text, values))] == [
        "de la Cruz, José Antonio", "van den Berg, Anna", "dos Santos, Maria Clara", "Van Dyke",
        "Anna"]


def test_a_compliance_officers_title_and_an_academys_fellowship_are_no_part_of_a_name():
    """The officers-and-fellows record's probe, with the model's spans as it gave them: a
    money-laundering reporting officer's and a data protection officer's title before a
    name ("former MLRO Gareth Pughe-Morgan") and the UK academies' fellowships after it
    ("Sunita Rao FRS", "Ian Fry FREng") are no part of it."""
    from bertforge.pii.tidy import tidy

    text = ("The notice names former MLRO Gareth Pughe-Morgan; Professor Dame Sunita Rao FRS "
            "chairs; DPO Lena Moss replied. Ask Dr Ian Fry FREng.")
    values = ["MLRO Gareth Pughe-Morgan", "Sunita Rao FRS", "DPO Lena Moss", "Ian Fry FREng"]
    assert [s.text for s in tidy(text, spans_in_turn(text, values))] == [
        "Gareth Pughe-Morgan", "Sunita Rao", "Lena Moss", "Ian Fry"]


def test_partners_surnames_listed_before_a_firm_with_an_ampersand_are_the_firm():
    """The partners-listed record's lines, with the model's spans as it gave them:
    "[Pachulski], [Stang], [Ziehl & Jones]" and "[Abernathy], [Pruitt & Kowalczyk]" are
    each one firm, named after its partners; a well-known firm before a comma ("Barclays,
    Hobart & Lowe"), a given name ("Sarah, Quill & Hart") and a firm the model found
    ("[Kestrel], Vane & Hart") stay apart."""
    from bertforge.pii.tidy import tidy

    text = ("Counsel: Pachulski, Stang, Ziehl & Jones. The firm of Abernathy, Pruitt & "
            "Kowalczyk acted. Paid Barclays, Hobart & Lowe and Sarah, Quill & Hart and "
            "Kestrel, Vane & Hart.")
    values = ["Pachulski", "Stang", ("Ziehl & Jones", "COMPANY"), "Abernathy",
              ("Pruitt & Kowalczyk", "COMPANY"), ("Hobart & Lowe", "COMPANY"), "Sarah",
              ("Quill & Hart", "COMPANY"), ("Kestrel", "COMPANY"), ("Vane & Hart", "COMPANY")]
    assert [(s.text, s.label) for s in tidy(text, spans_in_turn(text, values))] == [
        ("Pachulski, Stang, Ziehl & Jones", "COMPANY"),
        ("Abernathy, Pruitt & Kowalczyk", "COMPANY"), ("Hobart & Lowe", "COMPANY"),
        ("Sarah", "PERSON"), ("Quill & Hart", "COMPANY"), ("Kestrel", "COMPANY"),
        ("Vane & Hart", "COMPANY")]
