"""Random play the way the console offers it, for any ruleset: a test driver, not a player.

At each step it takes only what the console would show: an action from
``Encounter.offers`` that is possible now, each parameter from the ruleset's
``param_choices`` (a ticked list may be refused as a whole, as the form would
say, and is then ticked again), typed numbers checked by ``check_answer``, and
rolls answered by the built-in dice or typed faces. Every offer it takes must
then be accepted by the rules; every offer not possible must carry a reason.
"""

from __future__ import annotations

import random

from engine.encounter import Encounter

TYPED_NUMBERS = (0, 1, 2, 3, 5, 10)
ENDERS = ("withdraw", "break_off")


def fill_form(enc: Encounter, name: str, rng: random.Random) -> dict:
    """Answers for an action's form, each one the form would accept."""
    rs = enc.ruleset
    action = rs.catalogue.get(name)
    args: dict = {}
    for p in action.params:
        offered = rs.param_choices(enc.state, name, p, args)
        if offered is None:  # typed: a number the rule accepts (the form says why for the others)
            for n in rng.sample(TYPED_NUMBERS, len(TYPED_NUMBERS)):
                value, why = rs.check_answer(enc.state, name, p.name, str(n) if p.kind == "int" else "", args)
                if not why:
                    args[p.name] = value
                    break
            else:
                assert p.optional, f"{name}.{p.name}: no typed value accepted"
            continue
        if not offered:
            assert p.optional, f"{name}.{p.name}: offered nothing for a required parameter"
            continue
        if p.kind == "multi":
            picks = rng.sample([c.value for c in offered], rng.randint(1, len(offered)))
            value, why = rs.check_answer(enc.state, name, p.name, picks, args)
            if why:  # the form says why and the game master ticks again: one offered item always goes
                value, why = rs.check_answer(enc.state, name, p.name, [rng.choice(offered).value], args)
            assert not why, f"{name}.{p.name}: a single offered item refused: {why}"
            args[p.name] = value
        else:
            choice = rng.choice(offered)
            value, why = rs.check_answer(enc.state, name, p.name, choice.value, args)
            assert not why, f"{name}.{p.name}={choice.value!r} was offered but refused: {why}"
            args[p.name] = value
    return args


def answer_roll(enc: Encounter, rng: random.Random) -> None:
    if rng.random() < 0.5:
        enc.roll()
        return
    dice = enc.pending.parsed
    enc.type_roll(" ".join(str(rng.randint(1, dice.sides)) for _ in range(dice.count)))


def play(enc: Encounter, rng: random.Random, steps: int, undo_rate: float = 0.05) -> int:
    """Play ``steps`` console moves; returns how many actions were taken."""
    taken = 0
    for _ in range(steps):
        if enc.pending is not None:
            answer_roll(enc, rng)
            continue
        if enc.can_undo and rng.random() < undo_rate:
            enc.undo()
            continue
        offers = enc.offers()
        for o in offers:
            assert o.possible or o.reason.strip(), f"{o.action.name} is not possible and says no reason"
        possible = [o.action.name for o in offers if o.possible]
        assert sorted(possible) == sorted(a.name for a in enc.legal_actions())
        if not possible:
            break
        lasting = [n for n in possible if n not in ENDERS]  # a fight that ends at once tests little
        if lasting and rng.random() < 0.97:
            weighted = [n for n in lasting if n != "next"] * 4 + lasting
        else:
            weighted = possible
        name = rng.choice(weighted)
        enc.act(name, **fill_form(enc, name, rng))  # an offered action with offered choices never raises
        taken += 1
    return taken
