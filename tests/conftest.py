"""Shared fixtures: the test-only ruleset is registered for every test."""

import pytest

from engine.ruleset import register
from tests.skirmish import SKIRMISH, make_setup

register(SKIRMISH)


@pytest.fixture
def setup():
    return make_setup()
