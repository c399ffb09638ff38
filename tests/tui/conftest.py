"""Console fixtures: a fresh copy of the shipped demo for every test."""

from __future__ import annotations

import html
import io
import re
import shutil
from pathlib import Path

import pytest

from engine.saves import SaveFile
from tui.app import FlagbridgeApp

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "saves" / "demo-classic-hg.toml"


@pytest.fixture
def demo_path(tmp_path: Path) -> Path:
    path = tmp_path / "demo.toml"
    shutil.copyfile(DEMO, path)
    return path


@pytest.fixture
def demo_app(demo_path: Path) -> FlagbridgeApp:
    return FlagbridgeApp(SaveFile.load(demo_path), save_dir=demo_path.parent)


def app_on(demo: Path, tmp_path: Path, *commands, name: str = "fight.toml") -> FlagbridgeApp:
    """The console on a fresh copy of ``demo``, after ``commands`` (each given the encounter) have run."""
    path = tmp_path / name
    shutil.copyfile(demo, path)
    save = SaveFile.load(path)
    for command in commands:
        command(save.encounter)
    return FlagbridgeApp(save, save_dir=tmp_path)


def panel_text(app: FlagbridgeApp, selector: str) -> str:
    """What a panel or line shows, as plain text: a panel's body is drawn as the screen would draw it
    (its rows are a renderable, not a string)."""
    from rich.console import Console

    widget = app.screen.query_one(selector)
    body = getattr(widget, "body", None)
    if body is None:
        return widget.render_text() if hasattr(widget, "render_text") else str(widget.render())
    console = Console(width=200, record=True, file=io.StringIO())
    console.print(body.content)
    return console.export_text()


def screen_text(app: FlagbridgeApp) -> str:
    """What the terminal shows, line by line, read from the app's own screenshot (a screen pushed on top
    included, and whatever shows through it)."""
    svg = app.export_screenshot()
    rows: dict[float, list[str]] = {}
    for m in re.finditer(r'<text[^>]*?y="([0-9.]+)"[^>]*>(.*?)</text>', svg, re.S):
        rows.setdefault(float(m.group(1)), []).append(html.unescape(m.group(2)).replace("\xa0", " "))
    return "\n".join("".join(rows[y]) for y in sorted(rows))
