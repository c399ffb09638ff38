"""Actions declared once: parameters, the ``may`` check, the handler, and roll continuations.

A ruleset lists each action in a ``Catalogue`` with its id, label, key, typed
parameters, one ``may(state, args, tables)`` check and its handler. Everything
that asks "can this be done?" asks ``may``: the console's Footer and palette
(``available``), the choices a form offers for each parameter (``choices``),
the help screen's reasons (``offers``), and the engine before a handler runs
(``checked_args``). ``may`` is called with the arguments chosen so far and
checks only those it is given, so one function serves a half-filled form and
a finished action alike; the engine first checks each argument by its kind
(the unit exists and is on the right side, a number is in range, a choice is
one of the choices), so neither ``may`` nor the handler re-parses anything.

A choice is offered only when ``may`` accepts it *and* the rest of the form can
still be completed, so a form can never end on a choice the rule refuses.

Roll continuations are registered by name; ``seal`` checks, when the ruleset
is imported, that every ``then=`` its modules ask for is registered.
"""

from __future__ import annotations

import importlib
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

from .errors import FlagbridgeError, IllegalAction
from .records import Frozen
from .reading import holds_control

#: Parameter kinds. ``unit`` names a unit of the kind in ``Param.unit``.
INT_LIMIT = 2**63 - 1  # the largest whole number a save can hold
KINDS = ("text", "int", "choice", "multi", "side", "unit")


class Choice(Frozen):
    """One value a console may offer for a parameter, with the words it shows."""

    value: str
    label: str

    def __init__(self, value: str, label: str) -> None:  # made for every choice a form offers: kept quick
        fields = self.__dict__
        fields["value"] = value
        fields["label"] = label


Options = Callable[[dict, dict, Any], Iterable["Choice | str"]]
Words = Callable[[dict, dict, Any, str], str]
May = Callable[[dict, dict, Any], str]
Handler = Callable[[dict, dict, Any, Any], None]


class Param(Frozen):
    """One argument of an action.

    ``options(state, args, tables)`` gives the candidates for ``choice`` and
    ``multi`` parameters (a fixed ``choices`` tuple serves when they never
    change); ``unit`` parameters default to every unit of their kind, limited by
    ``enemy_of``/``ally_of`` (the name of an earlier unit parameter). ``text``
    and ``int`` are typed; an ``int`` with ``options`` is offered as a list.
    An ``optional`` parameter takes ``default`` when it is not given or when
    nothing can be offered for it.

    ``words(state, args, tables, value)`` names one chosen value in the log as
    the form's choice named it ("All Ahead Full" for ``all_ahead_full``), without
    what the choice adds about the moment (odds, counts, distances). It is asked
    with the state the action was taken in, so a line reads the same however long
    after; a value with no ``words`` reads as it is (a unit by its name).

    ``said`` is how the log names the argument when the form's question reads
    badly on a log line (too long, or a note on how to answer it): a short phrase,
    with "{}" where the value goes ("distance {} cm"); empty, the label serves.
    """

    name: str
    label: str
    kind: str = "text"
    unit: str = ""
    choices: tuple[str, ...] = ()
    options: Options | None = None
    minimum: int | None = None
    maximum: int | None = None
    optional: bool = False
    default: Any = ""
    enemy_of: str = ""
    ally_of: str = ""
    #: For ``multi``: the values ticked when the form asks (the programs already loaded, say).
    initial: Options | None = None
    words: Words | None = None
    said: str = ""

    __uncompared__ = ("options", "initial", "words")  # functions: two params are the same whatever they offer

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"parameter {self.name}: unknown kind {self.kind!r} (known: {', '.join(KINDS)})")
        if self.kind == "unit" and not self.unit:
            raise ValueError(f"parameter {self.name}: a unit parameter names its unit kind")

    @property
    def typed(self) -> bool:
        """Asked as typed text rather than picked from a list."""
        return self.kind == "text" or (self.kind == "int" and self.options is None)


def always(state: dict, args: dict, tables: Any) -> str:
    """The ``may`` of an action the rules allow at any time."""
    return ""


class Action(Frozen):
    """An action declared once: ``name`` is its id (saved in the log), ``run`` its handler."""

    name: str
    label: str
    run: Handler
    key: str = ""
    params: tuple[Param, ...] = ()
    may: May = always

    def param(self, name: str) -> Param:
        return next(p for p in self.params if p.name == name)


class Offer(Frozen):
    """An action as the console lists it now: possible (``reason`` empty) or why not."""

    action: Action
    reason: str = ""

    def __init__(self, action: Action, reason: str = "") -> None:  # made for every action after every key
        fields = self.__dict__
        fields["action"] = action
        fields["reason"] = reason

    @property
    def possible(self) -> bool:
        return not self.reason


class UnitKind(Frozen):
    """A kind of unit a ruleset tracks: ships, people, ordnance markers, planetary defences.

    Units of a kind live in ``state[key]`` (and, when they start in the setup,
    in ``setup[key]``) as tables by id, each with a ``name`` and a ``side``.
    ``fields`` checks them in a setup or a file.
    """

    id: str
    label: str
    plural: str
    key: str
    fields: tuple = ()
    in_setup: bool = True


SHIP = UnitKind("ship", "Ship", "Ships", "ships")


class Catalogue:
    """A ruleset's actions, roll continuations and procedures, each registered once by name."""

    def __init__(self, owner: str, unit_kinds: tuple[UnitKind, ...] = (SHIP,)) -> None:
        self.owner = owner
        self.unit_kinds = {k.id: k for k in unit_kinds}
        self.actions: dict[str, Action] = {}
        #: the parameters that name their values in words (``Param.words``), by action: most actions have none
        self.worded: dict[str, tuple[Param, ...]] = {}
        self.continuations: dict[str, Callable] = {}
        self.replies: dict[str, Callable] = {}
        self.procedures: dict[str, Callable] = {}

    # --- declaring -----------------------------------------------------------------

    def add(self, action: Action) -> Action:
        if action.name in self.actions:
            raise ValueError(f"{self.owner}: action {action.name!r} is declared twice")
        for p in action.params:
            if p.kind == "unit" and p.unit not in self.unit_kinds:
                raise ValueError(f"{self.owner} {action.name}.{p.name}: unknown unit kind {p.unit!r}")
        self.actions[action.name] = action
        worded = tuple(p for p in action.params if p.words is not None)
        if worded:
            self.worded[action.name] = worded
        return action

    def continuation(self, name: str) -> Callable[[Callable], Callable]:
        """Register ``fn(state, result, tables, ctx)`` as the rule a roll with ``then=name`` resumes."""
        return self._register(self.continuations, name, "roll continuation")

    def reply(self, name: str) -> Callable[[Callable], Callable]:
        """Register ``fn(state, data, tables, ctx)``: where another ruleset's procedure reports back."""
        return self._register(self.replies, name, "reply")

    def procedure(self, name: str) -> Callable[[Callable], Callable]:
        """Register ``fn(state, args, tables, ctx)`` that other rulesets may call in their fights."""
        return self._register(self.procedures, name, "procedure")

    def _register(self, book: dict, name: str, what: str) -> Callable[[Callable], Callable]:
        def wrap(fn: Callable) -> Callable:
            if name in book:
                raise ValueError(f"{self.owner}: {what} {name!r} is registered twice")
            book[name] = fn
            return fn
        return wrap

    def seal(self, package: str) -> None:
        """Check, at import, every ``then=`` and ``reply=`` the package's modules name.

        Each must be a name registered here, or ``other:name`` for a name
        another ruleset registered (checked when that ruleset is loaded).
        """
        for module, line, word, name in _named_continuations(package):
            book = self.replies if word == "reply" else self.continuations
            if ":" in name:
                continue  # another ruleset's: checked by that ruleset's own seal
            if name not in book:
                known = ", ".join(sorted(book)) or "none"
                what = "reply" if word == "reply" else "roll continuation"
                raise FlagbridgeError(f"{module} line {line}: {word}={name!r} is not a registered {what} of "
                                      f"{self.owner} (known: {known})")

    # --- reading -------------------------------------------------------------------

    def get(self, name: str) -> Action:
        try:
            return self.actions[name]
        except KeyError:
            raise IllegalAction(f"{self.owner} has no action {name!r}") from None


#: ``then="..."`` and ``reply="..."``, one pattern each: a pattern that starts with a word is searched
#: for that word at C speed, where ``\b(then|reply)`` was tried at every character (most of a
#: ruleset's import went to that). The ``\b`` is checked by hand on the few places found.
_NAMED = {word: re.compile(word + r"""\s*=\s*(["'])([^"'\n]+)\1""") for word in ("then", "reply")}


def _named_continuations(package: str) -> Iterable[tuple[str, int, str, str]]:
    """Every ``then="..."``/``reply="..."`` with a literal value in the package's source files.

    Read as text with a pattern, not parsed: sealing runs at every start-up and
    parsing each module cost more than the rest of the import.
    """
    pkg = sys.modules.get(package) or importlib.import_module(package)
    files = [getattr(pkg, "__file__", None)]
    for folder in getattr(pkg, "__path__", []):
        files += [str(f) for f in sorted(Path(folder).glob("*.py")) if f.name != "__init__.py"]
    for file in files:
        if not file or not file.endswith(".py"):
            continue
        text = Path(file).read_text(encoding="utf-8")
        name = package if file.endswith("__init__.py") or not hasattr(pkg, "__path__") \
            else f"{package}.{Path(file).stem}"
        found = []
        for word, pattern in _NAMED.items():
            for m in pattern.finditer(text):
                at = m.start()
                if at and (text[at - 1].isalnum() or text[at - 1] == "_"):
                    continue  # inside a longer word (``not_then=``): not one
                found.append((at, word, m.group(2)))
        for at, word, value in sorted(found):
            yield name, text.count("\n", 0, at) + 1, word, value


# --- checking arguments by kind ---------------------------------------------------------

def said(p: Param) -> str:
    """How a log line names an argument: the phrase its parameter declares, else its label with a lower-case first
    letter, unless the label opens with an abbreviation ("WEP MOD of the dose")."""
    if p.said:
        return p.said
    label = p.label or p.name
    return label if label[1:2].isupper() else label[:1].lower() + label[1:]


def value_words(value: Any) -> str:
    """A logged value as a reader says it: a list as "T1, T2 and T3" (an empty one "none")."""
    if not isinstance(value, (list, tuple)):
        return str(value)
    items = [str(v) for v in value]
    if len(items) < 2:
        return items[0] if items else "none"
    return f"{', '.join(items[:-1])} and {items[-1]}"


def argument_words(p: Param | None, name: str, value: Any) -> str:
    """One argument of a log line in words ("load Boarding torpedoes", "distance 5 cm"); one that no parameter
    declares (a hand-edited log) by its id, as written."""
    phrase = said(p) if p is not None else name
    text = value_words(value)
    return phrase.replace("{}", text) if "{}" in phrase else f"{phrase} {text}"


def _words(p: Param) -> str:
    return p.label.lower() if p.label else p.name


def _label(action: Action, p: Param) -> str:
    """How a message names a parameter (made only when a message needs it: a long log checks many)."""
    return f"{action.label}: {_words(p)}"


def unit_table(state: dict, kind: UnitKind) -> dict:
    return state.get(kind.key, {})


def unit_name(state: dict, kinds: Iterable[UnitKind], uid: str) -> str:
    for k in kinds:
        if uid in unit_table(state, k):
            return unit_table(state, k)[uid].get("name", uid)
    return uid


def candidates(catalogue: Catalogue, state: dict, action: Action, p: Param, args: dict, tables: Any,
               sides: list[str], labelled: bool = True) -> list[Choice]:
    """Every value the parameter's kind allows here, before ``may`` is asked.

    ``labelled``: a unit's choices in the ruleset's own words (its ``options``); without, its name only. The
    values are the same either way (a unit parameter's ``options`` only word them), and asking whether a
    form can be finished needs no words: a fleet's fire form worded every target for every ship."""
    if p.kind == "unit":
        kind = catalogue.unit_kinds[p.unit]
        table = unit_table(state, kind)
        out = []
        for uid, unit in table.items():
            if p.enemy_of or p.ally_of:
                other = _unit_of(catalogue, state, action, args.get(p.enemy_of or p.ally_of))
                if other is None:
                    continue
                if (unit.get("side") == other.get("side")) == bool(p.enemy_of):
                    continue
            out.append(Choice(uid, unit.get("name", uid)))
        if p.options is not None and labelled:  # the ruleset's own words for them (e.g. "Vigilant (maneuver 5)")
            words = {c.value: c.label for c in p.options(state, args, tables) if isinstance(c, Choice)}
            out = [Choice(c.value, words.get(c.value, c.label)) for c in out]
        return out
    if p.kind == "side":
        return [Choice(s, s) for s in sides]
    if p.options is not None:
        return [c if isinstance(c, Choice) else Choice(str(c), str(c)) for c in p.options(state, args, tables)]
    return [Choice(c, c) for c in p.choices]


def _unit_of(catalogue: Catalogue, state: dict, action: Action, uid: Any) -> dict | None:
    for p in action.params:
        if p.kind == "unit" and isinstance(uid, str):
            unit = unit_table(state, catalogue.unit_kinds[p.unit]).get(uid)
            if unit is not None:
                return unit
    return None


def _refusal(state: dict, action: Action, p: Param, value: Any, args: dict, tables: Any, plain: str) -> IllegalAction:
    """A value no check has passed, refused in the rule's own words when ``may`` has some for it."""
    try:
        why = action.may(state, {**args, p.name: value}, tables)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        why = ""
    return IllegalAction(why or plain)


def check_value(catalogue: Catalogue, state: dict, action: Action, p: Param, value: Any, args: dict,
                tables: Any, sides: list[str]) -> Any:
    """One argument read and checked by its kind; returns it as the handler receives it.

    A value that is not among the candidates is refused in the rule's own words
    when ``may`` has any for it, and otherwise by naming what is allowed.
    """
    if p.optional and value == p.default:
        return value  # the default always reads; ``may`` still judges it

    if p.kind == "int":
        if isinstance(value, str) and value.strip().lstrip("-").isdigit() and value.strip().isascii():
            value = int(value.strip())
        if not isinstance(value, int) or isinstance(value, bool):
            raise IllegalAction(f"{_label(action, p)} must be a whole number, got {value!r}")
        # the parameter's own limits first: they are the ones the form shows ("0-100000")
        if p.minimum is not None and value < p.minimum:
            raise IllegalAction(f"{_label(action, p)} must be at least {p.minimum}, got {value}")
        if p.maximum is not None and value > p.maximum:
            raise IllegalAction(f"{_label(action, p)} must be at most {p.maximum}, got {value}")
        if abs(value) > INT_LIMIT:
            raise IllegalAction(f"{_label(action, p)}: {value} is too large (at most {INT_LIMIT})")
        if p.options is not None and str(value) not in {c.value for c in candidates(
                catalogue, state, action, p, args, tables, sides)}:
            raise _refusal(state, action, p, value, args, tables,
                           f"{_label(action, p)}: {value} is not one of the numbers allowed now")
        return value
    if p.kind == "text":
        if not isinstance(value, str):
            raise IllegalAction(f"{_label(action, p)} must be text, got {value!r}")
        if why := holds_control(_label(action, p), value):  # logged, and shown as written
            raise IllegalAction(why)
        return value
    if p.kind == "multi":
        if isinstance(value, str):
            value = [v.strip() for v in value.split(",") if v.strip()]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise IllegalAction(f"{_label(action, p)} must be a list of names, got {value!r}")
        if len(set(value)) != len(value):
            raise IllegalAction(f"{_label(action, p)}: each may be chosen once")
        if not value and not p.optional:
            raise IllegalAction(f"{_label(action, p)}: choose at least one")
        allowed = {c.value for c in candidates(catalogue, state, action, p, args, tables, sides)}
        for v in value:
            if v not in allowed:
                raise _refusal(state, action, p, value, args, tables,
                               f"{_label(action, p)}: {v!r} is not one of {', '.join(sorted(allowed)) or 'none'}")
        return value
    if not isinstance(value, str):
        raise IllegalAction(f"{_label(action, p)} must be a name, got {value!r}")
    if p.kind == "unit":
        kind = catalogue.unit_kinds[p.unit]
        table = unit_table(state, kind)
        if value not in table:
            raise IllegalAction(f"{_label(action, p)}: no {kind.label.lower()} {value!r}")
        if p.enemy_of or p.ally_of:
            other = _unit_of(catalogue, state, action, args.get(p.enemy_of or p.ally_of))
            if other is not None and (table[value].get("side") == other.get("side")) == bool(p.enemy_of):
                name, whose = table[value].get("name", value), other.get("name", "")
                raise IllegalAction(f"{name} is on {whose}'s own side" if p.enemy_of
                                    else f"{name} is not on {whose}'s side")
        return value
    if p.kind == "side":  # the candidates are the sides themselves: no Choice to build for each
        allowed = set(sides)
    elif p.options is None:
        allowed = set(p.choices)
    else:
        allowed = {c.value for c in candidates(catalogue, state, action, p, args, tables, sides)}
    if value not in allowed:
        shown = ", ".join(repr(a) for a in sorted(allowed)) or "none now"
        raise _refusal(state, action, p, value, args, tables, f"{_label(action, p)}: {value!r} is not one of {shown}")
    return value


def checked_args(catalogue: Catalogue, state: dict, action: Action, args: dict, tables: Any,
                 sides: list[str]) -> dict:
    """Every argument checked by kind and by ``may``; defaults filled. Raises IllegalAction with the reason."""
    if args:  # most actions of a long log have none (next step): no sets to build
        known = {p.name for p in action.params}
        extra = sorted(set(args) - known)
        if extra:
            raise IllegalAction(f"{action.label}: no parameter {extra[0]!r} "
                                f"(known: {', '.join(sorted(known)) or 'none'})")
    reason = action.may(state, {}, tables)
    if reason:
        raise IllegalAction(reason)
    out: dict = {}
    for p in action.params:
        if p.name not in args or (p.optional and args[p.name] in ("", None, [])):
            if not p.optional:
                raise IllegalAction(f"{action.label}: {_words(p)} is needed")
            out[p.name] = list(p.default) if isinstance(p.default, (list, tuple)) else p.default
        else:
            out[p.name] = check_value(catalogue, state, action, p, args[p.name], out, tables, sides)
    if action.params:  # ``may`` reads its arguments in their order, so once with them all is enough
        reason = action.may(state, out, tables)
        if reason:
            raise IllegalAction(reason)
    return out


def filled_args(action: Action, args: dict) -> dict:
    """The arguments as the handler receives them, defaults filled as ``checked_args`` fills them, values
    taken as given: for a caller whose values come from the rule's own offers, already in the form a check
    returns (a forecast's doctrine). Only ``may`` is left to judge them. Raises IllegalAction like the check."""
    out: dict = {}
    for p in action.params:
        value = args.get(p.name, p)
        if value is p or (p.optional and value in ("", None, [])):
            if not p.optional:
                raise IllegalAction(f"{action.label}: {_words(p)} is needed")
            out[p.name] = list(p.default) if isinstance(p.default, (list, tuple)) else p.default
        else:
            out[p.name] = value
    for name in args:  # the usual call names none other: sorted only to name the first stranger
        if name not in out:
            extra = sorted(k for k in args if k not in out)
            raise IllegalAction(f"{action.label}: no parameter {extra[0]!r} "
                                f"(known: {', '.join(sorted(out)) or 'none'})")
    return out


# --- what the console may offer --------------------------------------------------------

@dataclass
class Asker:
    """Answers the console's questions about one state: which actions, which choices, why not."""

    catalogue: Catalogue
    state: dict
    tables: Any
    sides: list[str]

    def _ok(self, action: Action, args: dict) -> bool:
        return not action.may(self.state, args, self.tables)

    def _tries(self, action: Action, p: Param, args: dict) -> list[Choice]:
        """Candidates that pass the kind check and ``may`` with what is chosen so far."""
        out = []
        for c in candidates(self.catalogue, self.state, action, p, args, self.tables, self.sides):
            value: Any = [c.value] if p.kind == "multi" else (int(c.value) if p.kind == "int" else c.value)
            if self._ok(action, {**args, p.name: value}):
                out.append(c)
        return out

    def completable(self, action: Action, args: dict, index: int = 0) -> bool:
        """Can the form be finished from parameter ``index`` with what is chosen so far?"""
        if index >= len(action.params):
            return True
        p = action.params[index]
        if p.optional:
            default = list(p.default) if isinstance(p.default, (list, tuple)) else p.default
            if self._ok(action, {**args, p.name: default}) and self.completable(
                    action, {**args, p.name: default}, index + 1):
                return True
        if p.typed:
            return not p.optional  # a value is typed and checked when given
        # one candidate at a time, unworded, until one leads to a finished form (``may`` asks nothing of others)
        for c in candidates(self.catalogue, self.state, action, p, args, self.tables, self.sides, labelled=False):
            value: Any = [c.value] if p.kind == "multi" else (int(c.value) if p.kind == "int" else c.value)
            chosen = {**args, p.name: value}
            if self._ok(action, chosen) and self.completable(action, chosen, index + 1):
                return True
        return False

    def choices(self, action: Action, p: Param, args: dict) -> list[Choice] | None:
        """What to offer for ``p`` after ``args``: only values the rule accepts and the form can finish
        from. None means the value is typed; an empty list means nothing applies (an optional
        parameter is then skipped)."""
        if p.typed:
            if p.optional and p.kind == "int" and isinstance(p.default, int) \
                    and not self._ok(action, {**args, p.name: p.default + 1}):
                return []  # nothing but the default could be typed (no tactics points left): skip it
            return None
        index = action.params.index(p)
        out = []
        for c in self._tries(action, p, args):
            value: Any = [c.value] if p.kind == "multi" else (int(c.value) if p.kind == "int" else c.value)
            if self.completable(action, {**args, p.name: value}, index + 1):
                out.append(c)
        return out

    def left_out(self, action: Action, p: Param, args: dict,
                 offered: list[Choice] | None = None) -> list[tuple[Choice, str]]:
        """The candidates for ``p`` that ``choices`` does not offer (``offered``: what it gave, when the caller
        has it), each with why (what ``may`` says of it, or that the form could not be finished from it): a form
        says so when a game master looks for one."""
        if p.typed:
            return []
        shown = {c.value for c in (offered if offered is not None else self.choices(action, p, args) or [])}
        out = []
        for c in candidates(self.catalogue, self.state, action, p, args, self.tables, self.sides):
            if c.value in shown:
                continue
            value: Any = [c.value] if p.kind == "multi" else (int(c.value) if p.kind == "int" else c.value)
            why = action.may(self.state, {**args, p.name: value}, self.tables)
            out.append((c, why or f"{action.label}: nothing can follow that choice now"))
        return out

    def reason(self, action: Action) -> str:
        """Why the action cannot be taken now ("" when it can), in the game master's words."""
        why = action.may(self.state, {}, self.tables)
        if why:
            return why
        if self.completable(action, {}):
            return ""
        return self._first_blocker(action, {}, 0)

    def _first_blocker(self, action: Action, args: dict, index: int) -> str:
        """Why no choice of the first parameter leads to a finished form, for the help screen."""
        p = action.params[index]
        reasons: list[str] = []
        self._blockers(action, args, index, reasons)
        noun = self.catalogue.unit_kinds[p.unit].label.lower() if p.kind == "unit" else _words(p)
        head = f"no {noun} can be chosen now"
        if not reasons:
            return head
        more = f" (and {len(reasons) - 3} more)" if len(reasons) > 3 else ""
        return f"{head}: " + "; ".join(reasons[:3]) + more

    def _blockers(self, action: Action, args: dict, index: int, reasons: list[str], limit: int = 6) -> None:
        """The reasons ``may`` gives along every path of the form, the nearest first, up to ``limit``."""
        if index >= len(action.params) or len(reasons) >= limit:
            return
        p = action.params[index]
        if p.typed:
            return
        tries = candidates(self.catalogue, self.state, action, p, args, self.tables, self.sides, labelled=False)
        values = [[c.value] if p.kind == "multi" else (int(c.value) if p.kind == "int" else c.value) for c in tries]
        if p.optional:
            values.insert(0, list(p.default) if isinstance(p.default, (list, tuple)) else p.default)
        for value in values:
            why = action.may(self.state, {**args, p.name: value}, self.tables)
            if why:
                if why not in reasons:
                    reasons.append(why)
            else:
                self._blockers(action, {**args, p.name: value}, index + 1, reasons, limit)
            if len(reasons) >= limit:
                return

    def offers(self) -> list[Offer]:
        return [Offer(a, self.reason(a)) for a in self.catalogue.actions.values()]
