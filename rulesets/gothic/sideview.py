"""What one side knows in a gothic fight: the players' screen (``flagbridge watch``).

The rules text (``gothic-boarding-teleport.ru.txt``) has no hidden information:
models, salvo markers and distances are on the table, special orders are
declared, shields going down and criticals are marked beside the models, and
the dice (turret fire, to-hit, hit-and-run, the critical hits table, repair)
are rolled where both players see them. Our reading: a side sees every enemy
ship, defence and salvo as the table shows it, and the whole log; only a
game master's correction to another side's unit stays the referee's (the
engine's default).
"""

from __future__ import annotations

from engine.sideview import Contact, SideView, own_units, seen_in_the_open, side_name

from .units import CLASS_WORDS, afloat, crippled, pair, vessels
from .views import distance_lines


def side_view(ruleset, state: dict, side: str) -> SideView:
    tables = ruleset.tables_for(state)
    own = own_units(ruleset, state, side)
    contacts = []
    for uid, v in vessels(state).items():
        if v["side"] == side:
            continue
        if v["destroyed"]:
            contacts.append(Contact(uid, v["name"], (("State", "destroyed"),)))
            continue
        shields = "none" if not v["shields"] else ("DOWN" if not v["shields_up"] else f"{v['shields_up']} of {v['shields']} up")
        order = tables.orders.get(v["orders"], {}).get("label", v["orders"]) if v["orders"] else "none"
        near = [f"{u['name']} {cm} cm" for o, u in afloat(state).items()  # none to a destroyed vessel of ours
                if o in own and (cm := state["distances"].get(pair(uid, o))) is not None]
        contacts.append(Contact(uid, v["name"], (
            ("Class", CLASS_WORDS[v["class"]] + (f", {v['class_name']}" if v["class_name"] else "")),
            ("Hits", f"{v['hits']}/{v['hits_start']}" + (" CRIPPLED" if crippled(v) else "")),
            ("Shields", shields),
            ("Special orders", order),
            ("Criticals", ", ".join(c["name"] for c in v["criticals"]) or "none"),
            ("Distance", "; ".join(near) or "-"),
        )))
    for sid, o in state["ordnance"].items():
        if o["side"] != side:
            target = vessels(state)[o["target"]]["name"]
            contacts.append(Contact(sid, o["name"], (("Strength", str(o["strength"])), ("Target", target),
                                                     ("Distance", f"{o['distance']} cm to its target"))))
    return SideView(side, side_name(state, side), own, tuple(contacts), tuple(distance_lines(state)))


log_seen = seen_in_the_open  # every action and roll is made in the open
