"""q and ctrl+p on the screens that open over the console or the walk-through.

q is the app's Quit, yet in a form or the palette it is a letter of the filter or the value being typed: the
app hands every key to the screen's ``take_key`` before any binding, and a modal screen's bindings never reach
the app's. ctrl+p opens the palette from a full screen only: over a form, a view or the unit editor it opens
nothing (there it offered only the theme and a Quit, which in the unit editor threw the walk-through's answers
away unasked), and their Footers do not name it.
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


async def typed_into_its_filter(app: FlagbridgeApp, pilot, screen: str):
    """"Quasar q" typed on the top screen (``screen``, just opened, with nothing to focus: it takes its keys whatever
    has the focus) is its filter's text, the app still runs, and the Footer names no Quit. The screen."""
    form = app.screen
    assert form.__class__.__name__ == screen and app.focused is None
    burst(app, *QUASAR)
    await idle(pilot)
    assert app.is_running and app.screen is form and form.query_one("Picker").state.filter == "Quasar q"
    assert "Quit" not in bottom(app)
    return form


async def test_q_is_typed_into_the_fire_forms_filter(demo_app: FlagbridgeApp) -> None:
    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        await fire_form_at_step_3(pilot, app)
        await typed_into_its_filter(app, pilot, app.screen.__class__.__name__)


async def test_q_is_typed_into_the_correction_forms_filter_and_value(demo_app: FlagbridgeApp) -> None:
    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "c")
        await idle(pilot)
        form = await typed_into_its_filter(app, pilot, "CorrectionScreen")
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
        await typed_into_its_filter(app, pilot, "PaletteScreen")


async def stays_without_a_palette(app: FlagbridgeApp, pilot, screen: str) -> None:
    """ctrl+p on ``screen`` (the top one) opens no palette, and its Footer names no ^p."""
    assert app.screen.__class__.__name__ == screen
    assert "palette" not in bottom(app), bottom(app)
    ctrl_p(app)
    await idle(pilot)
    assert app.is_running and app.screen.__class__.__name__ == screen, app.screen_stack
    assert "palette" not in bottom(app), bottom(app)


async def test_ctrl_p_opens_no_palette_over_a_screen_on_top_of_the_console(demo_app: FlagbridgeApp) -> None:
    """Help, the recap, the fire form, the correction form, the forecast: Esc, then ctrl+p on the console."""
    from tui.screens.forecast import ForecastScreen

    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        for key, screen in (("question_mark", "HelpScreen"), ("v", "RecapScreen"), ("c", "CorrectionScreen")):
            burst(app, key)
            await idle(pilot)
            await stays_without_a_palette(app, pilot, screen)
            burst(app, "escape")
            await idle(pilot)
        forecast = ForecastScreen(app.save.encounter, fights=4, seed=1, workers=1)
        app.push_screen(forecast)
        for _ in range(200):
            if forecast.result is not None or forecast.problem:
                break
            await pilot.pause(0.05)
        await stays_without_a_palette(app, pilot, "ForecastScreen")
        burst(app, "escape")
        await idle(pilot)
        await fire_form_at_step_3(pilot, app)
        await stays_without_a_palette(app, pilot, "ActionScreen")
        burst(app, "escape")
        await idle(pilot)
        assert "^p palette" in bottom(app)  # the console: ctrl+p opens it, and ctrl+p there closes it
        ctrl_p(app)
        await idle(pilot)
        assert app.screen.__class__.__name__ == "PaletteScreen" and bottom(app).rstrip().endswith("^p Close")
        ctrl_p(app)
        await idle(pilot)
        assert app.screen.__class__.__name__.startswith("ConsoleScreen")


async def test_ctrl_p_opens_no_palette_over_the_unit_editor(tmp_path: Path) -> None:
    """The palette over the editor listed the app's Quit, which quit at once, the walk-through's answers lost,
    where q there asks first."""
    app = FlagbridgeApp(save_dir=tmp_path, start="new")
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "enter", *"Duel", "enter", *"Imp", "enter", "e")
        await idle(pilot)
        await stays_without_a_palette(app, pilot, "UnitEditScreen")
        burst(app, "enter")  # in a field
        await idle(pilot)
        await stays_without_a_palette(app, pilot, "UnitEditScreen")
        burst(app, "escape", "escape")
        await idle(pilot)
        assert app.screen.__class__.__name__ == "SetupScreen" and "^p palette" in bottom(app)
