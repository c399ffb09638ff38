"""The classic-hg catalogue: the one registry of its actions, roll continuations and unit kinds.

The rules modules (``turn``, ``fire``, ``damage``) register their roll
continuations here; ``actions`` declares every action with its parameters and
``may`` check; the ruleset class seals it when it is defined.
"""

from engine.actions import Catalogue, UnitKind

from .ships import SHIP_FIELDS

SHIP = UnitKind("ship", "Ship", "Ships", "ships", fields=SHIP_FIELDS)
CATALOGUE = Catalogue("classic-hg", (SHIP,))
continuation = CATALOGUE.continuation
