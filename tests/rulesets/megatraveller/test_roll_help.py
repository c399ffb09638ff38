"""Before a damage or critical roll, the table the dice will be read on is shown under the prompt
(issue 9: "Before a location roll, the location table being rolled on").

The rows come from the fight's own tables (rulesets/megatraveller/tables/damage.toml and
criticals.toml, our shipped defaults), so a replaced table is the one shown.
"""

from __future__ import annotations

from engine.rolls import RollRequest
from rulesets.megatraveller import RULESET
from tests.rulesets.megatraveller.engagement import make_setup
from engine.encounter import Encounter


def state() -> dict:
    return Encounter(make_setup()).state


def test_a_damage_roll_shows_its_table() -> None:
    tables = RULESET.tables_for(state())
    request = RollRequest("Damage (surface 1/1)", "2D", then="damage", context={"target": "raider", "table": "surface"})
    lines = RULESET.roll_help(state(), request)
    assert len(lines) == 1 and lines[0].startswith("Surface damage: ")
    row = tables.damage["surface"]["12"]
    assert f"12+ {row['system']}" in lines[0]  # a total above 12 reads that row (the audit saw it as "12" alone)
    four = tables.damage["surface"]["4"]
    assert f"4 {four['system']} {four['amount']}" in lines[0]
    assert "below 2 none" in lines[0]


def test_a_critical_roll_shows_its_table() -> None:
    tables = RULESET.tables_for(state())
    request = RollRequest("Critical 1/1: Corsair-1", "2D", then="critical", context={"target": "raider"})
    lines = RULESET.roll_help(state(), request)
    assert lines == ["Critical hit: " + " · ".join(f"{n} {tables.criticals[n]}" for n in range(2, 13))]


def test_other_rolls_show_nothing_more() -> None:
    assert RULESET.roll_help(state(), RollRequest("To hit", "2D", then="to_hit")) == []
