"""A second test-only ruleset whose procedure the skirmish calls inside its own fights.

It proves the engine's design for one ruleset using another's procedures (as
classic-hg crew hits will be resolved by the percentile system): the call, the
roll it asks for and the reply all land in the calling fight's one log, so undo,
replay and saves treat them like any other event.
"""

from __future__ import annotations

from engine.actions import Catalogue, UnitKind
from engine.ruleset import Ruleset, StepView
from engine.state import wound

PERSON = UnitKind("person", "Person", "People", "people")
CATALOGUE = Catalogue("test-melee", (PERSON,))


@CATALOGUE.procedure("wound")
def start_wound(state: dict, args: dict, tables, ctx) -> None:
    """Roll a boarder's wound (half a d10 plus one) against one body part."""
    ctx.request_roll(f"Wound: {args['person']} {args['part']}", "0.5:10sd+1", then="wound",
                     context={"person": args["person"], "part": args["part"]})


@CATALOGUE.continuation("wound")
def resolve_wound(state: dict, result, tables, ctx) -> None:
    c = result.request.context
    taken = wound(state, c["person"], c["part"], result.total)
    ctx.note(f"{c['person']} {c['part']}: {result.total} damage ({taken} taken)")
    ctx.done({"person": c["person"], "part": c["part"], "points": result.total})



class Melee(Ruleset):
    id = "test-melee"
    name = "Test melee (engine tests only)"
    catalogue = CATALOGUE

    def new_state(self, setup) -> dict:
        return {"people": {}, "side_order": setup.side_ids}

    def checklist(self, state: dict) -> list[StepView]:
        return []


MELEE = Melee()
