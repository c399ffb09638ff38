"""The command palette (ctrl+p): every action that works now, by name, built from the console."""

from __future__ import annotations

from functools import partial

from textual.command import CommandPalette, DiscoveryHit, Hit, Hits, Provider


class Palette(CommandPalette):
    """Textual's palette, closed at most once.

    Two Enters in one burst select a command twice: the second would pop the
    console from under the palette, and run the command again. Only the palette
    on top may close itself, and each command runs once (``once``).
    """

    #: Keys wait (in the app) until the palette has its list: its search looks for it at once.
    keys_welcome = False

    def on_mount(self) -> None:
        self.call_after_refresh(self._welcome_keys)

    def _welcome_keys(self) -> None:
        self.keys_welcome = True

    def on_unmount(self) -> None:
        self.workers.cancel_node(self)  # however it closed, its search must not look for its list

    def dismiss(self, result=None):  # type: ignore[override]
        if self.app.screen is self:
            self.workers.cancel_node(self)  # its search must not look for its list once it is gone
            return super().dismiss(result)
        return None


def once(run):
    """A palette command that runs only the first time it is chosen."""
    done = []

    def run_once(*args):
        if not done:
            done.append(True)
            return run(*args)
    return run_once


def app_commands(app) -> list[tuple[str, str, object]]:
    """What Textual's own palette offers that a game master uses, after the fight's commands."""
    def switch_theme() -> None:
        app.theme = "textual-light" if app.current_theme.dark else "textual-dark"

    return [("Switch dark / light theme", "for a bright room or a dark one", switch_theme),
            ("Quit", "everything is already saved (q)", app.action_quit)]


class ListedCommands(Provider):
    """A provider whose commands are a list of (name, help, run), in the order they are shown."""

    def _commands(self) -> list[tuple[str, str, object]]:
        return []

    async def discover(self) -> Hits:
        for name, help_text, run in self._commands():
            yield DiscoveryHit(name, once(run), help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, help_text, run in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), once(run), help=help_text)


class AppCommands(ListedCommands):
    """The app's own commands on screens without a provider of their own (the console lists them last)."""

    def _commands(self) -> list[tuple[str, str, object]]:
        return [] if type(self.screen).COMMANDS else app_commands(self.app)



class ConsoleCommands(ListedCommands):
    """Legal actions of the ruleset, then undo, redo, save, correct and help."""

    def _commands(self) -> list[tuple[str, str, object]]:
        screen = self.screen
        enc = getattr(screen, "enc", None)
        if enc is None:
            return []
        out = [(a.label, f"{enc.ruleset.id} action" + (f" (key {a.key})" if a.key else ""),
                partial(screen.action_act, a.name)) for a in enc.legal_actions()]
        if enc.pending is not None:
            out.append(("Roll the pending dice", enc.pending.describe(), screen.action_roll))
        out += [
            ("Undo", "take back the last action and its rolls (u)", screen.action_undo),
            ("Redo", "re-apply what was undone (ctrl+r)", screen.action_redo),
            ("Correct a value", "edit any value by hand, logged as a correction (c)", screen.action_correct),
            ("Recap", "this turn so far, and the fight since it began (v)", screen.action_recap),
            ("Save now", "write the save file (ctrl+s)", screen.action_save),
            ("Help", "every key (?)", screen.action_help),
        ]
        return out + app_commands(screen.app)
