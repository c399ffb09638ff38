"""A long save opening: the replay runs on a thread, the screen shows how far it has got.

The first open of a long fight (no replay cache beside it yet) replays every
event: seconds for tens of thousands of a fleet's. The start screen hands such
a save here instead of loading it where the screen would freeze; keys typed
meanwhile wait (``keys_welcome``) and reach the console, in order, once it opens.
"""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Header, ProgressBar, Static


class OpeningScreen(Screen[None]):
    #: Keys wait for the screen that follows (``FlagbridgeApp.on_event``): this one takes none.
    keys_welcome = False

    def __init__(self, path: Path) -> None:
        super().__init__(id="opening")
        self.path = path

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="opening-box") as box:
            box.border_title = "Opening a save"
            yield Static(Text(f"Reading {self.path} and replaying its log..."), id="opening-what")
            yield ProgressBar(total=None, show_eta=False, id="opening-progress")

    def on_mount(self) -> None:
        self.run_worker(self._load, thread=True, exclusive=True, name="open-save")

    def _load(self) -> None:
        """On the worker thread: the load, with each step of its progress sent to the screen's thread."""
        from engine.errors import FlagbridgeError
        from engine.saves import SaveFile

        def progress(done: int, total: int) -> None:
            self.app.call_from_thread(self._progress, done, total)

        try:
            save = SaveFile.load(self.path, progress=progress, hold=True)
        except (FlagbridgeError, OSError, ValueError) as exc:
            self.app.call_from_thread(self._failed, str(exc))
            return
        self.app.call_from_thread(self._opened, save)

    def _progress(self, done: int, total: int) -> None:
        self.query_one("#opening-progress", ProgressBar).update(total=max(total, 1), progress=done)
        self.query_one("#opening-what", Static).update(Text(f"Replaying the log of {self.path}: {done:,} of "
                                                            f"{total:,} events"))

    def _opened(self, save) -> None:
        self.app.pop_screen()
        self.app.open_console(save)

    def _failed(self, reason: str) -> None:
        from .load_error import LoadErrorScreen

        self.app.pop_screen()
        self.app.push_screen(LoadErrorScreen(reason, self.path))
