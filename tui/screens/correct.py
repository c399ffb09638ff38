"""Manual correction of any value: pick it, type the new value; it becomes a correction event.

The engine checks the value against the kind of value it replaces; a refusal is
shown under the field and nothing is recorded.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from engine.encounter import Encounter
from engine.errors import FlagbridgeError
from engine.state import parse_path, path_text


def editable_values(state: dict, unit_id: str, unit_key: str = "ships") -> list[tuple[str, object]]:
    """Every single value of the selected unit, then the fight's own top-level values."""
    out: list[tuple[str, object]] = []

    def walk(node: object, path: tuple) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, path + (k,))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, path + (i,))
        else:
            out.append((path_text(path), node))

    if unit_id in state.get(unit_key, {}):
        walk(state[unit_key][unit_id], (unit_key, unit_id))
    for k, v in state.items():
        if k != "pending" and not isinstance(v, (dict, list)):
            out.append((k, v))
    return out


class CorrectionScreen(ModalScreen[bool]):
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="cancel-correction")]

    def __init__(self, enc: Encounter, unit_id: str) -> None:
        super().__init__(classes="form")
        self.enc = enc
        self.unit_id = unit_id
        kind = enc.ruleset.unit_kind_of(enc.state, unit_id)
        self.unit_key = kind.key if kind else ""
        self.path = ""
        self.recorded = False

    def compose(self) -> ComposeResult:
        with Vertical(id="form-box") as box:
            box.border_title = "Correct a value"
            yield Label("Choose the value to correct (Enter), or Esc:", id="form-question")
            yield OptionList(*[Option(Text(f"{p} = {v!r}"), id=p) for p, v in
                               editable_values(self.enc.state, self.unit_id, self.unit_key)], id="form-options")
            yield Input(placeholder="new value", id="form-input", disabled=True, select_on_focus=False)
            yield Static("", id="form-message")
            yield Label("The correction is logged as an event: u undoes it.", id="form-help")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.path = str(event.option.id)
        box = self.query_one("#form-input", Input)
        box.disabled = False
        from engine.state import get_path

        box.value = str(get_path(self.enc.state, parse_path(self.path)))
        box.cursor_position = len(box.value)
        self.query_one("#form-question", Label).update(Text(f"New value for {self.path} (Enter):"))
        box.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self.recorded:
            return  # a second Enter in the same burst: the correction is already in the log
        if not event.value.strip():
            self.query_one("#form-message", Static).update("type a value (the field is empty)")
            return
        try:
            self.enc.correct(self.path, event.value, note="by hand")
        except FlagbridgeError as exc:
            self.query_one("#form-message", Static).update(Text(str(exc)))
            return
        self.recorded = True
        self.dismiss(True)

    def action_cancel(self) -> None:
        self.dismiss(False)
