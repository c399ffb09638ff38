"""A real console killed at random moments loses at most the action in progress (issue 14).

Issue 14 ("A kill can lose two actions") found, with 200 SIGKILLs of a console in a terminal,
that ``console.py`` ``_autosave`` merged every change made before the next paint into one write,
so a kill could lose an action the game master had already seen done. This test keeps a few of
those kills in the suite.

Each round starts ``python -m tui.cli open SAVE`` (what ``flagbridge open`` runs) in a
pseudo-terminal of 160x48 (TERM=xterm-256color; the app draws on the terminal, whose output is
read and searched), types keys into it, and SIGKILLs it at a seeded random moment. The rounds
alternate between the two shipped demos, each round starting on the save the last kill left.
The keys are units the test plans by playing the same steps on an in-process copy of the save:
``n`` (next step), or ``i`` with the initiative dice typed (digits, Enter) and ``n``. A unit is
*done* when the header line it ends with (``Turn 2 · step 3/9 ...``, ``Round 1 · step 2/3 ...``)
has been painted on the terminal: by then the console has recorded all of its events.

What is asserted after each kill (N = the events in the save when the round started; a unit's
count is the events the save holds once it is done):

- the save loads with ``SaveFile.load``, and so does ``NAME.bak`` when there is one;
- its log is the planned one cut short: the same events (kind and action name) in order;
- ``painted``: units typed one by one, each waited for, the kill right after the last one is seen
  on screen: the save holds exactly that unit's count (every completed action);
- ``burst``: two or three units typed in one write, the kill right after the last is seen:
  exactly the last unit's count (nothing merged away);
- ``typing``: units typed one by one, the kill at a random 0-50 ms after the last unit's keys:
  at least the count of the unit before it (only the one in progress may be lost), at most its own;
- ``starting``: the kill at a random moment while the console starts: exactly N;
- temp files a kill leaves are hidden (``.NAME.*.tmp``), never a ``.toml`` the start screen would
  list, never stop the save loading, and are swept by the next console that saves.
"""

from __future__ import annotations

import fcntl
import os
import pty
import random
import re
import shutil
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.demos import shipped_demos
from engine.atomic import backup_path
from engine.encounter import Encounter
from engine.saves import SaveFile

REPO = Path(__file__).resolve().parents[2]
DEMOS = shipped_demos()
SEED = 14
MODES = ("painted", "burst", "typing", "starting")
ROUNDS = 8  # each mode twice, once on each demo
COLS, ROWS = 160, 48
WAIT = 15.0  # seconds to wait for the console to show something before calling it stuck
ESCAPES = re.compile(rb"\x1b\[[0-9;?<>=$]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>78MDEHc]|\x1b\][^\x07]*\x07")


@dataclass
class Unit:
    """Keys that end with a header change, the events the save holds once done, and that header."""

    keys: bytes
    events: int
    header: str


def typed_die(enc: Encounter) -> str:
    """A total the pending roll can show: 4 on 1D, 7 on 2D..."""
    dice = enc.pending.dice.upper()
    n = int(dice.split("D")[0] or 1) if "D" in dice else 1
    return str(3 * n + 1)


def plan(enc: Encounter, count: int) -> list[Unit]:
    """``count`` units of keys, played on ``enc`` (an in-process copy) to know what each records."""
    units = []
    for _ in range(count):
        keys = b""
        possible = {o.action.name for o in enc.offers() if o.possible}
        if "roll_initiative" in possible:
            keys += b"i"
            enc.act("roll_initiative")
            while enc.pending is not None:
                value = typed_die(enc)
                keys += value.encode() + b"\r"
                enc.type_roll(value)
        keys += b"n"
        enc.act("next")
        units.append(Unit(keys, len(enc.events), enc.ruleset.header(enc.state)))
    return units


def signature(enc: Encounter) -> list[tuple]:
    return [(e.kind, e.data.get("name", e.data.get("purpose", ""))) for e in enc.events]


class Terminal:
    """A console process in a pseudo-terminal, its output gathered by a thread."""

    def __init__(self, save: Path, cwd: Path) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
        env = dict(os.environ, TERM="xterm-256color", COLUMNS=str(COLS), LINES=str(ROWS),
                   PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        self.proc = subprocess.Popen([sys.executable, "-m", "tui.cli", "open", str(save)], cwd=cwd, env=env,
                                     stdin=slave, stdout=slave, stderr=slave, start_new_session=True)
        os.close(slave)
        self.master = master
        self.output = bytearray()
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:  # EIO: the child is gone
                return
            if not chunk:
                return
            with self._lock:
                self.output.extend(chunk)

    @property
    def mark(self) -> int:
        with self._lock:
            return len(self.output)

    def type(self, keys: bytes) -> int:
        """Write keys to the terminal; returns the output position before them."""
        mark = self.mark
        os.write(self.master, keys)
        return mark

    def wait_for(self, text: str, since: int) -> None:
        """Until ``text`` is painted after output position ``since``; fails if the console stops or sticks."""
        want = text.encode()
        end = time.monotonic() + WAIT
        while time.monotonic() < end:
            with self._lock:
                if self.output.find(want, since) >= 0:
                    return
            if self.proc.poll() is not None:
                pytest.fail(f"the console exited by itself (code {self.proc.returncode}) before showing "
                            f"{text!r}; its screen ended:\n{self.screen_tail()}")
            time.sleep(0.001)
        self.kill()
        pytest.fail(f"the console did not show {text!r} within {WAIT:.0f} s; its screen ended:\n{self.screen_tail()}")

    def kill(self) -> int | None:
        """SIGKILL; returns the exit status (-9 unless it had already stopped)."""
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        code = self.proc.wait(timeout=10)
        self._reader.join(timeout=5)
        os.close(self.master)
        return code

    def screen_tail(self, n: int = 1500) -> str:
        with self._lock:
            raw = bytes(self.output[-20000:])
        text = ESCAPES.sub(b"", raw)
        text = re.sub(rb"[ \t]+", b" ", text.replace(b"\r", b"\n"))
        return text.decode(errors="replace")[-n:]


def temp_files(folder: Path, save: Path) -> set[str]:
    return {p.name for p in folder.iterdir() if p.name not in (save.name, backup_path(save).name)}


def check_folder(folder: Path, saves: list[Path]) -> list[str]:
    """Everything beside the saves is a hidden temp file of one of them; nothing else."""
    problems = []
    names = {s.name for s in saves} | {backup_path(s).name for s in saves}
    for p in folder.iterdir():
        if p.name in names:
            continue
        if not any(p.name.startswith(f".{s.name}.") for s in saves):
            problems.append(f"a stray file beside the saves: {p.name}")
        elif not p.name.startswith("."):
            problems.append(f"a temp file that is not hidden: {p.name}")
    return problems


def test_a_console_killed_at_random_moments_keeps_every_completed_action(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    folder = tmp_path / "saves"
    folder.mkdir()
    saves = {}
    for ruleset, demo in DEMOS.items():
        saves[ruleset] = folder / f"{ruleset}.toml"
        shutil.copyfile(demo, saves[ruleset])
    modes = list(MODES) * (ROUNDS // len(MODES))
    rng.shuffle(modes)
    report: list[str] = []
    problems: list[str] = []
    for round_no, mode in enumerate(modes):
        ruleset = sorted(DEMOS)[round_no % 2]
        save = saves[ruleset]
        start = SaveFile.load(save).encounter
        n_start = len(start.events)
        temps_before = {t for t in temp_files(folder, save) if t.startswith(f".{save.name}.")}
        todo = rng.randint(1, 4) + (2 if mode == "burst" else 0)
        sim = SaveFile.load(save).encounter
        units = plan(sim, todo)
        expected_log = signature(sim)
        where = f"round {round_no} ({ruleset}, {mode})"

        term = Terminal(save, tmp_path)
        try:
            if mode == "starting":
                time.sleep(rng.uniform(0.0, 0.8))
                low = high = n_start
            else:
                term.wait_for(start.ruleset.header(start.state), 0)  # the console is up
                last_one_by_one = len(units) - (rng.randint(2, 3) if mode == "burst" else 0)
                for unit in units[:last_one_by_one]:
                    since = term.type(unit.keys)
                    if mode == "typing" and unit is units[-1]:
                        time.sleep(rng.uniform(0.0, 0.05))
                        break
                    term.wait_for(unit.header, since)
                if mode == "burst":
                    since = term.type(b"".join(u.keys for u in units[last_one_by_one:]))
                    term.wait_for(units[-1].header, since)
                if mode == "typing":
                    low, high = (units[-2].events if len(units) > 1 else n_start), units[-1].events
                else:
                    low = high = units[-1].events
            code = term.kill()
        finally:
            if term.proc.poll() is None:
                term.kill()
        assert code == -signal.SIGKILL, (f"{where}: the console had stopped by itself (code {code}):\n"
                                         f"{term.screen_tail()}")

        try:
            loaded = SaveFile.load(save).encounter
        except Exception as exc:  # noqa: BLE001
            pytest.fail(f"{where}: the save does not load after the kill: {type(exc).__name__}: {exc}")
        got = len(loaded.events)
        report.append(f"{where}: {got} events in the save, wanted {low}" + (f"..{high}" if high != low else ""))
        if not low <= got <= high:
            problems.append(f"{where}: the save holds {got} events after the kill; the actions completed before "
                            f"it make {low}" + (f" (at most {high})" if high != low else "")
                            + f"; the round started at {n_start}")
        if signature(loaded) != expected_log[:got]:
            problems.append(f"{where}: the saved log is not the one typed")
        bak = backup_path(save)
        if bak.exists():
            try:
                SaveFile.load(bak)
            except Exception as exc:  # noqa: BLE001
                problems.append(f"{where}: {bak.name} does not load: {type(exc).__name__}: {exc}")
        problems += [f"{where}: {p}" for p in check_folder(folder, list(saves.values()))]
        if got > n_start:  # this console saved: the temps earlier kills left are swept
            left = temps_before & temp_files(folder, save)
            if left:
                problems.append(f"{where}: temp files of an earlier kill are still there after a save: {sorted(left)}")
    assert not problems, "\n".join(problems) + "\n\nevery round:\n" + "\n".join(report)
