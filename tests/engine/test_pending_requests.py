"""A pending roll answered with the request it was written from (issue 13: replay speed).

The encounter keeps each request a rule made beside the plain dict the state holds, and answers the
roll with it instead of reading the dict back. That is only right when reading it back would give
the same request: ``_reads_back`` must say so exactly then, and a replay must end where play did.
"""

from __future__ import annotations

import random

from engine.encounter import Encounter, Event, _reads_back
from engine.rolls import Modifier, RollRequest, Target
from tests.bench.bench_engine import play
from tests.skirmish import make_setup


def same(a: RollRequest, b: RollRequest) -> bool:
    """Equal, and every field of the same type (a 2.0 modifier is not a 2)."""
    fields = ("purpose", "dice", "then", "group", "secret", "context")
    return a == b and all(type(getattr(a, f)) is type(getattr(b, f)) for f in fields) and \
        [(type(m.source), type(m.value)) for m in a.modifiers] == [(type(m.source), type(m.value)) for m in b.modifiers] \
        and type(a.modifiers) is type(b.modifiers) and (a.target is None) == (b.target is None) and \
        (a.target is None or (type(a.target.number), type(a.target.at_most)) == (type(b.target.number),
                                                                                 type(b.target.at_most)))


def test_reads_back_says_so_exactly_when_reading_back_gives_the_same_request() -> None:
    rng = random.Random(2026)
    odd = [2.0, True, "3", 10 ** 7, -4, 0]
    for _ in range(2000):
        mods = tuple(Modifier(rng.choice(["Gun", 7]), rng.choice([2, 1, *odd])) for _ in range(rng.randrange(3)))
        if rng.random() < 0.2:
            mods = list(mods)
        target = rng.choice([None, Target(8), Target(45, True), Target(rng.choice(odd), rng.choice([True, 1]))])
        r = RollRequest(rng.choice(["To hit", 5]), rng.choice(["2D", "1D+1"]), mods, target,
                        rng.choice(["", "hit", 3]), rng.choice([{}, {"ship": "arrow"}]), rng.choice([0, 4, True]),
                        rng.choice([False, True, 1]))
        try:
            back = RollRequest.from_plain(r.to_plain())
        except Exception:  # noqa: BLE001  (a request that cannot be read back must not be kept)
            assert not _reads_back(r)
            continue
        if _reads_back(r):
            assert same(back, r), r


def test_a_replay_ends_where_play_did_and_answers_rolls_alike() -> None:
    live = play(Encounter(make_setup()), 600)
    replayed = Encounter(live.setup, events=copies(live.events))
    assert replayed.state == live.state
    assert [ev.notes for ev in replayed.events] == [ev.notes for ev in live.events]
    assert any(ev.notes for ev in live.events if ev.kind == "roll")
    while live.events and live.events[-1].kind != "roll":
        live.undo()  # a rebuild from a checkpoint: its pending rolls are read back from the state
    assert live.state == Encounter(live.setup, events=copies(live.events)).state


def copies(events: list[Event]) -> list[Event]:
    return [Event(e.kind, e.group, e.at, e.data) for e in events]


def test_a_replay_of_a_played_log_reads_no_request_back(monkeypatch) -> None:
    """Every logged roll names its pending roll as written, and every pending roll is kept with the
    request its rule made: the replay needs no ``RollRequest.from_plain`` at all."""
    live = play(Encounter(make_setup()), 300)
    read_back = []
    real = RollRequest.from_plain.__func__
    monkeypatch.setattr(RollRequest, "from_plain", classmethod(lambda cls, d: read_back.append(d) or real(cls, d)))
    replayed = Encounter(live.setup, events=copies(live.events))
    assert replayed.state == live.state and sum(ev.kind == "roll" for ev in live.events) > 50
    assert read_back == []
