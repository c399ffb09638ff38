"""The megatraveller tables: TOML files in ``tables/``, checked on load and handed to the rules.

The rules text (``megatraveller-sensors-fire.txt``) points to tables it does
not print (damage tables "on p 101", the critical hit distribution "p 93",
the critical table "page 94", the penetration tables), so every table is data
with a ``[table]`` header saying which numbers come from the text and which are
our shipped default (DESIGN.md). A game master replaces a file by naming it in
``setup.options.tables``. Every problem is one BadTable line naming the entry.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from engine.schema import (FLAG, REQUIRED, TEXT, WHOLE, Is, at, entries, every_row, list_of, one_of, record,
                           sections, table_of, whole)
from engine.tables import TableSet

RULESET_ID = "megatraveller"
TABLES_DIR = Path(__file__).resolve().parent / "tables"
TABLE_NAMES = ("difficulties", "weapons", "penetration", "damage", "critical_distribution", "criticals")
BANDS = ("visual", "near", "far", "extreme")
DEFENCES = ("sand", "damper", "repulsor", "meson_screen", "configuration")
DAMAGE_TABLES = ("surface", "radiation", "interior")
SYSTEMS = ("none", "weapon", "fuel", "maneuver", "jump", "power", "computer", "sensors", "crew", "hold",
           "critical")
ROLLS_2D = tuple(str(n) for n in range(2, 13))
#: The level each fire roll needs when a difficulties table has no ``[fire]`` section: "11+ on 2d6" (the
#: text calls a spinal's "Routine (7+), not difficult", so the others are Difficult), "Routine (7+)",
#: "Difficult (11+)".
FIRE_LEVELS = {"to_hit": "difficult", "spinal_to_hit": "routine", "penetration": "difficult"}
DEFENCE_FACTORS = tuple(str(n) for n in range(1, 10))


@dataclass(frozen=True)
class Tables:
    """Every megatraveller table as the rules read it. Shared and cached: treat as read-only."""

    difficulties: dict[str, int]
    weapons: dict[str, dict]
    penetration: dict[str, dict[int, list[int]]]
    damage: dict[str, dict[str, dict]]
    critical_distribution: list[dict]
    criticals: dict[int, str]
    #: The difficulty level each fire roll needs: ``to_hit``, ``spinal_to_hit``, ``penetration``.
    fire: dict[str, str] = field(default_factory=lambda: dict(FIRE_LEVELS))
    sources: dict[str, str] = field(default_factory=dict)


DM_OR_NO = Is('a whole number or "no"', lambda v: WHOLE.passes(v) or v == "no")
WEAPON = {
    "label": (TEXT, REQUIRED),
    "range_dm": (record({b: (DM_OR_NO, REQUIRED) for b in BANDS},
                        expected='a DM (or "no") for each of ' + "/".join(BANDS)), REQUIRED),
    "defences": (list_of(one_of(*DEFENCES)).worded("a list of " + ", ".join(DEFENCES)), []),
    "damage_tables": (list_of(one_of(*DAMAGE_TABLES)).worded("a list of " + ", ".join(DAMAGE_TABLES)), []),
    "damage_dm": (table_of(WHOLE, DAMAGE_TABLES).worded(f"a table of {'/'.join(DAMAGE_TABLES)} = whole number"), {}),
    "penetration_dm": (table_of(WHOLE, DEFENCES).worded(f"a table of {'/'.join(DEFENCES)} = whole number"), {}),
    "meson": (FLAG, False),
    "spinal_mount": (FLAG, False),
}
PENETRATION_ROW = list_of(WHOLE, at_least=9).worded(
    "a list of whole-number DMs, one per weapon factor from 1 (at least 9)")
DAMAGE_ROW = record({"system": (one_of(*SYSTEMS), REQUIRED), "amount": (whole(0), REQUIRED)},
                    expected="{ system, amount }")
CRITICAL_ROW = record({"up_to_tons": (WHOLE, REQUIRED), "number": (whole(0), REQUIRED)},
                      expected="{ up_to_tons, number }")


def _difficulties(doc: dict) -> dict:
    """The levels, and which level each fire roll needs (``[fire]``, optional: the text's levels)."""
    fire = record({k: (TEXT, v) for k, v in FIRE_LEVELS.items()},
                  expected="a table of " + ", ".join(f'{k} = "level"' for k in FIRE_LEVELS))
    body = sections({"fire": {}, **doc}, {"levels": entries(whole(2, 30).worded("a 2D target number 2..30")),
                                          "fire": fire})
    level = one_of(*body["levels"]).worded("a level of [levels] (" + ", ".join(body["levels"]) + ")")
    for k, v in body["fire"].items():
        level(v, at("fire", k))
    return body


def _weapons(doc: dict) -> dict:
    return sections(doc, {"entries": entries(record(WEAPON))})


def _penetration(doc: dict) -> dict:
    return sections(doc, {d: every_row(DEFENCE_FACTORS, PENETRATION_ROW, span="defence factor 1..9")
                          for d in DEFENCES})


def _damage(doc: dict) -> dict:
    return sections(doc, {t: every_row(ROLLS_2D + ("below",), DAMAGE_ROW, span="2..12 and below")
                          for t in DAMAGE_TABLES})


def _critical_distribution(doc: dict) -> dict:
    """Rows by tonnage, going up: a ship reads the first row its tonnage is up to."""
    body = sections(doc, {"rows": list_of(CRITICAL_ROW, at_least=1,
                                          expected="a list of [[rows]] with up_to_tons and number")})
    last = 0
    for i, r in enumerate(body["rows"]):
        rising = whole(last + 1).worded(f"a whole number above {last} (rows go up in tonnage)")
        last = rising(r["up_to_tons"], at(at("rows", i), "up_to_tons"))
    return body


def _criticals(doc: dict) -> dict:
    return sections(doc, {"rolls": every_row(ROLLS_2D, Is("a system name", lambda v: isinstance(v, str) and v != ""))})


_CHECKERS = {"difficulties": _difficulties, "weapons": _weapons, "penetration": _penetration,
             "damage": _damage, "critical_distribution": _critical_distribution, "criticals": _criticals}


def _build(docs: dict[str, dict], paths: dict[str, Path]) -> Tables:
    return Tables(
        difficulties=docs["difficulties"]["levels"],
        weapons=docs["weapons"]["entries"],
        penetration={d: {int(k): v for k, v in rows.items()} for d, rows in docs["penetration"].items()
                     if d != "table"},
        damage={t: docs["damage"][t] for t in DAMAGE_TABLES},
        critical_distribution=docs["critical_distribution"]["rows"],
        criticals={int(k): v for k, v in docs["criticals"]["rolls"].items()},
        fire=docs["difficulties"]["fire"],
        sources={n: str(p) for n, p in paths.items()},
    )


TABLE_SET: TableSet[Tables] = TableSet(RULESET_ID, TABLES_DIR, _CHECKERS, _build)
assert TABLE_SET.names == TABLE_NAMES
check_table = TABLE_SET.check_table
load_tables = TABLE_SET.load
shipped_path = TABLE_SET.shipped_path


# --- lookups the rules use ------------------------------------------------------------------

def penetration_dm(tables: Tables, defence: str, defence_factor: int, weapon_factor: int) -> int:
    """Weapon factor across, defence factor down; past the row's end the last column holds."""
    row = tables.penetration[defence][min(max(defence_factor, 1), 9)]
    return row[min(max(weapon_factor, 1), len(row)) - 1]


def fire_number(tables: Tables, roll: str) -> int:
    """The 2D number a fire roll needs (``to_hit``, ``spinal_to_hit``, ``penetration``), from its level."""
    return tables.difficulties[tables.fire[roll]]


def critical_distribution(tables: Tables, tonnage: int) -> int:
    for r in tables.critical_distribution:
        if tonnage <= r["up_to_tons"]:
            return int(r["number"])
    return int(tables.critical_distribution[-1]["number"])


def damage_result(tables: Tables, table: str, total: int) -> dict:
    """The row a modified 2D total lands on: below 2 is "below", above 12 reads 12."""
    if total < 2:
        return tables.damage[table]["below"]
    return tables.damage[table][str(min(total, 12))]
