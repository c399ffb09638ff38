"""Setting up a new encounter: ruleset, name, two sides and their units, then the console.

The units (ships, and any other kind the ruleset's setup holds) come from the
ruleset's library and from the game master's own files in ``SAVE_DIR/<kind>``
(``SAVE_DIR/ships`` for ships); the new save is written in the save folder.
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


class TickList(PagedSelectionList):
    """A list to tick several items with space; Enter confirms the ticks instead of toggling."""

    BINDINGS = [Binding("enter", "done", "Done", id="ticks-done"),
                Binding("e", "edit", "Edit for this fight", id="ticks-edit")]

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
    QUESTIONS = ("ruleset", "name", "side1", "ships1", "side2", "ships2")

    def __init__(self, save_dir: Path, first: bool = False) -> None:
        super().__init__(id="setup")
        self.save_dir = save_dir
        self.first = first
        self.answers: dict = {}
        #: Answers given before Esc went back past them: each is shown again when its question is, so Enter
        #: keeps it (a new ruleset drops the ships and options, which were that ruleset's).
        self.earlier: dict = {}
        self.step = -1
        self.library: list[tuple[Path, object, dict]] = []
        self.skipped: list[str] = []  # why each unit file of this ruleset that failed to load is not listed
        #: (side, library index) -> the unit as that side fields it in this encounter: each side's edit is its
        #: own copy, so one class can be fielded twice under two names.
        self.edited: dict[tuple[str, int], dict] = {}
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
        if isinstance(widget, TickList) and key == "e":
            widget.action_edit()
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
        """The fixed questions, then the ruleset's own setup options (e.g. the starting range)."""
        extra = ()
        if "ruleset" in self.answers:
            rs = find_ruleset(self.answers["ruleset"])
            so_far = {q[7:]: v for q, v in self.answers.items() if q.startswith("option:")}
            extra = tuple(f"option:{p.name}" for p in rs.setup_options() if rs.setup_option_asked(p.name, so_far))
        return self.QUESTIONS + extra

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
        self.query_one("#form-skipped", Static).update(self._skipped_lines() if q.startswith("ships") else "")
        self.query_one("#form-done", Static).update(Text(" · ".join(
            # an option's answer after its name ("surprise 1"): a row of bare digits named nothing (a drive)
            (f"{k[7:].replace('_', ' ')} " if k.startswith("option:") else "")
            + (f"{len(v)} picked" if isinstance(v, list) else ("yes" if v else "no") if isinstance(v, bool) else str(v))
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
        elif q in ("side1", "side2"):
            ask.update(f"Name of side {q[-1]} (Enter):")
            widget = self._text_field(earlier, "e.g. Imperial Navy" if q == "side1" else "e.g. Corsairs")
        else:
            kinds = {k.plural for _p, k, _u in self.library}
            ask.update(Text(f"{' and '.join(sorted(kinds))} of {self.answers['side' + q[-1]]} "
                            "(space to tick, e to edit for this fight, Enter when done):"))
            ticked = set(earlier or ())
            widget = TickList(*[(self._described(i, q[-1]), str(i), i in ticked) for i in range(len(self.library))])
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
        """Library unit ``i`` as side ``side`` ("1" or "2") will field it (with the game master's edits in that
        side's list)."""
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

        side = self.questions[self.step][-1]
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
        if picked.startswith("option:"):  # a ruleset's setup option with fixed choices
            q, value = picked.split("=", 1)
            self.answers[q] = option_value(value)
            self.next_question()
            return
        before = [p for p, _k, _u in self.library] if picked == self.earlier.get("ruleset") else None
        self.answers["ruleset"] = picked
        self.library, self.skipped = unit_files(self.answers["ruleset"], self.save_dir)
        if before is None:  # another ruleset: the ships and options given were the last one's
            self.edited = {}
            self.earlier = {q: v for q, v in self.earlier.items() if not q.startswith(("ships", "option:"))}
        else:  # the same one again: its files read afresh (one may have been mended), picks and edits kept by file
            now = {p: i for i, (p, _k, _u) in enumerate(self.library)}
            moved = {i: now[p] for i, p in enumerate(before) if p in now}
            self.edited = {(side, moved[i]): unit for (side, i), unit in self.edited.items() if i in moved}
            for q in ("ships1", "ships2"):
                if q in self.earlier:
                    self.earlier[q] = [moved[i] for i in self.earlier[q] if i in moved]
        if not self.library:
            self.query_one("#form-message", Static).update("this ruleset has no unit files yet")
            self.query_one("#form-skipped", Static).update(self._skipped_lines())
            return
        self.next_question()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.input is not self._asking:  # an earlier question's field
            return
        self._typed(event.value)

    def _typed(self, value: str) -> None:
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
            if q == "side2" and text.casefold() == self.answers["side1"].casefold():
                self.say(f"the other side is already called {self.answers['side1']!r}: choose another name")
                return
            self.answers[q] = text
        self.next_question()

    def say(self, text: str) -> None:
        self.query_one("#form-message", Static).update(Text(text))

    def action_confirm(self, ticks: "TickList | None" = None) -> None:
        """Called by the ship list's Enter: keep the ticked ships."""
        if ticks is not None and ticks is not self._asking:  # an earlier list, taking a burst's keys
            return
        picked = list(self.query(TickList).last().selected)
        if not picked:
            self.query_one("#form-message", Static).update("tick at least one with space, then Enter")
            return
        q = self.questions[self.step]
        names = [self.unit_at(int(i), q[-1])["name"] for i in picked]
        if q == "ships2":
            names += [self.unit_at(i, "1")["name"] for i in self.answers["ships1"]]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            self.say(f"{', '.join(twice)} would be in the fight twice: each unit needs a name of its own "
                     "(e on it renames this side's for this fight)")
            return
        self.answers[q] = [int(i) for i in picked]
        self.next_question()

    def create(self) -> None:
        a = self.answers
        units: dict = {}
        taken: set[str] = set()  # unique across kinds too: a unit is found by its id alone (unit_kind_of)
        for side in ("1", "2"):
            for i in a["ships" + side]:
                _path, kind, _unit = self.library[i]
                unit = dict(self.unit_at(i, side))
                unit["side"] = f"side{side}"
                uid = unit_id(unit["name"], taken, kind.id)
                taken.add(uid)
                units.setdefault(kind.key, {})[uid] = unit
        options = {q[7:]: v for q, v in a.items() if q.startswith("option:")}
        setup = Setup(a["ruleset"], a["name"], [{"id": "side1", "name": a["side1"]},
                                                 {"id": "side2", "name": a["side2"]}], units,
                      options=options, seed=int.from_bytes(os.urandom(3), "big"))
        try:
            enc = Encounter(setup)
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
        if self.step > 0:
            for q in self.questions[self.step - 1:]:
                if q in self.answers:
                    self.earlier[q] = self.answers.pop(q)
            self.step -= 2
            self.next_question()
        elif self.first:
            self.app.exit()
        else:
            self.app.pop_screen()
