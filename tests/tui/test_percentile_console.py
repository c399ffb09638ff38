"""The console with the percentile ruleset (issue 12): nothing of the console changed, everything it shows
comes from what the ruleset declares. The characters' panels show body parts with damage points and state,
Agility Points and the sub-turn; the checklist the sub-turn order; the d% prompt the percent to hit and the
direct-hit band. A classic-hg crew hit typed in the console ends with named crew wounded or killed."""

from __future__ import annotations

from pathlib import Path

from engine.encounter import Encounter
from engine.saves import SaveFile, create
from tui.app import FlagbridgeApp

from .conftest import ROOT, app_on, panel_text as text

DEMO = ROOT / "saves" / "demo-percentile.toml"
WIDE = (160, 48)


def percentile_app(tmp_path: Path, *commands) -> FlagbridgeApp:
    return app_on(DEMO, tmp_path, *commands, name="boarding.toml")


def _marines_surprise(enc: Encounter) -> None:
    enc.act("surprise")
    enc.type_roll("10")  # the marines: (57 + 60) / 2 = 59, 49 below
    enc.type_roll("90")  # the boarders: 45, 45 above


def _sergeant_fires(enc: Encounter) -> None:
    enc.act("attack", person="marr", weapon="auto_pistol", target="skarr", range=8, aim="chest")


async def test_surprise_and_a_shot_by_keys(tmp_path: Path) -> None:
    app = percentile_app(tmp_path)
    async with app.run_test(size=WIDE) as pilot:
        enc = app.save.encounter
        await pilot.press("s", "1", "0", "enter", "9", "0", "enter")
        await pilot.pause()
        assert enc.state["surprise_side"] == "crew"
        checklist = text(app, "#checklist")
        assert "Sub-turn 1/5: [Swift Dolan's marines]" in checklist
        assert "Only Swift Dolan's marines acts this round" in checklist
        _sergeant_fires(enc)
        await pilot.pause()
        prompt = text(app, "#prompt")
        # (Aim 70 + WEP DIF 55) / 2 = 63, short range 60% on our Table 3-1
        assert "percent to hit 60: a roll under 60 hits; under 40 (more than 20 under) is a direct hit on the chest" \
            in prompt
        await pilot.press("2", "0", "enter")  # 40 under: direct
        await pilot.press("1", "8", "enter")  # 4:10sd+2 = 20, grazed 20 x 40/60 = 13
        await pilot.pause()
        chest = enc.state["people"]["skarr"]["body"]["chest"]
        assert chest["taken"] == 13
        await pilot.press("down", "down", "down")  # Skarr-Vesh, the fourth person listed
        await pilot.pause()
        armor = text(app, "#armor")
        assert "chest" in armor and "13/40" in armor
        status = text(app, "#status")
        assert "156 points a turn" in status


async def test_agility_points_spent_by_keys(tmp_path: Path) -> None:
    app = percentile_app(tmp_path, _marines_surprise)
    async with app.run_test(size=WIDE) as pilot:
        enc = app.save.encounter
        await pilot.press("m", "enter", "enter", "2", "enter")  # Sgt. Marr walks two metres
        await pilot.pause()
        assert enc.state["people"]["marr"]["ap_spent"] == 6
        assert "6 of 55 spent (0.5 s), 5 left in sub-turn 1" in text(app, "#status")


def _wounded_aracnian(enc: Encounter) -> None:
    _marines_surprise(enc)
    _sergeant_fires(enc)
    enc.type_roll("20")
    enc.type_roll("18")
    enc.act("borrow", person="keller", points=3)  # 11 points in sub-turn 1, the rifle costs 12
    enc.act("attack", person="keller", weapon="laser_rifle", target="tchik", range=12, aim="head")


class TestPercentileConsole:
    """The boarding demo in round 1: the marines have surprise, the Aracnian Skarr-Vesh is wounded in the
    chest (shown), and Pvt. Keller's laser rifle waits for its d% with the percent to hit and the
    direct-hit band under the prompt."""

    def test_boarding_action(self, snap_compare, tmp_path: Path) -> None:
        assert snap_compare(percentile_app(tmp_path, _wounded_aracnian), press=["down", "down", "down"],
                            terminal_size=WIDE)


async def test_a_classic_hg_crew_hit_wounds_and_kills_named_crew(tmp_path: Path) -> None:
    from tests.rulesets.classic_hg.duel import ESCORT, RAIDER, make_setup, roll_for_effect, roll_for_general
    from tests.rulesets.classic_hg.test_effects import imperial_initiative, vigilant_hits

    setup = make_setup(dict(ESCORT), dict(RAIDER))
    setup.units["people"] = {"vale": {"ship": "jackal", "location": "bridge", "name": "Capt. Orrin Vale"},
                             "dunn": {"ship": "jackal", "location": "bridge", "name": "Mate Sela Dunn"}}
    enc = Encounter(setup)
    imperial_initiative(enc)
    vigilant_hits(enc)
    enc.type_roll(roll_for_general("bridge"))
    enc.type_roll(roll_for_effect("bridge", "crew"))
    save = create(tmp_path / "duel.toml", enc)
    app = FlagbridgeApp(SaveFile.load(save.path), save_dir=tmp_path)
    async with app.run_test(size=WIDE) as pilot:
        enc = app.save.encounter
        assert "laser rifle at Capt. Orrin Vale" in text(app, "#prompt")
        assert "percent to hit 44: a roll under 44 hits, at a random location" in text(app, "#prompt")
        await pilot.press("1", "enter", "5", "enter")  # hit, in the head: 16 points, killed
        await pilot.press("1", "enter", "2", "0", "enter")  # hit, in the chest: 16 points
        await pilot.press("down")  # the Jackal
        await pilot.pause()
        armor = text(app, "#armor")
        assert "Capt. Orrin Vale" in armor and "KILLED" in armor
        assert "Mate Sela Dunn" in armor and "chest 16/30" in armor
        assert enc.state["ships"]["jackal"]["crew"]["bridge"] == 1
    assert SaveFile.load(save.path).encounter.state["people"]["jackal-bridge-1"]["dead"]


async def test_recap_help_and_refusals_work_for_people(tmp_path: Path) -> None:
    app = percentile_app(tmp_path, _wounded_aracnian)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("v")
        await pilot.pause()
        await pilot.press("escape", "question_mark")
        await pilot.pause()
        await pilot.press("escape", "4", "7", "enter")  # Keller's shot: 47, under 48, a random hit
        await pilot.pause()
        assert app.save.encounter.pending.purpose.startswith("Random hit location on Tchik-Ahn")
        await pilot.press("9", "9", "enter", "1", "5", "enter")  # right hind leg; 5:10sd+2 typed 15 = 17
        await pilot.press("p")  # primary attack is for the next round: refused with the reason
        await pilot.pause()
        assert "primary attack is rolled in the primary attack step" in text(app, "#prompt")
        leg = app.save.encounter.state["people"]["tchik"]["body"]["right_hind_leg"]
        assert leg["taken"] == 0  # grazed: 17 x 1/48, under half a point


async def test_a_new_percentile_encounter_by_keys(tmp_path: Path) -> None:
    """`flagbridge new` offers the people library and the procedures of each step as setup options."""
    from tests.tui.test_setup_flow import type_text
    from tui.screens.console import ConsoleScreen

    app = FlagbridgeApp(save_dir=tmp_path, start="new")
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("down", "down", "down", "enter")  # percentile, after classic-hg, gothic, megatraveller
        await type_text(pilot, "Brawl")
        await pilot.press("enter")
        await type_text(pilot, "Marines")
        await pilot.press("enter")
        await pilot.press("down", "down", "space", "down", "space", "enter")  # the sergeant and the marine
        await type_text(pilot, "Raiders")
        await pilot.press("enter")
        await pilot.press("space", "enter")  # the Aracnian raider
        for digit in "31":  # surprise 3, primary 1 (primary 3's each-round procedure is then not asked)
            await pilot.press(digit, "enter")
        await pilot.press("enter")  # the usual action procedure, 2, highlighted
        for digit in "235":  # to hit 2, damage 3, five sub-turns
            await pilot.press(digit, "enter")
        await pilot.press("enter", "enter", "enter")  # the usual: borrowing yes, grazing no, organ damage no
        await pilot.press("enter")  # the shipped tables
        await pilot.pause()
        assert isinstance(app.screen, ConsoleScreen)
    enc = SaveFile.load(tmp_path / "Brawl.toml").encounter
    assert enc.setup.ruleset == "percentile"
    assert enc.state["options"]["surprise"] == 3 and enc.state["options"]["damage"] == 3
    assert sorted(p["name"] for p in enc.state["people"].values()) == ["Pvt. Dov Keller", "Sgt. Ilsa Marr",
                                                                       "Skarr-Vesh"]


async def test_an_attack_by_keys_through_its_form(tmp_path: Path) -> None:
    app = percentile_app(tmp_path, _marines_surprise)
    async with app.run_test(size=WIDE) as pilot:
        enc = app.save.encounter
        # the sergeant, her auto pistol, the first enemy (Skarr-Vesh), 8 m, aimed at the first part (head)
        await pilot.press("a", "enter", "enter", "enter", "8", "enter", "enter")
        await pilot.pause()
        req = enc.pending
        assert req is not None and req.purpose.startswith("Percent to hit: Sgt. Ilsa Marr auto pistol at Skarr-Vesh")
        assert "a direct hit on the head" in text(app, "#prompt")


def _round_two_ends_with_both_sides_attacked(enc: Encounter) -> None:
    from tests.rulesets.percentile.test_alertness import _round_two_ends
    from tests.rulesets.percentile.test_boarding import SCRIPT

    for step in SCRIPT:
        step(enc)
    _round_two_ends(enc)


async def test_the_alertness_an_attack_owes_is_given_by_keys(tmp_path: Path) -> None:
    """"When attacked a players' alertness condition will always jump to a higher level in the next turn"
    (surprise procedure 2: the sides' Alertness): `n` is refused until `k` raises both sides."""
    app = percentile_app(tmp_path, _round_two_ends_with_both_sides_attacked)
    async with app.run_test(size=WIDE) as pilot:
        enc = app.save.encounter
        await pilot.press("n")
        await pilot.pause()
        assert "alertness jumps higher first (k)" in text(app, "#prompt")
        assert "Swift Dolan's marines 60, Aracnian boarders 40" in text(app, "#checklist")
        await pilot.press("k", "enter", "1", "5", "enter")  # the marines, first listed: 60 -> 75
        await pilot.press("k", "enter", "2", "0", "enter")  # the boarders: 40 -> 60
        await pilot.pause()
        assert enc.state["alertness"]["crew"] == 75 and enc.state["alertness"]["raiders"] == 60
        await pilot.press("n")
        await pilot.pause()
        assert enc.state["acting"] == 1


async def test_a_choice_the_rule_leaves_out_says_why_when_looked_for(tmp_path: Path) -> None:
    """Found by a game master's drive: in the last sub-turn the grenade (12 points) was left out of Marr's weapons
    with 11 points left, and typing its name read only "nothing matches the filter". The form now names it and
    the rule's reason; a filter that finds something offered says nothing of it."""
    app = percentile_app(tmp_path)
    async with app.run_test(size=WIDE) as pilot:
        enc = app.save.encounter
        _marines_surprise(enc)
        enc.correct("subturn", "5")
        enc.correct("people.marr.ap_spent", "44")
        await pilot.pause()
        await pilot.press("a", "enter", *"gren")  # the attack form: Marr (selected), then look for the grenade
        await pilot.pause()
        message = text(app, "#form-message")
        assert "fragmentation grenade: not offered: Sgt. Ilsa Marr has 11 Agility Points left in sub-turn 5, " \
               "this costs 12" in message
        await pilot.press(*"zz")  # a filter that names none of them any more: the message goes
        await pilot.pause()
        assert "not offered" not in text(app, "#form-message")
        await pilot.press(*["backspace"] * 6, *"pist")
        await pilot.pause()
        assert "not offered" not in text(app, "#form-message")


def _keller_fires(enc: Encounter) -> None:
    _marines_surprise(enc)
    enc.act("attack", person="keller", weapon="laser_rifle", target="skarr", range=10, aim="head")


async def test_aim_corrected_while_the_percent_to_hit_waits_is_asked_again(tmp_path: Path) -> None:
    """The drive: Keller's aim corrected from 60 to 90 while his laser rifle's d% waits. MARKSmanship = (AIM +
    WEP DIF) / 2 (percentile-personal-combat.txt, "Percent to Hit"; the laser rifle's WEP DIF is 60 in our table):
    60 before, (90 + 60) / 2 = 75 after. The form says so before the correction is recorded, the log shows the
    correction before the attack, u takes back the correction alone and ctrl+r puts it back; the autosave holds it."""
    app = percentile_app(tmp_path, _keller_fires)
    async with app.run_test(size=WIDE) as pilot:
        enc = app.save.encounter
        assert "MARKSmanship 60," in text(app, "#prompt")
        await pilot.press("down", "c", "a", "i", "m", "enter", "backspace", "backspace", "9", "0", "enter")
        await pilot.pause()
        assert "The waiting roll will be asked with the new value" in text(app, "#form-message")
        await pilot.press("enter")
        await pilot.pause()
        prompt = text(app, "#prompt")
        assert "MARKSmanship 75," in prompt and "MARKSmanship 60" not in prompt
        log = text(app, "#log")
        correction = log.index("correction: people.keller.aim (Pvt. Dov Keller) 60 -> 90")
        assert correction < log.index("attack: Pvt. Dov Keller at Skarr-Vesh")
        assert "the action and its rolls now read the new value" in " ".join(log.split())
        assert log.count("attack: Pvt. Dov Keller") == 1 and log.count("people.keller.aim") == 1
        assert str(SaveFile.load(app.save.path).encounter.pending.target) == str(enc.pending.target)
        await pilot.press("u")
        await pilot.pause()
        assert "MARKSmanship 60," in text(app, "#prompt")
        said = " ".join(text(app, "#prompt").split())
        assert "Undone: correction: people.keller.aim" in said
        assert "the action and its rolls read the old value again" in said and "now read the new value" not in said
        assert "people.keller.aim" not in text(app, "#log") and enc.state["people"]["keller"]["aim"] == 60
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert "MARKSmanship 75," in text(app, "#prompt")
        assert text(app, "#log").count("people.keller.aim") == 1
    assert SaveFile.load(app.save.path).encounter.state == enc.state


async def test_aim_corrected_so_that_another_roll_waits_names_that_roll(tmp_path: Path) -> None:
    """Marr's 50 against her percent to hit 60 is 10 under: a random hit, so the location roll waits. Aim 99 makes
    MARKSmanship (99 + 55) / 2 = 77 and the 50 more than 20 under, "a direct hit" on the chest (percentile-personal-
    combat.txt, procedure 2), and the demo's damage procedure 2 then rolls the auto pistol's 4:10sd+2 at once. The
    form names that roll before the correction is recorded (it promised the location roll with the new value), and
    the prompt then asks it."""
    app = percentile_app(tmp_path, _marines_surprise, _sergeant_fires, lambda enc: enc.type_roll("50"))
    async with app.run_test(size=WIDE) as pilot:
        assert "Random hit location on Skarr-Vesh" in text(app, "#prompt")
        await pilot.press("c", "a", "i", "m", "enter", "backspace", "backspace", "9", "9", "enter")
        await pilot.pause()
        said = " ".join(text(app, "#form-message").split())
        assert said == ("With the new value the rules ask another roll: Damage: auto pistol 4+2 (4:10sd+2) in place "
                        "of Random hit location on Skarr-Vesh (Table 3-3.4); logged before its action"), said
        await pilot.press("enter")
        await pilot.pause()
        assert "Damage: auto pistol 4+2" in text(app, "#prompt")
        assert "the action and its rolls now read the new value" in " ".join(text(app, "#log").split())
