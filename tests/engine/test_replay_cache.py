"""Replay caches (``engine/replay_cache.py``, issue 13: a fight that has run for many sessions opens at
once): a load starts from the checkpoints kept beside the save for the part of its log the file still
holds unchanged, gives exactly what a whole replay gives, and ignores any cache it cannot trust."""

from __future__ import annotations

import pickle
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import replay_cache, saves
from engine.encounter import Encounter, UnreadEvent
from engine.errors import BadSave
from engine.saves import SaveFile
from engine.state import thaw
from tests.bench.bench_engine import play
from tests.skirmish import SKIRMISH, make_setup

LOG_BLOCK_REAL = saves.LOG_BLOCK
BLOCK = 200  # events a block in these tests (a save's LOG_BLOCK is 1000): a 450-event log holds two


@pytest.fixture(autouse=True)
def own_key(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("FLAGBRIDGE_STATE_DIR", str(tmp_path_factory.mktemp("state")))
    monkeypatch.setattr(saves, "LOG_BLOCK", BLOCK)
    replay_cache.forget_key()
    yield
    replay_cache.forget_key()


@pytest.fixture
def long_save(tmp_path: Path) -> Path:
    path = tmp_path / "long.toml"
    saves.create(path, play(Encounter(make_setup(), SKIRMISH), 450))
    return path


def replayed(monkeypatch) -> list[int]:
    """Counts the events each Encounter built from here on applies (one entry an encounter)."""
    counts: list[int] = []
    real = Encounter.__init__

    def counting(self, *args, **kwargs) -> None:
        applied = [0]
        apply = self._apply

        def one(*a, **k):
            applied[0] += 1
            return apply(*a, **k)

        self._apply = one
        real(self, *args, **kwargs)
        counts.append(applied[0])
        del self._apply

    monkeypatch.setattr(Encounter, "__init__", counting)
    return counts


def whole(path: Path) -> Encounter:
    return SaveFile.load(path, cached_replay=False).encounter


def same(a: Encounter, b: Encounter) -> None:
    assert repr(a.state) == repr(b.state)  # the same values in the same order
    kept = [{n: repr(thaw(b)) for n, b in e.checkpoints_upto(len(e.events)).items()} for e in (a, b)]
    assert kept[0] == {n: kept[1][n] for n in kept[0]}  # a cached load keeps fewer, the same where it has one
    assert {n for n in kept[1] if n % BLOCK == 0 or n > len(a.events) - len(a.events) % BLOCK} <= set(kept[0])
    assert [e.data for e in a.events] == [e.data for e in b.events]
    assert [e.notes for e in a.events] == [e.notes for e in b.events]  # the log shows them
    assert [e.about for e in a.events] == [e.about for e in b.events]  # the players' screen reads them
    assert [e.words for e in a.events] == [e.words for e in b.events]  # an action's line names its choices by them


def test_a_saved_long_log_keeps_its_checkpoints_and_opens_from_them(long_save: Path, monkeypatch) -> None:
    assert replay_cache.cache_path(long_save).exists()
    events = len(whole(long_save).events)
    counts = replayed(monkeypatch)
    fast = SaveFile.load(long_save).encounter
    assert counts == [events - 2 * BLOCK]  # only what follows the last whole block
    same(fast, whole(long_save))
    slow = whole(long_save)
    for _ in range(3):  # the checkpoints it took from the cache serve undo as its own do
        fast.undo()
        slow.undo()
        same(fast, slow)
    while len(slow.events) > BLOCK - 50:  # back past both blocks' ends: replayed from the cached block ends
        assert [e.data for e in fast.undo()] == [e.data for e in slow.undo()]
        assert repr(fast.state) == repr(slow.state)


def test_an_event_edited_by_hand_in_the_second_block_replays_from_that_block(long_save: Path, monkeypatch) -> None:
    text = long_save.read_text(encoding="utf-8")
    starts = saves._event_starts(text)
    edited = starts[BLOCK + 5]
    at = text.index("at = ", edited)
    text = text[:at] + "at = 2030-01-01T00:00:00Z" + text[text.index("\n", at):]  # a harmless edit: the time
    long_save.write_text(text, encoding="utf-8")
    counts = replayed(monkeypatch)
    fast = SaveFile.load(long_save).encounter
    assert counts[0] == len(fast.events) - BLOCK
    same(fast, whole(long_save))


def test_a_log_that_does_not_replay_is_refused_as_without_a_cache(long_save: Path) -> None:
    text = long_save.read_text(encoding="utf-8")
    starts = saves._event_starts(text)
    first_roll = next(s for s in starts[BLOCK:] if 'kind = "roll"' in text[s: s + 200])
    at = text.index("natural = ", first_roll)
    text = text[:at] + "natural = 99" + text[text.index("\n", at):]
    long_save.write_text(text, encoding="utf-8")
    with pytest.raises(BadSave) as without:
        SaveFile.load(long_save, cached_replay=False)
    with pytest.raises(BadSave) as cached:
        SaveFile.load(long_save)
    assert str(cached.value) == str(without.value)


@pytest.mark.parametrize("spoil", ["other key", "garbage", "cut short", "other setup"])
def test_a_cache_it_cannot_trust_is_ignored_and_the_whole_log_replayed(long_save: Path, monkeypatch,
                                                                       tmp_path: Path, spoil: str) -> None:
    cache = replay_cache.cache_path(long_save)
    if spoil == "other key":  # a cache that came with a save from someone else's machine
        monkeypatch.setenv("FLAGBRIDGE_STATE_DIR", str(tmp_path / "elsewhere"))
        replay_cache.forget_key()
    elif spoil == "garbage":
        cache.write_bytes(replay_cache.MAGIC + b"\0" * 64)
    elif spoil == "cut short":
        cache.write_bytes(cache.read_bytes()[:-10])
    else:  # the setup edited by hand: the start of the fight is not the one the checkpoints came from
        text = long_save.read_text(encoding="utf-8").replace("hull = 20", "hull = 21", 1)
        long_save.write_text(text, encoding="utf-8")
    counts = replayed(monkeypatch)
    try:
        loaded = SaveFile.load(long_save).encounter
    except BadSave:  # the edited setup no longer replays: as without a cache
        assert spoil == "other setup"
        with pytest.raises(BadSave):
            whole(long_save)
        return
    assert counts == [len(loaded.events)]
    same(loaded, whole(long_save))


_OPENED: list[str] = []


def _opened(what: str) -> str:
    _OPENED.append(what)
    return what


class _Trap:
    def __reduce__(self):
        return (_opened, ("unpickled",))


def test_nothing_in_a_cache_is_unpickled_unless_this_users_key_signed_it(long_save: Path, monkeypatch,
                                                                        tmp_path: Path) -> None:
    """A save is data only: a cache beside it made elsewhere (or by hand) with a pickle in it is never read."""
    code = saves._code_stamp(make_setup(), SKIRMISH, saves.kept_texts(long_save.read_text(encoding="utf-8"))[1],
                             long_save.parent)
    text = long_save.read_text(encoding="utf-8")
    enc = whole(long_save)
    blocks = list(saves._log_blocks([ev.text for ev in enc.events]))
    monkeypatch.setenv("FLAGBRIDGE_STATE_DIR", str(tmp_path / "stranger"))
    replay_cache.forget_key()
    checkpoints = {n: pickle.dumps(_Trap()) for n in range(0, 2 * BLOCK + 1, 100)}
    replay_cache.write(long_save, code, blocks, checkpoints, [[] for _ in range(2 * BLOCK)])  # the stranger's key
    monkeypatch.setenv("FLAGBRIDGE_STATE_DIR", str(tmp_path / "mine"))
    replay_cache.forget_key()
    loaded = SaveFile.load(long_save).encounter
    assert _OPENED == [] and long_save.read_text(encoding="utf-8") == text
    same(loaded, enc)


def test_after_an_undo_past_a_block_the_cache_is_kept_for_the_blocks_left(long_save: Path, monkeypatch) -> None:
    save = SaveFile.load(long_save)
    enc = save.encounter
    while len(enc.events) > 2 * BLOCK - 30:
        enc.undo()
    save.save()
    counts = replayed(monkeypatch)
    loaded = SaveFile.load(long_save).encounter
    assert counts == [len(loaded.events) - BLOCK]
    same(loaded, whole(long_save))
    play(enc, 2 * BLOCK + 60)  # on again past the block: the next save keeps it
    save.save()
    counts.clear()
    loaded = SaveFile.load(long_save).encounter
    assert counts == [len(loaded.events) - 2 * BLOCK]
    same(loaded, whole(long_save))


def test_a_table_file_changed_since_is_read_with_the_whole_log(tmp_path: Path, monkeypatch) -> None:
    """The stamp holds the game master's own table files (by size and time of change), the ruleset's code
    and shipped tables: any change replays the whole log, which reads them as they are now."""
    own = tmp_path / "own.toml"
    own.write_text("x = 1\n", encoding="utf-8")
    setup = make_setup()
    setup.options["tables"] = {"to_hit": "own.toml"}
    before = saves._code_stamp(setup, SKIRMISH, "[setup]", tmp_path)
    own.write_text("x = 22\n", encoding="utf-8")
    assert saves._code_stamp(setup, SKIRMISH, "[setup]", tmp_path) != before
    assert saves._code_stamp(make_setup(), SKIRMISH, "[setup]", tmp_path) != before
    assert saves._code_stamp(setup, SKIRMISH, "[setup] ", tmp_path) == saves._code_stamp(setup, SKIRMISH, "[setup]", tmp_path)


def test_a_short_save_is_stamped_when_its_log_first_fills_a_block(tmp_path: Path, monkeypatch) -> None:
    """A load of a save shorter than a block reads no cache and stamps nothing (a start-up's cost); played on
    past a block, its save keeps a cache as a long save's does, and the next load opens from it."""
    path = tmp_path / "short.toml"
    saves.create(path, play(Encounter(make_setup(), SKIRMISH), 40))
    stamps: list = []
    real = replay_cache.stamp
    monkeypatch.setattr(replay_cache, "stamp", lambda *a, **k: stamps.append(a) or real(*a, **k))
    save = SaveFile.load(path)
    assert stamps == []
    play(save.encounter, BLOCK + 30)
    save.save()
    assert len(stamps) == 1 and replay_cache.cache_path(path).exists()
    counts = replayed(monkeypatch)
    loaded = SaveFile.load(path).encounter
    assert counts == [len(loaded.events) - BLOCK]
    same(loaded, whole(path))


def test_a_stamp_taken_after_the_load_is_refused_when_a_file_changed_since(tmp_path: Path) -> None:
    """Taken late, the stamp must still be of the files the load read: a file changed (or made, or renamed
    into place) since then, or missing, means no cache this session; one unchanged, the stamp it had."""
    own = tmp_path / "own.toml"
    own.write_text("x = 1\n", encoding="utf-8")
    setup = make_setup()
    setup.options["tables"] = {"to_hit": "own.toml"}
    now = saves._code_stamp(setup, SKIRMISH, "[setup]", tmp_path)
    later = time.time_ns() + 2 * replay_cache.CLOCK_SLACK_NS  # a load that began well after the file was written
    assert saves._code_stamp(setup, SKIRMISH, "[setup]", tmp_path, unchanged_since=later) == now
    loaded_at = time.time_ns()  # a load that began as the file was written
    assert saves._code_stamp(setup, SKIRMISH, "[setup]", tmp_path, unchanged_since=loaded_at) is None
    own.unlink()
    assert saves._code_stamp(setup, SKIRMISH, "[setup]", tmp_path) is not None  # stamped as missing, as before
    assert saves._code_stamp(setup, SKIRMISH, "[setup]", tmp_path, unchanged_since=later) is None


# --- the blocks a cache vouches for are read only when asked -----------------------------------------

def test_a_cached_load_leaves_the_vouched_blocks_unread_until_asked(long_save: Path) -> None:
    """Opening from the cache needs none of the cached blocks' events (their state is in the cache): each block
    is read in one go, from the file's own text, the first time anything asks one of its events."""
    fast = SaveFile.load(long_save).encounter
    events = fast.events
    assert all(type(e) is UnreadEvent for e in events[:2 * BLOCK])
    assert not any(type(e) is UnreadEvent for e in events[2 * BLOCK:])
    assert all(e._data is None for e in events[:2 * BLOCK])  # nothing read yet, kinds and groups known
    assert [e.kind for e in events] == [e.kind for e in whole(long_save).events]
    assert events[5].data  # the first block, read whole; the second still unread
    assert all(e._data is not None for e in events[:BLOCK]) and all(e._data is None for e in events[BLOCK:2 * BLOCK])
    slow = whole(long_save)
    assert [(e.kind, e.group, e.at, e.data, e.text) for e in events] == \
        [(e.kind, e.group, e.at, e.data, e.text) for e in slow.events]
    same(fast, slow)


def test_the_first_save_after_a_cached_load_writes_the_same_file_and_reads_no_cached_block(long_save: Path) -> None:
    before = long_save.read_bytes()
    save = SaveFile.load(long_save)
    save.save()
    assert long_save.read_bytes() == before
    assert all(e._data is None for e in save.encounter.events[:2 * BLOCK])  # written from the kept block texts
    save.encounter.undo()
    save.save()
    assert SaveFile.load(long_save).encounter.state == whole(long_save).state


@pytest.mark.parametrize("edit", ["broken tail", "table after the log", "events in the head", "kind by hand"])
def test_a_file_the_quick_read_cannot_vouch_for_is_read_whole(long_save: Path, monkeypatch, edit: str) -> None:
    """Parsing the head and the unheld tail apart reads as the whole file only when the head defines no events
    and the tail only events; anything else, a mistake included, gives what a load without a cache gives."""
    text = long_save.read_text(encoding="utf-8")
    starts = saves._event_starts(text)
    if edit == "broken tail":
        at = text.index("group = ", starts[2 * BLOCK + 3])
        text = text[:at] + "group = = 3" + text[text.index("\n", at):]
    elif edit == "table after the log":
        text += '\n[state]\nturn = 1\n'
    elif edit == "events in the head":
        at = text.index("[setup]")
        text = text[:at] + "events = []\n\n" + text[at:]
    else:  # an event's kind spelled out in a block the cache holds: that block is no longer the cache's
        at = text.index('kind = "action"', starts[BLOCK + 7])
        text = text[:at] + 'kind = "correction"' + text[at + len('kind = "action"'):]
    long_save.write_text(text, encoding="utf-8")
    try:
        expected = str(whole(long_save).state)
    except BadSave as exc:
        expected = f"BadSave: {exc}"
    try:
        got = str(SaveFile.load(long_save).encounter.state)
    except BadSave as exc:
        got = f"BadSave: {exc}"
    assert got == expected
    assert long_save.read_text(encoding="utf-8") == text  # a file that fails to load is never changed


def test_the_cached_blocks_match_the_replay_spacing_of_checkpoints() -> None:
    """A whole replay keeps a checkpoint at every block's end (its sparse ones fall on them), so the cache a
    save writes after it always holds the checkpoint where its blocks end."""
    from engine import encounter

    assert LOG_BLOCK_REAL % (encounter.CHECKPOINT_EVERY * encounter.SPARSE_TIMES) == 0


def test_a_quick_read_that_fails_unforeseen_leaves_the_load_to_the_whole_file(long_save: Path, monkeypatch) -> None:
    def broken(*args, **kwargs):
        raise RuntimeError("the quick read's own mistake")

    monkeypatch.setattr(saves, "UnreadBlock", broken)  # used by the quick read alone
    counts = replayed(monkeypatch)
    loaded = SaveFile.load(long_save).encounter
    assert counts == [len(loaded.events) - 2 * BLOCK]  # read whole, and still replayed from the cache's checkpoints
    assert not any(type(e) is UnreadEvent for e in loaded.events)
    same(loaded, whole(long_save))


# --- any edit of the file: the cache changes how quickly it opens, never what it opens to ---------------

def _outcome(path: Path, cached: bool) -> str:
    try:
        enc = SaveFile.load(path, cached_replay=cached).encounter
    except BadSave as exc:
        return f"BadSave: {exc}"
    return repr((enc.state, [(e.kind, e.group, e.at, e.data, e.notes, e.words) for e in enc.events]))


_EDITS = st.lists(st.tuples(st.one_of(st.floats(0, 1), st.floats(0.85, 1)),  # often in the tail the cache lacks
                            st.integers(0, 12),
                            st.sampled_from(["", "0", "9", "x", "\n", "=", "\"", "[", "]", "[[events]]\n", "#",
                                             "group = 1\n", 'kind = "roll"\n', "\n[state]\n", "}", ","])),
                  min_size=1, max_size=3)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(edits=_EDITS)
def test_a_save_edited_anywhere_opens_from_its_cache_exactly_as_without(long_save: Path, edits) -> None:
    """Bytes cut or put anywhere in a save (the log's cached blocks, the tail, the head): a load that may use
    the replay cache gives the very state, log and notes a whole reading gives, or the very same refusal."""
    original = long_save.read_text(encoding="utf-8")
    text = original
    for where, cut, put in edits:
        at = int(where * len(text))
        text = text[:at] + put + text[at + cut:]
    try:
        long_save.write_text(text, encoding="utf-8")
        assert _outcome(long_save, True) == _outcome(long_save, False)
    finally:
        long_save.write_text(original, encoding="utf-8")


def test_notes_set_apart_come_back_from_the_cache_as_a_replay_makes_them(tmp_path: Path) -> None:
    """A classic-hg damage chain begins the next attack under the last roll of the one before, its notes set
    apart (``Event.about``): a load from the cache gives them back set apart, as a whole replay does."""
    from rulesets.classic_hg import RULESET
    from tests.rulesets.classic_hg.duel import roll_for_effect, roll_for_general
    from tests.rulesets.classic_hg.test_sideview import _both_ships_hit
    from tests.rulesets.scripted import answer

    enc = _both_ships_hit()
    answer(enc, "General location: A1", roll_for_general("hold"))
    answer(enc, "Specific location: A1", roll_for_effect("hold", "cargo"))
    assert enc.events[-1].about == ((1, {"attack": "A2"}),)
    for fuel in range(2 * BLOCK - len(enc.events) + 10):  # past the first block's end
        enc.correct("ships.jackal.fuel", fuel % 50)
    path = tmp_path / "chain.toml"
    saves.create(path, enc)
    assert replay_cache.cache_path(path).exists()
    fast, slow = SaveFile.load(path, ruleset=RULESET).encounter, whole(path)
    assert isinstance(fast.events[0], UnreadEvent)  # from the cache
    same(fast, slow)
    assert any(e.about for e in fast.events)


def test_an_actions_choices_come_back_from_the_cache_in_the_words_it_was_taken_with(tmp_path: Path) -> None:
    """An action's line names its choices as its form did when it was taken (``Event.words``): a gothic repair
    names the critical it took off the ship's list. A load from the cache, which never applies that action
    again, reads the same line as a whole replay."""
    from rulesets.gothic import RULESET
    from tests.rulesets.gothic.test_battle import REPAIRED_LINES, critical_repaired

    enc, taken = critical_repaired()
    at = [enc.events.index(ev) for ev in taken]
    for n in range(2 * BLOCK - len(enc.events) + 10):  # past the first block's end
        enc.correct("ships.right.hits", 6 - n % 2)
    path = tmp_path / "repaired.toml"
    saves.create(path, enc)
    assert replay_cache.cache_path(path).exists()
    fast, slow = SaveFile.load(path, ruleset=RULESET).encounter, whole(path)
    assert isinstance(fast.events[at[-1]], UnreadEvent)  # from the cache
    same(fast, slow)
    assert [fast.describe(fast.events[i]) for i in at] == [slow.describe(slow.events[i]) for i in at] == \
        REPAIRED_LINES
