"""The log told back for a campaign journal (issue 9, "Session flow"): a heading per turn, no bare
``next`` lines, and a summary of what the fight did to every unit."""

from __future__ import annotations

from engine.encounter import Encounter
from engine.recap import by_turn, markdown, summary
from tests.skirmish import SKIRMISH, make_setup


def fought() -> Encounter:
    enc = Encounter(make_setup(), SKIRMISH)
    enc.act("initiative")
    enc.type_roll("2")
    enc.type_roll("6")
    enc.act("next")
    enc.act("scan", side="blue", target="brute")
    enc.type_roll("6 6")
    enc.act("fire", ship="arrow", target="brute")
    enc.type_roll("6 6")
    enc.type_roll("4")
    enc.act("next")
    enc.act("next")  # turn 2 begins
    enc.act("initiative")
    return enc


def test_entries_come_under_the_turn_they_began_in_without_bare_next_lines() -> None:
    turns = by_turn(fought())
    assert [t for t, _ in turns] == ["Turn 1", "Turn 2"]
    assert [e.headline.split()[0] for e in turns[0][1]] == ["initiative", "scan", "fire"]
    assert [e.headline for e in turns[1][1]] == ["initiative"]


def test_the_summary_says_what_changed_for_each_unit() -> None:
    assert summary(fought()) == ["Brute: hull 30 -> 26"]
    assert summary(Encounter(make_setup(), SKIRMISH)) == ["nothing has changed since the start"]


def test_markdown_has_a_heading_per_turn_and_the_summary() -> None:
    text = markdown(fought())
    assert "## Turn 1" in text and "## Turn 2" in text and "## Summary\n\n- Brute: hull 30 -> 26" in text
    assert "\nnext" not in text and ". next\n" not in text
