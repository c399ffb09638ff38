"""The Log panel kept incrementally (issue 13): what it shows is always its lines joined, whatever
mix of new events, undos and dropped old lines came before; and in the console, an undo at the end
of a long log takes off exactly the undone events' lines."""

from __future__ import annotations

import random
from pathlib import Path

from textual.content import Content

from engine.encounter import Encounter
from engine.saves import SaveFile, create
from tests.bench.bench_engine import play
from tests.skirmish import make_setup
from tests.tui.test_bursts import burst, idle
from tui.app import FlagbridgeApp
from tui.widgets.panels import LogPanel


def joined(panel: LogPanel) -> Content:
    return Content("\n").join(panel.lines)


def test_the_kept_text_is_always_the_lines_joined(monkeypatch) -> None:
    monkeypatch.setattr(LogPanel, "KEEP", 12)
    monkeypatch.setattr(LogPanel, "SLACK", 5)
    rng = random.Random(13)
    panel = LogPanel()
    events, group = 0, 0
    for step in range(400):
        if rng.random() < 0.3 and events:
            events = rng.randrange(max(0, events - 6), events)
            group = max(0, group - 2)
            panel.truncate(events, group if events else None)
        else:
            group += rng.random() < 0.6
            kind = rng.choice(("action", "roll", "correction"))
            notes = [f"note {step}.{i}" for i in range(rng.randrange(3))]
            panel.add_event(events, group, kind, f"event {events} [bold]x[/]", notes)
            events += 1
        want = joined(panel)
        assert panel._text == want.plain, step
        assert [tuple(s) for s in panel._spans] == [tuple(s) for s in want.spans], step
        assert len(panel.lines) <= LogPanel.KEEP + LogPanel.SLACK
        assert all(m < events for m in panel.marks) and panel.marks == sorted(panel.marks)


async def test_undo_at_the_end_of_a_long_log_takes_off_only_its_lines(tmp_path: Path) -> None:
    path = tmp_path / "long.toml"
    create(path, play(Encounter(make_setup()), 3000))
    app = FlagbridgeApp(SaveFile.load(path), save_dir=tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        log = app.screen.query_one("#log")
        enc = app.save.encounter
        before = log.render_text().splitlines()
        assert before[-1].strip().endswith(enc.describe(enc.events[-1]).strip()[-20:])
        removed = len(enc.events)
        burst(app, "u")
        await idle(pilot)
        removed -= len(enc.events)
        after = log.render_text().splitlines()
        assert 0 < len(after) < len(before) and before[: len(after)] == after
        assert not any(m >= len(enc.events) for m in log.marks)
        burst(app, "ctrl+r")
        await idle(pilot)
        assert log.render_text().splitlines() == before
        assert str(app.screen.query_one("#log-lines").render()) == log.render_text()


async def test_a_reopened_fight_names_a_renamed_ship_in_its_log_as_it_was_called_then(tmp_path: Path) -> None:
    """The Log drew each line when its event happened and kept it; reopened, it drew every headline anew with the
    names of now, so the fire action read "target=Blood Lantern" over its roll "at Red Lantern", and a search for
    "red lantern" found the roll without the action it belongs to (tests/engine/test_log_names.py)."""
    from tests.engine.test_log_names import FIRE, RENAME, renamed_mid_fight

    path = renamed_mid_fight(tmp_path)
    app = FlagbridgeApp(SaveFile.load(path), save_dir=tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        log = app.screen.query_one("#log")
        burst(app, "slash", *"red", "space", *"lantern")
        await idle(pilot)
        found = [line.strip() for line in log.render_text().splitlines()]
        assert found[0].endswith(FIRE) and found[1].startswith("· To hit: Swift Dolan T3 Beam laser x3 at Red")
        assert any(line.endswith(RENAME) for line in found)
        burst(app, "escape", "slash", *"blood")
        await idle(pilot)
        found = [line.strip() for line in log.render_text().splitlines()]
        assert found[0].endswith(RENAME) and len(found) == 4  # then the fuel set after it, the withdrawal, its note


def drawn(app, selector: str = "#log-lines") -> list[str]:
    """The rows a widget draws, as text, at the width it has on screen."""
    from textual.geometry import Region

    widget = app.screen.query_one(selector)
    return [strip.text for strip in widget.render_lines(Region(0, 0, widget.size.width, widget.virtual_size.height))]


async def test_a_long_log_line_wraps_under_its_own_text(demo_app: FlagbridgeApp) -> None:
    """A note typed into a correction, in a console 80 columns wide: its log line ran on at column 0 under the
    entry's number. Each row after the first starts at the column where the entry's text starts, and the note's
    brackets stay as typed (never read as markup)."""
    note = "the [bold]engineer[/] swore the tanks were full at the last highport, and the purser agrees with him"
    app = demo_app
    async with app.run_test(size=(80, 30)) as pilot:
        burst(app, "c", *"fuel", "enter", "1", "2", "enter", *["space" if c == " " else c for c in note], "enter")
        await idle(pilot)
        rows = drawn(app)
        first = next(i for i, row in enumerate(rows) if row.startswith("   1 correction: "))
        entry = rows[first:]  # the last event: its line is the last
        assert len(entry) >= 3, rows  # the note takes two more rows at this width
        for row in entry[1:]:
            assert row.startswith(" " * 5) and row[5] != " ", entry
        assert f"({note})" in " ".join(row.strip() for row in entry), entry


async def test_a_line_under_a_headline_wraps_under_its_own_text(tmp_path: Path) -> None:
    """A roll's or an effect's line under its action's headline starts after "· ": its rows go on there, and a
    search shows the lines it finds the same way. Text selected with the mouse is read as the rows show it."""
    from textual.app import App
    from textual.selection import Selection

    class OneLog(App[None]):
        def compose(self):
            yield LogPanel()

    long = "Swift Dolan's beam laser burns through the armor and the hull, the drive room is open to space"
    app = OneLog()
    async with app.run_test(size=(50, 20)) as pilot:
        log = app.query_one(LogPanel)
        log.add_event(0, 1, "action", "fire: Swift Dolan at Red Lantern", [long])
        log.show()
        await pilot.pause()
        rows = drawn(app)
        assert rows[0].startswith("   1 fire: ") and rows[1].startswith("     · Swift Dolan's"), rows
        assert len(rows) >= 4 and all(row.startswith(" " * 7) and row[7] != " " for row in rows[2:]), rows
        selected = app.query_one("#log-lines").get_selection(Selection(None, None))  # all of it, with the mouse
        assert selected is not None and selected[0].splitlines() == [row.rstrip() for row in rows], selected
        log.show("drive room")
        await pilot.pause()
        rows = drawn(app)
        assert rows[0].startswith("     · Swift Dolan's") and all(row.startswith(" " * 7) for row in rows[1:]), rows
