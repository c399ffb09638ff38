"""Damage rolls, their effects, and critical hits, for a battery that hit and penetrated.

Source: ``megatraveller-sensors-fire.txt``, "Damage Rolls" to the end:

- "If weapon is not a spinal: one damage roll on each allowed table. If weapon
  is a spinal: Factor-9 rolls on each allowed table"; "Weapon Type determines
  which tables are used"; "Each damage roll is 2d6";
- DMs: "Factor <=9 (non Spinal) -6" on every table; "Factor >=A (10)
  (Spinals) +0"; "Pulse Laser +2" surface; "Nuclear Missile +6" surface "+0"
  radiation; the AV list "AV <=42: +0, AV 43: -1, AV 46: -2 ... AV64: -8, Etc."
  (one more -1 every 3 AV) across the three tables; "+6 AV per factor of
  flicker" for a black or white globe;
- "A weapon hit kills a number of batteries equal to its rating, until only one
  is left, then that last one takes a reduction to its rating, instead";
- "Fuel hits are that percentage of fuel ... the minimum loss is 10 tons of fuel.
  (Ships with less than 333 tons of fuel always lose 10 tons on any fuel hit.)":
  as written: a ship with less than 333 tons of fuel loses 10 tons on any fuel
  hit, whatever its percentage; from 333 tons the loss is the percentage
  (rounded down), with no minimum ("On small ships" only). Never more than is
  on board. (The text's own cliff stays: fuel-10 costs 10 tons at 332 and 33 at
  333.)
- "A drive hit reduce that drive's rating. A computer hit reduces the computer";
- "Subtract it [the Critical Hit Distribution number] from the weapon's UCP
  Factor. The remainder is the number of critical hits rolled and also the number
  of armor factors lost"; "All Crit rolls are a flat 2d6"; "Criticals shut down
  a system".

Where the text is silent we decided:

- The Armor row of the DM table is printed empty; we read the AV list under it
  (spanning all three columns) as the armor DM on every table, and a globe's
  flicker as adding 6 to the AV it is read with.
- "Until only one is left" counts the ship's batteries, whatever their groups:
  a weapon hit kills whole batteries while the ship has two or more, and only
  its very last battery takes the rest of the rating off its factor (at 0 it is
  destroyed). The batteries killed are those that bear first, since they face
  the enemy's fire, each from the group with the most bearing batteries left
  (the first listed on a tie), its last-listed one; when none bears, the same
  among all batteries.
- A sensor hit removes one sensor per point of its rating, each an entry of the
  ship's sensor list (a task reaching a band): the one reaching farthest first
  (the big arrays are the exposed ones), active before passive and pins before
  scans among equals. Locate and lock then read "the best difficulty listed that
  you still have sensors for" from what is left; with no sensor reaching Near,
  the ship detects nothing new.
- Fuel hits take the percentage of the fuel on board now.
- Armor factors are lost from the target's AV as soon as the criticals are known.
- A "critical" result on a damage table rolls one more critical.
- A weapon that rolls on no damage table (the tractor beam) does no damage: no
  damage roll, no critical, no armor lost. The criticals are counted from the
  weapon's factor, but the text ties them to damage ("go on to damage ... roll
  system hit(s) ... resolve criticals").
- A pinpoint system pick replaces the first damage roll of the battery (amount
  1). A pinpoint critical ("you may pick a critical hit") picks which system the
  first of the criticals due shuts down, in place of its roll; it adds no
  critical, and with none due there is nothing to pick. It is applied after the
  battery's damage rolls are asked, so it changes none of their DMs. The two
  picks go together on a roll made by 4 ("at least 2 more" as well): the
  system aim and the critical named beside it (``aim_critical``).
- What each shut-down system takes out of the fight is in ``systems``.
"""

from __future__ import annotations

from engine.rolls import Modifier, RollResult
from engine.ruleset import RuleContext

from . import systems
from .catalogue import CATALOGUE
from .ships import set_factor, ucp
from .tables import BANDS, SYSTEMS, Tables, critical_distribution, damage_result

NON_SPINAL_DM = -6  # "Factor <=9 (non Spinal) -6"
AV_FREE = 42  # "AV <=42: +0"
AV_STEP = 3  # "AV 43: -1, AV 46: -2, AV49: -3 ..."
AV_PER_FLICKER = 6  # "+6 AV per factor of flicker"
MIN_FUEL_LOSS = 10  # "the minimum loss is 10 tons of fuel"
SMALL_SHIP_FUEL = 333  # "Ships with less than 333 tons of fuel always lose 10 tons on any fuel hit"
PICK_SYSTEM, PICK_CRITICAL = 2, 4  # "at least 2 more than needed", "4 more than needed"
#: Which sensor a sensor hit takes first among those reaching equally far: the active arrays, then pins.
SENSOR_LOSS_ORDER = ("act_obj_pin", "act_obj_scan", "pass_obj_pin", "pass_obj_scan")


def armor_value(target: dict) -> int:
    """AV to read the AV list with: armor, plus 6 per factor of globe flicker (none with the screens shut down)."""
    return target["armor"] + AV_PER_FLICKER * systems.globe_flicker(target)


def armor_dm(av: int) -> int:
    """"AV <=42: +0, AV 43: -1, AV 46: -2 ... AV64: -8, Etc." """
    return 0 if av <= AV_FREE else -((av - AV_FREE - 1) // AV_STEP + 1)


def damage_rolls(factor: int, spinal: bool) -> int:
    """One roll per table, or factor - 9 for a spinal mount."""
    return factor - 9 if spinal else 1


def table_modifiers(table: str, c: dict, target: dict, tables: Tables) -> list[Modifier]:
    weapon = tables.weapons[c["weapon"]]
    mods = []
    if not c["spinal"]:
        mods.append(Modifier("non-spinal weapon (factor 9 or less)", NON_SPINAL_DM))
    dm = weapon["damage_dm"].get(table, 0)
    if dm:
        mods.append(Modifier(weapon["label"], dm))
    av = armor_value(target)
    if armor_dm(av):
        globe = f" ({target['globe']} globe)" if systems.globe_flicker(target) else ""
        mods.append(Modifier(f"AV {av}{globe}", armor_dm(av)))
    return mods


def criticals_due(factor: int, tonnage: int, tables: Tables) -> int:
    return max(0, factor - critical_distribution(tables, tonnage))


def _short_of(c: dict, needed: int) -> str:
    """Why a pinpoint pick was not made, by megatraveller-sensors-fire.txt line 55 ("If at Visual range, and you
    roll at least 2 more than needed, you get to pick which system type is hit. If you roll 4 more than needed,
    you may pick a critical hit"): the band, or the margin (a drive read "needs Visual range and a roll made by 4"
    at Visual range, where only the margin fell short)."""
    band = c.get("band", "")
    if band != "visual":
        return f"a pick needs Visual range (this shot was at {band or 'another'} range)"
    return f"a pick needs the to-hit roll made by {needed} or more, and this one was made by less"


def aim_words(aim: str) -> str:
    """"critical: power" for ``critical:power``, as the fire form names it."""
    return f"critical: {aim.split(':', 1)[1]}" if aim.startswith("critical:") else aim


def start(state: dict, c: dict, tables: Tables, ctx: RuleContext) -> None:
    """The battery hit and penetrated: its damage rolls, pinpoint picks and criticals (steps 3.3-3.4)."""
    target = state["ships"][c["target"]]
    weapon = tables.weapons[c["weapon"]]
    if not weapon["damage_tables"]:
        ctx.note(f"{weapon['label']}: no damage table to roll on, so no damage, no criticals and no armor lost")
        return
    aim, pick = c.get("aim", ""), c.get("pick", "")
    crits = criticals_due(c["factor"], target["tonnage"], tables)
    critical_aim = aim if aim.startswith("critical:") else c.get("aim_critical", "")
    system_aim = "" if aim.startswith("critical:") else aim
    picked_critical = ""
    skip_first = False
    if system_aim:
        if pick in ("system", "critical"):
            apply_result(state, c["target"], {"system": system_aim, "amount": 1}, tables, ctx, "pinpoint")
            skip_first = True
        else:
            ctx.note(f"Aim {system_aim}: ignored, {_short_of(c, PICK_SYSTEM)}")
    if critical_aim:
        if pick != "critical":
            ctx.note(f"Aim {aim_words(critical_aim)}: ignored, {_short_of(c, PICK_CRITICAL)}")
        elif not crits:
            ctx.note(f"Aim {aim_words(critical_aim)}: no critical hit is due from this battery (UCP factor {ucp(c['factor'])} "
                     f"- distribution {critical_distribution(tables, target['tonnage'])}), so none to pick")
        else:
            picked_critical = critical_aim.split(":", 1)[1]
    count = damage_rolls(c["factor"], c["spinal"])
    for table in weapon["damage_tables"]:
        mods = table_modifiers(table, c, target, tables)
        for n in range(1, count + 1):
            if skip_first:
                skip_first = False
                continue
            ctx.request_roll(f"Damage ({table} {n}/{count}): {c['battery']} on {target['name']}", "2D", mods,
                             then="damage", context={"target": c["target"], "table": table})
    if crits:
        lost = min(crits, target["armor"])
        target["armor"] -= lost
        ctx.note(f"UCP factor {ucp(c['factor'])} - distribution {critical_distribution(tables, target['tonnage'])}: "
                 f"{crits} critical{'s' if crits > 1 else ''}, {target['name']} loses {lost} armor")
        first = 1
        if picked_critical:
            shut_down(target, picked_critical, ctx, f"critical 1/{crits} (picked by the pinpoint shot)")
            first = 2
        for n in range(first, crits + 1):
            ctx.request_roll(f"Critical {n}/{crits}: {target['name']}", "2D", then="critical",
                             context={"target": c["target"]})


@CATALOGUE.continuation("damage")
def resolve_damage(state: dict, result: RollResult, tables: Tables, ctx: RuleContext) -> None:
    c = result.request.context
    row = damage_result(tables, c["table"], result.total)
    apply_result(state, c["target"], row, tables, ctx, c["table"])


def apply_result(state: dict, target_id: str, row: dict, tables: Tables, ctx: RuleContext, where: str) -> None:
    ship = state["ships"][target_id]
    system, amount = row["system"], int(row["amount"])
    if system not in SYSTEMS:
        ctx.note(f"{ship['name']}: {where} hit on {system}")
        ship["hold_hits"] += 1
        return
    if system == "none":
        ctx.note(f"{where}: no effect")
    elif system == "weapon":
        weapon_hit(ship, amount, ctx)
    elif system == "sensors":
        ship["sensor_hits"] += amount
        lose_sensors(ship, amount, ctx)
    elif system == "fuel":
        lost = fuel_loss(ship["fuel"], amount)
        ship["fuel"] -= lost
        ctx.note(f"{ship['name']} fuel-{amount}: loses {lost} tons of fuel ({ship['fuel']} left)")
    elif system in ("maneuver", "jump", "power", "computer"):
        key = "power_plant" if system == "power" else system
        ship[key] = max(0, ship[key] - amount)
        ctx.note(f"{ship['name']} {system}-{amount}: {system} now {ship[key]}")
    elif system == "critical":
        ctx.request_roll(f"Critical (from the {where} table): {ship['name']}", "2D", then="critical",
                         context={"target": target_id})
    else:
        key = {"sensors": "sensor_hits", "crew": "crew_hits", "hold": "hold_hits"}[system]
        ship[key] += amount
        hits = ship[key]
        ctx.note(f"{ship['name']} {system}-{amount} ({hits} {system} hit{'' if hits == 1 else 's'})")


def fuel_loss(fuel: int, percent: int) -> int:
    """"That percentage of fuel"; 10 tons on any hit with less than 333 tons aboard; never more than is on board."""
    if fuel < SMALL_SHIP_FUEL:
        return min(fuel, MIN_FUEL_LOSS)
    return fuel * percent // 100


def _next_battery_hit(batteries: list[dict]) -> dict:
    """The battery a weapon hit kills next: one that bears, from the group with the most of them."""
    exposed = [b for b in batteries if b["bearing"]] or batteries
    groups: dict[str, list[dict]] = {}
    for b in exposed:
        groups.setdefault(b["group"], []).append(b)
    group = max(groups, key=lambda g: len(groups[g]))  # max keeps the first listed on a tie
    return groups[group][-1]


def weapon_hit(ship: dict, amount: int, ctx: RuleContext) -> None:
    """"Kills a number of batteries equal to its rating, until only one is left, then that last one
    takes a reduction to its rating, instead": one battery is the ship's last, whatever its group."""
    batteries = ship["batteries"]
    if not batteries:
        ctx.note(f"{ship['name']} weapon-{amount}: no batteries left")
        return
    killed = []
    left = amount
    while left and len(batteries) > 1:
        gone = _next_battery_hit(batteries)
        batteries.remove(gone)
        killed.append(gone["id"])
        left -= 1
    text = f"{ship['name']} weapon-{amount}: " + (f"{', '.join(killed)} destroyed" if killed else "")
    if left:
        last = batteries[0]
        changed = set_factor(last, last["factor"] - left)  # a spinal down to 9 is a battery like any other
        text += ", then " if killed else ""
        if last["factor"] <= 0:
            batteries.remove(last)
            text += f"the last battery {last['id']} destroyed"
        else:
            text += f"the last battery {last['id']} down to factor {ucp(last['factor'])}"
            text += f", {changed}" if changed else ""
    ctx.note(text)


def lose_sensors(ship: dict, amount: int, ctx: RuleContext) -> None:
    """A sensor hit removes one sensor per point: the one reaching farthest first (see the module notes)."""
    lost = []
    for _ in range(amount):
        listed = [(BANDS.index(band), -SENSOR_LOSS_ORDER.index(task), task, band)
                  for task, reach in ship["sensors"].items() for band in reach]
        if not listed:
            break
        *_, task, band = max(listed)
        del ship["sensors"][task][band]
        lost.append(f"{task.replace('_', ' ')} at {band}")
    if lost:
        ctx.note(f"{ship['name']} sensors-{amount}: loses {', '.join(lost)}"
                 + ("" if any(ship["sensors"].values()) else " (no sensors left)"))
    else:
        ctx.note(f"{ship['name']} sensors-{amount}: no sensors left to lose")


def shut_down(ship: dict, system: str, ctx: RuleContext, why: str) -> None:
    systems.shut_down(ship, system)
    ctx.note(f"{ship['name']}: {why} shuts down {system}")


@CATALOGUE.continuation("critical")
def resolve_critical(state: dict, result: RollResult, tables: Tables, ctx: RuleContext) -> None:
    ship = state["ships"][result.request.context["target"]]
    shut_down(ship, tables.criticals[result.natural], ctx, f"critical ({result.natural})")
