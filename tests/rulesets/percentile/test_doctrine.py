"""The percentile forecast doctrine (issue 13; ``rulesets/percentile/doctrine.py`` states it in words).

The doctrine is our decision, not the rules text's: these tests pin that each order is followed from the
demo's state (played on by engine commands with typed dice), that every choice is one the rules accept
(``check_action`` gives back exactly the arguments the commander gave), and that a simulated fight is real
play (its record, fed to an ``Encounter``, ends in the same state). Numbers from the rules text cite
``percentile-personal-combat.txt`` and its section; the weapons, races and Table 3-1/3-3 numbers are the
shipped default tables (``rulesets/percentile/tables/``). TEXT below is ``percentile-personal-combat.txt``.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from engine.forecast import Playout, fight_seed, load_doctrine, scenario_of
from engine.saves import SaveFile
from engine.state import plain_copy
from rulesets.percentile import RULESET
from rulesets.percentile.doctrine import ORDER_FIELDS, Commander, harm, outcome
from tests.playouts import CheckedPlayout, accepted_as_given, forecast_twice, replay_record
from tui.cli import main

from .fights import answer

DEMO = Path(__file__).resolve().parents[3] / "saves" / "demo-percentile.toml"
STANDARD = {f.name: f.default for f in ORDER_FIELDS}
SIDES = ("crew", "raiders", "salvagers")


@pytest.fixture
def enc():
    return SaveFile.load(DEMO).encounter


def commander(crew: dict | None = None, raiders: dict | None = None, salvagers: dict | None = None) -> Commander:
    changes = {"crew": crew or {}, "raiders": raiders or {}, "salvagers": salvagers or {}}
    return Commander(RULESET, {side: {**STANDARD, **changes[side]} for side in SIDES})


def decided(state: dict, cmd: Commander | None = None):
    """The commander's choice, which the rules must accept as it stands, in the form they check it to."""
    choice = (cmd or commander()).decide(state)
    if choice is not None:
        accepted_as_given(RULESET, state, *choice)
    return choice


def surprised(enc) -> dict:
    """Round 1: the marines take surprise. Procedure 2 (TEXT, "Procedures for Surprise"): the side's average
    Perception averaged with its Alertness Percentage: marines (62 + 55 + 52) / 3 = 56, with 60: 58;
    boarders 58 with 40: 49. The marines roll 10 (48 under), the boarders 90 (41 over)."""
    enc.act("surprise")
    answer(enc, "Surprise: Swift Dolan's marines rolls under 58", "10")
    answer(enc, "Surprise: Aracnian boarders rolls under 49", "90")
    assert (enc.state["step"], enc.state["sole"]) == ("action", "crew")
    return plain_copy(enc.state)


def settle(play: Playout) -> None:
    while play.state["pending"]:
        play.roll()


# --- the shipped files ------------------------------------------------------------------------------

def test_the_shipped_standard_file_is_the_doctrine_the_module_states() -> None:
    assert sorted(RULESET.doctrines()) == ["close_quarters", "standard"]
    assert RULESET.default_doctrine() == "standard"
    assert load_doctrine(RULESET, "standard") == ("standard", STANDARD)
    name, close = load_doctrine(RULESET, "close_quarters")
    assert name == "close_quarters"
    assert (close["range_m"], close["target"], close["grenades"], close["borrow"]) == (2, "most_dangerous", 0, True)


# --- each order, from the demo -----------------------------------------------------------------------

def test_surprise_then_primary_are_rolled_when_the_step_asks(enc) -> None:
    assert decided(enc.state) == ("surprise", {})
    state = surprised(enc)
    state["step"] = "primary"
    assert decided(state) == ("primary", {})


def test_each_person_attacks_with_the_weapon_likely_to_do_most_harm_that_the_points_allow(enc) -> None:
    """Sub-turn 1 of 5: a human has a fifth of its 55 Agility Points (TEXT, "Any move at all?" and "Need to
    slow it down?"): 11, one short of the grenade's 12 (shipped weapons table), which Marr may begin and finish
    on 1 point of sub-turn 2 (``turn.why_cannot_pay``). In the last sub-turn nothing runs on: with 11 left she
    fires her auto pistol (10)."""
    state = surprised(enc)
    tables = RULESET.tables_for(state)
    marr = state["people"]["marr"]
    # the grenade would do more: 64% under Brawl 65 times 25 points (WEP MOD 10, short) against 59% under
    # MARKSmanship (70 + 55) / 2 = 63 (TEXT, "Percent to Hit"), 60 on Table 3-1, times 18 points
    assert harm(tables, 2, marr, "frag_grenade", 8) == pytest.approx(0.64 * 25)
    assert harm(tables, 2, marr, "auto_pistol", 8) == pytest.approx(0.59 * 18)
    cmd = commander()
    last = plain_copy(state)
    play = Playout(RULESET, state, seed=3)
    choice = decided(play.state, cmd)
    assert choice[0] == "attack" and {k: choice[1][k] for k in ("person", "weapon", "range")} == {
        "person": "marr", "weapon": "frag_grenade", "range": 8}
    assert choice[1]["with_target"] == []
    play.act(*choice)
    settle(play)
    assert play.state["step"] == "action"  # these dice (seed 3) leave Skarr standing
    assert cmd.attack_by(play.state, "marr") is None  # nothing of sub-turn 1 left to begin another
    play.state["subturn"] = 2
    assert cmd.attack_by(play.state, "marr")[1]["weapon"] == "auto_pistol"  # one grenade each; 10 of 22 - 12
    last["subturn"] = 5
    last["people"]["marr"]["ap_spent"] = 44  # 11 left, and no sub-turn after this one
    name, args = decided(last, commander())
    assert (name, args["person"], args["weapon"]) == ("attack", "marr", "auto_pistol")


def test_the_target_is_the_enemy_nearest_to_death_aimed_at_its_weakest_vital_part(enc) -> None:
    state = surprised(enc)
    name, args = decided(state)
    assert (args["target"], args["aim"]) == ("skarr", "head")  # even: the first listed; head 10 against chest 40
    state["people"]["tchik"]["body"]["chest"]["taken"] = 35  # 5 points from no function in the chest
    assert (decided(state)[1]["target"], decided(state)[1]["aim"]) == ("tchik", "chest")


def test_most_dangerous_goes_for_the_enemy_whose_best_weapon_does_most_harm(enc) -> None:
    """Skarr's cutlass, (72 + 50) / 2 = 61 BRAWLmanship, 60 on Table 3-1, for 15 points + 7 of Physical Strength,
    outdoes Tchik's best (58: 55 on Table 3-1; 20 points with the laser rifle, 15 + 7 with the cutlass)."""
    state = surprised(enc)
    state["people"]["tchik"]["body"]["chest"]["taken"] = 35
    assert decided(state, commander(crew={"target": "most_dangerous"}))[1]["target"] == "skarr"


def test_hand_to_hand_only_within_its_three_metres(enc) -> None:
    """Hand to hand "cannot be used at over three meters" (TEXT, "Hand to Hand"): at 8 m Keller's fist is no
    use and, in the last sub-turn, his laser rifle needs 12 of his 11 points; at 2 m he punches."""
    state = surprised(enc)
    state["subturn"] = 5
    state["people"]["keller"]["ap_spent"] = 44
    assert commander().attack_by(state, "keller") is None
    name, args = commander(crew={"range_m": 2}).attack_by(state, "keller")
    assert (name, args["weapon"], args["range"]) == ("attack", "fist", 2)


def test_nothing_left_to_do_ends_the_side_s_turn(enc) -> None:
    state = surprised(enc)
    for p in state["people"].values():
        p["ap_spent"] = 11
    assert decided(state) == ("next", {})


def round_two(enc) -> dict:
    """Round 2, once the marines' surprise turn passed without a shot: primary attack (procedure 1) rolled,
    the marines 10 and the boarders 20, so the marines go first and, not 30 ahead, not alone (TEXT,
    "Primary Attack")."""
    surprised(enc)
    for _ in range(5):
        enc.act("next")
    assert (enc.state["round"], enc.state["step"]) == (2, "primary")
    enc.act("primary")
    answer(enc, "Primary attack: Swift Dolan's marines", "10")
    answer(enc, "Primary attack: Aracnian boarders", "20")
    assert (enc.state["round_order"], enc.state["sole"]) == (["crew", "raiders"], "")
    return plain_copy(enc.state)


def test_a_side_waiting_to_join_comes_in_from_its_round(enc) -> None:
    state = round_two(enc)
    assert decided(state) == ("join", {"side": "salvagers"})
    assert decided(state, commander(salvagers={"join_in_round": 0}))[0] == "attack"
    assert decided(state, commander(salvagers={"join_in_round": 3}))[0] == "attack"


def test_passing_primary_attack_when_the_doctrine_says_so(enc) -> None:
    """A side with Primary Attack may "pass" and take its action last (TEXT, "Primary Attack")."""
    state = round_two(enc)
    passing = commander(crew={"pass_primary": True}, salvagers={"join_in_round": 0})
    assert decided(state, passing) == ("pass_primary", {})
    assert decided(state, commander(salvagers={"join_in_round": 0}))[0] == "attack"


def test_an_attacked_side_s_alertness_rises_by_its_doctrine_as_far_as_the_rules_allow(enc) -> None:
    """"When attacked a players' alertness condition will always jump to a higher level in the next turn"
    (TEXT, "Surprise, Surprise!"); by how much is the game master's, so the doctrine's."""
    state = plain_copy(enc.state)
    state.update(step="primary", alert_owed=["raiders"])
    assert decided(state) == ("alertness_rise", {"who": "raiders", "by": 10})
    assert decided(state, commander(raiders={"alertness_rise": 25})) == ("alertness_rise", {"who": "raiders", "by": 25})
    state["alertness"]["raiders"] = 95
    assert decided(state) == ("alertness_rise", {"who": "raiders", "by": 5})


def test_borrowing_in_the_last_sub_turn_for_one_more_attack(enc) -> None:
    """Borrowed points come "at 3:1" (TEXT, "Want to speed it up?"): 4 points short of the pistol's 10 costs 12."""
    state = surprised(enc)
    cmd = commander(crew={"borrow": True})
    state["subturn"] = 5  # the last: nothing runs on past it
    state["people"]["marr"]["ap_spent"] = 44
    assert decided(state, cmd)[1]["weapon"] == "auto_pistol"  # 11 left: the grenade's 12 is out of reach
    state["people"]["marr"]["ap_spent"] = 49  # 6 of her 55 left
    play = Playout(RULESET, state, seed=1)
    assert decided(play.state, commander())[1]["person"] == "keller"  # the standard doctrine borrows nothing
    assert decided(play.state, cmd) == ("borrow", {"person": "marr", "points": 12})
    play.act("borrow", {"person": "marr", "points": 12})
    name, args = decided(play.state, cmd)
    assert (name, args["person"], args["weapon"]) == ("attack", "marr", "auto_pistol")


# --- who won -------------------------------------------------------------------------------------------

def test_outcome_the_side_left_standing_wins(enc) -> None:
    end = outcome(enc.state)
    assert (end.over, end.winner, end.turn) == (False, "", 1)
    assert end.survived == {pid: True for pid in ("marr", "keller", "okafor", "skarr", "tchik", "oolu")}
    state = surprised(enc)
    play = Playout(RULESET, state, seed=1)
    for pid in ("skarr", "tchik"):
        play.state["people"][pid]["body"]["head"]["taken"] = 9  # a point from no function in the head
    while play.state["step"] != "over":
        play.act(*commander().decide(play.state))
        settle(play)
    end = outcome(play.state)
    people = play.state["people"]
    standing = {p["side"] for p in people.values() if not p["dead"] and p["side"] in play.state["joined"]}
    assert end.over and standing == {end.winner}  # one side in the fight stands, and it is the winner
    assert end.survived == {pid: not p["dead"] for pid, p in people.items()}


# --- the rules' own play ----------------------------------------------------------------------------------

VARIANTS = [
    {},
    {"action": 1, "subturns": 1},
    {"to_hit": 3, "damage": 1, "surprise": 3},
    {"surprise": 0, "primary": 3, "damage": 3},
]


@pytest.mark.parametrize("options", VARIANTS, ids=["demo", "action-1", "to-hit-3", "primary-3"])
def test_every_choice_is_accepted_by_check_action_as_given(enc, options) -> None:
    scenario, _ = scenario_of(enc)
    rs = scenario.prepare()
    state = plain_copy(scenario.state)
    state["options"].update(options)
    if not state["options"]["surprise"]:
        state["step"] = "primary"
    seen: set[str] = set()
    for index in range(6):
        for doctrine in ("standard", "close_quarters"):
            orders = {side: load_doctrine(rs, doctrine)[1] for side in SIDES}
            finished, turns = CheckedPlayout(rs, state, fight_seed(9, index), chosen=seen).run(rs.commander(orders))
            assert finished and turns < 30
    assert {"attack", "next"} <= seen


def test_a_recorded_fight_replays_through_a_real_encounter(enc) -> None:
    scenario, _ = scenario_of(enc)
    rs = scenario.prepare()
    for index, doctrine in ((0, "standard"), (1, "standard"), (2, "close_quarters"), (3, "close_quarters")):
        orders = {side: load_doctrine(rs, doctrine)[1] for side in SIDES}
        play = Playout(rs, scenario.state, fight_seed(17, index), record=True)
        play.run(rs.commander(orders))
        real = replay_record(SaveFile.load(DEMO).encounter, play.record)
        assert real.state == play.state
        assert any(e[0] == "action" and e[1] == "attack" for e in play.record)
    assert enc.state == SaveFile.load(DEMO).encounter.state  # the open encounter is untouched


# --- the command line -------------------------------------------------------------------------------------

def test_the_demo_forecast_twice_gives_the_same_answer_and_most_fights_finish(tmp_path: Path, capsys) -> None:
    demo = tmp_path / "demo.toml"
    shutil.copyfile(DEMO, demo)
    out = forecast_twice(main, demo, capsys)
    assert "200 simulated fights, seed 5, at most 30 rounds each" in out  # the text fights in rounds
    unfinished = int(re.search(r"\((\d+) unfinished", out).group(1))
    turns = float(re.search(r"expected rounds: ([\d.]+)", out).group(1))
    assert unfinished < 100 and turns < 10
    assert "(doctrine standard)" in out and "Sgt. Ilsa Marr (Swift Dolan's marines): survives" in out


def test_a_bad_doctrine_file_is_one_line_naming_the_file_and_the_field(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "reckless.toml"
    for orders, field in (("range_m = -4", "range_m must be at least 0"),
                          ('target = "nearest"', "target must be one of most_hurt, most_dangerous"),
                          ("rnage_m = 4", "rnage_m")):
        bad.write_text(f'[doctrine]\nruleset = "percentile"\nname = "reckless"\n[orders]\n{orders}\n')
        assert main(["forecast", str(DEMO), "--fights", "2", "--doctrine", f"raiders={bad}"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("flagbridge forecast: ")
        assert str(bad) in err and "orders" in err and field in err
