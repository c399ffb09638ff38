"""The shared checks of engine/schema.py: each accepts what it should and refuses the rest with one
line naming the place, what was expected and what was got."""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import BadTable
from engine.schema import (ABSENT, FLAG, NAMES, REQUIRED, TEXT, WHOLE, Field, at, check_value, entries, every_row,
                           list_of, number, one_of, record, sections, table_of, validate, whole)


def refusal(check, value: Any, where: str = "entries.beam_laser") -> str:
    """The one line ``check`` refuses ``value`` with."""
    with pytest.raises(BadTable) as caught:
        check(value, where)
    text = str(caught.value)
    assert "\n" not in text
    return text


# --- places ----------------------------------------------------------------------------------

@pytest.mark.parametrize("where, key, place", [
    ("entries", "beam_laser", "entries.beam_laser"),
    ("entries", "AUTO EVADE", 'entries."AUTO EVADE"'),
    ("general", "7", "general.7"),
    ("rows", 0, "rows[0]"),
    ("", "spaced_dm", "spaced_dm"),
    ("entries", "", 'entries.""'),
])
def test_a_place_is_written_as_toml_would(where: str, key, place: str) -> None:
    assert at(where, key) == place


# --- plain values ----------------------------------------------------------------------------

@pytest.mark.parametrize("check, words, good, bad", [
    (WHOLE, "a whole number", [-3, 0, 7], [1.5, "7", True, None]),
    (whole(0), "a whole number 0 or more", [0, 4], [-1, 0.0, False]),
    (whole(1, 3), "a whole number 1..3", [1, 3], [0, 4]),
    (whole(hi=0), "a whole number 0 or less", [0, -2], [1]),
    (number(), "a number", [0, -1.5, 3], ["1", True]),
    (number(0), "a number 0 or more", [0, 0.5], [-0.1, None]),
    (number(above=0), "a number above 0", [0.5, 20], [0, -1]),
    (TEXT, "text", ["", "laser"], [1, None, ["x"]]),
    (FLAG, "true or false", [True, False], [0, 1, "true"]),
    (one_of("destroy", "reduce"), "one of 'destroy', 'reduce'", ["destroy"], ["Destroy", None, ["destroy"]]),
    (one_of(1, 2), "one of 1, 2", [1, 2], [True, 1.0, "1"]),
])
def test_plain_values(check, words: str, good: list, bad: list) -> None:
    assert check.expected == words
    for value in good:
        assert check(value, "here") == value and check.passes(value)
    for value in bad:
        assert not check.passes(value)
        assert refusal(check, value, "entries.beam_laser.damage") == \
            f"entries.beam_laser.damage: expected {words}, got {value!r}"


def test_worded_refuses_the_whole_value_in_the_files_own_words() -> None:
    check = whole(2, 30).worded("a 2D target number 2..30")
    assert check(8, "levels.routine") == 8 and check.passes(30) and not check.passes(31)
    assert refusal(check, 31, "levels.routine") == "levels.routine: expected a 2D target number 2..30, got 31"


# --- lists -----------------------------------------------------------------------------------

def test_a_list_checks_each_item_at_its_own_place() -> None:
    armor = list_of(one_of("auto", "no"), length=3, expected="a list of 3 cells")
    assert armor(["auto", "no", "no"], "x") == ["auto", "no", "no"]
    assert refusal(armor, ["auto"], "entries.missile_he.armor") == \
        "entries.missile_he.armor: expected a list of 3 cells, got ['auto']"
    assert refusal(armor, "auto", "entries.missile_he.armor").startswith("entries.missile_he.armor: expected a list")
    assert refusal(armor, ["auto", "7+", "no"], "entries.missile_he.armor") == \
        "entries.missile_he.armor[1]: expected one of 'auto', 'no', got '7+'"


def test_a_list_can_ask_for_at_least_some_items_and_be_worded_whole() -> None:
    rows = list_of(WHOLE, at_least=2)
    assert rows([1, 2, 3], "x") == [1, 2, 3]
    assert refusal(rows, [1], "sand.1") == "sand.1: expected a list of at least 2 items, got [1]"
    assert NAMES(["INTERCEPT"], "x") == ["INTERCEPT"]
    assert refusal(NAMES, ["INTERCEPT", 3], "entries.am_missile.programs") == \
        "entries.am_missile.programs: expected a list of names, got ['INTERCEPT', 3]"


def test_a_list_comes_back_as_a_copy() -> None:
    given = ["a"]
    checked = NAMES(given, "x")
    assert checked == given and checked is not given


# --- tables ----------------------------------------------------------------------------------

def test_a_table_of_checks_each_value_and_limits_its_keys() -> None:
    to_hit = table_of(whole(2, 12), ("close", "short", "long"))
    assert to_hit({"short": 8}, "x") == {"short": 8}
    assert refusal(to_hit, 8, "entries.beam_laser.to_hit") == \
        "entries.beam_laser.to_hit: expected a table of close/short/long, got 8"
    assert refusal(to_hit, {"extreme": 8}, "entries.beam_laser.to_hit") == \
        "entries.beam_laser.to_hit: unexpected key 'extreme' (expected close, short, long)"
    assert refusal(to_hit, {"short": 13}, "entries.beam_laser.to_hit") == \
        "entries.beam_laser.to_hit.short: expected a whole number 2..12, got 13"
    assert table_of(TEXT)({}, "x") == {}


def test_entries_need_at_least_one() -> None:
    check = entries(WHOLE)
    assert check({"a": 1}, "levels") == {"a": 1}
    assert refusal(check, {}, "levels") == "levels: expected a table of entries, got {}"
    assert refusal(check, None, "levels") == "levels: expected a table of entries, got None"
    assert refusal(check, {"AUTO EVADE": "x"}, "entries") == 'entries."AUTO EVADE": expected a whole number, got \'x\''


def test_every_row_needs_every_key_and_no_other() -> None:
    rows = every_row(("2", "3", "4"), TEXT)
    assert rows({"4": "c", "2": "a", "3": "b"}, "x") == {"2": "a", "3": "b", "4": "c"}
    assert list(rows({"4": "c", "2": "a", "3": "b"}, "x")) == ["2", "3", "4"]
    assert refusal(rows, {"2": "a", "3": "b"}, "general") == "general.4: missing (every 2..4 needs a row)"
    assert refusal(rows, {"2": "a", "3": "b", "4": "c", "5": "d"}, "general") == \
        "general: unexpected key '5' (expected 2..4)"
    assert refusal(rows, {"2": "a", "3": 3, "4": "c"}, "general") == "general.3: expected text, got 3"
    assert refusal(rows, [], "general") == "general: expected a table, got []"
    named = every_row(("2", "below"), TEXT, span="2 and below")
    assert refusal(named, {"2": "a"}, "surface") == "surface.below: missing (every 2 and below needs a row)"


# --- records and files -----------------------------------------------------------------------

WEAPON = {"label": (TEXT, REQUIRED), "damage": (whole(0), REQUIRED), "fires": (NAMES, []),
          "kill_roll": (whole(2, 12), ABSENT), "ecm": (FLAG, True)}


def test_a_record_fills_defaults_and_leaves_absent_fields_out() -> None:
    checked = record(WEAPON)({"label": "Laser", "damage": 1}, "entries.beam_laser")
    assert checked == {"label": "Laser", "damage": 1, "fires": [], "ecm": True}
    checked["fires"].append("x")
    assert WEAPON["fires"][1] == []  # each record gets its own copy of a default


def test_a_record_refuses_a_missing_unknown_or_bad_field() -> None:
    weapon = record(WEAPON)
    assert refusal(weapon, {"label": "Laser"}) == "entries.beam_laser.damage: missing (a whole number 0 or more)"
    assert refusal(weapon, {"label": "Laser", "damage": 1, "dammage": 3}) == \
        "entries.beam_laser: unknown field 'dammage' (known: label, damage, fires, kill_roll, ecm)"
    assert refusal(weapon, {"label": "Laser", "damage": -1}) == \
        "entries.beam_laser.damage: expected a whole number 0 or more, got -1"
    assert refusal(weapon, "laser") == "entries.beam_laser: expected a table, got 'laser'"
    assert refusal(record(WEAPON, expected="{ label, damage }"), 3) == \
        "entries.beam_laser: expected { label, damage }, got 3"


def test_a_record_may_allow_other_fields() -> None:
    craft = record({"name": (TEXT, REQUIRED)}, others_allowed=True)
    assert craft({"name": "Gig", "crew": 2}, "x") == {"name": "Gig", "crew": 2}


def test_sections_allow_only_their_own_and_the_header() -> None:
    doc = {"table": {"name": "toy"}, "spaced_dm": -3, "entries": {"a": 1}}
    body = sections(doc, {"spaced_dm": WHOLE, "entries": entries(WHOLE)})
    assert body == {"spaced_dm": -3, "entries": {"a": 1}}
    with pytest.raises(BadTable, match=r"^extra: unknown top-level key \(expected spaced_dm, entries\)$"):
        sections(doc | {"extra": 1}, {"spaced_dm": WHOLE, "entries": entries(WHOLE)})
    with pytest.raises(BadTable, match="^spaced_dm: expected a whole number, got None$"):
        sections({"entries": {"a": 1}}, {"spaced_dm": WHOLE, "entries": entries(WHOLE)})


# --- fields of ship files --------------------------------------------------------------------

COUNT = Field("count", "int", default=1, minimum=1, maximum=3)


@pytest.mark.parametrize("value, message", [
    ("2", "ship.turrets[0]: count must be a whole number, got '2'"),
    (True, "ship.turrets[0]: count must be a whole number, got True"),
    (0, "ship.turrets[0]: count must be at least 1, got 0"),
    (4, "ship.turrets[0]: count must be at most 3, got 4"),
])
def test_a_field_names_the_record_then_the_field(value, message: str) -> None:
    assert check_value(2, COUNT, "ship.turrets[0]") == 2
    with pytest.raises(BadTable) as caught:
        check_value(value, COUNT, "ship.turrets[0]")
    assert str(caught.value) == message


def test_validate_fills_defaults_and_refuses_missing_unknown_and_wrong_choices() -> None:
    fields = (Field("weapon", "str"), COUNT, Field("signature", "str", default="medium", choices=("large", "medium")))
    assert validate({"weapon": "laser"}, fields, "t") == {"weapon": "laser", "count": 1, "signature": "medium"}
    cases = [
        ({}, "t: missing weapon (text)"),
        ({"weapon": "laser", "signature": "huge"}, "t: signature must be one of large, medium, got 'huge'"),
        ([], "t: expected a table, got []"),
    ]
    for given, message in cases:
        with pytest.raises(BadTable) as caught:
            validate(given, fields, "t")
        assert str(caught.value) == message
    assert validate({"weapon": "laser", "warp_factor": 9}, fields, "t")["warp_factor"] == 9
    with pytest.raises(BadTable, match=r"^t: unknown field 'warp_factor' \(known: count, signature, weapon\)$"):
        validate({"weapon": "laser", "warp_factor": 9}, fields, "t", allow_extra=False)


def test_percentile_option_in_quotes_says_it_is_text() -> None:
    """A drive's hand edit read "one of 1, 2, got '2'", as if '2' were allowed: the message says it is text."""
    from rulesets.percentile.catalogue import read_options

    with pytest.raises(BadTable, match=r"got '2' \(text: write the number without quotes\)"):
        read_options({"primary_each_round": "2"})
