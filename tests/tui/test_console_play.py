"""Playing the demo by key presses only, as a game master would (issue 4, "Tests").

Checks the engine's state after whole turns, a mistake undone, typed and built-in dice,
refused input that records nothing, and that the autosaved file reopens where it stopped.
"""

from __future__ import annotations

from pathlib import Path

from engine.saves import SaveFile
from tui.app import FlagbridgeApp


async def roll_all(pilot, app: FlagbridgeApp) -> int:
    """Press Enter (built-in dice) while a roll is pending; returns how many."""
    n = 0
    while app.save.encounter.pending is not None:
        await pilot.press("enter")
        n += 1
        assert n < 40
    return n


async def fire_lasers_at_first_target(pilot) -> None:
    """f, the selected ship, tick T3 (its beam lasers), the first target, no selective location."""
    await pilot.press("f")
    await pilot.press("enter")                  # ship: Swift Dolan (highlighted: the selected ship)
    await pilot.press("down", "down", "space")  # tick T3 beam laser x3
    await pilot.press("enter")
    await pilot.press("enter")                  # target: Red Lantern
    await pilot.press("enter")                  # location: rolled (no selective fire)


async def test_a_whole_turn_by_keys(demo_app: FlagbridgeApp, demo_path: Path) -> None:
    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        enc = app.save.encounter
        await pilot.press("i", "4", "enter", "2", "enter")   # typed initiative: 4+3 against 2+2
        assert enc.state["attacker"] == "imperial" and enc.state["surprised"] == "corsairs"
        await pilot.press("n", "n")
        assert enc.state["step"] == 3
        await fire_lasers_at_first_target(pilot)
        req = enc.pending
        assert req is not None and req.purpose.startswith("To hit: Swift Dolan T3 Beam laser x3 at Red Lantern")
        await pilot.press("1", "1", "enter")                 # typed 11: a hit
        assert enc.state["attacks"][0]["status"] == "hit"
        await pilot.press("n", "n")                          # no defence: the corsairs are surprised
        assert enc.state["step"] == 5
        await pilot.press("g")
        assert await roll_all(pilot, app) >= 1               # built-in dice for the locations
        assert enc.state["attacks"][0]["status"] == "done"
        await pilot.press("n", "n", "n", "n", "n")
        assert enc.state["turn"] == 2 and enc.state["step"] == 1
        kinds = [e.kind for e in enc.events]
        assert kinds.count("roll") >= 4 and any(e.data.get("name") == "fire" for e in enc.events)
        sources = {e.data.get("source") for e in enc.events if e.kind == "roll"}
        assert sources == {"typed", "roller"}
    # the autosave after every event means the file on disk is this turn
    again = SaveFile.load(demo_path).encounter
    assert again.state == enc.state


async def test_a_mistake_undone_and_bad_dice_refused(demo_app: FlagbridgeApp) -> None:
    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        enc = app.save.encounter
        await pilot.press("i", "9", "enter")                 # 9 on 1D: refused, nothing recorded
        assert len(enc.events) == 1 and enc.pending.purpose.startswith("Initiative: Imperial")
        prompt = str(app.screen.query_one("#prompt").render())
        assert "9 cannot be rolled on 1D: type 1 to 6" in prompt or "9 is not a face" in prompt
        await pilot.press("x")                               # a letter where a die goes
        assert "is not a die" in str(app.screen.query_one("#prompt").render())
        await pilot.press("5", "enter")                      # "x5" is refused whole, never taken as 5
        assert len(enc.events) == 1
        await pilot.press("minus", "2", "enter")             # and "-2" never as 2
        assert len(enc.events) == 1 and "-2" in str(app.screen.query_one("#prompt").render())
        await pilot.press("escape")
        await pilot.press("5", "enter", "1", "enter")
        await pilot.press("n", "n")
        await fire_lasers_at_first_target(pilot)
        await pilot.press("3", "enter")                      # typed a miss by mistake
        assert enc.state["attacks"] == []
        fired = len(enc.events)
        await pilot.press("u")                               # undo takes the volley and its roll back
        assert len(enc.events) == fired - 2
        assert all(t["used"] == "" for t in enc.state["ships"]["swift-dolan"]["turrets"])
        await fire_lasers_at_first_target(pilot)
        await pilot.press("1", "2", "enter")                 # the roll the table really made
        assert enc.state["attacks"][0]["status"] == "hit"
        await pilot.press("ctrl+r")                          # nothing to redo after a new event
        assert len(enc.events) == fired


async def test_correction_by_hand_is_logged_and_undoable(demo_app: FlagbridgeApp) -> None:
    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        enc = app.save.encounter
        await pilot.press("c")
        # type to filter the values down to the ship's fuel
        await pilot.press(*"fuel", "space", "=", "space", "1")
        assert app.screen.query_one("#form-options").state.current.value == "ships.swift-dolan.fuel"
        await pilot.press("enter")
        for _ in range(3):                                   # erase 160
            await pilot.press("backspace")
        await pilot.press("l", "o", "t", "s", "enter")       # a word where a number goes
        assert "holds a whole number" in str(app.screen.query_one("#form-message").render())
        for _ in range(4):
            await pilot.press("backspace")
        await pilot.press("3", "0", "enter")
        await pilot.press(*"leak", "enter")                  # the note for the log
        assert enc.state["ships"]["swift-dolan"]["fuel"] == 30
        assert enc.events[-1].kind == "correction"
        await pilot.press("u")
        assert enc.state["ships"]["swift-dolan"]["fuel"] == 160


async def test_help_and_palette_open(demo_app: FlagbridgeApp) -> None:
    async with demo_app.run_test(size=(160, 48)) as pilot:
        await pilot.press("question_mark")
        assert demo_app.screen.__class__.__name__ == "HelpScreen"
        await pilot.press("escape")
        await pilot.press("ctrl+p")
        assert demo_app.screen.__class__.__name__ == "PaletteScreen"
        await pilot.press("r", "o", "l", "l", " ", "i", "n")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause(0.2)
        assert demo_app.save.encounter.pending is not None  # "Roll initiative" chosen by name


async def test_quit_and_reopen_continues_mid_step(demo_app: FlagbridgeApp, demo_path: Path) -> None:
    async with demo_app.run_test(size=(160, 48)) as pilot:
        await pilot.press("i", "3")
        await pilot.press("q")
    reopened = FlagbridgeApp(SaveFile.load(demo_path))
    async with reopened.run_test(size=(160, 48)) as pilot:
        enc = reopened.save.encounter
        assert enc.pending.purpose.startswith("Initiative: Imperial")  # still waiting for the dice
        await pilot.press("6", "enter", "1", "enter")
        assert enc.state["attacker"] == "imperial"


async def test_the_footer_shows_only_what_the_rules_allow_and_a_key_says_why_not(demo_app: FlagbridgeApp) -> None:
    """Issue 8: the Footer lists exactly the actions possible now; any other key says why it cannot."""
    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        enc = app.save.encounter

        def footer_actions() -> set[str]:
            shown = {b.binding.action for b in app.screen.active_bindings.values() if b.enabled and b.binding.show}
            return {a[5:-2] for a in shown if a.startswith("act('")}

        assert footer_actions() == {"roll_initiative", "withdraw"}
        await pilot.press("n")
        prompt = str(app.screen.query_one("#prompt").render())
        assert "Next step: step 1 still needs: roll initiative" in prompt
        await pilot.press("f")
        assert "Fire turrets: offensive fire happens in steps 3 and 6" in str(app.screen.query_one("#prompt").render())
        assert len(enc.events) == 0
        await pilot.press("i", "4", "enter", "2", "enter", "n", "n")  # to step 3: the corsairs are surprised
        assert {"fire", "break_off", "withdraw", "next"} <= footer_actions()
        assert not {"launch_torpedo", "ram", "defend", "roll_initiative"} & footer_actions()
        await pilot.press("t")
        assert "Launch a torpedo: no ship can be chosen now" in str(app.screen.query_one("#prompt").render())
        await pilot.press("n")  # step 4: the surprised, unarmed-for-defence corsairs may not intercept
        assert "defend" not in footer_actions()
        await pilot.press("question_mark")
        reasons = {o.action.name: o.reason for o in app.screen.offers}
        assert reasons["defend"] == "no incoming attack to intercept"


async def test_text_from_the_save_is_shown_as_text_never_as_markup(tmp_path: Path) -> None:
    """Issue 14: a `[/]` in a ship name crashed the panels; `[Alpha] X` lost `[Alpha]`."""
    from tests.tui.conftest import DEMO

    path = tmp_path / "markup.toml"
    text = DEMO.read_text().replace('name = "Red Lantern"', 'name = "[Alpha] X [/]"')
    text = text.replace('name = "Corsairs"', 'name = "Corsairs [NPC] [/bold]"')
    start, end = text.find("\n[state]"), text.find("\n[[events]]")
    text = text[:start] + (text[end:] if end >= 0 else "\n")  # [state] is rewritten from the log
    path.write_text(text)
    app = FlagbridgeApp(SaveFile.load(path), save_dir=tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        ships = app.screen.query_one("#ships").render_text()
        assert "[Alpha] X [/" in ships and "Corsairs [NPC] [/bold]" in ships  # (names cut at 12)
        await pilot.press("down", "down")              # select the renamed ship: its panels' title
        await pilot.pause()
        await pilot.press("c")                          # the correction form lists its values
        await pilot.pause()
        assert app.screen.__class__.__name__ == "CorrectionScreen"
        await pilot.press("escape")
    bad = tmp_path / "bad [red]x[bold] name.toml"
    bad.write_text("[flagbridge]\nformat = 99 [/]\n")
    app = FlagbridgeApp(save_dir=tmp_path)
    async with app.run_test(size=(120, 30)) as pilot:
        app.open_path(bad)
        await pilot.pause()
        assert app.screen.__class__.__name__ == "LoadErrorScreen"
        assert "bad [red]x[bold] name.toml" in str(app.screen.query_one("#error-reason").render())


async def test_a_long_save_written_in_the_background_and_a_failed_write_said(demo_app: FlagbridgeApp,
                                                                             demo_path: Path, monkeypatch) -> None:
    """Issue 13: a long save is written on the writer thread (here every save counts as long); the file
    still follows every key, and a write that fails is said under the prompt while the last good save stays."""
    from engine import atomic, saves

    monkeypatch.setattr(saves, "BACKGROUND_BYTES", 0)
    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        enc = app.save.encounter
        await pilot.press("i", "5", "enter", "1", "enter", "n")
        app.save.flush()
        assert SaveFile.load(demo_path).encounter.state == enc.state
        good = demo_path.read_bytes()

        def full(path, parts, backup=True):
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(saves, "write_atomic", full)
        await pilot.press("n")
        for _ in range(20):  # the failure comes back from the writer thread
            await pilot.pause(0.02)
            if "autosave failed" in str(app.screen.query_one("#prompt").render()):
                break
        assert "autosave failed: No space left on device" in str(app.screen.query_one("#prompt").render())
        assert demo_path.read_bytes() == good
        monkeypatch.setattr(saves, "write_atomic", atomic.write_atomic)
        await pilot.press("ctrl+s")                          # retried once there is room
        assert SaveFile.load(demo_path).encounter.state == enc.state
