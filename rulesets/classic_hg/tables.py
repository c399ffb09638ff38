"""The classic-hg tables: the TOML files read, checked, and handed to the rules as ``Tables``.

The rules text names tables it never prints (TO HIT, TO INTERCEPT, the hit
locations, radiation, the ramming roll), so every table is data in ``tables/``
(TABLES.md is the contract) and a game master can swap in their own book's
numbers without touching Python (DESIGN.md). Each file is checked when loaded;
every problem is one BadTable line naming the file and the entry.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from engine.errors import BadTable
from engine.tables import TableSet

RULESET_ID = "classic-hg"
TABLES_DIR = Path(__file__).resolve().parent / "tables"
TABLE_NAMES = ("weapons", "defences", "programs", "computers", "locations",
               "radiation", "spallation", "ramming", "crew_attacks")
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
    sources: dict[str, str] = field(default_factory=dict)  # table name -> file it came from


# --- checks: each is called with (value, where) and raises one BadTable line ---------------

def _key(k: str) -> str:
    """A key as TOML would write it in a dotted path (quoted unless bare)."""
    bare = k and all(c.isalnum() or c in "_-" for c in k)
    return k if bare else f'"{k}"'


@dataclass(frozen=True)
class _Check:
    expected: str
    ok: Callable[[Any], bool]

    def __call__(self, value: Any, where: str) -> Any:
        if not self.ok(value):
            raise BadTable(f"{where}: expected {self.expected}, got {value!r}")
        return value


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _whole(lo: int | None = None, hi: int | None = None) -> _Check:
    words = {(None, None): "a whole number", (None, 0): "a whole number 0 or less"}
    expected = words.get((lo, hi)) or (f"a whole number {lo}..{hi}" if hi is not None else f"a whole number {lo} or more")
    return _Check(expected, lambda v: _is_int(v) and (lo is None or v >= lo) and (hi is None or v <= hi))


def _one_of(*choices: str) -> _Check:
    return _Check("one of " + ", ".join(repr(c) for c in choices), lambda v: v in choices and isinstance(v, str))


TEXT = _Check("text", lambda v: isinstance(v, str))
FLAG = _Check("true or false", lambda v: isinstance(v, bool))
NUMBER = _Check("a number 0 or more", lambda v: (_is_int(v) or isinstance(v, float)) and v >= 0)
NAMES = _Check("a list of names", lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v))
ROLL = _Check("a 2D number 2..12 or 'auto'/'no'", lambda v: v in ("auto", "no") or (_is_int(v) and 2 <= v <= 12))
ROLL_NUMBER = _Check("a 2D number 2..12", lambda v: _is_int(v) and 2 <= v <= 12)


@dataclass(frozen=True)
class _TableOf:
    """A table whose values all pass ``each``; keys limited to ``keys`` when given."""

    each: _Check
    keys: tuple[str, ...] | None = None

    @property
    def expected(self) -> str:
        return "a table" + (f" of {'/'.join(self.keys)}" if self.keys else "")

    def __call__(self, value: Any, where: str) -> dict:
        if not isinstance(value, dict):
            raise BadTable(f"{where}: expected {self.expected}, got {value!r}")
        for k, v in value.items():
            if self.keys is not None and k not in self.keys:
                raise BadTable(f"{where}: unexpected key {k!r} (expected {', '.join(self.keys)})")
            self.each(v, f"{where}.{_key(k)}")
        return dict(value)


REQUIRED = object()
ABSENT = object()  # optional, and left out of the result when not given


def _record(rec: Any, where: str, spec: dict[str, tuple[Any, Any]]) -> dict:
    """Check one table of fields (field -> (check, default)); returns a copy with defaults filled."""
    if not isinstance(rec, dict):
        raise BadTable(f"{where}: expected a table, got {rec!r}")
    unknown = [k for k in rec if k not in spec]
    if unknown:
        raise BadTable(f"{where}: unknown field {unknown[0]!r} (known: {', '.join(spec)})")
    out = {}
    for name, (check, default) in spec.items():
        at = f"{where}.{name}" if where else name
        if name in rec:
            out[name] = check(rec[name], at)
        elif default is REQUIRED:
            raise BadTable(f"{at}: missing ({check.expected})")
        elif default is not ABSENT:
            out[name] = copy.copy(default)
    return out


def _entries(doc: dict, section: str, spec: dict) -> dict[str, dict]:
    """Every ``[section.<id>]`` record checked against ``spec``."""
    body = doc.get(section)
    if not isinstance(body, dict) or not body:
        raise BadTable(f"{section}: expected a table of entries, got {body!r}")
    return {k: _record(v, f"{section}.{_key(k)}", spec) for k, v in body.items()}


def _complete(body: Any, where: str, keys: tuple[str, ...], check: _Check) -> dict[str, Any]:
    """A table with exactly ``keys`` (every 2D result, every armor factor), each passing ``check``."""
    if not isinstance(body, dict):
        raise BadTable(f"{where}: expected a table, got {body!r}")
    for k in body:
        if k not in keys:
            raise BadTable(f"{where}: unexpected key {k!r} (expected {keys[0]}..{keys[-1]})")
    for k in keys:
        if k not in body:
            raise BadTable(f"{where}.{_key(k)}: missing (every {keys[0]}..{keys[-1]} needs a row)")
        check(body[k], f"{where}.{_key(k)}")
    return {k: body[k] for k in keys}


def _only(doc: dict, *sections: str) -> None:
    extra = [k for k in doc if k not in ("table",) + sections]
    if extra:
        raise BadTable(f"{extra[0]}: unknown top-level key (expected {', '.join(sections)})")


# --- one checker per table: doc -> normalised body (without the header) ----------------------

WEAPON = {
    "label": (TEXT, REQUIRED), "family": (_one_of(*FAMILIES), REQUIRED),
    "to_hit": (_TableOf(ROLL, RANGES), REQUIRED), "damage": (_whole(0), REQUIRED),
    "per_weapon": (FLAG, False), "nuclear": (FLAG, False), "radiation": (FLAG, False),
    "spallation": (TEXT, ""), "crew_attack": (TEXT, ""), "sand_reduces": (FLAG, False),
    "ecm": (FLAG, True), "evade_program": (TEXT, ""), "program": (TEXT, ""), "ammo": (_one_of(*AMMO), ""),
}
MOUNT = {
    "label": (TEXT, REQUIRED), "fires": (NAMES, []), "defends": (NAMES, []), "tons": (NUMBER, REQUIRED),
    "cost": (NUMBER, REQUIRED), "energy_points": (_whole(0), REQUIRED), "alone": (FLAG, False),
}
TORPEDO_TUBE = {
    "tons": (NUMBER, REQUIRED), "cost_new": (NUMBER, REQUIRED), "cost_retrofit": (NUMBER, REQUIRED),
    "reload_turns": (_whole(1), REQUIRED), "torpedo_tons": (NUMBER, REQUIRED), "tray": (_whole(0), REQUIRED),
}
DEFENCE = {
    "label": (TEXT, REQUIRED), "programs": (NAMES, []), "to_intercept": (_TableOf(ROLL), REQUIRED),
    "effect": (_one_of("destroy", "reduce"), REQUIRED), "reduce_by": (_whole(0), 0),
    "field": (FLAG, False), "ammo": (_one_of(*AMMO), ""),
}
PROGRAM = {
    "storage": (_whole(0), REQUIRED), "cost": (NUMBER, REQUIRED), "energy_points": (_whole(0), 0),
    "to_hit_dm": (_whole(), 0), "evade_dm": (_whole(hi=0), 0), "intercept_dm": (_whole(), 0),
    "selective": (FLAG, False), "ecm": (FLAG, False),
}
COMPUTER = {"storage": (_whole(0), REQUIRED), "cost": (NUMBER, REQUIRED)}
RAMMING = {
    "to_ram": (ROLL_NUMBER, REQUIRED), "dm_per_maneuver": (_whole(), REQUIRED), "close_only": (FLAG, True),
    "hits_per_100_tons": (NUMBER, REQUIRED), "minimum_hits": (_whole(0), 1),
}
CREW_ATTACK = {
    "equivalent": (TEXT, ""), "kill_roll": (ROLL_NUMBER, ABSENT), "otherwise": (TEXT, ""), "killed": (FLAG, False),
}


def _weapons(doc: dict) -> dict:
    _only(doc, "entries", "mounts", "torpedo_tube")
    entries = _entries(doc, "entries", WEAPON)
    mounts = _entries(doc, "mounts", MOUNT)
    for mid, m in mounts.items():
        for aid in m["fires"]:
            where = f"mounts.{_key(mid)}.fires"
            if aid not in entries:
                raise BadTable(f"{where}: {aid!r} is not an attack type in [entries] (known: {', '.join(entries)})")
            if all(v == "no" for v in entries[aid]["to_hit"].values()):
                raise BadTable(f"{where}: {aid!r} never attacks (its to_hit names no range)")
    tube = _record(doc.get("torpedo_tube"), "torpedo_tube", TORPEDO_TUBE)
    return {"entries": entries, "mounts": mounts, "torpedo_tube": tube}


def _defences(doc: dict) -> dict:
    _only(doc, "entries")
    entries = _entries(doc, "entries", DEFENCE)
    for did, d in entries.items():
        if d["effect"] == "reduce" and d["reduce_by"] < 1:
            raise BadTable(f"entries.{_key(did)}.reduce_by: expected a whole number 1 or more for effect 'reduce', got {d['reduce_by']!r}")
    return {"entries": entries}


def _programs(doc: dict) -> dict:
    _only(doc, "entries")
    return {"entries": _entries(doc, "entries", PROGRAM)}


def _computers(doc: dict) -> dict:
    _only(doc, "entries")
    entries = _complete(doc.get("entries"), "entries", tuple(str(n) for n in range(1, 10)), _Check("a table", lambda v: True))
    return {"entries": {k: _record(v, f"entries.{_key(k)}", COMPUTER) for k, v in entries.items()}}


def _locations(doc: dict) -> dict:
    _only(doc, "general", "specific")
    general = _complete(doc.get("general"), "general", ROLLS_2D, _Check("a general location id", lambda v: isinstance(v, str) and v != ""))
    specific_doc = doc.get("specific")
    if not isinstance(specific_doc, dict):
        raise BadTable(f"specific: expected a table of [specific.<general location>] tables, got {specific_doc!r}")
    effect = _one_of(*EFFECTS)
    specific = {g: _complete(t, f"specific.{_key(g)}", ROLLS_2D, effect) for g, t in specific_doc.items()}
    for roll, g in general.items():
        if g not in specific:
            raise BadTable(f"general.{_key(roll)}: no [specific.{_key(g)}] table for general location {g!r}")
    return {"general": general, "specific": specific}


def _radiation(doc: dict) -> dict:
    _only(doc, "armor")
    return {"armor": _complete(doc.get("armor"), "armor", ARMOR_FACTORS, ROLL)}


ARMOR_ROW = _Check("a list of 16 items (armor 0..15), each a 2D number 2..12 or 'auto'/'no'",
                   lambda v: isinstance(v, list) and len(v) == 16)


def _spallation(doc: dict) -> dict:
    _only(doc, "spaced_dm", "entries")
    spaced = _whole()(doc.get("spaced_dm"), "spaced_dm")
    entries = _entries(doc, "entries", {"armor": (ARMOR_ROW, REQUIRED)})
    for sid, e in entries.items():
        for armor, cell in enumerate(e["armor"]):
            ROLL(cell, f"entries.{_key(sid)}.armor[{armor}]")
    return {"spaced_dm": spaced, "entries": entries}


def _ramming(doc: dict) -> dict:
    _only(doc, "entries")
    return {"entries": _record(doc.get("entries"), "entries", RAMMING)}


def _crew_attacks(doc: dict) -> dict:
    _only(doc, "entries")
    entries = _entries(doc, "entries", CREW_ATTACK)
    for cid, e in entries.items():
        if not (e["equivalent"] or "kill_roll" in e or e["killed"]):
            raise BadTable(f"entries.{_key(cid)}: expected an equivalent weapon, a kill_roll or killed = true")
    return {"entries": entries}


_CHECKERS: dict[str, Callable[[dict], dict]] = {
    "weapons": _weapons, "defences": _defences, "programs": _programs, "computers": _computers,
    "locations": _locations, "radiation": _radiation, "spallation": _spallation,
    "ramming": _ramming, "crew_attacks": _crew_attacks,
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
                refuse("weapons", f"mounts.{_key(mid)}.defends", did, "defences", defences)
    for wid, w in weapons.items():
        where = f"entries.{_key(wid)}"
        for fname, table, known in (("program", "programs", programs), ("evade_program", "programs", programs),
                                    ("spallation", "spallation", spallation), ("crew_attack", "crew_attacks", crew)):
            if w[fname] and w[fname] not in known:
                refuse("weapons", f"{where}.{fname}", w[fname], table, known)
    for did, d in defences.items():
        where = f"entries.{_key(did)}"
        for p in d["programs"]:
            if p not in programs:
                refuse("defences", f"{where}.programs", p, "programs", programs)
        for aid in d["to_intercept"]:
            if aid not in weapons:
                refuse("defences", f"{where}.to_intercept", aid, "weapons", weapons)
            if d["ammo"] == "sand" and not weapons[aid]["sand_reduces"]:
                raise BadTable(f"{paths['defences']}: {where}.to_intercept.{_key(aid)}: sand cannot act on "
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
        sources={name: str(p) for name, p in paths.items()},
    )


# --- loading, cached ------------------------------------------------------------------------

TABLE_SET: TableSet[Tables] = TableSet(RULESET_ID, TABLES_DIR, _CHECKERS, _build, _check_set)
assert TABLE_SET.names == TABLE_NAMES
check_table = TABLE_SET.check_table
load_tables = TABLE_SET.load
shipped_path = TABLE_SET.shipped_path
