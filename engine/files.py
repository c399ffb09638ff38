"""Ship and table files: reading them with checks, and telling a file's kind.

A ship file holds one ``[ship]`` table; a table file one ``[table]`` header
and its entries; both name their ruleset, whose fields and table checks
validate them. Every problem is one BadTable line naming the file and entry.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from .errors import BadSave, BadTable, FlagbridgeError
from .ruleset import Ruleset, find_ruleset
from .saves import read_text
from .schema import validate


def read_toml(path: Path) -> dict[str, Any]:
    """Parse a TOML file; bad bytes or syntax become one error naming the file."""
    try:
        text = read_text(Path(path))
    except BadSave as exc:
        raise BadTable(str(exc)) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise BadTable(f"{path}: not valid TOML: {exc}") from None


def _ruleset_of(path: Path, head: dict, where: str) -> Ruleset:
    rid = head.get("ruleset")
    if not isinstance(rid, str):
        raise BadTable(f"{path}: {where}.ruleset: expected a ruleset id, got {rid!r}")
    try:
        return find_ruleset(rid)
    except FlagbridgeError as exc:
        raise BadTable(f"{path}: {where}.ruleset: {exc}") from None


def load_ship(path: Path | str) -> tuple[Ruleset, dict[str, Any]]:
    """A ship file's ruleset and its ship, with the ruleset's defaults filled in."""
    path = Path(path)
    doc = read_toml(path)
    ship = doc.get("ship")
    if not isinstance(ship, dict):
        raise BadTable(f"{path}: expected a [ship] table")
    rs = _ruleset_of(path, ship, "ship")
    if not isinstance(ship.get("name"), str):
        raise BadTable(f"{path}: ship: missing name (text)")
    try:
        body = validate({k: v for k, v in ship.items() if k != "ruleset"}, rs.ship_fields, "ship")
        rs.check_ship(body, "ship")
    except BadTable as exc:
        raise BadTable(f"{path}: {exc}") from None
    return rs, body


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
    """``save``, ``ship`` or ``table``, from the file's top-level tables."""
    doc = read_toml(Path(path))
    if "flagbridge" in doc:
        return "save"
    if "ship" in doc:
        return "ship"
    if "table" in doc:
        return "table"
    raise BadTable(f"{path}: not a Flagbridge file (expected a [flagbridge], [ship] or [table] table)")
