"""Writing files so that nobody ever reads half of one, or more than they could before.

Every file bertforge writes (a model directory, a redacted JSONL, a report, a plot) goes
through here:

- it is written under a unique temporary name in the target's own directory (two runs
  writing the same target never share a temporary) and renamed into place: the rename
  is the commit, so a reader sees the old file or the whole new one;
- on any failure the temporary is removed, and the target is left as it was;
- the new file gets the usual mode, `0666` less the umask (a directory `0777` less the
  umask), not the `0600` / `0700` a temporary is created with; `private_to=` narrows it
  further to no wider than another file's mode (a redacted output holds its input's
  text), and an existing target's mode is never widened.

A temporary of our own that a killed process left behind (`.NAME.*.tmp`, or
`.NAME.*.partial` for directories) is removed when the same target is written again.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from pathlib import Path
from typing import IO, Iterator

from .errors import BertforgeError

FILE_SUFFIX, DIRECTORY_SUFFIX = ".tmp", ".partial"


def umask() -> int:
    try:  # Linux says it without changing it (thread-safe)
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    current = os.umask(0o022)
    os.umask(current)
    return current


def mode_for(target: Path, private_to: str | os.PathLike | None = None) -> int:
    """The mode a new file `target` gets: the usual one less the umask, no wider than
    `private_to`'s permission bits, and no wider than the target's own if it exists."""
    mode = 0o666 & ~umask()
    for other in (private_to, target):
        if other is None:
            continue
        try:
            mode &= stat.S_IMODE(os.stat(other).st_mode)
        except OSError:
            pass
    return mode


def check_writable(target: str | os.PathLike) -> Path:
    """Refuse, before any work is done, a target that could not be written: a directory,
    one under a file, or in a directory this process may not write to."""
    target = Path(target)
    if target.is_dir():
        raise BertforgeError(f"{target} is a directory; give a file name to write to")
    parent = target.parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        raise BertforgeError(f"cannot write {target}: {parent} is a file, not a directory")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise BertforgeError(f"cannot write {target}: no permission to write in {parent}")
    return target


def check_new_directory(target: str | os.PathLike, overwrite: bool = False) -> Path:
    """Refuse, before any work, to write a directory over one that holds something,
    unless `overwrite`: a finished model, its notes and reports are not lost by a
    typo in --out."""
    target = Path(target)
    if target.exists() and not target.is_dir():
        raise BertforgeError(f"{target} is a file; --out names a directory to write")
    if target.is_dir() and any(target.iterdir()) and not overwrite:
        raise BertforgeError(f"{target} already holds files; pass --overwrite to replace "
                             f"them, or choose another --out")
    parent = target.parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir() or not os.access(parent, os.W_OK | os.X_OK):
        raise BertforgeError(f"cannot write {target}: no permission to write in {parent}")
    return target


def _clean_stale(target: Path, suffix: str) -> None:
    """Remove temporaries for `target` left by processes that no longer run."""
    for path in target.parent.glob(f".{target.name}.*{suffix}"):
        pid = path.name[len(target.name) + 2:].split(".", 1)[0]
        if pid.isdigit() and not running(int(pid)):
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path, ignore_errors=True)
            else:
                with contextlib.suppress(OSError):
                    path.unlink()


def running(pid: int) -> bool:
    """Whether a process with this id runs (one of another user's counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@contextlib.contextmanager
def atomic_file(target: str | os.PathLike, text: bool = True,
                private_to: str | os.PathLike | None = None) -> Iterator[IO]:
    """`with atomic_file(path) as f: f.write(...)`: the file appears whole, or not at
    all. Text is UTF-8 and written exactly as given (no newline translation)."""
    target = check_writable(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    _clean_stale(target, FILE_SUFFIX)
    descriptor, name = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}.",
                                        suffix=FILE_SUFFIX, dir=target.parent)
    temporary = Path(name)
    try:
        with (open(descriptor, "w", encoding="utf-8", newline="") if text
              else open(descriptor, "wb")) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.chmod(temporary, mode_for(target, private_to=private_to))
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise


def write_text(target: str | os.PathLike, text: str,
               private_to: str | os.PathLike | None = None) -> Path:
    with atomic_file(target, private_to=private_to) as f:
        f.write(text)
    return Path(target)


@contextlib.contextmanager
def atomic_directory(target: str | os.PathLike) -> Iterator[Path]:
    """`with atomic_directory(path) as staging: ...write into staging...`: the directory
    replaces `target` whole when the block ends, or `target` is left as it was."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    _clean_stale(target, DIRECTORY_SUFFIX)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.{os.getpid()}.",
                                    suffix=DIRECTORY_SUFFIX, dir=target.parent))
    try:
        yield staging
        files, folders = 0o666 & ~umask(), 0o777 & ~umask()  # what `cp -r` would give
        for path in staging.rglob("*"):
            os.chmod(path, folders if path.is_dir() else files)
        os.chmod(staging, folders)
        if target.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{target.name}.{os.getpid()}.",
                                        suffix=DIRECTORY_SUFFIX, dir=target.parent))
            os.replace(target, old / "old")
            os.replace(staging, target)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
