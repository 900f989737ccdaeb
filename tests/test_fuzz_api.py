"""Fuzzing the Python API with random and malformed arguments.

The contract: for bad input a public function raises an
:class:`~exactodds.ExactOddsError` (InputError or TooLargeError) with a
message, never a raw TypeError, AttributeError, ZeroDivisionError...; and
whatever it returns is a proper distribution (positive exact probabilities
summing to 1). Operators (``+``, ``-``, ``@``) keep Python's convention
(TypeError for unsupported operand types) and are not fuzzed with junk.

Every call runs under a small state limit, so accepted calls stay cheap.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exactodds import Dist, Target, d, explode, keep_highest, keep_lowest, pool_counts, reroll_failed_chance
from exactodds import max_states, reroll_once, reroll_up_to, state_limit, successes, target_with_reroll
from exactodds.dice import classify, multiset, success
from exactodds.rules import hh3, wh40k6
from exactodds.rules.hell_dorado import make_shot
from exactodds.rules.hell_dorado import shoot as hd_shoot
from exactodds.rules.allocation import AllocModel, UnitState, allocate, closest_first, wound_kernel
from exactodds.rules.common import best_save, two_d6_test, wound_target
from tests.fuzzing import assert_probability_distribution, call_api, fuzz_settings, junk

LIMIT = 5_000

N = 60  # examples per test; 20 tests: about 1,200 API cases per run


@pytest.fixture(autouse=True)
def small_limit():  # type: ignore[no-untyped-def]
    with state_limit(LIMIT):
        yield


def ok(value: Any) -> None:
    """A returned Dist must be a probability distribution."""
    if isinstance(value, Dist):
        assert_probability_distribution(value)


def small_ints() -> st.SearchStrategy[int]:
    return st.integers(-3, 12)


def small_dist() -> st.SearchStrategy[Dist]:
    """Small valid distributions over ints, text or tuples."""
    ints = st.dictionaries(st.integers(-3, 10), st.integers(1, 6), min_size=1, max_size=6).map(Dist.from_weights)
    texts = st.lists(st.sampled_from("abcxyz"), min_size=1, max_size=5).map(Dist.uniform)
    pairs = st.dictionaries(st.tuples(st.integers(0, 3), st.integers(0, 3)), st.integers(1, 4), min_size=1,
                            max_size=5).map(Dist.from_weights)
    return st.one_of(ints, ints, texts, pairs, st.just(d(6)), st.integers(1, 8).map(d))


def maybe_junk(valid: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Mostly valid values, often junk."""
    return st.one_of(valid, valid, junk())


def targets() -> st.SearchStrategy[Target]:
    return st.one_of(st.integers(2, 6).map(Target.at_least), st.just(Target.auto()), st.just(Target.fail()))


def probabilities() -> st.SearchStrategy[Fraction]:
    return st.fractions(0, 1, max_denominator=12)


# ------------------------------------------------------------------ Dist constructors
@fuzz_settings(N)
@given(st.one_of(junk(), st.dictionaries(junk().filter(lambda x: _hashable(x)), junk(), max_size=4),
                 st.lists(st.tuples(junk(), junk()), max_size=3),
                 st.dictionaries(small_ints(), st.integers(-2, 5), max_size=4)))
def test_from_weights(weights: Any) -> None:
    ok(call_api(Dist.from_weights, weights))


@fuzz_settings(N)
@given(st.one_of(junk(), st.dictionaries(small_ints(), maybe_junk(probabilities()), max_size=4),
                 st.just({1: Fraction(1, 3), 2: Fraction(2, 3)}), st.just({"a": "1/2", "b": "1/2"})))
def test_from_probs_and_constructor(probs: Any) -> None:
    ok(call_api(Dist.from_probs, probs))
    ok(call_api(Dist, probs))


@fuzz_settings(N)
@given(junk(), maybe_junk(probabilities()), junk(), junk())
def test_uniform_constant_bernoulli(outcomes: Any, p: Any, success_value: Any, failure_value: Any) -> None:
    ok(call_api(Dist.uniform, outcomes))
    ok(call_api(Dist.constant, outcomes))
    ok(call_api(Dist.bernoulli, p, success_value, failure_value))
    ok(call_api(Dist.bernoulli, p, 1, 1))


@fuzz_settings(N)
@given(maybe_junk(st.integers(0, 30)), maybe_junk(probabilities()))
def test_binomial(n: Any, p: Any) -> None:
    ok(call_api(Dist.binomial, n, p))
    ok(call_api(successes, n, p))


@fuzz_settings(N)
@given(st.one_of(junk(), st.lists(maybe_junk(small_dist()), max_size=3)),
       st.one_of(st.none(), junk(), st.lists(st.integers(-1, 4), max_size=3)))
def test_mixture(dists: Any, weights: Any) -> None:
    ok(call_api(Dist.mixture, dists, weights))


# ------------------------------------------------------------------ Dist methods
@fuzz_settings(N)
@given(small_dist(), junk())
def test_queries_with_junk(dist: Dist, x: Any) -> None:
    for method in (dist.pmf, dist.cdf, dist.sf, dist.at_least, dist.at_most, dist.ppf):
        result = call_api(method, x)
        if isinstance(result, Fraction):
            assert 0 <= result <= 1
    for method in (dist.prob, dist.map, dist.then, dist.condition, dist.marginal):
        ok(call_api(method, x))
    ok(call_api(dist.sum_n, x))
    if not callable(x):  # a function of the wrong arity fails in the caller's own code
        ok(call_api(dist.combine, dist, x))
    call_api(dist.sample, x)
    call_api(dist.sample, 3, x)


@fuzz_settings(N)
@given(small_dist(), st.integers(0, 5), st.integers(-3, 10))
def test_methods_on_valid_arguments(dist: Dist, n: int, k: int) -> None:
    for method in (dist.mean, dist.var, dist.median, dist.mode, dist.to_fractions, dist.support):
        call_api(method)
    ok(call_api(dist.sum_n, n))
    ok(call_api(dist.condition, lambda x: x == dist.mode()))
    ok(call_api(dist.marginal, 0))
    ok(call_api(dist.marginal, "x"))
    ok(call_api(dist.then, lambda x: Dist.uniform([x, k])))
    ok(dist.joint(dist))
    draws = call_api(dist.sample, n, k)
    assert draws is None or (len(draws) == n and all(x in dist for x in draws))
    for q in (0, Fraction(1, 3), 1):
        assert dist.ppf(q) in dist


# ------------------------------------------------------------------ dice
@fuzz_settings(N)
@given(maybe_junk(st.sampled_from(["4+", " 2+ ", "6+", "auto", "A", "fail", "F", "7+", "1+", "0+", "4", "+"])),
       maybe_junk(st.integers(1, 12)), junk())
def test_target_constructors(text: Any, sides: Any, value: Any) -> None:
    for make in (lambda: Target.parse(text, sides=sides), lambda: Target.at_least(value, sides),
                 lambda: Target.clamped(value, sides), lambda: Target.auto(sides), lambda: Target.fail(sides),
                 lambda: Target(text, value, sides), lambda: d(sides)):
        t = call_api(make)
        if isinstance(t, Target):
            assert 0 <= t.chance() <= 1
        ok(t)


@fuzz_settings(N)
@given(maybe_junk(st.integers(0, 6)), maybe_junk(small_dist()), st.one_of(st.none(), junk()),
       maybe_junk(st.integers(0, 6)))
def test_pools(n: Any, die: Any, order: Any, keep: Any) -> None:
    ok(call_api(pool_counts, n, die, order))
    ok(call_api(pool_counts, n, die))
    ok(call_api(multiset, n, die))
    ok(call_api(keep_highest, n, die, keep))
    ok(call_api(keep_lowest, n, die, keep))


@fuzz_settings(N)
@given(maybe_junk(small_dist()), st.one_of(junk(), st.sets(st.integers(1, 6), max_size=3)),
       maybe_junk(targets()), maybe_junk(st.one_of(st.none(), targets())), maybe_junk(st.integers(0, 3)))
def test_rerolls(die: Any, faces: Any, target: Any, reroll_target: Any, depth: Any) -> None:
    ok(call_api(reroll_once, die, faces))
    p = call_api(target_with_reroll, target, faces, reroll_target)
    assert p is None or 0 <= p <= 1
    ok(call_api(explode, die, faces if isinstance(faces, set) and faces else None, depth))
    ok(call_api(explode, die, faces))
    ok(call_api(classify, die, lambda f: f))
    ok(call_api(classify, die, faces))
    ok(call_api(success, die, target))


@fuzz_settings(N)
@given(maybe_junk(probabilities()), maybe_junk(st.one_of(st.none(), probabilities())),
       maybe_junk(st.integers(0, 8)), maybe_junk(st.integers(0, 8)))
def test_reroll_chances(p: Any, p2: Any, n: Any, k: Any) -> None:
    q = call_api(reroll_failed_chance, p, p2)
    assert q is None or (isinstance(q, Fraction) and 0 <= q <= 1)
    ok(call_api(reroll_up_to, n, k, p, p2))


# ------------------------------------------------------------------ limits
@fuzz_settings(N)
@given(junk())
def test_limits_with_junk(value: Any) -> None:
    before = max_states()

    def enter_and_leave() -> None:
        with state_limit(value):
            if value is not None:
                assert max_states() == value
    call_api(enter_and_leave)
    assert max_states() == before


# ------------------------------------------------------------------ shared rules
@fuzz_settings(N)
@given(maybe_junk(st.integers(1, 10)), maybe_junk(st.integers(1, 10)),
       *(maybe_junk(st.one_of(st.none(), st.integers(2, 6))) for _ in range(4)))
def test_common_rules(strength: Any, toughness: Any, armour: Any, ap: Any, cover: Any, invulnerable: Any) -> None:
    """rules/common.py: the wound chart, the best save, 2D6 tests."""
    t = call_api(wound_target, strength, toughness)
    assert t is None or isinstance(t, Target)
    s = call_api(best_save, armour, ap, cover, invulnerable)
    assert s is None or isinstance(s, Target)
    ok(call_api(two_d6_test, strength))


def alloc_models() -> st.SearchStrategy[AllocModel]:
    return st.builds(AllocModel, st.integers(1, 3), targets(), targets())


@fuzz_settings(N)
@given(maybe_junk(st.integers(0, 3)), maybe_junk(targets()), maybe_junk(targets()), junk())
def test_allocation_with_junk(wounds: Any, save: Any, mitigation: Any, model: Any) -> None:
    """rules/allocation.py: a model's fields, and things that are not models."""
    m = call_api(AllocModel, wounds, save, mitigation)
    if m is not None:
        p = call_api(m.p_unsaved)
        assert p is None or 0 <= p <= 1
    ok(call_api(allocate, Dist.constant(1), [model], closest_first))


@fuzz_settings(N)
@given(st.lists(alloc_models(), min_size=1, max_size=4), st.dictionaries(st.integers(0, 6), st.integers(1, 4),
                                                                         min_size=1, max_size=3),
       maybe_junk(st.integers(0, 3)))
def test_allocation_with_random_small_units(models: list[AllocModel], wound_weights: dict, damage: Any) -> None:
    """Random small units and wound counts: the unit's state after allocation is
    a proper distribution, and never has more casualties than models."""
    result = call_api(allocate, Dist.from_weights(wound_weights), models, closest_first, damage)
    ok(result)
    if result is not None:
        assert all(isinstance(s, UnitState) and 0 <= s.casualties() <= len(models) for s in result.support())
    ok(call_api(allocate, wound_weights, models, closest_first, damage))  # a dict where a Dist is expected
    call_api(wound_kernel, models, closest_first, damage)


def _hashable(x: Any) -> bool:
    try:
        hash(x)
    except TypeError:
        return False
    return True



# ------------------------------------------------------------------ rule systems
def wh40k6_models() -> st.SearchStrategy[Any]:
    saves = st.one_of(st.none(), st.integers(2, 6))
    return st.builds(wh40k6.Model, toughness=st.integers(1, 10), wounds=st.integers(1, 3), count=st.integers(1, 3),
                     save=saves, invulnerable=saves, cover=saves)


@fuzz_settings(N)
@given(*(maybe_junk(st.integers(1, 10)) for _ in range(2)), maybe_junk(st.integers(0, 6)),
       maybe_junk(st.one_of(st.none(), st.integers(1, 6))), st.booleans(),
       maybe_junk(st.sampled_from(["normal", "template", "blast", "artillery", "no-bs"])),
       st.one_of(st.none(), st.integers(0, 3)), st.booleans(), st.lists(wh40k6_models(), min_size=1, max_size=3),
       maybe_junk(st.one_of(st.none(), st.integers(2, 6))))
def test_wh40k6_shooting(bs: Any, strength: Any, shots: Any, ap: Any, snap: bool, weapon_type: Any,
                         master_crafted: Any, reroll_failed: bool, models: list, focus_fire: Any) -> None:
    attack = call_api(wh40k6.Shooting, shots=shots, strength=strength, bs=bs, ap=ap, snap=snap,
                      weapon_type=weapon_type, master_crafted=master_crafted, reroll_failed=reroll_failed)
    unit = call_api(wh40k6.Unit, tuple(models))
    if attack is None or unit is None:
        return
    run = call_api(wh40k6.shoot, attack, unit, focus_fire)
    if run is not None:
        ok(run.final)
    ok(call_api(wh40k6.hits, attack))


@fuzz_settings(N)
@given(junk(), junk(), junk())
def test_wh40k6_values_with_junk(a: Any, b: Any, c: Any) -> None:
    """rules/wh40k6: junk values for numbers, names, flags and lists."""
    call_api(wh40k6.Model, a, b)
    call_api(wh40k6.Model, 4, 1, name=a, count=b, save=c)
    call_api(wh40k6.Model, 4, 1, character=a, look_out_sir=b)
    call_api(wh40k6.Melee, a, b, c, 1, 1)
    call_api(wh40k6.Shooting, a, b, bs=c)
    call_api(wh40k6.Shooting, 1, 4, bs=4, ap=a, snap=b, weapon_type=c)
    call_api(wh40k6.Shooting, 1, 4, bs=4, master_crafted=a, reroll_failed=b)
    ok(call_api(wh40k6.p_charge, a))
    ok(call_api(wh40k6.p_charge, 6, a))
    ok(call_api(wh40k6.charge_roll, a))
    ok(call_api(wh40k6.morale_test, a, b))
    call_api(wh40k6.hit_chance, a, b, c)
    call_api(wh40k6.bs_hit_chance, a)
    call_api(wh40k6.ws_target, a, b)


@fuzz_settings(N)
@given(junk())
def test_wh40k6_objects_with_junk(a: Any) -> None:
    """rules/wh40k6: junk where a Model, Unit or Shooting is expected."""
    unit = wh40k6.Unit((wh40k6.Model(4, 1),))
    attack = wh40k6.Shooting(1, 4, bs=4)
    call_api(wh40k6.Unit, a)
    call_api(wh40k6.Unit, (a,))
    call_api(wh40k6.shoot, a, unit)
    call_api(wh40k6.shoot, attack, a)
    call_api(wh40k6.shoot, attack, unit, a)
    ok(call_api(wh40k6.hits, a))
    call_api(wh40k6.fight, a, unit)


@fuzz_settings(N)
@given(junk(), junk(), junk())
def test_hh3_values_with_junk(a: Any, b: Any, c: Any) -> None:
    """rules/hh3: junk values for numbers, names, flags, traits and lists."""
    weapon = hh3.Weapon("w", 1, 4, None, 1)
    call_api(hh3.Weapon, a, b, c, None, 1)
    call_api(hh3.Weapon, "w", 1, 4, a, b)
    call_api(hh3.Weapon, "w", 1, 4, None, 1, a)
    call_api(hh3.FiringModels, a, b, c, weapon)
    call_api(hh3.TargetModels, a, b, c)
    call_api(hh3.TargetModels, "t", 1, 4, 1, save=a, invulnerable=b, feel_no_pain=c)
    call_api(hh3.TargetUnit, "t", a, (hh3.TargetModels("t", 1, 4, 1),), traits=b, statuses=c)
    call_api(hh3.Conditions, cover=a, reaction=b, facing=c)
    call_api(hh3.Conditions, order=a, medic_roll=b)
    ok(call_api(hh3.hit_rolls, a, b))
    ok(call_api(hh3.hit_rolls, 2, 4, a))


@fuzz_settings(N)
@given(junk())
def test_hh3_objects_with_junk(a: Any) -> None:
    """rules/hh3: junk where a weapon, models, unit or conditions are expected."""
    weapon = hh3.Weapon("w", 1, 4, None, 1)
    attacker = hh3.AttackingUnit("a", (hh3.FiringModels("m", 1, 4, weapon),))
    target = hh3.TargetUnit("t", 8, (hh3.TargetModels("t", 1, 4, 1),))
    call_api(hh3.FiringModels, "m", 1, 4, a)
    call_api(hh3.AttackingUnit, "a", a)
    call_api(hh3.TargetModels, "t", 1, armour=a, hull_points=1)
    call_api(hh3.TargetUnit, "t", 8, a)
    call_api(hh3.shoot, a, target)
    call_api(hh3.shoot, attacker, a)
    call_api(hh3.shoot, attacker, target, a)


@fuzz_settings(N)
@given(st.integers(1, 3), st.integers(1, 6), st.integers(1, 10), st.one_of(st.none(), st.integers(1, 6)),
       st.integers(1, 2), st.integers(1, 3), st.integers(1, 10), st.integers(1, 2),
       st.one_of(st.none(), st.integers(2, 6)), st.one_of(st.none(), st.sampled_from(["light", "medium", "dense"])))
def test_hh3_shoot_with_random_small_units(count: int, bs: int, strength: int, ap: Any, firepower: int,
                                            targets_n: int, toughness: int, wounds: int, save: Any,
                                            cover: Any) -> None:
    weapon = hh3.Weapon("gun", firepower, strength, ap, 1)
    attacker = hh3.AttackingUnit("a", (hh3.FiringModels("m", count, bs, weapon),))
    target = hh3.TargetUnit("t", 8, (hh3.TargetModels("x", targets_n, toughness, wounds, save),))
    run = call_api(hh3.shoot, attacker, target, hh3.Conditions(cover=cover))
    if run is not None:
        ok(run.casualties())


@fuzz_settings(N)
@given(maybe_junk(st.integers(0, 6)), maybe_junk(st.integers(1, 7)), maybe_junk(st.lists(st.integers(1, 7), max_size=2)),
       maybe_junk(st.one_of(st.none(), st.integers(1, 7))), maybe_junk(st.sampled_from(["none", "failed", "up-to"])),
       maybe_junk(st.integers(0, 3)), maybe_junk(st.sampled_from([None, "odd-first", "even-first", "optimal"])),
       st.booleans())
def test_hell_dorado_with_junk(dice: Any, target_def: Any, engaged: Any, range_difficulty: Any, reroll: Any,
                               budget: Any, policy: Any, behind: bool) -> None:
    """rules/hell_dorado: a shot built from junk or random small values."""
    kwargs = {"candidate_defs": engaged, "behind": True} if behind else {}
    shot = call_api(make_shot, dice, target_def, () if behind else engaged, range_difficulty, reroll=reroll,
                    budget=budget, policy=policy, **kwargs)
    if shot is not None:
        result = call_api(hd_shoot, shot)
        if result is not None:
            ok(result.hits)
            assert sum(result.p_recipient().values()) == 1
    call_api(hd_shoot, dice)


# ------------------------------------------------------------------ TOML files, structurally mutated
def toml_text(value: Any, key: str | None = None) -> str:
    """A minimal TOML writer for parsed data: every top-level key as ``"key" = <inline value>``."""
    import datetime
    import json
    import math

    if key is None:
        return "".join(f"{json.dumps(k)} = {toml_text(v, k)}\n" for k, v in value.items())
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf") if math.isinf(value) else repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(toml_text(v, "") for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {toml_text(v, k)}" for k, v in value.items()) + "}"
    raise TypeError(value)


TOML_JUNK = st.one_of(st.integers(-5, 12), st.sampled_from([0, -1, 10**20, 2**63]), st.booleans(),
                      st.floats(allow_nan=True), st.text(max_size=6), st.sampled_from(["4+", "7+", "auto", "x.toml"]),
                      st.lists(st.integers(-2, 8), max_size=3), st.builds(dict), st.builds(lambda: {"a": 1}),
                      st.builds(lambda: [{}]), st.dates())  # fresh containers: never shared between draws


@st.composite
def mutated_data(draw: st.DrawFn, data: dict) -> dict:
    """``data`` (parsed TOML) with one to three structural mutations at random paths:
    a value replaced by junk, a key deleted, an unknown key added, a list emptied."""
    import copy

    data = copy.deepcopy(data)
    for _ in range(draw(st.integers(1, 3))):
        node: Any = data
        # walk down a random path of tables and lists
        while True:
            children = list(node.items()) if isinstance(node, dict) else list(enumerate(node)) if isinstance(
                node, list) else []
            containers = [(k, v) for k, v in children if isinstance(v, (dict, list)) and v]
            if not containers or draw(st.integers(0, 2)) == 0:
                break
            node = draw(st.sampled_from(containers))[1]
        op = draw(st.sampled_from(["replace", "replace", "delete", "add", "empty"]))
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if op == "add" and isinstance(node, dict):
            node[draw(st.sampled_from(["nosuch", "count", "wounds", "save", "bs", "weapon", "params", "models"]))] = (
                draw(TOML_JUNK))
        elif not keys:
            continue
        elif op == "delete":
            del node[draw(st.sampled_from(keys))]
        elif op == "empty":
            k = draw(st.sampled_from(keys))
            node[k] = [] if isinstance(node[k], list) else {} if isinstance(node[k], dict) else node[k]
        else:
            node[draw(st.sampled_from(keys))] = draw(TOML_JUNK)
    return data


def _loaders() -> list[tuple[str, Any, list[Path]]]:
    import tomllib

    from exactodds.profiles import hh3 as hh3_profiles
    from exactodds.profiles import wh40k6 as wh40k6_profiles
    from exactodds.commands import Query
    from exactodds.sweep.grid import load_grid
    from tests.fuzzing import example_files

    files = example_files(".toml")

    def where(*words: str, exclude: tuple[str, ...] = ()) -> list[Path]:
        return [f for f in files if all(w in str(f) for w in words) and not any(x in f.name for x in exclude)]

    def has(f: Path, key: str) -> bool:
        return key in tomllib.loads(f.read_text(encoding="utf-8"))

    queries = [f for f in files if has(f, "system")]
    grids = [f for f in where("sweeps") if has(f, "vary")]
    return [
        ("40k6 unit", lambda p: wh40k6_profiles.load_unit(p, melee=True), where("40k6") + where("sweeps", "units")),
        ("hh3 attacker", hh3_profiles.load_attacker, [f for f in where("hh3") if not f.name.startswith(("target",
                                                                                                         "query"))]),
        ("hh3 target", hh3_profiles.load_target, where("hh3", "target") + where("hh3", "rhino")),
        ("query", lambda p: Query.from_toml(p).dist(), queries),
        ("grid", load_grid, grids),
    ]


LOADERS = _loaders()


@pytest.mark.parametrize("name,load,sources", LOADERS, ids=[name for name, _, _ in LOADERS])
def test_toml_loaders_with_mutated_structure(name: str, load: Any, sources: list[Path]) -> None:
    """Each example profile, query and grid, parsed, mutated structurally and written back:
    the loader answers or raises an InputError naming the file, never anything else."""
    import tomllib

    from tests.fuzzing import file_with

    assert sources, f"no example files for the {name} loader"

    @fuzz_settings(N)
    @given(st.sampled_from(sources), st.data())
    def run(source: Path, data: st.DataObject) -> None:
        mutated = data.draw(mutated_data(tomllib.loads(source.read_text(encoding="utf-8"))))
        path = file_with(toml_text(mutated), source, ".toml")
        result = call_api(load, path)
        ok(result)

    run()
