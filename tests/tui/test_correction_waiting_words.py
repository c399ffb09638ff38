"""What the correction form says under the field while a roll waits, in a ruleset whose action sets the value
corrected (tests/overcharge.py): the correction cannot be placed before the action, and the form says why before
it is recorded (``Encounter.waiting_roll_note``)."""

from __future__ import annotations

from pathlib import Path

from engine.saves import create
from tests.overcharge import arrow_overcharged
from tui.app import FlagbridgeApp

from .conftest import panel_text as text


async def test_the_form_says_the_action_sets_the_value_itself(tmp_path: Path) -> None:
    """The Arrow's gun, raised from 2 to 3 by the overcharge, corrected to 5 while the to-hit waits at Gun +3."""
    app = FlagbridgeApp(create(tmp_path / "overcharge.toml", arrow_overcharged()), save_dir=tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        enc = app.save.encounter
        await pilot.press("c", *"gun", "enter", "backspace", "5", "enter")
        await pilot.pause()
        said = " ".join(text(app, "#form-message").split())
        assert said == ("The waiting roll keeps the numbers it was asked with (the action sets ships.arrow.gun itself: "
                        "placed before it, it would read 6 after it); undo the action to ask it again"), said
        await pilot.press("enter")
        await pilot.pause()
        assert enc.state["ships"]["arrow"]["gun"] == 5 and enc.events[-1].kind == "correction"
        assert enc.pending.modifiers[0].value == 3
