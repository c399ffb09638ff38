"""A long save opened from the start screen (DESIGN.md "The console": loading a long log shows progress):
the load runs on a thread behind a progress bar, keys typed meanwhile reach the console in order once it
opens, and a save that does not load ends on the load-error screen as it would have at once."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

from engine import saves
from engine.saves import SaveFile
from tests.tui.test_bursts import burst, idle
from tui import launch
from tui.app import FlagbridgeApp

DEMO = Path(__file__).resolve().parents[2] / "saves" / "demo-classic-hg.toml"


async def until(pilot, test, seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.05)):
        if test():
            return
        await pilot.pause(0.05)
    raise AssertionError("the screen never got there")


async def test_a_long_save_opens_behind_a_progress_bar_and_keys_wait_for_the_console(tmp_path: Path,
                                                                                      monkeypatch) -> None:
    path = tmp_path / "fight.toml"
    shutil.copyfile(DEMO, path)
    monkeypatch.setattr(launch, "PROGRESS_FROM_BYTES", 0)  # every save counts as long
    gate = asyncio.Event()
    real = SaveFile.load.__func__
    loop = asyncio.get_running_loop()

    def slow(cls, *args, **kwargs):  # the load waits on its thread until the test has typed its keys
        asyncio.run_coroutine_threadsafe(gate.wait(), loop).result(10)
        return real(cls, *args, **kwargs)

    monkeypatch.setattr(SaveFile, "load", classmethod(slow))
    app = FlagbridgeApp(save_dir=tmp_path, start="start")
    async with app.run_test(size=(160, 48)) as pilot:
        await idle(pilot)
        app.open_path(path)
        await idle(pilot)
        assert app.screen.__class__.__name__ == "OpeningScreen"
        assert "Reading" in str(app.screen.query_one("#opening-what").render())
        burst(app, "i", "4", "enter")  # typed while the save is still loading: for the console, in order
        await idle(pilot)
        assert app.screen.__class__.__name__ == "OpeningScreen"
        gate.set()
        await until(pilot, lambda: app.screen.__class__.__name__.startswith("ConsoleScreen")
                    and len(app.save.encounter.events) == 2)
        enc = app.save.encounter
        assert [e.kind for e in enc.events] == ["action", "roll"] and enc.events[1].data["natural"] == 4
        assert len(app.screen_stack) == 2  # the console took the start screen's place, as a short save's does


async def test_a_long_save_that_does_not_load_ends_on_the_load_error_screen(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "broken.toml"
    text = DEMO.read_text(encoding="utf-8")
    assert "\nformat = 1\n" in text
    path.write_text(text.replace("\nformat = 1\n", "\nformat = 99\n", 1), encoding="utf-8")
    before = path.read_bytes()
    monkeypatch.setattr(launch, "PROGRESS_FROM_BYTES", 0)
    app = FlagbridgeApp(save_dir=tmp_path, start="start")
    async with app.run_test(size=(160, 48)) as pilot:
        await idle(pilot)
        app.open_path(path)
        await until(pilot, lambda: app.screen.__class__.__name__ == "LoadErrorScreen")
        assert "unknown format version 99" in str(app.screen.query_one("#error-reason").render())
        burst(app, "escape")
        await idle(pilot)
        assert app.screen.__class__.__name__ == "StartScreen"
    assert path.read_bytes() == before


def test_a_short_save_still_opens_at_once(tmp_path: Path) -> None:
    assert DEMO.stat().st_size < launch.PROGRESS_FROM_BYTES <= saves.BACKGROUND_BYTES


async def test_a_save_whose_log_no_longer_replays_is_told_how_to_resume(tmp_path: Path) -> None:
    """The load-error screen of a stale log names ``flagbridge resume``; other faults do not get the hint."""
    from tests.engine.test_resume import LOGGED_GUN
    from tests.skirmish import played_duel

    path = tmp_path / "duel.toml"
    saves.create(path, played_duel("4 5"))
    path.write_text(path.read_text().replace(LOGGED_GUN, 'modifiers = [\n    { source = "Gun", value = 3 },\n]\n'))
    app = FlagbridgeApp(save_dir=tmp_path, start="start")
    async with app.run_test(size=(160, 48)) as pilot:
        await idle(pilot)
        app.open_path(path)
        await until(pilot, lambda: app.screen.__class__.__name__ == "LoadErrorScreen"
                    and bool(app.screen.query("#error-help")))
        hint = str(app.screen.query_one("#error-help").render())
        assert f"'flagbridge resume {path}' carries the fight on from its saved state" in hint.replace("\n", " ")


async def test_a_resumed_fight_says_where_its_earlier_log_is_and_undo_keeps_the_line(tmp_path: Path) -> None:
    """After ``flagbridge resume`` the log starts empty (undo stops there); its first line says where the log
    before that point is kept, and an action and its undo leave that line in place."""
    from engine.resume import resume
    from tests.engine.test_resume import LOGGED_GUN
    from tests.skirmish import played_duel
    from tui.screens.console import ConsoleScreen

    path = tmp_path / "duel.toml"
    saves.create(path, played_duel("4 5"))
    path.write_text(path.read_text().replace(LOGGED_GUN, 'modifiers = [\n    { source = "Gun", value = 3 },\n]\n'))
    resume(path)
    line = "Resumed here from a saved state: the log before this point is in duel.before-resume.toml"
    app = FlagbridgeApp(save_dir=tmp_path, start="start")
    async with app.run_test(size=(160, 48)) as pilot:
        await idle(pilot)
        app.open_path(path)
        await until(pilot, lambda: isinstance(app.screen, ConsoleScreen))
        await idle(pilot)
        log = app.screen.query_one("#log")
        assert log.render_text().strip() == line
        app.screen.action_act("next")
        await idle(pilot)
        shown = log.render_text().splitlines()
        assert shown[0].strip() == line and len(shown) > 1
        await pilot.press("u")
        await idle(pilot)
        assert log.render_text().strip() == line
