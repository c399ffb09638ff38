"""How a gothic fight is played out in a forecast: the doctrine each side follows, and when a fight is over.

A doctrine is data (``doctrines/NAME.toml``, ``[orders]``); the game master picks
one per side. The ``Commander`` reads the state, asks each action's own ``may``
whether a choice stands, and gives the engine one action at a time; every roll
and what follows it (turret fire, torpedo hits, hit-and-run attacks, criticals,
repairs) comes from ``ordnance``, ``teleport`` and ``hitrun``, never from here.

What a gothic forecast plays, and what it cannot: the console resolves only
what the rules text covers (torpedo and boarding-torpedo salvos, teleport
attacks, hit-and-run attacks, criticals and their repair). Gunnery, movement
and shields are played on the table and entered by the game master, with no
dice in the console; a forecast invents none of them. So a forecast never
records hits from shooting and never raises or lowers shields by hand:
shields fall only to torpedoes and criticals, as the console's rules apply them.

The text is silent on how a fleet fights; everything below is our decision,
the shipped ``standard`` doctrine, in words:

- Movement phase: a ship whose tubes are empty goes on the special order that
  reloads them (the ``orders`` table's order marked ``reloads``), though it then
  may not teleport that turn. Then the sides close: every ship moves
  ``approach_cm`` (15) towards every enemy, each side in turn, but never nearer
  than its ``stand_off_cm`` (5, within teleport reach); defences do not move.
  A distance between two vessels changes by what both of them move.
- Shooting phase: every vessel with loaded tubes launches its full salvo at the
  nearest enemy (a tie goes to the one with fewest hits left, escorts first),
  placed at the distance between them (at least 1 cm). Boarding torpedoes go
  to escorts, which a hit-and-run attack destroys outright; ordinary torpedoes
  to the rest.
- Ordnance phase: every salvo moves its whole move straight at its target
  (no turn); a salvo that reaches it attacks at once. Ships move only towards
  each other, so a salvo's distance changes by its own move alone.
  A salvo never ends its move on another stand (``meet_stand``), and no
  order offers it. Its rule (``ordnance.may_meet``) can judge a stand to be
  in reach only on a salvo's first move, while it stands beside the ship
  that launched it; nothing moves between that launch and the move, so such
  a stand is one the ship could have launched at, at the same distance, for
  the same contact and the same rolls: which enemy a side wants is its
  ``torpedoes`` order, given at launch. After the first move only the table
  sees where another stand is, or what lies across a salvo's path; a
  forecast keeps no positions (only the distances between enemies and each
  salvo's to its target), so a meeting then would invent a reach.
- End phase: every vessel that may teleport attacks the enemy the rules allow
  with the fewest hits left (escorts first), then every vessel with a critical
  it can repair tries to repair one (turrets first, then shields, then the
  others in the order they came).

When the fight is over (our ruling, the text has none): when at most one side
has a vessel afloat (that side wins), or when nothing left in the fight can
still hurt an enemy by these rules (no salvo in flight, no vessel with torpedo
tubes, no teleport attack the rules would ever allow as things stand): no side
wins then. A vessel survives while it is afloat. This ruling does not read the
doctrines: tubes count as a threat even on a side that holds its torpedoes or
never reloads, and two vessels count as able to meet while one of them is a
ship, even when both sides stand off beyond teleport reach; such a fight may
run to the turn cap.
"""

from __future__ import annotations

from engine.ruleset import Outcome
from engine.schema import Field, validate

from .ordnance import move_cm
from .units import MAX_CM, afloat, distance, pair

DEFAULT_DOCTRINE = "standard"

ORDER_FIELDS: tuple[Field, ...] = (
    Field("approach_cm", "int", default=15, minimum=0, maximum=MAX_CM,
          help="how far each ship moves towards every enemy in a movement phase (0: holds its place)"),
    Field("stand_off_cm", "int", default=5, minimum=0, maximum=MAX_CM,
          help="the side's ships close no nearer than this to an enemy (they never back away)"),
    Field("reload", "str", default="when_empty", choices=("unless_teleport", "when_empty", "never"),
          help="when_empty: the reloading special order for a ship whose tubes are empty; unless_teleport: "
               "the same, unless the rules would let the ship teleport-attack in this turn's end phase"),
    Field("torpedoes", "str", default="nearest", choices=("nearest", "weakest", "hold"),
          help="nearest: the nearest enemy; weakest: the one with fewest hits left; hold: no launch"),
    Field("boarding", "str", default="against_escorts", choices=("against_escorts", "always", "never"),
          help="when a vessel that carries boarding torpedoes loads them instead of ordinary ones"),
    Field("teleport", "str", default="weakest", choices=("weakest", "never"),
          help="weakest: every teleport attack allowed, at the enemy with fewest hits left"),
    Field("repair", "bool", default=True, help="try to repair a critical in every end phase"),
)

#: The order an end-phase repair picks a critical in, by the effect the console applies (others after).
REPAIR_FIRST = ("turrets", "shields")


def check_doctrine(doc: dict, where: str) -> dict:
    """The ``[orders]`` of a doctrine file, every field checked, defaults filled in."""
    return validate(doc.get("orders", {}), ORDER_FIELDS, f"{where}: orders", allow_extra=False)


# --- when the fight is over --------------------------------------------------------------------------

def _tables(state: dict):
    from . import RULESET  # the package is loaded before its doctrine module is asked for

    return RULESET, RULESET.tables_for(state)


def teleport_still_possible(state: dict) -> bool:
    """Whether some vessel could ever make a teleport attack, as things stand: the teleport rule's own
    ``may``, asked on a copy of the fight in the end phase with once-a-turn limits and orders cleared, and
    two vessels that may still meet (any pair with a ship in it; defences never move) put in contact."""
    rs, tables = _tables(state)
    may = rs.catalogue.actions["teleport"].may
    up = afloat(state)
    for uid, me in up.items():
        for tid, them in up.items():
            if them["side"] == me["side"] or them["shields_up"]:
                continue  # shields up stay up: nothing in a forecast raises or lowers them by hand
            key = "ships" if uid in state["ships"] else "defences"
            trial = {**state, "phase": 4, key: {**state[key], uid: {**me, "teleported": False, "orders": ""}}}
            if uid in state["ships"] or tid in state["ships"]:
                trial["distances"] = {**state["distances"], pair(uid, tid): 0}
            if not may(trial, {"vessel": uid, "target": tid}, tables):
                return True
    return False


def outcome(state: dict) -> Outcome:
    """Asked before every decision of a simulated fight: one pass over the vessels, the teleport
    question only when no salvo and no tubes are left."""
    survived: dict[str, bool] = {}
    standing: set[str] = set()
    armed = False
    for key in ("ships", "defences"):
        for uid, v in state[key].items():
            survived[uid] = not v["destroyed"]
            if not v["destroyed"]:
                standing.add(v["side"])
                armed = armed or v["torpedoes"] > 0
    if len(standing) <= 1:
        return Outcome(True, next(iter(standing), ""), state["turn"], survived)
    going = bool(state["ordnance"]) or armed or teleport_still_possible(state)
    return Outcome(not going, "", state["turn"], survived)


# --- choosing ---------------------------------------------------------------------------------------

def weakness(v: dict) -> tuple[int, int]:
    """Sorts the easiest prey first: escorts (a hit-and-run attack destroys one), then fewest hits left."""
    return (0 if v["class"] == "escort" else 1, v["hits"])


def repair_rank(crit: dict) -> int:
    effect = crit["effect"]
    return REPAIR_FIRST.index(effect) if effect in REPAIR_FIRST else len(REPAIR_FIRST)


class Commander:
    """Plays a gothic fight by the doctrine of each side (``decide`` gives the next action, or None).

    Every value it gives is one the rules offer, in the form the argument check returns (vessel, salvo and
    order ids from the state and the ``orders`` table, the load from ``ordnance.KINDS``, a critical by its
    index as text, whole numbers for strengths and centimetres): ``offers_checked`` lets the forecast leave
    the judging to each action's ``may``, which this commander asks before it gives any choice.
    """

    offers_checked = True

    def __init__(self, ruleset, doctrines: dict[str, dict]) -> None:
        self.ruleset = ruleset
        self.doctrines = doctrines
        self.actions = ruleset.catalogue.actions
        self.tables = None  # one commander plays one fight: its tables do not change within it
        self.moved_turn = 0  # the last turn whose movement is all entered
        self.moved: set[str] = set()  # pairs whose distance this turn's movement has settled

    def allowed(self, state: dict, name: str, args: dict) -> bool:
        return not self.actions[name].may(state, args, self.tables)

    def decide(self, state: dict):
        if outcome(state).over:
            return None
        if self.tables is None:
            self.tables = self.ruleset.tables_for(state)
        phase = state["phase"]
        choice = None
        if phase == 1:
            choice = self.reloading(state) or self.moving(state)
        elif phase == 2:
            choice = self.launching(state)
        elif phase == 3:
            choice = self.salvos(state)
        elif phase == 4:
            choice = self.teleporting(state) or self.repairing(state)
        return choice or ("next", {})

    def enemies(self, state: dict, uid: str) -> list[str]:
        side = afloat(state)[uid]["side"]
        return [tid for tid, t in afloat(state).items() if t["side"] != side]

    # --- movement phase ---

    def reloading(self, state: dict):
        reloads = [oid for oid, order in self.tables.orders.items() if order["reloads"]]
        if not reloads:
            return None
        for uid, ship in state["ships"].items():
            if ship["destroyed"] or not ship["torpedoes"] or ship["loaded"]:
                continue
            orders = self.doctrines[ship["side"]]
            if orders["reload"] == "never":
                continue
            if orders["reload"] == "unless_teleport" and orders["teleport"] != "never" \
                    and self.may_teleport_this_turn(state, uid):
                continue  # the reloading order would forbid the teleport attack
            args = {"vessel": uid, "order": reloads[0]}
            if self.allowed(state, "special_orders", args):
                return "special_orders", args
        return None

    def may_teleport_this_turn(self, state: dict, uid: str) -> bool:
        """Whether the teleport rule's own ``may`` would let ``uid`` attack some enemy in this turn's end
        phase, were it on no special order: asked on a copy of the fight in the end phase with every
        distance as this movement phase will leave it; everything else (shields, hits) as it stands."""
        trial = {**state, "phase": 4, "distances": self.after_movement(state),
                 "ships": {**state["ships"], uid: {**state["ships"][uid], "orders": ""}}}
        return any(self.allowed(trial, "teleport", {"vessel": uid, "target": tid})
                   for tid in self.enemies(state, uid))

    def after_movement(self, state: dict) -> dict[str, int]:
        """Every distance as this turn's movement will leave it (a pair already moved stays as it is)."""
        if self.moved_turn == state["turn"]:
            return state["distances"]
        up = afloat(state)
        return {key: cm if key in self.moved else self.closed(state, key, up)
                for key, cm in state["distances"].items()}

    def closed(self, state: dict, key: str, up: dict[str, dict]) -> int:
        """The distance of a pair once both have moved: each side in turn, each of its ships (defences hold)
        ``approach_cm`` nearer, but never nearer than its ``stand_off_cm``."""
        a, _, b = key.partition("|")
        cm = state["distances"][key]
        for side in state["side_order"]:
            for uid in (a, b):
                if uid in up and up[uid]["side"] == side and uid in state["ships"]:
                    orders = self.doctrines[side]
                    cm -= min(orders["approach_cm"], max(0, cm - orders["stand_off_cm"]))
        return cm

    def moving(self, state: dict):
        """One distance at a time: each pair of enemies closed by what both of them move this turn."""
        if self.moved_turn == state["turn"]:
            return None
        up = afloat(state)
        for key in sorted(state["distances"]):
            if key in self.moved:
                continue
            self.moved.add(key)
            a, _, b = key.partition("|")
            if a not in up or b not in up:
                continue
            now = state["distances"][key]
            new = self.closed(state, key, up)
            args = {"vessel": a, "target": b, "cm": new}
            if new != now and self.allowed(state, "set_distance", args):
                return "set_distance", args
        self.moved_turn, self.moved = state["turn"], set()
        return None

    # --- shooting phase ---

    def launching(self, state: dict):
        for side in state["side_order"]:
            orders = self.doctrines[side]
            if orders["torpedoes"] == "hold":
                continue
            for uid, v in afloat(state).items():
                if v["side"] != side or not v["torpedoes"] or not v["loaded"] or v["launched"]:
                    continue
                if not self.allowed(state, "launch", {"vessel": uid}):
                    continue
                choice = self.salvo_for(state, uid, v, orders)
                if choice is not None:
                    return "launch", choice
        return None

    def salvo_for(self, state: dict, uid: str, v: dict, orders: dict) -> dict | None:
        reachable = [(distance(state, uid, tid), tid) for tid in self.enemies(state, uid)]
        reachable = [(cm, tid) for cm, tid in reachable if cm is not None]
        up = afloat(state)
        if orders["torpedoes"] == "nearest":
            ranked = sorted(reachable, key=lambda e: (e[0], weakness(up[e[1]])))
        else:
            ranked = sorted(reachable, key=lambda e: (weakness(up[e[1]]), e[0]))
        for cm, tid in ranked:
            boarding = v["boarding_torpedoes"] and (
                orders["boarding"] == "always"
                or (orders["boarding"] == "against_escorts" and up[tid]["class"] == "escort"))
            load = "boarding" if boarding else "torpedoes"  # the two loads ``ordnance.KINDS`` offers
            args = {"vessel": uid, "kinds": [load], "strength": v["torpedoes"], "target": tid,
                    "distance": max(1, cm)}  # the full salvo, placed at the launcher's distance (1 cm at least)
            if self.allowed(state, "launch", args):
                return args
        return None

    # --- ordnance phase ---

    def salvos(self, state: dict):
        for sid, salvo in state["ordnance"].items():
            if salvo["moved"]:
                continue
            args = {"salvo": sid, "turn": 0, "distance": max(0, salvo["distance"] - move_cm(salvo, self.tables))}
            if self.allowed(state, "move_salvo", args):
                return "move_salvo", args
        return None

    # --- end phase ---

    def teleporting(self, state: dict):
        for side in state["side_order"]:
            if self.doctrines[side]["teleport"] == "never":
                continue
            up = afloat(state)
            for uid, v in up.items():
                if v["side"] != side or not self.allowed(state, "teleport", {"vessel": uid}):
                    continue
                for tid in sorted(self.enemies(state, uid), key=lambda t: weakness(up[t])):
                    args = {"vessel": uid, "target": tid}
                    if self.allowed(state, "teleport", args):
                        return "teleport", args
        return None

    def repairing(self, state: dict):
        for uid, v in afloat(state).items():
            if not self.doctrines[v["side"]]["repair"] or not self.allowed(state, "repair", {"vessel": uid}):
                continue
            ranked = sorted(range(len(v["criticals"])), key=lambda i: repair_rank(v["criticals"][i]))
            for i in ranked:
                args = {"vessel": uid, "critical": str(i)}
                if self.allowed(state, "repair", args):
                    return "repair", args
        return None
