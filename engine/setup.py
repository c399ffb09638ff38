"""An encounter's setup: everything as it was before the first event.

The setup never changes once the fight starts; the state is always the setup
with every logged event applied (DESIGN.md "The encounter is an event log").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from .errors import BadTable
from .ids import id_place, id_problem, name_problem
from .schema import validate
from .state import check_plain


@dataclass
class Setup:
    """Ruleset id, name, sides, the units by kind (``ships``, ``people``...), options and the dice seed.

    ``units`` maps a unit kind's key (``UnitKind.key``) to its units by id;
    each is saved as ``[setup.KEY.ID]``.
    """

    ruleset: str
    name: str
    sides: list[dict[str, Any]]
    units: dict[str, dict[str, dict[str, Any]]]
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    created: datetime = field(default_factory=lambda: now())
    #: The state the fight resumes from instead of the one the units make (``[setup.start]``): a fight carried
    #: over from a save whose log no longer replays under today's rules (``flagbridge resume``). None: the units'.
    start: dict[str, Any] | None = None

    @property
    def ships(self) -> dict[str, dict[str, Any]]:
        return self.units.setdefault("ships", {})

    @property
    def people(self) -> dict[str, dict[str, Any]]:
        return self.units.get("people", {})

    @property
    def side_ids(self) -> list[str]:
        return [s["id"] for s in self.sides]

    def ships_of(self, side: str) -> list[str]:
        return [sid for sid, ship in self.ships.items() if ship["side"] == side]

    def body(self) -> dict[str, Any]:
        """The ``[setup]`` table of a save, but for ``start`` (written apart: it is a whole state)."""
        out: dict[str, Any] = {"sides": self.sides}
        for key, table in self.units.items():
            if table or key == "ships":
                out[key] = table
        if self.options:
            out["options"] = self.options
        return out


def now() -> datetime:
    return datetime.now(timezone.utc).replace(microsecond=0)


def check_setup(setup: Setup, unit_kinds: tuple = (), where: str = "setup") -> Setup:
    """Validate sides and every unit of the kinds the ruleset declares; fills defaults from their fields.

    Every side's and unit's id passes ``engine.ids.id_problem``: a correction path names it.

    Units of a kind without declared fields (people in a ship fight, say) need
    only be tables; a key no kind declares is refused.
    """
    if not isinstance(setup.sides, list) or not setup.sides:
        raise BadTable(f"{where}.sides: expected a list of at least one side with id and name")
    seen: set[str] = set()
    for i, side in enumerate(setup.sides):
        if not isinstance(side, dict) or not isinstance(side.get("id"), str) or not isinstance(side.get("name"), str):
            raise BadTable(f"{where}.sides[{i}]: expected a table with id and name (text)")
        if why := id_problem(side["id"]):
            raise BadTable(f"{where}.sides[{i}].id: {why}")
        if side["id"] in seen:
            raise BadTable(f"{where}.sides[{i}]: side id {side['id']!r} is used twice")
        seen.add(side["id"])
    kinds = {k.key: k for k in unit_kinds if k.in_setup}
    if not isinstance(setup.units, dict):
        raise BadTable(f"{where}: expected tables of units by kind")
    filed: dict[str, str] = {}  # each id of a kind the ruleset declares, by the kind it is filed under
    for key, table in setup.units.items():
        if not isinstance(table, dict):
            raise BadTable(f"{where}.{key}: expected a table of units by id")
        kind = kinds.get(key)
        for uid, unit in list(table.items()):
            if why := id_problem(uid):
                raise BadTable(f"{where}.{key}.{id_place(uid)}: {why}")
            place = f"{where}.{key}.{uid}"
            if kind is not None and filed.setdefault(uid, key) != key:  # a path or a form names a unit by id alone
                raise BadTable(f"{place}: the id {uid} is a unit of {where}.{filed[uid]} too: give each its own id")
            if not isinstance(unit, dict):
                raise BadTable(f"{place}: expected a table")
            if kind is None:
                continue  # carried along for rules that read it (people in a ship fight)
            if not isinstance(unit.get("side"), str) or unit["side"] not in seen:
                raise BadTable(f"{place}: side must be one of {', '.join(sorted(seen))}, got {unit.get('side')!r}")
            if why := name_problem(unit.get("name")):
                raise BadTable(f"{place}: {why}")
            table[uid] = validate(unit, kind.fields, place)
    if not isinstance(setup.options, dict):
        raise BadTable(f"{where}.options: expected a table")
    try:
        check_plain(setup.body(), where)
    except ValueError as exc:
        raise BadTable(str(exc)) from None
    return setup
