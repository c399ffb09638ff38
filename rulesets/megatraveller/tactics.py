"""Tactics points: the ship and fleet pools, the two parameters that spend them, the check and the spend.

Source: ``megatraveller-sensors-fire.txt``, the tactics pools line: points are
spent "BEFORE ROLLING to increase your skill or computer model number", and in
"Rolling To Hit": "spend tactics points from the ship's pool or the fleet pool to
increase your computer for one shot".

Where the text is silent we decided:

- A ship's pool is its ``tactics_pool``; the fleet's pool is the side's
  ``tactics_pool`` in the setup. Either may pay for a roll, not both at once.
- The points spent are a named DM on the rolls they raise (the lock's two rolls;
  in a fire action the first battery's shot, its to-hit and its penetration
  rolls, since those add "You Computer": see ``sensors`` and ``fire``).
- Pools do not refill. The text gives each ship and each fleet a pool to spend
  from and says nothing of it coming back, between rounds or otherwise; a
  point spent is gone for the fight, like a missile fired. A game master whose
  table refills pools each round corrects the pool at the start of the round
  (a correction is an event, so the log keeps it).
- A ship whose bridge is shut down by a critical spends no tactics points, from
  either pool (``systems``).
"""

from __future__ import annotations

from engine.actions import Choice, Param
from engine.rolls import Modifier

from .systems import commanded

POOLS = ("ship", "fleet")


def pool_of(state: dict, ship: dict, pool: str) -> int:
    return ship["tactics"] if pool == "ship" else state["fleet_tactics"].get(ship["side"], 0)


def _pool_choices(state: dict, args: dict, tables) -> list[Choice]:
    """The pool is asked only when points are spent."""
    if not args.get("tactics", 0):
        return []
    ship = state["ships"][args["ship"]]
    return [Choice(p, f"{_pool_words(state, args, tables, p)} ({_points(pool_of(state, ship, p))})") for p in POOLS]


def _points(n: int) -> str:
    return f"{n} point{'' if n == 1 else 's'}"


def _pool_words(state: dict, args: dict, tables, pool: str) -> str:
    return f"{pool} pool"


#: Asked last by every action that rolls for a ship: points (typed, 0 by default), then the pool paying them.
TACTICS_PARAMS = (
    Param("tactics", "Tactics points", "int", minimum=0, optional=True, default=0),
    Param("pool", "Tactics pool", "choice", options=_pool_choices, optional=True, default="ship", words=_pool_words,
          said="from the {}"),
)


def may_spend(state: dict, ship: dict, args: dict) -> str:
    """No more points than the pool holds (than the fuller pool, before the pool is chosen)."""
    points = args.get("tactics", 0)
    if not points:
        return ""
    if not commanded(ship):
        return f"{ship['name']}'s bridge is shut down by a critical hit: it spends no tactics points"
    if "pool" not in args:
        ship_pool, fleet_pool = pool_of(state, ship, "ship"), pool_of(state, ship, "fleet")
        if points > max(ship_pool, fleet_pool):
            return (f"tactics: one pool pays for a roll, so at most {_points(max(ship_pool, fleet_pool))} "
                    f"({ship['name']}'s ship pool {_points(ship_pool)}, fleet pool {_points(fleet_pool)}); "
                    f"asked for {points}")
        return ""
    have = pool_of(state, ship, args["pool"])
    if points > have:
        return f"tactics: {ship['name']}'s {args['pool']} pool has {_points(have)}, asked for {points}"
    return ""


def spend(state: dict, ship: dict, points: int, pool: str) -> list[Modifier]:
    """Points spent before the roll: taken from the pool, added to the roll as a named DM."""
    if not points:
        return []
    if pool == "ship":
        ship["tactics"] -= points
    else:
        state["fleet_tactics"][ship["side"]] -= points
    return [Modifier(f"Tactics ({pool} pool)", points)]
