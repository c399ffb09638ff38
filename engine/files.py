"""Unit and table files: reading them with checks, and telling a file's kind.

A unit file holds one table named for its unit kind (``[ship]``, ``[person]``,
``[defence]``...); a table file one ``[table]`` header and its entries; both
name their ruleset, whose unit fields and table checks validate them. Every
problem is one BadTable line naming the file and entry.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .errors import BadTable, FlagbridgeError
from .ids import name_problem
from .ruleset import Ruleset, find_ruleset
from .reading import read_toml
from .schema import validate


def _ruleset_of(path: Path, head: dict, where: str) -> Ruleset:
    rid = head.get("ruleset")
    if not isinstance(rid, str):
        raise BadTable(f"{path}: {where}.ruleset: expected a ruleset id, got {rid!r}")
    try:
        return find_ruleset(rid)
    except FlagbridgeError as exc:
        raise BadTable(f"{path}: {where}.ruleset: {exc}") from None


def load_unit(path: Path | str, kind_id: str = "") -> tuple[Ruleset, Any, dict[str, Any]]:
    """A unit file's ruleset, unit kind and unit, with the kind's defaults filled in.

    ``kind_id`` asks for one kind (``"ship"``); otherwise the file's one
    top-level table names it.
    """
    path = Path(path)
    doc = read_toml(path)
    names = [kind_id] if kind_id else [k for k, v in doc.items() if isinstance(v, dict)]
    if len(names) != 1 or not isinstance(doc.get(names[0]), dict):
        want = f"a [{kind_id}] table" if kind_id else "one table naming the unit kind, e.g. [ship]"
        raise BadTable(f"{path}: expected {want}")
    key = names[0]
    unit = doc[key]
    rs = _ruleset_of(path, unit, key)
    kind = rs.catalogue.unit_kinds.get(key)
    if kind is None or not kind.in_setup:
        known = ", ".join(k.id for k in rs.unit_kinds if k.in_setup)
        raise BadTable(f"{path}: {rs.id} has no unit kind {key!r} that a setup holds (known: {known})")
    if why := name_problem(unit.get("name")):
        raise BadTable(f"{path}: {key}: {why}")
    try:
        body = validate({k: v for k, v in unit.items() if k != "ruleset"}, kind.fields, key)
        rs.check_unit(kind, body, key)
    except BadTable as exc:
        raise BadTable(f"{path}: {exc}") from None
    return rs, kind, body


def named_ruleset(path: Path | str, kind_id: str) -> str | None:
    """The ruleset id a unit file names in its ``[kind_id]`` table, read without any other check; None when the
    file, the table or the id cannot be read. A folder of ship files holds every ruleset's: a file that fails
    to load is another ruleset's business only when it names that ruleset."""
    try:
        unit = read_toml(Path(path)).get(kind_id)
    except FlagbridgeError:
        return None
    rid = unit.get("ruleset") if isinstance(unit, dict) else None
    return rid if isinstance(rid, str) else None


def load_ship(path: Path | str) -> tuple[Ruleset, dict[str, Any]]:
    """A ship file's ruleset and its ship, with the ruleset's defaults filled in."""
    rs, _kind, ship = load_unit(path, "ship")
    return rs, ship


def load_table(path: Path | str) -> tuple[Ruleset, str, dict[str, Any]]:
    """A table file's ruleset, table name and checked contents."""
    path = Path(path)
    doc = read_toml(path)
    head = doc.get("table")
    if not isinstance(head, dict):
        raise BadTable(f"{path}: expected a [table] header with ruleset and name")
    rs = _ruleset_of(path, head, "table")
    name = head.get("name")
    if not isinstance(name, str):
        raise BadTable(f"{path}: table.name: expected the table's name, got {name!r}")
    try:
        data = rs.check_table(name, doc)
    except BadTable as exc:
        raise BadTable(f"{path}: {exc}") from None
    return rs, name, data


def kind_of(path: Path | str) -> str:
    """``save``, ``table``, or the unit kind of a unit file (``ship``...), from its top-level tables. A file that
    is no TOML but begins as a save is a save (its reader names the line at fault, as ``open`` and ``log`` do)."""
    try:
        doc = read_toml(Path(path))
    except BadTable:
        from .reading import read_text

        if any(line.strip() == "[flagbridge]" for line in read_text(Path(path))[:4096].splitlines()):
            return "save"
        raise
    if "flagbridge" in doc:
        return "save"
    if "table" in doc:
        return "table"
    units = [k for k, v in doc.items() if isinstance(v, dict) and "ruleset" in v]
    if len(units) == 1:
        return units[0]
    raise BadTable(f"{path}: not a Flagbridge file (expected a [flagbridge], [table] or unit table such as [ship])")
