"""classic-hg's side view (issue 15): what the procedure lets a side see of the other's ships.

Source: classic-hg-combat.txt: both ships are in the encounter at one range
("Determine Range"); "The DEFENDER records damage caused by any of the
ATTACKER's offensive fire". Read on the shipped demo (Imperial Navy: Swift
Dolan, Vigilant Reach; Corsairs: Red Lantern, Mary Oakes).
"""

from __future__ import annotations

from pathlib import Path

from engine.encounter import Encounter
from engine.rolls import RollRequest
from engine.saves import SaveFile
from engine.sideview import FULL, HIDDEN, OUTCOME, RESULT, TOTAL, picture
from engine.state import plain_copy
from rulesets.classic_hg import RULESET
from tests.rulesets.classic_hg.duel import ESCORT, RAIDER, answer, make_setup, roll_for_effect, roll_for_general

DEMO = Path(__file__).resolve().parents[3] / "saves" / "demo-classic-hg.toml"


def demo_state() -> dict:
    return plain_copy(SaveFile.load(DEMO).encounter.state)


def test_enemy_ships_show_the_range_and_whether_they_fight_nothing_of_their_build() -> None:
    state = demo_state()
    view = RULESET.side_view(state, "imperial")
    assert view.own == ("swift-dolan", "vigilant-reach")
    assert [(c.name, dict(c.known)) for c in view.contacts] == [
        ("Red Lantern", {"Range": "long", "In the fight": "yes"}),
        ("Mary Oakes", {"Range": "long", "In the fight": "yes"})]
    state["ships"]["red-lantern"]["broken_off"] = True
    state["ships"]["red-lantern"]["out"] = "broken off"
    assert dict(RULESET.side_view(state, "imperial").contacts[0].known)["In the fight"] == "no (broken off)"


def test_the_defender_reads_its_damage_the_attacker_nothing_of_it() -> None:
    """"The DEFENDER records damage caused by any of the ATTACKER's offensive fire": a damage roll's very purpose
    names where the hit struck ("Specific location: A1 in the fuel tanks"), so the attacker reads none of it."""
    state = demo_state()
    state["attacks"] = [{"id": "A1", "by": "swift-dolan", "target": "red-lantern", "mount": "T3",
                         "status": "hit"}]
    seen = lambda side, req: RULESET.log_seen(state, side, "roll", {}, req)  # noqa: E731
    location = RollRequest("General location: A1 on Red Lantern", "2D", then="general_location",
                           context={"attack": "A1"})
    assert (seen("imperial", location), seen("corsairs", location)) == (HIDDEN, FULL)
    to_hit = RollRequest("To hit: Swift Dolan T3 Beam laser x3 at Red Lantern", "2D", then="to_hit",
                         context={"ship": "swift-dolan", "target": "red-lantern"})
    assert (seen("imperial", to_hit), seen("corsairs", to_hit)) == (
        RESULT, (OUTCOME, "To hit: Swift Dolan at Red Lantern"))  # the target never reads the firer's turret
    initiative = RollRequest("Initiative: Imperial Navy", "1D", then="initiative", context={"side": "imperial"})
    assert (seen("imperial", initiative), seen("corsairs", initiative)) == (
        FULL, (TOTAL, "Initiative: Imperial Navy"))  # the total told aloud, not the die or the Tactics DM
    assert "A1 Swift Dolan at Red Lantern: hit" in RULESET.side_view(state, "corsairs").notes
    assert "A1 Swift Dolan T3 at Red Lantern: hit" in RULESET.side_view(state, "imperial").notes


# --- an attack's damage begun under the roll that ended the one before it (found by a game master's drive) ----------

def _both_ships_hit(people: dict | None = None, **jackal) -> Encounter:
    """Simultaneous initiative (4 against 4): the Vigilant's shot of step 3 and the Jackal's of step 6 are both
    recorded in step 8, A1 on the Jackal (a corsair) first, then A2 on the Vigilant (imperial)."""
    setup = make_setup(dict(ESCORT), {**RAIDER, **jackal})
    setup.units["people"] = dict(people or {})
    enc = Encounter(setup, RULESET)
    enc.act("roll_initiative")
    answer(enc, "Initiative: Imperial Navy", "2")
    answer(enc, "Initiative: Corsairs", "4")
    assert enc.state["simultaneous"]
    enc.act("next")
    enc.act("next")
    enc.act("fire", ship="vigilant", turrets=["T4"], target="jackal", warhead="nuclear")
    answer(enc, "To hit: Vigilant T4", "12")
    for _ in range(3):
        enc.act("next")
    enc.act("fire", ship="jackal", turrets=["T2"], target="vigilant")
    answer(enc, "To hit: Jackal T2", "12")
    enc.act("next")
    enc.act("next")
    enc.act("resolve_damage")
    return enc


def _log_text(enc: Encounter, side: str) -> str:
    return "\n".join(line for e in picture(enc, side).log for line in (e.headline, *e.details))


def test_the_next_attacks_damage_is_read_by_its_own_target_not_by_the_one_whose_roll_began_it() -> None:
    """"The DEFENDER records damage": A2's armor absorption on the Vigilant is worked out under the roll that ended
    A1 on the Jackal; the Imperials read it, the Corsairs (whose roll it was) do not. Each side reads how its own
    ship took the damage that began it."""
    enc = _both_ships_hit()
    answer(enc, "General location: A1", roll_for_general("hold"))
    answer(enc, "Specific location: A1", roll_for_effect("hold", "cargo"))
    assert enc.pending.purpose == "General location: A2 on Vigilant"
    imp, cor = _log_text(enc, "imp"), _log_text(enc, "cor")
    heading = "A2 on Vigilant: 6 points, armor stops 4, 2 through"  # two pulse lasers against armor 4
    assert heading in enc.events[-1].notes
    assert "A2 on Vigilant" not in cor, cor
    assert heading in imp, imp
    assert "A1 on Jackal:" in cor and "A1 on Jackal:" not in imp
    assert "Jackal: cargo" in cor and "Jackal: cargo" not in imp
    notes = enc.events[-1].notes
    assert notes[0].startswith("Jackal: cargo") and notes[-1].startswith("A2 on Vigilant:")  # the referee's log


def test_radiation_wounds_land_under_the_attack_that_caused_them() -> None:
    """Radiation: "all crew in the general location hit take 1D damage immediately". The Jackal's bridge crew
    are wounded one after the other, and the first one's wound ends A1, which begins A2 on the Vigilant: the
    second one's wound is still A1's, read by the Corsairs, before A2 begins in the referee's log."""
    from tests.rulesets.classic_hg.test_crew_attacks import BRIDGE

    enc = _both_ships_hit(BRIDGE, armor_factor=3)
    answer(enc, "General location: A1", roll_for_general("bridge"))
    answer(enc, "Specific location: A1", roll_for_effect("bridge", "sensors"))
    answer(enc, "Spallation: A1", "2")
    answer(enc, "Radiation: A1 against Jackal's computer and crew", "12")
    answer(enc, "Radiation: damage to 2 crew in the bridge", "5")
    answer(enc, "Radiation: days until death", "3")
    assert enc.pending.purpose == "General location: A2 on Vigilant"
    notes = enc.events[-1].notes
    begins = next(i for i, n in enumerate(notes) if n.startswith("A2 on Vigilant:"))
    assert begins == len(notes) - 1, notes  # every wound of A1 before A2 begins
    assert sum("Mate Sela Dunn" in n for n in notes) == 2
    imp, cor = _log_text(enc, "imp"), _log_text(enc, "cor")
    assert "Mate Sela Dunn" in cor and "Mate Sela Dunn" not in imp
    assert "A2 on Vigilant:" in imp and "A2 on Vigilant:" not in cor


def test_the_target_side_records_a_nuclear_crew_hit_without_the_enemy_weapon_named() -> None:
    """"Nuclear Missile: Crew killed on a 8 (2D), otherwise 2 attributes reduced to 0": the Corsairs record what
    the Vigilant's missile did to the Jackal's bridge crew, but no line of theirs names the Vigilant's weapon (the
    kill roll's purpose, "Nuclear missile: is the crew ...", and the ship's list of crew attacks, "(missile
    nuclear)", both did). The referee's log keeps the weapon; the Imperials read none of the damage."""
    from tests.engine.test_side_leaks import seen
    from tests.rulesets.classic_hg.test_effects import strike

    enc = Encounter(make_setup(dict(ESCORT), dict(RAIDER)), RULESET)
    strike(enc, "bridge", "crew", armor=3, turret="T4", warhead="nuclear")
    assert enc.pending.purpose == "Nuclear missile: is the crew in the bridge of Jackal killed?"
    assert picture(enc, "cor").waiting == "waiting for a roll: Crew hit: is the crew in the bridge of Jackal killed?"
    answer(enc, "is the crew in the bridge of Jackal killed?", "7")  # 8+ kills
    while enc.pending is not None:
        enc.type_roll("2")
    cor = seen(enc, "cor")
    assert "Crew hit: is the crew in the bridge of Jackal killed?: 2D typed [7] = 7 vs 8+: failure" in cor, cor
    assert "nuclear missile" not in cor.lower() and "missile nuclear" not in cor.lower(), cor
    crew = [v for _uid, _line, panels in picture(enc, "cor").own for k, v in panels["Armor and crew"]
            if k == "Crew attack"]
    assert crew == ["T1 A1: crew in the bridge: 2 attributes reduced to 0"], crew
    # the referee's panel names the weapon in its own words, as the referee's log does
    assert "(nuclear missile)" in " ".join(v for k, v in RULESET.unit_panels(
        enc.state, RULESET.unit_kind_of(enc.state, "jackal"), "jackal")["Armor and crew"])  # the referee's panel
    assert "killed?" not in seen(enc, "imp")
