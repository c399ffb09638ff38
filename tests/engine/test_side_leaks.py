"""What a side must never read on the players' screen, in any ruleset (found by an audit of ``flagbridge watch``).

Each test plays a fight with typed rolls into the moment of a secret and reads everything the side's picture
holds (the units, contacts, notes, what the fight waits for, the log) as one text.
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from engine.encounter import Encounter
from engine.saves import SaveFile
from engine.setup import Setup
from engine.sideview import picture
from tests.rulesets.scripted import answer

ROOT = Path(__file__).resolve().parents[2]


def seen(enc: Encounter, side: str) -> str:
    """Every word of the side's picture."""
    p = picture(enc, side)
    parts = [p.title, p.where, p.step, p.waiting, p.view.unseen, *p.view.notes]
    for c in p.view.contacts:
        parts += [c.name] + [f"{a}: {b}" for a, b in c.known]
    for _uid, line, panels in p.own:
        parts += [line] + [f"{k}: {v}" for rows in panels.values() for k, v in rows]
    for e in p.log:
        parts += [e.headline, *e.details]
    return "\n".join(parts)


# --- megatraveller: "undetected at all (not on map)"; a contact's batteries are never known -------------------

def _mt(ships: dict, squares: int) -> Encounter:
    from rulesets.megatraveller import RULESET

    return Encounter(Setup(ruleset="megatraveller", name="Leaks", sides=[{"id": "imp", "name": "Imperial"},
                                                                         {"id": "cor", "name": "Corsairs"}],
                           units={"ships": ships}, options={"range": squares}, seed=5,
                           created=datetime(2026, 12, 1, 19, 0, tzinfo=timezone.utc)), RULESET)


def test_megatraveller_an_undetected_firer_is_not_named_and_no_side_reads_anothers_batteries() -> None:
    from tests.rulesets.megatraveller.engagement import LANCER, RAIDER

    lancer = {**LANCER, "sensors": {"pass_obj_scan": {"visual": "routine"}}}  # nothing that reaches Near
    raider = {**RAIDER, "sensors": {"pass_obj_scan": {"far": "routine"}, "act_obj_pin": {"far": "routine"}}}
    enc = _mt({"lancer": lancer, "raider": raider}, 5)
    enc.act("locate", ship="raider", target="lancer", mode="passive", spend="free")
    assert picture(enc, "imp").waiting == "waiting for the referee"  # no sign of another side's sensors
    answer(enc, "Locate", "12")
    enc.act("lock", ship="raider", target="lancer", mode="active", spend="B1-1")
    answer(enc, "Lock (player's roll)", "10")
    answer(enc, "Lock (referee's roll)", "3")
    enc.act("next")
    enc.act("fire", ship="raider", target="lancer", batteries=["B1-2"])
    waiting = picture(enc, "imp").waiting
    assert waiting == "waiting for a roll: To hit: a ship not detected at Lancer", waiting
    answer(enc, "To hit", "12")
    while enc.pending is not None:
        enc.type_roll("8")
    imp = seen(enc, "imp")
    raider_name = enc.state["ships"]["raider"]["name"]
    assert raider_name not in imp and "B1-2" not in imp and "pulse laser" not in imp.lower()
    assert "To hit: a ship not detected at Lancer: success" in imp


def test_megatraveller_a_range_set_by_the_referee_tells_no_side_what_the_other_detects() -> None:
    from tests.rulesets.megatraveller.engagement import LANCER, PICKET, RAIDER

    enc = _mt({"lancer": dict(LANCER), "picket": dict(PICKET), "raider": dict(RAIDER)}, 150)
    enc.act("set_range", ship="picket", target="raider", squares=50)
    enc.act("set_range", ship="lancer", target="raider", squares=40)  # now the Corsairs detect Lancer too
    assert "Corsairs detects" not in seen(enc, "imp")
    assert "Imperial detects" not in seen(enc, "cor")


# --- classic-hg: "The DEFENDER records damage"; an enemy's programs are never shown ---------------------------

def test_classic_hg_the_attacker_reads_no_programs_no_hit_location_and_no_crew_of_the_enemy() -> None:
    from tests.rulesets.classic_hg import test_duel as duel
    from tests.rulesets.classic_hg.duel import new_duel

    enc = new_duel()
    for step in (duel.t1_initiative, duel.t1_range_is_long, duel.t1_attacker_fires,
                 duel.t1_surprised_ship_cannot_defend):
        step(enc)
    enc.act("resolve_damage")
    enc.type_roll("7")
    while enc.pending is not None:
        enc.type_roll("3")
    duel.t1_surprised_ship_cannot_fire(enc)
    duel.t1_reprogram(enc)
    cor, imp = seen(enc, "cor"), seen(enc, "imp")
    log = [e for e in picture(enc, "cor").log if "Vigilant" in e.headline]
    assert log and all("programs" not in e.headline and "=" not in e.headline for e in log), [e.headline for e in log]
    assert "General location" not in imp and "Specific location" not in imp  # where the Jackal was struck
    assert "General location" in cor


def test_classic_hg_a_crew_hits_people_are_the_crews_side_to_read() -> None:
    from rulesets.classic_hg import RULESET
    from tests.rulesets.classic_hg.duel import ESCORT, RAIDER, make_setup
    from tests.rulesets.classic_hg.test_crew_attacks import BRIDGE, hit_bridge_crew

    setup = make_setup(dict(ESCORT), dict(RAIDER))
    setup.units["people"] = dict(BRIDGE)
    enc = Encounter(setup, RULESET)
    hit_bridge_crew(enc)
    assert "Capt. Orrin Vale" not in picture(enc, "imp").waiting
    answer(enc, "Percent to hit: laser rifle at Capt. Orrin Vale", "10")
    imp = seen(enc, "imp")
    assert "Orrin Vale" not in imp and "MARKSmanship" not in imp
    assert "Percent to hit: laser rifle at Capt. Orrin Vale" in seen(enc, "cor")


# --- percentile: a side not yet in the fight is not there; never an enemy's numbers ---------------------------

def test_percentile_a_side_not_yet_in_the_fight_is_not_named() -> None:
    enc = SaveFile.load(ROOT / "saves" / "demo-percentile.toml").encounter
    waiting = [s for s in enc.state["side_order"] if s not in enc.state["joined"]]
    person = next(pid for pid, p in enc.state["people"].items() if p["side"] in waiting)
    name = enc.state["people"][person]["name"]
    enc.act("asleep", person=person)
    enc.act("alertness", person=person, value=80)
    enc.act("side_alertness", side=waiting[0], value=80)
    for side in enc.state["joined"]:
        text = seen(enc, side)
        assert name not in text and enc.state["side_names"][waiting[0]] not in text.replace(
            "not yet in the fight", ""), text


def test_percentile_an_enemys_numbers_stay_out_of_the_log() -> None:
    from tests.rulesets.percentile.fights import fight, person, to_action

    enc = fight({"ann": person("blue", "Ann", aim=83), "ben": person("blue", "Ben"), "cid": person("red", "Cid")})
    to_action(enc)
    enc.act("attack", person="ann", weapon="auto_pistol", target="cid", range=5, aim="chest")
    answer(enc, "Percent to hit", "1")
    red = seen(enc, "red")
    assert "MARKSmanship" not in red and "Percent to hit: Ann auto pistol at Cid: success" in red
    enc.act("alertness", person="ann", value=90)
    assert "90" not in seen(enc, "red").split("Alertness Percentage: Ann")[-1]


# --- the players' screen: no event numbers or counts that hidden events would show through --------------------

def test_the_watch_log_shows_no_event_numbers_or_counts() -> None:
    from tui.screens.watch import log_text

    enc = SaveFile.load(ROOT / "saves" / "demo-classic-hg.toml").encounter
    for _ in range(3):
        enc.correct("ships.red-lantern.fuel", 10)  # hidden from the Imperials
    enc.act("roll_initiative")
    p = picture(enc, "imperial")
    p.earlier = 520
    text = log_text(p).plain
    assert "520" not in text and "   4 " not in text and "roll initiative" in text


def test_percentile_a_sides_alertness_rise_shows_no_number_to_another_side(tmp_path: Path) -> None:
    """Found by a game master's drive: "alertness rise who=raiders by=30" and "... jumps after the attack: 40 ->
    70" reached the marines' screen (``who`` names a side there, not a person)."""
    from tests.rulesets.percentile.test_alertness import SCRIPT, _round_two_ends, demo

    enc = demo(tmp_path)
    for step in SCRIPT:
        step(enc)
    _round_two_ends(enc)
    enc.act("alertness_rise", who="raiders", by=20)
    crew = [e for e in picture(enc, "crew").log if "lertness" in e.headline]
    assert crew and all("20" not in e.headline and "60" not in " ".join(e.details) for e in crew), \
        [(e.headline, e.details) for e in crew]
    raiders = seen(enc, "raiders")
    assert "40 -> 60" in raiders or "rise by 20" in raiders


def test_percentile_a_grazing_shot_reads_without_the_attackers_percent_to_hit() -> None:
    """Found by a game master's drive: "Grazing shot: 20 x 15/60 = 5 points" on the target's screen gave away the
    attacker's percent to hit (60). The target's side reads what it came to; the referee's log keeps it whole."""
    from tests.rulesets.percentile.fights import fight, person, to_action

    enc = fight({"ann": person("blue", "Ann", aim=65), "cid": person("red", "Cid")}, damage=2, grazing=True)
    to_action(enc)
    enc.act("attack", person="ann", weapon="auto_pistol", target="cid", range=5, aim="chest")
    answer(enc, "Percent to hit", "45")
    answer(enc, "Random hit location", "20")
    answer(enc, "Damage: auto pistol", "3 4 5 6")
    red = seen(enc, "red")
    assert "Grazing shot: 5 points" in red and "15/60" not in red
    assert any("Grazing shot: 20 x 15/60 = 5 points" in n for e in enc.events for n in e.notes)  # the referee's
    # a procedure 3 hit over the percent to hit grazes for nothing: the target reads that, not the roll's numbers
    enc = fight({"ann": person("blue", "Ann", aim=65), "cid": person("red", "Cid")}, to_hit=3, grazing=True)
    to_action(enc)
    enc.act("attack", person="ann", weapon="auto_pistol", target="cid", range=20, aim="chest",
            adversity=["conditions.dim", "cover.half"])
    answer(enc, "Percent to hit", "60")
    answer(enc, "Random hit location on Cid", "40")
    red = seen(enc, "red")
    assert "Grazing shot: 0 points" in red and "48" not in red and "14 points" not in red
    assert any("Grazing shot: 0 of 14 points: the roll 60" in n for e in enc.events for n in e.notes)


def test_percentile_a_miss_or_a_thrown_grenade_reads_without_the_attackers_numbers() -> None:
    """Found by a game master's drive: "Miss: 100 is not under 50" and "5 over Brawl 65: the grenade bounces"
    reached the other sides' screens, giving away the attacker's percent to hit and Brawl (the roll's own line
    already leaves them out). The other sides read what happened; the referee's log keeps the numbers.
    ``percentile-personal-combat.txt``, Procedures for Percent to Hit (1): "rolls 1:100sd and the result is
    under their MARKSmanship"; (4): "under character's brawl" no bounce, "less than 20 over" bounces, "more
    than 20 over" misses."""
    from tests.rulesets.percentile.fights import fight, person, to_action

    # Ann: MARKSmanship (Aim 83 + WEP DIF 55) / 2 = 69, rounded half up; a roll of 90 misses
    enc = fight({"ann": person("blue", "Ann", aim=83), "cid": person("red", "Cid")})
    to_action(enc)
    enc.act("attack", person="ann", weapon="auto_pistol", target="cid", range=5, aim="chest")
    answer(enc, "Percent to hit", "90")
    assert any("Miss: 90 is not under 69" in n for e in enc.events for n in e.notes)  # the referee's
    red = seen(enc, "red")
    assert "Miss" in red and "69" not in red and "90" not in red, red
    # Ben throws under Brawl 63: 70 is 7 over, a bounce; Dan's 95 is 32 over, a miss; Eve's 10 lands as aimed
    for name, brawl, roll, said in (("Ben", 63, "70", "bounces"), ("Dan", 61, "95", "misses"),
                                    ("Eve", 67, "10", "lands where it was aimed")):
        enc = fight({"ben": person("blue", name, brawl=brawl), "cid": person("red", "Cid")})
        to_action(enc)
        enc.act("attack", person="ben", weapon="frag_grenade", target="cid", range=10, aim="chest")
        answer(enc, "Grenade", roll)
        assert any(f"Brawl {brawl}" in n for e in enc.events for n in e.notes)  # the referee's
        red = seen(enc, "red")
        assert said in red and str(brawl) not in red and "over Brawl" not in red and "under Brawl" not in red, red


def test_percentile_a_procedure_3_attack_reads_without_the_attackers_percent_to_hit() -> None:
    """Percent to hit procedure (3): "subtract the Percent Against from the Percent to Hit. If the result has a
    negative value, the player has missed", and "If, however, the result is a positive number, the player has
    hit!". The notes that say so named the attacker's MARKSmanship and the result on the target's screen."""
    from tests.rulesets.percentile.fights import fight, person, to_action

    enc = fight({"ann": person("blue", "Ann", aim=65), "cid": person("red", "Cid")}, to_hit=3)
    to_action(enc)
    enc.act("attack", person="ann", weapon="auto_pistol", target="cid", range=20, aim="chest",
            adversity=["conditions.dim", "cover.half"])
    answer(enc, "Percent to hit", "60")
    referee = [n for e in enc.events for n in e.notes if n.startswith("Hit (the result")]
    assert referee and "is positive; 60 is over it" in referee[0], referee
    result = referee[0].split("the result ")[1].split(" ")[0]
    red = seen(enc, "red")
    assert "Hit" in red and "MARKSmanship" not in red and f"result {result}" not in red, red
    enc = fight({"ann": person("blue", "Ann", aim=20), "cid": person("red", "Cid")}, to_hit=3)
    to_action(enc)
    enc.act("attack", person="ann", weapon="auto_pistol", target="cid", range=900, aim="chest",
            adversity=["conditions.dim", "cover.half"])
    assert any("the range and adversity are too much" in n and "MARKSmanship" in n
               for e in enc.events for n in e.notes)  # the referee's
    red = seen(enc, "red")
    assert "the range and adversity are too much" in red and "MARKSmanship" not in red, red


def test_percentile_a_blows_table_damage_reads_without_the_attackers_strength() -> None:
    """Hand-to-hand damage "is directly related to the Physical Strength of the attacker" (Hand to Hand); damage
    procedure (3) reads WEP MOD against range on Table #3-3, and we add a tenth of the attacker's Strength. The
    note "= 9 +6 Physical Strength" told the target's side the attacker's Strength (60 to 69): it reads the sum."""
    from tests.rulesets.percentile.fights import fight, person, to_action

    enc = fight({"ann": person("blue", "Ann", strength=64, brawl=70), "cid": person("red", "Cid")}, damage=3)
    to_action(enc)
    enc.act("attack", person="ann", weapon="knife", target="cid", range=2, aim="chest")
    answer(enc, "Percent to hit", "5")
    said = next(n for e in enc.events for n in e.notes if n.startswith("Damage (Table 3-3)"))
    assert said.endswith(" +6 Physical Strength"), said  # the referee's
    points = int(said.split(" = ")[1].split(" ")[0]) + 6
    red = seen(enc, "red")
    assert "Physical Strength" not in red and f"= {points}" in red, red


# --- classic-hg played over turns: another side's mounts and weapons, and the initiative as told --------------

def _played(enc: Encounter, commander, faces: list[str], turns: int, read) -> None:
    """The fight played by ``commander`` (each side's doctrine) with the typed faces in turn, round and round
    (a roll they cannot answer takes the next that it can), until past ``turns`` or over; ``read(enc)`` after
    every event, so a line that shows only for a moment (an attack in flight, a roll waited for) is read too."""
    at, key = 0, "turn" if "turn" in enc.state else "round"
    while enc.state[key] <= turns and not enc.state.get("over"):
        if enc.pending is not None:
            for tried in range(len(faces)):
                typed = faces[(at + tried) % len(faces)]
                try:
                    enc.type_roll(typed)
                except Exception:  # noqa: BLE001  (a face the dice cannot show: 12 on 1D, 2 on 1d1)
                    continue
                at += tried + 1
                break
            else:
                raise AssertionError(f"no face answers {enc.pending.purpose} ({enc.pending.dice})")
        else:
            choice = commander.decide(enc.state)
            if choice is None:
                break
            enc.act(choice[0], **choice[1])
        read(enc)


def _enemy_words(enc: Encounter, side: str) -> tuple[set[str], set[str]]:
    """What names the other side's weapons (lower case: the labels of its mounts, the weapons they fire, the
    defences they put up, its torpedoes, and the weapon words its crew-attack keys spell) and its programs
    (as loaded, upper case), less any this side's own ships share (they may be named on its own lines)."""
    from rulesets.classic_hg.tables import load_tables
    from rulesets.classic_hg.choices import words

    tables = load_tables()

    def of(sid: str) -> tuple[set[str], set[str]]:
        ship, named = enc.state["ships"][sid], set()
        for t in ship["turrets"]:
            mount = tables.mounts[t["weapon"]]
            named.add(mount["label"].lower())
            for w in [*mount.get("fires", []), *mount.get("defends", [])]:
                entry = tables.weapons.get(w) or tables.defences.get(w) or {}
                named |= {entry.get("label", "").lower(), words(w).lower()}
        if ship["tubes"]:
            named |= {tables.weapons[w]["label"].lower() for w in ("torpedo_he", "torpedo_nuclear")} | {"torpedo"}
        return named - {""}, set(ship["programs"]) | set(ship["library"])

    theirs = [of(sid) for sid, s in enc.state["ships"].items() if s["side"] != side]
    ours = [of(sid) for sid, s in enc.state["ships"].items() if s["side"] == side]
    weapons = set().union(*(w for w, _p in theirs)) - set().union(*(w for w, _p in ours))
    programs = set().union(*(p for _w, p in theirs)) - set().union(*(p for _w, p in ours))
    return weapons, programs


def test_classic_hg_over_three_turns_no_side_reads_an_enemy_mount_weapon_or_program() -> None:
    """classic-hg's side view (``rulesets/classic_hg/sideview.py``): an enemy ship is read by its name and what it
    does, never by its weapons, its mounts (turret and tube ids name them) or its programs, and each side's
    initiative total is told aloud. Found by a game master's drive: under "Kinunir: Fire turrets at Black Jack"
    the target read "To hit: Kinunir T8 Particle accelerator x1 at Black Jack: success", the panel "Kinunir T1 at
    Black Jack: hit", and the log "Initiative: Imperial Navy: rolled" beside the panel's "Initiative: Imperial Navy
    6, Corsairs 6". Three turns of the two sides' standard doctrine with typed dice: a beam-laser gunboat against
    a raider with a particle accelerator, missiles, sand and a torpedo tube; both screens read after every event."""
    import re

    from engine.forecast import load_doctrine
    from rulesets.classic_hg import RULESET
    from rulesets.classic_hg.doctrine import Commander
    from tests.rulesets.classic_hg.duel import ESCORT, RAIDER, make_setup

    gunboat = {**ESCORT, "programs": ["TARGET", "ANTI-MISSILE", "PREDICT-2"], "program_library": ["EVADE-1"],
               "turrets": [{"weapon": "beam_laser", "count": 3, "gunner_skill": 1},
                           {"weapon": "beam_laser", "count": 2, "gunner_skill": 1}],
               "missiles": 0, "am_missiles": 0, "sand": 0, "repulsors": 0, "nuclear_dampers": 0}
    raider = {**RAIDER, "power_plant": 6, "programs": ["TARGET", "LAUNCH", "TORPEDO LAUNCH"],
              "turrets": [{"weapon": "particle_accelerator", "count": 1, "gunner_skill": 1},
                          {"weapon": "missile_rack", "count": 2, "gunner_skill": 1},
                          {"weapon": "sandcaster", "count": 2}]}
    enc = Encounter(make_setup(gunboat, raider), RULESET)
    standard = load_doctrine(RULESET, "standard")[1]
    commander = Commander(RULESET, {"imp": standard, "cor": standard})
    sides = {"imp": ("Vigilant", "Jackal"), "cor": ("Jackal", "Vigilant")}
    words = {side: _enemy_words(enc, side) for side in sides}
    assert {"particle accelerator", "he missile", "missile rack", "sand", "torpedo"} <= words["imp"][0]
    assert {"beam laser"} <= words["cor"][0] and "TORPEDO LAUNCH" in words["imp"][1]
    read: dict[str, str] = {}

    def check(enc: Encounter) -> None:
        for side, (_ours, enemy) in sides.items():
            text = seen(enc, side)
            weapons, programs = words[side]
            assert not re.search(rf"\b{enemy} (T\d+|B\d+|tube \d+)\b", text), (side, text)
            assert not [w for w in weapons if w in text.lower()], (side, [w for w in weapons if w in text.lower()])
            assert not [p for p in programs if re.search(rf"(?<![A-Z-]){re.escape(p)}(?![A-Z-])", text)], (side, text)
            read[side] = text

    _played(enc, commander, ["5 6", "6 6", "4", "3 4", "6", "2 5", "6 5", "1 2", "5", "3", "1"], 3, check)
    assert enc.state["turn"] == 4
    referee = "\n".join(n for e in enc.events for n in [enc.describe(e), *e.notes])
    for happened in ("To hit: Jackal T1 Particle accelerator", "To hit: Jackal tube 1 HE torpedo",
                     "Intercept A1: Jackal T3 Sand", "Radiation: A6 against Vigilant"):
        assert happened in referee, happened  # the fight reached what the screens must not tell
    # what each side is told: who fires at whom, the attack, the interception, the totals of both sides
    assert "Jackal: Fire at Vigilant" in read["imp"] and "To hit: Jackal at Vigilant: success" in read["imp"]
    assert "Jackal: Intercept an attack (A8)" in read["imp"] and "Intercept A8: success" in read["imp"]
    assert "To hit: Vigilant T2 Beam laser x2 at Jackal: success" in read["imp"]  # its own fire in full
    assert "Initiative: Corsairs: 6" in read["imp"] and "Initiative: Imperial Navy: 6" in read["cor"]
    assert "Initiative: Imperial Navy: 1D typed [4] +2 Tactics = 6" in read["imp"]  # its own roll in full
    assert "Tactics" not in read["cor"]  # the Imperials' DM behind their total


# --- megatraveller played over rounds: another side's batteries, weapons and numbers -------------------------

def _others(enc: Encounter, side: str) -> str:
    """Everything the side's picture holds but its own units' panels (which hold its own numbers in full)."""
    p = picture(enc, side)
    parts = [p.title, p.where, p.step, p.waiting, p.view.unseen, *p.view.notes]
    for c in p.view.contacts:
        parts += [c.name] + [f"{a}: {b}" for a, b in c.known]
    for e in p.log:
        parts += [e.headline, *e.details]
    return "\n".join(parts)


def test_megatraveller_over_three_rounds_no_side_reads_an_enemy_battery_weapon_or_number() -> None:
    """megatraveller's side view (``rulesets/megatraveller/sideview.py``): a lock gives "power and tonnage, but NOT
    type nor other data" (States of Detection), so another side's batteries, weapons, armor (AV), computer and
    the factor of a battery that hit never show; its fire reads as who fires at whom. Three rounds of the standard
    doctrine on both sides with typed dice, two squares apart: the Lancer's beam laser and tractor beam against
    Corsair-1's fusion guns, nuclear missile, meson gun and spinal particle accelerator; both screens read after
    every event. Found here: a tractor beam's hit read "Tractor beam: no damage table to roll on" on the target's
    screen."""
    import re

    from engine.forecast import load_doctrine
    from rulesets.megatraveller import RULESET
    from rulesets.megatraveller.doctrine import Commander
    from tests.rulesets.megatraveller.engagement import LANCER, SCAN

    lancer = {**LANCER, "batteries": [{"weapon": "beam_laser", "factor": 1}, {"weapon": "tractor", "factor": 3}]}
    corsair = {"side": "cor", "name": "Corsair-1", "type_code": "P", "tonnage": 400, "power_plant": 3,
               "maneuver": 3, "computer_model": 2, "signature": "medium", "defence_dm": 1, "armor": 37, "sand": 2,
               "repulsor": 1, "damper": 1, "fuel": 120, "crew": 9, "sensors": SCAN,
               "batteries": [{"weapon": "fusion_gun", "factor": 5, "count": 2},
                             {"weapon": "nuclear_missile", "factor": 3},
                             {"weapon": "meson_gun", "factor": 3, "to_hit_number": 2},
                             {"weapon": "particle_accelerator", "factor": 11, "spinal": True}]}
    enc = _mt({"lancer": lancer, "corsair": corsair}, 2)
    standard = load_doctrine(RULESET, "standard")[1]
    sides = {"imp": ("Lancer", "Corsair-1", ("fusion gun", "nuclear missile", "meson gun", "particle accelerator")),
             "cor": ("Corsair-1", "Lancer", ("beam laser", "tractor"))}
    read: dict[str, str] = {}

    def check(enc: Encounter) -> None:
        for side, (ours, enemy, weapons) in sides.items():
            text, others = seen(enc, side), _others(enc, side)
            assert not re.search(rf"\b{enemy} B\d|\bB\d+(-\d+)? on {ours}\b", text), (side, text)
            assert not [w for w in weapons if w in text.lower()], (side, [w for w in weapons if w in text.lower()])
            for number in ("AV ", "Def DM", f"{enemy} computer", "UCP factor", "Aim ", "Tactics ("):
                assert number not in others, (side, number, others)
            read[side] = text

    _played(enc, Commander(RULESET, {"imp": standard, "cor": standard}), ["6 6", "5 6", "6 5", "4 5", "6 6", "3 4",
                                                                          "5 5"], 3, check)
    assert enc.state["round"] == 4
    referee = "\n".join(n for e in enc.events for n in [enc.describe(e), *e.notes])
    for happened in ("To hit: Corsair-1 B4 spinal particle accelerator-B at Lancer: 2D", "Tractor beam: no damage",
                     "Penetrate configuration-5: Corsair-1 B3 at Lancer", "UCP factor B"):
        assert happened in referee, happened  # the fight reached what the screens must not tell
    assert "To hit: Corsair-1 at Lancer: success" in read["imp"] and "7 criticals, Lancer loses 7 armor" in read["imp"]
    assert "Penetrate repulsor: Lancer at Corsair-1: success" in read["cor"]
    assert "No damage table to roll on, so no damage, no criticals and no armor lost" in read["cor"]


def test_percentile_a_hits_margin_under_the_percent_to_hit_is_the_attackers_to_read() -> None:
    """Found by a game master's drive: the Aracnians' screen read "Direct hit (51 under): the abdomen, as aimed" for
    a marine's blow whose roll it reads only as "success": the margin under the percent to hit is the attacker's
    number (with the roll seen at the table, it is his BRAWLmanship's percent). ``percentile-personal-combat.txt``,
    Procedures for Percent to Hit (3) i: "more than 20 under the result, the attack is a direct hit"; ii: "20 or
    less under ... a random hit". The other sides read which it was; the referee's log keeps the margin."""
    from tests.rulesets.percentile.fights import fight, person, to_action

    for roll, said in (("5", "Direct hit"), ("45", "random hit on Cid")):
        enc = fight({"ann": person("blue", "Ann", aim=65), "cid": person("red", "Cid")})
        to_action(enc)
        enc.act("attack", person="ann", weapon="auto_pistol", target="cid", range=5, aim="chest")
        answer(enc, "Percent to hit", roll)
        referee = [n for e in enc.events for n in e.notes if " under" in n and n.split(" (")[0] in ("Hit", "Direct hit")]
        assert referee and said in referee[0], referee
        margin = referee[0].split("(")[1].split(" under")[0]
        assert int(margin) > 0
        red = seen(enc, "red")
        assert said in red and f"{margin} under" not in red, red
        assert f"{margin} under" in seen(enc, "blue")  # Ann's own side reads her roll whole
