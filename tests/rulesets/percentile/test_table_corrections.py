"""A percentile table corrected whole plays out what each value in it would play out corrected alone.

A correction may name one value (``people.cid.race``) or a whole table or list (``people.cid``, a body, the order of
sides): through the Python API, and kept from a hand edit of a save's [state]. Only the single value once played
out what follows from it (``test_corrections``): a person given whole with another race kept the old race's
Agility, a body given whole with a chest of no function left its person alive, and an order given whole left the
primary attack rolls with the sides that had them. Now each changed value inside the table is handed on as its own
correction would be, typed and replayed from a saved log alike, with the same words in the log.

percentile-personal-combat.txt: Procedures for Action (2), the Agility Points are "the characters' Agility", a
human's average 55 (Any move at all?); Damage, a part with no damage points left has "no more function", and a
vital one kills; Procedures for Primary Attack (1), "the side with the lowest roll ... attacks first".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.saves import SaveFile, create
from engine.state import plain_copy
from rulesets.percentile import Percentile
from tests.rulesets.percentile.fights import deep_wound, fight, person, to_action
from tests.rulesets.scripted import corrected_and_reloaded


def fenbin_cid():
    """Ann (blue) against Cid, a Fenbin whose file leaves his Agility to the race (70 on the shipped races table);
    Blue rolled 10 and Red 20 for primary attack."""
    enc = fight({"ann": person("blue", "Ann"), "cid": person("red", "Cid", race="fenbin")})
    to_action(enc)
    return enc


def cid(enc) -> dict:
    return enc.state["people"]["cid"]


def test_a_person_given_whole_with_another_race_takes_its_average_agility(tmp_path: Path) -> None:
    single = fenbin_cid()
    said = single.correct("people.cid.race", "human").notes
    assert said == ["Cid's Agility 70 -> 55 (the Human average)"]

    enc = fenbin_cid()
    event, loaded = corrected_and_reloaded(enc, "people.cid", dict(cid(enc), race="human"), tmp_path)
    assert (cid(enc)["agility"], cid(enc)["ap_turn"]) == (55, 55)
    assert event.notes == said and enc.state == single.state and cid(loaded)["agility"] == 55


@pytest.mark.parametrize("whole", ["people.cid.body", "people.cid", "people"])
def test_a_body_given_whole_with_a_vital_part_of_no_function_kills(whole: str, tmp_path: Path) -> None:
    enc = fenbin_cid()
    single = fenbin_cid()
    points = cid(enc)["body"]["chest"]["points"]
    said = single.correct("people.cid.body.chest.taken", points).notes
    assert said[0].startswith(f"Cid's chest takes a wound of no stated type: {points} points")
    assert said[-2:] == [f"Cid's chest: 0 -> {points} of {points} points taken, now no function",
                         "Cid is dead: the chest has no function left"]

    people = plain_copy(enc.state["people"])
    people["cid"]["body"]["chest"]["taken"] = points
    value = {"people.cid.body": people["cid"]["body"], "people.cid": people["cid"], "people": people}[whole]
    event, loaded = corrected_and_reloaded(enc, whole, value, tmp_path)
    assert cid(enc)["dead"] and cid(loaded)["dead"]
    assert event.notes == said and enc.state == single.state


def test_an_order_given_whole_takes_the_primary_attack_rolls_with_it(tmp_path: Path) -> None:
    """Red first: Red holds the lowest roll, 10, and Blue the 20; the log says so as for ``order[0] = red`` (which
    also says what it swapped: the whole order given swaps nothing)."""
    single = fenbin_cid()
    said = single.correct("order[0]", "red").notes
    assert said == ["swapped: order[1] = 'blue'",
                    "the primary attack rolls follow the order, lowest first: Red 10, Blue 20"]

    enc = fenbin_cid()
    event, _loaded = corrected_and_reloaded(enc, "order", ["red", "blue"], tmp_path)
    assert enc.state["primary_rolls"] == {"red": 10, "blue": 20}
    assert event.notes == said[1:] and enc.state == single.state


def test_several_values_in_one_person_play_out_each_once_in_the_state_s_order(tmp_path: Path) -> None:
    """Cid given whole as a human with no function left in his chest: his Agility follows the race, then he is
    dead, once each, in the order the state holds his values (race before body) whatever order the table was
    written in; the log says what the two corrections typed alone would say."""
    singles = fenbin_cid()
    points = cid(singles)["body"]["chest"]["points"]
    said = (singles.correct("people.cid.race", "human").notes
            + singles.correct("people.cid.body.chest.taken", points).notes)
    assert said[0] == "Cid's Agility 70 -> 55 (the Human average)"
    assert said[1].startswith(f"Cid's chest takes a wound of no stated type: {points} points")
    assert said[-2:] == [f"Cid's chest: 0 -> {points} of {points} points taken, now no function",
                         "Cid is dead: the chest has no function left"]

    for backwards in (False, True):
        enc = fenbin_cid()
        table = plain_copy(cid(enc))
        table["race"] = "human"
        table["body"]["chest"]["taken"] = points
        if backwards:
            table = dict(reversed(table.items()))
        folder = tmp_path / str(backwards)
        folder.mkdir()
        event, _loaded = corrected_and_reloaded(enc, "people.cid", table, folder)
        assert event.notes == said and enc.state == singles.state


def test_a_save_written_before_tables_played_out_loads_with_today_s_result(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A save whose whole-person correction changed Cid's race and did no more holds the Fenbin's 70 in its
    [state]: the older version's result, not a hand edit; the fight opens with the human's 55. The same version
    played out Ann's race corrected alone (a Fenbin's 70), as today's does: only the reading of that version
    explains the whole file."""
    path = tmp_path / "old.toml"
    with monkeypatch.context() as m:
        m.setattr(Percentile, "plays_out_inside_tables", False)
        enc = fenbin_cid()
        enc.correct("people.ann.race", "fenbin")
        enc.correct("people.cid", dict(cid(enc), race="human"))
        assert (cid(enc)["agility"], enc.state["people"]["ann"]["agility"]) == (70, 70)
        create(path, enc)
    text = path.read_text()
    loaded = SaveFile.load(path).encounter
    assert (cid(loaded)["agility"], loaded.state["people"]["ann"]["agility"]) == (55, 70)
    assert path.read_text() == text  # loading never writes


# --- a value given in the table stands ----------------------------------------------------------------------------

def test_a_wound_given_whole_keeps_the_percentage_typed_in_it(tmp_path: Path) -> None:
    """percentile-personal-combat.txt, Damage, Procedures: "Game Masters should use discretion to customize the
    descriptions"; Description: where in a category the damage falls is "an option the Game Master can use or
    disregard". Cid's 18-point chest wound (60% of 30) given whole as 6 points at 40%: the points, played first (the
    state holds them before the percentage), read 20% (6 / 30 * 100) over the 40% given with them, and the wound ended
    at 20% marked as typed by hand. The 40% stands, marked, as when the two are typed one after the other, and the
    chest has taken the 6 points."""
    from tests.rulesets.percentile.test_corrections import first_description, shot_in_the

    singles = shot_in_the("chest")
    singles.correct("people.cid.wounds[0].points", "6")
    singles.correct("people.cid.wounds[0].percent", "40")
    enc = shot_in_the("chest")
    corrected_and_reloaded(enc, "people.cid.wounds[0]", dict(cid(enc)["wounds"][0], points=6, percent=40), tmp_path)
    wound = cid(enc)["wounds"][0]
    assert (wound["points"], wound["percent"], wound["text"], wound.get("percent_by_hand")) == \
        (6, 40, first_description("projectile", 40), True)
    assert cid(enc)["body"]["chest"]["taken"] == 6
    assert enc.state == singles.state


def test_a_wound_given_whole_says_what_it_read_before_and_what_it_reads_now(tmp_path: Path) -> None:
    """Cid's chest wound, 18 points of 30 read at 60% ("points taken / total points * 100", Description), given whole
    as 6 points at 40%. The log read "6 points, 40% -> 20%": the 40% the game master typed, named as what the wound
    held. It held 60%. The points' line names the points moved and what they read (20%); the percentage's names the
    60% it replaced and the 40% now standing, typed by hand (``wounds.BY_HAND``); no line names 40% as held."""
    from tests.rulesets.percentile.test_corrections import body_rows, first_description, shot_in_the

    enc = shot_in_the("chest")
    event, _loaded = corrected_and_reloaded(enc, "people.cid.wounds[0]",
                                            dict(cid(enc)["wounds"][0], points=6, percent=40), tmp_path)
    heads = [n for n in event.notes if not n.startswith("  ")]
    assert heads == [f"Cid's chest wound: 18 -> 6 points, 20% of 30: {first_description('projectile', 20)}",
                     "Cid's chest: 18 -> 6 of 30 points taken, now function 24/27",
                     f"Cid's chest wound: 6 points, 60% -> 40% of 30 (typed by hand): "
                     f"{first_description('projectile', 40)}"]
    assert not any("40% ->" in n for n in event.notes)
    rows = body_rows(enc)  # the chest's row and the wound read the same 40%
    assert ("chest", f"6/30 function 24/27 (structure 3): {first_description('projectile', 40)}") in rows
    assert ("Wound", f"chest 6 projectile (40%): {first_description('projectile', 40)}") in rows


def test_a_wound_given_whole_on_another_part_names_no_typed_percentage_as_held(tmp_path: Path) -> None:
    """The same wound given whole on the abdomen (25 points) at 40%: its part, played first, read the 18 points there
    (72%) and the log said "18 points, 40% -> 72%", the typed 40% again named as held. The part's line names the part
    it moved from and what it reads there; the percentage's, the 60% it replaced."""
    from tests.rulesets.percentile.test_corrections import first_description, shot_in_the

    enc = shot_in_the("chest")
    event, _loaded = corrected_and_reloaded(enc, "people.cid.wounds[0]",
                                            dict(cid(enc)["wounds"][0], part="abdomen", percent=40), tmp_path)
    heads = [n for n in event.notes if not n.startswith("  ")]
    assert heads == [f"Cid's abdomen wound, moved from the chest: 18 points, 72% of 25: "
                     f"{first_description('projectile', 72)}",
                     "Cid's chest: 18 -> 0 of 30 points taken, now unhurt",
                     "Cid's abdomen: 0 -> 18 of 25 points taken, now function 7/22",
                     f"Cid's abdomen wound: 18 points, 60% -> 40% of 25 (typed by hand): "
                     f"{first_description('projectile', 40)}"]
    assert not any("40% ->" in n for n in event.notes)


def test_a_percentage_typed_alone_says_the_one_it_replaced() -> None:
    """The wound's percentage typed alone: the log named only the new one ("6 points, 95% of 30"), as the state held
    it before the wound was read again. It names the one it replaced, and that the new one is typed by hand."""
    from tests.rulesets.percentile.test_corrections import first_description, shot_in_the

    enc = shot_in_the("chest")
    ev = enc.correct("people.cid.wounds[0].percent", "95")
    assert ev.notes[0] == f"Cid's chest wound: 18 points, 60% -> 95% of 30 (typed by hand): " \
                          f"{first_description('projectile', 95)}"
    ev = enc.correct("people.cid.wounds[0].percent", "60")  # what its points read: no longer by hand
    assert ev.notes[0] == f"Cid's chest wound: 18 points, 95% -> 60% of 30: {first_description('projectile', 60)}"


def test_a_wound_given_whole_with_the_percentage_its_points_read_follows_them(tmp_path: Path) -> None:
    """Cid's chest wound given whole as 6 points at 20%, the percentage its points read (6 / 30 * 100): no percentage of
    the game master's own, so no mark, and with the chest corrected to 60 points it follows the points (10%)."""
    from tests.rulesets.percentile.test_corrections import first_description, shot_in_the

    enc = shot_in_the("chest")
    corrected_and_reloaded(enc, "people.cid.wounds[0]", dict(cid(enc)["wounds"][0], points=6, percent=20), tmp_path)
    assert (cid(enc)["wounds"][0]["percent"], "percent_by_hand" in cid(enc)["wounds"][0]) == (20, False)
    enc.correct("people.cid.body.chest.points", "60")
    assert (cid(enc)["wounds"][0]["percent"], cid(enc)["wounds"][0]["text"]) == (10, first_description("projectile", 10))


def test_procedure_1_a_part_given_whole_keeps_the_damage_typed_in_it(tmp_path: Path) -> None:
    """Damage procedure (1): a deep wound, 50% of a 30-point chest (15 points). The chest given whole as 60 points with
    20 taken: its points, played first, make the wound its table's 50% of 60 (30 points) and the chest's damage 35 over
    the 20 given; the 20 stands, and the wound follows it (20 points, 33% of 60), as when the two are typed one after
    the other."""
    singles = deep_wound()
    singles.correct("people.cid.body.chest.points", "60")
    singles.correct("people.cid.body.chest.taken", "20")
    enc = deep_wound()
    corrected_and_reloaded(enc, "people.cid.body.chest", {"points": 60, "taken": 20}, tmp_path)
    assert cid(enc)["body"]["chest"] == {"points": 60, "taken": 20}
    assert (cid(enc)["wounds"][0]["points"], cid(enc)["wounds"][0]["percent"]) == (20, 33)
    assert enc.state == singles.state


def test_a_save_written_before_given_values_were_kept_loads_with_today_s_result(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A save of the version before: Cid's deep wound moved to his abdomen (25 points: 13 taken, 50% of it), then the
    abdomen given whole as 50 points with 10 taken: its points, played first, gave the wound 12 more (50% of 50 is
    25), added to the 10 given, and left 22. Its [state] is that version's result, not a hand edit (no version before it moved wounds): the fight opens
    with the 10 standing."""
    path = tmp_path / "old.toml"
    with monkeypatch.context() as m:
        m.setattr(Percentile, "keeps_given_values", False)
        enc = deep_wound()
        enc.correct("people.cid.wounds[0].part", "abdomen")
        assert cid(enc)["body"]["abdomen"] == {"points": 25, "taken": 13}
        enc.correct("people.cid.body.abdomen", {"points": 50, "taken": 10})
        assert cid(enc)["body"]["abdomen"] == {"points": 50, "taken": 22}
        create(path, enc)
    text = path.read_text()
    loaded = cid(SaveFile.load(path).encounter)
    assert loaded["body"]["abdomen"] == {"points": 50, "taken": 10} and loaded["wounds"][0]["points"] == 10
    assert path.read_text() == text  # loading never writes


def test_a_save_written_before_typed_percentages_stood_with_a_wound_given_whole_loads(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A save of a version before both (``Percentile.earlier_readings``): the wound given whole as 6 points at 40%
    ended at 20%, read from its points, with no mark, and moved to the abdomen it left its points on the chest. It
    loads, with the typed 40% standing and the points on the abdomen."""
    from tests.rulesets.percentile.test_corrections import as_the_version_before, shot_in_the

    path = tmp_path / "old.toml"
    with monkeypatch.context() as m:
        as_the_version_before(m)
        m.setattr(Percentile, "keeps_given_values", False)
        enc = shot_in_the("chest")
        enc.correct("people.cid.wounds[0]", dict(cid(enc)["wounds"][0], points=6, percent=40))
        assert (cid(enc)["wounds"][0]["percent"], "percent_by_hand" in cid(enc)["wounds"][0]) == (20, False)
        enc.correct("people.cid.wounds[0].part", "abdomen")
        assert cid(enc)["body"]["chest"]["taken"] == 6
        create(path, enc)
    text = path.read_text()
    loaded = cid(SaveFile.load(path).encounter)
    wound = loaded["wounds"][0]
    assert (wound["part"], wound["points"], wound["percent"], wound["percent_by_hand"]) == ("abdomen", 6, 40, True)
    assert (loaded["body"]["chest"]["taken"], loaded["body"]["abdomen"]["taken"]) == (0, 6)
    assert path.read_text() == text
