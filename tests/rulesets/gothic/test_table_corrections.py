"""A gothic table corrected whole plays out what each value in it would play out corrected alone.

A correction may name one value (``ships.shade.hits``) or a whole table or list (``ships.shade``, ``ships``, a
vessel's ``criticals``): through the Python API, and kept from a hand edit of a save's [state]. Only the single
value once played out what follows from it: a whole ship given with no hits left stayed in play, and a critical's
roll changed inside a table left the old row in force. Now each changed value inside the table is handed on as its
own correction would be, typed and replayed from a saved log alike, and the log says what followed in the same
words. What follows is our ruling on corrections (``gothic-boarding-teleport.en.md`` has none): a vessel that
loses its last hit is destroyed, and a critical is "applied at once" from its roll ("Resolving a hit-and-run
attack"), as ``test_battle`` holds for single values.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.saves import SaveFile, create
from rulesets.gothic import Gothic
from tests.rulesets.scripted import corrected_and_reloaded

from .fleet import new_fight, to_phase, unit
from .test_battle import critical_on_vow, end_phase_in_reach


def shade_targeted(enc) -> None:
    """Hammer's boarding torpedoes launched at Shade (a salvo a destroyed target takes off the table)."""
    to_phase(enc, 2)
    enc.act("launch", vessel="hammer", kinds=["boarding"], strength=2, target="shade", distance=30)


def with_value(enc, path: tuple, value):
    """A copy of the state's table ``path[0]`` (all the ships) with the value at the rest of ``path`` changed."""
    from engine.state import plain_copy, set_path

    table = plain_copy(enc.state[path[0]])
    set_path(table, path[1:], value)
    return table


@pytest.mark.parametrize("whole", ["ships.shade", "ships"])
def test_a_whole_ship_given_with_no_hits_left_is_destroyed(whole: str, tmp_path: Path) -> None:
    """As ``ships.shade.hits = 0`` alone: Shade is destroyed, the salvo aimed at it leaves the table, and the log
    says so in the same words."""
    single = new_fight()
    shade_targeted(single)
    said = single.correct("ships.shade.hits", 0).notes
    assert said == ["Shade is destroyed (no hits left); 1 salvo aimed at it removed"]

    enc = new_fight()
    shade_targeted(enc)
    ships = with_value(enc, ("ships", "shade", "hits"), 0)
    event, loaded = corrected_and_reloaded(enc, whole, ships["shade"] if whole == "ships.shade" else ships, tmp_path)
    assert unit(enc, "shade")["destroyed"] and enc.state["ordnance"] == {}
    assert event.notes == said
    assert enc.state == single.state and unit(loaded, "shade")["destroyed"]


def test_a_whole_defence_given_with_no_hits_left_is_destroyed(tmp_path: Path) -> None:
    enc = new_fight()
    sat = dict(unit(enc, "sat"), hits=0)
    event, _loaded = corrected_and_reloaded(enc, "defences.sat", sat, tmp_path)
    assert unit(enc, "sat")["destroyed"] and event.notes == ["Sentinel is destroyed (no hits left)"]


@pytest.mark.parametrize("whole", ["ships.vow.criticals[0]", "ships.vow.criticals", "ships.vow"])
def test_a_critical_s_roll_changed_inside_a_table_puts_the_corrected_row_in_force(whole: str, tmp_path: Path) -> None:
    """Our shipped 12 (tables/criticals.toml) took 2 extra hits; its roll corrected to 7 (a fire) inside the entry,
    the list or the whole vessel gives the 2 hits back and applies the fire, as ``criticals[0].roll = 7`` does."""
    single = new_fight()
    critical_on_vow(single, "6 6")
    said = single.correct("ships.vow.criticals[0].roll", 7).notes
    assert said[:2] == ["Iron Vow: Bulkheads give way is taken back: 2 hits given back, 6/8 left",
                        "Critical on Iron Vow: Fire on the gun decks (roll 7)"]

    enc = new_fight()
    critical_on_vow(enc, "6 6")
    from engine.state import get_path, parse_path, plain_copy, set_path

    at = parse_path(whole)
    value = plain_copy(get_path(enc.state, at))
    set_path(value, parse_path("ships.vow.criticals[0].roll")[len(at):], 7)
    event, _loaded = corrected_and_reloaded(enc, whole, value, tmp_path)
    vow = unit(enc, "vow")
    assert (vow["hits"], vow["criticals"][0]["name"]) == (6, "Fire on the gun decks")
    assert event.notes == said and enc.state == single.state


def test_a_teleport_waiting_on_a_vessel_a_whole_table_destroys_is_not_asked(tmp_path: Path) -> None:
    """A hit-and-run a teleport attack waits to roll against Iron Vow boards no wreck: the vessel given whole with
    no hits left drops the roll, as its hits corrected alone do (``test_battle``)."""
    enc = new_fight()
    enc.act("record_hits", vessel="vow", hits=2)
    end_phase_in_reach(enc, ("hammer", "vow", 8))
    enc.act("shields", vessel="vow", up=0)
    enc.act("teleport", vessel="hammer", target="vow")
    assert enc.pending is not None
    event, loaded = corrected_and_reloaded(enc, "ships.vow", dict(unit(enc, "vow"), hits=0), tmp_path)
    assert enc.pending is None and loaded.pending is None
    assert "Iron Vow is destroyed: the teleport attack by Hammer finds nothing to attack" in event.notes


def test_several_values_in_one_table_play_out_each_once_in_the_state_s_order(tmp_path: Path) -> None:
    """The whole ``ships`` table with Iron Vow's critical corrected from 12 to 7 and Shade's hits to 0: each plays
    out once, in the order the state holds the ships (Iron Vow before Shade), whatever order the table was written
    in, and the log says what the two corrections typed alone would say, one after the other."""
    singles = new_fight()
    critical_on_vow(singles, "6 6")
    said = singles.correct("ships.vow.criticals[0].roll", 7).notes + singles.correct("ships.shade.hits", 0).notes

    for backwards in (False, True):
        enc = new_fight()
        critical_on_vow(enc, "6 6")
        ships = with_value(enc, ("ships", "vow", "criticals", 0, "roll"), 7)
        ships["shade"]["hits"] = 0
        if backwards:
            ships = dict(reversed(ships.items()))
        folder = tmp_path / str(backwards)
        folder.mkdir()
        event, _loaded = corrected_and_reloaded(enc, "ships", ships, folder)
        assert event.notes == said
        assert [n for n in said if "destroyed" in n] == ["Shade is destroyed (no hits left)"]
        assert enc.state == singles.state


def test_a_save_written_before_tables_played_out_loads_with_today_s_result(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A save whose whole-table correction set Shade's hits to 0 and did no more holds Shade afloat in its [state]:
    that is the older version's result, not a hand edit, and the fight opens as today's rules play it. The same
    version played out a critical's roll corrected alone (12 to 7 gives Iron Vow 2 hits back), as today's does:
    only the reading of that version explains the whole file."""
    path = tmp_path / "old.toml"
    with monkeypatch.context() as m:
        m.setattr(Gothic, "plays_out_inside_tables", False)
        enc = new_fight()
        critical_on_vow(enc, "6 6")
        enc.correct("ships.vow.criticals[0].roll", 7)
        to_phase(enc, 1)
        shade_targeted(enc)
        enc.correct("ships.shade", dict(unit(enc, "shade"), hits=0))
        assert not unit(enc, "shade")["destroyed"] and unit(enc, "vow")["hits"] == 6
        create(path, enc)
    text = path.read_text()
    loaded = SaveFile.load(path).encounter
    assert unit(loaded, "shade")["destroyed"] and loaded.state["ordnance"] == {}
    assert unit(loaded, "vow")["hits"] == 6
    assert path.read_text() == text  # loading never writes
