"""A High Guard Universal Ship Profile (USP) line, read into a classic-hg ship.

A USP packs a ship into one line of codes, e.g. the Kinunir-class battle
cruiser ``BC-A2447G2-000510-50202-0``. This module reads the layout of Classic
Traveller High Guard, 2nd edition (1980): five groups joined by hyphens, one
code a character. Character numbers below count inside each group, from 1.

==========  ====  =======================================================
group       char  meaning
==========  ====  =======================================================
1 type      all   ship type code: letters, mission first, e.g. BC
2 hull      1     hull size code (HULL_SIZES: tonnage range)
            2     configuration 1-9 (CONFIGURATIONS)
            3     jump number
            4     maneuver number (G)
            5     power plant number
            6     computer: 0-9 model, A-H/J model 1-9 fib, R/S model 1-2 bis
            7     crew code
3 defences  1     armor factor
            2     sandcaster factor
            3     meson screen factor
            4     nuclear damper factor
            5     force field (black globe) factor
            6     repulsor factor
4 weapons   1     laser factor (beam or pulse)
            2     energy weapon factor (plasma or fusion guns)
            3     particle accelerator: 0-9 battery factor, A-T spinal mount
            4     meson gun: 0-9 battery factor, A-T spinal mount
            5     missile factor
5 fighters  1     fighter squadrons carried
==========  ====  =======================================================

A High Guard listing may follow the profile with the cost and the exact
displacement (``... MCr 1336.63 1250 tons``); both are read when present.

Codes are digits in the Traveller alphabet: 0-9, then A=10 ... H=17, J=18,
K=19 ... Z=33, never I or O (they read as 1 and 0).

Sources, and where they disagree (no code or text copied; all are public):

- The group and character layout: the Traveller Wiki page "Universal Ship
  Profile" (its blocks from High Guard p. 52), a public Perl module
  ``Traveller/HighGuard.pm`` that diagrams the issue's example as the
  Kinunir's listing (Crew 45, TL 15, 1250 tons, batteries 2 2 2), and a public
  Free Pascal High Guard designer (``ShipPas.pas``) that writes USPs in this
  order. A forum summary of the Risus conversion lists the same order but
  leaves out armor; High Guard 2nd edition has armor first in the defences, as
  the example's six-character group shows, so we follow it.
- Hull size codes: the designer's size-code table (0-9 hundreds of tons, A-J
  thousands, then K 10,000, L 20,000, M 30,000, N 40,000, P 50,000,
  Q 75,000, R 100,000, S-U each +100,000, V 500,000, W 700,000, X 900,000,
  Y 1,000,000, Z 2,000,000 and up); a public cheat sheet gives the same
  starting points.
- Computer codes (A-H/J fib, R/S bis) and spinal mount letters A-T: the
  designer's data tables. A letter in the particle accelerator or meson gun
  place is a spinal mount; a digit is the factor of the bays or turrets.
- Configuration names and streamlining: the Traveller Wiki page (1 needle/
  wedge, 2 cone, 3 cylinder partly streamlined); 4-9 are the usual High Guard
  list, with close structure partly and flattened sphere fully streamlined as
  forum threads quoting T20 describe them. Not checked against the book.
- Crew code: the sources only name it ("crew size code"). We read it as an
  order of magnitude (1: 1-9 crew, 2: 10-99, ...) as the designer's classic
  option does. Its other option, one crew section per 1,000 tons rounded up,
  also gives the Kinunir (45 crew, 1,250 tons) a 2, so the example cannot
  tell them apart. Uncertain; the code is only reported, never used.
- Ship type codes: the first letter is the mission. Only the Kinunir's
  "BC" (battle cruiser) is confirmed from a listing; the first-letter meanings
  are the common Traveller ones, used for a readable class name only.

Choices made turning a profile into a classic-hg ship (``usp_to_ship``):

- Tonnage: the listed displacement when the line has one, else the smallest
  hull the size code allows (code 0 gives 10 tons), within ships.py's limits.
- Naval: type codes whose mission letter is B (battle), C (cruiser),
  D (destroyer), E (escort) or V (carrier). F is left out: some listings use
  it for traders as well as fighters.
- Drives, power plant and computer model are capped at 9 (ships.py's range);
  a model 0 (no computer) becomes model 1, the least ships.py allows. Armor is
  capped at 15. A bis computer has no field in a ship file.
- Turrets: a USP factor is a battery's strength, not a count. We give one
  turret per point of factor: lasers -> triple beam_laser turrets, missiles ->
  triple missile_rack turrets, particle accelerators -> single
  particle_accelerator turrets, energy weapons -> triple plasma_gun turrets,
  sandcasters -> triple sandcaster turrets. Turrets are handed out one at a
  time, round the weapon types in that order, so every type keeps a share,
  while the ship has hardpoints left (construction.py: one per 100 tons, and
  one for a hull under 100 tons, so small craft keep their weapons) and its
  power plant can feed one more (the mounts' energy points in weapons.toml
  against tonnage x plant / 100); when a triple does not fit, a turret of as
  many as the plant can feed. A type that gets less than its factor is named
  in ``assumptions``, with the limit it met first in that hand-out (a laser
  the plant cannot feed is short of power, even when a missile rack takes
  the free hardpoint after it). A profile whose maneuver or jump exceeds its power plant
  is refused ("Maneuver and jump may not exceed the power plant factor"). The
  ship therefore passes construction.check_ship.
  Pulse lasers, fusion guns and infinite repeaters cannot be told apart in a
  USP and are never chosen.
- What a USP implies but does not say (crew by tonnage, fuel for its jump,
  gunners' skill, a program load for its computer) comes from
  ``usp_defaults.toml``, our shipped defaults, and each figure is reported by
  ``assumptions`` for the game master to check.
- Stores: 10 missiles a missile rack and 10 sand canisters a sandcaster, so
  the mounts can fire; a game master edits them to taste.
- Not carried over (no field in a classic-hg ship): meson guns, spinal
  mounts, meson screens, force fields, fighter squadrons, the crew code.
  ``ship_toml`` lists them in comments under the profile.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from engine import toml_text
from engine.errors import BadTable
from engine.reading import read_toml
from engine.schema import NAMES, TEXT, number, record, sections, table_of, whole

from .construction import hardpoints, program_storage
from .ships import SHIP_FIELDS, energy_points, points_text
from .tables import Tables, load_tables

DIGITS = "0123456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # the Traveller alphabet: no I, no O
_DIGITS_SAID = "0-9, A-H, J-N or P-Z"

# Size code -> (least tons, most tons); Z has no upper end.
HULL_SIZES: dict[str, tuple[int, int | None]] = {
    "0": (0, 99),
    **{str(n): (n * 100, n * 100 + 99) for n in range(1, 10)},
    **{c: ((i + 1) * 1000, (i + 1) * 1000 + 999) for i, c in enumerate("ABCDEFGHJ")},
    "K": (10_000, 19_999), "L": (20_000, 29_999), "M": (30_000, 39_999), "N": (40_000, 49_999),
    "P": (50_000, 74_999), "Q": (75_000, 99_999), "R": (100_000, 199_999), "S": (200_000, 299_999),
    "T": (300_000, 399_999), "U": (400_000, 499_999), "V": (500_000, 699_999),
    "W": (700_000, 899_999), "X": (900_000, 999_999), "Y": (1_000_000, 1_999_999),
    "Z": (2_000_000, None),
}

# Configuration -> (name, streamlining)
CONFIGURATIONS: dict[int, tuple[str, str]] = {
    1: ("needle/wedge", "streamlined"),
    2: ("cone", "streamlined"),
    3: ("cylinder", "partial"),
    4: ("close structure", "partial"),
    5: ("sphere", "partial"),
    6: ("flattened sphere", "streamlined"),
    7: ("dispersed structure", "none"),
    8: ("planetoid", "none"),
    9: ("buffered planetoid", "none"),
}

MISSIONS = {
    "A": "trader", "B": "battle", "C": "cruiser", "D": "destroyer", "E": "escort",
    "K": "safari ship", "L": "lab ship", "M": "liner", "P": "corsair", "R": "merchant",
    "S": "scout", "V": "carrier", "Y": "yacht",
}
TYPE_NAMES = {"BC": "battle cruiser"}  # whole codes seen in High Guard listings
NAVAL_MISSIONS = frozenset("BCDEV")

FIB_CODES = "ABCDEFGHJ"  # model 1 fib ... model 9 fib
BIS_CODES = "RS"  # model 1 bis, model 2 bis
SPINAL_CODES = DIGITS[DIGITS.index("A"):DIGITS.index("T") + 1]

# (group name, the name of each character); the type group is letters of any length 1-4
GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("type", ()),
    ("hull", ("size", "configuration", "jump", "maneuver", "power plant", "computer", "crew")),
    ("defences", ("armor", "sand", "meson screen", "damper", "globe", "repulsors")),
    ("weapons", ("lasers", "energy weapons", "particle accelerators", "meson guns", "missiles")),
    ("fighters", ("fighter squadrons",)),
)
EXAMPLE = "BC-A2447G2-000510-50202-0"

# usp_to_ship: weapon factor -> (mount id, weapons a turret); in hand-out order
TURRET_MAPPING = (
    ("lasers", "beam_laser", 3),
    ("missiles", "missile_rack", 3),
    ("particle_accelerators", "particle_accelerator", 1),
    ("energy_weapons", "plasma_gun", 3),
    ("sandcasters", "sandcaster", 3),
)
STORES_PER_WEAPON = {"missile_rack": ("missiles", 10), "sandcaster": ("sand", 10)}
MAX_TONNAGE = 1_000_000
MIN_TONNAGE = 10

_TAIL = re.compile(
    r"(?:MCr\s*(?P<cost>\d[\d,]*(?:\.\d+)?))?\s*(?:(?P<tons>\d[\d,]*)\s*tons?)?"
)


def decode_digit(ch: str) -> int:
    """A Traveller digit's value: 0-9, A=10 ... H=17, J=18 ... Z=33 (no I, no O)."""
    if len(ch) == 1 and ch in DIGITS:
        return DIGITS.index(ch)
    raise BadTable(f"{ch!r} is not a USP digit: {_why_not_digit(ch)}")


def _why_not_digit(ch: str) -> str:
    if ch in ("I", "O"):
        return f"the letters I and O are never used (expected {_DIGITS_SAID})"
    if len(ch) == 1 and ch.upper() in DIGITS and ch != ch.upper():
        return f"USP digits are upper case (expected {_DIGITS_SAID})"
    if len(ch) != 1:
        return f"expected one character, {_DIGITS_SAID}"
    return f"expected {_DIGITS_SAID}"


#: The dashes a line copied from a book's PDF or a web page carries for its hyphens (hyphen, non-breaking hyphen,
#: figure dash, en and em dash, minus sign), read as the hyphen a keyboard types.
DASHES = str.maketrans({c: "-" for c in "\u2010\u2011\u2012\u2013\u2014\u2212"})


def parse_usp(line: str) -> dict[str, Any]:
    """Every code of a USP line, decoded; BadTable (one line) names what is wrong."""
    text = line.strip().translate(DASHES) if isinstance(line, str) else ""
    if not text:
        raise BadTable(f"USP {text!r}: empty line, expected a profile like {EXAMPLE}")
    words = text.split()
    # A listing as books and fleet lists print it puts the registry number and name first:
    # "BC-9514 Kinunir  BC-A2447G2-000510-50202-0  MCr 1336.63  1250 tons". The profile is the
    # word with five groups between hyphens; what comes before it is the ship's listing.
    at = next((i for i, w in enumerate(words) if w.count("-") == len(GROUPS) - 1), 0)
    listing = " ".join(words[:at])
    profile = words[at].upper()  # USP digits and type codes are read in upper case, as printed
    tail = " ".join(words[at + 1:])

    def bad(what: str) -> BadTable:
        return BadTable(f"USP {text!r}: {what}")

    groups = profile.split("-")
    if len(groups) != len(GROUPS):
        shape = "-".join(g for g, _ in GROUPS)
        raise bad(f"has {len(groups)} group{'s' if len(groups) != 1 else ''} between hyphens, "
                  f"expected {len(GROUPS)} ({shape}, e.g. {EXAMPLE})")
    type_code = groups[0]
    if not (1 <= len(type_code) <= 4 and type_code.isascii() and type_code.isalnum() and type_code[0].isalpha()):
        raise bad(f"group 1 '{type_code}' is not a ship type code: expected 1-4 letters and digits, "
                  "starting with a letter, e.g. BC or A2")
    for number, (group, (gname, names)) in enumerate(zip(groups, GROUPS), start=1):
        if number == 1:
            continue
        if len(group) != len(names):
            raise bad(f"group {number} '{group}' has {len(group)} character{'s' if len(group) != 1 else ''}, "
                      f"expected {len(names)} ({', '.join(names)})")
        for place, (ch, name) in enumerate(zip(group, names), start=1):
            if ch not in DIGITS:
                raise bad(f"group {number} character {place} '{ch}' ({name}) is not a USP digit: "
                          f"{_why_not_digit(ch)}")

    hull, defences, weapons, fighters = groups[1:]
    size_code = hull[0]
    least, most = HULL_SIZES[size_code]
    configuration = decode_digit(hull[1])
    if configuration not in CONFIGURATIONS:
        raise bad(f"group 2 character 2 '{hull[1]}' (configuration): expected 1-9")
    model, fib, bis = _computer(hull[5], bad)
    crew_code = decode_digit(hull[6])
    mission = type_code[0]
    for place, drive in ((3, "jump"), (4, "maneuver"), (5, "power plant")):
        if decode_digit(hull[place - 1]) > 9:
            raise bad(f"group 2 character {place} '{hull[place - 1]}' ({drive}) is "
                      f"{decode_digit(hull[place - 1])}, past any High Guard drive (0-9)")
    out: dict[str, Any] = {
        "usp": profile,
        "listing": listing,
        "type_code": type_code,
        "type_name": TYPE_NAMES.get(type_code) or (f"{MISSIONS[mission]} type" if mission in MISSIONS else ""),
        "naval": mission in NAVAL_MISSIONS,
        "size_code": size_code,
        "tonnage_min": least,
        "tonnage_max": most,
        "configuration": configuration,
        "configuration_name": CONFIGURATIONS[configuration][0],
        "streamlining": CONFIGURATIONS[configuration][1],
        "jump": decode_digit(hull[2]),
        "maneuver": decode_digit(hull[3]),
        "power_plant": decode_digit(hull[4]),
        "computer_code": hull[5],
        "computer_model": model,
        "computer_fib": fib,
        "computer_bis": bis,
        "crew_code": crew_code,
        "crew_range": (0, 0) if crew_code == 0 else (10 ** (crew_code - 1), 10 ** crew_code - 1),
        "armor": decode_digit(defences[0]),
        "sandcasters": decode_digit(defences[1]),
        "meson_screen": decode_digit(defences[2]),
        "nuclear_damper": decode_digit(defences[3]),
        "force_field": decode_digit(defences[4]),
        "repulsors": decode_digit(defences[5]),
        "lasers": decode_digit(weapons[0]),
        "energy_weapons": decode_digit(weapons[1]),
        "particle_accelerators": 0,
        "meson_guns": 0,
        "missiles": decode_digit(weapons[4]),
        "spinal_mount": None,
        "fighter_squadrons": decode_digit(fighters),
        "listed_cost_mcr": None,
        "listed_tonnage": None,
    }
    for place, key, weapon in ((3, "particle_accelerators", "particle accelerator"), (4, "meson_guns", "meson gun")):
        ch = weapons[place - 1]
        if ch.isdigit():
            out[key] = int(ch)
        elif ch in SPINAL_CODES:
            if out["spinal_mount"]:
                raise bad(f"group 4 characters 3 and 4 are both spinal mounts ('{weapons[2]}', '{ch}'): "
                          f"a ship mounts one; expected a digit in one of them")
            out["spinal_mount"] = {"weapon": weapon, "code": ch}
        else:
            raise bad(f"group 4 character {place} '{ch}' ({key.replace('_', ' ')}): "
                      f"expected 0-9 (battery factor) or A-T (spinal mount)")
    _read_tail(tail.strip(), out, bad)
    return out


def _computer(ch: str, bad: Callable[[str], BadTable]) -> tuple[int, bool, bool]:
    """(model, fib, bis) from the computer code."""
    if ch.isdigit():
        return int(ch), False, False
    if ch in FIB_CODES:
        return FIB_CODES.index(ch) + 1, True, False
    if ch in BIS_CODES:
        return BIS_CODES.index(ch) + 1, False, True
    raise bad(f"group 2 character 6 '{ch}' (computer): expected 0-9 (model), A-H or J (model 1-9 fib), "
              f"R or S (model 1-2 bis)")


def _read_tail(tail: str, out: dict[str, Any], bad: Callable[[str], BadTable]) -> None:
    """The optional ``MCr <cost> <tons> tons`` after the profile."""
    if not tail:
        return
    found = _TAIL.fullmatch(tail)
    if not found or not (found["cost"] or found["tons"]):
        raise bad(f"unexpected '{tail}' after the profile: expected nothing, 'MCr <cost>' or '<displacement> tons'")
    if found["cost"]:
        out["listed_cost_mcr"] = float(found["cost"].replace(",", ""))
    if found["tons"]:
        tons = int(found["tons"].replace(",", ""))
        least, most = out["tonnage_min"], out["tonnage_max"]
        if tons < least or (most is not None and tons > most):
            span = f"{least:,}-{most:,}" if most is not None else f"{least:,} or more"
            raise bad(f"{tons:,} tons does not fit size code '{out['size_code']}' ({span} tons)")
        out["listed_tonnage"] = tons


def listed_name(p: dict[str, Any]) -> str:
    """The ship's name from a listing ("BC-9514 Kinunir" -> "Kinunir"), or "" when none was given."""
    words = p.get("listing", "").split()
    if words and "-" in words[0] and any(c.isdigit() for c in words[0]):
        words = words[1:]  # the registry number
    return " ".join(words)


DEFAULTS_PATH = Path(__file__).resolve().with_name("usp_defaults.toml")
_CREW = record({"base": (whole(0), 0), "per_tons": (whole(0), 0), "per_turret": (whole(0), 0),
                "least": (whole(0), 0)})


@lru_cache(maxsize=4)
def load_defaults(path: Path = DEFAULTS_PATH) -> dict[str, Any]:
    """usp_defaults.toml, checked: BadTable (one line, naming the file and field) if it is wrong."""
    doc = read_toml(path)
    try:
        return sections(doc, {
            "fuel": record({"jump_percent": (number(0), 10.0), "power_plant_percent": (number(0), 1.0)}),
            "crew": table_of(_CREW),
            "gunners": record({"naval_skill": (whole(0, 6), 0), "civilian_skill": (whole(0, 6), 0)}),
            "programs": record({"gunnery_extras": (NAMES, []), "extras": (NAMES, []), "library": (NAMES, []), "jump_program": (TEXT, "")}),
        })
    except BadTable as exc:
        raise BadTable(f"{path}: {exc}") from None


def assumptions(p: dict[str, Any], ship: dict[str, Any] | None = None, tables: Tables | None = None) -> list[str]:
    """What the import had to assume because the line does not say it, for the game master to check.

    With the imported ``ship``, each figure filled from usp_defaults.toml is named, and so is any
    weapon factor the hull or the power plant could not take.
    """
    out = []
    listed = p.get("listed_tonnage")
    if listed is None:
        span = f"{p['tonnage_min']:,}-{p['tonnage_max']:,}" if p["tonnage_max"] else f"{p['tonnage_min']:,} or more"
        if p["tonnage_min"] > MAX_TONNAGE:
            out.append(f"tonnage {MAX_TONNAGE:,}: the most a ship file holds, under size code "
                       f"'{p['size_code']}' ({span} tons)")
        else:
            out.append(f"tonnage {max(MIN_TONNAGE, p['tonnage_min']):,}: the least of size code "
                       f"'{p['size_code']}' ({span} tons); give the listing's 'N tons' to set it")
    elif listed > MAX_TONNAGE:
        out.append(f"tonnage {MAX_TONNAGE:,}: the most a ship file holds, not the listing's {listed:,} tons")
    if ship is None:
        return out + ["crew, fuel, cargo, programs, missiles and gunners' skill are not in a USP: "
                      "set them in the ship file (or with c in the console)"]
    crew = ", ".join(f"{where} {n}" for where, n in ship["crew"].items())
    out.append(f"fuel {ship['fuel']:,} ton{'s' if ship['fuel'] != 1 else ''}, for jump {ship['jump']} and four weeks of power plant "
               f"{ship['power_plant']}")
    out.append(f"crew {crew or 'none'}")
    if ship["turrets"]:
        out.append(f"gunners' skill {ship['turrets'][0]['gunner_skill']}")
    out.append(f"programs loaded: {', '.join(ship['programs']) or 'none'}; "
               f"in the library: {', '.join(ship['program_library']) or 'none'}")
    out += _short_weapons(p, ship, tables or load_tables())
    out.append(f"cargo 0 tons, {ship['missiles']} missiles, {ship['sand']} sand canisters "
               f"(defaults from {DEFAULTS_PATH.name}; edit the ship file, or the ship in flagbridge new)")
    return out


def _short_weapons(p: dict[str, Any], ship: dict[str, Any], tables: Tables) -> list[str]:
    """A line for each weapon factor that got fewer turrets than its points, and why (by the same tables
    the import used).

    The reason is the one the hand-out met first (``_hand_out``): a laser the plant could not feed when a
    hardpoint was still free was refused for power, even if a missile rack took that hardpoint later."""
    out = []
    energy = energy_points(ship["tonnage"], ship["power_plant"])
    _given, stopped = _hand_out(p, ship["tonnage"], energy, tables)
    for key, mount, _per in TURRET_MAPPING:
        want, got = min(p[key], 9), sum(1 for t in ship["turrets"] if t["weapon"] == mount)
        if got >= want:
            continue
        need = tables.mounts[mount].get("energy_points", 0)
        left = stopped.get(key)
        if left is None and len(ship["turrets"]) < hardpoints(ship["tonnage"]):
            left = energy  # a ship not as the hand-out left it: the plant is all that can be said
        if left is None:
            why = f"the hull's {hardpoints(ship['tonnage'])} hardpoint(s) are taken"
        elif left == energy:
            why = (f"the power plant gives {points_text(energy)} energy points in all and a "
                   f"{mount.replace('_', ' ')} needs {need}")
        else:
            why = (f"the power plant gives {points_text(energy)} energy points in all, {points_text(left)} left "
                   f"after the turrets mounted before it, and a {mount.replace('_', ' ')} needs {need}")
        said = "not mounted" if not got else f"mounted as {got} turret(s) only"
        out.append(f"{key.replace('_', ' ')} factor {p[key]} {said}: {why}")
    return out


def usp_to_ship(line: str, name: str, tables: Tables | None = None,
                defaults_path: Path = DEFAULTS_PATH) -> dict[str, Any]:
    """A classic-hg ship (SHIP_FIELDS names) from a USP line; see the module notes.

    ``tables`` gives the mounts' energy points and the programs (the shipped tables if None);
    ``defaults_path`` what a USP implies (usp_defaults.toml). The ship also carries ``usp``, the
    profile it came from, for ``ship_toml``'s header; it is not a ship-file field.
    """
    p = parse_usp(line)
    tables = tables or load_tables()
    defaults = load_defaults(defaults_path)
    if p["listed_tonnage"] is not None:
        tonnage = p["listed_tonnage"]
    else:
        tonnage = p["tonnage_min"]
    tonnage = min(max(tonnage, MIN_TONNAGE), MAX_TONNAGE)
    power_plant = min(p["power_plant"], 9)
    for drive in ("maneuver", "jump"):  # the construction check's own limit, said of the profile
        if min(p[drive], 9) > power_plant:
            raise BadTable(f"USP {line!r}: {drive} {p[drive]} exceeds the power plant factor {power_plant} "
                           "(maneuver and jump may not exceed it)")
    skill = defaults["gunners"]["naval_skill" if p["naval"] else "civilian_skill"]
    turrets = _turrets(p, tonnage, energy_points(tonnage, power_plant), tables, skill)
    ship: dict[str, Any] = {
        "usp": p["usp"],
        "name": name,
        "class_name": f"{p['type_code']} ({p['type_name']})" if p["type_name"] else p["type_code"],
        "tonnage": tonnage,
        "hull_config": p["configuration"],
        "naval": p["naval"],
        "armor_factor": min(p["armor"], 15),
        "maneuver": min(p["maneuver"], 9),
        "jump": min(p["jump"], 9),
        "power_plant": power_plant,
        "computer_model": min(max(p["computer_model"], 1), 9),
        "computer_fib": p["computer_fib"],
        "turrets": turrets,
        "missiles": 0,
        "sand": 0,
        "repulsors": p["repulsors"],
        "nuclear_dampers": p["nuclear_damper"],
    }
    for t in turrets:
        if t["weapon"] in STORES_PER_WEAPON:
            store, per_weapon = STORES_PER_WEAPON[t["weapon"]]
            ship[store] += per_weapon * t["count"]
    fuel = defaults["fuel"]
    ship["fuel"] = math.ceil(tonnage * (fuel["jump_percent"] * ship["jump"]
                                        + fuel["power_plant_percent"] * power_plant) / 100)
    ship["crew"] = _crew(defaults["crew"], tonnage, len(turrets))
    ship["programs"], ship["program_library"] = _programs(ship, tables, defaults["programs"])
    return ship


def _crew(rules: dict[str, dict], tonnage: int, turrets: int) -> dict[str, int]:
    """Crew by general location: base, one per ``per_tons`` of hull and ``per_turret`` a turret."""
    crew = {}
    for where, r in rules.items():
        n = r["base"] + (tonnage // r["per_tons"] if r["per_tons"] else 0) + r["per_turret"] * turrets
        n = max(n, r["least"])
        if n:
            crew[where] = n
    return crew


def _programs(ship: dict[str, Any], tables: Tables, rules: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The programs each turret needs to fire and defend (the weapons and defences tables say which,
    when its ammunition is aboard), then the extras, while storage lasts; the library after."""
    wanted: list[str] = []
    for t in ship["turrets"]:
        mount = tables.mounts[t["weapon"]]
        for attack in mount["fires"]:
            w = tables.weapons[attack]
            if w["program"] and (not w["ammo"] or ship.get(w["ammo"], 0)):
                wanted.append(w["program"])
        for defence in mount["defends"]:
            d = tables.defences[defence]
            if d["programs"] and (not d["ammo"] or ship.get(d["ammo"], 0)):
                wanted.append(d["programs"][0])
    if ship["turrets"]:
        wanted += rules["gunnery_extras"]
    wanted += rules["extras"]
    capacity = program_storage({"computer_storage": 0, **ship}, tables)
    room, loaded = capacity, []
    for name in dict.fromkeys(wanted):
        size = tables.programs.get(name, {}).get("storage")
        if size is not None and size <= room:
            loaded.append(name)
            room -= size
    library = list(rules["library"])
    if rules["jump_program"] and ship["jump"]:
        library.append(f"{rules['jump_program']}{ship['jump']}")
    library = [n for n in dict.fromkeys(library) if n not in loaded
               and tables.programs.get(n, {}).get("storage", capacity + 1) <= capacity]
    return loaded, library


def _turrets(p: dict[str, Any], tonnage: int, energy: float, tables: Tables, skill: int) -> list[dict[str, Any]]:
    """One turret a point of factor, handed out round the types while hardpoints and energy last;
    a turret holds fewer weapons than its triple when only that many can be fed."""
    given, _stopped = _hand_out(p, tonnage, energy, tables)
    return [
        {"weapon": mount, "count": count, "gunner_skill": skill}
        for key, mount, _per in TURRET_MAPPING
        for count in given[key]
    ]


def _hand_out(p: dict[str, Any], tonnage: int, energy: float,
              tables: Tables) -> tuple[dict[str, list[int]], dict[str, float | int]]:
    """The weapons of each turret of each type, and for each type the plant stopped, the energy points that were
    left when it did (a type missing from it and still short ran out of hardpoints)."""
    wanted = {key: min(p[key], 9) for key, _, _ in TURRET_MAPPING}
    given: dict[str, list[int]] = {key: [] for key in wanted}
    stopped: dict[str, float | int] = {}
    left = hardpoints(tonnage)
    while left and any(len(given[k]) < wanted[k] for k in wanted):
        for key, mount, per_turret in TURRET_MAPPING:
            if not left or len(given[key]) >= wanted[key]:
                continue
            each = tables.mounts[mount].get("energy_points", 0)
            count = per_turret if not each else min(per_turret, int(energy // each))
            if count < 1:
                wanted[key] = len(given[key])  # the plant cannot feed another of these
                stopped[key] = energy
                continue
            given[key].append(count)
            left -= 1
            energy -= each * count
    return given, stopped


def not_carried_over(p: dict[str, Any]) -> list[str]:
    """What a parsed USP says that a classic-hg ship file has no field for."""
    notes = []
    if p["meson_guns"]:
        notes.append(f"meson guns factor {p['meson_guns']}")
    if p["spinal_mount"]:
        notes.append(f"spinal mount {p['spinal_mount']['code']} ({p['spinal_mount']['weapon']})")
    if p["meson_screen"]:
        notes.append(f"meson screen factor {p['meson_screen']}")
    if p["force_field"]:
        notes.append(f"force field factor {p['force_field']}")
    if p["fighter_squadrons"]:
        notes.append(f"{p['fighter_squadrons']} fighter squadron(s)")
    if p["computer_bis"]:
        notes.append(f"computer model {p['computer_model']}bis")
    low, high = p["crew_range"]
    notes.append(f"crew code {p['crew_code']} ({low}-{high} crew)")
    return notes


def ship_toml(ship: dict[str, Any]) -> str:
    """A ship file's text: a header comment naming the USP, then ``[ship]`` and its turrets.

    Fields are written in SHIP_FIELDS order, ``ruleset`` first; ``turrets``
    become ``[[ship.turrets]]`` tables. A key that is no ship field (other than
    ``usp``) is refused rather than dropped.
    """
    known = {f.name for f in SHIP_FIELDS}
    extra = sorted(set(ship) - known - {"usp"})
    if extra:
        raise BadTable(f"ship: unknown field {extra[0]!r} (known: {', '.join(sorted(known))})")
    usp = ship.get("usp", "")
    if usp:
        lines = [f"# classic-hg ship from USP {usp} (Classic Traveller High Guard 2nd edition layout)"]
        lines += [f"# not carried over: {note}" for note in not_carried_over(parse_usp(usp))]
    else:
        lines = ["# classic-hg ship (no USP given)"]
    lines += ["[ship]", 'ruleset = "classic-hg"']
    for f in SHIP_FIELDS:
        if f.name in ship and f.name != "turrets":
            lines.append(f"{toml_text.key(f.name)} = {toml_text.value(ship[f.name])}")
    for turret in ship.get("turrets", []):
        lines += ["", "[[ship.turrets]]"]
        lines += [f"{toml_text.key(k)} = {toml_text.value(v)}" for k, v in turret.items()]
    return "\n".join(lines) + "\n"
