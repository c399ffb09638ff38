"""Ships, escorts and planetary defences: their file fields, the state they fight in, and what is read
of them everywhere (hits, crippled, shields, distances).

Source: ``gothic-boarding-teleport.ru.txt``. The text assumes the rest of the
game (hits, shields, armour, turrets, special orders, crippling); we track what
its rules need:

- Ships are capital ships or escorts; planetary defences are a kind of their own
  (armed satellites, planetary batteries, space platforms, minefields) whose
  profile comes from the ``defences`` table, all on one side (the planet's
  defender: "одному из игроков"). Both are "vessels" to the rules:
  they have hits, shields, armour and turrets, may launch torpedoes, teleport
  and be attacked.
- Crippled, by the usual rule: a capital ship left with half its starting hits
  or fewer. Our reading: escorts and defences are never crippled; the text gives
  them their own rule ("with one hit left").
- Shields: how many a vessel has and how many are up now; "down" is none up.
- Distances between vessels are kept in centimetres as the game master enters
  them (the table keeps the positions).
"""

from __future__ import annotations

from typing import Any

from engine.errors import BadTable
from engine.schema import Field

from .tables import Tables

SHIP_CLASSES = ("capital", "escort")
CLASS_WORDS = {"capital": "capital ship", "escort": "escort", "defence": "defence"}
#: The starting distance between every pair of enemies when the setup names none (cm).
DEFAULT_DISTANCE = 60
MAX_CM = 10_000

SHIP_FIELDS: tuple[Field, ...] = (
    Field("name", "str"),
    Field("class", "str", default="capital", choices=SHIP_CLASSES, help="capital or escort"),
    Field("class_name", "str", default="", help="e.g. 'Lunar class cruiser'"),
    Field("hits", "int", minimum=1, maximum=100, help="starting hits"),
    Field("shields", "int", default=0, minimum=0, maximum=20),
    Field("armour", "int", minimum=1, maximum=6),
    Field("turrets", "int", default=0, minimum=0, maximum=20),
    Field("torpedoes", "int", default=0, minimum=0, maximum=30, help="torpedo salvo strength; 0: no tubes"),
    Field("boarding_torpedoes", "bool", default=False, help="the tubes may load boarding torpedoes"),
)

#: A defence names its profile; any profile number may be given to override it (-1: the profile's).
DEFENCE_FIELDS: tuple[Field, ...] = (
    Field("name", "str"),
    Field("type", "str", help="a profile of the defences table: armed_satellite, planetary_battery, ..."),
    Field("class_name", "str", default=""),
    Field("hits", "int", default=-1, minimum=-1, maximum=100),
    Field("shields", "int", default=-1, minimum=-1, maximum=20),
    Field("armour", "int", default=-1, minimum=-1, maximum=6),
    Field("turrets", "int", default=-1, minimum=-1, maximum=20),
    Field("torpedoes", "int", default=-1, minimum=-1, maximum=30),
)


def vessel_state(unit: dict[str, Any], cls: str, kind_type: str = "") -> dict[str, Any]:
    """The state a ship or defence starts the fight in (from a checked file or profile)."""
    return {
        "side": unit["side"], "name": unit["name"], "class": cls, "type": kind_type,
        "class_name": unit.get("class_name", ""),
        "hits": unit["hits"], "hits_start": unit["hits"],
        "shields": unit["shields"], "shields_up": unit["shields"],
        "armour": unit["armour"], "turrets": unit["turrets"],
        "torpedoes": unit["torpedoes"], "boarding_torpedoes": bool(unit.get("boarding_torpedoes", False)),
        "loaded": unit["torpedoes"] > 0,
        "orders": "", "criticals": [], "destroyed": False,
        "teleported": False, "repair_tried": False, "launched": False,
    }


def defence_profile(unit: dict[str, Any], tables: Tables, where: str) -> dict[str, Any]:
    """A defence's numbers: its profile from the ``defences`` table, with the unit's own numbers over it."""
    profile = tables.defences.get(unit["type"])
    if profile is None:
        raise BadTable(f"{where}: type must be one of {', '.join(tables.defences)}, got {unit['type']!r}")
    merged = dict(unit)
    for key in ("hits", "shields", "armour", "turrets", "torpedoes"):
        if unit.get(key, -1) < 0:
            merged[key] = profile[key]
    if merged["hits"] < 1 or merged["armour"] < 1:
        raise BadTable(f"{where}: a defence needs at least 1 hit and armour 1")
    merged["boarding_torpedoes"] = profile["boarding_torpedoes"]
    merged["class_name"] = unit.get("class_name") or profile["label"]
    return merged


def defence_state(unit: dict[str, Any], tables: Tables, where: str) -> dict[str, Any]:
    """The state a defence starts the fight in."""
    return vessel_state(defence_profile(unit, tables, where), "defence", unit["type"])


def defending_side(defences: dict[str, dict], uid: str = "") -> str:
    """The side the planetary defences are on, by the first of them but ``uid`` ("" while there is none):
    planetary defences are one player's, the one defending the planet ("ПЛАНЕТАРНАЯ ЗАЩИТА": "одному из игроков
    ... оборонять планету против нападающего вражеского флота"), so every defence is on the side the others are
    on."""
    return next((d["side"] for other, d in defences.items() if other != uid), "")


def why_defence_side(defences: dict[str, dict], uid: str, side: str, names: dict | None = None) -> str:
    """Why defence ``uid`` may not be on ``side`` ("" when it may): the side the others are on
    (``defending_side``), in a setup's or a correction's words (the side's id)."""
    held = defending_side(defences, uid)
    if not held or side == held:
        return ""
    named = f" ({names[held]})" if names and names.get(held) not in (None, held) else ""
    return (f"side must be {held}{named} (planetary defences are one side's, the side defending the "
            f"planet), got {side!r}")


def why_defence_fielded(defences: dict[str, dict], name: str, side: str, names: dict[str, str]) -> str:
    """Why defence ``name`` may not join ``side`` after ``defences`` ("" when it may), in the new-encounter
    screen's words: the sides by their names, as the game master gave them."""
    held = defending_side(defences)
    if not held or side == held:
        return ""
    return (f"{name} cannot defend for {names.get(side, side)}: planetary defences are one side's, the side "
            f"defending the planet, and {names.get(held, held)} has them already")


# --- reading vessels ----------------------------------------------------------------------------

VESSEL_KEYS = ("ships", "defences")


def vessels(state: dict) -> dict[str, dict]:
    """Every ship and defence by id (ships first), destroyed ones included."""
    return {uid: u for key in VESSEL_KEYS for uid, u in state.get(key, {}).items()}


def vessel(state: dict, uid: str) -> dict:
    for key in VESSEL_KEYS:
        if uid in state.get(key, {}):
            return state[key][uid]
    raise KeyError(uid)


def afloat(state: dict) -> dict[str, dict]:
    return {uid: u for uid, u in vessels(state).items() if not u["destroyed"]}


def crippled(v: dict) -> bool:
    """A capital ship with half its starting hits or fewer left (and still afloat)."""
    return v["class"] == "capital" and not v["destroyed"] and v["hits"] * 2 <= v["hits_start"]


def shields_blocked(v: dict) -> dict | None:
    """The critical in force that keeps every shield down, if any."""
    return next((c for c in v["criticals"] if c["effect"] == "shields"), None)


def turrets_now(v: dict) -> int:
    """Turrets that may fire: none while a turret critical is in force."""
    return 0 if any(c["effect"] == "turrets" for c in v["criticals"]) else v["turrets"]


def pair(a: str, b: str) -> str:
    return "|".join(sorted((a, b)))


def distance(state: dict, a: str, b: str) -> int | None:
    return state["distances"].get(pair(a, b))


def note_distance_entered(state: dict, *uids: str) -> None:
    """Keep, for the rest of the turn, that a distance to these vessels was entered: one of them, or the
    enemy, has moved, and ``turn.declare_order`` warns of a special order declared after that."""
    for uid in uids:
        if uid not in state["distances_entered"]:
            state["distances_entered"].append(uid)


def lose_hits(state: dict, uid: str, n: int) -> list[str]:
    """Take ``n`` hits off a vessel; a vessel with none left is destroyed. Returns the log lines."""
    v = vessel(state, uid)
    was_crippled = crippled(v)
    v["hits"] = max(0, v["hits"] - n)
    out = [f"{v['name']} loses {n} hit{'s' if n != 1 else ''}: {v['hits']}/{v['hits_start']} left"]
    if v["hits"] == 0:
        out.append(destroy(state, uid, "no hits left"))
    elif crippled(v) and not was_crippled:
        out.append(f"{v['name']} is crippled (half its starting hits or fewer)")
    return out


def spend_salvo(state: dict, sid: str) -> dict:
    """Take a salvo off the table; its name stays in ``spent_salvos``, so a reopened fight's log names it as
    the live one did (``Gothic.former_name``)."""
    salvo = state["ordnance"].pop(sid)
    state["spent_salvos"][sid] = salvo["name"]
    return salvo


def destroy(state: dict, uid: str, why: str) -> str:
    v = vessel(state, uid)
    v["destroyed"] = True
    v["hits"] = 0
    v["shields_up"] = 0
    v["orders"] = ""
    spent = [sid for sid, o in state["ordnance"].items() if o["target"] == uid]
    for sid in spent:  # a salvo without a target leaves the table
        spend_salvo(state, sid)
    more = f"; {len(spent)} salvo{'s' if len(spent) != 1 else ''} aimed at it removed" if spent else ""
    end = over_words(state)
    return f"{v['name']} is destroyed ({why}){more}" + (f"; {end}" if end else "")


#: The rolls that read a vessel, by the context key naming it: each finds nothing once it is destroyed.
ROLLS_ON_A_VESSEL = {"turret_shot": "target", "torpedo_hit": "target", "hit_and_run": "target", "critical": "target",
                     "repaired": "vessel"}


def salvo_spent_words(attack: dict, v: dict) -> str:
    """What the log says when the vessel a salvo's attack is on is destroyed before the attack ends. A stand the
    salvo met on its way (``attack["met"]``) is named: "its target" read as the ship it was launched at."""
    whose = f"{v['name']}, the stand it met," if attack.get("met") else "its target"
    return f"{attack.get('name', 'the salvo')}: {whose} is destroyed; the rest of the salvo is spent"


def moot_rolls_dropped(state: dict, note) -> None:
    """Rolls still waiting on a vessel a correction has just destroyed are not asked: each would find nothing
    (the rest of a salvo is spent, a teleport attack boards no wreck, a repair mends nothing), and the table
    would roll a die that decides nothing (a drive typed one and read "success" against the wreck). What each
    would have said is said now. Only when the wreck is the one the roll reads: the rest wait as before. Our
    ruling on corrections: the text (gothic-boarding-teleport.en.md) has none; a vessel destroyed leaves the
    table with the salvos aimed at it, as ``destroy`` does in play."""
    kept, said = [], []
    for p in state["pending"]:
        key = ROLLS_ON_A_VESSEL.get(p.get("then", ""))
        context = p.get("context", {})
        uid = context.get(key) if key and isinstance(context, dict) else None
        v = vessels(state).get(uid) if isinstance(uid, str) else None
        if not isinstance(v, dict) or not v.get("destroyed"):
            kept.append(p)
            continue
        if p["then"] == "repaired":
            words = f"{v['name']} is destroyed: nothing is repaired"
        elif context.get("salvo"):
            words = salvo_spent_words(context, v)
        else:
            words = f"{v['name']} is destroyed: the {context.get('source', 'attack')} finds nothing to attack"
        if words not in said:
            said.append(words)
    if len(kept) < len(state["pending"]):
        state["pending"][:] = kept
        for words in said:
            note(words)


def over_words(state: dict) -> str:
    """"the fight is over: ... alone has vessels left" once at most one side has a vessel afloat ("" before): nothing
    is left for boarding, teleport or ordnance to reach."""
    sides = {v["side"] for v in afloat(state).values()}
    if len(sides) > 1:
        return ""
    if not sides:
        return "the fight is over: no vessel is left"
    side = sides.pop()
    return f"the fight is over: {state.get('side_names', {}).get(side, side)} alone has vessels left"
