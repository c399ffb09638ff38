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
    end of ``on_mount``.

    A letter such as q (the app's Quit) needs no binding to be typed here: the app hands every key to
    ``take_key`` before any binding runs, and on a modal screen Textual never looks past the screen's own
    bindings to the app's (``tests/tui/test_form_keys.py``)."""

    _early: list[events.Key]
    _ready: bool = False
    #: The character each Footer key stands for, for ``action_press``.
    _CHARACTERS: dict[str, str] = {}

    def action_press(self, key: str) -> None:
        """A key of the Footer clicked: the screen takes it as if typed."""
        self.form_key(events.Key(key, self._CHARACTERS.get(key)))  # type: ignore[attr-defined]

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


def field_key(widget: object, key: str, char: str | None) -> bool | None:
    """A key put straight into a Textual field, at once, by its public actions: True when taken, None for
    Enter (the screen answers with what the field holds now), False for a key the field has no use for.

    A screen that takes its keys itself (``take_key``) puts them here rather than through Textual's queues:
    a key typed right after an Enter that asks the next question then goes into the next question's field,
    not the last one's (``flagbridge new`` read "Alley Enter Crew Enter", typed at once, as "AlleyCrew").
    """
    from textual.widgets import Input, OptionList, SelectionList
    from textual.widgets.input import Selection

    if key == "enter":
        return None
    if isinstance(widget, Input):
        whole = widget.selection
        if whole.start == 0 and whole.end == len(widget.value) > 0 and (key == "backspace" or (
                char is not None and len(char) == 1 and char.isprintable())):
            # an old value shown selected is there to be replaced: typing takes its place, Backspace edits it
            widget.value = widget.value[:-1] if key == "backspace" else char
            widget.selection = Selection.cursor(len(widget.value))
            return True
        edits = {"backspace": widget.action_delete_left, "delete": widget.action_delete_right,
                 "left": widget.action_cursor_left, "right": widget.action_cursor_right,
                 "home": widget.action_home, "end": widget.action_end, **line_edits(widget)}
        if key in edits:
            edits[key]()
        elif char is not None and len(char) == 1 and char.isprintable():
            widget.insert_text_at_cursor(char)  # refused there when the field's type does not allow it
        else:
            return False
        return True
    if isinstance(widget, OptionList):
        moves = {"up": widget.action_cursor_up, "down": widget.action_cursor_down,
                 "home": widget.action_first, "end": widget.action_last}
        if key in moves:
            moves[key]()
            return True
        if key in ("pageup", "pagedown"):
            page(widget, 10 if key == "pagedown" else -10)
            return True
        if char is not None and len(char) == 1 and char.isprintable() and char != " " \
                and not isinstance(widget, SelectionList):  # the next choice beginning with it ("2" picks "2")
            count = widget.option_count
            at = widget.highlighted if widget.highlighted is not None else -1
            for step in range(1, count + 1):
                i = (at + step) % count
                if str(widget.get_option_at_index(i).prompt).strip().lower().startswith(char.lower()):
                    widget.highlighted = i
                    return True
            return False
        if key == "space" and isinstance(widget, SelectionList):
            if widget.highlighted is not None:
                option = widget.get_option_at_index(widget.highlighted)
                if not option.disabled:
                    widget.toggle(option.value)
            return True
        return False
    return False


def line_edits(widget) -> dict:
    """The line-editing keys Textual's ``Input`` binds (Textual 8.2: ctrl+u deletes to the start of the line,
    ctrl+k to its end, ctrl+w the word before the cursor; ctrl+a and ctrl+e go to the start and the end, ctrl+d
    deletes the character under the cursor), run at once by their public actions.

    Left to Textual, such a key went through its queue to whichever widget had the focus when it got there: in a
    burst that was after the keys typed behind it had gone in (ctrl+u then cleared them too), or a question's field
    that had been replaced, so nothing was cleared ("  IMPERIAL NAVY ", ctrl+u, "Corsairs" gave
    "IMPERIAL NAVY Corsairs", found by a game master's drive)."""
    return {"ctrl+u": widget.action_delete_left_all, "ctrl+k": widget.action_delete_right_all,
            "ctrl+w": widget.action_delete_left_word, "ctrl+a": widget.action_home, "ctrl+e": widget.action_end,
            "ctrl+d": widget.action_delete_right}


def page(widget, rows: int) -> None:
    """Move a list's highlight by ``rows``, within the list: no layout needed. Textual's own page keys read the
    rows drawn, which a burst of keys can outrun right after the list is mounted or shown again (KeyError in
    ``OptionList._move_page``, found by random keys on the start screen)."""
    count = widget.option_count
    if count:
        at = widget.highlighted if widget.highlighted is not None else 0
        widget.highlighted = max(0, min(count - 1, at + rows))


class PagedList:
    """Page keys for an ``OptionList`` (or a ``SelectionList``) by ``page``: ten rows at a time."""

    def action_page_up(self) -> None:
        page(self, -10)

    def action_page_down(self) -> None:
        page(self, 10)
