"""Corrections a game master types into a percentile fight keep a state the rules can play on.

Each case was found by a game master's drive: the value was taken, and the fight then went wrong (points
borrowed and spent counted twice) or crashed on a later roll. Each is now refused where it was typed, naming the
limit, and records nothing.
"""

from __future__ import annotations

import copy

import pytest

from engine.errors import IllegalAction
from engine.saves import SaveFile, create
from rulesets.percentile import Percentile
from tests.rulesets.percentile.fights import answer, deep_wound, fight, person, to_action
from rulesets.percentile.turn import ap_left


def refused_correction(enc, path: str, value: str, match: str) -> None:
    before = (list(enc.events), copy.deepcopy(enc.state))
    with pytest.raises(IllegalAction, match=match):
        enc.correct(path, value)
    assert (list(enc.events), enc.state) == before


def borrowed_and_spent():
    """Ann (55, five sub-turns) borrows 30 of next turn for 10 and walks 18 in sub-turn 1: her own 11, then 7 of
    the borrowed points (percentile-personal-combat.txt, Want to speed it up?: borrowed points "can be expended
    in this turn", at 3:1)."""
    enc = fight(subturns=5, borrowing=True)
    to_action(enc)
    enc.act("borrow", person="ann", points=30)
    enc.act("move", person="ann", what="walk", times=6)
    ann = enc.state["people"]["ann"]
    assert (ann["ap_spent"], ann["ap_extra"], ann["ap_extra_spent"]) == (18, 10, 7)
    return enc


def test_points_spent_are_never_fewer_than_the_borrowed_points_among_them() -> None:
    """ap_spent 5 under 7 borrowed points spent made her own points spent -2: sub-turn 1 gave 13 of its 11."""
    enc = borrowed_and_spent()
    refused_correction(enc, "people.ann.ap_spent", "5", r"ap_spent must be at least 7 \(its ap extra spent\)")


def test_borrowed_points_spent_are_within_those_borrowed_and_those_spent() -> None:
    enc = borrowed_and_spent()
    refused_correction(enc, "people.ann.ap_extra_spent", "11", r"ap_extra_spent must be from 0 to 10 \(its ap extra\)")
    refused_correction(enc, "people.ann.ap_extra", "6", r"ap_extra must be at least 7 \(its ap extra spent\)")
    enc.correct("people.ann.ap_spent", "9")  # 9 spent in all: no more than 9 of them can be borrowed ones
    refused_correction(enc, "people.ann.ap_extra_spent", "10", r"ap_extra_spent must be from 0 to 9 \(its ap spent\)")


def test_a_correction_within_the_limits_plays_on() -> None:
    """Spent 7, all borrowed: her own 11 are still there, and the 3 borrowed points left."""
    enc = borrowed_and_spent()
    enc.correct("people.ann.ap_spent", "7")
    assert ap_left(enc.state, enc.state["people"]["ann"]) == 14


# --- a race is the body it hits --------------------------------------------------------------------------------

def test_a_race_with_other_body_parts_is_refused() -> None:
    """Cid (human) made an Aracnian kept his arms and hands: a random hit of 50 on the Aracnian table #3-3.4 found
    a left claw he has not, and an aimed shot at his head (Eebek keep it in the chest) found no row of Table 3-3.1
    (StopIteration)."""
    enc = fight(organs=True)
    to_action(enc)
    refused_correction(enc, "people.cid.race", "aracnian",
                       r"race must be one of fenbin, human, sooaacoli \(a race with Cid's body parts; an aracnian "
                       r"has left claw, .* and no left arm, ")
    refused_correction(enc, "people.cid.race", "eebek", r"an eebek has no head, left foot, right foot\)")


def test_a_race_with_the_same_body_parts_is_taken_and_hit() -> None:
    """Human to Fenbin: the same parts, now with an exoskeleton; the next random hit (50, the abdomen on the
    Fenbin table) lands."""
    enc = fight(organs=True)
    to_action(enc)
    enc.correct("people.cid.race", "fenbin")
    enc.act("attack", person="ann", weapon="auto_pistol", target="cid", range=5, aim="chest")
    answer(enc, "Percent to hit", "45")
    answer(enc, "Random hit location", "50")
    assert enc.state["people"]["cid"]["wounds"][-1]["part"] == "abdomen"



def test_a_race_corrected_brings_its_average_agility() -> None:
    """percentile-personal-combat.txt, Any move at all?: a human's "average number of agility points" is 55, and
    Procedures for Action (2): the Agility Points are the character's Agility. Cid's file leaves his Agility to
    his race (0), so Cid made a Fenbin (70 on the shipped races table) corrected back to a human has the human's
    55, this turn too; Dee's own Agility of 62 is hers whatever her race."""
    people = {"ann": person("blue", "Ann"), "cid": person("red", "Cid", race="fenbin"),
              "dee": person("red", "Dee", race="fenbin", agility=62)}
    enc = fight(people)
    to_action(enc)
    assert enc.state["people"]["cid"]["agility"] == 70
    enc.correct("people.cid.race", "human")
    enc.correct("people.dee.race", "human")
    cid, dee = enc.state["people"]["cid"], enc.state["people"]["dee"]
    assert (cid["agility"], cid["ap_turn"]) == (55, 55)
    assert (dee["agility"], dee["ap_turn"]) == (62, 62)
    enc.act("next")
    enc.act("next")  # round 2: the turn's points come from the Agility again
    assert enc.state["people"]["cid"]["ap_turn"] == 55


def test_a_save_written_before_corrections_played_out_still_loads(tmp_path, monkeypatch) -> None:
    """A save's [state] is checked against its log replayed (engine.saves): one written when a corrected race
    left the Agility as it was, and a corrected order left the primary attack rolls, loads as that version wrote
    it, and plays on with today's results (the human's 55; Red first with the 10)."""
    path = tmp_path / "old.toml"
    with monkeypatch.context() as m:
        m.setattr(Percentile, "rederives_race", False)
        m.setattr(Percentile, "reorders_rolls", False)
        enc = fight({"ann": person("blue", "Ann"), "cid": person("red", "Cid", race="fenbin")})
        to_action(enc)
        enc.correct("people.cid.race", "human")
        enc.correct("order[0]", "red")
        assert enc.state["people"]["cid"]["agility"] == 70
        assert enc.state["primary_rolls"] == {"blue": 10, "red": 20}
        create(path, enc)
    loaded = SaveFile.load(path).encounter
    assert loaded.state["people"]["cid"]["agility"] == 55
    assert loaded.state["primary_rolls"] == {"red": 10, "blue": 20}

# --- the order of the sides ------------------------------------------------------------------------------------

def test_the_round_s_order_names_its_own_sides_and_a_side_named_elsewhere_swaps() -> None:
    """A side id the order does not hold was taken: the next side to join (placed by its primary attack roll among
    the sides in the order, percentile-personal-combat.txt, Primary Attack) or the next turn looked for its roll or
    its name and crashed (KeyError). Naming a side of the order at another's place swaps the two: Red acts now."""
    enc = fight()
    to_action(enc)
    refused_correction(enc, "order[0]", "zzz", r"order\[0\] must be one of blue, red")
    refused_correction(enc, "round_order[1]", "zzz", r"round_order\[1\] must be one of blue, red")
    enc.correct("round_order[0]", "red")
    assert enc.state["round_order"] == ["red", "blue"]
    assert "Red" in enc.ruleset.header(enc.state)


def test_a_joined_side_is_corrected_only_to_a_side_not_already_joined() -> None:
    """``joined`` lists the sides in the fight ("a side that joins late acts at its place"): a correction there
    names a side of the fight not listed already; any other text would drop a side from the fight unseen."""
    enc = fight()
    refused_correction(enc, "joined[0]", "zzz", "must be one of blue")
    refused_correction(enc, "joined[0]", "red", "must be one of blue")  # red is listed at [1]
    enc.correct("joined[0]", "blue")  # as it is: nothing changes
    assert enc.state["joined"] == ["blue", "red"]


def test_the_primary_attack_rolls_follow_the_sides_when_the_order_is_corrected() -> None:
    """percentile-personal-combat.txt, Procedures for Primary Attack (1): "The side with the lowest roll will get
    Primary Attack and attacks first, the side with the second lowest roll will attack second". Blue rolled 20 and
    Red 45; the game master corrects the order to Red first, so Red holds the 20 and Blue the 45. Green, joining
    late with a 45 (Primary Attack: "If at any time the results are equal ... a 1:100sd roll for each side
    should be repeated"), is equal to Blue, the side now second, and rolls off with Blue."""
    sides = [{"id": "blue", "name": "Blue"}, {"id": "red", "name": "Red"},
             {"id": "green", "name": "Green", "joins_later": True}]
    enc = fight({"ann": person("blue", "Ann"), "cid": person("red", "Cid"), "dee": person("green", "Dee")}, sides)
    to_action(enc, blue="20", red="45")
    enc.correct("order[0]", "red")
    assert enc.state["order"] == ["red", "blue"]
    assert enc.state["primary_rolls"] == {"red": 20, "blue": 45}
    assert "Order: Red 20, Blue 45" in enc.ruleset.checklist_notes(enc.state)
    assert "the primary attack rolls follow the order, lowest first: Red 20, Blue 45" in enc.events[-1].notes
    enc.act("join", side="green")
    answer(enc, "Primary attack: Green", "45")
    assert "Green rolled 45, equal to Blue: each rolls again" in enc.events[-1].notes
    answer(enc, "Primary attack: Green", "70")  # Blue wins the roll-off: Green goes after Blue
    answer(enc, "Primary attack: Blue", "60")
    assert enc.state["order"] == ["red", "blue", "green"]


def test_the_sub_turns_are_never_corrected_below_the_sub_turn_the_round_has_reached() -> None:
    """A drive corrected five sub-turns to 2 in sub-turn 3: the header read "sub-turn 3/2" and people "AP 60/55"
    (a share of a sub-turn the turn no longer has). Refused, naming the sub-turn; 3 or more plays on."""
    enc = fight(subturns=5)
    to_action(enc)
    enc.correct("subturn", "3")
    refused_correction(enc, "options.subturns", "2", r"must be 3 or more \(the round is in sub-turn 3")
    enc.correct("options.subturns", "3")
    assert enc.state["options"]["subturns"] == 3


def test_a_death_a_correction_brings_is_told_in_the_log_as_a_wound_s_would_be() -> None:
    """A drive corrected a chest's damage past its points: the person showed DEAD, but the log had only the
    correction line, where a wound that kills says "... is dead: the chest has no function left"."""
    enc = fight()
    chest = enc.state["people"]["ann"]["body"]["chest"]
    ev = enc.correct("people.ann.body.chest.taken", str(chest["points"]))
    assert enc.state["people"]["ann"]["dead"]
    assert "Ann is dead: the chest has no function left" in ev.notes
    ev = enc.correct("people.ann.body.chest.taken", "0")
    assert not enc.state["people"]["ann"]["dead"] and "Ann is alive again: every vital part has some function" in ev.notes


def test_a_dead_person_s_panel_shows_no_points_left_to_spend() -> None:
    """A drive read "172 left in sub-turn 3" on a person shown DEAD: the dead take no more actions."""
    from rulesets.percentile import views
    from rulesets.percentile.tables import load_tables

    enc = fight(subturns=5)
    to_action(enc)
    row = lambda: dict(views.unit_panels(enc.state, None, "ann", load_tables())["Character"])["This turn"]  # noqa: E731
    assert " left in sub-turn 1" in row()
    enc.correct("people.ann.body.chest.taken", str(enc.state["people"]["ann"]["body"]["chest"]["points"]))
    assert enc.state["people"]["ann"]["dead"] and " left in sub-turn" not in row()


@pytest.mark.parametrize("value", ["laser_cannon", "", "[bold]"])
def test_a_weapon_the_weapons_table_lacks_is_refused_naming_the_weapons(value: str) -> None:
    """A fuzz of typed corrections (session 29): a weapon id no table knows was refused only by trial, as "would
    break the fight (KeyError: 'laser_cannon')"; the message now names what the field may hold."""
    enc = fight()
    refused_correction(enc, "people.ann.weapons[0]", value, r"people\.ann\.weapons\[0\] must be one of .*auto_pistol")


def test_a_weapon_of_the_weapons_table_is_accepted() -> None:
    enc = fight()
    enc.correct("people.ann.weapons[0]", "knife")
    assert enc.state["people"]["ann"]["weapons"][0] == "knife"


@pytest.mark.parametrize("path, value, match", [
    ("step", "zz", r"step must be one of surprise, primary, action, over"),
    ("sole", "zz", r"sole must be empty or one of blue, red"),
    ("acting", "5", r"acting must be from 0 to 1 \(the place in this round's order of the side acting\)"),
])
def test_the_round_s_own_values_are_refused_naming_what_they_may_be(path: str, value: str, match: str) -> None:
    """Found by a typed-correction fuzz (session 29): the step, the side with the only attack and the place of the
    side acting were refused only by trial, as "would break the fight (KeyError: 'zz')" or "(IndexError: list
    index out of range)"."""
    enc = fight()
    to_action(enc)
    assert enc.state["step"] == "action" and len(enc.state["round_order"]) == 2
    refused_correction(enc, path, value, match)


# --- a wound says what its damage does ------------------------------------------------------------------------

def shot_in_the(part: str, organs: bool = False, times: int = 1):
    """Ann's auto pistol at 5 m hits Cid's ``part`` directly ``times`` times (48 under): Table 3-3, WEP MOD 7 at
    short range, 18 points a hit (damage procedure 3)."""
    enc = fight(organs=organs)
    to_action(enc)
    for _ in range(times):
        enc.act("attack", person="ann", weapon="auto_pistol", target="cid", range=5, aim=part)
        answer(enc, "Percent to hit", "5")
    return enc


def first_description(damage_type: str, percent: int) -> str:
    from rulesets.percentile.tables import load_tables
    from rulesets.percentile.wounds import describe

    return describe(load_tables(), damage_type, percent)[0].partition(": ")[2]


def test_a_wound_s_description_follows_its_part_s_damage_corrected() -> None:
    """percentile-personal-combat.txt, Description: "DAMAGE PERCENTAGE = points taken / total points * 100", and
    "With this percentage and the damage type you can now look up ... the actual damage done" (Tables 3-8 to 3-14).
    A drive corrected Cid's chest, 18 of 30 from one pistol shot (60%), to 20: the Body panel read the chest at 67%,
    but the wound still said what 60% does, in the console and on the other side's screen."""
    from rulesets.percentile import views
    from rulesets.percentile.tables import load_tables

    enc = shot_in_the("chest")
    wound = enc.state["people"]["cid"]["wounds"][0]
    assert (wound["points"], wound["percent"], wound["text"]) == (18, 60, first_description("projectile", 60))
    ev = enc.correct("people.cid.body.chest.taken", "20")
    wound = enc.state["people"]["cid"]["wounds"][0]
    now = first_description("projectile", 67)  # 20 / 30 * 100, rounded half up
    assert now != first_description("projectile", 60)
    assert (wound["points"], wound["percent"], wound["text"]) == (20, 67, now)
    assert f"Cid's chest wound: 18 -> 20 points, 60% -> 67% of 30: {now}" in ev.notes
    body = views.unit_panels(enc.state, None, "cid", load_tables())["Body"]
    assert ("Wound", f"chest 20 projectile (67%): {now}") in body
    assert enc.undo() and enc.state["people"]["cid"]["wounds"][0]["text"] == first_description("projectile", 60)


def test_a_wound_described_again_reads_every_description_its_hit_read() -> None:
    """percentile-personal-combat.txt, You want more description?: "after you read the description indicated by the
    damage percentage look up the table (down the percentages) until you reach the most serve description ... All of
    these descriptions would relate the sum total of all of the consequences of the attack". The hit's log line gives
    each of them with its band; a drive corrected Keller's head from 5 of 8 (63%: three descriptions) to 2 (25%),
    and the log said the first description alone, with no band and none of the others."""
    from rulesets.percentile.tables import load_tables
    from rulesets.percentile.wounds import describe

    enc = shot_in_the("chest")
    made = [f"  {line}" for line in describe(load_tables(), "projectile", 60)]
    assert len(made) > 1 and all(line in enc.events[-1].notes for line in made)  # the hit's own log
    ev = enc.correct("people.cid.body.chest.taken", "20")
    now = [f"  {line}" for line in describe(load_tables(), "projectile", 67)]
    assert len(now) > 1
    said = ev.notes.index(f"Cid's chest wound: 18 -> 20 points, 60% -> 67% of 30: {first_description('projectile', 67)}")
    assert ev.notes[said + 1:said + 1 + len(now)] == now


def test_a_part_s_damage_corrected_down_comes_off_its_latest_wound_first() -> None:
    """Two shots in the left leg (18 and 18 of 20) corrected to 10 in all: the latest wound has none of it left,
    and the first keeps 10 (50%); each says what its own damage does."""
    enc = shot_in_the("left_leg", times=2)
    ev = enc.correct("people.cid.body.left_leg.taken", "10")
    first, latest = enc.state["people"]["cid"]["wounds"]
    assert (first["points"], first["percent"], first["text"]) == (10, 50, first_description("projectile", 50))
    assert (latest["points"], latest["percent"], latest["text"]) == (0, 0, "")
    assert [n for n in ev.notes if "left leg wound" in n] == [
        "Cid's left leg wound: 18 -> 0 points, 90% -> 0% of 20: no damage left, the wound is gone",
        f"Cid's left leg wound: 18 -> 10 points, 90% -> 50% of 20: {first_description('projectile', 50)}"]


def test_a_wound_s_own_damage_corrected_is_described_again_with_its_organs() -> None:
    """A wound's points corrected: its DAMAGE PERCENTAGE follows them, and the description and the organ results
    ("Simply multiply the tissue damage by the correct column and row of the table", ORGAN SYSTEM DAMAGE) are read
    again at it; its percentage corrected (as damage procedure 1's table gives one), the same at that percentage."""
    from rulesets.percentile.tables import load_tables
    from rulesets.percentile.wounds import organ_damage

    enc = shot_in_the("chest", organs=True)
    ev = enc.correct("people.cid.wounds[0].points", "6")
    cid = enc.state["people"]["cid"]
    wound = cid["wounds"][0]
    organs = [f"{s} {m}%: {t}" for s, m, t in organ_damage(load_tables(), cid, "chest", 6)]
    assert (wound["percent"], wound["text"], wound["organs"]) == (20, first_description("projectile", 20), organs)
    assert any(n.startswith("Cid's chest wound: 18 -> 6 points, 20% of 30: ") for n in ev.notes)
    assert any(n.startswith("  organs, ") for n in ev.notes)
    ev = enc.correct("people.cid.wounds[0].percent", "95")
    wound = enc.state["people"]["cid"]["wounds"][0]
    assert (wound["points"], wound["text"]) == (6, first_description("projectile", 95))
    assert wound["organs"] == [f"{s} {m}%: {t}" for s, m, t in organ_damage(load_tables(), cid, "chest", 6, 95)]
    now = first_description("projectile", 95)
    assert f"Cid's chest wound: 6 points, 20% -> 95% of 30 (typed by hand): {now}" in ev.notes
    refused_correction(enc, "people.cid.wounds[0].points", "-1", r"wounds\[0\]\.points must be from 0 to")


def test_a_save_written_before_wounds_followed_their_damage_still_loads(tmp_path, monkeypatch) -> None:
    """A save whose [state] keeps the wound as it was before its part's damage was corrected is the older
    version's result, not a hand edit: it loads, and plays on with the wound read again."""
    path = tmp_path / "old.toml"
    with monkeypatch.context() as m:
        m.setattr(Percentile, "rereads_wounds", False)
        enc = shot_in_the("chest")
        enc.correct("people.cid.body.chest.taken", "20")
        assert enc.state["people"]["cid"]["wounds"][0]["points"] == 18
        create(path, enc)
    text = path.read_text()
    loaded = SaveFile.load(path).encounter
    assert loaded.state["people"]["cid"]["wounds"][0]["points"] == 20
    assert path.read_text() == text


def body_rows(enc, pid: str = "cid") -> list[tuple[str, str]]:
    from rulesets.percentile import views
    from rulesets.percentile.tables import load_tables

    return views.unit_panels(enc.state, None, pid, load_tables())["Body"]


def wounds_seen(enc, by: str = "blue", pid: str = "cid") -> str:
    from rulesets.percentile.sideview import side_view

    contact = next(c for c in side_view(enc.ruleset, enc.state, by).contacts if c.uid == pid)
    return dict(contact.known)["Wounds"]


def test_a_wound_corrected_to_no_damage_is_gone_from_the_panel_the_log_and_the_other_side_s_view() -> None:
    """Two shots in the left leg (18 and 18 of 20) corrected to 10 in all: the latest wound has no damage left
    (Description: a DAMAGE PERCENTAGE of 0 finds no description on Tables 3-8 to 3-14). A drive read "Wound  left
    leg 0 projectile (0%): " with nothing after it in the Body panel; it is gone there, in the log and on the other
    side's screen alike, and only the wound that has damage is told. The state keeps its place (a correction back
    up gives the latest wound its damage again)."""
    enc = shot_in_the("left_leg", times=2)
    ev = enc.correct("people.cid.body.left_leg.taken", "10")
    kept = first_description("projectile", 50)  # 10 / 20 * 100
    assert "Cid's left leg wound: 18 -> 0 points, 90% -> 0% of 20: no damage left, the wound is gone" in ev.notes
    assert [row for row in body_rows(enc) if row[0] == "Wound"] == [("Wound", f"left leg 10 projectile (50%): {kept}")]
    assert wounds_seen(enc) == f"left leg ({kept})"
    enc.correct("people.cid.body.left_leg.taken", "28")
    assert [w["points"] for w in enc.state["people"]["cid"]["wounds"]] == [10, 18]
    assert len([row for row in body_rows(enc) if row[0] == "Wound"]) == 2


def test_a_wound_s_points_corrected_are_its_part_s_damage_with_what_follows() -> None:
    """Tissue Damage: "all of the points of damage that a character has taken, describes that character's
    function"; "the first ten percent of damage points" are structure (3 of the chest's 30); "Total destruction of
    the body part occurs when it has taken five times the number of points" (150). A drive corrected Cid's only
    chest wound from 18 to 6 points: the wound read 20%, the chest still 18 of 30. The chest's damage is its wounds'
    now, and what follows is played out as for the chest's own correction: the structure and function, total
    destruction and death (ours: the chest is vital) come and go in the log."""
    enc = shot_in_the("chest")
    ev = enc.correct("people.cid.wounds[0].points", "6")
    cid = enc.state["people"]["cid"]
    assert cid["body"]["chest"]["taken"] == 6
    assert "Cid's chest: 18 -> 6 of 30 points taken, now function 24/27" in ev.notes
    assert ("chest", f"6/30 function 24/27 (structure 3): {first_description('projectile', 20)}") in body_rows(enc)
    ev = enc.correct("people.cid.wounds[0].points", "150")
    assert cid["body"]["chest"]["taken"] == 150 and cid["dead"]
    assert ev.notes[-3:] == ["Cid's chest: 6 -> 150 of 30 points taken, now totally destroyed",
                             "Cid's chest is totally destroyed (5 x 30 points)",
                             "Cid is dead: the chest has no function left"]
    ev = enc.correct("people.cid.wounds[0].points", "3")
    assert cid["body"]["chest"]["taken"] == 3 and not cid["dead"]
    assert ev.notes[-2:] == ["Cid's chest: 150 -> 3 of 30 points taken, now structure only",
                             "Cid is alive again: every vital part has some function"]


def test_a_part_s_damage_corrected_says_what_it_now_does_as_its_wounds_would() -> None:
    """The same played out for the chest's own damage corrected (one place): its state, and total destruction
    told as a hit tells it."""
    enc = shot_in_the("chest")
    ev = enc.correct("people.cid.body.chest.taken", "150")
    assert ev.notes[-3:] == ["Cid's chest: 18 -> 150 of 30 points taken, now totally destroyed",
                             "Cid's chest is totally destroyed (5 x 30 points)",
                             "Cid is dead: the chest has no function left"]


def test_a_save_written_before_parts_followed_their_wounds_still_loads(tmp_path, monkeypatch) -> None:
    """A save of the version before, whose [state] keeps the chest at 18 after its wound was corrected to 6 and the
    wound at 20% after the chest was corrected to 60 points, and a left arm corrected to 5 with no wound, is that
    version's result, not a hand edit: it loads unchanged and plays on with the chest at its wound's 6, the wound
    at 10% (6 / 60 * 100) and the arm's 5 a wound of no stated type."""
    path = tmp_path / "old.toml"
    with monkeypatch.context() as m:
        m.setattr(Percentile, "parts_follow_wounds", False)
        enc = shot_in_the("chest")
        enc.correct("people.cid.wounds[0].points", "6")
        enc.correct("people.cid.body.left_arm.taken", "5")
        enc.correct("people.cid.body.chest.points", "60")
        assert enc.state["people"]["cid"]["body"]["chest"]["taken"] == 18
        assert [w["percent"] for w in enc.state["people"]["cid"]["wounds"]] == [20]
        create(path, enc)
    text = path.read_text()
    cid = SaveFile.load(path).encounter.state["people"]["cid"]
    assert cid["body"]["chest"]["taken"] == 6
    assert [(w["part"], w["points"], w["percent"], w["type"]) for w in cid["wounds"]] == [
        ("chest", 6, 10, "projectile"), ("left_arm", 5, 33, "untyped")]
    assert path.read_text() == text


def test_damage_corrected_onto_a_part_with_no_wound_is_a_wound_of_no_stated_type() -> None:
    """Description: the tables are read "With this percentage and the damage type"; a correction of a part's damage
    names no type, so (our reading) the damage is a wound of no stated type, described by what its DAMAGE
    PERCENTAGE leaves of the part (Tissue Damage: "all of the points of damage that a character has taken, describes
    that character's function"; the first ten percent are structure). A drive corrected Cid's chest to 20 before any
    hit: the Body panel read 20/30 with nothing said of it, and the log had only the correction. Giving the wound its
    type reads its description."""
    enc = fight()
    to_action(enc)
    ev = enc.correct("people.cid.body.chest.taken", "20")
    said = "damage of no stated type, some function lost"  # 20 of 30: past the 3 structure points, short of 30
    assert enc.state["people"]["cid"]["wounds"] == [
        {"part": "chest", "points": 20, "percent": 67, "type": "untyped", "text": said}]  # 20 / 30 * 100
    assert ev.notes[:3] == [
        f"Cid's chest takes a wound of no stated type: 20 points, 67% of 30: {said}",
        "  to read its description, correct people.cid.wounds[0].type to its damage type (blade, bludgeon, "
        "projectile, shrapnel, laser, plasma, sonic)",
        "Cid's chest: 0 -> 20 of 30 points taken, now function 10/27"]
    assert ("chest", f"20/30 function 10/27 (structure 3): {said}") in body_rows(enc)
    assert ("Wound", f"chest 20 untyped (67%): {said}") in body_rows(enc)
    assert wounds_seen(enc) == f"chest ({said})"
    ev = enc.correct("people.cid.wounds[0].type", "projectile")
    now = first_description("projectile", 67)
    assert enc.state["people"]["cid"]["wounds"][0]["text"] == now
    assert f"Cid's chest wound: 20 points, 67% of 30: {now}" in ev.notes
    assert ("chest", f"20/30 function 10/27 (structure 3): {now}") in body_rows(enc)
    refused_correction(enc, "people.cid.wounds[0].type", "projectle",
                       r"wounds\[0\]\.type must be a damage type \(blade, bludgeon, projectile, shrapnel, laser, "
                       r"plasma, sonic\), several joined by \+ \(blade\+bludgeon\), or untyped")


def test_a_wound_of_no_stated_type_reaches_the_organs_and_goes_as_any_wound() -> None:
    """ORGAN SYSTEM DAMAGE "leads directly from the tissue damage" percentage, whatever its type: with organ damage
    played, the wound of no stated type has its organ results; corrected back to 0 it is gone."""
    from rulesets.percentile.tables import load_tables
    from rulesets.percentile.wounds import organ_damage

    enc = fight(organs=True)
    to_action(enc)
    ev = enc.correct("people.cid.body.chest.taken", "20")
    cid = enc.state["people"]["cid"]
    assert cid["wounds"][0]["organs"] == [f"{s} {m}%: {t}" for s, m, t in organ_damage(load_tables(), cid, "chest", 20)]
    assert any(n.startswith("  organs, ") for n in ev.notes)
    enc.correct("people.cid.body.chest.taken", "0")
    assert [row for row in body_rows(enc) if row[0] == "Wound"] == [] and wounds_seen(enc) == "none seen"


def test_a_part_s_points_corrected_read_the_percentage_of_its_wounds_points_again() -> None:
    """Damage procedures 2 and 3 "yield a single number, equal to the number of damage points that were inflicted on
    the target", and the description's DAMAGE PERCENTAGE is "points taken / total points * 100" (Description): the
    chest's 30 points corrected to 60 leave the pistol's 18 points, now 30% of the chest, described at 30%."""
    enc = shot_in_the("chest")
    ev = enc.correct("people.cid.body.chest.points", "60")
    wound = enc.state["people"]["cid"]["wounds"][0]
    now = first_description("projectile", 30)  # 18 / 60 * 100
    assert (wound["points"], wound["percent"], wound["text"]) == (18, 30, now)
    assert enc.state["people"]["cid"]["body"]["chest"]["taken"] == 18
    assert ev.notes[0] == f"Cid's chest wound: 18 points, 60% -> 30% of 60: {now}"
    assert ev.notes[1] == f"  26-30: {now}"  # then the additional descriptions read upward, as the hit's log had them
    assert ev.notes[-1] == "Cid's chest: 18 of 60 points taken, now function 42/54"  # 6 structure, 54 function
    assert ("Wound", f"chest 18 projectile (30%): {now}") in body_rows(enc)


def test_procedure_1_a_part_s_points_corrected_keep_the_table_s_percentage_of_the_part() -> None:
    """Damage procedure (1): the table's DAMAGE PERCENTAGE "relates an approximation of the damage taken as a
    percentage of the total points in that particular body part"; the wound is that share, its points worked out
    from it (a deep wound, 50% in ours, is 15 of a 30-point chest). The chest corrected to 40 points: still a deep
    wound of 50%, described as before, now 20 points (50% of 40), which the chest has taken."""
    enc = deep_wound()
    wound = enc.state["people"]["cid"]["wounds"][0]
    assert (wound["points"], wound["percent"]) == (15, 50)
    ev = enc.correct("people.cid.body.chest.points", "40")
    wound = enc.state["people"]["cid"]["wounds"][0]
    kept = first_description("projectile", 50)
    assert (wound["points"], wound["percent"], wound["text"]) == (20, 50, kept)
    assert enc.state["people"]["cid"]["body"]["chest"]["taken"] == 20
    assert ev.notes[0] == f"Cid's chest wound: 15 -> 20 points, 50% of 40: {kept}"
    assert ev.notes[1] == f"  46-50: {kept}"  # then the additional descriptions read upward
    assert ev.notes[-1] == "Cid's chest: 15 -> 20 of 40 points taken, now function 20/36"  # 4 structure, 36 function


def test_a_wound_keeps_the_type_play_gave_it_though_no_table_describes_it() -> None:
    """A poison's "wound" (combat.py, POISONS and DRUGS: organ damage alone) has the type "poison", which no description
    table reads; a resumed state holding one is checked value by value as corrections, so the type play gave a wound
    stays allowed there, while a type no table reads and the wound never had is refused (found by the resume fuzz test
    once the wound type rule came in)."""
    import random
    from pathlib import Path

    from engine.errors import FlagbridgeError
    from engine.saves import SaveFile
    from tests.console_play import play

    enc = SaveFile.load(Path(__file__).resolve().parents[3] / "saves" / "demo-percentile.toml").encounter
    rng = random.Random(0)
    for _ in range(13):
        play(enc, rng, 1)
    assert enc.state["people"]["okafor"]["wounds"][0]["type"] == "poison"
    enc.check_correction("people.okafor.wounds[0].type", "poison")
    with pytest.raises(FlagbridgeError, match="must be a damage type"):
        enc.check_correction("people.okafor.wounds[0].type", "projectle")


#: What corrections of a person played out that the version before the first-band reading of slight wounds lacked
#: (its saves are replayed with all of them off, ``Percentile.earlier_readings``).
LACKED_BEFORE = ("reads_slight_wounds", "moves_wounds", "keeps_percent_by_hand")


def as_the_version_before(m) -> None:
    for name in LACKED_BEFORE:
        m.setattr(Percentile, name, False)


def lowest_band(damage_type: str) -> tuple[str, str]:
    """The description table's lowest band ("1-5") and its own words, read from the table file itself."""
    from rulesets.percentile.tables import load_tables

    rows = load_tables().descriptions[damage_type]["rows"]
    first = min(rows, key=int)
    return f"{int(first) - 4}-{first}", rows[first]["text"]


def test_a_wound_of_a_point_under_the_lowest_band_reads_the_lowest_band() -> None:
    """percentile-personal-combat.txt, You want more description?: "there are twenty categories of damage on all of the
    tables, and the actual damage percentage may fall between the upper and lower limit of any one category ... the
    most applicable 'end' of the description should be chosen". A drive left Cid's chest wound at 1 point of a chest
    corrected to 300 points (1 / 300 * 100 = 0.3, 0% rounded half up): the Body panel read "chest 1 projectile (0%): "
    with nothing after it, though the wound is there. Below the first category, the first is the nearest: the wound
    reads the lowest band's own words, and keeps its 0%."""
    enc = shot_in_the("chest")
    enc.correct("people.cid.wounds[0].points", "1")
    ev = enc.correct("people.cid.body.chest.points", "300")
    band, words = lowest_band("projectile")
    wound = enc.state["people"]["cid"]["wounds"][0]
    assert (wound["points"], wound["percent"], wound["text"]) == (1, 0, words)
    assert ("Wound", f"chest 1 projectile (0%): {words}") in body_rows(enc)
    assert ("chest", f"1/300 structure only (structure 30): {words}") in body_rows(enc)
    assert wounds_seen(enc) == f"chest ({words})"
    assert ev.notes[:2] == [f"Cid's chest wound: 1 point, 3% -> 0% of 300: {words}", f"  {band}: {words}"]


def test_a_percentage_typed_as_0_for_a_wound_with_points_reads_the_lowest_band() -> None:
    """The wound's percentage corrected to 0 by hand (as damage procedure 1's table would give one): its 18 points are
    still there, so the wound reads the lowest band's words, not nothing."""
    enc = shot_in_the("chest")
    ev = enc.correct("people.cid.wounds[0].percent", "0")
    _band, words = lowest_band("projectile")
    assert enc.state["people"]["cid"]["wounds"][0]["text"] == words
    assert ("Wound", f"chest 18 projectile (0%): {words}") in body_rows(enc)
    assert ev.notes == [f"Cid's chest wound: 18 points, 60% -> 0% of 30 (typed by hand): {words}", f"  1-5: {words}"]


def test_a_save_written_before_slight_wounds_read_the_lowest_band_still_loads(tmp_path, monkeypatch) -> None:
    """A save of the version before, whose [state] keeps such a wound with no words, is that version's result, not a
    hand edit: it loads unchanged and plays on with the lowest band's words."""
    path = tmp_path / "old.toml"
    with monkeypatch.context() as m:
        as_the_version_before(m)
        enc = shot_in_the("chest")
        enc.correct("people.cid.wounds[0].percent", "0")
        assert enc.state["people"]["cid"]["wounds"][0]["text"] == ""
        create(path, enc)
    text = path.read_text()
    cid = SaveFile.load(path).encounter.state["people"]["cid"]
    assert cid["wounds"][0]["text"] == lowest_band("projectile")[1]
    assert path.read_text() == text


def reads_no_band_under_the_first(m) -> None:
    """The version before read no description for damage under the first band, a hit's or a correction's alike
    (``wounds.type_lines`` as it was then)."""
    from rulesets.percentile import wounds

    today = wounds.type_lines
    m.setattr(wounds, "type_lines", lambda tables, kind, percent, exoskeleton, points, part_points, slight=True:
              today(tables, kind, percent, exoskeleton, points, part_points, slight=False))


def test_a_hit_under_the_lowest_band_reads_it_and_a_save_written_before_still_loads(tmp_path, monkeypatch) -> None:
    """A hit, not only a correction, may land under the first category: Ann's auto pistol (18 points: Table 3-3, WEP
    MOD 7 at short range) in the chest of a Cid whose file gives it 4000 points is 0.45%, 0% rounded half up, and the
    wound reads the lowest band's words (You want more description?: the nearest category). The version before read
    none for it. A save it wrote keeps the wound with no words under the same log: that version's result, not a hand
    edit. It loads (it was refused, "open with --keep-edits"), and plays on with the lowest band's words."""
    def hit():
        enc = fight({"ann": person("blue", "Ann"), "cid": person("red", "Cid", body={"chest": 4000})})
        to_action(enc)
        enc.act("attack", person="ann", weapon="auto_pistol", target="cid", range=5, aim="chest")
        answer(enc, "Percent to hit", "5")
        return enc

    band, words = lowest_band("projectile")
    enc = hit()
    wound = enc.state["people"]["cid"]["wounds"][0]
    assert (wound["points"], wound["percent"], wound["text"]) == (18, 0, words)
    assert f"  {band}: {words}" in enc.events[-1].notes
    path = tmp_path / "old.toml"
    with monkeypatch.context() as m:
        as_the_version_before(m)
        reads_no_band_under_the_first(m)
        old = hit()
        assert old.state["people"]["cid"]["wounds"][0]["text"] == ""
        create(path, old)
    text = path.read_text()
    assert SaveFile.load(path).encounter.state["people"]["cid"]["wounds"][0] == wound
    assert path.read_text() == text


# --- a wound moved to another part --------------------------------------------------------------------------------

def test_a_wound_is_moved_only_to_a_part_of_the_person_s_body() -> None:
    """A drive moved Cid's chest wound to "left_claw", a part only an Aracnian has (races table, the random hit table
    #3-3.4 and Table 3-3.1 are read by the person's race): it was taken, and the wound sat on no part of his body.
    Refused, naming his parts as they are typed (a drive read "left arm" among them, typed it, and was refused); one
    of them is taken."""
    enc = shot_in_the("chest")
    for value in ("left_claw", "zzz", "", "left arm"):
        refused_correction(enc, "people.cid.wounds[0].part", value,
                           r"wounds\[0\]\.part must be one of head, chest, abdomen, left_arm, right_arm, left_hand, "
                           r"right_hand, left_leg, right_leg, left_foot, right_foot \(Cid's body parts\)")
    enc.check_correction("people.cid.wounds[0].part", "left_arm")


def test_a_wound_moved_to_another_part_takes_its_points_there_with_what_follows() -> None:
    """Tissue Damage: "all of the points of damage that a character has taken, describes that character's function";
    Description: "DAMAGE PERCENTAGE = points taken / total points * 100". A drive moved Cid's pistol wound (18 points)
    from his chest to his left arm: the wound was on the arm, but the chest still had the 18 points taken and the arm
    none. Moved, the chest loses them and the arm takes them (18 of 15: no function), and the wound is read again on
    the arm (120%, above 100: the last description row). Moved to his head (8 points) it kills him (ours: the head is
    vital), and back to the chest he lives again."""
    enc = shot_in_the("chest")
    cid = enc.state["people"]["cid"]
    ev = enc.correct("people.cid.wounds[0].part", "left_arm")
    now = first_description("projectile", 120)
    assert (cid["body"]["chest"]["taken"], cid["body"]["left_arm"]["taken"]) == (0, 18)
    wound = cid["wounds"][0]
    assert (wound["part"], wound["points"], wound["percent"], wound["text"]) == ("left_arm", 18, 120, now)
    assert ev.notes[0] == f"Cid's left arm wound, moved from the chest: 18 points, 120% of 15: {now}"
    assert ev.notes[-2:] == ["Cid's chest: 18 -> 0 of 30 points taken, now unhurt",
                             "Cid's left arm: 0 -> 18 of 15 points taken, now no function"]
    assert ("chest", "0/30 unhurt") in body_rows(enc)
    assert ("left arm", f"18/15 no function: {now}") in body_rows(enc)
    assert ("Wound", f"left arm 18 projectile (120%): {now}") in body_rows(enc)
    assert wounds_seen(enc) == f"left arm ({now})"
    ev = enc.correct("people.cid.wounds[0].part", "head")
    assert cid["dead"] and ev.notes[-1] == "Cid is dead: the head has no function left"
    assert (cid["body"]["left_arm"]["taken"], cid["body"]["head"]["taken"]) == (0, 18)
    ev = enc.correct("people.cid.wounds[0].part", "chest")
    assert not cid["dead"] and ev.notes[-1] == "Cid is alive again: every vital part has some function"
    assert (cid["body"]["head"]["taken"], cid["body"]["chest"]["taken"]) == (0, 18)
    assert (cid["wounds"][0]["percent"], cid["wounds"][0]["text"]) == (60, first_description("projectile", 60))
    assert enc.undo() and enc.undo() and enc.undo()
    assert (cid := enc.state["people"]["cid"])["body"]["chest"]["taken"] == 18 and cid["wounds"][0]["part"] == "chest"


def test_procedure_1_a_wound_moved_keeps_the_table_s_percentage_of_the_part_it_is_on() -> None:
    """Damage procedure (1): the table's DAMAGE PERCENTAGE "relates an approximation of the damage taken as a
    percentage of the total points in that particular body part", as when a part's points are corrected: a deep
    wound, 50% of a 30-point chest (15 points), moved to a 15-point left arm is a deep wound of 50% there, 8 points
    (7.5 rounded half up), which the arm takes and the chest gives up."""
    enc = deep_wound()
    ev = enc.correct("people.cid.wounds[0].part", "left_arm")
    cid = enc.state["people"]["cid"]
    kept = first_description("projectile", 50)
    assert (cid["wounds"][0]["points"], cid["wounds"][0]["percent"], cid["wounds"][0]["text"]) == (8, 50, kept)
    assert (cid["body"]["chest"]["taken"], cid["body"]["left_arm"]["taken"]) == (0, 8)
    assert ev.notes[0] == f"Cid's left arm wound, moved from the chest: 8 points, 50% of 15: {kept}"


def test_a_save_written_before_wounds_moved_their_points_still_loads(tmp_path, monkeypatch) -> None:
    """A save of the version before, whose [state] keeps the chest's 18 points after its wound was moved to the left
    arm, is that version's result, not a hand edit: it loads unchanged and plays on with the arm holding them."""
    path = tmp_path / "old.toml"
    with monkeypatch.context() as m:
        as_the_version_before(m)
        enc = shot_in_the("chest")
        enc.correct("people.cid.wounds[0].part", "left_arm")
        assert enc.state["people"]["cid"]["body"]["chest"]["taken"] == 18
        create(path, enc)
    text = path.read_text()
    cid = SaveFile.load(path).encounter.state["people"]["cid"]
    assert (cid["body"]["chest"]["taken"], cid["body"]["left_arm"]["taken"]) == (0, 18)
    assert path.read_text() == text


# --- a percentage typed by hand ---------------------------------------------------------------------------------

def test_a_percentage_typed_by_hand_stands_until_the_wound_s_own_points_change() -> None:
    """Description: the DAMAGE PERCENTAGE is "points taken / total points * 100", but where it falls in a category is
    the Game Master's ("the most applicable 'end' of the description should be chosen ... an option the Game Master can
    use or disregard"; "Game Masters should use discretion to customize the descriptions"). A percentage typed by hand
    is that judgement of this wound: a drive typed 40% for Cid's 18-point chest wound, then corrected the chest from 30
    to 60 points, and the 40% was read again as 30% (18 / 60). It stands when the part's points, the wound's type or its
    part change; the wound's own points corrected (directly, or by its part's damage) are a new wound to read, and its
    percentage follows them again."""
    enc = shot_in_the("chest")
    enc.correct("people.cid.wounds[0].percent", "40")
    wound = lambda: enc.state["people"]["cid"]["wounds"][0]  # noqa: E731
    typed = first_description("projectile", 40)
    ev = enc.correct("people.cid.body.chest.points", "60")
    assert (wound()["points"], wound()["percent"], wound()["text"]) == (18, 40, typed)
    assert ev.notes == ["Cid's chest: 18 of 60 points taken, now function 42/54"]
    assert ("Wound", f"chest 18 projectile (40%): {typed}") in body_rows(enc)
    enc.correct("people.cid.wounds[0].type", "blade")
    assert (wound()["percent"], wound()["text"]) == (40, first_description("blade", 40))
    enc.correct("people.cid.wounds[0].type", "projectile")
    enc.correct("people.cid.wounds[0].part", "abdomen")  # 25 points: 18 would be 72%
    assert (wound()["points"], wound()["percent"], wound()["text"]) == (18, 40, typed)
    ev = enc.correct("people.cid.wounds[0].points", "10")  # 10 / 25 * 100
    assert (wound()["percent"], wound()["text"]) == (40, typed) and "percent_by_hand" not in wound()
    enc.correct("people.cid.body.abdomen.points", "50")  # now it follows the points again: 10 / 50 * 100
    assert (wound()["percent"], wound()["text"]) == (20, first_description("projectile", 20))


def test_a_percentage_typed_by_hand_gives_way_when_the_part_s_damage_moves_the_wound_s_points() -> None:
    """The chest's damage corrected from 18 to 20 gives its latest wound the 2 points more: its own points changed, so
    its typed 40% gives way to 20 / 30 * 100."""
    enc = shot_in_the("chest")
    enc.correct("people.cid.wounds[0].percent", "40")
    enc.correct("people.cid.body.chest.taken", "20")
    wound = enc.state["people"]["cid"]["wounds"][0]
    assert (wound["points"], wound["percent"], wound["text"]) == (20, 67, first_description("projectile", 67))


def test_a_percentage_typed_as_the_one_its_points_read_follows_them() -> None:
    """Description: the DAMAGE PERCENTAGE is "points taken / total points * 100"; a percentage typed by hand stands as
    the game master's own reading of the wound only where it is another than that. Cid's 18-point chest wound typed at
    40% is marked; typed back to 60% (18 / 30 * 100) the mark goes, and with the chest corrected to 60 points the
    percentage follows the points again (30%)."""
    enc = shot_in_the("chest")
    wound = lambda: enc.state["people"]["cid"]["wounds"][0]  # noqa: E731
    enc.correct("people.cid.wounds[0].percent", "40")
    assert wound()["percent_by_hand"] is True
    enc.correct("people.cid.wounds[0].percent", "60")
    assert "percent_by_hand" not in wound()
    enc.correct("people.cid.body.chest.points", "60")
    assert (wound()["percent"], wound()["text"]) == (30, first_description("projectile", 30))


def test_a_part_s_row_reads_a_wound_at_the_percentage_typed_by_hand() -> None:
    """The Body panel's row for a part read its damage at its points' share (18 / 30 * 100 = 60%), while the wound
    below it read the 40% the game master typed by hand, which the rules keep as the game master's reading
    ("Game Masters should use discretion to customize the descriptions", Procedures): "chest ... the part hangs slack"
    over "Wound chest 18 projectile (40%): the bullet cuts deep into the muscle". The row reads that wound at its
    40%; another wound on the part adds its points' share (10 of 30 more: 40% + 33% = 73%)."""
    enc = shot_in_the("chest")
    enc.correct("people.cid.wounds[0].percent", "40")
    typed = first_description("projectile", 40)
    assert ("chest", f"18/30 function 12/27 (structure 3): {typed}") in body_rows(enc)
    assert ("Wound", f"chest 18 projectile (40%): {typed}") in body_rows(enc)
    enc.correct("people.cid.body.chest.taken", "28")  # 10 more: the latest wound takes them, its 40% gives way
    assert ("chest", f"28/30 function 2/27 (structure 3): {first_description('projectile', 93)}") in body_rows(enc)


def test_a_part_s_row_reads_a_wound_typed_by_hand_beside_another() -> None:
    """Two pistol wounds in Cid's chest (18 points each, 36 of 30): the first typed by hand at 10%, the second read
    from its points (60%). The chest's row reads the two together, 10% + 60% = 70%, where its points alone read 120%."""
    enc = shot_in_the("chest", times=2)
    enc.correct("people.cid.wounds[0].percent", "10")
    row = dict(body_rows(enc))["chest"]
    assert row.endswith(f": {first_description('projectile', 70)}")
    assert first_description("projectile", 70) != first_description("projectile", 120)


def test_a_save_written_before_typed_percentages_stood_still_loads(tmp_path, monkeypatch) -> None:
    """A save of the version before, whose [state] has the typed 40% read again as 30% when the chest was corrected to
    60 points, is that version's result, not a hand edit: it loads unchanged and plays on with the 40% standing."""
    path = tmp_path / "old.toml"
    with monkeypatch.context() as m:
        as_the_version_before(m)
        enc = shot_in_the("chest")
        enc.correct("people.cid.wounds[0].percent", "40")
        enc.correct("people.cid.body.chest.points", "60")
        assert enc.state["people"]["cid"]["wounds"][0]["percent"] == 30
        create(path, enc)
    text = path.read_text()
    assert SaveFile.load(path).encounter.state["people"]["cid"]["wounds"][0]["percent"] == 40
    assert path.read_text() == text


def test_a_wound_moved_from_a_part_the_body_lacks_gives_the_new_part_its_points() -> None:
    """A resumed state may hold a wound on a part its person's body lacks (its [state] was written by hand): moved to a
    part of the body, the wound's points are that part's damage, and there is no old part to take them from."""
    from rulesets.percentile.tables import load_tables
    from rulesets.percentile.wounds import wound_moved

    enc = shot_in_the("chest")
    cid = copy.deepcopy(enc.state["people"]["cid"])
    cid["body"]["chest"]["taken"] = 0
    cid["wounds"][0]["part"] = "left_arm"
    said, moved = wound_moved(load_tables(), cid, cid["wounds"][0], "left_claw", table_shares=False)
    assert moved == [("left_arm", 0)] and cid["body"]["left_arm"]["taken"] == 18
    assert said[0].startswith("Cid's left arm wound: 18 points, 60% -> 120% of 15: ")
