"""Teleport attacks: in the end phase, against an enemy within 10 cm with its shields down.

Source: ``gothic-boarding-teleport.ru.txt``, "Атаки через телепортаторы
(teleport attack)": the attack is made "in the end phase of the turn against an
enemy ship no more than 10 cm away and without energy shields"; ships "on a
special order or crippled cannot"; "escorts and defences with one hit left
cannot"; "a ship cannot teleport-attack a target with more hits than it has";
"a ship may make 1 teleport attack a turn, resolved as a hit-and-run attack".

Our readings: "without shields" is every shield down (none up); "hits" are the
hits remaining now, on both sides. The target is a ship ("вражеского корабля"),
never a defence, though a defence with hits to spare may make the attack.
"""

from __future__ import annotations

from engine.actions import Action
from engine.ruleset import RuleContext

from . import hitrun
from .catalogue import CATALOGUE, TARGET_PARAM, VESSEL_PARAM, why_no_vessel, why_phase
from .tables import Tables
from .units import crippled, distance, vessel

#: "на расстоянии не более 10 см"
TELEPORT_CM = 10


def why_attacker(state: dict, uid: str, tables: Tables) -> str:
    """Why this ship or defence may not make a teleport attack now, whatever the target."""
    why = why_no_vessel(state, uid)
    if why:
        return why
    v = vessel(state, uid)
    if v["teleported"]:
        return f"{v['name']} has made its teleport attack this turn (one a turn)"
    if v["orders"]:
        order = tables.orders.get(v["orders"], {}).get("label", v["orders"])
        return f"{v['name']} is on special orders ({order}): no teleport attack"
    if crippled(v):
        return f"{v['name']} is crippled ({v['hits']}/{v['hits_start']} hits): no teleport attack"
    if v["class"] in ("escort", "defence") and v["hits"] <= 1:
        what = "an escort" if v["class"] == "escort" else "a defence"
        return f"{v['name']} is {what} with one hit left: no teleport attack"
    return ""


def why_target(state: dict, uid: str, tid: str) -> str:
    """Why this target cannot be teleport-attacked by this attacker."""
    why = why_no_vessel(state, tid)
    if why:
        return why
    me, t = vessel(state, uid), vessel(state, tid)
    if t["side"] == me["side"]:
        return f"{t['name']} is on {me['name']}'s own side"
    if t["class"] == "defence":
        return f"{t['name']} is a defence, not a ship: teleport attacks are made against enemy ships"
    cm = distance(state, uid, tid)
    if cm is None:
        return f"no distance entered between {me['name']} and {t['name']}"
    if cm > TELEPORT_CM:
        return f"{t['name']} is {cm} cm from {me['name']}: teleporters reach {TELEPORT_CM} cm"
    if t["shields_up"]:
        return (f"{t['name']} has {t['shields_up']} of {t['shields']} shield{'s' if t['shields'] != 1 else ''} "
                f"up: teleport beams from {me['name']} need them all down")
    if t["hits"] > me["hits"]:
        return f"{t['name']} has {t['hits']} hits left, more than {me['name']}'s {me['hits']}"
    return ""


def may_teleport(state: dict, args: dict, tables: Tables) -> str:
    why = why_phase(state, 4, "Teleport attacks are made")
    if why or "vessel" not in args:
        return why
    why = why_attacker(state, args["vessel"], tables)
    if why or "target" not in args:
        return why
    return why_target(state, args["vessel"], args["target"])


def may_teleport_someone(state: dict, uid: str, tables: Tables, vessels: dict) -> bool:
    """Whether ``uid`` may teleport-attack one of ``vessels`` (those afloat) now, in the end phase, by the action's
    own checks (``may_teleport``: the attacker's, then the target's): what the end phase calls "free to
    teleport" is what the action offers. Only enemies entered within reach are asked (``why_target`` refuses the
    rest), so a fleet's checklist stays quick."""
    if why_attacker(state, uid, tables):
        return False
    for tid in vessels:
        cm = distance(state, uid, tid)  # None between allies: they have no distance kept
        if cm is not None and cm <= TELEPORT_CM and not why_target(state, uid, tid):
            return True
    return False


def teleport(state: dict, args: dict, tables: Tables, ctx: RuleContext) -> None:
    me, t = vessel(state, args["vessel"]), vessel(state, args["target"])
    me["teleported"] = True
    ctx.note(f"{me['name']} teleports boarders onto {t['name']} "
             f"({distance(state, args['vessel'], args['target'])} cm, shields down)")
    hitrun.start(state, ctx, {"target": args["target"], "source": f"teleport attack by {me['name']}"})


CATALOGUE.add(Action("teleport", "Teleport attack", teleport, key="t", may=may_teleport,
                     params=(VESSEL_PARAM, TARGET_PARAM)))
