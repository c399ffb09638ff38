"""What the command palette (ctrl+p) lists: the fight's actions first, then the console's and the app's.

Built from the console as it stands, so it offers exactly the actions possible
now (the same ``may`` checks as the Footer); ``screens.palette`` shows them.
"""

from __future__ import annotations

from functools import partial


def app_commands(app) -> list[tuple[str, str, object]]:
    """The few app commands a game master uses, listed after the fight's."""
    def switch_theme() -> None:
        app.theme = "textual-light" if app.current_theme.dark else "textual-dark"

    return [("Switch dark / light theme", "for a bright room or a dark one", switch_theme),
            ("Quit", "everything is already saved (q)", app.exit_saved)]


def open_forecast(screen) -> None:
    from .screens.forecast import ForecastScreen

    screen.app.push_screen(ForecastScreen(screen.enc))


def console_commands(screen) -> list[tuple[str, str, object]]:
    """Every action possible now, the pending roll, then undo, redo, correct, recap, save, help."""
    enc = screen.enc
    out = [(a.label, f"{enc.ruleset.id} action" + (f" (key {a.key})" if a.key else ""),
            partial(screen.action_act, a.name)) for a in enc.legal_actions()]
    if enc.pending is not None:
        out.append(("Roll the pending dice", enc.pending.describe(), screen.action_roll))
    out += [
        ("Undo", "take back the last action and its rolls (u)", screen.action_undo),
        ("Redo", "re-apply what was undone (ctrl+r)", screen.action_redo),
        ("Correct a value", "edit any value by hand, logged as a correction (c)", screen.action_correct),
        ("Recap", "this turn so far, and the fight since it began (v)", screen.action_recap),
        *([("Forecast", "play the rest of the fight many times by each side's doctrine",
            partial(open_forecast, screen))] if enc.ruleset.doctrine_module else []),
        ("Search the log", "only the lines holding every word typed (/)", screen.action_search),
        ("Save now", "write the save file (ctrl+s)", screen.action_save),
        ("Help", "every key, and why an action is not possible now (?)", screen.action_help),
    ]
    return out + app_commands(screen.app)
