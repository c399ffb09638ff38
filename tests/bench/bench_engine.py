"""Engine benchmarks: the costs a game master feels, printed as a table.

Run from the repository root, either way:

    python -m tests.bench.bench_engine [FOLDER]
    python tests/bench/bench_engine.py [FOLDER]

FOLDER is where the save files go (a fresh temporary folder by default; pass a
folder on the disk the saves will really live on, since fsync costs differ).

What it measures, and why (DESIGN.md "Saves" and "Performance"):

1. Recording an event: every action, roll and correction copies the state and
   applies the event (``Encounter._record``); the console does this per key press.
2. Loading a 10,000-event save: ``SaveFile.load`` reads with toml-rs, checks every
   event and replays the whole log. Target: under 250 ms (issue 13; ``bench_scale``).
3. Saving a 500-event encounter: the console autosaves after every event, so the
   steady-state ``SaveFile.save()`` (kept event texts, atomic write, fsync, backup)
   is paid on each key press. Target: under 30 ms. The first save of a log also
   writes every event's text once, so it is timed separately.
4. Dice: the seeded roller, typed-value parsing and exact chances, per 100,000.
5. Undo and redo at the end of a 10,000-event log: bounded by the checkpoints
   taken every 100 events.

This is a script, not a test: it prints figures and never asserts times.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine import saves  # noqa: E402
from engine.dice import parse_dice, read_typed  # noqa: E402
from engine.reading import parse_toml  # noqa: E402
from engine.encounter import Encounter, replay  # noqa: E402
from engine.rolls import Modifier, RollRequest, SeededRoller, Target  # noqa: E402
from engine.ruleset import register  # noqa: E402
from tests.skirmish import SKIRMISH, make_setup  # noqa: E402

register(SKIRMISH)

TYPED_2D = ("7", "3 4", "6,6", "2", "5 1", "12", "4+4", "9", "1 1", "10")


def play(enc: Encounter, events: int) -> Encounter:
    """Drive the skirmish until the log holds ``events`` events.

    One turn: next, a scan (typed or rolled), a shot (rolled, with damage when it
    hits), a hull correction now and then, next, next. All three event kinds and
    both ways of answering a roll appear.
    """
    turn = 0
    while len(enc.events) < events:
        turn += 1
        enc.act("next")  # initiative -> fire
        enc.act("scan", side="blue", target="brute")
        if turn % 2:
            enc.type_roll(TYPED_2D[turn % len(TYPED_2D)])
        else:
            enc.roll()
        if enc.state["knowledge"]["blue"]["brute"] == "locked":
            enc.act("fire", ship="arrow", target="brute")
            while enc.pending:
                enc.roll()
        if turn % 3 == 0:
            enc.correct("ships.brute.hull", "30", note="bench reset")
        enc.act("next")  # fire -> end
        enc.act("next")  # end -> next turn
    return enc


def timed(fn, runs: int) -> list[float]:
    """Milliseconds for each of ``runs`` calls of ``fn``."""
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def row(what: str, figure: str, target: str = "") -> None:
    print(f"  {what:<46} {figure:>22}  {target}", flush=True)


def ms(values: list[float]) -> str:
    return f"median {statistics.median(values):8.2f} ms"


def bench_record() -> None:
    enc = Encounter(make_setup())
    t0 = time.perf_counter()
    play(enc, 5000)
    total = (time.perf_counter() - t0) * 1000
    kinds = {k: sum(e.kind == k for e in enc.events) for k in ("action", "roll", "correction")}
    row(f"record event ({len(enc.events)} events, mean)", f"{total / len(enc.events):8.3f} ms")
    row("  mix: " + ", ".join(f"{n} {k}s" for k, n in kinds.items()), "")


def bench_load(folder: Path) -> Encounter:
    enc = play(Encounter(make_setup()), 10_000)
    path = folder / "ten-thousand.toml"
    saves.create(path, enc)
    size = path.stat().st_size
    row(f"save file with {len(enc.events)} events", f"{size / 1e6:8.2f} MB")
    loaded = timed(lambda: saves.SaveFile.load(path), 5)
    row("SaveFile.load of it, 5 runs (best)", f"best   {min(loaded):8.1f} ms", "target < 250 ms")
    row("SaveFile.load of it, 5 runs (median)", ms(loaded), "target < 250 ms")
    text = path.read_text(encoding="utf-8")
    row("  of which parse_toml (toml-rs)", ms(timed(lambda: parse_toml(text), 3)))
    row("  (tomllib.loads, for comparison)", ms(timed(lambda: tomllib.loads(text), 3)))
    docs = [parse_toml(text) for _ in range(3)]  # _read_events takes its events out of the document
    row("  of which checking events (_read_events)", ms(timed(lambda: saves._read_events(docs.pop(), text, saves._event_starts(text)), 3)))
    row("  of which replay (Encounter from the log)", ms(timed(lambda: replay(enc.setup, enc.events), 3)))
    return saves.SaveFile.load(path).encounter


def bench_save(folder: Path) -> None:
    enc = play(Encounter(make_setup()), 500)
    sf = saves.SaveFile(folder / "five-hundred.toml", enc)
    first = []
    for _ in range(10):  # forget the kept texts, as for a log just loaded or built
        for ev in enc.events:
            ev.text = None
        sf = saves.SaveFile(folder / "five-hundred.toml", enc)
        first += timed(sf.save, 1)
    row(f"first save, {len(enc.events)} events (texts written)", ms(first))
    row(f"autosave, {len(enc.events)} events (steady state)", ms(timed(sf.save, 30)), "target < 30 ms")
    row("  of which SaveFile.text()", ms(timed(sf.text, 30)))
    sf.autosave()
    hulls = iter(range(1, 31))
    per_key = timed(lambda: enc.correct("ships.lance.hull", next(hulls)), 30)
    row("  one correction + autosave (console path)", ms(per_key))


def bench_dice() -> None:
    n = 100_000
    req = RollRequest("To hit", "2D", (Modifier("Gun", 2),), Target(8))
    roller = SeededRoller(7)
    t = timed(lambda: [roller.answer(req, i) for i in range(n)], 1)[0]
    row("SeededRoller.answer, 2D, per 100,000", f"{t:8.1f} ms")
    dice = parse_dice("2D")
    typed = [TYPED_2D[i % len(TYPED_2D)] for i in range(n)]
    t = timed(lambda: [read_typed(dice, s) for s in typed], 1)[0]
    row("dice.read_typed, 2D, per 100,000", f"{t:8.1f} ms")
    t = timed(lambda: [req.chance() for _ in range(n)], 1)[0]
    row("RollRequest.chance, 2D+2 vs 8+, per 100,000", f"{t:8.1f} ms")


def bench_undo(enc: Encounter) -> None:
    undo, redo = [], []
    for _ in range(3):  # walk back 80 groups (~110 events, past a checkpoint) and forward again
        undo += timed(enc.undo, 80)
        redo += timed(enc.redo, 80)
    row(f"undo at end of {len(enc.events)}-event log", f"{ms(undo)}, max {max(undo):.2f}")
    row(f"redo at end of {len(enc.events)}-event log", f"{ms(redo)}, max {max(redo):.2f}")


def main() -> None:
    print(f"Flagbridge engine benchmarks (Python {sys.version.split()[0]}, {os.cpu_count()} cpus)")
    with tempfile.TemporaryDirectory(prefix="flagbridge-bench-", dir=sys.argv[1] if len(sys.argv) > 1 else None) as tmp:
        folder = Path(tmp)
        print(f"saves written under {folder}\n")
        bench_record()
        big = bench_load(folder)
        bench_save(folder)
        bench_dice()
        bench_undo(big)


if __name__ == "__main__":
    main()
