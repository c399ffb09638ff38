"""What a classic-hg value corrected by hand may be (``engine.corrections``).

The same limits the rules and the ship files hold: the nine steps, the three
ranges, the sides, turret weapons the mount table knows, ids that name
something, no more fuel or cargo than the hull's tonnage, crew counts a crew hit can fight out, and attacks in
flight that name a weapon, location and ships the damage rolls can read. The crew
that personal combat met are percentile people, with that ruleset's limits.
"""

from engine.corrections import CorrectionRule, between, not_empty, one_of, reorder, up_to
import functools

from engine.ruleset import find_ruleset

from .ships import SPENT
from .turn import RANGES, STEPS


def _as_crew(rule: CorrectionRule) -> CorrectionRule:
    """A percentile rule for a person's values, for the crew of a classic-hg fight: read on the tables their personal
    combat reads (percentile's shipped ones, as ``damage`` calls it), not the ship tables."""
    def check(state: dict, value, tables, *path) -> str:
        return rule.check(state, value, find_ruleset("percentile").guest_tables(), *path)
    return CorrectionRule(rule.pattern, check, rule.reads_path, rule.swaps)


def _sides(state: dict, tables) -> list[str]:
    return list(state["side_order"])


def _sides_or_none(state: dict, tables) -> list[str]:
    return [""] + list(state["side_order"])


#: Crew a correction may put at one location, unless there were more already: a crew hit under personal combat
#: makes and fights each of them (a drive's 100,000 took half a minute a hit; a typo's 9 quintillion, all memory).
CREW_MOST = 1000


def _crew(state: dict, value, tables, path) -> str:
    was = state[path[0]][path[1]]["crew"].get(path[-1], 0)
    most = max(CREW_MOST, was if isinstance(was, int) else 0)
    return "" if 0 <= value <= most else f"must be from 0 to {most} (crew at one location)"


RULES = (
    reorder("side_order[*]"),
    CorrectionRule("side_names.*", not_empty),
    CorrectionRule("turn", between(1, 1_000_000)),
    CorrectionRule("step", between(1, len(STEPS))),
    CorrectionRule("range", one_of(lambda state, tables: RANGES)),
    CorrectionRule("attacker", one_of(_sides_or_none)),
    CorrectionRule("defender", one_of(_sides_or_none)),
    CorrectionRule("surprised", one_of(_sides_or_none)),
    CorrectionRule("initiative.*", between(-100, 100)),
    CorrectionRule("ships.*.turrets[*].weapon", one_of(lambda state, tables: tables.mounts)),
    CorrectionRule("ships.*.turrets[*].id", not_empty),
    CorrectionRule("ships.*.turrets[*].count", between(1, 3)),
    CorrectionRule("ships.*.turrets[*].destroyed", between(0, 3)),
    CorrectionRule("ships.*.turrets[*].used", one_of(lambda state, tables: ("", "offence", "defence"))),
    # energy points a used turret spent this turn (``fire.energy_spent``): none below 0
    CorrectionRule(f"ships.*.turrets[*].{SPENT}", between(0, 1_000_000)),
    CorrectionRule("ships.*.tubes[*].id", not_empty),
    CorrectionRule("ships.*.programs[*]", one_of(lambda state, tables: tables.programs)),
    CorrectionRule("ships.*.storage", between(0, 1000)),
    CorrectionRule("ships.*.computer", between(0, 9)),
    CorrectionRule("ships.*.controls", between(0, 10)),
    CorrectionRule("ships.*.sensors", between(0, 18)),
    # no hull holds more fuel or cargo than its tonnage (a drive took 9,999 tons of fuel into a 200-ton hull)
    CorrectionRule("ships.*.fuel", up_to("tonnage"), reads_path=True),
    CorrectionRule("ships.*.cargo", up_to("tonnage"), reads_path=True),
    CorrectionRule("ships.*.crew.*", _crew, reads_path=True),
    # an attack in flight names what its damage rolls read: the weapon's damage, the location's table, a ship
    CorrectionRule("attacks[*].weapon", one_of(lambda state, tables: tables.weapons)),
    CorrectionRule("attacks[*].location", one_of(lambda state, tables: ("", *tables.specific_locations))),
    CorrectionRule("attacks[*].general", one_of(lambda state, tables: tables.specific_locations)),
    CorrectionRule("attacks[*].target", one_of(lambda state, tables: state["ships"])),
    CorrectionRule("attacks[*].by", one_of(lambda state, tables: state["ships"])),
    CorrectionRule("attacks[*].damage", between(0, 1_000_000)),
    CorrectionRule("attacks[*].reduced", between(0, 1_000_000)),
)


@functools.cache
def crew_rules() -> tuple[CorrectionRule, ...]:
    """percentile's rules for a person's values, for the crew (``_as_crew``); read when first asked, not when the
    console opens (a fight loads percentile only when its crew combat calls it)."""
    from rulesets.percentile.corrections import RULES as PERCENTILE_RULES

    return tuple(_as_crew(rule) for rule in PERCENTILE_RULES if rule.pattern.startswith("people."))
