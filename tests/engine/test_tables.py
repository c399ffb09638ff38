"""A ruleset's table set: the common header, replacement files, one-line errors, re-reading."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import BadTable
from engine.tables import TableSet, table_files


def _body(doc: dict) -> dict:
    rows = doc.get("rows")
    if not isinstance(rows, dict) or not all(isinstance(v, int) for v in rows.values()):
        raise BadTable(f"rows: expected whole numbers, got {rows!r}")
    return {"rows": rows}


def _write(folder: Path, name: str, rows: str, ruleset: str = "toy", shipped: str = "true") -> Path:
    path = folder / f"{name}.toml"
    path.write_text(f'[table]\nruleset = "{ruleset}"\nname = "{name}"\nshipped_default = {shipped}\n\n[rows]\n{rows}\n')
    return path


@pytest.fixture
def tables(tmp_path: Path) -> TableSet:
    shipped = tmp_path / "shipped"
    shipped.mkdir()
    _write(shipped, "to_hit", "laser = 8")
    return TableSet("toy", shipped, {"to_hit": _body}, lambda docs, paths: docs["to_hit"]["rows"])


def test_shipped_and_replaced(tables: TableSet, tmp_path: Path) -> None:
    assert tables.load() == {"laser": 8}
    mine = _write(tmp_path, "to_hit", "laser = 10", shipped="false")
    assert tables.load({"to_hit": str(mine)}) == {"laser": 10}
    mine.write_text(mine.read_text().replace("laser = 10", "laser = 11  "))
    assert tables.load({"to_hit": str(mine)}) == {"laser": 11}  # an edited file is read again


@pytest.mark.parametrize("rows, ruleset, message", [
    ('laser = "x"', "toy", "rows: expected whole numbers"),
    ("laser = 8", "other", "table.ruleset: expected 'toy', got 'other'"),
])
def test_a_bad_replacement_is_one_line_naming_the_file(tables: TableSet, tmp_path: Path, rows, ruleset, message) -> None:
    bad = _write(tmp_path, "to_hit", rows, ruleset=ruleset)
    with pytest.raises(BadTable) as err:
        tables.load({"to_hit": str(bad)})
    assert str(err.value).startswith(str(bad)) and message in str(err.value) and "\n" not in str(err.value)


def test_unknown_table_and_missing_file(tables: TableSet, tmp_path: Path) -> None:
    with pytest.raises(BadTable, match="tables.shields: toy has no table 'shields'"):
        tables.load({"shields": "x.toml"})
    with pytest.raises(BadTable, match="no such table file"):
        tables.load({"to_hit": str(tmp_path / "nope.toml")})


def test_setup_options_must_name_files() -> None:
    assert table_files({"tables": {"to_hit": "a.toml"}}) == {"to_hit": "a.toml"}
    with pytest.raises(BadTable, match="setup.options.tables"):
        table_files({"tables": {"to_hit": 3}})


def test_what_a_rule_keeps_from_its_tables_is_kept_for_those_tables_alone() -> None:
    """``kept_for``: one book for each loaded tables object; a book left under the same id by tables
    since freed (an id Python gave again) is never handed to the new ones."""
    from engine.tables import kept_for

    store: dict = {}
    first, second = {"laser": 8}, {"laser": 10}
    kept_for(store, first)["laser"] = "8+"
    assert kept_for(store, first) == {"laser": "8+"} and kept_for(store, second) == {}
    store[id(second)] = ({"laser": 8}, {"laser": "8+"})  # the book of tables that had this id before
    assert kept_for(store, second) == {}
