"""What a person's corrected value plays out: a table of the paths a correction reaches and the rule each calls.

``Percentile.person_corrected`` reads ``FOLLOWS`` for every correction of a person, in a percentile fight and for
the crew of a classic-hg one. A row names the path (in a correction rule's pattern language,
``engine.corrections.path_matches``), the ``Reading`` flag that turns it on (a save of an earlier version is
replayed as that version played it, ``Percentile.earlier_readings``; "" for a rule every version played) and the
rule. Each matching row runs, in the table's order; a rule says in the log what it changed and which part's damage
it moved, and what follows from a part's damage (its state, total destruction, death or life again) is played out
once, after them (``play_out``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Callable, NamedTuple

from engine.corrections import path_matches

from .people import is_dead, race_corrected
from .wounds import (BY_HAND, is_tissue_wound, part_damage_corrected, part_damage_moved, part_follows_wounds,
                     part_points_corrected, percent_typed, reread_wound, wound_moved, wounds_damage)


@dataclass(frozen=True)
class Reading:
    """What corrections (and a hit under the first band) play out, by the version of the rules that wrote a save
    (today's: all of it).

    ``rereads_wounds``: a corrected damage reads the wounds again; ``parts_follow_wounds``: a part's damage is its
    wounds' both ways; ``rederives_race``: a corrected race brings its average Agility, and an Agility corrected by
    hand is the person's own from then on; ``reads_slight_wounds``: a wound hit or read again at a percentage that
    rounds to 0 reads its table's first band (``wounds.type_lines``, ``wounds.hits_read_slight``); ``moves_wounds``:
    a wound corrected to another body part takes its points there (``wounds.wound_moved``); ``keeps_percent_by_hand``:
    a wound's percentage typed by hand stands until the wound's own points change (``wounds.BY_HAND``)."""

    rereads_wounds: bool = True
    parts_follow_wounds: bool = True
    rederives_race: bool = True
    reads_slight_wounds: bool = True
    moves_wounds: bool = True
    keeps_percent_by_hand: bool = True


@dataclass
class Corrected:
    """One corrected value of a person, as the rules read it: the fight's state and the tables its people are read
    by, the person (``pid``), the value's path, the reading it is played by and the value it replaced."""

    state: dict
    tables: object
    pid: str
    person: dict
    path: tuple
    reading: Reading
    was: object = None

    @property
    def options(self) -> dict:
        return self.state.get("options", {})


class Played(NamedTuple):
    """What a rule did: the log's lines; each part whose damage it moved, with what the part had taken before, and
    whether the part's total points were what was corrected; the part whose function decides again whether the
    person lives."""

    said: list[str] = []
    moved: tuple[tuple[str, int], ...] = ()
    points_corrected: bool = False
    life: str | None = None


def _part_damage(c: Corrected) -> Played:
    """A part's damage corrected is its wounds' (``wounds.part_damage_corrected``); a ship fight's crew never play
    organ damage."""
    part = c.path[3]
    was = wounds_damage(c.person, part)  # the wounds' damage: the part's until corrected
    said = part_damage_corrected(c.tables, c.person, part, c.pid, c.options.get("organs") is True,
                                 c.reading.parts_follow_wounds, c.reading.reads_slight_wounds)
    return Played(said, ((part, was),), life=part)


def _wound_damage(c: Corrected) -> Played:
    """A wound's points, percentage or type corrected reads the wound again (``wounds.reread_wound``); its points
    are its part's damage too (``wounds.part_follows_wounds``). A percentage typed by hand is the game master's
    reading of the wound ("Game Masters should use discretion to customize the descriptions", Procedures; where in
    a category the damage falls is "an option the Game Master can use or disregard", Description): it stands when
    the part's points, the wound's type or its part are corrected, until its own points are (``wounds.BY_HAND``);
    typed as the one its points read, it is no reading of the game master's own (``wounds.percent_typed``).

    The log names as read before what the value replaced, not what the state holds of the values after it
    (``WAS_SAID``)."""
    wound = c.person["wounds"][c.path[3]]
    corrected = c.path[4]
    if corrected == "points":
        wound.pop(BY_HAND, None)
    elif corrected == "percent" and c.reading.keeps_percent_by_hand:
        percent_typed(c.person, wound)
    said = reread_wound(c.tables, c.person, wound, percent_given=corrected == "percent",
                        slight=c.reading.reads_slight_wounds, before=WAS_SAID[corrected](c)) \
        if is_tissue_wound(c.tables, wound) else []
    if not (c.reading.parts_follow_wounds and corrected == "points"):
        return Played(said)
    part = wound["part"]
    was = c.person["body"][part]["taken"]
    part_follows_wounds(c.person, part)
    return Played(said, ((part, was),), life=part)


#: What the log of a wound's corrected value names as the wound's own before (``wounds.reread_wound``'s ``before``;
#: None: what it holds). A wound given whole hands on its values in the state's order, part, points, percentage,
#: type, with the later ones it gives already in place: a step names only the value it corrected (``Corrected.was``)
#: and, as held, those played before it.
WAS_SAID: dict[str, Callable[[Corrected], dict | None]] = {
    "part": lambda c: {"part": c.was},
    "points": lambda c: {"points": c.was},
    "percent": lambda c: {"percent": c.was},
    "type": lambda c: None,
}


def _wound_part(c: Corrected) -> Played:
    """A wound corrected to another body part takes its points from the old part to the new (``wounds.wound_moved``;
    procedure 1's wounds are their table's share of the part they are on), and the new part's function decides
    whether the person lives (the old one's, when it was the one without function, revives)."""
    wound = c.person["wounds"][c.path[3]]
    if c.was == wound["part"]:
        return Played()
    said, moved = wound_moved(c.tables, c.person, wound, c.was, c.options.get("damage") == 1,
                              c.reading.reads_slight_wounds, WAS_SAID["part"](c))
    return Played(said, tuple(moved), life=wound["part"])


def _part_points(c: Corrected) -> Played:
    """A part's total points corrected say again what share of it each wound is (``wounds.part_points_corrected``);
    procedure 1's wounds are their table's share of the part (a ship fight's crew are hit by procedure 3)."""
    part = c.path[3]
    was = c.person["body"][part]["taken"]
    said = part_points_corrected(c.tables, c.person, part, c.options.get("damage") == 1,
                                 c.reading.reads_slight_wounds)
    return Played(said, ((part, was),), points_corrected=True, life=part)


def _part(c: Corrected) -> Played:
    """Any value of a body part (or the part given whole): a vital part's function decides whether its person lives."""
    return Played(life=c.path[3])


def _race(c: Corrected) -> Played:
    """A corrected race brings its average Agility to a person whose file left the Agility to the race
    (``people.race_corrected``)."""
    said = race_corrected(c.person, c.tables)
    return Played([said] if said else [])


def _agility(c: Corrected) -> Played:
    """An Agility corrected by hand is the person's own: a race corrected later keeps it."""
    c.person["agility_from_race"] = False
    return Played()


@dataclass(frozen=True)
class Follows:
    """A row of ``FOLLOWS``: the path, the ``Reading`` flag that turns the rule on ("" for always), the rule."""

    pattern: str
    needs: str
    rule: Callable[[Corrected], Played] = field(repr=False)

    def __post_init__(self) -> None:
        if self.needs and self.needs not in {f.name for f in fields(Reading)}:  # a misspelt flag fails on import
            raise ValueError(f"{self.pattern}: no reading flag {self.needs!r}")


FOLLOWS = (
    Follows("people.*.body.*.taken", "rereads_wounds", _part_damage),
    *(Follows(f"people.*.wounds[*].{name}", "rereads_wounds", _wound_damage) for name in ("points", "percent", "type")),
    Follows("people.*.wounds[*].part", "moves_wounds", _wound_part),
    Follows("people.*.body.*.points", "parts_follow_wounds", _part_points),
    Follows("people.*.body.*", "", _part),
    Follows("people.*.body.*.*", "", _part),
    Follows("people.*.race", "rederives_race", _race),
    Follows("people.*.agility", "rederives_race", _agility),
)


def play_out(state: dict, path: tuple, tables, ctx, reading: Reading, was=None) -> None:
    """Every row of ``FOLLOWS`` the corrected ``path`` matches and ``reading`` turns on (``was``: the value the
    correction replaced), then what the damage they moved does (``wounds.part_damage_moved``, with
    ``parts_follow_wounds``) and whether the person lives; the log's lines in that order (``ctx``: None when the
    correction is only tried)."""
    if len(path) < 3 or path[0] != "people" or path[1] not in state.get("people", {}):
        return
    c = Corrected(state, tables, path[1], state["people"][path[1]], path, reading, was)
    said: list[str] = []
    moved: list[tuple[str, int]] = []
    points_corrected, life = False, None
    for row in FOLLOWS:
        if path_matches(row.pattern, path) and (not row.needs or getattr(reading, row.needs)):
            played = row.rule(c)
            said += played.said
            moved += played.moved
            points_corrected = points_corrected or played.points_corrected
            life = played.life or life
    for part, taken in moved if reading.parts_follow_wounds else ():
        said += part_damage_moved(c.person, part, taken, points_corrected=points_corrected)
    if ctx is not None:
        for line in said:
            ctx.note(line)
    if life is not None:
        life_corrected(c.person, tables, ctx, life)


def life_corrected(person: dict, tables, ctx, part_id: str) -> None:
    """A corrected body decides again whether its person is dead (a vital part without function), said as a wound
    that kills says it, or undone."""
    was, person["dead"] = person["dead"], is_dead(person, tables)
    if ctx is not None and person["dead"] != was:
        part = str(part_id).replace("_", " ")
        ctx.note(f"{person['name']} is dead: the {part} has no function left" if person["dead"] else
                 f"{person['name']} is alive again: every vital part has some function")
