"""Every key of the console, and the actions that are legal right now."""

from __future__ import annotations

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from engine.ruleset import ActionSpec

KEYS = [
    ("?", "this help"),
    ("ctrl+p", "command palette: every action by name"),
    ("n", "next step (refused with what the step still needs)"),
    ("Enter", "roll the pending dice with the built-in roller"),
    ("digits, Enter", "type what the table rolled: the total (8) or each die (3 5)"),
    ("Backspace / Esc", "erase a typed digit / clear the typed dice"),
    ("u", "undo the last action with all its rolls"),
    ("ctrl+r", "redo"),
    ("c", "correct any value by hand (logged, undoable)"),
    ("up / down", "choose the ship shown in the status panels"),
    ("ctrl+s", "save now (the console also saves after every event)"),
    ("q", "quit (everything is already saved)"),
]


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,q", "close", "Close", id="close-help")]

    def __init__(self, legal: list[ActionSpec], ruleset_id: str) -> None:
        super().__init__(classes="form")
        self.legal = legal
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
        for a in self.legal:
            now.add_row(a.key or "ctrl+p", a.label)
        with VerticalScroll(id="form-box") as box:
            box.border_title = "Help"
            yield Static(keys)
            yield Static(f"\nActions of {self.ruleset_id} that work now:")
            yield Static(now)
            yield Static("\nEsc closes this help.")

    def action_close(self) -> None:
        self.dismiss(None)
