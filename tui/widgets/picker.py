"""A list and a line of text that the screen drives key by key, so a burst of keys is taken in order.

Textual's own lists and inputs take keys when they have focus, and focus moves a
moment after a choice; keys typed in that moment (a paste, a laggy link, a fast
game master) went to the old widget. These two widgets take no keys themselves:
the form's screen hands each key to them as it arrives and they redraw at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.text import Text
from textual.widgets import Static


@dataclass
class Item:
    value: str
    label: str


@dataclass
class PickerState:
    """The list's items, the cursor, what is ticked and the filter typed so far (pure, testable)."""

    items: list[Item] = field(default_factory=list)
    multi: bool = False
    cursor: int = 0
    ticked: list[str] = field(default_factory=list)
    filter: str = ""

    @property
    def shown(self) -> list[Item]:
        """The items holding every word typed, in their words or their value (a correction's path, as the log
        writes it; a unit's id)."""
        words = self.filter.lower().split()
        if not words:
            return self.items
        return [i for i in self.items if all(w in f"{i.label}\n{i.value}".lower() for w in words)]

    @property
    def current(self) -> Item | None:
        shown = self.shown
        return shown[self.cursor] if 0 <= self.cursor < len(shown) else None

    def move(self, step: int) -> None:
        n = len(self.shown)
        self.cursor = max(0, min(n - 1, self.cursor + step)) if n else 0

    def tick(self) -> None:
        item = self.current
        if item is None or not self.multi:
            return
        if item.value in self.ticked:
            self.ticked.remove(item.value)
        else:
            self.ticked.append(item.value)

    def type(self, text: str) -> None:
        self.filter += text
        self.cursor = 0

    def erase(self) -> None:
        self.filter = self.filter[:-1]
        self.cursor = 0


#: Keys that move a list's cursor, and by how much.
MOVES = {"up": -1, "down": 1, "pageup": -10, "pagedown": 10, "home": -10**6, "end": 10**6}
#: Keys a form never takes: they belong to the app (quit anywhere, the palette).
APP_KEYS = ("ctrl+q", "ctrl+p")


class Picker(Static):
    """Draws a ``PickerState``: the cursor's line reversed, ``[x]`` for a ticked item, a window that
    follows the cursor in a long list, and the filter when one is typed."""

    DEFAULT_CSS = """
    Picker { height: auto; }
    """

    def __init__(self, rows: int = 12, **kwargs) -> None:
        super().__init__("", **kwargs)
        self.rows = rows
        self.state = PickerState()

    def load(self, items: list[Item], multi: bool = False, ticked: list[str] | None = None,
             at: str | None = None) -> None:
        """``at``: the value the cursor starts on, when listed (else the first)."""
        cursor = next((i for i, item in enumerate(items) if item.value == at), 0) if at is not None else 0
        self.state = PickerState(list(items), multi, cursor, list(ticked or []))
        self.redraw()

    def take(self, key: str, char: str | None) -> bool | None:
        """A key that moves, ticks or filters, taken and drawn (True); None for Enter and Escape,
        which the form decides; False for a key the form leaves to the app."""
        s = self.state
        if key in ("enter", "escape"):
            return None
        if key in MOVES:
            s.move(MOVES[key])
        elif key == "space" and s.multi:
            s.tick()
        elif key == "backspace":
            s.erase()
        elif char is not None and char.isprintable():
            s.type(char)
        else:
            return key not in APP_KEYS
        self.redraw()
        return True

    FORM_LINES = 18  # what a form needs besides its list: border, question, choices made, message, keys

    @property
    def window_rows(self) -> int:
        """Rows of the list shown: ``rows``, fewer on a short terminal so the form's message and keys
        stay on screen (at 80x24, 6)."""
        height = self.app.size.height if self.is_attached else 0
        return max(3, min(self.rows, height - self.FORM_LINES)) if height else self.rows

    def on_resize(self) -> None:
        self.redraw()

    def redraw(self) -> None:
        s = self.state
        shown = s.shown
        rows = self.window_rows
        text = Text()
        if s.filter:
            text.append(f"filter: {s.filter}\n", style="italic")
        first = max(0, min(s.cursor - rows // 2, len(shown) - rows))
        window = shown[first: first + rows]
        if first:
            text.append(f"  ... {first} more above\n", style="dim")
        for i, item in enumerate(window, first):
            mark = ("[x] " if item.value in s.ticked else "[ ] ") if s.multi else ""
            line = f"{'>' if i == s.cursor else ' '} {mark}{item.label}"
            text.append(line + "\n", style="reverse" if i == s.cursor else "")
        below = len(shown) - first - len(window)
        if below > 0:
            text.append(f"  ... {below} more below\n", style="dim")
        if not shown:
            text.append("  (nothing matches the filter: Backspace)\n" if s.filter else "  (nothing to choose)\n",
                        style="dim")
        self.update(text)


class LineEdit(Static):
    """A line of typed text with a cursor at its end."""

    DEFAULT_CSS = """
    LineEdit { height: 1; background: $boost; }
    """

    def __init__(self, value: str = "", **kwargs) -> None:
        super().__init__("", **kwargs)
        self.value = value
        #: The value shown was put there to be replaced (a correction's old value): the first character typed
        #: takes its place, Backspace edits it instead. Shown reversed, as selected text is.
        self.fresh = False

    def on_mount(self) -> None:
        self.redraw()

    def set(self, value: str, fresh: bool = False) -> None:
        self.value = value
        self.fresh = fresh and bool(value)
        self.redraw()

    def type(self, text: str) -> None:
        self.set(text if self.fresh else self.value + text)

    def erase(self) -> None:
        self.set(self.value[:-1])

    def take(self, key: str, char: str | None) -> bool | None:
        """A key that edits the line, taken (True); None for Enter and Escape; False for the app's."""
        if key in ("enter", "escape"):
            return None
        if key == "backspace":
            self.erase()
        elif key == "ctrl+u":  # as in a shell: all before the cursor, which here is the whole line
            self.set("")
        elif char is not None and char.isprintable():
            self.type(char)
        else:
            return key not in APP_KEYS
        return True

    def redraw(self) -> None:
        text = Text(self.value, style="reverse" if self.fresh else "")
        text.append("_", style="reverse")
        self.update(text)
