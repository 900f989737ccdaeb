"""Validating simulator outputs: goodness of fit, distances, sample files, power.

The simulators below are small and independent of the engine (plain
``random.Random(seed)`` dice), written the way a player would write them,
with and without two classic bugs:

- 40K 6th edition BS 8: hits on 2+, a 1 rerolled once at 4+
  (P = 11/12); the bug forgets the reroll (P = 5/6);
- Hell Dorado's parity rule: with at least one hit, the original
  target is hit when even dice >= odd dice, else a random engaged fighter;
  the bug uses even > odd.

False-positive rate: for each scenario, a correct simulator run with 200
random seeds is validated at alpha = 0.05. If the tests hold their level, the number of
rejections R is at most Binomial(200, 0.05); we require R <= 20, and
P(Binomial(200, 0.05) > 20) = 0.0014 (computed in the test), so a correct
implementation fails this check with probability about 1 in 700 per
scenario; the random seeds are fixed, so the outcome is reproducible.
"""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
import tracemalloc
from collections.abc import Callable
from fractions import Fraction as F
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds import Dist, InputError, successes
from exactodds.cli import main
from exactodds.commands import Query
from exactodds.validation import (
    Samples,
    cramer_von_mises,
    detection_power,
    effect_size,
    ks_distance,
    read_samples,
    samples_csv,
    samples_needed,
    total_variation,
    validate,
)
from exactodds.validation.gof import MIN_EXPECTED, Cell, exact_multinomial_test, pool_cells, simplest_fraction
from tests.brute import enumerate_rolls

ROOT = Path(__file__).resolve().parents[1]
BS8_POOL = 'system = "pool"\n[params]\nn = 1\nhit = "2+"\nreroll = 1\nreroll_hit = "4+"\n'
ALPHA = 0.05
SEEDS = 200
MAX_FALSE_ALARMS = 20


# ------------------------------------------------------------ simulators
def bs8_shot(rng: random.Random, forget_reroll: bool = False) -> int:
    """One shot at BS 8: 2+, and a 1 is rerolled once at 4+ (unless the bug forgets it)."""
    if rng.randint(1, 6) >= 2:
        return 1
    if forget_reroll:
        return 0
    return int(rng.randint(1, 6) >= 4)


def bs6_shot(rng: random.Random, forget_reroll: bool = False) -> int:
    """One shot at BS 6: 2+, and a 1 is rerolled once at 6+."""
    if rng.randint(1, 6) >= 2:
        return 1
    return 0 if forget_reroll else int(rng.randint(1, 6) == 6)


def simulate(shot: Callable[..., int], n: int, seed: int, **kw: bool) -> list[int]:
    rng = random.Random(seed)
    return [shot(rng, **kw) for _ in range(n)]


def parity_outcome(dice: list[int], difficulty: int, pick: int, strict: bool) -> tuple[str, int]:
    """Hell Dorado shooting into a melee with two engaged fighters; ``pick`` (1-6) chooses one."""
    hits = sum(d >= difficulty for d in dice)
    if hits == 0:
        return ("none", 0)
    even = sum(d % 2 == 0 for d in dice)
    odd = len(dice) - even
    on_target = even > odd if strict else even >= odd  # the bug: strict
    return ("target", hits) if on_target else (f"engaged-{1 if pick <= 3 else 2}", hits)


def hd_simulator(n_dice: int, difficulty: int, n: int, seed: int, strict: bool = False) -> list[tuple[str, int]]:
    rng = random.Random(seed)
    return [parity_outcome([rng.randint(1, 6) for _ in range(n_dice)], difficulty, rng.randint(1, 6), strict)
            for _ in range(n)]


def hd_exact(n_dice: int, difficulty: int, strict: bool = False) -> Dist:
    """The exact distribution, by brute force over every roll (the last die picks the fighter)."""
    return Dist.from_probs(enumerate_rolls(
        n_dice + 1, lambda roll: parity_outcome(list(roll[:-1]), difficulty, roll[-1], strict)))


def ten_dice(rng: random.Random) -> int:
    return sum(rng.randint(1, 6) >= 4 for _ in range(10))


# --------------------------------------------------------------- Done when
def write_csv(path: Path, outcomes: list[int]) -> Path:
    path.write_text("outcome\n" + "\n".join(map(str, outcomes)) + "\n")
    return path


def test_done_when_bs8_forgotten_reroll_is_rejected_and_correct_passes(tmp_path: Path) -> None:
    """20,000 shots: the simulator forgetting the reroll of 1s is rejected (exit 1)
    with a report an author can act on; a correct one passes (exit 0)."""
    query = tmp_path / "bs8.toml"
    query.write_text(BS8_POOL)
    good = write_csv(tmp_path / "good.csv", simulate(bs8_shot, 20_000, seed=1))
    bad = write_csv(tmp_path / "bad.csv", simulate(bs8_shot, 20_000, seed=1, forget_reroll=True))
    ok = CliRunner().invoke(main, ["validate", str(query), str(good)])
    assert ok.exit_code == 0, ok.output
    assert "verdict: consistent at alpha = 0.05" in ok.output
    rejected = CliRunner().invoke(main, ["validate", str(query), str(bad)])
    assert rejected.exit_code == 1, rejected.output
    out = rejected.output
    assert "verdict: REJECTED at alpha = 0.05" in out
    assert "test: exact binomial test (scipy.stats.binomtest)" in out and "why: 2 possible outcomes" in out
    # per-outcome table, worst first, with observed, expected and residuals
    table = out.split("outcomes, worst first")[1].splitlines()[2:4]
    assert table[0].split()[0] == "0" and "too many" in table[0] and "1,666.7" in table[0]
    assert table[1].split()[0] == "1" and "too few" in table[1] and "18,333.3" in table[1]
    assert abs(float(table[0].split()[4])) > 30
    # the chance the buggy simulator really uses is named
    assert "the simplest fraction in that interval is 5/6" in out
    data = json.loads(CliRunner().invoke(main, ["validate", str(query), str(bad), "--format", "json"]).output)
    assert data["verdict"] == "rejected" and data["p_value"] < 1e-100
    assert [o["outcome"] for o in data["outcomes"]] == [0, 1]


def test_done_when_with_the_40k6_hit_command(tmp_path: Path) -> None:
    """The same with ``exactodds 40k6 hit --shots 1 --bs 8`` as a query file."""
    query = tmp_path / "bs8.toml"
    query.write_text('system = "40k6"\ncommand = "hit"\n[params]\nshots = 1\nbs = 8\n')
    assert Query.from_toml(query).dist() == Dist({0: F(1, 12), 1: F(11, 12)})
    good = write_csv(tmp_path / "good.csv", simulate(bs8_shot, 20_000, seed=2))
    bad = write_csv(tmp_path / "bad.csv", simulate(bs8_shot, 20_000, seed=2, forget_reroll=True))
    assert CliRunner().invoke(main, ["validate", str(query), str(good)]).exit_code == 0
    r = CliRunner().invoke(main, ["validate", str(query), str(bad)])
    assert r.exit_code == 1 and "REJECTED" in r.output and "5/6" in r.output


def test_the_shipped_examples(tmp_path: Path) -> None:
    folder = ROOT / "examples" / "validation"
    for query in ("bs8_pool_query.toml", "bs8_query.toml"):
        assert CliRunner().invoke(main, ["validate", str(folder / query),
                                         str(folder / "bs8_samples_correct.csv")]).exit_code == 0
        assert CliRunner().invoke(main, ["validate", str(folder / query),
                                         str(folder / "bs8_samples_forgot_reroll.csv")]).exit_code == 1


# -------------------------------------------------------- false positives
def _binomial_tail() -> float:
    from scipy.stats import binom

    return float(binom.sf(MAX_FALSE_ALARMS, SEEDS, ALPHA))


def test_the_stated_bound() -> None:
    assert 0.001 < _binomial_tail() < 0.002


BS8 = Dist({0: F(1, 12), 1: F(11, 12)})
TEN = successes(10, F(1, 2))
THREE = successes(3, F(1, 2))


@pytest.mark.parametrize("name,dist,draw", [
    # two outcomes: exact binomial test
    ("bs8 binomial, 500 shots", BS8, lambda seed: simulate(bs8_shot, 500, seed)),
    # eleven ordered outcomes: pooled chi-square and the mean test
    ("10 dice at 4+, 300 samples", TEN, lambda seed: [ten_dice(random.Random(seed * 7919 + i)) for i in range(300)]),
    # four outcomes, few samples: exact multinomial test and the mean test
    ("3 dice, 40 samples", THREE, lambda seed: THREE.sample(40, seed)),
    # composite unordered outcomes: chi-square with an 'other' cell
    ("parity rule, 4 dice, 200 samples", None, lambda seed: hd_simulator(4, 5, 200, seed)),
])
def test_false_positive_rate_over_many_seeds(name: str, dist: Dist | None, draw: Callable) -> None:
    dist = dist or hd_exact(4, 5)
    rejected = [seed for seed in range(SEEDS) if validate(dist, draw(seed), alpha=ALPHA).rejected]
    assert len(rejected) <= MAX_FALSE_ALARMS, (name, len(rejected), rejected)


def test_p_values_of_a_correct_simulator_are_not_degenerate() -> None:
    """Not a test that never rejects: over 200 seeds the p-values spread over (0, 1)."""
    ps = [validate(BS8, simulate(bs8_shot, 500, seed)).p_value for seed in range(SEEDS)]
    assert sum(p <= 0.1 for p in ps) >= 5 and sum(p >= 0.5 for p in ps) >= 50


# ---------------------------------------------------------- wrong simulators
def test_forgotten_reroll_bs8_rejected_from_600_shots() -> None:
    """Power at 600 shots: exact binomial power > 0.99998, so every one of 10 seeds rejects
    (with probability > 0.9998)."""
    wrong = Dist({0: F(1, 6), 1: F(5, 6)})
    assert detection_power(BS8, wrong, 600) > 0.99998
    for seed in range(10):
        assert validate(BS8, simulate(bs8_shot, 600, seed, forget_reroll=True)).rejected, seed


def test_forgotten_reroll_bs6_rejected_from_5000_shots() -> None:
    """BS 6 rerolls 1s at 6+ (P = 31/36 vs 30/36): a small bug; 5,000 shots catch it (power > 0.999)."""
    exact, wrong = Dist({0: F(5, 36), 1: F(31, 36)}), Dist({0: F(1, 6), 1: F(5, 6)})
    assert detection_power(exact, wrong, 5000) > 0.999
    assert effect_size(exact, wrong)[0] == F(1, 155)
    for seed in range(5):
        assert validate(exact, simulate(bs6_shot, 5000, seed, forget_reroll=True)).rejected, seed
    assert validate(exact, simulate(bs6_shot, 5000, 0)).consistent


def test_parity_even_greater_than_odd_rejected_from_150_samples() -> None:
    """4 dice at difficulty 5: the strict rule sends every 2-2 tie to a friend; 150 samples
    catch it (approximate power > 0.999)."""
    exact, wrong = hd_exact(4, 5), hd_exact(4, 5, strict=True)
    assert effect_size(exact, wrong)[0] == F(52, 99)
    assert detection_power(exact, wrong, 150) > 0.999
    for seed in range(10):
        result = validate(exact, hd_simulator(4, 5, 150, seed, strict=True))
        assert result.rejected, seed
        assert result.rows[0].label.startswith("recipient=") is False  # plain tuples, one column
    with pytest.raises(InputError, match="the same"):  # 3 dice never tie: the bug cannot show
        samples_needed(hd_exact(3, 5), hd_exact(3, 5, strict=True))


def test_parity_bug_with_the_hd_command(tmp_path: Path) -> None:
    """The same through ``exactodds hd shoot`` (outcomes recipient, hits: one CSV column each)."""
    query = tmp_path / "hd.toml"
    query.write_text('system = "hd"\ncommand = "shoot"\n[params]\ndice = 4\ntarget_def = 4\n'
                     'engaged_def = [3, 5]\nrange_difficulty = 4\n')
    exact = Query.from_toml(query).dist()
    assert exact.map(tuple) == hd_exact(4, 5)

    def csv_of(outcomes: list[tuple[str, int]]) -> Path:
        path = tmp_path / f"s{len(list(tmp_path.iterdir()))}.csv"
        path.write_text("recipient,hits\n" + "".join(f"{r},{h}\n" for r, h in outcomes))
        return path

    good = CliRunner().invoke(main, ["validate", str(query), str(csv_of(hd_simulator(4, 5, 500, 1)))])
    assert good.exit_code == 0, good.output
    bad = CliRunner().invoke(main, ["validate", str(query), str(csv_of(hd_simulator(4, 5, 500, 1, strict=True)))])
    assert bad.exit_code == 1 and "recipient=target, hits=2" in bad.output


def test_power_approximation_matches_simulation() -> None:
    """At the sample size samples_needed gives for the parity bug (34), about 80% of
    200 simulated runs are rejected (binomial 99.9% band: 0.70 to 0.90)."""
    exact, wrong = hd_exact(4, 5), hd_exact(4, 5, strict=True)
    n = samples_needed(exact, wrong)
    assert n == 34
    rate = sum(validate(exact, wrong.sample(n, seed)).rejected for seed in range(200)) / 200
    assert 0.70 <= rate <= 0.90, rate


def test_sample_sizes_for_the_documented_bugs() -> None:
    """The figures in docs/validating.md."""
    five_sixths = Dist({0: F(1, 6), 1: F(5, 6)})
    assert samples_needed(BS8, five_sixths) == 87  # 7.849 / (1/11), noncentral chi-square
    assert samples_needed(Dist({0: F(5, 36), 1: F(31, 36)}), five_sixths) == 1217  # 7.849 * 155
    # the exact binomial test is a little weaker: 80% first reached at 114 shots
    powers = {n: detection_power(BS8, five_sixths, n) for n in range(100, 130)}
    assert min(n for n, p in powers.items() if p >= 0.8) == 114


# ------------------------------------------------------ impossible outcomes
@settings(max_examples=40, deadline=None)
@given(n_dice=st.integers(1, 4), target=st.integers(2, 6), n=st.integers(1, 60), where=st.floats(0, 1),
       bad=st.sampled_from(["7", "-1", "x", "2.5", "true", "[1]"]), seed=st.integers(0, 1000))
def test_an_impossible_outcome_is_always_caught(n_dice: int, target: int, n: int, where: float, bad: str,
                                                seed: int) -> None:
    dist = successes(n_dice, F(7 - target, 6))
    if bad == "7":
        bad = str(n_dice + 1 + seed % 3)
    rows = [str(x) for x in dist.sample(n, seed)]
    at = int(where * n)
    rows.insert(at, bad)
    result = validate(dist, io.StringIO("outcome\n" + "\n".join(rows) + "\n"), fmt="csv")
    assert result.rejected and result.p_value == 0 and result.exit_code == 1
    assert [i.first_line for i in result.impossible] == [at + 2]  # line 1 is the header
    assert "outcomes the rule never gives" in result.headline()
    assert result.rows[0].impossible and result.rows[0].label == result.impossible[0].label


def test_impossible_outcome_through_the_cli(tmp_path: Path) -> None:
    query = tmp_path / "bs8.toml"
    query.write_text(BS8_POOL)
    samples = tmp_path / "s.jsonl"
    samples.write_text("1\n1\n0\n2\n1\n")
    r = CliRunner().invoke(main, ["validate", str(query), str(samples)])
    assert r.exit_code == 1
    assert "REJECTED: 1 of 5 samples are outcomes the rule never gives (probability 0): 2 (1x, first at line 4)" \
        in r.output
    assert "IMPOSSIBLE" in r.output


def test_many_kinds_of_impossible_outcomes_are_bounded() -> None:
    rows = "outcome\n" + "".join(f"{1000 + i}\n" for i in range(500)) + "1\n"
    s = read_samples(io.StringIO(rows), BS8, "csv")
    assert len(s.impossible) == 20 and s.impossible_more == 480 and s.n == 501
    assert validate(BS8, s).rejected


# ------------------------------------------------------------ the tests
def test_exact_multinomial_against_brute_force() -> None:
    """The p-value sums the probability of every count vector no more likely than the observed one."""
    import itertools

    probs = [F(1, 2), F(1, 3), F(1, 6)]
    n = 6
    prob_of: dict = {}
    for seq in itertools.product(range(3), repeat=n):
        counts = tuple(seq.count(i) for i in range(3))
        p = F(1)
        for i in seq:
            p *= probs[i]
        prob_of[counts] = prob_of.get(counts, 0) + p
    for observed in [(3, 2, 1), (6, 0, 0), (0, 0, 6), (2, 2, 2), (0, 6, 0)]:
        want = sum(p for p in prob_of.values() if p <= prob_of[observed])
        assert exact_multinomial_test(probs, list(observed)) == want


def test_test_choice_is_reported() -> None:
    assert validate(BS8, [1] * 11 + [0]).tests[0].name == "exact binomial test"
    few = validate(THREE, THREE.sample(20, 1))
    assert [t.name for t in few.tests] == ["exact multinomial test"]
    many = validate(TEN, TEN.sample(3000, 1))
    assert [t.name for t in many.tests] == ["Pearson chi-square test", "mean z-test"]
    assert "pooled: 0..1; 9..10" in many.tests[0].why
    g = validate(TEN, TEN.sample(3000, 1), statistic="g")
    assert g.tests[0].name.startswith("G-test") and g.tests[0].df == many.tests[0].df == 8
    sparse = validate(TEN, TEN.sample(12, 1))
    assert "few samples for many outcomes" in sparse.tests[0].why
    assert validate(Dist.constant(3), [3, 3]).tests[0].name == "none needed"


def test_mean_shift_is_caught_by_the_mean_test() -> None:
    """A simulator off by one on rare occasions: the mean test sees what pooling hides."""
    rng = random.Random(5)
    shifted = [min(10, x + (rng.random() < 0.08)) for x in TEN.sample(3000, 5)]
    result = validate(TEN, shifted)
    mean = next(t for t in result.tests if t.name == "mean z-test")
    assert mean.p_value < result.level and result.rejected
    assert "higher than the exact mean" in result.to_text()


@settings(max_examples=40, deadline=None)
@given(weights=st.lists(st.integers(1, 50), min_size=2, max_size=12), n=st.integers(1, 500),
       ordered=st.booleans())
def test_pooled_cells_reach_the_minimum(weights: list[int], n: int, ordered: bool) -> None:
    total = sum(weights)
    cells = [Cell([i], F(w, total), 0, str(i)) for i, w in enumerate(weights)]
    pooled = pool_cells(cells, n, ordered)
    assert sorted(x for c in pooled for x in c.outcomes) == list(range(len(weights)))
    assert sum(c.p for c in pooled) == 1
    if len(pooled) > 1:
        assert all(c.p * n >= MIN_EXPECTED for c in pooled)
    if ordered:  # contiguous runs
        for c in pooled:
            assert c.outcomes == list(range(c.outcomes[0], c.outcomes[-1] + 1))


def test_simplest_fraction() -> None:
    assert simplest_fraction(0.828, 0.838) == F(5, 6)
    assert simplest_fraction(0.91, 0.92) == F(11, 12)
    assert simplest_fraction(F(3, 10), F(3, 10)) == F(3, 10)
    import math

    rng = random.Random(3)
    for _ in range(300):
        lo, hi = sorted((F(rng.randint(0, 999), 1000), F(rng.randint(0, 999), 1000)))
        got = simplest_fraction(lo, hi)
        den = next(d for d in range(1, 2000) if math.ceil(lo * d) <= hi * d)
        assert lo <= got <= hi and got.denominator == den


# --------------------------------------------------------------- distances
def test_distances_exact_values() -> None:
    a, b = Dist({0: F(1, 2), 1: F(1, 2)}), Dist({0: F(2, 3), 1: F(1, 3)})
    assert total_variation(a, b) == total_variation(b, a) == F(1, 6)
    assert ks_distance(a, b) == F(1, 6)
    # CvM: (F_b - F_a)^2 weighted by a: at 0 (2/3 - 1/2)^2 * 1/2, at 1 zero
    assert cramer_von_mises(a, b) == F(1, 72)
    two = Dist({0: F(1, 4), 1: F(1, 2), 2: F(1, 4)})
    shifted = two + 1
    assert total_variation(two, shifted) == F(1, 2) and ks_distance(two, shifted) == F(1, 2)
    # F_two - F_shifted is 1/4, 1/2, 1/4, 0 at 0, 1, 2, 3, weighted by two's 1/4, 1/2, 1/4, 0
    assert cramer_von_mises(two, shifted) == F(1, 4) ** 2 * F(1, 4) + F(1, 2) ** 2 * F(1, 2) + F(1, 4) ** 2 * F(1, 4)
    assert total_variation(two, two) == ks_distance(two, two) == cramer_von_mises(two, two) == 0


def test_distances_with_samples() -> None:
    samples = [0, 0, 1, 2]
    dist = Dist({0: F(1, 4), 1: F(1, 2), 2: F(1, 4)})
    assert total_variation(dist, samples) == F(1, 4)
    assert ks_distance(dist, {0: 2, 1: 1, 2: 1}) == F(1, 4)
    s = Samples.from_outcomes(samples + [5], dist)
    assert total_variation(dist, s) == F(1, 2) * (abs(F(2, 5) - F(1, 4)) + abs(F(1, 5) - F(1, 2))
                                                  + abs(F(1, 5) - F(1, 4)) + F(1, 5))
    assert ks_distance(dist, s) == max(abs(F(2, 5) - F(1, 4)), abs(F(3, 5) - F(3, 4)), abs(F(4, 5) - 1))


def test_distances_refuse_unordered_outcomes_for_ks() -> None:
    d = hd_exact(2, 5)
    assert total_variation(d, d) == 0
    with pytest.raises(InputError, match="Kolmogorov-Smirnov distance needs ordered numeric outcomes"):
        ks_distance(d, d)


# ------------------------------------------------------------ sample files
def test_sample_formats_agree() -> None:
    draws = TEN.sample(400, 2)
    by_rows = read_samples(io.StringIO(samples_csv(draws, TEN)), TEN)
    by_counts = read_samples(io.StringIO(samples_csv(draws, TEN, counts=True)), TEN)
    jsonl = read_samples(io.StringIO("".join(f"{x}\n" for x in draws)), TEN)
    wrapped = read_samples(io.StringIO("".join(json.dumps({"outcome": x, "count": 2}) + "\n" for x in draws)), TEN)
    assert by_rows.counts == by_counts.counts == jsonl.counts == Samples.from_outcomes(draws, TEN).counts
    assert {x: 2 * c for x, c in by_rows.counts.items()} == wrapped.counts


def test_values_are_normalised() -> None:
    s = read_samples(io.StringIO("outcome\n01\n1.0\n+1\n 1 \n0\n"), BS8, "csv")
    assert s.counts == {1: 4, 0: 1} and not s.impossible


def test_composite_outcomes_csv_and_jsonl() -> None:
    d = hd_exact(2, 5)
    # tuple outcomes are one column holding a JSON list
    draws = d.sample(50, 1)
    assert read_samples(io.StringIO(samples_csv(draws, d)), d).counts == Samples.from_outcomes(draws, d).counts
    from typing import NamedTuple

    class Shot(NamedTuple):
        recipient: str
        hits: int

    named = d.map(lambda o: Shot(*o))
    nd = named.sample(60, 3)
    text = samples_csv(nd, named)
    assert text.splitlines()[0] == "recipient,hits"
    assert read_samples(io.StringIO(text), named).counts == Samples.from_outcomes(nd, named).counts
    reordered = "hits,count,recipient\n" + "".join(f"{o.hits},1,{o.recipient}\n" for o in nd)
    assert read_samples(io.StringIO(reordered), named).counts == Samples.from_outcomes(nd, named).counts
    lines = "".join(json.dumps(o._asdict()) + "\n" for o in nd)
    assert read_samples(io.StringIO(lines), named, "jsonl").counts == Samples.from_outcomes(nd, named).counts
    counted = "".join(json.dumps({**o._asdict(), "count": 3}) + "\n" for o in nd)
    assert sum(read_samples(io.StringIO(counted), named, "jsonl").counts.values()) == 180
    dicts = Samples.from_outcomes([o._asdict() for o in nd], named)
    assert dicts.counts == Samples.from_outcomes(nd, named).counts


@pytest.mark.parametrize("text,fmt,needle", [
    ("", "csv", "is empty"),
    ("outcome\n", "csv", "no samples"),
    ("outcome,count\n1,0\n", "csv", "no samples"),
    ("hits\n1\n", "csv", "unknown column 'hits'"),
    ("outcome,outcome\n1,1\n", "csv", "appears twice"),
    ("count\n1\n", "csv", "column 'outcome' is missing"),
    ("outcome,count\n1,-5\n", "csv", "line 2: count '-5'"),
    ("outcome,count\n1,2.5\n", "csv", "line 2: count '2.5'"),
    ("outcome\n1\n1,2\n", "csv", "line 3: 2 values for 1 columns"),
    ("outcome\n\"1\n", "csv", "not valid CSV"),
    ("1\n{not json\n", "jsonl", "line 2: not valid JSON"),
    ('{"outcome": 1, "x": 2}\n', "jsonl", "unknown key 'x'"),
    ('{"count": 2}\n', "jsonl", "key 'outcome' is missing"),
    ('{"outcome": 1, "count": -1}\n', "jsonl", "count -1"),
    ("outcome\n" + "1" * 1_100_000 + "\n", "csv", "longer than 1,000,000 characters"),
    ("outcome\n1\x00\n", "csv", "NUL"),
])
def test_bad_sample_files(text: str, fmt: str, needle: str) -> None:
    with pytest.raises(InputError, match=None) as e:
        read_samples(io.StringIO(text), BS8, fmt)
    assert needle in str(e.value), str(e.value)


def test_bad_sample_files_through_the_cli(tmp_path: Path) -> None:
    query = tmp_path / "bs8.toml"
    query.write_text(BS8_POOL)
    (tmp_path / "bin.csv").write_bytes(b"outcome\n1\n" + bytes(range(128, 256)))
    (tmp_path / "bad.csv").write_text("shots\n1\n")
    for samples, needle in [("bin.csv", "UTF-8"), ("bad.csv", "unknown column 'shots'"), ("none.csv", "cannot read"),
                            (".", "folder")]:
        r = CliRunner().invoke(main, ["validate", str(query), str(tmp_path / samples)])
        assert r.exit_code == 2, r.output
        lines = r.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: ") and needle in lines[0], r.output
    for args in (["--alpha", "0"], ["--alpha", "1.5"], ["--statistic", "x"]):
        assert CliRunner().invoke(main, ["validate", str(query), "x.csv", *args]).exit_code == 2


def test_samples_from_standard_input(tmp_path: Path) -> None:
    query = tmp_path / "bs8.toml"
    query.write_text(BS8_POOL)
    r = CliRunner().invoke(main, ["validate", str(query), "-"], input="outcome\n" + "1\n" * 11 + "0\n")
    assert r.exit_code == 0 and "<stdin>" in r.output


class _Generated(io.TextIOBase):
    """A text stream of ``n`` sample rows made on the fly (never held in memory)."""

    def __init__(self, n: int) -> None:
        self.left = n
        self.header = True

    def readable(self) -> bool:
        return True

    def readline(self, size: int = -1) -> str:  # type: ignore[override]
        if self.header:
            self.header = False
            return "outcome\n"
        if not self.left:
            return ""
        self.left -= 1
        return "1\n" if self.left % 12 else "0\n"


def test_reading_is_streamed_in_constant_memory() -> None:
    """Peak memory does not grow with the number of rows (a list of 20,000 more
    outcomes alone would add over 160 kB)."""
    read_samples(_Generated(100), BS8, "csv")  # warm caches
    peaks = []
    for n in (5_000, 25_000):
        tracemalloc.start()
        try:
            s = read_samples(_Generated(n), BS8, "csv")
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
        assert s.n == n and s.counts[0] == n // 12 + (n % 12 > 0)
    assert peaks[1] < peaks[0] + 40_000, peaks


# --------------------------------------------------------------- API, display
def test_python_api_accepts_queries_answers_paths_and_counts(tmp_path: Path) -> None:
    query = tmp_path / "bs8.toml"
    query.write_text(BS8_POOL)
    q = Query.from_toml(query)
    counts = {0: 160, 1: 1840}
    results = [validate(x, counts) for x in (q, q.answer(), BS8, query, str(query))]
    assert len({r.p_value for r in results}) == 1 and all(r.consistent for r in results)
    assert "exactodds pool 1 --hit 2+ --reroll 1 --reroll-hit 4+" in results[0].subject
    with pytest.raises(InputError, match="alpha"):
        validate(BS8, counts, alpha=1.5)
    with pytest.raises(InputError, match="statistic"):
        validate(BS8, counts, statistic="x")
    with pytest.raises(InputError, match="validate needs"):
        validate(3, counts)


def test_rich_display() -> None:
    bad = validate(BS8, simulate(bs8_shot, 2000, 1, forget_reroll=True))
    html = bad._repr_html_()
    assert "REJECTED" in html and "<table" in html and "exact binomial test" in html and "5/6" in html
    good = validate(BS8, simulate(bs8_shot, 2000, 1))
    assert "consistent" in good._repr_html_() and repr(good).startswith("<ValidationResult consistent")
    assert json.loads(good.to_json())["verdict"] == "consistent"


def test_validation_imports_scipy_lazily() -> None:
    code = "import sys, exactodds.validation, exactodds.commands, exactodds.cli\nprint('scipy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_validate_starts_without_scipy_stats(tmp_path: Path) -> None:
    """``exactodds validate`` imports scipy.special only (scipy.stats alone takes most of a second)."""
    code = ("import sys\nfrom exactodds.cli import main\n"
            f"sys.argv = ['exactodds', 'validate', {str(ROOT / 'examples/validation/bs8_query.toml')!r}, "
            f"{str(ROOT / 'examples/validation/bs8_samples_forgot_reroll.csv')!r}]\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print('scipy.stats' in sys.modules, 'scipy.optimize' in sys.modules, file=sys.stderr)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert "REJECTED" in out.stdout
    assert out.stderr.strip().splitlines()[-1] == "False False"


def test_p_values_are_those_of_scipy_stats() -> None:
    """The scipy.special implementations give scipy.stats' p-values bit for bit."""
    from scipy.stats import binomtest, norm, power_divergence

    from exactodds.validation import stats

    rng = random.Random(11)
    for n in (1, 2, 7, 30, 500, 20_000):
        for p in (1 / 12, 11 / 12, 0.5, 1 / 3, 0.8319):
            for k in {0, n, n // 2, round(n * p), min(n, round(n * p) + 1), rng.randint(0, n)}:
                assert stats.binomtest_pvalue(k, n, p) == binomtest(k, n, p).pvalue, (k, n, p)
                ci = binomtest(k, n, p).proportion_ci(0.95)
                lo, hi = stats.clopper_pearson(k, n, 0.95)
                assert abs(lo - ci.low) < 1e-9 and abs(hi - ci.high) < 1e-9
    for _ in range(200):
        m, n = rng.randint(2, 25), rng.randint(10, 5000)
        weights = [rng.random() for _ in range(m)]
        observed = [0] * m
        for i in rng.choices(range(m), weights, k=n):
            observed[i] += 1
        expected = [w * n / sum(weights) for w in weights]
        for lam, name in (("pearson", "pearson"), ("log-likelihood", "g")):
            stat, p = power_divergence(observed, expected, lambda_=lam)
            assert stats.power_divergence(observed, expected, name) == (float(stat), float(p))
    for z in (0.0, 0.3, 1.96, 4.0, 12.0):
        assert stats.norm_sf(z) == norm.sf(z)


def test_a_binomial_answer_names_the_per_trial_chance() -> None:
    """10 dice at 1/9 each, a simulator rolling 1/18: the advice backs out the per-trial chance."""
    exact = successes(10, F(1, 9))
    result = validate(exact, successes(10, F(1, 18)).sample(2000, seed=3))
    assert result.rejected and result.trials() == (10, F(1, 9))
    text = result.to_text()
    assert "successes of 10 independent trials of chance 1/9" in text
    assert "the simplest fraction in that interval is 1/18" in text
    assert "per-trial chance" in text
    assert validate(exact, exact.sample(2000, seed=3)).consistent
    assert validate(THREE, THREE.sample(40, 1)).trials() == (3, F(1, 2))
    assert validate(hd_exact(4, 5), hd_simulator(4, 5, 200, 1)).trials() is None


ASSAULT = ('system = "40k6"\ncommand = "assault"\n[params]\n'
           'attacker = "examples/40k6/ork_boyz_sluggas.toml"\n'
           'defender = "examples/40k6/tactical_squad_mixed_weapons.toml"\ndistance = {distance}\nrounds = 3\n')


def _assault_folder(tmp_path: Path) -> Path:
    """A folder holding ``examples/`` and the flagship assault at 7" and (a wrong query) 8"."""
    import shutil

    shutil.copytree(ROOT / "examples" / "40k6", tmp_path / "examples" / "40k6")
    for distance in (7, 8):
        (tmp_path / f"assault{distance}.toml").write_text(ASSAULT.format(distance=distance))
    return tmp_path


def test_samples_of_an_assault_validate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """630 joint outcomes from 2,000 samples have about 3.01e+626 count vectors: reported as
    text (a float overflows), and the pooled chi-square is used instead of the exact test."""
    import time

    monkeypatch.chdir(_assault_folder(tmp_path))
    for distance in (7, 8):
        drawn = CliRunner().invoke(main, ["sample", "-n", "2000", "--seed", "1", f"assault{distance}.toml",
                                          "--out", f"drawn{distance}.csv"])
        assert drawn.exit_code == 0, drawn.output
    before = sorted(p.name for p in tmp_path.iterdir())
    start = time.process_time()  # processor seconds: they do not grow on a busy machine
    ok = CliRunner().invoke(main, ["validate", "assault7.toml", "drawn7.csv"])
    assert ok.exit_code == 0, ok.output
    assert time.process_time() - start < 30  # generous: measured 2 s
    lines = ok.output.splitlines()
    assert lines[3] == ("verdict: consistent at alpha = 0.05: no departure from the exact distribution "
                        "detected in 12 tests of the joint outcomes, each unit and its headline figures "
                        "(smallest Holm-adjusted p-value 1.0000)")
    assert lines[6].startswith("  why: 2,000 samples over 630 outcomes: too many count vectors (~3.01e+626) "
                               "for the exact multinomial test, so the pooled chi-square approximation")
    wrong = CliRunner().invoke(main, ["validate", "assault7.toml", "drawn8.csv"])
    assert wrong.exit_code == 1, wrong.output
    assert wrong.output.splitlines()[3] == (
        "verdict: REJECTED at alpha = 0.05: attacker status: p = 1.4e-50, rejected; defender models left: "
        "p = 7.21e-47, rejected; defender mean models left: p = 1.5e-42, rejected; and 8 more figures "
        "(Holm-adjusted p-values over 12 tests)")
    assert "  joint outcomes             Pearson chi-square test  chi-square = 283.8  1.91e-29  1.53e-28  REJECTED" \
        in wrong.output.splitlines()
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_huge_counts_are_written_without_floats() -> None:
    from exactodds.validation.gof import _big

    assert [_big(c) for c in (10**9, 123_456_789_012, 10**300 - 1, 2**1030, 7 * 10**5000)] == [
        "1,000,000,000", "1.23e+11", "1e+300", "~1.15e+310", "~7.00e+5000"]
