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
  computer model", once "For each defense screen that applies".

Where the text is silent we decided:

- Meson guns: "To Hit roll is modified by the to-hit number" is read as the
  to-hit number printed beside the meson gun on the ship's data (battery field
  ``to_hit_number``), added to the roll as a DM. Other weapons ignore it.
- A defence "applies" when the target has it at factor 1 or more; a ship
  with no configuration factor (0) gives meson guns no configuration roll.
- Penetration uses the firer's computer model (the text says "You Computer"):
  no gunner skill, no agility, no tactics points.
- Tactics points spent in a fire action raise the computer "for one shot": the
  first battery named in that action.
- A statted gunner's skill (or, for a spinal mount, agility) is used when it is
  higher than what it replaces.
- Pinpoint: the firer names ``aim`` before rolling (a system of the damage
  tables, or ``critical:<system>`` from the critical table); with the margin
  the text asks for, the aimed system takes the battery's first damage result,
  or the aimed critical shuts its system down. Without the margin, ``aim`` is
  ignored and the log says so.
"""

from __future__ import annotations

from engine.errors import IllegalAction
from engine.rolls import Modifier, RollResult, Target
from engine.ruleset import RuleContext

from . import damage, turn
from .sensors import LOCKED, sensor_state, spend_tactics
from .ships import ucp
from .tables import Tables, penetration_dm

TO_HIT = 11  # "11+ on 2d6"
SPINAL_TO_HIT = 7  # "Target numebr is Routine (7+), not difficult"
PENETRATE = 11  # "Difficult (11+)"
PICK_SYSTEM, PICK_CRITICAL = 2, 4  # "at least 2 more than needed", "4 more than needed"


def battery_label(b: dict, tables: Tables) -> str:
    kind = "spinal " if b["spinal"] else ""
    return f"{b['id']} {kind}{tables.weapons[b['weapon']]['label'].lower()}-{ucp(b['factor'])}"


def can_fire_at_band(b: dict, band: str, tables: Tables) -> bool:
    return bool(band) and tables.weapons[b["weapon"]]["range_dm"][band] != "no"


def ready_batteries(state: dict, ship: dict, band: str, tables: Tables) -> list[dict]:
    """Batteries that may fire now: bearing, gunnery action unused, weapon reaches the band."""
    return [b for b in ship["batteries"] if b["bearing"] and not b["used"] and can_fire_at_band(b, band, tables)
            and "weapons" not in ship["shut_down"]]


def to_hit_modifiers(ship: dict, b: dict, target: dict, band: str, tables: Tables) -> list[Modifier]:
    weapon = tables.weapons[b["weapon"]]
    if b["spinal"]:
        base = Modifier("Agility", ship["agility"])
    else:
        base = Modifier("Computer", ship["computer"])
    if b["gunner_skill"] > base.value:
        base = Modifier("Gunner skill", b["gunner_skill"])
    mods = [base]
    rdm = weapon["range_dm"][band]
    if rdm:
        mods.append(Modifier(f"Range ({band})", rdm))
    if weapon["meson"] and b["to_hit_number"]:
        mods.append(Modifier("Meson to-hit number", b["to_hit_number"]))
    if target["defence_dm"]:
        mods.append(Modifier(f"{target['name']} Def DM", -target["defence_dm"]))
    return mods


def fire(state: dict, args: dict, tables: Tables, ctx: RuleContext) -> None:
    """State the target, choose batteries, then each battery rolls in turn (steps 1-3)."""
    if state["step"] != 2:
        raise IllegalAction("batteries fire in step 2, Fire")
    ship_id, target_id = args.get("ship", ""), args.get("target", "")
    ship, target = state["ships"].get(ship_id), state["ships"].get(target_id)
    if ship is None or target is None:
        raise IllegalAction(f"no ship {(ship_id if ship is None else target_id)!r}")
    if target["side"] == ship["side"]:
        raise IllegalAction(f"{target['name']} is on {ship['name']}'s own side")
    if sensor_state(state, ship["side"], target_id) != LOCKED:
        raise IllegalAction(f"no lock, no fire: {state['side_names'][ship['side']]} has {target['name']} "
                            f"{sensor_state(state, ship['side'], target_id)}")
    if turn.sight_blocked(state, ship_id, target_id):
        raise IllegalAction(f"line of sight from {ship['name']} to {target['name']} is blocked: no shot")
    band = turn.band(state, ship_id, target_id)
    if not band:
        raise IllegalAction(f"{target['name']} is beyond Extreme range")
    chosen = args.get("batteries") or []
    if isinstance(chosen, str):
        chosen = [c.strip() for c in chosen.split(",") if c.strip()]
    if not chosen:
        raise IllegalAction("fire: choose at least one battery")
    if len(set(chosen)) != len(chosen):
        raise IllegalAction("fire: each battery fires once")
    by_id = {b["id"]: b for b in ship["batteries"]}
    for bid in chosen:
        b = by_id.get(bid)
        if b is None:
            raise IllegalAction(f"{ship['name']} has no battery {bid!r}")
        if b["used"]:
            raise IllegalAction(f"{ship['name']} {bid} has already used its gunnery action ({b['used']})")
        if not b["bearing"]:
            raise IllegalAction(f"{ship['name']} {bid} is not bearing")
        if not can_fire_at_band(b, band, tables):
            raise IllegalAction(f"{tables.weapons[b['weapon']]['label']} cannot fire at {band} range")
    if "weapons" in ship["shut_down"]:
        raise IllegalAction(f"{ship['name']}'s weapons are shut down by a critical hit")
    aim = args.get("aim", "") or ""
    tactics = spend_tactics(state, ship, args)
    for i, bid in enumerate(chosen):
        b = by_id[bid]
        b["used"] = "fire"
        mods = to_hit_modifiers(ship, b, target, band, tables) + (tactics if i == 0 else [])
        number = SPINAL_TO_HIT if b["spinal"] else TO_HIT
        ctx.request_roll(f"To hit: {ship['name']} {battery_label(b, tables)} at {target['name']}", "2D", mods,
                         Target(number), then="to_hit",
                         context={"ship": ship_id, "target": target_id, "battery": bid, "weapon": b["weapon"],
                                  "factor": b["factor"], "spinal": b["spinal"], "band": band, "aim": aim})


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
    ctx.note(f"Hit (made by {result.margin})" + (f": the firer may pick the {pick}" if pick else ""))
    target = state["ships"][c["target"]]
    c["defences"] = [d for d in tables.weapons[c["weapon"]]["defences"] if target["defences"][d] > 0]
    _next_defence(state, c, tables, ctx)


def _next_defence(state: dict, c: dict, tables: Tables, ctx: RuleContext) -> None:
    if not c["defences"]:
        damage.start(state, c, tables, ctx)
        return
    d, rest = c["defences"][0], c["defences"][1:]
    ship, target = state["ships"][c["ship"]], state["ships"][c["target"]]
    weapon = tables.weapons[c["weapon"]]
    factor = target["defences"][d]
    mods = [Modifier("Computer", ship["computer"])]
    dm = penetration_dm(tables, d, factor, c["factor"])
    if dm:
        mods.append(Modifier(f"Table ({ucp(c['factor'])} vs {d.replace('_', ' ')}-{factor})", dm))
    extra = weapon["penetration_dm"].get(d, 0)
    if extra:
        mods.append(Modifier(f"{weapon['label']} vs {d.replace('_', ' ')}", extra))
    if target["computer"]:
        mods.append(Modifier(f"{target['name']} computer", -target["computer"]))
    ctx.request_roll(f"Penetrate {d.replace('_', ' ')}-{factor}: {ship['name']} {c['battery']} at {target['name']}",
                     "2D", mods, Target(PENETRATE), then="penetrate", context={**c, "defences": rest})


def resolve_penetrate(state: dict, result: RollResult, tables: Tables, ctx: RuleContext) -> None:
    if not result.success:
        ctx.note("Stopped by the defence")
        return
    _next_defence(state, dict(result.request.context), tables, ctx)
