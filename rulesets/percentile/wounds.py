"""Tissue and organ damage to one body part: points, descriptions, organ systems.

Source: ``percentile-personal-combat.txt``, Damage. The points an attack does
go to one part; its DAMAGE PERCENTAGE (points taken / total points * 100)
finds the description on the damage type's table (3-8 to 3-14), and the
Additional Descriptions are read upward from there (every row above marked
additional). For the exoskeletal races "the bone descriptions come first
instead of last". Organ system damage multiplies the tissue percentage by the
part's row of Table 3-3.1 and reads Tables 3-15.1 to 3-15.4; a race whose head
is in the chest (Eebek, Krane) has the head's damage placed there, and the
Aracnians and Eebek take circulatory and respiratory damage "over their
entire body".

Where the text is silent we decided: the part holding the head reads the
larger of the head's and its own multiplier for each system; "over their
entire body" is the points against the whole body's points (multiplier 1);
above 100 percent the last description row is read.
"""

from __future__ import annotations

from .people import DESTROYED_AT, body_points, damage_percentage, half_up, is_dead, part_state, totally_destroyed
from .tables import Tables, row_at

SPREAD_SYSTEMS = ("circulatory", "respiratory")  # "the Aracnian's and Eebek's decentralized ... system"


def description_rows(tables: Tables, damage_type: str, exoskeleton: bool) -> list[tuple[int, dict]]:
    """The table's twenty rows in band order; for an exoskeleton the bone rows move to the top (worked out
    once per loaded tables; read, never changed)."""
    key = ("description rows", damage_type, exoskeleton)
    found = tables.memo.get(key)
    if found is None:
        found = tables.memo[key] = _description_rows(tables, damage_type, exoskeleton)
    return found


def _description_rows(tables: Tables, damage_type: str, exoskeleton: bool) -> list[tuple[int, dict]]:
    rows = sorted(((int(k), r) for k, r in tables.descriptions[damage_type]["rows"].items()))
    if not exoskeleton:
        return rows
    texts = [r for _, r in rows if r["layer"] == "bone"] + [r for _, r in rows if r["layer"] != "bone"]
    return [(band, texts[i]) for i, (band, _) in enumerate(rows)]


def describe(tables: Tables, damage_type: str, percent: int, exoskeleton: bool = False) -> list[str]:
    """The description at ``percent`` and the additional ones read upward, "N-M: text" each (from the
    tables alone: worked out once per loaded tables for each type, percentage and body)."""
    return list(_described(tables, damage_type, percent, exoskeleton))


def _described(tables: Tables, damage_type: str, percent: int, exoskeleton: bool) -> tuple[str, ...]:
    """``describe``'s lines as kept (read, never changed: every hit on a person reads them)."""
    key = ("descriptions", damage_type, percent, exoskeleton)
    found = tables.memo.get(key)
    if found is None:
        found = tables.memo[key] = tuple(_describe(tables, damage_type, percent, exoskeleton))
    return found


def _describe(tables: Tables, damage_type: str, percent: int, exoskeleton: bool) -> list[str]:
    rows = description_rows(tables, damage_type, exoskeleton)
    if percent <= 0:
        return []
    at = next((i for i, (band, _) in enumerate(rows) if percent <= band), len(rows) - 1)
    out = [rows[at]]
    out += [rows[i] for i in range(at - 1, -1, -1) if rows[i][1].get("additional")]
    return [f"{band - 4}-{band}: {r['text']}" for band, r in out]


def organ_percent(tables: Tables, race: dict, part_id: str, part_class: str, system: str, percent: int,
                  spread: int) -> int:
    """The tissue percentage times the part's multiplier for ``system`` (Table 3-3.1); ``spread``: the
    damage as a percentage of the whole body, for the systems a race takes "over their entire body"."""
    systems = tables.organs["systems"]
    if race["spread_damage"] and system in SPREAD_SYSTEMS:
        return spread
    col = systems.index(system)
    mult = tables.organs["multipliers"][part_class][col]
    if part_id == race["head_in"] and part_class != "head":
        mult = max(mult, tables.organs["multipliers"]["head"][col])
    return int(percent * mult + 0.5)


def organ_damage(tables: Tables, person: dict, part_id: str, points: int,
                 percent: int | None = None) -> list[tuple[str, int, str]]:
    """(system, modified percentage, what it does) for every organ system the hit reaches.

    ``percent``: the wound's damage percentage when a table gave it (damage procedure 1), which organ damage
    multiplies ("The essential part of the tissue system is the percentage damage done", ORGAN SYSTEM DAMAGE);
    otherwise the points' share of the part."""
    race = tables.races[person["race"]]
    part = person["body"][part_id]
    klass = next(p["class"] for p in race["parts"] if p["id"] == part_id)
    whole = body_points(person)
    if percent is None:
        percent, spread = damage_percentage(points, part["points"]), damage_percentage(points, whole)
    else:  # the part's percentage spread over the whole body, unrounded until then
        spread = half_up(percent * part["points"], whole)
    out = []
    for system in tables.organs["systems"]:
        modified = organ_percent(tables, race, part_id, klass, system, percent, spread)
        if modified > 0:
            out.append((system, modified, str(row_at(tables.organs["damage"][system], modified))))
    return out


def apply_damage(state: dict, tables: Tables, pid: str, part_id: str, points: int, damage_type: str | list[str],
                 ctx, organs: bool = False, percent: int | None = None) -> None:
    """The points land on the part; the log gets its percentage, state and descriptions.

    ``damage_type``: one type, or the several an attack combines ("any attack may combine more than one type of
    damage depending on the weapon used", Weaponry Combat): the wound is described on each type's table, each
    line led by its type. ``percent``: the wound's damage percentage when a table gave it (damage procedure 1):
    it describes the wound, and a wound of no whole point is still one; otherwise the points' share of the part."""
    types = [damage_type] if isinstance(damage_type, str) else list(damage_type)
    person = state["people"][pid]
    part = person["body"][part_id]
    destroyed_before = totally_destroyed(part)
    part["taken"] += points
    person["taken_this_round"] += points
    race = tables.races[person["race"]]
    given = percent is not None
    if not given:
        percent = damage_percentage(points, part["points"])
    words = part_id.replace("_", " ")
    now = part_state(part)
    ctx.note(f"{person['name']}: {points} point{'s' if points != 1 else ''} to the {words} ({percent}% of {part['points']}; now {now})")
    if points <= 0 and not given:
        return
    firsts = []
    for kind in types:
        lines = _described(tables, kind, percent, race["exoskeleton"]) if kind in tables.descriptions else ()
        lead = f"{kind}, " if len(types) > 1 else ""
        for line in lines:
            ctx.note(f"  {lead}{line}")
        if lines:
            firsts.append(lines[0].partition(": ")[2])
    wound = {"part": part_id, "points": points, "percent": percent, "type": "+".join(types),
             "text": "; ".join(firsts)}
    if now == "totally destroyed" and not destroyed_before:
        ctx.note(f"{person['name']}'s {words} is totally destroyed ({DESTROYED_AT} x {part['points']} points)")
    if organs:
        found = organ_damage(tables, person, part_id, points, percent if given else None)
        for system, modified, text in found:
            ctx.note(f"  organs, {system.replace('_', '-')} {modified}%: {text}")
        wound["organs"] = [f"{s} {m}%: {t}" for s, m, t in found]
    person["wounds"].append(wound)
    if not person["dead"] and is_dead(person, tables):
        person["dead"] = True
        ctx.note(f"{person['name']} is dead: the {words} has no function left")



def poison_damage(tables: Tables, person: dict, part_id: str, wep_mod: int, systems: list[str]) -> list[tuple]:
    """POISONS and DRUGS: the WEP MOD "put directly into the calculation for damage" (Table 3-3, first band:
    the dose is taken in, there is no range); the tissue points "are ignored but the value is then used to
    calculate the organ system damage", for the systems the game master names."""
    points = row_at(tables.damage, wep_mod)[0]
    reached = {s: (m, t) for s, m, t in organ_damage(tables, person, part_id, points)}
    return [(s, *reached.get(s, (0, str(row_at(tables.organs["damage"][s], 0))))) for s in systems]
