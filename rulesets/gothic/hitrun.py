"""Hit-and-run attacks, the critical hits they cause, and repairing criticals in the end phase.

Source: ``gothic-boarding-teleport.ru.txt``, "Нанесение повреждений при hit-and-run
атаке": "roll a D6. On a 1 the attack fails; on 2 or more roll on the critical
hits table and apply the result at once. A critical so caused may be repaired
like an ordinary one. An escort that suffers a critical is destroyed outright."

A hit-and-run attack comes from a teleport attack (``teleport``) or from a
boarding torpedo that hits (``ordnance``); when it is done, a salvo's attack
goes on with its next torpedo. The critical hits table and repair numbers are
our shipped defaults (``tables/criticals.toml``, ``tables/repair.toml``).

Our readings where the text is silent: an escort is destroyed on the 2+ without
a roll on the table (what it suffers does not matter); a defence takes criticals
as a capital ship does; a critical's extra hits are lost at once and stay lost
when it is repaired. A roll asked before a correction reads the fight as
corrected: no hit-and-run on a vessel since destroyed, and a repair die follows
its critical as corrected (not asked for a permanent row or one taken away).
"""

from __future__ import annotations

from engine.actions import Action, Choice, Param
from engine.rolls import Target
from engine.ruleset import RuleContext

from .catalogue import CATALOGUE, VESSEL_PARAM, chosen_vessel, why_no_vessel
from .tables import Tables
from .units import destroy, lose_hits, vessel, vessels

#: "При выпадении 1 - атака потерпела неудачу, на 2 или больше - ... таблица критических попаданий"
HIT_AND_RUN_NEEDS = 2


def start(state: dict, ctx: RuleContext, attack: dict) -> None:
    """Ask for a hit-and-run attack's D6 against ``attack["target"]``; ``attack`` goes on after it."""
    target = vessel(state, attack["target"])
    ctx.request_roll(f"Hit-and-run on {target['name']} ({attack['source']})", "D6",
                     target=Target(HIT_AND_RUN_NEEDS), then="hit_and_run", context=attack)


def _wreck(state: dict, attack: dict, tables: Tables, ctx: RuleContext) -> bool:
    """A hit-and-run's roll asked before a correction destroyed its target: there is no ship left to board. A
    salvo's attack goes on (``_after``), and says its target is destroyed."""
    target = vessel(state, attack["target"])
    if not target["destroyed"]:
        return False
    if not attack.get("salvo"):
        ctx.note(f"{target['name']} is destroyed: the {attack['source']} finds nothing to attack")
    _after(state, attack, tables, ctx)
    return True


@CATALOGUE.continuation("hit_and_run")
def hit_and_run(state: dict, result, tables: Tables, ctx: RuleContext) -> None:
    attack = dict(result.request.context)
    if _wreck(state, attack, tables, ctx):
        return
    target = vessel(state, attack["target"])
    if not result.success:
        ctx.note(f"Hit-and-run on {target['name']} fails (a 1)")
        return _after(state, attack, tables, ctx)
    if target["class"] == "escort":
        ctx.note(destroy(state, attack["target"], "an escort that suffers a critical is destroyed"))
        return _after(state, attack, tables, ctx)
    ctx.request_roll(f"Critical hit on {target['name']}", "2D6", then="critical", context=attack)


@CATALOGUE.continuation("critical")
def critical(state: dict, result, tables: Tables, ctx: RuleContext) -> None:
    attack = dict(result.request.context)
    if _wreck(state, attack, tables, ctx):
        return
    apply_critical(state, attack["target"], result.total, tables, ctx)
    _after(state, attack, tables, ctx)


def apply_critical(state: dict, uid: str, roll: int, tables: Tables, ctx: RuleContext) -> None:
    """Put a critical hits table row in force at once: its effect, and any extra hits lost."""
    v = vessel(state, uid)
    if v["class"] == "escort":  # a critical from anywhere destroys an escort
        ctx.note(destroy(state, uid, "an escort that suffers a critical is destroyed"))
        return
    entry = {"roll": roll}
    v["criticals"].append(entry)
    _in_force(state, uid, entry, tables, ctx.note)


def _in_force(state: dict, uid: str, entry: dict, tables: Tables, note) -> None:
    """The row for ``entry["roll"]`` written into the entry and applied; the entry keeps the shields it knocked
    down and the hits it took, so that a corrected roll can give them back (``reread_critical``)."""
    v = vessel(state, uid)
    row = tables.criticals[entry["roll"]]
    entry.update(name=row["name"], effect=row["effect"], repairable=row["repairable"], shields_down=0, hits_lost=0)
    line = f"Critical on {v['name']}: {row['name']} (roll {entry['roll']})"
    if row["effect"] == "shields" and v["shields_up"]:
        entry["shields_down"], v["shields_up"] = v["shields_up"], 0
        line += ": every shield down until repaired"
    elif row["effect"] == "turrets":
        line += ": its turrets cannot fire until repaired"
    if not row["repairable"]:
        line += " (cannot be repaired)"
    note(line)
    if row["extra_hits"]:
        before = v["hits"]
        for text in lose_hits(state, uid, row["extra_hits"]):
            note(text)
        entry["hits_lost"] = before - v["hits"]


def reread_critical(state: dict, uid: str, index: int, tables: Tables, note) -> None:
    """A critical whose roll was just corrected: as if the corrected number had been rolled. What the old row did
    (the rest of the entry still tells it) is taken back, then the new number's row is applied in its place.

    Shields the old row knocked down go up again, unless another shields critical still keeps them down (that
    one then holds them, to give back when it goes). A destroyed vessel is not brought back: the correction is
    refused live (``corrections``), and a replayed one only renames the record."""
    v = vessel(state, uid)
    entry = v["criticals"][index]
    was = dict(entry)
    if v["destroyed"]:
        row = tables.criticals[entry["roll"]]
        entry.update(name=row["name"], effect=row["effect"], repairable=row["repairable"])
        return
    back = []
    shields = was.get("shields_down", 0)
    if shields:
        other = next((c for c in v["criticals"] if c is not entry and c["effect"] == "shields"), None)
        if other is not None:
            other["shields_down"] = other.get("shields_down", 0) + shields
        else:
            v["shields_up"] = min(v["shields"], v["shields_up"] + shields)
            back.append(f"shields up again ({v['shields_up']} of {v['shields']})")
    hits = was.get("hits_lost", 0)
    if hits:
        v["hits"] = min(v["hits_start"], v["hits"] + hits)
        back.append(f"{hits} hit{'s' if hits != 1 else ''} given back, {v['hits']}/{v['hits_start']} left")
    note(f"{v['name']}: {was['name']} is taken back" + (f": {'; '.join(back)}" if back else ""))
    _in_force(state, uid, entry, tables, note)


def _after(state: dict, attack: dict, tables: Tables, ctx: RuleContext) -> None:
    if attack.get("salvo"):
        from .ordnance import proceed  # a salvo's attack goes on with its next torpedo
        proceed(state, attack, tables, ctx)


# --- repair in the end phase ----------------------------------------------------------------------

def _repairable(state: dict, args: dict, tables) -> list[Choice]:
    uid = args.get("vessel", "")
    if why_no_vessel(state, uid):
        return []
    return [Choice(str(i), f"{_critical_words(state, args, tables, str(i))} (roll {c['roll']})")
            for i, c in enumerate(vessel(state, uid)["criticals"]) if c["repairable"]]


def _critical_words(state: dict, args: dict, tables, critical: str) -> str:
    """A critical by its name: the value is its place in the vessel's list when chosen (a repair takes it off)."""
    return vessel(state, args["vessel"])["criticals"][int(critical)]["name"]


def may_repair(state: dict, args: dict, tables: Tables) -> str:
    why, v = chosen_vessel(state, args, 4, "Criticals are repaired")
    if why or v is None:
        return why
    if v["repair_tried"]:
        return f"{v['name']} has tried a repair this end phase (one a turn)"
    if not any(c["repairable"] for c in v["criticals"]):
        return f"{v['name']} has no critical it can repair"
    if "critical" in args and args["critical"] not in {c.value for c in _repairable(state, args, tables)}:
        return f"{v['name']} has no repairable critical {args['critical']!r}"
    return ""


def repair(state: dict, args: dict, tables: Tables, ctx: RuleContext) -> None:
    v = vessel(state, args["vessel"])
    v["repair_tried"] = True
    crit = v["criticals"][int(args["critical"])]
    ctx.request_roll(_repair_words(crit, v), "D6", target=Target(tables.repair_needs),
                     then="repaired", context={"vessel": args["vessel"], "critical": int(args["critical"])})


def _repair_words(crit: dict, v: dict) -> str:
    return f"Repair {crit['name']} on {v['name']}"


def repairs_follow_corrections(state: dict, note) -> None:
    """A repair die still waiting when a correction changes the critical it is for follows the critical as
    corrected, as the console shows it before the dice fall (a drive read "Repair Fire on the gun decks", 5+,
    for a critical corrected to a hull breach, which no die repairs). A critical now of a row that "cannot be
    repaired", or no longer in force, has nothing to roll for: the die is not asked, and the ship's one try this
    end phase is given back, since ``may_repair`` would not have let it try that row. A critical corrected to
    another row that can be repaired is the one the die now repairs, and the prompt names it. A repair on a
    vessel the correction destroyed is ``units.moot_rolls_dropped``'s."""
    kept: list[dict] = []
    for p in state["pending"]:
        context = p.get("context") if p.get("then") == "repaired" else None
        uid = context.get("vessel") if isinstance(context, dict) else None
        v = vessels(state).get(uid) if isinstance(uid, str) else None
        at = context.get("critical") if v is not None else None
        if not isinstance(v, dict) or v.get("destroyed") or type(at) is not int:
            kept.append(p)
            continue
        crit = v["criticals"][at] if 0 <= at < len(v["criticals"]) else None
        if crit is None or not crit["repairable"]:
            v["repair_tried"] = False
            again = any(c["repairable"] for c in v["criticals"])
            note(f"{v['name']}: " + (f"{crit['name']} cannot be repaired: the repair die waiting for it is not rolled"
                                     if crit is not None else
                                     "the critical to repair is no longer in force: the repair die is not rolled")
                 + (f" ({v['name']} may still try another this end phase)" if again else ""))
            continue
        words = _repair_words(crit, v)
        if p.get("purpose") != words:  # a new dict: the engine reads a waiting roll again only when it is replaced
            p = {**p, "purpose": words}
            note(f"{v['name']}: the repair die waiting is now for {crit['name']}")
        kept.append(p)
    state["pending"][:] = kept


@CATALOGUE.continuation("repaired")
def repaired(state: dict, result, tables: Tables, ctx: RuleContext) -> None:
    """The repair die, read against the critical as it is now. Today a correction made while the die waits settles
    it (``repairs_follow_corrections``); a log read as an earlier version played it (``Gothic.follows_repairs``
    off) still rolls it, and then a row that "cannot be repaired" stays in force and a critical taken away is
    not there to repair."""
    v = vessel(state, result.request.context["vessel"])
    at = result.request.context["critical"]
    if v["destroyed"]:
        ctx.note(f"{v['name']} is destroyed: nothing is repaired")
        return
    if not 0 <= at < len(v["criticals"]):
        ctx.note(f"{v['name']}: the critical to repair is no longer in force")
        return
    crit = v["criticals"][at]
    if not crit["repairable"]:
        ctx.note(f"{v['name']}: {crit['name']} cannot be repaired (its roll was corrected): it stays in force")
        return
    if not result.success:
        ctx.note(f"{v['name']}: {crit['name']} stays in force")
        return
    v["criticals"].remove(crit)
    extra = " (its shields may be raised again)" if crit["effect"] == "shields" else ""
    ctx.note(f"{v['name']} repairs {crit['name']}{extra}")


CATALOGUE.add(Action("repair", "Repair critical", repair, key="r", may=may_repair, params=(
    VESSEL_PARAM, Param("critical", "Critical to repair", "choice", options=_repairable,
                        words=_critical_words))))
