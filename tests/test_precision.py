"""The redactor's precision "auto": chosen by measurement on this machine, cached, shown
by `bertforge doctor`, and never a path that finds other spans than fp32 on the
calibration text."""

from __future__ import annotations

import json

import pytest
import torch

from bertforge.cli import main
from bertforge.errors import BertforgeError
from bertforge.pii import Redactor
from bertforge.pii import precision as P


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("BERTFORGE_CACHE", str(tmp_path))
    monkeypatch.delenv(P.PINNED, raising=False)
    return tmp_path / "precision.json"


@pytest.fixture(scope="module")
def tiny(tiny_redactor_dir):
    return Redactor.load(tiny_redactor_dir, precision="fp32")


class Stub:
    """A measurement that says what the test wants and counts its calls."""

    def __init__(self, seconds: dict, disagree=()):
        self.seconds, self.disagree, self.calls = seconds, set(disagree), 0

    def __call__(self, redactor, names):
        self.calls += 1
        return ({n: self.seconds[n] for n in names},
                {n: n not in self.disagree for n in names}, 1000)


def names():
    found = P.candidates(torch.device("cpu"))
    if len(found) < 2:
        pytest.skip("only fp32 runs on this CPU: nothing to choose")
    return found


def test_the_fastest_path_that_agrees_with_fp32_is_chosen_and_cached(tiny, cache):
    paths = names()
    seconds = {"fp32": 3.0, "bf16": 1.0, "int8": 2.0}
    stub = Stub(seconds, disagree={"bf16"})
    choice = P.choose(tiny, measure=stub)
    agreeing = [n for n in paths if n != "bf16"]
    assert choice.precision == min(agreeing, key=seconds.get)
    assert choice.precision != "bf16"       # faster, but it changed the spans
    assert not choice.cached and stub.calls == 1
    again = P.choose(tiny, measure=stub)    # read back, not measured again
    assert again.precision == choice.precision and again.cached and stub.calls == 1
    assert again.seconds == choice.seconds and again.agrees == choice.agrees
    P.choose(tiny, measure=stub, remeasure=True)
    assert stub.calls == 2
    assert "chosen: " + choice.precision in "\n".join(again.describe())


def test_the_cache_is_per_kernel_limits_and_survives_a_broken_file(tiny, cache, monkeypatch):
    names()
    stub = Stub({"fp32": 1.0, "bf16": 2.0, "int8": 3.0})
    assert P.choose(tiny, measure=stub).precision == "fp32"
    monkeypatch.setenv("ONEDNN_MAX_CPU_ISA", "SSE41")  # another machine, as far as speed goes
    P.choose(tiny, measure=stub)
    assert stub.calls == 2 and len(json.loads(cache.read_text())) == 2
    entries = json.loads(cache.read_text())
    cache.write_text(json.dumps({k: {"choice": {"speed": 1}} for k in entries}))  # other shape
    assert P.choose(tiny, measure=stub).precision == "fp32" and stub.calls == 3
    cache.write_text("{ half a file")
    assert P.choose(tiny, measure=stub).precision == "fp32" and stub.calls == 4
    assert len(json.loads(cache.read_text())) == 1    # measured again and rewritten whole


def test_a_pinned_precision_is_used_without_measuring(tiny, cache, monkeypatch):
    stub = Stub({"fp32": 1.0, "bf16": 1.0, "int8": 1.0})
    monkeypatch.setenv(P.PINNED, "int8")
    assert P.choose(tiny, measure=stub).precision == "int8" and stub.calls == 0
    monkeypatch.setenv(P.PINNED, "int4")
    with pytest.raises(BertforgeError, match="BERTFORGE_PRECISION='int4'"):
        P.choose(tiny, measure=stub)


@pytest.mark.model_output
def test_auto_on_the_bundled_model_finds_what_fp32_finds(cache):
    """The real measurement: whatever "auto" picks here redacts the calibration text as
    fp32 does, and a second redactor reads the choice from the cache."""
    auto = Redactor.load()
    choice = auto.choice
    assert choice is not None and choice.precision in P.candidates(torch.device("cpu"))
    assert choice.agrees[choice.precision] and choice.agrees["fp32"]
    assert set(choice.seconds) == set(P.candidates(torch.device("cpu")))
    fp32 = Redactor.load(precision="fp32")
    assert [[s.key for s in d] for d in auto.detect_batch(P.CALIBRATION)] == \
        [[s.key for s in d] for d in fp32.detect_batch(P.CALIBRATION)]
    assert Redactor.load().choice.cached


def test_doctor_prints_the_machine_and_the_choice(tiny_redactor_dir, cache, capsys):
    assert main(["doctor", "--model", str(tiny_redactor_dir)]) == 0
    out = capsys.readouterr().out
    assert "CPU " in out and "threads" in out and str(cache) in out
    assert "chosen: " in out and "fp32 " in out and "from the cache" not in out
    assert main(["doctor", "--model", str(tiny_redactor_dir)]) == 0
    assert "from the cache" in capsys.readouterr().out


def test_a_redactor_in_int8_can_still_run_in_fp32(tiny_redactor_dir):
    """`running_in` makes every precision from the model handed in, not from the
    quantised copy (the benchmark compares a faster path's F1 with fp32's that way)."""
    from bertforge.compress import is_quantized

    int8 = Redactor.load(tiny_redactor_dir, precision="int8")
    fp32 = int8.running_in("fp32")
    assert int8.runs_in == "int8" and is_quantized(int8.tagger.model)
    assert fp32.runs_in == "fp32" and not is_quantized(fp32.tagger.model)
    assert int8.running_in("int8").runs_in == "int8" and int8.runs_in == "int8"
