"""The percentile tables: TOML files in ``tables/``, checked on load and handed to the rules.

The rules text (``percentile-personal-combat.txt``) names many tables it never
prints (3-1 to 3-7, the random hit table 3-3.4, 3-8 to 3-21, 3-15.x, the
weapons data sheets), so each is a file with a ``[table]`` header saying which
numbers come from the text and which are our shipped default (DESIGN.md). A
game master replaces a file through ``setup.options.tables``. Every problem is
one BadTable line naming the entry.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from engine.dice import parse_dice
from engine.errors import BadTable, FlagbridgeError
from engine.schema import (FLAG, REQUIRED, TEXT, Is, at, entries, list_of, number, one_of, record, sections,
                           table_of, whole)
from engine.tables import TableSet

RULESET_ID = "percentile"
TABLES_DIR = Path(__file__).resolve().parent / "tables"
TABLE_NAMES = ("ranges", "adversity", "weapons", "races", "actions", "throwing", "descriptions", "wounds", "organs")
KINDS = ("weaponry", "hand_to_hand", "grenade")
DAMAGE_TYPES = ("blade", "bludgeon", "projectile", "shrapnel", "laser", "plasma", "sonic")
PART_CLASSES = ("head", "chest", "abdomen", "arm", "hand", "leg", "foot")
DIE = Is('a damage die roll "X+Y" (X ten-sided dice, a fraction below 1 allowed; plus Y)',
         lambda v: isinstance(v, str) and _die_ok(v))


_DIE_TEXT = re.compile(r"\s*(?:[0-9]{1,4}(?:\.[0-9]{1,4})?|\.[0-9]{1,4})\s*(?:\+\s*[0-9]{1,6}\s*)?")


def _die_ok(text: str) -> bool:
    """ASCII digits in the data sheets' form, and a roll the dice layer reads (so a fight never asks for one
    it cannot take): a table that passes never leaves a damage roll unanswerable."""
    if not _DIE_TEXT.fullmatch(text):
        return False
    amount = float(text.partition("+")[0])
    if not (amount > 0 and (amount < 1 or amount.is_integer())):
        return False
    try:
        parse_dice(die_notation(text))
    except FlagbridgeError:
        return False
    return True


def die_notation(text: str) -> str:
    """The data sheets' ``4+2`` as the dice layer writes it, ``4:10sd+2`` (text, "Damage Die Rolls")."""
    x, _, y = text.partition("+")
    return f"{x.strip()}:10sd" + (f"+{int(y)}" if y.strip() and int(y) else "")


@dataclass(frozen=True)
class Tables:
    """Every percentile table as the rules read it. Shared and cached: treat as read-only."""

    bands: list[dict]
    to_hit: dict[int, list[int]]
    against: dict[int, list[int]]
    damage: dict[int, list[int]]
    adversity: dict[str, dict]
    weapons: dict[str, dict]
    races: dict[str, dict]
    actions: dict[str, dict]
    weights_kg: list[float]
    throw_distance: dict[int, list[int]]
    bounce: dict[int, dict]
    descriptions: dict[str, dict]
    wounds: dict
    organs: dict
    #: What rules work out from these tables alone (sorted description rows, a crew hit's weapon and
    #: chance), kept at first use: the tables never change while loaded, and a fight asks again and again.
    memo: dict = field(default_factory=dict, compare=False, repr=False)

    def band_index(self, band: str) -> int:
        return next(i for i, b in enumerate(self.bands) if b["id"] == band)


def _rows(width: int, what: str):
    """Rows keyed by a whole number (read at the highest key not above), each a list across ``width`` columns."""
    row = list_of(whole(0), length=width, expected=f"a list of {width} whole numbers, one per {what}")

    def check(value, where):
        if not isinstance(value, dict) or not value:
            raise BadTable(f"{where}: expected a table of rows by number, got {value!r}")
        out = {}
        for k, v in value.items():
            if not k.isdigit():
                raise BadTable(f"{at(where, k)}: expected a row key that is a whole number")
            out[k] = row(v, at(where, k))
        if "0" not in out:
            raise BadTable(f"{where}: missing row \"0\" (every value needs a row at or below it)")
        return out
    return Is("rows", lambda v: True), check


def _ranges(doc: dict) -> dict:
    band = record({"id": (TEXT, REQUIRED), "label": (TEXT, REQUIRED), "up_to_m": (whole(0), REQUIRED)},
                  expected="{ id, label, up_to_m }")
    bands = list_of(band, at_least=1)(doc.get("bands"), "bands")
    last = -1
    for i, b in enumerate(bands):
        if b["up_to_m"] <= last:
            raise BadTable(f"bands[{i}].up_to_m: expected more than {last} (bands go up in range)")
        last = b["up_to_m"]
    n = len(bands)
    out = {"bands": bands}
    for name in ("to_hit", "against", "damage"):
        out[name] = _rows(n, "range band")[1](doc.get(name), name)
    extra = [k for k in doc if k not in ("table", "bands", "to_hit", "against", "damage")]
    if extra:
        raise BadTable(f"{extra[0]}: unknown top-level key (expected bands, to_hit, against, damage)")
    return out


def _adversity(doc: dict) -> dict:
    entry = record({"label": (TEXT, REQUIRED), "modifier": (whole(0), REQUIRED)}, expected="{ label, modifier }")
    group = record({"title": (TEXT, REQUIRED), "entries": (entries(entry), REQUIRED)})
    return sections(doc, {"groups": entries(group)})


#: "any attack may combine more than one type of damage depending on the weapon used" (Weaponry Combat): a weapon's
#: damage_type is one type, or a list of different ones (read as a list either way, ``_weapons``).
DAMAGE_TYPE = Is(f"a damage type ({', '.join(DAMAGE_TYPES)}) or a list of different ones",
                 lambda v: v in DAMAGE_TYPES if isinstance(v, str) else
                 isinstance(v, list) and bool(v) and all(isinstance(t, str) and t in DAMAGE_TYPES for t in v)
                 and len(set(v)) == len(v))

WEAPON = {
    "label": (TEXT, REQUIRED), "kind": (one_of(*KINDS), REQUIRED), "dif": (whole(0, 100), REQUIRED),
    "wep_mod": (whole(0), REQUIRED), "damage": (DIE, REQUIRED), "damage_type": (DAMAGE_TYPE, REQUIRED),
    "ap": (whole(0), REQUIRED), "blast_m": (whole(0), 0), "weight_kg": (number(above=0), 1), "thrown": (FLAG, False),
}


#: "Hand to Hand combat inflicts blade and bludgeon damage ... the only two types of damage that can be inflicted by
#: Hand-To-Hand attacks".
HAND_TO_HAND_DAMAGE = ("blade", "bludgeon")


def _weapons(doc: dict) -> dict:
    body = sections(doc, {"entries": entries(record(WEAPON))})
    for wid, w in body["entries"].items():
        w["damage_type"] = [w["damage_type"]] if isinstance(w["damage_type"], str) else list(w["damage_type"])
        other = next((t for t in w["damage_type"] if t not in HAND_TO_HAND_DAMAGE), None)
        if w["kind"] == "hand_to_hand" and other is not None:
            raise BadTable(f"{at(at('entries', wid), 'damage_type')}: a hand-to-hand attack does blade or bludgeon "
                           f"damage only, got {other!r}")
        if w["kind"] == "hand_to_hand" and w["thrown"]:  # "anything thrown" is Weaponry Combat
            raise BadTable(f"{at(at('entries', wid), 'thrown')}: a thrown weapon is weaponry (\"anything thrown\" "
                           "falls into Weaponry Combat), not hand_to_hand")
    return body


PART = record({"id": (TEXT, REQUIRED), "class": (one_of(*PART_CLASSES), REQUIRED), "points": (whole(1), REQUIRED),
               "hit": (whole(1, 100), REQUIRED)}, expected="{ id, class, points, hit }")
RACE = {"label": (TEXT, REQUIRED), "agility_points": (whole(1), REQUIRED), "exoskeleton": (FLAG, False),
        "head_in": (TEXT, "head"), "spread_damage": (FLAG, False), "parts": (list_of(PART, at_least=1), REQUIRED)}


def _races(doc: dict) -> dict:
    body = sections(doc, {"races": entries(record(RACE))})
    for rid, race in body["races"].items():
        where = at(at("races", rid), "parts")
        last, ids = 0, set()
        for i, p in enumerate(race["parts"]):
            if p["hit"] <= last:
                raise BadTable(f"{at(where, i)}.hit: expected more than {last} (hit bands go up to 100)")
            if p["id"] in ids:
                raise BadTable(f"{at(where, i)}.id: part {p['id']!r} is listed twice")
            last, _ = p["hit"], ids.add(p["id"])
        if last != 100:
            raise BadTable(f"{where}: the last part's hit must be 100 (every 1:100sd roll lands somewhere)")
        if race["head_in"] not in ids:
            raise BadTable(f"{at(at('races', rid), 'head_in')}: expected one of the race's parts, got "
                           f"{race['head_in']!r}")
    return body


def _actions(doc: dict) -> dict:
    return sections(doc, {"entries": entries(record({"label": (TEXT, REQUIRED), "cost": (whole(0), REQUIRED)}))})


def _throwing(doc: dict) -> dict:
    weights = record({"kg": (list_of(number(above=0), at_least=1), REQUIRED)})(doc.get("weights"), "weights")["kg"]
    distance = _rows(len(weights), "weight")[1](doc.get("distance"), "distance")
    bounce_row = record({"bounces": (whole(0), REQUIRED), "metres": (whole(0), REQUIRED)},
                        expected="{ bounces, metres }")
    bounce = doc.get("bounce")
    if not isinstance(bounce, dict) or sorted(bounce, key=lambda k: (len(k), k)) != [str(n) for n in range(1, 11)]:
        raise BadTable(f"bounce: expected a row for every 1:10sd roll 1..10, got {bounce!r}")
    extra = [k for k in doc if k not in ("table", "weights", "distance", "bounce")]
    if extra:
        raise BadTable(f"{extra[0]}: unknown top-level key (expected weights, distance, bounce)")
    return {"weights_kg": weights, "distance": distance,
            "bounce": {k: bounce_row(v, at("bounce", k)) for k, v in bounce.items()}}


DESCRIPTION = record({"layer": (one_of("skin", "flesh", "bone"), REQUIRED), "text": (TEXT, REQUIRED),
                      "additional": (FLAG, False)}, expected="{ layer, text, additional }")
TWENTY = tuple(str(n) for n in range(5, 101, 5))


def _descriptions(doc: dict) -> dict:
    from engine.schema import every_row
    kind = record({"table": (TEXT, REQUIRED), "rows": (every_row(TWENTY, DESCRIPTION, span="5, 10 .. 100"),
                                                        REQUIRED)})
    body = sections(doc, {"types": table_of(kind, DAMAGE_TYPES)})
    missing = [t for t in DAMAGE_TYPES if t not in body["types"]]
    if missing:
        raise BadTable(f"types.{missing[0]}: missing (every damage type needs its description table)")
    return body


def _wounds(doc: dict) -> dict:
    from engine.schema import every_row
    tens = tuple(str(n) for n in range(1, 11))
    row = record({"title": (TEXT, REQUIRED), "severity": (TEXT, REQUIRED), "percent": (whole(1), REQUIRED)},
                 expected="{ title, severity, percent }")
    body = sections(doc, {"uses": table_of(TEXT, DAMAGE_TYPES),
                          "tables": entries(record({"table": (TEXT, REQUIRED),
                                                    "rows": (every_row(tens, row, span="1..10"), REQUIRED)})),
                          "severity": entries(every_row(tens, TEXT, span="1..10"))})
    for t in DAMAGE_TYPES:
        if body["uses"].get(t) not in body["tables"]:
            raise BadTable(f"uses.{t}: expected one of the [tables] ({', '.join(body['tables'])}), "
                           f"got {body['uses'].get(t)!r}")
    for name, t in body["tables"].items():
        for k, r in t["rows"].items():
            if r["severity"] not in body["severity"]:
                raise BadTable(f"tables.{name}.rows.\"{k}\".severity: expected one of the [severity] tables "
                               f"({', '.join(body['severity'])}), got {r['severity']!r}")
    return body


def _organs(doc: dict) -> dict:
    systems = record({"list": (list_of(TEXT, at_least=1), REQUIRED)})(doc.get("organ_systems"),
                                                                     "organ_systems")["list"]
    mult = table_of(list_of(number(0), length=len(systems)), PART_CLASSES)(doc.get("multipliers"), "multipliers")
    missing = [c for c in PART_CLASSES if c not in mult]
    if missing:
        raise BadTable(f"multipliers.{missing[0]}: missing (every part class needs a row)")
    damage = doc.get("damage")
    if not isinstance(damage, dict) or sorted(damage) != sorted(systems):
        raise BadTable(f"damage: expected one table per system ({', '.join(systems)})")
    out = {}
    for s in systems:
        rows = table_of(TEXT)(damage[s], at("damage", s))
        if "0" not in rows or not all(k.isdigit() for k in rows):
            raise BadTable(f"damage.{s}: expected rows keyed by whole numbers, starting at \"0\"")
        out[s] = rows
    extra = [k for k in doc if k not in ("table", "organ_systems", "multipliers", "damage")]
    if extra:
        raise BadTable(f"{extra[0]}: unknown top-level key (expected organ_systems, multipliers, damage)")
    return {"systems": systems, "multipliers": mult, "damage": out}


_CHECKERS = {"ranges": _ranges, "adversity": _adversity, "weapons": _weapons, "races": _races,
             "actions": _actions, "throwing": _throwing, "descriptions": _descriptions, "wounds": _wounds,
             "organs": _organs}


def _numbered(rows: dict) -> dict:
    return {int(k): v for k, v in sorted(rows.items(), key=lambda kv: int(kv[0]))}


def _build(docs: dict[str, dict], paths: dict[str, Path]) -> Tables:
    r = docs["ranges"]
    return Tables(
        bands=r["bands"], to_hit=_numbered(r["to_hit"]), against=_numbered(r["against"]),
        damage=_numbered(r["damage"]), adversity=docs["adversity"]["groups"],
        weapons=docs["weapons"]["entries"], races=docs["races"]["races"], actions=docs["actions"]["entries"],
        weights_kg=docs["throwing"]["weights_kg"], throw_distance=_numbered(docs["throwing"]["distance"]),
        bounce={int(k): v for k, v in docs["throwing"]["bounce"].items()},
        descriptions=docs["descriptions"]["types"], wounds=docs["wounds"],
        organs={**docs["organs"], "damage": {s: _numbered(rows) for s, rows in docs["organs"]["damage"].items()}},
    )


TABLE_SET: TableSet[Tables] = TableSet(RULESET_ID, TABLES_DIR, _CHECKERS, _build)
assert TABLE_SET.names == TABLE_NAMES
load_tables = TABLE_SET.load


# --- lookups ------------------------------------------------------------------------------------

def row_at(rows: dict[int, object], value: float) -> object:
    """The row at the highest key not above ``value`` (the first row below the smallest key)."""
    best = next(iter(rows))
    for k in rows:
        if k <= value:
            best = k
    return rows[best]


def band_of(tables: Tables, metres: int) -> str:
    """The range band a distance falls in (beyond the last band: the last)."""
    for b in tables.bands:
        if metres <= b["up_to_m"]:
            return b["id"]
    return tables.bands[-1]["id"]
