"""The 40K shooting step on the whole distribution of worlds (:mod:`exactodds.rules.wh40k6.shot_worlds`)
gives exactly what its kernel gives world by world: the same weights, the same total, the same order."""

from __future__ import annotations

from pathlib import Path

import pytest

from exactodds.core import Dist
from exactodds.profiles.scenario import load_scenario
from exactodds.rules.wh40k6.shot_worlds import ShotWorlds

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"

HOT_EXCHANGE = """
turns = 2

[units.veterans]
file = "{ex}/40k6/plasma_veterans.toml"

[units.orks]
file = "{ex}/40k6/ork_boyz_sluggas.toml"

[[steps]]
kind = "regroup"
unit = "orks"

[[steps]]
kind = "shoot"
name = "veterans shoot"
unit = "veterans"
target = "orks"
range = "half"

[[steps]]
kind = "shoot"
name = "orks shoot"
unit = "orks"
target = "veterans"
range = "half"
"""


def _both_ways(scenario) -> tuple[Dist, int]:
    """Run ``scenario`` step by step, checking every shooting step's answer on the
    whole distribution against its kernel world by world; the final Dist and how
    many shooting steps were compared."""
    dist, compared = Dist.constant(scenario.start_world()), 0
    for step in scenario.pipeline().steps:
        got = step.apply(dist)
        if isinstance(step.apply, ShotWorlds):
            plain = dist.then(step.apply.kernel)
            assert list(got.weights().items()) == list(plain.weights().items())
            assert got.denominator == plain.denominator
            compared += 1
        dist = got
    return dist, compared


@pytest.mark.parametrize("name, turns, shots", [
    ("two_units_five_turns.toml", 2, 4),  # no morale, two units at one target
    ("orks_flee.toml", 2, 4),  # morale at the end of the phase, pinning, regroup, locked units
    ("mixed_weapons.toml", None, 1),
])
def test_shooting_on_the_whole_distribution_is_the_kernel_world_by_world(name, turns, shots):
    scenario = load_scenario(EXAMPLES / "scenarios" / name, turns=turns)
    final, compared = _both_ways(scenario)
    assert compared == shots
    assert list(final.weights().items()) == list(scenario.run().final.weights().items())


@pytest.mark.slow  # about 15 s: runs in CI
def test_weapons_that_get_hot_and_a_target_shooting_back(tmp_path):
    path = tmp_path / "hot.toml"
    path.write_text(HOT_EXCHANGE.format(ex=EXAMPLES.as_posix()))
    scenario = load_scenario(path)
    final, compared = _both_ways(scenario)
    assert compared == 4
    assert len(final.weights()) > 1
    statuses = {w.statuses for w in final.weights()}
    assert ("", "falling back") in statuses  # the orks fled in some worlds, and shot back snap shots after
