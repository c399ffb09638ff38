"""The encounter: one mutation path, grouped undo, redo, corrections, replay.

DESIGN.md "The encounter is an event log": the state is the setup with every
event applied; undo removes everything one action caused; replay draws no dice.
"""

from __future__ import annotations

import pytest

from engine.encounter import Encounter, Event, ReplayError, replay
from engine.errors import BadDiceValue, BadTable, FlagbridgeError, IllegalAction, UnknownRuleset
from engine.ruleset import find_ruleset
from engine.state import add_object, expire_objects, plain_copy
from tests.skirmish import SKIRMISH, make_setup, to_fire_step


@pytest.fixture
def enc() -> Encounter:
    return Encounter(make_setup(), SKIRMISH)


def test_action_asks_for_rolls_with_named_modifiers_and_exact_odds(enc: Encounter) -> None:
    enc.act("initiative")
    req = enc.pending
    assert req.purpose == "Initiative blue" and req.dice == "1D"
    assert [str(m) for m in req.modifiers] == ["+1 Tactics"]
    enc.undo()
    to_fire_step(enc)
    enc.act("fire", ship="arrow", target="brute")
    hit = enc.pending
    assert hit.describe() == "To hit: 2D +2 Gun vs 8+ (72.2%)"  # 6+ on 2D = 26/36


def test_initiative_winner_from_the_dice(enc: Encounter) -> None:
    enc.act("initiative")
    enc.type_roll("2")  # blue 2 + 1 Tactics = 3
    enc.type_roll("6")  # red 6
    assert enc.state["initiative"] == {"blue": 3, "red": 6}
    assert enc.state["attacker"] == "red"


def test_actions_wait_for_the_pending_roll(enc: Encounter) -> None:
    enc.act("initiative")
    with pytest.raises(IllegalAction, match="waiting for a roll"):
        enc.act("next")
    assert enc.legal_actions() == []


def test_illegal_action_records_nothing(enc: Encounter) -> None:
    to_fire_step(enc)
    events, state = list(enc.events), plain_copy(enc.state)
    with pytest.raises(IllegalAction, match="red has no lock on arrow"):
        enc.act("fire", ship="brute", target="arrow")
    with pytest.raises(IllegalAction, match="initiative is rolled in the initiative step"):
        enc.act("initiative")
    assert enc.events == events and enc.state == state


def test_bad_typed_roll_records_nothing(enc: Encounter) -> None:
    enc.act("initiative")
    before = (list(enc.events), plain_copy(enc.state))
    for bad in ("13", "0", "x", ""):
        with pytest.raises(BadDiceValue):
            enc.type_roll(bad)
    assert (enc.events, enc.state) == before


def test_undo_removes_an_action_with_all_its_rolls(enc: Encounter) -> None:
    to_fire_step(enc)
    hull = enc.state["ships"]["brute"]["hull"]
    enc.act("fire", ship="arrow", target="brute")
    enc.type_roll("10")
    enc.type_roll("5")
    assert enc.state["ships"]["brute"]["hull"] == hull - 5
    removed = enc.undo()
    assert [e.kind for e in removed] == ["action", "roll", "roll"]
    assert enc.state["ships"]["brute"]["hull"] == hull
    assert enc.pending is None
    enc.redo()
    assert enc.state["ships"]["brute"]["hull"] == hull - 5


def test_undo_mid_volley_drops_the_half_done_action(enc: Encounter) -> None:
    to_fire_step(enc)
    state = plain_copy(enc.state)
    enc.act("fire", ship="arrow", target="brute")
    enc.type_roll("10")  # hit; damage roll now pending
    assert enc.pending.purpose == "Damage"
    enc.undo()
    assert enc.state == state


def test_new_event_clears_redo(enc: Encounter) -> None:
    enc.act("next")
    enc.undo()
    assert enc.can_redo
    enc.act("initiative")
    assert not enc.can_redo and enc.redo() == []


def test_undo_back_to_an_autosaved_state_thaws_it_instead_of_replaying(enc: Encounter, monkeypatch) -> None:
    to_fire_step(enc)
    kept = plain_copy(enc.state)
    enc.frozen_state()  # the console's autosave freezes the state after each key
    enc.act("fire", ship="arrow", target="brute")
    enc.type_roll("10")
    enc.type_roll("5")
    applied = []
    monkeypatch.setattr(Encounter, "_apply", lambda self, *a, **k: applied.append(a))
    enc.undo()
    assert applied == [] and enc.state == kept
    assert enc.frozen_state() is enc.frozen_state()  # the same copy, not frozen again


def test_a_kept_state_of_another_branch_is_never_thawed(enc: Encounter) -> None:
    to_fire_step(enc)
    enc.act("fire", ship="arrow", target="brute")
    enc.type_roll("10")
    enc.frozen_state()  # after the hit: the damage roll pending
    enc.undo()
    enc.act("fire", ship="arrow", target="brute")
    enc.type_roll("2")  # a miss this time, as many events as before
    enc.act("next")
    enc.undo()  # back to as many events as the kept copy follows, on the new branch
    assert enc.state == replay(enc.setup, enc.events, SKIRMISH)
    assert enc.pending is None


def test_undo_everything_returns_the_setup_state(enc: Encounter) -> None:
    start = plain_copy(enc.state)
    to_fire_step(enc)
    while enc.undo():
        pass
    assert enc.state == start and enc.events == []


def test_correction_is_an_event_typed_like_the_value(enc: Encounter) -> None:
    enc.correct("ships.brute.hull", "12", note="pirate repairs")
    assert enc.state["ships"]["brute"]["hull"] == 12
    ev = enc.events[-1]
    assert ev.kind == "correction" and ev.data == {
        "path": ["ships", "brute", "hull"], "value": 12, "was": 30, "note": "pirate repairs"}
    assert "correction: ships.brute.hull 30 -> 12 (pirate repairs)" == enc.describe(ev)
    enc.undo()
    assert enc.state["ships"]["brute"]["hull"] == 30


def test_a_correction_line_names_the_unit_whose_id_differs_from_its_name(enc: Encounter) -> None:
    """A drive read "correction: ships.patrol.signature ..." for a ship the screen calls Vigilance: the id is what
    the game master typed or may type again, and the name is what the table knows it by."""
    enc.correct("ships.brute.name", "Red Lantern", note="renamed")
    ev = enc.correct("ships.brute.hull", "12")
    assert enc.describe(ev) == "correction: ships.brute.hull (Red Lantern) 30 -> 12"
    ev = enc.correct("ships.brute.name", "Brute")
    assert enc.describe(ev) == "correction: ships.brute.name 'Red Lantern' -> 'Brute'"  # "brute" says it already


def test_a_correction_line_reads_a_list_or_table_as_text(enc: Encounter) -> None:
    """A drive read "correction: ships.lancer.shut_down [] -> ['sensors']": a game master reads a list as the
    names it holds (as the form has them typed, ``names_text``), none as "(none)", and a table as its fields,
    a table or list inside it in parentheses; text as it was typed
    (a backslash once, no Python quoting of it)."""
    ev = enc.correct("side_order", ["red", "blue"])
    assert enc.describe(ev) == "correction: side_order blue, red -> red, blue"
    ev = enc.correct("people.vask.body.chest", {"points": 20, "taken": 5}, note="a knife")
    assert enc.describe(ev) == ("correction: people.vask.body.chest points = 20, taken = 0 -> "
                                "points = 20, taken = 5 (a knife)")
    ev = enc.correct("people.vask.body", {"head": {"points": 8, "taken": 1}, "chest": {"points": 20, "taken": 5}})
    assert enc.describe(ev) == ("correction: people.vask.body head = (points = 8, taken = 0), "
                                "chest = (points = 20, taken = 5) -> head = (points = 8, taken = 1), "
                                "chest = (points = 20, taken = 5)")
    ev = enc.correct("ships.brute.name", "[bold]C:\\fleet")
    assert enc.describe(ev) == "correction: ships.brute.name ([bold]C:\\fleet) 'Brute' -> '[bold]C:\\fleet'"


def test_a_shut_down_list_reads_as_names_in_its_correction_line() -> None:
    """The megatraveller systems shut down, corrected whole (``names_list``): "(none) -> sensors", then
    "sensors -> sensors, power", as the correction form has the list typed."""
    from engine.saves import SaveFile
    from tests.demos import shipped_demos

    enc = SaveFile.load(shipped_demos()["megatraveller"]).encounter
    ev = enc.correct("ships.corsair.shut_down", "sensors", note="a critical")
    assert enc.describe(ev) == "correction: ships.corsair.shut_down (Red Lantern) (none) -> sensors (a critical)"
    ev = enc.correct("ships.corsair.shut_down", "sensors, power")
    assert enc.describe(ev) == "correction: ships.corsair.shut_down (Red Lantern) sensors -> sensors, power"
    ev = enc.correct("ships.corsair.shut_down", "")
    assert enc.describe(ev) == "correction: ships.corsair.shut_down (Red Lantern) sensors, power -> (none)"


def test_a_correction_line_names_a_unit_named_further_in_its_path() -> None:
    """A drive read "correction: knowledge.imperial.corsair.state 'locked' -> 'detected'" where the form had said
    Red Lantern: what one side knows of a ship is kept under the ship's id, past the side's."""
    from engine.saves import SaveFile
    from tests.demos import shipped_demos

    enc = SaveFile.load(shipped_demos()["megatraveller"]).encounter
    ev = enc.correct("knowledge.imperial.corsair.state", "located")
    assert enc.describe(ev) == "correction: knowledge.imperial.corsair.state (Red Lantern) 'detected' -> 'located'"


def test_an_action_line_names_a_renamed_unit_by_its_new_name(enc: Encounter) -> None:
    """Found by a game master's drive: after a ship was renamed by a correction, its action lines still read
    the setup's name ("target=Brute") while the notes under them read the new one. An action taken after the
    rename reads the new name; one taken before it keeps the name its own lines were written with
    (tests/engine/test_log_names.py)."""
    to_fire_step(enc)
    scan = next(ev for ev in enc.events if ev.kind == "action" and ev.data["name"] == "scan")
    assert enc.describe(scan).endswith("target Brute")
    enc.correct("ships.brute.name", "Brute II", note="typo")
    fire = enc.act("fire", ship="arrow", target="brute")
    assert enc.describe(fire).endswith("target Brute II")
    assert enc.describe(scan).endswith("target Brute")


@pytest.mark.parametrize("path,value,message", [
    ("ships.brute.hull", "lots", "holds a whole number"),
    ("ships.nobody.hull", "3", "no value at ships.nobody"),
    ("ships.brute", "3", r"ships\.brute is a table; correct one value inside it"),
    ("pending", "[]", "pending rolls cannot be corrected"),
    # found by a fuzz of typed corrections (session 29): int() took these as list positions, or raised ValueError
    ("ships.brute.hull[\u00b2]", "3", r"\[\u00b2\] must be a list position"),
    ("ships.brute.hull[\u0660]", "3", r"\[\u0660\] must be a list position"),
    pytest.param("ships.brute.hull[" + "9" * 5000 + "]", "3", r"must be a list position", id="5000-digit position"),
])
def test_bad_corrections_are_refused(enc: Encounter, path: str, value: str, message: str) -> None:
    with pytest.raises(FlagbridgeError, match=message):
        enc.correct(path, value)
    assert enc.events == []


def test_replay_draws_no_dice_and_equals_live_state(enc: Encounter) -> None:
    to_fire_step(enc)
    enc.act("fire", ship="arrow", target="brute")
    enc.roll()
    while enc.pending:
        enc.roll()

    class NoDice:
        def answer(self, *a):
            raise AssertionError("replay rolled dice")

    copy = [Event(e.kind, e.group, e.at, e.data) for e in enc.events]
    again = Encounter(make_setup(), SKIRMISH, copy)
    again.roller = NoDice()
    assert again.state == enc.state == replay(make_setup(), enc.events, SKIRMISH)


def test_builtin_roller_is_deterministic_for_a_seed(enc: Encounter) -> None:
    enc.act("initiative")
    first = enc.roll().data["faces"]
    enc.undo()
    enc.act("initiative")
    assert enc.roll().data["faces"] == first  # undo cannot fish for better dice


def test_replay_refuses_a_log_that_does_not_fit(enc: Encounter) -> None:
    to_fire_step(enc)
    bad = [Event(e.kind, e.group, e.at, dict(e.data)) for e in enc.events]
    bad[1].data["natural"] = 9  # 9 on 1D
    with pytest.raises(ReplayError, match=r"events\[1\] \(roll\): 9 cannot be rolled on 1D"):
        Encounter(make_setup(), SKIRMISH, bad)


def test_knowledge_objects_and_people_are_state(enc: Encounter) -> None:
    to_fire_step(enc)
    assert enc.state["knowledge"] == {"blue": {"brute": "locked"}}
    enc.act("launch", ship="arrow", target="brute")
    assert enc.state["objects"]["salvo-1"]["expires_turn"] == 2
    enc.act("board", person="vask", part="head")
    enc.type_roll("5")  # 0.5 x 5 = 2.5, rounds to 3, +1
    assert enc.state["people"]["vask"]["body"]["head"]["taken"] == 4
    enc.act("next")
    enc.act("next")  # into turn 2: the salvo lasts through it
    assert "salvo-1" in enc.state["objects"]
    enc.act("next")
    enc.act("next")
    enc.act("next")  # turn 3
    assert enc.state["objects"] == {}


def test_objects_expire_after_their_last_turn() -> None:
    state: dict = {}
    oid = add_object(state, "torpedo", 3, target="x")
    assert expire_objects(state, 3) == [] and expire_objects(state, 4) == [oid]


def test_unknown_ruleset_names_the_known_ones() -> None:
    with pytest.raises(UnknownRuleset, match="unknown ruleset 'nope'"):
        find_ruleset("nope")


def test_setup_is_checked_against_the_ruleset_fields() -> None:
    s = make_setup()
    s.ships["brute"]["hull"] = 0
    with pytest.raises(BadTable, match="setup.ships.brute: hull must be at least 1"):
        Encounter(s, SKIRMISH)
    s = make_setup()
    s.ships["brute"]["side"] = "green"
    with pytest.raises(BadTable, match="side must be one of blue, red"):
        Encounter(s, SKIRMISH)


def test_a_redo_that_fails_half_way_leaves_the_fight_as_it_was_and_can_be_redone(enc: Encounter, monkeypatch) -> None:
    """Redo applies the group in place, as a new event is applied: a refusal half way rebuilds the state the
    log had before the redo, and keeps the group to redo."""
    to_fire_step(enc)
    before = plain_copy(enc.state)
    events = list(enc.events)
    enc.act("fire", ship="arrow", target="brute")
    enc.type_roll("10")
    enc.type_roll("4")
    after = plain_copy(enc.state)
    assert len(enc.undo()) == 3 and enc.state == before
    real, calls = enc._apply, []

    def refuses_the_second(state, ev, check=True, held=None):
        calls.append(ev)
        if len(calls) == 2:
            state["ships"]["brute"]["hull"] = -99  # a rule that changed the state before it refused
            raise IllegalAction("refused half way")
        return real(state, ev, check, held)

    monkeypatch.setattr(enc, "_apply", refuses_the_second)
    with pytest.raises(IllegalAction):
        enc.redo()
    monkeypatch.undo()
    assert enc.state == before and enc.events == events and enc.can_redo
    assert len(enc.redo()) == 3 and enc.state == after
