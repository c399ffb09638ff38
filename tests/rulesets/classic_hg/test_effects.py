"""The damage effects of ``classic-hg-combat.txt``, one test per effect, every die typed.

Most tests fight the real duel: the Imperial escort Vigilant wins initiative
(by two, so nobody is surprised), fires at the corsair Jackal in step 3, the
corsair does not intercept, and step 5 records the damage with typed general
and specific location rolls. The Jackal's armor is set by a game master's
correction (``enc.correct``) to shape how many hits get through: the beam
laser turret (three lasers, 2 points each) puts 6 points on the ship, so armor
4 lets 2 hits through and armor 5 lets 1 through. Each test quotes the
sentence of the text it checks.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.encounter import Encounter
from engine.errors import IllegalAction
from engine.ruleset import RuleContext
from rulesets.classic_hg import RULESET, damage
from rulesets.classic_hg.ships import ship_state
from tests.rulesets.classic_hg.duel import (
    duel, initiative,
    ESCORT, RAIDER, TABLES, answer, roll_for_effect, roll_for_general, to_hit,
)

LASER_POINTS = TABLES.weapons["beam_laser"]["damage"] * 3  # Vigilant T1: three beam lasers




def jackal(enc: Encounter) -> dict:
    return enc.state["ships"]["jackal"]  # re-read after every event: the state is replaced


def mods(enc: Encounter) -> dict[str, int]:
    return {m.source: m.value for m in enc.pending.modifiers}


def imperial_initiative(enc: Encounter, armor: int | None = None) -> None:
    """Turn 1, steps 1-2: Vigilant 4 + Tactics 2 = 6 against the corsair's 4 (no surprise), long range."""
    if armor is not None:
        enc.correct("ships.jackal.armor_factor", armor, note="test: armor shapes the hits that get through")
    enc.act("roll_initiative")
    answer(enc, "Initiative: Imperial Navy", "4")
    answer(enc, "Initiative: Corsairs", "4")
    assert enc.state["attacker"] == "imp" and enc.state["surprised"] == ""
    enc.act("next")
    enc.act("next")
    assert enc.state["step"] == 3


def vigilant_hits(enc: Encounter, turret: str = "T1", warhead: str = "he") -> None:
    """Step 3 fire that hits (a typed 12), step 4 without interception, step 5 begins the damage."""
    enc.act("fire", ship="vigilant", turrets=[turret], target="jackal", warhead=warhead)
    answer(enc, f"To hit: Vigilant {turret}", "12")
    enc.act("next")
    enc.act("next")
    assert enc.state["step"] == 5
    enc.act("resolve_damage")


def strike(enc: Encounter, general: str, effect: str, armor: int | None = None, turret: str = "T1",
           warhead: str = "he") -> None:
    """Vigilant hits the Jackal on ``general`` / ``effect`` (typed location rolls)."""
    imperial_initiative(enc, armor)
    vigilant_hits(enc, turret, warhead)
    answer(enc, "General location: A1", roll_for_general(general))
    answer(enc, "Specific location: A1", roll_for_effect(general, effect))
    assert enc.state["attacks"][0]["effect"] == effect


def through(enc: Encounter) -> int:
    return enc.state["attacks"][0]["through"]


# --- the effects, Cargo to Weapon --------------------------------------------------------------

def test_cargo_one_ton_per_hit() -> None:
    """Cargo: "The ship has been hit in the cargo bay. Each hit destroys 1 ton of cargo." """
    enc = duel()
    strike(enc, "hold", "cargo", armor=4)
    assert through(enc) == LASER_POINTS - 4 == 2
    assert jackal(enc)["cargo"] == 60 - 2
    assert enc.pending is None


def test_computer_minus_one_per_hit() -> None:
    """Computer: "Reduce the effective computer factor by 1 for each hit received." """
    enc = duel({"computer_model": 5})
    assert jackal(enc)["computer"] == 5
    strike(enc, "bridge", "computer", armor=4)
    assert through(enc) == 2
    assert jackal(enc)["computer"] == 5 - 2
    assert jackal(enc)["controls"] == 6 and jackal(enc)["sensors"] == 5  # only the computer is hit


def test_controls_start_at_computer_plus_one_and_lose_one_per_hit() -> None:
    """Controls: "Each hit reduces the control factor by 1. Ships have controls equal to the computer
    factor plus one." """
    enc = duel({"computer_model": 5})
    assert jackal(enc)["controls"] == 5 + 1
    assert enc.state["ships"]["vigilant"]["controls"] == ESCORT["computer_model"] + 1
    strike(enc, "bridge", "controls", armor=4)
    assert jackal(enc)["controls"] == 6 - 2
    assert jackal(enc)["computer"] == 5


@pytest.mark.parametrize("turret,weapon,key,equivalent,rng", [
    ("T1", "beam_laser", "laser", "laser rifle at medium range", "long"),
    ("T4", "missile_he", "missile_he", "LAG with HE at medium range", "long"),
    ("T2", "infinite_repeater", "infinite_repeater", "shotgun at medium range", "close"),
])
def test_crew_attacked_by_the_weapons_personal_equivalent(turret: str, weapon: str, key: str, equivalent: str,
                                                           rng: str) -> None:
    """Crew: "The crew in the general location have been attacked. Determine the to hit and damage
    according to the weapon." ("Laser: Treat as laser rifle at medium range", "HE Missiles: Treat as
    LAG with HE at medium range", "Infinite Repeater: Treat as shotgun at medium range")."""
    enc = duel()
    if rng != "long":
        enc.correct("range", rng, note="test: infinite repeaters fire only at close range")
    strike(enc, "bridge", "crew", turret=turret)
    assert enc.state["attacks"][0]["weapon"] == weapon
    record = jackal(enc)["crew_attacks"][-1]
    assert record == {"turn": 1, "attack": "A1", "location": "bridge", "who": "2 crew in the bridge",
                      "as": key, "result": ""}
    assert TABLES.crew_attacks[record["as"]]["equivalent"] == equivalent
    assert jackal(enc)["crew"]["bridge"] == 2  # recorded for personal combat, not resolved here


def _nuclear_missile_on_the_bridge_crew(enc: Encounter) -> None:
    """Vigilant's nuclear missile on the unarmored Jackal's bridge, up to the crew roll."""
    strike(enc, "bridge", "crew", turret="T4", warhead="nuclear")
    assert enc.state["attacks"][0]["weapon"] == "missile_nuclear"


@pytest.mark.parametrize("roll,killed", [("8", True), ("7", False), ("12", True), ("2", False)])
def test_crew_nuclear_missile_killed_on_8_otherwise_two_attributes(roll: str, killed: bool) -> None:
    """Crew: "Nuclear Missile: Crew killed on a 8 (2D), otherwise 2 attributes reduced to 0." """
    enc = duel()
    _nuclear_missile_on_the_bridge_crew(enc)
    assert enc.pending.then == "nuclear_crew"
    req = answer(enc, "Jackal", roll, target="8+")
    assert req.dice == "2D" and not req.modifiers
    record = jackal(enc)["crew_attacks"][-1]
    if killed:
        assert jackal(enc)["crew"]["bridge"] == 0
        assert record["as"] == "killed" and record["result"] == "killed" and record["location"] == "bridge"
    else:
        assert jackal(enc)["crew"]["bridge"] == 2
        assert record["as"] == "missile_nuclear" and record["result"] == "2 attributes reduced to 0"
    # the radiation that comes with the nuclear missile follows
    answer(enc, "Radiation: damage to 2 crew in the bridge", "3")
    answer(enc, "Radiation: days until death", "4")
    assert enc.pending is None


def test_crew_nuclear_torpedo_kills_without_a_roll() -> None:
    """Crew: "Nuclear Torpedo: Crew killed." (no roll, unlike the nuclear missile)"""
    enc = duel(escort={"torpedo_tubes": 1,
                       "programs": ESCORT["programs"] + ["TORPEDO LAUNCH"]})
    imperial_initiative(enc)
    enc.act("launch_torpedo", ship="vigilant", target="jackal", warhead="nuclear")
    answer(enc, "To hit: Vigilant tube 1 Nuclear torpedo", "12", target=f"{to_hit('torpedo_nuclear', 'long')}+")
    enc.act("next")
    enc.act("next")
    enc.act("resolve_damage")
    answer(enc, "General location: A1", roll_for_general("bridge"))
    answer(enc, "Specific location: A1", roll_for_effect("bridge", "crew"))
    assert jackal(enc)["crew"]["bridge"] == 0
    assert jackal(enc)["crew_attacks"][-1] == {"turn": 1, "attack": "A1", "location": "bridge",
                                               "who": "2 crew in the bridge", "as": "killed", "result": "killed"}
    assert "Radiation" in enc.pending.purpose  # the next roll is the radiation's, no kill roll was asked


@pytest.mark.parametrize("weapon", ["missile_nuclear", "torpedo_nuclear"])
def test_crew_hit_by_a_nuclear_weapon_where_no_crew_stand(weapon: str) -> None:
    """Crew: "The crew in the general location have been attacked." The Jackal has no crew in its hold:
    a laser's crew hit there attacks nobody (nothing is recorded); a nuclear missile's or torpedo's
    should not ask for a kill roll against nobody, nor record "0 crew" as killed."""
    escort = {"torpedo_tubes": 1, "programs": ESCORT["programs"] + ["TORPEDO LAUNCH"]}
    enc = duel(escort=escort)
    assert "hold" not in jackal(enc)["crew"]
    imperial_initiative(enc)
    if weapon == "missile_nuclear":
        enc.act("fire", ship="vigilant", turrets=["T4"], target="jackal", warhead="nuclear")
    else:
        enc.act("launch_torpedo", ship="vigilant", target="jackal", warhead="nuclear")
    answer(enc, "To hit: Vigilant", "12")
    enc.act("next")
    enc.act("next")
    enc.act("resolve_damage")
    answer(enc, "General location: A1", roll_for_general("hold"))
    answer(enc, "Specific location: A1", roll_for_effect("hold", "crew"))
    assert enc.state["attacks"][0]["weapon"] == weapon
    assert enc.pending is None, f"a roll against no crew: {enc.pending.describe()}"
    assert jackal(enc)["crew_attacks"] == []


def test_fire_control_hit_leaves_gunnery_minus_four_and_no_program_dm() -> None:
    """Fire Control: "The fire control system for 1 turret has been disabled. The gunner loses all
    computer enhancement and must track targets manually. DM -4 + Gunnery skill." """
    enc = duel({"programs": RAIDER["programs"] + ["PREDICT-1"]})
    strike(enc, "weapons", "fire_control")
    answer(enc, "Which turret's or tube's fire control on Jackal", "2")  # 1d4: three turrets, one tube
    assert [t["fire_control"] for t in jackal(enc)["turrets"]] == [True, False, True]
    enc.act("next")
    assert enc.state["step"] == 6
    enc.act("fire", ship="jackal", turrets=["T2"], target="vigilant")
    assert mods(enc) == {"Gunnery": 1, "Fire control out": -4}  # no PREDICT-1
    answer(enc, "To hit: Jackal T2 Pulse laser", "2")
    enc.act("fire", ship="jackal", turrets=["T1"], target="vigilant")
    assert mods(enc) == {"Gunnery": 1, "PREDICT-1": 1}  # a turret with fire control keeps the program DM


def test_a_gunner_tracking_by_hand_fires_without_the_computer_s_program() -> None:
    """Fire Control: the gunner "loses all computer enhancement and must track targets manually": the computer's
    TARGET program is not asked of the pulse lasers fired by hand, while the missile rack the computer still
    tracks for needs LAUNCH."""
    enc = duel()
    strike(enc, "weapons", "fire_control")
    answer(enc, "Which turret's or tube's fire control on Jackal", "2")
    unloaded = [p for p in jackal(enc)["programs"] if p not in ("TARGET", "LAUNCH")]
    enc.correct("ships.jackal.programs", unloaded, note="unloaded")
    enc.act("next")
    assert enc.state["step"] == 6
    with pytest.raises(IllegalAction, match="needs the program LAUNCH loaded"):
        enc.act("fire", ship="jackal", turrets=["T1"], target="vigilant")
    enc.act("fire", ship="jackal", turrets=["T2"], target="vigilant")
    assert mods(enc) == {"Gunnery": 1, "Fire control out": -4}


def test_fuel_one_ton_per_hit() -> None:
    """Fuel: "1 ton of fuel is lost per hit inflicted." """
    enc = duel()
    strike(enc, "fuel_tanks", "fuel", armor=4)
    assert jackal(enc)["fuel"] == 80 - 2


@pytest.mark.parametrize("scoops", [False, True])
def test_fuel_scoops_destroyed_or_a_fuel_hit_without_them(scoops: bool) -> None:
    """Fuel Scoops: "The sip's fuel scoops have been destroyed. If there are no fuel scoops mounted on
    this ship, treat this as a fuel hit." """
    enc = duel({"fuel_scoops": scoops})
    strike(enc, "fuel_tanks", "fuel_scoops", armor=4)
    assert jackal(enc)["fuel_scoops"] is False
    assert jackal(enc)["fuel"] == (80 if scoops else 80 - 2)


@pytest.mark.parametrize("armor,craft,statuses", [
    (5, [10, 10], ["destroyed", "disabled"]),            # 1 hit: 10 tons
    (4, [10, 10, 10], ["destroyed", "destroyed", "disabled"]),  # 2 hits: 20 tons
    # the 10 tons are destroyed whatever order the bay lists its craft in: a craft too big for what is left
    # does not stop a smaller one behind it (found by an audit: a 20-ton launch listed first saved the gig)
    (5, [20, 10], ["disabled", "destroyed"]),
    (4, [6, 10, 20], ["disabled", "disabled", "destroyed"]),  # 20 tons: the largest that fits first
    (4, [6, 10, 4], ["destroyed", "destroyed", "destroyed"]),
])
def test_hangar_destroys_ten_tons_of_small_craft_per_hit_and_disables_the_rest(
        armor: int, craft: list[int], statuses: list[str]) -> None:
    """Hangerage: "The target ship may not launch or recover small craft suing the damaged hanger. In
    addition each hit will destroy 10 tons of small craft. Small craft not destroyed are disabled." """
    names = ["Gig", "Pinnace", "Cutter"][:len(craft)]
    enc = duel({"hangars": [{"name": "Boat bay", "small_craft": [{"name": n, "tons": t}
                                                               for n, t in zip(names, craft)]}]})
    strike(enc, "hangar", "hangar", armor=armor)
    assert through(enc) == LASER_POINTS - armor
    bay = jackal(enc)["hangars"][0]
    assert bay["damaged"] is True
    assert [c["status"] for c in bay["small_craft"]] == statuses


def test_jump_drive_minus_one_per_hit() -> None:
    """Jump Drive: "Reduce the jump drive factor by 1 for each hit received." """
    enc = duel({"jump": 3})
    strike(enc, "engineering", "jump_drive", armor=4)
    assert jackal(enc)["jump"] == 3 - 2
    assert jackal(enc)["maneuver"] == 3 and jackal(enc)["power_plant"] == 3


def test_maneuver_drive_minus_one_per_hit() -> None:
    """Maneuver Drive: "Reduce the maneuver drive by 1 factor for each hit received." """
    enc = duel()
    strike(enc, "engineering", "maneuver_drive", armor=4)
    assert jackal(enc)["maneuver"] == 3 - 2
    assert jackal(enc)["jump"] == 2 and jackal(enc)["power_plant"] == 3


def test_power_plant_hit_caps_maneuver_and_jump() -> None:
    """Power Plant: "Reduce power plant factor by 1 for each hit received. Maneuver and jump may not
    exceed the power plant factor." """
    enc = duel({"maneuver": 3, "jump": 2, "power_plant": 3})
    strike(enc, "engineering", "power_plant", armor=4)
    j = jackal(enc)
    assert j["power_plant"] == 3 - 2
    assert j["maneuver"] == 1 and j["jump"] == 1


@pytest.mark.parametrize("plant", [False, True])
def test_purification_destroyed_or_a_fuel_hit_without_a_plant(plant: bool) -> None:
    """Purification: "The ship's purification plant has been destroyed. If there is no purification plant
    installed, treat this hit as fuel." """
    enc = duel({"purification_plant": plant})
    strike(enc, "engineering", "purification", armor=4)
    assert jackal(enc)["purification_plant"] is False
    assert jackal(enc)["fuel"] == (80 if plant else 80 - 2)


@pytest.mark.parametrize("general,effect,field,words", [
    ("engineering", "purification", "purification_plant", "no purification plant: a fuel hit"),
    ("fuel_tanks", "fuel_scoops", "fuel_scoops", "no fuel scoops: a fuel hit"),
])
def test_a_fuel_hit_in_place_of_a_missing_plant_or_scoops_says_why(general: str, effect: str, field: str,
                                                                   words: str) -> None:
    """Purification and Fuel Scoops: "If there is no purification plant installed, treat this hit as fuel", "If
    there are no fuel scoops mounted on this ship, treat this as a fuel hit". Found by a game master's drive: the
    prompt listed 10 as purification, and the log then read only "fuel -5 tons", with no word of why."""
    enc = duel({field: False})
    strike(enc, general, effect, armor=4)
    assert f"Jackal: {words}, fuel -2 tons (now 78 tons)" in enc.events[-1].notes


@pytest.mark.parametrize("pick,occupied", [("2", True), ("1", False)])
def test_quarters_destroys_one_random_room_and_attacks_its_occupant(pick: str, occupied: bool) -> None:
    """Quarters: "One random quarters or stateroom has been hit (this includes low berths). If occupied,
    the inhabitant is subjected to a Crew attack. All fixtures and possessions in the room are
    destroyed." """
    enc = duel({"occupants": [{"name": "Navigator Oskar Venn", "berth": "stateroom 2"}]})
    strike(enc, "quarters", "quarters")
    assert RULESET.roll_help(enc.state, enc.pending) == [  # what each face finds, under the prompt
        "Finds: " + " · ".join([f"{n} stateroom {n}" for n in range(1, 7)] + [f"{n} low {n - 6}" for n in range(7, 11)])]
    req = answer(enc, "Which stateroom or berth on Jackal", pick)
    assert req.dice == "1d10"  # 6 staterooms and 4 low berths
    rooms = jackal(enc)["quarters"]
    assert [r["destroyed"] for r in rooms] == [r["berth"] == f"stateroom {pick}" for r in rooms]
    if occupied:
        assert jackal(enc)["crew_attacks"] == [{"turn": 1, "attack": "A1", "location": "quarters",
                                                "who": "Navigator Oskar Venn", "as": "laser", "result": ""}]
    else:
        assert jackal(enc)["crew_attacks"] == []
    assert jackal(enc)["crew"]["quarters"] == 4  # the quarters' crew are not attacked


@pytest.mark.parametrize("fib,roll,computer", [(False, "4", 1), (True, "12", 2)])
def test_radiation_computer_hit_and_crew_damage(fib: bool, roll: str, computer: int) -> None:
    """Radiation: "Roll on the radiation table. If the roll equals of exceeds the required number then
    the computer takes o1 additional hit (ignore this if the computer has fiber optic backup). In
    addition, all crew in the general location hit take 1D damage immediately, and will die in 1D
    days if they do not receive antiradiation treatments." """
    enc = duel({"computer_fib": fib})
    strike(enc, "bridge", "sensors", armor=3, turret="T4", warhead="nuclear")
    assert through(enc) == TABLES.weapons["missile_nuclear"]["damage"] - 3
    answer(enc, "Spallation: A1", "2", target="3+")  # nuclear missile against armor 3: 3+; 2 misses
    answer(enc, "Radiation: A1 against Jackal's computer and crew", roll, target=f"{TABLES.radiation[3]}+")
    assert jackal(enc)["computer"] == computer
    answer(enc, "Radiation: damage to 2 crew in the bridge", "5")
    answer(enc, "Radiation: days until death", "3")
    assert jackal(enc)["radiation"] == [{"turn": 1, "attack": "A1", "location": "bridge", "crew": 2,
                                         "damage": 5, "dies_in_days": 3}]
    assert enc.pending is None


def test_radiation_that_misses_on_the_table_spares_the_crew_too() -> None:
    """Radiation reads like spallation (issue 10): "Roll on the radiation table. If the roll equals of
    exceeds the required number then the computer takes o1 additional hit ... In addition, all crew in
    the general location hit take 1D". A roll under the number (3 against 4+ at armor 3) attacks
    neither the computer nor the crew: no 1D, no days."""
    enc = duel()
    strike(enc, "bridge", "sensors", armor=3, turret="T4", warhead="nuclear")
    answer(enc, "Spallation: A1", "2", target="3+")
    answer(enc, "Radiation: A1 against Jackal's computer and crew", "3", target=f"{TABLES.radiation[3]}+")
    assert enc.pending is None
    assert jackal(enc)["computer"] == RAIDER["computer_model"]
    assert jackal(enc)["radiation"] == []


def test_no_radiation_where_the_table_says_no() -> None:
    """Radiation table at armor 12: "no" (shipped default). An HE torpedo does no radiation; a nuclear
    one (18 points) gets 6 through armor 12, but no radiation roll is asked and the crew are untouched."""
    assert TABLES.radiation[12] == "no"
    escort = {"torpedo_tubes": 1, "programs": ESCORT["programs"] + ["TORPEDO LAUNCH"]}
    enc = duel(escort=escort)
    imperial_initiative(enc, armor=12)
    enc.act("launch_torpedo", ship="vigilant", target="jackal", warhead="nuclear")
    answer(enc, "To hit: Vigilant tube 1", "12")
    enc.act("next")
    enc.act("next")
    enc.act("resolve_damage")
    assert through(enc) == 18 - 12
    answer(enc, "General location: A1", roll_for_general("hold"))
    answer(enc, "Specific location: A1", roll_for_effect("hold", "cargo"))
    assert enc.pending is None  # the Nuclear Torpedo spallation row ends at armor 7 (10+): "no" at 12
    assert jackal(enc)["radiation"] == [] and jackal(enc)["computer"] == RAIDER["computer_model"]


def test_sensors_equal_the_computer_doubled_on_naval_ships_and_lose_one_per_hit() -> None:
    """Sensors: "Reduce sensors by 1 factor for each hit received. Ships have sensors equal to their
    computer factor. Naval vessels will have double the amount of sensors." """
    assert duel().state["ships"]["jackal"]["sensors"] == RAIDER["computer_model"]  # not naval
    enc = duel({"naval": True})
    assert jackal(enc)["sensors"] == 2 * RAIDER["computer_model"]
    assert enc.state["ships"]["vigilant"]["sensors"] == 2 * ESCORT["computer_model"]
    strike(enc, "bridge", "sensors", armor=4)
    assert jackal(enc)["sensors"] == 4 - 2
    assert jackal(enc)["computer"] == 2


@pytest.mark.parametrize("armor,spaced,target,dms,roll,spalls", [
    (0, False, None, {}, None, True),                    # "*": automatic
    (1, False, "3+", {}, "3", True),
    (2, False, "5+", {}, "5", True),
    (2, False, "5+", {}, "4", False),
    (2, True, "5+", {"Spaced armor": -3}, "7", False),   # 7 - 3 = 4
    (2, True, "5+", {"Spaced armor": -3}, "8", True),    # 8 - 3 = 5
    (4, False, "10+", {}, "10", True),
    (5, False, None, {}, None, False),                   # "No"
])
def test_spallation_by_the_texts_table(armor: int, spaced: bool, target: str | None, dms: dict, roll: str | None,
                                       spalls: bool) -> None:
    """Spallation: "Weapons which do spallation damage receive automatic spallation attacks against
    crew in the general location hit ... Roll on the spallation table, If the roll equals or exceeds the
    required number, spallation has occurred. Treat spallation as shotgun at medium range." The table's
    HE Missile row: * 3+ 5+ 7+ 10+ No; "NOTE: a DM of -3 to spallation attacks is applied if the ship is
    fitted with Spaced armor." """
    enc = duel()
    if spaced:
        enc.correct("ships.jackal.armor_spaced", True)
    strike(enc, "bridge", "sensors", armor=armor, turret="T4")
    if target is None:
        assert enc.pending is None  # automatic or none: no roll
    else:
        assert mods(enc) == dms
        answer(enc, "Spallation: A1 on Jackal", roll, target=target)
        assert enc.pending is None
    spall = [c for c in jackal(enc)["crew_attacks"] if c["as"] == "spallation"]
    if spalls:
        assert spall == [{"turn": 1, "attack": "A1", "location": "bridge", "who": "2 crew in the bridge",
                          "as": "spallation", "result": ""}]
        assert TABLES.crew_attacks["spallation"]["equivalent"] == "shotgun at medium range"
    else:
        assert spall == []


def test_armor_that_stops_every_point_leaves_no_spallation() -> None:
    """"If there are enough damage points to penetrate the armor, ot the ship is not fitted with armor,
    the effects of the damage table are determined." One repeater (4 points) against armor 5 gets
    nothing through: no general location is rolled, and the Infinite Repeater row's 10+ at armor 5 is
    never asked (issue 10)."""
    enc = duel()
    enc.correct("range", "close", note="test: infinite repeaters fire only at close range")
    imperial_initiative(enc, armor=5)
    vigilant_hits(enc, "T2")
    assert through(enc) == 0
    assert enc.pending is None
    assert jackal(enc)["crew_attacks"] == []


def test_a_nuclear_missile_stopped_by_armor_15_does_not_touch_the_crew() -> None:
    """Issue 10: "today a nuclear missile against armor 15 still gives the crew 1D damage". Twelve
    points against armor 15: armor stops all, so no location, no radiation, no spallation (the table's
    Nuclear Missile row runs out at armor 7 with 12+); the armor takes the 12 hits."""
    enc = duel()
    imperial_initiative(enc, armor=15)
    vigilant_hits(enc, "T4", warhead="nuclear")
    assert through(enc) == 0
    assert enc.pending is None
    assert jackal(enc)["radiation"] == [] and jackal(enc)["crew_attacks"] == []
    assert jackal(enc)["computer"] == RAIDER["computer_model"]
    assert jackal(enc)["armor_hits"] == 12  # 400 tons: a factor is lost every 40 hits


def test_no_roll_when_the_armor_stops_everything_and_no_spallation_is_allowed() -> None:
    """"If there are enough damage points to penetrate the armor, ot the ship is not fitted with armor,
    the effects of the damage table are determined. First, roll on the general location table." An HE
    missile (6 points) against armor 6 gets nothing through, and the spallation table's HE Missile row
    says "No" at armor 6: there is nothing for a general location roll to decide."""
    enc = duel()
    imperial_initiative(enc, armor=6)
    vigilant_hits(enc, "T4")
    assert through(enc) == 0
    assert enc.pending is None, f"a roll that decides nothing is asked for: {enc.pending.purpose!r}"
    assert jackal(enc)["crew_attacks"] == []


def test_the_nuclear_missile_crew_roll_names_the_weapon() -> None:
    """Crew: "Nuclear Missile: Crew killed on a 8 (2D)". The roll the referee is asked to make should
    say what it is for; the crew_attacks entry has no personal-combat equivalent (equivalent = ""), so
    the purpose must fall back on the weapon, not begin with an empty name."""
    enc = duel()
    _nuclear_missile_on_the_bridge_crew(enc)
    purpose = enc.pending.purpose
    assert enc.pending.then == "nuclear_crew"
    assert "crew" in purpose and "Jackal" in purpose, purpose
    assert not purpose.startswith(":") and "nuclear" in purpose.lower(), purpose


def test_weapon_one_weapon_in_a_turret_per_hit() -> None:
    """Weapon: "One of the ship's weapons has been destroyed. One weapon in a turret is destroyed for
    each hit received." """
    enc = duel()
    strike(enc, "weapons", "weapon", armor=5)
    answer(enc, "Which turret or tube on Jackal", "2")  # 1d4: missiles, pulse lasers, sand, tube 1
    assert [t["destroyed"] for t in jackal(enc)["turrets"]] == [0, 1, 0]
    enc.act("next")
    enc.act("fire", ship="jackal", turrets=["T2"], target="vigilant")
    answer(enc, "To hit: Jackal T2 Pulse laser x1", "12")  # one laser of two left
    assert enc.state["attacks"][-1]["damage"] == TABLES.weapons["pulse_laser"]["damage"]


def test_a_weapon_hit_on_a_ship_of_more_than_a_thousand_turrets_can_be_rolled() -> None:
    """Weapon: "One of the ship's weapons has been destroyed": a 200,000-ton ship with 1,001 turrets asks which
    on 1d1001, and the built-in dice and a typed roll both answer it (a die was held to 1,000 faces, and such
    a fight could go on only by undoing the hit)."""
    big = {"tonnage": 200_000, "turrets": [{"weapon": "sandcaster", "count": 1} for _ in range(1001)],
           "torpedo_tubes": 0}
    for answer_it in (lambda e: e.roll(), lambda e: e.type_roll("1001")):
        enc = duel(raider=big)
        strike(enc, "weapons", "weapon", armor=5)
        assert enc.pending.dice == "1d1001" and enc.pending.target is None
        answer_it(enc)
        assert enc.pending is None
        assert sum(t["destroyed"] for t in jackal(enc)["turrets"]) == 1
    assert jackal(enc)["turrets"][-1]["destroyed"] == 1  # the typed 1001: the last turret


# --- the same effects called directly, on a state built by hand ---------------------------------

def _state_with(ship: dict[str, Any]) -> dict:
    from engine.schema import validate
    from rulesets.classic_hg.ships import SHIP_FIELDS, TURRET_FIELDS
    from rulesets.classic_hg.tables import load_tables

    s = validate({**RAIDER, **ship}, SHIP_FIELDS, "ship")
    s["turrets"] = [validate(t, TURRET_FIELDS, "turret") for t in s["turrets"]]
    return {"turn": 1, "ships": {"jackal": ship_state(s, "cor", load_tables().torpedo_tube["tray"])}, "attacks": [], "pending": []}


def test_weapon_hits_beyond_the_turret_destroy_no_more_than_it_holds() -> None:
    """Weapon: "One weapon in a turret is destroyed for each hit received." A turret of two loses both
    to three hits, and no more."""
    state = _state_with({"turrets": [{"weapon": "pulse_laser", "count": 2, "gunner_skill": 1}], "torpedo_tubes": 0})
    attack = {"id": "A1", "target": "jackal", "weapon": "beam_laser", "through": 3, "general": "weapons"}
    ctx = RuleContext(1)
    damage.apply_effect(state, attack, "weapon", TABLES, ctx)
    assert not ctx.requests  # one turret: no roll for which
    assert state["ships"]["jackal"]["turrets"][0]["destroyed"] == 2


def test_absorb_lets_through_what_the_armor_does_not_stop() -> None:
    """"Ship's armor absorbs 1 point per factor per hit ... the remaining points do internal damage"
    (the hits each effect above counts)."""
    ship = _state_with({"armor_factor": 4})["ships"]["jackal"]
    assert damage.absorb(ship, LASER_POINTS) == (4, 2, 0)
