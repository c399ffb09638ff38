"""What one side knows in a megatraveller fight: the players' screen.

Source: ``megatraveller-sensors-fire.txt``, "States of Detection in MT HG":

- undetected: "not on map", so the side's list leaves the ship out (it says
  only how many of the others it has not detected);
- detected: "There is something roughly there, and it's going this fast":
  where it is on the map and nothing else;
- located (scanned): the same, and that the side may now try a lock;
- locked: "If one of the two succeeds, you get power and tonnage, but NOT type
  nor other data. If both succeed, you get type code": exactly what the lock
  revealed, never armor, computer, defences or batteries;
- the uncertain lock task has "two rolls, yours and the GM's": the GM's roll is
  the referee's secret (``secret=True`` in ``sensors``) and never shows; the
  locking side reads only what followed it (locked, what was revealed).

Where the text is silent we decided:

- A contact is named by the name the game master gave its counter (the map at
  the table shows it); what the side knows of it is only the list above.
- A side's own sensor rolls show in full (its computer, the range, its
  tactics); another side's sensor actions and rolls do not show at all (passive
  sensors give no sign of being used on a ship).
- Fire is declared at the table: the firer's side and the target's see
  whether each to-hit and penetration roll made it, not its modifiers (they
  hold the target's Def DM and computer, and the firer's computer), and the
  firer reads which defence was penetrated, not its factor. Only the
  target's side reads the effects noted after them and its damage and
  criticals in full: their modifiers name its armor (AV), their notes its
  systems and what it has left.
- An action that names a ship the side has not detected is left out; another
  side's fire reads as who fires at whom (not the batteries' ids or the tactics
  points spent), and no line it reads of that fire names the battery, its
  weapon, its factor or its aim: not the rolls' purposes, not the notes under
  them (a tractor beam's "no damage table to roll on" reads without the
  weapon's name). The defences the fire had to penetrate and the damage tables
  it rolled on are the target's own record, and tell only what any hit of
  that kind would.
"""

from __future__ import annotations

import re

from engine.rolls import RollRequest
from engine.sideview import BARE, FULL, HIDDEN, NOTES, OUTCOME, RESULT, Contact, SideView, own_units, side_name

from .ranges import band_of, pair
from .sensors import DETECTED, LOCATED, LOCKED, REVEALED, UNDETECTED, seen
from .ships import class_words

_DEFENCE_FACTOR = re.compile(r"^(Penetrate [a-z ]+)-\d+:")
_STATE_WORDS = {DETECTED: "detected (roughly there)", LOCATED: "located", LOCKED: "locked"}


def _range(state: dict, own: tuple[str, ...], tid: str) -> str:
    parts = []
    for sid in own:
        n = state["ranges"].get(pair(sid, tid))
        if n is None:
            continue
        blocked = ", line of sight blocked" if pair(sid, tid) in state["blocked"] else ""
        parts.append(f"{state['ships'][sid]['name']} {n} sq, {band_of(state, n) or 'beyond Extreme'}{blocked}")
    return "; ".join(parts) or "-"


def contact(state: dict, side: str, own: tuple[str, ...], tid: str) -> Contact | None:
    """An enemy ship as ``side``'s sensors know it, or None while it is undetected."""
    entry = seen(state, side, tid)
    if entry["state"] == UNDETECTED:
        return None
    ship = state["ships"][tid]
    known = [("Sensors", _STATE_WORDS.get(entry["state"], entry["state"])), ("Range", _range(state, own, tid))]
    if entry["state"] == LOCKED or entry["revealed"]:
        learned = REVEALED.index(entry["revealed"]) if entry["revealed"] in REVEALED else 0
        if learned >= 1:
            known += [("Power plant", str(ship["power_plant"])), ("Tonnage", f"{ship['tonnage']} tons")]
        if learned >= 2:
            known.append(("Type", class_words(ship)))
        if learned == 0:
            known.append(("Lock", "held; nothing revealed yet"))
    return Contact(tid, ship["name"], tuple(known))


def side_view(ruleset, state: dict, side: str) -> SideView:
    own = own_units(ruleset, state, side)
    contacts, hidden = [], 0
    for tid, ship in state["ships"].items():
        if ship["side"] == side:
            continue
        found = contact(state, side, own, tid)
        if found is None:
            hidden += 1
        else:
            contacts.append(found)
    notes = (f"Round {state['round']}", f"Fleet tactics pool: {state['fleet_tactics'].get(side, 0)}")
    if state["options"].get("visual_same_square"):
        notes += ("Errata: Visual range is the same square",)
    unseen = f"{hidden} other ship{'s' if hidden != 1 else ''} not detected" if hidden else ""
    return SideView(side, side_name(state, side), own, tuple(contacts), notes, unseen)


def _side_of(state: dict, ship_id: object) -> str:
    ship = state["ships"].get(ship_id) if isinstance(ship_id, str) else None
    return ship["side"] if ship else ""


def _names_undetected(state: dict, side: str, args: dict) -> bool:
    values = [v for a in args.values() for v in (a if isinstance(a, list) else [a])]
    return any(isinstance(v, str) and _side_of(state, v) not in ("", side)
               and seen(state, side, v)["state"] == UNDETECTED for v in values)


def log_seen(ruleset, state: dict, side: str, kind: str, data: dict, request: RollRequest | None) -> str:
    if kind == "correction":
        path = data.get("path") or []
        return FULL if len(path) >= 2 and path[0] == "ships" and _side_of(state, path[1]) == side else HIDDEN
    if kind == "action":
        args = data.get("args") or {}
        if not isinstance(args, dict):
            return HIDDEN
        acting = _side_of(state, args.get("ship"))
        if data.get("name") in ("locate", "lock") and acting != side:
            return HIDDEN
        if _names_undetected(state, side, args):
            return HIDDEN
        if data.get("name") in REFEREE_ACTIONS:  # the map's facts: seen, but not the notes of every side's detections
            return BARE
        if acting and acting != side:  # what the table sees: who fires at whom, not the tactics spent
            ships = state["ships"]
            target = ships.get(args.get("target"), {}).get("name", "")
            label = ruleset.catalogue.actions[data["name"]].label if data.get("name") in ruleset.catalogue.actions \
                else str(data.get("name", ""))
            return BARE, f"{ships[args['ship']]['name']}: {label}" + (f" at {target}" if target else "")
        return FULL
    if request is None:
        return HIDDEN
    then = request.then.rpartition(":")[2]
    c = request.context
    if request.secret or data.get("secret") is True or then == "lock_referee":
        return NOTES if then == "lock_referee" and c.get("side") == side else HIDDEN
    if then in ("locate", "lock_player"):
        return FULL if c.get("side") == side else HIDDEN
    target_side = _side_of(state, c.get("target"))
    firer_side = _side_of(state, c.get("ship"))
    if side not in (target_side, firer_side) and _undetected(state, side, c.get("target")):
        return HIDDEN  # fire at a ship this side has not detected
    if then == "to_hit":
        if side == firer_side:
            return RESULT
        return (OUTCOME if side == target_side else BARE), _fire_words(state, side, request)
    if then == "penetrate":  # "Penetrate sand-2": the factor is the target's, the defence is what was fired through
        if side == firer_side:
            return RESULT, _DEFENCE_FACTOR.sub(r"\1:", request.purpose, count=1)
        return (OUTCOME if side == target_side else BARE), _fire_words(state, side, request)
    if then in ("damage", "critical"):  # the target's own record; its modifiers name the firer's weapon too
        return (OUTCOME if side == target_side else BARE), _fire_words(state, side, request)
    return BARE


#: A locate's note names the target's signature class, and a miss the classes the roll could find: the referee's
#: to know ("Detection doesn't tell you anything other than 'There is something roughly there'").
_SIGNATURE = re.compile(r" \([^()]* signature\)")
_FINDS_ONLY = re.compile(r"(not located): the roll finds only .*$")


#: The criticals due name the firing battery's UCP factor and the target's distribution number: only the firer's
#: side reads those; the target reads how many criticals and the armor lost. An aim is the firer's own intent.
_CRITICALS_FROM = re.compile(r"^UCP factor \w+ - distribution \d+: ")
_AIM = re.compile(r"^Aim ")
#: A hit's margin ("Hit (made by 4)") is the roll plus the firer's computer against the 11+: the firer's to read.
_MARGIN = re.compile(r"^Hit \((?:made by \d+|made exactly)\)")


def notes_seen(ruleset, state: dict, side: str, data: dict, request: RollRequest | None,
               notes: list[str]) -> list[str]:
    """A locate's notes without the target's signature class, for every side (the one that rolled included); a
    hit's notes without the firing battery's factor, aim, weapon or margin for any side but the firer's (found by
    drives: the target's screen read "UCP factor B - distribution 2: 9 criticals", "Tractor beam: no damage table
    to roll on" and "Hit (made by 4)")."""
    if request is None:
        return notes
    if request.then == "locate":
        return [_FINDS_ONLY.sub(r"\1", _SIGNATURE.sub("", n)) for n in notes]
    if request.then in ("to_hit", "penetrate") and _side_of(state, request.context.get("ship")) != side:
        weapon = ruleset.tables_for(state).weapons.get(request.context.get("weapon"), {}).get("label", "")
        return [_unarmed(_MARGIN.sub("Hit", _CRITICALS_FROM.sub("", n)), weapon)
                for n in notes if not _AIM.match(n)]
    return notes


def _unarmed(note: str, weapon: str) -> str:
    """A note that begins with the firing weapon's name ("Tractor beam: no damage table to roll on, ..."), without it."""
    if weapon and note.startswith(f"{weapon}: "):
        rest = note[len(weapon) + 2:]
        return rest[:1].upper() + rest[1:]
    return note


#: Actions of the game master's, not a side's: the range and the line of sight between two ships.
REFEREE_ACTIONS = ("set_range", "set_sight")


def _undetected(state: dict, side: str, ship_id: object) -> bool:
    other = _side_of(state, ship_id)
    return bool(other) and other != side and seen(state, side, ship_id)["state"] == UNDETECTED


def _fire_words(state: dict, side: str, request: RollRequest) -> str:
    """A fire roll in words another side may read: the kind of roll, who fired (not named when this side has not
    detected it) at whom; never the battery, its weapon or a defence's factor."""
    c = request.context
    kind = request.purpose.partition(":")[0]
    kind = _DEFENCE_FACTOR.sub(r"\1:", kind + ":").rstrip(":")  # "Penetrate sand-2" -> "Penetrate sand"
    ships = state["ships"]
    target = ships.get(c.get("target"), {}).get("name", "")
    firer = c.get("ship")
    if firer not in ships:
        return f"{kind}: {target}"
    who = "a ship not detected" if _undetected(state, side, firer) else ships[firer]["name"]
    return f"{kind}: {who} at {target}"
