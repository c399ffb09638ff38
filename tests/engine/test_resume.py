"""A fight whose log no longer replays is carried on from its saved state (``engine.resume``, ``flagbridge
resume``).

Found by a game master's drive: a rules fix landed between two game nights (a surprised ship's evasion no longer
counted), the fight saved the night before stopped opening ("the log does not replay: ... its modifiers differ"),
and check, forecast and keep-edits all failed on it, so nothing could recover the fight. DESIGN.md "Saves": a file
that fails to load is never changed; the game master resumes it deliberately, and the file as it was is kept.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.encounter import resumed_state
from engine.errors import BadSave, FlagbridgeError, LogDoesNotReplay, StateBeyondLog
from engine.resume import resume
from engine.saves import SaveFile, create
from engine.state import plain_copy
from tests.skirmish import played_duel

#: the to-hit roll's logged modifiers, as a rules change would leave them: no longer what the rules ask
LOGGED_GUN = 'modifiers = [\n    { source = "Gun", value = 2 },\n]\n'


@pytest.fixture
def stale(tmp_path: Path) -> tuple[Path, dict]:
    """A saved duel whose log a rules change has made stale, and the state it was saved at."""
    path = tmp_path / "duel.toml"
    create(path, played_duel("4 5"))
    state = plain_copy(SaveFile.load(path).encounter.state)
    text = path.read_text()
    assert text.count(LOGGED_GUN) == 1
    path.write_text(text.replace(LOGGED_GUN, 'modifiers = [\n    { source = "Gun", value = 3 },\n]\n'))
    return path, state


def test_a_log_that_no_longer_replays_resumes_from_the_saved_state(stale) -> None:
    path, state = stale
    with pytest.raises(LogDoesNotReplay):
        SaveFile.load(path)
    before = path.read_bytes()
    kept, events, why = resume(path)
    assert kept == path.with_name("duel.before-resume.toml") and kept.read_bytes() == before  # kept whole
    assert events == 9 and "events[7]" in str(why) and "does not answer the pending roll" in str(why)
    save = SaveFile.load(path)
    enc = save.encounter
    assert enc.state == state and enc.events == [] and not enc.can_undo  # undo stops where it resumed
    assert "[setup.start" in path.read_text()
    # play goes on, is saved, and opens again the same; an undo comes back to the resumed state
    enc.correct("ships.brute.hull", "20", note="repairs")
    save.save()
    again = SaveFile.load(path).encounter
    assert again.state["ships"]["brute"]["hull"] == 20 and len(again.events) == 1
    again.undo()
    assert again.state == state


def test_a_second_resume_keeps_the_first_copy(stale) -> None:
    path, _ = stale
    resume(path)
    first = path.with_name("duel.before-resume.toml").read_bytes()
    text = path.read_text()
    path.write_text(text.replace("[setup.start", "[setup.start", 1))  # the same file: it opens, nothing to do
    with pytest.raises(BadSave, match="opens as it is: nothing to resume"):
        resume(path)
    assert path.with_name("duel.before-resume.toml").read_bytes() == first
    assert not path.with_name("duel.before-resume-2.toml").exists()


def test_a_save_that_opens_or_fails_otherwise_is_not_resumed(tmp_path: Path) -> None:
    path = tmp_path / "duel.toml"
    create(path, played_duel("4 5"))
    before = path.read_bytes()
    with pytest.raises(BadSave, match="opens as it is: nothing to resume"):
        resume(path)
    broken = tmp_path / "broken.toml"
    broken.write_text(path.read_text().replace("[flagbridge]", "[flagbridge", 1))
    with pytest.raises(BadSave) as info:
        resume(broken)
    assert not isinstance(info.value, LogDoesNotReplay)
    assert path.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["broken.toml", "duel.toml"]


def test_the_saved_state_gains_what_today_s_rules_keep_and_keeps_what_it_has() -> None:
    fresh = {"turn": 1, "pending": [], "new_pool": 3, "ships": {"a": {"hull": 9, "shield": 2}, "b": {"hull": 9}}}
    saved = {"turn": 4, "pending": [], "ships": {"a": {"hull": 3}}}  # b is gone (spent): it stays gone
    state = resumed_state(saved, fresh, ("ships",))
    assert state == {"turn": 4, "pending": [], "new_pool": 3, "ships": {"a": {"hull": 3, "shield": 2}}}
    with pytest.raises(FlagbridgeError, match="setup.start.turn: expected int, got str"):
        resumed_state({**saved, "turn": "four"}, fresh, ("ships",))
    with pytest.raises(FlagbridgeError, match=r"setup.start.pending\[0\]: not a roll"):
        resumed_state({**saved, "pending": [{"dice": 3}]}, fresh, ("ships",))


def test_the_command_line_resumes_and_says_where_the_old_file_is(stale, capsys) -> None:
    from tui.cli import main

    path, state = stale
    assert main(["check", str(path)]) == 2
    assert main(["resume", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"ok: {path} resumes from its saved state (its log of 9 event(s) stopped replaying")
    assert "duel.before-resume.toml" in out
    assert main(["check", str(path)]) == 0
    assert main(["resume", str(path)]) == 2  # nothing to do now: said, and nothing written
    assert SaveFile.load(path).encounter.state == state


def test_a_saved_state_that_cannot_be_played_on_is_refused_in_one_line(stale, tmp_path: Path) -> None:
    """Found by a review: a [state] edited by hand (a number written as text) was resumed, then crashed the console
    and ``watch``. Each value is checked as a correction of it would be, and what the console reads is tried."""
    path, _ = stale
    text = path.read_text()
    for old, new, why in (("hull = 26", 'hull = "26"', "setup.start.ships.brute.hull: expected int"),
                          ("step = ", "step = 99 #", r"setup.start: the console cannot show it")):
        bad = tmp_path / f"bad-{len(why)}.toml"
        assert old in text
        bad.write_text(text.replace(old, new, 1))
        before = bad.read_bytes()
        with pytest.raises(BadSave, match=why) as info:
            resume(bad)
        assert "\n" not in str(info.value) and bad.read_bytes() == before
        assert not bad.with_name(f"{bad.stem}.before-resume.toml").exists()


def test_a_resume_keeps_the_game_master_s_comments_and_takes_a_new_seed(stale) -> None:
    path, _ = stale
    text = path.read_text()
    assert "\n[[setup.sides]]\n" in text and "\n[flagbridge]\n" in text
    path.write_text(text.replace("\n[[setup.sides]]\n", "\n# night 3: the brute limps home\n[[setup.sides]]\n", 1)
                    .replace("\n[flagbridge]\n", "\n# campaign: the Rim\n[flagbridge]\n", 1))
    resume(path)
    after = path.read_text()
    assert "# campaign: the Rim" in after and "# night 3: the brute limps home" in after
    seed = SaveFile.load(path).encounter.setup.seed
    assert f"seed = {seed}" in after and seed != 0


def test_a_hand_edit_of_the_resumed_start_is_the_fight_s_start(stale) -> None:
    """An edit of [setup.start] is an edit of where the fight resumes: it stands, with no hand edit of [state] to
    keep (found by a review: keep-edits recorded the old [state] value back over it)."""
    path, _ = stale
    resume(path)
    text = path.read_text()
    head, _, start = text.partition("[setup.start")
    assert start.index("hull = 26") < start.index("\n[state")  # the first is the start's
    path.write_text(head + "[setup.start" + start.replace("hull = 26", "hull = 10", 1))
    assert SaveFile.load(path).encounter.state["ships"]["brute"]["hull"] == 10


def test_the_copy_of_the_latest_resume_is_where_the_earlier_log_is(stale) -> None:
    """A resumed fight's log starts at the resume point; the console points to the copy ``resume`` kept."""
    import os

    from engine.resume import earlier_log

    path, _ = stale
    assert earlier_log(path) is None  # never resumed
    path.with_name("duel.before-resumex.toml").write_text("")  # not a name resume gives
    path.with_name("other.before-resume.toml").write_text("")  # another save's copy
    kept, _, _ = resume(path)
    assert earlier_log(path) == kept
    later = path.with_name("duel.before-resume-2.toml")  # as a second resume names its copy, made later
    later.write_text("")
    os.utime(later, (kept.stat().st_mtime + 60,) * 2)
    assert earlier_log(path) == later
    os.utime(later, (kept.stat().st_mtime,) * 2)  # the same time: the higher number is the later copy
    assert earlier_log(path) == later


def test_a_resumed_fight_is_updated_when_it_was_resumed_until_it_is_played_on(stale) -> None:
    """The header's ``updated`` of a resumed fight is the time of the resume, not the setup's creation (the
    empty log has no last event to give it), and again a later event's once one is played."""
    from datetime import datetime, timezone

    from engine.reading import parse_toml

    path, _ = stale
    created = parse_toml(path.read_text())["flagbridge"]["created"]
    before = datetime.now(timezone.utc).replace(microsecond=0)
    resume(path)
    updated = parse_toml(path.read_text())["flagbridge"]["updated"]
    assert updated >= before > created
    save = SaveFile.load(path)
    save.save()  # an autosave with nothing played keeps it
    assert parse_toml(path.read_text())["flagbridge"]["updated"] == updated
    ev = save.encounter.correct("ships.brute.hull", "20", note="repairs")
    save.save()
    assert parse_toml(path.read_text())["flagbridge"]["updated"] == ev.at.replace(microsecond=0)


def cut_short(path: Path, events_lost: int) -> None:
    """The save with its last ``events_lost`` log entries gone and its [state] as it was: a file cut short."""
    text = path.read_text()
    starts = [i for i in range(len(text)) if text.startswith("\n[[events]]\n", i)]
    path.write_text(text[: starts[-events_lost] + 1])


def test_a_state_beyond_its_log_is_not_sent_to_keep_edits_and_resumes(tmp_path: Path) -> None:
    """Found by a game master's drive: a save cut after its [state] (the log's last events lost) said "open with
    --keep-edits to record the edit as a correction", and keep-edits then failed: "state.attacks[1].radiation_crew
    was added by hand; only existing values can be corrected". A [state] holding values the log never made says
    what is wrong and the two ways that work: resume from the [state], or open without it as the log has it."""
    path = tmp_path / "duel.toml"
    create(path, played_duel("4 5"))
    state = plain_copy(SaveFile.load(path).encounter.state)
    cut_short(path, 4)  # from the scan that locked Brute on
    before = path.read_bytes()
    for keep_edits in (False, True):
        with pytest.raises(StateBeyondLog) as info:
            SaveFile.load(path, keep_edits=keep_edits)
        said = str(info.value)
        assert said == (f"{path}: state.knowledge.blue is (brute = locked) in the file but the log never made "
                        f"it (and 1 more): the log may have lost events; flagbridge resume {path} carries the fight "
                        "on from [state] (keeping the file as it is beside it), or taking [state] out opens the "
                        "fight as its log has it")
        assert path.read_bytes() == before
    no_state = tmp_path / "no-state.toml"
    text = path.read_text()
    no_state.write_text(text[: text.index("\n[state]\n") + 1] + text[text.index("\n[[events]]\n") + 1:])
    assert len(SaveFile.load(no_state).encounter.events) == 5  # as its log has it
    kept, events, why = resume(path)
    assert kept.read_bytes() == before and events == 5 and isinstance(why, StateBeyondLog)
    assert SaveFile.load(path).encounter.state == state


def test_a_hand_edit_of_a_value_the_log_has_is_not_resumed(tmp_path: Path) -> None:
    """resume is for a log that cannot be played on; a changed value the log has is keep-edits's."""
    path = tmp_path / "edited.toml"
    create(path, played_duel("4 5"))
    path.write_text(path.read_text().replace("hull = 26", "hull = 20", 1))
    before = path.read_bytes()
    with pytest.raises(BadSave, match="open with --keep-edits") as info:
        resume(path)
    assert not isinstance(info.value, StateBeyondLog) and path.read_bytes() == before


def test_a_resume_whose_written_file_would_not_open_leaves_the_file_as_it_was(stale, monkeypatch) -> None:
    """``resume`` writes the resumed fight, then opens it; if that fails (a fuzz found a header it rewrote into a
    file no TOML reader opens, session 29), the refusal used to leave the file rewritten. The file as it was is
    put back, and the copy made for the resume is not left beside it."""
    import engine.resume

    path, _ = stale
    before = path.read_bytes()
    real_load = SaveFile.load
    calls = []

    def load(p, *a, **k):
        calls.append(p)
        if len(calls) == 2:  # the check of the file just written
            raise BadSave(f"{p}: not valid TOML: duplicate key")
        return real_load(p, *a, **k)

    monkeypatch.setattr(engine.resume.SaveFile, "load", load)
    with pytest.raises(BadSave, match="the resumed fight would not open") as info:
        resume(path)
    assert "\n" not in str(info.value) and path.read_bytes() == before
    assert not path.with_name(f"{path.stem}.before-resume.toml").exists()
