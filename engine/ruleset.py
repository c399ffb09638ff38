"""How a game system plugs into the engine, and the registry that finds one by id.

A ruleset is one object with a small interface: the state a setup starts from,
the steps of a turn (the phase checklist), the actions legal now, how an action
and a roll result change the state, its tables and its ship fields. The engine
calls it; it never calls the engine except through the ``RuleContext`` it is
handed, which is how it asks for rolls (STYLE.md: python-chess variants).
"""

from __future__ import annotations

import importlib
import sys
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from .actions import (SHIP, Action, Asker, Catalogue, Choice, Offer, Param, UnitKind, argument_words, check_value,
                      checked_args)
from .errors import BadTable, IllegalAction, UnknownRuleset
from .rolls import Modifier, RollRequest, RollResult, Target
from .schema import Field

__all__ = ["SHIP", "Action", "Catalogue", "Choice", "Offer", "Outcome", "Param", "RuleContext", "Ruleset", "StepView",
           "UnitKind", "available", "find_ruleset", "register"]


@dataclass(frozen=True)
class StepView:
    """One line of the phase checklist."""

    number: int
    label: str
    status: str  # "done", "current", "todo", "skipped"
    needs: str = ""


@dataclass(frozen=True, init=False)
class Outcome:
    """How a fight stands, for a forecast: over or not, the winner, the turn, who is still fighting.

    ``winner`` is a side id, "" while the fight lasts or when no side won;
    ``survived`` holds every unit the forecast counts, True while it is still in it.
    """

    over: bool
    winner: str
    turn: int
    survived: dict[str, bool]

    def __init__(self, over: bool, winner: str, turn: int, survived: dict[str, bool]) -> None:
        # set straight into the instance (a frozen dataclass's own __init__ sets each field through
        # object.__setattr__): a forecast asks after every decision
        self.__dict__.update(over=over, winner=winner, turn=turn, survived=survived)


class RuleContext:
    """Handed to a rule while it applies an event: collects roll requests and log notes.

    ``owner`` is the ruleset whose rule runs now: empty for the fight's own, or
    the id of another ruleset whose procedure the fight called (``call``). Rolls
    that a called procedure asks for resume in that ruleset (``then`` becomes
    ``owner:then``), and carry where the procedure reports back (``reply_to``).

    A plain class with slots, not a dataclass: a forecast makes one for every action and roll, and reads
    its fields in every rule.
    """

    __slots__ = ("group", "requests", "notes", "host", "owner", "reply_to", "state", "held", "asides")

    def __init__(self, group: int, requests: list[RollRequest] | None = None, notes: list[str] | None = None,
                 host: "Ruleset | None" = None, owner: str = "", reply_to: str = "", state: dict | None = None,
                 held: dict | None = None, asides: list | None = None) -> None:
        self.group = group
        self.requests = [] if requests is None else requests
        self.notes = [] if notes is None else notes
        self.host = host
        self.owner = owner
        self.reply_to = reply_to
        self.state = {} if state is None else state
        #: Tables that hold for a whole fight, by ruleset id ("" the fight's own), filled on first use: a
        #: forecast hands one dict to every context of a simulated fight; None (real play) looks them up each time.
        self.held = held
        #: Notes set apart by ``about``: [subject, first, past the last] of ``notes`` for each, in the order each
        #: began (shared, as ``notes`` is, by every context of the same event). None: no one reads this event's
        #: notes (a forecast's simulated fight), so ``about`` marks nothing. Real play (``Encounter``) gives a list.
        self.asides = asides

    def __repr__(self) -> str:
        return (f"RuleContext(group={self.group!r}, requests={self.requests!r}, notes={self.notes!r}, "
                f"owner={self.owner!r}, reply_to={self.reply_to!r})")

    def request_roll(
        self,
        purpose: str,
        dice: str,
        modifiers: list[Modifier] | tuple[Modifier, ...] = (),
        target: Target | None = None,
        then: str = "",
        context: dict[str, Any] | None = None,
        secret: bool = False,
    ) -> None:
        """Ask for a roll; the rule resumes in the continuation registered as ``then``, with ``context``.

        ``secret``: the referee's own roll, left out of every side's view (``engine.sideview``).
        """
        context = dict(context or {})
        if self.owner:
            then = f"{self.owner}:{then}"
            if self.reply_to:
                context.setdefault("reply_to", self.reply_to)
        if self.host is not None:
            self.host.continuation(then)  # an unknown name fails here, where it was written
        self.requests.append(RollRequest(purpose, dice, tuple(modifiers), target, then, context, self.group, secret))

    def note(self, text: str) -> None:
        """A line for the log explaining an effect applied."""
        self.notes.append(text)

    def about(self, subject: dict) -> "_Aside":
        """The notes made inside ``with ctx.about(subject):`` are about ``subject`` (a small plain table, e.g.
        ``{"attack": "A2"}``), not about the event they are made in: the log shows them after the event's own
        notes, and each side reads them as ``Ruleset.notes_about`` says, not as it reads the event. A rule that
        starts something new under another thing's roll (the next attack of a damage chain) marks it so, or
        that roll's readers would read it too, and the roll's later notes would read as the new thing's."""
        return _Aside(self, subject)

    @classmethod
    def fresh(cls, group: int, host: "Ruleset", state: dict, held: dict | None, owner: str = "",
              reply_to: str = "") -> "RuleContext":
        """A context with no requests or notes yet, made by position (half the cost of naming the fields;
        a forecast makes one for every action and roll)."""
        return cls(group, [], [], host, owner, reply_to, state, held)

    def acting_as(self, owner: str, reply_to: str = "") -> "RuleContext":
        """The same requests and notes, for a rule of ruleset ``owner`` (empty: the fight's own)."""
        return RuleContext(self.group, self.requests, self.notes, self.host, owner, reply_to, self.state, self.held,
                           self.asides)

    def tables_of(self, rs: "Ruleset", guest: bool) -> Any:
        """The tables a rule of ``rs`` reads: the fight's own, or the shipped ones when ``rs`` is a guest."""
        held = self.held
        key = rs.id if guest else ""
        if held is not None and key in held:
            return held[key]
        tables = rs.guest_tables() if guest else rs.tables_for(self.state)
        if held is not None:
            held[key] = tables
        return tables

    def call(self, ruleset_id: str, procedure: str, args: dict, reply: str = "") -> None:
        """Run another ruleset's procedure inside this fight (same log, undo and save).

        The host must name ``ruleset_id`` in its ``uses``. When the procedure is
        done it reports to the host's reply ``reply`` (see ``Catalogue.reply``).
        """
        host = self.host
        if host is None or ruleset_id not in host.uses:
            raise IllegalAction(f"{host.id if host else 'this fight'} does not use ruleset {ruleset_id!r}")
        guest = find_ruleset(ruleset_id)
        fn = guest.catalogue.procedures.get(procedure)
        if fn is None:
            raise IllegalAction(f"{ruleset_id} has no procedure {procedure!r}")
        reply_to = f"{self.owner}:{reply}" if reply else ""
        if reply and reply not in (host.catalogue.replies if not self.owner else find_ruleset(self.owner).catalogue.replies):
            raise IllegalAction(f"{host.id}: no reply {reply!r} registered")
        fn(self.state, dict(args), self.tables_of(guest, True), self.acting_as(ruleset_id, reply_to))

    def done(self, data: dict) -> None:
        """A called procedure is finished: report ``data`` to the reply its caller named."""
        if not self.reply_to:
            return
        owner, _, name = self.reply_to.rpartition(":")
        rs = find_ruleset(owner) if owner else self.host
        tables = self.tables_of(rs, bool(owner))
        rs.catalogue.replies[name](self.state, dict(data), tables, self.acting_as(owner))


class _Aside:
    """``RuleContext.about``'s ``with`` block: it marks where in the event's notes the subject's begin and end
    (``engine.encounter.set_apart`` sorts them out once the event is done). Only marks, and a plain class:
    a forecast begins one for every attack and never reads a note."""

    __slots__ = ("ctx", "mark")

    def __init__(self, ctx: RuleContext, subject: dict) -> None:
        self.ctx, self.mark = ctx, [subject, 0, 0]

    def __enter__(self) -> None:
        asides = self.ctx.asides
        if asides is not None:
            self.mark[1] = len(self.ctx.notes)
            asides.append(self.mark)  # in the order they began: one begun inside another comes after it

    def __exit__(self, *exc: Any) -> None:
        self.mark[2] = len(self.ctx.notes)


class Ruleset(ABC):
    """The interface every game system implements.

    Its actions, roll continuations and procedures are in ``catalogue``; the
    console asks ``offers``/``legal_actions``/``param_choices`` and the engine
    ``apply_action``/``resolve_roll``, all answered from that one catalogue.

    A ruleset defined in its package's ``__init__`` and laid out the usual way
    (``ships/`` and ``tables/`` beside it, a ``views`` module for the console, a
    demo save named ``saves/demo-ID.toml``) gets ``package_dir``,
    ``views_module`` and those hooks from here without naming them.
    """

    id: ClassVar[str]
    name: ClassVar[str]
    catalogue: ClassVar[Catalogue]
    #: Other rulesets whose procedures this one calls inside its fights.
    uses: ClassVar[tuple[str, ...]] = ()
    #: Rules for values a game master may correct by hand (``engine.corrections``), beyond each
    #: unit field's own limits.
    correction_rules: ClassVar[tuple] = ()
    #: A table or list corrected whole plays out each plain value it changes as that value's own correction would
    #: (``engine.corrections.play_correction``); an earlier reading (``earlier_readings``) of a version before
    #: it turns it off.
    plays_out_inside_tables: bool = True
    #: Each value a table corrected whole gives is the one its own playing out finds, though a value played before it
    #: derived it again (``engine.corrections.play_correction``); the readings of versions before it turn it off
    #: (``engine.saves`` also reads today's rules without it).
    keeps_given_values: bool = True
    #: Fields the recap's summary leaves out: what a turn sets and clears again (a turret used this turn).
    recap_ignores: ClassVar[tuple[str, ...]] = ()
    #: How many sides a fight may have: at least, and at most (None: no limit).
    sides_allowed: ClassVar[tuple[int, int | None]] = (1, None)
    #: The ruleset's package folder (holds ``ships/`` and ``tables/``), if it has one.
    package_dir: ClassVar[Path | None] = None
    #: Where the console hooks live (imported on first use, to keep start-up quick).
    views_module: ClassVar[str] = ""
    #: The ruleset's tables (an ``engine.tables.TableSet``), if it has any.
    table_set: ClassVar[Any] = None
    #: Where the forecast hooks live (``outcome``, ``Commander``, ``DEFAULT_DOCTRINE``, ``check_doctrine``):
    #: a ``doctrine`` module beside ``__init__`` is found like ``views``; "" means no forecast.
    doctrine_module: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A ruleset defined in its package's ``__init__`` finds its folder and ``views`` module itself."""
        super().__init_subclass__(**kwargs)
        file = getattr(sys.modules.get(cls.__module__), "__file__", None) or ""
        if "package_dir" not in cls.__dict__ and file.endswith("__init__.py"):
            cls.package_dir = Path(file).parent
        if "views_module" not in cls.__dict__ and cls.package_dir is not None \
                and (cls.package_dir / "views.py").exists():
            cls.views_module = f"{cls.__module__}.views"
        if "doctrine_module" not in cls.__dict__ and cls.package_dir is not None \
                and (cls.package_dir / "doctrine.py").exists():
            cls.doctrine_module = f"{cls.__module__}.doctrine"
        if "catalogue" in cls.__dict__:  # every then= the package names is checked now, at import
            cls.catalogue.seal(cls.__module__)

    def check_sides(self, count: int) -> None:
        """Refuse a setup with a number of sides this game system cannot fight."""
        if not self.sides_fit(count):
            raise BadTable(f"setup.sides: a {self.id} fight needs {self.sides_wanted()} sides, got {count}")

    def sides_fit(self, count: int) -> bool:
        """Whether a fight of this game system may have ``count`` sides (``sides_allowed``)."""
        least, most = self.sides_allowed
        return least <= count and (most is None or count <= most)

    def sides_wanted(self) -> str:
        """How many sides a fight has, in words: "exactly 2", "2 to 4", "at least 2"."""
        least, most = self.sides_allowed
        return f"exactly {least}" if least == most else (f"{least} to {most}" if most else f"at least {least}")

    # --- units ------------------------------------------------------------------------

    @property
    def unit_kinds(self) -> tuple[UnitKind, ...]:
        return tuple(self.catalogue.unit_kinds.values())

    @property
    def ship_fields(self) -> tuple[Field, ...]:
        kind = self.catalogue.unit_kinds.get("ship")
        return kind.fields if kind else ()

    def units(self, state: dict) -> list[tuple[UnitKind, str, dict]]:
        """Every unit in the fight, kind by kind, in the order the state holds them."""
        return [(k, uid, u) for k in self.unit_kinds for uid, u in state.get(k.key, {}).items()]

    def unit_kind_of(self, state: dict, uid: str) -> UnitKind | None:
        return next((k for k in self.unit_kinds if uid in state.get(k.key, {})), None)

    def side_ids(self, state: dict) -> list[str]:
        return list(state.get("side_order", []))

    # --- tables -----------------------------------------------------------------------

    def tables_for(self, state: dict) -> Any:
        """The tables a fight uses: the shipped ones with its replacements (``state["table_files"]``)."""
        if self.table_set is None:
            return None
        return self.table_set.load(state.get("table_files") or None)

    def guest_tables(self) -> Any:
        """The tables a called procedure uses in another ruleset's fight: the shipped ones."""
        return self.table_set.load(None) if self.table_set is not None else None

    def _views(self) -> Any:
        return importlib.import_module(self.views_module) if self.views_module else None

    @abstractmethod
    def new_state(self, setup: "Any") -> dict:
        """The state at the start of the fight, built from the setup alone."""

    @abstractmethod
    def checklist(self, state: dict) -> list[StepView]:
        """The current turn's steps, for the phase checklist."""

    # --- actions, from the catalogue ---------------------------------------------------

    def asker(self, state: dict) -> Asker:
        return Asker(self.catalogue, state, self.tables_for(state), self.side_ids(state))

    def offers(self, state: dict) -> list[Offer]:
        """Every action, each possible now or with the reason it is not."""
        return self.asker(state).offers()

    def legal_actions(self, state: dict) -> list[Action]:
        """The actions the game master may take now, and nothing the rule would then refuse."""
        asker = self.asker(state)
        return [a for a in self.catalogue.actions.values() if not asker.reason(a)]

    def param_choices(self, state: dict, action: str, param: Param, args: dict) -> list[Choice] | None:
        """Values to offer for ``param`` given the arguments chosen so far.

        A list offers exactly the values the rule accepts from here (an empty
        list means nothing applies); None asks for typed text.
        """
        a = self.catalogue.get(action)
        p = a.param(param.name) if isinstance(param, Param) else a.param(param)
        return self.asker(state).choices(a, p, args)

    def param_left_out(self, state: dict, action: str, param: Param | str, args: dict,
                       offered: list[Choice] | None = None) -> list[tuple[Choice, str]]:
        """The values ``param_choices`` leaves out (``offered``: what it gave), each with the rule's reason."""
        a = self.catalogue.get(action)
        p = a.param(param.name) if isinstance(param, Param) else a.param(param)
        return self.asker(state).left_out(a, p, args, offered)

    def param_initial(self, state: dict, action: str, param: Param | str, args: dict) -> list[str]:
        """The values a list of several starts with ticked (only those that are offered)."""
        a = self.catalogue.get(action)
        p = a.param(param.name) if isinstance(param, Param) else a.param(param)
        if p.initial is None:
            return []
        offered = {c.value for c in self.asker(state).choices(a, p, args) or []}
        found = [c.value if isinstance(c, Choice) else str(c) for c in p.initial(state, args, self.tables_for(state))]
        return [v for v in found if v in offered]

    def check_answer(self, state: dict, action: str, param: str, value: Any, args: dict) -> tuple[Any, str]:
        """One answer of a form, read by its kind and judged by ``may`` with the answers before it.

        Returns the value as the rule reads it and "" , or the value typed and
        the reason it cannot be taken (also when the rest could not be finished).
        """
        a = self.catalogue.get(action)
        asker = self.asker(state)
        p = a.param(param)
        try:
            checked = check_value(self.catalogue, state, a, p, value, args, asker.tables, asker.sides)
        except IllegalAction as exc:
            return value, str(exc)
        done = {**args, param: checked}
        why = a.may(state, done, asker.tables)
        if not why and not asker.completable(a, done, a.params.index(p) + 1):
            why = f"{a.label}: nothing can follow that choice now"
        return checked, why

    def check_action(self, state: dict, name: str, args: dict) -> dict:
        """The arguments checked by kind and by the action's ``may``; raises IllegalAction with why not."""
        action = self.catalogue.get(name)
        return checked_args(self.catalogue, state, action, args, self.tables_for(state), self.side_ids(state))

    def apply_action(self, state: dict, name: str, args: dict, ctx: RuleContext, checked: dict | None = None) -> None:
        """Check the action and its arguments once (``checked``: already checked on this state), then
        run its handler."""
        action = self.catalogue.get(name)
        ctx.host, ctx.state = self, state
        tables = ctx.tables_of(self, False)
        if checked is None:  # the sides are read only for an action that has arguments to check against them
            checked = checked_args(self.catalogue, state, action, args, tables,
                                   self.side_ids(state) if action.params else [])
        action.run(state, checked, tables, ctx)

    def continuation(self, then: str) -> tuple["Ruleset", Any]:
        """The ruleset and rule a roll's ``then`` resumes (``other:name`` for a called ruleset's)."""
        if ":" not in then:  # the fight's own rule, asked for every roll: no parsing, no registry
            fn = self.catalogue.continuations.get(then)
            if fn is not None:
                return self, fn
        owner, _, name = then.rpartition(":")
        rs = find_ruleset(owner) if owner else self
        if owner and owner not in self.uses:
            raise IllegalAction(f"{self.id} does not use ruleset {owner!r} (roll continuation {then!r})")
        fn = rs.catalogue.continuations.get(name)
        if fn is None:
            known = ", ".join(sorted(rs.catalogue.continuations)) or "none"
            raise IllegalAction(f"{rs.id} has no roll continuation {name!r} (known: {known})")
        return rs, fn

    def resumption(self, then: str) -> tuple["Ruleset", Any, str]:
        """What a roll's ``then`` resumes: the ruleset, its rule, and the owner its context acts as ("" for
        the fight's own). A forecast looks each name up once a fight and keeps it."""
        rs, fn = self.continuation(then)
        return rs, fn, then.rpartition(":")[0]

    def resolve_roll(self, state: dict, result: RollResult, ctx: RuleContext) -> None:
        """Continue the rule that asked for ``result.request``, by the name in its ``then``."""
        rs, fn, owner = self.resumption(result.request.then)
        ctx.host, ctx.state = self, state
        reply_to = str(result.request.context.get("reply_to", ""))
        sub = ctx if (owner, reply_to) == (ctx.owner, ctx.reply_to) else ctx.acting_as(owner, reply_to)
        fn(state, result, sub.tables_of(rs, bool(owner)), sub)

    def after_correction(self, state: dict, path: tuple, ctx: RuleContext | None = None, was: Any = None) -> None:
        """Re-derive anything that depends on a corrected value (default: nothing). ``ctx``: the correction's,
        for a note of what followed (None when the correction is only tried); ``was``: the value it replaced (what
        follows may depend on where a thing was: a wound moved to another body part takes its points from the old).

        Called with the state as corrected: for a table or list given whole, first with the path of each plain value
        inside it that changed, as if that value alone had been corrected, then with the table's own path
        (``engine.corrections.play_correction``), so one clause per value serves both."""

    def start_fault(self, state: dict) -> str:
        """Why a resumed state cannot be played on beyond its single values ("" when it can; default: nothing): a
        table the rules key by units (ranges between ships) that misses a unit the state holds. Each value was
        checked as a correction of it would be; this is what no single value shows."""
        return ""

    def recap_more(self, before: dict, after: dict) -> list[str]:
        """Lines the recap adds for what changed outside the units between two states (default: none): the
        people a fight's personal combat met, in classic-hg."""
        return []

    def earlier_readings(self) -> tuple["Ruleset", ...]:
        """The same ruleset as earlier versions read a log, newest first (default: none).

        A rules fix may change what a logged event leaves in the state (a correction that now plays out more).
        A save written before it holds the older result in its [state], which is no hand edit: the loader
        replays the log with these readings too, and takes a [state] value one of them gives for the earlier
        version's own (``engine.saves``). Only the fight as today's rules play it is kept."""
        return ()

    def tables(self) -> dict[str, Any]:
        """The ruleset's shipped table files by name."""
        if self.table_set is None:
            return {}
        return {name: str(self.table_set.shipped_path(name)) for name in self.table_set.names}

    def check_ship(self, ship: dict, where: str) -> None:
        """Checks beyond single fields (limits, costs); raise BadTable naming the entry."""

    def check_unit(self, kind: UnitKind, unit: dict, where: str) -> None:
        """Checks of a unit beyond its single fields; ships go to ``check_ship``."""
        if kind.id == "ship":
            self.check_ship(unit, where)

    def why_not_fielded(self, kind: UnitKind, unit: dict, fielded: list[tuple[UnitKind, dict]],
                        side_names: dict[str, str]) -> str:
        """Why ``unit`` (holding its ``side``) cannot be fielded after the units ``fielded`` before it in the setup,
        in the game master's words naming the sides; "" when it can (default: always). A rule that holds between
        a setup's units is asked by the new-encounter screen on the list where each side's units are ticked, so it
        is said there, not when the fight is made; the setup's own check still refuses it in a file."""
        return ""

    def check_table(self, name: str, doc: dict) -> dict:
        """Validate a table file's contents for table ``name``; returns what to use."""
        if self.table_set is not None:
            return self.table_set.check_table(name, doc)
        known = ", ".join(sorted(self.tables())) or "none"
        raise BadTable(f"table.name: {self.id} has no table {name!r} (known: {known})")

    def former_name(self, state: dict, uid: str) -> str:
        """The name a unit no longer in the fight had (a spent salvo), when the state keeps it ("" when not): a
        reopened fight's log names it as the live one did, though the session that saw it is gone."""
        return ""

    def action_words(self, state: dict, name: str, args: dict, tables: Any) -> dict | None:
        """The words the action's log line names its chosen values by (``Param.words``), by parameter, asked with
        ``state`` before the action; None when every value reads as it is (a fleet's fire orders name the warhead
        "he" of every laser: nothing to keep for each). A value whose words cannot be made (a hand-edited log the
        rules then refuse) keeps its id: the replay says what is wrong with it."""
        worded = self.catalogue.worded.get(name)
        if not worded:
            return None
        out: dict = {}
        for p in worded:
            value = args.get(p.name)
            if not value or not isinstance(value, (str, list)):
                continue
            try:
                said = [p.words(state, args, tables, v) if isinstance(v, str) else v for v in value] \
                    if isinstance(value, list) else p.words(state, args, tables, value)
            except (LookupError, TypeError, ValueError, AttributeError, StopIteration):
                continue
            if said != value:
                out[p.name] = said
        return out or None

    def describe_action(self, name: str, args: dict) -> str:
        """A log line for an action: its name, then each argument given, in the order its form asks them, named as
        the form asked it (``engine.actions.argument_words``), its value in its words (``action_words``):
        "launch: ship or defence Hammer · load Boarding torpedoes · ...". The engine says every ruleset's
        arguments so, from their parameters' data; a ruleset words its own actions by overriding this."""
        action = self.catalogue.actions.get(name)
        params = {p.name: p for p in action.params} if action is not None else {}
        order = [k for k in params if k in args] + [k for k in args if k not in params]
        shown = " · ".join(argument_words(params.get(k), k, args[k]) for k in order
                           if args[k] != "" and args[k] is not None)
        head = name.replace("_", " ")
        return f"{head}: {shown}" if shown else head

    def header(self, state: dict) -> str:
        """A short line for the console header: turn, step, range."""
        return ""

    # --- what the console shows (presentation, decided by the ruleset that knows the meaning) ---

    def unit_line(self, state: dict, kind: UnitKind, uid: str) -> tuple[str, float]:
        """A unit's one-line summary and its condition from 0 (wrecked) to 1 (intact)."""
        views = self._views()
        if views and hasattr(views, "unit_line"):
            return views.unit_line(state, kind, uid)
        if views and kind.id == "ship" and hasattr(views, "ship_line"):
            return views.ship_line(state, uid)
        unit = state.get(kind.key, {}).get(uid, {})
        return str(unit.get("name", uid)), 1.0

    def unit_panels(self, state: dict, kind: UnitKind, uid: str) -> dict[str, list[tuple[str, str]]]:
        """Labelled values for the console's unit panels, by panel title."""
        views = self._views()
        if views and hasattr(views, "unit_panels"):
            return views.unit_panels(state, kind, uid)
        if views and kind.id == "ship" and hasattr(views, "ship_panels"):
            return views.ship_panels(state, uid)
        unit = state.get(kind.key, {}).get(uid, {})
        rows = [(k, str(v)) for k, v in unit.items() if not isinstance(v, (dict, list))]
        return {"Ship status": rows, "Armor and crew": []}

    def ship_line(self, state: dict, ship_id: str) -> tuple[str, float]:
        return self.unit_line(state, self.catalogue.unit_kinds["ship"], ship_id)

    def ship_panels(self, state: dict, ship_id: str) -> dict[str, list[tuple[str, str]]]:
        return self.unit_panels(state, self.catalogue.unit_kinds["ship"], ship_id)

    def roll_help(self, state: dict, request: RollRequest) -> list[str]:
        """Lines shown under the dice prompt for a pending roll (the table it is made on, say)."""
        views = self._views()
        return list(views.roll_help(state, request)) if views and hasattr(views, "roll_help") else []

    def unit_legend(self) -> str:
        """What the Ships list's bar and abbreviations mean ("" when nothing needs saying)."""
        views = self._views()
        return str(getattr(views, "LEGEND", "")) if views else ""

    def checklist_notes(self, state: dict) -> list[str]:
        """Lines under the checklist: roles, surprise, simultaneous initiative."""
        views = self._views()
        return views.checklist_notes(state) if views else []

    def setup_options(self) -> tuple[Param, ...]:
        """Questions the new-encounter screen asks for ``setup.options`` (e.g. a starting range). A ``choice``
        is offered as a list, its first choice at the top: "yes"/"no" are kept as true/false, digits as a number."""
        return ()

    def setup_option_asked(self, name: str, options: dict) -> bool:
        """Whether the new-encounter screen asks option ``name``, given the options answered before it (one that
        only matters with another's value is not asked without it; it then takes its default)."""
        return True

    def ship_library(self) -> list[Path]:
        """Ship files that come with the ruleset, for the new-encounter screen."""
        return self.unit_library(self.catalogue.unit_kinds["ship"]) if "ship" in self.catalogue.unit_kinds else []

    def unit_library(self, kind: UnitKind) -> list[Path]:
        """Unit files of a kind that come with the ruleset (``ships/``, ``people/``... in its folder)."""
        return sorted((self.package_dir / kind.key).glob("*.toml")) if self.package_dir else []

    def demo_save(self) -> Path | None:
        """The shipped demo encounter (``saves/demo-ID.toml`` in the project), if there is one."""
        if self.package_dir is None:
            return None
        path = self.package_dir.resolve().parents[1] / "saves" / f"demo-{self.id}.toml"
        return path if path.exists() else None

    # --- forecasts: how a fight stands, and the doctrines that play it out (``doctrine.py``) ---

    def _doctrine(self) -> Any:
        if not self.doctrine_module:
            return None  # asked once a decision in a forecast: the imported module is taken as it stands
        return sys.modules.get(self.doctrine_module) or importlib.import_module(self.doctrine_module)

    def outcome(self, state: dict) -> Outcome | None:
        """Whether the fight is over, who won and who is still in it; None: this ruleset has no forecast."""
        module = self._doctrine()
        return module.outcome(state) if module else None

    def progress(self, state: dict) -> tuple[bool, int]:
        """Whether the fight is over, and its turn: what a forecast asks before every decision. The doctrine
        module's ``progress`` answers it without the rest of the outcome (who survived), when it has one."""
        module = self._doctrine()
        quick = getattr(module, "progress", None)
        if quick is not None:
            return quick(state)
        outcome = module.outcome(state)
        return outcome.over, outcome.turn

    def doctrines(self) -> dict[str, Path]:
        """Doctrine files the game master may pick per side (``doctrines/NAME.toml``), by name."""
        folder = self.package_dir / "doctrines" if self.package_dir else None
        return {p.stem: p for p in sorted(folder.glob("*.toml"))} if folder and folder.is_dir() else {}

    def default_doctrine(self) -> str:
        """The doctrine a side plays by when the game master picks none ("" without forecasts)."""
        module = self._doctrine()
        return str(getattr(module, "DEFAULT_DOCTRINE", "")) if module else ""

    def check_doctrine(self, doc: dict, where: str) -> dict:
        """A doctrine file's settings, checked; raises BadTable naming the entry at fault."""
        module = self._doctrine()
        if module is None:
            raise BadTable(f"{where}: {self.id} has no forecast doctrines")
        return module.check_doctrine(doc, where)

    def turn_word(self) -> str:
        """What the forecast calls one of the fight's turns: the doctrine module's ``TURN_WORD`` ("round"),
        else "turn"."""
        module = self._doctrine()
        return str(getattr(module, "TURN_WORD", "turn")) if module else "turn"

    def commander(self, doctrines: dict[str, dict]) -> Any:
        """What plays a simulated fight: ``decide(state)`` gives the next (action, args), or None
        when no side has anything left to do; ``doctrines`` are checked settings by side id."""
        module = self._doctrine()
        if module is None:
            raise BadTable(f"{self.id} has no forecast doctrines")
        return module.Commander(self, doctrines)

    def sensors(self, state: dict) -> list[str] | None:
        """Each side's view of the others; None for systems without sensors."""
        views = self._views()
        return views.sensors(state) if views else None

    # --- the players' screen: what one side knows (a ``sideview`` module beside ``__init__``) ---

    def _sideview(self) -> Any:
        if self.package_dir is None or not (self.package_dir / "sideview.py").exists():
            return None
        return importlib.import_module(f"{type(self).__module__}.sideview")

    def side_view(self, state: dict, side: str) -> Any:
        """What ``side`` knows of the fight now (an ``engine.sideview.SideView``).

        A ruleset's ``sideview.side_view`` says how far its rules let a side see
        the others; without one a side sees its own units and nothing of anyone else's.
        """
        from .sideview import own_units_only

        module = self._sideview()
        if module is not None and hasattr(module, "side_view"):
            return module.side_view(self, state, side)
        return own_units_only(self, state, side)

    def log_seen(self, state: dict, side: str, kind: str, data: dict,
                 request: RollRequest | None) -> str | tuple[str, str]:
        """How much of one logged event ``side`` sees (a tier of ``engine.sideview``, or a tier and the
        words that name the roll for that side), judged on the state before it; ``request`` is the roll
        it answered. Default: ``engine.sideview.default_seen``."""
        from .sideview import default_seen

        module = self._sideview()
        if module is not None and hasattr(module, "log_seen"):
            return module.log_seen(self, state, side, kind, data, request)
        return default_seen(self, state, side, kind, data, request)

    def notes_seen(self, state: dict, side: str, data: dict, request: RollRequest | None,
                   notes: list[str]) -> list[str]:
        """The effects noted under an event, as ``side`` may read them when its tier shows them (a note that
        spells out another side's number reads without it). Default: as noted (``sideview.notes_seen``
        when the ruleset has one)."""
        module = self._sideview()
        if module is not None and hasattr(module, "notes_seen"):
            return module.notes_seen(self, state, side, data, request, notes)
        return notes

    def own_panels(self, state: dict, side: str, kind: Any, uid: str) -> dict[str, list[tuple[str, str]]]:
        """The panels of one of ``side``'s own units on its players' screen. Default: the console's
        (``unit_panels``); a ruleset whose panels write down what the side may not know of another (the
        enemy weapon that hit its crew) rewords them in ``sideview.own_panels``."""
        module = self._sideview()
        if module is not None and hasattr(module, "own_panels"):
            return module.own_panels(self, state, side, kind, uid)
        return self.unit_panels(state, kind, uid)

    def notes_about(self, state: dict, side: str, subject: dict, notes: list[str]) -> list[str]:
        """The notes a rule set apart as about ``subject`` (``RuleContext.about``), as ``side`` may read them,
        judged on the state before their event. Default: none (``sideview.notes_about`` when the ruleset has
        one): a ruleset that sets notes apart says who reads them."""
        module = self._sideview()
        if module is not None and hasattr(module, "notes_about"):
            return module.notes_about(self, state, side, subject, notes)
        return []


_REGISTERED: dict[str, Ruleset] = {}
_LAZY: dict[str, str] = {}


def register(ruleset: Ruleset) -> Ruleset:
    """Make a ruleset findable by id (installed ones come from entry points)."""
    _REGISTERED[ruleset.id] = ruleset
    return ruleset


def register_lazy(ruleset_id: str, target: str) -> None:
    """Name where a ruleset lives (``"package.module:ATTR"``) without importing it yet.

    The packages that ship with Flagbridge use this so that opening a save needs
    no scan of installed packages (``importlib.metadata`` is slow to import).
    """
    _LAZY.setdefault(ruleset_id, target)


def _installed() -> dict:
    from importlib import metadata

    return {ep.name: ep for ep in metadata.entry_points(group="flagbridge.rulesets")}


def _load(target: str) -> Ruleset:
    module, _, attr = target.partition(":")
    loaded = getattr(importlib.import_module(module), attr)
    return loaded() if isinstance(loaded, type) else loaded


def available() -> dict[str, str]:
    """Every ruleset id with its name, installed or registered."""
    out = {}
    for rid, ep in sorted(_installed().items()):
        try:
            out[rid] = find_ruleset(rid).name
        except Exception as exc:  # a broken plug-in is listed, not fatal
            out[rid] = f"(cannot load: {exc})"
    for rid in list(_LAZY):
        if rid not in out:
            try:
                out[rid] = find_ruleset(rid).name
            except Exception as exc:
                out[rid] = f"(cannot load: {exc})"
    for rid, r in _REGISTERED.items():
        out.setdefault(rid, r.name)
    return dict(sorted(out.items()))


def find_ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset for an id, or UnknownRuleset listing the ids there are."""
    if ruleset_id in _REGISTERED:
        return _REGISTERED[ruleset_id]
    if ruleset_id in _LAZY:
        return register(_checked_id(ruleset_id, _load(_LAZY[ruleset_id])))
    ep = _installed().get(ruleset_id)
    if ep is None:
        known = ", ".join(sorted(set(_installed()) | set(_REGISTERED) | set(_LAZY))) or "none installed"
        raise UnknownRuleset(f"unknown ruleset {ruleset_id!r} (known: {known})")
    return register(_checked_id(ruleset_id, _load(ep.value)))


def _checked_id(ruleset_id: str, ruleset: Ruleset) -> Ruleset:
    if ruleset.id != ruleset_id:
        raise UnknownRuleset(f"ruleset {ruleset_id!r} loads one whose id is {ruleset.id!r}")
    return ruleset
