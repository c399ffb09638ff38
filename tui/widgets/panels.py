"""The console's panels. Each takes plain values from the engine or ruleset and draws them.

None of them computes anything of the rules: they format what they are handed.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from engine.recap import Entry
from engine.ruleset import StepView


class Panel(VerticalScroll):
    """A titled, bordered panel (the title is the border title) whose text scrolls when it is longer
    than the panel (PageUp/PageDown once Tab has chosen it)."""

    def __init__(self, title: str, *, id: str) -> None:
        super().__init__(id=id, classes="panel", can_focus=False)
        self.border_title = title
        self.body = Static("", classes="panel-body")

    def compose(self):
        yield self.body

    def update(self, renderable) -> None:
        self.body.update(renderable)

    def render_text(self) -> str:
        """What the panel shows, as plain text (for tests)."""
        return str(self.body.render())


def bar(condition: float, width: int = 4) -> str:
    full = max(0, min(width, round(condition * width)))
    return "#" * full + "-" * (width - full)


class ShipsPanel(Panel):
    """Each side and its ships, with a condition bar; the selected ship is marked."""

    def show(self, sides: list[tuple[str, list[tuple[str, str, float]]]], selected: str, legend: str = "") -> None:
        text = Text()
        for side_name, ships in sides:
            text.append(side_name + "\n", style="bold")
            for sid, line, condition in ships:
                mark = ">" if sid == selected else " "
                text.append(f"{mark}", style="bold")
                text.append(f"{bar(condition)} ", style="green" if condition > 0.5 else "yellow")
                text.append(f"{line}\n", style="reverse" if sid == selected else "")
        if legend:
            text.append(f"\n{legend}\n", style="dim")
        self.update(text)


class RowsPanel(Panel):
    """Label and value rows."""

    def show(self, rows: list[tuple[str, str]], subtitle: str = "") -> None:
        table = Table.grid(padding=(0, 1))
        table.add_column(style="dim", no_wrap=True)
        table.add_column()
        for label, value in rows:
            table.add_row(Text(label), Text(value))
        self.border_subtitle = Text(subtitle)
        self.update(table if rows else Text("(nothing to show)", style="dim"))


MARKS = {"done": "[x]", "current": "[>]", "todo": "[ ]", "skipped": "[-]"}


class ChecklistPanel(Panel):
    """The turn's steps, what the current one still needs, and the roles and states."""

    def show(self, steps: list[StepView], notes: list[str]) -> None:
        text = Text()
        for s in steps:
            style = "bold" if s.status == "current" else ("dim" if s.status in ("done", "skipped") else "")
            text.append(f"{MARKS.get(s.status, '[ ]')} {s.number} {s.label}\n", style=style)
            if s.needs:
                text.append(f"      needs: {s.needs}\n", style="yellow")
        for note in notes:
            text.append(note + "\n", style="cyan")
        self.update(text)


class LinesPanel(Panel):
    def show(self, lines: list[str]) -> None:
        self.update(Text("\n".join(lines)))


class LogPanel(VerticalScroll):
    """The event log: each action with its rolls and effects, newest at the bottom.

    It keeps the last ``KEEP`` lines (``flagbridge log`` prints the whole log),
    stays scrolled to the newest until PageUp moves it, and shows only the lines
    holding every word of a search (``/`` in the console).
    """

    KEEP = 600

    def __init__(self) -> None:
        super().__init__(id="log", can_focus=False)
        self.border_title = "Log"
        self.lines: list[Text] = []
        self.search = ""

    def compose(self):
        yield Static("", id="log-lines")

    def on_mount(self) -> None:
        self.anchor()

    def clear(self) -> None:
        self.lines = []

    def add(self, entry: Entry) -> None:
        style = {"action": "bold", "correction": "yellow"}.get(entry.kind, "")
        self.lines.append(Text(f"{entry.group:>4} {entry.headline}", style=style))
        self.add_details(entry.details)

    def add_details(self, lines: list[str]) -> None:
        self.lines.extend(Text(f"     · {d}") for d in lines)
        del self.lines[: -self.KEEP]

    def show(self, search: str | None = None) -> None:
        """Every kept line (or those matching the search), scrolled to the newest."""
        if search is not None:
            self.search = search
        words = self.search.lower().split()
        shown = [line for line in self.lines if all(w in line.plain.lower() for w in words)]
        self.border_subtitle = Text(f"search: {self.search} ({len(shown)} lines)") if words else Text("")
        body = Text("\n").join(shown) if shown else Text("(no line matches)" if words else "", style="dim")
        self.query_one("#log-lines", Static).update(body)
        self.anchor()

    def render_text(self) -> str:
        """The lines shown, as plain text (for tests and the recap)."""
        return "\n".join(line.plain for line in self.lines
                         if all(w in line.plain.lower() for w in self.search.lower().split()))


class DicePrompt(Static):
    """The pending roll with its modifiers and exact chance, the dice typed so far, and messages."""

    def show(self, request_line: str, typed: str, hint: str, message: str) -> None:
        text = Text()
        if request_line:
            text.append(request_line, style="bold")
            text.append("\n")
            text.append("type what the table rolled, then Enter (Enter twice: the built-in dice): ", style="dim")
            text.append(typed or "_", style="reverse bold")
        else:
            text.append(hint, style="dim")
        if message:
            text.append("\n" + message, style="red")
        self.update(text)
