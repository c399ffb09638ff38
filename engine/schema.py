"""Field specifications for ship files, tables and setups, and their validation.

A ruleset lists its fields as data; validation turns every problem into one
message naming the place (file and entry) and what was expected.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import BadTable

_KINDS = {
    "int": (int,),
    "float": (int, float),
    "str": (str,),
    "bool": (bool,),
    "list": (list,),
    "table": (dict,),
}
_WORDS = {
    "int": "a whole number",
    "float": "a number",
    "str": "text",
    "bool": "true or false",
    "list": "a list",
    "table": "a table",
}


@dataclass(frozen=True)
class Field:
    """One field: its name, kind, default (None means required) and limits."""

    name: str
    kind: str
    default: Any = None
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[Any, ...] = ()
    help: str = ""

    @property
    def required(self) -> bool:
        return self.default is None


def check_value(value: Any, f: Field, where: str) -> Any:
    kinds = _KINDS[f.kind]
    ok = isinstance(value, kinds) and not (f.kind in ("int", "float") and isinstance(value, bool))
    if not ok:
        raise BadTable(f"{where}: {f.name} must be {_WORDS[f.kind]}, got {value!r}")
    if f.minimum is not None and value < f.minimum:
        raise BadTable(f"{where}: {f.name} must be at least {f.minimum:g}, got {value!r}")
    if f.maximum is not None and value > f.maximum:
        raise BadTable(f"{where}: {f.name} must be at most {f.maximum:g}, got {value!r}")
    if f.choices and value not in f.choices:
        shown = ", ".join(map(str, f.choices))
        raise BadTable(f"{where}: {f.name} must be one of {shown}, got {value!r}")
    return value


def validate(record: Any, fields: tuple[Field, ...], where: str, allow_extra: bool = True) -> dict:
    """Check a record against its fields; returns a copy with defaults filled in."""
    if not isinstance(record, dict):
        raise BadTable(f"{where}: expected a table, got {record!r}")
    out = dict(record)
    for f in fields:
        if f.name not in record:
            if f.required:
                raise BadTable(f"{where}: missing {f.name} ({_WORDS[f.kind]})")
            out[f.name] = f.default
            continue
        check_value(record[f.name], f, where)
    if not allow_extra:
        known = {f.name for f in fields}
        extra = sorted(set(record) - known)
        if extra:
            raise BadTable(f"{where}: unknown field {extra[0]!r} (known: {', '.join(sorted(known))})")
    return out
