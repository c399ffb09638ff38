"""What a gothic value corrected by hand may be (``engine.corrections``): the same limits the files and
rules hold (the four phases, distances in centimetres, hits no more than the start and shields up no more than
the ship has, none while a critical holds them down, orders the table knows, a critical's row as its roll
gives it, every defence on the one side that defends the planet)."""

from engine.corrections import CorrectionRule, at_least, between, not_empty, one_of, reorder, up_to

from .catalogue import PHASES
from .ordnance import KINDS
from .units import MAX_CM, shields_blocked, why_defence_side


def _orders(state: dict, tables) -> list[str]:
    return [""] + list(tables.orders)


def _afloat(state: dict, value, tables, path) -> str:
    """A critical's roll is corrected on a vessel still afloat: the corrected row's effect is played out
    (``hitrun.reread_critical``), and a destroyed vessel cannot be brought back that way."""
    v = state[path[0]][path[1]]
    return f"cannot be corrected: {v['name']} is destroyed (undo back to the roll instead)" if v["destroyed"] else ""


def _from_its_roll(state: dict, value, tables, path) -> str:
    """A critical's name, effect and whether it can be repaired are its roll's row of the critical hits table
    (``hitrun._in_force`` writes them): set alone, one would leave a row the table does not hold, whose effect
    nothing played out (an effect of "shields" with the shields still up). Its roll is what is corrected."""
    entry = state[path[0]][path[1]]["criticals"][path[3]]
    row = tables.criticals.get(entry.get("roll"))
    if row is None or value == row[path[4]]:
        return ""
    return f"follows from its roll ({entry['roll']}: {row['name']}); correct criticals[{path[3]}].roll instead"


def _not_held_down(state: dict, value, tables, path) -> str:
    """A shield critical in force keeps every shield down until it is repaired (the critical hits table): a
    correction raising one would have the status read "2 of 2 up, held down" and teleports refused for it."""
    blocked = shields_blocked(state[path[0]][path[1]])
    if value and blocked:
        return f"must be 0 while {blocked['name']} holds the shields down (repair it, or correct the critical)"
    return ""


def _defence_side(state: dict, value, tables, path) -> str:
    """A defence stays on the side the other defences are on (``units.why_defence_side``)."""
    return why_defence_side(state["defences"], path[1], value, state.get("side_names"))


def _vessel_ids(state: dict, tables) -> list[str]:
    return list(state["ships"]) + list(state["defences"])


RULES = (
    reorder("side_order[*]"),
    CorrectionRule("side_names.*", not_empty),
    CorrectionRule("turn", between(1, 1_000_000)),
    CorrectionRule("phase", between(1, len(PHASES))),
    CorrectionRule("next_salvo", between(0, 1_000_000)),
    CorrectionRule("distances.*", between(0, MAX_CM)),
    CorrectionRule("ships.*.orders", one_of(_orders)),
    CorrectionRule("ships.*.class", one_of(lambda state, tables: ("capital", "escort"))),
    CorrectionRule("defences.*.orders", one_of(lambda state, tables: ("",))),
    CorrectionRule("defences.*.class", one_of(lambda state, tables: ("defence",))),
    CorrectionRule("defences.*.type", one_of(lambda state, tables: tables.defences)),
    CorrectionRule("defences.*.side", _defence_side, reads_path=True),
    CorrectionRule("*.*.hits", between(0, 100)),
    CorrectionRule("*.*.hits", up_to("hits_start"), reads_path=True),
    CorrectionRule("*.*.hits_start", between(1, 100)),
    CorrectionRule("*.*.hits_start", at_least("hits"), reads_path=True),
    CorrectionRule("*.*.shields_up", between(0, 20)),
    CorrectionRule("*.*.shields_up", up_to("shields"), reads_path=True),
    CorrectionRule("*.*.shields_up", _not_held_down, reads_path=True),
    CorrectionRule("*.*.shields", at_least("shields_up"), reads_path=True),
    CorrectionRule("*.*.armour", between(1, 6)),
    CorrectionRule("*.*.criticals[*].roll", between(2, 12)),
    CorrectionRule("*.*.criticals[*].roll", _afloat, reads_path=True),
    *(CorrectionRule(f"*.*.criticals[*].{field}", _from_its_roll, reads_path=True)
      for field in ("name", "effect", "repairable")),
    CorrectionRule("*.*.criticals[*].shields_down", between(0, 20)),
    CorrectionRule("*.*.criticals[*].hits_lost", between(0, 100)),
    CorrectionRule("ordnance.*.strength", between(1, 30)),
    CorrectionRule("ordnance.*.distance", between(0, MAX_CM)),
    CorrectionRule("ordnance.*.kind", one_of(lambda state, tables: KINDS)),
    CorrectionRule("ordnance.*.target", one_of(_vessel_ids)),
    CorrectionRule("ordnance.*.owner", one_of(_vessel_ids)),
)
