"""How a percentile fight is played out in a forecast: the doctrine each side follows, and who has won.

A doctrine is data (``doctrines/NAME.toml``, ``[orders]``); the game master picks
one per side. The ``Commander`` reads the state, takes every value it gives
from what the rules offer (the people, weapons, targets, body parts, sides and
the attacked the catalogue lists) and asks each action's own ``may`` before it
gives the engine one action at a time; every roll and its effect come from
``turn``, ``combat``, ``wounds`` and ``alertness``, never from here.

The rules text leaves every one of these choices to the players and the game
master; the doctrine is our decision. The shipped ``standard`` doctrine, in words:

- Rolls: surprise and primary attack are rolled when the step asks for them.
- Distance: a save holds no map, so each side fights at its ``range_m``
  (8 metres by default: a ship's corridor, short range on Table 3-1). It is
  the range of each of its attacks; nobody moves on Table 3-6, and a
  hand-to-hand weapon is used only when that range is within its reach (the
  rule's own ``may`` says so).
- Attacks: in its side's turn each person, in the order the save lists them,
  attacks for as long as its Agility Points allow, with the weapon likely to
  do the most harm among those the points allow now: the chance of rolling
  under its percent to hit (``combat.percent_to_hit`` at that range, no
  adversity; a grenade by the chance of landing where thrown, under Brawl)
  times the points Table 3-3 gives its WEP MOD at that range (with the
  strength bonus of a hand-to-hand attack). Each person throws at most
  ``grenades`` grenades (one) in the rest of the fight, since the text counts
  no ammunition; nobody else is named as standing with a grenade's target.
  With action procedure 1 (no Agility Points) each person attacks once a
  sub-turn.
- Target: ``most_hurt``, the enemy with the fewest points left before a
  vital part (``people.vital_parts``) loses all function; or
  ``most_dangerous``, the enemy whose best weapon would do the most harm by
  the same measure (reach not judged: they may close in). A tie goes to the
  one listed first. The aim is always that enemy's vital part with the
  fewest points left (it matters on a direct hit).
- No adversity modifiers are named (the weather and cover are the game
  master's), no poisons, no sleep, no lost contact, and alertness is never
  set back down.
- Primary attack is not passed (``pass_primary`` passes it when it may be).
- Agility Points are not borrowed (``borrow`` lets a person, in the last
  sub-turn of a round, borrow at 3:1 what the weapon it last attacked with
  still costs, once a round).
- A side waiting to join (``joins_later``) comes in from round
  ``join_in_round`` (1: as soon as the rules let it; 0: never).
- An attacked side (surprise procedure 2) or person (procedure 3) has its
  Alertness Percentage raised by ``alertness_rise`` (10), by its own side's
  doctrine, or by as much as ``may`` still allows below that.

A fight is over when the rules end it (``turn.over_when_one_side_stands``):
the side left standing wins. A person survives while not dead.
"""

from __future__ import annotations

from functools import lru_cache

from engine.actions import candidates
from engine.rolls import RollRequest, Target
from engine.ruleset import Outcome
from engine.schema import Field, validate

from .alertness import owed
from .combat import percent_to_hit, strength_bonus
from .people import members, vital_parts
from .tables import band_of, row_at
from .turn import BORROW_RATE, acting_side, ap_left, fighting_sides

DEFAULT_DOCTRINE = "standard"
TURN_WORD = "round"  # the text fights round by round: the forecast counts fights' lengths in rounds
TARGETS = ("most_hurt", "most_dangerous")

ORDER_FIELDS: tuple[Field, ...] = (
    Field("range_m", "int", default=8, minimum=0, maximum=3000,
          help="the distance in metres the side fights at: the range of each of its attacks"),
    Field("target", "str", default="most_hurt", choices=TARGETS,
          help="most_hurt: the enemy nearest to death; most_dangerous: the enemy whose weapons do most harm"),
    Field("grenades", "int", default=1, minimum=0, maximum=100,
          help="grenades each person throws in the rest of the fight"),
    Field("pass_primary", "bool", default=False, help="pass primary attack and act last, when it may"),
    Field("borrow", "bool", default=False,
          help="in a round's last sub-turn, borrow at 3:1 what one more attack still costs (once a round)"),
    Field("join_in_round", "int", default=1, minimum=0, maximum=1000,
          help="a side waiting to join comes in from this round (0: never)"),
    Field("alertness_rise", "int", default=10, minimum=1, maximum=100,
          help="how far an attacked side's (or person's) Alertness Percentage jumps"),
)


def check_doctrine(doc: dict, where: str) -> dict:
    """The ``[orders]`` of a doctrine file, every field checked, defaults filled in."""
    return validate(doc.get("orders", {}), ORDER_FIELDS, f"{where}: orders", allow_extra=False)


# --- who won --------------------------------------------------------------------------------------

def progress(state: dict) -> tuple[bool, int]:
    """Over or not, and the round (``Ruleset.progress``): the outcome's first and third answers."""
    return state["step"] == "over", state["round"]


def outcome(state: dict) -> Outcome:
    survived = {pid: not p["dead"] for pid, p in state["people"].items()}
    if state["step"] != "over":
        return Outcome(False, "", state["round"], survived)
    standing = fighting_sides(state)
    return Outcome(True, standing[0] if len(standing) == 1 else "", state["round"], survived)


# --- judging an attack ----------------------------------------------------------------------------

@lru_cache(maxsize=256)
def under_chance(number: int) -> float:
    """The exact chance that 1:100sd rolls under ``number`` (the dice layer's own count)."""
    if number <= 1:
        return 0.0
    return float(RollRequest("", "1:100sd", target=Target(number - 1, at_most=True)).chance())


def harm(tables, to_hit: int, person: dict, weapon_id: str, metres: int) -> float:
    """How much harm a weapon is likely to do at a range: chance to hit times the Table 3-3 points."""
    weapon = tables.weapons[weapon_id]
    band = band_of(tables, metres)
    if weapon["kind"] == "grenade":
        number = person["brawl"]
    else:
        number = percent_to_hit(to_hit, tables, person, weapon, band, [])[0]
        if to_hit == 3:  # procedure 3: a positive result hits whatever the roll (``combat.attack``)
            return (1.0 if number > 0 else 0.0) * _points(tables, person, weapon, band)
    return under_chance(number) * _points(tables, person, weapon, band)


def _points(tables, person: dict, weapon: dict, band: str) -> int:
    """Table 3-3's points for the weapon at the range, with a hand-to-hand attacker's strength."""
    return row_at(tables.damage, weapon["wep_mod"])[tables.band_index(band)] + strength_bonus(person, weapon)


def points_to_death(person: dict, tables) -> int:
    """Points left before the person's weakest vital part has no function."""
    return min(person["body"][p]["points"] - person["body"][p]["taken"] for p in vital_parts(person, tables))


class Commander:
    """Plays a percentile fight by the doctrine of each side (``decide`` gives the next action).

    Every value comes from the rules' offers (``engine.actions.candidates`` of each parameter) or from the
    doctrine (a range, a number of points), in the form the argument check returns, and every choice is
    passed by its action's ``may`` before it is given: ``offers_checked`` lets the forecast leave the
    judging to ``may``, and ``vouched`` names the arguments it has already passed on this state.
    """

    offers_checked = True

    def __init__(self, ruleset, doctrines: dict[str, dict]) -> None:
        self.ruleset = ruleset
        self.doctrines = doctrines
        self.catalogue = ruleset.catalogue
        self.actions = ruleset.catalogue.actions
        self.tables = None
        #: What one commander remembers of its own fight: grenades thrown and the last weapon used, by
        #: person; who borrowed in which round; who attacked in which sub-turn (action procedure 1).
        self.thrown: dict[str, int] = {}
        self.last_weapon: dict[str, str] = {}
        self.borrowed: set[tuple[int, str]] = set()
        self.attacked: set[tuple[int, int, str]] = set()
        self.harms: dict[tuple, float] = {}
        self.vouched: dict | None = None

    # --- asking the rules ---

    def read_tables(self, state: dict) -> None:
        """The fight's tables, read once (they cannot change within a fight)."""
        if self.tables is None:
            self.tables = self.ruleset.tables_for(state)

    def allowed(self, state: dict, name: str, args: dict) -> bool:
        if self.actions[name].may(state, args, self.tables):
            return False
        self.vouched = args
        return True

    def offered(self, state: dict, name: str, param: str, args: dict) -> list[str]:
        """The values the rules list for a parameter, given the arguments chosen so far (before ``may``)."""
        action = self.actions[name]
        return [c.value for c in candidates(self.catalogue, state, action, action.param(param), args,
                                            self.tables, state["side_order"], labelled=False)]

    # --- deciding ---

    def decide(self, state: dict):
        self.vouched = None
        if state["step"] == "over":
            return None
        self.read_tables(state)
        choice = None
        if owed(state):
            choice = self.rise(state)
        elif state["step"] in ("surprise", "primary"):
            args: dict = {}
            if self.allowed(state, state["step"], args):
                choice = state["step"], args
        elif state["step"] == "action":
            choice = self.joining(state) or self.passing(state) or self.acting(state)
        if choice is None:
            args = {}
            if self.allowed(state, "next", args):
                choice = "next", args
        return choice

    def rise(self, state: dict):
        """The first attacked one's Alertness Percentage raised by its side's doctrine, as far as ``may`` allows."""
        for who in self.offered(state, "alertness_rise", "who", {}):
            side = state["people"][who]["side"] if who in state["people"] else who
            for by in range(self.doctrines[side]["alertness_rise"], 0, -1):
                args = {"who": who, "by": by}
                if self.allowed(state, "alertness_rise", args):
                    return "alertness_rise", args
        return None

    def joining(self, state: dict):
        if all(s in state["joined"] for s in state["side_order"]):
            return None
        for side in self.offered(state, "join", "side", {}):
            start = self.doctrines[side]["join_in_round"]
            args = {"side": side}
            if start and state["round"] >= start and self.allowed(state, "join", args):
                return "join", args
        return None

    def passing(self, state: dict):
        side = acting_side(state)
        args: dict = {}
        if side and self.doctrines[side]["pass_primary"] and self.allowed(state, "pass_primary", args):
            return "pass_primary", args
        return None

    def acting(self, state: dict):
        side = acting_side(state)
        if not side:
            return None
        for pid in members(state, side):
            choice = self.attack_by(state, pid)
            if choice is None:
                choice = self.borrowing(state, pid)
            if choice is not None:
                return choice
        return None

    # --- one person's attack ---

    def weapon_harm(self, state: dict, person_id: str, weapon_id: str, metres: int) -> float:
        """``harm`` once a fight for each person, weapon and range (a person's attributes never change)."""
        key = (person_id, weapon_id, metres)
        found = self.harms.get(key)
        if found is None:
            found = self.harms[key] = harm(self.tables, state["options"]["to_hit"], state["people"][person_id],
                                           weapon_id, metres)
        return found

    def danger(self, state: dict, person_id: str, metres: int) -> float:
        weapons = state["people"][person_id]["weapons"]
        return max((self.weapon_harm(state, person_id, w, metres) for w in weapons), default=0.0)

    def pick_target(self, state: dict, targets: list[str], orders: dict) -> str:
        if orders["target"] == "most_dangerous":
            return max(targets, key=lambda t: (self.danger(state, t, orders["range_m"]), -targets.index(t)))
        return min(targets, key=lambda t: (points_to_death(state["people"][t], self.tables), targets.index(t)))

    def pick_aim(self, state: dict, target: str, parts: list[str]) -> str:
        person = state["people"][target]
        vital = [p for p in parts if p in vital_parts(person, self.tables)] or parts
        body = person["body"]
        return min(vital, key=lambda p: (body[p]["points"] - body[p]["taken"], parts.index(p)))

    def attack_by(self, state: dict, pid: str):
        person = state["people"][pid]
        orders = self.doctrines[person["side"]]
        self.read_tables(state)
        once = ap_left(state, person) is None  # action procedure 1: one attack a sub-turn
        if once and (state["round"], state["subturn"], pid) in self.attacked:
            return None
        base = {"person": pid}
        if not self.allowed(state, "attack", base):
            return None
        metres = orders["range_m"]
        weapons = [w for w in self.offered(state, "attack", "weapon", base)
                   if self.tables.weapons[w]["kind"] != "grenade" or self.thrown.get(pid, 0) < orders["grenades"]]
        ranked = sorted(weapons, key=lambda w: (-self.weapon_harm(state, pid, w, metres), weapons.index(w)))
        for weapon in ranked:
            if self.weapon_harm(state, pid, weapon, metres) <= 0:
                break
            args = {"person": pid, "weapon": weapon}
            if not self.allowed(state, "attack", args):
                continue  # its points are not there now
            targets = [t for t in self.offered(state, "attack", "target", args)
                       if self.allowed(state, "attack", {**args, "target": t})]
            if not targets:
                return None
            target = self.pick_target(state, targets, orders)
            args = {**args, "target": target, "range": metres}
            if not self.allowed(state, "attack", args):
                continue  # out of its reach, or too heavy to throw that far
            aim = self.pick_aim(state, target, self.offered(state, "attack", "aim", args))
            args = {**args, "aim": aim, "with_target": [], "adversity": []}
            if not self.allowed(state, "attack", args):
                continue
            if self.tables.weapons[weapon]["kind"] == "grenade":
                self.thrown[pid] = self.thrown.get(pid, 0) + 1
            self.last_weapon[pid] = weapon
            if once:
                self.attacked.add((state["round"], state["subturn"], pid))
            return "attack", args
        return None

    def borrowing(self, state: dict, pid: str):
        """In a round's last sub-turn: borrow, at the rules' 3:1, what the last weapon used still costs."""
        person = state["people"][pid]
        orders = self.doctrines[person["side"]]
        weapon = self.last_weapon.get(pid)
        if not orders["borrow"] or weapon is None or state["subturn"] != state["options"]["subturns"] \
                or (state["round"], pid) in self.borrowed:
            return None
        left = ap_left(state, person)
        short = self.tables.weapons[weapon]["ap"] - (left or 0)
        if left is None or short <= 0:
            return None
        args = {"person": pid, "points": BORROW_RATE * short}
        if not self.allowed(state, "borrow", args):
            return None
        self.borrowed.add((state["round"], pid))
        return "borrow", args
