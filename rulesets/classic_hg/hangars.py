"""Small craft: launching them from their hangar and recovering them into it.

Source: ``classic-hg-combat.txt``, "Hangerage": "The target ship may not launch
or recover small craft suing the damaged hanger. In addition each hit will
destroy 10 tons of small craft. Small craft not destroyed are disabled."

Where the text is silent we decided, as a careful referee would:

- A ship launches or recovers small craft in its own side's offensive fire step
  (3 or 6), in addition to its fire, one craft an action; not while surprised
  (caught "during computer down load"), and not once it has left the fight.
- A craft returns to the hangar it was launched from, and only while that
  hangar is undamaged. A disabled or destroyed craft cannot launch.
- A launched craft is out of this ship-to-ship fight (the referee runs it
  apart); hits on its hangar while it is out do not touch it.
"""

from __future__ import annotations

from engine.ruleset import RuleContext

from .fire import shooter
from .tables import Tables


def craft_id(hangar_index: int, craft_index: int) -> str:
    """'1.2': the second small craft of the first hangar."""
    return f"{hangar_index + 1}.{craft_index + 1}"


def find_craft(ship: dict, cid: str) -> tuple[dict, dict] | None:
    """The hangar and the small craft a craft id names, or None."""
    for h_i, hangar in enumerate(ship["hangars"]):
        for c_i, craft in enumerate(hangar["small_craft"]):
            if craft_id(h_i, c_i) == cid:
                return hangar, craft
    return None


def _craft_problem(state: dict, args: dict, wanted: str) -> str:
    why, ship = shooter(state, args)
    if why or ship is None:
        return why
    if not any(h["small_craft"] for h in ship["hangars"]):
        return f"{ship['name']} carries no small craft"
    if "craft" not in args:
        return ""
    found = find_craft(ship, args["craft"])
    if found is None:
        return f"{ship['name']} has no small craft {args['craft']!r}"
    hangar, craft = found
    if craft["status"] != wanted:
        doing = "launch" if wanted == "ready" else "recover"
        return f"{craft['name']} cannot {doing}: it is {craft['status']}"
    if hangar["damaged"]:
        return (f"{ship['name']} {hangar['name']} is damaged: no small craft may launch or be recovered "
                "using it")
    return ""


def may_launch_craft(state: dict, args: dict, tables: Tables) -> str:
    """A ready small craft leaves through its undamaged hangar (steps 3 and 6)."""
    return _craft_problem(state, args, "ready")


def may_recover_craft(state: dict, args: dict, tables: Tables) -> str:
    """A launched small craft comes back into its own undamaged hangar (steps 3 and 6)."""
    return _craft_problem(state, args, "launched")


def launch_craft(state: dict, args: dict, tables: Tables, ctx: RuleContext) -> None:
    ship = state["ships"][args["ship"]]
    hangar, craft = find_craft(ship, args["craft"])
    craft["status"] = "launched"
    ctx.note(f"{ship['name']} launches {craft['name']} from {hangar['name']}")


def recover_craft(state: dict, args: dict, tables: Tables, ctx: RuleContext) -> None:
    ship = state["ships"][args["ship"]]
    hangar, craft = find_craft(ship, args["craft"])
    craft["status"] = "ready"
    ctx.note(f"{ship['name']} recovers {craft['name']} into {hangar['name']}")
