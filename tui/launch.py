"""Opening the console from the command line: demo copies, saves, new encounters.

Kept apart from ``cli`` so that ``flagbridge check`` never imports Textual.
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path

from engine.errors import FlagbridgeError
from engine.saves import SaveFile

from .demos import fresh_demo_copy


#: A save at least this big opens with a progress bar on the terminal: the first open of a long fight (no
#: replay cache beside it yet) replays every event, seconds for tens of thousands of a fleet's.
PROGRESS_FROM_BYTES = 1 << 20


def long_save(path: Path) -> bool:
    """A save big enough to open behind a progress bar (an unreadable path is not: its load says why)."""
    try:
        return path.stat().st_size >= PROGRESS_FROM_BYTES
    except OSError:
        return False


def load_showing_progress(path: Path, keep_edits: bool = False) -> SaveFile:
    """``SaveFile.load`` for a console (the save held for this process), with a bar of the events replayed when
    the save is long and the terminal shows it (the bar is gone once the console opens)."""
    if not long_save(path) or not sys.stdout.isatty():
        return SaveFile.load(path, keep_edits=keep_edits, hold=True)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("opening {task.description}", markup=False), BarColumn(), MofNCompleteColumn(),
               TextColumn("events"), TimeElapsedColumn())
    with Progress(*columns, transient=True) as bar:
        task = bar.add_task(path.name, total=None)  # a pulse while the file is read; then the replay
        return SaveFile.load(path, keep_edits=keep_edits, hold=True,
                             progress=lambda done, total: bar.update(task, completed=done, total=total))


def run(command: str, path: Path | None = None, save_dir: Path = Path("saves"), ruleset: str = "classic-hg",
        keep_edits: bool = False) -> int:
    from .app import FlagbridgeApp

    if command == "demo":
        path = fresh_demo_copy(ruleset, save_dir)
        app = FlagbridgeApp(SaveFile.load(path, hold=True), save_dir=save_dir)
    elif command == "open":
        try:
            save = load_showing_progress(path, keep_edits)
        except FlagbridgeError as exc:
            app = FlagbridgeApp(save_dir=save_dir, load_error=str(exc), error_path=path)
        else:
            app = FlagbridgeApp(save, save_dir=path.parent)
    elif command == "new":
        app = FlagbridgeApp(save_dir=save_dir, start="new")
    else:
        app = FlagbridgeApp(save_dir=save_dir, start="start")
    # Everything made so far (the code, the tables, the fight just loaded) lives as long as the app: kept out
    # of the collector's passes, the full one Textual's start-up would set off (15 ms over them) has
    # only the app's own objects to look at, and so do the ones after keys.
    gc.freeze()
    try:
        app.run()
    finally:
        gc.unfreeze()  # the session is over: what it kept is the collector's again (a test's process goes on)
    if app.save is not None:
        app.save.release()  # another console may open it now
        print(f"The fight is saved in {app.save.path}")
    elif command == "open" and not app.return_code:
        return 2  # the file did not open, and no other was opened from the error screen: as check says, rc 2
    return app.return_code or 0
