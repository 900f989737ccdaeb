"""Rendering for people: text tables, HTML and LaTeX (Jupyter), plots, pandas.

A layer above the rule systems and below answers and commands; the engine
(:mod:`exactodds.core`) holds distributions and transforms only and never
imports it. Importing this package installs its renderings as the
:class:`~exactodds.core.present.Presenter` that ``Dist`` and ``Run`` delegate
``repr``, ``str``, ``_repr_html_``, ``_repr_latex_``, ``plot()`` and
``to_pandas()`` to; the top package :mod:`exactodds` imports it on the first
such request.

Modules, each named for what it holds: :mod:`~exactodds.render.numbers`
(fractions and decimals for people), :mod:`~exactodds.render.rows` (which
outcomes a table shows, in which order), :mod:`~exactodds.render.tables`
(plain text and one-line reprs), :mod:`~exactodds.render.html`,
:mod:`~exactodds.render.latex`, :mod:`~exactodds.render.plots` (matplotlib)
and :mod:`~exactodds.render.frames` (pandas). Only the standard library is
imported at module level; sympy, matplotlib and pandas are imported inside
the functions that draw with them. Every table is computed from the exact
probabilities; decimals appear only as rendered text.
"""

from __future__ import annotations

from ..core.present import Presenter, install
from .frames import dist_records, dist_to_pandas, require_pandas, run_to_pandas
from .html import dist_html, fraction_html, run_html
from .latex import dist_latex, latex_table, outcome_latex
from .numbers import (
    LONG_FRACTION,
    SHORT_FRACTION,
    decimal,
    figure_parts,
    figure_text,
    fraction_digits,
    fraction_text,
    probability_cell,
)
from .plots import PLOT_OUTCOMES, PLOT_SUFFIXES, plot_dist, plot_dists, plot_run, save_figure
from .rows import (
    MAX_ROWS,
    STAGE_ROWS,
    TABLE_ROWS,
    Gap,
    display_items,
    display_key,
    is_ordered,
    outcome_fields,
    outcome_label,
    shown_rows,
    table_rows,
)
from .tables import dist_repr, dist_str, dist_summary, dist_text, run_repr

install(Presenter(dist_repr=dist_repr, dist_str=dist_str, dist_html=dist_html, dist_latex=dist_latex,
                  plot_dist=plot_dist, dist_to_pandas=dist_to_pandas, run_repr=run_repr, run_html=run_html,
                  plot_run=plot_run, run_to_pandas=run_to_pandas))

__all__ = [
    "LONG_FRACTION", "MAX_ROWS", "PLOT_OUTCOMES", "PLOT_SUFFIXES", "SHORT_FRACTION", "STAGE_ROWS", "TABLE_ROWS",
    "Gap", "decimal", "display_items", "display_key", "dist_html", "dist_latex", "dist_records", "dist_repr",
    "dist_str", "dist_summary", "dist_text", "dist_to_pandas", "figure_parts", "figure_text", "fraction_digits",
    "fraction_html", "fraction_text", "is_ordered", "latex_table", "outcome_fields", "outcome_label",
    "outcome_latex", "plot_dist", "plot_dists", "plot_run", "probability_cell", "require_pandas", "run_html", "run_repr",
    "run_to_pandas", "save_figure", "shown_rows", "table_rows",
]
