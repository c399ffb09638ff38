"""The round of a megatraveller fight, and the game master's actions on range and line of sight.

Source: ``megatraveller-sensors-fire.txt``: "A ship gets 1 free sensor action
each round", "a ship gets one gunnery action per battery". Range bands and
line of sight are read in ``ranges``.

Where the text is silent we decided, as a careful referee would:

- A round has three steps: 1 Sensors (sensor actions, including gunnery actions
  spent on sensors), 2 Fire (battery by battery; each battery's penetration,
  damage and criticals are resolved before the next, as steps 3.1-3.5 say),
  3 End of round. Range and line of sight may be set in any step.
- Range and line of sight are kept between enemy ships (the only pairs that
  detect, locate or fire at each other); setting a range refreshes what the
  two ships' sides detect of each other, and nothing else (a contact the game
  master hid elsewhere stays hidden).
- Sensor states persist from round to round, and at any range, until the game
  master corrects them (``ranges``: beyond 100 squares they serve nothing).
- A ship moved to another side by a correction is at the default range (10
  squares) from each new enemy it had no range to; the game master sets the
  range after. What it detects and what detects it are refreshed, and the log
  says which ranges were given and what was detected.
"""

from __future__ import annotations

from engine.actions import Action, Param
from engine.ruleset import RuleContext, StepView

from .catalogue import CATALOGUE, SHIP_PARAM, TARGET_PARAM
from .ranges import DEFAULT_RANGE, band_of, pair, square_words
from .sensors import pairs_across, pairs_of, refresh_detection

STEPS = ((1, "Sensors"), (2, "Fire"), (3, "End of round"))
MAX_SQUARES = 100_000  # far beyond Extreme (100): anything larger is a typing slip


def set_range(state: dict, args: dict, tables, ctx: RuleContext) -> None:
    a, b, n = args["ship"], args["target"], args["squares"]
    state["ranges"][pair(a, b)] = n
    ctx.note(f"Range {state['ships'][a]['name']} - {state['ships'][b]['name']}: {square_words(n)} "
             f"({band_of(state, n) or 'beyond Extreme'})")
    refresh_detection(state, ctx, pairs_across(a, b))


def set_sight(state: dict, args: dict, tables, ctx: RuleContext) -> None:
    """The game master says whether something blocks the line of sight between two ships."""
    a, b, sight = args["ship"], args["target"], args["sight"]
    key = pair(a, b)
    if sight == "blocked" and key not in state["blocked"]:
        state["blocked"].append(key)
    if sight == "clear" and key in state["blocked"]:
        state["blocked"].remove(key)
    ctx.note(f"Line of sight {state['ships'][a]['name']} - {state['ships'][b]['name']}: {sight}")


def next_step(state: dict, args: dict, tables, ctx: RuleContext) -> None:
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


def side_corrected(state: dict, ship_id: str, ctx: RuleContext | None = None) -> None:
    """A ship moved to another side by hand: a range to each new enemy that has none (the default), and what it
    and its new enemies now detect of each other; each noted, as a range set by hand is."""
    ship = state["ships"][ship_id]
    for other, enemy in state["ships"].items():
        if enemy["side"] != ship["side"] and pair(ship_id, other) not in state["ranges"]:
            state["ranges"][pair(ship_id, other)] = DEFAULT_RANGE
            if ctx is not None:
                a, b = sorted((ship["name"], enemy["name"]))
                ctx.note(f"Range {a} - {b}: {DEFAULT_RANGE} squares ({band_of(state, DEFAULT_RANGE)}), "
                         f"the default for new enemies")
    refresh_detection(state, ctx, pairs_of(state, ship_id))


def checklist(state: dict) -> list[StepView]:
    out = []
    for number, label in STEPS:
        status = "done" if number < state["step"] else ("current" if number == state["step"] else "todo")
        out.append(StepView(number, label, status, ""))
    return out


for _action in (
    Action("set_range", "Set range", set_range, key="r", params=(
        SHIP_PARAM, TARGET_PARAM,
        Param("squares", "Range in squares", "int", minimum=0, maximum=MAX_SQUARES, said="range {} squares"))),
    Action("set_sight", "Line of sight", set_sight, key="b", params=(
        SHIP_PARAM, TARGET_PARAM, Param("sight", "Line of sight", "choice", choices=("blocked", "clear")))),
    Action("next", "Next step", next_step, key="n"),
):
    CATALOGUE.add(_action)
