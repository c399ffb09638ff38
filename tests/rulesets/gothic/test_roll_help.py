"""Before a critical hit is rolled, the critical hits table is shown under the dice prompt, so a game master
rolling physical dice reads what each total finds (as megatraveller's damage and critical rolls show theirs).

gothic-boarding-teleport.en.md, "Resolving a hit-and-run attack": on 2 or more "roll on the critical hits table
and apply the result immediately". The text does not print the table: its rows are our shipped default
(``rulesets/gothic/tables/criticals.toml``), so the rows shown are read from the fight's own table, and a
replaced table is the one shown.
"""

from __future__ import annotations

from pathlib import Path

from rulesets.gothic.tables import TABLE_SET

from .fleet import answer, hit_and_run_waiting, new_fight


def critical_waiting(**options):
    """Hammer's teleport attack on Iron Vow (shields down, 6 hits left, 8 cm away) that rolls 2+: the critical
    hits table's 2D6 is the roll waiting."""
    enc = new_fight(**options)
    hit_and_run_waiting(enc)
    answer(enc, "Hit-and-run on Iron Vow", "6")
    assert enc.pending is not None and enc.pending.purpose == "Critical hit on Iron Vow"
    return enc


def test_the_critical_roll_shows_every_row_of_the_critical_hits_table() -> None:
    enc = critical_waiting()
    lines = enc.ruleset.roll_help(enc.state, enc.pending)
    assert lines == ["Critical hits table: " + " · ".join([
        "2 Command deck shaken", "3 Starboard batteries silenced", "4 Port batteries silenced",
        "5 Prow weapons silenced", "6 Drive chamber damaged", "7 Fire on the gun decks",
        "8 Manoeuvring thrusters jammed", "9 Turret crews slain", "10 Shield generators overloaded",
        "11 Hull breached (+1 hit, permanent)", "12 Bulkheads give way (+2 hits, permanent)"])]


def test_a_replaced_critical_hits_table_is_the_one_shown(tmp_path: Path) -> None:
    mine = tmp_path / "crits.toml"
    shipped = TABLE_SET.shipped_path("criticals").read_text(encoding="utf-8")
    mine.write_text(shipped.replace("shipped_default = true", "shipped_default = false")
                    .replace('"Shield generators overloaded"', '"Void shields fail"')
                    .replace('name = "Fire on the gun decks", effect = "fire", extra_hits = 0, repairable = true',
                             'name = "Plasma leak", effect = "fire", extra_hits = 1, repairable = false'),
                    encoding="utf-8")
    enc = critical_waiting(tables={"criticals": str(mine)})
    line = enc.ruleset.roll_help(enc.state, enc.pending)[0]
    assert "10 Void shields fail" in line and "7 Plasma leak (+1 hit, permanent)" in line
    assert "Shield generators" not in line and "Fire on the gun decks" not in line


def test_other_rolls_show_nothing_more() -> None:
    enc = new_fight()
    hit_and_run_waiting(enc)
    assert enc.pending is not None and enc.ruleset.roll_help(enc.state, enc.pending) == []
