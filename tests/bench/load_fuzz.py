"""The field-by-field save fuzz of ``tests/engine/test_load_fuzz_fields.py`` at any size, with the console's open.

Each mutated save goes through ``SaveFile.load``, ``flagbridge check`` and ``flagbridge resume`` (the test's
promises), and, with ``--open``, through the console as ``flagbridge open`` builds it (``tui.launch.run``'s
branch, under Textual's Pilot): the load-error screen, or the console, a few keys, and the file unchanged when it
did not load. ``--messages FILE`` writes each case's load message, to read whether it names the field. Run from
the repository root:

    python -m tests.bench.load_fuzz [--seed 30] [--per-base 40] [--open [--monkey 200]] [--messages out.txt]

It exits 1 when anything went wrong. A script, not a test: nothing here runs in the suite.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import sys
import tempfile
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))


class Capture:
    """What pytest's ``capsys`` gives the checks: the output since the last call."""

    def __init__(self) -> None:
        self.out, self.err = io.StringIO(), io.StringIO()
        self._o, self._e = redirect_stdout(self.out), redirect_stderr(self.err)
        self._o.__enter__()
        self._e.__enter__()

    def readouterr(self) -> tuple[str, str]:
        out, err = self.out.getvalue(), self.err.getvalue()
        for s in (self.out, self.err):
            s.seek(0)
            s.truncate()
        return out, err

    def close(self) -> None:
        self._e.__exit__(None, None, None)
        self._o.__exit__(None, None, None)


async def open_in_console(path: Path, case: str, found, monkey_keys: int = 0) -> None:
    """``flagbridge open PATH`` under Pilot: an error screen or the console; a few keys; no exception."""
    from engine.errors import FlagbridgeError
    from tui.app import FlagbridgeApp
    from tui.launch import load_showing_progress
    from tui.screens.load_error import LoadErrorScreen

    before = path.read_bytes()
    try:
        save = load_showing_progress(path)
    except FlagbridgeError as exc:
        app = FlagbridgeApp(save_dir=path.parent, load_error=str(exc), error_path=path)
        failed = True
    except BaseException as exc:  # noqa: BLE001
        found.add(f"open: the load raised {type(exc).__name__}", f"{case}: {str(exc)[:120]}")
        return
    else:
        app = FlagbridgeApp(save, save_dir=path.parent)
        failed = False
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            if failed and not isinstance(app.screen, LoadErrorScreen):
                found.add(f"open: a file that failed to load showed {type(app.screen).__name__}", case)
            if not failed:
                for key in ("down", "v", "escape", "c", "escape", "question_mark", "escape", "n", "u"):
                    await pilot.press(key)
            await pilot.pause()
    except Exception as exc:  # noqa: BLE001
        from tests.tui.test_monkey import where

        found.add(f"open: the console raised {type(exc).__name__} ({where(exc)})", f"{case}: {str(exc)[:160]}")
    finally:
        if app.save is not None:
            app.save.release()
    if failed and path.read_bytes() != before:
        found.add("open: a file that failed to load changed", case)
    if not failed and monkey_keys:  # a file that opens takes random keys as the demos do, and its save replays
        import random
        import shutil

        from tests.tui.test_monkey import MonkeyFailure, drive, random_keys

        copy = path.with_name("monkey.toml")
        shutil.copyfile(path, copy)
        try:
            await drive(copy, random_keys(random.Random(case), monkey_keys), (120, 40), 1)
        except MonkeyFailure as exc:
            found.add("open: random keys on a mutated save that opens broke the console", f"{case}: {str(exc)[:300]}")
        finally:
            for p in path.parent.glob("monkey.toml*"):
                p.unlink()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seed", type=int, default=30)
    p.add_argument("--per-base", type=int, default=40)
    p.add_argument("--open", action="store_true", help="open each mutated file in the console too (slow)")
    p.add_argument("--messages", type=Path, help="write each case and its load message here")
    p.add_argument("--monkey", type=int, default=0, help="with --open: this many random keys on each file that opens")
    args = p.parse_args(argv)

    from rulesets import register_builtin

    register_builtin()
    from engine.errors import FlagbridgeError
    from engine.saves import SaveFile
    from tests.engine.test_load_fuzz import Findings
    from tests.engine.test_load_fuzz_fields import run_cases

    found = Findings()
    lines: list[str] = []
    opened = 0

    def log(case: str, path: Path, mutated: bytes) -> None:
        nonlocal opened
        path.write_bytes(mutated)  # resume may have changed it
        try:
            SaveFile.load(path)
            msg = "LOADS"
        except FlagbridgeError as exc:
            msg = str(exc).replace(str(path), "PATH")
        except Exception as exc:  # noqa: BLE001  (reported by the checks already)
            msg = f"RAISED {type(exc).__name__}"
        lines.append(f"{case}\n    -> {msg[:300]}")
        if args.open:
            asyncio.run(open_in_console(path, case, found, args.monkey))
            opened += 1

    with tempfile.TemporaryDirectory(prefix="flagbridge-loadfuzz-") as tmp:
        os.environ["HOME"] = tmp
        os.environ["XDG_CONFIG_HOME"] = tmp + "/.config"
        cap = Capture()
        try:
            counts = run_cases(Path(tmp), cap, args.seed, args.per_base, found, log)
        finally:
            cap.close()
    if args.messages:
        args.messages.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"seed {args.seed}: {sum(counts.values())} mutated saves, resume {counts}, opened in the console {opened}")
    if found.by_cause:
        print(found.report())
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
