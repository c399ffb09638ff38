"""Crew hits from a ship fight, resolved by percentile combat (the procedure other rulesets call).

DESIGN.md: "One ruleset may use another's procedures inside the same fight
(classic-hg crew hits resolved by the percentile system against named crew)".
A ship ruleset calls ``crew_attack`` with the ship, the general location, the
people there (named ones by id and name, the rest counted) and the personal
weapon and range band its own text gives as the equivalent (classic-hg:
"laser -> laser rifle at medium range"). The people live in the fight's
``state["people"]``, made here on demand, so they are saved, undone and
replayed with the fight.

Where the texts are silent we decided: the ship's hit has already struck the
location, so each person there is hit (no percent to hit) at a random location
(Table 3-3.4), for the damage of procedure 3 (Table 3-3, WEP MOD vs the band);
crew made on demand are humans with the people table's defaults, named by
their ship, location and number.
"""

from __future__ import annotations

from engine.errors import IllegalAction

from .catalogue import CATALOGUE
from .combat import ask_location
from .people import check_person, person_state

DEFAULTS = {"race": "human", "team": "", "perception": 50, "aim": 50, "brawl": 50, "agility": 0, "strength": 50,
            "alertness": 50, "weapons": [], "body": {}}


def weapon_named(tables, words: str) -> tuple[str, str]:
    """A crew-hit equivalent, "laser rifle at medium range", as (weapon id, band id)."""
    label, _, rest = words.strip().partition(" at ")
    band = rest.removesuffix(" range").strip().replace(" ", "_") or tables.bands[0]["id"]
    wid = next((w for w, e in tables.weapons.items() if e["label"].lower() == label.strip().lower()), "")
    if not wid or band not in {b["id"] for b in tables.bands}:
        raise IllegalAction(f"percentile has no weapon and range for {words!r}")
    return wid, band


def crew_ids(state: dict, ship: str, place: str) -> list[str]:
    return [pid for pid, p in state.get("people", {}).items()
            if p.get("ship") == ship and p.get("location") == place and not p["dead"]]


def enlist(state: dict, tables, ship: str, ship_name: str, side: str, place: str, count: int,
           names: list[str] = ()) -> list[str]:
    """The living people at ``place`` aboard ``ship``, made on demand up to ``count`` (named ones first)."""
    people = state.setdefault("people", {})
    here = crew_ids(state, ship, place)
    wanted = list(names) + [""] * max(0, count - len(names))
    n = sum(1 for p in people.values() if p.get("ship") == ship and p.get("location") == place)
    for name in wanted[len(here):]:
        n += 1
        pid = f"{ship}-{place}-{n}"
        person = {**DEFAULTS, "side": side, "name": name or f"{ship_name} {place.replace('_', ' ')} {n}"}
        check_person(person, tables, f"people.{pid}")
        people[pid] = {**person_state(person, tables), "ship": ship, "location": place}
        here.append(pid)
    return here[:max(count, len(names))]


@CATALOGUE.procedure("crew_attack")
def crew_attack(state: dict, args: dict, tables, ctx) -> None:
    """Each person at the location is hit by the equivalent weapon; the caller's reply hears of each."""
    wid, band = weapon_named(tables, args["equivalent"])
    ids = enlist(state, tables, args["ship"], args["ship_name"], args["side"], args["location"],
                 int(args.get("count", 0)), list(args.get("names", [])))
    if not ids:
        ctx.note(f"Nobody at the {args['location'].replace('_', ' ')} to hit")
        return
    for pid in ids:
        data = {"attacker": "", "target": pid, "weapon": wid, "band": band, "metres": 0, "aim": "",
                "damage": 3, "grazing": False, "organs": False, "reply": True}
        ask_location(ctx, state["people"][pid], data)
