"""A ruleset's tables: TOML files with a common header, replaceable one by one, checked once.

Every table file starts with ``[table]``: ``ruleset``, ``name``, ``shipped_default``
(true for the defaults a ruleset ships) and an optional ``note`` on where the
numbers come from (DESIGN.md: tables are data). A game master points an
encounter at replacement files by table name. Each file is read and checked
once per version on disk (path, modification time, size); the built set is
cached the same way. Every problem is one BadTable line naming the file and
the entry. The ruleset brings the checks of each table's body and turns the
checked files into the object its rules read.
"""

from __future__ import annotations

import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Generic, TypeVar

from .errors import BadTable
from .reading import read_toml

T = TypeVar("T")
HEADER_KEYS = ("ruleset", "name", "shipped_default", "note")


@dataclass
class TableSet(Generic[T]):
    """The tables of one ruleset: where the shipped files are, how to check and build them."""

    ruleset_id: str
    folder: Path
    #: table name -> check of a parsed file's body (everything but ``[table]``); returns it normalised
    checkers: dict[str, Callable[[dict], dict]]
    #: checked files by name, and the path each came from -> what the rules read
    build: Callable[[dict[str, dict], dict[str, Path]], T]
    #: references between tables (e.g. a weapon naming a program); raises BadTable
    cross_check: Callable[[dict[str, dict], dict[str, Path]], None] | None = None
    _checked: dict[tuple, dict] = field(default_factory=dict, repr=False)
    _sets: dict[tuple, Any] = field(default_factory=dict, repr=False)
    _pinned: dict[tuple, Any] = field(default_factory=dict, repr=False)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.checkers)

    def shipped_path(self, name: str) -> Path:
        """The shipped default file for table ``name``."""
        return self.folder / f"{name}.toml"

    def check_table(self, name: str, doc: dict) -> dict:
        """Check one parsed file for table ``name``: its header, then its body."""
        if name not in self.checkers:
            raise BadTable(f"table.name: {self.ruleset_id} has no table {name!r} (known: {', '.join(self.names)})")
        if not isinstance(doc, dict):
            raise BadTable(f"expected a table file, got {doc!r}")
        return {"table": self._header(name, doc.get("table")), **self.checkers[name](doc)}

    def _header(self, name: str, head: Any) -> dict:
        if not isinstance(head, dict):
            raise BadTable(f"table: expected a [table] header with ruleset and name, got {head!r}")
        unknown = [k for k in head if k not in HEADER_KEYS]
        if unknown:
            raise BadTable(f"table: unknown field {unknown[0]!r} (known: {', '.join(HEADER_KEYS)})")
        if head.get("ruleset") != self.ruleset_id:
            raise BadTable(f"table.ruleset: expected {self.ruleset_id!r}, got {head.get('ruleset')!r}")
        if head.get("name") != name:
            raise BadTable(f"table.name: expected {name!r}, got {head.get('name')!r}")
        if not isinstance(head.get("shipped_default", False), bool):
            raise BadTable(f"table.shipped_default: expected true or false, got {head.get('shipped_default')!r}")
        if not isinstance(head.get("note", ""), str):
            raise BadTable(f"table.note: expected text, got {head.get('note')!r}")
        return {"ruleset": self.ruleset_id, "name": name, "shipped_default": head.get("shipped_default", False),
                "note": head.get("note", "")}

    def load(self, replacements: dict[str, str | Path] | None = None, folder: Path | None = None) -> T:
        """The shipped tables with a game master's replacement files ({name: path}) swapped in.

        A relative path is read from ``folder`` (a save's own folder) when one is
        given. A fight's tables, once pinned, are what every later load of the same
        replacements returns.
        """
        key = _key(replacements)
        if folder is None and key in self._pinned:
            return self._pinned[key]
        paths = {name: self.shipped_path(name) for name in self.names}
        for name, path in (replacements or {}).items():
            if name not in paths:
                raise BadTable(f"tables.{name}: {self.ruleset_id} has no table {name!r} "
                               f"(known: {', '.join(self.names)})")
            path = Path(path)
            paths[name] = folder / path if folder is not None and not path.is_absolute() else path
        stamps = tuple(_stamp(name, paths[name]) for name in self.names)
        if stamps not in self._sets:
            docs = {s[0]: self._read_checked(s) for s in stamps}
            if self.cross_check is not None:
                self.cross_check(docs, paths)
            self._sets[stamps] = self.build(docs, paths)
        return self._sets[stamps]

    def pin(self, replacements: dict[str, str | Path] | None, folder: Path | None = None) -> T:
        """Read a fight's tables once, relative paths from its save's folder, and keep them.

        A table file edited, deleted or broken later in the session changes nothing
        until the save is opened again.
        """
        tables = self.load(replacements, folder if folder is not None else Path.cwd())
        self._pinned[_key(replacements)] = tables
        return tables

    def _read_checked(self, stamp: tuple) -> dict:
        if stamp not in self._checked:
            name, path = stamp[0], Path(stamp[1])
            try:
                self._checked[stamp] = self.check_table(name, read_toml(path))
            except BadTable as exc:
                msg = str(exc)
                raise BadTable(msg if msg.startswith(str(path)) else f"{path}: {msg}") from None
        return self._checked[stamp]


#: A table file larger than this is refused before it is read (the shipped ones are a few KiB).
MAX_TABLE_BYTES = 1 << 20


def _key(replacements: dict | None) -> tuple:
    if not replacements:  # the usual case, asked for by every rule: no sorting
        return ()
    return tuple(sorted((str(k), str(v)) for k, v in (replacements or {}).items()))


def _stamp(name: str, path: Path) -> tuple:
    """(name, path, mtime, size): a table is read again only when its file changes.

    Only a regular file of a sane size is read: a device, a pipe or a folder named
    as a table would hang or exhaust the reader.
    """
    try:
        st = path.stat()
    except (OSError, ValueError):
        raise BadTable(f"{path}: no such table file (for table {name!r})") from None
    if not stat.S_ISREG(st.st_mode):
        raise BadTable(f"{path}: not a regular file (for table {name!r})")
    if st.st_size > MAX_TABLE_BYTES:
        raise BadTable(f"{path}: {st.st_size} bytes is too large for a table file (at most {MAX_TABLE_BYTES})")
    return (name, str(path), st.st_mtime_ns, st.st_size)


def kept_for(store: dict, tables: object) -> dict:
    """The book of what a rule keeps worked out from these loaded tables (its words, its picks...):
    ``store`` holds a book for each tables object, keyed by its id and holding the object itself,
    so that the id stays its own (a tables object read again after an edit is another, with a new book)."""
    book = store.get(id(tables))
    if book is None or book[0] is not tables:
        book = store[id(tables)] = (tables, {})
    return book[1]


def table_files(options: dict) -> dict[str, str]:
    """The replacement files an encounter's setup names (``[setup.options.tables]``), checked."""
    files = options.get("tables", {})
    if not isinstance(files, dict) or not all(isinstance(v, str) for v in files.values()):
        raise BadTable('setup.options.tables: expected a table of table name = "file path"')
    return dict(files)
