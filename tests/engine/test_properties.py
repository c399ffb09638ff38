"""Property tests of the event-logged encounter and its saves (DESIGN.md "The encounter
is an event log", "Saves"), driven by random game-master sessions in the test ruleset.

A session is a random walk: at each step hypothesis picks one of the actions legal now
(with plausible arguments), answers a pending roll with the built-in dice or a typed value,
makes a manual correction, or undoes/redoes. Every roll is either seeded or drawn by
hypothesis, so no assertion depends on luck.
"""

from __future__ import annotations

import tempfile
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import engine.encounter
from engine.encounter import Encounter, replay
from engine.errors import BadDiceValue, IllegalAction
from engine.saves import SaveFile, create
from engine.state import plain_copy
from tests.skirmish import SKIRMISH, make_setup

SIDES = ("blue", "red")
PERSON = "vask"
PARTS = ("head", "chest")

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SAVE_SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- building sessions ------------------------------------------------------------------

def new_encounter(seed: int) -> tuple:
    setup = make_setup(seed)
    return setup, Encounter(setup, SKIRMISH)


@contextmanager
def checkpoints_every(n: int):
    """Rebuilds start from checkpoints; small intervals make undo use them often."""
    with mock.patch.object(engine.encounter, "CHECKPOINT_EVERY", n):
        yield


def event_key(ev) -> tuple:
    return (ev.kind, ev.group, ev.at, ev.data)


def valid_roll_text(data, req) -> str:
    """Something a game master could type for this roll that the dice can produce."""
    dice = req.parsed
    faces = data.draw(st.lists(st.integers(1, dice.sides), min_size=dice.count, max_size=dice.count), label="faces")
    how = data.draw(st.sampled_from(["total", "faces", "commas", "padded"]), label="typed as")
    if dice.count > 1 and how == "total":
        return str(sum(faces))
    if dice.count == 1 and dice.sides == 10 and faces[0] == 10 and data.draw(st.booleans(), label="0 for 10"):
        return "0"  # a d10 shows 0 for 10
    if how == "commas":
        return ", ".join(map(str, faces))
    if how == "padded":
        return "  " + " ".join(map(str, faces)) + " \t"
    return " ".join(map(str, faces))


def invalid_roll_text(data, req) -> str:
    """Plain-ASCII input the dice cannot produce (out of range, wrong count, not digits)."""
    dice = req.parsed
    lo, hi = dice.min_natural, dice.max_natural

    def impossible_single(n: int) -> bool:
        if dice.count > 1:
            return not lo <= n <= hi
        return not (1 <= n <= dice.sides or (dice.sides == 10 and n == 0))

    kind = data.draw(st.sampled_from(["number", "count", "face", "letters", "blank"]), label="bad kind")
    if kind == "number":
        n = data.draw(st.integers(-5, hi + 20).filter(impossible_single), label="bad number")
        return str(n)
    if kind == "count":
        k = data.draw(st.integers(dice.count + 1, dice.count + 3), label="too many dice")
        return " ".join(str(data.draw(st.integers(1, dice.sides), label="face")) for _ in range(k))
    if kind == "face" and dice.count > 1:
        bad = data.draw(st.sampled_from([0, dice.sides + 1, dice.sides + 7]), label="bad face")
        faces = [str(data.draw(st.integers(1, dice.sides), label="face")) for _ in range(dice.count - 1)]
        pos = data.draw(st.integers(0, len(faces)), label="at")
        faces.insert(pos, str(bad))
        return " ".join(faces)
    if kind == "blank":
        return data.draw(st.sampled_from(["", " ", "\t", " , "]), label="blank")
    return data.draw(st.sampled_from(["a", "x", "two", "7a", "3.5", "1/2", "-1", "2-3", "six", "0x7"]), label="letters")


def check_refused(enc: Encounter, text: str) -> None:
    """A typed value the dice cannot produce is refused and records nothing."""
    state, events, redo = plain_copy(enc.state), list(enc.events), enc.can_redo
    with pytest.raises(BadDiceValue):
        enc.type_roll(text)
    assert enc.state == state
    assert len(enc.events) == len(events) and all(a is b for a, b in zip(enc.events, events))
    assert enc.can_redo == redo


def action_args(data, enc: Encounter, name: str) -> dict:
    ships = sorted(enc.state["ships"])
    ship_ids = st.sampled_from(ships + ["ghost"]) if data.draw(st.integers(0, 9), label="bogus?") == 0 \
        else st.sampled_from(ships)
    if name == "scan":
        return {"side": data.draw(st.sampled_from(SIDES), label="side"), "target": data.draw(ship_ids, label="target")}
    if name in ("fire", "launch"):
        state = enc.state
        aimed = [  # a ship whose side has a lock, and the locked target
            (sid, target) for sid in ships for target in ships
            if state["knowledge"].get(state["ships"][sid]["side"], {}).get(target) == "locked"
        ]
        if aimed and data.draw(st.integers(0, 3), label="aimed?") > 0:
            ship, target = data.draw(st.sampled_from(aimed), label="ship at target")
            return {"ship": ship, "target": target}
        return {"ship": data.draw(ship_ids, label="ship"), "target": data.draw(ship_ids, label="target")}
    if name == "board":
        return {"person": PERSON, "part": data.draw(st.sampled_from(PARTS + ("tail",)), label="part")}
    return {}


def correction(data, enc: Encounter) -> tuple[str, object]:
    """A plausible manual correction: a path into the state and a new value."""
    state = enc.state
    ships = sorted(state["ships"])
    choices = [
        ("hull", st.integers(0, 40)), ("gun", st.integers(0, 4)), ("tactics", st.integers(0, 6)),
        ("turn", st.integers(1, 6)), ("step", st.integers(0, 2)), ("taken", st.integers(0, 30)),
        ("attacker", st.sampled_from(["", "blue", "red"])),
        # any text a screen shows as written (a control character is refused where it is typed)
        ("attacker", st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=8)),
    ]
    for side, known in sorted(state["knowledge"].items()):
        for target in sorted(known):
            choices.append((f"knowledge.{side}.{target}", st.sampled_from(["locked", "detected", "undetected"])))
    for side in sorted(state["initiative"]):
        choices.append((f"initiative.{side}", st.integers(-2, 12)))
    what, values = data.draw(st.sampled_from(choices), label="correct")
    if what in ("hull", "gun", "tactics"):
        path = f"ships.{data.draw(st.sampled_from(ships), label='ship')}.{what}"
    elif what == "taken":
        path = f"people.{PERSON}.body.{data.draw(st.sampled_from(PARTS), label='part')}.taken"
    else:
        path = what
    value = data.draw(values, label="value")
    if isinstance(value, int) and data.draw(st.booleans(), label="typed as text"):
        value = f" {value} "  # the console passes what was typed; the engine reads it as a number
    return path, value


def play(data, enc: Encounter, max_steps: int = 60, *, corrections_while_pending: bool = True) -> None:
    """A random game-master session; checks the step-local properties as it goes."""
    steps = data.draw(st.integers(0, max_steps), label="steps")
    for _ in range(steps):
        req = enc.pending
        if req is not None:
            ops = ["roll", "type", "type", "bad roll", "undo", "redo"]
            if corrections_while_pending:
                ops.append("correct")
        else:
            ops = ["act"] * 6 + ["correct", "undo", "redo"]
        op = data.draw(st.sampled_from(ops), label="op")
        if op == "act":
            names = [a.name for a in enc.legal_actions()]
            # stay in a step a while: "next" is one choice in four against each other action
            weighted = [n for n in names if n != "next"] * 3 + ["next"]
            name = data.draw(st.sampled_from(weighted), label="action")
            args = action_args(data, enc, name)
            before, n = plain_copy(enc.state), len(enc.events)
            try:
                enc.act(name, **args)
            except IllegalAction:
                assert enc.state == before and len(enc.events) == n  # a refused action records nothing
        elif op == "roll":
            enc.roll()
        elif op == "type":
            enc.type_roll(valid_roll_text(data, req))
        elif op == "bad roll":
            check_refused(enc, invalid_roll_text(data, req))
        elif op == "correct":
            path, value = correction(data, enc)
            enc.correct(path, value)
        elif op == "undo":
            before, events = plain_copy(enc.state), list(enc.events)
            removed = enc.undo()
            if removed and enc.events + removed != events:
                # a correction placed before the action whose rolls waited, taken back alone: that action's group
                # is played again without it, under the correction's own number (``Encounter.correct``)
                (placed,) = removed
                i = next(n for n, ev in enumerate(events) if ev is placed)
                assert placed.kind == "correction" and engine.encounter.PLACED in placed.data
                assert enc.events[:i] == events[:i] and len(enc.events) == len(events) - 1
                assert [(e.kind, e.group) for e in enc.events[i:]] == [(e.kind, e.group - 1) for e in events[i + 1:]]
            if removed:
                if data.draw(st.booleans(), label="check redo"):
                    assert enc.redo() == removed
                    assert enc.state == before
                    assert enc.events == events
                    enc.undo()
        else:
            enc.redo()
        if data.draw(st.booleans(), label="autosaved"):
            enc.frozen_state()  # as the console's autosave does after a key: undo may thaw it later


# --- (a) replaying the log gives the live state ---------------------------------------------

@SETTINGS
@given(data=st.data(), seed=st.integers(0, 2**31), every=st.sampled_from([1, 2, 3, 7, 100]))
def test_replay_of_the_log_equals_the_live_state(data, seed, every):
    with checkpoints_every(every):
        setup, enc = new_encounter(seed)
        play(data, enc)
        assert replay(setup, enc.events, SKIRMISH) == enc.state
        # the log alone makes the state: a new encounter built from it agrees too
        assert Encounter(make_setup(seed), SKIRMISH, list(enc.events)).state == enc.state


# --- (b) undoing everything gives the setup's state ------------------------------------------

@SETTINGS
@given(data=st.data(), seed=st.integers(0, 2**31), every=st.sampled_from([1, 2, 3, 7, 100]))
def test_undoing_everything_returns_to_the_start(data, seed, every):
    with checkpoints_every(every):
        setup, enc = new_encounter(seed)
        play(data, enc)
        while enc.undo():
            pass
        assert enc.events == []
        assert not enc.can_undo
        assert enc.state == Encounter(make_setup(seed), SKIRMISH).state


@SETTINGS
@given(data=st.data(), seed=st.integers(0, 2**31), every=st.sampled_from([1, 2, 3, 100]))
def test_redo_after_undo_restores_the_exact_state(data, seed, every):
    with checkpoints_every(every):
        setup, enc = new_encounter(seed)
        play(data, enc)
        states, logs = [], []
        while enc.can_undo and data.draw(st.integers(0, 4), label="undo more") > 0:
            states.append(plain_copy(enc.state))
            logs.append(list(enc.events))
            enc.undo()
        while states:
            assert enc.redo()
            assert enc.state == states.pop()
            events = logs.pop()
            assert len(enc.events) == len(events) and all(a is b for a, b in zip(enc.events, events))
        assert replay(setup, enc.events, SKIRMISH) == enc.state


def test_a_new_event_clears_redo(setup):
    enc = Encounter(setup, SKIRMISH)
    enc.act("next")
    enc.undo()
    assert enc.can_redo
    enc.correct("ships.brute.hull", 12)
    assert not enc.can_redo and enc.redo() == []


# --- typed rolls the dice cannot produce ---------------------------------------------------

@SETTINGS
@given(data=st.data(), seed=st.integers(0, 2**31))
def test_impossible_typed_rolls_are_refused_and_record_nothing(data, seed):
    setup, enc = new_encounter(seed)
    play(data, enc, max_steps=20)
    # a pending roll of each kind the ruleset asks for (1D, 2D, 0.5:10sd+1)
    for start in (["initiative"], ["next", "scan"], ["next", "board"]):
        _, fresh = new_encounter(seed)
        for name in start:
            args = {"scan": {"side": "blue", "target": "brute"}, "board": {"person": PERSON, "part": "head"}}.get(name, {})
            fresh.act(name, **args)
        assert fresh.pending is not None
        check_refused(fresh, invalid_roll_text(data, fresh.pending))
    if enc.pending is not None:
        check_refused(enc, invalid_roll_text(data, enc.pending))


@pytest.mark.parametrize("dice_text, bad", [
    ("2D", "13"), ("2D", "1"), ("2D", "0"), ("2D", "7 7"), ("2D", "1 2 3"), ("2D", "abc"), ("2D", ""),
])
def test_the_designs_examples_of_impossible_rolls(setup, dice_text, bad):
    enc = Encounter(setup, SKIRMISH)
    enc.act("next")
    enc.act("scan", side="blue", target="brute")
    assert enc.pending.dice == dice_text
    check_refused(enc, bad)


def test_zero_on_one_die_is_refused(setup):
    enc = Encounter(setup, SKIRMISH)
    enc.act("initiative")
    assert enc.pending.dice == "1D"
    check_refused(enc, "0")
    check_refused(enc, "7")


@SETTINGS
@given(seed=st.integers(0, 2**31), which=st.sampled_from(["initiative", "scan", "board"]),
       text=st.text(max_size=12))
@example(seed=7, which="initiative", text="²")  # str.isdigit() is true for it, int() refuses it
@example(seed=7, which="initiative", text="9" * 5000)  # int() refuses over 4300 digits
def test_any_typed_text_is_either_recorded_or_refused_with_a_message(seed, which, text):
    """No input crashes: whatever is typed is one roll event, or BadDiceValue and nothing recorded."""
    _, enc = new_encounter(seed)
    if which != "initiative":
        enc.act("next")
    enc.act(which, **{"scan": {"side": "red", "target": "arrow"},
                      "board": {"person": PERSON, "part": "chest"}}.get(which, {}))
    state, n = plain_copy(enc.state), len(enc.events)
    try:
        ev = enc.type_roll(text)
    except BadDiceValue:
        assert enc.state == state and len(enc.events) == n
    else:
        assert ev.kind == "roll" and enc.events[-1] is ev and len(enc.events) == n + 1


# --- (c) save, load, save again ------------------------------------------------------------

def check_save_round_trip(setup, enc: Encounter) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.toml"
        create(path, enc)
        written = path.read_text(encoding="utf-8")
        loaded = SaveFile.load(path)
        assert loaded.encounter.state == enc.state
        assert [event_key(e) for e in loaded.encounter.events] == [event_key(e) for e in enc.events]
        assert loaded.text() == written  # so the next save writes the same file
        loaded.save()
        assert path.read_text(encoding="utf-8") == written
        # and the loaded encounter goes on like the live one: undo everything
        while loaded.encounter.undo():
            pass
        assert loaded.encounter.state == Encounter(setup, SKIRMISH).state


@SAVE_SETTINGS
@given(data=st.data(), seed=st.integers(0, 2**31))
def test_save_then_load_gives_the_same_state_and_the_same_file(data, seed):
    setup, enc = new_encounter(seed)
    play(data, enc, max_steps=30)
    check_save_round_trip(setup, enc)


@SAVE_SETTINGS
@given(data=st.data(), seed=st.integers(0, 2**31))
def test_save_round_trip_with_corrections_only_between_actions(data, seed):
    """As above, without corrections made while a roll is pending (see the test below)."""
    setup, enc = new_encounter(seed)
    play(data, enc, max_steps=30, corrections_while_pending=False)
    check_save_round_trip(setup, enc)


def test_a_correction_while_a_roll_is_pending_saves_and_loads(setup):
    """The engine allows a correction while a roll waits; the roll then logs the action's
    (lower) group after the correction's, and the save must still load."""
    enc = Encounter(setup, SKIRMISH)
    enc.act("initiative")
    enc.correct("ships.brute.hull", 5)
    enc.roll()
    assert replay(setup, enc.events, SKIRMISH) == enc.state
    check_save_round_trip(make_setup(), enc)


@SAVE_SETTINGS
@given(data=st.data(), seed=st.integers(0, 2**31))
def test_autosave_keeps_the_file_equal_to_the_live_state(data, seed):
    setup, enc = new_encounter(seed)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "auto.toml"
        create(path, enc).autosave()
        play(data, enc, max_steps=15, corrections_while_pending=False)
        loaded = SaveFile.load(path)
        assert loaded.encounter.state == enc.state
        assert [event_key(e) for e in loaded.encounter.events] == [event_key(e) for e in enc.events]


_plain = st.recursive(
    st.one_of(st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=8)),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)),
    max_leaves=30,
)


@given(_plain)
@settings(max_examples=200, deadline=None)
def test_a_frozen_state_thaws_to_the_same_values_types_and_order_unshared(value):
    """Checkpoints (``freeze``/``thaw``) and copies (``plain_copy``) give back exactly what was kept: a bool
    stays a bool (not 1), a dict keeps its key order (the save writes in it), and nothing is shared with the
    original, so play after a checkpoint never changes it."""
    from engine.state import freeze, thaw

    def shape(v):  # the value with every type spelled out, keys in order
        if isinstance(v, dict):
            return ("dict", [(k, shape(x)) for k, x in v.items()])
        if isinstance(v, list):
            return ("list", [shape(x) for x in v])
        return (type(v).__name__, repr(v))

    for copy in (thaw(freeze(value)), plain_copy(value)):
        assert shape(copy) == shape(value)
        if isinstance(value, (dict, list)):
            assert copy is not value
            copy.clear()
            assert shape(value) == shape(thaw(freeze(value)))  # the original is untouched
