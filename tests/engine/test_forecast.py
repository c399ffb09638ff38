"""The forecast (issue 13): many simulated fights from a saved state, by each side's doctrine, through the
same rules as real play; reproducible for a seed whatever the number of workers; the save never written.

Small fight counts keep these quick; every number compared is produced twice, never sampled against a
hoped-for value.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.actions import filled_args
from engine.encounter import Encounter
from engine.errors import BadTable, IllegalAction
from engine.forecast import (FightResult, Forecast, Playout, fight_seed, forecast, load_doctrine,
                             play_fights, scenario_of)
from engine.saves import SaveFile
from engine.state import plain_copy
from tests.playouts import replay_record
from tests.skirmish import SKIRMISH, make_setup
from tui.cli import main

ROOT = Path(__file__).resolve().parents[2]
DEMOS = {"classic-hg": ROOT / "saves" / "demo-classic-hg.toml",
         "megatraveller": ROOT / "saves" / "demo-megatraveller.toml"}


@pytest.fixture(params=sorted(DEMOS))
def demo(request, tmp_path: Path) -> Path:
    path = tmp_path / f"{request.param}.toml"
    shutil.copyfile(DEMOS[request.param], path)
    return path


def test_a_fight_s_seed_comes_from_the_forecast_seed_and_its_index_alone() -> None:
    assert fight_seed(7, 3) == fight_seed(7, 3)
    assert len({fight_seed(7, i) for i in range(100)}) == 100
    assert fight_seed(7, 3) != fight_seed(8, 3)


def test_a_simulated_fight_is_real_play(demo: Path) -> None:
    """Every decision and roll of a playout, fed to a real Encounter (act, then the same faces typed),
    leaves the same state: the forecast plays by the rules code the console uses, nothing copied."""
    enc = SaveFile.load(demo).encounter
    scenario, _ = scenario_of(enc)
    rs = scenario.prepare()
    for index in range(2):
        play = Playout(rs, scenario.state, fight_seed(11, index), record=True)
        finished, _ = play.run(rs.commander(scenario.doctrines), turn_cap=6)
        real = replay_record(SaveFile.load(demo).encounter, play.record)
        assert real.state == play.state
        assert any(e[0] == "roll" for e in play.record)
    assert enc.state == SaveFile.load(demo).encounter.state  # the open encounter is untouched


def test_a_doctrine_that_offers_checked_values_gets_what_the_full_check_gives(demo: Path) -> None:
    """A commander with ``offers_checked`` has its choices judged by ``may`` alone; on every decision of
    these fights the full argument check (kinds, offers, ``may``) returns exactly the same arguments, so
    the cheaper check changes no fight."""
    enc = SaveFile.load(demo).encounter
    scenario, _ = scenario_of(enc)
    rs = scenario.prepare()
    compared = []

    class Both(Playout):
        def act(self, name: str, args: dict) -> None:
            if self.offers_checked:
                full = rs.check_action(self.state, name, args)
                assert filled_args(rs.catalogue.get(name), args) == full, (name, args)
                compared.append(name)
            super().act(name, args)

    for index in range(3):
        Both(rs, scenario.state, fight_seed(5, index)).run(rs.commander(scenario.doctrines), turn_cap=8)
    if getattr(rs.commander(scenario.doctrines), "offers_checked", False):
        assert {"fire", "next"} <= set(compared)
    with pytest.raises(IllegalAction, match="no parameter 'bogus'"):
        filled_args(rs.catalogue.get("next"), {"bogus": 1})


def test_one_worker_and_two_give_the_same_forecast(demo: Path) -> None:
    enc = SaveFile.load(demo).encounter
    one = forecast(enc, 6, 42, workers=1, turn_cap=8)
    two = forecast(enc, 6, 42, workers=2, turn_cap=8)
    assert one.fights == two.fights
    assert [f.index for f in two.fights] == list(range(6))


def test_fights_split_anywhere_are_the_same_fights() -> None:
    enc = SaveFile.load(DEMOS["classic-hg"]).encounter
    scenario, _ = scenario_of(enc)
    whole = play_fights(scenario, 0, 4, 9, turn_cap=8)
    parts = play_fights(scenario, 2, 4, 9, turn_cap=8) + play_fights(scenario, 0, 2, 9, turn_cap=8)
    assert sorted(parts, key=lambda f: f.index) == whole


def test_the_turn_cap_ends_a_fight_as_unfinished_with_no_winner() -> None:
    """The megatraveller demo starts at 8 squares with nothing located: no side can win in one round."""
    enc = SaveFile.load(DEMOS["megatraveller"]).encounter
    result = forecast(enc, 3, 1, workers=1, turn_cap=1)
    assert all(not f.finished and f.winner == "" and f.turns == 1 for f in result.fights)
    assert result.draw_chance() == 1.0


def test_a_doctrine_with_nothing_to_do_leaves_the_fight_unfinished(monkeypatch) -> None:
    class Idle:
        def decide(self, state):
            return None

    enc = SaveFile.load(DEMOS["classic-hg"]).encounter
    monkeypatch.setattr(type(enc.ruleset), "commander", lambda self, doctrines: Idle())
    result = forecast(enc, 2, 1, workers=1)
    assert [(f.finished, f.winner, f.turns) for f in result.fights] == [(False, "", 1), (False, "", 1)]


def test_what_a_forecast_says() -> None:
    fights = [FightResult(0, "a", True, 2, ("x",)), FightResult(1, "a", True, 4, ("x", "y")),
              FightResult(2, "b", True, 4, ("z",)), FightResult(3, "", False, 10, ("x", "z"))]
    fc = Forecast("r", 5, 10, {"a": "Alpha", "b": "Beta"}, {"a": "standard", "b": "cautious"},
                  {"x": ("X", "a"), "y": ("Y", "a"), "z": ("Z", "b")}, fights)
    assert (fc.win_chance("a"), fc.win_chance("b"), fc.draw_chance()) == (0.5, 0.25, 0.25)
    assert fc.expected_turns() == 5.0
    assert (fc.survival("x"), fc.survival("y"), fc.survival("z")) == (0.75, 0.25, 0.5)
    assert fc.lengths() == {2: 1, 4: 2, 10: 1}
    lines = fc.lines()
    assert "Alpha: wins 50.0% (doctrine standard)" in lines
    assert "no winner: 25.0% (1 unfinished at the turn cap or stuck)" in lines
    assert "expected turns: 5.00 (the saved turn counts as the first; an unfinished fight counts 10)" in lines
    assert "  Z (Beta): survives 50.0%" in lines


def test_doctrines_are_picked_per_side_and_checked(tmp_path: Path) -> None:
    enc = SaveFile.load(DEMOS["classic-hg"]).encounter
    result = forecast(enc, 1, 1, {"corsairs": "cautious"}, workers=1)
    assert result.doctrines == {"imperial": "standard", "corsairs": "cautious"}
    with pytest.raises(BadTable, match="no such side"):
        forecast(enc, 1, 1, {"pirates": "standard"}, workers=1)
    with pytest.raises(BadTable, match="has no such doctrine .known: aggressive, cautious, standard"):
        forecast(enc, 1, 1, {"corsairs": "reckless"}, workers=1)
    own = tmp_path / "mine.toml"
    own.write_text('[doctrine]\nruleset = "classic-hg"\nname = "mine"\n[orders]\nbreak_off_at_loss = 2.0\n')
    with pytest.raises(BadTable, match=r"mine.toml: orders: break_off_at_loss must be at most 1"):
        load_doctrine(enc.ruleset, str(own))
    own.write_text('[doctrine]\nruleset = "megatraveller"\n')
    with pytest.raises(BadTable, match="doctrine.ruleset: expected 'classic-hg'"):
        load_doctrine(enc.ruleset, str(own))
    own.write_text('[doctrine]\nruleset = "classic-hg"\nname = "mine"\n[orders]\nintercept = "none"\n')
    assert load_doctrine(enc.ruleset, str(own))[1]["intercept"] == "none"


def test_a_roll_the_save_waits_for_is_rolled_in_each_fight() -> None:
    enc = SaveFile.load(DEMOS["classic-hg"]).encounter
    enc.act("roll_initiative")
    waiting = plain_copy(enc.state)
    result = forecast(enc, 3, 1, workers=1)
    assert all(f.finished for f in result.fights)
    assert enc.state == waiting and enc.pending is not None  # the open fight still waits for its dice


def test_no_forecast_without_doctrines() -> None:
    plain = Encounter(make_setup(), SKIRMISH)
    with pytest.raises(BadTable, match="has no forecast"):
        forecast(plain, 1, 1, workers=1)


def won_by_the_imperials(path: Path | None = None):
    """The classic-hg demo played to its end: both corsairs withdrawn (a fight is over "when a side has no ship
    left in it"), saved to ``path`` when given."""
    from engine.saves import create

    enc = SaveFile.load(DEMOS["classic-hg"]).encounter
    enc.act("withdraw", ship="red-lantern", reason="disabled")
    enc.act("withdraw", ship="mary-oakes", reason="fled")
    if path is not None:
        create(path, enc)
    return enc


def test_a_fight_already_over_is_said_at_once_and_nothing_is_simulated(monkeypatch) -> None:
    """Every fight from a save where a side has won ends the same: the forecast says so, and no worker
    process is started and no fight played."""
    import engine.forecast as fc

    def never(*args, **kwargs):
        raise AssertionError("a fight that is over was simulated")

    monkeypatch.setattr(fc, "ProcessPoolExecutor", never)
    monkeypatch.setattr(fc, "play_fights", never)
    enc = won_by_the_imperials()
    assert fc.already_over(enc).winner == "imperial"
    result = forecast(enc, 1000, 1, workers=2)
    assert result.ended is not None and result.fights == []
    assert result.lines() == ["the fight is already over: Imperial Navy won (every fight from here ends the same; "
                              "none was simulated)"]
    with pytest.raises(BadTable, match="no such side"):  # what was asked is still checked
        forecast(enc, 1, 1, {"pirates": "standard"}, workers=1)


def test_a_fight_still_going_is_not_over() -> None:
    from engine.forecast import already_over

    enc = SaveFile.load(DEMOS["classic-hg"]).encounter
    assert already_over(enc) is None
    enc.act("withdraw", ship="red-lantern", reason="disabled")
    assert already_over(enc) is None


class TestCommandLine:
    """``flagbridge forecast``: the same answer twice for a seed on both demos, the file never written."""

    def test_same_answer_twice_and_the_save_unchanged(self, demo: Path, capsys) -> None:
        before = demo.read_bytes()
        outputs = []
        for _ in range(2):
            assert main(["forecast", str(demo), "--fights", "6", "--seed", "3", "--turns", "12"]) == 0
            outputs.append(capsys.readouterr().out)
        assert outputs[0] == outputs[1]
        assert "6 simulated fights, seed 3" in outputs[0] and "survives" in outputs[0]
        word = "rounds" if "megatraveller" in demo.name else "turns"  # megatraveller fights in rounds
        assert f"expected {word}:" in outputs[0] and f"at most 12 {word} each" in outputs[0]
        assert demo.read_bytes() == before

    def test_a_fight_already_over_says_who_won(self, tmp_path: Path, capsys, monkeypatch) -> None:
        import engine.forecast as fc

        monkeypatch.setattr(fc, "ProcessPoolExecutor", None)  # never started
        path = tmp_path / "won.toml"
        won_by_the_imperials(path)
        before = path.read_bytes()
        assert main(["forecast", str(path), "--fights", "1000"]) == 0
        out = capsys.readouterr().out.splitlines()
        assert out[0].startswith("Demo: ambush at Regina (classic-hg): Turn 1") and len(out) == 2
        assert out[1] == ("the fight is already over: Imperial Navy won (every fight from here ends the same; "
                          "none was simulated)")
        assert path.read_bytes() == before

    def test_a_bad_save_or_doctrine_is_one_line(self, tmp_path: Path, capsys) -> None:
        assert main(["forecast", str(tmp_path / "missing.toml")]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("flagbridge forecast: ")
        bad = tmp_path / "bad.toml"
        bad.write_text("[flagbridge]\nformat = 1\n")
        assert main(["forecast", str(bad)]) == 2
        assert capsys.readouterr().err.count("\n") == 1
        assert main(["forecast", str(DEMOS["classic-hg"]), "--doctrine", "corsairs"]) == 2
        assert "expected SIDE=NAME" in capsys.readouterr().err
        # one side given two doctrines (a CLI drive: the last was taken without a word)
        assert main(["forecast", str(DEMOS["classic-hg"]), "--doctrine", "corsairs=standard", "--doctrine",
                     "corsairs=cautious"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "corsairs is given two doctrines (standard, cautious): give one" in err

    @pytest.mark.parametrize("option, says", [(["--turns", "0"], "--turns: expected 1 or more, got 0"),
                                              (["--workers", "0"], "--workers: expected 1 or more, got 0"),
                                              (["--workers", "-2"], "--workers: expected 1 or more, got -2")])
    def test_a_turn_cap_or_worker_count_below_one_is_refused(self, option, says, capsys) -> None:
        """Found by a game master's drive: --turns 0 quietly meant 30 (while -1 was refused) and --workers -2 ran."""
        assert main(["forecast", str(DEMOS["classic-hg"]), "--fights", "2", *option]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and says in err


@pytest.mark.parametrize("fights, workers", [(1, 2), (5, 2), (1000, 2), (1000, 8), (77, 1)])
def test_the_spans_cover_every_fight_once_in_order_and_end_small(fights: int, workers: int) -> None:
    from engine.forecast import fight_spans

    spans = fight_spans(fights, workers)
    assert [i for a, b in spans for i in range(a, b)] == list(range(fights))
    assert all(b > a for a, b in spans)
    assert spans[-1][1] - spans[-1][0] <= 2 and max(b - a for a, b in spans) <= 50


@pytest.mark.parametrize("ruleset", ["classic-hg", "percentile"])
def test_a_doctrine_s_quick_progress_says_what_its_outcome_says(ruleset: str, monkeypatch) -> None:
    """``progress`` (over, turn) is asked before every decision of a fight instead of the whole outcome:
    on every state of a played fight it must agree with the outcome's own answer, or a forecast would end
    fights early or late."""
    enc = SaveFile.load(ROOT / "saves" / f"demo-{ruleset}.toml").encounter
    scenario, _ = scenario_of(enc)
    rs = scenario.prepare()
    module = rs._doctrine()
    assert hasattr(module, "progress")
    seen: list[tuple] = []
    quick = module.progress

    def watched(state: dict) -> tuple[bool, int]:
        out = rs.outcome(state)
        seen.append((quick(state), (out.over, out.turn)))
        return quick(state)

    monkeypatch.setattr(module, "progress", watched)
    for index in range(3):
        Playout(rs, scenario.state, fight_seed(5, index)).run(rs.commander(scenario.doctrines))
    assert len(seen) > 20 and any(expected[0] for _, expected in seen)
    assert all(got == expected for got, expected in seen)
