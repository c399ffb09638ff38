"""A fleet turn of classic-hg: 50 ships a side, 10 turrets each, built-in dice (DESIGN.md "Performance").

Prints the time (best of 3 runs) to play turn 1 to its end: initiative, every turret of the attacker firing,
the defender's damage resolved, every turret of the defender firing back, the attacker's damage.
Run from the repository root: ``python -m tests.bench.bench_fleet``. Never asserts a time.
"""

from __future__ import annotations

import sys
import time
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.encounter import Encounter  # noqa: E402
from engine.errors import IllegalAction  # noqa: E402
from engine.setup import Setup  # noqa: E402
from rulesets.classic_hg import RULESET  # noqa: E402



def ship(side: str, n: int) -> dict:
    return {
        "side": side, "name": f"{side}-{n}", "tonnage": 1000, "naval": True, "armor_factor": 2,
        "maneuver": 2, "jump": 2, "power_plant": 4, "computer_model": 5, "computer_storage": 20,
        "programs": ["TARGET"], "fuel": 300, "cargo": 10, "tactics": 1,
        "crew": {"bridge": 5, "engineering": 8, "weapons": 10, "quarters": 5},
        "turrets": [{"weapon": "beam_laser", "count": 3, "gunner_skill": 1} for _ in range(10)],
    }


def fleet_setup(per_side: int) -> Setup:
    ships = {f"{s}{i}": ship(s, i) for s in ("blue", "red") for i in range(per_side)}
    return Setup("classic-hg", "Fleet", [{"id": "blue", "name": "Blue"}, {"id": "red", "name": "Red"}],
                 {"ships": ships}, seed=3, created=datetime(2026, 1, 1, tzinfo=timezone.utc))


def one_turn(per_side: int) -> tuple[float, float, int]:
    """Milliseconds to build the encounter and to play its turn 1 to the end, and the events logged."""
    setup = fleet_setup(per_side)
    ships = setup.units["ships"]
    t0 = time.perf_counter()
    enc = Encounter(setup, RULESET)
    t1 = time.perf_counter()
    enc.act("roll_initiative")
    while enc.pending:
        enc.roll()
    enc.act("next")
    enc.act("next")
    for _ in range(2):  # attacker's fire (step 3) then the defender's (step 6)
        side = enc.state["attacker"] if enc.state["step"] == 3 else enc.state["defender"]
        enemy = next(s for s in ("blue", "red") if s != side)
        targets = [sid for sid in ships if ships[sid]["side"] == enemy]
        for i, sid in enumerate([s for s in ships if ships[s]["side"] == side]):
            for turret in [t["id"] for t in enc.state["ships"][sid]["turrets"]]:
                try:  # damage from step 5 may have cost a turret or the energy to fire it
                    enc.act("fire", ship=sid, turrets=[turret], target=targets[i % len(targets)])
                except IllegalAction:
                    continue
                while enc.pending:
                    enc.roll()
        enc.act("next")                  # to defensive fire: no interceptors assigned
        while enc.pending:
            enc.roll()
        enc.act("next")                  # to the damage step
        if enc.checklist()[enc.state["step"] - 1].needs:
            enc.act("resolve_damage")
            while enc.pending:
                enc.roll()
        enc.act("next")
    t2 = time.perf_counter()
    return 1000 * (t1 - t0), 1000 * (t2 - t1), len(enc.events)


def main() -> None:
    per_side = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    runs = [one_turn(per_side) for _ in range(3)]
    setup_ms, turn_ms, events = min(runs, key=lambda r: r[1])
    print(f"classic-hg fleet turn, {per_side} ships a side x 10 turrets, built-in dice")
    print(f"  setup (Encounter from the setup)   {setup_ms:8.1f} ms")
    print(f"  one whole turn (best of 3)         {turn_ms:8.1f} ms  ({events} events, "
          f"{turn_ms / max(1, events):.2f} ms an event)  target: under 250 ms")


if __name__ == "__main__":
    main()
