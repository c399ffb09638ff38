"""The ruleset contract (DESIGN.md "Rulesets: one contract"), proved on the test rulesets.

Actions are declared once; the engine checks arguments by kind before a
handler runs; ``may`` drives what is offered and why the rest is not; roll
continuations are checked at import; one ruleset calls another's procedure in
the same fight, log, undo and save.
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from engine.actions import Action, Catalogue, Param
from engine.encounter import Encounter, replay
from engine.errors import FlagbridgeError, IllegalAction
from engine.saves import SaveFile, create
from tests.skirmish import SKIRMISH, make_setup


@pytest.fixture
def enc() -> Encounter:
    return Encounter(make_setup(), SKIRMISH)


def to_fire_step(enc: Encounter) -> None:
    enc.act("initiative")
    enc.type_roll("2")
    enc.type_roll("6")
    enc.act("next")


# --- arguments are checked by kind before any handler runs ----------------------------------

@pytest.mark.parametrize("args,why", [
    ({"ship": "ghost", "target": "brute"}, "Fire: ship: no ship 'ghost'"),
    ({"ship": "arrow", "target": "lance"}, "Lance is on Arrow's own side"),
    ({"ship": "arrow"}, "Fire: target is needed"),
    ({"ship": "arrow", "target": "brute", "range": 3}, "Fire: no parameter 'range' (known: ship, target)"),
    ({"ship": 7, "target": "brute"}, "Fire: ship must be a name, got 7"),
])
def test_a_unit_argument_is_checked_before_the_rule(enc: Encounter, args: dict, why: str) -> None:
    to_fire_step(enc)
    n = len(enc.events)
    with pytest.raises(IllegalAction) as err:
        enc.act("fire", **args)
    assert str(err.value) == why
    assert len(enc.events) == n


def test_a_choice_and_a_side_are_checked(enc: Encounter) -> None:
    to_fire_step(enc)
    with pytest.raises(IllegalAction, match="Scan: side: 'green' is not one of 'blue', 'red'"):
        enc.act("scan", side="green", target="brute")
    with pytest.raises(IllegalAction, match="Boarder hit: part: 'tail' is not one of 'chest', 'head'"):
        enc.act("board", person="vask", part="tail")


def test_an_int_param_reads_typed_digits_and_keeps_its_bounds() -> None:
    seen = []
    cat = Catalogue("test-ints", ())
    cat.add(Action("count", "Count", lambda s, a, t, c: seen.append(a["n"]),
                   params=(Param("n", "Number", "int", minimum=0, maximum=9),)))
    from engine.actions import checked_args

    assert checked_args(cat, {}, cat.get("count"), {"n": " 7 "}, None, []) == {"n": 7}
    for bad, why in ((10, "at most 9"), (-1, "at least 0"), ("x", "whole number"), (True, "whole number"),
                     ("٣", "whole number"), (10**30, "at most 9")):
        with pytest.raises(IllegalAction, match=why):
            checked_args(cat, {}, cat.get("count"), {"n": bad}, None, [])


# --- may drives the offers -----------------------------------------------------------------------

def test_offers_name_a_reason_for_every_action_not_possible(enc: Encounter) -> None:
    offers = {o.action.name: o.reason for o in enc.offers()}
    assert offers["initiative"] == ""
    assert offers["fire"] == "ships fire in the fire step"
    assert [a.name for a in enc.legal_actions()] == ["next", "initiative"]


def test_a_unit_is_offered_only_when_the_form_can_be_finished(enc: Encounter) -> None:
    to_fire_step(enc)
    # nobody has a lock yet: fire is not possible, and says why
    why = {o.action.name: o.reason for o in enc.offers()}["fire"]
    assert why == "no ship can be chosen now: blue has no lock on brute; red has no lock on arrow; " \
                  "red has no lock on lance"
    enc.act("scan", side="blue", target="brute")
    enc.type_roll("6 6")
    assert "fire" in [a.name for a in enc.legal_actions()]
    fire = SKIRMISH.catalogue.get("fire")
    ships = SKIRMISH.param_choices(enc.state, "fire", fire.param("ship"), {})
    assert [c.value for c in ships] == ["arrow", "lance"]  # brute (red) has no lock on anyone
    targets = SKIRMISH.param_choices(enc.state, "fire", fire.param("target"), {"ship": "arrow"})
    assert [c.value for c in targets] == ["brute"]


def test_a_form_answer_is_judged_with_the_answers_before_it(enc: Encounter) -> None:
    to_fire_step(enc)
    value, why = SKIRMISH.check_answer(enc.state, "fire", "target", "brute", {"ship": "arrow"})
    assert (value, why) == ("brute", "blue has no lock on brute")


# --- roll continuations are registered by name and checked at import -----------------------------

def import_rules(tmp_path: Path, monkeypatch, package: str, source: str) -> None:
    """Import ``package.rules`` written from ``source`` (dedented), then forget it whatever happened."""
    pkg = tmp_path / package
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "rules.py").write_text(textwrap.dedent(source))
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        __import__(f"{package}.rules")
    finally:
        sys.modules.pop(package, None)
        sys.modules.pop(f"{package}.rules", None)


def test_an_unknown_continuation_fails_at_import(tmp_path: Path, monkeypatch) -> None:
    source = '''
        from engine.actions import Catalogue
        CATALOGUE = Catalogue("bad")

        @CATALOGUE.continuation("to_hit")
        def to_hit(state, result, tables, ctx):
            ctx.request_roll("Damage", "1D", then="damgae")

        CATALOGUE.seal("badrules")
    '''
    with pytest.raises(FlagbridgeError, match=r"badrules.rules line 7: then='damgae' is not a registered roll "
                                              r"continuation of bad \(known: to_hit\)"):
        import_rules(tmp_path, monkeypatch, "badrules", source)


def test_seal_reads_then_and_reply_as_whole_words_in_file_order(tmp_path: Path, monkeypatch) -> None:
    """A name ending in ``then`` or ``reply`` is not one; the first unknown name in the file is the one named."""
    source = '''
        from engine.actions import Catalogue
        CATALOGUE = Catalogue("words")
        no_then = "x"
        dict(if_then="nowhere", my_reply='nowhere')
        dict(reply="lost")
        dict(then = 'gone')
        CATALOGUE.seal("wordrules")
    '''
    with pytest.raises(FlagbridgeError, match=r"wordrules.rules line 6: reply='lost' is not a registered reply"):
        import_rules(tmp_path, monkeypatch, "wordrules", source)


def test_continuations_and_replies_are_registered_once() -> None:
    cat = Catalogue("twice")
    cat.continuation("x")(lambda *a: None)
    with pytest.raises(ValueError, match="registered twice"):
        cat.continuation("x")(lambda *a: None)
    with pytest.raises(ValueError, match="declared twice"):
        cat.add(Action("a", "A", lambda *a: None))
        cat.add(Action("a", "A", lambda *a: None))


# --- one ruleset calls another's procedure in the same fight ------------------------------------

def test_a_procedure_of_another_ruleset_shares_the_log_undo_and_save(enc: Encounter, tmp_path: Path) -> None:
    to_fire_step(enc)
    enc.act("board", person="vask", part="chest")
    req = enc.pending
    assert req.then == "test-melee:wound" and req.dice == "0.5:10sd+1"
    assert req.context["reply_to"] == ":boarded"
    group = req.group
    enc.type_roll("6")  # half of a 6, rounded up, plus 1 = 4
    assert enc.state["people"]["vask"]["body"]["chest"]["taken"] == 4
    assert enc.state["boarding_wounds"] == ["vask chest 4"]  # the skirmish's reply ran too
    assert {e.group for e in enc.events[-2:]} == {group}
    assert replay(enc.setup, enc.events, SKIRMISH) == enc.state
    save = create(tmp_path / "boarding.toml", enc)
    assert SaveFile.load(save.path).encounter.state == enc.state
    enc.undo()  # the boarding, its wound roll and the reply go together
    assert enc.state["people"]["vask"]["body"]["chest"]["taken"] == 0
    assert "boarding_wounds" not in enc.state


def test_a_ruleset_calls_only_the_rulesets_it_uses(enc: Encounter) -> None:
    from engine.ruleset import RuleContext

    ctx = RuleContext(1, host=SKIRMISH, state=enc.state)
    with pytest.raises(IllegalAction, match="does not use ruleset 'classic-hg'"):
        ctx.call("classic-hg", "anything", {})
    with pytest.raises(IllegalAction, match="test-melee has no procedure 'bite'"):
        ctx.call("test-melee", "bite", {})
