"""Gothic saves written before a rules fix changed what a correction does still load, with today's result.

A save's [state] is compared with the log replayed by today's rules (``engine.saves``); a value that differs is
taken for a hand edit. Two corrections now play out more than they did: hits corrected to 0 destroy the
vessel, and a critical's corrected roll applies the corrected row. A file the older rules wrote holds the older
result, and must load cleanly all the same, while an edit by hand is still found. A save from before salvos could
meet a stand other than their target's (``tests/fixtures/gothic/``) replays as it did.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import BadSave
from engine.ruleset import Ruleset
from engine.saves import SaveFile, create
from rulesets.gothic import Gothic

from .fleet import answer, hit_and_run_waiting, new_fight, to_phase, unit


def written_before_the_fixes(path: Path, monkeypatch: pytest.MonkeyPatch, script) -> None:
    """A save as Flagbridge wrote it when a correction did nothing more than set its value."""
    with monkeypatch.context() as m:
        m.setattr(Gothic, "after_correction", Ruleset.after_correction)
        enc = new_fight()
        script(enc)
        create(path, enc)


def shade_rammed(enc) -> None:
    to_phase(enc, 2)
    enc.act("launch", vessel="hammer", kinds=["boarding"], strength=2, target="shade", distance=30)
    enc.correct("ships.shade.hits", 0, note="rammed")


def test_an_old_save_with_hits_corrected_to_0_loads_with_the_vessel_destroyed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "old.toml"
    written_before_the_fixes(path, monkeypatch, shade_rammed)
    text = path.read_text()
    assert "destroyed = false" in text
    enc = SaveFile.load(path).encounter
    assert unit(enc, "shade")["destroyed"] and enc.state["ordnance"] == {}  # today's result: the salvo aimed at it left
    assert path.read_text() == text  # loading never writes


def test_an_old_save_with_a_corrected_critical_roll_loads_with_the_corrected_row(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def corrected(enc) -> None:
        hit_and_run_waiting(enc)
        answer(enc, "Hit-and-run on Iron Vow", "6")
        answer(enc, "Critical hit on Iron Vow", "6 6")  # 12: 2 extra hits (tables/criticals.toml)
        enc.correct("ships.vow.criticals[0].roll", 7)

    path = tmp_path / "old.toml"
    written_before_the_fixes(path, monkeypatch, corrected)
    vow = unit(SaveFile.load(path).encounter, "vow")
    assert (vow["hits"], vow["criticals"][0]["name"]) == (6, "Fire on the gun decks")


def test_a_hand_edit_of_an_old_save_is_still_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "old.toml"
    written_before_the_fixes(path, monkeypatch, shade_rammed)
    text = path.read_text()
    head, _, rest = text.partition("[state.ships.vow]\n")
    rest = rest.replace("hits = 8\n", "hits = 5\n", 1)
    path.write_text(head + "[state.ships.vow]\n" + rest)
    with pytest.raises(BadSave, match=r"state\.ships\.vow\.hits is 5 in the file but the log gives 8; open with"):
        SaveFile.load(path)
    enc = SaveFile.load(path, keep_edits=True).encounter
    assert unit(enc, "vow")["hits"] == 5 and unit(enc, "shade")["destroyed"]
    assert [ev.data["path"] for ev in enc.events if ev.data.get("note") == "hand edit kept on load"] == \
        [["ships", "vow", "hits"]]


def test_a_destroyed_vessel_made_whole_by_hand_in_a_new_save_is_still_found(tmp_path: Path) -> None:
    """Today's file with ``destroyed = false`` written by hand is an edit, not an older file: the older rules
    would also have left its shields up."""
    enc = new_fight()
    enc.correct("ships.shade.hits", 0, note="rammed")
    path = tmp_path / "new.toml"
    create(path, enc)
    text = path.read_text()
    head, _, rest = text.partition("[state.ships.shade]\n")
    path.write_text(head + "[state.ships.shade]\n" + rest.replace("destroyed = true\n", "destroyed = false\n", 1))
    with pytest.raises(BadSave, match=r"state\.ships\.shade\.destroyed is false in the file but the log gives true"):
        SaveFile.load(path)


FIXTURE = Path(__file__).parents[2] / "fixtures" / "gothic" / "salvos-before-stands.toml"


def test_a_save_written_before_salvos_could_meet_other_stands_replays_as_it_did(tmp_path: Path) -> None:
    """A save written at 046c14c, before a salvo could meet another stand (``salvos-before-stands.toml``: a
    boarding salvo's whole attack on its target, and an ordinary salvo's attack with its to-hit die waiting)
    loads with the state it holds, says the same of each move, and waits for the same roll."""
    copy = tmp_path / FIXTURE.name
    copy.write_bytes(FIXTURE.read_bytes())
    enc = SaveFile.load(copy).encounter
    assert copy.read_bytes() == FIXTURE.read_bytes()
    moves = [ev.notes for ev in enc.events if ev.kind == "action" and ev.data.get("name") == "move_salvo"]
    assert moves == [
        ["Torpedoes 2 from Divine Right closes 30 cm on Shade: 20 cm away now (was 50 cm)"],
        ["Boarding torpedoes 3 from Hammer turns 30° and closes 30 cm on Iron Vow and reaches base contact",
         "Boarding torpedoes 3 from Hammer in base contact with Iron Vow: 2 turrets fire at 3 torpedoes"],
        ["Torpedoes 2 from Divine Right closes 20 cm on Shade and reaches base contact",
         "Torpedoes 2 from Divine Right in base contact with Shade: 1 turret fires at 2 torpedoes"],
    ]
    assert unit(enc, "vow")["criticals"][0]["name"] == "Fire on the gun decks"
    assert enc.pending is not None and enc.pending.purpose == "Torpedo to hit Shade (armour 5, 2 to roll)"
    answer(enc, "Torpedo to hit Shade", "5", target="5+")
    assert unit(enc, "shade")["shields_up"] == 0


def test_an_old_save_with_a_repair_die_waiting_on_a_critical_corrected_to_a_permanent_row_loads(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before a waiting repair die followed its corrected critical, the die stayed asked and the ship's try stayed
    spent; a file of that version holds them so, and loads as it was written, with today's result."""
    def repair_waiting(enc) -> None:
        hit_and_run_waiting(enc)
        answer(enc, "Hit-and-run on Iron Vow", "6")
        answer(enc, "Critical hit on Iron Vow", "3 4")  # 7: a fire
        enc.act("repair", vessel="vow", critical="0")
        enc.correct("ships.vow.criticals[0].roll", 11)  # a hull breach: no repair

    path = tmp_path / "old.toml"
    with monkeypatch.context() as m:
        m.setattr(Gothic, "follows_repairs", False)
        enc = new_fight()
        repair_waiting(enc)
        assert enc.pending is not None and unit(enc, "vow")["repair_tried"]
        create(path, enc)
    text = path.read_text()
    enc = SaveFile.load(path).encounter
    assert enc.pending is None and not unit(enc, "vow")["repair_tried"]
    assert path.read_text() == text
