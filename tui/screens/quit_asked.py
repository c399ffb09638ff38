"""q in ``flagbridge new``: asked before it quits, since nothing of the walk-through is on disk yet.

The Footer shows "q Quit" on every list of the walk-through, as the start screen and the console do, so a
game master who wants out presses it; but a q pressed by mistake on a list (a letter meant for a name, say)
threw every answer away with no word. So q asks first, and only y quits; any other key goes on where the
walk-through stood. The console needs no question: there everything is already saved.
"""

from __future__ import annotations

QUIT_QUESTION = "Quit and lose these answers? y: quit · any other key: go on"


class QuitAsked:
    """Mix into a screen of the walk-through that takes its own keys and has ``say(text)``."""

    _quit_asked: bool = False

    def ask_quit(self) -> None:
        self._quit_asked = True
        self.say(QUIT_QUESTION)  # type: ignore[attr-defined]

    def quit_answered(self, key: str) -> bool:
        """The key after q, taken (True) when q was just pressed: y quits, any other key goes on."""
        if not self._quit_asked:
            return False
        self._quit_asked = False
        if key == "y":
            self.app.exit()  # type: ignore[attr-defined]
        else:
            self.say("")  # type: ignore[attr-defined]
        return True
