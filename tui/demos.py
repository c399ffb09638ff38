"""Demo encounters: a fresh copy of a ruleset's shipped demo to play, never the shipped file itself.

Kept apart from ``launch`` (which opens the app) so that the start screen can
make a copy without importing the app that imports it.
"""

from __future__ import annotations

import shutil
from datetime import datetime
from pathlib import Path

from engine.errors import FlagbridgeError
from engine.ruleset import find_ruleset


def fresh_demo_copy(ruleset_id: str, save_dir: Path) -> Path:
    """Copy a ruleset's shipped demo into the save folder; the shipped file is never opened for writing."""
    demo = find_ruleset(ruleset_id).demo_save()
    if demo is None:
        raise FlagbridgeError(f"ruleset {ruleset_id!r} ships no demo encounter")
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    target = save_dir / f"play-{ruleset_id}-{stamp}.toml"
    n = 2
    while target.exists():
        target = save_dir / f"play-{ruleset_id}-{stamp}-{n}.toml"
        n += 1
    try:
        save_dir.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(demo, target)
    except OSError as exc:  # a read-only folder, a full disk: said where the game master can act on it
        try:
            target.unlink(missing_ok=True)  # no half copy left to open later
        except OSError:
            pass
        raise FlagbridgeError(f"{save_dir}: cannot copy the demo into this folder ({exc.strerror or exc})") from None
    return target
