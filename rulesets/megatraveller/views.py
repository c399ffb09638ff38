"""What the console shows for a megatraveller fight: ship lines, panels, sensor lines, checklist notes.

Presentation only: nothing here changes the state. The choices an action's
form offers are labelled by the ``options`` of its parameters (in ``catalogue``,
``sensors``, ``fire``, ``tactics``), and the engine offers only those its
``may`` accepts.
"""

from __future__ import annotations

from engine.rolls import percent

from .fire import batteries_ready_now
from .ranges import band_of, square_words
from .sensors import (FREE, SIGNATURE_TIER, TASK_NAMES, TIER_WORDS, locate_chance, seen, sensor_spends_now,
                      why_blind)
from .ships import class_words, ucp
from .systems import defence, off
from .tables import Tables


def _name(state: dict, sid: str) -> str:
    return state["ships"].get(sid, {}).get("name", sid)


def _side(state: dict, side: str) -> str:
    return state["side_names"].get(side, side)


def ship_line(state: dict, ship_id: str, tables: Tables) -> tuple[str, float]:
    s = state["ships"][ship_id]
    start = sum(1 for _ in s["batteries"]) or 1
    condition = 1.0
    if s["armor_start"]:
        condition -= 0.4 * (1 - s["armor"] / s["armor_start"])
    condition -= min(0.4, 0.1 * len(s["shut_down"]))
    condition -= min(0.2, 0.05 * (s["crew_hits"] + s["sensor_hits"] + s["hold_hits"]))
    # a space after each comma: a narrow Ships panel wraps between systems, never inside one
    flags = " SHUT: " + ", ".join(s["shut_down"]) if s["shut_down"] else ""
    text = f"{s['name']} {s['tonnage']}t comp {s['computer']} AV {s['armor']} batt {start}{flags}"
    return text, max(0.0, min(1.0, condition))


def ship_panels(state: dict, ship_id: str, tables: Tables) -> dict[str, list[tuple[str, str]]]:
    s = state["ships"][ship_id]
    groups: dict[tuple, list[dict]] = {}  # a group's batteries alike; one corrected apart reads apart
    for b in s["batteries"]:
        groups.setdefault((b["group"], b["weapon"], b["factor"], b["spinal"]), []).append(b)
    split = {g for g, *_ in groups if sum(1 for key in groups if key[0] == g) > 1}
    batt = "; ".join(
        f"{', '.join(b['id'] for b in bs) if g in split else g} {'spinal ' if spinal else ''}"
        f"{tables.weapons[weapon]['label'].lower()}-{ucp(factor)} x{len(bs)} "
        f"({sum(1 for b in bs if b['bearing'])} bearing, {sum(1 for b in bs if b['used'])} used)"
        for (g, weapon, factor, spinal), bs in groups.items()) or "none"
    sens = "; ".join(f"{TASK_NAMES[t]} " + ", ".join(f"{b} {lvl}" for b, lvl in reach.items())
                     for t, reach in s["sensors"].items() if reach) or "none"
    status = [
        ("Class", class_words(s)),
        ("Side", _side(state, s["side"])),
        ("Tonnage", str(s["tonnage"])),
        ("Drives", f"maneuver {s['maneuver']}, jump {s['jump']}, power {s['power_plant']}, agility {s['agility']}"),
        ("Computer", f"model {s['computer']}" + (f", Sensor Ops {s['sensor_ops']}" if s["sensor_ops"] >= 0 else "")),
        ("Sensors", sens),
        ("Sensor action", _sensor_action_words(s)),
        ("Fuel", f"{s['fuel']} / {s['fuel_start']} tons"),
        ("Batteries", batt),
        ("Tactics", f"ship pool {s['tactics']}, fleet pool {state['fleet_tactics'].get(s['side'], 0)}"),
        ("Shut down", ", ".join(s["shut_down"]) or "nothing"),
    ]
    d = s["defences"]
    configuration = f"configuration {defence(s, 'configuration')}" + ("" if d["configuration"] else " (not given)")
    screens_off = " (screens shut down)" if off(s, "screens") else ""
    armor = [
        ("Armor", f"AV {s['armor']} (started {s['armor_start']})"),
        ("Globe", (f"{s['globe']} globe, flicker {s['globe_flicker']}" + screens_off) if s["globe"] else "none"),
        ("Defences", f"sand {d['sand']}, damper {d['damper']}, repulsor {d['repulsor']}, "
                     f"meson screen {d['meson_screen']}{screens_off}, {configuration}"),
        ("Def DM", str(s["defence_dm"])),
        ("Signature", s["signature"]),
        ("Crew", f"{s['crew']} (crew hits {s['crew_hits']})"),
        ("Other hits", f"sensors {s['sensor_hits']}, hold {s['hold_hits']}"),
    ]
    return {"Ship status": status, "Armor and crew": armor}


def _sensor_action_words(ship: dict) -> str:
    """The free sensor action's state, or why the ship has none (the rule the locate and lock forms read)."""
    why = why_blind(ship)
    if why:
        return f"none: {why}"
    return "free action used" if ship["free_sensor_used"] else "free action ready"


def checklist_notes(state: dict) -> list[str]:
    out = [f"Round {state['round']}"]
    for side in state["side_order"]:
        out.append(f"{_side(state, side)}: fleet tactics pool {state['fleet_tactics'].get(side, 0)}")
    if state["options"]["visual_same_square"]:
        out.append("Errata: Visual range is the same square")
    out += range_lines(state)
    out += still_free(state)
    return out


def still_free(state: dict) -> list[str]:
    """What each side's ships may still do in this step, read from the rules the forms offer by: in step 1
    (Sensors) the free sensor action and the gunnery actions they may spend on sensors, in step 2 (Fire) the
    batteries that may fire, in step 3 nothing. A side with nothing left reads "nothing"."""
    out = []
    for side in state["side_order"]:
        free = []
        for sid, s in state["ships"].items():
            if s["side"] != side:
                continue
            spends = sensor_spends_now(state, sid)
            gunnery = [spend for spend in spends if spend != FREE]
            parts = ((["free sensor action"] if FREE in spends else [])
                     + ([f"gunnery {' '.join(gunnery)}"] if gunnery else []))
            firing = batteries_ready_now(state, sid)
            if firing:
                parts.append(" ".join(firing))
            if parts:
                free.append(f"{s['name']} " + ", ".join(parts))
        out.append(f"{_side(state, side)} free: " + ("; ".join(free) or "nothing"))
    return out


def range_lines(state: dict) -> list[str]:
    """Every pair of enemies, always in view: 'Vigilance - Red Lantern: 8 squares, far'."""
    out = []
    for key, n in sorted(state["ranges"].items()):
        a, b = key.split("|")
        if a not in state["ships"] or b not in state["ships"]:
            continue
        band = band_of(state, n) or "beyond Extreme"
        blocked = ", line of sight blocked" if key in state["blocked"] else ""
        out.append(f"{_name(state, a)} - {_name(state, b)}: {square_words(n)}, {band}{blocked}")
    return out


def sensors(state: dict) -> list[str]:
    """One line per observing side and target: "Imperial sees Corsair-1: locked (type code known)"."""
    out = []
    for side in state["side_order"]:
        for tid, t in state["ships"].items():
            if t["side"] == side:
                continue
            entry = seen(state, side, tid)
            text = f"{_side(state, side)} sees {t['name']}: {entry['state']}"
            if entry["revealed"]:
                text += f" ({entry['revealed']} known)"
            out.append(text)
    return out


def roll_help(state: dict, request, tables: Tables) -> list[str]:
    """The table a damage or critical roll is read on, shown under the dice prompt before the dice
    fall, from the fight's own tables (a replaced table is the one shown); for a locate roll, what finds the
    target, whose signature makes the chance differ from the roll's own success."""
    if request.then == "locate" and request.context.get("target") in state["ships"]:
        target = state["ships"][request.context["target"]]
        sig = target["signature"]
        return [f"Finds {target['name']} ({sig} signature) if the roll {TIER_WORDS[SIGNATURE_TIER[sig]]}: "
                f"{percent(locate_chance(request, sig))}"]
    if request.then == "damage" and request.context.get("table") in tables.damage:
        table = request.context["table"]
        rows = tables.damage[table]

        def said(row: dict) -> str:
            return row["system"] + (f" {row['amount']}" if row["amount"] and row["system"] != "critical" else "")

        keys = (["below"] if "below" in rows else []) + [k for k in sorted(rows, key=_roll_order) if k != "below"]
        # the top row is read by every total above it too (``tables.damage_result``)
        shown = [f"{'below 2' if k == 'below' else k + '+' if k == keys[-1] else k} {said(rows[k])}" for k in keys]
        return [f"{table.capitalize()} damage: " + " · ".join(shown)]
    if request.then == "critical":
        return ["Critical hit: " + " · ".join(f"{n} {tables.criticals[n]}" for n in sorted(tables.criticals))]
    return []


def _roll_order(key: str) -> int:
    return int(key) if key.isdigit() else -1
