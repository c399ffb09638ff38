"""Dice notations, exact distributions, and typed physical rolls (engine/dice.py).

Sources: DESIGN.md ("The encounter is an event log": the "Dice" and "Dice notations" bullets),
the rules texts in /work/shared/rules/, and the rounding rule documented in engine/dice.py.
"""

from fractions import Fraction

import pytest

from engine.dice import Dice, parse_dice, read_face, read_typed
from engine.errors import BadDiceExpression, BadDiceValue, FlagbridgeError


def values(d: Dice) -> list[int]:
    """The values an expression can take, read from its exact distribution."""
    return sorted(d.distribution())


def chance_at_least(expr: str, target: int, bonus: int = 0) -> Fraction:
    return sum(
        (p for v, p in parse_dice(expr).distribution().items() if v + bonus >= target),
        Fraction(0),
    )


def chance_at_most(expr: str, target: int, bonus: int = 0) -> Fraction:
    return sum(
        (p for v, p in parse_dice(expr).distribution().items() if v + bonus <= target),
        Fraction(0),
    )


# --- parsing -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, count, sides, plus",
    [
        ("1D", 1, 6, 0),
        ("2D", 2, 6, 0),
        ("D6", 1, 6, 0),
        ("d6", 1, 6, 0),
        ("2d6", 2, 6, 0),
        ("3d6+1", 3, 6, 1),
        ("2D-2", 2, 6, -2),
    ],
)
def test_parse_six_sided_notations(text, count, sides, plus):
    """DESIGN.md "Dice notations": 1D, 2D, 2d6, D6 (and NdM+K per engine/dice.py docstring)."""
    d = parse_dice(text)
    assert (d.count, d.sides, d.plus, d.scale) == (count, sides, plus, Fraction(1))
    assert str(d) == text


def test_parse_1d_is_classic_initiative_die():
    """classic-hg-combat.txt, "1. Determine Initiative": "Each Captain rolls 1D"."""
    d = parse_dice("1D")
    assert values(d) == [1, 2, 3, 4, 5, 6]


def test_parse_2d_ranges_2_to_12():
    """classic-hg-combat.txt, offensive firing phase: "The gunners ... roll 2D"."""
    d = parse_dice("2D")
    assert (d.min_natural, d.max_natural) == (2, 12)
    assert values(d) == list(range(2, 13))


def test_parse_percentile_is_1_to_100():
    """percentile-personal-combat.txt, "Procedures for Percent to Hit": "rolls l:100sd"."""
    d = parse_dice("1:100sd")
    assert (d.count, d.sides, d.plus, d.scale) == (1, 100, 0, Fraction(1))
    assert values(d) == list(range(1, 101))


def test_parse_auto_pistol_damage_4_plus_2():
    """percentile-personal-combat.txt, Damage Die Rolls examples: "AUTO PISTOL 4+2 means 4:10sd+2"."""
    d = parse_dice("4:10sd+2")
    assert (d.count, d.sides, d.plus, d.scale) == (4, 10, 2, Fraction(1))
    assert values(d) == list(range(6, 43))  # 4..40 plus 2


def test_parse_contour_laser_damage_3():
    """percentile-personal-combat.txt, Damage Die Rolls examples: "CONTOUR LASER 3 means 3:10sd"."""
    d = parse_dice("3:10sd")
    assert (d.count, d.sides, d.plus) == (3, 10, 0)
    assert values(d) == list(range(3, 31))


def test_parse_grenade_miss_distance_with_spaces():
    """percentile-personal-combat.txt, Grenades: the miss lands "l:10sd + 13 meters" away."""
    d = parse_dice("1:10sd + 13")
    assert (d.count, d.sides, d.plus) == (1, 10, 13)
    assert values(d) == list(range(14, 24))


def test_parse_fractional_scales_one_d10():
    """percentile-personal-combat.txt, Damage Die Rolls: "fractional (X) values roll l:10sd and
    multiply the result by the fraction"; halves round up (engine/dice.py docstring)."""
    d = parse_dice("0.5:10sd")
    assert (d.count, d.sides, d.plus, d.scale) == (1, 10, 0, Fraction(1, 2))
    # 0.5 x 5 = 2.5 counts as 3, as documented in engine/dice.py.
    assert d.value(5) == 3
    assert d.value(1) == 1  # 0.5 -> 1
    assert d.value(4) == 2
    assert d.value(10) == 5
    assert [d.value(n) for n in range(1, 11)] == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5]


def test_fractional_with_plus_scales_before_adding():
    """percentile-personal-combat.txt, Damage Die Rolls: X:10sd + Y, X fractional scales the die."""
    d = parse_dice("0.5:10sd+2")
    assert d.value(5) == 3 + 2
    assert values(d) == [3, 4, 5, 6, 7]


@pytest.mark.parametrize("text", ["", "   ", "2x6", "0D", "1.5:10sd", "abc", "2D+", "1:1sd", "0:10sd"])
def test_bad_notations_refused_naming_the_input(text):
    """DESIGN.md "Dice": bad input is refused with a message; the message shows the input."""
    with pytest.raises(BadDiceExpression) as err:
        parse_dice(text)
    assert repr(text) in str(err.value)


def test_bad_notation_is_a_flagbridge_error():
    """engine/errors.py: every error a game master can cause is a FlagbridgeError."""
    with pytest.raises(FlagbridgeError):
        parse_dice("2x6")


# --- exact distributions -------------------------------------------------------------------


def test_2d_has_36_outcomes_and_seven_is_six_ways():
    """DESIGN.md "Dice": the chance comes from the dice distribution, not sampling."""
    d = parse_dice("2D")
    counts = d.natural_counts()
    assert sum(counts.values()) == 36
    assert counts == {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}
    assert d.distribution()[7] == Fraction(6, 36)


def test_eight_plus_on_2d_is_15_in_36():
    """DESIGN.md console prompt "8+ on 2D"; classic-hg-combat.txt: equals or exceeds the TO HIT."""
    assert chance_at_least("2D", 8) == Fraction(15, 36)


def test_eleven_plus_on_2d_is_3_in_36():
    """megatraveller-sensors-fire.txt, Rolling To Hit: "11+ on 2d6"; "Difficult (11+)";
    STYLE.md golden number "the odds of 11+ on 2D"."""
    assert chance_at_least("2D", 11) == Fraction(3, 36)
    assert chance_at_least("2d6", 11) == Fraction(1, 12)


def test_seven_plus_on_2d_spinal_mount_is_21_in_36():
    """megatraveller-sensors-fire.txt, Spinal Mounts: "Target numebr is Routine (7+)"."""
    assert chance_at_least("2d6", 7) == Fraction(21, 36)


def test_percentile_at_most_45_is_45_percent():
    """percentile-personal-combat.txt, Percent to Hit: roll l:100sd under the percent to hit."""
    assert chance_at_most("1:100sd", 45) == Fraction(45, 100)


def test_modifier_shifts_chance():
    """DESIGN.md console prompt "8+ on 2D (+2 gunnery) 72%": +2 DM on 8+ equals 6+ unmodified."""
    assert chance_at_least("2D", 8, bonus=2) == chance_at_least("2D", 6) == Fraction(26, 36)


def test_expression_plus_shifts_like_a_modifier():
    """engine/dice.py: value = natural total plus the expression's plus."""
    assert chance_at_least("2D+2", 8) == chance_at_least("2D", 6) == Fraction(26, 36)
    assert chance_at_least("2D-2", 8) == chance_at_least("2D", 10) == Fraction(6, 36)


def test_unreachable_target_is_zero_and_trivial_target_is_one():
    """DESIGN.md "Dice": exact chance of success computed from the distribution."""
    assert chance_at_least("2D", 13) == 0
    assert chance_at_least("2D", 2) == 1
    assert chance_at_least("2D", -5) == 1
    assert chance_at_most("1:100sd", 0) == 0
    assert chance_at_most("1:100sd", 100) == 1


@pytest.mark.parametrize(
    "text", ["1D", "2D", "D6", "3d6+1", "2D-2", "1:100sd", "4:10sd+2", "3:10sd", "0.5:10sd", "5d8"]
)
def test_distribution_sums_to_exactly_one(text):
    """engine/dice.py: odds are exact, built by convolution with integer counts."""
    d = parse_dice(text)
    dist = d.distribution()
    assert sum(dist.values()) == 1
    assert all(isinstance(p, Fraction) and p > 0 for p in dist.values())
    assert sum(d.natural_counts().values()) == d.sides**d.count


def test_3d6_convolution_counts():
    """engine/dice.py natural_counts: ways to make each total add up to sides ** count."""
    counts = parse_dice("3d6").natural_counts()
    assert counts[3] == 1
    assert counts[10] == counts[11] == 27
    assert counts[18] == 1


def test_fractional_distribution_is_even_fifths():
    """percentile-personal-combat.txt, Damage Die Rolls (fractional X); halves up per engine/dice.py."""
    dist = parse_dice("0.5:10sd").distribution()
    assert dist == {v: Fraction(1, 5) for v in range(1, 6)}


def test_dice_value_without_scale_is_natural_plus():
    """engine/dice.py Dice.value: scale, then plus."""
    assert Dice(2, 6, -2).value(7) == 5
    assert Dice(4, 10, 2).value(23) == 25


# --- typed physical rolls ------------------------------------------------------------------


def test_typed_total():
    """DESIGN.md "Dice": the game master may type the physical dice (a total)."""
    assert read_typed(parse_dice("2D"), "8") == (8, ())


@pytest.mark.parametrize("text", ["3 5", "3,5", "3+5", " 3 , 5 ", "3, 5"])
def test_typed_each_die(text):
    """DESIGN.md "Dice": typed physical dice; faces separated by spaces, commas or plus."""
    assert read_typed(parse_dice("2D"), text) == (8, (3, 5))


def test_typed_percentile_00_is_100():
    """engine/dice.py read_face: "00" is 100 on a percentile die (1:100sd reads 1 to 100)."""
    assert read_typed(parse_dice("1:100sd"), "00") == (100, (100,))
    assert read_typed(parse_dice("1:100sd"), "45") == (45, (45,))


def test_typed_d10_zero_is_ten():
    """engine/dice.py read_face: "0" is 10 on a d10 (X:10sd dice read 1 to 10)."""
    assert read_typed(parse_dice("1:10sd"), "0") == (10, (10,))
    assert read_typed(parse_dice("4:10sd+2"), "0 3 0 1") == (24, (10, 3, 10, 1))
    assert read_face(parse_dice("3:10sd"), "0") == 10


def test_leading_zeros_are_not_counted_as_digits():
    """A typed 0000001 is the 1 that 000001 is (it was refused as "far more than any roll")."""
    assert read_typed(parse_dice("1D"), "0000001") == (1, (1,))
    assert read_typed(parse_dice("2D"), "000000000007") == (7, ())
    with pytest.raises(BadDiceValue, match="far more than any roll"):
        read_typed(parse_dice("2D"), "1234567")


def test_typed_total_is_natural_before_plus():
    """engine/dice.py read_typed: the typed total is the dice alone, before plus."""
    assert read_typed(parse_dice("4:10sd+2"), "23") == (23, ())


@pytest.mark.parametrize("text, says", [
    ("42", "42 cannot be rolled on 4:10sd+2: type the dice alone, 4 to 40 (the +2 is added)"),
    ("x", "'x' is not a number: type the dice of 4:10sd+2 alone, 4 to 40 (the +2 is added)"),
    # a drive: "'-1' is not a number" (it is one): what is wrong is the sign
    ("-1", "'-1': dice show no sign: type the dice of 4:10sd+2 alone, 4 to 40 (the +2 is added)"),
])
def test_a_refusal_on_dice_with_a_plus_says_the_plus_is_not_typed(text, says):
    """The percentile text's DAMAGE DIE ROLL "4+2" is 4:10sd plus 2: a game master who types the whole 42 is told
    to type the dice alone, and that the 2 is added (a total of 22 typed would otherwise count 24)."""
    with pytest.raises(BadDiceValue) as err:
        read_typed(parse_dice("4:10sd+2"), text)
    assert str(err.value) == says


@pytest.mark.parametrize(
    "expr, text, range_text",
    [
        ("2D", "13", "2 to 12"),
        ("2D", "1", "2 to 12"),
        ("2D", "0", "2 to 12"),
        ("1D", "0", "1 to 6"),
        ("1D", "7", "1 to 6"),
        ("2D", "3 7", "1 to 6"),  # 7 is not a face of a d6
        ("1:100sd", "0", "1 to 100"),
        ("1:100sd", "101", "1 to 100"),
        ("3:10sd", "31", "3 to 30"),
    ],
)
def test_impossible_typed_values_refused_naming_range(expr, text, range_text):
    """DESIGN.md "Dice": "A value that the dice cannot produce (13 on 2D, 0 on 1D, letters) is
    refused with a message"; the message says what can be typed."""
    with pytest.raises(BadDiceValue) as err:
        read_typed(parse_dice(expr), text)
    assert range_text in str(err.value)


def test_seven_as_a_d6_face_names_the_die():
    """DESIGN.md "Dice": refused with a message (7 is not a face of a d6)."""
    with pytest.raises(BadDiceValue) as err:
        read_typed(parse_dice("2D"), "3 7")
    assert "d6" in str(err.value) and "7" in str(err.value)


def test_letters_refused():
    """DESIGN.md "Dice": letters are refused with a message naming the input."""
    with pytest.raises(BadDiceValue) as err:
        read_typed(parse_dice("2D"), "abc")
    assert "abc" in str(err.value)
    with pytest.raises(BadDiceValue):
        read_typed(parse_dice("2D"), "3 x")
    with pytest.raises(BadDiceValue):
        read_typed(parse_dice("1D"), "-3")


@pytest.mark.parametrize("text", ["", "   ", None])
def test_empty_typed_roll_refused(text):
    """DESIGN.md "Dice": nothing typed is refused with a message naming the dice."""
    with pytest.raises(BadDiceValue) as err:
        read_typed(parse_dice("2D"), text)
    assert "2D" in str(err.value)


@pytest.mark.parametrize("dice, text, says", [
    ("1D", ",", "no roll typed: type the 1D total, 1 to 6"),
    ("1D", "3 4", "2 numbers typed for 1D: type the 1D total, 1 to 6 (one die: one number)"),
    ("1:100sd", "150", "150 is not a face of a d100: type 1 to 100 (00 for 100)"),
    ("1:10sd", "11", "11 is not a face of a d10: type 1 to 10 (0 for 10)"),
])
def test_refusals_read_plainly(dice, text, says):
    """Found driving the console: "or all 1 dice", and a d100 refusal that never named the 00 the README gives."""
    with pytest.raises(BadDiceValue) as err:
        read_typed(parse_dice(dice), text)
    assert str(err.value) == says


def test_wrong_number_of_dice_refused():
    """DESIGN.md "Dice": three faces cannot come from 2D; the message says how many dice."""
    with pytest.raises(BadDiceValue) as err:
        read_typed(parse_dice("2D"), "1 2 3")
    msg = str(err.value)
    assert "3 dice" in msg and "2 dice" in msg


@pytest.mark.parametrize("text", ["abc", "", "1 2 3"])
def test_every_2d_refusal_names_the_possible_range(text):
    """Brief/DESIGN.md "Dice": a refused 2D roll says what can be typed (2 to 12)."""
    with pytest.raises(BadDiceValue) as err:
        read_typed(parse_dice("2D"), text)
    assert "2 to 12" in str(err.value)


@pytest.mark.parametrize("expr, text", [("2D", "²"), ("2D", "3 ²"), ("1D", "²")])
def test_superscript_digit_refused_with_bad_dice_value(expr, text):
    """DESIGN.md "Robustness": no input crashes the console; bad values get a message."""
    with pytest.raises(BadDiceValue):
        read_typed(parse_dice(expr), text)


def test_huge_typed_number_refused_with_bad_dice_value():
    """DESIGN.md "Robustness": no input crashes the console; bad values get a message."""
    with pytest.raises(BadDiceValue):
        read_typed(parse_dice("2D"), "9" * 5000)


def test_huge_number_in_notation_refused_with_bad_dice_expression():
    """DESIGN.md "Robustness": bad values get a message; errors are FlagbridgeError subclasses."""
    with pytest.raises(BadDiceExpression):
        parse_dice("1d6+" + "1" * 5000)


@pytest.mark.parametrize("text, expected", [("1D", [1, 2, 3, 4, 5, 6]), ("2D", list(range(2, 13)))])
def test_possible_values_lists_the_values(text, expected):
    """engine/dice.py Dice.possible_values -> list[int]: 1D gives 1..6, 2D gives 2..12."""
    assert parse_dice(text).possible_values() == expected


@pytest.mark.parametrize("dice, text, says", [
    ("1D", "+3", "'+3': a '+' with no die before it: type the 1D total, 1 to 6"),
    ("2D", "5+", "'5+': a '+' with no die after it: type the 2D total, 2 to 12"),
    ("2D", "5,", "'5,': a ',' with no die after it: type the 2D total, 2 to 12"),
    ("2D", ", 3 5", "', 3 5': a ',' with no die before it: type the 2D total, 2 to 12"),
])
def test_a_plus_or_comma_with_no_die_beside_it_is_refused(dice, text, says):
    """README: "an entry holding anything but digits and spaces, commas or plus signs between dice ... is refused
    whole". Found driving the console: "+3" was recorded as a 3, and "5+" on 2D (the second die not typed yet when
    Enter came) as a total of 5."""
    with pytest.raises(BadDiceValue) as err:
        read_typed(parse_dice(dice), text)
    assert str(err.value) == says
