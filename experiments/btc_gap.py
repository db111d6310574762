"""The diagnosis of `docs/experiments/2026-12-06-first-subtokens.md`: where bertforge's
fine-tuning loses to `Trainer` on the Broad Twitter Corpus. Each arm trains once with
`fit` (the benchmark's recipe) and reads the validation and test splits; every model is
read as the benchmark reads `Trainer`'s (each word's first sub-token, "hf-first"), and
bertforge's taggers also by `Tagger.predict` with each pool.

    hfmodel     transformers' BertForTokenClassification trained by `fit` (first sub-token
                labels, rows padded, not packed)
    nativedrop  bertforge's model, first sub-token labels, PyTorch's own dropout mask
    first, all  bertforge's model with that labelling scheme (`train_tagger`)

    pip install -e '.[test,bench]'
    python experiments/btc_gap.py ARM [--corpus btc] [--seed 0]

(The step-for-step comparison of the loop with transformers' optimiser is a test:
`test_a_fine_tuning_run_is_transformers_optimiser_step_for_step`.)
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from finetune_vs_trainer import EPOCHS, MODEL, word_positions  # noqa: E402

ARMS = ("hfmodel", "nativedrop", "first", "all")


def read_as_trainer(model, examples, tags) -> list[list]:
    """Spans from each word's first sub-token, words split at spaces (the benchmark's
    reading of `Trainer`'s model)."""
    from transformers import BertTokenizerFast

    from bertforge.checkpoint import resolve
    from bertforge.finetune.tagging import to_spans
    from bertforge.spans import Span

    tokenizer = BertTokenizerFast.from_pretrained(resolve(MODEL))
    model.eval()
    out = []
    for k in range(0, len(examples), 32):
        chunk = examples[k:k + 32]
        enc = tokenizer([e["text"].split(" ") for e in chunk], is_split_into_words=True,
                        truncation=True, max_length=512, padding=True, return_tensors="pt")
        with torch.no_grad():
            best = model(input_ids=enc["input_ids"], token_type_ids=enc["token_type_ids"],
                         attention_mask=enc["attention_mask"]).logits.argmax(-1).numpy()
        for j, example in enumerate(chunk):
            positions, previous = word_positions(example["text"]), None
            word_tags = ["O"] * len(positions)
            for t, w in enumerate(enc.word_ids(j)):
                if w is not None and w != previous:
                    word_tags[w] = tags[best[j][t]]
                previous = w
            out.append([Span(positions[r.start][0], positions[r.end - 1][1], r.label)
                        for r in to_spans(word_tags)])
    return out


def train(arm: str, examples, labels, seed: int):
    """(model, tags, the tagger or None) of one arm."""
    from transformers import BertForTokenClassification

    from bertforge import model as network
    from bertforge.checkpoint import resolve
    from bertforge.finetune.fit import FitSettings, fit, start_task_model
    from bertforge.finetune.tagging import tag_names, tagging_features, train_tagger

    settings = FitSettings(epochs=EPOCHS, batch=16, lr=5e-5, warmup=0.1, weight_decay=0.01,
                           seed=seed, progress=False, pack=arm != "hfmodel")
    if arm in ("first", "all"):
        tagger = train_tagger(examples, MODEL, settings, labels=labels, subtokens=arm)
        return tagger.model, tagger.tags, tagger
    tags = tag_names(labels)
    ours, tokenizer, size, stride = start_task_model(MODEL, "token-classification", tags, 510,
                                                     384, seed)
    if arm == "hfmodel":
        torch.manual_seed(seed)
        model = BertForTokenClassification.from_pretrained(resolve(MODEL), num_labels=len(tags))
    else:
        model = ours
        network.dropout = lambda x, p, training: F.dropout(x, p, training)
    fit(model, tagging_features(tokenizer, examples, tags, size, stride, "first"), settings,
        tokenizer.pad_id)
    return model, tags, None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("arm", choices=ARMS)
    parser.add_argument("--corpus", default="btc")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    import transformers

    from bertforge.finetune.corpora import corpus_split
    from bertforge.finetune.examples import labels_of
    from bertforge.finetune.metrics import MICRO, span_scores

    transformers.logging.set_verbosity_error()
    examples = corpus_split(args.corpus, "train")
    started = time.perf_counter()
    model, tags, tagger = train(args.arm, examples, labels_of(examples), args.seed)
    print(f"{args.arm} {args.corpus} seed {args.seed}: trained in "
          f"{time.perf_counter() - started:.0f} s", flush=True)
    for split in ("validation", "test"):
        held = corpus_split(args.corpus, split)
        gold = [e["spans"] for e in held]
        f1 = {"hf-first": span_scores(gold, read_as_trainer(model, held, tags))[MICRO].f1}
        if tagger is not None:
            for precision in ("fp32", "auto"):
                for pool in ("first", "mean"):
                    found = tagger.predict([e["text"] for e in held], precision=precision,
                                           by="spaces", pool=pool)
                    f1[f"{precision}-{pool}"] = span_scores(gold, found)[MICRO].f1
        print(f"  {split}: " + ", ".join(f"{k} {v:.4f}" for k, v in f1.items()), flush=True)


if __name__ == "__main__":
    main()
