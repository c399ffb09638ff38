"""No file, however broken or hostile, gets past the loader as anything but one line (issue 14).

Issue 14 ("The loader lets foreign exceptions out", "Table paths in [setup.options.tables] have
no limits", "Text from a save is rendered as markup") found 108 of 2,000 mutated saves answered
with "unexpected error", device files that hang ``check`` and ``open``, and load errors whose
markup crashes the error screen. This test keeps that fuzzing in the suite.

1. Mutated saves, seeded: byte and bit flips, truncations, lines dropped, doubled and swapped,
   arrays and inline tables nested 10,000 deep, table headers of 3,000 parts, integers of 4,000,
   4,301 and 5,000 digits, raw NUL bytes and ``\\u0000`` in strings, Rich markup (``[/]``,
   ``[bold]``, ``[Alpha] X``) and newlines in names and ids, values of the wrong type, nan and
   inf. The bases are both shipped demos as shipped and after a few events. For each mutation:

   - ``SaveFile.load`` returns or raises a ``FlagbridgeError`` (never another exception), whose
     message is one line naming the file;
   - ``flagbridge check PATH`` (``tui.cli.main``, in this process) exits 0 or 2 and prints exactly
     one line, never "unexpected error"; an error line names the file; it takes under
     ``SECONDS`` seconds;
   - the file is byte-identical afterwards and nothing was added to its folder.

   Each load runs under an alarm and the process under a memory cap, so a file that makes the
   loader loop or allocate without end is reported, not suffered.

   Then each whole number of each demo's [setup], one at a time, is made 4,000 digits long (under
   Python's limit for reading it): the same promises hold, so no rule counts up to a number from
   the file before checking it.

2. Table paths in ``[setup.options.tables]``: ``/dev/zero``, ``/dev/urandom``, a FIFO, a folder,
   ``/dev/null``, a missing file, a path holding NUL, a 64 MB sparse file, a symlink to
   ``/dev/zero``: ``flagbridge check`` runs as a subprocess (a hang cannot stop the suite; its
   memory is capped) and must exit 2 with one line within ``SECONDS`` seconds. A relative path
   names a file beside the save, and ``check`` run from another folder must find it (exit 0).

3. The console's ``open_path`` (the start screen's way to open a file) shows the load-error
   screen for bad files whose message holds markup, deep nesting or a huge integer, with the
   message shown as text, character for character.

Failures are collected and reported grouped by what went wrong, with the mutation that caused it.
"""

from __future__ import annotations

import json
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.guards import Stuck, alarm, memory_cap

from tests.demos import shipped_demos
from engine.encounter import Encounter
from engine.errors import FlagbridgeError
from engine.saves import SaveFile, create
from tui import cli

REPO = Path(__file__).resolve().parents[2]
DEMOS = shipped_demos()
SEED = 14
MUTATIONS_PER_BASE = 75  # four bases: 300 mutated saves
SECONDS = 4.0
DEEP = 10_000
DEEP_HEADER = 3_000  # parts of one table header: tomllib reads a long key in quadratic time
MARKUP = ("[/]", "[bold]", "[Alpha] X", "x[/bold]", "[link=file:///etc/passwd]x[/link]", "[on red]", "\\[", "[")


# --- the saves to mutate ---------------------------------------------------------------------

def played(ruleset: str, folder: Path) -> Path:
    """A demo with a few events in its log, so that [[events]] and a changed [state] are mutated too."""
    sf = SaveFile.load(DEMOS[ruleset])
    enc: Encounter = sf.encounter
    if ruleset == "classic-hg":
        enc.act("roll_initiative")
        enc.type_roll("4")
        enc.type_roll("2")
        enc.act("next")
        enc.correct("ships.swift-dolan.fuel", "150", note="fuel spent")
    elif ruleset == "megatraveller":
        enc.act("set_range", ship="patrol", target="corsair", squares=2)
        enc.act("next")
        enc.act("next")
    else:  # any other ruleset: a few steps as the console offers them
        import random

        from tests.console_play import play

        play(enc, random.Random(5), 12)
    path = folder / f"played-{ruleset}.toml"
    create(path, enc)
    return path


def bases(folder: Path) -> dict[str, bytes]:
    out = {f"demo-{r}": p.read_bytes() for r, p in DEMOS.items()}
    for r in DEMOS:
        out[f"played-{r}"] = played(r, folder).read_bytes()
    return out


# --- mutations: each returns (label, new bytes) -----------------------------------------------

_INT = re.compile(rb"(=\s*)(-?\d+)(\s*(?:#.*)?)$", re.M)
_STR = re.compile(rb'(=\s*)"([^"\\\n]*)"', re.M)
_ID_KEY = re.compile(rb'^(\s*(?:id|side)\s*=\s*)"([^"\\\n]*)"', re.M)
_TABLE = re.compile(rb"^\[[^\[\]\n]+\]\s*$", re.M)


def _line_starts(data: bytes) -> list[int]:
    return [0] + [m.end() for m in re.finditer(rb"\n", data)][:-1]


def _pick(rng: random.Random, matches: list[re.Match]) -> re.Match | None:
    return rng.choice(matches) if matches else None


def m_flip_bytes(rng, data):
    b = bytearray(data)
    n = rng.randint(1, 4)
    for _ in range(n):
        b[rng.randrange(len(b))] = rng.randrange(256)
    return f"{n} random byte(s)", bytes(b)


def m_flip_bit(rng, data):
    b = bytearray(data)
    i = rng.randrange(len(b))
    b[i] ^= 1 << rng.randrange(8)
    return f"bit flip at {i}", bytes(b)


def m_truncate(rng, data):
    i = rng.randrange(len(data))
    return f"truncated at {i}", data[:i]


def m_lines(rng, data):
    lines = data.split(b"\n")
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    how = rng.choice(("drop", "double", "swap"))
    if how == "drop":
        del lines[i]
    elif how == "double":
        lines.insert(i, lines[i])
    else:
        lines[i], lines[j] = lines[j], lines[i]
    return f"line {i + 1} {how}" + (f" with {j + 1}" if how == "swap" else ""), b"\n".join(lines)


def _insert_line(rng, data, line: bytes) -> tuple[int, bytes]:
    starts = _line_starts(data)
    i = rng.randrange(len(starts))
    return i + 1, data[: starts[i]] + line + b"\n" + data[starts[i]:]


def m_deep_array(rng, data):
    at, out = _insert_line(rng, data, b"deep = " + b"[" * DEEP + b"1" + b"]" * DEEP)
    return f"array {DEEP} deep at line {at}", out


def m_deep_inline_table(rng, data):
    at, out = _insert_line(rng, data, b"deep = " + b"{a = " * DEEP + b"1" + b"}" * DEEP)
    return f"inline table {DEEP} deep at line {at}", out


def m_deep_headers(rng, data):
    """A table header with 3,000 parts under a table the save has: nested dicts 3,000 deep."""
    heads = _TABLE.findall(data)
    head = rng.choice(heads).strip()[1:-1] if heads else b"setup"
    line = b"[" + head + b"." + b".".join([b"x"] * DEEP_HEADER) + b"]\ny = 1"
    return f"table header [{head.decode()}.x.x...] {DEEP_HEADER} deep", data.rstrip(b"\n") + b"\n\n" + line + b"\n"


def m_huge_int(rng, data):
    m = _pick(rng, list(_INT.finditer(data)))
    if m is None:
        return "no integer", data
    digits = rng.choice((5_000, 4_000, 4_301))
    big = b"-" * rng.randrange(2) + b"9" * digits
    return f"integer of {digits} digits at offset {m.start(2)}", data[: m.start(2)] + big + data[m.end(2):]


def m_nul(rng, data):
    if rng.random() < 0.5:
        i = rng.randrange(len(data))
        return f"raw NUL at {i}", data[:i] + b"\x00" + data[i:]
    m = _pick(rng, list(_STR.finditer(data)))
    if m is None:
        return "no string", data
    return (f"\\u0000 in the string at offset {m.start(2)}",
            data[: m.start(2)] + m.group(2) + b"\\u0000x" + data[m.end(2):])


def m_markup(rng, data):
    m = _pick(rng, list(_STR.finditer(data)))
    if m is None:
        return "no string", data
    text = rng.choice(MARKUP)
    new = text.encode() if rng.random() < 0.5 else m.group(2) + b" " + text.encode()
    new = new.replace(b"\\", b"\\\\")
    return f"markup {new.decode()!r} for {m.group(2).decode()!r}", data[: m.start(2)] + new + data[m.end(2):]


def m_newline_id(rng, data):
    """A newline (or another line separator) in a side id, ship id or a ship's side."""
    sep = rng.choice((b"\\n", b"\\r", b"\\u2028", b"\\n[bold]"))
    if rng.random() < 0.5:
        m = _pick(rng, list(_ID_KEY.finditer(data)))
        if m is None:
            return "no id", data
        return (f"{sep.decode()} in {m.group(0).decode().strip()!r}",
                data[: m.end(2)] + sep + b"x" + data[m.end(2):])
    # a unit's key: [setup.ships.ID] -> [setup.ships."ID\nx"] everywhere it is written
    ids = sorted(set(re.findall(rb"^\[+setup\.ships\.([A-Za-z0-9_-]+)", data, re.M)))
    if not ids:
        return "no unit", data
    uid = rng.choice(ids)
    new = b'"' + uid + sep + b'x"'
    out = re.sub(rb"^(\[+(?:setup|state)\.ships\.)" + re.escape(uid) + rb"(?=[\].])", lambda m: m.group(1) + new,
                 data, flags=re.M)
    return f"ship id {uid.decode()!r} with {sep.decode()}", out


WRONG_TYPES = (b"[1, 2]", b'["a", ["b"]]', b"{a = 1}", b'"x"', b"true", b"1.5", b"1979-05-27T07:32:00Z",
               b"nan", b"inf", b"-inf", b"-0", b"[]", b"{}", b'""')


def m_wrong_type(rng, data):
    ms = list(_INT.finditer(data)) + list(_STR.finditer(data))
    m = _pick(rng, ms)
    if m is None:
        return "no value", data
    new = rng.choice(WRONG_TYPES)
    start, end = m.start(2), m.end(2)
    if m.re is _STR:
        start, end = start - 1, end + 1  # the quotes too
    return f"value at offset {start} replaced by {new.decode()}", data[:start] + new + data[end:]


MUTATORS = (m_flip_bytes, m_flip_bytes, m_flip_bit, m_truncate, m_lines, m_lines, m_deep_array,
            m_deep_inline_table, m_deep_headers, m_huge_int, m_huge_int, m_nul, m_markup, m_markup,
            m_newline_id, m_newline_id, m_wrong_type, m_wrong_type, m_wrong_type)


# --- the checks --------------------------------------------------------------------------------

class Findings:
    """Problems grouped by cause, each with the first few mutations that showed it."""

    def __init__(self) -> None:
        self.by_cause: dict[str, list[str]] = {}

    def add(self, cause: str, case: str) -> None:
        self.by_cause.setdefault(cause, []).append(case)

    def report(self) -> str:
        lines = []
        for cause, cases in sorted(self.by_cause.items(), key=lambda kv: -len(kv[1])):
            lines.append(f"{len(cases)} x {cause}")
            lines += [f"      e.g. {c}" for c in cases[:3]]
        return "\n".join(lines)


def _cause(exc: BaseException) -> str:
    tb = exc.__traceback__
    where = ""
    while tb is not None:
        f = tb.tb_frame.f_code.co_filename
        if f.startswith(str(REPO)) and "/tests/" not in f and "site-packages" not in f:
            where = f"{Path(f).relative_to(REPO)}:{tb.tb_lineno}"
        tb = tb.tb_next
    return f"{type(exc).__name__}" + (f" at {where}" if where else "")


def one_line(text: str) -> bool:
    return text.endswith("\n") and len(text.splitlines()) == 1 and text.count("\n") == 1


def check_in_process(path: Path, capsys, case: str, found: Findings, load_first: bool = True) -> None:
    """Load and ``flagbridge check`` one file; every broken promise goes to ``found``."""
    before = path.read_bytes()
    neighbours = sorted(os.listdir(path.parent))
    try:
        if load_first:
            with alarm(SECONDS + 2):
                SaveFile.load(path)
    except FlagbridgeError as exc:
        msg = str(exc)
        if len(msg.splitlines()) != 1:
            found.add("SaveFile.load: the error message is not one line", f"{case}: {msg!r}"[:300])
        elif str(path) not in msg:
            found.add("SaveFile.load: the error message does not name the file", f"{case}: {msg!r}"[:300])
    except Stuck as exc:
        found.add(f"SaveFile.load ran over {SECONDS + 2:.0f} s: {_cause(exc)} (check not run)", case)
        return
    except BaseException as exc:  # noqa: BLE001  (a foreign exception is what this test looks for)
        found.add(f"SaveFile.load let out {_cause(exc)}", f"{case}: {type(exc).__name__}: {str(exc)[:120]!r}")
    capsys.readouterr()
    t = time.perf_counter()
    try:
        with alarm(SECONDS + 2):
            rc = cli.main(["check", str(path)])
    except Stuck as exc:
        found.add(f"flagbridge check ran over {SECONDS + 2:.0f} s: {_cause(exc)}", case)
        return
    except BaseException as exc:  # noqa: BLE001
        found.add(f"flagbridge check raised {_cause(exc)}", f"{case}: {str(exc)[:120]!r}")
        rc = None
    elapsed = time.perf_counter() - t
    out, err = capsys.readouterr()
    text = out + err
    if rc not in (0, 2):
        found.add(f"flagbridge check exit code {rc}", case)
    if not one_line(text):
        found.add("flagbridge check did not print exactly one line", f"{case}: {text[:200]!r}")
    if "unexpected error" in text:
        reason = re.search(r"please report it: (\w+)", text)
        found.add(f"flagbridge check: 'unexpected error' ({reason.group(1) if reason else '?'})",
                  f"{case}: {text.strip()[:200]}")
    elif rc == 2 and str(path) not in text:
        found.add("flagbridge check: the error line does not name the file", f"{case}: {text.strip()[:200]}")
    elif rc == 0 and not out.startswith("ok:"):
        found.add("flagbridge check exit 0 without an ok line", f"{case}: {text[:200]!r}")
    if elapsed > SECONDS:
        found.add(f"flagbridge check took over {SECONDS:.0f} s", f"{case}: {elapsed:.1f} s")
    if path.read_bytes() != before:
        found.add("the file changed", case)
    if sorted(os.listdir(path.parent)) != neighbours:
        found.add("files were added or removed beside the file", f"{case}: {sorted(os.listdir(path.parent))}")


def test_mutated_saves_load_or_fail_in_one_line(tmp_path: Path, capsys) -> None:
    rng = random.Random(SEED)
    work = tmp_path / "work"
    work.mkdir()
    found = Findings()
    count = 0
    with memory_cap():
        for base_name, data in sorted(bases(tmp_path).items()):
            for i in range(MUTATIONS_PER_BASE):
                mutate = rng.choice(MUTATORS)
                label, mutated = mutate(rng, data)
                path = work / "fuzz.toml"
                path.write_bytes(mutated)
                check_in_process(path, capsys, f"{base_name} #{i} {mutate.__name__[2:]}: {label}", found)
                path.unlink()
                count += 1
    assert count >= 300
    assert not found.by_cause, f"{count} mutated saves; what went wrong:\n{found.report()}"


def test_every_number_of_the_setup_at_4000_digits(tmp_path: Path, capsys) -> None:
    """Each whole number of each demo's [setup], one at a time, made 4,000 digits long (Python still
    reads it): a rule that counts up to a number from the file must refuse it, not loop or fill memory.
    ``flagbridge check`` alone is run (it loads the file the same way), to keep the sweep short."""
    found = Findings()
    count = 0
    path = tmp_path / "huge.toml"
    with memory_cap():
        for ruleset, demo in sorted(DEMOS.items()):
            data = demo.read_bytes()
            setup_end = data.index(b"\n[state]")
            for m in _INT.finditer(data, 0, setup_end):
                line = data.count(b"\n", 0, m.start()) + 1
                key = data[data.rfind(b"\n", 0, m.start()) + 1: m.start(2)].decode().strip()
                path.write_bytes(data[: m.start(2)] + b"9" * 4000 + data[m.end(2):])
                check_in_process(path, capsys, f"{ruleset} line {line}: {key} 9...9 (4,000 digits)", found,
                                 load_first=False)
                count += 1
    assert count >= 200
    assert not found.by_cause, f"{count} numbers made huge; what went wrong:\n{found.report()}"


# --- table paths that are not regular files ---------------------------------------------------

def table_name(ruleset: str) -> str:
    """A table every fight of ``ruleset`` reads: ``weapons`` where it has one, else its first by name."""
    folder = REPO / "rulesets" / ruleset.replace("-", "_") / "tables"
    return "weapons" if (folder / "weapons.toml").exists() else sorted(folder.glob("*.toml"))[0].stem


def with_table(save_text: str, table_path: str, name: str = "weapons") -> str:
    """The save with table ``name`` replaced by ``table_path`` and no [state] (so only the setup decides)."""
    kept, skipping = [], False
    for line in save_text.splitlines(keepends=True):
        if re.match(r"\[+\s*state\s*[\].]", line):
            skipping = True
        elif re.match(r"\[+\s*(?:events|setup|flagbridge)\s*[\].]", line):
            skipping = False
        if not skipping:
            kept.append(line)
    text = "".join(kept).rstrip("\n")
    return text + f"\n\n[setup.options.tables]\n{name} = {json.dumps(table_path)}\n"


def _cap_memory() -> None:  # in the child: /dev/zero read whole must fail, not eat the machine
    limit = 1536 * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def check_subprocess(path: Path, cwd: Path) -> tuple[int | None, str, float]:
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    t = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, "-m", "tui.cli", "check", str(path)], cwd=cwd, env=env,
                              capture_output=True, text=True, timeout=SECONDS + 6, preexec_fn=_cap_memory)
    except subprocess.TimeoutExpired as exc:
        out = (exc.stdout or b"") + (exc.stderr or b"")
        return None, out.decode(errors="replace") if isinstance(out, bytes) else out, time.perf_counter() - t
    return done.returncode, done.stdout + done.stderr, time.perf_counter() - t


@pytest.mark.parametrize("ruleset", sorted(DEMOS))
def test_table_paths_are_regular_files_beside_the_save(ruleset: str, tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    elsewhere = tmp_path / "elsewhere"
    saves.mkdir()
    elsewhere.mkdir()
    fifo = tmp_path / "weapons.fifo"
    os.mkfifo(fifo)
    folder = tmp_path / "a-folder.toml"
    folder.mkdir()
    sparse = tmp_path / "sparse.toml"
    with open(sparse, "wb") as fh:
        fh.truncate(64 * 1024 * 1024)
    link = tmp_path / "zero-link.toml"
    link.symlink_to("/dev/zero")
    name = table_name(ruleset)
    shipped = REPO / "rulesets" / ruleset.replace("-", "_") / "tables" / f"{name}.toml"
    shutil.copyfile(shipped, saves / "house-weapons.toml")

    bad = {
        "/dev/zero": "/dev/zero",
        "/dev/urandom": "/dev/urandom",
        "a FIFO": str(fifo),
        "a folder": str(folder),
        "/dev/null": "/dev/null",
        "a missing file": str(tmp_path / "missing.toml"),
        "a path with NUL": str(tmp_path) + "/we\x00apons.toml",
        "a 64 MB sparse file": str(sparse),
        "a symlink to /dev/zero": str(link),
        "a relative path that goes nowhere": "no-such-folder/weapons.toml",
    }
    demo = DEMOS[ruleset].read_text(encoding="utf-8")
    problems = []
    for what, target in bad.items():
        path = saves / "hostile.toml"
        path.write_text(with_table(demo, target, name), encoding="utf-8")
        before = path.read_bytes()
        rc, text, elapsed = check_subprocess(path, elsewhere)
        if rc is None:
            problems.append(f"{what}: flagbridge check hung (killed after {elapsed:.0f} s)")
            continue
        if rc != 2 or not one_line(text) or "unexpected error" in text or str(path) not in text:
            problems.append(f"{what}: exit {rc}, {text.strip()[:200]!r}")
        if elapsed > SECONDS:
            problems.append(f"{what}: took {elapsed:.1f} s")
        if path.read_bytes() != before:
            problems.append(f"{what}: the save changed")

    # A relative path is relative to the save's folder: the save still opens when checked (or
    # moved and opened) from anywhere else.
    path = saves / "house-rules.toml"
    path.write_text(with_table(demo, "house-weapons.toml", name), encoding="utf-8")
    rc, text, elapsed = check_subprocess(path, elsewhere)
    if rc != 0 or not one_line(text) or not text.startswith("ok:"):
        problems.append(f"a relative path beside the save, checked from another folder: exit {rc}, "
                        f"{text.strip()[:200]!r}")
    moved = tmp_path / "moved"
    shutil.copytree(saves, moved)
    rc, text, elapsed = check_subprocess(moved / "house-rules.toml", saves)
    if rc != 0 or not text.startswith("ok:"):
        problems.append(f"the same save moved to another folder with its table: exit {rc}, {text.strip()[:200]!r}")
    assert not problems, f"{ruleset}: table paths in [setup.options.tables]:\n" + "\n".join(problems)


# --- the console's way to open a bad file -----------------------------------------------------

def _bad_files(folder: Path) -> dict[str, Path]:
    demo = DEMOS["classic-hg"].read_text(encoding="utf-8")
    cases = {
        "markup in an unknown ruleset": demo.replace('ruleset = "classic-hg"', 'ruleset = "[/]"', 1),
        "markup in a bad format": demo.replace("format = 1", 'format = "[bold]x[/]"', 1),
        "a side name with [Alpha]": demo.replace('id = "imperial"', 'id = ["[Alpha] X", "[/]"]', 1),
        "an array 10,000 deep": demo + "\ndeep = " + "[" * DEEP + "]" * DEEP + "\n",
        "an integer of 5,000 digits": demo.replace("seed = ", "seed = " + "9" * 5000 + "#", 1),
        "a list for a ship value": demo.replace("tonnage = 400", "tonnage = [400]", 1),
    }
    out = {}
    for i, (what, text) in enumerate(cases.items()):
        path = folder / f"bad-{i}.toml"
        path.write_text(text, encoding="utf-8")
        out[what] = path
    return out


async def test_the_console_shows_every_bad_file_as_text(tmp_path: Path) -> None:
    from tui.app import FlagbridgeApp
    from tui.screens.load_error import LoadErrorScreen

    problems = []
    for what, path in _bad_files(tmp_path).items():
        try:
            SaveFile.load(path)
        except FlagbridgeError as exc:
            expected = str(exc)
        except Exception as exc:  # noqa: BLE001
            problems.append(f"{what}: SaveFile.load let out {type(exc).__name__}: {str(exc)[:100]}")
            expected = None
        else:
            problems.append(f"{what}: the file loaded")
            continue
        app = FlagbridgeApp(save_dir=tmp_path, start="start")
        try:
            async with app.run_test(size=(160, 48)) as pilot:
                try:
                    app.open_path(path)
                except Exception as exc:  # noqa: BLE001  (from the start screen this would crash the app)
                    problems.append(f"{what}: open_path raised {type(exc).__name__}: {str(exc)[:100]}")
                    continue
                await pilot.pause()
                if not isinstance(app.screen, LoadErrorScreen):
                    problems.append(f"{what}: open_path showed {type(app.screen).__name__}, not the load-error screen")
                elif expected is not None:
                    shown = str(app.screen.query_one("#error-reason").render())
                    if expected not in shown:
                        tail = expected[expected.rfind(":", 0, len(expected) - 20) + 1:]
                        problems.append(f"{what}: the error screen does not show the message as written; "
                                        f"it ends {tail!r}, the screen shows {shown[-len(tail) - 20:]!r}")
                await pilot.pause()
                assert app.return_code is None
        except Exception as exc:  # noqa: BLE001  (raised in the app, re-raised by run_test)
            problems.append(f"{what}: the console raised {type(exc).__name__}: {str(exc)[:120]}")
    assert not problems, "\n".join(problems)
