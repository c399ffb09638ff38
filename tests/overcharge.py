"""A test-only ruleset whose one action changes a value its own roll reads: the skirmish's ships, with a gun that
is overcharged and fired.

No shipped ruleset has an action that both sets a value and asks a roll reading it, so nothing else reaches the
fallback of a correction made while that roll waits: "the action sets the value itself" (``Encounter._placing``).
The ruleset is registered nowhere: a test hands it to ``Encounter`` itself.
"""

from __future__ import annotations

import dataclasses

from engine.actions import Action, Catalogue, Param
from engine.encounter import Encounter
from engine.rolls import Modifier, Target
from tests.skirmish import PERSON, SHIP, Skirmish, make_setup, resolve_damage, resolve_hit

CATALOGUE = Catalogue("test-overcharge", (SHIP, PERSON))


def overcharge(state: dict, args: dict, tables, ctx) -> None:
    """The gun's rating rises by one for good, and it fires at that rating (2D + gun, 8+)."""
    ship = state["ships"][args["ship"]]
    ship["gun"] += 1
    ctx.request_roll("To hit (overcharged)", "2D", [Modifier("Gun", ship["gun"])], Target(8), then="hit",
                     context={"ship": args["ship"], "target": args["target"]})


CATALOGUE.add(Action("overcharge", "Overcharge and fire", overcharge, key="o", params=(
    Param("ship", "Ship", "unit", unit="ship"), Param("target", "Target", "unit", unit="ship", enemy_of="ship"))))
CATALOGUE.continuation("hit")(resolve_hit)
CATALOGUE.continuation("damage")(resolve_damage)


class Overcharge(Skirmish):
    id = "test-overcharge"
    name = "Test overcharge (engine tests only)"
    catalogue = CATALOGUE
    uses = ()


OVERCHARGE = Overcharge()


def arrow_overcharged() -> Encounter:
    """The skirmish's duel under this ruleset: the Arrow (gun 2) overcharges at the Brute, its to-hit waiting at
    Gun +3."""
    enc = Encounter(dataclasses.replace(make_setup(), ruleset=OVERCHARGE.id), OVERCHARGE)
    enc.act("overcharge", ship="arrow", target="brute")
    return enc
