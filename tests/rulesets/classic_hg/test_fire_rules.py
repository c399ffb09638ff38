"""Fire rules of ``classic-hg-combat.txt`` driven through real fights, every die typed.

Surprise against a naval ship, ramming, selective fire, ECM against missiles and
torpedoes, energy points, running out of ammunition, TORPEDO LAUNCH, one use of
a turret a turn, and AUTO EVADE on torpedoes. Every refusal is checked to leave
the log and the state as they were.
"""

from __future__ import annotations



from tests.rulesets.classic_hg.duel import attack, ship
from tests.rulesets.scripted import mods, refused

from engine.encounter import Encounter
from rulesets.classic_hg import RULESET
from tests.rulesets.classic_hg.duel import (
    duel, initiative,
    ESCORT, RAIDER, TABLES, answer, make_setup, roll_for_effect, roll_for_general, to_hit, to_intercept,
)














def imperial_attack(enc: Encounter) -> None:
    initiative(enc, "4", "4")  # 6 against 4: Imperial ATTACKER, no surprise
    assert enc.state["attacker"] == "imp" and enc.state["surprised"] == ""


def corsair_attack(enc: Encounter) -> None:
    initiative(enc, "1", "5")  # 3 against 5: Corsair ATTACKER, no surprise
    assert enc.state["attacker"] == "cor" and enc.state["surprised"] == ""


# --- surprise against a naval ship -------------------------------------------------------------

def test_surprised_naval_ship_makes_defensive_but_no_offensive_fire() -> None:
    """Step 1: surprise, "during which the enemy ship may conduct no offensive fire, and if the ship
    is not a naval vessel, no defensive fire as well (naval commanders are assumed to have the sense to
    at least have defensive programs running when approaching unidentified ships)". The beam lasers
    intercept with ANTI-MISSILE II: "will allow both laser and infinite repeater antimissile fire
    from the same program"."""
    enc = duel(escort={"torpedo_tubes": 1, "programs": ESCORT["programs"] + ["TORPEDO LAUNCH"]})
    assert ship(enc, "vigilant")["naval"] is True
    assert "ANTI-MISSILE" not in ship(enc, "vigilant")["programs"]  # only ANTI-MISSILE II is loaded
    initiative(enc, "1", "6")  # 1 + 2 = 3 against 6: three above, on the initial encounter
    assert enc.state["attacker"] == "cor" and enc.state["surprised"] == "imp"
    enc.act("fire", ship="jackal", turrets=["T1"], target="vigilant")
    answer(enc, "To hit: Jackal T1 HE missile", "8", target=f"{to_hit('missile_he', 'long')}+")
    answer(enc, "To hit: Jackal T1 HE missile x1 (2 of 2)", "2")  # the second rack's own missile
    enc.act("next")  # step 4: the surprised naval ship defends
    enc.act("defend", ship="vigilant", turret="T1", attack="A1")
    assert mods(enc) == {"Gunnery": 1}
    answer(enc, "Intercept A1: Vigilant T1 Beam laser antimissile fire", "7",
           target=f"{to_intercept('beam_laser', 'missile_he')}+")
    assert attack(enc, "A1")["status"] == "intercepted"
    enc.act("next")
    assert enc.pending is None  # nothing left incoming for the fields
    assert enc.state["step"] == 5 and enc.checklist()[4].needs == ""  # nothing to record
    enc.act("next")
    assert enc.state["step"] == 6 and enc.checklist()[5].status == "skipped"
    refused(enc, "surprised: no offensive fire", "fire", ship="vigilant", turrets=["T4"], target="jackal")
    refused(enc, "surprised: no offensive fire", "fire", ship="vigilant", turrets=["T2"], target="jackal")
    refused(enc, "surprised: no offensive fire", "launch_torpedo", ship="vigilant", target="jackal")


def test_beam_lasers_cannot_intercept_without_an_antimissile_program() -> None:
    """ANTI-MISSILE II "will allow both laser and infinite repeater antimissile fire"; without it (or
    ANTI-MISSILE) the lasers make no antimissile fire."""
    enc = duel(escort={"programs": ["TARGET", "LAUNCH", "INTERCEPT"]})
    corsair_attack(enc)
    enc.act("fire", ship="jackal", turrets=["T1"], target="vigilant")
    answer(enc, "To hit: Jackal T1 HE missile", "8")
    answer(enc, "To hit: Jackal T1 HE missile x1 (2 of 2)", "2")  # the second rack's own missile
    enc.act("next")
    refused(enc, "program is not loaded", "defend", ship="vigilant", turret="T1", attack="A1")


def test_surprise_of_a_non_naval_ship_stops_its_defensive_fire_too() -> None:
    """Step 1: "if the ship is not a naval vessel, no defensive fire as well"; the same escort, not
    naval, may not intercept."""
    enc = duel(escort={"naval": False})
    initiative(enc, "1", "6")
    assert enc.state["surprised"] == "imp"
    enc.act("fire", ship="jackal", turrets=["T1"], target="vigilant")
    answer(enc, "To hit: Jackal T1 HE missile", "8")
    answer(enc, "To hit: Jackal T1 HE missile x1 (2 of 2)", "2")  # the second rack's own missile
    enc.act("next")
    refused(enc, "surprised and not a naval vessel", "defend", ship="vigilant", turret="T1", attack="A1")
    enc.act("next")
    assert enc.pending is None  # and its repulsor and damper fields do not act either


def test_a_ship_that_has_left_the_fight_makes_no_defensive_fire() -> None:
    """Interception is made "with any defensive weapons still in operation": a ship withdrawn (here as
    destroyed) or broken off is out of the fight and intercepts nothing for its sidemates."""
    setup = make_setup()
    setup.units["ships"]["wreck"] = {**ESCORT, "name": "Wreck"}
    enc = Encounter(setup, RULESET)
    corsair_attack(enc)
    enc.act("fire", ship="jackal", turrets=["T1"], target="vigilant")
    answer(enc, "To hit: Jackal T1 HE missile", "12")
    answer(enc, "To hit: Jackal T1 HE missile x1 (2 of 2)", "12")
    enc.act("withdraw", ship="wreck", reason="destroyed")
    enc.act("next")  # step 4
    refused(enc, "Wreck has left the fight", "defend", ship="wreck", turret="T1", attack="A1")
    assert "wreck" not in {c.value for c in RULESET.param_choices(enc.state, "defend", "ship", {})}
    enc.act("defend", ship="vigilant", turret="T1", attack="A1")  # the ship still in it may


# --- ramming -----------------------------------------------------------------------------------

def test_ramming_at_close_range_hits_both_ships_and_cannot_be_intercepted() -> None:
    """"A ship at close range may attempt to ram an enemy vessel during his offensive fire phase, and in
    addition to weapons fire." The roll and the hits are the shipped ramming table."""
    enc = duel()
    imperial_attack(enc)
    refused(enc, "ramming needs close range", "ram", ship="vigilant",
            target="jackal")  # long range
    enc.correct("range", "close", note="test: the ships have closed")
    enc.act("fire", ship="vigilant", turrets=["T1"], target="jackal")  # weapons fire as well
    answer(enc, "To hit: Vigilant T1", "2")  # a miss
    enc.act("ram", ship="vigilant", target="jackal")
    per_point = TABLES.ramming["dm_per_maneuver"]
    assert mods(enc) == {"Maneuver difference": (5 - 3) * per_point}
    answer(enc, "Ram: Vigilant at Jackal", str(TABLES.ramming["to_ram"] - 2 * per_point),
           target=f"{TABLES.ramming['to_ram']}+")
    per100 = TABLES.ramming["hits_per_100_tons"]
    on_jackal, on_vigilant = attack(enc, "A1"), attack(enc, "A2")
    assert (on_jackal["target"], on_jackal["damage"]) == ("jackal", int(600 // 100 * per100))
    assert (on_vigilant["target"], on_vigilant["damage"]) == ("vigilant", int(400 // 100 * per100))
    assert not on_jackal["interceptable"] and not on_vigilant["interceptable"]
    refused(enc, "already tried to ram", "ram", ship="vigilant", target="jackal")
    enc.act("next")  # step 4: nothing the Jackal can intercept
    refused(enc, "no incoming attack to intercept", "defend", ship="jackal", turret="T2", attack="A1")
    enc.act("next")
    enc.act("resolve_damage")  # step 5: the Jackal's ramming damage, unarmored
    answer(enc, "General location: A1", roll_for_general("hold"))
    answer(enc, "Specific location: A1", roll_for_effect("hold", "cargo"))
    assert ship(enc, "jackal")["cargo"] == 60 - on_jackal["damage"]
    enc.act("next")
    enc.act("next")  # step 7: the Vigilant cannot intercept the ram either
    refused(enc, "no incoming attack to intercept", "defend", ship="vigilant", turret="T2", attack="A2")
    enc.act("next")
    assert enc.pending is None  # the repulsor does not act on a ram
    enc.act("resolve_damage")  # step 8: armor 4 stops 4 of the Vigilant's hits
    answer(enc, "General location: A2", roll_for_general("hold"))
    answer(enc, "Specific location: A2", roll_for_effect("hold", "cargo"))
    assert ship(enc, "vigilant")["cargo"] == 10 - (on_vigilant["damage"] - 4)


def test_a_failed_ram_does_no_damage() -> None:
    """The ramming roll must be made: one short of the table's number misses."""
    enc = duel()
    imperial_attack(enc)
    enc.correct("range", "close")
    enc.act("ram", ship="vigilant", target="jackal")
    answer(enc, "Ram: Vigilant at Jackal", str(TABLES.ramming["to_ram"] - 2 * TABLES.ramming["dm_per_maneuver"] - 1))
    assert enc.state["attacks"] == []


# --- selective fire ----------------------------------------------------------------------------

def test_selective_fire_skips_the_general_location_roll() -> None:
    """"First, roll on the general location table. If selective fire was used, then the general
    location will have already been determined." (with the SELECTIVE program loaded)"""
    enc = duel(escort={"programs": ESCORT["programs"] + ["SELECTIVE"]})
    imperial_attack(enc)
    refused(enc, "no general location 'galley'", "fire", ship="vigilant", turrets=["T1"], target="jackal",
            location="galley")
    enc.act("fire", ship="vigilant", turrets=["T1"], target="jackal", location="bridge")
    assert mods(enc) == {"Gunnery": 1, "SELECTIVE": TABLES.programs["SELECTIVE"]["to_hit_dm"]}
    answer(enc, "To hit: Vigilant T1", "12")
    assert attack(enc, "A1")["location"] == "bridge"
    enc.act("next")
    enc.act("next")
    enc.act("resolve_damage")
    answer(enc, "Specific location: A1 in the bridge", roll_for_effect("bridge", "computer"))
    assert ship(enc, "jackal")["computer"] == 0
    assert enc.pending is None


def test_a_selective_shot_logs_its_location_as_the_form_names_it() -> None:
    """The fire form offers "fuel tanks" for the general location ``fuel_tanks``: the log line says the same (it
    read "location=fuel_tanks"), and the logged arguments keep the id."""
    from rulesets.classic_hg.choices import defence_words

    enc = duel(escort={"programs": ESCORT["programs"] + ["SELECTIVE"]})
    imperial_attack(enc)
    fired = enc.act("fire", ship="vigilant", turrets=["T1"], target="jackal", location="fuel_tanks")
    assert enc.describe(fired) == "fire: ship Vigilant · turrets T1 · target Jackal · selective location fuel tanks"
    assert fired.data["args"]["location"] == "fuel_tanks"
    # a defence is asked only of a turret with more than one against an attack (a house-rule table): by its label
    assert defence_words(enc.state, {}, TABLES, "am_missile") == "Antimissile missile"


def test_selective_fire_without_a_program_is_refused() -> None:
    """Selective fire needs a program that allows it; without SELECTIVE loaded it is refused."""
    enc = duel()
    imperial_attack(enc)
    assert "SELECTIVE" not in ship(enc, "vigilant")["programs"]
    refused(enc, "selective fire needs a program", "fire", ship="vigilant", turrets=["T1"], target="jackal",
            location="bridge")
    assert ship(enc, "vigilant")["turrets"][0]["used"] == ""


# --- ECM ---------------------------------------------------------------------------------------

def test_ecm_counts_against_missiles_but_not_torpedoes() -> None:
    """Torpedoes "contain a fusion drive and onboard computer and are not effected by ECM." The ECM
    program (ecm = true) gives its DM against the missile, not the torpedo; a plain evade program
    counts against both."""
    assert TABLES.programs["ECM"]["ecm"] is True
    enc = duel(escort={"programs": ["TARGET", "LAUNCH", "ANTI-MISSILE II", "ECM", "EVADE-1"]})
    corsair_attack(enc)
    enc.act("fire", ship="jackal", turrets=["T1"], target="vigilant")
    assert mods(enc) == {"Gunnery": 1, "Vigilant ECM": TABLES.programs["ECM"]["evade_dm"],
                         "Vigilant EVADE-1": TABLES.programs["EVADE-1"]["evade_dm"]}
    answer(enc, "To hit: Jackal T1 HE missile", "2")
    answer(enc, "To hit: Jackal T1 HE missile x1 (2 of 2)", "2")  # the second rack's own missile
    enc.act("launch_torpedo", ship="jackal", target="vigilant")
    assert mods(enc) == {"Vigilant EVADE-1": TABLES.programs["EVADE-1"]["evade_dm"]}


# --- energy points -----------------------------------------------------------------------------

def test_a_power_plant_shot_out_leaves_no_energy_for_the_lasers() -> None:
    """Power Plant hits reduce the plant; the energy the weapons use comes from it (ruleset: tonnage x
    plant / 100). Torpedoes "have no energy point requirement", missile racks use none."""
    enc = duel()
    imperial_attack(enc)
    enc.act("fire", ship="vigilant", turrets=["T1"], target="jackal")
    answer(enc, "To hit: Vigilant T1", "12")
    enc.act("next")
    enc.act("next")
    enc.act("resolve_damage")
    answer(enc, "General location: A1", roll_for_general("engineering"))
    answer(enc, "Specific location: A1", roll_for_effect("engineering", "power_plant"))
    assert ship(enc, "jackal")["power_plant"] == 0
    enc.act("next")
    refused(enc, "needs 2 energy points, 0 left", "fire", ship="jackal", turrets=["T2"], target="vigilant")
    enc.act("fire", ship="jackal", turrets=["T1"], target="vigilant")
    answer(enc, "To hit: Jackal T1", "2")
    answer(enc, "To hit: Jackal T1 HE missile x1 (2 of 2)", "2")  # the second rack's own missile
    enc.act("launch_torpedo", ship="jackal", target="vigilant")
    answer(enc, "To hit: Jackal tube 1", "2")


def test_energy_spent_on_offence_is_not_there_for_defence() -> None:
    """Energy is per turn across offence and defence (ruleset's reading): after two laser turrets fire,
    a plant of factor 1 has nothing left for the repeater's antimissile fire ("use 2 energy points")."""
    escort = {"turrets": [{"weapon": "beam_laser", "count": 3, "gunner_skill": 1},
                          {"weapon": "beam_laser", "count": 3, "gunner_skill": 1},
                          {"weapon": "infinite_repeater", "count": 1, "gunner_skill": 1}]}
    enc = duel(escort=escort)
    imperial_attack(enc)
    enc.correct("ships.vigilant.power_plant", 1, note="test: 600 tons x 1 / 100 = 6 energy points")
    enc.act("fire", ship="vigilant", turrets=["T1", "T2"], target="jackal")
    answer(enc, "To hit: Vigilant T1", "2")
    answer(enc, "To hit: Vigilant T2", "2")
    enc.act("next")
    enc.act("next")
    enc.act("next")
    enc.act("fire", ship="jackal", turrets=["T1"], target="vigilant")
    answer(enc, "To hit: Jackal T1", "12")
    answer(enc, "To hit: Jackal T1 HE missile x1 (2 of 2)", "2")  # the second rack's own missile
    enc.act("next")
    assert enc.state["step"] == 7
    refused(enc, "needs 2 energy points, 0 left", "defend", ship="vigilant", turret="T3", attack="A1")


# Jackal with a three-laser and a two-laser turret: at power plant 1 its 400 tons give 4 energy points
# ("1% of the hull per plant factor"), the three pulse lasers use 3 of them, the two use 2.
LASER_RAIDER = {"turrets": [{"weapon": "pulse_laser", "count": 3, "gunner_skill": 1},
                            {"weapon": "pulse_laser", "count": 2, "gunner_skill": 1},
                            {"weapon": "sandcaster", "count": 1}]}


def energy_row(enc: Encounter, sid: str) -> str:
    from rulesets.classic_hg import views

    return dict(views.ship_panels(enc.state, sid)["Ship status"])["Energy"]


def lasers_spent_then_one_shot_away() -> Encounter:
    """Turn 1 to step 6: the Jackal (DEFENDER, 4 energy points) intercepts a missile with its three pulse lasers in
    step 4 (3 points), and in step 5 a beam laser hit on "Weapon" destroys one of those three."""
    enc = duel(raider=LASER_RAIDER)
    imperial_attack(enc)
    enc.correct("ships.jackal.power_plant", 1, note="test: 400 tons x 1 / 100 = 4 energy points")
    enc.correct("ships.jackal.armor_factor", 5, note="test: the laser's 6 points put 1 hit through")
    enc.act("fire", ship="vigilant", turrets=["T4"], target="jackal", warhead="he")
    answer(enc, "To hit: Vigilant T4", "12")  # A1, a missile
    enc.act("fire", ship="vigilant", turrets=["T1"], target="jackal")
    answer(enc, "To hit: Vigilant T1", "12")  # A2, three beam lasers
    enc.act("next")
    assert enc.state["step"] == 4
    enc.act("defend", ship="jackal", turret="T1", attack="A1")
    answer(enc, "Intercept A1: Jackal T1 Pulse laser antimissile fire", "12")
    assert attack(enc, "A1")["status"] == "intercepted"
    assert energy_row(enc, "jackal") == "1 of 4 EP free"
    enc.act("next")
    enc.act("resolve_damage")
    answer(enc, "General location: A2", roll_for_general("weapons"))
    answer(enc, "Specific location: A2", roll_for_effect("weapons", "weapon"))
    answer(enc, "Which turret or tube on Jackal", "1")  # 1d4: T1, T2, T3, tube 1
    assert [t["destroyed"] for t in ship(enc, "jackal")["turrets"]] == [1, 0, 0]
    enc.act("next")
    assert enc.state["step"] == 6
    return enc


def test_energy_spent_in_defensive_fire_stays_spent_when_the_turret_is_hit_before_offensive_fire() -> None:
    """classic-hg-combat.txt, the turn sequence: the DEFENDER fires defensively in step 4, records damage in step 5
    ("The damage effects are applied immediately") and fires "any undamaged offensive weapon" in step 6; Weapon: "One
    weapon in a turret is destroyed for each hit received". Energy is per turn across offence and defence (the
    ruleset's reading, fire.py): the three pulse lasers (1 energy point each, weapons.toml) spent 3 of the Jackal's 4
    in step 4, and the laser shot away in step 5 gives none of it back, so the two-laser turret (2 points) cannot
    fire in step 6. It used to: the lost laser's point was counted free again."""
    enc = lasers_spent_then_one_shot_away()
    assert energy_row(enc, "jackal") == "1 of 4 EP free"  # the Energy line and the refusal read one figure
    refused(enc, "Jackal T2: needs 2 energy points, 1 left this turn", "fire", ship="jackal", turrets=["T2"],
            target="vigilant")


def test_energy_a_turret_spent_is_spent_whatever_happens_to_it_later_and_free_again_next_turn() -> None:
    """classic-hg-combat.txt, step 3 (the ATTACKER "fires its offensive weapons") and step 9 ("one turn is now
    complete. If combat continues, return to step 1"); energy per turn is the ruleset's reading (fire.py), a beam
    laser 1 point (weapons.toml). What a turret's weapons used when it fired is spent for the turn, whether a
    correction then takes its weapons away or gives them back (a weapon given back did not fire), and the next turn
    frees it all again."""
    escort = {"turrets": [{"weapon": "beam_laser", "count": 3, "gunner_skill": 1},
                          {"weapon": "beam_laser", "count": 2, "gunner_skill": 1},
                          {"weapon": "beam_laser", "count": 2, "gunner_skill": 1},
                          {"weapon": "missile_rack", "count": 1, "gunner_skill": 2}]}
    enc = duel(escort=escort)
    imperial_attack(enc)
    enc.correct("ships.vigilant.power_plant", 1, note="test: 600 tons x 1 / 100 = 6 energy points")
    enc.correct("ships.vigilant.turrets[0].destroyed", 1, note="test: one laser of T1 lost before it fires")
    enc.act("fire", ship="vigilant", turrets=["T1"], target="jackal")  # two lasers: 2 points
    answer(enc, "To hit: Vigilant T1", "2")
    assert energy_row(enc, "vigilant") == "4 of 6 EP free"
    enc.correct("ships.vigilant.turrets[0].destroyed", 0, note="test: the lost laser is given back after the shot")
    assert energy_row(enc, "vigilant") == "4 of 6 EP free"  # it did not fire: it spent nothing
    enc.act("fire", ship="vigilant", turrets=["T2"], target="jackal")  # 2 points
    answer(enc, "To hit: Vigilant T2", "2")
    enc.correct("ships.vigilant.turrets[1].destroyed", 2, note="test: both lasers of T2 lost after the shot")
    assert energy_row(enc, "vigilant") == "2 of 6 EP free"  # what T2 spent stays spent
    enc.correct("ships.vigilant.turrets[1].count", 1, note="test: the turret's size corrected after the shot")
    assert energy_row(enc, "vigilant") == "2 of 6 EP free"
    enc.act("fire", ship="vigilant", turrets=["T3"], target="jackal")  # two lasers: the last 2 points
    answer(enc, "To hit: Vigilant T3", "2")
    assert energy_row(enc, "vigilant") == "0 of 6 EP free"
    for _ in range(6):  # steps 4 to 9, nothing fired back
        enc.act("next")
    assert enc.state["step"] == 9
    enc.act("next")
    assert enc.state["turn"] == 2 and enc.state["step"] == 1
    assert energy_row(enc, "vigilant") == "6 of 6 EP free"  # a new turn: every point free again
    assert all(not t["used"] for t in ship(enc, "vigilant")["turrets"])


# --- running out -------------------------------------------------------------------------------

def test_out_of_missiles_refuses_the_fire() -> None:
    """Missiles come from the magazine: two racks need two missiles."""
    enc = duel()
    corsair_attack(enc)
    enc.correct("ships.jackal.missiles", 1)
    refused(enc, "has 1 missiles left, needs 2", "fire", ship="jackal", turrets=["T1"], target="vigilant")
    assert ship(enc, "jackal")["missiles"] == 1


def test_out_of_torpedoes_refuses_the_launch() -> None:
    """"Five torpedoes ... are the normal load in the launching tray": none left, no launch."""
    enc = duel()
    corsair_attack(enc)
    enc.correct("ships.jackal.torpedoes", 0)
    refused(enc, "has 0 torpedoes left", "launch_torpedo", ship="jackal", target="vigilant")


def test_out_of_sand_refuses_the_sandcaster() -> None:
    """Sand is cast from canisters: with none left the sandcaster cannot defend."""
    enc = duel()
    imperial_attack(enc)
    enc.correct("ships.jackal.sand", 0)
    enc.act("fire", ship="vigilant", turrets=["T1"], target="jackal")
    answer(enc, "To hit: Vigilant T1", "12")
    enc.act("next")
    refused(enc, "has 0 sand left", "defend", ship="jackal", turret="T3", attack="A1")


def test_out_of_am_missiles_refuses_the_interception() -> None:
    """"AM Missiles may be fired from standard missile racks and require the program INTERCEPT": with
    INTERCEPT loaded but no AM missiles left, the rack cannot intercept."""
    enc = duel()
    corsair_attack(enc)
    enc.correct("ships.vigilant.am_missiles", 0)
    enc.act("fire", ship="jackal", turrets=["T1"], target="vigilant")
    answer(enc, "To hit: Jackal T1", "12")
    answer(enc, "To hit: Jackal T1 HE missile x1 (2 of 2)", "2")  # the second rack's own missile
    enc.act("next")
    refused(enc, "has 0 am missiles left", "defend", ship="vigilant", turret="T4", attack="A1")


# --- torpedoes ---------------------------------------------------------------------------------

def test_torpedoes_need_torpedo_launch_loaded() -> None:
    """"To fire the torpedo, the program TORPEDO LAUNCH must be loaded." """
    enc = duel({"programs": ["TARGET", "LAUNCH", "ANTI-MISSILE"]})
    corsair_attack(enc)
    refused(enc, "need the program TORPEDO LAUNCH", "launch_torpedo", ship="jackal", target="vigilant")
    assert ship(enc, "jackal")["torpedoes"] == 5


def test_auto_evade_dm_applies_to_intercepting_torpedoes() -> None:
    """"Internal hardwired programming gives them the equivalent of the program AUTO EVADE." Every roll
    to intercept the torpedo takes AUTO EVADE's DM, the repulsor's too; the missile's does not."""
    evade = TABLES.programs["AUTO EVADE"]["evade_dm"]
    assert evade < 0
    enc = duel()
    corsair_attack(enc)
    enc.act("launch_torpedo", ship="jackal", target="vigilant", warhead="he")
    answer(enc, "To hit: Jackal tube 1 HE torpedo", "12")
    enc.act("fire", ship="jackal", turrets=["T1"], target="vigilant")
    answer(enc, "To hit: Jackal T1 HE missile", "12")
    answer(enc, "To hit: Jackal T1 HE missile x1 (2 of 2)", "2")  # the second rack's own missile
    enc.act("next")
    enc.act("defend", ship="vigilant", turret="T2", attack="A1")
    assert mods(enc) == {"Gunnery": 1, "HE torpedo AUTO EVADE": evade}
    answer(enc, "Intercept A1: Vigilant T2", "2", target=f"{to_intercept('infinite_repeater', 'torpedo_he')}+")
    enc.act("defend", ship="vigilant", turret="T1", attack="A2")
    assert mods(enc) == {"Gunnery": 1}
    answer(enc, "Intercept A2: Vigilant T1", "2")
    enc.act("next")  # the repulsor field against both
    assert mods(enc) == {"HE torpedo AUTO EVADE": evade}
    answer(enc, "Repulsor field: Vigilant against A1", "2")
    assert mods(enc) == {}
    answer(enc, "Repulsor field: Vigilant against A2", "2")


# --- one use of a turret a turn ------------------------------------------------------------------

def test_a_turret_cannot_both_fire_and_defend_in_one_turn() -> None:
    """Step 6: the DEFENDER fires "any undamaged offensive weapon desired, do long as they were not used
    for defense"; step 7: the ATTACKER's "defensive weapons (not already used during the ATTACKER'S
    offensive fire)"; interception uses "defensive weapons still in operation and not already used
    this turn"."""
    enc = duel()
    imperial_attack(enc)
    enc.act("fire", ship="vigilant", turrets=["T4"], target="jackal")
    answer(enc, "To hit: Vigilant T4 HE missile", "12")
    enc.act("next")
    enc.act("defend", ship="jackal", turret="T2", attack="A1")  # pulse lasers, ANTI-MISSILE
    answer(enc, "Intercept A1: Jackal T2", "12")
    assert attack(enc, "A1")["status"] == "intercepted"
    enc.act("next")
    enc.act("next")
    assert enc.state["step"] == 6
    refused(enc, "already used this turn \\(defence\\)", "fire", ship="jackal", turrets=["T2"], target="vigilant")
    enc.act("fire", ship="jackal", turrets=["T1"], target="vigilant")
    answer(enc, "To hit: Jackal T1 HE missile", "12")
    answer(enc, "To hit: Jackal T1 HE missile x1 (2 of 2)", "2")  # the second rack's own missile
    enc.act("next")
    refused(enc, "already used this turn \\(offence\\)", "defend", ship="vigilant", turret="T4", attack="A2")
    enc.act("defend", ship="vigilant", turret="T5", attack="A2")  # the other rack, unused
    answer(enc, "Intercept A2: Vigilant T5", "12")
    assert attack(enc, "A2")["status"] == "intercepted"


def test_selective_program_dm_only_when_choosing_the_location() -> None:
    """"If selective fire was used, then the general location will have already been determined."
    The shipped SELECTIVE program carries a to-hit DM (Book 2's price for aiming); it applies to
    shots that choose their location, not to every shot while the program is loaded."""
    enc = duel(escort={"programs": ["TARGET", "LAUNCH", "SELECTIVE"]})
    enc.act("roll_initiative")
    enc.type_roll("6")
    enc.type_roll("1")
    enc.act("next")
    enc.act("next")
    enc.act("fire", ship="vigilant", turrets=["T1"], target="jackal")
    assert "SELECTIVE" not in {m.source for m in enc.pending.modifiers}
    enc.undo()
    enc.act("fire", ship="vigilant", turrets=["T1"], target="jackal", location="bridge")
    dm = TABLES.programs["SELECTIVE"]["to_hit_dm"]
    assert {m.source: m.value for m in enc.pending.modifiers}.get("SELECTIVE") == dm


def test_energy_spent_beyond_a_plant_hit_since_reads_none_free() -> None:
    """The power plant hit after the turn's energy was spent (here by a correction to 0): what was spent stays spent
    (fire.py), so more is spent than the plant gives now. The Energy line and the refusal say 0 is left and by
    how much the turn is over, not "-3 of 0 EP free" (found by a helper's review of the energy fix)."""
    enc = lasers_spent_then_one_shot_away()
    enc.correct("ships.jackal.power_plant", 0, note="test: the plant shot away")
    assert energy_row(enc, "jackal") == "0 of 0 EP free (3 more spent this turn than the plant gives now)"
    refused(enc, "Jackal T2: needs 2 energy points, 0 left this turn", "fire", ship="jackal", turrets=["T2"],
            target="vigilant")
