"""A salvo that comes into base contact with a stand other than its target's, on its move in the ordnance phase.

``gothic-boarding-teleport.ru.txt``, first paragraph: "Если управляемые торпеды перемещаются в базовый контакт с
подставкой, по ним могут произвести стрельбу турелли. Для не сбитых торпед необходимо бросить кубики на
попадание (т. е. всё как у обычных торпед), но каждая попавшая торпеда наносит не повреждение, а hit-and-run
атаку." The stand is any stand the torpedoes move into, not only the one they were aimed at: that vessel's
turrets fire, and the survivors roll to hit that vessel. Whose stand: the assault teams "высаживаются внутрь
корабля противника" (land inside the enemy's ship), so only an enemy's.

The fleet is ``fleet.py``'s: Hammer (6 tubes, boarding torpedoes) and Divine Right (4 tubes) against Iron Vow
(2 turrets), Shade (escort, 1 hit, 1 turret, 1 shield, armour 5) and Kessel Battery (defence: 4 hits, 1 shield,
armour 6, 2 turrets). Turret fire (4+) and to-hit by armour (5: 5+, 6: 6+) are our shipped defaults
(``tables/ordnance.toml``); the hit-and-run's 2+ is the text's.
"""

from __future__ import annotations

from .fleet import answer, new_fight, notes, refused, to_phase, unit


def in_ordnance_phase(kind: str = "boarding", launcher: str = "hammer", strength: int = 2) -> tuple:
    """``launcher``'s salvo aimed at Iron Vow 30 cm off, in the ordnance phase, not yet moved; the rebels' other
    stands 20 cm from ``launcher``, within the first move of a salvo placed beside it."""
    enc = new_fight()
    enc.act("set_distance", vessel=launcher, target="vow", cm=30)
    for stand in ("shade", "platform", "battery", "sat"):
        enc.act("set_distance", vessel=launcher, target=stand, cm=20)
    to_phase(enc, 2)
    enc.act("launch", vessel=launcher, kinds=[kind], strength=strength, target="vow", distance=30)
    enc.act("next")
    return enc, f"salvo-{enc.state['next_salvo']}"


def test_a_boarding_salvo_meeting_another_enemy_stand_is_fired_on_by_its_turrets_and_boards_it() -> None:
    """"перемещаются в базовый контакт с подставкой, по ним могут произвести стрельбу турелли": Hammer's 2
    boarding torpedoes aimed at Iron Vow come into base contact with Shade's stand on the way. Shade's 1 turret
    fires (not Iron Vow's 2); the 2 survivors roll to hit Shade (armour 5: 5+); the first hits, and its
    hit-and-run on Shade (2+) rolls a 2: Shade, an escort, is destroyed by the critical. Iron Vow is untouched,
    and the salvo is spent by its attack."""
    enc, sid = in_ordnance_phase()
    start = len(enc.events)
    enc.act("meet_stand", salvo=sid, turn=20, stand="shade")
    assert sid not in enc.state["ordnance"]
    answer(enc, "Turret fire: Shade at Boarding torpedoes 2 from Hammer (1 turret to fire)", "3", target="4+")
    answer(enc, "Torpedo to hit Shade (armour 5, 2 to roll)", "5", target="5+")
    answer(enc, "Hit-and-run on Shade (boarding torpedo from Hammer)", "2", target="2+")
    assert enc.pending is None
    assert unit(enc, "shade")["destroyed"]
    assert notes(enc, start)[-1] == ("Boarding torpedoes 2 from Hammer: Shade, the stand it met, is destroyed; the rest "
                                     "of the salvo is spent")
    vow = unit(enc, "vow")
    assert (vow["hits"], vow["shields_up"], vow["criticals"]) == (8, 2, [])
    log = notes(enc, start)
    assert log[0] == ("Boarding torpedoes 2 from Hammer turns 20° and comes into base contact with Shade on its "
                      "way to Iron Vow (30 cm from it before the move)")
    assert "Boarding torpedoes 2 from Hammer in base contact with Shade: 1 turret fires at 2 torpedoes" in log


def test_an_ordinary_salvo_meeting_a_defence_rolls_against_the_defences_turrets_and_armour() -> None:
    """"(т. е. всё как у обычных торпед)": the boarding torpedo's contact is the ordinary torpedo's, so an ordinary
    salvo meets a stand the same way. Divine Right's 2 torpedoes aimed at Iron Vow meet Kessel Battery (a
    defence's stand): the battery's 2 turrets fire (one destroys a torpedo), the survivor needs 6+ for armour 6,
    and its hit knocks down the battery's one shield."""
    enc, sid = in_ordnance_phase("torpedoes", "right")
    enc.act("meet_stand", salvo=sid, turn=0, stand="battery")
    answer(enc, "Turret fire: Kessel Battery at Torpedoes 2 from Divine Right (2 turrets to fire)", "4", target="4+")
    answer(enc, "Turret fire: Kessel Battery at Torpedoes 2 from Divine Right (1 turret to fire)", "1", target="4+")
    answer(enc, "Torpedo to hit Kessel Battery (armour 6, 1 to roll)", "6", target="6+")
    assert enc.pending is None
    assert (unit(enc, "battery")["shields_up"], unit(enc, "battery")["hits"]) == (0, 4)
    assert unit(enc, "vow")["shields_up"] == 2


def test_only_an_enemy_stand_other_than_the_target_is_offered() -> None:
    """The assault teams land "внутрь корабля противника": the stands offered are the enemy's, afloat, and not the
    salvo's own target (its contact is the move to 0 cm, m). Hammer's own side (Divine Right, Sword, Cobra) is
    refused with the text's reason, Iron Vow with a pointer to the move, a destroyed Sentinel as no vessel."""
    enc, sid = in_ordnance_phase()
    enc.act("record_hits", vessel="sat", hits=1)  # Sentinel's 1 hit: destroyed
    offered = enc.ruleset.param_choices(enc.state, "meet_stand", "stand", {"salvo": sid, "turn": 0})
    assert [c.value for c in offered] == ["shade", "platform", "battery"]
    assert offered[0].label.startswith("Shade (escort, 1/1 hits)")
    refused(enc, "Divine Right is on the salvo's own side: boarding teams land in an enemy's ship",
            "meet_stand", salvo=sid, turn=0, stand="right")
    refused(enc, r"Iron Vow is its target: move it to 0 cm \(m\)", "meet_stand", salvo=sid, turn=0, stand="vow")
    refused(enc, "no ship or defence 'sat' afloat", "meet_stand", salvo=sid, turn=0, stand="sat")


def test_a_stand_is_met_only_on_a_salvos_move_in_the_ordnance_phase() -> None:
    """"Управляемая торпеда проходит 30 см за каждую стадию ordnance ... один поворот в 45° ... в начале каждой
    стадии орднанса": the stand is met on the salvo's move, once a phase, with the move's own limits. Not in the
    shooting phase; not a second time in one phase; no turn over 45°; no turn at all for ordinary torpedoes."""
    enc = new_fight()
    enc.act("set_distance", vessel="hammer", target="vow", cm=30)
    enc.act("set_distance", vessel="right", target="vow", cm=40)
    enc.act("set_distance", vessel="hammer", target="shade", cm=20)
    enc.act("set_distance", vessel="right", target="shade", cm=20)
    to_phase(enc, 2)
    enc.act("launch", vessel="hammer", kinds=["boarding"], strength=2, target="vow", distance=30)
    enc.act("launch", vessel="right", kinds=["torpedoes"], strength=2, target="vow", distance=40)
    refused(enc, "Salvos move in the ordnance phase", "meet_stand", salvo="salvo-1", turn=0, stand="shade")
    assert enc.ruleset.asker(enc.state).reason(enc.ruleset.catalogue.get("meet_stand"))
    enc.act("next")
    assert not enc.ruleset.asker(enc.state).reason(enc.ruleset.catalogue.get("meet_stand"))
    refused(enc, "turns at most 45°", "meet_stand", salvo="salvo-1", turn=46, stand="shade")
    refused(enc, "only boarding torpedoes may turn", "meet_stand", salvo="salvo-2", turn=10, stand="shade")
    enc.act("move_salvo", salvo="salvo-2", turn=0, distance=10)
    refused(enc, "has moved this ordnance phase", "meet_stand", salvo="salvo-2", turn=0, stand="shade")


def test_undo_puts_the_salvo_back_in_flight_unmoved() -> None:
    """The meeting and every roll it caused go back with one undo: the salvo is in flight, 30 cm from Iron Vow,
    still to move this phase."""
    enc, sid = in_ordnance_phase()
    before = unit(enc, sid).copy()
    enc.act("meet_stand", salvo=sid, turn=0, stand="shade")
    answer(enc, "Turret fire: Shade", "6")
    enc.undo()
    assert enc.pending is None and unit(enc, sid) == before


def test_rolls_waiting_on_the_stand_met_are_dropped_when_a_correction_destroys_it() -> None:
    """The attack reads the stand met as it reads a target: Shade's hits corrected to 0 while its turret's die
    waits destroy it, and the rest of the salvo is spent with no die asked. The line names Shade: "its target"
    read as Iron Vow, the ship the salvo was launched at (found by a drive)."""
    enc, sid = in_ordnance_phase()
    enc.act("meet_stand", salvo=sid, turn=0, stand="shade")
    assert enc.pending is not None and enc.pending.purpose.startswith("Turret fire: Shade")
    event = enc.correct("ships.shade.hits", 0)
    assert enc.pending is None
    assert ("Boarding torpedoes 2 from Hammer: Shade, the stand it met, is destroyed; the rest of the salvo is spent"
            in event.notes)


def test_a_salvo_on_its_first_move_meets_only_a_stand_its_move_reaches() -> None:
    """Boarding torpedoes "are launched the way ordinary torpedoes are" and move "30 cm in each ordnance phase"
    (gothic-boarding-teleport.en.md, "Boarding torpedoes"). A salvo is placed beside the ship that launches it
    (``may_launch``), and nothing moves between the shooting and the ordnance phase, so on its first move it
    stands where its ship stands: a stand farther from that ship than the move is out of its reach (a drive met
    Kessel Platform 45 cm from Hammer with a 30 cm move). The stand a 30 cm move reaches is met; ordinary
    torpedoes move as far as the ordnance table says (ours: 30 cm)."""
    enc, sid = in_ordnance_phase()
    enc.act("set_distance", vessel="hammer", target="platform", cm=45)
    refused(enc, "Kessel Platform is 45 cm from Hammer, which launched Boarding torpedoes 2 from Hammer this turn: "
                 "its 30 cm move cannot reach it", "meet_stand", salvo=sid, turn=0, stand="platform")
    offered = enc.ruleset.param_choices(enc.state, "meet_stand", "stand", {"salvo": sid, "turn": 0})
    assert [c.value for c in offered] == ["shade", "battery", "sat"]
    enc.act("set_distance", vessel="hammer", target="platform", cm=30)
    enc.act("meet_stand", salvo=sid, turn=0, stand="platform")
    assert enc.pending is not None and enc.pending.purpose.startswith("Turret fire: Kessel Platform")


def test_a_salvo_that_has_moved_before_meets_a_stand_the_table_says_it_reaches() -> None:
    """After its first move the salvo is no longer beside its ship, and only its distance to its target is kept:
    how far another stand is, is the table's to see, and any enemy stand may be met."""
    enc, sid = in_ordnance_phase()
    enc.act("move_salvo", salvo=sid, turn=0, distance=10)
    to_phase(enc, 1)
    enc.act("set_distance", vessel="hammer", target="platform", cm=90)
    to_phase(enc, 3)
    enc.act("meet_stand", salvo=sid, turn=0, stand="platform")
    assert enc.pending is not None and enc.pending.purpose.startswith("Turret fire: Kessel Platform")


def test_a_salvo_with_no_stand_in_its_first_moves_reach_says_why() -> None:
    """Pressing b with every other enemy stand out of a first move's reach said only "no salvo can be chosen now"
    (found by a drive): the salvo is refused with the reason and the way to say otherwise, a distance entered."""
    enc = new_fight()  # every enemy 40 cm from every ship
    enc.act("set_distance", vessel="hammer", target="vow", cm=30)
    to_phase(enc, 2)
    enc.act("launch", vessel="hammer", kinds=["boarding"], strength=2, target="vow", distance=30)
    enc.act("next")
    reason = enc.ruleset.asker(enc.state).reason(enc.ruleset.catalogue.get("meet_stand"))
    assert reason == ("no salvo can be chosen now: Boarding torpedoes 2 from Hammer stands beside Hammer on its "
                      "first move, and no enemy stand but its target is within its 30 cm move of it (d enters a "
                      "distance)")
    enc.act("set_distance", vessel="hammer", target="shade", cm=30)
    assert enc.ruleset.asker(enc.state).reason(enc.ruleset.catalogue.get("meet_stand")) == ""
