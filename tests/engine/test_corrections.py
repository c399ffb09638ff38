"""Corrections are checked like files and like a live fight (issue 14, "Defects to fix").

Each value here was seen to make a save that no longer opens, or a console that
crashes, when corrections were checked by kind only. Each is now refused where it
was typed, with the reason, and records nothing.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.errors import IllegalAction
from engine.saves import SaveFile

ROOT = Path(__file__).resolve().parents[2]


def demo(ruleset_id: str, tmp_path: Path):
    path = tmp_path / f"{ruleset_id}.toml"
    shutil.copyfile(ROOT / "saves" / f"demo-{ruleset_id}.toml", path)
    return SaveFile.load(path)


def first_ship(enc) -> str:
    return next(iter(enc.state["ships"]))


CASES = [
    ("classic-hg", "step", "17", "step must be from 1 to 9"),
    ("classic-hg", "range", "point blank", "range must be one of close, long, short"),
    ("classic-hg", "ships.{ship}.side", "pirates", "side must be one of"),
    ("classic-hg", "ships.{ship}.tubes[0].id", "", "must not be empty"),
    ("classic-hg", "ships.{ship}.turrets[0].weapon", "beam_lazer", "weapon must be one of"),
    ("classic-hg", "ships.{ship}.armor_factor", "99", "armor_factor must be at most 15"),
    # the field's own limit is named first (it is the one the game master knows), not the save's
    ("classic-hg", "ships.{ship}.fuel", "9999999999999999999999", "fuel must be at most 10000000"),
    ("classic-hg", "ships.{ship}.turrets[0].gunner_skill", "9999999999999999999999", "too large for a save"),
    # found by a game master's drive: 9,999 tons of fuel went into a 200-ton hull
    ("classic-hg", "ships.{ship}.fuel", "9999", r"fuel must be from 0 to \d+ \(its tonnage\)"),
    ("classic-hg", "ships.{ship}.cargo", "9999", r"cargo must be from 0 to \d+ \(its tonnage\)"),
    ("megatraveller", "step", "17", "step must be from 1 to 3"),
    ("megatraveller", "ships.{ship}.side", "pirates", "side must be one of"),
    ("megatraveller", "ships.{ship}.batteries[0].weapon", "beam_lazer", "weapon must be one of"),
    ("megatraveller", "ships.{ship}.signature", "invisible", "signature must be one of"),
    ("megatraveller", "ships.{ship}.tactics", str(10**20), "tactics must be from 0 to 1000"),
    ("megatraveller", "fleet_tactics.{side}", "-3", "must be from 0 to 1000"),
    # found by a game master's drive: a chest with -5 points taken read "-5/30" and the save still checked ok
    ("percentile", "people.{person}.body.chest.taken", "-5", "taken must be from 0 to"),
    ("percentile", "people.{person}.body.chest.points", "0", "points must be from 1 to"),
    ("percentile", "people.{person}.ap_spent", "-1", "ap_spent must be from 0 to"),
    ("percentile", "alertness.{side}", "101", "must be from 0 to 100"),
    ("percentile", "subturn", "6", "must be from 1 to 5"),
    ("percentile", "options.damage", "4", "must be one of 1, 2, 3"),
    # found by a game master's drive: "99/8" hits and "5 of 2" shields up were taken, and check said ok
    ("gothic", "ships.{ship}.hits", "99", r"hits must be from 0 to 8 \(its hits start\)"),
    ("gothic", "ships.{ship}.shields_up", "5", r"shields_up must be from 0 to 2 \(its shields\)"),
    ("gothic", "ships.{ship}.hits_start", "4", r"hits_start must be at least 8 \(its hits\)"),
    ("gothic", "ships.{ship}.shields", "0", r"shields must be at least 2 \(its shields up\)"),
    ("percentile", "people.{person}.race", "martian", "race must be one of .*human"),
]


@pytest.mark.parametrize("ruleset_id,path,value,why", CASES, ids=[f"{c[0]}:{c[1]}={c[2][:12]}" for c in CASES])
def test_a_correction_that_would_break_the_fight_is_refused(ruleset_id, path, value, why, tmp_path) -> None:
    save = demo(ruleset_id, tmp_path)
    enc = save.encounter
    ship = first_ship(enc) if "ships" in enc.state else ""
    if "{ship}" in path and "tubes" in path and not enc.state["ships"][ship]["tubes"]:
        ship = next(s for s, v in enc.state["ships"].items() if v["tubes"])
    person = next(iter(enc.state.get("people", {})), "")
    path = path.format(ship=ship, side=enc.state["side_order"][0], person=person)
    before = (list(enc.events), repr(enc.state))
    with pytest.raises(IllegalAction, match=why):
        enc.correct(path, value)
    assert (list(enc.events), repr(enc.state)) == before


def test_a_sensor_difficulty_is_one_the_tables_know(tmp_path) -> None:
    enc = demo("megatraveller", tmp_path).encounter
    ship = next(s for s, v in enc.state["ships"].items() if any(v["sensors"].values()))
    task, reach = next((t, r) for t, r in enc.state["ships"][ship]["sensors"].items() if r)
    band = next(iter(reach))
    with pytest.raises(IllegalAction, match="must be one of"):
        enc.correct(f"ships.{ship}.sensors.{task}.{band}", "trivial-ish")


def test_a_sound_correction_is_logged_and_the_save_still_opens(tmp_path) -> None:
    save = demo("classic-hg", tmp_path)
    enc = save.encounter
    ship = first_ship(enc)
    enc.correct(f"ships.{ship}.fuel", "30", note="leak")
    enc.correct("step", "2")
    save.save()
    again = SaveFile.load(save.path).encounter
    assert again.state["ships"][ship]["fuel"] == 30 and again.state["step"] == 2


@pytest.mark.parametrize("typed", ["1_0", "\u0661\u0660", "\uff11\uff10", "10.0", "1e1", "0x10", " ", "ten"])
def test_a_whole_number_is_typed_in_plain_digits(typed, tmp_path) -> None:
    """A correction is read as the kind of value it replaces, in the digits a game master types: Python's int()
    would also take "1_0" and other scripts' digits as 10 (seen in a drive: fuel "1_0" became 10)."""
    enc = demo("classic-hg", tmp_path).encounter
    before = (list(enc.events), repr(enc.state))
    with pytest.raises(Exception, match="holds a whole number"):
        enc.correct(f"ships.{first_ship(enc)}.fuel", typed)
    assert (list(enc.events), repr(enc.state)) == before
    enc.correct(f"ships.{first_ship(enc)}.fuel", " +30 ")
    assert enc.state["ships"][first_ship(enc)]["fuel"] == 30


def test_a_number_is_never_nan_or_infinite() -> None:
    """float() takes "nan", which never equals itself: a save holding one could never match its own replay."""
    from engine.errors import FlagbridgeError
    from engine.state import coerce_like

    for typed in ("nan", "inf", "-Infinity", "1e400", "1_0.5"):
        with pytest.raises(FlagbridgeError, match="holds a number"):
            coerce_like(1.5, typed, "x")
    assert coerce_like(1.5, "2.25", "x") == 2.25 and coerce_like(1.5, "-.5", "x") == -0.5


@pytest.mark.parametrize("ruleset_id", ["classic-hg", "gothic", "megatraveller", "percentile"])
def test_a_side_named_at_another_side_s_place_in_the_order_swaps_the_two(ruleset_id, tmp_path) -> None:
    """Found by a game master's drive: the correction form listed every side_order entry, and every value was
    refused, since each side was already in the order (percentile, with no rule, took a side twice). A side named
    at another's place now trades places with it, in the log, the undo and the save."""
    save = demo(ruleset_id, tmp_path)
    enc = save.encounter
    order = list(enc.state["side_order"])
    enc.correct("side_order[0]", order[1])
    swapped = [order[1], order[0], *order[2:]]
    assert enc.state["side_order"] == swapped
    assert any(f"side_order[1] = {order[0]!r}" in n for n in enc.events[-1].notes)
    with pytest.raises(IllegalAction, match=r"side_order\[0\] must be one of"):
        enc.correct("side_order[0]", "pirates")
    save.save()
    assert SaveFile.load(save.path).encounter.state["side_order"] == swapped
    enc.undo()
    assert enc.state["side_order"] == order


def test_a_value_whose_consequence_fails_is_refused_not_a_crash(tmp_path, monkeypatch) -> None:
    """What follows from a value (``after_correction``) is tried on a copy with the rest: a helper found a
    megatraveller ship given another side raise ``KeyError`` where it was typed, before that rule was mended.
    Any rule failing there now refuses the value with its reason, and nothing is recorded."""
    sf = demo("gothic", tmp_path)
    enc = sf.encounter
    ship = first_ship(enc)
    events, state = len(enc.events), repr(enc.state)

    def broken(self, state, path, ctx=None, was=None):
        raise KeyError("lancer|picket")

    monkeypatch.setattr(type(enc.ruleset), "after_correction", broken)
    with pytest.raises(IllegalAction, match="would break the fight \\(KeyError: 'lancer\\|picket'\\)"):
        enc.correct(f"ships.{ship}.hits", 1)
    assert len(enc.events) == events and repr(enc.state) == state


@pytest.mark.parametrize("ruleset,path,typed,said", [
    ("classic-hg", "ships.swift-dolan.fuel_scoops", "no", "ships.swift-dolan.fuel_scoops = false would break the fight"),
    ("megatraveller", "ships.patrol.shut_down", "sensors, screens",
     "ships.patrol.shut_down = sensors, screens would break the fight"),
    ("classic-hg", "ships.swift-dolan.name", "Dolan's Luck",
     "ships.swift-dolan.name = 'Dolan's Luck' would break the fight"),
])
def test_a_value_refused_by_trial_reads_as_the_log_writes_it(ruleset, path, typed, said, tmp_path,
                                                             monkeypatch) -> None:
    """The refusal said "ships.swift-dolan.fuel_scoops = False would break the fight", a Python spelling: it names
    the value as the log would (``value_text``): true/false, a list's names, text in quotes as typed."""
    enc = demo(ruleset, tmp_path).encounter

    def broken(self, state, path, ctx=None, was=None):
        raise KeyError("gone")

    monkeypatch.setattr(type(enc.ruleset), "after_correction", broken)
    with pytest.raises(IllegalAction) as refused:
        enc.correct(path, typed)
    assert str(refused.value) == f"{said} (KeyError: 'gone')"


def test_a_table_refused_by_trial_reads_in_parentheses(tmp_path, monkeypatch) -> None:
    """A table given whole (from a script, or a hand edit kept on load) is named as the log names a table inside
    another, in parentheses, so its own "=" do not run into the sentence's."""
    enc = demo("classic-hg", tmp_path).encounter
    crew = dict(enc.state["ships"]["swift-dolan"]["crew"])
    crew["bridge"] = 1

    def broken(self, state, path, ctx=None, was=None):
        raise KeyError("gone")

    monkeypatch.setattr(type(enc.ruleset), "after_correction", broken)
    with pytest.raises(IllegalAction) as refused:
        enc.correct("ships.swift-dolan.crew", crew)
    words = ", ".join(f"{k} = {v}" for k, v in crew.items())
    assert str(refused.value) == f"ships.swift-dolan.crew = ({words}) would break the fight (KeyError: 'gone')"


@pytest.mark.parametrize("typed", ["Hammer\x1b[31mRED", "Ham\x00mer", "Ham\bmer", "Ham\x9bmer", "Ham\x7fmer"])
def test_a_typed_text_holding_a_control_character_is_refused(typed, tmp_path) -> None:
    """A text recorded as typed would be shown as written: an ESC reached the terminal as an escape code, and the
    save that held it no longer opened (fuzz30). Refused where it is typed, the value, the note and a table
    corrected whole alike; nothing recorded."""
    enc = demo("gothic", tmp_path).encounter
    before = (list(enc.events), repr(enc.state))
    with pytest.raises(IllegalAction, match=r"ships\.hammer\.name: holds a control character"):
        enc.correct("ships.hammer.name", typed)
    with pytest.raises(IllegalAction, match="the note: holds a control character"):
        enc.correct("ships.hammer.name", "Hammer II", note=typed)
    ship = dict(enc.state["ships"]["hammer"], name=typed)
    with pytest.raises(IllegalAction, match=r"ships\.hammer\.name: holds a control character"):
        enc.correct("ships.hammer", ship)
    assert (list(enc.events), repr(enc.state)) == before
    enc.correct("ships.hammer.name", "Hammer \u00e9 II", note="renamed")  # any letter is text


def test_a_corrected_value_reads_as_text_in_the_log() -> None:
    """A correction's log line shows lists and tables as a game master reads them, never Python's spelling:
    true/false as the form asks for them, an empty text inside a table as "(empty)", a list of tables and a list
    inside a table in parentheses, an empty one as "(none)"."""
    from engine.corrections import value_text

    assert value_text(True) == "true" and value_text(3) == "3" and value_text("") == "''"
    assert value_text([]) == value_text({}) == "(none)"
    assert value_text([{"weapon": "laser", "count": 2}, {"weapon": "", "count": 1}]) == (
        "(weapon = laser, count = 2), (weapon = (empty), count = 1)")
    assert value_text({"naval": False, "shut_down": ["sensors", "power"], "hits": []}) == (
        "naval = false, shut_down = (sensors, power), hits = (none)")
