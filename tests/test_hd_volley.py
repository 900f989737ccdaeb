"""Hell Dorado: several shots into the same melee, against an independent
die-by-die brute force (every die rolled one at a time), by exact equality."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds import InputError
from exactodds.rules.hd.volley import Volley
from exactodds.rules.hell_dorado import make_shot
from tests.test_wh40k6_brute import tree

ROOT = Path(__file__).resolve().parents[1]


def sim_shot(roll, chance, dice: int, difficulty: int, engaged: int, reroll: bool) -> tuple[int | None, int]:  # noqa: ANN001
    """One shot, die by die: hits are dice at least the difficulty (a failed die
    rerolled once with reroll); no hit: nobody; more odd dice than even ones with
    fighters engaged: one of them at random; else the target (position 0)."""
    faces = []
    for _ in range(dice):
        f = roll()
        if reroll and f < difficulty:
            f = roll()
        faces.append(f)
    hits = sum(f >= difficulty for f in faces)
    if not hits:
        return None, 0
    odd = sum(f % 2 for f in faces)
    if engaged and odd > dice - odd:
        for j in range(engaged - 1):   # uniform among the engaged fighters, one choice at a time
            if chance(1, engaged - j):
                return 1 + j, hits
        return engaged, hits
    return 0, hits


def sim_volley(roll, chance, shots: list[tuple[int, int, bool]], defs: list[int]) -> tuple[int, ...]:  # noqa: ANN001
    totals = [0] * len(defs)
    for dice, rng, reroll in shots:
        difficulty = max(defs + [rng])
        who, hits = sim_shot(roll, chance, dice, difficulty, len(defs) - 1, reroll)
        if who is not None:
            totals[who] += hits
    return tuple(totals)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(3, 5), min_size=1, max_size=3),
       st.lists(st.tuples(st.integers(1, 2), st.integers(2, 5), st.booleans()), min_size=1, max_size=3)
       .filter(lambda shots: sum(d * (2 if rr else 1) for d, _, rr in shots) <= 5))
def test_several_shots_match_brute_force(defs: list[int], shots: list[tuple[int, int, bool]]) -> None:
    """At most 5 dice rolled in all (rerolls included): the die-by-die tree stays
    within 6^5 leaves."""
    names = ["target"] + [f"f{i}" for i in range(1, len(defs))]
    volley = Volley([(f"s{i}", make_shot(d, defs[0], defs[1:], r, names=names, reroll="failed" if rr else "none"))
                     for i, (d, r, rr) in enumerate(shots)])
    got = volley.run().final
    assert got.to_fractions() == tree(lambda roll, chance: sim_volley(roll, chance, shots, defs))


def test_friend_hit_and_fighters_out_by_turn() -> None:
    # one die at difficulty 4 against a target engaging one friend: a hit (1/2) goes to the
    # friend when the die is odd (5: 1/6), to the target when even (4, 6: 1/3)
    shot = make_shot(1, 4, [3], names=["t", "friend"])
    v = Volley([("s", shot)], turns=2, wounds={"t": 1})
    run = v.run()
    assert v.p_friend_hit(run["turn 1: s"]) == F(1, 6)
    assert v.p_friend_hit(run.final) == 1 - F(5, 6) ** 2
    assert [v.p_out(run[e], "t") for e in v.turn_ends()] == [F(1, 3), 1 - F(2, 3) ** 2]


def test_volley_errors() -> None:
    a = make_shot(2, 4, [3], names=["t", "x"])
    b = make_shot(2, 4, [3], names=["t", "y"])
    with pytest.raises(InputError, match="same melee"):
        Volley([("a", a), ("b", b)])
    with pytest.raises(InputError, match="not a fighter"):
        Volley([("a", a)], wounds={"zz": 2})


def test_the_scenario_file_through_the_command_line() -> None:
    out = subprocess.run([sys.executable, "-m", "exactodds", "scenario", "examples/scenarios/hd_shots_into_melee.toml",
                          "--turns", "1", "--format", "json"], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert set(got["outcomes"][0]["outcome"]) == {"ogre", "knight", "brute"}
    assert 0 < F(got["p_friend_hit"]) < 1
