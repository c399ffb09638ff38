"""Issue 10, classic-hg: the rules the ruleset read wrongly or left out, each against the text.

Every test quotes ``classic-hg-combat.txt`` (the paragraph is named in the
docstring) and fights the duel of ``duel.py`` with every die typed: the Imperial
escort Vigilant (600 tons, armor 4, two single missile racks T4 and T5) against
the corsair Jackal (400 tons, unarmored, a turret of two missile racks T1, a
pulse laser turret T2, a sandcaster T3, one torpedo tube).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.rulesets.classic_hg.duel import attack, ship
from tests.rulesets.scripted import mods, refused

from engine.encounter import Encounter
from engine.errors import BadTable
from engine.ruleset import RuleContext
from rulesets.classic_hg import RULESET, damage, fire
from rulesets.classic_hg.tables import load_tables, shipped_path
from tests.rulesets.classic_hg.duel import (
    duel, initiative,
    ESCORT, RAIDER, TABLES, answer, roll_for_effect, roll_for_general, to_hit, to_intercept,
)














# --- missile racks: each missile its own attack ---------------------------------------------

def test_a_turret_of_racks_launches_one_missile_per_rack_each_its_own_attack() -> None:
    """"If the weapon is a beam weapon or infinite repeater, multiply the damage by the number of weapons
    in the turret or battery" (damage paragraph): missiles are not multiplied, so each missile is an
    attack of its own. The Jackal's two racks (12 missiles in) spend 2, roll twice, and each hit is an
    attack of one missile's 6 points, intercepted one by one (issue 10: "12 missiles in, 10 left, one
    attack of 6" was the misreading)."""
    enc = duel()
    initiative(enc, "1", "5")  # 3 against 5: the Corsairs attack, no surprise
    enc.act("fire", ship="jackal", turrets=["T1"], target="vigilant", warhead="he")
    assert ship(enc, "jackal")["missiles"] == 12 - 2
    answer(enc, "To hit: Jackal T1 HE missile x1 (1 of 2) at Vigilant", "9", target=f"{to_hit('missile_he', 'long')}+")
    answer(enc, "To hit: Jackal T1 HE missile x1 (2 of 2) at Vigilant", "8")
    assert [(a["id"], a["weapon"], a["damage"]) for a in enc.state["attacks"]] == [
        ("A1", "missile_he", 6), ("A2", "missile_he", 6)]
    enc.act("next")
    enc.act("defend", ship="vigilant", turret="T4", attack="A1")
    answer(enc, "Intercept A1: Vigilant T4 Antimissile missile", "12")
    assert [attack(enc, a)["status"] for a in ("A1", "A2")] == ["intercepted", "hit"]


def test_three_racks_need_three_missiles() -> None:
    """Each rack launches its own missile: a turret of three racks with two missiles left cannot fire."""
    escort = {"turrets": [{"weapon": "missile_rack", "count": 3, "gunner_skill": 2}], "missiles": 2}
    enc = duel(escort=escort)
    initiative(enc, "4", "4")
    refused(enc, "has 2 missiles left, needs 3", "fire", ship="vigilant", turrets=["T1"], target="jackal",
            warhead="he")


def test_am_missiles_each_intercept_on_their_own_roll() -> None:
    """"AM Missiles may be fired from standard missile racks"; like the missiles they stop, each AM
    missile is its own interception (ruleset's reading, issue 10): a turret of two racks spends two AM
    missiles and rolls twice against the chosen attack; the first success stops it."""
    escort = {"turrets": [{"weapon": "missile_rack", "count": 2, "gunner_skill": 0}]}
    enc = duel(escort=escort)
    initiative(enc, "1", "5")
    enc.act("launch_torpedo", ship="jackal", target="vigilant", warhead="he")
    answer(enc, "To hit: Jackal tube 1 HE torpedo", "12")
    enc.act("next")
    enc.act("defend", ship="vigilant", turret="T1", attack="A1")
    assert ship(enc, "vigilant")["am_missiles"] == 6 - 2
    target = f"{to_intercept('am_missile', 'torpedo_he')}+"
    answer(enc, "Intercept A1: Vigilant T1 Antimissile missile (1 of 2)", "2", target=target)
    assert attack(enc, "A1")["status"] == "hit"
    answer(enc, "Intercept A1: Vigilant T1 Antimissile missile (2 of 2)", "12", target=target)
    assert attack(enc, "A1")["status"] == "intercepted"


# --- held damage when the fight ends -------------------------------------------------------------

def test_held_damage_is_recorded_when_the_defender_breaks_off_in_step_6() -> None:
    """NOTE: "In the event of simultaneous initiative ... The DEFENDER does not record his damage or its
    effects until STEP 8." Breaking Off: "the ship with the higher maneuver may break off action in lieu
    of his offensive fire (step 3 or 6)". The Jackal (maneuver 3 against 2) breaks off in step 6 and
    its side is empty: the fight is over, but the laser hit it took in step 3 is still recorded."""
    enc = duel(escort={"maneuver": 2})
    initiative(enc, "2", "4")  # 4 against 4: simultaneous
    assert enc.state["simultaneous"]
    enc.act("fire", ship="vigilant", turrets=["T1"], target="jackal")
    answer(enc, "To hit: Vigilant T1", "12")
    enc.act("next")
    enc.act("next")  # step 5 holds the damage
    enc.act("next")
    assert enc.state["step"] == 6 and attack(enc, "A1")["status"] == "hit"
    enc.act("break_off", ship="jackal")
    assert enc.state["over"] == "Corsairs broke off"
    assert [a.name for a in enc.legal_actions()] == ["resolve_damage"]
    assert "record the damage still due" in enc.checklist()[5].needs
    enc.act("resolve_damage")
    answer(enc, "General location: A1", roll_for_general("hold"))
    answer(enc, "Specific location: A1", roll_for_effect("hold", "cargo"))
    assert ship(enc, "jackal")["cargo"] == 60 - 6  # three beam lasers, 2 points each
    assert enc.legal_actions() == []


def test_the_attackers_ramming_damage_is_recorded_when_the_fight_ends() -> None:
    """Step 8: "The ATTACKER records any damage caused by the DEFENDER's incoming offensive fire" and
    his own ramming damage waits for it too. When the referee takes the Jackal out in step 6, the ram's
    damage on the Vigilant (cannot be intercepted) is recorded; the Jackal's pulse laser shot of step 6,
    still waiting for step 7's defensive fire, never arrives."""
    enc = duel(escort={"armor_factor": 0})
    initiative(enc, "4", "4")  # 6 against 4
    enc.correct("range", "close", note="test: the ships have closed")
    enc.act("ram", ship="vigilant", target="jackal")
    answer(enc, "Ram: Vigilant at Jackal", "12")
    enc.act("next")
    enc.act("next")
    enc.act("resolve_damage")  # step 5: the Jackal's share
    answer(enc, "General location: A1", roll_for_general("hold"))
    answer(enc, "Specific location: A1", roll_for_effect("hold", "cargo"))
    enc.act("next")
    enc.act("fire", ship="jackal", turrets=["T2"], target="vigilant")
    answer(enc, "To hit: Jackal T2", "12")
    enc.act("withdraw", ship="jackal", reason="surrendered")
    assert enc.state["over"]
    enc.act("resolve_damage")
    per100 = TABLES.ramming["hits_per_100_tons"]
    assert attack(enc, "A2")["through"] == 400 // 100 * per100
    answer(enc, "General location: A2", roll_for_general("hold"))
    answer(enc, "Specific location: A2", roll_for_effect("hold", "cargo"))
    assert ship(enc, "vigilant")["cargo"] == 10 - 8
    assert attack(enc, "A3")["status"] == "hit"  # the laser shot: never recorded
    assert enc.legal_actions() == []


# --- torpedo tubes are weaponry -------------------------------------------------------------------

def _laser_hit_on_the_jackal(enc: Encounter, general: str, effect: str, armor: int = 5) -> None:
    """Simultaneous initiative, the Vigilant's T1 hits, and its damage lands at ``general``/``effect``;
    armor 5 lets one hit through, armor 4 two."""
    initiative(enc, "4", "4")
    enc.correct("ships.jackal.armor_factor", armor, note=f"test: armor {armor}")
    enc.act("fire", ship="vigilant", turrets=["T1"], target="jackal")
    answer(enc, "To hit: Vigilant T1", "12")
    enc.act("next")
    enc.act("next")
    enc.act("resolve_damage")
    answer(enc, "General location: A1", roll_for_general(general))
    answer(enc, "Specific location: A1", roll_for_effect(general, effect))


def _hit_the_jackals_weapons(enc: Encounter, effect: str) -> None:
    _laser_hit_on_the_jackal(enc, "weapons", effect)


def test_a_weapon_hit_can_destroy_a_torpedo_tube() -> None:
    """Weapon: "One of the ship's weapons has been destroyed." Tubes are counted as weaponry ("per 100
    tons of ship displacement not otherwise allocated to weaponry"): the 1d4 runs over the Jackal's
    three turrets and its tube, and a 4 destroys the tube, which then launches nothing."""
    enc = duel()
    _hit_the_jackals_weapons(enc, "weapon")
    req = answer(enc, "Which turret or tube on Jackal", "4")
    assert req.dice == "1d4"
    assert ship(enc, "jackal")["tubes"][0]["destroyed"] is True
    assert [t["destroyed"] for t in ship(enc, "jackal")["turrets"]] == [0, 0, 0]
    enc.act("next")
    refused(enc, "no tube ready \\(all destroyed\\)", "launch_torpedo", ship="jackal", target="vigilant")


def test_a_fire_control_hit_on_a_tube_launches_at_dm_minus_4() -> None:
    """Fire Control: "The fire control system for 1 turret has been disabled. The gunner loses all
    computer enhancement and must track targets manually. DM -4 + Gunnery skill." On a tube (no gunner):
    the torpedo launches at DM -4, without the program DMs."""
    enc = duel({"programs": RAIDER["programs"] + ["PREDICT-1"]})
    _hit_the_jackals_weapons(enc, "fire_control")
    answer(enc, "Which turret's or tube's fire control on Jackal", "4")
    assert ship(enc, "jackal")["tubes"][0]["fire_control"] is False
    enc.act("next")
    enc.act("launch_torpedo", ship="jackal", target="vigilant")
    assert mods(enc) == {"Fire control out": -4}


# --- computer hits lower storage ------------------------------------------------------------------

def test_a_computer_hit_lowers_storage_and_unloads_what_no_longer_fits() -> None:
    """Computer: "Reduce the effective computer factor by 1 for each hit received"; programs fill
    "spaces of computer storage". The Jackal's model 3 (9 spaces, computers table) runs TARGET, LAUNCH,
    TORPEDO LAUNCH (1 each), ANTI-MISSILE (2) and PREDICT-2 (2): 7 spaces. Two hits make it a model 1
    (4 spaces): PREDICT-2 then ANTI-MISSILE are unloaded (the last loaded first), 3 spaces remain."""
    assert TABLES.computers[3]["storage"] == 9 and TABLES.computers[1]["storage"] == 4
    enc = duel({"computer_model": 3, "computer_storage": 0,
                "programs": ["TARGET", "LAUNCH", "TORPEDO LAUNCH", "ANTI-MISSILE", "PREDICT-2"]})
    assert ship(enc, "jackal")["storage"] == 9
    _laser_hit_on_the_jackal(enc, "bridge", "computer", armor=4)  # two hits get through
    j = ship(enc, "jackal")
    assert (j["computer"], j["storage"]) == (1, 4)
    assert j["programs"] == ["TARGET", "LAUNCH", "TORPEDO LAUNCH"]
    assert "ANTI-MISSILE" in j["library"]  # carried still: reloadable in step 9 if it fits


def test_a_computer_shot_to_zero_runs_nothing() -> None:
    """A model reduced to 0 holds no program (the computers table starts at model 1)."""
    state = {"turn": 1, "ships": {"s": {"name": "S", "computer": 1, "storage": 4, "programs": ["TARGET", "LAUNCH"]}}}
    damage.lower_computer(state["ships"]["s"], 1, TABLES, RuleContext(1))
    assert state["ships"]["s"]["programs"] == [] and state["ships"]["s"]["storage"] == 0


def test_a_ships_own_smaller_storage_is_kept_until_the_model_holds_less() -> None:
    """The Vigilant's file gives model 4 only 9 spaces (its own figure) and loads 6 spaces: one hit
    (model 3: 9 spaces) changes nothing; a second (model 2: 6 spaces) cuts it to 6, which still holds
    them; a third (model 1: 4 spaces) unloads INTERCEPT (1) and ANTI-MISSILE II (3)."""
    s = {"name": "V", "computer": 4, "storage": 9, "programs": ["TARGET", "LAUNCH", "ANTI-MISSILE II", "INTERCEPT"]}
    damage.lower_computer(s, 1, TABLES, RuleContext(1))
    assert (s["computer"], s["storage"], len(s["programs"])) == (3, 9, 4)
    damage.lower_computer(s, 1, TABLES, RuleContext(1))
    assert (s["computer"], s["storage"], len(s["programs"])) == (2, 6, 4)
    damage.lower_computer(s, 1, TABLES, RuleContext(1))
    assert (s["computer"], s["storage"], s["programs"]) == (1, 4, ["TARGET", "LAUNCH"])


# --- ECM ---------------------------------------------------------------------------------------------

def test_ecm_affects_missiles_and_no_energy_weapon() -> None:
    """Torpedoes "contain a fusion drive and onboard computer and are not effected by ECM": the text
    names ECM only for missiles. Shipped reading (issue 10): missiles are affected, and no energy weapon
    or repeater is, all of them alike."""
    affected = {w for w, e in TABLES.weapons.items() if e["ecm"]}
    assert affected == {"missile_he", "missile_nuclear", "am_missile"}
    enc = duel(escort={"programs": ["TARGET", "LAUNCH", "ECM"]})
    initiative(enc, "1", "5")
    enc.act("fire", ship="jackal", turrets=["T2"], target="vigilant")
    assert mods(enc) == {"Gunnery": 1}  # pulse lasers: no ECM DM
    answer(enc, "To hit: Jackal T2", "2")
    enc.act("fire", ship="jackal", turrets=["T1"], target="vigilant")
    assert mods(enc) == {"Gunnery": 1, "Vigilant ECM": TABLES.programs["ECM"]["evade_dm"]}


# --- a replacement table's "auto" and "no" play ------------------------------------------------------

def _house_weapons(tmp_path: Path, laser: str, missile: str) -> str:
    text = shipped_path("weapons").read_text().replace("shipped_default = true", "shipped_default = false", 1)
    text = text.replace("to_hit = { close = 6, short = 8, long = 10 }", laser, 1)
    text = text.replace("to_hit = { close = 9, short = 7, long = 7 }", missile, 1)
    path = tmp_path / "house-weapons.toml"
    path.write_text(text)
    return str(path)


def test_a_to_hit_of_auto_hits_and_no_cannot_fire(tmp_path: Path) -> None:
    """Tables: a to_hit cell is "a 2D number 2..12 or 'auto'/'no'" (the checker accepts both), so both
    must play: the house beam laser hits automatically at long range without a roll; the house HE
    missile says "no" at long range and is refused (issue 10: it crashed with ValueError)."""
    path = _house_weapons(tmp_path, 'to_hit = { close = 6, short = 8, long = "auto" }',
                          'to_hit = { close = 9, short = 7, long = "no" }')
    enc = duel(tables={"weapons": path})
    initiative(enc, "4", "4")
    enc.act("fire", ship="vigilant", turrets=["T1"], target="jackal")
    assert enc.pending is None
    assert attack(enc, "A1")["damage"] == 6
    refused(enc, "HE missile cannot fire at long range", "fire", ship="vigilant", turrets=["T4"],
            target="jackal", warhead="he")
    enc.act("fire", ship="vigilant", turrets=["T4"], target="jackal", warhead="nuclear")
    assert enc.pending is not None  # the nuclear missile keeps its 7+


def test_a_to_intercept_of_auto_stops_without_a_roll_and_no_cannot(tmp_path: Path) -> None:
    """The same for a defence table: sand that stops lasers "auto", and cannot touch a pulse laser."""
    text = shipped_path("defences").read_text().replace("shipped_default = true", "shipped_default = false", 1)
    text = text.replace("to_intercept = { beam_laser = 7, pulse_laser = 7,",
                        'to_intercept = { beam_laser = "auto", pulse_laser = "no",', 1)
    path = tmp_path / "house-defences.toml"
    path.write_text(text)
    enc = duel(tables={"defences": str(path)})
    initiative(enc, "4", "4")
    enc.act("fire", ship="vigilant", turrets=["T1"], target="jackal")
    answer(enc, "To hit: Vigilant T1", "12")
    enc.act("next")
    enc.act("defend", ship="jackal", turret="T3", attack="A1")
    assert enc.pending is None
    assert attack(enc, "A1")["reduced"] == TABLES.defences["sandcaster"]["reduce_by"]
    load_tables({"defences": str(path)})  # the checker accepts the file


def test_a_weapon_whose_to_hit_says_no_everywhere_is_refused_by_the_checker(tmp_path: Path) -> None:
    """A mount that could never fire is a table mistake, refused in one line."""
    path = _house_weapons(tmp_path, 'to_hit = { close = "no", short = "no", long = "no" }',
                          'to_hit = { close = 9, short = 7, long = 7 }')
    with pytest.raises(BadTable, match="never attacks"):
        load_tables({"weapons": path})


# --- break off, in the rule itself -------------------------------------------------------------------

def test_break_off_refusals_in_the_rule_itself() -> None:
    """Breaking Off Action: "If the engaged ships are at long range, the ship with the higher maneuver may
    break off action in lieu of his offensive fire (step 3 or 6)." ``may_break_off`` refuses each case
    with the game master's reason, whatever the console offers."""
    enc = duel()
    may = lambda **args: fire.may_break_off(enc.state, args, TABLES)  # noqa: E731
    assert may(ship="vigilant") == "offensive fire happens in steps 3 and 6"  # step 1
    initiative(enc, "4", "4")  # Imperial attack, step 3, long range
    assert may(ship="jackal") == "Jackal is not on the side firing now"
    assert may(ship="vigilant") == ""  # maneuver 5 against 3
    enc.correct("ships.jackal.maneuver", 5, note="test: as fast as the Vigilant")
    assert may(ship="vigilant") == "Vigilant (maneuver 5) is not faster than the enemy (maneuver 5)"
    enc.correct("ships.jackal.maneuver", 3, note="test: back")
    enc.correct("range", "short", note="test: the ships have closed")
    assert may(ship="vigilant") == "breaking off needs long range (now short)"
    enc.correct("range", "long", note="test: back at long range")
    enc.act("fire", ship="vigilant", turrets=["T1"], target="jackal")
    answer(enc, "To hit: Vigilant T1", "2")
    assert may(ship="vigilant") == "Vigilant already fired this step; breaking off replaces offensive fire"
    enc.act("next")
    enc.act("next")
    enc.act("next")
    assert enc.state["step"] == 6
    assert may(ship="jackal") == "Jackal (maneuver 3) is not faster than the enemy (maneuver 5)"
    enc.act("withdraw", ship="vigilant", reason="fled")
    assert may(ship="jackal") == "the fight is over"


def test_a_surprised_ship_cannot_break_off() -> None:
    """Surprise: the surprised ship "may conduct no offensive fire", and breaking off is "in lieu of his
    offensive fire"; nor may a ship that has left the fight break off again."""
    enc = duel(escort={"maneuver": 2})
    enc.act("roll_initiative")
    answer(enc, "Initiative: Imperial Navy", "4")   # 6
    answer(enc, "Initiative: Corsairs", "1")        # 1: surprised
    enc.act("next")
    enc.act("next")
    enc.act("next")
    enc.act("next")
    enc.act("next")
    assert enc.state["step"] == 6
    assert fire.may_break_off(enc.state, {"ship": "jackal"}, TABLES) == "Jackal is surprised: no offensive fire this turn"


# --- the range is the initiative side's choice ----------------------------------------------------------

def test_the_range_form_asks_for_the_side_with_the_initiative() -> None:
    """Step 2: "the player with initiative elects to reduce range, remain at the current range or increase
    range." The form's first question names that side, and only that side may answer it."""
    enc = duel()
    initiative(enc, "1", "5")  # turn 1: the Corsairs have the initiative (the range stays long)
    for _ in range(7):
        enc.act("next")
    enc.act("roll_initiative")
    answer(enc, "Initiative: Imperial Navy", "1")  # 3
    answer(enc, "Initiative: Corsairs", "5")        # 5
    enc.act("next")
    action = RULESET.catalogue.get("set_range")
    side = action.param("side")
    offered = RULESET.param_choices(enc.state, "set_range", side, {})
    assert [(c.value, c.label) for c in offered] == [("cor", "Corsairs (has the initiative)")]
    refused(enc, "the range is chosen by Corsairs, the side with the initiative", "set_range",
            side="imp", range="short")
    enc.act("set_range", side="cor", range="short")
    assert enc.state["range"] == "short"


# --- batteries ---------------------------------------------------------------------------------------------

BATTERY_ESCORT = {"turrets": [
    {"weapon": "beam_laser", "count": 3, "gunner_skill": 1, "battery": 1},
    {"weapon": "beam_laser", "count": 3, "gunner_skill": 2, "battery": 1},
    {"weapon": "infinite_repeater", "count": 1, "gunner_skill": 1, "battery": 2},
    {"weapon": "infinite_repeater", "count": 1, "gunner_skill": 1, "battery": 2},
    {"weapon": "infinite_repeater", "count": 1, "gunner_skill": 1, "battery": 2},
    {"weapon": "missile_rack", "count": 1, "gunner_skill": 2},
]}


def test_a_battery_fires_as_one_attack_with_damage_times_its_weapons() -> None:
    """Damage: "If the weapon is a beam weapon or infinite repeater, multiply the damage by the number of
    weapons in the turret or battery." Two triple beam laser turrets in battery 1 fire as one attack:
    one roll (the better gunner's skill, 2), 2 x 6 = 12 points. A turret of a battery cannot fire alone."""
    enc = duel(escort=BATTERY_ESCORT)
    initiative(enc, "4", "4")
    offered = RULESET.param_choices(enc.state, "fire", RULESET.catalogue.get("fire").param("turrets"),
                                    {"ship": "vigilant"})
    assert [c.value for c in offered] == ["B1", "T6"]  # the repeaters fire only at close range
    assert offered[0].label.startswith("B1 (T1+T2) beam laser x6")
    refused(enc, "T1 fires with its battery: choose B1", "fire", ship="vigilant", turrets=["T1"], target="jackal")
    enc.act("fire", ship="vigilant", turrets=["B1"], target="jackal")
    assert mods(enc) == {"Gunnery": 2}
    answer(enc, "To hit: Vigilant B1 Beam laser x6 at Jackal", "8", target=f"{to_hit('beam_laser', 'long')}+")
    assert enc.pending is None
    assert attack(enc, "A1")["damage"] == TABLES.weapons["beam_laser"]["damage"] * 6 == 12
    assert [t["used"] for t in ship(enc, "vigilant")["turrets"][:2]] == ["offence", "offence"]


def test_repeater_damage_multiplies_by_the_repeaters_in_the_battery() -> None:
    """Infinite repeaters: "1 (one) infinite repeater my be installed per turret"; in a battery of three
    turrets the damage is 3 x 4 = 12."""
    enc = duel(escort=BATTERY_ESCORT)
    initiative(enc, "4", "4")
    enc.correct("range", "close", note="test: repeaters fire at close range")
    enc.act("fire", ship="vigilant", turrets=["B2"], target="jackal")
    answer(enc, "To hit: Vigilant B2 Infinite repeater x3", "12")
    assert attack(enc, "A1")["damage"] == TABLES.weapons["infinite_repeater"]["damage"] * 3 == 12


def test_a_battery_with_a_turret_used_for_defence_does_not_fire() -> None:
    """Step 6/7: weapons "not already used"; a battery fires whole, so once one of its turrets has
    intercepted, the battery has no offensive fire this turn (ruleset's reading)."""
    enc = duel(escort=BATTERY_ESCORT)
    initiative(enc, "1", "5")  # the Corsairs attack first
    enc.act("fire", ship="jackal", turrets=["T1"], target="vigilant")
    answer(enc, "To hit: Jackal T1 HE missile x1 (1 of 2)", "12")
    answer(enc, "To hit: Jackal T1 HE missile x1 (2 of 2)", "2")
    enc.act("next")
    enc.act("defend", ship="vigilant", turret="T2", attack="A1")  # one battery laser turret, ANTI-MISSILE II
    answer(enc, "Intercept A1: Vigilant T2", "12")
    enc.act("next")
    enc.act("next")
    refused(enc, "battery B1: T2 was already used this turn \\(defence\\)", "fire", ship="vigilant",
            turrets=["B1"], target="jackal")


def test_a_battery_mixes_no_weapons() -> None:
    """A battery is one attack of one weapon type, so a ship file may not mix weapons in it."""
    from rulesets.classic_hg.construction import check_ship
    from engine.schema import validate
    from rulesets.classic_hg.ships import SHIP_FIELDS

    raw = {**ESCORT, "turrets": [{"weapon": "beam_laser", "count": 3, "battery": 1},
                                 {"weapon": "pulse_laser", "count": 3, "battery": 1}]}
    raw.pop("side")
    with pytest.raises(BadTable, match="battery 1 holds beam_laser .* same weapon, got pulse_laser"):
        check_ship(validate(raw, SHIP_FIELDS, "ship"), TABLES, "ship")


# --- sensors and hangars have effects --------------------------------------------------------------------

def test_a_ship_without_sensors_tracks_by_hand() -> None:
    """Sensors: "Reduce sensors by 1 factor for each hit received." The text gives no effect; the
    ruleset's reading follows Fire Control ("The gunner loses all computer enhancement and must track
    targets manually. DM -4 + Gunnery skill"): at 0 sensors every turret and tube fires and intercepts
    that way, without program DMs."""
    enc = duel({"programs": RAIDER["programs"] + ["PREDICT-1"]})
    initiative(enc, "1", "5")
    enc.act("fire", ship="jackal", turrets=["T2"], target="vigilant")
    assert mods(enc) == {"Gunnery": 1, "PREDICT-1": 1}
    enc.undo()
    enc.correct("ships.jackal.sensors", 0, note="test: sensors shot away")
    enc.act("fire", ship="jackal", turrets=["T2"], target="vigilant")
    assert mods(enc) == {"Gunnery": 1, "Sensors out": -4}
    answer(enc, "To hit: Jackal T2", "2")
    enc.act("launch_torpedo", ship="jackal", target="vigilant")
    assert mods(enc) == {"Sensors out": -4}


def test_small_craft_launch_and_recover_through_an_undamaged_hangar() -> None:
    """Hangerage: "The target ship may not launch or recover small craft suing the damaged hanger." The
    Jackal launches its 20-ton Launch in its fire step and recovers it later; once the bay is damaged
    (by a game master's correction here), a craft may neither launch nor come back through it."""
    enc = duel({"hangars": [{"name": "Boat bay", "small_craft": [{"name": "Launch", "tons": 20},
                                                               {"name": "Gig", "tons": 10}]}]})
    refused(enc, "offensive fire happens in steps 3 and 6", "launch_craft", ship="jackal", craft="1.1")
    initiative(enc, "1", "5")
    refused(enc, "Vigilant is not on the side firing now", "launch_craft", ship="vigilant", craft="1.1")
    offered = RULESET.param_choices(enc.state, "launch_craft", RULESET.catalogue.get("launch_craft").param("craft"),
                                    {"ship": "jackal"})
    assert [(c.value, c.label) for c in offered] == [("1.1", "Launch (20 tons, ready) · Boat bay"),
                                                     ("1.2", "Gig (10 tons, ready) · Boat bay")]
    enc.act("launch_craft", ship="jackal", craft="1.1")
    craft = ship(enc, "jackal")["hangars"][0]["small_craft"]
    assert [c["status"] for c in craft] == ["launched", "ready"]
    refused(enc, "Launch cannot launch: it is launched", "launch_craft", ship="jackal", craft="1.1")
    refused(enc, "Gig cannot recover: it is ready", "recover_craft", ship="jackal", craft="1.2")
    enc.act("recover_craft", ship="jackal", craft="1.1")
    enc.act("launch_craft", ship="jackal", craft="1.1")
    enc.correct("ships.jackal.hangars[0].damaged", True, note="test: the bay is hit")
    refused(enc, "Boat bay is damaged: no small craft may launch or be recovered", "recover_craft",
            ship="jackal", craft="1.1")
    refused(enc, "Boat bay is damaged", "launch_craft", ship="jackal", craft="1.2")


def test_a_hangar_hit_spares_the_craft_that_are_out() -> None:
    """"each hit will destroy 10 tons of small craft. Small craft not destroyed are disabled": only the
    craft in the hangar; the launched Gig is out of the ship (ruleset's reading)."""
    enc = duel({"hangars": [{"name": "Boat bay", "small_craft": [{"name": "Gig", "tons": 10},
                                                               {"name": "Launch", "tons": 20}]}]})
    enc.correct("ships.jackal.hangars[0].small_craft[0].status", "launched", note="test: the Gig is out")
    _laser_hit_on_the_jackal(enc, "hangar", "hangar")
    craft = ship(enc, "jackal")["hangars"][0]["small_craft"]
    assert [c["status"] for c in craft] == ["launched", "disabled"]  # 10 tons of the Launch's 20


def test_hits_on_a_value_already_at_0_are_not_noted_as_a_loss() -> None:
    """"Reduce the effective computer factor by 1 for each hit received" stops at 0: the note says what the
    hits took, so five hits on a computer of 2 read -2 and on one of 0 take nothing (a drive read "-5 (now 0)")."""
    for model, words in ((3, "computer -1 (now 2)"), (2, "computer -2 of 5 hits (now 0)"),
                         (0, "computer already 0 (5 hits take nothing more)")):
        ctx = RuleContext(1)
        s = {"name": "S", "computer": model, "storage": 0, "programs": []}
        damage.lower_computer(s, 1 if model == 3 else 5, TABLES, ctx)
        assert ctx.notes[0].startswith(f"Computer: S {words}"), ctx.notes


def test_one_hit_on_a_value_already_at_0_reads_in_the_singular() -> None:
    """A radiation hit on a computer already at 0 (the Radiation paragraph: "the computer takes o1 additional
    hit") is one hit: the note reads "1 hit takes nothing more", as the console shows it to the referee."""
    ctx = RuleContext(1)
    s = {"name": "S", "computer": 0, "storage": 0, "programs": []}
    damage.lower_computer(s, 1, TABLES, ctx, "Radiation")
    assert ctx.notes[0] == "Radiation: S computer already 0 (1 hit takes nothing more)", ctx.notes


def test_a_tube_starts_with_the_tray_the_weapons_table_gives(tmp_path: Path) -> None:
    """"Five torpedoes ... are the normal load in the launching tray": the 5 is weapons.toml's [torpedo_tube]
    tray, read in one place; a ship file's torpedoes = -1 loads that many a tube, and a house table's tray of 3
    loads 3 (the fight's start used a second copy of the 5 in code, which a replaced table never reached)."""
    assert duel().state["ships"]["jackal"]["torpedoes"] == 5 * RAIDER["torpedo_tubes"]
    text = shipped_path("weapons").read_text().replace("shipped_default = true", "shipped_default = false", 1)
    assert text.count("tray = 5") == 1
    path = tmp_path / "house-weapons.toml"
    path.write_text(text.replace("tray = 5", "tray = 3"))
    enc = duel(tables={"weapons": str(path)})
    assert enc.state["ships"]["jackal"]["torpedoes"] == 3 * RAIDER["torpedo_tubes"]
    assert duel({"torpedoes": 7}, tables={"weapons": str(path)}).state["ships"]["jackal"]["torpedoes"] == 7
    # the fight's ships are built by the same table: a tray of 3 holds 3 a tube, the rest needs room in the hold
    # (found by a review: the check read the shipped tray of 5 while the fight loaded 3)
    room = tmp_path / "house-weapons-big.toml"
    room.write_text(text.replace("tray = 5", "tray = 200"))
    assert duel({"torpedoes": 200}, tables={"weapons": str(room)}).state["ships"]["jackal"]["torpedoes"] == 200
    with pytest.raises(BadTable, match="beyond the 5 the tray holds"):
        duel({"torpedoes": 200})  # 195 of 0.5 t beyond the shipped tray: more than the Jackal's 60 t of cargo


def test_a_surprised_ship_that_is_not_naval_has_no_evasion_running() -> None:
    """Surprise: no defensive fire "if the ship is not a naval vessel (naval commanders are assumed to have the
    sense to at least have defensive programs running ...)". Found by an audit: the surprised Jackal's AUTO EVADE
    still took 2 off every shot at it. A naval ship, or any ship once the surprise is over, keeps its evasion."""
    evasive = {"programs": ["TARGET", "AUTO EVADE"]}
    enc = duel(evasive)
    initiative(enc, "4", "1")  # 6 against 1: the Corsairs are surprised
    assert enc.state["surprised"] == "cor"
    from engine.ruleset import find_ruleset
    label = next(c.label for c in find_ruleset("classic-hg").param_choices(
        enc.state, "fire", next(p for p in RULESET.catalogue.actions["fire"].params if p.name == "target"),
        {"ship": "vigilant", "turrets": ["T1"]}) if c.value == "jackal")
    assert "AUTO EVADE not running (surprised)" in label  # the target list says so too, not "AUTO EVADE -2"
    enc.act("fire", ship="vigilant", turrets=["T1"], target="jackal")
    assert "Jackal AUTO EVADE" not in mods(enc)
    for raider, dice in (({**evasive, "naval": True}, ("4", "1")), (evasive, ("4", "4"))):
        enc = duel(raider)
        initiative(enc, *dice)
        enc.act("fire", ship="vigilant", turrets=["T1"], target="jackal")
        assert mods(enc)["Jackal AUTO EVADE"] == -2
