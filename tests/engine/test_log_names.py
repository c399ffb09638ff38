"""Every line of a logged event names a unit as it was called when the event happened.

Found by a game master's drive: after Red Lantern was renamed Blood Lantern by a correction, the fire action's
line read "target=Blood Lantern" over its own roll "To hit: ... at Red Lantern", so the log contradicted itself
and a search of it for either name found only part of the event. The rolls and the notes under a line are
written once, with the names of the moment, and stay so; the line over them now does the same, whatever was
renamed later, and whether the log is drawn live, after an undo or from the save reopened. The rename's own
line names the unit both ways.
"""

from __future__ import annotations

from pathlib import Path

from engine.encounter import Encounter
from engine.recap import entries
from engine.saves import SaveFile, create
from tests.demos import classic_hg_at_offensive_fire

FIRE = "fire: ship Swift Dolan · turrets T3 · target Red Lantern"
BEFORE = "correction: ships.red-lantern.fuel 95 -> 90"  # "(Red Lantern)" would say what the id does
RENAME = "correction: ships.red-lantern.name (Blood Lantern) 'Red Lantern' -> 'Blood Lantern'"
AFTER = "correction: ships.red-lantern.fuel (Blood Lantern) 90 -> 80"
WITHDRAW = "withdraw: ship Blood Lantern · fled"


def renamed_mid_fight(folder: Path) -> Path:
    """The classic-hg demo, typed: Swift Dolan's beam lasers hit Red Lantern (12) and the hit strikes its fuel
    tanks (7, 7); then the game master sets its fuel to 90, renames it Blood Lantern, sets the fuel to 80 and
    withdraws it as fled. Saved in ``folder`` as renamed.toml."""
    path = folder / "renamed.toml"
    enc = classic_hg_at_offensive_fire(path)
    enc.act("fire", ship="swift-dolan", turrets=["T3"], target="red-lantern")
    enc.type_roll("12")
    enc.act("next")
    enc.act("next")
    enc.act("resolve_damage")
    enc.type_roll("7")
    enc.type_roll("7")
    enc.correct("ships.red-lantern.fuel", "90")
    enc.correct("ships.red-lantern.name", "Blood Lantern")
    enc.correct("ships.red-lantern.fuel", "80")
    enc.act("withdraw", ship="red-lantern", reason="fled")
    create(path, enc)
    return path


def lines_of(enc: Encounter) -> list[list[str]]:
    """Each group of the log as ``flagbridge log`` and the recap read it: its headline, then its details."""
    return [[e.headline, *e.details] for e in entries(enc)]


def test_every_line_of_an_event_names_a_unit_as_it_was_called_then(tmp_path: Path) -> None:
    enc = SaveFile.load(renamed_mid_fight(tmp_path)).encounter
    groups = lines_of(enc)
    heads = [g[0] for g in groups]
    assert heads[-5:] == ["resolve damage", BEFORE, RENAME, AFTER, WITHDRAW]
    fire = groups[heads.index(FIRE)]
    assert any("at Red Lantern" in line for line in fire[1:])  # its roll, written when it was made
    renamed_at = heads.index(RENAME)
    for group in groups[:renamed_at]:
        assert not any("Blood Lantern" in line for line in group), group
    for group in groups[renamed_at + 1:]:
        assert not any("Red Lantern" in line for line in group), group


def test_the_names_stay_through_undo_redo_and_a_second_rename(tmp_path: Path) -> None:
    path = renamed_mid_fight(tmp_path)
    enc = SaveFile.load(path).encounter
    said = lines_of(enc)
    enc.undo()
    enc.undo()
    assert lines_of(enc) == said[:-2]
    enc.undo()  # the rename itself: the fight calls the ship Red Lantern again
    assert lines_of(enc) == said[:-3]
    enc.redo()
    enc.redo()
    enc.redo()
    assert lines_of(enc) == said
    enc.correct("ships.red-lantern.name", "Crimson Lantern")
    assert lines_of(enc)[:-1] == said  # what was done before the second rename reads as it did
    assert lines_of(enc)[-1] == [
        "correction: ships.red-lantern.name (Crimson Lantern) 'Blood Lantern' -> 'Crimson Lantern'"]


def test_a_rename_undone_and_another_event_made_in_its_place(tmp_path: Path) -> None:
    """The log's record of renames follows an undo that a new event replaces (same length, another event)."""
    enc = SaveFile.load(renamed_mid_fight(tmp_path)).encounter
    said = lines_of(enc)
    for _ in range(3):
        enc.undo()
    enc.correct("ships.red-lantern.fuel", "70")
    enc.correct("ships.red-lantern.fuel", "60")
    enc.correct("ships.red-lantern.fuel", "50")
    assert lines_of(enc)[:-3] == said[:-3]
    assert FIRE in [g[0] for g in lines_of(enc)]
    assert lines_of(enc)[-1] == ["correction: ships.red-lantern.fuel 60 -> 50"]


def test_a_rename_while_the_actions_rolls_wait_and_one_given_whole(tmp_path: Path) -> None:
    """A correction made while an action's roll waits joins the action's group: the action, taken before it, keeps
    the old name; the rename's line and what follows it read the new one. A unit's table corrected whole (from a
    script, or a hand edit kept on load) with another name in it is a rename too."""
    from engine.state import plain_copy

    path = tmp_path / "fight.toml"
    enc = classic_hg_at_offensive_fire(path)
    fire = enc.act("fire", ship="swift-dolan", turrets=["T3"], target="red-lantern")
    enc.correct("ships.red-lantern.name", "Blood Lantern")
    enc.type_roll("12")
    unit = plain_copy(enc.state["ships"]["red-lantern"])
    unit["name"] = "Crimson Lantern"
    whole = enc.correct(("ships", "red-lantern"), unit)
    enc.act("withdraw", ship="red-lantern", reason="fled")
    group = lines_of(enc)[3]
    assert group[:2] == [FIRE, RENAME] and "at Red Lantern" in group[2]
    assert enc.describe(whole).startswith("correction: ships.red-lantern (Crimson Lantern) side = corsairs, "
                                          "name = Blood Lantern,")
    assert lines_of(enc)[-1][0] == "withdraw: ship Crimson Lantern · fled"
    assert enc.describe(fire) == FIRE
