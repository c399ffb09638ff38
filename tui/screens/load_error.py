"""A save that would not load: the one-line reason, and the promise that the file is untouched."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from engine.errors import LogDoesNotReplay, SaveInUse


class LoadErrorScreen(Screen[None]):
    BINDINGS = [Binding("escape", "back", "Back", id="back")]

    def __init__(self, reason: str, path: Path | None) -> None:
        super().__init__(id="load-error")
        self.reason = reason
        self.path = path

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="error-box") as box:
            box.border_title = "This save did not load"
            yield Static(Text(self.reason), id="error-reason")
            name = self.path or "FILE"
            help_text = (f"\n{self.path or 'The file'} was not changed. Fix it by hand, or run "
                         f"'flagbridge check {name}' to see the problem again.")
            if self.reason.endswith(": no such file"):  # a mistyped path: there is no file to fix or check
                help_text = "\nCheck the path, or run 'flagbridge' alone to pick a recent save from the list."
            elif SaveInUse.WORDS in self.reason:  # nothing wrong with the file: another console has it
                help_text = (f"\n{name} was not changed. Quit the other console and open it again; "
                             f"'flagbridge watch {name} --side ID' shows a side's view of it meanwhile.")
            if LogDoesNotReplay.WORDS in self.reason:  # a rules fix since the fight was saved, most likely
                help_text += (f"\nIf Flagbridge's rules changed since it was saved, 'flagbridge resume {name}' "
                              f"carries the fight on from its saved state (undo stops there; a copy of the file "
                              f"as it is now is kept beside it).")
            yield Static(Text(help_text), id="error-help")
        yield Footer()

    def action_back(self) -> None:
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()
        else:
            self.app.exit()
