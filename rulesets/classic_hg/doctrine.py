"""How a classic-hg fight is played out in a forecast: the doctrine each side follows, and who has won.

A doctrine is data (``doctrines/NAME.toml``, ``[orders]``); the game master picks
one per side. The ``Commander`` reads the state, asks the rules (each action's
own ``may``) what it may do, and gives the engine one action at a time; the
engine applies it through the ruleset's contract, so every number comes from
``fire``, ``damage`` and ``turn``, never from here.

The shipped ``standard`` doctrine, in words:

- Every ship fires every turret or battery that can fire at the enemy it is
  most likely to hurt: the chance to hit (the rules' own modifiers, at the
  current range) times the points its armor lets through, HE warheads, no
  selective fire; torpedoes go to the same kind of target when a tube is ready.
- Interceptors go to the most dangerous incoming attack: the one that would
  put the most points through its target's armor, each turret to the attack it
  can still stop, until none is left or no turret can help.
- The side with the initiative closes the range when it is ahead (its ships'
  tonnage times their condition, against the enemy's), opens it when behind,
  and keeps it when even; a side that means to break off opens it.
- A side breaks off when it has lost half its tonnage (tonnage times the
  condition lost, ships out of the fight counting whole): each of its ships
  that is faster than every enemy breaks off at long range.
- The referee's ruling, since the text destroys no ship: a ship that can no
  longer hurt the enemy (no working weapon that fires with ammunition and
  energy for it, no tube with a torpedo) is withdrawn as disabled.
- No ramming, no small craft launched, no reprogramming.

A fight is over when a side has no ship left in it (``turn.leave_fight``); the
side still in it wins. A ship survives while it is in the fight or broke off.
"""

from __future__ import annotations

from functools import lru_cache

from engine.rolls import Modifier, RollRequest, Target
from engine.ruleset import Outcome
from engine.tables import kept_for
from engine.schema import Field, validate

from . import turn
from .fire import (attack_type, battery_gunnery, defences_for, fire_modifiers, firing_groups, group_working, incoming,
                   intercept_modifiers, program_facts, roll_cell, to_hit_cell, tracks_by_computer, working)
from .ships import energy_points
from .views import condition

DEFAULT_DOCTRINE = "standard"
RANGE_MOVES = ("close", "stay", "open")

ORDER_FIELDS: tuple[Field, ...] = (
    Field("fire", "str", default="most_likely_to_hurt", choices=("most_likely_to_hurt", "hold"),
          help="most_likely_to_hurt: every weapon at the enemy it is most likely to hurt; hold: no fire"),
    Field("torpedoes", "bool", default=True, help="launch a torpedo whenever a tube is ready"),
    Field("intercept", "str", default="most_dangerous", choices=("most_dangerous", "none"),
          help="most_dangerous: defences to the attack that would put the most points through"),
    Field("range_when_ahead", "str", default="close", choices=RANGE_MOVES),
    Field("range_when_even", "str", default="stay", choices=RANGE_MOVES),
    Field("range_when_behind", "str", default="open", choices=RANGE_MOVES),
    Field("break_off_at_loss", "float", default=0.5, minimum=0.0, maximum=1.0,
          help="break off once this share of the side's tonnage is lost (0: at once; 1.0: never, in effect)"),
    Field("withdraw_unarmed", "bool", default=True,
          help="the referee withdraws a ship that can no longer hurt the enemy, as disabled"),
)


def check_doctrine(doc: dict, where: str) -> dict:
    """The ``[orders]`` of a doctrine file, every field checked, defaults filled in."""
    return validate(doc.get("orders", {}), ORDER_FIELDS, f"{where}: orders", allow_extra=False)


# --- who won --------------------------------------------------------------------------------------

def progress(state: dict) -> tuple[bool, int]:
    """Over or not, and the turn (``Ruleset.progress``): the outcome's first and third answers."""
    return bool(state["over"]), state["turn"]


def outcome(state: dict) -> Outcome:
    ships = state["ships"]
    survived = {}  # a plain loop: asked after every decision of a forecast
    for sid, s in ships.items():
        survived[sid] = s["out"] in ("", "broken off")
    if not state["over"]:
        return Outcome(False, "", state["turn"], survived)
    left = [side for side in state["side_order"] if turn.ships_of(state, side)]
    return Outcome(True, left[0] if len(left) == 1 else "", state["turn"], survived)


# --- judging a shot -----------------------------------------------------------------------------

@lru_cache(maxsize=512)
def _chance(number: int, bonus: int) -> float:
    """2D + bonus meets ``number``: the dice layer's exact chance, as a float for ranking."""
    return float(RollRequest("", "2D", (Modifier("", bonus),), Target(number)).chance())


def hit_chance(cell, mods: list[Modifier]) -> float:
    if cell is None:
        return 0.0
    if cell == "auto":
        return 1.0
    bonus = 0
    for m in mods:
        bonus += m.value
    return _chance(int(cell), bonus)


def side_loss(state: dict, side: str) -> float:
    """Share of the side's tonnage lost: tonnage times condition lost, ships out of the fight whole."""
    total = lost = 0.0
    for sid, s in state["ships"].items():
        if s["side"] != side:
            continue
        total += s["tonnage"]
        lost += s["tonnage"] * (1.0 if s["out"] not in ("", "broken off") else 1.0 - condition(state, sid))
    return lost / total if total else 0.0


#: ``best_target`` by everything it weighs (``Commander.pick``), for each loaded tables: the weapons and
#: programs it reads are the tables', so one pick holds in every fight of a forecast (and in the next on the
#: same tables). By the tables' id, the tables held with their book so that id stays theirs.
_PICKS: dict[int, tuple] = {}  # ``kept_for`` each loaded tables
PICKS_KEPT = 4096  # picks kept for one tables before its book starts afresh (a bound, never reached by a demo)


def picks_for(tables) -> dict[tuple, str]:
    """The book of picks made with these tables."""
    return kept_for(_PICKS, tables)


def can_hurt(ship: dict, tables) -> bool:
    """A working weapon that fires, with its ammunition and the energy for it, or a tube with a torpedo."""
    power = energy_points(ship["tonnage"], ship["power_plant"]) - program_facts(ship["programs"], tables).energy
    for t in ship["turrets"]:
        if not working(t):
            continue
        mount = tables.mounts[t["weapon"]]
        if mount["fires"] and mount["energy_points"] <= power:
            for w in mount["fires"]:  # plain loops: asked of every ship before each side fires
                store = tables.weapons[w].get("ammo")
                if not store or ship[store] > 0:
                    return True
    if ship["torpedoes"] > 0:
        for tube in ship["tubes"]:
            if not tube["destroyed"]:
                return True
    return False


class Commander:
    """Plays a classic-hg fight by the doctrine of each side (``decide`` gives the next action).

    Every value it gives is taken from what the rules offer (ship and turret ids, battery ids from
    ``firing_groups``, attack ids from ``incoming``, ranges from ``turn.RANGES``, warhead ``he``, a withdraw
    reason of ``turn.OUT_REASONS``), in the form the argument check returns: ``offers_checked`` lets the
    forecast leave the judging to each action's ``may``.
    """

    offers_checked = True

    def __init__(self, ruleset, doctrines: dict[str, dict]) -> None:
        self.ruleset = ruleset
        self.doctrines = doctrines
        self.actions = ruleset.catalogue.actions
        # One commander plays one fight: what only damage changes is worked out once a step.
        self.tables = None
        self.judged: tuple = ()
        self.losses: dict = {}
        self.idle: tuple = ((), set())
        self.picks: dict[tuple, str] = {}  # the book of ``picks_for`` the fight's tables, once they are read
        #: The arguments object ``may`` last said yes to in this decision (the state has not changed since):
        #: a choice given with it is not judged again by the forecast (``engine.forecast.Playout.act``).
        self.vouched: dict | None = None

    def allowed(self, state: dict, tables, name: str, args: dict) -> bool:
        if self.actions[name].may(state, args, tables):
            return False
        self.vouched = args
        return True

    def decide(self, state: dict):
        self.vouched = None
        if state["over"]:
            return None
        if self.tables is None:
            self.tables = self.ruleset.tables_for(state)
            self.picks = picks_for(self.tables)
        tables = self.tables
        step = state["step"]
        # before each side fires (damage is applied in steps 5 and 8 only): a ruling made in step 1 holds in step 3,
        # for nothing a ship can hurt with changes in between (the initiative and the range; no ammunition is spent
        # before step 3's own fire). A ship that has fired this turn is ruled on next turn: its own fire spends
        # its ammunition within the step, after the ruling
        if step in (1, 3, 6) and self.judged != (state["turn"], step > 3):
            self.judged = (state["turn"], step > 3)
            for sid, ship in state["ships"].items():  # the referee's ruling first
                if not ship["broken_off"] and not ship["fired"] and self.doctrines[ship["side"]]["withdraw_unarmed"] \
                        and not can_hurt(ship, tables):
                    self.judged = ()
                    return "withdraw", {"ship": sid, "reason": "disabled"}
        choice = None
        if step == 1 and len(state["initiative"]) < 2:
            choice = "roll_initiative", {}
        elif step == 2 and state["turn"] > 1 and not state["range_set"]:
            choice = "set_range", {"range": self.range_wanted(state)}
        elif step in (3, 6):
            choice = self.offensive(state, tables)
        elif step in (4, 7):
            choice = self.defensive(state, tables)
        elif step in (5, 8):
            args: dict = {}
            if self.allowed(state, tables, "resolve_damage", args):
                choice = "resolve_damage", args
        if choice is None:
            args = {}
            if self.allowed(state, tables, "next", args):
                choice = "next", args
        return choice

    # --- range ---

    def loss(self, state: dict, side: str) -> float:
        """``side_loss`` once between damage steps (it changes only with damage, in steps 5 and 8, and ships
        leaving): the range in step 2 and the break-off in step 3 read one figure."""
        step = state["step"]
        between = step if step in (5, 8) else (step > 5) + (step > 8)
        left = 0  # ships out of the fight, counted in a plain loop
        for s in state["ships"].values():
            if s["broken_off"]:
                left += 1
        key = (state["turn"], between, left)
        if self.losses.get("key") != key:
            self.losses = {"key": key}
        if side not in self.losses:
            self.losses[side] = side_loss(state, side)
        return self.losses[side]

    def breaking_off(self, state: dict, side: str) -> bool:
        return self.loss(state, side) >= self.doctrines[side]["break_off_at_loss"]

    def range_wanted(self, state: dict) -> str:
        side = state["attacker"]
        orders = self.doctrines[side]
        mine, theirs = self.loss(state, side), self.loss(state, turn.other(state, side))
        if self.breaking_off(state, side):
            move = "open"
        elif mine < theirs:
            move = orders["range_when_ahead"]
        elif mine > theirs:
            move = orders["range_when_behind"]
        else:
            move = orders["range_when_even"]
        i = turn.RANGES.index(state["range"]) + {"close": -1, "stay": 0, "open": 1}[move]
        return turn.RANGES[min(max(i, 0), len(turn.RANGES) - 1)]

    # --- offensive fire ---

    def offensive(self, state: dict, tables):
        side = turn.firing_side(state)
        orders = self.doctrines[side]
        enemies = turn.ships_of(state, turn.other(state, side))
        if self.idle[0] != (state["turn"], state["step"]):
            self.idle = ((state["turn"], state["step"]), set())
        idle = self.idle[1]  # ships with nothing left to do this step: turrets only get used up
        breaking = None  # the side's, asked once for all its ships (when one has anything to do)
        for sid in turn.ships_of(state, side):
            if sid in idle:
                continue
            ship = state["ships"][sid]
            if breaking is None:
                breaking = self.breaking_off(state, side)
            if breaking:
                args = {"ship": sid}
                if self.allowed(state, tables, "break_off", args):
                    return "break_off", args
            if orders["fire"] == "hold":
                continue
            # a ship without tubes is never asked: the rule refuses it always
            if orders["torpedoes"] and ship["tubes"] \
                    and self.allowed(state, tables, "launch_torpedo", {"ship": sid, "warhead": "he"}):
                best = self.pick(state, ship, enemies, "torpedo_he", 0, tracks_by_computer(ship, True), tables, 1)
                if best:
                    return "launch_torpedo", {"ship": sid, "target": best, "warhead": "he"}
            order = self.fire_order(state, sid, ship, enemies, tables)
            if order:
                return "fire", order
            idle.add(sid)
        return None

    @staticmethod
    def weighed(state: dict, ship: dict, enemies: list[str]) -> tuple:
        """What ``pick`` weighs of the ships: the firing ship's programs, and each enemy still in the fight with
        its programs and armor (the same for every turret of one order: worked out once for them all)."""
        ships = state["ships"]
        return (tuple(ship["programs"]),
                tuple([(tid, tuple(ships[tid]["programs"]), ships[tid]["armor_factor"]) for tid in enemies]))

    def pick(self, state: dict, ship: dict, enemies: list[str], kind: str, skill: int, tracked: bool, tables,
             count: int, weighed: tuple | None = None) -> str:
        """``best_target``, kept by everything it weighs: the range, the attack type, skill, tracking and weapons,
        the firing ship's programs, and each enemy still in the fight with its programs and armor (a ship's
        turrets are weighed again after each of its orders, and alike turrets weigh alike). ``weighed``: what
        ``weighed`` gives for this ship and these enemies, when the caller has it.

        Kept for every fight on the same tables (``picks_for``): the key holds all that ``best_target`` reads of
        the state (the range; the firing ship's programs, for its to-hit DMs; each enemy's id, programs for its
        evasion DMs, and armor), the attack type, skill, tracking and weapons fired, and the tables hold the rest
        (the weapon, the programs' DMs). Names and the reason a gunner tracks by hand only name modifiers."""
        programs, targets = weighed or self.weighed(state, ship, enemies)
        key = (state["range"], kind, skill, tracked, count, programs, targets)
        picks = self.picks if tables is self.tables else picks_for(tables)
        found = picks.get(key)
        if found is None:
            if len(picks) >= PICKS_KEPT:
                picks.clear()
            found = picks[key] = self.best_target(state, ship, enemies, tables.weapons[kind], skill, tracked,
                                                  tables, count)
        return found

    def best_target(self, state: dict, ship: dict, enemies: list[str], weapon: dict, skill: int, tracked: bool,
                    tables, count: int) -> str:
        """The enemy this weapon is most likely to hurt: chance to hit times the points through its armor."""
        cell = to_hit_cell(weapon, state["range"])
        best, score = "", 0.0
        rated = int(weapon["damage"]) * (count if weapon["per_weapon"] else 1)
        for tid in enemies:
            target = state["ships"][tid]
            p = hit_chance(cell, fire_modifiers(state, ship, skill, tracked, target, tables, weapon))
            # a shot armor stops whole still counts a little (it wears the armor down)
            value = p * (max(0, rated - target["armor_factor"]) + 0.01)
            if value > score:
                best, score = tid, value
        return best

    def fire_order(self, state: dict, sid: str, ship: dict, enemies: list[str], tables) -> dict | None:
        """The turrets and batteries that can fire, grouped under the target each would pick; the first
        such group the rules accept whole (or, when energy runs short, its first turrets).

        The first target's whole list is asked first: an order the rules accept whole has every one of
        its groups accepted on its own too (each group's own checks, and less energy and ammunition),
        so when it passes it is the very order the group-by-group way below would find, for one ``may``.
        """
        picked: list[tuple[str, str]] = []  # (group, its target) for the groups that may be worth firing
        weighed = None  # the ships as ``pick`` weighs them: the same for every group, worked out for the first
        for gid, group in firing_groups(ship).items():
            n = group_working(group)
            used = group[0]["used"] if len(group) == 1 else any(t["used"] for t in group)
            if not n or used or not tables.mounts[group[0]["weapon"]]["fires"]:
                continue
            kind = attack_type(group[0], "he", tables)
            skill, tracked = battery_gunnery(ship, group)
            if weighed is None:
                weighed = self.weighed(state, ship, enemies)
            best = self.pick(state, ship, enemies, kind, skill, tracked, tables, n, weighed)
            if best:
                picked.append((gid, best))
        if not picked:
            return None
        first = picked[0][1]
        args = {"ship": sid, "turrets": [g for g, t in picked if t == first], "target": first, "warhead": "he",
                "location": ""}
        if self.allowed(state, tables, "fire", args):
            return args
        by_target: dict[str, list[str]] = {}
        for gid, best in picked:
            if self.allowed(state, tables, "fire", {"ship": sid, "turrets": [gid], "warhead": "he"}):
                by_target.setdefault(best, []).append(gid)
        for target, gids in by_target.items():
            while gids:
                args = {"ship": sid, "turrets": list(gids), "target": target, "warhead": "he", "location": ""}
                if self.allowed(state, tables, "fire", args):
                    return args
                gids = gids[:-1]
        return None

    # --- defensive fire ---

    def defensive(self, state: dict, tables):
        side = turn.defending_side(state)
        if self.doctrines[side]["intercept"] == "none":
            return None
        def threat(a: dict) -> tuple[int, int]:
            points = a["damage"] - a["reduced"]
            return points - state["ships"][a["target"]]["armor_factor"], points

        attacks = sorted([a for a in incoming(state) if threat(a)[0] > 0], key=threat, reverse=True)
        if not attacks:
            return None
        # which ships may defend at all does not depend on the attack: asked once, not once an attack
        ready = [sid for sid in turn.ships_of(state, side) if self.allowed(state, tables, "defend", {"ship": sid})]
        for attack in attacks:
            best, score = None, 0.0
            for sid in ready:
                ship = state["ships"][sid]
                for t in ship["turrets"]:
                    if t["used"] or not working(t):
                        continue
                    usable = defences_for(ship, t, attack, tables)
                    if not usable:
                        continue
                    args = {"ship": sid, "turret": t["id"], "attack": attack["id"], "defence": ""}
                    if not self.allowed(state, tables, "defend", args):
                        continue
                    cell = roll_cell(tables.defences[usable[0]]["to_intercept"], attack["weapon"])
                    p = hit_chance(cell, intercept_modifiers(ship, t, attack, tables))
                    if p > score:
                        best, score = args, p
            if best is not None:
                self.vouched = best  # its ``may`` said yes above, on this same state
                return "defend", best
        return None

