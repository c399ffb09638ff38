"""Saves opened lately, from any folder: kept in the user's config folder so the start screen lists them,
with the unit each had selected when it was closed, so the console opens on it again.

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


def _read() -> tuple[list[Path], dict[str, str]]:
    """The list as written (saves newest first) and the unit each save last had selected."""
    try:
        doc = parse_toml(recent_file().read_text(encoding="utf-8"))  # its reader is loaded at start-up already
    except (OSError, ValueError, FlagbridgeError):
        return [], {}
    paths = [Path(p) for p in doc.get("saves", []) if isinstance(p, str)]
    chosen = doc.get("selected", {})
    chosen = {k: v for k, v in chosen.items() if isinstance(v, str)} if isinstance(chosen, dict) else {}
    return paths, chosen


def _write(paths: list[Path], chosen: dict[str, str]) -> None:
    """The list written back (atomically enough for a convenience file); failures are ignored."""
    try:
        paths = paths[:KEEP]
        kept = {str(p): chosen[str(p)] for p in paths if str(p) in chosen}
        target = recent_file()
        target.parent.mkdir(parents=True, exist_ok=True)
        body = "saves = [\n" + "".join(f"    {value(str(p))},\n" for p in paths) + "]\n"
        if kept:
            body += "\n# The unit each save had selected when it was closed.\n[selected]\n"
            body += "".join(f"{value(k)} = {value(v)}\n" for k, v in kept.items())
        temp = target.with_suffix(".tmp")
        temp.write_text("# Saves Flagbridge opened lately, newest first.\n" + body, encoding="utf-8")
        temp.replace(target)
    except (OSError, ValueError):
        pass


def recent_paths() -> list[Path]:
    """The saves opened lately, newest first, that still exist."""
    return [p for p in _read()[0] if p.is_file()]


def remember(path: Path) -> None:
    """Put a save first in the list."""
    try:
        path = path.resolve()
    except (OSError, ValueError):
        return
    paths, chosen = _read()
    _write([path] + [p for p in paths if p != path and p.is_file()], chosen)


def selected_unit(path: Path) -> str:
    """The unit this save had selected when the console last closed it ("" when none is known)."""
    try:
        return _read()[1].get(str(path.resolve()), "")
    except (OSError, ValueError):
        return ""


def remember_selected(path: Path, unit: str) -> None:
    """Keep the unit selected in this save, for the next time it is opened (the save itself holds the fight only)."""
    try:
        path = path.resolve()
    except (OSError, ValueError):
        return
    paths, chosen = _read()
    if chosen.get(str(path)) == unit:
        return
    if path not in paths:
        paths.insert(0, path)
    chosen[str(path)] = unit
    _write(paths, chosen)
