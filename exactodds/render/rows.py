"""Which outcomes a table shows, in which order, and how each is labelled.

Shared by every rendering (text, HTML, LaTeX, plots): the display order of
outcomes, the window of the most probable ones when a support is long, and
the :class:`Gap` markers standing for the hidden rest.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..core.dist import _sort_key
from ..core.labels import Named
from .numbers import SHORT_FRACTION, decimal

MAX_ROWS = 40
"""Longest support shown in full; longer ones show a window of this many rows
and say how many outcomes (and how much probability) are hidden."""

TABLE_ROWS = 25
"""Rows of a text table (``print(dist)``, the CLI's table): a longer support
shows the window of this many most probable outcomes, with the count and
total probability of the outcomes hidden below and above it
(``all_rows=True``, the CLI's ``--all``, shows every row). 25 rows fit a
terminal and hold nearly all the probability of the answers met in play
(Binomial(100, 1/2): 98.9%)."""

STAGE_ROWS = 16
"""Rows shown per stage when a pipeline run is shown stage by stage."""


def outcome_label(x: Any) -> str:
    """A short human label for an outcome (named tuples as ``k=v`` pairs)."""
    if hasattr(x, "_asdict"):
        return ", ".join(f"{k}={v}" for k, v in x._asdict().items())
    if isinstance(x, tuple):
        return "(" + ", ".join(outcome_label(v) for v in x) + ")"
    return str(x)


def is_ordered(dist: Any) -> bool:
    """Whether the outcomes are plain numbers, so that tails P(>= x) mean something."""
    return all(isinstance(x, (int, Fraction)) and not isinstance(x, bool) for x in dist.support())


def outcome_fields(dist: Any) -> list[str] | None:
    """The field names when every outcome is a named tuple of the same type, else None."""
    types = {type(x) for x in dist.support()}
    if len(types) == 1:
        t = next(iter(types))
        if issubclass(t, tuple) and hasattr(t, "_fields"):
            return list(t._fields)
    return None


def _has_position(x: Any) -> bool:
    return isinstance(x, Named) or (isinstance(x, tuple) and any(_has_position(v) for v in x))


def display_key(x: Any) -> tuple:
    """Support order, except that :class:`~exactodds.core.labels.Named` values
    come first, by their natural position (field by field for tuples)."""
    if isinstance(x, Named):
        return (0, x.position, ())
    if isinstance(x, tuple) and not isinstance(x, Named):
        return (1, 0, tuple(display_key(v) for v in x))
    return (2, 0, _sort_key(x))


def display_items(dist: Any) -> list[tuple[Any, Fraction]]:
    """``(outcome, p)`` in the order tables show them: :meth:`Dist.items` order,
    or the natural order of :class:`~exactodds.core.labels.Named` values when
    the outcomes hold some (e.g. a shot's target, then the fighters it engages
    in the order given, then ``none``)."""
    items = dist.items()
    if any(_has_position(x) for x, _ in items):
        items = sorted(items, key=lambda item: display_key(item[0]))
    return items


def table_rows(dist: Any) -> list[tuple[str, Fraction, float, Fraction | None, Fraction | None]]:
    """``(label, p, p_float, P(>= x), P(<= x))`` per outcome in support order;
    the tails are None for outcomes without an order. O(k) for k outcomes."""
    rows = []
    ordered = is_ordered(dist)
    below = Fraction(0)
    for x, p in dist.items():
        below += p
        above = 1 - below + p
        rows.append((outcome_label(x), p, float(p), above if ordered else None, below if ordered else None))
    return rows


@dataclass(frozen=True)
class Gap:
    """Hidden rows of a truncated table: how many outcomes and their total probability.

    ``where``: ``"below"`` (smaller numeric outcomes than those shown),
    ``"above"`` (larger ones) or ``"other"`` (less likely outcomes without an order).
    """

    count: int
    p: Fraction
    where: str = "other"

    def text(self, exact: bool = False) -> str:
        """``… 38 outcomes below, total 1.234e-05`` (the exact total too when short
        enough to read, or with ``exact=True``)."""
        s = "" if self.count == 1 else "s"
        what = {"below": f"{self.count} outcome{s} below", "above": f"{self.count} outcome{s} above"}.get(
            self.where, f"{self.count} less likely outcome{s}")
        total = str(self.p)
        shown = (f"{total}  ≈ {decimal(self.p)}" if exact or len(total) <= SHORT_FRACTION
                 else decimal(self.p))
        return f"… {what}, total {shown}"


def shown_rows(dist: Any, max_rows: int = MAX_ROWS,
               items: list[tuple[Any, Fraction]] | None = None) -> list[tuple[Any, Fraction] | Gap]:
    """The ``(outcome, p)`` pairs to show, with :class:`Gap` markers for hidden runs.

    Up to ``max_rows`` outcomes are all shown. Beyond that, for numeric
    outcomes the window of ``max_rows`` consecutive outcomes holding the most
    probability is shown (sliding window, O(k); the first such window on
    ties), so a Binomial(100, 1/2) shows its middle rather than its
    negligible ends, with a gap ``below`` and one ``above``; for other
    outcomes the ``max_rows`` most likely are kept in display order
    (:func:`display_items`) and one ``other`` gap at the end sums the rest
    (O(k log k)). ``items``: :func:`display_items` of ``dist`` when the caller
    has them already.
    """
    if items is None:
        items = display_items(dist)
    if len(items) <= max_rows:
        return list(items)
    # every p over the distribution's one denominator: sums and comparisons on
    # its integer weights, not on fractions
    den = dist.denominator
    w = [p.numerator * (den // p.denominator) for _, p in items]

    def gap(ws: list[int], where: str) -> Gap:
        return Gap(len(ws), Fraction(sum(ws), den), where)

    if is_ordered(dist):
        acc = sum(w[:max_rows])
        best, best_at = acc, 0
        for i in range(1, len(items) - max_rows + 1):
            acc += w[i + max_rows - 1] - w[i - 1]
            if acc > best:
                best, best_at = acc, i
        out: list = []
        if best_at:
            out.append(gap(w[:best_at], "below"))
        out += items[best_at:best_at + max_rows]
        if best_at + max_rows < len(items):
            out.append(gap(w[best_at + max_rows:], "above"))
        return out
    ranked = sorted(range(len(items)), key=lambda i: -w[i])
    keep = sorted(ranked[:max_rows])
    return [items[i] for i in keep] + [gap([w[i] for i in ranked[max_rows:]], "other")]
