"""Answers people can read at a glance: ``compare`` (CLI and Python), ``--plot``
and ``--plot-at-least``, ``40k6 wound``, ``--stage`` and ``--outcome failed-saves``
on 40K shooting, and the query line keeping zeros.

Expected values are worked out by hand (binomials written out below) or by
the brute-force enumerator over raw rolls (:mod:`tests.brute`).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from fractions import Fraction as F
from pathlib import Path
from typing import NamedTuple

import pytest
from click.testing import CliRunner

import exactodds
from exactodds import Dist, InputError, Query
from exactodds.cli import main

from .brute import enumerate_rolls

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
ORKS = str(EXAMPLES / "40k6" / "ork_boyz.toml")


def cli(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def refused(r, *words: str) -> None:  # type: ignore[no-untyped-def]
    """Exit 2, nothing on stdout, one line on stderr holding ``words``."""
    assert r.exit_code == 2, (r.stdout, r.stderr)
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), r.stderr
    for w in words:
        assert w in lines[0], lines[0]


# Binomial(3, p) tails by hand: P(>=0..3)
POOL3_4UP = [F(1), F(7, 8), F(1, 2), F(1, 8)]          # p = 1/2
POOL3_3UP = [F(1), F(26, 27), F(20, 27), F(8, 27)]     # p = 2/3: 1 - 1/27, 3*(4/9)(1/3) + 8/27, 8/27


# ------------------------------------------------------------------ compare
def test_compare_two_queries_json_exact() -> None:
    r = cli("compare", "--query", "pool 3 --hit 4+", "--query", "exactodds pool 3 --hit 3+", "--format", "json")
    assert r.exit_code == 0, r.stderr
    doc = json.loads(r.stdout)
    assert [q["query"] for q in doc["queries"]] == ["exactodds pool 3 --hit 4+", "exactodds pool 3 --hit 3+"]
    assert [q["mean"] for q in doc["queries"]] == ["3/2", "2/1"]
    assert doc["mean_difference"] == {"q2": "1/2"} and doc["mean_difference_float"] == {"q2": 0.5}
    assert doc["figure"] == "p_at_least"
    assert [row["outcome"] for row in doc["rows"]] == [0, 1, 2, 3]
    for row, a, b in zip(doc["rows"], POOL3_4UP, POOL3_3UP):
        assert row["p_at_least"] == {"q1": f"{a.numerator}/{a.denominator}", "q2": f"{b.numerator}/{b.denominator}"}
        assert F(row["difference"]["q2"]) == b - a
        assert row["difference_float"]["q2"] == pytest.approx(float(b - a))
    assert doc["rows"][1]["difference"]["q2"] == "19/216"  # 26/27 - 7/8


def test_compare_table_for_people() -> None:
    r = cli("compare", "--query", "pool 3 --hit 4+", "--query", "pool 3 --hit 3+")
    assert r.exit_code == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[:2] == ["q1: exactodds pool 3 --hit 4+", "q2: exactodds pool 3 --hit 3+"]
    assert "  q2 - q1  +1/2  ≈ +0.5000" in lines
    row1 = next(line for line in lines if line.lstrip().startswith("1 "))
    assert row1.split() == ["1", "7/8", "0.8750", "26/27", "0.9630", "+19/216", "+0.08796"]


def test_compare_csv_and_query_files_and_union_of_outcomes(tmp_path: Path) -> None:
    q1 = tmp_path / "a.toml"
    q1.write_text('system = "pool"\n[params]\nn = 1\nhit = "4+"\n')
    r = cli("compare", str(q1), "--query", "pool 2 --hit 4+", "--format", "csv")
    assert r.exit_code == 0, r.stderr
    rows = r.stdout.splitlines()
    head = rows[0].split(",")
    assert head[:5] == ["outcome", "p_at_least.q1", "p_at_least.q1_float", "p_at_least.q2", "p_at_least.q2_float"]
    assert "difference.q2" in head and "mean.q1" in head and "mean_difference.q2" in head
    cells = [dict(zip(head, row.split(","))) for row in rows[1:]]
    # one die has no outcome 2: P(>= 2) is 0 for it; two dice: 1/4
    assert [c["outcome"] for c in cells] == ["0", "1", "2"]
    assert [c["p_at_least.q1"] for c in cells] == ["1/1", "1/2", "0/1"]
    assert [c["p_at_least.q2"] for c in cells] == ["1/1", "3/4", "1/4"]
    assert [c["difference.q2"] for c in cells] == ["0/1", "1/4", "1/4"]
    assert {c["mean_difference.q2"] for c in cells} == {"1/2"}


def test_compare_three_queries_differences_from_the_first() -> None:
    r = cli("compare", "--query", "pool 1 --hit 4+", "--query", "pool 1 --hit 2+", "--query", "pool 1 --hit 6+",
            "--format", "json")
    doc = json.loads(r.stdout)
    assert doc["mean_difference"] == {"q2": "1/3", "q3": "-1/3"}  # 5/6 - 1/2, 1/6 - 1/2
    assert doc["rows"][1]["difference"] == {"q2": "1/3", "q3": "-1/3"}


def test_compare_composite_outcomes_p_outcome_no_tails() -> None:
    args = ["--target-def", "4", "--engaged-def", "3", "--range-difficulty", "4"]
    r = cli("compare", "--query", " ".join(["hd shoot --dice 1", *args]),
            "--query", " ".join(["hd shoot --dice 2", *args]), "--format", "json")
    assert r.exit_code == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["figure"] == "p" and "p_at_least" not in doc["rows"][0]
    for label in ("q1", "q2"):
        assert sum(F(row["p"][label]) for row in doc["rows"]) == 1
    for row in doc["rows"]:
        assert F(row["difference"]["q2"]) == F(row["p"]["q2"]) - F(row["p"]["q1"])
    table = cli("compare", "--query", " ".join(["hd shoot --dice 1", *args]),
                "--query", " ".join(["hd shoot --dice 2", *args])).stdout
    assert "P(outcome):" in table and "P(outcome >= k)" not in table


def test_compare_refuses_bad_input() -> None:
    refused(cli("compare", "--query", "pool 3 --hit 4+"), "at least two queries")
    refused(cli("compare", "--query", "pool 3 --hit 4+", "--query", "hd shoot --dice 1 --target-def 4 "
                "--range-difficulty 4"), "numeric", "composite")
    refused(cli("compare", "--query", "pool 3 --hit 9+", "--query", "pool 1"), "--hit", "2+ to 6+")
    refused(cli("compare", "--query", "pool 3 --hit '4+", "--query", "pool 1"), "--query", "quot")
    refused(cli("compare", "--query", "pool 1", "--query", "pool 2", "--plot-at-least"), "--plot-at-least", "--plot")
    refused(cli("compare", "--query", "pool 1 --hit 4+ --format=json", "--query", "pool 2 --hit 4+"),
            "--format is not part of a query")


class Pair(NamedTuple):
    side: str
    hits: int


def test_python_compare_of_queries_answers_dists_and_files(tmp_path: Path) -> None:
    path = tmp_path / "q.toml"
    path.write_text('system = "pool"\n[params]\nn = 3\nhit = "3+"\n')
    a = Query("pool", None, {"n": 3, "hit": "4+"})
    for second in (path, str(path), Query.from_toml(path), Query.from_toml(path).answer()):
        c = exactodds.compare(a, second)
        assert [c.value(1, k) for k in range(4)] == POOL3_3UP
        assert [c.difference(1, k) for k in range(4)] == [b - x for x, b in zip(POOL3_4UP, POOL3_3UP)]
    d = exactodds.compare(Dist.binomial(2, F(1, 2)), a, labels=["two", "three"])
    assert d.labels == ["two", "three"] and d.outcomes == [0, 1, 2, 3]
    assert d.value(0, 3) == 0 and d.value(0, 2) == F(1, 4) and d.mean_difference(1) == F(1, 2)
    df = d.to_pandas()
    assert list(df["p_at_least.two"]) == [1, F(3, 4), F(1, 4), 0]
    assert list(df["difference.three"]) == [0, F(1, 8), F(1, 4), F(1, 8)]
    html = d._repr_html_()
    assert "exactodds-compare" in html and "3/4" in html
    with pytest.raises(InputError, match="distinct label"):
        exactodds.compare(a, a, labels=["x", "x"])
    # composite outcomes: P(outcome) over the union
    x = Dist({Pair("a", 1): F(1, 3), Pair("b", 0): F(2, 3)})
    y = Dist({Pair("a", 1): F(1, 2), Pair("c", 2): F(1, 2)})
    c = exactodds.compare(x, y)
    assert c.figure == "p" and set(c.outcomes) == {Pair("a", 1), Pair("b", 0), Pair("c", 2)}
    assert c.difference(1, Pair("a", 1)) == F(1, 6) and c.difference(1, Pair("b", 0)) == F(-2, 3)
    assert list(c.to_pandas().columns[:2]) == ["side", "hits"]


# -------------------------------------------------------------------- plots
def _distinct_colours(path: Path) -> int:
    import matplotlib.image as mpimg

    pixels = mpimg.imread(str(path))
    return len({tuple(p) for row in pixels[::4] for p in row[::4]})


def test_plot_png_from_a_query_command(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    png = tmp_path / "hits.png"
    r = cli("pool", "10", "--hit", "4+", "--plot", str(png), "--plot-at-least")
    assert r.exit_code == 0, r.stderr
    assert "mean: 5" in r.stdout  # the answer is still printed
    assert png.stat().st_size > 5_000
    assert _distinct_colours(png) > 1


def test_plot_svg_from_run_and_compare(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    svg = tmp_path / "bs8.svg"
    r = cli("run", str(EXAMPLES / "validation" / "bs8_query.toml"), "--plot", str(svg))
    assert r.exit_code == 0 and "11/12" in r.stdout
    assert svg.read_text().lstrip().startswith("<?xml")
    both = tmp_path / "both.png"
    r = cli("compare", "--query", "pool 10 --hit 4+", "--query", "pool 10 --hit 3+", "--plot", str(both))
    assert r.exit_code == 0 and both.stat().st_size > 5_000
    r = cli("hd", "shoot", "--dice", "2", "--target-def", "4", "--engaged-def", "3", "--range-difficulty", "4",
            "--plot", str(tmp_path / "hd.png"))
    assert r.exit_code == 0 and (tmp_path / "hd.png").exists()


def test_plot_axes_read_well() -> None:
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    from exactodds.render import plot_dists

    ax = Figure().add_subplot()
    plot_dists([Dist.binomial(3, F(1, 2)), Dist.binomial(4, F(1, 3))], ["a", "b"], ax=ax)
    assert ax.get_ylim()[0] == 0
    assert [t.get_text() for t in ax.get_xticklabels()] == ["0", "1", "2", "3", "4"]  # whole numbers
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["a", "b"]
    assert ax.get_legend().get_bbox_to_anchor().x0 > ax.get_window_extent().x1 - 1  # right of the bars
    ax = Figure().add_subplot()
    plot_dists([Dist.binomial(30, F(1, 2))], ax=ax)
    assert all(float(t).is_integer() for t in ax.get_xticks())


def test_at_least_plots_draw_p_of_at_least_x() -> None:
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    from exactodds.render import plot_dists

    d6 = Dist.uniform(range(1, 7))
    ax = Figure().add_subplot()
    plot_dists([d6, d6 + d6], ["one", "two"], ax=ax, at_least=True)  # several: a line each
    assert ax.get_ylabel() == "P(at least x)"
    assert list(ax.lines[0].get_ydata()) == [1, 5 / 6, 4 / 6, 3 / 6, 2 / 6, 1 / 6] + [0] * 6
    assert list(ax.lines[1].get_ydata())[:3] == [1, 1, 35 / 36]  # P(2D6 >= 3) = 35/36
    ax = Figure().add_subplot()
    exactodds.ask("pool", None, n=2, hit="4+").plot(ax=ax, at_least=True)  # one: bars
    assert [b.get_height() for b in ax.patches] == [1, 3 / 4, 1 / 4]
    with pytest.raises(InputError, match="at-least plot"):
        plot_dists([Dist.uniform(["a", "b"])], at_least=True)


def test_plot_refusals(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    refused(cli("pool", "3", "--hit", "4+", "--plot", str(tmp_path / "x.jpg")), "--plot", ".png, .svg or .pdf")
    refused(cli("pool", "3", "--hit", "4+", "--plot-at-least"), "--plot-at-least", "--plot")
    refused(cli("hd", "shoot", "--dice", "2", "--target-def", "4", "--range-difficulty", "4", "--plot",
                str(tmp_path / "hd.png"), "--plot-at-least"), "--plot-at-least", "numeric")
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    refused(cli("pool", "3", "--hit", "4+", "--plot", str(tmp_path / "x.png")), "matplotlib", "exactodds[plot]")


def test_a_query_imports_neither_compare_nor_matplotlib() -> None:
    code = ("import sys\nfrom exactodds.cli import main\n"
            "try:\n    main(['pool', '3', '--hit', '4+'])\nexcept SystemExit:\n    pass\n"
            "print([m for m in sys.modules if m in ('matplotlib', 'exactodds.comparison', 'exactodds.cli.compare')],"
            " file=sys.stderr)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stderr.strip().splitlines()[-1] == "[]", out.stderr


# --------------------------------------------------------------------- 40k6
WOUND_ROLL = {2: 2, 1: 3, 0: 4, -1: 5, -2: 6, -3: 6}  # S - T (at most +2) -> roll needed; below -3 none


@pytest.mark.parametrize("hits", [0, 1, 3])
def test_40k6_wound_against_brute_force(hits: int) -> None:
    for s in range(1, 11):
        for t in range(1, 11):
            need = WOUND_ROLL.get(min(s - t, 2))
            expected = enumerate_rolls(hits, lambda roll: sum(need is not None and d >= need for d in roll))
            got = exactodds.ask("40k6", "wound", strength=s, toughness=t, hits=hits).dist
            assert dict(got.to_fractions()) == expected, (s, t, hits)


def test_40k6_wound_cli() -> None:
    r = cli("40k6", "wound", "--strength", "5", "--toughness", "4", "--hits", "2", "--format", "json")
    doc = json.loads(r.stdout)
    assert doc["query"]["wound_on"] == "3+"
    assert [o["p"] for o in doc["outcomes"]] == ["1/9", "4/9", "4/9"]  # Binomial(2, 2/3)


def shoot(*args: str, cmd: str = "shoot") -> dict:
    r = cli("40k6", cmd, *args, "--format", "json")
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout)


def test_40k6_stage_hits_and_wounds() -> None:
    base = ["--bs", "3", "--strength", "4", "--target", ORKS]  # BS 3 hits on 4+
    hits = shoot("--shots", "3", *base, "--stage", "hits")
    assert [o["p"] for o in hits["outcomes"]] == ["1/8", "3/8", "3/8", "1/8"]  # Binomial(3, 1/2)
    assert hits["query"]["stage"] == "hits" and hits["query"]["outcome"] is None
    wounds = shoot("--shots", "2", *base, "--stage", "wounds")
    assert [o["p"] for o in wounds["outcomes"]] == ["9/16", "3/8", "1/16"]  # Binomial(2, 1/2 x 1/2)
    unsaved = shoot("--shots", "1", *base, "--stage", "unsaved-wounds")  # 6+ save: 1/4 x 5/6
    assert [o["p"] for o in unsaved["outcomes"]] == ["19/24", "5/24"]
    snap = shoot("--shots", "1", *base, "--stage", "hits", cmd="overwatch")  # snap shots hit on 6s
    assert [o["p"] for o in snap["outcomes"]] == ["5/6", "1/6"]


def test_40k6_bad_stage_lists_the_stages() -> None:
    r = cli("40k6", "shoot", "--shots", "3", "--bs", "4", "--strength", "4", "--target", ORKS, "--stage", "hitz")
    refused(r, "--stage 'hitz'", "hits, wounds, unsaved wounds, casualties")


def test_40k6_failed_saves_are_not_capped(tmp_path: Path) -> None:
    unit = tmp_path / "lone.toml"
    unit.write_text('name = "Lone"\n[[models]]\nname = "Hero"\ntoughness = 4\nwounds = 1\nsave = 4\n')
    base = ["--shots", "2", "--bs", "3", "--strength", "4", "--target", str(unit)]
    # each shot: hit 1/2, wound 1/2, save failed 1/2 -> 1/8; Binomial(2, 1/8)
    failed = shoot(*base, "--outcome", "failed-saves")
    assert [o["p"] for o in failed["outcomes"]] == ["49/64", "7/32", "1/64"]
    capped = shoot(*base, "--outcome", "unsaved-wounds")  # one model: at most one unsaved wound
    assert [o["p"] for o in capped["outcomes"]] == ["49/64", "15/64"]
    mixed = cli("40k6", "shoot", "--shots", "2", "--bs", "4", "--strength", "4", "--target",
                str(EXAMPLES / "40k6" / "guard_squad_in_ruins.toml"), "--outcome", "failed-saves")
    refused(mixed, "--outcome failed-saves", "--outcome unsaved-wounds")


def test_40k6_help_says_what_it_accepts() -> None:
    text = cli("40k6", "shoot", "--help").stdout
    flat = " ".join(text.split())
    assert "'-'" not in flat and "AP 1-6 (default: no AP)" in flat
    assert "capped at what the unit can absorb" in flat and "failed saves" in flat
    assert "--stage" in flat and "--plot" in flat and "--plot-at-least" in flat


def test_query_line_keeps_zero() -> None:
    r = cli("pool", "0", "--hit", "4+")
    assert r.stdout.splitlines()[0] == "query: n=0, hit=4+, sides=6"
    assert Counter(r.stdout.splitlines()[-1].split()) == Counter(["mean:", "0"])


def test_a_units_comparison_names_its_axis_by_what_it_counts(tmp_path: Path) -> None:
    """compare --unit: the x axis is the unit's count ("Ork Boyz left"), not "outcome"."""
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt

    from exactodds.comparison import compare

    units = Path(__file__).resolve().parent.parent / "examples" / "40k6"
    fights = [Query("40k6", "fight", {"attacker": str(units / "assault_squad.toml"),
                                      "defender": str(units / "ork_boyz.toml"), "attacker_charged": charged})
              for charged in (True, False)]
    assert compare(*fights, units=["defender", "defender"]).plot().get_xlabel() == "Ork Boyz left"
    both = compare(*fights, units=["defender", "attacker"])
    assert both.plot().get_xlabel() == "Ork Boyz left / Assault Squad left"
    assert compare(Query("pool", None, {"n": 3, "hit": "4+"}), Query("pool", None, {"n": 3, "hit": "3+"})
                   ).plot().get_xlabel() == "outcome"
    path = tmp_path / "units.png"
    out = CliRunner().invoke(main, ["compare", "--query", f"40k6 fight --attacker {units / 'assault_squad.toml'} "
                                    f"--defender {units / 'ork_boyz.toml'} --unit defender", "--query",
                                    f"40k6 fight --attacker {units / 'assault_squad.toml'} --defender "
                                    f"{units / 'ork_boyz.toml'} --attacker-charged --unit defender",
                                    "--plot", str(path)])
    assert out.exit_code == 0, out.output
    assert path.stat().st_size > 5_000
    plt.close("all")
