"""What one side knows in a percentile fight: the players' screen (``flagbridge watch``).

The rules text (``percentile-personal-combat.txt``) has no sensors: people fight
by sight, and the surprise procedures speak of combatants who "lose sight of
each other". Our reading: an enemy in sight shows what a look tells (race,
the weapons in hand, the wounds and the state they leave), never the numbers
behind them (attributes, Agility Points); once the sides have lost sight of
each other only the names remain; a side that has not joined the fight is
not there to be seen, only counted. The dice of a fight are rolled in the
open, so every action and roll is seen, but not the numbers a roll is made
against (an enemy's MARKSmanship, Brawl, Perception) nor a hit's damage on
an enemy beyond what it was; an enemy's alertness, Agility Points spent or
borrowed show as what was done, not how much; a correction follows the
engine's default (seen only when it is to the side's own person).
"""

from __future__ import annotations

import re

from engine.sideview import BARE, FULL, HIDDEN, OUTCOME, RESULT, Contact, SideView, own_units, \
    seen_in_the_open, side_name

from .wounds import has_damage


def side_view(ruleset, state: dict, side: str) -> SideView:
    tables = ruleset.tables_for(state)
    contacts = []
    for uid, p in state["people"].items():
        if p["side"] == side or p["side"] not in state["joined"]:
            continue
        if state["contact_lost"]:
            contacts.append(Contact(uid, p["name"], (("Seen", "out of sight"),)))
            continue
        race = tables.races[p["race"]]
        hurt = [f"{part.replace('_', ' ')} ({w['text']})" for part, w in _last_wounds(p).items()]
        contacts.append(Contact(uid, p["name"], (
            ("Race", race["label"] + (", exoskeleton" if race["exoskeleton"] else "")),
            ("State", "DEAD" if p["dead"] else "in the fight"),
            ("Weapons", ", ".join(tables.weapons[w]["label"] for w in p["weapons"]) or "none"),
            ("Wounds", "; ".join(hurt) or "none seen"),
        )))
    waiting = [s for s in state["side_order"] if s != side and s not in state["joined"]]
    unseen = f"{len(waiting)} side{'s' if len(waiting) != 1 else ''} not yet in the fight" if waiting else ""
    return SideView(side, side_name(state, side), own_units(ruleset, state, side), tuple(contacts), unseen=unseen)


def _last_wounds(person: dict) -> dict[str, dict]:
    """Each wounded part's latest wound with damage (what the eye sees of it now: a poison's and one corrected to no
    damage are not seen, ``wounds.has_damage``)."""
    out: dict[str, dict] = {}
    for w in person["wounds"]:
        if has_damage(w):
            out[w["part"]] = w
    return out


#: Actions whose arguments are a person's numbers (alertness, Agility Points spent or borrowed): another side reads
#: who did what, not how much.
NUMBERS = ("alertness", "side_alertness", "alertness_rise", "asleep", "move", "borrow")
#: Rolls that resolve a hit's damage: the target's side reads them whole, the others what they were.
DAMAGE = ("damage_roll", "wound", "severity")


def _person_side(state: dict, pid: object) -> str:
    person = state["people"].get(pid) if isinstance(pid, str) else None
    return str(person.get("side", "")) if isinstance(person, dict) else ""


def _named(state: dict, args: dict) -> tuple[list[str], list[str]]:
    """The people an action names, and the sides it names."""
    sides = [args[k] for k in ("side", "who") if isinstance(args.get(k), str) and args[k] in state["side_names"]]
    people = [v for k in ("person", "target", "who") for v in [args.get(k)] if isinstance(v, str)
              and v in state["people"]]
    people += [v for v in args.get("with_target") or () if isinstance(v, str)]
    return people, sides


#: An attack's notes that spell out the attacker's numbers (``combat``), each with what another side reads of it:
#: the percent to hit and the roll not under it, a hit's margin under it, a grazing shot's sum, the Brawl a grenade
#: is thrown under, the MARKSmanship or BRAWLmanship that procedure 3's adversity outweighed, the Strength a blow's
#: damage adds.
_ATTACKERS_NUMBERS = (
    (re.compile(r"^Grazing shot: (?:\d+ x -?\d+/\d+ = (\d+) points?|(0) of \d+ points?: .*)$"),
     lambda m: f"Grazing shot: {m.group(1) or m.group(2)} points"),
    (re.compile(r"^Miss: \d+ is not under -?\d+$"), lambda m: "Miss"),
    (re.compile(r"^Hit \(the result -?\d+ is positive; \d+ is over it\)(: .*)$"),
     lambda m: f"Hit (the result is positive){m.group(1)}"),
    # a hit's margin under the percent to hit ("Direct hit (51 under)", "Hit (14 under, 20 or less)"): with the roll
    # seen at the table it is the percent itself; the other sides read which kind of hit it was
    (re.compile(r"^Direct hit \(-?\d+ under\)(: .*)$"), lambda m: f"Direct hit{m.group(1)}"),
    (re.compile(r"^Hit \(-?\d+ under(?:, \d+ or less)?(, nothing aimed)?\)(: .*)$"),
     lambda m: f"Hit{' (nothing aimed)' if m.group(1) else ''}{m.group(2)}"),
    (re.compile(r"^No bounce \(\d+ under Brawl \d+\)(: .*)$"), lambda m: f"No bounce{m.group(1)}"),
    (re.compile(r"^\d+ over Brawl \d+: (.*)$"), lambda m: m.group(1)[:1].upper() + m.group(1)[1:]),
    (re.compile(r"^(.*? misses .*?): .* = -?\d+, (the range and adversity are too much)$"),
     lambda m: f"{m.group(1)}: {m.group(2)}"),
    (re.compile(r"^(Damage \(Table 3-3\): .* = )(\d+) \+(\d+) Physical Strength$"),
     lambda m: f"{m.group(1)}{int(m.group(2)) + int(m.group(3))}"),
)


def _attacker(state: dict, data: dict, request) -> str:
    """The side of the person making the attack a note belongs to: its roll's, or the attack action's."""
    if request is not None:
        return _person_side(state, request.context.get("attacker"))
    args = data.get("args") if data.get("name") == "attack" else None
    return _person_side(state, args.get("person")) if isinstance(args, dict) else ""


def notes_seen(ruleset, state: dict, side: str, data: dict, request, notes: list[str]) -> list[str]:
    """An attack's notes spell out the attacker's numbers (a grazing shot's "25 x 29/44 = 16 points", a miss's
    "Miss: 100 is not under 50", a grenade's "5 over Brawl 65"; drives found each on another side's screen): a
    side other than the attacker's reads only what happened."""
    if _attacker(state, data, request) in (side, ""):
        return notes
    out = []
    for n in notes:
        for pattern, words in _ATTACKERS_NUMBERS:
            n = pattern.sub(words, n)
        out.append(n)
    return out


def _words(purpose: str) -> str:
    """A roll's purpose without the numbers behind it: "Percent to hit: Ann auto pistol at Cid (5 m; MARKSmanship
    69)" reads "Percent to hit: Ann auto pistol at Cid"; "Surprise: Blue rolls under 51" reads "Surprise: Blue"."""
    return purpose.split(" (")[0].split(" rolls under ")[0].split(", under Brawl")[0]


def log_seen(ruleset, state: dict, side: str, kind: str, data: dict, request):
    """The dice are rolled in the open and every action is declared, but never an enemy's numbers, and a side
    not yet in the fight is not there to be seen (found by an audit: the log named it and read out numbers)."""
    if kind == "correction":
        return seen_in_the_open(ruleset, state, side, kind, data, request)
    joined = state["joined"]
    if kind == "action":
        args = data.get("args") or {}
        if not isinstance(args, dict):
            return HIDDEN
        people, sides = _named(state, args)
        others = [s for s in [_person_side(state, p) for p in people] + sides if s and s != side]
        if data.get("name") != "join" and any(s not in joined for s in others):
            return HIDDEN
        if data.get("name") in NUMBERS and others:
            action = ruleset.catalogue.actions.get(data["name"])
            who = state["people"][people[0]]["name"] if people else side_name(state, sides[0]) if sides else ""
            return BARE, f"{action.label if action else data['name']}: {who}"
        return FULL
    if request is None or request.secret or data.get("secret") is True:
        return HIDDEN
    then = request.then.rpartition(":")[2]
    c = request.context
    if then == "surprise":
        return FULL if c.get("side") == side else (OUTCOME, _words(request.purpose))
    target_side = _person_side(state, c.get("target"))
    if target_side and target_side != side and target_side not in joined:
        return HIDDEN
    attacker_side = _person_side(state, c.get("attacker"))
    if then in ("to_hit", "grenade"):  # made against the attacker's MARKSmanship or Brawl
        return FULL if attacker_side in (side, "") else (OUTCOME, _words(request.purpose))
    if then in DAMAGE:  # the target's own record; a hand-to-hand attacker's Physical Strength is a modifier
        if target_side == side:
            return FULL if attacker_side in (side, "") else OUTCOME
        return RESULT, _words(request.purpose)
    return FULL
