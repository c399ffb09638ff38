"""The classic-hg forecast doctrine (issue 13; ``rulesets/classic_hg/doctrine.py`` states it in words).

The doctrine is our decision, not the rules text's: what these tests pin is that each order is followed
from states the real rules made (the demo played by engine commands with typed dice), and that the
doctrine only chooses among actions the rules allow (``check_action`` accepts every choice).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.forecast import load_doctrine
from engine.saves import SaveFile
from engine.state import plain_copy
from rulesets.classic_hg import RULESET
from rulesets.classic_hg.doctrine import ORDER_FIELDS, Commander, can_hurt, outcome, side_loss
from rulesets.classic_hg.fire import new_attack

DEMO = Path(__file__).resolve().parents[3] / "saves" / "demo-classic-hg.toml"
STANDARD = {f.name: f.default for f in ORDER_FIELDS}


@pytest.fixture
def enc():
    return SaveFile.load(DEMO).encounter


def commander(**changes) -> Commander:
    return Commander(RULESET, {"imperial": {**STANDARD, **changes}, "corsairs": dict(STANDARD)})


def decided(state: dict, cmd: Commander | None = None):
    """The commander's choice, which the rules must accept as it stands."""
    choice = (cmd or commander()).decide(state)
    if choice is not None:
        RULESET.check_action(state, *choice)
    return choice


def at_step_3(enc) -> dict:
    """Turn 1, Imperial ATTACKER (4 + Tactics 3 against 3 + Tactics 2: won by 2, no surprise), offensive fire."""
    enc.act("roll_initiative")
    enc.type_roll("4")
    enc.type_roll("3")
    enc.act("next")
    enc.act("next")
    assert (enc.state["step"], enc.state["attacker"]) == (3, "imperial")
    return plain_copy(enc.state)


def test_the_shipped_standard_file_is_the_doctrine_the_module_states() -> None:
    names = sorted(RULESET.doctrines())
    assert names == ["aggressive", "cautious", "standard"]
    assert load_doctrine(RULESET, "standard") == ("standard", STANDARD)
    assert load_doctrine(RULESET, "aggressive")[1]["break_off_at_loss"] == 1.0
    assert load_doctrine(RULESET, "cautious")[1]["break_off_at_loss"] == 0.25


def test_initiative_then_next(enc) -> None:
    assert decided(enc.state) == ("roll_initiative", {})
    enc.act("roll_initiative")
    enc.type_roll("5")
    enc.type_roll("3")
    assert decided(enc.state) == ("next", {})


def test_every_bearing_turret_fires_at_the_enemy_it_is_most_likely_to_hurt(enc) -> None:
    state = at_step_3(enc)
    state["ships"]["red-lantern"]["armor_factor"] = 15  # stops every point of every turret
    name, args = decided(state)
    assert (name, args["ship"], args["target"]) == ("fire", "swift-dolan", "mary-oakes")
    assert args["turrets"] == ["T1", "T2", "T3"]  # the sandcaster makes no offensive fire
    state["ships"]["red-lantern"]["armor_factor"] = 0
    state["ships"]["mary-oakes"]["armor_factor"] = 15
    assert decided(state)[1]["target"] == "red-lantern"


def test_holding_fire_moves_on(enc) -> None:
    state = at_step_3(enc)
    assert decided(state, commander(fire="hold")) == ("next", {})


def test_interceptors_go_to_the_most_dangerous_incoming_attack(enc) -> None:
    state = at_step_3(enc)
    state["step"] = 4  # the corsairs' defensive fire against two beam-laser hits
    new_attack(state, "swift-dolan", "T3", "beam_laser", "red-lantern", 4)   # 3 through armor 1
    new_attack(state, "swift-dolan", "T3", "beam_laser", "mary-oakes", 6)    # 6 through armor 0
    name, args = decided(state)
    assert (name, args["attack"]) == ("defend", "A2")
    state["attacks"][0]["damage"] = 12  # now A1 puts 11 through
    assert decided(state)[1]["attack"] == "A1"


def test_attacks_the_armor_stops_anyway_are_not_intercepted(enc) -> None:
    state = at_step_3(enc)
    state["step"] = 4
    new_attack(state, "swift-dolan", "T3", "beam_laser", "red-lantern", 1)  # armor 1 stops it
    assert decided(state) == ("next", {})


def _turn_2_range(enc) -> dict:
    state = at_step_3(enc)
    state.update(turn=2, step=2, range_set=False)
    return state


def test_the_side_ahead_closes_the_range_and_the_side_behind_opens_it(enc) -> None:
    state = _turn_2_range(enc)
    state["range"] = "short"
    assert decided(state) == ("set_range", {"range": "short"})  # even: stay
    for t in state["ships"]["red-lantern"]["turrets"]:
        t["fire_control"] = False  # the corsairs are worse off: Imperial is ahead
    assert side_loss(state, "corsairs") > side_loss(state, "imperial")
    assert decided(state) == ("set_range", {"range": "close"})
    for t in state["ships"]["swift-dolan"]["turrets"] + state["ships"]["vigilant-reach"]["turrets"]:
        t["fire_control"] = False  # now Imperial is behind
    assert decided(state) == ("set_range", {"range": "long"})


def test_a_side_breaks_off_when_it_has_lost_half_its_tonnage(enc) -> None:
    state = at_step_3(enc)
    state["ships"]["vigilant-reach"].update(broken_off=True, out="disabled")  # 400 of 800 tons
    assert side_loss(state, "imperial") == 0.5
    assert decided(state) == ("break_off", {"ship": "swift-dolan"})  # maneuver 5 against 3 and 1, at long
    assert decided(state, commander(break_off_at_loss=1.0))[0] == "fire"


def test_a_ship_that_can_no_longer_hurt_is_withdrawn_as_disabled(enc) -> None:
    state = plain_copy(enc.state)
    ship = state["ships"]["mary-oakes"]
    tables = RULESET.tables_for(state)
    assert can_hurt(ship, tables)
    for t in ship["turrets"]:
        t["destroyed"] = t["count"]
    assert not can_hurt(ship, tables)
    assert decided(state) == ("withdraw", {"ship": "mary-oakes", "reason": "disabled"})
    assert decided(state, Commander(RULESET, {"imperial": STANDARD,
                                              "corsairs": {**STANDARD, "withdraw_unarmed": False}})) \
        == ("roll_initiative", {})


def test_outcome_the_side_left_in_the_fight_wins(enc) -> None:
    assert outcome(enc.state).over is False
    enc.act("withdraw", ship="red-lantern", reason="disabled")
    enc.act("withdraw", ship="mary-oakes", reason="fled")
    end = outcome(enc.state)
    assert (end.over, end.winner, end.turn) == (True, "imperial", 1)
    assert end.survived == {"swift-dolan": True, "vigilant-reach": True, "red-lantern": False, "mary-oakes": False}


def test_picks_kept_for_every_fight_are_the_picks_each_fight_would_make_alone(monkeypatch) -> None:
    """``Commander.pick`` keeps ``best_target`` for every fight on the same tables (``picks_for``): fights played
    with the kept picks make every choice that fights with a book of their own make, dice for dice."""
    from engine.forecast import Playout, fight_seed, scenario_of
    from rulesets.classic_hg import doctrine

    scenario, _ = scenario_of(SaveFile.load(DEMO).encounter)
    rs = scenario.prepare()

    def records() -> list[list]:
        out = []
        for i in range(12):
            play = Playout(rs, scenario.state, fight_seed(5, i), record=True)
            play.run(rs.commander(scenario.doctrines))
            out.append(play.record)
        return out

    kept = records()
    assert doctrine.picks_for(rs.tables_for(scenario.state))  # the fights above kept their picks
    monkeypatch.setattr(doctrine, "picks_for", lambda tables: {})  # every fight (and pick) on its own
    assert records() == kept


def test_a_commander_decides_as_a_fresh_one_would_before_each_side_fires() -> None:
    """What a commander keeps within a fight (the referee's ruling of step 1 held in step 3, ships with nothing
    left to do, losses between damage steps) changes none of its choices: in steps 1, 3 and 6 of demo fights a
    fresh commander, which works everything out again, makes the same choice."""
    from engine.forecast import Playout, fight_seed, scenario_of

    scenario, _ = scenario_of(SaveFile.load(DEMO).encounter)
    rs = scenario.prepare()
    asked = 0
    for i in range(8):
        play = Playout(rs, scenario.state, fight_seed(3, i))
        playing = rs.commander(scenario.doctrines)

        class Checked:
            offers_checked = playing.offers_checked

            @property
            def vouched(self):
                return playing.vouched

            def decide(self, state: dict):
                nonlocal asked
                choice = playing.decide(state)
                if state["step"] in (1, 3, 6):
                    asked += 1
                    assert rs.commander(scenario.doctrines).decide(plain_copy(state)) == choice
                return choice

        play.run(Checked())
    assert asked > 100
