"""Opening the console from the command line: demo copies, saves, new encounters.

Kept apart from ``cli`` so that ``flagbridge check`` never imports Textual.
"""

from __future__ import annotations

import shutil
from datetime import datetime
from pathlib import Path

from engine.errors import FlagbridgeError
from engine.ruleset import find_ruleset
from engine.saves import SaveFile


def fresh_demo_copy(ruleset_id: str, save_dir: Path) -> Path:
    """Copy a ruleset's shipped demo into the save folder; the shipped file is never opened for writing."""
    demo = find_ruleset(ruleset_id).demo_save()
    if demo is None:
        raise FlagbridgeError(f"ruleset {ruleset_id!r} ships no demo encounter")
    save_dir.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    target = save_dir / f"play-{ruleset_id}-{stamp}.toml"
    n = 2
    while target.exists():
        target = save_dir / f"play-{ruleset_id}-{stamp}-{n}.toml"
        n += 1
    shutil.copyfile(demo, target)
    return target


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
    app.run()
    return 0
