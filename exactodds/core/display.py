"""Rendering distributions for people: text, HTML (Jupyter), LaTeX, plots, pandas.

Only the standard library is imported at module level; sympy, matplotlib and
pandas are imported inside the functions that need them.
"""

from __future__ import annotations

import html
from fractions import Fraction
from typing import Any

MAX_ROWS = 40
"""Longest support shown in full; longer ones show the head and tail and a count."""


def outcome_label(x: Any) -> str:
    """A short human label for an outcome (named tuples as ``k=v`` pairs)."""
    if hasattr(x, "_asdict"):
        return ", ".join(f"{k}={v}" for k, v in x._asdict().items())
    if isinstance(x, tuple):
        return "(" + ", ".join(outcome_label(v) for v in x) + ")"
    return str(x)


def _is_ordered(dist: Any) -> bool:
    return all(isinstance(x, (int, Fraction)) and not isinstance(x, bool) for x in dist.support())


def table_rows(dist: Any) -> list[tuple[str, Fraction, float, Fraction | None, Fraction | None]]:
    """``(label, p, p_float, P(>= x), P(<= x))`` per outcome; the tails are None
    for outcomes without an order."""
    rows = []
    ordered = _is_ordered(dist)
    items = dist.items()
    below = Fraction(0)
    for x, p in items:
        below += p
        above = 1 - below + p
        rows.append((outcome_label(x), p, float(p), above if ordered else None, below if ordered else None))
    return rows


def _elide(rows: list) -> tuple[list, int]:
    if len(rows) <= MAX_ROWS:
        return rows, 0
    half = MAX_ROWS // 2
    return rows[:half] + [None] + rows[-half:], len(rows) - 2 * half


def dist_html(dist: Any) -> str:
    """An HTML table: outcome, exact fraction, decimal, P(at least), P(at most)."""
    rows, hidden = _elide(table_rows(dist))
    ordered = _is_ordered(dist)
    head = "<tr><th>outcome</th><th>probability</th><th>decimal</th>"
    head += "<th>P(&ge;)</th><th>P(&le;)</th></tr>" if ordered else "</tr>"
    body = []
    for r in rows:
        if r is None:
            body.append(f'<tr><td colspan="5"><i>&hellip; {hidden} more outcomes &hellip;</i></td></tr>')
            continue
        label, p, pf, ge, le = r
        cells = [html.escape(label), str(p), f"{pf:.6f}"]
        if ordered:
            cells += [f"{float(ge):.6f}", f"{float(le):.6f}"]
        body.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    n = len(dist)
    caption = f"<caption>Dist: {n} outcome{'s' if n != 1 else ''}"
    if ordered:
        caption += f", mean {dist.mean()} &asymp; {float(dist.mean()):.4f}"
    caption += "</caption>"
    return f'<table class="exactodds-dist">{caption}<thead>{head}</thead><tbody>{"".join(body)}</tbody></table>'


def dist_latex(dist: Any) -> str:
    """A LaTeX cases-style listing of the probabilities (via sympy)."""
    import sympy

    rows, hidden = _elide(dist.items())
    lines = []
    for r in rows:
        if r is None:
            lines.append(rf"\dots & \text{{{hidden} more}}")
            continue
        x, p = r
        lines.append(rf"{sympy.latex(sympy.Rational(p.numerator, p.denominator))} & \text{{{html.escape(outcome_label(x))}}}")
    return r"$P(X = x) = \begin{cases}" + r" \\ ".join(lines) + r"\end{cases}$"


def dist_text(dist: Any) -> str:
    """A plain-text table for terminals."""
    rows, hidden = _elide(table_rows(dist))
    ordered = _is_ordered(dist)
    out = []
    labels = [r[0] for r in rows if r] + ["outcome"]
    fracs = [str(r[1]) for r in rows if r] + ["probability"]
    w1 = max(map(len, labels))
    w2 = max(map(len, fracs))
    header = f"{'outcome':>{w1}}  {'probability':>{w2}}  {'decimal':>9}"
    if ordered:
        header += f"  {'P(>=)':>9}"
    out.append(header)
    for r in rows:
        if r is None:
            out.append(f"... {hidden} more outcomes ...")
            continue
        label, p, pf, ge, _ = r
        line = f"{label:>{w1}}  {str(p):>{w2}}  {pf:9.6f}"
        if ordered:
            line += f"  {float(ge):9.6f}"
        out.append(line)
    return "\n".join(out)


def _plt() -> Any:
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        from .errors import InputError

        raise InputError(
            "plotting needs matplotlib: pip install 'exactodds[plot]'"
        ) from None
    return plt


def plot_dist(dist: Any, ax: Any = None, survival: bool = False, title: str | None = None, **bar_kwargs: Any) -> Any:
    """Bar chart of P(X = x), or with ``survival=True`` a step plot of P(X >= x)."""
    plt = _plt()
    if ax is None:
        _, ax = plt.subplots()
    rows = table_rows(dist)
    labels = [r[0] for r in rows]
    xs = list(range(len(rows)))
    if survival and _is_ordered(dist):
        ax.step([x for x in dist.support()], [float(r[3]) for r in rows], where="mid")
        ax.set_ylabel("P(at least x)")
    else:
        ax.bar(xs, [r[2] for r in rows], **bar_kwargs)
        ax.set_xticks(xs, labels, rotation=45 if len(max(labels, key=len)) > 3 else 0)
        ax.set_ylabel("probability")
    if title:
        ax.set_title(title)
    return ax


def run_html(run: Any) -> str:
    """Each stage of a pipeline run as an HTML table, side by side."""
    cells = "".join(
        f'<td style="vertical-align:top"><b>{html.escape(name)}</b>{dist_html(d)}</td>'
        for name, d in run.stages.items()
    )
    return f"<table><tr>{cells}</tr></table>"


def plot_run(run: Any, key: Any = None, **kwargs: Any) -> Any:
    """One bar chart per stage, side by side; ``key`` maps each state to what to plot."""
    plt = _plt()
    stages = run.stages if key is None else run.marginals(key)
    fig, axes = plt.subplots(1, len(stages), figsize=(3.2 * len(stages), 3), squeeze=False)
    for ax, (name, d) in zip(axes[0], stages.items()):
        plot_dist(d, ax=ax, title=name, **kwargs)
    fig.tight_layout()
    return fig


def dist_to_pandas(dist: Any) -> Any:
    """A DataFrame with columns outcome, p (Fraction), p_float."""
    try:
        import pandas as pd
    except ImportError:
        from .errors import InputError

        raise InputError("to_pandas needs pandas: pip install 'exactodds[notebook]'") from None
    return pd.DataFrame(
        [{"outcome": x, "p": p, "p_float": float(p)} for x, p in dist.items()]
    )
