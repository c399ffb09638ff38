"""Offensive fire, interception and the other things a ship does in the fire steps.

Source: ``classic-hg-combat.txt``: steps 3, 4, 6 and 7; the paragraphs on
offensive fire ("The gunners for each weapon station then roll 2D, adding the
appropriate DM's ... equals or exceeds the TO HIT"), on interception ("any
defensive weapons still in operation and not already used this turn"), the
NOTE on repulsors and nuclear dampers, torpedoes, infinite repeaters,
antimissile missiles, "Fire Control" hits, breaking off, and ramming.

Referee decisions where the text is silent:

- One roll per turret: a turret fires at one target, or makes one interception.
- Energy: the weapons a ship fires in one turn (offence and defence) may not
  use more energy points than its power plant gives (High Guard's 1% of the
  hull per plant factor), less the loaded programs' energy.
- Field defences (repulsors, nuclear dampers) roll once per eligible attack per
  field, however many projectors the ship carries.
- A ramming attempt rolls 2D against the ramming table; on success each ship
  takes the table's hits as an attack that cannot be intercepted.
"""

from __future__ import annotations

from typing import Any

from engine.errors import IllegalAction
from engine.rolls import Modifier, Target
from engine.ruleset import RuleContext

from . import turn
from .ships import energy_points
from .tables import Tables

FIRE_CONTROL_LOST_DM = -4  # "DM -4 + Gunnery skill"


def _ship(state: dict, ship_id: str) -> dict:
    if ship_id not in state["ships"]:
        raise IllegalAction(f"no ship {ship_id!r}")
    return state["ships"][ship_id]


def _turret(ship: dict, turret_id: str) -> dict:
    for t in ship["turrets"]:
        if t["id"] == turret_id:
            return t
    raise IllegalAction(f"{ship['name']} has no turret {turret_id!r}")


def working(turret: dict) -> int:
    """Weapons left in a turret ("One weapon in a turret is destroyed for each hit")."""
    return max(0, turret["count"] - turret["destroyed"])


def has_program(ship: dict, names: list[str] | tuple[str, ...]) -> bool:
    return not names or any(n in ship["programs"] for n in names)


def energy_free(ship: dict, tables: Tables) -> int:
    """Energy points not yet spent this turn by weapons and loaded programs."""
    total = energy_points(ship["tonnage"], ship["power_plant"])
    used = sum(tables.programs.get(p, {}).get("energy_points", 0) for p in ship["programs"])
    used += sum(tables.mounts[t["weapon"]]["energy_points"] * working(t) for t in ship["turrets"] if t["used"])
    return total - used


def _spend_energy(ship: dict, turret: dict, tables: Tables) -> None:
    need = tables.mounts[turret["weapon"]]["energy_points"] * working(turret)
    if need and need > energy_free(ship, tables):
        raise IllegalAction(f"{ship['name']} {turret['id']}: needs {need} energy points, "
                            f"{energy_free(ship, tables)} left this turn")


def fire_modifiers(state: dict, ship: dict, turret: dict | None, target: dict, tables: Tables,
                   weapon: dict, selective: bool = False) -> list[Modifier]:
    """DMs for expertise and programs, less the target's evasion; a lost fire control keeps only skill.

    An evasion program marked ``ecm`` only counts against weapons that ECM affects
    (torpedoes "are not effected by ECM").
    """
    mods: list[Modifier] = []
    skill = turret["gunner_skill"] if turret else 0
    if skill:
        mods.append(Modifier("Gunnery", skill))
    if turret is not None and not turret["fire_control"]:
        mods.append(Modifier("Fire control out", FIRE_CONTROL_LOST_DM))
    else:
        for p in ship["programs"]:
            entry = tables.programs.get(p, {})
            if entry.get("selective") and not selective:
                continue  # a selective program's DM is the price of choosing the location
            dm = entry.get("to_hit_dm", 0)
            if dm:
                mods.append(Modifier(p, dm))
    for p in target["programs"]:
        entry = tables.programs.get(p, {})
        dm = entry.get("evade_dm", 0)
        if entry.get("ecm") and not weapon.get("ecm", True):
            continue
        if dm:
            mods.append(Modifier(f"{target['name']} {p}", dm))
    return mods


def _check_can_fire(state: dict, ship_id: str) -> dict:
    ship = _ship(state, ship_id)
    if state["step"] not in (3, 6):
        raise IllegalAction("offensive fire happens in steps 3 and 6")
    if ship["side"] != turn.firing_side(state):
        raise IllegalAction(f"{ship['name']} is not on the side firing now")
    if ship["broken_off"]:
        raise IllegalAction(f"{ship['name']} has broken off")
    if not turn.may_fire_offensively(state, ship_id):
        raise IllegalAction(f"{ship['name']} is surprised: no offensive fire this turn")
    return ship


def _check_target(state: dict, ship: dict, target_id: str) -> dict:
    target = _ship(state, target_id)
    if target["side"] == ship["side"]:
        raise IllegalAction(f"{target['name']} is on {ship['name']}'s own side")
    if target["broken_off"]:
        raise IllegalAction(f"{target['name']} has broken off")
    return target


def fire(state: dict, args: dict, tables: Tables, ctx: RuleContext) -> None:
    """Fire one or more turrets of a ship at one target (steps 3 and 6)."""
    ship_id = args.get("ship", "")
    ship = _check_can_fire(state, ship_id)
    target_id = args.get("target", "")
    target = _check_target(state, ship, target_id)
    turrets = args.get("turrets") or []
    if isinstance(turrets, str):
        turrets = [turrets]
    if not turrets:
        raise IllegalAction("fire: choose at least one turret")
    warhead = args.get("warhead", "he")
    location = args.get("location", "")
    if location:
        if not any(tables.programs.get(p, {}).get("selective") for p in ship["programs"]):
            raise IllegalAction("selective fire needs a program that allows it (e.g. SELECTIVE)")
        if location not in tables.specific_locations:
            raise IllegalAction(f"no general location {location!r}")
    for tid in turrets:
        t = _turret(ship, tid)
        if t["used"]:
            raise IllegalAction(f"{ship['name']} {tid} was already used this turn ({t['used']})")
        if not working(t):
            raise IllegalAction(f"{ship['name']} {tid} has no working weapon")
        weapon_id = _attack_type(t, warhead, tables)
        weapon = tables.weapons[weapon_id]
        number = weapon["to_hit"].get(state["range"])
        if number is None:
            raise IllegalAction(f"{weapon['label']} cannot fire at {state['range']} range")
        if not has_program(ship, [weapon["program"]] if weapon["program"] else []):
            raise IllegalAction(f"{weapon['label']} needs the program {weapon['program']} loaded")
        _take_ammo(ship, weapon, working(t))
        _spend_energy(ship, t, tables)
        t["used"] = "offence"
        ship["fired"] = True
        mods = fire_modifiers(state, ship, t, target, tables, weapon, selective=bool(location))
        ctx.request_roll(
            f"To hit: {ship['name']} {tid} {weapon['label']} x{working(t)} at {target['name']}",
            "2D", mods, Target(int(number)), then="to_hit",
            context={"ship": ship_id, "mount": tid, "weapon": weapon_id, "target": target_id,
                     "count": working(t), "location": location},
        )


def _attack_type(turret: dict, warhead: str, tables: Tables) -> str:
    fires = tables.mounts[turret["weapon"]]["fires"]
    if not fires:
        raise IllegalAction(f"{tables.mounts[turret['weapon']]['label']} makes no offensive fire")
    if len(fires) == 1:
        return fires[0]
    for w in fires:
        if w.endswith("_" + warhead):
            return w
    raise IllegalAction(f"warhead {warhead!r}: choose one of " + ", ".join(f.split("_")[-1] for f in fires))


def _take_ammo(ship: dict, weapon: dict, amount: int) -> None:
    store = weapon.get("ammo", "")
    if not store:
        return
    if ship[store] < amount:
        raise IllegalAction(f"{ship['name']} has {ship[store]} {store.replace('_', ' ')} left, needs {amount}")
    ship[store] -= amount


def launch_torpedo(state: dict, args: dict, tables: Tables, ctx: RuleContext) -> None:
    """A tube "can launch 1 (one) torpedo every other turn"; needs TORPEDO LAUNCH; no energy."""
    ship_id = args.get("ship", "")
    ship = _check_can_fire(state, ship_id)
    target_id = args.get("target", "")
    target = _check_target(state, ship, target_id)
    warhead = args.get("warhead", "he")
    weapon_id = f"torpedo_{warhead}"
    if weapon_id not in tables.weapons:
        raise IllegalAction(f"no torpedo warhead {warhead!r} (he or nuclear)")
    weapon = tables.weapons[weapon_id]
    tube = next((t for t in ship["tubes"] if not t["destroyed"] and t["ready_turn"] <= state["turn"]), None)
    if tube is None:
        if not ship["tubes"]:
            raise IllegalAction(f"{ship['name']} has no torpedo tubes")
        soonest = min(t["ready_turn"] for t in ship["tubes"] if not t["destroyed"]) if any(
            not t["destroyed"] for t in ship["tubes"]) else None
        raise IllegalAction(f"{ship['name']}: no tube ready" + (f" until turn {soonest}" if soonest else ""))
    if not has_program(ship, [weapon["program"]]):
        raise IllegalAction(f"torpedoes need the program {weapon['program']} loaded")
    number = weapon["to_hit"].get(state["range"])
    if number is None:
        raise IllegalAction(f"{weapon['label']} cannot fire at {state['range']} range")
    _take_ammo(ship, weapon, 1)
    tube["ready_turn"] = state["turn"] + int(tables.torpedo_tube["reload_turns"])
    ship["fired"] = True
    mods = fire_modifiers(state, ship, None, target, tables, weapon)
    ctx.request_roll(f"To hit: {ship['name']} {tube['id']} {weapon['label']} at {target['name']}", "2D", mods,
                     Target(int(number)), then="to_hit",
                     context={"ship": ship_id, "mount": tube["id"], "weapon": weapon_id, "target": target_id,
                              "count": 1, "location": ""})


def resolve_to_hit(state: dict, success: bool, c: dict[str, Any], tables: Tables, ctx: RuleContext) -> None:
    if not success:
        ctx.note("Miss")
        return
    weapon = tables.weapons[c["weapon"]]
    rated = int(weapon["damage"]) * (c["count"] if weapon["per_weapon"] else 1)
    attack = new_attack(state, c["ship"], c["mount"], c["weapon"], c["target"], rated, c["location"])
    ctx.note(f"Hit: attack {attack['id']}, {rated} damage unless intercepted")


def new_attack(state: dict, by: str, mount: str, weapon: str, target: str, damage: int, location: str = "",
               interceptable: bool = True) -> dict:
    n = state["next_attack"]
    state["next_attack"] = n + 1
    attack = {"id": f"A{n}", "by": by, "mount": mount, "weapon": weapon, "target": target,
              "damage": damage, "reduced": 0, "location": location, "status": "hit",
              "interceptable": interceptable, "defended_by": []}
    state["attacks"].append(attack)
    return attack


# --- defensive fire ----------------------------------------------------------------------

def incoming(state: dict) -> list[dict]:
    """Attacks the defending side may still try to intercept this step."""
    side = turn.defending_side(state)
    return [a for a in state["attacks"] if a["status"] == "hit" and a["interceptable"]
            and state["ships"][a["target"]]["side"] == side]


def defences_for(ship: dict, turret: dict, attack: dict, tables: Tables) -> list[str]:
    """Defence ids this turret could use against this attack."""
    out = []
    for d in tables.mounts[turret["weapon"]]["defends"]:
        entry = tables.defences[d]
        if attack["weapon"] in entry["to_intercept"] and has_program(ship, entry["programs"]):
            out.append(d)
    return out


def defend(state: dict, args: dict, tables: Tables, ctx: RuleContext) -> None:
    """Assign a still-unused defensive system to one successful attack (steps 4 and 7)."""
    if state["step"] not in (4, 7):
        raise IllegalAction("defensive fire happens in steps 4 and 7")
    ship_id = args.get("ship", "")
    ship = _ship(state, ship_id)
    if ship["side"] != turn.defending_side(state):
        raise IllegalAction(f"{ship['name']} is not on the side defending now")
    if not turn.may_defend(state, ship_id):
        raise IllegalAction(f"{ship['name']} is surprised and not a naval vessel: no defensive fire")
    t = _turret(ship, args.get("turret", ""))
    if t["used"]:
        raise IllegalAction(f"{ship['name']} {t['id']} was already used this turn ({t['used']})")
    if not working(t):
        raise IllegalAction(f"{ship['name']} {t['id']} has no working weapon")
    attack = next((a for a in incoming(state) if a["id"] == args.get("attack")), None)
    if attack is None:
        raise IllegalAction(f"no incoming attack {args.get('attack')!r} to intercept")
    choices = defences_for(ship, t, attack, tables)
    if not choices:
        weapon = tables.weapons[attack["weapon"]]["label"]
        raise IllegalAction(f"{ship['name']} {t['id']} cannot intercept a {weapon} "
                            "(wrong weapon, or its program is not loaded)")
    stocked = [d for d in choices if not tables.defences[d].get("ammo")
               or ship[tables.defences[d]["ammo"]] >= working(t)]
    defence_id = args.get("defence") or (stocked or choices)[0]
    if defence_id not in choices:
        raise IllegalAction(f"defence {defence_id!r}: choose one of {', '.join(choices)}")
    entry = tables.defences[defence_id]
    if entry.get("ammo"):
        _take_ammo(ship, {"ammo": entry["ammo"]}, working(t))
    _spend_energy(ship, t, tables)
    t["used"] = "defence"
    attack["defended_by"].append(f"{ship_id}/{t['id']}")
    mods = intercept_modifiers(ship, t, attack, tables)
    ctx.request_roll(f"Intercept {attack['id']}: {ship['name']} {t['id']} {entry['label']}", "2D", mods,
                     Target(int(entry["to_intercept"][attack["weapon"]])), then="intercept",
                     context={"attack": attack["id"], "defence": defence_id})


def intercept_modifiers(ship: dict, turret: dict | None, attack: dict, tables: Tables) -> list[Modifier]:
    mods: list[Modifier] = []
    if turret is not None and turret["gunner_skill"]:
        mods.append(Modifier("Gunnery", turret["gunner_skill"]))
    if turret is not None and not turret["fire_control"]:
        mods.append(Modifier("Fire control out", FIRE_CONTROL_LOST_DM))
    else:
        for p in ship["programs"]:
            dm = tables.programs.get(p, {}).get("intercept_dm", 0)
            if dm:
                mods.append(Modifier(p, dm))
    evade = tables.weapons[attack["weapon"]].get("evade_program", "")
    if evade:  # torpedoes behave as if running AUTO EVADE
        dm = tables.programs.get(evade, {}).get("evade_dm", 0)
        if dm:
            mods.append(Modifier(f"{tables.weapons[attack['weapon']]['label']} {evade}", dm))
    return mods


def resolve_intercept(state: dict, success: bool, c: dict, tables: Tables, ctx: RuleContext) -> None:
    attack = attack_by_id(state, c["attack"])
    if not success:
        ctx.note(f"{attack['id']} not intercepted")
        return
    entry = tables.defences[c["defence"]]
    if entry["effect"] == "destroy":
        attack["status"] = "intercepted"
        ctx.note(f"{attack['id']} intercepted")
    else:
        attack["reduced"] += int(entry["reduce_by"])
        ctx.note(f"{attack['id']} weakened by {entry['reduce_by']} ({entry['label']})")


def attack_by_id(state: dict, attack_id: str) -> dict:
    for a in state["attacks"]:
        if a["id"] == attack_id:
            return a
    raise IllegalAction(f"no attack {attack_id!r}")


def request_field_rolls(state: dict, tables: Tables, ctx: RuleContext) -> None:
    """Repulsors and dampers act on "every incoming missile or nuclear attack", used or not."""
    for attack in incoming(state):
        target = state["ships"][attack["target"]]
        for field_id, count_field in (("repulsor", "repulsors"), ("nuclear_damper", "nuclear_dampers")):
            entry = tables.defences.get(field_id)
            if not entry or not target[count_field] or attack["weapon"] not in entry["to_intercept"]:
                continue
            if turn.is_surprised(state, attack["target"]) and not target["naval"]:
                continue
            ctx.request_roll(f"{entry['label']}: {target['name']} against {attack['id']}", "2D",
                             intercept_modifiers(target, None, attack, tables),
                             Target(int(entry["to_intercept"][attack["weapon"]])), then="intercept",
                             context={"attack": attack["id"], "defence": field_id})


# --- break off and ram ------------------------------------------------------------------------

def break_off(state: dict, args: dict, ctx: RuleContext) -> None:
    """"If the engaged ships are at long range, the ship with the higher maneuver may break off
    action in lieu of his offensive fire (step 3 or 6)."""
    ship_id = args.get("ship", "")
    ship = _check_can_fire(state, ship_id)
    if state["range"] != "long":
        raise IllegalAction(f"breaking off needs long range (now {state['range']})")
    if ship["fired"]:
        raise IllegalAction(f"{ship['name']} already fired this step; breaking off replaces offensive fire")
    enemy = turn.other(state, ship["side"])
    best = max((state["ships"][s]["maneuver"] for s in turn.ships_of(state, enemy)), default=-1)
    if ship["maneuver"] <= best:
        raise IllegalAction(f"{ship['name']} (maneuver {ship['maneuver']}) is not faster than the enemy "
                            f"(maneuver {best})")
    turn.leave_fight(state, ship_id, "broken off", ctx)


def ram(state: dict, args: dict, tables: Tables, ctx: RuleContext) -> None:
    """"A ship at close range may attempt to ram an enemy vessel during his offensive fire
    phase, and in addition to weapons fire." The roll itself is a shipped-default table."""
    ship_id = args.get("ship", "")
    ship = _check_can_fire(state, ship_id)
    target_id = args.get("target", "")
    target = _check_target(state, ship, target_id)
    rules = tables.ramming
    if rules.get("close_only", True) and state["range"] != "close":
        raise IllegalAction(f"ramming needs close range (now {state['range']})")
    if ship.get("rammed"):
        raise IllegalAction(f"{ship['name']} already tried to ram this turn")
    ship["rammed"] = True
    diff = ship["maneuver"] - target["maneuver"]
    dm = int(rules.get("dm_per_maneuver", 0)) * diff
    mods = [Modifier("Maneuver difference", dm)] if dm else []
    ctx.request_roll(f"Ram: {ship['name']} at {target['name']}", "2D", mods, Target(int(rules["to_ram"])),
                     then="ram", context={"ship": ship_id, "target": target_id})


def resolve_ram(state: dict, success: bool, c: dict, tables: Tables, ctx: RuleContext) -> None:
    if not success:
        ctx.note("The ram misses")
        return
    per100 = tables.ramming.get("hits_per_100_tons", 1)
    least = int(tables.ramming.get("minimum_hits", 1))
    a, b = state["ships"][c["ship"]], state["ships"][c["target"]]
    to_target = max(least, int(a["tonnage"] // 100 * per100))
    to_rammer = max(least, int(b["tonnage"] // 100 * per100))
    new_attack(state, c["ship"], "ram", "ram", c["target"], to_target, interceptable=False)
    new_attack(state, c["target"], "ram", "ram", c["ship"], to_rammer, interceptable=False)
    ctx.note(f"Rammed: {b['name']} takes {to_target} hits, {a['name']} takes {to_rammer}")
