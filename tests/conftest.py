"""Every test starts from the same state: no answers cached from an earlier test, and the
default work limit. The suite passes in any order (CI runs it once shuffled)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _fresh_state() -> Iterator[None]:
    from exactodds.core.limits import DEFAULT_MAX_STATES, max_states
    from exactodds.sweep.cache import ANSWERS

    ANSWERS.clear()
    yield
    ANSWERS.clear()
    assert max_states() == DEFAULT_MAX_STATES or "EXACTODDS_MAX_STATES" in os.environ, \
        "a test left a state limit set"
