"""Rich display: HTML and LaTeX tables, short reprs, plots and pandas, with exact contents."""

from __future__ import annotations

import re
import subprocess
import sys
from fractions import Fraction as F
from typing import NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds import Dist, InputError, Step, d6, successes
from exactodds.render import (
    MAX_ROWS,
    Gap,
    decimal,
    dist_html,
    dist_latex,
    dist_repr,
    fraction_html,
    plot_dist,
    shown_rows,
)


class State(NamedTuple):
    models: int
    wounds: int


def two_stage_run(shots: int = 6):
    hit = Step.kernel("hits", lambda n: Dist.binomial(n, F(2, 3)))
    wound = Step.kernel("wounds", lambda h: Dist.binomial(h, F(1, 2)))
    return (hit >> wound).run(shots)


def body_rows(html: str) -> list[list[str]]:
    """The text of each body cell, row by row."""
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [[re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]
            for row in re.findall(r"<tr>(.*?)</tr>", body)]


# ------------------------------------------------------------------ HTML
def test_html_table_of_two_dice_has_every_column_exactly() -> None:
    html = (d6 + d6)._repr_html_()
    for head in ("outcome", "probability", "decimal", "at least", "at most"):
        assert f">{head}</th>" in html
    rows = body_rows(html)
    assert len(rows) == 11
    # outcome, fraction, decimal, bar, P(>= x), P(<= x)
    assert rows[0] == ["2", "1/36", "0.02778", "", "1", "0.02778"]
    assert rows[6] == ["8", "5/36", "0.1389", "", "0.4167", "0.7222"]
    assert rows[-1] == ["12", "1/36", "0.02778", "", "0.02778", "1"]
    assert "11 outcomes &middot; mean 7 &middot; sd &asymp; 2.4152" in html


def test_long_support_shows_the_likely_window_and_counts_the_rest() -> None:
    html = Dist.binomial(100, F(1, 2))._repr_html_()
    rows = body_rows(html)
    assert len(rows) == MAX_ROWS + 2
    assert rows[0][0].startswith("… 30 more outcomes") or "30 more outcomes" in rows[0][0]
    assert [r[0] for r in rows[1:-1]] == [str(k) for k in range(30, 70)]
    assert "31 more outcomes" in rows[-1][0]


@settings(max_examples=40, deadline=None)
@given(st.dictionaries(st.integers(-50, 50) | st.text("ab", max_size=3), st.integers(1, 9),
                       min_size=1, max_size=60),
       st.integers(1, 12))
def test_truncation_keeps_every_outcome_and_all_probability(weights: dict, max_rows: int) -> None:
    dist = Dist.from_weights(weights)
    rows = shown_rows(dist, max_rows)
    shown = [r for r in rows if not isinstance(r, Gap)]
    gaps = [r for r in rows if isinstance(r, Gap)]
    assert len(shown) == min(len(dist), max_rows)
    assert len(shown) + sum(g.count for g in gaps) == len(dist)
    assert sum(p for _, p in shown) + sum(g.p for g in gaps) == 1
    assert all(dist.pmf(x) == p for x, p in shown)


def test_numeric_window_holds_the_most_probability() -> None:
    dist = Dist.binomial(30, F(5, 6))
    rows = shown_rows(dist, 8)
    window = [x for r in rows if not isinstance(r, Gap) for x in [r[0]]]
    best = max(sum(dist.pmf(k) for k in range(a, a + 8)) for a in range(0, 31 - 7))
    assert sum(dist.pmf(x) for x in window) == best


def test_named_tuple_outcomes_get_one_column_per_field() -> None:
    dist = Dist.from_weights({State(2, 1): 3, State(1, 2): 5, State(0, 0): 1})
    html = dist._repr_html_()
    assert ">models</th>" in html and ">wounds</th>" in html and "at least" not in html
    assert body_rows(html)[1][:3] == ["1", "2", "5/9"]


def test_text_outcomes_are_escaped() -> None:
    html = Dist.uniform(["<b>x</b>", "a&b"])._repr_html_()
    assert "&lt;b&gt;x&lt;/b&gt;" in html and "a&amp;b" in html and "<b>x</b>" not in html


def test_long_fractions_are_shortened_with_the_exact_value_kept() -> None:
    p = Dist.binomial(40, F(8, 9)).pmf(36)
    text, short = fraction_html(p)
    assert short and f'title="{p}"' in text and "&hellip;" in text
    assert fraction_html(F(5, 36)) == ("5/36", False)
    assert "hover for the exact value" in Dist.binomial(40, F(8, 9))._repr_html_()


@pytest.mark.parametrize(("value", "text"), [
    (F(1, 6**10), "1.654e-08"),
    (F(1, 2), "0.5000"),
    (F(1, 6), "0.1667"),
    (F(1, 36), "0.02778"),
    (F(1, 8), "0.1250"),
    (F(2, 3), "0.6667"),
    (F(1, 10**4), "0.0001000"),  # 4 significant digits down to 1e-4 ...
    (F(999, 10**7), "9.990e-05"),  # ... and scientific notation below it
    (F(12, 10**5), "0.0001200"),
    (F(1, 2**100), "7.889e-31"),
    (F(1, 10**400), "1.000e-400"),  # far below the smallest float: computed exactly
    (F(2, 10**400), "2.000e-400"),
    (F(99999, 100000), "1 - 1.000e-05"),  # never reads 1 for a chance below 1
    (1 - F(1, 10**30), "1 - 1.000e-30"),
    (F(99994, 100000), "0.9999"),
    (F(25, 2), "12.50"),
    (F(-3, 2), "-1.500"),
    (F(7), "7"),
    (F(0), "0"),
    (0, "0"),
    (1, "1"),
    (0.25, "0.2500"),
    (F(99996, 10**9), "1.000e-04"),
    (F(999996, 10**11), "1.000e-05"),  # rounding up the mantissa moves the exponent
])
def test_decimals_have_4_significant_digits(value: F, text: str) -> None:
    assert decimal(value) == text


@given(st.integers(1, 10 ** 700), st.integers(1, 10 ** 700))
@settings(max_examples=300, deadline=None)
def test_the_scientific_form_is_exact(num: int, den: int) -> None:
    """p = m x 10^e with 1 <= m < 10, for any size of numerator and denominator."""
    from exactodds.render.numbers import _scientific

    p = F(num, den)
    m, e = _scientific(p, 4)
    assert 1 <= m < 10 and m * F(10) ** e == p


@pytest.mark.parametrize("p, m, e", [(F(1), F(1), 0), (F(10), F(1), 1), (F(999, 100), F(999, 100), 0),
                                     (F(1, 10), F(1), -1), (F(99, 1000), F(99, 10), -2), (F(10 ** 50 + 1, 10 ** 3), F(10 ** 50 + 1, 10 ** 50), 47)])
def test_the_scientific_form_at_powers_of_ten(p: F, m: F, e: int) -> None:
    from exactodds.render.numbers import _scientific

    assert _scientific(p, 4) == (m, e)


def test_tiny_probabilities_do_not_read_as_zero() -> None:
    for k in range(6, 2000, 37):  # 7^-6 ~ 8.5e-06 down to 7^-1995, far below the smallest float
        text = decimal(F(1, 7**k))
        assert re.fullmatch(r"[1-9]\.\d{3}e-\d{2,4}", text), text


def test_run_html_shows_each_stage_in_order() -> None:
    html = two_stage_run()._repr_html_()
    assert "Pipeline run from <b>6</b>: hits &rarr; wounds" in html  # a certain start is named, not tabled
    assert html.index("<b>hits</b>") < html.index("<b>wounds</b>")
    assert html.count("<table") == 2
    uncertain = (Step.kernel("hits", lambda n: Dist.binomial(n, F(1, 2))) >> Step.map("twice", lambda h: 2 * h)).run(d6)
    html = uncertain._repr_html_()
    assert "Pipeline run: start &rarr; hits &rarr; twice" in html and html.count("<table") == 3


# ------------------------------------------------------- LaTeX and repr
def test_latex_lists_exact_fractions() -> None:
    latex = dist_latex(d6)
    assert latex.startswith(r"$\displaystyle \begin{array}")
    assert latex.count(r"\dfrac{1}{6}") == 6
    assert d6._repr_latex_() == latex
    long = dist_latex(Dist.binomial(100, F(1, 2)))
    assert r"\vdots" in long and "30 more" in long
    assert r"\text{a\_b}" in dist_latex(Dist.constant("a_b"))


def test_reprs_are_short_and_exact() -> None:
    assert repr(d6 + d6) == dist_repr(d6 + d6)
    assert repr(d6 + d6) == "Dist(11 outcomes 2..12, mean 7: {..., 4: 1/12, 5: 1/9, 6: 5/36, 7: 1/6, 8: 5/36, 9: 1/9, ...})"
    assert repr(d6) == "Dist(6 outcomes 1..6, mean 7/2: {1: 1/6, 2: 1/6, 3: 1/6, 4: 1/6, 5: 1/6, 6: 1/6})"
    assert repr(Dist.constant("x")) == "Dist(1 outcome: {'x': 1})"
    assert repr(two_stage_run()) == "Run(start[1] -> hits[7] -> wounds[7]; final: 7 outcomes 0..6, mean 2)"
    big = repr(Dist.binomial(1000, F(1, 2)))
    assert len(big) < 200 and "500: ~0.02523" in big


# ---------------------------------------------------------------- plots
@pytest.fixture
def plt():
    mpl = pytest.importorskip("matplotlib")
    mpl.use("Agg")
    import matplotlib.pyplot as plt

    yield plt
    plt.close("all")


def test_bar_heights_are_the_probabilities(plt) -> None:
    two = d6 + d6
    ax = two.plot()
    bars = ax.patches
    assert [b.get_x() + b.get_width() / 2 for b in bars] == pytest.approx(list(range(2, 13)))
    assert [b.get_height() for b in bars] == [float(p) for _, p in two.items()]
    ax = two.plot(at_least=True, title="2D6")
    assert [b.get_height() for b in ax.patches] == [float(two.at_least(x)) for x in range(2, 13)]
    assert ax.get_title() == "2D6" and ax.get_ylabel() == "P(at least x)"


def test_categorical_outcomes_are_labelled(plt) -> None:
    dist = Dist.from_weights({State(2, 1): 3, State(1, 2): 5})
    ax = dist.plot()
    assert [t.get_text() for t in ax.get_xticklabels()] == ["models=1, wounds=2", "models=2, wounds=1"]
    with pytest.raises(InputError, match="numeric outcomes"):
        dist.plot(at_least=True)


def test_run_plots_its_stages_side_by_side(plt) -> None:
    axes = two_stage_run().plot()  # a certain start is left out
    assert [ax.get_title() for ax in axes] == ["hits", "wounds"]
    assert [t.get_text() for t in axes[0].get_xticklabels()] == [str(k) for k in range(7)]
    axes = two_stage_run().plot(stages=["start", "hits", "wounds"])
    assert [ax.get_title() for ax in axes] == ["start", "hits", "wounds"]
    assert len({ax.figure for ax in axes}) == 1
    axes = two_stage_run().plot(stages=["wounds"], at_least=True)
    assert len(axes) == 1
    with pytest.raises(InputError, match="no stage named 'save'"):
        two_stage_run().plot(stages=["save"])


def test_missing_matplotlib_is_a_clear_error(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(InputError, match=r"pip install 'exactodds\[plot\]'"):
        plot_dist(d6)


# --------------------------------------------------------------- pandas
def test_to_pandas_keeps_exact_fractions() -> None:
    pytest.importorskip("pandas")
    df = (d6 + d6).to_pandas()
    assert list(df.columns) == ["outcome", "p", "p_float", "p_at_least", "p_at_most"]
    assert df["p"].tolist() == [p for _, p in (d6 + d6).items()]
    assert df["p_at_least"].iloc[6] == F(5, 12) and df["p_at_most"].iloc[-1] == 1
    states = Dist.from_weights({State(2, 1): 3, State(1, 2): 5}).to_pandas()
    assert list(states.columns) == ["models", "wounds", "p", "p_float"]
    assert states["p"].sum() == 1


def test_run_to_pandas_is_one_long_table() -> None:
    pytest.importorskip("pandas")
    run = two_stage_run()
    df = run.to_pandas()
    assert df["stage"].unique().tolist() == ["start", "hits", "wounds"]
    assert df[df.stage == "wounds"]["p"].tolist() == [p for _, p in run.final.items()]


def test_missing_pandas_is_a_clear_error(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(InputError, match="pip install"):
        d6.to_pandas()


def test_without_a_presenter_core_shows_one_plain_line(monkeypatch) -> None:
    from exactodds.core import present

    monkeypatch.setitem(present._state, "presenter", None)
    monkeypatch.setitem(present._state, "loader", None)
    assert repr(d6) == str(d6) == "Dist(6 outcomes)"
    assert repr(two_stage_run()) == "Run(start -> hits -> wounds)"
    for show in (d6._repr_html_, d6._repr_latex_, d6.plot, d6.to_pandas, two_stage_run().plot):
        with pytest.raises(InputError, match="needs the rendering layer: import exactodds.render"):
            show()


def test_the_top_package_installs_the_rendering_layer() -> None:
    from exactodds.core import present
    from exactodds.render import dist_html

    assert present.presenter().dist_html is dist_html
    assert d6._repr_html_() == dist_html(d6)


def test_display_and_symbolic_import_nothing_heavy() -> None:
    code = ("import sys, exactodds.render, exactodds.symbolic\n"
            "print([m for m in ('sympy', 'matplotlib', 'pandas') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_successes_table_matches_its_binomial() -> None:
    # the table is the distribution: every shown fraction is the exact pmf
    dist = successes(5, F(1, 2))
    assert [r[1] for r in body_rows(dist_html(dist))] == [str(p) for _, p in dist.items()]
