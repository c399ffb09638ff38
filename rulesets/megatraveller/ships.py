"""A megatraveller ship: the fields of a ship file, its checks, and the state it starts a fight in.

Source: ``megatraveller-sensors-fire.txt``. A ship file lists its batteries
as groups (weapon type, UCP factor, how many, how many bear); in the fight each
battery is its own entry, because fire is "battery by battery" and a weapon
hit "kills a number of batteries ... until only one is left, then that last one
takes a reduction to its rating".

Sensors are listed per task (PassObjScan, ActObjScan, PassObjPin, ActObjPin)
as ``{band = "difficulty"}``: each entry is a sensor reaching out to that band
at that difficulty, so "the best difficulty listed that you still have sensors
for" is the easiest difficulty among entries that reach the range.
"""

from __future__ import annotations

from typing import Any

from engine.errors import BadTable
from engine.schema import Field, at, check_value, one_of, table_of, validate

from .tables import BANDS, Tables

SIGNATURES = ("large", "medium", "small", "stealthy")  # strong/large, moderate/medium, weak/small, any
SENSOR_TASKS = ("pass_obj_scan", "act_obj_scan", "pass_obj_pin", "act_obj_pin")
UCP_DIGITS = "0123456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # I and O are skipped, as in a UCP
#: "have to penentrate the ships configuration": every hull has one; a file that gives none (0) gets this,
#: the middle of 1..9, so a ship file that does not say favours neither the meson gun nor the target.
DEFAULT_CONFIGURATION = 5

SHIP_FIELDS: tuple[Field, ...] = (
    Field("name", "str"),
    Field("class_name", "str", default=""),
    Field("type_code", "str", default="", help="e.g. 'BH-1234'; revealed to a side by a lock with both rolls made"),
    Field("tonnage", "int", minimum=10, maximum=10_000_000),
    Field("power_plant", "int", default=0, minimum=0, maximum=30),
    Field("maneuver", "int", default=0, minimum=0, maximum=9),
    Field("jump", "int", default=0, minimum=0, maximum=9),
    Field("agility", "int", default=0, minimum=0, maximum=9, help="used in place of computer by spinal mounts"),
    Field("computer_model", "int", minimum=0, maximum=9),
    Field("sensor_ops", "int", default=-1, minimum=-1, maximum=15,
          help="a PC sensor/gunnery officer's Sensor Ops skill; -1: none statted"),
    Field("signature", "str", default="medium", choices=SIGNATURES),
    Field("defence_dm", "int", default=0, minimum=-9, maximum=15, help="Def DM: subtracted from to-hit rolls"),
    Field("armor", "int", default=0, minimum=0, maximum=200, help="armor value (AV)"),
    Field("globe", "str", default="", choices=("", "black", "white")),
    Field("globe_flicker", "int", default=0, minimum=0, maximum=9, help="+6 AV per factor of flicker"),
    Field("sand", "int", default=0, minimum=0, maximum=9),
    Field("damper", "int", default=0, minimum=0, maximum=9),
    Field("repulsor", "int", default=0, minimum=0, maximum=9),
    Field("meson_screen", "int", default=0, minimum=0, maximum=9),
    Field("configuration", "int", default=0, minimum=0, maximum=9,
          help=f"hull configuration 1-9, which meson guns must penetrate; 0 or not given: {DEFAULT_CONFIGURATION}"),
    Field("fuel", "int", default=0, minimum=0, maximum=10_000_000),
    Field("crew", "int", default=0, minimum=0, maximum=1_000_000),
    Field("tactics_pool", "int", default=0, minimum=0, maximum=30, help="the ship's tactics points"),
    Field("sensors", "table", default={}, help="{pass_obj_scan = {far = \"difficult\"}, ...}"),
    Field("batteries", "list", default=[], help="[{weapon, factor, count, bearing, gunner_skill, spinal}]"),
)

BATTERY_FIELDS: tuple[Field, ...] = (
    Field("weapon", "str"),
    Field("factor", "int", minimum=1, maximum=27, help="UCP factor; spinal mounts 10 (A) and up"),
    Field("count", "int", default=1, minimum=1, maximum=999),
    Field("bearing", "int", default=-1, minimum=-1, maximum=999, help="batteries bearing; -1: all"),
    Field("gunner_skill", "int", default=-1, minimum=-1, maximum=15, help="statted head gunner; -1: none"),
    Field("to_hit_number", "int", default=0, minimum=-15, maximum=15,
          help="meson guns: the to-hit number on the ship's data (a to-hit DM); 0 or not given: the gun's factor"),
    Field("spinal", "bool", default=False),
)


def ucp(factor: int) -> str:
    """A factor as its UCP digit: 10 is A, 18 is J (I and O are skipped)."""
    return UCP_DIGITS[factor] if 0 <= factor < len(UCP_DIGITS) else str(factor)


SPINAL_FACTOR = 10  # "Factor >=A (10) (Spinals)"; "Factor <=9 (non Spinal)"


def set_factor(battery: dict, factor: int) -> str:
    """A battery's factor changed in play (a weapon hit, a correction): its mount follows, spinal exactly at
    factor A (10) or more ("Factor <=9 (non Spinal)"). Answers the log's words when the mount changed."""
    battery["factor"] = factor
    spinal = factor >= SPINAL_FACTOR
    if spinal == battery["spinal"]:
        return ""
    battery["spinal"] = spinal
    return "now a spinal mount (factor A or more)" if spinal else "no longer a spinal mount (factor 9 or less)"


def mount_fault(battery: dict, tables: Tables) -> str:
    """Why a battery's weapon, factor and mount cannot go together ("" when they can).

    "Spinal Mounts (Rules only include PA and Meson)": a battery may be spinal only when its weapon
    type is marked ``spinal_mount`` in the weapons table (the shipped one marks those two); a spinal
    is factor A (10) or more and any other battery 9 or less (damage: "Factor <=9 (non Spinal)").
    Ship files and hand corrections both ask here.
    """
    weapon = tables.weapons[battery["weapon"]]
    if battery["spinal"] and not weapon["spinal_mount"]:
        mounts = ", ".join(w["label"].lower() for w in tables.weapons.values() if w["spinal_mount"]) or "none"
        return f"a {weapon['label'].lower()} cannot be a spinal mount (spinal mounts: {mounts})"
    if battery["spinal"] and battery["factor"] < SPINAL_FACTOR:
        return f"a spinal mount is factor A (10) or more, got {battery['factor']}"
    if not battery["spinal"] and battery["factor"] >= SPINAL_FACTOR:
        return f"a battery (not spinal) is factor 9 or less, got {battery['factor']}"
    return ""


def check_ship(ship: dict, tables: Tables, where: str) -> None:
    """Batteries and sensors name things the tables know, and each battery's mount fits its weapon
    and factor (``mount_fault``)."""
    batteries = at(where, "batteries")
    ship["batteries"] = [validate(b, BATTERY_FIELDS, at(batteries, i)) for i, b in enumerate(ship["batteries"])]
    weapon = Field("weapon", "str", choices=tuple(tables.weapons))
    for i, b in enumerate(ship["batteries"]):
        place = at(batteries, i)
        check_value(b["weapon"], weapon, place)
        fault = mount_fault(b, tables)
        if fault:
            raise BadTable(f"{place}: {fault}")
        if b["bearing"] > b["count"]:
            raise BadTable(f"{place}: bearing {b['bearing']} is more than the {b['count']} batteries")
    sensors_check(tables)(ship["sensors"], at(where, "sensors"))


def sensors_check(tables: Tables) -> Any:
    """A ship's sensors: for each task it has, the difficulty at each band it reaches. A ship file's, and a
    resumed [state]'s ship's (a band the rules lack would fail the next sensor roll that looks it up)."""
    levels = tuple(tables.difficulties)
    difficulty = one_of(*levels).worded(f"a difficulty ({', '.join(levels)})")
    reach = table_of(difficulty, BANDS, expected='{band = "difficulty"}')
    return table_of(reach, SENSOR_TASKS)


def ship_state(ship: dict[str, Any], side: str) -> dict[str, Any]:
    """The state a ship begins the fight in, from its checked ship file."""
    batteries = []
    for g, b in enumerate(ship["batteries"], 1):
        bearing = b["count"] if b["bearing"] < 0 else b["bearing"]
        for n in range(1, b["count"] + 1):
            batteries.append({
                "id": f"B{g}-{n}" if b["count"] > 1 else f"B{g}", "group": f"B{g}", "weapon": b["weapon"],
                "factor": b["factor"], "spinal": b["spinal"], "gunner_skill": b["gunner_skill"],
                "to_hit_number": b["to_hit_number"], "bearing": n <= bearing, "used": "",
            })
    return {
        "side": side, "name": ship["name"], "class_name": ship["class_name"], "type_code": ship["type_code"],
        "tonnage": ship["tonnage"], "power_plant": ship["power_plant"], "maneuver": ship["maneuver"],
        "jump": ship["jump"], "agility": ship["agility"], "computer": ship["computer_model"],
        "sensor_ops": ship["sensor_ops"], "signature": ship["signature"], "defence_dm": ship["defence_dm"],
        "armor": ship["armor"], "armor_start": ship["armor"], "globe": ship["globe"],
        "globe_flicker": ship["globe_flicker"],
        "defences": {d: ship[d] for d in ("sand", "damper", "repulsor", "meson_screen", "configuration")},
        "fuel": ship["fuel"], "fuel_start": ship["fuel"], "crew": ship["crew"], "crew_hits": 0,
        "sensor_hits": 0, "hold_hits": 0,
        "tactics": ship["tactics_pool"],
        "sensors": {t: dict(ship["sensors"].get(t, {})) for t in SENSOR_TASKS},
        "batteries": batteries,
        "free_sensor_used": False,
        "shut_down": [],
    }


def class_words(ship: dict) -> str:
    """"Type T patrol cruiser (type code T)": the class, and the type code on its own (run together, the demo
    read "Type T patrol cruiser T")."""
    name, code = str(ship.get("class_name", "")).strip(), str(ship.get("type_code", "")).strip()
    if name and code:
        return f"{name} (type code {code})"
    return name or (f"type code {code}" if code else "-")
