"""Opening the console from the command line: demo copies, saves, new encounters.

Kept apart from ``cli`` so that ``flagbridge check`` never imports Textual.
"""

from __future__ import annotations

import gc
from pathlib import Path

from engine.errors import FlagbridgeError
from engine.saves import SaveFile

from .demos import fresh_demo_copy


def run(command: str, path: Path | None = None, save_dir: Path = Path("saves"), ruleset: str = "classic-hg",
        keep_edits: bool = False) -> int:
    from .app import FlagbridgeApp

    if command == "demo":
        path = fresh_demo_copy(ruleset, save_dir)
        app = FlagbridgeApp(SaveFile.load(path), save_dir=save_dir)
    elif command == "open":
        try:
            save = SaveFile.load(path, keep_edits=keep_edits)
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
        print(f"The fight is saved in {app.save.path}")
    return app.return_code or 0
