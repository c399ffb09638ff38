"""The energy a turret's use spent, kept on its record (``fire.energy_spent``): corrected, saved, loaded, resumed.

A save-format change: a used turret's record gains an optional ``energy_spent`` (cleared with ``used`` at the next
turn). A save written before it holds none: it opens and replays as it did (the log makes the field again, and a
value the file does not hold is no hand edit), and a [state] an earlier Flagbridge saved reads its used turrets as
that version read them, by the weapons working now. A log that fired on energy the fix no longer frees does not
replay, and is resumed from its [state] (README, "Saves").
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.errors import IllegalAction, LogDoesNotReplay
from engine.resume import resume
from engine.saves import SaveFile, create
from rulesets.classic_hg import fire
from tests.rulesets.classic_hg.duel import answer, duel, ship
from tests.rulesets.classic_hg.test_fire_rules import energy_row, imperial_attack, lasers_spent_then_one_shot_away
from tests.rulesets.scripted import corrected_and_reloaded, refused

KEPT = re.compile(r", energy_spent = [0-9]+")  # how a save's [state] writes the field in a turret's inline table


def as_an_earlier_flagbridge_wrote_it(path: Path) -> None:
    """The save without the field (the version before it kept none)."""
    text = path.read_text()
    assert KEPT.search(text)
    path.write_text(KEPT.sub("", text))


def test_a_turret_s_use_corrected_by_hand_takes_its_spent_energy_with_it(tmp_path: Path) -> None:
    """The Vigilant (600 tons, plant 6: 36 energy points) fires its three beam lasers (1 point each, weapons.toml).
    A game master who corrects that use away gets the points back; one who marks a turret used spends what its
    working weapons use then (the infinite repeater's 2: "use 2 energy points", classic-hg-combat.txt), and that
    stays spent whatever the turret loses later; the figure itself may be corrected, never below 0."""
    enc = duel()
    imperial_attack(enc)
    enc.act("fire", ship="vigilant", turrets=["T1"], target="jackal")
    answer(enc, "To hit: Vigilant T1", "2")
    assert ship(enc, "vigilant")["turrets"][0]["energy_spent"] == 3
    assert energy_row(enc, "vigilant") == "33 of 36 EP free"
    _, enc = corrected_and_reloaded(enc, "ships.vigilant.turrets[0].used", "", tmp_path)
    assert "energy_spent" not in ship(enc, "vigilant")["turrets"][0]
    assert energy_row(enc, "vigilant") == "36 of 36 EP free"
    _, enc = corrected_and_reloaded(enc, "ships.vigilant.turrets[1].used", "defence", tmp_path)
    assert ship(enc, "vigilant")["turrets"][1]["energy_spent"] == 2
    _, enc = corrected_and_reloaded(enc, "ships.vigilant.turrets[1].destroyed", 1, tmp_path)
    _, enc = corrected_and_reloaded(enc, "ships.vigilant.turrets[1].used", "offence", tmp_path)
    assert ship(enc, "vigilant")["turrets"][1]["energy_spent"] == 2  # from one use to the other: still spent
    assert energy_row(enc, "vigilant") == "34 of 36 EP free"
    _, enc = corrected_and_reloaded(enc, "ships.vigilant.turrets[1].energy_spent", 1, tmp_path)
    assert energy_row(enc, "vigilant") == "35 of 36 EP free"
    with pytest.raises(IllegalAction, match=r"turrets\[1\]\.energy_spent must be from 0"):
        enc.correct("ships.vigilant.turrets[1].energy_spent", -1)


def test_a_save_keeps_the_energy_spent_and_plays_on_alike(tmp_path: Path) -> None:
    enc = lasers_spent_then_one_shot_away()
    path = tmp_path / "fight.toml"
    create(path, enc)
    assert "energy_spent = 3" in path.read_text()  # the three lasers' use in step 4, one of them lost since
    loaded = SaveFile.load(path).encounter
    assert loaded.state == enc.state
    assert energy_row(loaded, "jackal") == "1 of 4 EP free"
    refused(loaded, "Jackal T2: needs 2 energy points, 1 left this turn", "fire", ship="jackal", turrets=["T2"],
            target="vigilant")


def test_a_save_written_before_the_energy_was_kept_opens_and_replays_to_it(tmp_path: Path) -> None:
    enc = lasers_spent_then_one_shot_away()
    path = tmp_path / "fight.toml"
    create(path, enc)
    as_an_earlier_flagbridge_wrote_it(path)
    before = path.read_bytes()
    loaded = SaveFile.load(path).encounter
    assert path.read_bytes() == before  # loading never writes
    assert loaded.state == enc.state  # the log spent the energy again as it replayed
    refused(loaded, "Jackal T2: needs 2 energy points, 1 left this turn", "fire", ship="jackal", turrets=["T2"],
            target="vigilant")


def test_an_old_log_that_fired_on_the_freed_energy_does_not_replay_and_resumes_as_it_stood(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Played as the version before the fix read energy (the weapons working now), the Jackal's two lasers fired in
    step 6 on the point its lost laser had spent in step 4. Today's rules refuse that fire: the save says which event
    in one line and is left as it was; resumed, the fight goes on from its [state], whose used turrets keep no
    spent energy and are read as the earlier version read them."""
    monkeypatch.setattr(fire, "energy_spent", lambda turret, tables: fire.energy_need(turret, tables))
    enc = lasers_spent_then_one_shot_away()
    assert energy_row(enc, "jackal") == "2 of 4 EP free"
    enc.act("fire", ship="jackal", turrets=["T2"], target="vigilant")
    answer(enc, "To hit: Jackal T2", "2")
    path = tmp_path / "fight.toml"
    create(path, enc)
    as_an_earlier_flagbridge_wrote_it(path)
    monkeypatch.undo()
    before = path.read_bytes()
    with pytest.raises(LogDoesNotReplay) as caught:
        SaveFile.load(path)
    message = str(caught.value)
    assert "\n" not in message and "the log does not replay" in message
    assert "Jackal T2: needs 2 energy points, 1 left this turn" in message
    assert path.read_bytes() == before
    resume(path)
    resumed = SaveFile.load(path).encounter
    turrets = ship(resumed, "jackal")["turrets"]
    assert [t["used"] for t in turrets] == ["defence", "offence", ""]
    assert all("energy_spent" not in t for t in turrets)
    assert energy_row(resumed, "jackal") == "0 of 4 EP free"  # T1's 2 working lasers and T2's 2, as read then
    while resumed.state["turn"] == 1:
        resumed.act("next")
    assert energy_row(resumed, "jackal") == "4 of 4 EP free"
