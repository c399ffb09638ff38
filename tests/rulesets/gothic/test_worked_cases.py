"""Worked cases from the rules text, paragraph by paragraph, with every expected number worked out by hand from
``gothic-boarding-teleport.ru.txt`` (the source; ``.en.md`` renders it). Where a case leans on a number the text
does not print (turret fire, torpedo to-hit, the critical hits table), the shipped default it uses is named.

The fleet (``fleet.py``): Hammer (capital, 8 hits, 2 shields, 2 turrets, armour 5, 6 tubes with boarding
torpedoes), Divine Right (capital, 6 hits, 4 tubes), Sword (escort, 1 hit), Cobra (escort, 2 hits) against Iron
Vow (capital, 8 hits, 2 shields, 2 turrets, armour 5), Shade (escort, 1 hit, 1 turret) and three defences:
Kessel Platform (8 hits), Kessel Battery (4 hits, 1 shield, armour 6, 2 turrets), Sentinel (1 hit)."""

from __future__ import annotations

import pytest

from engine.encounter import Encounter
from rulesets.gothic import RULESET

from .fleet import answer, make_setup, new_fight, notes, refused, to_phase, unit


def launch(enc, vessel: str, kind: str, strength: int, target: str, cm: int) -> str:
    """``vessel`` launches ``strength`` torpedoes of ``kind`` at ``target`` ``cm`` away (the ship stands as far)."""
    enc.act("set_distance", vessel=vessel, target=target, cm=cm)
    to_phase(enc, 2)
    enc.act("launch", vessel=vessel, kinds=[kind], strength=strength, target=target, distance=cm)
    return f"salvo-{enc.state['next_salvo']}"


# --- first paragraph: boarding torpedoes -------------------------------------------------------------------------

def test_a_boarding_salvo_moves_30_cm_and_may_turn_45_degrees_in_every_ordnance_phase() -> None:
    """"Управляемая торпеда проходит 30 см за каждую стадию ordnance ... могут совершить один поворот в 45° ... в
    начале каждой стадии орднанса": launched 80 cm from Iron Vow, the salvo comes no closer than 50 cm in the first
    ordnance phase, 20 cm in the second, and reaches base contact in the third (80 - 3 x 30 < 0); it may turn 45°
    at the start of each of those phases, and never more."""
    enc = new_fight()
    sid = launch(enc, "hammer", "boarding", 6, "vow", 80)
    for phase, (nearest, after) in enumerate(((50, 50), (20, 20)), start=1):
        to_phase(enc, 3)
        assert f"(may first turn up to 45° from the marker's centre)" in \
            next(s for s in enc.checklist() if s.status == "current").needs, phase
        refused(enc, f"cannot come closer than {nearest} cm", "move_salvo", salvo=sid, turn=0, distance=nearest - 1)
        refused(enc, "turns at most 45°", "move_salvo", salvo=sid, turn=46, distance=after)
        enc.act("move_salvo", salvo=sid, turn=45, distance=after)
        assert unit(enc, sid)["distance"] == after and unit(enc, sid)["turned"] == 45
        enc.act("next")                 # to the end phase
        to_phase(enc, 1)                # the next turn
    to_phase(enc, 3)
    enc.act("move_salvo", salvo=sid, turn=45, distance=0)
    assert sid not in enc.state["ordnance"]
    answer(enc, "Turret fire: Iron Vow at Boarding torpedoes 6 from Hammer (2 turrets", "1", target="4+")


def test_a_boarding_salvo_31_cm_away_needs_a_second_ordnance_phase() -> None:
    """"проходит 30 см за каждую стадию ordnance": from 30 cm a boarding salvo reaches base contact in one phase;
    from 31 cm it ends the phase at least 1 cm short."""
    enc = new_fight()
    sid = launch(enc, "hammer", "boarding", 1, "vow", 31)
    enc.act("next")
    refused(enc, "cannot come closer than 1 cm", "move_salvo", salvo=sid, turn=0, distance=0)
    enc.act("move_salvo", salvo=sid, turn=0, distance=1)
    assert enc.pending is None and unit(enc, sid)["distance"] == 1


def test_a_boarding_salvo_is_as_strong_as_the_tubes_allow_ordinary_torpedoes() -> None:
    """"Управляемые торпеды могут быть запущены подобно обычным торпедам, но не вместе с ними": launched as ordinary
    torpedoes are, a boarding salvo is limited by the tubes as an ordinary one is. Hammer's tubes are strength 6: a
    boarding salvo of 7 is refused and one of 6 is taken; Divine Right's are strength 4: an ordinary salvo of 5 is
    refused as well."""
    enc = new_fight()
    enc.act("set_distance", vessel="hammer", target="vow", cm=30)
    enc.act("set_distance", vessel="right", target="vow", cm=30)
    to_phase(enc, 2)
    refused(enc, "Hammer's salvo strength is 1 to 6", "launch", vessel="hammer", kinds=["boarding"], strength=7,
            target="vow", distance=30)
    refused(enc, "Divine Right's salvo strength is 1 to 4", "launch", vessel="right", kinds=["torpedoes"], strength=5,
            target="vow", distance=30)
    enc.act("launch", vessel="hammer", kinds=["boarding"], strength=6, target="vow", distance=30)
    assert unit(enc, "salvo-1")["strength"] == 6 and unit(enc, "salvo-1")["kind"] == "boarding"


def test_boarding_torpedoes_roll_to_hit_as_ordinary_ones_but_a_hit_is_a_hit_and_run_not_damage() -> None:
    """"Для не сбитых торпед необходимо бросить кубики на попадание (т. е. всё как у обычных торпед), но каждая
    попавшая торпеда наносит не повреждение, а hit-and-run атаку": against Kessel Battery (armour 6) a boarding
    torpedo needs what an ordinary one needs (6+ in our shipped to-hit table, tables/ordnance.toml). The ordinary
    hit knocks down the battery's one shield (damage); the boarding hit leaves its 1 shield and 4 hits as they were
    and makes a hit-and-run attack (D6, 2+)."""
    def hit_the_battery(launcher: str, kind: str):
        """One torpedo of ``kind`` launched by ``launcher`` reaches Kessel Battery, is missed by both its turrets
        and hits on a 6."""
        fight = new_fight()
        sid = launch(fight, launcher, kind, 1, "battery", 20)
        fight.act("next")
        fight.act("move_salvo", salvo=sid, turn=0, distance=0)
        answer(fight, "Turret fire: Kessel Battery", "1", target="4+")
        answer(fight, "Turret fire: Kessel Battery", "1", target="4+")
        answer(fight, "Torpedo to hit Kessel Battery (armour 6", "6", target="6+")
        return fight

    ordinary = hit_the_battery("right", "torpedoes")
    assert ordinary.pending is None
    assert (unit(ordinary, "battery")["shields_up"], unit(ordinary, "battery")["hits"]) == (0, 4)

    boarding = hit_the_battery("hammer", "boarding")
    answer(boarding, "Hit-and-run on Kessel Battery (boarding torpedo from Hammer)", "1", target="2+")
    assert boarding.pending is None
    assert (unit(boarding, "battery")["shields_up"], unit(boarding, "battery")["hits"]) == (1, 4)


def test_a_boarding_torpedo_that_hits_an_escort_destroys_it_on_a_2() -> None:
    """First paragraph: each boarding torpedo that hits makes a hit-and-run attack; "Нанесение повреждений при
    hit-and-run атаке": 2 or more is a critical, and "эскортный корабль, получивший критическое повреждение,
    автоматически разрушен". A salvo of 3 at Shade (escort, 1 turret): the turret misses, the first torpedo hits
    (armour 5: 5+ in our shipped table), its hit-and-run rolls a 2, Shade is destroyed, and the other 2 torpedoes
    roll nothing."""
    enc = new_fight()
    sid = launch(enc, "hammer", "boarding", 3, "shade", 25)
    enc.act("next")
    start = len(enc.events)
    enc.act("move_salvo", salvo=sid, turn=0, distance=0)
    answer(enc, "Turret fire: Shade", "3", target="4+")
    answer(enc, "Torpedo to hit Shade (armour 5, 3 to roll)", "5", target="5+")
    answer(enc, "Hit-and-run on Shade (boarding torpedo from Hammer)", "2", target="2+")
    assert enc.pending is None
    assert unit(enc, "shade")["destroyed"]
    assert "Shade is destroyed (an escort that suffers a critical is destroyed)" in " ".join(notes(enc, start))


# --- second paragraph: teleport attacks --------------------------------------------------------------------------

def vow_in_reach(enc, cm: int = 8) -> None:
    """Iron Vow with its shields down and 6 hits left (so Hammer's 8 are not fewer), ``cm`` from Hammer, in the
    end phase."""
    enc.act("shields", vessel="vow", up=0)
    enc.act("record_hits", vessel="vow", hits=2)
    enc.act("set_distance", vessel="hammer", target="vow", cm=cm)
    to_phase(enc, 4)


def test_one_teleport_attack_a_turn_and_one_again_the_next_turn() -> None:
    """"Корабль может совершать 1 телепортационную атаку за ход": Hammer's second attack in turn 1 is refused;
    in turn 2's end phase it may make one again."""
    enc = new_fight()
    vow_in_reach(enc)
    enc.act("teleport", vessel="hammer", target="vow")
    answer(enc, "Hit-and-run on Iron Vow (teleport attack by Hammer)", "1", target="2+")
    refused(enc, r"one a turn", "teleport", vessel="hammer", target="vow")
    to_phase(enc, 1)
    assert enc.state["turn"] == 2
    to_phase(enc, 4)
    enc.act("teleport", vessel="hammer", target="vow")
    answer(enc, "Hit-and-run on Iron Vow (teleport attack by Hammer)", "1", target="2+")


def test_an_escort_or_defence_brought_down_to_its_last_hit_may_not_teleport() -> None:
    """"Эскортные корабли и защитные сооружения (defences) с одним оставшимся хитом не могут совершать подобных
    атак": the hit is the one *left* (оставшимся). Cobra (escort, 2 hits) may teleport onto Shade (1 hit, shields
    down, 5 cm); once it has lost 1 and has 1 left, it may not. Kessel Platform (8 hits) brought down to 2 may
    teleport onto Sword (1 hit); brought down to 1, it may not."""
    enc = new_fight()
    enc.act("shields", vessel="shade", up=0)
    enc.act("shields", vessel="sword", up=0)
    enc.act("set_distance", vessel="cobra", target="shade", cm=5)
    enc.act("set_distance", vessel="platform", target="sword", cm=5)
    enc.act("record_hits", vessel="platform", hits=6)          # 2 of 8 left
    to_phase(enc, 4)
    enc.ruleset.check_action(enc.state, "teleport", {"vessel": "cobra", "target": "shade"})  # allowed: no refusal
    enc.ruleset.check_action(enc.state, "teleport", {"vessel": "platform", "target": "sword"})  # allowed: no refusal
    enc.act("record_hits", vessel="cobra", hits=1)             # 1 of 2 left
    enc.act("record_hits", vessel="platform", hits=1)          # 1 of 8 left
    refused(enc, "Cobra is an escort with one hit left", "teleport", vessel="cobra", target="shade")
    refused(enc, "Kessel Platform is a defence with one hit left", "teleport", vessel="platform", target="sword")


def test_a_target_with_no_shields_at_all_may_be_teleport_attacked() -> None:
    """"против вражеского корабля ... не имеющего энергетических щитов": a ship that carries no shields has none
    up, so Hammer may teleport onto it at 10 cm without any shield being knocked down first."""
    setup = make_setup()
    setup.units["ships"]["shade"]["shields"] = 0
    enc = Encounter(setup, RULESET)
    enc.act("set_distance", vessel="hammer", target="shade", cm=10)
    to_phase(enc, 4)
    enc.act("teleport", vessel="hammer", target="shade")
    answer(enc, "Hit-and-run on Shade (teleport attack by Hammer)", "1", target="2+")


def test_a_target_one_hit_stronger_is_refused_and_an_equal_one_is_not() -> None:
    """"корабль не может совершить атаку через телепортатор против цели, у которой больше хитов, чем у него"
    (README's reading: the hits left now): Hammer at 6 hits may not teleport onto Iron Vow at 7, and may at 6."""
    enc = new_fight()
    enc.act("record_hits", vessel="hammer", hits=2)            # 6 of 8
    enc.act("record_hits", vessel="vow", hits=1)               # 7 of 8
    enc.act("shields", vessel="vow", up=0)
    enc.act("set_distance", vessel="hammer", target="vow", cm=3)
    to_phase(enc, 4)
    refused(enc, "Iron Vow has 7 hits left, more than Hammer's 6", "teleport", vessel="hammer", target="vow")
    to_phase(enc, 1)
    enc.act("record_hits", vessel="vow", hits=1)               # 6 of 8
    to_phase(enc, 4)
    enc.ruleset.check_action(enc.state, "teleport", {"vessel": "hammer", "target": "vow"})  # allowed: no refusal


# --- third paragraph: resolving a hit-and-run attack -------------------------------------------------------------

@pytest.mark.parametrize("face", [1, 2, 3, 4, 5, 6])
def test_a_hit_and_run_fails_on_a_1_and_rolls_on_the_critical_hits_table_on_2_or_more(face: int) -> None:
    """"Для этого просто бросают D6. При выпадении 1 - атака потерпела неудачу, на 2 или больше - сверяетесь по
    таблице критических попаданий": one D6 whose target is 2+; a 1 asks nothing more, 2 to 6 each ask the critical
    hits table (2D6, README's reading)."""
    enc = new_fight()
    vow_in_reach(enc)
    enc.act("teleport", vessel="hammer", target="vow")
    req = answer(enc, "Hit-and-run on Iron Vow", str(face), target="2+")
    assert req.dice == "D6"
    if face == 1:
        assert enc.pending is None and unit(enc, "vow")["criticals"] == []
    else:
        assert enc.pending is not None and enc.pending.purpose == "Critical hit on Iron Vow"
        assert enc.pending.dice == "2D6"


def test_a_critical_from_a_hit_and_run_is_applied_at_once() -> None:
    """"сверяетесь по таблице критических попаданий и применяете результат немедленно": Iron Vow at 6 of 8 hits
    rolls 12 on our shipped table (tables/criticals.toml: Bulkheads give way, 2 extra hits); it is at 4 of 8 before
    anything else happens, and crippled (half its starting hits)."""
    enc = new_fight()
    vow_in_reach(enc)
    start = len(enc.events)
    enc.act("teleport", vessel="hammer", target="vow")
    answer(enc, "Hit-and-run on Iron Vow", "2", target="2+")
    answer(enc, "Critical hit on Iron Vow", "6 6")
    assert unit(enc, "vow")["hits"] == 4
    log = notes(enc, start)
    assert "Iron Vow loses 2 hits: 4/8 left" in log
    assert "Iron Vow is crippled (half its starting hits or fewer)" in log


# --- fourth paragraph: planetary defences ------------------------------------------------------------------------

def test_planetary_defences_belong_to_one_player_alone() -> None:
    """"ПЛАНЕТАРНАЯ ЗАЩИТА": "одному из игроков будет позволяться выбрать планетарную защиту как часть его сил и
    оборонять планету против нападающего вражеского флота": one of the players, the one defending the planet,
    takes the defences; the other is the attacking fleet. A setup giving the Imperial side a satellite beside the
    rebels' three defences is refused with one line naming the field; moving a defence to the other side by a
    correction is refused too, and a correction that keeps it with the rest is taken."""
    from engine.errors import BadTable, FlagbridgeError

    setup = make_setup()
    setup.units["defences"]["orbital"] = {"side": "imp", "name": "Watcher", "type": "armed_satellite"}
    with pytest.raises(BadTable, match=r"^setup\.defences\.orbital: side must be reb \(Rebels\) \(planetary defences "
                                       r"are one side's"):
        Encounter(setup, RULESET)
    enc = new_fight()
    with pytest.raises(FlagbridgeError, match="planetary defences are one side's"):
        enc.correct("defences.sat.side", "imp")
    assert unit(enc, "sat")["side"] == "reb"
    enc.correct("defences.sat.side", "reb")   # the same side: nothing is split



def test_a_defence_ticked_for_a_second_side_is_refused_in_the_sides_names() -> None:
    """The same rule ("ПЛАНЕТАРНАЯ ЗАЩИТА": "одному из игроков", the one defending the planet) as the new-encounter
    screen asks it while each side's units are ticked: a defence after another side's defences is refused in words
    naming both sides; one on the same side, a ship, or the first defence of all is taken."""
    kinds = RULESET.catalogue.unit_kinds
    ship, defence = kinds["ship"], kinds["defence"]
    names = {"imp": "Imperium", "reb": "Rebels"}
    fielded = [(ship, {"side": "imp", "name": "Hammer"}), (defence, {"side": "reb", "name": "Kessel Battery"})]
    assert RULESET.why_not_fielded(defence, {"side": "imp", "name": "Watcher"}, fielded, names) == (
        "Watcher cannot defend for Imperium: planetary defences are one side's, the side defending the planet, "
        "and Rebels has them already")
    assert RULESET.why_not_fielded(defence, {"side": "reb", "name": "Watcher"}, fielded, names) == ""
    assert RULESET.why_not_fielded(ship, {"side": "imp", "name": "Cobra"}, fielded, names) == ""
    assert RULESET.why_not_fielded(defence, {"side": "imp", "name": "Watcher"}, fielded[:1], names) == ""