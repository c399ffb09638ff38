"""One console at a time on a save.

Found by a game master's drive: ``flagbridge open`` twice on one save (a second terminal, a forgotten window)
opened two consoles that both autosaved; a roll made in the first was gone from the file as soon as the second
recorded anything, and the first's next event took the second's away again. The second is now refused before
it loads anything, naming the file, and so are ``keep-edits`` and ``resume`` while a console holds it; the
readers (check, log, forecast, watch) are not held back.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import SaveInUse
from engine.saves import SaveFile, create
from tests.skirmish import played_duel
from tui.cli import main


@pytest.fixture
def duel(tmp_path: Path) -> Path:
    path = tmp_path / "duel.toml"
    create(path, played_duel("4 5"))
    return path


def test_a_second_console_on_a_held_save_is_refused_and_the_file_is_left_as_it_was(duel: Path) -> None:
    first = SaveFile.load(duel, hold=True)
    before = duel.read_bytes()
    with pytest.raises(SaveInUse) as refused:
        SaveFile.load(duel, hold=True)
    said = str(refused.value)
    assert said.startswith(f"{duel}: ") and "\n" not in said and "another Flagbridge console" in said
    assert duel.read_bytes() == before
    first.release()
    SaveFile.load(duel, hold=True).release()  # free again once the first is done with it


def test_readers_are_not_held_back(duel: Path, capsys) -> None:
    held = SaveFile.load(duel, hold=True)
    try:
        assert main(["check", str(duel)]) == 0
        assert main(["log", str(duel)]) == 0
        assert SaveFile.load(duel).encounter.events
    finally:
        held.release()


@pytest.mark.parametrize("command", ["keep-edits", "resume"])
def test_commands_that_write_refuse_a_save_a_console_holds(duel: Path, command: str, capsys) -> None:
    held = SaveFile.load(duel, hold=True)
    before = duel.read_bytes()
    try:
        assert main([command, str(duel)]) == 2
    finally:
        held.release()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(duel) in err and "another Flagbridge console" in err
    assert duel.read_bytes() == before


def test_flagbridge_open_of_a_held_save_shows_why_and_opens_no_console(duel: Path, monkeypatch) -> None:
    import tui.launch as launch

    seen = {}

    class FakeApp:
        save = None
        return_code = 0

        def __init__(self, *a, **k):
            seen.update(k)

        def run(self):
            return None

    monkeypatch.setattr("tui.app.FlagbridgeApp", FakeApp)
    held = SaveFile.load(duel, hold=True)
    try:
        assert launch.run("open", path=duel) == 2
    finally:
        held.release()
    assert "another Flagbridge console" in seen["load_error"]


def test_a_console_s_save_is_held_until_it_is_released(duel: Path) -> None:
    import tui.launch as launch

    save = launch.load_showing_progress(duel)
    with pytest.raises(SaveInUse):
        SaveFile.load(duel, hold=True)
    save.release()
    assert not list(duel.parent.glob(".*.lock"))  # nothing left beside the save
