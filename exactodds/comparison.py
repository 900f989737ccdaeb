"""Several answers side by side: :func:`compare`.

``compare(a, b, ...)`` takes queries (:class:`~exactodds.Query`, a query
file's path), answers (:class:`~exactodds.answer.Answer`) or distributions
(:class:`~exactodds.Dist`) and returns a :class:`Comparison`:

- each one's mean (when its outcomes are numbers, or its command gives one);
- for numeric outcomes, P(outcome >= k) of each at every k of the union of
  their outcomes; for composite outcomes (named tuples, labels), P(outcome)
  of each over the union;
- the difference of each from the first (for two: second minus first).

A :class:`Comparison` renders as a table for people (4 significant digits,
long fractions shortened), JSON or CSV (complete and exact, ``num/den`` with
``_float`` twins), as an HTML table in Jupyter, as a pandas DataFrame
(:meth:`Comparison.to_pandas`) and as one chart (:meth:`Comparison.plot`,
:meth:`Comparison.save_plot`). The command line's ``exactodds compare``
prints it.

Cost: O(queries x outcomes) fraction operations once the answers are known.
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from .answer import FORMATS, Answer, frac_str, jsonable
from .commands import Query
from .core import Dist, InputError
from .core.limits import check_compared, check_digits, decimal_digits
from .render import (
    TABLE_ROWS,
    decimal,
    display_key,
    figure_parts,
    figure_text,
    fraction_html,
    is_ordered,
    outcome_fields,
    outcome_label,
    plot_dists,
    probability_cell,
    require_pandas,
    save_figure,
)
from .units import counts_label


_DEFAULT_LABEL = re.compile(r"q\d+")
"""The labels :func:`compare` gives when none are given."""


@dataclass(frozen=True)
class Compared:
    """One column of a comparison: its label, what it is, its distribution and mean."""

    label: str
    what: str
    dist: Dist
    mean: Fraction | None
    query: Query | None = None
    counts: str | None = None
    """What its outcomes count, for a unit of an engagement (``"Tactical Squad left"``)."""


def _column(item: Any, label: str, unit: str | None = None) -> Compared:
    if isinstance(item, (str, Path)):
        item = Query.from_toml(item)
    if isinstance(item, Query):
        answer = item.answer()
        if unit is None:
            return Compared(label, item.command_line(), answer.dist, answer.mean, item)
        answer = answer.unit(unit)
        return Compared(label, f"{item.command_line()} --unit {unit}", answer.dist, answer.mean, item,
                        counts_label(answer))
    if unit is not None and isinstance(item, Answer):
        item = item.unit(unit)
    if isinstance(item, Answer):
        what = ", ".join(f"{k}={v}" for k, v in item.query.items() if v is not None and v is not False)
        return Compared(label, what or "an answer", item.dist, item.mean, counts=counts_label(item))
    if isinstance(item, Dist):
        return Compared(label, "a distribution", item, item.mean() if is_ordered(item) else None)
    raise InputError(f"compare takes queries, query files, answers or distributions, not {type(item).__name__}")


def compare(*items: Any, labels: list[str] | None = None, units: list[str | None] | None = None) -> Comparison:
    """The answers to several questions side by side (see the module docstring).

    ``items``: :class:`~exactodds.Query` objects, query file paths, answers or
    distributions (two or more; one is shown alone). ``labels`` name the
    columns (default ``q1``, ``q2``, ...); ``units`` (one per item, or None)
    compares one unit of each engagement (its models left,
    :meth:`~exactodds.answer.Answer.unit`). Numeric and composite outcomes
    cannot be mixed. Example::

        from exactodds import Query, compare
        compare(Query("pool", None, {"n": 3, "hit": "4+"}), Query("pool", None, {"n": 3, "hit": "3+"}))
    """
    if len(items) == 1 and isinstance(items[0], (list, tuple)):
        items = tuple(items[0])
    if not items:
        raise InputError("compare needs at least one query (two to compare)")
    check_compared(len(items))  # before any query is answered
    if labels is None:
        labels = [f"q{i + 1}" for i in range(len(items))]
    labels = [str(x) for x in labels]
    if len(labels) != len(items) or len(set(labels)) != len(labels):
        raise InputError(f"compare needs one distinct label per query: {len(items)} queries, labels {labels}")
    units = list(units) if units is not None else [None] * len(items)
    if len(units) != len(items):
        raise InputError(f"compare needs one unit (or None) per query: {len(items)} queries, units {units}")
    return Comparison([_column(item, label, unit) for item, label, unit in zip(items, labels, units)])


def _shape(dist: Dist) -> tuple[str, ...]:
    """What a composite outcome is: its fields (a named tuple's), else its type's name."""
    x = dist.support()[0]
    fields = getattr(x, "_fields", None)
    return tuple(fields) if isinstance(fields, tuple) else (type(x).__name__,)


def _check_same_shape(columns: list[Compared]) -> None:
    """Refuse composite outcomes of different kinds (a scenario's units against a Hell Dorado
    shot's recipient and hits): P(outcome) is compared only between the same outcomes. O(columns)."""
    first = _shape(columns[0].dist)
    for c in columns[1:]:
        other = _shape(c.dist)
        if other != first:
            raise InputError(f"cannot compare {columns[0].label} with {c.label}: their outcomes are not the same "
                             f"kind of thing ({columns[0].label}: {', '.join(first)}; {c.label}: "
                             f"{', '.join(other)}); compare questions whose answers have the same fields, or "
                             "one unit of each engagement (--unit NAME)")


@dataclass
class Comparison:
    """Several exact answers side by side (built by :func:`compare`).

    ``numeric``: the outcomes are numbers and the figure compared is
    ``p_at_least`` (P(outcome >= k)); otherwise it is ``p`` (P(outcome)).
    :meth:`value` and :meth:`difference` give exact Fractions.
    """

    columns: list[Compared]
    outcomes: list = field(init=False)
    numeric: bool = field(init=False)

    def __post_init__(self) -> None:
        kinds = [is_ordered(c.dist) for c in self.columns]
        if any(kinds) and not all(kinds):
            num = next(c.label for c, k in zip(self.columns, kinds) if k)
            other = next(c for c, k in zip(self.columns, kinds) if not k)
            raise InputError(f"cannot compare numeric outcomes ({num}) with composite ones ({other.label}: "
                             f"{outcome_label(other.dist.support()[0])}, ...)")
        self.numeric = all(kinds)
        if not self.numeric:
            _check_same_shape(self.columns)
        seen: dict = {}
        for c in self.columns:
            for x in c.dist.support():
                seen.setdefault(x, None)
        try:
            self.outcomes = sorted(seen, key=display_key)
        except TypeError:
            raise InputError("cannot compare these answers: their outcomes are of different kinds "
                             f"({', '.join(sorted({type(x).__name__ for x in seen}))})") from None
        self._tails: list[dict] = []
        for c in self.columns:
            tails, above = {}, Fraction(0)
            for x in reversed(self.outcomes):
                above += c.dist.pmf(x)
                tails[x] = above
            self._tails.append(tails)

    # -------------------------------------------------------------- figures
    @property
    def figure(self) -> str:
        """``"p_at_least"`` (numeric outcomes) or ``"p"``."""
        return "p_at_least" if self.numeric else "p"

    @property
    def labels(self) -> list[str]:
        return [c.label for c in self.columns]

    def value(self, i: int, x: Any) -> Fraction:
        """Column ``i``'s figure at outcome ``x``: P(>= x) or P(= x), exact."""
        return self._tails[i][x] if self.numeric else self.columns[i].dist.pmf(x)

    def difference(self, i: int, x: Any) -> Fraction:
        """Column ``i``'s figure minus the first column's, at ``x``."""
        return self.value(i, x) - self.value(0, x)

    def mean_difference(self, i: int) -> Fraction | None:
        """Column ``i``'s mean minus the first's (None when either has none)."""
        a, b = self.columns[0].mean, self.columns[i].mean
        return None if a is None or b is None else b - a

    def records(self) -> list[dict]:
        """One dict per outcome of the union: the outcome (one key per field of a
        named tuple), then per column ``<figure>.<label>`` (Fraction) and its
        ``_float``, then per later column ``difference.<label>`` and its ``_float``."""
        fields = outcome_fields(self.columns[0].dist) if not self.numeric else None
        out = []
        for x in self.outcomes:
            rec: dict[str, Any] = dict(zip(fields, x)) if fields and hasattr(x, "_fields") else {"outcome": x}
            for i, c in enumerate(self.columns):
                v = self.value(i, x)
                rec[f"{self.figure}.{c.label}"], rec[f"{self.figure}.{c.label}_float"] = v, float(v)
            for i, c in enumerate(self.columns[1:], 1):
                d = self.difference(i, x)
                rec[f"difference.{c.label}"], rec[f"difference.{c.label}_float"] = d, float(d)
            out.append(rec)
        return out

    # ---------------------------------------------------------- renderings
    def _check_size(self) -> None:
        dens = [c.dist.denominator for c in self.columns]
        means = [c.mean for c in self.columns if c.mean is not None]
        digits = max([decimal_digits(d) for d in dens] + [decimal_digits(m.denominator) for m in means]
                     + [decimal_digits(m.numerator) for m in means])
        check_digits(len(self.outcomes) * len(self.columns) * 2, 2 * digits, "the comparison")

    def render(self, fmt: str, all_rows: bool = False, exact: bool = False) -> str:
        """The comparison in one of ``table``, ``json``, ``csv`` (``all_rows`` and
        ``exact`` are the table's options, as for an answer)."""
        if fmt not in FORMATS:
            raise InputError(f"format {fmt!r} is not known; use {', '.join(FORMATS)}")
        self._check_size()
        if fmt == "table":
            return self.to_table(all_rows, exact)
        return self.to_json() if fmt == "json" else self.to_csv()

    def _rows(self, all_rows: bool) -> list:
        """The outcomes to show, with ``("gap", where, [outcomes])`` markers for hidden runs."""
        n = TABLE_ROWS
        if all_rows or len(self.outcomes) <= n:
            return list(self.outcomes)
        weight = [sum((c.dist.pmf(x) for c in self.columns), Fraction(0)) for x in self.outcomes]
        if self.numeric:
            acc = best = sum(weight[:n], Fraction(0))
            at = 0
            for i in range(1, len(weight) - n + 1):
                acc += weight[i + n - 1] - weight[i - 1]
                if acc > best:
                    best, at = acc, i
            head, tail = self.outcomes[:at], self.outcomes[at + n:]
            return (([("gap", "below", head)] if head else []) + self.outcomes[at:at + n]
                    + ([("gap", "above", tail)] if tail else []))
        ranked = sorted(range(len(weight)), key=lambda i: -weight[i])
        keep = set(ranked[:n])
        hidden = [self.outcomes[i] for i in sorted(ranked[n:])]
        return [x for i, x in enumerate(self.outcomes) if i in keep] + [("gap", "other", hidden)]

    def _gap_text(self, where: str, hidden: list) -> str:
        s = "" if len(hidden) == 1 else "s"
        what = {"below": f"{len(hidden)} outcome{s} below", "above": f"{len(hidden)} outcome{s} above"}.get(
            where, f"{len(hidden)} less likely outcome{s}")
        totals = ", ".join(f"{c.label} {decimal(sum((c.dist.pmf(x) for x in hidden), Fraction(0)))}"
                           for c in self.columns)
        return f"… {what}, total probability {totals}"

    def to_table(self, all_rows: bool = False, exact: bool = False) -> str:
        """A plain-text table for people: what each column is, the means and their
        differences, then one row per outcome: each column's P(>= k) (or P(outcome))
        exact and to 4 significant digits, and each later column minus the first.
        ``all_rows``: every outcome (default: the :data:`TABLE_ROWS` holding the
        most probability); ``exact``: long fractions in full."""
        lines = [f"{c.label}: {c.what}" for c in self.columns] + self._mean_lines(exact)
        lines.append("P(outcome >= k):" if self.numeric else "P(outcome):")
        fields = self._table_fields()
        header = self._table_header(fields)
        table: list[list[str] | str] = []
        shortened = False
        for r in self._rows(all_rows):
            if _is_gap(r):
                table.append(self._gap_text(r[1], r[2]))
                continue
            cells, short = self._outcome_cells(r, fields, exact)
            shortened = shortened or short
            table.append(cells)
        lines += _aligned(header, table)
        if shortened:
            lines.append("(N digits): an exact fraction too long to read here; --exact prints it whole")
        return "\n".join(lines)

    def _mean_lines(self, exact: bool) -> list[str]:
        """``mean:`` and a line per column and per difference from the first, aligned
        (none unless every column has a mean)."""
        if not all(c.mean is not None for c in self.columns):
            return []
        first = self.columns[0].label
        parts = [(c.label, *_parts(c.mean, exact)) for c in self.columns]
        parts += [(f"{c.label} - {first}", *_parts(self.mean_difference(i), exact, signed=True))
                  for i, c in enumerate(self.columns[1:], 1)]
        widths = [max(len(p[j]) for p in parts) for j in range(2)]
        return ["mean:"] + [f"  {name:<{widths[0]}}  {ex:>{widths[1]}}  {approx}".rstrip()
                            for name, ex, approx in parts]

    def _table_fields(self) -> list[str] | None:
        """The field names for one column each, when every outcome is a named tuple."""
        fields = outcome_fields(self.columns[0].dist) if not self.numeric else None
        return fields if fields and all(hasattr(x, "_fields") for x in self.outcomes) else None

    def _table_header(self, fields: list[str] | None) -> list[str]:
        first = self.columns[0].label
        header = list(fields or ["k" if self.numeric else "outcome"])
        for c in self.columns:
            header += [c.label, "≈"]
        for c in self.columns[1:]:
            header += [f"{c.label} - {first}", "≈"]
        return header

    def _outcome_cells(self, x: Any, fields: list[str] | None, exact: bool) -> tuple[list[str], bool]:
        """``(cells, shortened)`` of the row of outcome ``x``: its label(s), each
        column's figure exact and decimal, each later column's signed difference."""
        cells = [outcome_label(v) for v in x] if fields else [outcome_label(x)]
        shortened = False
        for i in range(len(self.columns)):
            text, short = probability_cell(self.value(i, x), exact)
            shortened = shortened or short
            cells += [text, decimal(self.value(i, x))]
        for i in range(1, len(self.columns)):
            d = self.difference(i, x)
            text, short = probability_cell(abs(d), exact)
            shortened = shortened or short
            sign = "-" if d < 0 else ("+" if d > 0 else "")
            cells += [sign + text if d else "0", _signed(d)]
        return cells, shortened

    def to_json_obj(self) -> dict:
        """The comparison as JSON values: ``queries`` (label, query, params, mean),
        ``figure``, ``mean_difference``, and ``rows`` (per outcome, the figure of each
        column and the difference of each later column from the first), exact
        ``num/den`` strings each with a ``_float`` twin."""
        queries = []
        for c in self.columns:
            q: dict[str, Any] = {"label": c.label, "query": c.what,
                                 "params": None if c.query is None else jsonable(c.query.typed.plain(False))}
            q["mean"] = None if c.mean is None else frac_str(c.mean)
            q["mean_float"] = None if c.mean is None else float(c.mean)
            queries.append(q)
        diffs = {c.label: self.mean_difference(i) for i, c in enumerate(self.columns[1:], 1)}
        rows = []
        for x in self.outcomes:
            vals = {c.label: self.value(i, x) for i, c in enumerate(self.columns)}
            d = {c.label: self.difference(i, x) for i, c in enumerate(self.columns[1:], 1)}
            rows.append({"outcome": jsonable(x),
                         self.figure: {k: frac_str(v) for k, v in vals.items()},
                         f"{self.figure}_float": {k: float(v) for k, v in vals.items()},
                         "difference": {k: frac_str(v) for k, v in d.items()},
                         "difference_float": {k: float(v) for k, v in d.items()}})
        return {"queries": queries, "figure": self.figure, "difference_from": self.columns[0].label,
                "mean_difference": {k: None if v is None else frac_str(v) for k, v in diffs.items()},
                "mean_difference_float": {k: None if v is None else float(v) for k, v in diffs.items()},
                "rows": rows}

    def to_json(self) -> str:
        return json.dumps(self.to_json_obj(), indent=2)

    def to_csv(self) -> str:
        """One row per outcome: the outcome (one column per field), then
        ``<figure>.<label>`` and ``<figure>.<label>_float`` per column,
        ``difference.<label>`` (minus the first) with its ``_float``, then the
        means ``mean.<label>`` and ``mean_difference.<label>`` repeated on every row."""
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        extra: dict[str, str] = {}
        for i, c in enumerate(self.columns):
            if c.mean is not None:
                extra[f"mean.{c.label}"], extra[f"mean.{c.label}_float"] = frac_str(c.mean), repr(float(c.mean))
        for i, c in enumerate(self.columns[1:], 1):
            d = self.mean_difference(i)
            if d is not None:
                extra[f"mean_difference.{c.label}"] = frac_str(d)
                extra[f"mean_difference.{c.label}_float"] = repr(float(d))
        records = self.records()
        head = list(records[0])
        writer.writerow(head + list(extra))
        for rec in records:
            writer.writerow([frac_str(v) if isinstance(v, Fraction) else
                             repr(v) if isinstance(v, float) else outcome_label(v) for v in rec.values()]
                            + list(extra.values()))
        return buf.getvalue()

    def to_pandas(self) -> Any:
        """A DataFrame of :meth:`records`: exact Fractions (object dtype) and their
        ``_float`` twins (needs pandas)."""
        return require_pandas().DataFrame(self.records())

    def _repr_html_(self) -> str:
        td = "padding:2px 10px;border-bottom:1px solid rgba(128,128,128,0.25);text-align:right"
        th = "padding:3px 10px;border-bottom:2px solid #888;text-align:right;font-weight:600;white-space:nowrap"
        first = self.columns[0].label
        heads = ["k" if self.numeric else "outcome"] + [c.label for c in self.columns]
        heads += [f"{c.label} &minus; {html.escape(first)}" for c in self.columns[1:]]
        body = []
        for r in self._rows(False):
            if _is_gap(r):
                body.append(f'<tr><td colspan="{len(heads)}" style="{td};text-align:center;font-style:italic">'
                            f"{html.escape(self._gap_text(r[1], r[2]))}</td></tr>")
                continue
            cells = [f'<td style="{td};font-weight:600">{html.escape(outcome_label(r))}</td>']
            for i in range(len(self.columns)):
                v = self.value(i, r)
                frac, _ = fraction_html(v)
                cells.append(f'<td style="{td}"><span style="font-family:monospace">{frac}</span> '
                             f"&asymp; {decimal(v)}</td>")
            for i in range(1, len(self.columns)):
                cells.append(f'<td style="{td}">{_signed(self.difference(i, r))}</td>')
            body.append("<tr>" + "".join(cells) + "</tr>")
        caption = "<br>".join(
            f"<b>{html.escape(c.label)}</b>: {html.escape(c.what)}"
            + ("" if c.mean is None else f" &middot; mean {html.escape(figure_text(c.mean))}")
            for c in self.columns)
        caption += "<br>" + ("P(outcome &ge; k)" if self.numeric else "P(outcome)")
        head = "".join(f'<th style="{th}">{h}</th>' for h in heads)
        return (f'<table class="exactodds-compare" style="border-collapse:collapse;font-size:13px;'
                f'font-variant-numeric:tabular-nums;color:inherit">'
                f'<caption style="caption-side:top;text-align:left;padding:2px 4px 6px 4px">{caption}</caption>'
                f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>")

    def __str__(self) -> str:
        return self.to_table()

    def __repr__(self) -> str:
        return f"Comparison({', '.join(f'{c.label}: {c.what}' for c in self.columns)})"

    # ---------------------------------------------------------------- plots
    def _plot_args(self) -> tuple[list, list[str]]:
        # a label of one's own names its series alone; the default q1, q2... with what each is
        return [c.dist for c in self.columns], [f"{c.label}: {c.what}" if _DEFAULT_LABEL.fullmatch(c.label)
                                                else c.label for c in self.columns]

    def xlabel(self) -> str | None:
        """What the x axis counts: the units' own label when every column is a unit of an
        engagement (``"Tactical Squad left"``; several joined by `` / ``), else None ("outcome")."""
        counts = list(dict.fromkeys(c.counts for c in self.columns))
        return None if None in counts else " / ".join(c for c in counts if c is not None)

    def plot(self, ax: Any = None, at_least: bool = False, title: str | None = None) -> Any:
        """Every column on one chart: P(outcome) as bars side by side, or with
        ``at_least`` P(outcome >= k) as lines, the x axis named by :meth:`xlabel`;
        returns the Axes (needs matplotlib)."""
        dists, labels = self._plot_args()
        return plot_dists(dists, labels, ax=ax, at_least=at_least, title=title, xlabel=self.xlabel())

    def save_plot(self, path: str, at_least: bool = False, title: str | None = None) -> None:
        """Write :meth:`plot` to ``path`` (PNG, SVG or PDF by its suffix; no window)."""
        dists, labels = self._plot_args()
        save_figure(path, dists, labels, at_least=at_least, title=title, xlabel=self.xlabel())


def _parts(value: Fraction | None, exact: bool, signed: bool = False) -> tuple[str, str]:
    if value is None:
        return "", ""
    ex, approx = figure_parts(value, exact)
    if signed and value > 0:
        ex = "+" + ex if ex else ex
        approx = approx.replace("≈ ", "≈ +", 1)
    return ex, approx


def _is_gap(row: Any) -> bool:
    """Whether a row of :meth:`Comparison._rows` is a ``("gap", where, [outcomes])`` marker."""
    return isinstance(row, tuple) and len(row) == 3 and row[0] == "gap" and isinstance(row[2], list)


def _aligned(header: list[str], table: list[list[str] | str]) -> list[str]:
    """The header and rows with every column right-aligned to its widest cell
    (text lines, the gaps, as they are)."""
    rows = [header] + [t for t in table if isinstance(t, list)]
    widths = [max(len(t[j]) for t in rows) for j in range(len(header))]

    def line(cells: list[str]) -> str:
        return "  ".join(c.rjust(w) for c, w in zip(cells, widths)).rstrip()

    return [line(header)] + [line(t) if isinstance(t, list) else t for t in table]


def _signed(d: Fraction) -> str:
    """A difference to 4 significant digits, with its sign (``0`` for none)."""
    return "0" if d == 0 else ("+" if d > 0 else "") + decimal(d)


__all__ = ["Compared", "Comparison", "compare"]
