"""Random keys in bursts on the start screen and ``flagbridge new`` (the console's own monkey is test_monkey.py).

Each seed below once crashed the app: two Enters on the start screen opened two consoles (DuplicateIds), the
setup's earlier field took a burst's second Enter and skipped a question (KeyError), the last field answered
again after the fight was made (IndexError), and a palette opened by the same burst was closed under itself
(NoMatches). The keys leave out q and Esc, which end the program before it goes deep.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.tui.test_bursts import burst
from tui.app import FlagbridgeApp

KEYS = ["enter", "enter", "enter", "space", "down", "up", "tab", "backspace", "e", "a", "b", "1", "2", "0", "-",
        "x", "n", "d", "[", "]", "/", "ctrl+p"]


@pytest.mark.parametrize("start, seed", [("start", 3), ("start", 4), ("start", 9), ("new", 28), ("new", 32),
                                         ("new", 5), ("start", 41)])
async def test_random_bursts_never_crash_the_start_and_setup_screens(tmp_path: Path, start: str, seed: int) -> None:
    rng = random.Random(seed)
    app = FlagbridgeApp(save_dir=tmp_path, start=start)
    sent, bursts = 0, []
    async with app.run_test(size=(160, 48)) as pilot:
        while sent < 300 and app.return_code is None:
            keys = [rng.choice(KEYS) for _ in range(rng.randint(1, 8))]
            bursts.append(keys)
            burst(app, *keys)
            sent += len(keys)
            try:
                await pilot.pause()
            except Exception:  # the burst ran the palette's Quit: the app is gone, as asked
                if app.return_code is None:
                    raise
                break
    assert app.return_code in (None, 0), bursts[-3:]
