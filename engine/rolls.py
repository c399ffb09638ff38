"""Roll requests, their exact odds, and the two ways to answer them.

A rule never draws a random number. It asks for a roll (purpose, dice, named
modifiers, target); the game master answers with the built-in roller or by
typing the physical dice; either answer becomes the same kind of logged result
(STYLE.md: OpenSpiel's chance player).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .dice import Dice, parse_dice, read_typed
from .errors import BadDiceValue, FlagbridgeError


@dataclass(frozen=True, init=False)
class Modifier:
    """A named DM, e.g. ``Modifier("Tactics", 2)``; shown as ``+2 Tactics``."""

    source: str
    value: int

    def __init__(self, source: str, value: int) -> None:
        # set straight into the instance, as RollRequest's fields: rules make a few for every roll they ask
        self.__dict__.update(source=source, value=value)

    def __str__(self) -> str:
        return f"{self.value:+d} {self.source}"

    def to_plain(self) -> dict[str, Any]:
        return {"source": self.source, "value": self.value}

    @classmethod
    def from_plain(cls, d: dict[str, Any]) -> "Modifier":
        """A modifier as saved; one of another shape (a hand edit) is a FlagbridgeError naming what it lacks."""
        if not isinstance(d, dict) or not isinstance(d.get("source"), str) or type(d.get("value")) is not int:
            raise FlagbridgeError(f"modifier {d!r}: expected a table with source (text) and value (a whole number)")
        return cls(d["source"], d["value"])


@dataclass(frozen=True)
class Target:
    """Success is a total of at least ``number`` (``8+``) or at most it (``45-``)."""

    number: int
    at_most: bool = False

    def met(self, total: int) -> bool:
        return total <= self.number if self.at_most else total >= self.number

    def margin(self, total: int) -> int:
        """How far the roll made (>= 0) or missed (< 0) the target."""
        return self.number - total if self.at_most else total - self.number

    def __str__(self) -> str:
        return f"{self.number}{'-' if self.at_most else '+'}"

    #: Saved as its text (``8+``), with no call through ``str`` (every pending roll is kept in this form).
    to_plain = __str__

    @classmethod
    def parse(cls, text: str) -> "Target":
        """``"8+"`` or ``"45-"``, as saved."""
        t = str(text).strip()
        body = t[:-1][1:] if t[:1] == "-" else t[:-1]
        if len(t) < 2 or t[-1] not in "+-" or not (0 < len(body) <= 6 and all("0" <= c <= "9" for c in body)):
            raise FlagbridgeError(f"target {text!r}: expected a number then + or -, e.g. 8+ or 45-")
        return cls(int(t[:-1]), t[-1] == "-")


_NONE_GIVEN: Any = object()  # a request's context when none is given: a fresh empty dict each time


@dataclass(frozen=True, init=False)
class RollRequest:
    """What a rule needs rolled, and enough context for the rule to resume after.

    ``then`` names the ruleset step that consumes the result; ``context`` is plain
    data for it. Both are saved with the encounter's pending rolls. ``secret``
    marks a roll the referee makes for no player's eyes (megatraveller's half of
    an uncertain task): the players' screen leaves it out.
    """

    purpose: str
    dice: str
    modifiers: tuple[Modifier, ...] = ()
    target: Target | None = None
    then: str = ""
    context: dict[str, Any] = field(default_factory=dict)
    group: int = 0
    secret: bool = False

    def __init__(self, purpose: str, dice: str, modifiers: tuple[Modifier, ...] = (), target: Target | None = None,
                 then: str = "", context: dict[str, Any] = _NONE_GIVEN, group: int = 0, secret: bool = False) -> None:
        # The fields set straight into the instance (a frozen dataclass's own __init__ goes through
        # object.__setattr__ for each): a fight asks for hundreds of rolls.
        self.__dict__.update(purpose=purpose, dice=dice, modifiers=modifiers, target=target, then=then,
                             context={} if context is _NONE_GIVEN else context, group=group, secret=secret)

    @property
    def parsed(self) -> Dice:
        return parse_dice(self.dice)

    @property
    def modifier_total(self) -> int:
        total = 0  # a plain loop: read for every roll, usually over none or a few modifiers
        for m in self.modifiers:
            total += m.value
        return total

    def chance(self) -> Fraction | None:
        """Exact chance of meeting the target, or None when there is no target."""
        if self.target is None:
            return None
        bonus = self.modifier_total
        return sum(
            (p for v, p in self.parsed.distribution().items() if self.target.met(v + bonus)),
            Fraction(0),
        )

    def on_the_dice(self) -> str:
        """What the dice themselves must show, every modifier taken off: ``6+ on 2D`` ("" with no target)."""
        if self.target is None:
            return ""
        dice, bonus = self.parsed, self.modifier_total
        made = [n for n in range(dice.min_natural, dice.max_natural + 1) if self.target.met(dice.value(n) + bonus)]
        if len(made) == dice.max_natural - dice.min_natural + 1:
            return f"any roll of {self.dice}"
        if not made:
            return f"no roll of {self.dice} can make it"
        if self.target.at_most:
            return f"{max(made)} or less on {self.dice}"
        return f"{min(made)}+ on {self.dice}"

    def describe(self) -> str:
        """``To hit: 2D +2 Gunnery vs 8+ (72.2%)``."""
        parts = [f"{self.purpose}: {self.dice}"]
        parts += [str(m) for m in self.modifiers]
        if self.target is not None:
            parts.append(f"vs {self.target} ({percent(self.chance())})")
        return " ".join(parts)

    def to_plain(self) -> dict[str, Any]:
        d: dict[str, Any] = {"purpose": self.purpose, "dice": self.dice, "group": self.group}
        if self.modifiers:  # as ``Modifier.to_plain`` gives each, without a call apiece (every roll asked)
            d["modifiers"] = [{"source": m.source, "value": m.value} for m in self.modifiers]
        if self.target is not None:
            d["target"] = self.target.to_plain()
        if self.then:
            d["then"] = self.then
        if self.context:
            d["context"] = dict(self.context)
        if self.secret:
            d["secret"] = True
        return d

    @classmethod
    def from_plain(cls, d: dict[str, Any]) -> "RollRequest":
        """A request as saved (a pending roll, a logged one); a field of another kind (a hand edit) is a
        FlagbridgeError naming it, never a crash in the rule the roll goes back to."""
        modifiers, context, group = d.get("modifiers", ()), d.get("context", {}), d.get("group", 0)
        if "purpose" not in d or "dice" not in d:
            raise FlagbridgeError(f"roll {d.get('purpose', '')!r}: a roll needs its purpose and dice")
        if not isinstance(modifiers, (list, tuple)):
            raise FlagbridgeError(f"roll modifiers: expected a list of tables, got {modifiers!r}")
        if not isinstance(context, dict):
            raise FlagbridgeError(f"roll context: expected a table, got {context!r}")
        if type(group) is not int:
            raise FlagbridgeError(f"roll group: expected a whole number, got {group!r}")
        return cls(
            purpose=str(d["purpose"]),
            dice=str(d["dice"]),
            modifiers=tuple(Modifier.from_plain(m) for m in modifiers),
            target=Target.parse(d["target"]) if "target" in d else None,
            then=str(d.get("then", "")),
            context=dict(context),
            group=group,
            secret=d.get("secret") is True,
        )


class _kept:
    """A property worked out on first use and then kept in the instance (frozen results never change;
    a rule and the log read a roll's total several times)."""

    def __init__(self, fn: Any) -> None:
        self.fn, self.name, self.__doc__ = fn, fn.__name__, fn.__doc__

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.fn(obj)  # read from the instance from now on
        return value


@dataclass(frozen=True, init=False)
class RollResult:
    """An answered request: faces (when known), the natural total, and the outcome."""

    request: RollRequest
    natural: int
    faces: tuple[int, ...] = ()
    source: str = "roller"  # or "typed"

    def __init__(self, request: RollRequest, natural: int, faces: tuple[int, ...] = (), source: str = "roller") -> None:
        # set at once, as RollRequest's: one result for every roll
        self.__dict__.update(request=request, natural=natural, faces=faces, source=source)

    @classmethod
    def with_total(cls, request: RollRequest, natural: int, faces: tuple[int, ...], source: str,
                   total: int) -> "RollResult":
        """A result whose ``total`` its maker has already worked out, as ``total`` would (the dice parsed
        once by the caller): kept with the fields in one step."""
        result = cls.__new__(cls)
        result.__dict__.update(request=request, natural=natural, faces=faces, source=source, total=total)
        return result

    @property
    def value(self) -> int:
        """The dice expression's value (scale and plus applied), before modifiers."""
        return self.request.parsed.value(self.natural)

    @_kept
    def total(self) -> int:
        return self.value + self.request.modifier_total

    @property
    def success(self) -> bool | None:
        t = self.request.target
        return None if t is None else t.met(self.total)

    @property
    def margin(self) -> int | None:
        t = self.request.target
        return None if t is None else t.margin(self.total)

    def describe(self) -> str:
        dice = f"[{' '.join(map(str, self.faces))}]" if self.faces else f"[{self.natural}]"
        how = "typed" if self.source == "typed" else "rolled"
        text = f"{self.request.purpose}: {self.request.dice} {how} {dice}"
        if self.request.modifiers:
            text += " " + " ".join(str(m) for m in self.request.modifiers)
        text += f" = {self.total}"
        if self.request.target is not None:
            text += f" vs {self.request.target}: {'success' if self.success else 'failure'}"
        return text


def percent(chance: Fraction | None) -> str:
    if chance is None:
        return "-"
    return f"{float(chance) * 100:.1f}%"


def typed_result(request: RollRequest, text: str) -> RollResult:
    """Turn what the game master typed into a result, or refuse it with a message."""
    natural, faces = read_typed(request.parsed, text)
    return RollResult(request, natural, faces, "typed")


def checked_result(request: RollRequest, natural: int, faces: tuple[int, ...], source: str) -> RollResult:
    """Validate a logged result against its request (used on replay and load)."""
    dice = request.parsed
    count, sides = dice.count, dice.sides  # min_natural and max_natural, read once for every logged roll
    if not count <= natural <= count * sides:
        raise BadDiceValue(f"{natural} cannot be rolled on {dice}: expected {dice.min_natural} to {dice.max_natural}")
    if faces:
        if len(faces) != count or not all([1 <= f <= sides for f in faces]):
            raise BadDiceValue(f"faces {list(faces)} cannot come from {dice}")
        if sum(faces) != natural:
            raise BadDiceValue(f"faces {list(faces)} do not add up to {natural}")
    if source != "roller" and source != "typed":
        raise FlagbridgeError(f"roll source {source!r}: expected 'roller' or 'typed'")
    # the total kept as ``total`` would work it out, with the dice already parsed (a replay compares it with the log's)
    return RollResult.with_total(request, natural, faces, source, dice.value(natural) + request.modifier_total)


class SeededRoller:
    """The built-in dice: roll number ``index`` of an encounter always gives the same faces.

    Deriving each roll from (seed, index) means a replay needs no generator state,
    and undoing a roll and rolling again shows the same dice, so undo cannot be
    used to fish for a better result.
    """

    def __init__(self, seed: int) -> None:
        self.seed = int(seed)

    def faces(self, dice: Dice, index: int) -> tuple[int, ...]:
        rng = random.Random(f"{self.seed}:{index}")
        return tuple(rng.randint(1, dice.sides) for _ in range(dice.count))

    def answer(self, request: RollRequest, index: int) -> RollResult:
        faces = self.faces(request.parsed, index)
        return RollResult(request, sum(faces), faces, "roller")
