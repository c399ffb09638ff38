"""The console with the megatraveller ruleset: the Sensors panel shows each side's view,
and no ship can fire on a target its side has not locked (issue 5, "Done when")."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.errors import IllegalAction
from engine.saves import SaveFile
from tui.app import FlagbridgeApp

from .conftest import ROOT

DEMO = ROOT / "saves" / "demo-megatraveller.toml"


def mt_app(tmp_path: Path) -> FlagbridgeApp:
    path = tmp_path / "mt.toml"
    shutil.copyfile(DEMO, path)
    return FlagbridgeApp(SaveFile.load(path), save_dir=tmp_path)


def vigilance_locks_red_lantern(enc, squares: int = 1, rolls: tuple[str, str, str] = ("12", "12", "12")) -> None:
    """Vigilance (patrol) at ``squares`` from Red Lantern (corsair) finds it on its free sensor action and locks it
    with B1-1's gunnery action: the locate roll, then the player's and the referee's lock rolls."""
    enc.act("set_range", ship="patrol", target="corsair", squares=squares)
    enc.act("locate", ship="patrol", target="corsair", mode="passive", spend="free", tactics=0)
    enc.type_roll(rolls[0])
    enc.act("lock", ship="patrol", target="corsair", mode="passive", spend="B1-1", tactics=0)
    enc.type_roll(rolls[1])
    enc.type_roll(rolls[2])


def sensors_text(app: FlagbridgeApp) -> str:
    return app.screen.query_one("#sensors").render_text()


async def test_sensors_panel_and_no_fire_without_a_lock(tmp_path: Path) -> None:
    app = mt_app(tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        enc = app.save.encounter
        assert "Imperial Navy sees Red Lantern: detected" in sensors_text(app)
        enc.act("set_range", ship="patrol", target="corsair", squares=2)
        await pilot.pause()
        # locate by keys: s, the selected ship, the first target, passive sensors, the free action, no tactics
        await pilot.press("s", "enter", "enter", "enter", "enter", "enter")
        assert enc.pending.purpose.startswith("Locate: Vigilance")
        await pilot.press("1", "0", "enter")  # 10 + 3 computer - 2 squares = 11: made by 4
        await pilot.pause()
        assert "Imperial Navy sees Red Lantern: located" in sensors_text(app)
        await pilot.press("n")
        assert enc.state["step"] == 2
        await pilot.press("f")
        await pilot.pause()
        prompt = str(app.screen.query_one("#prompt").render())
        assert "Fire batteries: no ship can be chosen now" in prompt and "no lock, no fire" in prompt
        with pytest.raises(IllegalAction, match="lock"):
            enc.act("fire", ship="patrol", target="corsair", batteries=["B1-1"])


async def test_a_lock_lets_the_whole_side_fire(tmp_path: Path) -> None:
    app = mt_app(tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        enc = app.save.encounter
        enc.act("set_range", ship="scout", target="corsair", squares=1)
        vigilance_locks_red_lantern(enc)
        enc.act("next")
        await pilot.pause()
        assert "Imperial Navy sees Red Lantern: locked" in sensors_text(app)
        # the scout never scanned the corsair, but the side's lock is shared
        ships = enc.ruleset.param_choices(enc.state, "fire", "ship", {})
        assert "scout" in {c.value for c in ships}


async def test_a_side_s_tactics_pool_and_sensor_state_are_corrected_from_the_console(tmp_path: Path) -> None:
    """Found by a game master's drive: c listed only the selected ship's values and the fight's single ones, so
    a fleet tactics pool ("correct them if yours do", README) or a wrongly recorded lock could only be put right
    by editing the file. The form lists the fight's tables too, with what they hold of the selected ship."""
    from tests.tui.test_bursts import burst, idle

    app = mt_app(tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        enc = app.save.encounter
        burst(app, "c", *"fleet tactics.imperial", "enter", "5", "enter", "enter")
        await idle(pilot)
        assert enc.state["fleet_tactics"]["imperial"] == 5
        assert enc.events[-1].kind == "correction"
        app.screen.action_select(2)  # Red Lantern, seen by the Imperial Navy
        await idle(pilot)
        burst(app, "c", *"knowledge.imperial.red lantern.state", "enter", *"located", "enter", "enter")
        await idle(pilot)
        assert enc.state["knowledge"]["imperial"]["corsair"]["state"] == "located"


def _on_screen(widget) -> list[str]:
    """The lines a widget shows, as the terminal draws them (what its height cuts off is not there)."""
    return ["".join(segment.text for segment in widget.render_line(y)) for y in range(widget.size.height)]


async def test_a_refused_roll_and_the_typing_line_stay_in_sight_under_a_long_roll_help_at_80x24(tmp_path: Path) -> None:
    """Found by a game master's drive at 80x24: under a damage roll's table ("Surface damage: below 2 none · 2 hold
    1 ..."), 13 typed and Enter showed nothing: the prompt's last lines, the refusal among them, were below its
    height. The roll, where to type and what was refused come first; the table's reminder takes the room left."""
    path = tmp_path / "mt.toml"
    shutil.copyfile(DEMO, path)
    save = SaveFile.load(path)
    enc = save.encounter
    vigilance_locks_red_lantern(enc)
    enc.act("next")
    enc.act("fire", ship="patrol", target="corsair", batteries=["B1-2"])
    enc.type_roll("12")  # hit
    enc.type_roll("12")  # through the sand
    assert enc.pending.purpose.startswith("Damage (surface 1/1)")
    app = FlagbridgeApp(save, save_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("1", "3", "enter")
        await pilot.pause()
        shown = " ".join(_on_screen(app.screen.query_one("#prompt")))
        assert "13 cannot be rolled on 2D" in shown, shown
        assert "type what the table rolled" in shown and "Damage (surface 1/1)" in shown, shown
        assert enc.pending.purpose.startswith("Damage (surface 1/1)")  # nothing recorded


async def test_a_ship_s_shut_down_systems_wrap_at_word_boundaries_at_80x24(tmp_path: Path) -> None:
    """Found by a game master's drive at 80x24: the Ships panel joined the shut-down systems with bare commas, so
    three of them were one long word split mid-word ("SHUT:weapons,comput" / "er,power"). Each stays whole."""
    path = tmp_path / "mt.toml"
    shutil.copyfile(DEMO, path)
    save = SaveFile.load(path)
    save.encounter.correct("ships.corsair.shut_down", ["weapons", "computer", "power"], note="test: criticals")
    app = FlagbridgeApp(save, save_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        body = app.screen.query_one("#ships").body
        shown = _on_screen(body)
        words = " ".join(shown).split()
        for system in ("weapons", "computer", "power"):
            assert any(system in line for line in shown), shown
        assert "SHUT:" in words and {"weapons,", "computer,", "power"} <= set(words), shown


async def test_c_shuts_a_system_down_by_name_and_refuses_a_bad_name_in_the_field(tmp_path: Path) -> None:
    """Found by a game master's drive: c could not shut a system down ("Criticals shut down a system",
    megatraveller-sensors-fire.txt line 103): the empty list of systems shut down was not listed, and a list was
    not correctable whole. It is listed as one value, typed as names separated by commas; a name the critical
    table does not give is refused under the field, and nothing is recorded."""
    from tests.tui.test_bursts import burst, idle
    from tui.screens.correct import CorrectionScreen

    app = mt_app(tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        enc = app.save.encounter
        app.screen.selected = "patrol"  # Vigilance, with nothing shut down
        assert enc.state["ships"]["patrol"]["shut_down"] == []
        burst(app, "c", *"shut down", "enter", *"sensors, powr", "enter")
        await idle(pilot)
        assert isinstance(app.screen, CorrectionScreen)
        message = str(app.screen.query_one("#form-message").render())
        assert "'powr'" in message and "bridge" in message, message
        assert not enc.events or enc.events[-1].kind != "correction"
        burst(app, *["backspace"] * 4, *"power", "enter", *"as after two criticals", "enter")
        await idle(pilot)
        assert enc.state["ships"]["patrol"]["shut_down"] == ["sensors", "power"]
        assert enc.events[-1].kind == "correction" and enc.events[-1].data["note"] == "as after two criticals"
        burst(app, "c", *"shut down", "enter")  # the value typed back as it is shown: names and commas
        await idle(pilot)
        assert app.screen.query_one("#form-input").value == "sensors, power"
        burst(app, "ctrl+u", "enter", "enter")  # empty: nothing shut down
        await idle(pilot)
        assert enc.state["ships"]["patrol"]["shut_down"] == []


async def test_the_question_for_an_empty_list_of_names_offers_nothing_to_edit(tmp_path: Path) -> None:
    """Found by a game master's drive: with nothing shut down the form still said "Backspace edits the old one",
    with no old value in the field to edit. It says there is none now and how to type names; a list that holds
    names still offers Backspace to edit them."""
    from tests.tui.test_bursts import burst, idle

    app = mt_app(tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        enc = app.save.encounter
        app.screen.selected = "patrol"  # Vigilance, with nothing shut down
        burst(app, "c", *"shut down", "enter")
        await idle(pilot)
        asked = str(app.screen.query_one("#form-question").render())
        assert "Backspace" not in asked and "none now" in asked and "names separated by commas" in asked, asked
        burst(app, *"sensors", "enter", "enter")
        await idle(pilot)
        assert enc.state["ships"]["patrol"]["shut_down"] == ["sensors"]
        burst(app, "c", *"shut down", "enter")
        await idle(pilot)
        asked = str(app.screen.query_one("#form-question").render())
        assert "Backspace edits the old one" in asked and "none now" not in asked, asked
