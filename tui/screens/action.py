"""The form for an action's parameters: one question at a time, choices from the ruleset.

Fire resolution starts here (ship, turrets, target, warhead, location), as do
interception, reprogramming and the rest; the rolls that follow show in the
console's dice prompt with their modifiers and exact chance.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList, SelectionList, Static
from textual.widgets.option_list import Option

from engine.encounter import Encounter
from engine.ruleset import ActionSpec, Choice, Param


NOBODY = "_nobody"  # in the form's answer: the action has no one to do it now


class TickList(SelectionList[str]):
    """A list to tick several items with space; Enter confirms the ticks instead of toggling."""

    BINDINGS = [Binding("enter", "done", "Done", id="ticks-done")]

    def action_done(self) -> None:
        self.screen.action_confirm()


class ActionScreen(ModalScreen[dict | None]):
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="cancel"),
    ]

    def __init__(self, enc: Encounter, spec: ActionSpec, selected_ship: str = "") -> None:
        super().__init__(classes="form")
        self.enc = enc
        self.spec = spec
        self.selected_ship = selected_ship
        self.args: dict = {}
        self.shown: dict[str, str] = {}  # the labels of the answers, for the line of choices made
        self.index = -1
        self.choices: list[Choice] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="form-box") as box:
            box.border_title = self.spec.label
            yield Static("", id="form-done")
            yield Label("", id="form-question")
            yield Vertical(id="form-field")
            yield Static("", id="form-message")
            yield Label("Enter: choose · space: tick (lists of several) · Esc: cancel", id="form-help")

    def on_mount(self) -> None:
        self.advance()

    @property
    def param(self) -> Param:
        return self.spec.params[self.index]

    def advance(self) -> None:
        """Ask the next parameter that applies; when none is left, hand the answers back."""
        while True:
            self.index += 1
            if self.index >= len(self.spec.params):
                self.dismiss(self.args)
                return
            choices = self.enc.ruleset.param_choices(self.enc.state, self.spec.name, self.param, self.args)
            if choices == [] and self.param.kind == "ship":
                # nobody can do this now: say so instead of sending an action without a ship
                self.dismiss({NOBODY: f"{self.spec.label}: no ship can do that now"})
                return
            if choices == []:
                continue
            self.show_question(choices)
            return

    def show_question(self, choices: list[Choice] | None) -> None:
        self.choices = choices or []
        field = self.query_one("#form-field", Vertical)
        field.remove_children()
        done = " · ".join(f"{k}: {v}" for k, v in self.shown.items() if v)
        self.query_one("#form-done", Static).update(done)
        self.query_one("#form-message", Static).update("")
        p = self.param
        if choices is None:
            self.query_one("#form-question", Label).update(f"{p.label}:")
            box = Input(placeholder=p.label, classes="form-input",
                        type="integer" if p.kind == "int" else "text")
            field.mount(box)
            box.focus()
        elif p.kind == "multi":
            self.query_one("#form-question", Label).update(f"{p.label} (space to tick, Enter when done):")
            lst = TickList(*[(c.label, c.value) for c in choices], classes="form-multi")
            field.mount(lst)
            lst.focus()
        else:
            self.query_one("#form-question", Label).update(f"{p.label}:")
            options = OptionList(*[Option(c.label, id=c.value) for c in choices], classes="form-options")
            field.mount(options)
            if self.param.kind == "ship" and self.selected_ship in {c.value for c in choices}:
                options.highlighted = [c.value for c in choices].index(self.selected_ship)
            options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.args[self.param.name] = event.option.id
        self.shown[self.param.label] = str(event.option.prompt) if event.option.id else ""
        self.advance()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        value = event.value.strip()
        if self.param.kind == "int":
            if not value:
                self.query_one("#form-message", Static).update(f"{self.param.label} is needed: type a number")
                return
            if not value.lstrip("-").isdigit():
                self.query_one("#form-message", Static).update(f"{value!r} is not a whole number")
                return
            self.args[self.param.name] = int(value)
        else:
            self.args[self.param.name] = value
        self.shown[self.param.label] = value
        self.advance()

    def action_confirm(self) -> None:
        """Enter on a list of several: take the ticked items (at least one)."""
        lists = self.query(TickList)
        if not lists:
            return
        self.args[self.param.name] = list(lists.last().selected)  # the ruleset says if none is too few
        self.shown[self.param.label] = "+".join(self.args[self.param.name])
        self.advance()

    def action_cancel(self) -> None:
        self.dismiss(None)

