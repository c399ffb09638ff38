"""classic-hg rules with numbers straight from ``rules/classic-hg-combat.txt``.

Each test names the paragraph its numbers come from.
"""

from __future__ import annotations

import pytest

from engine.ruleset import RuleContext
from rulesets.classic_hg import damage, turn
from rulesets.classic_hg.ships import controls_for, energy_points, sensors_for


def _armored(tonnage: int, factor: int) -> dict:
    return {"tonnage": tonnage, "armor_factor": factor, "armor_hits": 0}


def test_scout_armor_erodes_one_factor_per_ten_hits() -> None:
    """"If a 100 ton Scout was armored to factor 3, 10 hits would reduce the armor to factor 2,
    20 hits would reduce it to factor 1, and 30 hits would reduce its armor factor to 0." (Armor)"""
    scout = _armored(100, 3)
    # factor-3 armor stops 3 points of each attack; 10 attacks of 1 point each are 10 hits stopped
    for _ in range(10):
        damage.absorb(scout, 1)
    assert scout["armor_factor"] == 2
    for _ in range(10):
        damage.absorb(scout, 1)
    assert scout["armor_factor"] == 1
    for _ in range(10):
        damage.absorb(scout, 1)
    assert scout["armor_factor"] == 0


def test_armor_subtracts_its_factor_from_each_attack() -> None:
    """"Ship's armor absorbs 1 point per factor per hit. Thus armor subtracts from each attack." (Armor)"""
    ship = _armored(400, 3)
    assert damage.absorb(ship, 5) == (3, 2, 0)
    assert damage.absorb(ship, 2) == (2, 0, 0)
    assert ship["armor_hits"] == 5


def test_armor_never_below_zero() -> None:
    """"A ships' armor factor may never be reduced below 0." (Armor)"""
    ship = _armored(10, 1)  # tonnage/10 = 1 hit per factor
    stopped, through, lost = damage.absorb(ship, 9)
    assert (stopped, through, lost) == (1, 8, 1)
    assert ship["armor_factor"] == 0
    assert damage.absorb(ship, 4) == (0, 4, 0)
    assert ship["armor_factor"] == 0


def test_unarmored_ship_takes_everything() -> None:
    """"... or the ship is not fitted with armor, the effects of the damage table are determined." """
    assert damage.absorb(_armored(200, 0), 6) == (0, 6, 0)


def test_erosion_step_is_tonnage_over_ten() -> None:
    """"A ship can receive hits equal to its tonnage/10 before its armor is reduced by a factor of 1." """
    assert damage.erosion_step(100) == 10
    assert damage.erosion_step(400) == 40
    assert damage.erosion_step(1000) == 100


def test_controls_and_sensors_follow_the_computer() -> None:
    """Controls: "Ships have controls equal to the computer factor plus one." Sensors: "equal to
    their computer factor. Naval vessels will have double the amount of sensors." """
    assert controls_for(2) == 3
    assert sensors_for(2, naval=False) == 2
    assert sensors_for(2, naval=True) == 4


def test_energy_points_are_one_percent_of_hull_per_plant_factor() -> None:
    """High Guard's power plant output; used to check weapons' energy points (text: repeaters use 2)."""
    assert energy_points(400, 4) == 16
    assert energy_points(100, 1) == 1


def _two_sides(turn_number: int = 1) -> dict:
    return {"turn": turn_number, "side_order": ["imp", "cor"], "side_names": {"imp": "Imperial", "cor": "Corsairs"},
            "initiative": {}, "attacker": "", "defender": "", "simultaneous": False, "surprised": "",
            "range": "long", "range_set": False}


@pytest.mark.parametrize("imp,cor,attacker,surprised", [
    (6, 3, "imp", "cor"),   # "three or better above his adversary": surprise
    (5, 3, "imp", ""),      # two above: no surprise
    (2, 7, "cor", "imp"),
])
def test_initiative_and_first_turn_surprise(imp: int, cor: int, attacker: str, surprised: str) -> None:
    """Step 1: the higher roll is ATTACKER; on the initial encounter a margin of three or better
    gives one turn of surprise."""
    state = _two_sides()
    ctx = RuleContext(1)
    turn.record_initiative(state, "imp", imp, ctx)
    turn.record_initiative(state, "cor", cor, ctx)
    assert state["attacker"] == attacker
    assert state["defender"] == ("cor" if attacker == "imp" else "imp")
    assert state["surprised"] == surprised
    assert not state["simultaneous"]


def test_no_surprise_after_the_initial_encounter() -> None:
    """Surprise is only "on the initial encounter"."""
    state = _two_sides(turn_number=2)
    ctx = RuleContext(1)
    turn.record_initiative(state, "imp", 6, ctx)
    turn.record_initiative(state, "cor", 1, ctx)
    assert state["attacker"] == "imp" and state["surprised"] == ""


def test_equal_rolls_are_simultaneous_initiative() -> None:
    """NOTE: "In the event of simultaneous initiative ... The DEFENDER does not record his damage
    or its effects until STEP 8." """
    state = _two_sides()
    ctx = RuleContext(1)
    turn.record_initiative(state, "imp", 4, ctx)
    turn.record_initiative(state, "cor", 4, ctx)
    assert state["simultaneous"] is True
    assert state["attacker"] == "imp" and state["defender"] == "cor"
    assert state["surprised"] == ""


def test_range_changes_one_step_at_a_time() -> None:
    """Step 2: "Range may be altered by one step only ... never from long to close in one turn." """
    state = _two_sides(turn_number=2)
    assert turn.range_choices(state) == ("short", "long")
    state.update(step=2, over="")
    assert turn.may_set_range(state, {"range": "close"}, None) == \
        "range 'close': from long the range may become short, long"
    assert turn.may_set_range(state, {"range": "short"}, None) == ""
    turn.set_range(state, {"range": "short"}, None, RuleContext(1))
    state["range_set"] = False
    assert turn.range_choices(state) == ("close", "short", "long")


def test_first_turn_is_at_long_range() -> None:
    """Step 2: "Initial encounters always take place at long range." """
    state = _two_sides(turn_number=1)
    state.update(step=2, over="")
    assert turn.may_set_range(state, {"range": "short"}, None) == "the first turn is fought at long range"


def test_energy_points_keep_their_half() -> None:
    """High Guard: 1% of the hull per power plant factor; 875 tons at factor 10 give 87.5 (issue 9)."""
    assert energy_points(875, 10) == 87.5
    assert energy_points(600, 6) == 36


def test_attack_by_id_finds_any_attack_where_its_number_puts_it_or_anywhere():
    """Attacks are looked up by id for every roll of a damage chain: where their numbers put them when the list is
    as ``new_attack`` makes it, and by a whole search otherwise (ids edited by hand, a gap, another order)."""
    import pytest

    from engine.errors import IllegalAction
    from rulesets.classic_hg.fire import attack_by_id

    made = {"attacks": [{"id": f"A{n}"} for n in range(7, 12)]}
    assert [attack_by_id(made, f"A{n}")["id"] for n in range(7, 12)] == [f"A{n}" for n in range(7, 12)]
    edited = {"attacks": [{"id": "A3"}, {"id": "A9"}, {"id": "A4"}, {"id": "X²"}, {"id": "A٣"}]}
    for aid in ("A3", "A9", "A4", "X²", "A٣"):
        assert attack_by_id(edited, aid)["id"] == aid
    for missing in ("A5", "A²", "", "A"):
        with pytest.raises(IllegalAction):
            attack_by_id(edited, missing)
