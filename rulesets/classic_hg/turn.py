"""The nine steps of a classic-hg turn: initiative, range, the fire and damage steps, reprogramming.

Source: ``classic-hg-combat.txt``, the numbered procedure 1-9, "Breaking Off
Action" and the NOTE on simultaneous initiative.

Where the text is silent we decided, as a careful referee would:

- A side rolls initiative once, adding the best Tactics among its ships still
  in the fight (the text speaks of one Captain per side).
- Equal initiative rolls are simultaneous initiative. Someone must still walk
  steps 3-8 first: the side that was ATTACKER last turn keeps the role, and on
  the first turn the side listed first in the setup takes it.
- The initiative holder names the range from turn 2 on; on turn 1 it is long
  ("Initial encounters always take place at long range"). With simultaneous
  initiative the side that keeps the ATTACKER's role names it.
- When the fight ends (a break-off or the referee's withdrawal leaves a side
  with no ship), the damage already past its target's defensive fire is still
  recorded: held damage of a simultaneous turn, and the ATTACKER's ramming
  damage. Attacks still waiting for defensive fire never arrive.
"""

from __future__ import annotations

from typing import Any

from engine.rolls import Modifier, RollResult
from engine.ruleset import RuleContext, StepView

from .catalogue import continuation
from .ships import SPENT

STEPS = (
    (1, "Initiative"),
    (2, "Range"),
    (3, "Attacker's offensive fire"),
    (4, "Defender's defensive fire"),
    (5, "Defender's damage"),
    (6, "Defender's offensive fire"),
    (7, "Attacker's defensive fire"),
    (8, "Attacker's damage"),
    (9, "Computer reprogramming"),
)
RANGES = ("close", "short", "long")
SURPRISE_MARGIN = 3  # "an initiative roll of three or better above his adversary"


def sides(state: dict) -> list[str]:
    return list(state["side_order"])


def other(state: dict, side: str) -> str:
    a, b = state["side_order"]
    return b if side == a else a


def ships_of(state: dict, side: str, active_only: bool = True) -> list[str]:
    return [sid for sid, s in state["ships"].items()
            if s["side"] == side and not (active_only and s["broken_off"])]


def firing_side(state: dict) -> str:
    """Whose offensive fire this step is (step 3 attacker, step 6 defender)."""
    return state["attacker"] if state["step"] == 3 else state["defender"]


def defending_side(state: dict) -> str:
    """Whose defensive fire this step is (step 4 defender, step 7 attacker)."""
    return state["defender"] if state["step"] == 4 else state["attacker"]


# --- step 1: initiative ------------------------------------------------------------

def may_roll_initiative(state: dict, args: dict, tables: Any) -> str:
    if state["over"]:
        return "the fight is over"
    if state["step"] != 1:
        return "initiative is rolled in step 1"
    if len(state["initiative"]) >= 2:
        return "initiative is already rolled this turn"
    return ""


def roll_initiative(state: dict, args: dict, tables: Any, ctx: RuleContext) -> None:
    """"Each Captain rolls 1D, adding Ship's Tactics as a +DM." (step 1)"""
    for side in sides(state):
        ships = ships_of(state, side)
        tactics = max([state["ships"][s]["tactics"] for s in ships], default=0)
        mods = [Modifier("Tactics", tactics)] if tactics else []
        ctx.request_roll(f"Initiative: {state['side_names'][side]}", "1D", mods, then="initiative",
                         context={"side": side})


@continuation("initiative")
def on_initiative(state: dict, result: RollResult, tables: Any, ctx: RuleContext) -> None:
    record_initiative(state, result.request.context["side"], result.total, ctx)


def record_initiative(state: dict, side: str, total: int, ctx: RuleContext) -> None:
    state["initiative"][side] = total
    if len(state["initiative"]) < 2:
        return
    a, b = state["side_order"]
    ra, rb = state["initiative"][a], state["initiative"][b]
    if ra == rb:
        state["simultaneous"] = True
        state["attacker"] = state["attacker"] or a
        ctx.note(f"Simultaneous initiative ({ra} each): the defender's damage waits until step 8")
    else:
        state["simultaneous"] = False
        state["attacker"] = a if ra > rb else b
    state["defender"] = other(state, state["attacker"])
    margin = abs(ra - rb)
    if state["turn"] == 1 and margin >= SURPRISE_MARGIN:
        state["surprised"] = state["defender"]
        ctx.note(f"Surprise: {state['side_names'][state['defender']]} is caught during computer download "
                 f"(won by {margin})")
    ctx.note(f"{state['side_names'][state['attacker']]} is ATTACKER")


def simultaneous(state: dict) -> bool:
    """Equal initiative this turn. The flag stays from the turn that set it until the next roll answers it,
    so before both sides have rolled this turn nothing is simultaneous yet."""
    return bool(state.get("simultaneous")) and len(state.get("initiative", {})) == len(state["side_order"])


def is_surprised(state: dict, ship_id: str) -> bool:
    return state["surprised"] == state["ships"][ship_id]["side"]


def may_fire_offensively(state: dict, ship_id: str) -> bool:
    """A surprised side "may conduct no offensive fire" during the surprise turn (step 1)."""
    return not is_surprised(state, ship_id)


def may_defend(state: dict, ship_id: str) -> bool:
    """A surprised ship makes no defensive fire either, "if the ship is not a naval vessel"."""
    return not is_surprised(state, ship_id) or state["ships"][ship_id]["naval"]


# --- step 2: range -------------------------------------------------------------

def range_choices(state: dict) -> tuple[str, ...]:
    """"Range may be altered by one step only": the neighbours of the current range."""
    i = RANGES.index(state["range"])
    return tuple([RANGES[j] for j in (i - 1, i, i + 1) if 0 <= j < len(RANGES)])


def may_set_range(state: dict, args: dict, tables: Any) -> str:
    """The initiative holder names the range in step 2 from turn 2 on, one step at a time."""
    if state["over"]:
        return "the fight is over"
    if state["step"] != 2:
        return "the range is chosen in step 2"
    if state["turn"] == 1:
        return "the first turn is fought at long range"
    if state["range_set"]:
        return "the range is already chosen this turn"
    side = args.get("side", "")
    if side and side != state["attacker"]:
        chooser = state["side_names"].get(state["attacker"], state["attacker"])
        return f"the range is chosen by {chooser}, the side with the initiative"
    if "range" in args and args["range"] not in range_choices(state):
        allowed = ", ".join(range_choices(state))
        return f"range {args['range']!r}: from {state['range']} the range may become {allowed}"
    return ""


def set_range(state: dict, args: dict, tables: Any, ctx: RuleContext) -> None:
    """"the player with initiative elects to reduce range, remain at the current range or increase range"."""
    new_range = args["range"]
    chooser = state["side_names"].get(state["attacker"], state["attacker"])
    ctx.note(f"{chooser}: range {state['range']} -> {new_range}" if new_range != state["range"]
             else f"{chooser}: range stays {new_range}")
    state["range"] = new_range
    state["range_set"] = True


# --- leaving the fight -------------------------------------------------------------

#: Reasons the game master may give for taking a ship out of the fight. The text
#: has no rule that destroys a ship; this is the referee's ruling, logged like any action.
OUT_REASONS = ("destroyed", "surrendered", "disabled", "fled")


def leave_fight(state: dict, ship_id: str, reason: str, ctx: RuleContext) -> None:
    """A ship leaves the fight; when a side has none left, the fight is over."""
    ship = state["ships"][ship_id]
    ship["broken_off"] = True
    ship["out"] = reason
    ctx.note(f"{ship['name']} leaves the fight: {reason}")
    for side in sides(state):
        if not ships_of(state, side):
            verb = "broke off" if reason == "broken off" else "has no ship left in the fight"
            state["over"] = f"{state['side_names'][side]} {verb}"
            ctx.note(f"The fight is over: {state['over']}")
            return


def may_withdraw(state: dict, args: dict, tables: Any) -> str:
    """The referee may take a ship out of the fight at any step while it lasts."""
    if state["over"]:
        return "the fight is over"
    if "ship" in args and state["ships"][args["ship"]]["broken_off"]:
        ship = state["ships"][args["ship"]]
        return f"{ship['name']} has already left the fight ({ship.get('out') or 'broken off'})"
    return ""


def withdraw(state: dict, args: dict, tables: Any, ctx: RuleContext) -> None:
    """The referee takes a ship out of the fight (destroyed, surrendered...)."""
    leave_fight(state, args["ship"], args["reason"], ctx)


# --- moving on ------------------------------------------------------------------

def step_needs(state: dict) -> str:
    """What the current step still needs before ``next`` (empty when nothing)."""
    step = state["step"]
    if state["over"]:
        return "the fight is over" + ("; record the damage still due" if damage_attacks(state) else "")
    if step == 1 and len(state["initiative"]) < 2:
        return "roll initiative"
    if step == 2 and state["turn"] > 1 and not state["range_set"]:
        return "choose the range: " + ", ".join(range_choices(state))
    if step in (5, 8) and damage_attacks(state):
        return "resolve damage"
    return ""


def damage_attacks(state: dict) -> list[dict]:
    """Attacks whose damage this step records.

    Step 5: the defender's, unless initiative was simultaneous ("The DEFENDER does
    not record his damage or its effects until STEP 8"). Step 8: everything still
    unrecorded: the attacker's, held ones, and a defender's own ramming damage.
    """
    if state["over"]:
        return due_at_the_end(state)
    if state["step"] == 5:
        if state["simultaneous"]:
            return []
        return [a for a in state["attacks"] if a["status"] == "hit"
                and state["ships"][a["target"]]["side"] == state["defender"]]
    if state["step"] == 8:
        return [a for a in state["attacks"] if a["status"] == "hit"]
    return []


def due_at_the_end(state: dict) -> list[dict]:
    """Damage still unrecorded when the fight ends: every attack past its target's defensive fire.

    An attack fired in step 3 is intercepted in step 4, one fired in step 6 in step 7; ramming
    cannot be intercepted. Such an attack is recorded even though step 8 never comes (the NOTE
    holds the DEFENDER's damage "until STEP 8", it does not cancel it). An attack still waiting for
    its defensive fire when the fight ends never arrives.
    """
    return [a for a in state["attacks"] if a["status"] == "hit"
            and (not a["interceptable"] or state["step"] > a.get("step", 0) + 1)]


def new_turn(state: dict, ctx: RuleContext) -> None:
    """Step 9 done: "one turn is now complete. If combat continues, return to step 1"."""
    state["turn"] += 1
    state["step"] = 1
    state["initiative"] = {}
    state["surprised"] = ""
    state["range_set"] = False
    state["attacks"] = []
    for ship in state["ships"].values():
        for t in ship["turrets"]:
            t["used"] = ""
            t.pop(SPENT, None)  # the energy the use spent is free again
        ship["fired"] = False
    ctx.note(f"Turn {state['turn']} begins")


def checklist(state: dict) -> list[StepView]:
    out = []
    for number, label in STEPS:
        if number < state["step"]:
            status = "done"
        elif number == state["step"]:
            status = "current"
        else:
            status = "todo"
        if status != "done" and skipped(state, number):
            status = "skipped"
        needs = step_needs(state) if number == state["step"] else ""
        out.append(StepView(number, label, status, needs))
    return out


def skipped(state: dict, number: int) -> bool:
    """Steps with nothing to do: a surprised defender's offensive fire, held damage."""
    if number == 6 and state["surprised"] and state["surprised"] == state["defender"]:
        return True
    if number == 5 and simultaneous(state):
        return True
    return False
