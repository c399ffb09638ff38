"""What must hold in every registered ruleset, played as the console offers it.

DESIGN.md "Rulesets: one contract": the console offers exactly what ``may``
allows, and the rules accept it; the event log is the only way state changes,
so a replay equals the live state, undoing everything returns to the setup, and
a save loads to the same fight.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.encounter import Encounter, replay
from engine.ruleset import available, find_ruleset
from engine.saves import SaveFile
from engine.state import plain_copy
from tests.console_play import play
from tests.skirmish import make_setup

SHIPPED = [rid for rid in available() if not rid.startswith("test-")]
SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                           HealthCheck.function_scoped_fixture])


def fight(ruleset_id: str, tmp_path: Path) -> SaveFile:
    """A fresh copy of the ruleset's demo (the test ruleset's duel for the test ruleset)."""
    if ruleset_id == "test-skirmish":
        from engine.saves import create

        return create(tmp_path / "skirmish.toml", Encounter(make_setup()))
    demo = find_ruleset(ruleset_id).demo_save()
    copy = tmp_path / demo.name
    copy.write_bytes(demo.read_bytes())
    return SaveFile.load(copy)


def test_both_shipped_rulesets_are_registered() -> None:
    assert {"classic-hg", "megatraveller"} <= set(SHIPPED)


@pytest.mark.parametrize("ruleset_id", SHIPPED + ["test-skirmish"])
@SETTINGS
@given(seed=st.integers(0, 2**31))
def test_console_offers_are_accepted_and_the_log_makes_the_state(ruleset_id: str, seed: int, tmp_path: Path) -> None:
    save = fight(ruleset_id, tmp_path)
    enc = save.encounter
    start = plain_copy(enc.state)
    rng = random.Random(seed)
    play(enc, rng, 120)
    # replaying the log gives the live state
    assert replay(enc.setup, enc.events, enc.ruleset) == enc.state
    # a save loads to the same fight
    save.save()
    assert SaveFile.load(save.path).encounter.state == enc.state
    # undoing everything returns to the setup's state
    while enc.undo():
        pass
    assert enc.state == start


@pytest.mark.parametrize("ruleset_id", SHIPPED)
def test_a_long_fight_never_offers_what_it_refuses(ruleset_id: str, tmp_path: Path) -> None:
    for seed in range(3):
        folder = tmp_path / str(seed)
        folder.mkdir()
        enc = fight(ruleset_id, folder).encounter
        taken = play(enc, random.Random(seed), 400, undo_rate=0.02)
        assert taken > 20


def _label_words(label: str) -> str:
    """What a form's label names a choice by, before what it adds about the moment: 'HE missile · 8+' is 'HE
    missile', 'Imperial Navy (has the initiative)' is 'Imperial Navy'."""
    return label.split(" · ")[0].split(" (")[0]


@pytest.mark.parametrize("ruleset_id", SHIPPED)
def test_an_action_line_names_each_choice_as_its_form_offered_it(ruleset_id: str, tmp_path: Path,
                                                                  monkeypatch) -> None:
    """Found by a game master: the log read "order=all_ahead_full", an id the form never showed ("All Ahead Full").
    Every choice an action's form offered reads in the action's log line by the words its label gave it, unless
    the label shows the value itself first ("T1 beam laser x3 · 8+"); a unit reads by its name."""
    enc = fight(ruleset_id, tmp_path).encounter
    rs = enc.ruleset
    offered: dict[str, dict[str, str]] = {}
    asked = rs.param_choices

    def choices(state, action, param, args):
        found = asked(state, action, param, args)
        if found:
            offered[param.name] = {c.value: c.label for c in found}
        return found

    monkeypatch.setattr(rs, "param_choices", choices)
    act, worded = enc.act, set()

    def checked_act(name: str, **args):
        ev = act(name, **args)
        line = enc.describe(ev)
        for p in rs.catalogue.get(name).params:
            if p.kind not in ("choice", "multi") or p.name not in args:
                continue
            for value in args[p.name] if isinstance(args[p.name], list) else [args[p.name]]:
                label = offered.get(p.name, {}).get(value)
                if label is None or value == "" or any(value in enc.state.get(k.key, {}) for k in rs.unit_kinds):
                    continue
                if label == value or label.startswith(value + " "):
                    assert value in line, f"{name}.{p.name}: {value!r} is not in {line!r}"
                    continue
                words = _label_words(label)
                assert words in line and f"{p.name}={value}" not in line, \
                    f"{name}.{p.name}={value!r}: the form offered {label!r}, the log reads {line!r}"
                worded.add(f"{name}.{p.name}")
        offered.clear()
        return ev

    monkeypatch.setattr(enc, "act", checked_act)
    for seed in range(4):
        play(enc, random.Random(seed), 300, undo_rate=0.02)
    assert worded, "no choice needed its words: the test saw nothing"


@pytest.mark.parametrize("ruleset_id", SHIPPED)
def test_an_action_line_names_each_argument_as_its_form_asked_it(ruleset_id: str, tmp_path: Path,
                                                                monkeypatch) -> None:
    """Found by a game master: a gothic launch read "kinds=Boarding torpedoes", the parameter's id where the form
    asked "Load". In every line the engine makes (a ruleset may word an action its own way, as percentile's
    attack does), each argument given reads by its form's question or the phrase its parameter declares for the
    log (``engine.actions.said``), and no argument reads as ``id=value``."""
    from engine.actions import said
    from engine.ruleset import Ruleset

    enc = fight(ruleset_id, tmp_path).encounter
    rs = enc.ruleset
    act, phrased = enc.act, set()

    def checked_act(name: str, **args):
        ev = act(name, **args)
        line = enc.describe(ev)
        given = [p for p in rs.catalogue.get(name).params if args.get(p.name, "") not in ("", None)]
        assert not any(f"{p.name}=" in line for p in given), line
        plain = {**ev.data["args"], **(ev.words or {})}
        if rs.describe_action(name, plain) == Ruleset.describe_action(rs, name, plain):  # the engine's line
            for p in given:
                phrase = said(p).split("{}")
                assert all(part.strip() in line for part in phrase), f"{name}.{p.name}: {phrase} not in {line!r}"
                phrased.add(f"{name}.{p.name}")
        return ev

    monkeypatch.setattr(enc, "act", checked_act)
    for seed in range(2):
        play(enc, random.Random(seed), 300, undo_rate=0.02)
    assert phrased, "no action with arguments was taken: the test saw nothing"
