"""percentile's side view (issue 15): what a side sees of the other people in a fight by sight.

Source: percentile-personal-combat.txt has no sensors: people see each other unless they have lost
sight of each other (the surprise procedures' "lose sight of each other"), and a side that has not
joined the fight is not there to be seen. Our reading, in rulesets/percentile/sideview.py: an enemy
in sight shows its race, weapons and wounds (what a look tells), never its attributes or Agility
Points; out of sight, only that it was there.
"""

from __future__ import annotations

from pathlib import Path

from engine.saves import SaveFile
from engine.sideview import FULL, HIDDEN
from engine.state import plain_copy
from rulesets.percentile import RULESET

DEMO = Path(__file__).resolve().parents[3] / "saves" / "demo-percentile.toml"


def demo_state() -> dict:
    return plain_copy(SaveFile.load(DEMO).encounter.state)


def test_own_people_in_full_enemies_by_sight() -> None:
    state = demo_state()
    view = RULESET.side_view(state, "crew")
    assert set(view.own) == {"marr", "keller", "okafor"}
    names = {c.name: dict(c.known) for c in view.contacts}
    assert set(names) == {"Skarr-Vesh", "Tchik-Ahn"}   # the salvagers have not joined the fight
    skarr = names["Skarr-Vesh"]
    assert skarr["Race"].startswith("Aracnian") and skarr["Wounds"] == "none seen"
    shown = " ".join(" ".join(v for v in c.known[i]) for c in view.contacts for i in range(len(c.known)))
    for secret in ("Aim", "Perception", "Brawl", "AP "):
        assert secret not in shown
    assert view.unseen == "1 side not yet in the fight"


def test_wounds_show_out_of_sight_hides() -> None:
    state = demo_state()
    state["people"]["skarr"]["body"]["chest"]["taken"] = 13
    state["people"]["skarr"]["wounds"].append({"part": "chest", "points": 13, "type": "projectile",
                                               "percent": 33, "text": "the bullet grazes the skin"})
    wounds = {c.name: dict(c.known) for c in RULESET.side_view(state, "crew").contacts}["Skarr-Vesh"]["Wounds"]
    assert "chest" in wounds and "grazes" in wounds
    state["contact_lost"] = True
    lost = {c.name: dict(c.known) for c in RULESET.side_view(state, "crew").contacts}
    assert lost["Skarr-Vesh"] == {"Seen": "out of sight"}


def test_the_fight_is_in_the_open_corrections_stay_the_referees() -> None:
    state = demo_state()
    assert RULESET.log_seen(state, "crew", "action", {"name": "attack"}, None) == FULL
    correction = {"path": ["people", "skarr", "aim"], "value": 1}
    assert RULESET.log_seen(state, "crew", "correction", correction, None) == HIDDEN
