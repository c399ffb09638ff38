"""Alertness after an attack, and people asleep (percentile-personal-combat.txt, "Surprise, Surprise!" and
"Procedures for Surprise").

- "When attacked a players' alertness condition will always jump to a higher level in the next turn ...
  The amount of this increase is up to the Game Master ... Depending on the players' reaction to the attack
  the level of alertness may return to the original level, remain high, or show no reaction at all."
- "when some of the group are sleeping this does not degrade the alertness of the character or characters
  on guard."
"""

from __future__ import annotations

from pathlib import Path

from rulesets.percentile import RULESET

from .fights import answer, fight, person, refused
from .test_boarding import SCRIPT, demo, round_one_ends, sergeant_kills, surprise

THREE = [{"id": "blue", "name": "Blue", "alertness": 80}, {"id": "red", "name": "Red", "alertness": 20}]


def _needs(enc) -> str:
    return " ".join(s.needs for s in RULESET.checklist(enc.state) if s.status == "current")


def _round_two_ends(enc) -> None:
    """The demo's round 2 (after tchik_replies, the boarders' turn in sub-turn 1) runs out: 1 + 3 x 4 turns."""
    for _ in range(13):
        enc.act("next")
    assert enc.state["round"] == 3 and enc.state["step"] == "action"


# --- procedure 2: a side's Alertness Percentage -------------------------------------------------------------

def test_a_side_whose_man_was_killed_owes_nothing(tmp_path: Path) -> None:
    """Demo round 1: the sergeant kills Skarr-Vesh; the dead have no next turn, so no alertness is owed."""
    enc = demo(tmp_path)
    for step in (surprise, sergeant_kills, round_one_ends):
        step(enc)
    assert enc.state["alert_owed"] == []
    enc.act("primary")  # play goes straight on


def test_procedure_2_each_attacked_side_must_rise_before_play_goes_on(tmp_path: Path) -> None:
    """Demo round 2: Marr's grenade hits Tchik-Ahn (boarders, Alertness 40) and Tchik's laser hits Keller
    (marines, Alertness 60). Round 3 cannot go on until both sides' Alertness Percentages are higher."""
    enc = demo(tmp_path)
    for step in SCRIPT:
        step(enc)
    _round_two_ends(enc)
    assert enc.state["alert_owed"] == ["crew", "raiders"]
    assert "Swift Dolan's marines 60" in _needs(enc) and "Aracnian boarders 40" in _needs(enc)
    refused(enc, "attacked last round", "next")
    refused(enc, "attacked last round", "attack", person="marr", weapon="auto_pistol", target="tchik", range=8,
            aim="chest")
    refused(enc, "was attacked last round: its alertness rises first", "side_alertness", side="crew", value=90)
    refused(enc, "must be at least 1", "alertness_rise", who="crew", by=0)  # "always jumps to a higher level"
    refused(enc, "60: it rises by 40 at most", "alertness_rise", who="crew", by=41)
    ev = enc.act("alertness_rise", who="crew", by=15)
    assert enc.state["alertness"]["crew"] == 75 and enc.state["alert_owed"] == ["raiders"]
    assert ev.notes == ["Swift Dolan's marines' alertness jumps after the attack: 60 -> 75"]  # not "marines's"
    refused(enc, "Aracnian boarders", "next")
    enc.act("side_alertness", side="salvagers", value=10)  # a side not attacked is set as before
    enc.act("alertness_rise", who="raiders", by=20)
    assert enc.state["alertness"]["raiders"] == 60 and enc.state["alert_owed"] == []
    assert _needs(enc) == ""
    # "may return to the original level": only the first setting after the attack must be higher
    enc.act("side_alertness", side="raiders", value=40)
    enc.act("next")


def test_the_risen_alertness_enters_the_next_surprise_check(tmp_path: Path) -> None:
    """After the rise, contact is lost; round 4 checks surprise by procedure 2 with the new Alertness:
    marines (62 + 55 + 52) / 3 = 56 with 75: 65.5 -> 66; boarders Tchik's 58 with 60: 59; salvagers Oolu's
    66 with 50: 58."""
    enc = demo(tmp_path)
    for step in SCRIPT:
        step(enc)
    _round_two_ends(enc)
    enc.act("alertness_rise", who="crew", by=15)
    enc.act("alertness_rise", who="raiders", by=20)
    enc.act("lost_contact")
    while enc.state["step"] == "action":
        enc.act("next")
    assert enc.state["step"] == "surprise" and enc.state["round"] == 4
    enc.act("surprise")
    answer(enc, "Surprise: Swift Dolan's marines rolls under 66", "50")
    answer(enc, "Surprise: Aracnian boarders rolls under 59", "50")
    answer(enc, "Surprise: Eebek salvagers rolls under 58", "50")


# --- procedure 3: each person's own Alertness Percentage ------------------------------------------------------

def _blue_surprises_and_ann_shoots(enc) -> None:
    enc.act("surprise")
    answer(enc, "Surprise: Blue", "1")
    answer(enc, "Surprise: Red", "99")
    enc.act("attack", person="ann", weapon="auto_pistol", target="cid", range=5, aim="chest")
    answer(enc, "Percent to hit", "99")  # a miss is an attack all the same
    enc.act("next")
    assert enc.state["round"] == 2 and enc.state["step"] == "primary"


def test_procedure_3_the_attacked_person_must_rise() -> None:
    """Procedure 3 gives each person an Alertness Percentage: Cid's (50) is the one that jumps."""
    enc = fight(surprise=3)
    _blue_surprises_and_ann_shoots(enc)
    assert enc.state["alert_owed"] == ["cid"]
    assert "Cid 50" in _needs(enc)
    refused(enc, "attacked last round", "primary")
    refused(enc, "Cid was attacked last round: their alertness rises first", "alertness", person="cid", value=99)
    enc.act("alertness", person="ann", value=70)  # Ann was not attacked: set as before
    refused(enc, "must be at least 1", "alertness_rise", who="cid", by=0)  # "always jumps to a higher level"
    enc.act("alertness_rise", who="cid", by=25)
    assert enc.state["people"]["cid"]["alertness"] == 75 and enc.state["alert_owed"] == []
    enc.act("alertness", person="cid", value=50)  # back to the original level: the game master's call
    enc.act("primary")


def test_a_bystander_caught_in_a_grenades_blast_was_attacked_too() -> None:
    """"When attacked a players' alertness condition will always jump to a higher level in the next turn": Dee,
    standing with the target, takes the blast as Cid does, so both owe a rise (found by an audit: Dee did not)."""
    enc = fight({"ann": person("blue", "Ann"), "cid": person("red", "Cid"), "dee": person("red", "Dee")},
                surprise=3)
    enc.act("surprise")
    answer(enc, "Surprise: Blue", "1")
    answer(enc, "Surprise: Red", "99")
    enc.act("attack", person="ann", weapon="frag_grenade", target="cid", range=5, aim="chest", with_target=["dee"])
    answer(enc, "Grenade", "10")  # no bounce: Cid in the chest, as aimed
    answer(enc, "Random hit location on Dee", "80")
    enc.act("next")
    assert sorted(enc.state["alert_owed"]) == ["cid", "dee"]


def test_at_100_there_is_no_higher_level_to_jump_to() -> None:
    enc = fight({"ann": person("blue", "Ann"), "cid": person("red", "Cid", alertness=100)}, surprise=3)
    _blue_surprises_and_ann_shoots(enc)
    assert enc.state["alert_owed"] == []
    enc.act("primary")


def test_procedure_1_reads_perception_only_so_nothing_is_owed() -> None:
    """(1) "try to roll under their PERCEPTION": no Alertness Percentage enters the check, so the step does
    not wait for one; the round's end still names who was attacked."""
    enc = fight(surprise=1)
    _blue_surprises_and_ann_shoots(enc)
    assert enc.state["alert_owed"] == []
    assert any("Cid" in n and "alertness" in n for n in enc.events[-1].notes)
    enc.act("primary")


def test_rising_is_offered_only_when_owed() -> None:
    enc = fight(surprise=3)
    refused(enc, "nobody attacked last round owes a rise", "alertness_rise", who="cid", by=5)


# --- asleep ----------------------------------------------------------------------------------------------------

def _sleepers() -> dict:
    return {"ann": person("blue", "Ann", perception=60, alertness=90),
            "ben": person("blue", "Ben", perception=41, alertness=10, asleep=True),
            "cid": person("red", "Cid", perception=70, alertness=30)}


def test_a_sleeper_is_left_out_of_procedure_2() -> None:
    """Ben asleep: Blue's Perception is Ann's 60 alone, with the side's 80: 70 (awake: 50.5 with 80, 66)."""
    enc = fight(_sleepers(), THREE, surprise=2)
    enc.act("surprise")
    answer(enc, "Surprise: Blue rolls under 70", "1")
    answer(enc, "Surprise: Red rolls under 45", "99")  # (70 + 20) / 2


def test_a_sleeper_is_left_out_of_procedure_3() -> None:
    """Ben asleep: Blue's condition is Ann's (60 + 90) / 2 = 75 alone (awake: with Ben's 25.5 -> 26, 50.5 -> 51)."""
    enc = fight(_sleepers(), THREE, surprise=3)
    enc.act("surprise")
    answer(enc, "Surprise: Blue rolls under 75", "1")
    answer(enc, "Surprise: Red rolls under 50", "99")


def test_procedure_1_is_perception_only_and_counts_the_sleeper() -> None:
    """(1) is "a simple attribute check" of Perception, not the Alertness Condition: (60 + 41) / 2 = 50.5 -> 51."""
    enc = fight(_sleepers(), THREE, surprise=1)
    enc.act("surprise")
    answer(enc, "Surprise: Blue rolls under 51", "1")


def test_a_person_is_put_to_sleep_and_woken_by_an_action() -> None:
    enc = fight(_sleepers(), THREE, surprise=3)
    assert enc.state["people"]["ben"]["asleep"]
    enc.act("asleep", person="ben")
    assert not enc.state["people"]["ben"]["asleep"]
    assert "Ben wakes" in enc.events[-1].notes[0]
    enc.act("asleep", person="ann")
    assert enc.state["people"]["ann"]["asleep"]
    enc.act("asleep", person="ann")
    enc.act("surprise")
    answer(enc, "Surprise: Blue rolls under 51", "1")  # both awake: (75 + 25.5 -> 26) / 2 = 50.5 -> 51


def test_a_side_all_asleep_cannot_get_surprise() -> None:
    """percentile-personal-combat.txt, Surprise, Surprise!: "When an attack is initiated and the target is not
    alert it is said to be Surprised", and the side with surprise "receives the one and only turn this round".
    A side whose every member sleeps is not alert: it rolls for nothing (a roll of 1 won it surprise and a turn
    while all asleep), and the one side awake gets surprise with no roll, under every procedure."""
    for procedure in (1, 2, 3):
        people = _sleepers()
        people["ann"]["asleep"] = True
        enc = fight(people, THREE, surprise=procedure)
        enc.act("surprise")
        assert enc.pending is None
        assert enc.state["surprise_side"] == "red" and enc.state["round_order"] == ["red"]
        assert "Blue is all asleep, not alert: it cannot get surprise" in enc.events[-1].notes
        assert "Red gets SURPRISE: the one and only turn this round" in enc.events[-1].notes


def test_of_three_sides_the_two_awake_roll_for_surprise() -> None:
    """The sides with someone awake roll as ever; the one asleep is left out of it."""
    sides = [*THREE, {"id": "green", "name": "Green", "alertness": 50}]
    people = {**_sleepers(), "dee": person("green", "Dee", perception=40)}
    people["ann"]["asleep"] = True
    enc = fight(people, sides, surprise=1)
    enc.act("surprise")
    answer(enc, "Surprise: Red rolls under 70", "60")
    answer(enc, "Surprise: Green rolls under 40", "1")
    assert enc.pending is None and enc.state["surprise_side"] == "green"


def test_with_every_side_asleep_surprise_waits_for_someone_to_wake() -> None:
    """Nobody is awake to start a fight: the roll is refused until the game master wakes someone (z)."""
    people = _sleepers()
    people["ann"]["asleep"] = people["cid"]["asleep"] = True
    enc = fight(people, THREE, surprise=2)
    refused(enc, "every side in the fight is asleep: wake someone \\(z\\) before surprise", "surprise")
    enc.act("asleep", person="cid")
    enc.act("surprise")
    assert enc.state["surprise_side"] == "red"



def test_a_sleeper_does_nothing_until_woken() -> None:
    """The text speaks of sleep only as the guard's alertness ("when some of the group are sleeping", Surprise,
    Surprise!); a person asleep is not one "paying attention" at all, so (our reading, README) a sleeper neither
    attacks, moves nor borrows on the side's turn: the game master wakes them (z) first, and then they act."""
    from .fights import to_action

    enc = fight(_sleepers(), THREE)
    to_action(enc)
    for name, args in (("attack", {"person": "ben", "weapon": "knife", "target": "cid", "range": 1, "aim": "chest"}),
                       ("move", {"person": "ben", "what": next(iter(enc.ruleset.tables_for(enc.state).actions))}),
                       ("borrow", {"person": "ben", "points": 1})):
        refused(enc, "Ben is asleep: wake them first \\(z\\)", name, **args)
    enc.act("asleep", person="ben")
    enc.act("attack", person="ben", weapon="knife", target="cid", range=1, aim="chest")
    assert enc.pending is not None and enc.pending.purpose.startswith("Percent to hit: Ben")


def test_asleep_in_a_setup_file_must_be_true_or_false(tmp_path: Path) -> None:
    import pytest

    from engine.errors import BadSave
    from engine.saves import SaveFile

    from .test_boarding import DEMO

    text = DEMO.read_text().replace('name = "Sgt. Ilsa Marr"\n', 'name = "Sgt. Ilsa Marr"\nasleep = "yes"\n', 1)
    path = tmp_path / "demo.toml"
    path.write_text(text)
    with pytest.raises(BadSave, match="setup.people.marr: asleep must be true or false") as caught:
        SaveFile.load(path)
    assert "\n" not in str(caught.value)


def test_the_people_list_shows_who_sleeps() -> None:
    enc = fight(_sleepers(), THREE, surprise=3)
    kind = RULESET.unit_kinds[0]
    assert RULESET.unit_line(enc.state, kind, "ben")[0].endswith("ASLEEP")
    assert "ASLEEP" not in RULESET.unit_line(enc.state, kind, "ann")[0]
    assert RULESET.unit_panels(enc.state, kind, "ben")["Body"][0] == ("State", "asleep")
