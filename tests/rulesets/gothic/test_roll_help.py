"""Before a critical hit is rolled, the critical hits table is shown under the dice prompt, so a game master
rolling physical dice reads what each total finds (as megatraveller's damage and critical rolls show theirs).

gothic-boarding-teleport.en.md, "Resolving a hit-and-run attack": on 2 or more "roll on the critical hits table
and apply the result immediately". The text does not print the table: its rows are our shipped default
(``rulesets/gothic/tables/criticals.toml``), so the rows shown are read from the fight's own table, and a
replaced table is the one shown.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import BadTable
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


#: The width the lines are packed to: an 80-column console's prompt, less its padding of one column a side.
PROMPT_COLUMNS = 78


def test_the_critical_roll_shows_every_row_of_the_critical_hits_table_in_three_lines() -> None:
    """Every row's facts (its total, what it is, the hits it takes at once, and whether it can ever be repaired)
    in three lines that an 80-column prompt shows unwrapped, no entry split between lines: each row by its short
    name (the table's ``short``), the permanent rows named once, as a range. It wrapped to five lines there, and
    the prompt's six-line height cut the 12 row when a refusal was shown too."""
    enc = critical_waiting()
    lines = enc.ruleset.roll_help(enc.state, enc.pending)
    assert lines == [
        "Critical hits: 2 Command deck · 3 Starboard batteries · 4 Port batteries",
        "5 Prow weapons · 6 Drive chamber · 7 Fire · 8 Thrusters · 9 Turret crews",
        "10 Shields · 11 Hull breached +1 hit · 12 Bulkheads +2 hits · 11-12 permanent",
    ]
    assert all(len(line) <= PROMPT_COLUMNS for line in lines)


def house_table(tmp_path: Path, *edits: tuple[str, str]) -> Path:
    """The shipped critical hits table as a game master's own file, with each (old, new) text replaced."""
    mine = tmp_path / "crits.toml"
    text = TABLE_SET.shipped_path("criticals").read_text(encoding="utf-8").replace("shipped_default = true",
                                                                                  "shipped_default = false")
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    mine.write_text(text, encoding="utf-8")
    return mine


def test_a_replaced_critical_hits_table_is_the_one_shown(tmp_path: Path) -> None:
    mine = house_table(tmp_path, ('name = "Shield generators overloaded", short = "Shields"',
                                  'name = "Void shields fail", short = "Void shields"'),
                       ('name = "Fire on the gun decks", short = "Fire", effect = "fire", extra_hits = 0, '
                        'repairable = true',
                        'name = "Plasma leak", short = "Plasma", effect = "fire", extra_hits = 1, repairable = false'))
    enc = critical_waiting(tables={"criticals": str(mine)})
    text = " ".join(enc.ruleset.roll_help(enc.state, enc.pending))
    assert "10 Void shields ·" in text and "7 Plasma +1 hit ·" in text and text.endswith("7, 11-12 permanent")
    assert "Shields ·" not in text and "Fire" not in text


def test_a_row_with_no_short_name_is_listed_by_its_name_and_like_rows_side_by_side_as_a_range(
        tmp_path: Path) -> None:
    """A book's table copied in rows of name, effect, hits and repair only: each row is listed by its whole name.
    Rows side by side that would read the same are one range: a book's 3 and 4 that are both "Port batteries
    silenced" read "3-4 Port batteries silenced", not the same words twice. A row too long for one line is a line
    of its own."""
    long_name = "Plasma conduits rupture along the whole length of the dorsal spine, venting the gun decks"
    mine = house_table(tmp_path, ('"3" = { name = "Starboard batteries silenced", short = "Starboard batteries", ',
                                  '"3" = { name = "Port batteries silenced", '),
                       ('short = "Port batteries", ', ""),
                       ('name = "Drive chamber damaged", short = "Drive chamber"', f'name = "{long_name}"'))
    enc = critical_waiting(tables={"criticals": str(mine)})
    lines = enc.ruleset.roll_help(enc.state, enc.pending)
    assert lines[0] == "Critical hits: 2 Command deck · 3-4 Port batteries silenced · 5 Prow weapons"
    assert lines[1] == f"6 {long_name}"
    assert lines[2].startswith("7 Fire · 8 Thrusters")
    assert all(len(line) <= PROMPT_COLUMNS for line in lines if long_name not in line)


def test_a_short_name_is_checked_like_the_rest_of_the_row(tmp_path: Path) -> None:
    mine = house_table(tmp_path, ('short = "Fire"', 'short = " "'))
    with pytest.raises(BadTable, match=r"crits.toml: rolls.7.short: expected a short name"):
        critical_waiting(tables={"criticals": str(mine)})


def test_other_rolls_show_nothing_more() -> None:
    enc = new_fight()
    hit_and_run_waiting(enc)
    assert enc.pending is not None and enc.ruleset.roll_help(enc.state, enc.pending) == []
