"""Frozen records (``engine/records.py``) behave as the frozen dataclasses they replace."""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from typing import ClassVar

import pytest

from engine.records import Frozen


class Point(Frozen):
    x: int
    y: int = 0
    label: str = ""
    made: ClassVar[int] = 0  # a class variable, not a field
    __uncompared__ = ("label",)

    def __post_init__(self) -> None:
        if self.x < 0:
            raise ValueError("x below 0")


class Point3(Point):
    z: int = 0


def test_fields_in_order_with_their_defaults() -> None:
    assert Point(1) == Point(1, 0, "")
    assert (Point(1, 2).x, Point(1, 2).y, Point(x=1, label="a").label) == (1, 2, "a")
    assert Point3.__record_fields__ == ("x", "y", "label", "z")
    assert repr(Point3(1, z=4)) == "Point3(x=1, y=0, label='', z=4)"


def test_equal_and_hashed_by_the_compared_fields_of_the_same_class() -> None:
    assert Point(1, 2, "a") == Point(1, 2, "b") and hash(Point(1, 2, "a")) == hash(Point(1, 2, "b"))
    assert Point(1, 2) != Point(1, 3)
    assert Point3(1, 2) != Point(1, 2)  # another class, as with dataclasses
    assert len({Point(1), Point(1), Point(2)}) == 2


def test_frozen_and_checked_when_made() -> None:
    p = Point(1)
    with pytest.raises(FrozenInstanceError):
        p.x = 2
    with pytest.raises(FrozenInstanceError):
        del p.x
    with pytest.raises(ValueError, match="x below 0"):
        Point(-1)
    with pytest.raises(TypeError, match="missing required argument: 'x'"):
        Point()
    with pytest.raises(TypeError, match="unexpected keyword argument 'w'"):
        Point(1, w=2)
    with pytest.raises(TypeError, match="multiple values for argument 'x'"):
        Point(1, x=2)
    with pytest.raises(TypeError, match="takes 3 arguments"):
        Point(1, 2, "", 4)


def test_a_field_without_a_default_cannot_follow_one_with_a_default() -> None:
    with pytest.raises(TypeError, match="'b' without a default"):
        class Bad(Frozen):
            a: int = 0
            b: int
