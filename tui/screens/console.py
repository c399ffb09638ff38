"""The console: the main screen a game master plays a fight on.

Every key sends one engine command (an action, a roll, undo, redo, a
correction) and then every panel is redrawn from the engine's state. Each
ruleset gets its own screen class whose BINDINGS hold its catalogue's actions
(``console_screen``); ``check_action`` shows exactly the ones possible now, so
the Footer never offers an action the rules would refuse, and a key for one
that is not possible says why. Digits typed while a roll is pending are the
physical dice.
"""

from __future__ import annotations

from typing import Any, Callable

from textual import events
from textual.app import ComposeResult
from textual.actions import parse as parse_action
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header

from engine.errors import FlagbridgeError
from engine.saves import SaveFile
from engine.resume import earlier_log

from ..commands import console_commands
from ..recent import remember_selected, selected_unit
from ..widgets.keybar import KeyBar
from ..widgets.panels import ChecklistPanel, DicePrompt, LinesPanel, LogPanel, RowsPanel, ShipsPanel, set_border

#: The console's two unit panels: their titles when the ruleset gives none, and their ids
UNIT_PANELS = {"Ship status": "status", "Armor and crew": "armor"}
LOG_REDRAW_EVENTS = 300  # the log is drawn afresh from this many events back
LOG_REFILL = 100  # fewer lines than this left after undos: the log is drawn afresh
DICE_KEYS = set("0123456789 ,")


class ConsoleScreen(Screen[None]):
    BINDINGS = [
        Binding("enter", "roll", "Roll", id="roll"),
        Binding("backspace", "unroll", "Erase", show=False, id="erase"),
        Binding("escape", "clear", "Clear", show=False, id="clear"),
        Binding("u", "undo", "Undo", id="undo"),
        Binding("ctrl+r", "redo", "Redo", id="redo"),
        Binding("c", "correct", "Correct", id="correct"),
        Binding("up", "select(-1)", "Ship up", show=False, id="ship-up"),
        Binding("down", "select(1)", "Ship down", show=False, id="ship-down"),
        Binding("ctrl+s", "save", "Save", id="save"),
        Binding("question_mark", "help", "Help", id="help"),
        Binding("v", "recap", "Recap", show=False, id="recap"),
        Binding("pageup", "scroll(-1)", "Scroll up", show=False, id="scroll-up"),
        Binding("pagedown", "scroll(1)", "Scroll down", show=False, id="scroll-down"),
        Binding("tab", "next_panel", "Panel to scroll", show=False, id="next-panel"),
        Binding("shift+tab", "next_panel(-1)", "Panel before", show=False, id="previous-panel"),
        Binding("slash", "search", "Search the log", show=False, id="search"),
    ]

    def __init__(self, save: SaveFile) -> None:
        try:
            classes = width_class(self.app)
        except Exception:  # noqa: BLE001 (made outside a running app: Textual adds the class at the first resize)
            classes = ""
        super().__init__(id="console", classes=classes)
        self.save = save
        self.enc = save.encounter
        self.ruleset = self.enc.ruleset
        ids = [uid for _k, uid, _u in self.ruleset.units(self.enc.state)]
        kept = selected_unit(save.path)  # the unit selected when this save was last closed, if it is still there
        self.selected = kept if kept in ids else ids[0] if ids else ""
        self._offers: dict[str, str] = {}  # action -> why not ("" when possible), as of the last redraw
        self._keys_state: tuple = ()  # what the key bindings' states were last worked out from
        self.typed = ""
        self.message = ""
        self._logged_events = -1
        self._seen_rewrites = len(self.enc.rewrites)  # the log's rewrites the Log's lines already show
        self._save_due = False
        self._in_command = False
        self._roll_armed = False  # Enter on an empty prompt asked once: the next Enter rolls
        self._quit_armed = False  # q with typed dice asked once: the next q quits
        self._undo_armed = ""  # u or ctrl+r with typed dice asked once: the same key again goes ahead
        self.searching: str | None = None  # the log search (or Ships filter) being typed (``/``), if any
        self._search_ships = False  # what ``/`` is typing: the Ships filter (Tab chose the Ships list) or the log search
        self.ship_filter = ""  # words a unit's name must hold to be listed
        self.scrolled = "log"  # the panel PageUp and PageDown move (Tab picks another)
        self._narrow_shown = "checklist"  # the one panel beside the Ships list under 120 columns
        self.enc.listeners.append(self._autosave)
        save.on_write_error = self._write_failed
        self._read_keys()  # before the Footer first shows the keys: it need not be built twice

    # --- layout --------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            yield ShipsPanel("Ships", id="ships")
            with Vertical(id="middle"):
                yield RowsPanel("Ship status", id="status")
                yield RowsPanel("Armor and crew", id="armor")
            with Vertical(id="right"):
                yield ChecklistPanel("Phase checklist", id="checklist")
                yield LinesPanel("Sensors", id="sensors")
        yield LogPanel()
        yield DicePrompt("", id="prompt")
        yield Footer()
        yield KeyBar()

    def on_mount(self) -> None:
        if self.enc.setup.start is not None:  # a resumed fight: say where its earlier log is
            kept = earlier_log(self.save.path)
            self.query_one(LogPanel).set_preamble(
                f"Resumed here from a saved state: the log before this point is in {kept.name}" if kept else
                "This fight starts from a saved state ([setup.start]): the log before it is not in this file")
        self.refresh_view()
        self.fit_layout()

    def on_resize(self) -> None:
        self.fit_layout()

    NARROW_PANELS = ("checklist", "status", "armor", "sensors")

    def fit_layout(self) -> None:
        """Under 120 columns one panel beside the Ships list, chosen by Tab; every panel when wide."""
        narrow = self.size.width < 120
        shown = self.scrolled if self.scrolled in self.NARROW_PANELS else self._narrow_shown
        self._narrow_shown = shown
        for pid in self.NARROW_PANELS:
            self.query_one(f"#{pid}").display = not narrow or pid == shown
        self.query_one("#middle").display = not narrow or shown in ("status", "armor")
        self.query_one("#right").display = not narrow or shown in ("checklist", "sensors")
        self.query_one(Footer).compact = narrow
        self.query_one(KeyBar).fit()
        self._set_title()

    def _set_title(self) -> None:
        """The header: the encounter, the ruleset, then where the fight stands; under 120 columns where it stands
        comes first, so the step is never the part the header cuts off."""
        enc, rs = self.enc, self.ruleset
        where = rs.header(enc.state)
        self.app.sub_title = (f"{where} · {enc.setup.name}" if self.size.width < 120
                              else f"{enc.setup.name} · {rs.id} · {where}")

    # --- drawing --------------------------------------------------------------------

    def refresh_view(self) -> None:
        """Redraw every panel from the engine (the only place the screen reads state)."""
        enc, rs, state = self.enc, self.ruleset, self.enc.state
        units = rs.units(state)
        shown = [u for u in units if self._ship_shown(u[1], u[2])]
        if self.selected not in {uid for _k, uid, _u in shown}:  # the first listed (none listed: still a unit)
            ids = [uid for _k, uid, _u in units]
            self.selected = shown[0][1] if shown else (self.selected if self.selected in ids else ids[0] if ids else "")
        self._set_title()
        sides = []
        for side in enc.setup.sides:
            rows = []
            for kind, uid, unit in shown:
                if unit.get("side") == side["id"]:
                    line, condition = rs.unit_line(state, kind, uid)
                    rows.append((uid, line, condition))
            sides.append((side["name"], rows))
        panel = self.query_one(ShipsPanel)
        set_border(panel, " · ".join(k.plural for k in rs.unit_kinds if state.get(k.key)),
                   f"filter: {self.ship_filter} ({len(shown)} of {len(units)})" if self.ship_filter.split() else "")
        panel.show(sides, self.selected, rs.unit_legend())
        kind = rs.unit_kind_of(state, self.selected) if self.selected else None
        panels = rs.unit_panels(state, kind, self.selected) if kind else {}
        name = state[kind.key][self.selected].get("name", self.selected) if kind else ""
        # The ruleset names its two panels for the unit shown ("Ship status", a person's "Body"...)
        titles = (list(panels) + ["", ""])[:2] if panels else list(UNIT_PANELS)
        for pid, title in zip(UNIT_PANELS.values(), titles):
            rows_panel = self.query_one(f"#{pid}", RowsPanel)
            set_border(rows_panel, title)
            rows_panel.show(panels.get(title, []), name)
        self.query_one(ChecklistPanel).show(enc.checklist(), rs.checklist_notes(state))
        sensors = rs.sensors(state)
        self.query_one("#sensors", LinesPanel).show(sensors if sensors is not None else
                                                    [f"{rs.id} has no sensor rules"])
        self._draw_log()
        self._draw_prompt()
        # Each refresh_bindings has the Footer rebuild all its keys (removed, mounted and styled anew):
        # asked only when what ``check_action`` reads did change, not after every key.
        if self._read_keys():
            self.refresh_bindings()

    def _read_keys(self) -> bool:
        """What ``check_action`` reads, from the engine; whether any of it changed."""
        enc = self.enc
        self._offers = {o.action.name: o.reason for o in enc.offers()}
        keys_state = (frozenset(name for name, why in self._offers.items() if not why), enc.pending is not None,
                      bool(self.typed), enc.can_undo, enc.can_redo)
        changed, self._keys_state = keys_state != self._keys_state, keys_state
        return changed

    def _draw_log(self) -> None:
        """Add the lines of new events; after an undo take off the lines of the events it removed, and after the
        log was played again from a place (a correction placed before the action whose rolls wait, or taken back
        from there: ``Encounter.rewrites``) those from that place on.

        Only the end of the log is ever read, so a key costs the same in a 50,000-event fight.
        """
        log = self.query_one(LogPanel)
        events = self.enc.events
        n = len(events)
        rewrites = self.enc.rewrites
        cut = min([n, *rewrites[self._seen_rewrites:]])
        self._seen_rewrites = len(rewrites)
        if n == self._logged_events and cut == n:
            return
        start = self._logged_events
        if 0 <= cut < start:  # an undo, or the log played again from a place the Log already shows
            log.truncate(cut, events[cut - 1].group if cut else None)
            start = cut
            if len(log.lines) < LOG_REFILL and log.first_event > 0:
                start = -1  # few lines left: draw the recent log again
        if start < 0:
            start = max(0, n - LOG_REDRAW_EVENTS)
            while 0 < start and events[start - 1].group == events[start].group:
                start -= 1  # from the start of a group
            log.clear(start)
        for i in range(start, n):
            ev = events[i]
            log.add_event(i, ev.group, ev.kind, self.enc.describe(ev), ev.notes)
        self._logged_events = n
        log.show()

    def _draw_prompt(self) -> None:
        req = self.enc.pending
        if req is not None:
            dice = req.on_the_dice()
            if dice.startswith("any roll"):
                dice = f"{dice} makes it"
            elif dice and not dice.startswith("no roll"):  # "6+ on 2D": what the dice themselves must show
                dice = f"the dice must show {dice}"
            line = req.describe() + (f" · {dice}" if dice else "")
            helps = tuple(self.ruleset.roll_help(self.enc.state, req))
            hint = ""
        else:
            line, helps = "", ()
            needs = next((s.needs for s in self.enc.checklist() if s.status in ("current", "skipped")
                          and s.needs), "")
            if needs == "the fight is over":
                hint = "The fight is over: v for the recap, u to take back the last action, q to quit"
            else:
                hint = f"Step needs: {needs}" if needs else "n: next step · ? help · ctrl+p every action by name"
        self.query_one(DicePrompt).show(line, self.typed, hint, self.message, helps)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Which keys work now. ``_read_keys`` lists what this reads: whatever is read here must be there too,
        or the Footer is not redrawn when it changes."""
        pending = self.enc.pending is not None
        if action == "act":
            return not self._offers.get(str(parameters[0]), "no such action")
        if action == "roll":
            return pending
        if action == "unroll":
            return pending and bool(self.typed) or None
        if action == "clear":  # the dice typed, or a kept log search or Ships filter (``action_clear``)
            return (pending and bool(self.typed)) or bool(self.query_one(LogPanel).search or self.ship_filter) \
                or None
        if action == "undo":
            return self.enc.can_undo or None
        if action == "redo":
            return self.enc.can_redo or None
        return True

    # --- doing ----------------------------------------------------------------------

    def run(self, command: Callable[[], Any]) -> bool:
        """Run one engine command; a refusal becomes the message under the prompt."""
        self._in_command = True
        try:
            try:
                command()
            except FlagbridgeError as exc:
                self.message = str(exc)
                self.refresh_view()
                return False
            finally:
                self._in_command = False
            self.message = ""
            self.refresh_view()
            return True
        finally:  # the save once the panels are drawn: a long one's writer thread then works beside the frame,
            self._write_save()  # not beside this key's own drawing

    def _autosave(self, _enc) -> None:
        """After every event, undo and redo: a short save is written at once (about a millisecond); a
        long one's text is taken now and written on the save's writer thread, so the key that caused
        it is not kept waiting for the disk. Either way a kill leaves a whole save. A key's own change
        is saved by ``run`` as soon as its panels are drawn.

        A change made outside this screen's keys (the palette, a test) redraws the panels too.
        """
        self._save_due = True
        if self._in_command:  # ``run`` writes it once the key's panels are drawn
            return
        self.call_later(self.refresh_view)
        self._write_save()

    def _write_save(self) -> None:
        if not self._save_due:
            return
        self._save_due = False
        try:
            self.save.save_soon()
        except (OSError, FlagbridgeError) as exc:
            self._save_failed(exc)

    def _write_failed(self, exc: BaseException) -> None:
        """A background write failed (called on the writer thread): said on the screen's own thread."""
        try:
            self.app.call_from_thread(self._save_failed, exc)
        except Exception:  # the app has gone; the error stays with the save for its flush
            pass

    def _save_failed(self, exc: BaseException) -> None:
        if isinstance(exc, OSError):
            self.message = f"autosave failed: {exc.strerror or exc} ({self.save.path}); ctrl+s to retry"
        else:
            self.message = f"autosave failed: {exc}"
        self._draw_prompt()

    def on_unmount(self) -> None:
        remember_selected(self.save.path, self.selected)
        self._write_save()
        try:
            self.save.flush()
        except Exception:  # already said on the screen; the last good save stays on disk
            pass

    def action_act(self, name: str) -> None:
        """Take an action: at once when it has no parameters, else through its form."""
        offer = next((o for o in self.enc.offers() if o.action.name == name), None)
        if offer is None or not offer.possible:
            self.message = f"{offer.action.label if offer else name}: {offer.reason if offer else 'no such action'}"
            self._draw_prompt()
            return
        if not offer.action.params:
            self.run(lambda: self.enc.act(name))
            return
        from .action import ActionScreen

        def done(args: dict) -> None:
            self.run(lambda: self.enc.act(name, **args))

        self.app.push_screen(ActionScreen(self.enc, offer.action, done, self.selected))

    def action_roll(self) -> None:
        typed, self.typed = self.typed.strip(), ""
        if typed:
            self.run(lambda: self.enc.type_roll(typed))
        else:
            self.run(self.enc.roll)

    def action_unroll(self) -> None:
        self.typed = self.typed[:-1]
        self._draw_prompt()

    def action_clear(self) -> None:
        """Esc: the dice typed; with none typed, a log search or Ships filter kept with Enter too (the search
        prompt says "Esc clears", and a kept search hides the new lines that do not match it)."""
        cleared = []
        if not self.typed.strip():
            log = self.query_one(LogPanel)
            if log.search:
                log.show("")
                cleared.append("Log search")
            if self.ship_filter:
                self.ship_filter = ""
                self.refresh_view()
                cleared.append("Ships filter")
        self.typed = ""
        self.message = f"{' and '.join(cleared)} cleared" if cleared else ""
        self._draw_prompt()

    def action_undo(self) -> None:
        self.typed = ""
        removed: list = []
        if self.run(lambda: removed.extend(self.enc.undo())):
            if removed:
                self._say_what("Undone", removed)
            else:
                self._nothing_to_undo()

    def action_redo(self) -> None:
        back: list = []
        if self.run(lambda: back.extend(self.enc.redo())):
            if back:
                self._say_what("Redone", back)
            else:
                self._nothing_to_redo()

    def _nothing_to_undo(self) -> None:
        """u (or the palette's Undo) with an empty log: said, as ctrl+r with nothing to redo is."""
        self.message = "Nothing to undo: the log is empty"
        self._draw_prompt()

    def _nothing_to_redo(self) -> None:
        """ctrl+r (or the palette's Redo) with nothing undone since the last new event: said, so a press that did
        nothing is not taken for one that was lost."""
        self.message = "Nothing to redo: ctrl+r puts back what u took back, until something new is done"
        self._draw_prompt()

    def _say_what(self, done: str, events: list) -> None:
        """'Undone: fire: ship Swift Dolan · turrets T3 ... (and its 2 rolls)' under the prompt. A correction made
        while the action's rolls waited that did not reach them joins its group (``Encounter.correct``) and goes
        with it: said as one, not counted as a roll, so a corrected value that changes back is not changed unsaid.
        One placed before the action is undone alone, and said as itself."""
        first = self.enc.describe(events[0], undone=done == "Undone")
        rolls = sum(1 for ev in events[1:] if ev.kind == "roll")
        fixes = sum(1 for ev in events[1:] if ev.kind == "correction")
        more = ([f"its {rolls} roll{'s' if rolls != 1 else ''}"] if rolls else []) + (
            [f"{fixes} correction{'s' if fixes != 1 else ''} made meanwhile"] if fixes else [])
        self.message = f"{done}: {first}" + (f" (and {', and '.join(more)})" if more else "")
        # the key is off once there is nothing more for it (check_action): said here, so a press then is not
        # taken for one more undo under the same line
        if done == "Undone" and not self.enc.can_undo:
            self.message += " · nothing more to undo"
        elif done == "Redone" and not self.enc.can_redo:
            self.message += " · nothing more to redo"
        self._draw_prompt()

    def action_save(self) -> None:
        try:
            self.save.save()
        except OSError as exc:
            self.message = f"save failed: {exc.strerror or exc}"
        else:
            self.message = ""
            self.notify(f"Saved {self.save.path}", timeout=2, markup=False)
        self._draw_prompt()

    def action_select(self, step: int) -> None:
        units = self.ruleset.units(self.enc.state)
        ids = [uid for _k, uid, unit in units if self._ship_shown(uid, unit)]  # the ships listed
        if ids:
            i = (ids.index(self.selected) + step) % len(ids) if self.selected in ids else 0
            self.selected = ids[i]
            self.refresh_view()

    def action_correct(self) -> None:
        from .correct import CorrectionScreen

        def back(recorded: bool | None) -> None:
            if recorded:
                self.message = ""  # a word about the key before (an undo, say) is not about this correction
            self.refresh_view()

        self.app.push_screen(CorrectionScreen(self.enc, self.selected), back)

    #: Tab's order: from the Log (PageUp's own) round the screen as it is drawn, the Ships list first.
    PANELS = ("log", "ships", "status", "armor", "checklist", "sensors")

    def action_scroll(self, step: int) -> None:
        """PageUp / PageDown: a page of the chosen panel (the Log unless Tab chose another)."""
        panel = self.query_one(f"#{self.scrolled}")
        panel.scroll_to(y=panel.scroll_y + step * max(1, panel.size.height - 1), animate=False)

    def action_next_panel(self, step: int = 1) -> None:
        """Tab (shift+Tab: back): the next panel for PageUp and PageDown, marked by its border."""
        self.query_one(f"#{self.scrolled}").remove_class("scrolling")
        self.scrolled = self.PANELS[(self.PANELS.index(self.scrolled) + step) % len(self.PANELS)]
        self.query_one(f"#{self.scrolled}").add_class("scrolling")
        self.fit_layout()
        self.message = f"PageUp / PageDown now scroll: {self.query_one(f'#{self.scrolled}').border_title}"
        self._draw_prompt()

    def action_search(self) -> None:
        """/: type words to show only the log lines holding all of them; Enter keeps, Esc clears.

        When Tab has chosen the Ships list, the words filter the ships by name instead.
        """
        self._search_ships = self.scrolled == "ships"
        self.searching = self.ship_filter if self._search_ships else self.query_one(LogPanel).search
        self._draw_search()

    def _draw_search(self) -> None:
        what = "Filter the ships by name" if self._search_ships else "Search the log"
        self.query_one(DicePrompt).show("", "", f"{what}: {self.searching}_  (Enter keeps it, Esc clears)", "")

    def _search_key(self, key: str, char: str | None) -> bool:
        if key in ("enter", "escape"):
            self._apply_search("" if key == "escape" else self.searching)
            self.searching = None
            self._draw_prompt()
            return True
        if key == "backspace":
            self.searching = self.searching[:-1]
        elif char is not None and char.isprintable():
            self.searching += char
        else:
            return False
        self._apply_search(self.searching)
        self._draw_search()
        return True

    def _apply_search(self, words: str) -> None:
        if self._search_ships:
            self.ship_filter = words
            self.refresh_view()
        else:
            self.query_one(LogPanel).show(words)

    def _ship_shown(self, uid: str, unit: dict) -> bool:
        """Whether the Ships list shows a unit under the filter: its name (or id) holds every word."""
        words = self.ship_filter.lower().split()
        name = f"{unit.get('name', '')} {uid}".lower() if words else ""
        return all(w in name for w in words)

    def palette_commands(self) -> list[tuple[str, str, object]]:
        """What ctrl+p lists here: the fight's actions first (``tui.commands``)."""
        return console_commands(self)

    def action_recap(self) -> None:
        from .recap import RecapScreen

        self.app.push_screen(RecapScreen(self.enc))

    def action_help(self) -> None:
        from .help import HelpScreen

        self.app.push_screen(HelpScreen(self.enc.offers(), self.ruleset.id))

    def _own_action(self, key: str) -> tuple[str, tuple] | None:
        """The action this screen binds ``key`` to (its own keys and the ruleset's), if any."""
        for binding in type(self).BINDINGS:
            if key in binding.key.split(","):
                namespace, name, args = parse_action(binding.action)
                if not namespace and hasattr(self, f"action_{name}"):
                    return name, args
        return None

    def take_key(self, event: events.Key) -> bool:
        """Handle one console key, in arrival order; True when it was the console's.

        The app hands every key here before any binding runs (bindings run a moment
        later than the key arrives, so a fast "Enter 2 Enter" could reach the dice
        prompt before the first roll was made); the bindings stay for the Footer.
        The built-in dice need a deliberate Enter: on an empty prompt the first
        Enter asks, the second rolls, so a stray Enter never rolls for the table.
        """
        key, char = event.key, event.character
        if self.searching is not None:
            return self._search_key(key, char)
        pending = self.enc.pending is not None
        armed, self._roll_armed = self._roll_armed, False
        quitting, self._quit_armed = self._quit_armed, False
        undoing, self._undo_armed = self._undo_armed, ""
        if pending and char is not None and char in DICE_KEYS:
            self.typed += char
            self.message = ""
            self._draw_prompt()
            return True
        if key == "enter" and pending:
            if self.typed.strip() or armed:
                self.action_roll()
            else:
                self._roll_armed = True
                self.message = "Enter again to roll the built-in dice, or type what the table rolled"
                self._draw_prompt()
            return True
        if key == "q":
            if self.typed.strip() and not quitting:
                self._quit_armed = True
                self.message = f"dice typed ({self.typed.strip()}) are not rolled yet: q again to quit, Esc to clear"
                self._draw_prompt()
                return True
            self.app.exit_saved()  # now, not by the app's binding: that runs after the keys behind q
            return True
        bound = self._own_action(key)
        if bound is not None and bound[0] in ("undo", "redo") and self.typed.strip() and undoing != bound[0] \
                and self.check_action(bound[0], bound[1]) is True:
            # a stray u among typed dice took the whole action back and dropped the dice: asked first, as q is
            self._undo_armed = bound[0]
            self.message = (f"dice typed ({self.typed.strip()}) are not rolled yet: {key} again to {bound[0]}, "
                            f"Esc to clear")
            self._draw_prompt()
            return True
        if bound is not None and not (pending and bound[0] == "act"):
            name, args = bound
            if name == "act":
                self.action_act(*args)  # says why when it is not possible
            elif self.check_action(name, args) is True:
                getattr(self, f"action_{name}")(*args)
            elif name == "redo":
                self._nothing_to_redo()
            elif name == "undo":
                self._nothing_to_undo()
            else:
                self._draw_prompt()  # a key that does nothing now: taken quietly
            return True
        if pending and char is not None and char.isprintable():
            # kept in what is typed, so Enter refuses the whole entry: dropped, "-1" was recorded as 1 and "x5" as 5
            self.typed += char
            self.message = f"{char!r} is not a die: Backspace, or Esc to clear"
            self._draw_prompt()
            return True
        return False


_SCREENS: dict[str, type[ConsoleScreen]] = {}


def width_class(app) -> str:
    """The app's breakpoint class for the terminal's width now (``App.HORIZONTAL_BREAKPOINTS``). A screen
    made with it is not restyled whole when Textual adds the class at its first resize."""
    width = app.size.width
    names = [name for least, name in sorted(app.HORIZONTAL_BREAKPOINTS or []) if width >= least]
    return names[-1] if names else ""


def console_screen(save: SaveFile) -> ConsoleScreen:
    """The console for a save, its class carrying the ruleset's actions as key bindings.

    The ruleset's actions come first so that a narrow Footer still shows them;
    ``check_action`` hides the ones not possible now.
    """
    rs = save.encounter.ruleset
    cls = _SCREENS.get(rs.id)
    if cls is None:
        own = {b.key for b in ConsoleScreen.BINDINGS}
        actions = [Binding(a.key, f"act('{a.name}')", a.label, id=f"action-{a.name}")
                   for a in rs.catalogue.actions.values() if a.key and a.key not in own]
        cls = type(f"ConsoleScreen_{rs.id.replace('-', '_')}", (ConsoleScreen,),
                   {"BINDINGS": actions + list(ConsoleScreen.BINDINGS) + list(Screen.BINDINGS)},
                   inherit_bindings=False)
        _SCREENS[rs.id] = cls
    return cls(save)
