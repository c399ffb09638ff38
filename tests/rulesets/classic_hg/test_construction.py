"""classic-hg construction: the ship library keeps every limit, each limit refuses a ship that
breaks it with one line, and the report prices what the rules text prices."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.errors import BadTable
from engine.schema import validate
from rulesets.classic_hg.construction import check_ship, construction_report
from rulesets.classic_hg.ships import SHIP_FIELDS
from rulesets.classic_hg.tables import Tables, load_tables

LIBRARY = Path(__file__).resolve().parents[3] / "rulesets" / "classic_hg" / "ships"
SHIP_FILES = sorted(LIBRARY.glob("*.toml"))


@pytest.fixture(scope="module")
def tables() -> Tables:
    return load_tables()


def library_ship(path: Path) -> dict[str, Any]:
    doc = tomllib.loads(path.read_text(encoding="utf-8"))["ship"]
    assert doc["ruleset"] == "classic-hg"
    return validate({k: v for k, v in doc.items() if k != "ruleset"}, SHIP_FIELDS, "ship")


def make_ship(**fields: Any) -> dict[str, Any]:
    """A plain 400-ton ship with a model 2 computer, changed by ``fields``."""
    base = {"name": "Test", "tonnage": 400, "power_plant": 2, "computer_model": 2}
    return validate({**base, **fields}, SHIP_FIELDS, "ship")


def refused(ship: dict[str, Any], tables: Tables) -> str:
    with pytest.raises(BadTable) as caught:
        check_ship(ship, tables, "ship")
    text = str(caught.value)
    assert "\n" not in text
    return text


# --- the library ------------------------------------------------------------------------------

def test_the_library_has_the_six_ships() -> None:
    names = {p.stem for p in SHIP_FILES}
    assert {"scout", "free-trader", "patrol-cruiser", "corsair", "close-escort", "destroyer"} <= names


@pytest.mark.parametrize("path", SHIP_FILES, ids=[p.stem for p in SHIP_FILES])
def test_each_library_ship_validates(path: Path, tables: Tables) -> None:
    check_ship(library_ship(path), tables, path.name)


def test_the_library_uses_every_mount_and_special_fitting(tables: Tables) -> None:
    ships = [library_ship(p) for p in SHIP_FILES]
    mounts = {t["weapon"] for s in ships for t in s["turrets"]}
    assert mounts == set(tables.mounts)
    assert any(s["torpedo_tubes"] and s["torpedoes"] != 0 for s in ships)
    assert any(s["repulsors"] for s in ships) and any(s["nuclear_dampers"] for s in ships)
    assert any(s["armor_spaced"] for s in ships) and any(s["am_missiles"] for s in ships)
    assert any(c for s in ships for h in s["hangars"] for c in h["small_craft"])
    berths = {o["berth"].split()[0] for s in ships for o in s["occupants"]}
    assert berths == {"stateroom", "low"}
    assert all(s["crew"] for s in ships)


# --- the report -----------------------------------------------------------------------------

def sample_ship(**fields: Any) -> dict[str, Any]:
    """800 tons, power plant 3: two tubes, twelve torpedoes (two in the 5-ton hold), two repeater
    turrets, and only programs the text prices."""
    sample = dict(tonnage=800, power_plant=3, computer_model=3, torpedo_tubes=2, torpedoes=12, cargo=5,
                  turrets=[{"weapon": "infinite_repeater"}, {"weapon": "infinite_repeater"}],
                  programs=["TORPEDO LAUNCH", "MISSILE DEFENSE", "ANTI-MISSILE II"],
                  program_library=["INTERCEPT", "TORPEDO LAUNCH"])
    return make_ship(**{**sample, **fields})


def test_report_prices_what_the_text_prices(tables: Tables) -> None:
    """classic-hg-combat.txt: tubes "1.5MCr if the tube is specified at the time of construction",
    "displace 3 tins"; torpedoes "massing 500kg each"; an infinite repeater "1.5 MCr, and displaces
    3 tons", "use 2 energy points"; TORPEDO LAUNCH 1 space MCr 2.5, MISSILE DEFENSE 2 spaces MCr 0.8,
    ANTI-MISSILE II 3 spaces MCr 2.5, INTERCEPT MCr 0.8."""
    ship = sample_ship()
    check_ship(ship, tables, "ship")
    r = construction_report(ship, tables)
    assert r["torpedo_tubes"] == {"count": 2, "retrofitted": False, "tons": 6, "mcr": 3.0}
    assert r["torpedoes"] == {"count": 12, "tray": 10, "tons": 6.0, "beyond_tray": 2, "beyond_tray_tons": 1.0}
    assert r["armor"] == {"factor": 0, "spaced": False, "percent": 0, "tons": 0}
    assert r["infinite_repeaters"] == {"count": 2, "tons": 6, "mcr": 3.0}
    assert r["programs"] == {"loaded": ["TORPEDO LAUNCH", "MISSILE DEFENSE", "ANTI-MISSILE II"],
                             "storage": 6, "capacity": 9, "mcr": pytest.approx(5.8)}
    assert r["program_library"] == {"names": ["INTERCEPT"], "mcr": pytest.approx(0.8)}
    assert r["energy"] == {"needed": 4, "available": 24}
    assert r["hardpoints"] == {"total": 8, "turrets": 2, "tubes": 2}
    assert r["tons"] == 18.0
    assert r["mcr"] == pytest.approx(12.6)


def test_report_retrofitted_tubes_and_the_normal_tray(tables: Tables) -> None:
    """classic-hg-combat.txt: "Retrofitting on a completed ship costs 2.5MCr"; "Five torpedoes ...
    are the normal load in the launching tray" (torpedoes = -1 in a ship file)."""
    r = construction_report(sample_ship(tubes_retrofitted=True, torpedoes=-1), tables)
    assert r["torpedo_tubes"]["mcr"] == 5.0
    assert r["torpedoes"] == {"count": 10, "tray": 10, "tons": 5.0, "beyond_tray": 0, "beyond_tray_tons": 0.0}


def test_report_uses_a_ships_own_storage(tables: Tables) -> None:
    assert construction_report(sample_ship(computer_storage=12), tables)["programs"]["capacity"] == 12


# --- each limit -----------------------------------------------------------------------------

def test_an_unknown_turret_weapon_is_refused(tables: Tables) -> None:
    text = refused(make_ship(turrets=[{"weapon": "beam_laser"}, {"weapon": "railgun"}]), tables)
    assert text.startswith("ship.turrets[1].weapon: unknown turret weapon 'railgun' (known: beam_laser")


def test_more_than_three_weapons_in_a_turret_is_refused(tables: Tables) -> None:
    text = refused(make_ship(turrets=[{"weapon": "beam_laser", "count": 4}]), tables)
    assert text == "ship.turrets[0]: count must be at most 3, got 4"


def test_an_infinite_repeater_must_be_alone_in_its_turret(tables: Tables) -> None:
    """classic-hg-combat.txt: "1 (one) infinite repeater my be installed per turret, exclusive of
    other weapons"."""
    text = refused(make_ship(power_plant=4, turrets=[{"weapon": "infinite_repeater", "count": 2}]), tables)
    assert text.startswith("ship.turrets[0]: the infinite repeater is mounted alone, one per turret")
    assert "count must be 1, got 2" in text


def test_tubes_only_on_hardpoints_not_allocated_to_weaponry(tables: Tables) -> None:
    """classic-hg-combat.txt: "One tube may be installed per 100 tons of ship displacement not
    otherwise allocated to weaponry." 400 tons with three turrets leaves room for one tube."""
    three = [{"weapon": "missile_rack"}] * 3
    check_ship(make_ship(turrets=three, torpedo_tubes=1), tables, "ship")
    text = refused(make_ship(turrets=three, torpedo_tubes=2), tables)
    assert text.startswith("ship.torpedo_tubes: 2 tubes but only 1 of 4 hardpoints are not allocated to weaponry")


def test_no_tube_under_100_tons(tables: Tables) -> None:
    """classic-hg-combat.txt (Torpedoes): "One tube may be installed per 100 tons of ship displacement": a
    small craft under 100 tons has its one weapon position (our reading), but no 100 tons for a tube."""
    for tonnage in (50, 99):
        text = refused(make_ship(tonnage=tonnage, computer_model=1, torpedo_tubes=1), tables)
        assert text.startswith(f"ship.torpedo_tubes: 1 tubes but a {tonnage}-ton ship has no 100 tons"), text
    check_ship(make_ship(tonnage=100, computer_model=1, torpedo_tubes=1), tables, "ship")
    check_ship(make_ship(tonnage=50, computer_model=1, turrets=[{"weapon": "sandcaster"}]), tables, "ship")


def test_maneuver_and_jump_may_not_exceed_the_power_plant(tables: Tables) -> None:
    """classic-hg-combat.txt (Power Plant): "Maneuver and jump may not exceed the power plant factor"."""
    check_ship(make_ship(power_plant=2, maneuver=2, jump=2), tables, "ship")
    assert refused(make_ship(power_plant=2, maneuver=3), tables) == \
        "ship.maneuver: 3 exceeds the power plant factor 2 (maneuver and jump may not exceed it)"
    assert refused(make_ship(power_plant=2, jump=4), tables) == \
        "ship.jump: 4 exceeds the power plant factor 2 (maneuver and jump may not exceed it)"


def test_more_turrets_than_hardpoints_is_refused(tables: Tables) -> None:
    text = refused(make_ship(turrets=[{"weapon": "sandcaster"}] * 5), tables)
    assert text == "ship.turrets: 5 turrets but a 400-ton ship has 4 hardpoints (one per 100 tons)"


def test_torpedoes_need_a_tube(tables: Tables) -> None:
    """classic-hg-combat.txt: "Torpedoes are launched from tubes installed on the carrying ship"."""
    assert refused(make_ship(torpedoes=3), tables) == "ship.torpedoes: 3 torpedoes but no torpedo tubes to launch them"
    check_ship(make_ship(torpedoes=-1), tables, "ship")  # the default: a tray per tube, none here


@pytest.mark.parametrize("field", ["programs", "program_library"])
def test_an_unknown_program_is_refused(tables: Tables, field: str) -> None:
    text = refused(make_ship(**{field: ["TARGET", "WARP SPEED"]}), tables)
    assert text.startswith(f"ship.{field}: unknown program 'WARP SPEED' (known: ")


def test_loaded_programs_must_fit_storage(tables: Tables) -> None:
    """classic-hg-combat.txt: ANTI-MISSILE II "requires 3 spaces of computer storage", MISSILE
    DEFENSE "2 spaces": five spaces do not fit a model 1 computer's four (our computers table),
    but do fit a ship given computer_storage = 5."""
    programs = ["ANTI-MISSILE II", "MISSILE DEFENSE"]
    text = refused(make_ship(computer_model=1, programs=programs), tables)
    assert text == "ship.programs: the loaded programs need 5 spaces of storage but the computer has 4"
    check_ship(make_ship(computer_model=1, computer_storage=5, programs=programs), tables, "ship")


def test_a_library_program_must_fit_on_its_own(tables: Tables) -> None:
    """classic-hg-combat.txt: ANTI-MISSILE II "requires 3 spaces": a 2-space computer can never load it."""
    text = refused(make_ship(computer_storage=2, program_library=["ANTI-MISSILE II"]), tables)
    assert text == ("ship.program_library: ANTI-MISSILE II needs 3 spaces but the computer has only 2, "
                    "so it could never be loaded")


def test_a_program_loaded_twice_is_refused(tables: Tables) -> None:
    assert refused(make_ship(programs=["TARGET", "TARGET"]), tables) == "ship.programs: 'TARGET' is loaded twice"


def test_weapons_may_not_need_more_energy_than_the_plant_gives(tables: Tables) -> None:
    """classic-hg-combat.txt: infinite repeaters "use 2 energy points"; a 100-ton ship with power
    plant 1 has 1 (tonnage x power plant / 100)."""
    ship = make_ship(tonnage=100, power_plant=1, turrets=[{"weapon": "infinite_repeater"}])
    assert refused(ship, tables) == ("ship.turrets: the weapons need 2 energy points but the power plant gives 1 "
                                     "(tonnage 100 x power plant 1 / 100)")
    check_ship({**ship, "power_plant": 2}, tables, "ship")


def test_crew_stand_in_general_locations(tables: Tables) -> None:
    text = refused(make_ship(crew={"bridge": 2, "galley": 1}), tables)
    assert text.startswith("ship.crew.galley: not a general location of the locations table (known: ")


def test_occupants_need_a_berth_the_ship_has(tables: Tables) -> None:
    ship = make_ship(staterooms=2, low_berths=1, occupants=[{"name": "A", "berth": "stateroom 1"},
                                                             {"name": "B", "berth": "low 2"}])
    assert refused(ship, tables) == ("ship.occupants[1].berth: the ship has no berth 'low 2' "
                                     "(2 staterooms, 1 low berths)")


def test_small_craft_need_a_name_and_tons(tables: Tables) -> None:
    ship = make_ship(hangars=[{"name": "Bay", "small_craft": [{"name": "Gig"}]}])
    assert refused(ship, tables).startswith("ship.hangars[0].small_craft[0]: expected {name = \"...\", tons = N}")


# --- armor and space (issue 10) -----------------------------------------------------------------

@pytest.mark.parametrize("factor,spaced,tons", [(0, False, 0), (3, False, 8.0), (3, True, 16.0), (4, True, 20.0)])
def test_armor_tonnage_is_reckoned_and_spaced_armor_takes_twice(tables: Tables, factor: int, spaced: bool,
                                                                tons: float) -> None:
    """"Spaced armor requires twice the tonnage of nonspaced armor." The text prints no armor tonnage:
    the shipped armor table takes (2 + 2 x factor) percent of the hull (High Guard's shape), so a
    100-ton scout armored to factor 3 carries 8 tons of armor, 16 when spaced."""
    assert tables.armor == {"percent_base": 2, "percent_per_factor": 2}
    ship = make_ship(tonnage=100, armor_factor=factor, armor_spaced=spaced, computer_model=1)
    check_ship(ship, tables, "ship")
    r = construction_report(ship, tables)
    assert r["armor"]["tons"] == tons
    assert r["tons"] == tons


def test_fittings_may_not_displace_more_than_the_hull(tables: Tables) -> None:
    """Armor factor 15 spaced takes 2 x 32% = 64% of the hull; with ten tubes' worth of torpedoes
    crammed in the hold a 100-ton hull cannot hold it all."""
    text = refused(make_ship(tonnage=100, armor_factor=15, armor_spaced=True, computer_model=1, torpedo_tubes=1,
                             torpedoes=80, cargo=40), tables)
    assert text == ("ship: armor, tubes, torpedoes and repeaters displace 107 tons, more than the 100-ton hull "
                    "(armor 64 tons)")


@pytest.mark.parametrize("cargo,ok", [(1, False), (2, True)])
def test_torpedoes_beyond_the_tray_only_if_space_is_available(tables: Tables, cargo: int, ok: bool) -> None:
    """"Five torpedoes, massing 500kg each are the normal load in the launching tray, but numbers in excess
    of this may be carried if space is available." One tube, eight torpedoes: three beyond the tray need
    1.5 tons, which the hold (cargo tons) must have."""
    ship = make_ship(torpedo_tubes=1, torpedoes=8, cargo=cargo)
    if ok:
        check_ship(ship, tables, "ship")
    else:
        assert refused(ship, tables) == (
            "ship.torpedoes: 8 torpedoes, 3 beyond the 5 the tray holds; those need 1.5 tons of space but the "
            "hold (cargo) has 1 (\"numbers in excess of this may be carried if space is available\")")
