"""Dice expressions, their exact distributions, and typed-in physical rolls.

Notations come from the rules texts (DESIGN.md "Dice notations"):

- ``1D``, ``2D`` (six-sided dice, Classic Traveller), ``D6``, ``2d6``, ``NdM+K``;
- ``1:100sd``: one percentile die, 1 to 100 (``percentile-personal-combat.txt``);
- ``X:10sd+Y``: X ten-sided dice plus Y; a fractional X such as ``0.5`` rolls one
  d10 and multiplies it by X ("In the case of a fractional (X) values roll 1:10sd
  and multiply the result by the fraction", under "Damage Die Rolls").

The text does not say how to round a scaled die; we round to the nearest whole
point with halves going up, so 0.5 x 5 = 2.5 counts as 3.

Odds are exact: the distribution of the dice total is built by convolution
with integer counts, never by sampling.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache

from .errors import BadDiceExpression, BadDiceValue
from .records import Frozen

_SIX = re.compile(r"^\s*([0-9]{0,4})\s*[dD]\s*([0-9]{0,5})\s*(?:([+-])\s*([0-9]{1,6}))?\s*$")
_SD = re.compile(
    r"^\s*([0-9]{1,4}(?:\.[0-9]{1,4})?|\.[0-9]{1,4})\s*:\s*([0-9]{1,5})\s*sd\s*(?:([+-])\s*([0-9]{1,6}))?\s*$", re.I
)
#: Largest dice pool accepted (dice x faces); keeps exact odds instant at the table.
MAX_POOL = 1000
#: A die rolled alone may have more faces: a rule's "which of N" (a hit on one of a big ship's 1,001 turrets)
#: rolls 1dN, and one die's odds are even, whatever N (five digits, as the notation reads).
MAX_ONE_DIE = 99_999


class Dice(Frozen):
    """A dice expression: ``count`` dice of ``sides`` faces, times ``scale``, plus ``plus``.

    ``scale`` is only ever different from 1 for a single die (fractional ``X:10sd``).
    """

    count: int
    sides: int
    plus: int = 0
    scale: Fraction = Fraction(1)
    notation: str = ""

    def __init__(self, count: int, sides: int, plus: int = 0, scale: Fraction = Fraction(1), notation: str = "") -> None:
        fields = self.__dict__  # made for every roll: kept quick
        fields["count"] = count
        fields["sides"] = sides
        fields["plus"] = plus
        fields["scale"] = scale
        fields["notation"] = notation
        # Whether the scale is 1, asked of every roll's value: a Fraction comparison each time costs more than the roll.
        fields["_unscaled"] = scale == 1

    def __str__(self) -> str:
        return self.notation or f"{self.count}d{self.sides}"

    @property
    def min_natural(self) -> int:
        return self.count

    @property
    def max_natural(self) -> int:
        return self.count * self.sides

    def value(self, natural: int) -> int:
        """The expression's value for a natural dice total (scale, then plus)."""
        if not self._unscaled:
            scaled = self.scale * natural
            return int(scaled + Fraction(1, 2)) + self.plus  # halves round up
        return natural + self.plus

    def natural_counts(self) -> dict[int, int]:
        """Ways to make each natural total; they add up to ``sides ** count``."""
        return dict(_counts(self.count, self.sides))

    def distribution(self) -> dict[int, Fraction]:
        """Exact probability of each value of the expression (scale and plus applied)."""
        return dict(_value_distribution(self))

    def possible_values(self) -> list[int]:
        return sorted(v for v, _ in _value_distribution(self))


@lru_cache(maxsize=256)
def _counts(count: int, sides: int) -> tuple[tuple[int, int], ...]:
    ways = {0: 1}
    for _ in range(count):
        nxt: dict[int, int] = {}
        for total, n in ways.items():
            for face in range(1, sides + 1):
                nxt[total + face] = nxt.get(total + face, 0) + n
        ways = nxt
    return tuple(sorted(ways.items()))


@lru_cache(maxsize=256)
def _value_distribution(dice: Dice) -> tuple[tuple[int, Fraction], ...]:
    whole = dice.sides**dice.count
    out: dict[int, int] = {}
    for natural, n in _counts(dice.count, dice.sides):
        v = dice.value(natural)
        out[v] = out.get(v, 0) + n
    return tuple((v, Fraction(n, whole)) for v, n in sorted(out.items()))


@lru_cache(maxsize=512)
def parse_dice(text: str) -> Dice:
    """Read a notation such as ``2D``, ``d6``, ``3d6+1``, ``1:100sd`` or ``0.5:10sd+2``."""
    if not isinstance(text, str) or not text.strip():
        raise BadDiceExpression(f"empty dice expression {text!r}: expected e.g. 2D, 1d6+1, 1:100sd")
    src = text.strip()
    m = _SIX.match(src)
    if m:
        count = int(m.group(1)) if m.group(1) else 1
        sides = int(m.group(2)) if m.group(2) else 6
        plus = _signed(m.group(3), m.group(4))
        return _checked(Dice(count, sides, plus, Fraction(1), src), text)
    m = _SD.match(src)
    if m:
        amount = Fraction(m.group(1))
        sides = int(m.group(2))
        plus = _signed(m.group(3), m.group(4))
        if amount.denominator == 1:
            return _checked(Dice(int(amount), sides, plus, Fraction(1), src), text)
        if amount > 1:
            raise BadDiceExpression(
                f"dice expression {text!r}: a fractional count must be below 1 (it scales one die)"
            )
        return _checked(Dice(1, sides, plus, amount, src), text)
    raise BadDiceExpression(
        f"unknown dice expression {text!r}: expected 1D, 2D, D6, 2d6, 1d6+2, 1:100sd or X:10sd+Y"
    )


def _signed(sign: str | None, digits: str | None) -> int:
    if not sign:
        return 0
    return int(digits) if sign == "+" else -int(digits)


def _checked(dice: Dice, text: str) -> Dice:
    if dice.count < 1 or dice.count > 100:
        raise BadDiceExpression(f"dice expression {text!r}: the number of dice must be 1 to 100")
    alone = dice.count == 1
    if dice.sides < 2 or dice.sides > (MAX_ONE_DIE if alone else 1000):
        raise BadDiceExpression(f"dice expression {text!r}: a die must have 2 to 1000 faces "
                                f"(one die alone, 2 to {MAX_ONE_DIE})")
    if not alone and dice.count * dice.sides > MAX_POOL:
        raise BadDiceExpression(f"dice expression {text!r}: at most {MAX_POOL} faces in all (dice x sides)")
    if dice.scale <= 0:
        raise BadDiceExpression(f"dice expression {text!r}: the fraction must be above 0")
    return dice


def read_face(dice: Dice, word: str) -> int:
    """One typed die face; ``00`` is 100 on a percentile die and ``0`` is 10 on a d10."""
    w = word.strip()
    if not _digits(w):
        raise _not_a_roll(w, dice)
    if dice.sides == 100 and w == "00":
        return 100
    if dice.sides == 10 and w == "0":
        return 10
    face = int(w)
    if not 1 <= face <= dice.sides:
        zero = {100: " (00 for 100)", 10: " (0 for 10)"}.get(dice.sides, "")
        raise BadDiceValue(f"{w} is not a face of a d{dice.sides}: type 1 to {dice.sides}{zero}")
    return face


def read_typed(dice: Dice, text: str) -> tuple[int, tuple[int, ...]]:
    """Read what the table rolled: the natural total, or each die separated by spaces, commas or plus signs
    (a comma or plus at either end is a die missing, refused).

    Returns ``(natural_total, faces)``; faces is empty when only a total was typed.
    The total typed is the dice alone, before the expression's plus and any modifier.
    """
    if text is None or not str(text).strip():
        raise BadDiceValue(f"no roll typed: {_range(dice)}")
    words = [w for w in re.split(r"[\s,+]+", str(text).strip()) if w]
    if not words:  # only separators
        raise BadDiceValue(f"no roll typed: {_range(dice)}")
    typed = str(text).strip()
    for end, side in ((typed[0], "before"), (typed[-1], "after")):
        if end in ",+":  # a separator stands between dice: "5+" is a die short, not a total of 5
            raise BadDiceValue(f"{typed!r}: a {end!r} with no die {side} it: {_range(dice)}")
    if len(words) == 1 and dice.count > 1:
        w = words[0]
        if not _digits(w):
            raise _not_a_roll(w, dice)
        total = int(w)
        if not dice.min_natural <= total <= dice.max_natural:
            raise BadDiceValue(f"{total} cannot be rolled on {dice}: type " + _span(dice, "the dice alone, "))
        return total, ()
    if len(words) != dice.count:
        if dice.count == 1:
            raise BadDiceValue(f"{len(words)} numbers typed for {dice}: {_range(dice)} (one die: one number)")
        raise BadDiceValue(f"{len(words)} dice typed for {dice}: {_range(dice)}, or all {dice.count} dice")
    faces = tuple(read_face(dice, w) for w in words)
    return sum(faces), faces


def _digits(word: str) -> bool:
    """Plain ASCII digits of a sane length (``isdigit`` would take superscripts); leading zeros are not counted
    against it, so ``0000001`` is 1 as ``000001`` is."""
    return 0 < len(word) <= 12 and all("0" <= c <= "9" for c in word) and len(word.lstrip("0")) <= 6


def _not_a_roll(word: str, dice: Dice) -> BadDiceValue:
    """Digits too many to be any roll are named as such, not as "not a number"."""
    if word.isascii() and word.isdigit():
        return BadDiceValue(f"{word[:12]}{'...' if len(word) > 12 else ''} is far more than any roll: {_range(dice)}")
    if word[:1] in "+-" and word[1:].isascii() and word[1:].isdigit():  # "-1": a number, but no die shows a sign
        return BadDiceValue(f"{word!r}: dice show no sign: {_range(dice)}")
    return BadDiceValue(f"{word!r} is not a number: {_range(dice)}")


def _span(dice: Dice, alone: str) -> str:
    """The naturals that can be typed; with a plus, ``alone`` first and that the plus is added (never typed)."""
    span = f"{dice.min_natural} to {dice.max_natural}"
    return f"{alone}{span} (the {dice.plus:+d} is added)" if dice.plus else span


def _range(dice: Dice) -> str:
    """What to type: a plus in the expression is never typed (``read_typed``), and says so."""
    if dice.plus:
        return "type " + _span(dice, f"the dice of {dice} alone, ")
    return f"type the {dice} total, {_span(dice, '')}"
