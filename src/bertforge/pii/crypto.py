"""Keys, keyed hashes and reversible tokens for the policy's `hash` and `encrypt`.

One secret (a key file or an environment variable, at least 16 bytes) is stretched by
HKDF-SHA256 into a separate key for each use, so a hash never reveals anything about
the encryption key and the other way round. `encrypt` is AES-SIV (RFC 5297, from the
`cryptography` package): deterministic, so one value gives one token under one key and
a reader can still tell that two mentions are the same, and authenticated, so a token
altered, or given to the wrong key, fails loudly instead of decrypting to garbage. The
group is bound to the token as associated data: a token relabelled by hand fails too.

A token reads `[[PERSON:...]]`: the group, then the ciphertext in lower-case base32, so
it survives a language model that rewrites the text around it (and one that upper-cases
it). `restore` turns tokens back into values wherever they stand.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import BertforgeError
from ..optional import require

LEAST = 16  # bytes of key material
TOKEN = re.compile(r"\[\[([A-Z][A-Z_]*):([a-z2-7]{26,})\]\]", re.I)


@dataclass(frozen=True)
class Key:
    """Key material and where it came from (`where` is shown; the bytes never are)."""
    material: bytes = field(repr=False)
    where: str = "a key given in code"

    def derive(self, purpose: str, size: int = 32) -> bytes:
        return _derive(self.material, purpose, size)


@functools.lru_cache(maxsize=64)
def _derive(material: bytes, purpose: str, size: int) -> bytes:
    """HKDF-SHA256 of the material for one purpose; cached, since every span hashed or
    encrypted asks for the same few keys."""
    hkdf = require("cryptography.hazmat.primitives.kdf.hkdf", "hash and encrypt")
    hashes = require("cryptography.hazmat.primitives.hashes", "hash and encrypt")
    return hkdf.HKDF(algorithm=hashes.SHA256(), length=size, salt=None,
                     info=f"bertforge {purpose}".encode()).derive(material)


def key_from(file: str | os.PathLike | None = None, env: str | None = None) -> Key:
    """The key in a file (`head -c 32 /dev/urandom > redact.key`) or an environment
    variable; at least 16 bytes either way."""
    if (file is None) == (env is None):
        raise BertforgeError("a key comes from a file or an environment variable: give one")
    if file is not None:
        try:
            material = Path(file).read_bytes().strip()
        except OSError as error:
            raise BertforgeError(f"cannot read the key file {file}: {error.strerror}") from None
        where = f"the key file {file}"
    else:
        if env not in os.environ:
            raise BertforgeError(f"the environment variable {env} holds no key; set it to 16 "
                                 f"or more random characters")
        material, where = os.environ[env].encode(), f"the environment variable {env}"
    if len(material) < LEAST:
        raise BertforgeError(f"{where} holds {len(material)} bytes; a key needs at least "
                             f"{LEAST} (make one with: head -c 32 /dev/urandom > redact.key)")
    return Key(material, where)


def keyed_hash(key: Key, group: str, value: str, length: int = 16) -> str:
    """HMAC-SHA256 of the value under the key's hashing key, in hex, cut to `length`."""
    digest = hmac.new(key.derive("hash"), f"{group}\x00{value}".encode("utf-8", "surrogatepass"),
                      hashlib.sha256).hexdigest()
    return digest[:length]


def _siv(key: Key):
    aead = require("cryptography.hazmat.primitives.ciphers.aead", "encrypt")
    return aead.AESSIV(key.derive("encrypt", 64))


def encrypt(key: Key, group: str, value: str) -> str:
    """The value as a token `[[GROUP:base32]]` (deterministic, authenticated)."""
    sealed = _siv(key).encrypt(value.encode("utf-8", "surrogatepass"), [group.encode()])
    return f"[[{group}:{base64.b32encode(sealed).decode().rstrip('=').lower()}]]"


def restore(text: str, key: Key) -> str:
    """The text with every token turned back into its value; a token that does not
    decrypt under this key (the wrong key, or a token altered) is an error naming it."""
    exceptions = require("cryptography.exceptions", "restore")
    siv = _siv(key)
    out, last = [], 0
    for k, m in enumerate(TOKEN.finditer(text)):
        group, body = m.group(1).upper(), m.group(2).upper()
        try:
            sealed = base64.b32decode(body + "=" * (-len(body) % 8))
            value = siv.decrypt(sealed, [group.encode()]).decode("utf-8", "surrogatepass")
        except (ValueError, exceptions.InvalidTag):
            raise BertforgeError(
                f"token {k + 1} at character {m.start()} ({m.group()[:24]}...) does not decrypt "
                f"with {key.where}: the wrong key, or the token was altered") from None
        out += [text[last:m.start()], value]
        last = m.end()
    out.append(text[last:])
    return "".join(out)
