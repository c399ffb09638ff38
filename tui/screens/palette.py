"""The command palette (ctrl+p): every action that works now, then the console's and the app's commands.

Our own small screen rather than Textual's: it takes its keys itself in arrival
order like every form (type to filter, up/down, Enter runs, Esc closes), and it
runs no background search that a burst of keys could outpace.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Label, Static

from ..widgets.picker import Item, Picker
from .keyed import KeyedScreenMixin


class PaletteScreen(KeyedScreenMixin, ModalScreen[None]):
    """Its own Footer names its keys, as the forms': the console's, showing through, offered n Next step, u Undo
    and q Quit, letters the palette types into its filter. The keys reach ``form_key`` first; the bindings feed
    the Footer, and a click on one does what its key does."""

    BINDINGS = [
        Binding("enter", "press('enter')", "Run", id="palette-run"),
        Binding("escape", "press('escape')", "Close", key_display="esc", id="palette-close"),
        # where the console's Footer names ^p palette, on the right: here ^p closes it
        Binding("ctrl+p", "press('ctrl+p')", "Close", show=False, id="palette-toggle"),
    ]
    _CHARACTERS = {"enter": "\r", "escape": "\x1b", "ctrl+p": "\x10"}

    def __init__(self, commands: list[tuple[str, str, object]]) -> None:
        super().__init__(classes="form")
        self.commands = {str(i): run for i, (_name, _help, run) in enumerate(commands)}
        self.items = [Item(str(i), f"{name}  ·  {help_text}") for i, (name, help_text, _run) in enumerate(commands)]
        self.closed = False

    def compose(self) -> ComposeResult:
        with Vertical(id="form-box") as box:
            box.border_title = "Commands"
            yield Label("Type to filter, up/down, Enter runs, Esc closes:", id="form-question")
            yield Picker(rows=16, id="form-options")
            yield Static("", id="form-message")
        yield Footer()

    def on_mount(self) -> None:
        found = self.query(Picker)
        if not found:  # closed before it was up (a burst's Enter ran a command that took the screen's place)
            return
        found.first().load(self.items)
        self.keys_ready()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Closed, it leaves its keys to the app and the screen under it."""
        return not self.closed

    def form_key(self, event: events.Key) -> bool:
        if self.closed:
            return False
        picker = self.query_one(Picker)
        key, char = event.key, event.character
        if key in ("escape", "ctrl+p"):
            self.closed = True
            self.dismiss(None)
            return True
        taken = picker.take(key, char)
        if taken is not None:
            return taken
        item = picker.state.current
        if item is None:
            self.query_one("#form-message", Static).update(Text("nothing matches: Backspace clears the filter"))
            return True
        self.closed = True
        self.dismiss(None)
        self.commands[item.value]()  # after closing, so the command's own screen comes on top
        return True
