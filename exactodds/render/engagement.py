"""Text for engagements: a short block per unit, then the most probable joint outcomes.

An engagement's answer (two or more units' figures in one joint
distribution) reads badly as one long table of long fractions. Its default
table is instead, per unit, P(destroyed), P(each status it can end in),
its mean and P(at least k left) for the few k that matter, then the
:data:`JOINT_ROWS` most probable joint outcomes, most probable first. The
caller (:class:`~exactodds.answer.Answer`) computes each unit's marginal;
this module only lays them out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .numbers import LONG_FRACTION, decimal
from .rows import outcome_fields, outcome_label

JOINT_ROWS = 10
"""Joint outcomes shown by default (``--joint`` or ``--all`` shows every one)."""

EVERY_K = 6
"""A unit of at most this many models shows P(at least k left) for every k from 1;
a larger one for its size and for the k where the chance crosses 90%, 50% and 10%."""

CROSSINGS = (Fraction(9, 10), Fraction(1, 2), Fraction(1, 10))

QUIET_STATUSES = ("-", "", "destroyed")
"""Statuses the block leaves out: none, and destroyed (shown from the count)."""


@dataclass(frozen=True)
class UnitView:
    """What a unit's block shows: its name, heading, marginal count, status
    distribution (or None), extra figures and whether 0 means destroyed."""

    key: str
    heading: str
    counts: Any
    status: Any = None
    figures: Sequence[tuple[str, Fraction]] = ()
    left: bool = True


def shown_ks(counts: Any, size: int | None) -> list[int]:
    """The k of P(at least k) a block shows: every k from 1 for small units, else
    the size and the largest k where P(at least k) is still 90%, 50% and 10%. O(k)."""
    top = max([size or 0, *counts.support()])
    if top <= EVERY_K:
        return list(range(1, top + 1))
    ks = {top} if size else set()
    for level in CROSSINGS:
        best = max((k for k in range(1, top + 1) if counts.at_least(k) >= level), default=None)
        if best is not None:
            ks.add(best)
    return sorted(ks)


def _number(p: Fraction, exact: bool) -> str:
    """A figure in a block: ``5/12 ≈ 0.4167`` when the fraction is short (or
    ``exact``), else its decimal; whole numbers as they are."""
    p = Fraction(p)
    if p.denominator == 1:
        return str(p.numerator)
    text = f"{p.numerator}/{p.denominator}"
    return f"{text} ≈ {decimal(p)}" if exact or len(text) <= 12 else decimal(p)


def unit_block(view: UnitView, size: int | None = None, exact: bool = False) -> list[str]:
    """The lines of one unit's block: a heading, then two columns (chances of
    ending destroyed or in a status, the mean; P(at least k))."""
    left: list[tuple[str, str]] = []
    if view.left:
        left.append(("P(destroyed)", _number(view.counts.pmf(0), exact)))
    if view.status is not None:
        left += [(f"P({s})", _number(p, exact)) for s, p in view.status.items() if str(s) not in QUIET_STATUSES]
    left += [(f"P({label})", _number(p, exact)) for label, p in view.figures]
    left.append(("mean", _number(view.counts.mean(), exact)))
    ks = shown_ks(view.counts, size if view.left else None)
    width = len(str(ks[-1])) if ks else 1
    what = " left" if view.left else ""
    right = [(f"P(at least {k:>{width}}{what})", _number(view.counts.at_least(k), exact)) for k in ks]
    lines = [f"{view.key}: {view.heading}"]
    lw = [max((len(a) for a, _ in left), default=0), max((len(b) for _, b in left), default=0)]
    rw = max((len(a) for a, _ in right), default=0)
    for i in range(max(len(left), len(right))):
        a = f"{left[i][0]:<{lw[0]}}  {left[i][1]:<{lw[1]}}" if i < len(left) else " " * (lw[0] + lw[1] + 2)
        b = f"{right[i][0]:<{rw}}  {right[i][1]}" if i < len(right) else ""
        lines.append(f"  {a}    {b}".rstrip())
    return lines


def joint_text(dist: Any, rows: int | None = JOINT_ROWS, exact: bool = False) -> str:
    """The joint outcomes, most probable first (``rows`` of them, or every one
    when None), one column per field, the exact probability when readable
    (or ``exact``) and its decimal; a last line counts and sums the rest. O(k log k)."""
    # sorted on the integer weights over the one denominator: the order of the
    # probabilities without comparing fractions (stable: support order on ties)
    weights, total = dist.weights(), dist.denominator
    order = sorted(dist.support(), key=lambda x: -weights[x])
    kept, rest_of = (order, []) if rows is None else (order[:rows], order[rows:])
    shown = [(x, Fraction(weights[x], total)) for x in kept]
    hidden = rest_of
    fields = outcome_fields(dist) or ["outcome"]
    cells = [[outcome_label(v) for v in x] if len(fields) > 1 or outcome_fields(dist) else [outcome_label(x)]
             for x, _ in shown]
    fractions = [str(p) for _, p in shown]
    with_exact = exact or all(len(f) <= LONG_FRACTION for f in fractions)
    header = fields + (["probability"] if with_exact else []) + ["decimal"]
    table = [c + ([f] if with_exact else []) + [decimal(p)] for c, f, (_, p) in zip(cells, fractions, shown)]
    widths = [max(len(r[i]) for r in [header, *table]) for i in range(len(header))]
    numeric = [all(r[i].replace("/", "").isdigit() for r in table) for i in range(len(fields))] \
        + [True] * (len(header) - len(fields))

    def fmt(cells: list[str]) -> str:
        return "  ".join(c.rjust(w) if right else c.ljust(w) for c, w, right in zip(cells, widths, numeric)).rstrip()

    out = [fmt(header), *map(fmt, table)]
    if hidden:
        rest = Fraction(sum(weights[x] for x in hidden), total)
        s = "" if len(hidden) == 1 else "s"
        out.append(f"… {len(hidden)} less likely outcome{s}, total {decimal(rest)} (--joint shows every outcome)")
    return "\n".join(out)
