"""The Ships list's condition bar (issue 9: a ship with a turret destroyed still showed ####)."""

from tui.widgets.panels import bar


def test_only_an_untouched_unit_has_a_full_bar() -> None:
    assert bar(1.0) == "####"
    assert bar(0.99) == "###-"   # one armor point of thirty, or one system shut down: it shows
    assert bar(0.875) == "###-"


def test_only_a_unit_with_nothing_left_has_an_empty_bar() -> None:
    assert bar(0.0) == "----"
    assert bar(0.01) == "#---"
    assert bar(0.5) == "##--"
