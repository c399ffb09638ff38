"""How a game system plugs into the engine, and the registry that finds one by id.

A ruleset is one object with a small interface: the state a setup starts from,
the steps of a turn (the phase checklist), the actions legal now, how an action
and a roll result change the state, its tables and its ship fields. The engine
calls it; it never calls the engine except through the ``RuleContext`` it is
handed, which is how it asks for rolls (STYLE.md: python-chess variants).
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from .errors import BadTable, IllegalAction, UnknownRuleset
from .rolls import Modifier, RollRequest, RollResult, Target
from .schema import Field


@dataclass(frozen=True)
class Param:
    """One argument of an action, as the console should ask for it."""

    name: str
    label: str
    kind: str = "text"  # "text", "int", "choice", "ship", "side", "multi"
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class ActionSpec:
    """An action legal now: its id, what the console calls it, and what it needs."""

    name: str
    label: str
    params: tuple[Param, ...] = ()
    key: str = ""  # a suggested key for the console, if any


@dataclass(frozen=True)
class StepView:
    """One line of the phase checklist."""

    number: int
    label: str
    status: str  # "done", "current", "todo", "skipped"
    needs: str = ""


@dataclass(frozen=True)
class Choice:
    """One value a console may offer for an action's parameter."""

    value: str
    label: str


@dataclass
class RuleContext:
    """Handed to a ruleset while it applies an event; collects roll requests."""

    group: int
    requests: list[RollRequest] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def request_roll(
        self,
        purpose: str,
        dice: str,
        modifiers: list[Modifier] | tuple[Modifier, ...] = (),
        target: Target | None = None,
        then: str = "",
        context: dict[str, Any] | None = None,
    ) -> None:
        """Ask for a roll; the rule resumes in ``resolve_roll`` under ``then`` with ``context``."""
        self.requests.append(
            RollRequest(purpose, dice, tuple(modifiers), target, then, dict(context or {}), self.group)
        )

    def note(self, text: str) -> None:
        """A line for the log explaining an effect applied."""
        self.notes.append(text)


class Ruleset(ABC):
    """The interface every game system implements.

    A ruleset package laid out the usual way (``ships/`` and ``tables/`` beside
    its ``__init__``, a ``views`` module for the console, a demo save named
    ``saves/demo-ID.toml``) sets ``package_dir`` and ``views_module`` and gets
    those hooks from here.
    """

    id: ClassVar[str]
    name: ClassVar[str]
    #: Fields of a ship in this system, used to validate ship files and setups.
    ship_fields: ClassVar[tuple[Field, ...]] = ()
    #: The ruleset's package folder (holds ``ships/`` and ``tables/``), if it has one.
    package_dir: ClassVar[Path | None] = None
    #: Where the console hooks live (imported on first use, to keep start-up quick).
    views_module: ClassVar[str] = ""
    #: The ruleset's tables (an ``engine.tables.TableSet``), if it has any.
    table_set: ClassVar[Any] = None

    def tables_for(self, state: dict) -> Any:
        """The tables a fight uses: the shipped ones with its replacements (``state["table_files"]``)."""
        return self.table_set.load(state.get("table_files") or None)

    def _views(self) -> Any:
        return importlib.import_module(self.views_module) if self.views_module else None

    @abstractmethod
    def new_state(self, setup: "Any") -> dict:
        """The state at the start of the fight, built from the setup alone."""

    @abstractmethod
    def checklist(self, state: dict) -> list[StepView]:
        """The current turn's steps, for the phase checklist."""

    @abstractmethod
    def legal_actions(self, state: dict) -> list[ActionSpec]:
        """The actions the game master may take now (none while a roll is pending)."""

    @abstractmethod
    def apply_action(self, state: dict, name: str, args: dict, ctx: RuleContext) -> None:
        """Change the state for one action, or raise IllegalAction naming why not."""

    def resolve_roll(self, state: dict, result: RollResult, ctx: RuleContext) -> None:
        """Continue the rule that asked for ``result.request`` (under its ``then``)."""
        raise IllegalAction(f"{self.id} asked for no roll named {result.request.then!r}")

    def after_correction(self, state: dict, path: tuple) -> None:
        """Re-derive anything that depends on a corrected value (default: nothing)."""

    def tables(self) -> dict[str, Any]:
        """The ruleset's shipped table files by name."""
        if self.table_set is None:
            return {}
        return {name: str(self.table_set.shipped_path(name)) for name in self.table_set.names}

    def check_ship(self, ship: dict, where: str) -> None:
        """Checks beyond single fields (limits, costs); raise BadTable naming the entry."""

    def check_table(self, name: str, doc: dict) -> dict:
        """Validate a table file's contents for table ``name``; returns what to use."""
        if self.table_set is not None:
            return self.table_set.check_table(name, doc)
        known = ", ".join(sorted(self.tables())) or "none"
        raise BadTable(f"table.name: {self.id} has no table {name!r} (known: {known})")

    def describe_action(self, name: str, args: dict) -> str:
        """A log line for an action: its name, then each argument given."""
        shown = " ".join(f"{k}={'+'.join(map(str, v)) if isinstance(v, list) else v}"
                         for k, v in args.items() if v != "")
        return f"{name.replace('_', ' ')} {shown}".strip()

    def header(self, state: dict) -> str:
        """A short line for the console header: turn, step, range."""
        return ""

    # --- what the console shows (presentation, decided by the ruleset that knows the meaning) ---

    def ship_line(self, state: dict, ship_id: str) -> tuple[str, float]:
        """A ship's one-line summary and its condition from 0 (wrecked) to 1 (intact)."""
        views = self._views()
        return views.ship_line(state, ship_id) if views else (ship_id, 1.0)

    def ship_panels(self, state: dict, ship_id: str) -> dict[str, list[tuple[str, str]]]:
        """Labelled values for the console's ship panels, by panel title."""
        views = self._views()
        if views:
            return views.ship_panels(state, ship_id)
        ship = state.get("ships", {}).get(ship_id, {})
        rows = [(k, str(v)) for k, v in ship.items() if not isinstance(v, (dict, list))]
        return {"Ship status": rows, "Armor and crew": []}

    def checklist_notes(self, state: dict) -> list[str]:
        """Lines under the checklist: roles, surprise, simultaneous initiative."""
        views = self._views()
        return views.checklist_notes(state) if views else []

    def setup_options(self) -> tuple[Param, ...]:
        """Questions the new-encounter screen asks for ``setup.options`` (e.g. a starting range)."""
        return ()

    def ship_library(self) -> list[Path]:
        """Ship files that come with the ruleset, for the new-encounter screen."""
        return sorted((self.package_dir / "ships").glob("*.toml")) if self.package_dir else []

    def demo_save(self) -> Path | None:
        """The shipped demo encounter (``saves/demo-ID.toml`` in the project), if there is one."""
        if self.package_dir is None:
            return None
        path = self.package_dir.resolve().parents[1] / "saves" / f"demo-{self.id}.toml"
        return path if path.exists() else None

    def sensors(self, state: dict) -> list[str] | None:
        """Each side's view of the others; None for systems without sensors."""
        views = self._views()
        return views.sensors(state) if views else None

    def param_choices(self, state: dict, action: str, param: Param, args: dict) -> list[Choice] | None:
        """Values to offer for ``param`` given the arguments chosen so far.

        A list offers those values (an empty list means the parameter does not
        apply now and is skipped); None asks for free text.
        """
        views = self._views()
        if views:
            return views.param_choices(state, action, param, args)
        if param.kind == "ship":
            return [Choice(sid, s.get("name", sid)) for sid, s in state.get("ships", {}).items()]
        if param.kind == "choice":
            return [Choice(c, c) for c in param.choices]
        return None


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
        return register(_load(_LAZY[ruleset_id]))
    ep = _installed().get(ruleset_id)
    if ep is None:
        known = ", ".join(sorted(set(_installed()) | set(_REGISTERED) | set(_LAZY))) or "none installed"
        raise UnknownRuleset(f"unknown ruleset {ruleset_id!r} (known: {known})")
    return register(_load(ep.value))
