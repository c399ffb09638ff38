"""Setting up a new encounter from the keyboard, and the start screen's demo copy."""

from __future__ import annotations

from pathlib import Path

from engine.saves import SaveFile
from tui.app import FlagbridgeApp
from tui.screens.console import ConsoleScreen


async def type_text(pilot, text: str) -> None:
    await pilot.press(*[("space" if c == " " else c) for c in text])


async def test_new_megatraveller_encounter_by_keys(tmp_path: Path) -> None:
    app = FlagbridgeApp(save_dir=tmp_path, start="new")
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("down", "down", "enter")          # ruleset: megatraveller (after classic-hg, gothic)
        await pilot.press("enter")                          # an empty name is refused
        assert "this field is needed" in str(app.screen.query_one("#form-message").render())
        await type_text(pilot, "Picket")
        await pilot.press("enter")
        await type_text(pilot, "Navy")
        await pilot.press("enter")
        await pilot.press("space", "enter")                 # the first ship of the library
        await type_text(pilot, "Raiders")
        await pilot.press("enter")
        await pilot.press("down", "space", "enter")         # the second ship
        await pilot.press("enter")                          # nothing typed: a number is asked for, not a name
        assert "this field is needed: type a number" in str(app.screen.query_one("#form-message").render())
        await pilot.press("x", "4", "enter")                # a letter in a number: refused whole, not left out
        assert "type a whole number from 0 to" in str(app.screen.query_one("#form-message").render())
        await pilot.press("backspace", "backspace", "4", "enter")  # starting range in squares
        await pilot.press("enter")                          # the shipped tables
        await pilot.pause()
        assert isinstance(app.screen, ConsoleScreen)
    path = tmp_path / "Picket.toml"
    enc = SaveFile.load(path).encounter
    assert enc.setup.ruleset == "megatraveller" and enc.setup.options == {"range": 4}
    assert [s["name"] for s in enc.setup.sides] == ["Navy", "Raiders"]
    assert len(enc.setup.ships) == 2


async def test_escape_goes_back_one_question_and_leaves_only_from_the_first(tmp_path: Path) -> None:
    """Found by a game master's drive: Esc on any question of ``flagbridge new`` ended the program and threw the
    answers away, though the footer says "esc Back". It goes back a question; from the first it leaves."""
    app = FlagbridgeApp(save_dir=tmp_path, start="new")
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("down", "down", "enter")          # megatraveller
        await type_text(pilot, "Picket")
        await pilot.press("enter")
        await type_text(pilot, "Navy")
        await pilot.press("enter")
        await pilot.press("escape")                         # back to the side's name
        assert "Name of side 1" in str(app.screen.query_one("#form-question").render())
        await type_text(pilot, "Fleet")
        await pilot.press("enter", "space", "enter")
        await type_text(pilot, "Raiders")
        await pilot.press("enter", "down", "space", "enter")
        await pilot.press("escape", "escape")               # back from the range to the second side's ships, its name
        assert "Name of side 2" in str(app.screen.query_one("#form-question").render())
        await type_text(pilot, "Pirates")                   # in place of "Raiders", shown selected
        await pilot.press("enter", "enter", "4", "enter")   # the ship ticked before is ticked still: Enter keeps it
        await pilot.press("enter")                          # the shipped tables
        await pilot.pause()
        assert isinstance(app.screen, ConsoleScreen) and app.return_code is None
    enc = SaveFile.load(tmp_path / "Picket.toml").encounter
    assert [s["name"] for s in enc.setup.sides] == ["Fleet", "Pirates"] and len(enc.setup.ships) == 2
    app = FlagbridgeApp(save_dir=tmp_path, start="new")
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("escape")                         # the first question: nothing to lose, the program ends
        await pilot.pause()
        assert app.return_code == 0


async def test_space_then_down_in_one_burst_ticks_the_row_space_was_pressed_on(tmp_path: Path) -> None:
    """Keys typed in one burst are handled in order: Space, Down ticked the row below (the list's tick waited for
    a message, by which time Down had moved the highlight)."""
    from tests.tui.test_bursts import burst, idle

    app = FlagbridgeApp(save_dir=tmp_path, start="new")
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("enter")
        await type_text(pilot, "Duel")
        await pilot.press("enter")
        await type_text(pilot, "Navy")
        await pilot.press("enter")
        burst(app, "space", "down")
        await idle(pilot)
        ticks = app.screen.query_one("TickList")
        assert ticks.selected == ["0"] and ticks.highlighted == 1


async def test_answers_typed_in_one_burst_are_taken_in_order(tmp_path: Path) -> None:
    """A game master's keys may arrive in one burst: each goes to the question asked when it comes.

    "Enter Duel Enter Navy Enter" typed at once first crashed ``flagbridge new`` (KeyError 'side1': the ruleset
    list, still in focus, chose twice), then lost every key after the first Enter; and "Alley Enter Crew Enter"
    named the encounter "AlleyCrew" (a game master's drive). The screen now takes each key itself, in order."""
    from tests.tui.test_bursts import burst, idle

    app = FlagbridgeApp(save_dir=tmp_path, start="new")
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "enter", *"Duel", "enter", *"Navy", "enter", "space", "enter", *"Pirates", "enter",
              "down", "space", "enter")
        await idle(pilot)
        assert app.return_code is None
        assert app.screen.answers == {"ruleset": "classic-hg", "name": "Duel", "side1": "Navy", "ships1": [0],
                                      "side2": "Pirates", "ships2": [1]}
        burst(app, "escape", "escape", *"Rovers", "enter")  # from the crew hits question back to side 2's name
        await idle(pilot)
        assert app.screen.answers["side2"] == "Rovers" and "ships2" not in app.screen.answers
    app = FlagbridgeApp(save_dir=tmp_path, start="new")
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "down", "down", "down", "enter", *"Alley", "enter", *"Crew", "enter")
        await idle(pilot)
        assert app.screen.answers == {"ruleset": "percentile", "name": "Alley", "side1": "Crew"}


async def test_a_burst_of_enters_on_the_start_screen_opens_one_screen(tmp_path: Path) -> None:
    """Found by random keys in bursts: two Enters on the start screen's demo (or "n" twice) opened two consoles
    (two setup screens) and the app crashed on the second's id. The first choice is the one taken."""
    from tests.tui.test_bursts import burst, idle
    from tui.screens.setup import SetupScreen

    app = FlagbridgeApp(save_dir=tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await idle(pilot)
        burst(app, "down", "enter", "enter", "enter")
        await idle(pilot)
        assert isinstance(app.screen, ConsoleScreen) and app.return_code is None
        assert sum(isinstance(s, ConsoleScreen) for s in app.screen_stack) == 1
    app = FlagbridgeApp(save_dir=tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await idle(pilot)
        burst(app, "n", "n", "enter")
        await idle(pilot)
        assert sum(isinstance(s, SetupScreen) for s in app.screen_stack) == 1 and app.return_code is None


async def test_esc_closes_the_start_screens_path_field_and_o_opens_it_empty(tmp_path: Path) -> None:
    """Found by a game master's drive: once o opened the path field, Esc did nothing (n, o and q went into the
    field), and after a failed open the next o added to the old path."""
    from textual.widgets import Input, OptionList

    app = FlagbridgeApp(save_dir=tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("o", *"nope.toml", "escape")
        field = app.screen.query_one("#start-path", Input)
        assert not field.display and isinstance(app.focused, OptionList)
        await pilot.press("o")
        assert field.display and field.value == "" and app.focused is field
        await pilot.press(*"nope.toml", "enter")  # no such file: the load-error screen
        await pilot.pause()
        assert app.screen.__class__.__name__ == "LoadErrorScreen"
        await pilot.press("escape")  # back: the list has the keys, so o opens the field afresh
        await pilot.pause()
        await pilot.press("o")
        assert field.display and field.value == ""


async def test_a_path_typed_on_after_a_burst_goes_on_the_end(tmp_path: Path) -> None:
    """Found while fixing the walk-through: "o nope" in one burst, then ".toml", left ".toml" in the path field (it
    selected what was in it when the focus reached it, after the burst)."""
    from tests.tui.test_bursts import burst, idle

    app = FlagbridgeApp(save_dir=tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await idle(pilot)
        burst(app, "o", *"nope")
        await idle(pilot)
        burst(app, *".toml")
        await idle(pilot)
        assert app.screen.query_one("#start-path").value == "nope.toml"


async def test_start_screen_opens_a_fresh_demo_copy(tmp_path: Path) -> None:
    app = FlagbridgeApp(save_dir=tmp_path, start="start")
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("down", "enter")                  # "Demo: classic-hg (a fresh copy)"
        await pilot.pause()
        assert isinstance(app.screen, ConsoleScreen)
    copies = list(tmp_path.glob("play-classic-hg-*.toml"))
    assert len(copies) == 1


async def test_a_new_encounter_refuses_names_twice_and_numbers_too_large(tmp_path: Path) -> None:
    """Issue 9: `flagbridge new` refuses two sides or two ships with the same name, bounds numbers,
    and shows a side called `Navy [/bold]` as text."""
    app = FlagbridgeApp(save_dir=tmp_path, start="new")
    async with app.run_test(size=(160, 48)) as pilot:
        message = lambda: str(app.screen.query_one("#form-message").render())  # noqa: E731
        await pilot.press("down", "down", "enter")          # megatraveller (after classic-hg, gothic)
        await type_text(pilot, "Twice")
        await pilot.press("enter")
        await type_text(pilot, "Navy [/bold]")
        await pilot.press("enter")
        await pilot.press("space", "enter")                 # the first ship of the library
        await type_text(pilot, "navy [/bold]")
        await pilot.press("enter")
        assert "already called 'Navy [/bold]'" in message()
        for _ in range(12):
            await pilot.press("backspace")
        await type_text(pilot, "Raiders")
        await pilot.press("enter")
        await pilot.press("space", "enter")                 # the same ship again, for the other side
        assert "would be in the fight twice" in message()
        await pilot.press("space", "down", "space", "enter")
        await type_text(pilot, "999999999999999999999999")
        await pilot.press("enter")
        assert "type a whole number from 0 to" in message()
        assert not (tmp_path / "Twice.toml").exists()


async def test_the_start_screen_lists_saves_opened_from_any_folder(tmp_path: Path, monkeypatch) -> None:
    """Issue 9: recent saves from any folder used, kept in the user's config folder."""
    import shutil

    from tui.recent import recent_paths

    elsewhere = tmp_path / "campaign"
    elsewhere.mkdir()
    path = elsewhere / "night-3.toml"
    shutil.copyfile(Path(__file__).resolve().parents[2] / "saves" / "demo-classic-hg.toml", path)
    app = FlagbridgeApp(SaveFile.load(path), save_dir=elsewhere)
    async with app.run_test(size=(120, 30)):
        pass
    assert recent_paths() == [path.resolve()]
    app = FlagbridgeApp(save_dir=tmp_path / "empty", start="start")
    async with app.run_test(size=(120, 30)) as pilot:
        options = app.screen.query_one("#start-options")
        ids = [options.get_option_at_index(i).id for i in range(options.option_count)]
        assert f"open:{path.resolve()}" in ids
        await pilot.press("end", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ConsoleScreen) and app.save.path.resolve() == path.resolve()


async def test_a_ship_is_edited_for_this_encounter_without_touching_its_file(tmp_path: Path) -> None:
    """Issue 9: what an import assumed (fuel, crew, programs) can be changed in `flagbridge new`;
    a bad value is refused where it was typed, and the library file stays as it was."""
    from tui.screens.unit_edit import UnitEditScreen

    app = FlagbridgeApp(save_dir=tmp_path, start="new")
    async with app.run_test(size=(160, 48)) as pilot:
        message = lambda: str(app.screen.query_one("#form-message").render())  # noqa: E731
        await pilot.press("enter")                          # ruleset: classic-hg
        await type_text(pilot, "Edited")
        await pilot.press("enter")
        await type_text(pilot, "Navy")
        await pilot.press("enter")
        setup = app.screen
        first = setup.library[0]
        await pilot.press("e")                              # edit the highlighted (first) ship
        assert isinstance(app.screen, UnitEditScreen)
        names = [app.screen.query_one("#form-options").get_option_at_index(i).id
                 for i in range(app.screen.query_one("#form-options").option_count)]
        await pilot.press(*["down"] * names.index("fuel"), "enter")
        await pilot.press("end", *["backspace"] * 12)
        await type_text(pilot, "lots")
        await pilot.press("enter")
        assert "fuel must be a whole number" in message()
        await pilot.press(*["backspace"] * 4)
        await type_text(pilot, "33")
        await pilot.press("enter")
        assert "fuel is now 33" in message()
        await pilot.press("up", "enter", "end", *["backspace"] * 80)   # the field before fuel: program_library
        await type_text(pilot, '["NO SUCH PROGRAM"]')
        await pilot.press("enter")
        assert "NO SUCH PROGRAM" in message()
        await pilot.press("escape", "escape")               # back to the list, then done
        assert app.screen is setup
        await pilot.press("space", "enter")
        await type_text(pilot, "Raiders")
        await pilot.press("enter")
        await pilot.press("down", "space", "enter")
        await pilot.press("enter")                          # crew hits: personal combat, offered first
        await pilot.press("enter")                          # the shipped tables
        await pilot.pause()
    enc = SaveFile.load(tmp_path / "Edited.toml").encounter
    assert enc.setup.options == {"crew_combat": "percentile"}
    navy = [s for s in enc.setup.ships.values() if s["side"] == "side1"]
    assert [s["fuel"] for s in navy] == [33]
    from engine.files import load_unit

    assert load_unit(first[0], "ship")[2]["fuel"] == first[2]["fuel"] != 33  # the file is unchanged


async def test_a_percentile_encounter_asks_every_steps_procedure_and_the_optional_rules(tmp_path: Path) -> None:
    """"For each of the five steps you may choose to incorporate anyone of its procedures"
    (percentile-personal-combat.txt, COMBAT - STEP BY STEP): the action procedure, the procedure primary attack 3
    rolls each round, borrowing, grazing shots and organ damage are asked too (found by an audit: they could only
    be set by editing the save). The usual answer is highlighted, so Enter keeps it; a digit or a letter typed
    picks the choice it begins (found by a game master's drive: a typed 2 was ignored and Enter kept 1)."""
    app = FlagbridgeApp(save_dir=tmp_path, start="new")
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("down", "down", "down", "enter")  # percentile
        await type_text(pilot, "Alley")
        await pilot.press("enter")
        await type_text(pilot, "Crew")
        await pilot.press("enter", "space", "enter")
        await type_text(pilot, "Thugs")
        await pilot.press("enter", "down", "space", "enter")
        await pilot.press("1", "enter")                     # surprise 1
        await pilot.press("3", "enter")                     # primary attack 3
        await pilot.press("2", "enter")                     # ... rolling procedure 2 each round
        await pilot.press("enter")                          # action procedure 2, the usual one, highlighted
        await pilot.press("2", "enter", "2", "enter", "5", "enter")  # to hit 2, damage 2, 5 sub-turns
        assert "borrowed" in str(app.screen.query_one("#form-question").render())
        await pilot.press("n", "enter")                     # no borrowing
        await pilot.press("y", "enter")                     # grazing shots: yes
        # as chosen, not True; each option's answer after its name (a drive read "2 · 3 · 2 · 2 · 2 · 3 · 4 · no")
        assert str(app.screen.query_one("#form-done").render()).endswith(
            "· surprise 1 · primary 3 · primary each round 2 · action 2 · to hit 2 · damage 2 · subturns 5 · "
            "borrowing no · grazing yes")
        await pilot.press("enter")                          # organ damage: no, the usual
        await pilot.press("enter")                          # the shipped tables
        await pilot.pause()
        assert isinstance(app.screen, ConsoleScreen)
    enc = SaveFile.load(tmp_path / "Alley.toml").encounter
    assert enc.setup.options == {"surprise": 1, "primary": 3, "primary_each_round": 2, "action": 2, "to_hit": 2,
                                 "damage": 2, "subturns": 5, "borrowing": False, "grazing": True, "organs": False}
    assert enc.state["options"]["primary_each_round"] == 2 and enc.state["options"]["grazing"] is True


async def test_a_question_that_does_not_apply_is_not_asked(tmp_path: Path) -> None:
    """Found by a game master's drive: the procedure primary attack 3 rolls each round was asked with primary
    attack 2, and borrowing with action procedure 1 (no Agility Points to borrow)."""
    from tests.tui.test_bursts import burst, idle

    app = FlagbridgeApp(save_dir=tmp_path, start="new")
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "down", "down", "down", "enter", *"Yard", "enter", *"Crew", "enter", "space", "enter",
              *"Thugs", "enter", "down", "space", "enter", "0", "enter", "2", "enter", "1", "enter", "1", "enter",
              "1", "enter", "1", "enter", "enter", "enter", "enter")  # and the shipped tables
        await idle(pilot)
        assert isinstance(app.screen, ConsoleScreen)
    options = SaveFile.load(tmp_path / "Yard.toml").encounter.setup.options
    assert options == {"surprise": 0, "primary": 2, "action": 1, "to_hit": 1, "damage": 1, "subturns": 1,
                       "grazing": False, "organs": False}


async def test_a_field_typed_in_a_burst_replaces_the_old_value(tmp_path: Path) -> None:
    """Found by a game master's drive: in the unit editor "1 5 0 Enter" gave perception 58150 (typed after the old
    value), and "Enter Backspace 7" typed at once depended on speed. As in a correction, the old value is shown
    selected: typing replaces it, Backspace edits it; in a burst as typed slowly."""
    from tests.tui.test_bursts import burst, idle

    app = FlagbridgeApp(save_dir=tmp_path, start="new")
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "enter", *"Duel", "enter", *"Navy", "enter", "e")  # classic-hg: edit the first ship
        await idle(pilot)
        editor = app.screen
        names = [editor.query_one("#form-options").get_option_at_index(i).id
                 for i in range(editor.query_one("#form-options").option_count)]
        burst(app, *["down"] * names.index("fuel"), "enter", "3", "0", "enter")
        await idle(pilot)
        assert editor.unit["fuel"] == 30
        burst(app, "enter", "backspace", "7", "enter")  # 30 -> 3 -> 37
        await idle(pilot)
        assert editor.unit["fuel"] == 37


async def test_a_save_opens_on_the_unit_selected_when_it_was_closed(tmp_path: Path) -> None:
    """Resuming "exactly where it stopped": the selected ship is kept beside the recent-saves list (the save
    holds the fight alone), and a unit no longer in the fight, or a list that cannot be read, falls back to the
    first unit without a word."""
    import shutil

    from tui.recent import recent_file, recent_paths, selected_unit

    path = tmp_path / "night-3.toml"
    shutil.copyfile(Path(__file__).resolve().parents[2] / "saves" / "demo-classic-hg.toml", path)
    app = FlagbridgeApp(SaveFile.load(path), save_dir=tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        first = app.screen.selected
        await pilot.press("down")
        await pilot.pause()
        chosen = app.screen.selected
    assert chosen != first and selected_unit(path) == chosen and recent_paths() == [path.resolve()]
    app = FlagbridgeApp(SaveFile.load(path), save_dir=tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        assert app.screen.selected == chosen
        await pilot.press("up")
        await pilot.pause()
    assert selected_unit(path) == first
    recent_file().write_text(recent_file().read_text().replace(f'= "{first}"', '= "gone"'))
    app = FlagbridgeApp(SaveFile.load(path), save_dir=tmp_path)
    async with app.run_test(size=(160, 48)):
        assert app.screen.selected == first
    recent_file().write_text("[selected\n")
    app = FlagbridgeApp(SaveFile.load(path), save_dir=tmp_path)
    async with app.run_test(size=(160, 48)):
        assert app.screen.selected == first


async def test_a_save_folder_that_became_a_file_is_said_in_words(tmp_path: Path) -> None:
    """``flagbridge new`` refuses a save folder that is a file before it asks anything; one that turns into a file
    while the questions are answered is said at the last one in words naming it (it showed "[Errno 17] File
    exists: ..."), and the answers stay to try again."""
    folder = tmp_path / "saves"
    app = FlagbridgeApp(save_dir=folder, start="new")
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("down", "down", "enter")
        for words in ("Picket", "Navy"):
            await type_text(pilot, words)
            await pilot.press("enter")
        await pilot.press("space", "enter")
        await type_text(pilot, "Raiders")
        await pilot.press("enter")
        await pilot.press("down", "space", "enter")
        folder.write_text("not a folder")
        await pilot.press("4", "enter", "enter")            # the range, the shipped tables
        await pilot.pause()
        said = str(app.screen.query_one("#form-message").render())
        assert said == f"cannot save in {folder}: File exists" and not isinstance(app.screen, ConsoleScreen)
    assert folder.read_text() == "not a folder"
