"""The console's panels. Each takes plain values from the engine or ruleset and draws them.

None of them computes anything of the rules: they format what they are handed.
"""

from __future__ import annotations

import re

from rich.cells import set_cell_size
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.containers import VerticalScroll
from textual.content import Content, Span
from textual.visual import Visual
from textual.widgets import Static

from engine.ruleset import StepView


def set_border(widget, title: str | None = None, subtitle: str | None = None) -> None:
    """A widget's border title and subtitle as plain text (never read as markup), each set only when its
    words changed: setting one has Textual repaint the whole widget, and the console sets every panel's
    after every key."""
    kept = getattr(widget, "_border_words", None)
    if kept is None:
        kept = widget._border_words = {}
    if title is not None and kept.get("title") != title:
        widget.border_title = Text(title)
        kept["title"] = title
    if subtitle is not None and kept.get("subtitle") != subtitle:
        widget.border_subtitle = Text(subtitle)
        kept["subtitle"] = subtitle


class Panel(VerticalScroll):
    """A titled, bordered panel (the title is the border title) whose text scrolls when it is longer
    than the panel (PageUp/PageDown once Tab has chosen it)."""

    def __init__(self, title: str, *, id: str) -> None:
        super().__init__(id=id, classes="panel", can_focus=False)
        self.border_title = title
        self.body = Static("", classes="panel-body")
        self._drawn_from: object = None

    def compose(self):
        yield self.body

    def update(self, renderable, drawn_from: object = None) -> None:
        """Show ``renderable``; ``drawn_from``: every value it was made from. The same values again leave
        the panel as it is: an update has Textual measure and paint the panel anew, which is most of a
        key's redraw, and a key changes only a panel or two."""
        if drawn_from is not None and drawn_from == self._drawn_from:
            return
        self._drawn_from = drawn_from
        self.body.update(renderable)

    def render_text(self) -> str:
        """What the panel shows, as plain text (for tests)."""
        return str(self.body.render())


def bar(condition: float, width: int = 4) -> str:
    """'###-': a full bar only for a unit as it started, an empty one only for a unit with nothing
    left, so any damage shows and any remnant too."""
    if condition >= 1:
        full = width
    elif condition <= 0:
        full = 0
    else:
        full = max(1, min(width - 1, round(condition * width)))
    return "#" * full + "-" * (width - full)


class ShipsPanel(Panel):
    """Each side and its ships, with a condition bar; the selected ship is marked."""

    def show(self, sides: list[tuple[str, list[tuple[str, str, float]]]], selected: str, legend: str = "") -> None:
        drawn_from = (sides, selected, legend)
        if drawn_from == self._drawn_from:
            return
        # Textual's own Content, built from plain-text parts (names are never read as markup): a fleet's
        # hundred lines as rich Text took ten times as long, most of it in turning Text into Content
        parts: list = []
        for side_name, ships in sides:
            parts.append((side_name + "\n", "bold"))
            for sid, line, condition in ships:
                parts.append((">" if sid == selected else " ", "bold"))
                parts.append((f"{bar(condition)} ", "ansi_green" if condition > 0.5 else "ansi_yellow"))  # as rich names them
                parts.append((f"{line}\n", "reverse") if sid == selected else f"{line}\n")
        if not any(ships for _side, ships in sides):
            parts.append(("(no ship matches)\n", "dim"))
        if legend:
            parts.append((f"\n{legend}\n", "dim"))
        self.update(Content.assemble(*parts), drawn_from)
        self._keep_in_view(sides, selected, 2 + legend.count("\n") if legend else 0)

    def _keep_in_view(self, sides: list[tuple[str, list[tuple[str, str, float]]]], selected: str,
                      after: int) -> None:
        """Scroll so the selected ship's line shows (a fleet is longer than the panel); ``after``:
        the lines below the ships."""
        y, lines = None, after
        for _side, ships in sides:
            lines += 1
            for sid, _line, _condition in ships:
                if sid == selected:
                    y = lines
                lines += 1
        if y is not None:
            self.call_after_refresh(self._scroll_to_line, y, lines)

    def _scroll_to_line(self, y: int, lines: int) -> None:
        """Line ``y`` of ``lines`` into view, once the text is laid out (a narrow panel wraps each
        ship's line, so the line is found in proportion to the wrapped height)."""
        height = self.scrollable_content_region.height
        if height <= 0:  # not laid out yet
            return
        y = round(y * max(1, self.virtual_size.height) / max(1, lines))
        if not self.scroll_y <= y < self.scroll_y + height - 1:
            self.scroll_to(y=max(0, y - height // 2), animate=False)


class Rows:
    """Label and value rows drawn as two columns: the labels dim and unwrapped, each value wrapped in
    the width left beside them. A panel is drawn several times a frame while it is laid out; a general
    table measures every cell each time, this only wraps the values."""

    def __init__(self, rows: list[tuple[str, str]]) -> None:
        self.rows = [(Text(label), Text(value)) for label, value in rows]
        self.label_width = max((label.cell_len for label, _ in self.rows), default=0)

    def __rich_measure__(self, console, options) -> Measurement:
        """As wide as the same rows in a table grid (asked only when a layout sizes to content)."""
        table = Table.grid(padding=(0, 1))
        table.add_column(style="dim", no_wrap=True)
        table.add_column()
        for label, value in self.rows:
            table.add_row(label, value)
        return Measurement.get(console, options, table)

    def __rich_console__(self, console, options):
        edge = self.label_width + 1
        column = min(options.max_width - edge, max((v.cell_len for _, v in self.rows), default=1))
        blank, dim, newline = " " * edge, Style(dim=True), Segment.line()
        if column < 1:  # no room beside the labels: the labels alone, as a table squeezed this far shows them
            for label, _ in self.rows:
                yield Segment(set_cell_size(label.plain, edge), dim)
                yield newline
            return
        for label, value in self.rows:
            lines = value.wrap(console, column, overflow="ellipsis", no_wrap=False) or [Text("")]
            for i, line in enumerate(lines):
                line.pad_right(column - line.cell_len)
                yield Segment(label.plain + " " * (edge - label.cell_len) if i == 0 else blank, dim)
                yield from line.render(console)
                yield newline


class RowsPanel(Panel):
    """Label and value rows."""

    def show(self, rows: list[tuple[str, str]], subtitle: str = "") -> None:
        set_border(self, subtitle=subtitle)
        if rows != self._drawn_from or not rows:
            self.update(Rows(rows) if rows else Text("(nothing to show)", style="dim"), list(rows) or ("none",))


MARKS = {"done": "[x]", "current": "[>]", "todo": "[ ]", "skipped": "[-]"}


class ChecklistPanel(Panel):
    """The turn's steps, what the current one still needs, and the roles and states."""

    def show(self, steps: list[StepView], notes: list[str]) -> None:
        if (steps, notes) == self._drawn_from:
            return
        text = Text()
        for s in steps:
            style = "bold" if s.status == "current" else ("dim" if s.status in ("done", "skipped") else "")
            text.append(f"{MARKS.get(s.status, '[ ]')} {s.number} {s.label}\n", style=style)
            if s.needs:
                text.append(f"      needs: {s.needs}\n", style="yellow")
        for note in notes:
            text.append(note + "\n", style="cyan")
        self.update(text, (steps, notes))


class LinesPanel(Panel):
    def show(self, lines: list[str]) -> None:
        if lines != self._drawn_from:
            self.update(Text("\n".join(lines)), list(lines))


class LogPanel(VerticalScroll):
    """The event log: each action with its rolls and effects, newest at the bottom.

    It keeps the last ``KEEP`` lines (``flagbridge log`` prints the whole log),
    each marked with the event it tells, so new events add lines at the end and an
    undo takes off only the lines of the events it removed; the text shown is kept
    joined the same way. A key costs the same at the 50,000th event as at the first.
    It stays scrolled to the newest until PageUp moves it, and shows only the lines
    holding every word of a search (``/``). A line wider than the panel goes on
    under its own text, not under its number (``HangingLines``).
    """

    KEEP = 600
    SLACK = 100  # lines past KEEP before the oldest are dropped (in one go, not one a key)

    def __init__(self) -> None:
        super().__init__(id="log", can_focus=False)
        self.border_title = "Log"
        self.lines: list[Content] = []  # Textual's own text (never read as markup)
        self.marks: list[int] = []  # for each line, the position in the log of the event it tells
        self.search = ""
        self._group: int | None = None  # the group of the last event added
        self._text = ""  # every line's text joined by newlines, with the offset of each line and its style
        self._starts: list[int] = []
        self._spans: list[Span] = []
        self._span_at: list[int] = []  # spans before each line
        self.preamble = ""  # a line before the first event (a resumed fight's), never taken off by an undo
        self._hung: dict[tuple[Content, int], list[Content]] = {}  # a long line's rows at a width (HangingLines)

    def compose(self):
        yield LogLines("", id="log-lines")

    def on_mount(self) -> None:
        self.anchor()

    def clear(self, from_event: int = 0) -> None:
        """No lines but the preamble, which is kept when the lines begin again from the first event."""
        self.lines, self.marks, self._group = [], [], None
        self._text, self._starts, self._spans, self._span_at = "", [], [], []
        if self.preamble and from_event == 0:
            self._add(-1, Content.styled(f"     {self.preamble}", "dim italic"))

    def set_preamble(self, text: str) -> None:
        """The line shown before the first event; set before any event is added."""
        self.preamble = text
        self.clear()

    @property
    def first_event(self) -> int:
        """The position of the oldest event a line is kept for (0 when none is, or the preamble is kept)."""
        return max(self.marks[0], 0) if self.marks else 0

    def add_event(self, index: int, group: int, kind: str, line: str, notes: list[str]) -> None:
        """Event ``index`` of the log: a headline when it starts a group, else a line under it."""
        if group == self._group:
            self._add(index, Content(f"     · {line}"))
        else:
            style = {"action": "bold", "correction": "yellow"}.get(kind, "")
            self._add(index, Content.styled(f"{group:>4} {line}", style))
        for note in notes:
            self._add(index, Content(f"     · {note}"))
        self._group = group
        if len(self.lines) > self.KEEP + self.SLACK:
            self._drop_oldest(len(self.lines) - self.KEEP)

    def _add(self, index: int, line: Content) -> None:
        start = len(self._text) + 1 if self.lines else 0
        self._text = f"{self._text}\n{line.plain}" if self.lines else line.plain
        self._starts.append(start)
        self._span_at.append(len(self._spans))
        self._spans.extend(Span(start + a, start + b, style) for a, b, style in line.spans)
        self.lines.append(line)
        self.marks.append(index)

    def _drop_oldest(self, count: int) -> None:
        cut, spans_cut = self._starts[count], self._span_at[count]
        self._text = self._text[cut:]
        self._starts = [start - cut for start in self._starts[count:]]
        self._span_at = [n - spans_cut for n in self._span_at[count:]]
        self._spans = [Span(a - cut, b - cut, style) for a, b, style in self._spans[spans_cut:]]
        del self.lines[:count], self.marks[:count]

    def truncate(self, events: int, group: int | None) -> None:
        """Take off the lines of events from position ``events`` on (an undo); ``group`` is the one now last."""
        keep = len(self.marks)
        while keep and self.marks[keep - 1] >= events:
            keep -= 1
        if keep < len(self.lines):
            self._text = self._text[: self._starts[keep] - 1] if keep else ""
            del self._spans[self._span_at[keep]:], self._starts[keep:], self._span_at[keep:]
            del self.lines[keep:], self.marks[keep:]
        self._group = group

    def show(self, search: str | None = None) -> None:
        """Every kept line (or those matching the search), scrolled to the newest."""
        if search is not None:
            self.search = search
        words = self.search.lower().split()
        if words:
            shown = [line for line in self.lines if all(w in line.plain.lower() for w in words)]
            set_border(self, subtitle=f"search: {self.search} ({len(shown)} line{'' if len(shown) == 1 else 's'})")
            if not shown:
                shown = [Content.styled("(no line matches)", "dim")]
            body = _NEWLINE.join(shown)
        else:
            set_border(self, subtitle="")
            shown = list(self.lines)  # as they are now: a line added later waits for the next show
            body = Content(self._text, list(self._spans), strip_control_codes=False)  # stripped line by line
        if len(self._hung) > 2 * (self.KEEP + self.SLACK):  # the rows of lines long gone, or of another width
            self._hung.clear()
        self.query_one("#log-lines", LogLines).update(HangingLines(body, shown, self._hung))
        self.anchor()

    def render_text(self) -> str:
        """The lines shown, as plain text (for tests and the recap)."""
        return "\n".join(line.plain for line in self.lines
                         if all(w in line.plain.lower() for w in self.search.lower().split()))


_NEWLINE = Content("\n")

#: Where a log line's text starts: after its group number ("   4 fire: ...") or its "· " ("     · To hit: ...").
_TEXT_AT = re.compile(r" *(?:\d+ |· )?")


class HangingLines(Visual):
    """The Log's lines, each wrapped so that its rows after the first start under its text, not under its
    number, as a printed log reads. Only a line wider than the panel is wrapped here (by ``Content.wrap``,
    its styles kept; ``hung`` keeps each one's rows for the next time the Log is drawn at that width); Textual
    draws the result as it drew the lines before."""

    def __init__(self, body: Content, lines: list[Content], hung: dict) -> None:
        self.body = body  # the lines joined
        self.lines = lines
        self.hung = hung
        self._at: tuple[int, Content] | None = None

    def __str__(self) -> str:
        return self.body.plain

    def at(self, width: int) -> Content:
        """The lines, a long one's rows split at ``width`` and indented under its text."""
        if self._at is not None and self._at[0] == width:
            return self._at[1]
        if width <= 0 or all(line.cell_length <= width for line in self.lines):
            out = self.body
        else:
            texts: list[str] = []
            spans: list[Span] = []
            at = 0
            for line in self.lines:
                for row in (self._hang(line, width) if line.cell_length > width else (line,)):
                    texts.append(row.plain)
                    spans.extend(Span(at + a, at + b, style) for a, b, style in row.spans)
                    at += len(row.plain) + 1
            out = Content("\n".join(texts), spans, strip_control_codes=False)
        self._at = (width, out)
        return out

    def _hang(self, line: Content, width: int) -> list[Content]:
        rows = self.hung.get((line, width))
        if rows is None:
            indent = _TEXT_AT.match(line.plain).end()
            if not indent or indent * 2 > width:  # nothing before the text, or too little room beside it
                rows = line.wrap(width)
            else:
                body = line[indent:].wrap(width - indent)
                rows = [line[:indent] + body[0], *(Content(" " * indent) + row for row in body[1:])]
            self.hung[(line, width)] = rows
        return rows

    def render_strips(self, width, height, style, options):
        return self.at(width).render_strips(width, height, style, options)

    def get_optimal_width(self, rules, container_width: int) -> int:
        return self.body.get_optimal_width(rules, container_width)

    def get_minimal_width(self, rules) -> int:
        return self.body.get_minimal_width(rules)

    def get_height(self, rules, width: int) -> int:
        return self.at(width).get_height(rules, width)


class LogLines(Static):
    """The Log's text; what the mouse selects in it is read from the rows as drawn (Textual reads a selection
    from Content or Text alone)."""

    def get_selection(self, selection):
        visual = self.visual
        if isinstance(visual, HangingLines):
            return selection.extract(visual.at(self.content_size.width).plain), "\n"
        return super().get_selection(selection)


class DicePrompt(Static):
    """The pending roll with its modifiers and exact chance, the dice typed so far, and messages."""

    _drawn_from: tuple = ()

    def show(self, request_line: str, typed: str, hint: str, message: str, helps: tuple[str, ...] = ()) -> None:
        """The prompt, drawn again only when one of its words changed (see ``Panel.update``).

        The roll, the line the dice are typed on and the message about them come first, the roll's reminders
        (``helps``: the table a roll reads, what each face finds) last: the prompt has a height it may not
        pass (the stylesheet's ``max-height``), and what it cuts must be a reminder, never the refusal of what
        was just typed (at 80 columns a damage table's reminder took three lines and hid it)."""
        if (request_line, typed, hint, message, helps) == self._drawn_from:
            return
        self._drawn_from = (request_line, typed, hint, message, helps)
        text = Text()
        if request_line:
            text.append(request_line, style="bold")
            text.append("\n")
            text.append("type what the table rolled, then Enter (Enter twice: the built-in dice): ", style="dim")
            text.append(typed or "_", style="reverse bold")
        else:
            text.append(hint, style="dim")
        if message:
            text.append("\n" + message, style="red")
        for extra in helps:
            text.append("\n" + extra, style="bold")
        self.update(text)
