"""Console benchmarks: start-up to the first paint, and the latency of a key, printed as a table.

Run from the repository root, either way:

    python -m tests.bench.bench_console [--rounds 7] [--reps 50] [--profile] [--no-tmux] [--instructions]
    python tests/bench/bench_console.py [...]

What it measures, and why (DESIGN.md "Performance"):

1. Start-up to the first painted console, in tmux. ``flagbridge demo`` and a bare
   Textual app of the same shape (``tests/bench/bare_app.py``: Header, Footer, six
   titled Static panels) are launched alternately, each in a fresh detached tmux
   session of 160x48 on a private tmux server, and the pane is polled every ~5 ms
   until a marker appears (Flagbridge: "Phase checklist"; bare: "Bare checklist").
   The clock starts just before ``tmux new-session``. Target: Flagbridge within 1.3x
   the bare app, with bytecode caches as a normal install has them (a private
   PYTHONPYCACHEPREFIX); when the shell sets PYTHONDONTWRITEBYTECODE the uncached
   start is measured too. Secondary, with no terminal: the import times and the
   phases of ``flagbridge demo`` before ``App.run`` (each in a fresh interpreter),
   and the time to mount each app headless under ``run_test`` (in this process).
2. Latency of a state-changing key, in-process: the console's action methods
   (``action_act``, ``action_roll``, ``action_undo``, ``action_redo``) are called
   directly and timed, each including the engine command, the autosave and every
   panel's update (``refresh_view``). Pilot's ``press`` is not used: it waits ~63 ms
   a key on its own. The bare app's key (one Static updated) is the yardstick.
   Target: under 5 ms (judged on the median; the max is shown). The autosave and
   every panel's update are also timed apart, and the keys again with the autosave
   detached. The painting of the next frame is not included (Textual renders the
   updated panels in its next refresh).

``--profile`` adds a cProfile of the headless mount and of the key path (the top
functions). ``--instructions`` adds the instructions each app runs from its start to
its first painted frame on a pseudo-terminal of the same size (callgrind; part 1d):
unlike the timings they barely move from run to run, so a change is judged by them.
This is a script, not a test: it prints figures and never asserts times.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import io
import os
import pstats
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

BARE_APP = ROOT / "tests" / "bench" / "bare_app.py"
FLAGBRIDGE_MARKER = "Phase checklist"
BARE_MARKER = "Bare checklist"  # tests/bench/bare_app.py MARKER
SIZE = (160, 48)
POLL = 0.005  # seconds between captures of the pane
LAUNCH_TIMEOUT = 15.0
STARTUP_TARGET = 1.3  # Flagbridge / bare
KEY_TARGET_MS = 5.0


# --- printing ---------------------------------------------------------------------------

def row(what: str, figure: str, target: str = "") -> None:
    print(f"  {what:<56} {figure:>34}  {target}", flush=True)


def section(title: str) -> None:
    print(f"\n{title}", flush=True)


def med(values: list[float]) -> float:
    return statistics.median(values)


def mx(values: list[float], unit: str = "ms", digits: int = 2) -> str:
    """median and max"""
    return f"median {med(values):7.{digits}f} {unit}, max {max(values):7.{digits}f}"


def mb(values: list[float], unit: str = "ms", digits: int = 1) -> str:
    """median and best"""
    return f"median {med(values):7.{digits}f} {unit}, best {min(values):7.{digits}f}"


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


# --- 1. start-up in tmux ----------------------------------------------------------------

class Tmux:
    """A private tmux server (its own socket, no config), so no one's sessions are touched."""

    def __init__(self) -> None:
        self.socket = f"flagbridge-bench-{os.getpid()}"
        self.exe = shutil.which("tmux")

    def __call__(self, *args: str, check: bool = True) -> str:
        out = subprocess.run([self.exe, "-L", self.socket, "-f", "/dev/null", *args],
                             capture_output=True, text=True, check=check)
        return out.stdout

    def start_server(self) -> None:
        # a keep-alive session, so no launch pays for starting the tmux server
        self("new-session", "-d", "-x", "80", "-y", "24", "-s", "keepalive", "sleep 3600")

    def kill_server(self) -> None:
        self("kill-server", check=False)

    def first_paint(self, name: str, command: str, marker: str, env: dict[str, str]) -> float:
        """Seconds from just before new-session until ``marker`` is on the pane."""
        w, h = SIZE
        env_args = [a for k, v in env.items() for a in ("-e", f"{k}={v}")]
        t0 = time.perf_counter()
        self("new-session", "-d", "-x", str(w), "-y", str(h), "-c", str(ROOT), *env_args, "-s", name, command)
        try:
            while True:
                start = time.perf_counter()
                screen = self("capture-pane", "-p", "-t", name, check=False)
                elapsed = time.perf_counter() - t0
                if marker in screen:
                    return elapsed
                if elapsed > LAUNCH_TIMEOUT:
                    raise RuntimeError(f"{name}: {marker!r} not on screen after {LAUNCH_TIMEOUT:.0f} s; "
                                       f"the pane shows:\n{screen}")
                time.sleep(max(0.0, POLL - (time.perf_counter() - start)))  # a capture every ~5 ms
        finally:
            pids = self("list-panes", "-t", name, "-F", "#{pane_pid}", check=False).split()
            self("kill-session", "-t", name, check=False)
            wait_gone([int(p) for p in pids if p.isdigit()])


def wait_gone(pids: list[int], timeout: float = 3.0) -> None:
    """Let the killed app exit before the next launch, so launches do not overlap."""
    end = time.perf_counter() + timeout
    for pid in pids:
        while time.perf_counter() < end:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            except PermissionError:
                break
            time.sleep(0.01)


def flagbridge_command(save_dir: Path) -> str:
    exe = Path(sys.executable).parent / "flagbridge"
    if not exe.exists():
        found = shutil.which("flagbridge")
        exe = Path(found) if found else exe
    return f"{shlex.quote(str(exe))} demo --save-dir {shlex.quote(str(save_dir))}"


def bare_command() -> str:
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(BARE_APP))}"


def bytecode_modes(folder: Path) -> list[tuple[str, dict[str, str]]]:
    """How the launched interpreters treat bytecode caches.

    Installed the usual way, Python caches every module's bytecode after the first
    run, and that is the figure the target is about: the caches go to a private
    PYTHONPYCACHEPREFIX under the bench's temporary folder (the repository stays
    clean), warmed by one unmeasured launch of each app. When this shell sets
    PYTHONDONTWRITEBYTECODE (as this sandbox does), the project's own modules are
    compiled from source at every start (the installed Textual keeps its caches);
    that is measured too, as a second figure.
    """
    own = {"XDG_CONFIG_HOME": str(folder / "config")}  # the demos launched here stay off your recent-saves list
    cached = {"PYTHONDONTWRITEBYTECODE": "", "PYTHONPYCACHEPREFIX": str(folder / "pycache"), **own}
    modes = [("bytecode cached", cached)]
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        modes.append(("PYTHONDONTWRITEBYTECODE=1 (as this shell)",
                      {"PYTHONDONTWRITEBYTECODE": "1", "PYTHONPYCACHEPREFIX": "", **own}))
    return modes


def bench_tmux_startup(rounds: int, folder: Path) -> None:
    section(f"1. Start-up to the first paint in tmux ({SIZE[0]}x{SIZE[1]}, {rounds} launches of each, alternating)")
    tmux = Tmux()
    if tmux.exe is None:
        row("tmux not found (apt-get install -y tmux)", "skipped")
        return
    fb_cmd, bare_cmd = flagbridge_command(folder / "tmux-saves"), bare_command()
    results = []
    tmux.start_server()
    try:
        for mode, env in bytecode_modes(folder):
            # one unmeasured launch of each warms the file cache and the bytecode caches
            tmux.first_paint("warm-fb", fb_cmd, FLAGBRIDGE_MARKER, env)
            tmux.first_paint("warm-bare", bare_cmd, BARE_MARKER, env)
            fb, bare = [], []
            for i in range(rounds):
                for which in ("fb", "bare") if i % 2 == 0 else ("bare", "fb"):  # alternate who goes first
                    if which == "fb":
                        fb.append(tmux.first_paint(f"fb-{i}", fb_cmd, FLAGBRIDGE_MARKER, env) * 1000)
                    else:
                        bare.append(tmux.first_paint(f"bare-{i}", bare_cmd, BARE_MARKER, env) * 1000)
            results.append((mode, fb, bare))
        capture = med([timed_once(lambda: tmux("capture-pane", "-p", "-t", "keepalive")) for _ in range(10)])
    finally:
        tmux.kill_server()
    for n, (mode, fb, bare) in enumerate(results):
        if n:
            print(f"  {mode}: the project's modules compiled at every start")
        else:
            print(f"  {mode} (as installed normally; the figure the target is about)")
        ratio_med, ratio_best = med(fb) / med(bare), min(fb) / min(bare)
        target = f"target < {STARTUP_TARGET} x  " if n == 0 else ""
        row("  bare app (Header, Footer, 6 panels)", mb(bare))
        row("  flagbridge demo", mb(fb))
        row("  ratio flagbridge / bare (medians)", f"{ratio_med:7.2f} x",
            target + verdict(ratio_med < STARTUP_TARGET) if n == 0 else "")
        row("  ratio flagbridge / bare (bests)", f"{ratio_best:7.2f} x",
            target + verdict(ratio_best < STARTUP_TARGET) if n == 0 else "")
    row(f"  (pane polled every ~{POLL * 1000:.0f} ms; one capture takes ~{capture:.1f} ms)", "")


# --- 1b. in-process start-up figures --------------------------------------------------------

def import_time(statement: str, env: dict[str, str]) -> float:
    """Milliseconds to run an import statement in a fresh interpreter (cwd = repository root)."""
    code = ("import time; t0 = time.perf_counter(); " + statement +
            "; print((time.perf_counter() - t0) * 1000)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                         env={**os.environ, **env})
    return float(out.stdout.strip().splitlines()[-1])


def interpreter_time(env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], cwd=ROOT, check=True, env={**os.environ, **env})
    return (time.perf_counter() - t0) * 1000


def bench_imports(rounds: int, folder: Path) -> None:
    section(f"1b. Start-up without a terminal ({rounds} runs each, a fresh interpreter per run, bytecode cached)")
    env = bytecode_modes(folder)[0][1]
    stmts = {
        "python -c pass (whole process, wall)": None,
        "import textual.app (reference)": "import textual.app",
        "import tests.bench.bare_app": "import tests.bench.bare_app",
        "import tui.app": "import tui.app",
        "import tui.cli + tui.app + screens.console": "import tui.cli, tui.launch, tui.app, tui.screens.console",
    }
    times: dict[str, list[float]] = {k: [] for k in stmts}
    for stmt in stmts.values():  # warm the bytecode caches
        if stmt:
            import_time(stmt, env)
    for _ in range(rounds):
        for label, stmt in stmts.items():
            times[label].append(interpreter_time(env) if stmt is None else import_time(stmt, env))
    for label, values in times.items():
        row(label, mb(values))
    bench_phases(rounds, folder, env)


PHASES = r"""
import json, sys, time
from pathlib import Path
marks, t = [], [time.perf_counter()]
def mark(label):
    now = time.perf_counter()
    marks.append((label, (now - t[0]) * 1000))
    t[0] = now
import tui.cli
mark("import tui.cli (the console script)")
import tui.launch, tui.app
mark("import tui.launch + tui.app (Textual)")
from rulesets import register_builtin
register_builtin()
from engine.ruleset import find_ruleset
find_ruleset("classic-hg")
mark("register_builtin + find_ruleset (the ruleset's import)")
from engine.saves import SaveFile
from tui.launch import fresh_demo_copy
SaveFile.load(fresh_demo_copy("classic-hg", Path(sys.argv[1])))
mark("fresh_demo_copy + SaveFile.load")
import tui.screens.console
mark("import tui.screens.console (on mount)")
print(json.dumps(marks))
"""


def bench_phases(rounds: int, folder: Path, env: dict[str, str]) -> None:
    """``flagbridge demo`` up to ``App.run``, phase by phase, in a fresh interpreter."""
    import json

    saves = folder / "phase-saves"
    saves.mkdir(exist_ok=True)
    runs = []
    for _ in range(rounds + 1):
        out = subprocess.run([sys.executable, "-c", PHASES, str(saves)], cwd=ROOT, capture_output=True,
                             text=True, check=True, env={**os.environ, **env})
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    runs = runs[1:]  # the first run warms the caches
    print("  flagbridge demo before App.run, phase by phase (fresh interpreter):")
    for i, (label, _) in enumerate(runs[0]):
        row(f"  {label}", mb([r[i][1] for r in runs]))
    row("  total", mb([sum(ms for _, ms in r) for r in runs]))


async def mount_flagbridge(folder: Path) -> float:
    from engine.saves import SaveFile
    from tui.app import FlagbridgeApp
    from tui.launch import fresh_demo_copy

    t0 = time.perf_counter()
    path = fresh_demo_copy("classic-hg", folder)
    app = FlagbridgeApp(SaveFile.load(path), save_dir=folder)
    async with app.run_test(size=SIZE) as pilot:
        while not app.screen.query("#checklist"):
            await pilot.pause()
        await pilot.pause()
        elapsed = time.perf_counter() - t0
        assert app.screen.query_one("#checklist").border_title == FLAGBRIDGE_MARKER
    return elapsed * 1000


async def mount_bare() -> float:
    from tests.bench.bare_app import BareApp

    t0 = time.perf_counter()
    app = BareApp()
    async with app.run_test(size=SIZE) as pilot:
        while not app.screen.query("#checklist"):
            await pilot.pause()
        await pilot.pause()
        elapsed = time.perf_counter() - t0
    return elapsed * 1000


def bench_mount(rounds: int, folder: Path, profile: bool) -> None:
    section(f"1c. Headless mount under run_test({SIZE[0]}x{SIZE[1]}), in this process, alternating "
            "(flagbridge: demo copy + SaveFile.load + mount)")
    saves = folder / "mount-saves"

    async def go() -> tuple[float, float, list[float], list[float]]:
        cold_fb = await mount_flagbridge(saves)  # first mount also imports the console's modules
        cold_bare = await mount_bare()
        fb, bare = [], []
        for _ in range(rounds):
            fb.append(await mount_flagbridge(saves))
            bare.append(await mount_bare())
        return cold_fb, cold_bare, fb, bare

    cold_fb, cold_bare, fb, bare = asyncio.run(go())
    row("bare app (first, cold)", f"{cold_bare:7.1f} ms")
    row("flagbridge demo (first, cold: imports the console)", f"{cold_fb:7.1f} ms")
    row(f"bare app (warm, {rounds} runs)", mb(bare))
    row(f"flagbridge demo (warm, {rounds} runs)", mb(fb))
    row("ratio flagbridge / bare (warm medians)", f"{med(fb) / med(bare):7.2f} x")
    if profile:
        prof = cProfile.Profile()

        async def profiled() -> None:
            await mount_flagbridge(saves)
            prof.enable()
            for _ in range(5):
                await mount_flagbridge(saves)
            prof.disable()

        asyncio.run(profiled())
        print_profile(prof, "5 warm run_test mounts of flagbridge demo (part 1b)")


# --- 1d. instructions to the first painted frame ---------------------------------------------

FIRST_PAINT = r"""
import os, sys
marker, which = sys.argv[1], sys.argv[2]
from textual.drivers import linux_driver
write = linux_driver.LinuxDriver.write
def painted(self, data):
    write(self, data)
    if marker in data:  # the first frame that shows the marker is written: stop the count here
        os._exit(0)
linux_driver.LinuxDriver.write = painted
if which == "bare":
    import runpy
    runpy.run_path(sys.argv[3], run_name="__main__")
else:
    from tui.cli import main
    sys.exit(main(["demo", "--save-dir", sys.argv[3]]))
"""


def on_a_pty(argv: list[str], env: dict[str, str]) -> int:
    """Run ``argv`` on a pseudo-terminal of SIZE (as a terminal would), its output read and dropped."""
    import fcntl
    import pty
    import select
    import struct
    import termios

    w, h = SIZE
    pid, fd = pty.fork()
    if pid == 0:  # the child: the pty is its terminal
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", h, w, 0, 0))
        os.chdir(ROOT)
        os.execvpe(argv[0], argv, {**os.environ, "TERM": "xterm-256color", **env})
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", h, w, 0, 0))
    while True:
        try:
            ready, _, _ = select.select([fd], [], [], 120)
            if not ready or not os.read(fd, 65536):
                break
        except OSError:  # the child has gone
            break
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def first_paint_instructions(which: str, folder: Path, env: dict[str, str]) -> int:
    """Instructions (callgrind) from the interpreter's start to the first frame that shows the app's marker."""
    marker = FLAGBRIDGE_MARKER if which == "fb" else BARE_MARKER
    target = str(BARE_APP) if which == "bare" else str(folder / "cg-saves")
    code = [sys.executable, "-c", FIRST_PAINT, marker, which, target]
    on_a_pty(code, env)  # unmeasured: writes the bytecode caches
    log = folder / f"callgrind-{which}.log"
    on_a_pty(["valgrind", "--tool=callgrind", f"--log-file={log}", "--callgrind-out-file=/dev/null", *code], env)
    found = re.search(r"Collected : (\d+)", log.read_text())
    if found is None:
        raise RuntimeError(f"callgrind counted nothing for {which}: see {log}")
    return int(found.group(1))


def bench_instructions(folder: Path) -> None:
    section(f"1d. Instructions to the first painted frame (callgrind, a {SIZE[0]}x{SIZE[1]} pty, "
            "bytecode cached, PYTHONHASHSEED=0)")
    if shutil.which("valgrind") is None:
        row("valgrind not found (apt-get install -y valgrind)", "skipped")
        return
    env = {**bytecode_modes(folder)[0][1], "PYTHONHASHSEED": "0"}
    bare = first_paint_instructions("bare", folder, env)
    fb = first_paint_instructions("fb", folder, env)
    row("bare app (Header, Footer, 6 panels)", f"{bare / 1e6:,.0f} M")
    row("flagbridge demo", f"{fb / 1e6:,.0f} M")
    row("ratio flagbridge / bare", f"{fb / bare:7.2f} x", "(steady from run to run: for A/B of a change)")


# --- 2. key latency -------------------------------------------------------------------------

def timed_once(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    fn()
    return (time.perf_counter() - t0) * 1000


class Keys:
    """Timings of the console's key methods, by label."""

    def __init__(self) -> None:
        self.times: dict[str, list[float]] = {}

    def time(self, label: str, fn: Callable[[], object]) -> float:
        t = timed_once(fn)
        self.times.setdefault(label, []).append(t)
        return t


def find_fire(enc) -> dict:
    """A fire order that is legal now: the first firing ship, turret and target that the ruleset accepts."""
    from engine.errors import FlagbridgeError

    state = enc.state
    firing = state["attacker"] if state["step"] == 3 else state["defender"]
    for sid, ship in state["ships"].items():
        if ship["side"] != firing:
            continue
        for t in ship["turrets"]:
            for target, other in state["ships"].items():
                if other["side"] == firing:
                    continue
                args = {"ship": sid, "turrets": [t["id"]], "target": target}
                try:
                    enc.act("fire", **args)
                except FlagbridgeError:
                    continue
                enc.undo()
                return args
    raise RuntimeError("no legal fire order in step 3 of the demo")


def drive_console(screen, reps: int, keys: Keys) -> dict:
    """Repeat the same keys ``reps`` times, going back with undo; returns the fire order used."""
    enc = screen.enc

    def roll_pending(label: str) -> None:
        while enc.pending is not None:
            keys.time(label, screen.action_roll)

    def must(ok: bool, what: str) -> None:
        if not ok:  # (undo and redo leave a message saying what they did: not a refusal)
            raise RuntimeError(f"{what} refused: {screen.message!r}")

    # step 1: roll initiative (action + two rolls), undo it, redo it, undo again
    for _ in range(reps):
        assert enc.state["step"] == 1 and not enc.state["initiative"]
        keys.time("i  roll initiative (action_act)", lambda: screen.action_act("roll_initiative"))
        must(enc.pending is not None, "roll_initiative")
        roll_pending("Enter  initiative roll (action_roll)")
        keys.time("u  undo (action_undo)", screen.action_undo)
        keys.time("ctrl+r  redo (action_redo)", screen.action_redo)
        keys.time("u  undo (action_undo)", screen.action_undo)
    screen.action_act("roll_initiative")
    while enc.pending is not None:
        screen.action_roll()
    # steps 1 -> 2 -> 3: next, next, then undo both
    for _ in range(reps):
        keys.time("n  next step (action_act)", lambda: screen.action_act("next"))
        must(enc.state["step"] == 2, "next")
        keys.time("n  next step (action_act)", lambda: screen.action_act("next"))
        must(enc.state["step"] == 3, "next")
        keys.time("u  undo (action_undo)", screen.action_undo)
        keys.time("u  undo (action_undo)", screen.action_undo)
    screen.action_act("next")
    screen.action_act("next")
    assert enc.state["step"] == 3, enc.state["step"]
    # step 3: a fire order sent to the engine directly, then the fire roll is the key
    order = find_fire(enc)
    screen.refresh_view()
    for _ in range(reps):
        enc.act("fire", **order)
        must(enc.pending is not None, "fire")
        keys.time("Enter  fire roll (action_roll)", screen.action_roll)
        roll_pending("Enter  fire roll (action_roll)")
        keys.time("u  undo (action_undo)", screen.action_undo)
    return order


async def key_latency_flagbridge(folder: Path, reps: int,
                                 profile: cProfile.Profile | None) -> tuple[Keys, Keys, Keys, dict]:
    from engine.atomic import write_atomic
    from engine.saves import SaveFile
    from tui.app import FlagbridgeApp
    from tui.launch import fresh_demo_copy

    path = fresh_demo_copy("classic-hg", folder)
    app = FlagbridgeApp(SaveFile.load(path), save_dir=folder)
    keys = Keys()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        gc.collect()
        if profile is not None:
            profile.enable()
        order = drive_console(screen, reps, keys)
        if profile is not None:
            profile.disable()
        await pilot.pause()
        # the parts of a key, apart (at step 3 of the demo, a handful of events in the log)
        enc, save = screen.enc, screen.save
        parts = Keys()
        for _ in range(reps):
            parts.time("refresh_view alone (every panel's update)", screen.refresh_view)
            parts.time("autosave alone (SaveFile.save)", save.save)
            parts.time("  of which SaveFile.text() (the TOML text)", save.text)
            text = save.text()
            parts.time("  of which write_atomic (write, fsync x2, backup)",
                       lambda: write_atomic(save.path, text))
        # the same keys again with the autosave listener detached: the console's own cost
        listeners, enc.listeners = enc.listeners, []
        try:
            while enc.events:
                enc.undo()
            screen.refresh_view()
            nosave = Keys()
            drive_console(screen, reps, nosave)
            for _ in range(reps):  # the engine alone: no autosave, no redraw
                parts.time("engine alone: act fire + roll + undo (3 commands)",
                           lambda: (enc.act("fire", **order), enc.roll(), enc.undo()))
        finally:
            enc.listeners = listeners
    return keys, nosave, parts, order


async def key_latency_bare(reps: int) -> list[float]:
    from tests.bench.bare_app import BareApp

    app = BareApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        gc.collect()
        out = [timed_once(app.action_bump) for _ in range(reps * 4)]
        await pilot.pause()
        assert app.count == reps * 4
    return out


def bench_keys(reps: int, folder: Path, profile: bool) -> None:
    section(f"2. A state-changing key, in-process (headless {SIZE[0]}x{SIZE[1]}; "
            f"{reps} repetitions via undo; action + autosave + panel updates)")
    prof = cProfile.Profile() if profile else None
    keys, nosave, parts, order = asyncio.run(key_latency_flagbridge(folder / "key-saves", reps, prof))
    bare = asyncio.run(key_latency_bare(reps))
    row(f"bare app: key updating one Static x{len(bare)}", mx(bare, digits=3))
    for label, values in keys.times.items():
        ok = med(values) < KEY_TARGET_MS
        row(f"{label} x{len(values)}", mx(values),
            f"target < {KEY_TARGET_MS:.0f} ms  {verdict(ok)}" + ("" if max(values) < KEY_TARGET_MS else " (max over)"))
    print("  the parts of a key:")
    for label, values in parts.times.items():
        row(f"  {label} x{len(values)}", mx(values))
    print("  the same keys with the autosave listener detached (the console's own cost):")
    for label, values in nosave.times.items():
        row(f"  {label} x{len(values)}", mx(values))
    row(f"  (fire order used: {order['ship']} {','.join(order['turrets'])} at {order['target']})", "")
    if prof is not None:
        print_profile(prof, "the console's key path (part 2)")


PROFILE_FILES = r"textual/|rich/|/tui/|/engine/|/rulesets/|posix|builtins|_pickle"


def print_profile(prof: cProfile.Profile, title: str, top: int = 25) -> None:
    """The top functions by own time and by cumulative time (Textual, Rich and project code)."""
    section(f"cProfile of {title}, top functions (times inflated by the profiler)")
    for key in ("tottime", "cumulative"):
        out = io.StringIO()
        stats = pstats.Stats(prof, stream=out)
        stats.sort_stats(key).print_stats(PROFILE_FILES, top)
        text = out.getvalue()
        lines = text[text.find("   ncalls"):].rstrip().splitlines()
        print(f"-- sorted by {key} --")
        for line in lines:  # shorten the paths to package/file.py
            m = re.match(r"(\s*\S+\s+\S+\s+\S+\s+\S+\s+\S+\s+)(/\S*?)(:\d+\(.*)$", line)
            if m:
                line = m.group(1) + "/".join(m.group(2).split("/")[-2:]) + m.group(3)
            print(line)


# --- main -------------------------------------------------------------------------------

def main() -> None:
    from rulesets import register_builtin

    register_builtin()  # as the console script does: a fresh install declares no entry points for them
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7, help="launches of each app in tmux (default 7)")
    parser.add_argument("--reps", type=int, default=50, help="repetitions of each key (default 50)")
    parser.add_argument("--profile", action="store_true",
                        help="cProfile the mount and the key path; print the top functions")
    parser.add_argument("--no-tmux", action="store_true", help="skip the tmux start-up figures")
    parser.add_argument("--instructions", action="store_true",
                        help="count the instructions to the first painted frame of each app (valgrind)")
    parser.add_argument("folder", nargs="?", help="where the saves go (default: a fresh temporary folder)")
    args = parser.parse_args()

    import textual

    print(f"Flagbridge console benchmarks (Python {sys.version.split()[0]}, Textual {textual.__version__}, "
          f"{os.cpu_count()} cpus, load average {os.getloadavg()[0]:.2f})")
    with tempfile.TemporaryDirectory(prefix="flagbridge-bench-console-", dir=args.folder) as tmp:
        folder = Path(tmp)
        os.environ["XDG_CONFIG_HOME"] = str(folder / "config")  # the consoles opened here stay off your recent list
        print(f"saves written under {folder}")
        if not args.no_tmux:
            bench_tmux_startup(args.rounds, folder)
        bench_imports(max(3, args.rounds // 2 + 1), folder)
        bench_mount(args.rounds, folder, args.profile)
        if args.instructions:
            bench_instructions(folder)
        bench_keys(args.reps, folder, args.profile)
    print(f"\nload average at the end {os.getloadavg()[0]:.2f} (other work on the machine skews every figure)")


if __name__ == "__main__":
    main()
