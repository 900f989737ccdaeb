"""Validating engagement simulators: each unit's marginal and headline figures tested
beside the joint outcomes, corrected by Holm's method, and the example simulator of the
flagship assault (examples/validation/simulate_assault.py), faithful and with its bugs."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import math
from fractions import Fraction as F
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from click.testing import CliRunner

from exactodds.cli import main
from exactodds.commands import Query
from exactodds.validation import validate
from exactodds.validation.family import holm

ROOT = Path(__file__).resolve().parents[1]
QUERY = ROOT / "examples" / "validation" / "assault_query.toml"
SIMULATOR = ROOT / "examples" / "validation" / "simulate_assault.py"
BUGS = ("no-look-out-sir", "sweep-tie-to-loser", "charge-bonus-every-round")


@pytest.fixture(scope="module")
def assault() -> Any:
    """The exact answer of the flagship assault."""
    return Query.from_toml(QUERY).answer()


def _simulator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("simulate_assault", SIMULATOR)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def simulate(tmp_path: Path, n: int, seed: int, bug: str | None = None) -> Path:
    """The example simulator's counts of ``n`` assaults, as a CSV file."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        _simulator().main([str(n), "--seed", str(seed), "--counts"] + (["--bug", bug] if bug else []))
    path = tmp_path / f"assault-{bug or 'faithful'}-{n}-{seed}.csv"
    path.write_text(out.getvalue())
    return path


# ----------------------------------------------------------------- Holm
def test_holm_adjusts_step_down() -> None:
    # sorted 0.005, 0.01, 0.03, 0.04: x4 = 0.02, x3 = 0.03, x2 = 0.06, x1 = 0.04 -> kept at 0.06
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, 0.9]) == [1.0, 1.0]
    assert holm([]) == []


# ------------------------------------------------------- the family
def test_family_figures_agree_with_the_answers_own_figures(assault: Any) -> None:
    """Each headline test counts what a person counts from the rows, against the
    answer's own P(destroyed) and mean (computed by the scenario, not by units.py)."""
    from scipy.stats import binomtest, norm

    rows = assault.dist.sample(3000, seed=5)
    result = validate(assault, rows)
    by = {t.figure: t for t in result.family}
    assert list(by) == ["joint outcomes", "attacker models left", "attacker mean models left",
                        "P(attacker destroyed)", "attacker status", "P(attacker falling back)",
                        "P(attacker swept)", "defender models left", "defender mean models left",
                        "P(defender destroyed)", "defender status", "P(defender falling back)"]
    for unit in ("attacker", "defender"):
        k = sum(1 for x in rows if getattr(x, unit) == 0)
        test = by[f"P({unit} destroyed)"].test
        assert test.statistic == k
        assert test.p_value == pytest.approx(binomtest(k, 3000, float(assault.extras["p_destroyed"][unit])).pvalue)
        mean, exact_mean = F(sum(getattr(x, unit) for x in rows), 3000), assault.extras["mean_survivors"][unit]
        exact_var = assault.marginal(unit).var()
        z = float(mean - exact_mean) / math.sqrt(float(exact_var) / 3000)
        assert by[f"{unit} mean models left"].test.p_value == pytest.approx(2 * norm.sf(abs(z)))
    swept = sum(1 for x in rows if x.attacker_status == "swept")
    assert by["P(attacker swept)"].test.statistic == swept
    assert by["P(attacker swept)"].test.p_value == pytest.approx(
        binomtest(swept, 3000, float(assault.extras["p_attacker_swept"])).pvalue)
    # Holm: the smallest p-value times 12, and no adjusted p-value below its own p-value
    smallest = min(by.values(), key=lambda t: t.test.p_value)
    assert smallest.adjusted == pytest.approx(min(1.0, 12 * smallest.test.p_value))
    assert all(t.adjusted >= t.test.p_value for t in by.values())
    assert result.consistent
    page = result._repr_html_()
    assert "Holm-adjusted over 12 tests" in page and "<td style=\"padding:2px 8px;\">P(defender falling back)</td>" in page


def test_json_carries_one_entry_per_test(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = simulate(tmp_path, 2000, 3, "charge-bonus-every-round")
    got = CliRunner().invoke(main, ["validate", str(QUERY), str(path), "--format", "json"])
    assert got.exit_code == 1, got.output
    doc = json.loads(got.output)
    assert doc["correction"] == "holm"
    assert len(doc["family"]) == 12 and doc["units_not_tested"] == []
    first = doc["family"][0]
    assert set(first) >= {"figure", "unit", "name", "p_value", "p_adjusted", "rejected"}
    assert first["figure"] == "joint outcomes" and first["unit"] is None
    assert doc["verdict"] == "rejected"
    assert any(t["rejected"] for t in doc["family"] if t["unit"] == "defender")


def test_one_figure_answers_keep_their_single_tests() -> None:
    """A one-figure answer has no family: Bonferroni over its tests, as before."""
    result = validate(Query("40k6", "hit", {"shots": 1, "bs": 8}).answer(), {0: 8, 1: 92})
    assert result.family == [] and result.to_json_obj()["correction"] == "bonferroni"


# ------------------------------------------------------ the simulator
def test_the_example_simulator_writes_what_validate_reads(tmp_path: Path) -> None:
    path = simulate(tmp_path, 500, 7)
    lines = path.read_text().splitlines()
    assert lines[0] == "attacker,attacker_status,defender,defender_status,count"
    assert sum(int(line.rsplit(",", 1)[1]) for line in lines[1:]) == 500
    result = validate(QUERY, path)
    assert result.samples.n_impossible == 0


@pytest.mark.slow
def test_the_faithful_simulator_is_accepted_and_each_bug_rejected(tmp_path: Path) -> None:
    """100,000 assaults each (random seed 1): the files docs/validating.md validates are the simulator's."""
    made = {bug: simulate(tmp_path, 100_000, 1, bug) for bug in (None, *BUGS)}
    for bug, path in made.items():
        shipped = ROOT / "examples" / "validation" / f"assault_samples_{(bug or 'faithful').replace('-', '_')}.csv"
        assert path.read_text() == shipped.read_text(), bug
    faithful = validate(QUERY, made[None])
    assert faithful.consistent, faithful.headline()
    for bug in ("sweep-tie-to-loser", "charge-bonus-every-round"):
        result = validate(QUERY, made[bug])
        assert result.rejected, bug
        assert len(result.departing) == 12  # every figure departs
    # no Look Out, Sir moves each figure by less than 100,000 samples can see
    assert validate(QUERY, made["no-look-out-sir"]).consistent


@pytest.mark.slow
def test_no_look_out_sir_is_caught_by_a_million_assaults(tmp_path: Path) -> None:
    path = simulate(tmp_path, 1_000_000, 1, "no-look-out-sir")
    assert path.read_text() == (ROOT / "examples" / "validation" / "assault_samples_no_look_out_sir_1m.csv").read_text()
    result = validate(QUERY, path)
    assert result.rejected
    assert {t.figure for t in result.departing} >= {"joint outcomes", "defender models left",
                                                    "P(defender falling back)"}


def test_no_look_out_sir_is_the_assault_without_look_out_sir(tmp_path: Path) -> None:
    """The shipped no-Look-Out-Sir samples agree with the exact assault whose Sergeant has none."""
    units = tmp_path / "40k6"
    units.mkdir()
    for name in ("ork_boyz_sluggas.toml", "tactical_squad_mixed_weapons.toml"):
        text = (ROOT / "examples" / "40k6" / name).read_text()
        (units / name).write_text(text.replace("look_out_sir = true", "look_out_sir = false")
                                  if name.startswith("tactical") else text)
    query = tmp_path / "q.toml"
    query.write_text(QUERY.read_text().replace("../40k6/", "40k6/"))
    shipped = ROOT / "examples" / "validation" / "assault_samples_no_look_out_sir.csv"
    assert validate(query, shipped).consistent
    assert validate(QUERY, shipped).p_value == pytest.approx(0.1036, abs=5e-5)


def test_a_scenarios_units_are_tested_by_their_names(tmp_path: Path) -> None:
    query = tmp_path / "q.toml"
    query.write_text(f'system = "scenario"\n[params]\nfile = "{ROOT / "examples" / "scenarios" / "firefight.toml"}"\n')
    answer = Query.from_toml(query).answer()
    result = validate(query, answer.dist.sample(2000, seed=4))
    assert [t.figure for t in result.family][1:6] == [
        "marines models left", "marines mean models left", "P(marines destroyed)", "marines status",
        "P(marines falling back)"]
    assert {t.unit for t in result.family} == {None, "marines", "orks"}
