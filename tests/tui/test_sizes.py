"""No terminal size breaks the console, with any form open (issue 9: a form at 6 columns raised
``ValueError`` in rich's ``chop_cells``)."""

from __future__ import annotations

import pytest

from tui.app import FlagbridgeApp

SIZES = ((6, 8), (20, 8), (3, 3), (1, 1), (80, 24), (160, 48))


@pytest.mark.parametrize("opened", ["console", "fire form", "correction", "help"])
async def test_every_size_down_to_one_cell(demo_app: FlagbridgeApp, opened: str) -> None:
    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("i", "4", "enter", "2", "enter", "n", "n")
        keys = {"console": (), "fire form": ("f", "enter"), "correction": ("c",), "help": ("question_mark",)}
        await pilot.press(*keys[opened])
        for width, height in SIZES:
            await pilot.resize_terminal(width, height)
            await pilot.pause()
            await pilot.pause()
        assert app.return_code is None


async def test_every_key_the_step_allows_is_on_screen_at_80x24(demo_app: FlagbridgeApp) -> None:
    """Issue 9: at 80x24 the Footer cut off c, ctrl+s, ? and q; the key bar wraps instead."""
    from textual.widgets import Footer

    from tui.widgets.keybar import KeyBar

    app = demo_app
    async with app.run_test(size=(80, 24)) as pilot:
        for keys in ((), ("i", "4", "enter", "2", "enter", "n"), ("n",)):   # steps 1, 2 and 3
            await pilot.press(*keys)
            await pilot.pause()
            bar = app.screen.query_one(KeyBar)
            assert bar.display and not app.screen.query_one(Footer).display
            shown = str(bar.render())
            for key, label in bar.pairs():
                assert f"{key} {label}" in shown
            for words in ("c Correct", "^s Save", "? Help", "q Quit"):
                assert words in shown
            assert all(len(line) <= 80 for line in shown.splitlines())
        await pilot.resize_terminal(160, 48)
        await pilot.pause()
        assert app.screen.query_one(Footer).display and not app.screen.query_one(KeyBar).display


async def test_the_keys_always_in_sight_stay_in_sight_when_a_step_has_too_many(tmp_path) -> None:
    """README: "c, ctrl+s, ? and q are always in sight". The percentile action step at 80 columns needs five lines
    of keys and the bar held four: the fifth, with them, was cut. The bar now holds six; on a terminal so narrow
    that six are too few, those four come first and the step's own keys past the sixth line are left to the palette."""
    from pathlib import Path

    from tests.tui.conftest import app_on
    from tui.widgets.keybar import MAX_LINES, KeyBar

    demo = Path(__file__).resolve().parents[2] / "saves" / "demo-percentile.toml"
    app = app_on(demo, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s", "0", "0", "enter", "1", "enter")  # the Aracnians win surprise: their action step
        await pilot.pause()
        bar = app.screen.query_one(KeyBar)
        shown = str(bar.render())
        assert bar.display and len(shown.splitlines()) <= MAX_LINES
        for words in ("c Correct", "^s Save", "? Help", "q Quit", "a Attack", "n End this side's turn", "u Undo"):
            assert words in shown, words
        assert all(len(line) <= 80 for line in shown.splitlines())
        await pilot.resize_terminal(30, 24)
        await pilot.pause()
        shown = str(bar.render())
        assert len(shown.splitlines()) == MAX_LINES
        first, second = shown.splitlines()[:2]
        assert first == "c Correct  ^s Save  ? Help" and second.startswith("q Quit")


async def test_a_form_refusal_stays_on_screen_at_80x24(demo_app: FlagbridgeApp) -> None:
    """Walkthrough at 80x24: a long program list pushed the form's refusal below the screen."""
    app = demo_app
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("i", "4", "enter", "2", "enter", *["n"] * 8)
        assert app.save.encounter.state["step"] == 9
        await pilot.press("p", "enter", "down", "down", "space", "down", "down", "space", "down", "space", "enter")
        await pilot.pause()
        message = app.screen.query_one("#form-message")
        assert "need 16 spaces" in str(message.render())
        box = app.screen.query_one("#form-box")
        assert message.region.height and message.region.bottom <= box.region.bottom - 1   # inside the border


def test_the_console_is_made_with_the_width_class_textual_would_give_it_at_its_first_resize() -> None:
    """Made with its breakpoint class, the screen is not restyled whole when Textual adds the class."""
    from types import SimpleNamespace

    from textual.geometry import Size

    from tui.app import FlagbridgeApp
    from tui.screens.console import width_class

    def at(width: int) -> str:
        return width_class(SimpleNamespace(size=Size(width, 24), HORIZONTAL_BREAKPOINTS=FlagbridgeApp.HORIZONTAL_BREAKPOINTS))

    assert (at(80), at(119), at(120), at(160)) == ("-narrow", "-narrow", "-wide", "-wide")
    assert width_class(SimpleNamespace(size=Size(80, 24), HORIZONTAL_BREAKPOINTS=None)) == ""


async def test_the_header_puts_the_step_first_when_narrow(demo_app: FlagbridgeApp) -> None:
    """Found driving the console at 80 columns: the header cut off the step ("Turn 2 · s..."). Under 120 columns
    where the fight stands comes first; wide, the encounter's name and ruleset lead as before."""
    app = demo_app
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.sub_title == "Turn 1 · step 1/9 Initiative · range: long · Demo: ambush at Regina"
        await pilot.resize_terminal(160, 48)
        await pilot.pause()
        assert app.sub_title == "Demo: ambush at Regina · classic-hg · Turn 1 · step 1/9 Initiative · range: long"
