"""A replay checks a file's log as closely as live play does, on its quick paths too.

Loading takes shortcuts for the usual event (an action without arguments, a roll
whose request is written exactly as the pending one): these tests edit one event
of a save at a time and expect the same one-line refusal the full checks give,
and a longer fight to replay to the very state, notes and checkpoints it was
played to (DESIGN.md "Saves": a hand-edited log fails in one line naming the event).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import encounter as encounter_module
from engine.encounter import Encounter
from engine.errors import BadSave
from engine.rolls import Modifier, RollRequest, RollResult, Target, checked_result
from engine.saves import SaveFile, create
from engine.state import thaw
from tests.bench.bench_engine import play
from tests.skirmish import SKIRMISH, make_setup, played_duel


def _played() -> Encounter:
    return played_duel("4 5")


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    path = tmp_path / "duel.toml"
    create(path, _played())
    return path


def _edited(path: Path, old: str, new: str) -> Path:
    text = path.read_text()
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new))
    return path


def _refusal(path: Path) -> str:
    with pytest.raises(BadSave) as info:
        SaveFile.load(path)
    message = str(info.value)
    assert "\n" not in message and message.startswith(str(path))
    return message


def test_the_unedited_save_loads(saved: Path) -> None:
    assert SaveFile.load(saved).encounter.state["ships"]["brute"]["hull"] == 26


def test_a_roll_whose_modifiers_were_taken_out_does_not_answer_the_pending_roll(saved: Path) -> None:
    _edited(saved, 'modifiers = [\n    { source = "Gun", value = 2 },\n]\n', "")
    message = _refusal(saved)
    assert "events[7]" in message and "does not answer the pending roll 'To hit: 2D +2 Gun vs 8+" in message


def test_a_roll_with_a_modifier_added_does_not_answer_the_pending_roll(saved: Path) -> None:
    _edited(saved, 'purpose = "Initiative red"\ndice = "1D"\n',
            'purpose = "Initiative red"\ndice = "1D"\nmodifiers = [{ source = "Luck", value = 1 }]\n')
    assert "events[2]" in _refusal(saved) and "does not answer the pending roll" in _refusal(saved)


def test_a_roll_total_that_does_not_add_up_is_refused(saved: Path) -> None:
    _edited(saved, "natural = 9\nfaces = [4, 5]\nsource = \"typed\"\ntotal = 11",
            "natural = 9\nfaces = [4, 5]\nsource = \"typed\"\ntotal = 12")
    assert "roll total 12 does not match the dice and modifiers (11)" in _refusal(saved)


@pytest.mark.parametrize("faces, why", [("[4, 4]", "faces [4, 4] do not add up to 9"),
                                        ("[9]", "faces [9] cannot come from 2D"),
                                        ('["4", 5]', "roll faces must be a list of whole numbers")])
def test_faces_that_cannot_make_the_natural_are_refused(saved: Path, faces: str, why: str) -> None:
    _edited(saved, "natural = 9\nfaces = [4, 5]", f"natural = 9\nfaces = {faces}")
    assert why in _refusal(saved)


def test_a_natural_the_dice_cannot_roll_is_refused(saved: Path) -> None:
    _edited(saved, "natural = 9\nfaces = [4, 5]", "natural = 13\nfaces = []")
    assert "13 cannot be rolled on 2D: expected 2 to 12" in _refusal(saved)


def test_an_unknown_roll_source_is_refused(saved: Path) -> None:
    _edited(saved, 'natural = 9\nfaces = [4, 5]\nsource = "typed"', 'natural = 9\nfaces = [4, 5]\nsource = "luck"')
    assert "roll source 'luck': expected 'roller' or 'typed'" in _refusal(saved)


def test_an_argument_given_to_an_action_that_takes_none_is_refused(saved: Path) -> None:
    _edited(saved, 'name = "next"\nargs = {}', 'name = "next"\nargs = { x = 1 }')
    assert "Next step: no parameter 'x' (known: none)" in _refusal(saved)


def test_a_side_that_is_not_in_the_fight_is_named_with_the_sides_there_are(saved: Path) -> None:
    _edited(saved, 'args = { side = "blue", target = "brute" }', 'args = { side = "green", target = "brute" }')
    message = _refusal(saved)
    assert "events[4]" in message and "Scan: side: 'green' is not one of 'blue', 'red'" in message


def test_an_action_logged_without_args_still_runs_with_none(saved: Path) -> None:
    _edited(saved, 'name = "next"\nargs = {}\n', 'name = "next"\n')
    assert SaveFile.load(saved).encounter.events[3].data == {"name": "next"}


def test_a_kept_total_is_the_total_worked_out_afresh() -> None:
    """A checked roll keeps its total; a plain result works it out: both the same, scaled dice too."""
    for dice, natural in (("2D", 9), ("3d6+1", 10), ("0.5:10sd+2", 7)):
        req = RollRequest("x", dice, (Modifier("a", 2), Modifier("b", -1)), Target(8))
        kept = checked_result(req, natural, (), "typed")
        assert kept.total == RollResult(req, natural, (), "typed").total == req.parsed.value(natural) + 1
        assert kept == RollResult(req, natural, (), "typed")  # the kept total is no field


def test_a_long_fight_replays_to_its_states_notes_and_checkpoints(tmp_path: Path) -> None:
    live = play(Encounter(make_setup(), SKIRMISH), 1500)
    # the whole log replayed (the replay cache, which keeps fewer checkpoints, has tests of its own)
    loaded = SaveFile.load(create(tmp_path / "long.toml", live).path, cached_replay=False).encounter
    assert loaded.state == live.state
    assert [e.notes for e in loaded.events] == [e.notes for e in live.events]
    # live play keeps a checkpoint every 100 events; a replay only every 1,000 but over its last 1,000 events
    assert sorted(live._checkpoints) == list(range(0, 1501, 100))
    assert sorted(loaded._checkpoints) == [0, 600, 700, 800, 900, 1000, 1100, 1200, 1300, 1400, 1500]
    assert all(thaw(loaded._checkpoints[n]) == thaw(live._checkpoints[n]) for n in loaded._checkpoints)
    kinds = {e.kind for e in loaded.events}
    assert kinds == {"action", "roll", "correction"}


def test_undo_into_the_sparse_part_of_a_replay_gives_the_states_live_play_had(tmp_path: Path, monkeypatch) -> None:
    """Each undo from the end of a replayed log back past its dense tail leaves the state live play had at that
    point; the checkpoints a deep undo passes are kept, so the next undo replays no more than 100 events."""
    monkeypatch.setattr(encounter_module, "DENSE_TAIL", 300)
    live = play(Encounter(make_setup(), SKIRMISH), 1200)
    states = {}
    probe = Encounter(live.setup, SKIRMISH, list(live.events))
    while probe.events:  # the state after every group, as a fresh whole replay of that much of the log makes it
        states[len(probe.events)] = repr(probe.state)
        probe.undo()
    loaded = SaveFile.load(create(tmp_path / "long.toml", live).path, cached_replay=False).encounter
    assert sorted(loaded._checkpoints) == [0, 1000, 1100, 1200]
    replayed = []
    real_apply = loaded._apply
    monkeypatch.setattr(loaded, "_apply", lambda *a, **k: (replayed.append(1), real_apply(*a, **k)))
    while len(loaded.events) > 500:
        replayed.clear()
        loaded.undo()
        assert repr(loaded.state) == states[len(loaded.events)], len(loaded.events)
        if len(loaded.events) < 900:  # past the first undo below 1,000, each replays from a checkpoint within 100
            assert len(replayed) <= 100
    assert sorted(loaded._checkpoints) == list(range(0, len(loaded.events) + 1, 100))  # dense again
