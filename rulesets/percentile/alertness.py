"""Alertness after an attack, and people asleep: who counts in a side's Alertness Condition.

Source: ``percentile-personal-combat.txt``, "Surprise, Surprise!": "When
attacked a players' alertness condition will always jump to a higher level in
the next turn ... The amount of this increase is up to the Game Master ...
Depending on the players' reaction to the attack the level of alertness may
return to the original level, remain high, or show no reaction at all"; and
"when some of the group are sleeping this does not degrade the alertness of
the character or characters on guard".

Our reading of the rise, by surprise procedure:

- (2) gives a side one Alertness Percentage: a side with someone attacked in a
  round (and still alive) owes a higher one at the start of the next round.
- (3) gives each person one: each person attacked (and alive) owes a rise.
- (1) reads Perception only, and with no surprise check (0) nothing reads
  alertness, so nothing is owed; the round's end still names the attacked.
- The rise is owed before anything else is played (rolls, moves, attacks,
  ``next``); the game master gives it with ``k``, by an amount of their own
  (1 or more, up to 100). Only that first setting must be higher: later ``r``
  / ``w`` may bring it back down ("return to the original level"). At 100
  there is no higher level, so nothing is owed. The rise is typed as an
  amount (15 takes 60 to 75), so every number from 1 to the room left is one.
- Only attacks made with the ``attack`` action count: crew hits a ship
  ruleset calls (``crew.crew_attack``) happen outside any percentile round
  and owe nothing, so classic-hg fights read as before.

Asleep: a person may be asleep (``asleep = true`` in the setup, ``z`` to put
to sleep or wake). Sleepers are left out of the averages the Alertness
Condition procedures take (2: the side's average Perception; 3: the average of
the individual conditions). Procedure 1 is "a simple attribute check" of
Perception, not the Alertness Condition, so sleepers count there. A side whose
every member sleeps is "not alert", the text's very mark of the surprised, so
under every procedure it does not roll for surprise at all
(``turn.alert_sides``). The text says nothing else about sleep; ours: a
sleeper does not act (attack, move, borrow) until woken, for one not even on
guard is not acting either (``turn.why_not_acting``). Sides still roll primary
attack as a whole; one all asleep has its turn but nobody to act in it.
"""

from __future__ import annotations

from engine.actions import Action, Choice, Param

from .catalogue import CATALOGUE
from .people import members, possessive

TOP = 100  # an Alertness Percentage cannot go past 100


def on_guard(state: dict, side: str) -> list[str]:
    """The side's people the Alertness Condition averages: those awake (all, for a side all asleep, which does
    not roll for surprise but may still be shown)."""
    ids = members(state, side)
    awake = [p for p in ids if not state["people"][p].get("asleep")]
    return awake or ids


# --- the rise owed after an attack -------------------------------------------------------------------------

def owe_rises(state: dict, attacked: list[str], ctx) -> None:
    """At a round's end: who was attacked (alive), and (procedures 2, 3) whose Alertness Percentage must rise."""
    proc = state["options"]["surprise"]
    if proc == 2:
        owed = [s for s in state["side_order"] if state["alertness"][s] < TOP
                and any(state["people"][p]["side"] == s for p in attacked)]
    elif proc == 3:
        owed = [p for p in attacked if state["people"][p]["alertness"] < TOP]
    else:
        owed = []
    state["alert_owed"] = owed
    if owed:
        ctx.note(f"Attacked this round, so their alertness rises next turn (k, by how much is the game "
                 f"master's call): {', '.join(_name(state, w) for w in owed)}")
    elif attacked:
        ctx.note(f"Attacked this round, so their alertness rises next turn: "
                 f"{', '.join(state['people'][p]['name'] for p in attacked)} (surprise procedure "
                 f"{proc or 'none'} reads no Alertness Percentage, so none is set)")


def owed(state: dict) -> list[str]:
    return list(state.get("alert_owed", ()))


def _name(state: dict, who: str) -> str:
    return state["people"][who]["name"] if who in state["people"] else state["side_names"][who]


def _level(state: dict, who: str) -> int:
    return state["people"][who]["alertness"] if who in state["people"] else state["alertness"][who]


def owed_words(state: dict) -> str:
    """'Blue 80, Cid 50': who still owes a rise, with the level it must go above."""
    return ", ".join(f"{_name(state, w)} {_level(state, w)}" for w in owed(state))


def rise_first(may):
    """A ``may`` that also refuses while a rise is owed: it comes before play goes on."""
    def gated(state: dict, args: dict, tables) -> str:
        if owed(state) and state["step"] != "over":
            return f"attacked last round, their alertness jumps higher first (k): {owed_words(state)}"
        return may(state, args, tables)
    gated.__doc__ = may.__doc__
    return gated


def why_set_is_owed(state: dict, who: str) -> str:
    """``r``/``w`` on someone who owes a rise: the rise comes first, and must be higher."""
    if who in owed(state):
        return (f"{_name(state, who)} was attacked last round: their alertness rises first, above "
                f"{_level(state, who)} (k)" if who in state["people"] else
                f"{_name(state, who)} was attacked last round: its alertness rises first, above "
                f"{_level(state, who)} (k)")
    return ""


def _owed_choices(state: dict, args: dict, tables) -> list[Choice]:
    return [Choice(w, f"{_who_words(state, args, tables, w)} ({_level(state, w)})") for w in owed(state)]


def _who_words(state: dict, args: dict, tables, who: str) -> str:
    """A person or a side by name (a side's people owe their rise together)."""
    return _name(state, who)


def may_rise(state: dict, args: dict, tables) -> str:
    if not owed(state) or state["step"] == "over":
        return "nobody attacked last round owes a rise in alertness"
    who = args.get("who")
    if who is None:
        return ""
    if who not in owed(state):
        return f"{_name(state, who)} owes no rise in alertness"
    if "by" in args:
        level, by = _level(state, who), args["by"]
        if by < 1:
            return (f"{_name(state, who)} was attacked: alertness always jumps to a higher level "
                    f"(by 1 or more, how much is yours)")
        if level + by > TOP:
            return f"{_name(state, who)} is at {level}: it rises by {TOP - level} at most"
    return ""


def rise(state: dict, args: dict, tables, ctx) -> None:
    who, by = args["who"], args["by"]
    was = _level(state, who)
    if who in state["people"]:
        state["people"][who]["alertness"] = was + by
    else:
        state["alertness"][who] = was + by
    state["alert_owed"] = [w for w in owed(state) if w != who]
    ctx.note(f"{possessive(_name(state, who))} alertness jumps after the attack: {was} -> {was + by}")


# --- asleep ---------------------------------------------------------------------------------------------------

def living_problem(state: dict, args: dict, key: str) -> str:
    """Why nothing more can be done to the person ``args[key]`` names: the fight is over, or they are dead."""
    if state["step"] == "over":
        return "the fight is over"
    if key in args and state["people"][args[key]]["dead"]:
        return f"{state['people'][args[key]]['name']} is dead"
    return ""


def may_sleep(state: dict, args: dict, tables) -> str:
    return living_problem(state, args, "person")


def sleep(state: dict, args: dict, tables, ctx) -> None:
    p = state["people"][args["person"]]
    p["asleep"] = not p.get("asleep", False)
    ctx.note(f"{p['name']} falls asleep: left out of the side's alertness while others keep guard"
             if p["asleep"] else f"{p['name']} wakes")


def add_actions() -> None:
    """``k`` and ``z``, listed after the game master's ``r`` and ``w`` (``turn`` calls this)."""
    CATALOGUE.add(Action("alertness_rise", "Alertness jumps after an attack (by how much)", rise, key="k",
                         may=may_rise, params=(
                             Param("who", "Attacked last round", "choice", options=_owed_choices, words=_who_words),
                             Param("by", "Rise by (points of Alertness)", "int", minimum=1, maximum=TOP,
                                   said="rise by {}"))))
    CATALOGUE.add(Action("asleep", "Put a person to sleep, or wake them", sleep, key="z", may=may_sleep,
                         params=(Param("person", "Person", "unit", unit="person"),)))
