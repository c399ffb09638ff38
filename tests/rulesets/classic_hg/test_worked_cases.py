"""Worked cases from ``classic-hg-combat.txt`` that no other test pinned, found by a line-by-line audit.

Each test names the line of the text it reads (``classic-hg-combat.txt:N``) and takes its expected numbers
from the text, worked by hand; where the text names a table it does not print, the number is the shipped
table's and the test says so. The fights are the duel of ``duel.py``: the Imperial escort Vigilant (600 tons,
naval, spaced armor 4, T1 three beam lasers, T2 an infinite repeater, T3 two sandcasters, T4 and T5 single
missile racks, a repulsor and a nuclear damper, Tactics 2) against the corsair Jackal (400 tons, unarmored,
T1 two missile racks, T2 two pulse lasers, T3 a sandcaster, one torpedo tube, Tactics 0).
"""

from __future__ import annotations


import pytest

from engine.encounter import Encounter
from engine.errors import BadDiceValue
from engine.ruleset import RuleContext
from rulesets.classic_hg import damage, turn
from tests.rulesets.classic_hg.duel import (
    duel, initiative,
    ESCORT, RAIDER, TABLES, answer, attack, roll_for_effect, roll_for_general, ship, to_hit,
    to_intercept,
)
from tests.rulesets.classic_hg.test_effects import strike
from tests.rulesets.scripted import mods, refused






def corsairs_attack(enc: Encounter) -> None:
    initiative(enc, "1", "5")  # 1 + 2 = 3 against 5: the Corsairs are ATTACKER, won by 2: no surprise
    assert enc.state["attacker"] == "cor" and enc.state["surprised"] == ""


def imperials_attack(enc: Encounter) -> None:
    initiative(enc, "4", "4")  # 4 + 2 = 6 against 4: the Imperials are ATTACKER, won by 2: no surprise
    assert enc.state["attacker"] == "imp" and enc.state["surprised"] == ""


def jackal_missile_hits(enc: Encounter) -> None:
    """The Jackal's two racks each launch an HE missile; the first hits (A1), the second misses."""
    enc.act("fire", ship="jackal", turrets=["T1"], target="vigilant")
    answer(enc, "To hit: Jackal T1 HE missile x1 (1 of 2)", "12")
    answer(enc, "To hit: Jackal T1 HE missile x1 (2 of 2)", "2")
    assert [a["id"] for a in enc.state["attacks"] if a["status"] == "hit"] == ["A1"]


# --- armor (line 49) --------------------------------------------------------------------------------

def test_the_scouts_armor_counts_the_hits_it_stopped_whatever_the_size_of_each_attack() -> None:
    """classic-hg-combat.txt:49: "Ship's armor absorbs 1 point per factor per hit ... Those hits stopped by the
    armor are taken against the armor itself. A ship can receive hits equal to its tonnage/10 before its armor
    is reduced by a factor of 1. For example: If a 100 ton Scout was armored to factor 3, 10 hits would reduce
    the armor to factor 2, 20 hits would reduce it to factor 1, and 30 hits would reduce its armor factor to 0."

    Worked by hand with attacks of 6 points each: factor 3 stops 3 an attack, so the 4th attack brings the
    stopped hits to 12 (past 10): factor 2. Factor 2 stops 2 an attack: the 8th brings them to 12 + 8 = 20:
    factor 1. Factor 1 stops 1 an attack: the 18th brings them to 20 + 10 = 30: factor 0, and the 19th goes
    through whole."""
    scout = {"tonnage": 100, "armor_factor": 3, "armor_hits": 0}
    seen = []
    for _ in range(19):
        stopped, through, _lost = damage.absorb(scout, 6)
        seen.append((stopped, through, scout["armor_factor"]))
    assert seen[:4] == [(3, 3, 3)] * 3 + [(3, 3, 2)]
    assert seen[4:8] == [(2, 4, 2)] * 3 + [(2, 4, 1)]
    assert seen[8:18] == [(1, 5, 1)] * 9 + [(1, 5, 0)]
    assert seen[18] == (0, 6, 0)
    assert sum(s for s, _, _ in seen) == 30


# --- range (line 21) ---------------------------------------------------------------------------------

def test_from_close_range_the_range_may_stay_or_open_one_step() -> None:
    """classic-hg-combat.txt:21: "the player with initiative elects to reduce range, remain at the current range
    or increase range. Range may be altered by one step only": from close, close or short, never long."""
    state = {"turn": 3, "step": 2, "over": "", "range": "close", "range_set": False, "attacker": "imp",
             "side_names": {"imp": "Imperial", "cor": "Corsairs"}}
    assert turn.range_choices(state) == ("close", "short")
    assert turn.may_set_range(state, {"side": "imp", "range": "long"}, None) == \
        "range 'long': from close the range may become close, short"
    assert turn.may_set_range(state, {"side": "imp", "range": "short"}, None) == ""
    turn.set_range(state, {"range": "short"}, None, RuleContext(1))
    assert state["range"] == "short"


# --- infinite repeaters (lines 11, 13) ------------------------------------------------------------------

def test_infinite_repeaters_fire_at_close_range_only_and_need_target() -> None:
    """classic-hg-combat.txt:11: "Infinite repeaters are used for close range attacks"; line 13: "Infinite
    repeaters require the TARGET program and use 2 energy points"."""
    enc = duel()
    imperials_attack(enc)
    refused(enc, "Infinite repeater cannot fire at long range", "fire", ship="vigilant", turrets=["T2"],
            target="jackal")
    enc.correct("range", "short", note="test: the ships have closed")
    refused(enc, "Infinite repeater cannot fire at short range", "fire", ship="vigilant", turrets=["T2"],
            target="jackal")
    enc.correct("range", "close", note="test: the ships have closed")
    enc.correct("ships.vigilant.programs", ["LAUNCH", "ANTI-MISSILE II", "INTERCEPT"], note="test: no TARGET")
    refused(enc, "Infinite repeater needs the program TARGET loaded", "fire", ship="vigilant", turrets=["T2"],
            target="jackal")
    enc.correct("ships.vigilant.programs", ESCORT["programs"], note="test: TARGET back")
    enc.correct("ships.vigilant.power_plant", 0, note="test: no energy")
    refused(enc, "needs 2 energy points, 0 left", "fire", ship="vigilant", turrets=["T2"], target="jackal")
    enc.correct("ships.vigilant.power_plant", 6, note="test: 600 x 6 / 100 = 36 energy points")
    enc.act("fire", ship="vigilant", turrets=["T2"], target="jackal")
    answer(enc, "To hit: Vigilant T2 Infinite repeater x1", "12", target=f"{to_hit('infinite_repeater', 'close')}+")


def missile_to_intercept(program: str):
    """The Jackal's HE missile hits the Vigilant, whose computer runs TARGET, LAUNCH and ``program``; step 4, its
    defensive fire, is next."""
    enc = duel(escort={"programs": ["TARGET", "LAUNCH", program]})
    corsairs_attack(enc)
    jackal_missile_hits(enc)
    enc.act("next")
    return enc


def test_repeater_antimissile_fire_needs_missile_defense_or_anti_missile_ii() -> None:
    """classic-hg-combat.txt:13: "For antimissile fire, they use the program MISSILE DEFENSE ... A special
    program, ANTI-MISSILE II, is available that will allow both laser and infinite repeater antimissile fire from
    the same program." With MISSILE DEFENSE alone the repeater intercepts and the beam lasers cannot; with the
    lasers' own ANTI-MISSILE alone it is the other way round."""
    enc = missile_to_intercept("MISSILE DEFENSE")
    refused(enc, "cannot intercept a HE missile", "defend", ship="vigilant", turret="T1", attack="A1")
    enc.act("defend", ship="vigilant", turret="T2", attack="A1")
    assert mods(enc) == {"Gunnery": 1}
    needed = to_intercept("infinite_repeater", "missile_he")
    answer(enc, "Intercept A1: Vigilant T2 Infinite repeater antimissile fire", str(needed - 1), target=f"{needed}+")
    assert attack(enc, "A1")["status"] == "intercepted"  # equals the number: intercepted

    enc = missile_to_intercept("ANTI-MISSILE")
    refused(enc, "cannot intercept a HE missile", "defend", ship="vigilant", turret="T2", attack="A1")
    enc.act("defend", ship="vigilant", turret="T1", attack="A1")
    answer(enc, "Intercept A1: Vigilant T1 Beam laser antimissile fire", "2",
           target=f"{to_intercept('beam_laser', 'missile_he')}+")


# --- torpedoes and AM missiles (lines 3, 5) ------------------------------------------------------------

def test_sand_cannot_touch_a_torpedo_but_an_am_missile_can_stop_one() -> None:
    """classic-hg-combat.txt:5: torpedoes "can avoid sand, a thus are nit effected by it. Internal hardwired
    programming gives them the equivalent of the program AUTO EVADE"; line 3: AM missiles "are used to intercept
    incoming enemy missiles and torpedoes" and "may be fired from standard missile racks". The sandcaster is
    refused; the rack's AM missile rolls with its gunner's skill and the torpedo's AUTO EVADE, and spends one
    AM missile."""
    enc = duel()
    corsairs_attack(enc)
    enc.act("launch_torpedo", ship="jackal", target="vigilant", warhead="he")
    answer(enc, "To hit: Jackal tube 1 HE torpedo", "12")
    enc.act("next")
    refused(enc, "cannot intercept a HE torpedo", "defend", ship="vigilant", turret="T3", attack="A1")
    enc.act("defend", ship="vigilant", turret="T5", attack="A1")
    assert ship(enc, "vigilant")["am_missiles"] == 6 - 1
    evade = TABLES.programs["AUTO EVADE"]["evade_dm"]
    assert mods(enc) == {"Gunnery": 2, "HE torpedo AUTO EVADE": evade}
    needed = to_intercept("am_missile", "torpedo_he")
    answer(enc, "Intercept A1: Vigilant T5 Antimissile missile", str(needed - 2 - evade), target=f"{needed}+")
    assert attack(enc, "A1")["status"] == "intercepted"


# --- the fields (line 45) -------------------------------------------------------------------------------

def test_the_repulsor_acts_on_a_missile_and_the_damper_only_on_a_nuclear_attack() -> None:
    """classic-hg-combat.txt:45: "Repulsor and nuclear damper fields effect every incoming missile or nuclear
    attack". An HE missile is a missile, not a nuclear attack: the Vigilant's repulsor rolls against it and its
    nuclear damper does not."""
    enc = duel()
    corsairs_attack(enc)
    jackal_missile_hits(enc)
    enc.act("next")
    enc.act("next")  # leaving step 4 with nothing assigned: the fields act
    answer(enc, "Repulsor field: Vigilant against A1", "2", target=f"{to_intercept('repulsor', 'missile_he')}+")
    assert enc.pending is None  # no nuclear damper roll
    assert attack(enc, "A1")["status"] == "hit"


# --- spallation (lines 93, 104) -------------------------------------------------------------------------

def test_spaced_armor_leaves_an_automatic_spallation_automatic() -> None:
    """classic-hg-combat.txt:100 and 104: the Nuclear Missile row is "* * * 3+" at armor 0-3, "* Automatic Hit";
    "a DM of -3 to spallation attacks is applied if the ship is fitted with Spaced armor". A DM moves a roll;
    an automatic hit has none to move (our reading): a nuclear missile against spaced armor 2 spalls with no
    roll, and the next roll asked is the radiation's."""
    enc = duel()
    enc.correct("ships.jackal.armor_spaced", True, note="test: spaced armor")
    enc.correct("ships.jackal.armor_factor", 2, note="test: factor 2")
    imperials_attack(enc)
    enc.act("fire", ship="vigilant", turrets=["T4"], target="jackal", warhead="nuclear")
    answer(enc, "To hit: Vigilant T4 Nuclear missile x1", "12")
    enc.act("next")
    enc.act("next")
    enc.act("resolve_damage")
    assert attack(enc, "A1")["through"] == TABLES.weapons["missile_nuclear"]["damage"] - 2
    answer(enc, "General location: A1", roll_for_general("bridge"))
    assert [c["as"] for c in ship(enc, "jackal")["crew_attacks"]] == ["spallation"]
    answer(enc, "Specific location: A1", roll_for_effect("bridge", "sensors"))
    assert "Radiation" in enc.pending.purpose and not enc.pending.modifiers


# --- the turn sequence (lines 29, 39) -------------------------------------------------------------------

def test_a_turret_wrecked_in_step_5_cannot_fire_in_step_6() -> None:
    """classic-hg-combat.txt:27: "The damage effects are applied immediately"; line 29: "The DEFENDER fires any
    undamaged offensive weapon"; line 95: "One weapon in a turret is destroyed for each hit received". Six laser
    points against armor 4 put 2 hits through on the pulse laser turret of two: none is left to fire."""
    enc = duel()
    strike(enc, "weapons", "weapon", armor=4)  # 2 of the 6 points get through
    answer(enc, "Which turret or tube on Jackal", "2")
    assert [t["destroyed"] for t in ship(enc, "jackal")["turrets"]] == [0, 2, 0]
    enc.act("next")
    assert enc.state["step"] == 6
    refused(enc, "T2 has no working weapon", "fire", ship="jackal", turrets=["T2"], target="vigilant")


def test_with_simultaneous_initiative_the_defender_fires_before_its_damage_is_recorded() -> None:
    """classic-hg-combat.txt:39: "In the event of simultaneous initiative ... The DEFENDER does not record his
    damage or its effects until STEP 8." The same hit as above waits: in step 6 the Jackal's pulse laser turret
    still fires both lasers (damage times 2, line 47), and only in step 8 does the hit take them."""
    enc = duel()
    enc.correct("ships.jackal.armor_factor", 4, note="test: 2 of the 6 points get through")
    initiative(enc, "2", "4")  # 2 + 2 = 4 against 4
    assert enc.state["simultaneous"] and enc.state["attacker"] == "imp"
    enc.act("fire", ship="vigilant", turrets=["T1"], target="jackal")
    answer(enc, "To hit: Vigilant T1 Beam laser x3", "12")
    enc.act("next")
    enc.act("next")
    assert enc.state["step"] == 5 and enc.checklist()[4].status == "skipped"
    enc.act("next")
    enc.act("fire", ship="jackal", turrets=["T2"], target="vigilant")
    answer(enc, "To hit: Jackal T2 Pulse laser x2", "12")
    assert attack(enc, "A2")["damage"] == 2 * TABLES.weapons["pulse_laser"]["damage"]
    enc.act("next")
    enc.act("next")  # no interception; the Vigilant's fields do not act on lasers
    assert enc.state["step"] == 8
    enc.act("resolve_damage")
    answer(enc, "General location: A1", roll_for_general("weapons"))
    answer(enc, "Specific location: A1", roll_for_effect("weapons", "weapon"))
    answer(enc, "Which turret or tube on Jackal", "2")
    assert [t["destroyed"] for t in ship(enc, "jackal")["turrets"]] == [0, 2, 0]
    assert "General location: A2" in enc.pending.purpose  # then the Vigilant records its own


# --- initiative (line 19) -------------------------------------------------------------------------------

def test_initiative_is_one_die_plus_tactics_and_a_margin_of_3_surprises() -> None:
    """classic-hg-combat.txt:19: "Each Captain rolls 1D, adding Ship's Tactics as a +DM. The Captain with the
    higher roll has the initiative ... three or better above his adversary ... receives one turn of surprise".
    The Vigilant's captain rolls 1D + 2 (a 7 cannot be typed on one die); the Jackal's 1D + 0. 4 + 2 = 6 against
    3 is three above: the Corsairs are surprised on the initial encounter."""
    enc = duel()
    enc.act("roll_initiative")
    assert enc.pending.dice == "1D" and mods(enc) == {"Tactics": 2}
    with pytest.raises(BadDiceValue, match="type 1 to 6"):
        enc.type_roll("7")
    answer(enc, "Initiative: Imperial Navy", "4")
    assert enc.pending.dice == "1D" and not enc.pending.modifiers
    answer(enc, "Initiative: Corsairs", "3")
    assert enc.state["initiative"] == {"imp": 6, "cor": 3}
    assert (enc.state["attacker"], enc.state["defender"], enc.state["surprised"]) == ("imp", "cor", "cor")


# --- fire control (line 71) -----------------------------------------------------------------------------

def test_a_gunner_tracking_by_hand_cannot_choose_the_location_by_program() -> None:
    """classic-hg-combat.txt:71: "The fire control system for 1 turret has been disabled. The gunner loses all
    computer enhancement and must track targets manually. DM -4 + Gunnery skill." Line 51: "If selective fire was
    used, then the general location will have already been determined": choosing it is the SELECTIVE program's
    work, a computer enhancement. The Jackal's pulse laser turret, its fire control shot out, may fire (at DM -4
    + Gunnery 1) but not selectively; its racks, still tracked, may, at SELECTIVE's DM."""
    enc = duel({"programs": RAIDER["programs"] + ["SELECTIVE"]})
    strike(enc, "weapons", "fire_control", armor=5)  # one of the 6 laser points gets through
    answer(enc, "Which turret's or tube's fire control on Jackal", "2")
    enc.act("next")
    assert enc.state["step"] == 6
    refused(enc, "T2 tracks by hand", "fire", ship="jackal", turrets=["T2"], target="vigilant",
            location="bridge")
    refused(enc, "T2 tracks by hand", "fire", ship="jackal", turrets=["T1", "T2"], target="vigilant",
            location="bridge")
    enc.act("fire", ship="jackal", turrets=["T1"], target="vigilant", location="bridge")
    assert mods(enc) == {"Gunnery": 1, "SELECTIVE": TABLES.programs["SELECTIVE"]["to_hit_dm"]}
    answer(enc, "To hit: Jackal T1 HE missile x1 (1 of 2)", "2")
    answer(enc, "To hit: Jackal T1 HE missile x1 (2 of 2)", "2")
    enc.act("fire", ship="jackal", turrets=["T2"], target="vigilant")
    assert mods(enc) == {"Gunnery": 1, "Fire control out": -4}
