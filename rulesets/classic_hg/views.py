"""What the console shows for a classic-hg fight: ship lines, ship panels, checklist notes, choices.

Presentation only: every function here reads the state (and the tables) and
returns text; none changes anything, and none decides what is legal (that is
each action's ``may``, declared in ``actions``). The console imports none of
this; it calls the ruleset's ``unit_line``, ``unit_panels``, ``checklist_notes``
and ``sensors``, which delegate here.
"""

from __future__ import annotations

from . import damage, turn
from .choices import lower, mount_label, weapon_label, words
from .damage import erosion_step
from .fire import energy_free, energy_left_text, roll_cell, working
from .phases import storage_used
from .ships import energy_points, points_text
from .tables import Tables, load_tables

RECENT = 3  # crew attacks and radiation exposures shown in the panel
NO_SENSORS = "classic-hg tracks no sensor states (both sides see each other)"


def _tables(state: dict) -> Tables:
    return load_tables(state.get("table_files") or None)


def _name(state: dict, ship_id: str) -> str:
    return state["ships"].get(ship_id, {}).get("name", ship_id)


def _side_name(state: dict, side: str) -> str:
    return state.get("side_names", {}).get(side, side)


# --- the Ships panel ------------------------------------------------------------------------

def condition(state: dict, ship_id: str) -> float:
    """How much of the ship still works, 0 (nothing) to 1 (all of it), against how it began.

    The mean of ratios, each term counted only if the ship has such parts:

    - weapons: working weapons / weapons mounted, over all turrets
      (``sum(count - destroyed) / sum(count)``);
    - fire control: turrets with fire control / turrets;
    - torpedo tubes: tubes not destroyed / tubes;
    - hangars: hangars not damaged / hangars;
    - quarters: staterooms and berths not destroyed / all of them;
    - armor, maneuver drive, jump drive, power plant, computer, controls and
      sensors: now / at the start (the ship's ``start`` values; a state saved
      before they were kept counts 1 if above zero, else 0).

    Fuel, cargo and crew are left out: a ship may begin a fight without them.
    """
    ship = state["ships"][ship_id]
    terms: list[float] = []
    turrets = ship.get("turrets", [])
    mounted = left = controlled = 0  # one pass over the turrets (a forecast asks this every step)
    for t in turrets:
        mounted += t["count"]
        left += working(t)  # the fire rule's weapons left, not written out again here
        if t["fire_control"]:
            controlled += 1
    if mounted:
        terms.append(left / mounted)
    if turrets:
        terms.append(controlled / len(turrets))
    for key, broken in _COUNTED_PARTS:
        parts = ship.get(key)
        if parts:
            whole = 0
            for p in parts:
                if not p[broken]:
                    whole += 1
            terms.append(whole / len(parts))
    start = ship.get("start", {})
    for key in _STARTING_VALUES:
        began = start.get(key)
        if began:
            share = ship.get(key, 0) / began  # kept between 0 and 1, as max(0.0, min(1.0, share))
            terms.append(1.0 if share >= 1.0 else (share if share > 0.0 else 0.0))
        elif began is None and key not in ("armor_factor", "jump"):
            terms.append(1.0 if ship.get(key, 0) > 0 else 0.0)
    return round(sum(terms) / len(terms), 3) if terms else 1.0


_COUNTED_PARTS = (("tubes", "destroyed"), ("hangars", "damaged"), ("quarters", "destroyed"))
_STARTING_VALUES = ("armor_factor", "maneuver", "jump", "power_plant", "computer", "controls", "sensors")


LEGEND = "bar: how much still works · M maneuver · A armor · C computer"


def ship_line(state: dict, ship_id: str) -> tuple[str, float]:
    """'Vigilant  M5 A4 C4' (maneuver, armor, computer) and a marker, with ``condition``."""
    ship = state["ships"][ship_id]
    text = f"{ship['name']}  M{ship['maneuver']} A{ship['armor_factor']} C{ship['computer']}"
    if ship["broken_off"]:
        text += f" {ship.get('out') or 'broken off'}"
    elif state.get("surprised") and turn.is_surprised(state, ship_id):
        text += " surprised"
    return text, condition(state, ship_id)


# --- the ship panels ------------------------------------------------------------------------

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
    """'beam laser x3 in battery B1 (1 lost) skill 1, FC out, used: offence'."""
    text = f"{mount_label(turret, tables)} x{turret['count']}"
    if turret.get("battery"):
        text += f" in battery B{turret['battery']}"
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
    """What a fight needs first (what each weapon has done this turn, ammunition, energy, programs),
    then the drives, the computer and the hull."""
    ship = state["ships"][ship_id]
    rows: list[tuple[str, str]] = [("Status", _status(state, ship_id))]
    for t in ship["turrets"]:
        rows.append((t["id"], turret_text(ship, t, tables)))
    for tube in ship["tubes"]:
        if tube["destroyed"]:
            shown = "destroyed"
        elif tube["ready_turn"] <= state["turn"]:
            shown = "ready"
        else:
            shown = f"reloading, ready turn {tube['ready_turn']}"
        if not tube["destroyed"] and not tube.get("fire_control", True):
            shown += ", FC out"
        rows.append((tube["id"][0].upper() + tube["id"][1:], shown))
    stores = _ammo_stores(ship, tables)
    names = (("missiles", "missiles"), ("am_missiles", "AM missiles"), ("sand", "sand"), ("torpedoes", "torpedoes"))
    magazine = [f"{label} {ship[key]}" for key, label in names if ship.get(key, 0) > 0 or key in stores]
    rows.append(("Magazine", ", ".join(magazine) or "empty"))
    fields = [f"{label} x{ship[key]}" for key, label in (("repulsors", "repulsor"),
                                                          ("nuclear_dampers", "nuclear damper")) if ship.get(key)]
    if fields:
        rows.append(("Fields", ", ".join(fields)))
    total = energy_points(ship["tonnage"], ship["power_plant"])
    rows += [
        ("Energy", energy_line(energy_free(ship, tables), total)),
        ("Programs", ", ".join(ship["programs"]) or "none"),
        ("Storage", f"{storage_used(ship['programs'], tables)}/{ship.get('storage', 0)} spaces"),
    ]
    spare = [p for p in ship.get("library", []) if p not in ship["programs"]]
    if spare:
        rows.append(("Library", ", ".join(spare)))
    rows += [
        ("Maneuver", str(ship["maneuver"])),
        ("Jump", str(ship["jump"])),
        ("Power plant", str(ship["power_plant"])),
        ("Computer", str(ship["computer"]) + (" fib" if ship.get("computer_fib") else "")),
        ("Controls", str(ship["controls"])),
        ("Sensors", str(ship["sensors"])),
        ("Fuel", f"{ship['fuel']} tons"),
        ("Cargo", f"{ship['cargo']} tons"),
        ("Tonnage", f"{ship['tonnage']} tons"),
        ("Naval", "yes" if ship["naval"] else "no"),
        ("Scoops", "yes" if ship["fuel_scoops"] else "no"),
        ("Purification", "yes" if ship["purification_plant"] else "no"),
    ]
    for h in ship["hangars"]:
        craft = ", ".join(f"{c['name']} {c['tons']}t {c['status']}" for c in h["small_craft"]) or "empty"
        rows.append((h["name"], craft + (" (damaged)" if h["damaged"] else "")))
    return rows


def named_crew(state: dict, ship_id: str) -> list[tuple[str, str]]:
    """The crew personal combat has met (``damage.crew_combat_state``), by location, with their wounds."""
    rows = []
    people = [p for p in state.get("people", {}).values() if p.get("ship") == ship_id]
    attributes = damage.person_attributes() if people else ()
    for p in sorted(people, key=lambda p: p.get("location", "")):
        hurt = ", ".join(f"{words(part)} {b['taken']}/{b['points']}" for part, b in p["body"].items() if b["taken"])
        state_words = "KILLED" if p["dead"] else ("wounded" if hurt else "unhurt")
        text = f"{words(p.get('location', ''))}, {state_words}" + (f": {hurt}" if hurt else "")
        zeroed = [a for a in attributes if p.get(a) == 0]  # a nuclear missile's crew hit ("reduced to 0")
        if zeroed and not p["dead"]:
            text += f"; {' and '.join(zeroed)} at 0"
        if p.get("dies_in_days") and not p["dead"]:
            text += f"; dies in {p['dies_in_days']} day{'s' if p['dies_in_days'] != 1 else ''} untreated"
        rows.append((p["name"], text))
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
        rows.append((f"Crew {words(place)}", str(n)))
    rows += named_crew(state, ship_id)
    attacks = ship.get("crew_attacks", [])
    if attacks:
        rows.append(("Crew attacks", f"{len(attacks)} recorded"))
    for a in attacks[-RECENT:]:
        rows.append(("Crew attack", crew_attack_text(a, tables)))
    for r in ship.get("radiation", [])[-RECENT:]:
        rows.append(("Radiation", f"T{r['turn']} {r['attack']} {words(r['location'])}: {r['crew']} crew, "
                                  f"{r['damage']} damage, die in {r['dies_in_days']} day{'s' if r['dies_in_days'] != 1 else ''} untreated"))
    rooms = ship.get("quarters", [])
    if rooms:
        rows.append(("Quarters", f"{sum(1 for q in rooms if q['destroyed'])} of {len(rooms)} destroyed"))
    for q in rooms:
        if q["occupant"]:
            rows.append((q["berth"], q["occupant"] + (" (destroyed)" if q["destroyed"] else "")))
    return rows


def crew_attack_text(record: dict, tables: Tables, unnamed: frozenset[str] | set[str] = frozenset()) -> str:
    """'T2 A6: Captain Ilse Marr (particle accelerator): head 24, killed': the turn, the attack, who, what the
    attack counted as (in the weapon's own words, as the log names it: 'HE missile'), and what came of it;
    what it counted as is left out when it is one of ``unnamed``."""
    kind = "" if record["as"] in unnamed else f" ({weapon_label(record['as'], tables)})"
    text = f"T{record['turn']} {record['attack']}: {record['who']}{kind}"
    return text + (f": {record['result']}" if record.get("result") else "")


def ship_panels(state: dict, ship_id: str) -> dict[str, list[tuple[str, str]]]:
    tables = _tables(state)
    return {"Ship status": ship_status(state, ship_id, tables),
            "Armor and crew": armor_and_crew(state, ship_id, tables)}


# --- under the checklist ----------------------------------------------------------------------

def _reducer(attack: dict, tables: Tables) -> str:
    """What weakened an attack: the reducing defences that apply to its weapon ('sand')."""
    names = [lower(d["label"]) for d in tables.defences.values()
             if d.get("effect") == "reduce" and roll_cell(d.get("to_intercept", {}), attack["weapon"]) is not None]
    return "/".join(names) or "reduced"


def attack_line(state: dict, attack: dict, tables: Tables) -> str:
    """'A2 beam laser Vigilant->Jackal: incoming (6, sand -3)'."""
    head = (f"{attack['id']} {weapon_label(attack['weapon'], tables)} "
            f"{_name(state, attack['by'])}->{_name(state, attack['target'])}")
    points = f"{attack['damage']}" + (f", {_reducer(attack, tables)} -{attack['reduced']}" if attack["reduced"] else "")
    if attack["status"] == "intercepted":
        return f"{head}: intercepted"
    if attack["status"] == "done":
        through = attack.get("through", 0)
        return f"{head}: recorded ({points}), " + (f"{through} through" if through else "nothing through")
    held = (turn.simultaneous(state) and state["step"] < 8
            and state["ships"][attack["target"]]["side"] == state.get("defender"))
    word = "incoming" if attack.get("interceptable", True) else "unstoppable"
    return f"{head}: {word} ({points})" + (", held until step 8" if held else "")


def standing_lines(state: dict) -> list[str]:
    """How the turn stands, in words every side may read: the fight's end, the roles, the initiative rolled
    (the checklist and each side's screen both open with these)."""
    lines: list[str] = []
    if state.get("over"):
        lines.append(f"Fight over: {state['over']}")
    rolls = state.get("initiative", {})
    if state.get("attacker"):  # before this turn's initiative the roles are last turn's (a tie keeps them)
        lines.append(f"{'' if rolls else 'Last turn: '}ATTACKER: {_side_name(state, state['attacker'])}  "
                     f"DEFENDER: {_side_name(state, state['defender'])}")
    if rolls:
        lines.append("Initiative: " + ", ".join(f"{_side_name(state, s)} {rolls[s]}"
                                                for s in state["side_order"] if s in rolls))
    return lines


def checklist_notes(state: dict) -> list[str]:
    tables = _tables(state)
    notes = standing_lines(state)
    if not state.get("initiative"):
        notes.append("Initiative: not rolled yet")
    if state.get("surprised"):
        notes.append(f"Surprise: {_side_name(state, state['surprised'])} "
                     "(no offensive fire; no defensive fire unless naval)")
    if turn.simultaneous(state):
        notes.append("Simultaneous initiative: defender's damage waits until step 8")
    rng = f"Range: {state['range']}"
    if state["turn"] == 1:
        rng += " (the first turn is fought at long range)"
    elif state["step"] == 2 and not state.get("range_set"):
        rng += " (choose: " + ", ".join(turn.range_choices(state)) + ")"
    notes.append(rng)
    for a in state.get("attacks", []):
        notes.append(attack_line(state, a, tables))
    notes += still_free(state)
    return notes


def still_free(state: dict) -> list[str]:
    """Who has not acted yet this turn, per side: 'Free: Swift Dolan T1 T2, Vigilant Reach T4'. A surprised
    side's ships "may conduct no offensive fire", and those not naval "no defensive fire as well": the first
    are free to defend only, the others not free at all."""
    out = []
    for side in state["side_order"]:
        surprised = state.get("surprised") == side
        ships = [s for s in state["ships"].values() if s["side"] == side and not s["broken_off"]
                 and not (surprised and not s["naval"])]
        free = [f"{s['name']} " + " ".join(t["id"] for t in s["turrets"] if not t["used"] and working(t))
                + (" (defence only)" if surprised else "")
                for s in ships if any(not t["used"] and working(t) for t in s["turrets"])]
        if state["attacker"]:
            out.append(f"{_side_name(state, side)} free: " + (", ".join(free) or "nothing"))
    return out


def roll_help(state: dict, request) -> list[str]:
    """The table a location roll is made on, shown under the dice prompt before the dice fall."""
    owner, _, _name = request.then.rpartition(":")
    if owner:  # a roll of another ruleset's procedure (a crew hit's personal combat): its own words
        from engine.ruleset import find_ruleset
        return find_ruleset(owner).roll_help(state, request)
    tables = _tables(state)
    if request.then == "general_location":
        table, what = tables.general_locations, "General location"
    elif request.then == "specific_location":
        attack = next((a for a in state["attacks"] if a["id"] == request.context.get("attack")), None)
        if attack is None or attack.get("general") not in tables.specific_locations:
            return []
        table, what = tables.specific_locations[attack["general"]], f"In the {words(attack['general'])}"
    elif request.then == "pick":
        faces = damage.pick_faces(state, request)
        return ["Finds: " + " · ".join(faces)] if faces else []
    else:
        return []
    return [f"{what}: " + " · ".join(f"{n} {words(v)}" for n, v in sorted(table.items()))]


def sensors(state: dict) -> list[str]:
    """The text has no sensor rules: nothing to track."""
    return [NO_SENSORS]


def energy_line(free: int | float, total: int | float) -> str:
    """The Energy row: what is free of what the plant gives, and by how much a turn is over when a plant hit came
    after its energy was spent."""
    over = f" ({points_text(-free)} more spent this turn than the plant gives now)" if free < 0 else ""
    return f"{energy_left_text(free)} of {points_text(total)} EP free{over}"
