"""Small generated tasks for the fine-tuning tests: labels that only context decides."""

import random

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
