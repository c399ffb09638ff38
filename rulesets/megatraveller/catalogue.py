"""The megatraveller catalogue: the ship unit kind, the parameters most actions ask, batteries by name.

Each rules module declares its own actions and roll continuations here
(``sensors``: locate and lock; ``fire``: fire; ``turn``: range, sight and the
next step; ``damage``: its continuations). The package's ``__init__`` imports
them in the order the console lists the actions and then seals the catalogue.
"""

from __future__ import annotations

from engine.actions import Catalogue, Choice, Param, UnitKind

from .ranges import band, enemies, square_words, squares
from .ships import SHIP_FIELDS, ucp
from .systems import why_off
from .tables import Tables

SHIP = UnitKind("ship", "Ship", "Ships", "ships", fields=SHIP_FIELDS)
CATALOGUE = Catalogue("megatraveller", (SHIP,))



def _range_words(state: dict, args: dict, tables) -> list[Choice]:
    """Enemies named with the range to them: "Corsair-1 (5 squares, far)"."""
    ship_id = args["ship"]
    return [Choice(t, f"{state['ships'][t]['name']} ({square_words(squares(state, ship_id, t))}, "
                      f"{band(state, ship_id, t) or 'beyond Extreme'})") for t in enemies(state, ship_id)]


SHIP_PARAM = Param("ship", "Ship", "unit", unit="ship")
#: An enemy of the ship, named with the range to it (range decides every roll and what may be fired).
TARGET_PARAM = Param("target", "Target", "unit", unit="ship", enemy_of="ship", options=_range_words)


def battery_label(b: dict, tables: Tables) -> str:
    """"B2 spinal particle accelerator-B": how a battery is named in choices and roll purposes."""
    kind = "spinal " if b["spinal"] else ""
    return f"{b['id']} {kind}{tables.weapons[b['weapon']]['label'].lower()}-{ucp(b['factor'])}"


def battery(ship: dict, battery_id: str) -> dict:
    """One of the ship's batteries, by an id the engine has checked against the ship's list."""
    return next(b for b in ship["batteries"] if b["id"] == battery_id)


def why_no_battery(ship: dict, battery_id: str) -> str:
    """For a ``may`` that may be shown an id not yet checked (the engine asks it for a refusal's words)."""
    if any(b["id"] == battery_id for b in ship["batteries"]):
        return ""
    return f"{ship['name']} has no battery {battery_id!r}"


def why_not_acting(state: dict, args: dict, step: int, step_words: str, system: str) -> str:
    """The start of a ship action's ``may``: its step, and the acting ship's ``system`` not shut down.

    "Criticals shut down a system": shut-down sensors take no sensor actions and
    shut-down weapons do not fire; a shut-down power plant takes both (``systems``).
    """
    if state["step"] != step:
        return step_words
    if "ship" in args:
        return why_off(state["ships"][args["ship"]], system)
    return ""
