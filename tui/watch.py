"""``flagbridge watch``: one side's screen, following the save as the console writes it.

It reads and never writes. The console saves by writing a temporary file and
replacing the save with it, so the file's inode changes on every autosave:
this watches the save's folder (``watchfiles``, the operating system's file
notification) and reloads whenever an entry of that name appears or changes.
A reload that fails (the save half-edited by hand, the folder gone) keeps the
last good picture and says why; an undo is a shorter log, read like any other
save; the console quitting and reopening only rewrites the file.

A notification watches the folder it was set on, not its path: a folder
deleted and made again (a sync tool, a restore from a backup) is a new folder
the old watch never hears from. So the watch also looks, once every
``CHECK_MS``, at the folder (a new one, or none, starts the watch again on
what is there) and at the save itself (another inode, time or size than the
one last read is read again), which also catches a change made in the moment
between a folder coming back and its watch starting.
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from pathlib import Path

from textual.app import App
from textual.binding import Binding

from engine.errors import FlagbridgeError
from engine.saves import SaveFile
from engine.sideview import Picture, picture

#: How long file notifications are gathered before one reload (ms): an autosave is one replace.
DEBOUNCE_MS = 150
RETRY_S = 2.0
#: How often the folder and the save are looked at between notifications (ms).
CHECK_MS = 1000


def identity(path: Path) -> tuple[int, ...] | None:
    """What tells one folder from another made at the same path: its device and inode (None: there is none)."""
    try:
        found = path.stat()
    except OSError:
        return None
    return found.st_dev, found.st_ino


def signature(path: Path) -> tuple[int, ...] | None:
    """What changes when the save is written or replaced: its inode, modification time and size (None: no file)."""
    try:
        found = path.stat()
    except OSError:
        return None
    return found.st_dev, found.st_ino, found.st_mtime_ns, found.st_size


def side_picture(path: Path, side: str) -> Picture:
    """Load the save and work out what ``side`` sees; one-line errors name the file."""
    enc = SaveFile.load(path).encounter
    sides = [s["id"] for s in enc.setup.sides]
    if side not in sides:
        raise FlagbridgeError(f"{path}: no side {side!r} in this fight (sides: {', '.join(sides)})")
    return picture(enc, side)


def _is_save(path: Path):
    name = path.name

    def keep(_change: object, changed: str) -> bool:
        return Path(changed).name == name

    return keep


class WatchApp(App[None]):
    """The players' screen for one side of one save (read-only: quitting is the only key)."""

    TITLE = "Flagbridge"
    ENABLE_COMMAND_PALETTE = False
    COMMANDS: set = set()
    BINDINGS = [Binding("q", "quit", "Quit", id="quit"),
                Binding("ctrl+q", "quit", "Quit", show=False, priority=True, id="quit-anywhere")]

    def __init__(self, path: Path, side: str, first: Picture | None = None) -> None:
        super().__init__()
        self.path = Path(path)
        self.side = side
        self.read = signature(self.path)  # the save as last read, good or not (before reading it: a change then
        self.first = first or side_picture(self.path, side)  # is read again)
        self.reloads = 0  # pictures shown after the first (tests wait on it)

    def get_default_screen(self):
        from .screens.watch import WatchScreen

        self.title = self.first.title
        self.sub_title = f"{self.first.view.name}: the players' view"
        return WatchScreen(self.first, self._status("following"))

    def on_mount(self) -> None:
        self.run_worker(self._follow(), exclusive=True, group="follow")

    def _status(self, what: str) -> str:
        return f"{what} {self.path} · read-only · {datetime.now().strftime('%H:%M:%S')}"

    async def _follow(self) -> None:
        from watchfiles import awatch

        folder = self.path.parent.resolve()
        lost = False
        while True:
            watched = identity(folder)
            if watched is None:  # the folder is gone: the last picture stays up, and the folder is looked for
                lost = True
                self.screen_status(f"showing the last good save: {folder}: the folder is gone; looking for it "
                                   f"every {RETRY_S:g} s")
                await asyncio.sleep(RETRY_S)
                continue
            if lost:  # back: read what it holds (or say the save is not in it yet)
                lost = False
                await self.reload()
            else:  # what the folder holds now, before its notifications begin
                await self.reload_if_changed()
            try:
                async for changes in awatch(folder, watch_filter=_is_save(self.path), debounce=DEBOUNCE_MS,
                                            step=50, recursive=False, rust_timeout=CHECK_MS, yield_on_timeout=True):
                    if identity(folder) != watched:  # deleted, or deleted and made again: watch what is there
                        break
                    if changes:
                        await self.reload()
                    else:
                        await self.reload_if_changed()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the watch itself failed: say so, and look again in a moment
                self.screen_status(f"not following {folder}: {type(exc).__name__}: {exc}")
                await asyncio.sleep(RETRY_S)
                await self.reload()

    def screen_status(self, text: str) -> None:
        from .screens.watch import WatchScreen

        if isinstance(self.screen, WatchScreen):
            self.screen.set_status(text)

    async def reload_if_changed(self) -> None:
        """Read the save again if it is not the one last read (another inode, time or size, or gone or back)."""
        if signature(self.path) != self.read:
            await self.reload()

    async def reload(self) -> None:
        """Read the save again and show it; a save that will not load leaves the last picture up."""
        from .screens.watch import WatchScreen

        self.read = signature(self.path)
        try:
            shown = await asyncio.to_thread(side_picture, self.path, self.side)
        except (FlagbridgeError, OSError) as exc:
            self.screen_status(f"showing the last good save: {exc}")
            return
        if isinstance(self.screen, WatchScreen):
            self.screen.show(shown, self._status("following"))
            self.reloads += 1


def run_watch(path: Path, side: str) -> int:
    """Check the save and the side first (a one-line error and exit 2 from the CLI), then show it."""
    first = side_picture(path, side)
    WatchApp(path, side, first).run()
    return 0
