"""Nothing lost, nothing leaked: the redactor's files and command line under hostile
input, faults and concurrency (issue 27). Most tests run the real CLI on a tiny random
model (`tiny_redactor_dir`): what they check does not depend on what a model finds."""

from __future__ import annotations

import io
import json
import os
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from bertforge.cli import main
from bertforge.errors import BertforgeError

CARD = "4111 1111 1111 1111"


def bertforge(*argv, **kwargs):
    return subprocess.run([sys.executable, "-m", "bertforge", *map(str, argv)],
                          capture_output=True, text=True, **kwargs)


def jsonl(path: Path, lines: list) -> Path:
    path.write_text("".join((l if isinstance(l, str) else json.dumps(l)) + "\n" for l in lines),
                    encoding="utf-8")
    return path


def one_line_error(stderr: str, expected: str) -> None:
    assert "Traceback" not in stderr, stderr
    errors = [line for line in stderr.splitlines() if line.startswith("bertforge: error:")]
    assert len(errors) == 1 and expected in errors[0], stderr


# ------------------------------------------------------------------ 1. concurrent writers
def test_two_runs_writing_one_output_never_mix(tiny_redactor_dir, tmp_path):
    a = jsonl(tmp_path / "a.jsonl", [{"id": f"a{i}", "text": f"card {CARD} row {i}"}
                                     for i in range(400)])
    b = jsonl(tmp_path / "b.jsonl", [{"id": f"b{i}", "text": f"pay IBAN DE89370400440532013000 {i}"}
                                     for i in range(400)])
    target = tmp_path / "s.jsonl"
    runs = [subprocess.Popen([sys.executable, "-m", "bertforge", "redact", "--jsonl", str(src),
                              "--out", str(target), "--model", str(tiny_redactor_dir)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for src in (a, b)]
    results = [(run.wait(timeout=300), run.stderr.read()) for run in runs]
    for code, err in results:
        assert code == 0 and "Traceback" not in err and "400 documents redacted" in err, err
    ids = [json.loads(line)["id"] for line in target.read_text().splitlines()]
    assert ids in ([f"a{i}" for i in range(400)], [f"b{i}" for i in range(400)])
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]


# ------------------------------------------------------------------ 2. CRLF, byte-faithful
@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(["Dear team,", "Pay Ann Lee", f"card {CARD}.", "", "  ",
                                 "IBAN DE89 3704 0044 0532 0130 00", "é ü 东京", "\t"]),
                min_size=1, max_size=6),
       st.sampled_from(["\r\n", "\n", "\r"]))
def test_files_are_read_and_redacted_byte_faithfully(tiny_redactor_dir, lines, newline):
    from bertforge.spans import Span
    from bertforge.pii.redact import redact

    text = newline.join(lines) + newline
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "doc.txt"
        path.write_bytes(text.encode("utf-8"))
        out = io.StringIO()
        sys_stdout, sys.stdout = sys.stdout, out
        try:
            assert main(["redact", "--format", "json", "--model", str(tiny_redactor_dir),
                         str(path)]) == 0
        finally:
            sys.stdout = sys_stdout
    [document] = json.loads(out.getvalue())
    spans = [Span(**s) for s in document["spans"]]
    assert all(text[s.start:s.end] == s.text for s in spans)
    # the output is the file's exact text with those spans replaced, "\r" and all
    assert document["redacted"] == redact(text, spans)


def test_crlf_offsets_count_the_carriage_return(tiny_redactor_dir, tmp_path, capsys):
    path = tmp_path / "c.txt"
    path.write_bytes(f"Dear team,\r\nPlease pay card {CARD}.\r\n".encode())
    assert main(["redact", "--format", "json", "--model", str(tiny_redactor_dir), str(path)]) == 0
    [document] = json.loads(capsys.readouterr().out)
    [card] = [s for s in document["spans"] if s["label"] == "CARD"]
    assert card["start"] == 28 and document["redacted"].count("\r\n") == 2


# ------------------------------------------------------------------ 5. one bad line
def test_a_bad_line_gets_its_error_and_the_rest_go_on(tiny_redactor_dir, tmp_path, capsys):
    source = tmp_path / "in.jsonl"
    nested = "[" * 100_000 + "]" * 100_000
    source.write_bytes(b"\xef\xbb\xbf" + (  # a byte-order mark before line 1 is no error
        json.dumps({"id": 1, "text": f"card {CARD}"}) + "\n" + nested + "\n"
        + '{"id": 3, "text": "lone \\ud800 surrogate"}\n'
        + json.dumps({"id": 1, "text": "the same id again"}) + "\n").encode())
    target = tmp_path / "out.jsonl"
    assert main(["redact", "--jsonl", str(source), "--out", str(target),
                 "--model", str(tiny_redactor_dir)]) == 2
    err = capsys.readouterr().err
    out = [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()]
    assert len(out) == 4 and out[0]["redacted"].endswith(" [CARD]") and "spans" in out[3]
    assert "nested too deeply" in out[1]["error"] and out[2]["id"] == 3
    assert "lone surrogate" in out[2]["error"] and "\ud800" not in target.read_text()
    assert "2 documents redacted, 2 lines with errors" in err and "Traceback" not in err
    assert "id(s) appear on more than one line" in err


# ------------------------------------------------------------------ 6. permissions
def test_an_output_is_never_more_readable_than_its_input(tiny_redactor_dir, tmp_path):
    source = jsonl(tmp_path / "in.jsonl", [{"text": f"card {CARD}"}])
    os.chmod(source, 0o600)
    target = tmp_path / "out.jsonl"
    args = ["redact", "--jsonl", str(source), "--out", str(target), "--model", str(tiny_redactor_dir)]
    assert main(args) == 0
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    os.chmod(source, 0o644)  # a rerun keeps the existing output's narrower mode
    assert main(args) == 0
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    target.unlink()
    assert main(args) == 0 and stat.S_IMODE(target.stat().st_mode) == 0o644 & ~_umask()


def _umask() -> int:
    current = os.umask(0o022)
    os.umask(current)
    return current


def test_saved_models_are_readable_by_others(tiny_redactor_dir, tmp_path):
    from bertforge import load_model, load_tokenizer, save_model

    saved = save_model(load_model(tiny_redactor_dir), load_tokenizer(tiny_redactor_dir),
                       tmp_path / "copy")
    assert stat.S_IMODE(saved.stat().st_mode) == 0o777 & ~_umask()
    for path in saved.iterdir():
        assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~_umask(), path


# ------------------------------------------------------------------ 7. clear errors, early
@pytest.mark.parametrize("out, expected", [("d", "is a directory"),
                                           ("f.txt/out.jsonl", "f.txt is a file")])
def test_an_unwritable_output_is_refused_before_any_work(out, expected, tmp_path,
                                                         monkeypatch, capsys):
    from bertforge.pii import Redactor

    source = jsonl(tmp_path / "in.jsonl", [{"text": "Ann Lee"}])
    (tmp_path / "d").mkdir()
    (tmp_path / "f.txt").write_text("x")
    out = tmp_path / out
    monkeypatch.setattr(Redactor, "load", classmethod(lambda *a, **k: pytest.fail("work done")))
    assert main(["redact", "--jsonl", str(source), "--out", str(out)]) == 2
    one_line_error(capsys.readouterr().err, expected)
    assert not [p for p in tmp_path.rglob(".*")]


def test_permission_errors_are_one_line_and_the_rest_go_on(tiny_redactor_dir, tmp_path,
                                                           monkeypatch, capsys):
    # as root nothing is unreadable, so the faults are injected where the OS reports them
    secret, good = tmp_path / "secret.txt", tmp_path / "good.txt"
    secret.write_text("Ann Lee")
    good.write_text(f"card {CARD}\n")
    real_read = Path.read_bytes

    def read_bytes(path):
        if path.name == "secret.txt":
            raise PermissionError(13, "Permission denied", str(path))
        return real_read(path)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    assert main(["redact", "--model", str(tiny_redactor_dir), str(secret), str(good)]) == 2
    captured = capsys.readouterr()
    assert "good.txt" in captured.out and "[CARD]" in captured.out and "4111" not in captured.out
    one_line_error(captured.err, "secret.txt: permission denied")
    (tmp_path / "ro").mkdir()
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **k: Path(p).name != "ro" and
                        real_access(p, mode, **k))
    source = jsonl(tmp_path / "in.jsonl", [{"text": "Ann Lee"}])
    assert main(["redact", "--jsonl", str(source), "--out", str(tmp_path / "ro" / "o.jsonl"),
                 "--model", str(tiny_redactor_dir)]) == 2
    one_line_error(capsys.readouterr().err, "no permission to write in")


def test_unreadable_inputs_and_stdin_errors_are_one_line(tiny_redactor_dir, tmp_path):
    loop_a, loop_b = tmp_path / "a", tmp_path / "b"
    loop_a.symlink_to(loop_b)
    loop_b.symlink_to(loop_a)
    good = tmp_path / "good.txt"
    good.write_text(f"card {CARD}\n")
    done = bertforge("redact", "--model", tiny_redactor_dir, loop_a, good)
    assert done.returncode == 2 and "[CARD]" in done.stdout
    one_line_error(done.stderr, "a loop of symbolic links")
    done = subprocess.run([sys.executable, "-m", "bertforge", "redact", "--model",
                           str(tiny_redactor_dir)], input=b"caf\xe9", capture_output=True)
    assert done.returncode == 2
    one_line_error(done.stderr.decode(), "standard input: not UTF-8")
    done = subprocess.run(f'exec "{sys.executable}" -m bertforge redact <&-', shell=True,
                          capture_output=True, text=True)
    assert done.returncode == 2
    one_line_error(done.stderr, "standard input is closed")


# ------------------------------------------------------------------ 12. small things
def test_dash_is_standard_input_and_threshold_zero_is_refused(tiny_redactor_dir, monkeypatch,
                                                              capsys):
    class Stdin(io.TextIOWrapper):
        pass

    monkeypatch.setattr(sys, "stdin", Stdin(io.BytesIO(f"card {CARD}\r\n".encode())))
    assert main(["redact", "--model", str(tiny_redactor_dir), "-"]) == 0
    out = capsys.readouterr().out
    assert out.endswith(" [CARD]\r\n") and "4111" not in out and "==>" not in out
    with pytest.raises(BertforgeError, match=r"probability in \(0, 1\]"):
        from bertforge.pii import Redactor
        Redactor.load(tiny_redactor_dir, threshold=0)


# ------------------------------------------------------------------ 3. never partly masked
def test_short_names_are_masked_and_scraps_are_not():
    from bertforge.spans import Span
    from bertforge.pii.tidy import tidy

    def spans(text, *marked):
        return [Span(text.index(w), text.index(w) + len(w), label, w) for w, label in marked]

    text = "Payee: Wu; Beneficiary: 王伟 paid; item 12 of 3, ask HR"
    found = tidy(text, spans(text, ("Wu", "PERSON"), ("王伟", "PERSON"), ("12", "ACCOUNT"),
                              ("3", "ACCOUNT"), ("HR", "COMPANY")))
    assert [s.text for s in found] == ["Wu", "王伟"]


def test_an_identifiers_letters_before_its_hyphen_are_masked_with_it():
    """The id-prefixes record's probe, with the model's span as it gave it: "-2291-774" of
    "Claim No. HX-2291-774" widened to the whole number, and "88213" of "88213-B", not
    into a name read after it; a
    name's and a date's spans that start at a hyphen, and a number before a spaced
    dash, are left as they were."""
    from bertforge.spans import Span
    from bertforge.pii.tidy import tidy

    text = "Claim No. HX-2291-774 for Al-Sayed, filed 2024-03-05."
    model = [Span(text.index("-2291"), text.index(" for"), "ACCOUNT", "-2291-774", 0.9),
             Span(text.index("-Sayed"), text.index(","), "PERSON", "-Sayed", 0.9),
             Span(text.index("-03-05"), text.index(".", text.index("-03")), "DATE", "-03-05", 0.9)]
    found = tidy(text, model)
    assert (found[0].text, found[0].label) == ("HX-2291-774", "ACCOUNT")
    call = "call ID 88213-B today; ref 4471 - ok"  # the amendment: the letters after, glued
    ids = [Span(call.index(v), call.index(v) + len(v), "ACCOUNT", v, 0.9) for v in ("88213", "4471")]
    assert [s.text for s in tidy(call, ids)] == ["88213-B", "4471"]
    # not into a name the model read after its slash (the slashed-names record: a UPI
    # payment's line); a number's letters after it, where no name was read, still are
    upi = "UPI/DR/431512009871/MEENA RAGHAVAN/9845012345@ybl 1,200.00; ref 4471/AB"
    read = [Span(upi.index(v), upi.index(v) + len(v), label, v, 0.9) for v, label in
            (("431512009871", "ACCOUNT"), ("MEENA RAGHAVAN", "PERSON"), ("4471", "ACCOUNT"))]
    assert [(s.text, s.label) for s in tidy(upi, read)] == [
        ("431512009871", "ACCOUNT"), ("MEENA RAGHAVAN", "PERSON"), ("4471/AB", "ACCOUNT")]
    # a long number whose start the model read as a phone number (the glued-numbers record)
    loan = "préstamo nº 0049-1182-55-2001234567 aprobado"
    start = loan.index("0049")
    phone = [Span(start, start + len("0049-1182-55-"), "PHONE", "0049-1182-55-", 0.9)]
    assert [s.text for s in tidy(loan, phone)] == ["0049-1182-55-2001234567"]
    # a phone number read from the bracket that closes its area code (the area-codes
    # record); a bracket after no code, and an account's, are left as they were
    tel = "meu telefone é (11) 98765-4321, ou ramal 12) 4455-6677; conta (12) 345-678"
    cut = [Span(tel.index(") 98765"), tel.index(","), "PHONE", ") 98765-4321", 0.9),
           Span(tel.index(") 4455"), tel.index(";"), "PHONE", ") 4455-6677", 0.9),
           Span(tel.index(") 345"), len(tel), "ACCOUNT", ") 345-678", 0.9)]
    assert [s.text for s in tidy(tel, cut)] == ["(11) 98765-4321", ") 4455-6677", ") 345-678"]
    assert found[1:] == tidy(text, model[1:])  # as they were without the number
    assert [s.text for s in found[1:]] == ["-Sayed", "-03-05"]


def test_a_value_split_between_labels_is_masked_whole():
    from bertforge.spans import Span
    from bertforge.pii.merge import merge
    from bertforge.pii.tidy import tidy
    from bertforge.pii.patterns import PatternMatch
    from bertforge.pii.redact import redact

    text = "Account No. 12-345678-90 at Chase"
    a = text.index("12")
    model = [Span(a, a + 9, "ACCOUNT", "12-345678", 0.99), Span(a + 9, a + 12, "BANK", "-90", 0.99)]
    found = tidy(text, model)
    assert [(s.text, s.label) for s in found] == [("12-345678-90", "ACCOUNT")]
    # a checked pattern that takes part of a model span takes the glued rest of the value
    text = "card 4111111111111111-07 ok"
    model = [Span(5, 24, "ACCOUNT", text[5:24], 0.99)]
    merged = merge(model, [PatternMatch(5, 21, "credit_card_number", True)], text)
    assert redact(text, merged) == "card [CARD] ok"


# ------------------------------------------------------------------ 8. absurd configs
def test_absurd_configs_are_counted_without_allocation_and_refused_at_load(minilm, tmp_path,
                                                                           capsys):
    import resource
    import shutil

    from bertforge import BertConfig

    big = BertConfig(num_hidden_layers=10**6)
    (tmp_path / "config.json").write_text(big.to_json())
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert main(["inspect", str(tmp_path / "config.json"), "--json"]) == 0
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    report = json.loads(capsys.readouterr().out)
    one = BertConfig(num_hidden_layers=1)
    (tmp_path / "config.json").write_text(one.to_json())
    assert main(["inspect", str(tmp_path / "config.json"), "--json"]) == 0
    single = json.loads(capsys.readouterr().out)
    per_layer = single["by_part"]["attention"] + single["by_part"]["feed-forward"]
    assert report["parameters"] == single["parameters"] + (10**6 - 1) * per_layer
    assert grown_mb < 200  # building a million layers, even on meta, takes gigabytes
    # a model directory with such a config is refused before its weights are read
    model = tmp_path / "model"
    shutil.copytree(minilm, model)
    for changes in ({"num_hidden_layers": 10**6}, {"vocab_size": 10**11},
                    {"intermediate_size": 10**10}, {"max_position_embeddings": 10**11}):
        config = json.loads((minilm / "config.json").read_text()) | changes
        (model / "config.json").write_text(json.dumps(config))
        assert main(["inspect", str(model)]) == 2
        one_line_error(capsys.readouterr().err, "GiB; this machine has")


def test_a_declared_model_draws_no_values_and_a_built_one_draws_berts(monkeypatch):
    """On the meta device (the memory check, `inspect`, `save_model`'s list of weights)
    a model is only declared: no initial values are drawn (drawing normal values there
    took most of a second of every command's start). On the CPU the tables hold BERT's
    normal(0, 0.02) values, the padding row zero."""
    import torch

    from bertforge import BertConfig
    from bertforge.blueprint import count_config
    from bertforge.model import Bert

    config = BertConfig(num_hidden_layers=1, hidden_size=64, intermediate_size=128,
                        num_attention_heads=2, vocab_size=4000)
    model = Bert(config)
    words = model.embeddings.words.weight.detach()
    assert abs(words[1:].std().item() - config.initializer_range) < 0.002
    assert not words[config.pad_token_id].any()

    def drawn(*args, **kwargs):
        raise AssertionError("a value was drawn for a declared model")

    monkeypatch.setattr(torch.Tensor, "normal_", drawn)
    assert count_config(config).parameters == sum(p.numel() for p in model.parameters())


# ------------------------------------------------------------------ 9. mismatched tokenizer
def test_a_tokenizer_that_does_not_fit_the_model_is_refused(tmp_path, capsys):
    import shutil

    from bertforge.pii.detector import BUNDLED
    from bertforge.tokenizer import Tokenizer

    model = tmp_path / "model"
    shutil.copytree(BUNDLED, model)
    (model / "vocab.txt").unlink()
    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    Tokenizer.from_vocab({t: i for i, t in enumerate(specials + ["ann", "lee"])}).save(model)
    document = tmp_path / "doc.txt"
    document.write_text("Please pay Ann Lee.\n")
    assert main(["redact", "--model", str(model), str(document)]) == 2
    captured = capsys.readouterr()
    assert "Ann Lee" not in captured.out
    one_line_error(captured.err, "the tokenizer has 7 tokens")


# ------------------------------------------------------------------ 10. training over a model
def test_training_into_a_used_directory_needs_overwrite(tmp_path, capsys):
    out = tmp_path / "model"
    out.mkdir()
    (out / "notes.txt").write_text("my notes")
    train = jsonl(tmp_path / "train.jsonl", [{"text": "Ann Lee paid.", "spans": [
        {"start": 0, "end": 7, "label": "PER"}]}])
    for argv in (["finetune", "tag", str(train), "--out", str(out), "--steps", "1"],
                 ["pii", "train", str(train), "--out", str(out), "--steps", "1"]):
        assert main(argv) == 2
        one_line_error(capsys.readouterr().err, "pass --overwrite")
    assert (out / "notes.txt").read_text() == "my notes"


def test_a_killed_save_leaves_no_temporaries_behind_the_next(tiny_redactor_dir, tmp_path):
    from bertforge import load_model, load_tokenizer, save_model

    model, tokenizer = load_model(tiny_redactor_dir), load_tokenizer(tiny_redactor_dir)
    target = tmp_path / "m"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()  # a finished process
    stale = [tmp_path / f".m.{dead}.abc.partial"]
    stale[0].mkdir()
    (stale[0] / "model.safetensors").write_bytes(b"half")
    mine = tmp_path / f".m.{os.getpid()}.xyz.partial"  # a live process's: not touched
    mine.mkdir()
    save_model(model, tokenizer, target)
    assert not stale[0].exists() and mine.exists()
    from bertforge.files import write_text

    write_text(tmp_path / "notes.txt", "x")  # a file's stale temporaries go the same way
    (tmp_path / f".notes.txt.{dead}.q.tmp").write_text("half")
    write_text(tmp_path / "notes.txt", "y")
    assert not (tmp_path / f".notes.txt.{dead}.q.tmp").exists()


# ------------------------------------------------------------------ 11. large documents
@settings(max_examples=200, deadline=None)
@given(sizes=st.lists(st.integers(0, 60), max_size=40), budget=st.integers(1, 100))
def test_pieces_are_grouped_in_order_within_the_budget(sizes, budget):
    """Many short documents share a model call; no group is over the budget unless it
    is one piece larger than the budget; every piece is in one group, in order."""
    from bertforge.pii.detector import _groups

    groups = _groups(sizes, budget)
    assert [k for a, b in groups for k in range(a, b)] == list(range(len(sizes)))
    for a, b in groups:
        assert b > a and (sum(sizes[a:b]) <= budget or b - a == 1)
    for (a, b), (c, _) in zip(groups, groups[1:]):  # closed only when the next did not fit
        assert sum(sizes[a:b]) + sizes[c] > budget


def test_a_long_document_goes_through_in_segments_and_loses_no_value():
    from bertforge.pii import Redactor
    from bertforge.pii.detector import MARGIN, SEGMENT, segments

    line = f"Paid card {CARD} and IBAN DE89 3704 0044 0532 0130 00 to ops@example.com today.\n"
    text = "x" * 5 + line * (8 * SEGMENT // len(line))  # cuts fall at line breaks
    pieces = segments(text)
    assert len(pieces) >= 7 and pieces[0][2] == 0 and pieces[-1][3] == len(text)
    assert all(a[3] == b[2] for a, b in zip(pieces, pieces[1:]))  # the cores tile the text
    assert all(end - start <= SEGMENT + 2 * MARGIN + MARGIN // 2 for start, end, _, _ in pieces)
    found = Redactor(None).detect(text)
    n = text.count(line)
    assert [s.label for s in found].count("CARD") == n and len(found) == 3 * n
    assert all(text[s.start:s.end] == s.text for s in found)
    assert all(a.end <= b.start for a, b in zip(found, found[1:]))
    # a text without a line break or a space to cut at is cut anyway, and a value that
    # straddles a cut is found once, whole, by the segment it starts in
    text = ("|" * (SEGMENT - 10) + "ops@example.com" + "|" * SEGMENT) * 3
    found = Redactor(None).detect(text)
    assert [(s.label, s.text) for s in found] == [("EMAIL", "ops@example.com")] * 3
    assert [s.start for s in found] == [i * (2 * SEGMENT + 5) + SEGMENT - 10 for i in range(3)]
