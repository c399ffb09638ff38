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
from engine.inuse import lock_path
from engine.saves import SaveFile, create
from tests.skirmish import played_duel
from tui.cli import main


@pytest.fixture
def duel(tmp_path: Path) -> Path:
    path = tmp_path / "duel.toml"
    create(path, played_duel("4 5"))
    return path


ROOT = Path(__file__).resolve().parents[1]
HOLDER = ("import sys; from pathlib import Path; from engine.ruleset import register; from tests.skirmish import SKIRMISH; "
          "register(SKIRMISH); from engine.saves import SaveFile; "
          "s = SaveFile.load(Path(sys.argv[1]), hold=True); print('held', flush=True); sys.stdin.read(); s.release()")


class OtherConsole:
    """Another process holding the save as a console does, until ``quit``."""

    def __init__(self, path: Path) -> None:
        import subprocess
        import sys

        self.proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], cwd=ROOT, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout.readline().strip() == "held"

    def quit(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=30)

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(timeout=30)


def test_a_second_console_on_a_held_save_is_refused_and_the_file_is_left_as_it_was(duel: Path) -> None:
    first = OtherConsole(duel)
    before = duel.read_bytes()
    with pytest.raises(SaveInUse) as refused:
        SaveFile.load(duel, hold=True)
    said = str(refused.value)
    assert said.startswith(f"{duel}: ") and "\n" not in said and "another Flagbridge console" in said
    assert f"(process {first.proc.pid})" in said
    assert duel.read_bytes() == before
    first.quit()
    SaveFile.load(duel, hold=True).release()  # free again once the first is done with it


def test_a_console_killed_leaves_its_save_free(duel: Path) -> None:
    OtherConsole(duel).kill()
    SaveFile.load(duel, hold=True).release()


def test_one_process_may_load_a_save_for_play_twice(duel: Path) -> None:
    """The lock is between consoles: a test's second app on the same save, or the start screen opening it again,
    shares this process's lock, and the last to let go frees it for another process."""
    first = SaveFile.load(duel, hold=True)
    second = SaveFile.load(duel, hold=True)
    first.release()
    with pytest.raises(SaveInUse):
        import subprocess
        import sys

        done = subprocess.run([sys.executable, "-c", HOLDER, str(duel)], cwd=ROOT, input="", capture_output=True,
                              text=True, timeout=60)
        if "another Flagbridge console" in done.stderr:
            raise SaveInUse(done.stderr)
    second.release()
    assert not lock_path(duel).exists()
    other = OtherConsole(duel)
    other.quit()


def test_readers_are_not_held_back(duel: Path, capsys) -> None:
    held = OtherConsole(duel)
    try:
        assert main(["check", str(duel)]) == 0
        assert main(["log", str(duel)]) == 0
        assert SaveFile.load(duel).encounter.events
    finally:
        held.quit()


@pytest.mark.parametrize("command", ["keep-edits", "resume"])
def test_commands_that_write_refuse_a_save_a_console_holds(duel: Path, command: str, capsys) -> None:
    held = OtherConsole(duel)
    before = duel.read_bytes()
    try:
        assert main([command, str(duel)]) == 2
    finally:
        held.quit()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(duel) in err and "another Flagbridge console" in err
    assert duel.read_bytes() == before


def test_flagbridge_open_of_a_held_save_shows_why_and_opens_no_console(duel: Path, console_opened: dict) -> None:
    import tui.launch as launch

    held = OtherConsole(duel)
    try:
        assert launch.run("open", path=duel) == 2
    finally:
        held.quit()
    assert "another Flagbridge console" in console_opened["load_error"]


def test_a_console_s_save_is_held_until_it_is_released(duel: Path) -> None:
    import tui.launch as launch

    import subprocess
    import sys

    save = launch.load_showing_progress(duel)
    other = subprocess.run([sys.executable, "-c", HOLDER, str(duel)], cwd=ROOT, input="", capture_output=True,
                           text=True, timeout=60)
    assert other.returncode != 0 and "another Flagbridge console" in other.stderr
    save.release()
    assert not lock_path(duel).exists() and not list(duel.parent.glob(".*.lock"))  # nothing left


async def test_a_console_app_lets_its_save_go_when_it_closes(duel: Path) -> None:
    """The app releases its save as it closes (a Pilot test's app too), leaving no lock file behind."""
    from engine.ruleset import register
    from tests.skirmish import SKIRMISH
    from tui.app import FlagbridgeApp

    register(SKIRMISH)
    app = FlagbridgeApp(SaveFile.load(duel, hold=True), save_dir=duel.parent)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert lock_path(duel).exists() and not list(duel.parent.glob(".*lock*"))  # never beside the save
    assert not lock_path(duel).exists()
    OtherConsole(duel).quit()
