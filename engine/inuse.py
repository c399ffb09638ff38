"""One console at a time on a save.

Two consoles on one file each autosave their own fight over the other's, so the events of one are lost. A
console holds an exclusive lock on a small file named for the save's full path, in the user's state folder
(``replay_cache.state_folder``/locks: none beside the save, where a killed console would leave one), while it
has the save open; a second console, and the commands that write a save (``keep-edits``, ``resume``), are refused while it
does. The lock is the kernel's: it goes with the process however the process ends, so a crash never leaves a
save locked. It is between processes: one process may load a save for play twice (``_MINE``). Readers (check,
log, forecast, watch) take no lock.
"""

from __future__ import annotations

import os
import zlib
from pathlib import Path

from .errors import SaveInUse
from .replay_cache import state_folder

try:
    import fcntl
except ImportError:  # no flock (Windows): saves are not held there
    fcntl = None  # type: ignore[assignment]


def lock_path(path: Path) -> Path:
    """The lock file of the save at ``path``: named for its full path, so every console finds the same one (two
    checksums of it, 64 bits in all, after the save's name for a reader of the folder; zlib is loaded at start-up
    already, hashlib is not)."""
    full = os.fsencode(os.path.realpath(path))
    stem = "".join(c if c.isalnum() else "-" for c in Path(path).stem)[:40]
    return state_folder() / "locks" / f"{stem}-{zlib.crc32(full):08x}{zlib.crc32(full[::-1]):08x}.lock"


#: This process's locks by lock file: [descriptor, holders]. The lock is between processes (two consoles); within
#: one process a save may be loaded for play again (a test's second app, the start screen reopening it), so a
#: second hold shares the first's lock, and the last release lets it go.
_MINE: dict[str, list] = {}


class Hold:
    """The lock on one save, until ``release``."""

    def __init__(self, path: Path, key: str | None) -> None:
        self.path = path
        self._key = key
        self._pid = os.getpid()

    def __del__(self) -> None:  # a save dropped unreleased (a test's app): its descriptor is not kept open
        self.release()

    def release(self) -> None:
        key, self._key = self._key, None
        if key is None or self._pid != os.getpid():  # a forked worker's copy is not the console's lock
            return
        entry = _MINE.get(key)
        if entry is None:
            return
        entry[1] -= 1
        if entry[1] > 0:
            return
        del _MINE[key]
        try:  # removed while still locked: a console that opens it now makes and locks a new one
            os.unlink(key)
        except OSError:
            pass
        os.close(entry[0])


def hold(path: Path) -> Hold:
    """Lock ``path`` for this process, or raise ``SaveInUse`` naming it when another process has it. Where the state
    folder cannot take the lock file, the save is not held."""
    path = Path(path)
    if fcntl is None or not path.is_file():  # a missing file or a folder: the load says what is wrong
        return Hold(path, None)
    where = lock_path(path)
    key = str(where)
    if key in _MINE:
        _MINE[key][1] += 1
        return Hold(path, key)
    while True:
        try:
            where.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(where, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:  # no state folder to keep it in: the save is not held
            return Hold(path, None)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            pid = _holder(fd)
            os.close(fd)
            raise SaveInUse(f"{path}: {SaveInUse.WORDS}{f' (process {pid})' if pid else ''}; quit it there "
                            "first") from None
        try:
            same = os.fstat(fd).st_ino == os.stat(where).st_ino
        except OSError:
            same = False
        if same:  # not a lock file its holder removed between our open and our lock
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
            _MINE[key] = [fd, 1]
            return Hold(path, key)
        os.close(fd)


def _holder(fd: int) -> str:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return ""
    return text if text.isdigit() else ""
