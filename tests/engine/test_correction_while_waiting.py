"""A correction made while a roll waits changes that roll, as if it had been made before the action.

Found by a drive: in the percentile demo Keller's aim was corrected from 60 to 90 while his percent to hit waited,
and the roll was still asked, and resolved, at MARKSmanship 60. The correction now goes in the log before the
action whose rolls wait; the action and the rolls already answered in its group are played again after it, each
roll keeping its dice and answering the request the rules make now. Where that cannot be (an answered roll no
longer fits, the rules refuse the action, no roll would wait), the correction is recorded as before, joining the
action's group, and ``Encounter.waiting_roll_note`` says why in one line. A correction that changes none of the
group's rolls moves nothing.

Every roll is typed; each case is checked against the same fight with the correction made before the action.
"""

from __future__ import annotations

import copy
import dataclasses
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

from engine.encounter import Encounter, replay
from engine.saves import SaveFile, create
from engine.state import plain_copy
from tests.rulesets.scripted import mods

# --- what every placed correction must do ------------------------------------------------------------------------


def group_start(enc: Encounter) -> int:
    """Where the group of the rolls waiting begins in the log (its action)."""
    k = len(enc.events)
    while k and enc.events[k - 1].group == enc.pending.group:
        k -= 1
    return k


def placed(enc: Encounter, path: str, value, tmp_path: Path,
           note: str = "The waiting roll will be asked with the new value") -> None:
    """Correct ``path`` while a roll waits and check the correction is placed before the action, the form's line
    (``waiting_roll_note``) beginning with ``note``: the log before it is untouched, a replay from the setup and a
    save loaded give the same fight with the correction in its place,
    undo takes back the correction alone (the log, the state and the waiting roll as they were before it, also in
    the loaded fight), and redo puts it back. Leaves the correction placed."""
    before_events, before_state = list(enc.events), copy.deepcopy(enc.state)
    before_pending = enc.pending
    first = group_start(enc)
    assert enc.waiting_roll_note(path, value).startswith(note), enc.waiting_roll_note(path, value)
    ev = enc.correct(path, value)
    assert enc.events[:first] == before_events[:first]
    assert enc.events[first] is ev and enc.events[first + 1].kind == "action"
    assert ev.group == before_events[first].group and enc.events[first + 1].group == ev.group + 1
    assert "placed before the action whose roll waited: the action and its rolls now read the new value" \
        in enc.describe(ev)
    assert len(enc.events) == len(before_events) + 1
    after_events, after_state, after_pending = list(enc.events), copy.deepcopy(enc.state), enc.pending
    assert replay(enc.setup, enc.events, enc.ruleset) == enc.state

    save = tmp_path / "placed.toml"
    create(save, enc)
    loaded = SaveFile.load(save).encounter  # the file's order is the order it replays in
    assert [(e.kind, e.group) for e in loaded.events] == [(e.kind, e.group) for e in enc.events]
    assert loaded.events[first].data["path"] == ev.data["path"] and loaded.state == enc.state
    assert loaded.pending == enc.pending and loaded.describe(loaded.events[first]) == enc.describe(ev)
    assert loaded.undo()[0].data["path"] == ev.data["path"]  # undone alone there too: the file keeps the mark
    assert loaded.state == before_state and loaded.pending == before_pending

    assert enc.undo() == [ev]
    assert enc.events == before_events and enc.state == before_state and enc.pending == before_pending
    assert enc.redo() == [ev]
    assert enc.events == after_events and enc.state == after_state and enc.pending == after_pending


def as_if_before(make: Callable[[], Encounter], before: Callable[[Encounter], None], path: str, value,
                 after: Callable[[Encounter], None]) -> Encounter:
    """The same fight with the correction made before the action (``after`` takes the action and rolls)."""
    enc = make()
    before(enc)
    enc.correct(path, value)
    after(enc)
    return enc


def kept_back(enc: Encounter, path: str, value, why: str) -> None:
    """The correction cannot reach the waiting roll: it is recorded as before (joining the action's group, undone
    with it), the waiting roll keeps its numbers, and the note says why in one line."""
    waiting, group = enc.pending, enc.pending.group
    note = enc.waiting_roll_note(path, value)
    assert note.startswith("The waiting roll keeps the numbers it was asked with (") and why in note, note
    assert note.endswith("; undo the action to ask it again") and "\n" not in note
    ev = enc.correct(path, value)
    assert enc.events[-1] is ev and ev.group == group and enc.pending == waiting
    assert "now reads" not in enc.describe(ev)


# --- percentile: MARKSmanship = (AIM + WEP DIF) / 2 ---------------------------------------------------------------
# percentile-personal-combat.txt, "Percent to Hit": "MARKSmanship = ( AIM + WEP DIF ) / 2"; procedure (1): "If the
# player rolls l:100sd and the result is under their MARKSmanship then the attack hits". The auto pistol's WEP DIF
# is 55 (tests/rulesets/percentile/test_to_hit.py).

from tests.rulesets.percentile.fights import answer as p_answer, fight, person, to_action  # noqa: E402


def ann_fight(**options) -> Encounter:
    return fight({"ann": person("blue", "Ann", aim=65), "ben": person("blue", "Ben"), "cid": person("red", "Cid")},
                 **options)


def ann_fires(enc: Encounter) -> None:
    enc.act("attack", person="ann", weapon="auto_pistol", target="cid", range=8, aim="chest")


def test_percentile_aim_corrected_while_the_percent_to_hit_waits(tmp_path: Path) -> None:
    """The drive: aim 65 gives MARKSmanship (65 + 55) / 2 = 60, a roll under 60 (59-); aim 85 gives 70 (69-)."""
    enc = ann_fight()
    to_action(enc)
    ann_fires(enc)
    assert "MARKSmanship 60" in enc.pending.purpose and str(enc.pending.target) == "59-"
    placed(enc, "people.ann.aim", "85", tmp_path)
    assert "MARKSmanship 70" in enc.pending.purpose and str(enc.pending.target) == "69-"
    p_answer(enc, "Percent to hit", "65", target="69-")  # under 70: a hit, 5 under (a random hit)
    p_answer(enc, "Random hit location on Cid", "30")
    ref = as_if_before(ann_fight, to_action, "people.ann.aim", "85",
                       lambda e: (ann_fires(e), e.type_roll("65"), e.type_roll("30")))
    assert enc.state == ref.state


def test_percentile_a_roll_already_answered_keeps_its_dice_and_takes_the_new_numbers(tmp_path: Path) -> None:
    """50 against MARKSmanship 60 is 10 under: "20 or less under" is a random hit, so the location roll waits.
    Aim 75 makes it 65: 50 is 15 under, still a random hit; the answered roll keeps its 50 and reads 64-."""
    enc = ann_fight()
    to_action(enc)
    ann_fires(enc)
    p_answer(enc, "Percent to hit", "50", target="59-")
    assert enc.pending.context["under"] == 10
    placed(enc, "people.ann.aim", "75", tmp_path)
    hit = enc.events[group_start(enc) + 1]
    assert hit.kind == "roll" and hit.data["natural"] == 50 and hit.data["target"] == "64-"
    assert (enc.pending.context["value"], enc.pending.context["under"]) == (65, 15)
    p_answer(enc, "Random hit location on Cid", "30")
    ref = as_if_before(ann_fight, to_action, "people.ann.aim", "75",
                       lambda e: (ann_fires(e), e.type_roll("50"), e.type_roll("30")))
    assert enc.state == ref.state


def test_percentile_a_correction_that_changes_no_roll_moves_nothing() -> None:
    """Ben's aim is not read by Ann's shot: the correction is recorded after it as before, and undone with it."""
    enc = ann_fight()
    to_action(enc)
    ann_fires(enc)
    waiting, events = enc.pending, list(enc.events)
    assert enc.waiting_roll_note("people.ben.aim", "90") == ""
    ev = enc.correct("people.ben.aim", "90")
    assert enc.events == events + [ev] and ev.group == waiting.group and enc.pending == waiting
    assert "now reads" not in enc.describe(ev)
    assert [e.kind for e in enc.undo()] == ["action", "correction"]


def test_percentile_kept_back_when_no_roll_would_wait() -> None:
    """Aim 95 makes MARKSmanship 75: the answered 50 is 25 under, "more than 20 under ... a direct hit", which asks
    no location: the waiting location roll would be gone, so the correction cannot reach it."""
    enc = ann_fight()
    to_action(enc)
    ann_fires(enc)
    p_answer(enc, "Percent to hit", "50")
    kept_back(enc, "people.ann.aim", "95", "with the new value the action would ask no more rolls")
    assert enc.state["people"]["ann"]["aim"] == 95


def test_percentile_a_correction_that_asks_another_roll_names_it(tmp_path: Path) -> None:
    """Damage procedure 2: 50 against MARKSmanship 60 is 10 under, a random hit, so the location roll waits. Aim 95
    makes it 75: 50 is 25 under, "more than 20 under ... a direct hit" on the chest aimed at, and procedure 2 rolls the
    weapon's damage dice at once. The note names that roll in place of the location roll (it said the location roll
    would be asked with the new value); the correction is placed, undone alone and redone as any other."""
    enc = ann_fight(damage=2)
    to_action(enc)
    ann_fires(enc)
    p_answer(enc, "Percent to hit", "50")
    assert enc.pending.purpose.startswith("Random hit location on Cid")
    note = enc.waiting_roll_note("people.ann.aim", "95")
    assert note == ("With the new value the rules ask another roll: Damage: auto pistol 4+2 (4:10sd+2) in place of "
                    "Random hit location on Cid (Table 3-3.4); logged before its action"), note
    placed(enc, "people.ann.aim", "95", tmp_path, note="With the new value the rules ask another roll: Damage")
    assert enc.pending.purpose == "Damage: auto pistol 4+2"
    said = enc.describe(enc.undo()[0], undone=True)
    assert said.endswith("taken back from before the action whose roll waits: the action and its rolls read the old "
                         "value again")
    assert enc.pending.purpose.startswith("Random hit location on Cid")
    enc.redo()
    p_answer(enc, "Damage: auto pistol", "12")
    ref = as_if_before(lambda: ann_fight(damage=2), to_action, "people.ann.aim", "95",
                       lambda e: (ann_fires(e), e.type_roll("50"), e.type_roll("12")))
    assert enc.state == ref.state and not enc.pending


def test_percentile_kept_back_when_an_answered_roll_no_longer_fits() -> None:
    """Damage procedure 2 rolls the weapon's damage dice after the location: with aim 95 the answered 50 is a direct
    hit, and the rules ask the damage dice where the location roll (1:100sd) was answered."""
    enc = ann_fight(damage=2)
    to_action(enc)
    ann_fires(enc)
    p_answer(enc, "Percent to hit", "50")
    p_answer(enc, "Random hit location on Cid", "30")
    assert enc.pending.purpose.startswith("Damage: auto pistol")
    kept_back(enc, "people.ann.aim", "95", "the rules now ask Damage: auto pistol")


def test_percentile_kept_back_when_the_rules_refuse_the_action() -> None:
    """Cid moved to Ann's side: "Cid is on Ann's own side", so the attack could not have been made."""
    enc = ann_fight()
    to_action(enc)
    ann_fires(enc)
    kept_back(enc, "people.cid.side", "blue", "the rules refuse the action: Cid is on Ann's own side")


def test_kept_back_when_the_action_sets_the_value_itself() -> None:
    """tests/overcharge.py: overcharging raises the Arrow's gun from 2 to 3, and the to-hit waits at Gun +3. The
    game master corrects the gun to 5, the value he sees after the action; placed before it, the overcharge would
    make it 6, which is not what he typed. So it joins the action's group: the gun reads 5, the roll keeps +3, and
    undo takes both back."""
    from tests.overcharge import arrow_overcharged

    enc = arrow_overcharged()
    assert mods(enc) == {"Gun": 3}
    kept_back(enc, "ships.arrow.gun", "5",
              "the action sets ships.arrow.gun itself: placed before it, it would read 6 after it")
    assert enc.state["ships"]["arrow"]["gun"] == 5 and mods(enc) == {"Gun": 3}
    assert [e.kind for e in enc.undo()] == ["action", "correction"]
    assert enc.state["ships"]["arrow"]["gun"] == 2 and enc.pending is None


def test_kept_back_when_a_correction_made_meanwhile_sets_the_value_says_so() -> None:
    """Aim 95 while the location roll waits would leave no roll (a direct hit): it joins the action's group. Aim 75
    then, placed before the action, would be set to 95 again by that correction, not by the attack: the note named
    the action ("the action sets people.ann.aim itself"), which sets no aim."""
    enc = ann_fight()
    to_action(enc)
    ann_fires(enc)
    p_answer(enc, "Percent to hit", "50")
    enc.correct("people.ann.aim", "95")
    kept_back(enc, "people.ann.aim", "75", "a correction made while the roll waited sets people.ann.aim after the "
                                           "action: placed before it, it would read 95 after it")
    assert enc.state["people"]["ann"]["aim"] == 75


def test_percentile_a_fight_resumed_with_the_roll_waiting_keeps_it() -> None:
    """A fight carried on from its saved state (``flagbridge resume``) with the roll waiting has no action in its
    log to place the correction before: recorded as before, and the note says why."""
    enc = ann_fight()
    to_action(enc)
    ann_fires(enc)
    resumed = Encounter(dataclasses.replace(enc.setup, start=plain_copy(enc.state)), enc.ruleset)
    waiting = resumed.pending
    note = resumed.waiting_roll_note("people.ann.aim", "85")
    assert note == ("The waiting roll keeps the numbers it was asked with: the fight was resumed with it waiting, "
                    "and the action that asked it is not in the log")
    ev = resumed.correct("people.ann.aim", "85")
    assert resumed.events == [ev] and resumed.pending == waiting


def test_percentile_once_the_waiting_roll_is_answered_undo_takes_the_action_first() -> None:
    """As if the correction had come first: the action and its rolls are undone, then the correction; and an action
    taken after the action was undone is undone by itself, not mistaken for the one the correction was placed
    before."""
    enc = ann_fight()
    to_action(enc)
    ann_fires(enc)
    ev = enc.correct("people.ann.aim", "85")
    enc.type_roll("80")  # a miss at 70
    assert [e.kind for e in enc.undo()] == ["action", "roll"]
    assert enc.events[-1] is ev
    ann_fires(enc)
    assert [e.kind for e in enc.undo()] == ["action"]
    assert enc.undo() == [ev] and enc.state["people"]["ann"]["aim"] == 65


def test_percentile_two_corrections_while_the_roll_waits_undo_one_at_a_time() -> None:
    enc = ann_fight()
    to_action(enc)
    ann_fires(enc)
    aim = enc.correct("people.ann.aim", "85")
    dif = enc.correct("people.ann.aim", "75")
    assert [e.kind for e in enc.events[-3:]] == ["correction", "correction", "action"]
    assert str(enc.pending.target) == "64-"
    assert enc.undo() == [dif] and str(enc.pending.target) == "69-"
    assert enc.undo() == [aim] and str(enc.pending.target) == "59-"


def test_the_fight_was_last_changed_when_the_correction_was_made() -> None:
    """The save's ``updated`` time is the last change: the placed correction's, though the action follows it."""
    enc = ann_fight()
    to_action(enc)
    ann_fires(enc)
    enc.events[-1].at = datetime(2026, 12, 1, 20, 0, tzinfo=timezone.utc)  # the shot, taken a while ago
    ev = enc.correct("people.ann.aim", "85")
    assert enc.events[-1].at == datetime(2026, 12, 1, 20, 0, tzinfo=timezone.utc)
    assert ev.at > enc.events[-1].at and enc.updated == ev.at


def test_percentile_autosave_holds_the_placed_correction(tmp_path: Path) -> None:
    """The console autosaves after every event: the file then replays the correction in its place."""
    enc = ann_fight()
    to_action(enc)
    save = create(tmp_path / "auto.toml", enc)
    save.autosave()
    ann_fires(enc)
    save.autosave()
    enc.correct("people.ann.aim", "85")
    save.autosave()
    loaded = SaveFile.load(tmp_path / "auto.toml").encounter
    assert loaded.state == enc.state and str(loaded.pending.target) == "69-"
    enc.undo()
    save.autosave()
    assert str(SaveFile.load(tmp_path / "auto.toml").encounter.pending.target) == "59-"


# --- classic-hg: the gunner's expertise ---------------------------------------------------------------------------
# classic-hg-combat.txt, line 41: "The gunners for each weapon station then roll 2D, adding the appropriate DM's for
# expertise": a turret's gunner_skill is its Gunnery DM.

from tests.rulesets.classic_hg.duel import duel, initiative  # noqa: E402


def classic_fire(enc: Encounter) -> None:
    enc.act("fire", ship="vigilant", turrets=["T1", "T4"], target="jackal")


def test_classic_gunnery_corrected_while_the_to_hit_waits(tmp_path: Path) -> None:
    """T1 answered (+1 Gunnery), T4 waiting (+2): T4's gunner corrected to 3 gives +3; T1's roll is as it was."""
    enc = duel()
    initiative(enc, "4", "4")
    classic_fire(enc)
    enc.type_roll("9")
    assert mods(enc) == {"Gunnery": 2}
    answered = enc.events[-1].data
    placed(enc, "ships.vigilant.turrets[3].gunner_skill", "3", tmp_path)
    assert mods(enc) == {"Gunnery": 3}
    assert {k: v for k, v in enc.events[-1].data.items()} == answered
    enc.type_roll("4")
    ref = as_if_before(duel, lambda e: initiative(e, "4", "4"), "ships.vigilant.turrets[3].gunner_skill", "3",
                       lambda e: (classic_fire(e), e.type_roll("9"), e.type_roll("4")))
    assert enc.state == ref.state


def test_classic_an_answered_to_hit_takes_the_corrected_gunnery() -> None:
    """T1's gunner corrected from 1 to 3 while T4 waits: T1's answered 8 reads 8 + 3 = 11 against 10+ (a hit
    where 8 + 1 = 9 missed), as if the gunner had had 3 all along. T4's roll waits as it was, and the form says so
    (it said the waiting roll would be asked with the new value)."""
    enc = duel()
    initiative(enc, "4", "4")
    classic_fire(enc)
    enc.type_roll("8")
    assert enc.events[-1].data["success"] is False
    waiting = enc.pending
    note = enc.waiting_roll_note("ships.vigilant.turrets[0].gunner_skill", "3")
    assert note == ("The waiting roll stays as it is; the action's other rolls read the new value: logged before "
                    "its action"), note
    enc.correct("ships.vigilant.turrets[0].gunner_skill", "3")
    assert enc.pending == dataclasses.replace(waiting, group=waiting.group + 1)
    t1 = enc.events[-1]
    assert t1.kind == "roll" and t1.data["natural"] == 8 and t1.data["total"] == 11 and t1.data["success"] is True
    enc.type_roll("4")
    ref = as_if_before(duel, lambda e: initiative(e, "4", "4"), "ships.vigilant.turrets[0].gunner_skill", "3",
                       lambda e: (classic_fire(e), e.type_roll("8"), e.type_roll("4")))
    assert enc.state == ref.state


def test_classic_a_correction_that_changes_no_roll_moves_nothing() -> None:
    enc = duel()
    initiative(enc, "4", "4")
    classic_fire(enc)
    waiting, events = enc.pending, list(enc.events)
    ev = enc.correct("ships.jackal.fuel", "70")
    assert enc.events == events + [ev] and enc.pending == waiting and ev.group == waiting.group


# --- megatraveller: the target's Defense DM, Sensor Ops -----------------------------------------------------------
# megatraveller-sensors-fire.txt, line 44: "11+ on 2d6 + Your Computer + Range Mod – Target's Def DM"; line 30: a PC
# officer "can use their Sensor Ops skill in place of the Computer model number".

from tests.rulesets.megatraveller.engagement import new_engagement  # noqa: E402
from tests.rulesets.megatraveller.test_engagement import SCRIPT  # noqa: E402


def to_locks(enc: Encounter) -> None:
    for step in SCRIPT[:4]:  # detected, fumbles, fail by one, made by 0-2-4: Corsair-1 located
        step(enc)


def picket_locks(enc: Encounter) -> None:
    enc.act("lock", ship="picket", target="raider", mode="active", spend="free")


def test_megatraveller_def_dm_corrected_while_the_to_hit_waits(tmp_path: Path) -> None:
    enc = new_engagement()
    for step in SCRIPT[:5]:  # to the locks: the Picket holds Corsair-1
        step(enc)
    enc.act("fire", ship="picket", target="raider", batteries=["B1"])
    assert mods(enc) == {"Computer": 2, "Range (far)": -1, "Corsair-1 Def DM": -1}
    placed(enc, "ships.raider.defence_dm", "3", tmp_path)
    assert mods(enc) == {"Computer": 2, "Range (far)": -1, "Corsair-1 Def DM": -3}


def test_megatraveller_sensor_ops_corrected_between_the_two_lock_rolls(tmp_path: Path) -> None:
    """The player's lock roll answered (8 + 4 - 5 = 7: made), the referee's waiting: Sensor Ops 3 reads in both,
    the answered 8 now 8 + 3 - 5 = 6, under 7+."""
    enc = new_engagement()
    to_locks(enc)
    picket_locks(enc)
    enc.type_roll("8")
    assert mods(enc) == {"Sensor Ops": 4, "Range (squares)": -5}
    placed(enc, "ships.picket.sensor_ops", "3", tmp_path)
    assert mods(enc) == {"Sensor Ops": 3, "Range (squares)": -5}
    player = enc.events[group_start(enc) + 1]
    assert (player.data["natural"], player.data["total"], player.data["success"]) == (8, 6, False)
    enc.type_roll("8")
    ref = as_if_before(new_engagement, to_locks, "ships.picket.sensor_ops", "3",
                       lambda e: (picket_locks(e), e.type_roll("8"), e.type_roll("8")))
    assert enc.state == ref.state


# --- gothic: a torpedo's roll to hit by the target's armour -------------------------------------------------------
# gothic-boarding-teleport.en.md, boarding torpedoes: survivors of the turrets "roll to hit as ordinary torpedoes";
# the D6 needed by armour is the shipped table (rulesets/gothic/tables/ordnance.toml [to_hit]: armour 5 needs 5+,
# armour 6 needs 6+), the turrets' 4+ is its turret_needs.

from tests.rulesets.gothic.fleet import new_fight  # noqa: E402
from tests.rulesets.gothic.test_battle import launch_boarding  # noqa: E402


def boarding_salvo(enc: Encounter) -> str:
    sid = launch_boarding(enc, distance=30)
    enc.act("next")
    return sid


def test_gothic_armour_corrected_while_a_torpedo_roll_waits(tmp_path: Path) -> None:
    """Two turret shots answered (4: one torpedo destroyed, 3: none), the first torpedo's roll waiting at 5+; Iron
    Vow's armour corrected to 6 asks 6+, and the turret shots keep their dice."""
    enc = new_fight()
    sid = boarding_salvo(enc)
    enc.act("move_salvo", salvo=sid, turn=0, distance=0)
    enc.type_roll("4")
    enc.type_roll("3")
    assert enc.pending.purpose.startswith("Torpedo to hit Iron Vow (armour 5") and str(enc.pending.target) == "5+"
    placed(enc, "ships.vow.armour", "6", tmp_path)
    assert enc.pending.purpose.startswith("Torpedo to hit Iron Vow (armour 6") and str(enc.pending.target) == "6+"
    shots = [e.data["natural"] for e in enc.events[group_start(enc):] if e.kind == "roll"]
    assert shots == [4, 3]


def test_a_rename_made_while_the_roll_waits_still_names_the_action_as_it_was_after_a_placed_correction() -> None:
    """Cid is renamed while Ann's roll waits (a rename moves no number: it joins the action's group), then Ann's aim
    is corrected and placed before the action, which moves the group and the rename one place on. The log's
    headline still names Cid as he was called when Ann fired (``engine.renames``), read afresh after the move."""
    enc = ann_fight()
    to_action(enc)
    ann_fires(enc)
    before = enc.describe(enc.events[group_start(enc)])
    assert "Cid" in before
    enc.describe(enc.events[-1])  # the log read (and its renames kept) before the correction is placed
    enc.correct("people.cid.name", "Cid the Bold")
    enc.correct("people.ann.aim", "85")
    action = next(e for e in reversed(enc.events) if e.kind == "action")
    assert enc.describe(action) == before
    rename = next(e for e in enc.events if e.kind == "correction" and e.data["path"][-1] == "name")
    assert "Cid the Bold" in enc.describe(rename)
