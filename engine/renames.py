"""The names units were called by before a correction renamed them: the log names each unit as it was called when
its event happened (``Encounter.describe``).

An event's rolls and notes are written once, with the names of the moment. A line made later from the event's
arguments would name a renamed unit by its new name over them ("target=Blood Lantern" over "To hit: ... at Red
Lantern"). A logged correction keeps the value it replaced (``was``), so the first rename after an event tells the
name the unit had when it happened. Only the end of the log a reader asks about is read: the console draws its last
few hundred lines, and the events before them (unread, from the replay cache) are never parsed for this.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Rename:
    """A correction at ``position`` in the log (in ``group``) that took unit ``uid``'s name ``was`` away."""

    position: int
    group: int
    uid: str
    was: str


def renamed_by(data: dict, unit_keys: tuple[str, ...]) -> list[tuple[str, str]]:
    """(unit id, the name it had) for each unit a correction renames: its name corrected (``ships.x.name``), or the
    unit or its kind's whole table given whole (from a script or a hand edit kept on load) with another name."""
    path, was, value = data.get("path"), data.get("was"), data.get("value")
    if not isinstance(path, list) or not 1 <= len(path) <= 3 or path[0] not in unit_keys:
        return []
    if len(path) == 3:
        pairs = [(path[1], was, value)] if path[2] == "name" else []
    elif len(path) == 2:
        pairs = [(path[1], was.get("name"), _name_in(value))] if isinstance(was, dict) else []
    else:
        pairs = [(uid, unit.get("name"), _name_in(value.get(uid) if isinstance(value, dict) else None))
                 for uid, unit in was.items() if isinstance(unit, dict)] if isinstance(was, dict) else []
    return [(uid, old) for uid, old, new in pairs if isinstance(uid, str) and isinstance(old, str) and old != new]


def _name_in(unit: Any) -> Any:
    return unit.get("name") if isinstance(unit, dict) else None


class Renames:
    """The renames among the log's last events, read back from its end as far as a reader has asked.

    ``[start, end)`` is the stretch of the log read so far, ``found`` its renames in log order. An undo cuts the
    log back and new events follow: the stretch is cut back to match (or read afresh when the event at its end is
    no longer the one it read there), then read on to the end."""

    def __init__(self, unit_keys: tuple[str, ...]) -> None:
        self.unit_keys = unit_keys
        self.found: list[Rename] = []
        self.start = self.end = -1  # nothing read yet: the first reader's event is where reading begins
        self._last: Any = None  # the event at ``end - 1`` when it was read

    def names_then(self, events: list, ev: Any) -> dict[str, str]:
        """The name each unit renamed after ``ev`` was called by when ``ev`` happened (its first rename's ``was``).
        An event no longer in the log (undone) came after every event in it: nothing in it renamed a unit since."""
        self._follow(events)
        group = ev.group
        start = self.start
        while start > 0 and events[start - 1].group >= group:  # every event that may have come after ``ev``
            start -= 1
        if start < self.start:
            self.found[:0] = self._read(events, start, self.start)
            self.start = start
        names: dict[str, str] = {}
        position = None
        for rename in reversed(self.found):  # the latest first: the earliest after ``ev`` has the last word
            if rename.group < group:
                break
            if rename.group == group:  # a correction made while the action's rolls waited joins its group
                if position is None:
                    position = next((i for i in range(start, len(events)) if events[i] is ev), len(events))
                if rename.position <= position:  # the rename itself reads as the unit is called after it
                    continue
            names[rename.uid] = rename.was
        return names

    def _follow(self, events: list) -> None:
        """Bring the stretch read up to the log as it is now: cut back after an undo, read on over new events."""
        n = len(events)
        if self.end < 0:
            self.start = self.end = n
            self._last = events[n - 1] if n else None
        if self.end > n:
            self.found = [r for r in self.found if r.position < n]
            self.end, self.start = n, min(self.start, n)
            self._last = events[n - 1] if n else None
        if self.end and events[self.end - 1] is not self._last:  # undone and replaced unseen: read it afresh
            self.found, self.start, self.end = [], n, n
        if self.end < n:
            self.found.extend(self._read(events, self.end, n))
            self.end = n
        self._last = events[n - 1] if n else None

    def _read(self, events: list, start: int, stop: int) -> list[Rename]:
        keys = self.unit_keys
        return [Rename(i, ev.group, uid, was) for i in range(start, stop) if (ev := events[i]).kind == "correction"
                for uid, was in renamed_by(ev.data, keys)]
