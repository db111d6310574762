"""A toy tagging task in which only context decides the label.

The same surnames appear as a PERSON ("Mr. Stone signed the form."), a COMPANY
("Stone Ltd. filed its annual report.") and as a plain noun ("The stone was left on
the table."); an uncased model cannot even use the capital letter. Used by the tests
and the README's fine-tuning example:

    python examples/toy_tagging.py out/toy     # train.jsonl, valid.jsonl, test.jsonl
"""

import json
import random
import sys
from pathlib import Path

NAMES = ["Rose", "Apple", "Stone", "Bell", "Wolf", "Fox", "Gold", "Hill", "Brook", "Frost",
         "Swift", "King", "Marsh", "Reed", "Lamb", "Bird", "Wood", "Moss", "Park", "Banks"]
PERSON = ["Mr. {} signed the form.", "Ms. {} called the branch yesterday.",
          "The loan officer, Dr. {}, approved it.", "Please ask Mrs. {} for the receipt.",
          "Our client Mr. {} moved to a new address."]
COMPANY = ["{} Ltd. filed its annual report.", "Shares of {} Corp fell sharply.",
           "We wired the deposit to {} Holdings.", "The invoice came from {} Inc. last week.",
           "{} Bank raised its rates."]
PLAIN = ["The {} was left on the table.", "A {} stood near the old fence.",
         "She painted a {} on the card.", "Nobody noticed the {} in the garden.",
         "They bought a small {} for the office."]


def tagging_document(rng: random.Random, sentences: int | None = None) -> dict:
    parts, spans, position = [], [], 0
    for _ in range(sentences or rng.randint(2, 4)):
        kind = rng.choice(["PERSON", "COMPANY", "PLAIN"])
        template = rng.choice({"PERSON": PERSON, "COMPANY": COMPANY, "PLAIN": PLAIN}[kind])
        name = rng.choice(NAMES)
        word = name if kind != "PLAIN" else name.lower()
        before = template.split("{}")[0]
        if kind != "PLAIN":
            start = position + len(before)
            spans.append({"start": start, "end": start + len(word), "label": kind})
        sentence = template.format(word)
        parts.append(sentence)
        position += len(sentence) + 1
    return {"text": " ".join(parts), "spans": spans}


def tagging_data(n: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    return [tagging_document(rng) for _ in range(n)]


def long_document(rng: random.Random, chars: int) -> dict:
    """Short documents joined into one long one, spans shifted along."""
    parts, spans, position = [], [], 0
    while len(" ".join(parts)) < chars:
        doc = tagging_document(rng, sentences=3)
        parts.append(doc["text"])
        spans += [{**s, "start": s["start"] + position, "end": s["end"] + position}
                  for s in doc["spans"]]
        position += len(doc["text"]) + 1
    return {"text": " ".join(parts), "spans": spans}


def write(directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    rng = random.Random(9)
    sets = {"train": tagging_data(300, 0) + [long_document(rng, 1500) for _ in range(20)],
            "valid": tagging_data(60, 2), "test": tagging_data(100, 1)}
    for name, records in sets.items():
        path = directory / f"{name}.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
        print(f"wrote {path} ({len(records)} documents)")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python examples/toy_tagging.py OUT_DIR")
    write(Path(sys.argv[1]))
