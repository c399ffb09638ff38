"""The save reader (toml-rs, or rtoml for what toml-rs must not see; issue 13): the same data as the
standard library's tomllib, bad input one line.

Saves are read with the Rust readers because they are many times faster on a long log; these tests hold
both to what tomllib (the reference reader of TOML 1.0) returns for every kind of value a save holds,
and to a clean refusal, never a crash, for hostile input.
"""

from __future__ import annotations

import math
import pickle
import tomllib
from datetime import datetime, timezone
from pathlib import Path

import pytest

from engine.reading import NotToml, fast_readable, parse_toml, standard_time, standard_times
from engine.saves import SaveFile

ROOT = Path(__file__).resolve().parents[2]
DEMOS = sorted((ROOT / "saves").glob("demo-*.toml"))

SAMPLE = '''
[flagbridge]
created = 2026-11-29T12:00:00Z
updated = 2026-11-30T16:13:01.123456+02:00
local = 2026-11-30T16:13:01
day = 2026-11-30
seed = -9223372036854775808
big = 9223372036854775807
bigger = 99999999999999999999999999

[state]
hull = 0
energy = 87.5
tiny = 5e-324
huge = 1.7976931348623157e308
inf = inf
minus = -inf
text = "tab\\tquote\\" é \\u00e9 ☃ [bold]"
literal = 'C:\\path'
lists = [[1, 2], [3, [4, 5]], [], ["a", true, 1.5]]
tables = [{ a = 1 }, { b = [{ c = "d" }] }]
"quoted key" = { "" = 1 }

[[events]]
kind = "roll"
at = 2026-11-30T16:13:01Z
faces = [1, 3]
context = { side = "blue", target = "brute" }

[[events]]
kind = "action"
args = {}
'''


def same(a, b) -> bool:
    """Equal values of exactly the same types, all the way down (nan equals nan here)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    if isinstance(a, datetime):
        return a == b and a.utcoffset() == b.utcoffset() and (a.tzinfo is None) == (b.tzinfo is None)
    return a == b


def test_every_kind_of_value_reads_as_tomllib_reads_it() -> None:
    assert not fast_readable(SAMPLE)  # its 26-digit number: read by rtoml
    assert same(standard_times(parse_toml(SAMPLE)), tomllib.loads(SAMPLE))


def test_every_kind_of_value_a_save_holds_reads_as_tomllib_reads_it_on_the_fast_reader() -> None:
    # less its 26-digit number and the largest float, whose 20 digits and e the cautious check takes for a number
    text = SAMPLE.replace("bigger = 99999999999999999999999999\n", "").replace("huge = 1.7976931348623157e308\n", "")
    assert fast_readable(text)
    assert same(standard_times(parse_toml(text)), tomllib.loads(text))


@pytest.mark.parametrize(("text", "fast"), [
    ("a = [[1, 2], [3, [4, 5]], [], { b = [{ c = 1 }] }]", True),
    ("[[events]]\nkind = 'roll'\n[x.y.z]\nw = 1.5", True),
    ("a = " + "[" * 64 + "]" * 64, True),
    ("a = " + "[" * 65 + "]" * 65, False),           # deeper than a save nests: rtoml's refusal, not a crash
    ("a = " + "{ b = " * 65 + "1" + " }" * 65, False),
    ("a = " + "[{" * 60 + "}]" * 60, True),             # a round takes out (about) a pair of each kind
    ("a = " + "[{" * 70 + "}]" * 70, False),
    ("a = 9223372036854775807", True),                 # the largest 64-bit number: 19 digits
    ("a = 92233720368547758070", False),               # 20 digits
    ("a = 0xffffffffffffffffffff", False),
    ("[" + ".".join(["x"] * 17) + "]", False),          # a key of 17 parts
    ("[" + ".".join(["x"] * 16) + "]", True),
    ('a = "["', False),                                  # a bracket left open inside a string: cautious
    ('a = "[]{} text"', True),
])
def test_the_fast_reader_gets_only_what_nests_as_a_save_does(text: str, fast: bool) -> None:
    assert fast_readable(text) is fast
    try:  # either reader gives tomllib's data or a one-line refusal
        expected = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError):
        with pytest.raises(NotToml):
            parse_toml(text)
    else:
        try:
            got = parse_toml(text)
        except NotToml:
            assert not fast  # only rtoml refuses what tomllib reads (nesting past its limit)
        else:
            assert same(standard_times(got), expected)


def test_nan_reads_as_nan() -> None:
    assert math.isnan(parse_toml("a = nan")["a"])


@pytest.mark.parametrize("demo", DEMOS, ids=lambda p: p.stem)
def test_each_shipped_demo_reads_as_tomllib_reads_it(demo: Path) -> None:
    text = demo.read_text(encoding="utf-8")
    assert same(standard_times(parse_toml(text)), tomllib.loads(text))


def test_times_are_made_standard_so_they_pickle() -> None:
    raw = parse_toml("a = 2026-11-30T16:13:01Z\nb = 2026-11-30T16:13:01+02:00")
    for key, offset in (("a", 0), ("b", 7200)):
        t = standard_time(raw[key])
        assert type(t.tzinfo) is timezone and t.utcoffset().total_seconds() == offset and t == raw[key]
        assert pickle.loads(pickle.dumps(t)) == t


@pytest.mark.parametrize("text", [
    "a = ",
    "[a]\n[a]",
    "a = 1\na = 2",
    "a = 2026-13-01",
    'a = "\x01"',
    'a = "\x00"',
    "a = 1\rb = 2",
    "a = [1, 2",
    "= 1",
    "a = " + "[" * 10_000 + "]" * 10_000,           # nested 10,000 deep: an error, not a crash
    "a = " + "{b = " * 5_000 + "1" + "}" * 5_000,
    "[" + ".".join(["x"] * 3_000) + "]\n",
    "a = " + "9" * 40,  # past 128 bits: refused (tomllib reads up to 4,300 digits; a rule refuses them)
])
def test_bad_input_is_one_line_not_toml(text: str) -> None:
    with pytest.raises(NotToml) as err:
        parse_toml(text)
    assert "\n" not in str(err.value) and str(err.value)


def test_a_loaded_save_writes_its_times_back_unchanged(tmp_path: Path) -> None:
    from engine.encounter import Encounter
    from engine.saves import create
    from tests.skirmish import make_setup

    enc = Encounter(make_setup())
    enc.act("next")
    enc.act("scan", side="blue", target="brute")
    enc.type_roll("9")
    create(tmp_path / "fight.toml", enc)
    sf = SaveFile.load(tmp_path / "fight.toml")
    loaded = sf.encounter
    assert [ev.at for ev in loaded.events] == [ev.at for ev in enc.events]
    for ev in loaded.events:
        ev.text = None  # written afresh from the values read
    again = tomllib.loads(sf.text())
    assert [e["at"] for e in again["events"]] == [ev.at for ev in enc.events]
    assert type(loaded.updated.tzinfo) is timezone
    assert pickle.loads(pickle.dumps(loaded.setup.created)) == loaded.setup.created


def test_event_headers_are_found_where_the_line_pattern_finds_them() -> None:
    """The fast search for ``[[events]]`` lines agrees with the plain line pattern on every layout."""
    import random

    from engine.saves import _EVENTS_LINE, _event_starts

    rng = random.Random(5)
    pieces = ["[[events]]", " [[events]]", "\t[[ events ]] # c", "x [[events]]", "[[events]]\r", "[[events]] x",
              "[[eventsx]]", "a = [[1]]", "[[events]] # [[events]]", "  [[events]]  ", "", "kind = 1",
              "[[events]]#", "[[ events]]", 's = "[[events]]"']
    for _ in range(3000):
        text = "\n".join(rng.choice(pieces) for _ in range(rng.randrange(12))) + rng.choice(["", "\n", "\n\n"])
        assert _event_starts(text) == [m.start() for m in _EVENTS_LINE.finditer(text)], text


# --- table, ship and doctrine files (``read_toml``: rtoml, with tomllib for every refusal) ---------------

SHIPPED_TOML = sorted(p for p in (ROOT / "rulesets").rglob("*.toml"))


def test_every_shipped_table_ship_and_doctrine_file_reads_as_tomllib_reads_it() -> None:
    from engine.reading import read_toml

    assert len(SHIPPED_TOML) > 40
    for path in SHIPPED_TOML:
        assert read_toml(path) == tomllib.loads(path.read_text(encoding="utf-8")), path


@pytest.mark.parametrize("text, words", [
    ('a = "C:\\eject"\n', "Unescaped '\\'"),  # TOML 1.1's \e escape: refused as TOML 1.0 refuses it
    ('a = 1 # bell \x07\n', "invalid character"),
    ('a = "one"\rb = 2\n', ""),
    ('[t]\nx = \n', "Invalid value"),
])
def test_a_file_toml_1_0_refuses_is_refused_with_tomllibs_line_and_column(tmp_path: Path, text: str,
                                                                          words: str) -> None:
    from engine.errors import BadTable
    from engine.reading import read_toml

    path = tmp_path / "own.toml"
    path.write_bytes(text.encode("utf-8"))
    with pytest.raises(BadTable) as caught:
        read_toml(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: not valid TOML: ") and "line" in message and "\n" not in message
    assert words in message


def test_an_inline_table_over_two_lines_is_read_as_toml_1_1_reads_it(tmp_path: Path) -> None:
    from engine.reading import read_toml

    path = tmp_path / "own.toml"
    path.write_text("a = { b = 1,\n c = 2 }\n", encoding="utf-8")
    assert read_toml(path) == {"a": {"b": 1, "c": 2}}


def test_a_time_in_a_table_file_is_a_standard_one(tmp_path: Path) -> None:
    from engine.reading import read_toml

    path = tmp_path / "own.toml"
    path.write_text("when = 2026-11-30T20:00:00Z\nday = 2026-11-30\n", encoding="utf-8")
    doc = read_toml(path)
    assert type(doc["when"].tzinfo) is timezone and pickle.loads(pickle.dumps(doc)) == doc


@pytest.mark.parametrize("name", ["Corsair\\u001b[2J", "Cor\\fsair", "Corsair\\u0085", "Cor\\\\u001bsair"])
def test_a_ship_or_table_file_holding_a_control_character_is_refused_by_its_field(tmp_path: Path, name: str) -> None:
    """A ship file's text is copied into every fight set up with it and shown as written: an escape code in it is
    refused where the file is read, naming the field, as a save's is (fuzz30). An escaped backslash is text."""
    from engine.errors import BadTable
    from engine.reading import read_toml

    path = tmp_path / "corsair.toml"
    path.write_text(f'[ship]\nname = "{name}"\nclass_name = "raider"\n')
    if "\\\\" in name:
        assert read_toml(path)["ship"]["name"] == "Cor\\u001bsair"
        return
    with pytest.raises(BadTable, match=r"corsair\.toml: ship\.name: holds a control character \('\\x"):
        read_toml(path)


def test_an_ascii_text_is_looked_at_for_controls_as_the_pattern_looks_at_any_text() -> None:
    """``may_hold_controls`` reads an ASCII text as bytes (quicker over a long log) and any other by its pattern: the
    two find the same characters, every code point up to the C1 controls, in an ASCII text and in a Cyrillic one."""
    from engine.reading import _MAY_HOLD_CONTROLS, may_hold_controls

    for code in range(0xA1):
        for around in ("name = 'x", "name = 'Кровавый "):
            text = f"{around}{chr(code)}'\n"
            assert may_hold_controls(text) == (_MAY_HOLD_CONTROLS.search(text) is not None), (code, around)
