"""A megatraveller table corrected whole plays out what each value in it would play out corrected alone.

A correction may name one value (``ships.picket.side``) or a whole table or list (``ships.picket``, ``ships``, a
ship's ``batteries``): through the Python API, and kept from a hand edit of a save's [state] (an edit that changes a
list's length is kept as one correction of the list). Only the single value once played out what follows from it:
a ship given whole with another side crashed the correction (no range to its new enemies), and a battery's factor
raised to A inside a table left it no spinal mount. Now each changed value inside the table is handed on as its
own correction would be, typed and replayed from a saved log alike, with the same words in the log.

megatraveller-sensors-fire.txt, "States of Detection in MT HG", line 9: "Anything within 100 spaces is pretty
much detected"; the damage DMs split "Factor <=9 (non Spinal)" from "Factor >=A (10) (Spinals)" (lines 77-78),
so a battery's mount follows its factor (``test_mounts``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.saves import SaveFile, create
from engine.state import plain_copy
from rulesets.megatraveller import MegaTraveller
from tests.rulesets.megatraveller.engagement import new_engagement
from tests.rulesets.scripted import corrected_and_reloaded

MESON = 15  # Lancer's batteries[15]: B5, a factor-3 meson gun (engagement.LANCER; B1 is 12 beam lasers)


def far_apart():
    """The engagement at 150 squares, beyond detection, with Shadow hidden from the Imperials by hand."""
    enc = new_engagement(range=150)
    enc.correct("knowledge.imp.shadow.state", "undetected", note="still hidden")
    return enc


@pytest.mark.parametrize("whole", ["ships.picket", "ships"])
def test_a_ship_given_whole_with_another_side_meets_its_new_enemies(whole: str, tmp_path: Path) -> None:
    """As ``ships.picket.side = cor`` alone: the default range to each new enemy, and what the two detect of each
    other at it, said in the log; Shadow stays hidden (150 squares: out of reach)."""
    single = far_apart()
    said = single.correct("ships.picket.side", "cor").notes
    assert said == ["Range Lancer - Picket: 10 squares (far), the default for new enemies", "Corsairs detects Lancer",
                    "Imperial detects Picket"]

    enc = far_apart()
    ships = plain_copy(enc.state["ships"])
    ships["picket"]["side"] = "cor"
    event, loaded = corrected_and_reloaded(enc, whole, ships["picket"] if whole == "ships.picket" else ships, tmp_path)
    assert enc.state["ranges"]["lancer|picket"] == 10
    assert enc.state["knowledge"]["imp"]["shadow"]["state"] == "undetected"
    assert event.notes == said and enc.state == single.state


@pytest.mark.parametrize("whole", ["ships.lancer.batteries", "ships.lancer"])
def test_a_battery_s_factor_raised_to_a_inside_a_table_makes_a_spinal_mount(whole: str, tmp_path: Path) -> None:
    single = new_engagement()
    said = single.correct(f"ships.lancer.batteries[{MESON}].factor", 11).notes
    assert said == ["Lancer B5 is now a spinal mount (factor A or more)"]

    enc = new_engagement()
    lancer = plain_copy(enc.state["ships"]["lancer"])
    lancer["batteries"][MESON]["factor"] = 11
    event, _loaded = corrected_and_reloaded(enc, whole, lancer["batteries"] if whole.endswith("batteries") else lancer,
                                            tmp_path)
    assert enc.state["ships"]["lancer"]["batteries"][MESON]["spinal"] is True
    assert event.notes == said and enc.state == single.state


def test_several_values_in_one_table_play_out_each_once_in_the_state_s_order(tmp_path: Path) -> None:
    """The whole ``ships`` table with Lancer's meson gun raised to A and Picket moved to the Corsairs: each plays
    out once, in the order the state holds the ships (Lancer before Picket), whatever order the table was written
    in; the log says what the two corrections typed alone would say."""
    singles = far_apart()
    said = (singles.correct(f"ships.lancer.batteries[{MESON}].factor", 11).notes
            + singles.correct("ships.picket.side", "cor").notes)
    for backwards in (False, True):
        enc = far_apart()
        ships = plain_copy(enc.state["ships"])
        ships["lancer"]["batteries"][MESON]["factor"] = 11
        ships["picket"]["side"] = "cor"
        if backwards:
            ships = dict(reversed(ships.items()))
        folder = tmp_path / str(backwards)
        folder.mkdir()
        event, _loaded = corrected_and_reloaded(enc, "ships", ships, folder)
        assert event.notes == said and enc.state == singles.state


def test_a_hand_edit_kept_as_a_whole_list_plays_out_the_values_it_changes(tmp_path: Path) -> None:
    """``keep-edits`` keeps an edit that changes a list's length as one correction of the list: Lancer's last
    battery struck off by hand, and its meson gun raised to factor 11 in the same list, make the meson gun a spinal
    mount, as the factor corrected alone does."""
    path = tmp_path / "edited.toml"
    create(path, new_engagement())
    text = path.read_text()
    state = text.index("[state.ships.lancer]")
    b5 = text.index('{ id = "B5"', state)
    b5_end = text.index("\n", b5)
    b8 = text.index('{ id = "B8"', state)
    b8_start, b8_end = text.rindex("\n", 0, b8), text.index("\n", b8)
    meson = text[b5:b5_end]
    assert "factor = 3," in meson and "spinal = false" in meson
    edited = (text[:b5] + meson.replace("factor = 3,", "factor = 11,") + text[b5_end:b8_start] + text[b8_end:])
    path.write_text(edited)
    enc = SaveFile.load(path, keep_edits=True).encounter
    kept = enc.events[-1]
    assert (kept.kind, kept.data["path"]) == ("correction", ["ships", "lancer", "batteries"])
    batteries = enc.state["ships"]["lancer"]["batteries"]
    assert [b["id"] for b in batteries][-1] == "B7" and batteries[MESON]["factor"] == 11
    assert batteries[MESON]["spinal"] is True
    assert kept.notes == ["Lancer B5 is now a spinal mount (factor A or more)"]


def test_a_save_written_before_tables_played_out_loads_with_today_s_result(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A save whose whole-list correction raised the meson gun to factor 11 and did no more holds it as no spinal
    mount in its [state]: the older version's result, not a hand edit; the fight opens as today's rules play it."""
    path = tmp_path / "old.toml"
    with monkeypatch.context() as m:
        m.setattr(MegaTraveller, "plays_out_inside_tables", False)
        enc = new_engagement()
        enc.correct("ships.lancer.batteries", [dict(b, factor=11) if i == MESON else b
                                               for i, b in enumerate(enc.state["ships"]["lancer"]["batteries"])])
        assert enc.state["ships"]["lancer"]["batteries"][MESON]["spinal"] is False
        create(path, enc)
    text = path.read_text()
    loaded = SaveFile.load(path).encounter
    assert loaded.state["ships"]["lancer"]["batteries"][MESON]["spinal"] is True
    assert path.read_text() == text  # loading never writes
