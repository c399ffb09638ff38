"""What a megatraveller value corrected by hand may be (``engine.corrections``).

The same limits the rules and the ship files hold: the round's steps, range in
squares, battery weapons and sensor difficulties the tables know, mounts that fit
their weapon and factor, signature classes, sensor states, pools that cannot
go below nothing, and systems shut down that a critical could shut down (typed
whole as names separated by commas).
"""

from engine.corrections import CorrectionRule, between, names_list, not_empty, one_of, reorder
from engine.state import get_path

from .sensors import REVEALED, SIGNATURE_TIER, STATES
from .ships import SPINAL_FACTOR, mount_fault
from .systems import shut_down_fault
from .turn import MAX_SQUARES, STEPS


def _mount(state: dict, value, tables, path) -> str:
    """A battery's weapon or factor corrected must still make a mount the text allows (``ships.mount_fault``): a
    spinal laser, or a factor-15 laser, would be read by the damage and to-hit rules as the text never allows.
    A spinal mount is factor A (10) or more and any other battery 9 or less, so the mount follows the factor
    (``after_correction`` sets it): correcting ``spinal`` itself can only repeat what the factor says."""
    battery = dict(get_path(state, path[:-1]))
    field = path[-1]
    if field == "spinal":
        if value != (battery["factor"] >= SPINAL_FACTOR):
            return (f"cannot be {value}: a battery is a spinal mount when its factor is A (10) or more, and its "
                    f"factor is {battery['factor']}; correct the factor instead")
        return ""
    battery[field] = value
    if battery["weapon"] not in tables.weapons:
        return ""
    battery["spinal"] = battery["factor"] >= SPINAL_FACTOR
    fault = mount_fault(battery, tables)
    return f"cannot be {value}: {fault}" if fault else ""


def _shut_down(state: dict, value, tables) -> str:
    """The systems shut down, typed whole: held to the rule a critical shuts them down by (``systems``)."""
    return shut_down_fault(value, tables)


def _one_shut_down(state: dict, value, tables, path) -> str:
    """One entry of the systems shut down, corrected alone: the list it makes, held to the same rule."""
    names = list(get_path(state, path[:-1]))
    if 0 <= path[-1] < len(names):
        names[path[-1]] = value
    return shut_down_fault(names, tables)


def _battery(state: dict, value, tables) -> str:
    """A whole battery given at once: its mount checked as a ship file's is."""
    if not isinstance(value, dict) or not {"weapon", "factor", "spinal"} <= set(value):
        return ""
    if value["weapon"] not in tables.weapons:
        return f"weapon must be one of {', '.join(sorted(tables.weapons))}"
    fault = mount_fault(value, tables)
    return f"cannot stand: {fault}" if fault else ""


RULES = (
    reorder("side_order[*]"),
    CorrectionRule("side_names.*", not_empty),
    CorrectionRule("round", between(1, 1_000_000)),
    CorrectionRule("step", between(1, len(STEPS))),
    CorrectionRule("ranges.*", between(0, MAX_SQUARES)),
    CorrectionRule("fleet_tactics.*", between(0, 1000)),
    CorrectionRule("knowledge.*.*.state", one_of(lambda state, tables: STATES)),
    CorrectionRule("knowledge.*.*.revealed", one_of(lambda state, tables: REVEALED)),
    CorrectionRule("ships.*.tactics", between(0, 1000)),
    CorrectionRule("ships.*.signature", one_of(lambda state, tables: SIGNATURE_TIER)),
    CorrectionRule("ships.*.sensors.*.*", one_of(lambda state, tables: tables.difficulties)),
    CorrectionRule("ships.*.batteries[*].weapon", one_of(lambda state, tables: tables.weapons)),
    CorrectionRule("ships.*.batteries[*].id", not_empty),
    CorrectionRule("ships.*.batteries[*].factor", between(1, 27)),
    CorrectionRule("ships.*.batteries[*].weapon", _mount, reads_path=True),
    CorrectionRule("ships.*.batteries[*].factor", _mount, reads_path=True),
    CorrectionRule("ships.*.batteries[*].spinal", _mount, reads_path=True),
    CorrectionRule("ships.*.batteries[*]", _battery),
    CorrectionRule("ships.*.computer", between(0, 30)),
    CorrectionRule("ships.*.armor", between(0, 1000)),
    CorrectionRule("ships.*.defences.*", between(0, 9)),  # sand, dampers, repulsors, screens, configuration
    names_list("ships.*.shut_down", _shut_down),  # "sensors, power"
    CorrectionRule("ships.*.shut_down[*]", _one_shut_down, reads_path=True),
)
