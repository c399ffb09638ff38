"""A correction read from a save's log is held to the rules a typed one is (``corrections.refusal``), and one whose
value is a whole table or list to the trial too (``corrections.breakage``): a mutated log once loaded a value the
console would have refused, and the fight then crashed where the GM looked (a gothic critical of ``true``, a
classic-hg turret weapon no table knows). Each is refused on load in one line naming the event and the field,
and the file is never changed."""

from __future__ import annotations

from pathlib import Path

import pytest
import tomlkit

from engine.errors import BadSave
from engine.saves import SaveFile, create
from tests.demos import shipped_demos


def _logged(tmp_path: Path, ruleset: str, field: str, good: object, bad_toml: str) -> Path:
    """The demo with one typed correction of ``field`` (a path under its first ship), its value then replaced in
    the file by ``bad_toml`` and its [state] dropped (so no state copy gives the edit away)."""
    enc = SaveFile.load(shipped_demos()[ruleset]).encounter
    sf = create(tmp_path / f"{ruleset}.toml", enc)
    sid = next(iter(sf.encounter.state["ships"]))
    sf.encounter.correct(f"ships.{sid}.{field}", good)
    sf.save()
    doc = tomlkit.parse(sf.path.read_text())
    del doc["state"]
    doc["events"][-1]["value"] = tomlkit.parse(f"v = {bad_toml}")["v"]
    sf.path.write_text(tomlkit.dumps(doc))
    return sf.path


def _refused(path: Path, match: str) -> None:
    before = path.read_bytes()
    with pytest.raises(BadSave, match=match) as info:
        SaveFile.load(path)
    message = str(info.value)
    assert "\n" not in message and str(path) in message and "events[" in message, message
    assert path.read_bytes() == before


def test_a_logged_list_of_plain_entries_the_rules_read_as_tables_is_refused(tmp_path: Path) -> None:
    """gothic criticals = [true]: the list is empty in the demo, so its shape cannot tell; the trial can."""
    _refused(_gothic_criticals(tmp_path), r"criticals")


def _gothic_criticals(tmp_path: Path) -> Path:
    path = _logged(tmp_path, "gothic", "name", "Zed", '"Zed"')
    doc = tomlkit.parse(path.read_text())
    event = doc["events"][-1]
    event["path"][2] = "criticals"
    event["value"] = tomlkit.parse("v = [true]")["v"]
    event["was"] = tomlkit.parse("v = []")["v"]
    path.write_text(tomlkit.dumps(doc))
    return path


def test_a_logged_turret_weapon_no_table_knows_is_refused(tmp_path: Path) -> None:
    """classic-hg: a typed weapon must be one the tables know (its correction rule); the log's is held to it too."""
    enc = SaveFile.load(shipped_demos()["classic-hg"]).encounter
    sid = next(iter(enc.state["ships"]))
    weapon = enc.state["ships"][sid]["turrets"][0]["weapon"]
    path = _logged(tmp_path, "classic-hg", "turrets[0].weapon", weapon, '"pulse_laserx"')
    _refused(path, r"turrets\[0\]\.weapon must be one of")


def test_a_logged_correction_the_rules_take_still_loads(tmp_path: Path) -> None:
    enc = SaveFile.load(shipped_demos()["gothic"]).encounter
    sf = create(tmp_path / "ok.toml", enc)
    sid = next(iter(sf.encounter.state["ships"]))
    sf.encounter.correct(f"ships.{sid}.name", "Zed")
    sf.save()
    assert SaveFile.load(sf.path).encounter.state["ships"][sid]["name"] == "Zed"
