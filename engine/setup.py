"""An encounter's setup: everything as it was before the first event.

The setup never changes once the fight starts; the state is always the setup
with every logged event applied (DESIGN.md "The encounter is an event log").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from .errors import BadTable
from .schema import validate
from .state import check_plain


@dataclass
class Setup:
    """Ruleset id, name, sides, ships (by id), people (by id), options and the dice seed."""

    ruleset: str
    name: str
    sides: list[dict[str, Any]]
    ships: dict[str, dict[str, Any]]
    people: dict[str, dict[str, Any]] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    created: datetime = field(default_factory=lambda: now())

    @property
    def side_ids(self) -> list[str]:
        return [s["id"] for s in self.sides]

    def ships_of(self, side: str) -> list[str]:
        return [sid for sid, ship in self.ships.items() if ship["side"] == side]

    def body(self) -> dict[str, Any]:
        """The ``[setup]`` table of a save."""
        out: dict[str, Any] = {"sides": self.sides, "ships": self.ships}
        if self.people:
            out["people"] = self.people
        if self.options:
            out["options"] = self.options
        return out


def now() -> datetime:
    return datetime.now(timezone.utc).replace(microsecond=0)


def check_setup(setup: Setup, ship_fields: tuple = (), where: str = "setup") -> Setup:
    """Validate sides, ships and people; fills ship defaults from the ruleset's fields."""
    if not isinstance(setup.sides, list) or not setup.sides:
        raise BadTable(f"{where}.sides: expected a list of at least one side with id and name")
    seen: set[str] = set()
    for i, side in enumerate(setup.sides):
        if not isinstance(side, dict) or not isinstance(side.get("id"), str) or not isinstance(side.get("name"), str):
            raise BadTable(f"{where}.sides[{i}]: expected a table with id and name (text)")
        if side["id"] in seen:
            raise BadTable(f"{where}.sides[{i}]: side id {side['id']!r} is used twice")
        seen.add(side["id"])
    if not isinstance(setup.ships, dict):
        raise BadTable(f"{where}.ships: expected a table of ships by id")
    for sid, ship in list(setup.ships.items()):
        place = f"{where}.ships.{sid}"
        if not isinstance(ship, dict):
            raise BadTable(f"{place}: expected a table")
        if ship.get("side") not in seen:
            raise BadTable(f"{place}: side must be one of {', '.join(sorted(seen))}, got {ship.get('side')!r}")
        if not isinstance(ship.get("name"), str):
            raise BadTable(f"{place}: missing name (text)")
        setup.ships[sid] = validate(ship, ship_fields, place)
    if not isinstance(setup.people, dict):
        raise BadTable(f"{where}.people: expected a table of people by id")
    for pid, person in setup.people.items():
        if not isinstance(person, dict):
            raise BadTable(f"{where}.people.{pid}: expected a table")
    if not isinstance(setup.options, dict):
        raise BadTable(f"{where}.options: expected a table")
    try:
        check_plain(setup.body(), where)
    except ValueError as exc:
        raise BadTable(str(exc)) from None
    return setup
