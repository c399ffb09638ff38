"""The round of a megatraveller fight, range in squares, bands and line of sight.

Source: ``megatraveller-sensors-fire.txt``: range bands ("Visual = 1 space (but
should be same space - errata item) / Near = 2 spaces / Far 3-10 spaces /
Extreme 11-100 spaces"), "A ship gets 1 free sensor action each round", "a
ship gets one gunnery action per battery", "Line Of Sight: If something blocks
the line of sight, you can't shoot."

Where the text is silent we decided, as a careful referee would:

- A round has three steps: 1 Sensors (sensor actions, including gunnery actions
  spent on sensors), 2 Fire (battery by battery; each battery's penetration,
  damage and criticals are resolved before the next, as steps 3.1-3.5 say),
  3 End of round. Range and line of sight may be set in any step.
- Range is kept per pair of ships in squares; it starts at ``options.range``
  (10 squares, Far, when not given).
- Beyond 100 squares a ship is out of every band: nothing is detected, located
  or fired at.
- With option ``visual_same_square`` (the errata), Visual is 0 squares and Near
  is 1-2; without it Visual is 0-1 (the same square is surely in sight).
- Sensor states persist from round to round until the game master corrects them.
"""

from __future__ import annotations

from engine.errors import IllegalAction
from engine.ruleset import RuleContext, StepView

STEPS = ((1, "Sensors"), (2, "Fire"), (3, "End of round"))
DEFAULT_RANGE = 10
DETECTION_LIMIT = 100  # "Anything within 100 spaces is pretty much detected"


def pair(a: str, b: str) -> str:
    return "|".join(sorted((a, b)))


def squares(state: dict, a: str, b: str) -> int:
    return state["ranges"][pair(a, b)]


def band_of(state: dict, n: int) -> str:
    """The band for a range in squares ("" beyond Extreme)."""
    visual = 0 if state["options"]["visual_same_square"] else 1
    if n <= visual:
        return "visual"
    if n <= 2:
        return "near"
    if n <= 10:
        return "far"
    if n <= DETECTION_LIMIT:
        return "extreme"
    return ""


def band(state: dict, a: str, b: str) -> str:
    return band_of(state, squares(state, a, b))


def sight_blocked(state: dict, a: str, b: str) -> bool:
    return pair(a, b) in state["blocked"]


def enemies(state: dict, ship_id: str) -> list[str]:
    side = state["ships"][ship_id]["side"]
    return [sid for sid, s in state["ships"].items() if s["side"] != side]


def set_range(state: dict, args: dict, ctx: RuleContext) -> None:
    a, b = args.get("ship", ""), args.get("target", "")
    for sid in (a, b):
        if sid not in state["ships"]:
            raise IllegalAction(f"no ship {sid!r}")
    if pair(a, b) not in state["ranges"]:
        raise IllegalAction("range is kept between ships of different sides")
    try:
        n = int(args.get("squares", ""))
    except (TypeError, ValueError):
        raise IllegalAction(f"squares: expected a whole number, got {args.get('squares')!r}") from None
    if n < 0:
        raise IllegalAction(f"squares: expected 0 or more, got {n}")
    state["ranges"][pair(a, b)] = n
    ctx.note(f"Range {state['ships'][a]['name']} - {state['ships'][b]['name']}: {n} squares "
             f"({band_of(state, n) or 'beyond Extreme'})")
    from .sensors import refresh_detection
    refresh_detection(state, ctx)


def set_sight(state: dict, args: dict, ctx: RuleContext) -> None:
    """The game master says whether something blocks the line of sight between two ships."""
    a, b = args.get("ship", ""), args.get("target", "")
    for sid in (a, b):
        if sid not in state["ships"]:
            raise IllegalAction(f"no ship {sid!r}")
    blocked = str(args.get("sight", "")).lower()
    if blocked not in ("blocked", "clear"):
        raise IllegalAction(f"sight: expected blocked or clear, got {args.get('sight')!r}")
    key = pair(a, b)
    if blocked == "blocked" and key not in state["blocked"]:
        state["blocked"].append(key)
    if blocked == "clear" and key in state["blocked"]:
        state["blocked"].remove(key)
    ctx.note(f"Line of sight {state['ships'][a]['name']} - {state['ships'][b]['name']}: {blocked}")


def next_step(state: dict, ctx: RuleContext) -> None:
    if state["step"] < len(STEPS):
        state["step"] += 1
        return
    state["round"] += 1
    state["step"] = 1
    for ship in state["ships"].values():
        ship["free_sensor_used"] = False
        for b in ship["batteries"]:
            b["used"] = ""
    ctx.note(f"Round {state['round']} begins")


def checklist(state: dict) -> list[StepView]:
    out = []
    for number, label in STEPS:
        status = "done" if number < state["step"] else ("current" if number == state["step"] else "todo")
        out.append(StepView(number, label, status, ""))
    return out
