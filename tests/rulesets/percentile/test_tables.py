"""The tables the text names but does not print ship as complete TOML defaults, marked as ours, checked on
load and replaceable one by one (DESIGN.md "The game systems"; percentile-personal-combat.txt names Tables 3-1
to 3-7, the random hit table 3-3.4, 3-8 to 3-21, 3-15.x and the weapons data sheets)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from engine.errors import BadTable
from engine.files import load_table
from rulesets.percentile import RULESET
from rulesets.percentile.tables import TABLE_NAMES, TABLES_DIR

from .fights import answer, fight, person, to_action


@pytest.mark.parametrize("name", TABLE_NAMES)
def test_every_shipped_table_is_marked_ours_and_passes_its_checks(name: str) -> None:
    rs, got, data = load_table(TABLES_DIR / f"{name}.toml")
    assert rs.id == "percentile" and got == name
    assert data["table"]["shipped_default"] is True
    assert "percentile-personal-combat.txt" in data["table"]["note"] or "rules text" in data["table"]["note"]


def test_the_named_tables_are_all_there() -> None:
    ranges = tomllib.loads((TABLES_DIR / "ranges.toml").read_text())
    assert {"to_hit", "against", "damage"} <= set(ranges)  # Tables 3-1, 3-2, 3-3
    adversity = tomllib.loads((TABLES_DIR / "adversity.toml").read_text())
    assert [g["title"].split()[0] for g in adversity["groups"].values()] == ["3-7.0", "3-7.1", "3-7.2", "3-7.3",
                                                                           "3-7.4"]
    descriptions = tomllib.loads((TABLES_DIR / "descriptions.toml").read_text())
    assert sorted(t["table"] for t in descriptions["types"].values()) == sorted(f"3-{n}" for n in range(8, 15))
    wounds = tomllib.loads((TABLES_DIR / "wounds.toml").read_text())
    assert sorted(t["table"] for t in wounds["tables"].values()) == sorted(f"3-{n}" for n in range(16, 22))
    for t in descriptions["types"].values():
        assert len(t["rows"]) == 20  # "there are twenty categories of damage on all of the tables"


@pytest.mark.parametrize("old,new,message", [
    ('damage = "4+2"', 'damage = "4d6"', 'entries.auto_pistol.damage: expected a damage die roll'),
    ('kind = "weaponry"', 'kind = "magic"', "entries.auto_pistol.kind: expected one of"),
    ("dif = 55", "dif = 155", "entries.auto_pistol.dif: expected a whole number 0..100"),
    # what the dice layer cannot read must be refused here, not when the roll is asked for in a fight
    *[('damage = "4+2"', f'damage = "{bad}"', 'entries.auto_pistol.damage: expected a damage die roll')
      for bad in ("4+\u00b2", "1e1", "4_0", "0.00001", "101", "4+1234567", "\uff10.\uff15", "4+\u0663", "1.5")],
])
def test_a_bad_weapon_entry_is_refused_in_one_line(tmp_path: Path, old: str, new: str, message: str) -> None:
    _refused_weapon(tmp_path, "auto_pistol", old, new, message)


def test_a_hand_to_hand_attack_does_blade_or_bludgeon_damage_only(tmp_path: Path) -> None:
    """Hand to Hand: "Hand to Hand combat inflicts blade and bludgeon damage ... These are the only two types of
    damage that can be inflicted by Hand-To-Hand attacks" (a replacement table with a laser fist is refused)."""
    shipped = tomllib.loads((TABLES_DIR / "weapons.toml").read_text())["entries"]
    fist = next(w for w, e in shipped.items() if e["kind"] == "hand_to_hand" and e["damage_type"] == "bludgeon")
    _refused_weapon(tmp_path, fist, 'damage_type = "bludgeon"', 'damage_type = "laser"',
                    f"entries.{fist}.damage_type: a hand-to-hand attack does blade or bludgeon damage only, got 'laser'")


def test_a_thrown_weapon_is_weaponry_not_hand_to_hand(tmp_path: Path) -> None:
    """Weaponry Combat: "all projectiles, ranged weaponry and thrown weaponry fall into this category ... anything
    thrown (including of course beer bottles ...)": a knife marked thrown but fought hand to hand is refused."""
    _refused_weapon(tmp_path, "knife", 'ap = 10', 'ap = 10\nthrown = true',
                    'entries.knife.thrown: a thrown weapon is weaponry ("anything thrown" falls into Weaponry '
                    'Combat), not hand_to_hand')


def _refused_weapon(tmp_path: Path, weapon: str, old: str, new: str, message: str) -> None:
    text = (TABLES_DIR / "weapons.toml").read_text()
    start = text.index(f"[entries.{weapon}]")
    bad = tmp_path / "weapons.toml"
    bad.write_text(text[:start] + text[start:].replace(old, new, 1))
    with pytest.raises(BadTable) as caught:
        load_table(bad)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_a_hit_table_that_leaves_rolls_out_is_refused(tmp_path: Path) -> None:
    text = (TABLES_DIR / "races.toml").read_text()
    bad = tmp_path / "races.toml"
    bad.write_text(text.replace('id = "right_hind_leg", class = "leg", points = 14, hit = 100',
                                'id = "right_hind_leg", class = "leg", points = 14, hit = 97', 1))
    with pytest.raises(BadTable, match=r"races.aracnian.parts: the last part's hit must be 100"):
        load_table(bad)


def test_a_game_master_replaces_table_3_3(tmp_path: Path) -> None:
    """A house Table 3-3 doubles every damage; the fight reads it through setup.options.tables."""
    text = (TABLES_DIR / "ranges.toml").read_text()
    head, _, rest = text.partition("[damage]\n")
    rows = "".join(f'"{w}" = [{", ".join(str(w * 10) for _ in range(6))}]\n' for w in range(0, 21))
    house = tmp_path / "house-ranges.toml"
    house.write_text(head.replace("shipped_default = true", "shipped_default = false") + "[damage]\n" + rows)
    enc = fight({"ann": person("blue", "Ann", aim=90), "cid": person("red", "Cid")},
                tables={"ranges": str(house)})
    to_action(enc)
    enc.act("attack", person="ann", weapon="auto_pistol", target="cid", range=5, aim="chest")
    answer(enc, "Percent to hit", "1")
    assert enc.state["people"]["cid"]["body"]["chest"]["taken"] == 70  # WEP MOD 7 x 10


def test_a_person_file_is_a_unit_of_the_ruleset() -> None:
    from engine.files import kind_of

    files = RULESET.unit_library(RULESET.catalogue.unit_kinds["person"])
    assert all(kind_of(f) == "person" for f in files)


@pytest.mark.parametrize("new,message", [
    ('damage_type = ["blade", "bludgeon"]', ""),
    ('damage_type = ["blade", "laser"]', "a hand-to-hand attack does blade or bludgeon damage only, got 'laser'"),
    ('damage_type = ["blade", "blade"]', "entries.knife.damage_type: expected a damage type"),
    ("damage_type = []", "entries.knife.damage_type: expected a damage type"),
])
def test_a_weapon_may_do_more_than_one_damage_type(tmp_path: Path, new: str, message: str) -> None:
    """Weaponry Combat: "any attack may combine more than one type of damage depending on the weapon used"; Hand
    to Hand: "blade and bludgeon damage to the target either separately or simultaneously" (those two only). A
    weapon's damage_type is one type, or a list of different ones."""
    if not message:
        text = (TABLES_DIR / "weapons.toml").read_text().replace('damage_type = "blade"', new, 1)
        house = tmp_path / "weapons.toml"
        house.write_text(text)
        assert load_table(house)[2]["entries"]["knife"]["damage_type"] == ["blade", "bludgeon"]
        return
    _refused_weapon(tmp_path, "knife", 'damage_type = "blade"', new, message)
