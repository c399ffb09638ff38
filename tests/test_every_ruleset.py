"""What must hold in every registered ruleset, played as the console offers it.

DESIGN.md "Rulesets: one contract": the console offers exactly what ``may``
allows, and the rules accept it; the event log is the only way state changes,
so a replay equals the live state, undoing everything returns to the setup, and
a save loads to the same fight.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.encounter import Encounter, replay
from engine.ruleset import available, find_ruleset
from engine.saves import SaveFile
from engine.state import plain_copy
from tests.console_play import play
from tests.skirmish import make_setup

SHIPPED = [rid for rid in available() if not rid.startswith("test-")]
SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                           HealthCheck.function_scoped_fixture])


def fight(ruleset_id: str, tmp_path: Path) -> SaveFile:
    """A fresh copy of the ruleset's demo (the test ruleset's duel for the test ruleset)."""
    if ruleset_id == "test-skirmish":
        from engine.saves import create

        return create(tmp_path / "skirmish.toml", Encounter(make_setup()))
    demo = find_ruleset(ruleset_id).demo_save()
    copy = tmp_path / demo.name
    copy.write_bytes(demo.read_bytes())
    return SaveFile.load(copy)


def test_both_shipped_rulesets_are_registered() -> None:
    assert {"classic-hg", "megatraveller"} <= set(SHIPPED)


@pytest.mark.parametrize("ruleset_id", SHIPPED + ["test-skirmish"])
@SETTINGS
@given(seed=st.integers(0, 2**31))
def test_console_offers_are_accepted_and_the_log_makes_the_state(ruleset_id: str, seed: int, tmp_path: Path) -> None:
    save = fight(ruleset_id, tmp_path)
    enc = save.encounter
    start = plain_copy(enc.state)
    rng = random.Random(seed)
    play(enc, rng, 120)
    # replaying the log gives the live state
    assert replay(enc.setup, enc.events, enc.ruleset) == enc.state
    # a save loads to the same fight
    save.save()
    assert SaveFile.load(save.path).encounter.state == enc.state
    # undoing everything returns to the setup's state
    while enc.undo():
        pass
    assert enc.state == start


@pytest.mark.parametrize("ruleset_id", SHIPPED)
def test_a_long_fight_never_offers_what_it_refuses(ruleset_id: str, tmp_path: Path) -> None:
    for seed in range(3):
        folder = tmp_path / str(seed)
        folder.mkdir()
        enc = fight(ruleset_id, folder).encounter
        taken = play(enc, random.Random(seed), 400, undo_rate=0.02)
        assert taken > 20
