"""Unit tests of single megatraveller rules, each citing ``megatraveller-sensors-fire.txt``."""

from __future__ import annotations

import pytest

from engine.errors import BadTable, IllegalAction
from engine.files import load_ship
from engine.ruleset import RuleContext, register
from rulesets.megatraveller import RULESET
from rulesets.megatraveller import damage, sensors, turn
from rulesets.megatraveller.tables import check_table, critical_distribution, load_tables
from tests.rulesets.megatraveller.engagement import new_engagement

TABLES = load_tables()


def test_range_bands() -> None:
    """"Visual = 1 space (but should be same space - errata item) / Near = 2 spaces / Far 3-10 spaces /
    Extreme 11-100 spaces"."""
    state = new_engagement().state
    assert [turn.band_of(state, n) for n in (0, 1, 2, 3, 10, 11, 100, 101)] == [
        "visual", "visual", "near", "far", "far", "extreme", "extreme", ""]
    errata = new_engagement(visual_same_square=True).state
    assert [turn.band_of(errata, n) for n in (0, 1, 2)] == ["visual", "near", "near"]


def test_locate_tiers() -> None:
    """megatraveller-sensors-fire.txt lines 16-20: "Fumble (failed by >2, or failed with nat 2)"; "Fail by 1:
    Strong and/or Large"; "Made by 0 to 1: ... Moderate/Medium"; "Made by 2+: ... weak/small"; "Made by 4+:
    any target". A natural 2 is a fumble only when it fails: computer 9 at 0 squares, 2 + 9 = 11 against
    Routine 7+ is made by 4 and locates any target."""
    assert sensors.locate_tier(2, 4) == 3
    assert sensors.locate_tier(2, 0) == 1
    assert [sensors.locate_tier(2, m) for m in (-1, -2, -3)] == [-1, -1, -1]  # "failed with nat 2"
    assert [sensors.locate_tier(7, m) for m in (-3, -2, -1, 0, 1, 2, 3, 4, 9)] == [-1, -1, 0, 1, 1, 2, 2, 3, 3]


def test_difficulties_from_the_text() -> None:
    """"Routine (7+)" and "Difficult (11+)"."""
    assert TABLES.difficulties["routine"] == 7 and TABLES.difficulties["difficult"] == 11


def test_best_difficulty_among_sensors_that_reach() -> None:
    """"for the best difficulty listed that you still have sensors for"."""
    ship = {"sensors": {"pass_obj_scan": {"far": "routine", "extreme": "difficult"}}}
    assert sensors.best_difficulty(ship, "pass_obj_scan", "near", TABLES) == "routine"
    assert sensors.best_difficulty(ship, "pass_obj_scan", "extreme", TABLES) == "difficult"
    assert sensors.best_difficulty(ship, "act_obj_scan", "near", TABLES) == ""


def test_undetected_beyond_100_squares() -> None:
    """"Anything within 100 spaces is pretty much detected"."""
    enc = new_engagement(range=101)
    assert enc.state["knowledge"]["imp"]["raider"]["state"] == "undetected"
    enc.act("set_range", ship="lancer", target="raider", squares=100)
    assert enc.state["knowledge"]["imp"]["raider"]["state"] == "detected"


def test_a_range_or_sensors_put_right_by_hand_detect_within_100_squares() -> None:
    """"Anything within 100 spaces is pretty much detected just by looking with sensors of near range": a range
    corrected by hand (not set with ``r``) detects as the range step does; so do sensors a correction restores."""
    enc = new_engagement(range=150)
    assert enc.state["knowledge"]["imp"]["raider"]["state"] == "undetected"
    key = next(k for k in enc.state["ranges"] if "lancer" in k and "raider" in k)
    enc.correct(f"ranges.{key}", 50, note="measured again")
    assert enc.state["knowledge"]["imp"]["raider"]["state"] == "detected"
    enc.undo()
    assert enc.state["knowledge"]["imp"]["raider"]["state"] == "undetected"

    blind = new_engagement(range=50)
    for sid, ship in blind.state["ships"].items():
        if ship["side"] == "imp":
            blind.correct(f"ships.{sid}.shut_down", ["sensors"], note="blind")
    blind.correct("knowledge.imp.raider.state", "undetected", note="lost it")
    assert blind.state["knowledge"]["imp"]["raider"]["state"] == "undetected"
    blind.correct("ships.lancer.fuel", 10, note="any other value")  # what the sides hold is left as it is
    assert blind.state["knowledge"]["imp"]["raider"]["state"] == "undetected"
    blind.correct("ships.lancer.shut_down", [], note="repaired")
    assert blind.state["knowledge"]["imp"]["raider"]["state"] == "detected"
    assert "Imperial detects Corsair-1" in blind.events[-1].notes  # said in the log, as the range step says it


def test_a_range_corrected_by_hand_detects_only_across_that_pair() -> None:
    """``megatraveller-sensors-fire.txt``, "States of Detection in MT HG", line 9: "Anything within 100 spaces is
    pretty much detected". A corrected range decides detection between its two ships only: a contact the game
    master hid elsewhere stays hidden (a drive found it detected again by a correction of another pair)."""
    enc = new_engagement(range=5)
    enc.correct("knowledge.imp.shadow.state", "undetected", note="hidden behind the moon")
    enc.correct("ranges.lancer|raider", 6, note="measured again")
    assert enc.state["knowledge"]["imp"]["shadow"]["state"] == "undetected"
    enc.act("set_range", ship="picket", target="hulk", squares=7)  # the range step reads one pair too
    assert enc.state["knowledge"]["imp"]["shadow"]["state"] == "undetected"
    enc.correct("ranges.lancer|shadow", 8, note="measured again")  # the hidden ship's own range does detect it
    assert enc.state["knowledge"]["imp"]["shadow"]["state"] == "detected"
    assert enc.events[-1].notes == ["Imperial detects Shadow"]


def test_a_side_corrected_by_hand_says_what_it_detects() -> None:
    """A ship moved to another side by a correction gets the default range to its new enemies and detects them
    (line 9, "within 100 spaces"); the log says so, as a corrected range does, and other contacts stay as the
    game master left them."""
    enc = new_engagement(range=150)
    enc.correct("knowledge.imp.shadow.state", "undetected", note="still hidden")
    enc.correct("ships.picket.side", "cor", note="the Picket defects")
    notes = enc.events[-1].notes
    assert "Range Lancer - Picket: 10 squares (far), the default for new enemies" in notes
    assert "Imperial detects Picket" in notes and "Corsairs detects Lancer" in notes
    assert enc.state["knowledge"]["imp"]["shadow"]["state"] == "undetected"
    assert enc.state["knowledge"]["imp"]["raider"]["state"] == "undetected"  # 150 squares: out of reach


def test_armor_value_list() -> None:
    """"AV <=42: +0, AV 43: -1, AV 46: -2, AV49: -3, AV52: -4, AV55: -5, AV58: -6, AV61: -7, AV64: -8"."""
    assert [damage.armor_dm(av) for av in (42, 43, 46, 49, 52, 55, 58, 61, 64)] == [0, -1, -2, -3, -4, -5, -6, -7, -8]
    globed = {"armor": 40, "globe": "black", "globe_flicker": 1, "shut_down": []}
    assert damage.armor_value(globed) == 46  # "+6 AV per factor of flicker"


def test_damage_roll_counts() -> None:
    """"not a spinal: one damage roll"; "a spinal: Factor-9 rolls on each allowed table"."""
    assert damage.damage_rolls(9, False) == 1 and damage.damage_rolls(20, True) == 11


def test_critical_counts_from_the_text() -> None:
    """"a Factor 3 vs a 100T ship is going to be 2 crits"; "factor 4... enough to do a crit on a 400Td"."""
    assert damage.criticals_due(3, 100, TABLES) == 2
    assert damage.criticals_due(4, 400, TABLES) == 1 and damage.criticals_due(3, 400, TABLES) == 0
    assert critical_distribution(TABLES, 400) == 3


def test_fuel_hits() -> None:
    """Line 97: "Fuel hits are that percentage of fuel. On small ships, the minimum loss is 10 tons of fuel.
    (Ships with less than 333 tons of fuel always lose 10 tons on any fuel hit.)" Under 333 tons: 10 tons
    whatever the hit's percentage; from 333: the percentage, rounded down, with no minimum (the minimum is
    the small ships')."""
    assert [damage.fuel_loss(332, pct) for pct in (1, 2, 3, 10, 50)] == [10, 10, 10, 10, 10]
    assert [damage.fuel_loss(200, pct) for pct in (1, 5, 10)] == [10, 10, 10]
    assert damage.fuel_loss(333, 10) == 33 and damage.fuel_loss(333, 1) == 3
    assert damage.fuel_loss(1000, 5) == 50 and damage.fuel_loss(500, 1) == 5
    assert damage.fuel_loss(5, 1) == 5  # never more than is on board


def _batteries(*groups: tuple[str, int, int, int]) -> list[dict]:
    """(group, factor, count, bearing) as the fight holds them: one entry per battery."""
    return [{"id": f"{g}-{n}", "group": g, "factor": f, "bearing": n <= bearing, "spinal": f >= 10}
            for g, f, count, bearing in groups for n in range(1, count + 1)]


def test_weapon_hit_removes_batteries_then_lowers_the_last() -> None:
    """Line 96: "A weapon hit kills a number of batteries equal to its rating, until only one is left, then
    that last one takes a reduction to its rating, instead." """
    ship = {"name": "T", "batteries": _batteries(("B1", 5, 3, 3))}
    damage.weapon_hit(ship, 4, RuleContext(1))
    assert [(b["id"], b["factor"]) for b in ship["batteries"]] == [("B1-1", 3)]
    damage.weapon_hit(ship, 3, RuleContext(1))
    assert ship["batteries"] == []  # factor 3 - 3: the last battery is gone


def test_a_spinal_mount_lowered_below_factor_a_is_a_battery_like_any_other() -> None:
    """Line 96's "reduction to its rating" takes a spinal of factor A to 9, and "Factor <=9 (non Spinal)" (line 77):
    it rolls once on each table at -6 and aims with the computer, no longer as a spinal (found by an audit: it
    stayed spinal, so it rolled factor - 9 = no damage at all, hit at 7+ with agility)."""
    ship = {"name": "T", "batteries": _batteries(("B1", 10, 1, 1))}
    ctx = RuleContext(1)
    damage.weapon_hit(ship, 1, ctx)
    assert [(b["factor"], b["spinal"]) for b in ship["batteries"]] == [(9, False)]
    assert ctx.notes == ["T weapon-1: the last battery B1-1 down to factor 9, no longer a spinal mount (factor 9 or "
                         "less)"]
    assert damage.damage_rolls(9, ship["batteries"][0]["spinal"]) == 1


def test_weapon_hit_takes_bearing_batteries_first_and_one_is_the_ships_last() -> None:
    """Line 96 with several groups: "until only one is left" counts the ship's batteries; the batteries that
    bear (line 36, "batteries bearing (which is on the ship data)") face the fire and go first."""
    groups = (("B1", 9, 10, 5), ("B2", 9, 20, 10))
    ship = {"name": "T", "batteries": _batteries(*groups)}
    damage.weapon_hit(ship, 2, RuleContext(1))
    gone = {"B2-9", "B2-10"}  # B2 has the most bearing batteries: its last bearing ones
    assert {b["id"] for b in ship["batteries"]} == {b["id"] for b in _batteries(*groups)} - gone
    ship = {"name": "T", "batteries": _batteries(("B1", 4, 3, 2))}
    damage.weapon_hit(ship, 1, RuleContext(1))
    assert [b["id"] for b in ship["batteries"]] == ["B1-1", "B1-3"]  # a bearing one, not the idle B1-3
    ship = {"name": "T", "batteries": _batteries(("B1", 4, 1, 1), ("B2", 5, 1, 1))}
    damage.weapon_hit(ship, 2, RuleContext(1))  # two groups of one: B1 (first on the tie) dies, B2 loses 1
    assert [(b["id"], b["factor"]) for b in ship["batteries"]] == [("B2-1", 4)]


def test_plasma_cannot_fire_at_far() -> None:
    """Range table: "Plasma/Fusion | 0 | 0 | N/A | N/A", "Tractors | 0 | 0 | N/A | N/A"."""
    for w in ("plasma_gun", "fusion_gun", "tractor"):
        assert TABLES.weapons[w]["range_dm"] == {"visual": 0, "near": 0, "far": "no", "extreme": "no"}
    assert TABLES.weapons["missile"]["range_dm"]["far"] == 1 and TABLES.weapons["meson_gun"]["range_dm"]["extreme"] == -2


def test_shipped_tables_are_marked_and_checked() -> None:
    from engine.files import read_toml
    for name, path in RULESET.tables().items():
        doc = read_toml(path)
        assert doc["table"]["shipped_default"] is True and doc["table"]["note"]
        check_table(name, doc)
    doc = read_toml(RULESET.tables()["criticals"])
    del doc["rolls"]["7"]
    with pytest.raises(BadTable, match="rolls"):
        check_table("criticals", doc)


def test_ship_library_loads() -> None:
    register(RULESET)
    paths = RULESET.ship_library()
    assert len(paths) >= 4
    ships = [load_ship(p)[1] for p in paths]
    assert any(b.get("spinal") for s in ships for b in s["batteries"])


def test_bad_ship_is_refused() -> None:
    from rulesets.megatraveller.ships import check_ship
    with pytest.raises(BadTable, match="spinal mount is factor A"):
        check_ship({"batteries": [{"weapon": "meson_gun", "factor": 5, "spinal": True}], "sensors": {}}, TABLES, "ship")


def test_console_views() -> None:
    enc = new_engagement()
    state = enc.state
    panels = RULESET.ship_panels(state, "lancer")
    assert set(panels) == {"Ship status", "Armor and crew"}
    assert "Imperial sees Corsair-1: detected" in RULESET.sensors(state)
    assert RULESET.checklist_notes(state)
    assert [s.label for s in enc.checklist()] == ["Sensors", "Fire", "End of round"]
    keys = {a.key for a in enc.legal_actions()}
    assert not keys & {"u", "c", "q", "?"} and not any(k.isdigit() for k in keys)
    spend = RULESET.param_choices(state, "locate", "spend", {"ship": "lancer", "target": "raider", "mode": "passive"})
    assert spend[0].value == "free" and len(spend) == 1 + 19
    mode = RULESET.param_choices(state, "locate", "mode", {"ship": "lancer", "target": "raider"})
    assert [c.value for c in mode] == ["passive"]
    assert RULESET.param_choices(state, "fire", "ship", {}) == []  # nothing locked


def test_the_range_between_every_pair_of_enemies_is_always_in_view() -> None:
    """Issue 9: a range matrix always visible, not only inside forms."""
    from rulesets.megatraveller import views
    from tests.rulesets.megatraveller.engagement import new_engagement

    enc = new_engagement()
    enc.act("set_range", ship="lancer", target="raider", squares=8)
    lines = views.checklist_notes(enc.state)
    assert "Lancer - Corsair-1: 8 squares, far" in lines


def test_the_checklist_says_what_each_side_still_has_free() -> None:
    """Issue 9: a per-side view of who has acted this round and what is still free."""
    from rulesets.megatraveller import views
    from tests.rulesets.megatraveller.engagement import new_engagement

    enc = new_engagement()
    lines = [line for line in views.checklist_notes(enc.state) if " free: " in line]
    assert len(lines) == len(enc.state["side_order"])
    assert "free sensor action" in lines[0]


def test_a_huge_range_is_refused_by_the_limit_the_form_shows() -> None:
    """Found by a game master's drive: the range form says 0-100000, but 99999999999999999999 was refused as "at
    most 9223372036854775807" (a save's limit), which the form never shows."""
    enc = new_engagement()
    with pytest.raises(IllegalAction, match="must be at most 100000, got 99999999999999999999"):
        enc.act("set_range", ship="lancer", target="raider", squares=99999999999999999999)


def test_a_range_of_one_square_reads_in_the_singular() -> None:
    """A drive read "1 squares" in the range note and the forms' targets (the Sensors panel said "1 square")."""
    enc = new_engagement(range=150)
    enc.act("set_range", ship="lancer", target="raider", squares=1)
    assert enc.events[-1].notes[0].startswith("Range Lancer - Corsair-1: 1 square (")
    target = next(p for p in enc.ruleset.catalogue.get("set_range").params if p.name == "target")
    labels = [c.label for c in enc.ruleset.param_choices(enc.state, "set_range", target, {"ship": "lancer"})]
    assert any(label.startswith("Corsair-1 (1 square, ") for label in labels), labels


def test_the_free_list_leaves_out_what_cannot_act() -> None:
    """A drive's checklist still listed a ship's batteries and free sensor action after criticals had shut its
    power down, and a battery that did not bear, while the forms rightly left them out: "shut-down weapons do not
    fire", shut-down sensors take no sensor actions, and only bearing batteries fire (line 36). A battery that does
    not bear keeps its gunnery action for sensors (line 11, "one gunnery action per battery"; line 12)."""
    from rulesets.megatraveller import views
    from tests.rulesets.megatraveller.engagement import new_engagement

    enc = new_engagement()
    enc.correct("ships.raider.batteries[1].bearing", "false", note="test: turned away")
    enc.correct("ships.picket.shut_down", ["power"], note="test: as after a critical")
    enc.correct("ships.hulk.shut_down", ["sensors"], note="test: as after a critical")
    imperial, corsairs = views.still_free(enc.state)  # 1 Sensors
    assert "Picket" not in imperial
    # Hulk, Skiff and Shadow carry no sensors: no sensor action (test_a_ship_without_sensors_has_no_sensor_action)
    assert corsairs == "Corsairs free: Corsair-1 free sensor action, gunnery B1-1 B1-2 B1-3"
    enc.act("next")  # 2 Fire
    imperial, corsairs = views.still_free(enc.state)
    assert "Picket" not in imperial
    assert corsairs == "Corsairs free: Corsair-1 B1-1 B1-3; Hulk B1-1 B1-2"


def _free(state: dict) -> dict[str, str]:
    from rulesets.megatraveller import views
    return dict(line.split(" free: ") for line in views.still_free(state))


def test_the_free_list_holds_only_what_the_step_allows() -> None:
    """megatraveller-sensors-fire.txt line 10, "A ship gets 1 free sensor action each round"; line 12, "Gunnery
    actions can be used for extra sensor actions"; line 33, "Assuming you haven't used all your gunnery actions on
    sensors..." (the sensor actions come before the shooting: step 1, ``turn``); line 36, "You cannot fire more
    than you have batteries bearing". Found by a game master's drive: the Fire and End-of-round steps still listed
    a "free sensor action" that no form there takes, and End of round listed batteries that no longer fire."""
    enc = new_engagement()
    lancer = " ".join(f"B1-{n}" for n in range(1, 13)) + " B2 B3 B4 B5 B6 B7 B8"
    assert _free(enc.state)["Imperial"] == f"Lancer free sensor action, gunnery {lancer}; Picket free sensor action, gunnery B1"
    enc.act("next")  # 2 Fire: the batteries bearing, and no sensor action
    assert _free(enc.state)["Imperial"] == f"Lancer {lancer}; Picket B1"
    assert "sensor" not in " ".join(_free(enc.state).values())
    enc.act("next")  # 3 End of round: nothing is taken by a ship
    assert _free(enc.state) == {"Imperial": "nothing", "Corsairs": "nothing"}
    enc.act("next")  # a new round: the free sensor action is back
    assert _free(enc.state)["Imperial"].startswith("Lancer free sensor action, gunnery B1-1 ")


def test_the_free_list_lists_what_the_sensor_and_fire_forms_offer() -> None:
    """Line 11, "a ship gets one gunnery action per battery", and line 12, "Gunnery actions can be used for extra
    sensor actions": a battery that does not bear still has its gunnery action, and its gunners may spend it on
    sensors; only firing needs the battery bearing (line 36). Found by a game master's drive: the checklist left
    out a battery turned away while the locate form offered its gunnery action. Both now read the same rule."""
    enc = new_engagement()
    enc.correct("ships.lancer.batteries[1].bearing", "false", note="test: turned away")
    enc.correct("knowledge.imp.raider.state", "locked", note="test: as after a lock")
    enc.act("set_range", ship="lancer", target="raider", squares=1)  # Visual: every weapon reaches
    offered = [c.value for c in RULESET.param_choices(
        enc.state, "locate", "spend", {"ship": "lancer", "target": "hulk", "mode": "passive"})]
    assert "B1-2" in offered
    listed = _free(enc.state)["Imperial"].split(";")[0]
    assert listed == "Lancer free sensor action, gunnery " + " ".join(b for b in offered if b != "free")
    enc.act("next")
    fire = [c.value for c in RULESET.param_choices(enc.state, "fire", "batteries", {"ship": "lancer", "target": "raider"})]
    assert "B1-2" not in fire
    assert _free(enc.state)["Imperial"].split(";")[0] == "Lancer " + " ".join(fire)


def test_a_ship_without_sensors_has_no_sensor_action() -> None:
    """megatraveller-sensors-fire.txt line 10, "A ship gets 1 free sensor action each round"; line 12, "Gunnery
    actions can be used for extra sensor actions"; line 14, a sensor roll is made "for the best difficulty listed
    that you still have sensors for"; line 103, "Criticals shut down a system". A ship with no sensor left to roll
    for (none fitted, every one lost to sensor hits, or its sensors shut down) has no sensor action, free or
    bought with gunnery. Found by a game master's drive: the checklist and the ship's panel still offered Skiff
    (no sensors fitted) a "free sensor action" that the locate form could never take."""
    from rulesets.megatraveller import views

    enc = new_engagement()
    tables = RULESET.tables_for(enc.state)
    for sid in ("picket", "raider"):  # every sensor lost to hits (Picket lists two, Corsair-1 one)
        damage.apply_result(enc.state, sid, {"system": "sensors", "amount": 3}, TABLES, RuleContext(0), "surface")
        assert not any(enc.state["ships"][sid]["sensors"].values())
    enc.correct("ships.lancer.shut_down", ["sensors"], note="test: as after a critical")
    assert not any(enc.state["ships"]["picket"]["sensors"].values())
    free = _free(enc.state)
    assert free == {"Imperial": "nothing", "Corsairs": "nothing"}  # Hulk, Skiff and Shadow carry no sensors
    for sid, target, why in (("skiff", "lancer", "Skiff has no sensors"), ("picket", "raider", "Picket has no sensors"),
                             ("lancer", "raider", "Lancer's sensors are shut down")):
        assert sid not in {c.value for c in RULESET.param_choices(enc.state, "locate", "ship", {})}
        with pytest.raises(IllegalAction, match=why):
            RULESET.check_action(enc.state, "locate", {"ship": sid, "target": target})
        panel = dict(views.ship_panels(enc.state, sid, tables)["Ship status"])
        assert panel["Sensor action"].startswith("none: ") and why in panel["Sensor action"], panel
    enc.correct("ships.lancer.shut_down", [], note="test: repaired")
    assert _free(enc.state)["Imperial"].startswith("Lancer free sensor action, gunnery B1-1 ")
    panel = dict(views.ship_panels(enc.state, "lancer", tables)["Ship status"])
    assert panel["Sensor action"] == "free action ready"


def test_a_sensors_reach_reads_with_a_space_after_each_comma() -> None:
    """Found on the console's snapshot: a sensor's reach read "far routine,extreme difficult", a comma with no space
    after it, so the row did not read as words and a narrow panel could only wrap it inside "routine,extreme".
    The demo's Vigilance, as its save gives its sensors."""
    from engine.saves import SaveFile
    from rulesets.megatraveller import views
    from tests.demos import shipped_demos

    enc = SaveFile.load(shipped_demos()["megatraveller"]).encounter
    panel = dict(views.ship_panels(enc.state, "patrol", TABLES)["Ship status"])
    assert panel["Sensors"] == ("PassObjScan far routine, extreme difficult; ActObjScan extreme routine; "
                                "PassObjPin far difficult; ActObjPin extreme difficult")


def test_the_systems_shut_down_are_corrected_whole_as_names() -> None:
    """megatraveller-sensors-fire.txt line 102, "All Crit rolls are a flat 2d6 on the table on page 94", and line
    103, "Criticals shut down a system": the systems a ship can have shut down are those the critical table names,
    each shut down once however many criticals name it. Found by a game master's drive: the correction form could
    not shut a system down (a list was not correctable whole, and an empty one offered nothing). The list is typed
    as names separated by commas, each checked against the critical table; empty text repairs everything."""
    enc = new_engagement()
    systems = sorted(set(TABLES.criticals.values()))
    assert enc.check_correction("ships.lancer.shut_down", " sensors ,power") == (
        ("ships", "lancer", "shut_down"), ["sensors", "power"])
    enc.correct("ships.lancer.shut_down", "sensors, power", note="as after two criticals")
    assert enc.state["ships"]["lancer"]["shut_down"] == ["sensors", "power"]
    with pytest.raises(IllegalAction, match="Lancer's sensors are shut down"):
        RULESET.check_action(enc.state, "locate", {"ship": "lancer", "target": "raider"})
    with pytest.raises(IllegalAction) as bad:
        enc.check_correction("ships.lancer.shut_down", "sensors, powr")
    assert "'powr'" in str(bad.value) and ", ".join(systems) in str(bad.value)
    with pytest.raises(IllegalAction, match="'sensors' twice"):
        enc.check_correction("ships.lancer.shut_down", "sensors, power, sensors")
    with pytest.raises(IllegalAction, match="'powr'"):  # one entry corrected alone is held to the same table
        enc.check_correction("ships.lancer.shut_down[1]", "powr")
    with pytest.raises(IllegalAction, match="'sensors' twice"):
        enc.check_correction("ships.lancer.shut_down[1]", "sensors")
    enc.correct("ships.lancer.shut_down", "", note="repaired")
    assert enc.state["ships"]["lancer"]["shut_down"] == []
    enc.undo()
    assert enc.state["ships"]["lancer"]["shut_down"] == ["sensors", "power"]


def test_a_critical_shuts_a_system_down_once() -> None:
    """Line 103, "Criticals shut down a system": a second critical naming a system already down changes nothing."""
    enc = new_engagement()
    ship = enc.state["ships"]["raider"]
    for _ in range(2):
        damage.shut_down(ship, "sensors", RuleContext(0), "critical (4)")
    assert ship["shut_down"] == ["sensors"]
