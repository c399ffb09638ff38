"""The round: surprise, primary attack, the sides' turns in sub-turns, and the round's end.

Source: ``percentile-personal-combat.txt``, COMBAT - STEP BY STEP, Surprise,
Primary Attack, Taking Action, Need to slow it down? and Want to speed it up?

- Surprise (1) each side rolls 1:100sd under its Perception; (2) under the
  average of its Perception and its Alertness Percentage; (3) under the
  average of each member's own average of the two. "The side which rolls the
  most below, or the least above" gets surprise and "the one and only turn
  this round". A new chance comes "if the combatants lose sight of each
  other, or the combat ceases for two rounds or more". Surprise is had over
  a target that "is not alert", so a side whose every member sleeps does not
  roll for it (one side left awake has it without a roll).
  The rise in alertness an attack owes, and sleepers left out of the
  averages, are read in ``alertness``.
- Primary attack (1) each side rolls 1:100sd once, lowest first, kept every
  round; (2) the same "subtract one-half of the damage percentage taken in the
  preceding turn"; (3) one or two at the beginning of each round. A side
  "thirty percent or more" ahead of the next gets the only attack that round;
  the first side may "pass" and go last; equal results are rolled again; a
  side joining later is placed by the same roll.
- A turn is the time a side spends its Agility Points; a round is every side's
  turn. With sub-turns (five by default, any number) a character spends "only
  one fifth of their Agility Points" in each. Borrowing from the next turn is
  at 3:1, "any number of points ... as long as the next turn has enough points
  to cover it"; borrowing all of it leaves a turn with no movement, and no
  borrowing until it is over.
  Half a second of game time for each ten percent spent.

Where the text is silent we decided: a team acting as a whole uses its
members' averages rounded half up; "thirty percent or more above" is the next
side's roll at least 30 more than the first's (lowest goes first); equal
surprise results are rolled again like primary attack; a side that passes goes
last for that round only, and may not pass the only attack of a round; in
sub-turn k a character may have spent up to k/N of the turn's points (rounded
down); the 3:1 rate counts every point a turn borrows, so each third point
borrowed buys one (1 borrowed buys nothing until 2 more are, and a remainder
left at the turn's end is owed all the same); a side joining the fight rolls
once and goes after every side whose roll is lower, before the first whose
roll is higher (rolled again on a tie), and acts this round only if its place
is still to come.
"""

from __future__ import annotations

from fractions import Fraction

from engine.actions import Action, Choice, Param
from engine.rolls import Modifier, RollResult, Target
from engine.ruleset import StepView

from . import alertness
from .alertness import rise_first
from .catalogue import CATALOGUE, continuation
from .people import average, body_points, half_up, members, possessive

STEPS = (("surprise", "Check for surprise"), ("primary", "Primary attack"), ("action", "Players' action"),
         ("to_hit", "Percent to hit"), ("damage", "Damage"))
#: What ``state["step"]`` holds: the round's steps a side acts in (to hit and damage are the action's rolls), and
#: "over" once the fight has ended.
ROUND_STEPS = ("surprise", "primary", "action", "over")
SOLE_MARGIN = 30  # "thirty percent or more above that of the next highest roll"
QUIET_ROUNDS = 2  # "the combat ceases for two rounds or more"
BORROW_RATE = 3  # "the rate is 3:1"
SECONDS_PER_TENTH = 0.5  # "one-half of a second ... for every ten percent of agility points expended"


# --- reading the round ------------------------------------------------------------------------------

def fighting_sides(state: dict) -> list[str]:
    """Sides in the fight with someone still standing, in the setup's order."""
    return [s for s in state["side_order"] if s in state["joined"] and members(state, s)]


def acting_side(state: dict) -> str:
    if state["step"] != "action" or not state["round_order"]:
        return ""
    return state["round_order"][state["acting"]]


def ap_cap(state: dict, person: dict) -> int:
    """The turn's own points a person has had by the end of this sub-turn (those of earlier sub-turns included)."""
    if person["no_move"]:
        return 0
    n = state["options"]["subturns"]
    return person["ap_turn"] * state["subturn"] // n


def own_left(state: dict, person: dict) -> int:
    """The turn's own points still to spend in this sub-turn: its share and the earlier ones', less the own points
    spent (all spent but the borrowed ones, ``ap_extra_spent``) and those earlier sub-turns left (``ap_forfeit``)."""
    own_spent = person["ap_spent"] - person["ap_extra_spent"]
    return max(0, ap_cap(state, person) - person["ap_forfeit"] - own_spent)


def turn_left(state: dict, person: dict) -> int:
    """The turn's own points not yet spent or lost, this sub-turn's and the later ones' shares together."""
    own_spent = person["ap_spent"] - person["ap_extra_spent"]
    return max(0, (0 if person["no_move"] else person["ap_turn"]) - person["ap_forfeit"] - own_spent)


def ap_left(state: dict, person: dict) -> int | None:
    """Agility Points left to spend now (None: action procedure 1 counts none): the own points of this sub-turn
    (``own_left``) and the borrowed points not yet spent, which last the whole turn."""
    if state["options"]["action"] == 1:
        return None
    return own_left(state, person) + max(0, person["ap_extra"] - person["ap_extra_spent"])


def forfeit_unspent(state: dict) -> None:
    """A sub-turn ends: its share of each person's own points left unspent is gone ("in these smaller pieces the
    character expends only one fifth of their Agility Points in one fifth of the time", Need to slow it down?);
    borrowed points are "expended in this turn", whichever sub-turn (Want to speed it up?)."""
    for p in state["people"].values():
        p["ap_forfeit"] += own_left(state, p)


def seconds(person: dict) -> float:
    """Game time gone in the turn: half a second per ten percent of the turn's points spent, and of the sub-turns'
    shares left unspent (``ap_forfeit``): "one fifth of their Agility Points in one fifth of the time", so a
    share that passed unspent is time gone by all the same (a walk in sub-turn 2 of 5, after an idle first,
    is 1.3 s in, not 0.3)."""
    turn = person["ap_turn"] + person["ap_extra"]
    gone = person["ap_spent"] + person["ap_forfeit"]
    return 0.0 if not turn else round(gone * 10 / turn * SECONDS_PER_TENTH, 1)


def why_not_acting(state: dict, pid: str) -> str:
    p = state["people"][pid]
    if state["step"] != "action":
        return "people act in the players' action step"
    if p["dead"]:
        return f"{p['name']} is dead"
    if p["side"] != acting_side(state):
        return (f"it is {possessive(state['side_names'][acting_side(state)])} turn, not "
                f"{possessive(state['side_names'][p['side']])}")
    if p["no_move"]:
        return f"{p['name']} borrowed the whole of this turn: no movement at all"
    if p.get("asleep"):  # ours: the text's sleepers are those not on guard, so not those acting either
        return f"{p['name']} is asleep: wake them first (z)"
    return ""


def spend(state: dict, pid: str, cost: int) -> str:
    """The points go from the sub-turn's own share first, then from the borrowed ones (own points unspent are lost
    when the sub-turn ends; borrowed ones wait), then from the later sub-turns' shares: an action begun goes on
    until it is done (``why_cannot_pay``). Answers the log's words for such a run ("" for none)."""
    person = state["people"][pid]
    own = min(cost, own_left(state, person))
    borrowed = min(cost - own, max(0, person["ap_extra"] - person["ap_extra_spent"]))
    person["ap_spent"] += cost
    person["ap_extra_spent"] += borrowed
    later = cost - own - borrowed
    if not later or state["options"]["action"] == 1 or state["options"]["subturns"] == 1:
        return ""  # points not counted, or no later sub-turn to take them from
    n, own_spent = state["options"]["subturns"], person["ap_spent"] - person["ap_extra_spent"]
    ends = next((k for k in range(state["subturn"] + 1, n + 1)
                 if person["ap_turn"] * k // n - person["ap_forfeit"] >= own_spent), n)
    shares = "its share" if ends == state["subturn"] + 1 else f"the shares of sub-turns {state['subturn'] + 1}-{ends}"
    return f"; it runs on into sub-turn {ends}, taking {later} APts of {shares}"


def why_cannot_pay(state: dict, pid: str, cost: int, unit: int | None = None) -> str:
    """An action is paid from what is left now (``ap_left``). With sub-turns, one that costs more may still be
    begun while points of this sub-turn are left: "a player who is flying through the air at the end of their
    turn doesn't freeze, mid-air, the instant their Agility Points run out" (Any move at all?), so it runs on
    into the next sub-turns and takes the rest from their shares ("one fifth of their Agility Points in one
    fifth of the time", Need to slow it down?: a 12-point shot on an 11-point share takes 1 of the next fifth).
    Of a move done ``times`` over (``unit`` a time) only the last may run on. Never past the turn's own points
    left, so the last sub-turn, and a fight without sub-turns, pay from what is left alone."""
    person = state["people"][pid]
    left = ap_left(state, person)
    if left is None or cost <= left:
        return ""
    later = turn_left(state, person) - own_left(state, person)  # the next sub-turns' shares
    begun = cost - (cost if unit is None else unit) < left
    if begun and cost <= left + later:
        return ""
    if begun and later:
        return f"{person['name']} has {left + later} Agility Points left this turn, this costs {cost}"
    runs = " (only the last may run on into the next sub-turn)" if later and unit is not None and unit < cost else ""
    return f"{person['name']} has {left} Agility Points left in sub-turn {state['subturn']}, this costs {cost}{runs}"


# --- surprise ---------------------------------------------------------------------------------------

def surprise_value(state: dict, side: str) -> int:
    """What a side must roll under, by the encounter's surprise procedure."""
    proc = state["options"]["surprise"]
    if proc == 1:
        return average(state, side, "perception")
    guard = alertness.on_guard(state, side)
    if proc == 2:
        perception = half_up(sum(state["people"][p]["perception"] for p in guard), len(guard)) if guard else 0
        return half_up(perception + state["alertness"][side], 2)
    each = [half_up(state["people"][p]["perception"] + state["people"][p]["alertness"], 2) for p in guard]
    return half_up(sum(each), len(each)) if each else 0


def alert_sides(state: dict) -> list[str]:
    """The sides in the fight with someone awake: only they may get surprise. "When an attack is initiated and
    the target is not alert it is said to be Surprised" (Surprise, Surprise!), and a side all asleep is not."""
    return [s for s in fighting_sides(state)
            if any(not state["people"][p].get("asleep") for p in members(state, s))]


@rise_first
def may_surprise(state: dict, args: dict, tables) -> str:
    if state["step"] != "surprise":
        return "surprise is checked at the start of the fight, after two quiet rounds or lost contact"
    if not alert_sides(state):
        return "every side in the fight is asleep: wake someone (z) before surprise"
    return ""


def roll_surprise(state: dict, args: dict, tables, ctx) -> None:
    state["surprise_rolls"] = {}
    awake = alert_sides(state)
    for side in fighting_sides(state):
        if side not in awake:
            ctx.note(f"{state['side_names'][side]} is all asleep, not alert: it cannot get surprise")
    if len(awake) == 1 < len(fighting_sides(state)):  # the others all asleep: the one side awake has it
        _surprise_to(state, awake[0], ctx)
        return
    _ask_surprise(state, awake, ctx)


def _ask_surprise(state: dict, sides: list[str], ctx) -> None:
    for side in sides:
        value = surprise_value(state, side)
        ctx.request_roll(f"Surprise: {state['side_names'][side]} rolls under {value}", "1:100sd",
                         target=Target(value - 1, at_most=True), then="surprise", context={"side": side})


@continuation("surprise")
def on_surprise(state: dict, result: RollResult, tables, ctx) -> None:
    side = result.request.context["side"]
    margin = result.request.target.number + 1 - result.total
    state["surprise_rolls"][side] = margin
    waiting = [p for p in state["pending"] if p.get("then") == "surprise"]
    if waiting or ctx.requests:
        return
    best = max(state["surprise_rolls"].values())
    top = [s for s, m in state["surprise_rolls"].items() if m == best]
    if len(top) > 1:
        ctx.note(f"Equal results for {', '.join(state['side_names'][s] for s in top)}: rolled again")
        # a side both beat is out of it: the second roll is between the tied alone (percentile-personal-combat.txt,
        # Procedures for Surprise (1): "The side which rolls the most below ... gets SURPRISE")
        state["surprise_rolls"] = {}
        _ask_surprise(state, top, ctx)
        return
    state["surprise_rolls"] = {}
    _surprise_to(state, top[0], ctx)


def _surprise_to(state: dict, winner: str, ctx) -> None:
    state["quiet_rounds"], state["contact_lost"] = 0, False
    state["surprise_side"] = winner
    ctx.note(f"{state['side_names'][winner]} gets SURPRISE: the one and only turn this round")
    _start_action(state, [winner], winner)
    state["surprise_round"] = True  # no primary attack this round (the checklist skips it); over at its end


# --- primary attack ---------------------------------------------------------------------------------

def primary_procedure(state: dict) -> int:
    o = state["options"]
    return o["primary_each_round"] if o["primary"] == 3 else o["primary"]


def half_damage_taken(state: dict, side: str) -> int:
    """"one-half of the damage percentage taken in the proceeding turn" (Procedures for Primary Attack (2)): the
    side's members' average of points taken / body points x 100, halved, and rounded half up once, at the end
    (rounding each percentage and then the average before halving took 2 for a 2.52% that halves to 1.26)."""
    ids = members(state, side)
    if not ids:
        return 0
    people = state["people"]
    exact = sum(Fraction(100 * people[p]["taken_last_round"], body_points(people[p])) for p in ids) / (2 * len(ids))
    return half_up(exact.numerator, exact.denominator)


@rise_first
def may_primary(state: dict, args: dict, tables) -> str:
    return "" if state["step"] == "primary" else "primary attack is rolled in the primary attack step"


def roll_primary(state: dict, args: dict, tables, ctx) -> None:
    state["primary_rolls"], state["primary_ties"] = {}, {}
    _ask_primary(state, fighting_sides(state), ctx, "primary")


def _ask_primary(state: dict, sides: list[str], ctx, then: str) -> None:
    for side in sides:
        mods = []
        if primary_procedure(state) == 2:
            half = half_damage_taken(state, side)
            if half:
                mods = [Modifier("half the damage percentage taken last turn", -half)]
        ctx.request_roll(f"Primary attack: {state['side_names'][side]} (lowest goes first)", "1:100sd", mods,
                         then=then, context={"side": side})


def _order_key(state: dict, side: str) -> tuple:
    return (state["primary_rolls"][side], *state["primary_ties"].get(side, []))


@continuation("primary")
def on_primary(state: dict, result: RollResult, tables, ctx) -> None:
    side = result.request.context["side"]
    if side in state["primary_rolls"]:  # a tie rolled again
        state["primary_ties"].setdefault(side, []).append(result.total)
    else:
        state["primary_rolls"][side] = result.total
    if [p for p in state["pending"] if p.get("then") == "primary"] or ctx.requests:
        return
    keys: dict[tuple, list[str]] = {}
    for s in state["primary_rolls"]:
        keys.setdefault(_order_key(state, s), []).append(s)
    tied = [group for group in keys.values() if len(group) > 1]
    if tied:
        for group in tied:
            ctx.note(f"Equal results for {', '.join(state['side_names'][s] for s in group)}: rolled again")
            _ask_primary(state, group, ctx, "primary")
        return
    order = sorted(state["primary_rolls"], key=lambda s: _order_key(state, s))
    state["order"] = order
    state["primary_done"] = True
    ctx.note("Order: " + ", ".join(f"{state['side_names'][s]} {state['primary_rolls'][s]}" for s in order))
    sole = ""
    if len(order) > 1 and state["primary_rolls"][order[1]] - state["primary_rolls"][order[0]] >= SOLE_MARGIN:
        sole = order[0]
        ctx.note(f"{state['side_names'][sole]} is {SOLE_MARGIN} or more ahead: the one and only attack this round")
    _start_action(state, [sole] if sole else list(order), sole)


ORDER_ROLLS = ("primary", "joined", "rolloff")  # the rolls that set a side's place in the order


def order_corrected(state: dict) -> str:
    """The order corrected by hand (a swap, ``corrections.reorder``) takes the primary attack rolls with it: "the
    side with the lowest roll ... attacks first, the side with the second lowest roll will attack second"
    (Procedures for Primary Attack (1)), so the lowest roll goes to the side now first, and so on; each roll keeps
    its tie rolls, and sides of equal rolls keep theirs. A side joining later is placed, and rolls off, against
    these. Left alone while such rolls are still being made (the order is then the last round's). Answers the
    log's words ("" when no roll moved)."""
    if any(p.get("then") in ORDER_ROLLS for p in state["pending"]):
        return ""
    rolls, ties = state["primary_rolls"], state["primary_ties"]
    placed = [s for s in state["order"] if s in rolls]
    held = sorted(((rolls[s], ties.get(s)) for s in placed), key=lambda held: held[0])
    moved = []
    for side, (roll, tie) in zip(placed, held):
        if rolls[side] != roll:
            moved.append(f"{state['side_names'][side]} {roll}")
        rolls[side] = roll
        if tie is None:
            ties.pop(side, None)
        else:
            ties[side] = tie
    return f"the primary attack rolls follow the order, lowest first: {', '.join(moved)}" if moved else ""


@rise_first
def may_pass(state: dict, args: dict, tables) -> str:
    if state["step"] != "action":
        return "primary attack is passed at the start of the players' action"
    if state["sole"]:
        return f"{state['side_names'][state['sole']]} has the only attack this round: nothing to pass to"
    if len(state["round_order"]) < 2:
        return "only one side is acting this round"
    if state["passed"]:
        return "primary attack was already passed this round"
    first = state["round_order"][0]
    if state["subturn"] != 1 or state["acting"] != 0 or state["attacks_this_round"] or any(
            state["people"][p]["ap_spent"] for p in members(state, first)):
        return f"{state['side_names'][first]} may pass only before it acts this round"
    return ""


def pass_primary(state: dict, args: dict, tables, ctx) -> None:
    first = state["round_order"].pop(0)
    state["round_order"].append(first)
    state["passed"] = True
    ctx.note(f"{state['side_names'][first]} passes: it acts last this round "
             f"({', '.join(state['side_names'][s] for s in state['round_order'])})")


def _waiting_sides(state: dict, args: dict, tables) -> list[Choice]:
    return [Choice(s, _side_words(state, args, tables, s)) for s in state["side_order"] if s not in state["joined"]]


def _side_words(state: dict, args: dict, tables, side: str) -> str:
    return state["side_names"][side]


@rise_first
def may_join(state: dict, args: dict, tables) -> str:
    if all(s in state["joined"] for s in state["side_order"]):
        return "every side is already in the fight"
    if state["step"] == "action" and state["surprise_round"] and not state["primary_done"]:
        # "the one and only turn this round" (Surprise, Surprise!): no order is rolled for it to be placed in
        return (f"a side joins once the order of the fight is set: this is a surprise round "
                f"({state['side_names'][state['surprise_side']]} alone acts), so from the primary attack of the "
                f"next round")
    if state["step"] != "action" or not state["primary_done"]:
        return "a side joins once the order of the fight is set (players' action step)"
    if "side" in args and args["side"] in state["joined"]:
        return f"{state['side_names'][args['side']]} is already in the fight"
    return ""


def join(state: dict, args: dict, tables, ctx) -> None:
    state["joined"].append(args["side"])
    _ask_primary(state, [args["side"]], ctx, "joined")


@continuation("joined")
def on_joined(state: dict, result: RollResult, tables, ctx) -> None:
    """The late side's roll sets its place among the sides' first rolls. "If at any time the results are equal
    ... a 1:100sd roll for each side should be repeated" (Primary Attack): it and the sides still standing that
    it equals roll again (``on_rolloff``), and those rolls settle its place among them alone."""
    side = result.request.context["side"]
    state["primary_rolls"][side] = result.total
    standing = fighting_sides(state)
    tied = [s for s in state["order"] if state["primary_rolls"].get(s) == result.total and s in standing]
    if tied:
        state["rolloff"] = {s: [] for s in (side, *tied)}
        _ask_rolloff(state, side, tied, result.total, ctx)
        return
    _place_joiner(state, side, sum(1 for s in state["order"] if state["primary_rolls"][s] < result.total), ctx)


def _ask_rolloff(state: dict, side: str, tied: list[str], rolled: int, ctx) -> None:
    names = state["side_names"]
    ctx.note(f"{names[side]} rolled {rolled}, equal to {', '.join(names[s] for s in tied)}: each rolls again")
    _ask_primary(state, [side, *tied], ctx, "rolloff")


@continuation("rolloff")
def on_rolloff(state: dict, result: RollResult, tables, ctx) -> None:
    """A roll-off for a late side's place: each side's roll-off rolls, in turn, are its result (a side not tied
    again keeps the ones it has). The sides in the fight keep their order, this round's and the next ones'; the
    late side goes after every side of the roll-off that beat it and before the others ("that side will have
    to wait until it is their turn"). With two sides whose earlier order the roll-off contradicts, no place can
    agree with both: it never goes ahead of one that beat it."""
    rolls = state["rolloff"]
    rolls[result.request.context["side"]].append(result.total)
    if [p for p in state["pending"] if p.get("then") == "rolloff"] or ctx.requests:
        return
    side = next(s for s in rolls if s not in state["order"])
    mine = rolls[side]
    tied = [s for s in state["order"] if s in rolls]
    again = [s for s in tied if rolls[s] == mine]
    if again:
        _ask_rolloff(state, side, again, mine[-1], ctx)
        return
    del state["rolloff"]
    ctx.note("Roll-off: " + ", ".join(f"{state['side_names'][s]} {' then '.join(map(str, rolls[s]))}"
                                      for s in (side, *tied)))
    order = state["order"]
    beat = [s for s in tied if rolls[s] < mine]
    place = order.index(beat[-1]) + 1 if beat else order.index(tied[0])
    passed = [s for s in order[:place] if s in tied and s not in beat]  # sides it beat, yet ahead of it
    if passed:
        names = state["side_names"]
        ctx.note(f"{names[side]} beat {', '.join(names[s] for s in passed)} in the roll-off but goes after "
                 f"{'it' if len(passed) == 1 else 'them'}: the sides in the fight keep their order, and "
                 f"{names[side]} goes after {names[beat[-1]]}, which beat it")
    _place_joiner(state, side, place, ctx)


def _place_joiner(state: dict, side: str, place: int, ctx) -> None:
    state["order"].insert(place, side)
    ctx.note(f"{state['side_names'][side]} joins the fight at place {place + 1} "
             f"({', '.join(state['side_names'][s] for s in state['order'])})")
    if not state["sole"]:
        # "that side will have to wait until it is their turn" (Primary Attack): its place has passed once a
        # side it comes before has acted or is acting; otherwise it acts before the first such side to come
        # with sub-turns the order comes round again in each, so a place passed is taken from the next sub-turn
        rounds, acting = state["round_order"], state["acting"]
        after = set(state["order"][place + 1:])
        if not any(s in after for s in rounds[:acting + 1]):
            at = next((i for i in range(acting + 1, len(rounds)) if rounds[i] in after), len(rounds))
            rounds.insert(at, side)
            ctx.note(f"{state['side_names'][side]} acts this round, after {state['side_names'][rounds[at - 1]]}")
        elif state["subturn"] < state["options"]["subturns"]:
            at = next(i for i in range(len(rounds)) if rounds[i] in after)  # at or before the side acting
            rounds.insert(at, side)
            state["acting"] += 1  # the side acting now goes on; the new one's place comes round next sub-turn
            ctx.note(f"{possessive(state['side_names'][side])} place has passed in this sub-turn: it acts from the next")
        else:
            ctx.note(f"{possessive(state['side_names'][side])} place has passed: it acts from next round")


# --- the turns ---------------------------------------------------------------------------------------

def _start_action(state: dict, round_order: list[str], sole: str) -> None:
    state["step"] = "action"
    state["round_order"] = round_order
    state["sole"] = sole
    state["subturn"], state["acting"], state["passed"] = 1, 0, False


@rise_first
def may_next(state: dict, args: dict, tables) -> str:
    if state["step"] == "over":
        return "the fight is over"
    if state["step"] == "surprise":
        return "step 1 still needs: roll for surprise (s)"
    if state["step"] == "primary":
        return "step 2 still needs: roll primary attack (p)"
    return ""


def next_turn(state: dict, args: dict, tables, ctx) -> None:
    """The acting side's turn ends: the next side, the next sub-turn, or the next round."""
    state["acting"] += 1
    while state["acting"] < len(state["round_order"]) and not members(state, acting_side(state)):
        state["acting"] += 1  # a side with nobody standing has no turn
    if state["acting"] < len(state["round_order"]):
        return
    state["acting"] = 0
    if state["subturn"] < state["options"]["subturns"]:
        forfeit_unspent(state)
        state["subturn"] += 1
        return
    end_round(state, ctx)


def over_when_one_side_stands(state: dict, ctx) -> bool:
    """The fight ends as soon as one side (or none) has anyone standing."""
    standing = fighting_sides(state)
    if len(standing) > 1:
        return False
    state["step"] = "over"
    state["round_order"] = []
    who = state["side_names"][standing[0]] if standing else "nobody"
    ctx.note(f"The fight is over: {who} is left standing")
    return True


def end_round(state: dict, ctx) -> None:
    attacked = [pid for pid, p in state["people"].items() if p["attacked"] and not p["dead"]]
    for p in state["people"].values():
        p["attacked"] = False
        p["taken_last_round"], p["taken_this_round"] = p["taken_this_round"], 0
        p["no_move"] = p["owed"] >= p["agility"] > 0
        p["ap_turn"] = max(0, p["agility"] - p["owed"])
        p["owed"] = p["ap_spent"] = p["ap_extra"] = p["ap_extra_spent"] = p["ap_forfeit"] = 0
        if p["no_move"]:
            ctx.note(f"{p['name']} borrowed the whole turn: no movement this round")
    state["quiet_rounds"] = state["quiet_rounds"] + 1 if not state["attacks_this_round"] else 0
    state["attacks_this_round"] = 0
    state["round"] += 1
    state["sole"], state["surprise_round"] = "", False
    standing = fighting_sides(state)
    if over_when_one_side_stands(state, ctx):
        return
    alertness.owe_rises(state, attacked, ctx)
    if state["options"]["surprise"] and (state["quiet_rounds"] >= QUIET_ROUNDS or state["contact_lost"]):
        state["step"] = "surprise"
        why = "contact was lost" if state["contact_lost"] else f"{state['quiet_rounds']} rounds without an attack"
        ctx.note(f"A new chance for surprise: {why}")
        return
    if state["options"]["primary"] == 3 or not state["primary_done"]:
        state["step"] = "primary"
        return
    _start_action(state, [s for s in state["order"] if s in standing], "")


@rise_first
def may_lost_contact(state: dict, args: dict, tables) -> str:
    if state["step"] != "action":
        return "contact is lost during the players' action"
    if not state["options"]["surprise"]:
        return "this encounter checks no surprise (options.surprise = 0)"
    return "contact is already lost: surprise is checked next round" if state["contact_lost"] else ""


def lost_contact(state: dict, args: dict, tables, ctx) -> None:
    state["contact_lost"] = True
    ctx.note("The sides lose sight of each other: a new chance for surprise next round")


@rise_first
def may_borrow(state: dict, args: dict, tables) -> str:
    if not state["options"]["borrowing"]:
        return "this encounter does not borrow Agility Points (options.borrowing = false)"
    if state["options"]["action"] == 1:
        return "action procedure 1 counts no Agility Points"
    if "person" in args:
        why = why_not_acting(state, args["person"])
        if why:
            return why
        p = state["people"][args["person"]]
        room = p["agility"] - p["owed"]
        if room <= 0:
            return f"{p['name']} has no more of the next turn to borrow"
        if "points" in args:
            # percentile-personal-combat.txt, Want to speed it up?: "Any number of points can be 'borrowed' as long
            # as the next turn has enough points to cover it": any number from 1 to what the next turn has left
            n = args["points"]
            if n > room:
                return f"{p['name']}'s next turn has only {room} points left to borrow"
    return ""


def bought(owed: int) -> int:
    """The points this turn gains for ``owed`` points borrowed from the next: "the rate is 3:1, that is if three
    points are borrowed from the next turn, then one additional point can be expended in this turn" (Want to
    speed it up?). Counted over all the turn's borrowing, so 2 borrowed and then 1 more buy a point."""
    return owed // BORROW_RATE


def borrow(state: dict, args: dict, tables, ctx) -> None:
    p = state["people"][args["person"]]
    before = p["owed"]
    p["owed"] += args["points"]
    gain = bought(p["owed"]) - bought(before)
    p["ap_extra"] += gain
    all_of_it = p["owed"] >= p["agility"]
    toward = p["owed"] % BORROW_RATE
    if not toward:
        # a whole number of points bought: the next one takes a whole 3 more (a drive found nothing said here)
        rest = "" if all_of_it else f" ({BORROW_RATE} more buy the next point)"
    elif all_of_it:
        rest = f" (the {toward} over a multiple of {BORROW_RATE} buy{'s' if toward == 1 else ''} nothing)"
    else:
        rest = (f" ({toward} more borrowed toward the next point: {BORROW_RATE - toward} more buy"
                f"{'s' if BORROW_RATE - toward == 1 else ''} it)")
    ctx.note(f"{p['name']} borrows {args['points']} point{'' if args['points'] == 1 else 's'} of next turn for "
             f"{gain} now{rest}"
             + (": the whole next turn, so no movement in it" if all_of_it else ""))


def _moves(state: dict, args: dict, tables) -> list[Choice]:
    return [Choice(k, f"{_move_words(state, args, tables, k)} ({v['cost']} APts)") for k, v in tables.actions.items()]


def _move_words(state: dict, args: dict, tables, what: str) -> str:
    return tables.actions[what]["label"]


@rise_first
def may_move(state: dict, args: dict, tables) -> str:
    if state["step"] != "action":
        return "people act in the players' action step"
    if "person" in args:
        why = why_not_acting(state, args["person"])
        if why:
            return why
        if "what" in args:
            times = args.get("times", 1)
            unit = tables.actions[args["what"]]["cost"]
            return why_cannot_pay(state, args["person"], unit * times, unit)
    return ""


def move(state: dict, args: dict, tables, ctx) -> None:
    entry = tables.actions[args["what"]]
    cost = entry["cost"] * args["times"]
    runs = spend(state, args["person"], cost)
    p = state["people"][args["person"]]
    times = f" x{args['times']}" if args["times"] != 1 else ""
    ctx.note(f"{p['name']}: {entry['label']}{times}, {cost} APts ({seconds(p)} s into the turn){runs}")


def may_alertness(state: dict, args: dict, tables) -> str:
    if state["step"] == "over":
        return "the fight is over"
    return alertness.why_set_is_owed(state, args.get("person", args.get("side", "")))


def set_alertness(state: dict, args: dict, tables, ctx) -> None:
    p = state["people"][args["person"]]
    was = p["alertness"]
    p["alertness"] = args["value"]
    ctx.note(f"{p['name']}'s Alertness Percentage {was} -> {args['value']}")


def set_side_alertness(state: dict, args: dict, tables, ctx) -> None:
    was = state["alertness"][args["side"]]
    state["alertness"][args["side"]] = args["value"]
    ctx.note(f"{possessive(state['side_names'][args['side']])} Alertness Percentage {was} -> {args['value']}")


PERSON_PARAM = Param("person", "Person", "unit", unit="person")

for _action in (
    Action("surprise", "Roll for surprise", roll_surprise, key="s", may=may_surprise),
    Action("primary", "Roll primary attack", roll_primary, key="p", may=may_primary),
    Action("pass_primary", "Pass primary attack (act last)", pass_primary, key="l", may=may_pass),
    Action("move", "Spend Agility Points (Table 3-6)", move, key="m", may=may_move, params=(
        PERSON_PARAM, Param("what", "Action", "choice", options=_moves, words=_move_words),
        Param("times", "How many times", "int", minimum=1, maximum=100, optional=True, default=1))),
    Action("borrow", "Borrow points from the next turn (3:1)", borrow, key="b", may=may_borrow, params=(
        PERSON_PARAM, Param("points", "Points of next turn (each 3 buy 1 now)", "int", minimum=1,
                            maximum=3000, said="{} points of next turn"))),
    Action("join", "A side joins the fight", join, key="j", may=may_join, params=(
        Param("side", "Side", "choice", options=_waiting_sides, words=_side_words),)),
    Action("lost_contact", "The sides lose sight of each other", lost_contact, key="o", may=may_lost_contact),
    Action("alertness", "Set a person's Alertness Percentage", set_alertness, key="r", may=may_alertness, params=(
        PERSON_PARAM, Param("value", "Alertness Percentage", "int", minimum=0, maximum=100,
                            said="alertness {}%"))),
    Action("side_alertness", "Set a side's Alertness Percentage", set_side_alertness, key="w", may=may_alertness,
           params=(Param("side", "Side", "side", words=_side_words), Param("value", "Alertness Percentage", "int", minimum=0,
                                                                 maximum=100, said="alertness {}%"))),
):
    CATALOGUE.add(_action)
alertness.add_actions()


def add_next() -> None:
    """``next`` is listed last in the console, after the attack (``combat`` adds it)."""
    CATALOGUE.add(Action("next", "End this side's turn", next_turn, key="n", may=may_next))


# --- the checklist --------------------------------------------------------------------------------------

def checklist(state: dict) -> list[StepView]:
    pending = state.get("pending") or []
    then = pending[0].get("then", "") if pending else ""
    current = {"to_hit": "to_hit", "grenade": "to_hit", "location": "to_hit", "damage_roll": "damage",
               "wound": "damage", "severity": "damage", "bounce": "to_hit", "bounce_side": "to_hit",
               "grenade_miss": "to_hit"}.get(then.rpartition(":")[2], state["step"])
    order = [s for s, _ in STEPS]
    out = []
    for i, (sid, label) in enumerate(STEPS, 1):
        if state["step"] == "over":
            out.append(StepView(i, label, "done", "the fight is over" if i == 1 else ""))
            continue
        if sid == "surprise" and not state["options"]["surprise"]:
            out.append(StepView(i, label, "skipped"))
            continue
        if sid == "primary" and state["surprise_round"]:
            # "the side with the advantage of surprise receives the one and only turn this round" (Surprise,
            # Surprise!): no primary attack is rolled this round, so it is not done, nor still to do
            out.append(StepView(i, f"{label}: none in a surprise round", "skipped"))
            continue
        status = "current" if sid == current else ("done" if order.index(sid) < order.index(current) else "todo")
        needs = ""
        if status == "current" and alertness.owed(state):
            needs = f"alertness jumps after the attack first (k): {alertness.owed_words(state)}"
        elif status == "current" and sid == "surprise":
            needs = "roll for surprise (s)"
        elif status == "current" and sid == "primary":
            needs = "roll primary attack (p)"
        if sid == "action" and state["step"] == "action":
            label = f"{label}: sub-turn {state['subturn']}/{state['options']['subturns']}, " \
                    f"{state['side_names'][acting_side(state)]}"
        out.append(StepView(i, label, status, needs))
    return out
