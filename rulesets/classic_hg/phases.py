"""Moving on from one step to the next, and step 9's computer reprogramming.

Source: ``classic-hg-combat.txt``, the numbered procedure ("When STEP 9 is
completed, one turn is now complete") and step 9 ("alter any programs in their
respective computers"). Field defences (repulsors, nuclear dampers) act as the
defensive fire steps 4 and 7 end, on every attack still incoming.
"""

from __future__ import annotations

from engine.ruleset import RuleContext

from . import fire, turn
from .tables import Tables


def may_go_on(state: dict, args: dict, tables: Tables) -> str:
    """The next step, once this one has what it needs."""
    needs = turn.step_needs(state)
    if state["over"]:
        return "the fight is over"
    return f"step {state['step']} still needs: {needs}" if needs else ""


def go_on(state: dict, args: dict, tables: Tables, ctx: RuleContext) -> None:
    if state["step"] in (4, 7):
        fire.request_field_rolls(state, tables, ctx)
    for ship in state["ships"].values():
        ship["fired"] = False
    if state["step"] == 9:
        turn.new_turn(state, ctx)
        for ship in state["ships"].values():
            ship["rammed"] = False
    else:
        state["step"] += 1


def storage_used(programs: list[str], tables: Tables) -> int:
    used = 0  # a plain loop: asked after every computer hit
    for p in programs:
        used += int(tables.programs.get(p, {}).get("storage", 0))
    return used


def may_load_programs(state: dict, args: dict, tables: Tables) -> str:
    """Programs change in step 9 only, and must fit in the computer's storage."""
    if state["over"]:
        return "the fight is over"
    if state["step"] != 9:
        return "programs change only in step 9, computer reprogramming"
    if "programs" not in args:
        return ""
    ship = state["ships"][args["ship"]]
    unknown = [p for p in args["programs"] if p not in ship["library"]]
    if unknown:
        return f"{ship['name']} carries no program {unknown[0]!r} (on board: {', '.join(ship['library'])})"
    size = storage_used(args["programs"], tables)
    if size > ship["storage"]:
        return f"{', '.join(args['programs'])} need {size} spaces; {ship['name']}'s computer holds {ship['storage']}"
    return ""


def load_programs(state: dict, args: dict, tables: Tables, ctx: RuleContext) -> None:
    ship = state["ships"][args["ship"]]
    programs = list(args["programs"])
    ship["programs"] = programs
    ctx.note(f"{ship['name']} loads {', '.join(programs) or 'nothing'} "
             f"({storage_used(programs, tables)}/{ship['storage']} spaces)")
