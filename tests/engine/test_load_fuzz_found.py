"""Hand-edited saves a fuzzer of mutated files found answered badly (session 27): each is still refused in one
line, now naming the field at fault rather than "cannot be read: TypeError ...", and the file is never changed.

The fuzzer's other findings: ``flagbridge check`` read a key of tens of thousands of dotted parts for minutes
(tomllib's time grows with the square of them), and a message quoted an ESC byte from the file to the terminal.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import BadSave, BadTable
from engine.reading import MAX_KEY_PARTS, read_toml
from engine.saves import SaveFile, create
from tests.skirmish import played_duel

DEMOS = Path(__file__).resolve().parents[2] / "saves"


@pytest.fixture
def duel(tmp_path: Path) -> Path:
    path = tmp_path / "duel.toml"
    create(path, played_duel("4 5"))
    return path


def refused(path: Path, old: str, new: str, match: str) -> str:
    text = path.read_text()
    assert text.count(old) >= 1, old
    path.write_text(text.replace(old, new, 1))
    before = path.read_bytes()
    with pytest.raises(BadSave, match=match) as info:
        SaveFile.load(path)
    message = str(info.value)
    assert "\n" not in message and str(path) in message and "cannot be read" not in message, message
    assert path.read_bytes() == before
    return message


def test_a_unit_whose_side_is_a_table_is_refused_by_name(duel: Path) -> None:
    refused(duel, '[setup.ships.arrow]\nside = "blue"', "[setup.ships.arrow]\nside = {}",
            r"setup\.ships\.arrow: side must be one of blue, red, got \{\}")


def test_a_logged_correction_of_another_kind_of_value_is_refused_by_name(duel: Path) -> None:
    """A correction that replaced the whole ships table by true reached the rules, which crashed on it."""
    event = ('\n[[events]]\nkind = "correction"\ngroup = 99\nat = 2026-12-02T01:29:06Z\npath = ["ships"]\n'
             'value = true\nwas = 0\n')
    duel.write_text(duel.read_text().rstrip("\n") + "\n" + event)
    before = duel.read_bytes()
    with pytest.raises(BadSave, match="ships holds a table, got True") as info:
        SaveFile.load(duel)
    assert "cannot be read" not in str(info.value) and duel.read_bytes() == before


@pytest.mark.parametrize("old, new, match", [
    ('context = { side = "blue" }', "context = 1", r"roll context: expected a table, got 1"),
    ('    { source = "Tactics", value = 1 },', '    { value = 1 },', r"modifier \{'value': 1\}: expected a table"),
    ('    { source = "Tactics", value = 1 },', '    { source = "Tactics", value = "x" },',
     r"expected a table with source \(text\) and value \(a whole number\)"),
])
def test_a_logged_roll_of_another_shape_is_refused_by_its_field(duel: Path, old: str, new: str, match: str) -> None:
    refused(duel, old, new, match)


def test_a_message_never_sends_a_control_character_from_the_file_to_the_terminal(tmp_path: Path) -> None:
    path = tmp_path / "esc.toml"
    path.write_text((DEMOS / "demo-percentile.toml").read_text().replace("[state]", "[state\x1b]", 1))
    with pytest.raises(BadSave) as info:
        SaveFile.load(path)
    assert "\x1b" not in str(info.value) and "\\x1b" in str(info.value)


def test_a_key_of_thousands_of_parts_is_refused_without_reading_it(tmp_path: Path) -> None:
    """``flagbridge check`` asks ``read_toml`` what a file is: tomllib took 22 s over 20,000 parts."""
    path = tmp_path / "deep.toml"
    path.write_text(".".join(["a"] * 20_000) + " = 1\n" + (DEMOS / "demo-gothic.toml").read_text())
    with pytest.raises(BadTable, match=f"a key or table name of more than {MAX_KEY_PARTS} parts"):
        read_toml(path)
    header = tmp_path / "header.toml"
    header.write_text("[" + ".".join(["e"] * 5_000) + "]\n")
    with pytest.raises(BadTable, match="more than"):
        read_toml(header)
    cyrillic = tmp_path / "cyrillic.toml"  # quoted parts in letters outside ASCII, as a unit id may now be
    cyrillic.write_text(".".join(['"ид"'] * 20_000) + " = 1\n", encoding="utf-8")
    with pytest.raises(BadTable, match="more than"):
        read_toml(cyrillic)
    fine = tmp_path / "floats.toml"  # dots between numbers are no key
    fine.write_text("x = [" + ", ".join(["1.5"] * 3_000) + "]\n")
    assert len(read_toml(fine)["x"]) == 3_000


def test_a_save_read_by_either_toml_reader_has_the_same_times(duel: Path) -> None:
    """A text toml-rs may not read (here a comment holding a 25-digit number) goes to rtoml, whose times carried
    its own zone class: the same save then read differently whole (rtoml) and from its replay cache (toml-rs
    reads the tail), as a property test of the cache found. Both give standard UTC times now."""
    from datetime import timezone

    fast = SaveFile.load(duel).encounter
    duel.write_text(duel.read_text() + "# 1234567890123456789012345\n")
    slow = SaveFile.load(duel).encounter
    assert [e.at.tzinfo for e in slow.events] == [timezone.utc] * len(slow.events)
    assert repr([e.at for e in slow.events]) == repr([e.at for e in fast.events])


@pytest.mark.parametrize("entry", ['["laser_rifle"]', '{ id = "laser_rifle" }', "7", "true"])
def test_a_list_of_names_holding_another_kind_of_value_is_refused_by_its_field(tmp_path: Path, entry: str) -> None:
    """A person's weapons list holding a list or a table reached the weapons table's lookup, which cannot hash it
    ("cannot be read: TypeError: unhashable type"): the field itself says it is a list of names (session 29)."""
    path = tmp_path / "weapons.toml"
    path.write_text((DEMOS / "demo-percentile.toml").read_text())
    message = refused(path, 'weapons = ["laser_rifle", "fist"]', f'weapons = [{entry}, "fist"]',
                      r"setup\.people\.\w+: weapons must be a list of names, got \[")
    assert "TypeError" not in message


def test_a_resumed_state_whose_forms_cannot_be_asked_is_refused(tmp_path: Path) -> None:
    """A megatraveller [state] whose ship id was edited (``courier`` to ``"courier\\nx"``) holds no range between that
    ship and the others: ``flagbridge resume`` took it, and the console then crashed asking the sensor form's
    choices (KeyError in ranges.squares). What the console asks of every action it offers is tried too, and the
    file is left as it was (session 29)."""
    from engine.resume import resume

    path = tmp_path / "picket.toml"
    text = (DEMOS / "demo-megatraveller.toml").read_text()
    path.write_text(text.replace("[state.ships.courier", '[state.ships."courier\\nx"'))
    before = path.read_bytes()
    with pytest.raises(BadSave, match="the saved state cannot be played on") as info:
        resume(path)
    assert "\n" not in str(info.value) and path.read_bytes() == before
    assert not path.with_name("picket.before-resume.toml").exists()


def test_a_resumed_state_a_rule_cannot_read_is_refused_in_one_line(tmp_path: Path) -> None:
    """A gothic [state] whose vessel's criticals hold a word instead of a table, with a log that no longer replays:
    ``flagbridge resume`` checked each value with the correction rules, one of which (shields) reads the vessel's
    criticals, and answered "unexpected error: TypeError". A rule that cannot read the state it is asked about is a
    reason to refuse, in one line naming the value (session 29)."""
    refused_on_resume(tmp_path / "kessel.toml", (DEMOS / "demo-gothic.toml").read_text(), "\n[state]",
                      "criticals = []", 'criticals = ["x"]',
                      r"the saved state cannot be played on: setup\.start\.ships\.hammer\.")


def test_a_resumed_megatraveller_state_with_a_ship_no_range_names_is_refused(tmp_path: Path) -> None:
    """A [state] holding a ship the setup lacks (the scout's tables copied as ``scout2``) was resumed, and the fight
    crashed later, at the step whose form lists targets with their ranges (KeyError 'corsair|scout2'). The tables a
    ruleset keys by ship pairs and sides must name every ship the state holds (session 29)."""
    from engine.resume import resume

    path = tmp_path / "picket.toml"
    text = (DEMOS / "demo-megatraveller.toml").read_text()
    start, end = text.index("[state.ships.scout]"), text.index("[state.ships.corsair]")
    path.write_text(text[:end] + text[start:end].replace("[state.ships.scout", "[state.ships.scout2") + text[end:])
    before = path.read_bytes()
    with pytest.raises(BadSave, match=r"the saved state cannot be played on: setup\.start\.ranges: no range between "
                                      r"Red Lantern \(corsair\) and Far Sight \(scout2\)") as info:
        resume(path)
    assert "\n" not in str(info.value) and path.read_bytes() == before


@pytest.mark.parametrize("new", ['{ id = "" }', '["x"]'])
def test_a_resumed_state_with_a_table_or_list_for_a_plain_value_is_refused(tmp_path: Path, new: str) -> None:
    """A [state] whose sensor record held a table (or a list) where the rules keep text was resumed: the check of
    each value looked inside the table and found nothing to compare, and a later sensor roll crashed on it
    (ValueError in sensors.py). A table or list where a fresh start has a plain value is refused (session 29)."""
    refused_on_resume(tmp_path / "picket.toml", (DEMOS / "demo-megatraveller.toml").read_text(),
                      "[state.knowledge.imperial.corsair]\n", 'revealed = ""', f"revealed = {new}",
                      r"setup\.start\.knowledge\.imperial\.corsair\.revealed: expected str")


def test_a_resumed_state_with_a_plain_value_for_a_table_is_refused(tmp_path: Path) -> None:
    """The other way round: a sensor record (a table) given as text."""
    from engine.resume import resume

    path = tmp_path / "picket.toml"
    text = (DEMOS / "demo-megatraveller.toml").read_text()
    text = text.replace('[state.knowledge.imperial.corsair]\nstate = "detected"\nrevealed = ""\n', "", 1)
    path.write_text(text.replace("[state.fleet_tactics]", '[state.knowledge.imperial]\ncorsair = "detected"\n\n'
                                 "[state.fleet_tactics]", 1)
                    + '\n[[events]]\nkind = "action"\ngroup = 1\nat = 2026-12-02T01:29:06Z\nname = "next"\n'
                      "args = { x = 1 }\n")
    before = path.read_bytes()
    with pytest.raises(BadSave, match=r"setup\.start\.knowledge\.imperial\.corsair: expected dict, got 'detected'"):
        resume(path)
    assert path.read_bytes() == before


BROKEN_LOG = '\n[[events]]\nkind = "action"\ngroup = 9999\nat = 2026-12-02T01:29:06Z\nname = "next"\nargs = { x = 1 }\n'


def refused_on_resume(path: Path, text: str, after: str, old: str, new: str, match: str) -> None:
    """``text`` with ``old`` made ``new`` past ``after`` and a log that no longer replays, written to ``path``:
    ``resume`` refuses it as ``match`` says and leaves the file as it was."""
    from engine.resume import resume

    at = text.index(after)
    assert old in text[at:]
    path.write_text(text[:at] + text[at:].replace(old, new, 1) + BROKEN_LOG)
    before = path.read_bytes()
    with pytest.raises(BadSave, match=match) as info:
        resume(path)
    assert "\n" not in str(info.value) and path.read_bytes() == before  # one line, the file as it was


@pytest.mark.parametrize("old, new, match", [
    # a stateroom's berth taken out (or renamed): the damage roll that destroyed the stateroom read it (KeyError)
    ('{ berth = "stateroom 2", occupant', '{ occupant', r"setup\.start\.ships\.swift-dolan\.quarters\[1\]: missing berth"),
    # a side twice in the order of sides: the next turn's initiative unpacked two sides from it (ValueError)
    ('side_order = ["imperial", "corsairs"]', 'side_order = ["imperial", "corsairs", "imperial"]',
     r"setup\.start\.side_order must hold the entries it holds at the start, in any order \(imperial, corsairs\)"),
])
def test_a_resumed_state_whose_records_or_orders_were_cut_is_refused(tmp_path: Path, old: str, new: str,
                                                                      match: str) -> None:
    """Found by a fuzz of resumed [state]s played on (session 29): each was resumed and crashed a later step."""
    refused_on_resume(tmp_path / "regina.toml", (DEMOS / "demo-classic-hg.toml").read_text(), "\n[state]", old, new,
                      match)


@pytest.mark.parametrize("old, new, match", [
    # a battery's factor written 3.0: the next fire read a table row by it (TypeError)
    ("factor = 3,", "factor = 3.0,", r"setup\.start\.ships\.\w+\.batteries\[\d\]\.factor: expected int, got 3\.0"),
    # a side's name taken out: the sensors' notes named the side by it (KeyError)
    ('corsairs = "Corsairs"\n', "", r"setup\.start\.side_names: missing corsairs"),
    # a sensor that reaches a band the rules do not have (a typo): the next sensor roll looked the band up
    ('far = "formidable"', 'farx = "formidable"', r"setup\.start\.ships\.corsair\.sensors\.pass_obj_pin: unexpected "
                                                  r"key 'farx' \(expected visual, near, far, extreme\)"),
])
def test_a_resumed_megatraveller_state_the_rules_cannot_read_is_refused(tmp_path: Path, old: str, new: str,
                                                                        match: str) -> None:
    """Found by a fuzz of resumed [state]s played on (session 29): each was resumed and crashed a later step."""
    refused_on_resume(tmp_path / "picket.toml", (DEMOS / "demo-megatraveller.toml").read_text(), "\n[state]", old,
                      new, match)


@pytest.mark.parametrize("old, new, match", [
    ("defended_by = [], ", "", r"setup\.start\.attacks\[0\]: missing defended_by"),
    ("interceptable = true", "interceptable = 9223372036854775807",
     r"setup\.start\.attacks\[0\]\.interceptable: expected bool, got 9223372036854775807"),
])
def test_a_resumed_classic_hg_attack_cut_or_retyped_is_refused(tmp_path: Path, old: str, new: str, match: str) -> None:
    """An attack of a resumed [state] lacking a field (or holding another kind of value) was taken, and the next
    interception crashed on it (KeyError 'defended_by' in fire.py): a fresh start has no attacks to compare with,
    so classic-hg checks each against the fields an attack is made with (session 29)."""
    enc = SaveFile.load(DEMOS / "demo-classic-hg.toml").encounter
    enc.act("roll_initiative")
    enc.type_roll("4")
    enc.type_roll("2")
    enc.act("next")
    enc.act("next")
    enc.act("fire", ship="swift-dolan", turrets=["T1"], target="red-lantern")
    enc.type_roll("12")
    path = tmp_path / "regina.toml"
    create(path, enc)
    text = path.read_text()
    assert text.index("\nattacks = [") > text.index("\n[state]")  # the state's own, the first in the file
    refused_on_resume(path, text, "\nattacks = [", old, new, match)


@pytest.mark.parametrize("written", ['[flagbridge.setup_digest]\nid = "x"\n', 'setup_digest.id = "x"\n'])
def test_a_header_holding_a_table_where_a_save_writes_a_value_is_written_anew(duel: Path, written: str) -> None:
    """A header whose ``setup_digest`` was a table loaded, and the next save added the value's
    line beside the table: a file no TOML reader opens (``flagbridge resume`` wrote one, then refused it). The
    game master's header is kept only when each value a save rewrites is a line of its own (session 29)."""
    import re as regex

    text = duel.read_text()
    text = regex.sub(r"^setup_digest = [^\n]*\n", "", text, count=1, flags=regex.M)
    if written.startswith("["):
        text = text.replace("\n[setup", "\n" + written + "\n[setup", 1)
    else:
        text = text.replace("\nseed = ", "\n" + written + "seed = ", 1)
    duel.write_text(text)
    sf = SaveFile.load(duel)
    sf.encounter.correct("ships.arrow.hull", "3")
    sf.save()
    again = SaveFile.load(duel)  # the file written opens
    assert again.encounter.state == sf.encounter.state


def test_a_setup_option_written_as_a_decimal_is_refused_by_its_field(tmp_path: Path) -> None:
    """``subturns = 5.0`` passed the percentile options' check (5.0 equals 5) and failed later as "cannot be read:
    TypeError: 'float' object cannot be interpreted as an integer" (session 29)."""
    path = tmp_path / "boarding.toml"
    path.write_text((DEMOS / "demo-percentile.toml").read_text())
    refused(path, "subturns = 5\n", "subturns = 5.0\n", r"setup\.options\.subturns: expected sub-turns .*got 5\.0")


def test_a_resumed_state_whose_waiting_roll_names_a_unit_it_lacks_is_refused(tmp_path: Path) -> None:
    """A percentile [state] waiting for Marr's shot at Skarr-Vesh, with Skarr-Vesh taken out of it (or renamed), was
    resumed; the shot's answer then looked her up (KeyError in wounds.py). A waiting roll that names a unit of the
    fight the state no longer holds is refused (session 29)."""
    import random
    import re as regex

    from engine.resume import resume
    from tests.console_play import play

    enc = SaveFile.load(DEMOS / "demo-percentile.toml").encounter
    rng = random.Random(0)
    for _ in range(13):
        play(enc, rng, 1)
    assert enc.state["pending"][0]["context"]["target"] == "skarr"
    path = tmp_path / "boarding.toml"
    create(path, enc)
    text = path.read_text()
    state = text.index("\n[state]")
    kept, skipping = [], False
    for line in text[state:].splitlines(keepends=True):  # her tables in [state] left out, nothing else
        if line.startswith("["):
            skipping = bool(regex.match(r"\[+state\.people\.skarr[\].]", line))
        if not skipping:
            kept.append(line)
    path.write_text(text[:state] + "".join(kept) + BROKEN_LOG)
    before = path.read_bytes()
    with pytest.raises(BadSave, match=r"setup\.start\.pending\[0\]: the roll names skarr, a unit the state no longer "
                                      r"holds"):
        resume(path)
    assert path.read_bytes() == before


# --- control characters in a save's text (fuzz30: an ESC in a ship's name reached the terminal) ------------------

@pytest.mark.parametrize("old, new, field", [
    ('name = "Arrow"', 'name = "Arrow\\u001b[31mRED"', "setup.ships.arrow.name"),
    ('name = "Blue"', 'name = "Bl\\u0007ue"', r"setup.sides\[0\].name"),
    ('name = "Test duel"', 'name = "Test\\bduel"', "flagbridge.name"),
    ('purpose = "Scan"', 'purpose = "Scan\\u009b31m"', r"events\[5\].purpose"),
])
def test_a_control_character_in_a_save_s_text_is_refused_by_its_field(duel: Path, old: str, new: str,
                                                                    field: str) -> None:
    """The console, ``flagbridge log`` and ``watch`` show a save's text as written: an ESC or a C1 CSI there would
    reach the terminal as an escape code (the Ships panel turned red). Refused on load, naming the field, the
    character written out, never sent. (A line end or a tab is laid out as text, and stays allowed.)"""
    message = refused(duel, old, new, rf"{field}: holds a control character")
    assert not any(c in message for c in "\x1b\x07\b\x9b"), message


def test_a_control_character_in_a_logged_correction_s_note_is_refused_by_its_field(duel: Path) -> None:
    event = ('\n[[events]]\nkind = "correction"\ngroup = 99\nat = 2026-12-02T01:29:06Z\npath = ["ships", "arrow", '
             '"name"]\nvalue = "Arrow II"\nwas = "Arrow"\nnote = "renamed\\u001b]0;owned\\u0007"\n')
    duel.write_text(duel.read_text().rstrip("\n") + "\n" + event)
    before = duel.read_bytes()
    with pytest.raises(BadSave, match=r"events\[\d+\]\.note: holds a control character") as info:
        SaveFile.load(duel)
    assert "\x1b" not in str(info.value) and duel.read_bytes() == before


def test_a_logged_correction_reads_the_value_it_replaced_as_replayed_not_as_written(tmp_path: Path) -> None:
    """Two corrections of one value swapped by hand (found by the save fuzz): the file's ``was`` no longer says what
    each replaced, and the log read "150 -> 140" then "160 -> 150", ending on 150. The log now says what each
    correction replaced as the fight replays, so it cannot contradict itself, and the next save writes that."""
    import shutil

    path = tmp_path / "swapped.toml"
    shutil.copyfile(DEMOS / "demo-classic-hg.toml", path)
    enc = SaveFile.load(path).encounter
    start = enc.state["ships"]["swift-dolan"]["fuel"]
    enc.correct("ships.swift-dolan.fuel", 150, note="first")
    enc.correct("ships.swift-dolan.fuel", 140, note="second")
    create(path, enc)
    text = path.read_text()
    state, first, second = text.index("\n[state]\n"), text.index("\n[[events]]\n"), text.rindex("\n[[events]]\n")
    one, two = text[first:second], text[second:]  # the two corrections, swapped, and [state] left out
    one, two = one.replace("group = 1\n", "group = 2\n"), two.replace("group = 2\n", "group = 1\n")
    path.write_text(text[:state] + two.rstrip("\n") + "\n" + one.rstrip("\n") + "\n")
    save = SaveFile.load(path)
    enc = save.encounter
    assert enc.state["ships"]["swift-dolan"]["fuel"] == 150
    lines = [line for line in (enc.describe(ev) for ev in enc.events) if "fuel" in line]
    assert [line.split(" (")[0].split("fuel ")[-1] for line in lines] == [f"{start} -> 140", "140 -> 150"], lines
    enc.act("roll_initiative")
    save.save()
    assert [line for line in path.read_text().splitlines() if line.startswith("was = ")] == [
        f"was = {start}", "was = 140"]
