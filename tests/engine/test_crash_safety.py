"""A process killed at any moment during autosaves leaves a save that loads (DESIGN.md "Saves",
"Robustness"), and a save that fails part-way leaves the previous file as it was."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import engine.atomic
from engine.atomic import backup_path
from engine.encounter import Encounter
from engine.saves import SaveFile, create
from tests.skirmish import SKIRMISH

REPO = Path(__file__).resolve().parents[2]

# The child autosaves after every event, as fast as it can, until it is killed.
CHILD = textwrap.dedent(
    """
    import sys
    from pathlib import Path

    from engine.ruleset import register
    from tests.skirmish import SKIRMISH, make_setup
    register(SKIRMISH)

    from engine.encounter import Encounter
    from engine.errors import IllegalAction
    from engine.saves import SaveFile

    path = Path(sys.argv[1])
    enc = Encounter(make_setup(int(sys.argv[2])), SKIRMISH)
    SaveFile(path, enc).autosave()
    enc.act("next")  # the first autosave: the file exists before the parent starts its clock
    enc.undo()
    print("ready", flush=True)

    i = 0
    while True:
        i += 1
        if enc.pending is not None:
            enc.roll() if i % 3 else enc.type_roll("3")  # 3 is a face of 1D and d10, a total of 2D
            continue
        if i % 13 == 0:
            enc.correct("ships.brute.hull", 10 + i % 20)
        elif i % 7 == 0:
            enc.undo()
            if i % 14:
                enc.redo()
        else:
            names = [a.name for a in enc.legal_actions()]
            if "initiative" in names:
                enc.act("initiative")
            elif "scan" in names and i % 4:
                try:
                    enc.act(("fire", "launch")[i % 2], ship="arrow", target="brute")
                except IllegalAction:  # no lock yet
                    enc.act("scan", side="blue", target="brute")
            elif "board" in names and i % 5 == 0:
                enc.act("board", person="vask", part="chest")
            else:
                enc.act("next")
    """
)

DELAYS = (0.05, 0.09, 0.13, 0.17, 0.23, 0.29, 0.35, 0.42, 0.5, 0.6)


def child_env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def start_child(path: Path, seed: int) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(path), str(seed)],
        cwd=REPO, env=child_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    line = proc.stdout.readline()  # blocks until the first autosave is done, or the child dies
    if line.strip() != "ready":
        proc.kill()
        _, err = proc.communicate(timeout=10)
        pytest.fail(f"the autosaving child did not start: {line!r}\n{err}")
    return proc


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL (POSIX)")
def test_a_process_killed_during_autosaves_leaves_a_save_that_loads(tmp_path):
    path = tmp_path / "fight.toml"
    events_seen = []
    for n, delay in enumerate(DELAYS):
        # the same file every time: each child starts over the leftovers of the one killed before
        proc = start_child(path, seed=n)
        time.sleep(delay)
        assert proc.poll() is None, f"the child stopped by itself: {proc.communicate()[1]}"
        os.kill(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=10)
        assert proc.returncode == -signal.SIGKILL

        loaded = SaveFile.load(path)  # the main file always loads ...
        events_seen.append(len(loaded.encounter.events))
        bak = backup_path(path)
        if bak.exists():  # ... and so does the previous version kept beside it
            SaveFile.load(bak)
        # temp files of the write in progress may remain (.fight.toml.XXXX.tmp); they must not
        # stop the save loading, which was checked above, nor be mistaken for it
        for stray in tmp_path.iterdir():
            assert stray.name in (path.name, bak.name) or stray.name.startswith("."), stray.name
    # the children got somewhere: most kills landed after many autosaves
    assert max(events_seen) > 10, events_seen


# --- a failure part-way through one save ----------------------------------------------------

def _saved(tmp_path: Path, setup) -> tuple[SaveFile, Path, bytes]:
    enc = Encounter(setup, SKIRMISH)
    enc.act("initiative")
    enc.roll()
    enc.roll()
    path = tmp_path / "x.toml"
    sf = create(path, enc)
    create(path, enc)  # a second save, so there is a backup too
    enc.act("next")
    enc.correct("ships.brute.hull", 3)
    return sf, path, path.read_bytes()


class DiskFull(OSError):
    pass


def _fail_replace_of(target: Path):
    real = os.replace

    def replace(src, dst, *a, **k):
        if Path(dst) == target:
            raise DiskFull(28, "No space left on device")
        return real(src, dst, *a, **k)

    return replace


def _fail_fsync(fd):
    raise DiskFull(5, "Input/output error")


class _HalfWriter:
    """A file whose write stores half the text, then fails like a full disk."""

    def __init__(self, fh):
        self.fh = fh

    def write(self, text):
        self.fh.write(text[: len(text) // 2])
        self.fh.flush()
        raise DiskFull(28, "No space left on device")

    def __getattr__(self, name):
        return getattr(self.fh, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return self.fh.__exit__(*exc)


@pytest.mark.parametrize("where", ["write", "fsync", "replace", "backup"])
def test_a_failure_during_a_save_leaves_the_previous_file_byte_identical(tmp_path, setup, monkeypatch, where):
    sf, path, before = _saved(tmp_path, setup)
    bak_before = backup_path(path).read_bytes()
    if where == "write":
        real_fdopen = os.fdopen
        monkeypatch.setattr(engine.atomic.os, "fdopen", lambda *a, **k: _HalfWriter(real_fdopen(*a, **k)))
    elif where == "fsync":
        monkeypatch.setattr(engine.atomic.os, "fsync", _fail_fsync)
    elif where == "replace":
        monkeypatch.setattr(engine.atomic.os, "replace", _fail_replace_of(path))
    else:  # keeping the backup fails, whichever way it is kept
        monkeypatch.setattr(engine.atomic.os, "link", lambda *a, **k: (_ for _ in ()).throw(DiskFull(28, "full")))
        monkeypatch.setattr(engine.atomic.os, "replace", _fail_replace_of(backup_path(path)))

    with pytest.raises(DiskFull):
        sf.save()
    monkeypatch.undo()

    assert path.read_bytes() == before
    if where != "replace":  # the backup is kept just before the replace, so it may be new there
        assert backup_path(path).read_bytes() == bak_before
    # nothing half-written is left behind beside the save (the process is alive to clean up)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.toml", "x.toml.bak"]
    old = SaveFile.load(path)
    assert len(old.encounter.events) == 3
    # the encounter itself is untouched, and the next save that works writes it all
    sf.save()
    assert len(SaveFile.load(path).encounter.events) == len(sf.encounter.events) == 5
