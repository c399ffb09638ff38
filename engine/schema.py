"""The one vocabulary for checking plain data read from TOML: table files, ship files, setups.

A ruleset says what a file holds with these checks (a whole number 0..15, one of
these names, a table with a row for every 2D result, entries each checked by a
record of fields) instead of writing checks of its own. Every problem is one
BadTable line naming the place as TOML would write it
(``entries.beam_laser.to_hit.short``), what was expected and what was got, so
the console prints it as it is (STYLE.md: python-chess error types).

A check is called with ``(value, where)`` and returns the value, tables and
lists as fresh copies with defaults filled in. The words:

- plain values: ``WHOLE`` and ``whole(lo, hi)``, ``number``, ``TEXT``, ``FLAG``, ``one_of``;
- lists and tables: ``list_of``, ``NAMES``, ``table_of``, ``entries``, ``every_row``;
- records and files: ``record`` (fields with a default, REQUIRED or ABSENT), ``sections``;
- ``check.worded(...)`` refuses the whole value in a file's own words; ``at`` names a
  place inside another, and ``refuse`` is the one line for a rule of the ruleset's own.

``Field`` and ``validate`` are
the same vocabulary for ship files and setup units, whose fields also carry
help for the console; their messages name the record, then the field
("ship.turrets[0]: count must be at most 3, got 4").
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Callable, Mapping, NoReturn

from .errors import BadTable
from .records import Frozen

HEADER = "table"  # the [table] header of every table file; engine/tables.py checks it


def at(where: str, key: str | int) -> str:
    """The place of ``key`` inside ``where``: a list item as ``[i]``, a key quoted unless bare."""
    if isinstance(key, int):
        return f"{where}[{key}]"
    # bare: letters, digits, "_" and "-" only, asked of the whole text at once (a table check asks
    # this of every key it reads, at every start-up)
    rest = key.replace("_", "").replace("-", "")
    shown = key if key and (not rest or rest.isalnum()) else f'"{key}"'
    return f"{where}.{shown}" if where else shown


def refuse(where: str, expected: str, got: Any) -> NoReturn:
    """The one line every check raises: the place, what was expected, what was got."""
    raise BadTable(f"{where}: expected {expected}, got {got!r}")


class Check(ABC):
    """What a value must be. ``expected`` is the words a message uses for it."""

    expected: str

    @abstractmethod
    def __call__(self, value: Any, where: str) -> Any:
        """The value checked (a normalised copy), or BadTable naming ``where``."""

    def passes(self, value: Any) -> bool:
        """Whether ``value`` would be accepted, for a check built from other checks."""
        try:
            self(value, "")
        except BadTable:
            return False
        return True

    def worded(self, expected: str) -> Check:
        """The same check, refusing the whole value in these words (a file's own phrasing)."""
        return _Worded(self, expected)


class Is(Frozen, Check):
    """A plain value that passes ``ok``: a number, a word, a flag."""

    expected: str
    ok: Callable[[Any], bool]

    def __call__(self, value: Any, where: str) -> Any:
        if not self.ok(value):
            refuse(where, self.expected, value)
        return value

    def passes(self, value: Any) -> bool:
        return bool(self.ok(value))


class _Worded(Frozen, Check):
    check: Check
    expected: str

    def __call__(self, value: Any, where: str) -> Any:
        try:
            return self.check(value, where)
        except BadTable:
            pass
        refuse(where, self.expected, value)

    def passes(self, value: Any) -> bool:
        return self.check.passes(value)


# --- plain values ---------------------------------------------------------------------------

def _is_whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)  # TOML's true is no number


def whole(lo: int | None = None, hi: int | None = None) -> Is:
    """A whole number, within ``lo``..``hi`` when given."""
    if lo is None:
        words = "a whole number" if hi is None else f"a whole number {hi} or less"
    else:
        words = f"a whole number {lo} or more" if hi is None else f"a whole number {lo}..{hi}"
    return Is(words, lambda v: _is_whole(v) and (lo is None or v >= lo) and (hi is None or v <= hi))


def number(lo: float | None = None, above: float | None = None) -> Is:
    """A whole or decimal number (tons, MCr): ``lo`` or more, or else more than ``above``, when given."""
    if lo is not None:
        words, within = f"a number {lo:g} or more", lambda v: v >= lo
    elif above is not None:
        words, within = f"a number above {above:g}", lambda v: v > above
    else:
        words, within = "a number", lambda v: True
    return Is(words, lambda v: (_is_whole(v) or isinstance(v, float)) and within(v))


def one_of(*choices: Any) -> Is:
    """Exactly one of ``choices`` (a family, an effect, a system)."""
    words = "one of " + ", ".join(repr(c) for c in choices)
    return Is(words, lambda v: any(type(v) is type(c) and v == c for c in choices))


WHOLE = whole()
TEXT = Is("text", lambda v: isinstance(v, str))
FLAG = Is("true or false", lambda v: isinstance(v, bool))


# --- lists and tables -----------------------------------------------------------------------

class _ListOf(Frozen, Check):
    each: Check
    length: int | None
    at_least: int
    words: str

    @property
    def expected(self) -> str:
        if self.words:
            return self.words
        if self.length is not None:
            return f"a list of {self.length} items"
        return f"a list of at least {self.at_least} items" if self.at_least else "a list"

    def __call__(self, value: Any, where: str) -> list:
        if (not isinstance(value, list) or len(value) < self.at_least
                or (self.length is not None and len(value) != self.length)):
            refuse(where, self.expected, value)
        return [self.each(item, at(where, i)) for i, item in enumerate(value)]


def list_of(each: Check, length: int | None = None, at_least: int = 0, expected: str = "") -> Check:
    """A list whose items all pass ``each`` (item ``i`` is the place ``where[i]``)."""
    return _ListOf(each, length, at_least, expected)


NAMES = list_of(TEXT).worded("a list of names")


class _TableOf(Frozen, Check):
    each: Check
    keys: tuple[str, ...] | None
    words: str
    may_be_empty: bool

    @property
    def expected(self) -> str:
        return self.words or "a table" + (f" of {'/'.join(self.keys)}" if self.keys else "")

    def __call__(self, value: Any, where: str) -> dict:
        if not isinstance(value, dict) or not (value or self.may_be_empty):
            refuse(where, self.expected, value)
        out = {}
        for k, v in value.items():
            if self.keys is not None and k not in self.keys:
                raise BadTable(f"{where}: unexpected key {k!r} (expected {', '.join(self.keys)})")
            out[k] = self.each(v, at(where, k))
        return out


def table_of(each: Check, keys: tuple[str, ...] | None = None, expected: str = "") -> Check:
    """A table whose values all pass ``each``; only ``keys`` (not all of them) when given."""
    return _TableOf(each, keys, expected, True)


def entries(each: Check) -> Check:
    """A section of entries by id (``[entries.<id>]``): at least one, each passing ``each``."""
    return _TableOf(each, None, "a table of entries", False)


class _EveryRow(Frozen, Check):
    keys: tuple[str, ...]
    each: Check
    span: str
    expected = "a table"

    def __call__(self, value: Any, where: str) -> dict:
        if not isinstance(value, dict):
            refuse(where, self.expected, value)
        for k in value:
            if k not in self.keys:
                raise BadTable(f"{where}: unexpected key {k!r} (expected {self.span})")
        out = {}
        for k in self.keys:
            if k not in value:
                raise BadTable(f"{at(where, k)}: missing (every {self.span} needs a row)")
            out[k] = self.each(value[k], at(where, k))
        return out


def every_row(keys: tuple[str, ...], each: Check, span: str = "") -> Check:
    """A table with exactly ``keys`` (every 2D result, every armor factor), each passing ``each``.

    ``span`` names the keys in messages; by default the first and last ("2..12").
    """
    return _EveryRow(keys, each, span or f"{keys[0]}..{keys[-1]}")


# --- records and files ----------------------------------------------------------------------

REQUIRED = object()  # a record field's default: the field must be given
ABSENT = object()  # a record field's default: optional, and left out of the result when not given


def _unknown_field(where: str, name: str, known: Any) -> NoReturn:
    raise BadTable(f"{where}: unknown field {name!r} (known: {', '.join(known)})")


class _Record(Frozen, Check):
    spec: Mapping[str, tuple[Check, Any]]
    words: str
    others_allowed: bool

    @property
    def expected(self) -> str:
        return self.words or "a table"

    def __call__(self, value: Any, where: str) -> dict:
        if not isinstance(value, dict):
            refuse(where, self.expected, value)
        others = [k for k in value if k not in self.spec]
        if others and not self.others_allowed:
            _unknown_field(where, others[0], self.spec)
        out = {}
        for name, (check, default) in self.spec.items():
            if name in value:  # the place is named only for a field given or missing (a start-up checks hundreds)
                out[name] = check(value[name], at(where, name))
            elif default is REQUIRED:
                raise BadTable(f"{at(where, name)}: missing ({check.expected})")
            elif default is not ABSENT:
                out[name] = copy.copy(default)
        return out | {k: value[k] for k in others}


def record(spec: Mapping[str, tuple[Check, Any]], expected: str = "", others_allowed: bool = False) -> Check:
    """A table of named fields, each ``name: (check, default)``; default REQUIRED or ABSENT, or a value
    filled in. A field the spec does not name is refused unless ``others_allowed``."""
    return _Record(spec, expected, others_allowed)


def sections(doc: dict, spec: Mapping[str, Check]) -> dict:
    """A table file's body: only these top-level sections (besides the header), each checked."""
    extra = [k for k in doc if k != HEADER and k not in spec]
    if extra:
        raise BadTable(f"{extra[0]}: unknown top-level key (expected {', '.join(spec)})")
    return {name: check(doc.get(name), name) for name, check in spec.items()}


# --- fields of ship files and setup units ---------------------------------------------------

KINDS: dict[str, Check] = {
    "int": WHOLE,
    "float": number(),
    "str": TEXT,
    "bool": FLAG,
    "list": Is("a list", lambda v: isinstance(v, list)),
    # a list whose entries a rule looks up by name (weapon ids): a list or table among them cannot be looked up
    "names": Is("a list of names", lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v)),
    "table": Is("a table", lambda v: isinstance(v, dict)),
}


@dataclass(frozen=True)
class Field:
    """One field: its name, kind (a key of KINDS), default (None means required) and limits."""

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


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def quoted(value: Any) -> str:
    """A value as a message shows it: a number thousands of digits long is cut, not printed whole."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**30:
        digits = len(str(abs(value))) if abs(value) < 10**4000 else "thousands of"
        return f"a number {digits} digits long"
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def check_value(value: Any, f: Field, where: str) -> Any:
    """One field's value: its kind, then its limits and choices."""
    kind = KINDS[f.kind]
    if not kind.passes(value):
        raise BadTable(f"{where}: {f.name} must be {kind.expected}, got {quoted(value)}")
    if f.minimum is not None and value < f.minimum:
        raise BadTable(f"{where}: {f.name} must be at least {_number(f.minimum)}, got {quoted(value)}")
    if f.maximum is not None and value > f.maximum:
        raise BadTable(f"{where}: {f.name} must be at most {_number(f.maximum)}, got {quoted(value)}")
    if f.choices and value not in f.choices:
        shown = ", ".join(map(str, f.choices))
        raise BadTable(f"{where}: {f.name} must be one of {shown}, got {quoted(value)}")
    return value


def validate(record: Any, fields: tuple[Field, ...], where: str, allow_extra: bool = True) -> dict:
    """Check a record against its fields; returns a copy with defaults filled in."""
    if not isinstance(record, dict):
        refuse(where, "a table", record)
    out = dict(record)
    for f in fields:
        if f.name not in record:
            if f.required:
                raise BadTable(f"{where}: missing {f.name} ({KINDS[f.kind].expected})")
            out[f.name] = f.default
            continue
        check_value(record[f.name], f, where)
    if not allow_extra:
        known = sorted(f.name for f in fields)
        extra = sorted(set(record) - set(known))
        if extra:
            _unknown_field(where, extra[0], known)
    return out
