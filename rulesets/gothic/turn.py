"""The turn of a gothic fight, and the game master's actions on what the table decides.

Source: ``gothic-boarding-teleport.ru.txt`` names the phases it needs: the
ordnance phase (boarding torpedoes move and turn) and the end phase (teleport
attacks). The turn is the usual four: 1 Movement (special orders declared),
2 Shooting, 3 Ordnance, 4 End phase.

The rest of the game happens on the table; the console keeps what these rules
need of it, entered by the game master: special orders (declared in the
movement phase, before the ships move, in force until the end of the turn: our
reading; the text does not say when orders come, so one declared after a
distance to its ship was entered that turn is taken with a warning), distances in
centimetres between vessels, shields knocked down or raised again, and hits
taken from shooting. At the end of a turn every ship's orders end and its
once-a-turn actions (launch, teleport, repair) are free again. A ship's empty
tubes reload with the Reload Ordnance order; a defence, which takes no orders,
reloads at the start of each turn (our reading).
"""

from __future__ import annotations

from engine.actions import Action, Choice, Param
from engine.ruleset import RuleContext, StepView

from .catalogue import (CATALOGUE, PHASES, TARGET_PARAM, VESSEL_PARAM, chosen_vessel, vessel_words, why_no_vessel,
                        why_phase)
from .ordnance import reminders
from .tables import Tables
from .units import MAX_CM, afloat, lose_hits, note_distance_entered, over_words, pair, shields_blocked, vessel


# --- special orders (movement phase) ---------------------------------------------------------------

def _ships(state: dict, args: dict, tables) -> list[Choice]:
    return [Choice(uid, vessel_words(state, uid)) for uid in afloat(state) if uid in state["ships"]]


def _orders(state: dict, args: dict, tables: Tables) -> list[Choice]:
    return [Choice(k, _order_words(state, args, tables, k)) for k in tables.orders]


def _order_words(state: dict, args: dict, tables: Tables, order: str) -> str:
    return tables.orders[order]["label"]


def may_order(state: dict, args: dict, tables: Tables) -> str:
    why = why_phase(state, 1, "Special orders are declared")
    if why or "vessel" not in args:
        return why
    uid = args["vessel"]
    if not isinstance(uid, str) or uid not in state["ships"] or state["ships"][uid]["destroyed"]:
        return f"no ship {uid!r} afloat (defences take no special orders)"
    s = state["ships"][uid]
    if s["orders"]:
        return f"{s['name']} is already on special orders ({tables.orders[s['orders']]['label']})"
    order = args.get("order")
    if order is not None and order not in tables.orders:
        return f"no special order {order!r}"
    if order is not None and tables.orders[order]["reloads"] and (not s["torpedoes"] or s["loaded"]):
        return f"{s['name']} has nothing to reload"
    return ""


def declare_order(state: dict, args: dict, tables: Tables, ctx: RuleContext) -> None:
    s = state["ships"][args["vessel"]]
    s["orders"] = args["order"]
    order = tables.orders[args["order"]]
    text = f"{s['name']} goes on special orders: {order['label']}"
    if order["reloads"]:
        s["loaded"] = True
        text += " (torpedo tubes reloaded)"
    if args["vessel"] in state["distances_entered"]:
        # the rules text does not say when orders are declared, so this is no ground to refuse: our turn has
        # them before the ships move, and the game master hears that this one came after a distance to it
        text += (f" (warning: a distance to {s['name']} was already entered this turn, and special orders are "
                 f"declared before a ship moves)")
    ctx.note(text)


# --- what the game master enters from the table ---------------------------------------------------

def may_distance(state: dict, args: dict, tables) -> str:
    if "vessel" in args:
        why = why_no_vessel(state, args["vessel"])
        if why:
            return why
    if "target" in args:
        why = why_no_vessel(state, args["target"])
        if why:
            return why
        if vessel(state, args["target"])["side"] == vessel(state, args["vessel"])["side"]:
            return "distances are kept between enemies"
    return ""


def set_distance(state: dict, args: dict, tables, ctx: RuleContext) -> None:
    a, b, cm = args["vessel"], args["target"], args["cm"]
    state["distances"][pair(a, b)] = cm
    note_distance_entered(state, a, b)
    ctx.note(f"Distance {vessel(state, a)['name']} - {vessel(state, b)['name']}: {cm} cm")


def _counts_up_to(field: str, least: int):
    """The numbers a form offers for a vessel's ``field``: from ``least`` to what the chosen vessel has."""
    def counts(state: dict, args: dict, tables) -> list[str]:
        why, v = chosen_vessel(state, args)
        return [] if why or v is None else [str(n) for n in range(least, v[field] + 1)]
    return counts


_shield_counts = _counts_up_to("shields", 0)
_hit_counts = _counts_up_to("hits", 1)


def may_shields(state: dict, args: dict, tables) -> str:
    why, v = chosen_vessel(state, args)
    if why or v is None:
        return why
    if not v["shields"]:
        return f"{v['name']} has no shields"
    up = args.get("up")
    if isinstance(up, int):
        if up > v["shields"]:
            return f"{v['name']} has {v['shields']} shields"
        blocked = shields_blocked(v)
        if up and blocked:
            return f"{v['name']}'s shields stay down until {blocked['name']} is repaired"
        if up == v["shields_up"]:
            return f"{v['name']} already has {up} shield{'s' if up != 1 else ''} up"
    return ""


def set_shields(state: dict, args: dict, tables, ctx: RuleContext) -> None:
    v = vessel(state, args["vessel"])
    v["shields_up"] = args["up"]
    state_words = "down" if not v["shields_up"] else f"{v['shields_up']} of {v['shields']} up"
    ctx.note(f"{v['name']} shields: {state_words}")


def may_hits(state: dict, args: dict, tables) -> str:
    why, v = chosen_vessel(state, args)
    if why or v is None:
        return why
    n = args.get("hits")
    if isinstance(n, int) and not 1 <= n <= v["hits"]:
        return f"{v['name']} has {v['hits']} hits left"
    return ""


def record_hits(state: dict, args: dict, tables, ctx: RuleContext) -> None:
    for text in lose_hits(state, args["vessel"], args["hits"]):
        ctx.note(text)


# --- the next phase --------------------------------------------------------------------------------

def may_next(state: dict, args: dict, tables: Tables) -> str:
    """The ordnance phase ends when every salvo has moved (``gothic-boarding-teleport.ru.txt``, first paragraph:
    "Управляемая торпеда проходит 30 см за каждую стадию ordnance", a boarding torpedo moves 30 cm each ordnance
    phase; ordinary torpedoes at their speed); the other phases' reminders are the game master's to skip."""
    if over_words(state):
        return "the fight is over"
    left = reminders(state, tables)
    return f"the ordnance phase still needs: {'; '.join(left)}" if left else ""


def next_phase(state: dict, args: dict, tables, ctx: RuleContext) -> None:
    if state["phase"] == 3:
        for o in state["ordnance"].values():
            o["moved"] = False
    if state["phase"] < len(PHASES):
        state["phase"] += 1
        return
    state["turn"] += 1
    state["phase"] = 1
    for v in state["ships"].values():
        v["orders"] = ""
    state["distances_entered"] = []
    for key in ("ships", "defences"):
        for v in state[key].values():
            v["teleported"] = v["repair_tried"] = v["launched"] = False
    for v in state["defences"].values():  # defences take no special orders: their tubes reload each turn
        v["loaded"] = v["torpedoes"] > 0 and not v["destroyed"]
    ctx.note(f"Turn {state['turn']} begins: special orders end")


def needs(state: dict, phase: int, tables: Tables) -> str:
    """What the current phase still asks of the game master ("the fight is over" once one side alone is left)."""
    if over_words(state):
        return "the fight is over"
    if phase == 1:
        moved = "; salvos' distances to targets that moved (a)" if state["ordnance"] else ""
        return f"declare special orders (o) before moving; enter distances (d) after{moved}"
    if phase == 2:
        loaded = [v["name"] for v in afloat(state).values() if v["loaded"] and not v["launched"]]
        text = "record hits (h) and shields knocked down (s)"
        return text + (f"; may launch (l): {', '.join(loaded)}" if loaded else "")
    if phase == 3:
        left = reminders(state, tables)
        return "; ".join(left) if left else "nothing left: every salvo has moved (n: the next phase)"
    from .teleport import TELEPORT_CM, may_teleport_someone  # teleport's rules import this module's actions' parameters
    vessels = afloat(state)
    free = [v["name"] for uid, v in vessels.items() if may_teleport_someone(state, uid, tables, vessels)]
    # who may still try a repair: one try a turn, of a critical that can be repaired (``hitrun.may_repair``)
    mending = [v["name"] for v in vessels.values() if not v["repair_tried"] and any(c["repairable"] for c in v["criticals"])]
    return (f"teleport attacks (t) within {TELEPORT_CM} cm of enemies with shields down"
            + (f"; free to teleport: {', '.join(free)}" if free else "")
            + (f"; repair criticals (r): {', '.join(mending)}" if mending else ""))


def checklist(state: dict, tables: Tables) -> list[StepView]:
    out = []
    for number, label in PHASES:
        status = "done" if number < state["phase"] else ("current" if number == state["phase"] else "todo")
        out.append(StepView(number, label, status, needs(state, number, tables) if status == "current" else ""))
    return out


for _action in (
    Action("special_orders", "Special orders", declare_order, key="o", may=may_order, params=(
        Param("vessel", "Ship", "choice", options=_ships),
        Param("order", "Order", "choice", options=_orders, words=_order_words))),
    Action("set_distance", "Distance", set_distance, key="d", may=may_distance, params=(
        VESSEL_PARAM, TARGET_PARAM, Param("cm", "Distance (cm)", "int", minimum=0, maximum=MAX_CM,
                                              said="distance {} cm"))),
    Action("shields", "Shields up", set_shields, key="s", may=may_shields, params=(
        VESSEL_PARAM, Param("up", "Shields up now (0 = down)", "int", options=_shield_counts, minimum=0,
                            said="shields up {}"))),
    Action("record_hits", "Record hits", record_hits, key="h", may=may_hits, params=(
        VESSEL_PARAM, Param("hits", "Hits lost", "int", options=_hit_counts, minimum=1))),
    Action("next", "Next phase", next_phase, key="n", may=may_next),
):
    CATALOGUE.add(_action)
