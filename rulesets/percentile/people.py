"""People: attributes, race, body parts with damage points, and what damage does to a part.

Source: ``percentile-personal-combat.txt``. A character has Perception, Aim,
Brawl, Agility (its Agility Points: "the number of Agility Points is equal to
the characters' Agility Attribute"), Physical Strength, an Alertness
Percentage, a race, a team and a side. Each body part has damage points.

- "the first ten percent of damage points ... [are] structure before the
  points of function"; "When he or she has no more damage points left in a
  body part he or she has no more function in that body part"; "Total
  destruction of the body part occurs when it has taken five times the number
  of points the undamaged body part has" (a hand of 6 points at 30).
- DAMAGE PERCENTAGE = points taken / total points * 100 (Description).

Where the text is silent we decided: structure is ten percent of the part's
points rounded up (a 6-point hand has 1 structure point); a person is dead
when a vital part (the chest, or the part the race keeps its head in) has no
function left; an Agility of 0 in a file means the race's average.
"""

from __future__ import annotations

from engine.actions import UnitKind
from engine.errors import BadTable
from engine.schema import Field

from .tables import Tables

STRUCTURE_SHARE = 10  # percent of a part's points that are structure ("the first ten percent")
DESTROYED_AT = 5  # "five times the number of points the undamaged body part has"

PERSON_FIELDS = (
    Field("race", "str", default="human", help="a race of the races table (human, aracnian, ...)"),
    Field("team", "str", default="", help="the team the person belongs to (empty: an individual)"),
    Field("perception", "int", default=50, minimum=0, maximum=100, help="Perception, 0..100"),
    Field("aim", "int", default=50, minimum=0, maximum=100, help="Aim, 0..100"),
    Field("brawl", "int", default=50, minimum=0, maximum=100, help="Brawl, 0..100"),
    Field("agility", "int", default=0, minimum=0, maximum=1000,
          help="Agility: the Agility Points of a turn (0: the race's average)"),
    Field("strength", "int", default=50, minimum=0, maximum=100, help="Physical Strength, 0..100"),
    Field("alertness", "int", default=50, minimum=0, maximum=100, help="Alertness Percentage (surprise 3)"),
    Field("asleep", "bool", default=False, help="asleep: left out of the side's alertness (z wakes them)"),
    Field("weapons", "names", default=[], help="weapon ids of the weapons table"),
    Field("body", "table", default={}, help="damage points by part, replacing the race's (e.g. {head = 9})"),
)
PERSON = UnitKind("person", "Person", "People", "people", fields=PERSON_FIELDS)


def check_person(person: dict, tables: Tables, where: str) -> None:
    """The race, weapons and body parts a person names must be in the tables."""
    if person["race"] not in tables.races:
        raise BadTable(f"{where}: race must be one of {', '.join(tables.races)}, got {person['race']!r}")
    for i, w in enumerate(person["weapons"]):
        if w not in tables.weapons:
            raise BadTable(f"{where}.weapons[{i}]: no weapon {w!r} in the weapons table")
    parts = {p["id"] for p in tables.races[person["race"]]["parts"]}
    for part, n in person["body"].items():
        if part not in parts:
            raise BadTable(f"{where}.body: {part!r} is not a part of a {person['race']} "
                           f"(parts: {', '.join(sorted(parts))})")
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise BadTable(f"{where}.body.{part}: expected a whole number 1 or more, got {n!r}")


def possessive(name: str) -> str:
    """"Swift Dolan's marines'" and "Ann's": a name that ends in s takes the apostrophe alone."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def race_parts(tables: Tables, race_id: str) -> tuple[tuple[str, int], ...]:
    """The race's body parts as (id, damage points), in the races table's order: read from the tables alone,
    so worked out once per loaded tables and race (every crew member a ship fight makes asks)."""
    key = ("race parts", race_id)
    found = tables.memo.get(key)
    if found is None:
        found = tables.memo[key] = tuple((p["id"], p["points"]) for p in tables.races[race_id]["parts"])
    return found


def person_state(person: dict, tables: Tables) -> dict:
    """The state a person begins the fight in."""
    race = tables.races[person["race"]]
    ap = person["agility"] or race["agility_points"]
    own = person["body"]
    parts = race_parts(tables, person["race"])
    body = {part: {"points": own.get(part, points), "taken": 0} for part, points in parts}
    return {
        "side": person["side"], "name": person["name"], "race": person["race"], "team": person["team"],
        "perception": person["perception"], "aim": person["aim"], "brawl": person["brawl"],
        "agility": ap, "agility_from_race": not person["agility"], "strength": person["strength"],
        "alertness": person["alertness"],
        "weapons": list(person["weapons"]),
        "body": body,
        "ap_turn": ap, "ap_spent": 0, "ap_extra": 0, "ap_extra_spent": 0, "ap_forfeit": 0, "owed": 0, "no_move": False,
        "taken_this_round": 0, "taken_last_round": 0, "dead": False, "wounds": [], "attacked": False,
        "asleep": person.get("asleep", False),
    }


def race_corrected(person: dict, tables: Tables) -> str:
    """A person whose Agility is the race's average (``agility_from_race``: the file's 0) takes the corrected
    race's average, and this turn's points move by as much (those borrowed from it stay owed): the race is the
    one the person always had. A turn borrowed whole keeps no movement. Answers the log's words ("" when nothing
    changed). The body is the race's already (``corrections._same_body``), and what the console reads of the
    race (hit bands, skeleton, where the head is) is looked up on the tables each time."""
    if not person.get("agility_from_race"):
        return ""
    was, now = person["agility"], tables.races[person["race"]]["agility_points"]
    if now == was:
        return ""
    person["agility"] = now
    if not person["no_move"]:
        person["ap_turn"] = max(0, person["ap_turn"] + now - was)
    return f"{possessive(person['name'])} Agility {was} -> {now} (the {tables.races[person['race']]['label']} average)"


def structure_points(points: int) -> int:
    return -(-points * STRUCTURE_SHARE // 100)


def damage_percentage(taken: int, points: int) -> int:
    """DAMAGE PERCENTAGE = points taken / total points * 100, rounded half up."""
    return (taken * 200 + points) // (2 * points)


def share_points(percent: int, points: int) -> int:
    """The damage points a DAMAGE PERCENTAGE of a part of ``points`` stands for (damage procedure 1's table gives
    the percentage, "an approximation of the damage taken as a percentage of the total points"), rounded half up."""
    return half_up(percent * points, 100)


def totally_destroyed(part: dict) -> bool:
    return part["taken"] >= DESTROYED_AT * part["points"]


def part_state(part: dict) -> str:
    """What works: unhurt, structure only, function left, no function, totally destroyed."""
    if totally_destroyed(part):
        return "totally destroyed"
    taken, points = part["taken"], part["points"]
    if taken >= points:
        return "no function"
    if taken == 0:
        return "unhurt"
    structure = structure_points(points)
    if taken <= structure:
        return "structure only"
    function = points - structure
    left = points - taken
    return f"function {left}/{function}"


def vital_parts(person: dict, tables: Tables) -> tuple[str, ...]:
    """The part the race keeps its head in, and the chest when the body has one (each once)."""
    head = tables.races[person["race"]]["head_in"]
    return (head, "chest") if head != "chest" and "chest" in person["body"] else (head,)


def is_dead(person: dict, tables: Tables) -> bool:
    """Ours: dead when a vital part (the chest, the head wherever the race keeps it) has no function."""
    body = person["body"]
    for p in vital_parts(person, tables):  # a plain loop: asked after every hit on a person
        if body[p]["taken"] >= body[p]["points"]:
            return True
    return False


def body_points(person: dict) -> int:
    return sum(p["points"] for p in person["body"].values())


def alive(state: dict, pid: str) -> bool:
    return not state["people"][pid]["dead"]


def members(state: dict, side: str) -> list[str]:
    """A side's people still in the fight."""
    return [pid for pid, p in state["people"].items() if p["side"] == side and not p["dead"]]


def average(state: dict, side: str, attribute: str) -> int:
    """"When performing a calculation for a team, use their collective average" (rounded half up)."""
    ids = members(state, side)
    if not ids:
        return 0
    total = sum(state["people"][pid][attribute] for pid in ids)
    return (2 * total + len(ids)) // (2 * len(ids))


def half_up(numerator: int, denominator: int) -> int:
    """numerator / denominator, halves rounded up (the text's averages land on halves)."""
    return (2 * numerator + denominator) // (2 * denominator)
