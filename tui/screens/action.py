"""The form for an action's parameters: one question at a time, choices from the ruleset.

Fire resolution starts here (ship, turrets, target, warhead, location), as do
interception, reprogramming and the rest; the rolls that follow show in the
console's dice prompt with their modifiers and exact chance. Every list holds
only values the rules accept from where the form stands, and every answer is
judged by the action's ``may`` before the form moves on, so the form never
ends on something the rules then refuse.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList, SelectionList, Static
from textual.widgets.option_list import Option

from engine.actions import Action, Choice, Param
from engine.encounter import Encounter


class TickList(SelectionList[str]):
    """A list to tick several items with space; Enter confirms the ticks instead of toggling."""

    BINDINGS = [Binding("enter", "done", "Done", id="ticks-done")]

    def action_done(self) -> None:
        self.screen.action_confirm()


class ActionScreen(ModalScreen[dict | None]):
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="cancel"),
    ]

    def __init__(self, enc: Encounter, spec: Action, selected_unit: str = "") -> None:
        super().__init__(classes="form")
        self.enc = enc
        self.spec = spec
        self.selected_unit = selected_unit
        self.args: dict = {}
        self.shown: dict[str, str] = {}  # the labels of the answers, for the line of choices made
        self.index = -1
        self.choices: list[Choice] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="form-box") as box:
            box.border_title = Text(self.spec.label)
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

    def say(self, text: str) -> None:
        self.query_one("#form-message", Static).update(Text(text))

    def advance(self) -> None:
        """Ask the next parameter that applies; when none is left, hand the answers back."""
        while True:
            self.index += 1
            if self.index >= len(self.spec.params):
                self.dismiss(self.args)
                return
            choices = self.enc.ruleset.param_choices(self.enc.state, self.spec.name, self.param, self.args)
            if choices == [] and self.param.optional:
                continue  # nothing to choose: the rule's default stands
            if choices == []:
                self.say(f"{self.param.label}: nothing can be chosen now (Esc to go back)")
                return
            self.show_question(choices)
            return

    def show_question(self, choices: list[Choice] | None) -> None:
        self.choices = choices or []
        field = self.query_one("#form-field", Vertical)
        field.remove_children()
        done = " · ".join(f"{k}: {v}" for k, v in self.shown.items() if v)
        self.query_one("#form-done", Static).update(Text(done))
        self.say("")
        p = self.param
        if choices is None:
            self.query_one("#form-question", Label).update(Text(f"{p.label}:"))
            box = Input(placeholder=p.label, classes="form-input",
                        type="integer" if p.kind == "int" else "text")
            field.mount(box)
            box.focus()
        elif p.kind == "multi":
            self.query_one("#form-question", Label).update(Text(f"{p.label} (space to tick, Enter when done):"))
            lst = TickList(*[(Text(c.label), c.value) for c in choices], classes="form-multi")
            field.mount(lst)
            lst.focus()
        else:
            self.query_one("#form-question", Label).update(Text(f"{p.label}:"))
            options = OptionList(*[Option(Text(c.label), id=c.value) for c in choices], classes="form-options")
            field.mount(options)
            if self.param.kind == "unit" and self.selected_unit in {c.value for c in choices}:
                options.highlighted = [c.value for c in choices].index(self.selected_unit)
            options.focus()

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

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option_list.parent is not self.query_one("#form-field") or self.index >= len(self.spec.params):
            return
        value = event.option.id or ""
        self.take(value, str(event.option.prompt) if value else "")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        value = event.value.strip()
        if not value and not self.param.optional:
            self.say(f"{self.param.label} is needed: type " + ("a number" if self.param.kind == "int" else "it"))
            return
        self.take(value if value else self.param.default, value)

    def action_confirm(self) -> None:
        """Enter on a list of several: take the ticked items (at least one, unless none is allowed)."""
        lists = self.query(TickList)
        if not lists or self.index >= len(self.spec.params):
            return
        picked = list(lists.last().selected)
        if not picked and not self.param.optional:
            self.say(f"{self.param.label}: tick at least one with space, then Enter")
            return
        self.take(picked, "+".join(picked))

    def action_cancel(self) -> None:
        self.dismiss(None)
