"""Range in squares between ships, the range bands, and line of sight.

Source: ``megatraveller-sensors-fire.txt``: range bands ("Visual = 1 space (but
should be same space - errata item) / Near = 2 spaces / Far 3-10 spaces /
Extreme 11-100 spaces") and "Line Of Sight: If something blocks the line of
sight, you can't shoot."

Where the text is silent we decided:

- Range is kept per pair of enemy ships in squares; it starts at
  ``options.range`` (10 squares, Far, when not given).
- Beyond 100 squares a ship is out of every band: nothing new is detected
  there, and nothing is located, locked or fired at. What a side already holds
  of a ship that moves out that far (detected, located, locked) stays: line 9
  says what is detected within 100 spaces, and no line takes a state away. The
  game master corrects it when contact is lost.
- With option ``visual_same_square`` (the errata), Visual is 0 squares and Near
  is 1-2; without it Visual is 0-1 (the same square is surely in sight).

Nothing here changes the state: the actions that set range and sight are in
``turn``, which also refreshes what each side detects.
"""

from __future__ import annotations

DEFAULT_RANGE = 10
DETECTION_LIMIT = 100  # "Anything within 100 spaces is pretty much detected"


def pair(a: str, b: str) -> str:
    """The key of a range between two ships: their ids in sorted order, "a|b" (asked for every range read)."""
    return f"{a}|{b}" if a <= b else f"{b}|{a}"


def square_words(n: int) -> str:
    """"1 square", "8 squares"."""
    return f"{n} square{'' if n == 1 else 's'}"


def squares(state: dict, a: str, b: str) -> int:
    return state["ranges"][pair(a, b)]


def band_of(state: dict, n: int) -> str:
    """The band for a range in squares ("" beyond Extreme)."""
    visual = 0 if state["options"]["visual_same_square"] else 1
    if n <= visual:
        return "visual"
    if n <= 2:
        return "near"
    if n <= 10:
        return "far"
    if n <= DETECTION_LIMIT:
        return "extreme"
    return ""


def band(state: dict, a: str, b: str) -> str:
    return band_of(state, squares(state, a, b))


def sight_blocked(state: dict, a: str, b: str) -> bool:
    return pair(a, b) in state["blocked"]


def enemies(state: dict, ship_id: str) -> list[str]:
    side = state["ships"][ship_id]["side"]
    return [sid for sid, s in state["ships"].items() if s["side"] != side]


def unranged(state: dict) -> str:
    """The first two enemy ships with no range between them, for a resumed [state] ("" when every pair has one):
    the range step, the sensors and the fire forms look each pair's range up, and a ship the setup never had (or
    a ship id edited by hand) would be missing from ``ranges`` until some step asked for it."""
    ships = {sid: s for sid, s in state["ships"].items() if isinstance(s, dict)}
    ids = sorted(ships)
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            if ships[a].get("side") != ships[b].get("side") and pair(a, b) not in state["ranges"]:
                return (f"ranges: no range between {ships[a].get('name', a)} ({a}) and "
                        f"{ships[b].get('name', b)} ({b})")
    return ""
