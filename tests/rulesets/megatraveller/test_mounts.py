"""A battery's mount, weapon and factor go together, in a ship file and when corrected by hand.

megatraveller-sensors-fire.txt: "Spinal Mounts (Rules only include PA and Meson)" and the spinal's
"Factor-9 rolls on each allowed table"; the damage DMs split "Factor <=9 (non Spinal)" from
"Factor >=A (10) (Spinals)". A correction that broke this (a factor-2 spinal would roll -7 damage
tables, a factor-15 laser would skip the -6) is refused where it is typed and records nothing.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.errors import IllegalAction
from engine.saves import SaveFile

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture()
def enc(tmp_path):
    path = tmp_path / "mt.toml"
    shutil.copyfile(ROOT / "saves" / "demo-megatraveller.toml", path)
    return SaveFile.load(path).encounter


REFUSED = [
    ("spinal", "true", "beam laser cannot be a spinal mount .*particle accelerator, meson gun"),
    ("factor", "12", r"battery \(not spinal\) is factor 9 or less, got 12"),
]


@pytest.mark.parametrize("field,value,why", REFUSED)
def test_a_correction_that_breaks_the_mount_is_refused(enc, field, value, why) -> None:
    before = (list(enc.events), repr(enc.state))
    with pytest.raises(IllegalAction, match=why):
        enc.correct(f"ships.patrol.batteries[0].{field}", value)
    assert (list(enc.events), repr(enc.state)) == before


def test_a_spinal_mount_is_corrected_in_steps_that_each_hold(enc) -> None:
    """Weapon first (a laser cannot be spinal), then the factor (a non-spinal stops at 9): the order a
    game master must take to make a spinal meson gun of factor A out of a beam laser battery."""
    path = "ships.patrol.batteries[0]"
    enc.correct(f"{path}.weapon", "meson_gun")
    with pytest.raises(IllegalAction, match="spinal mount is factor A"):
        enc.correct(f"{path}.spinal", "true")
    with pytest.raises(IllegalAction, match="not spinal"):
        enc.correct(f"{path}.factor", "10")
    enc.correct(f"{path}.factor", "9")
    # still refused: a factor-9 spinal
    with pytest.raises(IllegalAction, match="got 9"):
        enc.correct(f"{path}.spinal", "true")
    battery = enc.state["ships"]["patrol"]["batteries"][0]
    assert (battery["weapon"], battery["factor"], battery["spinal"]) == ("meson_gun", 9, False)


def test_a_spinal_weapon_may_not_become_one_that_cannot_be(enc) -> None:
    path = "ships.patrol.batteries[0]"
    battery = enc.state["ships"]["patrol"]["batteries"][0]
    battery.update(weapon="particle_accelerator", factor=10, spinal=True)  # as a ship file may start it
    with pytest.raises(IllegalAction, match="pulse laser cannot be a spinal mount"):
        enc.correct(f"{path}.weapon", "pulse_laser")
    with pytest.raises(IllegalAction, match="spinal mount is factor A"):
        enc.correct(f"{path}.factor", "9")
    enc.correct(f"{path}.weapon", "meson_gun")
    enc.correct(f"{path}.factor", "14")
    assert (battery["weapon"], battery["factor"]) == ("meson_gun", 14)
