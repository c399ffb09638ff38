"""Keys for a screen that takes them itself: held while it is being built, then taken in order.

The app hands each key to the top screen's ``take_key`` as it arrives. A screen
just pushed has not composed its widgets yet, so the keys typed right after the
one that opened it wait here; once it is mounted they are taken in the order
they came, and any left when the screen has already closed go on to the screen
under it.
"""

from __future__ import annotations

from textual import events


class KeyedScreenMixin:
    """Mix into a Screen that defines ``form_key(event) -> bool``; call ``keys_ready()`` at the
    end of ``on_mount``."""

    _early: list[events.Key]
    _ready: bool = False

    def take_key(self, event: events.Key) -> bool:
        if not self._ready:
            self.__dict__.setdefault("_early", []).append(event)
            return True
        return self.form_key(event)  # type: ignore[attr-defined]

    def keys_ready(self) -> None:
        self._ready = True
        early, self._early = self.__dict__.get("_early", []), []
        for event in early:
            if self.app.screen is self:  # type: ignore[attr-defined]
                self.form_key(event)  # type: ignore[attr-defined]
                continue
            take = getattr(self.app.screen, "take_key", None)  # type: ignore[attr-defined]
            if take is not None:
                take(event)
