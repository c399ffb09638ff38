"""Every key of the console, the actions possible right now, and why the others are not."""

from __future__ import annotations

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from rich.text import Text

from engine.actions import Offer

KEYS = [
    ("?", "this help"),
    ("ctrl+p", "command palette: every action by name"),
    ("n", "next step (refused with what the step still needs)"),
    ("Enter, Enter", "roll the pending dice with the built-in roller (the first Enter asks, the second rolls)"),
    ("digits, Enter", "type what the table rolled: the total (8) or each die (3 5)"),
    ("Backspace / Esc", "erase a typed digit / clear the typed dice"),
    ("u", "undo the last action with all its rolls"),
    ("ctrl+r", "redo"),
    ("c", "correct any value by hand (logged, undoable)"),
    ("up / down", "choose the unit shown in the status panels"),
    ("v", "recap: this turn so far, and what the fight has done to every unit"),
    ("PageUp / PageDown", "scroll the Log (or the panel Tab chose, its border lit)"),
    ("Tab / shift+Tab", "choose the panel PageUp and PageDown scroll: the units list (Ships, People) first, "
                        "then round the screen (shift+Tab goes back)"),
    ("/", "search the log: only the lines with every word typed (the units list, by name, once Tab "
          "chose it); Esc clears"),
    ("ctrl+s", "save now (the console also saves after every event)"),
    ("q", "quit (everything is already saved)"),
]


class HelpScreen(ModalScreen[None]):
    """Its own Footer, as the recap's: the console's, showing through, offered n Next step, u Undo and q Quit,
    keys that do other things here (q closes help)."""

    BINDINGS = [Binding("escape,question_mark,q", "close", "Close", key_display="esc/?/q", id="close-help")]

    def __init__(self, offers: list[Offer], ruleset_id: str) -> None:
        super().__init__(classes="form")
        self.offers = offers
        self.ruleset_id = ruleset_id

    def compose(self) -> ComposeResult:
        keys = Table.grid(padding=(0, 2))
        keys.add_column(style="bold")
        keys.add_column()
        for k, what in KEYS:
            keys.add_row(k, what)
        now = Table.grid(padding=(0, 2))
        now.add_column(style="bold")
        now.add_column()
        later = Table.grid(padding=(0, 2))
        later.add_column(style="bold")
        later.add_column()
        later.add_column(style="dim")
        for o in self.offers:
            if o.possible:
                now.add_row(o.action.key or "ctrl+p", Text(o.action.label))
            else:
                later.add_row(o.action.key or "ctrl+p", Text(o.action.label), Text(o.reason))
        with VerticalScroll(id="form-box") as box:
            box.border_title = "Help"
            yield Static(keys)
            yield Static(Text(f"\nActions of {self.ruleset_id} that work now:"))
            yield Static(now)
            yield Static("\nNot possible now, and why:")
            yield Static(later)
            yield Static("\nEsc closes this help.")
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)
