"""Console fixtures: a fresh copy of the shipped demo for every test."""

from __future__ import annotations

import io
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
