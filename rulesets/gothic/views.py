"""What the console shows for a gothic fight: unit lines, panels, checklist notes, the critical hits table under
its roll.

Presentation only: nothing here changes the state. Ships and defences show hits
as remaining/starting with CRIPPLED when crippled, shields up or DOWN, special
orders and criticals in force; salvos show their strength, owner and distance
to their target.
"""

from __future__ import annotations

from itertools import groupby

from .catalogue import ORDNANCE
from .ordnance import BOARDING_MOVE_CM, BOARDING_TURN_DEGREES, KINDS
from .tables import Tables
from .units import CLASS_WORDS, crippled, pair, shields_blocked, turrets_now, vessel, vessels

LEGEND = ("8/8 hits left/start · CRIPPLED: half or fewer left · sh2/2 shields up/all, sh DOWN · (esc) escort, "
          "(def) defence · ORDERS · crit: criticals · BT/T boarding/torpedo salvo: strength, owner -> target, cm")


def _side(state: dict, side: str) -> str:
    return state["side_names"].get(side, side)


def _shields(v: dict) -> str:
    if not v["shields"]:
        return "sh0"
    return "sh DOWN" if not v["shields_up"] else f"sh{v['shields_up']}/{v['shields']}"


def unit_line(state: dict, kind, uid: str, tables: Tables) -> tuple[str, float]:
    if kind.id == ORDNANCE.id:
        o = state["ordnance"][uid]
        moved = " moved" if o["moved"] else ""
        short = "BT" if o["kind"] == "boarding" else "T"
        return (f"{short} x{o['strength']} {vessel(state, o['owner'])['name']} -> "
                f"{vessel(state, o['target'])['name']} {o['distance']}cm{moved}", 1.0)
    v = vessel(state, uid)
    if v["destroyed"]:
        return f"{v['name']} DESTROYED", 0.0
    parts = [v["name"] + {"capital": "", "escort": " (esc)", "defence": " (def)"}[v["class"]],
             f"{v['hits']}/{v['hits_start']}" + (" CRIPPLED" if crippled(v) else ""), _shields(v)]
    if v["orders"]:
        parts.append(tables.orders.get(v["orders"], {}).get("label", v["orders"]).upper())
    if v["criticals"]:
        parts.append(f"crit {len(v['criticals'])}")
    return " ".join(parts), max(0.0, min(1.0, v["hits"] / v["hits_start"]))


def unit_panels(state: dict, kind, uid: str, tables: Tables) -> dict[str, list[tuple[str, str]]]:
    if kind.id == ORDNANCE.id:
        return _salvo_panels(state, uid, tables)
    v = vessel(state, uid)
    what = CLASS_WORDS[v["class"]]
    cripple = v["hits_start"] // 2
    hits = f"{v['hits']}/{v['hits_start']}"
    if v["destroyed"]:
        hits += " DESTROYED"
    elif crippled(v):
        hits += " CRIPPLED"
    elif v["class"] == "capital":
        hits += f" (crippled at {cripple})"
    blocked = shields_blocked(v)
    if not v["shields"]:
        shields = "none"
    else:
        shields = "DOWN" if not v["shields_up"] else f"{v['shields_up']} of {v['shields']} up"
        shields += f" ({v['shields']} in all)" if not v["shields_up"] else ""
        shields += f", held down by {blocked['name']}" if blocked else ""
    tubes = "none"
    if v["torpedoes"]:
        tubes = f"strength {v['torpedoes']}" + (", boarding torpedoes" if v["boarding_torpedoes"] else "")
        tubes += ", loaded" if v["loaded"] else ", empty"
    turn = []
    if v["launched"]:
        turn.append("launched")
    if v["teleported"]:
        turn.append("teleported")
    if v["repair_tried"]:
        turn.append("repair tried")
    status = [
        ("Class", f"{what}" + (f", {v['class_name']}" if v["class_name"] else "")),
        ("Side", _side(state, v["side"])),
        ("Hits", hits),
        ("Shields", shields),
        ("Armour", str(v["armour"])),
        ("Turrets", str(turrets_now(v)) + ("" if turrets_now(v) == v["turrets"] else f" (of {v['turrets']})")),
        ("Torpedoes", tubes),
        ("Special orders", tables.orders.get(v["orders"], {}).get("label", v["orders"]) if v["orders"] else "none"),
        ("This turn", ", ".join(turn) or "nothing yet"),
    ]
    crits = [(f"Critical {i + 1}", f"{c['name']} (roll {c['roll']})" + ("" if c["repairable"] else ", permanent"))
             for i, c in enumerate(v["criticals"])] or [("Criticals", "none in force")]
    near = []  # a destroyed vessel has left the table: no distance to or from it is worth showing
    for other, o in ({} if v["destroyed"] else vessels(state)).items():
        if o["side"] != v["side"] and not o["destroyed"]:
            cm = state["distances"].get(pair(uid, other))
            near.append((f"to {o['name']}", "not entered" if cm is None else f"{cm} cm"))
    return {"Status": status, "Criticals and distances": crits + near}


def _salvo_panels(state: dict, uid: str, tables: Tables) -> dict[str, list[tuple[str, str]]]:
    o = state["ordnance"][uid]
    move = BOARDING_MOVE_CM if o["kind"] == "boarding" else tables.torpedo_speed_cm
    rows = [
        ("Kind", KINDS[o["kind"]]),
        ("Owner", f"{vessel(state, o['owner'])['name']} ({_side(state, o['side'])})"),
        ("Strength", str(o["strength"])),
        ("Target", vessel(state, o["target"])["name"]),
        ("Distance", f"{o['distance']} cm to its target"),
        ("Moves", f"{move} cm each ordnance phase"
         + (f", may turn up to {BOARDING_TURN_DEGREES}° at its start" if o["kind"] == "boarding" else ", straight")),
        ("This phase", ("moved" + (f", turned {o['turned']}°" if o["turned"] else "")) if o["moved"] else "not moved"),
        ("Launched", f"turn {o['launched_turn']}"),
    ]
    return {"Salvo": rows, "": []}


#: The width the critical hits table's lines are packed to: an 80-column console's dice prompt, less its padding,
#: shows each line whole; a narrower one wraps each line on its own.
PROMPT_COLUMNS = 78


def roll_help(state: dict, request, tables: Tables) -> list[str]:
    """Under the critical hit's 2D6, what each total finds, from the fight's own critical hits table (the text
    names the table without printing it; a replaced one is the one shown): a game master rolling real dice reads
    the row there, with the hits it takes at once and whether it can ever be repaired. Compact, as the prompt is
    six lines high with the roll and a refusal in it: each row by its short name, rows side by side that read
    the same as one range, the permanent ones named once, in lines no entry is split across."""
    if request.then != "critical":
        return []
    rows = sorted(tables.criticals.items())  # every total 2..12, so rows side by side are totals in a row
    listed = [f"{_span([roll for roll, _ in same])} {words}"
              for (words, _), same in groupby(rows, lambda r: (_critical_words(r[1]), r[1]["repairable"]))]
    permanent = [roll for roll, row in rows if not row["repairable"]]
    if permanent:
        listed.append(f"{_spans(permanent)} permanent")
    return _packed("Critical hits:", listed)


def _critical_words(row: dict) -> str:
    more = f" +{row['extra_hits']} hit{'s' if row['extra_hits'] != 1 else ''}" if row["extra_hits"] else ""
    return row.get("short", row["name"]) + more


def _span(rolls: list[int]) -> str:
    return str(rolls[0]) if len(rolls) == 1 else f"{rolls[0]}-{rolls[-1]}"


def _spans(rolls: list[int]) -> str:
    """Sorted totals as ranges: 7, 11, 12 -> "7, 11-12"."""
    return ", ".join(_span([roll for _, roll in run])
                     for _, run in groupby(enumerate(rolls), lambda pair: pair[1] - pair[0]))


def _packed(head: str, entries: list[str]) -> list[str]:
    """``head`` and the entries joined by " · ", a new line wherever the next entry would pass PROMPT_COLUMNS."""
    lines = [head]
    for entry in entries:
        if lines[-1] == head:
            lines[-1] += " " + entry
        elif len(lines[-1]) + 3 + len(entry) <= PROMPT_COLUMNS:
            lines[-1] += " · " + entry
        else:
            lines.append(entry)
    return lines


def checklist_notes(state: dict) -> list[str]:
    out = [f"Turn {state['turn']}"]
    for sid, o in state["ordnance"].items():
        out.append(f"{o['name']} -> {vessel(state, o['target'])['name']}: {o['distance']} cm"
                   + (" (moved)" if o["moved"] else ""))
    out += distance_lines(state)
    return out


def distance_lines(state: dict) -> list[str]:
    out = []
    for key, cm in sorted(state["distances"].items()):
        a, b = key.split("|")
        va, vb = vessels(state).get(a), vessels(state).get(b)
        if va is None or vb is None or va["destroyed"] or vb["destroyed"]:
            continue
        out.append(f"{va['name']} - {vb['name']}: {cm} cm")
    return out


def sensors(state: dict) -> None:
    """The text has no sensor rules: the console says so in its Sensors panel."""
    return None
