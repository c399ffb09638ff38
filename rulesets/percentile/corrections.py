"""What a percentile value corrected by hand may be (``engine.corrections``), beyond each person's own fields.

Points and counts the rules only ever add to or spend down are never below 0 (a chest with -5 points taken
read "-5/30"); borrowed points spent are among the points spent and no more than those borrowed (``turn.spend``
counts them in both, and ``own_left`` reads the difference as the turn's own points spent); a body part has at
least one point; a race has the person's body parts (the next hit looks its part up on the race's tables), and a
wound is on one of them; a weapon is one the weapons table has (the attack form looks it up); a wound's type is one
its description is read by, or none stated; percentages stay within 0-100; an order of sides is reordered, never given a side it lacks;
the round's step, its side with the only attack and the place of the side acting are ones the round has; the
round's sub-turn is one of the encounter's, and the encounter keeps as many sub-turns as the round has reached;
the options keep the values the setup allows (``catalogue.OPTIONS``).
"""

from __future__ import annotations

from engine.corrections import CorrectionRule, at_least, between, not_empty, one_of, reorder, up_to

from .catalogue import OPTIONS
from .turn import ROUND_STEPS
from .wounds import UNTYPED

MOST = 1_000_000


def _subturn(state: dict, value, tables) -> str:
    most = state["options"]["subturns"]
    return "" if 1 <= value <= most else f"must be from 1 to {most} (the encounter's sub-turns)"


def _subturns(state: dict, value, tables) -> str:
    """The sub-turns a turn is cut into: no fewer than the sub-turn the round has reached (a round in its 3rd
    of 2 sub-turns would share out more points than the turn has: "sub-turn 3/2", "AP 60/55")."""
    at = state["subturn"]
    return "" if value >= at else f"must be {at} or more (the round is in sub-turn {at}; correct the sub-turn first)"


def _parts(tables, race: str) -> set[str]:
    return {p["id"] for p in tables.races[race]["parts"]}


def _same_body(state: dict, value, tables, path) -> str:
    """A race whose body parts are the person's: a hit looks its part up on the race's random hit table (#3-3.4)
    and organ table (3-3.1) and lands it on the person's body, so a part only one of them has would fail the
    next hit. The body is not rebuilt: its points and damage taken belong to the parts it has."""
    if value not in tables.races:
        return ""  # the race's own rule names the races
    person = state["people"][path[1]]
    have, gets = set(person["body"]), _parts(tables, value)
    if gets == have:
        return ""
    fit = sorted(r for r in tables.races if _parts(tables, r) == have)

    def words(parts: set[str]) -> str:
        return ", ".join(sorted(p.replace("_", " ") for p in parts))
    differs = ([words(gets - have)] if gets - have else []) + ([f"no {words(have - gets)}"] if have - gets else [])
    article = "an" if value[:1] in "aeiou" else "a"
    return (f"must be one of {', '.join(fit) or 'none'} (a race with {person['name']}'s body parts; "
            f"{article} {value} has {' and '.join(differs)})")


def _joined_side(state: dict, value, tables, path) -> str:
    """A side that has joined the fight (``joined``) is named there once: a side of the fight, not one already
    listed at another place. Another text would quietly take a side out of the fight (a drive found it)."""
    others = [s for i, s in enumerate(state["joined"]) if i != path[-1]]
    if value in state["side_order"] and value not in others:
        return ""
    free = [s for s in state["side_order"] if s not in others]
    return f"must be one of {', '.join(free) or 'none'} (a side of the fight not already listed as joined)"


def _wound_part(state: dict, value, tables, path) -> str:
    """A wound is on one of its person's body parts, the parts of the race (``_same_body``): its points are part of
    that part's damage, and its percentage, description and organ results are read on that part."""
    person = state["people"][path[1]]
    if value in person["body"]:
        return ""
    return f"must be one of {', '.join(person['body'])} ({person['name']}'s body parts)"


def _wound_type(state: dict, value, tables, path) -> str:
    """A wound's type is read on its damage type's description table (Tables 3-8 to 3-14), each of an attack's several
    types on its own ("blade+bludgeon", as a hit of such a weapon writes it), or is none stated (``wounds.UNTYPED``,
    what a correction of a part with no wound makes). Another text would leave the wound described as before. The
    type play gave the wound stays allowed, though no table describes it (a poison's, a ship's radiation on its
    crew): a resumed state holds such wounds, and each of its values is checked as its correction would be."""
    kinds = str(value).split("+")
    if value == UNTYPED or all(k in tables.descriptions for k in kinds) and len(set(kinds)) == len(kinds):
        return ""
    try:
        if value == state["people"][path[1]]["wounds"][path[3]]["type"]:
            return ""
    except (KeyError, IndexError, TypeError):
        pass
    return (f"must be a damage type ({', '.join(tables.descriptions)}), several joined by + (blade+bludgeon), "
            f"or {UNTYPED}")


def _step(state: dict, value, tables) -> str:
    return "" if value in ROUND_STEPS else f"must be one of {', '.join(ROUND_STEPS)}"


def _sole(state: dict, value, tables) -> str:
    """The side with the one and only attack of the round, or "" (every side of the round's order acts)."""
    return "" if value == "" or value in state["side_order"] else \
        f"must be empty or one of {', '.join(state['side_order'])} (the side with the only attack this round)"


def _acting(state: dict, value, tables) -> str:
    """The place in this round's order of the side acting: the console reads that side's name from it."""
    most = max(0, len(state["round_order"]) - 1)
    return "" if 0 <= value <= most else \
        f"must be from 0 to {most} (the place in this round's order of the side acting)"


def _option(name: str):
    allowed, _default, words = OPTIONS[name]

    def check(state: dict, value, tables) -> str:
        return "" if value in allowed and not isinstance(value, bool) else \
            f"must be one of {', '.join(map(str, allowed))} ({words})"
    return check


RULES = (
    # the sides' orders: the setup's, the primary attack's and this round's; a side out of them has no roll, and
    # the round has no name for it
    *(reorder(f"{name}[*]") for name in ("side_order", "order", "round_order")),
    CorrectionRule("side_names.*", not_empty),
    CorrectionRule("joined[*]", _joined_side, reads_path=True),
    CorrectionRule("people.*.body.*.taken", between(0, MOST)),
    CorrectionRule("people.*.body.*.points", between(1, MOST)),
    # a wound's damage: read again on its tables when corrected (``wounds.reread_wound``)
    CorrectionRule("people.*.wounds[*].points", between(0, MOST)),
    CorrectionRule("people.*.wounds[*].percent", between(0, MOST)),
    CorrectionRule("people.*.wounds[*].type", _wound_type, reads_path=True),
    CorrectionRule("people.*.wounds[*].part", _wound_part, reads_path=True),
    *(CorrectionRule(f"people.*.{name}", between(0, MOST))
      for name in ("ap_turn", "ap_spent", "ap_extra", "ap_extra_spent", "ap_forfeit", "owed", "taken_this_round",
                   "taken_last_round")),
    CorrectionRule("people.*.ap_spent", at_least("ap_extra_spent"), reads_path=True),
    CorrectionRule("people.*.ap_extra", at_least("ap_extra_spent"), reads_path=True),
    CorrectionRule("people.*.ap_extra_spent", up_to("ap_extra"), reads_path=True),
    CorrectionRule("people.*.ap_extra_spent", up_to("ap_spent"), reads_path=True),
    CorrectionRule("people.*.race", one_of(lambda state, tables: tables.races)),
    CorrectionRule("people.*.weapons[*]", one_of(lambda state, tables: tables.weapons)),
    CorrectionRule("people.*.race", _same_body, reads_path=True),
    CorrectionRule("alertness.*", between(0, 100)),
    CorrectionRule("round", between(1, MOST)),
    CorrectionRule("step", _step),
    CorrectionRule("sole", _sole),
    CorrectionRule("acting", _acting),
    CorrectionRule("subturn", _subturn),
    # set when the primary attack rolls have given an order; true with no order, a round has no side to act
    CorrectionRule("primary_done", lambda state, value, tables: "" if not value or state["order"] else
                   "can be true only once the primary attack has given an order (correct the order first)"),
    CorrectionRule("quiet_rounds", between(0, MOST)),
    CorrectionRule("attacks_this_round", between(0, MOST)),
    *(CorrectionRule(f"options.{name}", _option(name)) for name in OPTIONS),
    CorrectionRule("options.subturns", _subturns),
)
