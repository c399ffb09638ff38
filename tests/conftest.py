"""Shared fixtures: the test-only ruleset is registered for every test."""

import pytest

from engine.encounter import Encounter
from engine.ruleset import register
from rulesets import register_builtin
from tests.skirmish import SKIRMISH, make_setup

register(SKIRMISH)
register_builtin()
Encounter.check_every_event = True  # a rule that leaves unsaveable data fails at once in tests


@pytest.fixture(autouse=True)
def own_config_folder(tmp_path_factory, monkeypatch):
    """Tests keep their recent-saves list and their replay-cache key to themselves, never in the user's
    config or state folder."""
    from engine import replay_cache

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config")))
    monkeypatch.setenv("FLAGBRIDGE_STATE_DIR", str(tmp_path_factory.mktemp("state")))
    replay_cache.forget_key()
    yield
    replay_cache.forget_key()


@pytest.fixture
def setup():
    return make_setup()


@pytest.fixture
def console_opened(monkeypatch) -> dict:
    """``tui.launch.run`` with a stand-in for the console app: the keywords the app would have been made with
    (``load_error`` when the save did not open), and no terminal taken."""
    seen: dict = {}

    class FakeApp:
        save = None
        return_code = 0

        def __init__(self, *a, **k):
            seen.update(k)

        def run(self):
            return None

    monkeypatch.setattr("tui.app.FlagbridgeApp", FakeApp)
    return seen
