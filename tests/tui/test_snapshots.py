"""What each screen looks like, pinned as SVG snapshots (pytest-textual-snapshot).

The console is shown at every step of the demo's first turn, with a roll
waiting, the fire form, help, and the load-error screen, at 160x48 (the
comfortable size) and 80x24 (the smallest supported). Accept a changed
snapshot with ``pytest --snapshot-update`` only after looking at the SVG.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.encounter import Encounter
from engine.saves import SaveFile
from tui.app import FlagbridgeApp

from .conftest import DEMO
from .test_megatraveller_console import vigilance_locks_red_lantern

WIDE = (160, 48)
SMALL = (80, 24)


def _roll_out(enc: Encounter) -> None:
    while enc.pending is not None:
        enc.roll()  # the seeded dice: the same faces on every run


STEPS = {
    1: [],
    2: [lambda e: e.act("roll_initiative"), lambda e: e.type_roll("4"), lambda e: e.type_roll("2"),
        lambda e: e.act("next")],
    3: [lambda e: e.act("next")],
    "3-roll": [lambda e: e.act("fire", ship="swift-dolan", turrets=["T3"], target="red-lantern")],
    4: [lambda e: e.type_roll("11"), lambda e: e.act("next")],
    5: [lambda e: e.act("next")],
    6: [lambda e: e.act("resolve_damage"), _roll_out, lambda e: e.act("next")],
    7: [lambda e: e.act("next")],
    8: [lambda e: e.act("next")],
    9: [lambda e: e.act("next")],
}
ORDER = [1, 2, 3, "3-roll", 4, 5, 6, 7, 8, 9]


def demo_at(tmp_path: Path, upto) -> FlagbridgeApp:
    """The demo played by engine commands up to a step, then opened in the console."""
    path = tmp_path / "demo.toml"
    shutil.copyfile(DEMO, path)
    save = SaveFile.load(path)
    for key in ORDER[: ORDER.index(upto) + 1]:
        for command in STEPS[key]:
            command(save.encounter)
    return FlagbridgeApp(save, save_dir=tmp_path)


class TestConsoleThroughATurn:
    """The console at each step of turn 1 of the demo, 160x48."""

    @pytest.mark.parametrize("upto", ORDER, ids=[f"step-{k}" for k in ORDER])
    def test_step(self, snap_compare, tmp_path: Path, upto) -> None:
        assert snap_compare(demo_at(tmp_path, upto), terminal_size=WIDE)


class TestSmallTerminal:
    """80x24 stays usable: every panel titled, the prompt and the Footer visible."""

    def test_step_1(self, snap_compare, tmp_path: Path) -> None:
        assert snap_compare(demo_at(tmp_path, 1), terminal_size=SMALL)

    def test_roll_waiting(self, snap_compare, tmp_path: Path) -> None:
        assert snap_compare(demo_at(tmp_path, "3-roll"), terminal_size=SMALL)


class TestForms:
    """The fire form (choose the ship, turrets, target) and help."""

    def test_fire_form_turrets(self, snap_compare, tmp_path: Path) -> None:
        assert snap_compare(demo_at(tmp_path, 3), press=["f", "enter", "down", "down", "space"],
                            terminal_size=WIDE)

    def test_fire_form_small(self, snap_compare, tmp_path: Path) -> None:
        assert snap_compare(demo_at(tmp_path, 3), press=["f"], terminal_size=SMALL)

    def test_help(self, snap_compare, tmp_path: Path) -> None:
        assert snap_compare(demo_at(tmp_path, 3), press=["question_mark"], terminal_size=WIDE)

    def test_bad_dice_message(self, snap_compare, tmp_path: Path) -> None:
        assert snap_compare(demo_at(tmp_path, "3-roll"), press=["1", "3", "enter"], terminal_size=WIDE)


class TestLoadError:
    """A save that fails to load: the one-line reason, and the file untouched."""

    @pytest.mark.parametrize("size", [WIDE, SMALL], ids=["160x48", "80x24"])
    def test_load_error(self, snap_compare, size) -> None:
        reason = ("saves/broken.toml: flagbridge.format: unknown format version 7 "
                  "(this Flagbridge reads 1)")
        app = FlagbridgeApp(load_error=reason, error_path=Path("saves/broken.toml"))
        assert snap_compare(app, terminal_size=size)


class TestMegaTraveller:
    """The megatraveller demo: each side's sensor view in the Sensors panel."""

    def test_small_terminal(self, snap_compare, tmp_path: Path) -> None:
        """Issue 9: at 80x24 the compact layout keeps the checklist and every key the step allows
        (the key bar wraps instead of cutting them)."""
        path = tmp_path / "mt.toml"
        shutil.copyfile(DEMO.parent / "demo-megatraveller.toml", path)
        assert snap_compare(FlagbridgeApp(SaveFile.load(path), save_dir=tmp_path), terminal_size=SMALL)

    def test_after_a_lock(self, snap_compare, tmp_path: Path) -> None:
        path = tmp_path / "mt.toml"
        shutil.copyfile(DEMO.parent / "demo-megatraveller.toml", path)
        save = SaveFile.load(path)
        enc = save.encounter
        vigilance_locks_red_lantern(enc, squares=2, rolls=("11", "10", "6"))
        assert snap_compare(FlagbridgeApp(save, save_dir=tmp_path), terminal_size=WIDE)


class TestLightTheme:
    """Readable in a light theme too (issue 4): the console with a roll waiting."""

    def test_roll_waiting_light(self, snap_compare, tmp_path: Path) -> None:
        async def light(pilot) -> None:
            pilot.app.theme = "textual-light"
            await pilot.pause()

        assert snap_compare(demo_at(tmp_path, "3-roll"), run_before=light, terminal_size=WIDE)
