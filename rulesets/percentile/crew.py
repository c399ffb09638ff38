"""Crew hits from a ship fight, resolved by percentile combat (the procedure other rulesets call).

DESIGN.md: "One ruleset may use another's procedures inside the same fight
(classic-hg crew hits resolved by the percentile system against named crew)".
A ship ruleset calls ``crew_attack`` with the ship, the general location, the
people there (named ones by id and name, the rest counted) and the personal
weapon and range band its own text gives as the equivalent (classic-hg:
"laser -> laser rifle at medium range"). The people live in the fight's
``state["people"]``, made here on demand, so they are saved, undone and
replayed with the fight. The ship ruleset says how its fight reads them
(``people_reading``, as percentile's own does: a save an earlier version
wrote is read as that version read its crew's wounds).

classic-hg says "Determine the to hit and damage according to the weapon", so
each person there is shot at. Where the texts are silent we decided: the
percent to hit is procedure 2 (Table 3-1 at the band) for an Aim of 50; a hit
lands at a random location (Table 3-3.4) for the damage of procedure 3 (Table
3-3, WEP MOD vs the band); exposure (radiation) puts its points on the chest
with no description; crew made on demand are humans with the people defaults,
named by location and number ("Bridge crew 2").
"""

from __future__ import annotations

from engine.errors import IllegalAction

from engine.rolls import RollResult, Target

from .catalogue import CATALOGUE
from .combat import percent_to_hit
from .people import check_person, person_state
from .wounds import apply_damage

FIRER_AIM = 50  # nobody aims a ship's hit at a crewman: an average Aim stands in (ours)
EXPOSURE_PART = "chest"  # radiation reaches the whole body; its points are kept on the chest (ours)

DEFAULTS = {"race": "human", "team": "", "perception": 50, "aim": 50, "brawl": 50, "agility": 0, "strength": 50,
            "alertness": 50, "asleep": False, "weapons": [], "body": {}}


def weapon_named(tables, words: str) -> tuple[str, str]:
    """A crew-hit equivalent, "laser rifle at medium range", as (weapon id, band id)."""
    label, _, rest = words.strip().partition(" at ")
    band = rest.removesuffix(" range").strip().replace(" ", "_") or tables.bands[0]["id"]
    wid = next((w for w, e in tables.weapons.items() if e["label"].lower() == label.strip().lower()), "")
    if not wid or band not in {b["id"] for b in tables.bands}:
        raise IllegalAction(f"percentile has no weapon and range for {words!r}")
    return wid, band


def crew_hit(tables, words: str) -> tuple[str, str, int, str]:
    """A crew-hit equivalent's weapon id and band, and its percent to hit for the stand-in firer (procedure
    2) with how it was found: from the tables alone, so worked out once per loaded tables."""
    key = ("crew hit", words)
    found = tables.memo.get(key)
    if found is None:
        wid, band = weapon_named(tables, words)
        marksman = {"aim": FIRER_AIM, "brawl": FIRER_AIM}
        found = tables.memo[key] = (wid, band, *percent_to_hit(2, tables, marksman, tables.weapons[wid], band, []))
    return found


def crew_ids(state: dict, ship: str, place: str) -> list[str]:
    return [pid for pid, p in state.get("people", {}).items()
            if p.get("ship") == ship and p.get("location") == place and not p["dead"]]


def enlist(state: dict, tables, args: dict) -> list[str]:
    """The people a crew hit reaches: ``only`` those named (a stateroom's occupant), or the living at the
    location, made on demand up to ``count`` from the ship's ``roster`` of names, then by number.

    The fight's people are read in one pass (every crew hit asks, and the people only grow)."""
    people = state.setdefault("people", {})
    ship, place = args["ship"], args["location"]
    if args.get("only"):
        first: dict[str, str] = {}  # each name aboard: the first person of the ship who has it
        for pid, p in people.items():
            if p.get("ship") == ship:
                first.setdefault(p["name"], pid)
        out = []
        for name in args["only"]:
            pid = first.get(name, "") or _make(state, tables, ship, args["side"], place, name)
            if not people[pid]["dead"]:
                out.append(pid)
        return out
    want = int(args.get("count", 0))
    here: list[str] = []  # as ``crew_ids`` finds them
    roster = args.get("roster", [])
    taken: set[str] | None = set() if roster else None  # the names aboard, read only when there is a roster
    placed = 0  # everyone of the ship at the place, the dead too: what ``_make`` numbers from
    for pid, p in people.items():
        if p.get("ship") == ship:
            if roster:
                taken.add(p["name"])
            if p.get("location") == place:
                placed += 1
                if not p["dead"]:
                    here.append(pid)
    if len(here) >= want:
        return here if len(here) == want else here[:want]
    names = [n for n in roster if n not in taken] if roster else []
    count = placed
    while len(here) < want:
        here.append(_make(state, tables, ship, args["side"], place, names.pop(0) if names else "", count))
        count += 1  # one more at the place
    return here


def _make(state: dict, tables, ship: str, side: str, place: str, name: str, placed: int | None = None) -> str:
    """A crew member made on demand, numbered after everyone of the ship at the place (``placed``: that
    count, when the caller has it), or after that when the number is someone's already: one the game master
    has moved elsewhere keeps his, and nobody is made over him."""
    people = state["people"]
    if placed is None:
        placed = sum(1 for p in people.values() if p.get("ship") == ship and p.get("location") == place)
    n = 1 + placed
    while f"{ship}-{place}-{n}" in people:
        n += 1
    pid = f"{ship}-{place}-{n}"
    person = {**DEFAULTS, "side": side, "name": name or f"{place.replace('_', ' ').capitalize()} crew {n}"}
    checked = ("made people checked",)  # they differ only in side and name, which the check does not read
    if checked not in tables.memo:
        check_person(person, tables, f"people.{pid}")
        tables.memo[checked] = True
    made = person_state(person, tables)  # a fresh dict: the ship and place go on it, last, without a copy
    made["ship"] = ship
    made["location"] = place
    people[pid] = made
    return pid


@CATALOGUE.procedure("crew_attack")
def crew_attack(state: dict, args: dict, tables, ctx) -> None:
    """Each person at the location is shot at with the equivalent weapon ("Determine the to hit and damage
    according to the weapon"); the caller's reply hears of each, hit or missed."""
    wid, band, value, how = crew_hit(tables, args["equivalent"])
    weapon = tables.weapons[wid]
    ids = enlist(state, tables, args)
    if not ids:
        ctx.note(f"Nobody at the {args['location'].replace('_', ' ')} to hit")
        return
    people, tag, target = state["people"], args.get("tag", ""), Target(value - 1, at_most=True)
    where = f"({args['ship_name']}, {args['location'].replace('_', ' ')}; {how})"  # the same for everyone there
    shot = {"attacker": "", "target": "", "weapon": wid, "band": band, "metres": 0, "aim": "", "damage": 3,
            "grazing": False, "organs": False, "reply": True, "value": value, "tag": tag}
    for pid in ids:
        data = shot.copy()  # each roll its own, naming its person (a copy costs a third of writing it out)
        data["target"] = pid
        ctx.request_roll(f"Percent to hit: {weapon['label']} at {people[pid]['name']} {where}", "1:100sd",
                         target=target, then="to_hit", context=data)


#: What "2 attributes reduced to 0" (classic-hg's nuclear missile) may take of a person: which ones the text does not
#: say, so each is rolled, one die over those still left (ours).
ATTRIBUTES = ("perception", "aim", "brawl", "agility", "strength")


@CATALOGUE.procedure("crew_drained")
def crew_drained(state: dict, args: dict, tables, ctx) -> None:
    """Every person at the location loses ``attributes`` of their attributes, each taken to 0 (classic-hg: a
    nuclear missile's crew hit that does not kill, "otherwise 2 attributes reduced to 0"); the caller's reply
    hears of each person once all of theirs are rolled."""
    ids = enlist(state, tables, args)
    if not ids:
        ctx.note(f"Nobody at the {args['location'].replace('_', ' ')} to reach")
    for pid in ids:
        left = [a for a in ATTRIBUTES if state["people"][pid][a] > 0]  # one already at 0 cannot be reduced to it
        if left:
            _ask_drained(state, pid, left, int(args["attributes"]), [], args.get("tag", ""), ctx)
        else:
            ctx.note(f"{state['people'][pid]['name']}: every attribute is already 0")
            ctx.done({"tag": args.get("tag", ""), "person": pid, "lost": []})


def _ask_drained(state: dict, pid: str, left: list[str], more: int, lost: list[str], tag: str, ctx) -> None:
    person = state["people"][pid]
    choices = ", ".join(f"{i} {name}" for i, name in enumerate(left, 1))
    ctx.request_roll(f"Attribute reduced to 0: {person['name']} ({choices})", f"1d{len(left)}", then="drained",
                     context={"person": pid, "left": left, "more": more, "lost": lost, "tag": tag})


@CATALOGUE.continuation("drained")
def on_drained(state: dict, result: RollResult, tables, ctx) -> None:
    c = result.request.context
    left, lost = list(c["left"]), list(c["lost"])
    name = left.pop(result.total - 1)
    lost.append(name)
    person = state["people"][c["person"]]
    person[name] = 0
    if name == "agility":  # no Agility Points from now on, this turn's too
        person["ap_turn"] = 0
    ctx.note(f"{person['name']}: {name} reduced to 0")
    if c["more"] > 1 and left:
        _ask_drained(state, c["person"], left, c["more"] - 1, lost, c["tag"], ctx)
        return
    ctx.done({"tag": c["tag"], "person": c["person"], "lost": lost})


@CATALOGUE.procedure("crew_exposure")
def crew_exposure(state: dict, args: dict, tables, ctx) -> None:
    """Points every person at the location takes at once, with no roll to hit (classic-hg radiation: "all
    crew in the general location hit take 1D damage immediately, and will die in 1D days" untreated)."""
    ids = enlist(state, tables, args)
    people, points, days = state["people"], int(args["points"]), args.get("dies_in_days")
    for pid in ids:
        apply_damage(state, tables, pid, EXPOSURE_PART, points, str(args["kind"]), ctx)
        person = people[pid]
        if days and not person["dead"]:
            # a second dose does not put death off: the sooner of the two stands (both untreated)
            sooner = min(int(days), person.get("dies_in_days") or int(days))
            person["dies_in_days"] = sooner
            ctx.note(f"{person['name']} dies in {sooner} days without antiradiation treatment"
                     + (f" (the earlier dose's {sooner}, sooner than this one's {days})" if sooner < int(days) else ""))
        ctx.done({"tag": args.get("tag", ""), "person": pid, "part": EXPOSURE_PART, "points": points,
                  "dead": person["dead"]})
