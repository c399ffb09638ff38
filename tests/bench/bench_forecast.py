"""Forecast speed: 1,000 simulated fights of the classic-hg demo played to the end (DESIGN.md "Performance":
under 2 s), on every core, with the standard doctrine for both sides.

Prints the wall time of the whole forecast (best of ``--runs``), the time per fight on one core, the
decisions and rolls an average fight takes, and how many modules ran compiled (setup.py); ``--profile`` adds
a cProfile of 100 fights on one core, sorted by own time (run it with ``FLAGBRIDGE_PURE=1``: cProfile sees
nothing inside a compiled module). ``FLAGBRIDGE_PURE=1`` gives the figures of the modules run from source. Run from the repository root: ``python -m tests.bench.bench_forecast``. Never
asserts a time.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.compiled import compiled_now  # noqa: E402
from engine.forecast import Playout, fight_seed, forecast, scenario_of  # noqa: E402
from engine.saves import SaveFile  # noqa: E402
from rulesets import register_builtin  # noqa: E402

DEMO = Path(__file__).resolve().parents[2] / "saves" / "demo-classic-hg.toml"


def fight_sizes(enc, fights: int) -> tuple[float, float]:
    """Mean decisions (actions) and rolls a fight takes, from ``fights`` recorded playouts."""
    scenario, _ = scenario_of(enc)
    rs = scenario.prepare()
    actions = rolls = 0
    for i in range(fights):
        play = Playout(rs, scenario.state, fight_seed(1, i), record=True)
        play.run(rs.commander(scenario.doctrines))
        actions += sum(1 for r in play.record if r[0] == "action")
        rolls += sum(1 for r in play.record if r[0] == "roll")
    return actions / fights, rolls / fights


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--fights", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    register_builtin()
    enc = SaveFile.load(DEMO).encounter
    cores = os.cpu_count() or 1
    best = min(_timed(lambda: forecast(enc, args.fights, 1)) for _ in range(args.runs))
    one, cpus = [], []
    for _ in range(args.runs):  # on a shared machine the best and the median say more than one run
        cpu = time.process_time()
        one.append(_timed(lambda: forecast(enc, 100, 1, workers=1)) / 100)
        cpus.append((time.process_time() - cpu) / 100)
    actions, rolls = fight_sizes(enc, 50)
    print(f"forecast of {args.fights} fights of the classic-hg demo on {cores} cores: {best:.2f} s "
          f"(target 2 s); one core: {1000 * min(one):.1f} ms a fight ({1000 * min(cpus):.1f} ms of CPU at best, "
          f"{1000 * statistics.median(cpus):.1f} median of {args.runs}, which others' load on the machine changes "
          f"less); a fight takes {actions:.0f} decisions and {rolls:.0f} rolls; "
          f"{len(compiled_now())} modules compiled (FLAGBRIDGE_PURE={os.environ.get('FLAGBRIDGE_PURE', '')!r})")
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        forecast(enc, 100, 1, workers=1)
        prof.disable()
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(30)
        print(out.getvalue())


def _timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


if __name__ == "__main__":
    main()
