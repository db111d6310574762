"""Every mention of a name the model found (`pii.mentions`): the short mention of a
name found in full is masked; words that merely look alike are not; the redactor does it
over a whole document, across its segments, and keeps the allow-list in clear."""

import re
from dataclasses import replace

import pytest
from hypothesis import given, settings, strategies as st

from bertforge.pii.mentions import every_mention
from bertforge.spans import Span


def _name(text, value, score=0.97, at=0):
    start = text.index(value, at)
    return Span(start, start + len(value), "PERSON", value, score, "model")


def _added(text, spans, **kwargs):
    return [s.text for s in every_mention(text, spans, **kwargs) if s not in spans]


def test_the_short_mention_of_a_name_found_in_full_is_masked():
    text = "Ben Player won. Later, Player said the player was Ben. Players and Player2 too."
    assert _added(text, [_name(text, "Ben Player")]) == ["Player", "Ben"]
    spans = every_mention(text, [_name(text, "Ben Player", 0.93)])
    assert {s.score for s in spans} == {0.93} and {s.source for s in spans} == {"model"}


def test_a_firms_short_name_defined_in_a_contract_is_masked_wherever_it_stands():
    """The defined-names record's probe: a short name in quotes and brackets after a
    firm's full name, made of the name's words, is masked there and wherever it stands
    again as COMPANY; a role ("the Company"), a firm's word alone ("the Bank"), a term
    that is no word of the name, and a firm's word as an ordinary word are not."""
    text = ('Made by Brightline Analytics, Inc., a Delaware corporation ("Brightline"), Oakhurst '
            'Partners LLC (the "Oakhurst"), First National Bank (the "Bank"), Acme Holdings '
            'Company (the "Company") and Zeta LLC ("Lender"). Brightline shall notify Oakhurst, '
            'the Bank and the Lender; the Company may assign; brightline is lower case.')

    def firm(value):
        start = text.index(value)
        return Span(start, start + len(value), "COMPANY", value, 0.95, "model")

    firms = [firm(f) for f in ("Brightline Analytics, Inc.", "Oakhurst Partners LLC",
                               "First National Bank", "Acme Holdings Company", "Zeta LLC")]
    added = [s for s in every_mention(text, firms) if s not in firms]
    assert [(s.text, s.label) for s in added] == [("Brightline", "COMPANY"), ("Oakhurst", "COMPANY"),
                                                 ("Brightline", "COMPANY"), ("Oakhurst", "COMPANY")]


def test_a_firms_first_word_alone_is_the_firm_where_the_document_names_it_in_full():
    """The firm-first-words record's probes: a one-word PERSON span that is the first
    word of a firm named in full in the same document (or a well-known firm's name: the
    known-firm-first-words record's "Wells Fargo" ... "a Wells spokeswoman") is the firm,
    and so is one that is a one-word firm's span elsewhere in the document (the
    firms-read-alone record: "Vexley"); not a given name two locales list, not
    a word of a person's full name in the document, not a firm's later word, and not
    where the document names no such firm."""
    text = ("About Halcyon Payments plc. Halcyon is authorised. Said Quillon CEO Maya Brandt of "
            "Quillon Therapeutics. Alastair Pembroke founded Pembroke Advisors; Pembroke said "
            "Morgan Capital and Morgan agree. Payments rose. Vexley is alone. Vexley again. Dear "
            "Halcyon, Steiner 's view; Steiner wrote. McDoniel and Caldwell left; McDoniel stayed. "
            "Wells Fargo CEO spoke; a Wells spokeswoman declined.")

    def span(value, label, at=0, source="model"):
        start = text.index(value, at)
        return Span(start, start + len(value), label, value, 0.9, source)

    firms = [span(f, "COMPANY") for f in ("Halcyon Payments plc", "Quillon Therapeutics",
                                          "Pembroke Advisors", "Morgan Capital", "Wells Fargo")]
    # a firm of one word elsewhere in the document (the firms-read-alone record)
    firms.append(span("Vexley", "COMPANY", text.index("Vexley again")))
    # (a person's possessive and two people read as a firm: no firm's word at their end)
    firms += [span("Steiner 's", "COMPANY"), span("McDoniel and Caldwell", "COMPANY")]
    people = [span(p, "PERSON") for p in ("Maya Brandt", "Alastair Pembroke")]
    lone = [span("Halcyon", "PERSON", 10), span("Quillon", "PERSON"),
            span("Pembroke", "PERSON", text.index("Advisors")), span("Morgan", "PERSON", text.index("and Morgan")),
            span("Payments", "PERSON", text.index(". Payments")), span("Vexley", "PERSON"),
            span("Halcyon", "PERSON", text.index("Dear"), "pattern"),  # a greeted name
            span("Steiner", "PERSON", text.index("Steiner wrote")),
            span("McDoniel", "PERSON", text.index("McDoniel stayed")),
            span("Wells", "PERSON", text.index("Wells spokes"))]
    out = {(s.text, s.start): s.label for s in every_mention(text, firms + people + lone)}
    assert [out[s.text, s.start] for s in lone] == [
        "COMPANY", "COMPANY", "PERSON", "PERSON", "PERSON", "COMPANY", "PERSON", "PERSON", "PERSON",
        "COMPANY"]
    # a name of two words that is a firm's span elsewhere is a person's name in full,
    # which the model read as a firm's there (`persons_in_other_case`), not a firm's
    text = "Odile Brax signed. Payee: Odile Brax."
    spans = [Span(0, 10, "PERSON", "Odile Brax", 0.95, "model"),
             Span(26, 36, "COMPANY", "Odile Brax", 0.9, "model")]
    assert [s.label for s in every_mention(text, spans)] == ["PERSON", "PERSON"]
    # and so is such a person's double-barrelled surname alone (the barrelled-surnames
    # record's probes), and a surname without a hyphen (the surnames-read-as-firms-retried
    # record's step: "Wood's fund"); a name found less surely and a pattern's firm stay
    # firms
    text = ("Vincent Albanese-Roth pleaded. Albanese-Roth's lawyer spoke. Cathie Wood said "
            "Wood's fund fell. Ann Kato-Lee; Kato-Lee paid. Albanese-Roth Capital. Albanese-Roth")
    values = [("Vincent Albanese-Roth", "PERSON", 0.95), ("Albanese-Roth", "COMPANY", 0.9),
              ("Cathie Wood", "PERSON", 0.95), ("Wood", "COMPANY", 0.9),
              ("Ann Kato-Lee", "PERSON", 0.6), ("Kato-Lee", "COMPANY", 0.9),
              ("Albanese-Roth Capital", "COMPANY", 0.9), ("Albanese-Roth", "COMPANY", 0.9)]
    spans, at = [], 0
    for value, label, score in values:
        at = text.index(value, at)
        spans.append(Span(at, at + len(value), label, value, score, "model"))
        at += len(value)
    spans[-1] = replace(spans[-1], source="pattern")
    assert [s.label for s in every_mention(text, spans) if s.start in {x.start for x in spans}] == [
        "PERSON", "PERSON", "PERSON", "PERSON", "PERSON", "COMPANY", "COMPANY", "COMPANY"]


def test_a_surname_read_as_a_firm_is_the_person_the_document_names_in_full():
    """The surnames-read-as-firms-retried record's probe: "ordered [Pryce] to pay", read
    as a firm beside the sure "Leonard Pryce", is the person; not before a possessive and
    a capitalised word (a firm's people), not a well-known firm ("Lazard") or a firm named
    after its founder ("Schwab"), not a firm's first word ("Pembroke Advisors"), and not
    the surname of a name whose first word is no given name, of one the model was unsure
    of, or where a pattern found the firm."""
    text = ("Leonard Pryce pleaded. Judge Mehta ordered Pryce to pay. Anna Voss said Voss's Jon "
            "Gray left. Michael Lazard sold Lazard. Charles Schwab founded Schwab. Alastair "
            "Pembroke runs Pembroke Advisors; Pembroke rose. Xqzv Oduya met Oduya. Ida Brenn "
            "saw Brenn. Ola Keswick; Keswick.")
    sure = [("Leonard Pryce", "PERSON"), ("Pryce", "COMPANY"), ("Anna Voss", "PERSON"),
            ("Voss", "COMPANY"), ("Michael Lazard", "PERSON"), ("Lazard", "COMPANY"),
            ("Charles Schwab", "PERSON"), ("Schwab", "COMPANY"), ("Alastair Pembroke", "PERSON"),
            ("Pembroke Advisors", "COMPANY"), ("Pembroke", "COMPANY"), ("Xqzv Oduya", "PERSON"),
            ("Oduya", "COMPANY"), ("Ida Brenn", "PERSON"), ("Brenn", "COMPANY"),
            ("Ola Keswick", "PERSON"), ("Keswick", "COMPANY")]
    spans, at = [], 0
    for value, label in sure:
        at = text.index(value, at)
        spans.append(Span(at, at + len(value), label, value,
                          0.6 if value == "Ida Brenn" else 0.97, "model"))
        at += len(value)
    spans[-1] = replace(spans[-1], source="pattern")
    out = [(s.text, s.label) for s in every_mention(text, spans) if " " not in s.text]
    assert out == [("Pryce", "PERSON"), ("Voss", "COMPANY"), ("Lazard", "COMPANY"),
                   ("Schwab", "COMPANY"), ("Pembroke", "COMPANY"), ("Oduya", "COMPANY"),
                   ("Brenn", "COMPANY"), ("Keswick", "COMPANY")]


def test_a_firm_cut_short_is_made_whole_where_the_document_names_it_in_full():
    """The firms-cut-short record's probe: a model COMPANY span without its first word,
    right after it, is widened where the two are a firm the document names in full
    elsewhere ("-- [Ridge Bancshares, Inc.]" beside "Cobalt Ridge Bancshares, Inc."); not
    a span after other words, a span whose words before it end inside a word, a span
    after the span before it, a pattern's span, nor one beside a firm not named in full
    ("Hollow Lane", no firm's word at its end)."""
    text = ("-- Cobalt Ridge Bancshares, Inc. (NASDAQ: CRBS) announced. Big Ridge Bancshares, "
            "Inc. too. XCobalt Ridge Bancshares, Inc. here. Cobalt Ridge Bancshares, Inc. is a "
            "holding company. Cobalt Ridge Bancshares, Inc. and Cobalt Ridge Bancshares, Inc. "
            "Hollow Lane met. Hollow Lane")

    def span(value, at=0, source="model"):
        start = text.index(value, at)
        return Span(start, start + len(value), "COMPANY", value, 0.9, source)

    short = [m.start() for m in re.finditer("Ridge Bancshares, Inc.", text)]
    full = short[3] - len("Cobalt ")
    lane = text.rindex("Lane")
    spans = [span("Ridge Bancshares, Inc.", short[0]), span("Ridge Bancshares, Inc.", short[1]),
             span("Ridge Bancshares, Inc.", short[2]), span("Cobalt Ridge Bancshares, Inc.", full),
             span("Cobalt", short[3] + 10), span("Ridge Bancshares, Inc.", short[4]),
             span("Ridge Bancshares, Inc.", short[5], "pattern"), span("Hollow Lane"),
             span("Lane", lane)]
    out = every_mention(text, spans)
    assert [(s.start, s.text) for s in out if s.text.endswith(("Inc.", "Lane"))] == [
        (short[0] - 7, "Cobalt Ridge Bancshares, Inc."), (short[1], "Ridge Bancshares, Inc."),
        (short[2], "Ridge Bancshares, Inc."), (full, "Cobalt Ridge Bancshares, Inc."),
        (short[4], "Ridge Bancshares, Inc."), (short[5], "Ridge Bancshares, Inc."),
        (spans[7].start, "Hollow Lane"), (lane, "Lane")]


def test_a_firms_short_name_cut_short_is_made_whole_from_the_firms_first_words():
    """The firms-short-names record's probe: a filing's short name '("Harbor Lane")' read
    as "[Lane]" is widened to the first words of the firm named in full; "Lane" after
    another word, and "Management" after "Harbor " (not the firm's words in turn),
    stay."""
    text = ('filed by Harbor Lane Capital Management, LP ("Harbor Lane"), and Park Lane. '
            "Harbor Management.")

    def span(value, at=0):
        start = text.index(value, at)
        return Span(start, start + len(value), "COMPANY", value, 0.9, "model")

    spans = [span("Harbor Lane Capital Management, LP"), span("Lane", text.index('"Harbor')),
             span("Lane", text.index("Park")), span("Management", text.index("Harbor Man"))]
    assert [s.text for s in every_mention(text, spans)] == [
        "Harbor Lane Capital Management, LP", "Harbor Lane", "Lane", "Management"]


def test_the_name_again_in_full_with_other_spacing():
    text = "Payee: Ann Lee.\nSigned,\nAnn\n  Lee"
    assert _added(text, [_name(text, "Ann Lee")]) == ["Ann\n  Lee"]


@pytest.mark.parametrize("name, text, expected", [
    ("Mara Lind", "Mara Lind. Then the Mara, and MARA LIND and mara.", ["Mara"]),
    ("Mara", "Mara. Then Mara again.", []),                   # one word: too often a word
    ("ben player", "ben player. then player, and ben player.", ["ben player"]),  # lower case
    ("Mr. A. Lee", "Mr. A. Lee. Mr. Smith, A. Lee and Lee.", ["A. Lee", "Lee"]),  # titles, initials
    ("Xiumin Ge", "Xiumin Ge. Ge went, Xiumin came.", ["Xiumin"]),  # two letters stand for nothing
    ("Sjolin HB", "Sjolin HB. HB paid Sjolin.", ["Sjolin"]),
    ("Ann Lee", "Ann Lee. Ann Lee2 paid.", ["Ann"]),  # the full form glued to a digit
    # an article or a preposition stands for nothing (the function-words record)
    ("The Mikado", "The Mikado opened. The critics loved Mikado.", ["Mikado"]),
    ("Van Morrison", "Van Morrison. Van sang with Morrison.", ["Van", "Morrison"]),
])
def test_which_parts_of_a_name_stand_for_it(name, text, expected):
    assert _added(text, [_name(text, name)]) == expected


def test_a_part_of_a_name_inside_a_contracts_term_is_not_a_mention():
    """The mention-terms record's probe: a party's surname inside a capitalised term
    ("Purchase Price", "Series A Bond", "Bond Indenture", "Price-based") is not the
    party; at a sentence's start, after a title or a possessive, before a lower-case word
    or in a table's cell it is, and the name in full is wherever it stands."""
    text = ("Agreement with Thomas Price. The Purchase Price is fixed. Price represents "
            "that he may sell. Series A Bond and the Bond Indenture, Price-based. "
            "Mr. Price agreed; Acme's Price signed; Director  Price  2026.\n"
            "Notice to Thomas Price Esq.")
    added = _added(text, [_name(text, "Thomas Price")])
    assert added == ["Price", "Price", "Price", "Price", "Thomas Price"]
    starts = [s.start for s in every_mention(text, [_name(text, "Thomas Price")])][1:]
    assert [text[a - 4:a] for a in starts] == ["ed. ", "Mr. ", "e's ", "or  ", " to "]


def test_a_firms_full_name_found_surely_is_masked_wherever_it_stands():
    """The firm-mentions record's probe, a press release: a firm's name of two words or
    more that ends in a firm's word, found surely (here by a recognizer, at its listing),
    is masked at every other mention; not a firm found unsurely, a one-word firm (too
    often a word: "Capital"), nor a place the model read as a firm (the record's
    amendment)."""
    text = ("About Meridian Payments\nMeridian Payments (NASDAQ: MRDP) serves merchants. "
            "Lee Holdings and Capital said so; Lee Holdings, Capital and Meridian Payments agree. "
            "Alice Springs, north of Alice Springs.")

    def firm(value, score, source="model"):
        start = text.index(value)
        return Span(start, start + len(value), "COMPANY", value, score, source)

    firms = [firm("Meridian Payments (", 1.0, "pattern"), firm("Lee Holdings", 0.6),
             firm("Capital", 0.99), firm("Alice Springs", 0.99)]
    firms[0] = Span(firms[0].start, firms[0].end - 2, "COMPANY", "Meridian Payments", 1.0,
                    "pattern")
    added = [s for s in every_mention(text, firms) if s not in firms]
    assert [(s.text, s.label, s.start) for s in added] == [
        ("Meridian Payments", "COMPANY", 6), ("Meridian Payments", "COMPANY", text.rindex("Meridian"))]


def test_unsure_names_and_other_groups_are_not_looked_for():
    text = "Ann Lee of Lee Holdings. Lee called."
    assert _added(text, [_name(text, "Ann Lee", 0.6)]) == []
    assert _added(text, [Span(11, 23, "COMPANY", "Lee Holdings", 0.99)]) == []
    assert _added(text, [_name(text, "Ann Lee")], allowed=lambda v: v == "Lee") == []


def test_a_firm_named_after_a_person_the_document_names_is_a_firm():
    """The founders-firms record's probe: a person's surname that starts a run of a firm's
    words ("Capital", "Partners LLC") is the firm named after them, masked as one; not
    where a capitalised word stands before the surname (a term's word), where a span
    starts inside the firm's words, for a given name ("Chase Bank" beside "Chase Miller")
    or where the allow-list keeps the surname in clear."""
    text = ("In 2019 Greensill Capital, founded by Lex Greensill, hired him; Greensill "
            "Partners LLC too. The Purchase Greensill Capital clause. Greensill Group plc. "
            "Lex Bank.")
    firm = Span(text.index("Group plc"), text.index("Group plc") + 9, "COMPANY", "Group plc", 0.99)
    added = every_mention(text, [_name(text, "Lex Greensill"), firm])
    assert [(s.text, s.label) for s in added if s.text != "Lex Greensill" and s is not firm] == [
        ("Greensill Capital", "COMPANY"), ("Greensill Partners LLC", "COMPANY")]
    kept = every_mention(text, [_name(text, "Lex Greensill")], allowed=lambda v: v == "Greensill")
    assert [s.text for s in kept] == ["Lex Greensill"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(["Ann", "Lee", "ann", "lee", "Ann Lee", "paid", ".", ",",
                                 "Lee's", "Lee2", "\n", "Dr"]), min_size=1, max_size=30))
def test_added_spans_are_whole_words_of_the_name_and_overlap_nothing(words):
    text = "Ann Lee " + " ".join(words)
    given = [_name(text, "Ann Lee")]
    out = every_mention(text, given)
    assert set(given) <= set(out) and out == sorted(out)
    for left, right in zip(out, out[1:]):
        assert left.end <= right.start
    for s in out:
        assert s.text == text[s.start:s.end] and s.label == "PERSON"
        assert re.fullmatch(r"Ann\s+Lee|Ann|Lee", s.text)
        assert not (s.start and text[s.start - 1].isalnum())
        assert not (s.end < len(text) and (text[s.end].isalnum() or text[s.end] == "_"))
    assert len(out) - 1 == len(re.findall(r"(?<!\w)(?:Ann\s+Lee|Ann|Lee)(?!\w)", text[8:]))


def _stub(redactor, spans_of):
    redactor.tagger.predict = lambda texts, *args, **kwargs: [spans_of(t) for t in texts]
    return redactor


def test_the_redactor_masks_every_mention_over_a_whole_document(tiny_redactor_dir):
    from bertforge.pii import Redactor
    from bertforge.pii.detector import SEGMENT

    filler = "The payment was made on time and nothing else happened. " * (SEGMENT // 40)
    text = "Payee: Ann Lee. " + filler + "Lee called again. Ann wrote."

    def found_by_model(part):  # the model finds the full name only, in its own segment
        return [_name(part, "Ann Lee")] if "Ann Lee" in part else []

    redactor = _stub(Redactor.load(tiny_redactor_dir, use_patterns=False), found_by_model)
    spans = redactor.detect(text, explain=True)
    assert [s.text for s in spans] == ["Ann Lee", "Lee", "Ann"]
    assert spans[1].start > SEGMENT and "another mention" in spans[1].explanation
    assert "Lee called" not in redactor.redact(text)
    without = _stub(Redactor.load(tiny_redactor_dir, use_patterns=False), found_by_model)
    without.mentions = False
    assert [s.text for s in without.detect(text)] == ["Ann Lee"]


def test_the_allow_list_keeps_a_part_of_a_name_in_clear(tiny_redactor_dir):
    from bertforge.pii import Redactor
    from bertforge.pii.policy import from_dict

    text = "Chase Miller paid. Chase Bank confirmed; Miller agreed."
    policy = from_dict({"allow": ["Chase"]})
    redactor = _stub(Redactor.load(tiny_redactor_dir, use_patterns=False, policy=policy),
                     lambda t: [_name(t, "Chase Miller")])
    assert [s.text for s in redactor.detect(text)] == ["Chase Miller", "Miller"]


def test_a_persons_name_in_capitals_read_as_a_firm_is_the_person():
    """The name-cases record's probe: a model COMPANY span that is, but for case and
    spacing, the full name of a person the model was sure of is that person; not a firm's
    name in full, not a name the model was unsure of, not one word of a name."""
    text = ("Reporting Person: ZHANG  WEIMIN. Charles Schwab Corp. and LI NA. Kincaid. "
            "Signed for Zhang Weimin; Charles Schwab Corp. writes; Li Na; Bo Kincaid.")

    def span(value, label, at=0, score=0.97):
        start = text.index(value, at)
        return Span(start, start + len(value), label, value, score, "model")

    firms = [span("ZHANG  WEIMIN", "COMPANY"), span("Charles Schwab Corp.", "COMPANY"),
             span("LI NA", "COMPANY"), span("Kincaid", "COMPANY")]
    people = [span("Zhang Weimin", "PERSON"), span("Charles Schwab Corp.", "PERSON", 60),
              span("Li Na", "PERSON", score=0.8), span("Bo Kincaid", "PERSON")]
    out = {(s.text, s.start): s.label for s in every_mention(text, firms + people)}
    # (the lone "Kincaid" is "Bo Kincaid"'s surname: the surnames-read-as-firms-retried
    # record's step makes it the person, not this record's)
    assert [out[s.text, s.start] for s in firms] == ["PERSON", "COMPANY", "COMPANY", "PERSON"]


def test_a_persons_name_in_capitals_read_in_two_pieces_is_the_person():
    """The parted-name-cases record's probe: a firm's span and a person's, only spaces
    between, that together are a sure person's full name in capitals are that person; not
    two across a line's end or a colon, nor where a recognizer found one of them, nor a
    name and the number beside it in a table (folded, its digits would go)."""
    text = ("Ebrahim Poonawala with Bank of America.\nEBRAHIM  POONAWALA: Good morning.\n"
            "EBRAHIM\nPOONAWALA. LI: NA spoke to Li Na. KOFI MENSAH met Kofi Mensah.\n"
            "Paid R Okafor:\nR OKAFOR      12-34-56   44021187")

    def span(value, label, at=0, source="model"):
        start = text.index(value, at)
        return Span(start, start + len(value), label, value, 0.97, source)

    pieces = [span("EBRAHIM", "COMPANY"), span("POONAWALA", "PERSON", 45),
              span("EBRAHIM", "COMPANY", 60), span("POONAWALA", "PERSON", 68),
              span("LI", "COMPANY"), span("NA", "PERSON", text.index("LI: ")),
              span("KOFI", "COMPANY", source="pattern"), span("MENSAH", "PERSON"),
              span("R OKAFOR", "PERSON"), span("12-34-56", "GOV_ID")]
    people = [span("Ebrahim Poonawala", "PERSON"), span("Li Na", "PERSON"),
              span("Kofi Mensah", "PERSON"), span("R Okafor", "PERSON")]
    out = [(s.text, s.label) for s in every_mention(text, pieces + people)
           if text.index("\n") < s.start and s.text[-1].isupper() or s.label == "GOV_ID"]
    assert out == [("EBRAHIM  POONAWALA", "PERSON"), ("EBRAHIM", "COMPANY"),
                   ("POONAWALA", "PERSON"), ("LI", "COMPANY"), ("NA", "PERSON"),
                   ("KOFI", "COMPANY"), ("MENSAH", "PERSON"), ("R OKAFOR", "PERSON"),
                   ("12-34-56", "GOV_ID")]


def test_a_surname_after_a_courtesy_title_stays_a_person_beside_the_firm_it_names():
    """The titled-first-words record's probe: "[Tran]" after "Ms." stays a person where
    the document names "Tran Family Nail Spa LLC" in full, and "[Okafor]" after "Dr." where
    "Okafor" alone is a firm elsewhere; the same words without a title are the firm's."""
    text = ("Application (Tran Family Nail Spa LLC): declined. Notify Ms. Tran. Tran pays late. "
            "Okafor wired it; Dr. Okafor signed.")

    def span(value, label, at=0):
        start = text.index(value, at)
        return Span(start, start + len(value), label, value, 0.97, "model")

    spans = [span("Tran Family Nail Spa LLC", "COMPANY"), span("Tran", "PERSON", 40),
             span("Tran", "PERSON", text.index("Tran pays")), span("Okafor", "COMPANY"),
             span("Okafor", "PERSON", text.index("Dr."))]
    assert [(s.text, s.label) for s in every_mention(text, spans)] == [
        ("Tran Family Nail Spa LLC", "COMPANY"), ("Tran", "PERSON"), ("Tran", "COMPANY"),
        ("Okafor", "COMPANY"), ("Okafor", "PERSON")]


def test_a_merchants_first_word_alone_is_the_merchant_its_trade_names():
    """The food-trades record's probe: a food trade's word ends a firm's name, so the
    firm's first word alone that the model read as a person is the firm ("Stripe payout
    to Northwind Bakery bounced ... I'll email Dana at Northwind")."""
    text = "The payout to Northwind Bakery bounced. I'll email Dana at Northwind."
    firm = text.index("Northwind Bakery")
    lone = text.index("Northwind.")
    spans = [Span(firm, firm + 16, "COMPANY", "Northwind Bakery", 0.99, "model"),
             Span(lone, lone + 9, "PERSON", "Northwind", 0.99, "model")]
    assert [s.label for s in every_mention(text, spans)] == ["COMPANY", "COMPANY"]


def test_a_double_barrelled_surname_of_a_person_stays_the_persons_beside_her_trust():
    """The hyphen-founders record's probe: "Oyelaran-Cole" alone, read as a person, is the
    first word of the "Oyelaran-Cole Family Trust" named in full, but also the whole
    surname of "Henrietta Oyelaran-Cole": it stays the person."""
    text = ("Henrietta Oyelaran-Cole holds shares via the Oyelaran-Cole Family Trust, of which "
            "Oyelaran-Cole is trustee.")

    def span(value, label, at=0):
        start = text.index(value, at)
        return Span(start, start + len(value), label, value, 0.97, "model")

    lone = span("Oyelaran-Cole", "PERSON", text.index("which"))
    spans = [span("Henrietta Oyelaran-Cole", "PERSON"),
             span("Oyelaran-Cole Family Trust", "COMPANY"), lone]
    assert [s.label for s in every_mention(text, spans) if s.start == lone.start] == ["PERSON"]


def test_a_one_word_name_in_lower_case_is_masked_where_it_is_no_word():
    """The lower-case-mentions record's probe: a chat's agent "Tamsin" (a recognizer's
    span) makes the customer's "thx tamsin" a name, after a capitalised word too; a name
    whose lower-case form is a word of the vocabulary ("Grace") does not make "grace"
    one, nor does an unsure name, a name the document writes only in lower case or in
    capitals, a name of two letters, or the name inside another word."""
    text = ("Agent (Tamsin): Hello, Deshawn will call.\nCustomer: thx tamsin, and grace to "
            "Grace, hi deshawn, tamsinx. Tj said hi to tj. zorblax and zorblax; ZELNIK, zelnik."
            "\nThanks tamsin")
    spans = [Span(7, 13, "PERSON", "Tamsin", 1.0, "pattern"), _name(text, "Grace"),
             _name(text, "Tj"), _name(text, "Deshawn", 0.5), _name(text, "zorblax"),
             _name(text, "ZELNIK")]
    assert _added(text, spans) == ["tamsin", "tamsin"]
    assert _added(text, spans[:1] + [replace(spans[3], score=0.95)]) == [
        "tamsin", "deshawn", "tamsin"]


def test_a_given_name_read_as_a_firm_is_the_person_the_document_names_in_full():
    """The given-names-read-as-firms record's probe, with the model's spans as it gave
    them: "[Oksana], can you chase" is the "Oksana Petrenko" the mail is from, whatever
    locale the name is from, and with the rest of the full name after it ("[Ben] Player
    and Mitchell Rawlins") it is the full name, but not where the name only starts alike
    ("Bo Li" ... "[Bo] Lin"); a firm's first word in the document ("Grace" beside "Grace
    Capital LLC") or a well-known firm's ("Morgan" of "Morgan Stanley"), a well-known firm
    ("Klarna"), and a given name right after the full name ("Ben Player [Ben]", a
    heading's repetition) stay firms."""
    text = ("From: Oksana Petrenko. Oksana, can you chase Halberd? Grace Capital LLC paid Grace "
            "Aranda; Grace said so. Morgan Freeman joined Morgan. Klarna Holm left Klarna. Ben "
            "Player Ben is champion - Ben Player and Mitchell Rawlins. Bo Li; Bo Lin.")

    def firm(value, at=0):
        return replace(_name(text, value, 0.73, at), label="COMPANY")

    spans = [_name(text, "Oksana Petrenko"), firm("Oksana", 10), firm("Grace Capital LLC"),
             _name(text, "Grace Aranda"), firm("Grace", text.index("Grace said")),
             _name(text, "Morgan Freeman"),
             firm("Morgan", text.index("joined")), _name(text, "Klarna Holm"),
             firm("Klarna", text.index("left")), _name(text, "Ben Player"),
             firm("Ben", text.index("Player Ben")), firm("Ben", text.index("- Ben")),
             _name(text, "Mitchell Rawlins"), _name(text, "Bo Li"),
             firm("Bo", text.index("Bo Lin"))]
    labels = [(s.text, s.label) for s in every_mention(text, sorted(spans))
              if s.label == "COMPANY" or s.text in ("Oksana", "Ben", "Ben Player", "Bo")]
    assert labels == [("Oksana", "PERSON"), ("Grace Capital LLC", "COMPANY"),
                      ("Grace", "COMPANY"), ("Morgan", "COMPANY"), ("Klarna", "COMPANY"),
                      ("Ben Player", "PERSON"), ("Ben", "COMPANY"), ("Ben Player", "PERSON"),
                      ("Bo", "PERSON")]
