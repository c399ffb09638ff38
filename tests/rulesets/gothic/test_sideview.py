"""The players' screen in a gothic fight: nothing at the table is hidden (our reading of
``gothic-boarding-teleport.ru.txt``: models, salvo markers, declared special orders and the dice are all
in the open), so a side sees the enemy's hits, shields, orders, criticals and salvos, and every roll."""

from __future__ import annotations

from engine.sideview import FULL, side_log

from .fleet import answer, new_fight, to_phase


def test_a_side_sees_the_table_as_it_is() -> None:
    enc = new_fight()
    enc.act("special_orders", vessel="hammer", order="lock_on")
    to_phase(enc, 2)
    enc.act("launch", vessel="hammer", kinds=["boarding"], strength=2, target="vow", distance=30)
    enc.act("shields", vessel="hammer", up=0)
    view = enc.ruleset.side_view(enc.state, "reb")
    assert set(view.own) == {"vow", "shade", "platform", "battery", "sat"}
    known = {c.uid: dict(c.known) for c in view.contacts}
    assert known["hammer"]["Shields"] == "DOWN" and known["hammer"]["Special orders"] == "Lock On"
    assert known["hammer"]["Hits"] == "8/8" and "Iron Vow 40 cm" in known["hammer"]["Distance"]
    assert known["salvo-1"] == {"Strength": "2", "Target": "Iron Vow", "Distance": "30 cm to its target"}
    to_phase(enc, 3)
    enc.act("move_salvo", salvo="salvo-1", turn=0, distance=0)
    answer(enc, "Turret fire", "5")
    assert enc.ruleset.log_seen(enc.state, "imp", "roll", {}, enc.pending) == FULL
    lines = [line for e in side_log(enc, "imp") for line in [e.headline, *e.details]]
    assert any("Turret fire: Iron Vow" in line and "typed [5]" in line for line in lines)
