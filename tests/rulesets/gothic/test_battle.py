"""A scripted gothic battle, every die typed: boarding torpedoes, teleport attacks, hit-and-run, repair,
planetary defences. Each test cites ``gothic-boarding-teleport.ru.txt`` (the source) by its paragraph;
the English rendering beside it (``.en.md``) has the same sections."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import BadTable, IllegalAction
from engine.saves import SaveFile, create
from tests.rulesets.scripted import saved_and_continued

from .fleet import answer, new_fight, notes, refused, to_phase, unit

RULES = "gothic-boarding-teleport.ru.txt"


def launch_boarding(enc, strength=6, distance=50, target="vow", vessel="hammer") -> str:
    enc.act("set_distance", vessel=vessel, target=target, cm=distance)  # the salvo starts beside its ship
    to_phase(enc, 2)
    enc.act("launch", vessel=vessel, kinds=["boarding"], strength=strength, target=target, distance=distance)
    return f"salvo-{enc.state['next_salvo']}"


# --- boarding torpedoes --------------------------------------------------------------------------------

def test_a_salvo_starts_no_farther_from_its_target_than_the_ship_that_launches_it() -> None:
    """Found by a game master's drive: a salvo launched 100 cm from a target the ship stood 5 cm from was taken.
    Launched "like ordinary torpedoes", a salvo is placed touching its ship (ours: no farther than the ship)."""
    enc = new_fight()
    enc.act("set_distance", vessel="hammer", target="vow", cm=5)
    to_phase(enc, 2)
    refused(enc, "Iron Vow is 5 cm from Hammer: a salvo launched at it starts at most 5 cm away", "launch",
            vessel="hammer", kinds=["boarding"], strength=6, target="vow", distance=100)
    enc.act("launch", vessel="hammer", kinds=["boarding"], strength=6, target="vow", distance=5)
    touching = new_fight()  # in base contact (0 cm) a salvo is launched at the form's least distance, 1 cm
    touching.act("set_distance", vessel="hammer", target="vow", cm=0)
    to_phase(touching, 2)
    touching.act("launch", vessel="hammer", kinds=["boarding"], strength=6, target="vow", distance=1)


def test_a_salvo_never_takes_the_id_of_a_vessel() -> None:
    """Found by a helper: a ship named "Salvo 1" is filed as ``salvo-1``, the id the first salvo took too, so
    the salvo's orders found the ship. A salvo's number skips an id a vessel holds."""
    from dataclasses import replace

    from engine.encounter import Encounter
    from rulesets.gothic import RULESET

    from .fleet import make_setup

    setup = make_setup()
    ships = dict(setup.units["ships"])
    ships["salvo-1"] = dict(ships.pop("shade"), name="Salvo 1")
    enc = Encounter(replace(setup, units={**setup.units, "ships": ships}), RULESET)
    sid = launch_boarding(enc)
    assert sid == "salvo-2" and set(enc.state["ordnance"]) == {"salvo-2"}
    assert enc.state["ships"]["salvo-1"]["name"] == "Salvo 1"

def test_boarding_and_ordinary_torpedoes_never_share_a_salvo() -> None:
    """Boarding torpedoes (first paragraph): "may be launched like ordinary torpedoes, but not together with them"."""
    enc = new_fight()
    to_phase(enc, 2)
    refused(enc, "never launched in the same salvo", "launch", vessel="hammer", kinds=["torpedoes", "boarding"],
            strength=6, target="vow", distance=30)
    _value, why = enc.ruleset.check_answer(enc.state, "launch", "kinds", ["torpedoes", "boarding"], {"vessel": "hammer"})
    # the form says so where the boxes are ticked, with the reason a salvo holds one kind
    assert why == ("a salvo carries one kind of torpedo: boarding torpedoes are never launched in the same salvo "
                   "as ordinary torpedoes")
    refused(enc, "carries no boarding torpedoes", "launch", vessel="right", kinds=["boarding"], strength=4,
            target="vow", distance=30)
    enc.act("launch", vessel="right", kinds=["torpedoes"], strength=4, target="vow", distance=30)
    refused(enc, "has launched a salvo this turn", "launch", vessel="right", kinds=["torpedoes"], strength=4,
            target="vow", distance=30)
    to_phase(enc, 1)  # turn 2: the tubes are empty until the Reload Ordnance order (our shipped orders table)
    enc.act("next")
    refused(enc, "tubes are empty", "launch", vessel="right", kinds=["torpedoes"], strength=4, target="vow",
            distance=30)
    to_phase(enc, 1)
    enc.act("special_orders", vessel="right", order="reload_ordnance")
    assert unit(enc, "right")["loaded"]


def test_boarding_torpedoes_move_30_cm_and_turn_up_to_45_degrees() -> None:
    """Boarding torpedoes (first paragraph): "moves 30 cm each ordnance phase"; "may make one turn of up to 45°
    (measured from the centre of the marker) at the start of each ordnance phase"; the checklist reminds."""
    enc = new_fight()
    sid = launch_boarding(enc, distance=50)
    refused(enc, "Salvos move in the ordnance phase", "move_salvo", salvo=sid, turn=0, distance=20)
    enc.act("next")
    current = next(s for s in enc.checklist() if s.status == "current")
    assert current.label == "Ordnance"
    assert "move Boarding torpedoes 6 from Hammer 30 cm (may first turn up to 45° from the marker's centre)" \
        in current.needs
    # "moves 30 cm each ordnance phase": the phase does not end with a salvo left where it was
    refused(enc, "the ordnance phase still needs: move Boarding torpedoes 6 from Hammer 30 cm", "next")
    refused(enc, "turns at most 45°", "move_salvo", salvo=sid, turn=46, distance=20)
    refused(enc, "cannot come closer than 20 cm", "move_salvo", salvo=sid, turn=0, distance=19)
    enc.act("move_salvo", salvo=sid, turn=45, distance=20)
    assert unit(enc, sid)["distance"] == 20 and unit(enc, sid)["turned"] == 45
    assert "Boarding torpedoes 6 from Hammer turns 45° and closes 30 cm on Iron Vow: 20 cm away now (was 50 cm)" \
        in notes(enc)
    refused(enc, "has moved this ordnance phase", "move_salvo", salvo=sid, turn=0, distance=0)
    assert next(s for s in enc.checklist() if s.status == "current").needs == "nothing left: every salvo has moved (n: the next phase)"
    enc.act("next")
    assert enc.state["phase"] == 4


def test_two_salvos_of_one_name_are_told_apart_by_their_targets() -> None:
    """Found by a game master's drive: a defence's tubes reload each turn, so Kessel Platform launched
    "Torpedoes 4 from Kessel Platform" at Hammer in turn 1 and a salvo of the same name at Sword in turn 2; the
    ordnance phase's reminder ("each ordnance phase", first paragraph: every salvo moves) and the move's log line
    could not tell them apart. Names stay as they are (older saves replay to them): the words add the target."""
    enc = new_fight()
    to_phase(enc, 2)
    enc.act("launch", vessel="platform", kinds=["torpedoes"], strength=4, target="hammer", distance=30)
    first = f"salvo-{enc.state['next_salvo']}"
    enc.act("next")
    assert next(s for s in enc.checklist() if s.status == "current").needs == \
        "move Torpedoes 4 from Kessel Platform 30 cm"  # one salvo of the name: nothing to tell apart
    to_phase(enc, 2)
    enc.act("launch", vessel="platform", kinds=["torpedoes"], strength=4, target="sword", distance=30)
    second = f"salvo-{enc.state['next_salvo']}"
    assert unit(enc, first)["name"] == unit(enc, second)["name"] == "Torpedoes 4 from Kessel Platform"
    enc.act("next")
    needs = next(s for s in enc.checklist() if s.status == "current").needs
    assert needs == ("move Torpedoes 4 from Kessel Platform -> Hammer 30 cm; "
                     "move Torpedoes 4 from Kessel Platform -> Sword 30 cm")
    labels = {c.value: c.label for c in enc.ruleset.param_choices(enc.state, "move_salvo", "salvo", {})}
    assert labels[first].startswith("Torpedoes 4 from Kessel Platform -> Hammer")
    assert labels[second].startswith("Torpedoes 4 from Kessel Platform -> Sword")
    enc.act("move_salvo", salvo=second, turn=0, distance=20)
    assert enc.describe(enc.events[-1]) == \
        "move salvo: salvo Torpedoes 4 from Kessel Platform -> Sword · turn first 0° · distance after the move 20 cm"


def test_a_salvo_move_says_in_plain_words_how_far_it_went() -> None:
    """The log says the distance a salvo covered, not its most (a drive read "moves 30 cm: 8 -> 0" for a salvo
    that went 8 cm into base contact); a target drawn away is said to be farther."""
    enc = new_fight()
    near = launch_boarding(enc, strength=1, distance=8)
    enc.act("next")
    enc.act("move_salvo", salvo=near, turn=0, distance=0)
    assert "Boarding torpedoes 1 from Hammer closes 8 cm on Iron Vow and reaches base contact" in notes(enc)
    gone = new_fight()
    sid = launch_boarding(gone, strength=1, distance=20)
    gone.act("next")
    gone.act("move_salvo", salvo=sid, turn=10, distance=25)
    assert ("Boarding torpedoes 1 from Hammer turns 10° and ends its move 25 cm from Iron Vow, 5 cm farther than "
            "before (was 20 cm)") in notes(gone)
    to_phase(gone, 1)
    gone.act("salvo_distance", salvo=sid, distance=12)
    assert "Boarding torpedoes 1 from Hammer is now 12 cm from Iron Vow (was 25 cm)" in notes(gone)


def test_undo_and_redo_name_a_salvo_the_same_way() -> None:
    """The lines for an undone and a redone action name a salvo by its name, even once the salvo is spent (a
    drive saw its id after a redo and its name after an undo)."""
    enc = new_fight()
    sid = launch_boarding(enc, strength=1, distance=8)
    enc.act("next")
    enc.act("move_salvo", salvo=sid, turn=0, distance=0)
    answer(enc, "Turret fire: Iron Vow", "4", target="4+")
    said = enc.describe(enc.events[-2])
    assert said == "move salvo: salvo Boarding torpedoes 1 from Hammer · turn first 0° · distance after the move 0 cm"
    undone = enc.undo()
    assert enc.describe(undone[0]) == said
    redone = enc.redo()
    assert enc.describe(redone[0]) == said


def test_a_reopened_fight_names_its_spent_salvos_as_the_live_one_did(tmp_path: Path) -> None:
    """A salvo leaves the table when it is spent by its attack (``gothic-boarding-teleport.en.md``, "Boarding
    torpedoes": the torpedoes that hit make hit-and-run attacks) or when its target is destroyed. A review found
    the log of a reopened save naming such a salvo by its id ("salvo=salvo-1"), where the live fight had said
    its name: the name lived only in the session's memory, and the saved state no longer held the salvo."""
    enc = new_fight()
    save = create(tmp_path / "fight.toml", enc).autosave()
    enc.act("set_distance", vessel="hammer", target="vow", cm=8)
    to_phase(enc, 2)
    enc.act("launch", vessel="hammer", kinds=["boarding"], strength=1, target="vow", distance=8)
    enc.act("launch", vessel="right", kinds=["torpedoes"], strength=4, target="shade", distance=30)
    enc.act("next")
    enc.act("move_salvo", salvo="salvo-1", turn=0, distance=0)
    answer(enc, "Turret fire: Iron Vow", "4", target="4+")   # the only torpedo shot down: the salvo is spent
    enc.act("move_salvo", salvo="salvo-2", turn=0, distance=20)
    enc.act("record_hits", vessel="shade", hits=1)           # Shade destroyed: the salvo aimed at it leaves
    assert enc.state["ordnance"] == {}
    live = [enc.describe(ev) for ev in enc.events]
    assert "move salvo: salvo Boarding torpedoes 1 from Hammer · turn first 0° · distance after the move 0 cm" in live
    assert "move salvo: salvo Torpedoes 4 from Divine Right · turn first 0° · distance after the move 20 cm" in live
    save.flush()
    reopened = SaveFile.load(tmp_path / "fight.toml", ruleset=enc.ruleset).encounter
    assert [reopened.describe(ev) for ev in reopened.events] == live


def test_a_target_that_moves_into_a_salvo_is_attacked() -> None:
    """The game master updates a salvo's distance as its target moves (the movement phase); base contact (0 cm)
    starts the salvo's attack at once, as when the salvo moves into contact (first paragraph: "base contact")."""
    enc = new_fight()
    sid = launch_boarding(enc, strength=1, distance=40)
    to_phase(enc, 1)  # turn 2: Iron Vow moves onto the salvo
    assert "salvos' distances to targets that moved (a)" in next(s for s in enc.checklist() if s.status == "current").needs
    refused(enc, "already 40 cm from its target", "salvo_distance", salvo=sid, distance=40)
    enc.act("salvo_distance", salvo=sid, distance=0)
    answer(enc, "Turret fire: Iron Vow", "4", target="4+")  # the one torpedo is shot down
    assert enc.pending is None and enc.state["ordnance"] == {}
    assert "Boarding torpedoes 1 from Hammer: 0 hits of 0 surviving the turrets" in notes(enc)


def test_a_salvo_closes_by_its_own_move_outside_the_movement_phase() -> None:
    """First paragraph: a boarding torpedo "проходит 30 см за каждую стадию ordnance". Found by an audit: setting
    the distance to 0 in the shooting or ordnance phase put a salvo 45 cm away into base contact, skipping the
    30 cm move (and in the shooting phase, before it had ever moved). Ships move only in the movement phase."""
    enc = new_fight()
    sid = launch_boarding(enc, strength=1, distance=45)
    assert enc.state["phase"] == 2
    refused(enc, r"in the movement phase \(now: the shooting phase\)", "salvo_distance", salvo=sid, distance=0)
    enc.act("next")
    refused(enc, r"closes by its own move \(m\)", "salvo_distance", salvo=sid, distance=0)
    refused(enc, "cannot come closer than 15 cm", "move_salvo", salvo=sid, turn=0, distance=0)
    enc.act("move_salvo", salvo=sid, turn=0, distance=15)
    enc.act("next")
    refused(enc, r"in the movement phase \(now: the end phase\)", "salvo_distance", salvo=sid, distance=0)
    assert enc.pending is None and enc.state["ordnance"][sid]["distance"] == 15


def test_a_salvo_ends_its_move_no_farther_than_its_move_takes_it() -> None:
    """"проходит 30 см за каждую стадию ordnance": a salvo 28 cm away ends its move between 0 and 58 cm from its
    target (no target moves in the ordnance phase); found by a game master's drive, 60 cm was taken."""
    enc = new_fight()
    sid = launch_boarding(enc, strength=1, distance=28)
    enc.act("next")
    refused(enc, "cannot end farther than 58 cm", "move_salvo", salvo=sid, turn=45, distance=60)
    enc.act("move_salvo", salvo=sid, turn=45, distance=58)
    assert enc.state["ordnance"][sid]["distance"] == 58


def test_shields_held_down_by_a_critical_are_not_raised_by_a_correction() -> None:
    """The critical hits table's shield row keeps every shield down until repaired; found by a game master's
    drive, a correction put them up ("2 of 2 up, held down by ...") and a teleport was then refused for them."""
    enc = new_fight()
    vow = enc.state["ships"]["vow"]
    row = next(r for r, c in enc.ruleset.tables_for(enc.state).criticals.items() if c["effect"] == "shields")
    enc.correct("ships.vow.shields_up", "0")
    vow["criticals"].append({"name": "Shield generators overloaded", "effect": "shields", "roll": int(row),
                             "repairable": True, "shields_down": 2, "hits_lost": 0})
    with pytest.raises(IllegalAction, match="must be 0 while Shield generators"):
        enc.correct("ships.vow.shields_up", "2")
    assert vow["shields_up"] == 0


def test_ordinary_torpedoes_do_not_turn() -> None:
    """Boarding torpedoes (first paragraph): "unlike ordinary torpedoes" they may turn: ordinary ones move straight."""
    enc = new_fight()
    to_phase(enc, 2)
    enc.act("launch", vessel="right", kinds=["torpedoes"], strength=4, target="vow", distance=30)
    enc.act("next")
    refused(enc, "only boarding torpedoes may turn", "move_salvo", salvo="salvo-1", turn=10, distance=5)
    # so the form need not ask it: no turn given is straight on (a drive was asked "Turn first" for every salvo)
    enc.act("move_salvo", salvo="salvo-1", distance=5)
    assert enc.state["ordnance"]["salvo-1"]["distance"] == 5 and enc.events[-1].data["args"] == {
        "salvo": "salvo-1", "distance": 5}


def test_a_boarding_salvo_in_base_contact() -> None:
    """Boarding torpedoes (first paragraph): in base contact "turrets may fire at them"; the rest "roll to hit as
    ordinary torpedoes", and "each torpedo that hits makes a hit-and-run attack instead of damage".
    Hit-and-run ("Нанесение повреждений при hit-and-run атаке"): "On a 1 the attack fails; on 2 or more, the
    critical hits table, applied at once". Shipped defaults: turrets 4+, armour 5 needs 5+ (tables/ordnance.toml)."""
    enc = new_fight()
    sid = launch_boarding(enc, distance=30)
    enc.act("next")
    start = len(enc.events)
    enc.act("move_salvo", salvo=sid, turn=0, distance=0)  # 30 cm: base contact
    assert sid not in enc.state["ordnance"]  # the marker is spent in its attack
    answer(enc, "Turret fire: Iron Vow at Boarding torpedoes 6 from Hammer (2 turrets", "4", target="4+")
    answer(enc, "Turret fire: Iron Vow", "3", target="4+")
    for typed, then in (("5", "Hit-and-run"), ("1", None)):  # 5 survivors: the first hits, then its hit-and-run
        answer(enc, "Torpedo to hit Iron Vow (armour 5, ", typed, target="5+")
        if then:
            answer(enc, "Hit-and-run on Iron Vow (boarding torpedo from Hammer)", "1", target="2+")  # a 1 fails
    answer(enc, "Torpedo to hit Iron Vow", "6", target="5+")
    answer(enc, "Hit-and-run on Iron Vow", "4", target="2+")
    answer(enc, "Critical hit on Iron Vow", "5 5")  # 10: shield generators overloaded
    answer(enc, "Torpedo to hit Iron Vow", "2")
    answer(enc, "Torpedo to hit Iron Vow", "4")
    assert enc.pending is None
    vow = unit(enc, "vow")
    assert vow["hits"] == 8  # "instead of damage"
    assert [c["name"] for c in vow["criticals"]] == ["Shield generators overloaded"]
    assert vow["shields_up"] == 0
    log = notes(enc, start)
    assert "Turret destroys a torpedo: 5 left" in log
    assert "Hit-and-run on Iron Vow fails (a 1)" in log
    assert "Critical on Iron Vow: Shield generators overloaded (roll 10): every shield down until repaired" in log
    assert "Boarding torpedoes 6 from Hammer: 2 hits of 5 surviving the turrets" in log
    refused(enc, "stay down until Shield generators overloaded is repaired", "shields", vessel="vow", up=1)


def test_ordinary_torpedo_hits_take_shields_then_hits() -> None:
    """Survivors "roll to hit as ordinary torpedoes"; an ordinary hit is damage (our reading: a shield up takes
    it first). A defence's turrets fire like a ship's ("ПЛАНЕТАРНАЯ ЗАЩИТА": defences are units of one side)."""
    enc = new_fight()
    to_phase(enc, 2)
    enc.act("launch", vessel="right", kinds=["torpedoes"], strength=3, target="battery", distance=30)
    enc.act("next")
    enc.act("move_salvo", salvo="salvo-1", turn=0, distance=0)
    answer(enc, "Turret fire: Kessel Battery", "6", target="4+")  # planetary battery: 2 turrets (profile)
    answer(enc, "Turret fire: Kessel Battery", "1")
    answer(enc, "Torpedo to hit Kessel Battery (armour 6", "6", target="6+")
    answer(enc, "Torpedo to hit Kessel Battery", "6")
    battery = unit(enc, "battery")
    assert battery["shields_up"] == 0 and battery["hits"] == 3


# --- special orders -----------------------------------------------------------------------------------------

def test_an_order_declared_after_a_distance_was_entered_is_taken_with_a_warning() -> None:
    """The rules text names special orders only to bar a ship on one from teleporting
    (``gothic-boarding-teleport.en.md``, "Teleport attacks"; ``.ru.txt``, "Атаки через телепортаторы":
    "Корабли, выполняющие специальный приказ ... не могут"); it says nothing of when they are declared. Our
    turn declares them before the ships move, so an order for a ship whose distance was already entered this
    turn is taken (the text gives no ground to refuse it, and the enemy may be the one that moved), with a
    warning in its log line; a ship no distance was entered for, or the next turn, reads as before."""
    enc = new_fight()
    enc.act("set_distance", vessel="hammer", target="vow", cm=30)
    start = len(enc.events)
    enc.act("special_orders", vessel="vow", order="lock_on")
    assert notes(enc, start) == ["Iron Vow goes on special orders: Lock On (warning: a distance to Iron Vow was "
                                 "already entered this turn, and special orders are declared before a ship moves)"]
    start = len(enc.events)
    enc.act("special_orders", vessel="right", order="all_ahead_full")
    assert notes(enc, start) == ["Divine Right goes on special orders: All Ahead Full"]
    to_phase(enc, 4)
    enc.act("next")                                         # turn 2: nothing entered yet
    start = len(enc.events)
    enc.act("special_orders", vessel="hammer", order="lock_on")
    assert notes(enc, start) == ["Hammer goes on special orders: Lock On"]
    salvo = launch_boarding(enc, strength=1, distance=30)   # a salvo's distance entered as its target moves
    to_phase(enc, 1)
    enc.act("salvo_distance", salvo=salvo, distance=25)
    start = len(enc.events)
    enc.act("special_orders", vessel="vow", order="all_ahead_full")
    assert "warning: a distance to Iron Vow was already entered this turn" in notes(enc, start)[0]


# --- teleport attacks --------------------------------------------------------------------------------------

def end_phase_in_reach(enc, *pairs) -> None:
    for a, b, cm in pairs:
        enc.act("set_distance", vessel=a, target=b, cm=cm)
    to_phase(enc, 4)


def test_every_teleport_refusal_and_an_allowed_teleport() -> None:
    """"Атаки через телепортаторы": in the end phase, against an enemy "no more than 10 cm away" without shields;
    not when "on a special order or crippled"; not "escorts and defences with one hit left"; not against "a target
    with more hits than it has"; "1 teleport attack a turn", "resolved as a hit-and-run attack"."""
    enc = new_fight()
    enc.act("special_orders", vessel="right", order="lock_on")
    refused(enc, "Teleport attacks are made in the end phase", "teleport", vessel="hammer", target="vow")
    enc.act("record_hits", vessel="hammer", hits=2)        # 6/8: not crippled
    enc.act("shields", vessel="vow", up=0)
    enc.act("shields", vessel="shade", up=0)
    enc.act("shields", vessel="sat", up=0)
    end_phase_in_reach(enc, ("hammer", "vow", 11), ("right", "shade", 5), ("sword", "shade", 5),
                       ("cobra", "vow", 5), ("hammer", "sat", 10), ("hammer", "platform", 9))
    refused(enc, "Divine Right is on special orders \\(Lock On\\): no teleport attack", "teleport",
            vessel="right", target="shade")
    refused(enc, "Sword is an escort with one hit left", "teleport", vessel="sword", target="shade")
    refused(enc, "Sentinel is a defence with one hit left", "teleport", vessel="sat", target="hammer")
    refused(enc, "Iron Vow has 8 hits left, more than Cobra's 2", "teleport", vessel="cobra", target="vow")
    refused(enc, "Iron Vow is 11 cm from Hammer: teleporters reach 10 cm", "teleport", vessel="hammer", target="vow")
    refused(enc, "Kessel Platform is a defence, not a ship", "teleport", vessel="hammer", target="platform")
    enc.act("set_distance", vessel="hammer", target="vow", cm=10)   # exactly 10 cm is in reach
    refused(enc, "Iron Vow has 8 hits left, more than Hammer's 6", "teleport", vessel="hammer", target="vow")
    # "против вражеского корабля": a defence is no ship, whatever its hits and shields
    refused(enc, "Sentinel is a defence, not a ship: teleport attacks are made against enemy ships", "teleport",
            vessel="hammer", target="sat")
    # allowed: Hammer (6 hits) against Iron Vow brought down to 6, 10 cm, shields down
    enc.act("record_hits", vessel="vow", hits=2)
    enc.act("shields", vessel="vow", up=1)
    refused(enc, "Iron Vow has 1 of 2 shields up: teleport beams from Hammer need them all down", "teleport",
            vessel="hammer", target="vow")
    enc.act("shields", vessel="vow", up=0)
    start = len(enc.events)
    enc.act("teleport", vessel="hammer", target="vow")
    answer(enc, "Hit-and-run on Iron Vow (teleport attack by Hammer)", "3", target="2+")
    answer(enc, "Critical hit on Iron Vow", "6 5")  # 11: hull breached, 1 extra hit
    log = notes(enc, start)
    assert "Hammer teleports boarders onto Iron Vow (10 cm, shields down)" in log
    assert "Critical on Iron Vow: Hull breached (roll 11) (cannot be repaired)" in log
    assert unit(enc, "vow")["hits"] == 5
    refused(enc, "Hammer has made its teleport attack this turn \\(one a turn\\)", "teleport",
            vessel="hammer", target="shade")
    # crippled: Divine Right's orders end with the turn; at 3 of 6 hits it is crippled
    to_phase(enc, 1)
    enc.act("next")
    enc.act("record_hits", vessel="right", hits=3)
    to_phase(enc, 4)
    refused(enc, "Divine Right is crippled \\(3/6 hits\\): no teleport attack", "teleport", vessel="right",
            target="shade")
    assert "Divine Right 3/6 CRIPPLED" in enc.ruleset.unit_line(enc.state, enc.ruleset.catalogue.unit_kinds["ship"],
                                                                "right")[0]


def test_the_end_phase_names_as_free_to_teleport_only_vessels_the_teleport_action_offers() -> None:
    """``gothic-boarding-teleport.en.md``, "Teleport attacks" (``.ru.txt``, "Атаки через телепортаторы"): the
    attack is made "against an enemy ship no more than 10 cm away whose shields are down". A review found the
    end phase's checklist calling every ship with no bar of its own "free to teleport", though no enemy stood
    in reach: the list must be the ships the teleport action itself offers."""
    enc = new_fight()                       # every enemy 40 cm away: out of reach for all
    to_phase(enc, 4)
    needs = next(s for s in enc.checklist() if s.status == "current").needs
    assert "free to teleport" not in needs
    assert enc.ruleset.param_choices(enc.state, "teleport", "vessel", {}) == []
    in_reach = new_fight()
    in_reach.act("shields", vessel="shade", up=0)
    end_phase_in_reach(in_reach, ("hammer", "shade", 5))   # Hammer (8 hits) 5 cm from Shade (1 hit), shields down
    needs = next(s for s in in_reach.checklist() if s.status == "current").needs
    assert needs.endswith("; free to teleport: Hammer")
    offered = in_reach.ruleset.param_choices(in_reach.state, "teleport", "vessel", {})
    assert [c.value for c in offered] == ["hammer"]


def test_no_teleport_without_a_distance_entered() -> None:
    """"no more than 10 cm away": the console cannot know it until the game master enters the distance."""
    from rulesets.gothic.teleport import why_target
    enc = new_fight()
    state = dict(enc.state, distances={})
    assert why_target(state, "hammer", "shade") == "no distance entered between Hammer and Shade"


def test_the_platform_may_make_a_teleport_attack() -> None:
    """"Escorts and defences with one hit left cannot": a defence with more hits may ("ПЛАНЕТАРНАЯ ЗАЩИТА")."""
    enc = new_fight()
    enc.act("shields", vessel="cobra", up=0)
    end_phase_in_reach(enc, ("platform", "cobra", 4))
    enc.act("teleport", vessel="platform", target="cobra")
    answer(enc, "Hit-and-run on Cobra (teleport attack by Kessel Platform)", "2", target="2+")
    assert unit(enc, "cobra")["destroyed"]


def test_an_escort_that_suffers_a_critical_is_destroyed() -> None:
    """Hit-and-run: "an escort that suffers a critical is destroyed outright" (no roll on the table, our reading)."""
    enc = new_fight()
    enc.act("shields", vessel="shade", up=0)
    end_phase_in_reach(enc, ("cobra", "shade", 6))
    start = len(enc.events)
    enc.act("teleport", vessel="cobra", target="shade")
    answer(enc, "Hit-and-run on Shade", "2", target="2+")
    assert enc.pending is None
    assert unit(enc, "shade")["destroyed"]
    assert "Shade is destroyed (an escort that suffers a critical is destroyed)" in notes(enc, start)
    assert enc.ruleset.unit_line(enc.state, enc.ruleset.catalogue.unit_kinds["ship"], "shade") == \
        ("Shade DESTROYED", 0.0)


# --- repair -------------------------------------------------------------------------------------------------

def turret_crews_slain(enc) -> None:
    """Iron Vow, shields down at 6 hits, teleport-attacked by Hammer in reach: its hit-and-run rolls a 9, turret
    crews slain (one repairable critical)."""
    enc.act("shields", vessel="vow", up=0)
    enc.act("record_hits", vessel="vow", hits=2)  # 6 hits: Hammer's 8 may teleport
    end_phase_in_reach(enc, ("hammer", "vow", 8))
    enc.act("teleport", vessel="hammer", target="vow")
    answer(enc, "Hit-and-run on Iron Vow", "6")
    answer(enc, "Critical hit on Iron Vow", "4 5")  # 9: turret crews slain


def test_a_hit_and_run_critical_is_repaired_like_any_other() -> None:
    """Hit-and-run: "a critical so caused may be repaired like an ordinary one" (shipped default: one try a ship
    each end phase, 5+ on a D6, tables/repair.toml); a permanent critical is not offered."""
    enc = new_fight()
    turret_crews_slain(enc)
    assert unit(enc, "vow")["criticals"][0]["name"] == "Turret crews slain"
    needs = lambda: next(s.needs for s in enc.ruleset.checklist(enc.state) if s.status == "current")  # noqa: E731
    assert "repair criticals (r): Iron Vow" in needs()  # who may still try, as teleports are listed
    enc.act("repair", vessel="vow", critical="0")
    answer(enc, "Repair Turret crews slain on Iron Vow", "4", target="5+")
    assert len(unit(enc, "vow")["criticals"]) == 1
    refused(enc, "has tried a repair this end phase", "repair", vessel="vow", critical="0")
    assert "repair" not in needs()  # a drive read "repair criticals (r)" with nothing left to try
    to_phase(enc, 1)
    to_phase(enc, 4)
    enc.act("repair", vessel="vow", critical="0")
    answer(enc, "Repair Turret crews slain on Iron Vow", "5", target="5+")
    assert unit(enc, "vow")["criticals"] == []
    assert "Iron Vow repairs Turret crews slain" in notes(enc)
    to_phase(enc, 1)
    refused(enc, "Criticals are repaired in the end phase", "repair", vessel="vow", critical="0")



def critical_repaired():
    """A fight in which Iron Vow repaired the first of its two criticals (the repair's value, "0", was its place
    in the list, which now holds the other alone), with the special order, launch and repair actions taken."""
    enc = new_fight()
    enc.act("special_orders", vessel="right", order="all_ahead_full")
    order = enc.events[-1]
    turret_crews_slain(enc)
    to_phase(enc, 1)
    to_phase(enc, 2)
    enc.act("launch", vessel="hammer", kinds=["boarding"], strength=2, target="vow", distance=8)
    launch = enc.events[-1]
    to_phase(enc, 4)
    enc.act("teleport", vessel="hammer", target="vow")
    answer(enc, "Hit-and-run on Iron Vow", "6")
    answer(enc, "Critical hit on Iron Vow", "3 4")  # 7: fire on the gun decks
    assert [c["name"] for c in unit(enc, "vow")["criticals"]] == ["Turret crews slain", "Fire on the gun decks"]
    enc.act("repair", vessel="vow", critical="0")
    repair = enc.events[-1]
    answer(enc, "Repair Turret crews slain on Iron Vow", "5", target="5+")
    assert [c["name"] for c in unit(enc, "vow")["criticals"]] == ["Fire on the gun decks"]
    return enc, (order, launch, repair)


REPAIRED_LINES = ["special orders: ship Divine Right · order All Ahead Full",
                  "launch: ship or defence Hammer · load Boarding torpedoes · salvo strength 2 · target Iron Vow · "
                  "distance 8 cm",
                  "repair: ship or defence Iron Vow · critical to repair Turret crews slain"]


def test_an_action_line_names_each_choice_as_the_form_offered_it(tmp_path: Path) -> None:
    """Found by a game master: the log read "special orders vessel=Divine Right order=all_ahead_full", the order's
    id where the form offered "All Ahead Full". Each choice reads as the form named it when it was taken: a
    repaired critical is gone from the ship's list by the time the log is read again, and the line still names
    the one repaired. The save keeps the ids, and a reopened save reads the same lines."""
    enc, (order, launch, repair) = critical_repaired()
    assert [enc.describe(ev) for ev in (order, launch, repair)] == REPAIRED_LINES
    assert (order.data["args"], launch.data["args"]["kinds"], repair.data["args"]) == (
        {"vessel": "right", "order": "all_ahead_full"}, ["boarding"], {"vessel": "vow", "critical": "0"})
    path = tmp_path / "fight.toml"
    create(path, enc)
    assert 'order = "all_ahead_full"' in path.read_text(encoding="utf-8")
    again = SaveFile.load(path, ruleset=enc.ruleset).encounter
    assert [again.describe(again.events[enc.events.index(ev)]) for ev in (order, launch, repair)] == REPAIRED_LINES
    enc.undo()  # the repair and its roll; redone, it names the critical it repaired again
    enc.redo()
    assert enc.describe(enc.events[-2]) == REPAIRED_LINES[2]

# --- planetary defences and tables --------------------------------------------------------------------------

def test_planetary_defences_are_units_of_one_side() -> None:
    """"ПЛАНЕТАРНАЯ ЗАЩИТА": armed satellites, planetary batteries, space platforms and minefields, taken by one
    side. Their profiles are our shipped defaults (tables/defences.toml); a setup may override a number."""
    enc = new_fight()
    assert {d["side"] for d in enc.state["defences"].values()} == {"reb"}
    p = unit(enc, "platform")
    assert (p["class"], p["hits"], p["shields"], p["armour"], p["turrets"], p["torpedoes"]) == \
        ("defence", 8, 2, 5, 3, 4)
    assert set(enc.ruleset.tables_for(enc.state).defences) == \
        {"armed_satellite", "planetary_battery", "space_platform", "minefield"}
    # the platform launches boarding torpedoes like a ship
    to_phase(enc, 2)
    enc.act("launch", vessel="platform", kinds=["boarding"], strength=4, target="hammer", distance=25)
    assert unit(enc, "salvo-1")["owner"] == "platform"
    to_phase(enc, 1)  # a defence takes no special orders: its tubes reload with the new turn (our reading)
    assert unit(enc, "platform")["loaded"] and not unit(enc, "hammer")["launched"]
    refused(enc, "defences take no special orders", "special_orders", vessel="platform", order="reload_ordnance")
    from .fleet import make_setup
    from engine.encounter import Encounter
    from rulesets.gothic import RULESET
    setup = make_setup()
    setup.units["defences"]["mines"] = {"side": "reb", "name": "Belt", "type": "minefield", "hits": 3}
    assert Encounter(setup, RULESET).state["defences"]["mines"]["hits"] == 3
    setup.units["defences"]["mines"]["type"] = "orbital_fortress"
    with pytest.raises(BadTable, match="setup.defences.mines: type must be one of armed_satellite"):
        Encounter(setup, RULESET)


def test_tables_are_marked_as_our_defaults_and_can_be_replaced(tmp_path: Path) -> None:
    """The critical hits table, torpedo to-hit, repair and defence profiles are not in the text (it only refers
    to them): each shipped file says it is our default, and a game master's file replaces it."""
    from rulesets.gothic.tables import TABLE_SET
    for name in TABLE_SET.names:
        text = TABLE_SET.shipped_path(name).read_text(encoding="utf-8")
        assert "shipped_default = true" in text and "OUR SHIPPED DEFAULT, NOT THE BOOK'S" in text, name
    mine = tmp_path / "crits.toml"
    shipped = TABLE_SET.shipped_path("criticals").read_text(encoding="utf-8")
    mine.write_text(shipped.replace("shipped_default = true", "shipped_default = false")
                    .replace('"Shield generators overloaded"', '"Void shields fail"'), encoding="utf-8")
    enc = new_fight(tables={"criticals": str(mine)})
    enc.act("shields", vessel="vow", up=0)
    enc.act("record_hits", vessel="vow", hits=2)
    end_phase_in_reach(enc, ("hammer", "vow", 8))
    enc.act("teleport", vessel="hammer", target="vow")
    answer(enc, "Hit-and-run on Iron Vow", "6")
    answer(enc, "Critical hit on Iron Vow", "5 5")
    assert unit(enc, "vow")["criticals"][0]["name"] == "Void shields fail"
    bad = tmp_path / "bad.toml"
    bad.write_text(shipped.replace('effect = "shields"', 'effect = "sails"'), encoding="utf-8")
    with pytest.raises(BadTable, match=r"bad.toml: rolls.10.effect: expected one of shields"):
        new_fight(tables={"criticals": str(bad)})


# --- the whole battle, saved and continued ------------------------------------------------------------------

def test_the_battle_saved_halfway_ends_the_same(tmp_path: Path) -> None:
    """The event log is the fight: stopped, saved and loaded at any step, it ends the same."""
    script = [
        lambda e: e.act("special_orders", vessel="hammer", order="all_ahead_full"),
        lambda e: to_phase(e, 2),
        lambda e: e.act("launch", vessel="hammer", kinds=["boarding"], strength=2, target="vow", distance=30),
        lambda e: to_phase(e, 3),
        lambda e: e.act("move_salvo", salvo="salvo-1", turn=20, distance=0),
        lambda e: e.type_roll("1"), lambda e: e.type_roll("1"),   # both turrets miss
        lambda e: e.type_roll("6"), lambda e: e.type_roll("2"),   # a hit; its hit-and-run
        lambda e: e.type_roll("3 4"),                             # 7: fire on the gun decks
        lambda e: e.type_roll("2"),                               # the second torpedo misses
        lambda e: to_phase(e, 4),
        lambda e: e.act("repair", vessel="vow", critical="0"),
        lambda e: e.type_roll("6"),
    ]
    saved_and_continued(new_fight, script, 6, tmp_path)
    enc = new_fight()
    for step in script:
        step(enc)
    assert unit(enc, "vow")["criticals"] == [] and "Iron Vow repairs Fire on the gun decks" in notes(enc)
    with pytest.raises(IllegalAction):
        enc.act("launch", vessel="hammer", kinds=["boarding"], strength=2, target="vow", distance=30)


def test_a_vessel_whose_hits_are_corrected_to_0_is_destroyed() -> None:
    """Losing the last hit destroys a vessel; a correction to 0 hits does the same, and says so (found by a game
    master's drive: an escort at 0/1 stayed in play)."""
    enc = new_fight()
    enc.correct("ships.shade.hits", 0, note="rammed")
    assert unit(enc, "shade")["destroyed"]
    assert "Shade is destroyed (no hits left)" in enc.events[-1].notes
    enc.undo()
    assert not unit(enc, "shade")["destroyed"]


# --- a critical's roll corrected by hand ------------------------------------------------------------------------

def critical_on_vow(enc, dice: str) -> int:
    """A teleport attack's hit-and-run on Iron Vow (shields knocked down by hand first) that rolls ``dice`` on the
    critical hits table; the index of the log's first event after it."""
    enc.act("record_hits", vessel="vow", hits=2)  # 6 hits: Hammer's 8 may teleport
    end_phase_in_reach(enc, ("hammer", "vow", 8))
    enc.act("shields", vessel="vow", up=0)
    enc.act("teleport", vessel="hammer", target="vow")
    answer(enc, "Hit-and-run on Iron Vow", "6")
    answer(enc, "Critical hit on Iron Vow", dice)
    return len(enc.events)


def test_a_corrected_critical_roll_puts_the_corrected_row_in_force() -> None:
    """"Resolving a hit-and-run attack": on 2 or more the critical hits table is rolled and "applied at once". A
    critical whose roll the game master corrects leaves the vessel as if the corrected number had been rolled:
    the old row's effect and the hits it took are taken back, the new row's are applied (found by a game master's
    drive: the old row stayed in force under the new number). Shipped default rows (tables/criticals.toml): 12 loses 2 extra hits,
    11 loses 1 and cannot be repaired, 10 keeps the shields down, 7 is a fire."""
    enc = new_fight()
    critical_on_vow(enc, "6 6")  # 12: bulkheads give way, 2 extra hits
    assert unit(enc, "vow")["hits"] == 4
    enc.correct("ships.vow.criticals[0].roll", 7, note="misread the dice")
    vow = unit(enc, "vow")
    assert (vow["hits"], vow["criticals"][0]["name"], vow["criticals"][0]["repairable"]) == \
        (6, "Fire on the gun decks", True)
    assert "Iron Vow: Bulkheads give way is taken back: 2 hits given back, 6/8 left" in enc.events[-1].notes
    assert "Critical on Iron Vow: Fire on the gun decks (roll 7)" in enc.events[-1].notes
    enc.correct("ships.vow.criticals[0].roll", 11)
    vow = unit(enc, "vow")
    assert (vow["hits"], vow["criticals"][0]["name"], vow["criticals"][0]["repairable"]) == \
        (5, "Hull breached", False)
    enc.undo()
    enc.undo()
    assert unit(enc, "vow")["hits"] == 4 and unit(enc, "vow")["criticals"][0]["roll"] == 12


def test_a_critical_corrected_away_from_the_shields_gives_back_the_shields_it_took() -> None:
    """Our shipped 10 keeps every shield down until repaired; corrected to another row, the shields the critical
    knocked down are up again, and corrected back they go down again."""
    enc = new_fight()
    enc.act("record_hits", vessel="vow", hits=2)
    end_phase_in_reach(enc, ("hammer", "vow", 8))
    enc.act("shields", vessel="vow", up=0)
    enc.act("teleport", vessel="hammer", target="vow")
    enc.correct("ships.vow.shields_up", 2, note="both up again as the attack lands")
    answer(enc, "Hit-and-run on Iron Vow", "6")
    answer(enc, "Critical hit on Iron Vow", "5 5")  # 10: shield generators overloaded
    assert unit(enc, "vow")["shields_up"] == 0
    enc.correct("ships.vow.criticals[0].roll", 9)
    assert unit(enc, "vow")["shields_up"] == 2 and unit(enc, "vow")["criticals"][0]["effect"] == "turrets"
    enc.correct("ships.vow.criticals[0].roll", 10)
    assert unit(enc, "vow")["shields_up"] == 0


def test_a_critical_roll_of_a_destroyed_vessel_is_not_corrected() -> None:
    """A destroyed vessel cannot be brought back by a correction of a critical's roll (the salvos aimed at it have
    left the table): the correction is refused with the way to do it, undo."""
    enc = new_fight()
    critical_on_vow(enc, "6 6")
    enc.correct("ships.vow.hits", 0, note="rammed")
    with pytest.raises(IllegalAction, match="Iron Vow is destroyed"):
        enc.correct("ships.vow.criticals[0].roll", 7)
    assert unit(enc, "vow")["criticals"][0]["roll"] == 12


def test_rolls_still_waiting_read_the_state_a_corrected_critical_leaves() -> None:
    """A correction made while an action's rolls are still coming is played out by them, as by everything after
    it. "Нанесение повреждений при hit-and-run атаке": the critical hits table is applied "at once". Mid-salvo, a
    critical corrected to our 12 (2 extra hits) takes Iron Vow's last 2 hits: it is destroyed, so the torpedo
    still to roll is the rest of a salvo whose target is gone, and no second hit-and-run is made on a wreck (a
    review found it rolled a second critical and destroyed the Vow again)."""
    enc = new_fight()
    enc.act("record_hits", vessel="vow", hits=6)  # 2 left
    sid = launch_boarding(enc, strength=2, distance=20)
    to_phase(enc, 3)
    enc.act("move_salvo", salvo=sid, turn=0, distance=0)
    answer(enc, "Turret fire: Iron Vow", "1")
    answer(enc, "Turret fire: Iron Vow", "1")
    answer(enc, "Torpedo to hit Iron Vow (armour 5, 2 to roll)", "6")
    answer(enc, "Hit-and-run on Iron Vow", "6")
    answer(enc, "Critical hit on Iron Vow", "3 4")  # 7: a fire
    ev = enc.correct("ships.vow.criticals[0].roll", 12, note="misread the dice")
    assert unit(enc, "vow")["destroyed"]
    # the torpedo still to roll decides nothing now: its roll is not asked (a drive typed it, and read "success"
    # against the wreck before "the rest of the salvo is spent")
    assert enc.pending is None
    assert "Boarding torpedoes 2 from Hammer: its target is destroyed; the rest of the salvo is spent" in ev.notes
    assert [c["roll"] for c in unit(enc, "vow")["criticals"]] == [12]
    from engine.encounter import replay  # the log read again gives the same: the correction, then what followed
    assert replay(enc.setup, enc.events, enc.ruleset) == enc.state


def test_a_teleport_or_repair_die_waiting_on_a_vessel_destroyed_by_a_correction_does_nothing() -> None:
    """A vessel whose hits are corrected to 0 is destroyed, as losing its last hit destroys it: the hit-and-run a
    teleport attack waits to roll against it boards no wreck, and a repair it waits to roll mends nothing."""
    enc = new_fight()
    enc.act("record_hits", vessel="vow", hits=2)
    end_phase_in_reach(enc, ("hammer", "vow", 8))
    enc.act("shields", vessel="vow", up=0)
    enc.act("teleport", vessel="hammer", target="vow")
    ev = enc.correct("ships.vow.hits", 0, note="the battery finished her")
    assert enc.pending is None and unit(enc, "vow")["criticals"] == []
    assert "Iron Vow is destroyed: the teleport attack by Hammer finds nothing to attack" in ev.notes
    fire = new_fight()
    critical_on_vow(fire, "3 4")
    fire.act("repair", vessel="vow", critical="0")
    ev = fire.correct("ships.vow.hits", 0)
    assert fire.pending is None and "Iron Vow is destroyed: nothing is repaired" in ev.notes
    fire.undo()  # the correction joined the repair's group: both go back together
    assert fire.pending is None and not unit(fire, "vow")["destroyed"] and len(unit(fire, "vow")["criticals"]) == 1
    from engine.encounter import replay
    fire.redo()
    assert fire.pending is None and replay(fire.setup, fire.events, fire.ruleset) == fire.state


def test_a_repair_die_waiting_follows_its_critical_corrected() -> None:
    """A critical so caused "can be repaired like any other critical" ("Resolving a hit-and-run attack"), and our
    shipped 11 (tables/criticals.toml) cannot be repaired at all. A drive found the repair die of a fire whose
    roll was corrected to 11 still asked as "Repair Fire on the gun decks" at 5+: a die that could decide nothing.
    Rolls still waiting read the fight as corrected, and one that would find nothing is not asked (README,
    corrections): the repair of a critical corrected to a permanent row, or taken away, goes with the reason, and
    the ship's one try this end phase is not spent (``may_repair`` would not have let it try that row)."""
    enc = new_fight()
    critical_on_vow(enc, "3 4")  # 7: a fire
    enc.act("repair", vessel="vow", critical="0")
    assert enc.pending is not None and enc.pending.purpose == "Repair Fire on the gun decks on Iron Vow"
    ev = enc.correct("ships.vow.criticals[0].roll", 11)
    assert enc.pending is None
    assert ev.notes[-1] == "Iron Vow: Hull breached cannot be repaired: the repair die waiting for it is not rolled"
    assert [c["name"] for c in unit(enc, "vow")["criticals"]] == ["Hull breached"]
    assert not unit(enc, "vow")["repair_tried"]
    refused(enc, "Iron Vow has no critical it can repair", "repair", vessel="vow", critical="0")
    from engine.encounter import replay
    assert replay(enc.setup, enc.events, enc.ruleset) == enc.state
    enc.undo()  # the repair and the correction made while it waited
    enc.act("repair", vessel="vow", critical="0")
    ev = enc.correct("ships.vow.criticals", [])
    assert enc.pending is None and not unit(enc, "vow")["repair_tried"]
    assert ev.notes[-1] == "Iron Vow: the critical to repair is no longer in force: the repair die is not rolled"


def test_a_repair_die_that_goes_gives_back_the_try_for_another_critical() -> None:
    """Our shipped repair (tables/repair.toml): one try a ship each end phase, at a critical that can be repaired.
    Iron Vow tries its turret crews (9); corrected to 12 (permanent, 2 hits more), that try could not have been
    made, so the Vow may still try its fire (7), and the end phase says so."""
    enc = new_fight()
    critical_on_vow(enc, "3 4")  # turn 1: 7, a fire
    to_phase(enc, 1)
    end_phase_in_reach(enc, ("hammer", "vow", 8))
    enc.act("teleport", vessel="hammer", target="vow")
    answer(enc, "Hit-and-run on Iron Vow", "6")
    answer(enc, "Critical hit on Iron Vow", "4 5")  # turn 2: 9, turret crews slain
    enc.act("repair", vessel="vow", critical="1")
    ev = enc.correct("ships.vow.criticals[1].roll", 12)
    assert enc.pending is None and ev.notes[-1] == (
        "Iron Vow: Bulkheads give way cannot be repaired: the repair die waiting for it is not rolled "
        "(Iron Vow may still try another this end phase)")
    assert "repair criticals (r): Iron Vow" in [s.needs for s in enc.checklist() if s.status == "current"][0]
    enc.act("repair", vessel="vow", critical="0")
    answer(enc, "Repair Fire on the gun decks on Iron Vow", "5")
    assert [c["name"] for c in unit(enc, "vow")["criticals"]] == ["Bulkheads give way"]


def test_a_repair_die_waiting_names_the_critical_it_was_corrected_to() -> None:
    """Corrected to another row that can be repaired, the waiting die repairs that row: the prompt names it, and
    a 5+ (our shipped tables/repair.toml) repairs it."""
    enc = new_fight()
    critical_on_vow(enc, "3 4")  # 7: a fire
    enc.act("repair", vessel="vow", critical="0")
    ev = enc.correct("ships.vow.criticals[0].roll", 9)
    assert "Iron Vow: the repair die waiting is now for Turret crews slain" in ev.notes
    assert enc.pending is not None and enc.pending.purpose == "Repair Turret crews slain on Iron Vow"
    assert str(enc.pending.target) == "5+"
    answer(enc, "Repair Turret crews slain on Iron Vow", "5")
    assert unit(enc, "vow")["criticals"] == [] and "Iron Vow repairs Turret crews slain" in notes(enc)
    from engine.encounter import replay
    assert replay(enc.setup, enc.events, enc.ruleset) == enc.state


def test_a_repair_die_waiting_on_another_vessel_is_left_as_it_was() -> None:
    """Only the die waiting on the critical corrected follows it: a correction of another ship's critical, or of
    anything else, leaves the waiting repair as it was asked."""
    enc = new_fight()
    critical_on_vow(enc, "3 4")
    enc.act("repair", vessel="vow", critical="0")
    before = enc.state["pending"][0]
    ev = enc.correct("ships.hammer.hits", 7)
    assert enc.state["pending"][0] is before and not any("repair die" in n for n in ev.notes)


def test_turrets_a_corrected_critical_silences_fire_no_more_at_the_salvo() -> None:
    """Boarding torpedoes in base contact: the target's "turrets may fire at them". Our shipped 9 (turret crews
    slain) keeps the turrets from firing until repaired: a critical corrected to 9 while the turrets are firing
    stops the rest of their fire, and the torpedoes go on to roll to hit."""
    enc = new_fight()
    critical_on_vow(enc, "3 4")  # turn 1's end phase: 7, a fire
    to_phase(enc, 1)
    enc.act("set_distance", vessel="hammer", target="vow", cm=20)
    to_phase(enc, 2)
    enc.act("launch", vessel="hammer", kinds=["boarding"], strength=2, target="vow", distance=20)
    enc.act("next")
    enc.act("move_salvo", salvo=f"salvo-{enc.state['next_salvo']}", turn=0, distance=0)
    answer(enc, "Turret fire: Iron Vow at Boarding torpedoes 2 from Hammer (2 turrets", "1")
    enc.correct("ships.vow.criticals[0].roll", 9, note="it was the turret crews")
    answer(enc, "Turret fire: Iron Vow", "6")  # asked before the correction: fires no more
    assert "Iron Vow's turrets are silenced (Turret crews slain): the shot is not fired" in enc.events[-1].notes
    answer(enc, "Torpedo to hit Iron Vow (armour 5, 2 to roll)", "1")


def test_a_criticals_name_and_effect_follow_its_roll() -> None:
    """A critical's name, effect and whether it can be repaired are its roll's row of the critical hits table: a
    correction of one of them alone would leave a row the table does not hold (an effect of "shields" with the
    shields up read "2 of 2 up, held down"); the roll is what is corrected."""
    enc = new_fight()
    critical_on_vow(enc, "3 4")
    for field, value in (("effect", "shields"), ("name", "Bridge gone"), ("repairable", False)):
        with pytest.raises(IllegalAction, match=f"criticals\\[0\\].{field} follows from its roll"):
            enc.correct(f"ships.vow.criticals[0].{field}", value)
    enc.correct("ships.vow.criticals[0].roll", 10)
    assert unit(enc, "vow")["criticals"][0]["effect"] == "shields"


def test_the_fight_is_over_once_one_side_alone_has_vessels_left() -> None:
    """Found by a drive: with the last Imperial vessel destroyed (its hits corrected to 0) the end phase still
    asked for teleport attacks and repairs, and the next phase went on. Boarding, teleport and ordnance need an
    enemy: the log says the fight is over, the checklist says so, and the next phase is refused."""
    enc = new_fight()
    for uid in ("hammer", "right", "sword"):
        enc.correct(f"ships.{uid}.hits", "0")
        assert "the fight is over" not in " ".join(enc.events[-1].notes)
        assert enc.checklist()[0].needs != "the fight is over"
    last = enc.correct("ships.cobra.hits", "0")
    assert "Cobra is destroyed (no hits left); the fight is over: Rebels alone has vessels left" in last.notes
    assert [s.needs for s in enc.checklist() if s.status == "current"] == ["the fight is over"]
    refused(enc, "the fight is over", "next")
    enc.undo()  # the Cobra back in the fight: play goes on
    enc.act("next")
