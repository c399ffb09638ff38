"""Worked cases the rules text states or implies with its own numbers, each pinned where no other test did
(percentile-personal-combat.txt; the section is named in each test). Expected numbers are worked by hand from the
text; where a shipped table (ours) gives the input, the test says so."""

from __future__ import annotations

from rulesets.percentile.catalogue import read_options
from rulesets.percentile.people import part_state
from rulesets.percentile.tables import load_tables
from rulesets.percentile.turn import ap_left

from .fights import answer, fight, notes, person, refused, to_action


# --- Any move at all? ------------------------------------------------------------------------------------------

def test_all_of_a_turns_points_take_five_seconds_for_a_human_55_and_an_aracnian_156() -> None:
    """Any move at all?: "if a player expends 100% of their agility points, it will take approximately 5 seconds
    ... regardless of race ... an Aracnian can expend their average number of agility points, 156 in the same
    time it takes a human to consume their 55". Ann (human, 55) spends 45 then 10: 45/55 of 5 s is 4.09, so
    4.1 s, then all 55 at 5.0 s. Sid (Aracnian, 156) spends 150 then 6: 150/156 of 5 s is 4.81, so 4.8 s, then
    all 156 at 5.0 s. (Table 3-6 costs are ours: reload 15, take aim 10, walk 3.)"""
    enc = fight({"ann": person("blue", "Ann"), "sid": person("red", "Sid", race="aracnian")})
    to_action(enc)
    enc.act("move", person="ann", what="reload", times=3)
    assert "Ann: reload x3, 45 APts (4.1 s into the turn)" in notes(enc, 1)
    enc.act("move", person="ann", what="aim")
    assert "Ann: take aim, 10 APts (5.0 s into the turn)" in notes(enc, 1)
    enc.act("next")
    assert enc.state["people"]["sid"]["ap_turn"] == 156
    enc.act("move", person="sid", what="reload", times=10)
    assert "Sid: reload x10, 150 APts (4.8 s into the turn)" in notes(enc, 1)
    enc.act("move", person="sid", what="walk", times=2)
    assert "Sid: walk one metre x2, 6 APts (5.0 s into the turn)" in notes(enc, 1)


def test_half_a_second_for_every_ten_percent_spent() -> None:
    """Any move at all?: "A character takes approximately one-half of a second, of game time, for every ten
    percent of agility points expended". With an Agility of 30, a 3-point walk is 10%: 0.5 s; 15 points are 50%:
    2.5 s."""
    enc = fight({"ann": person("blue", "Ann", agility=30), "cid": person("red", "Cid")})
    to_action(enc)
    enc.act("move", person="ann", what="walk")
    assert "Ann: walk one metre, 3 APts (0.5 s into the turn)" in notes(enc, 1)
    enc.act("move", person="ann", what="walk", times=4)
    assert "Ann: walk one metre x4, 12 APts (2.5 s into the turn)" in notes(enc, 1)


# --- Need to slow it down? -------------------------------------------------------------------------------------

def test_a_turn_is_cut_into_five_sub_turns_unless_the_game_master_says_otherwise() -> None:
    """Need to slow it down?: "The usual number of pieces that a Turn is cut into is five, but it can be any
    number"; a human's 55 points are 11 a piece."""
    assert read_options({})["subturns"] == 5
    enc = fight(subturns=5)
    to_action(enc)
    ann = enc.state["people"]["ann"]
    assert ap_left(enc.state, ann) == 11
    enc.act("move", person="ann", what="walk", times=3)
    assert ap_left(enc.state, ann) == 2


# --- Want to speed it up? --------------------------------------------------------------------------------------

def test_three_points_borrowed_buy_one_now_and_leave_three_less_next_turn() -> None:
    """Want to speed it up?: "if three points are borrowed from the next turn, then one additional point can be
    expended in this turn ... Consequently, the player has three less agility points in the next turn": a human
    with 55 has 56 to spend now and 52 next turn."""
    enc = fight({"ann": person("blue", "Ann"), "cid": person("red", "Cid")})
    to_action(enc)
    enc.act("borrow", person="ann", points=3)
    ann = enc.state["people"]["ann"]
    assert (ann["owed"], ann["ap_extra"]) == (3, 1)
    enc.act("move", person="ann", what="reload", times=3)  # 45
    enc.act("move", person="ann", what="aim")  # 55
    refused(enc, "Ann has 1 Agility Points left", "move", person="ann", what="walk")
    enc.act("next")
    enc.act("next")
    assert enc.state["people"]["ann"]["ap_turn"] == 52
    assert not enc.state["people"]["ann"]["no_move"]


# --- Primary Attack --------------------------------------------------------------------------------------------

THREE = [{"id": "blue", "name": "Blue"}, {"id": "red", "name": "Red"}, {"id": "gold", "name": "Gold"}]


def three() -> dict:
    return {"a": person("blue", "A"), "c": person("red", "C"), "g": person("gold", "G")}


def test_the_thirty_rule_reads_the_next_roll_not_the_last() -> None:
    """Primary Attack: the side gets "the one and only attack that round" if its roll is "thirty percent or more
    above that of the next highest roll" (ours: the next side's roll 30 or more from the first's). Blue 10, Red
    40, Gold 90: Red is 30 from Blue, so Blue alone attacks. Blue 10, Red 39, Gold 90: Red is 29 from Blue, so
    every side attacks, however far Gold is."""
    enc = fight(three(), THREE)
    enc.act("primary")
    answer(enc, "Primary attack: Blue", "10")
    answer(enc, "Primary attack: Red", "40")
    answer(enc, "Primary attack: Gold", "90")
    assert enc.state["sole"] == "blue" and enc.state["round_order"] == ["blue"]
    enc = fight(three(), THREE)
    enc.act("primary")
    answer(enc, "Primary attack: Blue", "10")
    answer(enc, "Primary attack: Red", "39")
    answer(enc, "Primary attack: Gold", "90")
    assert not enc.state["sole"] and enc.state["round_order"] == ["blue", "red", "gold"]


def test_lucky_rolls_each_round_give_several_consecutive_sole_attacks() -> None:
    """Primary Attack: "a fortunate side who gets a few lucky rolls can have several consecutive attacks before the
    other sides have their first attack" (rolled each round: procedure 3). Blue 5 against Red 60, then Blue 10
    against Red 45: Blue has the only attack in rounds 1 and 2; Red 30 against Blue 50 in round 3 is 20 ahead,
    so both sides act, Red first."""
    enc = fight(primary=3)
    for round_, (blue, red) in enumerate((("5", "60"), ("10", "45")), 1):
        to_action(enc, blue=blue, red=red)
        assert enc.state["round"] == round_ and enc.state["round_order"] == ["blue"]
        refused(enc, "it is Blue's turn", "move", person="cid", what="walk")
        enc.act("next")
    to_action(enc, blue="50", red="30")
    assert enc.state["round"] == 3 and enc.state["round_order"] == ["red", "blue"] and not enc.state["sole"]


# --- Procedures for Percent to Hit (4), Grenades & Explosives ---------------------------------------------------

def test_a_grenade_rolled_equal_to_brawl_is_not_under_it_and_bounces() -> None:
    """(4) a. "When the roll is under character's brawl attribute, then there is no bounce"; "If the roll is less
    than 20 over brawl", a bounce. Brawl 60: a roll of 60 is not under 60 (0 over), so it bounces; 59 would not."""
    enc = fight({"ann": person("blue", "Ann", brawl=60), "cid": person("red", "Cid")})
    to_action(enc)
    enc.act("attack", person="ann", weapon="frag_grenade", target="cid", range=10, aim="chest")
    answer(enc, "Grenade: Ann throws", "60")
    assert enc.pending.purpose.startswith("Grenade bounce (Table 3-4.1)")


def test_a_grenade_more_than_20_over_lands_up_to_23_metres_away() -> None:
    """(4) "If the roll is more than 20 over the brawl, the grenade or explosive misses! The distance ... is
    l:10sd + 13 meters away from the target hexagon": Brawl 60, a roll of 81 is 21 over; a 10 on the die is
    23 m."""
    enc = fight({"ann": person("blue", "Ann", brawl=60), "cid": person("red", "Cid")})
    to_action(enc)
    enc.act("attack", person="ann", weapon="frag_grenade", target="cid", range=10, aim="chest")
    answer(enc, "Grenade: Ann throws", "81")
    answer(enc, "Grenade miss", "10")
    assert any("23 m from Cid, outside its" in n for n in notes(enc, 1))
    assert enc.state["people"]["cid"]["body"]["chest"]["taken"] == 0


# --- Damage, procedure 2: the damage die roll ---------------------------------------------------------------------

def test_a_fractional_die_roll_multiplies_one_d10_by_the_fraction() -> None:
    """Damage Die Rolls: "In the case of a fractional (X) values roll l:10sd and multiply the result by the
    fraction" (the FINGER LASER example; its fraction on our data sheet is 0.5): a 8 on the die is 4 points."""
    enc = fight({"ann": person("blue", "Ann", aim=90, weapons=["finger_laser"]), "cid": person("red", "Cid")},
                damage=2)
    to_action(enc)
    enc.act("attack", person="ann", weapon="finger_laser", target="cid", range=5, aim="chest")
    answer(enc, "Percent to hit", "1")
    req = answer(enc, "Damage: finger laser 0.5", "8")
    assert req.dice == "0.5:10sd"
    assert enc.state["people"]["cid"]["body"]["chest"]["taken"] == 4


def test_the_auto_pistol_4_plus_2_adds_two_to_four_dice() -> None:
    """Damage Die Rolls: "AUTO PISTOL 4+2 means 4:10sd+2": the least it does is 4 x 1 + 2 = 6, the most 4 x 10
    + 2 = 42."""
    for dice, points in (("1 1 1 1", 6), ("10 10 10 10", 42)):
        enc = fight({"ann": person("blue", "Ann", aim=90), "cid": person("red", "Cid")}, damage=2)
        to_action(enc)
        enc.act("attack", person="ann", weapon="auto_pistol", target="cid", range=5, aim="abdomen")
        answer(enc, "Percent to hit", "1")
        answer(enc, "Damage: auto pistol 4+2", dice)
        assert enc.state["people"]["cid"]["body"]["abdomen"]["taken"] == points


# --- Structure and Function -----------------------------------------------------------------------------------

def test_total_destruction_is_five_times_the_points_on_every_race() -> None:
    """Structure and Function: "So the average hand with its six points is totally destroyed when it has received
    thirty points (5 x 6) of damage. The same calculation follows for all other body parts on all other races":
    an Aracnian claw of 10 points (ours) at 50, its chest of 40 (ours) at 200."""
    parts = {p["id"]: p["points"] for p in load_tables().races["aracnian"]["parts"]}
    assert (parts["left_claw"], parts["chest"]) == (10, 40)
    assert part_state({"points": 10, "taken": 49}) == "no function"
    assert part_state({"points": 10, "taken": 50}) == "totally destroyed"
    assert part_state({"points": 40, "taken": 199}) == "no function"
    assert part_state({"points": 40, "taken": 200}) == "totally destroyed"


# --- Weaponry Combat -------------------------------------------------------------------------------------------

def test_weaponry_reaches_three_kilometres_and_no_further() -> None:
    """Weaponry Combat: "Weaponry combat can occur over any range from 25 centimetres to 3 kilometres": a shot at
    3000 m is made (in the last band, which reaches 3 km), one at 3001 m is refused."""
    import pytest

    from engine.errors import IllegalAction
    from rulesets.percentile.tables import band_of

    t = load_tables()
    assert t.bands[-1]["up_to_m"] == 3000 and band_of(t, 3000) == t.bands[-1]["id"]
    enc = fight({"ann": person("blue", "Ann", aim=90), "cid": person("red", "Cid")})
    to_action(enc)
    with pytest.raises(IllegalAction, match="at most 3000, got 3001"):
        enc.act("attack", person="ann", weapon="auto_pistol", target="cid", range=3001, aim="chest")
    enc.act("attack", person="ann", weapon="auto_pistol", target="cid", range=3000, aim="chest")
    assert enc.pending.purpose.startswith("Percent to hit: Ann auto pistol at Cid (3000 m")


# --- Grazing Shots ---------------------------------------------------------------------------------------------

def test_under_to_hit_procedure_2_grazing_reads_the_percent_to_hit_not_the_marksmanship() -> None:
    """GRAZING SHOTS: "PERCENT UNDER is the percent to hit or marksmanship minus the l:100sd ROLL", divided "by the
    marksmanship or percent to hit depending on which procedure was used in the "Percent to hit" section".
    Procedure 2 gives a percent to hit: MARKSmanship (65 + 55) / 2 = 60 at medium range is 48 on Table 3-1 (ours).
    A roll of 24 is 24 under 48 (more than 20: a direct hit on the chest); Table 3-3's 14 points (ours: WEP MOD 7
    at medium) graze to 14 x 24/48 = 7 (read against the MARKSmanship it would be 14 x 36/60 = 8.4, 8)."""
    t = load_tables()
    assert t.to_hit[60][t.band_index("medium")] == 48 and t.damage[7][t.band_index("medium")] == 14
    enc = fight({"ann": person("blue", "Ann", aim=65), "cid": person("red", "Cid")}, to_hit=2, damage=3,
                grazing=True)
    to_action(enc)
    enc.act("attack", person="ann", weapon="auto_pistol", target="cid", range=20, aim="chest")
    answer(enc, "Percent to hit", "24", target="47-")
    assert "Grazing shot: 14 x 24/48 = 7 points" in notes(enc, 1)
    assert enc.state["people"]["cid"]["body"]["chest"]["taken"] == 7


# --- Description -----------------------------------------------------------------------------------------------

def test_twenty_categories_of_five_percent_each() -> None:
    """DESCRIPTION: "there are 20 categories of damage on all of the tables", and the text's example names them in
    fives ("the 86-90 description ... the 81-85, 61-65, 41-45 and the 11-15"): 86% and 90% both begin at 86-90,
    85% at 81-85, 91% at 91-95, 1% at 1-5 and 100% at 96-100, on every damage type's table (3-8 to 3-14)."""
    from rulesets.percentile.wounds import describe

    t = load_tables()
    assert sorted(t.descriptions[k]["table"] for k in t.descriptions) == [f"3-{n}" for n in (10, 11, 12, 13, 14, 8, 9)]
    for kind in t.descriptions:
        assert len(t.descriptions[kind]["rows"]) == 20
        for percent, first in ((86, "86-90"), (90, "86-90"), (85, "81-85"), (91, "91-95"), (1, "1-5"),
                               (100, "96-100")):
            assert describe(t, kind, percent)[0].startswith(first + ":"), (kind, percent)
