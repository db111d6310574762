"""The README's Python examples run, and print what their comments say they print."""

import contextlib
import io
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


@pytest.mark.model_output
def test_readme_python_blocks_print_what_they_claim(toy_tagger, tmp_path, monkeypatch):
    # what the README's shell commands made before its Python blocks run
    toy_tagger.save(tmp_path / "out" / "toy-tagger")
    monkeypatch.chdir(tmp_path)
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 3, "the README's Python examples went missing"
    for block in blocks:
        expected = [m.strip() for m in re.findall(r"^print\(.*\)\s+# (.*)$", block, re.M)]
        output = io.StringIO()
        with contextlib.redirect_stdout(output):
            exec(compile(block, str(README), "exec"), {})
        printed = [line.strip() for line in output.getvalue().splitlines()]
        for claim in expected:
            assert claim in printed, (claim, printed)


@pytest.mark.model_output
def test_readme_demo_prints_what_make_demo_prints(capsys, monkeypatch):
    from bertforge.cli import main

    root = README.parent
    shown = re.search(r"```\n\$ bertforge redact examples/documents/\*\.txt\n(.*?)\n\.\.\.\n```",
                      README.read_text(encoding="utf-8"), re.S)
    assert shown, "the README's demo output went missing"
    monkeypatch.chdir(root)
    files = sorted(str(p.relative_to(root)) for p in (root / "examples" / "documents").glob("*.txt"))
    assert main(["redact", *files]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith(shown.group(1) + "\n"), printed[:len(shown.group(1)) + 200]
