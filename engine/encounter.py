"""The encounter: a setup, an ordered event log, and the state they make.

There is one way to change the state: record an event (an action, a roll
result, or a game master's correction). Undo removes the last group of events
(an action with every roll it caused) and rebuilds; redo re-applies it.
Replaying a log draws no random numbers (STYLE.md: python-chess ``push``/``pop``).

A correction made while an action's rolls wait, and changing what they ask, is
placed in the log before that action, which is played again after it with the
rolls already answered (each keeping its dice): the waiting roll is asked as if
the correction had come first. Undo then takes back that correction alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Iterator

from .errors import FlagbridgeError, IllegalAction
from .ids import id_place, id_problem
from .reading import holds_control, one_line, standard_time
from .rolls import Modifier, RollRequest, RollResult, SeededRoller, Target, checked_result, typed_result
from .corrections import (breakage, play_correction, read_names, refusal, trial_fault, typed_as_names, value_said,
                          value_text)
from .renames import Renames
from .tables import table_files
from .actions import Action, Offer
from .ruleset import RuleContext, Ruleset, StepView, find_ruleset
from .setup import Setup, check_setup, now
from .state import (MISSING, check_plain, coerce_like, freeze, get_path, parse_path, path_text, plain_copy,
                    shape_fault, thaw)

CHECKPOINT_EVERY = 100
#: A replay keeps a checkpoint every ``CHECKPOINT_EVERY`` events only over the last ``DENSE_TAIL`` events of
#: the log, and one every ``SPARSE_TIMES`` of them before: undo walks back from the end, and freezing a
#: fleet's state every 100 events was a fifth of opening a long fleet fight. An undo that reaches the sparse
#: part replays from the nearest checkpoint and keeps the dense ones it passes (``_rebuild``).
DENSE_TAIL = 1000
SPARSE_TIMES = 10
#: Frozen states kept after the last few changes (``Encounter.frozen_state``): the autosave freezes the state
#: after every key anyway, so an undo back to one of them thaws it instead of replaying up to 99 events.
RECENT_KEPT = 16
KINDS = ("action", "roll", "correction")
#: A correction made while an action's rolls waited and placed before that action (``Encounter.correct``) keeps,
#: under this key, how many events of the action's group followed it when it was made (the action, the rolls
#: answered, a correction made meanwhile), and the action played again after it is marked ``PLAYED_AGAIN``. While
#: that action's group holds just those, the correction is the last thing done: undo takes it back alone. Both are
#: written in the save, so a reloaded fight undoes it the same way; an action taken anew after the group was undone
#: has no mark, so the correction is never taken for the last thing done before it.
PLACED = "placed_before"
PLAYED_AGAIN = "played_again"
#: What ``Encounter.waiting_roll_note`` says of a correction that reaches the waiting roll, of one that makes the rules
#: ask another roll in its place, of one that changes only the action's other rolls, and of one that cannot be placed.
ASKED_AGAIN = "The waiting roll will be asked with the new value: logged before its action"
ANOTHER_ASKED = "With the new value the rules ask another roll"
STAYS = "The waiting roll stays as it is; the action's other rolls read the new value: logged before its action"
KEPT_BACK = "The waiting roll keeps the numbers it was asked with"
_NO_ARGS: dict = {}  # an action logged without args (never handed to a rule: a fresh dict is)
_NO_FACES: list = []  # read only: defaults of a logged roll's fields
_NO_CONTEXT: dict = {}


@dataclass
class Event:
    """One logged event. ``data`` is plain; ``text`` is its save text once written.

    ``notes``: what the rules noted while applying it, its own first; ``about``: where the notes a rule set
    apart (``RuleContext.about``) begin in them, and what they are about, as (index, subject) pairs; ``words``:
    an action's chosen values as its form named them when it was taken (``Ruleset.action_words``), or None.
    """

    kind: str
    group: int
    at: datetime
    data: dict[str, Any]
    text: str | None = None
    notes: list[str] = field(default_factory=list, compare=False)
    about: tuple = field(default=(), compare=False)
    words: dict | None = field(default=None, compare=False)
    #: a correction placed before an action whose rolls waited (``PLACED``): the events it displaced, kept so that
    #: undo puts back the very ones (this session only; a reloaded fight plays them again)
    displaced: list | None = field(default=None, compare=False, repr=False)

    def plain(self) -> dict[str, Any]:
        return {"kind": self.kind, "group": self.group, "at": self.at, **self.data}


class UnreadEvent(Event):
    """A logged event of a block the replay cache vouches for, read from its text only when first asked.

    A long fight opened from its cache needs no event of those blocks to rebuild its state (the cache holds
    it), and the console shows only the last few hundred: making every event's tables would be most of the
    load. Its kind and group come from the cache; its time and data are read from its text, with the rest of
    its block (``UnreadBlock``) in one go, the first time anything asks for either. The text is the file's
    own, byte for byte the text the cache was made from, so it reads as it did then.
    """

    def __init__(self, kind: str, group: int, text: str, block: "UnreadBlock") -> None:
        self.kind, self.group, self.text, self.notes = kind, group, text, []
        self._block: UnreadBlock | None = block
        self._at: Any = None
        self._data: Any = None

    def _read(self) -> None:
        if self._block is not None:
            self._block.read()

    @property  # type: ignore[override]
    def at(self) -> datetime:
        self._read()
        return self._at

    @at.setter
    def at(self, value: datetime) -> None:
        self._at = value

    @property  # type: ignore[override]
    def data(self) -> dict[str, Any]:
        self._read()
        return self._data

    @data.setter
    def data(self, value: dict[str, Any]) -> None:
        self._read()  # the rest of the block is still read as it was
        self._data = value


class UnreadBlock:
    """The unread events of one block of the log, read together on first use (one parse of their joined text)."""

    def __init__(self) -> None:
        self.events: list[UnreadEvent] = []

    def read(self) -> None:
        from .reading import parse_toml

        events = self.events
        if not events:
            return
        tables = parse_toml("".join(ev.text for ev in events)).get("events")
        if not isinstance(tables, list) or len(tables) != len(events):  # cannot be, for the cache's own text
            raise FlagbridgeError("the log's text no longer reads as the events it was cached as")
        self.events = []
        for ev, d in zip(events, tables):
            del d["kind"], d["group"]
            ev._at = d.pop("at")
            ev._data = d
            ev._block = None


def roll_event_data(result: RollResult) -> dict[str, Any]:
    """A roll as saved: the request it answers, the dice, and the outcome for readers."""
    d = result.request.to_plain()
    d.pop("group", None)
    d["natural"] = result.natural
    if result.faces:
        d["faces"] = list(result.faces)
    d["source"] = result.source
    d["total"] = result.total
    if result.success is not None:
        d["success"] = result.success
    return d


def set_apart(notes: list[str], asides: list) -> tuple[list[str], tuple]:
    """An event's notes with those set apart after its own, and where each subject's notes begin (``Event.about``).

    ``asides``: [subject, first, past the last] in ``notes`` for each ``RuleContext.about`` block, in the order they
    began; a note belongs to the innermost block around it (one begun inside another marks a span within it)."""
    owner = [-1] * len(notes)
    for k, (_subject, first, last) in enumerate(asides):  # later (inner) blocks take their notes from earlier ones
        owner[first:last] = [k] * (last - first)
    own = [n for n, k in zip(notes, owner) if k < 0]
    out, about = own, []
    for k, (subject, _first, _last) in enumerate(asides):
        said = [n for n, whose in zip(notes, owner) if whose == k]
        if said:
            about.append((len(out), subject))
            out += said
    return out, tuple(about)


def note_sections(ev: Event) -> tuple[list[str], list[tuple[dict, list[str]]]]:
    """``ev``'s own notes, and each subject's set apart from them with its notes."""
    if not ev.about:
        return ev.notes, []
    starts = [i for i, _ in ev.about] + [len(ev.notes)]
    return ev.notes[:starts[0]], [(subject, ev.notes[i:starts[n + 1]]) for n, (i, subject) in enumerate(ev.about)]


def kept_notes(ev: Event) -> list:
    """``ev``'s notes as a replay cache keeps them: the list itself, then its ``words`` when it has some (a table
    among the texts), then its ``about`` when it has one (a list among the texts)."""
    if not ev.about and not ev.words:
        return ev.notes
    kept = ev.notes + [ev.words] if ev.words else list(ev.notes)
    return kept + [[[i, subject] for i, subject in ev.about]] if ev.about else kept


def _take_kept_notes(ev: Event, kept: list) -> None:
    if kept and type(kept[-1]) is list:
        ev.about = tuple((i, subject) for i, subject in kept[-1])
        kept = kept[:-1]
    if kept and type(kept[-1]) is dict:
        ev.words = kept[-1]
        kept = kept[:-1]
    ev.notes = kept


def resumed_state(start: Any, fresh: dict, unit_keys: tuple[str, ...] = ()) -> dict:
    """The state a resumed fight starts from (``Setup.start``), checked enough to play on: a table, with each
    top-level value of the kind a fresh start has, its pending rolls readable. A key today's rules keep that the
    saved state lacks (one added since it was written) is taken from the fresh start, at the top level and in
    each unit the saved state still holds; a unit it no longer holds (a spent salvo) stays gone."""
    if not isinstance(start, dict):
        raise FlagbridgeError("setup.start: expected the table of the state the fight resumes from")
    state = plain_copy(start)
    for key, value in fresh.items():
        if key not in state:
            state[key] = value
        elif type(state[key]) is not type(value) and not (isinstance(value, (int, float)) and
                                                          isinstance(state[key], (int, float))):
            raise FlagbridgeError(f"setup.start.{key}: expected {type(value).__name__}, got "
                                  f"{type(state[key]).__name__}")
        elif key in unit_keys:
            for uid, unit in state[key].items():  # a table of units: each keeps its own, gains what it lacks
                if why := id_problem(uid):  # an id typed by hand, as one in [setup] may be
                    raise FlagbridgeError(f"setup.start.{key}.{id_place(uid)}: {why}")
                model = value.get(uid)
                if isinstance(unit, dict) and isinstance(model, dict):
                    for field, v in model.items():
                        unit.setdefault(field, v)
    for i, plain in enumerate(state["pending"]):
        try:
            RollRequest.from_plain(plain)
        except Exception as exc:  # noqa: BLE001 (whatever the entry holds: one line)
            raise FlagbridgeError(f"setup.start.pending[{i}]: not a roll this Flagbridge reads ({exc})") from None
    return state


def _container(v: Any) -> type | None:
    """dict, list or None (a plain value): what a resumed state's value must be where a fresh start has one."""
    return dict if isinstance(v, dict) else list if isinstance(v, list) else None


def _how_unlike(logged: RollRequest, pending: RollRequest) -> str:
    """What of a logged roll's request differs from the one pending: the two read alike when only where the rule
    goes on differs (a rules fix since the log was written), so the message says which part."""
    if logged.dice != pending.dice:
        return f"its dice are {logged.dice}, the rules now ask {pending.dice}"
    if [m.value for m in logged.modifiers] != [m.value for m in pending.modifiers]:
        return "its modifiers differ"
    if logged.target != pending.target:
        return "the number it needed differs"
    if logged.then != pending.then:
        return (f"it went on to {logged.then!r}, the rules now go on to {pending.then!r} (the rules read this "
                f"point of the log another way since it was written)")
    keys = sorted(k for k in {*logged.context, *pending.context} if logged.context.get(k) != pending.context.get(k))
    return f"its details differ ({', '.join(map(str, keys))})"


def result_from_event(ev: Event, pending: RollRequest, plain: dict | None = None) -> RollResult:
    """Check a logged roll against the pending request it claims to answer (``plain``: as the state holds it)."""
    d = ev.data
    # The purpose and the modifiers' names are words for the log (they hold units' names, which a
    # game master may change in [setup]); the dice, the numbers, the target and where the rule goes on
    # are what must agree.
    if plain is None or not _answers(d, plain):  # read the logged request in full only when not plainly the same
        logged = RollRequest.from_plain({**d, "group": pending.group})
        if (logged.dice, [m.value for m in logged.modifiers], logged.target, logged.then, logged.context) != (
            pending.dice, [m.value for m in pending.modifiers], pending.target, pending.then, pending.context
        ):
            raise FlagbridgeError(
                f"roll {logged.describe()!r} does not answer the pending roll {pending.describe()!r}: "
                f"{_how_unlike(logged, pending)}"
            )
    natural = d.get("natural")
    if type(natural) is not int and (not isinstance(natural, int) or isinstance(natural, bool)):
        raise FlagbridgeError(f"roll natural must be a whole number, got {natural!r}")
    faces = d.get("faces", _NO_FACES)
    if not isinstance(faces, list) or not all([isinstance(f, int) for f in faces]):
        raise FlagbridgeError(f"roll faces must be a list of whole numbers, got {faces!r}")
    source = d.get("source", "")
    result = checked_result(pending, natural, tuple(faces), source if type(source) is str else str(source))
    if "total" in d and d["total"] != result.total:
        raise FlagbridgeError(f"roll total {d['total']!r} does not match the dice and modifiers ({result.total})")
    return result


def _answers(d: dict, plain: dict) -> bool:
    """The logged roll names exactly the pending one's dice, modifiers, target, rule and context, as
    written (the common case on replay; anything less plain is read and compared in full)."""
    if not (type(d.get("dice")) is str and d["dice"] == plain["dice"] and d.get("target") == plain.get("target")
            and d.get("then", "") == plain.get("then", "")
            and d.get("context", _NO_CONTEXT) == plain.get("context", _NO_CONTEXT)):
        return False
    mods = d.get("modifiers")
    wanted = plain.get("modifiers")
    if mods is None and wanted is None:  # neither has any (a request writes none when it has none)
        return True
    if mods is None:
        mods = []
    return (type(mods) is list and all([type(m) is dict and "source" in m and type(m.get("value")) is int
                                        for m in mods])
            and [m["value"] for m in mods] == [m["value"] for m in wanted or ()])


def _reads_back(r: RollRequest) -> bool:
    """Every field of the exact type ``RollRequest.from_plain`` gives it (a rule's request usually is)."""
    t = r.target
    return (type(r.purpose) is str and type(r.dice) is str and type(r.then) is str and type(r.group) is int
            and type(r.secret) is bool and type(r.context) is dict and type(r.modifiers) is tuple
            and (t is None or (type(t) is Target and type(t.number) is int and type(t.at_most) is bool
                               and 0 <= abs(t.number) < 10 ** 6))
            and all([type(m) is Modifier and type(m.source) is str and type(m.value) is int for m in r.modifiers]))


def _numbers(d: dict) -> tuple:
    """What a roll asks, as a logged roll or a pending one holds it, without its words (the purpose and the
    modifiers' names): its dice, modifiers, target, rule, context and secrecy."""
    r = RollRequest.from_plain({**d, "group": 0})
    return r.dice, [m.value for m in r.modifiers], r.target, r.then, r.context, r.secret


def _same_roll(was: dict, will: dict) -> bool:
    """Whether two requests are one roll of the procedure, its numbers aside: the same rule resumed with the same
    dice, about the same things (the words of its context: who, what, where; its numbers may change)."""
    def words(d: dict) -> dict:
        context = d.get("context")
        return {k: v for k, v in context.items() if type(v) is str} if isinstance(context, dict) else {}

    return (was.get("then", ""), was.get("dice"), words(was)) == (will.get("then", ""), will.get("dice"), words(will))


def _asked_then(was: dict, will: dict) -> str:
    """What the correction form says of a correction placed before the waiting roll's action: the roll that will
    be asked (``will``) against the one waiting now (``was``), both as the state keeps them."""
    if not _same_roll(was, will):
        new, old = RollRequest.from_plain({**will, "group": 0}), RollRequest.from_plain({**was, "group": 0})
        return f"{ANOTHER_ASKED}: {new.purpose} ({new.dice}) in place of {old.purpose}; logged before its action"
    if _numbers(was) != _numbers(will):
        return ASKED_AGAIN
    return STAYS


def _overlaps(path: Any, p: tuple) -> bool:
    """Whether a logged correction's path reaches the value at ``p``: the same value, a table holding it, or a
    value inside it."""
    if type(path) is not list:
        return False
    n = min(len(path), len(p))
    return tuple(path[:n]) == p[:n]


class _NoFit(Exception):
    """The log cannot be played again with a correction placed before the action whose rolls wait; says why."""


class _TakenBack(list):
    """A redo entry: a correction placed before an action, taken back alone (``Encounter.undo``); redo places it
    there again. ``made``: the events its placing had made after it, reused where they come out the same."""

    made: list


Listener = Callable[["Encounter"], None]


class Encounter:
    """Setup plus log; ``state`` is always their product.

    Events are applied to ``state`` in place (a copy per event made fleet battles
    slow); a rule that refuses halfway has the state rebuilt from the last
    checkpoint, so nothing of it is kept. ``state`` is therefore live: copy it
    (``plain_copy``) to keep a snapshot.
    """

    #: Walk the whole state after every live event to prove a save can hold it.
    #: Saves check it anyway; the tests switch this on to catch a rule's mistake at once.
    check_every_event = False

    def __init__(self, setup: Setup, ruleset: Ruleset | None = None, events: list[Event] = (),
                 folder: Path | None = None, resume: tuple[int, dict[int, bytes], list] | None = None,
                 progress: Callable[[int, int], None] | None = None) -> None:
        """``resume``: (n, checkpoints, notes) kept from an earlier replay of the same first ``n`` events
        (``engine.replay_cache``): the replay starts from the checkpoint at ``n``, and those events take the
        notes it made. It is used only when its first checkpoint is the state this setup makes, and it holds
        the checkpoint at ``n`` and a list of notes for each of those events; the checkpoints it holds before
        ``n`` (some or all) serve undo. ``progress(done, total)``: told of the replay's events every
        ``CHECKPOINT_EVERY * SPARSE_TIMES`` events (a long log's first open takes seconds)."""
        self.ruleset = ruleset or find_ruleset(setup.ruleset)
        self.setup = check_setup(setup, self.ruleset.unit_kinds)
        self.ruleset.check_sides(len(self.setup.sides))
        self.folder = folder  # the save's folder: relative table paths are read from it
        if self.ruleset.table_set is not None:  # read once for the whole session
            self.ruleset.table_set.pin(table_files(self.setup.options), folder)
        self.roller = SeededRoller(setup.seed)
        self._setup_units = {uid: u for table in self.setup.units.values() for uid, u in table.items()}
        #: the last name each unit was seen with in an action's arguments (``_named``), by id
        self._seen_names: dict[str, Any] = {}
        #: the names units had before a correction renamed them, for the log (``describe``)
        self._renames = Renames(tuple(k.key for k in self.ruleset.unit_kinds))
        self.listeners: list[Listener] = []
        self._checked: tuple[Event, Any] | None = None  # a live event's checked args or roll result
        self._pending_read: tuple[dict, RollRequest] | None = None  # the first pending roll, read once
        # each pending roll's plain dict (by id) with the request it was written from, so a roll's
        # answer need not read its request back from the state (``_pend``)
        self._made: dict[int, tuple[dict, RollRequest]] = {}
        self.events: list[Event] = []
        self._redo: list[list[Event]] = []
        #: where the log was played again in place, in order (a correction placed before the action whose rolls
        #: wait, or taken back from there): a reader that follows the log by its end reads it again from there
        self.rewrites: list[int] = []
        # states every CHECKPOINT_EVERY events, frozen (pickled): a copy is paid only when one is used
        self._checkpoints: dict[int, bytes] = {0: freeze(self._initial_state())}
        #: ``frozen_state``'s copies by the events they follow: n -> (the n-th event, the frozen state)
        self._recent: dict[int, tuple[Event | None, bytes]] = {}
        start = 0
        if resume is not None and self._resumable(resume, len(events)):
            start, kept, notes = resume
            self._checkpoints.update((n, b) for n, b in kept.items()
                                     if 0 < n <= start and n % CHECKPOINT_EVERY == 0 and isinstance(b, bytes))
            for ev, said in zip(events[:start], notes):
                _take_kept_notes(ev, said)
            self.events.extend(events[:start])
        self.state = thaw(self._checkpoints[start])  # the setup's own data is never changed by play
        apply, state, log, kept = self._apply, self.state, self.events, self._checkpoints
        every, dense_from = CHECKPOINT_EVERY, len(events) - DENSE_TAIL
        sparse = every * SPARSE_TIMES
        held: dict = {}  # the tables, looked up once for the replay (``_apply``)
        for i in range(start, len(events)):
            ev = events[i]
            try:
                apply(state, ev, False, held)
            except FlagbridgeError as exc:
                raise ReplayError(i, ev, str(exc)) from None
            log.append(ev)
            n = i + 1
            if n % every == 0 and (n > dense_from or n % sparse == 0):  # ``_checkpoint``, no call per event
                kept[n] = freeze(state)
                if progress is not None and n % sparse == 0:
                    progress(n, len(events))
        if self.events:  # once for the whole log: the state a replay leaves must be saveable
            try:
                check_plain(self.state)
            except FlagbridgeError as exc:
                raise ReplayError(len(events) - 1, self.events[-1], str(exc)) from None

    def _resumable(self, resume: tuple[int, dict[int, bytes], list], events: int) -> bool:
        n, kept, notes = resume
        if not (isinstance(n, int) and 0 < n <= events and n % CHECKPOINT_EVERY == 0 and isinstance(kept, dict)
                and isinstance(kept.get(0), bytes) and isinstance(kept.get(n), bytes)
                and isinstance(notes, list) and len(notes) >= n and all([type(x) is list for x in notes[:n]])):
            return False
        try:  # the same values in the same order (pickles of equal states may differ in their bytes)
            return repr(thaw(kept[0])) == repr(thaw(self._checkpoints[0]))
        except Exception:  # noqa: BLE001 (a cache that does not read is not used)
            return False

    def checkpoints_upto(self, n: int) -> dict[int, bytes]:
        """The frozen states kept for the first ``n`` events (the start, and every ``CHECKPOINT_EVERY`` or, early
        in a replayed log, every ``SPARSE_TIMES`` of them)."""
        return {k: v for k, v in self._checkpoints.items() if k <= n}

    # --- reading ---------------------------------------------------------------

    def _initial_state(self) -> dict:
        state = self.ruleset.new_state(self.setup)
        state.setdefault("pending", [])
        fresh = state
        if self.setup.start is not None:
            state = resumed_state(self.setup.start, fresh, tuple(k.key for k in self.ruleset.unit_kinds))
        check_plain(state)
        if state is not fresh and (why := self._start_fault(state, fresh)):
            raise FlagbridgeError(why)
        return state

    def _start_fault(self, state: dict, fresh: dict) -> str:
        """Why a resumed state cannot be played on ("" when it can), as a correction of each value would be asked:
        a value of another kind than a fresh start's, one a correction could not make (the ruleset's limits), or
        a state the console cannot show (``breakage``). A resumed state is the saved [state], which a game master
        may have edited by hand: it must not reach the rules unchecked."""
        def walk(node: Any, model: Any, path: tuple) -> str:
            if model is not MISSING and model is not None and _container(node) != _container(model):
                # a table, a list or a plain value where a fresh start has another of the three: nothing inside
                # it could be compared, and the rules would read it as what they keep there
                return f"setup.start.{path_text(path)}: expected {type(model).__name__}, got {node!r}"
            if isinstance(node, dict):
                unit_keys = tuple(k.key for k in self.ruleset.unit_kinds)
                if isinstance(model, dict) and (len(path) == 1 and path[0] not in unit_keys or
                                                path and isinstance(path[-1], int)):
                    # a record in a list (a stateroom, a turret), or a table of the fight's (the sides' names),
                    # lacking a field the start's has: play never takes one out (units may go: a spent salvo),
                    # and the rule that reads it would fail at some later step
                    gone = next((k for k in model if k not in node), None)
                    if gone is not None:
                        return f"setup.start.{path_text(path)}: missing {gone}"
                for k, v in node.items():
                    if path == () and k in ("pending", "table_files"):
                        continue
                    why = walk(v, model.get(k, MISSING) if isinstance(model, dict) else MISSING, path + (k,))
                    if why:
                        return why
                return ""
            if isinstance(node, list):
                if why := self._order_fault(node, model, path):
                    return why
                for i, v in enumerate(node):
                    inner = model[i] if isinstance(model, list) and i < len(model) else (
                        model[0] if isinstance(model, list) and model else MISSING)
                    why = walk(v, inner, path + (i,))
                    if why:
                        return why
                return ""
            if model is not MISSING and not isinstance(model, (dict, list)) and model is not None and (
                    isinstance(node, bool) != isinstance(model, bool)
                    or isinstance(node, str) != isinstance(model, str)
                    or isinstance(node, (int, float)) != isinstance(model, (int, float))
                    or isinstance(node, float) and type(model) is int):  # 3.0 for 3: a table row read by it
                return f"setup.start.{path_text(path)}: expected {type(model).__name__}, got {node!r}"
            why = refusal(self.ruleset, state, path, node)
            return f"setup.start.{why}" if why else ""
        found = walk(state, fresh, ()) or self._waiting_on_gone(state, fresh)
        if not found and (why := self.ruleset.start_fault(state)):
            found = f"setup.start.{why}"
        if not found and (why := breakage(self.ruleset, state, forms=True)):
            found = f"setup.start: the console cannot show it: {why}"
        return found

    def _waiting_on_gone(self, state: dict, fresh: dict) -> str:
        """Why a resumed state's waiting rolls cannot be answered ("" when they can): one names, in its context, a
        unit of the fight's start the state no longer holds (taken out or renamed by hand), and its answer would
        look the unit up."""
        held = {uid for _k, uid, _u in self.ruleset.units(state)}
        gone = {uid for _k, uid, _u in self.ruleset.units(fresh)} - held
        for i, plain in enumerate(state["pending"]):
            context = plain.get("context") if isinstance(plain, dict) else None
            named = [v for v in (context or {}).values() if isinstance(v, str) and v in gone]
            if named:
                return f"setup.start.pending[{i}]: the roll names {named[0]}, a unit the state no longer holds"
        return ""

    def _order_fault(self, entries: list, model: Any, path: tuple) -> str:
        """Why a resumed list that holds each entry once (an order of sides: ``corrections.reorder``) cannot stand:
        an entry twice, or other entries than the start's own (when it has any), as a correction of it given whole
        would be refused. The rules take each side's place from it."""
        if not any(r.swaps and r.matches(path + (0,)) for r in self.ruleset.correction_rules):
            return ""
        shown = [repr(e) for e in entries]
        if isinstance(model, list) and model and sorted(shown) != sorted(map(repr, model)):
            return (f"setup.start.{path_text(path)} must hold the entries it holds at the start, in any order "
                    f"({', '.join(map(str, model))})")
        if len(set(shown)) != len(shown):
            return f"setup.start.{path_text(path)} must hold each entry once, got {entries!r}"
        return ""

    def start_state(self) -> dict:
        """A copy of the state the setup makes, before any event."""
        return thaw(self._checkpoints[0])

    @property
    def pending(self) -> RollRequest | None:
        """The roll the fight waits for, if any."""
        p = self.state["pending"]
        if not p:
            return None
        read = self._pending_read
        if read is None or read[0] is not p[0]:  # only the engine changes the pending rolls, by replacing them
            read = self._pending_read = (p[0], RollRequest.from_plain(p[0]))
        return read[1]

    def legal_actions(self) -> list[Action]:
        """The actions possible now (none while a roll is pending)."""
        return [] if self.state["pending"] else self.ruleset.legal_actions(self.state)

    def offers(self) -> list[Offer]:
        """Every action of the ruleset, possible now or with the reason it is not."""
        if self.state["pending"]:
            why = f"waiting for a roll first ({self.pending.describe()})"
            return [Offer(a, why) for a in self.ruleset.catalogue.actions.values()]
        return self.ruleset.offers(self.state)

    def checklist(self) -> list[StepView]:
        return self.ruleset.checklist(self.state)

    @property
    def updated(self) -> datetime:
        # a loaded event's time keeps the reader's own zone class (converting 50,000 of them costs
        # more than reading them); the one time anything else writes is made a standard one
        if not self.events:
            return self.setup.created
        events = self.events
        when = standard_time(events[-1].at)
        k = len(events)
        while k and events[k - 1].group == events[-1].group:
            k -= 1
        # a correction placed before the last action was made after that action's events: the fight changed then
        while k and events[k - 1].kind == "correction" and PLACED in events[k - 1].data:
            made = standard_time(events[k - 1].at)
            if made.tzinfo is not None and when.tzinfo is not None and made > when:
                when = made
            k -= 1
        return when

    @property
    def can_undo(self) -> bool:
        return bool(self.events)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def describe(self, ev: Event, undone: bool = False) -> str:
        """One log line for an event, naming each unit as it was called when the event happened, as the rolls and
        notes under it do (``engine.renames``): a ship renamed later reads by its old name here, by its new one
        in the lines of what followed the rename. ``undone``: said of the event just taken back (a correction
        placed before the waiting roll's action then says the action and its rolls read the old value again: not
        "that roll", as the roll waiting may be another than the one it made the rules ask)."""
        if ev.kind == "roll":
            req = RollRequest.from_plain(ev.data)
            res = RollResult(req, ev.data["natural"], tuple(ev.data.get("faces", ())), ev.data["source"])
            return res.describe()
        then = self._renames.names_then(self.events, ev)
        if ev.kind == "action":
            args = self._named(ev.data.get("args", {}), then)
            if ev.words:
                args.update(ev.words)  # in the words the form gave them when the action was taken
            return self.ruleset.describe_action(ev.data["name"], args)
        note = f" ({ev.data['note']})" if ev.data.get("note") else ""
        path = tuple(ev.data["path"])
        was, value = value_text(ev.data.get("was")), value_text(ev.data["value"])
        placed = "" if PLACED not in ev.data else (
            " · taken back from before the action whose roll waits: the action and its rolls read the old value again"
            if undone else " · placed before the action whose roll waited: the action and its rolls now read the new "
            "value")
        return f"correction: {path_text(path)}{self._unit_named(path, then)} {was} -> {value}{note}{placed}"

    def _unit_named(self, path: tuple, then: dict[str, str]) -> str:
        """" (Vigilance)" after a corrected path into a unit, whose id alone the game master may not know; or a
        path that names a unit further in (megatraveller's ``knowledge.imperial.corsair.state``: what one side
        knows of Red Lantern), by the first unit id in it. ``then``: the names of units renamed since."""
        tables = [self.state[k.key] for k in self.ruleset.unit_kinds if isinstance(self.state.get(k.key), dict)]
        if len(path) >= 3 and any(k.key == path[0] for k in self.ruleset.unit_kinds):
            uid = path[1]
        else:
            uid = next((p for p in path[1:] if isinstance(p, str) and any(p in t for t in tables)), None)
        unit = next((t[uid] for t in tables if uid in t), None) if isinstance(uid, str) else None
        name = then[uid] if isinstance(uid, str) and uid in then else (
            unit.get("name") if isinstance(unit, dict) else None)
        if not isinstance(name, str) or not name:
            return ""
        plain = [("".join(c for c in str(t).lower() if c.isalnum())) for t in (name, uid)]
        return "" if plain[0] == plain[1] else f" ({name})"  # "brute" needs no "(Brute)"

    def _named(self, args: dict, then: dict[str, str] | None = None) -> dict:
        """Arguments as a reader wants them: a unit's name where its id was given, as the fight names it now, or as
        it did before a rename since (``then``, from ``describe``). A unit no longer in the fight (a salvo spent
        in its attack) keeps the last name it was seen with, so an action reads the same when undone and when
        redone; one this session never saw (a save reopened) by the name the state keeps for it
        (``Ruleset.former_name``), else as the setup named it, else by its id."""
        seen = self._seen_names

        def name(v: Any) -> Any:
            if isinstance(v, str):
                if then and v in then:
                    return then[v]
                unit = next((self.state[k.key][v] for k in self.ruleset.unit_kinds
                             if isinstance(self.state.get(k.key), dict) and v in self.state[k.key]), None)
                if isinstance(unit, dict) and "name" in unit:
                    seen[v] = unit["name"]
                    return unit["name"]
                if v in seen:
                    return seen[v]
                former = self.ruleset.former_name(self.state, v)
                if former:
                    return former
                unit = self._setup_units.get(v)
                return unit.get("name", v) if isinstance(unit, dict) else v
            return [name(x) for x in v] if isinstance(v, list) else v

        return {k: name(v) for k, v in args.items()}

    # --- the one way to change state ----------------------------------------------

    def act(self, name: str, **args: Any) -> Event:
        """Take an action the ruleset allows now; it may ask for rolls."""
        if self.state["pending"]:
            raise IllegalAction(f"{name}: waiting for a roll first ({self.pending.describe()})")
        check_plain(args, name)
        checked = self.ruleset.check_action(self.state, name, args)  # refused here with the rule's reason
        self._named(args)  # the names its units have now, kept for its log line once one is gone (a spent salvo)
        ev = Event("action", self._next_group(), now(), {"name": name, "args": dict(args)})
        self._checked = (ev, checked)  # the event applies with these arguments, not checked twice
        try:
            return self._record(ev)
        finally:
            self._checked = None

    def roll(self) -> Event:
        """Answer the pending roll with the built-in dice."""
        req = self._require_pending()
        return self._record_roll(self.roller.answer(req, len(self.events)))

    def type_roll(self, text: str) -> Event:
        """Answer the pending roll with the physical dice typed in; bad text records nothing."""
        req = self._require_pending()
        return self._record_roll(typed_result(req, text))

    def check_correction(self, path: str | tuple, value: Any) -> tuple[tuple, Any]:
        """The path and the value as a correction would set them; IllegalAction with why it may not."""
        p = parse_path(path) if isinstance(path, str) else tuple(path)
        if p and p[0] == "pending":
            raise IllegalAction("pending rolls cannot be corrected; undo the action instead")
        old = get_path(self.state, p)
        if isinstance(value, str) and type(old) is list and typed_as_names(self.ruleset, p):
            value = read_names(value)  # "sensors, power": a list of names typed whole
        new = coerce_like(old, value, path_text(p))
        why = refusal(self.ruleset, self.state, p, new)
        if not why:  # try it on a copy: the console must still be able to show the fight
            broken = trial_fault(self.ruleset, self.state, p, new)
            why = f"{path_text(p)} = {value_said(new)} would break the fight ({broken})" if broken else ""
        if why:
            raise IllegalAction(why)
        return p, new

    def correct(self, path: str | tuple, value: Any, note: str = "") -> Event:
        """A game master's manual edit of any state value, logged so it can be undone.

        While rolls wait, a correction that changes what any roll of their action's group asks is placed before
        the action (``_placing``): the waiting roll is then asked with the new value, as it would have been had
        the correction come first. One that changes none of them, or cannot be placed so (an answered roll no
        longer fits, the rules refuse the action: ``waiting_roll_note`` says why), joins the action's group."""
        p, new = self.check_correction(path, value)
        if why := holds_control("the note", note):  # shown in the log as written, as the value is
            raise IllegalAction(why)
        old = get_path(self.state, p)
        data = {"path": list(p), "value": new, "was": old}
        if note:
            data["note"] = note
        if self.state["pending"]:  # placed before the action whose rolls wait, when it changes them and may be
            played, _why = self._placing(data)
            if played is not None:
                return self._place(*played)
        # else, mid-action, it joins the action's group: undo takes both back
        group = self.pending.group if self.state["pending"] else self._next_group()
        ev = Event("correction", group, now(), data)
        self._checked = (ev, p)  # checked by ``check_correction`` a moment ago: not asked again in ``_apply``
        try:
            return self._record(ev)
        finally:
            self._checked = None

    def undo(self) -> list[Event]:
        """Remove the last group of events; returns them (empty when nothing to undo). A correction placed before
        the last action while its rolls waited, with nothing done since, is the last thing done: it alone is taken
        back, and the action's group played again without it (``_take_back``)."""
        if not self.events:
            return []
        g = self.events[-1].group
        k = len(self.events)
        while k > 0 and self.events[k - 1].group == g:
            k -= 1
        if k and self._placed_last(k):
            taken = self._take_back(k)
            if taken:
                return taken
        removed = self.events[k:]
        self._rebuild(k)
        self._redo.append(removed)
        self._changed()
        return removed

    def redo(self) -> list[Event]:
        """Re-apply the last undone group exactly as it was logged (a correction taken back from before an
        action: placed there again)."""
        if not self._redo:
            return []
        group = self._redo.pop()
        if isinstance(group, _TakenBack):
            return self._place_again(group)
        n = len(self.events)
        for ev in group:  # named before they apply, as ``act`` does
            if ev.kind == "action" and isinstance(ev.data.get("args"), dict):
                self._named(ev.data["args"])
        marks = {}
        try:  # applied in place, as a new event is (a copy of a fleet's state first cost more than the redo)
            for i, ev in enumerate(group, 1):
                self._apply(self.state, ev, check=False)
                if (n + i) % CHECKPOINT_EVERY == 0:
                    marks[n + i] = freeze(self.state)
        except BaseException:
            self._rebuild(n)  # the log as it was before the redo; the group can be redone again
            self._redo.append(group)
            raise
        self.events.extend(group)
        self._checkpoints.update(marks)
        self._changed()
        return group

    # --- machinery -------------------------------------------------------------------

    def _require_pending(self) -> RollRequest:
        req = self.pending
        if req is None:
            raise IllegalAction("no roll is pending")
        return req

    def _next_group(self) -> int:
        return (self.events[-1].group + 1) if self.events else 1

    def _record_roll(self, result: RollResult) -> Event:
        ev = Event("roll", result.request.group, now(), roll_event_data(result))
        self._checked = (ev, result)  # made from the pending request itself: nothing to compare
        try:
            return self._record(ev)
        finally:
            self._checked = None

    def _record(self, ev: Event) -> Event:
        try:
            self._apply(self.state, ev, check=self.check_every_event)
        except BaseException:
            self._rebuild(len(self.events))  # the rule may have changed part of it before refusing
            raise
        self.events.append(ev)
        self._redo.clear()
        self._checkpoint()
        self._changed()
        return ev

    def _apply(self, state: dict, ev: Event, check: bool = True, held: dict | None = None) -> None:
        """Apply one event to ``state``. ``held``: a replay's tables, looked up by the first event that reads
        them and kept for the next (``RuleContext.held``; None looks them up for each): the tables are pinned
        for the session, and the state's ``table_files`` change only by a correction, which empties it."""
        kind = ev.kind
        rs = self.ruleset
        # every field given in order: the dataclass's defaults and keywords cost more than the rule on replay
        ctx = RuleContext(ev.group, [], [], rs, "", "", state, held, [])
        pending = state["pending"]
        if kind == "action":
            data = ev.data
            name = data.get("name")
            args = data.get("args", _NO_ARGS)
            if not isinstance(name, str) or not isinstance(args, dict):
                raise FlagbridgeError("an action needs a name (text) and args (a table)")
            if pending:
                raise IllegalAction(f"{name}: a roll is still pending")
            if args is _NO_ARGS:
                args = {}
            elif name in rs.catalogue.worded:  # named as the form named them, before the action changes the state
                ev.words = rs.action_words(state, name, args, ctx.tables_of(rs, False))
            rs.apply_action(state, name, args, ctx, checked=self._known(ev) if self._checked is not None else None)
            if ctx.requests:
                pending.extend(self._pend(ctx.requests))
        elif kind == "roll":
            if not pending:
                raise IllegalAction("a roll was logged but none was pending")
            result = self._known(ev) if self._checked is not None else None
            plain = pending[0]
            made = self._made.pop(id(plain), None)
            if result is None:
                request = made[1] if made is not None and made[0] is plain else RollRequest.from_plain(plain)
                result = result_from_event(ev, request, plain)
            del pending[0]
            rs.resolve_roll(state, result, ctx)
            if ctx.requests:  # rolls a result asks for come before the ones already waiting
                pending[0:0] = self._pend(ctx.requests)
        elif kind == "correction":
            path = ev.data.get("path")
            if not isinstance(path, list) or not path:
                raise FlagbridgeError("a correction needs a path (a list of keys)")
            if path[0] == "pending":
                raise IllegalAction("pending rolls cannot be corrected")
            value = ev.data.get("value")
            old = get_path(state, tuple(path))  # a path the state does not hold is refused here, by name
            # as ``coerce_like`` keeps a typed one: a logged value of another kind or shape (a hand edit) would
            # reach the rules as no correction can, a whole table replaced by true or a chest by {}
            where = tuple(path)
            typed = self._checked is not None and self._checked[0] is ev  # checked as it was typed
            why = shape_fault(old, value, path_text(where))
            if not why and not typed:
                why = self._logged_refusal(state, where, value)
            if why:
                raise FlagbridgeError(why)
            if ev.data.get("was", MISSING) != old:  # what it replaced as the fight replays, not as a hand edit wrote
                ev.data["was"] = plain_copy(old)  # it: the log cannot then say "150 -> 140" after "160 -> 150"
                ev.text = None  # and the next save writes it so
            play_correction(rs, state, where, value, ctx)
            if held:
                held.clear()
        else:
            raise FlagbridgeError(f"unknown event kind {kind!r} (expected {', '.join(KINDS)})")
        if check:  # a live event; replays of events already checked skip the walk
            check_plain(state)
        if ctx.asides:
            ev.notes, ev.about = set_apart(ctx.notes, ctx.asides)
        else:
            ev.notes = ctx.notes
            if ev.about:  # made by an earlier replay of a rule since changed
                ev.about = ()

    # --- a correction made while rolls wait ------------------------------------------------------------------

    def waiting_roll_note(self, path: str | tuple, value: Any) -> str:
        """One line on what a correction made now does to the rolls waiting: the roll asked again with the new
        value, another roll asked in its place (named), the roll as it is while the action's other rolls change, or
        why they keep the numbers they were asked with; "" when no roll waits or the correction changes none.
        IllegalAction when the correction may not be made at all (``check_correction``)."""
        if not self.state["pending"]:
            return ""
        p, new = self.check_correction(path, value)
        played, why = self._placing({"path": list(p), "value": new, "was": get_path(self.state, p)})
        if played is not None:
            return _asked_then(self.state["pending"][0], played[3]["pending"][0])
        if why == "resumed":
            return f"{KEPT_BACK}: the fight was resumed with it waiting, and the action that asked it is not in the log"
        return f"{KEPT_BACK} ({why}); undo the action to ask it again" if why else ""

    def _waiting_group(self) -> int | None:
        """Where the group of the rolls waiting begins in the log, if it begins with the action that asked them
        (a fight resumed with rolls waiting has no such action in its log)."""
        g, k = self.pending.group, len(self.events)
        while k and self.events[k - 1].group == g:
            k -= 1
        return k if k < len(self.events) and self.events[k].kind == "action" else None

    def _placing(self, data: dict) -> tuple[tuple | None, str]:
        """The log played again with a correction (``data``: its path, value and what it replaces) placed before
        the action whose rolls wait, as ``_place`` takes it, when that changes what any roll of the action's group
        asks and the rolls can be played so; else None and why not ("" when it would change none: nothing moves).

        The correction must read as typed once the action has played after it: a value the action sets itself
        (points it spends), or a correction made meanwhile sets, means what the game master saw after the action,
        not before."""
        k = self._waiting_group()
        if k is None:
            return None, "resumed"
        p, new, tail = tuple(data["path"]), data["value"], self.events[k:]
        c = Event("correction", tail[0].group, now(), {**data, PLACED: len(tail)})
        try:
            state, events, marks = self._played_again(k, [c], tail, c.group + 1)
        except _NoFit as exc:
            return None, str(exc)
        # the group's rolls, answered then waiting (each answered one is played again, or _NoFit): one list each
        was = [ev.data for ev in tail if ev.kind == "roll"] + self.state["pending"]
        will = [ev.data for ev in events if ev.kind == "roll"] + state["pending"]
        if [_numbers(d) for d in was] == [_numbers(d) for d in will]:
            return None, ""
        if not state["pending"]:
            return None, "with the new value the action would ask no more rolls"
        now_reads = get_path(state, p)
        if now_reads != new:
            after = f"placed before it, it would read {value_text(now_reads)} after it"
            if any(ev.kind == "correction" and _overlaps(ev.data.get("path"), p) for ev in tail):
                return None, f"a correction made while the roll waited sets {path_text(p)} after the action: {after}"
            return None, f"the action sets {path_text(p)} itself: {after}"
        return (k, c, events, state, marks), ""

    def _played_again(self, k: int, lead: list[Event], group: list[Event], number: int,
                      reuse: list[Event] | None = None) -> tuple[dict, list[Event], dict[int, bytes]]:
        """The state the first ``k`` events make with ``lead`` and then ``group`` (an action and what followed it
        in its group) played on it again as group ``number``: each roll keeps its dice and answers the request the
        rules make now. Answers the state, the events played (new ones, or those of ``reuse`` at the same places
        where they come out the same) and the checkpoints passed. Raises _NoFit with why it cannot be played so;
        the encounter itself is not changed."""
        state, held, marks = self._state_after(k), {}, {}
        out, n = [], k
        before = lead[-1] if lead else self.events[k - 1] if k else None
        after_placed = before is not None and before.kind == "correction" and PLACED in before.data
        for ev in lead:
            try:
                self._apply(state, ev, False, held)
            except Exception as exc:  # noqa: BLE001 (whatever the rules say: one line, and the fallback)
                raise _NoFit(f"before the action, {one_line(exc)}") from None
            out.append(ev)
            n += 1
            if n % CHECKPOINT_EVERY == 0:
                marks[n] = freeze(state)
        for i, old in enumerate(group):
            kept = reuse[i] if reuse is not None and i < len(reuse) else None
            result = None
            if old.kind == "roll":
                d = old.data
                if not state["pending"]:
                    raise _NoFit(f"the rules ask no roll where {d.get('purpose', '')} was answered")
                request = RollRequest.from_plain(state["pending"][0])
                if request.dice != d.get("dice") or request.then != d.get("then", ""):
                    raise _NoFit(f"the rules now ask {request.purpose} ({request.dice}) where "
                                 f"{d.get('purpose', '')} ({d.get('dice')}) was answered")
                try:
                    result = checked_result(request, d["natural"], tuple(d.get("faces", ())), d.get("source", ""))
                except Exception as exc:  # noqa: BLE001 (a hand-edited roll: the fallback, as any misfit)
                    raise _NoFit(f"the roll {d.get('purpose', '')} does not read: {one_line(exc)}") from None
                data = roll_event_data(result)
            else:
                data = plain_copy(old.data)
                if old.kind == "action":  # marked when it follows a correction placed before it (``PLACED``)
                    if after_placed:
                        data[PLAYED_AGAIN] = True
                    else:
                        data.pop(PLAYED_AGAIN, None)
            same = kept is not None and kept.kind == old.kind and kept.group == number and kept.data == data
            ev = kept if same else Event(old.kind, number, old.at, data)
            self._checked = (ev, result) if result is not None else None  # a roll: the request just read
            try:
                self._apply(state, ev, False, held)
            except Exception as exc:  # noqa: BLE001
                what = {"action": "the action", "roll": "the roll " + str(data.get("purpose", ""))}.get(
                    old.kind, "a correction made meanwhile")
                raise _NoFit(f"the rules refuse {what}: {one_line(exc)}") from None
            finally:
                self._checked = None
            out.append(ev)
            n += 1
            if n % CHECKPOINT_EVERY == 0:
                marks[n] = freeze(state)
        try:
            check_plain(state)
        except FlagbridgeError as exc:
            raise _NoFit(one_line(exc)) from None
        return state, out, marks

    def _state_after(self, k: int) -> dict:
        """A fresh copy of the state the first ``k`` events make."""
        recent = self._recent_state(k)
        if recent is not None:
            return recent
        base = max(n for n in self._checkpoints if n <= k)
        state, held = thaw(self._checkpoints[base]), {}
        for i in range(base, k):
            self._apply(state, self.events[i], False, held)
        return state

    def _place(self, k: int, c: Event, events: list[Event], state: dict, marks: dict[int, bytes]) -> Event:
        """Put the log played again by ``_placing`` in place: ``c`` and the action's group after it."""
        c.displaced = self.events[k:]
        self._replace_from(k, events, state, marks)
        self._redo.clear()
        self._changed()
        return c

    def _replace_from(self, k: int, events: list[Event], state: dict, marks: dict[int, bytes]) -> None:
        for n in [n for n in self._checkpoints if n > k]:
            del self._checkpoints[n]
        self._checkpoints.update(marks)
        del self.events[k:]
        self.events.extend(events)
        self.state = state
        self.rewrites.append(k)
        # the events from ``k`` on moved and took new numbers: the renames read among them are read again
        self._renames = Renames(self._renames.unit_keys)

    def _placed_last(self, k: int) -> bool:
        """The correction before the last group (at ``k``) was placed before it while its rolls waited, and the
        group holds no more than it did then: that correction is the last thing done."""
        c, events = self.events[k - 1], self.events
        if (c.kind != "correction" or events[k].kind != "action" or c.group != events[k].group - 1
                or events[k].data.get(PLAYED_AGAIN) is not True):
            return False
        count = c.data.get(PLACED)
        return type(count) is int and count == len(events) - k

    def _take_back(self, k: int) -> list[Event]:
        """Undo a correction placed before the last group (at ``k``): the group played again without it, under
        the correction's own number, as it was before it; [] when it cannot be (a hand-edited file), and undo
        then takes the group back as any other."""
        c, tail = self.events[k - 1], self.events[k:]
        try:
            state, events, marks = self._played_again(k - 1, [], tail, c.group, c.displaced)
        except _NoFit:
            return []
        self._replace_from(k - 1, events, state, marks)
        entry = _TakenBack([c])
        entry.made = tail
        self._redo.append(entry)
        self._changed()
        return [c]

    def _place_again(self, entry: _TakenBack) -> list[Event]:
        """Redo a correction ``_take_back`` took back: before the action of the last group again."""
        c = entry[0]
        k = len(self.events) - c.data[PLACED]
        tail = self.events[k:]
        try:
            state, events, marks = self._played_again(k, [c], tail, c.group + 1, entry.made)
        except _NoFit as exc:
            self._redo.append(entry)
            raise IllegalAction(f"the correction cannot be placed again: {exc}") from None
        c.displaced = tail
        self._replace_from(k, events, state, marks)
        self._changed()
        return [c]

    def _logged_refusal(self, state: dict, path: tuple, value: Any) -> str:
        """Why a logged correction may not stand ("" when it may): the rules a typed one meets (``refusal``), and
        for a whole table or list, which the console never types, the trial too (``breakage``). A mutated log
        once loaded a value the console refuses (a turret weapon no table knows, a gothic critical of true) and
        the fight crashed later, where the GM looked. A correction typed now was checked so by ``check_correction``
        and is not asked again."""
        rs = self.ruleset
        why = refusal(rs, state, path, value)
        if why or (type(value) is not dict and type(value) is not list):
            return why
        broken = trial_fault(rs, state, path, value)
        return f"{path_text(path)} = {value_said(value)} would break the fight ({broken})" if broken else ""

    def _pend(self, requests: list[RollRequest]) -> list[dict]:
        """The requests as the state keeps them; each remembered with its plain dict when reading that
        dict back (``RollRequest.from_plain``) would give an equal request of the same types."""
        out = []
        made = self._made
        for r in requests:
            plain = r.to_plain()
            if _reads_back(r):
                made[id(plain)] = (plain, r)
            out.append(plain)
        return out

    def _known(self, ev: Event) -> Any:
        """What was checked when ``ev`` was made live (None on replay: check it again)."""
        return self._checked[1] if self._checked is not None and self._checked[0] is ev else None

    def frozen_state(self) -> bytes:
        """The state now, frozen (``engine.state.freeze``), and kept for a while: an undo back to it thaws
        it rather than replaying from a checkpoint (a fleet's 99 events cost three thaws).

        Kept by the number of events and the last of them (the very object): the state is the product of the
        log, and a log cut back and played on has a new last event, so a copy of another past never matches."""
        n = len(self.events)
        last = self.events[-1] if n else None
        kept = self._recent.get(n)
        if kept is not None and kept[0] is last:
            return kept[1]
        frozen = freeze(self.state)
        self._recent[n] = (last, frozen)
        if len(self._recent) > RECENT_KEPT:
            del self._recent[next(iter(self._recent))]
        return frozen

    def _recent_state(self, n: int) -> dict | None:
        """A fresh copy of the state after the first ``n`` events, if ``frozen_state`` kept it for this log."""
        kept = self._recent.get(n)
        if kept is None or kept[0] is not (self.events[n - 1] if n else None):
            return None
        return thaw(kept[1])

    def _checkpoint(self) -> None:
        n = len(self.events)
        if n % CHECKPOINT_EVERY == 0:
            self._checkpoints[n] = freeze(self.state)

    def _rebuild(self, keep: int) -> None:
        for n in [n for n in self._checkpoints if n > keep]:
            del self._checkpoints[n]
        self._made.clear()  # the pending rolls of the state being replaced
        recent = self._recent_state(keep)  # (those after ``keep`` stay: a redo brings their last events back)
        if recent is not None:
            self.state = recent
            del self.events[keep:]
            return
        base = max(n for n in self._checkpoints if n <= keep)
        state = thaw(self._checkpoints[base])
        events, every = self.events, CHECKPOINT_EVERY
        held: dict = {}
        for i in range(base, keep):
            self._apply(state, events[i], False, held)
            if (i + 1) % every == 0:  # past a sparse part of a replay: dense from here on
                self._checkpoints[i + 1] = freeze(state)
        self.state = state
        del self.events[keep:]

    def _changed(self) -> None:
        for fn in list(self.listeners):
            fn(self)


class ReplayError(FlagbridgeError):
    """A logged event that does not apply; carries its position in the log."""

    def __init__(self, index: int, event: Event, reason: str) -> None:
        self.index = index
        self.event = event
        self.reason = reason
        super().__init__(f"events[{index}] ({event.kind}): {reason}")


def replay(setup: Setup, events: list[Event], ruleset: Ruleset | None = None) -> dict:
    """The state a setup and a log make, computed from scratch."""
    return Encounter(setup, ruleset, [Event(e.kind, e.group, e.at, e.data) for e in events]).state


def states_before(enc: Encounter, first: int = 0, stop: int | None = None) -> Iterator[tuple[int, dict]]:
    """Each position of the log from ``first`` to ``stop`` with the state just before that event, replayed
    from the encounter's nearest checkpoint at or before ``first``. The state is the replay's own, changed
    by the next event: read it, copy what is kept (a copy per event of a fleet's state cost seconds)."""
    stop = len(enc.events) if stop is None else stop
    base = max(n for n in enc._checkpoints if n <= first)
    state = thaw(enc._checkpoints[base])
    events = enc.events
    for i in range(base, stop):
        if i >= first:
            yield i, state
        ev = events[i]
        enc._apply(state, Event(ev.kind, ev.group, ev.at, ev.data), check=False)
