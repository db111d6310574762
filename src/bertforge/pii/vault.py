"""A vault: the replacements of numbered and fake values kept in a local file, so that
text redacted without encryption tokens can still be restored.

With a vault, one value gets one pseudonym across every document redacted with it
("[PERSON_3]" is the same person in every letter, and so is a fake name), which is what
makes a round trip possible, and also what makes documents linkable: keep the vault as
secret as the key. The file is AES-GCM under a key derived from the policy's key
(`crypto.Key`), written whole or not at all; a vault opened with another key is an
error, never an empty vault.
"""

from __future__ import annotations

import json
import os
import re
import secrets
from pathlib import Path

from ..errors import BertforgeError
from ..files import atomic_file
from ..optional import require
from .crypto import Key

HEADER = b"bertforge-vault-1\n"


class Vault:
    def __init__(self, path: str | os.PathLike, key: Key):
        self.path, self.key = Path(path), key
        self.numbers: dict[str, int] = {}     # "GROUP\0canonical" -> its number
        self.counts: dict[str, int] = {}      # GROUP -> numbers given
        self.full: dict[str, str] = {}        # "GROUP\0operator\0canonical" -> replacement
        self.values: dict[str, str] = {}      # a replacement shown -> the value it hides
        if self.path.exists():
            self.load(self.path)

    def _cipher(self):
        aead = require("cryptography.hazmat.primitives.ciphers.aead", "the vault")
        return aead.AESGCM(self.key.derive("vault"))

    def load(self, path: str | os.PathLike) -> None:
        """Take the state kept in `path` (this vault's file, or a run's snapshot)."""
        exceptions = require("cryptography.exceptions", "the vault")
        raw = Path(path).read_bytes()
        if not raw.startswith(HEADER):
            raise BertforgeError(f"{path} is not a bertforge vault")
        body = raw[len(HEADER):]
        try:
            data = json.loads(self._cipher().decrypt(body[:12], body[12:], HEADER))
        except exceptions.InvalidTag:
            raise BertforgeError(f"the vault {path} does not open with {self.key.where}: "
                                 f"the wrong key, or the file was altered") from None
        self.numbers, self.counts = data["numbers"], data["counts"]
        self.full, self.values = data["full"], data["values"]

    def save(self, path: str | os.PathLike | None = None) -> None:
        """Write the state to this vault's file (or to `path`: a snapshot)."""
        path = Path(path) if path is not None else self.path
        data = json.dumps({"numbers": self.numbers, "counts": self.counts, "full": self.full,
                           "values": self.values}).encode()
        nonce = secrets.token_bytes(12)
        with atomic_file(path, text=False) as f:
            f.write(HEADER + nonce + self._cipher().encrypt(nonce, data, HEADER))
        os.chmod(path, 0o600)

    def number(self, group: str, canonical: str) -> int:
        slot = f"{group}\0{canonical.casefold()}"
        if slot not in self.numbers:
            self.counts[group] = self.counts.get(group, 0) + 1
            self.numbers[slot] = self.counts[group]
        return self.numbers[slot]

    def kept(self, group: str, canonical: str, operator: str) -> str | None:
        return self.full.get(f"{group}\0{operator}\0{canonical.casefold()}")

    def keep(self, group: str, canonical: str, operator: str, value: str, shown: str,
             full: str) -> None:
        self.full.setdefault(f"{group}\0{operator}\0{canonical.casefold()}", full)
        if shown != value:
            self.values.setdefault(shown, value)

    def restore(self, text: str) -> str:
        """The text with every replacement the vault holds turned back into its value
        (the longest first, so "[PERSON_12]" is not read as "[PERSON_1]")."""
        if not self.values:
            return text
        known = sorted(self.values, key=len, reverse=True)
        pattern = re.compile("|".join(re.escape(k) for k in known))
        return pattern.sub(lambda m: self.values[m.group()], text)
