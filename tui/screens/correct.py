"""Manual correction of any value: pick it (type to filter), type the new value and an optional note.

It becomes a correction event. The engine checks the value as it checks files
and the live fight (``engine.corrections``); a refusal is shown under the field
and nothing is recorded. While a roll waits, the line under the field says
whether the roll will be asked with the new value, which roll the rules will
ask in its place, or why it keeps the numbers it was asked with
(``Encounter.waiting_roll_note``). Like every form, the
screen takes its keys itself, in arrival order (``take_key``).
"""

from __future__ import annotations

from typing import Callable

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Label, Static

from engine.corrections import names_text, typed_as_names, value_text
from engine.encounter import Encounter
from engine.errors import FlagbridgeError
from engine.state import get_path, parse_path, path_text

from ..widgets.picker import Item, LineEdit, Picker
from .keyed import KeyedScreenMixin


#: Top-level tables no correction reaches: the rolls waiting (undo the action instead) and the table files named.
NOT_CORRECTED = ("pending", "table_files")


def editable_values(state: dict, unit_id: str, unit_key: str = "ships",
                    unit_keys: tuple[str, ...] = (),
                    whole: Callable[[tuple], bool] | None = None) -> list[tuple[str, object]]:
    """Every single value of the selected unit, then the fight's own values: its top-level ones, then those of
    its other tables (a side's tactics pool, what a side's sensors hold of this unit, the range to it, its
    attacks) that are not another unit's. ``unit_keys``: the tables of units (``ships``...), whose other units
    are left out (a fleet's other hundred ships, and their attacks, would bury the one picked). ``whole``: the
    lists the ruleset has corrected whole, as names (``engine.corrections.typed_as_names``), each listed as one
    value, empty or not, in place of its entries."""
    out: list[tuple[str, object]] = []
    others = {uid for key in unit_keys for uid in (state.get(key) or {}) if uid != unit_id}

    def names_another(key: object) -> bool:  # a key of another unit's, or of a pair ("a|b") without this one
        if not isinstance(key, str):
            return False
        parts = key.split("|")
        return unit_id not in parts and any(part in others for part in parts)

    def about_another(record: dict) -> bool:  # a record of the fight's (an attack) naming other units, not this one
        named = {v for v in record.values() if isinstance(v, str)}
        return unit_id not in named and not named.isdisjoint(others)

    def walk(node: object, path: tuple, fight: bool = True) -> None:
        if isinstance(node, dict):
            if fight and about_another(node):
                return
            for k, v in node.items():
                if not (fight and names_another(k)):
                    walk(v, path + (k,), fight)
        elif isinstance(node, list):
            if whole is not None and whole(path):
                out.append((path_text(path), node))
                return
            for i, v in enumerate(node):
                walk(v, path + (i,), fight)
        else:
            out.append((path_text(path), node))

    if unit_id in state.get(unit_key, {}):
        walk(state[unit_key][unit_id], (unit_key, unit_id), fight=False)
    tables = []
    for k, v in state.items():
        if k in NOT_CORRECTED or k in unit_keys or k == unit_key:
            continue
        if isinstance(v, (dict, list)):
            tables.append((k, v))
        else:
            out.append((k, v))
    for k, v in tables:
        walk(v, (k,))
    return out


def with_entry_ids(state: dict, path: str) -> str:
    """The path with each list entry that has an id named by it too: 'batteries[0] (B1-1).spinal', as the panels
    name the battery (and as a game master types it into the filter)."""
    node: object = state
    out: list[str] = []
    for key in parse_path(path):
        try:
            node = node[key]  # type: ignore[index]
        except (KeyError, IndexError, TypeError):
            return path
        if isinstance(key, int):
            entry_id = node.get("id") if isinstance(node, dict) else None
            out[-1] += f"[{key}]" + (f" ({entry_id})" if isinstance(entry_id, str) and entry_id else "")
        else:
            out.append(str(key))
    return ".".join(out)


def label_of(path: str, value: object, unit_key: str, unit_id: str, unit_name: str,
             names: dict[str, str] | None = None, state: dict | None = None) -> str:
    """'Swift Dolan: turrets[0] (T1).count = 1' rather than 'ships.swift-dolan.turrets[0].count'; the fight's
    values name the units in their keys ('ranges.Red Lantern|Vigilance', not 'ranges.corsair|patrol')."""
    if state is not None:
        path = with_entry_ids(state, path)
    prefix = f"{unit_key}.{unit_id}."
    if path.startswith(prefix):
        shown = f"{unit_name}: {path[len(prefix):]}"
    else:
        shown = ".".join("|".join((names or {}).get(part, part) for part in key.split("|"))
                         for key in path.split("."))
    if isinstance(value, list):  # a list of names corrected whole, as it is typed
        return f"{shown.replace('_', ' ')} = {names_text(value) or '(none)'}"
    return f"{shown.replace('_', ' ')} = {value_text(value)}"  # as the log words it: true, not True


class CorrectionScreen(KeyedScreenMixin, ModalScreen[bool]):
    """Its own Footer names the form's keys at each stage, as the action form's: the console's, showing through,
    offered n Next step, u Undo and q Quit, letters the form types into its filter and its field. The keys reach
    ``form_key`` first; the bindings feed the Footer, and a click on one does what its key does."""

    BINDINGS = [
        Binding("enter", "press('enter')", "Choose", id="correct-choose"),
        Binding("enter", "press_value", "Go to the note", id="correct-value"),
        Binding("enter", "press_note", "Record", id="correct-record"),
        Binding("escape", "press('escape')", "Cancel", key_display="esc", id="correct-cancel"),
    ]
    _CHARACTERS = {"enter": "\r", "escape": "\x1b"}
    #: the action behind Enter at each stage
    _ENTER = {"pick": ("press", ("enter",)), "value": ("press_value", ()), "note": ("press_note", ())}

    def __init__(self, enc: Encounter, unit_id: str) -> None:
        super().__init__(classes="form")
        self.enc = enc
        self.unit_id = unit_id
        kind = enc.ruleset.unit_kind_of(enc.state, unit_id)
        self.unit_key = kind.key if kind else ""
        self.path = ""
        self.value = ""
        self.stage = "pick"  # then "value", then "note"
        self.recorded = False
        self.names: dict[str, str] = {}  # unit ids to names, for the fight's values that name units
        unit = enc.state.get(self.unit_key, {}).get(unit_id, {})
        self.unit_name = str(unit.get("name", unit_id) if isinstance(unit, dict) else unit_id)

    def compose(self) -> ComposeResult:
        with Vertical(id="form-box") as box:
            box.border_title = Text(f"Correct a value of {self.unit_name}" if self.unit_key else "Correct a value")
            yield Label("Choose the value to correct (type to filter, Enter), or Esc; up/down in the console "
                        "first chooses another unit:", id="form-question")
            yield Picker(rows=14, id="form-options")
            yield LineEdit(id="form-input")
            yield Static("", id="form-message")
            yield Label("The correction is logged as an event: u undoes it.", id="form-help")
        yield Footer()

    def on_mount(self) -> None:
        state, keys = self.enc.state, tuple(k.key for k in self.enc.ruleset.unit_kinds)
        self.names = {uid: str(u.get("name", uid)) for key in keys for uid, u in (state.get(key) or {}).items()
                      if isinstance(u, dict)}
        ruleset = self.enc.ruleset
        items = [Item(p, label_of(p, v, self.unit_key, self.unit_id, self.unit_name, self.names, state))
                 for p, v in editable_values(state, self.unit_id, self.unit_key, keys,
                                             whole=lambda path: typed_as_names(ruleset, path))]
        self.query_one(Picker).load(items)
        self.query_one(LineEdit).display = False
        self.keys_ready()

    def say(self, text: str) -> None:
        self.query_one("#form-message", Static).update(Text(text))

    @property
    def typing_text(self) -> bool:
        return self.stage != "pick" and not self.recorded

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter is named for what it does at this stage; False hides the others (and a click on them). A form
        closed leaves its keys to the app and the screen under it."""
        if self.recorded:
            return False
        if action in ("press_value", "press_note") or (action == "press" and parameters == ("enter",)):
            return self._ENTER[self.stage] == (action, tuple(parameters))
        return True

    def action_press_value(self) -> None:
        self.action_press("enter")

    def action_press_note(self) -> None:
        self.action_press("enter")

    def to_stage(self, stage: str) -> None:
        self.stage = stage
        self.refresh_bindings()  # the Footer's Enter follows the stage

    def form_key(self, event: events.Key) -> bool:
        """Handle one key of the form, in arrival order; True when it was the form's."""
        if self.recorded:
            return False  # the correction is in the log: later keys are the console's
        key, char = event.key, event.character
        if key == "escape":
            self.recorded = True
            self.dismiss(False)
            return True
        if self.stage == "pick":
            picker = self.query_one(Picker)
            taken = picker.take(key, char)
            if taken is not None:
                return taken
            if picker.state.current is None:
                self.say("nothing matches: Backspace clears the filter")
            else:
                self._chosen(picker.state.current.value)
            return True
        line = self.query_one(LineEdit)
        taken = line.take(key, char)
        if taken is None:
            self._submit(line.value)
            return True
        return taken

    def words(self, path: str) -> str:
        """'Swift Dolan: fuel' for 'ships.swift-dolan.fuel': the value as the list named it."""
        return label_of(path, "", self.unit_key, self.unit_id, self.unit_name, self.names,
                        self.enc.state).rsplit(" = ", 1)[0]

    @property
    def typing_names(self) -> bool:
        """The value chosen is a list of names, typed whole with commas between (``editable_values``)."""
        return typed_as_names(self.enc.ruleset, parse_path(self.path))

    def _chosen(self, path: str) -> None:
        self.path = path
        self.to_stage("value")
        self.query_one(Picker).display = False
        line = self.query_one(LineEdit)
        line.display = True
        old = get_path(self.enc.state, parse_path(path))
        shown = names_text(old) if self.typing_names else str(old)
        line.set(shown, fresh=True)
        self.query_one("#form-question", Label).update(Text(f"New value for {self.words(path)} "
                                                            f"({self._how(shown)}; Enter):"))

    def _how(self, old: str) -> str:
        """How to type the value: Backspace is offered only when the field holds an old value to edit (an empty
        list of names, nothing shut down, holds none)."""
        if self.typing_names:
            return ("names separated by commas, empty for none; Backspace edits the old one" if old
                    else "none now; type names separated by commas")
        return "type it; Backspace edits the old one" if old else "empty now; type it"

    def _submit(self, typed: str) -> None:
        if self.stage == "value":
            if not typed.strip() and not self.typing_names:
                self.say("type a value (the field is empty)")
                return
            try:
                self.enc.check_correction(self.path, typed)
                # while a roll waits: what will be asked once it is recorded (``waiting_roll_note``)
                waiting = self.enc.waiting_roll_note(self.path, typed)
            except FlagbridgeError as exc:
                self.say(str(exc))
                return
            self.value = typed
            self.to_stage("note")
            self.say(waiting)
            self.query_one(LineEdit).set("")
            shown = typed.strip() or "(none)"
            self.query_one("#form-question", Label).update(Text(f"A note for the log (optional), Enter to record "
                                                                f"{self.words(self.path)} = {shown}:"))
            return
        try:
            self.enc.correct(self.path, self.value, note=typed.strip() or "by hand")
        except FlagbridgeError as exc:
            self.say(str(exc))
            self.to_stage("value")
            self.query_one(LineEdit).set(self.value)
            self.query_one("#form-question", Label).update(Text(f"New value for {self.words(self.path)} (Enter):"))
            return
        self.recorded = True
        self.dismiss(True)
