"""Unit ids made from names in any script, and the one check every id read from a file passes.

Found by a game master's drive: a gothic fight (its rules text is Russian) with ships named in Cyrillic got the
ids ``ship`` and ``ship-2``, which the correction form, the log and the save then showed him.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ids import id_problem, unit_id


@pytest.mark.parametrize("name, made", [
    ("Кровавый Клинок", "кровавый-клинок"),
    ("  Молот   Тракии!  ", "молот-тракии"),
    ("Αργώ Νίκη", "αργώ-νίκη"),
    ("ΟΔΥΣΣΕΥΣ", "οδυσσευς"),  # str.lower writes the final sigma
    ("Étoile du Nord", "étoile-du-nord"),
    ("E\u0301toile", "étoile"),  # an accent typed apart from its letter: one character, as NFC writes it
    ("Straße 7", "straße-7"),
    ("Kessel 2nd Battery", "kessel-2nd-battery"),
    ("अग्नि", "अग्नि"),  # Devanagari's vowel signs are marks, kept with their letters
    ("Swift Dolan", "swift-dolan"),  # ASCII names get the ids they always got
    ("Emperor's Wrath", "emperor-s-wrath"),
    ("HMS_Victory", "hms-victory"),
    ("1701", "1701"),
])
def test_an_id_keeps_the_names_letters_of_any_script_in_lower_case(name: str, made: str) -> None:
    assert unit_id(name, (), "ship") == made
    assert id_problem(made) == ""


@pytest.mark.parametrize("name", ["", "   ", "!!!", "★★★", "—", "\u0301"])
def test_a_name_with_no_letter_or_digit_gets_the_kind_of_unit_for_its_id(name: str) -> None:
    assert unit_id(name, (), "ship") == "ship"
    assert unit_id(name, {"ship"}, "ship") == "ship-2"
    assert unit_id(name, (), "defence") == "defence"


def test_ids_stay_unique_between_names_that_differ_only_in_case_or_punctuation() -> None:
    taken: list[str] = []
    for name in ("Кровавый Клинок", "КРОВАВЫЙ КЛИНОК", "Кровавый-Клинок!", "кровавый клинок 2", "Кровавый  Клинок"):
        taken.append(unit_id(name, taken, "ship"))
    assert taken == ["кровавый-клинок", "кровавый-клинок-2", "кровавый-клинок-3", "кровавый-клинок-2-2",
                     "кровавый-клинок-4"]
    assert len(set(taken)) == len(taken)


@pytest.mark.parametrize("uid", ["кровавый-клинок", "swift-dolan", "sat1", "Gazelle", "hms_victory", "αργώ",
                                 "étoile", "अग्नि", "7"])
def test_an_id_of_letters_digits_hyphens_and_underscores_passes(uid: str) -> None:
    assert id_problem(uid) == ""


@pytest.mark.parametrize("uid, said", [
    ("", "is empty"),
    ("a.b", "holds '.'"),
    ("кровавый клинок", "holds a space"),
    ('a"b', """holds '"'"""),
    ("a'b", "holds \"'\""),
    ("a\x01b", "holds '\\u0001'"),
    ("a\nb", "holds '\\u000a'"),
    ("a\u200bb", "holds '\\u200b'"),  # invisible
    ("a|b", "holds '|'"),  # a pair of units is kept as "a|b"
    ("a[0]", "holds '['"),
    ("e\u0301toile", "accent written apart from its letter"),
    ("\u0301a", "begins with an accent"),
])
def test_an_unsafe_id_is_refused_in_words(uid: str, said: str) -> None:
    problem = id_problem(uid)
    assert said in problem and "\n" not in problem


def test_an_id_that_is_not_text_is_refused() -> None:
    assert "text" in id_problem(7) and "text" in id_problem(None)


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=30), st.lists(st.text(max_size=8), max_size=5))
def test_an_id_made_from_any_name_passes_the_check_and_is_not_taken(name: str, taken: list[str]) -> None:
    uid = unit_id(name, taken, "ship")
    assert id_problem(uid) == "" and uid not in taken
    assert uid == unicodedata.normalize("NFC", uid.lower())  # lowercased already


@pytest.mark.parametrize("name", ["", "   ", "\t"])
def test_a_unit_file_whose_name_is_blank_is_refused_naming_the_file(tmp_path, name: str) -> None:
    """Found by a game master's drive: a ship named "" (or spaces) passed ``flagbridge check`` and the walk-through's
    unit editor, and then stood nameless in every list, form and log line."""
    from engine.errors import BadTable
    from engine.files import load_unit

    scout = Path(load_unit.__code__.co_filename).parents[1] / "rulesets" / "classic_hg" / "ships" / "scout.toml"
    path = tmp_path / "nameless.toml"
    path.write_text(scout.read_text().replace('name = "Far Horizon"', f'name = "{name}"'))
    with pytest.raises(BadTable) as refused:
        load_unit(path, "ship")
    assert str(refused.value).startswith(f"{path}: ship: name") and "empty" in str(refused.value)
