"""The keys that work now, wrapped over as many lines as the width needs.

Textual's Footer keeps to one line and cuts whatever does not fit, so at 80 columns
the console lost `c`, `ctrl+s`, `?` and `q`. The console shows this bar instead
whenever its keys would not fit on one line; it reads the same bindings the Footer
does (``Screen.active_bindings``, refreshed on ``bindings_updated_signal``), so the
two never disagree about what a key does now.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Footer, Static

GAP = "  "
PALETTE_KEY = 12  # the Footer's "^p palette" at its right end
PALETTE = ("^p", "palette")  # shown only when it fits on the last line: the prompt names ctrl+p too


class KeyBar(Static):
    """Key and label pairs packed into lines; a pair is never split between lines."""

    DEFAULT_CSS = """
    KeyBar {
        dock: bottom;
        height: auto;
        max-height: 4;
        background: $footer-background;
        color: $footer-description-foreground;
    }
    """

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self.fit()

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def on_resize(self) -> None:
        self.redraw()

    def _bindings_changed(self, _screen) -> None:
        self.fit()

    def fit(self) -> None:
        """Show this bar, and hide the Footer, when the keys would not fit on the Footer's one line."""
        footer = self.screen.query_one(Footer)
        wrap = self.one_line_width() + PALETTE_KEY > self.screen.size.width
        self.display = wrap
        footer.display = not wrap
        if wrap:
            self.redraw()

    def pairs(self) -> list[tuple[str, str]]:
        """(key as shown, label) for each binding shown and usable now, one per action."""
        seen: set[str] = set()
        out = []
        for _key, active in self.screen.active_bindings.items():
            binding = active.binding
            if not binding.show or not active.enabled or binding.action in seen:
                continue
            seen.add(binding.action)
            out.append((self.app.get_key_display(binding), binding.description))
        return out

    def shown_pairs(self) -> list[tuple[str, str]]:
        """The pairs, and the command palette's key last (as the Footer shows it at its right end)."""
        return self.pairs() + [PALETTE]

    def one_line_width(self) -> int:
        """How wide the keys would be on one line (the Footer's single row)."""
        return sum(len(k) + 1 + len(label) + len(GAP) for k, label in self.pairs())

    def redraw(self) -> None:
        width = max(self.size.width or self.screen.size.width, 1)
        text, used = Text(no_wrap=True, overflow="ellipsis"), 0
        for key, label in self.shown_pairs():
            size = len(key) + 1 + len(label)
            if used and used + len(GAP) + size > width:
                if (key, label) == PALETTE:
                    break
                text.append("\n")
                used = 0
            elif used:
                text.append(GAP)
                used += len(GAP)
            text.append(key, style="bold")
            text.append(" " + label)
            used += size
        self.update(text)
