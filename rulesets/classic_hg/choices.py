"""The words a form shows for each choice of a classic-hg action.

Only labels and candidates live here: whether a value is allowed is the
action's ``may`` (in ``fire``, ``turn``, ``phases``, ``damage``), and the engine
offers a candidate only when ``may`` accepts it and the form can still be
finished.
"""

from __future__ import annotations

from engine.actions import Choice
from engine.rolls import RollRequest, Target, percent
from engine.tables import kept_for

from . import turn
from .fire import (attack_type, battery_gunnery, chosen_defence, defences_for, evasion_running, fastest_enemy,
                   fire_modifiers, firing_groups, group_working, incoming, ready_tube, roll_cell, to_hit_cell,
                   tracks_by_computer, turret_by_id, working)
from .hangars import craft_id, find_craft
from .phases import storage_used
from .tables import Tables


def lower(label: str) -> str:
    """'Beam laser' -> 'beam laser', but 'HE missile' and 'AM missile' keep their capitals."""
    if len(label) > 1 and label[0].isupper() and label[1].islower():
        return label[0].lower() + label[1:]
    return label


def words(key: str) -> str:
    return key.replace("_", " ")


def weapon_label(weapon_id: str, tables: Tables) -> str:
    if weapon_id == "ram":
        return "ramming"
    return lower(tables.weapons.get(weapon_id, {}).get("label", words(weapon_id)))


def mount_label(turret: dict, tables: Tables) -> str:
    return lower(tables.mounts.get(turret["weapon"], {}).get("label", words(turret["weapon"])))


def roll_text(cell: int | str | None) -> str:
    """'8+' for a 2D number, 'auto' for an automatic success."""
    return "auto" if cell == "auto" else f"{cell}+"


def to_hit_text(state: dict, weapons: list[str], tables: Tables) -> str:
    cells = {c for w in weapons if (c := to_hit_cell(tables.weapons[w], state["range"])) is not None}
    numbers = sorted(int(c) for c in cells if c != "auto")
    return "/".join(["auto"] * ("auto" in cells) + [f"{n}+" for n in numbers])


def _ship(state: dict, args: dict) -> dict | None:
    return state["ships"].get(args.get("ship", ""))


def turrets(state: dict, args: dict, tables: Tables) -> list[Choice]:
    """'T1 beam laser x3 · 8+' for each lone turret, 'B1 (T2+T3) beam laser x6 · 8+' for each battery.

    Every fire order checks its turrets against this list (a fleet turn: a thousand times), so the
    list is kept by what its words are made of: the turrets' ids, batteries, weapons and working
    counts, the range and the tables.
    """
    ship = _ship(state, args)
    if not ship:
        return []
    book = kept_for(_TURRET_CHOICES, tables)
    key = (state["range"],
           tuple([(t["id"], t.get("battery"), t["weapon"], t["count"], t["destroyed"]) for t in ship["turrets"]]))
    kept = book.get(key)
    if kept is None:
        kept = []
        for gid, group in firing_groups(ship).items():
            label, numbers = _mount_words(state, group[0], tables)
            members = f" ({'+'.join(t['id'] for t in group)})" if len(group) > 1 else ""
            kept.append(Choice(gid, f"{gid}{members} {label} x{group_working(group)}"
                               + (f" · {numbers}" if numbers else "")))
        if len(book) >= 4096:  # a long session's worth; then start afresh
            book.clear()
        book[key] = kept
    return list(kept)


_TURRET_CHOICES: dict[int, tuple] = {}  # ``kept_for`` each loaded tables
_WORDS: dict[int, tuple] = {}


def _mount_words(state: dict, turret: dict, tables: Tables) -> tuple[str, str]:
    """A mount's label and its to-hit numbers at the current range, worked out once per tables."""
    book = kept_for(_WORDS, tables)
    key = (turret["weapon"], state["range"])
    if key not in book:
        book[key] = (mount_label(turret, tables), to_hit_text(state, tables.mounts[turret["weapon"]]["fires"], tables))
    return book[key]


def _firing_several(state: dict, args: dict, tables: Tables) -> list[dict]:
    """The chosen turrets (a battery by its first) that fire more than one kind of missile."""
    ship = _ship(state, args)
    groups = firing_groups(ship) if ship else {}
    chosen = [groups[gid][0] for gid in args.get("turrets", []) if gid in groups]
    return [t for t in chosen if len(tables.mounts[t["weapon"]]["fires"]) > 1]


def warheads(state: dict, args: dict, tables: Tables) -> list[Choice]:
    """Asked only when a chosen turret fires more than one kind of missile."""
    several = _firing_several(state, args, tables)
    heads: list[str] = []
    for t in several:
        for w in tables.mounts[t["weapon"]]["fires"]:
            head = w.rsplit("_", 1)[-1]
            if head not in heads:
                heads.append(head)
    out = []
    for head in heads:
        kinds = [attack_type(t, head, tables) for t in several]
        kinds = [k for k in kinds if k]
        if kinds:
            out.append(Choice(head, f"{tables.weapons[kinds[0]]['label']} · {to_hit_text(state, kinds, tables)}"))
    return out


def warhead_words(state: dict, args: dict, tables: Tables, head: str) -> str:
    """'HE missile': what the first chosen turret with a choice of missiles fires with the warhead."""
    kinds = [k for t in _firing_several(state, args, tables) if (k := attack_type(t, head, tables))]
    return tables.weapons[kinds[0]]["label"] if kinds else head


def locations(state: dict, args: dict, tables: Tables) -> list[Choice]:
    """With a selective program loaded, the general locations a shot may choose."""
    ship = _ship(state, args)
    if ship is None or not any(tables.programs.get(p, {}).get("selective") for p in ship["programs"]):
        return []
    places: list[str] = []
    for g in tables.general_locations.values():
        if g in tables.specific_locations and g not in places:
            places.append(g)
    return [Choice("", "rolled (no selective fire)")] + [Choice(g, location_words(state, args, tables, g))
                                                          for g in places]


def location_words(state: dict, args: dict, tables: Tables, place: str) -> str:
    return words(place)


def torpedo_warheads(state: dict, args: dict, tables: Tables) -> list[Choice]:
    return [Choice(w, f"{torpedo_words(state, args, tables, w)} · {to_hit_text(state, [f'torpedo_{w}'], tables)}")
            for w in ("he", "nuclear") if f"torpedo_{w}" in tables.weapons]


def torpedo_words(state: dict, args: dict, tables: Tables, head: str) -> str:
    return tables.weapons[f"torpedo_{head}"]["label"]


def with_maneuver(state: dict, args: dict, tables: Tables) -> list[Choice]:
    return [Choice(sid, f"{s['name']} (maneuver {s['maneuver']})") for sid, s in state["ships"].items()]


def against_fastest(state: dict, args: dict, tables: Tables) -> list[Choice]:
    fastest: dict[str, int] = {}  # the enemy's fastest depends on the side alone: asked once a side, not a ship
    out = []
    for sid, s in state["ships"].items():
        if s["side"] not in fastest:
            fastest[s["side"]] = max(fastest_enemy(state, s), 0)
        out.append(Choice(sid, f"{s['name']} (maneuver {s['maneuver']} against {fastest[s['side']]})"))
    return out


def defending_turrets(state: dict, args: dict, tables: Tables) -> list[Choice]:
    """'T3 sandcaster x2 · stops A1, A2': the incoming attacks each turret has a defence against."""
    ship = _ship(state, args)
    out = []
    for t in ship["turrets"] if ship else []:
        stops = [a["id"] for a in incoming(state) if defences_for(ship, t, a, tables)]
        out.append(Choice(t["id"], f"{t['id']} {mount_label(t, tables)} x{working(t)}"
                          + (f" · stops {', '.join(stops)}" if stops else "")))
    return out


def _name(state: dict, ship_id: str) -> str:
    return state["ships"].get(ship_id, {}).get("name", ship_id)


def attacks(state: dict, args: dict, tables: Tables) -> list[Choice]:
    """'A2 beam laser at Vigilant (6) · 8+' for each attack still incoming."""
    ship = _ship(state, args)
    turret = turret_by_id(ship, args.get("turret", "")) if ship else None
    out = []
    for a in incoming(state):
        label = f"{a['id']} {weapon_label(a['weapon'], tables)} at {_name(state, a['target'])} " \
                f"({a['damage'] - a['reduced']})"
        defence = chosen_defence(ship, turret, a, "", tables) if turret else ""
        if defence:
            label += f" · {roll_text(roll_cell(tables.defences[defence]['to_intercept'], a['weapon']))}"
        out.append(Choice(a["id"], label))
    return out


def defences(state: dict, args: dict, tables: Tables) -> list[Choice]:
    """Asked only when the turret has more than one defence against the attack."""
    ship = _ship(state, args)
    turret = turret_by_id(ship, args.get("turret", "")) if ship else None
    attack = next((a for a in incoming(state) if a["id"] == args.get("attack")), None)
    if turret is None or attack is None:
        return []
    usable = defences_for(ship, turret, attack, tables)
    if len(usable) < 2:
        return []  # the rules use the one defence that applies
    return [Choice(d, f"{defence_words(state, args, tables, d)} · "
                      f"{roll_text(roll_cell(tables.defences[d]['to_intercept'], attack['weapon']))}")
            for d in usable]


def defence_words(state: dict, args: dict, tables: Tables, defence: str) -> str:
    return tables.defences[defence]["label"]


def with_storage(state: dict, args: dict, tables: Tables) -> list[Choice]:
    return [Choice(sid, f"{s['name']} ({storage_used(s['programs'], tables)}/{s.get('storage', 0)} spaces)")
            for sid, s in state["ships"].items()]


def programs(state: dict, args: dict, tables: Tables) -> list[Choice]:
    ship = _ship(state, args)
    out = []
    for p in ship.get("library", []) if ship else []:
        size = int(tables.programs.get(p, {}).get("storage", 0))
        label = f"{p} · {size} space{'s' if size != 1 else ''}"
        out.append(Choice(p, label + (" (loaded)" if p in ship["programs"] else "")))
    return out


def initiative_side(state: dict, args: dict, tables: Tables) -> list[Choice]:
    """The side that names the range: the one with the initiative (the ATTACKER)."""
    side = state.get("attacker", "")
    if not side:
        return []
    why = " (simultaneous initiative, keeps the ATTACKER's role)" if state.get("simultaneous") else \
        " (has the initiative)"
    return [Choice(side, side_words(state, args, tables, side) + why)]


def side_words(state: dict, args: dict, tables: Tables, side: str) -> str:
    return state["side_names"].get(side, side)


def ranges(state: dict, args: dict, tables: Tables) -> list[Choice]:
    i = turn.RANGES.index(state["range"])
    out = []
    for j, r in enumerate(turn.RANGES):
        out.append(Choice(r, f"{r} ({'stay' if j == i else ('closer' if j < i else 'farther')})"))
    return out


def craft_choices(state: dict, args: dict, tables: Tables) -> list[Choice]:
    """'Launch (20 tons, ready) · Boat bay' for each small craft of the ship."""
    ship = state["ships"].get(args.get("ship", ""))
    out = []
    for h_i, hangar in enumerate(ship["hangars"] if ship else []):
        for c_i, craft in enumerate(hangar["small_craft"]):
            out.append(Choice(craft_id(h_i, c_i), f"{craft['name']} ({craft['tons']:g} tons, {craft['status']}) · "
                                                  f"{hangar['name']}"))
    return out


def craft_words(state: dict, args: dict, tables: Tables, cid: str) -> str:
    """A small craft by its name ('1.2' is only its place in the ship's hangars)."""
    found = find_craft(state["ships"][args["ship"]], cid)
    return found[1]["name"] if found else cid


def loaded_programs(state: dict, args: dict, tables: Tables) -> list[str]:
    """Reprogramming starts from what the computer holds now, ticked."""
    ship = _ship(state, args)
    return list(ship["programs"]) if ship else []


def fire_targets(state: dict, args: dict, tables: Tables) -> list[Choice]:
    """'Red Lantern · armor 1 · AUTO EVADE -2 · T1 58.3% T3 41.7%': each target's armor, evasion and
    the chance of each chosen turret or battery to hit it (HE where a warhead is still to choose)."""
    ship = _ship(state, args)
    groups = firing_groups(ship) if ship else {}
    chosen = [g for g in args.get("turrets", []) if g in groups]
    out = []
    for tid, target in state["ships"].items():
        parts = _target_words(state, target, tables)
        chances = []
        for gid in chosen:
            group = groups[gid]
            weapon_id = attack_type(group[0], "he", tables) or tables.mounts[group[0]["weapon"]]["fires"][0]
            weapon = tables.weapons[weapon_id]
            number = weapon["to_hit"].get(state["range"])
            if isinstance(number, int):
                mods = fire_modifiers(state, ship, *battery_gunnery(ship, group), target, tables, weapon)
                chance = RollRequest("", "2D", tuple(mods), Target(number)).chance()
                chances.append(f"{gid} {percent(chance)}")
        if chances:
            parts.append(" ".join(chances))
        out.append(Choice(tid, " · ".join(parts)))
    return out


def _target_words(state: dict, target: dict, tables: Tables) -> list[str]:
    """A target's name, armor and each evasion program (or that it is not running, surprised)."""
    running = evasion_running(state, target)
    return [target["name"], f"armor {target['armor_factor']}"] + [
        f"{p} {dm:+d}" if running else f"{p} not running (surprised)" for p in target["programs"]
        if (dm := tables.programs.get(p, {}).get("evade_dm", 0))]


def torpedo_targets(state: dict, args: dict, tables: Tables) -> list[Choice]:
    """'Swift Dolan · armor 4 · EVADE-2 -1 · tube 1 58.3%': as ``fire_targets``, with the chance of the ready
    tube's torpedo (HE, as the fire form reads a rack before its warhead is chosen)."""
    ship = _ship(state, args)
    tube = ready_tube(state, ship) if ship else None
    weapon = tables.weapons["torpedo_he"]
    number = weapon["to_hit"].get(state["range"])
    out = []
    for tid, target in state["ships"].items():
        parts = _target_words(state, target, tables)
        if tube is not None and isinstance(number, int):
            tracked = tracks_by_computer(ship, tube.get("fire_control", True))
            mods = fire_modifiers(state, ship, 0, tracked, target, tables, weapon)
            parts.append(f"{tube['id']} {percent(RollRequest('', '2D', tuple(mods), Target(number)).chance())}")
        out.append(Choice(tid, " · ".join(parts)))
    return out
