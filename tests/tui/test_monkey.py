"""A monkey at the console: random keys cannot break the fight or the save (issue 14).

Issue 14 ("Nothing a game master does can break the fight") found its console crashes with
20,000 random keys: a ``KeyError`` in megatraveller's ``squares`` and ``header`` after a few
corrections, a correction recorded twice then ``ScreenStackError`` when two Enters arrive in one
terminal read. This test keeps that monkey in the suite.

For each shipped demo (copied to a temporary folder) at 160x48 and 80x24, and a few seeds, a
seeded ``random.Random`` draws keys: the letters the console and both rulesets bind, digits,
space, Enter, Escape, Backspace, Up/Down, Tab, ctrl+r, ctrl+s, ctrl+p (the command palette), ``?``
and random printable characters (markup brackets among them). ``q``, ctrl+q and ctrl+c are never
drawn; if the app quits some other way (the palette's Quit command), the save is checked and
reopened from disk, and the monkey goes on.

The keys are posted to the app as ``textual.events.Key`` events, as the terminal driver does,
in bursts of one to eight with no wait inside a burst: keys that arrive in one terminal read
(pilot's ``press`` would wait about 63 ms a key and never show that).

What it proves, after every run:

- no exception escaped the app (``run_test`` re-raises the one that stopped it) and the app is
  still running (``return_code`` is None);
- the save on disk, once the console is idle, replays to the live state: ``SaveFile.load`` of
  the file gives the same state and the same number of events as ``app.save.encounter``
  (the console's autosave is current, and every recorded event replays).

A failure names the ruleset, size, seed, where the exception was raised and the last keys sent.
The keys and the bursts are seeded; the app's own timers (its refresh) follow the clock, so on a
busy machine the same seed can take another path. ``python -m tests.bench.monkey --ruleset R
--size WxH --seed S --keys 600`` sends the same keys again; without those options it runs the
full 10,000 keys a ruleset.
"""

from __future__ import annotations

import asyncio
import random
import shutil
import string
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from textual import events
from textual.keys import KEY_NAME_REPLACEMENTS

from engine.ruleset import find_ruleset
from engine.saves import SaveFile
from tests.demos import shipped_demos
from tui.app import FlagbridgeApp

ROOT = Path(__file__).resolve().parents[2]
def _action_letters() -> str:
    """The keys of every shipped ruleset's actions, with undo, correct and a few capitals."""
    keys = {a.key for rid in shipped_demos() for a in find_ruleset(rid).catalogue.actions.values()
            if len(a.key) == 1}
    return "".join(sorted(keys | set("nucIRFN")))


DEMOS = shipped_demos()
SIZES = ((160, 48), (80, 24))

# The suite's share: 1,200 keys for each ruleset and size, over two seeds (4,800 in all, about a
# minute at some 12 ms a key); tests/bench/monkey.py runs 10,000 a ruleset.
SEEDS = (1, 2)
KEYS_PER_RUN = 600

# Keys with a name and the character a terminal sends for them (None: an escape sequence).
NAMED_KEYS = {
    "enter": "\r",
    "escape": "\x1b",
    "backspace": "\x7f",
    "tab": "\t",
    "space": " ",
    "up": None,
    "down": None,
    "ctrl+r": "\x12",
    "ctrl+p": "\x10",
    "ctrl+s": "\x13",
    "ctrl+u": "\x15",  # clears a form's line
    "question_mark": "?",
    "pageup": None,
    "pagedown": None,
    "ctrl+right": None,  # what Textual makes of ESC f typed fast
    "circumflex_accent": "^",  # and of an Esc with more keys after it in the same read
}
QUIT_KEYS = {"q", "ctrl+q", "ctrl+c"}  # never drawn: they end the app for good
CONSOLE_LETTERS = _action_letters()
PRINTABLE = [c for c in string.printable if c.isprintable() and c != "q"] + list("[]/éß·")
# (weight, what to draw from)
KEY_MIX = (
    (30, list(CONSOLE_LETTERS)),
    (18, list(string.digits)),
    (14, ["enter"]),
    (5, ["escape"]),
    (3, ["backspace"]),
    (6, ["up", "down"]),
    (3, ["tab"]),
    (5, ["space"]),
    (2, ["ctrl+r"]),
    (1, ["ctrl+p"]),
    (1, ["question_mark"]),
    (1, ["ctrl+s"]),
    (2, ["pageup", "pagedown", "ctrl+right", "circumflex_accent"]),
    (11, PRINTABLE),
)


def key_name(character: str) -> str:
    """The name Textual gives the key that types ``character`` (``[`` is ``left_square_bracket``)."""
    if character.isalnum():
        return character
    name = unicodedata.name(character).lower().replace("-", "_").replace(" ", "_")
    return KEY_NAME_REPLACEMENTS.get(name, name)


def key_event(key: str) -> events.Key:
    """A key event as the terminal driver makes it: a key name and the character typed, if any."""
    if key in NAMED_KEYS:
        return events.Key(key, NAMED_KEYS[key])
    return events.Key(key_name(key), key)


def random_keys(rng: random.Random, count: int) -> list[str]:
    """``count`` keys drawn from ``KEY_MIX``; never one that quits."""
    weights = [w for w, _ in KEY_MIX]
    pools = [p for _, p in KEY_MIX]
    out = []
    while len(out) < count:
        key = rng.choice(rng.choices(pools, weights)[0])
        if key not in QUIT_KEYS:
            out.append(key)
    return out


# Junk for a form's fields: any printable character (markup brackets, accents, a wide letter), typed in runs.
JUNK = [c for c in string.printable if c.isprintable() and c != "q"] + list("[]/éß·Ω漢\u00a0")
FORM_KEYS = ("enter", "enter", "down", "up", "space", "backspace", "ctrl+u", "tab", "escape")


def form_keys(rng: random.Random, count: int) -> list[str]:
    """``count`` keys that open a form (an action's key, or ``c``) and type junk into it: runs of printable
    characters, a typed number or path, Enter, the list's keys, now and then Esc; after the form, Enter twice
    (the built-in dice) or a typed roll, and now and then ``n``, ``u``, ``ctrl+r``. Never a key that quits."""
    out: list[str] = []
    while len(out) < count:
        out.append(rng.choice(CONSOLE_LETTERS + "c"))
        for _ in range(rng.randint(1, 6)):  # a question or two of the form, answered with junk
            if rng.random() < 0.6:
                out += [rng.choice(JUNK) for _ in range(rng.randint(1, 10))]
            else:
                out += list(str(rng.choice((0, 1, 2, 6, 12, 99, -1, 10 ** 20))))
            out += [rng.choice(FORM_KEYS) for _ in range(rng.randint(0, 3))] + ["enter"]
        out += rng.choice((["enter", "enter"], list(str(rng.randint(1, 12))) + ["enter"], ["escape"],
                           ["n"], ["u"], ["ctrl+r"]))
    return [k for k in out[:count] if k not in QUIT_KEYS]


@dataclass
class MonkeyRun:
    """What one run did: keys sent, events recorded, reopenings after a quit."""

    keys: list[str]
    sent: int = 0
    reopened: int = 0
    events: int = 0
    screens: set[str] = field(default_factory=set)

    def tail(self, n: int = 40) -> str:
        return " ".join(self.keys[max(0, self.sent - n): self.sent])


class MonkeyFailure(AssertionError):
    pass


def where(exc: BaseException) -> str:
    """Where the first cause of ``exc`` was raised: the project's line it passed last, and the raising line."""
    chain, todo = [], [exc]
    while todo:  # the exception, what caused it, and the error a failed worker carries
        e = todo.pop()
        if isinstance(e, BaseException) and all(e is not c for c in chain):
            chain.append(e)
            todo += [getattr(e, "error", None), e.__context__, e.__cause__]
    for e in reversed(chain):
        ours = last = ""
        tb = e.__traceback__
        while tb is not None:
            f = tb.tb_frame.f_code.co_filename
            last = f"{Path(f).name}:{tb.tb_lineno}"
            if f.startswith(str(ROOT)) and "/tests/" not in f and "site-packages" not in f:
                ours = f"{Path(f).relative_to(ROOT)}:{tb.tb_lineno}"
            tb = tb.tb_next
        if ours:
            return f"at {ours}, raised in {last}"
    return "in Textual"


def assert_save_replays(path: Path, app: FlagbridgeApp, run: MonkeyRun, when: str) -> None:
    """The file on disk replays to the live state: same state, same number of events."""
    live = app.save.encounter
    try:
        loaded = SaveFile.load(path).encounter
    except Exception as exc:
        raise MonkeyFailure(f"{when}: the save no longer loads: {type(exc).__name__}: {exc}\n"
                            f"last keys: {run.tail()}") from exc
    if loaded.state != live.state or len(loaded.events) != len(live.events):
        raise MonkeyFailure(
            f"{when}: the save on disk ({len(loaded.events)} events) does not replay to the live state "
            f"({len(live.events)} events)\nlast keys: {run.tail()}")


async def settle(app: FlagbridgeApp, timeout: float = 30.0) -> None:
    """Wait until the app has handled the keys posted so far and passed them on to the widget in focus.

    No frame is forced (pilot's ``pause`` paints one each time, most of a key's cost); the app
    paints on its own refresh timer as it does in a terminal. A console that answers no keys for
    ``timeout`` seconds is a failure.
    """
    handled = asyncio.Event()

    def pass_on() -> None:
        target = app.focused or app.screen
        if not target.call_later(handled.set):
            handled.set()

    if not app.call_later(pass_on):
        return
    waited = 0.0
    while not handled.is_set() and app.return_code is None:
        try:
            await asyncio.wait_for(handled.wait(), 0.25)
        except asyncio.TimeoutError:
            waited += 0.25
            if waited >= timeout:
                raise MonkeyFailure(f"the console answered no key for {timeout:.0f} s") from None


async def drive(path: Path, keys: list[str], size: tuple[int, int], seed: int) -> MonkeyRun:
    """Send ``keys`` to the console on ``path`` in random bursts; check the save after the last key.

    Raises ``MonkeyFailure`` (an AssertionError) naming the last keys when anything breaks.
    """
    run = MonkeyRun(keys)
    bursts = random.Random(f"bursts-{seed}")
    while True:
        app = FlagbridgeApp(SaveFile.load(path), save_dir=path.parent)
        try:
            async with app.run_test(size=size) as pilot:
                while run.sent < len(keys) and app.return_code is None:
                    n = bursts.choice((1, 1, 1, 1, 2, 2, 3, 4, 8))
                    for key in keys[run.sent: run.sent + n]:
                        app.post_message(key_event(key))
                    run.sent = min(len(keys), run.sent + n)
                    await settle(app)
                    run.screens.add(type(app.screen).__name__)
                await pilot.pause()
                await pilot.pause()
                if app.return_code is None:  # still running: the end of the keys
                    run.events = len(app.save.encounter.events)
                    assert_save_replays(path, app, run, f"after {run.sent} keys, the console idle")
                    return run
        except MonkeyFailure:
            raise
        except Exception as exc:  # raised by the app and re-raised by run_test
            raise MonkeyFailure(f"the console raised {type(exc).__name__}: {exc} ({where(exc)}) after {run.sent} "
                                f"keys\nlast keys: {run.tail()}") from exc
        # the app quit by itself without an error (the palette's Quit): the save must be current
        if app.return_code != 0:
            raise MonkeyFailure(f"the app stopped with return code {app.return_code} after {run.sent} keys\n"
                                f"last keys: {run.tail()}")
        assert_save_replays(path, app, run, f"after a quit at key {run.sent}")
        if run.sent >= len(keys):
            return run
        run.reopened += 1


@pytest.fixture
def quiet_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Screenshots the palette may take land in the test's folder, not the user's Downloads."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.chdir(tmp_path)
    return home


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("ruleset", sorted(DEMOS))
async def test_random_keys_never_break_the_console_or_the_save(ruleset: str, size: tuple[int, int],
                                                                tmp_path: Path, quiet_home: Path) -> None:
    for seed in SEEDS:
        path = tmp_path / f"{ruleset}-{seed}.toml"
        shutil.copyfile(DEMOS[ruleset], path)
        keys = random_keys(random.Random(f"{ruleset}-{size}-{seed}"), KEYS_PER_RUN)
        try:
            await drive(path, keys, size, seed)
        except MonkeyFailure as exc:
            raise MonkeyFailure(f"{ruleset} {size[0]}x{size[1]} seed {seed}: {exc}") from exc.__cause__


@pytest.mark.parametrize("ruleset", sorted(DEMOS))
async def test_junk_typed_into_every_form_never_breaks_the_console_or_the_save(ruleset: str, tmp_path: Path,
                                                                             quiet_home: Path) -> None:
    """The forms' fields and the correction form get printable junk in bursts (``form_keys``), at 120x40."""
    path = tmp_path / f"{ruleset}-forms.toml"
    shutil.copyfile(DEMOS[ruleset], path)
    keys = form_keys(random.Random(f"forms-{ruleset}-30"), KEYS_PER_RUN)
    try:
        await drive(path, keys, (120, 40), 30)
    except MonkeyFailure as exc:
        raise MonkeyFailure(f"{ruleset} forms seed 30: {exc}") from exc.__cause__
