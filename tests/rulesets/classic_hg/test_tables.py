"""The classic-hg tables: the shipped files load and keep the rules text's numbers, and a
game master's malformed replacement is refused with one line naming the entry."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Callable

import pytest
import tomlkit

from engine.errors import BadTable
from rulesets.classic_hg.tables import EFFECTS, TABLE_NAMES, Tables, check_table, load_tables, shipped_path


@pytest.fixture(scope="module")
def tables() -> Tables:
    return load_tables()


def shipped_doc(name: str) -> dict:
    return tomllib.loads(shipped_path(name).read_text(encoding="utf-8"))


def variant(tmp_path: Path, name: str, change: Callable[[dict], None]) -> Path:
    """A copy of a shipped table with one change, as a game master's replacement file."""
    doc = shipped_doc(name)
    doc["table"]["shipped_default"] = False
    change(doc)
    path = tmp_path / f"my-{name}.toml"
    path.write_text(tomlkit.dumps(doc), encoding="utf-8")
    return path


# --- the shipped files ------------------------------------------------------------------------

def test_every_shipped_table_loads_and_is_marked_as_the_shipped_default(tables: Tables) -> None:
    """DESIGN.md: each table ships a complete default "marked in the file as the shipped default"."""
    for name in TABLE_NAMES:
        doc = shipped_doc(name)
        assert doc["table"] | {"note": ""} == {"ruleset": "classic-hg", "name": name, "shipped_default": True, "note": ""}
        assert "rules text" in doc["table"]["note"] or "Our shipped default" in doc["table"]["note"]
        check_table(name, doc)
    assert set(tables.sources) == set(TABLE_NAMES)


def test_loading_again_is_served_from_the_cache(tables: Tables) -> None:
    assert load_tables() is tables
    assert load_tables({}) is tables


def test_spallation_is_the_texts_table_cell_by_cell(tables: Tables) -> None:
    """classic-hg-combat.txt, Spallation To Hit: * = automatic, N+ = N, No / Not Allowed /
    blank columns = no; and its NOTE: spaced armor gives a DM of -3."""
    no = "no"
    text = {
        #                  0       1       2       3   4   5   6   7
        "missile_he":      ["auto", 3,      5,      7,  10, no, no, no] + [no] * 8,  # 8+: Not Allowed
        "missile_nuclear": ["auto", "auto", "auto", 3,  4,  6,  9,  12] + [no] * 8,
        "torpedo_he":      ["auto", 3,      4,      6,  8,  11, no, no] + [no] * 8,
        "torpedo_nuclear": ["auto", "auto", "auto", "auto", 3, 4, 7, 10] + [no] * 8,
        "infinite_repeater": ["auto", "auto", 3,    5,  7,  10, no, no] + [no] * 8,
    }
    assert set(tables.spallation) == set(text)
    for row, cells in text.items():
        for armor, cell in enumerate(cells):
            assert tables.spallation[row][armor] == cell, f"{row} at armor {armor:X}"
    assert tables.spallation_spaced_dm == -3


def test_spallation_rows_belong_to_the_weapons_the_text_names(tables: Tables) -> None:
    """classic-hg-combat.txt, Spallation To Hit: rows for HE and nuclear missiles and torpedoes
    and the infinite repeater; "Treat spallation as shotgun at medium range"."""
    with_rows = {w for w, e in tables.weapons.items() if e["spallation"]}
    assert with_rows == set(tables.spallation)
    assert all(tables.weapons[w]["spallation"] == w for w in with_rows)
    assert tables.crew_attacks["spallation"]["equivalent"] == "shotgun at medium range"


@pytest.mark.parametrize("program, storage, cost", [
    ("INTERCEPT", 1, 0.8),          # "fills one space of computer storage and costs 0.8 MCr"
    ("TORPEDO LAUNCH", 1, 2.5),     # "fills on space of computer storage and costs 2.5MCr"
    ("MISSILE DEFENSE", 2, 0.8),    # "requires 2 spaces of storage and costs 0.8MCr"
    ("ANTI-MISSILE II", 3, 2.5),    # "requires 3 spaces of computer storage and costs 2.5Mcr"
])
def test_programs_the_text_prices(tables: Tables, program: str, storage: int, cost: float) -> None:
    """classic-hg-combat.txt: the AM missile, torpedo and infinite repeater paragraphs."""
    assert tables.programs[program]["storage"] == storage
    assert tables.programs[program]["cost"] == pytest.approx(cost)


def test_programs_each_fire_needs(tables: Tables) -> None:
    """classic-hg-combat.txt: AM missiles "require the program INTERCEPT"; "To fire the torpedo,
    the program TORPEDO LAUNCH must be loaded"; repeaters "require the TARGET program" and for
    antimissile fire "use the program MISSILE DEFENSE"; ANTI-MISSILE II "will allow both laser and
    infinite repeater antimissile fire"."""
    assert tables.defences["am_missile"]["programs"] == ["INTERCEPT"]
    assert tables.weapons["torpedo_he"]["program"] == tables.weapons["torpedo_nuclear"]["program"] == "TORPEDO LAUNCH"
    assert tables.weapons["infinite_repeater"]["program"] == "TARGET"
    assert "MISSILE DEFENSE" in tables.defences["infinite_repeater"]["programs"]
    for laser_or_repeater in ("beam_laser", "pulse_laser", "infinite_repeater"):
        assert "ANTI-MISSILE II" in tables.defences[laser_or_repeater]["programs"]


def test_torpedo_tube_and_torpedoes(tables: Tables) -> None:
    """classic-hg-combat.txt, torpedoes: "Installation costs 1.5MCr ... Retrofitting ... costs
    2.5MCr. Torpedo tubes displace 3 tins and each tub can launch 1 (one) torpedo every other turn.
    Five torpedoes, massing 500kg each are the normal load in the launching tray"."""
    assert tables.torpedo_tube == {"tons": 3, "cost_new": 1.5, "cost_retrofit": 2.5, "reload_turns": 2,
                                   "torpedo_tons": 0.5, "tray": 5}


def test_torpedoes_ignore_ecm_and_sand_and_evade(tables: Tables) -> None:
    """classic-hg-combat.txt, torpedoes: "not effected by ECM", "they can avoid sand, a thus are
    nit effected by it", "the equivalent of the program AUTO EVADE", "no energy point requirement"."""
    for torpedo in ("torpedo_he", "torpedo_nuclear"):
        entry = tables.weapons[torpedo]
        assert (entry["ecm"], entry["sand_reduces"], entry["evade_program"]) == (False, False, "AUTO EVADE")
        assert entry["family"] == "torpedo" and entry["ammo"] == "torpedoes"
        for defence in tables.defences.values():
            if defence["ammo"] == "sand":
                assert torpedo not in defence["to_intercept"]
    assert tables.programs["AUTO EVADE"]["evade_dm"] < 0


def test_infinite_repeater(tables: Tables) -> None:
    """classic-hg-combat.txt, infinite repeaters: "used for close range attacks and antimissile
    fire. 1 (one) infinite repeater my be installed per turret, exclusive of other weapons, at a
    cost of 1.5 MCr, and displaces 3 tons", "use 2 energy points"."""
    mount = tables.mounts["infinite_repeater"]
    assert (mount["tons"], mount["cost"], mount["energy_points"], mount["alone"]) == (3, 1.5, 2, True)
    assert list(tables.weapons["infinite_repeater"]["to_hit"]) == ["close"]
    assert "infinite_repeater" in mount["defends"]


def test_damage_is_per_weapon_for_beam_weapons_and_repeaters_only(tables: Tables) -> None:
    """classic-hg-combat.txt, damage: "If the weapon is a beam weapon or infinite repeater, multiply
    the damage by the number of weapons in the turret or battery"."""
    for wid, entry in tables.weapons.items():
        if entry["family"] in ("beam", "repeater"):
            assert entry["per_weapon"], wid
        if entry["family"] in ("missile", "torpedo"):
            assert not entry["per_weapon"], wid


def test_radiation_comes_from_nuclear_weapons_and_particle_accelerators(tables: Tables) -> None:
    """classic-hg-combat.txt, Radiation: "Weapons which do radiation damage"; our reading (and the
    brief's): nuclear missiles and torpedoes, and particle accelerators."""
    radiating = {w for w, e in tables.weapons.items() if e["radiation"]}
    assert radiating == {"missile_nuclear", "torpedo_nuclear", "particle_accelerator"}
    assert len(tables.radiation) == 16


def test_am_missiles_fire_from_missile_racks(tables: Tables) -> None:
    """classic-hg-combat.txt: "AM Missiles may be fired from standard missile racks"; they
    "intercept incoming enemy missiles and torpedoes"."""
    assert "am_missile" in tables.mounts["missile_rack"]["defends"]
    stops = set(tables.defences["am_missile"]["to_intercept"])
    assert stops == {"missile_he", "missile_nuclear", "torpedo_he", "torpedo_nuclear"}
    assert tables.defences["am_missile"]["ammo"] == "am_missiles"


def test_repulsor_and_damper_fields_act_on_every_attack(tables: Tables) -> None:
    """classic-hg-combat.txt, NOTE: "Repulsor and nuclear damper fields effect every incoming missile
    or nuclear attack, regardless of if they have already been used"."""
    assert tables.defences["repulsor"]["field"] and tables.defences["nuclear_damper"]["field"]
    assert all(tables.weapons[a]["nuclear"] for a in tables.defences["nuclear_damper"]["to_intercept"])
    assert all(tables.weapons[a]["family"] in ("missile", "torpedo") for a in tables.defences["repulsor"]["to_intercept"])


@pytest.mark.parametrize("key, expected", [
    ("missile_he", {"equivalent": "LAG with HE at medium range"}),
    ("missile_nuclear", {"kill_roll": 8, "otherwise": "2 attributes reduced to 0"}),
    ("torpedo_he", {"equivalent": "HE Ram Grenade at medium range"}),
    ("torpedo_nuclear", {"killed": True}),
    ("infinite_repeater", {"equivalent": "shotgun at medium range"}),
    ("laser", {"equivalent": "laser rifle at medium range"}),
    ("plasma_gun", {"equivalent": "PGMP12 at medium range"}),
    ("fusion_gun", {"equivalent": "FGMP14 at medium range"}),
    ("particle_accelerator", {"equivalent": "PGMP14 at medium range"}),
    ("spallation", {"equivalent": "shotgun at medium range"}),
])
def test_crew_attacks_are_the_texts(tables: Tables, key: str, expected: dict) -> None:
    """classic-hg-combat.txt, Crew (and Spallation: "Treat spallation as shotgun at medium range")."""
    entry = tables.crew_attacks[key]
    assert {k: entry[k] for k in expected} == expected


def test_every_weapon_has_its_crew_attack(tables: Tables) -> None:
    """classic-hg-combat.txt, Crew: each attacking weapon names its personal-combat equivalent."""
    for wid, entry in tables.weapons.items():
        if entry["to_hit"]:
            assert entry["crew_attack"] in tables.crew_attacks, wid


def test_locations_use_the_15_effects_and_every_table_is_complete(tables: Tables) -> None:
    """classic-hg-combat.txt: the effect explanations, Cargo to Weapon; every general location
    needs its specific table ("Locate the specific hit location table for the general location")."""
    assert sorted(tables.general_locations) == list(range(2, 13))
    seen = set()
    for general in set(tables.general_locations.values()):
        table = tables.specific_locations[general]
        assert sorted(table) == list(range(2, 13))
        seen |= set(table.values())
    assert seen == set(EFFECTS) and len(EFFECTS) == 15


def test_computers_cover_every_model(tables: Tables) -> None:
    assert sorted(tables.computers) == list(range(1, 10))
    storages = [tables.computers[m]["storage"] for m in range(1, 10)]
    assert storages == sorted(storages)


# --- a game master's replacement -------------------------------------------------------------

def test_a_replacement_table_is_used(tmp_path: Path) -> None:
    def faster_lasers(doc: dict) -> None:
        doc["entries"]["beam_laser"]["to_hit"]["long"] = 9
    path = variant(tmp_path, "weapons", faster_lasers)
    replaced = load_tables({"weapons": str(path)})
    assert replaced.weapons["beam_laser"]["to_hit"]["long"] == 9
    assert replaced.sources["weapons"] == str(path)
    assert load_tables().weapons["beam_laser"]["to_hit"]["long"] == 10


def test_an_edited_replacement_is_read_again(tmp_path: Path) -> None:
    path = variant(tmp_path, "ramming", lambda d: d["entries"].update(to_ram=9))
    assert load_tables({"ramming": path}).ramming["to_ram"] == 9
    path.write_text(path.read_text().replace("to_ram = 9", "to_ram = 11 "), encoding="utf-8")
    assert load_tables({"ramming": path}).ramming["to_ram"] == 11


def _set(*keys: str, value) -> Callable[[dict], None]:
    def change(doc: dict) -> None:
        target = doc
        for k in keys[:-1]:
            target = target[k]
        target[keys[-1]] = value
    return change


def _drop(*keys: str) -> Callable[[dict], None]:
    def change(doc: dict) -> None:
        target = doc
        for k in keys[:-1]:
            target = target[k]
        del target[keys[-1]]
    return change


MALFORMED = [
    ("weapons", _set("entries", "beam_laser", "to_hit", "long", value="x"),
     "entries.beam_laser.to_hit.long: expected a 2D number 2..12 or 'auto'/'no', got 'x'"),
    ("weapons", _set("entries", "beam_laser", "to_hit", "close", value=13),
     "entries.beam_laser.to_hit.close: expected a 2D number 2..12"),
    ("weapons", _set("entries", "beam_laser", "to_hit", "extreme", value=12),
     "entries.beam_laser.to_hit: unexpected key 'extreme' (expected close, short, long)"),
    ("weapons", _set("entries", "pulse_laser", "dammage", value=3), "entries.pulse_laser: unknown field 'dammage'"),
    ("weapons", _drop("entries", "missile_he", "damage"), "entries.missile_he.damage: missing"),
    ("weapons", _set("entries", "missile_he", "family", value="rocket"), "entries.missile_he.family: expected one of"),
    ("weapons", _set("mounts", "beam_laser", "fires", value=["death_ray"]),
     "mounts.beam_laser.fires: 'death_ray' is not an attack type"),
    ("weapons", _set("mounts", "sandcaster", "fires", value=["sandcaster"]),
     "mounts.sandcaster.fires: 'sandcaster' never attacks"),
    ("weapons", _set("mounts", "beam_laser", "defends", value=["shield"]),
     "mounts.beam_laser.defends: 'shield' is not in the defences table"),
    ("weapons", _set("entries", "missile_he", "program", value="FIRE"),
     "entries.missile_he.program: 'FIRE' is not in the programs table"),
    ("weapons", _set("torpedo_tube", "reload_turns", value=0), "torpedo_tube.reload_turns: expected a whole number 1 or more"),
    ("weapons", _set("table", "name", value="defences"), "table.name: expected 'weapons', got 'defences'"),
    ("defences", _set("entries", "sandcaster", "to_intercept", "torpedo_he", value=7),
     "entries.sandcaster.to_intercept.torpedo_he: sand cannot act on 'torpedo_he'"),
    ("defences", _set("entries", "sandcaster", "reduce_by", value=0), "entries.sandcaster.reduce_by"),
    ("defences", _set("entries", "am_missile", "programs", value=["INTERCEPTOR"]),
     "entries.am_missile.programs: 'INTERCEPTOR' is not in the programs table"),
    ("programs", _set("entries", "AUTO EVADE", "evade_dm", value=2),
     'entries."AUTO EVADE".evade_dm: expected a whole number 0 or less, got 2'),
    ("programs", _set("entries", "TARGET", "storage", value=1.5), "entries.TARGET.storage: expected a whole number 0 or more"),
    ("computers", _drop("entries", "9"), "entries.9: missing"),
    ("locations", _drop("general", "7"), "general.7: missing"),
    ("locations", _set("specific", "hold", "7", value="explodes"), "specific.hold.7: expected one of"),
    ("locations", _drop("specific", "hangar"), "no [specific.hangar] table"),
    ("radiation", _set("armor", "16", value=12), "armor: unexpected key '16'"),
    ("spallation", _set("entries", "missile_he", "armor", value=["auto"] * 15), "entries.missile_he.armor: expected a list of 16"),
    ("spallation", _set("entries", "torpedo_he", "armor", 3, value="7+"), "entries.torpedo_he.armor[3]: expected a 2D number"),
    ("spallation", _drop("spaced_dm"), "spaced_dm: expected a whole number"),
    ("ramming", _drop("entries", "to_ram"), "entries.to_ram: missing"),
    ("crew_attacks", _set("entries", "laser", "equivalent", value=""), "entries.laser: expected an equivalent weapon"),
    ("crew_attacks", _set("entries", "oops", value={"equivalent": "x"}), None),  # an extra key is allowed
]


@pytest.mark.parametrize("name, change, message", MALFORMED, ids=[m[2] or "extra crew attack" for m in MALFORMED])
def test_a_malformed_replacement_is_refused_in_one_line(tmp_path: Path, name: str, change, message: str | None) -> None:
    path = variant(tmp_path, name, change)
    if message is None:
        load_tables({name: path})
        return
    with pytest.raises(BadTable) as caught:
        load_tables({name: path})
    text = str(caught.value)
    assert "\n" not in text
    assert text.startswith(str(path) + ": ")
    assert message in text


def test_a_replacement_for_an_unknown_table_or_missing_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(BadTable, match=r"tables.shields: classic-hg has no table 'shields'"):
        load_tables({"shields": str(tmp_path / "x.toml")})
    with pytest.raises(BadTable, match="no such table file"):
        load_tables({"weapons": str(tmp_path / "absent.toml")})


def test_a_replacement_that_is_not_toml_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("[table\nname = 'weapons'\n", encoding="utf-8")
    with pytest.raises(BadTable, match="not valid TOML"):
        load_tables({"weapons": path})


def test_check_table_fills_defaults_and_leaves_the_input_alone() -> None:
    doc = shipped_doc("programs")
    doc["entries"]["NEW"] = {"storage": 1, "cost": 0.2}
    checked = check_table("programs", doc)
    assert checked["entries"]["NEW"] == {"storage": 1, "cost": 0.2, "energy_points": 0, "to_hit_dm": 0,
                                         "evade_dm": 0, "intercept_dm": 0, "selective": False, "ecm": False}
    assert doc["entries"]["NEW"] == {"storage": 1, "cost": 0.2}
    with pytest.raises(BadTable, match="has no table 'shields'"):
        check_table("shields", doc)
