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


def test_a_destroyed_vessel_shows_no_distances() -> None:
    """Found by a game master's drive: the Criticals and distances panel and an enemy's Distance line kept the
    distances to and from a destroyed vessel. A destroyed vessel leaves the table (the state may keep its
    distances); the screens leave it out."""
    enc = new_fight()
    to_phase(enc, 2)
    enc.act("record_hits", vessel="shade", hits=1)  # an escort of one hit: destroyed
    assert enc.state["ships"]["shade"]["destroyed"]
    ships = next(k for k in enc.ruleset.unit_kinds if k.key == "ships")
    gone = enc.ruleset.unit_panels(enc.state, ships, "shade")["Criticals and distances"]
    assert [label for label, _ in gone] == ["Criticals"]
    hammer = dict(enc.ruleset.unit_panels(enc.state, ships, "hammer")["Criticals and distances"])
    assert "to Shade" not in hammer and hammer["to Iron Vow"] == "40 cm"
    known = {c.uid: dict(c.known) for c in enc.ruleset.side_view(enc.state, "reb").contacts}
    assert "Shade" not in known["hammer"]["Distance"] and "Iron Vow 40 cm" in known["hammer"]["Distance"]
