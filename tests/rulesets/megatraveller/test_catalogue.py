"""The megatraveller catalogue: what the console offers is exactly what the rules accept.

Random legal play (built-in dice) through the choices ``param_choices`` offers:
every action offered can be completed from the choices offered and is then
accepted; every action not offered is refused, with a reason in the game
master's words. Then the reasons themselves, one rule at a time.
"""

from __future__ import annotations

import copy
import random
import shutil
from pathlib import Path

import pytest

from engine.actions import Action, candidates
from engine.encounter import Encounter
from engine.errors import IllegalAction
from engine.ruleset import RuleContext
from engine.saves import SaveFile
from rulesets.megatraveller import RULESET
from tests.rulesets.megatraveller.engagement import make_setup, new_engagement

DEMO = Path(__file__).parents[3] / "saves" / "demo-megatraveller.toml"
STEPS = 250


def demo_setup(tmp_path: Path):
    path = tmp_path / "demo.toml"
    shutil.copyfile(DEMO, path)
    return SaveFile.load(path).encounter.setup


def typed_value(state: dict, action: Action, index: int, args: dict, rng: random.Random) -> int | None:
    """A number to type for an int asked as text: one ``may`` accepts and the rest of the form can follow."""
    p = action.params[index]
    low = p.minimum or 0
    tries = [rng.randint(low, low + span) for span in (3, 12, 120) for _ in range(3)]
    tries = [v for v in tries if p.maximum is None or v <= p.maximum]
    if p.optional:
        tries.append(p.default)
    asker = RULESET.asker(state)
    for value in tries:
        done = {**args, p.name: value}
        if not action.may(state, done, asker.tables) and asker.completable(action, done, index + 1):
            return value
    return None


def complete(enc: Encounter, action: Action, rng: random.Random) -> dict:
    """Fill the action's form from what the ruleset offers, as the console would."""
    args: dict = {}
    for i, p in enumerate(action.params):
        offered = RULESET.param_choices(enc.state, action.name, p.name, args)
        if offered is None:
            value = typed_value(enc.state, action, i, args, rng)
            assert value is not None, f"{action.name}.{p.name}: no number can be typed after {args}"
            args[p.name] = value
        elif not offered:
            assert p.optional, f"{action.name}.{p.name}: nothing offered after {args}, and it is needed"
        elif p.kind == "multi":
            args[p.name] = [c.value for c in rng.sample(offered, rng.randint(1, len(offered)))]
        else:
            args[p.name] = rng.choice(offered).value
    return args


def any_args(enc: Encounter, action: Action, rng: random.Random) -> dict:
    """Arguments of the right kinds, ignoring the rules (for actions that are not offered)."""
    args: dict = {}
    tables = RULESET.tables_for(enc.state)
    for p in action.params:
        if p.typed:
            args[p.name] = p.default if p.optional else (p.minimum or 0)
            continue
        found = candidates(RULESET.catalogue, enc.state, action, p, args, tables, RULESET.side_ids(enc.state))
        if found:
            args[p.name] = [rng.choice(found).value] if p.kind == "multi" else rng.choice(found).value
    return args


def check_step(enc: Encounter, rng: random.Random) -> list[tuple[str, dict]]:
    """Every offered action completes and is accepted; every other one is refused with a reason."""
    legal = {a.name for a in enc.legal_actions()}
    offers = enc.offers()
    assert {o.action.name for o in offers if o.possible} == legal
    assert "next" in legal
    ready = []
    for offer in offers:
        action = offer.action
        if offer.possible:
            args = complete(enc, action, rng)
            RULESET.check_action(enc.state, action.name, args)  # accepted, and the handler runs cleanly
            RULESET.apply_action(copy.deepcopy(enc.state), action.name, args, RuleContext(0))
            ready.append((action.name, args))
        else:
            assert offer.reason.strip(), f"{action.name} is not possible and says nothing"
            with pytest.raises(IllegalAction):
                enc.act(action.name, **any_args(enc, action, rng))
    return ready


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("where", ["engagement", "demo"])
def test_random_play_takes_only_what_is_offered_and_everything_offered_is_taken(
        seed: int, where: str, tmp_path: Path) -> None:
    rng = random.Random(seed)
    setup = make_setup() if where == "engagement" else demo_setup(tmp_path)
    enc = Encounter(setup, RULESET)
    taken: set[str] = set()
    for _ in range(STEPS):
        ready = check_step(enc, rng)
        name, args = rng.choice(ready)
        enc.act(name, **args)
        taken.add(name)
        while enc.pending is not None:
            enc.roll()
    assert {"locate", "lock", "fire", "set_range", "set_sight", "next"} <= taken


# --- the reasons, one rule at a time ---------------------------------------------------------

def reason(enc: Encounter, name: str) -> str:
    return next(o.reason for o in enc.offers() if o.action.name == name)


def test_no_lock_no_fire() -> None:
    """"You must have a lock to fire": nothing locked, fire is not offered and says why."""
    enc = new_engagement()
    enc.act("next")
    assert "fire" not in {a.name for a in enc.legal_actions()}
    assert "no lock, no fire" in reason(enc, "fire")
    with pytest.raises(IllegalAction, match="no lock, no fire"):
        enc.act("fire", ship="lancer", target="raider", batteries=["B1-1"])


def test_sensor_actions_only_in_step_1() -> None:
    enc = new_engagement()
    enc.act("next")
    assert reason(enc, "locate") == reason(enc, "lock") == "sensor actions are taken in step 1, Sensors"
    with pytest.raises(IllegalAction, match="step 1, Sensors"):
        enc.act("locate", ship="lancer", target="raider", mode="passive", spend="free")


def test_lock_needs_a_located_target() -> None:
    enc = new_engagement()
    assert "must be located before a lock" in reason(enc, "lock")
    assert RULESET.param_choices(enc.state, "lock", "ship", {}) == []


def test_locate_offers_only_detected_targets_in_reach() -> None:
    """Locate takes a detected target; passive or active as the ship's sensors reach the band."""
    enc = new_engagement()
    targets = RULESET.param_choices(enc.state, "locate", "target", {"ship": "lancer"})
    assert {c.value for c in targets} == {"raider", "hulk", "skiff", "shadow"}
    assert targets[0].label == "Corsair-1 (5 squares, far)"
    enc.act("set_range", ship="lancer", target="raider", squares=20)  # Extreme: Lancer's sensors reach Far
    assert "raider" not in {c.value for c in RULESET.param_choices(enc.state, "locate", "target", {"ship": "lancer"})}
    with pytest.raises(IllegalAction, match="no PassObjScan sensor reaching Corsair-1 at extreme range"):
        enc.act("locate", ship="lancer", target="raider", mode="passive", spend="free")
    enc.correct("knowledge.imp.hulk.state", "located", note="test: as after a locate")
    with pytest.raises(IllegalAction, match="Hulk is already located by Imperial"):
        enc.act("locate", ship="lancer", target="hulk", mode="passive", spend="free", tactics=0)


def test_sensors_shut_down() -> None:
    enc = new_engagement()
    state = copy.deepcopy(enc.state)
    state["ships"]["lancer"]["shut_down"].append("sensors")
    with pytest.raises(IllegalAction, match="Lancer's sensors are shut down"):
        RULESET.check_action(state, "locate", {"ship": "lancer", "target": "raider"})
    assert "lancer" not in {c.value for c in RULESET.param_choices(state, "locate", "ship", {})}


def test_spend_the_free_action_or_an_unused_battery() -> None:
    """"A ship gets 1 free sensor action each round"; "Gunnery actions can be used for extra sensor actions"."""
    enc = new_engagement()
    picket = {"ship": "picket", "target": "raider", "mode": "passive"}
    assert [c.value for c in RULESET.param_choices(enc.state, "locate", "spend", picket)] == ["free", "B1"]
    enc.act("locate", spend="free", **picket)
    enc.roll()
    assert [c.value for c in RULESET.param_choices(enc.state, "locate", "spend", picket)] == ["B1"]
    enc.act("locate", spend="B1", **picket)
    enc.roll()
    assert "picket" not in {c.value for c in RULESET.param_choices(enc.state, "locate", "ship", {})}
    with pytest.raises(IllegalAction, match="Picket has no sensor action left this round"):
        enc.act("locate", spend="B1", **picket)


def test_a_pool_of_one_point_reads_in_the_singular() -> None:
    """The pool choices and the refusal name what a pool holds in the game master's words: "1 point"."""
    enc = new_engagement()
    enc.correct("ships.lancer.tactics", 1, note="test: one point left")
    form = {"ship": "lancer", "target": "raider", "mode": "passive", "spend": "free"}
    pools = RULESET.param_choices(enc.state, "locate", "pool", {**form, "tactics": 1})
    assert [c.label for c in pools] == ["ship pool (1 point)", "fleet pool (2 points)"]
    with pytest.raises(IllegalAction, match=r"ship pool has 1 point, asked for 2"):
        RULESET.check_action(enc.state, "locate", {**form, "tactics": 2, "pool": "ship"})


def test_points_more_than_either_pool_holds_are_refused_saying_one_pool_pays() -> None:
    """Found by a game master's drive: with 2 points in the ship's pool and 2 in the fleet's, 4 points were refused
    as "ship pool has 2 points and the fleet pool 2, asked for 4", which reads as if 4 were there to spend.
    The text spends "from the ship's pool or the fleet pool" (our reading, in ``tactics``: one pool pays)."""
    enc = new_engagement()
    form = {"ship": "lancer", "target": "raider", "mode": "passive", "spend": "free"}
    _value, why = RULESET.check_answer(enc.state, "locate", "tactics", 4, form)  # as the form judges it
    assert "one pool pays" in why and "at most 2 points" in why and "fleet pool 2 points" in why, why


def test_tactics_points_are_typed_and_the_pool_asked_only_when_spent() -> None:
    """Tactics points spent "BEFORE ROLLING": no more than the pool holds."""
    enc = new_engagement()
    form = {"ship": "lancer", "target": "raider", "mode": "passive", "spend": "free"}
    assert RULESET.param_choices(enc.state, "locate", "tactics", form) is None  # typed
    assert RULESET.param_choices(enc.state, "locate", "pool", {**form, "tactics": 0}) == []
    pools = RULESET.param_choices(enc.state, "locate", "pool", {**form, "tactics": 2})
    assert [(c.value, c.label) for c in pools] == [("ship", "ship pool (2 points)"), ("fleet", "fleet pool (2 points)")]
    with pytest.raises(IllegalAction, match="ship pool has 2 points, asked for 3"):  # the pool left: the ship's
        RULESET.check_action(enc.state, "locate", {**form, "tactics": 3})
    with pytest.raises(IllegalAction, match="at least 0"):
        RULESET.check_action(enc.state, "locate", {**form, "tactics": -1})
    enc.act("locate", tactics="2", pool="fleet", **form)  # as old logs hold it: a number in text
    assert enc.state["fleet_tactics"]["imp"] == 0
    enc.roll()
    assert [c.value for c in RULESET.param_choices(enc.state, "locate", "pool", {
        "ship": "lancer", "target": "skiff", "mode": "passive", "spend": "B1-1", "tactics": 1})] == ["ship"]


def test_fire_offers_batteries_bearing_unused_and_in_reach() -> None:
    enc = new_engagement()
    enc.correct("knowledge.imp.raider.state", "locked", note="test: as after a lock")
    enc.correct("ships.lancer.batteries[0].used", "sensors")
    enc.correct("ships.lancer.batteries[1].bearing", False)
    enc.act("next")
    offered = {c.value for c in RULESET.param_choices(enc.state, "fire", "batteries",
                                                       {"ship": "lancer", "target": "raider"})}
    assert "B1-1" not in offered and "B1-2" not in offered  # used; not bearing
    assert "B3" not in offered and "B6" not in offered  # plasma gun and tractor: "N/A" at Far
    assert {"B1-3", "B2", "B4", "B5", "B7", "B8"} <= offered
    with pytest.raises(IllegalAction, match="B1-2 is not bearing"):
        enc.act("fire", ship="lancer", target="raider", batteries=["B1-2"])
    assert RULESET.param_choices(enc.state, "fire", "aim", {"ship": "lancer", "target": "raider",
                                                            "batteries": ["B1-3"]}) == []  # not at Visual
    enc.act("set_range", ship="lancer", target="raider", squares=1)
    aims = RULESET.param_choices(enc.state, "fire", "aim", {"ship": "lancer", "target": "raider",
                                                            "batteries": ["B1-3"]})
    assert aims[0].value == "" and "fuel" in {c.value for c in aims}


def test_line_of_sight_blocked_no_shot() -> None:
    enc = new_engagement()
    enc.correct("knowledge.imp.raider.state", "locked", note="test: as after a lock")
    enc.act("next")
    enc.act("set_sight", ship="picket", target="raider", sight="blocked")
    assert {c.value for c in RULESET.param_choices(enc.state, "fire", "ship", {})} == {"lancer"}
    with pytest.raises(IllegalAction, match="line of sight from Picket to Corsair-1 is blocked"):
        enc.act("fire", ship="picket", target="raider", batteries=["B1"])
    assert "raider" not in {c.value for c in RULESET.param_choices(enc.state, "fire", "target", {"ship": "picket"})}


def test_range_is_whole_squares_within_reason() -> None:
    enc = new_engagement()
    with pytest.raises(IllegalAction, match="at most 100000"):
        enc.act("set_range", ship="lancer", target="raider", squares=10**9)
    with pytest.raises(IllegalAction, match="at least 0"):
        enc.act("set_range", ship="lancer", target="raider", squares=-1)
    with pytest.raises(IllegalAction, match="own side"):
        enc.act("set_range", ship="lancer", target="picket", squares=3)
    assert RULESET.param_choices(enc.state, "set_range", "squares", {"ship": "lancer", "target": "raider"}) is None


def test_an_unknown_battery_is_refused_in_words() -> None:
    """The engine asks ``may`` for the words of a refusal with the value it refuses: an id that names no
    battery must get a reason, not a crash."""
    enc = new_engagement()
    with pytest.raises(IllegalAction, match="Lancer has no battery 'B99'"):
        enc.act("locate", ship="lancer", target="raider", mode="passive", spend="B99")
    enc.correct("knowledge.imp.raider.state", "locked", note="test: as after a lock")
    enc.act("next")
    with pytest.raises(IllegalAction, match="Lancer has no battery 'B99'"):
        enc.act("fire", ship="lancer", target="raider", batteries=["B99"])


def test_a_ship_moved_to_another_side_by_hand_has_a_range_to_its_new_enemies() -> None:
    """A correction of a ship's side: every new pair of enemies gets the default range (10 squares), so
    every form that names the range can still be shown."""
    enc = new_engagement()
    enc.correct("ships.picket.side", "cor", note="test: the Picket defects")
    targets = RULESET.param_choices(enc.state, "set_range", "target", {"ship": "picket"})
    assert [(c.value, c.label) for c in targets] == [("lancer", "Lancer (10 squares, far)")]
    assert enc.state["knowledge"]["imp"]["picket"]["state"] == "detected"
