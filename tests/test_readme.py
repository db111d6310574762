"""The manual's Python examples (the README and its pages in docs/) run, and print what
their comments say they print."""

import contextlib
import io
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
MANUAL = [README, *sorted((README.parent / "docs").glob("*.md"))]


@pytest.mark.model_output
def test_readme_python_blocks_print_what_they_claim(toy_tagger, tmp_path, monkeypatch):
    # what the README's shell commands made before its Python blocks run
    toy_tagger.save(tmp_path / "out" / "toy-tagger")
    monkeypatch.chdir(tmp_path)
    blocks = [(page, block) for page in MANUAL
              for block in re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S)]
    assert len(blocks) >= 4, "the manual's Python examples went missing"
    assert len({page for page, _ in blocks}) >= 3
    for page, block in blocks:
        expected = [m.strip() for m in re.findall(r"^print\(.*\)\s+# (.*)$", block, re.M)]
        output = io.StringIO()
        with contextlib.redirect_stdout(output):
            exec(compile(block, str(page), "exec"), {})
        printed = [line.strip() for line in output.getvalue().splitlines()]
        for claim in expected:
            assert claim in printed, (page.name, claim, printed)


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


def test_the_manuals_links_lead_somewhere():
    """Every relative link in the README and its pages names a file that exists (the
    pages moved out of the README, so their links were rewritten)."""
    broken = []
    for page in [*MANUAL, README.parent / "docs" / "experiments" / "README.md",
                 README.parent / "src" / "bertforge" / "pii" / "model" / "README.md"]:
        for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8")):
            if not (page.parent / target).exists():
                broken.append(f"{page.relative_to(README.parent)}: {target}")
    assert not broken, broken
