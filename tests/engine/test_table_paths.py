"""Replacement tables named by a save (issue 14: table paths have no limits).

A relative path is read from the save's own folder, so a save moved with its
tables still opens from anywhere; only a regular file of a sane size is read
(a device or a pipe would hang the loader); and a fight's tables are read once,
so a table file deleted or broken in the middle of a session changes nothing.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

import pytest

from engine.errors import BadSave
from engine.saves import SaveFile

ROOT = Path(__file__).resolve().parents[2]
RAMMING = ROOT / "rulesets" / "classic_hg" / "tables" / "ramming.toml"


def save_with_table(folder: Path, table_path: str) -> Path:
    """The classic-hg demo, pointed at a replacement ramming table."""
    text = (ROOT / "saves" / "demo-classic-hg.toml").read_text()
    text = re.sub(r"\[setup\.options\]\n(?=\n|\[)", "", text)  # an empty [setup.options]: its tables come below
    text = text.replace("\n[state]", f"\n[setup.options.tables]\nramming = {table_path!r}\n\n[state]", 1)
    path = folder / "fight.toml"
    path.write_text(text)
    return path


def my_ramming(folder: Path, to_ram: int = 9) -> Path:
    text = RAMMING.read_text().replace("shipped_default = true", "shipped_default = false")
    text = re.sub(r"to_ram = \d+", f"to_ram = {to_ram}", text)
    path = folder / "my-ramming.toml"
    path.write_text(text)
    return path


def test_a_relative_table_path_is_read_from_the_saves_folder(tmp_path: Path, monkeypatch) -> None:
    my_ramming(tmp_path, to_ram=9)
    path = save_with_table(tmp_path, "my-ramming.toml")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    enc = SaveFile.load(path).encounter
    assert enc.ruleset.tables_for(enc.state).ramming["to_ram"] == 9


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "fifo", "folder"])
def test_only_a_regular_file_is_read_as_a_table(tmp_path: Path, device: str) -> None:
    if device == "fifo":
        device = str(tmp_path / "pipe")
        os.mkfifo(device)
    elif device == "folder":
        device = str(tmp_path)
    path = save_with_table(tmp_path, device)
    before = path.read_bytes()
    started = time.monotonic()
    with pytest.raises(BadSave) as err:
        SaveFile.load(path)
    assert time.monotonic() - started < 5
    assert "\n" not in str(err.value) and ("not a regular file" in str(err.value))
    assert path.read_bytes() == before


def test_a_table_broken_mid_session_changes_nothing_until_the_save_is_opened_again(tmp_path: Path) -> None:
    table = my_ramming(tmp_path, to_ram=9)
    path = save_with_table(tmp_path, "my-ramming.toml")
    enc = SaveFile.load(path).encounter
    table.write_text("this is not TOML [[[")
    assert enc.ruleset.tables_for(enc.state).ramming["to_ram"] == 9
    enc.act("roll_initiative")
    table.unlink()
    enc.roll()
    enc.roll()
    assert enc.ruleset.tables_for(enc.state).ramming["to_ram"] == 9
    with pytest.raises(BadSave, match="no such table file"):
        SaveFile.load(path)
    shutil.copyfile(RAMMING, table)
