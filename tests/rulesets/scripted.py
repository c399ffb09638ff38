"""Helpers for scripted fights: answer the pending roll by its purpose, with typed dice."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Sequence

from engine.encounter import Encounter
from engine.rolls import RollRequest
from engine.saves import SaveFile, create


def answer(enc: Encounter, purpose: str, typed: str, target: str | None = None) -> RollRequest:
    """Type ``typed`` for the pending roll, after checking it is the expected one."""
    req = enc.pending
    assert req is not None, f"no roll pending; expected {purpose!r}"
    assert purpose in req.purpose, f"pending roll is {req.purpose!r}, expected {purpose!r}"
    if target is not None:
        assert str(req.target) == target, f"{req.purpose}: target {req.target}, expected {target}"
    enc.type_roll(typed)
    return req


def mods(enc: Encounter) -> dict[str, int]:
    """The pending roll's modifiers by source."""
    return {m.source: m.value for m in enc.pending.modifiers}


def saved_and_continued(new: Callable[[], Encounter], script: Sequence[Callable[[Encounter], None]],
                        split: int, folder: Path) -> None:
    """Play a script whole, and again saved after ``split`` steps, loaded and finished: both end alike."""
    whole = new()
    for step in script:
        step(whole)
    first = new()
    path = folder / "fight.toml"
    create(path, first).autosave()
    for step in script[:split]:
        step(first)
    again = SaveFile.load(path, ruleset=first.ruleset).encounter
    assert again.state == first.state
    for step in script[split:]:
        step(again)
    assert again.state == whole.state


def corrected_and_reloaded(enc: Encounter, path: str, value, folder: Path):
    """Correct ``path`` to ``value`` as typed (``Encounter.correct``), then read the log again two ways: replayed
    from the setup, and saved and loaded (the loader replays the log and holds [state] to it). Both give the state
    the typed correction left and say the same of what followed. Answers the correction's event and the loaded
    encounter."""
    from engine.encounter import replay

    event = enc.correct(path, value)
    assert replay(enc.setup, enc.events, enc.ruleset) == enc.state
    save = folder / "corrected.toml"
    create(save, enc)
    loaded = SaveFile.load(save).encounter
    assert loaded.state == enc.state
    assert loaded.events[-1].notes == event.notes
    return event, loaded


def refused(enc: Encounter, match: str, name: str, **args) -> None:
    """The action is refused with ``match`` (by the rule's own ``may``), and records nothing."""
    import copy

    import pytest

    from engine.errors import IllegalAction

    events, state = len(enc.events), copy.deepcopy(enc.state)
    with pytest.raises(IllegalAction, match=match):
        enc.act(name, **args)
    assert len(enc.events) == events and enc.state == state
