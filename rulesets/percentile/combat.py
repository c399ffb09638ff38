"""Attacks: percent to hit (procedures 1-3), grenades, hit location, and damage (procedures 1-3).

Source: ``percentile-personal-combat.txt``, Percent to Hit and Damage.

- MARKSmanship = (AIM + WEP DIF) / 2; BRAWLmanship = (BRAWL + ATTACK DIF) / 2;
  hand-to-hand "cannot be used at over three meters".
- To hit (1) roll 1:100sd under MARKSmanship; (2) under Table 3-1 (MARKS vs
  Range); (3) Table 3-1 less Table 3-2 (the adversity modifiers of 3-7.x vs
  Range): a negative result misses; "If, however, the result is a positive
  number, the player has hit!", and the 1:100sd then only places the hit: "more
  than 20 under the result" is a direct hit where aimed, "20 or less under" a
  random hit on the RANDOM HIT table #3-3.4.
- Grenades (4): under the Brawl attribute lands where aimed; "less than 20
  over" bounces (Table 3-4.1); "more than 20 over" misses and lands "1:10sd +
  13 meters away"; Physical Strength and weight limit the throw (Table 3-4.0),
  of a grenade and of "any thrown weapon" alike (a weapon the table marks
  ``thrown``, which is otherwise weaponry: "anything thrown" falls into it).
- Damage (1) the damage type's table (3-16 to 3-21): a title with a damage
  percentage and a severity roll, 1:10sd each, for each damage type of a
  weapon whose attack combines several ("any attack may combine more than one
  type of damage depending on the weapon used"), each its own wound; (2) the data sheet's DAMAGE DIE
  ROLL X:10sd+Y ("recommended ... only ... if the range is less than ten
  meters"); (3) Table 3-3, WEP MOD vs range. These two "yield a single
  number", described on each of the weapon's damage types' tables. GRAZING SHOTS: the points times
  % UNDER / percent to hit, where % UNDER = percent to hit - the 1:100sd roll;
  under to-hit procedure 3 that is the PERCENT TO HIT of its step a. (Table
  3-1), not the result after the Percent Against.

Where the text is silent we decided: averages and products are rounded half
up; "under" is strictly below (the exact chance is shown before the roll);
the direct-hit band applies to every to-hit procedure, so an aimed part means
the same under each; in procedure 3 a roll over the result is a random hit (the
text calls every positive result a hit), and a roll over the percent to hit
grazes for nothing (its share of the points would be below nothing); a result
of exactly 0 misses (the text names neither a hit nor a miss for it);
hand-to-hand adds Physical Strength / 10 points, rounded down, under damage
procedures 2 and 3 (the text: damage "is directly related to the Physical
Strength of the attacker", with no number; procedure 1's table gives the wound
itself), and Strength enters no percent to hit; grazing applies under damage
procedure 3 too (the text says it follows "procedure one or two", but its
reason, that the damage "does not account for how well the marksman hits",
holds for Table 3-3's points as well, and the text numbers its damage
procedures two ways); exactly 20 over Brawl still
bounces; a grenade harms its target when it comes to rest within the weapon's
blast radius, with no grazing: in the part aimed at when it did not bounce, else
(and for those caught with the target) at a random location, and under damage
procedure 3 at the range it was thrown from (not where it went off); an attack's
points are spent when it is made, hit or miss.
"""

from __future__ import annotations

from engine.actions import Action, Choice, Param
from engine.rolls import Modifier, RollResult, Target

from .alertness import living_problem, rise_first
from .catalogue import CATALOGUE, continuation
from .people import half_up, share_points
from .tables import Tables, band_of, die_notation, row_at
from .turn import add_next, over_when_one_side_stands, spend, why_cannot_pay, why_not_acting
from .wounds import apply_damage

HAND_TO_HAND_REACH_M = 3  # "cannot be used at over three meters"
DIRECT_HIT_UNDER = 20  # "more than 20 under the result, the attack is a direct hit"
GRENADE_BOUNCE_OVER = 20  # "less than 20 over brawl" bounces, "more than 20 over" misses
GRENADE_MISS_DICE = "1:10sd+13"  # "l:10sd + 13 meters away from the target hexagon"
DIE_ROLL_BEST_UNDER_M = 10  # damage procedure 2: "only ... if the range is less than ten meters"
HEX_SIDES = ("ahead", "ahead right", "behind right", "behind", "behind left", "ahead left")


# --- percent to hit -----------------------------------------------------------------------------------

def skill(person: dict, weapon: dict) -> int:
    """MARKSmanship (Aim) or BRAWLmanship (Brawl), averaged with the weapon's difficulty."""
    base = person["brawl"] if weapon["kind"] == "hand_to_hand" else person["aim"]
    return half_up(base + weapon["dif"], 2)


def adversity_sum(tables: Tables, picks: list[str]) -> int:
    total = 0
    for pick in picks:
        group, _, entry = pick.partition(".")
        total += tables.adversity[group]["entries"][entry]["modifier"]
    return total


def percent_to_hit(procedure: int, tables: Tables, person: dict, weapon: dict, band: str,
                   adversity: list[str]) -> tuple[int, str]:
    """The number the 1:100sd must roll under, and how it was found."""
    marks = skill(person, weapon)
    name = "BRAWLmanship" if weapon["kind"] == "hand_to_hand" else "MARKSmanship"
    how = f"{name} {marks}"
    if procedure == 1:
        return marks, how
    col = tables.band_index(band)
    hit = row_at(tables.to_hit, marks)[col]
    how += f", {band.replace('_', ' ')} range: {hit}% (Table 3-1)"
    if procedure == 2:
        return hit, how
    adv = adversity_sum(tables, adversity)
    against = row_at(tables.against, adv)[col]
    return hit - against, how + f" less {against}% against (adversity {adv}, Table 3-2)"


def is_thrown(weapon: dict) -> bool:
    """A grenade, or a weapon the table marks thrown: "the grenade, explosive or any thrown weapon" goes only as far
    as Physical Strength hurls its weight (Grenades and Explosives, Table 3-4.0)."""
    return weapon["kind"] == "grenade" or weapon["thrown"]


def throw_limit(tables: Tables, person: dict, weapon: dict) -> int:
    """Table 3-4.0: how far the person can throw an object of the weapon's weight."""
    col = next((i for i, w in enumerate(tables.weights_kg) if weapon["weight_kg"] <= w), len(tables.weights_kg) - 1)
    return row_at(tables.throw_distance, person["strength"])[col]


def strength_bonus(person: dict, weapon: dict) -> int:
    return person["strength"] // 10 if weapon["kind"] == "hand_to_hand" and person else 0


# --- the attack action ----------------------------------------------------------------------------------

def _weapons(state: dict, args: dict, tables) -> list[Choice]:
    p = state["people"].get(args.get("person", ""), {})
    return [Choice(w, _weapon_words(state, args, tables, w)) for w in p.get("weapons", [])]


def _weapon_words(state: dict, args: dict, tables, weapon: str) -> str:
    return tables.weapons[weapon]["label"]


def _parts(state: dict, args: dict, tables) -> list[Choice]:
    t = state["people"].get(args.get("target", ""), {})
    return [Choice(part, f"{_part_words(state, args, tables, part)} ({b['taken']}/{b['points']})") for part, b in
            t.get("body", {}).items()]


def _part_words(state: dict, args: dict, tables, part: str) -> str:
    return part.replace("_", " ")


def _bystanders(state: dict, args: dict, tables) -> list[Choice]:
    """For a grenade: anyone else standing with the target (the game master's map decides who)."""
    if tables.weapons.get(args.get("weapon", ""), {}).get("kind") != "grenade":
        return []
    return [Choice(pid, p["name"]) for pid, p in state["people"].items()
            if not p["dead"] and pid not in (args.get("target"), args.get("person")) and p["side"] in state["joined"]]


def _adversity(state: dict, args: dict, tables) -> list[Choice]:
    if state["options"]["to_hit"] != 3:
        return []
    return [Choice(f"{g}.{e}", f"{_adversity_words(state, args, tables, f'{g}.{e}')} (+{entry['modifier']})")
            for g, group in tables.adversity.items() for e, entry in group["entries"].items()]


def _adversity_words(state: dict, args: dict, tables, chosen: str) -> str:
    """"cover: half hidden" for ``cover.half``: the table's title without its number, and the entry."""
    g, e = chosen.split(".", 1)
    group = tables.adversity[g]
    return f"{group['title'].split(' ', 1)[1]}: {group['entries'][e]['label']}"


@rise_first
def may_attack(state: dict, args: dict, tables) -> str:
    if state["step"] != "action":
        return "attacks are made in the players' action step"
    if "person" not in args:
        return ""
    why = why_not_acting(state, args["person"])
    if why:
        return why
    attacker = state["people"][args["person"]]
    if not attacker["weapons"]:
        return f"{attacker['name']} carries no weapon"
    if "weapon" not in args:
        return ""
    weapon = tables.weapons[args["weapon"]]
    why = why_cannot_pay(state, args["person"], weapon["ap"])
    if why:
        return why
    if "target" in args:
        target = state["people"][args["target"]]
        if target["side"] == attacker["side"]:
            return f"{target['name']} is on {attacker['name']}'s own side"
        if target["dead"]:
            return f"{target['name']} is dead"
        if target["side"] not in state["joined"]:
            return f"{target['name']}'s side is not in the fight yet"
    if "range" in args:
        metres = args["range"]
        if weapon["kind"] == "hand_to_hand" and metres > HAND_TO_HAND_REACH_M:
            return (f"{weapon['label']} is hand to hand: {metres} m is over {HAND_TO_HAND_REACH_M} m, "
                    f"move in first")
        if is_thrown(weapon) and metres > throw_limit(tables, attacker, weapon):
            return (f"{attacker['name']} throws {weapon['weight_kg']} kg at most "
                    f"{throw_limit(tables, attacker, weapon)} m (Table 3-4.0)")
    if "adversity" in args:
        groups = [a.partition(".")[0] for a in args["adversity"]]
        if len(set(groups)) != len(groups):
            return "one adversity modifier of each table at most"
    return ""


def attack(state: dict, args: dict, tables: Tables, ctx) -> None:
    attacker = state["people"][args["person"]]
    target = state["people"][args["target"]]
    weapon = tables.weapons[args["weapon"]]
    runs = spend(state, args["person"], weapon["ap"])
    if runs:
        ctx.note(f"{attacker['name']}: {weapon['label']}, {weapon['ap']} APts{runs}")
    state["attacks_this_round"] += 1
    target["attacked"] = True
    band = band_of(tables, args["range"])
    data = {"attacker": args["person"], "target": args["target"], "weapon": args["weapon"], "band": band,
            "metres": args["range"], "aim": args["aim"], "damage": state["options"]["damage"],
            "grazing": state["options"]["grazing"], "organs": state["options"]["organs"]}
    if args["with_target"]:
        data["with_target"] = list(args["with_target"])
    if weapon["kind"] == "grenade":
        brawl = attacker["brawl"]
        ctx.request_roll(f"Grenade: {attacker['name']} throws a {weapon['label']} at {target['name']} "
                         f"({args['range']} m), under Brawl {brawl}", "1:100sd",
                         target=Target(brawl - 1, at_most=True), then="grenade", context=data)
        return
    procedure = state["options"]["to_hit"]
    value, how = percent_to_hit(procedure, tables, attacker, weapon, band, args["adversity"])
    if value <= 0:
        ctx.note(f"{attacker['name']} misses {target['name']}: {how} = {value}, the range and adversity are "
                 f"too much")
        return
    data["value"] = value
    if procedure == 3:  # (3) c. "the result is a positive number, the player has hit!": the roll only places it
        # step a.'s PERCENT TO HIT ("MARKSmanship vs. Range as in procedure NUMBER TWO"), which grazing reads
        data["percent"] = percent_to_hit(2, tables, attacker, weapon, band, [])[0]
        odds = None  # nothing to fail: the roll help gives the chance of a direct hit
        how += f" = {value}: a hit, more than {DIRECT_HIT_UNDER} under it direct"
    else:
        odds = Target(value - 1, at_most=True)
    ctx.request_roll(f"Percent to hit: {attacker['name']} {weapon['label']} at {target['name']} "
                     f"({args['range']} m; {how})", "1:100sd", target=odds, then="to_hit", context=data)


@continuation("to_hit")
def on_to_hit(state: dict, result: RollResult, tables: Tables, ctx) -> None:
    asked = result.request.context  # read only; a hit copies it to carry on (most shots at crew miss)
    target = state["people"][asked["target"]]
    if target["dead"]:  # killed by an earlier shot of the same moment
        ctx.note(f"{target['name']} is already dead")
        if asked.get("reply"):
            ctx.done({"tag": asked.get("tag", ""), "person": asked["target"], "part": "", "points": 0, "dead": True})
        return
    if "percent" not in asked and not result.success:  # (under procedure 3 the hit was made by the result)
        ctx.note(f"Miss: {result.total} is not under {asked['value']}")
        if asked.get("reply"):
            ctx.done({"tag": asked.get("tag", ""), "person": asked["target"], "part": "", "points": 0,
                      "dead": target["dead"]})
        return
    data = dict(asked)
    data["roll"] = result.total
    data["under"] = data["value"] - result.total
    if data["under"] < 0:  # procedure 3: a positive result hits whatever the roll
        ctx.note(f"Hit (the result {data['value']} is positive; {result.total} is over it): a random hit on "
                 f"{target['name']}")
        ask_location(ctx, target, data)
    elif data["under"] > DIRECT_HIT_UNDER and data["aim"]:
        ctx.note(f"Direct hit ({data['under']} under): the {data['aim'].replace('_', ' ')}, as aimed")
        start_damage(state, tables, ctx, data, data["aim"])
    else:
        band = f", {DIRECT_HIT_UNDER} or less" if data["aim"] else ", nothing aimed"
        ctx.note(f"Hit ({data['under']} under{band}): a random hit on {target['name']}")
        ask_location(ctx, target, data)


def ask_location(ctx, target: dict, data: dict) -> None:
    ctx.request_roll(f"Random hit location on {target['name']} (Table 3-3.4)", "1:100sd", then="location",
                     context=data)


def hit_part(tables: Tables, person: dict, roll: int) -> str:
    """The random hit table #3-3.4 of the person's race: the first part whose band holds the roll."""
    return next(p["id"] for p in tables.races[person["race"]]["parts"] if roll <= p["hit"])


@continuation("location")
def on_location(state: dict, result: RollResult, tables: Tables, ctx) -> None:
    data = result.request.context  # read only: ``start_damage`` carries on with a copy of its own
    target = state["people"][data["target"]]
    part = hit_part(tables, target, result.total)
    ctx.note(f"{target['name']} is hit in the {part.replace('_', ' ')}")
    start_damage(state, tables, ctx, data, part)


# --- grenades --------------------------------------------------------------------------------------------

@continuation("grenade")
def on_grenade(state: dict, result: RollResult, tables: Tables, ctx) -> None:
    data = dict(result.request.context)
    brawl = result.request.target.number + 1
    over = result.total - brawl
    if over < 0:
        ctx.note(f"No bounce ({result.total} under Brawl {brawl}): the grenade lands where it was aimed")
        _landed(state, tables, ctx, data, 0, aimed=True)
    elif over <= GRENADE_BOUNCE_OVER:
        ctx.note(f"{over} over Brawl {brawl}: the grenade bounces (Table 3-4.1)")
        ctx.request_roll("Grenade bounce (Table 3-4.1)", "1:10sd", then="bounce", context=data)
    else:
        ctx.note(f"{over} over Brawl {brawl}: the grenade misses")
        ctx.request_roll("Grenade miss: metres from the target hexagon", GRENADE_MISS_DICE, then="grenade_miss",
                         context=data)


@continuation("bounce")
def on_bounce(state: dict, result: RollResult, tables: Tables, ctx) -> None:
    row = tables.bounce[result.total]
    data = dict(result.request.context)
    data["landed_m"] = row["bounces"] * row["metres"]
    ctx.note(f"{row['bounces']} bounce{'s' if row['bounces'] != 1 else ''} of {row['metres']} m: "
             f"{data['landed_m']} m from the target")
    ctx.request_roll("Grenade bounce: towards which hex side (1 ahead, clockwise)", "1D", then="bounce_side",
                     context=data)


@continuation("bounce_side")
def on_bounce_side(state: dict, result: RollResult, tables: Tables, ctx) -> None:
    data = dict(result.request.context)
    ctx.note(f"It rolls on {HEX_SIDES[result.total - 1]} of the target")
    _landed(state, tables, ctx, data, data.pop("landed_m"))


@continuation("grenade_miss")
def on_grenade_miss(state: dict, result: RollResult, tables: Tables, ctx) -> None:
    _landed(state, tables, ctx, dict(result.request.context), result.total)


def _landed(state: dict, tables: Tables, ctx, data: dict, metres: int, aimed: bool = False) -> None:
    """The grenade goes off ``metres`` from its target. ``aimed``: no bounce, so it "hits exactly where it was
    aimed" ((4) a.): the target takes it in the part aimed at, as a direct hit does; the others caught in the
    blast, and everyone after a bounce, on the random hit table."""
    weapon = tables.weapons[data["weapon"]]
    target = state["people"][data["target"]]
    if metres > weapon["blast_m"]:
        ctx.note(f"The {weapon['label']} goes off {metres} m from {target['name']}, outside its "
                 f"{weapon['blast_m']} m blast")
        return
    data["grazing"] = False  # the band stays the throw's: "the range that the marksman is attacking from" (3)
    ctx.note(f"The {weapon['label']} goes off {metres} m from {target['name']}, inside its {weapon['blast_m']} m blast")
    for pid in [data["target"], *data.pop("with_target", [])]:
        if not state["people"][pid]["dead"]:
            # caught in the blast: attacked, so "alertness condition will always jump to a higher level in the next
            # turn" (percentile-personal-combat.txt, Surprise, Surprise!)
            state["people"][pid]["attacked"] = True
            if aimed and pid == data["target"] and data["aim"]:
                ctx.note(f"{state['people'][pid]['name']} is hit in the {data['aim'].replace('_', ' ')}, as aimed")
                start_damage(state, tables, ctx, data, data["aim"])
            else:
                ask_location(ctx, state["people"][pid], {**data, "target": pid})


# --- damage ----------------------------------------------------------------------------------------------

def table_damage(tables: Tables, wep_mod: int, band: str) -> int:
    """Table 3-3: the points of a WEP MOD at a range band (from the tables alone: read once per loaded
    tables for each pair; every crew hit of a ship fight asks)."""
    key = ("table 3-3", wep_mod, band)
    found = tables.memo.get(key)
    if found is None:
        found = tables.memo[key] = row_at(tables.damage, wep_mod)[tables.band_index(band)]
    return found


def start_damage(state: dict, tables: Tables, ctx, data: dict, part: str) -> None:
    """The damage step for a hit on ``part``, by the procedure the attack carries."""
    weapon = tables.weapons[data["weapon"]]
    attacker = state["people"].get(data.get("attacker", ""), {})
    data = {**data, "part": part}
    bonus = strength_bonus(attacker, weapon)
    if data["damage"] == 3:
        points = table_damage(tables, weapon["wep_mod"], data["band"]) + bonus
        ctx.note(f"Damage (Table 3-3): WEP MOD {weapon['wep_mod']} at {data['band'].replace('_', ' ')} range = "
                 f"{points - bonus}" + (f" +{bonus} Physical Strength" if bonus else ""))
        finish_damage(state, tables, ctx, data, points)
    elif data["damage"] == 2:
        if data.get("metres", 0) >= DIE_ROLL_BEST_UNDER_M:
            ctx.note(f"Note: the damage die roll loses accuracy at {DIE_ROLL_BEST_UNDER_M} m and more")
        mods = [Modifier("Physical Strength", bonus)] if bonus else []
        ctx.request_roll(f"Damage: {weapon['label']} {weapon['damage']}", die_notation(weapon["damage"]), mods,
                         then="damage_roll", context=data)
    else:
        ask_wound(ctx, tables, data, weapon["damage_type"])


def ask_wound(ctx, tables: Tables, data: dict, types: list[str]) -> None:
    """Damage procedure 1 for the first of ``types``: "Determine what type of damage is being done", then roll on
    its table. A weapon of several types does each "simultaneously" (Hand to Hand): a roll on each type's table,
    one after another (``types_after``), each its own wound."""
    use = tables.wounds["uses"][types[0]]
    ctx.request_roll(f"Damage: Table {tables.wounds['tables'][use]['table']} ({use})", "1:10sd", then="wound",
                     context={**data, "damage_type": types[0], "types_after": list(types[1:])})


@continuation("damage_roll")
def on_damage_roll(state: dict, result: RollResult, tables: Tables, ctx) -> None:
    finish_damage(state, tables, ctx, dict(result.request.context), max(0, result.total))


@continuation("wound")
def on_wound(state: dict, result: RollResult, tables: Tables, ctx) -> None:
    data = dict(result.request.context)
    kind = data.pop("damage_type", None) or tables.weapons[data["weapon"]]["damage_type"][0]  # (a roll saved
    after = data.pop("types_after", [])  # before weapons had several types: the weapon's one)
    table = tables.wounds["tables"][tables.wounds["uses"][kind]]
    row = table["rows"][str(result.total)]
    person = state["people"][data["target"]]
    part_points = person["body"][data["part"]]["points"]
    points = share_points(row["percent"], part_points)
    ctx.note(f"{row['title'].capitalize()}: {row['percent']}% of {part_points} = {points} points; "
             f"severity roll on {row['severity']}")
    # the table's percentage describes the wound, not the points it rounds to (percentile-personal-combat.txt,
    # Procedures (1): "the DAMAGE PERCENTAGE ... for use with ... TABLES 3-8 through 3-14")
    wounds_before = len(person["wounds"])
    finish_damage(state, tables, ctx, data, points, percent=row["percent"], types=[kind], last=not after)
    if len(person["wounds"]) == wounds_before:  # grazed to no point: no wound, so no consequences to roll for
        ctx.note(f"No wound on {person['name']}: no severity roll")
    else:
        ctx.request_roll(f"Severity ({row['severity']}) for {person['name']}", "1:10sd", then="severity",
                         context={"target": data["target"], "severity": row["severity"],
                                  "wound": len(person["wounds"]) - 1})
    if after:  # the weapon's next damage type, after this one's severity
        ask_wound(ctx, tables, data, after)


@continuation("severity")
def on_severity(state: dict, result: RollResult, tables: Tables, ctx) -> None:
    c = result.request.context
    text = tables.wounds["severity"][c["severity"]][str(result.total)]
    person = state["people"][c["target"]]
    ctx.note(f"{person['name']}: {text}")
    wounds = person["wounds"]
    at = c.get("wound", len(wounds) - 1)  # the wound the roll is for (a roll saved before it was named: the last)
    if isinstance(at, int) and 0 <= at < len(wounds):
        wounds[at]["severity"] = text


def grazed(points: int, under: int, value: int) -> int:
    """GRAZING SHOTS: points x (% UNDER / percent to hit), rounded half up; nothing when the roll was over it."""
    if value <= 0:
        return points
    return half_up(points * under, value) if under > 0 else 0


def graze_words(full: int, under: int, base: int, roll: int | None, points: int) -> str:
    """The grazing note: the rule's sum ("Grazing shot: 25 x 29/44 = 16 points"), or, when the roll was not under the
    percent to hit (a procedure 3 hit), that nothing lands, with the numbers that say why (the sum read "13 x
    -55/40 = 0 points")."""
    if base <= 0 or under > 0:
        return f"Grazing shot: {full} x {under}/{base} = {points} points"
    of = f"0 of {full} point{'' if full == 1 else 's'}"
    if roll is None:  # a hit carried over from an older save knows only its % UNDER
        return f"Grazing shot: {of}: % UNDER {under} is at or below 0"
    return (f"Grazing shot: {of}: the roll {roll} is not under the percent to hit {base} "
            f"(% UNDER {base} - {roll} = {under}, at or below 0)")


def finish_damage(state: dict, tables: Tables, ctx, data: dict, points: int, percent: int | None = None,
                  types: list[str] | None = None, last: bool = True) -> None:
    """The points land (``percent``: procedure 1's table percentage, which describes the wound; ``types``: the
    damage types the wound is of, by default all the weapon's; ``last``: no more wounds of this hit to come)."""
    if data.get("grazing") and "under" in data:
        full = points
        # "% UNDER = {MARKS or % TO HIT} - l:100sdROLL", divided by the same: procedure 3's percent to hit is
        # its step a.'s, before the Percent Against (a hit carried over from an older save knows only ``under``)
        base = data.get("percent", data["value"])
        under = base - data["roll"] if "roll" in data else data["under"]
        points = grazed(full, under, base)
        ctx.note(graze_words(full, under, base, data.get("roll"), points))
        # the grazed points are the wound now; a table's percentage (procedure 1) is grazed alike, and still
        # describes it (and reaches the organs) when it comes to less than a point; grazed to nothing, no wound
        percent = grazed(percent, under, base) or None if percent is not None else None
    weapon = tables.weapons[data["weapon"]]
    apply_damage(state, tables, data["target"], data["part"], points, types or weapon["damage_type"], ctx,
                 organs=bool(data.get("organs")), percent=percent)
    if not last:
        return
    if data.get("reply"):
        person = state["people"][data["target"]]
        ctx.done({"tag": data.get("tag", ""), "person": data["target"], "part": data["part"], "points": points,
                  "dead": person["dead"]})
    elif state["people"][data["target"]]["dead"]:
        over_when_one_side_stands(state, ctx)


CATALOGUE.add(Action("attack", "Attack", attack, key="a", may=may_attack, params=(
    Param("person", "Attacker", "unit", unit="person"),
    Param("weapon", "Weapon", "choice", options=_weapons, words=_weapon_words),
    Param("target", "Target", "unit", unit="person", enemy_of="person"),
    Param("range", "Range in metres", "int", minimum=0, maximum=3000, said="range {} m"),
    Param("aim", "Aimed at", "choice", options=_parts, words=_part_words),
    Param("with_target", "Standing with the target (caught by the blast too)", "multi", options=_bystanders,
          optional=True, default=(), said="standing with the target"),
    Param("adversity", "Adversity modifiers (Tables 3-7.x)", "multi", options=_adversity, optional=True,
          default=(), words=_adversity_words, said="adversity"),
)))


# --- poisons and drugs -----------------------------------------------------------------------------------

def _systems(state: dict, args: dict, tables: Tables) -> list[Choice]:
    return [Choice(s, _system_words(state, args, tables, s)) for s in tables.organs["systems"]]


def _system_words(state: dict, args: dict, tables: Tables, system: str) -> str:
    return system.replace("_", "-")


@rise_first
def may_poison(state: dict, args: dict, tables) -> str:
    return living_problem(state, args, "target")


def poison(state: dict, args: dict, tables: Tables, ctx) -> None:
    """"poisons and drugs only affect organ systems and usually no tissue damage is done"."""
    from .wounds import poison_damage

    person = state["people"][args["target"]]
    found = poison_damage(tables, person, args["part"], args["wep_mod"], args["systems"])
    ctx.note(f"{person['name']}: a poison or drug of WEP MOD {args['wep_mod']} through the "
             f"{args['part'].replace('_', ' ')} (no tissue damage)")
    for system, modified, text in found:
        ctx.note(f"  organs, {system.replace('_', '-')} {modified}%: {text}")
    person["wounds"].append({"part": args["part"], "points": 0, "percent": 0, "type": "poison",
                             "text": f"poison, WEP MOD {args['wep_mod']}",
                             "organs": [f"{s} {m}%: {t}" for s, m, t in found]})


CATALOGUE.add(Action("poison", "Poison or drug (organ systems only)", poison, key="x", may=may_poison, params=(
    Param("target", "Person", "unit", unit="person"),
    Param("part", "Taken in through", "choice", options=_parts, words=_part_words),
    Param("systems", "Organ systems it affects", "multi", options=_systems, words=_system_words),
    Param("wep_mod", "WEP MOD of the dose", "int", minimum=0, maximum=20),
)))
add_next()
