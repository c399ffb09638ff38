"""Helpers for scripted fights: answer the pending roll by its purpose, with typed dice."""

from __future__ import annotations

from engine.encounter import Encounter
from engine.rolls import RollRequest


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
