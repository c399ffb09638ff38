"""Unit and side ids: made from a name in the game master's own letters, and checked wherever one is read.

An id is the key a unit is filed under (``[setup.ships."кровавый-клинок"]``), a part of every path a
correction names (``ships.кровавый-клинок.hits``) and half of a pair's key (``"a|b"``), so the game master
reads it in the correction form, the log and the file. It keeps the name's letters and digits, of any script,
lowercased, with a hyphen between words ("Кровавый Клинок" -> ``кровавый-клинок``). It never holds what would
cut a path or a pair apart (``.``, ``[``, ``|``), a space, a quote, or a character the screen does not show.
"""

from __future__ import annotations

import unicodedata
from typing import Any, Collection

#: Besides letters, digits and marks of any script, the characters an id may hold.
JOINERS = "-_"
RULE = "an id is letters and digits of any script, with '-' or '_' between them"


def _mark(c: str) -> bool:
    """An accent or vowel sign, which belongs to the letter before it (Devanagari's vowel signs are marks)."""
    return unicodedata.category(c)[0] == "M"


def unit_id(name: str, taken: Collection[str], fallback: str) -> str:
    """An id for a unit called ``name``, not among ``taken``: its words lowercased and joined by hyphens, or
    ``fallback`` (the kind of unit: ``ship``) when it has no letter or digit; ``-2``, ``-3``... when taken."""
    words = [""]
    for c in unicodedata.normalize("NFC", name.lower()):  # "E" and an accent typed apart: one letter, as typed whole
        if c.isalnum() or (_mark(c) and words[-1]):
            words[-1] += c
        elif words[-1]:
            words.append("")
    base = "-".join(w for w in words if w) or fallback
    uid, n = base, 2
    while uid in taken:
        uid, n = f"{base}-{n}", n + 1
    return uid


def id_problem(uid: Any) -> str:
    """What is wrong with an id read from a file, in words ("" when nothing is)."""
    if not isinstance(uid, str):
        return f"an id must be text, got {uid!r}"
    if not uid:
        return f"the id is empty: {RULE}"
    odd = next((c for c in uid if not (c.isalnum() or _mark(c) or c in JOINERS)), None)
    shown = f'"{_escaped(uid)}"'
    if odd is not None:
        said = "a space" if odd == " " else repr(odd) if odd.isprintable() else f"'{_escaped(odd)}'"
        return f"the id {shown} holds {said}: {RULE}"
    if _mark(uid[0]):
        return f"the id {shown} begins with an accent, which has no letter to sit on"
    if not unicodedata.is_normalized("NFC", uid):
        return (f"the id {shown} has an accent written apart from its letter: write each accented letter as one "
                "character, as a keyboard types it")
    return ""


def name_problem(name: Any) -> str:
    """What is wrong with a unit's name, in words ("" when nothing is): every list, form and log line shows the unit
    by it, so it must be text with something besides spaces in it."""
    if not isinstance(name, str):
        return "missing name (text)"
    if not name.strip():
        return "name is empty: give the unit a name"
    return ""


def id_place(uid: str) -> str:
    """An id as a message names its place: bare when it is a good one, else quoted and ``_escaped``."""
    return uid if not id_problem(uid) else f'"{_escaped(uid)}"'


def _escaped(text: str) -> str:
    """``text`` with every character the screen would not show (a control, an invisible space, an accent with no
    letter before it) written as its TOML escape, and quotes and backslashes escaped as TOML does."""
    out = []
    for c in text:
        if c in '"\\':
            out.append("\\" + c)
        elif c.isprintable() and not (_mark(c) and not out):
            out.append(c)
        else:
            out.append(f"\\u{ord(c):04x}" if ord(c) < 0x10000 else f"\\U{ord(c):08x}")
    return "".join(out)
