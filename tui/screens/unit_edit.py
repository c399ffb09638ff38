"""Editing one unit before the fight starts (``flagbridge new``), without touching its file.

An imported ship's crew, fuel or programs are the import's guesses (usp_defaults.toml), and a
library ship may not be quite the one at this table: the game master changes a field here, for
this encounter only. Each value is typed as TOML writes it (``30``, ``true``, ``"Anna"``,
``["TARGET", "LAUNCH"]``, ``{ bridge = 3 }``), checked by the field's kind and limits and then by
the ruleset's own checks of the whole unit; a refused value says why under the input and changes
nothing.
"""

from __future__ import annotations

import tomllib
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Label, OptionList, Static
from textual.widgets.input import Selection
from textual.widgets.option_list import Option

from engine import toml_text
from engine.errors import FlagbridgeError
from engine.ids import name_problem
from engine.schema import Field, check_value, validate

from ..widgets.lists import PagedOptionList
from .keyed import field_key
from .quit_asked import QuitAsked

SHOWN_WIDTH = 60
#: Every unit has a name (``UnitKind``), whether or not its kind declares the field: renaming is how one file is
#: fielded on two sides, as the walk-through's refusal of a unit picked twice says.
NAME = Field("name", "str", help="the name it fights under in this encounter")


def one_line(value: Any) -> str:
    """A value as TOML writes it, on one line: a list of tables, which TOML writes a table a line, is joined back
    (a text's own line breaks are written as \\n, so every break here is layout). The list's row and the field
    that edits it are one line each, and a break in the field is drawn across the screen."""
    lines = toml_text.value(value).split("\n")
    text = lines[0]
    for line in (part.strip() for part in lines[1:]):
        if line.startswith("]") and text.endswith(","):
            text = text[:-1] + line  # the comma TOML leaves after a list's last table
        elif text.endswith("["):
            text += line
        else:
            text += " " + line
    return text


def shown(value: Any) -> str:
    """A value on one row of the list, cut to its width."""
    text = one_line(value)
    return text if len(text) <= SHOWN_WIDTH else text[:SHOWN_WIDTH - 1] + "…"


def parse_value(text: str, kind: str = "") -> Any:
    """A typed value, read as TOML reads the right-hand side of ``key = ...``; bare words are text. For a text
    field (``kind`` "str") anything TOML reads as another kind, or not at all, is the text typed: a name such as
    "[i]Dolan[/i]" or "1999" (the console's ``c`` takes any text for one too)."""
    try:
        value = tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        if "\n" in text or not text.strip():
            raise ValueError("type a value, e.g. 30, true, \"text\" or [\"A\", \"B\"]") from None
        if text.strip()[0] in "[{\"'" and kind != "str":
            raise ValueError(f"{text.strip()!r} is not a TOML value (check the brackets and quotes)") from None
        return text.strip()  # a bare word, e.g. a name typed without quotes
    if kind == "str" and not isinstance(value, str):
        return text.strip()
    return value


class UnitEditScreen(QuitAsked, ModalScreen[dict | None]):
    """The unit's fields as a list: Enter edits one, Esc finishes and keeps the edits.

    Its own Footer names those keys, and in a field Enter keeps the value and Esc goes back: the walk-through's,
    showing through, offered ⏎ Done, e Edit, a Add side and esc Back, none of which those keys do here. The keys
    reach ``take_key`` first; the bindings feed the Footer (priority, over the list's and the field's own hidden
    Enter), and a click on one does what its key does."""

    BINDINGS = [
        Binding("enter", "edit_field", "Edit", priority=True, id="edit-field"),
        Binding("enter", "keep", "Keep", priority=True, id="edit-keep"),
        Binding("escape", "finish", "Done", id="edit-done"),
        Binding("escape", "back", "Back", id="edit-back"),
        Binding("q", "ask_quit", "Quit", id="edit-quit"),  # asked first (``QuitAsked``); in a field, a letter
    ]

    def __init__(self, ruleset, kind, unit: dict) -> None:
        super().__init__(classes="form")
        self.ruleset = ruleset
        self.kind = kind
        self.unit = dict(unit)
        self.editing: str | None = None

    @property
    def fields(self):
        """The kind's fields a game master may change (the side is set by the setup), its name first when the kind
        leaves it out of its declared fields (a percentile person's, found by a drive)."""
        named = [] if any(f.name == "name" for f in self.kind.fields) else [NAME]
        return named + [f for f in self.kind.fields if f.name != "side"]

    def compose(self) -> ComposeResult:
        with Vertical(id="form-box") as box:
            box.border_title = Text(f"Edit {self.unit.get('name', '')} for this encounter")
            yield Static(Text("Enter: change the field · Esc: done (the file is not changed)"), id="form-help")
            yield PagedOptionList(*self._options(), id="form-options")
            yield Label("", id="form-question")
            yield Input(id="edit-value", select_on_focus=False)  # the old value is selected by `_edit`, at once
            yield Static("", id="form-message")
        yield Footer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The list's keys while the list is shown, the field's while a field is typed in."""
        if action in ("edit_field", "finish", "ask_quit"):
            return self.editing is None
        if action in ("keep", "back"):
            return self.editing is not None
        return True

    def action_edit_field(self) -> None:
        options = self.query_one(OptionList)
        if options.highlighted is not None:
            self._edit(options.get_option_at_index(options.highlighted))

    def action_keep(self) -> None:
        self._submit(self.query_one("#edit-value", Input).value)

    def action_back(self) -> None:
        self._back_to_list()

    def action_ask_quit(self) -> None:
        self.ask_quit()

    def _options(self) -> list[Option]:
        return [Option(Text(f"{f.name} = {shown(self.unit.get(f.name, f.default))}"), id=f.name)
                for f in self.fields]

    def on_mount(self) -> None:
        self.query_one("#edit-value", Input).display = False
        self.query_one(OptionList).focus()

    @property
    def typing_text(self) -> bool:
        return self.editing is not None

    def take_key(self, event) -> bool:
        """Each key, at once, into the list or the value being typed (``FlagbridgeApp.on_event``): keys typed
        right after the Enter that opens a field go into that field, in order."""
        key, char = event.key, event.character
        if self.quit_answered(key):
            return True
        if key == "escape":
            self.action_finish()
            return True
        if self.editing is None:
            options = self.query_one(OptionList)
            taken = field_key(options, key, char)
            if taken is False and key == "q":  # the walk-through's answers are not saved yet: asked first
                self.ask_quit()
                return True
            if taken is None and options.highlighted is not None:
                self._edit(options.get_option_at_index(options.highlighted))
            return True if taken is None else taken
        box = self.query_one("#edit-value", Input)
        taken = field_key(box, key, char)  # the old value is shown selected: typing replaces it, Backspace edits it
        if taken is None:
            self._submit(box.value)
            return True
        return taken

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """A field clicked with the mouse (keys are taken in ``take_key``)."""
        event.stop()
        self._edit(event.option)

    def _edit(self, option: Option) -> None:
        name = str(option.id)
        field = next(f for f in self.fields if f.name == name)
        self.editing = name
        self.refresh_bindings()  # the Footer names the field's keys
        self.query_one("#form-question", Label).update(
            Text(f"{name} ({field.help or field.kind}); Enter keeps it, Esc goes back:"))
        box = self.query_one("#edit-value", Input)
        box.value = one_line(self.unit.get(name, field.default))
        box.selection = Selection(0, len(box.value))  # at once: a key typed in the same burst sees it
        box.display = True
        box.focus()
        self.say("")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._submit(event.value)

    def _submit(self, text: str) -> None:
        name = self.editing
        if name is None:
            return
        field = next(f for f in self.fields if f.name == name)
        try:
            value = parse_value(text, field.kind)
            if field.kind == "float" and isinstance(value, int) and not isinstance(value, bool):
                value = float(value)
            check_value(value, field, self.kind.id)
            if name == "name" and (why := name_problem(value)):
                raise ValueError(f"{self.kind.id}: {why}")
            edited = validate({**self.unit, name: value}, self.kind.fields, self.kind.id)
            self.ruleset.check_unit(self.kind, {k: v for k, v in edited.items() if k != "side"}, self.kind.id)
        except (ValueError, FlagbridgeError) as exc:
            self.say(str(exc))
            return
        self.unit = {**self.unit, name: value}
        self._back_to_list(f"{name} is now {shown(value)}")

    def _back_to_list(self, message: str = "") -> None:
        self.editing = None
        self.refresh_bindings()
        options = self.query_one(OptionList)
        keep = options.highlighted
        options.clear_options()
        options.add_options(self._options())
        options.highlighted = keep
        self.query_one("#edit-value", Input).display = False
        self.query_one("#form-question", Label).update("")
        options.focus()
        self.say(message, error=False)

    def say(self, text: str, error: bool = True) -> None:
        message = self.query_one("#form-message", Static)
        message.set_class(not error, "said")
        message.update(Text(text))

    def action_finish(self) -> None:
        if self.editing is not None:
            self._back_to_list()
            return
        self.dismiss(self.unit)
