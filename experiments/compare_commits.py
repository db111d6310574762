"""The runs of the records whose change cannot be switched off by a patch (a join inside
`tidy`, a recognizer's new alternative): the redactor of one commit against another's,
set by set, on the bundled model.

    python experiments/compare_commits.py BEFORE [AFTER] [--split validation]

BEFORE and AFTER are commits (AFTER: the working tree). Each is checked out in a
temporary git worktree and scored in a process of its own (fp32), on the sets of
`mentions.SETS`; prints, for each set, the score that decides, the generator's groups
that moved, and every span that differs.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# run in the child, with the tree's `src` first on the path
SCORE = """
import json, sys
sys.path.insert(0, sys.argv[3])
from mentions import SETS
from bertforge.pii.dataset import marked_groups, read_documents
from bertforge.pii.detector import Redactor
from bertforge.pii.evaluate import scored
redactor = Redactor.load(None, precision="fp32")
out = {}
for name, source, as_documents, decides in SETS[sys.argv[1]]:
    documents = read_documents(source, split=sys.argv[1], conll_docs=as_documents)
    found = redactor.detect_batch([d["text"] for d in documents])
    scores = scored(documents, found, marked_groups(source))
    out[name] = {"decides": decides, "groups": {g: s.f1 for g, s in scores.items()},
                 "spans": [[[s.start, s.end, s.label, s.text] for s in f] for f in found]}
json.dump(out, open(sys.argv[2], "w"))
"""


def scores(tree: Path, split: str, work: Path, name: str) -> dict:
    path = work / f"{name}.json"
    # the tree's code, this checkout's data (the corpora lie beside it, not beside a worktree)
    from bertforge.finetune.corpora import corpora_root

    env = {**os.environ, "PYTHONPATH": str(tree / "src"), "BERTFORGE_CORPORA": str(corpora_root())}
    run = subprocess.run([sys.executable, "-c", SCORE, split, str(path),
                          str(ROOT / "experiments")], cwd=ROOT, env=env, capture_output=True,
                         text=True)
    if run.returncode:
        sys.exit(f"scoring {tree} failed:\n{run.stderr[-3000:]}")
    return json.loads(path.read_text())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before")
    parser.add_argument("after", nargs="?", help="default: the working tree")
    parser.add_argument("--split", choices=("validation", "test"), default="validation")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="compare-") as tmp:
        work, trees = Path(tmp), []
        for k, commit in enumerate((args.before, args.after)):
            if commit is None:
                trees.append(ROOT)
                continue
            tree = work / f"tree{k}"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach",
                            str(tree), commit], check=True)
            trees.append(tree)
        try:
            a, b = (scores(tree, args.split, work, f"run{k}") for k, tree in enumerate(trees))
        finally:
            for tree in trees:
                if tree != ROOT:
                    subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                                    str(tree)], check=False)
    for name in a:
        decides = a[name]["decides"]
        print(f"{name}: {decides} {a[name]['groups'][decides]:.4f} before, "
              f"{b[name]['groups'][decides]:.4f} after")
        moved = {g: (round(v, 4), round(b[name]["groups"].get(g, 0.0), 4))
                 for g, v in a[name]["groups"].items()
                 if name == "generator" and round(v, 4) != round(b[name]["groups"].get(g, 0.0), 4)}
        if moved:
            print("  groups that moved:", moved)
        for x, y in zip(a[name]["spans"], b[name]["spans"]):
            sx, sy = set(map(tuple, x)), set(map(tuple, y))
            for s in sorted(sx ^ sy):
                print(f"  {'after' if s in sy else 'before'}: {s[2]} {s[3]!r}")


if __name__ == "__main__":
    main()
