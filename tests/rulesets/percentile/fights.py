"""Small percentile fights for tests: two or three sides of people, procedures chosen per test.

Every roll is typed (fixed dice); ``answer`` (from ``tests.rulesets.scripted``)
checks the roll the fight waits for is the one the script expects.
"""

from __future__ import annotations

from datetime import datetime, timezone

from engine.encounter import Encounter
from engine.setup import Setup
from rulesets.percentile import RULESET
from tests.rulesets.scripted import answer, refused  # noqa: F401  (re-exported for the tests)

TEXT = "percentile-personal-combat.txt"


def person(side: str, name: str, **over) -> dict:
    base = {"side": side, "name": name, "race": "human", "perception": 50, "aim": 50, "brawl": 50,
            "strength": 50, "alertness": 50, "agility": 0, "weapons": ["auto_pistol", "knife", "frag_grenade"]}
    return {**base, **over}


def fight(people: dict | None = None, sides: list | None = None, **options) -> Encounter:
    """Humans ``ann`` and ``ben`` (blue) against ``cid`` (red) unless ``people`` says otherwise."""
    opts = {"surprise": 0, "primary": 1, "to_hit": 1, "damage": 3, "subturns": 1, **options}
    setup = Setup(
        ruleset="percentile", name="Test brawl",
        sides=sides or [{"id": "blue", "name": "Blue"}, {"id": "red", "name": "Red"}],
        units={"people": people or {"ann": person("blue", "Ann"), "ben": person("blue", "Ben"),
                                    "cid": person("red", "Cid")}},
        options=opts, seed=5, created=datetime(2026, 11, 30, 12, 0, tzinfo=timezone.utc))
    return Encounter(setup, RULESET)


def to_action(enc: Encounter, blue: str = "10", red: str = "20") -> None:
    """Roll primary attack (blue first by default) and stand in the players' action step."""
    enc.act("primary")
    answer(enc, "Primary attack: Blue", blue)
    answer(enc, "Primary attack: Red", red)
    assert enc.state["step"] == "action"


def deep_wound() -> Encounter:
    """Damage procedure (1): Ann's auto pistol gives Cid a deep wound in the chest, 50% of its 30 points (15)."""
    enc = fight({"ann": person("blue", "Ann", aim=65), "cid": person("red", "Cid")}, damage=1)
    to_action(enc)
    enc.act("attack", person="ann", weapon="auto_pistol", target="cid", range=5, aim="chest")
    answer(enc, "Percent to hit", "10")
    answer(enc, "Damage: Table 3-18 (projectile)", "5")  # deep wound, serious, 50% (ours)
    answer(enc, "Severity (serious) for Cid", "6")
    return enc


def notes(enc: Encounter, last: int = 6) -> list[str]:
    return [n for e in enc.events[-last:] for n in e.notes]
