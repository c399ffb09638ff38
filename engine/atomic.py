"""Atomic file replacement with a backup of the previous version.

A save on disk is always a whole file: the new text goes to a temporary file in
the same folder, is flushed and fsynced, and then replaces the old one in a
single rename. Killing the process at any moment leaves either the old file
or the new one, never a mix (DESIGN.md "Saves").
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path
from typing import Sequence

#: The process's umask, read once at import (setting it to read it is not safe once threads write files).
_UMASK = os.umask(0o022)
os.umask(_UMASK)


def backup_path(path: Path) -> Path:
    return path.with_name(path.name + ".bak")


def write_atomic(path: Path, text: str | Sequence[bytes], backup: bool = True, mode: int | None = None) -> None:
    """Replace ``path`` with ``text``: a string, or UTF-8 parts written one after another (a long
    save's log kept encoded, so a save does not join and encode megabytes each time). ``mode``: the file's
    permissions; by default those of the file replaced, or the umask's for a new one."""
    path = Path(path)
    folder = path.parent
    parts = [text.encode("utf-8")] if isinstance(text, str) else text
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        os.fchmod(fd, _mode_for(path) if mode is None else mode)  # the temp is made private (0600)
        with os.fdopen(fd, "wb") as fh:
            for part in parts:
                fh.write(part)
            fh.flush()
            os.fsync(fh.fileno())
        if backup and path.exists():
            _keep_backup(path)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    _fsync_folder(folder)


def _mode_for(path: Path) -> int:
    """The permissions a replaced file keeps, or a new one's as ``open`` would give it (the umask's)."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        return 0o666 & ~_UMASK


def _keep_backup(path: Path) -> None:
    """Point ``NAME.bak`` at the current file (a hard link is itself atomic)."""
    bak = backup_path(path)
    tmp = bak.with_name(f".{bak.name}.link")
    try:
        if tmp.exists():
            tmp.unlink()
        os.link(path, tmp)
        os.replace(tmp, bak)
    except OSError:  # a file system without hard links: copy through a temp file
        data = path.read_bytes()
        fd, t = tempfile.mkstemp(prefix=f".{bak.name}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(t, bak)
        except BaseException:
            _remove(Path(t))
            raise


def remove_stale_temps(path: Path) -> None:
    """Temp files a killed save left behind (``.NAME.*.tmp``); the save itself is whole."""
    import glob  # here: only the first write of a session sweeps

    for stale in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):
        _remove(stale)


def _remove(p: Path) -> None:
    try:
        p.unlink()
    except OSError:
        pass


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
