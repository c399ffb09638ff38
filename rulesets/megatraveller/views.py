"""What the console shows for a megatraveller fight: ship lines, panels, sensor lines, choices.

Presentation only: nothing here changes the state. The choices offered are
built from the same predicates the rules use (``sensors.best_difficulty``,
``sensors.free_actions``, ``fire.ready_batteries``, the sensor states), so
every value offered is one the rules accept.
"""

from __future__ import annotations

from engine.ruleset import Choice, Param

from . import turn
from .fire import battery_label, ready_batteries
from .sensors import (DETECTED, LOCATED, LOCKED, TASK_NAMES, best_difficulty, free_actions, pool_of, seen,
                      sensor_state)
from .ships import ucp
from .tables import SYSTEMS, Tables


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
    flags = " SHUT:" + ",".join(s["shut_down"]) if s["shut_down"] else ""
    text = f"{s['name']} {s['tonnage']}t comp {s['computer']} AV {s['armor']} batt {start}{flags}"
    return text, max(0.0, min(1.0, condition))


def ship_panels(state: dict, ship_id: str, tables: Tables) -> dict[str, list[tuple[str, str]]]:
    s = state["ships"][ship_id]
    groups: dict[str, list[dict]] = {}
    for b in s["batteries"]:
        groups.setdefault(b["group"], []).append(b)
    batt = "; ".join(
        f"{g} {'spinal ' if bs[0]['spinal'] else ''}{tables.weapons[bs[0]['weapon']]['label'].lower()}"
        f"-{'/'.join(sorted({ucp(b['factor']) for b in bs}))} x{len(bs)} "
        f"({sum(1 for b in bs if b['bearing'])} bearing, {sum(1 for b in bs if b['used'])} used)"
        for g, bs in groups.items()) or "none"
    sens = "; ".join(f"{TASK_NAMES[t]} " + ",".join(f"{b} {lvl}" for b, lvl in reach.items())
                     for t, reach in s["sensors"].items() if reach) or "none"
    status = [
        ("Class", f"{s['class_name']} {s['type_code']}".strip() or "-"),
        ("Side", _side(state, s["side"])),
        ("Tonnage", str(s["tonnage"])),
        ("Drives", f"maneuver {s['maneuver']}, jump {s['jump']}, power {s['power_plant']}, agility {s['agility']}"),
        ("Computer", f"model {s['computer']}" + (f", Sensor Ops {s['sensor_ops']}" if s["sensor_ops"] >= 0 else "")),
        ("Sensors", sens),
        ("Sensor action", "free action used" if s["free_sensor_used"] else "free action ready"),
        ("Fuel", f"{s['fuel']} / {s['fuel_start']} tons"),
        ("Batteries", batt),
        ("Tactics", f"ship pool {s['tactics']}, fleet pool {state['fleet_tactics'].get(s['side'], 0)}"),
        ("Shut down", ", ".join(s["shut_down"]) or "nothing"),
    ]
    d = s["defences"]
    armor = [
        ("Armor", f"AV {s['armor']} (started {s['armor_start']})"),
        ("Globe", f"{s['globe']} globe, flicker {s['globe_flicker']}" if s["globe"] else "none"),
        ("Defences", f"sand {d['sand']}, damper {d['damper']}, repulsor {d['repulsor']}, "
                     f"meson screen {d['meson_screen']}, configuration {d['configuration']}"),
        ("Def DM", str(s["defence_dm"])),
        ("Signature", s["signature"]),
        ("Crew", f"{s['crew']} (crew hits {s['crew_hits']})"),
        ("Other hits", f"sensors {s['sensor_hits']}, hold {s['hold_hits']}"),
    ]
    return {"Ship status": status, "Armor and crew": armor}


def checklist_notes(state: dict) -> list[str]:
    out = [f"Round {state['round']}"]
    for side in state["side_order"]:
        out.append(f"{_side(state, side)}: fleet tactics pool {state['fleet_tactics'].get(side, 0)}")
    if state["options"]["visual_same_square"]:
        out.append("Errata: Visual range is the same square")
    for key in state["blocked"]:
        a, b = key.split("|")
        out.append(f"Line of sight blocked: {_name(state, a)} - {_name(state, b)}")
    return out


def sensor_lines(state: dict) -> list[str]:
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


def _ships(state: dict, ids: list[str]) -> list[Choice]:
    return [Choice(sid, _name(state, sid)) for sid in ids]


def _tactics_choices(state: dict, ship: dict | None, args: dict, param: Param) -> list[Choice] | None:
    if ship is None:
        return []
    ship_pool, fleet_pool = pool_of(state, ship, "ship"), pool_of(state, ship, "fleet")
    if param.name == "tactics":
        most = max(ship_pool, fleet_pool)
        if most == 0:
            return []
        return [Choice(str(n), f"{n} point{'s' if n != 1 else ''}" if n else "none") for n in range(most + 1)]
    if param.name == "pool":
        points = int(args.get("tactics", 0) or 0)
        if points == 0:
            return []
        return [Choice(p, f"{p} pool ({have})") for p, have in (("ship", ship_pool), ("fleet", fleet_pool))
                if have >= points]
    return None


def _sense_choices(state: dict, action: str, param: Param, args: dict, tables: Tables) -> list[Choice] | None:
    want = DETECTED if action == "locate" else LOCATED
    kind = "scan" if action == "locate" else "pin"
    ships = state["ships"]
    ship = ships.get(args.get("ship", ""))

    def targets(sid: str) -> list[str]:
        s = ships[sid]
        return [t for t in turn.enemies(state, sid) if sensor_state(state, s["side"], t) == want
                and any(best_difficulty(s, f"{m}_obj_{kind}", turn.band(state, sid, t), tables) for m in ("pass", "act"))]

    if param.name == "ship":
        return _ships(state, [sid for sid, s in ships.items() if free_actions(s) and "sensors" not in s["shut_down"]
                              and targets(sid)])
    if ship is None:
        return []
    if param.name == "target":
        return _ships(state, targets(args["ship"]))
    if param.name == "mode":
        band = turn.band(state, args["ship"], args.get("target", "")) if args.get("target") in ships else ""
        out = []
        for mode, m in (("passive", "pass"), ("active", "act")):
            level = best_difficulty(ship, f"{m}_obj_{kind}", band, tables)
            if level:
                out.append(Choice(mode, f"{mode} ({TASK_NAMES[f'{m}_obj_{kind}']} {level} "
                                        f"{tables.difficulties[level]}+)"))
        return out
    if param.name == "spend":
        return [Choice(a, "free sensor action" if a == "free" else
                       f"gunnery action of {battery_label(next(b for b in ship['batteries'] if b['id'] == a), tables)}")
                for a in free_actions(ship)]
    return _tactics_choices(state, ship, args, param)


def _fire_choices(state: dict, param: Param, args: dict, tables: Tables) -> list[Choice] | None:
    ships = state["ships"]
    ship = ships.get(args.get("ship", ""))

    def targets(sid: str) -> list[str]:
        s = ships[sid]
        return [t for t in turn.enemies(state, sid) if sensor_state(state, s["side"], t) == LOCKED
                and not turn.sight_blocked(state, sid, t) and ready_batteries(state, s, turn.band(state, sid, t), tables)]

    if param.name == "ship":
        return _ships(state, [sid for sid in ships if targets(sid)])
    if ship is None:
        return []
    if param.name == "target":
        return [Choice(t, f"{_name(state, t)} ({turn.squares(state, args['ship'], t)} squares, "
                          f"{turn.band(state, args['ship'], t)})") for t in targets(args["ship"])]
    target_id = args.get("target", "")
    if target_id not in ships:
        return []
    band = turn.band(state, args["ship"], target_id)
    if param.name == "batteries":
        return [Choice(b["id"], battery_label(b, tables)) for b in ready_batteries(state, ship, band, tables)]
    if param.name == "aim":
        if band != "visual":
            return []
        systems = [s for s in SYSTEMS if s not in ("none", "critical")]
        crits = sorted(set(tables.criticals.values()))
        return ([Choice("", "no pinpoint aim")] + [Choice(s, f"{s} (made by 2)") for s in systems]
                + [Choice(f"critical:{c}", f"critical: {c} (made by 4)") for c in crits])
    return _tactics_choices(state, ship, args, param)


def param_choices(state: dict, action: str, param: Param, args: dict, tables: Tables) -> list[Choice] | None:
    ships = state["ships"]
    if action in ("locate", "lock"):
        return _sense_choices(state, action, param, args, tables)
    if action == "fire":
        return _fire_choices(state, param, args, tables)
    if action in ("set_range", "set_sight"):
        if param.name == "ship":
            return _ships(state, list(ships))
        if param.name == "target":
            if args.get("ship") not in ships:
                return []
            return [Choice(t, f"{_name(state, t)} (now {turn.squares(state, args['ship'], t)} squares)")
                    for t in turn.enemies(state, args["ship"])]
        if param.name == "sight":
            return [Choice(c, c) for c in param.choices]
        return None
    if param.kind == "ship":
        return _ships(state, list(ships))
    if param.kind == "choice":
        return [Choice(c, c) for c in param.choices]
    return None
