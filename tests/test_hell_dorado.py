"""Hell Dorado, shooting into a melee with the parity rule (docs/hell_dorado.md).

Every answer is checked exactly against an independent brute force over raw
rolls written here from the rule text (it shares nothing with the engine).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from fractions import Fraction as F

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds import Dist
from exactodds.cli import main
from exactodds.core import InputError
from exactodds.rules import hell_dorado as hd

OBJECTIVE_ORDER = ("p-target", "target-hits", "no-friendly-fire")


# ----------------------------------------------------------- brute force
def brute(dice: int, difficulty: int, cands: Sequence[bool], parity: bool, reroll: str = "none", k: int = 0,
          policy: str | None = None, objective: str = "p-target", names: Sequence[str] | None = None) -> dict:
    """(recipient, hits) -> probability, from every raw first roll and every reroll.

    ``cands``: one entry per impair candidate, True for a friend. Policies:
    odd-first / even-first take failed dice in index order; optimal tries every
    subset of at most k failed dice and keeps the best expected objective
    (then the other objectives in OBJECTIVE_ORDER, fewer dice, fewer even dice).
    """
    names = list(names or ["target"] + [f"engaged-{i}" for i in range(1, len(cands) + 1)])

    def resolve(final: Sequence[int]) -> dict:
        hits = sum(f >= difficulty for f in final)
        if hits == 0:
            return {("none", 0): F(1)}
        even = sum(f % 2 == 0 for f in final)
        if not parity or even >= len(final) - even:
            return {(names[0], hits): F(1)}
        return {(name, hits): F(1, len(cands)) for name in names[1:]}

    def after(first: Sequence[int], subset: Sequence[int]) -> dict:
        out: dict = {}
        for again in itertools.product(range(1, 7), repeat=len(subset)):
            final = list(first)
            for i, v in zip(subset, again):
                final[i] = v
            for key, p in resolve(final).items():
                out[key] = out.get(key, 0) + p / 6 ** len(subset)
        return out

    def objectives(dist: dict) -> tuple:
        friends = {n for n, friend in zip(names[1:], cands) if friend}
        values = {
            "p-target": sum(p for (n, h), p in dist.items() if n == names[0] and h >= 1),
            "target-hits": sum(p * h for (n, h), p in dist.items() if n == names[0]),
            "no-friendly-fire": 1 - sum(p for (n, h), p in dist.items() if n in friends),
        }
        return tuple(values[o] for o in [objective] + [o for o in OBJECTIVE_ORDER if o != objective])

    total: dict = {}
    for first in itertools.product(range(1, 7), repeat=dice):
        failed = [i for i, f in enumerate(first) if f < difficulty]
        odd = [i for i in failed if first[i] % 2]
        even = [i for i in failed if first[i] % 2 == 0]
        if reroll == "none":
            dist = after(first, [])
        elif reroll == "failed":
            dist = after(first, failed)
        elif policy == "odd-first":
            dist = after(first, (odd + even)[:k])
        elif policy == "even-first":
            dist = after(first, (even + odd)[:k])
        else:
            best = None
            for size in range(min(k, len(failed)) + 1):
                for subset in itertools.combinations(failed, size):
                    d = after(first, subset)
                    key = (objectives(d), -size, -sum(first[i] % 2 == 0 for i in subset))
                    if best is None or key > best[0]:
                        best = (key, d)
            dist = best[1]
        for key, p in dist.items():
            total[key] = total.get(key, 0) + p / 6 ** dice
    return {key: p for key, p in total.items() if p}


def as_dict(dist: Dist) -> dict:
    return {(o.recipient, o.hits): p for o, p in dist.items()}


def invoke(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


# ------------------------------------------------------ the rules' worked example
def test_worked_example_step_by_step() -> None:
    """« engaged DEF 3 and 5, target DEF 4, short range (difficulty 4) -> difficulty 5.
    Dice 5, 6, 3: 2 hits, more odd than even results -> one of the engaged fighters. »"""
    assert hd.attack_difficulty(4, [3, 5], 4) == 5
    roll = (5, 6, 3)
    assert hd.count_hits(roll, 5) == 2
    assert hd.count_parity(roll) == (1, 2)
    assert hd.commits_impair(1, 2)
    assert not hd.commits_impair(2, 2) and not hd.commits_impair(2, 1)
    shot = hd.make_shot(3, 4, [3, 5], 4)
    assert shot.difficulty == 5 and shot.parity_check
    assert hd.resolve_roll(roll, shot) == Dist.uniform([hd.HitOn("engaged-1", 2), hd.HitOn("engaged-2", 2)])


def test_done_when_cli_json() -> None:
    r = invoke("hd", "shoot", "--dice", "3", "--target-def", "4", "--engaged-def", "3", "--engaged-def", "5",
               "--range-difficulty", "4", "--format", "json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["p_recipient"] == {"target": "19/54", "engaged-1": "19/108", "engaged-2": "19/108", "none": "8/27"}
    got = {(o["outcome"]["recipient"], o["outcome"]["hits"]): F(o["p"]) for o in data["outcomes"]}
    assert got == {
        ("target", 1): F(2, 9), ("target", 2): F(1, 9), ("target", 3): F(1, 54),
        ("engaged-1", 1): F(1, 9), ("engaged-1", 2): F(1, 18), ("engaged-1", 3): F(1, 108),
        ("engaged-2", 1): F(1, 9), ("engaged-2", 2): F(1, 18), ("engaged-2", 3): F(1, 108),
        ("none", 0): F(8, 27),
    }
    assert got == brute(3, 5, [True, True], True)
    assert data["p_friend_hit"] == "19/54"
    assert data["expected_hits"] == {"target": "1/2", "engaged-1": "1/4", "engaged-2": "1/4"}
    assert data["difficulty"] == 5 and data["parity_check"] is True


def test_two_dice_at_difficulty_6_never_commit_an_impair() -> None:
    """With 2 dice an impair needs more odd than even dice, i.e. both dice odd.
    At difficulty 6 a hit needs a 6, which is even; so whenever there is a hit at
    least one die is even, even >= odd, and the hits always go to the target:
    P(target) = 1 - (5/6)^2 = 11/36, no engaged fighter is ever hit."""
    result = hd.shoot(hd.make_shot(2, 6, [3, 4]))
    assert result.p_recipient() == {"target": F(11, 36), "engaged-1": 0, "engaged-2": 0, "none": F(25, 36)}
    assert result.p_friend_hit() == 0
    assert as_dict(result.hits) == brute(2, 6, [True, True], True)


# ------------------------------------------------- brute force, each rule
@pytest.mark.parametrize("dice", [1, 2, 3, 4])
@pytest.mark.parametrize("target_def,engaged", [(4, [3, 5]), (2, [3]), (6, []), (3, [2, 2, 6]), (7, [1])])
def test_no_reroll_equals_brute_force(dice: int, target_def: int, engaged: list) -> None:
    shot = hd.make_shot(dice, target_def, engaged)
    assert as_dict(hd.shoot(shot).hits) == brute(dice, shot.difficulty, [True] * len(engaged), bool(engaged))


@pytest.mark.parametrize("dice", [1, 2, 3])
@pytest.mark.parametrize("difficulty", [3, 4, 5, 6])
def test_reroll_failed_equals_brute_force(dice: int, difficulty: int) -> None:
    shot = hd.make_shot(dice, difficulty, [2, 3], reroll="failed")
    assert as_dict(hd.shoot(shot).hits) == brute(dice, difficulty, [True, True], True, "failed")


@pytest.mark.parametrize("policy", ["odd-first", "even-first", "optimal"])
@pytest.mark.parametrize("dice,k", [(1, 1), (2, 1), (2, 2), (3, 1), (3, 2), (3, 3), (4, 1)])
def test_reroll_up_to_k_equals_brute_force(policy: str, dice: int, k: int) -> None:
    for difficulty in (4, 5):
        shot = hd.make_shot(dice, difficulty, [3, 3], reroll="up-to", budget=k, policy=policy)
        got = as_dict(hd.shoot(shot).hits)
        assert got == brute(dice, difficulty, [True, True], True, "up-to", k, policy), (difficulty, policy)


@pytest.mark.parametrize("objective", ["p-target", "target-hits", "no-friendly-fire"])
@pytest.mark.parametrize("dice,k,difficulty", [(2, 2, 4), (3, 2, 5), (3, 1, 3)])
def test_optimal_objectives_equal_brute_force(objective: str, dice: int, k: int, difficulty: int) -> None:
    """One friend and one enemy among the engaged fighters, so no objective is trivial."""
    shot = hd.make_shot(dice, difficulty, [2, 3], enemies=[2], reroll="up-to", budget=k, policy="optimal",
                        objective=objective)
    assert as_dict(hd.shoot(shot).hits) == brute(dice, difficulty, [True, False], True, "up-to", k, "optimal",
                                                 objective)


def test_optimal_beats_the_fixed_orders_and_its_decision_table_adds_up() -> None:
    for objective in OBJECTIVE_ORDER:
        values = {}
        for policy in hd.POLICIES:
            shot = hd.make_shot(6, 4, [3, 5], enemies=[2], reroll="up-to", budget=2, policy=policy,
                                objective=objective if policy == "optimal" else "p-target")
            res = hd.shoot(shot)
            values[policy] = {"p-target": res.p_recipient()["target"],
                              "target-hits": res.expected_hits()["target"],
                              "no-friendly-fire": 1 - res.p_friend_hit()}[objective]
        assert values["optimal"] >= max(values["odd-first"], values["even-first"])
        shot = hd.make_shot(6, 4, [3, 5], enemies=[2], reroll="up-to", budget=2, policy="optimal", objective=objective)
        table = hd.reroll_decisions(shot)
        assert sum(row.p_state for row in table) == 1
        assert sum(row.p_state * row.objective for row in table) == values["optimal"]
        no_budget = hd.shoot(hd.make_shot(6, 4, [3, 5], enemies=[2]))
        assert values["optimal"] >= {"p-target": no_budget.p_recipient()["target"],
                                     "target-hits": no_budget.expected_hits()["target"],
                                     "no-friendly-fire": 1 - no_budget.p_friend_hit()}[objective]


@settings(max_examples=25, deadline=None)
@given(dice=st.integers(1, 3), target_def=st.integers(1, 7), engaged=st.lists(st.integers(1, 7), max_size=3),
       rule=st.sampled_from(["none", "failed", "odd-first", "even-first", "optimal"]), k=st.integers(0, 2),
       elevated=st.booleans())
def test_random_shots_equal_brute_force(dice: int, target_def: int, engaged: list, rule: str, k: int,
                                        elevated: bool) -> None:
    reroll = rule if rule in ("none", "failed") else "up-to"
    policy = None if reroll != "up-to" else rule
    shot = hd.make_shot(dice, target_def, engaged, elevated=elevated, reroll=reroll, budget=k, policy=policy,
                        allow_low_difficulty=True)
    got = hd.shoot(shot).hits
    assert got.total_probability() == 1
    assert as_dict(got) == brute(dice, shot.difficulty, [True] * len(engaged), bool(engaged) and not elevated,
                                 reroll, k, policy)


# ------------------------------------------- who may be hit, and when
def test_target_engaging_nobody_has_no_parity_check() -> None:
    shot = hd.make_shot(3, 4, [], 5)
    assert not shot.parity_check
    res = hd.shoot(shot)
    assert res.hits.marginal("hits") == Dist.binomial(3, F(1, 3))
    assert res.p_recipient() == {"target": 1 - F(2, 3) ** 3, "none": F(2, 3) ** 3}


def test_elevated_shot_is_normal() -> None:
    """No parity check; the difficulty still counts the engaged fighters' DEF (documented choice)."""
    shot = hd.make_shot(3, 4, [3, 5], 4, elevated=True)
    assert shot.difficulty == 5 and not shot.parity_check
    assert hd.shoot(shot).p_recipient()["engaged-1"] == 0


def test_behind_a_melee() -> None:
    shot = hd.make_shot(3, 3, range_difficulty=3, behind=True, candidate_defs=[4, 2, 3], enemies=[3],
                        names=["Sentinelle", "A", "B", "C"])
    assert shot.difficulty == 4 and shot.recipients == ["Sentinelle", "A", "B", "C", "none"]
    res = hd.shoot(shot)
    assert as_dict(res.hits) == brute(3, 4, [True, True, False], True, names=["Sentinelle", "A", "B", "C"])
    assert res.p_friend_hit() == res.p_recipient()["A"] + res.p_recipient()["B"]
    ignored = hd.make_shot(3, 3, range_difficulty=3, behind=True, candidate_defs=[4, 2, 3],
                           candidates_in_difficulty=False)
    assert ignored.difficulty == 3


def test_behind_a_melee_while_engaging_fighters_by_hand() -> None:
    # target DEF 3 behind a melee (candidate DEF 4) and engaging an enemy of the shooter (DEF 5):
    # difficulty 5 (3 in 1/3 per die); 2 dice commit an impair only when both are odd.
    # One hit and an impair: one die shows 5, the other 1 or 3: 2 x 1/6 x 2/6 = 1/9, split
    # between the candidate and the engaged fighter; two hits and an impair: both 5s, 1/36.
    shot = hd.make_shot(2, 3, [5], behind=True, candidate_defs=[4], enemies=[2])
    assert shot.difficulty == 5 and shot.recipients == ["target", "candidate-1", "engaged-1", "none"]
    got = as_dict(hd.shoot(shot).hits)
    assert got[("candidate-1", 1)] == got[("engaged-1", 1)] == F(1, 18)
    assert got[("candidate-1", 2)] == got[("engaged-1", 2)] == F(1, 72)
    assert hd.shoot(shot).p_friend_hit() == F(1, 18) + F(1, 72)
    # the candidates' DEF out of the difficulty: the engaged fighter's DEF still counts
    assert hd.make_shot(2, 3, [5], behind=True, candidate_defs=[6], candidates_in_difficulty=False).difficulty == 5
    # elevated: no parity check, the candidates play no part, the engaged fighter's DEF counts
    elevated = hd.make_shot(2, 3, [4], behind=True, candidate_defs=[6], elevated=True)
    assert elevated.difficulty == 4 and not elevated.parity_check


@settings(max_examples=40, deadline=None)
@given(dice=st.integers(1, 3), target_def=st.integers(1, 7), candidates=st.lists(st.integers(1, 7), min_size=1,
       max_size=2), engaged=st.lists(st.integers(1, 7), min_size=1, max_size=2), range_difficulty=st.none() |
       st.integers(1, 7), in_difficulty=st.booleans(), elevated=st.booleans(), data=st.data(),
       rule=st.sampled_from(["none", "failed", "odd-first", "optimal"]), k=st.integers(0, 2))
def test_behind_a_melee_while_engaging_fighters_equals_brute_force(
        dice: int, target_def: int, candidates: list, engaged: list, range_difficulty: int | None,
        in_difficulty: bool, elevated: bool, data: st.DataObject, rule: str, k: int) -> None:
    n = len(candidates) + len(engaged)
    enemies = data.draw(st.sets(st.integers(1, n)))
    reroll = rule if rule in ("none", "failed") else "up-to"
    policy = None if reroll != "up-to" else rule
    shot = hd.make_shot(dice, target_def, engaged, range_difficulty, behind=True, candidate_defs=candidates,
                        enemies=sorted(enemies), elevated=elevated, candidates_in_difficulty=in_difficulty,
                        reroll=reroll, budget=k, policy=policy, allow_low_difficulty=True)
    # the difficulty, read afresh from the rule: target, every engaged fighter, the range; the
    # candidates too unless left out or the shot is elevated
    values = [target_def, *engaged] + ([] if range_difficulty is None else [range_difficulty])
    if in_difficulty and not elevated:
        values += candidates
    difficulty = max(values)
    assert shot.difficulty == difficulty
    names = ["target"] + [f"candidate-{i}" for i in range(1, len(candidates) + 1)] + \
        [f"engaged-{i}" for i in range(1, len(engaged) + 1)]
    friends = [i not in enemies for i in range(1, n + 1)]
    result = hd.shoot(shot)
    expected = brute(dice, difficulty, friends, not elevated, reroll, k, policy, names=names)
    assert as_dict(result.hits) == expected
    assert result.p_friend_hit() == sum((p for (name, _), p in expected.items()
                                         if name in {nm for nm, f in zip(names[1:], friends) if f}), F(0))


def test_behind_a_melee_while_engaging_from_the_command_line_and_python(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from exactodds import ask
    from exactodds.sweep import run_sweep

    args = ["hd", "shoot", "--dice", "2", "--target-def", "3", "--behind", "--candidate-def", "4",
            "--engaged-def", "5:enemy", "--format", "json"]
    data = json.loads(invoke(*args).output)
    assert data["difficulty"] == 5 and data["query"]["enemies"] == ["engaged-1"]
    assert data["p_friend_hit"] == "5/72"
    q = tmp_path / "q.toml"
    q.write_text('system = "hd"\ncommand = "shoot"\n[params]\ndice = 2\ntarget_def = 3\nbehind = true\n'
                 'candidate_def = [4]\nengaged_def = ["5:enemy"]\n')
    assert json.loads(invoke("run", str(q), "--format", "json").output)["outcomes"] == data["outcomes"]
    answer = ask("hd", "shoot", dice=2, target_def=3, behind=True, candidate_def=[4], engaged_def=["5:enemy"])
    assert answer.extras["p_friend_hit"] == F(5, 72)
    grid = {"base": {"system": "hd", "command": "shoot",
                     "params": {"dice": 2, "target_def": 3, "behind": True, "candidate_def": [4]}},
            "vary": {"engaged_def": [[], ["5:enemy"]]}, "report": {"extras": ["p_friend_hit"]}}
    rows = run_sweep(grid, scheduler="local", write=False).rows
    # without the engaged fighter: difficulty 4 (3 in 1/2), the candidate takes every impair:
    # both dice odd, at least one hit (a 5): 1/4 - 1/9 = 5/36
    assert sorted(str(row["p_friend_hit"]) for row in rows) == ["5/36", "5/72"]


def test_difficulty_7_cannot_hit_and_below_2_is_refused_unless_allowed() -> None:
    assert hd.shoot(hd.make_shot(4, 7, [3])).p_recipient()["none"] == 1
    with pytest.raises(InputError, match="below 2"):
        hd.make_shot(3, 1, [1])
    res = hd.shoot(hd.make_shot(3, 1, [1], allow_low_difficulty=True))
    assert res.hits.marginal("hits") == Dist.constant(3)
    assert res.p_recipient()["target"] == F(1, 2)  # 3 dice: even >= odd iff 2 or 3 even dice


def test_damage_kernel_per_recipient() -> None:
    shot = hd.make_shot(3, 4, [3, 5], 4)
    armour = {"target": lambda h: Dist.binomial(h, F(1, 2)), "engaged-1": lambda h: Dist.constant(2 * h),
              "engaged-2": lambda h: Dist.constant(h)}
    res = hd.shoot(shot, damage=armour)
    expected = res.hits.then(lambda o: Dist.constant(hd.DamageOn("none", 0)) if o.recipient == "none"
                             else armour[o.recipient](o.hits).map(lambda x, r=o.recipient: hd.DamageOn(r, x)))
    assert res.damage == expected
    assert res.damage.prob(lambda o: o.recipient == "engaged-1" and o.damage == 4) == F(1, 18)
    same = hd.shoot(shot, damage=lambda h: Dist.binomial(h, F(1, 2)))
    assert same.damage.marginal("recipient") == res.hits.marginal("recipient")
    with pytest.raises(InputError, match="no damage kernel"):
        hd.shoot(shot, damage={"target": lambda h: Dist.constant(h)})
    assert list(res.run.stages) == ["start", "attack roll", "recipient", "damage"]


def test_large_pool_is_exact_and_sums_to_one() -> None:
    res = hd.shoot(hd.make_shot(120, 4, [3, 5], 4))
    assert res.hits.total_probability() == 1
    assert res.hits.marginal("hits") == Dist.binomial(120, F(1, 3))
    budget = hd.shoot(hd.make_shot(40, 4, [3, 5], 4, reroll="up-to", budget=2, policy="optimal"))
    assert budget.hits.total_probability() == 1


# ------------------------------------------------------------- bad input
@pytest.mark.parametrize("args,needle", [
    (["--target-def", "0"], "from 1 to 10"),
    (["--target-def", "11"], "from 1 to 10"),
    (["--engaged-def", "0"], "DEF"),
    (["--engaged-def", "3:foe"], ":enemy"),
    (["--range-difficulty", "12"], "from 1 to 10"),
    (["--dice", "0"], "1 or more"),
    (["--policy", "odd-first"], "needs --reroll-up-to"),
    (["--reroll-up-to", "2"], "needs --policy"),
    (["--reroll-failed", "--reroll-up-to", "1", "--policy", "optimal"], "alternatives"),
    (["--reroll-up-to", "1", "--policy", "odd-first", "--objective", "target-hits"], "only applies to --policy optimal"),
    (["--show-decisions"], "--policy optimal"),
    (["--behind"], "candidates"),
    (["--behind", "--candidate-def", "3", "--name", "a", "--name", "b", "--name", "c"],
     "then each candidate, then each engaged fighter"),
    (["--name", "a", "--name", "b"], "--name is given 2 times"),
    (["--name", "a", "--name", "b", "--name", "b"], "distinct"),
    (["--name", "none", "--name", "b", "--name", "c"], "not allowed"),
    (["--no-candidate-difficulty"], "only applies behind"),
    (["--reroll-up-to", "-1", "--policy", "optimal"], "0 or more"),
])
def test_bad_input_is_one_line_exit_2(args: list, needle: str) -> None:
    base = ["--dice", "3", "--target-def", "4", "--engaged-def", "3", "--engaged-def", "5"]
    merged = base + args
    if "--dice" in args:  # replace the default
        merged = [a for a in base[2:]] + args
    if "--target-def" in args:
        merged = ["--dice", "3"] + base[4:] + args
    r = CliRunner().invoke(main, ["hd", "shoot", *merged])
    assert r.exit_code == 2, r.output
    assert needle in r.output and r.output.count("\n") == 1, r.output
    assert "Traceback" not in r.output


def test_candidates_without_behind_and_low_difficulty_messages() -> None:
    r = CliRunner().invoke(main, ["hd", "shoot", "--dice", "2", "--target-def", "4", "--candidate-def", "3"])
    assert r.exit_code == 2 and "add --behind" in r.output
    r = CliRunner().invoke(main, ["hd", "shoot", "--dice", "2", "--target-def", "1"])
    assert r.exit_code == 2 and "--allow-low-difficulty" in r.output
    r = CliRunner().invoke(main, ["hd", "shoot", "--dice", "2", "--target-def", "1", "--allow-low-difficulty",
                                  "--format", "json"])
    assert r.exit_code == 0 and json.loads(r.output)["p_recipient"] == {"target": "1/1", "none": "0/1"}


def test_cli_decisions_names_and_enemies() -> None:
    r = invoke("hd", "shoot", "--dice", "4", "--target-def", "4", "--engaged-def", "3", "--engaged-def", "5:enemy",
               "--name", "Sentinelle", "--name", "Chasseur", "--name", "Garde",
               "--reroll-up-to", "2", "--policy", "optimal", "--show-decisions", "--format", "json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["query"]["enemies"] == ["Garde"]
    assert set(data["p_recipient"]) == {"Sentinelle", "Chasseur", "Garde", "none"}
    assert F(data["p_friend_hit"]) == F(data["p_recipient"]["Chasseur"])
    rows = data["decisions"]
    assert sum(F(row["p_state"]) for row in rows) == 1
    assert all(row["reroll_even"] + row["reroll_odd"] <= 2 for row in rows)
    table = invoke("hd", "shoot", "--dice", "3", "--target-def", "4", "--engaged-def", "3")
    assert "p_recipient:\n  target  " in table.output
