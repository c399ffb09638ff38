"""The percentile catalogue: people as the one unit kind, the options each step's procedure reads.

"For each of the five steps you may choose to incorporate anyone of its
procedures" (COMBAT - STEP BY STEP): the game master picks them for the
encounter in ``setup.options`` and they are kept in ``state["options"]``.
"""

from __future__ import annotations

from engine.actions import Catalogue
from engine.errors import BadTable

from .people import PERSON

CATALOGUE = Catalogue("percentile", (PERSON,))

#: option -> (allowed values, default, what it means)
OPTIONS = {
    "surprise": ((0, 1, 2, 3), 1, "surprise procedure 1-3 (0: no surprise check)"),
    "primary": ((1, 2, 3), 1, "primary attack procedure 1-3"),
    "primary_each_round": ((1, 2), 1, "with primary attack 3, the procedure rolled each round (1 or 2)"),
    "action": ((1, 2), 2, "action procedure 1 (no Agility Points) or 2 (Table 3-6)"),
    "to_hit": ((1, 2, 3), 1, "percent to hit procedure 1-3"),
    "damage": ((1, 2, 3), 2, "damage procedure 1-3"),
    "subturns": (tuple(range(1, 21)), 5, "sub-turns a turn is cut into (1: none)"),
}
FLAGS = {"borrowing": True, "grazing": False, "organs": False}


def read_options(opts: dict) -> dict:
    out = {}
    for name, (allowed, default, words) in OPTIONS.items():
        v = opts.get(name, default)
        if type(v) is not int or v not in allowed:  # not true (1) nor 5.0 (5): a number as the file has it
            # "one of 1, 2, got '2'" read as if '2' were allowed: a number written in quotes is text
            quoted = " (text: write the number without quotes)" if isinstance(v, str) and v.strip() in map(str, allowed) \
                else ""
            raise BadTable(f"setup.options.{name}: expected {words}: one of {', '.join(map(str, allowed))}, "
                           f"got {v!r}{quoted}")
        out[name] = v
    for name, default in FLAGS.items():
        v = opts.get(name, default)
        if not isinstance(v, bool):
            raise BadTable(f"setup.options.{name}: expected true or false, got {v!r}")
        out[name] = v
    return out


def continuation(name: str):
    return CATALOGUE.continuation(name)
