"""Faults a game master's drive of ``flagbridge new`` found, each driven from the keyboard as it was met."""

from __future__ import annotations

from pathlib import Path

from textual import events

from engine.saves import SaveFile
from tests.tui.test_bursts import burst, idle
from tui.app import FlagbridgeApp
from tui.screens.console import ConsoleScreen


def message(app: FlagbridgeApp) -> str:
    return str(app.screen.query_one("#form-message").render())


def question(app: FlagbridgeApp) -> str:
    return str(app.screen.query_one("#form-question").render())


def control(app: FlagbridgeApp, key: str) -> None:
    """A control key as the terminal sends it (ctrl+u is the character 0x15)."""
    app.post_message(events.Key(key, chr(ord(key[-1]) - ord("a") + 1)))


async def editor_fields(app: FlagbridgeApp, pilot) -> list[str]:
    """``e`` on the list: the unit editor opens, and the fields it lists, in order."""
    from tui.screens.unit_edit import UnitEditScreen

    burst(app, "e")
    await idle(pilot)
    editor = app.screen
    assert isinstance(editor, UnitEditScreen)
    return [editor.query_one("#form-options").get_option_at_index(i).id
            for i in range(editor.query_one("#form-options").option_count)]


async def test_ctrl_u_clears_what_was_typed_before_it_in_a_burst_too(tmp_path: Path) -> None:
    """Found by a game master's drive: "  IMPERIAL NAVY ", ctrl+u, "Corsairs" named the side
    "IMPERIAL NAVY Corsairs". Textual's Input binds ctrl+u to "delete all to the left"; the screen typed every
    other key at once but left ctrl+u to Textual's queue, which reached the field after the keys behind it (or
    a field no longer asked). With the cursor at the end it clears the line; in the middle, up to the cursor."""
    app = FlagbridgeApp(save_dir=tmp_path, start="new")
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "enter", *"Duel", "enter", "space", "space", *"IMPERIAL", "space", *"NAVY", "space")
        control(app, "ctrl+u")
        burst(app, *"Corsairs", "enter")
        await idle(pilot)
        assert app.screen.answers["side1"] == "Corsairs"
        burst(app, "space", "enter", *"Old", "space", *"Raiders", "left", "left", "left", "left", "left", "left",
              "left")
        control(app, "ctrl+u")  # the cursor before "Raiders": only "Old " goes
        burst(app, "end", "space", *"Band")
        control(app, "ctrl+w")  # the word before the cursor
        burst(app, *"Crew", "enter")
        await idle(pilot)
        assert app.screen.answers["side2"] == "Raiders Crew"


async def test_every_whole_number_question_refuses_what_is_not_one_and_names_its_limits(tmp_path: Path) -> None:
    """Found by a game master's drive: gothic's "Starting distance in cm" typed 1.5 opened the fight at 15 cm, and
    megatraveller's starting range typed x1.5 gave 15 squares (the field let only digits in, silently). Every
    whole-number setup option of every ruleset takes what is typed and refuses it whole, with its limits."""
    from engine.ruleset import find_ruleset
    from tui.screens.setup import SetupScreen

    for place, ruleset in enumerate(("classic-hg", "gothic", "megatraveller", "percentile")):
        limits = {p.label: (p.minimum, p.maximum) for p in find_ruleset(ruleset).setup_options() if p.kind == "int"}
        asked = []
        app = FlagbridgeApp(save_dir=tmp_path, start="new")
        async with app.run_test(size=(160, 48)) as pilot:
            burst(app, *["down"] * place, "enter", *f"Fight{place}", "enter", *"Navy", "enter", "space", "enter",
                  *"Raiders", "enter", "down", "space", "enter")
            await idle(pilot)
            while isinstance(app.screen, SetupScreen):
                label = question(app).removesuffix(" (Enter):")
                if label not in limits:
                    burst(app, "enter")  # a choice: the usual one
                    await idle(pilot)
                    continue
                asked.append(label)
                least, most = limits[label]
                for typed in ("1.5", "x1.5", "2 3", "+", "١", "9" * 30):
                    burst(app, *typed.replace(" ", "_"), "enter")
                    await idle(pilot)
                    assert message(app) == f"{label}: type a whole number from {least} to {most}", typed
                    assert question(app).startswith(label) and app.screen._asking.value == typed.replace(" ", "_")
                    control(app, "ctrl+u")
                burst(app, *str(least), "enter")
                await idle(pilot)
            assert isinstance(app.screen, ConsoleScreen)
        options = SaveFile.load(tmp_path / f"Fight{place}.toml").encounter.setup.options
        assert asked == list(limits) or ruleset == "percentile"  # percentile asks some only with others' answers
        assert all(options[p.name] == p.minimum for p in find_ruleset(ruleset).setup_options() if p.label in asked)
    assert asked  # percentile's numbers were asked


def test_a_whole_number_is_digits_with_at_most_a_sign_before_them() -> None:
    from engine.actions import Param
    from tui.screens.setup import whole_number

    distance = Param("distance", "Starting distance", "int", minimum=0, maximum=300)
    assert [whole_number(t, distance) for t in ("0", "+12", "300", " 7 ")] == [0, 12, 300, 7]
    assert {whole_number(t, distance) for t in ("1.5", "x1.5", "15x", "-1", "301", "1e2", "1_0", "٣", "", "-",
                                                "9" * 5000)} == {None}


async def test_a_ship_renamed_in_one_sides_list_is_that_sides_copy(tmp_path: Path) -> None:
    """Found by a game master's drive (megatraveller): both sides ticked Red Lantern and were told it "would be
    in the fight twice"; e on side 2's row renamed it "Red Lantern II", and side 1's pick became "Red Lantern II"
    too (the edit was kept per library file). An edit in one side's list is that side's copy, so two ships of
    one class can be fielded by renaming one."""
    app = FlagbridgeApp(save_dir=tmp_path, start="new")
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "down", "down", "enter", *"Twins", "enter", *"Navy", "enter", "space", "enter", *"Raiders",
              "enter", "space", "enter")  # Red Lantern for both
        await idle(pilot)
        assert "Red Lantern would be in the fight twice" in message(app)
        setup = app.screen
        names = await editor_fields(app, pilot)
        burst(app, *["down"] * names.index("name"), "enter", *"Red_Lantern_II".replace("_", " "), "enter",
              "escape")
        await idle(pilot)
        assert app.screen is setup and "(edited)" in str(setup.query_one("TickList").get_option_at_index(0).prompt)
        burst(app, "enter", *"12", "enter", "enter")  # range 12, the shipped tables
        await idle(pilot)
        assert isinstance(app.screen, ConsoleScreen)
    ships = SaveFile.load(tmp_path / "Twins.toml").encounter.setup.ships
    assert sorted((s["side"], s["name"]) for s in ships.values()) == [("side1", "Red Lantern"),
                                                                       ("side2", "Red Lantern II")]


async def test_q_on_a_list_asks_before_the_answers_are_thrown_away(tmp_path: Path) -> None:
    """Found by a game master's drive: q on any list of the walk-through (the ship ticks, a yes/no choice, the
    unit editor's fields) quit at once, exit 0, every answer lost. The Footer shows "q Quit" there, so q still
    quits, but only after y; any other key goes on as if q had not been pressed. In a name, q is a letter."""
    from tui.screens.setup import SetupScreen
    from tui.screens.unit_edit import UnitEditScreen

    app = FlagbridgeApp(save_dir=tmp_path, start="new")
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "down", "down", "down", "enter", *"Quiet", "enter", *"Quinn", "enter", "q")
        await idle(pilot)
        assert app.return_code is None and message(app).startswith("Quit and lose these answers?")
        burst(app, "n", "space", "enter")  # n only answers the question: Space then ticks, Enter goes on
        await idle(pilot)
        assert app.return_code is None and message(app) == "" and app.screen.answers["ships1"] == [0]
        assert app.screen.answers["side1"] == "Quinn"
        burst(app, *"Thugs", "enter", "e", "q")  # in the unit editor too
        await idle(pilot)
        assert isinstance(app.screen, UnitEditScreen) and app.return_code is None
        burst(app, "escape", "escape", "down", "space", "enter", "0", "enter", "1", "enter", "1", "enter", "1",
              "enter", "1", "enter", "1", "enter")
        await idle(pilot)
        assert isinstance(app.screen, SetupScreen) and "Grazing shots" in question(app)  # a yes/no list
        burst(app, "q", "y")
        await idle(pilot)
        assert app.return_code == 0 and not isinstance(app.screen, ConsoleScreen)
    assert not list(tmp_path.glob("*.toml"))
    app = FlagbridgeApp(save_dir=tmp_path, start="new")
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "q")  # nothing answered yet: nothing to lose, so q quits at once (as Esc does there)
        await idle(pilot)
        assert app.return_code == 0


async def test_a_ship_file_that_fails_to_load_is_said_under_the_list(tmp_path: Path) -> None:
    """Found by a game master's drive: a ship file in SAVE_DIR/ships/ that failed to load was left out of the list
    without a word. It is still left out, and one line under the list names the file and what is wrong in it;
    the walk-through goes on. A file that names another ruleset is that ruleset's, and is not said here."""
    from engine.files import load_unit

    ships = tmp_path / "ships"
    ships.mkdir()
    scout = Path(load_unit.__code__.co_filename).parents[1] / "rulesets" / "megatraveller" / "ships" / "scout.toml"
    (ships / "long-sight.toml").write_text(scout.read_text().replace('"Far Sight"', '"Long Sight"')
                                           .replace("tonnage = 100", 'tonnage = "lots"'))
    (ships / "broken.toml").write_text("[ship\n")
    (ships / "classic.toml").write_text('[ship]\nruleset = "classic-hg"\nname = "Odd"\n')  # classic-hg's, broken
    (ships / "good.toml").write_text(scout.read_text().replace('"Far Sight"', '"Near Sight"'))
    app = FlagbridgeApp(save_dir=tmp_path, start="new")
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "down", "down", "enter", *"Files", "enter", *"Navy", "enter")
        await idle(pilot)
        shown = str(app.screen.query_one("#form-skipped").render())
        lines = shown.splitlines()
        assert len(lines) == 2 and all(line.startswith("not listed: ") for line in lines), shown
        assert lines[0].startswith("not listed: ships/broken.toml: not valid TOML")
        assert lines[1] == "not listed: ships/long-sight.toml: ship: tonnage must be a whole number, got 'lots'"
        ticks = app.screen.query_one("TickList")
        listed = [str(ticks.get_option_at_index(i).prompt) for i in range(ticks.option_count)]
        assert any("Near Sight" in p for p in listed) and not any("Long Sight" in p for p in listed)
        burst(app, "space", "enter", *"Raiders", "enter")
        await idle(pilot)
        assert "not listed: " in str(app.screen.query_one("#form-skipped").render())  # side 2's list too
        burst(app, "down", "space", "enter", "4", "enter", "enter")
        await idle(pilot)
        assert isinstance(app.screen, ConsoleScreen)


async def test_an_encounter_named_in_cyrillic_is_saved_under_its_name(tmp_path: Path) -> None:
    """Found by a game master's drive: "Засада у Кесселя" was saved as encounter.toml (the file name kept ASCII
    letters only). A name of 90 letters given twice had looked for a free file forever (its "-2" was cut off)."""
    for name, saved in (("Засада у Кесселя", "Засада-у-Кесселя.toml"), ("Ж" * 90, "Ж" * 80 + ".toml"),
                        ("Ж" * 90, "Ж" * 80 + "-2.toml")):
        app = FlagbridgeApp(save_dir=tmp_path, start="new")
        async with app.run_test(size=(160, 48)) as pilot:
            burst(app, "enter", *["space" if c == " " else c for c in name], "enter", *"Navy", "enter", "space", "enter", *"Raiders",
                  "enter", "down", "space", "enter", "enter", "enter")  # crew hits, the shipped tables
            await idle(pilot)
            assert isinstance(app.screen, ConsoleScreen) and app.save.path == tmp_path / saved
        assert SaveFile.load(tmp_path / saved).encounter.setup.name == name


async def test_going_back_shows_each_earlier_answer_so_enter_keeps_it(tmp_path: Path) -> None:
    """Found by a game master's drive: Esc went back a question and showed it blank, so every answer after it
    had to be given again. The earlier answer is shown (a name selected, so typing replaces it; ships ticked; the
    choice highlighted) and Enter keeps it."""
    from textual.widgets import Input, OptionList

    app = FlagbridgeApp(save_dir=tmp_path, start="new")
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "down", "down", "enter", *"Picket", "enter", *"Navy", "enter", "space", "down", "down", "space",
              "enter", *"Raiders", "enter", "down", "space", "enter")
        await idle(pilot)
        given = dict(app.screen.answers)
        shown = []
        for _ in range(6):  # back from the range to the ruleset, one question at a time
            burst(app, "escape")
            await idle(pilot)
            field = app.screen._asking
            if isinstance(field, Input):
                shown.append(field.value)
                assert field.selected_text == field.value
            elif hasattr(field, "selected"):
                shown.append(sorted(int(i) for i in field.selected))
            else:
                assert isinstance(field, OptionList)
                shown.append(field.get_option_at_index(field.highlighted).id)
        assert shown == [[1], "Raiders", [0, 2], "Navy", "Picket", "megatraveller"]
        burst(app, *["enter"] * 6)
        await idle(pilot)
        assert app.screen.answers == given
        burst(app, "escape", "escape", *"Rovers", "enter", "enter")  # typing replaces a name shown
        await idle(pilot)
        assert app.screen.answers == {**given, "side2": "Rovers"}
        burst(app, *["escape"] * 6, "up", "enter", "enter", "enter")  # another ruleset: its own ships, none ticked
        await idle(pilot)
        assert app.screen.answers == {"ruleset": "gothic", "name": "Picket", "side1": "Navy"}
        assert app.screen._asking.selected == []
    app = FlagbridgeApp(save_dir=tmp_path, start="new")
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "down", "down", "down", "enter", *"Alley", "enter", *"Crew", "enter", "space", "enter", *"Thugs",
              "enter", "down", "space", "enter", "2", "enter", "1", "enter", "2", "enter", "3", "enter", "1",
              "enter", "5", "enter", "n", "enter", "y", "enter")
        await idle(pilot)
        assert "Organ" in question(app)
        given = dict(app.screen.answers)
        burst(app, *["escape"] * 8)  # back to the surprise procedure, the first option
        await idle(pilot)
        assert app.screen._asking.value == "2" and "Surprise" in question(app)
        burst(app, *["enter"] * 8)
        await idle(pilot)
        assert app.screen.answers == given and "Organ" in question(app)


async def test_a_digit_typed_after_a_burst_goes_on_the_end_of_the_unit_editors_value(tmp_path: Path) -> None:
    """Found while fixing the faults above: in the unit editor, "Enter 3 0" in one burst and then 5 gave fuel 5,
    not 305. The field selected its whole value when the focus reached it, after the burst had typed 30, so the 5
    replaced it. The editor selects the old value itself; the field no longer selects on focus."""
    app = FlagbridgeApp(save_dir=tmp_path, start="new")
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "enter", *"Duel", "enter", *"Navy", "enter")
        names = await editor_fields(app, pilot)
        editor = app.screen
        burst(app, *["down"] * names.index("fuel"), "enter", "3", "0")
        await idle(pilot)
        burst(app, "5", "enter")
        await idle(pilot)
        assert editor.unit["fuel"] == 305


async def test_a_person_picked_for_both_sides_can_be_renamed_as_the_message_says(tmp_path: Path) -> None:
    """Found by a game master's drive (percentile): Keller ticked for both sides was refused, "each unit needs a
    name of its own (e on it renames this side's for this fight)", but the person's editor had no name to change
    (a person's declared fields leave the name out, as every unit has one). Every unit's editor offers its name."""
    app = FlagbridgeApp(save_dir=tmp_path, start="new")
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "down", "down", "down", "enter", *"Brawl", "enter", *"Dockhands", "enter",
              "down", "down", "down", "space", "enter", *"Smugglers", "enter",
              "down", "down", "down", "space", "enter")  # Pvt. Dov Keller for both
        await idle(pilot)
        assert "Pvt. Dov Keller would be in the fight twice" in message(app)
        setup = app.screen
        names = await editor_fields(app, pilot)
        assert "name" in names, names
        burst(app, *["down"] * names.index("name"), "enter", *"Dov Keller's twin", "enter", "escape")
        await idle(pilot)
        assert app.screen is setup and "(edited)" in str(setup.query_one("TickList").get_option_at_index(3).prompt)
        burst(app, "enter")
        await idle(pilot)
        assert "twice" not in message(app)
        # surprise 2, primary attack 1, action 2 (the usual), to hit 2, damage 2, 5 sub-turns, no borrowing,
        # grazing or organ damage
        burst(app, "2", "enter", "1", "enter", "enter", "2", "enter", "2", "enter", "5", "enter", "n", "enter",
              "n", "enter", "enter", "enter")  # and the shipped tables
        await idle(pilot)
        assert isinstance(app.screen, ConsoleScreen), (question(app), message(app))
    people = SaveFile.load(tmp_path / "Brawl.toml").encounter.setup.units["people"]
    assert sorted((p["side"], p["name"]) for p in people.values()) == [("side1", "Pvt. Dov Keller"),
                                                                        ("side2", "Dov Keller's twin")]


async def test_ships_named_in_any_script_get_ids_in_their_own_letters(tmp_path: Path) -> None:
    """Found by a game master's drive (the gothic rules text is Russian): ships named in Cyrillic got the ids
    ``ship`` and ``ship-2``, which the correction form, the log and the save then showed him. Each id keeps the
    name's letters, lowercased, one apart from another whose name differs only in case; a name with no letter
    at all is filed under the kind of unit. A correction from the console's form names the ship by its id, and
    the save replays and checks."""
    from engine.files import load_unit
    from tui.cli import main
    from tui.screens.correct import CorrectionScreen
    library = Path(load_unit.__code__.co_filename).parents[1] / "rulesets" / "gothic" / "ships"
    lunar = (library / "lunar-cruiser.toml").read_text(encoding="utf-8")
    ships = tmp_path / "ships"
    ships.mkdir()
    for file, name in (("a-argo", "Αργώ Νίκη"), ("b-etoile", "Étoile du Nord"), ("c-klinok", "Кровавый Клинок"),
                       ("d-klinok", "КРОВАВЫЙ КЛИНОК"), ("e-stars", "★★★")):
        (ships / f"{file}.toml").write_text(lunar.replace('"Hammer of Thrace"', f'"{name}"'), encoding="utf-8")
    app = FlagbridgeApp(save_dir=tmp_path, start="new")
    async with app.run_test(size=(160, 48)) as pilot:
        # gothic; side 1 ticks the two Klinoks (after the library's 4 ships: Argo 4, Etoile 5, Klinoks 6 and 7),
        # side 2 Argo, Etoile and the stars
        burst(app, "down", "enter", *"Засада", "enter", *"Империум", "enter", *["down"] * 6, "space", "down", "space",
              "enter", *"Хаос", "enter", *["down"] * 4, "space", "down", "space", "down", "down", "down", "space",
              "enter")
        await idle(pilot)
        burst(app, "3", "0", "enter", "enter")  # the starting distance, the shipped tables
        await idle(pilot)
        assert isinstance(app.screen, ConsoleScreen), (question(app), message(app))
        enc = app.save.encounter
        assert sorted(enc.setup.ships) == sorted(["кровавый-клинок", "кровавый-клинок-2", "αργώ-νίκη",
                                                  "étoile-du-nord", "ship"])
        assert enc.setup.ships["кровавый-клинок"]["name"] == "Кровавый Клинок"
        assert app.screen.selected == "кровавый-клинок"
        burst(app, "c", *"клинок", "space", *"hits")
        await idle(pilot)
        assert isinstance(app.screen, CorrectionScreen)
        assert app.screen.query_one("Picker").state.current.value == "ships.кровавый-клинок.hits"
        burst(app, "enter", "5", "enter", *"по", "space", *"таблице", "enter")
        await idle(pilot)
        assert isinstance(app.screen, ConsoleScreen)
        last = enc.events[-1]
        assert last.kind == "correction" and last.data["path"] == ["ships", "кровавый-клинок", "hits"]
        assert enc.describe(last) == "correction: ships.кровавый-клинок.hits 8 -> 5 (по таблице)"
        path = app.save.path
    text = path.read_text(encoding="utf-8")
    assert '[setup.ships."кровавый-клинок"]' in text and '[state.ships."кровавый-клинок-2"]' in text
    again = SaveFile.load(path).encounter
    assert again.state == enc.state and again.state["ships"]["кровавый-клинок"]["hits"] == 5
    assert main(["check", str(path)]) == 0


def shown_whole(screen, selector: str) -> bool:
    """Whether the widget stands wholly inside its form's box on screen (a box clips what does not fit)."""
    box = screen.query_one("#form-box").region
    widget = screen.query_one(selector).region
    return widget.height > 0 and box.contains_region(widget)


async def test_a_refusal_and_the_quit_question_are_in_sight_in_a_small_terminal(tmp_path: Path) -> None:
    """Found by a game master's drive at 80x24 with four ships of his own beside the library's six: Enter with two
    ships named alike left the walk-through on the list without a word ("would be in the fight twice" stood below
    the box's edge), and q's "Quit and lose these answers?" was as hidden, so the next key answered a question he
    never saw. At 60x20 the list itself was cut after five ships. The list shrinks to the room left (it scrolls);
    what is said about the answer stays in sight."""
    from engine.files import load_unit

    ships = tmp_path / "ships"
    ships.mkdir()
    scout = Path(load_unit.__code__.co_filename).parents[1] / "rulesets" / "classic_hg" / "ships" / "scout.toml"
    for name in ("Alpha", "Beta", "Gamma", "Delta"):
        (ships / f"{name}.toml").write_text(scout.read_text().replace('"Far Horizon"', f'"{name}"'))
    for size in ((80, 24), (60, 20)):
        app = FlagbridgeApp(save_dir=tmp_path, start="new")
        async with app.run_test(size=size) as pilot:
            burst(app, "enter", *"Duel", "enter", *"Navy", "enter", "end", "space")
            await idle(pilot)
            assert shown_whole(app.screen, "TickList"), size
            burst(app, "enter", *"Raiders", "enter", "end", "space", "enter")  # the last ship again
            await idle(pilot)
            assert "would be in the fight twice" in message(app)
            assert shown_whole(app.screen, "#form-message"), size
            assert shown_whole(app.screen, "TickList"), size
            burst(app, "q")
            await idle(pilot)
            assert message(app).startswith("Quit and lose these answers?")
            assert shown_whole(app.screen, "#form-message"), size


async def test_the_unit_editors_value_and_its_refusal_are_in_sight_in_a_small_terminal(tmp_path: Path) -> None:
    """Found by a game master's drive at 80x24: Enter on a person's aim in the unit editor opened its value below
    the box's edge, so 'seventy' was typed blind and 'aim must be a whole number' never seen."""
    for size in ((80, 24), (60, 20)):
        app = FlagbridgeApp(save_dir=tmp_path, start="new")
        async with app.run_test(size=size) as pilot:
            burst(app, "down", "down", "down", "enter", *"Brawl", "enter", *"Crew", "enter", "e")
            await idle(pilot)
            editor = app.screen
            fields = editor.query_one("#form-options")
            names = [fields.get_option_at_index(i).id for i in range(fields.option_count)]
            burst(app, *["down"] * names.index("aim"), "enter", *"seventy", "enter")
            await idle(pilot)
            assert "aim must be a whole number" in str(editor.query_one("#form-message").render())
            assert shown_whole(editor, "#edit-value"), size
            assert shown_whole(editor, "#form-message"), size
            assert shown_whole(editor, "#form-options"), size


async def test_a_unit_cannot_be_renamed_to_nothing(tmp_path: Path) -> None:
    """Found by a game master's drive: the unit editor took "" (and "   ") as a ship's name, where the walk-through
    refuses an empty encounter or side name; the ship then stood nameless in the lists, the log and the forms."""
    app = FlagbridgeApp(save_dir=tmp_path, start="new")
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "enter", *"Duel", "enter", *"Navy", "enter", "e")
        await idle(pilot)
        editor = app.screen
        for typed in ('""', '"   "', "''"):
            burst(app, "enter", *[("space" if c == " " else c) for c in typed], "enter")
            await idle(pilot)
            assert "name" in str(editor.query_one("#form-message").render()), typed
            assert editor.editing == "name" and editor.unit["name"] == "Swift Dolan", typed
            control(app, "ctrl+u")
            burst(app, "escape")
            await idle(pilot)


def test_each_field_of_the_unit_editor_is_one_row_of_its_list() -> None:
    """Found by a game master's drive: Swift Dolan's hangars, occupants and turrets each took three rows of the
    editor's list ("hangars = [", "{ name = \\"Gig bay\\", small_craft = [", "{ name = \\"Gig…"), as TOML writes a
    list of tables over several lines. Each field is one row, cut at the list's width."""
    from tui.screens.unit_edit import SHOWN_WIDTH, shown

    hangars = [{"name": "Gig bay", "small_craft": [{"name": "Gig", "tons": 20}]}]
    row = shown(hangars)
    assert "\n" not in row and len(row) <= SHOWN_WIDTH and row.startswith('[{ name = "Gig bay", small_craft = [')
    assert shown([{"name": "A"}]) == '[{ name = "A" }]'
    assert shown("two\nlines") == '"two\\nlines"'  # a line break inside a text stays written as TOML writes it


async def test_a_list_of_tables_is_edited_on_one_line(tmp_path: Path) -> None:
    """Found by a game master's drive: Enter on Swift Dolan's hangars put TOML's several lines into the one-line
    field, and the terminal drew them across the box and below it. The field holds the value on one line, and
    Enter keeps it as it was."""
    app = FlagbridgeApp(save_dir=tmp_path, start="new")
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "enter", *"Duel", "enter", *"Navy", "enter")
        names = await editor_fields(app, pilot)
        editor = app.screen
        before = editor.unit["hangars"]
        burst(app, *["down"] * names.index("hangars"), "enter")
        await idle(pilot)
        typed = editor.query_one("#edit-value").value
        assert "\n" not in typed and typed.startswith('[{ name = "Gig bay"'), typed
        burst(app, "enter")
        await idle(pilot)
        assert editor.editing is None and editor.unit["hangars"] == before


async def test_a_third_side_is_added_and_a_side_removed_on_a_sides_list(tmp_path: Path) -> None:
    """Found by a game master's drive: the walk-through always asked for exactly two sides, though a megatraveller,
    gothic or percentile fight takes two or more (each ruleset's ``sides_allowed``; classic-hg's is a two-sided
    fight). On a side's list, a keeps its ticks and adds a side after it (its name is asked, then its units), and
    x removes that side; the sides after it move up a place, each with its name and units."""
    app = FlagbridgeApp(save_dir=tmp_path, start="new")
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "down", "down", "enter", *"Melee", "enter", *"Navy", "enter", "space", "enter", *"Raiders",
              "enter", "down", "space", "a")
        await idle(pilot)
        assert question(app).startswith("Name of side 3"), (question(app), message(app))
        burst(app, "escape")  # a side added by mistake: Esc before its name takes it out again
        await idle(pilot)
        assert "Raiders" in question(app) and message(app) == "side 3 not added" and app.screen.side_count == 2
        burst(app, "a", *"Pirates", "enter", "down", "down", "space", "a", *"Ghosts", "enter", "end", "space", "x")
        await idle(pilot)
        assert "Ghosts" in message(app) and "removed" in message(app)
        assert "Pirates" in question(app) and app.screen._asking.selected == ["2"]  # the last side's list again
        burst(app, "enter", "4", "enter", "enter")  # the starting range, the shipped tables
        await idle(pilot)
        assert isinstance(app.screen, ConsoleScreen), (question(app), message(app))
    setup = SaveFile.load(tmp_path / "Melee.toml").encounter.setup
    assert [(s["id"], s["name"]) for s in setup.sides] == [("side1", "Navy"), ("side2", "Raiders"),
                                                            ("side3", "Pirates")]
    assert sorted((s["side"], s["name"]) for s in setup.ships.values()) == [
        ("side1", "Red Lantern"), ("side2", "Hammer of Dlan"), ("side3", "Vigilance")]


async def test_a_side_removed_from_the_middle_hands_its_place_to_the_next(tmp_path: Path) -> None:
    """Removing side 2 of three (percentile) asks the name of the side that now stands second, shown so Enter keeps
    it, with its units still ticked; the units edited for a side stay that side's."""
    app = FlagbridgeApp(save_dir=tmp_path, start="new")
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "down", "down", "down", "enter", *"Alley", "enter", *"Crew", "enter", "down", "down", "space",
              "enter", *"Thugs", "enter", "space", "a", *"Salvagers", "enter", "down")
        await idle(pilot)
        names = await editor_fields(app, pilot)  # the Salvagers field Oolu Teb renamed
        burst(app, *["down"] * names.index("name"), "enter", *"Oolu_Tam", "enter", "escape")
        await idle(pilot)
        burst(app, "space", "enter")
        await idle(pilot)
        assert "Surprise" in question(app), (question(app), message(app))
        burst(app, "escape", "escape", "escape")  # back to the Thugs' list
        await idle(pilot)
        assert "Thugs" in question(app)
        burst(app, "x")
        await idle(pilot)
        assert question(app).startswith("Name of side 2") and app.screen._asking.value == "Salvagers"
        burst(app, "enter")
        await idle(pilot)
        assert "Salvagers" in question(app) and app.screen._asking.selected == ["1"]
        assert "Oolu_Tam" in str(app.screen._asking.get_option_at_index(1).prompt)
        burst(app, "x")  # two sides left: a percentile fight needs two
        await idle(pilot)
        assert "at least 2 sides" in message(app) and "Salvagers" in question(app)
        burst(app, "enter", "0", "enter", "2", "enter", "1", "enter", "1", "enter", "1", "enter", "1", "enter",
              "enter", "enter", "enter")  # and the shipped tables
        await idle(pilot)
        assert isinstance(app.screen, ConsoleScreen), (question(app), message(app))
    setup = SaveFile.load(tmp_path / "Alley.toml").encounter.setup
    assert [(s["id"], s["name"]) for s in setup.sides] == [("side1", "Crew"), ("side2", "Salvagers")]
    assert sorted((p["side"], p["name"]) for p in setup.people.values()) == [
        ("side1", "Sgt. Ilsa Marr"), ("side2", "Oolu_Tam")]


async def test_sides_are_added_only_up_to_what_the_ruleset_allows(tmp_path: Path, monkeypatch) -> None:
    """A classic-hg fight has exactly two sides: a and x on a side's list say so and change nothing. A ruleset
    with an upper limit refuses a side past it in the same words."""
    from engine.ruleset import find_ruleset

    app = FlagbridgeApp(save_dir=tmp_path, start="new")
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "enter", *"Duel", "enter", *"Navy", "enter", "space", "enter", *"Raiders", "enter", "down",
              "space", "a")
        await idle(pilot)
        assert message(app) == "a classic-hg fight has exactly 2 sides" and "Raiders" in question(app)
        burst(app, "x")
        await idle(pilot)
        assert message(app) == "a classic-hg fight has exactly 2 sides" and "Raiders" in question(app)
        assert "side3" not in app.screen.answers and app.screen._asking.selected == ["1"]
    monkeypatch.setattr(type(find_ruleset("megatraveller")), "sides_allowed", (2, 3))
    app = FlagbridgeApp(save_dir=tmp_path, start="new")
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "down", "down", "enter", *"Trio", "enter", *"Navy", "enter", "space", "enter", *"Raiders",
              "enter", "down", "space", "a", *"Pirates", "enter", "down", "down", "space", "a")
        await idle(pilot)
        assert message(app) == "a megatraveller fight has 2 to 3 sides" and "Pirates" in question(app)




async def test_a_second_sides_planetary_defence_is_refused_where_it_is_ticked(tmp_path: Path) -> None:
    """Found by a game master's drive (gothic): planetary defences are one player's, the one defending the planet
    (gothic-boarding-teleport.ru.txt, "ПЛАНЕТАРНАЯ ЗАЩИТА": "одному из игроков ... оборонять планету"), but a
    defence ticked for a second side was refused only after the last question, in the setup's words
    ("setup.defences.…: side must be side1 …"). It is refused on the list where it was ticked, in words naming
    the side that holds the defences; a third side's too."""
    app = FlagbridgeApp(save_dir=tmp_path, start="new")
    async with app.run_test(size=(160, 48)) as pilot:
        # side 1: the Lunar cruiser and the planetary battery; side 2: the Murder cruiser and the space platform
        burst(app, "down", "enter", *"Kessel", "enter", *"Navy", "enter", "down", "space", "down", "down", "down",
              "space", "enter", *"Rebels", "enter", "down", "down", "space", "down", "down", "down", "down", "space",
              "enter")
        await idle(pilot)
        said = message(app)
        assert "Rebels" in question(app), (question(app), said)
        assert "Kessel Space Platform" in said and "planetary defences" in said and "Navy" in said, said
        assert "side1" not in said and "setup." not in said, said
        burst(app, "space", "a", *"Raiders", "enter", "space", "end", "space", "enter")  # untick it; a third side
        await idle(pilot)
        said = message(app)
        assert "Raiders" in question(app) and "Kessel Armed Satellite" in said and "Navy" in said, said
        burst(app, "space", "enter", "2", "5", "enter", "enter")  # 25 cm, the shipped tables
        await idle(pilot)
        assert isinstance(app.screen, ConsoleScreen), (question(app), message(app))
    setup = SaveFile.load(tmp_path / "Kessel.toml").encounter.setup
    assert [(d["side"], d["name"]) for d in setup.units["defences"].values()] == [
        ("side1", "Kessel Planetary Battery")]
    assert len(setup.sides) == 3


async def test_a_house_table_file_is_named_in_an_optional_last_step(tmp_path: Path) -> None:
    """Found by a game master's drive: the walk-through had no way to point the encounter at a house table file
    (``[setup.options.tables]``, README "House-rule tables"); it had to be written into the save by hand. The last
    step lists the ruleset's tables: Enter on the first row keeps the shipped ones, Enter on a table asks for its
    file, read from the save folder. A path with no file, or a file that fails to load, is refused in the field
    where it was typed, naming the file and the entry; the file is left as it was."""
    from rulesets.megatraveller.tables import TABLE_SET
    from tui.cli import main

    house = tmp_path / "house"
    house.mkdir()
    shipped = TABLE_SET.shipped_path("difficulties").read_text(encoding="utf-8")
    bad = house / "bad.toml"
    bad.write_text(shipped.replace("routine = 7", 'routine = "seven"'), encoding="utf-8")
    (house / "difficulties.toml").write_text(shipped.replace("routine = 7", "routine = 8"), encoding="utf-8")
    app = FlagbridgeApp(save_dir=tmp_path, start="new")
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "down", "down", "enter", *"Picket", "enter", *"Navy", "enter", "space", "enter", *"Raiders",
              "enter", "down", "space", "enter", "4", "enter")
        await idle(pilot)
        assert "House tables" in question(app), (question(app), message(app))
        row = 1 + TABLE_SET.names.index("difficulties")
        burst(app, *["down"] * row, "enter", *"house/nope.toml", "enter")
        await idle(pilot)
        assert "difficulties" in question(app)
        assert message(app) == f"{tmp_path / 'house/nope.toml'}: no such table file (for table 'difficulties')"
        control(app, "ctrl+u")
        burst(app, *"house/bad.toml", "enter")
        await idle(pilot)
        assert message(app) == f"{bad}: levels.routine: expected a 2D target number 2..30, got 'seven'"
        assert bad.read_text(encoding="utf-8") == shipped.replace("routine = 7", 'routine = "seven"')
        control(app, "ctrl+u")
        burst(app, *"house/difficulties.toml", "enter")
        await idle(pilot)
        assert "House tables" in question(app), (question(app), message(app))
        rows = app.screen._asking
        assert "house/difficulties.toml" in str(rows.get_option_at_index(row).prompt)
        burst(app, "enter", "escape")  # its file shown again, and Esc keeps it as it was
        await idle(pilot)
        assert "House tables" in question(app) and app.screen._asking.highlighted == row
        burst(app, "home", "enter")
        await idle(pilot)
        assert isinstance(app.screen, ConsoleScreen), (question(app), message(app))
        path = app.save.path
    enc = SaveFile.load(path).encounter
    assert enc.setup.options == {"range": 4, "tables": {"difficulties": "house/difficulties.toml"}}
    assert enc.state["table_files"] == {"difficulties": "house/difficulties.toml"}
    assert main(["check", str(path)]) == 0


async def test_the_sides_keys_and_the_house_tables_step_are_in_sight_in_a_small_terminal(tmp_path: Path) -> None:
    """At 80x24 and 60x20 a third side's list and the house tables' list with a refused path stay inside the form,
    with what is said about them (the answers so far keep to one line under 24 rows), and the Footer shows a and x
    with q Quit still in sight."""
    for size in ((80, 24), (60, 20)):
        app = FlagbridgeApp(save_dir=tmp_path, start="new")
        async with app.run_test(size=size) as pilot:
            burst(app, "down", "down", "enter", *"Small", "enter", *"Navy", "enter", "space", "enter", *"Raiders",
                  "enter", "down", "space", "a", *"Pirates", "enter", "space", "enter")
            await idle(pilot)
            assert "Red Lantern would be in the fight twice" in message(app), size
            assert shown_whole(app.screen, "TickList") and shown_whole(app.screen, "#form-message"), size
            keys = {k.key: k.region for k in app.screen.query("FooterKey")}
            assert {"a", "escape", "q"} <= set(keys) and keys["q"].right <= size[0], (size, keys)
            burst(app, "space", "down", "down", "space", "enter", "4", "enter")
            await idle(pilot)
            assert "House tables" in question(app) and shown_whole(app.screen, "PagedOptionList"), size
            burst(app, "down", "enter", *"nope.toml", "enter")
            await idle(pilot)
            assert "no such table file" in message(app), size
            assert shown_whole(app.screen, "#form-message") and shown_whole(app.screen, "Input"), size


async def test_the_house_tables_list_takes_the_room_the_form_has(tmp_path: Path) -> None:
    """Found by a game master's drive of ``flagbridge new`` at 80x24 (percentile, whose last step lists ten rows):
    the list showed five of them with two empty rows under it, and the box stopped short of the Footer. The list
    now runs down to the box's padding and the box down to its margin above the Footer; at 160x48 every row is
    shown, and at 60x20 the list is still whole."""
    from textual.widgets import Footer, Input

    for size in ((80, 24), (160, 48), (60, 20)):
        app = FlagbridgeApp(save_dir=tmp_path, start="new")
        async with app.run_test(size=size) as pilot:
            burst(app, "down", "down", "down", "enter", *"Brawl", "enter", *"Crew", "enter", "space", "enter",
                  *"Raiders", "enter", "down", "space", "enter")
            await idle(pilot)
            for _ in range(12):  # each optional rule: its usual answer, or 1 where a number must be typed
                if "House tables" in question(app):
                    break
                burst(app, *(["1"] if isinstance(app.screen._asking, Input) else []), "enter")
                await idle(pilot)
            assert "House tables" in question(app), (size, question(app), message(app))
            rows = app.screen.query_one("PagedOptionList")
            box = app.screen.query_one("#form-box")
            assert rows.option_count == 10 and shown_whole(app.screen, "PagedOptionList"), size
            assert box.region.bottom == app.screen.query_one(Footer).region.y - box.styles.margin.bottom, size
            if rows.max_scroll_y:  # a list cut short runs down to the box's padding (its border: 1 row)
                assert rows.region.bottom == box.region.bottom - 1 - box.styles.padding.bottom, (size, rows.region,
                                                                                                  box.region)
            if size == (160, 48):
                assert rows.max_scroll_y == 0, rows.region  # all ten rows in sight
            if size == (80, 24):
                assert rows.scrollable_content_region.height == 8, rows.region


async def test_the_unit_editors_footer_names_the_editors_keys(tmp_path: Path) -> None:
    """The unit editor sat over the walk-through's Footer, which offered ⏎ Done, e Edit, a Add side and esc Back,
    none of them what those keys do in the editor: its own Footer names what Enter, Esc and q do on its list of
    fields and in a field, where q is a letter."""
    from tests.tui.conftest import screen_text
    from tui.screens.unit_edit import UnitEditScreen

    app = FlagbridgeApp(save_dir=tmp_path, start="new")
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "down", "down", "down", "enter", *"Quiet", "enter", *"Quinn", "enter", "e")
        await idle(pilot)
        assert isinstance(app.screen, UnitEditScreen)
        bottom = screen_text(app).splitlines()[-1]  # the list of fields
        for wrong in ("Add side", "Back", "⏎ Done", "e Edit"):
            assert wrong not in bottom, bottom
        assert "⏎ Edit" in bottom and "esc Done" in bottom and "q Quit" in bottom, bottom
        burst(app, "enter")  # the name, typed
        await idle(pilot)
        bottom = screen_text(app).splitlines()[-1]
        assert "⏎ Keep" in bottom and "esc Back" in bottom, bottom
        assert "Quit" not in bottom and "Edit" not in bottom and "Done" not in bottom, bottom
        burst(app, *"Quade", "enter")  # q is a letter of the name, as before
        await idle(pilot)
        assert app.screen.unit["name"] == "Quade" and app.return_code is None
        bottom = screen_text(app).splitlines()[-1]  # back on the list
        assert "⏎ Edit" in bottom and "esc Done" in bottom and "Keep" not in bottom, bottom
        burst(app, "escape")
        await idle(pilot)
        assert not isinstance(app.screen, UnitEditScreen)
        assert "e Edit" in screen_text(app).splitlines()[-1]
