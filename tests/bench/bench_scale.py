"""Scale benchmarks of issue 13: fleets, long logs, the console with a long log and many ships.

Run from the repository root: ``python -m tests.bench.bench_scale [--runs 5] [--only NAME ...]``.

Each figure is the best of several runs and the median, with its target (the machine is shared,
so the best run is the fairest figure of what the code costs). Parts:

- ``fleet``: one classic-hg turn of 50 ships a side, 10 turrets each (``bench_fleet``). Target < 250 ms.
- ``load``: ``SaveFile.load`` (read, check, replay) of a 10,000- and a 50,000-event skirmish save, with the
  whole log replayed (as the first time a save is opened) and from the replay cache the save keeps beside
  it (``engine.replay_cache``: as a save written by Flagbridge opens again). Targets < 250 ms and < 1000 ms.
- ``autosave``: ``SaveFile.save`` after one more event of the 50,000-event fight. Target < 30 ms.
- ``keys``: the console's key methods with the 50,000-event log on screen (undo, redo, an action,
  a search typed into the log, PageUp), each with its autosave and redraw, headless. Target < 16 ms.
- ``ships``: the console with 100 ships (50 a side): moving the selection, and the Ships filter. Target < 16 ms.
- ``fleetlog``: the load targets on classic-hg fleet fights (50 ships a side, 10 turrets each, played by the
  standard doctrine to about 10,000 and 50,000 events or the fight's end), whole and from the cache; then
  undo, redo, the save text after a change and an autosave at the end of the longer one.

This is a script, not a test: it prints figures and never asserts times.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine import saves  # noqa: E402
from engine.encounter import Encounter  # noqa: E402
from engine.ruleset import register  # noqa: E402
from rulesets import register_builtin  # noqa: E402
from tests.bench.bench_engine import play  # noqa: E402
from tests.skirmish import SKIRMISH, make_setup  # noqa: E402

register(SKIRMISH)
register_builtin()  # as the console script does: a fresh install declares no entry points for them
SIZE = (160, 48)


CPU: dict[int, float] = {}  # id of a list of wall times -> the best CPU time of the same runs


def row(what: str, values: list[float], target_ms: float) -> None:
    best, med = min(values), statistics.median(values)
    verdict = "ok" if best < target_ms else "OVER"
    cpu = f"  (cpu best {CPU[id(values)]:.1f})" if id(values) in CPU else ""
    print(f"  {what:<46} best {best:8.1f} ms  median {med:8.1f} ms   target < {target_ms:g} ms  {verdict}{cpu}",
          flush=True)


def timed(fn: Callable[[], object], runs: int) -> list[float]:
    """Wall milliseconds of each run; the best CPU time (this process alone) is kept for ``row``."""
    out, cpu = [], []
    for _ in range(runs):
        c0, t0 = time.process_time(), time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    CPU[id(out)] = min(cpu)
    return out


def long_save(folder: Path, events: int) -> Path:
    """A skirmish save of about ``events`` events (all three kinds), made once per folder."""
    path = folder / f"skirmish-{events}.toml"
    if not path.exists():
        saves.create(path, play(Encounter(make_setup()), events))
    return path


def bench_fleet(runs: int) -> None:
    from tests.bench.bench_fleet import one_turn

    values = [one_turn(50)[1] for _ in range(runs)]
    row("fleet turn, 50 ships a side x 10 turrets", values, 250)


def bench_load(runs: int, folder: Path) -> None:
    for events, target in ((10_000, 250), (50_000, 1000)):
        path = long_save(folder, events)
        loaded: list = []  # kept until the runs are over: freeing a loaded fight is not part of loading it
        values = timed(lambda: loaded.append(saves.SaveFile.load(path, cached_replay=False)), runs)
        loaded.clear()
        row(f"SaveFile.load + whole replay, {events:,} events", values, target)
        saves.SaveFile.load(path).save()  # the cache as this code writes it (other code finds one made before stale)
        values = timed(lambda: loaded.append(saves.SaveFile.load(path)), runs)  # as a save opens again
        loaded.clear()
        row("  the same, from its replay cache", values, target)


def bench_autosave(runs: int, folder: Path) -> None:
    path = folder / "autosaved.toml"
    shutil.copyfile(long_save(folder, 50_000), path)  # the long save itself stays as made
    sf = saves.SaveFile.load(path)
    sf.save()  # the first save of a session also sweeps stale temps and joins the log's blocks
    enc = sf.encounter
    values = []
    for i in range(runs * 4):
        enc.act("next") if not enc.pending else enc.roll()
        values += timed(sf.save, 1)
    row("autosave after one event, 50,000 events", values, 30)


async def _console(path: Path, drive: Callable) -> None:
    from tui.app import FlagbridgeApp

    app = FlagbridgeApp(saves.SaveFile.load(path), save_dir=path.parent)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        gc.collect()
        gc.freeze()  # as ``tui.launch`` does before ``App.run``: the loaded fight is kept out of the collector's passes
        try:
            await drive(app, pilot)
        finally:
            gc.unfreeze()


def bench_keys(runs: int, folder: Path) -> None:
    path = folder / "keyed.toml"
    shutil.copyfile(long_save(folder, 50_000), path)  # the console autosaves every key

    async def drive(app, pilot) -> None:
        screen = app.screen
        times: dict[str, list[float]] = {}

        def key(label: str, fn: Callable[[], object]) -> None:
            times.setdefault(label, []).extend(timed(fn, 1))

        for _ in range(runs * 2):
            key("u  undo (action_undo)", screen.action_undo)
            await pilot.pause()
            key("ctrl+r  redo (action_redo)", screen.action_redo)
            await pilot.pause()
        for _ in range(runs * 2):
            if screen.enc.pending:
                key("Enter  roll (action_roll)", screen.action_roll)
            else:
                key("n  next step (action_act)", lambda: screen.action_act("next"))
            await pilot.pause()
            key("u  undo (action_undo)", screen.action_undo)
            await pilot.pause()
        screen.action_search()
        for ch in "scan":
            key("/ search: one more letter (_search_key)", lambda: screen._search_key(ch, ch))
            await pilot.pause()
        for _ in "scan":
            key("/ search: backspace (_search_key)", lambda: screen._search_key("backspace", None))
            await pilot.pause()
        screen._search_key("escape", None)
        for _ in range(runs):
            key("PageUp  (action_scroll)", lambda: screen.action_scroll(-1))
            await pilot.pause()
        for label, values in times.items():
            row(label, values, 16)

    asyncio.run(_console(path, drive))


def fleet_save(folder: Path, per_side: int = 50) -> Path:
    from tests.bench.bench_fleet import fleet_setup

    path = folder / f"fleet-{per_side}.toml"
    if not path.exists():
        saves.create(path, Encounter(fleet_setup(per_side)))
    return path


def bench_ships(runs: int, folder: Path) -> None:
    path = fleet_save(folder)

    async def drive(app, pilot) -> None:
        screen = app.screen
        values = []
        for _ in range(runs * 2):
            values += timed(lambda: screen.action_select(1), 1)
            await pilot.pause()
        row("down  next ship of 100 (action_select)", values, 16)
        ships = screen.query_one("#ships")
        print(f"  Ships panel: {ships.virtual_size.height} lines in {ships.size.height} rows, "
              f"scrolled to {ships.scroll_y:g} to show the selected ship")
        while screen.scrolled != "ships":  # Tab to the Ships list: / filters it by name
            screen.action_next_panel()
        screen.action_search()
        typed = []
        for ch in "red-4":
            typed += timed(lambda: screen._search_key(ch, ch), 1)
            await pilot.pause()
        row("Ships filter: one more letter (/ on the Ships list)", typed, 16)
        screen._search_key("escape", None)

    asyncio.run(_console(path, drive))


def fleet_fight(folder: Path, events: int, per_side: int = 50) -> Path:
    """A classic-hg fleet fight (``per_side`` ships a side, 10 turrets each) played by the standard doctrine to
    about ``events`` events or its end, made once per folder: a long save of the real rules with a fleet's
    state, where the skirmish saves above are a test ruleset's with a small one."""
    from engine.forecast import load_doctrine
    from rulesets.classic_hg import RULESET
    from tests.bench.bench_fleet import fleet_setup

    path = folder / f"fleet-{per_side}-{events}.toml"
    if not path.exists():
        enc = Encounter(fleet_setup(per_side), RULESET)
        _, orders = load_doctrine(RULESET, "standard")
        commander = RULESET.commander({"blue": orders, "red": orders})
        while len(enc.events) < events:
            if enc.pending:
                enc.roll()
                continue
            choice = commander.decide(enc.state)
            if choice is None:
                break
            enc.act(choice[0], **choice[1])
        saves.create(path, enc)
    return path


def bench_fleet_log(runs: int, folder: Path) -> None:
    """The load targets on long classic-hg fleet fights; then undo, redo and an autosave at the end of the longer."""
    for events, target in ((10_000, 250), (50_000, 1000)):
        path = fleet_fight(folder, events)
        loaded: list = []
        values = timed(lambda: loaded.append(saves.SaveFile.load(path, cached_replay=False)), max(2, runs // 2))
        count = len(loaded[0].encounter.events)
        loaded.clear()
        row(f"fleet fight, {count:,} events: load + whole replay", values, target)
        saves.SaveFile.load(path).save()
        values = timed(lambda: loaded.append(saves.SaveFile.load(path)), max(2, runs // 2))
        loaded.clear()
        row("  the same, from its replay cache", values, target)
    work = folder / "fleet-autosaved.toml"
    shutil.copyfile(path, work)
    sf = saves.SaveFile.load(work)
    sf.save()
    enc = sf.encounter
    row("  undo at the end (Encounter.undo)", timed(enc.undo, runs * 2), 16)
    row("  redo (Encounter.redo)", timed(enc.redo, runs * 2), 16)
    keyed = []
    for _ in range(runs):  # what a key does before the writer thread takes over (waited for between keys)
        for change in (enc.undo, enc.redo):
            keyed += timed(lambda: (change(), sf.save_soon()), 1)
            sf.flush()
    row("  undo or redo, then save_soon (a key's part)", keyed, 16)
    row("  autosave (SaveFile.save)", timed(sf.save, runs * 2), 30)
    sf.flush()
    keyed = folder / "fleet-keyed.toml"
    shutil.copyfile(path, keyed)
    saves.SaveFile.load(keyed).save()  # its cache, as a fight saved by the console has one

    async def drive(app, pilot) -> None:
        screen = app.screen
        times: dict[str, list[float]] = {}
        for _ in range(runs * 2):
            for label, fn in (("u  undo (action_undo)", screen.action_undo),
                              ("ctrl+r  redo (action_redo)", screen.action_redo),
                              ("down  next ship (action_select)", lambda: screen.action_select(1))):
                times.setdefault(label, []).extend(timed(fn, 1))
                await pilot.pause()
                app.save.flush()  # the writer thread's part is not the key's
        for label, values in times.items():
            row(f"  console: {label}", values, 16)

    asyncio.run(_console(keyed, drive))


PARTS = {"fleet": bench_fleet, "load": bench_load, "autosave": bench_autosave, "keys": bench_keys,
         "ships": bench_ships, "fleetlog": bench_fleet_log}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", nargs="*", choices=sorted(PARTS), default=list(PARTS))
    parser.add_argument("--folder", help="where the long saves are made (kept between runs when given)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="flagbridge-scale-") as tmp:
        os.environ["XDG_CONFIG_HOME"] = str(Path(tmp) / "config")  # the consoles opened here stay off your recent list
        folder = Path(args.folder or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        print(f"Flagbridge scale benchmarks (best and median of {args.runs}+ runs; the machine may be shared)")
        for name in args.only:
            fn = PARTS[name]
            fn(args.runs) if name == "fleet" else fn(args.runs, folder)


if __name__ == "__main__":
    main()
