"""Sensor states per side and target, and the sensor actions that improve them.

Source: ``megatraveller-sensors-fire.txt``, "States of Detection in MT HG"
to "It's seldom worth it", and the tactics pools line:

- states: undetected, detected, located (scanned), locked; "sensor status is
  shared across a side. So, if D1 locks M4, D2-D6 can all fire on M4";
- "Anything within 100 spaces is pretty much detected just by looking with
  sensors of near range (=planetary) or better";
- "A ship gets 1 free sensor action each round", "Gunnery actions can be used
  for extra sensor actions";
- locate: "Roll 2d6+Your Computer - (squares range) for the best difficulty
  listed that you still have sensors for", PassObjScan or ActObjScan, with the
  outcome tiers (fumble / fail by 1 / made by 0 to 1 / made by 2+ / made by 4+);
- lock: "A second action", "2d6+YourComputer - (range in squares)", PassObjPin
  or ActObjPin, an uncertain task: "Yours succeeding gives you a lock, no matter
  what. If one of the two succeeds, you get power and tonnage ... If both
  succeed, you get type code";
- a PC officer "can use their Sensor Ops skill in place of the Computer model";
- tactics points spent "BEFORE ROLLING to increase your skill or computer".

Where the text is silent we decided:

- Failed by exactly 2 (and not a natural 2): nothing is located, as a fumble
  (the text lists "failed by >2" as the fumble and "Fail by 1" as a partial
  success, and names no outcome for 2). The log says "failed by 2" rather than
  "fumble".
- A located target's signature class decides which tier finds it: large
  (strong/large), medium (moderate/medium), small (weak/small), stealthy (only
  "made by 4+: any target").
- The Sensor Ops skill is used when it is higher than the computer model (a
  referee would let the officer choose, and nobody chooses the lower).
- Tactics points raise both rolls of the uncertain lock task (they raise the
  computer or skill for the task, and both rolls use it).
- The referee's roll is only made after the player's; a referee-only success
  reveals power and tonnage but gives no lock.
"""

from __future__ import annotations

from engine.errors import IllegalAction
from engine.rolls import Modifier, RollResult, Target
from engine.ruleset import RuleContext
from engine.state import knowledge, set_knowledge

from . import turn
from .tables import BANDS, Tables

UNDETECTED, DETECTED, LOCATED, LOCKED = "undetected", "detected", "located", "locked"
STATES = (UNDETECTED, DETECTED, LOCATED, LOCKED)
REVEALED = ("", "power and tonnage", "type code")
SIGNATURE_TIER = {"large": 0, "medium": 1, "small": 2, "stealthy": 3}
TASK_NAMES = {"pass_obj_scan": "PassObjScan", "act_obj_scan": "ActObjScan",
              "pass_obj_pin": "PassObjPin", "act_obj_pin": "ActObjPin"}


# --- what a side knows ---------------------------------------------------------------

def seen(state: dict, side: str, target: str) -> dict:
    return knowledge(state, side, target, {"state": UNDETECTED, "revealed": ""})


def sensor_state(state: dict, side: str, target: str) -> str:
    return seen(state, side, target)["state"]


def _set(state: dict, side: str, target: str, new_state: str | None = None, revealed: str | None = None) -> None:
    entry = dict(seen(state, side, target))
    if new_state is not None:
        entry["state"] = new_state
    if revealed is not None and REVEALED.index(revealed) > REVEALED.index(entry["revealed"]):
        entry["revealed"] = revealed
    set_knowledge(state, side, target, entry)


def reaches_near(ship: dict) -> bool:
    """Sensors "of near range (=planetary) or better": any sensor listed at Near, Far or Extreme."""
    return any(b in ("near", "far", "extreme") for reach in ship["sensors"].values() for b in reach)


def refresh_detection(state: dict, ctx: RuleContext | None = None) -> None:
    """Undetected targets within 100 squares of a ship with Near-or-better sensors become detected."""
    for side in state["side_order"]:
        watchers = [sid for sid, s in state["ships"].items() if s["side"] == side and reaches_near(s)]
        for tid, target in state["ships"].items():
            if target["side"] == side or sensor_state(state, side, tid) != UNDETECTED:
                continue
            if any(turn.squares(state, w, tid) <= turn.DETECTION_LIMIT for w in watchers):
                _set(state, side, tid, DETECTED)
                if ctx is not None:
                    ctx.note(f"{state['side_names'][side]} detects {target['name']}")


def best_difficulty(ship: dict, task: str, band: str, tables: Tables) -> str:
    """The easiest difficulty among the task's sensors that reach ``band`` ("" when none does)."""
    if not band:
        return ""
    reach = BANDS.index(band)
    usable = [lvl for b, lvl in ship["sensors"].get(task, {}).items() if BANDS.index(b) >= reach]
    return min(usable, key=lambda lvl: tables.difficulties[lvl], default="")


# --- actions and tactics points ------------------------------------------------------

def free_actions(ship: dict) -> list[str]:
    """What a ship may spend on a sensor action now: the free one, then unused batteries."""
    out = [] if ship["free_sensor_used"] else ["free"]
    return out + [b["id"] for b in ship["batteries"] if not b["used"]]


def spend_action(ship: dict, spend: str, ctx: RuleContext) -> None:
    spend = spend or "free"
    if spend == "free":
        if ship["free_sensor_used"]:
            raise IllegalAction(f"{ship['name']} has used its free sensor action this round; "
                                "spend a battery's gunnery action instead")
        ship["free_sensor_used"] = True
        return
    battery = next((b for b in ship["batteries"] if b["id"] == spend), None)
    if battery is None:
        raise IllegalAction(f"{ship['name']} has no battery {spend!r}")
    if battery["used"]:
        raise IllegalAction(f"{ship['name']} {spend} has already used its gunnery action ({battery['used']})")
    battery["used"] = "sensors"
    ctx.note(f"{ship['name']} {spend} spends its gunnery action on sensors")


def pool_of(state: dict, ship: dict, pool: str) -> int:
    return ship["tactics"] if pool == "ship" else state["fleet_tactics"].get(ship["side"], 0)


def spend_tactics(state: dict, ship: dict, args: dict) -> list[Modifier]:
    """Tactics points spent before the roll: deducted from the pool, added as a named DM."""
    try:
        points = int(args.get("tactics", 0) or 0)
    except (TypeError, ValueError):
        raise IllegalAction(f"tactics: expected a whole number, got {args.get('tactics')!r}") from None
    if points == 0:
        return []
    pool = args.get("pool", "ship") or "ship"
    if pool not in ("ship", "fleet"):
        raise IllegalAction(f"pool: expected ship or fleet, got {pool!r}")
    have = pool_of(state, ship, pool)
    if points < 0 or points > have:
        raise IllegalAction(f"tactics: {ship['name']}'s {pool} pool has {have} points, asked for {points}")
    if pool == "ship":
        ship["tactics"] -= points
    else:
        state["fleet_tactics"][ship["side"]] -= points
    return [Modifier(f"Tactics ({pool} pool)", points)]


def computer_modifier(ship: dict) -> Modifier:
    """The computer model, or a PC officer's Sensor Ops skill in its place when higher."""
    if ship["sensor_ops"] > ship["computer"]:
        return Modifier("Sensor Ops", ship["sensor_ops"])
    return Modifier("Computer", ship["computer"])


# --- locate and lock ---------------------------------------------------------------------

def _sensor_task(state: dict, args: dict, tables: Tables, kind: str) -> tuple[dict, dict, str, str, int]:
    if state["step"] != 1:
        raise IllegalAction("sensor actions are taken in step 1, Sensors")
    ship_id, target_id = args.get("ship", ""), args.get("target", "")
    ship = state["ships"].get(ship_id)
    target = state["ships"].get(target_id)
    if ship is None or target is None:
        raise IllegalAction(f"no ship {(ship_id if ship is None else target_id)!r}")
    if target["side"] == ship["side"]:
        raise IllegalAction(f"{target['name']} is on {ship['name']}'s own side")
    if "sensors" in ship["shut_down"]:
        raise IllegalAction(f"{ship['name']}'s sensors are shut down by a critical hit")
    mode = args.get("mode", "passive") or "passive"
    if mode not in ("passive", "active"):
        raise IllegalAction(f"mode: expected passive or active, got {mode!r}")
    task = f"{'pass' if mode == 'passive' else 'act'}_obj_{kind}"
    band = turn.band(state, ship_id, target_id)
    level = best_difficulty(ship, task, band, tables)
    if not level:
        where = f"at {band} range" if band else "beyond Extreme range"
        raise IllegalAction(f"{ship['name']} has no {TASK_NAMES[task]} sensor reaching {target['name']} {where}")
    return ship, target, task, level, turn.squares(state, ship_id, target_id)


def _mods(state: dict, ship: dict, n: int, args: dict) -> list[Modifier]:
    mods = [computer_modifier(ship)]
    if n:
        mods.append(Modifier("Range (squares)", -n))
    return mods + spend_tactics(state, ship, args)


def locate(state: dict, args: dict, tables: Tables, ctx: RuleContext) -> None:
    """A sensor action to improve a detected target to located."""
    ship, target, task, level, n = _sensor_task(state, args, tables, "scan")
    now = sensor_state(state, ship["side"], args["target"])
    if now == UNDETECTED:
        raise IllegalAction(f"{state['side_names'][ship['side']]} has not detected {target['name']}")
    if now in (LOCATED, LOCKED):
        raise IllegalAction(f"{target['name']} is already {now} by {state['side_names'][ship['side']]}")
    spend_action(ship, args.get("spend", "free"), ctx)
    mods = _mods(state, ship, n, args)
    ctx.request_roll(f"Locate: {ship['name']} {TASK_NAMES[task]} ({level}) on {target['name']}", "2D", mods,
                     Target(tables.difficulties[level]), then="locate",
                     context={"side": ship["side"], "target": args["target"]})


def locate_tier(natural: int, margin: int) -> int:
    """Highest signature tier found (-1 nothing): fumble, fail by 1, made by 0-1, 2+, 4+."""
    if natural == 2 or margin < -1:
        return -1
    if margin == -1:
        return 0
    if margin <= 1:
        return 1
    if margin <= 3:
        return 2
    return 3


def resolve_locate(state: dict, result: RollResult, ctx: RuleContext) -> None:
    c = result.request.context
    target = state["ships"][c["target"]]
    tier = locate_tier(result.natural, result.margin)
    if tier < 0:
        why = "natural 2" if result.natural == 2 else f"failed by {-result.margin}"
        ctx.note(f"{'Fumble' if result.natural == 2 or result.margin < -2 else 'Failed'} ({why}): "
                 f"{target['name']} not located")
        return
    if SIGNATURE_TIER[target["signature"]] <= tier:
        _set(state, c["side"], c["target"], LOCATED)
        ctx.note(f"{target['name']} ({target['signature']} signature) located by {state['side_names'][c['side']]}")
    else:
        ctx.note(f"{target['name']} ({target['signature']} signature) not located: the roll finds only "
                 f"{', '.join(s for s, t in SIGNATURE_TIER.items() if t <= tier)} targets")


def lock(state: dict, args: dict, tables: Tables, ctx: RuleContext) -> None:
    """The second action: lock a located target (uncertain task, the player's roll then the referee's)."""
    ship, target, task, level, n = _sensor_task(state, args, tables, "pin")
    now = sensor_state(state, ship["side"], args["target"])
    if now != LOCATED:
        raise IllegalAction(f"{target['name']} must be located before a lock "
                            f"({state['side_names'][ship['side']]}: {now})")
    spend_action(ship, args.get("spend", "free"), ctx)
    mods = _mods(state, ship, n, args)
    ctx.request_roll(f"Lock (player's roll): {ship['name']} {TASK_NAMES[task]} ({level}) on {target['name']}",
                     "2D", mods, Target(tables.difficulties[level]), then="lock_player",
                     context={"side": ship["side"], "target": args["target"], "ship": args["ship"],
                              "task": task, "level": level})


def resolve_lock_player(state: dict, result: RollResult, ctx: RuleContext) -> None:
    c = dict(result.request.context)
    c["player"] = bool(result.success)
    req = result.request
    ctx.request_roll(req.purpose.replace("player's roll", "referee's roll"), "2D", req.modifiers, req.target,
                     then="lock_referee", context=c)


def resolve_lock_referee(state: dict, result: RollResult, ctx: RuleContext) -> None:
    c = result.request.context
    target = state["ships"][c["target"]]
    made = int(c["player"]) + int(bool(result.success))
    revealed = REVEALED[made]
    if c["player"]:
        _set(state, c["side"], c["target"], LOCKED, revealed)
        ctx.note(f"{state['side_names'][c['side']]} locks {target['name']}")
    else:
        _set(state, c["side"], c["target"], revealed=revealed)
        ctx.note(f"No lock on {target['name']}")
    if revealed:
        ctx.note(f"{target['name']}: {revealed} revealed")
