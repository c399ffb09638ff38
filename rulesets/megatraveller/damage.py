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
  (Ships with less than 333 tons of fuel always lose 10 tons on any fuel hit.)";
- "A drive hit reduce that drive's rating. A computer hit reduces the computer";
- "Subtract it [the Critical Hit Distribution number] from the weapon's UCP
  Factor. The remainder is the number of critical hits rolled and also the number
  of armor factors lost"; "All Crit rolls are a flat 2d6"; "Criticals shut down
  a system".

Where the text is silent we decided:

- The Armor row of the DM table is printed empty; we read the AV list under it
  (spanning all three columns) as the armor DM on every table, and a globe's
  flicker as adding 6 to the AV it is read with.
- A weapon hit falls on the battery group with the most batteries left (the
  first listed on a tie), removing its last-listed batteries; a battery whose
  factor falls to 0 is destroyed.
- Fuel hits take the percentage of the fuel on board now.
- Armor factors are lost from the target's AV as soon as the criticals are known.
- A "critical" result on a damage table rolls one more critical.
- A pinpoint system pick replaces the first damage roll of the battery (amount
  1); a pinpoint critical shuts the picked system down, on top of the rolled ones.
- Shut-down weapons cannot fire and shut-down sensors take no sensor actions;
  other shut-down systems are listed for the referee.
"""

from __future__ import annotations

from engine.rolls import Modifier, RollResult
from engine.ruleset import RuleContext

from .catalogue import CATALOGUE
from .ships import ucp
from .tables import SYSTEMS, Tables, critical_distribution, damage_result

NON_SPINAL_DM = -6  # "Factor <=9 (non Spinal) -6"
AV_FREE = 42  # "AV <=42: +0"
AV_STEP = 3  # "AV 43: -1, AV 46: -2, AV49: -3 ..."
AV_PER_FLICKER = 6  # "+6 AV per factor of flicker"
SMALL_FUEL = 333  # "less than 333 tons of fuel always lose 10 tons"
MIN_FUEL_LOSS = 10


def armor_value(target: dict) -> int:
    """AV to read the AV list with: armor, plus 6 per factor of globe flicker."""
    return target["armor"] + (AV_PER_FLICKER * target["globe_flicker"] if target["globe"] else 0)


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
        mods.append(Modifier("Factor 9 or less", NON_SPINAL_DM))
    dm = weapon["damage_dm"].get(table, 0)
    if dm:
        mods.append(Modifier(weapon["label"], dm))
    av = armor_value(target)
    if armor_dm(av):
        mods.append(Modifier(f"AV {av}" + (f" ({target['globe']} globe)" if target["globe"] else ""), armor_dm(av)))
    return mods


def criticals_due(factor: int, tonnage: int, tables: Tables) -> int:
    return max(0, factor - critical_distribution(tables, tonnage))


def start(state: dict, c: dict, tables: Tables, ctx: RuleContext) -> None:
    """The battery hit and penetrated: its damage rolls, pinpoint picks and criticals (steps 3.3-3.4)."""
    target = state["ships"][c["target"]]
    weapon = tables.weapons[c["weapon"]]
    aim, pick = c.get("aim", ""), c.get("pick", "")
    skip_first = False
    if aim:
        if aim.startswith("critical:"):
            if pick == "critical":
                shut_down(target, aim.split(":", 1)[1], ctx, "pinpoint critical")
            else:
                ctx.note(f"Aim {aim} needs Visual range and a to-hit roll made by {4}: ignored")
        elif pick in ("system", "critical"):
            apply_result(state, c["target"], {"system": aim, "amount": 1}, tables, ctx, "pinpoint")
            skip_first = True
        else:
            ctx.note(f"Aim {aim} needs Visual range and a to-hit roll made by 2: ignored")
    count = damage_rolls(c["factor"], c["spinal"])
    for table in weapon["damage_tables"]:
        mods = table_modifiers(table, c, target, tables)
        for n in range(1, count + 1):
            if skip_first:
                skip_first = False
                continue
            ctx.request_roll(f"Damage ({table} {n}/{count}): {c['battery']} on {target['name']}", "2D", mods,
                             then="damage", context={"target": c["target"], "table": table})
    crits = criticals_due(c["factor"], target["tonnage"], tables)
    if crits:
        lost = min(crits, target["armor"])
        target["armor"] -= lost
        ctx.note(f"UCP factor {ucp(c['factor'])} - distribution {critical_distribution(tables, target['tonnage'])}: "
                 f"{crits} critical{'s' if crits > 1 else ''}, {target['name']} loses {lost} armor")
        for n in range(1, crits + 1):
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
        ctx.note(f"{ship['name']} {system}-{amount} ({ship[key]} {system} hits)")


def fuel_loss(fuel: int, percent: int) -> int:
    if fuel < SMALL_FUEL:
        return min(fuel, MIN_FUEL_LOSS)
    return min(fuel, max(MIN_FUEL_LOSS, fuel * percent // 100))


def weapon_hit(ship: dict, amount: int, ctx: RuleContext) -> None:
    groups: dict[str, list[dict]] = {}
    for b in ship["batteries"]:
        groups.setdefault(b["group"], []).append(b)
    if not groups:
        ctx.note(f"{ship['name']} weapon-{amount}: no batteries left")
        return
    group = max(groups, key=lambda g: len(groups[g]))  # max keeps the first on a tie
    members = groups[group]
    left = amount
    while left and len(members) > 1:
        gone = members.pop()
        ship["batteries"].remove(gone)
        left -= 1
    text = f"{ship['name']} weapon-{amount}: {amount - left} of {group} destroyed"
    if left:
        last = members[0]
        last["factor"] -= left
        if last["factor"] <= 0:
            ship["batteries"].remove(last)
            text += ", the last one destroyed"
        else:
            text += f", the last one down to factor {ucp(last['factor'])}"
    ctx.note(text)


def shut_down(ship: dict, system: str, ctx: RuleContext, why: str) -> None:
    if system not in ship["shut_down"]:
        ship["shut_down"].append(system)
    ctx.note(f"{ship['name']}: {why} shuts down {system}")


@CATALOGUE.continuation("critical")
def resolve_critical(state: dict, result: RollResult, tables: Tables, ctx: RuleContext) -> None:
    ship = state["ships"][result.request.context["target"]]
    shut_down(ship, tables.criticals[result.natural], ctx, f"critical ({result.natural})")
