"""Faults a game master's drive of ``flagbridge new`` found, each driven from the keyboard as it was met."""

from __future__ import annotations

from pathlib import Path

from textual import events

from engine.saves import SaveFile
from tests.tui.test_bursts import burst, idle
from tui.app import FlagbridgeApp
from tui.screens.console import ConsoleScreen


def message(app: FlagbridgeApp) -> str:
    return str(app.screen.query_one("#form-message").render())


def question(app: FlagbridgeApp) -> str:
    return str(app.screen.query_one("#form-question").render())


def control(app: FlagbridgeApp, key: str) -> None:
    """A control key as the terminal sends it (ctrl+u is the character 0x15)."""
    app.post_message(events.Key(key, chr(ord(key[-1]) - ord("a") + 1)))


async def test_ctrl_u_clears_what_was_typed_before_it_in_a_burst_too(tmp_path: Path) -> None:
    """Found by a game master's drive: "  IMPERIAL NAVY ", ctrl+u, "Corsairs" named the side
    "IMPERIAL NAVY Corsairs". Textual's Input binds ctrl+u to "delete all to the left"; the screen typed every
    other key at once but left ctrl+u to Textual's queue, which reached the field after the keys behind it (or
    a field no longer asked). With the cursor at the end it clears the line; in the middle, up to the cursor."""
    app = FlagbridgeApp(save_dir=tmp_path, start="new")
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "enter", *"Duel", "enter", "space", "space", *"IMPERIAL", "space", *"NAVY", "space")
        control(app, "ctrl+u")
        burst(app, *"Corsairs", "enter")
        await idle(pilot)
        assert app.screen.answers["side1"] == "Corsairs"
        burst(app, "space", "enter", *"Old", "space", *"Raiders", "left", "left", "left", "left", "left", "left",
              "left")
        control(app, "ctrl+u")  # the cursor before "Raiders": only "Old " goes
        burst(app, "end", "space", *"Band")
        control(app, "ctrl+w")  # the word before the cursor
        burst(app, *"Crew", "enter")
        await idle(pilot)
        assert app.screen.answers["side2"] == "Raiders Crew"
