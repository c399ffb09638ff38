"""Worked cases of ``megatraveller-sensors-fire.txt`` that no other test pinned, each with the line it comes from.

Every expected number is worked out by hand from the text's words (the line is cited above each case), not
read off the code. Fights are the small duels of ``test_by_the_book``: "a" (Imperial, computer 3, agility 2)
against "d" (Corsairs, computer 2, 400 tons unless a case says otherwise).
"""

from __future__ import annotations

import pytest

from engine.errors import IllegalAction
from rulesets.megatraveller import damage
from tests.rulesets.megatraveller.engagement import answer, mods
from tests.rulesets.megatraveller.test_by_the_book import battery, duel, in_fire_step, ship

# Lines 47-52, the range table: | Range | Visual | Near | Far | Extreme |, None for "N/A".
RANGE_TABLE = {
    "beam_laser": (0, 0, -1, -1),  # "| Laser | 0 | 0 | –1 | –1 |"
    "pulse_laser": (0, 0, -1, -1),
    "missile": (0, 0, 1, 1),  # "| Misile | 0 | 0 | +1 | +1 |"
    "nuclear_missile": (0, 0, 1, 1),
    "meson_gun": (0, 0, -2, -2),  # "| Meson | 0 | 0 | –2 | –2 |"
    "plasma_gun": (0, 0, None, None),  # "| Plasma/Fusion | 0 | 0 | N/A | N/A |"
    "fusion_gun": (0, 0, None, None),
    "tractor": (0, 0, None, None),  # "| Tractors | 0 | 0 | N/A | N/A |"
}
# Lines 5-8: "Visual = 1 space", "Near = 2 spaces", "Far 3-10 spaces", "Extreme 11-100 spaces": each band at
# both of its ends.
BAND_SQUARES = (("visual", 1), ("near", 2), ("far", 3), ("far", 10), ("extreme", 11), ("extreme", 100))
BANDS = ("visual", "near", "far", "extreme")


@pytest.mark.parametrize("band,squares", BAND_SQUARES)
def test_the_range_table_gives_each_weapon_its_to_hit_dm_in_every_band(band: str, squares: int) -> None:
    """Line 44: "11+ on 2d6 + Your Computer + Range Mod – Target's Def DM", with the Range Mod from the table of
    lines 47-52 by the band of lines 5-8; "N/A" is no shot at all."""
    weapons = list(RANGE_TABLE)
    enc = in_fire_step(duel({"batteries": [battery(w, 3) for w in weapons]}, {}, squares=squares))
    for i, weapon in enumerate(weapons, 1):
        dm = RANGE_TABLE[weapon][BANDS.index(band)]
        if dm is None:
            with pytest.raises(IllegalAction, match=f"cannot fire at {band} range"):
                enc.act("fire", ship="a", target="d", batteries=[f"B{i}"])
            continue
        enc.act("fire", ship="a", target="d", batteries=[f"B{i}"])
        assert str(enc.pending.target) == "11+"
        assert mods(enc).get(f"Range ({band})", 0) == dm, (weapon, band, mods(enc))
        assert mods(enc)["Computer"] == 3
        answer(enc, f"To hit: Gunship B{i}", "2")  # a miss: on to the next weapon


def test_the_av_list_between_and_past_its_printed_steps() -> None:
    """Lines 83-92: "AV ≤42: +0 / AV 43: –1 / AV 46: –2 / AV49: –3 ... AV64: –8 / Etc.": one more -1 at every
    third AV from 43, so 44 and 45 are still -1, 47 and 48 -2, 63 -7, 65 and 66 -8, 67 -9 and 70 -10."""
    cases = {0: 0, 42: 0, 44: -1, 45: -1, 47: -2, 48: -2, 63: -7, 65: -8, 66: -8, 67: -9, 70: -10}
    assert {av: damage.armor_dm(av) for av in cases} == cases


def test_flicker_adds_6_av_a_factor() -> None:
    """Line 93: "+6 AV per factor of flicker": AV 40 under a globe of flicker 2 reads as AV 52, which line 87
    ("AV52: –4") makes -4."""
    globed = {"armor": 40, "globe": "white", "globe_flicker": 2, "shut_down": []}
    assert damage.armor_value(globed) == 52 and damage.armor_dm(damage.armor_value(globed)) == -4


def test_the_av_dm_reads_on_every_table_and_a_spinal_has_no_minus_6() -> None:
    """Line 83's AV list spans the three columns ("[tc=3]"), so it is a DM on the surface, radiation and interior
    rolls alike; line 78: "Factor ≥A (10) (Spinals) | +0 | —— | ——", so a spinal particle accelerator rolls with
    the AV DM alone, where line 77 puts -6 on every table for a factor 9 or less. Line 71: a factor-A spinal rolls
    A - 9 = 1 time on each table; line 57: it hits on "Routine (7+)" with agility for the computer. Line 100:
    factor A (10) against the distribution of 100,000 tons (8 in the shipped table) is 2 criticals and 2 armor
    factors; line 102: "All Crit rolls are a flat 2d6", so no DM on them, not even the AV's."""
    enc = in_fire_step(duel({"batteries": [battery("particle_accelerator", 10, spinal=True), battery("meson_gun", 3)]},
                            {"tonnage": 100000, "armor": 49}))
    enc.act("fire", ship="a", target="d", batteries=["B1"])
    assert mods(enc) == {"Agility": 2}
    answer(enc, "To hit: Gunship B1 spinal particle accelerator-A", "5", target="7+")  # 5 + 2 = 7
    assert mods(enc) == {"AV 49": -3}
    answer(enc, "Damage (surface 1/1): B1", "2")
    assert mods(enc) == {"AV 49": -3}
    answer(enc, "Damage (radiation 1/1): B1", "2")
    assert ship(enc, "d")["armor"] == 47
    for n in (1, 2):
        assert mods(enc) == {}
        answer(enc, f"Critical {n}/2: Target", "12")
    assert enc.pending is None
    enc.act("fire", ship="a", target="d", batteries=["B2"])  # a meson gun-3 rolls radiation and interior (line 73)
    answer(enc, "To hit: Gunship B2 meson gun-3", "12")
    answer(enc, "Penetrate configuration-5", "12")
    for table in ("radiation", "interior"):  # AV 47 now: line 85, "AV 46: –2"
        assert mods(enc) == {"non-spinal weapon (factor 9 or less)": -6, "AV 47": -2}
        answer(enc, f"Damage ({table} 1/1): B2", "2")
    assert enc.pending is None  # factor 3 - 8: no critical


def test_a_factor_3_against_a_100_ton_ship_is_two_criticals() -> None:
    """Line 101: "a Factor 3 vs a 100T ship is going to be 2 crits"; line 100: the remainder is "the number of
    critical hits rolled and also the number of armor factors lost", so AV 10 drops to 8, and two flat 2D rolls
    (line 102) follow the damage roll."""
    enc = in_fire_step(duel({"batteries": [battery("beam_laser", 3)]}, {"tonnage": 100, "armor": 10}))
    enc.act("fire", ship="a", target="d", batteries=["B1"])
    answer(enc, "To hit: Gunship B1 beam laser-3", "9")  # 9 + 3 - 1 = 11
    answer(enc, "Damage (surface 1/1): B1", "2")
    assert ship(enc, "d")["armor"] == 8
    answer(enc, "Critical 1/2: Target", "5")
    answer(enc, "Critical 2/2: Target", "9")
    assert enc.pending is None and len(ship(enc, "d")["shut_down"]) == 2


def test_a_passive_lock_rolls_passobjpin() -> None:
    """Lines 22-23: a lock is "2d6+YourComputer - (range in squares)" and "Locks use the PassObjPin or ActObjPin,
    rather than scan": passive sensors roll the PassObjPin listed (Difficult, 11+). At 3 squares, 11 on the dice
    is 11 + 3 - 3 = 11, made, so the lock is won (line 25) whatever the referee rolls; his 2 fails, so one of
    the two succeeded: power and tonnage, not the type code (line 26)."""
    enc = duel({}, {}, squares=3)
    enc.correct("knowledge.imp.d.state", "located", note="test: as after a locate")
    enc.act("lock", ship="a", target="d", mode="passive", spend="free")
    assert mods(enc) == {"Computer": 3, "Range (squares)": -3}
    answer(enc, "Lock (player's roll): Gunship PassObjPin (difficult) on Target", "11", target="11+")
    answer(enc, "Lock (referee's roll): Gunship PassObjPin", "2", target="11+")
    assert enc.state["knowledge"]["imp"]["d"] == {"state": "locked", "revealed": "power and tonnage"}


def test_a_spinal_meson_gun_hits_on_7_with_agility_and_penetrates_with_the_computer() -> None:
    """Line 57: a spinal's "Target numebr is Routine (7+)" and "you get to use agility instead of computer"; line
    56: a meson gun's roll "is modified by the to-hit number" (2 on this ship's data); line 52's meson row: -2 at
    Far; line 44: "– Target's Def DM" (1), which line 57 leaves as it is. 5 + 2 - 2 + 2 - 1 = 6 misses, 6 makes 7. Then line 67: the meson screen and the configuration, each
    "Difficult (11+) on 2d6 +You Computer + Table Modifier – Their computer model" (line 62): the computer 3, not
    the agility; line 71: factor C (12) is 12 - 9 = 3 rolls on each of its two tables (line 73), at +0 (line 78)."""
    enc = in_fire_step(duel({"batteries": [battery("meson_gun", 12, spinal=True, to_hit_number=2, count=2)]},
                            {"meson_screen": 2, "configuration": 4, "defence_dm": 1}))
    enc.act("fire", ship="a", target="d", batteries=["B1-1", "B1-2"])
    assert mods(enc) == {"Agility": 2, "Range (far)": -2, "Meson to-hit number": 2, "Target Def DM": -1}
    answer(enc, "To hit: Gunship B1-1 spinal meson gun-C", "5", target="7+")
    assert enc.events[-1].notes[0] == "Miss"
    answer(enc, "To hit: Gunship B1-2 spinal meson gun-C", "6", target="7+")
    assert mods(enc)["Computer"] == 3 and mods(enc)["Target computer"] == -2 and "Agility" not in mods(enc)
    answer(enc, "Penetrate meson screen-2", "12", target="11+")
    assert mods(enc)["Computer"] == 3
    answer(enc, "Penetrate configuration-4", "12", target="11+")
    for table in ("radiation", "interior"):
        for n in (1, 2, 3):
            assert mods(enc) == {}
            answer(enc, f"Damage ({table} {n}/3): B1-2", "2")
    # factor C (12) - distribution 3 (400 tons): 9 criticals; the target has no armor to lose
    for n in range(1, 10):
        answer(enc, f"Critical {n}/9", "12")
    assert enc.pending is None


def test_with_the_errata_one_square_is_near_and_no_pinpoint_shot() -> None:
    """Line 5: "Visual = 1 space (but should be same space - errata item)"; line 55: pinpoint shots only "If at
    Visual range". With the errata option, 1 square is Near, where no aim may be named; 0 squares is Visual."""
    enc = in_fire_step(duel({"batteries": [battery("beam_laser", 4)]}, {}, squares=1, visual_same_square=True))
    with pytest.raises(IllegalAction, match="needs Visual range .*near range"):
        enc.act("fire", ship="a", target="d", batteries=["B1"], aim="fuel")
    enc.act("set_range", ship="a", target="d", squares=0)
    enc.act("fire", ship="a", target="d", batteries=["B1"], aim="fuel")
    answer(enc, "To hit", "10")  # 10 + 3 = 13: made by 2, the fuel hit is the firer's pick
    assert ship(enc, "d")["fuel"] == 90  # line 97: under 333 tons of fuel, 10 tons
