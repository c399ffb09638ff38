"""The console with the gothic ruleset (issue 11): nothing of the console changed, everything it shows comes
from what the ruleset declares. The mixed salvo is refused where it is ticked; a boarding salvo launched by
keys shows as an ordnance row with strength, owner and distance; its attack asks for the turret rolls."""

from __future__ import annotations

from pathlib import Path

from engine.saves import SaveFile
from tui.app import FlagbridgeApp

from .conftest import ROOT, app_on, panel_text as text

DEMO = ROOT / "saves" / "demo-gothic.toml"
WIDE = (160, 48)


def gothic_app(tmp_path: Path, *commands) -> FlagbridgeApp:
    return app_on(DEMO, tmp_path, *commands, name="gothic.toml")


async def test_a_boarding_salvo_launched_and_brought_into_contact_by_keys(tmp_path: Path) -> None:
    app = gothic_app(tmp_path)
    async with app.run_test(size=WIDE) as pilot:
        enc = app.save.encounter
        ships = text(app, "#ships")
        assert "Hammer of Thrace 8/8" in ships and "Kessel Platform (def) 8/8" in ships
        await pilot.press("n", "l", "enter", "space", "down", "space", "enter")
        await pilot.pause()
        assert "never launched in the same salvo as ordinary torpedoes" in text(app, "#form-message")
        await pilot.press("up", "space", "enter", "enter", "enter", "3", "0", "enter")  # boarding, 6, Iron Vow, 30 cm
        await pilot.pause()
        salvo = enc.state["ordnance"]["salvo-1"]
        assert (salvo["kind"], salvo["strength"], salvo["target"], salvo["distance"]) == ("boarding", 6, "ironvow", 30)
        assert "BT x6 Hammer of Thrace -> Iron Vow 30cm" in text(app, "#ships")
        await pilot.press("n", "m", "enter", "0", "enter", "0", "enter")  # straight on, into base contact
        await pilot.pause()
        assert enc.pending is not None and enc.pending.purpose.startswith("Turret fire: Iron Vow")
        assert "Turret fire: Iron Vow" in text(app, "#prompt")


async def test_a_refused_teleport_says_why(tmp_path: Path) -> None:
    app = gothic_app(tmp_path, *[lambda e: e.act("next")] * 3)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("t")
        await pilot.pause()
        prompt = text(app, "#prompt")
        assert "Teleport attack: no ship or defence can be chosen now" in prompt
        assert "teleporters reach 10 cm" in prompt


def _mid_fight(enc) -> None:
    enc.act("special_orders", vessel="hammer", order="lock_on")
    enc.act("next")
    enc.act("launch", vessel="hammer", kinds=["boarding"], strength=6, target="ironvow", distance=30)
    enc.act("record_hits", vessel="ironvow", hits=4)
    enc.act("shields", vessel="ironvow", up=0)
    enc.act("next")


async def test_a_salvo_meets_another_stand_by_keys(tmp_path: Path) -> None:
    """gothic-boarding-teleport.ru.txt: "Если управляемые торпеды перемещаются в базовый контакт с подставкой, по
    ним могут произвести стрельбу турелли": the salvo aimed at Iron Vow meets Idolator Shade's stand on its way.
    The form lists the enemy's other stands a first move reaches (Idolator Shade and Kessel Platform, 20 cm from
    Hammer; Kessel Sentinel 45 cm off is out of reach); a filter for Hammer's own side finds none and says why;
    the turret fire then asked is Idolator Shade's."""
    def in_reach(enc) -> None:
        for stand in ("idolator", "kessel"):
            enc.act("set_distance", vessel="hammer", target=stand, cm=20)

    app = gothic_app(tmp_path, _mid_fight, in_reach)
    async with app.run_test(size=WIDE) as pilot:
        enc = app.save.encounter
        await pilot.press("b", "enter", "enter")  # the one salvo, straight on
        await pilot.pause()
        listed = text(app, "#form-options")
        assert "Idolator Shade" in listed and "Kessel Platform" in listed
        assert "Iron Vow" not in listed and "Sword Vigil" not in listed and "Kessel Sentinel" not in listed
        await pilot.press(*"Sword")
        await pilot.pause()
        assert "boarding teams land in an enemy's ship" in text(app, "#form-message")
        await pilot.press(*["backspace"] * 5, "enter")  # the filter erased: the first stand, Idolator Shade
        await pilot.pause()
        assert enc.pending is not None and enc.pending.purpose.startswith("Turret fire: Idolator Shade")
        assert "salvo-1" not in enc.state["ordnance"]


class TestGothicConsole:
    """The gothic demo mid-fight: a capital ship on special orders, a crippled enemy with its shields down,
    a boarding salvo in flight and the ordnance phase's reminder."""

    def test_ordnance_phase(self, snap_compare, tmp_path: Path) -> None:
        assert snap_compare(gothic_app(tmp_path, _mid_fight), terminal_size=WIDE)


async def test_a_new_gothic_encounter_from_the_unit_library(tmp_path: Path) -> None:
    """``flagbridge new`` offers the ruleset's ships and planetary defences (``ships/``, ``defences/``) and its
    starting distance; nothing of the console knows gothic."""
    from tui.screens.console import ConsoleScreen

    app = FlagbridgeApp(save_dir=tmp_path, start="new")
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("down", "enter")                                   # gothic, after classic-hg
        await pilot.press(*"Kessel", "enter", *"Navy", "enter")
        await pilot.press("down", "space", "down", "down", "space", "enter")  # the Lunar cruiser and a Sword
        await pilot.press(*"Rebels", "enter")
        await pilot.press("down", "down", "space", "down", "down", "down", "down", "space", "enter")  # Murder, platform
        await pilot.press("2", "5", "enter")                                 # 25 cm between enemies
        await pilot.press("enter")                                           # the shipped tables
        await pilot.pause()
        assert isinstance(app.screen, ConsoleScreen)
    enc = SaveFile.load(tmp_path / "Kessel.toml").encounter
    assert sorted(s["name"] for s in enc.setup.ships.values()) == ["Hammer of Thrace", "Iron Vow", "Sword Vigil"]
    platform = next(iter(enc.state["defences"].values()))
    assert (platform["class_name"], platform["hits"], platform["side"]) == ("Space platform", 8, enc.setup.sides[1]["id"])
    assert set(enc.state["distances"].values()) == {25}


async def test_a_vessel_list_starts_on_the_vessel_selected(tmp_path: Path) -> None:
    """gothic's vessel questions are lists of unit ids: they too start on the unit the console has selected (a
    review found only questions of the unit kind did)."""
    from tui.widgets.picker import Picker

    app = gothic_app(tmp_path)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("down", "o")  # the second vessel, then special orders
        await pilot.pause()
        selected = app.screen_stack[-2].selected
        assert selected != next(iter(app.save.encounter.state["ships"]))
        assert app.screen.query_one(Picker).state.current.value == selected


def _critical_waiting(enc) -> None:
    """Hammer of Thrace teleports onto Iron Vow (10 cm, its shields down) in the end phase and its hit-and-run
    rolls 4: the roll on the critical hits table waits."""
    from tests.rulesets.scripted import answer

    enc.act("set_distance", vessel="hammer", target="ironvow", cm=10)
    enc.act("next")
    enc.act("shields", vessel="ironvow", up=0)
    enc.act("next")
    enc.act("next")  # the end phase
    enc.act("teleport", vessel="hammer", target="ironvow")
    answer(enc, "Hit-and-run on Iron Vow", "4")


async def test_undo_says_a_correction_made_while_a_roll_waited_goes_back_with_the_action(tmp_path: Path) -> None:
    """Found by a game master's drive: a correction made while the repair die waited joins the repair's group,
    and u took both back under "Undone: repair ... (and its 1 roll)": the corrected hits went back unsaid. The
    line names the correction; ctrl+r says the same."""
    from tests.rulesets.scripted import answer

    def repair_waiting(enc) -> None:
        answer(enc, "Critical hit on Iron Vow", "3 4")  # 7: a fire, repairable
        enc.act("repair", vessel="ironvow", critical="0")
        enc.correct("ships.hammer.hits", 7, note="plasma fire")

    app = gothic_app(tmp_path, _critical_waiting, repair_waiting)
    async with app.run_test(size=WIDE) as pilot:
        enc = app.save.encounter
        assert enc.pending is not None and enc.pending.purpose.startswith("Repair")
        await pilot.press("u")
        await pilot.pause()
        said = app.screen.message
        assert said.startswith("Undone: repair") and "1 correction" in said and "roll" not in said, said
        assert enc.state["ships"]["hammer"]["hits"] == 8 and enc.pending is None
        await pilot.press("ctrl+r")
        await pilot.pause()
        said = app.screen.message
        assert said.startswith("Redone: repair") and "1 correction" in said and "roll" not in said, said
        assert enc.state["ships"]["hammer"]["hits"] == 7


async def test_a_ticked_answer_shows_in_the_form_as_it_was_offered(tmp_path: Path) -> None:
    """The line of answers given names a ticked value as the list showed it ("Boarding torpedoes"), as it names a
    chosen one ("Hammer of Thrace (capital ship, 8/8 hits)"); a drive read "Load (one kind a salvo): boarding",
    the save's id, on the form while the log said "kinds=Boarding torpedoes"."""
    app = gothic_app(tmp_path)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("n", "l", "enter", "down", "space", "enter")
        await pilot.pause()
        done = text(app, "#form-done")
        assert "Load: Boarding torpedoes" in done
        assert ": boarding" not in done


async def test_the_load_question_asks_for_the_load_and_a_mixed_salvo_is_refused_with_the_reason(
        tmp_path: Path) -> None:
    """Boarding torpedoes "are launched the way ordinary torpedoes are, but never in the same salvo as ordinary
    torpedoes" (gothic-boarding-teleport.en.md, "Boarding torpedoes"). A drive read "Load (one kind a salvo)
    (several):", a question that said one and offered several. The list is still ticked (a save's launch keeps
    its load as a list), so the question asks only for the load, and ticking both kinds is refused with the
    text's reason: a salvo carries one kind."""
    app = gothic_app(tmp_path)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("n", "l", "enter")
        await pilot.pause()
        assert text(app, "#form-question").strip() == "Load (several):"
        await pilot.press("space", "down", "space", "enter")
        await pilot.pause()
        said = text(app, "#form-message")
        assert said.startswith("a salvo carries one kind of torpedo: boarding torpedoes are never launched in the "
                               "same salvo as ordinary torpedoes"), said


async def test_the_critical_roll_prompt_lists_the_critical_hits_table(tmp_path: Path) -> None:
    """A hit-and-run that rolls 2 or more rolls "on the critical hits table" (gothic-boarding-teleport.en.md,
    "Resolving a hit-and-run attack"): the dice prompt lists what each total finds (our shipped
    tables/criticals.toml), as the damage tables of the other rulesets are listed under their rolls."""
    app = gothic_app(tmp_path, _critical_waiting)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        prompt = " ".join(text(app, "#prompt").split())
        assert "Critical hit on Iron Vow" in prompt
        assert "Critical hits: 2 Command deck · 3 Starboard batteries · 4 Port batteries" in prompt
        assert "11 Hull breached +1 hit · 12 Bulkheads +2 hits · 11-12 permanent" in prompt


async def test_the_whole_critical_hits_table_and_a_refused_roll_stay_in_sight_at_80x24(tmp_path: Path) -> None:
    """At 80 columns the table's list wrapped to five lines, and with a refusal under the typing line the prompt's
    height (six lines) cut its last row, 12. Now its three lines each fit the width: the roll, the typing line,
    the refusal of 13 and every row of the table (shipped tables/criticals.toml) are all on screen."""
    app = gothic_app(tmp_path, _critical_waiting)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("1", "3", "enter")
        await pilot.pause()
        prompt = app.screen.query_one("#prompt")
        shown = ["".join(segment.text for segment in prompt.render_line(y)).strip()
                 for y in range(prompt.size.height)]
        assert shown[0].startswith("Critical hit on Iron Vow")
        assert shown[1].startswith("type what the table rolled")
        assert "13" in shown[2] and "cannot" in shown[2], shown
        assert shown[3:] == ["Critical hits: 2 Command deck · 3 Starboard batteries · 4 Port batteries",
                             "5 Prow weapons · 6 Drive chamber · 7 Fire · 8 Thrusters · 9 Turret crews",
                             "10 Shields · 11 Hull breached +1 hit · 12 Bulkheads +2 hits · 11-12 permanent"]
        assert app.save.encounter.pending.purpose == "Critical hit on Iron Vow"  # nothing recorded
