"""The log told back for a campaign journal (issue 9, "Session flow"): a heading per turn, no bare
``next`` lines, and a summary of what the fight did to every unit."""

from __future__ import annotations

from engine.encounter import Encounter
from engine.recap import by_turn, markdown, summary
from tests.skirmish import SKIRMISH, first_shots, make_setup


def fought() -> Encounter:
    enc = Encounter(make_setup(), SKIRMISH)
    first_shots(enc)
    enc.act("next")
    enc.act("next")  # turn 2 begins
    enc.act("initiative")
    return enc


def test_entries_come_under_the_turn_they_began_in_without_bare_next_lines() -> None:
    turns = by_turn(fought())
    assert [t for t, _ in turns] == ["Turn 1", "Turn 2"]
    assert [e.headline.split(":")[0] for e in turns[0][1]] == ["initiative", "scan", "fire"]
    assert [e.headline for e in turns[1][1]] == ["initiative"]


def test_the_summary_says_what_changed_for_each_unit() -> None:
    assert summary(fought()) == ["Brute: hull 30 -> 26"]
    assert summary(Encounter(make_setup(), SKIRMISH)) == ["nothing has changed since the start"]


def test_markdown_has_a_heading_per_turn_and_the_summary() -> None:
    text = markdown(fought())
    assert "## Turn 1" in text and "## Turn 2" in text and "## Summary\n\n- Brute: hull 30 -> 26" in text
    assert "\nnext" not in text and ". next\n" not in text


# --- the turn under way, without replaying the whole log ---------------------------------------------------

def _turns_by_fresh_replays(enc: Encounter):
    """An independent way to the same answer: each group's turn read from a fresh replay of the log before it,
    and each group's entry as ``entries`` tells it."""
    from engine.encounter import replay
    from engine.recap import _bare_next, entries, period

    events = enc.events
    starts = [i for i in range(len(events)) if i == 0 or events[i].group != events[i - 1].group]
    out: list = []
    for i, entry in zip(starts, entries(enc)):
        when = period(replay(enc.setup, events[:i], SKIRMISH))
        if not out or out[-1][0] != when:
            out.append((when, []))
        out[-1][1].append(entry)
    return [(when, [e for e in items if not _bare_next(e)]) for when, items in out]


def test_this_turn_is_the_last_turn_of_the_whole_log_at_every_point_of_a_long_fight(monkeypatch) -> None:
    """A 600-event skirmish with corrections, its checkpoints every 7 events so the walk back crosses many:
    after every undo the turn under way is ``by_turn``'s last, and ``by_turn`` agrees with fresh replays."""
    from engine import encounter as encounter_module
    from engine.recap import this_turn
    from tests.bench.bench_engine import play

    monkeypatch.setattr(encounter_module, "CHECKPOINT_EVERY", 7)
    enc = play(Encounter(make_setup(), SKIRMISH), 600)
    assert {e.kind for e in enc.events} == {"action", "roll", "correction"}
    checked = 0
    while enc.events:
        whole = by_turn(enc)
        if checked % 40 == 0:
            assert whole == _turns_by_fresh_replays(enc)
        assert this_turn(enc) == whole[-1]
        enc.undo()
        checked += 1
    assert this_turn(enc) is None and checked > 100


def test_this_turn_replays_from_near_the_turns_start_not_from_the_first_event(monkeypatch) -> None:
    from engine.recap import this_turn
    from tests.bench.bench_engine import play

    enc = play(Encounter(make_setup(), SKIRMISH), 3000)
    applied = []
    real = enc._apply
    monkeypatch.setattr(enc, "_apply", lambda *a, **k: (applied.append(1), real(*a, **k)))
    turn = this_turn(enc)
    monkeypatch.undo()
    assert turn == by_turn(enc)[-1]
    assert 0 < len(applied) < 400  # the stretches walked back, then the turn itself: never the 3,000 events


def test_the_summary_names_a_weapon_or_tube_lost_but_not_a_turret_used_this_turn() -> None:
    """Found by a game master's drive: the Ship status showed "T4 sandcaster x3 (2 lost)" and "Tube 1 destroyed"
    but the recap said nothing of them (only a ship's own plain values were compared, not its turrets')."""
    from pathlib import Path

    from engine.saves import SaveFile

    enc = SaveFile.load(Path(__file__).resolve().parents[2] / "saves" / "demo-classic-hg.toml").encounter
    ship = next(sid for sid, s in enc.state["ships"].items() if s["tubes"])
    enc.correct(f"ships.{ship}.turrets[2].destroyed", 2)
    enc.correct(f"ships.{ship}.tubes[0].destroyed", True)
    enc.correct(f"ships.{ship}.turrets[0].used", "offence")
    name = enc.state["ships"][ship]["name"]
    turret, tube = enc.state["ships"][ship]["turrets"][-1]["id"], enc.state["ships"][ship]["tubes"][0]["id"]
    lines = summary(enc)
    assert lines == [f"{name}: turrets {turret} destroyed 0 -> 2, tubes {tube} destroyed no -> yes"], lines


def test_the_summary_words_an_empty_text_as_the_log_does() -> None:
    """A drive read "out '' -> fled" in the recap: a text that was empty is said "(empty)", as the log says a
    corrected value (``value_text``), not in Python's quotes; the text it became reads as it is."""
    from pathlib import Path

    from engine.saves import SaveFile

    enc = SaveFile.load(Path(__file__).resolve().parents[2] / "saves" / "demo-classic-hg.toml").encounter
    ship = next(iter(enc.state["ships"]))
    assert enc.state["ships"][ship]["out"] == ""
    enc.correct(f"ships.{ship}.out", "fled")
    name = enc.state["ships"][ship]["name"]
    lines = [line for line in summary(enc) if line.startswith(f"{name}:")]
    assert lines == [f"{name}: out (empty) -> fled"], lines
