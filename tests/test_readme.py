"""The README's Python examples run, and print what their comments say they print."""

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_blocks_print_what_they_claim():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert blocks, "the README has no Python examples"
    for block in blocks:
        expected = [m.strip() for m in re.findall(r"^print\(.*\)\s+# (.*)$", block, re.M)]
        output = io.StringIO()
        with contextlib.redirect_stdout(output):
            exec(compile(block, str(README), "exec"), {})
        printed = [line.strip() for line in output.getvalue().splitlines()]
        for claim in expected:
            assert claim in printed, (claim, printed)
