"""Offensive fire, interception and the other things a ship does in the fire steps.

Source: ``classic-hg-combat.txt``: steps 3, 4, 6 and 7; the paragraphs on
offensive fire ("The gunners for each weapon station then roll 2D, adding the
appropriate DM's ... equals or exceeds the TO HIT"), on interception ("any
defensive weapons still in operation and not already used this turn"), the
NOTE on repulsors and nuclear dampers, torpedoes, infinite repeaters,
antimissile missiles, "Fire Control" hits, breaking off, and ramming.

Where the text is silent we decided, as a careful referee would:

- One roll per turret or battery for weapons whose damage is multiplied by the
  weapons fired ("If the weapon is a beam weapon or infinite repeater, multiply
  the damage by the number of weapons in the turret or battery"). Every other
  weapon (missiles, AM missiles) is its own attack: a turret of three missile
  racks launches three missiles, each rolling to hit (or to intercept) on its
  own and each spending one missile.
- Batteries: turrets a ship file puts in the same ``battery`` fire together as
  one attack at one target, with one roll, and the damage of beam weapons and
  repeaters is multiplied by every working weapon in the battery. The battery's
  gunner is the best of its turrets'; if any of its turrets has lost its fire
  control, the whole battery tracks by hand (DM -4 + Gunnery). A battery fires
  only whole: none of its turrets may have been used this turn. In defensive
  fire each turret still intercepts on its own (the text assigns "defensive
  systems" to each attack).
- AM missiles: each missile of a rack turret used for defence is its own
  interception of the chosen attack (the defence table's ``each_weapon``); the
  attack is stopped when any of them succeeds.
- ECM acts against missiles only: the text names it for missiles and exempts
  torpedoes ("contain a fusion drive and onboard computer and are not effected
  by ECM"); it is electronic, against guidance, so no energy weapon, repeater
  or torpedo is affected (the weapons table's ``ecm``).
- A to-hit or to-intercept of ``auto`` succeeds without a roll; ``no`` means the
  weapon cannot fire at that range (or that defence cannot stop that attack).
- A ship whose sensors are shot down to 0 tracks every target by hand, as if
  every turret and tube had lost its fire control (DM -4 + Gunnery, no program
  DMs): the text gives sensor hits no effect, and "Fire Control" is its nearest
  rule for a ship that can no longer track by computer.
- A turret tracking by hand (fire control out, or sensors at 0) fires without the
  computer's TARGET or LAUNCH program: its gunner "loses all computer
  enhancement". For the same reason it cannot fire selectively: choosing the
  general location is the SELECTIVE program's work. Torpedoes still need
  TORPEDO LAUNCH (the torpedo's own computer).
- Weapon and fire-control hits may fall on torpedo tubes (the text counts tubes
  as weaponry); a tube without fire control launches at DM -4 with no program DMs.
- Energy: the weapons a ship fires in one turn (offence and defence) may not
  use more energy points than its power plant gives (High Guard's 1% of the
  hull per plant factor), less the loaded programs' energy. What a turret's
  weapons use when it fires or intercepts is spent for the turn: a weapon the
  damage of step 5 (or a correction) takes away later gives none of it back for
  step 6 or 7, and one given back spends nothing more.
- Field defences (repulsors, nuclear dampers) roll once per eligible attack per
  field, however many projectors the ship carries.
- A ramming attempt rolls 2D against the ramming table; on success each ship
  takes the table's hits as an attack that cannot be intercepted.
"""

from __future__ import annotations

from typing import NamedTuple

from engine.errors import IllegalAction
from engine.rolls import Modifier, RollResult, Target
from engine.ruleset import RuleContext
from engine.tables import kept_for

from . import turn
from .catalogue import continuation
from .ships import SPENT, energy_points, points_text
from .tables import Tables

FIRE_CONTROL_LOST_DM = -4  # "DM -4 + Gunnery skill"


def working(turret: dict) -> int:
    """Weapons left in a turret ("One weapon in a turret is destroyed for each hit")."""
    left = turret["count"] - turret["destroyed"]
    return left if left > 0 else 0  # not max(): asked hundreds of times a simulated fight


def has_program(ship: dict, names: list[str] | tuple[str, ...]) -> bool:
    """Any of ``names`` loaded (none named: no program needed)."""
    if not names:
        return True
    loaded = ship["programs"]
    for n in names:
        if n in loaded:
            return True
    return False


class ProgramFacts(NamedTuple):
    """What a list of loaded programs adds up to by the programs table, in the order they are loaded."""

    energy: int | float  # energy points they use
    to_hit: tuple[tuple[str, int, bool], ...]  # (program, to-hit DM, selective) for each with a DM
    evade: tuple[tuple[str, int, bool], ...]  # (program, evasion DM, ECM) for each with a DM
    intercept: tuple[tuple[str, int], ...]  # (program, interception DM) for each with a DM


_PROGRAM_FACTS: dict[int, tuple] = {}  # ``kept_for`` each programs table


def program_facts(programs: list[str], tables: Tables) -> ProgramFacts:
    """``ProgramFacts`` of a ship's programs, kept for each programs table (read-only) and list of programs:
    every shot, interception and energy check of a fight asks."""
    book = kept_for(_PROGRAM_FACTS, tables.programs)
    key = tuple(programs)
    facts = book.get(key)
    if facts is None:
        facts = book[key] = _program_facts(key, tables.programs)
    return facts


def _program_facts(programs: tuple[str, ...], table: dict) -> ProgramFacts:
    energy = 0
    to_hit, evade, intercept = [], [], []
    for p in programs:
        entry = table.get(p) or {}
        energy += entry.get("energy_points", 0)
        if entry.get("to_hit_dm", 0):
            to_hit.append((p, entry["to_hit_dm"], bool(entry.get("selective"))))
        if entry.get("evade_dm", 0):
            evade.append((p, entry["evade_dm"], bool(entry.get("ecm"))))
        if entry.get("intercept_dm", 0):
            intercept.append((p, entry["intercept_dm"]))
    return ProgramFacts(energy, tuple(to_hit), tuple(evade), tuple(intercept))


def energy_free(ship: dict, tables: Tables) -> int:
    """Energy points not yet spent this turn by weapons and loaded programs: the one figure the fire and defence
    rules, their refusals and the console's Energy line all read."""
    total = energy_points(ship["tonnage"], ship["power_plant"])
    used = program_facts(ship["programs"], tables).energy
    fired = 0
    for t in ship["turrets"]:
        if t["used"]:
            fired += energy_spent(t, tables)
    used += fired
    return total - used


def energy_left_text(free: int | float) -> str:
    """``energy_free`` as a figure, never below 0: a plant hit after the energy was spent leaves the turn over what
    the plant gives now, and nothing is left rather than less than nothing."""
    return points_text(max(free, 0))


def energy_need(turret: dict, tables: Tables) -> int:
    """Energy points the turret's working weapons use to fire or intercept now."""
    return tables.mounts[turret["weapon"]]["energy_points"] * working(turret)


def energy_spent(turret: dict, tables: Tables) -> int:
    """Energy points a used turret spent this turn: what its weapons used when it fired or intercepted, so a
    weapon lost or given back since changes nothing. A used turret with none kept (a state an earlier Flagbridge
    saved) is read as that version read it: by the weapons it has working now."""
    spent = turret.get(SPENT)
    return energy_need(turret, tables) if spent is None else spent


def use_turret(turret: dict, use: str, tables: Tables) -> None:
    """The turret is used this turn (``"offence"`` or ``"defence"``) and spends the energy its working weapons
    use now."""
    turret[SPENT] = energy_need(turret, tables)
    turret["used"] = use


def use_corrected(turret: dict, tables: Tables) -> None:
    """A turret's use corrected by hand: corrected to unused, it has spent nothing; corrected to a use it had
    none of, it spends what its working weapons use now (as ``use_turret``); from one use to the other, what it
    spent stays."""
    if not turret["used"]:
        turret.pop(SPENT, None)
    elif SPENT not in turret:
        turret[SPENT] = energy_need(turret, tables)


def turret_by_id(ship: dict, turret_id: str) -> dict | None:
    for t in ship["turrets"]:
        if t["id"] == turret_id:
            return t
    return None


def group_id(turret: dict) -> str:
    """The id a turret fires under: its battery's ("B2") when it is in one, else its own ("T3")."""
    return f"B{turret['battery']}" if turret.get("battery") else turret["id"]


def firing_groups(ship: dict) -> dict[str, list[dict]]:
    """Lone turrets and batteries, in ship order: what one offensive fire order may name."""
    groups: dict[str, list[dict]] = {}
    for t in ship["turrets"]:
        groups.setdefault(group_id(t), []).append(t)
    return groups


def group_working(group: list[dict]) -> int:
    total = 0
    for t in group:
        total += working(t)
    return total


def battery_gunnery(ship: dict, group: list[dict]) -> tuple[int, bool]:
    """How a turret or battery aims: its best gunner's skill, and whether the computer tracks for it
    (every one of its turrets still has fire control). The fire rule, its odds and the forecast all ask."""
    if len(group) == 1:  # a lone turret, without the loop (asked for every group of every fire order)
        return group[0]["gunner_skill"], tracks_by_computer(ship, group[0]["fire_control"])
    skill, controlled = group[0]["gunner_skill"], True
    for t in group:
        if t["gunner_skill"] > skill:
            skill = t["gunner_skill"]
        if not t["fire_control"]:
            controlled = False
    return skill, tracks_by_computer(ship, controlled)


def roll_cell(numbers: dict, key: str) -> int | str | None:
    """A to-hit or to-intercept entry: a 2D number or "auto"; None when absent or "no"."""
    value = numbers.get(key)
    return None if value is None or value == "no" else value


def to_hit_cell(weapon: dict, rng: str) -> int | str | None:
    return roll_cell(weapon["to_hit"], rng)


def tracks_by_computer(ship: dict, fire_control: bool) -> bool:
    """Fire control and sensors both working; else "the gunner ... must track targets manually"."""
    return fire_control and ship["sensors"] > 0


def turret_problem(ship: dict, turret: dict | None, turret_id: str = "") -> str:
    """Why a turret cannot fire or intercept now ("" when it can)."""
    if turret is None:
        return f"{ship['name']} has no turret {turret_id!r}"
    if turret["used"]:
        return f"{ship['name']} {turret['id']} was already used this turn ({turret['used']})"
    if not working(turret):
        return f"{ship['name']} {turret['id']} has no working weapon"
    return ""


def group_problem(ship: dict, groups: dict[str, list[dict]], gid: str) -> str:
    """Why a lone turret or a battery cannot fire now ("" when it can)."""
    group = groups.get(gid)
    if group is None:
        turret = turret_by_id(ship, gid)
        if turret is not None:
            return f"{ship['name']} {gid} fires with its battery: choose {group_id(turret)}"
        return f"{ship['name']} has no turret or battery {gid!r}"
    if len(group) == 1:
        return turret_problem(ship, group[0], gid)
    for t in group:
        if t["used"]:
            return f"{ship['name']} battery {gid}: {t['id']} was already used this turn ({t['used']})"
    if not group_working(group):
        return f"{ship['name']} battery {gid} has no working weapon"
    return ""


def energy_problem(ship: dict, turrets: list[dict], tables: Tables) -> str:
    """The turrets' weapons together may not use more energy than is left this turn."""
    need = 0
    for t in turrets:
        need += energy_need(t, tables)
    if need and need > energy_free(ship, tables):
        named = "+".join(t["id"] for t in turrets)
        return (f"{ship['name']} {named}: needs {need} energy points, "
                f"{energy_left_text(energy_free(ship, tables))} left this turn")
    return ""


def ammo_problem(ship: dict, needs: dict[str, int]) -> str:
    """Magazine stores ({store: amount}) the chosen weapons would draw on, against what is left."""
    for store, amount in needs.items():
        if store and ship[store] < amount:
            return f"{ship['name']} has {ship[store]} {store.replace('_', ' ')} left, needs {amount}"
    return ""


# --- who may fire, and at whom --------------------------------------------------------------

def fire_step_problem(state: dict) -> str:
    if state["over"]:
        return "the fight is over"
    if state["step"] not in (3, 6):
        return "offensive fire happens in steps 3 and 6"
    return ""


def firer_problem(state: dict, ship_id: str) -> str:
    """Offensive fire from this ship now: its side's step, in the fight, not surprised."""
    ship = state["ships"][ship_id]
    if ship["side"] != turn.firing_side(state):
        return f"{ship['name']} is not on the side firing now"
    if ship["broken_off"]:
        return f"{ship['name']} has left the fight ({ship.get('out') or 'broken off'})"
    if not turn.may_fire_offensively(state, ship_id):
        return f"{ship['name']} is surprised: no offensive fire this turn"
    return ""


def target_problem(state: dict, target_id: str) -> str:
    target = state["ships"][target_id]
    if target["broken_off"]:
        return f"{target['name']} has left the fight ({target.get('out') or 'broken off'})"
    return ""


def shooter(state: dict, args: dict) -> tuple[str, dict | None]:
    """The step's and the firing ship's problem, and the ship when there is none."""
    why = fire_step_problem(state)
    if why or "ship" not in args:
        return why, None
    why = firer_problem(state, args["ship"])
    if why:
        return why, None
    if "target" in args:
        why = target_problem(state, args["target"])
    return why, state["ships"][args["ship"]]


# --- offensive fire -------------------------------------------------------------------------

def weapon_problem(state: dict, ship: dict, weapon_id: str, tables: Tables, by_hand: bool = False) -> str:
    """Why one attack type cannot be fired now: range, program. ``by_hand``: the gunner tracks manually, having
    lost "all computer enhancement" (Fire Control), so no program is asked of the computer."""
    weapon = tables.weapons[weapon_id]
    if to_hit_cell(weapon, state["range"]) is None:
        return f"{weapon['label']} cannot fire at {state['range']} range"
    if not by_hand and not has_program(ship, (weapon["program"],) if weapon["program"] else ()):
        return f"{weapon['label']} needs the program {weapon['program']} loaded"
    return ""


def attack_type(turret: dict, warhead: str, tables: Tables) -> str:
    """The attack type a turret fires with a warhead ("" when it has none such)."""
    fires = tables.mounts[turret["weapon"]]["fires"]
    if len(fires) == 1:
        return fires[0]
    ending = "_" + warhead
    for w in fires:  # a plain loop: asked for every group of every fire order
        if w.endswith(ending):
            return w
    return ""


def _group_fire_problem(state: dict, ship: dict, group: list[dict], warhead: str | None, tables: Tables) -> str:
    """A lone turret or battery firing: a warhead of None means any it could fire (not asked yet)."""
    mount = tables.mounts[group[0]["weapon"]]
    if not mount["fires"]:
        return f"{mount['label']} makes no offensive fire"
    by_hand = not battery_gunnery(ship, group)[1]
    if warhead is None:
        problems = [weapon_problem(state, ship, w, tables, by_hand) or ammo_problem(
            ship, {tables.weapons[w].get("ammo", ""): group_working(group)}) for w in mount["fires"]]
        return "" if "" in problems else problems[0]
    weapon_id = attack_type(group[0], warhead, tables)
    if not weapon_id:
        return f"warhead {warhead!r}: choose one of " + ", ".join(f.split("_")[-1] for f in mount["fires"])
    return weapon_problem(state, ship, weapon_id, tables, by_hand)


def may_fire(state: dict, args: dict, tables: Tables) -> str:
    """Fire turrets and batteries at one target (steps 3 and 6)."""
    why, ship = shooter(state, args)
    if why or ship is None or "turrets" not in args:
        return why
    groups = firing_groups(ship)
    for gid in args["turrets"]:
        why = group_problem(ship, groups, gid) or _group_fire_problem(
            state, ship, groups[gid], args.get("warhead"), tables)
        if why:
            return why
    why = energy_problem(ship, [t for gid in args["turrets"] for t in groups[gid]], tables) or \
        _selective_problem(ship, groups, args, tables)
    if why or "warhead" not in args:
        return why
    needs: dict[str, int] = {}
    for gid in args["turrets"]:
        store = tables.weapons[attack_type(groups[gid][0], args["warhead"], tables)].get("ammo", "")
        needs[store] = needs.get(store, 0) + group_working(groups[gid])
    return ammo_problem(ship, needs)


def _selective_problem(ship: dict, groups: dict[str, list[dict]], args: dict, tables: Tables) -> str:
    """A general location chosen ("If selective fire was used"): a program must allow it, and every turret
    firing must be tracked by the computer (a gunner tracking by hand "loses all computer enhancement")."""
    if not args.get("location"):
        return ""
    if not any(tables.programs.get(p, {}).get("selective") for p in ship["programs"]):
        return "selective fire needs a program that allows it (e.g. SELECTIVE)"
    for gid in args["turrets"]:
        if not battery_gunnery(ship, groups[gid])[1]:
            return (f"{ship['name']} {gid} tracks by hand ({_manual_reason(ship).lower()}): no selective fire, "
                    "its gunner has lost all computer enhancement")
    if args["location"] not in tables.specific_locations:
        return f"no general location {args['location']!r}"
    return ""


def fire(state: dict, args: dict, tables: Tables, ctx: RuleContext) -> None:
    """Each chosen turret or battery spends its ammunition and energy and rolls to hit.

    Beam weapons and repeaters make one roll for all the weapons of the turret or
    battery; every other weapon (a missile rack) makes one roll per weapon.
    """
    ship_id, target_id, location = args["ship"], args["target"], args["location"]
    ship, target = state["ships"][ship_id], state["ships"][target_id]
    groups = firing_groups(ship)
    for gid in args["turrets"]:
        group = groups[gid]
        weapon_id = attack_type(group[0], args["warhead"], tables)
        weapon = tables.weapons[weapon_id]
        n = group_working(group)
        _take_ammo(ship, weapon, n)
        for t in group:
            use_turret(t, "offence", tables)
        ship["fired"] = True
        skill, tracked = battery_gunnery(ship, group)
        mods = fire_modifiers(state, ship, skill, tracked, target, tables, weapon, selective=bool(location))
        shots = [(f"x{n}", n)] if weapon["per_weapon"] else \
            [("x1" + (f" ({k} of {n})" if n > 1 else ""), 1) for k in range(1, n + 1)]
        for words, count in shots:
            roll_to_hit(state, tables, ctx, f"To hit: {ship['name']} {gid} {weapon['label']} {words} at "
                        f"{target['name']}", mods, weapon,
                        {"ship": ship_id, "mount": gid, "weapon": weapon_id, "target": target_id,
                         "count": count, "location": location})


def roll_to_hit(state: dict, tables: Tables, ctx: RuleContext, purpose: str, mods: list[Modifier], weapon: dict,
                context: dict) -> None:
    """Ask for the to-hit roll, or hit at once when the table says ``auto``."""
    cell = to_hit_cell(weapon, state["range"])
    if cell == "auto":
        ctx.note(f"{purpose}: hits automatically")
        hit(state, context, tables, ctx)
    else:
        ctx.request_roll(purpose, "2D", mods, Target(int(cell)), then="to_hit", context=context)


def _take_ammo(ship: dict, weapon: dict, amount: int) -> None:
    store = weapon.get("ammo", "")
    if store:
        ship[store] -= amount


# --- torpedoes ------------------------------------------------------------------------------

def ready_tube(state: dict, ship: dict) -> dict | None:
    for t in ship["tubes"]:
        if not t["destroyed"] and t["ready_turn"] <= state["turn"]:
            return t
    return None


def may_launch_torpedo(state: dict, args: dict, tables: Tables) -> str:
    """A tube "can launch 1 (one) torpedo every other turn"; needs TORPEDO LAUNCH; no energy."""
    why, ship = shooter(state, args)
    if why or ship is None:
        return why
    if ready_tube(state, ship) is None:
        if not ship["tubes"]:
            return f"{ship['name']} has no torpedo tubes"
        left = [t["ready_turn"] for t in ship["tubes"] if not t["destroyed"]]
        return f"{ship['name']}: no tube ready" + (f" until turn {min(left)}" if left else " (all destroyed)")
    why = ammo_problem(ship, {"torpedoes": 1})
    if why or "warhead" not in args:
        return why
    weapon_id = f"torpedo_{args['warhead']}"
    if weapon_id not in tables.weapons:
        return f"no torpedo warhead {args['warhead']!r} (he or nuclear)"
    weapon = tables.weapons[weapon_id]
    if not has_program(ship, [weapon["program"]]):
        return f"torpedoes need the program {weapon['program']} loaded"
    if to_hit_cell(weapon, state["range"]) is None:
        return f"{weapon['label']} cannot fire at {state['range']} range"
    return ""


def launch_torpedo(state: dict, args: dict, tables: Tables, ctx: RuleContext) -> None:
    ship_id, target_id = args["ship"], args["target"]
    ship, target = state["ships"][ship_id], state["ships"][target_id]
    weapon_id = f"torpedo_{args['warhead']}"
    weapon = tables.weapons[weapon_id]
    tube = ready_tube(state, ship)
    _take_ammo(ship, weapon, 1)
    tube["ready_turn"] = state["turn"] + int(tables.torpedo_tube["reload_turns"])
    ship["fired"] = True
    mods = fire_modifiers(state, ship, 0, tracks_by_computer(ship, tube.get("fire_control", True)), target,
                          tables, weapon)
    roll_to_hit(state, tables, ctx, f"To hit: {ship['name']} {tube['id']} {weapon['label']} at {target['name']}",
                mods, weapon, {"ship": ship_id, "mount": tube["id"], "weapon": weapon_id, "target": target_id,
                               "count": 1, "location": ""})


def evasion_running(state: dict, target: dict) -> bool:
    """Surprise (step 1): a naval vessel is spared the worst of it by having "defensive programs running", so a
    surprised ship that is not naval has none running: no evasion this turn."""
    return not (state.get("surprised") == target["side"] and not target["naval"])


def fire_modifiers(state: dict, ship: dict, skill: int, tracked: bool, target: dict, tables: Tables,
                   weapon: dict, selective: bool = False) -> list[Modifier]:
    """DMs for expertise and programs, less the target's evasion (none from a surprised ship that is not naval).

    Without computer tracking (fire control or sensors lost) only the gunner's
    skill counts, at DM -4. An evasion program marked ``ecm`` only counts
    against weapons that ECM affects (missiles; torpedoes "are not effected by ECM").
    """
    mods: list[Modifier] = []
    if skill:
        mods.append(Modifier("Gunnery", skill))
    if not tracked:
        mods.append(Modifier(_manual_reason(ship), FIRE_CONTROL_LOST_DM))
    else:
        for p, dm, is_selective in program_facts(ship["programs"], tables).to_hit:
            if selective or not is_selective:  # a selective program's DM is the price of choosing the location
                mods.append(Modifier(p, dm))
    if not evasion_running(state, target):
        return mods
    affected = weapon.get("ecm", True)  # an ``ecm`` evasion counts only against weapons ECM affects
    for p, dm, ecm in program_facts(target["programs"], tables).evade:
        if affected or not ecm:
            mods.append(Modifier(f"{target['name']} {p}", dm))
    return mods


def _manual_reason(ship: dict) -> str:
    return "Sensors out" if ship["sensors"] <= 0 else "Fire control out"


@continuation("to_hit")
def resolve_to_hit(state: dict, result: RollResult, tables: Tables, ctx: RuleContext) -> None:
    if not result.success:
        ctx.note("Miss")
        return
    hit(state, result.request.context, tables, ctx)


def hit(state: dict, c: dict, tables: Tables, ctx: RuleContext) -> None:
    """A successful shot becomes an attack, times the weapons fired for beam weapons and repeaters."""
    weapon = tables.weapons[c["weapon"]]
    rated = int(weapon["damage"]) * (c["count"] if weapon["per_weapon"] else 1)
    attack = new_attack(state, c["ship"], c["mount"], c["weapon"], c["target"], rated, c["location"])
    ctx.note(f"Hit: attack {attack['id']}, {rated} damage unless intercepted")


def new_attack(state: dict, by: str, mount: str, weapon: str, target: str, damage: int, location: str = "",
               interceptable: bool = True) -> dict:
    n = state["next_attack"]
    state["next_attack"] = n + 1
    attack = _attack_record(f"A{n}", by, mount, weapon, target, damage, location, interceptable, state["step"])
    state["attacks"].append(attack)
    return attack


def _attack_record(attack_id: str, by: str, mount: str, weapon: str, target: str, damage: int, location: str,
                   interceptable: bool, step: int) -> dict:
    return {"id": attack_id, "by": by, "mount": mount, "weapon": weapon, "target": target,
            "damage": damage, "reduced": 0, "location": location, "status": "hit",
            "interceptable": interceptable, "defended_by": [], "step": step}


def attack_fault(state: dict) -> str:
    """Why the attacks of a resumed [state] cannot be played on ("" when they can): each holds every field an
    attack is made with, each of the kind it is made with (interception, damage and the checklist read them)."""
    model = _attack_record("", "", "", "", "", 0, "", True, 0)
    for i, attack in enumerate(state["attacks"]):
        if not isinstance(attack, dict):
            return f"attacks[{i}]: expected a table, got {attack!r}"
        for key, made in model.items():
            if key not in attack:
                return f"attacks[{i}]: missing {key}"
            if type(attack[key]) is not type(made):
                return f"attacks[{i}].{key}: expected {type(made).__name__}, got {attack[key]!r}"
    return ""


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
        if roll_cell(entry["to_intercept"], attack["weapon"]) is not None and has_program(ship, entry["programs"]):
            out.append(d)
    return out


def defence_step_problem(state: dict, coming: list[dict] | None = None) -> str:
    """``coming``: ``incoming(state)`` when the caller has it already."""
    if state["over"]:
        return "the fight is over"
    if state["step"] not in (4, 7):
        return "defensive fire happens in steps 4 and 7"
    if not (incoming(state) if coming is None else coming):
        return "no incoming attack to intercept"
    return ""


def chosen_defence(ship: dict, turret: dict, attack: dict, defence: str, tables: Tables,
                   choices: list[str] | None = None) -> str:
    """The defence named, or the first that applies and has ammunition for the turret (``choices``:
    ``defences_for`` when the caller has it already)."""
    if defence:
        return defence
    if choices is None:
        choices = defences_for(ship, turret, attack, tables)
    stocked = [d for d in choices if not tables.defences[d].get("ammo")
               or ship[tables.defences[d]["ammo"]] >= working(turret)]
    return (stocked or choices or [""])[0]


def may_defend(state: dict, args: dict, tables: Tables) -> str:
    """Assign a still-unused defensive system to one successful attack (steps 4 and 7)."""
    coming = incoming(state)  # read once: the step's check and the attack named both need it
    why = defence_step_problem(state, coming)
    if why or "ship" not in args:
        return why
    ship_id = args["ship"]
    ship = state["ships"][ship_id]
    if ship["side"] != turn.defending_side(state):
        return f"{ship['name']} is not on the side defending now"
    if ship["broken_off"]:  # classic-hg-combat.txt, defensive fire: "any defensive weapons still in operation"
        return f"{ship['name']} has left the fight ({ship.get('out') or 'broken off'})"
    if not turn.may_defend(state, ship_id):
        return f"{ship['name']} is surprised and not a naval vessel: no defensive fire"
    if "turret" not in args:
        return ""
    t = turret_by_id(ship, args["turret"])
    why = turret_problem(ship, t, args["turret"]) or energy_problem(ship, [t], tables)
    if why or "attack" not in args:
        return why
    attack = None
    for a in coming:
        if a["id"] == args["attack"]:
            attack = a
            break
    if attack is None:
        return f"no incoming attack {args['attack']!r} to intercept"
    choices = defences_for(ship, t, attack, tables)
    if not choices:
        weapon = tables.weapons[attack["weapon"]]["label"]
        return f"{ship['name']} {t['id']} cannot intercept a {weapon} (wrong weapon, or its program is not loaded)"
    defence = chosen_defence(ship, t, attack, args.get("defence", ""), tables, choices)
    if defence not in choices:
        return f"defence {defence!r}: choose one of {', '.join(choices)}"
    return ammo_problem(ship, {tables.defences[defence].get("ammo", ""): working(t)})


def defend(state: dict, args: dict, tables: Tables, ctx: RuleContext) -> None:
    """The turret intercepts: one roll, or one per weapon for a defence marked ``each_weapon`` (AM missiles)."""
    ship_id = args["ship"]
    ship = state["ships"][ship_id]
    t = turret_by_id(ship, args["turret"])
    attack = next(a for a in incoming(state) if a["id"] == args["attack"])
    defence_id = chosen_defence(ship, t, attack, args["defence"], tables)
    entry = tables.defences[defence_id]
    _take_ammo(ship, {"ammo": entry.get("ammo", "")}, working(t))
    use_turret(t, "defence", tables)
    attack["defended_by"].append(f"{ship_id}/{t['id']}")
    mods = intercept_modifiers(ship, t, attack, tables)
    n = working(t) if entry.get("each_weapon") else 1
    for k in range(1, n + 1):
        purpose = f"Intercept {attack['id']}: {ship['name']} {t['id']} {entry['label']}" + \
            (f" ({k} of {n})" if n > 1 else "")
        roll_to_intercept(state, tables, ctx, purpose, mods, attack, defence_id)


def roll_to_intercept(state: dict, tables: Tables, ctx: RuleContext, purpose: str, mods: list[Modifier],
                      attack: dict, defence_id: str) -> None:
    """Ask for the interception roll, or intercept at once when the table says ``auto``."""
    cell = roll_cell(tables.defences[defence_id]["to_intercept"], attack["weapon"])
    if cell == "auto":
        ctx.note(f"{purpose}: intercepts automatically")
        intercepted(attack, tables.defences[defence_id], ctx)
    else:
        ctx.request_roll(purpose, "2D", mods, Target(int(cell)), then="intercept",
                         context={"attack": attack["id"], "defence": defence_id})


def intercept_modifiers(ship: dict, turret: dict | None, attack: dict, tables: Tables) -> list[Modifier]:
    mods: list[Modifier] = []
    if turret is not None and turret["gunner_skill"]:
        mods.append(Modifier("Gunnery", turret["gunner_skill"]))
    if turret is not None and not tracks_by_computer(ship, turret["fire_control"]):
        mods.append(Modifier(_manual_reason(ship), FIRE_CONTROL_LOST_DM))
    else:
        for p, dm in program_facts(ship["programs"], tables).intercept:
            mods.append(Modifier(p, dm))
    evade = tables.weapons[attack["weapon"]].get("evade_program", "")
    if evade:  # torpedoes behave as if running AUTO EVADE
        dm = tables.programs.get(evade, {}).get("evade_dm", 0)
        if dm:
            mods.append(Modifier(f"{tables.weapons[attack['weapon']]['label']} {evade}", dm))
    return mods


@continuation("intercept")
def resolve_intercept(state: dict, result: RollResult, tables: Tables, ctx: RuleContext) -> None:
    c = result.request.context
    attack = attack_by_id(state, c["attack"])
    if not result.success:
        ctx.note(f"{attack['id']} not intercepted")
        return
    intercepted(attack, tables.defences[c["defence"]], ctx)


def intercepted(attack: dict, entry: dict, ctx: RuleContext) -> None:
    if attack["status"] == "intercepted":
        ctx.note(f"{attack['id']} was already intercepted")
    elif entry["effect"] == "destroy":
        attack["status"] = "intercepted"
        ctx.note(f"{attack['id']} intercepted")
    else:
        attack["reduced"] += int(entry["reduce_by"])
        ctx.note(f"{attack['id']} weakened by {entry['reduce_by']} ({entry['label']})")


def attack_by_id(state: dict, attack_id: str) -> dict:
    """The turn's attack of that id. Attacks are numbered in the order they are made (``new_attack``), so the
    one asked for is first looked for where its number puts it: a fleet's turn holds hundreds, and every roll
    of a damage chain asks. Any other list (a hand edit) is searched whole."""
    attacks = state["attacks"]
    if attacks and attack_id[1:].isdecimal():
        first = attacks[0]["id"]
        if first[1:].isdecimal():
            i = int(attack_id[1:]) - int(first[1:])
            if 0 <= i < len(attacks) and attacks[i]["id"] == attack_id:
                return attacks[i]
    for a in attacks:
        if a["id"] == attack_id:
            return a
    raise IllegalAction(f"no attack {attack_id!r}")


def request_field_rolls(state: dict, tables: Tables, ctx: RuleContext) -> None:
    """Repulsors and dampers act on "every incoming missile or nuclear attack", used or not."""
    for attack in incoming(state):
        target = state["ships"][attack["target"]]
        for field_id, count_field in (("repulsor", "repulsors"), ("nuclear_damper", "nuclear_dampers")):
            entry = tables.defences.get(field_id)
            if not entry or not target[count_field] or roll_cell(entry["to_intercept"], attack["weapon"]) is None:
                continue
            if turn.is_surprised(state, attack["target"]) and not target["naval"]:
                continue
            roll_to_intercept(state, tables, ctx, f"{entry['label']}: {target['name']} against {attack['id']}",
                              intercept_modifiers(target, None, attack, tables), attack, field_id)


# --- break off and ram ------------------------------------------------------------------------

def may_break_off(state: dict, args: dict, tables: Tables) -> str:
    """"If the engaged ships are at long range, the ship with the higher maneuver may break off
    action in lieu of his offensive fire (step 3 or 6)."""
    why = fire_step_problem(state)
    if why:
        return why
    if state["range"] != "long":
        return f"breaking off needs long range (now {state['range']})"
    why, ship = shooter(state, args)
    if why or ship is None:
        return why
    if ship["fired"]:
        return f"{ship['name']} already fired this step; breaking off replaces offensive fire"
    best = fastest_enemy(state, ship)
    if ship["maneuver"] <= best:
        return f"{ship['name']} (maneuver {ship['maneuver']}) is not faster than the enemy (maneuver {best})"
    return ""


def fastest_enemy(state: dict, ship: dict) -> int:
    enemy = turn.other(state, ship["side"])
    return max((state["ships"][s]["maneuver"] for s in turn.ships_of(state, enemy)), default=-1)


def break_off(state: dict, args: dict, tables: Tables, ctx: RuleContext) -> None:
    turn.leave_fight(state, args["ship"], "broken off", ctx)


def may_ram(state: dict, args: dict, tables: Tables) -> str:
    """"A ship at close range may attempt to ram an enemy vessel during his offensive fire
    phase, and in addition to weapons fire." The roll itself is a shipped-default table."""
    why = fire_step_problem(state)
    if why:
        return why
    if tables.ramming.get("close_only", True) and state["range"] != "close":
        return f"ramming needs close range (now {state['range']})"
    why, ship = shooter(state, args)
    if why or ship is None:
        return why
    if ship.get("rammed"):
        return f"{ship['name']} already tried to ram this turn"
    return ""


def ram(state: dict, args: dict, tables: Tables, ctx: RuleContext) -> None:
    ship_id, target_id = args["ship"], args["target"]
    ship, target = state["ships"][ship_id], state["ships"][target_id]
    rules = tables.ramming
    ship["rammed"] = True
    diff = ship["maneuver"] - target["maneuver"]
    dm = int(rules.get("dm_per_maneuver", 0)) * diff
    mods = [Modifier("Maneuver difference", dm)] if dm else []
    ctx.request_roll(f"Ram: {ship['name']} at {target['name']}", "2D", mods, Target(int(rules["to_ram"])),
                     then="ram", context={"ship": ship_id, "target": target_id})


@continuation("ram")
def resolve_ram(state: dict, result: RollResult, tables: Tables, ctx: RuleContext) -> None:
    c = result.request.context
    if not result.success:
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
