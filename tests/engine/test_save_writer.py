"""A long save written on the save's writer thread (``SaveFile.save_soon``): the caller goes on at once,
the file on disk is always a whole save, the newest text wins, and a failed write is reported, not lost.

DESIGN.md "Saves" (atomic, autosaved after every event) and issue 13 (a key with a 50,000-event log under
a frame: writing megabytes is left to the writer thread).
"""

from __future__ import annotations

import threading
import tomllib
from pathlib import Path

import pytest

from engine import atomic, saves
from engine.saves import SaveFile, create
from tests.skirmish import SKIRMISH, make_setup
from engine.encounter import Encounter
from engine.state import plain_copy


def on_disk(path: Path) -> int:
    """Events in the file (read as plain TOML: every file on disk must be a whole one)."""
    return len(tomllib.loads(path.read_text()).get("events", []))


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    enc = Encounter(make_setup(), SKIRMISH)
    enc.act("initiative")
    enc.type_roll("3")
    enc.type_roll("5")
    path = tmp_path / "long.toml"
    create(path, enc)
    return path


def test_a_short_save_is_written_before_save_soon_returns(saved: Path) -> None:
    sf = SaveFile.load(saved)
    sf.encounter.act("next")
    sf.save_soon()
    assert on_disk(saved) == len(sf.encounter.events)


def test_a_long_save_goes_to_the_writer_and_flush_waits_for_it(saved: Path, monkeypatch) -> None:
    monkeypatch.setattr(saves, "BACKGROUND_BYTES", 0)  # every save counts as long
    gate = threading.Event()
    real = saves.write_atomic

    def slow(path, parts, backup=True):
        gate.wait(5)
        real(path, parts, backup)

    monkeypatch.setattr(saves, "write_atomic", slow)
    sf = SaveFile.load(saved)
    sf.encounter.act("next")
    sf.save_soon()  # returns while the write waits at the gate
    assert on_disk(saved) == len(sf.encounter.events) - 1
    gate.set()
    sf.flush()
    assert on_disk(saved) == len(sf.encounter.events)
    assert saved.read_text() == sf.text()


def test_the_newest_text_wins_and_every_file_on_disk_is_whole(saved: Path, monkeypatch) -> None:
    monkeypatch.setattr(saves, "BACKGROUND_BYTES", 0)
    written: list[int] = []
    real = saves.write_atomic

    def watched(path, parts, backup=True):
        real(path, parts, backup)
        written.append(on_disk(Path(path)))

    monkeypatch.setattr(saves, "write_atomic", watched)
    sf = SaveFile.load(saved)
    for _ in range(5):
        sf.encounter.act("next")
        sf.save_soon()
    sf.flush()
    assert written[-1] == len(sf.encounter.events) and written == sorted(written)
    assert SaveFile.load(saved).encounter.state == sf.encounter.state


def test_save_now_comes_after_a_write_under_way_and_replaces_one_waiting(saved: Path, monkeypatch) -> None:
    monkeypatch.setattr(saves, "BACKGROUND_BYTES", 0)
    sf = SaveFile.load(saved)
    sf.encounter.act("next")
    sf.save_soon()
    sf.encounter.act("next")
    sf.save()  # a save asked for by the game master (ctrl+s, quit) is written last
    sf.flush()
    assert on_disk(saved) == len(sf.encounter.events)
    assert saved.read_text() == sf.text()


def test_a_failed_background_write_is_reported_and_raised_by_flush(saved: Path, monkeypatch) -> None:
    monkeypatch.setattr(saves, "BACKGROUND_BYTES", 0)
    before = saved.read_bytes()

    def full(path, parts, backup=True):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(saves, "write_atomic", full)
    heard: list[BaseException] = []
    sf = SaveFile.load(saved)
    sf.on_write_error = heard.append
    sf.encounter.act("next")
    sf.save_soon()
    with pytest.raises(OSError, match="No space"):
        sf.flush()
    assert [type(e) for e in heard] == [OSError]
    assert saved.read_bytes() == before  # the last good save is untouched
    monkeypatch.setattr(saves, "write_atomic", atomic.write_atomic)
    sf.save()  # ctrl+s once there is room again
    sf.flush()  # nothing left to report
    assert on_disk(saved) == len(sf.encounter.events)


def test_a_long_saves_state_is_written_on_the_writer_from_a_copy_taken_at_save_soon(saved: Path, monkeypatch) -> None:
    """The [state] of a long save is written out on the writer thread (a fleet's takes longer than a frame),
    from a copy taken when save_soon was called: what happens after it is the next save's."""
    monkeypatch.setattr(saves, "BACKGROUND_BYTES", 0)
    gate = threading.Event()
    real = saves.SaveFile._state_text_of
    made_on: list[str] = []

    def watched(self, key, state):
        gate.wait(5)
        made_on.append(threading.current_thread().name)
        return real(self, key, state)

    monkeypatch.setattr(saves.SaveFile, "_state_text_of", watched)
    sf = SaveFile.load(saved)
    sf.encounter.act("next")
    then = plain_copy(sf.encounter.state)
    sf.save_soon()  # returns while the writer waits at the gate
    assert made_on == []
    sf.encounter.act("next")  # the live state moves on before the writer reads anything
    assert sf.encounter.state != then
    gate.set()
    sf.flush()
    assert made_on == ["flagbridge-save"]
    assert on_disk(saved) == len(sf.encounter.events) - 1
    assert SaveFile.load(saved).encounter.state == then  # its [state] agrees with its log (a load checks it)
    assert tomllib.loads(saved.read_text())["state"]["step"] == then["step"]
