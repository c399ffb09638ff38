"""The Flagbridge Textual app: which screen opens first, the save it works on, quitting.

The app only renders engine state and sends engine commands; every rule lives
in a ruleset. It opens on the console (a save), the start screen, the
new-encounter screen, or the load-error screen when a save would not load.
"""

from __future__ import annotations

from pathlib import Path

from textual import events
from textual.app import App
from textual.binding import Binding

from engine.saves import SaveFile


#: Esc and a digit (or - or =) typed fast reach Textual as one sequence, which it reads as the character
#: macOS's Option key makes with that key (for WezTerm): "∞" for Esc then 5. Outside a text field none of
#: them means anything here, so each is taken as the Esc and the key the game master typed.
OPTION_CHARACTERS = {"¡": "1", "™": "2", "£": "3", "¢": "4", "∞": "5", "§": "6", "¶": "7", "•": "8", "ª": "9",
                     "º": "0", "–": "-", "≠": "="}
_KEY_NAMES = {"-": "minus", "=": "equals_sign"}


#: What Textual's parser makes of Esc and a letter typed fast, beside ``alt+letter``: iTerm's word keys (ESC f,
#: ESC b), and, when more keys follow in the same read, the Esc alone as a caret (ESC d Down: ``^``, ``d``,
#: ``down``). A real ctrl+arrow or caret has no use outside a text field.
_ESCAPE_READ_AS = {"ctrl+right": "f", "ctrl+left": "b", "circumflex_accent": ""}


def escape_then_key(event: events.Key, typing: bool = False) -> tuple[events.Key, ...] | None:
    """Esc followed quickly by a key reaches us as one ``alt+key`` (the terminal sends ESC then the
    key, and the two cannot be told from Alt held down). No screen binds an Alt key, so it is
    always Esc then that key, which is what the game master typed. Esc and a digit come as an
    Option character (``OPTION_CHARACTERS``), taken apart the same way unless a text field is
    being typed in (``typing``), where the character itself may be meant."""
    if not typing and event.key in _ESCAPE_READ_AS and event.character in (None, "^"):
        after = _ESCAPE_READ_AS[event.key]
        return (events.Key("escape", "\x1b"),) + ((events.Key(after, after),) if after else ())
    key = OPTION_CHARACTERS.get(event.character or "") if not typing else None
    if key is not None:
        return events.Key("escape", "\x1b"), events.Key(_KEY_NAMES.get(key, key), key)
    if not event.key.startswith("alt+"):
        return None
    rest = event.key[len("alt+"):]
    if rest.startswith("shift+"):
        rest = rest[len("shift+"):].upper()
    if len(rest) != 1:
        return None
    return events.Key("escape", "\x1b"), events.Key(rest, rest)


class FlagbridgeApp(App[None]):
    CSS_PATH = "flagbridge.tcss"
    #: ctrl+p opens our own palette (``action_command_palette``); Textual's is not used.
    COMMANDS: set = set()
    TITLE = "Flagbridge"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]
    BINDINGS = [
        Binding("q", "quit", "Quit", id="quit"),
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True, id="quit-anywhere"),
    ]

    def __init__(self, save: SaveFile | None = None, *, save_dir: Path = Path("saves"),
                 start: str = "console", load_error: str = "", error_path: Path | None = None) -> None:
        super().__init__()
        self.save = save
        self.save_dir = Path(save_dir)
        self.start = start
        self.load_error = load_error
        self.error_path = error_path
        self._held: list[events.Key] = []  # keys waiting for the top screen to be built
        self._to_remember: Path | None = None  # the save to put first in the recent-saves list
        #: set by a quit: the keys behind it are dropped, so the save is the fight as the quit found it
        self.quitting = False

    def get_default_screen(self):
        """With a save to open, the console is the first screen: no empty screen laid out first."""
        if self.save is not None and not self.load_error:
            from .screens.console import console_screen

            self.sub_title = self.save.encounter.setup.name
            self._to_remember = self.save.path  # the recent-saves list is a convenience: after the first frame
            self.call_after_refresh(self._remember)
            return console_screen(self.save)
        return super().get_default_screen()

    def _remember(self) -> None:
        path, self._to_remember = self._to_remember, None
        if path is not None:
            from .recent import remember

            remember(path)

    def on_unmount(self) -> None:
        self._remember()  # an app closed before its first frame still lists its save
        if self.save is not None:  # every event is saved already: another console may open it once this one is gone
            self.save.release()

    def on_mount(self) -> None:
        if self.save is not None and not self.load_error:
            return  # the console is already the default screen
        if self.load_error:
            from .screens.load_error import LoadErrorScreen

            self.push_screen(LoadErrorScreen(self.load_error, self.error_path))
        elif self.save is not None:
            self.open_console(self.save)
        elif self.start == "new":
            from .screens.setup import SetupScreen

            self.push_screen(SetupScreen(self.save_dir, first=True))
        else:
            from .screens.start import StartScreen

            self.push_screen(StartScreen(self.save_dir))

    def open_console(self, save: SaveFile) -> None:
        from .recent import remember
        from .screens.console import console_screen

        self.save = save
        self.sub_title = save.encounter.setup.name
        remember(save.path)
        screen = console_screen(save)
        from textual.screen import ModalScreen

        # a form or the palette a burst's key opened over the screen that opens the fight (the setup's last
        # Enter, then ctrl+p) closes with it: the console takes that screen's place, never the form's
        while len(self.screen_stack) > 2 and isinstance(self.screen, ModalScreen):
            self.pop_screen()
        self.switch_screen(screen) if len(self.screen_stack) > 1 else self.push_screen(screen)

    def open_path(self, path: Path) -> None:
        """Open a save from the start screen; a bad file shows the load-error screen. A long one opens on a
        thread of its own behind a progress bar (``screens.opening``), so the screen never freezes."""
        from engine.errors import FlagbridgeError

        from .launch import long_save

        if long_save(path):
            from .screens.opening import OpeningScreen

            self.push_screen(OpeningScreen(path))
            return
        try:
            save = SaveFile.load(path, hold=True)
        except (FlagbridgeError, OSError, ValueError) as exc:
            from .screens.load_error import LoadErrorScreen

            self.push_screen(LoadErrorScreen(str(exc), path))
            return
        self.open_console(save)

    async def on_event(self, event: events.Event) -> None:
        """Keys go first to the screen's own ``take_key``, here, one at a time in arrival order.

        Handed on through Textual's queues, a key typed right after one that opens
        or closes a screen could reach the screen it was not meant for; taken here,
        each key sees everything the keys before it did. Keys that arrive while the
        top screen is still being built wait for it, in order (Textual's command
        palette looks for its list as soon as a key reaches it).
        """
        if isinstance(event, events.Key) and not event.is_forwarded:
            if self.quitting:
                return
            split = escape_then_key(event, (event.character in OPTION_CHARACTERS or event.key in _ESCAPE_READ_AS)
                                    and self._typing())
            if split is not None:  # Esc and a key typed fast arrive as one alt+key: take them as typed
                for key in split:
                    await self.on_event(key)
                return
            if self._held or not self._screen_ready():
                self._held.append(event)
                self.set_timer(0.01, self._release_keys)
                return
            await self._take(event)
            return
        await super().on_event(event)

    def _typing(self) -> bool:
        """A text field has the focus (where an Option character may be meant as itself)."""
        typing = getattr(self.screen, "typing_text", None)  # a screen that takes its own keys says
        if typing is not None:
            return bool(typing)
        focused = self.focused
        if focused is None:
            return False
        from textual.widgets import Input

        return isinstance(focused, Input)

    def _screen_ready(self) -> bool:
        return self.screen.is_mounted and getattr(self.screen, "keys_welcome", True)

    async def _take(self, event: events.Key) -> None:
        take = getattr(self.screen, "take_key", None)
        if take is not None and take(event):
            self.app_focus = True
            return

        await super().on_event(event)

    async def _release_keys(self) -> None:
        while self._held and self._screen_ready():
            await self._take(self._held.pop(0))
        if self._held:
            self.set_timer(0.01, self._release_keys)

    def action_command_palette(self) -> None:
        """ctrl+p: the console's commands, the fight's actions first (``screens.palette``).

        Only from a full screen: over a form, a view (help, recap, forecast), the unit editor or the palette
        itself it opens nothing, as their Footers show (a modal screen's Footer lists none of the app's keys).
        There it could offer only the theme and a Quit, and that Quit threw the walk-through's answers away
        unasked, where the editor's q asks first."""
        from textual.screen import ModalScreen

        from .commands import app_commands
        from .screens.palette import PaletteScreen

        if isinstance(self.screen, ModalScreen):
            return
        listed = getattr(self.screen, "palette_commands", None)
        self.push_screen(PaletteScreen(listed() if listed is not None else app_commands(self)))

    def exit_saved(self) -> None:
        """Quit at once, from the palette or the console's q (the save is already current).

        Taken in the order the keys came: Textual runs the app's q binding only after the keys behind it in
        the same burst, so "q u" had undone the last action and autosaved that before quitting."""
        self.quitting = True
        self.run_worker(self.action_quit(), exclusive=True)

    async def action_quit(self) -> None:
        """Quit; the save on disk is already current (autosaved after every event). No key after this one
        is played (``quitting``)."""
        self.quitting = True
        if self.save is not None:
            try:
                self.save.save()
            except OSError:
                pass
        self.exit()
