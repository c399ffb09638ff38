"""Crew hits resolved by the percentile ruleset inside a classic-hg fight (issue 12).

``classic-hg-combat.txt``: "Crew- The crew in the general location have been attacked. Determine the to hit
and damage according to the weapon." with the weapon equivalents ("Laser: Treat as laser rifle at medium
range", "Infinite Repeater: Treat as shotgun at medium range"); "Quarters- ... If occupied, the inhabitant is
subjected to a Crew attack"; "Radiation- ... all crew in the general location hit take 1D damage
immediately". The to hit and damage are ``percentile-personal-combat.txt``'s (procedure 2 to hit for an Aim
of 50, a random hit location, procedure 3 damage: our reading, in ``rulesets/percentile/crew.py``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.encounter import Encounter, replay
from engine.errors import BadTable
from engine.saves import SaveFile, create
from rulesets.classic_hg import RULESET
from tests.rulesets.classic_hg.duel import ESCORT, RAIDER, answer, make_setup, roll_for_effect, roll_for_general
from tests.rulesets.classic_hg.test_effects import imperial_initiative, vigilant_hits

BRIDGE = {"vale": {"ship": "jackal", "location": "bridge", "name": "Capt. Orrin Vale"},
          "dunn": {"ship": "jackal", "location": "bridge", "name": "Mate Sela Dunn"}}


def duel(people: dict | None = None, raider: dict | None = None, **options) -> Encounter:
    setup = make_setup(dict(ESCORT), {**RAIDER, **(raider or {})})
    setup.units["people"] = dict(people or {})
    setup.options.update(options)
    return Encounter(setup, RULESET)


def hit_bridge_crew(enc: Encounter, turret: str = "T1") -> None:
    if turret == "T2":
        enc.correct("range", "close", note="test: infinite repeaters fire only at close range")
    imperial_initiative(enc)
    vigilant_hits(enc, turret)
    answer(enc, "General location: A1", roll_for_general("bridge"))
    answer(enc, "Specific location: A1", roll_for_effect("bridge", "crew"))


def vale_shot_in_the_chest() -> tuple[Encounter, str]:
    """The laser's crew hit on the Jackal's bridge: Capt. Orrin Vale hit in the chest (16 taken), Mate Sela Dunn
    missed; the fight and Vale's person id."""
    enc = duel(BRIDGE)
    hit_bridge_crew(enc)
    answer(enc, "Percent to hit: laser rifle at Capt. Orrin Vale (Jackal, bridge", "10")
    answer(enc, "Random hit location on Capt. Orrin Vale", "20")  # chest, 16 taken
    answer(enc, "Percent to hit: laser rifle at Mate Sela Dunn", "44")
    return enc, next(pid for pid, p in enc.state["people"].items() if p["name"] == "Capt. Orrin Vale")


def bridge_irradiated() -> Encounter:
    """A nuclear missile's hit on the Jackal's bridge: no spallation, radiation through its armor, 5 points to each of
    the two crew there, death in 3 days untreated."""
    from tests.rulesets.classic_hg.test_effects import strike

    setup = make_setup(dict(ESCORT), dict(RAIDER))
    setup.units["people"] = dict(BRIDGE)
    enc = Encounter(setup, RULESET)
    strike(enc, "bridge", "sensors", armor=3, turret="T4", warhead="nuclear")
    answer(enc, "Spallation: A1", "2")
    answer(enc, "Radiation: A1 against Jackal's computer and crew", "12")
    answer(enc, "Radiation: damage to 2 crew in the bridge", "5")
    answer(enc, "Radiation: days until death", "3")
    return enc


def jackal(enc: Encounter) -> dict:
    return enc.state["ships"]["jackal"]


def test_a_laser_crew_hit_is_shot_as_a_laser_rifle_at_medium_range_at_the_named_crew() -> None:
    enc = duel(BRIDGE)
    hit_bridge_crew(enc)
    # laser rifle WEP DIF 60, Aim 50: MARKSmanship 55, medium range 44% on our Table 3-1
    req = answer(enc, "Percent to hit: laser rifle at Capt. Orrin Vale (Jackal, bridge", "10", target="43-")
    assert req.then == "percentile:to_hit"
    answer(enc, "Random hit location on Capt. Orrin Vale", "20")  # chest
    answer(enc, "Percent to hit: laser rifle at Mate Sela Dunn", "44")  # not under 44: missed
    people = enc.state["people"]
    vale = next(p for p in people.values() if p["name"] == "Capt. Orrin Vale")
    assert vale["body"]["chest"]["taken"] == 16  # WEP MOD 8 at medium on Table 3-3
    assert jackal(enc)["crew_attacks"][-1]["result"] == "Capt. Orrin Vale: chest 16; Mate Sela Dunn: missed"
    assert jackal(enc)["crew"]["bridge"] == 2
    assert enc.pending is None


def test_a_killed_crewman_lowers_the_crew_count_and_the_fight_goes_on() -> None:
    enc = duel(BRIDGE)
    hit_bridge_crew(enc, "T2")  # infinite repeater: shotgun at medium range, WEP MOD 9: 18 points
    answer(enc, "Percent to hit: shotgun at Capt. Orrin Vale", "1")
    answer(enc, "Random hit location on Capt. Orrin Vale", "5")  # head, 8 points
    answer(enc, "Percent to hit: shotgun at Mate Sela Dunn", "99")
    # the repeater's spallation ("Treat spallation as shotgun at medium range") reaches the bridge too
    answer(enc, "Percent to hit: shotgun at Capt. Orrin Vale", "50")
    answer(enc, "Percent to hit: shotgun at Mate Sela Dunn", "99")
    vale = enc.state["people"]["jackal-bridge-1"]
    assert vale["dead"] and vale["body"]["head"]["taken"] == 18
    assert jackal(enc)["crew"]["bridge"] == 1
    spall, crew = jackal(enc)["crew_attacks"]
    assert spall["as"] == "spallation" and crew["as"] == "infinite_repeater"
    assert crew["result"] == "Capt. Orrin Vale: head 18, killed; Mate Sela Dunn: missed"
    assert spall["result"] == "Capt. Orrin Vale: already dead; Mate Sela Dunn: missed"
    assert enc.pending is None
    enc.act("next")  # the fight goes on to step 6


def test_crew_without_names_are_made_on_demand() -> None:
    enc = duel(crew_combat="percentile")
    hit_bridge_crew(enc)
    answer(enc, "Percent to hit: laser rifle at Bridge crew 1", "99")
    answer(enc, "Percent to hit: laser rifle at Bridge crew 2", "99")
    assert sorted(p["name"] for p in enc.state["people"].values()) == ["Bridge crew 1", "Bridge crew 2"]


def test_a_stateroom_occupant_is_attacked_alone() -> None:
    enc = duel(crew_combat="percentile", raider={"occupants": [{"name": "Dr. Kel Ashe", "berth": "stateroom 1"}]})
    imperial_initiative(enc)
    vigilant_hits(enc)
    locations = RULESET.tables_for(enc.state).specific_locations
    general = next(g for g, effects in locations.items() if "quarters" in effects.values())
    answer(enc, "General location: A1", roll_for_general(general))
    answer(enc, "Specific location: A1", roll_for_effect(general, "quarters"))
    answer(enc, "Which stateroom or berth", "1")
    answer(enc, "Percent to hit: laser rifle at Dr. Kel Ashe", "30")
    answer(enc, "Random hit location on Dr. Kel Ashe", "55")  # left arm (51-58 on our table 3-3.4)
    ashe = next(p for p in enc.state["people"].values() if p["name"] == "Dr. Kel Ashe")
    assert ashe["body"]["left_arm"]["taken"] == 16
    assert enc.pending is None


def kill_occupant(enc: Encounter, name: str) -> dict:
    """The Vigilant's infinite repeater (shotgun at medium range, 18 points) hits the Jackal's quarters, the
    room is stateroom 1 and its occupant ``name`` is shot in the head; the spallation misses everyone. The
    Jackal's crew counts before the hit."""
    enc.correct("range", "close", note="test: infinite repeaters fire only at close range")
    imperial_initiative(enc)
    vigilant_hits(enc, "T2")
    before = dict(jackal(enc)["crew"])
    answer(enc, "General location: A1", roll_for_general("quarters"))  # a location with crew of its own (4)
    answer(enc, "Specific location: A1", roll_for_effect("quarters", "quarters"))
    answer(enc, "Which stateroom or berth", "1")
    answer(enc, f"Percent to hit: shotgun at {name}", "1")
    answer(enc, f"Random hit location on {name}", "5")  # head: 18 points kill
    while enc.pending is not None:
        answer(enc, "", "99")
    assert next(p for p in enc.state["people"].values() if p["name"] == name)["dead"]
    return before


def test_an_occupant_not_on_the_crew_list_who_dies_leaves_the_crew_count_alone() -> None:
    """"Quarters- ... If occupied, the inhabitant is subjected to a Crew attack": a berth's occupant who is
    not among the named crew of the location (a passenger, a rescued pilot) is not one of the crew counted
    there, so the count stands when the occupant is killed (a drive found it lowered)."""
    enc = duel(crew_combat="percentile", raider={"occupants": [{"name": "Dr. Kel Ashe", "berth": "stateroom 1"}]})
    before = kill_occupant(enc, "Dr. Kel Ashe")
    assert jackal(enc)["crew"] == before


def test_a_named_crewman_in_a_stateroom_who_dies_is_one_fewer_of_his_location() -> None:
    """An occupant who is one of the named crew is counted where the crew list puts him: his death lowers
    that location's count, once."""
    people = {"vale": {"ship": "jackal", "location": "bridge", "name": "Capt. Orrin Vale"}}
    enc = duel(people, raider={"occupants": [{"name": "Capt. Orrin Vale", "berth": "stateroom 1"}]})
    before = kill_occupant(enc, "Capt. Orrin Vale")
    assert jackal(enc)["crew"] == {**before, "bridge": before["bridge"] - 1}


def test_the_crew_and_their_wounds_persist_in_the_save_and_undo(tmp_path: Path) -> None:
    enc = duel(BRIDGE)
    hit_bridge_crew(enc)
    answer(enc, "Percent to hit: laser rifle at Capt. Orrin Vale", "10")
    answer(enc, "Random hit location", "20")
    answer(enc, "Percent to hit: laser rifle at Mate Sela Dunn", "10")
    answer(enc, "Random hit location", "95")
    assert replay(enc.setup, enc.events, RULESET) == enc.state
    save = create(tmp_path / "duel.toml", enc)
    again = SaveFile.load(save.path).encounter
    assert again.state == enc.state
    assert again.state["people"]["jackal-bridge-2"]["body"]["right_leg"]["taken"] == 16
    enc.undo()
    assert enc.state["people"] == {}


def test_a_fight_that_does_not_ask_keeps_the_records_only() -> None:
    enc = duel()
    hit_bridge_crew(enc)
    assert enc.pending is None and "people" not in enc.state
    assert jackal(enc)["crew_attacks"][-1]["result"] == ""


def test_named_crew_must_name_a_ship_and_a_location() -> None:
    with pytest.raises(BadTable, match="setup.people.x.ship: expected one of vigilant, jackal"):
        duel({"x": {"ship": "ghost", "location": "bridge", "name": "X"}})
    with pytest.raises(BadTable, match="setup.people.x.location"):
        duel({"x": {"ship": "jackal", "name": "X"}})
    with pytest.raises(BadTable, match="crew_combat"):
        duel(crew_combat="gurps")


def test_armor_and_crew_lists_the_named_crew_with_their_wounds() -> None:
    enc = duel(BRIDGE)
    hit_bridge_crew(enc, "T2")
    answer(enc, "Percent to hit: shotgun at Capt. Orrin Vale", "1")
    answer(enc, "Random hit location", "5")
    answer(enc, "Percent to hit: shotgun at Mate Sela Dunn", "1")
    answer(enc, "Random hit location", "20")
    rows = dict(RULESET.unit_panels(enc.state, RULESET.catalogue.unit_kinds["ship"], "jackal")["Armor and crew"])
    assert rows["Capt. Orrin Vale"] == "bridge, KILLED: head 18/8"
    assert rows["Mate Sela Dunn"] == "bridge, wounded: chest 18/30"
    assert rows["Crew bridge"] == "1"


def test_radiation_puts_its_1d_on_each_crewman_in_the_location() -> None:
    """Radiation: "all crew in the general location hit take 1D damage immediately, and will die in 1D days if
    they do not receive antiradiation treatments" (the points on the chest: ours)."""
    enc = bridge_irradiated()
    assert enc.pending is None
    for pid in ("jackal-bridge-1", "jackal-bridge-2"):
        person = enc.state["people"][pid]
        assert person["body"]["chest"]["taken"] == 5 and person["dies_in_days"] == 3
    assert jackal(enc)["radiation"][-1]["result"] == "Capt. Orrin Vale: chest 5; Mate Sela Dunn: chest 5"


def test_radiation_reaches_only_the_crew_still_in_the_location() -> None:
    """"all crew in the general location hit take 1D damage": with no armor the radiation lands at once, and the
    same hit's spallation kills both bridge crew before its 1D is rolled; no one is left for it, and no one
    new is made to take it."""
    from tests.rulesets.classic_hg.test_effects import strike

    setup = make_setup(dict(ESCORT), dict(RAIDER))
    setup.units["people"] = dict(BRIDGE)
    enc = Encounter(setup, RULESET)
    strike(enc, "bridge", "sensors", armor=0, turret="T4", warhead="nuclear")
    for name in ("Capt. Orrin Vale", "Mate Sela Dunn"):
        answer(enc, f"Percent to hit: shotgun at {name}", "1")
        answer(enc, f"Random hit location on {name}", "1")  # the head: dead
    answer(enc, "Radiation: damage to 2 crew in the bridge", "5")
    answer(enc, "Radiation: days until death", "3")
    assert enc.pending is None
    assert jackal(enc)["crew"]["bridge"] == 0
    assert sorted(enc.state["people"]) == ["jackal-bridge-1", "jackal-bridge-2"]
    assert jackal(enc)["radiation"][-1]["crew"] == 0
    assert "No crew left in the bridge to take the radiation" in enc.events[-1].notes


@pytest.mark.parametrize("seed", range(4))
def test_random_play_with_personal_crew_combat_replays_saves_and_undoes(seed: int, tmp_path: Path) -> None:
    """The contract's properties (tests/test_every_ruleset.py) hold with crew hits resolved by percentile."""
    import random

    from engine.state import plain_copy
    from tests.console_play import play

    enc = duel(BRIDGE, crew_combat="percentile")
    save = create(tmp_path / "duel.toml", enc)
    start = plain_copy(enc.state)
    play(enc, random.Random(seed), 400, undo_rate=0.02)
    assert replay(enc.setup, enc.events, RULESET) == enc.state
    save.save()
    assert SaveFile.load(save.path).encounter.state == enc.state
    while enc.undo():
        pass
    assert enc.state == start


def test_a_nuclear_torpedo_kills_the_named_crew_met_before() -> None:
    """"Nuclear Torpedo: Crew killed." The people personal combat has already met there die with the count."""
    from tests.rulesets.classic_hg.test_effects import imperial_initiative as initiative

    setup = make_setup({**ESCORT, "torpedo_tubes": 1, "programs": ESCORT["programs"] + ["TORPEDO LAUNCH"]},
                       dict(RAIDER))
    setup.units["people"] = dict(BRIDGE)
    enc = Encounter(setup, RULESET)
    initiative(enc)
    enc.act("fire", ship="vigilant", turrets=["T1"], target="jackal")
    answer(enc, "To hit: Vigilant T1", "12")
    enc.act("launch_torpedo", ship="vigilant", target="jackal", warhead="nuclear")
    answer(enc, "To hit: Vigilant tube 1", "12")
    enc.act("next")
    enc.act("next")
    enc.act("resolve_damage")
    answer(enc, "General location: A1", roll_for_general("bridge"))
    answer(enc, "Specific location: A1", roll_for_effect("bridge", "crew"))
    answer(enc, "Percent to hit: laser rifle at Capt. Orrin Vale", "99")
    answer(enc, "Percent to hit: laser rifle at Mate Sela Dunn", "99")
    answer(enc, "General location: A2", roll_for_general("bridge"))
    answer(enc, "Specific location: A2", roll_for_effect("bridge", "crew"))
    assert all(p["dead"] for p in enc.state["people"].values())
    assert jackal(enc)["crew"]["bridge"] == 0


def test_a_nuclear_missile_that_does_not_kill_takes_two_attributes_of_each_crewman_to_0() -> None:
    """Crew: "Nuclear Missile: Crew killed on a 8 (2D), otherwise 2 attributes reduced to 0." With personal
    combat the two are each person's own: which two is rolled, one die over those left (the text does not say:
    ours). Vale rolls 2 (aim), then 1 (perception); Dunn 5 (strength), then 4 (agility: no points this turn)."""
    from tests.rulesets.classic_hg.test_effects import strike

    setup = make_setup(dict(ESCORT), dict(RAIDER))
    setup.units["people"] = dict(BRIDGE)
    enc = Encounter(setup, RULESET)
    strike(enc, "bridge", "crew", armor=3, turret="T4", warhead="nuclear")
    answer(enc, "is the crew in the bridge of Jackal killed?", "7")  # 8+ kills
    answer(enc, "Attribute reduced to 0: Capt. Orrin Vale", "2")
    answer(enc, "Attribute reduced to 0: Capt. Orrin Vale", "1")
    answer(enc, "Attribute reduced to 0: Mate Sela Dunn", "5")
    answer(enc, "Attribute reduced to 0: Mate Sela Dunn", "4")
    answer(enc, "Spallation: A1", "2")
    answer(enc, "Radiation: A1", "2")  # 4+: none
    assert enc.pending is None
    vale, dunn = enc.state["people"]["jackal-bridge-1"], enc.state["people"]["jackal-bridge-2"]
    assert (vale["aim"], vale["perception"], vale["brawl"], vale["strength"]) == (0, 0, 50, 50)
    assert (dunn["strength"], dunn["agility"], dunn["ap_turn"], dunn["aim"]) == (0, 0, 0, 50)
    assert not vale["dead"] and not dunn["dead"]
    assert jackal(enc)["crew_attacks"][-1]["result"] == ("2 attributes reduced to 0; Capt. Orrin Vale: aim and "
                                                          "perception reduced to 0; Mate Sela Dunn: strength and "
                                                          "agility reduced to 0")
    assert replay(enc.setup, enc.events, RULESET) == enc.state
    # the Armor and crew panel says it of each of them while the fight goes on, not only the log and the recap
    rows = dict(RULESET.unit_panels(enc.state, RULESET.unit_kind_of(enc.state, "jackal"), "jackal")["Armor and crew"])
    assert rows["Capt. Orrin Vale"] == "bridge, unhurt; perception and aim at 0"
    assert rows["Mate Sela Dunn"] == "bridge, unhurt; agility and strength at 0"



def test_a_nuclear_missile_rolls_only_over_the_attributes_a_crewman_has_left() -> None:
    """Found by a game master's drive: a crewman whose aim and perception an earlier hit took to 0 was offered
    them again, and "lost" nothing. The die is over those still above 0; with none left, nothing is rolled."""
    from engine.ruleset import RuleContext, find_ruleset
    from rulesets.percentile.crew import crew_drained

    enc = duel(BRIDGE)
    percentile = find_ruleset("percentile")
    state = enc.state
    args = {"ship": "jackal", "ship_name": "Jackal", "side": "cor", "location": "bridge", "count": 2,
            "attributes": 2, "only": [], "roster": ["Capt. Orrin Vale", "Mate Sela Dunn"], "tag": ""}
    ctx = RuleContext(1, [], [], RULESET, "percentile", "", state, {})
    crew_drained(state, dict(args), percentile.tables_for(state), ctx)
    vale, dunn = (state["people"][p] for p in ("jackal-bridge-1", "jackal-bridge-2"))
    assert [r.dice for r in ctx.requests] == ["1d5", "1d5"]
    vale.update(perception=0, aim=0)
    dunn.update(perception=0, aim=0, brawl=0, agility=0, strength=0)
    ctx = RuleContext(1, [], [], RULESET, "percentile", "", state, {})
    crew_drained(state, dict(args), percentile.tables_for(state), ctx)
    assert [(r.dice, r.purpose.partition("(")[2]) for r in ctx.requests] == [("1d3", "1 brawl, 2 agility, 3 strength)")]
    assert "Mate Sela Dunn: every attribute is already 0" in ctx.notes


def test_the_recap_names_the_crew_lost_and_the_people_killed_or_wounded() -> None:
    """The fight's summary (``flagbridge log``, the console's recap) tells the crew a location lost and each
    person personal combat killed or wounded (it said only "2 new crew attacks")."""
    from engine.recap import summary

    enc = duel(BRIDGE)
    hit_bridge_crew(enc, "T2")
    answer(enc, "Percent to hit: shotgun at Capt. Orrin Vale", "1")
    answer(enc, "Random hit location on Capt. Orrin Vale", "5")  # head 18: killed
    answer(enc, "Percent to hit: shotgun at Mate Sela Dunn", "1")
    answer(enc, "Random hit location on Mate Sela Dunn", "55")  # left arm 18
    while enc.pending is not None:
        answer(enc, "", "99")
    lines = summary(enc)
    jackal_line = next(line for line in lines if line.startswith("Jackal:"))
    assert "crew bridge 2 -> 1" in jackal_line
    assert "Capt. Orrin Vale (Jackal, bridge): killed" in lines
    assert any(line.startswith("Mate Sela Dunn (Jackal, bridge): wounded, left arm 18") for line in lines), lines


def test_the_recap_names_the_attributes_a_nuclear_missile_took_to_0() -> None:
    """``classic-hg-combat.txt`` line 62, Nuclear Missile: "Crew killed on a 8 (2D), otherwise 2 attributes reduced
    to 0". Found in review: the fight's summary (``flagbridge log``, the console's recap) named the people killed
    or wounded but not those who lost attributes, so a nuclear hit the bridge crew survived read as nothing but
    "1 new crew attacks". Vale loses aim and perception, Dunn strength and agility (the rolls of the nuclear
    missile test above); the recap names them in the order the people's attributes are listed."""
    from engine.recap import summary
    from tests.rulesets.classic_hg.test_effects import strike

    setup = make_setup(dict(ESCORT), dict(RAIDER))
    setup.units["people"] = dict(BRIDGE)
    enc = Encounter(setup, RULESET)
    strike(enc, "bridge", "crew", armor=3, turret="T4", warhead="nuclear")
    answer(enc, "is the crew in the bridge of Jackal killed?", "7")  # 8+ kills
    for name, first, second in (("Capt. Orrin Vale", "2", "1"), ("Mate Sela Dunn", "5", "4")):
        answer(enc, f"Attribute reduced to 0: {name}", first)
        answer(enc, f"Attribute reduced to 0: {name}", second)
    answer(enc, "Spallation: A1", "2")
    answer(enc, "Radiation: A1", "2")  # 4+: none
    assert enc.pending is None
    lines = summary(enc)
    assert "Capt. Orrin Vale (Jackal, bridge): perception and aim reduced to 0" in lines, lines
    assert "Mate Sela Dunn (Jackal, bridge): agility and strength reduced to 0" in lines, lines
    jackal_line = next(line for line in lines if line.startswith("Jackal: "))
    assert "1 new crew attack," in jackal_line + ",", jackal_line  # one of them, not "1 new crew attacks"


def test_a_crew_hit_s_location_prompt_lists_the_hit_table_too() -> None:
    """The personal-combat location roll of a ship's crew hit shows the race's bands under the prompt, from the
    shipped percentile tables the called procedure reads (``Percentile.roll_help``)."""
    enc = duel(BRIDGE)
    hit_bridge_crew(enc)
    answer(enc, "Percent to hit: laser rifle at Capt. Orrin Vale", "10")
    assert enc.pending.then == "percentile:location"
    assert RULESET.roll_help(enc.state, enc.pending)[0].startswith("random hit table #3-3.4: 1-10 head, 11-35 chest")


def test_a_second_dose_of_radiation_does_not_put_death_off() -> None:
    """Radiation: the crew "will die in 1D days if they do not receive antiradiation treatments". Found by a game
    master's drive: a second dose rolled 5 days after a first of 3, and the panel read "dies in 5 days"; untreated,
    the sooner stands."""
    from engine.ruleset import RuleContext, find_ruleset
    from rulesets.percentile.crew import crew_exposure

    enc = duel(BRIDGE)
    percentile = find_ruleset("percentile")
    state = enc.state
    for days in (3, 5):
        args = {"ship": "jackal", "ship_name": "Jackal", "side": "cor", "location": "bridge", "count": 2,
                "points": 2, "kind": "radiation", "dies_in_days": days,
                "roster": ["Capt. Orrin Vale", "Mate Sela Dunn"], "tag": ""}
        ctx = RuleContext(1, [], [], RULESET, "percentile", "", state, {})
        crew_exposure(state, dict(args), percentile.tables_for(state), ctx)
    assert {p["name"]: p["dies_in_days"] for p in state["people"].values()} == {"Capt. Orrin Vale": 3,
                                                                               "Mate Sela Dunn": 3}
    assert "Capt. Orrin Vale dies in 3 days without antiradiation treatment (the earlier dose's 3, sooner than " \
           "this one's 5)" in ctx.notes


# --- the names of crew made on demand --------------------------------------------------------------------------

def two_hits_at_close_range(enc: Encounter) -> None:
    """Turn 1 at close range: the Vigilant's beam laser (A1) and infinite repeater (A2) both hit the Jackal, and
    step 5 begins with A1's damage."""
    enc.correct("range", "close", note="test: infinite repeaters fire only at close range")
    imperial_initiative(enc)
    for turret in ("T1", "T2"):
        enc.act("fire", ship="vigilant", turrets=[turret], target="jackal")
        answer(enc, f"To hit: Vigilant {turret}", "12")
    enc.act("next")
    enc.act("next")
    enc.act("resolve_damage")


def shot_at(enc: Encounter, prefix: str) -> list[str]:
    """Answer every pending roll with a miss (99) and give back the names the rolls beginning ``prefix`` aimed at."""
    names = []
    while enc.pending is not None:
        if enc.pending.purpose.startswith(prefix):
            names.append(enc.pending.purpose[len(prefix):].partition(" (")[0])
        enc.type_roll("99")
    return names


def occupant_hit_then_crew_hit(enc, occupant: str, crew_at: str) -> None:
    """Two hits at close range: the first on stateroom 1, whose occupant the laser rifle misses (99), the second
    a crew hit at ``crew_at``."""
    two_hits_at_close_range(enc)
    answer(enc, "General location: A1", roll_for_general("quarters"))
    answer(enc, "Specific location: A1", roll_for_effect("quarters", "quarters"))
    answer(enc, "Which stateroom or berth", "1")
    answer(enc, f"Percent to hit: laser rifle at {occupant}", "99")
    answer(enc, "General location: A2", roll_for_general(crew_at))
    answer(enc, "Specific location: A2", roll_for_effect(crew_at, "crew"))


def test_a_stateroom_s_inhabitant_is_neither_one_of_the_quarters_crew_nor_counted_in_their_numbers() -> None:
    """``classic-hg-combat.txt``, Quarters (line 87): "If occupied, the inhabitant is subjected to a Crew attack";
    Crew (line 59): "The crew in the general location have been attacked". Found in review: a passenger shot in
    his stateroom was then made one of the "4 crew in the quarters", so a crew hit there shot him in a crewman's
    place and numbered the crew "Quarters crew 2" to 4. The Jackal's four quarters crew are numbered 1 to 4, and
    the passenger is only the inhabitant of his room."""
    enc = duel(crew_combat="percentile", raider={"occupants": [{"name": "Dr. Kel Ashe", "berth": "stateroom 1"}]})
    occupant_hit_then_crew_hit(enc, "Dr. Kel Ashe", "quarters")
    crew = [f"Quarters crew {n}" for n in range(1, 5)]
    assert shot_at(enc, "Percent to hit: shotgun at ") == crew + crew  # the repeater's spallation, then the repeater
    assert sorted(p["name"] for p in enc.state["people"].values()) == ["Dr. Kel Ashe"] + crew


def test_a_nuclear_missile_s_radiation_reaches_the_quarters_crew_and_not_the_passenger_it_spared() -> None:
    """``classic-hg-combat.txt``: Quarters (line 87), "the inhabitant is subjected to a Crew attack"; Nuclear
    Missile (line 62), "Crew killed on a 8 (2D), otherwise 2 attributes reduced to 0"; Radiation (line 89), "all
    crew in the general location hit take 1D damage immediately, and will die in 1D days". The passenger who
    survives his room's hit loses aim and perception in stateroom 1; the radiation's 5 reaches the four quarters
    crew, numbered 1 to 4, and not him (he was one of the four, and the crew began at 2)."""
    from tests.rulesets.classic_hg.test_effects import strike

    enc = duel(crew_combat="percentile", raider={"occupants": [{"name": "Dr. Kel Ashe", "berth": "stateroom 1"}]})
    strike(enc, "quarters", "quarters", armor=3, turret="T4", warhead="nuclear")
    answer(enc, "Which stateroom or berth", "1")
    answer(enc, "Nuclear missile: is the Dr. Kel Ashe of Jackal killed?", "7")  # 8+ kills
    answer(enc, "Attribute reduced to 0: Dr. Kel Ashe", "2")  # aim
    answer(enc, "Attribute reduced to 0: Dr. Kel Ashe", "1")  # perception
    answer(enc, "Spallation: A1", "2")  # 3+ against armor 3
    answer(enc, "Radiation: A1 against Jackal's computer and crew", "12")
    answer(enc, "Radiation: damage to 4 crew in the quarters", "5")
    answer(enc, "Radiation: days until death", "3")
    assert enc.pending is None
    people = {p["name"]: p for p in enc.state["people"].values()}
    assert sorted(people) == ["Dr. Kel Ashe"] + [f"Quarters crew {n}" for n in range(1, 5)]
    ashe = people.pop("Dr. Kel Ashe")
    assert (ashe["location"], ashe["aim"], ashe["perception"]) == ("stateroom_1", 0, 0)
    assert ashe["body"]["chest"]["taken"] == 0
    assert all(p["body"]["chest"]["taken"] == 5 and p["location"] == "quarters" for p in people.values())
    # the recap tells the radiation's death date with the wound (the panel did; the summary left it out)
    from engine.recap import summary

    lines = summary(enc)
    assert "Quarters crew 1 (Jackal, quarters): wounded, chest 5; dies in 3 days untreated" in lines, lines
    assert "Dr. Kel Ashe (Jackal, stateroom 1): perception and aim reduced to 0" in lines, lines


def test_a_named_crewman_hit_in_his_stateroom_stands_with_his_own_location_s_crew() -> None:
    """Quarters (line 87) and Crew (line 59) of ``classic-hg-combat.txt``; a named crewman is counted where the
    crew list puts him, wherever he was hit (``damage.crew_place``). Found in review: Capt. Vale, shot in his
    stateroom, was made one of the quarters crew (taking their number 1), and a later bridge hit made a
    "Bridge crew 2" to stand in for him. The bridge's two are Vale and Dunn."""
    enc = duel(BRIDGE, raider={"occupants": [{"name": "Capt. Orrin Vale", "berth": "stateroom 1"}]})
    occupant_hit_then_crew_hit(enc, "Capt. Orrin Vale", "bridge")
    bridge = ["Capt. Orrin Vale", "Mate Sela Dunn"]
    assert shot_at(enc, "Percent to hit: shotgun at ") == bridge + bridge
    assert sorted(p["name"] for p in enc.state["people"].values()) == bridge


def test_crew_made_after_one_has_left_the_location_take_a_number_nobody_has() -> None:
    """Crew (line 59 of ``classic-hg-combat.txt``): each crew hit shoots the crew counted at the location. Found in
    review: the numbers came from a head count of the location, so once the game master had moved Bridge crew 1
    to the quarters by a correction, the next bridge hit made a new "Bridge crew 2" over the wounded one (his
    wound gone) and shot him twice. The one who is left keeps his wound; the one made is Bridge crew 3."""
    enc = duel(crew_combat="percentile")
    two_hits_at_close_range(enc)
    answer(enc, "General location: A1", roll_for_general("bridge"))
    answer(enc, "Specific location: A1", roll_for_effect("bridge", "crew"))
    answer(enc, "Percent to hit: laser rifle at Bridge crew 1", "99")
    answer(enc, "Percent to hit: laser rifle at Bridge crew 2", "10")
    answer(enc, "Random hit location on Bridge crew 2", "20")  # chest 16 (WEP MOD 8 at medium range)
    enc.correct("people.jackal-bridge-1.location", "quarters", note="test: Bridge crew 1 has gone to his bunk")
    answer(enc, "General location: A2", roll_for_general("bridge"))
    answer(enc, "Specific location: A2", roll_for_effect("bridge", "crew"))
    bridge = ["Bridge crew 2", "Bridge crew 3"]
    assert shot_at(enc, "Percent to hit: shotgun at ") == bridge + bridge
    people = enc.state["people"]
    assert {pid: p["name"] for pid, p in people.items()} == {
        "jackal-bridge-1": "Bridge crew 1", "jackal-bridge-2": "Bridge crew 2", "jackal-bridge-3": "Bridge crew 3"}
    assert people["jackal-bridge-2"]["body"]["chest"]["taken"] == 16


def test_corrections_keep_an_attack_in_flight_and_a_crew_count_the_rules_can_play() -> None:
    """Found by a fuzzer of typed corrections: an attack's weapon corrected to "x" or its location to "low 17" was
    taken, and its damage roll then crashed on a weapon and a location no table holds; crew corrected to 100,000
    at one location were each made and fought by the next crew hit (half a minute a roll). Each is refused where it
    is typed, and nothing is recorded."""
    from engine.errors import IllegalAction

    enc = duel(crew_combat="percentile")
    two_hits_at_close_range(enc)
    before = len(enc.events)
    for path, value, why in (("attacks[0].weapon", "x", "must be one of"),
                             ("attacks[0].location", "low 17", "must be one of"),
                             ("attacks[0].target", "nowhere", "must be one of"),
                             ("ships.jackal.crew.weapons", "100000", "must be from 0 to 1000")):
        with pytest.raises(IllegalAction, match=why):
            enc.correct(path, value)
    assert len(enc.events) == before
    enc.correct("attacks[0].location", "")  # values the rules know are taken as before
    enc.correct("ships.jackal.crew.weapons", "12")
    assert enc.state["ships"]["jackal"]["crew"]["weapons"] == 12


def test_a_crew_member_s_body_corrected_plays_out_as_percentile_plays_it_out(tmp_path: Path) -> None:
    """classic-hg's crew are percentile's people (``rulesets/percentile/crew.py``): a body part corrected to no
    function kills them as it does in a percentile fight, with the same line in the log, and the save replays
    to the same state. Found by a helper: classic-hg played out nothing, so Capt. Orrin Vale stayed alive with
    his chest gone. percentile-personal-combat.txt, the damage rules: a vital part with no function left kills."""
    enc, vale = vale_shot_in_the_chest()
    chest = enc.state["people"][vale]["body"]["chest"]
    enc.correct(f"people.{vale}.body.chest.taken", 5 * chest["points"], note="table ruling")
    assert enc.state["people"][vale]["dead"]
    assert "Capt. Orrin Vale is dead: the chest has no function left" in enc.events[-1].notes
    path = tmp_path / "crew.toml"
    create(path, enc)
    assert SaveFile.load(path).encounter.state == enc.state
    enc.correct(f"people.{vale}.body.chest.taken", 0)
    assert not enc.state["people"][vale]["dead"]


def test_a_save_written_before_crew_corrections_played_out_loads_with_today_s_result(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A save of the version before: its [state] keeps Capt. Orrin Vale alive after his chest was corrected to no
    function. That is the older version's result, not a hand edit: the file opens, unchanged, with him dead."""
    from rulesets.classic_hg import ClassicHG

    path = tmp_path / "old.toml"
    with monkeypatch.context() as m:
        m.setattr(ClassicHG, "plays_out_crew", False)
        enc = duel(BRIDGE)
        hit_bridge_crew(enc)
        answer(enc, "Percent to hit: laser rifle at Capt. Orrin Vale (Jackal, bridge", "10")
        answer(enc, "Random hit location on Capt. Orrin Vale", "20")
        answer(enc, "Percent to hit: laser rifle at Mate Sela Dunn", "44")
        vale = next(pid for pid, p in enc.state["people"].items() if p["name"] == "Capt. Orrin Vale")
        enc.correct(f"people.{vale}.body.chest.taken", 5 * enc.state["people"][vale]["body"]["chest"]["points"])
        assert not enc.state["people"][vale]["dead"]
        create(path, enc)
    text = path.read_text()
    assert SaveFile.load(path).encounter.state["people"][vale]["dead"]
    assert path.read_text() == text


def test_a_crew_member_s_wound_follows_the_damage_corrected_and_an_older_save_still_loads(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A crew member's chest corrected as percentile corrects it: he dies, and the wound says what the corrected
    damage does (percentile-personal-combat.txt, Description: "DAMAGE PERCENTAGE = points taken / total points *
    100" finds it). A save of the version before, whose [state] has him dead but keeps the wound as it was, is that
    version's result, not a hand edit: it opens, unchanged, with the wound read again."""
    from rulesets.classic_hg import ClassicHG
    from rulesets.percentile.people import damage_percentage
    from rulesets.percentile.tables import load_tables
    from rulesets.percentile.wounds import describe

    def corrected() -> tuple:
        enc, vale = vale_shot_in_the_chest()
        chest = enc.state["people"][vale]["body"]["chest"]["points"]
        enc.correct(f"people.{vale}.body.chest.taken", 5 * chest)  # totally destroyed: he dies
        return enc, vale

    enc, vale = corrected()
    wound = enc.state["people"][vale]["wounds"][0]
    chest = enc.state["people"][vale]["body"]["chest"]["points"]
    assert enc.state["people"][vale]["dead"]
    assert (wound["points"], wound["percent"]) == (5 * chest, damage_percentage(5 * chest, chest))
    assert wound["text"] == describe(load_tables(), wound["type"], wound["percent"])[0].partition(": ")[2]
    path = tmp_path / "old.toml"
    with monkeypatch.context() as m:
        m.setattr(ClassicHG, "rereads_crew_wounds", False)
        old, _ = corrected()
        assert old.state["people"][vale]["wounds"][0]["points"] == 16
        create(path, old)
    text = path.read_text()
    assert SaveFile.load(path).encounter.state["people"][vale]["wounds"][0] == wound
    assert path.read_text() == text


def test_the_armor_and_crew_row_names_the_weapon_of_a_crew_attack_in_the_tables_words() -> None:
    """Found by a game master's drive: an HE missile's crew hit read '(missile he)', the table's key, in the
    Armor and crew panel, where the log and the checklist call the same weapon 'HE missile' ("HE Missiles:
    Treat as LAG with HE at medium range", classic-hg-combat.txt, Crew)."""
    enc = duel(crew_combat="percentile")
    hit_bridge_crew(enc, "T4")  # a missile rack, HE warhead
    answer(enc, "Percent to hit: LAG with HE at Bridge crew 1", "99")
    answer(enc, "Percent to hit: LAG with HE at Bridge crew 2", "99")
    records = {r["as"]: r for r in jackal(enc)["crew_attacks"]}
    assert "missile_he" in records
    rows = [value for label, value in
            RULESET.unit_panels(enc.state, RULESET.catalogue.unit_kinds["ship"], "jackal")["Armor and crew"]
            if label == "Crew attack"]
    missile = next(v for v in rows if "Bridge crew 1: missed" in v and "spallation" not in v)
    assert "(HE missile)" in missile and "missile he" not in missile


def test_a_crew_member_s_part_follows_his_wound_corrected_and_an_older_save_still_loads(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A crew member's chest wound corrected to the chest's points (percentile-personal-combat.txt, Tissue Damage:
    "When he or she has no more damage points left in a body part he or she has no more function in that body
    part"): the chest has taken them, and he dies, as percentile plays it out. A save of the version before, whose
    [state] keeps the chest at the wound's first 16 points and him alive, opens unchanged with today's result."""
    from rulesets.classic_hg import ClassicHG

    def corrected() -> tuple:
        enc, vale = vale_shot_in_the_chest()
        chest = enc.state["people"][vale]["body"]["chest"]["points"]
        enc.correct(f"people.{vale}.wounds[0].points", chest)
        return enc, vale, chest

    enc, vale, chest = corrected()
    assert enc.state["people"][vale]["body"]["chest"]["taken"] == chest and enc.state["people"][vale]["dead"]
    path = tmp_path / "old.toml"
    with monkeypatch.context() as m:
        m.setattr(ClassicHG, "crew_parts_follow_wounds", False)
        old, _, _ = corrected()
        assert old.state["people"][vale]["body"]["chest"]["taken"] == 16 and not old.state["people"][vale]["dead"]
        create(path, old)
    text = path.read_text()
    assert SaveFile.load(path).encounter.state["people"][vale]["body"]["chest"]["taken"] == chest
    assert path.read_text() == text


def test_a_crew_member_s_part_corrected_counts_his_radiation_among_its_wounds() -> None:
    """Radiation's 1D is kept on the chest (ours) as a wound no description table reads. The chest corrected from
    its 5 to 8 takes the 3 more as a wound of no stated type (percentile reads damage with no wound to take it so),
    not 8 more; corrected to 2, that wound goes and the radiation keeps 2: the chest's damage is its wounds'."""
    enc = bridge_irradiated()
    vale = enc.state["people"]["jackal-bridge-1"]
    enc.correct("people.jackal-bridge-1.body.chest.taken", 8)
    assert [(w["type"], w["points"]) for w in vale["wounds"]] == [("radiation", 5), ("untyped", 3)]
    enc.correct("people.jackal-bridge-1.body.chest.taken", 2)
    assert [(w["type"], w["points"]) for w in vale["wounds"]] == [("radiation", 2), ("untyped", 0)]
    assert vale["body"]["chest"]["taken"] == 2


def test_a_crew_member_s_values_are_corrected_within_the_limits_of_a_percentile_fight() -> None:
    """The crew are percentile people (rulesets/percentile), and their values keep that ruleset's limits when
    corrected here: no negative damage, no wound type no description table reads, no race or weapon the tables lack
    (found by a helper: a classic-hg fight took `wounds[0].points = -1`, `type = "projectle"` and `taken = -3`)."""
    from engine.errors import FlagbridgeError

    enc, vale = vale_shot_in_the_chest()
    assert enc.state["people"][vale]["wounds"]
    for path, value, why in ((f"people.{vale}.wounds[0].points", -1, "must be from 0"),
                             (f"people.{vale}.wounds[0].type", "projectle", "must be a damage type"),
                             (f"people.{vale}.body.chest.taken", -3, "must be from 0"),
                             (f"people.{vale}.race", "Martian", "must be one of")):
        with pytest.raises(FlagbridgeError, match=why):
            enc.check_correction(path, value)
    enc.check_correction(f"people.{vale}.body.chest.taken", 20)  # within the limits: taken


#: What a crew member's corrections played out that the version before the first-band reading of slight wounds
#: lacked (its saves are replayed with all of them off, ``ClassicHG.earlier_readings``).
CREW_LACKED_BEFORE = ("crew_reads_slight_wounds", "crew_moves_wounds", "crew_keeps_percent_by_hand")


def as_the_version_before(m: pytest.MonkeyPatch) -> None:
    from rulesets.classic_hg import ClassicHG

    for name in CREW_LACKED_BEFORE:
        m.setattr(ClassicHG, name, False)


def test_a_crew_member_s_wound_under_the_first_band_reads_it_and_an_older_save_still_loads(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A crew member's wound with its percentage corrected to 0 still has its points: as in a percentile fight, it
    reads its table's first band (percentile-personal-combat.txt, You want more description?: the actual percentage
    "may fall between the upper and lower limit of any one category"; below the first, the first is the nearest),
    not nothing. A save of the version before, whose [state] keeps the wound with no words, opens unchanged."""
    from rulesets.percentile.tables import load_tables

    def corrected() -> tuple:
        enc, vale = vale_shot_in_the_chest()
        enc.correct(f"people.{vale}.wounds[0].percent", 0)
        return enc, vale

    enc, vale = corrected()
    wound = enc.state["people"][vale]["wounds"][0]
    rows = load_tables().descriptions[wound["type"]]["rows"]
    assert wound["points"] > 0 and wound["text"] == rows[min(rows, key=int)]["text"]
    path = tmp_path / "old.toml"
    with monkeypatch.context() as m:
        as_the_version_before(m)
        old, _ = corrected()
        assert old.state["people"][vale]["wounds"][0]["text"] == ""
        create(path, old)
    text = path.read_text()
    assert SaveFile.load(path).encounter.state["people"][vale]["wounds"][0] == wound
    assert path.read_text() == text


def test_a_crew_member_s_wound_moves_to_a_part_of_his_body_and_an_older_save_still_loads(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A crew member's wound moved by a correction, as in a percentile fight: only to a part of his body, and its points
    go with it (Tissue Damage: the points a part has taken describe its function). Vale's chest wound moved to his head
    kills him (ours: the head is vital). A save of the version before, whose [state] keeps the points on the chest and
    him alive, opens unchanged with today's result."""
    from engine.errors import FlagbridgeError

    def corrected() -> tuple:
        enc, vale = vale_shot_in_the_chest()
        enc.correct(f"people.{vale}.wounds[0].part", "head")
        return enc, vale

    enc, vale = vale_shot_in_the_chest()
    with pytest.raises(FlagbridgeError, match=r"part must be one of head, chest, .* \(Capt\. Orrin Vale's body parts"):
        enc.check_correction(f"people.{vale}.wounds[0].part", "left_claw")
    enc, vale = corrected()
    body = enc.state["people"][vale]["body"]
    assert (body["chest"]["taken"], body["head"]["taken"]) == (0, 16) and enc.state["people"][vale]["dead"]
    path = tmp_path / "old.toml"
    with monkeypatch.context() as m:
        as_the_version_before(m)
        old, _ = corrected()
        assert old.state["people"][vale]["body"]["chest"]["taken"] == 16 and not old.state["people"][vale]["dead"]
        create(path, old)
    text = path.read_text()
    loaded = SaveFile.load(path).encounter.state["people"][vale]
    assert (loaded["body"]["chest"]["taken"], loaded["body"]["head"]["taken"], loaded["dead"]) == (0, 16, True)
    assert path.read_text() == text


def test_a_crew_member_s_percentage_typed_by_hand_stands_and_an_older_save_still_loads(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As in a percentile fight, a crew member's wound percentage typed by hand is the game master's reading of it
    (percentile-personal-combat.txt, Damage, Procedures: "Game Masters should use discretion to customize the
    descriptions"): his chest's points corrected do not read it again. A save of the version before, which read it
    again, opens unchanged with the typed percentage."""
    def corrected() -> tuple:
        enc, vale = vale_shot_in_the_chest()
        enc.correct(f"people.{vale}.wounds[0].percent", 40)
        enc.correct(f"people.{vale}.body.chest.points", 2 * enc.state["people"][vale]["body"]["chest"]["points"])
        return enc, vale

    enc, vale = corrected()
    assert enc.state["people"][vale]["wounds"][0]["percent"] == 40
    path = tmp_path / "old.toml"
    with monkeypatch.context() as m:
        as_the_version_before(m)
        old, _ = corrected()
        assert old.state["people"][vale]["wounds"][0]["percent"] != 40
        create(path, old)
    text = path.read_text()
    assert SaveFile.load(path).encounter.state["people"][vale]["wounds"][0]["percent"] == 40
    assert path.read_text() == text


def test_a_crew_member_s_wound_given_whole_keeps_the_percentage_typed_in_it() -> None:
    """As in a percentile fight (percentile-personal-combat.txt, Damage, Procedures: "Game Masters should use
    discretion to customize the descriptions"): Vale's chest wound given whole with half its points and 40%, the
    points played first read the percentage from themselves over the 40% given with them. The 40% stands, marked as
    typed by hand, and the chest has taken the points given."""
    enc, vale = vale_shot_in_the_chest()
    wound = dict(enc.state["people"][vale]["wounds"][0])
    half = wound["points"] // 2
    enc.correct(f"people.{vale}.wounds[0]", dict(wound, points=half, percent=40))
    wound = enc.state["people"][vale]["wounds"][0]
    assert (wound["points"], wound["percent"], wound.get("percent_by_hand")) == (half, 40, True)
    assert enc.state["people"][vale]["body"]["chest"]["taken"] == half


def test_a_crew_hit_under_the_first_band_reads_it_and_an_older_save_still_loads(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A crew hit, not only a correction, may land under the first category, as in a percentile fight: the laser's 16
    points in a chest of 10000 (corrected so while the hit is rolled) are 0.16%, 0% rounded half up, and the wound
    reads its table's first band (percentile-personal-combat.txt, You want more description?: the nearest category).
    The version before read none for it; a save it wrote keeps the wound with no words under the same log, and opens
    unchanged with the first band's words."""
    from rulesets.percentile.tables import load_tables
    from tests.rulesets.percentile.test_corrections import reads_no_band_under_the_first

    def hit() -> tuple:
        enc = duel(BRIDGE)
        hit_bridge_crew(enc)
        vale = next(pid for pid, p in enc.state["people"].items() if p["name"] == "Capt. Orrin Vale")
        enc.correct(f"people.{vale}.body.chest.points", 10000)
        answer(enc, "Percent to hit: laser rifle at Capt. Orrin Vale (Jackal, bridge", "10")
        answer(enc, "Random hit location on Capt. Orrin Vale", "20")  # chest, 16 taken
        answer(enc, "Percent to hit: laser rifle at Mate Sela Dunn", "44")
        return enc, vale

    enc, vale = hit()
    wound = enc.state["people"][vale]["wounds"][0]
    rows = load_tables().descriptions[wound["type"]]["rows"]
    assert (wound["points"], wound["percent"], wound["text"]) == (16, 0, rows[min(rows, key=int)]["text"])
    path = tmp_path / "old.toml"
    with monkeypatch.context() as m:
        as_the_version_before(m)
        reads_no_band_under_the_first(m)
        old, _ = hit()
        assert old.state["people"][vale]["wounds"][0]["text"] == ""
        create(path, old)
    text = path.read_text()
    assert SaveFile.load(path).encounter.state["people"][vale]["wounds"][0] == wound
    assert path.read_text() == text
