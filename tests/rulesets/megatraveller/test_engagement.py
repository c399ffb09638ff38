"""A scripted megatraveller engagement over two rounds, every die typed, every number checked.

Imperial (Lancer, a cruiser with a spinal particle accelerator; Picket, whose
PC officer has Sensor Ops 4) against the Corsairs (Corsair-1, Hulk, Skiff,
Shadow), starting 5 squares apart (Far). Covers (``megatraveller-sensors-fire.txt``):
every locate tier, the uncertain lock with all outcomes, a shared lock, tactics
from the ship and the fleet pools, range DMs, each penetration case, damage
DMs and effects, a spinal mount, criticals from UCP factors, pinpoint shots at
Visual range, and "No lock, no fire". The script is a list of small steps so the
save test can stop anywhere, save, load and carry on.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest

from engine.encounter import Encounter
from engine.errors import IllegalAction
from engine.saves import SaveFile, create
from rulesets.megatraveller import RULESET
from tests.rulesets.megatraveller.engagement import answer, mods, new_engagement, seen
from tests.rulesets.scripted import saved_and_continued

Step = Callable[[Encounter], None]


def ship(enc: Encounter, sid: str) -> dict:
    return enc.state["ships"][sid]


def locate(enc: Encounter, target: str, spend: str, typed: str, **extra) -> None:
    enc.act("locate", ship="lancer", target=target, mode="passive", spend=spend, **extra)
    answer(enc, "Locate: Lancer PassObjScan (routine)", typed, target="7+")


# --- round 1, step 1: sensors ------------------------------------------------------------

def r1_detected(enc: Encounter) -> None:
    """"Anything within 100 spaces is pretty much detected just by looking with sensors of near range"."""
    assert all(seen(enc, "imp", t)["state"] == "detected" for t in ("raider", "hulk", "skiff", "shadow"))
    with pytest.raises(IllegalAction, match="must be located before a lock"):
        enc.act("lock", ship="lancer", target="raider", mode="active", spend="free")


def r1_fumbles(enc: Encounter) -> None:
    """"Roll 2d6+Your Computer - (squares range)"; "Fumble (failed by >2, or failed with nat 2): Not located"."""
    enc.act("locate", ship="lancer", target="raider", mode="passive", spend="free")
    assert mods(enc) == {"Computer": 3, "Range (squares)": -5}
    answer(enc, "Locate: Lancer PassObjScan (routine) on Corsair-1", "2", target="7+")
    assert seen(enc, "imp", "raider")["state"] == "detected"
    with pytest.raises(IllegalAction, match="used its free sensor action"):
        enc.act("locate", ship="lancer", target="raider", mode="passive", spend="free")
    locate(enc, "raider", "B1-1", "6")   # 6 + 3 - 5 = 4: failed by 3
    assert ship(enc, "lancer")["batteries"][0]["used"] == "sensors"  # "Gunnery actions can be used for extra sensor actions"
    locate(enc, "raider", "B1-2", "7")   # failed by 2: nothing (our reading)
    assert seen(enc, "imp", "raider")["state"] == "detected"


def r1_fail_by_one(enc: Encounter) -> None:
    """"Fail by 1: Strong and/or Large target located" (the Hulk, not the medium Corsair-1)."""
    locate(enc, "raider", "B1-3", "8")
    assert seen(enc, "imp", "raider")["state"] == "detected"
    locate(enc, "hulk", "B1-4", "8")
    assert seen(enc, "imp", "hulk")["state"] == "located"


def r1_made_by_0_2_4(enc: Encounter) -> None:
    """"Made by 0 to 1: ... Moderate/Medium"; "Made by 2+: ... weak/small"; "Made by 4+: any target";
    "you can spend them [tactics pools] BEFORE ROLLING to increase your skill or computer model number"."""
    locate(enc, "raider", "B1-5", "9")   # made by 0
    assert seen(enc, "imp", "raider")["state"] == "located"
    locate(enc, "skiff", "B1-6", "10")   # made by 1: small not found
    assert seen(enc, "imp", "skiff")["state"] == "detected"
    locate(enc, "skiff", "B1-7", "11")   # made by 2
    assert seen(enc, "imp", "skiff")["state"] == "located"
    enc.act("locate", ship="lancer", target="shadow", mode="passive", spend="B1-8", tactics="2", pool="ship")
    assert mods(enc) == {"Computer": 3, "Range (squares)": -5, "Tactics (ship pool)": 2}
    assert ship(enc, "lancer")["tactics"] == 0
    answer(enc, "Locate: Lancer", "11")  # 11 + 3 - 5 + 2 = 11: made by 4, the stealthy Shadow
    assert seen(enc, "imp", "shadow")["state"] == "located"
    with pytest.raises(IllegalAction, match="ship pool has 0 points"):
        enc.act("lock", ship="lancer", target="raider", mode="active", spend="B1-9", tactics="1", pool="ship")


def r1_locks(enc: Encounter) -> None:
    """Locks: "Yours succeeding gives you a lock, no matter what. If one of the two succeeds, you get power
    and tonnage ... If both succeed, you get type code"; a PC may use Sensor Ops in place of the computer."""
    enc.act("lock", ship="picket", target="raider", mode="active", spend="free")
    assert mods(enc) == {"Sensor Ops": 4, "Range (squares)": -5}
    answer(enc, "Lock (player's roll): Picket ActObjPin (routine) on Corsair-1", "8", target="7+")
    answer(enc, "Lock (referee's roll): Picket", "8", target="7+")
    assert seen(enc, "imp", "raider") == {"state": "locked", "revealed": "type code"}
    enc.act("lock", ship="lancer", target="hulk", mode="active", spend="B1-9")
    answer(enc, "Lock (player's roll): Lancer", "9")
    answer(enc, "Lock (referee's roll): Lancer", "4")
    assert seen(enc, "imp", "hulk") == {"state": "locked", "revealed": "power and tonnage"}
    enc.act("lock", ship="lancer", target="skiff", mode="active", spend="B1-10")
    answer(enc, "Lock (player's roll): Lancer", "5")
    answer(enc, "Lock (referee's roll): Lancer", "10")
    assert seen(enc, "imp", "skiff") == {"state": "located", "revealed": "power and tonnage"}
    assert "Imperial sees Corsair-1: locked (type code known)" in RULESET.sensors(enc.state)
    enc.act("next")


# --- round 1, step 2: fire -----------------------------------------------------------------

def r1_no_lock_no_fire(enc: Encounter) -> None:
    """"You must have a lock to fire"; plasma "N/A" at Far; "If something blocks the line of sight"."""
    with pytest.raises(IllegalAction, match="no lock, no fire"):
        enc.act("fire", ship="lancer", target="skiff", batteries=["B1-11"])
    with pytest.raises(IllegalAction, match="cannot fire at far range"):
        enc.act("fire", ship="lancer", target="raider", batteries=["B3"])
    with pytest.raises(IllegalAction, match="already used its gunnery action"):
        enc.act("fire", ship="lancer", target="raider", batteries=["B1-1"])
    enc.act("set_sight", ship="picket", target="raider", sight="blocked")
    with pytest.raises(IllegalAction, match="line of sight .* is blocked"):
        enc.act("fire", ship="picket", target="raider", batteries=["B1"])
    enc.act("set_sight", ship="picket", target="raider", sight="clear")


def r1_shared_lock_pulse_laser(enc: Encounter) -> None:
    """Picket locked Corsair-1, so the lock is the side's: "if D1 locks M4, D2-D6 can all fire on M4".
    To hit 11+ + computer + range (laser Far -1) - Def DM; penetrate sand 11+; damage -6, pulse laser +2."""
    enc.act("fire", ship="picket", target="raider", batteries=["B1"])
    assert mods(enc) == {"Computer": 2, "Range (far)": -1, "Corsair-1 Def DM": -1}
    answer(enc, "To hit: Picket B1 pulse laser-2 at Corsair-1", "11", target="11+")
    assert mods(enc) == {"Computer": 2, "Corsair-1 computer": -2}  # table 2 vs sand-2: 0
    answer(enc, "Penetrate sand-2: Picket B1", "12", target="11+")
    assert mods(enc) == {"non-spinal weapon (factor 9 or less)": -6, "Pulse laser": 2}
    answer(enc, "Damage (surface 1/1): B1 on Corsair-1", "11")  # 7: weapon-1 (shipped table)
    assert [b["id"] for b in ship(enc, "raider")["batteries"]] == ["B1-1", "B1-2"]
    assert enc.pending is None  # factor 2 - distribution 2 (400 tons -> 3): no critical


def r1_laser_with_fleet_tactics_and_critical(enc: Encounter) -> None:
    """Fleet pool tactics "increase your computer for one shot" (line 45): the to-hit roll and the shot's
    penetration roll ("+You Computer", line 62); "Subtract it from the weapon's UCP Factor. The remainder is
    the number of critical hits rolled and also the number of armor factors lost" (line 100; factor 4 vs
    400 tons: 4 - 3 = 1)."""
    enc.act("fire", ship="lancer", target="raider", batteries=["B1-12"], tactics="1", pool="fleet")
    assert mods(enc) == {"Computer": 3, "Range (far)": -1, "Corsair-1 Def DM": -1, "Tactics (fleet pool)": 1}
    assert enc.state["fleet_tactics"]["imp"] == 1
    answer(enc, "To hit: Lancer B1-12 beam laser-4", "9")
    assert mods(enc) == {"Computer": 3, "Tactics (fleet pool)": 1, "Table (4 vs sand-2)": 2, "Corsair-1 computer": -2}
    answer(enc, "Penetrate sand-2", "8")  # 8 + 3 + 1 + 2 - 2 = 12: through
    assert ship(enc, "raider")["armor"] == 39
    answer(enc, "Damage (surface 1/1)", "8")  # 2: hold
    assert ship(enc, "raider")["hold_hits"] == 1
    answer(enc, "Critical 1/1: Corsair-1", "5")
    assert ship(enc, "raider")["shut_down"] == ["weapons"]


def r1_missile_stopped_by_repulsor(enc: Encounter) -> None:
    """"Missiles (nuclear or conventional) have to pass the sand and the repulsors"; missile Far +1."""
    enc.act("fire", ship="lancer", target="raider", batteries=["B7"])
    assert mods(enc) == {"Computer": 3, "Range (far)": 1, "Corsair-1 Def DM": -1}
    answer(enc, "To hit: Lancer B7 missile-3", "8")
    answer(enc, "Penetrate sand-2", "9")
    assert mods(enc) == {"Computer": 3, "Table (3 vs repulsor-1)": 2, "Corsair-1 computer": -2}
    answer(enc, "Penetrate repulsor-1", "7")  # 10: stopped
    assert enc.pending is None


def r1_nuclear_missile(enc: Encounter) -> None:
    """Nuclear missiles pass sand, repulsors and dampers; damage "+6" surface, "+0" radiation;
    fuel hit: "less than 333 tons of fuel always lose 10 tons"; "A computer hit reduces the computer"."""
    enc.act("fire", ship="lancer", target="raider", batteries=["B4"])
    answer(enc, "To hit: Lancer B4 nuclear missile-3", "8")
    answer(enc, "Penetrate sand-2", "9")
    answer(enc, "Penetrate repulsor-1", "8")
    assert mods(enc) == {"Computer": 3, "Table (3 vs damper-1)": 2, "Corsair-1 computer": -2}
    answer(enc, "Penetrate damper-1", "8")
    assert mods(enc) == {"non-spinal weapon (factor 9 or less)": -6, "Nuclear missile": 6}
    answer(enc, "Damage (surface 1/1)", "9")  # 9: fuel-5
    assert ship(enc, "raider")["fuel"] == 110
    assert mods(enc) == {"non-spinal weapon (factor 9 or less)": -6}
    answer(enc, "Damage (radiation 1/1)", "10")  # 4: computer-1
    assert ship(enc, "raider")["computer"] == 1


def r1_meson_gun(enc: Encounter) -> None:
    """Meson guns: range Far -2, the to-hit number as a DM (our reading), then "penetrate the Meson Screen
    and ... the ships configuration"."""
    enc.act("fire", ship="lancer", target="raider", batteries=["B5"])
    assert mods(enc) == {"Computer": 3, "Range (far)": -2, "Meson to-hit number": 2, "Corsair-1 Def DM": -1}
    answer(enc, "To hit: Lancer B5 meson gun-3", "9")
    assert mods(enc) == {"Computer": 3, "Table (3 vs meson screen-1)": 2, "Corsair-1 computer": -1}
    answer(enc, "Penetrate meson screen-1", "7")
    assert mods(enc) == {"Computer": 3, "Table (3 vs configuration-2)": 1, "Corsair-1 computer": -1}
    answer(enc, "Penetrate configuration-2", "6")
    assert enc.pending is None


def r1_disintegrator(enc: Encounter) -> None:
    """"Disintegrators ... have to pass the dampers"; two tables (surface and interior); a drive hit."""
    enc.act("fire", ship="lancer", target="raider", batteries=["B8"])
    answer(enc, "To hit: Lancer B8 disintegrator-3", "9")
    answer(enc, "Penetrate damper-1", "7")
    answer(enc, "Damage (surface 1/1)", "12")   # 6: maneuver-1
    assert ship(enc, "raider")["maneuver"] == 2
    answer(enc, "Damage (interior 1/1)", "8")   # 2: hold
    assert ship(enc, "raider")["hold_hits"] == 2


def r1_plasma_and_tractor_at_near(enc: Encounter) -> None:
    """Plasma and fusion "+2 to penetrate above the table" against sand; "Tractors have to pass the
    repulsors"; both 0 at Near."""
    enc.act("set_range", ship="lancer", target="raider", squares=2)
    enc.act("fire", ship="lancer", target="raider", batteries=["B3"])
    assert mods(enc) == {"Computer": 3, "Corsair-1 Def DM": -1}
    answer(enc, "To hit: Lancer B3 plasma gun-3", "9")
    assert mods(enc) == {"Computer": 3, "Table (3 vs sand-2)": 1, "Plasma gun vs sand": 2, "Corsair-1 computer": -1}
    answer(enc, "Penetrate sand-2", "6")
    answer(enc, "Damage (surface 1/1)", "5")  # -1: no effect
    enc.act("fire", ship="lancer", target="raider", batteries=["B6"])
    answer(enc, "To hit: Lancer B6 tractor beam-3", "9")
    assert mods(enc) == {"Computer": 3, "Table (3 vs repulsor-1)": 2, "Corsair-1 computer": -1}
    answer(enc, "Penetrate repulsor-1", "7")
    assert enc.pending is None  # tractors roll on no damage table


def r1_spinal_mount(enc: Encounter) -> None:
    """Spinal: "Routine (7+)", "use agility instead of computer"; "Factor-9 rolls on each allowed table";
    "Factor >=A (Spinals) +0"; AV 49: -3; criticals 11 - 8 (100,000 tons, shipped distribution) = 3 and 3 armor factors lost."""
    enc.act("fire", ship="lancer", target="hulk", batteries=["B2"])
    assert mods(enc) == {"Agility": 2}
    answer(enc, "To hit: Lancer B2 spinal particle accelerator-B at Hulk", "5", target="7+")
    assert mods(enc) == {"AV 49": -3}  # no sand on the Hulk: straight to damage
    assert ship(enc, "hulk")["armor"] == 46
    answer(enc, "Damage (surface 1/2)", "10")   # 7: weapon-1
    assert len(ship(enc, "hulk")["batteries"]) == 1
    answer(enc, "Damage (surface 2/2)", "9")    # 6: maneuver-1
    answer(enc, "Damage (radiation 1/2)", "5")  # 2: none
    answer(enc, "Damage (radiation 2/2)", "6")  # 3: crew-1
    answer(enc, "Critical 1/3: Hulk", "7")
    answer(enc, "Critical 2/3: Hulk", "9")
    answer(enc, "Critical 3/3: Hulk", "3")
    hulk = ship(enc, "hulk")
    assert (hulk["maneuver"], hulk["crew_hits"], hulk["shut_down"]) == (1, 1, ["power", "computer", "jump"])
    enc.act("next")
    enc.act("next")
    assert (enc.state["round"], enc.state["step"]) == (2, 1)


# --- round 2: pinpoint shots at Visual range -------------------------------------------------

def r2_pinpoint(enc: Encounter) -> None:
    """"If at Visual range, and you roll at least 2 more than needed, you get to pick which system type is
    hit. If you roll 4 more than needed, you may pick a critical hit" (line 55): the pick is which of the
    criticals due, not one more. Visual is 1 square (no errata)."""
    enc.act("next")
    enc.act("set_range", ship="lancer", target="raider", squares=1)
    enc.act("fire", ship="lancer", target="raider", batteries=["B1-11"], aim="fuel")
    answer(enc, "To hit: Lancer B1-11", "11")  # 11 + 3 - 1 = 13: made by 2
    answer(enc, "Penetrate sand-2", "7")
    assert ship(enc, "raider")["fuel"] == 100  # the aimed fuel hit replaces the damage roll
    answer(enc, "Critical 1/1: Corsair-1", "10")
    enc.act("fire", ship="lancer", target="raider", batteries=["B1-10"], aim="critical:bridge")
    answer(enc, "To hit: Lancer B1-10", "12")  # 14: made by 3, not 4
    answer(enc, "Penetrate sand-2", "7")
    answer(enc, "Damage (surface 1/1)", "6")
    answer(enc, "Critical 1/1", "2")
    assert "bridge" in ship(enc, "raider")["shut_down"]
    enc.act("fire", ship="lancer", target="raider", batteries=["B1-9"], aim="critical:sensors", tactics="1",
            pool="fleet")
    answer(enc, "To hit: Lancer B1-9", "12")  # 12 + 3 - 1 + 1 = 15: made by 4
    assert mods(enc) == {"Computer": 3, "Tactics (fleet pool)": 1, "Table (4 vs sand-2)": 2, "Corsair-1 computer": -1}
    answer(enc, "Penetrate sand-2", "7")
    answer(enc, "Damage (surface 1/1)", "6")
    # "you may pick a critical hit": the one critical due (4 - 3) is the picked one, and none is added.
    assert enc.pending is None
    raider = ship(enc, "raider")
    assert raider["armor"] == 36 and raider["shut_down"] == ["weapons", "bridge", "sensors"]


SCRIPT: list[Step] = [
    r1_detected, r1_fumbles, r1_fail_by_one, r1_made_by_0_2_4, r1_locks, r1_no_lock_no_fire,
    r1_shared_lock_pulse_laser, r1_laser_with_fleet_tactics_and_critical, r1_missile_stopped_by_repulsor,
    r1_nuclear_missile, r1_meson_gun, r1_disintegrator, r1_plasma_and_tractor_at_near, r1_spinal_mount,
    r2_pinpoint,
]


@pytest.mark.parametrize("split", range(1, len(SCRIPT)))
def test_saved_mid_fight_loaded_and_continued_ends_the_same(tmp_path: Path, split: int) -> None:
    """The whole script plays through (every step checks its own numbers), and ends the same when
    saved after any step, loaded and continued."""
    saved_and_continued(new_engagement, SCRIPT, split, tmp_path)


def test_saved_while_a_roll_is_pending(tmp_path: Path) -> None:
    enc = new_engagement()
    enc.act("locate", ship="lancer", target="raider", mode="passive", spend="free")
    path = tmp_path / "pending.toml"
    create(path, enc)
    loaded = SaveFile.load(path, ruleset=RULESET).encounter
    assert loaded.pending.describe() == enc.pending.describe()
    answer(loaded, "Locate: Lancer", "9")
    assert seen(loaded, "imp", "raider")["state"] == "located"
