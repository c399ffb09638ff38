"""What the correction form lists (``tui.screens.correct.editable_values``): the selected unit's values, then the
fight's own, leaving out what belongs to other units (found by a game master's drive: a fleet tactics pool and a
side's sensor state could not be reached; with the fight's tables listed whole, a fleet's attacks buried them)."""

from __future__ import annotations

import shutil
from pathlib import Path

from engine.saves import SaveFile
from tests.demos import classic_hg_at_offensive_fire
from tui.screens.correct import editable_values

ROOT = Path(__file__).resolve().parents[2]


def listed(enc, unit_id: str) -> list[str]:
    keys = tuple(k.key for k in enc.ruleset.unit_kinds)
    return [path for path, _ in editable_values(enc.state, unit_id, "ships", keys)]


def test_an_attack_is_listed_with_the_ships_it_names_only(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    enc = classic_hg_at_offensive_fire(path)
    enc.act("fire", ship="swift-dolan", turrets=["T1"], target="red-lantern")
    enc.type_roll("12")
    assert "attacks[0].damage" in listed(enc, "swift-dolan") and "attacks[0].damage" in listed(enc, "red-lantern")
    assert not any(p.startswith("attacks") for p in listed(enc, "vigilant-reach"))
    assert not any(p.startswith("ships.red-lantern") for p in listed(enc, "swift-dolan"))
    assert {"turn", "step", "range"} <= set(listed(enc, "vigilant-reach"))


def test_a_pair_s_range_and_a_side_s_view_of_the_ship_are_listed_with_it() -> None:
    enc = SaveFile.load(ROOT / "saves" / "demo-megatraveller.toml").encounter
    corsair = listed(enc, "corsair")
    assert {"ranges.corsair|patrol", "ranges.corsair|scout", "fleet_tactics.imperial",
            "knowledge.imperial.corsair.state"} <= set(corsair)
    assert not any("courier" in p for p in corsair)


def test_every_side_order_entry_listed_takes_another_side(tmp_path: Path) -> None:
    """The form lists only values a correction can change: each entry of the order of sides takes the next side
    (the two swap places), in every ruleset (found by a game master's drive: each was always refused)."""
    from tests.demos import shipped_demos

    for ruleset_id, demo in shipped_demos().items():
        path = tmp_path / f"{ruleset_id}.toml"
        shutil.copyfile(demo, path)
        enc = SaveFile.load(path).encounter
        unit = next(uid for _kind, uid, _u in enc.ruleset.units(enc.state))
        order = enc.state["side_order"]
        entries = [p for p in listed(enc, unit) if p.startswith("side_order")]
        assert entries == [f"side_order[{i}]" for i in range(len(order))], ruleset_id
        for i, entry in enumerate(entries):
            enc.check_correction(entry, order[(i + 1) % len(order)])


def test_a_list_entry_with_an_id_is_named_by_it_too() -> None:
    """The panels say "B1-2" and "A1"; the form said batteries[1] and attacks[0] only, so a game master had to
    count to find the battery. The id rides along in the label (and so in the filter), the path stays the same."""
    from tui.screens.correct import label_of, with_entry_ids

    enc = SaveFile.load(ROOT / "saves" / "demo-megatraveller.toml").encounter
    state = enc.state
    assert with_entry_ids(state, "ships.patrol.batteries[1].factor") == "ships.patrol.batteries[1] (B1-2).factor"
    assert with_entry_ids(state, "side_order[0]") == "side_order[0]"  # a plain value has no id
    assert with_entry_ids(state, "ships.nobody.batteries[9].factor") == "ships.nobody.batteries[9].factor"
    label = label_of("ships.patrol.batteries[1].gunner_skill", -1, "ships", "patrol", "Vigilance", {}, state)
    assert label == "Vigilance: batteries[1] (B1-2).gunner skill = -1"


def test_the_filter_finds_a_value_by_its_path_as_the_log_writes_it() -> None:
    """The log writes a correction by its path (``ships.swift-dolan.fuel``); a helper typed that into the
    correction form's filter and found nothing, since only the words of each row were searched. A row is found
    by its words or its path, each word typed in either."""
    from tui.widgets.picker import Item, PickerState

    picker = PickerState([Item("ships.swift-dolan.fuel", "Swift Dolan: fuel"),
                          Item("ships.swift-dolan.sand", "Swift Dolan: sand canisters"),
                          Item("ships.кровавый-клинок.hits", "Кровавый Клинок: hits")])
    for typed, found in (("swift-dolan.fuel", ["ships.swift-dolan.fuel"]), ("dolan sand", ["ships.swift-dolan.sand"]),
                         ("кровавый-клинок", ["ships.кровавый-клинок.hits"]), ("КЛИНОК hits", ["ships.кровавый-клинок.hits"]),
                         ("canisters fuel", [])):
        picker.filter = typed
        assert [i.value for i in picker.shown] == found, typed


def test_the_list_words_values_as_the_log_does():
    """The correction list reads a value as the log does (``value_text``): true/false as the form takes them, not
    Python's True/False; text quoted as typed, brackets and all."""
    from tui.screens.correct import label_of

    assert label_of("ships.s.naval", True, "ships", "s", "Swift") == "Swift: naval = true"
    assert label_of("ships.s.armor_spaced", False, "ships", "s", "Swift") == "Swift: armor spaced = false"
    assert label_of("ships.s.side", "imperial", "ships", "s", "Swift") == "Swift: side = 'imperial'"
    assert label_of("ships.s.note", "[bold]x[/]", "ships", "s", "Swift") == "Swift: note = '[bold]x[/]'"
    assert label_of("ships.s.fuel", 30, "ships", "s", "Swift") == "Swift: fuel = 30"
