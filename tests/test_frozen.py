"""What is scored is frozen: the generator's validation and test splits are files with
checksums (bench/), so a change to the generator cannot move the sets a model is judged
on; the generator only writes training data and new splits on purpose."""

import gzip
import hashlib
from pathlib import Path

import pytest

from bertforge.pii.dataset import read_documents

BENCH = Path(__file__).resolve().parents[1] / "bench"
SPLITS = {"validation": 300, "test": 600}


def sums() -> dict[str, str]:
    rows = (line.split() for line in (BENCH / "SHA256SUMS").read_text().splitlines() if line)
    return {name: digest for digest, name in rows}


@pytest.mark.parametrize("split", SPLITS)
def test_a_frozen_split_is_the_file_its_checksum_names(split):
    name = f"pii_{split}.jsonl"
    data = gzip.decompress((BENCH / f"{name}.gz").read_bytes())
    assert hashlib.sha256(data).hexdigest() == sums()[name], \
        f"{name}.gz changed: a scored split is frozen; write a new one under a new name"


def test_the_frozen_splits_read_as_documents_of_unseen_types():
    from bertforge.pii.synth import TEST_TYPES, VALID_TYPES

    docs = {split: read_documents(str(BENCH / f"pii_{split}.jsonl.gz")) for split in SPLITS}
    assert {k: len(v) for k, v in docs.items()} == SPLITS
    assert {d["document_type"] for d in docs["test"]} <= set(TEST_TYPES)
    assert {d["document_type"] for d in docs["validation"]} <= set(VALID_TYPES)
    assert all(d["spans"] for d in docs["test"][:50])
