"""What the console shows for a percentile fight: people lines, the characters' panels, the round's order.

Presentation only: nothing here changes the state. The console's two unit
panels hold a person's attributes, Agility Points and sub-turn ("Character")
and every body part with its damage points and state ("Body").
"""

from __future__ import annotations

from .people import body_points, part_state, structure_points
from .tables import Tables
from .turn import acting_side, ap_left, seconds
from .wounds import has_damage, is_tissue_wound, part_percent, type_lines

LEGEND = ("bar: damage points left over the whole body · AP left this sub-turn / the turn's · "
          "DEAD, NO MOVE (borrowed the whole turn), ASLEEP")


def _side(state: dict, side: str) -> str:
    return state["side_names"].get(side, side)


def condition(person: dict) -> float:
    whole = body_points(person) or 1
    taken = sum(min(b["taken"], b["points"]) for b in person["body"].values())
    return 0.0 if person["dead"] else max(0.0, 1 - taken / whole)


def ap_words(state: dict, person: dict) -> str:
    left = ap_left(state, person)
    turn = person["ap_turn"] + person["ap_extra"]
    return f"AP {turn - person['ap_spent']}/{turn}" if left is None else f"AP {left}/{turn}"


def unit_line(state: dict, kind, uid: str, tables: Tables) -> tuple[str, float]:
    p = state["people"][uid]
    race = tables.races[p["race"]]["label"]
    if p["dead"]:
        return f"{p['name']} ({race}) DEAD", 0.0
    flags = (" NO MOVE" if p["no_move"] else "") + (" ASLEEP" if p.get("asleep") else "")
    hurt = sum(1 for b in p["body"].values() if b["taken"])
    wounds = f" {hurt} hurt" if hurt else ""
    return f"{p['name']} ({race}) {ap_words(state, p)}{wounds}{flags}", condition(p)


def unit_panels(state: dict, kind, uid: str, tables: Tables) -> dict[str, list[tuple[str, str]]]:
    p = state["people"][uid]
    race = tables.races[p["race"]]
    left = ap_left(state, p)
    turn = p["ap_turn"] + p["ap_extra"]
    status = [
        ("Side", _side(state, p["side"]) + (f", team {p['team']}" if p.get("team") else ", individual")),
        ("Race", race["label"] + (", exoskeleton" if race["exoskeleton"] else "")
         + (f", head in the {race['head_in']}" if race["head_in"] != "head" else "")),
        ("Attributes", f"Perception {p['perception']} Aim {p['aim']} Brawl {p['brawl']} "
                       f"Strength {p['strength']} Alertness {p['alertness']}"),
        ("Agility", f"{p['agility']} points a turn"),
        ("This turn", f"{p['ap_spent']} of {turn} spent ({seconds(p)} s)"
         + ("" if left is None or state.get("step") != "action" or p["dead"] else
            f", {left} left in sub-turn {state.get('subturn', 1)}")),
        ("Borrowed", f"{p['owed']} of next turn (+{p['ap_extra']} now)" if p["owed"] else "none"),
        ("Weapons", ", ".join(tables.weapons[w]["label"] for w in p["weapons"]) or "none"),
    ]
    if p["no_move"]:
        status.append(("Movement", "none this turn: the whole of it was borrowed"))
    if p.get("ship"):
        status.insert(0, ("Aboard", f"{p['ship']}, {p['location'].replace('_', ' ')}"))
    body = [("State", "DEAD" if p["dead"] else "asleep" if p.get("asleep") else "in the fight")]
    for part, b in p["body"].items():
        text = f"{b['taken']}/{b['points']} {part_state(b)}"
        if b["taken"] and b["taken"] < b["points"]:
            text += f" (structure {structure_points(b['points'])})"
        kind = next((w["type"] for w in reversed(p["wounds"]) if w["part"] == part and w["points"]), "")
        said = []
        for one in kind.split("+"):  # an attack of several damage types is described on each type's table
            # the part's state read at its whole damage percentage, a wound's typed by hand as typed (one of no
            # stated type: what it leaves)
            words = type_lines(tables, one, part_percent(tables, p, part), race["exoskeleton"], b["taken"],
                               b["points"])
            said += [words[0].partition(": ")[2]] if words else []
        text += f": {'; '.join(said)}" if said else ""
        body.append((part.replace("_", " "), text))
    shown = [w for w in p["wounds"] if has_damage(w) or not is_tissue_wound(tables, w)]  # a poison's has no points
    for w in shown[-3:]:
        body.append(("Wound", f"{w['part'].replace('_', ' ')} {w['points']} {w['type']} ({w['percent']}%): "
                              f"{w['text']}" + (f"; {w['severity']}" if w.get("severity") else "")))
        for organ in w.get("organs", []):
            body.append(("  organs", organ))
    return {"Character": status, "Body": body}


def checklist_notes(state: dict) -> list[str]:
    o = state["options"]
    out = [f"Round {state['round']} · procedures: surprise {o['surprise'] or 'none'}, primary {o['primary']}, "
           f"action {o['action']}, to hit {o['to_hit']}, damage {o['damage']}"]
    if state["step"] == "over":
        return out
    if state["order"]:
        out.append("Order: " + ", ".join(f"{_side(state, s)} {state['primary_rolls'].get(s, '')}".strip()
                                          for s in state["order"]))
    if state["step"] == "action":
        n = o["subturns"]
        out.append(f"Sub-turn {state['subturn']}/{n}: " + " -> ".join(
            ("[" + _side(state, s) + "]") if i == state["acting"] else _side(state, s)
            for i, s in enumerate(state["round_order"])))
        if state["sole"]:
            out.append(f"Only {_side(state, state['sole'])} acts this round")
        side = acting_side(state)
        for pid, p in state["people"].items():
            if p["side"] == side and not p["dead"]:
                out.append(f"  {p['name']}: {ap_words(state, p)}" + (" NO MOVE" if p["no_move"] else ""))
    waiting = [s for s in state["side_order"] if s not in state["joined"]]
    if waiting:
        out.append("Not yet in the fight: " + ", ".join(_side(state, s) for s in waiting))
    if state["quiet_rounds"]:
        out.append(f"Quiet rounds: {state['quiet_rounds']} (two give a new chance for surprise)")
    return out


def hit_bands(tables: Tables, race: str) -> str:
    """The race's random hit table #3-3.4 as 1:100sd bands ("1-10 head, 11-25 chest, ...")."""
    out, low = [], 1
    for part in tables.races[race]["parts"]:
        out.append(f"{low}-{part['hit']} {part['id'].replace('_', ' ')}" if part["hit"] > low
                   else f"{low} {part['id'].replace('_', ' ')}")
        low = part["hit"] + 1
    return ", ".join(out)


def roll_help(state: dict, request, tables: Tables | None = None) -> list[str]:
    then = request.then.rpartition(":")[2]
    c = request.context
    if then == "to_hit" and "percent" in c:  # procedure 3: the positive result has hit; the roll places it
        v = c["value"]
        where = (f"under {v - 20} (more than 20 under {v}, a {v - 21}% chance) is a direct hit on the "
                 f"{c['aim'].replace('_', ' ')}, any other roll a random hit" if c.get("aim") and v - 20 > 1
                 else "a random hit whatever the roll")
        return [f"the result {v} is positive, so the attack hits: {where}"]
    if then == "to_hit":
        v = c["value"]
        direct = v - 20
        if not c.get("aim"):
            return [f"percent to hit {v}: a roll under {v} hits, at a random location (nothing is aimed at)"]
        return [f"percent to hit {v}: a roll under {v} hits; under {direct} (more than 20 under) is a direct hit "
                f"on the {c['aim'].replace('_', ' ')}" if direct > 1 else
                f"percent to hit {v}: a roll under {v} hits, at a random location (no roll can be 20 under)"]
    if then == "location":
        person = state.get("people", {}).get(c.get("target", ""))
        if tables is None or person is None or person.get("race") not in tables.races:
            return ["the race's random hit table #3-3.4 decides the part"]
        # damage (1): where the damage was done "can be specified by the Game Master or rolled for"
        return [f"random hit table #3-3.4: {hit_bands(tables, person['race'])}",
                "to name the part yourself, type a roll in its band"]
    if then == "grenade":
        b = request.target.number + 1
        return [f"under {b}: lands where aimed; {b} to {b + 20}: bounces; over {b + 20}: misses"]
    if then == "surprise":
        return ["the side most below (or least above) its number gets surprise"]
    if then == "rolloff":
        return ["a roll-off for the late side's place among the sides it equalled: lowest goes first"]
    if then == "joined":
        return ["the late side's place in the order: lowest goes first; a roll equal to a side's is rolled off"]
    if then == "primary":
        return ["lowest goes first; 30 or more ahead of the next: the only attack this round"]
    return []


def sensors(state: dict) -> list[str]:
    return ["percentile fights by sight: surprise stands in for detection (lost contact: o)"]
