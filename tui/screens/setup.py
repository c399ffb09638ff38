"""Setting up a new encounter: ruleset, name, the sides and their units, then the console.

Two sides are asked for; on a side's list ``a`` adds one after it and ``x`` removes it, within the number of
sides the ruleset fights (``Ruleset.sides_allowed``: classic-hg's fight has exactly two).

The units (ships, and any other kind the ruleset's setup holds) come from the
ruleset's library and from the game master's own files in ``SAVE_DIR/<kind>``
(``SAVE_DIR/ships`` for ships); the new save is written in the save folder.
The last step, optional, names house table files (``[setup.options.tables]``),
each read and checked where it is typed, from the save folder as the save reads it.
"""

from __future__ import annotations

import os
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, Input, Label, OptionList, Static
from textual.widgets.input import Selection
from textual.widgets.option_list import Option

from engine.encounter import Encounter
from engine.errors import FlagbridgeError
from engine.files import load_unit, named_ruleset
from engine.ids import unit_id
from engine.ruleset import available, find_ruleset
from engine.saves import create, free_save_path
from engine.setup import Setup

from ..widgets.lists import PagedOptionList, PagedSelectionList
from .keyed import field_key
from .quit_asked import QuitAsked


def option_value(picked: str) -> str | int | bool:
    """A setup option picked from its list, as the save keeps it (``Ruleset.setup_options``): "yes" and "no"
    are true and false, a choice of digits a number, any other choice its text."""
    if picked in ("yes", "no"):
        return picked == "yes"
    if picked.isascii() and picked.isdigit():
        return int(picked)
    return picked


def limits(p) -> tuple[int, int]:
    """The least and the most a whole-number setup option takes: its own limits, else 0 and a million."""
    return (p.minimum if p.minimum is not None else 0, p.maximum if p.maximum is not None else 1_000_000)


def whole_number(text: str, p) -> int | None:
    """``text`` as a whole number within ``p``'s limits, or None: digits only (a sign before them allowed), so
    "1.5", "x1.5" or "2 3" is refused whole rather than read as 15 or 23."""
    digits = text.strip()
    digits = digits[1:] if digits[:1] in ("+", "-") else digits
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 18:  # int() refuses past 4,300 digits
        return None
    least, most = limits(p)
    value = int(text)
    return value if least <= value <= most else None


def side_number(q: str) -> str:
    """The side a question of the walk-through is about: "side3" (its name) and "ships3" (its units) give "3"."""
    return q.removeprefix("ships").removeprefix("side")


class TickList(PagedSelectionList):
    """A list to tick several items with space; Enter confirms the ticks instead of toggling."""

    #: Short words (the question says more), and a and x as one entry when both work, so that "esc Back" and
    #: "q Quit" still fit beside them at 60 columns.
    BINDINGS = [Binding("enter", "done", "Done", id="ticks-done"),
                Binding("e", "edit", "Edit", id="ticks-edit"),
                Binding("a", "add_side('both')", "Add/drop side", key_display="a/x", id="ticks-sides"),
                Binding("a", "add_side", "Add side", id="ticks-add-side"),
                Binding("x", "remove_side", "Remove side", id="ticks-remove-side")]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The Footer shows a and x only where the ruleset's number of sides lets them work."""
        may_be = getattr(self.screen, "sides_may_be", None)
        if action not in ("add_side", "remove_side") or may_be is None:
            return True
        more, fewer = may_be(1), may_be(-1)
        if action == "remove_side":
            return fewer and not more
        return more and fewer if parameters else more and not fewer

    def action_add_side(self, shown: str = "") -> None:
        """a (``shown``: the Footer's entry it came from, when clicked)."""
        self.screen.add_side()

    def action_remove_side(self) -> None:
        self.screen.remove_side()

    def action_done(self) -> None:
        self.screen.action_confirm(self)

    def action_select(self) -> None:
        """Space ticks the row highlighted when it is pressed: the list's own tick waits for a message, and a Down
        typed in the same burst had moved the highlight by then (found by a game master's drive)."""
        if self.highlighted is not None:
            option = self.get_option_at_index(self.highlighted)
            if not option.disabled:
                self.toggle(option.value)

    def action_edit(self) -> None:
        if self.highlighted is not None:
            self.screen.edit_unit(self.highlighted)


def unit_files(ruleset_id: str, save_dir: Path) -> tuple[list[tuple[Path, object, dict]], list[str]]:
    """Library units of every kind a setup holds, then the game master's own, each checked.

    Each unit is (path, unit kind, unit). A file that fails to load is left out of the list and said, in the
    loader's words (the file and the field), unless it names another ruleset: the folder holds every ruleset's
    files, and that one is for another fight.
    """
    rs = find_ruleset(ruleset_id)
    out, skipped = [], []
    others = set(available()) - {ruleset_id}
    for kind in (k for k in rs.unit_kinds if k.in_setup):
        for p in list(rs.unit_library(kind)) + sorted((save_dir / kind.key).glob("*.toml")):
            try:
                r, found, unit = load_unit(p, kind.id)
            except FlagbridgeError as exc:
                if named_ruleset(p, kind.id) in others:
                    continue
                skipped.append(_file_named_short(str(exc), p, save_dir))
                continue
            if r.id == ruleset_id:
                out.append((p, found, unit))
    return out, skipped


def _file_named_short(message: str, path: Path, save_dir: Path) -> str:
    """A loader's message with the file it begins with named from the save folder (``ships/x.toml``), or by its
    name for a library file, so that one file's reason fits on one line more often."""
    head = f"{path}: "
    if not message.startswith(head):
        return message
    try:
        short = path.relative_to(save_dir)
    except ValueError:
        short = Path(path.name)
    return f"{short}: {message[len(head):]}"


class SetupScreen(QuitAsked, Screen[None]):
    BINDINGS = [Binding("escape", "back", "Back", id="back"),
                Binding("q", "quit", "Quit", id="quit-new")]
    #: Under 24 rows the answers so far keep to one line (``flagbridge.tcss``), leaving the list its room.
    VERTICAL_BREAKPOINTS = [(0, "-short"), (24, "-tall")]

    def __init__(self, save_dir: Path, first: bool = False) -> None:
        super().__init__(id="setup")
        self.save_dir = save_dir
        self.first = first
        self.answers: dict = {}
        #: Answers given before Esc went back past them: each is shown again when its question is, so Enter
        #: keeps it (a new ruleset drops the ships and options, which were that ruleset's).
        self.earlier: dict = {}
        self.step = -1
        #: How many sides are asked for: two to begin with, more or fewer by a and x on a side's list.
        self.side_count = 2
        self.library: list[tuple[Path, object, dict]] = []
        self.skipped: list[str] = []  # why each unit file of this ruleset that failed to load is not listed
        #: (side number, library index) -> the unit as that side fields it in this encounter: each side's edit is
        #: its own copy, so one class can be fielded twice under two names.
        self.edited: dict[tuple[str, int], dict] = {}
        #: House table files by table name (``[setup.options.tables]``), as typed: from the save folder, or whole.
        self.house_tables: dict[str, str] = {}
        #: The table whose file is being typed in the last step (None: its list is shown), and the last one named.
        self._table_asked: str | None = None
        self._table_row = ""
        #: The field of the question asked now. Keys typed in one burst reach the field that had the focus
        #: before the next one is mounted: what it answers then is not an answer to this question.
        self._asking: object = None

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="form-box") as box:
            box.border_title = "New encounter"
            yield Static("", id="form-done")
            yield Label("", id="form-question")
            yield Static("", id="form-message")  # under the question it is about, above a list that may shrink
            yield Vertical(id="form-field")
            yield Static("", id="form-skipped")
        yield Footer()

    def on_mount(self) -> None:
        self.next_question()

    def on_resize(self) -> None:
        """Under 80 columns the Footer's keys sit closer together, so that q Quit stays in sight beside a and x."""
        self.query_one(Footer).compact = self.size.width < 80

    # --- keys, taken in the order they arrive (``FlagbridgeApp.on_event`` hands each one here) ---

    @property
    def keys_welcome(self) -> bool:
        """Keys wait (in the app, in order) until the first question is asked, and while the field of the question
        just asked is being mounted."""
        if self.step < 0:
            return False
        return self._asking is None or getattr(self._asking, "is_mounted", True)

    @property
    def typing_text(self) -> bool:
        """A name or number is being typed (an Option character or a caret is then itself, not Esc and a key)."""
        return isinstance(self._asking, Input)

    def take_key(self, event) -> bool:
        """Each key into the field of the question asked now, at once: keys typed after an Enter that asks the
        next question go into that question's field (through Textual's queues they reached the last one's)."""
        key, char = event.key, event.character
        if not self.is_attached or not all(f.is_mounted for f in self.query("#form-field")):
            return True  # the screen is on its way out (the console took its place): nothing here answers
        if self.quit_answered(key):
            return True
        if key == "escape":
            self.action_back()
            return True
        widget = self._asking
        if widget is None or not widget.is_mounted:
            return False
        if isinstance(widget, TickList) and key in ("e", "a", "x"):
            {"e": widget.action_edit, "a": self.add_side, "x": self.remove_side}[key]()
            return True
        taken = field_key(widget, key, char)
        if taken is False and key == "q":  # on a list (in a name it is a letter): asked before it quits
            self.action_quit()
            return True
        if taken is None:  # Enter: the answer is what the field holds now
            if isinstance(widget, TickList):
                self.action_confirm(widget)
            elif isinstance(widget, OptionList):
                if widget.highlighted is not None:
                    self._chosen(widget.get_option_at_index(widget.highlighted))
            elif isinstance(widget, Input):
                self._typed(widget.value)
            return True
        return taken

    @property
    def questions(self) -> tuple[str, ...]:
        """The ruleset, the name, each side's name and units, then the ruleset's own setup options (e.g. the
        starting range)."""
        sides = tuple(q for n in range(1, self.side_count + 1) for q in (f"side{n}", f"ships{n}"))
        extra = ()
        if "ruleset" in self.answers:
            rs = find_ruleset(self.answers["ruleset"])
            so_far = {q[7:]: v for q, v in self.answers.items() if q.startswith("option:")}
            extra = tuple(f"option:{p.name}" for p in rs.setup_options() if rs.setup_option_asked(p.name, so_far))
            extra += ("tables",) * (rs.table_set is not None)
        return ("ruleset", "name") + sides + extra

    def _option(self, q: str):
        return next(p for p in find_ruleset(self.answers["ruleset"]).setup_options() if p.name == q[7:])

    def next_question(self) -> None:
        self.step += 1
        if self.step >= len(self.questions):
            self._asking = None  # every question answered: nothing more answers one (``create`` may ask again)
            self.create()
            return
        q = self.questions[self.step]
        field = self.query_one("#form-field", Vertical)
        field.remove_children()
        self.query_one("#form-message", Static).update("")
        self._say_skipped(self._skipped_lines() if q.startswith("ships") else Text())
        self.query_one("#form-done", Static).update(Text(" · ".join(
            # an option's answer after its name ("surprise 1"): a row of bare digits named nothing (a drive)
            (f"{k[7:].replace('_', ' ')} " if k.startswith("option:") else "")
            + (f"{len(v)} picked" if isinstance(v, list) else ("yes" if v else "no") if isinstance(v, bool)
               else f"house tables: {', '.join(v) or 'none'}" if isinstance(v, dict) else str(v))
            for k, v in self.answers.items())))
        ask = self.query_one("#form-question", Label)
        earlier = self.earlier.get(q)
        if q == "ruleset":
            ask.update("Ruleset (Enter):")
            ids = list(available())
            widget = PagedOptionList(*[Option(f"{rid}  {name}", id=rid) for rid, name in available().items()])
            if earlier in ids:
                widget.highlighted = ids.index(earlier)
        elif q == "name":
            ask.update("Name of the encounter (Enter):")
            widget = self._text_field(earlier, "e.g. Ambush at Regina")
        elif q.startswith("option:") and self._option(q).kind == "choice":
            ask.update(Text(f"{self._option(q).label} (Enter):"))
            choices = self._option(q).choices
            widget = PagedOptionList(*[Option(Text(c), id=f"{q}={c}") for c in choices])
            given = [c for c in choices if option_value(c) == earlier and earlier is not None]
            if given:  # the answer given before highlighted, else the usual one: Enter keeps it
                widget.highlighted = choices.index(given[0])
            elif self._option(q).default in choices:
                widget.highlighted = choices.index(self._option(q).default)
        elif q.startswith("option:"):
            ask.update(Text(f"{self._option(q).label} (Enter):"))
            widget = self._text_field(earlier)  # every character goes in: a number typed wrong is refused whole
        elif q == "tables":
            ask.update("House tables, optional (Enter on a table names your own file for it; "
                       "Enter on the first row starts the fight):")
            names = find_ruleset(self.answers["ruleset"]).table_set.names
            widget = PagedOptionList(
                Option(f"start with {'these' if self.house_tables else 'the shipped'} tables", id="tables="),
                *[Option(Text(f"{n}: {self.house_tables.get(n, 'shipped')}"), id=f"table={n}") for n in names])
            if self._table_row in names:
                widget.highlighted = 1 + names.index(self._table_row)
        elif q.startswith("side"):
            ask.update(f"Name of side {side_number(q)} (Enter):")
            widget = self._text_field(earlier, "e.g. Imperial Navy" if q == "side1" else "e.g. Corsairs")
        else:
            n = side_number(q)
            kinds = {k.plural for _p, k, _u in self.library}
            # a and x are in the Footer when they work: two more lines here took the list's room at 60x20
            ask.update(Text(f"{' and '.join(sorted(kinds))} of {self.answers['side' + n]} "
                            "(space to tick, e to edit for this fight, Enter when done):"))
            ticked = set(earlier or ())
            widget = TickList(*[(self._described(i, n), str(i), i in ticked) for i in range(len(self.library))])
        field.mount(widget)
        self._asking = widget
        widget.focus()

    @staticmethod
    def _text_field(earlier: object, placeholder: str = "") -> Input:
        """A field for a name or a number, holding the answer given before (if any) selected: Enter keeps it,
        typing replaces it, Backspace edits it (``field_key``). Nothing selects on focus: the focus comes a moment
        after the field, when keys typed in a burst may already be in it."""
        text = "" if earlier is None else str(earlier)
        widget = Input(value=text, placeholder=placeholder, select_on_focus=False)
        widget.selection = Selection(0, len(text))
        return widget

    SKIPPED_SHOWN = 5

    def _say_skipped(self, lines: Text) -> None:
        """The files left out of the list, under it; with none the line takes no row (the list has it)."""
        skipped = self.query_one("#form-skipped", Static)
        skipped.update(lines)
        skipped.display = bool(lines.plain)

    def _skipped_lines(self) -> Text:
        """One line for each file left out of the list, naming the file and what is wrong in it (a few at most,
        so the list stays on screen)."""
        lines = [f"not listed: {why}" for why in self.skipped[:self.SKIPPED_SHOWN]]
        if len(self.skipped) > self.SKIPPED_SHOWN:
            lines.append(f"... and {len(self.skipped) - self.SKIPPED_SHOWN} more files not listed "
                         "(flagbridge check FILE says why)")
        return Text("\n".join(lines))

    @staticmethod
    def describe(path: Path, kind, unit: dict, several: bool) -> str:
        """'Swift Dolan (Type T patrol cruiser, 400 t)', with the kind first when there are several."""
        what = ", ".join(str(x) for x in (unit.get("class_name") or path.stem,
                                          f"{unit['tonnage']} t" if "tonnage" in unit else "") if x)
        return (f"{kind.label}: " if several else "") + f"{unit['name']} ({what})"

    def unit_at(self, i: int, side: str) -> dict:
        """Library unit ``i`` as side ``side`` (its number: "1", "2"...) will field it (with the game master's
        edits in that side's list)."""
        return self.edited.get((side, i), self.library[i][2])

    def _described(self, i: int, side: str) -> Text:
        path, kind, _unit = self.library[i]
        several = len({k.plural for _p, k, _u in self.library}) > 1
        mark = " (edited)" if (side, i) in self.edited else ""
        return Text(self.describe(path, kind, self.unit_at(i, side), several) + mark)

    def edit_unit(self, i: int) -> None:
        """Open the field editor for library unit ``i`` as the side asked now fields it; the file itself is never
        changed, nor the other side's pick of it."""
        from .unit_edit import UnitEditScreen

        side = side_number(self.questions[self.step])
        ticks = self._asking

        def keep(unit: dict | None) -> None:
            if unit is None:
                return
            if unit == self.library[i][2]:
                self.edited.pop((side, i), None)  # edited back to the file's values: no longer an edit
            else:
                self.edited[(side, i)] = unit
            if isinstance(ticks, TickList) and ticks.is_mounted:
                ticks.replace_option_prompt_at_index(i, self._described(i, side))

        rs = find_ruleset(self.answers["ruleset"])
        self.app.push_screen(UnitEditScreen(rs, self.library[i][1], self.unit_at(i, side)), keep)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """A choice clicked with the mouse (keys are taken in ``take_key``)."""
        event.stop()
        if event.option_list is not self._asking:  # an earlier question's list
            return
        self._chosen(event.option)

    def _chosen(self, option: Option) -> None:
        picked = str(option.id)
        if picked == "tables=":  # the house tables named, if any: the last step
            self.answers["tables"] = dict(self.house_tables)
            self.next_question()
            return
        if picked.startswith("table="):
            self._ask_table_file(picked[6:])
            return
        if picked.startswith("option:"):  # a ruleset's setup option with fixed choices
            q, value = picked.split("=", 1)
            self.answers[q] = option_value(value)
            self.next_question()
            return
        before = [p for p, _k, _u in self.library] if picked == self.earlier.get("ruleset") else None
        self.answers["ruleset"] = picked
        self.library, self.skipped = unit_files(self.answers["ruleset"], self.save_dir)
        least, most = find_ruleset(picked).sides_allowed  # the sides asked for, within what this ruleset fights
        self.side_count = max(least, min(self.side_count, most or self.side_count))
        self.earlier = {q: v for q, v in self.earlier.items()
                        if not q.startswith(("side", "ships")) or int(side_number(q)) <= self.side_count}
        if before is None:  # another ruleset: the ships, options and tables given were the last one's
            self.edited, self.house_tables, self._table_row = {}, {}, ""
            self.earlier = {q: v for q, v in self.earlier.items() if not q.startswith(("ships", "option:"))}
        else:  # the same one again: its files read afresh (one may have been mended), picks and edits kept by file
            now = {p: i for i, (p, _k, _u) in enumerate(self.library)}
            moved = {i: now[p] for i, p in enumerate(before) if p in now}
            self.edited = {(side, moved[i]): unit for (side, i), unit in self.edited.items() if i in moved}
            for q in [q for q in self.earlier if q.startswith("ships")]:
                self.earlier[q] = [moved[i] for i in self.earlier[q] if i in moved]
        if not self.library:
            self.query_one("#form-message", Static).update("this ruleset has no unit files yet")
            self._say_skipped(self._skipped_lines())
            return
        self.next_question()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.input is not self._asking:  # an earlier question's field
            return
        self._typed(event.value)

    def _typed(self, value: str) -> None:
        if self._table_asked is not None:
            self._table_typed(value)
            return
        text = value.strip()
        q = self.questions[self.step]
        number = q.startswith("option:") and self._option(q).kind == "int"
        if not text:
            self.say("this field is needed: " + (f"type a number ({self._option(q).label})" if number
                                                   else "type a name"))
            return
        if number:
            p = self._option(q)
            value = whole_number(text, p)
            if value is None:
                least, most = limits(p)
                self.say(f"{p.label}: type a whole number from {least} to {most}")
                return
            self.answers[q] = value
        else:
            same = [v for k, v in self.answers.items() if k.startswith("side") and k != q
                    and v.casefold() == text.casefold()]
            if same:
                self.say(f"another side is already called {same[0]!r}: choose another name")
                return
            self.answers[q] = text
        self.next_question()

    # --- house tables (the last step) ---

    def _ask_table_file(self, name: str) -> None:
        """The file for table ``name``, asked in place of the tables' list (Esc goes back to the list)."""
        self._table_asked = self._table_row = name
        field = self.query_one("#form-field", Vertical)
        field.remove_children()
        self.say("")
        self.query_one("#form-question", Label).update(Text(
            f"File for table {name}, from {self.save_dir} or a full path (empty: the shipped one) (Enter):"))
        widget = self._text_field(self.house_tables.get(name), f"e.g. my-tables/{name}.toml")
        field.mount(widget)
        self._asking = widget
        widget.focus()

    def _table_typed(self, value: str) -> None:
        """A house table file typed: read and checked with the others named (one may refer to another) from the
        save folder, as the save will read it; one that fails to load is refused here, in the loader's words
        naming the file and the entry, and the list is shown again only once it loads."""
        name, path = self._table_asked, os.path.expanduser(value.strip())
        tables = {n: p for n, p in self.house_tables.items() if n != name}
        if path:
            try:
                find_ruleset(self.answers["ruleset"]).table_set.load({**tables, name: path}, self.save_dir)
            except (FlagbridgeError, OSError, ValueError) as exc:
                self.say(str(exc))
                return
            tables[name] = path
        self.house_tables = tables
        self._back_to_tables()

    def _back_to_tables(self) -> None:
        self._table_asked = None
        self._ask("tables")

    def say(self, text: str) -> None:
        self.query_one("#form-message", Static).update(Text(text))

    def action_confirm(self, ticks: "TickList | None" = None) -> None:
        """Called by the ship list's Enter: keep the ticked ships."""
        if ticks is not None and ticks is not self._asking:  # an earlier list, taking a burst's keys
            return
        if self._ticks_taken():
            self.next_question()

    def _ticks_taken(self) -> bool:
        """The units ticked on the side's list asked now, kept as its answer when they may be fielded; else
        said why, under the question."""
        picked = list(self.query(TickList).last().selected)
        if not picked:
            self.query_one("#form-message", Static).update("tick at least one with space, then Enter")
            return False
        q = self.questions[self.step]
        names = [self.unit_at(int(i), side_number(q))["name"] for i in picked]
        for k, v in self.answers.items():
            if k.startswith("ships") and k != q:
                names += [self.unit_at(i, side_number(k))["name"] for i in v]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            self.say(f"{', '.join(twice)} would be in the fight twice: each unit needs a name of its own "
                     "(e on it renames this side's for this fight)")
            return False
        if why := self._why_not_fielded(q, [int(i) for i in picked]):
            self.say(why)
            return False
        self.answers[q] = [int(i) for i in picked]
        return True

    def _why_not_fielded(self, q: str, picked: list[int]) -> str:
        """The ruleset's reason a unit ticked on this list cannot be fielded beside the units of the sides before
        it (gothic's planetary defences are one side's), "" when none: said on the list, where it was ticked."""
        rs = find_ruleset(self.answers["ruleset"])
        names = {k: v for k, v in self.answers.items() if k.startswith("side")}
        fielded: list = []
        for n in range(1, self.side_count + 1):
            picks = picked if f"ships{n}" == q else self.answers.get(f"ships{n}", [])
            for i in picks:
                kind, unit = self.library[i][1], {**self.unit_at(i, str(n)), "side": f"side{n}"}
                if f"ships{n}" == q and (why := rs.why_not_fielded(kind, unit, fielded, names)):
                    return why
                fielded.append((kind, unit))
        return ""

    # --- more or fewer sides (a and x on a side's list) ---

    def sides_may_be(self, change: int) -> bool:
        """Whether the ruleset fights with ``change`` sides more (or fewer) than are asked for now."""
        ruleset = self.answers.get("ruleset")
        return ruleset is not None and find_ruleset(ruleset).sides_fit(self.side_count + change)

    def _sides_refused(self, change: int) -> bool:
        if self.sides_may_be(change):
            return False
        rs = find_ruleset(self.answers["ruleset"])
        self.say(f"a {rs.id} fight has {rs.sides_wanted()} sides")
        return True

    def _renumber_sides(self, after: int, change: int) -> None:
        """The sides numbered past ``after`` move ``change`` places, with the answers kept for them (their names,
        their ticks) and the units edited for them. Only answers kept for later (``earlier``) hold them: the
        side asked now is at ``after``."""
        def moved(q: str) -> str:
            n = int(side_number(q))
            return q if n <= after else q.removesuffix(str(n)) + str(n + change)

        self.earlier = {(moved(q) if q.startswith(("side", "ships")) else q): v for q, v in self.earlier.items()}
        self.edited = {(side if int(side) <= after else str(int(side) + change), i): unit
                       for (side, i), unit in self.edited.items()}

    def add_side(self) -> None:
        """a on a side's list: its ticks kept as Enter keeps them, then a side after it (its name asked next)."""
        if self._sides_refused(1) or not self._ticks_taken():
            return
        n = int(side_number(self.questions[self.step]))
        self._renumber_sides(n, 1)
        self.side_count += 1
        self.next_question()

    def remove_side(self) -> None:
        """x on a side's list: that side goes, with its name, its ticks and the units edited for it; the next
        side's name is asked in its place (shown, so Enter keeps it), or after the last, the list before it."""
        if self._sides_refused(-1):
            return
        n = int(side_number(self.questions[self.step]))
        name = self.answers.pop(f"side{n}")
        self._drop_side(n)
        after = self.earlier.get(f"side{n}")
        if n <= self.side_count:
            self._ask(f"side{n}")
            self.say(f"side {n} ({name}) removed" + (f": {after} is side {n} now" if after else ""))
        else:
            self._ask(f"ships{self.side_count}")
            self.say(f"side {n} ({name}) removed")

    def _drop_side(self, n: int) -> None:
        """Side ``n`` goes, with what was kept for it; the sides after it move up a place."""
        self.earlier.pop(f"side{n}", None)
        self.earlier.pop(f"ships{n}", None)
        self.edited = {key: unit for key, unit in self.edited.items() if key[0] != str(n)}
        self._renumber_sides(n, -1)
        self.side_count -= 1

    def create(self) -> None:
        a = self.answers
        units: dict = {}
        taken: set[str] = set()  # unique across kinds too: a unit is found by its id alone (unit_kind_of)
        numbers = [str(n) for n in range(1, self.side_count + 1)]
        for side in numbers:
            for i in a["ships" + side]:
                _path, kind, _unit = self.library[i]
                unit = dict(self.unit_at(i, side))
                unit["side"] = f"side{side}"
                uid = unit_id(unit["name"], taken, kind.id)
                taken.add(uid)
                units.setdefault(kind.key, {})[uid] = unit
        options = {q[7:]: v for q, v in a.items() if q.startswith("option:")}
        if a.get("tables"):
            options["tables"] = dict(a["tables"])
        setup = Setup(a["ruleset"], a["name"], [{"id": f"side{n}", "name": a[f"side{n}"]} for n in numbers], units,
                      options=options, seed=int.from_bytes(os.urandom(3), "big"))
        try:
            enc = Encounter(setup, folder=self.save_dir)  # a house table's path is read from the save folder
            self.save_dir.mkdir(parents=True, exist_ok=True)
            save = create(free_save_path(self.save_dir, a["name"]), enc).hold()
        except (FlagbridgeError, OSError) as exc:
            said = f"cannot save in {self.save_dir}: {exc.strerror}" if isinstance(exc, OSError) and exc.strerror \
                else str(exc)
            self.query_one("#form-message", Static).update(Text(said))
            self.step = len(self.questions) - 1
            self._asking = next(iter(self.query_one("#form-field", Vertical).children), None)  # asked again
            return
        self.app.open_console(save)

    def action_quit(self) -> None:
        """q (or the palette's Quit): asked first once there are answers to lose; with none, as Esc on the first
        question, the walk-through ends at once."""
        if self.answers or self.earlier:
            self.ask_quit()
        else:
            self.app.exit()

    def palette_commands(self) -> list[tuple[str, str, object]]:
        """ctrl+p here: the app's commands, with a Quit that says what it loses (nothing is saved yet)."""
        from ..commands import app_commands

        return [c for c in app_commands(self.app) if c[0] != "Quit"] + [
            ("Quit", "without making the encounter: the answers so far are lost (q)", self.action_quit)]

    def action_back(self) -> None:
        """Esc: the question before (its answer and the later ones asked again); from the first, leave the screen
        (``flagbridge new`` then ends, as nothing has been answered)."""
        q = self.questions[self.step] if 0 <= self.step < len(self.questions) else ""
        if self._table_asked is not None:  # a table's file: back to the list of tables, as it was
            self._back_to_tables()
        elif q.startswith("side") and int(side_number(q)) > 2 and q not in self.earlier and self.sides_may_be(-1):
            n = int(side_number(q))  # a side added (a), never named: going back takes it out again
            self._drop_side(n)
            self._ask(f"ships{n - 1}")
            self.say(f"side {n} not added")
        elif self.step > 0:
            self._ask(self.questions[self.step - 1])
        elif self.first:
            self.app.exit()
        else:
            self.app.pop_screen()

    def _ask(self, q: str) -> None:
        """Ask question ``q`` again: its answer and every later one are kept to be shown when each is asked."""
        at = self.questions.index(q)
        for later in self.questions[at:]:
            if later in self.answers:
                self.earlier[later] = self.answers.pop(later)
        self.step = at - 1
        self.next_question()
