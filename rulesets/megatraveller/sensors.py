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
- A natural 2 is a fumble only when the roll fails ("failed with nat 2"); a
  natural 2 whose total still makes the difficulty reads its margin like any
  other roll (computer 9 at 0 squares: 2 + 9 = 11 against 7+ is made by 4).
- A located target's signature class decides which tier finds it: large
  (strong/large), medium (moderate/medium), small (weak/small), stealthy (only
  "made by 4+: any target").
- The Sensor Ops skill is used when it is higher than the computer model (a
  referee would let the officer choose, and nobody chooses the lower).
- Tactics points raise both rolls of the uncertain lock task (they raise the
  computer or skill for the task, and both rolls use it).
- A side that holds a lock but not the type code may take the lock action again
  on that target to learn more ("If both succeed, you get type code"); a failed
  roll then loses nothing ("Yours succeeding gives you a lock, no matter what"
  says how a lock is won, not how one is lost).
- "Sensors of near range (=planetary) or better": a ship detects only while it
  has a sensor listed at Near, Far or Extreme and its sensors are not shut
  down; sensor hits remove sensors (``damage``), so a ship can lose the reach.
- The referee's roll is only made after the player's; a referee-only success
  reveals power and tonnage but gives no lock.
- A sensor action names its sensors (passive, the default, or active) and what
  it spends (the free action, the default, or a battery's gunnery action).
- Every battery has its gunnery action ("one gunnery action per battery"),
  bearing or not: only fire needs a battery bearing ("You cannot fire more than
  you have batteries bearing"), so the gunners of a battery turned away may
  spend its action on sensors. So may those of a ship whose weapons a critical
  shut down (the weapons do not fire; the gunners still work the sensors).
"""

from __future__ import annotations

from fractions import Fraction

from engine.actions import Action, Choice, Param
from engine.rolls import Modifier, RollResult, Target
from engine.ruleset import RuleContext
from engine.state import knowledge, set_knowledge

from . import ranges, systems, tactics
from .catalogue import (CATALOGUE, SHIP_PARAM, TARGET_PARAM, battery, battery_label, why_no_battery,
                        why_not_acting)
from .tables import BANDS, Tables

UNDETECTED, DETECTED, LOCATED, LOCKED = "undetected", "detected", "located", "locked"
STATES = (UNDETECTED, DETECTED, LOCATED, LOCKED)
REVEALED = ("", "power and tonnage", "type code")
SIGNATURE_TIER = {"large": 0, "medium": 1, "small": 2, "stealthy": 3}
TASK_NAMES = {"pass_obj_scan": "PassObjScan", "act_obj_scan": "ActObjScan",
              "pass_obj_pin": "PassObjPin", "act_obj_pin": "ActObjPin"}
MODES = ("passive", "active")
TYPE_CODE = REVEALED[-1]


# --- what a side knows ---------------------------------------------------------------

def seen(state: dict, side: str, target: str) -> dict:
    return knowledge(state, side, target, {"state": UNDETECTED, "revealed": ""})


def sensor_state(state: dict, side: str, target: str) -> str:
    return seen(state, side, target)["state"]


def side_holds_any(state: dict, ship_id: str, wanted: str) -> bool:
    """Whether the ship's side holds some enemy ship in sensor state ``wanted`` ("shared across a side")."""
    side = state["ships"][ship_id]["side"]
    return any(sensor_state(state, side, t) == wanted for t in ranges.enemies(state, ship_id))


def wanted(kind: str, entry: dict) -> bool:
    """Whether a sensor task of ``kind`` has something to gain on a target a side sees as ``entry``.

    Locate scans a detected target; lock pins a located one, or a locked one
    whose type code the side does not yet know (a second roll may give it).
    """
    if kind == "scan":
        return entry["state"] == DETECTED
    return entry["state"] == LOCATED or (entry["state"] == LOCKED and entry["revealed"] != TYPE_CODE)


def side_wants_any(state: dict, ship_id: str, kind: str) -> bool:
    side = state["ships"][ship_id]["side"]
    return any(wanted(kind, seen(state, side, t)) for t in ranges.enemies(state, ship_id))


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


def refresh_detection(state: dict, ctx: RuleContext | None = None,
                      pairs: list[tuple[str, str]] | None = None) -> None:
    """Undetected targets within 100 squares of a ship with Near-or-better sensors working become detected.

    ``pairs``: only these (watcher, target) pairs are looked at, so that a change to one range, one ship's
    sensors or one ship's side does not find again a contact the game master hid elsewhere; None looks at
    every pair (a new fight). Each detection is noted in ``ctx``'s log when one is given.
    """
    ships = state["ships"]
    if pairs is None:
        pairs = [(w, t) for side in state["side_order"] for t in ships for w in ships if ships[w]["side"] == side]
    for w, t in pairs:
        watcher, target = ships.get(w), ships.get(t)
        if watcher is None or target is None or watcher["side"] == target["side"]:
            continue
        side = watcher["side"]
        if sensor_state(state, side, t) != UNDETECTED or not reaches_near(watcher) or systems.off(watcher, "sensors"):
            continue
        if ranges.squares(state, w, t) <= ranges.DETECTION_LIMIT:
            _set(state, side, t, DETECTED)
            if ctx is not None:
                ctx.note(f"{state['side_names'][side]} detects {target['name']}")


def pairs_across(a: str, b: str) -> list[tuple[str, str]]:
    """Both ways across one range: what setting or correcting the range between ``a`` and ``b`` can change."""
    return [(a, b), (b, a)]


def pairs_seen_by(state: dict, ship_id: str) -> list[tuple[str, str]]:
    """The ship watching each enemy: what a change to its own sensors can change."""
    return [(ship_id, t) for t in ranges.enemies(state, ship_id)]


def pairs_of(state: dict, ship_id: str) -> list[tuple[str, str]]:
    """The ship watching each enemy and each enemy watching it: what a change to its side can change."""
    return [p for t in ranges.enemies(state, ship_id) for p in ((ship_id, t), (t, ship_id))]


def task_of(mode: str, kind: str) -> str:
    """The sensor task a mode performs: passive or active, scan (locate) or pin (lock)."""
    return f"{'pass' if mode == 'passive' else 'act'}_obj_{kind}"


def best_difficulty(ship: dict, task: str, band: str, tables: Tables) -> str:
    """The easiest difficulty among the task's sensors that reach ``band`` ("" when none does)."""
    if not band:
        return ""
    reach = BANDS.index(band)
    usable = [lvl for b, lvl in ship["sensors"].get(task, {}).items() if BANDS.index(b) >= reach]
    return min(usable, key=lambda lvl: tables.difficulties[lvl], default="")


def computer_modifier(ship: dict) -> Modifier:
    """The computer model (0 while shut down), or a PC officer's Sensor Ops skill in its place when higher."""
    if systems.sensor_ops(ship) > systems.computer(ship):
        return Modifier("Sensor Ops", systems.sensor_ops(ship))
    return Modifier("Computer", systems.computer(ship))


# --- sensor actions spent --------------------------------------------------------------

FREE = "free"  # what a sensor action spends when it spends no battery's gunnery action


def _spends(ship: dict) -> list[str]:
    """All a sensor action may spend, in the order the forms list it: the free action, then each battery's."""
    return [FREE] + [b["id"] for b in ship["batteries"]]


def sensor_action_left(ship: dict) -> bool:
    """Something to spend on a sensor action this round: the free one, or a battery's unused gunnery action."""
    return any(not _why_not_spend(ship, spend) for spend in _spends(ship))


def why_blind(ship: dict) -> str:
    """Why the ship has no sensor action at all, free or bought with gunnery ("" when it has sensors to use).

    A sensor roll is made "for the best difficulty listed that you still have sensors for": with none fitted,
    or every one lost to sensor hits (``damage``), there is nothing to roll for; shut-down sensors take no
    action either (``systems``).
    """
    if not any(ship["sensors"].values()):
        return f"{ship['name']} has no sensors (none fitted, or all lost to sensor hits)"
    return systems.why_off(ship, "sensors")


def _why_not_sensing(state: dict, args: dict) -> str:
    why = why_not_acting(state, args, 1, "sensor actions are taken in step 1, Sensors", "sensors")
    if why or "ship" not in args:
        return why
    return why_blind(state["ships"][args["ship"]])


def sensor_spends_now(state: dict, ship_id: str) -> list[str]:
    """What the ship may still spend on a sensor action now, as the locate and lock forms offer it (``FREE``,
    then battery ids): nothing outside step 1, nor with no sensors or sensors shut down (the checklist lists
    these)."""
    if _why_not_sensing(state, {"ship": ship_id}):
        return []
    ship = state["ships"][ship_id]
    return [spend for spend in _spends(ship) if not _why_not_spend(ship, spend)]


def _why_not_spend(ship: dict, spend: str) -> str:
    if spend == FREE:
        if ship["free_sensor_used"]:
            return (f"{ship['name']} has used its free sensor action this round; "
                    "spend a battery's gunnery action instead")
        return ""
    why = why_no_battery(ship, spend)
    if why:
        return why
    used = battery(ship, spend)["used"]
    return f"{ship['name']} {spend} has already used its gunnery action ({used})" if used else ""


def spend_action(ship: dict, spend: str, ctx: RuleContext) -> None:
    if spend == FREE:
        ship["free_sensor_used"] = True
        return
    battery(ship, spend)["used"] = "sensors"
    ctx.note(f"{ship['name']} {spend} spends its gunnery action on sensors")


# --- locate and lock: when they may be taken, and what they ask --------------------------

def _may_sense(kind: str):
    """The ``may`` of locate (``scan``) or lock (``pin``), for the arguments chosen so far."""

    def may(state: dict, args: dict, tables: Tables) -> str:
        why = _why_not_sensing(state, args)
        if why or "ship" not in args:
            return why
        ship = state["ships"][args["ship"]]
        side = state["side_names"][ship["side"]]
        if not sensor_action_left(ship):
            return (f"{ship['name']} has no sensor action left this round "
                    "(its free action and every battery's gunnery action are used)")
        if not side_wants_any(state, args["ship"], kind):
            return (f"{side} has no enemy ship detected and not yet located" if kind == "scan" else
                    f"a target must be located before a lock ({side} has no enemy ship located, "
                    "or locked without its type code)")
        if "target" not in args:
            return ""
        target = state["ships"][args["target"]]
        if "mode" in args:
            task, band = task_of(args["mode"], kind), ranges.band(state, args["ship"], args["target"])
            if not best_difficulty(ship, task, band, tables):
                where = f"at {band} range" if band else "beyond Extreme range"
                return f"{ship['name']} has no {TASK_NAMES[task]} sensor reaching {target['name']} {where}"
        now = sensor_state(state, ship["side"], args["target"])
        if kind == "scan" and now == UNDETECTED:
            return f"{side} has not detected {target['name']}"
        if kind == "scan" and now != DETECTED:
            return f"{target['name']} is already {now} by {side}"
        if kind == "pin" and now == LOCKED and not wanted(kind, seen(state, ship["side"], args["target"])):
            return f"{side} has {target['name']} locked and knows its type code: a lock roll has nothing to add"
        if kind == "pin" and now not in (LOCATED, LOCKED):
            return f"{target['name']} must be located before a lock ({side}: {now})"
        if "spend" in args:
            why = _why_not_spend(ship, args["spend"])
            if why:
                return why
        return tactics.may_spend(state, ship, args)

    return may


def _mode_choices(kind: str):
    def options(state: dict, args: dict, tables: Tables) -> list[Choice]:
        ship = state["ships"][args["ship"]]
        band = ranges.band(state, args["ship"], args["target"])
        out = []
        for mode in MODES:
            task = task_of(mode, kind)
            level = best_difficulty(ship, task, band, tables)
            out.append(Choice(mode, f"{mode} ({TASK_NAMES[task]} {level} {tables.difficulties[level]}+)"
                                    if level else mode))
        return out

    return options


def _spend_choices(state: dict, args: dict, tables: Tables) -> list[Choice]:
    ship = state["ships"][args["ship"]]
    return [Choice(spend, _spend_words(state, args, tables, spend)) for spend in _spends(ship)]


def _spend_words(state: dict, args: dict, tables: Tables, spend: str) -> str:
    if spend == FREE:
        return "free sensor action"
    return f"gunnery action of {battery_label(battery(state['ships'][args['ship']], spend), tables)}"


def _sense_params(kind: str) -> tuple[Param, ...]:
    return (SHIP_PARAM, TARGET_PARAM,
            Param("mode", "Sensors", "choice", options=_mode_choices(kind), optional=True, default="passive"),
            Param("spend", "Action spent", "choice", options=_spend_choices, optional=True, default=FREE,
                  words=_spend_words),
            ) + tactics.TACTICS_PARAMS


# --- locate and lock: what they do ------------------------------------------------------------

def _sensor_roll(state: dict, args: dict, tables: Tables, ctx: RuleContext,
                 kind: str) -> tuple[str, str, list[Modifier]]:
    """Spend the action; the task, its difficulty and the DMs (tactics points taken from their pool)."""
    ship = state["ships"][args["ship"]]
    task = task_of(args["mode"], kind)
    level = best_difficulty(ship, task, ranges.band(state, args["ship"], args["target"]), tables)
    spend_action(ship, args["spend"], ctx)
    mods = [computer_modifier(ship)]
    n = ranges.squares(state, args["ship"], args["target"])
    if n:
        mods.append(Modifier("Range (squares)", -n))
    return task, level, mods + tactics.spend(state, ship, args["tactics"], args["pool"])


def locate(state: dict, args: dict, tables: Tables, ctx: RuleContext) -> None:
    """A sensor action to improve a detected target to located."""
    ship, target = state["ships"][args["ship"]], state["ships"][args["target"]]
    task, level, mods = _sensor_roll(state, args, tables, ctx, "scan")
    ctx.request_roll(f"Locate: {ship['name']} {TASK_NAMES[task]} ({level}) on {target['name']}", "2D", mods,
                     Target(tables.difficulties[level]), then="locate",
                     context={"side": ship["side"], "target": args["target"]})


def locate_tier(natural: int, margin: int) -> int:
    """Highest signature tier found (-1 nothing): fumble, fail by 1, made by 0-1, 2+, 4+.

    "Fumble (failed by >2, or failed with nat 2)": a natural 2 is a fumble only when it fails.
    """
    if margin < -1 or (natural == 2 and margin < 0):
        return -1
    if margin == -1:
        return 0
    if margin <= 1:
        return 1
    if margin <= 3:
        return 2
    return 3


#: What a locate roll must do to find a target of each signature class (``locate_tier``), in the log's words.
TIER_WORDS = ("fails by 1 or better", "is made", "is made by 2 or more", "is made by 4 or more")


def locate_chance(request, signature: str) -> Fraction:
    """The exact chance a locate roll finds a target of this signature: its tier or better (megatraveller-sensors-
    fire.txt lines 16-20: "Fail by 1: Strong and/or Large target located" ... "Made by 4+: any target located"),
    where the prompt's chance is the roll's success alone."""
    bonus, wanted, chance = request.modifier_total, SIGNATURE_TIER[signature], Fraction(0)
    for natural, p in request.parsed.distribution().items():  # 2D: the value is the natural total
        if locate_tier(natural, request.target.margin(natural + bonus)) >= wanted:
            chance += p
    return chance


@CATALOGUE.continuation("locate")
def resolve_locate(state: dict, result: RollResult, tables: Tables, ctx: RuleContext) -> None:
    c = result.request.context
    target = state["ships"][c["target"]]
    tier = locate_tier(result.natural, result.margin)
    if tier < 0:
        why = "failed with a natural 2" if result.natural == 2 else f"failed by {-result.margin}"
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
    """The second action: lock a located target, or roll again on a locked one to learn its type code
    (an uncertain task: the player's roll, then the referee's)."""
    ship, target = state["ships"][args["ship"]], state["ships"][args["target"]]
    task, level, mods = _sensor_roll(state, args, tables, ctx, "pin")
    ctx.request_roll(f"Lock (player's roll): {ship['name']} {TASK_NAMES[task]} ({level}) on {target['name']}",
                     "2D", mods, Target(tables.difficulties[level]), then="lock_player",
                     context={"side": ship["side"], "target": args["target"], "ship": args["ship"],
                              "task": task, "level": level})


@CATALOGUE.continuation("lock_player")
def resolve_lock_player(state: dict, result: RollResult, tables: Tables, ctx: RuleContext) -> None:
    c = dict(result.request.context)
    c["player"] = bool(result.success)
    req = result.request
    ctx.request_roll(req.purpose.replace("player's roll", "referee's roll"), "2D", req.modifiers, req.target,
                     then="lock_referee", context=c, secret=True)  # the GM's roll: no player sees it


@CATALOGUE.continuation("lock_referee")
def resolve_lock_referee(state: dict, result: RollResult, tables: Tables, ctx: RuleContext) -> None:
    c = result.request.context
    target = state["ships"][c["target"]]
    made = int(c["player"]) + int(bool(result.success))
    revealed = REVEALED[made]
    known = REVEALED.index(seen(state, c["side"], c["target"])["revealed"]) >= made  # before this roll's news
    if c["player"]:
        _set(state, c["side"], c["target"], LOCKED, revealed)
        ctx.note(f"{state['side_names'][c['side']]} locks {target['name']}")
    else:
        _set(state, c["side"], c["target"], revealed=revealed)
        held = sensor_state(state, c["side"], c["target"]) == LOCKED
        ctx.note(f"{target['name']}: the lock held from before stays" if held else f"No lock on {target['name']}")
    if revealed:
        ctx.note(f"{target['name']}: {revealed} known already, nothing new revealed" if known else
                 f"{target['name']}: {revealed} revealed")


CATALOGUE.add(Action("locate", "Locate", locate, key="s", params=_sense_params("scan"),
                     may=_may_sense("scan")))
CATALOGUE.add(Action("lock", "Lock", lock, key="l", params=_sense_params("pin"),
                     may=_may_sense("pin")))
