"""The recap: what this turn did, and what the fight has done to every unit since it began.

The same words ``flagbridge log --markdown`` writes for a campaign journal, read
from the engine's recap; nothing here judges the rules.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from engine.encounter import Encounter
from engine.recap import period, summary, this_turn


class RecapScreen(ModalScreen[None]):
    """Its own Footer: the console's, showing through, offered u Undo and q Quit, keys that do other
    things here (q closes the recap)."""

    BINDINGS = [Binding("escape,v,q", "close", "Close", key_display="esc/q/v", id="close-recap")]

    def __init__(self, enc: Encounter) -> None:
        super().__init__(classes="form")
        self.enc = enc

    def compose(self) -> ComposeResult:
        text = Text()
        turn = this_turn(self.enc)  # the turn under way alone: replayed from a checkpoint before it began
        if turn is not None:
            when, items = turn
            now = period(self.enc.state)
            if when == now or not now:
                text.append(f"{when or 'This turn'} so far\n", style="bold")
            else:  # the last group began the turn now under way: nothing done in it yet
                text.append(f"{now} so far: nothing yet\n\n", style="bold")
                text.append(f"{when}, the turn before\n", style="bold")
            for e in items:
                text.append(f"  {e.headline}\n")
                for d in e.details:
                    text.append(f"    · {d}\n", style="dim")
        text.append("\nThe fight since it began\n", style="bold")
        for line in summary(self.enc):
            text.append(f"  {line}\n")
        with VerticalScroll(id="form-box") as box:
            box.border_title = "Recap"
            yield Static(text)
            yield Static(Text("\nEsc closes the recap; flagbridge log --markdown writes it for a journal."))
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)
