"""Percent to hit, procedures 1-4 (percentile-personal-combat.txt, "Percent to Hit", "Procedures for Percent
to Hit", "Grenades and Explosives")."""

from __future__ import annotations

from fractions import Fraction

from rulesets.percentile.combat import percent_to_hit, skill
from rulesets.percentile.tables import load_tables, row_at

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


def test_grenade_under_brawl_lands_where_aimed() -> None:
    """(4) a. "When the roll is under character's brawl attribute, then there is no bounce"."""
    enc = fight({"ann": person("blue", "Ann", brawl=60), "cid": person("red", "Cid")})
    to_action(enc)
    enc.act("attack", person="ann", weapon="frag_grenade", target="cid", range=10, aim="chest")
    answer(enc, "Grenade: Ann throws", "59", target="59-")
    assert any("No bounce" in n for n in notes(enc, 1))
    answer(enc, "Random hit location on Cid", "40")
    assert enc.state["people"]["cid"]["body"]["abdomen"]["taken"] == 30  # WEP MOD 10 point blank (Table 3-3)


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
    assert enc.state["people"]["cid"]["body"]["right_leg"]["taken"] == 25  # WEP MOD 10 at short (4 m): 25
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


def test_a_grenade_catches_those_standing_with_the_target() -> None:
    """The blast reaches whoever stands with the target (the game master's map: ours); each takes a random
    hit location and the damage at the distance the grenade went off."""
    enc = fight({"ann": person("blue", "Ann", brawl=60), "cid": person("red", "Cid"), "dov": person("red", "Dov")})
    to_action(enc)
    enc.act("attack", person="ann", weapon="frag_grenade", target="cid", range=10, aim="chest", with_target=["dov"])
    answer(enc, "Grenade: Ann throws", "10")
    answer(enc, "Random hit location on Cid", "40")
    answer(enc, "Random hit location on Dov", "90")
    assert enc.state["people"]["cid"]["body"]["abdomen"]["taken"] == 30
    assert enc.state["people"]["dov"]["body"]["right_leg"]["taken"] == 30
    refused(enc, "caught by the blast too.*not one of none", "attack", person="ann", weapon="auto_pistol", target="cid",
            range=10, aim="chest",
            with_target=["dov"])
