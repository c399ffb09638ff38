"""What a ship can still use: the numbers its rolls read once criticals have shut systems down.

Source: ``megatraveller-sensors-fire.txt``, "Criticals shut down a system". The
critical table names the system (``tables/criticals.toml``); this module says
what each shut-down system takes out of the fight, so every rule reads a ship's
computer, agility, defences, globe and sensors through it.

Where the text is silent we decided:

- ``weapons``: the ship's batteries do not fire.
- ``sensors``: the ship detects nothing and takes no locate or lock action.
- ``computer``: the computer counts 0 wherever a roll adds it (to hit, sensor
  rolls, the firer's penetration rolls) and wherever it is subtracted (from the
  attackers' penetration rolls). A head gunner's skill or a Sensor Ops officer
  still stands in for it, as the text allows, and tactics points still add.
- ``screens``: every defence the text calls a "defense screen" that is a device
  (sand, dampers, repulsors, meson screens) gives no penetration roll, and a
  black or white globe adds no AV. The hull configuration is the hull's shape,
  not a device: meson guns still roll against it.
- ``maneuver``: agility counts 0 (a spinal mount aims with it).
- ``power``: nothing aboard has power: as weapons, sensors, computer, screens
  and maneuver all shut down.
- ``bridge``: the ship is not commanded: it spends no tactics points (neither
  its own pool nor the fleet's), and no Sensor Ops officer stands in for the
  computer. Head gunners sit in their batteries and still shoot.
- ``jump``, ``fuel``, ``hull`` and any name a house table adds: no rule of this
  fight procedure reads them; the ship's panel lists them for the referee.
"""

from __future__ import annotations

from .ships import DEFAULT_CONFIGURATION

#: Systems a shut-down power plant takes with it.
POWERED = ("weapons", "sensors", "computer", "screens", "maneuver")
#: The defences that are devices a "screens" critical shuts down (the configuration is the hull itself).
SCREENS = ("sand", "damper", "repulsor", "meson_screen")


def shut_down_names(tables) -> list[str]:
    """The systems a critical can shut down: each the fight's critical table names ("All Crit rolls are a flat
    2d6 on the table on page 94"), a house table's own names among them."""
    return sorted(set(tables.criticals.values()))


def shut_down(ship: dict, system: str) -> bool:
    """"Criticals shut down a system": listed once however many criticals name it. True when it was working."""
    if system in ship["shut_down"]:
        return False
    ship["shut_down"].append(system)
    return True


def shut_down_fault(names: list, tables) -> str:
    """Why ``names`` cannot be a ship's systems shut down ("" when they can): each must be a system a critical
    shuts down (``shut_down_names``), and each is down once (``shut_down``). A correction asks here."""
    known = shut_down_names(tables)
    for i, name in enumerate(names):
        if name not in known:
            return f"cannot hold {name!r}: the systems a critical shuts down are {', '.join(known)}"
        if name in names[:i]:
            return f"names {name!r} twice: a system is shut down once"
    return ""


def off(ship: dict, system: str) -> bool:
    """Whether ``system`` is shut down, by its own critical or by the power plant's."""
    down = ship["shut_down"]
    return system in down or ("power" in down and system in POWERED)


def why_off(ship: dict, system: str) -> str:
    """The reason in the game master's words, or "" when the system works."""
    if system in ship["shut_down"]:
        return f"{ship['name']}'s {system} are shut down by a critical hit"
    if off(ship, system):
        return f"{ship['name']}'s power plant is shut down by a critical hit: no power for its {system}"
    return ""


def computer(ship: dict) -> int:
    """The computer model a roll adds (or an attacker subtracts): 0 while the computer is shut down."""
    return 0 if off(ship, "computer") else ship["computer"]


def agility(ship: dict) -> int:
    return 0 if off(ship, "maneuver") else ship["agility"]


def defence(ship: dict, name: str) -> int:
    """A defence factor to penetrate: a screen shut down gives none; every hull has a configuration."""
    if name == "configuration":
        return ship["defences"][name] or DEFAULT_CONFIGURATION
    return 0 if name in SCREENS and off(ship, "screens") else ship["defences"][name]


def globe_flicker(ship: dict) -> int:
    """Flicker factors adding AV: none without a globe or while the screens are shut down."""
    return 0 if not ship["globe"] or off(ship, "screens") else ship["globe_flicker"]


def commanded(ship: dict) -> bool:
    """A ship whose bridge works: it may spend tactics points and use a Sensor Ops officer."""
    return "bridge" not in ship["shut_down"]


def sensor_ops(ship: dict) -> int:
    """The PC sensor officer's skill (-1: none statted, or the bridge is shut down)."""
    return ship["sensor_ops"] if commanded(ship) else -1
