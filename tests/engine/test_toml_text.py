"""The save's own TOML writer (``engine/toml_text.py``): whatever plain value it writes, ``tomllib``
reads back equal, and the texts it keeps for keys and strings never change what it writes."""

from __future__ import annotations

import math
import tomllib
from datetime import datetime, timezone

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import toml_text

_scalars = st.one_of(
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(allow_nan=False),
    st.text(),
)
_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=20,
)


def _read_back(body: dict) -> dict:
    return tomllib.loads(toml_text.table(["state"], body))["state"]


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(max_size=8), _values, max_size=6))
def test_any_plain_table_reads_back_equal_and_is_written_the_same_twice(body) -> None:
    first = toml_text.table(["state"], body)
    assert toml_text.table(["state"], body) == first  # the second time from the kept texts
    assert tomllib.loads(first)["state"] == body


def test_keys_and_strings_that_need_quotes_and_escapes() -> None:
    body = {"bare-key_1": "plain", "a b": "quote \" and back\\slash", "dotted.key": "del \x7f and nul \x00",
            "é": "line\nbreak\ttab"}
    text = toml_text.table(["state"], body)
    assert 'bare-key_1 = "plain"' in text and '"a b" = ' in text and '"dotted.key" = ' in text
    assert "\\u007f" in text and "\x7f" not in text
    assert _read_back(body) == body


def test_numbers_floats_and_times() -> None:
    when = datetime(2026, 11, 30, 20, 0, tzinfo=timezone.utc)
    assert toml_text.value(when) == "2026-11-30T20:00:00Z"
    assert toml_text.value(True) == "true" and toml_text.value(7) == "7"
    assert toml_text.value(float("inf")) == "inf" and toml_text.value(-float("inf")) == "-inf"
    assert toml_text.value(float("nan")) == "nan" and toml_text.value(2.5) == "2.5"
    assert math.isnan(_read_back({"x": float("nan")})["x"])


def test_subclasses_and_tuples_are_written_as_their_plain_kind() -> None:
    class Word(str):
        pass

    class Count(int):
        pass

    assert toml_text.value(Word("x")) == '"x"' and toml_text.value(Count(3)) == "3"
    assert toml_text.value((1, "a")) == '[1, "a"]'
    assert toml_text.value([{"a": 1}, [2]]) == '[\n    { a = 1 },\n    [2],\n]'


def test_a_value_no_save_can_hold_is_refused() -> None:
    try:
        toml_text.value({1, 2})
    except TypeError as exc:
        assert "set" in str(exc)
    else:
        raise AssertionError("a set was written")
