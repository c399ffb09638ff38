"""The gothic tables: TOML files in ``tables/``, checked on load and handed to the rules.

The rules text (``gothic-boarding-teleport.ru.txt``) leans on the rest of the
game: the critical hits table, the torpedo to-hit roll, turret fire, repair,
special orders and the planetary defence profiles "at the end of the book".
None of those numbers are in the text, so each is a shipped default file marked
``shipped_default = true`` and saying so in its note (DESIGN.md); a game master
replaces one by naming a file in ``setup.options.tables``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from engine.schema import ABSENT, FLAG, REQUIRED, TEXT, Is, entries, every_row, record, sections, whole
from engine.tables import TableSet

RULESET_ID = "gothic"
TABLES_DIR = Path(__file__).resolve().parent / "tables"
ROLLS_2D = tuple(str(n) for n in range(2, 13))
ARMOUR = tuple(str(n) for n in range(1, 7))
#: What the console applies of a critical (the rest are recorded in force for the table to play).
EFFECTS = ("shields", "turrets", "weapons", "engines", "command", "fire", "hull")
D6_NEEDS = whole(2, 6).worded("a D6 number 2..6")

CRITICAL = record({
    "name": (Is("a name", lambda v: isinstance(v, str) and v.strip() != ""), REQUIRED),
    # what the critical roll's prompt lists the row by (``views.roll_help``); the name when left out
    "short": (Is("a short name", lambda v: isinstance(v, str) and v.strip() != ""), ABSENT),
    "effect": (Is("one of " + ", ".join(EFFECTS), lambda v: v in EFFECTS), REQUIRED),
    "extra_hits": (whole(0, 20), 0),
    "repairable": (FLAG, True),
}, expected="{ name, short, effect, extra_hits, repairable }")
PROFILE = record({
    "label": (TEXT, REQUIRED),
    "hits": (whole(1, 100), REQUIRED),
    "shields": (whole(0, 20), 0),
    "armour": (whole(1, 6), REQUIRED),
    "turrets": (whole(0, 20), 0),
    "torpedoes": (whole(0, 30), 0),
    "boarding_torpedoes": (FLAG, False),
})
ORDER = record({"label": (TEXT, REQUIRED), "reloads": (FLAG, False)})


@dataclass(frozen=True)
class Tables:
    """Every gothic table as the rules read it. Shared and cached: treat as read-only."""

    criticals: dict[int, dict]
    turret_needs: int
    torpedo_speed_cm: int
    to_hit: dict[int, int]
    repair_needs: int
    defences: dict[str, dict]
    orders: dict[str, dict]
    sources: dict[str, str] = field(default_factory=dict)


def _criticals(doc: dict) -> dict:
    return sections(doc, {"rolls": every_row(ROLLS_2D, CRITICAL)})


def _ordnance(doc: dict) -> dict:
    fire = record({"turret_needs": (D6_NEEDS, REQUIRED), "torpedo_speed_cm": (whole(1, 200), REQUIRED)},
                  expected="{ turret_needs, torpedo_speed_cm }")
    return sections(doc, {"fire": fire, "to_hit": every_row(ARMOUR, D6_NEEDS, span="armour 1..6")})


def _repair(doc: dict) -> dict:
    return sections(doc, {"repair": record({"needs": (D6_NEEDS, REQUIRED)}, expected="{ needs }")})


def _defences(doc: dict) -> dict:
    return sections(doc, {"entries": entries(PROFILE)})


def _orders(doc: dict) -> dict:
    return sections(doc, {"entries": entries(ORDER)})


_CHECKERS = {"criticals": _criticals, "ordnance": _ordnance, "repair": _repair, "defences": _defences,
             "orders": _orders}


def _build(docs: dict[str, dict], paths: dict[str, Path]) -> Tables:
    return Tables(
        criticals={int(k): v for k, v in docs["criticals"]["rolls"].items()},
        turret_needs=docs["ordnance"]["fire"]["turret_needs"],
        torpedo_speed_cm=docs["ordnance"]["fire"]["torpedo_speed_cm"],
        to_hit={int(k): v for k, v in docs["ordnance"]["to_hit"].items()},
        repair_needs=docs["repair"]["repair"]["needs"],
        defences=docs["defences"]["entries"],
        orders=docs["orders"]["entries"],
        sources={n: str(p) for n, p in paths.items()},
    )


TABLE_SET: TableSet[Tables] = TableSet(RULESET_ID, TABLES_DIR, _CHECKERS, _build)
load_tables = TABLE_SET.load
