"""A small, fast TOML writer for the parts of a save we generate ourselves.

DESIGN.md "Saves" measured tomlkit as far too slow to serialize thousands of
events, so the state and each event are written here, once, as plain text that
``tomllib`` reads back to equal values. Tables become ``[headers]``; lists are
inline arrays (one item a line when they hold tables).
"""

from __future__ import annotations

import json
import math
import re
from datetime import date, datetime, time
from typing import Any

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def key(k: str) -> str:
    return k if _BARE.match(k) else string(k)


def string(s: str) -> str:
    # JSON's escapes are valid in TOML basic strings; DEL must be escaped too.
    return json.dumps(s, ensure_ascii=False).replace("\x7f", "\\u007f")


def value(v: Any, indent: str = "") -> str:
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
        return string(v)
    if isinstance(v, datetime):
        return v.isoformat().replace("+00:00", "Z")
    if isinstance(v, (date, time)):
        return v.isoformat()
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{key(k)} = {value(x)}" for k, x in v.items()) + " }" if v else "{}"
    if isinstance(v, (list, tuple)):
        if not v:
            return "[]"
        if any(isinstance(x, (dict, list, tuple)) for x in v):
            inner = indent + "    "
            return "[\n" + "".join(f"{inner}{value(x, inner)},\n" for x in v) + indent + "]"
        return "[" + ", ".join(value(x) for x in v) + "]"
    raise TypeError(f"cannot write {type(v).__name__} to TOML")


def table(path: list[str], body: dict[str, Any], array: bool = False) -> str:
    """``[a.b]`` (or ``[[a.b]]``) with scalars and lists first, then sub-tables."""
    name = ".".join(key(p) for p in path)
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
