"""A correction whose value is a whole table or list keeps the shape the value it replaces has.

Found by a fuzzer of corrections made through the Python API (the console's form types one value at a time, but a
save's log, edited by hand or mutated, can hold a whole table, and so can a script calling ``Encounter.correct``):
a percentile chest corrected to ``{}`` raised a bare KeyError, a classic-hg ship lacking fields another, and a
percentile ``alertness = {}`` or a megatraveller sensors table of another shape was taken and broke later play.

A table now needs the keys the value it replaces has, each holding the same kind of value (a list, entries shaped as
its entries are), and every value inside it that changes is held to the limits a correction of that value alone is
(a chest of 0 points is refused as ``people.marr.body.chest.points = 0`` is). A refusal is one line naming the path
and what it holds; typed, it is an IllegalAction and records nothing; logged in a save, the load names the file,
the event and the field, and leaves the file as it was.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.errors import BadSave, IllegalAction
from engine.saves import SaveFile
from tests.demos import shipped_demos

DEMOS = shipped_demos()


def demo(ruleset_id: str, tmp_path: Path):
    path = tmp_path / f"{ruleset_id}.toml"
    shutil.copyfile(DEMOS[ruleset_id], path)
    return SaveFile.load(path).encounter


def refused(enc, path: str, value, match: str) -> str:
    before = (list(enc.events), repr(enc.state))
    with pytest.raises(IllegalAction, match=match) as info:
        enc.correct(path, value)
    assert (list(enc.events), repr(enc.state)) == before
    message = str(info.value)
    assert message.strip() and "\n" not in message, message
    return message


def ship(enc, sid: str) -> dict:
    return enc.state["ships"][sid]


# --- the fuzzer's four findings --------------------------------------------------------------------

def test_a_body_part_given_as_an_empty_table_is_refused_naming_its_fields(tmp_path: Path) -> None:
    enc = demo("percentile", tmp_path)
    refused(enc, "people.marr.body.chest", {}, r"people\.marr\.body\.chest holds a table of points and taken; "
                                                r"got one without points and taken")


def test_a_ship_lacking_fields_is_refused_naming_them(tmp_path: Path) -> None:
    enc = demo("classic-hg", tmp_path)
    lacking = {k: v for k, v in ship(enc, "swift-dolan").items() if k not in ("fuel", "side")}
    refused(enc, "ships.swift-dolan", lacking, r"ships\.swift-dolan holds a table of \d+ keys; got one without "
                                               r"side and fuel")


def test_alertness_given_as_an_empty_table_is_refused(tmp_path: Path) -> None:
    enc = demo("percentile", tmp_path)
    refused(enc, "alertness", {}, r"alertness holds a table of crew, raiders and salvagers; got one without crew, "
                                  r"raiders and salvagers")


@pytest.mark.parametrize("change, match", [
    (lambda s: {k: v for k, v in s.items() if k != "pass_obj_scan"}, r" holds a table of pass_obj_scan, act_obj_scan, "
                                                                     r"pass_obj_pin and act_obj_pin; got one without "
                                                                     r"pass_obj_scan"),
    (lambda s: dict(s, pass_obj_scan={"far": "routine"}), r"\.pass_obj_scan holds a table of far and extreme; "
                                                          r"got one without extreme"),
    (lambda s: dict(s, act_obj_scan={"extreme": "routine", "close": "routine"}),
     r"\.act_obj_scan holds a table of extreme; got one with 'close' too"),
    (lambda s: dict(s, act_obj_pin=["difficult"]), r"\.act_obj_pin holds a table, got \['difficult'\]"),
])
def test_a_sensors_table_of_another_shape_is_refused(tmp_path: Path, change, match) -> None:
    enc = demo("megatraveller", tmp_path)
    refused(enc, "ships.patrol.sensors", change(ship(enc, "patrol")["sensors"]), r"ships\.patrol\.sensors" + match)


# --- the shape, all the way down ---------------------------------------------------------------------

@pytest.mark.parametrize("value, match", [
    ({"points": "x", "taken": 0}, r"people\.marr\.body\.chest\.points holds a whole number, got 'x'"),
    ({"points": 30, "taken": 0, "armor": 2}, r"people\.marr\.body\.chest holds a table of points and taken; "
                                             r"got one with 'armor' too"),
    ({"points": 30.5, "taken": 0}, r"chest\.points holds a whole number, got 30\.5"),
    ({"points": True, "taken": 0}, r"chest\.points holds a whole number, got True"),
    ([30, 0], r"people\.marr\.body\.chest holds a table, got \[30, 0\]"),
])
def test_a_table_with_a_key_missing_added_or_of_another_kind_is_refused(tmp_path: Path, value, match) -> None:
    refused(demo("percentile", tmp_path), "people.marr.body.chest", value, match)


def test_a_list_entry_is_shaped_as_the_list_s_entries(tmp_path: Path) -> None:
    enc = demo("classic-hg", tmp_path)
    turrets = ship(enc, "swift-dolan")["turrets"]
    refused(enc, "ships.swift-dolan.turrets", [{}], r"ships\.swift-dolan\.turrets\[0\] holds a table of 8 keys; "
                                                    r"got one without id, weapon")
    refused(enc, "ships.swift-dolan.turrets", [*turrets, "T5"], r"turrets\[4\] holds a table, got 'T5'")
    refused(enc, "ships.swift-dolan.programs", ["TARGET", 2], r"programs\[1\] holds text, got 2")
    refused(enc, "ships.swift-dolan.turrets", {"T1": turrets[0]}, r"turrets holds a list, got \{'T1'")


def test_an_empty_list_takes_no_table_nothing_shows_the_shape_of(tmp_path: Path) -> None:
    enc = demo("megatraveller", tmp_path)
    refused(enc, "ships.patrol.shut_down", [{"system": "sensors"}],
            r"ships\.patrol\.shut_down\[0\] is new in a list that is empty now: it may hold text, a number or "
            r"true/false, got \{'system': 'sensors'\}")


def test_a_long_value_is_shown_cut_short(tmp_path: Path) -> None:
    enc = demo("classic-hg", tmp_path)
    message = refused(enc, "ships.swift-dolan.crew", ["x" * 500], r"crew holds a table, got \['xxx")
    assert "x" * 200 not in message


# --- every value inside a table is held to its own limits -------------------------------------------------

@pytest.mark.parametrize("ruleset_id, path, change, match", [
    ("percentile", "people.marr.body.chest", lambda v: {"points": 0, "taken": 0},
     r"people\.marr\.body\.chest\.points must be from 1 to"),
    ("percentile", "alertness", lambda v: dict(v, salvagers=500), r"alertness\.salvagers must be from 0 to 100"),
    ("percentile", "side_order", lambda v: [v[0]] * len(v), r"side_order must hold the entries it holds now"),
    ("percentile", "joined", lambda v: [v[0], v[0]], r"joined\[\d\] must be one of"),
    ("classic-hg", "ships.swift-dolan", lambda v: dict(v, fuel=10**6),
     r"ships\.swift-dolan\.fuel must be from 0 to 400 \(its tonnage\)"),
    ("classic-hg", "ships.swift-dolan", lambda v: dict(v, side="pirates"),
     r"ships\.swift-dolan\.side: side must be one of"),
    ("classic-hg", "ships.swift-dolan.turrets", lambda v: [dict(t, weapon="beam_lazer") for t in v],
     r"ships\.swift-dolan\.turrets\[0\]\.weapon must be one of"),
    ("classic-hg", "ships.swift-dolan.programs", lambda v: ["TARGET", "DOOM"],
     r"ships\.swift-dolan\.programs\[1\] must be one of"),
    ("classic-hg", "ships.swift-dolan.crew", lambda v: dict(v, bridge=10**9), r"crew\.bridge must be from 0 to 1000"),
    ("megatraveller", "ships.patrol.sensors", lambda v: dict(v, act_obj_pin={"extreme": "hopeless"}),
     r"ships\.patrol\.sensors\.act_obj_pin\.extreme must be one of"),
    ("gothic", "ships.hammer", lambda v: dict(v, hits=v["hits_start"] + 1), r"ships\.hammer\.hits must be from 0 to"),
])
def test_a_value_inside_a_table_is_held_to_its_own_limits(tmp_path: Path, ruleset_id, path, change, match) -> None:
    enc = demo(ruleset_id, tmp_path)
    from engine.state import get_path, parse_path

    refused(enc, path, change(get_path(enc.state, parse_path(path))), match)


# --- what the project already takes, taken still -----------------------------------------------------

def test_tables_of_the_same_shape_are_taken_and_undone(tmp_path: Path) -> None:
    enc = demo("percentile", tmp_path)
    enc.correct("people.marr.body.chest", {"points": 32, "taken": 4})
    assert enc.state["people"]["marr"]["body"]["chest"] == {"points": 32, "taken": 4}
    enc.correct("alertness", {"crew": 70, "raiders": 40, "salvagers": 50})
    assert enc.state["alertness"]["crew"] == 70
    enc.correct("side_order", ["raiders", "crew", "salvagers"])  # the same sides, another order
    assert enc.state["side_order"] == ["raiders", "crew", "salvagers"]
    for _ in range(3):
        enc.undo()
    assert enc.state == enc.start_state()


def test_a_list_may_grow_shrink_or_be_reordered_with_entries_shaped_as_its_own(tmp_path: Path) -> None:
    enc = demo("classic-hg", tmp_path)
    turrets = ship(enc, "swift-dolan")["turrets"]
    enc.correct("ships.swift-dolan.turrets", turrets[::-1])
    enc.correct("ships.swift-dolan.turrets", turrets[:2])
    enc.correct("ships.swift-dolan.turrets", [*turrets, dict(turrets[0], id="T5")])
    assert [t["id"] for t in ship(enc, "swift-dolan")["turrets"]] == ["T1", "T2", "T3", "T4", "T5"]
    enc.correct("ships.swift-dolan.programs", ["TARGET", "MANEUVER"])
    mt = demo("megatraveller", tmp_path)
    mt.correct("ships.patrol.shut_down", ["sensors"])  # an empty list takes plain entries
    mt.correct("ships.patrol.sensors", dict(ship(mt, "patrol")["sensors"], act_obj_pin={"extreme": "routine"}))
    assert ship(mt, "patrol")["sensors"]["act_obj_pin"] == {"extreme": "routine"}


def test_a_whole_ship_of_its_own_shape_is_taken(tmp_path: Path) -> None:
    enc = demo("gothic", tmp_path)
    hammer = ship(enc, "hammer")
    enc.correct("ships.hammer", dict(hammer, name="Hammer of Thrace II", hits=hammer["hits"] - 1))
    assert (ship(enc, "hammer")["name"], ship(enc, "hammer")["hits"]) == ("Hammer of Thrace II", hammer["hits"] - 1)


def test_a_value_inside_reads_the_rest_of_the_table_as_corrected(tmp_path: Path) -> None:
    """A limit another value of the table sets is read as corrected: hits and the hits it started with, raised
    together."""
    enc = demo("gothic", tmp_path)
    hammer = ship(enc, "hammer")
    enc.correct("ships.hammer", dict(hammer, hits=hammer["hits_start"] + 2, hits_start=hammer["hits_start"] + 2))
    assert ship(enc, "hammer")["hits"] == ship(enc, "hammer")["hits_start"]


# --- and in a save's log ------------------------------------------------------------------------------------

def logged(tmp_path: Path, ruleset_id: str, path: str, value: str) -> Path:
    """The demo with its [state] left out (the log makes it) and one correction logged after its events."""
    text = DEMOS[ruleset_id].read_text(encoding="utf-8")
    if "\n[state]" in text:
        text = text[: text.index("\n[state]") + 1]
    event = (f'\n[[events]]\nkind = "correction"\ngroup = 1\nat = 2026-12-02T01:29:06Z\npath = {path}\n'
             f'value = {value}\nwas = 0\n')
    save = tmp_path / f"logged-{ruleset_id}.toml"
    save.write_text(text.rstrip("\n") + "\n" + event, encoding="utf-8")
    return save


@pytest.mark.parametrize("ruleset_id, path, value, match", [
    ("percentile", '["people", "marr", "body", "chest"]', "{}",
     r"people\.marr\.body\.chest holds a table of points and taken; got one without points and taken"),
    ("percentile", '["alertness"]', "{}", r"alertness holds a table of crew, raiders and salvagers"),
    ("percentile", '["people", "marr", "body", "chest"]', '{ points = "x", taken = 0 }',
     r"people\.marr\.body\.chest\.points holds a whole number, got 'x'"),
    ("classic-hg", '["ships", "swift-dolan", "turrets"]', "[{ id = 'T1' }]",
     r"ships\.swift-dolan\.turrets\[0\] holds a table of 8 keys; got one without weapon"),
    ("megatraveller", '["ships", "patrol", "sensors"]', '{ act_obj_scan = { extreme = "routine" } }',
     r"ships\.patrol\.sensors holds a table of pass_obj_scan, act_obj_scan, pass_obj_pin and act_obj_pin; got one "
     r"without pass_obj_scan"),
    ("megatraveller", '["ships", "patrol", "shut_down"]', '[{ system = "sensors" }]',
     r"ships\.patrol\.shut_down\[0\] is new in a list that is empty now"),
])
def test_a_logged_table_of_another_shape_is_refused_naming_the_file_and_field(
        tmp_path: Path, ruleset_id, path, value, match) -> None:
    save = logged(tmp_path, ruleset_id, path, value)
    before = save.read_bytes()
    with pytest.raises(BadSave, match=match) as info:
        SaveFile.load(save)
    message = str(info.value)
    assert str(save) in message and "events[0]" in message, message
    assert "\n" not in message and "cannot be read" not in message, message
    assert save.read_bytes() == before


def test_a_logged_table_of_the_same_shape_loads(tmp_path: Path) -> None:
    save = logged(tmp_path, "percentile", '["people", "marr", "body", "chest"]', "{ points = 32, taken = 4 }")
    enc = SaveFile.load(save).encounter
    assert enc.state["people"]["marr"]["body"]["chest"] == {"points": 32, "taken": 4}


def test_a_table_empty_now_takes_no_key(tmp_path: Path) -> None:
    """Found by the shape fuzz: the message for a table with no keys now failed on naming them (IndexError)."""
    enc = demo("classic-hg", tmp_path)
    assert enc.state["initiative"] == {}
    refused(enc, "initiative", {"imperial": 3}, r"initiative holds an empty table; got one with 'imperial' too")


def test_a_hand_edit_that_changes_a_list_s_length_is_kept_or_refused_by_its_entries(tmp_path: Path) -> None:
    """``keep-edits`` keeps an edit of a list's length as a correction of the whole list: plain entries go in an
    empty list (a system shut down), a table does not."""
    text = DEMOS["megatraveller"].read_text(encoding="utf-8")
    at = text.index("shut_down = []", text.index("[state.ships.patrol]"))
    kept = tmp_path / "kept.toml"
    kept.write_text(text[:at] + 'shut_down = ["sensors"]' + text[at + len("shut_down = []"):], encoding="utf-8")
    enc = SaveFile.load(kept, keep_edits=True).encounter
    assert enc.state["ships"]["patrol"]["shut_down"] == ["sensors"] and enc.events[-1].kind == "correction"
    bad = tmp_path / "bad.toml"
    bad.write_text(text[:at] + 'shut_down = [{ system = "sensors" }]' + text[at + len("shut_down = []"):],
                   encoding="utf-8")
    before = bad.read_bytes()
    with pytest.raises(BadSave, match=r"ships\.patrol\.shut_down\[0\] is new in a list that is empty now") as info:
        SaveFile.load(bad, keep_edits=True)
    assert str(bad) in str(info.value) and bad.read_bytes() == before


# --- every table of every demo ------------------------------------------------------------------------------

def _tables(node, path=()):
    """Each table and list in a state, with its path (``pending`` aside: rolls are never corrected)."""
    if type(node) is dict:
        if path:
            yield path, node
        for key, inner in node.items():
            if path or key != "pending":
                yield from _tables(inner, path + (key,))
    elif type(node) is list:
        yield path, node
        for i, inner in enumerate(node):
            yield from _tables(inner, path + (i,))


def _other_kind(value):
    return "x" if type(value) is not str else 1


def _first_leaf(node, path=()):
    if type(node) is dict:
        for key, inner in node.items():
            if (found := _first_leaf(inner, path + (key,))) is not None:
                return found
        return None
    if type(node) is list:
        for i, inner in enumerate(node):
            if (found := _first_leaf(inner, path + (i,))) is not None:
                return found
        return None
    return path


def mutations(value):
    """The ways a table or list of the wrong shape was seen to come: a key lost or added, a value inside of another
    kind, a list where a table was (and the other way), an entry unlike the list's own."""
    from engine.state import plain_copy

    if type(value) is dict:
        if value:
            yield "a key lost", {k: v for k, v in list(value.items())[1:]}
        yield "a key added", dict(value, zz_added=1)
        yield "a list for it", list(value.values())
    else:
        yield "a table for it", {str(i): v for i, v in enumerate(value)}
        yield "an entry unlike its own", [*value, _other_kind(value[0]) if value and type(value[0]) is dict
                                          else {"zz": 1}]
    leaf = _first_leaf(value)
    if leaf:
        changed = plain_copy(value)
        node = changed
        for key in leaf[:-1]:
            node = node[key]
        node[leaf[-1]] = _other_kind(node[leaf[-1]])
        yield "a value inside of another kind", changed


@pytest.mark.parametrize("ruleset_id", sorted(DEMOS))
def test_every_table_of_a_demo_mutated_is_refused_typed_and_logged(ruleset_id: str, tmp_path: Path) -> None:
    """The shape fuzz of this change, kept: each table and list of the demo's state, mutated each way, is refused
    naming a place inside it, whether typed through the API or read from a log; nothing is recorded."""
    from engine.encounter import Encounter, Event
    from engine.errors import FlagbridgeError
    from engine.setup import now
    from engine.state import path_text

    enc = demo(ruleset_id, tmp_path)
    before = repr(enc.state)
    problems, tried = [], 0
    for path, value in list(_tables(enc.state)):
        where = path_text(path)
        for how, mutated in mutations(value):
            tried += 1
            try:
                enc.correct(path, mutated)
                problems.append(f"{where} with {how}: taken")
            except IllegalAction as exc:
                if not str(exc).startswith(where) or "\n" in str(exc):
                    problems.append(f"{where} with {how}: refused as {exc}")
            logged = Event("correction", 1, now(), {"path": list(path), "value": mutated, "was": 0})
            try:
                Encounter(enc.setup, enc.ruleset, [logged], folder=enc.folder)
                problems.append(f"{where} with {how}: taken from a log")
            except FlagbridgeError as exc:
                if f": {where}" not in str(exc):
                    problems.append(f"{where} with {how}: refused from a log as {exc}")
    assert tried > 50 and not enc.events and repr(enc.state) == before
    assert not problems, f"{len(problems)} of {tried}:\n" + "\n".join(problems[:20])
