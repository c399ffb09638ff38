"""Saves written before the ruleset contract still load and replay to the state they hold.

The files in ``tests/fixtures/pre_contract/`` were written by Flagbridge as it was
before actions were declared in catalogues (random play through the console's
own choices, built-in and typed dice, undos). Loading replays every event
through today's rules and compares the result with the file's ``[state]``: a
value that differs is refused by the loader, so a rule that now reads an old
log differently fails here.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from engine.saves import SaveFile
from engine.state import differences

FIXTURES = sorted((Path(__file__).parents[1] / "fixtures" / "pre_contract").glob("*.toml"))


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_an_old_save_replays_to_the_state_it_holds(path: Path, tmp_path: Path) -> None:
    copy = tmp_path / path.name
    copy.write_bytes(path.read_bytes())
    saved = tomllib.loads(path.read_text())["state"]
    enc = SaveFile.load(copy).encounter
    assert len(enc.events) == len(tomllib.loads(path.read_text())["events"])
    changed = [d for d in differences(enc.state, saved) if d[0][0] != "pending" and str(d[2]) != "(missing)"]
    assert changed == []
    assert copy.read_bytes() == path.read_bytes()  # loading never writes


def test_there_are_old_saves_of_both_shipped_rulesets() -> None:
    assert {p.stem.rsplit("-", 1)[0] for p in FIXTURES} == {"classic-hg", "megatraveller"}
