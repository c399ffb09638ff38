"""The form for an action's parameters: one question at a time, choices from the ruleset.

Fire resolution starts here (ship, turrets, target, warhead, location), as do
interception, reprogramming and the rest; the rolls that follow show in the
console's dice prompt with their modifiers and exact chance. Every list holds
only values the rules accept from where the form stands, and every answer is
judged by the action's ``may`` before the form moves on, so the form never ends
on something the rules then refuse.

The screen takes every key itself, in the order the keys arrive (``take_key``,
called by the app), so "Enter Enter Down Enter" typed in one burst answers three
questions exactly as if typed slowly.
"""

from __future__ import annotations

from typing import Any, Callable

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Label, Static

from engine.actions import Action, Choice, Param
from engine.encounter import Encounter

from ..widgets.picker import Item, LineEdit, Picker
from .keyed import KeyedScreenMixin



def typed_hint(p: Param) -> str:
    """' (0-6; Enter: 0)': the bounds a typed number keeps, and what an empty Enter gives."""
    said = []
    if p.kind == "int":
        if p.minimum is not None and p.maximum is not None:
            said.append(f"{p.minimum}-{p.maximum}")
        elif p.minimum is not None:
            said.append(f"{p.minimum} or more")
        elif p.maximum is not None:
            said.append(f"{p.maximum} or less")
    if p.optional and p.default not in ("", None):
        said.append(f"Enter: {p.default}")
    return f" ({'; '.join(said)})" if said else ""


class ActionScreen(KeyedScreenMixin, ModalScreen[dict | None]):
    """Its own Footer names the form's keys at each question: the console's, showing through, offered n Next
    step, u Undo and q Quit, letters the form takes into its filter. The keys themselves reach ``form_key``
    first; these bindings are for the Footer, and a click on one does what its key does."""

    BINDINGS = [
        Binding("enter", "press('enter')", "Choose", id="form-choose"),
        Binding("enter", "press_done", "Done", id="form-done"),
        Binding("space", "press('space')", "Tick", id="form-tick"),
        Binding("escape", "press('escape')", "Cancel", key_display="esc", id="form-cancel"),
    ]
    _CHARACTERS = {"enter": "\r", "space": " ", "escape": "\x1b"}

    def __init__(self, enc: Encounter, spec: Action, done: Callable[[dict], Any] | None = None,
                 selected: str = "") -> None:
        super().__init__(classes="form")
        self.enc = enc
        self.spec = spec
        self.done = done
        self.selected = selected  # the unit picked in the console: a list of units starts on it
        self.args: dict = {}
        self.shown: dict[str, str] = {}  # the labels of the answers, for the line of choices made
        self.index = -1
        self.choices: list[Choice] | None = None
        self.finished = False
        #: the question's values the rule leaves out, with why, read once a filter finds nothing offered:
        #: (question index, [(choice, why)]); and whether the form's message says one of them now
        self._left_out: tuple | None = None
        self._left_out_said = False

    def compose(self) -> ComposeResult:
        with Vertical(id="form-box") as box:
            box.border_title = Text(self.spec.label)
            yield Static("", id="form-done")
            yield Label("", id="form-question")
            yield Picker(id="form-options")
            yield LineEdit(id="form-input")
            yield Static("", id="form-message")
            yield Label("", id="form-help")
        yield Footer()

    def on_mount(self) -> None:
        if not self.query("#form-done"):  # closed before it was built: nothing to ask
            self.finished = True
            return
        self.advance()
        self.keys_ready()

    @property
    def param(self) -> Param:
        return self.spec.params[self.index]

    def say(self, text: str) -> None:
        self.query_one("#form-message", Static).update(Text(text))

    # --- asking ------------------------------------------------------------------------

    def advance(self) -> None:
        """Ask the next parameter that applies; when none is left, take the action."""
        while True:
            self.index += 1
            if self.index >= len(self.spec.params):
                self.finish()
                return
            choices = self.enc.ruleset.param_choices(self.enc.state, self.spec.name, self.param, self.args)
            if choices == [] and self.param.optional:
                continue  # nothing to choose: the rule's default stands
            if choices == []:
                self.nothing_to_choose()
                return
            self.show_question(choices)
            return

    def nothing_to_choose(self) -> None:
        """A required question with nothing offered: the list before goes (Enter chose from it for this
        question), and the Footer names Esc alone, the one key that works now (``choices`` [] here)."""
        self.choices = []
        self.query_one(Picker).display = False
        self.query_one(LineEdit).display = False
        done = " · ".join(f"{k}: {v}" for k, v in self.shown.items() if v)
        self.query_one("#form-done", Static).update(Text(done))
        self.query_one("#form-question", Label).update(Text(f"{self.param.label}:"))
        self.query_one("#form-help", Label).update(Text("Esc: cancel"))
        self.say(f"{self.param.label}: nothing can be chosen now (Esc to go back)")
        self.refresh_bindings()

    def show_question(self, choices: list[Choice] | None) -> None:
        self.choices = choices
        p = self.param
        done = " · ".join(f"{k}: {v}" for k, v in self.shown.items() if v)
        self.query_one("#form-done", Static).update(Text(done))
        self.say("")
        picker, line = self.query_one(Picker), self.query_one(LineEdit)
        picker.display = choices is not None
        line.display = choices is None
        if choices is None:
            line.set("")
            ask, keys = f"{p.label}{typed_hint(p)}:", "type, then Enter · Esc: cancel"
        elif p.kind == "multi":
            ticked = self.enc.ruleset.param_initial(self.enc.state, self.spec.name, p, self.args)
            picker.load([Item(c.value, c.label) for c in choices], multi=True, ticked=ticked)
            ask, keys = f"{p.label} (several):", "space: tick or untick · Enter: done · type to filter · Esc: cancel"
        else:
            # a unit's list (or a list of units' ids) starts on the unit the console has selected, when listed
            picker.load([Item(c.value, c.label) for c in choices], at=self.selected or None)
            ask, keys = f"{p.label}:", "up/down, Enter: choose · type to filter · Esc: cancel"
        self.query_one("#form-question", Label).update(Text(ask))
        self.query_one("#form-help", Label).update(Text(keys))
        self.refresh_bindings()  # the Footer's Enter and Space follow the kind of question

    def take(self, value: object, shown: str) -> None:
        """Keep an answer the rule accepts and move on; otherwise say why and ask again."""
        checked, why = self.enc.ruleset.check_answer(self.enc.state, self.spec.name, self.param.name, value,
                                                     self.args)
        if why:
            self.say(why)
            return
        self.args[self.param.name] = checked
        self.shown[self.param.label] = shown
        self.advance()

    def finish(self) -> None:
        """The action is taken before the form closes, so the next key already sees its result."""
        self.finished = True
        if self.done is not None:
            self.done(dict(self.args))
        self.dismiss(dict(self.args))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter is Choose for one from a list, Done for several or a typed answer; Space ticks only in a list of
        several. False hides the key from the Footer (and from a click on it)."""
        asking = (not self.finished and 0 <= self.index < len(self.spec.params) and self.is_attached
                  and self.choices != [])
        multi = asking and self.choices is not None and self.param.kind == "multi"
        if action == "press" and parameters and parameters[0] in ("enter", "space"):
            shown = (self.choices is not None and not multi) if parameters[0] == "enter" else multi
            return asking and shown
        if action == "press_done":
            return asking and (multi or self.choices is None)
        return not self.finished  # a form closing leaves its keys to the app and the screen under it

    def action_press_done(self) -> None:
        self.action_press("enter")

    # --- keys, in the order they arrive --------------------------------------------------------

    @property
    def typing_text(self) -> bool:
        """A typed answer is asked (a name, a number): an Option character or a caret there is itself."""
        return not self.finished and 0 <= self.index < len(self.spec.params) and self.choices is None

    def form_key(self, event: events.Key) -> bool:
        """Handle one key; True when it was this form's (the app then stops it)."""
        if self.finished or not self.is_attached:
            return False
        key, char = event.key, event.character
        if key == "escape":
            self.finished = True
            self.dismiss(None)
            return True
        if self.index >= len(self.spec.params) or self.index < 0 or self.choices == []:
            return True  # nothing to choose: only Esc does anything
        if self.choices is None:
            return self._typed_key(key, char)
        return self._list_key(key, char)

    def _typed_key(self, key: str, char: str | None) -> bool:
        line = self.query_one(LineEdit)
        taken = line.take(key, char)
        if taken is not None:
            return taken
        value = line.value.strip()
        if not value and not self.param.optional:
            kind = "a number" if self.param.kind == "int" else "it"
            self.say(f"{self.param.label} is needed: type {kind}")
        else:
            self.take(value if value else self.param.default, value)
        return True

    def _list_key(self, key: str, char: str | None) -> bool:
        picker = self.query_one(Picker)
        taken = picker.take(key, char)
        if taken is None:
            self._choose(picker.state)
            return True
        if taken:
            self._say_left_out(picker.state)
        return taken

    def _say_left_out(self, state) -> None:
        """A filter that finds nothing offered but names one the rule leaves out says why it is not there (a
        drive looked for the grenade a person could not pay for, and read only "nothing matches")."""
        words = state.filter.lower().split()
        if not words or state.shown:
            if self._left_out_said:
                self.say("")
                self._left_out_said = False
            return
        if self._left_out is None or self._left_out[0] != self.index:
            self._left_out = (self.index, self.enc.ruleset.param_left_out(
                self.enc.state, self.spec.name, self.param, self.args, self.choices))
        found = [(c, why) for c, why in self._left_out[1] if all(w in c.label.lower() for w in words)]
        if found:
            self.say("; ".join(f"{c.label}: not offered: {why}" for c, why in found[:2])
                     + (f" (and {len(found) - 2} more)" if len(found) > 2 else ""))
            self._left_out_said = True
        elif self._left_out_said:  # the filter names none of them now
            self.say("")
            self._left_out_said = False

    def _choose(self, state) -> None:
        if state.multi:
            ticked = [i for i in state.items if i.value in state.ticked]
            if not ticked and not self.param.optional:
                self.say(f"{self.param.label}: tick at least one with space, then Enter")
                return
            # named as the list showed them, as a chosen value is: the values are ids the save keeps
            self.take([i.value for i in ticked], "; ".join(i.label for i in ticked))
            return
        item = state.current
        if item is None:
            self.say("nothing is chosen: Backspace clears the filter")
            return
        self.take(item.value, item.label if item.value else "")
