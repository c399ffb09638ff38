"""The classic-hg tables: the TOML files read, checked, and handed to the rules as ``Tables``.

The rules text names tables it never prints (TO HIT, TO INTERCEPT, the hit
locations, radiation, the ramming roll), so every table is data in ``tables/``
(TABLES.md is the contract) and a game master can swap in their own book's
numbers without touching Python (DESIGN.md). Each file is checked when loaded;
every problem is one BadTable line naming the file and the entry.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from engine.errors import BadTable
from engine.schema import (ABSENT, FLAG, NAMES, REQUIRED, TEXT, WHOLE, Is, at, entries, every_row, list_of, number,
                           one_of, record, sections, table_of, whole)
from engine.tables import TableSet

RULESET_ID = "classic-hg"
TABLES_DIR = Path(__file__).resolve().parent / "tables"
TABLE_NAMES = ("weapons", "defences", "programs", "computers", "locations",
               "radiation", "spallation", "ramming", "crew_attacks", "armor")
RANGES = ("close", "short", "long")
FAMILIES = ("beam", "missile", "torpedo", "repeater", "sand", "particle")
AMMO = ("", "missiles", "torpedoes", "am_missiles", "sand")
EFFECTS = ("cargo", "computer", "controls", "crew", "fire_control", "fuel", "fuel_scoops", "hangar",
           "jump_drive", "maneuver_drive", "power_plant", "purification", "quarters", "sensors", "weapon")
ROLLS_2D = tuple(str(n) for n in range(2, 13))
ARMOR_FACTORS = tuple(str(n) for n in range(16))


@dataclass(frozen=True)
class Tables:
    """Every classic-hg table, as the rules read them. Shared and cached: treat as read-only."""

    weapons: dict[str, dict]
    mounts: dict[str, dict]
    defences: dict[str, dict]
    programs: dict[str, dict]
    computers: dict[int, dict]
    general_locations: dict[int, str]
    specific_locations: dict[str, dict[int, str]]
    radiation: dict[int, int | str]
    spallation: dict[str, list]
    spallation_spaced_dm: int
    ramming: dict
    crew_attacks: dict[str, dict]
    torpedo_tube: dict = field(default_factory=dict)  # weapons.toml [torpedo_tube]
    armor: dict = field(default_factory=dict)  # armor.toml [entries]: the displacement of armor
    sources: dict[str, str] = field(default_factory=dict)  # table name -> file it came from


# --- one checker per table: doc -> normalised body (without the header) ----------------------

ROLL_NUMBER = whole(2, 12).worded("a 2D number 2..12")
ROLL = Is("a 2D number 2..12 or 'auto'/'no'", lambda v: v in ("auto", "no") or ROLL_NUMBER.passes(v))
NUMBER = number(0)

WEAPON = {
    "label": (TEXT, REQUIRED), "family": (one_of(*FAMILIES), REQUIRED),
    "to_hit": (table_of(ROLL, RANGES), REQUIRED), "damage": (whole(0), REQUIRED),
    "per_weapon": (FLAG, False), "nuclear": (FLAG, False), "radiation": (FLAG, False),
    "spallation": (TEXT, ""), "crew_attack": (TEXT, ""), "sand_reduces": (FLAG, False),
    "ecm": (FLAG, True), "evade_program": (TEXT, ""), "program": (TEXT, ""), "ammo": (one_of(*AMMO), ""),
}
MOUNT = {
    "label": (TEXT, REQUIRED), "fires": (NAMES, []), "defends": (NAMES, []), "tons": (NUMBER, REQUIRED),
    "cost": (NUMBER, REQUIRED), "energy_points": (whole(0), REQUIRED), "alone": (FLAG, False),
}
TORPEDO_TUBE = {
    "tons": (NUMBER, REQUIRED), "cost_new": (NUMBER, REQUIRED), "cost_retrofit": (NUMBER, REQUIRED),
    "reload_turns": (whole(1), REQUIRED), "torpedo_tons": (NUMBER, REQUIRED), "tray": (whole(0), REQUIRED),
}
DEFENCE = {
    "label": (TEXT, REQUIRED), "programs": (NAMES, []), "to_intercept": (table_of(ROLL), REQUIRED),
    "effect": (one_of("destroy", "reduce"), REQUIRED), "reduce_by": (whole(0), 0),
    "field": (FLAG, False), "ammo": (one_of(*AMMO), ""), "each_weapon": (FLAG, False),
}
PROGRAM = {
    "storage": (whole(0), REQUIRED), "cost": (NUMBER, REQUIRED), "energy_points": (whole(0), 0),
    "to_hit_dm": (WHOLE, 0), "evade_dm": (whole(hi=0), 0), "intercept_dm": (WHOLE, 0),
    "selective": (FLAG, False), "ecm": (FLAG, False),
}
COMPUTER = {"storage": (whole(0), REQUIRED), "cost": (NUMBER, REQUIRED)}
RAMMING = {
    "to_ram": (ROLL_NUMBER, REQUIRED), "dm_per_maneuver": (WHOLE, REQUIRED), "close_only": (FLAG, True),
    "hits_per_100_tons": (NUMBER, REQUIRED), "minimum_hits": (whole(0), 1),
}
CREW_ATTACK = {
    "equivalent": (TEXT, ""), "kill_roll": (ROLL_NUMBER, ABSENT), "otherwise": (TEXT, ""), "killed": (FLAG, False),
    # what "otherwise" takes of each person when personal combat resolves crew hits: that many attributes to 0
    "attributes_lost": (whole(0, 5), 0),
}
ARMOR = {"percent_base": (NUMBER, REQUIRED), "percent_per_factor": (NUMBER, REQUIRED)}
GENERAL_LOCATION = Is("a general location id", lambda v: isinstance(v, str) and v != "")
SPECIFIC_LOCATIONS = table_of(every_row(ROLLS_2D, one_of(*EFFECTS)),
                              expected="a table of [specific.<general location>] tables")
SPALLATION = {"armor": (list_of(ROLL, length=16, expected="a list of 16 items (armor 0..15), each a 2D number "
                                                           "2..12 or 'auto'/'no'"), REQUIRED)}


def _weapons(doc: dict) -> dict:
    body = sections(doc, {"entries": entries(record(WEAPON)), "mounts": entries(record(MOUNT)),
                          "torpedo_tube": record(TORPEDO_TUBE)})
    weapons = body["entries"]
    for mid, m in body["mounts"].items():
        where = at(at("mounts", mid), "fires")
        for aid in m["fires"]:
            if aid not in weapons:
                raise BadTable(f"{where}: {aid!r} is not an attack type in [entries] (known: {', '.join(weapons)})")
            if all(v == "no" for v in weapons[aid]["to_hit"].values()):
                raise BadTable(f"{where}: {aid!r} never attacks (its to_hit names no range)")
    return body


def _defences(doc: dict) -> dict:
    body = sections(doc, {"entries": entries(record(DEFENCE))})
    reducing = whole(1).worded("a whole number 1 or more for effect 'reduce'")
    for did, d in body["entries"].items():
        if d["effect"] == "reduce":
            reducing(d["reduce_by"], at(at("entries", did), "reduce_by"))
    return body


def _programs(doc: dict) -> dict:
    return sections(doc, {"entries": entries(record(PROGRAM))})


def _computers(doc: dict) -> dict:
    return sections(doc, {"entries": every_row(tuple(str(n) for n in range(1, 10)), record(COMPUTER))})


def _locations(doc: dict) -> dict:
    body = sections(doc, {"general": every_row(ROLLS_2D, GENERAL_LOCATION), "specific": SPECIFIC_LOCATIONS})
    for roll, g in body["general"].items():
        if g not in body["specific"]:
            raise BadTable(f"{at('general', roll)}: no [{at('specific', g)}] table for general location {g!r}")
    return body


def _radiation(doc: dict) -> dict:
    return sections(doc, {"armor": every_row(ARMOR_FACTORS, ROLL)})


def _spallation(doc: dict) -> dict:
    return sections(doc, {"spaced_dm": WHOLE, "entries": entries(record(SPALLATION))})


def _ramming(doc: dict) -> dict:
    return sections(doc, {"entries": record(RAMMING)})


def _crew_attacks(doc: dict) -> dict:
    body = sections(doc, {"entries": entries(record(CREW_ATTACK))})
    for cid, e in body["entries"].items():
        if not (e["equivalent"] or "kill_roll" in e or e["killed"]):
            raise BadTable(f"{at('entries', cid)}: expected an equivalent weapon, a kill_roll or killed = true")
    return body


def _armor(doc: dict) -> dict:
    return sections(doc, {"entries": record(ARMOR)})


_CHECKERS: dict[str, Callable[[dict], dict]] = {
    "weapons": _weapons, "defences": _defences, "programs": _programs, "computers": _computers,
    "locations": _locations, "radiation": _radiation, "spallation": _spallation,
    "ramming": _ramming, "crew_attacks": _crew_attacks, "armor": _armor,
}

# --- the set: cross-table checks ----------------------------------------------------------

def _check_set(docs: dict[str, dict], paths: dict[str, Path]) -> None:
    """References between tables: every name a table uses exists in the table it names."""
    weapons, defences = docs["weapons"]["entries"], docs["defences"]["entries"]
    programs = docs["programs"]["entries"]
    spallation, crew = docs["spallation"]["entries"], docs["crew_attacks"]["entries"]

    def refuse(table: str, where: str, name: str, other: str, known) -> None:
        raise BadTable(f"{paths[table]}: {where}: {name!r} is not in the {other} table ({paths[other]}; known: {', '.join(known)})")

    for mid, m in docs["weapons"]["mounts"].items():
        for did in m["defends"]:
            if did not in defences:
                refuse("weapons", at(at("mounts", mid), "defends"), did, "defences", defences)
    for wid, w in weapons.items():
        where = at("entries", wid)
        for fname, table, known in (("program", "programs", programs), ("evade_program", "programs", programs),
                                    ("spallation", "spallation", spallation), ("crew_attack", "crew_attacks", crew)):
            if w[fname] and w[fname] not in known:
                refuse("weapons", f"{where}.{fname}", w[fname], table, known)
    for did, d in defences.items():
        where = at("entries", did)
        for p in d["programs"]:
            if p not in programs:
                refuse("defences", f"{where}.programs", p, "programs", programs)
        for aid in d["to_intercept"]:
            if aid not in weapons:
                refuse("defences", f"{where}.to_intercept", aid, "weapons", weapons)
            if d["ammo"] == "sand" and not weapons[aid]["sand_reduces"]:
                raise BadTable(f"{paths['defences']}: {at(at(where, 'to_intercept'), aid)}: sand cannot act on "
                               f"{aid!r} (its sand_reduces is false in {paths['weapons']})")


def _build(docs: dict[str, dict], paths: dict[str, Path]) -> Tables:
    ints = lambda table: {int(k): v for k, v in table.items()}  # noqa: E731
    loc = docs["locations"]
    return Tables(
        weapons=docs["weapons"]["entries"],
        mounts=docs["weapons"]["mounts"],
        defences=docs["defences"]["entries"],
        programs=docs["programs"]["entries"],
        computers=ints(docs["computers"]["entries"]),
        general_locations=ints(loc["general"]),
        specific_locations={g: ints(t) for g, t in loc["specific"].items()},
        radiation=ints(docs["radiation"]["armor"]),
        spallation={k: list(e["armor"]) for k, e in docs["spallation"]["entries"].items()},
        spallation_spaced_dm=docs["spallation"]["spaced_dm"],
        ramming=docs["ramming"]["entries"],
        crew_attacks=docs["crew_attacks"]["entries"],
        torpedo_tube=docs["weapons"]["torpedo_tube"],
        armor=docs["armor"]["entries"],
        sources={name: str(p) for name, p in paths.items()},
    )


# --- loading, cached ------------------------------------------------------------------------

TABLE_SET: TableSet[Tables] = TableSet(RULESET_ID, TABLES_DIR, _CHECKERS, _build, _check_set)
assert TABLE_SET.names == TABLE_NAMES
check_table = TABLE_SET.check_table
load_tables = TABLE_SET.load
shipped_path = TABLE_SET.shipped_path
