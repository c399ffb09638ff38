"""What one side knows in a classic-hg fight: the players' screen.

Source: ``classic-hg-combat.txt``. The text has no sensor states: "two hostile
ships encounter one another" and fight at a range both know ("Determine
Range"), so each side sees the other's ships and the range. What it reads of
an enemy ship is what the procedure tells it aloud:

- the initiative rolls ("Each Captain rolls 1D"), who is ATTACKER and
  DEFENDER, surprise, simultaneous initiative;
- the fire declared ("the Captain of the firing ship notes the range,
  determines the weapons to be used and initiates fire") and whether each
  attack hit, was intercepted ("The targeted player indicates which defensive
  systems he will use against each attack") or got through;
- that a ship broke off ("may break off action") or left the fight.

Its damage is not told: "The DEFENDER records damage caused by any of the
ATTACKER's offensive fire", so armor absorption, hit locations and their
effects are the target side's record alone. Where the text is silent we
decided:

- An enemy ship's armor, computer, programs, weapons, fuel and crew are never
  shown; its name is (the captains name what they fire at).
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
from engine.sideview import BARE, FULL, HIDDEN, OUTCOME, RESULT, Contact, SideView, own_units, side_name
from .views import standing_lines

DAMAGE_ROLLS = ("general_location", "specific_location", "spallation", "radiation", "radiation_crew",
                "radiation_days", "nuclear_crew", "pick")


def _ship_side(state: dict, ship_id: object) -> str:
    ship = state["ships"].get(ship_id) if isinstance(ship_id, str) else None
    return ship["side"] if isinstance(ship, dict) else ""


def _attack(state: dict, attack_id: object) -> dict:
    return next((a for a in state.get("attacks", []) if a.get("id") == attack_id), {})


def _contact(state: dict, tid: str) -> Contact:
    ship = state["ships"][tid]
    known = [("Range", str(state["range"]))]
    if ship.get("broken_off"):
        known.append(("In the fight", f"no ({ship.get('out') or 'broken off'})"))
    else:
        known.append(("In the fight", "yes"))
    return Contact(tid, ship["name"], tuple(known))


def _attack_lines(state: dict, side: str) -> list[str]:
    out = []
    for a in state.get("attacks", []):
        by, target = a.get("by", ""), a.get("target", "")
        if side not in (_ship_side(state, by), _ship_side(state, target)):
            continue
        name = lambda sid: state["ships"].get(sid, {}).get("name", sid)  # noqa: E731
        out.append(f"{name(by)} {a.get('mount', '')} at {name(target)}: {a.get('status', '')}")
    return out


def side_view(ruleset, state: dict, side: str) -> SideView:
    own = own_units(ruleset, state, side)
    contacts = tuple(_contact(state, tid) for tid, s in state["ships"].items() if s["side"] != side)
    notes = standing_lines(state)
    if state.get("surprised"):
        notes.append(f"Surprise: {side_name(state, state['surprised'])}")
    if state.get("simultaneous"):
        notes.append("Simultaneous initiative: the defender's damage waits until step 8")
    notes.append(f"Range: {state['range']}")
    notes += _attack_lines(state, side)
    return SideView(side, side_name(state, side), own, contacts, tuple(notes))


def log_seen(ruleset, state: dict, side: str, kind: str, data: dict, request: RollRequest | None) -> str:
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
        # another side's declaration, as the table hears it: who does what (at whom), never its arguments (a
        # program load listed every program; turret ids name the weapons)
        ships = state["ships"]
        action = ruleset.catalogue.actions.get(data.get("name"))
        label = action.label if action is not None else str(data.get("name", ""))
        target = ships.get(args.get("target"), {}).get("name", "") if isinstance(args.get("target"), str) else ""
        return BARE, f"{ships[args['ship']]['name']}: {label}" + (f" at {target}" if target else "")
    if request is None or request.secret or data.get("secret") is True:
        return HIDDEN
    owner, _, then = request.then.rpartition(":")
    c = request.context
    if owner:  # a crew hit played by another ruleset's rules: the crew's own side alone reads it (names, wounds)
        person = state.get("people", {}).get(c.get("target") or c.get("person"), {})
        return FULL if isinstance(person, dict) and person.get("side") == side else HIDDEN
    if then == "initiative":
        return FULL if c.get("side") == side else OUTCOME
    if then in ("to_hit", "ram"):
        if side == _ship_side(state, c.get("target")):
            return OUTCOME
        return RESULT if side == _ship_side(state, c.get("ship")) else BARE
    attack = _attack(state, c.get("attack"))
    target_side = _ship_side(state, attack.get("target"))
    if then == "intercept":
        return OUTCOME if side == target_side else (RESULT if side == _ship_side(state, attack.get("by")) else BARE)
    if then in DAMAGE_ROLLS:  # "The DEFENDER records damage": where it struck and what it did are its alone
        return FULL if side == target_side else HIDDEN
    return BARE


def notes_about(ruleset, state: dict, side: str, subject: dict, notes: list[str]) -> list[str]:
    """An attack's damage begun under another attack's roll (``damage.next_damage``): "The DEFENDER records
    damage", so its target's side reads it, whoever's roll it came under, and no other side does."""
    attack = _attack(state, subject.get("attack"))
    return notes if attack and side == _ship_side(state, attack.get("target")) else []
