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
    ("spinal", "true", r"a spinal mount when its factor is A \(10\) or more, and its factor is 4; correct the factor"),
    ("factor", "12", "a beam laser cannot be a spinal mount .*particle accelerator, meson gun"),
    ("weapon", "tractor", ""),  # allowed: a factor-4 tractor is no spinal
]


@pytest.mark.parametrize("field,value,why", REFUSED)
def test_a_correction_that_breaks_the_mount_is_refused(enc, field, value, why) -> None:
    before = (list(enc.events), repr(enc.state))
    if not why:
        enc.correct(f"ships.patrol.batteries[0].{field}", value)
        return
    with pytest.raises(IllegalAction, match=why):
        enc.correct(f"ships.patrol.batteries[0].{field}", value)
    assert (list(enc.events), repr(enc.state)) == before


def test_a_battery_becomes_a_spinal_mount_by_its_factor(enc) -> None:
    """Found by a review: with the mount and the factor checked one at a time, no order of corrections could make
    a spinal mount (a non-spinal stops at 9, a spinal starts at A). The text ties them ("Factor <=9 (non
    Spinal)", "Factor >=A (10) (Spinals)"), so the mount follows the factor: a meson gun corrected to factor A
    is a spinal mount, and back to 9 is not, each said in the log; undo puts the mount back too."""
    path = "ships.patrol.batteries[0]"
    battery = lambda: enc.state["ships"]["patrol"]["batteries"][0]  # noqa: E731
    enc.correct(f"{path}.weapon", "meson_gun")
    enc.correct(f"{path}.factor", "11")
    assert (battery()["weapon"], battery()["factor"], battery()["spinal"]) == ("meson_gun", 11, True)
    assert "Vigilance B1-1 is now a spinal mount (factor A or more)" in enc.events[-1].notes
    with pytest.raises(IllegalAction, match="particle accelerator, meson gun"):
        enc.correct(f"{path}.weapon", "pulse_laser")  # a spinal pulse laser: no
    enc.correct(f"{path}.weapon", "particle_accelerator")
    enc.correct(f"{path}.factor", "9")
    assert battery()["spinal"] is False
    assert "Vigilance B1-1 is no longer a spinal mount (factor 9 or less)" in enc.events[-1].notes
    enc.undo()
    assert (battery()["factor"], battery()["spinal"]) == (11, True)


def test_a_whole_battery_given_at_once_is_checked_as_a_ship_file(enc) -> None:
    """The same check for a battery corrected as one table (the review found it passed unchecked)."""
    whole = dict(enc.state["ships"]["patrol"]["batteries"][0], spinal=True, factor=2)
    with pytest.raises(IllegalAction, match="beam laser cannot be a spinal mount"):
        enc.correct("ships.patrol.batteries[0]", whole)


def test_a_group_whose_batteries_differ_reads_each_apart(enc) -> None:
    """Found by a game master's drive: with B1-1 corrected to a spinal meson gun, the status read "B1 spinal meson
    gun-4/C x2", though B1-2 was still a beam laser-4."""
    enc.correct("ships.patrol.batteries[0].weapon", "meson_gun")
    enc.correct("ships.patrol.batteries[0].factor", "12")
    rows = dict(enc.ruleset.unit_panels(enc.state, enc.ruleset.catalogue.unit_kinds["ship"], "patrol")["Ship status"])
    assert rows["Batteries"].startswith("B1-1 spinal meson gun-C x1 (1 bearing, 0 used); B1-2 beam laser-4 x1 "
                                        "(1 bearing, 0 used); B2 missile-3 x2")


def test_a_defence_is_corrected_within_a_ship_file_s_limits(enc) -> None:
    """Sand, dampers, repulsors, meson screens and the configuration are 0-9 in a ship file; a drive put a meson
    screen at -1 by correction."""
    with pytest.raises(IllegalAction, match="must be from 0 to 9"):
        enc.correct("ships.courier.defences.meson_screen", "-1")
