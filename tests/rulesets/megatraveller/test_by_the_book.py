"""Issue 10, megatraveller: small fights, every die typed, each number from ``megatraveller-sensors-fire.txt``.

Each test names the lines of the rules text it checks. Two ships on two sides
("a" for the Imperial attacker, "d" for the Corsair defender), built for the
one rule; a lock, a range or a shut-down system is set by a game master's
correction where the test is not about how it came to be.
"""

from __future__ import annotations

from fractions import Fraction

import dataclasses
from datetime import datetime, timezone
from pathlib import Path

import pytest

from engine.encounter import Encounter
from engine.errors import BadTable, IllegalAction
from engine.ruleset import RuleContext
from engine.setup import Setup
from rulesets.megatraveller import RULESET, damage, fire, sensors
from rulesets.megatraveller.ships import check_ship
from rulesets.megatraveller.tables import load_tables
from tests.rulesets.megatraveller.engagement import answer, mods

TABLES = load_tables()
SCAN = {"pass_obj_scan": {"far": "routine"}, "pass_obj_pin": {"far": "difficult"}, "act_obj_pin": {"far": "routine"}}
ATTACKER = {"name": "Gunship", "tonnage": 1000, "computer_model": 3, "agility": 2, "signature": "large",
            "sensors": SCAN, "tactics_pool": 2, "fuel": 200}
DEFENDER = {"name": "Target", "tonnage": 400, "computer_model": 2, "signature": "medium", "fuel": 100,
            "jump": 2, "power_plant": 3, "crew": 9}


def duel(attacker: dict, defender: dict, squares: int = 5, **options) -> Encounter:
    setup = Setup(
        ruleset="megatraveller", name="By the book",
        sides=[{"id": "imp", "name": "Imperial", "tactics_pool": 2}, {"id": "cor", "name": "Corsairs"}],
        units={"ships": {"a": {"side": "imp", **ATTACKER, **attacker}, "d": {"side": "cor", **DEFENDER, **defender}}},
        options={"range": squares, **options}, seed=3, created=datetime(2026, 12, 2, 19, 0, tzinfo=timezone.utc))
    return Encounter(setup, RULESET)


def in_fire_step(enc: Encounter) -> Encounter:
    """Imperial holds a lock on the Target, and the round is at step 2, Fire."""
    enc.correct("knowledge.imp.d.state", "locked", note="test: as after a lock")
    enc.act("next")
    return enc


def ship(enc: Encounter, sid: str) -> dict:
    return enc.state["ships"][sid]


def shut(enc: Encounter, sid: str, *systems: str) -> None:
    enc.correct(f"ships.{sid}.shut_down", list(systems), note="test: as after criticals")


def battery(weapon: str, factor: int, **more) -> dict:
    return {"weapon": weapon, "factor": factor, **more}


# --- locate and lock --------------------------------------------------------------------------

def test_a_natural_2_that_makes_the_roll_is_no_fumble() -> None:
    """Line 16: "Fumble (failed by >2, or failed with nat 2)"; line 14: "Roll 2d6+Your Computer - (squares
    range)"; line 20: "Made by 4+: any target located". Computer 9 at 0 squares: 2 + 9 = 11 against Routine
    7+ is made by 4, which finds even a stealthy target."""
    enc = duel({"computer_model": 9}, {"signature": "stealthy"}, squares=0)
    enc.act("locate", ship="a", target="d", mode="passive", spend="free")
    assert mods(enc) == {"Computer": 9}
    answer(enc, "Locate: Gunship PassObjScan (routine) on Target", "2", target="7+")
    assert enc.state["knowledge"]["imp"]["d"]["state"] == "located"


def test_a_natural_2_that_fails_is_a_fumble_even_by_one() -> None:
    """Line 16: "failed with nat 2" is a fumble, even where "Fail by 1: Strong and/or Large target located"
    (line 17) would find a large target."""
    enc = duel({"computer_model": 4}, {"signature": "large"}, squares=0)
    enc.act("locate", ship="a", target="d", mode="passive", spend="free")
    answer(enc, "Locate", "2")  # 2 + 4 = 6 against 7+: failed by 1, with a natural 2
    assert enc.state["knowledge"]["imp"]["d"]["state"] == "detected"


def test_active_sensors_locate_with_actobjscan() -> None:
    """Line 15: "If using passives, use your Pass Obj Scan. If using acitves, use ActObjScan"."""
    enc = duel({"sensors": {**SCAN, "act_obj_scan": {"far": "difficult"}}}, {})
    enc.act("locate", ship="a", target="d", mode="active", spend="free")
    assert enc.pending.purpose == "Locate: Gunship ActObjScan (difficult) on Target"
    assert str(enc.pending.target) == "11+"
    answer(enc, "Locate: Gunship ActObjScan", "12")  # 12 + 3 - 5 = 10: fail by 1, the medium Target stays
    assert enc.state["knowledge"]["imp"]["d"]["state"] == "detected"


def test_the_locate_prompt_gives_the_chance_of_finding_the_target_by_its_signature() -> None:
    """Lines 16-20: a locate roll finds a large target on a fail by 1 and a stealthy one only made by 4+, so the
    roll's own chance of success is not the chance of finding it. Found by a drive: "vs 11+ (8.3%)" was shown for
    a large target, which 10+ finds: 6 in 36, 16.7%. Computer 5, 5 squares, ActObjScan difficult 11+: 11+ on the
    dice makes it (8.3%), and no roll makes it by 2, so a small or a stealthy target is never found."""
    for signature, words in (("large", "fails by 1 or better: 16.7%"), ("medium", "is made: 8.3%"),
                             ("small", "is made by 2 or more: 0.0%"), ("stealthy", "is made by 4 or more: 0.0%")):
        enc = duel({"computer_model": 5, "sensors": {**SCAN, "act_obj_scan": {"far": "difficult"}}},
                   {"signature": signature})
        enc.act("locate", ship="a", target="d", mode="active", spend="free")
        assert mods(enc) == {"Computer": 5, "Range (squares)": -5}
        assert str(enc.pending.target) == "11+" and enc.pending.chance() == Fraction(1, 12)
        assert enc.ruleset.roll_help(enc.state, enc.pending) == [
            f"Finds Target ({signature} signature) if the roll {words}"]


def test_detection_needs_sensors_of_near_range_or_better() -> None:
    """Line 9: "Anything within 100 spaces is pretty much detected just by looking with sensors of near range
    (=planetary) or better": a ship whose sensors reach only Visual detects nothing at 5 squares."""
    short = duel({"sensors": {"pass_obj_scan": {"visual": "routine"}}}, {})
    assert short.state["knowledge"]["imp"]["d"]["state"] == "undetected"
    near = duel({"sensors": {"pass_obj_scan": {"near": "routine"}}}, {})
    assert near.state["knowledge"]["imp"]["d"]["state"] == "detected"


def test_what_a_side_holds_of_a_ship_gone_beyond_100_squares_stays_but_nothing_reaches_it() -> None:
    """Line 9: "Anything within 100 spaces is pretty much detected just by looking" says what is detected, not
    what is lost: no line of the text takes a state away (line 2 names the states, lines 13 and 21 the actions
    that raise them), so a located or locked target that moves past 100 squares stays so (our reading). Nothing
    reaches it there: locate and lock roll "2d6+Your Computer - (squares range)" for a difficulty "that you still
    have sensors for" (lines 14, 22), and fire needs a range band (lines 44-52); Extreme ends at 100 (line 8).
    Back within reach, the lock serves again."""
    enc = in_fire_step(duel({"batteries": [battery("beam_laser", 4)]}, {}))
    enc.correct("knowledge.imp.d.state", "located", note="test: as after a locate")
    enc.act("set_range", ship="a", target="d", squares=150)
    assert enc.events[-1].notes == ["Range Gunship - Target: 150 squares (beyond Extreme)"]
    assert enc.state["knowledge"]["imp"]["d"]["state"] == "located"
    enc.correct("step", 1, note="test: back to the sensor step")
    with pytest.raises(IllegalAction, match="has no PassObjPin sensor reaching Target beyond Extreme range"):
        enc.act("lock", ship="a", target="d", mode="passive", spend="free")
    enc.correct("knowledge.imp.d.state", "locked", note="test: as after a lock")
    enc.correct("step", 2, note="test: the fire step")
    with pytest.raises(IllegalAction, match="Target is beyond Extreme range"):
        enc.act("fire", ship="a", target="d", batteries=["B1"])
    enc.act("set_range", ship="a", target="d", squares=8)
    assert enc.state["knowledge"]["imp"]["d"]["state"] == "locked"
    assert fire.may_fire(enc.state, {"ship": "a", "target": "d", "batteries": ["B1"]}, TABLES) == ""


def test_the_free_sensor_action_comes_back_each_round() -> None:
    """Line 10: "A ship gets 1 free sensor action each round"."""
    enc = duel({"batteries": [battery("beam_laser", 4)]}, {})
    enc.act("locate", ship="a", target="d", mode="passive", spend="free")
    answer(enc, "Locate", "3")
    assert ship(enc, "a")["free_sensor_used"]
    with pytest.raises(IllegalAction, match="used its free sensor action"):
        enc.act("locate", ship="a", target="d", mode="passive", spend="free")
    for _ in range(3):
        enc.act("next")
    assert (enc.state["round"], enc.state["step"]) == (2, 1) and not ship(enc, "a")["free_sensor_used"]
    form = {"ship": "a", "target": "d", "mode": "passive"}
    assert RULESET.param_choices(enc.state, "locate", "spend", form)[0].value == "free"


def test_a_side_rolls_again_to_learn_the_type_code() -> None:
    """Lines 24-27: "Yours succeeding gives you a lock, no matter what. If one of the two succeeds, you get power
    and tonnage, but NOT type nor other data. If both succeed, you get type code." A side with a lock but no
    type code may roll the lock again; a failed roll keeps the lock it has."""
    enc = duel({"batteries": [battery("beam_laser", 4, count=4)]}, {})
    enc.correct("knowledge.imp.d.state", "located", note="test: as after a locate")
    enc.act("lock", ship="a", target="d", mode="active", spend="free")
    answer(enc, "Lock (player's roll): Gunship ActObjPin (routine) on Target", "9", target="7+")  # 9 + 3 - 5 = 7
    answer(enc, "Lock (referee's roll)", "8")  # 6: fails
    assert enc.state["knowledge"]["imp"]["d"] == {"state": "locked", "revealed": "power and tonnage"}
    assert "Target: power and tonnage revealed" in enc.events[-1].notes
    enc.act("lock", ship="a", target="d", mode="active", spend="B1-1")
    answer(enc, "Lock (player's roll)", "9")
    answer(enc, "Lock (referee's roll)", "8")  # the same again: a drive read "revealed" twice for nothing new
    assert "Target: power and tonnage known already, nothing new revealed" in enc.events[-1].notes
    enc.act("lock", ship="a", target="d", mode="active", spend="B1-2")
    answer(enc, "Lock (player's roll)", "5")
    answer(enc, "Lock (referee's roll)", "5")
    assert enc.state["knowledge"]["imp"]["d"] == {"state": "locked", "revealed": "power and tonnage"}
    enc.act("lock", ship="a", target="d", mode="active", spend="B1-3")
    answer(enc, "Lock (player's roll)", "10")
    answer(enc, "Lock (referee's roll)", "9")
    assert enc.state["knowledge"]["imp"]["d"] == {"state": "locked", "revealed": "type code"}
    with pytest.raises(IllegalAction, match="type code"):
        enc.act("lock", ship="a", target="d", mode="active", spend="B1-4")


# --- fire: batteries, to hit, penetration -------------------------------------------------------

def test_no_more_batteries_than_bear() -> None:
    """Line 36: "You cannot fire more than you have batteries bearing (which is on the ship data)"."""
    enc = in_fire_step(duel({"batteries": [battery("beam_laser", 4, count=3, bearing=2)]}, {}))
    offered = RULESET.param_choices(enc.state, "fire", "batteries", {"ship": "a", "target": "d"})
    assert [c.value for c in offered] == ["B1-1", "B1-2"]
    with pytest.raises(IllegalAction, match="B1-3 is not bearing"):
        enc.act("fire", ship="a", target="d", batteries=["B1-1", "B1-2", "B1-3"])
    assert ship(enc, "a")["batteries"][0]["used"] == ""  # refused: nothing spent


def test_batteries_resolve_one_at_a_time_meson_and_drive_hits() -> None:
    """Line 37: "Resolve one battery at a time" (to hit, penetrate, system hits, criticals, "repeat for next
    battery"); line 56: the meson to-hit number (our reading: the gun's factor when the ship data print none);
    line 67: meson guns "penentrate the Meson Screen and ... the ships configuration" (configuration 5 when the
    ship file gives none); line 73: meson guns roll on two tables (radiation and interior); line 98: "A drive
    hit reduce that drive's rating" (interior 4: jump-1; interior 5: power-1)."""
    enc = in_fire_step(duel({"batteries": [battery("meson_gun", 3, count=2)]}, {}))
    enc.act("fire", ship="a", target="d", batteries=["B1-1", "B1-2"])
    assert mods(enc) == {"Computer": 3, "Range (far)": -2, "Meson to-hit number (factor 3)": 3}
    answer(enc, "To hit: Gunship B1-1 meson gun-3 at Target", "7", target="11+")  # 7 + 3 - 2 + 3 = 11
    assert mods(enc) == {"Computer": 3, "Table (3 vs configuration-5)": -2, "Target computer": -2}
    answer(enc, "Penetrate configuration-5: Gunship B1-1", "12")  # 12 + 3 - 2 - 2 = 11
    assert mods(enc) == {"non-spinal weapon (factor 9 or less)": -6}
    answer(enc, "Damage (radiation 1/1): B1-1 on Target", "12")  # 6: weapon-1 (no batteries)
    answer(enc, "Damage (interior 1/1): B1-1 on Target", "10")  # 4: jump-1
    assert ship(enc, "d")["jump"] == 1
    # factor 3 - distribution 3 (400 tons): no critical; only now the second battery rolls
    answer(enc, "To hit: Gunship B1-2 meson gun-3 at Target", "8")
    answer(enc, "Penetrate configuration-5: Gunship B1-2", "12")
    answer(enc, "Damage (radiation 1/1): B1-2", "9")  # 3: crew-1
    answer(enc, "Damage (interior 1/1): B1-2", "11")  # 5: power-1
    target = ship(enc, "d")
    assert (target["power_plant"], target["crew_hits"], enc.pending) == (2, 1, None)


def test_the_meson_to_hit_number_printed_on_the_ship_data_stands() -> None:
    """Line 56: "To Hit roll is modified by the to-hit number": a ship file that prints one uses it."""
    enc = in_fire_step(duel({"batteries": [battery("meson_gun", 3, to_hit_number=1)]}, {"configuration": 2}))
    enc.act("fire", ship="a", target="d", batteries=["B1"])
    assert mods(enc) == {"Computer": 3, "Range (far)": -2, "Meson to-hit number": 1}
    answer(enc, "To hit", "9")
    assert enc.pending.purpose.startswith("Penetrate configuration-2")


def test_antimatter_missiles_pass_sand_and_repulsors_and_roll_two_tables() -> None:
    """Line 65: "Missiles (nuclear or conventional) have to pass the sand and the repulsors" (an antimatter
    missile is a missile); line 73: antimatter missiles roll on two tables (surface and radiation, our
    shipped table); line 97: fuel hits lose at least 10 tons."""
    enc = in_fire_step(duel({"batteries": [battery("antimatter_missile", 3)]}, {"sand": 2, "repulsor": 1}))
    enc.act("fire", ship="a", target="d", batteries=["B1"])
    assert mods(enc) == {"Computer": 3, "Range (far)": 1}
    answer(enc, "To hit: Gunship B1 antimatter missile-3", "8")
    assert mods(enc) == {"Computer": 3, "Table (3 vs sand-2)": 1, "Target computer": -2}
    answer(enc, "Penetrate sand-2", "9")
    assert mods(enc) == {"Computer": 3, "Table (3 vs repulsor-1)": 2, "Target computer": -2}
    answer(enc, "Penetrate repulsor-1", "8")
    answer(enc, "Damage (surface 1/1)", "9")  # 3: fuel-1, at least 10 tons
    answer(enc, "Damage (radiation 1/1)", "11")  # 5: crew-1
    assert (ship(enc, "d")["fuel"], ship(enc, "d")["crew_hits"], enc.pending) == (90, 1, None)


def test_particle_accelerators_and_fusion_guns_against_sand() -> None:
    """Line 63: "Beams have to penetrate sand. Beams means Lasers, PA's, Plasmas, and Fusion. Rather than
    separate tables for Plasma and fusion, they get +2 to penetrate above the table"; line 73: PAs roll on
    two tables."""
    enc = in_fire_step(duel({"batteries": [battery("particle_accelerator", 5), battery("fusion_gun", 5)]},
                            {"sand": 2}, squares=2))
    enc.act("fire", ship="a", target="d", batteries=["B1"])
    answer(enc, "To hit: Gunship B1 particle accelerator-5", "8")
    assert mods(enc) == {"Computer": 3, "Table (5 vs sand-2)": 3, "Target computer": -2}
    answer(enc, "Penetrate sand-2", "7")
    answer(enc, "Damage (surface 1/1): B1", "2")
    answer(enc, "Damage (radiation 1/1): B1", "2")
    answer(enc, "Critical 1/2", "6")  # factor 5 - 3: two criticals
    answer(enc, "Critical 2/2", "8")
    enc.act("fire", ship="a", target="d", batteries=["B2"])
    answer(enc, "To hit: Gunship B2 fusion gun-5", "8")
    assert mods(enc) == {"Computer": 3, "Table (5 vs sand-2)": 3, "Fusion gun vs sand": 2, "Target computer": -2}


def test_a_head_gunner_stands_in_for_the_computer_not_for_a_spinals_agility() -> None:
    """Line 58: "If a battery's head gunner is statted out, you may use his/her weapon skill in place of the
    computer number"; line 57: a spinal mount uses "agility instead of computer", so its gunner leaves the
    agility alone and stands in for the computer of the penetration roll (line 62, "+You Computer")."""
    enc = in_fire_step(duel({"batteries": [battery("beam_laser", 4, gunner_skill=5),
                                           battery("particle_accelerator", 11, spinal=True, gunner_skill=6)]},
                            {"sand": 2, "tonnage": 100000}))
    enc.act("fire", ship="a", target="d", batteries=["B1", "B2"])
    assert mods(enc) == {"Gunner skill": 5, "Range (far)": -1}
    answer(enc, "To hit: Gunship B1 beam laser-4", "9")
    assert mods(enc) == {"Gunner skill": 5, "Table (4 vs sand-2)": 2, "Target computer": -2}
    answer(enc, "Penetrate sand-2", "2")  # stopped
    assert mods(enc) == {"Agility": 2}
    answer(enc, "To hit: Gunship B2 spinal particle accelerator-B", "5", target="7+")
    assert mods(enc) == {"Gunner skill": 6, "Table (B vs sand-2)": 6, "Target computer": -2}


def test_tactics_points_raise_the_one_shot_to_hit_and_penetration() -> None:
    """Line 45: "spend tactics points from the ship's pool or the fleet pool to increase your computer for one
    shot": the first battery named, its to-hit roll and its penetration rolls (line 62, "+You Computer")."""
    enc = in_fire_step(duel({"batteries": [battery("beam_laser", 4, count=2)]}, {"sand": 2}))
    enc.act("fire", ship="a", target="d", batteries=["B1-1", "B1-2"], tactics=2, pool="ship")
    assert mods(enc) == {"Computer": 3, "Range (far)": -1, "Tactics (ship pool)": 2}
    answer(enc, "To hit: Gunship B1-1", "7")
    assert mods(enc) == {"Computer": 3, "Tactics (ship pool)": 2, "Table (4 vs sand-2)": 2, "Target computer": -2}
    answer(enc, "Penetrate sand-2: Gunship B1-1", "3")  # 3 + 3 + 2 + 2 - 2 = 8: stopped
    assert mods(enc) == {"Computer": 3, "Range (far)": -1}
    answer(enc, "To hit: Gunship B1-2", "9")
    assert mods(enc) == {"Computer": 3, "Table (4 vs sand-2)": 2, "Target computer": -2}


def test_tactics_pools_do_not_refill() -> None:
    """Line 31: "those tactics pools? you can spend them BEFORE ROLLING"; the text says nothing of pools
    coming back, so a point spent stays spent in later rounds (our reading, in ``tactics``)."""
    enc = duel({}, {})
    enc.act("locate", ship="a", target="d", mode="passive", spend="free", tactics=1, pool="ship")
    answer(enc, "Locate", "3")
    for _ in range(3):
        enc.act("next")
    assert enc.state["round"] == 2 and ship(enc, "a")["tactics"] == 1 and enc.state["fleet_tactics"]["imp"] == 2


# --- the fire form's aim, and the numbers each roll needs ------------------------------------------------

def test_the_pinpoint_aim_is_checked() -> None:
    """Line 55: "Visual Range Pinpoint Shots: If at Visual range ...": an aim away from Visual, or one naming
    no system of the tables, is refused by the rule itself."""
    enc = in_fire_step(duel({"batteries": [battery("beam_laser", 4, count=2)]}, {}))
    form = {"ship": "a", "target": "d", "batteries": ["B1-1"]}
    assert "needs Visual range" in fire.may_fire(enc.state, {**form, "aim": "fuel"}, TABLES)
    with pytest.raises(IllegalAction, match="needs Visual range"):
        enc.act("fire", aim="fuel", **form)
    enc.act("set_range", ship="a", target="d", squares=1)
    assert "not a system" in fire.may_fire(enc.state, {**form, "aim": "bogus"}, TABLES)
    with pytest.raises(IllegalAction):
        enc.act("fire", aim="bogus", **form)
    assert fire.may_fire(enc.state, {**form, "aim": "critical:bridge"}, TABLES) == ""


def test_a_pinpoint_critical_needs_a_critical_due() -> None:
    """Line 55: "If you roll 4 more than needed, you may pick a critical hit" picks among the criticals due
    (line 100: UCP factor minus the distribution number); with none due (factor 4 against 100,000 tons)
    there is nothing to pick, and nothing is added."""
    enc = in_fire_step(duel({"batteries": [battery("beam_laser", 4)]}, {"tonnage": 100000}, squares=1))
    # the form says so before the roll (a drive chose it, and read only afterwards that none was due)
    aim = next(p for p in enc.ruleset.catalogue.get("fire").params if p.name == "aim")
    labels = {c.value: c.label for c in enc.ruleset.param_choices(
        enc.state, "fire", aim, {"ship": "a", "target": "d", "batteries": ["B1"]})}
    assert labels["critical:bridge"] == ("critical: bridge (made by 4, but no critical is due: factor 4 against "
                                         "Target's distribution 8)"), labels["critical:bridge"]
    enc.act("fire", ship="a", target="d", batteries=["B1"], aim="critical:bridge")
    answer(enc, "To hit", "11")  # 11 + 3 = 14: made by 3, not 4: the aim is ignored
    answer(enc, "Damage (surface 1/1)", "2")
    for _ in range(3):
        enc.act("next")
    enc.act("fire", ship="a", target="d", batteries=["B1"], aim="critical:bridge")
    answer(enc, "To hit", "12")  # 15: made by 4
    # the log does not offer a critical there is none of
    assert enc.events[-1].notes[0] == "Hit (made by 4): the firer may pick the system (no critical is due)"
    answer(enc, "Damage (surface 1/1)", "2")
    assert enc.pending is None and ship(enc, "d")["shut_down"] == []


def test_made_by_4_the_firer_picks_both_the_system_type_and_the_critical() -> None:
    """Line 55: "If at Visual range, and you roll at least 2 more than needed, you get to pick which system type
    is hit. If you roll 4 more than needed, you may pick a critical hit." A roll made by 4 is made by at least 2,
    so both picks are the firer's: the fuel hit in place of the damage roll, and the one critical due (line 100:
    UCP factor 4 - distribution 3 for 400 tons) shutting down the bridge, in place of its roll. Found in review:
    the fire form took one aim, so naming the critical cost the system pick."""
    enc = in_fire_step(duel({"batteries": [battery("beam_laser", 4)]}, {}, squares=1))
    crit = next(p for p in enc.ruleset.catalogue.get("fire").params if p.name == "aim_critical")
    form = {"ship": "a", "target": "d", "batteries": ["B1"], "aim": "fuel"}
    labels = {c.value: c.label for c in enc.ruleset.param_choices(enc.state, "fire", crit, form)}
    assert labels[""] == "no critical picked"
    assert labels["critical:bridge"] == "critical: bridge (made by 4, among the criticals due)"
    assert enc.ruleset.param_choices(enc.state, "fire", crit, {**form, "aim": "critical:power"}) == []
    enc.act("fire", aim_critical="critical:bridge", **form)
    answer(enc, "To hit", "12", target="11+")  # 12 + 3 = 15: made by 4
    assert enc.pending is None  # neither the damage roll nor the critical roll is asked: both were picked
    target = ship(enc, "d")
    assert (target["fuel"], target["shut_down"], target["armor"]) == (100 - 10, ["bridge"], 0)


def test_a_critical_picked_beside_a_system_needs_the_roll_made_by_4() -> None:
    """Line 55: made by 2 or 3, only the system type is the firer's; the critical due is rolled ("All Crit rolls
    are a flat 2d6", line 102), and the log says the picked critical was not taken."""
    enc = in_fire_step(duel({"batteries": [battery("beam_laser", 4)]}, {}, squares=1))
    enc.act("fire", ship="a", target="d", batteries=["B1"], aim="fuel", aim_critical="critical:bridge")
    answer(enc, "To hit", "10")  # 13: made by 2
    answer(enc, "Critical 1/1: Target", "7")
    assert ship(enc, "d")["fuel"] == 90 and ship(enc, "d")["shut_down"] == [TABLES.criticals[7]]
    assert any("Aim critical: bridge: ignored, a pick needs the to-hit roll made by 4 or more, and this one was "
               "made by less" in line for e in enc.events for line in e.notes)
    assert any(line == "Hit (made by 2): the firer may pick the system" for e in enc.events for line in e.notes)


def test_made_by_4_the_log_offers_both_picks() -> None:
    """Line 55: made by 4 is also made by 2, so the log says the firer picks the system and the critical (a drive
    read "may pick the critical" alone, though the system aim was applied too)."""
    enc = in_fire_step(duel({"batteries": [battery("beam_laser", 4)]}, {}, squares=1))
    enc.act("fire", ship="a", target="d", batteries=["B1"], aim="fuel", aim_critical="critical:bridge")
    answer(enc, "To hit", "12")  # 15: made by 4
    assert any(line == "Hit (made by 4): the firer may pick the system and the critical"
               for e in enc.events for line in e.notes)


def test_made_by_4_with_no_aim_named_the_log_offers_no_pick() -> None:
    """Line 55's pick is named before the roll (README: pinpoint aims); a drive fired with "no pinpoint aim",
    made the roll by 4 and read "the firer may pick the system and the critical", then saw the damage rolled as
    usual. The log now says the margin was there but nothing was named, and the damage is rolled."""
    enc = in_fire_step(duel({"batteries": [battery("beam_laser", 4)]}, {}, squares=1))
    enc.act("fire", ship="a", target="d", batteries=["B1"])
    answer(enc, "To hit", "12")  # 15: made by 4
    assert enc.events[-1].notes[0] == ("Hit (made by 4): enough for a pinpoint pick, but no aim was named before "
                                       "the roll, so the damage is rolled")
    assert enc.pending is not None and enc.pending.purpose.startswith("Damage (surface 1/1)")

def test_the_second_pinpoint_pick_goes_with_a_system_aim() -> None:
    """Line 55 gives one critical pick: a critical named twice, or named beside no system, is refused."""
    enc = in_fire_step(duel({"batteries": [battery("beam_laser", 4)]}, {}, squares=1))
    form = {"ship": "a", "target": "d", "batteries": ["B1"]}
    assert "with a system" in fire.may_fire(enc.state, {**form, "aim": "critical:power",
                                                        "aim_critical": "critical:bridge"}, TABLES)
    assert "with a system" in fire.may_fire(enc.state, {**form, "aim_critical": "critical:bridge"}, TABLES)
    assert "not a critical" in fire.may_fire(enc.state, {**form, "aim": "fuel", "aim_critical": "fuel"}, TABLES)


def test_a_house_table_sets_the_fire_numbers(tmp_path: Path) -> None:
    """Lines 44, 57, 62: to hit "11+", a spinal's "Routine (7+), not difficult", penetration "Difficult (11+)"
    are levels of the difficulties table, so a house table can change them."""
    assert (TABLES.fire, TABLES.difficulties["difficult"], TABLES.difficulties["routine"]) == (
        {"to_hit": "difficult", "spinal_to_hit": "routine", "penetration": "difficult"}, 11, 7)
    house = tmp_path / "difficulties.toml"
    house.write_text('[table]\nruleset = "megatraveller"\nname = "difficulties"\n\n'
                     '[levels]\nroutine = 7\naverage = 9\ndifficult = 11\n\n[fire]\nto_hit = "average"\n')
    enc = in_fire_step(duel({"batteries": [battery("beam_laser", 4)]}, {"sand": 2},
                            tables={"difficulties": str(house)}))
    enc.act("fire", ship="a", target="d", batteries=["B1"])
    answer(enc, "To hit", "8", target="9+")
    assert str(enc.pending.target) == "11+"  # penetration: the default, Difficult
    bad = tmp_path / "bad.toml"
    bad.write_text('[table]\nruleset = "megatraveller"\nname = "difficulties"\n\n'
                   '[levels]\nroutine = 7\n\n[fire]\nto_hit = "heroic"\n')
    with pytest.raises(BadTable, match="fire.to_hit: expected a level of"):
        load_tables({"difficulties": str(bad)})
    only_routine = tmp_path / "only_routine.toml"
    only_routine.write_text('[table]\nruleset = "megatraveller"\nname = "difficulties"\n\n'
                            '[levels]\nroutine = 7\n\n[fire]\nto_hit = "routine"\n')
    with pytest.raises(BadTable, match="fire.penetration: expected a level of"):  # its default must exist too
        load_tables({"difficulties": str(only_routine)})


# --- spinal mounts ----------------------------------------------------------------------------------

def test_spinal_mounts_are_particle_accelerators_and_meson_guns() -> None:
    """Line 57: "Spinal Mounts (Rules only include PA and Meson)"."""
    with pytest.raises(BadTable, match="a beam laser cannot be a spinal mount"):
        check_ship({"batteries": [battery("beam_laser", 12, spinal=True)], "sensors": {}}, TABLES, "ship")
    for weapon in ("particle_accelerator", "meson_gun"):
        check_ship({"batteries": [battery(weapon, 12, spinal=True)], "sensors": {}}, TABLES, "ship")
    weapons = {**TABLES.weapons, "beam_laser": {**TABLES.weapons["beam_laser"], "spinal_mount": True}}
    house = dataclasses.replace(TABLES, weapons=weapons)  # a house weapons table may allow more
    check_ship({"batteries": [battery("beam_laser", 12, spinal=True)], "sensors": {}}, house, "ship")


# --- damage --------------------------------------------------------------------------------------

def test_tractors_roll_no_damage_table() -> None:
    """Line 66: "Tractors have to pass the repulsors"; line 72: "Weapon Type determines which tables are used":
    tractors use none, so no damage, no critical and no armor lost (a factor 3 against 100 tons would
    otherwise be "2 crits", line 101)."""
    enc = in_fire_step(duel({"batteries": [battery("tractor", 3)]}, {"tonnage": 100, "repulsor": 1, "armor": 20},
                            squares=2))
    enc.act("fire", ship="a", target="d", batteries=["B1"])
    answer(enc, "To hit: Gunship B1 tractor beam-3", "9")
    answer(enc, "Penetrate repulsor-1", "9")
    target = ship(enc, "d")
    assert (enc.pending, target["armor"], target["shut_down"]) == (None, 20, [])


def test_sensor_hits_remove_sensors() -> None:
    """Line 14: "for the best difficulty listed that you still have sensors for": a sensor hit takes a sensor
    away, the farthest-reaching first (our reading, in ``damage``)."""
    enc = duel({}, {"sensors": {"pass_obj_scan": {"far": "routine", "extreme": "difficult"},
                                "act_obj_pin": {"extreme": "routine"}}})
    state = enc.state
    d = state["ships"]["d"]
    damage.apply_result(state, "d", {"system": "sensors", "amount": 1}, TABLES, RuleContext(0), "surface")
    assert d["sensors"]["act_obj_pin"] == {} and d["sensor_hits"] == 1
    assert sensors.best_difficulty(d, "pass_obj_scan", "extreme", TABLES) == "difficult"
    damage.apply_result(state, "d", {"system": "sensors", "amount": 1}, TABLES, RuleContext(0), "surface")
    assert sensors.best_difficulty(d, "pass_obj_scan", "extreme", TABLES) == ""
    assert sensors.best_difficulty(d, "pass_obj_scan", "far", TABLES) == "routine"
    damage.apply_result(state, "d", {"system": "sensors", "amount": 2}, TABLES, RuleContext(0), "surface")
    assert not any(d["sensors"].values()) and not sensors.reaches_near(d)


# --- criticals shut down a system -----------------------------------------------------------------

def test_screens_shut_down_give_no_penetration_roll_and_no_globe() -> None:
    """Line 103: "Criticals shut down a system"; line 61: "For each defense screen that applies"; line 93:
    "+6 AV per factor of flicker". With the screens shut down, the sand gives no roll and the globe no AV."""
    target = {"sand": 2, "armor": 40, "globe": "black", "globe_flicker": 1}
    enc = in_fire_step(duel({"batteries": [battery("beam_laser", 4, count=2)]}, target))
    enc.act("fire", ship="a", target="d", batteries=["B1-1"])
    answer(enc, "To hit", "9")
    answer(enc, "Penetrate sand-2", "9")
    assert mods(enc) == {"non-spinal weapon (factor 9 or less)": -6, "AV 46 (black globe)": -2}
    answer(enc, "Damage (surface 1/1)", "2")
    answer(enc, "Critical 1/1", "12")  # factor 4 - 3: one critical, one armor factor (AV 39)
    shut(enc, "d", "screens")
    enc.act("fire", ship="a", target="d", batteries=["B1-2"])
    answer(enc, "To hit", "9")
    assert mods(enc) == {"non-spinal weapon (factor 9 or less)": -6}  # AV 39, no globe: no DM; no sand roll before it
    assert enc.pending.purpose.startswith("Damage (surface 1/1)")


def test_a_defence_shut_down_says_why_it_gives_no_penetration_roll() -> None:
    """Line 61: "For each defense screen that applies"; line 103: "Criticals shut down a system". The roll a
    shut-down screen would have asked is not asked, and the log says why where the roll would have stood, so the
    referee does not take the missing sand roll for a slip (the power plant's critical takes the screens too)."""
    for system, why in (("screens", "Target's screens are shut down by a critical hit"),
                        ("power", "Target's power plant is shut down by a critical hit: no power for its screens")):
        enc = in_fire_step(duel({"batteries": [battery("beam_laser", 4, count=2)]}, {"sand": 2, "damper": 1}))
        shut(enc, "d", system)
        enc.act("fire", ship="a", target="d", batteries=["B1-1"])
        answer(enc, "To hit", "9")
        assert enc.pending.purpose.startswith("Damage (surface 1/1)")
        assert f"No penetration roll against sand-2: {why}" in enc.events[-1].notes, enc.events[-1].notes
        assert not any("damper" in n for n in enc.events[-1].notes)  # a beam passes no damper: nothing to say


def test_computers_shut_down_add_nothing_on_either_side() -> None:
    """Line 44: "11+ on 2d6 + Your Computer"; line 62: "+You Computer ... – Their computer model". A
    shut-down computer counts 0: the firer's, and the target's against the attacker."""
    enc = in_fire_step(duel({"batteries": [battery("beam_laser", 4, count=2)]}, {"sand": 2}))
    shut(enc, "a", "computer")
    enc.act("fire", ship="a", target="d", batteries=["B1-1"])
    assert mods(enc) == {"Computer": 0, "Range (far)": -1}
    answer(enc, "To hit", "12")
    assert mods(enc) == {"Computer": 0, "Table (4 vs sand-2)": 2, "Target computer": -2}
    answer(enc, "Penetrate sand-2", "2")
    shut(enc, "a")
    shut(enc, "d", "computer")
    enc.act("fire", ship="a", target="d", batteries=["B1-2"])
    answer(enc, "To hit", "12")
    assert mods(enc) == {"Computer": 3, "Table (4 vs sand-2)": 2}


def test_sensors_shut_down_detect_locate_and_lock_nothing() -> None:
    """Line 103 with lines 9, 13 and 21: a ship whose sensors are shut down detects nothing, locates nothing
    and locks nothing."""
    enc = duel({}, {}, squares=101)
    shut(enc, "a", "sensors")
    enc.act("set_range", ship="a", target="d", squares=5)
    assert enc.state["knowledge"]["imp"]["d"]["state"] == "undetected"
    enc.correct("knowledge.imp.d.state", "detected", note="test: as seen by another ship")
    for action in ("locate", "lock"):
        with pytest.raises(IllegalAction, match="Gunship's sensors are shut down"):
            enc.act(action, ship="a", target="d", mode="passive", spend="free")


def test_power_maneuver_and_bridge_shut_down() -> None:
    """Line 103: each system the critical table names has its effect (our readings, in ``systems``): no power,
    no weapons (nor sensors, computer, screens, agility); no maneuver drive, agility 0 for a spinal's aim
    (line 57); no bridge, no tactics points and no Sensor Ops officer (lines 30-31)."""
    enc = in_fire_step(duel({"batteries": [battery("particle_accelerator", 11, spinal=True)], "sensor_ops": 5},
                            {"tonnage": 100000}))
    shut(enc, "a", "power")
    with pytest.raises(IllegalAction, match="power plant is shut down .* no power for its weapons"):
        enc.act("fire", ship="a", target="d", batteries=["B1"])
    shut(enc, "a", "maneuver")
    enc.act("fire", ship="a", target="d", batteries=["B1"])
    assert mods(enc) == {"Agility": 0}
    answer(enc, "To hit", "2")
    enc.act("next")
    enc.act("next")
    shut(enc, "a", "bridge")
    enc.correct("knowledge.imp.d.state", "detected", note="test: to locate again")
    with pytest.raises(IllegalAction, match="bridge is shut down"):
        enc.act("locate", ship="a", target="d", mode="passive", spend="free", tactics=1, pool="ship")
    enc.act("locate", ship="a", target="d", mode="passive", spend="free")
    assert mods(enc) == {"Computer": 3, "Range (squares)": -5}  # Sensor Ops 5 sits on the bridge


def test_a_hold_or_crew_hit_s_log_line_counts_the_hits_in_words() -> None:
    """Found by a game master's drive: a first hold hit logged "(1 hold hits)". The count stays the sum of the
    table's amounts (the damage table's "hold 1", "crew 2"), read as one hit or several."""
    enc = duel({}, {})
    state, ctx = enc.state, RuleContext(0)
    damage.apply_result(state, "d", {"system": "hold", "amount": 1}, TABLES, ctx, "surface")
    damage.apply_result(state, "d", {"system": "crew", "amount": 1}, TABLES, ctx, "interior")
    damage.apply_result(state, "d", {"system": "crew", "amount": 2}, TABLES, ctx, "interior")
    assert [note.split(" ", 1)[1] for note in ctx.notes] == \
        ["hold-1 (1 hold hit)", "crew-1 (1 crew hit)", "crew-2 (3 crew hits)"]
