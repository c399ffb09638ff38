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
        words = self.filter.lower().split()
        return [i for i in self.items if all(w in i.label.lower() for w in words)]

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

    def load(self, items: list[Item], multi: bool = False, ticked: list[str] | None = None) -> None:
        self.state = PickerState(list(items), multi, 0, list(ticked or []))
        self.redraw()

    def redraw(self) -> None:
        s = self.state
        shown = s.shown
        text = Text()
        if s.filter:
            text.append(f"filter: {s.filter}\n", style="italic")
        first = max(0, min(s.cursor - self.rows // 2, len(shown) - self.rows))
        window = shown[first: first + self.rows]
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

    def on_mount(self) -> None:
        self.redraw()

    def set(self, value: str) -> None:
        self.value = value
        self.redraw()

    def type(self, text: str) -> None:
        self.set(self.value + text)

    def erase(self) -> None:
        self.set(self.value[:-1])

    def redraw(self) -> None:
        text = Text(self.value)
        text.append("_", style="reverse")
        self.update(text)
