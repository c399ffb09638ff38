"""Typed corrections through the console's form, each undone with ``u`` and redone with ``ctrl+r`` (fuzz30).

``tests/engine/test_correction_fuzz.py`` types corrections through the engine; this drives the form as a game
master does, keys posted in bursts as a terminal sends them (``test_monkey.key_event``): ``c``, the path typed
into the filter, Enter, ``ctrl+u`` and a value drawn by ``test_correction_fuzz.typed_value`` (in range, out of
range, huge, other kinds, markup, other ids, printable junk), Enter, a note of junk, Enter. After each:

- nothing escaped the app, and it still runs;
- a correction the form recorded is one more event; ``u`` gives back the state before it, ``ctrl+r`` the state
  after it; a refused one recorded nothing and the form said why (the screen is still the form: Esc leaves);
- the save on disk replays to the live state (``test_monkey.assert_save_replays``).

The paths are each demo's state leaves, a few a run, seeded; the unit shown is the path's unit when it has one.
``python -m tests.tui.test_correction_monkey --seed S --per-demo N`` runs more.
"""

from __future__ import annotations

import random
import shutil
import string
import sys
from pathlib import Path

import pytest

from engine.saves import SaveFile, create
from engine.state import path_text, plain_copy
from tests.engine.test_correction_fuzz import Vocabulary, leaves, played, typed_value
from tests.tui.test_monkey import DEMOS, MonkeyFailure, MonkeyRun, assert_save_replays, key_event, settle, where
from tui.app import FlagbridgeApp
from tui.screens.correct import CorrectionScreen, editable_values

SEEDS = (30,)
PER_DEMO = 8
JUNK = [c for c in string.printable if c.isprintable()] + list("éß·Ω[]")


def junk(rng: random.Random) -> str:
    return "".join(rng.choice(JUNK) for _ in range(rng.randint(0, 12)))


def _typed(text: str) -> list[str]:
    """The keys that type ``text`` (each character one key; what a terminal cannot send as one key is left out)."""
    return [c for c in text if c.isprintable() and c != "\x7f"]


async def _send(app: FlagbridgeApp, keys: list[str], rng: random.Random) -> None:
    """``keys`` in bursts of one to eight, no wait inside a burst."""
    i = 0
    while i < len(keys) and app.return_code is None:
        n = rng.choice((1, 2, 4, 8, 8))
        for k in keys[i:i + n]:
            app.post_message(key_event(k))
        i += n
        await settle(app)


def _unit_of(enc, path: tuple) -> str | None:
    keys = {k.key for k in enc.ruleset.unit_kinds}
    return path[1] if len(path) > 1 and path[0] in keys else None


async def correct_undo_redo(path: Path, seed: int, count: int, stage: str) -> dict[str, int]:
    """``count`` corrections on the save at ``path`` through the form; each recorded one undone and redone."""
    rng = random.Random(f"{path.name}-{seed}")
    counts = {"recorded": 0, "refused": 0}
    app = FlagbridgeApp(SaveFile.load(path), save_dir=path.parent)
    run = MonkeyRun([])
    async with app.run_test(size=(160, 48)) as pilot:
        enc = app.save.encounter
        words = Vocabulary(enc.state, enc)
        for n in range(count):
            enc = app.save.encounter
            unit = None
            while unit is None:  # a leaf the form lists for its unit (the fight's own values need any unit)
                leaf, old = rng.choice(list(leaves(plain_copy(enc.state))))
                unit = _unit_of(enc, leaf) or next(uid for _k, uid, _u in enc.ruleset.units(enc.state))
                keys = tuple(k.key for k in enc.ruleset.unit_kinds)
                kind = enc.ruleset.unit_kind_of(enc.state, unit)
                listed = [p for p, _v in editable_values(enc.state, unit, kind.key if kind else "", keys)]
                if path_text(leaf) not in listed:
                    unit = None
            text = typed_value(rng, old, leaf, words)
            case = f"{path.name} seed {seed} #{n}: {path_text(leaf)} = {text[:60]!r}"
            try:
                app.screen.selected = unit  # as up/down would leave it (a unit the list hides is still correctable)
                before, events = plain_copy(enc.state), len(enc.events)
                await _send(app, ["c"] + _typed(path_text(leaf)) + ["enter", "ctrl+u"] + _typed(text) + ["enter"]
                            + _typed(junk(rng)) + ["enter"], rng)
                await pilot.pause()
                if len(enc.events) == events + 1:
                    counts["recorded"] += 1
                    after = plain_copy(enc.state)
                    await _send(app, ["u"], rng)
                    if enc.state != before or len(enc.events) != events:
                        raise MonkeyFailure(f"{case}: u did not give back the state before the correction")
                    await _send(app, ["ctrl+r"], rng)
                    if enc.state != after or len(enc.events) != events + 1:
                        raise MonkeyFailure(f"{case}: ctrl+r did not give back the corrected state")
                    if rng.random() < 0.5:
                        await _send(app, ["u"], rng)  # half are left undone, half corrected
                elif len(enc.events) == events:
                    counts["refused"] += 1
                    if enc.state != before:
                        raise MonkeyFailure(f"{case}: a refused correction changed the fight")
                    if isinstance(app.screen, CorrectionScreen):
                        await _send(app, ["escape"], rng)
                else:
                    raise MonkeyFailure(f"{case}: {len(enc.events) - events} events recorded")
                await pilot.pause()
                if isinstance(app.screen, CorrectionScreen) or app.return_code is not None:
                    raise MonkeyFailure(f"{case}: the form is still open, or the app quit")
                app.save.flush()
                assert_save_replays(path, app, run, case)
            except MonkeyFailure:
                raise
            except Exception as exc:  # noqa: BLE001
                raise MonkeyFailure(f"{case}: {type(exc).__name__}: {exc} ({where(exc)})") from exc
    return counts


def fight(ruleset: str, stage: str, folder: Path) -> Path:
    path = folder / f"{ruleset}-{stage}.toml"
    if stage == "fresh":
        shutil.copyfile(DEMOS[ruleset], path)
    else:
        create(path, played(SaveFile.load(DEMOS[ruleset]).encounter))
    return path


@pytest.mark.parametrize("stage", ["fresh", "played"])
@pytest.mark.parametrize("ruleset", sorted(DEMOS))
async def test_typed_corrections_undone_and_redone_leave_a_fight_that_reopens(ruleset: str, stage: str,
                                                                               tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / ".config"))
    for seed in SEEDS:
        path = fight(ruleset, stage, tmp_path)
        counts = await correct_undo_redo(path, seed, PER_DEMO, stage)
        assert counts["recorded"] + counts["refused"] == PER_DEMO


def main(argv: list[str]) -> int:
    import argparse
    import asyncio
    import os
    import tempfile

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seed", type=int, default=30)
    p.add_argument("--per-demo", type=int, default=40)
    args = p.parse_args(argv)
    bad = 0
    with tempfile.TemporaryDirectory(prefix="flagbridge-correct-") as tmp:
        os.environ["HOME"] = tmp
        os.environ["XDG_CONFIG_HOME"] = tmp + "/.config"
        for ruleset in sorted(DEMOS):
            for stage in ("fresh", "played"):
                path = fight(ruleset, stage, Path(tmp))
                try:
                    counts = asyncio.run(correct_undo_redo(path, args.seed, args.per_demo, stage))
                    print(f"{ruleset:14} {stage:6} seed {args.seed}: {counts}", flush=True)
                except MonkeyFailure as exc:
                    bad += 1
                    print(f"{ruleset:14} {stage:6} seed {args.seed}: FAILED {exc}", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
