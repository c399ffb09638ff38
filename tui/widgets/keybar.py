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
MAX_LINES = 6  # the bar's max-height: room for every key of the busiest step at 80 columns (5 lines)
#: Bindings that are always in sight (README: "c, ctrl+s, ? and q are always in sight"): when the keys of a step
#: need more than MAX_LINES lines, these go first, and what no longer fits is the step's own (the palette has it).
ALWAYS = ("correct", "save", "help", "quit")


class KeyBar(Static):
    """Key and label pairs packed into lines; a pair is never split between lines."""

    DEFAULT_CSS = """
    KeyBar {
        dock: bottom;
        height: auto;
        max-height: 6;  /* MAX_LINES */
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
        return [(key, label) for _id, key, label in self._keys_now()]

    def _keys_now(self) -> list[tuple[str, str, str]]:
        """(binding id, key as shown, label), in the Footer's order."""
        seen: set[str] = set()
        out = []
        for _key, active in self.screen.active_bindings.items():
            binding = active.binding
            if not binding.show or not active.enabled or binding.action in seen:
                continue
            seen.add(binding.action)
            out.append((binding.id or "", self.app.get_key_display(binding), binding.description))
        return out

    def shown_pairs(self) -> list[tuple[str, str]]:
        """The pairs, and the command palette's key last (as the Footer shows it at its right end)."""
        return self.pairs() + [PALETTE]

    def one_line_width(self) -> int:
        """How wide the keys would be on one line (the Footer's single row)."""
        return sum(len(k) + 1 + len(label) + len(GAP) for k, label in self.pairs())

    def redraw(self) -> None:
        width = max(self.size.width or self.screen.size.width, 1)
        lines = _packed(self.shown_pairs(), width)
        if len(lines) > MAX_LINES:  # c, ^s, ? and q first: the lines past the bar's height are cut
            found = self._keys_now()
            first = [(k, label) for i, k, label in found if i in ALWAYS]
            lines = _packed(first + [(k, label) for i, k, label in found if i not in ALWAYS] + [PALETTE], width)
        text = Text(no_wrap=True, overflow="ellipsis")
        for n, line in enumerate(lines[:MAX_LINES]):
            if n:
                text.append("\n")
            for j, (key, label) in enumerate(line):
                if j:
                    text.append(GAP)
                text.append(key, style="bold")
                text.append(" " + label)
        self.update(text)


def _packed(pairs: list[tuple[str, str]], width: int) -> list[list[tuple[str, str]]]:
    """The pairs in lines of ``width``, a pair never split; the palette's key only where it fits on the last."""
    lines: list[list[tuple[str, str]]] = [[]]
    used = 0
    for key, label in pairs:
        size = len(key) + 1 + len(label)
        if used and used + len(GAP) + size > width:
            if (key, label) == PALETTE:
                break
            lines.append([])
            used = 0
        elif used:
            used += len(GAP)
        lines[-1].append((key, label))
        used += size
    return lines
