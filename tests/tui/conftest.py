"""Console fixtures: a fresh copy of the shipped demo for every test."""

from __future__ import annotations

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
