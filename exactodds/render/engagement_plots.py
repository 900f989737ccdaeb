"""Charts of engagements: one panel per unit (its marginal) and, for two units,
a heat map of their joint distribution (matplotlib, imported when drawn)."""

from __future__ import annotations

import textwrap
from typing import Any

from .plots import _plt, file_figure, plot_dists, write_figure


def draw_engagement(fig: Any, panels: list[tuple[str, Any, int | None]], pair: tuple[str, str, Any] | None = None,
                    at_least: bool = False, title: str | None = None) -> list:
    """Draw into ``fig``: a panel per ``(what it counts, marginal, size or None)``
    (the x axis named by what it counts, e.g. ``"Ork Boyz left"``, from 0 to the
    size), then with ``pair = (x label, y label, Dist of (x, y))`` a heat map of
    the joint chance of each pair. Returns the Axes. O(units x outcomes + pairs)."""
    n = len(panels) + (pair is not None)
    axes = fig.subplots(1, n, squeeze=False)[0]
    for ax, (what, dist, size) in zip(axes, panels):
        plot_dists([dist], ax=ax, at_least=at_least, xlabel=what)
        if size:  # the whole unit's range, so one certain count is one narrow bar
            top = max(size, max(dist.support()))
            step = -(-(top + 1) // 12)  # at most 12 ticks
            ax.set_xticks(range(0, top + 1, step), [str(k) for k in range(0, top + 1, step)])
            ax.set_xlim(-0.6, top + 0.6)
    if pair is not None:
        _heat_map(fig, axes[-1], *pair)
    if title:
        fig.suptitle(textwrap.fill(title, 40 * n, break_on_hyphens=False, break_long_words=False), fontsize=10)
    return list(axes)


def _heat_map(fig: Any, ax: Any, xlabel: str, ylabel: str, joint: Any) -> None:
    """P(x, y) as coloured cells, x and y at their values (whole numbers)."""
    xs = sorted({x for x, _ in joint.support()} | {0})  # from 0: the whole range of each count
    ys = sorted({y for _, y in joint.support()} | {0})
    x0, y0 = min(xs), min(ys)
    grid = [[0.0] * (max(xs) - x0 + 1) for _ in range(max(ys) - y0 + 1)]
    for (x, y), p in joint.items():
        grid[y - y0][x - x0] = float(p)
    image = ax.imshow(grid, origin="lower", aspect="auto", cmap="Blues", interpolation="nearest",
                      extent=(x0 - 0.5, max(xs) + 0.5, y0 - 0.5, max(ys) + 0.5))
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title("joint probability", fontsize=10)
    fig.colorbar(image, ax=ax, label="probability")


def plot_engagement(panels: list[tuple[str, Any, int | None]], pair: tuple[str, str, Any] | None = None,
                    at_least: bool = False, title: str | None = None) -> list:
    """:func:`draw_engagement` on a new pyplot figure (Jupyter); returns the Axes."""
    n = len(panels) + (pair is not None)
    fig = _plt().figure(figsize=(4.6 * n, 3.8), layout="constrained")
    return draw_engagement(fig, panels, pair, at_least, title)


def save_engagement(path: str, panels: list[tuple[str, Any, int | None]], pair: tuple[str, str, Any] | None = None,
                    at_least: bool = False, title: str | None = None) -> None:
    """:func:`draw_engagement` into a file (PNG, SVG or PDF by its suffix; the Agg
    renderer, no pyplot)."""
    n = len(panels) + (pair is not None)
    fig = file_figure(path, (4.6 * n, 3.8), layout="constrained")
    draw_engagement(fig, panels, pair, at_least, title)
    write_figure(fig, path)
