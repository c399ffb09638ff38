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
above 100 percent the last description row is read, and below the first band
(damage whose percentage rounds to 0) the first is ("the actual damage
percentage may fall between the upper and lower limit of any one category ...
the most applicable 'end' of the description should be chosen": the nearest
category, as the last is above 100); damage a correction puts
on a part with no wound is a wound of no stated type (``UNTYPED``), which no
table describes, so it is described by what its points leave of the part's
function ("all of the points of damage that a character has taken, describes
that character's function", Tissue Damage) until the game master corrects its
type.
"""

from __future__ import annotations

from typing import NamedTuple

from .people import (DESTROYED_AT, body_points, damage_percentage, half_up, is_dead, part_state, possessive,
                     share_points, totally_destroyed)
from .tables import Tables, row_at

SPREAD_SYSTEMS = ("circulatory", "respiratory")  # "the Aracnian's and Eebek's decentralized ... system"
#: The type of a wound a correction made: a part's damage corrected up with no wound of its own to take it.
UNTYPED = "untyped"
#: A wound's mark that its DAMAGE PERCENTAGE was typed by hand, another than its points read: it stands until the
#: wound's own points change (``percent_typed``).
BY_HAND = "percent_by_hand"
#: What a wound of no stated type leaves of its part, by the state its points alone would leave (``part_state``).
UNTYPED_EFFECTS = {"structure only": "structure only, no function lost", "function": "some function lost",
                   "no function": "no function left", "totally destroyed": "the part totally destroyed"}


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


def type_lines(tables: Tables, kind: str, percent: int, exoskeleton: bool, points: int,
               part_points: int, slight: bool = True) -> tuple[str, ...]:
    """One damage type's lines at ``percent``, "N-M: text" each: its table's description and the additional ones
    read upward (``describe``); for damage of no stated type (``UNTYPED``), what the ``points`` alone leave of a
    part of ``part_points`` ("P%: damage of no stated type, some function lost"); none for a type no table
    describes (a poison's, radiation's). Points whose percentage rounds to 0 read the table's first band, the
    nearest (a wound always reads as something); ``slight`` False: none, as the versions before read them."""
    if kind in tables.descriptions:
        return _described(tables, kind, max(percent, 1) if slight and points > 0 else percent, exoskeleton)
    if kind != UNTYPED or points <= 0:
        return ()
    state = part_state({"points": part_points, "taken": points})  # "function 10/27": some of it left
    effect = UNTYPED_EFFECTS["function" if state.startswith("function ") else state]
    return (f"{percent}%: damage of no stated type, {effect}",)


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


class WoundReading(NamedTuple):
    """What a wound's damage says: its DAMAGE PERCENTAGE, the log's description lines, the wound's text (the first
    description of each damage type) and, when organ damage is played, the organ results (as the wound keeps them
    and as the log says them)."""

    percent: int
    lines: tuple[str, ...]
    text: str
    organs: list[str]
    organ_lines: tuple[str, ...]


def wound_reading(tables: Tables, person: dict, part_id: str, points: int, types: list[str], percent: int | None,
                  organs: bool, slight: bool = True) -> WoundReading:
    """Description: "DAMAGE PERCENTAGE = points taken / total points * 100", and "With this percentage and the damage
    type you can now look up" the description (Tables 3-8 to 3-14, read upward), each line led by its type for an
    attack of several; ORGAN SYSTEM DAMAGE multiplies the same percentage. ``percent``: a table's (damage procedure
    1), else the points' share of the part. Read when the wound is made, and again when its damage is corrected
    (``reread_wound``), so the two always say the same; ``slight``: see ``type_lines``."""
    part = person["body"][part_id]
    given = percent is not None
    if percent is None:
        percent = damage_percentage(points, part["points"])
    exoskeleton = tables.races[person["race"]]["exoskeleton"]
    lines, firsts = [], []
    for kind in types:
        found = type_lines(tables, kind, percent, exoskeleton, points, part["points"], slight)
        lead = f"{kind}, " if len(types) > 1 else ""
        lines += [f"  {lead}{line}" for line in found]
        if found:
            firsts.append(found[0].partition(": ")[2])
    reached = organ_damage(tables, person, part_id, points, percent if given else None) if organs else []
    return WoundReading(percent, tuple(lines), "; ".join(firsts), [f"{s} {m}%: {t}" for s, m, t in reached],
                        tuple(f"  organs, {s.replace('_', '-')} {m}%: {t}" for s, m, t in reached))


def is_tissue_wound(tables: Tables, wound: dict) -> bool:
    """A wound described on the damage tables, or tissue damage of no stated type (``UNTYPED``); a poison's "wound"
    is organ damage alone, with no tissue to read, and radiation's no table describes."""
    kind = str(wound.get("type", ""))
    return kind == UNTYPED or any(one in tables.descriptions for one in kind.split("+"))


def has_damage(wound: dict) -> bool:
    """A wound with points or a DAMAGE PERCENTAGE left (procedure 1's table may describe one of no whole point). A
    tissue wound corrected to neither is gone: the log says so, and the Body panel and the other side's view leave it
    out, as a part with no damage is "unhurt"; the state keeps it in its place, for its severity roll and for a
    correction that gives the part's latest wound damage again (``part_damage_corrected``)."""
    return bool(wound.get("points") or wound.get("percent"))


def percent_typed(person: dict, wound: dict) -> None:
    """A wound's percentage typed by hand is marked (``BY_HAND``) when it is another than its points read ("points
    taken / total points * 100", Description): the game master's own reading of the wound. Typed as that one, it is
    none, and the mark goes: the percentage follows the points again, as it does when given with them in a wound
    corrected whole."""
    if wound["percent"] != damage_percentage(wound["points"], person["body"][wound["part"]]["points"]):
        wound[BY_HAND] = True
    else:
        wound.pop(BY_HAND, None)


def part_percent(tables: Tables, person: dict, part_id: str) -> int:
    """A body part's DAMAGE PERCENTAGE ("points taken / total points * 100", Description), with each of its wounds
    whose percentage the game master typed by hand (``BY_HAND``) read at that percentage in place of its points'
    share, as the wound itself is: the part and its wounds say the same of it ("all of the points of damage that a
    character has taken, describes that character's function", Tissue Damage)."""
    part = person["body"][part_id]
    typed = [w for w in person["wounds"] if w.get("part") == part_id and w.get(BY_HAND) and is_tissue_wound(tables, w)]
    points = max(0, part["taken"] - sum(w["points"] for w in typed))
    return half_up(points * 100 + sum(w["percent"] for w in typed) * part["points"], part["points"])


def reread_wound(tables: Tables, person: dict, wound: dict, percent_given: bool = False,
                 points_were: int | None = None, slight: bool = True, before: dict | None = None) -> list[str]:
    """A wound whose damage was corrected says what its damage does now: its percentage follows its points (unless
    ``percent_given``: the percentage itself was corrected, or one typed by hand stands, ``BY_HAND``, while the points
    are the ones it was typed for: ``points_were``, what they were, gives way to them), and its text and organ results
    are read again by ``wound_reading`` (``slight``: see ``type_lines``). The log's lines for what changed (none when
    nothing did): what it reads now, marked when typed by hand, and what it read before (``before``: its ``part``,
    ``points`` and ``percent`` as far as they are known to be its own; by default ``points_were`` and the percentage
    it holds)."""
    if points_were not in (None, wound["points"]):
        wound.pop(BY_HAND, None)
    percent_given = percent_given or bool(wound.get(BY_HAND))
    part = person["body"][wound["part"]]
    was = (wound["percent"], wound["text"], wound.get("organs"))
    if before is None:
        before = {"points": points_were, "percent": was[0]}
    reading = wound_reading(tables, person, wound["part"], wound["points"], wound["type"].split("+"),
                            wound["percent"] if percent_given else None, "organs" in wound, slight)
    wound["percent"], wound["text"] = reading.percent, reading.text
    if "organs" in wound:
        wound["organs"] = reading.organs
    now = {"part": wound["part"], "points": wound["points"], "percent": reading.percent}
    if points_were in (None, now["points"]) and all(before.get(k) in (None, v) for k, v in now.items()) and \
            (wound["percent"], wound["text"], wound.get("organs")) == was:
        return []
    points = now["points"]
    moved = [f"{before['points']} -> {points} points" if before.get("points") not in (None, points) else
             f"{points} point{'s' if points != 1 else ''}"]
    moved.append(f"{before['percent']}% -> {reading.percent}%" if before.get("percent") not in (None, reading.percent)
                 else f"{reading.percent}%")
    whose = f"{possessive(person['name'])} {wound['part'].replace('_', ' ')} wound"
    if before.get("part") not in (None, wound["part"]):
        whose += f", moved from the {str(before['part']).replace('_', ' ')}"
    by_hand = " (typed by hand)" if wound.get(BY_HAND) else ""
    said = [f"{whose}: {', '.join(moved)} of {part['points']}{by_hand}: {reading.text or _undescribed(wound)}"]
    # every description the reading reaches, with its band, as the hit's own log gave them (``apply_damage``): the
    # headline names the first only, and "All of these descriptions would relate the sum total" of the wound
    said += list(reading.lines)
    return said + (list(reading.organ_lines) if "organs" in wound and wound["organs"] != was[2] else [])


def _undescribed(wound: dict) -> str:
    """A tissue wound's words when no description reads it: gone, or (as the versions before read damage under the
    first band, ``type_lines``) too slight."""
    return "too slight for any description (0%)" if has_damage(wound) else "no damage left, the wound is gone"


def part_damage_corrected(tables: Tables, person: dict, part_id: str, pid: str = "", organs: bool = False,
                          makes_wounds: bool = True, slight: bool = True) -> list[str]:
    """A body part's damage corrected: its wounds are what it has taken, so they follow it. More damage goes to the
    part's latest wound, less comes off its latest first (none below 0), and each wound that changed is read again
    (``reread_wound``). With ``makes_wounds`` (the versions before had neither), the part's damage is all its
    wounds' (radiation's too, whose points come off after the tissue wounds'), and damage with no wound to take it
    is a new wound of no stated type (``new_untyped_wound``; ``organs``: organ damage is played, ``pid``: the
    person's id, for the log; ``slight``: see ``type_lines``). The log's lines."""
    own = [w for w in reversed(person["wounds"]) if w.get("part") == part_id and is_tissue_wound(tables, w)]
    rest = [w for w in reversed(person["wounds"]) if w.get("part") == part_id and not is_tissue_wound(tables, w)] \
        if makes_wounds else []
    change = person["body"][part_id]["taken"] - sum(w["points"] for w in own + rest)
    said: list[str] = []
    for i, wound in enumerate(own + rest):
        if change == 0 or change > 0 and i >= len(own):  # more damage goes to a tissue wound only
            break
        was = wound["points"]
        wound["points"] = max(0, was + change)
        change -= wound["points"] - was
        if i < len(own):
            said += reread_wound(tables, person, wound, points_were=was, slight=slight)
    if makes_wounds and change > 0:
        said += new_untyped_wound(tables, person, pid, part_id, change, organs)
    return said


def new_untyped_wound(tables: Tables, person: dict, pid: str, part_id: str, points: int, organs: bool) -> list[str]:
    """Damage a correction put on a part with no wound to take it: a wound of no stated type (``UNTYPED``), read as
    a hit's would be (``wound_reading``), and the log's lines, with how to give it its type."""
    reading = wound_reading(tables, person, part_id, points, [UNTYPED], None, organs)
    wound = {"part": part_id, "points": points, "percent": reading.percent, "type": UNTYPED, "text": reading.text}
    if organs:
        wound["organs"] = reading.organs
    person["wounds"].append(wound)
    return [f"{possessive(person['name'])} {part_id.replace('_', ' ')} takes a wound of no stated type: {points} "
            f"point{'s' if points != 1 else ''}, {reading.percent}% of {person['body'][part_id]['points']}: "
            f"{reading.text}", *reading.organ_lines,
            f"  to read its description, correct people.{pid}.wounds[{len(person['wounds']) - 1}].type to its "
            f"damage type ({', '.join(tables.descriptions)})"]


def part_points_corrected(tables: Tables, person: dict, part_id: str, table_shares: bool,
                          slight: bool = True) -> list[str]:
    """A body part's total points corrected: each of its wounds says again what share of the part it is. Under damage
    procedures 2 and 3 a wound is its points ("a single number, equal to the number of damage points"), so its
    DAMAGE PERCENTAGE is read again from them ("points taken / total points * 100", Description). Under procedure 1
    (``table_shares``) a wound is its table's DAMAGE PERCENTAGE, "an approximation of the damage taken as a
    percentage of the total points in that particular body part": it keeps it, and its points are that share of the
    corrected total (``share_points``, as the hit worked them out; a grazed one's from its grazed percentage). A
    wound of no stated type came from points. The part takes the points its wounds gain or lose (what else a
    table corrected whole gave its damage stands). The log's lines (``reread_wound``; ``slight``: see
    ``type_lines``)."""
    part = person["body"][part_id]
    said: list[str] = []
    for wound in person["wounds"]:
        if wound.get("part") != part_id or not is_tissue_wound(tables, wound):
            continue
        was = wound["points"]
        said += wound_on_part(tables, person, wound, table_shares, slight)
        part["taken"] += wound["points"] - was
    return said


def wound_on_part(tables: Tables, person: dict, wound: dict, table_shares: bool, slight: bool = True,
                  before: dict | None = None) -> list[str]:
    """A tissue wound read again on a part of other total points than before (the part's points corrected, or the
    wound moved to another part): under procedure 1 (``table_shares``) it keeps its table's DAMAGE PERCENTAGE and its
    points are that share of the part (``share_points``), under procedures 2 and 3 its points stand and its percentage
    is read again from them; a wound of no stated type came from points. The log's lines (``reread_wound``, with
    ``before``)."""
    was = wound["points"]
    share = table_shares and wound["type"] != UNTYPED
    if share:
        wound["points"] = share_points(wound["percent"], person["body"][wound["part"]]["points"])
    return reread_wound(tables, person, wound, percent_given=share, points_were=was, slight=slight, before=before)


def wound_moved(tables: Tables, person: dict, wound: dict, was_part: str, table_shares: bool,
                slight: bool = True, before: dict | None = None) -> tuple[list[str], list[tuple[str, int]]]:
    """A wound corrected to another body part takes its damage there: it is read again on its new part
    (``wound_on_part``), and each of the two parts has taken its wounds' points (``part_follows_wounds``: the old
    one gives up the wound's, the new one takes them; an old part the body lacks, as a resumed state may hold, gives
    nothing). The log's lines, and each part with what it had taken."""
    moved = [(p, person["body"][p]["taken"]) for p in (was_part, wound["part"]) if p in person["body"]]
    said = wound_on_part(tables, person, wound, table_shares, slight, before) if is_tissue_wound(tables, wound) else []
    for part_id, _taken in moved:
        part_follows_wounds(person, part_id)
    return said, moved


def wounds_damage(person: dict, part_id: str) -> int:
    """The points of a part's wounds: what the part has taken, as every hit adds both (``apply_damage``)."""
    return sum(w["points"] for w in person["wounds"] if w.get("part") == part_id)


def part_follows_wounds(person: dict, part_id: str) -> None:
    """A wound's points corrected: its part's damage is its wounds' (structure, function, destruction and death are
    read from it)."""
    person["body"][part_id]["taken"] = wounds_damage(person, part_id)


def part_damage_moved(person: dict, part_id: str, was: int, points_corrected: bool = False) -> list[str]:
    """The log's lines for a part whose damage a correction moved from ``was`` points (or whose total points it
    corrected, ``points_corrected``): what it has taken now and the state that leaves it in, and a total destruction
    its damage newly reaches in a hit's words (``apply_damage``); none when nothing moved."""
    part = person["body"][part_id]
    if part["taken"] == was and not (points_corrected and was):
        return []
    words = part_id.replace("_", " ")
    taken = f"{was} -> {part['taken']}" if part["taken"] != was else str(was)
    said = [f"{possessive(person['name'])} {words}: {taken} of {part['points']} points taken, now {part_state(part)}"]
    if totally_destroyed(part) and was < DESTROYED_AT * part["points"]:
        said.append(destroyed_words(person, part_id))
    return said


def destroyed_words(person: dict, part_id: str) -> str:
    return (f"{possessive(person['name'])} {part_id.replace('_', ' ')} is totally destroyed ({DESTROYED_AT} x "
            f"{person['body'][part_id]['points']} points)")


def hits_read_slight(ctx) -> bool:
    """Whether a hit whose DAMAGE PERCENTAGE rounds to 0 reads its table's first band (``type_lines``), as the fight
    reads its people (``people_reading`` of the fight's ruleset: percentile's own, or that of the ship fight whose crew
    it hits; a save an earlier version wrote is read as that version read it, with none). A rule run outside a fight
    reads today's."""
    host = ctx.host
    return host is None or host.people_reading().reads_slight_wounds


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
    given = percent is not None
    words = part_id.replace("_", " ")
    now = part_state(part)
    read = percent if given else damage_percentage(points, part["points"])
    slight = read > 0 or hits_read_slight(ctx)  # the fight is asked only for damage under the first band
    reading = wound_reading(tables, person, part_id, points, types, percent, organs, slight)
    ctx.note(f"{person['name']}: {points} point{'s' if points != 1 else ''} to the {words} ({reading.percent}% of "
             f"{part['points']}; now {now})")
    if points <= 0 and not given:
        return
    for line in reading.lines:
        ctx.note(line)
    wound = {"part": part_id, "points": points, "percent": reading.percent, "type": "+".join(types),
             "text": reading.text}
    if now == "totally destroyed" and not destroyed_before:
        ctx.note(destroyed_words(person, part_id))
    if organs:
        for line in reading.organ_lines:
            ctx.note(line)
        wound["organs"] = reading.organs
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
