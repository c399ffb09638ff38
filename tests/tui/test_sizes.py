"""No terminal size breaks the console, with any form open (issue 9: a form at 6 columns raised
``ValueError`` in rich's ``chop_cells``)."""

from __future__ import annotations

import pytest

from tui.app import FlagbridgeApp

SIZES = ((6, 8), (20, 8), (3, 3), (1, 1), (80, 24), (160, 48))


@pytest.mark.parametrize("opened", ["console", "fire form", "correction", "help"])
async def test_every_size_down_to_one_cell(demo_app: FlagbridgeApp, opened: str) -> None:
    app = demo_app
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("i", "4", "enter", "2", "enter", "n", "n")
        keys = {"console": (), "fire form": ("f", "enter"), "correction": ("c",), "help": ("question_mark",)}
        await pilot.press(*keys[opened])
        for width, height in SIZES:
            await pilot.resize_terminal(width, height)
            await pilot.pause()
            await pilot.pause()
        assert app.return_code is None
