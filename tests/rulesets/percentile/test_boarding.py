"""The shipped boarding demo played by the book with fixed dice: surprise, a shot that kills, primary attack,
a grenade that bounces, a late side placed in the order, a reply in the same round; saved halfway, loaded
and finished, it ends where the whole script does (percentile-personal-combat.txt, COMBAT - STEP BY STEP)."""

from __future__ import annotations

from pathlib import Path

from engine.saves import SaveFile
from rulesets.percentile import RULESET
from tests.rulesets.scripted import saved_and_continued

from .fights import answer

DEMO = Path(__file__).resolve().parents[3] / "saves" / "demo-percentile.toml"


def demo(tmp_path: Path):
    copy = tmp_path / "demo.toml"
    copy.write_bytes(DEMO.read_bytes())
    return SaveFile.load(copy).encounter


def surprise(enc) -> None:
    enc.act("surprise")
    # procedure 2: the side's average Perception (62, 55, 52: 56) with its Alertness 60
    answer(enc, "Surprise: Swift Dolan's marines rolls under 58", "10")
    answer(enc, "Surprise: Aracnian boarders rolls under 49", "90")  # (58 + 40) / 2


def sergeant_kills(enc) -> None:
    enc.act("attack", person="marr", weapon="auto_pistol", target="skarr", range=8, aim="head")
    answer(enc, "Percent to hit", "5", target="59-")  # 55 under 60: direct
    answer(enc, "Damage: auto pistol 4+2", "28")  # 30, grazed 30 x 55/60 = 27.5 -> 28
    assert enc.state["people"]["skarr"]["dead"]


def round_one_ends(enc) -> None:
    for _ in range(5):  # the marines alone, sub-turns 1 to 5
        enc.act("next")
    assert enc.state["step"] == "primary" and enc.state["round"] == 2


def primary(enc) -> None:
    enc.act("primary")
    answer(enc, "Primary attack: Swift Dolan's marines", "30")
    answer(enc, "Primary attack: Aracnian boarders", "50")
    assert enc.state["round_order"] == ["crew", "raiders"]


def grenade(enc) -> None:
    enc.act("borrow", person="marr", points=3)  # 11 points in sub-turn 1; the grenade costs 12
    enc.act("attack", person="marr", weapon="frag_grenade", target="tchik", range=10, aim="chest")
    answer(enc, "Grenade: Sgt. Ilsa Marr throws", "75", target="64-")  # 10 over Brawl 65: bounces
    answer(enc, "Grenade bounce", "4")  # 2 bounces of 2 m
    answer(enc, "towards which hex side", "2")
    answer(enc, "Random hit location on Tchik-Ahn", "30")  # chest
    answer(enc, "Damage: fragmentation grenade 6", "30")
    assert enc.state["people"]["tchik"]["body"]["chest"]["taken"] == 30


def salvagers_join(enc) -> None:
    joined = enc.act("join", side="salvagers")
    assert enc.describe(joined) == "join: side Eebek salvagers"  # the side's name, as the form offers it
    answer(enc, "Primary attack: Eebek salvagers", "40")
    assert enc.state["order"] == ["crew", "salvagers", "raiders"]
    assert enc.state["round_order"] == ["crew", "salvagers", "raiders"]


def tchik_replies(enc) -> None:
    enc.act("next")
    enc.act("next")
    assert enc.state["round_order"][enc.state["acting"]] == "raiders"
    enc.act("attack", person="tchik", weapon="laser_rifle", target="keller", range=8, aim="chest")
    answer(enc, "Percent to hit", "10", target="54-")  # (56 + 60) / 2 = 58, short range on row 55: 55
    answer(enc, "Damage: laser rifle 5+2", "25")  # 27, grazed 27 x 45/55 = 22.1 -> 22
    assert enc.state["people"]["keller"]["body"]["chest"]["taken"] == 22


SCRIPT = [surprise, sergeant_kills, round_one_ends, primary, grenade, salvagers_join, tchik_replies]


def test_the_boarding_demo_by_the_book(tmp_path: Path) -> None:
    enc = demo(tmp_path)
    for step in SCRIPT:
        step(enc)
    outcome = RULESET.outcome(enc.state)  # the forecast's reading of the same state (doctrine.outcome)
    assert not outcome.over and outcome.survived["skarr"] is False


def test_saved_halfway_and_finished_ends_alike(tmp_path: Path) -> None:
    saved_and_continued(lambda: demo(tmp_path), SCRIPT, 3, tmp_path)
