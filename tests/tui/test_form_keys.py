"""q on the screens that open over the console.

q is the app's Quit, yet in a form or the palette it is a letter of the filter or the value being typed: the
app hands every key to the screen's ``take_key`` before any binding, and a modal screen's bindings never reach
the app's.
"""

from __future__ import annotations

from pathlib import Path

from textual import events

from tests.tui.conftest import screen_text
from tests.tui.test_bursts import burst, fire_form_at_step_3, idle
from tui.app import FlagbridgeApp

QUASAR = (*"Quasar", "space", "q")  # "Quasar q", as typed


def ctrl_p(app: FlagbridgeApp) -> None:
    app.post_message(events.Key("ctrl+p", "\x10"))  # as the terminal sends it


def bottom(app: FlagbridgeApp) -> str:
    return screen_text(app).splitlines()[-1]


async def test_q_is_typed_into_the_fire_forms_filter(demo_app: FlagbridgeApp) -> None:
    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        await fire_form_at_step_3(pilot, app)
        form = app.screen
        assert app.focused is None  # nothing to focus: the form takes its keys whatever has the focus
        burst(app, *QUASAR)
        await idle(pilot)
        assert app.is_running and app.screen is form
        assert form.query_one("Picker").state.filter == "Quasar q"
        assert "Quit" not in bottom(app)


async def test_q_is_typed_into_the_correction_forms_filter_and_value(demo_app: FlagbridgeApp) -> None:
    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "c")
        await idle(pilot)
        form = app.screen
        assert form.__class__.__name__ == "CorrectionScreen" and app.focused is None
        burst(app, *QUASAR)
        await idle(pilot)
        assert app.is_running and app.screen is form and form.query_one("Picker").state.filter == "Quasar q"
        assert "Quit" not in bottom(app)
        burst(app, *["backspace"] * 8, *": name", "enter", *QUASAR)  # the selected ship's name, typed anew
        await idle(pilot)
        assert app.is_running and form.stage == "value" and form.query_one("LineEdit").value == "Quasar q"
        burst(app, "enter", "q", "enter")  # the note "q"
        await idle(pilot)
        assert app.is_running and app.screen.__class__.__name__.startswith("ConsoleScreen")
        event = app.save.encounter.events[-1]
        assert event.kind == "correction" and "Quasar q" in app.save.encounter.describe(event)


async def test_q_is_typed_into_the_palettes_filter(demo_app: FlagbridgeApp) -> None:
    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        ctrl_p(app)
        await idle(pilot)
        palette = app.screen
        assert palette.__class__.__name__ == "PaletteScreen" and app.focused is None
        burst(app, *QUASAR)
        await idle(pilot)
        assert app.is_running and app.screen is palette and palette.query_one("Picker").state.filter == "Quasar q"
        assert "Quit" not in bottom(app)
