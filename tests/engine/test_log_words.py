"""An action's log line names every argument in words, as its form asked it.

Found by a game master reading the log: a gothic launch read "launch vessel=Hammer of Thrace kinds=Boarding
torpedoes ...", each argument named by its parameter id, a word the form never shows. The line now names each
one by the question its form asked ("load Boarding torpedoes"), or by the short phrase the parameter declares
for the log when that question is long ("distance 5 cm"), each value in the words its choice offered. One rule
in the engine makes every ruleset's lines from the parameters' declared data; the shipped demos play it here.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.actions import Action, Catalogue, Param
from engine.encounter import Encounter
from engine.ruleset import Ruleset
from engine.saves import SaveFile, create
from tests.demos import classic_hg_at_offensive_fire, shipped_demos


def demo(ruleset: str, folder: Path) -> Encounter:
    path = folder / f"demo-{ruleset}.toml"
    shutil.copyfile(shipped_demos()[ruleset], path)
    return SaveFile.load(path).encounter


def reopened(enc: Encounter, folder: Path) -> list[str]:
    """The action lines of the fight saved and opened again (its words are found again on replay)."""
    path = folder / "again.toml"
    create(path, enc)
    again = SaveFile.load(path).encounter
    return [again.describe(ev) for ev in again.events if ev.kind == "action"]


def test_a_gothic_launch_reads_its_load_strength_target_and_distance(tmp_path: Path) -> None:
    enc = demo("gothic", tmp_path)
    distance = enc.act("set_distance", vessel="kessel", target="sword1", cm=30)
    for vessel, target, cm in (("hammer", "idolator", 15), ("hammer", "ironvow", 5), ("hammer", "kessel", 30),
                               ("hammer", "sat1", 30), ("idolator", "sword2", 15), ("ironvow", "sword1", 15),
                               ("ironvow", "sword2", 15), ("kessel", "sword2", 30), ("idolator", "sword1", 5),
                               ("sat1", "sword1", 30), ("sat1", "sword2", 30)):
        enc.act("set_distance", vessel=vessel, target=target, cm=cm)
    enc.act("next")
    launch = enc.act("launch", vessel="kessel", kinds=["boarding"], strength=4, target="sword1", distance=30)
    enc.act("next")
    move = enc.act("move_salvo", salvo="salvo-1", turn=0, distance=0)
    lines = ["set distance: ship or defence Kessel Platform · target Sword Vigil · distance 30 cm",
             "launch: ship or defence Kessel Platform · load Boarding torpedoes · salvo strength 4 · "
             "target Sword Vigil · distance 30 cm",
             "move salvo: salvo Boarding torpedoes 4 from Kessel Platform · turn first 0° · "
             "distance after the move 0 cm"]
    assert [enc.describe(ev) for ev in (distance, launch, move)] == lines
    assert set(lines) <= set(reopened(enc, tmp_path))


def test_a_classic_hg_fire_reads_its_turrets_target_and_warhead(tmp_path: Path) -> None:
    enc = classic_hg_at_offensive_fire(tmp_path / "fight.toml")
    several = enc.act("fire", ship="swift-dolan", turrets=["T1", "T2", "T3"], target="red-lantern")
    while enc.pending:
        enc.type_roll("2")  # every shot misses: the next one may be fired
    missile = enc.act("fire", ship="vigilant-reach", turrets=["T2"], target="red-lantern", warhead="he")
    lines = ["fire: ship Swift Dolan · turrets T1, T2 and T3 · target Red Lantern",
             "fire: ship Vigilant Reach · turrets T2 · target Red Lantern · warhead HE missile"]
    assert [enc.describe(ev) for ev in (several, missile)] == lines
    assert set(lines) <= set(reopened(enc, tmp_path))


def test_a_megatraveller_sensor_action_reads_each_choice(tmp_path: Path) -> None:
    enc = demo("megatraveller", tmp_path)
    locate = enc.act("locate", ship="patrol", target="corsair", mode="active", spend="B1-1", tactics=0, pool="ship")
    line = ("locate: ship Vigilance · target Red Lantern · sensors active · "
            "action spent gunnery action of B1-1 beam laser-4 · tactics points 0 · from the ship pool")
    assert enc.describe(locate) == line
    assert line in reopened(enc, tmp_path)


def test_a_percentile_action_reads_each_choice(tmp_path: Path) -> None:
    enc = demo("percentile", tmp_path)
    alert = enc.act("alertness", person="marr", value=40)
    poison = enc.act("poison", target="marr", part="chest", systems=["respiratory", "nervous_endocrine"], wep_mod=20)
    lines = ["alertness: person Sgt. Ilsa Marr · alertness 40%",
             "poison: person Sgt. Ilsa Marr · taken in through chest · "
             "organ systems it affects respiratory and nervous-endocrine · WEP MOD of the dose 20"]
    assert [enc.describe(ev) for ev in (alert, poison)] == lines
    assert set(lines) <= set(reopened(enc, tmp_path))


def test_a_side_is_named_by_its_name_not_its_id(tmp_path: Path) -> None:
    """A side chosen for an action reads as the table calls it ("Swift Dolan's marines"), not by the id the save
    keeps ("crew"), as every other chosen value reads in its words."""
    enc = demo("percentile", tmp_path)
    ev = enc.act("side_alertness", side="crew", value=40)
    line = "side alertness: side Swift Dolan's marines · alertness 40%"
    assert enc.describe(ev) == line
    assert line in reopened(enc, tmp_path)


# --- the rule itself, on parameters declared for it -------------------------------------------------------------

def _wording() -> Ruleset:
    catalogue = Catalogue("test-wording")
    catalogue.add(Action("signal", "Signal", lambda state, args, tables, ctx: None, params=(
        Param("ship", "Ship", "unit", unit="ship"),
        Param("flags", "Flags hoisted", "multi", optional=True, default=()),
        Param("code", "ICS code", "text", optional=True),
        Param("range", "Range in metres (0 = alongside)", "int", said="{} m away"),
        Param("reply", "Reply wanted", "choice", choices=("yes", "no"), said="reply"))))

    class Wording(Ruleset):
        id, name = "test-wording", "Wording"

        def new_state(self, setup):
            return {}

        def checklist(self, state):
            return []

    Wording.catalogue = catalogue
    return Wording()


@pytest.mark.parametrize(("args", "line"), [
    ({"ship": "Vigilant", "flags": ["K", "L", "M"], "code": "NC", "range": 400, "reply": "yes"},
     "signal: ship Vigilant · flags hoisted K, L and M · ICS code NC · 400 m away · reply yes"),
    ({"ship": "Vigilant", "flags": ["K", "L"], "range": 0, "reply": "no"},
     "signal: ship Vigilant · flags hoisted K and L · 0 m away · reply no"),
    ({"ship": "Vigilant", "flags": [], "code": "", "range": 5, "reply": "no"},  # nothing hoisted is said, "" not
     "signal: ship Vigilant · flags hoisted none · 5 m away · reply no"),
])
def test_each_argument_reads_by_its_label_or_the_phrase_it_declares(args: dict, line: str) -> None:
    """The label's first letter in lower case unless it opens an abbreviation ("ICS code"); a declared phrase with
    "{}" places the value in it; a list reads "a, b and c"."""
    assert _wording().describe_action("signal", args) == line


def test_an_argument_no_parameter_declares_reads_by_its_id() -> None:
    """A hand-edited log's stray argument is refused on replay; until then its line shows it as written."""
    assert _wording().describe_action("signal", {"ship": "Vigilant", "colour": "red"}) == \
        "signal: ship Vigilant · colour red"
