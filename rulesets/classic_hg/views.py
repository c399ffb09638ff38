"""What the console shows for a classic-hg fight: ship lines, ship panels, checklist notes, choices.

Presentation only: every function here reads the state (and the tables) and
returns text or choices; none changes anything. Whether an action is legal is
decided by ``fire``, ``turn`` and ``__init__``; the choices offered here are
built from the same predicates (``fire.working``, ``fire.has_program``,
``fire.defences_for``, ``fire.incoming``, ``fire.energy_free``,
``turn.may_fire_offensively``, ``turn.may_defend``, ``turn.range_choices``) so
that every value offered is one the rules accept. The console imports none of
this; it calls the ruleset's ``ship_line``, ``ship_panels``, ``checklist_notes``,
``sensors`` and ``param_choices``, which delegate here.
"""

from __future__ import annotations

from engine.ruleset import Choice, Param

from . import turn
from .damage import erosion_step
from .fire import defences_for, energy_free, has_program, incoming, working
from .ships import energy_points
from .tables import Tables, load_tables

NAME_WIDTH = 12
RECENT = 3  # crew attacks and radiation exposures shown in the panel
NO_SENSORS = "classic-hg tracks no sensor states (both sides see each other)"


def _tables(state: dict) -> Tables:
    return load_tables(state.get("table_files") or None)


def _lower(label: str) -> str:
    """'Beam laser' -> 'beam laser', but 'HE missile' and 'AM missile' keep their capitals."""
    if len(label) > 1 and label[0].isupper() and label[1].islower():
        return label[0].lower() + label[1:]
    return label


def _words(key: str) -> str:
    return key.replace("_", " ")


def _weapon_label(weapon_id: str, tables: Tables) -> str:
    if weapon_id == "ram":
        return "ramming"
    return _lower(tables.weapons.get(weapon_id, {}).get("label", _words(weapon_id)))


def _mount_label(turret: dict, tables: Tables) -> str:
    return _lower(tables.mounts.get(turret["weapon"], {}).get("label", _words(turret["weapon"])))


def _name(state: dict, ship_id: str) -> str:
    return state["ships"].get(ship_id, {}).get("name", ship_id)


def _side_name(state: dict, side: str) -> str:
    return state.get("side_names", {}).get(side, side)


# --- the Ships panel ------------------------------------------------------------------------

def condition(state: dict, ship_id: str) -> float:
    """How much of the ship still works, 0 (nothing) to 1 (all of it).

    The starting values are not in the state, so this is the mean of ratios of
    what still works, each term counted only if the ship has such parts:

    - weapons: working weapons / weapons mounted, over all turrets
      (``sum(count - destroyed) / sum(count)``);
    - fire control: turrets with fire control / turrets;
    - torpedo tubes: tubes not destroyed / tubes;
    - hangars: hangars not damaged / hangars;
    - quarters: staterooms and berths not destroyed / all of them;
    - one term each, 1 if above zero else 0: computer, controls, sensors,
      power plant, maneuver drive.

    condition = sum(terms) / number of terms. Armor, fuel, cargo and crew are
    left out: their starting values are not kept, and a ship may start without.
    """
    ship = state["ships"][ship_id]
    terms: list[float] = []
    turrets = ship.get("turrets", [])
    mounted = sum(t["count"] for t in turrets)
    if mounted:
        terms.append(sum(working(t) for t in turrets) / mounted)
    if turrets:
        terms.append(sum(1 for t in turrets if t["fire_control"]) / len(turrets))
    for key, broken in (("tubes", "destroyed"), ("hangars", "damaged"), ("quarters", "destroyed")):
        parts = ship.get(key, [])
        if parts:
            terms.append(sum(1 for p in parts if not p[broken]) / len(parts))
    for key in ("computer", "controls", "sensors", "power_plant", "maneuver"):
        terms.append(1.0 if ship.get(key, 0) > 0 else 0.0)
    return round(sum(terms) / len(terms), 3)


def ship_line(state: dict, ship_id: str) -> tuple[str, float]:
    """'Vigilant  M5 A4 C4' (maneuver, armor, computer) and a marker, with ``condition``."""
    ship = state["ships"][ship_id]
    text = f"{ship['name'][:NAME_WIDTH]}  M{ship['maneuver']} A{ship['armor_factor']} C{ship['computer']}"
    if ship["broken_off"]:
        text += f" {ship.get('out') or 'broken off'}"
    elif state.get("surprised") and turn.is_surprised(state, ship_id):
        text += " surprised"
    return text, condition(state, ship_id)


# --- the ship panels ------------------------------------------------------------------------

def _storage_used(programs: list[str], tables: Tables) -> int:
    return sum(int(tables.programs.get(p, {}).get("storage", 0)) for p in programs)


def _ammo_stores(ship: dict, tables: Tables) -> set[str]:
    """The magazine stores some mount or tube of this ship draws on."""
    stores: set[str] = set()
    for t in ship["turrets"]:
        mount = tables.mounts.get(t["weapon"], {})
        for w in mount.get("fires", []):
            stores.add(tables.weapons.get(w, {}).get("ammo", ""))
        for d in mount.get("defends", []):
            stores.add(tables.defences.get(d, {}).get("ammo", ""))
    if ship["tubes"]:
        stores.add("torpedoes")
    stores.discard("")
    return stores


def turret_text(ship: dict, turret: dict, tables: Tables) -> str:
    """'beam laser x3 (1 lost) skill 1, FC out, used: offence'."""
    text = f"{_mount_label(turret, tables)} x{turret['count']}"
    if turret["destroyed"]:
        text += f" ({turret['destroyed']} lost)"
    if turret["gunner_skill"]:
        text += f" skill {turret['gunner_skill']}"
    if not turret["fire_control"]:
        text += ", FC out"
    if turret["used"]:
        text += f", used: {turret['used']}"
    return text


def _status(state: dict, ship_id: str) -> str:
    ship = state["ships"][ship_id]
    flags = [(ship.get("out") or "broken off") if ship["broken_off"] else "in the fight"]
    if state.get("surprised") and turn.is_surprised(state, ship_id):
        flags.append("surprised")
    if ship.get("fired"):
        flags.append("fired this step")
    if ship.get("rammed"):
        flags.append("rammed this turn")
    return ", ".join(flags)


def ship_status(state: dict, ship_id: str, tables: Tables) -> list[tuple[str, str]]:
    ship = state["ships"][ship_id]
    rows: list[tuple[str, str]] = [
        ("Status", _status(state, ship_id)),
        ("Tonnage", f"{ship['tonnage']} tons"),
        ("Naval", "yes" if ship["naval"] else "no"),
        ("Maneuver", str(ship["maneuver"])),
        ("Jump", str(ship["jump"])),
        ("Power plant", str(ship["power_plant"])),
        ("Computer", str(ship["computer"]) + (" fib" if ship.get("computer_fib") else "")),
        ("Programs", ", ".join(ship["programs"]) or "none"),
        ("Storage", f"{_storage_used(ship['programs'], tables)}/{ship.get('storage', 0)} spaces"),
    ]
    spare = [p for p in ship.get("library", []) if p not in ship["programs"]]
    if spare:
        rows.append(("Library", ", ".join(spare)))
    total = energy_points(ship["tonnage"], ship["power_plant"])
    rows += [
        ("Energy", f"{energy_free(ship, tables)} of {total} EP free"),
        ("Controls", str(ship["controls"])),
        ("Sensors", str(ship["sensors"])),
        ("Fuel", f"{ship['fuel']} tons"),
        ("Cargo", f"{ship['cargo']} tons"),
        ("Scoops", "yes" if ship["fuel_scoops"] else "no"),
        ("Purification", "yes" if ship["purification_plant"] else "no"),
    ]
    stores = _ammo_stores(ship, tables)
    names = (("missiles", "missiles"), ("am_missiles", "AM missiles"), ("sand", "sand"), ("torpedoes", "torpedoes"))
    magazine = [f"{label} {ship[key]}" for key, label in names if ship.get(key, 0) > 0 or key in stores]
    rows.append(("Magazine", ", ".join(magazine) or "empty"))
    fields = [f"{label} x{ship[key]}" for key, label in (("repulsors", "repulsor"),
                                                          ("nuclear_dampers", "nuclear damper")) if ship.get(key)]
    if fields:
        rows.append(("Fields", ", ".join(fields)))
    for t in ship["turrets"]:
        rows.append((t["id"], turret_text(ship, t, tables)))
    for tube in ship["tubes"]:
        if tube["destroyed"]:
            shown = "destroyed"
        elif tube["ready_turn"] <= state["turn"]:
            shown = "ready"
        else:
            shown = f"reloading, ready turn {tube['ready_turn']}"
        rows.append((tube["id"][0].upper() + tube["id"][1:], shown))
    for h in ship["hangars"]:
        craft = ", ".join(f"{c['name']} {c['tons']}t {c['status']}" for c in h["small_craft"]) or "empty"
        rows.append((h["name"], craft + (" (damaged)" if h["damaged"] else "")))
    return rows


def armor_and_crew(state: dict, ship_id: str, tables: Tables) -> list[tuple[str, str]]:
    ship = state["ships"][ship_id]
    rows: list[tuple[str, str]] = [
        ("Armor", str(ship["armor_factor"]) + (", spaced" if ship["armor_spaced"] else "")),
        ("Armor wear", f"{ship['armor_hits']}/{erosion_step(ship['tonnage'])}" if ship["armor_factor"] else "-"),
    ]
    crew = ship.get("crew", {})
    rows.append(("Crew", f"{sum(crew.values())} aboard"))
    for place, n in crew.items():
        rows.append((f"Crew {_words(place)}", str(n)))
    attacks = ship.get("crew_attacks", [])
    if attacks:
        rows.append(("Crew attacks", f"{len(attacks)} recorded"))
    for a in attacks[-RECENT:]:
        text = f"T{a['turn']} {a['attack']}: {a['who']} ({_words(a['as'])})"
        rows.append(("Crew attack", text + (f": {a['result']}" if a.get("result") else "")))
    for r in ship.get("radiation", [])[-RECENT:]:
        rows.append(("Radiation", f"T{r['turn']} {r['attack']} {_words(r['location'])}: {r['crew']} crew, "
                                  f"{r['damage']} damage, die in {r['dies_in_days']} days untreated"))
    rooms = ship.get("quarters", [])
    if rooms:
        rows.append(("Quarters", f"{sum(1 for q in rooms if q['destroyed'])} of {len(rooms)} destroyed"))
    for q in rooms:
        if q["occupant"]:
            rows.append((q["berth"], q["occupant"] + (" (destroyed)" if q["destroyed"] else "")))
    return rows


def ship_panels(state: dict, ship_id: str) -> dict[str, list[tuple[str, str]]]:
    tables = _tables(state)
    return {"Ship status": ship_status(state, ship_id, tables),
            "Armor and crew": armor_and_crew(state, ship_id, tables)}


# --- under the checklist ----------------------------------------------------------------------

def _reducer(attack: dict, tables: Tables) -> str:
    """What weakened an attack: the reducing defences that apply to its weapon ('sand')."""
    names = [_lower(d["label"]) for d in tables.defences.values()
             if d.get("effect") == "reduce" and attack["weapon"] in d.get("to_intercept", {})]
    return "/".join(names) or "reduced"


def attack_line(state: dict, attack: dict, tables: Tables) -> str:
    """'A2 beam laser Vigilant->Jackal: incoming (6, sand -3)'."""
    head = (f"{attack['id']} {_weapon_label(attack['weapon'], tables)} "
            f"{_name(state, attack['by'])}->{_name(state, attack['target'])}")
    points = f"{attack['damage']}" + (f", {_reducer(attack, tables)} -{attack['reduced']}" if attack["reduced"] else "")
    if attack["status"] == "intercepted":
        return f"{head}: intercepted"
    if attack["status"] == "done":
        through = attack.get("through", 0)
        return f"{head}: recorded ({points}), " + (f"{through} through" if through else "nothing through")
    held = (state.get("simultaneous") and state["step"] < 8
            and state["ships"][attack["target"]]["side"] == state.get("defender"))
    word = "incoming" if attack.get("interceptable", True) else "unstoppable"
    return f"{head}: {word} ({points})" + (", held until step 8" if held else "")


def checklist_notes(state: dict) -> list[str]:
    tables = _tables(state)
    notes: list[str] = []
    if state.get("over"):
        notes.append(f"Fight over: {state['over']}")
    if state.get("attacker"):
        notes.append(f"ATTACKER: {_side_name(state, state['attacker'])}  "
                     f"DEFENDER: {_side_name(state, state['defender'])}")
    rolls = state.get("initiative", {})
    if rolls:
        notes.append("Initiative: " + ", ".join(f"{_side_name(state, s)} {rolls[s]}"
                                                for s in state["side_order"] if s in rolls))
    else:
        notes.append("Initiative: not rolled yet")
    if state.get("surprised"):
        notes.append(f"Surprise: {_side_name(state, state['surprised'])} "
                     "(no offensive fire; no defensive fire unless naval)")
    if state.get("simultaneous"):
        notes.append("Simultaneous initiative: defender's damage waits until step 8")
    rng = f"Range: {state['range']}"
    if state["turn"] == 1:
        rng += " (the first turn is fought at long range)"
    elif state["step"] == 2 and not state.get("range_set"):
        rng += " (choose: " + ", ".join(turn.range_choices(state)) + ")"
    notes.append(rng)
    for a in state.get("attacks", []):
        notes.append(attack_line(state, a, tables))
    return notes


def sensors(state: dict) -> list[str]:
    """The text has no sensor rules: nothing to track."""
    return [NO_SENSORS]


# --- choices for the actions' parameters --------------------------------------------------------

def _enemies(state: dict, ship_id: str) -> list[Choice]:
    ship = state["ships"].get(ship_id)
    if ship is None:
        return []
    side = turn.other(state, ship["side"])
    return [Choice(sid, state["ships"][sid]["name"]) for sid in turn.ships_of(state, side)]


def _energy_ok(ship: dict, turret: dict, tables: Tables) -> bool:
    need = tables.mounts[turret["weapon"]]["energy_points"] * working(turret)
    return not need or need <= energy_free(ship, tables)


def offence_weapons(state: dict, ship: dict, turret: dict, tables: Tables) -> list[str]:
    """The attack types this turret could fire now: unused, working, in range, program, ammo, energy."""
    if turret["used"] or not working(turret) or not _energy_ok(ship, turret, tables):
        return []
    out = []
    for wid in tables.mounts[turret["weapon"]]["fires"]:
        weapon = tables.weapons[wid]
        if weapon["to_hit"].get(state["range"]) is None:
            continue
        if not has_program(ship, [weapon["program"]] if weapon["program"] else []):
            continue
        store = weapon.get("ammo", "")
        if store and ship.get(store, 0) < working(turret):
            continue
        out.append(wid)
    return out


def _warhead(weapon_id: str) -> str:
    """fire._attack_type matches a warhead by the attack type's suffix ('missile_he' -> 'he')."""
    return weapon_id.rsplit("_", 1)[-1]


def may_fire(state: dict, ship_id: str) -> bool:
    """Offensive fire from this ship now: its side's step, in the fight, not surprised."""
    ship = state["ships"][ship_id]
    return (state["step"] in (3, 6) and ship["side"] == turn.firing_side(state) and not ship["broken_off"]
            and turn.may_fire_offensively(state, ship_id))


def _firing_ships(state: dict) -> list[str]:
    if state["step"] not in (3, 6):
        return []
    return [sid for sid in turn.ships_of(state, turn.firing_side(state)) if may_fire(state, sid)]


def _ready_tube(state: dict, ship: dict) -> dict | None:
    return next((t for t in ship["tubes"] if not t["destroyed"] and t["ready_turn"] <= state["turn"]), None)


def torpedo_warheads(state: dict, ship: dict, tables: Tables) -> list[str]:
    """Warheads a torpedo could be launched with now (tube ready, torpedoes, program, range)."""
    if _ready_tube(state, ship) is None or ship["torpedoes"] < 1:
        return []
    out = []
    for warhead in ("he", "nuclear"):
        weapon = tables.weapons.get(f"torpedo_{warhead}")
        if weapon and weapon["to_hit"].get(state["range"]) is not None and has_program(ship, [weapon["program"]]):
            out.append(warhead)
    return out


def defences_now(ship: dict, turret: dict, attack: dict, tables: Tables) -> list[str]:
    """Defences this turret can use against this attack now (unused, working, energy, ammo)."""
    if turret["used"] or not working(turret) or not _energy_ok(ship, turret, tables):
        return []
    out = []
    for d in defences_for(ship, turret, attack, tables):
        store = tables.defences[d].get("ammo", "")
        if store and ship.get(store, 0) < working(turret):
            continue
        out.append(d)
    return out


def _defending_ships(state: dict) -> list[str]:
    if state["step"] not in (4, 7):
        return []
    side = turn.defending_side(state)
    return [sid for sid, s in state["ships"].items() if s["side"] == side and turn.may_defend(state, sid)]


def _chosen(args: dict, key: str) -> list[str]:
    value = args.get(key) or []
    return [value] if isinstance(value, str) else list(value)


def _turret(ship: dict | None, turret_id: str) -> dict | None:
    if ship is None:
        return None
    return next((t for t in ship["turrets"] if t["id"] == turret_id), None)


def _to_hit_text(state: dict, weapons: list[str], tables: Tables) -> str:
    numbers = sorted({int(tables.weapons[w]["to_hit"][state["range"]]) for w in weapons})
    return "/".join(f"{n}+" for n in numbers)


def _fire_choices(state: dict, param: Param, args: dict, tables: Tables) -> list[Choice] | None:
    ship = state["ships"].get(args.get("ship", ""))
    if param.name == "ship":
        out = []
        for sid in _firing_ships(state):
            s = state["ships"][sid]
            if any(offence_weapons(state, s, t, tables) for t in s["turrets"]):
                out.append(Choice(sid, s["name"]))
        return out
    if ship is None or not may_fire(state, args.get("ship", "")):
        return []
    if param.name == "turrets":
        out = []
        for t in ship["turrets"]:
            weapons = offence_weapons(state, ship, t, tables)
            if weapons:
                label = f"{t['id']} {_mount_label(t, tables)} x{working(t)} · {_to_hit_text(state, weapons, tables)}"
                out.append(Choice(t["id"], label))
        return out
    if param.name == "target":
        return _enemies(state, args.get("ship", ""))
    if param.name == "warhead":
        common: list[str] | None = None
        labels: dict[str, str] = {}
        for tid in _chosen(args, "turrets"):
            t = _turret(ship, tid)
            if t is None or len(tables.mounts[t["weapon"]]["fires"]) < 2:
                continue
            usable = offence_weapons(state, ship, t, tables)
            for w in usable:
                labels.setdefault(_warhead(w), f"{tables.weapons[w]['label']} · {_to_hit_text(state, [w], tables)}")
            heads = [_warhead(w) for w in usable]
            common = heads if common is None else [h for h in common if h in heads]
        return [Choice(h, labels[h]) for h in (common or [])]
    if param.name == "location":
        if not any(tables.programs.get(p, {}).get("selective") for p in ship["programs"]):
            return []
        places = []
        for g in tables.general_locations.values():
            if g in tables.specific_locations and g not in places:
                places.append(g)
        return [Choice("", "rolled (no selective fire)")] + [Choice(g, _words(g)) for g in places]
    return None


def _defend_choices(state: dict, param: Param, args: dict, tables: Tables) -> list[Choice] | None:
    attacks = incoming(state)
    ship = state["ships"].get(args.get("ship", ""))
    turret = _turret(ship, args.get("turret", ""))
    if param.name == "ship":
        out = []
        for sid in _defending_ships(state):
            s = state["ships"][sid]
            if any(defences_now(s, t, a, tables) for t in s["turrets"] for a in attacks):
                out.append(Choice(sid, s["name"]))
        return out
    if ship is None or args.get("ship", "") not in _defending_ships(state):
        return []
    if param.name == "turret":
        out = []
        for t in ship["turrets"]:
            stops = [a["id"] for a in attacks if defences_now(ship, t, a, tables)]
            if stops:
                out.append(Choice(t["id"], f"{t['id']} {_mount_label(t, tables)} x{working(t)} · "
                                           f"stops {', '.join(stops)}"))
        return out
    if turret is None:
        return []
    if param.name == "attack":
        out = []
        for a in attacks:
            usable = defences_now(ship, turret, a, tables)
            if usable:
                need = int(tables.defences[usable[0]]["to_intercept"][a["weapon"]])
                label = (f"{a['id']} {_weapon_label(a['weapon'], tables)} at {_name(state, a['target'])} "
                         f"({a['damage'] - a['reduced']}) · {need}+")
                out.append(Choice(a["id"], label))
        return out
    if param.name == "defence":
        attack = next((a for a in attacks if a["id"] == args.get("attack")), None)
        if attack is None:
            return []
        usable = defences_now(ship, turret, attack, tables)
        default = defences_for(ship, turret, attack, tables)[:1]
        if usable == default:
            return []  # the rules use the first defence that applies
        return [Choice(d, f"{tables.defences[d]['label']} · {tables.defences[d]['to_intercept'][attack['weapon']]}+")
                for d in usable]
    return None


def param_choices(state: dict, action: str, param: Param, args: dict) -> list[Choice] | None:
    """Values to offer for ``param`` of ``action`` given ``args`` chosen so far ([] skips it)."""
    tables = _tables(state)
    ships = state["ships"]
    if action == "fire":
        return _fire_choices(state, param, args, tables)
    if action == "defend":
        return _defend_choices(state, param, args, tables)
    if action == "launch_torpedo":
        ship = ships.get(args.get("ship", ""))
        if param.name == "ship":
            return [Choice(sid, ships[sid]["name"]) for sid in _firing_ships(state)
                    if torpedo_warheads(state, ships[sid], tables)]
        if param.name == "target":
            return _enemies(state, args.get("ship", ""))
        if param.name == "warhead":
            if ship is None:
                return []
            return [Choice(w, f"{tables.weapons[f'torpedo_{w}']['label']} · "
                              f"{_to_hit_text(state, [f'torpedo_{w}'], tables)}")
                    for w in torpedo_warheads(state, ship, tables)]
    if action == "ram":
        if param.name == "ship":
            return [Choice(sid, f"{ships[sid]['name']} (maneuver {ships[sid]['maneuver']})")
                    for sid in _firing_ships(state) if not ships[sid].get("rammed")]
        if param.name == "target":
            return [Choice(c.value, f"{c.label} (maneuver {ships[c.value]['maneuver']})")
                    for c in _enemies(state, args.get("ship", ""))]
    if action == "break_off":
        if param.name == "ship":
            out = []
            for sid in _firing_ships(state):
                s = ships[sid]
                enemy = turn.other(state, s["side"])
                best = max((ships[e]["maneuver"] for e in turn.ships_of(state, enemy)), default=-1)
                if not s.get("fired") and s["maneuver"] > best:
                    out.append(Choice(sid, f"{s['name']} (maneuver {s['maneuver']} against {max(best, 0)})"))
            return out
    if action == "withdraw" and param.name == "ship":
        return [Choice(sid, s["name"]) for sid, s in ships.items() if not s["broken_off"]]
    if action == "load_programs":
        if param.name == "ship":
            return [Choice(sid, f"{s['name']} ({_storage_used(s['programs'], tables)}/{s.get('storage', 0)} "
                                "spaces)") for sid, s in ships.items()]
        if param.name == "programs":
            ship = ships.get(args.get("ship", ""))
            if ship is None:
                return []
            out = []
            for p in ship.get("library", []):
                size = int(tables.programs.get(p, {}).get("storage", 0))
                label = f"{p} · {size} space{'s' if size != 1 else ''}"
                out.append(Choice(p, label + (" (loaded)" if p in ship["programs"] else "")))
            return out
    if action == "set_range" and param.name == "range":
        words = {}
        i = turn.RANGES.index(state["range"])
        for r in turn.range_choices(state):
            j = turn.RANGES.index(r)
            words[r] = "stay" if j == i else ("closer" if j < i else "farther")
        return [Choice(r, f"{r} ({words[r]})") for r in turn.range_choices(state)]
    # anything else: as the engine's default would offer
    if param.kind == "ship":
        return [Choice(sid, s.get("name", sid)) for sid, s in ships.items()]
    if param.kind == "choice":
        return [Choice(c, c) for c in param.choices]
    return None
