"""A fleet of 100 ships in the console (issue 13): the Ships list scrolls to the selected ship and
filters by name (``/`` once Tab has chosen the Ships list; the Log's search otherwise)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.encounter import Encounter
from engine.saves import SaveFile, create
from tests.bench.bench_fleet import fleet_setup
from tests.tui.test_bursts import burst, idle
from tui.app import FlagbridgeApp


@pytest.fixture
def fleet_app(tmp_path: Path) -> FlagbridgeApp:
    path = tmp_path / "fleet.toml"
    create(path, Encounter(fleet_setup(50)))
    return FlagbridgeApp(SaveFile.load(path), save_dir=tmp_path)


def listed(app: FlagbridgeApp) -> list[str]:
    """The ship names the Ships list shows, in order."""
    lines = app.screen.query_one("#ships").render_text().splitlines()
    return [line.split()[1] for line in lines if line[:1] in (" ", ">") and len(line.split()) > 1]


def tab_to_ships(app: FlagbridgeApp) -> None:
    while app.screen.scrolled != "ships":
        app.screen.action_next_panel()


async def test_the_ships_list_scrolls_to_the_selected_ship(fleet_app: FlagbridgeApp) -> None:
    app = fleet_app
    async with app.run_test(size=(160, 48)) as pilot:
        ships = app.screen.query_one("#ships")
        assert len(listed(app)) == 100 and ships.max_scroll_y > 0 and ships.scroll_y == 0
        burst(app, *["down"] * 70)
        await idle(pilot)
        assert app.screen.selected == "red20"
        line = 2 + 50 + 1 + 20  # the blue side's title and ships, the red side's title, red-0 to red-19
        assert ships.scroll_y <= line < ships.scroll_y + ships.scrollable_content_region.height


async def test_slash_filters_the_ships_by_name_once_tab_chose_the_ships_list(fleet_app: FlagbridgeApp) -> None:
    app = fleet_app
    async with app.run_test(size=(160, 48)) as pilot:
        tab_to_ships(app)
        burst(app, "slash", *"red-4")
        await idle(pilot)
        names = listed(app)
        assert names == ["red-4"] + [f"red-4{i}" for i in range(10)]
        ships = app.screen.query_one("#ships")
        assert str(ships.border_subtitle) == "filter: red-4 (11 of 100)"
        assert app.screen.selected == "red4"
        assert "Filter the ships by name: red-4_" in str(app.screen.query_one("#prompt").render())
        burst(app, "enter", "down", "down")
        await idle(pilot)
        assert app.screen.selected == "red41" and listed(app) == names  # kept; up and down stay in it
        assert app.screen.query_one("#log").search == ""  # the log's search is untouched
        burst(app, "slash", "escape")
        await idle(pilot)
        assert len(listed(app)) == 100 and str(ships.border_subtitle) == ""
        assert app.screen.selected == "red41"


async def test_a_filter_nothing_matches_lists_no_ship_and_keeps_the_selection(fleet_app: FlagbridgeApp) -> None:
    app = fleet_app
    async with app.run_test(size=(160, 48)) as pilot:
        tab_to_ships(app)
        burst(app, "slash", *"zzz", "enter")
        await idle(pilot)
        assert listed(app) == [] and "(no ship matches)" in app.screen.query_one("#ships").render_text()
        assert app.screen.selected == "blue0"
        burst(app, "down")
        await idle(pilot)
        assert app.screen.selected == "blue0"


async def test_slash_still_searches_the_log_when_the_log_is_chosen(fleet_app: FlagbridgeApp) -> None:
    app = fleet_app
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "slash", *"blue")
        await idle(pilot)
        assert app.screen.query_one("#log").search == "blue" and len(listed(app)) == 100
