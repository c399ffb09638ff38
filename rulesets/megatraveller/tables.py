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
from typing import Any

from engine.errors import BadTable
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
    sources: dict[str, str] = field(default_factory=dict)


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _want(ok: bool, where: str, expected: str, got: Any) -> None:
    if not ok:
        raise BadTable(f"{where}: expected {expected}, got {got!r}")


def _section(doc: dict, name: str) -> dict:
    body = doc.get(name)
    _want(isinstance(body, dict) and bool(body), name, "a table of entries", body)
    return body


def _only(doc: dict, *sections: str) -> None:
    extra = [k for k in doc if k not in ("table",) + sections]
    if extra:
        raise BadTable(f"{extra[0]}: unknown top-level key (expected {', '.join(sections)})")


def _difficulties(doc: dict) -> dict:
    _only(doc, "levels")
    levels = _section(doc, "levels")
    for k, v in levels.items():
        _want(_int(v) and 2 <= v <= 30, f"levels.{k}", "a 2D target number 2..30", v)
    return {"levels": dict(levels)}


WEAPON_KEYS = ("label", "range_dm", "defences", "damage_tables", "damage_dm", "penetration_dm", "meson")


def _weapons(doc: dict) -> dict:
    _only(doc, "entries")
    out = {}
    for wid, w in _section(doc, "entries").items():
        at = f"entries.{wid}"
        _want(isinstance(w, dict), at, "a table", w)
        unknown = [k for k in w if k not in WEAPON_KEYS]
        if unknown:
            raise BadTable(f"{at}: unknown field {unknown[0]!r} (known: {', '.join(WEAPON_KEYS)})")
        _want(isinstance(w.get("label"), str), f"{at}.label", "text", w.get("label"))
        rdm = w.get("range_dm")
        _want(isinstance(rdm, dict) and set(rdm) == set(BANDS), f"{at}.range_dm",
              "a DM (or \"no\") for each of " + "/".join(BANDS), rdm)
        for band, v in rdm.items():
            _want(_int(v) or v == "no", f"{at}.range_dm.{band}", "a whole number or \"no\"", v)
        defences = w.get("defences", [])
        _want(isinstance(defences, list) and all(d in DEFENCES for d in defences), f"{at}.defences",
              "a list of " + ", ".join(DEFENCES), defences)
        tables = w.get("damage_tables", [])
        _want(isinstance(tables, list) and all(t in DAMAGE_TABLES for t in tables), f"{at}.damage_tables",
              "a list of " + ", ".join(DAMAGE_TABLES), tables)
        for key, names in (("damage_dm", DAMAGE_TABLES), ("penetration_dm", DEFENCES)):
            dms = w.get(key, {})
            _want(isinstance(dms, dict) and all(k in names and _int(v) for k, v in dms.items()), f"{at}.{key}",
                  f"a table of {'/'.join(names)} = whole number", dms)
        _want(isinstance(w.get("meson", False), bool), f"{at}.meson", "true or false", w.get("meson"))
        out[wid] = {"label": w["label"], "range_dm": dict(rdm), "defences": list(defences),
                    "damage_tables": list(tables), "damage_dm": dict(w.get("damage_dm", {})),
                    "penetration_dm": dict(w.get("penetration_dm", {})), "meson": w.get("meson", False)}
    return {"entries": out}


def _penetration(doc: dict) -> dict:
    _only(doc, *DEFENCES)
    out = {}
    for d in DEFENCES:
        body = _section(doc, d)
        _want(set(body) == set(DEFENCE_FACTORS), d, "rows \"1\"..\"9\" (one per defence factor)", sorted(body))
        for k, row in body.items():
            _want(isinstance(row, list) and len(row) >= 9 and all(_int(x) for x in row), f"{d}.\"{k}\"",
                  "a list of whole-number DMs, one per weapon factor from 1 (at least 9)", row)
        out[d] = {k: list(v) for k, v in body.items()}
    return out


def _damage(doc: dict) -> dict:
    _only(doc, *DAMAGE_TABLES)
    out = {}
    for t in DAMAGE_TABLES:
        body = _section(doc, t)
        keys = ROLLS_2D + ("below",)
        _want(set(body) == set(keys), t, "rows \"2\"..\"12\" and below", sorted(body))
        for k, r in body.items():
            at = f"{t}.{k}" if k == "below" else f"{t}.\"{k}\""
            _want(isinstance(r, dict) and set(r) == {"system", "amount"}, at, "{ system, amount }", r)
            _want(r["system"] in SYSTEMS, f"{at}.system", "one of " + ", ".join(SYSTEMS), r["system"])
            _want(_int(r["amount"]) and r["amount"] >= 0, f"{at}.amount", "a whole number 0 or more", r["amount"])
        out[t] = {k: dict(v) for k, v in body.items()}
    return out


def _critical_distribution(doc: dict) -> dict:
    _only(doc, "rows")
    rows = doc.get("rows")
    _want(isinstance(rows, list) and bool(rows), "rows", "a list of [[rows]] with up_to_tons and number", rows)
    last = 0
    for i, r in enumerate(rows):
        at = f"rows[{i}]"
        _want(isinstance(r, dict) and set(r) == {"up_to_tons", "number"}, at, "{ up_to_tons, number }", r)
        _want(_int(r["up_to_tons"]) and r["up_to_tons"] > last, f"{at}.up_to_tons",
              f"a whole number above {last} (rows go up in tonnage)", r["up_to_tons"])
        _want(_int(r["number"]) and r["number"] >= 0, f"{at}.number", "a whole number 0 or more", r["number"])
        last = r["up_to_tons"]
    return {"rows": [dict(r) for r in rows]}


def _criticals(doc: dict) -> dict:
    _only(doc, "rolls")
    body = _section(doc, "rolls")
    _want(set(body) == set(ROLLS_2D), "rolls", "rows \"2\"..\"12\"", sorted(body))
    for k, v in body.items():
        _want(isinstance(v, str) and v != "", f"rolls.\"{k}\"", "a system name", v)
    return {"rolls": dict(body)}


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
