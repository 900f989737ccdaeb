"""Parameter sweeps: grid files, figures, engines (local, processes, Dask), resume, caching, CLI."""

from __future__ import annotations

import csv
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds import Dist, InputError
from exactodds.cli import main
from exactodds.commands import Query, systems as query_systems
from exactodds.sweep import ANSWERS, AnswerCache, load_grid, parse_grid, run_sweep, sweep
from exactodds.sweep.output import read_rows
from tests.brute import enumerate_rolls

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "sweeps"

POOL = {"base": {"system": "pool"},
        "vary": {"n": {"from": 1, "to": 6}, "hit": ["2+", "4+", "6+"]},
        "report": {"mean": True, "var": True, "at_least": [2], "at_most": [1], "p_outcome": [0],
                   "quantiles": [0.5, "9/10"]}}


def write(tmp_path: Path, text: str, name: str = "grid.toml") -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def pool_grid(tmp_path: Path, vary: str = 'n = {from = 1, to = 4}\nhit = ["3+", "5+"]', extra: str = "") -> Path:
    return write(tmp_path, f'[base]\nsystem = "pool"\n{extra}\n[vary]\n{vary}\n[report]\nmean = true\nat_least = [2]\n')


def cells(path: Path) -> list[list[str]]:
    with path.open(newline="") as f:
        return list(csv.reader(f))


# ------------------------------------------------------------------ grids
def test_product_order_size_and_columns() -> None:
    g = parse_grid(POOL)
    assert len(g) == 18
    points = list(g.points())
    assert points[:4] == [{"n": 1, "hit": "2+"}, {"n": 1, "hit": "4+"}, {"n": 1, "hit": "6+"}, {"n": 2, "hit": "2+"}]
    assert g.keys == ["n", "hit"]
    assert g.report.columns() == ["mean", "mean_float", "var", "var_float", "p_at_least_2", "p_at_least_2_float",
                                  "p_at_most_1", "p_at_most_1_float", "p_outcome_0", "p_outcome_0_float",
                                  "quantile_0.5", "quantile_9/10"]


def test_ranges_with_steps_and_combinations_crossed_with_vary() -> None:
    g = parse_grid({"base": {"system": "pool", "params": {"sides": 6}},
                    "combinations": [{"hit": "3+", "reroll": [1]}, {"hit": "4+", "reroll": [1, 2]}],
                    "vary": {"n": {"from": 10, "to": 1, "step": -4}}})
    assert g.keys == ["hit", "reroll", "n"]
    assert [(p["hit"], p["n"]) for p in g.points()] == [("3+", 10), ("3+", 6), ("3+", 2),
                                                        ("4+", 10), ("4+", 6), ("4+", 2)]
    assert g.report.columns() == ["mean", "mean_float"]  # the default report


@pytest.mark.parametrize("text, expected", [
    ('[base]\nsystem = "pool"\n[vary]\nnn = [1]', "grid.toml: vary.nn: unknown parameter 'nn'; allowed parameters are hit, n"),
    ('[base]\nsystem = "pool"\n[base.params]\nhit = "4+"\n[vary]\nn = []', "grid.toml: vary.n: is an empty list"),
    ('[base]\nsystem = "pool"\n[base.params]\nhit = "4+"\n[vary]\nn = [1, "x"]', "grid.toml: vary.n[2] = 'x': params.n:"),
    ('[base]\nsystem = "pool"\n[base.params]\nn = 3\n[vary]\nhit = ["4+", "9+"]', "grid.toml: vary.hit[2] = '9+'"),
    ('[base]\nsystem = "pool"\n[base.params]\nhit = "4+"\n[vary]\nn = 3', "grid.toml: vary.n = 3: expected a list"),
    ('[base]\nsystem = "pool"\n[base.params]\nhit = "4+"\n[vary]\nn = [1, 2, 1]', "grid.toml: vary.n: lists '1' twice"),
    ('[base]\nsystem = "pool"\n[base.params]\nhit = "4+"\n[vary]\nn = {from = 1, to = 3, stp = 1}',
     "grid.toml: vary.n: unknown key 'stp'"),
    ('[base]\nsystem = "pool"\n[base.params]\nhit = "4+"\n[vary]\nn = {from = 1, to = "3"}',
     "grid.toml: vary.n.to = '3': expected a whole number"),
    ('[base]\nsystem = "pool"\n[base.params]\nhit = "4+"\n[vary]\nn = {from = 1, to = 3, step = 0}',
     "grid.toml: vary.n.step = 0"),
    ('[base]\nsystem = "pool"\n[base.params]\nn = 3\nhit = "4+"\n[vary]\nn = [1]', "grid.toml: vary.n: is also set in base.params"),
    ('[base]\nsystem = "poo"\n[vary]\nn = [1]', "grid.toml: base: system 'poo' is not known"),
    ('[vary]\nn = [1]', "grid.toml: base is missing"),
    ('[base]\nsystem = "pool"\n[base.params]\nn = 3\n', "grid.toml: nothing to sweep"),
    ('[base]\nsystem = "pool"\nparams = 3\n[vary]\nn = [1]', "grid.toml: base.params = 3: expected a table"),
    ('sweep = 1\n[base]\nsystem = "pool"\n[vary]\nn = [1]', "grid.toml: top level: unknown key 'sweep'"),
    ('[base]\nsystem = "pool"\n[vary]\nn = [1]', "'hit' is required by exactodds pool and missing"),
    ('[base]\nsystem = "pool"\n[base.params]\nhit = "4+"\n[vary]\nn = [1]\n[report]\nat_least = ["3"]',
     "grid.toml: report.at_least[1] = '3': expected a whole number"),
    ('[base]\nsystem = "pool"\n[base.params]\nhit = "4+"\n[vary]\nn = [1]\n[report]\nquantiles = [1.5]',
     "grid.toml: report.quantiles[1] = 1.5: must be more than 0 and at most 1"),
    ('[base]\nsystem = "pool"\n[base.params]\nhit = "4+"\n[vary]\nn = [1]\n[report]\nmedian = true',
     "grid.toml: report: unknown key 'median'"),
    ('[base]\nsystem = "pool"\n[base.params]\nhit = "4+"\n[vary]\nn = [1]\n[report]\nmean = false',
     "grid.toml: report asks for no figures"),
    ('[base]\nsystem = "pool"\n[base.params]\nhit = "4+"\n[[combinations]]\nn = 1\n[[combinations]]\nsides = 6',
     "grid.toml: combinations[2]: has keys sides but combinations[1] has n"),
    ('[base]\nsystem = "pool"\n[base.params]\nhit = "4+"\n[[combinations]]\nn = 1\n[[combinations]]\nn = 1',
     "grid.toml: combinations[2]: repeats combinations[1]"),
    ('[base]\nsystem = "pool"\n[base.params]\nhit = "4+"\n[[combinations]]\nnn = 1', "grid.toml: combinations[1].nn: unknown"),
])
def test_grid_errors_name_the_file_and_the_key(tmp_path: Path, text: str, expected: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(InputError) as e:
        load_grid(path)
    assert expected in str(e.value).replace(str(tmp_path) + "/", "")


def test_base_may_be_a_query_file_with_profile_paths_relative_to_it(tmp_path: Path) -> None:
    (tmp_path / "q").mkdir()
    write(tmp_path / "q", 'system = "pool"\n[params]\nhit = "4+"\n', "query.toml")
    g = load_grid(write(tmp_path, 'base = "q/query.toml"\n[vary]\nn = [2, 3]\n'))
    rows = sweep(g, scheduler="local")
    assert list(rows["mean"]) == ["1/1", "3/2"]


# ----------------------------------------------------------------- figures
def test_figures_are_the_exact_figures_of_each_query() -> None:
    df = sweep(POOL, scheduler="local")
    assert len(df) == 18
    for row in df.to_dict("records"):
        dist = Dist.binomial(row["n"], F(7 - int(row["hit"][0]), 6))
        assert F(row["mean"]) == dist.mean() and row["mean_float"] == float(dist.mean())
        assert F(row["var"]) == dist.var()
        assert F(row["p_at_least_2"]) == dist.at_least(2)
        assert F(row["p_at_most_1"]) == dist.at_most(1)
        assert F(row["p_outcome_0"]) == dist.pmf(0)
        assert row["quantile_0.5"] == dist.ppf(F(1, 2)) and row["quantile_9/10"] == dist.ppf(F(9, 10))


@settings(max_examples=15, deadline=None)
@given(n=st.integers(1, 3), hit=st.integers(2, 6), k=st.integers(0, 3))
def test_rows_agree_with_brute_force_over_raw_rolls(n: int, hit: int, k: int) -> None:
    grid = {"base": {"system": "pool", "params": {"hit": f"{hit}+", "reroll": [1]}},
            "vary": {"n": [n]}, "report": {"mean": True, "at_least": [k]}}
    row = run_sweep(grid, scheduler="local", write=False).rows[0]

    def successes(roll: tuple[int, ...]) -> int:  # reroll 1s once at the same target: 2n dice, pairs
        return sum(b >= hit if a == 1 else a >= hit for a, b in zip(roll[:n], roll[n:]))

    brute = enumerate_rolls(2 * n, successes)
    assert F(row["p_at_least_" + str(k)]) == sum(p for x, p in brute.items() if x >= k)
    assert F(row["mean"]) == sum(x * p for x, p in brute.items())


def test_report_field_on_composite_outcomes_and_its_errors(tmp_path: Path) -> None:
    from exactodds.sweep.report import Report

    from collections import namedtuple

    from exactodds.answer import Answer

    Pair = namedtuple("Pair", "hits wounds")
    answer = Answer(Dist.from_weights({Pair(0, 0): 1, Pair(1, 0): 1, Pair(1, 1): 2}), mean=None)
    assert Report(at_least=(1,), field="wounds").figures(answer)["p_at_least_1"] == "1/2"
    assert Report(mean=True, field="hits").figures(answer)["mean"] == "3/4"
    with pytest.raises(InputError, match="set report.field to one of hits, wounds"):
        Report(at_least=(1,)).figures(answer)
    with pytest.raises(InputError, match="report.field = 'x': the outcomes of this command have fields hits, wounds"):
        Report(field="x").figures(answer)
    with pytest.raises(InputError, match="report.extras: 'p' is not a figure of this command"):
        Report(extras=("p",)).figures(Answer(Dist.binomial(2, F(1, 2))))


# ----------------------------------------------------------------- engines
def test_processes_engine_gives_the_rows_of_the_local_engine(tmp_path: Path) -> None:
    local = run_sweep(POOL, tmp_path / "local.csv", scheduler="local")
    procs = run_sweep(POOL, tmp_path / "procs.csv", scheduler="processes", workers=2)
    assert procs.rows == local.rows and procs.computed == 18
    assert (tmp_path / "procs.csv").read_bytes() == (tmp_path / "local.csv").read_bytes()  # grid order


def test_dask_engine_gives_identical_rows(tmp_path: Path) -> None:
    distributed = pytest.importorskip(
        "distributed", reason="dask.distributed is not installed (pip install 'dask[distributed]'; the test extra "
                              "should bring it)")
    local = run_sweep(POOL, tmp_path / "local.csv", scheduler="local")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp", host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        by_address = run_sweep(POOL, tmp_path / "dask.csv", scheduler="dask", address=cluster.scheduler_address)
        with distributed.Client(cluster) as client:
            by_client = sweep(POOL, client=client)
    assert by_address.rows == local.rows
    assert (tmp_path / "dask.csv").read_bytes() == (tmp_path / "local.csv").read_bytes()
    assert by_client.to_dict("records") == local.to_pandas().to_dict("records")


def test_engine_arguments_are_checked() -> None:
    with pytest.raises(InputError, match="scheduler 'threads' is not known"):
        run_sweep(POOL, scheduler="threads", write=False)
    with pytest.raises(InputError, match="an address is for the dask scheduler"):
        run_sweep(POOL, scheduler="processes", address="tcp://127.0.0.1:1", write=False)
    with pytest.raises(InputError, match="workers must be a whole number"):
        run_sweep(POOL, workers=0, write=False)


# ------------------------------------------------------------ resume, output
def test_a_stopped_sweep_resumes_and_skips_finished_rows(tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    full = run_sweep(POOL, out, scheduler="local")
    whole = out.read_bytes()
    lines = whole.split(b"\n")
    out.write_bytes(b"\n".join(lines[:8]) + b"\n" + lines[8][:5])  # 7 rows, then a half-written line
    again = run_sweep(POOL, out, scheduler="processes")
    assert (again.resumed, again.computed) == (7, 11)
    assert again.rows == full.rows
    assert out.read_bytes() == whole
    third = run_sweep(POOL, out, scheduler="local")
    assert (third.resumed, third.computed) == (18, 0) and third.rows == full.rows


def test_resume_refuses_a_file_of_another_sweep_and_overwrite_starts_again(tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    out.write_text("a,b\n1,2\n")
    with pytest.raises(InputError, match="already holds something else than this sweep.s rows"):
        run_sweep(POOL, out, scheduler="local")
    run_sweep(POOL, out, scheduler="local", overwrite=True)
    assert cells(out)[0][:2] == ["n", "hit"] and len(cells(out)) == 19


def test_keep_going_records_errors_and_a_resume_retries_them(tmp_path: Path) -> None:
    grid = {"base": {"system": "pool", "params": {"n": 2, "hit": "4+"}},
            "vary": {"reroll_hit": ["5+"], "reroll_failed": [False, True]}}
    with pytest.raises(InputError, match="reroll_hit=5\\+, reroll_failed=false: reroll_hit needs reroll FACES"):
        run_sweep(grid, scheduler="local", write=False)
    out = tmp_path / "k.csv"
    result = run_sweep(grid, out, scheduler="local", keep_going=True)
    assert result.errors == 1
    rows = cells(out)
    assert rows[0][-1] == "error" and "reroll_hit needs" in rows[1][-1] and rows[2][-1] == ""
    assert F(rows[2][2]) == 2 * (F(1, 2) + F(1, 2) * F(1, 3))
    again = run_sweep(grid, out, scheduler="local", keep_going=True)
    # the refused combination is tried again (and refused again, before any computing)
    assert (again.resumed, again.computed, again.errors) == (1, 0, 1)
    assert len(cells(out)) == 3


def test_parquet_output(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet", reason="pyarrow is not installed (Parquet output is optional)")
    out = tmp_path / "r.parquet"
    local = run_sweep(POOL, out, scheduler="local")
    table = pq.read_table(out)
    assert table.column_names == local.columns and table.num_rows == 18
    assert table.to_pylist() == local.rows
    assert not (tmp_path / "r.parquet.partial.csv").exists()
    again = run_sweep(POOL, out, scheduler="local")
    assert again.resumed == 18 and pq.read_table(out).to_pylist() == local.rows


def test_parquet_without_pyarrow_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["sweep", pool_grid(Path(".")).name, "--out", "r.parquet"])
    assert r.exit_code == 2
    assert "r.parquet: writing Parquet needs pyarrow (pip install pyarrow)" in r.output


# ----------------------------------------------------------------- caching
def test_rows_spelling_the_same_query_are_computed_once(tmp_path: Path) -> None:
    grid = {"base": {"system": "pool", "params": {"n": 5}}, "vary": {"hit": ["4+", "4 +", " 4+", "auto", "A"]}}
    result = run_sweep(grid, scheduler="processes", write=False)
    assert (result.computed, result.shared) == (2, 3)
    assert [r["mean"] for r in result.rows] == ["5/2", "5/2", "5/2", "5/1", "5/1"]


def test_answer_cache_of_the_process() -> None:
    ANSWERS.clear()
    run_sweep(POOL, scheduler="local", write=False)
    assert (ANSWERS.info().misses, ANSWERS.info().hits) == (18, 0)
    again = run_sweep(dict(POOL, report={"at_least": [3]}), scheduler="local", write=False)
    assert (ANSWERS.info().misses, ANSWERS.info().hits) == (18, 18)
    assert again.rows[5]["p_at_least_3"] == "0/1"  # n = 2: never 3 successes
    small = AnswerCache(maxsize=2)
    for n in (1, 2, 3, 1):
        small.answer(Query("pool", None, {"n": n, "hit": "4+"}))
    assert (small.info().misses, small.info().size) == (4, 2)  # 1 was evicted by 3


# ----------------------------------------------------------- API and CLI
def test_without_pandas_run_sweep_gives_the_rows_and_sweep_says_it_needs_pandas(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)  # as if pandas were not installed
    rows = run_sweep(parse_grid(POOL), scheduler="local", write=False).rows
    assert isinstance(rows, list) and rows[0] == {
        "n": 1, "hit": "2+", "mean": "5/6", "mean_float": 5 / 6, "var": "5/36", "var_float": 5 / 36,
        "p_at_least_2": "0/1", "p_at_least_2_float": 0.0, "p_at_most_1": "1/1", "p_at_most_1_float": 1.0,
        "p_outcome_0": "1/6", "p_outcome_0_float": 1 / 6, "quantile_0.5": 1, "quantile_9/10": 1}
    with pytest.raises(InputError, match=r"^sweep\(\) returns a pandas DataFrame and needs pandas: pip install"):
        sweep(POOL, scheduler="local")


def test_cli_writes_csv_and_resumes(tmp_path: Path) -> None:
    grid, out = pool_grid(tmp_path), tmp_path / "out.csv"
    r = CliRunner().invoke(main, ["sweep", str(grid), "--out", str(out), "--workers", "2"])
    assert r.exit_code == 0, r.output
    assert "sweep: 8 rows (8 queries computed, 0 rows resumed" in r.output
    rows = cells(out)
    assert rows[0] == ["n", "hit", "mean", "mean_float", "p_at_least_2", "p_at_least_2_float"]
    assert rows[1] == ["1", "3+", "2/3", repr(2 / 3), "0/1", "0.0"]
    r = CliRunner().invoke(main, ["sweep", str(grid), "--out", str(out)])
    assert "(0 queries computed, 8 rows resumed" in r.output and cells(out) == rows


def test_cli_without_out_streams_csv_in_grid_order(tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["sweep", str(pool_grid(tmp_path)), "--scheduler", "local"])
    assert r.exit_code == 0
    lines = r.stdout.splitlines()
    assert lines[0] == "n,hit,mean,mean_float,p_at_least_2,p_at_least_2_float" and len(lines) == 9
    assert [line.split(",")[:2] for line in lines[1:3]] == [["1", "3+"], ["1", "5+"]]


@pytest.mark.parametrize("args, message", [
    (["--out", "r.xlsx"], "cannot tell the output format from '.xlsx'"),
    (["--workers", "0"], "0 is out of range"),
    (["--address", "tcp://127.0.0.1:1"], "an address is for the dask scheduler"),
])
def test_cli_errors_are_one_line_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    r = CliRunner().invoke(main, ["sweep", str(pool_grid(tmp_path))] + args)
    assert r.exit_code == 2 and message in r.output and "Traceback" not in r.output


def test_cli_grid_error_names_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["sweep", pool_grid(Path("."), vary="n = []").name])
    assert r.exit_code == 2 and r.output.startswith("Error: ") and "grid.toml: vary.n: is an empty list" in r.output


def test_example_grids_parse() -> None:
    systems = query_systems()
    for path in sorted(EXAMPLES.glob("*.toml")):
        prefix = path.name.split("_")[0]
        if prefix in ("pool", "40k6", "hd") and (prefix in systems):
            assert load_grid(path).system == prefix


@pytest.mark.skipif("40k6" not in query_systems(), reason="the 40k6 command group is not registered")
def test_40k6_hit_by_bs_example_matches_single_queries(tmp_path: Path) -> None:
    result = run_sweep(EXAMPLES / "40k6_hit_bs.toml", tmp_path / "hits.csv", workers=2)
    assert [r["bs"] for r in result.rows] == list(range(1, 11))
    for row in result.rows:
        answer = Query("40k6", "hit", {"shots": 10, "bs": row["bs"]}).answer()
        assert F(row["mean"]) == answer.mean and F(row["p_at_least_5"]) == answer.dist.at_least(5)
        if row["bs"] <= 5:  # BS 1-5 hit on 7 - BS: Binomial(10, BS/6)
            assert answer.dist == Dist.binomial(10, F(row["bs"], 6))
    assert read_rows(tmp_path / "hits.csv", result.columns)[0][:2] == ["1", "5/3"]


def test_a_file_that_is_not_this_sweeps_output_is_refused_untouched(tmp_path: Path) -> None:
    for name, data in [("bin.csv", b"\xff\xfe\x00garbage"), ("other.csv", b"x,y\n1,2"), ("bad.parquet", b"junk")]:
        out = tmp_path / name
        out.write_bytes(data)
        if name.endswith(".parquet"):
            pytest.importorskip("pyarrow")
        with pytest.raises(InputError, match=f"{name}: "):
            run_sweep(POOL, out, scheduler="local")
        assert out.read_bytes() == data


@pytest.mark.parametrize("args, message", [
    (["--address=0", "--progress"], "an address is for the dask scheduler"),
    (["--scheduler", "dask", "--address=0"], "'0' is not a Dask scheduler address"),
    (["--scheduler", "dask", "--address="], "the Dask scheduler address is empty"),
])
def test_dask_address_errors_are_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    pytest.importorskip("distributed", reason="dask.distributed is not installed")
    r = CliRunner().invoke(main, ["sweep", str(pool_grid(tmp_path))] + args)
    assert r.exit_code == 2 and r.output.count("\n") == 1 and message in r.output


def test_a_cached_answer_cannot_be_changed_by_a_reader() -> None:
    import dataclasses
    import pickle

    cache = AnswerCache()
    query = Query("pool", None, {"n": 2, "hit": "4+"})
    answer = cache.answer(query)
    assert answer.mean == 1 and answer.query["n"] == 2
    before = dict(answer.query)
    with pytest.raises(dataclasses.FrozenInstanceError):
        answer.mean = F(2)  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        answer.dist = Dist.constant(0)  # type: ignore[misc]
    for mapping in (answer.query, answer.extras, answer.stages):
        with pytest.raises(TypeError, match="read-only"):
            mapping["x"] = 1
        with pytest.raises(TypeError, match="read-only"):
            mapping.update(x=1)
    with pytest.raises(TypeError, match="read-only"):
        answer.query.pop("n")
    again = cache.answer(query)
    assert again is answer and again.query == before and again.mean == 1
    assert cache.info().hits == 1
    # a changed copy is a new answer; the cached one stays as it was
    more = dataclasses.replace(answer, extras={**answer.extras, "p_two": F(1, 4)})
    assert more.extras == {"p_two": F(1, 4)} and answer.extras == {}
    assert pickle.loads(pickle.dumps(more)).extras == {"p_two": F(1, 4)}


def test_sweep_always_returns_a_dataframe() -> None:
    import pandas as pd

    grid = {"base": {"system": "pool", "params": {"hit": "4+"}}, "vary": {"n": [1, 2]}, "report": {"mean": True}}
    df = sweep(grid, scheduler="local")
    assert isinstance(df, pd.DataFrame) and list(df["mean"]) == ["1/2", "1/1"]
    assert run_sweep(parse_grid(grid), scheduler="local", write=False).rows == df.to_dict("records")


# ------------------------------------------------------------ resume: the whole question
def scenario_sweep(tmp_path: Path) -> Path:
    """Tactical Marines shooting Orks for 1 to 4 turns, the units' files beside the scenario."""
    for name in ("tactical_squad_mixed_weapons.toml", "ork_boyz.toml"):
        (tmp_path / name).write_bytes((ROOT / "examples" / "40k6" / name).read_bytes())
    write(tmp_path, '[units.marines]\nfile = "tactical_squad_mixed_weapons.toml"\n[units.orks]\nfile = "ork_boyz.toml"\n'
                    '[[steps]]\nkind = "shoot"\nunit = "marines"\ntarget = "orks"\nrange = "half"\n', "sc.toml")
    return write(tmp_path, '[base]\nsystem = "scenario"\n[base.params]\nfile = "sc.toml"\n[vary]\n'
                           'turns = [1, 2, 3, 4]\n[report]\nfield = "orks"\nmean = true\nat_least = [5]\n')


def test_a_resumed_row_is_never_the_answer_to_a_changed_unit_file(tmp_path: Path) -> None:
    grid = load_grid(scenario_sweep(tmp_path))
    out = tmp_path / "r.csv"
    run_sweep(grid, out, scheduler="local")
    lines = out.read_bytes().split(b"\n")
    out.write_bytes(b"\n".join(lines[:3]) + b"\n")  # stopped after two rows
    orks = tmp_path / "ork_boyz.toml"
    orks.write_text(orks.read_text().replace("save = 6", "save = 2"))
    again = run_sweep(load_grid(tmp_path / "grid.toml"), out, scheduler="local")
    assert (again.resumed, again.computed) == (0, 4)
    fresh = tmp_path / "fresh.csv"
    run_sweep(load_grid(tmp_path / "grid.toml"), fresh, scheduler="local")
    assert out.read_bytes() == fresh.read_bytes()
    # with 2+ saves the Orks keep more models after one turn than the 6+ Orks did
    old, new = lines[1].decode().split(","), cells(out)[1]
    assert old[0] == new[0] == "1" and F(new[1]) > F(old[1])
    third = run_sweep(load_grid(tmp_path / "grid.toml"), out, scheduler="local")
    assert (third.resumed, third.computed) == (4, 0) and out.read_bytes() == fresh.read_bytes()


def test_a_resumed_row_is_never_the_answer_to_a_changed_base(tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    run_sweep(pool_grid(tmp_path, extra='[base.params]\nhit = "4+"', vary="n = [1, 2, 3]"), out, scheduler="local")
    assert cells(out)[1] == ["1", "1/2", "0.5", "0/1", "0.0"]
    grid = pool_grid(tmp_path, extra='[base.params]\nhit = "2+"', vary="n = [1, 2, 3]")
    again = run_sweep(grid, out, scheduler="local")
    assert (again.resumed, again.computed) == (0, 3)
    assert [r[:2] + r[3:4] for r in cells(out)[1:]] == [["1", "5/6", "0/1"], ["2", "5/3", "25/36"],
                                                        ["3", "5/2", "25/27"]]
