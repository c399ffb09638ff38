"""The gothic forecast doctrine (issue 13; ``rulesets/gothic/doctrine.py`` states it in words).

The doctrine is our decision, not the rules text's: these tests pin that each order is followed from
the demo's state (the Kessel blockade), that every choice is one the rules accept (``check_action``),
that a simulated fight is real play (replayed through an ``Encounter``), and what the command line says.
Numbers taken from the rules text cite ``gothic-boarding-teleport.ru.txt`` (English beside it, ``.en.md``).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from engine.forecast import Playout, fight_seed, load_doctrine, scenario_of
from engine.saves import SaveFile
from engine.state import plain_copy
from rulesets.gothic import RULESET
from rulesets.gothic.doctrine import ORDER_FIELDS, Commander, outcome
from tests.playouts import CheckedPlayout, accepted_as_given, forecast_twice, replay_record
from tui.cli import main

DEMO = Path(__file__).resolve().parents[3] / "saves" / "demo-gothic.toml"
STANDARD = {f.name: f.default for f in ORDER_FIELDS}
TELEPORTING = {"reload": "unless_teleport"}  # reload empty tubes unless the ship may teleport-attack this turn


@pytest.fixture
def state() -> dict:
    return plain_copy(SaveFile.load(DEMO).encounter.state)


def commander(imperial: dict | None = None, rebels: dict | None = None) -> Commander:
    return Commander(RULESET, {"imperial": {**STANDARD, **(imperial or {})}, "rebels": {**STANDARD, **(rebels or {})}})


def decided(state: dict, cmd: Commander | None = None):
    """The commander's choice, which the rules must accept as it stands (and in the form their check gives)."""
    choice = (cmd or commander()).decide(state)
    if choice is not None:
        accepted_as_given(RULESET, state, *choice)
    return choice


def play_until(play: Playout, cmd: Commander, stop: str) -> tuple:
    """Act on every choice (and roll every die) until the commander chooses ``stop``; that choice."""
    while True:
        while play.state["pending"]:
            play.roll()
        choice = decided(play.state, cmd)
        if choice[0] == stop:
            return choice
        play.act(*choice)


# --- the doctrine files ----------------------------------------------------------------------------

def test_the_shipped_standard_file_is_the_doctrine_the_module_states() -> None:
    assert sorted(RULESET.doctrines()) == ["standard", "standoff"]
    assert RULESET.default_doctrine() == "standard"
    assert load_doctrine(RULESET, "standard") == ("standard", STANDARD)
    standoff = load_doctrine(RULESET, "standoff")[1]
    assert (standoff["stand_off_cm"], standoff["boarding"], standoff["torpedoes"]) == (30, "never", "weakest")


# --- movement phase ---------------------------------------------------------------------------------

def test_a_ship_with_empty_tubes_goes_on_the_order_that_reloads_them(state) -> None:
    state["ships"]["hammer"]["loaded"] = False
    state["defences"]["kessel"]["loaded"] = False  # defences take no special orders
    assert decided(state) == ("special_orders", {"vessel": "hammer", "order": "reload_ordnance"})  # shields up
    assert decided(state, commander({"reload": "never"}))[0] == "set_distance"


def test_a_ship_that_may_teleport_after_this_movement_keeps_its_tubes_empty_and_teleports(state) -> None:
    """Teleport reach: "no more than 10 cm away", at a target with its shields down, never by a ship on
    special orders (shared/rules/gothic-boarding-teleport.en.md, "Teleport attacks"). Iron Vow is 30 cm
    off, out of reach now; the Hammer closes 15 cm and Iron Vow 10 (to its 5 cm stand-off), so it will be
    in reach once both have moved."""
    state["ships"]["hammer"]["loaded"] = False
    state["ships"]["ironvow"]["shields_up"] = 0
    play = Playout(RULESET, state, seed=1)
    cmd = commander(TELEPORTING)
    assert decided(play.state, cmd)[0] == "set_distance"  # no reload order first
    assert play_until(play, cmd, "teleport") == ("teleport", {"vessel": "hammer", "target": "ironvow"})
    assert (play.state["phase"], play.state["turn"]) == (4, 1)
    assert play.state["ships"]["hammer"]["orders"] == "" and not play.state["ships"]["hammer"]["loaded"]
    assert decided(state, commander({"reload": "when_empty"}))[0] == "special_orders"


def test_a_ship_with_empty_tubes_and_no_enemy_it_may_teleport_onto_this_turn_reloads(state) -> None:
    """Teleport reach: "no more than 10 cm away", at a target with its shields down and no more hits than the
    ship, never by a crippled ship (shared/rules/gothic-boarding-teleport.en.md, "Teleport attacks")."""
    reload = ("special_orders", {"vessel": "hammer", "order": "reload_ordnance"})
    state["ships"]["hammer"]["loaded"] = False
    state["ships"]["ironvow"]["shields_up"] = 0
    state["distances"]["hammer|ironvow"] = 40  # each closes 15: 10 cm after this movement, in reach
    cmd = commander(TELEPORTING)
    assert decided(state, cmd)[0] == "set_distance"
    state["distances"]["hammer|ironvow"] = 41  # 11 cm after this movement: out of reach
    assert decided(state, cmd) == reload
    state["distances"]["hammer|ironvow"] = 30
    assert decided(state, commander(TELEPORTING, {"stand_off_cm": 30})) == reload  # Iron Vow holds at 15 cm
    assert decided(state, commander({**TELEPORTING, "teleport": "never"})) == reload  # its doctrine never would
    state["ships"]["ironvow"]["shields_up"] = 1
    assert decided(state, cmd) == reload
    state["ships"]["ironvow"]["shields_up"] = 0
    state["ships"]["hammer"]["hits"] = 7  # Iron Vow has 8
    assert decided(state, cmd) == reload
    state["ships"]["ironvow"]["hits"] = 4
    assert decided(state, cmd)[0] == "set_distance"
    state["ships"]["hammer"]["hits"] = 4  # crippled: half its 8 starting hits
    assert decided(state, cmd) == reload


def test_every_ship_closes_on_every_enemy_but_no_nearer_than_its_stand_off(state) -> None:
    """Imperial moves first, then the rebels, each ship 15 cm, to no nearer than 5 cm; defences hold."""
    play = Playout(RULESET, state, seed=1)
    cmd = commander()
    assert play_until(play, cmd, "next") == ("next", {})
    cm = play.state["distances"]
    assert cm["hammer|ironvow"] == 5      # 30: Hammer closes 15, Iron Vow the last 10 to its stand-off
    assert cm["idolator|sword1"] == 5     # 8: Sword Vigil closes 3 and Idolator Shade cannot close more
    assert cm["hammer|idolator"] == 15    # 45: 15 each
    assert cm["hammer|kessel"] == 30      # the platform does not move
    assert cm["sat1|sword2"] == 30
    assert decided(play.state, cmd) == ("next", {})  # moved once this turn: nothing more


def test_a_side_standing_off_neither_closes_nor_backs_away(state) -> None:
    play = Playout(RULESET, state, seed=1)
    far = {"stand_off_cm": 30}
    play_until(play, commander(far, far), "next")
    cm = play.state["distances"]
    assert (cm["hammer|ironvow"], cm["idolator|sword1"], cm["hammer|idolator"], cm["hammer|kessel"]) == (30, 8, 30, 30)


# --- shooting phase ---------------------------------------------------------------------------------

def test_every_loaded_vessel_launches_its_full_salvo_at_the_nearest_enemy(state) -> None:
    state["phase"] = 2
    play = Playout(RULESET, state, seed=1)
    cmd = commander()
    first = decided(play.state, cmd)
    assert first == ("launch", {"vessel": "hammer", "kinds": ["torpedoes"], "strength": 6, "target": "ironvow",
                                "distance": 30})  # Iron Vow, 30 cm, is a capital ship: ordinary torpedoes
    play.act(*first)
    second = decided(play.state, cmd)  # every enemy 45 cm from the platform: the escorts first
    assert second == ("launch", {"vessel": "kessel", "kinds": ["boarding"], "strength": 4, "target": "sword1",
                                 "distance": 45})
    play.act(*second)
    assert decided(play.state, cmd) == ("next", {})


def test_what_the_doctrine_says_of_targets_and_loads(state) -> None:
    state["phase"] = 2
    weakest = decided(state, commander({"torpedoes": "weakest"}))[1]
    assert (weakest["target"], weakest["kinds"]) == ("idolator", ["boarding"])  # an escort, 1 hit, at 45 cm
    assert decided(state, commander({"torpedoes": "weakest", "boarding": "never"}))[1]["kinds"] == ["torpedoes"]
    assert decided(state, commander({"boarding": "always"}))[1]["kinds"] == ["boarding"]
    assert decided(state, commander({"torpedoes": "hold"}))[1]["vessel"] == "kessel"


# --- ordnance phase ---------------------------------------------------------------------------------

def test_salvos_fly_their_whole_move_straight_at_the_target(state) -> None:
    """Boarding torpedoes move 30 cm an ordnance phase (rules text, "Boarding torpedoes"); ordinary ones
    the shipped ``ordnance`` table's ``torpedo_speed_cm``, 30 too (ours, not the book's). No turn."""
    state["phase"] = 2
    play = Playout(RULESET, state, seed=1)
    cmd = commander()
    play_until(play, cmd, "next")
    play.act("next", {})
    assert RULESET.tables_for(state).torpedo_speed_cm == 30
    assert decided(play.state, cmd) == ("move_salvo", {"salvo": "salvo-1", "turn": 0, "distance": 0})
    play.act(*decided(play.state, cmd))
    assert play.state["pending"]  # in base contact at 0 cm: Iron Vow's turrets fire first
    assert play_until(play, cmd, "move_salvo") == ("move_salvo", {"salvo": "salvo-2", "turn": 0, "distance": 15})


def test_a_salvo_flies_on_at_its_target_past_a_stand_the_rules_would_let_it_meet(state) -> None:
    """The doctrine never meets a stand (``meet_stand``; its docstring says why). Hammer, on the weakest order,
    sends its boarding torpedoes at Idolator Shade (an escort, 45 cm off). On their first move Iron Vow, 30 cm
    from Hammer, is within the 30 cm a boarding torpedo moves ("30 см за каждую стадию ordnance",
    gothic-boarding-teleport.ru.txt, first paragraph), so the rules would let the salvo meet it; the salvo flies
    its whole move straight at Idolator Shade instead. A side that wants Iron Vow says so at launch: nearest
    aims at it, 30 cm off, and that salvo's first move is its base contact, the attack a meeting would make."""
    state["phase"] = 2
    assert decided(state)[1]["target"] == "ironvow"
    play = Playout(RULESET, state, seed=1)
    weakest = commander({"torpedoes": "weakest"})
    launch = decided(play.state, weakest)
    assert launch == ("launch", {"vessel": "hammer", "kinds": ["boarding"], "strength": 6, "target": "idolator",
                                 "distance": 45})
    assert play_until(play, weakest, "move_salvo") == ("move_salvo", {"salvo": "salvo-1", "turn": 0, "distance": 15})
    meet = {"salvo": "salvo-1", "turn": 0, "stand": "ironvow"}
    assert not RULESET.catalogue.actions["meet_stand"].may(play.state, meet, RULESET.tables_for(play.state))


class MeetingWatched(CheckedPlayout):
    """A playout that counts the salvo moves the rules would have let end on another stand instead."""

    meetings_allowed = 0

    def act(self, name: str, args: dict) -> None:
        if name == "move_salvo":
            may = self.ruleset.catalogue.actions["meet_stand"].may
            tables = self.ruleset.tables_for(self.state)
            if any(not may(self.state, {"salvo": args["salvo"], "turn": 0, "stand": uid}, tables)
                   for uid in (*self.state["ships"], *self.state["defences"])):
                MeetingWatched.meetings_allowed += 1
        super().act(name, args)


def test_no_doctrine_meets_a_stand_in_a_whole_fight() -> None:
    """Whole fights from the demo, each shipped doctrine on each side: the rules let many a salvo move end on
    another stand, and no decision is ever ``meet_stand``."""
    scenario, _ = scenario_of(SaveFile.load(DEMO).encounter)
    rs = scenario.prepare()
    chosen: set[str] = set()
    MeetingWatched.meetings_allowed = 0
    for imperial, rebels in (("standoff", "standard"), ("standard", "standoff")):
        doctrines = {"imperial": load_doctrine(rs, imperial)[1], "rebels": load_doctrine(rs, rebels)[1]}
        for index in range(3):
            play = MeetingWatched(rs, scenario.state, fight_seed(21, index), chosen=chosen)
            play.run(rs.commander(doctrines))
    assert MeetingWatched.meetings_allowed > 0
    assert "move_salvo" in chosen and "meet_stand" not in chosen


# --- end phase --------------------------------------------------------------------------------------

def test_a_teleport_attack_whenever_the_rules_allow_it_escorts_first(state) -> None:
    """Teleport reach: "no more than 10 cm away", at a target with its shields down, never by a ship on
    special orders (shared/rules/gothic-boarding-teleport.en.md, "Teleport attacks")."""
    state["phase"] = 4
    state["ships"]["ironvow"]["shields_up"] = 0
    state["distances"]["hammer|ironvow"] = 10
    assert decided(state) == ("teleport", {"vessel": "hammer", "target": "ironvow"})
    state["ships"]["idolator"]["shields_up"] = 0
    state["distances"]["hammer|idolator"] = 9
    assert decided(state) == ("teleport", {"vessel": "hammer", "target": "idolator"})
    assert decided(state, commander({"teleport": "never"})) == ("next", {})
    state["ships"]["hammer"]["orders"] = "reload_ordnance"
    assert decided(state) == ("next", {})
    state["ships"]["hammer"]["orders"] = ""
    state["distances"]["hammer|ironvow"] = state["distances"]["hammer|idolator"] = 11
    assert decided(state) == ("next", {})


def test_a_critical_is_repaired_turrets_first(state) -> None:
    state["phase"] = 4
    state["ships"]["hammer"]["criticals"] = [
        {"roll": 3, "name": "Starboard batteries silenced", "effect": "weapons", "repairable": True},
        {"roll": 9, "name": "Turret crews slain", "effect": "turrets", "repairable": True},
    ]
    assert decided(state) == ("repair", {"vessel": "hammer", "critical": "1"})
    assert decided(state, commander({"repair": False})) == ("next", {})
    state["ships"]["hammer"]["repair_tried"] = True  # one try each end phase (the shipped repair table)
    assert decided(state) == ("next", {})


# --- when a fight is over ---------------------------------------------------------------------------

def test_the_side_left_afloat_wins(state) -> None:
    start = outcome(state)
    assert (start.over, start.winner, start.turn) == (False, "", 1)
    assert set(start.survived) == {"hammer", "sword1", "sword2", "ironvow", "idolator", "kessel", "sat1"}
    for key in ("ships", "defences"):
        for v in state[key].values():
            v["destroyed"] = v["destroyed"] or v["side"] == "rebels"
    end = outcome(state)
    assert (end.over, end.winner) == (True, "imperial")
    assert end.survived["hammer"] and not end.survived["kessel"]
    assert decided(state) is None


def test_nothing_left_that_can_hurt_an_enemy_ends_the_fight_with_no_winner(state) -> None:
    state["ships"]["hammer"]["torpedoes"] = 0
    state["defences"]["kessel"]["torpedoes"] = 0
    end = outcome(state)  # every shield up and no tubes: no salvo, no teleport can ever be made
    assert (end.over, end.winner) == (True, "")
    assert decided(state) is None
    state["ships"]["ironvow"]["shields_up"] = 0  # the Hammer (8 hits) may close and teleport onto it (8)
    assert outcome(state).over is False
    state["ships"]["hammer"]["hits"] = 4  # crippled: "a crippled ship may not make teleport attacks"
    assert outcome(state).over is True
    state["ordnance"]["salvo-1"] = {"side": "imperial", "name": "Torpedoes 2 from Hammer of Thrace",
                                    "kind": "torpedoes", "owner": "hammer", "strength": 2, "target": "ironvow",
                                    "distance": 20, "moved": False, "turned": 0, "launched_turn": 1}
    assert outcome(state).over is False


# --- a simulated fight is real play --------------------------------------------------------------

def test_a_recorded_playout_replays_through_a_real_encounter_to_the_same_state() -> None:
    """Each decision checked by the full argument check (the same arguments the commander gave), then the
    record fed to a real Encounter (act, then the same faces typed): the same state at the end."""
    enc = SaveFile.load(DEMO).encounter
    scenario, names = scenario_of(enc)
    assert names == {"imperial": "standard", "rebels": "standard"}
    rs = scenario.prepare()
    chosen: set[str] = set()
    for index in range(3):
        play = CheckedPlayout(rs, scenario.state, fight_seed(13, index), record=True, chosen=chosen)
        finished, turns = play.run(rs.commander(scenario.doctrines))
        assert finished and turns < 30
        real = replay_record(SaveFile.load(DEMO).encounter, play.record)
        assert real.state == play.state
    assert {"special_orders", "set_distance", "launch", "move_salvo", "next"} <= chosen
    assert enc.state == SaveFile.load(DEMO).encounter.state


# --- the command line ------------------------------------------------------------------------------

@pytest.fixture
def demo(tmp_path: Path) -> Path:
    path = tmp_path / "demo-gothic.toml"
    shutil.copyfile(DEMO, path)
    return path


def test_the_forecast_of_the_demo_twice_is_the_same_and_most_fights_finish(demo: Path, capsys) -> None:
    out = forecast_twice(main, demo, capsys)
    assert "200 simulated fights, seed 5, at most 30 turns each" in out
    assert "Imperial Navy: wins" in out and "(doctrine standard)" in out
    assert "Hammer of Thrace (Imperial Navy): survives" in out
    unfinished = int(re.search(r"\((\d+) unfinished", out).group(1))
    assert unfinished < 100
    turns = float(re.search(r"expected turns: ([\d.]+)", out).group(1))
    assert turns < 20


@pytest.mark.parametrize("orders, field", [("stand_off_cm = -3", "stand_off_cm"),
                                            ('boarding = "sometimes"', "boarding"),
                                            ("charge = true", "charge")])
def test_a_bad_doctrine_file_is_one_line_naming_file_and_field(demo: Path, tmp_path: Path, capsys,
                                                               orders: str, field: str) -> None:
    own = tmp_path / "mine.toml"
    own.write_text(f'[doctrine]\nruleset = "gothic"\nname = "mine"\n[orders]\n{orders}\n')
    assert main(["forecast", str(demo), "--fights", "2", "--doctrine", f"rebels={own}"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("flagbridge forecast: ")
    assert "mine.toml" in err and field in err
