"""Names in lists, for training: the results tables, scorecards, scorer lines and credits of
news and reference text, where a name stands between numbers, brackets and countries with
no sentence around it ("Wasim Akram b Harris 4", "( Kluivert 12 , Litmanen 45 )").

A tagger that learned names from sentences, forms and tweets reads such a line as numbers
and leaves its names in clear; the public corpora it learns from hold few of them. Each
document is one news item's list, written either as running text or in the spaced style
of tokenized news corpora ("( Sweden ) ,"), with names from many locales; countries,
cities, times and scores are plain text. The layouts here are a few of news's; others
(tennis, golf, line-ups, box scores, racing) are left to `bench/pii_listings.txt`, which
measures whether what is learned here carries over to them. Written in Gretel's schema,
like `synth.generate`, and as deterministic by seed.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

from .synth import write_rows
from .synth.values import LOCALES, Doc, Values

# more of the world's names than the documents' locales: sport is international
NAME_LOCALES = LOCALES + ["cs_CZ", "hu_HU", "ro_RO", "fi_FI", "no_NO", "hr_HR", "en_NZ", "id_ID",
                          "zu_ZA", "yo_NG", "tw_GH", "en_PK", "sk_SK", "sl_SI", "en_TH"]
COUNTRIES = ["Britain", "U.S.", "Kenya", "Ethiopia", "Jamaica", "Germany", "France", "Italy",
             "Spain", "Australia", "New Zealand", "South Africa", "India", "Pakistan",
             "Sri Lanka", "Japan", "China", "Russia", "Ukraine", "Poland", "Norway", "Sweden",
             "Finland", "Denmark", "Netherlands", "Belgium", "Portugal", "Brazil", "Argentina",
             "Mexico", "Canada", "Nigeria", "Morocco", "Ireland", "Romania", "Hungary",
             "Czech Republic", "Croatia", "Zimbabwe", "West Indies", "Cuba", "Turkey"]
CITIES = ["London", "Zurich", "Oslo", "Rome", "Brussels", "Monaco", "Berlin", "Paris",
          "Stockholm", "Madrid", "Lahore", "Colombo", "Perth", "Leeds", "Lisbon", "Vienna",
          "Barnsley", "Leicester", "Utrecht", "Bologna", "Lyon", "Porto", "Glasgow", "Dublin"]
EVENTS = ["100 metres", "200 metres", "800 metres", "1,500 metres", "5,000 metres",
          "400 metres hurdles", "high jump", "long jump", "javelin", "shot put",
          "100 metres freestyle", "200 metres butterfly", "slalom", "downhill"]
INSTRUMENTS = ["vocals", "guitar", "bass", "drums", "keyboards", "piano", "saxophone",
               "violin", "trumpet", "percussion"]
CREDITS = ["Directed by", "Produced by", "Written by", "Music by", "Edited by",
           "Cinematography by", "Executive producer"]


class _Style:
    """Punctuation as running text writes it ("Lee (Kenya), ...") or as tokenized news
    corpora do ("Lee ( Kenya ) , ...")."""

    def __init__(self, spaced: bool):
        self.spaced = spaced
        self.comma = " , " if spaced else ", "
        self.semi = " ; " if spaced else "; "
        self.colon = " : " if spaced else ": "
        self.stop = " ." if spaced else "."

    def paren(self, inner: str) -> str:
        return f"( {inner} )" if self.spaced else f"({inner})"


def _surname(v: Values) -> str:
    last = v.fake.last_name()
    return last.upper() if v.upper_names else last


def _person(doc: Doc, v: Values) -> str:
    """A full name (sometimes a bare surname) added to the document; returns its surname
    for a later mention."""
    if v.rng.random() < 0.2:
        last = _surname(v)
        doc.pii("last_name", last)
        return last
    doc.pii("name", v.name(v.rng.choice(["full", "full", "full", "initial"])))
    return v.people[-1][1].upper() if v.upper_names else v.people[-1][1]


def _heading(doc: Doc, s: _Style, v: Values, sport: str, what: str) -> None:
    doc.add(f"{sport} - {what.upper()}{s.stop}\n")
    if v.rng.random() < 0.6:
        doc.add(f"{v.rng.choice(CITIES).upper()} ").pii("date", v.date()).add("\n")


def results(doc: Doc, v: Values, s: _Style) -> None:
    """Numbered finishers with their countries and times or marks."""
    rng = v.rng
    event = rng.choice(EVENTS)
    _heading(doc, s, v, rng.choice(["ATHLETICS", "SWIMMING", "SKIING"]),
             f"results at {rng.choice(CITIES)} meeting")
    doc.add(f"{rng.choice(['Men', 'Women'])} 's {event}{s.colon}" if s.spaced
            else f"{rng.choice(['Men', 'Women'])}'s {event}{s.colon}")
    one_line = rng.random() < 0.5
    for k in range(1, rng.randrange(3, 9)):
        doc.add(("" if k == 1 else " ") if one_line else "\n").add(f"{k}. ")
        _person(doc, v)
        doc.add(f" {s.paren(rng.choice(COUNTRIES))} {rng.randrange(9, 60)}.{rng.randrange(100):02d}")
    doc.add("\n")


def scorers(doc: Doc, v: Values, s: _Style) -> None:
    """Football results with the scorers' surnames and minutes, and a "Scorers:" line."""
    rng = v.rng
    _heading(doc, s, v, "SOCCER", f"{rng.choice(COUNTRIES)} first division results")
    for _ in range(rng.randrange(1, 5)):
        for side in range(2):
            goals = rng.randrange(0, 4)
            doc.add(f"{rng.choice(CITIES)} {goals}")
            if goals:
                doc.add(" ( " if s.spaced else " (")
                for g in range(goals):
                    doc.add(s.comma if g else "").pii("last_name", _surname(v))
                    doc.add(f" {rng.randrange(1, 91)}" + rng.choice(["", "", " pen"]))
                doc.add(" )" if s.spaced else ")")
            doc.add(" " if side == 0 else "\n")
    if rng.random() < 0.6:
        doc.add(f"Scorers{s.colon}")
        for g in range(rng.randrange(1, 4)):
            doc.add(s.comma if g else "")
            _person(doc, v)
            doc.add(f" {rng.randrange(1, 91)}")
        doc.add(f"\nAttendance{s.colon}{rng.randrange(2, 60)},{rng.randrange(1000):03d}\n")


def scorecard(doc: Doc, v: Values, s: _Style) -> None:
    """A cricket innings: each batsman's dismissal names the fielder and the bowler."""
    rng = v.rng
    home, away = rng.sample(COUNTRIES, 2)
    _heading(doc, s, v, "CRICKET", f"{home} v {away} scoreboard")
    doc.add(f"{home} first innings\n")
    bowlers = [_surname(v) for _ in range(4)]
    for _ in range(rng.randrange(3, 9)):
        _person(doc, v)
        how = rng.random()
        if how < 0.35:
            doc.add(" c ").pii("last_name", _surname(v)).add(" b ").pii("last_name", rng.choice(bowlers))
        elif how < 0.5:
            doc.add(" lbw b ").pii("last_name", rng.choice(bowlers))
        elif how < 0.6:
            doc.add(" st ").pii("last_name", _surname(v)).add(" b ").pii("last_name", rng.choice(bowlers))
        elif how < 0.8:
            doc.add(" b ").pii("last_name", rng.choice(bowlers))
        else:
            doc.add(rng.choice([" run out", " not out"]))
        doc.add(f" {rng.randrange(0, 120)}" + (s.comma.rstrip() + "\n" if rng.random() < 0.3 else "\n"))
    doc.add(f"Extras {s.paren(f'lb {rng.randrange(1, 9)}{s.comma}w {rng.randrange(0, 5)}')} "
            f"{rng.randrange(1, 20)}\nTotal {s.paren(f'for {rng.randrange(3, 10)} wickets')} "
            f"{rng.randrange(150, 400)}\n")
    if rng.random() < 0.7:
        doc.add(f"Bowling{s.colon}")
        for k, bowler in enumerate(bowlers):
            doc.add(s.comma if k else "").pii("last_name", bowler)
            doc.add(f" {rng.randrange(5, 25)}-{rng.randrange(0, 6)}-{rng.randrange(20, 90)}-"
                    f"{rng.randrange(0, 5)}")
        doc.add("\n")


def credits(doc: Doc, v: Values, s: _Style) -> None:
    """A band's line-up with instruments, or a film's credits."""
    rng = v.rng
    if rng.random() < 0.5:
        doc.add(rng.choice(["Personnel", "Band members", "Line-up"]) + s.colon)
        for k in range(rng.randrange(2, 6)):
            doc.add(s.semi if k else "")
            if rng.random() < 0.3:
                doc.pii("first_name", v.first_name())
            else:
                _person(doc, v)
            doc.add(" " + s.paren(rng.choice(INSTRUMENTS)))
        doc.add("\n")
        return
    for label in rng.sample(CREDITS, rng.randrange(2, 5)):
        doc.add(f"{label} ")
        _person(doc, v)
        doc.add(s.stop + rng.choice([" ", "\n"]))


LAYOUTS = [results, scorers, scorecard, credits]


def generate_listings(n: int, seed: int = 0) -> list[dict]:
    """n documents of names in lists in Gretel's schema, deterministic by seed."""
    rows = []
    for i in range(n):
        rng = random.Random(f"listings/{seed}/{i}")
        v = Values(rng, rng.choice(NAME_LOCALES))
        doc = Doc()
        layout = LAYOUTS[i % len(LAYOUTS)]
        layout(doc, v, _Style(spaced=rng.random() < 0.5))
        rows.append(doc.row("news listing", "train", f"listings/{layout.__name__}"))
    return rows


def write_listings(path: str | os.PathLike, n: int, seed: int = 0) -> Path:
    """Write `generate_listings(n, seed)` as JSONL (atomically)."""
    return write_rows(path, generate_listings(n, seed))
