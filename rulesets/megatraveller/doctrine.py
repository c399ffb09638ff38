"""How a megatraveller fight is played out in a forecast: the doctrine each side follows, and who has won.

A doctrine is data (``doctrines/NAME.toml``, ``[orders]``); the game master picks
one per side. The ``Commander`` reads the state, asks each action's own ``may``
what it may do, and gives the engine one action at a time; every roll and its
effect come from ``sensors``, ``fire`` and ``damage``.

The shipped ``standard`` doctrine, in words:

- Sensors: each ship spends its free sensor action to locate the nearest
  enemy its side has detected, else to lock the nearest one located, in the
  mode (passive or active) whose sensor is easiest at that range. While its
  side holds no lock at all it also spends its batteries' gunnery actions on
  sensors (no lock, no fire). No tactics points are spent.
- Fire: every bearing battery fires at the locked enemy it is most likely to
  hit (the rules' own to-hit modifiers at that range; a tie goes to the nearer
  enemy), no pinpoint aim.
- Range: the text leaves movement to the game master. At the end of each
  round the side ahead (less of its tonnage lost, by each ship's condition)
  sets the pace: it moves every range to its enemies by its ``range_step``
  squares as its ``range_when_ahead`` says (close by default); when the sides
  are even, the first side's ``range_when_even`` (close by default: both came to fight).
  ``range_when_behind`` is kept for a side that would set the pace from behind.
- Out of action, the forecast's ruling (the text destroys no ship): a ship
  with no battery left, or whose weapons are shut down, is out of the fight.
  A fight is over when at most one side has a ship still in it; that side wins.
"""

from __future__ import annotations

from functools import lru_cache

from engine.rolls import Modifier, RollRequest, Target
from engine.ruleset import Outcome
from engine.schema import Field, validate

from . import ranges, sensors, systems, tactics
from .fire import can_fire_at_band, to_hit_modifiers
from .tables import fire_number
from .views import ship_line

DEFAULT_DOCTRINE = "standard"
TURN_WORD = "round"  # the text counts rounds ("1 free sensor action each round"): so do a forecast's fight lengths
RANGE_MOVES = ("close", "stay", "open")
#: No tactics points spent: the tactics parameters at their defaults, given whole so that the arguments
#: ``may`` passes are the very ones the handler receives.
NO_TACTICS = {p.name: p.default for p in tactics.TACTICS_PARAMS}

ORDER_FIELDS: tuple[Field, ...] = (
    Field("fire", "str", default="most_likely_to_hit", choices=("most_likely_to_hit", "hold")),
    Field("sensors", "str", default="nearest", choices=("nearest", "none"),
          help="nearest: locate or lock the nearest enemy that needs it"),
    Field("gunnery_on_sensors", "str", default="when_no_lock", choices=("when_no_lock", "never"),
          help="spend batteries' gunnery actions on sensors while the side has no lock"),
    Field("range_when_ahead", "str", default="close", choices=RANGE_MOVES),
    Field("range_when_even", "str", default="close", choices=RANGE_MOVES),
    Field("range_when_behind", "str", default="open", choices=RANGE_MOVES),
    Field("range_step", "int", default=1, minimum=0, maximum=20, help="squares a range changes in a round"),
)


def check_doctrine(doc: dict, where: str) -> dict:
    """The ``[orders]`` of a doctrine file, every field checked, defaults filled in."""
    return validate(doc.get("orders", {}), ORDER_FIELDS, f"{where}: orders", allow_extra=False)


# --- who won --------------------------------------------------------------------------------------

def in_action(ship: dict) -> bool:
    """A battery left, and weapons (and the power plant) not shut down."""
    return bool(ship["batteries"]) and not systems.off(ship, "weapons")


def outcome(state: dict) -> Outcome:
    survived, sides_in_it = {}, set()  # one pass over the ships: asked after every decision of a forecast
    for sid, s in state["ships"].items():
        if in_action(s):
            survived[sid] = True
            sides_in_it.add(s["side"])
        else:
            survived[sid] = False
    standing = [side for side in state["side_order"] if side in sides_in_it]
    if len(standing) > 1:
        return Outcome(False, "", state["round"], survived)
    return Outcome(True, standing[0] if standing else "", state["round"], survived)


# --- judging ---------------------------------------------------------------------------------------

@lru_cache(maxsize=512)
def _chance(number: int, bonus: int) -> float:
    return float(RollRequest("", "2D", (Modifier("", bonus),), Target(number)).chance())


def side_loss(state: dict, side: str, tables) -> float:
    """Share of the side's tonnage lost: tonnage times condition lost, ships out of action whole."""
    total = lost = 0.0
    for sid, s in state["ships"].items():
        if s["side"] == side:
            total += s["tonnage"]
            lost += s["tonnage"] * (1.0 - ship_line(state, sid, tables)[1] if in_action(s) else 1.0)
    return lost / total if total else 0.0


class Commander:
    """Plays a megatraveller fight by the doctrine of each side (``decide`` gives the next action).

    Every value it gives is one the rules offer, in the form the argument check returns: ship ids of
    ships in the fight, targets from ``ranges.enemies``, a mode of ``sensors.MODES``, "free" or a battery
    id of the ship to spend, batteries from the ship's own list (each once, at least one), and squares
    from 0 to ``ranges.DETECTION_LIMIT``, the end of Extreme past which nothing is seen (well inside the
    rule's own limit). So ``offers_checked`` lets the forecast leave the judging to each action's ``may``,
    which ``allowed`` has asked on this very state.
    """

    offers_checked = True

    def __init__(self, ruleset, doctrines: dict[str, dict]) -> None:
        self.ruleset = ruleset
        self.doctrines = doctrines
        self.actions = ruleset.catalogue.actions
        self.moved_round = 0  # the last round whose range moves are all made (one commander per fight)
        self.moved: set[str] = set()  # pairs already moved this round
        #: The arguments object ``may`` last said yes to in this decision (the state has not changed since):
        #: a choice given with it is not judged a second time (``engine.forecast.Playout.act``).
        self.vouched: dict | None = None

    def allowed(self, state: dict, tables, name: str, args: dict) -> bool:
        if self.actions[name].may(state, args, tables):
            return False
        self.vouched = args
        return True

    def decide(self, state: dict):
        self.vouched = None
        tables = self.ruleset.tables_for(state)
        step = state["step"]
        choice = None
        if step == 1:
            choice = self.sensing(state, tables)
        elif step == 2:
            choice = self.firing(state, tables)
        elif step == 3 and self.moved_round != state["round"]:
            choice = self.range_move(state, tables)
        return choice or ("next", {})

    def fighting(self, state: dict, side: str) -> list[str]:
        return [sid for sid, s in state["ships"].items() if s["side"] == side and in_action(s)]

    def enemies(self, state: dict, sid: str) -> list[str]:
        return sorted((t for t in ranges.enemies(state, sid) if in_action(state["ships"][t])),
                      key=lambda t: ranges.squares(state, sid, t))

    # --- step 1 ---

    def sensing(self, state: dict, tables):
        for side in state["side_order"]:
            orders = self.doctrines[side]
            if orders["sensors"] == "none":
                continue
            no_lock = not any(sensors.sensor_state(state, side, t) == sensors.LOCKED
                              for t in state["knowledge"][side])
            for sid in self.fighting(state, side):
                ship = state["ships"][sid]
                spends = sensors.sensor_spends_now(state, sid)  # the rules' reckoning, as the forms offer it
                if not (no_lock and orders["gunnery_on_sensors"] == "when_no_lock"):
                    spends = [spend for spend in spends if spend == sensors.FREE]
                if not spends:
                    continue
                for tid in self.enemies(state, sid):
                    entry = sensors.seen(state, side, tid)
                    kind = "scan" if entry["state"] == sensors.DETECTED else (
                        "pin" if entry["state"] == sensors.LOCATED else "")
                    if not kind:
                        continue
                    band = ranges.band(state, sid, tid)
                    modes = [(tables.difficulties[lvl], mode) for mode in sensors.MODES
                             if (lvl := sensors.best_difficulty(ship, sensors.task_of(mode, kind), band, tables))]
                    if not modes:
                        continue
                    args = {"ship": sid, "target": tid, "mode": min(modes)[1], "spend": spends[0], **NO_TACTICS}
                    name = "locate" if kind == "scan" else "lock"
                    if self.allowed(state, tables, name, args):
                        return name, args
        return None

    # --- step 2 ---

    def firing(self, state: dict, tables):
        for side in state["side_order"]:
            if self.doctrines[side]["fire"] == "hold":
                continue
            for sid in self.fighting(state, side):
                ship = state["ships"][sid]
                if systems.off(ship, "weapons"):
                    continue
                locked = [t for t in self.enemies(state, sid)
                          if sensors.sensor_state(state, side, t) == sensors.LOCKED
                          and not ranges.sight_blocked(state, sid, t)]
                by_target: dict[str, list[str]] = {}
                for b in ship["batteries"]:
                    if b["used"] or not b["bearing"]:
                        continue
                    best, score = "", 0.0
                    number = fire_number(tables, "spinal_to_hit" if b["spinal"] else "to_hit")
                    for tid in locked:
                        band = ranges.band(state, sid, tid)
                        if not can_fire_at_band(b, band, tables):
                            continue
                        mods = to_hit_modifiers(ship, b, state["ships"][tid], band, tables)
                        p = _chance(number, sum(m.value for m in mods))
                        if p > score:
                            best, score = tid, p
                    if best:
                        by_target.setdefault(best, []).append(b["id"])
                for tid, bids in by_target.items():
                    args = {"ship": sid, "target": tid, "batteries": bids, "aim": "", **NO_TACTICS}
                    if self.allowed(state, tables, "fire", args):
                        return "fire", args
        return None

    # --- step 3 ---

    def range_move(self, state: dict, tables):
        """The side ahead sets the pace: every range to its enemies closes (or opens) by its step."""
        losses = {side: side_loss(state, side, tables) for side in state["side_order"]}
        least = min(losses.values())
        leaders = [s for s, v in losses.items() if v == least]
        lead = leaders[0] if len(leaders) == 1 else state["side_order"][0]
        move = self.doctrines[lead]["range_when_ahead" if len(leaders) == 1 else "range_when_even"]
        step = self.doctrines[lead]["range_step"]
        for sid in self.fighting(state, lead):
            for tid in self.enemies(state, sid):
                key = ranges.pair(sid, tid)
                if key in self.moved:
                    continue
                self.moved.add(key)
                now = ranges.squares(state, sid, tid)
                new = max(0, now - step) if move == "close" else (min(ranges.DETECTION_LIMIT, now + step)
                                                                  if move == "open" else now)
                if new != now:
                    return "set_range", {"ship": sid, "target": tid, "squares": new}
        self.moved_round = state["round"]
        self.moved = set()
        return None
