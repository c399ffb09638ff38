"""USP lines (Classic Traveller High Guard 2nd edition) read into classic-hg ships.

The golden line is the issue's example, the Kinunir-class battle cruiser's
listing: ``BC-A2447G2-000510-50202-0  MCr 1336.63  1250 tons``.
"""

from __future__ import annotations

import tomllib

import pytest

from engine.errors import BadTable
from engine.schema import validate
from rulesets.classic_hg.construction import check_ship, hardpoints
from rulesets.classic_hg.ships import SHIP_FIELDS, TURRET_FIELDS
from rulesets.classic_hg.tables import load_tables
from rulesets.classic_hg.usp import DIGITS, HULL_SIZES, decode_digit, parse_usp, ship_toml, usp_to_ship

KINUNIR = "BC-A2447G2-000510-50202-0"
KINUNIR_LISTED = "BC-A2447G2-000510-50202-0  MCr 1336.63  1250 tons"


def bad_message(line: str) -> str:
    with pytest.raises(BadTable) as caught:
        parse_usp(line)
    message = str(caught.value)
    assert "\n" not in message, message
    return message


class TestKinunir:
    """Every code of the issue's example, character by character."""

    def test_type_group(self):
        p = parse_usp(KINUNIR)
        assert p["type_code"] == "BC"  # group 1 "BC"
        assert p["type_name"] == "battle cruiser"
        assert p["naval"] is True  # mission letter B (battle)

    def test_hull_group(self):
        p = parse_usp(KINUNIR)
        # group 2 "A2447G2"
        assert p["size_code"] == "A"  # char 1 'A': 1,000-1,999 tons
        assert (p["tonnage_min"], p["tonnage_max"]) == (1000, 1999)
        assert p["configuration"] == 2  # char 2 '2'
        assert p["configuration_name"] == "cone"
        assert p["streamlining"] == "streamlined"
        assert p["jump"] == 4  # char 3 '4'
        assert p["maneuver"] == 4  # char 4 '4'
        assert p["power_plant"] == 7  # char 5 '7'
        assert p["computer_code"] == "G"  # char 6 'G': model 7 fib
        assert p["computer_model"] == 7
        assert p["computer_fib"] is True
        assert p["computer_bis"] is False
        assert p["crew_code"] == 2  # char 7 '2': 10-99 crew (the listing says Crew=45)
        assert p["crew_range"] == (10, 99)

    def test_defence_group(self):
        p = parse_usp(KINUNIR)
        # group 3 "000510"
        assert p["armor"] == 0  # char 1
        assert p["sandcasters"] == 0  # char 2
        assert p["meson_screen"] == 0  # char 3
        assert p["nuclear_damper"] == 5  # char 4 '5'
        assert p["force_field"] == 1  # char 5 '1'
        assert p["repulsors"] == 0  # char 6

    def test_weapon_and_fighter_groups(self):
        p = parse_usp(KINUNIR)
        # group 4 "50202"
        assert p["lasers"] == 5  # char 1 '5'
        assert p["energy_weapons"] == 0  # char 2
        assert p["particle_accelerators"] == 2  # char 3 '2': a battery factor, not a spinal mount
        assert p["meson_guns"] == 0  # char 4
        assert p["missiles"] == 2  # char 5 '2'
        assert p["spinal_mount"] is None
        # group 5 "0"
        assert p["fighter_squadrons"] == 0

    def test_listing_tail_gives_cost_and_displacement(self):
        p = parse_usp(KINUNIR_LISTED)
        assert p["listed_cost_mcr"] == 1336.63
        assert p["listed_tonnage"] == 1250
        assert p["usp"] == KINUNIR

    def test_ship(self):
        ship = usp_to_ship(KINUNIR, "Kinunir")
        assert ship["name"] == "Kinunir"
        assert ship["class_name"] == "BC (battle cruiser)"
        assert ship["tonnage"] == 1000  # size code A's smallest hull; the profile alone has no exact tonnage
        assert ship["hull_config"] == 2
        assert ship["naval"] is True
        assert (ship["jump"], ship["maneuver"], ship["power_plant"]) == (4, 4, 7)
        assert (ship["computer_model"], ship["computer_fib"]) == (7, True)
        assert ship["armor_factor"] == 0
        assert ship["nuclear_dampers"] == 5
        assert ship["repulsors"] == 0
        weapons = [t["weapon"] for t in ship["turrets"]]
        # one turret a point of factor: lasers 5, missiles 2, particle accelerators 2 (9 of 10 hardpoints)
        assert weapons == ["beam_laser"] * 5 + ["missile_rack"] * 2 + ["particle_accelerator"] * 2
        assert [t["count"] for t in ship["turrets"]] == [3] * 7 + [1] * 2
        assert ship["missiles"] == 60  # 10 a rack, 6 racks
        assert ship["sand"] == 0

    def test_ship_uses_listed_tonnage(self):
        ship = usp_to_ship(KINUNIR_LISTED, "Kinunir")
        assert ship["tonnage"] == 1250
        assert ship["usp"] == KINUNIR


class TestDigits:
    def test_alphabet(self):
        assert decode_digit("0") == 0
        assert decode_digit("9") == 9
        assert decode_digit("A") == 10
        assert decode_digit("H") == 17
        assert decode_digit("J") == 18  # I is skipped
        assert decode_digit("K") == 19
        assert decode_digit("N") == 22
        assert decode_digit("P") == 23  # O is skipped
        assert decode_digit("Z") == 33
        assert len(DIGITS) == 34 and "I" not in DIGITS and "O" not in DIGITS

    @pytest.mark.parametrize("ch", ["I", "O"])
    def test_i_and_o_refused(self, ch):
        with pytest.raises(BadTable, match="I and O are never used"):
            decode_digit(ch)

    @pytest.mark.parametrize("ch, says", [("a", "upper case"), ("?", "expected 0-9"), ("", "one character"),
                                          ("AB", "one character")])
    def test_others_refused(self, ch, says):
        with pytest.raises(BadTable, match=says):
            decode_digit(ch)


class TestCodes:
    def test_hull_sizes(self):
        assert HULL_SIZES["0"] == (0, 99)
        assert HULL_SIZES["9"] == (900, 999)
        assert HULL_SIZES["J"] == (9000, 9999)
        assert HULL_SIZES["K"] == (10_000, 19_999)
        assert HULL_SIZES["P"] == (50_000, 74_999)
        assert HULL_SIZES["V"] == (500_000, 699_999)
        assert HULL_SIZES["Z"] == (2_000_000, None)

    @pytest.mark.parametrize("code, model, fib, bis", [
        ("0", 0, False, False), ("5", 5, False, False), ("A", 1, True, False), ("J", 9, True, False),
        ("R", 1, False, True), ("S", 2, False, True)])
    def test_computer_codes(self, code, model, fib, bis):
        p = parse_usp(f"SS-11221{code}1-000000-10000-0")  # char 6 of group 2
        assert (p["computer_model"], p["computer_fib"], p["computer_bis"]) == (model, fib, bis)

    def test_spinal_mount(self):
        # group 4 char 3 'A': a spinal particle accelerator, not a battery factor
        p = parse_usp("CS-K2244C3-C30000-20A05-2")
        assert p["spinal_mount"] == {"weapon": "particle accelerator", "code": "A"}
        assert p["particle_accelerators"] == 0
        assert p["fighter_squadrons"] == 2
        ship = usp_to_ship("CS-K2244C3-C30000-20A05-2", "Spine")
        assert "particle_accelerator" not in [t["weapon"] for t in ship["turrets"]]
        assert ship["armor_factor"] == 12  # armor 'C'
        assert ship["naval"] is True
        assert "spinal mount A (particle accelerator)" in ship_toml(ship)

    def test_not_naval(self):
        ship = usp_to_ship("A-2111110-000000-10000-0", "Beowulf")
        assert ship["naval"] is False
        assert ship["class_name"] == "A (trader type)"


class TestCaps:
    def test_hardpoints_share_turrets_round_the_types(self):
        # 300 tons, power plant 9: 3 hardpoints for lasers 3 and missiles 3 -> laser, missile, laser
        ship = usp_to_ship("A-3111910-000000-30003-0", "Trader")
        assert hardpoints(300) == 3
        assert [t["weapon"] for t in ship["turrets"]] == ["beam_laser", "beam_laser", "missile_rack"]

    def test_values_over_ship_file_limits_are_capped(self):
        # armor 'G' (16) -> 15, computer 0 -> model 1, size Z -> 1,000,000 tons
        ship = usp_to_ship("BB-Z296901-G00000-00000-0", "Big")
        assert ship["armor_factor"] == 15
        assert ship["power_plant"] == 9
        assert ship["maneuver"] == 6
        assert ship["computer_model"] == 1
        assert ship["tonnage"] == 1_000_000

    def test_a_hull_past_a_ship_files_limit_says_it_was_capped(self):
        """Found by a game master's drive: size Z said "tonnage 1,000,000: the least of size code 'Z' (2,000,000
        or more tons)", and a listing's 2,500,000 tons was cut to 1,000,000 without a word."""
        from rulesets.classic_hg.usp import assumptions

        line = "BB-Z296901-G00000-00000-0"
        p, ship = parse_usp(line), usp_to_ship(line, "Big")
        assert assumptions(p, ship)[0] == ("tonnage 1,000,000: the most a ship file holds, under size code 'Z' "
                                           "(2,000,000 or more tons)")
        listed = f"{line}  2500000 tons"
        p = parse_usp(listed)
        assert assumptions(p, usp_to_ship(listed, "Big"))[0] == \
            "tonnage 1,000,000: the most a ship file holds, not the listing's 2,500,000 tons"

    def test_a_drive_past_high_guard_is_refused_not_capped(self):
        """Issue 9: 'ZZ' decodes to 33 and was silently capped to 9."""
        with pytest.raises(BadTable, match=r"character 3 'Z' \(jump\) is 33, past any High Guard drive"):
            usp_to_ship("BC-A2ZZ7G2-000510-50202-0", "Too fast")

    def test_a_drive_above_the_power_plant_is_refused(self):
        """classic-hg-combat.txt (Power Plant): "Maneuver and jump may not exceed the power plant factor": a
        profile that breaks it names the drive, where a ship made from it would fail the construction check."""
        with pytest.raises(BadTable, match=r"^USP 'F-0106110-000000-10000-0': maneuver 6 exceeds the power plant "
                                           r"factor 1 \(maneuver and jump may not exceed it\)$"):
            usp_to_ship("F-0106110-000000-10000-0", "Fighter")
        with pytest.raises(BadTable, match=r"jump 4 exceeds the power plant factor 3"):
            usp_to_ship("A-2142310-000000-10000-0", "Jumper")

    def test_published_listings_import(self):
        """Issue 9: lines as game masters copy them from books and fleet lists."""
        from rulesets.classic_hg.usp import assumptions, listed_name, parse_usp

        kinunir = parse_usp("BC-9514 Kinunir  BC-A2447G2-000510-50202-0  MCr 1336.63  1250 tons")
        assert (kinunir["type_code"], listed_name(kinunir), kinunir["listed_tonnage"]) == ("BC", "Kinunir", 1250)
        assert parse_usp("Ba-K952563-J41100-34003-0")["type_code"] == "BA"  # lower case as printed
        assert parse_usp("A2-A2447G2-000510-50202-0")["type_code"] == "A2"  # letters and digits
        said = assumptions(parse_usp("BC-A2447G2-000510-50202-0"))
        assert "tonnage 1,000: the least of size code 'A'" in said[0]

    def test_small_craft_gets_the_smallest_hull(self):
        ship = usp_to_ship("F-0106610-000000-10000-0", "Fighter")
        assert ship["tonnage"] == 10  # size code 0: under 100 tons
        assert ship["turrets"] == []  # its one hardpoint, but 0.6 energy points cannot feed a laser

    def test_power_plant_limits_turrets(self):
        # 1,000 tons x power plant 1 / 100 = 10 energy points; a triple beam laser turret needs 3,
        # so three triples and a single use all 10
        ship = usp_to_ship("A-A111110-000000-90000-0", "Underpowered")
        assert [(t["weapon"], t["count"]) for t in ship["turrets"]] == [("beam_laser", 3)] * 3 + [("beam_laser", 1)]

    @pytest.mark.parametrize("line", [KINUNIR, KINUNIR_LISTED, "CS-K2244C3-C30000-20A05-2",
                                      "A-3111110-000000-30003-0", "A-A111110-000000-90000-0",
                                      "BB-Z296901-G00000-99999-0", "F-0106610-000000-10000-0"])
    def test_ships_pass_the_construction_check(self, line):
        ship = {k: v for k, v in usp_to_ship(line, "Test").items() if k != "usp"}
        check_ship(validate(ship, SHIP_FIELDS, "ship"), load_tables(), "ship")


class TestMalformed:
    """Each bad line is one BadTable line naming the line, the place and what was expected."""

    @pytest.mark.parametrize("line, says", [
        ("", "empty line, expected a profile like BC-A2447G2-000510-50202-0"),
        ("   ", "empty line"),
        ("BC-A2447G2-000510", "has 3 groups between hyphens, expected 5"),
        ("BC-A2447G2-000510-50202-0-1", "has 6 groups"),
        ("BC-A2447G2-00051-50202-0",
         "group 3 '00051' has 5 characters, expected 6 (armor, sand, meson screen, damper, globe, repulsors)"),
        ("BC-A2447G-000510-50202-0", "group 2 'A2447G' has 6 characters, expected 7"),
        ("BC-A2447I2-000510-50202-0", "group 2 character 6 'I' (computer) is not a USP digit: the letters I and O"),
        ("BC-A2447G2-0O0510-50202-0", "group 3 character 2 'O' (sand)"),
        ("B!-A2447G2-000510-50202-0", "group 1 'B!' is not a ship type code: expected 1-4 letters and digits"),
        ("BC-A2447G2-000510-5#202-0", "group 4 character 2 '#' (energy weapons)"),
        ("hello world", "has 1 group"),
        ("BC-A0447G2-000510-50202-0", "group 2 character 2 '0' (configuration): expected 1-9"),
        ("BC-A2447K2-000510-50202-0", "'K' (computer): expected 0-9 (model), A-H or J (model 1-9 fib)"),
        ("BC-A2447G2-000510-50U02-0", "'U' (particle accelerators): expected 0-9 (battery factor) or A-T"),
        ("BC-A2447G2-000510-50202-0 junk", "unexpected 'junk' after the profile"),
        ("BC-A2447G2-000510-50202-0 900 tons", "900 tons does not fit size code 'A' (1,000-1,999 tons)"),
    ])
    def test_one_line_naming_the_problem(self, line, says):
        message = bad_message(line)
        assert message.startswith(f"USP {line.strip()!r}:"), message
        assert says in message, message


class TestShipFile:
    def test_toml_parses_and_validates(self):
        text = ship_toml(usp_to_ship(KINUNIR, "Kinunir"))
        assert text.splitlines()[0].startswith(f"# classic-hg ship from USP {KINUNIR}")
        doc = tomllib.loads(text)
        body = doc["ship"]
        assert next(iter(body)) == "ruleset"
        assert body["ruleset"] == "classic-hg"
        ship = validate({k: v for k, v in body.items() if k != "ruleset"}, SHIP_FIELDS, "ship")
        assert ship["name"] == "Kinunir"
        assert ship["tonnage"] == 1000
        assert len(ship["turrets"]) == 9
        for i, turret in enumerate(ship["turrets"]):
            validate(turret, TURRET_FIELDS, f"ship.turrets[{i}]", allow_extra=False)
        assert "usp" not in body

    def test_toml_notes_what_was_not_carried_over(self):
        text = ship_toml(usp_to_ship(KINUNIR, "Kinunir"))
        assert "# not carried over: force field factor 1" in text

    def test_toml_refuses_unknown_fields(self):
        ship = usp_to_ship(KINUNIR, "Kinunir") | {"warp_factor": 9}
        with pytest.raises(BadTable, match="unknown field 'warp_factor'"):
            ship_toml(ship)

    def test_toml_of_a_ship_without_usp(self):
        ship = {k: v for k, v in usp_to_ship(KINUNIR, "Kinunir").items() if k != "usp"}
        text = ship_toml(ship)
        assert text.startswith("# classic-hg ship")
        assert tomllib.loads(text)["ship"]["name"] == "Kinunir"


class TestWhatAUspImplies:
    """Issue 9: an import fills crew, fuel, gunners and programs from rulesets/classic_hg/usp_defaults.toml
    (our shipped defaults: the rules text and a USP give none) and says what it assumed."""

    def test_kinunir_fuel_for_its_jump_and_power_plant(self):
        # 1,250 tons: jump 4 x 10% = 500 tons, power plant 7 x 1% = 87.5 tons; 587.5 rounded up
        assert usp_to_ship(KINUNIR_LISTED, "Kinunir")["fuel"] == 588

    def test_kinunir_crew_by_tonnage_and_turrets(self):
        ship = usp_to_ship(KINUNIR_LISTED, "Kinunir")
        turrets = len(ship["turrets"])
        # bridge 2 + one a full 1,000 tons; engineering one a full 200 tons; a gunner a turret
        assert ship["crew"] == {"bridge": 3, "engineering": 6, "weapons": turrets}

    def test_naval_gunners_are_trained_civilian_ones_are_not(self):
        assert {t["gunner_skill"] for t in usp_to_ship(KINUNIR, "Kinunir")["turrets"]} == {1}
        assert {t["gunner_skill"] for t in usp_to_ship("A-3111910-000000-30003-0", "Trader")["turrets"]} == {0}

    def test_programs_the_weapons_need_come_first_then_the_extras_while_storage_lasts(self):
        ship = usp_to_ship(KINUNIR, "Kinunir")
        # lasers fire with TARGET and defend with ANTI-MISSILE; missile racks fire with LAUNCH
        assert ship["programs"][:3] == ["TARGET", "ANTI-MISSILE", "LAUNCH"]
        assert ship["programs"][3:] == ["GUNNER INTERACT", "AUTO EVADE", "MANEUVER"]  # model 7: 50 spaces
        assert ship["program_library"] == ["NAVIGATION", "JUMP-4"]

    def test_a_model_1_computer_holds_only_what_fits(self):
        tables = load_tables()
        ship = usp_to_ship("A-3111110-000000-30003-0", "Trader")
        used = sum(tables.programs[p]["storage"] for p in ship["programs"])
        assert used <= tables.computers[1]["storage"]
        assert ship["programs"][0] == "TARGET"  # the weapons' needs before any extra

    def test_the_assumptions_name_every_filled_figure(self):
        from rulesets.classic_hg.usp import assumptions

        said = " | ".join(assumptions(parse_usp(KINUNIR_LISTED), usp_to_ship(KINUNIR_LISTED, "Kinunir")))
        for words in ("fuel 588 tons", "crew bridge 3, engineering 6, weapons", "gunners' skill 1",
                      "programs loaded: TARGET", "usp_defaults.toml"):
            assert words in said, (words, said)

    def test_small_craft_keep_a_hardpoint_and_their_missiles(self):
        """Issue 9: small craft under 100 tons keep their weapons (one hardpoint under 100 tons)."""
        ship = usp_to_ship("F-0106910-000000-00001-0", "Missile boat")
        assert hardpoints(10) == 1
        assert [t["weapon"] for t in ship["turrets"]] == ["missile_rack"]

    def test_a_weapon_the_plant_cannot_feed_is_said_not_silently_dropped(self):
        from rulesets.classic_hg.usp import assumptions

        # 10 tons x power plant 6 / 100 = 0.6 energy points; a beam laser needs 1
        p, ship = parse_usp("F-0106610-000000-10000-0"), usp_to_ship("F-0106610-000000-10000-0", "Fighter")
        assert ship["turrets"] == []
        assert any("lasers factor 1 not mounted" in line and "0.6 energy" in line for line in assumptions(p, ship))

    def test_a_turret_smaller_than_a_triple_when_only_that_fits(self):
        # 100 tons x power plant 2 / 100 = 2 energy points: two beam lasers in the one turret
        ship = usp_to_ship("A-1112210-000000-10000-0", "Cutter")
        assert [(t["weapon"], t["count"]) for t in ship["turrets"]] == [("beam_laser", 2)]

    def test_a_weapon_refused_for_power_is_said_so_though_another_took_the_hardpoint(self):
        """Found by a game master's drive: 10 tons at power plant 1 give 0.1 energy points, so the laser was
        refused for power while the one hardpoint was free, and the missile rack took it after; the import said
        the laser was not mounted because the hardpoint was taken."""
        from rulesets.classic_hg.usp import assumptions

        line = "S-0111111-000000-10001-0"
        p, ship = parse_usp(line), usp_to_ship(line, "Scout")
        assert [t["weapon"] for t in ship["turrets"]] == ["missile_rack"]
        said = [s for s in assumptions(p, ship) if s.startswith("lasers")]
        assert said == ["lasers factor 1 not mounted: the power plant gives 0.1 energy points in all and a "
                        "beam laser needs 1"]

    def test_a_weapon_short_of_power_after_others_says_what_was_left(self):
        # 300 tons x power plant 1 / 100 = 3 energy points: a triple beam laser turret takes them all, and the
        # plasma gun (2 energy points) is refused with 0 left, though two hardpoints are free
        from rulesets.classic_hg.usp import assumptions

        line = "A-3111110-000000-31000-0"
        said = [s for s in assumptions(parse_usp(line), usp_to_ship(line, "Trader")) if "factor" in s]
        assert said[1] == ("energy weapons factor 1 not mounted: the power plant gives 3 energy points in all, "
                           "0 left after the turrets mounted before it, and a plasma gun needs 2")

    def test_a_weapon_short_of_hardpoints_still_says_so(self):
        from rulesets.classic_hg.usp import assumptions

        line = "A-3111910-000000-30003-0"  # 3 hardpoints for lasers 3 and missiles 3, power to spare
        said = [s for s in assumptions(parse_usp(line), usp_to_ship(line, "Trader")) if "factor" in s]
        assert said == ["lasers factor 3 mounted as 2 turret(s) only: the hull's 3 hardpoint(s) are taken",
                        "missiles factor 3 mounted as 1 turret(s) only: the hull's 3 hardpoint(s) are taken"]



def test_a_line_copied_with_typographic_dashes_reads_as_typed_with_hyphens() -> None:
    """A USP copied from a PDF or a web page often carries en or em dashes, or the minus sign, for its hyphens:
    a drive's pasted "BC–A2447G2–000510–50202–0" was refused as "1 group between hyphens". Each reads as '-'."""
    from rulesets.classic_hg.usp import parse_usp

    plain = parse_usp("BC-A2447G2-000510-50202-0")
    for dash in "\u2010\u2011\u2012\u2013\u2014\u2212":
        assert parse_usp(f"BC{dash}A2447G2{dash}000510{dash}50202{dash}0") == plain, repr(dash)
