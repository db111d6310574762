"""The one exception family of bertforge.

Every error a user can cause (a missing directory, a broken checkpoint, a config that
contradicts itself) is a `BertforgeError` whose message says what was wrong and what to
do about it. The command line prints that message without a traceback and exits 2.
Anything else that escapes is a bug in bertforge, and keeps its traceback.
"""


class BertforgeError(Exception):
    """Bad input or an unusable resource; the message is meant for the user."""


class ConfigError(BertforgeError, ValueError):
    """A configuration value is missing, of the wrong kind, or contradicts another."""


class CheckpointError(BertforgeError):
    """A model directory, weight file or hub id cannot be loaded or saved."""


class TokenizerError(BertforgeError):
    """A vocabulary or tokenizer file cannot be read, trained or used."""
