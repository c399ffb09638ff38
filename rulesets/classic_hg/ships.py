"""A classic-hg ship: the fields of a ship file, and the state a ship starts a fight in.

Source: ``classic-hg-combat.txt``. Where the text fixes a value it is derived
here and nowhere else: controls are the computer factor plus one ("Controls"),
sensors equal the computer factor and are doubled for naval vessels
("Sensors"), spaced armor needs twice the tonnage (the paragraph on SPACED).
"""

from __future__ import annotations

from typing import Any

from engine.schema import Field

# Where crew stand, for "Crew" hits ("The crew in the general location have been attacked").
# The names are the general locations of the shipped location table.
SHIP_FIELDS: tuple[Field, ...] = (
    Field("name", "str"),
    Field("class_name", "str", default="", help="the ship's class or type, e.g. 'Type S scout'"),
    Field("tonnage", "int", minimum=10, maximum=1_000_000),
    Field("hull_config", "int", default=1, minimum=1, maximum=9, help="USP configuration digit"),
    Field("naval", "bool", default=False),
    Field("armor_factor", "int", default=0, minimum=0, maximum=15),
    Field("armor_spaced", "bool", default=False),
    Field("maneuver", "int", default=0, minimum=0, maximum=9),
    Field("jump", "int", default=0, minimum=0, maximum=9),
    Field("power_plant", "int", default=0, minimum=0, maximum=9),
    Field("computer_model", "int", minimum=1, maximum=9),
    Field("computer_fib", "bool", default=False, help="fiber-optic backup (ignores radiation computer hits)"),
    Field("computer_storage", "int", default=0, minimum=0, maximum=1_000, help="0: the computer table's storage for the model"),
    Field("programs", "list", default=[], help="programs loaded at the start"),
    Field("program_library", "list", default=[], help="programs on board that may be loaded at step 9"),
    Field("fuel", "int", default=0, minimum=0, maximum=10_000_000),
    Field("cargo", "int", default=0, minimum=0, maximum=10_000_000),
    Field("fuel_scoops", "bool", default=False),
    Field("purification_plant", "bool", default=False),
    Field("hangars", "list", default=[], help="[{name, small_craft = [{name, tons}]}]"),
    Field("staterooms", "int", default=0, minimum=0, maximum=100_000),
    Field("low_berths", "int", default=0, minimum=0, maximum=100_000),
    Field("occupants", "list", default=[], help="[{name, berth}] where berth is 'stateroom N' or 'low N'"),
    Field("crew", "table", default={}, help="crew by general location, e.g. {bridge = 3}"),
    Field("tactics", "int", default=0, minimum=0, maximum=6),
    Field("turrets", "list", default=[], help="[{weapon, count, gunner_skill}]"),
    Field("torpedo_tubes", "int", default=0, minimum=0, maximum=1_000),
    Field("tubes_retrofitted", "bool", default=False),
    Field("torpedoes", "int", default=-1, minimum=-1, maximum=100_000, help="-1: a full launching tray a tube (weapons.toml [torpedo_tube] tray)"),
    Field("missiles", "int", default=0, minimum=0, maximum=100_000, help="missiles in the magazine"),
    Field("am_missiles", "int", default=0, minimum=0, maximum=100_000, help="antimissile missiles in the magazine"),
    Field("sand", "int", default=0, minimum=0, maximum=100_000, help="sand canisters"),
    Field("repulsors", "int", default=0, minimum=0, maximum=1_000),
    Field("nuclear_dampers", "int", default=0, minimum=0, maximum=1_000),
)

TURRET_FIELDS: tuple[Field, ...] = (
    Field("weapon", "str"),
    Field("count", "int", default=1, minimum=1, maximum=3),
    Field("gunner_skill", "int", default=0, minimum=0, maximum=6),
    Field("battery", "int", default=0, minimum=0, maximum=99,
          help="0: fires alone; turrets with the same number fire together as one battery"),
)

#: The optional field of a turret record that keeps the energy points its use this turn spent
#: (``fire.use_turret``), until the next turn clears it with the use (``turn.new_turn``). A turret not used
#: this turn has none, and neither has a used one in a state an earlier Flagbridge saved (``fire.energy_spent``
#: reads such a turret as that version did), so it is never part of a fresh turret record.
SPENT = "energy_spent"


def controls_for(computer_model: int) -> int:
    """"Ships have controls equal to the computer factor plus one." (Controls)"""
    return computer_model + 1


def sensors_for(computer_model: int, naval: bool) -> int:
    """Sensors equal the computer factor; "Naval vessels will have double" (Sensors)."""
    return computer_model * (2 if naval else 1)


def energy_points(tonnage: int, power_plant: int) -> int | float:
    """Energy from the power plant: 1% of the hull per plant factor (High Guard's rule), halves kept
    (875 tons at factor 10 give 87.5, not 87)."""
    points = tonnage * power_plant / 100
    return int(points) if points.is_integer() else points


def points_text(points: int | float) -> str:
    """'87.5' or '36': energy as the ship's data would print it."""
    return str(int(points)) if float(points).is_integer() else f"{points:g}"


def torpedoes_carried(ship: dict[str, Any], tray: int) -> int:
    """The torpedoes aboard; -1 in the file means "the normal load in the launching tray", ``tray`` a tube
    (weapons.toml [torpedo_tube]: "Five torpedoes ... are the normal load")."""
    return ship["torpedoes"] if ship["torpedoes"] >= 0 else tray * ship["torpedo_tubes"]


def ship_state(ship: dict[str, Any], side: str, tray: int) -> dict[str, Any]:
    """The state a ship begins the fight in, from its (validated) ship file; ``tray``: torpedoes a tube's
    launching tray holds."""
    torpedoes = torpedoes_carried(ship, tray)
    tubes = ship["torpedo_tubes"]
    return {
        "side": side,
        "name": ship["name"],
        "tonnage": ship["tonnage"],
        "naval": ship["naval"],
        "armor_factor": ship["armor_factor"],
        "armor_spaced": ship["armor_spaced"],
        "armor_hits": 0,
        "maneuver": ship["maneuver"],
        "jump": ship["jump"],
        "power_plant": ship["power_plant"],
        "computer": ship["computer_model"],
        "computer_fib": ship["computer_fib"],
        "controls": controls_for(ship["computer_model"]),
        "sensors": sensors_for(ship["computer_model"], ship["naval"]),
        "programs": list(ship["programs"]),
        "fuel": ship["fuel"],
        "cargo": ship["cargo"],
        "fuel_scoops": ship["fuel_scoops"],
        "purification_plant": ship["purification_plant"],
        "hangars": [
            {"name": h.get("name", f"hangar {i + 1}"), "damaged": False,
             "small_craft": [{"name": c["name"], "tons": c["tons"], "status": "ready"} for c in h.get("small_craft", [])]}
            for i, h in enumerate(ship["hangars"])
        ],
        "quarters": _quarters(ship),
        "crew": dict(ship["crew"]),
        "tactics": ship["tactics"],
        "turrets": [
            {"id": f"T{i + 1}", "weapon": t["weapon"], "count": t.get("count", 1), "destroyed": 0,
             "gunner_skill": t.get("gunner_skill", 0), "fire_control": True, "used": "",
             "battery": t.get("battery", 0)}
            for i, t in enumerate(ship["turrets"])
        ],
        "tubes": [{"id": f"tube {i + 1}", "ready_turn": 1, "destroyed": False, "fire_control": True}
                  for i in range(tubes)],
        "torpedoes": torpedoes,
        "missiles": ship["missiles"],
        "am_missiles": ship["am_missiles"],
        "sand": ship["sand"],
        "repulsors": ship["repulsors"],
        "nuclear_dampers": ship["nuclear_dampers"],
        "broken_off": False,
        "out": "",  # why the ship left the fight: "broken off", "destroyed", "surrendered"...
        "crew_attacks": [],
        "radiation": [],
        # what the ship began the fight with, so its condition is measured against it
        "start": {key: ship[key] for key in ("armor_factor", "maneuver", "jump", "power_plant")}
        | {"computer": ship["computer_model"], "controls": controls_for(ship["computer_model"]),
           "sensors": sensors_for(ship["computer_model"], ship["naval"])},
    }


def _quarters(ship: dict[str, Any]) -> list[dict[str, Any]]:
    """Every stateroom and low berth, with its occupant, for "Quarters" hits."""
    rooms = [{"berth": f"stateroom {i + 1}", "occupant": "", "destroyed": False} for i in range(ship["staterooms"])]
    rooms += [{"berth": f"low {i + 1}", "occupant": "", "destroyed": False} for i in range(ship["low_berths"])]
    by_berth = {r["berth"]: r for r in rooms}
    for o in ship["occupants"]:
        if o.get("berth") in by_berth:
            by_berth[o["berth"]]["occupant"] = o.get("name", "")
    return rooms
