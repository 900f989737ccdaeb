"""Every test starts from the same state: no answers cached from an earlier test, and the
default work limit. The suite passes in any order (CI runs it once shuffled).

Tests marked ``slow`` run when the environment variable ``CI`` is true (as in CI) and are
skipped otherwise, so a plain ``pytest`` stays quick; ``CI=true pytest`` runs everything.
No test depends on how fast the machine is: Hypothesis has no per-example deadline here."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("exactodds", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("exactodds")

SLOW_REASON = "slow: runs in CI (CI=true)"


def in_ci() -> bool:
    """Whether the environment variable ``CI`` is set to a true value (``true``, ``1``, ``yes``, ``on``)."""
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes", "on")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip the tests marked ``slow`` unless running in CI (:func:`in_ci`)."""
    if in_ci():
        return
    skip = pytest.mark.skip(reason=SLOW_REASON)
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _fresh_state() -> Iterator[None]:
    from exactodds.core.limits import DEFAULT_MAX_STATES, max_states
    from exactodds.sweep.cache import ANSWERS

    ANSWERS.clear()
    yield
    ANSWERS.clear()
    assert max_states() == DEFAULT_MAX_STATES or "EXACTODDS_MAX_STATES" in os.environ, \
        "a test left a state limit set"
