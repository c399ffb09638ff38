"""A bare Textual app shaped like the Flagbridge console: the yardstick for ``bench_console``.

A Header, a Footer and six titled (border_title) Static panels laid out like the
console (ships on the left, two panels in the middle, checklist and sensors on the
right, a log along the bottom), with a little text in each and no engine behind it.
The key ``n`` updates one panel, the cheapest state-changing key a Textual app can have.

Run it as ``python tests/bench/bare_app.py``; ``q`` quits.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Header, Static

MARKER = "Bare checklist"  # the bench waits for this title to appear on screen

CSS = """
.panel {
    border: round $primary 60%;
    border-title-color: $text;
    border-title-style: bold;
    padding: 0 1;
    height: 1fr;
    overflow: hidden hidden;
}
#main { height: 1fr; }
#ships { width: 30; }
#middle { width: 1fr; }
#right { width: 44; }
#sensors { height: auto; max-height: 6; }
#log { height: 10; background: $surface; }
"""

PANELS = (
    ("ships", "Ships", "Imperial Navy\n > Swift Dolan\n   Vigilant Reach\nCorsairs\n   Red Lantern\n   Mary Oakes"),
    ("status", "Ship status", "Tonnage  400\nManeuver 5\nPower    5\nComputer 4"),
    ("armor", "Armor and crew", "Armor 4\nBridge 4 · Engineering 4 · Weapons 5"),
    ("checklist", MARKER, "[>] 1 Initiative\n[ ] 2 Range\n[ ] 3 Attacker's offensive fire"),
    ("sensors", "Sensors", "range: long"),
    ("log", "Log", "   1 the fight begins"),
)


class Panel(Static):
    def __init__(self, title: str, body: str, *, id: str) -> None:
        super().__init__(Text(body), id=id, classes="panel")
        self.border_title = title


class BareApp(App[None]):
    CSS = CSS
    TITLE = "Bare"
    BINDINGS = [Binding("n", "bump", "Bump"), Binding("q", "quit", "Quit")]

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def compose(self) -> ComposeResult:
        panels = {pid: Panel(title, body, id=pid) for pid, title, body in PANELS}
        yield Header()
        with Horizontal(id="main"):
            yield panels["ships"]
            with Vertical(id="middle"):
                yield panels["status"]
                yield panels["armor"]
            with Vertical(id="right"):
                yield panels["checklist"]
                yield panels["sensors"]
        yield panels["log"]
        yield Footer()

    def action_bump(self) -> None:
        """The state-changing key: one counter, one panel redrawn."""
        self.count += 1
        self.query_one("#checklist", Static).update(Text(f"[>] 1 Initiative\nkey pressed {self.count} times"))


if __name__ == "__main__":
    BareApp().run()
