"""What one side knows in a classic-hg fight: the players' screen.

Source: ``classic-hg-combat.txt``. The text has no sensor states: "two hostile
ships encounter one another" and fight at a range both know ("Determine
Range"), so each side sees the other's ships and the range. What it reads of
an enemy ship is what the procedure tells it aloud:

- the initiative rolls ("Each Captain rolls 1D, adding Ship's Tactics as a
  +DM. The Captain with the higher roll has the initiative"), who is ATTACKER
  and DEFENDER, surprise, simultaneous initiative;
- the fire declared ("the Captain of the firing ship notes the range,
  determines the weapons to be used and initiates fire") and whether each
  attack hit, was intercepted ("The targeted player indicates which defensive
  systems he will use against each attack") or got through;
- that a ship broke off ("may break off action") or left the fight.

Its damage is not told: "The DEFENDER records damage caused by any of the
ATTACKER's offensive fire", so armor absorption, hit locations and their
effects are the target side's record alone. Where the text is silent we
decided, as one policy for everything a side reads (the log, its notes, the
panel's lines and the side's own ship panels):

- Initiative is told aloud: every side reads each side's total, in the log
  as in the panel ("Initiative: Imperial Navy 9, Corsairs 3") and the
  simultaneous-initiative note; the die and the Ship's Tactics DM behind a
  total are the rolling side's alone.
- An enemy ship is read by its name and what it does, never by what it
  carries: its armor, computer, programs, fuel and crew, and its weapons.
  Its mounts are never named either (a turret, battery or tube id names the
  weapons in it, through the fire form and the ship's file). So another
  side's fire reads as who fires at whom (a torpedo launch as fire too), an
  attack by its id, an interception by the attack it tries to stop; a roll
  whose purpose names a mount or a weapon ("To hit: Kinunir T1 Particle
  accelerator x1 at Black Jack") reads to every side but the one that owns
  the mount in those words ("To hit: Kinunir at Black Jack"). The target side
  records its own damage in full, but the enemy weapon that made it is not
  named there either (not in a nuclear hit's crew roll, not in its ship's
  list of crew attacks): what it did (its points, radiation, spallation, the
  personal weapon the text resolves a crew hit as) is all it reads of it.
- A roll shows its modifiers only to the side whose data they are: its own
  initiative and damage rolls in full; to-hit and interception rolls (whose
  DMs mix both ships' data) as their outcome to both sides, with the effects
  noted after them to the side whose ship they fell on; damage rolls on an
  enemy ship not at all (their very purpose names the location struck), and
  a crew hit's personal-combat rolls to the crew's own side only. An attack's
  damage begun under the roll or action that ended the one before it is its
  own target side's to read, not that roll's readers'.
- An action is seen as declared: another side's as who does what at whom,
  never its arguments (the programs loaded, the turrets); its effects noted
  are the acting side's to read (a step change can apply an enemy's recorded
  damage).
"""

from __future__ import annotations

from engine.rolls import RollRequest
from engine.sideview import BARE, FULL, HIDDEN, OUTCOME, RESULT, TOTAL, Contact, SideView, own_units, side_name
from .turn import simultaneous
from .views import RECENT, crew_attack_text, standing_lines

DAMAGE_ROLLS = ("general_location", "specific_location", "spallation", "radiation", "radiation_crew",
                "radiation_days", "nuclear_crew", "pick")

#: Another side's actions that attack, whatever the weapon: each reads as "fire" (a launch named the torpedo).
ATTACKS = ("fire", "launch_torpedo")


def _ship_side(state: dict, ship_id: object) -> str:
    ship = state["ships"].get(ship_id) if isinstance(ship_id, str) else None
    return ship["side"] if isinstance(ship, dict) else ""


def _name(state: dict, ship_id: object) -> str:
    ship = state["ships"].get(ship_id) if isinstance(ship_id, str) else None
    return str(ship.get("name", ship_id)) if isinstance(ship, dict) else str(ship_id or "")


def _attack(state: dict, attack_id: object) -> dict:
    return next((a for a in state.get("attacks", []) if a.get("id") == attack_id), {})


# --- the policy: whose mounts and weapons a line may name ------------------------------------------------------

def _mount_owner(state: dict, request: RollRequest) -> str:
    """The side whose mount or weapon the roll's purpose names ("" for none): the firer's in a to-hit roll, the
    defending side's in an interception, the firer's in a nuclear hit's crew roll (its weapon's label)."""
    then, c = request.then, request.context
    if then == "to_hit":
        return _ship_side(state, c.get("ship"))
    attack = _attack(state, c.get("attack"))
    if then == "intercept":
        return _ship_side(state, attack.get("target"))  # only the targeted side defends
    if then == "nuclear_crew":
        return _ship_side(state, attack.get("by"))
    return ""


def _named(tier: str, request: RollRequest, words: str) -> str | tuple[str, str]:
    """The tier, with the words to name the roll by when they are not its purpose."""
    return tier if words == request.purpose else (tier, words)


def _told(state: dict, side: str, request: RollRequest) -> str:
    """The words ``side`` reads a roll by: its purpose, unless that names another side's mount or weapon;
    then who fires at whom, which attack an interception tries to stop, what a crew hit asks."""
    owner = _mount_owner(state, request)
    if not owner or owner == side:
        return request.purpose
    c = request.context
    if request.then == "to_hit":
        return f"To hit: {_name(state, c.get('ship'))} at {_name(state, c.get('target'))}"
    if request.then == "intercept":
        return f"Intercept {c.get('attack', '')}"
    asks = request.purpose.partition(": ")[2]  # "Nuclear missile: is the crew in the bridge of Vigilant killed?"
    return f"Crew hit: {asks}" if asks else "Crew hit"


def _attack_line(state: dict, side: str, attack: dict) -> str:
    """'A3 Vigilant T1 at Jackal: hit' for the side's own attack; another side's without its mount."""
    by = attack.get("by", "")
    mount = f" {attack.get('mount', '')}" if _ship_side(state, by) == side and attack.get("mount") else ""
    return f"{attack.get('id', '')} {_name(state, by)}{mount} at {_name(state, attack.get('target', ''))}: " \
           f"{attack.get('status', '')}"


def _declared(ruleset, state: dict, data: dict, args: dict) -> str:
    """Another side's action as the table hears it: who does what (at whom, to which attack), never its
    arguments (a program load listed every program; turret ids name the weapons)."""
    name = data.get("name")
    action = ruleset.catalogue.actions.get(name)
    label = "Fire" if name in ATTACKS else (action.label if action is not None else str(name or ""))
    target = args.get("target")
    at = f" at {_name(state, target)}" if isinstance(target, str) and target in state["ships"] else ""
    attack = f" ({args['attack']})" if name == "defend" and isinstance(args.get("attack"), str) else ""
    return f"{_name(state, args['ship'])}: {label}{at}{attack}"


# --- what a side reads ---------------------------------------------------------------------------------------

def _contact(state: dict, tid: str) -> Contact:
    ship = state["ships"][tid]
    known = [("Range", str(state["range"]))]
    if ship.get("broken_off"):
        known.append(("In the fight", f"no ({ship.get('out') or 'broken off'})"))
    else:
        known.append(("In the fight", "yes"))
    return Contact(tid, ship["name"], tuple(known))


def _attack_lines(state: dict, side: str) -> list[str]:
    return [_attack_line(state, side, a) for a in state.get("attacks", [])
            if side in (_ship_side(state, a.get("by", "")), _ship_side(state, a.get("target", "")))]


def side_view(ruleset, state: dict, side: str) -> SideView:
    own = own_units(ruleset, state, side)
    contacts = tuple(_contact(state, tid) for tid, s in state["ships"].items() if s["side"] != side)
    notes = standing_lines(state)
    if state.get("surprised"):
        notes.append(f"Surprise: {side_name(state, state['surprised'])}")
    if simultaneous(state):
        notes.append("Simultaneous initiative: the defender's damage waits until step 8")
    notes.append(f"Range: {state['range']}")
    notes += _attack_lines(state, side)
    return SideView(side, side_name(state, side), own, contacts, tuple(notes))


def own_panels(ruleset, state: dict, side: str, kind, uid: str) -> dict[str, list[tuple[str, str]]]:
    """The console's panels of the side's own unit, but a ship's crew attacks without the enemy weapon that made
    them (the crew attack table names each weapon; spallation is the ship's own armor)."""
    panels = ruleset.unit_panels(state, kind, uid)
    ship = state["ships"].get(uid) if kind.key == "ships" else None
    if not isinstance(ship, dict) or "Armor and crew" not in panels:
        return panels
    tables = ruleset.tables_for(state)
    weapons = set(tables.crew_attacks) - {"spallation"}
    records = iter(ship.get("crew_attacks", [])[-RECENT:])
    panels["Armor and crew"] = [(label, crew_attack_text(next(records), tables, weapons) if label == "Crew attack"
                                 else value)
                                for label, value in panels["Armor and crew"]]
    return panels


def log_seen(ruleset, state: dict, side: str, kind: str, data: dict,
             request: RollRequest | None) -> str | tuple[str, str]:
    if kind == "correction":
        path = data.get("path") or []
        return FULL if len(path) >= 2 and path[0] == "ships" and _ship_side(state, path[1]) == side else HIDDEN
    if kind == "action":
        args = data.get("args") or {}
        if not isinstance(args, dict):
            return HIDDEN
        acting = _ship_side(state, args.get("ship"))
        if acting == side or not acting:
            return FULL if acting == side else BARE
        return BARE, _declared(ruleset, state, data, args)
    if request is None or request.secret or data.get("secret") is True:
        return HIDDEN
    owner, _, then = request.then.rpartition(":")
    c = request.context
    if owner:  # a crew hit played by another ruleset's rules: the crew's own side alone reads it (names, wounds)
        person = state.get("people", {}).get(c.get("target") or c.get("person"), {})
        return FULL if isinstance(person, dict) and person.get("side") == side else HIDDEN
    if then == "initiative":  # told aloud: the total, not the die or the Tactics DM
        return FULL if c.get("side") == side else (TOTAL, request.purpose)
    words = _told(state, side, request)
    if then in ("to_hit", "ram"):
        if side == _ship_side(state, c.get("target")):
            return _named(OUTCOME, request, words)
        return _named(RESULT if side == _ship_side(state, c.get("ship")) else BARE, request, words)
    attack = _attack(state, c.get("attack"))
    target_side = _ship_side(state, attack.get("target"))
    if then == "intercept":
        by_side = _ship_side(state, attack.get("by"))
        return _named(OUTCOME if side == target_side else RESULT if side == by_side else BARE, request, words)
    if then in DAMAGE_ROLLS:  # "The DEFENDER records damage": where it struck and what it did are its alone
        return _named(FULL, request, words) if side == target_side else HIDDEN
    return _named(BARE, request, words)


def notes_about(ruleset, state: dict, side: str, subject: dict, notes: list[str]) -> list[str]:
    """An attack's damage begun under another attack's roll (``damage.next_damage``): "The DEFENDER records
    damage", so its target's side reads it, whoever's roll it came under, and no other side does."""
    attack = _attack(state, subject.get("attack"))
    return notes if attack and side == _ship_side(state, attack.get("target")) else []
