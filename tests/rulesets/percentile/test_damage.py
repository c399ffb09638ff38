"""Damage, procedures 1-3, grazing shots, descriptions and organ systems (percentile-personal-combat.txt,
"Damage", "Procedures", "GRAZING SHOTS", "DESCRIPTION", "ORGAN SYSTEM DAMAGE", "POISONS and DRUGS")."""

from __future__ import annotations

from engine.dice import parse_dice
from rulesets.percentile import RULESET
from rulesets.percentile.combat import grazed
from rulesets.percentile.tables import die_notation, load_tables, row_at
from rulesets.percentile.wounds import describe, organ_damage

from .fights import answer, fight, notes, person, to_action


def test_the_data_sheets_die_rolls_read_as_x_10sd_plus_y() -> None:
    """"AUTO PISTOL 4+2 means 4:10sd+2", "CONTOUR LASER 3 means 3:10sd"; "In the case of a fractional (X) values
    roll 1:10sd and multiply the result by the fraction" (Damage Die Rolls)."""
    t = load_tables()
    assert die_notation(t.weapons["auto_pistol"]["damage"]) == "4:10sd+2"
    assert die_notation(t.weapons["contour_laser"]["damage"]) == "3:10sd"
    assert die_notation(t.weapons["finger_laser"]["damage"]) == "0.5:10sd"
    pistol = parse_dice("4:10sd+2")
    assert (pistol.count, pistol.sides, pistol.plus) == (4, 10, 2)
    assert parse_dice("1:100sd").possible_values() == list(range(1, 101))
    assert parse_dice("0.5:10sd").value(7) == 4  # 3.5 rounds up (the engine's reading)


def test_procedure_2_rolls_the_weapons_damage_die() -> None:
    """2: "the DAMAGE 10DIE ROLL listed beside each weapon ... is the number of points of damage"."""
    enc = fight({"ann": person("blue", "Ann", aim=65), "cid": person("red", "Cid")}, damage=2)
    to_action(enc)
    enc.act("attack", person="ann", weapon="auto_pistol", target="cid", range=5, aim="chest")
    answer(enc, "Percent to hit", "10")  # 50 under: direct
    req = answer(enc, "Damage: auto pistol 4+2", "3 4 5 6")
    assert req.dice == "4:10sd+2"
    assert enc.state["people"]["cid"]["body"]["chest"]["taken"] == 20


def test_procedure_2_warns_from_ten_metres() -> None:
    """"It is recommended that this procedure only be used if the range is less than ten meters"."""
    enc = fight(damage=2)
    to_action(enc)
    enc.act("attack", person="ann", weapon="auto_pistol", target="cid", range=10, aim="chest")
    answer(enc, "Percent to hit", "1")
    assert any("loses accuracy at 10 m" in n for n in notes(enc, 1))


def test_procedure_3_reads_table_3_3_wep_mod_against_range() -> None:
    """3: "cross reference the WEP MOD and the RANGE using Table #3-3" (our table: WEP MOD 7 at medium = 14)."""
    t = load_tables()
    assert row_at(t.damage, 7)[t.band_index("medium")] == 14
    enc = fight({"ann": person("blue", "Ann", aim=65), "cid": person("red", "Cid")}, damage=3)
    to_action(enc)
    enc.act("attack", person="ann", weapon="auto_pistol", target="cid", range=30, aim="abdomen")
    answer(enc, "Percent to hit", "10")
    assert enc.state["people"]["cid"]["body"]["abdomen"]["taken"] == 14


def test_procedure_3_hand_to_hand_adds_physical_strength() -> None:
    """Hand to hand: "the amount of damage is directly related to the Physical Strength of the attacker"
    (ours: Strength / 10 points)."""
    enc = fight({"ann": person("blue", "Ann", brawl=90, strength=80), "cid": person("red", "Cid")})
    to_action(enc)
    enc.act("attack", person="ann", weapon="knife", target="cid", range=1, aim="left_leg")
    answer(enc, "Percent to hit", "5")
    assert enc.state["people"]["cid"]["body"]["left_leg"]["taken"] == 12 + 8  # WEP MOD 4 point blank, +80/10


def test_procedure_1_uses_the_damage_type_table_and_a_severity_roll() -> None:
    """(1) "Damage is referenced by a Title ... tables 3-16 through 3-21" with "a SEVERITY ROLL and the DAMAGE
    PERCENTAGE"; "roll 1:10sd and follow the instructions on the table ... roll 1:10sd then look up the damage
    description"."""
    enc = fight({"ann": person("blue", "Ann", aim=65), "cid": person("red", "Cid")}, damage=1)
    to_action(enc)
    enc.act("attack", person="ann", weapon="auto_pistol", target="cid", range=5, aim="chest")
    answer(enc, "Percent to hit", "10")
    answer(enc, "Damage: Table 3-18 (projectile)", "5")  # deep wound, serious, 50% (ours)
    assert enc.state["people"]["cid"]["body"]["chest"]["taken"] == 15  # 50% of 30
    answer(enc, "Severity (serious) for Cid", "6")
    assert enc.state["people"]["cid"]["wounds"][-1]["severity"] == "knocked down"


def test_procedure_1_describes_the_wound_by_the_tables_percentage_not_the_rounded_points() -> None:
    """(1) the table gives "a SEVERITY ROLL and the DAMAGE PERCENTAGE" for "TABLES 3-8 through 3-14" (Damage,
    Procedures): a light wound (20% in ours) to an 8-point head is described at 20%, though its 1.6 points
    round to 2, which would read 25%."""
    enc = fight({"ann": person("blue", "Ann", brawl=90), "cid": person("red", "Cid")}, damage=1)
    to_action(enc)
    enc.act("attack", person="ann", weapon="knife", target="cid", range=1, aim="head")
    answer(enc, "Percent to hit", "5")
    answer(enc, "Damage: Table", "3")  # light wound, 20%
    assert enc.state["people"]["cid"]["body"]["head"]["taken"] == 2
    said = notes(enc, 1)
    assert any("Cid: 2 points to the head (20% of 8" in n for n in said)
    lines = describe(load_tables(), "blade", 20)
    assert all(any(line in n for n in said) for line in lines)
    assert enc.state["people"]["cid"]["wounds"][-1]["percent"] == 20


def test_procedure_1_a_scratch_of_no_whole_point_is_still_a_wound_with_its_severity() -> None:
    """A scratch (5% in ours) to an 8-point head is 0.4 points, 0 when rounded: the table's wound is still
    described, recorded and takes the severity roll, which never lands on an earlier wound."""
    enc = fight({"ann": person("blue", "Ann", brawl=90), "cid": person("red", "Cid")}, damage=1)
    to_action(enc)
    enc.act("attack", person="ann", weapon="knife", target="cid", range=1, aim="chest")
    answer(enc, "Percent to hit", "5")
    answer(enc, "Damage: Table", "4")  # a wound, serious
    answer(enc, "Severity (serious) for Cid", "1")
    chest = dict(enc.state["people"]["cid"]["wounds"][-1])
    enc.act("attack", person="ann", weapon="knife", target="cid", range=1, aim="head")
    answer(enc, "Percent to hit", "5")
    answer(enc, "Damage: Table", "1")  # scratch, 5%
    answer(enc, "Severity (minor) for Cid", "1")
    wounds = enc.state["people"]["cid"]["wounds"]
    assert wounds[-2] == chest  # the chest wound keeps its own severity
    assert wounds[-1]["part"] == "head" and wounds[-1]["points"] == 0 and wounds[-1]["percent"] == 5
    assert wounds[-1]["severity"] == load_tables().wounds["severity"]["minor"]["1"]
    assert enc.state["people"]["cid"]["body"]["head"]["taken"] == 0


def test_a_grazing_shot_takes_percent_under_over_percent_to_hit() -> None:
    """% UNDER = {MARKS or % TO HIT} - 1:100sd ROLL; "divide it by the marksmanship or percent to hit ...
    Multiplying this number with the number of damage points"."""
    assert grazed(20, 15, 60) == 5  # 20 x 15/60
    enc = fight({"ann": person("blue", "Ann", aim=65), "cid": person("red", "Cid")}, damage=2, grazing=True)
    to_action(enc)
    enc.act("attack", person="ann", weapon="auto_pistol", target="cid", range=5, aim="chest")
    answer(enc, "Percent to hit", "45")  # 15 under 60: a random hit
    answer(enc, "Random hit location", "20")  # chest
    answer(enc, "Damage: auto pistol", "3 4 5 6")  # 20 points could be done
    assert enc.state["people"]["cid"]["body"]["chest"]["taken"] == 5
    assert any("Grazing shot: 20 x 15/60 = 5 points" in n for n in notes(enc, 1))


def test_descriptions_read_the_additional_ones_upward() -> None:
    """"if using Table #3-8 and you began reading at the 86-90 description you can also read the 81-85, 61-65,
    41-45 and the 11-15 descriptions"."""
    t = load_tables()
    assert t.descriptions["blade"]["table"] == "3-8"
    lines = describe(t, "blade", 88)
    assert [line.split(":")[0] for line in lines] == ["86-90", "81-85", "61-65", "41-45", "11-15"]


def test_exoskeletons_read_the_bone_descriptions_first() -> None:
    """"must be altered so that the bone descriptions come first instead of last"."""
    t = load_tables()
    human = describe(t, "blade", 3)[0]
    spider = describe(t, "blade", 3, exoskeleton=True)[0]
    assert "skin" in human and "bone" in spider
    assert "bone" in describe(t, "blade", 100)[0] and "bone" not in describe(t, "blade", 100, exoskeleton=True)[0]


def test_a_body_part_is_destroyed_at_five_times_its_points() -> None:
    """"Total destruction of the body part occurs when it has taken five times the number of points"."""
    enc = fight({"ann": person("blue", "Ann", aim=90, weapons=["fgmp14"]), "cid": person("red", "Cid")}, damage=2)
    to_action(enc)
    enc.act("attack", person="ann", weapon="fgmp14", target="cid", range=5, aim="left_hand")
    answer(enc, "Percent to hit", "1")
    answer(enc, "Damage: FGMP14", "3 3 3 3 3 3 3 3 3 3 3 3")  # 36 points on a 6-point hand
    hand = enc.state["people"]["cid"]["body"]["left_hand"]
    assert hand["taken"] == 36
    assert any("left hand is totally destroyed (5 x 6 points)" in n for n in notes(enc, 2))
    assert not enc.state["people"]["cid"]["dead"]  # a hand is not vital (ours)


def test_no_function_in_a_vital_part_kills() -> None:
    enc = fight({"ann": person("blue", "Ann", aim=90, weapons=["fgmp14"]), "cid": person("red", "Cid")}, damage=2)
    to_action(enc)
    enc.act("attack", person="ann", weapon="fgmp14", target="cid", range=5, aim="head")
    answer(enc, "Percent to hit", "1")
    answer(enc, "Damage: FGMP14", "1 1 1 1 1 1 1 1 1 1 1 1")  # 12 on an 8-point head
    assert enc.state["people"]["cid"]["dead"]
    assert enc.state["step"] == "over"  # one side left standing
    assert any("The fight is over: Blue is left standing" in n for n in notes(enc, 1))


def test_procedure_1_a_hit_grazed_to_no_point_leaves_no_wound_and_rolls_no_severity() -> None:
    """GRAZING SHOTS make the grazed points the damage; the SEVERITY ROLL tells "the full consequences of the damage
    taken" (Damage, Procedures (1)). A scratch (10% of a 6-point hand, 1 point) grazed 1 under a MARKSmanship of
    60 is 1 x 1/60 = 0 points: no wound, so no severity roll (found by an audit: the roll went onto the chest
    wound before it and changed its severity)."""
    enc = fight({"ann": person("blue", "Ann", aim=65), "cid": person("red", "Cid")}, to_hit=1, damage=1,
                grazing=True)
    to_action(enc)
    enc.act("attack", person="ann", weapon="auto_pistol", target="cid", range=5, aim="chest")
    answer(enc, "Percent to hit", "10")
    answer(enc, "Damage", "8")
    answer(enc, "Severity", "1")
    chest = dict(enc.state["people"]["cid"]["wounds"][-1])
    enc.act("attack", person="ann", weapon="auto_pistol", target="cid", range=5, aim="left_hand")
    answer(enc, "Percent to hit", "59")  # 1 under: a random hit location
    answer(enc, "Random", "72")
    answer(enc, "Damage", "1")
    assert enc.pending is None
    assert enc.state["people"]["cid"]["wounds"] == [chest]
    assert any("No wound on Cid: no severity roll" in n for n in notes(enc, 1))


def test_procedure_1_a_grazed_wound_is_described_by_the_tables_percentage_grazed() -> None:
    """GRAZING SHOTS scale the damage by % UNDER / percent to hit; under procedure 1 the table's percentage is what
    describes the wound and reaches the organs, so it is grazed alike: a deep wound (50% in ours) to an 8-point
    head, 40 under a MARKSmanship of 60, is 50 x 40/60 = 33%, not the rounded points' 3/8 = 38% (found by a
    drive: the organs read the points again)."""
    enc = fight({"ann": person("blue", "Ann", aim=65), "cid": person("red", "Cid")}, to_hit=1, damage=1,
                grazing=True, organs=True)
    to_action(enc)
    enc.act("attack", person="ann", weapon="auto_pistol", target="cid", range=5, aim="head")
    answer(enc, "Percent to hit", "20")
    answer(enc, "Damage", "5")
    wound = enc.state["people"]["cid"]["wounds"][-1]
    assert (wound["points"], wound["percent"]) == (3, 33)
    assert "nervous_endocrine 66%: paralysed in the hit part" in wound["organs"]


def test_procedure_1_organ_damage_multiplies_the_tables_percentage() -> None:
    """ORGAN SYSTEM DAMAGE: "The essential part of the tissue system is the percentage damage done ... Simply
    multiply the tissue damage by the correct column and row" (Table 3-3.1). Under procedure 1 that percentage is
    the table's: a graze (10% in ours) to an 8-point head is 10 x 2.0 = 20 nervous-endocrine, dazed, though its
    0.8 points round to 1 (13%, which read 26, concussed); a scratch (5%) is 10, dazed, though it rounds to 0."""
    for roll, percent in (("2", 10), ("1", 5)):
        enc = fight({"ann": person("blue", "Ann", brawl=90), "cid": person("red", "Cid")}, damage=1, organs=True)
        to_action(enc)
        enc.act("attack", person="ann", weapon="knife", target="cid", range=1, aim="head")
        answer(enc, "Percent to hit", "5")
        answer(enc, "Damage: Table", roll)
        wound = enc.state["people"]["cid"]["wounds"][-1]
        assert wound["percent"] == percent
        assert f"nervous_endocrine {2 * percent}%: dazed: loses the next sub-turn" in wound["organs"]


def test_organ_damage_multiplies_the_tissue_percentage() -> None:
    """"Simply multiply the tissue damage by the correct column and row of the table [3-3.1]. The result ...
    is then looked-up on the appropriate organ system damage table #3-15.1 through 3-15.4"."""
    t = load_tables()
    enc = fight({"a": person("blue", "A"), "b": person("red", "B")})
    human = enc.state["people"]["a"]
    found = {s: m for s, m, _ in organ_damage(t, human, "chest", 15)}  # 50% of the chest
    assert found == {"circulatory": 100, "respiratory": 100, "nervous_endocrine": 25, "digestive_excretory": 25}


def test_the_head_in_the_chest_and_damage_over_the_whole_body() -> None:
    """"place the damage to the head where this particular race's head is (in the chest for the Eebek and
    Krane)"; Aracnian and Eebek circulatory and respiratory damage is taken "over their entire body"."""
    t = load_tables()
    enc = fight({"k": person("blue", "Krane", race="krane"), "e": person("red", "Eebek", race="eebek")})
    krane, eebek = enc.state["people"]["k"], enc.state["people"]["e"]
    nervous = {s: m for s, m, _ in organ_damage(t, krane, "chest", 19)}["nervous_endocrine"]
    assert nervous == 100  # 50% of 38, times the head's 2.0
    spread = {s: m for s, m, _ in organ_damage(t, eebek, "chest", 19)}
    assert spread["circulatory"] == spread["respiratory"] == 13  # 19 of the whole body's 148 points
    assert spread["nervous_endocrine"] == 100


def test_a_scripted_boarding_fight_ends_in_an_organ_result() -> None:
    enc = fight({"ann": person("blue", "Ann", aim=90), "cid": person("red", "Cid")}, damage=2, organs=True)
    to_action(enc)
    enc.act("attack", person="ann", weapon="auto_pistol", target="cid", range=5, aim="chest")
    answer(enc, "Percent to hit", "1")
    answer(enc, "Damage: auto pistol", "5 5 5 5")  # 22 of 30: 73%
    wound = enc.state["people"]["cid"]["wounds"][-1]
    assert wound["percent"] == 73
    assert wound["organs"][0] == "circulatory 146%: massive blood loss: unconscious"


def test_a_poison_reaches_only_the_organ_systems_named() -> None:
    """POISONS and DRUGS: "only affect organ systems and usually no tissue damage is done"; "the WEP MOD can be
    put directly into the calculation for damage ... tissue damage points which are ignored but the value is
    then used to calculate the organ system damage"."""
    enc = fight()
    enc.act("poison", target="cid", part="abdomen", systems=["nervous_endocrine"], wep_mod=5)
    cid = enc.state["people"]["cid"]
    assert cid["body"]["abdomen"]["taken"] == 0
    # WEP MOD 5 at the first band of Table 3-3: 15 points, 60% of the abdomen's 25, x0.3 nervous: 18%
    assert cid["wounds"][-1]["organs"] == ["nervous_endocrine 18%: dazed: loses the next sub-turn"]


# --- a weapon of more than one damage type ---------------------------------------------------------------

def _knife_of_two_types(tmp_path) -> str:
    """The shipped weapons with the knife (hand to hand, WEP MOD 4, 1+2) doing blade and bludgeon damage."""
    from rulesets.percentile.tables import TABLES_DIR

    text = (TABLES_DIR / "weapons.toml").read_text()
    start = text.index("[entries.knife]")
    house = tmp_path / "weapons.toml"
    house.write_text(text[:start] + text[start:].replace('damage_type = "blade"',
                                                         'damage_type = ["blade", "bludgeon"]', 1))
    return str(house)


def test_an_attack_may_combine_damage_types_one_number_of_points_described_by_each(tmp_path) -> None:
    """percentile-personal-combat.txt, Weaponry Combat: "any attack may combine more than one type of damage
    depending on the weapon used"; Hand to Hand: "blade and bludgeon damage ... either separately or
    simultaneously". Procedures 2 and 3 "yield a single number, equal to the number of damage points": the
    knife's 12 points (WEP MOD 4, point blank) +5 of Strength are one wound, described on the blade table (3-8)
    and the bludgeon table (3-9) alike ("The damage type will tell which of the tables ... to use")."""
    enc = fight({"ann": person("blue", "Ann", brawl=90), "cid": person("red", "Cid")}, damage=3,
                tables={"weapons": _knife_of_two_types(tmp_path)})
    to_action(enc)
    enc.act("attack", person="ann", weapon="knife", target="cid", range=1, aim="left_leg")
    answer(enc, "Percent to hit", "5")
    cid = enc.state["people"]["cid"]
    assert cid["body"]["left_leg"]["taken"] == 17
    assert [(w["points"], w["type"]) for w in cid["wounds"]] == [(17, "blade+bludgeon")]
    t = load_tables()
    said = notes(enc, 1)
    for kind in ("blade", "bludgeon"):
        assert all(any(f"{kind}, {line}" in n for n in said) for line in describe(t, kind, 85))
    firsts = [describe(t, kind, 85)[0].partition(": ")[2] for kind in ("blade", "bludgeon")]
    assert cid["wounds"][0]["text"] == "; ".join(firsts)
    body = dict(RULESET.unit_panels(enc.state, RULESET.unit_kinds[0], "cid")["Body"])
    assert body["left leg"].endswith(": " + "; ".join(firsts))  # the panel reads the part on both tables


def test_under_procedure_1_each_damage_type_rolls_on_its_own_table(tmp_path) -> None:
    """Procedure 1: "Determine what type of damage is being done", then the type's table (3-16 to 3-21) gives a
    title, a DAMAGE PERCENTAGE and a SEVERITY ROLL. Blade and bludgeon "simultaneously": a roll on each type's
    table, each its own wound with its own severity roll (ours, blade 4 and bludgeon 3: a wound of 30% and a
    light wound of 15% of the 20-point leg, 6 points and 3)."""
    enc = fight({"ann": person("blue", "Ann", brawl=90), "cid": person("red", "Cid")}, damage=1,
                tables={"weapons": _knife_of_two_types(tmp_path)})
    to_action(enc)
    enc.act("attack", person="ann", weapon="knife", target="cid", range=1, aim="left_leg")
    answer(enc, "Percent to hit", "5")
    answer(enc, "Damage: Table 3-16 (blade)", "4")
    answer(enc, "Severity (serious) for Cid", "1")
    answer(enc, "Damage: Table 3-17 (bludgeon)", "3")
    answer(enc, "Severity (minor) for Cid", "1")
    assert enc.pending is None
    cid = enc.state["people"]["cid"]
    assert [(w["type"], w["percent"], w["points"]) for w in cid["wounds"]] == [("blade", 30, 6), ("bludgeon", 15, 3)]
    assert cid["body"]["left_leg"]["taken"] == 9
    assert all(w.get("severity") for w in cid["wounds"])


def test_damage_under_the_lowest_band_reads_the_lowest_band_and_no_damage_reads_none() -> None:
    """You want more description?: the actual percentage "may fall between the upper and lower limit of any one
    category" and the nearest "end" is chosen; 1 point of a 300-point part is 0.3% (0% rounded), below the first
    category (1-5), which is the nearest. No damage at all reads nothing (a DAMAGE PERCENTAGE of 0 from 0 points)."""
    from rulesets.percentile.wounds import type_lines

    t = load_tables()
    first = describe(t, "blade", 1)
    assert first == describe(t, "blade", 5) and first[0].startswith("1-5: ")
    assert list(type_lines(t, "blade", 0, False, 1, 300)) == first
    assert type_lines(t, "blade", 0, False, 0, 300) == ()
