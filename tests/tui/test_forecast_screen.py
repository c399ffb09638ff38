"""The forecast screen (issue 13): opened from the palette, run in a worker with a progress bar, drawn
as chances, a histogram of fight lengths and a bar per ship; the save is never written.

Small fight counts and fixed seeds keep these quick and the same on every run.
"""

from __future__ import annotations

from pathlib import Path

from engine.saves import SaveFile
from tui.app import FlagbridgeApp
from tui.screens.forecast import ForecastScreen, bar

WIDE = (160, 48)


async def _finished(pilot, screen: ForecastScreen) -> None:
    for _ in range(600):  # the worker's thread posts the result back to the screen
        if screen.result is not None or screen.problem:
            break
        await pilot.pause(0.05)
    await pilot.pause(0.1)


def test_bar_is_eighths_of_a_block() -> None:
    assert bar(0.0) == ""
    assert bar(1.0, 4) == "████"
    assert bar(0.5, 4) == "██"
    assert bar(1 / 8, 4) == "▌"  # 4 of the 32 eighths: half a block
    assert bar(1 / 16, 4) == "▎"  # 2 of them


class TestForecastScreen:
    """The finished forecast of the classic-hg demo, 40 fights, seed 5."""

    def test_finished_forecast(self, snap_compare, demo_path: Path) -> None:
        save = SaveFile.load(demo_path)

        async def run_before(pilot) -> None:
            screen = ForecastScreen(save.encounter, fights=40, seed=5, workers=1)
            await pilot.app.push_screen(screen)
            await _finished(pilot, screen)

        assert snap_compare(FlagbridgeApp(save, save_dir=demo_path.parent), terminal_size=WIDE,
                            run_before=run_before)


async def test_palette_opens_the_forecast_and_the_save_is_untouched(demo_app: FlagbridgeApp, demo_path: Path,
                                                                    monkeypatch) -> None:
    """From the palette, as a game master opens it: worker processes on every core, progress, the result."""
    monkeypatch.setattr("tui.screens.forecast.FIGHTS", 12)
    before = demo_path.read_bytes()
    async with demo_app.run_test(size=WIDE) as pilot:
        await pilot.press("ctrl+p")
        await pilot.press(*"forecast")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause(0.1)
        screen = demo_app.screen
        assert isinstance(screen, ForecastScreen)
        await _finished(pilot, screen)
        assert screen.result is not None and screen.result.count == screen.fights
        assert "Chance of surviving" in str(screen.query_one("#forecast-result").render())
        await pilot.press("escape")
        assert not isinstance(demo_app.screen, ForecastScreen)
    assert demo_path.read_bytes() == before


async def test_a_side_s_doctrine_changes_with_its_digit(demo_app: FlagbridgeApp) -> None:
    async with demo_app.run_test(size=WIDE) as pilot:
        screen = ForecastScreen(demo_app.save.encounter, fights=4, seed=1, workers=1)
        await demo_app.push_screen(screen)
        await _finished(pilot, screen)
        assert screen.result.doctrines == {"imperial": "standard", "corsairs": "standard"}
        await pilot.press("2")  # corsairs: the next doctrine file, by name
        await _finished(pilot, screen)
        assert screen.result.doctrines == {"imperial": "standard", "corsairs": "aggressive"}


async def test_the_bars_shrink_when_the_terminal_does(demo_app: FlagbridgeApp) -> None:
    """A game master shrinks the window to 80x24 with the result on screen: the bars are drawn again to fit, so
    no side's doctrine is pushed onto a line of its own."""
    async with demo_app.run_test(size=WIDE) as pilot:
        screen = ForecastScreen(demo_app.save.encounter, fights=4, seed=1, workers=1)
        await demo_app.push_screen(screen)
        await _finished(pilot, screen)
        wide = str(screen.query_one("#forecast-result").render())
        await pilot.resize_terminal(80, 24)
        await pilot.pause(0.2)
        narrow = str(screen.query_one("#forecast-result").render())
        assert max(map(len, narrow.splitlines())) < max(map(len, wide.splitlines()))
        line = next(x for x in narrow.splitlines() if x.strip().startswith("Imperial Navy"))
        assert line.rstrip().endswith("(standard)")


async def test_the_forecast_footer_names_its_own_keys(demo_app: FlagbridgeApp) -> None:
    """The bottom line under the forecast was the console's (u Undo, q Quit) while q closed the forecast: its
    own Footer names its keys, and q there closes it, quitting nothing."""
    from tests.tui.conftest import screen_text

    async with demo_app.run_test(size=WIDE) as pilot:
        screen = ForecastScreen(demo_app.save.encounter, fights=4, seed=1, workers=1)
        await demo_app.push_screen(screen)
        await _finished(pilot, screen)
        bottom = screen_text(demo_app).splitlines()[-1]
        assert "Quit" not in bottom and "Undo" not in bottom and "Next" not in bottom, bottom
        assert "esc/q Close" in bottom and "r Run again" in bottom, bottom
        await pilot.press("q")
        await pilot.pause(0.1)
        assert demo_app.is_running and not isinstance(demo_app.screen, ForecastScreen)
        assert "q Quit" in screen_text(demo_app).splitlines()[-1]


async def test_a_fight_already_over_is_said_at_once_with_no_simulation(tmp_path: Path, monkeypatch) -> None:
    """The demo played to its end (both corsairs withdrawn): the screen says at once, in the engine's words,
    that the fight is over and who won; no worker runs and no fight is played."""
    from tests.tui.conftest import DEMO, app_on

    ran: list = []
    monkeypatch.setattr(ForecastScreen, "run_forecast", lambda self, *args: ran.append(args))
    monkeypatch.setattr("engine.forecast.play_fights", lambda *args, **kwargs: ran.append(args))

    def won(enc) -> None:
        enc.act("withdraw", ship="red-lantern", reason="disabled")
        enc.act("withdraw", ship="mary-oakes", reason="fled")

    app = app_on(DEMO, tmp_path, won)
    async with app.run_test(size=WIDE) as pilot:
        screen = ForecastScreen(app.save.encounter, fights=40, seed=5)
        await app.push_screen(screen)
        await pilot.pause()
        assert screen.result is not None and screen.result.ended is not None
        shown = str(screen.query_one("#forecast-result").render())
        assert "The fight is already over: Imperial Navy won" in shown and "Simulating" not in shown
        assert not screen.query_one("#forecast-progress").display
        await pilot.press("r")  # run again: the same answer, still with nothing simulated
        await pilot.pause()
        assert "already over" in str(screen.query_one("#forecast-result").render())
    assert ran == []
