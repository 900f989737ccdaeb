"""Charts with matplotlib (imported when a chart is drawn): one distribution,
several on one chart, each stage of a run, and charts written to files."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..core.errors import InputError
from .rows import MAX_ROWS, display_key, is_ordered, outcome_label, table_rows


def _plt() -> Any:
    """matplotlib.pyplot, or an InputError saying how to install it."""
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        raise InputError(
            "plotting needs matplotlib, which is not installed: "
            "pip install 'exactodds[plot]' (or 'exactodds[notebook]' for Jupyter)"
        ) from None
    return plt


def _label_ticks(ax: Any, xs: list, names: list[str]) -> None:
    """A tick per bar named by its outcome, slanted when the names are long."""
    longest = max(map(len, names))
    ax.set_xticks(xs, names, rotation=30 if longest > 3 else 0, ha="right" if longest > 3 else "center",
                  fontsize=8 if longest > 12 else None)


def _integer_ticks(ax: Any, xs: list, outcomes: list) -> None:
    """A tick under each bar for few integer outcomes (12 at most), else whole-number ticks."""
    if len(outcomes) <= 12:
        ax.set_xticks(xs, [str(x) for x in outcomes])
    else:
        from matplotlib.ticker import MaxNLocator

        ax.xaxis.set_major_locator(MaxNLocator(integer=True))


def plot_dist(dist: Any, ax: Any = None, at_least: bool = False, title: str | None = None,
              **bar_kwargs: Any) -> Any:
    """Bar chart of P(X = x), or with ``at_least=True`` of P(X >= x); returns the Axes.

    Integer outcomes are placed at their values (gaps show); other outcomes
    are labelled bars in support order. ``bar_kwargs`` go to ``ax.bar``.
    """
    plt = _plt()
    ordered = is_ordered(dist)
    if at_least and not ordered:
        raise InputError("at_least=True needs numeric outcomes (P(X >= x) needs an order); "
                         "plot a numeric marginal, e.g. dist.marginal('field').plot(at_least=True)")
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 3.2))
    items = dist.items()
    if ordered:
        xs = [float(x) for x, _ in items]
        step = min((b - a for a, b in zip(xs, xs[1:])), default=1.0)
        bar_kwargs.setdefault("width", 0.8 * step)
    else:
        xs = list(range(len(items)))
        _label_ticks(ax, xs, [outcome_label(x) for x, _ in items])
    if at_least:
        ys = [float(t[3] or 0) for t in table_rows(dist)]
        ax.set_ylabel("P(at least x)")
    else:
        ys = [float(p) for _, p in items]
        ax.set_ylabel("probability")
    bar_kwargs.setdefault("color", "#4c78a8")
    ax.bar(xs, ys, **bar_kwargs)
    if ordered and all(isinstance(x, int) for x in dist.support()):
        _integer_ticks(ax, xs, dist.support())
    ax.set_ylim(0, max(ys) * 1.08 if max(ys) > 0 else 1)
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    if title:
        ax.set_title(title)
    return ax


PLOT_SUFFIXES = ("png", "svg", "pdf")
"""File types :func:`save_figure` writes (by the file name's suffix)."""

PLOT_OUTCOMES = MAX_ROWS
"""Most bars per series on a chart of composite outcomes: the most probable
ones are drawn, and the x label says how many less likely ones are left out."""

_SERIES_COLOURS = ("#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2", "#b279a2", "#eeca3b", "#9d755d")


def _union(dists: list) -> list:
    """Every outcome of any of ``dists``, in display order."""
    seen: dict = {}
    for d in dists:
        for x in d.support():
            seen.setdefault(x, None)
    return sorted(seen, key=display_key)


def _shown_outcomes(dists: list, ordered: bool) -> tuple[list, int]:
    """``(outcomes to draw, how many are left out)``: every outcome of any of
    ``dists`` in display order, or for composite ones beyond
    :data:`PLOT_OUTCOMES` the most probable (by their largest probability in
    any series). O(outcomes x series + outcomes log outcomes)."""
    outcomes = _union(dists)
    if ordered or len(outcomes) <= PLOT_OUTCOMES:
        return outcomes, 0
    top = {x: max(d.pmf(x) for d in dists) for x in outcomes}
    kept = set(sorted(outcomes, key=lambda x: -top[x])[:PLOT_OUTCOMES])
    return [x for x in outcomes if x in kept], len(outcomes) - len(kept)


def _positions(outcomes: list, ordered: bool) -> tuple[list[float], float]:
    """``(x of each outcome, smallest step between two)``: numbers at their
    values, composite outcomes at 0, 1, 2..."""
    if ordered:
        xs = [float(x) for x in outcomes]
        return xs, min((b - a for a, b in zip(xs, xs[1:])), default=1.0)
    return [float(i) for i in range(len(outcomes))], 1.0


def _at_least_series(dist: Any, outcomes: list) -> list[float]:
    """P(X >= x) at each of ``outcomes`` (sorted), including those ``dist``
    lacks: the tail of its next outcome above. O(outcomes)."""
    tails = {x: t[3] for x, t in zip(dist.support(), table_rows(dist)) if t[3] is not None}
    ys, above = [], Fraction(0)
    for x in reversed(outcomes):
        above = tails.get(x, above)
        ys.append(float(above))
    return ys[::-1]


def _draw_series(ax: Any, xs: list[float], step: float, series: list[list[float]], labels: list[str] | None,
                 lines: bool) -> None:
    """Each series as lines with a marker per outcome, or as bars side by side."""
    import textwrap

    n = len(series)
    for i, (ys, colour) in enumerate(zip(series, _SERIES_COLOURS * (n // len(_SERIES_COLOURS) + 1))):
        label = None if labels is None else textwrap.fill(labels[i], 40, break_on_hyphens=False, break_long_words=False)
        if lines:
            ax.plot(xs, ys, marker="o", ms=4, lw=1.4, color=colour, label=label)
        else:
            width = 0.8 * step / n
            ax.bar([x + (i - (n - 1) / 2) * width for x in xs], ys, width=width, color=colour, label=label)


def _decorate(ax: Any, *, top_y: float, at_least: bool, xlabel: str, title: str | None, legend: bool) -> None:
    """The y range from 0, axis labels, grid, open top and right sides, the
    legend outside the plot (right of it) and the title."""
    import textwrap

    ax.set_ylim(0, 1.05 if at_least else (top_y * 1.1 if top_y > 0 else 1))
    ax.set_ylabel("P(at least x)" if at_least else "probability")
    ax.set_xlabel(xlabel)
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    if legend:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, fontsize=9)
    if title:
        ax.set_title(textwrap.fill(title, 80, break_on_hyphens=False, break_long_words=False), fontsize=10)


def plot_dists(dists: list, labels: list[str] | None = None, ax: Any = None, at_least: bool = False,
               title: str | None = None, xlabel: str | None = None) -> Any:
    """Several distributions on one chart (one alone is fine); returns the Axes.

    P(X = x) as bars side by side per outcome, or with ``at_least`` P(X >= x)
    (numeric outcomes only): bars for one distribution, lines with a marker
    per outcome for several. Integer outcomes sit at their values with
    whole-number ticks (a tick per bar up to 12 outcomes); composite outcomes
    are labelled bars in display order (the :data:`PLOT_OUTCOMES` most
    probable when there are more). The y axis starts at 0; the legend (for
    several, from ``labels``) sits outside the plot, right of it, so it
    covers no bar. O(outcomes x series).
    """
    if not dists:
        raise InputError("nothing to plot: give at least one distribution")
    if ax is None:
        _, ax = _plt().subplots(figsize=(7, 3.6))
    ordered = all(is_ordered(d) for d in dists)
    if at_least and not ordered:
        raise InputError("an at-least plot (P(X >= x)) needs numeric outcomes; these are composite: "
                         "plot P(X = x) instead")
    outcomes, left_out = _shown_outcomes(dists, ordered)
    xs, step = _positions(outcomes, ordered)
    series = [_at_least_series(d, outcomes) if at_least else [float(d.pmf(x)) for x in outcomes] for d in dists]
    _draw_series(ax, xs, step, series, labels, lines=at_least and len(dists) > 1)
    if ordered and all(isinstance(x, int) for x in outcomes):
        _integer_ticks(ax, xs, outcomes)
    elif not ordered:
        _label_ticks(ax, xs, [outcome_label(x) for x in outcomes])
    what = xlabel or "outcome"
    if left_out:
        what += f" (the {len(outcomes)} most probable; {left_out} less likely not shown)"
    _decorate(ax, top_y=max(max(ys) for ys in series), at_least=at_least, xlabel=what, title=title,
              legend=labels is not None and len(dists) > 1)
    return ax


def save_figure(path: str, dists: list, labels: list[str] | None = None, at_least: bool = False,
                title: str | None = None, xlabel: str | None = None) -> None:
    """Draw :func:`plot_dists` into a file, PNG, SVG or PDF by its suffix
    (:data:`PLOT_SUFFIXES`), with matplotlib's Agg renderer and no pyplot (no
    window, no change to the session's backend). An :class:`InputError` when
    matplotlib is missing, the suffix is another, or the file cannot be written."""
    many = len(dists) > 1 and labels is not None
    fig = file_figure(path, (8.5 if many else 7, 3.8))
    ax = fig.add_subplot()
    plot_dists(dists, labels, ax=ax, at_least=at_least, title=title, xlabel=xlabel)
    write_figure(fig, path, bbox_inches="tight")


def file_figure(path: str, size: tuple[float, float], **kwargs: Any) -> Any:
    """A matplotlib ``Figure`` (no pyplot) to be written to ``path``: an
    :class:`InputError` first when the suffix is not one of :data:`PLOT_SUFFIXES`
    or matplotlib is missing. ``kwargs`` go to ``Figure``."""
    if _suffix(path) not in PLOT_SUFFIXES:
        raise InputError(f"{path}: a plot is written as {', '.join(PLOT_SUFFIXES)} (by the file name's suffix)")
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise InputError("plotting needs matplotlib, which is not installed: pip install 'exactodds[plot]'") from None
    return Figure(figsize=size, dpi=100, **kwargs)


def write_figure(fig: Any, path: str, **kwargs: Any) -> None:
    """Write ``fig`` to ``path`` in the format its suffix names (PNG at 120 dpi), or
    an :class:`InputError` saying why the file cannot be written."""
    suffix = _suffix(path)
    try:
        fig.savefig(path, format=suffix, dpi=120 if suffix == "png" else None, **kwargs)
    except OSError as e:
        raise InputError(f"{path}: cannot write the plot ({e.strerror or e})") from None


def _suffix(path: str) -> str:
    return str(path).rsplit(".", 1)[-1].lower() if "." in str(path) else ""


def plot_run(run: Any, key: Any = None, stages: list[str] | None = None, at_least: bool = False,
             **kwargs: Any) -> list:
    """One bar chart per stage, side by side (4 per row); returns the list of Axes.

    ``key`` maps each state to what to plot (e.g. a field of a named tuple);
    ``stages`` picks stage names (default: every stage, leaving out
    ``"start"`` when it is a single certain state).
    """
    plt = _plt()
    all_stages = run.stages if key is None else run.marginals(key)
    if stages is None:
        names = [n for n, d in all_stages.items() if not (n == "start" and len(d) == 1 and len(all_stages) > 1)]
    else:
        names = list(stages)
    unknown = [n for n in names if n not in all_stages]
    if unknown:
        raise InputError(f"no stage named {unknown[0]!r}; stages are {list(all_stages)}")
    if not names:
        raise InputError("plot_run needs at least one stage")
    ncols = min(len(names), 4)
    nrows = -(-len(names) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(3.3 * ncols, 2.9 * nrows), squeeze=False)
    flat = [ax for row in axes for ax in row]
    for ax, name in zip(flat, names):
        plot_dist(all_stages[name], ax=ax, title=name, at_least=at_least, **kwargs)
    for ax in flat[len(names):]:
        ax.set_visible(False)
    fig.tight_layout()
    return flat[: len(names)]
