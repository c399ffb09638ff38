"""The full monkey of issue 14: 10,000 random keys a ruleset into the console, and what it found.

The suite runs a share of this (``tests/tui/test_monkey.py``: 1,200 keys for each ruleset and
size, over two seeds). This script runs the full count, split between the two terminal sizes, on a fresh copy
of each shipped demo, and prints for each run the keys sent, the events recorded, how often the
app quit by itself and was reopened, the screens the keys reached, the time, and any failure with
the last keys that led to it. Run from the repository root:

    python -m tests.bench.monkey [--keys 10000] [--seed 1] [--ruleset classic-hg] [--size 160x48] [--forms]

``--forms`` draws keys that open each form and type printable junk into its fields (``form_keys``).

It exits 1 when any run failed. It is a script, not a test: nothing here runs in the suite.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))


def _size(text: str) -> tuple[int, int]:
    w, _, h = text.lower().partition("x")
    return int(w), int(h)


async def _one(ruleset: str, size: tuple[int, int], count: int, seed: int, folder: Path, forms: bool = False) -> bool:
    from tests.tui.test_monkey import DEMOS, MonkeyFailure, drive, form_keys, random_keys

    path = folder / f"{ruleset}-{size[0]}x{size[1]}-{seed}.toml"
    shutil.copyfile(DEMOS[ruleset], path)
    if forms:  # as test_junk_typed_into_every_form_never_breaks_the_console_or_the_save draws them
        keys = form_keys(random.Random(f"forms-{ruleset}-{seed}"), count)
    else:
        keys = random_keys(random.Random(f"{ruleset}-{size}-{seed}"), count)
    t = time.perf_counter()
    head = f"{ruleset:14} {size[0]:>3}x{size[1]:<3} seed {seed:<4} {count:>6} keys"
    try:
        run = await drive(path, keys, size, seed)
    except MonkeyFailure as exc:
        print(f"{head}  FAILED after {time.perf_counter() - t:6.1f} s\n    " + str(exc).replace("\n", "\n    "))
        return False
    print(f"{head}  ok in {time.perf_counter() - t:6.1f} s ({(time.perf_counter() - t) / count * 1000:.1f} ms a key): "
          f"{run.events} events, reopened {run.reopened}x, screens: {', '.join(sorted(run.screens))}")
    return True


def main(argv: list[str] | None = None) -> int:
    from tests.tui.test_monkey import DEMOS, SIZES

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--keys", type=int, default=10_000, help="keys a ruleset, split between the sizes")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--ruleset", choices=sorted(DEMOS), action="append", help="default: every shipped demo")
    p.add_argument("--size", type=_size, action="append", help="WxH; default: 160x48 and 80x24")
    p.add_argument("--forms", action="store_true", help="keys that open forms and type junk into them (form_keys)")
    args = p.parse_args(argv)

    from rulesets import register_builtin

    register_builtin()
    sizes = args.size or list(SIZES)
    ok = True
    with tempfile.TemporaryDirectory(prefix="flagbridge-monkey-") as tmp:
        folder = Path(tmp)
        os.environ["HOME"] = str(folder)  # a screenshot from the palette lands here, not in ~/Downloads
        os.chdir(folder)
        for ruleset in args.ruleset or sorted(DEMOS):
            for size in sizes:
                ok &= asyncio.run(_one(ruleset, size, args.keys // len(sizes), args.seed, folder, args.forms))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
