"""classic-hg's side view (issue 15): what the procedure lets a side see of the other's ships.

Source: classic-hg-combat.txt: both ships are in the encounter at one range
("Determine Range"); "The DEFENDER records damage caused by any of the
ATTACKER's offensive fire". Read on the shipped demo (Imperial Navy: Swift
Dolan, Vigilant Reach; Corsairs: Red Lantern, Mary Oakes).
"""

from __future__ import annotations

from pathlib import Path

from engine.rolls import RollRequest
from engine.saves import SaveFile
from engine.sideview import BARE, FULL, HIDDEN, OUTCOME, RESULT
from engine.state import plain_copy
from rulesets.classic_hg import RULESET

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
    to_hit = RollRequest("To hit", "2D", then="to_hit", context={"ship": "swift-dolan", "target": "red-lantern"})
    assert (seen("imperial", to_hit), seen("corsairs", to_hit)) == (RESULT, OUTCOME)
    initiative = RollRequest("Initiative: Imperial Navy", "1D", then="initiative", context={"side": "imperial"})
    assert (seen("imperial", initiative), seen("corsairs", initiative)) == (FULL, OUTCOME)
    assert "Swift Dolan T3 at Red Lantern: hit" in RULESET.side_view(state, "corsairs").notes
