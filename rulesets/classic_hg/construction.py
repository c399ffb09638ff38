"""What a classic-hg ship's fittings displace and cost, and the limits a ship file must keep.

Source: ``classic-hg-combat.txt``. Only what the text prices or sizes is
reckoned here: torpedo tubes and their torpedoes, infinite repeaters, armor
(spaced armor "requires twice the tonnage of nonspaced armor"), the computer
programs, and the energy the turret weapons need. The rest of a ship's design
is taken as given by its file (the text prints no hull or drive costs).

Where the text is silent we decided, as a careful referee would:

- Armor displaces (percent_base + percent_per_factor x factor) percent of the
  hull (the armor table; High Guard's shape), twice that when spaced.
- Torpedoes beyond the launching tray ("numbers in excess of this may be
  carried if space is available") are stowed in the hold: their tons (500 kg
  each) must fit within the ship's cargo tons.
- The fittings reckoned here (armor, tubes, torpedoes, repeaters) may not
  together displace more than the hull.
"""

from __future__ import annotations

from typing import Any

from engine.errors import BadTable
from engine.schema import REQUIRED, TEXT, at, list_of, number, record, validate, whole

from .ships import TURRET_FIELDS, energy_points, torpedoes_carried
from .tables import Tables

TONS_PER_HARDPOINT = 100


def hardpoints(tonnage: int) -> int:
    """One weapon position per 100 tons of displacement (Traveller's hardpoint rule), and one for a
    small craft under 100 tons, which would otherwise carry no weapon at all (our reading)."""
    return max(1, tonnage // TONS_PER_HARDPOINT)


def program_storage(ship: dict[str, Any], tables: Tables) -> int:
    """Program spaces: the ship's own figure, or its computer model's from the computers table."""
    if ship["computer_storage"]:
        return ship["computer_storage"]
    return int(tables.computers.get(ship["computer_model"], {}).get("storage", 0))


def construction_report(ship: dict[str, Any], tables: Tables) -> dict[str, Any]:
    """Tons and MCr of the fittings the text prices, program spaces, and energy points.

    - Tubes: "Installation costs 1.5MCr if the tube is specified at the time of
      construction. Retrofitting on a completed ship costs 2.5MCr. Torpedo tubes
      displace 3 tins"; torpedoes mass "500kg each".
    - Repeaters: "at a cost of 1.5 MCr, and displaces 3 tons", "use 2 energy points".
    - Programs: each "fills ... space[s] of computer storage and costs" its MCr;
      programs in ``program_library`` are carried but not loaded.

    The figures come from the tables (weapons.toml [torpedo_tube] and [mounts],
    programs.toml), so a replaced table is priced by its own numbers.
    """
    tube = tables.torpedo_tube
    tubes = ship["torpedo_tubes"]
    tube_cost = tube["cost_retrofit"] if ship["tubes_retrofitted"] else tube["cost_new"]
    torpedoes = torpedoes_carried(ship, tube["tray"])
    repeater = tables.mounts.get("infinite_repeater", {"tons": 0, "cost": 0})
    repeaters = sum(t.get("count", 1) for t in ship["turrets"] if t.get("weapon") == "infinite_repeater")
    loaded = list(ship["programs"])
    library = [p for p in dict.fromkeys(ship["program_library"]) if p not in loaded]
    prog = lambda names, key: sum(tables.programs.get(p, {}).get(key, 0) for p in names)  # noqa: E731
    needed = sum(tables.mounts.get(t.get("weapon"), {}).get("energy_points", 0) * t.get("count", 1)
                 for t in ship["turrets"]) + prog(loaded, "energy_points")
    tray = tubes * tube["tray"]
    beyond = max(0, torpedoes - tray)
    report = {
        "armor": armor_report(ship, tables),
        "torpedo_tubes": {"count": tubes, "retrofitted": ship["tubes_retrofitted"],
                          "tons": tubes * tube["tons"], "mcr": tubes * tube_cost},
        "torpedoes": {"count": torpedoes, "tray": tray, "tons": torpedoes * tube["torpedo_tons"],
                      "beyond_tray": beyond, "beyond_tray_tons": beyond * tube["torpedo_tons"]},
        "infinite_repeaters": {"count": repeaters, "tons": repeaters * repeater["tons"],
                               "mcr": repeaters * repeater["cost"]},
        "programs": {"loaded": loaded, "storage": prog(loaded, "storage"),
                     "capacity": program_storage(ship, tables), "mcr": prog(loaded, "cost")},
        "program_library": {"names": library, "mcr": prog(library, "cost")},
        "energy": {"needed": needed, "available": energy_points(ship["tonnage"], ship["power_plant"])},
        "hardpoints": {"total": hardpoints(ship["tonnage"]), "turrets": len(ship["turrets"]), "tubes": tubes},
    }
    parts = ("armor", "torpedo_tubes", "torpedoes", "infinite_repeaters")
    report["tons"] = _round(sum(report[k]["tons"] for k in parts))
    report["mcr"] = _round(sum(report[k]["mcr"] for k in ("torpedo_tubes", "infinite_repeaters", "programs",
                                                            "program_library")))
    return report


def armor_report(ship: dict[str, Any], tables: Tables) -> dict[str, Any]:
    """The armor's factor and displacement: the armor table's percent of the hull, doubled when spaced."""
    factor, spaced = ship["armor_factor"], ship["armor_spaced"]
    rates = tables.armor or {"percent_base": 0, "percent_per_factor": 0}
    percent = rates["percent_base"] + rates["percent_per_factor"] * factor if factor else 0
    tons = ship["tonnage"] * percent / 100 * (SPACED_TONNAGE if spaced else 1)
    return {"factor": factor, "spaced": spaced, "percent": percent, "tons": _round(tons)}


SPACED_TONNAGE = 2  # "Spaced armor requires twice the tonnage of nonspaced armor."


def _round(x: float) -> float:
    """Sums of tenths of MCr, without float noise (0.1 + 0.2)."""
    return round(x, 6)


# --- limits ---------------------------------------------------------------------------------

def check_ship(ship: dict[str, Any], tables: Tables, where: str) -> None:
    """Refuse a ship that breaks a limit of the text (or of our reading of it), with one line.

    - Turrets: a known turret weapon, at most 3 to a turret; "1 (one) infinite
      repeater my be installed per turret, exclusive of other weapons" (any
      mount marked ``alone``). Turrets in one battery mount the same weapon.
    - Torpedo tubes: "One tube may be installed per 100 tons of ship
      displacement not otherwise allocated to weaponry." Our reading: a ship has
      tonnage // 100 hardpoints; each turret takes one; tubes may use only the
      hardpoints left, so a craft under 100 tons (whose one weapon position is
      ours) has no room for a tube. Turrets may not exceed the hardpoints
      either. Torpedoes need a tube to launch from.
    - Drives: "Maneuver and jump may not exceed the power plant factor".
    - Programs: every name, loaded or in the library, is a known program; the
      loaded programs together fit the computer's storage ("fills one space of
      computer storage"), and each library program fits on its own (else it
      could never be loaded).
    - Energy: the turret weapons together ("use 2 energy points") need no more
      than the power plant gives (tonnage x power plant / 100).
    - Crew stand in general locations of the locations table; occupants are in
      berths the ship has; hangars hold small craft with a name and tons.
    """
    turrets = [_check_turret(t, i, tables, where) for i, t in enumerate(ship["turrets"])]
    _check_batteries(turrets, tables, where)
    _check_hardpoints(ship, turrets, where)
    _check_drives(ship, where)
    _check_programs(ship, tables, where)
    report = construction_report({**ship, "turrets": turrets}, tables)
    _check_space(ship, report, where)
    energy = report["energy"]
    if energy["needed"] > energy["available"]:
        raise BadTable(f"{where}.turrets: the weapons need {energy['needed']} energy points but the power plant "
                       f"gives {energy['available']} (tonnage {ship['tonnage']} x power plant {ship['power_plant']} / 100)")
    _check_people(ship, tables, where)
    _check_hangars(ship, where)


def _check_turret(turret: Any, i: int, tables: Tables, where: str) -> dict:
    at = f"{where}.turrets[{i}]"
    t = validate(turret, TURRET_FIELDS, at)
    mount = tables.mounts.get(t["weapon"])
    if mount is None:
        raise BadTable(f"{at}.weapon: unknown turret weapon {t['weapon']!r} (known: {', '.join(tables.mounts)})")
    if mount["alone"] and t["count"] != 1:
        raise BadTable(f"{at}: the {mount['label'].lower()} is mounted alone, one per turret "
                       f"(\"exclusive of other weapons\"), so count must be 1, got {t['count']}")
    return t


def _check_batteries(turrets: list[dict], tables: Tables, where: str) -> None:
    """Turrets grouped into a battery fire as one attack, so they mount the same weapon."""
    first: dict[int, tuple[int, str]] = {}
    for i, t in enumerate(turrets):
        if not t["battery"]:
            continue
        if t["battery"] in first and first[t["battery"]][1] != t["weapon"]:
            j, weapon = first[t["battery"]]
            raise BadTable(f"{where}.turrets[{i}].battery: battery {t['battery']} holds {weapon} (turrets[{j}]); "
                           f"a battery fires as one attack, so every turret in it mounts the same weapon, "
                           f"got {t['weapon']}")
        first.setdefault(t["battery"], (i, t["weapon"]))


def _check_drives(ship: dict, where: str) -> None:
    plant = ship["power_plant"]
    for drive in ("maneuver", "jump"):
        if ship[drive] > plant:
            raise BadTable(f"{where}.{drive}: {ship[drive]} exceeds the power plant factor {plant} "
                           "(maneuver and jump may not exceed it)")


def _check_hardpoints(ship: dict, turrets: list[dict], where: str) -> None:
    total, tubes = hardpoints(ship["tonnage"]), ship["torpedo_tubes"]
    if len(turrets) > total:
        raise BadTable(f"{where}.turrets: {len(turrets)} turrets but a {ship['tonnage']}-ton ship has "
                       f"{total} hardpoints (one per 100 tons)")
    if tubes and ship["tonnage"] < TONS_PER_HARDPOINT:
        raise BadTable(f"{where}.torpedo_tubes: {tubes} tubes but a {ship['tonnage']}-ton ship has no 100 tons "
                       "for one (one tube per 100 tons of displacement)")
    free = total - len(turrets)
    if tubes > free:
        raise BadTable(f"{where}.torpedo_tubes: {tubes} tubes but only {free} of {total} hardpoints are not "
                       f"allocated to weaponry ({len(turrets)} turrets); one tube per 100 tons not otherwise "
                       "allocated to weaponry")
    if ship["torpedoes"] > 0 and tubes == 0:
        raise BadTable(f"{where}.torpedoes: {ship['torpedoes']} torpedoes but no torpedo tubes to launch them")


def _check_space(ship: dict, report: dict, where: str) -> None:
    """Torpedoes beyond the tray need room in the hold; the fittings must fit in the hull."""
    extra = report["torpedoes"]
    if extra["beyond_tray"] and extra["beyond_tray_tons"] > ship["cargo"]:
        raise BadTable(f"{where}.torpedoes: {extra['count']} torpedoes, {extra['beyond_tray']} beyond the "
                       f"{extra['tray']} the tray holds; those need {extra['beyond_tray_tons']:g} tons of space but "
                       f"the hold (cargo) has {ship['cargo']} (\"numbers in excess of this may be carried if "
                       "space is available\")")
    if report["tons"] > ship["tonnage"]:
        raise BadTable(f"{where}: armor, tubes, torpedoes and repeaters displace {report['tons']:g} tons, more "
                       f"than the {ship['tonnage']}-ton hull (armor {report['armor']['tons']:g} tons)")


def _check_programs(ship: dict, tables: Tables, where: str) -> None:
    for field in ("programs", "program_library"):
        for p in ship[field]:
            if not isinstance(p, str) or p not in tables.programs:
                raise BadTable(f"{where}.{field}: unknown program {p!r} (known: {', '.join(tables.programs)})")
    seen = set()
    for p in ship["programs"]:
        if p in seen:
            raise BadTable(f"{where}.programs: {p!r} is loaded twice")
        seen.add(p)
    if ship["computer_model"] not in tables.computers and not ship["computer_storage"]:
        raise BadTable(f"{where}.computer_model: no model {ship['computer_model']} in the computers table")
    room = program_storage(ship, tables)
    used = sum(tables.programs[p]["storage"] for p in ship["programs"])
    if used > room:
        raise BadTable(f"{where}.programs: the loaded programs need {used} spaces of storage but the computer "
                       f"has {room}")
    for p in ship["program_library"]:
        if tables.programs[p]["storage"] > room:
            raise BadTable(f"{where}.program_library: {p} needs {tables.programs[p]['storage']} spaces but the "
                           f"computer has only {room}, so it could never be loaded")


CREW = whole(0).worded("a number of crew 0 or more")
OCCUPANT = record({"name": (TEXT, REQUIRED), "berth": (TEXT, REQUIRED)}, others_allowed=True).worded(
    '{name = "...", berth = "stateroom N" or "low N"}')
SMALL_CRAFT = record({"name": (TEXT, REQUIRED), "tons": (number(above=0), REQUIRED)}, others_allowed=True).worded(
    '{name = "...", tons = N} with tons above 0')
HANGAR = record({"name": (TEXT, ""), "small_craft": (list_of(SMALL_CRAFT, expected="a list of {name, tons}"), [])},
                expected='{name = "...", small_craft = [{name, tons}]}', others_allowed=True)


def _check_people(ship: dict, tables: Tables, where: str) -> None:
    places = sorted(set(tables.general_locations.values()))
    for place, n in ship["crew"].items():
        at_place = at(at(where, "crew"), place)
        if place not in places:
            raise BadTable(f"{at_place}: not a general location of the locations table (known: {', '.join(places)})")
        CREW(n, at_place)
    berths = {f"stateroom {i + 1}" for i in range(ship["staterooms"])}
    berths |= {f"low {i + 1}" for i in range(ship["low_berths"])}
    taken: set[str] = set()
    for i, o in enumerate(ship["occupants"]):
        place = at(at(where, "occupants"), i)
        OCCUPANT(o, place)
        if o["berth"] not in berths:
            raise BadTable(f"{place}.berth: the ship has no berth {o['berth']!r} ({ship['staterooms']} staterooms, "
                           f"{ship['low_berths']} low berths)")
        if o["berth"].startswith("low") and o["berth"] in taken:
            raise BadTable(f"{place}.berth: {o['berth']!r} already holds someone; a low berth holds one")
        taken.add(o["berth"])


def _check_hangars(ship: dict, where: str) -> None:
    list_of(HANGAR)(ship["hangars"], at(where, "hangars"))
