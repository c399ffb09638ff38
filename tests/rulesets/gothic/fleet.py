"""A gothic engagement for tests: an Imperial squadron against rebels with planetary defences.

Every roll is typed (fixed dice) through ``answer``, which checks that the roll
the fight waits for is the one the script expects.
"""

from __future__ import annotations

from datetime import datetime, timezone

from engine.encounter import Encounter
from engine.setup import Setup
from rulesets.gothic import RULESET
from tests.rulesets.scripted import answer, refused  # noqa: F401  (re-exported for the tests)


def ship(side: str, name: str, cls: str, hits: int, shields: int = 1, turrets: int = 1, torpedoes: int = 0,
         boarding: bool = False) -> dict:
    return {"side": side, "name": name, "class": cls, "hits": hits, "shields": shields, "armour": 5,
            "turrets": turrets, "torpedoes": torpedoes, "boarding_torpedoes": boarding}


SHIPS = {
    "hammer": ship("imp", "Hammer", "capital", 8, shields=2, turrets=2, torpedoes=6, boarding=True),
    "right": ship("imp", "Divine Right", "capital", 6, torpedoes=4),
    "sword": ship("imp", "Sword", "escort", 1),
    "cobra": ship("imp", "Cobra", "escort", 2),
    "vow": ship("reb", "Iron Vow", "capital", 8, shields=2, turrets=2),
    "shade": ship("reb", "Shade", "escort", 1),
}
DEFENCES = {
    "platform": {"side": "reb", "name": "Kessel Platform", "type": "space_platform"},
    "battery": {"side": "reb", "name": "Kessel Battery", "type": "planetary_battery"},
    "sat": {"side": "reb", "name": "Sentinel", "type": "armed_satellite"},
}


def make_setup(**options) -> Setup:
    return Setup(
        ruleset="gothic", name="Kessel test", sides=[{"id": "imp", "name": "Imperial"}, {"id": "reb", "name": "Rebels"}],
        units={"ships": {k: dict(v) for k, v in SHIPS.items()},
               "defences": {k: dict(v) for k, v in DEFENCES.items()}},
        options={"distance": 40, **options}, seed=11, created=datetime(2026, 11, 30, 17, 0, tzinfo=timezone.utc))


def new_fight(**options) -> Encounter:
    enc = Encounter(make_setup(**options), RULESET)
    enc.check_every_event = True
    return enc


def to_phase(enc: Encounter, phase: int) -> None:
    """Take ``next`` until the fight is in ``phase`` (1 Movement .. 4 End phase); through an ordnance phase, each
    salvo not yet moved moves with no change in its distance (its target drew away as fast: the phase asks a move)."""
    while enc.state["phase"] != phase:
        if enc.state["phase"] == 3:
            for sid, o in list(enc.state["ordnance"].items()):
                if not o["moved"]:
                    enc.act("move_salvo", salvo=sid, turn=0, distance=o["distance"])
        enc.act("next")


def hit_and_run_waiting(enc: Encounter) -> None:
    """Iron Vow down to 6 hits (no more than Hammer's 8), 8 cm from Hammer (within teleport reach) with its shields
    down in the end phase, when Hammer makes its teleport attack: the hit-and-run roll waits."""
    enc.act("record_hits", vessel="vow", hits=2)
    enc.act("set_distance", vessel="hammer", target="vow", cm=8)
    to_phase(enc, 4)
    enc.act("shields", vessel="vow", up=0)
    enc.act("teleport", vessel="hammer", target="vow")


def unit(enc: Encounter, uid: str) -> dict:
    for key in ("ships", "defences", "ordnance"):
        if uid in enc.state[key]:
            return enc.state[key][uid]
    raise KeyError(uid)


def notes(enc: Encounter, start: int = 0) -> list[str]:
    return [n for ev in enc.events[start:] for n in ev.notes]
