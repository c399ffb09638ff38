"""Fire battery by battery: to hit, then each defence's penetration roll.

Source: ``megatraveller-sensors-fire.txt``, "Actually Shooting Stuff" to
"Penetration":

- "You must have a lock to fire"; "You cannot fire more than you have batteries
  bearing"; "Resolve one battery at a time" (to hit, penetrate, damage,
  criticals, next battery);
- to hit: "11+ on 2d6 + Your Computer + Range Mod - Target's Def DM" with the
  range table (laser 0/0/-1/-1, missile 0/0/+1/+1, meson 0/0/-2/-2, plasma,
  fusion and tractors not at Far or Extreme);
- "If something blocks the line of sight, you can't shoot";
- at Visual range "roll at least 2 more than needed, you get to pick which
  system type is hit. If you roll 4 more than needed, you may pick a critical";
- spinal mounts: "Routine (7+), not difficult" and "use agility instead of
  computer"; a statted head gunner's "weapon skill in place of the computer";
- penetration: "Difficult (11+) on 2d6 + You Computer + Table Modifier - Their
  computer model", once "For each defense screen that applies";
- "Meson Guns have to penetrate the Meson Screen and have to penentrate the
  ships configuration";
- tactics points "increase your computer for one shot".

The numbers each roll needs (11+, 7+, 11+) are levels of the difficulties table
(its ``[fire]`` section), so a house table can change them.

Where the text is silent we decided:

- Meson guns: "To Hit roll is modified by the to-hit number" is read as a DM
  of the gun's to-hit number: the one printed on the ship's data when the ship
  file gives it (battery field ``to_hit_number``), otherwise the gun's own UCP
  factor (the text's reason, "a huge (up to 1/2 km) ball of death", grows with
  the gun). Other weapons have no to-hit number.
- A defence "applies" when the target has it at factor 1 or more. Every hull has
  a configuration: a ship file that gives none is configuration 5 (``ships``).
  Screens shut down by a critical give no roll (``systems``); the log says why
  no roll stands where one would have.
- "Your Computer" in the to-hit roll and "You Computer" in the penetration roll
  are the same computer number, so a statted head gunner's skill stands in for
  it in both, when higher. A spinal mount aims with agility instead of the
  computer, so its gunner does not replace the agility: on a spinal the
  gunner's skill stands in for the computer in the penetration rolls only.
- Tactics points spent in a fire action raise the computer "for one shot": the
  first battery named in that action, its to-hit roll and each of its
  penetration rolls (they add that same computer). On a spinal mount the
  points raise the agility the to-hit roll uses in the computer's place.
- A shut-down computer counts 0 on both sides of a penetration roll (``systems``).
- Batteries named in one fire action resolve in the order named.
- Pinpoint: the firer names ``aim`` before rolling (a system of the damage
  tables, or ``critical:<system>`` from the critical table); with the margin
  the text asks for, the aimed system takes the battery's first damage result,
  or the aimed critical is the first of the criticals due (``damage``). A roll
  made by 4 is made by "at least 2", so both picks are the firer's: beside a
  system ``aim`` he may name ``aim_critical`` too. Without the margin, an aim
  is ignored and the log says so. Aims are asked only at Visual range, where a
  pick can happen; an aim at another range, or naming nothing of the tables,
  is refused.
"""

from __future__ import annotations

from engine.actions import Action, Choice, Param
from engine.rolls import Modifier, RollResult, Target
from engine.ruleset import RuleContext

from . import damage, ranges, systems, tactics
from .catalogue import (CATALOGUE, SHIP_PARAM, TARGET_PARAM, battery, battery_label, why_no_battery,
                        why_not_acting)
from .sensors import LOCKED, sensor_state, side_holds_any
from .ships import ucp
from .tables import SYSTEMS, Tables, critical_distribution, fire_number, penetration_dm

PICK_SYSTEM, PICK_CRITICAL = damage.PICK_SYSTEM, damage.PICK_CRITICAL


def can_fire_at_band(b: dict, band: str, tables: Tables) -> bool:
    return bool(band) and tables.weapons[b["weapon"]]["range_dm"][band] != "no"


def computer_number(ship: dict, gunner_skill: int) -> Modifier:
    """"Your Computer", or the head gunner's "weapon skill in place of the computer number" when higher."""
    if gunner_skill > systems.computer(ship):
        return Modifier("Gunner skill", gunner_skill)
    return Modifier("Computer", systems.computer(ship))


def to_hit_modifiers(ship: dict, b: dict, target: dict, band: str, tables: Tables) -> list[Modifier]:
    weapon = tables.weapons[b["weapon"]]
    if b["spinal"]:
        base = Modifier("Agility", systems.agility(ship))  # "use agility instead of computer"
    else:
        base = computer_number(ship, b["gunner_skill"])
    mods = [base]
    rdm = weapon["range_dm"][band]
    if rdm:
        mods.append(Modifier(f"Range ({band})", rdm))
    if weapon["meson"]:
        if b["to_hit_number"]:
            mods.append(Modifier("Meson to-hit number", b["to_hit_number"]))
        else:
            mods.append(Modifier(f"Meson to-hit number (factor {ucp(b['factor'])})", b["factor"]))
    if target["defence_dm"]:
        mods.append(Modifier(f"{target['name']} Def DM", -target["defence_dm"]))
    return mods


# --- when a ship may fire, and what it asks --------------------------------------------------

def _why_not_firing(state: dict, args: dict) -> str:
    return why_not_acting(state, args, 2, "batteries fire in step 2, Fire", "weapons")


def _why_idle(ship: dict, b: dict) -> str:
    """Why a battery cannot fire this round whatever the target: its gunnery action spent, or not bearing."""
    if b["used"]:
        return f"{ship['name']} {b['id']} has already used its gunnery action ({b['used']})"
    if not b["bearing"]:
        return f"{ship['name']} {b['id']} is not bearing"
    return ""


def batteries_ready_now(state: dict, ship_id: str) -> list[str]:
    """The ship's batteries that may still fire now, before a target is named (the lock, the line of sight and
    the band are the target's): none outside step 2 or while its weapons are shut down (the checklist lists
    these)."""
    if _why_not_firing(state, {"ship": ship_id}):
        return []
    ship = state["ships"][ship_id]
    return [b["id"] for b in ship["batteries"] if not _why_idle(ship, b)]


def may_fire(state: dict, args: dict, tables: Tables) -> str:
    """"You must have a lock to fire", a line of sight, a band the weapon reaches, batteries bearing and unused."""
    why = _why_not_firing(state, args)
    if why or "ship" not in args:
        return why
    ship = state["ships"][args["ship"]]
    side = state["side_names"][ship["side"]]
    if not any(not _why_idle(ship, b) for b in ship["batteries"]):
        return f"{ship['name']} has no battery bearing with its gunnery action unused"
    if not side_holds_any(state, args["ship"], LOCKED):
        return f"no lock, no fire: {side} has locked no enemy ship"
    if "target" not in args:
        return ""
    target = state["ships"][args["target"]]
    now = sensor_state(state, ship["side"], args["target"])
    if now != LOCKED:
        return f"no lock, no fire: {side} has {target['name']} {now}"
    if ranges.sight_blocked(state, args["ship"], args["target"]):
        return f"line of sight from {ship['name']} to {target['name']} is blocked: no shot"
    band = ranges.band(state, args["ship"], args["target"])
    if not band:
        return f"{target['name']} is beyond Extreme range"
    for bid in args.get("batteries", ()):
        why = why_no_battery(ship, bid)
        if why:
            return why
        b = battery(ship, bid)
        why = _why_idle(ship, b)
        if why:
            return why
        if not can_fire_at_band(b, band, tables):
            return f"{tables.weapons[b['weapon']]['label']} cannot fire at {band} range"
    aim = args.get("aim", "")
    if aim:
        if band != "visual":
            return f"a pinpoint aim needs Visual range ({target['name']} is at {band} range)"
        if aim not in aims(tables):
            return (f"pinpoint aim {aim!r}: not a system of the damage tables nor critical:<system> "
                    "of the critical table")
    second = args.get("aim_critical", "")
    if second:
        if not aim or aim.startswith("critical:"):
            return ("a second pinpoint pick, the critical, goes with a system aim "
                    "(to pick only a critical, name it as the aim)")
        if not second.startswith("critical:") or second not in aims(tables):
            return f"pinpoint critical {second!r}: not a critical of the critical table (critical:<system>)"
    return tactics.may_spend(state, ship, args)


def _battery_choices(state: dict, args: dict, tables: Tables) -> list[Choice]:
    return [Choice(b["id"], battery_label(b, tables)) for b in state["ships"][args["ship"]]["batteries"]]


def aims(tables: Tables) -> list[str]:
    """What a pinpoint shot may name: a system type of the damage tables, or ``critical:<system>``."""
    return ([s for s in SYSTEMS if s not in ("none", "critical")]
            + [f"critical:{c}" for c in systems.shut_down_names(tables)])


def _critical_due_words(state: dict, args: dict, tables: Tables) -> str:
    """How a critical pick reads for the chosen batteries: among the criticals due, or that none is due (said
    before the roll, as the log would say it after)."""
    ship, target = state["ships"][args["ship"]], state["ships"][args["target"]]
    chosen = [battery(ship, bid) for bid in args.get("batteries", ()) if not why_no_battery(ship, bid)]
    if chosen and not any(damage.criticals_due(b["factor"], target["tonnage"], tables) for b in chosen):
        return (f"but no critical is due: factor {'/'.join(ucp(b['factor']) for b in chosen)} against "
                f"{target['name']}'s distribution {critical_distribution(tables, target['tonnage'])}")
    return "among the criticals due"


def _critical_choice(aim: str, due: str) -> Choice:
    return Choice(aim, f"{damage.aim_words(aim)} (made by {PICK_CRITICAL}, {due})")


def _aim_choices(state: dict, args: dict, tables: Tables) -> list[Choice]:
    """A system or a critical to pinpoint, asked only at Visual range (the only band where a pick can happen)."""
    if ranges.band(state, args["ship"], args["target"]) != "visual":
        return []
    due = _critical_due_words(state, args, tables)
    return [Choice("", "no pinpoint aim")] + [
        _critical_choice(a, due) if a.startswith("critical:") else Choice(a, f"{a} (made by {PICK_SYSTEM})")
        for a in aims(tables)]


def _aim_critical_choices(state: dict, args: dict, tables: Tables) -> list[Choice]:
    """The critical to pick beside a system aim ("4 more than needed" is also "at least 2 more"): asked only
    after a system was aimed at, at Visual range."""
    aim = args.get("aim", "")
    if not aim or aim.startswith("critical:") or ranges.band(state, args["ship"], args["target"]) != "visual":
        return []
    due = _critical_due_words(state, args, tables)
    return [Choice("", "no critical picked")] + [
        _critical_choice(a, due) for a in aims(tables) if a.startswith("critical:")]


def _aim_words(state: dict, args: dict, tables: Tables, aim: str) -> str:
    """The aim as the log names it (``Param.words``): ``damage.aim_words``."""
    return damage.aim_words(aim)


# --- fire, battery by battery ----------------------------------------------------------------

def fire(state: dict, args: dict, tables: Tables, ctx: RuleContext) -> None:
    """State the target, choose batteries, then each battery rolls in turn (steps 1-3).

    The to-hit rolls are asked in the order named; each battery's penetration,
    damage and critical rolls come before the next battery's to-hit roll (a
    roll's follow-ups are answered first), so batteries resolve one at a time.
    """
    ship_id, target_id = args["ship"], args["target"]
    ship, target = state["ships"][ship_id], state["ships"][target_id]
    band = ranges.band(state, ship_id, target_id)
    bonus = tactics.spend(state, ship, args["tactics"], args["pool"])  # "for one shot": the first battery named
    for i, bid in enumerate(args["batteries"]):
        b = battery(ship, bid)
        b["used"] = "fire"
        shot = bonus if i == 0 else []
        mods = to_hit_modifiers(ship, b, target, band, tables) + shot
        number = fire_number(tables, "spinal_to_hit" if b["spinal"] else "to_hit")
        context = {"ship": ship_id, "target": target_id, "battery": bid, "weapon": b["weapon"],
                   "factor": b["factor"], "spinal": b["spinal"], "band": band, "aim": args["aim"]}
        if shot:  # only then, so a log written before tactics reached penetration replays where none were spent
            context["tactics"] = {"source": shot[0].source, "value": shot[0].value}
        if args["aim_critical"]:  # only then, as tactics: the rolls of a fight without it read as before
            context["aim_critical"] = args["aim_critical"]
        ctx.request_roll(f"To hit: {ship['name']} {battery_label(b, tables)} at {target['name']}", "2D", mods,
                         Target(number), then="to_hit", context=context)


@CATALOGUE.continuation("to_hit")
def resolve_to_hit(state: dict, result: RollResult, tables: Tables, ctx: RuleContext) -> None:
    c = dict(result.request.context)
    if not result.success:
        ctx.note("Miss")
        return
    pick = ""
    if c["band"] == "visual":
        if result.margin >= PICK_CRITICAL:
            pick = "critical"
        elif result.margin >= PICK_SYSTEM:
            pick = "system"
    c["pick"] = pick
    made = f"made by {result.margin}" if result.margin else "made exactly"
    target = state["ships"][c["target"]]
    offer = f": the firer may pick the {pick}" if pick else ""
    if pick == "critical":  # made by 4 is made by 2 as well: both picks (line 55)
        offer = ": the firer may pick the system and the critical"
        if not damage.criticals_due(c["factor"], target["tonnage"], tables):
            offer = ": the firer may pick the system (no critical is due)"  # line 100: none to pick among
    if pick and not c.get("aim") and not c.get("aim_critical"):  # a pick is named before the roll (module notes)
        offer = ": enough for a pinpoint pick, but no aim was named before the roll, so the damage is rolled"
    ctx.note(f"Hit ({made})" + offer)
    c["defences"] = []
    for d in tables.weapons[c["weapon"]]["defences"]:
        if systems.defence(target, d) > 0:
            c["defences"].append(d)
        elif target["defences"][d] > 0:  # fitted, but a critical shut it down: say why no roll stands here
            ctx.note(f"No penetration roll against {d.replace('_', ' ')}-{target['defences'][d]}: "
                     f"{systems.why_off(target, 'screens')}")
    _next_defence(state, c, tables, ctx)


def _next_defence(state: dict, c: dict, tables: Tables, ctx: RuleContext) -> None:
    if not c["defences"]:
        damage.start(state, c, tables, ctx)
        return
    d, rest = c["defences"][0], c["defences"][1:]
    ship, target = state["ships"][c["ship"]], state["ships"][c["target"]]
    weapon = tables.weapons[c["weapon"]]
    factor = systems.defence(target, d)
    mods = [computer_number(ship, battery(ship, c["battery"])["gunner_skill"])]
    if "tactics" in c:
        mods.append(Modifier.from_plain(c["tactics"]))
    dm = penetration_dm(tables, d, factor, c["factor"])
    if dm:
        mods.append(Modifier(f"Table ({ucp(c['factor'])} vs {d.replace('_', ' ')}-{factor})", dm))
    extra = weapon["penetration_dm"].get(d, 0)
    if extra:
        mods.append(Modifier(f"{weapon['label']} vs {d.replace('_', ' ')}", extra))
    if systems.computer(target):
        mods.append(Modifier(f"{target['name']} computer", -systems.computer(target)))
    ctx.request_roll(f"Penetrate {d.replace('_', ' ')}-{factor}: {ship['name']} {c['battery']} at {target['name']}",
                     "2D", mods, Target(fire_number(tables, "penetration")), then="penetrate",
                     context={**c, "defences": rest})


@CATALOGUE.continuation("penetrate")
def resolve_penetrate(state: dict, result: RollResult, tables: Tables, ctx: RuleContext) -> None:
    if not result.success:
        ctx.note("Stopped by the defence")
        return
    _next_defence(state, dict(result.request.context), tables, ctx)


CATALOGUE.add(Action("fire", "Fire batteries", fire, key="f", may=may_fire, params=(
    SHIP_PARAM, TARGET_PARAM,
    Param("batteries", "Batteries", "multi", options=_battery_choices),
    Param("aim", "Pinpoint aim", "choice", options=_aim_choices, optional=True, default="", words=_aim_words),
    Param("aim_critical", "Pinpoint critical", "choice", options=_aim_critical_choices, optional=True, default="",
          words=_aim_words),
) + tactics.TACTICS_PARAMS))
