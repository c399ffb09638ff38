"""Saves opened lately, from any folder: kept in the user's config folder so the start screen lists them.

The list is a small TOML file (``recent.toml`` in ``$XDG_CONFIG_HOME/flagbridge``,
``~/.config/flagbridge`` when that is not set). It is a convenience: a list that
cannot be read or written is ignored and never stops a fight from opening.
"""

from __future__ import annotations

import os
from pathlib import Path

from engine.errors import FlagbridgeError
from engine.reading import parse_toml
from engine.toml_text import value

KEEP = 20


def recent_file() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "flagbridge" / "recent.toml"


def recent_paths() -> list[Path]:
    """The saves opened lately, newest first, that still exist."""
    try:
        doc = parse_toml(recent_file().read_text(encoding="utf-8"))  # its reader is loaded at start-up already
        paths = [Path(p) for p in doc.get("saves", []) if isinstance(p, str)]
    except (OSError, ValueError, FlagbridgeError):
        return []
    return [p for p in paths if p.is_file()]


def remember(path: Path) -> None:
    """Put a save first in the list (written atomically enough for a convenience file)."""
    try:
        path = path.resolve()
        paths = [path] + [p for p in recent_paths() if p != path]
        target = recent_file()
        target.parent.mkdir(parents=True, exist_ok=True)
        body = "saves = [\n" + "".join(f"    {value(str(p))},\n" for p in paths[:KEEP]) + "]\n"
        temp = target.with_suffix(".tmp")
        temp.write_text("# Saves Flagbridge opened lately, newest first.\n" + body, encoding="utf-8")
        temp.replace(target)
    except (OSError, ValueError):
        pass
