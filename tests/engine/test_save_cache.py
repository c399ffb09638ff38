"""Autosave keeps the log's text in encoded blocks and the state's text until the log changes (issue 13).

What is kept must never make a save differ from one written from scratch: after new events, undos
across a block's end, redos and new events again, the file is the same as a fresh ``SaveFile`` of
the same encounter writes, and it loads back to the same log and state.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import saves
from engine.encounter import Encounter
from engine.saves import SaveFile, create
from tests.skirmish import make_setup


def step(enc: Encounter, i: int) -> None:
    """One more event: a roll when one is pending, else a scan or the next step."""
    if enc.pending:
        enc.type_roll(str(2 + i % 11))
    elif enc.state["step"] == 1 and i % 2:
        enc.act("scan", side="blue", target="brute")
    else:
        enc.act("next")


def fresh_text(sf: SaveFile) -> str:
    """What a SaveFile with nothing kept writes for the same encounter, header and setup."""
    return SaveFile(sf.path, sf.encounter, sf._header_text, sf._setup_text).text()


@pytest.fixture
def small_blocks(monkeypatch):
    monkeypatch.setattr(saves, "LOG_BLOCK", 5)


def test_saves_with_kept_blocks_equal_saves_from_scratch(tmp_path: Path, small_blocks) -> None:
    enc = Encounter(make_setup())
    sf = create(tmp_path / "fight.toml", enc)
    i = 0
    for moves in ([23], [-3, 4], [-1, -1, -1, -1, -1, 2], [-2, 2, 5], [-6, 17]):
        for move in moves:
            if move > 0:
                for _ in range(move):
                    step(enc, i)
                    i += 1
            elif move == -1:
                enc.undo()
            else:
                for _ in range(-move):
                    enc.redo() if enc.can_redo else enc.undo()
            sf.save()
            written = sf.path.read_text(encoding="utf-8")
            assert written == fresh_text(sf) == sf.text()
            loaded = SaveFile.load(sf.path).encounter
            assert loaded.state == enc.state and len(loaded.events) == len(enc.events)


def test_the_state_is_written_again_when_the_log_changes(tmp_path: Path) -> None:
    enc = Encounter(make_setup())
    sf = create(tmp_path / "fight.toml", enc)
    first = sf.text()
    assert sf.text() == first
    enc.act("next")
    assert "step = 1" in sf.text() and "step = 0" in first
    enc.undo()
    assert sf.text() == first  # no events: the same state, and the setup's time as the update
    enc.correct("ships.brute.hull", "12")
    assert "hull = 12" in sf.text()


def test_an_empty_log_and_a_whole_block_end_in_one_newline(tmp_path: Path, small_blocks) -> None:
    enc = Encounter(make_setup())
    sf = create(tmp_path / "fight.toml", enc)
    assert sf.text().endswith("\n") and not sf.text().endswith("\n\n")
    while len(enc.events) < 10:
        step(enc, len(enc.events))
    sf.save()
    assert len(enc.events) == 10 and sf.text() == fresh_text(sf)
    assert sf.text().endswith("\n") and not sf.text().endswith("\n\n")
