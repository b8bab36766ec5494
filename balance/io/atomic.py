"""Atomic writes: a reader sees the old file (or directory) or the new one, never half of one."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path


def write_text(path: str | os.PathLike, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder and a rename
    (the file is there whole or not at all)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


MARKER = ".balance-output"
"""The file in every folder :func:`new_directory` writes: the lab may replace that folder."""

# Folders the lab wrote before it left a marker: a pair of files only it writes together.
_SIGNATURES = (("manifest.json", "tallies.json"), ("check.json", "check.md"),
               ("sensitivity.json", "sensitivity.md"), ("metagame.json", "report.html"),
               ("autobalance.json", "tables.yaml"), ("lanchester.json", "lanchester.png"),
               ("report.html", "report.md"))


def check_replaceable(path: str | os.PathLike) -> None:
    """Raise :class:`~balance.errors.OptionError` unless ``path`` may be replaced whole: it
    does not exist, is an empty folder, or is a folder the lab wrote (its marker, or the
    files a lab command writes). ``--out results`` or ``--out .`` must never wipe a folder
    of the designer's own files, and ``--out notes.txt`` never a file."""
    from balance.errors import OptionError

    path = Path(path)
    if not path.name or path.name in (".", ".."):
        raise OptionError(f"{path}: give an output folder by name (such as results/out), not "
                          "the current or a parent folder: the lab replaces it whole")
    if not path.exists() and not path.is_symlink():
        check_writable(path)
        return
    check_writable(path)
    if not path.is_dir() or path.is_symlink():
        raise OptionError(f"{path}: is a file, not a folder; give a new folder for the output")
    names = {p.name for p in path.iterdir()}
    if not names or MARKER in names or any(set(sig) <= names for sig in _SIGNATURES) or \
            _is_demo(path, names):
        return
    raise OptionError(f"{path}: is a folder the lab did not write (it holds "
                      f"{', '.join(sorted(names)[:3])}{', ...' if len(names) > 3 else ''}); "
                      "the output folder is replaced whole, so give a new or empty folder")


def check_writable(path: str | os.PathLike, *, what: str = "folder") -> None:
    """Raise :class:`~balance.errors.OptionError` unless a file or folder can be written at
    ``path`` (through a temporary beside it and a rename, as the lab writes): the nearest
    folder that exists on the way must be a folder, not a file, and writable. Checked before
    any fight runs, so a read-only folder or ``--out notes.txt/out`` is one clear error, not
    a traceback after the whole simulation."""
    from balance.errors import OptionError

    path = Path(path)
    parent = path.parent
    while not parent.exists() and not parent.is_symlink() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        raise OptionError(f"{path}: cannot make this {what}: {parent} is a file, not a folder; "
                          f"give a path in a folder")
    problem = _probe(parent)
    if problem is not None:
        raise OptionError(f"{path}: cannot write the {what} here: {parent} is not writable "
                          f"({problem}); give a path in a folder you can write to")


def _probe(folder: Path) -> str | None:
    """Why nothing can be created in ``folder`` (an OS error's words), or None when a
    temporary folder could be made and removed there (honest where permission bits are
    not: root, read-only mounts, ACLs)."""
    try:
        tmp = tempfile.mkdtemp(prefix=".balance-probe.", dir=folder)
    except OSError as err:
        return (err.strerror or str(err)).lower()
    with contextlib.suppress(OSError):
        os.rmdir(tmp)
    return None


def _is_demo(path: Path, names: set[str]) -> bool:
    """``balance demo``'s folder from before the marker: its summary.md heading."""
    if "summary.md" not in names:
        return False
    try:
        return (path / "summary.md").read_text(encoding="utf-8").startswith("# Demo results")
    except OSError:
        return False


@contextlib.contextmanager
def new_directory(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary folder beside ``path``; on success it replaces ``path`` whole.

    ``path`` must pass :func:`check_replaceable` (checked first, and again before the swap).
    On any error the temporary folder is removed and ``path`` is left as it was. The new
    folder holds :data:`MARKER`, so a later run may replace it.
    """
    path = Path(path)
    check_replaceable(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent))
    try:
        yield tmp
        (tmp / MARKER).write_text("written by balance; the lab replaces this folder whole\n",
                                  encoding="utf-8")
        check_replaceable(path)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    old = None
    if path.exists():
        old = path.with_name(f".{path.name}.old.{os.getpid()}")
        os.replace(path, old)
    os.replace(tmp, path)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
