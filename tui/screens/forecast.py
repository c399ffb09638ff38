"""The forecast: the rest of the fight played out many times, shown as chances, a histogram and a bar per ship.

The engine does the work (``engine.forecast``) in a thread worker, which spreads
the fights over processes, so the screen keeps drawing and shows progress; it
never touches the save. Digit keys change a side's doctrine (the ruleset's
doctrine files, in turn) and run the forecast again.
"""

from __future__ import annotations

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, ProgressBar, Static

from engine.encounter import Encounter
from engine.errors import FlagbridgeError
from engine.forecast import Forecast, already_over, forecast

FIGHTS = 500
BAR = 30  # characters of the longest bar


def bar(share: float, width: int = BAR) -> str:
    """A bar of ``width`` eighths-precise blocks for a share from 0 to 1."""
    eighths = round(max(0.0, min(1.0, share)) * width * 8)
    full, part = divmod(eighths, 8)
    return "█" * full + (" ▏▎▍▌▋▊▉"[part] if part else "")


def forecast_text(result: Forecast, width: int = BAR) -> Text:
    """Chances per side, the fights' lengths as a histogram, and each unit's chance of surviving
    (bars ``width`` characters long at most); for a fight already over, that it is over and who won."""
    if result.ended is not None:
        words = result.ended_words()
        return Text(words[:1].upper() + words[1:], style="bold")
    text = Text()
    text.append("Chance of winning\n", style="bold")
    column = max(len(n) for n in result.sides.values())
    for side, name in result.sides.items():
        share = result.win_chance(side)
        text.append(f"  {name:<{column}} {share:6.1%} ")
        text.append(bar(share, width).ljust(width), style="green")
        text.append(f"  ({result.doctrines.get(side, '?')})\n", style="dim")
    text.append(f"  {'no winner':<{column}} {result.draw_chance():6.1%} ")
    text.append(bar(result.draw_chance(), width), style="yellow")
    text.append("\n\n")
    text.append(f"Fight lengths (expected {result.expected_turns():.1f} {result.turn_word}s)\n", style="bold")
    lengths = result.lengths()
    most = max(lengths.values(), default=1)
    for turns in range(min(lengths, default=1), max(lengths, default=0) + 1):  # empty bins shown too
        count = lengths.get(turns, 0)
        label = f"{turns}+" if turns >= result.turn_cap else str(turns)
        text.append(f"  {label:>3} ")
        text.append(bar(count / most, width).ljust(width), style="cyan")
        text.append(f" {count}\n", style="dim")
    text.append("\nChance of surviving\n", style="bold")
    names = max((len(n) for n, _ in result.units.values()), default=0)
    for uid, (name, side) in result.units.items():
        share = result.survival(uid)
        text.append(f"  {name:<{names}} {share:6.1%} ")
        text.append(bar(share, width).ljust(width), style="green" if share >= 0.5 else "red")
        text.append(f"  {result.sides.get(side, side)}\n", style="dim")
    return text


class ForecastScreen(ModalScreen[None]):
    """Its own Footer, as the recap's: the console's, showing through, offered u Undo and q Quit, keys that do
    other things here (q closes the forecast)."""

    BINDINGS = [
        Binding("escape,q", "close", "Close", key_display="esc/q", id="close-forecast"),
        Binding("r", "rerun", "Run again (next seed)", id="rerun-forecast"),
        *[Binding(str(n), f"doctrine({n})", f"Side {n} doctrine", show=False, id=f"doctrine-{n}")
          for n in range(1, 10)],
    ]

    def __init__(self, enc: Encounter, fights: int | None = None, seed: int | None = None,
                 workers: int | None = None) -> None:
        super().__init__(classes="form")
        self.enc = enc
        self.fights = fights or FIGHTS
        self.seed = enc.setup.seed if seed is None else seed
        self.processes = workers
        self.sides = enc.ruleset.side_ids(enc.state)
        default = enc.ruleset.default_doctrine()
        self.picked = {side: default for side in self.sides}
        self.result: Forecast | None = None
        self.problem = ""

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="form-box") as box:
            box.border_title = "Forecast"
            yield Static(id="forecast-head")
            yield ProgressBar(total=self.fights, show_eta=False, id="forecast-progress")
            yield Static(id="forecast-result")
            yield Static(Text("Esc closes · r runs again with the next seed · 1-9 change that side's doctrine",
                              style="dim"), id="form-help")
        yield Footer()

    def on_mount(self) -> None:
        self.start()

    def _head(self, over: bool = False) -> Text:
        names = self.enc.state.get("side_names", {})
        doctrines = ", ".join(f"{i}: {names.get(s, s)} {self.picked[s]}" for i, s in enumerate(self.sides, 1))
        return Text(f"{'From' if over else f'{self.fights} fights from'} "
                    f"{self.enc.ruleset.header(self.enc.state) or 'here'}, seed {self.seed}\nDoctrines {doctrines}")

    def start(self) -> None:
        self.result = None
        over = already_over(self.enc) is not None
        self.query_one("#forecast-head", Static).update(self._head(over))
        progress = self.query_one("#forecast-progress", ProgressBar)
        if over:  # the engine plays no fight of it: its answer comes at once
            progress.display = False
            try:
                self._done(forecast(self.enc, self.fights, self.seed, dict(self.picked), workers=1))
            except FlagbridgeError as exc:
                self._failed(str(exc))
            return
        progress.display = True
        progress.update(total=self.fights, progress=0)
        self.query_one("#forecast-result", Static).update(Text("Simulating…", style="dim"))
        self.run_forecast(dict(self.picked), self.seed)

    @work(thread=True, exclusive=True, group="forecast")
    def run_forecast(self, picked: dict[str, str], seed: int) -> None:
        from textual.worker import get_current_worker

        worker = get_current_worker()

        def progress(done: int, total: int) -> None:
            if not worker.is_cancelled:
                self.app.call_from_thread(self._progress, done)

        try:
            result = forecast(self.enc, self.fights, seed, picked, workers=self.processes, progress=progress,
                              cancelled=lambda: worker.is_cancelled)
        except FlagbridgeError as exc:
            if not worker.is_cancelled:
                self.app.call_from_thread(self._failed, str(exc))
            return
        if not worker.is_cancelled:
            self.app.call_from_thread(self._done, result)

    def _progress(self, done: int) -> None:
        self.query_one("#forecast-progress", ProgressBar).update(progress=done)

    def _failed(self, why: str) -> None:
        self.problem = why
        self.query_one("#forecast-result", Static).update(Text(f"No forecast: {why}", style="red"))

    def _done(self, result: Forecast) -> None:
        self.result = result
        self.query_one("#forecast-progress", ProgressBar).update(progress=result.count)
        self._draw_result()

    def _draw_result(self) -> None:
        """The result with bars as long as the box has room for (drawn again when the terminal is resized)."""
        if self.result is None:
            return
        room = self.query_one("#form-box").content_size.width - 44  # names, percentages and labels
        self.query_one("#forecast-result", Static).update(forecast_text(self.result, max(8, min(BAR, room))))

    def on_resize(self) -> None:
        self.call_after_refresh(self._draw_result)  # the box's new width is known once it is laid out

    def action_rerun(self) -> None:
        self.seed += 1
        self.start()

    def action_doctrine(self, n: int) -> None:
        if not 1 <= n <= len(self.sides):
            return
        names = sorted(self.enc.ruleset.doctrines())
        if not names:
            return
        side = self.sides[n - 1]
        now = self.picked[side]
        self.picked[side] = names[(names.index(now) + 1) % len(names)] if now in names else names[0]
        self.start()

    def action_close(self) -> None:
        self.app.workers.cancel_group(self, "forecast")  # the fights still running stop at their next chunk
        self.dismiss(None)
