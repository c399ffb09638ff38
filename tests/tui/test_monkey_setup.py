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


#: With the keys the screens now take themselves: Esc, paging, the arrows along a field, and the keys Textual makes
#: of Esc typed fast (seeds 101 and 107 crashed: Textual's page keys outran the list's layout, KeyError; and an
#: Esc reached the setup screen as the console took its place, MountError).
MORE_KEYS = KEYS + ["escape", "o", "left", "right", "home", "end", "pageup", "pagedown", "ctrl+right",
                    "circumflex_accent"]


@pytest.mark.parametrize("start, seed, keys", [("start", 3, KEYS), ("start", 4, KEYS), ("start", 9, KEYS),
                                               ("new", 28, KEYS), ("new", 32, KEYS), ("new", 5, KEYS),
                                               ("start", 41, KEYS), ("start", 101, MORE_KEYS),
                                               ("start", 107, MORE_KEYS), ("new", 103, MORE_KEYS)])
async def test_random_bursts_never_crash_the_start_and_setup_screens(tmp_path: Path, start: str, seed: int,
                                                                    keys: list) -> None:
    rng = random.Random(seed)
    app = FlagbridgeApp(save_dir=tmp_path, start=start)
    sent, bursts = 0, []
    async with app.run_test(size=(160, 48)) as pilot:
        while sent < 300 and app.return_code is None:
            sent_now = [rng.choice(keys) for _ in range(rng.randint(1, 8))]
            bursts.append(sent_now)
            burst(app, *sent_now)
            sent += len(sent_now)
            try:
                await pilot.pause()
            except Exception:  # the burst ran the palette's Quit: the app is gone, as asked
                if app.return_code is None:
                    raise
                break
    assert app.return_code in (None, 0), bursts[-3:]
