"""Keys that arrive in one burst are taken in order by whatever screen they are meant for (issue 9).

A paste, a laggy SSH link or a fast game master delivers several keys in one
terminal read. Each test posts a burst the way the terminal driver does (no wait
between keys) and checks that the result is what the same keys typed slowly give.
"""

from __future__ import annotations

from pathlib import Path

from textual import events

from engine.saves import SaveFile
from tui.app import FlagbridgeApp

NAMED = {"ctrl+right": None, "circumflex_accent": "^", "left": None, "right": None, "home": None, "end": None, "pageup": None, "pagedown": None, "enter": "\r", "escape": "\x1b", "space": " ", "backspace": "\x7f", "down": None, "up": None}


def burst(app: FlagbridgeApp, *keys: str) -> None:
    for key in keys:
        if key in NAMED:
            app.post_message(events.Key(key, NAMED[key]))
        else:
            app.post_message(events.Key(key, key))


async def idle(pilot) -> None:
    for _ in range(5):
        await pilot.pause()


async def to_step_3(pilot, app: FlagbridgeApp) -> None:
    burst(app, "i", "4", "enter", "2", "enter", "n", "n")
    await idle(pilot)
    assert app.save.encounter.state["step"] == 3


async def fire_form_at_step_3(pilot, app: FlagbridgeApp) -> None:
    """The console played to step 3, and f: the fire form is open."""
    await to_step_3(pilot, app)
    burst(app, "f")
    await idle(pilot)
    assert app.screen.__class__.__name__ == "ActionScreen"


async def test_a_form_answered_in_one_burst(demo_app: FlagbridgeApp) -> None:
    """f, Enter (first ship), Down Down Space Enter (tick T3), Enter (first target), Enter (rolled
    location), all at once: the same fire order as typed slowly."""
    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        await to_step_3(pilot, app)
        burst(app, "f", "enter", "down", "down", "space", "enter", "enter", "enter")
        await idle(pilot)
        enc = app.save.encounter
        fire = enc.events[-1]
        assert fire.kind == "action" and fire.data["name"] == "fire"
        assert fire.data["args"]["turrets"] == ["T3"] and fire.data["args"]["target"] == "red-lantern"
        assert enc.pending is not None and "T3" in enc.pending.purpose


async def test_a_stray_enter_never_rolls_but_a_second_one_does(demo_app: FlagbridgeApp) -> None:
    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        enc = app.save.encounter
        burst(app, "i", "enter")
        await idle(pilot)
        assert enc.pending is not None and len(enc.events) == 1       # the stray Enter asked, rolled nothing
        assert "Enter again" in str(app.screen.query_one("#prompt").render())
        burst(app, "enter")
        await idle(pilot)
        assert len(enc.events) == 2 and enc.events[-1].data["source"] == "roller"
        burst(app, "3", "enter")                                      # typed dice go at once
        await idle(pilot)
        assert enc.events[-1].data["faces"] == [3]


async def test_erasing_and_typing_in_a_correction_in_one_burst(demo_app: FlagbridgeApp) -> None:
    """The issue's `BSpace BSpace a b c Enter` gave `18a`: now each key edits the value in order."""
    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        enc = app.save.encounter
        burst(app, "c", *"fuel", "space", "=", "space", "1", "enter", "backspace", "backspace", "backspace",
              "9", "0", "enter", "enter", "enter")
        await idle(pilot)
        assert enc.state["ships"]["swift-dolan"]["fuel"] == 90
        assert [e.kind for e in enc.events] == ["correction"]            # one correction, however many Enters
        assert app.screen.__class__.__name__.startswith("ConsoleScreen")


async def test_q_with_dice_typed_asks_first(demo_app: FlagbridgeApp, demo_path: Path) -> None:
    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "i", "4", "q")
        await idle(pilot)
        assert app.return_code is None and "q again to quit" in str(app.screen.query_one("#prompt").render())
        burst(app, "escape", "enter", "enter")  # clear, then roll deliberately: nothing is lost
        await idle(pilot)
        assert len(app.save.encounter.events) == 2
    assert len(SaveFile.load(demo_path).encounter.events) == 2


async def test_u_with_dice_typed_asks_first(demo_app: FlagbridgeApp) -> None:
    """Found by a game master's drive: a stray u among typed dice undid the whole action and dropped the dice.
    As q does, it asks first; u again undoes, any other key (a die) goes on typing."""
    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        enc = app.save.encounter
        burst(app, "i", "4", "u")
        await idle(pilot)
        assert len(enc.events) == 1 and enc.pending is not None
        assert "u again to undo" in str(app.screen.query_one("#prompt").render())
        burst(app, "enter", "2", "enter")  # the 4 was kept: rolled as typed
        await idle(pilot)
        assert [e.kind for e in enc.events] == ["action", "roll", "roll"] and enc.events[1].data["faces"] == [4]
        burst(app, "u")  # nothing typed: u undoes at once
        await idle(pilot)
        assert enc.events == []
        burst(app, "i", "5", "u", "u")  # typed, then u twice: the second undoes
        await idle(pilot)
        assert enc.events == [] and enc.pending is None


async def test_undo_and_redo_say_what_they_took_back(demo_app: FlagbridgeApp) -> None:
    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "i", "4", "enter", "2", "enter", "u")
        await idle(pilot)
        prompt = str(app.screen.query_one("#prompt").render())
        assert "Undone: roll initiative (and its 2 rolls)" in prompt
        burst(app, "ctrl+r")
        await idle(pilot)
        assert "Redone: roll initiative (and its 2 rolls)" in str(app.screen.query_one("#prompt").render())


async def test_the_last_undo_or_redo_says_nothing_more_is_left(demo_app: FlagbridgeApp) -> None:
    """Found driving the console: a second u with nothing left does nothing (the key is off), and "Undone: ..."
    stayed, as if a second group had been taken back. The last one says that nothing more is left."""
    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "i", "4", "enter", "2", "enter", "n", "u")
        await idle(pilot)
        assert str(app.screen.query_one("#prompt").render()).endswith("Undone: next")
        burst(app, "u")
        await idle(pilot)
        assert str(app.screen.query_one("#prompt").render()).endswith(
            "Undone: roll initiative (and its 2 rolls) · nothing more to undo")
        burst(app, "u")  # one more: there is nothing to undo, and it says so
        await idle(pilot)
        assert app.screen.message.startswith("Nothing to undo")
        burst(app, "ctrl+r", "ctrl+r")
        await idle(pilot)
        assert str(app.screen.query_one("#prompt").render()).endswith("Redone: next · nothing more to redo")
        burst(app, "ctrl+r")  # one more: there is nothing to redo, and it says so
        await idle(pilot)
        assert app.screen.message.startswith(NOTHING_TO_REDO)


async def test_redo_with_nothing_to_redo_says_so(demo_app: FlagbridgeApp) -> None:
    """Found by a game master: ctrl+r with nothing to redo (nothing undone yet, or a new action since the undo)
    said nothing, so a press that did nothing looked like one not taken. It says there is nothing to redo, and
    changes nothing; the palette's Redo says the same."""
    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        enc = app.save.encounter
        burst(app, "ctrl+r")
        await idle(pilot)
        assert enc.events == [] and NOTHING_TO_REDO in str(app.screen.query_one("#prompt").render())
        burst(app, "i", "4", "enter", "2", "enter", "u", "i", "3", "enter", "2", "enter")  # undone, then done anew
        await idle(pilot)
        logged = list(enc.events)
        burst(app, "ctrl+r")
        await idle(pilot)
        assert enc.events == logged and NOTHING_TO_REDO in str(app.screen.query_one("#prompt").render())
        burst(app, "u")
        await idle(pilot)
        assert app.screen.message.startswith("Undone: roll initiative")  # the word is for that press alone
        burst(app, "ctrl+r", "ctrl+r")
        await idle(pilot)
        assert enc.events == logged and NOTHING_TO_REDO in app.screen.message
        app.screen.message = ""
        app.screen.action_redo()  # the command palette's Redo
        assert enc.events == logged and NOTHING_TO_REDO in app.screen.message


NOTHING_TO_REDO = "Nothing to redo"


async def test_undo_with_nothing_to_undo_says_so(demo_app: FlagbridgeApp) -> None:
    """As redo: u on an empty log (a fresh fight, or everything taken back) said nothing. It says the log is
    empty, and changes nothing; the palette's Undo says the same."""
    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        enc = app.save.encounter
        burst(app, "u")
        await idle(pilot)
        assert enc.events == [] and "Nothing to undo" in str(app.screen.query_one("#prompt").render())
        burst(app, "i", "4", "enter", "2", "enter", "u")
        await idle(pilot)
        assert enc.events == [] and app.screen.message.startswith("Undone: roll initiative")
        burst(app, "u")
        await idle(pilot)
        assert enc.events == [] and "Nothing to undo" in app.screen.message
        burst(app, "ctrl+r")
        await idle(pilot)
        assert len(enc.events) == 3 and app.screen.message.startswith("Redone")
        app.screen.message = ""
        enc.undo()
        app.screen.action_undo()  # the command palette's Undo
        assert "Nothing to undo" in app.screen.message

async def test_the_recap_shows_this_turn_and_the_fight(demo_app: FlagbridgeApp) -> None:
    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "i", "4", "enter", "2", "enter", "v")
        await idle(pilot)
        assert app.screen.__class__.__name__ == "RecapScreen"
        text = " ".join(str(w.render()) for w in app.screen.query("Static"))
        assert "Turn 1 so far" in text and "roll initiative" in text and "The fight since it began" in text
        await pilot.press("escape")
        assert app.screen.__class__.__name__.startswith("ConsoleScreen")


async def closes_on_q_naming_its_own_keys(app: FlagbridgeApp, pilot, key: str, screen: str, absent: tuple[str, ...],
                                         named: str) -> None:
    """``key`` opens ``screen``, whose bottom line names ``named`` and none of the console's keys ``absent``; q there
    closes it, quitting nothing, and the console's Footer (q Quit) is back."""
    from tests.tui.conftest import screen_text

    burst(app, key)
    await idle(pilot)
    assert app.screen.__class__.__name__ == screen
    bottom = screen_text(app).splitlines()[-1]
    assert not [word for word in absent if word in bottom], bottom
    assert named in bottom, bottom
    await pilot.press("q")
    await idle(pilot)
    assert app.is_running and app.screen.__class__.__name__.startswith("ConsoleScreen")
    assert "q Quit" in screen_text(app).splitlines()[-1]


async def test_the_recap_footer_names_the_recaps_keys(demo_app: FlagbridgeApp) -> None:
    """With the recap open, the bottom line still showed the console's keys (u Undo, q Quit) while q closed
    the recap: the Footer on the recap names what its own keys do, and q there closes it, quitting nothing."""
    async with demo_app.run_test(size=(160, 48)) as pilot:
        await closes_on_q_naming_its_own_keys(demo_app, pilot, "v", "RecapScreen", ("Quit", "Undo", "Correct"),
                                              "esc/q/v Close")


async def test_the_help_footer_names_the_helps_keys(demo_app: FlagbridgeApp) -> None:
    """As the recap's did, the bottom line under help still showed the console's keys (n Next step, u Undo,
    q Quit) while q closed help: help's own Footer names its keys, and q there closes it, quitting nothing."""
    async with demo_app.run_test(size=(160, 48)) as pilot:
        await closes_on_q_naming_its_own_keys(demo_app, pilot, "question_mark", "HelpScreen", ("Quit", "Undo", "Next"),
                                              "esc/?/q Close")


async def test_the_form_footer_names_the_forms_keys(demo_app: FlagbridgeApp) -> None:
    """The fire form sat over the console's Footer, which offered n Next step, u Undo and q Quit, keys the form
    takes as filter letters: its own Footer names what Enter, Space and Esc do at each question."""
    from tests.tui.conftest import screen_text

    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        await fire_form_at_step_3(pilot, app)
        bottom = screen_text(app).splitlines()[-1]  # the ship: one from a list
        for wrong in ("Next", "Undo", "Quit", "Fire", "Correct"):
            assert wrong not in bottom, bottom
        assert "⏎ Choose" in bottom and "esc Cancel" in bottom and "Tick" not in bottom, bottom
        burst(app, "enter")  # the turrets: several, ticked
        await idle(pilot)
        bottom = screen_text(app).splitlines()[-1]
        assert "space Tick" in bottom and "⏎ Done" in bottom and "esc Cancel" in bottom, bottom
        assert "Quit" not in bottom, bottom
        burst(app, "q")  # a letter typed is the list's filter, as before: nothing quits
        await idle(pilot)
        assert app.is_running and app.screen.__class__.__name__ == "ActionScreen"
        burst(app, "escape")
        await idle(pilot)
        assert app.screen.__class__.__name__.startswith("ConsoleScreen")
        assert "q Quit" in screen_text(app).splitlines()[-1]


async def test_the_correction_footer_names_the_forms_keys(demo_app: FlagbridgeApp) -> None:
    """The correction form (c) sat over the console's Footer, which offered n Next step, u Undo and q Quit, letters
    the form types into its filter and its field: its own Footer names what Enter and Esc do at each stage."""
    from tests.tui.conftest import screen_text

    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "c")
        await idle(pilot)
        assert app.screen.__class__.__name__ == "CorrectionScreen"
        bottom = screen_text(app).splitlines()[-1]  # the value: one from a list
        for wrong in ("Next step", "Undo", "Quit", "Correct"):
            assert wrong not in bottom, bottom
        assert "⏎ Choose" in bottom and "esc Cancel" in bottom, bottom
        burst(app, *"fuel", "enter")  # the new value, typed
        await idle(pilot)
        bottom = screen_text(app).splitlines()[-1]
        assert "⏎ Go to the note" in bottom and "esc Cancel" in bottom and "Choose" not in bottom, bottom
        assert "Quit" not in bottom, bottom
        burst(app, "backspace", "1", "q")  # q is a letter of the value, as before: nothing quits
        await idle(pilot)
        assert app.is_running and app.screen.query_one("LineEdit").value.endswith("1q")
        burst(app, "backspace", "enter")  # the note
        await idle(pilot)
        bottom = screen_text(app).splitlines()[-1]
        assert "⏎ Record" in bottom and "esc Cancel" in bottom and "Go to the note" not in bottom, bottom
        burst(app, "escape")
        await idle(pilot)
        assert app.screen.__class__.__name__.startswith("ConsoleScreen")
        assert "q Quit" in screen_text(app).splitlines()[-1]


async def test_the_palette_footer_names_the_palettes_keys(demo_app: FlagbridgeApp) -> None:
    """The palette (ctrl+p) sat over the console's Footer, which offered n Next step, u Undo and q Quit, letters
    the palette types into its filter: its own Footer names what Enter and Esc do there."""
    from tests.tui.conftest import screen_text

    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("ctrl+p")
        await idle(pilot)
        assert app.screen.__class__.__name__ == "PaletteScreen"
        bottom = screen_text(app).splitlines()[-1]
        for wrong in ("Next step", "Undo", "Quit", "Correct"):
            assert wrong not in bottom, bottom
        assert "⏎ Run" in bottom and "esc Close" in bottom and bottom.rstrip().endswith("^p Close"), bottom
        burst(app, "q")  # a letter of the filter, as before: nothing quits
        await idle(pilot)
        assert app.is_running and app.screen.__class__.__name__ == "PaletteScreen"
        burst(app, "backspace", *"roll in", "enter")
        await idle(pilot)
        assert app.save.encounter.pending is not None  # "Roll initiative" chosen by name
        assert "q Quit" in screen_text(app).splitlines()[-1]


async def test_a_question_with_nothing_to_choose_leaves_only_esc_in_the_footer(demo_app: FlagbridgeApp,
                                                                                  monkeypatch) -> None:
    """A required question with nothing to choose says so ("nothing can be chosen now (Esc to go back)"), but the
    Footer kept the question before's ⏎ Choose, and Enter there chose from that question's list still shown: only
    Esc is named and taken, and the list before is gone."""
    from tests.tui.conftest import screen_text

    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        await to_step_3(pilot, app)
        burst(app, "f")
        await idle(pilot)
        form = app.screen
        assert form.__class__.__name__ == "ActionScreen" and "⏎ Choose" in screen_text(app).splitlines()[-1]
        second = form.spec.params[1]
        assert not second.optional
        ruleset = app.save.encounter.ruleset
        offered = ruleset.param_choices
        monkeypatch.setattr(ruleset, "param_choices",
                            lambda state, action, p, args: [] if p.name == second.name else offered(state, action, p,
                                                                                                    args))
        burst(app, "enter")  # the ship: the next question has nothing to offer
        await idle(pilot)
        assert "nothing can be chosen now" in str(form.query_one("#form-message").render())
        bottom = screen_text(app).splitlines()[-1]
        assert "esc Cancel" in bottom and "Choose" not in bottom and "Done" not in bottom, bottom
        assert "Tick" not in bottom and "Quit" not in bottom, bottom
        assert not form.query_one("Picker").display
        events_before = len(app.save.encounter.events)
        burst(app, "enter", "space", "down", "enter", "q")  # nothing to take: the form waits for Esc
        await idle(pilot)
        assert app.screen is form and second.name not in form.args and app.is_running
        # not an answer from the list before, refused for this question ("has no turret or battery 'vigilant-reach'")
        assert "nothing can be chosen now" in str(form.query_one("#form-message").render())
        assert len(app.save.encounter.events) == events_before
        burst(app, "escape")
        await idle(pilot)
        assert app.screen.__class__.__name__.startswith("ConsoleScreen")


async def test_the_recap_at_the_start_of_a_turn_names_the_turn_before_as_ended(tmp_path) -> None:
    """Found driving the console: at Turn 2 step 1 the recap said "Turn 1 so far". Turn 2 has nothing yet, and
    turn 1 is told back as the turn before."""
    from tests.tui.conftest import app_on

    def to_turn_2(enc) -> None:
        enc.act("roll_initiative")
        enc.type_roll("4")
        enc.type_roll("2")
        for _ in range(8):
            enc.act("next")
        enc.act("next")  # step 9 -> turn 2, step 1
        assert (enc.state["turn"], enc.state["step"]) == (2, 1)

    app = app_on(Path(__file__).resolve().parents[2] / "saves" / "demo-classic-hg.toml", tmp_path, to_turn_2)
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "v")
        await idle(pilot)
        text = " ".join(str(w.render()) for w in app.screen.query("Static"))
        assert "Turn 2 so far: nothing yet" in text and "Turn 1, the turn before" in text
        assert "Turn 1 so far" not in text and "roll initiative" in text


async def test_the_palette_leads_with_the_fights_actions(demo_app: FlagbridgeApp) -> None:
    """Issue 9: the fight's actions first; the app's own commands (theme, quit) after them."""
    app = demo_app
    async with app.run_test(size=(160, 48)):
        names = [name for name, _help, _run in app.screen.palette_commands()]
        assert names[0] == "Roll initiative" and names[-2:] == ["Switch dark / light theme", "Quit"]


async def test_the_log_scrolls_and_finds_lines(demo_app: FlagbridgeApp) -> None:
    """Issue 9: the Log is scrollable (PageUp/PageDown) and searchable (/); Tab picks another panel."""
    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "i", "4", "enter", "2", "enter", "n", "n", "f", "enter", "space", "down", "space", "down",
              "space", "enter", "enter", "enter", "1", "2", "enter", "1", "2", "enter", "1", "2", "enter")
        await idle(pilot)
        log = app.screen.query_one("#log")
        assert log.max_scroll_y > 0 and log.scroll_y == log.max_scroll_y  # the newest lines in view
        burst(app, "pageup")
        await idle(pilot)
        assert log.scroll_y < log.max_scroll_y
        burst(app, "slash", *"tactics")
        await idle(pilot)
        shown = log.render_text()
        assert "Tactics" in shown and "To hit" not in shown
        burst(app, "escape")
        await idle(pilot)
        assert "To hit" in log.render_text()
        burst(app, "tab")  # from the Log round the screen: the Ships list first
        await idle(pilot)
        assert app.screen.query_one("#ships").has_class("scrolling")
        burst(app, "tab", "tab", "shift+tab")
        await idle(pilot)
        assert app.screen.query_one("#status").has_class("scrolling")
        assert not app.screen.query_one("#ships").has_class("scrolling")


async def test_a_small_terminal_shows_one_panel_beside_the_ships_and_tab_changes_it(demo_app) -> None:
    """Issue 9: at 80x24 a compact layout: the checklist first (roles and attacks in full), Tab for the
    ship's status, armor and crew, or sensors; the Footer compact so its keys fit."""
    app = demo_app
    async with app.run_test(size=(80, 24)) as pilot:
        shown = lambda: [p for p in ("checklist", "status", "armor", "sensors")  # noqa: E731
                         if app.screen.query_one(f"#{p}").display and
                         app.screen.query_one(f"#{p}").parent.display]
        assert shown() == ["checklist"]
        burst(app, "tab")  # the Ships list, always shown: the panel beside it stays
        await idle(pilot)
        assert shown() == ["checklist"] and app.screen.query_one("#ships").has_class("scrolling")
        burst(app, "tab")
        await idle(pilot)
        assert shown() == ["status"]
        burst(app, "tab", "tab")
        await idle(pilot)
        assert shown() == ["checklist"]
        burst(app, "shift+tab")
        await idle(pilot)
        assert shown() == ["armor"]
        await pilot.resize_terminal(160, 48)
        await idle(pilot)
        assert shown() == ["checklist", "status", "armor", "sensors"]


async def test_reprogramming_starts_from_the_programs_loaded(demo_app: FlagbridgeApp) -> None:
    """Issue 9: `p` starts with the programs already loaded ticked; Enter alone keeps them."""
    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        enc = app.save.encounter
        loaded = list(enc.state["ships"]["swift-dolan"]["programs"])
        enc.act("roll_initiative")
        enc.type_roll("4")
        enc.type_roll("2")
        for _ in range(8):
            enc.act("next")
        assert enc.state["step"] == 9
        await idle(pilot)
        burst(app, "p", "enter")
        await idle(pilot)
        picker = app.screen.query_one("#form-options")
        assert sorted(picker.state.ticked) == sorted(loaded)
        burst(app, "enter")
        await idle(pilot)
        args = enc.events[-1].data["args"]
        assert args["ship"] == "swift-dolan" and sorted(args["programs"]) == sorted(loaded)


async def test_escape_then_a_key_typed_fast_is_not_taken_as_alt(demo_app: FlagbridgeApp) -> None:
    """Issue 9: a terminal sends Esc and a key typed right after it as one alt+key. Esc (close
    the fire form) then f (open it again) must do just that."""
    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        await fire_form_at_step_3(pilot, app)
        app.post_message(events.Key("alt+f", "f"))      # what the terminal parser makes of ESC f
        await idle(pilot)
        assert app.screen.__class__.__name__ == "ActionScreen"   # closed by Esc, opened again by f
        burst(app, "escape")
        await idle(pilot)
        assert app.screen.__class__.__name__.startswith("ConsoleScreen")
        burst(app, "1")
        app.post_message(events.Key("alt+c", "c"))      # Esc clears the typed 1; c opens a correction
        await idle(pilot)
        assert app.screen.__class__.__name__ == "CorrectionScreen"
        assert app.save.encounter.events[-1].kind != "roll"


async def test_a_correction_names_the_value_in_the_game_masters_words(demo_app: FlagbridgeApp) -> None:
    """Issue 9: the correction form says 'Swift Dolan: fuel', never 'ships.swift-dolan.fuel'."""
    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "c", *"fuel", "enter")
        await idle(pilot)
        asked = str(app.screen.query_one("#form-question").render())
        assert "Swift Dolan: fuel" in asked and "ships.swift-dolan" not in asked
        assert "Swift Dolan" in str(app.screen.query_one("#form-box").border_title)


async def test_escape_then_a_digit_typed_fast_clears_the_dice_and_types_the_digit(demo_app: FlagbridgeApp,
                                                                                  tmp_path: Path) -> None:
    """Textual reads ESC 5 sent together as "∞" (the character macOS's Option key makes with 5). At the dice
    prompt that is Esc (clear the mistyped 9) then 5: the roll is the 5, not a refusal with the 9 kept.
    In a text field the character stays itself."""
    from tui.app import escape_then_key

    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "i", "9")
        await idle(pilot)
        assert app.screen.typed == "9"
        app.post_message(events.Key("infinity", "∞"))  # what the terminal parser makes of ESC 5
        await idle(pilot)
        assert app.screen.typed == "5" and "not a die" not in app.screen.message
        burst(app, "enter")
        await idle(pilot)
        roll = app.save.encounter.events[-1]
        assert roll.kind == "roll" and roll.data["natural"] == 5
        burst(app, "7")
        app.post_message(events.Key("en_dash", "–"))  # ESC - : Esc clears the 7, and a minus is typed, no die
        await idle(pilot)
        assert app.screen.typed == "-" and "–" not in app.screen.message and "'-' is not a die" in app.screen.message
    assert escape_then_key(events.Key("pound_sign", "£"), typing=True) is None  # a pound sign in a name
    esc, key = escape_then_key(events.Key("pound_sign", "£"))
    assert (esc.key, key.key, key.character) == ("escape", "3", "3")


async def test_an_option_character_typed_in_a_text_field_stays_itself(tmp_path: Path) -> None:
    """Where a name or a path is typed, "£" may be meant: it is not taken apart into Esc and 3."""
    from textual.widgets import Input

    app = FlagbridgeApp(save_dir=tmp_path, start="start")
    async with app.run_test(size=(160, 48)) as pilot:
        await idle(pilot)
        field = app.screen.query_one("#start-path", Input)
        burst(app, "o")  # the path field
        await idle(pilot)
        app.post_message(events.Key("pound_sign", "£"))
        await idle(pilot)
        assert app.screen.__class__.__name__ == "StartScreen" and field.value == "£"


async def test_escape_read_as_a_caret_or_a_word_key_is_still_escape(demo_app: FlagbridgeApp) -> None:
    """Found by a game master's drive in tmux: Textual reads Esc and a key typed fast as iTerm's word keys (ESC f
    is ctrl+right, ESC b ctrl+left), and when more keys follow in the same read, the Esc alone as a caret
    (ESC d Down Enter: ``^``, ``d``, ``down``, ``enter``). In a form they were lost, so Down and Enter went on
    in the form Esc had meant to close. Outside a text field they are Esc then the key."""
    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        await to_step_3(pilot, app)
        burst(app, "f", "enter")                          # the fire form, at Swift Dolan's turrets
        await idle(pilot)
        app.post_message(events.Key("ctrl+right", None))  # ESC f: close the form, open it again
        burst(app, "down", "enter")                       # the second ship this time
        await idle(pilot)
        assert app.screen.__class__.__name__ == "ActionScreen" and app.screen.args == {"ship": "vigilant-reach"}
        app.post_message(events.Key("circumflex_accent", "^"))  # ESC then more keys: the Esc alone
        burst(app, "f", "enter")
        await idle(pilot)
        assert app.screen.__class__.__name__ == "ActionScreen" and app.screen.args == {"ship": "swift-dolan"}
        burst(app, "escape", "c", "enter")                # a correction's text field: a caret is itself
        await idle(pilot)
        app.post_message(events.Key("circumflex_accent", "^"))
        await idle(pilot)
        assert app.screen.__class__.__name__ == "CorrectionScreen" and app.screen.query_one("LineEdit").value.endswith("^")


async def test_typing_a_corrected_value_replaces_the_old_one(demo_app: FlagbridgeApp) -> None:
    """Found by a game master's drive: "c fuel Enter 30 Enter" made Swift Dolan's fuel 16030, the digits typed
    after the old value shown. The old value is there to be replaced (shown reversed): typing takes its place,
    Backspace edits it."""
    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        enc = app.save.encounter
        assert enc.state["ships"]["swift-dolan"]["fuel"] == 160
        burst(app, "c", *"fuel", "enter", "3", "0", "enter", "enter")
        await idle(pilot)
        assert enc.state["ships"]["swift-dolan"]["fuel"] == 30
        burst(app, "c", *"fuel", "enter", "backspace", "5", "enter", "enter")  # 30 -> 3 -> 35
        await idle(pilot)
        assert enc.state["ships"]["swift-dolan"]["fuel"] == 35


async def test_ctrl_u_clears_a_forms_typed_value(demo_app: FlagbridgeApp) -> None:
    """ctrl+u clears a line, as in a shell and in the walk-through's fields (whose cursor may stand mid-line; a
    form's is always at the end, so all of it goes). In a correction it was taken and ignored: "12 ctrl+u 42"
    made the fuel 1242."""
    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "c", *"fuel", "enter", "1", "2")
        app.post_message(events.Key("ctrl+u", "\x15"))
        burst(app, "4", "2", "enter", "enter")
        await idle(pilot)
        assert app.save.encounter.state["ships"]["swift-dolan"]["fuel"] == 42
        burst(app, "c", *"fuel", "enter")  # the old value shown, to be replaced: ctrl+u clears it too
        app.post_message(events.Key("ctrl+u", "\x15"))
        burst(app, "backspace", "7", "enter", "enter")
        await idle(pilot)
        assert app.save.encounter.state["ships"]["swift-dolan"]["fuel"] == 7


async def test_a_correction_clears_the_word_about_the_undo_before_it(demo_app: FlagbridgeApp) -> None:
    """Found by a game master's drive: after u then a correction, the prompt still said "Undone: ..."."""
    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "i", "4", "enter", "u")
        await idle(pilot)
        assert app.screen.message.startswith("Undone")
        burst(app, "c", *"fuel", "enter", "9", "0", "enter", "enter")
        await idle(pilot)
        assert app.save.encounter.events[-1].kind == "correction" and "Undone" not in app.screen.message


async def test_esc_clears_a_kept_log_search_and_ships_filter(demo_app: FlagbridgeApp) -> None:
    """A search kept with Enter hides the new lines that do not match it; a drive pressed Esc, as the search
    prompt says ("Esc clears"), and the log stayed filtered: only "/" and Esc cleared it. Esc with nothing typed
    now clears a kept search (and the Ships filter), and says so."""
    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "i", "4", "enter", "2", "enter")
        await idle(pilot)
        log = app.screen.query_one("#log")
        burst(app, "slash", *"initiative", "enter")
        await idle(pilot)
        assert log.search == "initiative"
        burst(app, "escape")
        await idle(pilot)
        assert log.search == "" and "Log search cleared" in str(app.screen.query_one("#prompt").render())
        burst(app, "tab", "slash", *"red", "enter")  # the Ships list's filter
        await idle(pilot)
        assert app.screen.ship_filter == "red"
        burst(app, "escape")
        await idle(pilot)
        assert app.screen.ship_filter == ""


async def test_keys_after_q_in_the_same_burst_change_nothing(demo_app: FlagbridgeApp, demo_path: Path) -> None:
    """Found by a game master's drive: "q u" typed at once quit, but the u (taken at once, while the app's q waited
    in Textual's queue) undid the last action and the autosave wrote that, under "The fight is saved". q quits the
    fight as it stood when it was pressed: whatever comes after it is not played."""
    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "i", "4", "enter", "2", "enter")
        await idle(pilot)
        assert len(app.save.encounter.events) == 3
        burst(app, "q", "u", "u", "i")
        await idle(pilot)
    assert len(SaveFile.load(demo_path).encounter.events) == 3


async def test_keys_after_ctrl_q_in_the_same_burst_change_nothing(demo_app: FlagbridgeApp, demo_path: Path) -> None:
    """ctrl+q quits from anywhere: a u typed right behind it is not played either."""
    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "i", "4", "enter", "2", "enter")
        await idle(pilot)
        app.post_message(events.Key("ctrl+q", "\x11"))
        burst(app, "u")
        await idle(pilot)
    assert len(SaveFile.load(demo_path).encounter.events) == 3


async def test_keys_after_the_second_q_with_dice_typed_change_nothing(demo_app: FlagbridgeApp,
                                                                      demo_path: Path) -> None:
    """q with dice typed asks first; the second q quits, and a u behind it undoes nothing."""
    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        burst(app, "i", "4", "enter", "2", "enter", "n", "n")
        await idle(pilot)
        assert len(app.save.encounter.events) == 5
        burst(app, "f", "enter", "down", "down", "space", "enter", "enter", "enter", "5", "q", "q", "u", "u")
        await idle(pilot)
    assert len(SaveFile.load(demo_path).encounter.events) == 6


async def test_a_footer_key_clicked_does_what_the_key_does(demo_app: FlagbridgeApp) -> None:
    """The forms' Footer keys run ``action_press`` (``KeyedScreenMixin``): Esc clicked on the fire form closes it,
    as Esc typed does."""
    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        await fire_form_at_step_3(pilot, app)
        app.screen.action_press("escape")
        await idle(pilot)
        assert app.screen.__class__.__name__.startswith("ConsoleScreen")
        assert not [e for e in app.save.encounter.events if e.kind == "action" and e.data["name"] == "fire"]
