"""A scripted classic-hg duel over five turns, every die typed, every number checked.

Covers (``classic-hg-combat.txt``): first-turn surprise on a non-naval ship
(no offensive or defensive fire), simultaneous initiative (the defender's
damage waits until step 8), range steps (one at a time, long at first), fire
with gunner and program DMs, interception by sand, pulse laser, repeater, AM
missile, repulsor and nuclear damper (the fields act even though other
systems were used), a turret of two missile racks launching two missiles that
each roll on their own, a ship whose sensors are shot away tracking by hand
(DM -4), torpedoes behaving as if running AUTO EVADE and launching
every other turn, armor absorption and erosion, spallation against spaced
armor (DM -3), radiation, hit effects, reprogramming within storage, ramming,
and breaking off at long range. The script is a list of small steps so the
save test can stop anywhere, save, load and carry on.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest

from engine.encounter import Encounter
from engine.errors import IllegalAction
from engine.saves import SaveFile, create
from rulesets.classic_hg import RULESET
from tests.rulesets.scripted import saved_and_continued
from tests.rulesets.classic_hg.duel import (
    TABLES, answer, new_duel, roll_for_effect, roll_for_general, to_hit, to_intercept,
)

Step = Callable[[Encounter], None]


def ship(enc: Encounter, sid: str) -> dict:
    return enc.state["ships"][sid]


def attack(enc: Encounter, aid: str) -> dict:
    return next(a for a in enc.state["attacks"] if a["id"] == aid)


def mods(enc: Encounter) -> dict[str, int]:
    return {m.source: m.value for m in enc.pending.modifiers}


# --- turn 1: Imperial initiative by 3, the corsair is surprised ---------------------------

def t1_initiative(enc: Encounter) -> None:
    """Step 1: 1D + Tactics; three or better above the adversary on the initial encounter is surprise."""
    enc.act("roll_initiative")
    assert mods(enc) == {"Tactics": 2}
    answer(enc, "Initiative: Imperial Navy", "4")   # 4 + 2 = 6
    answer(enc, "Initiative: Corsairs", "3")         # 3, Jackal's Tactics is 0
    assert enc.state["attacker"] == "imp" and enc.state["defender"] == "cor"
    assert enc.state["surprised"] == "cor"


def t1_range_is_long(enc: Encounter) -> None:
    """Step 2: "Initial encounters always take place at long range." """
    enc.act("next")
    with pytest.raises(IllegalAction):
        enc.act("set_range", range="short")
    assert enc.state["range"] == "long"
    enc.act("next")


def t1_attacker_fires(enc: Encounter) -> None:
    enc.act("fire", ship="vigilant", turrets=["T1"], target="jackal")
    assert str(enc.pending.target) == f"{to_hit('beam_laser', 'long')}+"
    assert mods(enc) == {"Gunnery": 1}
    answer(enc, "To hit: Vigilant T1 Beam laser x3", "9")  # 9 + 1 = 10
    a1 = attack(enc, "A1")
    assert a1["damage"] == TABLES.weapons["beam_laser"]["damage"] * 3  # "multiply ... by the number of weapons"
    assert a1["status"] == "hit"


def t1_surprised_ship_cannot_defend(enc: Encounter) -> None:
    """Surprise: no defensive fire "if the ship is not a naval vessel"."""
    enc.act("next")
    with pytest.raises(IllegalAction, match="surprised and not a naval vessel"):
        enc.act("defend", ship="jackal", turret="T3", attack="A1")
    enc.act("next")


def t1_damage(enc: Encounter) -> None:
    """Unarmored: everything gets through; general then specific location; Cargo: 1 ton per hit."""
    assert enc.checklist()[4].needs == "resolve damage"
    with pytest.raises(IllegalAction, match="still needs: resolve damage"):
        enc.act("next")
    enc.act("resolve_damage")
    answer(enc, "General location: A1", roll_for_general("hold"))
    answer(enc, "Specific location: A1", roll_for_effect("hold", "cargo"))
    assert ship(enc, "jackal")["cargo"] == 60 - 6
    assert enc.pending is None


def t1_surprised_ship_cannot_fire(enc: Encounter) -> None:
    """Surprise: the surprised ship "may conduct no offensive fire"."""
    enc.act("next")
    assert enc.state["step"] == 6 and enc.checklist()[5].status == "skipped"
    with pytest.raises(IllegalAction, match="surprised: no offensive fire"):
        enc.act("fire", ship="jackal", turrets=["T2"], target="vigilant")
    enc.act("next")
    enc.act("next")
    enc.act("next")
    assert enc.state["step"] == 9


def t1_reprogram(enc: Encounter) -> None:
    """Step 9: programs change only now, and must fit in storage."""
    with pytest.raises(IllegalAction, match="need 10 spaces; Vigilant's computer holds 9"):
        enc.act("load_programs", ship="vigilant",
                programs=["TARGET", "LAUNCH", "ANTI-MISSILE II", "INTERCEPT", "PREDICT-2", "EVADE-1", "SELECTIVE"])
    with pytest.raises(IllegalAction, match="carries no program 'JUMP-6'"):
        enc.act("load_programs", ship="vigilant", programs=["JUMP-6"])
    enc.act("load_programs", ship="vigilant", programs=["TARGET", "LAUNCH", "ANTI-MISSILE II", "INTERCEPT", "PREDICT-2"])
    enc.act("next")
    assert enc.state["turn"] == 2 and enc.state["step"] == 1 and enc.state["surprised"] == ""


# --- turn 2: simultaneous initiative ------------------------------------------------------

def t2_simultaneous(enc: Encounter) -> None:
    enc.act("roll_initiative")
    answer(enc, "Initiative: Imperial Navy", "2")  # 4
    answer(enc, "Initiative: Corsairs", "4")        # 4
    assert enc.state["simultaneous"] is True
    assert enc.state["attacker"] == "imp"


def t2_range(enc: Encounter) -> None:
    """Step 2: one step at a time; never from long to close in one turn."""
    enc.act("next")
    with pytest.raises(IllegalAction, match="from long the range may become short, long"):
        enc.act("set_range", range="close")
    enc.act("set_range", range="short")
    enc.act("next")


def t2_attacker_fires(enc: Encounter) -> None:
    enc.act("fire", ship="vigilant", turrets=["T1"], target="jackal")
    assert mods(enc) == {"Gunnery": 1, "PREDICT-2": 2}
    answer(enc, "To hit: Vigilant T1", "7", target=f"{to_hit('beam_laser', 'short')}+")
    enc.act("fire", ship="vigilant", turrets=["T4"], target="jackal", warhead="he")
    answer(enc, "To hit: Vigilant T4 HE missile x1", "5", target=f"{to_hit('missile_he', 'short')}+")
    assert ship(enc, "vigilant")["missiles"] == 5
    assert [a["id"] for a in enc.state["attacks"] if a["status"] == "hit"] == ["A2", "A3"]


def t2_defender_intercepts(enc: Encounter) -> None:
    """Step 4: the target assigns unused defensive systems to each successful attack."""
    enc.act("next")
    enc.act("defend", ship="jackal", turret="T3", attack="A2")  # sand against the lasers
    answer(enc, "Intercept A2: Jackal T3", "8", target=f"{to_intercept('sandcaster', 'beam_laser')}+")
    assert attack(enc, "A2")["reduced"] == TABLES.defences["sandcaster"]["reduce_by"]
    assert attack(enc, "A2")["status"] == "hit"  # sand weakens, it does not stop
    enc.act("defend", ship="jackal", turret="T2", attack="A3")  # pulse lasers against the missile
    answer(enc, "Intercept A3: Jackal T2", "6", target=f"{to_intercept('pulse_laser', 'missile_he')}+")
    assert attack(enc, "A3")["status"] == "hit"
    with pytest.raises(IllegalAction, match="already used this turn"):
        enc.act("defend", ship="jackal", turret="T2", attack="A3")


def t2_damage_is_held(enc: Encounter) -> None:
    """NOTE: with simultaneous initiative the DEFENDER records no damage until step 8."""
    enc.act("next")
    assert enc.state["step"] == 5
    assert enc.checklist()[4].status == "skipped" and enc.checklist()[4].needs == ""
    assert [a.name for a in enc.legal_actions()] == ["withdraw", "next"]
    assert ship(enc, "jackal")["cargo"] == 54
    enc.act("next")


def t2_defender_fires(enc: Encounter) -> None:
    """Step 6: only weapons not used for defence; a torpedo from the tube; nuclear missiles."""
    with pytest.raises(IllegalAction, match="already used this turn \\(defence\\)"):
        enc.act("fire", ship="jackal", turrets=["T2"], target="vigilant")
    enc.act("launch_torpedo", ship="jackal", target="vigilant", warhead="he")
    answer(enc, "To hit: Jackal tube 1 HE torpedo", "9", target=f"{to_hit('torpedo_he', 'short')}+")
    assert ship(enc, "jackal")["torpedoes"] == 4  # a tray of five
    # Two racks launch two missiles, each its own roll and attack ("multiply the damage by the number
    # of weapons" is for beam weapons and repeaters only); the second misses.
    enc.act("fire", ship="jackal", turrets=["T1"], target="vigilant", warhead="nuclear")
    assert ship(enc, "jackal")["missiles"] == 10  # 12 in, one per missile
    answer(enc, "To hit: Jackal T1 Nuclear missile x1 (1 of 2)", "10")
    answer(enc, "To hit: Jackal T1 Nuclear missile x1 (2 of 2)", "3")
    assert [a["weapon"] for a in enc.state["attacks"] if a["status"] == "hit"][-2:] == ["torpedo_he", "missile_nuclear"]


def t2_attacker_intercepts(enc: Encounter) -> None:
    """Step 7: defensive weapons not already used in offence; torpedoes have AUTO EVADE;
    repulsors and dampers act on every incoming missile or nuclear attack."""
    enc.act("next")
    with pytest.raises(IllegalAction, match="already used this turn \\(offence\\)"):
        enc.act("defend", ship="vigilant", turret="T1", attack="A4")
    enc.act("defend", ship="vigilant", turret="T2", attack="A4")  # repeater against the torpedo
    assert mods(enc) == {"Gunnery": 1, "HE torpedo AUTO EVADE": TABLES.programs["AUTO EVADE"]["evade_dm"]}
    answer(enc, "Intercept A4: Vigilant T2", "10", target=f"{to_intercept('infinite_repeater', 'torpedo_he')}+")
    assert attack(enc, "A4")["status"] == "intercepted"
    with pytest.raises(IllegalAction, match="cannot intercept a Nuclear missile"):
        enc.act("defend", ship="vigilant", turret="T3", attack="A5")  # sand does not stop missiles


def t2_attacker_am_missile_and_fields(enc: Encounter) -> None:
    """AM missiles from a standard rack with INTERCEPT; then the repulsor and the damper act on the
    nuclear missile although the ship already used other defences ("regardless of if they have
    already been used")."""
    with pytest.raises(IllegalAction, match="T4 was already used this turn \\(offence\\)"):
        enc.act("defend", ship="vigilant", turret="T4", attack="A5")
    enc.act("defend", ship="vigilant", turret="T5", attack="A5")
    assert ship(enc, "vigilant")["am_missiles"] == 5
    answer(enc, "Intercept A5: Vigilant T5 Antimissile", "3", target=f"{to_intercept('am_missile', 'missile_nuclear')}+")
    assert attack(enc, "A5")["status"] == "hit"
    enc.act("next")  # leaving step 7: the fields roll against every eligible incoming attack
    assert enc.state["step"] == 8
    answer(enc, "Repulsor", "5", target=f"{to_intercept('repulsor', 'missile_nuclear')}+")
    answer(enc, "Nuclear damper", "4", target=f"{to_intercept('nuclear_damper', 'missile_nuclear')}+")
    assert attack(enc, "A5")["status"] == "hit"


def t2_damage_both_sides(enc: Encounter) -> None:
    """Step 8 records the attacker's damage and, with simultaneous initiative, the defender's held damage."""
    enc.act("resolve_damage")
    # A2: 6 laser points less 3 for sand, no armor: 3 hits on the maneuver drive
    answer(enc, "General location: A2", roll_for_general("engineering"))
    answer(enc, "Specific location: A2", roll_for_effect("engineering", "maneuver_drive"))
    assert ship(enc, "jackal")["maneuver"] == 0 and ship(enc, "jackal")["power_plant"] == 3
    # A3: HE missile, armor 0: spallation is automatic ("*"); quarters hit
    answer(enc, "General location: A3", roll_for_general("quarters"))
    assert ship(enc, "jackal")["crew_attacks"][-1]["as"] == "spallation"
    answer(enc, "Specific location: A3", roll_for_effect("quarters", "quarters"))
    answer(enc, "Which stateroom or berth on Jackal", "2")
    assert ship(enc, "jackal")["quarters"][1]["destroyed"] is True
    # A5: one nuclear missile (12 points) against spaced armor 4
    assert ship(enc, "vigilant")["armor_factor"] == 4 and ship(enc, "vigilant")["armor_hits"] == 4  # 4 stopped; erosion every 600/10 = 60 hits
    answer(enc, "General location: A5", roll_for_general("bridge"))
    answer(enc, "Specific location: A5", roll_for_effect("bridge", "sensors"))
    assert ship(enc, "vigilant")["sensors"] == 0  # naval: 4 x 2 = 8 sensors, 8 hits through
    assert mods(enc) == {"Spaced armor": -3}  # NOTE: DM -3 to spallation against spaced armor
    answer(enc, "Spallation: A5", "6", target="4+")  # nuclear missile vs armor 4: 4+; 6 - 3 = 3
    assert not any(a["as"] == "spallation" for a in ship(enc, "vigilant")["crew_attacks"])
    answer(enc, "Radiation: A5 against Vigilant's computer", "9",
           target=f"{TABLES.radiation[4]}+")
    assert ship(enc, "vigilant")["computer"] == 3  # one additional hit: no fiber-optic backup
    answer(enc, "Radiation: damage to 3 crew in the bridge", "4")
    answer(enc, "Radiation: days until death", "5")
    assert ship(enc, "vigilant")["radiation"][-1] == {"turn": 2, "attack": "A5", "location": "bridge", "crew": 3,
                                    "damage": 4, "dies_in_days": 5}
    assert enc.pending is None and enc.checklist()[7].needs == ""
    enc.act("next")
    enc.act("next")
    assert enc.state["turn"] == 3


def t3_corsair_attacks(enc: Encounter) -> None:
    enc.act("roll_initiative")
    answer(enc, "Initiative: Imperial Navy", "1")  # 3
    answer(enc, "Initiative: Corsairs", "6")        # 6: margin 3, but only the initial encounter surprises
    assert enc.state["attacker"] == "cor" and enc.state["surprised"] == ""
    enc.act("next")
    enc.act("set_range", range="close")
    enc.act("next")
    with pytest.raises(IllegalAction, match="no tube ready until turn 4"):  # one torpedo every other turn
        enc.act("launch_torpedo", ship="jackal", target="vigilant")
    enc.act("ram", ship="jackal", target="vigilant")  # maneuver 0 against 5
    assert mods(enc) == {"Maneuver difference": -5 * TABLES.ramming["dm_per_maneuver"]}
    answer(enc, "Ram: Jackal at Vigilant", "12", target=f"{TABLES.ramming['to_ram']}+")
    assert [a["weapon"] for a in enc.state["attacks"]] == []  # missed: 12 - 5 = 7
    enc.act("fire", ship="jackal", turrets=["T2"], target="vigilant")
    answer(enc, "To hit: Jackal T2 Pulse laser x2", "8", target=f"{to_hit('pulse_laser', 'close')}+")


def t3_sand_then_armor(enc: Encounter) -> None:
    """Sand reduces the weapon factor; armor stops what is left and wears by the hits it stopped."""
    enc.act("next")
    enc.act("defend", ship="vigilant", turret="T3", attack="A6")
    # Vigilant's sensors were shot to 0 in turn 2: every turret tracks by hand (DM -4, ruleset's reading)
    assert mods(enc) == {"Sensors out": -4}
    answer(enc, "Intercept A6: Vigilant T3", "11", target=f"{to_intercept('sandcaster', 'pulse_laser')}+")
    enc.act("next")
    enc.act("resolve_damage")  # 6 - 3 = 3 points; armor 4 stops them all: no location, no rolls
    assert enc.pending is None
    assert ship(enc, "vigilant")["armor_factor"] == 4 and ship(enc, "vigilant")["armor_hits"] == 7
    assert attack(enc, "A6")["through"] == 0
    enc.act("next")


def t3_defender_fires_back(enc: Encounter) -> None:
    enc.act("fire", ship="vigilant", turrets=["T1"], target="jackal")
    assert mods(enc) == {"Gunnery": 1, "Sensors out": -4}  # no PREDICT-2 without sensors
    answer(enc, "To hit: Vigilant T1", "9", target=f"{to_hit('beam_laser', 'close')}+")  # 9 + 1 - 4
    enc.act("fire", ship="vigilant", turrets=["T4"], target="jackal")
    answer(enc, "To hit: Vigilant T4", "11", target=f"{to_hit('missile_he', 'close')}+")  # 11 + 2 - 4
    enc.act("next")
    with pytest.raises(IllegalAction, match="already used this turn \\(offence\\)"):
        enc.act("defend", ship="jackal", turret="T2", attack="A8")
    with pytest.raises(IllegalAction, match="program is not loaded"):  # AM missiles need INTERCEPT
        enc.act("defend", ship="jackal", turret="T1", attack="A8")
    enc.act("next")
    enc.act("resolve_damage")
    answer(enc, "General location: A7", roll_for_general("weapons"))
    answer(enc, "Specific location: A7", roll_for_effect("weapons", "weapon"))
    help_lines = RULESET.roll_help(enc.state, enc.pending)  # under the prompt: what each face finds
    assert help_lines and help_lines[0].startswith("Finds: 1 T1 · 2 T2 · 3 T3 · 4 ")
    answer(enc, "Which turret or tube on Jackal", "1")  # 1d4: three turrets, then the tube
    assert ship(enc, "jackal")["turrets"][0]["destroyed"] == 2  # "One weapon in a turret is destroyed for each hit"
    answer(enc, "General location: A8", roll_for_general("hangar"))
    answer(enc, "Specific location: A8", roll_for_effect("hangar", "hangar"))
    bay = ship(enc, "jackal")["hangars"][0]
    assert bay["damaged"] and bay["small_craft"][0]["status"] == "destroyed"  # 10 tons a hit
    enc.act("next")
    enc.act("next")
    assert enc.state["turn"] == 4


def t4_torpedo_reloaded(enc: Encounter) -> None:
    enc.act("roll_initiative")
    answer(enc, "Initiative: Imperial Navy", "6")
    answer(enc, "Initiative: Corsairs", "1")
    enc.act("next")
    enc.act("set_range", range="short")
    enc.act("next")
    with pytest.raises(IllegalAction, match="breaking off needs long range"):
        enc.act("break_off", ship="vigilant")
    for _ in range(3):
        enc.act("next")
    assert enc.state["step"] == 6
    enc.act("launch_torpedo", ship="jackal", target="vigilant")  # turn 2 + 2
    answer(enc, "To hit: Jackal tube 1 HE torpedo", "2")
    assert ship(enc, "jackal")["torpedoes"] == 3
    for _ in range(4):
        enc.act("next")
    assert enc.state["turn"] == 5


def t5_break_off(enc: Encounter) -> None:
    """"If the engaged ships are at long range, the ship with the higher maneuver may break off
    action in lieu of his offensive fire." """
    enc.act("roll_initiative")
    answer(enc, "Initiative: Imperial Navy", "5")
    answer(enc, "Initiative: Corsairs", "2")
    enc.act("next")
    enc.act("set_range", range="long")
    enc.act("next")
    enc.act("break_off", ship="vigilant")
    assert ship(enc, "vigilant")["broken_off"]
    assert enc.state["over"] == "Imperial Navy broke off"
    assert enc.legal_actions() == []


SCRIPT: list[Step] = [
    t1_initiative, t1_range_is_long, t1_attacker_fires, t1_surprised_ship_cannot_defend, t1_damage,
    t1_surprised_ship_cannot_fire, t1_reprogram,
    t2_simultaneous, t2_range, t2_attacker_fires, t2_defender_intercepts, t2_damage_is_held,
    t2_defender_fires, t2_attacker_intercepts, t2_attacker_am_missile_and_fields, t2_damage_both_sides,
    t3_corsair_attacks, t3_sand_then_armor, t3_defender_fires_back,
    t4_torpedo_reloaded, t5_break_off,
]


@pytest.mark.parametrize("split", range(1, len(SCRIPT)))
def test_saved_mid_fight_loaded_and_continued_ends_the_same(tmp_path: Path, split: int) -> None:
    """The whole duel plays through (every step checks its own numbers), and issue 3: "The same duel
    saved mid-turn, loaded and continued ends in the same state." """
    saved_and_continued(new_duel, SCRIPT, split, tmp_path)


def test_saved_while_a_roll_is_pending(tmp_path: Path) -> None:
    """Autosave happens after every event, so a save can hold a roll still waiting to be made."""
    enc = new_duel()
    for step in SCRIPT[:8]:
        step(enc)
    enc.act("next")
    enc.act("set_range", range="short")
    enc.act("next")
    enc.act("fire", ship="vigilant", turrets=["T1"], target="jackal")
    path = tmp_path / "pending.toml"
    create(path, enc)
    loaded = SaveFile.load(path).encounter
    assert loaded.pending.describe() == enc.pending.describe()
    answer(loaded, "To hit: Vigilant T1", "7")
    assert loaded.state["attacks"][-1]["id"] == "A2"


def test_the_referee_takes_ships_out_until_one_side_has_none() -> None:
    """The text has no rule that destroys a ship; the referee's ruling ends the fight."""
    enc = new_duel()
    with pytest.raises(IllegalAction, match="'sunk' is not one of"):
        enc.act("withdraw", ship="jackal", reason="sunk")
    enc.act("withdraw", ship="jackal", reason="surrendered")
    assert enc.state["ships"]["jackal"]["out"] == "surrendered"
    assert enc.state["over"] == "Corsairs has no ship left in the fight"
    assert enc.legal_actions() == []
    enc.undo()
    assert enc.state["over"] == "" and not enc.state["ships"]["jackal"]["broken_off"]


def test_a_game_masters_table_replaces_the_shipped_one(tmp_path: Path) -> None:
    """Issue 3 "Tables": an encounter can point at a replacement file; its numbers are used."""
    from engine.encounter import Encounter as Enc
    from rulesets.classic_hg import RULESET
    from rulesets.classic_hg.tables import shipped_path
    from tests.rulesets.classic_hg.duel import make_setup

    text = shipped_path("weapons").read_text()
    text = text.replace("shipped_default = true", "shipped_default = false", 1)
    text = text.replace("to_hit = { close = 6, short = 8, long = 10 }", "to_hit = { close = 5, short = 7, long = 12 }", 1)
    mine = tmp_path / "my-weapons.toml"
    mine.write_text(text)
    setup = make_setup()
    setup.options = {"tables": {"weapons": str(mine)}}
    enc = Enc(setup, RULESET)
    t1_initiative(enc)
    enc.act("next")
    enc.act("next")
    enc.act("fire", ship="vigilant", turrets=["T1"], target="jackal")
    assert str(enc.pending.target) == "12+"
    path = tmp_path / "house.toml"
    create(path, enc)
    assert SaveFile.load(path).encounter.pending.target.number == 12
