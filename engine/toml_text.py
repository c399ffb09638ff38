"""A small, fast TOML writer for the parts of a save we generate ourselves.

DESIGN.md "Saves" measured tomlkit as far too slow to serialize thousands of
events, so the state and each event are written here, once, as plain text that
``tomllib`` reads back to equal values. Tables become ``[headers]``; lists are
inline arrays (one item a line when they hold tables).

The console writes the whole ``[state]`` after every key, so this is on the
path of every key press: values are told apart by their exact type first
(plain data, as ``check_plain`` allows), and the texts of keys and short
strings, which a fight repeats in every save (ids, names, steps), are kept.
"""

from __future__ import annotations

import math
import re
from datetime import date, datetime, time
from typing import Any

_BARE = re.compile(r"[A-Za-z0-9_-]+")  # used with fullmatch: "$" would let a final newline through
#: Texts already written, by key or string. Bounded: a long fight's notes are not kept for ever.
_KEYS: dict[str, str] = {}
_STRINGS: dict[str, str] = {}
_KEPT_MAX = 20_000
_KEPT_LEN = 120  # strings longer than this are written afresh each time


def key(k: str) -> str:
    text = _KEYS.get(k)
    if text is None:
        text = k if _BARE.fullmatch(k) else _string(k)
        if len(_KEYS) < _KEPT_MAX and type(k) is str:
            _KEYS[k] = text
    return text


def _string(s: str) -> str:
    # JSON's escapes are valid in TOML basic strings; DEL must be escaped too. (json is imported here:
    # a start-up writes no string, and the import is a fair part of the engine's.)
    import json

    return json.dumps(s, ensure_ascii=False).replace("\x7f", "\\u007f")


def string(s: str) -> str:
    text = _STRINGS.get(s)
    if text is None:
        text = _string(s)
        if len(s) <= _KEPT_LEN and len(_STRINGS) < _KEPT_MAX and type(s) is str:
            _STRINGS[s] = text
    return text


def value(v: Any, indent: str = "") -> str:
    t = type(v)
    if t is str:
        return string(v)
    if t is int:
        return str(v)
    if t is bool:
        return "true" if v else "false"
    if t is dict:
        return _inline_table(v)
    if t is list:
        return _array(v, indent)
    return _other(v, indent)


def _inline_table(v: dict) -> str:
    if not v:
        return "{}"
    return "{ " + ", ".join([f"{key(k)} = {value(x)}" for k, x in v.items()]) + " }"


def _array(v: list | tuple, indent: str) -> str:
    if not v:
        return "[]"
    for x in v:
        if isinstance(x, (dict, list, tuple)):
            inner = indent + "    "
            return "[\n" + "".join([f"{inner}{value(x, inner)},\n" for x in v]) + indent + "]"
    return "[" + ", ".join([value(x) for x in v]) + "]"


def _other(v: Any, indent: str) -> str:
    """Every other value, by ``isinstance`` (subclasses, floats, times, tuples)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return _string(v)
    if isinstance(v, datetime):
        return v.isoformat().replace("+00:00", "Z")
    if isinstance(v, (date, time)):
        return v.isoformat()
    if isinstance(v, dict):
        return _inline_table(v)
    if isinstance(v, (list, tuple)):
        return _array(v, indent)
    raise TypeError(f"cannot write {type(v).__name__} to TOML")


def table(path: list[str], body: dict[str, Any], array: bool = False) -> str:
    """``[a.b]`` (or ``[[a.b]]``) with scalars and lists first, then sub-tables."""
    name = ".".join([key(p) for p in path])
    out = [f"[[{name}]]" if array else f"[{name}]"]
    subs = []
    for k, v in body.items():
        if isinstance(v, dict) and v:
            subs.append((k, v))
        else:
            out.append(f"{key(k)} = {value(v)}")
    # a table holding only sub-tables needs no header of its own
    text = "" if (len(out) == 1 and subs and not array) else "\n".join(out) + "\n"
    for k, v in subs:
        text += ("\n" if text else "") + table(path + [k], v)
    return text


def event(fields: dict[str, Any]) -> str:
    """One ``[[events]]`` entry; nested values stay inline so it is one block."""
    lines = ["[[events]]"]
    lines += [f"{key(k)} = {value(v)}" for k, v in fields.items()]
    return "\n".join(lines) + "\n\n"
