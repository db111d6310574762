"""The redactor's model forward: bertforge in each precision against ONNX Runtime (fp32
and dynamic int8), side by side in one process, on the same windows in the same batches.

The windows are those `Redactor.detect_batch` makes of the same ~1,000-character test
documents as `bench/redact_speed.py`, cut into the same batches (sorted by length, at
most 4,096 padded tokens a pass on a CPU). The ONNX graph is `bertforge export onnx` of
the same model; its int8 version is ONNX Runtime's `quantize_dynamic` (int8 weights,
inputs quantised per call). Each path runs over every batch once to warm up, then
`--rounds` times in turn; the best pass counts. Prints real (non-padding) tokens/s and
each path's ratio to ONNX Runtime int8, the bar for CPU inference.

    pip install -e '.[bench]'
    python bench/forward_speed.py [--docs 200] [--rounds 3] [--model DIR]
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import tune_allocator  # noqa: E402
from redact_speed import documents, precision_note  # noqa: E402

from bertforge.compress import quantize_int8  # noqa: E402
from bertforge.export import export_onnx  # noqa: E402
from bertforge.finetune.fit import prediction_inputs  # noqa: E402
from bertforge.pii import Redactor  # noqa: E402
from bertforge.pii.detector import BUNDLED  # noqa: E402
from bertforge.training import autocast_for, cpu_has_bf16  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--model", help="default: the bundled model")
    args = parser.parse_args()
    tune_allocator()
    import onnxruntime as ort
    from onnxruntime.quantization import QuantType, quantize_dynamic

    texts = [r["generated_text"] for r in documents(args.docs)]
    tagger = Redactor.load(args.model, precision="fp32", use_patterns=False).tagger
    features = tagger.window_features(texts)[1]
    batches = [inputs for _, inputs in prediction_inputs(  # as the redactor pads them
        features, tagger.tokenizer.pad_id, torch.device("cpu"),
        limit=tagger.model.config.max_position_embeddings)]
    tokens = sum(len(f["input_ids"]) for f in features)
    padded = sum(b["input_ids"].numel() for b in batches)
    print(f"{len(texts)} documents, {len(features)} windows, {tokens:,} tokens in "
          f"{len(batches)} passes ({1 - tokens / padded:.1%} padding); {precision_note()}, "
          f"{torch.get_num_threads()} threads, torch {torch.__version__}, onnxruntime "
          f"{ort.__version__}")

    paths = {}

    def torch_path(model, precision):
        autocast = autocast_for(precision, torch.device("cpu"))[0]

        def run():
            with torch.inference_mode(), autocast():
                for b in batches:
                    model(**b)
        return run

    paths["bertforge fp32"] = torch_path(tagger.model, "fp32")
    if cpu_has_bf16():
        paths["bertforge bf16"] = torch_path(tagger.model, "bf16")
    paths["bertforge int8"] = torch_path(quantize_int8(tagger.model), "fp32")

    with tempfile.TemporaryDirectory(prefix="bench-onnx-") as tmp:
        export_onnx(args.model or BUNDLED, Path(tmp) / "fp32", head="token-classification")
        logging.getLogger().setLevel(logging.ERROR)  # its advice to pre-process, on the root logger
        quantize_dynamic(str(Path(tmp) / "fp32" / "model.onnx"), str(Path(tmp) / "int8.onnx"),
                         weight_type=QuantType.QInt8)
        for name, path in (("ONNX Runtime fp32", Path(tmp) / "fp32" / "model.onnx"),
                           ("ONNX Runtime int8", Path(tmp) / "int8.onnx")):
            options = ort.SessionOptions()
            options.intra_op_num_threads = torch.get_num_threads()
            session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
            feeds = [{k: b[k].numpy() for k in ("input_ids", "attention_mask", "token_type_ids")}
                     for b in batches]

            def run(session=session, feeds=feeds):
                for feed in feeds:
                    session.run(None, feed)
            paths[name] = run

        best = {}
        for name, run in paths.items():   # warm-up
            run()
            best[name] = float("inf")
        for _ in range(args.rounds):
            for name, run in paths.items():
                started = time.perf_counter()
                run()
                best[name] = min(best[name], time.perf_counter() - started)
    bar = tokens / best["ONNX Runtime int8"]
    print(f"\n{'path':<20}{'tokens/s':>10}{'vs ORT int8':>13}")
    for name, seconds in best.items():
        rate = tokens / seconds
        print(f"{name:<20}{rate:>10,.0f}{rate / bar:>12.2f}x")


if __name__ == "__main__":
    main()
