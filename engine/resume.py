"""Carry a fight on from its saved state when its log no longer replays.

A rules fix can change what a logged event means: a roll the rules no longer ask, an action they now refuse.
Such a save fails to load ("the log does not replay"), and is never changed by that. ``resume`` is the game
master's way on: the fight starts again from the ``[state]`` the file holds (``Setup.start``), with an empty
log, so undo stops there; the file as it was is kept beside it, whole, with its log. Only a log that does not
replay is resumed, or one that replays short of its ``[state]`` (values there the log never made: events lost, a
file cut short after its state); a hand edit of a value the log has is ``keep-edits``'s, and any other fault is the
file's to mend.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import replace
from pathlib import Path

from .atomic import write_atomic
from .encounter import Encounter
from .errors import BadSave, FlagbridgeError, LogDoesNotReplay, StateBeyondLog
from .reading import NotToml, one_line, parse_toml, read_text
from . import toml_text
from .saves import SaveFile, kept_texts, read_setup, with_updated, writable_texts
from .setup import now


_SEED_LINE = re.compile(r"^seed[ \t]*=[ \t]*-?[0-9_]+[ \t]*$", re.M)


def backup_path(path: Path) -> Path:
    """``fight.before-resume.toml`` beside it (``-2``, ``-3`` ... when one is there already)."""
    n = 1
    while True:
        out = path.with_name(f"{path.stem}.before-resume{'' if n == 1 else f'-{n}'}{path.suffix}")
        if not out.exists():
            return out
        n += 1


def earlier_log(path: Path | str) -> Path | None:
    """The copy ``resume`` kept of this save as it was (the newest when it was resumed more than once), if it is
    still beside it: where the log before the resume point can be read."""
    path = Path(path)
    name = re.compile(rf"{re.escape(path.stem)}\.before-resume(-[0-9]+)?{re.escape(path.suffix)}")
    try:
        found = [(p.stat().st_mtime, int((m.group(1) or "-1")[1:]), p) for p in path.parent.iterdir()
                 if (m := name.fullmatch(p.name))]
    except OSError:  # a folder that cannot be listed, a copy gone meanwhile: nothing to point to
        return None
    # the latest resume's: its copy holds the file as last played (``copy2`` keeps that time), then its number
    return max(found)[2] if found else None


def resume(path: Path | str) -> tuple[Path, int, LogDoesNotReplay | StateBeyondLog]:
    """Resume the save at ``path`` from its saved state. Answers the copy of the file as it was, the events its
    log held, and why the log could not be played on: the error loading it raised (it does not replay, or its
    [state] holds what it never made). Raises BadSave, with nothing written, when the file opens as it is or
    fails for another reason."""
    path = Path(path)
    try:
        SaveFile.load(path)
    except (LogDoesNotReplay, StateBeyondLog) as exc:
        why = exc
    else:
        raise BadSave(f"{path}: opens as it is: nothing to resume")
    try:
        text = read_text(path)
        doc = parse_toml(text)
        setup, rs = read_setup(doc, None)
    except (NotToml, FlagbridgeError) as exc:
        raise BadSave(f"{path}: {one_line(exc)}") from None
    saved = doc.get("state")
    if not isinstance(saved, dict):
        raise BadSave(f"{path}: state: no saved state to resume from")
    events = doc.get("events", [])
    try:
        # a new seed: the built-in dice after the resume do not repeat the ones the fight began with
        seed = (setup.seed * 1_000_003 + len(events) + 1) % 2**63 if isinstance(events, list) else setup.seed + 1
        enc = Encounter(replace(setup, start=saved, seed=seed), rs, folder=path.parent)
    except FlagbridgeError as exc:
        raise BadSave(f"{path}: the saved state cannot be played on: {one_line(exc)}") from None
    header, setup_text = writable_texts(doc, *kept_texts(text))
    if header is not None:  # the new seed in the header the game master wrote (its comments stay), updated now
        header, found = _SEED_LINE.subn(f"seed = {seed}", header, count=1)
        header = with_updated(header, now()) if found else None
    if setup_text is not None and setup.start is None:  # the game master's comments and layout stay
        setup_text = setup_text.rstrip("\n") + "\n\n" + toml_text.table(["setup", "start"], saved) + "\n"
    else:
        setup_text = None  # written anew, with the state it resumes from
    kept = backup_path(path)
    try:
        shutil.copy2(path, kept)  # the file as it was, log and all, before anything is written over it
        SaveFile(path, enc, header, setup_text).save()
    except OSError as exc:
        raise BadSave(f"{path}: cannot write the resumed fight: {exc.strerror or exc}") from None
    try:
        SaveFile.load(path)  # what was written opens: else say so now, not at the next game night
    except FlagbridgeError as exc:  # and leave the file as it was: a refused resume changes nothing
        write_atomic(path, [kept.read_bytes()], backup=False)
        kept.unlink()
        raise BadSave(f"{path}: the resumed fight would not open ({one_line(exc)}); the file is left as it "
                      "was") from None
    return kept, len(events) if isinstance(events, list) else 0, why
