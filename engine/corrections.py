"""What a game master's correction may set: checked by the same rules as a file and a live fight.

A correction is typed by hand, so it is checked three ways before it is logged:

- by kind, shape and size: the same kind of value as the one it replaces (a
  table or list given whole, the shape it has now: ``state.shape_fault``; a list
  of names the ruleset declares, ``names_list``, typed as names separated by
  commas), and a whole number a save can hold (TOML's 64-bit range);
- by the rules that check files: a unit's field keeps its declared limits and
  choices (``UnitKind.fields``; a positive least value is a file's, and damage
  may take the value to 0 in play), a unit's ``side`` names a side, and every rule
  the ruleset declares for a path (``Ruleset.correction_rules``: a step between
  1 and 9, a weapon the tables know...); in a list that holds each entry once
  (the order of sides), a value already elsewhere in it swaps places with the
  one it replaces (``reorder``), and the list given whole may only be reordered;
  in a table or list given whole, each value that changes is checked as its own
  correction would be (``_inside_refusal``);
- by trial: the corrected state is built on a copy, and everything the console
  reads of it (header, checklist, notes, sensors, every unit's line and panels,
  the actions on offer) must still work. A value that would break any of them is
  refused with the reason, where it was typed.
"""

from __future__ import annotations

import functools

from dataclasses import dataclass, replace
from typing import Any, Callable, Iterator

from .errors import FlagbridgeError
from .schema import check_value
from .state import MISSING, Path, get_path, path_text, plain_copy, set_path, shape_fault

INT_LIMIT = 2**63 - 1  # the largest whole number a TOML file holds


@dataclass(frozen=True)
class CorrectionRule:
    """A rule for the values at ``pattern`` (``ships.*.turrets[*].weapon``: ``*`` is any key or index).

    ``check(state, value, tables)`` answers "" or why the value cannot stand; with ``reads_path`` it is also
    given the value's path (``check(state, value, tables, path)``), for a limit another value of the same unit
    sets (``up_to``, ``at_least``). With ``swaps``, the value's list holds each entry once: the entry named moves
    to the place the replaced one leaves (``set_corrected``). With ``names``, the value is a list of names
    corrected whole (``names_list``).
    """

    pattern: str
    check: Callable[..., str]
    reads_path: bool = False
    swaps: bool = False
    names: bool = False

    def matches(self, path: Path) -> bool:
        return path_matches(self.pattern, path)


def path_matches(pattern: str, path: Path) -> bool:
    """Whether ``path`` is one of the paths ``pattern`` names (``people.*.wounds[*].points``: ``*`` is any key or
    index), as a correction rule reads its pattern; a ruleset's own table of what follows a correction reads it so
    too."""
    parts = _pattern(pattern)
    if len(parts) != len(path):
        return False
    for p, k in zip(parts, path):
        if p != "*" and p != str(k):
            return False
    return True


@functools.lru_cache(maxsize=None)
def _pattern(text: str) -> tuple[str, ...]:
    """A pattern's parts, read once (a resumed fleet's state asks every rule of each of its 12,000 values)."""
    return tuple(text.replace("[", ".").replace("]", "").split("."))


# --- checks a ruleset declares with ----------------------------------------------------------

def between(least: int, most: int) -> Callable[[dict, Any, Any], str]:
    def check(state: dict, value: Any, tables: Any) -> str:
        return "" if least <= value <= most else f"must be from {least} to {most}"
    return check


def one_of(choices: Callable[[dict, Any], Any]) -> Callable[[dict, Any, Any], str]:
    """One of the names ``choices(state, tables)`` gives (side ids, a table's weapons...)."""
    def check(state: dict, value: Any, tables: Any) -> str:
        allowed = sorted(str(c) for c in choices(state, tables))
        return "" if value in allowed else f"must be one of {', '.join(allowed) or 'none'}"
    return check


def up_to(field: str, least: int = 0) -> Callable[[dict, Any, Any, Path], str]:
    """From ``least`` to the same unit's ``field`` (a ship's hits no more than it started with); for a rule with
    ``reads_path``."""
    def check(state: dict, value: Any, tables: Any, path: Path) -> str:
        most = state[path[0]][path[1]].get(field)
        if not isinstance(most, int) or most < least:
            return ""
        return "" if least <= value <= most else f"must be from {least} to {most} (its {field.replace('_', ' ')})"
    return check


def at_least(field: str) -> Callable[[dict, Any, Any, Path], str]:
    """No less than the same unit's ``field`` (hits it started with, no fewer than it has); for a rule with
    ``reads_path``."""
    def check(state: dict, value: Any, tables: Any, path: Path) -> str:
        least = state[path[0]][path[1]].get(field)
        if not isinstance(least, int):
            return ""
        return "" if value >= least else f"must be at least {least} (its {field.replace('_', ' ')})"
    return check


def _one_of_its_list(state: dict, value: Any, tables: Any, path: Path) -> str:
    entries = get_path(state, path[:-1])
    if value in entries:
        return ""
    return f"must be one of {', '.join(map(str, entries))} (naming one at another's place swaps the two)"


def reorder(pattern: str) -> CorrectionRule:
    """For a list that holds each entry once (an order of sides): a correction names one of its entries, which
    trades places with the one it replaces. Any other value would leave an entry twice and another gone, and a
    rule that looks an entry up (a side's name, its roll) would fail on it later."""
    return CorrectionRule(pattern, _one_of_its_list, reads_path=True, swaps=True)


def names_list(pattern: str, check: Callable[[dict, Any, Any], str]) -> CorrectionRule:
    """For a list of names a game master corrects whole (the systems shut down): typed as names separated by
    commas (``read_names``) and listed by the correction form as one value, since an empty list has no entry to
    pick and a name added or taken away changes its length. ``check(state, names, tables)`` holds the names to
    the ruleset's rule; a single entry corrected alone is the ruleset's to check with it."""
    return CorrectionRule(pattern, check, names=True)


def typed_as_names(ruleset: Any, path: Path) -> bool:
    """Whether the value at ``path`` is a list of names corrected whole (``names_list``)."""
    return any(rule.names and rule.matches(path) for rule in ruleset.correction_rules)


def read_names(text: str) -> list[str]:
    """"sensors, power" as ["sensors", "power"]; empty text (or only commas) is no names at all."""
    return [name.strip() for name in text.split(",") if name.strip()]


def names_text(names: list) -> str:
    """The list as a game master types it back (``read_names`` reads it as it was)."""
    return ", ".join(map(str, names))


def value_text(value: Any, inside: bool = False) -> str:
    """A corrected value as a game master reads it in the log: a number as it is, true/false as the form asks for
    them, text as it was typed (quoted when it stands alone, so an empty name shows), a list as its entries
    separated by commas (the names as ``names_text`` has them typed) and a table as ``key = value`` pairs, either
    one "(none)" when empty and in parentheses when it stands inside another; no Python spelling of any."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return (value or "(empty)") if inside else f"'{value}'"
    if isinstance(value, (list, dict)):
        if not value:
            return "(none)"
        parts = ([f"{k} = {value_text(v, True)}" for k, v in value.items()] if isinstance(value, dict)
                 else [value_text(v, True) for v in value])
        return f"({', '.join(parts)})" if inside else ", ".join(parts)
    return str(value)


def value_said(value: Any) -> str:
    """A value inside a sentence ("fuel = 30 would break the fight", "is false in the file"): as the log reads it
    (``value_text``), a table in parentheses as inside another, so its own "=" do not run into the sentence's."""
    return value_text(value, inside=isinstance(value, dict))


def not_empty(state: dict, value: Any, tables: Any) -> str:
    return "" if str(value).strip() else "must not be empty"


# --- the checks every correction gets -----------------------------------------------------------

def refusal(ruleset: Any, state: dict, path: Path, value: Any, within: bool = False) -> str:
    """Why ``value`` may not stand at ``path`` ("" when it may).

    ``within``: the value is one inside a table or list corrected whole (``_inside_refusal``), where an entry of a
    list that holds each entry once is checked with its list, not against the entries it swaps with."""
    where = path_text(path)
    whole = type(value) is dict or type(value) is list
    if whole and (why := shape_fault(get_path(state, path), value, where)):
        return why  # before any rule reads the table's fields
    for kind in ruleset.unit_kinds:
        if len(path) == 3 and path[0] == kind.key:
            if path[2] == "side":
                sides = ruleset.side_ids(state)
                if value not in sides:
                    return f"{where}: side must be one of {', '.join(sides)}"
            field = next((f for f in kind.fields if f.name == path[2]), None)
            if field is not None:
                if field.minimum is not None and field.minimum > 0:  # a file's least (a hull of 1)
                    field = replace(field, minimum=0)                # is no floor for damage in play
                try:
                    check_value(value, field, where)
                except FlagbridgeError as exc:
                    return str(exc)
    tables = ruleset.tables_for(state)
    for rule in ruleset.correction_rules:
        if rule.matches(path) and not (within and rule.swaps):
            try:
                why = rule.check(state, value, tables, path) if rule.reads_path else rule.check(state, value, tables)
            except Exception as exc:  # noqa: BLE001  a rule reads the rest of the state, which a resumed one
                text = " ".join(str(exc).split())  # may hold in a shape the rules never made: no check, no value
                return f"{where}: cannot be checked against the rest of the state ({type(exc).__name__}: {text})"
            if why:
                return f"{where} {why}"
    # after the limits the rules give (the ones a game master knows), before anything is tried with the value
    if isinstance(value, int) and not isinstance(value, bool) and not -INT_LIMIT <= value <= INT_LIMIT:
        return f"{where}: {value} is too large for a save (at most {INT_LIMIT})"
    return _inside_refusal(ruleset, state, path, value) if whole else ""


def _inside_refusal(ruleset: Any, state: dict, path: Path, value: Any) -> str:
    """Why a value inside a table or list given whole may not stand ("" when none): each that changes is asked as
    its own correction would be, with the rest of the table as corrected (fuel within the tonnage given with it)
    and itself as it was (a crew count may stay as large as it was); a list that holds each entry once
    (``reorder``) may only be put in another order. A whole ship, body part or turret list once passed with none
    of its values checked (a turret weapon no table knows, a chest of 0 points)."""
    old = get_path(state, path)
    trial = plain_copy(state)
    set_path(trial, path, plain_copy(value))
    for inner, new, was in _changed(old, value, path):
        if type(new) is list:  # an order of sides or the like, given whole
            if any(r.swaps and r.matches(inner + (0,)) for r in ruleset.correction_rules) and \
                    sorted(map(repr, new)) != sorted(map(repr, was if type(was) is list else [])):
                listed = ", ".join(map(str, was)) if type(was) is list and was else "none"
                return f"{path_text(inner)} must hold the entries it holds now, in any order ({listed})"
            continue
        if was is not MISSING:
            set_path(trial, inner, was)
        why = refusal(ruleset, trial, inner, new, within=True)
        if was is not MISSING:
            set_path(trial, inner, new)
        if why:
            return why
    return ""


def _changed(old: Any, new: Any, path: Path) -> Iterator[tuple[Path, Any, Any]]:
    """Each list in ``new`` (with what its place held), then each plain value in ``new`` that differs from the one
    at its place in ``old`` (``MISSING`` where ``old`` has none: an entry added to a list)."""
    if type(new) is dict:
        for key, inner in new.items():
            yield from _changed(old.get(key, MISSING) if type(old) is dict else MISSING, inner, path + (key,))
    elif type(new) is list:
        yield path, new, old
        for i, inner in enumerate(new):
            yield from _changed(old[i] if type(old) is list and i < len(old) else MISSING, inner, path + (i,))
    elif type(new) is not type(old) or new != old:
        yield path, new, old


def set_corrected(ruleset: Any, state: dict, path: Path, value: Any) -> str:
    """Set ``value`` at ``path``; under a rule that ``swaps``, the entry it names takes the place it leaves. What
    else moved, for the log ("" when nothing did)."""
    swaps = any(r.swaps and r.matches(path) for r in ruleset.correction_rules)
    old = get_path(state, path) if swaps else None
    set_path(state, path, plain_copy(value))
    if not swaps or old == value:
        return ""
    entries = get_path(state, path[:-1])
    other = next((i for i, e in enumerate(entries) if e == value and i != path[-1]), None)
    if other is None:
        return ""
    entries[other] = old
    return f"swapped: {path_text(path[:-1] + (other,))} = {old!r}"


def play_correction(ruleset: Any, state: dict, path: Path, value: Any, ctx: Any = None) -> None:
    """Set a corrected value and play out what follows from it (``Ruleset.after_correction``): typed, replayed from
    a log and tried on a copy alike.

    A table or list given whole (``Encounter.correct`` from a script, a hand edit kept on load) is handed to the
    ruleset value by value: each plain value inside it that differs from the one it replaces, in the order the
    state holds them, as if that value alone had been corrected; then the table itself. A whole gothic ship with
    no hits left once stayed afloat, and a megatraveller ship given another side crashed: each ruleset looks for
    the paths of single values. The ruleset reads the state as corrected, so what it derives follows the table's
    values, and what one value has already played out a later call finds done (each consequence is said once). A
    value the table gives is what its own call finds at its path (``Ruleset.keeps_given_values``): one an earlier
    value's playing out derived again is given back first (a percentile wound's points read its percentage again,
    over the percentage typed with them). An entry a list gains has no single correction to stand for and is not
    handed on. Each call is given the value its path held before (``was``)."""
    was = get_path(state, path)
    moved = set_corrected(ruleset, state, path, value)
    if moved and ctx is not None:
        ctx.note(moved)
    if ruleset.plays_out_inside_tables and (type(value) is dict or type(value) is list):
        for inner in list(_values_changed(was, value, path)):
            if ruleset.keeps_given_values:
                _give_back(state, inner, get_path(value, inner[len(path):]))
            ruleset.after_correction(state, inner, ctx, was=get_path(was, inner[len(path):]))
    ruleset.after_correction(state, path, ctx, was=was)


def _give_back(state: dict, path: Path, given: Any) -> None:
    """Set a plain value a table corrected whole gives at ``path`` again; a place an earlier value's playing out took
    away (a list entry) is left as that left it."""
    try:
        set_path(state, path, given)
    except FlagbridgeError:
        pass


def _values_changed(was: Any, now: Any, path: Path) -> Iterator[Path]:
    """The path of each plain value in ``now`` that differs from the one at its place in ``was``, in ``was``'s order
    (a table's keys as the state holds them, whatever order a script wrote them in; a list's entries by place);
    a place ``was`` lacks is left out."""
    if type(was) is dict and type(now) is dict:
        for key, inner in was.items():
            if key in now:
                yield from _values_changed(inner, now[key], path + (key,))
    elif type(was) is list and type(now) is list:
        for i, (a, b) in enumerate(zip(was, now)):
            yield from _values_changed(a, b, path + (i,))
    elif type(was) not in (dict, list) and type(now) not in (dict, list):
        if type(now) is not type(was) or now != was:
            yield path


def trial_fault(ruleset: Any, state: dict, path: Path, value: Any) -> str:
    """Why the fight could not be shown with the correction made ("" when it could): played out on a copy of
    ``state`` (``play_correction``), then read as the console reads it (``breakage``)."""
    trial = plain_copy(state)
    try:  # what follows from the value may fail too: a refusal as well, never a crash where it was typed
        play_correction(ruleset, trial, path, value)
    except Exception as exc:  # noqa: BLE001 (any failure at all is a reason to refuse the value)
        return _one_line(exc)
    return breakage(ruleset, trial)


def _ask_form(ruleset: Any, state: dict, action: Any) -> None:
    """Each question of an offered action's form, as the console asks them, each answered with the first choice
    offered (as the form takes it, ``check_answer``): the choices are worked out from the state (a range between
    two ships...), so a state the rules never made can fail there even when the panels draw."""
    args: dict = {}
    for param in action.params:
        offered = ruleset.param_choices(state, action.name, param, args)
        if not offered:  # typed, or nothing to choose: the questions after it wait for an answer
            return
        first = [offered[0].value] if param.kind == "multi" else offered[0].value
        value, why = ruleset.check_answer(state, action.name, param.name, first, args)
        if why:
            return
        args[param.name] = value


def breakage(ruleset: Any, state: dict, forms: bool = False) -> str:
    """Run everything the console reads of a state; the first failure, in one line ("" when none). ``forms``: the
    questions of every action it offers too, for a resumed state, whose values the rules never made (a
    correction changes one value of a state they did: asking every form after each doubled its cost in a fleet
    of 100 ships)."""
    try:
        ruleset.header(state)
        ruleset.checklist(state)
        ruleset.checklist_notes(state)
        ruleset.sensors(state)
        for kind, uid, _unit in ruleset.units(state):
            ruleset.unit_line(state, kind, uid)
            ruleset.unit_panels(state, kind, uid)
        for offer in ruleset.offers(state):
            if forms and offer.possible:
                _ask_form(ruleset, state, offer.action)
    except Exception as exc:  # any failure at all is a reason to refuse the value
        return _one_line(exc)
    return ""


def _one_line(exc: Exception) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}" + (f": {text}" if text else "")
