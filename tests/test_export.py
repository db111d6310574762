"""`bertforge export onnx`: every head as an ONNX graph that ONNX Runtime runs to 1e-4
of PyTorch on batches of any size and length; a graph that fails its check is never
written."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from bertforge import load_model, load_tokenizer
from bertforge.cli import main
from bertforge.errors import BertforgeError

ort = pytest.importorskip("onnxruntime")
pytest.importorskip("onnxscript")

from bertforge import export  # noqa: E402

# other lengths and another batch size than the export's own check
TEXTS = ["Ann Lee paid £1,250 to Brightwater Joinery Ltd. on 3 May 2024 " * 3,
         "a", "東京 contract signed by Eufemia Gordillo-Pagès 👍", "We sat on the river bank."]


@pytest.mark.parametrize("head", [None, "masked-lm", "pretraining", "token-classification",
                                  "sequence-classification"])
def test_every_head_runs_in_onnx_runtime_as_in_pytorch(tiny_dirs, tmp_path, head):
    report = export.export_onnx(tiny_dirs[head], tmp_path / "out")
    assert report.outputs == export.output_names(head) and report.largest_difference < 1e-4
    out = tmp_path / "out"
    assert (out / "model.onnx").is_file() and not list(out.glob("*.safetensors"))
    assert json.loads((out / "config.json").read_text())  # a reader has the config,
    tokenizer = load_tokenizer(out)                        # and the tokenizer beside it
    batch = tokenizer(TEXTS, padding=True)
    session = ort.InferenceSession(str(out / "model.onnx"), providers=["CPUExecutionProvider"])
    got = session.run(None, {name: getattr(batch, name).numpy() for name in export.INPUTS})
    model = load_model(tiny_dirs[head], head=head).eval()
    with torch.no_grad():
        want = model(batch.input_ids, token_type_ids=batch.token_type_ids,
                     attention_mask=batch.attention_mask)
    real = batch.attention_mask.bool().numpy()
    for name, array in zip(report.outputs, got):
        expected = getattr(want, name).numpy()
        assert array.shape == expected.shape, name
        gap = np.abs(array - expected)
        gap = gap[real] if gap.shape[:2] == real.shape else gap
        assert gap.max() < 1e-4, (name, gap.max())


def test_a_graph_that_fails_its_check_is_not_written(tiny_dirs, tmp_path, monkeypatch):
    monkeypatch.setattr(export, "TOLERANCE", 0.0)   # no graph can pass
    with pytest.raises(BertforgeError, match="differs from PyTorch"):
        export.export_onnx(tiny_dirs["token-classification"], tmp_path / "out")
    assert not (tmp_path / "out").exists() and not list(tmp_path.iterdir())


def test_the_cli_exports_and_keeps_an_existing_directory(tiny_dirs, tmp_path, capsys):
    out = tmp_path / "onnx"
    assert main(["export", "onnx", str(tiny_dirs["token-classification"]), str(out)]) == 0
    assert "largest difference" in capsys.readouterr().out
    stamp = (out / "model.onnx").stat().st_mtime_ns
    assert main(["export", "onnx", str(tiny_dirs["token-classification"]), str(out)]) == 2
    assert "--overwrite" in capsys.readouterr().err
    assert (out / "model.onnx").stat().st_mtime_ns == stamp
    assert main(["export", "onnx", str(tiny_dirs["token-classification"]), str(out),
                 "--overwrite"]) == 0
