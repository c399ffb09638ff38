"""megatraveller's side view (issue 15): what each sensor state lets a side see of an enemy ship.

Source: megatraveller-sensors-fire.txt, "States of Detection in MT HG". Read
on the shipped demo (Imperial Navy: Vigilance, Far Sight; Corsairs: Red
Lantern, a 400-ton Type P corsair with power plant 3 and AV 30, and Whisper).
"""

from __future__ import annotations

from pathlib import Path

from engine.rolls import RollRequest
from engine.saves import SaveFile
from engine.sideview import BARE, FULL, HIDDEN, NOTES, OUTCOME, RESULT
from engine.state import plain_copy
from rulesets.megatraveller import RULESET

DEMO = Path(__file__).resolve().parents[3] / "saves" / "demo-megatraveller.toml"


def demo_state() -> dict:
    return plain_copy(SaveFile.load(DEMO).encounter.state)


def knows(state: dict, target: str, sensed: str, revealed: str = "") -> dict:
    state["knowledge"]["imperial"][target] = {"state": sensed, "revealed": revealed}
    return state


def contact(state: dict, name: str) -> dict[str, str]:
    view = RULESET.side_view(state, "imperial")
    found = [c for c in view.contacts if c.name == name]
    return dict(found[0].known) if found else {}


def test_undetected_is_not_on_the_map() -> None:
    """"undetected at all (not on map)": the ship is not listed, only counted as not detected."""
    state = knows(demo_state(), "courier", "undetected")
    view = RULESET.side_view(state, "imperial")
    assert [c.name for c in view.contacts] == ["Red Lantern"]
    assert view.unseen == "1 other ship not detected"
    assert view.own == ("patrol", "scout")


def test_detected_and_located_tell_where_and_nothing_else() -> None:
    """"Detection doesn't tell you anything other than 'There is something roughly there'"."""
    state = demo_state()
    assert contact(state, "Red Lantern") == {"Sensors": "detected (roughly there)",
                                             "Range": "Vigilance 8 sq, far; Far Sight 8 sq, far"}
    assert contact(knows(state, "corsair", "located"), "Red Lantern")["Sensors"] == "located"
    assert set(contact(state, "Red Lantern")) == {"Sensors", "Range"}


def test_a_lock_shows_exactly_what_it_revealed() -> None:
    """"If one of the two succeeds, you get power and tonnage, but NOT type nor other data. If both
    succeed, you get type code." Armor (AV 30) is never among it."""
    state = knows(demo_state(), "corsair", "locked", "")
    assert contact(state, "Red Lantern")["Lock"] == "held; nothing revealed yet"
    one = contact(knows(state, "corsair", "locked", "power and tonnage"), "Red Lantern")
    assert (one["Power plant"], one["Tonnage"]) == ("3", "400 tons") and "Type" not in one
    both = contact(knows(state, "corsair", "locked", "type code"), "Red Lantern")
    assert both["Type"] == "Type P corsair (type code P)"
    assert not any("30" in v for v in both.values() if v != both["Range"])


def request(then: str, **context) -> RollRequest:
    return RollRequest("a roll", "2D", then=then, context=context, secret=then == "lock_referee")


def test_log_tiers_by_whose_roll_it_is() -> None:
    """The GM's half of the lock shows to nobody (its notes to the locking side only); a side's own
    sensor rolls show in full and another side's not at all; the firer sees fire rolls' outcome, the
    target side their effects and its own damage in full."""
    state = demo_state()
    seen = lambda side, req: RULESET.log_seen(state, side, "roll", {}, req)  # noqa: E731
    referee = request("lock_referee", side="imperial", target="corsair", ship="patrol")
    assert (seen("imperial", referee), seen("corsairs", referee)) == (NOTES, HIDDEN)
    locate = request("locate", side="imperial", target="corsair")
    assert (seen("imperial", locate), seen("corsairs", locate)) == (FULL, HIDDEN)
    to_hit = RollRequest("To hit: Vigilance B1-1 pulse laser-2 at Red Lantern", "2D", then="to_hit",
                         context={"ship": "patrol", "target": "corsair"})
    # the target side: the outcome, and who fired at whom, never the battery or its weapon
    assert (seen("imperial", to_hit), seen("corsairs", to_hit)) == (RESULT, (OUTCOME, "To hit: Vigilance at Red Lantern"))
    damage = RollRequest("Damage (surface 1/2): B1-1 on Red Lantern", "2D", then="damage",
                         context={"target": "corsair", "table": "surface"})
    # its own damage: the outcome and what it did, not the modifiers (they name the firer's weapon)
    assert (seen("imperial", damage), seen("corsairs", damage)) == (
        (BARE, "Damage (surface 1/2): Red Lantern"), (OUTCOME, "Damage (surface 1/2): Red Lantern"))
    penetrate = RollRequest("Penetrate sand-1: Vigilance B1-1 at Red Lantern", "2D", then="penetrate",
                            context={"ship": "patrol", "target": "corsair"})
    assert seen("imperial", penetrate) == (RESULT, "Penetrate sand: Vigilance B1-1 at Red Lantern")
    assert seen("corsairs", penetrate) == (OUTCOME, "Penetrate sand: Vigilance at Red Lantern")
    lock = {"name": "lock", "args": {"ship": "patrol", "target": "corsair"}}
    assert RULESET.log_seen(state, "corsairs", "action", lock, None) == HIDDEN
    assert RULESET.log_seen(state, "imperial", "action", lock, None) == FULL


def test_another_sides_fire_reads_as_who_fires_at_whom() -> None:
    """"step 1: State the target": the target side learns who fires at it; the tactics points the
    firer spent ("spend them BEFORE ROLLING") stay the firer's."""
    state = demo_state()
    fire = {"name": "fire", "args": {"ship": "corsair", "target": "patrol", "batteries": ["B1-1"], "tactics": 1}}
    assert RULESET.log_seen(state, "imperial", "action", fire, None) == (BARE, "Red Lantern: Fire batteries at Vigilance")
    assert RULESET.log_seen(state, "corsairs", "action", fire, None) == FULL


def test_a_locate_tells_the_players_nothing_of_the_target_s_signature() -> None:
    """"Detection doesn't tell you anything other than 'There is something roughly there'", and even a lock
    gives "power and tonnage, but NOT type nor other data": a failed locate by 1 on the medium Corsair-1 reads
    "not located" to its side, and a made one "located", with no signature class; the referee's log keeps it."""
    from engine.sideview import side_log
    from tests.rulesets.megatraveller.engagement import new_engagement
    from tests.rulesets.scripted import answer

    enc = new_engagement()
    for typed in ("8", "9"):  # 8 + 3 - 5 = 6: failed by 1 (finds only large targets); 9: made by 0
        enc.act("locate", ship="lancer", target="raider", mode="passive", spend="free" if typed == "8" else "B1-1")
        answer(enc, "Locate: Lancer PassObjScan (routine)", typed)
    referee = [n for e in enc.events for n in e.notes]
    assert any("(medium signature) not located: the roll finds only large targets" in n for n in referee)
    seen = [n.strip(" ·") for entry in side_log(enc, "imp") for n in entry.details]
    assert "Corsair-1 not located" in seen and "Corsair-1 located by Imperial" in seen
    assert not any("signature" in n or "finds only" in n for n in seen)


def test_the_target_reads_its_criticals_but_not_the_firing_battery_s_factor_or_aim() -> None:
    """"never ... batteries" (States of Detection): found by a game master's drive, the target's screen read "UCP
    factor B - distribution 2: 9 criticals", the factor of the battery that hit it, and the firer's aim. The
    target's side reads the criticals and armor lost; the firer's side reads its own note whole."""
    state = demo_state()
    request = RollRequest("Penetrate sand-2: Red Lantern B2 at Vigilance", "2D", (), None, "penetrate",
                          {"ship": "corsair", "target": "patrol", "battery": "B2"}, 1)
    notes = ["Aim critical: power: ignored, a pick needs the to-hit roll made by 4 or more, and this one was made by less",
             "UCP factor 5 - distribution 3: 2 criticals, Vigilance loses 2 armor"]
    assert RULESET.notes_seen(state, "imperial", {}, request, notes) == ["2 criticals, Vigilance loses 2 armor"]
    assert RULESET.notes_seen(state, "corsairs", {}, request, notes) == notes


def test_the_target_reads_that_a_shot_hit_but_not_by_how_much() -> None:
    """The target's side sees whether a to-hit roll made it, "not its modifiers" (module notes): found by a game
    master's drive, the Corsairs' screen read "Hit (made by 4)", which with the 11+ the text gives tells the roll
    plus the firer's computer. The firer's side reads its own margin; the table hears a pinpoint pick declared."""
    state = demo_state()
    request = RollRequest("To hit: Vigilance B1-1 beam laser-4 at Red Lantern", "2D", (), None, "to_hit",
                          {"ship": "patrol", "target": "corsair", "battery": "B1-1", "weapon": "beam_laser"}, 1)
    notes = ["Hit (made by 4): enough for a pinpoint pick, but no aim was named before the roll, so the damage is "
             "rolled"]
    assert RULESET.notes_seen(state, "imperial", {}, request, notes) == notes
    assert RULESET.notes_seen(state, "corsairs", {}, request, notes) == [
        "Hit: enough for a pinpoint pick, but no aim was named before the roll, so the damage is rolled"]
    assert RULESET.notes_seen(state, "corsairs", {}, request, ["Hit (made exactly)"]) == ["Hit"]
