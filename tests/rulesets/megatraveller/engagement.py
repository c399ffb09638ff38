"""A two-side megatraveller engagement for tests: the ships, and a way to answer rolls by purpose.

Every roll is typed (fixed dice); ``answer`` checks that the roll the fight
waits for is the one the script expects, so a test reads like the table talk.
"""

from __future__ import annotations

from datetime import datetime, timezone

from engine.encounter import Encounter
from tests.rulesets.scripted import answer, mods  # noqa: F401  (re-exported for the tests)
from engine.setup import Setup
from rulesets.megatraveller import RULESET

SCAN = {"pass_obj_scan": {"far": "routine"}, "pass_obj_pin": {"far": "difficult"}, "act_obj_pin": {"far": "routine"}}

LANCER = {
    "side": "imp", "name": "Lancer", "class_name": "test cruiser", "type_code": "CL", "tonnage": 1000,
    "power_plant": 6, "maneuver": 4, "agility": 2, "computer_model": 3, "signature": "large", "defence_dm": 1,
    "armor": 40, "sand": 2, "fuel": 400, "crew": 40, "tactics_pool": 2, "sensors": SCAN,
    "batteries": [
        {"weapon": "beam_laser", "factor": 4, "count": 12},
        {"weapon": "particle_accelerator", "factor": 11, "spinal": True},
        {"weapon": "plasma_gun", "factor": 3},
        {"weapon": "nuclear_missile", "factor": 3},
        {"weapon": "meson_gun", "factor": 3, "to_hit_number": 2},
        {"weapon": "tractor", "factor": 3},
        {"weapon": "missile", "factor": 3},
        {"weapon": "disintegrator", "factor": 3},
    ],
}
PICKET = {
    "side": "imp", "name": "Picket", "tonnage": 200, "computer_model": 2, "sensor_ops": 4, "signature": "medium",
    "armor": 30, "fuel": 40, "sensors": {"pass_obj_scan": {"far": "difficult"}, "act_obj_pin": {"far": "routine"}},
    "batteries": [{"weapon": "pulse_laser", "factor": 2}],
}
RAIDER = {
    "side": "cor", "name": "Corsair-1", "type_code": "P", "tonnage": 400, "power_plant": 3, "maneuver": 3,
    "computer_model": 2, "signature": "medium", "defence_dm": 1, "armor": 40, "sand": 2, "repulsor": 1,
    "damper": 1, "meson_screen": 1, "configuration": 2, "fuel": 120, "crew": 9,
    "sensors": {"pass_obj_scan": {"near": "routine"}},
    "batteries": [{"weapon": "pulse_laser", "factor": 3, "count": 3}],
}
HULK = {
    "side": "cor", "name": "Hulk", "type_code": "BB", "tonnage": 100000, "power_plant": 5, "maneuver": 2, "jump": 2,
    "computer_model": 5, "signature": "large", "armor": 49, "fuel": 9000, "crew": 500,
    "batteries": [{"weapon": "beam_laser", "factor": 6, "count": 2}],
}
SKIFF = {"side": "cor", "name": "Skiff", "tonnage": 100, "computer_model": 1, "signature": "small", "fuel": 20}
SHADOW = {"side": "cor", "name": "Shadow", "tonnage": 200, "computer_model": 2, "signature": "stealthy", "fuel": 30}


def make_setup(**options) -> Setup:
    return Setup(
        ruleset="megatraveller", name="Skirmish at Zila",
        sides=[{"id": "imp", "name": "Imperial", "tactics_pool": 2}, {"id": "cor", "name": "Corsairs"}],
        units={"ships": {"lancer": dict(LANCER), "picket": dict(PICKET), "raider": dict(RAIDER),
                         "hulk": dict(HULK), "skiff": dict(SKIFF), "shadow": dict(SHADOW)}},
        options={"range": 5, **options}, seed=5, created=datetime(2026, 12, 1, 19, 0, tzinfo=timezone.utc),
    )


def new_engagement(**options) -> Encounter:
    return Encounter(make_setup(**options), RULESET)


def seen(enc: Encounter, side: str, target: str) -> dict:
    return enc.state["knowledge"][side][target]
