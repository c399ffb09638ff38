"""The start screen: a new encounter, the demo, or one of the recent saves."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from engine.ruleset import available, find_ruleset

from ..widgets.lists import PagedOptionList
from .keyed import field_key


def recent_saves(save_dir: Path, limit: int = 12) -> list[Path]:
    """Saves opened lately from any folder, then the save folder's own, newest first; shipped demos
    and backups are not offered to overwrite."""
    from ..recent import recent_paths

    here = [p for p in save_dir.glob("*.toml") if not p.name.startswith("demo-")] if save_dir.is_dir() else []
    here = sorted(here, key=lambda p: p.stat().st_mtime, reverse=True)
    out: list[Path] = []
    for p in recent_paths() + here:
        if p.resolve() not in {q.resolve() for q in out}:
            out.append(p)
    return out[:limit]


class StartScreen(Screen[None]):
    BINDINGS = [
        Binding("n", "new", "New encounter", id="new"),
        Binding("o", "open_path", "Open a file", id="open"),
        Binding("escape", "close_path", "Back to the list", id="close-path"),
    ]

    def __init__(self, save_dir: Path) -> None:
        super().__init__(id="start")
        self.save_dir = save_dir
        #: A screen is on its way (a save opening, the setup): keys typed in the same burst reach this screen's
        #: list or field until it is up, and must not open a second one (two consoles crashed the app).
        self.leaving = False

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="start-box") as box:
            box.border_title = "Flagbridge"
            yield Label("Choose with the arrows and Enter:")
            options = [Option("New encounter", id="new")]
            for rid in available():
                try:
                    if find_ruleset(rid).demo_save():
                        options.append(Option(f"Demo: {rid} (a fresh copy)", id=f"demo:{rid}"))
                except Exception:
                    continue
            for p in recent_saves(self.save_dir):
                shown = p.name if p.parent.resolve() == self.save_dir.resolve() else f"{p.name}  ({p.parent})"
                options.append(Option(Text(shown), id=f"open:{p}"))
            yield PagedOptionList(*options, id="start-options")
            # typed into by ``take_key`` at once: a select on focus, coming after a burst's keys, took them as an
            # old value to replace ("o nope" then ".toml" gave ".toml")
            yield Input(placeholder="path of a save to open, then Enter", id="start-path", select_on_focus=False)
            yield Static("", id="start-message")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#start-path", Input).display = False
        self.query_one(OptionList).focus()

    def on_screen_resume(self) -> None:
        self.leaving = False  # back here (the setup left with Esc, a load error closed): choices count again
        if self.query("#start-path"):
            self.action_close_path()  # the list has the keys again: o opens the field afresh

    @property
    def typing_text(self) -> bool:
        return bool(self.is_mounted and self.query_one("#start-path", Input).display)

    def take_key(self, event) -> bool:
        """Each key, at once, into the list or the path field (``FlagbridgeApp.on_event``): a path typed right
        after ``o`` goes into the field, in order. Keys the screen has no use for go on to the app (q quits)."""
        if self.leaving:
            return False
        key, char = event.key, event.character
        box = self.query_one("#start-path", Input)
        if box.display:
            if key == "escape":
                self.action_close_path()
                return True
            taken = field_key(box, key, char)
            if taken is None:
                self._open_typed(box.value)
                return True
            return taken
        options = self.query_one(OptionList)
        if key == "n":
            self.action_new()
            return True
        if key == "o":
            self.action_open_path()
            return True
        taken = field_key(options, key, char)
        if taken is None:
            if options.highlighted is not None:
                self._chosen(options.get_option_at_index(options.highlighted))
            return True
        return taken

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """A choice clicked with the mouse (keys are taken in ``take_key``)."""
        self._chosen(event.option)

    def _chosen(self, option: Option) -> None:
        if self.leaving:
            return
        choice = str(option.id)
        if choice == "new":
            self.action_new()
        elif choice.startswith("demo:"):
            from engine.errors import FlagbridgeError

            from ..demos import fresh_demo_copy

            try:
                path = fresh_demo_copy(choice[5:], self.save_dir)
            except (FlagbridgeError, OSError) as exc:
                self.query_one("#start-message", Static).update(Text(str(exc)))
                return
            self._leave_for(path)
        else:
            self._leave_for(Path(choice[5:]))

    def _leave_for(self, path: Path) -> None:
        self.leaving = True
        self.app.open_path(path)

    def action_new(self) -> None:
        from .setup import SetupScreen

        if self.leaving:
            return
        self.leaving = True
        self.app.push_screen(SetupScreen(self.save_dir))

    def action_open_path(self) -> None:
        box = self.query_one("#start-path", Input)
        box.value = ""  # a path typed before (a failed open) is not added to
        box.display = True
        box.focus()

    def action_close_path(self) -> None:
        """Esc in the path field: the field closes and the list has the keys again (n, o, q work)."""
        box = self.query_one("#start-path", Input)
        box.display = False
        self.query_one(OptionList).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Esc works while the path field is open; n and o while the list has the keys (so they are typed)."""
        box_open = self.query_one("#start-path", Input).display
        if action == "close_path":
            return box_open
        if action in ("new", "open_path"):
            return not box_open
        return True

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self._open_typed(event.value)

    def _open_typed(self, value: str) -> None:
        if self.leaving:
            return
        path = Path(value.strip()).expanduser()
        if not value.strip():
            self.query_one("#start-message", Static).update("type the path of a save file")
            return
        self._leave_for(path)
