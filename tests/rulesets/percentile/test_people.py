"""Characters, races and body parts (percentile-personal-combat.txt: "Any move at all?", "Structure and
Function", "Description", "Organ System Damage")."""

from __future__ import annotations

import pytest

from engine.errors import BadTable
from rulesets.percentile.people import damage_percentage, part_state, structure_points
from rulesets.percentile.tables import load_tables

from .fights import fight, person


def test_race_averages_from_the_text() -> None:
    """"an Aracnian can expend their average number of agility points, 156 in the same time it takes a
    human to consume their 55" ("Any move at all?")."""
    races = load_tables().races
    assert races["aracnian"]["agility_points"] == 156
    assert races["human"]["agility_points"] == 55


def test_anatomy_from_the_text() -> None:
    """Exoskeletons: "the Aracnians, Fenbin, and Sooaacoli"; the head "in the chest for the Eebek and Krane";
    "the Aracnian's and Eebek's decentralized circulatory and respiratory system" (Description, Organ System
    Damage)."""
    races = load_tables().races
    assert {r for r, v in races.items() if v["exoskeleton"]} == {"aracnian", "fenbin", "sooaacoli"}
    assert {r for r, v in races.items() if v["head_in"] == "chest"} == {"eebek", "krane"}
    assert {r for r, v in races.items() if v["spread_damage"]} == {"aracnian", "eebek"}


def test_a_person_gets_the_race_average_agility_points_when_none_is_given() -> None:
    """"the number of Agility Points is equal to the characters' Agility Attribute" (Procedures for Action 2);
    0 in a file means the race's average (ours)."""
    enc = fight({"a": person("blue", "Human"), "s": person("red", "Spider", race="aracnian"),
                 "t": person("red", "Quick", agility=70)})
    people = enc.state["people"]
    assert (people["a"]["agility"], people["s"]["agility"], people["t"]["agility"]) == (55, 156, 70)


def test_the_average_hand_is_totally_destroyed_at_thirty_points() -> None:
    """"the average hand with its six points is totally destroyed when it has received thirty points (5 x 6)"."""
    hand = load_tables().races["human"]["parts"]
    assert next(p for p in hand if p["id"] == "left_hand")["points"] == 6
    assert part_state({"points": 6, "taken": 29}) == "no function"
    assert part_state({"points": 6, "taken": 30}) == "totally destroyed"


def test_structure_is_the_first_ten_percent_and_function_follows() -> None:
    """"the first ten percent of damage points ... structure before the points of function"; "no more damage
    points left in a body part ... no more function"."""
    assert structure_points(30) == 3 and structure_points(6) == 1  # a tenth, rounded up (ours)
    assert part_state({"points": 30, "taken": 3}) == "structure only"
    assert part_state({"points": 30, "taken": 10}) == "function 20/27"
    assert part_state({"points": 30, "taken": 30}) == "no function"


def test_damage_percentage() -> None:
    """DAMAGE PERCENTAGE = points taken / total points * 100 (Description)."""
    assert damage_percentage(7, 20) == 35
    assert damage_percentage(3, 6) == 50
    assert damage_percentage(30, 6) == 500


def test_a_person_names_only_known_races_weapons_and_parts() -> None:
    with pytest.raises(BadTable, match="race must be one of"):
        fight({"a": person("blue", "A", race="orc"), "b": person("red", "B")})
    with pytest.raises(BadTable, match=r"weapons\[0\]: no weapon 'phaser'"):
        fight({"a": person("blue", "A", weapons=["phaser"]), "b": person("red", "B")})
    with pytest.raises(BadTable, match="'tail' is not a part of a human"):
        fight({"a": person("blue", "A", body={"tail": 3}), "b": person("red", "B")})


def test_every_shipped_person_file_loads() -> None:
    from engine.files import load_unit
    from rulesets.percentile import RULESET

    files = RULESET.unit_library(RULESET.catalogue.unit_kinds["person"])
    assert len(files) >= 4
    for f in files:
        rs, kind, body = load_unit(f)
        assert rs.id == "percentile" and kind.id == "person"


def test_a_corrected_head_decides_again_whether_its_person_is_dead() -> None:
    enc = fight()
    enc.correct("people.cid.body.head.taken", 8, note="test: the head has no function left")
    assert enc.state["people"]["cid"]["dead"]
    enc.correct("people.cid.body.head.taken", 7)
    assert not enc.state["people"]["cid"]["dead"]


def test_crew_made_on_demand_have_the_state_person_state_gives_and_share_nothing() -> None:
    """Crew made for a ship's crew hit (``crew.enlist``) begin as ``person_state`` makes them, by their own side
    and name, and no two share a list or a body part (the state kept to copy them from is never handed out)."""
    from rulesets.percentile.crew import DEFAULTS, enlist
    from rulesets.percentile.people import person_state

    tables = load_tables()
    state: dict = {"people": {}}
    ids = enlist(state, tables, {"ship": "s", "side": "imp", "location": "bridge", "count": 2, "roster": ["Ada"]})
    ids += enlist(state, tables, {"ship": "t", "side": "cor", "location": "hangar", "count": 1})
    assert ids == ["s-bridge-1", "s-bridge-2", "t-hangar-1"]
    for pid in ids:
        made = state["people"][pid]
        expected = {**person_state({**DEFAULTS, "side": made["side"], "name": made["name"]}, tables),
                    "ship": made["ship"], "location": made["location"]}
        assert made == expected and list(made) == list(expected)
    assert [state["people"][pid]["name"] for pid in ids] == ["Ada", "Bridge crew 2", "Hangar crew 1"]
    first, second = state["people"]["s-bridge-1"], state["people"]["s-bridge-2"]
    first["body"]["chest"]["taken"] = 3
    first["wounds"].append({"part": "chest"})
    first["weapons"].append("laser_rifle")
    assert second["body"]["chest"]["taken"] == 0 and second["wounds"] == [] and second["weapons"] == []
    again = enlist(state, tables, {"ship": "s", "side": "imp", "location": "quarters", "count": 1})
    assert state["people"][again[0]]["body"]["chest"]["taken"] == 0 and state["people"][again[0]]["wounds"] == []


def test_a_persons_body_is_the_races_parts_with_the_files_own_points_and_is_nobody_elses() -> None:
    """"the average hand with its six points" ("Structure and Function"): each part starts with the race's
    points unless the person's file gives its own (ours), unhurt; hurting one person's body, or the first
    person made of a race, leaves the next person made of it whole."""
    from rulesets.percentile.crew import DEFAULTS
    from rulesets.percentile.people import person_state

    tables = load_tables()
    own = person_state({**DEFAULTS, "side": "x", "name": "Own", "body": {"left_hand": 9}}, tables)
    plain = person_state({**DEFAULTS, "side": "x", "name": "Plain"}, tables)
    assert list(own["body"]) == [p["id"] for p in tables.races["human"]["parts"]]
    assert own["body"]["left_hand"] == {"points": 9, "taken": 0}
    assert plain["body"]["left_hand"] == {"points": 6, "taken": 0}
    plain["body"]["chest"]["taken"] = 4
    plain["body"]["left_hand"]["points"] = 1
    plain["wounds"].append({"part": "chest"})
    later = person_state({**DEFAULTS, "side": "x", "name": "Later"}, tables)
    assert later["body"]["chest"]["taken"] == 0 and later["body"]["left_hand"]["points"] == 6
    assert later["wounds"] == [] and later["weapons"] == [] and own["body"]["chest"]["taken"] == 0
    assert (later["side"], later["name"], later["agility"], later["ap_turn"]) == ("x", "Later", 55, 55)
