"""Damage: armor absorption and erosion, hit locations, and the effects of each location.

Source: ``classic-hg-combat.txt``, the paragraphs from "At the conclusion of
defensive fire" to the spallation table: the weapon's rated damage (beam
weapons and repeaters times the weapons in the turret), less sand, less armor
("Ship's armor absorbs 1 point per factor per hit"); hits stopped by armor wear
it down by one factor per tonnage/10; what gets through rolls the general
location (unless selective fire chose it), then the specific location, and the
effect is applied once per hit that got through.

Where the text is silent we decided, as a careful referee would:

- The points that get through are the effect's "hits": 3 points on Fuel lose
  3 tons, on Computer lower it by 3.
- Armor erosion for a tonnage that is not a multiple of ten rounds tonnage/10 up.
- Armor that stops every point leaves nothing to determine: no location is
  rolled and no radiation or spallation reaches the crew ("If there are enough
  damage points to penetrate the armor, or the ship is not fitted with armor,
  the effects of the damage table are determined"; radiation and spallation
  are among those effects). An attack that sand has brought to 0 points does
  nothing, armor or not.
- Radiation reads like spallation: the radiation-table roll decides whether the
  attack happens at all; when it does, the computer takes its extra hit (not
  with fiber-optic backup) and the crew in the location take 1D and die in 1D
  days untreated. With fiber-optic backup the roll is still made, for the crew.
- A computer hit (or a radiation hit on it) lowers the model; its storage
  becomes the computers table's storage for the lowered model when that is
  less than the storage it has, and the loaded programs that no longer fit are
  unloaded, the last loaded first. The sensors and controls are not changed by
  it (each has its own location).
- Which turret, tube, hangar or room a hit finds is rolled on 1dN over the
  candidates, in ship order, turrets before torpedo tubes. A weapon hit on a
  tube destroys it (a tube is one weapon); a fire-control hit on a tube leaves
  it launching at DM -4 with no program DMs.
- Hangar: each damaged hangar refuses launch and recovery; small craft out of
  the ship when it is hit are neither destroyed nor disabled.
- Crew hits by personal combat: a fight whose setup asks for it
  (``options.crew_combat = "percentile"``, or named crew in ``[setup.people]``
  with ``ship``, ``location`` and ``name``) resolves each crew, quarters and
  spallation attack with the percentile ruleset's ``crew_attack`` (its to hit
  and damage by the weapon equivalent of the crew_attacks table) against the
  people at the location, and each radiation exposure with ``crew_exposure``;
  the people are made on demand (the named crew first) and kept in
  ``state["people"]``; each one killed lowers the location's crew count. A
  room's occupant is kept where the crew list puts him, or else in his berth,
  never among the struck location's crew (``occupant_place``). A
  fight with ``crew_combat = "records"``, or saved without the option before it
  existed, keeps the crew attacks as records only. ``flagbridge new`` asks, with
  personal combat first, and the shipped demo uses it.
"""

from __future__ import annotations

from engine.errors import BadTable, IllegalAction
from engine.rolls import Modifier, RollResult, Target
from engine.ruleset import RuleContext, find_ruleset

from .catalogue import CATALOGUE, continuation
from .fire import attack_by_id, working
from .phases import storage_used
from .tables import Tables
from .turn import damage_attacks

SMALL_CRAFT_TONS_PER_HIT = 10  # "each hit will destroy 10 tons of small craft"
CHAIN = frozenset(("general_location", "specific_location", "spallation", "radiation", "radiation_crew",
                   "radiation_days", "nuclear_crew", "pick"))

_RAM = {"label": "Ramming", "radiation": False, "spallation": "", "crew_attack": ""}
PERSONAL = "percentile"  # the ruleset whose procedures resolve crew hits, when a fight asks for it
RECORDS = "records"  # crew hits kept as records only (what a fight saved without the option does)


def crew_combat_state(setup) -> dict:
    """What a fight that resolves crew hits by personal combat adds to its state (nothing otherwise, so
    fights and saves that do not ask are unchanged): the named crew by ship and location."""
    option = setup.options.get("crew_combat", "")
    if option not in ("", PERSONAL, RECORDS):
        raise BadTable(f'setup.options.crew_combat: expected "{PERSONAL}", "{RECORDS}" or nothing, got {option!r}')
    if option == RECORDS or (not option and not setup.people):
        return {}
    roster: dict[str, dict[str, list[str]]] = {}
    for pid, person in setup.people.items():
        where = f"setup.people.{pid}"
        if person.get("ship") not in setup.ships:
            raise BadTable(f"{where}.ship: expected one of {', '.join(setup.ships)}, got {person.get('ship')!r}")
        place, name = person.get("location"), person.get("name")
        if not isinstance(place, str) or not place:
            raise BadTable(f"{where}.location: expected the general location the person stands in, got {place!r}")
        if not isinstance(name, str) or not name:
            raise BadTable(f"{where}.name: expected text, got {name!r}")
        roster.setdefault(person["ship"], {}).setdefault(place, []).append(name)
    return {"crew_combat": PERSONAL, "crew_roster": roster, "people": {}}


def _personal_attack(state: dict, attack: dict, key: str, who: str, tables: Tables, ctx: RuleContext) -> None:
    """The last crew attack recorded, resolved by personal combat when the fight asks for it."""
    entry = tables.crew_attacks.get(key, {})
    if state.get("crew_combat") != PERSONAL or not entry.get("equivalent"):
        return
    ship_id = attack["target"]
    ship = state["ships"][ship_id]
    place = attack.get("general", "")
    ctx.call(PERSONAL, "crew_attack", {
        "ship": ship_id, "ship_name": ship["name"], "side": ship["side"],
        "location": occupant_place(state, ship_id, who, place) if who else place,
        "equivalent": entry["equivalent"], "tag": f"{ship_id}:crew_attacks:{len(ship['crew_attacks']) - 1}",
        "count": ship["crew"].get(place, 0), "roster": state["crew_roster"].get(ship_id, {}).get(place, []),
        "only": [who] if who else []}, reply="crew_wounded")


@CATALOGUE.reply("crew_wounded")
def on_crew_wounded(state: dict, data: dict, tables: Tables, ctx: RuleContext) -> None:
    """One person's part of a personal attack: noted on its record; a death lowers the location's crew."""
    ship_id, book, index = data["tag"].split(":")
    ship = state["ships"][ship_id]
    record = ship[book][int(index)]
    person = state["people"][data["person"]]
    words = "missed" if not data["part"] else f"{data['part'].replace('_', ' ')} {data['points']}"
    if data["dead"] and person.get("counted_dead"):
        words = "already dead"
    elif data["dead"]:
        person["counted_dead"] = True
        words += ", killed"
        _one_fewer(state, ship_id, person["name"], person.get("location", ""), record.get("who") == person["name"])
    line, before = f"{person['name']}: {words}", record.get("result", "")
    record["result"] = f"{before}; {line}" if before else line  # each person's part after the ones before
    _chain_goes_on(state, tables, ctx)


def crew_place(state: dict, ship_id: str, name: str, place: str, occupant: bool) -> str:
    """Where a person of the ship is counted among its crew ("" for no count): a named crew member where the
    crew list puts him, wherever he was hit; a berth's occupant not on the list nowhere (a passenger, a rescued
    pilot: "the inhabitant" of the room, not its crew); anyone else where he was met."""
    for where, names in state.get("crew_roster", {}).get(ship_id, {}).items():
        if name in names:
            return where
    return "" if occupant else place


def occupant_place(state: dict, ship_id: str, who: str, struck: str) -> str:
    """Where personal combat keeps a room's occupant: a named crewman where the crew list puts him, anyone else
    in his own berth ("stateroom_1"). Not among the crew of the location the hit ``struck``: "the inhabitant" of
    a room is not one of them, so a later crew hit there neither shoots him in a crewman's place nor numbers its
    crew after him ("Quarters crew 2" for the first)."""
    place = crew_place(state, ship_id, who, "", True)
    if place:
        return place
    for room in state["ships"][ship_id]["quarters"]:
        if room["occupant"] == who:
            return room["berth"].replace(" ", "_")
    return struck


def person_attributes() -> tuple[str, ...]:
    """The attributes a nuclear missile's crew hit can take to 0, as the people's own ruleset lists them (its
    ``drained_attributes``): asked of it, so this one holds no copy of its list."""
    return tuple(find_ruleset(PERSONAL).drained_attributes)


def casualties(before: dict, after: dict, attributes: tuple[str, ...] = ()) -> list[str]:
    """The people personal combat met between two states, as the recap tells them: "Capt. Orrin Vale (Jackal,
    bridge): killed", or wounded with the wounds new since ``before``, and the ``attributes`` taken to 0 since
    (a nuclear missile's "otherwise 2 attributes reduced to 0": "aim and perception reduced to 0"), and a death
    date radiation set or moved since ("dies in 3 days untreated"). A person first met since ``before`` began
    with none at 0 (crew are made with the people defaults)."""
    out = []
    was, ships = before.get("people", {}), after.get("ships", {})
    for pid, person in after.get("people", {}).items():
        old = was.get(pid, {})
        new_wounds = person.get("wounds", [])[len(old.get("wounds", [])):]
        killed = person.get("dead") and not old.get("dead")
        lost = [a for a in attributes if person.get(a) == 0 and old.get(a) != 0]
        dying = person.get("dies_in_days") if person.get("dies_in_days") != old.get("dies_in_days") else 0
        if not killed and not new_wounds and not lost and not dying:
            continue
        ship = ships.get(person.get("ship"), {}).get("name", person.get("ship", ""))
        where = f"{person.get('name', pid)} ({ship}, {str(person.get('location', '')).replace('_', ' ')})"
        if killed:
            out.append(f"{where}: killed")
            continue
        wounds = ", ".join(f"{w.get('part', '').replace('_', ' ')} {w.get('points', 0)}" for w in new_wounds)
        told = ([f"wounded, {wounds}"] if new_wounds else []) + ([f"{' and '.join(lost)} reduced to 0"] if lost else [])
        if dying:  # radiation (line 89): "death in 1D days" unless treated
            told.append(f"dies in {dying} day{'s' if dying != 1 else ''} untreated")
        out.append(f"{where}: " + "; ".join(told))
    return out


def _one_fewer(state: dict, ship_id: str, name: str, place: str, occupant: bool) -> None:
    """A crewman's death lowers the count of the location he is counted in (never below 0)."""
    crew = state["ships"][ship_id]["crew"]
    where = crew_place(state, ship_id, name, place, occupant)
    if where and crew.get(where, 0) > 0:
        crew[where] -= 1


def weapon_entry(attack: dict, tables: Tables) -> dict:
    return _RAM if attack["weapon"] == "ram" else tables.weapons[attack["weapon"]]


def erosion_step(tonnage: int) -> int:
    """Hits the armor can stop before it loses a factor: "hits equal to its tonnage/10"."""
    return max(1, -(-tonnage // 10))


def absorb(ship: dict, points: int) -> tuple[int, int, int]:
    """Armor subtracts its factor from one attack and wears down by the hits it stopped.

    Returns (stopped, through, factors lost).
    """
    stopped = min(points, ship["armor_factor"])
    through = points - stopped
    ship["armor_hits"] += stopped
    step = erosion_step(ship["tonnage"])
    lost = 0
    while ship["armor_factor"] > 0 and ship["armor_hits"] >= step:
        ship["armor_factor"] -= 1
        ship["armor_hits"] -= step
        lost += 1
    if ship["armor_factor"] == 0:
        ship["armor_hits"] = 0  # "A ships' armor factor may never be reduced below 0"
    return stopped, through, lost


def may_resolve_damage(state: dict, args: dict, tables: Tables) -> str:
    """Steps 5 and 8; and once more when the fight ends with damage past defensive fire unrecorded."""
    if state["over"]:
        return "" if damage_attacks(state) else "the fight is over"
    if state["step"] not in (5, 8):
        return "damage is recorded in steps 5 and 8"
    if not damage_attacks(state):
        return "no damage to record in this step"
    return ""


def start_damage(state: dict, args: dict, tables: Tables, ctx: RuleContext) -> None:
    """Queue every attack this step records, and begin the first."""
    attacks = damage_attacks(state)
    state["damage_queue"] = [a["id"] for a in attacks]
    next_damage(state, tables, ctx)


def next_damage(state: dict, tables: Tables, ctx: RuleContext) -> None:
    """Work through the queue until an attack needs a roll, or the queue is empty.

    Each attack begins under whatever ended the one before it (the action, a location roll, a crew member's
    wound), so its notes are set apart as its own: they are its target's to read, not that roll's readers',
    and what the earlier attack notes after it (the next crew member's radiation wound) stays the earlier's.
    """
    while state["damage_queue"]:
        attack = attack_by_id(state, state["damage_queue"].pop(0))
        with ctx.about({"attack": attack["id"]}):
            began = _begin(state, attack, tables, ctx)
        if began:
            return


def _begin(state: dict, attack: dict, tables: Tables, ctx: RuleContext) -> bool:
    ship = state["ships"][attack["target"]]
    points = max(0, attack["damage"] - attack["reduced"])
    attack["armor_at_hit"] = ship["armor_factor"]
    stopped, through, lost = absorb(ship, points)
    attack["through"] = through
    attack["status"] = "done"
    line = f"{attack['id']} on {ship['name']}: {points} points"
    if attack["reduced"]:
        line += f" (sand took {attack['reduced']})"
    if stopped:
        line += f", armor stops {stopped}"
    if lost:
        line += f", armor worn down to factor {ship['armor_factor']}"
    ctx.note(line + (f", {through} through" if through else ", nothing gets through"))
    if not through:  # nothing penetrates: no effects to determine, radiation and spallation included
        return False
    if attack["location"]:
        _at_general(state, attack, attack["location"], tables, ctx)
    else:
        ctx.request_roll(f"General location: {attack['id']} on {ship['name']}", "2D",
                         then="general_location", context={"attack": attack["id"]})
    return bool(ctx.requests)


def _at_general(state: dict, attack: dict, general: str, tables: Tables, ctx: RuleContext) -> None:
    weapon = weapon_entry(attack, tables)
    attack["general"] = general
    where = general.replace("_", " ")
    ctx.note(f"{attack['id']} strikes the {where}")
    ctx.request_roll(f"Specific location: {attack['id']} in the {where}", "2D",
                     then="specific_location", context={"attack": attack["id"]})
    if weapon["spallation"]:
        _spallation(state, attack, weapon, tables, ctx)
    if weapon["radiation"]:
        _radiation(state, attack, tables, ctx)


def _spallation_cell(attack: dict, weapon: dict, tables: Tables):
    row = tables.spallation[weapon["spallation"]]
    return row[min(attack["armor_at_hit"], len(row) - 1)]


def _spallation(state: dict, attack: dict, weapon: dict, tables: Tables, ctx: RuleContext) -> None:
    """The spallation table by armor factor; "a DM of -3 ... if the ship is fitted with Spaced armor"."""
    ship = state["ships"][attack["target"]]
    cell = _spallation_cell(attack, weapon, tables)
    if cell == "no":
        ctx.note(f"No spallation against armor {attack['armor_at_hit']}")
    elif cell == "auto":
        _spall(state, attack, ctx, tables)
    else:
        mods = [Modifier("Spaced armor", tables.spallation_spaced_dm)] if ship["armor_spaced"] else []
        ctx.request_roll(f"Spallation: {attack['id']} on {ship['name']}", "2D", mods, Target(int(cell)),
                         then="spallation", context={"attack": attack["id"]})


def _spall(state: dict, attack: dict, ctx: RuleContext, tables: Tables | None = None) -> None:
    crew_attack(state, attack, "spallation", ctx, reason="spallation", tables=tables)


def _radiation(state: dict, attack: dict, tables: Tables, ctx: RuleContext) -> None:
    """"Roll on the radiation table. If the roll equals of exceeds the required number" the computer
    takes a hit and the crew in the location are exposed; "no" never, "auto" always."""
    ship = state["ships"][attack["target"]]
    cell = tables.radiation[min(attack["armor_at_hit"], 15)]
    if cell == "no":
        ctx.note(f"No radiation gets through armor {attack['armor_at_hit']}")
    elif cell == "auto":
        _irradiate(state, attack, tables, ctx)
    else:
        ctx.request_roll(f"Radiation: {attack['id']} against {ship['name']}'s computer and crew", "2D",
                         target=Target(int(cell)), then="radiation", context={"attack": attack["id"]})


def _irradiate(state: dict, attack: dict, tables: Tables, ctx: RuleContext) -> None:
    """The radiation attack lands: one more computer hit, and 1D to the crew in the location."""
    ship = state["ships"][attack["target"]]
    if ship["computer_fib"]:
        ctx.note(f"{ship['name']}'s fiber-optic backup shrugs off the radiation")
    else:
        lower_computer(ship, 1, tables, ctx, "Radiation")
    crew = ship["crew"].get(attack["general"], 0)
    if crew:
        attack["radiation_crew"] = crew
        ctx.request_roll(f"Radiation: damage to {crew} crew in the {attack['general']}", "1D",
                         then="radiation_crew", context={"attack": attack["id"]})
        ctx.request_roll("Radiation: days until death without antiradiation treatment", "1D",
                         then="radiation_days", context={"attack": attack["id"]})


def lowered(before: int, after: int, hits: int, unit: str = "") -> str:
    """What hits took off a value that stops at 0, in words: all of them, some (the rest found nothing
    left), or none (it was 0 already): "-5 (now 0)" for a value already at 0 would read as a loss."""
    lost = before - after
    if lost == hits:
        return f"-{hits}{unit} (now {after}{unit})"
    if lost:
        return f"-{lost}{unit} of {hits} hit{'s' if hits != 1 else ''} (now {after}{unit})"
    return f"already {after}{unit} ({hits} hit{'s take' if hits != 1 else ' takes'} nothing more)"


def lower_computer(ship: dict, hits: int, tables: Tables, ctx: RuleContext, why: str = "Computer") -> None:
    """"Reduce the effective computer factor by 1 for each hit received": the storage follows the
    lowered model, and the programs that no longer fit are unloaded, the last loaded first."""
    before = ship["computer"]
    ship["computer"] = max(0, before - hits)
    line = f"{why}: {ship['name']} computer {lowered(before, ship['computer'], hits)}"
    model_storage = int(tables.computers.get(ship["computer"], {}).get("storage", 0))
    if model_storage < ship.get("storage", model_storage + 1):
        ship["storage"] = model_storage
        line += f", storage {model_storage}"
    unloaded = []
    while ship["programs"] and storage_used(ship["programs"], tables) > ship["storage"]:
        unloaded.insert(0, ship["programs"].pop())
    if unloaded:
        line += f"; unloaded {', '.join(unloaded)}"
    ctx.note(line)


def crew_attack(state: dict, attack: dict, key: str, ctx: RuleContext, who: str = "", reason: str = "",
                tables: Tables | None = None) -> None:
    """Record an attack on crew with its personal-combat equivalent, resolved by personal combat when the
    fight asks for it (``tables`` given) and otherwise left as a record."""
    ship = state["ships"][attack["target"]]
    place = attack.get("general", "")
    named = who
    if not who:
        n = ship["crew"].get(place, 0)
        if not n:
            ctx.note(f"No crew in the {place.replace('_', ' ')}")
            return
        who = f"{n} crew in the {place.replace('_', ' ')}"
    ship["crew_attacks"].append({"turn": state["turn"], "attack": attack["id"], "location": place,
                                 "who": who, "as": key, "result": ""})
    ctx.note(f"Crew attack on {who}{' (' + reason + ')' if reason else ''}")
    if tables is not None:
        _personal_attack(state, attack, key, named, tables, ctx)


# --- the effects of the specific locations --------------------------------------------

LOWER = {"cargo": "cargo", "controls": "controls", "sensors": "sensors",
         "jump_drive": "jump", "maneuver_drive": "maneuver", "fuel": "fuel"}


#: What a ship lacks when a hit on it is "treated as fuel" (Purification, Fuel Scoops), as the log says it.
MISSING = {"purification": "no purification plant", "fuel_scoops": "no fuel scoops"}


def apply_effect(state: dict, attack: dict, effect: str, tables: Tables, ctx: RuleContext, instead: str = "") -> None:
    """One specific location's effect; ``instead`` names the effect rolled when this one stands in for it."""
    ship = state["ships"][attack["target"]]
    hits = attack["through"]
    name = ship["name"]
    if effect in LOWER:
        field = LOWER[effect]
        before = ship[field]
        ship[field] = max(0, before - hits)
        unit = " tons" if field in ("cargo", "fuel") else ""
        why = f"{MISSING[instead]}: a {effect} hit, " if instead else ""
        ctx.note(f"{name}: {why}{effect.replace('_', ' ')} {lowered(before, ship[field], hits, unit)}")
    elif effect == "computer":
        lower_computer(ship, hits, tables, ctx)
    elif effect == "power_plant":
        before = ship["power_plant"]
        ship["power_plant"] = max(0, before - hits)
        ship["maneuver"] = min(ship["maneuver"], ship["power_plant"])
        ship["jump"] = min(ship["jump"], ship["power_plant"])
        ctx.note(f"{name}: power plant {lowered(before, ship['power_plant'], hits)}; "
                 f"maneuver {ship['maneuver']}, jump {ship['jump']}")
    elif effect in ("fuel_scoops", "purification"):
        has = "fuel_scoops" if effect == "fuel_scoops" else "purification_plant"
        if ship[has]:
            ship[has] = False
            ctx.note(f"{name}: {effect.replace('_', ' ')} destroyed")
        else:
            apply_effect(state, attack, "fuel", tables, ctx, instead=effect)
    elif effect == "crew":
        key = weapon_entry(attack, tables)["crew_attack"]
        _crew_effect(state, attack, key, tables, ctx)
    elif effect in ("fire_control", "weapon", "hangar", "quarters"):
        candidates = _candidates(ship, effect)
        if not candidates:
            ctx.note(f"{name}: {effect.replace('_', ' ')} hit, but there is none to damage")
        elif len(candidates) == 1:
            _hit_one(state, attack, effect, candidates[0], tables, ctx)
        else:
            ctx.request_roll(f"Which {_noun(effect, candidates)} on {name}", f"1d{len(candidates)}", then="pick",
                             context={"attack": attack["id"], "effect": effect})
    else:
        raise IllegalAction(f"unknown damage effect {effect!r} in the location table")


def _noun(effect: str, candidates: list[tuple[str, int]]) -> str:
    tubes = False
    for kind, _ in candidates:
        if kind == "tubes":
            tubes = True
            break
    return {"fire_control": "turret's or tube's fire control" if tubes else "turret's fire control",
            "weapon": "turret or tube" if tubes else "turret", "hangar": "hangar",
            "quarters": "stateroom or berth"}[effect]


def pick_faces(state: dict, request) -> list[str]:
    """What each face of a "which turret / room" roll finds, as the console lists it under the prompt: the
    turret's or tube's id, the hangar's or room's name ("1 T1", "7 low 1"). Worked out only when shown: a
    forecast rolls it hundreds of times and never reads it."""
    attack = next((a for a in state["attacks"] if a["id"] == request.context.get("attack")), None)
    ship = state["ships"].get(attack["target"]) if attack else None
    if ship is None:
        return []
    out = []
    for n, (kind, i) in enumerate(_candidates(ship, request.context.get("effect", "")), 1):
        part = ship[kind][i]
        out.append(f"{n} {part.get('id') or part.get('name') or part.get('berth') or f'{kind} {i + 1}'}")
    return out


def _candidates(ship: dict, effect: str) -> list[tuple[str, int]]:
    """What a hit of this effect may find, in ship order: ("turrets", i), ("tubes", i), ..."""
    if effect == "fire_control":
        return [("turrets", i) for i, t in enumerate(ship["turrets"]) if t["fire_control"]] + \
            [("tubes", i) for i, t in enumerate(ship["tubes"]) if not t["destroyed"] and t.get("fire_control", True)]
    if effect == "weapon":
        return [("turrets", i) for i, t in enumerate(ship["turrets"]) if working(t)] + \
            [("tubes", i) for i, t in enumerate(ship["tubes"]) if not t["destroyed"]]
    if effect == "hangar":
        return [("hangars", i) for i in range(len(ship["hangars"]))]
    return [("quarters", i) for i, r in enumerate(ship["quarters"]) if not r["destroyed"]]


def _hit_one(state: dict, attack: dict, effect: str, found: tuple[str, int], tables: Tables,
            ctx: RuleContext) -> None:
    """The hit finds ``found``, one of ``_candidates`` for the effect."""
    ship = state["ships"][attack["target"]]
    kind, i = found
    part = ship[kind][i]
    hits = attack["through"]
    if kind == "tubes":
        if effect == "fire_control":
            part["fire_control"] = False
            ctx.note(f"{ship['name']} {part['id']}: fire control out (launches at DM -4)")
        else:
            part["destroyed"] = True
            ctx.note(f"{ship['name']} {part['id']} destroyed")
    elif effect == "fire_control":
        part["fire_control"] = False
        ctx.note(f"{ship['name']} {part['id']}: fire control out (gunner fires at DM -4 + Gunnery)")
    elif effect == "weapon":
        part["destroyed"] = min(part["count"], part["destroyed"] + hits)
        ctx.note(f"{ship['name']} {part['id']}: {part['destroyed']} of {part['count']} weapons destroyed")
    elif effect == "hangar":
        part["damaged"] = True
        tons = SMALL_CRAFT_TONS_PER_HIT * hits
        # "each hit will destroy 10 tons of small craft. Small craft not destroyed are disabled": a craft is lost
        # when what is left of the tonnage covers it, the largest first (so the bay's order in the file does not
        # decide it, and a craft too big never shields a smaller one); the rest aboard are disabled
        aboard = [c for c in part["small_craft"] if c["status"] not in ("destroyed", "launched")]
        for craft in sorted(aboard, key=lambda c: -c["tons"]):
            if tons >= craft["tons"]:
                craft["status"] = "destroyed"
                tons -= craft["tons"]
            else:
                craft["status"] = "disabled"
        ctx.note(f"{ship['name']} {part['name']} damaged: " + (", ".join(
            f"{c['name']} {c['status']}" for c in part["small_craft"]) or "no small craft aboard"))
    else:
        part["destroyed"] = True
        ctx.note(f"{ship['name']} {part['berth']} destroyed with its fixtures")
        if part["occupant"]:
            key = weapon_entry(attack, tables)["crew_attack"]
            _crew_effect(state, attack, key, tables, ctx, who=part["occupant"])


def _crew_effect(state: dict, attack: dict, key: str, tables: Tables, ctx: RuleContext, who: str = "") -> None:
    """"Crew- The crew in the general location have been attacked", by the weapon's equivalent."""
    ship = state["ships"][attack["target"]]
    entry = tables.crew_attacks.get(key, {})
    if not key or not entry:
        crew_attack(state, attack, key or "collision", ctx, who=who)
        return
    place = attack.get("general", "")
    if not who and not ship["crew"].get(place, 0):
        ctx.note(f"No crew in the {place.replace('_', ' ')}")
        return
    if entry.get("killed"):
        _kill(state, attack, who, ctx)
    elif entry.get("kill_roll"):
        label = tables.weapons.get(key, {}).get("label", key.replace("_", " "))
        whom = who or f"crew in the {place.replace('_', ' ')}"
        ctx.request_roll(f"{label}: is the {whom} of {ship['name']} killed?", "2D",
                         target=Target(int(entry["kill_roll"])), then="nuclear_crew",
                         context={"attack": attack["id"], "who": who, "key": key})
    else:
        crew_attack(state, attack, key, ctx, who=who, tables=tables)


def _kill(state: dict, attack: dict, who: str, ctx: RuleContext) -> None:
    ship = state["ships"][attack["target"]]
    place = attack.get("general", "")
    counted = False  # a named crewman already counted dead is not counted again
    for person in state.get("people", {}).values():  # the people personal combat has met die with them
        if person.get("ship") == attack["target"] and (person["name"] == who if who else
                                                       person.get("location") == place):
            counted = counted or bool(person.get("counted_dead"))
            person["dead"] = person["counted_dead"] = True
    if who:
        if not counted:  # an occupant on the crew list is one fewer where the list counts him
            _one_fewer(state, attack["target"], who, place, True)
        ctx.note(f"{who} is killed")
        ship["crew_attacks"].append({"turn": state["turn"], "attack": attack["id"], "location": place,
                                     "who": who, "as": "killed", "result": "killed"})
        return
    n = ship["crew"].get(place, 0)
    if place in ship["crew"]:
        ship["crew"][place] = 0
    ship["crew_attacks"].append({"turn": state["turn"], "attack": attack["id"], "location": place,
                                 "who": f"{n} crew in the {place}", "as": "killed", "result": "killed"})
    ctx.note(f"{n} crew in the {place.replace('_', ' ')} are killed")


# --- the rolls of the damage chain ----------------------------------------------------------------

_PERSONAL_THEN = f"{PERSONAL}:"


def _chain_goes_on(state: dict, tables: Tables, ctx: RuleContext) -> None:
    """After a roll of the chain: when this attack asks for nothing more, begin the next attack."""
    if ctx.requests:
        return
    for p in state["pending"]:  # a plain loop: asked after every roll of the chain, often over many rolls
        then = p.get("then", "")
        if then in CHAIN or str(then).startswith(_PERSONAL_THEN):
            return
    next_damage(state, tables, ctx)


def _attack_of(state: dict, result: RollResult) -> tuple[dict, dict]:
    attack = attack_by_id(state, result.request.context["attack"])
    return attack, state["ships"][attack["target"]]


@continuation("general_location")
def on_general_location(state: dict, result: RollResult, tables: Tables, ctx: RuleContext) -> None:
    attack, _ = _attack_of(state, result)
    _at_general(state, attack, tables.general_locations[result.total], tables, ctx)
    _chain_goes_on(state, tables, ctx)


@continuation("specific_location")
def on_specific_location(state: dict, result: RollResult, tables: Tables, ctx: RuleContext) -> None:
    attack, _ = _attack_of(state, result)
    effect = tables.specific_locations[attack["general"]][result.total]
    attack["effect"] = effect
    apply_effect(state, attack, effect, tables, ctx)
    _chain_goes_on(state, tables, ctx)


@continuation("spallation")
def on_spallation(state: dict, result: RollResult, tables: Tables, ctx: RuleContext) -> None:
    attack, _ = _attack_of(state, result)
    if result.success:
        _spall(state, attack, ctx, tables)
    else:
        ctx.note("No spallation")
    _chain_goes_on(state, tables, ctx)


@continuation("radiation")
def on_radiation(state: dict, result: RollResult, tables: Tables, ctx: RuleContext) -> None:
    attack, ship = _attack_of(state, result)
    if result.success:
        _irradiate(state, attack, tables, ctx)
    else:
        ctx.note(f"{ship['name']}'s computer and crew escape the radiation")
    _chain_goes_on(state, tables, ctx)


@continuation("radiation_crew")
def on_radiation_crew(state: dict, result: RollResult, tables: Tables, ctx: RuleContext) -> None:
    attack, _ = _attack_of(state, result)
    attack["radiation_damage"] = result.total
    _chain_goes_on(state, tables, ctx)


@continuation("radiation_days")
def on_radiation_days(state: dict, result: RollResult, tables: Tables, ctx: RuleContext) -> None:
    attack, ship = _attack_of(state, result)
    place = attack["general"]
    # classic-hg-combat.txt, Radiation: "all crew in the general location hit take 1D damage immediately": those
    # still there now; the same hit's spallation (its crew attack
    # answered first) may have killed some since the radiation landed, and the dead are not counted again
    crew = ship["crew"].get(place, 0)
    ship["radiation"].append({"turn": state["turn"], "attack": attack["id"], "location": place,
                              "crew": crew, "damage": attack.get("radiation_damage", 0),
                              "dies_in_days": result.total})
    if not crew:
        ctx.note(f"No crew left in the {place.replace('_', ' ')} to take the radiation")
        _chain_goes_on(state, tables, ctx)
        return
    ctx.note(f"Crew in the {place.replace('_', ' ')} take {attack.get('radiation_damage', 0)} and die in "
             f"{result.total} day{'s' if result.total != 1 else ''} without antiradiation treatment")
    if state.get("crew_combat") == PERSONAL:  # "all crew in the general location hit take 1D damage immediately"
        ctx.call(PERSONAL, "crew_exposure", {
            "ship": attack["target"], "ship_name": ship["name"], "side": ship["side"], "location": place,
            "count": crew, "points": attack.get("radiation_damage", 0),
            "kind": "radiation", "dies_in_days": result.total,
            "roster": state["crew_roster"].get(attack["target"], {}).get(place, []),
            "tag": f"{attack['target']}:radiation:{len(ship['radiation']) - 1}"}, reply="crew_wounded")
    _chain_goes_on(state, tables, ctx)


@continuation("nuclear_crew")
def on_nuclear_crew(state: dict, result: RollResult, tables: Tables, ctx: RuleContext) -> None:
    attack, ship = _attack_of(state, result)
    c = result.request.context
    if result.success:
        _kill(state, attack, c.get("who", ""), ctx)
    else:
        entry = tables.crew_attacks[c["key"]]
        who = c.get("who") or f"crew in the {attack['general']}"
        ship["crew_attacks"].append({"turn": state["turn"], "attack": attack["id"],
                                     "location": attack["general"], "who": who, "as": c["key"],
                                     "result": entry.get("otherwise", "")})
        ctx.note(f"{who}: {entry.get('otherwise', 'survive')}")
        lost = entry.get("attributes_lost", 0)
        if lost and state.get("crew_combat") == PERSONAL:  # the people there lose theirs ("reduced to 0")
            place, named = attack["general"], c.get("who", "")
            ctx.call(PERSONAL, "crew_drained", {
                "ship": attack["target"], "ship_name": ship["name"], "side": ship["side"],
                "location": occupant_place(state, attack["target"], named, place) if named else place,
                "count": ship["crew"].get(place, 0), "attributes": lost, "only": [named] if named else [],
                "roster": state["crew_roster"].get(attack["target"], {}).get(place, []),
                "tag": f"{attack['target']}:crew_attacks:{len(ship['crew_attacks']) - 1}"}, reply="crew_drained")
    _chain_goes_on(state, tables, ctx)


@CATALOGUE.reply("crew_drained")
def on_crew_drained(state: dict, data: dict, tables: Tables, ctx: RuleContext) -> None:
    """One person's attributes taken to 0 by a nuclear missile's crew hit: noted on its record."""
    ship_id, book, index = data["tag"].split(":")
    record = state["ships"][ship_id][book][int(index)]
    name = state["people"][data["person"]]["name"]
    line = f"{name}: {' and '.join(data['lost'])} reduced to 0" if data["lost"] else f"{name}: nothing left to reduce"
    before = record.get("result", "")
    record["result"] = f"{before}; {line}" if before else line
    _chain_goes_on(state, tables, ctx)


@continuation("pick")
def on_pick(state: dict, result: RollResult, tables: Tables, ctx: RuleContext) -> None:
    attack, ship = _attack_of(state, result)
    effect = result.request.context["effect"]
    _hit_one(state, attack, effect, _candidates(ship, effect)[result.total - 1], tables, ctx)
    _chain_goes_on(state, tables, ctx)
