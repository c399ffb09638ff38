"""What one side knows in a percentile fight: the players' screen (``flagbridge watch``).

The rules text (``percentile-personal-combat.txt``) has no sensors: people fight
by sight, and the surprise procedures speak of combatants who "lose sight of
each other". Our reading: an enemy in sight shows what a look tells (race,
the weapons in hand, the wounds and the state they leave), never the numbers
behind them (attributes, Agility Points); once the sides have lost sight of
each other only the names remain; a side that has not joined the fight is
not there to be seen, only counted. The dice of a fight are rolled in the
open, so every action and roll is seen; a correction follows the engine's
default (seen only when it is to the side's own person).
"""

from __future__ import annotations

from engine.sideview import Contact, SideView, own_units, seen_in_the_open, side_name


def side_view(ruleset, state: dict, side: str) -> SideView:
    tables = ruleset.tables_for(state)
    contacts = []
    for uid, p in state["people"].items():
        if p["side"] == side or p["side"] not in state["joined"]:
            continue
        if state["contact_lost"]:
            contacts.append(Contact(uid, p["name"], (("Seen", "out of sight"),)))
            continue
        race = tables.races[p["race"]]
        hurt = [f"{part.replace('_', ' ')} ({w['text']})" for part, w in _last_wounds(p).items()]
        contacts.append(Contact(uid, p["name"], (
            ("Race", race["label"] + (", exoskeleton" if race["exoskeleton"] else "")),
            ("State", "DEAD" if p["dead"] else "in the fight"),
            ("Weapons", ", ".join(tables.weapons[w]["label"] for w in p["weapons"]) or "none"),
            ("Wounds", "; ".join(hurt) or "none seen"),
        )))
    waiting = [s for s in state["side_order"] if s != side and s not in state["joined"]]
    unseen = f"{len(waiting)} side{'s' if len(waiting) != 1 else ''} not yet in the fight" if waiting else ""
    return SideView(side, side_name(state, side), own_units(ruleset, state, side), tuple(contacts), unseen=unseen)


def _last_wounds(person: dict) -> dict[str, dict]:
    """Each wounded part's latest wound (what the eye sees of it now)."""
    out: dict[str, dict] = {}
    for w in person["wounds"]:
        if w.get("points"):
            out[w["part"]] = w
    return out


log_seen = seen_in_the_open  # every action and roll is made in the open
