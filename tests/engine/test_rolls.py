"""Roll requests, results, targets and the seeded roller (engine/rolls.py).

Sources: DESIGN.md ("The encounter is an event log": the "Dice" bullet; the console prompt
"8+ on 2D (+2 gunnery) 72%"), and the rules texts in /work/shared/rules/.
"""

from collections import Counter
from fractions import Fraction

import pytest

from engine.dice import parse_dice
from engine.errors import BadDiceValue, FlagbridgeError
from engine.rolls import (
    Modifier,
    RollRequest,
    RollResult,
    SeededRoller,
    Target,
    checked_result,
    percent,
    typed_result,
)


def to_hit(*mods: Modifier, dice: str = "2D", target: str = "8+") -> RollRequest:
    return RollRequest("To hit", dice, tuple(mods), Target.parse(target))


# --- chance before the roll ----------------------------------------------------------------


def test_request_chance_8_plus_with_gunnery_is_72_percent():
    """DESIGN.md console prompt: "8+ on 2D (+2 gunnery) 72%"; 8+ with +2 is 6+, 26/36."""
    req = to_hit(Modifier("Gunnery", 2))
    assert req.chance() == Fraction(26, 36)
    assert req.describe() == "To hit: 2D +2 Gunnery vs 8+ (72.2%)"


def test_request_chance_golden_numbers():
    """classic-hg-combat.txt ("roll 2D ... equals or exceeds the TO HIT"); megatraveller-sensors-fire.txt
    "Difficult (11+)" to hit and spinal mounts "Routine (7+)"."""
    assert to_hit(target="8+").chance() == Fraction(15, 36)
    assert to_hit(dice="2d6", target="11+").chance() == Fraction(3, 36)
    assert to_hit(dice="2d6", target="7+").chance() == Fraction(21, 36)


def test_request_chance_percentile_at_most():
    """percentile-personal-combat.txt, Percent to Hit: roll l:100sd under the percent to hit."""
    req = RollRequest("To hit", "1:100sd", (), Target.parse("45-"))
    assert req.chance() == Fraction(45, 100)


def test_request_chance_sums_modifiers_and_clamps():
    """DESIGN.md "Dice": modifiers with their names; exact chance from the distribution."""
    req = to_hit(Modifier("Gunnery", 3), Modifier("Range", -1))
    assert req.modifier_total == 2
    assert req.chance() == Fraction(26, 36)
    assert to_hit(Modifier("Huge", 20)).chance() == 1
    assert to_hit(Modifier("Hopeless", -20)).chance() == 0
    assert RollRequest("Damage", "2D").chance() is None


def test_percent_formatting():
    """engine/rolls.py percent: one decimal; "-" when there is no target."""
    assert percent(Fraction(26, 36)) == "72.2%"
    assert percent(Fraction(1)) == "100.0%"
    assert percent(None) == "-"


# --- typed answers -------------------------------------------------------------------------


def test_typed_total_result():
    """DESIGN.md "Dice": answered by the game master typing the physical dice."""
    res = typed_result(to_hit(), "8")
    assert (res.natural, res.faces, res.source) == (8, (), "typed")
    assert res.success is True


@pytest.mark.parametrize("text", ["3 5", "3,5", "3+5"])
def test_typed_each_die_result(text):
    """DESIGN.md "Dice": typed physical dice, each die given."""
    res = typed_result(to_hit(), text)
    assert (res.natural, res.faces, res.total) == (8, (3, 5), 8)


def test_typed_percentile_00_and_d10_0():
    """engine/dice.py read_face: "00" is 100 on 1:100sd; "0" is 10 on a d10."""
    assert typed_result(RollRequest("Surprise", "1:100sd"), "00").natural == 100
    assert typed_result(RollRequest("Damage", "1:10sd"), "0").natural == 10
    dmg = typed_result(RollRequest("Damage", "4:10sd+2"), "0 0 1 2")
    assert (dmg.natural, dmg.total) == (23, 25)


@pytest.mark.parametrize(
    "dice, text, expected",
    [
        ("2D", "13", "2 to 12"),
        ("1D", "0", "1 to 6"),
        ("2D", "1", "2 to 12"),
        ("2D", "3 7", "1 to 6"),
    ],
)
def test_typed_result_refuses_impossible_values(dice, text, expected):
    """DESIGN.md "Dice": "13 on 2D, 0 on 1D, letters" refused with a message, nothing recorded."""
    with pytest.raises(BadDiceValue) as err:
        typed_result(RollRequest("Roll", dice), text)
    assert expected in str(err.value)


@pytest.mark.parametrize("text, shown", [("abc", "abc"), ("", "2D"), ("1 2 3", "2 dice")])
def test_typed_result_refuses_non_rolls(text, shown):
    """DESIGN.md "Dice": letters and malformed input refused with a message."""
    with pytest.raises(BadDiceValue) as err:
        typed_result(to_hit(), text)
    assert shown in str(err.value)


# --- results -------------------------------------------------------------------------------


def test_total_is_value_plus_expression_plus_modifiers():
    """engine/rolls.py RollResult: total = dice value (scale and plus) + named modifiers."""
    req = RollRequest("Damage", "4:10sd+2", (Modifier("Aimed", 3), Modifier("Cover", -1)))
    res = RollResult(req, 20)
    assert res.value == 22
    assert res.total == 24
    assert res.success is None and res.margin is None


def test_total_with_fractional_dice():
    """percentile-personal-combat.txt, Damage Die Rolls (fractional X), halves up (engine/dice.py)."""
    req = RollRequest("Damage", "0.5:10sd+2", (Modifier("Aimed", 1),))
    assert RollResult(req, 5).total == 3 + 2 + 1


def test_success_and_margin_at_least():
    """classic-hg-combat.txt: "If the number rolled equals or exceeds the TO HIT" the weapon hits."""
    req = to_hit(Modifier("Gunnery", 2))
    made = RollResult(req, 6)  # 6 + 2 = 8 equals 8+
    assert made.total == 8 and made.success is True and made.margin == 0
    missed = RollResult(req, 5)
    assert missed.success is False and missed.margin == -1
    big = RollResult(req, 12)
    assert big.success is True and big.margin == 6


def test_megatraveller_pinpoint_margin():
    """megatraveller-sensors-fire.txt, Visual Range Pinpoint Shots: "roll at least 2 more than needed"."""
    res = RollResult(to_hit(Modifier("Computer", 2), dice="2d6", target="11+"), 11)
    assert res.total == 13 and res.margin == 2


def test_success_and_margin_at_most():
    """percentile-personal-combat.txt, PERCENT UNDER = percent to hit minus the l:100sd roll."""
    req = RollRequest("To hit", "1:100sd", (), Target.parse("45-"))
    hit = RollResult(req, 30)
    assert hit.success is True and hit.margin == 15
    edge = RollResult(req, 45)
    assert edge.success is True and edge.margin == 0
    miss = RollResult(req, 46)
    assert miss.success is False and miss.margin == -1


def test_result_describe_mentions_every_modifier():
    """DESIGN.md layout: "Log: each roll with its modifiers and result"."""
    req = to_hit(Modifier("Gunnery", 2), Modifier("Range", -1))
    text = RollResult(req, 8, (3, 5), "roller").describe()
    assert "+2 Gunnery" in text and "-1 Range" in text
    assert "[3 5]" in text and "= 9" in text and "8+" in text and "success" in text
    assert "rolled" in text
    typed = RollResult(req, 5, (), "typed").describe()
    assert "typed" in typed and "[5]" in typed and "failure" in typed


def test_result_describe_without_target():
    """engine/rolls.py RollResult.describe: no success word when there is no target."""
    text = RollResult(RollRequest("Damage", "3:10sd"), 17).describe()
    assert "= 17" in text
    assert "success" not in text and "failure" not in text


# --- targets -------------------------------------------------------------------------------


@pytest.mark.parametrize("text, number, at_most", [("8+", 8, False), ("45-", 45, True), ("-3+", -3, False)])
def test_target_parse_round_trip(text, number, at_most):
    """engine/rolls.py Target: "8+" or "45-", as saved."""
    t = Target.parse(text)
    assert (t.number, t.at_most) == (number, at_most)
    assert t.to_plain() == text
    assert Target.parse(t.to_plain()) == t


@pytest.mark.parametrize("text", ["8", "x+", "", "+", "8 +", "8*"])
def test_target_parse_refuses(text):
    """engine/rolls.py Target.parse: a number then + or -; the message shows the input."""
    with pytest.raises(FlagbridgeError) as err:
        Target.parse(text)
    assert repr(text) in str(err.value)


@pytest.mark.parametrize("text", ["--3+", "²+"])
def test_target_parse_refuses_malformed_numbers_with_flagbridge_error(text):
    """DESIGN.md "Saves": loading validates everything, one clear message per problem."""
    with pytest.raises(FlagbridgeError):
        Target.parse(text)


# --- request round trip --------------------------------------------------------------------


def test_request_plain_round_trip():
    """DESIGN.md "Dice"/"Saves": requests are saved as plain data (modifiers, target, then, context)."""
    req = RollRequest(
        purpose="Gazelle laser turret 1 at Corsair",
        dice="2D",
        modifiers=(Modifier("Gunnery", 2), Modifier("Range", -1)),
        target=Target(8),
        then="resolve_hit",
        context={"battery": 1, "target": "Corsair", "weapons": ["laser", "laser"]},
        group=3,
    )
    plain = req.to_plain()
    assert plain["modifiers"] == [{"source": "Gunnery", "value": 2}, {"source": "Range", "value": -1}]
    assert plain["target"] == "8+"
    assert plain["then"] == "resolve_hit"
    assert plain["context"] == {"battery": 1, "target": "Corsair", "weapons": ["laser", "laser"]}
    back = RollRequest.from_plain(plain)
    assert back == req
    assert back.to_plain() == plain


def test_request_plain_round_trip_minimal_and_at_most():
    """engine/rolls.py RollRequest.to_plain: empty fields are left out and restored as defaults."""
    bare = RollRequest("Initiative", "1D")
    assert bare.to_plain() == {"purpose": "Initiative", "dice": "1D", "group": 0}
    assert RollRequest.from_plain(bare.to_plain()) == bare
    pct = RollRequest("To hit", "1:100sd", (), Target(45, at_most=True))
    assert RollRequest.from_plain(pct.to_plain()) == pct


def test_modifier_plain_and_str():
    """engine/rolls.py Modifier: shown as "+2 Tactics"."""
    m = Modifier("Tactics", 2)
    assert str(m) == "+2 Tactics"
    assert str(Modifier("Fire Control", -4)) == "-4 Fire Control"
    assert Modifier.from_plain(m.to_plain()) == m


# --- checked results (replay / load) -------------------------------------------------------


def test_checked_result_accepts_consistent_and_refuses_inconsistent():
    """DESIGN.md "Saves": loading validates a logged roll against its request."""
    req = to_hit()
    assert checked_result(req, 8, (3, 5), "typed").total == 8
    assert checked_result(req, 8, (), "roller").natural == 8
    with pytest.raises(BadDiceValue):
        checked_result(req, 9, (3, 5), "typed")  # faces do not add up
    with pytest.raises(BadDiceValue):
        checked_result(req, 13, (), "typed")
    with pytest.raises(BadDiceValue):
        checked_result(req, 10, (3, 7), "typed")  # 7 is not a d6 face
    with pytest.raises(BadDiceValue):
        checked_result(req, 6, (1, 2, 3), "typed")
    with pytest.raises(FlagbridgeError):
        checked_result(req, 8, (3, 5), "luck")


# --- seeded roller -------------------------------------------------------------------------


def test_seeded_roller_is_deterministic_per_seed_and_index():
    """engine/rolls.py SeededRoller: roll number index always gives the same faces (replay, undo)."""
    dice = parse_dice("2D")
    a, b = SeededRoller(1234), SeededRoller(1234)
    for index in range(50):
        assert a.faces(dice, index) == b.faces(dice, index) == a.faces(dice, index)
    req = to_hit(Modifier("Gunnery", 2))
    assert a.answer(req, 7) == b.answer(req, 7)


@pytest.mark.parametrize("expr", ["1D", "2D", "1:100sd", "4:10sd+2", "0.5:10sd", "3d8"])
def test_seeded_roller_faces_in_range(expr):
    """engine/rolls.py SeededRoller: each face is 1 to the die's sides, one per die."""
    dice = parse_dice(expr)
    roller = SeededRoller(99)
    for index in range(300):
        faces = roller.faces(dice, index)
        assert len(faces) == dice.count
        assert all(1 <= f <= dice.sides for f in faces)


def test_seeded_roller_answer_is_a_valid_logged_result():
    """DESIGN.md "Dice": roller answers are recorded the same way as typed ones."""
    req = to_hit(Modifier("Gunnery", 2))
    roller = SeededRoller(5)
    for index in range(100):
        res = roller.answer(req, index)
        assert res.source == "roller"
        assert res.natural == sum(res.faces)
        assert checked_result(req, res.natural, res.faces, res.source) == res


def test_seeded_roller_indexes_vary():
    """engine/rolls.py SeededRoller: rolls differ from index to index (not one fixed answer)."""
    dice = parse_dice("2D")
    roller = SeededRoller(42)
    totals = Counter(sum(roller.faces(dice, i)) for i in range(500))
    assert len(totals) >= 8  # many of the 11 possible totals appear
    faces = Counter(f for i in range(500) for f in roller.faces(dice, i))
    assert set(faces) == {1, 2, 3, 4, 5, 6}


def test_seeded_roller_seeds_vary():
    """DESIGN.md "Dice": the seed is saved; a different seed gives a different run of dice."""
    dice = parse_dice("1:100sd")
    runs = {tuple(SeededRoller(seed).faces(dice, i) for i in range(20)) for seed in range(10)}
    assert len(runs) > 1


def test_the_prompt_says_what_the_dice_themselves_must_show() -> None:
    """Issue 9: "7+ on 2D" beside the modified target: 8+ with +2 Gunnery needs 6+ on the dice."""
    from engine.rolls import Modifier, RollRequest, Target

    assert RollRequest("To hit", "2D", (Modifier("Gunnery", 2),), Target(8)).on_the_dice() == "6+ on 2D"
    assert RollRequest("To hit", "2D", (Modifier("Gunnery", 9),), Target(8)).on_the_dice() == "any roll of 2D"
    assert RollRequest("To hit", "2D", (Modifier("Range", -6),), Target(8)).on_the_dice() == \
        "no roll of 2D can make it"
    assert RollRequest("Shoot", "1:100sd", (Modifier("Aim", 10),), Target(45, at_most=True)).on_the_dice() == \
        "35 or less on 1:100sd"
    assert RollRequest("Damage", "1D").on_the_dice() == ""
