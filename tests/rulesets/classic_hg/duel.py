"""A two-ship classic-hg duel for tests: the ships, and a way to answer rolls by purpose.

Every roll is typed (fixed dice); ``answer`` checks that the roll the fight
waits for is the one the script expects, so a test reads like the table talk.
"""

from __future__ import annotations

from datetime import datetime, timezone

from engine.encounter import Encounter
from tests.rulesets.scripted import answer  # noqa: F401  (re-exported for the tests)
from engine.setup import Setup
from rulesets.classic_hg import RULESET
from rulesets.classic_hg.tables import load_tables

TABLES = load_tables()

ESCORT = {
    "side": "imp", "name": "Vigilant", "class_name": "test escort", "tonnage": 600, "naval": True,
    "armor_factor": 4, "armor_spaced": True, "maneuver": 5, "jump": 3, "power_plant": 6,
    "computer_model": 4, "computer_storage": 9,
    "programs": ["TARGET", "LAUNCH", "ANTI-MISSILE II", "INTERCEPT"],
    "program_library": ["PREDICT-2", "EVADE-1", "SELECTIVE"],
    "fuel": 120, "cargo": 10, "fuel_scoops": True, "purification_plant": True,
    "staterooms": 4, "low_berths": 1,
    "occupants": [{"name": "Captain Ilse Marr", "berth": "stateroom 1"}],
    "crew": {"bridge": 3, "engineering": 3, "weapons": 4, "quarters": 2},
    "tactics": 2,
    "turrets": [
        {"weapon": "beam_laser", "count": 3, "gunner_skill": 1},
        {"weapon": "infinite_repeater", "count": 1, "gunner_skill": 1},
        {"weapon": "sandcaster", "count": 2},
        {"weapon": "missile_rack", "count": 1, "gunner_skill": 2},
        {"weapon": "missile_rack", "count": 1, "gunner_skill": 2},
    ],
    "missiles": 6, "am_missiles": 6, "sand": 10, "repulsors": 1, "nuclear_dampers": 1,
}

RAIDER = {
    "side": "cor", "name": "Jackal", "class_name": "test raider", "tonnage": 400, "naval": False,
    "armor_factor": 0, "maneuver": 3, "jump": 2, "power_plant": 3, "computer_model": 2,
    "computer_storage": 8,
    "programs": ["TARGET", "LAUNCH", "TORPEDO LAUNCH", "ANTI-MISSILE"],
    "fuel": 80, "cargo": 60, "fuel_scoops": False, "purification_plant": False,
    "staterooms": 6, "low_berths": 4,
    "crew": {"bridge": 2, "engineering": 2, "weapons": 3, "quarters": 4, "hangar": 1},
    "tactics": 0,
    "turrets": [
        {"weapon": "missile_rack", "count": 2, "gunner_skill": 1},
        {"weapon": "pulse_laser", "count": 2, "gunner_skill": 1},
        {"weapon": "sandcaster", "count": 1},
    ],
    "torpedo_tubes": 1, "missiles": 12, "sand": 6,
    "hangars": [{"name": "Boat bay", "small_craft": [{"name": "Launch", "tons": 20}]}],
}


def make_setup(escort: dict | None = None, raider: dict | None = None) -> Setup:
    return Setup(
        ruleset="classic-hg", name="Duel at Regina",
        sides=[{"id": "imp", "name": "Imperial Navy"}, {"id": "cor", "name": "Corsairs"}],
        units={"ships": {"vigilant": dict(escort or ESCORT), "jackal": dict(raider or RAIDER)}},
        seed=11, created=datetime(2026, 11, 29, 19, 0, tzinfo=timezone.utc),
    )


def new_duel() -> Encounter:
    return Encounter(make_setup(), RULESET)


def duel(raider: dict | None = None, escort: dict | None = None, tables: dict[str, str] | None = None) -> Encounter:
    """The duel with some fields of either ship changed, and replaced tables when given."""
    setup = make_setup({**ESCORT, **(escort or {})}, {**RAIDER, **(raider or {})})
    if tables:
        setup.options = {"tables": tables}
    return Encounter(setup, RULESET)


def initiative(enc: Encounter, imperial: str, corsair: str) -> None:
    """Step 1 with typed dice (the Vigilant adds Tactics 2, the Jackal 0), step 2 (long on turn 1); on to step 3."""
    enc.act("roll_initiative")
    answer(enc, "Initiative: Imperial Navy", imperial)
    answer(enc, "Initiative: Corsairs", corsair)
    enc.act("next")
    enc.act("next")
    assert enc.state["step"] == 3


def roll_for_general(name: str) -> str:
    """The 2D result that lands on a general location in the shipped table."""
    return str(next(n for n, g in sorted(TABLES.general_locations.items()) if g == name))


def roll_for_effect(general: str, effect: str) -> str:
    return str(next(n for n, e in sorted(TABLES.specific_locations[general].items()) if e == effect))


def to_hit(weapon: str, rng: str) -> int:
    return int(TABLES.weapons[weapon]["to_hit"][rng])


def to_intercept(defence: str, weapon: str) -> int:
    return int(TABLES.defences[defence]["to_intercept"][weapon])


def finish_step(enc: Encounter) -> None:
    enc.act("next")


def ship(enc: Encounter, sid: str) -> dict:
    return enc.state["ships"][sid]  # re-read after every event: the state is replaced


def attack(enc: Encounter, aid: str) -> dict:
    return next(a for a in enc.state["attacks"] if a["id"] == aid)
