"""The label and value rows of the unit panels (``tui.widgets.panels.Rows``) draw exactly what a rich table
grid of the same rows draws (dim labels unwrapped, values wrapped beside them, an over-long word cut with
an ellipsis), at every width a panel takes, for every unit of every shipped demo; only faster."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console
from rich.measure import Measurement
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from engine.saves import SaveFile
from tests.demos import shipped_demos
from tests.tui.conftest import panel_text
from tui.app import FlagbridgeApp
from tui.widgets.panels import Rows


def grid(rows: list[tuple[str, str]]) -> Table:
    table = Table.grid(padding=(0, 1))
    table.add_column(style="dim", no_wrap=True)
    table.add_column()
    for label, value in rows:
        table.add_row(Text(label), Text(value))
    return table


def drawn(console: Console, renderable) -> list[list[Segment]]:
    return [[s for s in Segment.simplify(line) if s.text] for line in console.render_lines(renderable, pad=False)]


def panels_of(demo: Path):
    enc = SaveFile.load(demo).encounter
    rs = enc.ruleset
    for kind, uid, _unit in rs.units(enc.state):
        for title, rows in rs.unit_panels(enc.state, kind, uid).items():
            if rows:
                yield f"{uid}: {title}", rows


@pytest.mark.parametrize("ruleset", sorted(shipped_demos()))
def test_rows_draw_as_a_table_grid_would(ruleset: str) -> None:
    for where, rows in panels_of(shipped_demos()[ruleset]):
        for width in (78, 45, 33, 25, 20):  # a panel is never narrower than its labels
            console = Console(width=width, color_system="truecolor")
            assert drawn(console, Rows(rows)) == drawn(console, grid(rows)), (where, width)
            assert Measurement.get(console, console.options, Rows(rows)) == \
                Measurement.get(console, console.options, grid(rows)), (where, width)


def test_a_long_word_is_cut_with_an_ellipsis_and_text_is_not_markup() -> None:
    console = Console(width=20, color_system=None)
    with console.capture() as cap:
        console.print(Rows([("Name", "[b]Red[/b] Lantern"), ("Library", "MULTI-TARGET-2, NAVIGATION")]))
    out = cap.get().splitlines()
    assert out[0].rstrip() == "Name    [b]Red[/b]" and out[1].rstrip() == "        Lantern"
    assert out[2].rstrip() == "Library MULTI-TARGE…"


async def test_a_redraw_leaves_the_panels_whose_words_did_not_change_and_draws_those_that_did(demo_app) -> None:
    """Every key redraws every panel from the engine; a panel showing the same words is not updated again
    (an update re-measures and repaints it), and one whose words changed is."""
    async with demo_app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        screen = demo_app.screen
        updated: list[str] = []
        for pid in ("ships", "status", "armor", "checklist", "sensors"):
            body = screen.query_one(f"#{pid}").body
            original = body.update

            def spy(renderable, _pid=pid, _original=original) -> None:
                updated.append(_pid)
                _original(renderable)

            body.update = spy
        titles = {pid: screen.query_one(f"#{pid}").border_title for pid in ("status", "armor")}
        screen.refresh_view()
        assert updated == []
        await pilot.press("down")  # the next ship: the Ships list and that ship's two panels change
        await pilot.pause()
        assert sorted(set(updated)) == ["armor", "ships", "status"]
        assert panel_text(demo_app, "#status") != "" and screen.query_one("#status").border_title == titles["status"]
        updated.clear()
        before = panel_text(demo_app, "#checklist")
        await pilot.press("i", "enter", "enter", "enter", "enter")  # initiative, both sides' dice rolled
        await pilot.pause()
        assert panel_text(demo_app, "#checklist") != before and "checklist" in updated


async def test_the_keys_are_worked_out_again_only_when_one_of_them_changed(demo_app) -> None:
    """Each ``refresh_bindings`` has the Footer rebuild every key it shows: moving the selection changes
    no key, rolling initiative does (the initiative action is no longer possible, a roll is pending)."""
    async with demo_app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        screen = demo_app.screen
        asked: list[int] = []
        original = screen.refresh_bindings

        def spy() -> None:
            asked.append(1)
            original()

        screen.refresh_bindings = spy
        await pilot.press("down", "up")
        await pilot.pause()
        assert asked == []
        await pilot.press("i")
        await pilot.pause()
        assert asked and screen.check_action("roll", ()) is True


async def test_after_a_game_of_keys_every_panel_shows_what_a_console_opened_afresh_shows(demo_path) -> None:
    """A panel drawn only when its words change is never left stale: after initiative, rolls, steps,
    a change of ship, an undo and a redo, each panel reads as on a console opened on the same save."""
    panels = ("#ships", "#status", "#armor", "#checklist", "#sensors")
    played = FlagbridgeApp(SaveFile.load(demo_path), save_dir=demo_path.parent)
    async with played.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        await pilot.press("i", "enter", "enter", "enter", "enter", "n", "down", "down", "u", "ctrl+r", "n")
        screen = played.screen
        marked = [line for line in panel_text(played, "#ships").splitlines() if line.startswith(">")]
        assert len(marked) == 1 and screen.enc.state["ships"][screen.selected]["name"] in marked[0]
        await pilot.press("up", "up")  # back to the first ship, which a console opened afresh selects
        await pilot.pause()
        shown = {p: panel_text(played, p) for p in panels}
        titles = {p: played.screen.query_one(p).border_title for p in panels}
    fresh = FlagbridgeApp(SaveFile.load(demo_path), save_dir=demo_path.parent)
    async with fresh.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        assert {p: panel_text(fresh, p) for p in panels} == shown
        assert {p: fresh.screen.query_one(p).border_title for p in panels} == titles
