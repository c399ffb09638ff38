"""Percent to hit, procedures 1-4 (percentile-personal-combat.txt, "Percent to Hit", "Procedures for Percent
to Hit", "Grenades and Explosives")."""

from __future__ import annotations

from fractions import Fraction

from rulesets.percentile.combat import percent_to_hit, skill
from rulesets.percentile.tables import load_tables, row_at
from rulesets.percentile.views import roll_help

from .fights import answer, fight, notes, person, refused, to_action


def test_marksmanship_and_brawlmanship_are_averages() -> None:
    """MARKSmanship = (AIM + WEP DIF) / 2; BRAWLmanship = (BRAWL + ATTACK DIF) / 2 (halves up: ours)."""
    t = load_tables()
    shooter = {"aim": 70, "brawl": 40}
    assert t.weapons["auto_pistol"]["dif"] == 55
    assert skill(shooter, t.weapons["auto_pistol"]) == 63  # (70 + 55) / 2 = 62.5
    assert skill(shooter, t.weapons["knife"]) == 48  # (40 + 55) / 2 = 47.5, Brawl for hand to hand


def test_procedure_1_rolls_under_marksmanship() -> None:
    """(1) "If the player rolls 1:100sd and the result is under their MARKSmanship then the attack hits"."""
    enc = fight({"ann": person("blue", "Ann", aim=65), "cid": person("red", "Cid")})  # (65 + 55) / 2 = 60
    to_action(enc)
    enc.act("attack", person="ann", weapon="auto_pistol", target="cid", range=8, aim="chest")
    req = answer(enc, "Percent to hit", "60", target="59-")
    assert req.chance() == Fraction(59, 100)
    assert "Miss: 60 is not under 60" in notes(enc, 1)


def test_more_than_20_under_is_a_direct_hit_where_aimed() -> None:
    """(3) i. "more than 20 under the result, the attack is a direct hit. The player hits exactly where
    desired"; ii. "20 or less under ... random hit ... RANDOM HIT table #3-3.4"."""
    enc = fight({"ann": person("blue", "Ann", aim=65), "cid": person("red", "Cid")})
    to_action(enc)
    enc.act("attack", person="ann", weapon="auto_pistol", target="cid", range=8, aim="left_arm")
    answer(enc, "Percent to hit", "39")  # 21 under 60
    assert enc.pending is None  # damage procedure 3 needs no roll
    assert enc.state["people"]["cid"]["body"]["left_arm"]["taken"] > 0
    enc.act("attack", person="ann", weapon="auto_pistol", target="cid", range=8, aim="left_arm")
    answer(enc, "Percent to hit", "40")  # exactly 20 under: random
    answer(enc, "Random hit location on Cid", "5")  # 1-10 is the head (our table 3-3.4)
    assert enc.state["people"]["cid"]["body"]["head"]["taken"] > 0


def test_hand_to_hand_only_within_three_metres() -> None:
    """"Hand-To-Hand weapons or disciplines ... cannot be used at over three meters"."""
    enc = fight()
    to_action(enc)
    refused(enc, "hand to hand: 4 m is over 3 m", "attack", person="ann", weapon="knife", target="cid", range=4,
            aim="chest")
    enc.act("attack", person="ann", weapon="knife", target="cid", range=3, aim="chest")
    assert "Brawl" not in enc.pending.purpose and "BRAWLmanship 53" in enc.pending.purpose


def test_procedure_2_reads_table_3_1() -> None:
    """(2) "Look up the players' MARKSmanship versus Range on Table #3-1 and if the player rolls under this
    value the attack hits"."""
    t = load_tables()
    ann = {"aim": 65, "brawl": 50}
    value, how = percent_to_hit(2, t, ann, t.weapons["auto_pistol"], "long", [])
    assert value == row_at(t.to_hit, 60)[t.band_index("long")] == 36
    assert "Table 3-1" in how


def test_procedure_3_subtracts_the_percent_against_and_a_negative_result_misses() -> None:
    """(3) Percent to hit (Table 3-1) less the Percent Against (the adversity modifiers 3-7.x vs range on
    Table 3-2); "If the result has a negative value, the player has missed"."""
    t = load_tables()
    ann = {"aim": 65, "brawl": 50}
    value, _ = percent_to_hit(3, t, ann, t.weapons["auto_pistol"], "medium", ["conditions.dim", "cover.half"])
    assert value == 48 - row_at(t.against, 30)[t.band_index("medium")] == 18
    enc = fight({"ann": person("blue", "Ann", aim=65), "cid": person("red", "Cid")}, to_hit=3)
    to_action(enc)
    enc.act("attack", person="ann", weapon="auto_pistol", target="cid", range=600, aim="chest",
            adversity=["conditions.storm", "target.dodging", "cover.heavy"])
    assert enc.pending is None
    assert any("misses Cid" in n and "too much" in n for n in notes(enc, 1))
    refused(enc, "one adversity modifier of each table", "attack", person="ann", weapon="auto_pistol",
            target="cid", range=20, aim="chest", adversity=["cover.half", "cover.light"])


def test_procedure_3_a_positive_result_is_a_hit_and_the_roll_only_places_it() -> None:
    """(3) c. "If, however, the result is a positive number, the player has hit! Have the player roll a
    l:100sd i. If this l:100sd roll is more than 20 under the result, the attack is a direct hit ... ii. If,
    however, the roll is 20 or less under the result, The attack is un-directed and a random hit".

    MARKSmanship 60 at medium range is 48 (Table 3-1); half cover in dim light is adversity 30, 30 against
    (Table 3-2): the result 18 is positive, so a roll of 50 (over the result) is still a hit, at random."""
    enc = fight({"ann": person("blue", "Ann", aim=65), "cid": person("red", "Cid")}, to_hit=3)
    to_action(enc)
    attack = enc.act("attack", person="ann", weapon="auto_pistol", target="cid", range=20, aim="chest",
                     adversity=["conditions.dim", "cover.half"])
    # the log names the adversity as the form offered it (it read "adversity conditions.dim, cover.half")
    assert enc.describe(attack) == ("attack: Ann at Cid with the auto pistol, 20 m, aimed at the chest, adversity "
                                    "light and weather: dim light or rain, cover: half hidden")
    assert roll_help(enc.state, enc.pending) == [
        "the result 18 is positive, so the attack hits: a random hit whatever the roll"]
    req = answer(enc, "Percent to hit", "50")
    assert req.target is None  # a hit whatever the roll: nothing to show odds of failing
    assert not any(n.startswith("Miss") for n in notes(enc, 1))
    assert enc.pending is not None and enc.pending.purpose.startswith("Random hit location on Cid")
    answer(enc, "Random hit location on Cid", "40")
    assert enc.state["people"]["cid"]["body"]["abdomen"]["taken"] > 0


def test_procedure_3_more_than_20_under_the_result_is_a_direct_hit() -> None:
    """(3) c. i./ii. with no adversity: the result is the whole 48 (nothing against, Table 3-2); 27 is 21
    under it (direct, where aimed), 28 is 20 under (random), and 95, over it, is a random hit too."""
    t = load_tables()
    assert percent_to_hit(3, t, {"aim": 65, "brawl": 50}, t.weapons["auto_pistol"], "medium", [])[0] == 48
    enc = fight({"ann": person("blue", "Ann", aim=65), "cid": person("red", "Cid")}, to_hit=3)
    to_action(enc)
    enc.act("attack", person="ann", weapon="auto_pistol", target="cid", range=20, aim="left_arm")
    assert roll_help(enc.state, enc.pending) == ["the result 48 is positive, so the attack hits: under 28 (more "
                                                 "than 20 under 48, a 27% chance) is a direct hit on the left arm, "
                                                 "any other roll a random hit"]
    req = answer(enc, "Percent to hit", "27")
    assert req.target is None  # nothing can fail: the roll only places the hit
    assert enc.pending is None and enc.state["people"]["cid"]["body"]["left_arm"]["taken"] > 0
    for roll, where in (("28", "90"), ("95", "40")):  # the right leg, then the abdomen
        enc.act("attack", person="ann", weapon="auto_pistol", target="cid", range=20, aim="left_arm")
        answer(enc, "Percent to hit", roll)
        assert enc.pending.purpose.startswith("Random hit location on Cid"), roll
        answer(enc, "Random hit location on Cid", where)
    assert enc.state["people"]["cid"]["body"]["right_leg"]["taken"] == 14
    assert enc.state["people"]["cid"]["body"]["abdomen"]["taken"] == 14


def test_procedure_3_grazing_divides_by_the_percent_to_hit() -> None:
    """GRAZING SHOTS: "% UNDER = {MARKS or % TO HIT} - l:100sdROLL", divided "by the marksmanship or percent to
    hit depending on which procedure was used"; procedure 3 (a.) calls the Table 3-1 value the PERCENT TO HIT.

    48 at medium range, 30 against: a roll of 10 is 38 under the percent to hit, so Table 3-3's 14 points
    (WEP MOD 7 at medium) graze to 14 x 38/48 = 11.08, 11. A roll of 60 or of 48 still hits (the result is
    positive) but is not under the percent to hit: it grazes for nothing (ours: a share of nothing or below is
    nothing), and the log says so in words with the rule's numbers (it read "14 x -12/48 = 0 points", found by a
    game master)."""
    t = load_tables()
    assert row_at(t.damage, t.weapons["auto_pistol"]["wep_mod"])[t.band_index("medium")] == 14
    enc = fight({"ann": person("blue", "Ann", aim=65), "cid": person("red", "Cid")}, to_hit=3, grazing=True)
    to_action(enc)
    for roll, grazing, taken in (
            ("10", "14 x 38/48 = 11 points", 11),
            ("60", "0 of 14 points: the roll 60 is not under the percent to hit 48 (% UNDER 48 - 60 = -12, at or "
                   "below 0)", 11),
            ("48", "0 of 14 points: the roll 48 is not under the percent to hit 48 (% UNDER 48 - 48 = 0, at or "
                   "below 0)", 11)):
        enc.act("attack", person="ann", weapon="auto_pistol", target="cid", range=20, aim="chest",
                adversity=["conditions.dim", "cover.half"])
        answer(enc, "Percent to hit", roll)
        answer(enc, "Random hit location on Cid", "40")
        assert f"Grazing shot: {grazing}" in notes(enc, 2)
        assert enc.state["people"]["cid"]["body"]["abdomen"]["taken"] == taken


def test_grenade_under_brawl_lands_where_aimed() -> None:
    """(4) a. "When the roll is under character's brawl attribute, then there is no bounce and the hits exactly
    where it was aimed": the part aimed at, as a direct hit ("The player hits exactly where desired"); found by
    an audit, it was placed on the random hit table though the attack asks where it is aimed."""
    enc = fight({"ann": person("blue", "Ann", brawl=60), "cid": person("red", "Cid")})
    to_action(enc)
    enc.act("attack", person="ann", weapon="frag_grenade", target="cid", range=10, aim="chest")
    answer(enc, "Grenade: Ann throws", "59", target="59-")
    assert any("No bounce" in n for n in notes(enc, 1))
    assert "Cid is hit in the chest, as aimed" in notes(enc, 1)
    assert enc.pending is None
    # WEP MOD 10 at short (Table 3-3): damage procedure 3 reads "the range that the marksman is attacking from",
    # the 10 m throw, not the point blank where it went off (found by an audit: this read 30)
    assert enc.state["people"]["cid"]["body"]["chest"]["taken"] == 25


def test_grenade_up_to_20_over_bounces_and_more_misses_by_1d10_plus_13() -> None:
    """"less than 20 over brawl, Check the Grenade bounce Table #3-4.1"; "more than 20 over the brawl, the
    grenade ... misses! ... l:10sd + 13 meters away from the target hexagon"."""
    enc = fight({"ann": person("blue", "Ann", brawl=60), "cid": person("red", "Cid")})
    to_action(enc)
    enc.act("attack", person="ann", weapon="frag_grenade", target="cid", range=10, aim="chest")
    answer(enc, "Grenade: Ann throws", "80")  # 20 over: bounces (ours: exactly 20 still bounces)
    answer(enc, "Grenade bounce (Table 3-4.1)", "4")  # 2 bounces of 2 m: 4 m, inside the 6 m blast
    answer(enc, "towards which hex side", "3")
    assert any("4 m from Cid, inside its 6 m blast" in n for n in notes(enc, 1))
    answer(enc, "Random hit location on Cid", "90")
    assert enc.state["people"]["cid"]["body"]["right_leg"]["taken"] == 25  # WEP MOD 10 at short (the 10 m throw)
    enc.act("attack", person="ann", weapon="frag_grenade", target="cid", range=10, aim="chest")
    answer(enc, "Grenade: Ann throws", "81")
    req = answer(enc, "Grenade miss", "1")
    assert req.dice == "1:10sd+13"
    assert any("14 m from Cid, outside its 6 m blast" in n for n in notes(enc, 1))


def test_strength_and_weight_limit_a_throw() -> None:
    """Table #3-4.0 "shows Physical Strength vs. the object's weight and the distance ... thrown" (ours)."""
    enc = fight({"ann": person("blue", "Ann", strength=10), "cid": person("red", "Cid")})
    to_action(enc)
    refused(enc, r"throws 0.5 kg at most 17 m \(Table 3-4.0\)", "attack", person="ann", weapon="frag_grenade",
            target="cid", range=18, aim="chest")


def test_strength_and_weight_limit_any_thrown_weapon_not_only_a_grenade() -> None:
    """Grenades and Explosives: "The Physical strength attribute determines the distance that the grenade, explosive
    or any thrown weapon can be hurled" (Table #3-4.0, ours: 17 m for 0.5 kg at Strength 10). A thrown beer bottle
    (0.5 kg; "anything thrown (including of course beer bottles ...)" is Weaponry Combat) goes as far as a grenade of
    its weight; a pistol's range is no throw."""
    enc = fight({"ann": person("blue", "Ann", strength=10, weapons=["thrown_beer_bottle", "auto_pistol"]),
                 "cid": person("red", "Cid")})
    to_action(enc)
    refused(enc, r"throws 0.5 kg at most 17 m \(Table 3-4.0\)", "attack", person="ann", weapon="thrown_beer_bottle",
            target="cid", range=18, aim="chest")
    enc.act("attack", person="ann", weapon="thrown_beer_bottle", target="cid", range=17, aim="chest")
    assert enc.pending.purpose.startswith("Percent to hit")  # weaponry: MARKSmanship, no bounce
    answer(enc, "Percent to hit", "99")
    enc.act("attack", person="ann", weapon="auto_pistol", target="cid", range=18, aim="chest")


def test_a_grenade_catches_those_standing_with_the_target() -> None:
    """The blast reaches whoever stands with the target (the game master's map: ours); each takes a random
    hit location and the damage of the throw's range (10 m, short)."""
    enc = fight({"ann": person("blue", "Ann", brawl=60), "cid": person("red", "Cid"), "dov": person("red", "Dov")})
    to_action(enc)
    thrown = enc.act("attack", person="ann", weapon="frag_grenade", target="cid", range=10, aim="chest",
                     with_target=["dov"])
    # the log names who the game master ticked as standing with the target (a drive's line left Dov out)
    assert enc.describe(thrown) == ("attack: Ann at Cid with the fragmentation grenade, 10 m, aimed at the chest, "
                                    "Dov standing with the target")
    answer(enc, "Grenade: Ann throws", "10")  # no bounce: Cid where aimed, Dov at random
    answer(enc, "Random hit location on Dov", "90")
    assert enc.state["people"]["cid"]["body"]["chest"]["taken"] == 25
    assert enc.state["people"]["dov"]["body"]["right_leg"]["taken"] == 25
    refused(enc, "caught by the blast too.*not one of none", "attack", person="ann", weapon="auto_pistol", target="cid",
            range=10, aim="chest",
            with_target=["dov"])


def test_the_location_prompt_lists_the_race_s_hit_table_so_the_game_master_may_name_the_part() -> None:
    """Damage (1): where the damage was done "can be specified by the Game Master or rolled for on the Random Hit
    table #3-3.4". The prompt lists the race's bands (races.toml), so a game master names a part by typing a roll
    in its band; a crew hit of a ship fight (a called procedure) reads the shipped tables the same way."""
    from engine.ruleset import find_ruleset

    enc = fight({"ann": person("blue", "Ann", aim=90), "cid": person("red", "Cid")}, to_hit=1)
    to_action(enc)
    enc.act("attack", person="ann", weapon="auto_pistol", target="cid", range=5, aim="chest")
    answer(enc, "Percent to hit", "60")  # a hit, not more than 20 under: a random hit
    lines = find_ruleset("percentile").roll_help(enc.state, enc.pending)
    assert lines == ["random hit table #3-3.4: 1-10 head, 11-35 chest, 36-50 abdomen, 51-58 left arm, 59-66 right "
                     "arm, 67-70 left hand, 71-74 right hand, 75-86 left leg, 87-98 right leg, 99 left foot, 100 "
                     "right foot", "to name the part yourself, type a roll in its band"]
    answer(enc, "Random hit location on Cid", "60")
    assert enc.state["people"]["cid"]["body"]["right_arm"]["taken"] > 0
