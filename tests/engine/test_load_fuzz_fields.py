"""Saves mutated field by field: each is refused in one line naming the file, or opens; never a traceback.

``test_load_fuzz`` mutates bytes and lines. This one mutates what a game master's hand edit does to the parsed
file, one field at a time: a key deleted, a value of another type, a number out of range or huge, a Unicode or
control character in a text, a table or array entry written twice, another ruleset's id, a logged roll the dice
cannot make, events reordered. The bases are every shipped demo as shipped and a few events in
(``test_load_fuzz.bases``). Each mutated file goes through ``SaveFile.load`` and ``flagbridge check`` (the
promises of ``test_load_fuzz.check_in_process``) and ``flagbridge resume``, which either refuses in one line
naming the file and leaves it byte for byte as it was, or keeps the file whole beside it and leaves a save that
opens and plays on. The console's ``open`` of the same files is ``tests/bench/load_fuzz.py``'s (it takes a second a file).
"""

from __future__ import annotations

import datetime as dt
import random
import re
from pathlib import Path
from typing import Any, Callable, Iterator

import tomlkit

from engine.errors import FlagbridgeError
from engine.reading import parse_toml
from engine.saves import SaveFile
from tests.engine.test_load_fuzz import Findings, _cause, bases, check_in_process, one_line
from tests.guards import Stuck, alarm, memory_cap
from tui import cli

SEED = 30
MUTATIONS_PER_BASE = 40  # eight bases: 320 mutated saves
SECONDS = 6.0

Path_ = tuple  # a path into the parsed file: keys and list indexes


def nodes(doc: Any, path: Path_ = ()) -> Iterator[tuple[Path_, Any]]:
    """Every value in the parsed file with its path, tables and lists too."""
    yield path, doc
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from nodes(v, path + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from nodes(v, path + (i,))


def at(doc: Any, path: Path_) -> Any:
    for k in path:
        doc = doc[k]
    return doc


def put(doc: Any, path: Path_, value: Any) -> None:
    at(doc, path[:-1])[path[-1]] = value


def label(path: Path_) -> str:
    return ".".join(str(k) for k in path)


# --- mutations of the parsed file: each returns (what it did, the file's new text, the path it touched) -------

OTHER_TYPES = ([1, 2], ["a", ["b"]], {"a": 1}, "x", True, 1.5, dt.datetime(1979, 5, 27, 7, 32), [], {}, "",
               float("nan"), float("inf"), -0.0, dt.date(2026, 1, 1))
ODD_TEXT = ("\x00", "\x01", "\x07", "\x1b[31m", "\x7f", "\u202e", "\u200b", "\ufeff", "\U0001f680", "e\u0301",
            "\u2028", "\r", "\t", "\\", "Ω" * 3, "\udc80", "[/]")


def _pick(rng: random.Random, doc: dict, want: Callable[[Path_, Any], bool]) -> Path_ | None:
    found = [p for p, v in nodes(doc) if p and want(p, v)]
    return rng.choice(found) if found else None


def mu_delete_key(rng, doc):
    p = _pick(rng, doc, lambda p, v: isinstance(p[-1], str))
    if p is None:
        return "no key", None
    del at(doc, p[:-1])[p[-1]]
    return f"deleted {label(p)}", p


def mu_other_type(rng, doc):
    p = _pick(rng, doc, lambda p, v: not isinstance(v, (dict, list)) or rng.random() < 0.1)
    if p is None:
        return "no value", None
    new = rng.choice(OTHER_TYPES)
    put(doc, p, new)
    return f"{label(p)} = {new!r}", p


def mu_number(rng, doc):
    p = _pick(rng, doc, lambda p, v: isinstance(v, int) and not isinstance(v, bool))
    if p is None:
        return "no number", None
    old = at(doc, p)
    new = rng.choice((-1, -old - 1, 0, old + 1, old + 7, old * 100 + 1000, 2**31, 2**63 - 1, -(2**63), 10**30,
                      10**300, 99))
    put(doc, p, new)
    return f"{label(p)} = {new} (was {old})", p


def mu_text(rng, doc):
    """An odd character in a text, or in a key; half the time a text of the setup or the log, which no replay
    compares (a name, a note, a roll's purpose)."""
    within = rng.choice((("setup",), ("events",), ()))
    p = _pick(rng, doc, lambda p, v: p[:len(within)] == within and (
        isinstance(v, str) or (isinstance(p[-1], str) and rng.random() < 0.05)))
    if p is None:
        return "no text", None
    odd = rng.choice(ODD_TEXT)
    old = at(doc, p)
    if isinstance(old, str):
        i = rng.randrange(len(old) + 1)
        put(doc, p, old[:i] + odd + old[i:])
        return f"{label(p)} with {odd!r}", p
    parent = at(doc, p[:-1])  # a key itself gets the odd character
    parent[p[-1] + odd] = parent.pop(p[-1])
    return f"key {label(p)} with {odd!r}", p


def mu_ruleset(rng, doc):
    new = rng.choice(("classic-hg", "megatraveller", "gothic", "percentile", "CLASSIC-HG", "classic_hg",
                      "no-such-ruleset", "", " gothic", "test-demo", "../etc", "[bold]x"))
    for where in (("flagbridge", "ruleset"), ("setup", "ruleset")):
        try:
            at(doc, where)
        except (KeyError, TypeError):
            continue
        put(doc, where, new)
        return f"{label(where)} = {new!r}", where
    return "no ruleset", None


def _events(doc) -> list | None:
    ev = doc.get("events")
    return ev if isinstance(ev, list) and ev else None


def mu_bad_roll(rng, doc):
    ev = _events(doc)
    rolls = [i for i, e in enumerate(ev or []) if isinstance(e, dict) and e.get("kind") == "roll"]
    if not rolls:
        return "no logged roll", None
    i = rng.choice(rolls)
    e = ev[i]
    faces = e.get("faces") if isinstance(e.get("faces"), list) else []
    how = rng.choice(("natural", "faces", "faces count", "dice", "both", "then", "modifier"))
    if how == "natural":
        e["natural"] = rng.choice((0, -1, 13, 101, 10**20, (e.get("natural") or 0) + 1))
        where = "natural"
    elif how == "faces":
        e["faces"] = [rng.choice((0, 7, -1, 11, 10**9)) for _ in faces] or [0]
        where = "faces"
    elif how == "faces count":
        e["faces"] = faces + [1] if rng.random() < 0.5 else faces[:-1]
        where = "faces"
    elif how == "dice":
        e["dice"] = rng.choice(("0D", "13D", "1D0", "D", "2D6+", "1:100sd", "x", "", "1000000D", "2d6", "3D"))
        where = "dice"
    elif how == "both":
        e["natural"], e["faces"] = 12, [6, 6, 6] if len(faces) != 3 else [6, 6]
        where = "natural"
    elif how == "then":
        e["then"] = rng.choice(("no_such_continuation", "", "initiative", "damage"))
        where = "then"
    else:
        e["modifiers"] = rng.choice(([{"source": "x", "value": 10**20}], [{"source": "", "value": -99}], "x"))
        where = "modifiers"
    return f"events[{i}] ({e.get('purpose', '?')!s:.30}): {how} -> {e.get(where)!r:.40}", ("events", i, where)


def mu_reorder(rng, doc):
    ev = _events(doc)
    if not ev or len(ev) < 2:
        return "too few events", None
    how = rng.choice(("swap", "reverse", "move to end", "duplicate", "drop first", "group"))
    i, j = rng.randrange(len(ev)), rng.randrange(len(ev))
    if how == "swap":
        ev[i], ev[j] = ev[j], ev[i]
    elif how == "reverse":
        ev.reverse()
    elif how == "move to end":
        ev.append(ev.pop(i))
    elif how == "duplicate":
        ev.insert(i, dict(ev[i]))
    elif how == "drop first":
        del ev[0]
    else:
        if isinstance(ev[i], dict):
            ev[i]["group"] = rng.choice((0, -1, 10**6, "x", ev[j].get("group") if isinstance(ev[j], dict) else 1))
    return f"events {how} ({i}, {j})", ("events", i)


MUTATORS = (mu_delete_key, mu_delete_key, mu_other_type, mu_other_type, mu_number, mu_number, mu_text, mu_text,
            mu_ruleset, mu_bad_roll, mu_bad_roll, mu_reorder, mu_reorder)


def _dup_table(rng: random.Random, text: str) -> tuple[str, str]:
    """A table or array-of-tables block written twice in the text (tomllib refuses the one, reads two of the other)."""
    heads = [m for m in re.finditer(r"^\[\[?[^\n]+\]\]?[ \t]*$", text, re.M)]
    m = rng.choice(heads)
    nxt = re.compile(r"^\[", re.M).search(text, m.end())
    end = nxt.start() if nxt else len(text)
    block = text[m.start():end].rstrip("\n") + "\n\n"
    return f"{m.group(0).strip()} written twice", text[:end] + block + text[end:]


def mutate(rng: random.Random, data: bytes) -> tuple[str, bytes, Path_ | None]:
    """One mutation of a save's bytes: (what it did, the new bytes, the path of the field it touched)."""
    text = data.decode("utf-8")
    if rng.random() < 0.1:
        what, new = _dup_table(rng, text)
        return what, new.encode(), None
    if rng.random() < 0.04:
        i = rng.randrange(len(data))
        return f"truncated at byte {i}", data[:i], None
    doc = parse_toml(text)
    mutator = rng.choice(MUTATORS)
    what, path = mutator(rng, doc)
    try:
        out = tomlkit.dumps(doc)
    except Exception as exc:  # noqa: BLE001  (a value tomlkit will not write: a lone surrogate)
        return f"{mutator.__name__[3:]}: {what} (unwritable: {type(exc).__name__})", data, None
    return f"{mutator.__name__[3:]}: {what}", out.encode("utf-8", "surrogateescape"), path


# --- what a save that loads may show -------------------------------------------------------------------------

ESCAPE_CODES = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")  # all but a line end and a tab


def check_loaded_text(path: Path, case: str, found: Findings) -> None:
    """A save that loads holds no text that would send an escape code to the terminal when shown as written:
    its setup, its state, and every logged event's data."""
    try:
        with alarm(SECONDS):
            enc = SaveFile.load(path).encounter
    except (FlagbridgeError, Stuck, Exception):  # noqa: BLE001  (the load's own promises are check_in_process's)
        return
    events = [ev.data for ev in enc.events]
    for what, tree in (("setup", vars(enc.setup)), ("state", enc.state), ("events", events)):
        for p, v in nodes(tree):
            if isinstance(v, str) and ESCAPE_CODES.search(v):
                found.add(f"a save that loads holds a control character in its {what}", f"{case}: at {label(p)}")
                return


# --- resume -------------------------------------------------------------------------------------------------

def check_resume(path: Path, capsys, case: str, found: Findings) -> str:
    """``flagbridge resume`` on a copy: one line; refused -> unchanged; done -> the old file kept whole, and the
    resumed save opens. Answers what happened ("refused", "resumed", or what went wrong)."""
    before = path.read_bytes()
    neighbours = set(path.parent.iterdir())
    capsys.readouterr()
    try:
        with alarm(SECONDS):
            rc = cli.main(["resume", str(path)])
    except Stuck as exc:
        found.add(f"flagbridge resume ran over {SECONDS:.0f} s: {_cause(exc)}", case)
        return "stuck"
    except BaseException as exc:  # noqa: BLE001
        found.add(f"flagbridge resume raised {_cause(exc)}", f"{case}: {str(exc)[:120]!r}")
        return "raised"
    out, err = capsys.readouterr()
    text = out + err
    added = set(path.parent.iterdir()) - neighbours
    if not one_line(text):
        found.add("flagbridge resume did not print exactly one line", f"{case}: {text[:200]!r}")
    if "unexpected error" in text:
        found.add("flagbridge resume: 'unexpected error'", f"{case}: {text.strip()[:200]}")
    if rc == 2:
        if str(path) not in text:
            found.add("flagbridge resume: the error line does not name the file", f"{case}: {text.strip()[:200]}")
        if path.read_bytes() != before:
            found.add("flagbridge resume refused, and the file changed", case)
        if added:
            found.add("flagbridge resume refused, and left files beside it", f"{case}: {sorted(p.name for p in added)}")
        return "refused"
    if rc != 0:
        found.add(f"flagbridge resume exit code {rc}", case)
        return "odd"
    kept = [p for p in added if ".before-resume" in p.name]
    if len(kept) != 1 or kept[0].read_bytes() != before:
        found.add("flagbridge resume: the file as it was is not kept whole beside it", case)
    from tests.console_play import play

    try:
        with alarm(SECONDS):
            enc = SaveFile.load(path).encounter
        with alarm(SECONDS * 2):
            play(enc, random.Random(case), 30)  # the resumed fight plays on as the console offers it
    except (FlagbridgeError, Stuck) as exc:
        found.add("flagbridge resume said ok, and the resumed save does not open or play", f"{case}: {str(exc)[:160]}")
    except BaseException as exc:  # noqa: BLE001  (console_play's AssertionError: an offer the rules refused)
        found.add(f"the resumed save's load or play raised {_cause(exc)}", f"{case}: {str(exc)[:120]}")
    for p in added:
        p.unlink()
    return "resumed"


def run_cases(folder: Path, capsys, seed: int, per_base: int, found: Findings, log=None) -> dict[str, int]:
    """Mutate every base ``per_base`` times from ``seed``; check, load and resume each. Answers counts of outcomes."""
    rng = random.Random(seed)
    work = folder / "work"
    work.mkdir(exist_ok=True)
    counts: dict[str, int] = {}
    for base_name, data in sorted(bases(folder).items()):
        for i in range(per_base):
            what, mutated, _path = mutate(rng, data)
            case = f"seed {seed} {base_name} #{i}: {what}"
            path = work / "fuzz.toml"
            path.write_bytes(mutated)
            check_in_process(path, capsys, case, found)
            check_loaded_text(path, case, found)
            outcome = check_resume(path, capsys, case, found)
            counts[outcome] = counts.get(outcome, 0) + 1
            if log is not None:
                log(case, path, mutated)
            for p in work.iterdir():
                p.unlink()
    return counts


def test_saves_mutated_field_by_field_load_or_fail_in_one_line(tmp_path: Path, capsys) -> None:
    found = Findings()
    with memory_cap():
        counts = run_cases(tmp_path, capsys, SEED, MUTATIONS_PER_BASE, found)
    assert sum(counts.values()) >= 300 and counts.get("refused", 0) > 0
    assert not found.by_cause, f"{counts}; what went wrong:\n{found.report()}"


# --- a setup number at an edge, then played ------------------------------------------------------------------

EDGES = (0, 1, -1, 2, 6, 9, 10, 20, 99, 100, 1000, 10**6, 10**9)
PLAY_STEPS = 40


def edge_cases(rng: random.Random, per_demo: int) -> Iterator[tuple[str, str, bytes]]:
    """(case, ruleset, text): a demo with one whole number of its [setup] set to an edge value, ``per_demo`` a demo."""
    from tests.demos import shipped_demos

    for ruleset, demo in sorted(shipped_demos().items()):
        text = demo.read_text(encoding="utf-8")
        doc = parse_toml(text)
        numbers = [p for p, v in nodes(doc.get("setup", {}), ("setup",))
                   if isinstance(v, int) and not isinstance(v, bool)]
        for _ in range(per_demo):
            p = rng.choice(numbers)
            new = rng.choice(EDGES)
            changed = parse_toml(text)
            put(changed, p, new)
            changed.pop("state", None)  # the fight as the log makes it from this setup
            yield f"{ruleset}: {label(p)} = {new} (was {at(doc, p)})", ruleset, tomlkit.dumps(changed).encode()


def check_edge_played(path: Path, case: str, rng: random.Random, found: Findings) -> str:
    """Loads (or is refused in one line), then plays ``PLAY_STEPS`` console moves, saves and reopens to the same
    state. Answers "refused", "played" or what went wrong."""
    from engine.saves import create
    from tests.console_play import play

    try:
        with alarm(SECONDS):
            sf = SaveFile.load(path)
    except FlagbridgeError as exc:
        if len(str(exc).splitlines()) != 1 or str(path) not in str(exc):
            found.add("a refusal not one line naming the file", f"{case}: {str(exc)[:200]!r}")
        return "refused"
    except (Exception, Stuck) as exc:  # noqa: BLE001
        found.add(f"SaveFile.load raised {_cause(exc)}", f"{case}: {str(exc)[:120]}")
        return "raised"
    enc = sf.encounter
    try:
        with alarm(SECONDS * 2):
            play(enc, rng, PLAY_STEPS)
            create(path, enc)
            again = SaveFile.load(path).encounter
        if again.state != enc.state:
            found.add("played, saved and reopened to another state", case)
    except (Exception, Stuck) as exc:  # noqa: BLE001  (console_play's AssertionError: an offer the rules refused)
        found.add(f"playing on raised {_cause(exc)}", f"{case}: after {len(enc.events)} events: "
                                                        f"{type(exc).__name__}: {str(exc)[:160]}")
        return "raised"
    return "played"


def run_edges(folder: Path, seed: int, per_demo: int, found: Findings) -> dict[str, int]:
    rng = random.Random(seed)
    counts: dict[str, int] = {}
    for i, (case, _ruleset, data) in enumerate(edge_cases(rng, per_demo)):
        path = folder / "edge.toml"
        path.write_bytes(data)
        outcome = check_edge_played(path, f"seed {seed} #{i} {case}", random.Random(f"{seed}-{i}"), found)
        counts[outcome] = counts.get(outcome, 0) + 1
    return counts


def test_a_setup_number_at_an_edge_is_refused_or_plays(tmp_path: Path) -> None:
    found = Findings()
    with memory_cap():
        counts = run_edges(tmp_path, SEED, 15, found)
    assert counts.get("played", 0) > 10
    assert not found.by_cause, f"{counts}; what went wrong:\n{found.report()}"


# --- resume from a state edited by hand ----------------------------------------------------------------------

def resume_cases(rng: random.Random, data: bytes, count: int) -> Iterator[tuple[str, bytes]]:
    """A played save whose log no longer replays (an event names an action the rules no longer have, so only
    ``resume`` opens it), with one [state] value mutated as ``mu_number``, ``mu_other_type``, ``mu_delete_key`` or ``mu_text`` would."""
    for _ in range(count):
        doc = parse_toml(data.decode("utf-8"))
        ev = doc.get("events") or []
        cut = rng.randrange(len(ev))
        ev[cut] = dict(ev[cut], kind="action", name="a_rule_no_longer_there", args={})
        mutator = rng.choice((mu_number, mu_number, mu_other_type, mu_delete_key, mu_text))
        state = {"state": doc["state"]}
        what, _path = mutator(rng, state)
        if "state" in state:
            doc["state"] = state["state"]
        else:  # the whole [state] deleted
            del doc["state"]
        try:
            yield f"events[{cut}] no longer replays, {mutator.__name__[3:]}: {what}", tomlkit.dumps(doc).encode()
        except Exception:  # noqa: BLE001  (a value tomlkit will not write)
            continue


def run_resume_cases(folder: Path, capsys, seed: int, per_base: int, found: Findings) -> dict[str, int]:
    rng = random.Random(seed)
    work = folder / "work"
    work.mkdir(exist_ok=True)
    counts: dict[str, int] = {}
    for base_name, data in sorted(bases(folder).items()):
        if not base_name.startswith("played-"):
            continue
        for i, (what, mutated) in enumerate(resume_cases(rng, data, per_base)):
            case = f"seed {seed} {base_name} #{i}: {what}"
            path = work / "fuzz.toml"
            path.write_bytes(mutated)
            outcome = check_resume(path, capsys, case, found)
            counts[outcome] = counts.get(outcome, 0) + 1
            for p in work.iterdir():
                p.unlink()
    return counts


def test_a_state_edited_by_hand_resumes_to_a_fight_that_plays_or_is_refused(tmp_path: Path, capsys) -> None:
    found = Findings()
    with memory_cap():
        counts = run_resume_cases(tmp_path, capsys, SEED, 25, found)
    assert counts.get("resumed", 0) > 10 and counts.get("refused", 0) > 10, counts
    assert not found.by_cause, f"{counts}; what went wrong:\n{found.report()}"
