"""The players' screen: one side's picture of the fight, read-only.

It renders an ``engine.sideview.Picture`` and nothing else: the side's own
ships in full, the others as far as the side knows them, where the fight
stands and the log as the side may read it. It has no action, no form and no
key that reaches the encounter; the app that holds it only reads the save.
"""

from __future__ import annotations

import io

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from engine.sideview import Picture


def _row(label: str, value: str) -> Table:
    """One "label: value" line whose value, when the pane is too narrow for it, wraps under its own start
    (not to the pane's first column): a grid of two columns, the label's never wrapped."""
    grid = Table.grid()
    grid.add_column(no_wrap=True)
    grid.add_column(overflow="fold")
    grid.add_row(Text(f"  {label}: ", style="cyan"), Text(value))
    return grid


def own_text(picture: Picture) -> RenderableType:
    out: list[RenderableType] = []
    for _uid, line, panels in picture.own:
        out.append(Text(line, style="bold"))
        for title, rows in panels.items():
            if not rows:
                continue
            out.append(Text(f" {title}", style="dim"))
            out += [_row(label, value) for label, value in rows]
        out.append(Text(""))
    return Group(*out) if out else Text("(no ships of this side in the fight)", style="dim")


def others_text(picture: Picture) -> RenderableType:
    view = picture.view
    out: list[RenderableType] = []
    for contact in view.contacts:
        out.append(Text(contact.name, style="bold"))
        out += [_row(label, value) for label, value in contact.known]
    if view.unseen:
        out.append(Text(view.unseen, style="dim"))
    if view.notes:
        out.append(Text(""))
        out += [Text(line) for line in view.notes]
    return Group(*out) if out else Text("(nothing known of the other sides)", style="dim")


def plain(renderable: RenderableType) -> str:
    """A pane's content as plain text, each value on its label's line (no pane is that wide): what a test reads."""
    console = Console(width=10_000, file=io.StringIO(), color_system=None, highlight=False)
    with console.capture() as captured:
        console.print(renderable)
    return "\n".join(line.rstrip() for line in captured.get().splitlines())


def log_text(picture: Picture) -> Text:
    out = Text()
    # no counts and no event numbers: the gaps the hidden events leave would tell what the side may not know
    if picture.earlier:
        out.append("(earlier events: flagbridge log shows the whole fight to the referee)\n", style="dim")
    for entry in picture.log:
        out.append("  · ", style="dim")
        out.append(entry.headline + "\n", style="bold" if entry.kind == "action" else "")
        for line in entry.details:
            out.append(f"    {line}\n")
    return out if out.plain else Text("(nothing in the log yet)", style="dim")


def where_text(picture: Picture) -> Text:
    parts = [p for p in (picture.where, picture.step, picture.waiting) if p]
    return Text(" · ".join(parts) or "-")


class WatchScreen(Screen[None]):
    """One side's view; ``show`` replaces everything on it with a new picture."""

    DEFAULT_CSS = """
    WatchScreen #where { height: 1; padding: 0 1; background: $boost; }
    WatchScreen #panes { height: 1fr; }
    WatchScreen #own-pane, WatchScreen #others-pane { width: 1fr; border: round $primary; }
    WatchScreen #log-pane { height: 40%; border: round $secondary; }
    WatchScreen #status { height: 1; padding: 0 1; color: $text-muted; }
    """

    def __init__(self, picture: Picture, status: str = "") -> None:
        super().__init__()
        self.picture = picture
        self.status = status

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="where", markup=False)
        with Horizontal(id="panes"):
            with VerticalScroll(id="own-pane"):
                yield Static(id="own", markup=False)
            with VerticalScroll(id="others-pane"):
                yield Static(id="others", markup=False)
        with VerticalScroll(id="log-pane"):
            yield Static(id="log", markup=False)
        yield Static(id="status", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#own-pane").border_title = Text(f"{self.picture.view.name}: our forces")
        self.query_one("#others-pane").border_title = "What we know of the others"
        self.query_one("#log-pane").border_title = "Log"
        self.show(self.picture, self.status)

    def show(self, picture: Picture, status: str = "") -> None:
        self.picture, self.status = picture, status
        self.query_one("#where", Static).update(where_text(picture))
        self.query_one("#own", Static).update(own_text(picture))
        self.query_one("#others", Static).update(others_text(picture))
        self.query_one("#log", Static).update(log_text(picture))
        self.query_one("#log-pane", VerticalScroll).scroll_end(animate=False)
        self.set_status(status)

    def set_status(self, status: str) -> None:
        self.status = status
        self.query_one("#status", Static).update(Text(status))

    def shown(self) -> str:
        """Everything the screen shows as plain text (what a test reads)."""
        parts = [str(self.app.title), str(self.app.sub_title)]
        for wid in ("where", "own", "others", "log", "status"):
            content = self.query_one(f"#{wid}", Static).content
            parts.append(content.plain if isinstance(content, Text) else plain(content))
        return "\n".join(parts)
