"""The megatraveller forecast doctrine (issue 13; ``rulesets/megatraveller/doctrine.py`` states it in words).

The doctrine is our decision, not the rules text's; these tests pin that each order is followed from
the demo's state and that every choice is one the rules accept (``check_action``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.forecast import Playout, load_doctrine
from engine.saves import SaveFile
from engine.state import plain_copy
from rulesets.megatraveller import RULESET
from rulesets.megatraveller.doctrine import ORDER_FIELDS, Commander, outcome
from rulesets.megatraveller.sensors import DETECTED, LOCATED, LOCKED

DEMO = Path(__file__).resolve().parents[3] / "saves" / "demo-megatraveller.toml"
STANDARD = {f.name: f.default for f in ORDER_FIELDS}


@pytest.fixture
def state() -> dict:
    return plain_copy(SaveFile.load(DEMO).encounter.state)


def commander(**changes) -> Commander:
    return Commander(RULESET, {"imperial": {**STANDARD, **changes}, "corsairs": dict(STANDARD)})


def decided(state: dict, cmd: Commander | None = None):
    choice = (cmd or commander()).decide(state)
    RULESET.check_action(state, *choice)
    return choice


def test_the_shipped_standard_file_is_the_doctrine_the_module_states() -> None:
    assert sorted(RULESET.doctrines()) == ["standard", "standoff"]
    assert load_doctrine(RULESET, "standard") == ("standard", STANDARD)
    assert load_doctrine(RULESET, "standoff")[1]["gunnery_on_sensors"] == "never"


def test_sensors_locate_a_detected_enemy_then_lock_a_located_one(state) -> None:
    assert state["knowledge"]["imperial"]["corsair"]["state"] == DETECTED
    name, args = decided(state)
    assert (name, args["ship"], args["spend"]) == ("locate", "patrol", "free")
    state["knowledge"]["imperial"]["corsair"]["state"] = LOCATED
    state["knowledge"]["imperial"]["courier"]["state"] = LOCATED
    state["ranges"]["courier|patrol"] = 3  # the nearer one
    name, args = decided(state)
    assert (name, args["ship"], args["target"]) == ("lock", "patrol", "courier")


def test_gunnery_actions_go_to_sensors_only_while_the_side_has_no_lock(state) -> None:
    state["ships"]["patrol"]["free_sensor_used"] = True
    state["ships"]["scout"]["free_sensor_used"] = True
    name, args = decided(state)
    assert (name, args["ship"], args["spend"]) == ("locate", "patrol", "B1-1")
    state["knowledge"]["imperial"]["courier"]["state"] = LOCKED
    name, args = decided(state)
    assert args["ship"] in ("corsair", "courier")  # Imperial holds a lock: its gunners keep their actions
    assert decided(state, commander(gunnery_on_sensors="never"))[1]["ship"] in ("corsair", "courier")


def test_the_doctrine_spends_what_the_rules_offer_a_ship_on_sensors(state) -> None:
    """megatraveller-sensors-fire.txt lines 10-12 (a free sensor action each round, gunnery actions for extra
    ones) and line 103 ("Criticals shut down a system"): what a ship may spend is the rules' one reckoning
    (``sensors.sensor_spends_now``, as the forms and the checklist offer it), and the doctrine reads it there.
    Its own copy offered Vigilance's free action with its sensors shut down and asked the rules about it, only
    to be refused: a ship the rules give nothing to spend is passed over, and nothing is asked of it."""
    state["ships"]["patrol"]["shut_down"] = ["sensors"]
    state["ships"]["scout"]["free_sensor_used"] = True
    cmd = commander()
    asked: list[tuple[str, str, str]] = []
    allowed = cmd.allowed

    def asking(st, tables, name, args):
        asked.append((name, args["ship"], args.get("spend", "")))
        return allowed(st, tables, name, args)

    cmd.allowed = asking
    name, args = decided(state, cmd)
    assert (name, args["ship"], args["spend"]) == ("locate", "scout", "B1")  # no lock: a gunnery action
    assert not any(ship == "patrol" for _name, ship, _spend in asked), asked
    state["ships"]["patrol"]["shut_down"] = []
    assert decided(state, cmd)[1]["ship"] == "patrol"


def test_every_bearing_battery_fires_at_the_locked_enemy_it_is_most_likely_to_hit(state) -> None:
    state["step"] = 2
    for target in ("corsair", "courier"):
        state["knowledge"]["imperial"][target]["state"] = LOCKED
    state["ranges"]["courier|patrol"] = 1
    state["ranges"]["corsair|patrol"] = 60  # Long range: a worse to-hit DM
    name, args = decided(state)
    assert (name, args["ship"], args["target"]) == ("fire", "patrol", "courier")
    bearing = [b["id"] for b in state["ships"]["patrol"]["batteries"] if b["bearing"]]
    assert set(args["batteries"]) <= set(bearing) and args["batteries"]
    assert decided(state, commander(fire="hold")) == ("next", {})  # and the corsairs have no lock to fire on


def test_the_round_ends_with_every_range_closed_once(state) -> None:
    """Even sides: Imperial (listed first) sets the pace, closing by one square each pair, once a round."""
    state["step"] = 3
    play = Playout(RULESET, state, seed=1)
    cmd = commander()
    while (choice := cmd.decide(play.state))[0] == "set_range":
        play.act(*choice)
    assert choice == ("next", {})
    assert set(play.state["ranges"].values()) == {7}


def test_outcome_a_side_with_no_ship_in_action_has_lost(state) -> None:
    assert outcome(state).over is False
    state["ships"]["corsair"]["batteries"] = []
    state["ships"]["courier"]["shut_down"] = ["weapons"]
    end = outcome(state)
    assert (end.over, end.winner, end.turn) == (True, "imperial", 1)
    assert end.survived == {"patrol": True, "scout": True, "corsair": False, "courier": False}


def test_a_forecast_counts_the_fights_in_rounds() -> None:
    """The text counts time in rounds ("1 free sensor action each round", shared/rules/megatraveller-sensors-fire.txt)
    and the console's header shows "Round 1": a forecast names its fights' lengths the same way."""
    from engine.forecast import forecast

    lines = forecast(SaveFile.load(DEMO).encounter, 2, 3, workers=1, turn_cap=4).lines()
    assert lines[0] == "2 simulated fights, seed 3, at most 4 rounds each"
    assert any(line.startswith("expected rounds: ") for line in lines)
    assert not any("turn" in line for line in lines)
