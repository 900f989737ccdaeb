"""Rendering distributions for people: text, HTML (Jupyter), LaTeX, plots, pandas.

Interface code that happens to live beside the engine so that ``Dist`` and
``Run`` can offer ``_repr_html_``, ``_repr_latex_``, ``plot()`` and
``to_pandas()`` without importing anything heavy. Only the standard library
is imported at module level; sympy, matplotlib and pandas are imported
inside the functions that need them (``import exactodds`` pulls none).

Every table is computed from the exact probabilities; decimals appear only
as rendered text, never on the exact path.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .dist import _sort_key
from .errors import InputError
from .labels import Labelled, Named

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

LONG_FRACTION = 28
"""Fractions longer than this many characters are shortened in tables and
reprs (the exact value stays in the HTML cell's tooltip, in JSON and CSV, in
``to_fractions()``, and with ``exact=True`` / ``--exact``): so that no line of
a text table is longer than about 100 characters."""

SHORT_FRACTION = 16
"""The total of hidden rows is given as an exact fraction too when at most this long."""


# ----------------------------------------------------------------- rows
def outcome_label(x: Any) -> str:
    """A short human label for an outcome (named tuples as ``k=v`` pairs)."""
    if hasattr(x, "_asdict"):
        return ", ".join(f"{k}={v}" for k, v in x._asdict().items())
    if isinstance(x, tuple):
        return "(" + ", ".join(outcome_label(v) for v in x) + ")"
    return str(x)


def _is_ordered(dist: Any) -> bool:
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


def _display_key(x: Any) -> tuple:
    """Support order, except that :class:`~exactodds.core.labels.Named` values
    come first, by their natural position (field by field for tuples)."""
    if isinstance(x, Named):
        return (0, x.position, ())
    if isinstance(x, tuple) and not isinstance(x, Named):
        return (1, 0, tuple(_display_key(v) for v in x))
    return (2, 0, _sort_key(x))


def display_items(dist: Any) -> list[tuple[Any, Fraction]]:
    """``(outcome, p)`` in the order tables show them: :meth:`Dist.items` order,
    or the natural order of :class:`~exactodds.core.labels.Named` values when
    the outcomes hold some (e.g. a shot's target, then the fighters it engages
    in the order given, then ``none``)."""
    items = dist.items()
    if any(_has_position(x) for x, _ in items):
        items = sorted(items, key=lambda item: _display_key(item[0]))
    return items


def table_rows(dist: Any) -> list[tuple[str, Fraction, float, Fraction | None, Fraction | None]]:
    """``(label, p, p_float, P(>= x), P(<= x))`` per outcome in support order;
    the tails are None for outcomes without an order. O(k) for k outcomes."""
    rows = []
    ordered = _is_ordered(dist)
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


def shown_rows(dist: Any, max_rows: int = MAX_ROWS) -> list[tuple[Any, Fraction] | Gap]:
    """The ``(outcome, p)`` pairs to show, with :class:`Gap` markers for hidden runs.

    Up to ``max_rows`` outcomes are all shown. Beyond that, for numeric
    outcomes the window of ``max_rows`` consecutive outcomes holding the most
    probability is shown (sliding window, O(k); the first such window on
    ties), so a Binomial(100, 1/2) shows its middle rather than its
    negligible ends, with a gap ``below`` and one ``above``; for other
    outcomes the ``max_rows`` most likely are kept in display order
    (:func:`display_items`) and one ``other`` gap at the end sums the rest
    (O(k log k)).
    """
    items = display_items(dist)
    if len(items) <= max_rows:
        return list(items)
    if _is_ordered(dist):
        acc = sum((p for _, p in items[:max_rows]), Fraction(0))
        best, best_at = acc, 0
        for i in range(1, len(items) - max_rows + 1):
            acc += items[i + max_rows - 1][1] - items[i - 1][1]
            if acc > best:
                best, best_at = acc, i
        out: list = []
        head, tail = items[:best_at], items[best_at + max_rows:]
        if head:
            out.append(Gap(len(head), sum((p for _, p in head), Fraction(0)), "below"))
        out += items[best_at:best_at + max_rows]
        if tail:
            out.append(Gap(len(tail), sum((p for _, p in tail), Fraction(0)), "above"))
        return out
    ranked = sorted(range(len(items)), key=lambda i: -items[i][1])
    keep = sorted(ranked[:max_rows])
    hidden = [items[i][1] for i in ranked[max_rows:]]
    return [items[i] for i in keep] + [Gap(len(hidden), sum(hidden, Fraction(0)), "other")]


# ------------------------------------------------------------- numbers
def _scientific(p: Fraction, digits: int) -> tuple[Fraction, int]:
    """``(m, e)`` with ``p = m * 10**e`` and ``1 <= m < 10``, exactly (any size of p > 0)."""
    e = len(str(p.numerator)) - len(str(p.denominator))
    m = p / Fraction(10) ** e
    while m >= 10:
        m, e = m / 10, e + 1
    while m < 1:
        m, e = m * 10, e - 1
    return m, e


def decimal(p: Fraction | float | int) -> str:
    """A number for people: 4 significant digits (``0.1667``, ``2.412e-07``,
    ``12.50``), ``0`` and ``1`` (and every whole number) as they are.

    Never reads 0 for a non-zero value (tiny values go to scientific
    notation, computed exactly however small they are), and never reads 1 for
    a probability below 1: ``1 - 2.412e-07``.
    """
    if isinstance(p, float):
        if p == 0 or not math.isfinite(p):
            return "0" if p == 0 else str(p)
        p = Fraction(p)
    p = Fraction(p)
    if p.denominator == 1:
        return str(p.numerator)
    if p < 0:
        return "-" + decimal(-p)
    if Fraction(99995, 100000) <= p < 1:
        return "1 - " + decimal(1 - p)
    m, e = _scientific(p, 4)
    if -5 < e < 15:
        text = f"{float(p):#.4g}"
        if "e" not in text:
            return text
    mant = f"{float(m):.3f}"
    if mant == "10.000":
        mant, e = "1.000", e + 1
    return f"{mant}e{'-' if e < 0 else '+'}{abs(e):02d}"


def fraction_digits(p: Fraction) -> int:
    """The number of digits of a fraction's numerator and denominator together."""
    return len(str(abs(p.numerator))) + (0 if p.denominator == 1 else len(str(p.denominator)))


def figure_parts(value: Any, exact: bool = False, hint: str = "--exact") -> tuple[str, str]:
    """``(exact part, approximate part)`` of :func:`figure_text`: ``("19/54", "≈ 0.3519")``,
    ``("7", "")``, ``("", "≈ 0.4677 (exact: 90 digits, --exact)")``."""
    if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
        return str(value), ""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator), ""
    text = f"{value.numerator}/{value.denominator}"
    if exact or len(text) <= LONG_FRACTION:
        return text, f"≈ {decimal(value)}"
    return "", f"≈ {decimal(value)} (exact: {fraction_digits(value)} digits, {hint})"


def figure_text(value: Any, exact: bool = False, hint: str = "--exact") -> str:
    """One figure for a person: ``7`` (whole numbers without ``/1``),
    ``19/54  ≈ 0.3519`` (a fraction and its decimal), or, for a fraction longer
    than :data:`LONG_FRACTION` characters, ``≈ 0.4677 (exact: 90 digits, --exact)``
    (``hint`` names the way to get it whole; ``exact=True`` prints it whole).
    Values that are not numbers print as they are."""
    return "  ".join(part for part in figure_parts(value, exact, hint) if part)


def probability_cell(p: Fraction, exact: bool = False) -> tuple[str, bool]:
    """``(text, shortened)`` for the probability column: the exact fraction
    (``1`` for one), or ``(89 digits)`` when longer than :data:`LONG_FRACTION`."""
    text = str(p)
    if exact or len(text) <= LONG_FRACTION:
        return text, False
    return f"({fraction_digits(p)} digits)", True


# ----------------------------------------------------------------- text
def _columns(dist: Any, rows: list) -> tuple[list[str], list[list[str]], str | None]:
    """``(headers, cells per shown row, caption)`` for the outcome part of a text table.

    Named tuples: one column per field. :class:`~exactodds.core.labels.Labelled`
    tuples with the same names: one column per name, runs of one name merged
    (``Legionary ×10`` holding ``0 0 1 ...``), and their ``what`` as the
    caption. Anything else: one ``outcome`` column.
    """
    shown = [r[0] for r in rows if not isinstance(r, Gap)]
    fields = outcome_fields(dist)
    if fields:
        return fields, [[_value(v) for v in x] for x in shown], None
    support = dist.support()
    first = support[0]
    if isinstance(first, Labelled) and first.names and all(
            isinstance(x, Labelled) and x.names == first.names for x in support):
        runs: list[tuple[str, int]] = []
        for name in first.names:
            if runs and runs[-1][0] == name:
                runs[-1] = (name, runs[-1][1] + 1)
            else:
                runs.append((name, 1))
        heads = [name if n == 1 else f"{name} ×{n}" for name, n in runs]
        cells = []
        for x in shown:
            values, at = [], 0
            for _, n in runs:
                values.append(" ".join(_value(v) for v in x[at:at + n]))
                at += n
            cells.append(values)
        caption = f"{first.what}, per model (file order):" if first.what else None
        return heads, cells, caption
    return ["outcome"], [[outcome_label(x)] for x in shown], None


def _value(v: Any) -> str:
    return outcome_label(v)


def dist_text(dist: Any, *, all_rows: bool = False, exact: bool = False, max_rows: int = TABLE_ROWS,
              hint: str = "--exact") -> str:
    """A plain-text table for terminals (``print(dist)``, the CLI's ``--format table``).

    Columns: the outcome (one column per field of a named tuple, one per
    named value of a :class:`~exactodds.core.labels.Labelled` tuple), the
    exact ``probability``, its ``decimal`` (4 significant digits, see
    :func:`decimal`), and for numeric outcomes ``P(>=)``.

    - ``all_rows``: every outcome. By default at most ``max_rows``
      (:data:`TABLE_ROWS`) rows: the window of the most probable outcomes
      (:func:`shown_rows`), with a line above and below it saying how many
      outcomes are hidden and their total probability;
    - ``exact``: fractions longer than :data:`LONG_FRACTION` characters in
      full (by default they show as ``(89 digits)`` and a note names ``hint``).
    """
    rows = shown_rows(dist, len(dist) if all_rows else max_rows)
    ordered = _is_ordered(dist)
    tails: dict[Any, Fraction] = {}
    if ordered:
        above = Fraction(1)
        for x, p in dist.items():
            tails[x] = above
            above -= p
    heads, outcome_cells, caption = _columns(dist, rows)
    numeric = [all(_numeric_text(c[i]) for c in outcome_cells) for i in range(len(heads))]
    table: list[list[str] | Gap] = []
    shortened = False
    at = 0
    for r in rows:
        if isinstance(r, Gap):
            table.append(r)
            continue
        x, p = r
        cell, short = probability_cell(p, exact)
        shortened = shortened or short
        line = outcome_cells[at] + [cell, decimal(p)] + ([decimal(tails[x])] if ordered else [])
        at += 1
        table.append(line)
    header = heads + ["probability", "decimal"] + (["P(>=)"] if ordered else [])
    lines_only = [header] + [t for t in table if not isinstance(t, Gap)]
    widths = [max(len(t[i]) for t in lines_only) for i in range(len(header))]
    left = numeric + [True] * (len(header) - len(heads))

    def fmt(cells: list[str]) -> str:
        return "  ".join(c.rjust(w) if right else c.ljust(w)
                         for c, w, right in zip(cells, widths, left)).rstrip()

    out = [caption] if caption else []
    out.append(fmt(header))
    for t in table:
        out.append(t.text(exact) if isinstance(t, Gap) else fmt(t))
    if shortened:
        out.append(f"(N digits): an exact fraction too long to read here; {hint} prints it whole")
    return "\n".join(out)


def _numeric_text(text: str) -> bool:
    return text.replace("-", "").replace("/", "").replace(" ", "").replace(".", "").isdigit() or text == ""


def fraction_text(p: Fraction) -> str:
    """The exact fraction, or ``~`` and a short decimal when it is longer than
    :data:`LONG_FRACTION` characters (for one-line reprs)."""
    text = str(p)
    return text if len(text) <= LONG_FRACTION else "~" + decimal(p)


def dist_repr(dist: Any, shown: int = 6) -> str:
    """``Dist(11 outcomes 2..12, mean 7: {..., 4: 1/12, 5: 1/9, 6: 5/36, 7: 1/6, 8: 5/36, 9: 1/9, ...})``.

    One line for terminals: size, range and mean, then the ``shown`` outcomes
    picked as in :func:`shown_rows` (the likeliest window for numbers), ``...``
    for the others; fractions too long to read are written ``~decimal``.
    """
    parts = ["..." if isinstance(r, Gap) else f"{r[0]!r}: {fraction_text(r[1])}"
             for r in shown_rows(dist, shown)]
    return f"Dist({dist_summary(dist)}: {{{', '.join(parts)}}})"


def dist_str(dist: Any) -> str:
    """``str(dist)`` / ``print(dist)``: a one-line summary, then :func:`dist_text`."""
    return dist_summary(dist) + "\n" + dist_text(dist, hint="dist_text(dist, exact=True)")


def dist_summary(dist: Any) -> str:
    """``11 outcomes 2..12, mean 7`` (range and mean for numeric outcomes only)."""
    n = len(dist)
    text = f"{n} outcome{'s' if n != 1 else ''}"
    if _is_ordered(dist):
        support = dist.support()
        if n > 1:
            text += f" {support[0]}..{support[-1]}"
        text += f", mean {fraction_text(dist.mean())}"
    return text


def run_repr(run: Any) -> str:
    """One line: each stage with its number of distinct states, then the final summary.

    ``Run(start[1] -> hits[11] -> wounds[11]; final: 11 outcomes 0..10, mean 10/3)``.
    """
    path = " -> ".join(f"{name}[{len(d)}]" for name, d in run.stages.items())
    return f"Run({path}; final: {dist_summary(run.final)})"


# ----------------------------------------------------------------- HTML
_CSS_TABLE = ("border-collapse:collapse;font-size:13px;font-variant-numeric:tabular-nums;"
              "line-height:1.35;margin:0.3em 0;color:inherit")
_CSS_CAPTION = "caption-side:top;text-align:left;padding:2px 4px 6px 4px;color:inherit"


@dataclass(frozen=True)
class _Style:
    """Inline styles of one table; ``compact`` ones (pipeline stages) are narrower."""

    pad: str = "10px"
    bar_px: int = 90

    @property
    def th(self) -> str:
        return (f"padding:3px {self.pad};border-bottom:2px solid #888;text-align:right;font-weight:600;"
                "white-space:nowrap")

    @property
    def td(self) -> str:
        return f"padding:2px {self.pad};border-bottom:1px solid rgba(128,128,128,0.25);text-align:right"

    @property
    def frac(self) -> str:
        return self.td + ";font-family:monospace;white-space:nowrap"

    @property
    def gap(self) -> str:
        return f"padding:3px {self.pad};text-align:center;font-style:italic;color:#777"


_WIDE = _Style()
_COMPACT = _Style(pad="5px", bar_px=50)


def _digits(n: int) -> str:
    s = str(n)
    return s if len(s) <= 12 else f"{s[:6]}&hellip;{s[-4:]}"


def fraction_html(p: Fraction) -> tuple[str, bool]:
    """``(html, shortened)``: the exact fraction, or when longer than
    :data:`LONG_FRACTION` characters its leading and trailing digits with the
    full value as a tooltip."""
    text = str(p)
    if len(text) <= LONG_FRACTION:
        return text, False
    return f'<span title="{text}">{_digits(p.numerator)}/{_digits(p.denominator)}</span>', True


def _bar(p: Fraction, top: Fraction, px: int) -> str:
    width = 0 if top == 0 else round(px * float(p / top))
    return (f'<div style="width:{px}px"><div style="width:{max(width, 1 if p else 0)}px;'
            f'height:0.8em;background:#4c78a8;border-radius:1px"></div></div>')


def dist_html(dist: Any, max_rows: int = MAX_ROWS, title: str | None = None, compact: bool = False) -> str:
    """An HTML table: outcome, exact probability, decimal, a bar, and for
    numeric outcomes P(at least x) and P(at most x).

    Named-tuple outcomes get one column per field. A support longer than
    ``max_rows`` is truncated by :func:`shown_rows`, and each hidden run is one
    row saying how many outcomes it holds and their total probability. Styles
    are inline (Jupyter themes differ) and use inherited colours, so the table
    reads in light and dark themes. ``compact`` narrows the padding and the
    bars (for pipeline stages side by side).
    """
    st = _COMPACT if compact else _WIDE
    ordered = _is_ordered(dist)
    fields = outcome_fields(dist)
    heads = [html.escape(f) for f in fields] if fields else ["outcome"]
    heads += ["probability", "decimal", ""]
    tips = {"at least": "P(X &ge; x)", "at most": "P(X &le; x)"}
    if ordered:
        heads += ["at least", "at most"]
    width = len(heads)
    top = max(p for _, p in dist.items())
    tails: dict[Any, tuple[Fraction, Fraction]] = {}
    if ordered:
        below = Fraction(0)
        for x, p in dist.items():
            below += p
            tails[x] = (1 - below + p, below)
    body = []
    shortened = False
    for r in shown_rows(dist, max_rows):
        if isinstance(r, Gap):
            body.append(f'<tr><td colspan="{width}" style="{st.gap}">&hellip; {r.count} more '
                        f'outcome{"s" if r.count != 1 else ""}, total probability {decimal(r.p)} '
                        f'&hellip;</td></tr>')
            continue
        x, p = r
        labels = [str(v) for v in x] if fields else [outcome_label(x)]
        cells = [f'<td style="{st.td};font-weight:600">{html.escape(v)}</td>' for v in labels]
        frac, short = fraction_html(p)
        shortened = shortened or short
        cells.append(f'<td style="{st.frac}">{frac}</td>')
        cells.append(f'<td style="{st.td}">{decimal(p)}</td>')
        cells.append(f'<td style="{st.td};text-align:left">{_bar(p, top, st.bar_px)}</td>')
        if ordered:
            ge, le = tails[x]
            cells += [f'<td style="{st.td}">{decimal(ge)}</td>', f'<td style="{st.td}">{decimal(le)}</td>']
        body.append("<tr>" + "".join(cells) + "</tr>")
    head = "".join(f'<th style="{st.th}"' + (f' title="{tips[h]}"' if h in tips else "") + f">{h}</th>"
                   for h in heads)
    n = len(dist)
    caption = f"{n} outcome{'s' if n != 1 else ''}"
    if ordered:
        m = dist.mean()
        caption += f" &middot; mean {m}" + ("" if m.denominator == 1 else f" &asymp; {float(m):.4f}")
        v = dist.var()
        caption += " &middot; sd 0" if v == 0 else f" &middot; sd &asymp; {float(v) ** 0.5:.4f}"
    foot = ""
    if shortened:
        foot = (f'<tfoot><tr><td colspan="{width}" style="{st.gap};font-size:12px">long fractions '
                "shortened: hover for the exact value, or use <code>.to_fractions()</code></td></tr></tfoot>")
    if title:
        caption = f"<b>{html.escape(title)}</b> &middot; " + caption
    return (f'<table class="exactodds-dist" style="{_CSS_TABLE}">'
            f'<caption style="{_CSS_CAPTION}">{caption}</caption>'
            f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody>{foot}</table>")


def run_html(run: Any, max_rows: int = STAGE_ROWS) -> str:
    """Each stage of a pipeline run as a compact HTML table, side by side
    (wrapping on narrow screens), named after its step, in order. A certain
    start state is written in the heading instead of a one-row table."""
    stages = dict(run.stages)
    start = stages.get("start")
    heading = "Pipeline run"
    if start is not None and len(start) == 1 and len(stages) > 1:
        heading += f" from <b>{html.escape(outcome_label(start.support()[0]))}</b>"
        del stages["start"]
    names = " &rarr; ".join(html.escape(n) for n in stages)
    cells = "".join(
        f'<div style="margin:0 16px 8px 0">{dist_html(d, max_rows=max_rows, title=name, compact=True)}</div>'
        for name, d in stages.items()
    )
    return (f'<div class="exactodds-run"><div style="margin-bottom:4px">{heading}: {names}</div>'
            f'<div style="display:flex;flex-wrap:wrap;align-items:flex-start">{cells}</div></div>')


# ---------------------------------------------------------------- LaTeX
def _latex_text(s: str) -> str:
    """Escape text for ``\\text{...}``."""
    for a, b in (("\\", r"\backslash "), ("{", r"\{"), ("}", r"\}"), ("_", r"\_"), ("%", r"\%"),
                 ("&", r"\&"), ("#", r"\#"), ("$", r"\$"), ("^", r"\hat{}"), ("~", r"\sim ")):
        s = s.replace(a, b)
    return s


def outcome_latex(x: Any) -> str:
    """An outcome in LaTeX: integers as they are, anything else as text."""
    if isinstance(x, int) and not isinstance(x, bool):
        return str(x)
    if isinstance(x, Fraction):
        return rf"\frac{{{x.numerator}}}{{{x.denominator}}}" if x.denominator != 1 else str(x.numerator)
    return rf"\text{{{_latex_text(outcome_label(x))}}}"


def latex_table(rows: list[tuple[Any, str] | Gap], value_head: str, decimals: list[str] | None = None) -> str:
    """A LaTeX ``array`` of outcomes and their (already LaTeX) probabilities."""
    cols = "r|l" + ("|l" if decimals is not None else "")
    lines = [rf"x & {value_head}" + (r" & \approx" if decimals is not None else "") + r" \\ \hline"]
    for i, r in enumerate(rows):
        if isinstance(r, Gap):
            filler = r" & " if decimals is not None else ""
            lines.append(rf"\vdots & \text{{{r.count} more, total }} {decimal(r.p)}{filler} \\")
            continue
        x, value = r
        dec = f" & {decimals[i]}" if decimals is not None else ""
        lines.append(f"{outcome_latex(x)} & {value}{dec} \\\\")
    return r"\begin{array}{" + cols + "}" + " ".join(lines) + r"\end{array}"


def dist_latex(dist: Any, max_rows: int = MAX_ROWS) -> str:
    """The probabilities as a LaTeX array ``x | P(X = x) | decimal``, fractions
    typeset by sympy; long supports truncated as in :func:`dist_html`."""
    import sympy  # type: ignore[import-untyped,import-not-found,unused-ignore]

    rows: list = []
    decs = []
    for r in shown_rows(dist, max_rows):
        if isinstance(r, Gap):
            rows.append(r)
            decs.append("")
        else:
            x, p = r
            # \dfrac: full-size fractions inside the array (\frac would be script size)
            rows.append((x, sympy.latex(sympy.Rational(p.numerator, p.denominator)).replace(r"\frac", r"\dfrac")))
            decs.append(decimal(p))
    return r"$\displaystyle " + latex_table(rows, "P(X = x)", decs) + "$"


# ---------------------------------------------------------------- plots
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


def plot_dist(dist: Any, ax: Any = None, survival: bool = False, title: str | None = None,
              **bar_kwargs: Any) -> Any:
    """Bar chart of P(X = x), or with ``survival=True`` of P(X >= x); returns the Axes.

    Integer outcomes are placed at their values (gaps show); other outcomes
    are labelled bars in support order. ``bar_kwargs`` go to ``ax.bar``.
    """
    plt = _plt()
    ordered = _is_ordered(dist)
    if survival and not ordered:
        raise InputError("survival=True needs numeric outcomes (P(X >= x) needs an order); "
                         "plot a numeric marginal, e.g. dist.marginal('field').plot(survival=True)")
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 3.2))
    items = dist.items()
    if ordered:
        xs = [float(x) for x, _ in items]
        step = min((b - a for a, b in zip(xs, xs[1:])), default=1.0)
        bar_kwargs.setdefault("width", 0.8 * step)
    else:
        xs = list(range(len(items)))
        labels = [outcome_label(x) for x, _ in items]
        longest = max(map(len, labels))
        ax.set_xticks(xs, labels, rotation=30 if longest > 3 else 0,
                      ha="right" if longest > 3 else "center", fontsize=8 if longest > 12 else None)
    if survival:
        ys = [float(t[3] or 0) for t in table_rows(dist)]
        ax.set_ylabel("P(at least x)")
    else:
        ys = [float(p) for _, p in items]
        ax.set_ylabel("probability")
    bar_kwargs.setdefault("color", "#4c78a8")
    ax.bar(xs, ys, **bar_kwargs)
    if ordered and all(isinstance(x, int) for x in dist.support()):
        if len(xs) <= 12:  # few outcomes: a tick under each bar
            ax.set_xticks(xs, [str(x) for x in dist.support()])
        else:
            from matplotlib.ticker import MaxNLocator

            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
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
    return sorted(seen, key=_display_key)


def plot_dists(dists: list, labels: list[str] | None = None, ax: Any = None, cumulative: bool = False,
               title: str | None = None, xlabel: str | None = None) -> Any:
    """Several distributions on one chart (one alone is fine); returns the Axes.

    P(X = x) as bars side by side per outcome, or with ``cumulative`` P(X >= x)
    (numeric outcomes only): bars for one distribution, lines with a marker
    per outcome for several. Integer outcomes sit at their values with
    whole-number ticks (a tick per bar up to 12 outcomes); composite outcomes
    are labelled bars in display order (the :data:`PLOT_OUTCOMES` most
    probable when there are more). The y axis starts at 0; the legend (for
    several, from ``labels``) sits outside the plot, right of it, so it
    covers no bar. O(outcomes x series).
    """
    import textwrap

    if not dists:
        raise InputError("nothing to plot: give at least one distribution")
    if ax is None:
        _, ax = _plt().subplots(figsize=(7, 3.6))
    ordered = all(_is_ordered(d) for d in dists)
    if cumulative and not ordered:
        raise InputError("a cumulative plot (P(X >= x)) needs numeric outcomes; these are composite: "
                         "plot P(X = x) instead")
    outcomes = _union(dists)
    left_out = 0
    if not ordered and len(outcomes) > PLOT_OUTCOMES:
        top = {x: max(d.pmf(x) for d in dists) for x in outcomes}
        kept = set(sorted(outcomes, key=lambda x: -top[x])[:PLOT_OUTCOMES])
        left_out = len(outcomes) - len(kept)
        outcomes = [x for x in outcomes if x in kept]
    if ordered:
        xs = [float(x) for x in outcomes]
        step = min((b - a for a, b in zip(xs, xs[1:])), default=1.0)
    else:
        xs, step = [float(i) for i in range(len(outcomes))], 1.0
    n = len(dists)
    series = []
    for d in dists:
        if cumulative:
            tails = dict((x, t[3]) for x, t in zip(d.support(), table_rows(d)))
            # P(X >= x) at outcomes d lacks: the tail of its next outcome above
            ys, above = [], Fraction(0)
            for x in reversed(outcomes):
                above = tails.get(x, above)
                ys.append(float(above))
            series.append(ys[::-1])
        else:
            series.append([float(d.pmf(x)) for x in outcomes])
    lines = cumulative and n > 1
    for i, (ys, colour) in enumerate(zip(series, _SERIES_COLOURS * (n // len(_SERIES_COLOURS) + 1))):
        label = None if labels is None else textwrap.fill(labels[i], 40, break_on_hyphens=False, break_long_words=False)
        if lines:
            ax.plot(xs, ys, marker="o", ms=4, lw=1.4, color=colour, label=label)
        else:
            width = 0.8 * step / n
            ax.bar([x + (i - (n - 1) / 2) * width for x in xs], ys, width=width, color=colour, label=label)
    if ordered and all(isinstance(x, int) for x in outcomes):
        if len(outcomes) <= 12:
            ax.set_xticks(xs, [str(x) for x in outcomes])
        else:
            from matplotlib.ticker import MaxNLocator

            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    elif not ordered:
        names = [outcome_label(x) for x in outcomes]
        longest = max(map(len, names))
        ax.set_xticks(xs, names, rotation=30 if longest > 3 else 0, ha="right" if longest > 3 else "center",
                      fontsize=8 if longest > 12 else None)
    top_y = max(max(ys) for ys in series)
    ax.set_ylim(0, 1.05 if cumulative else (top_y * 1.1 if top_y > 0 else 1))
    ax.set_ylabel("P(at least x)" if cumulative else "probability")
    what = xlabel or "outcome"
    if left_out:
        what += f" (the {len(outcomes)} most probable; {left_out} less likely not shown)"
    ax.set_xlabel(what)
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    if labels is not None and n > 1:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, fontsize=9)
    if title:
        ax.set_title(textwrap.fill(title, 80, break_on_hyphens=False, break_long_words=False), fontsize=10)
    return ax


def save_figure(path: str, dists: list, labels: list[str] | None = None, cumulative: bool = False,
                title: str | None = None, xlabel: str | None = None) -> None:
    """Draw :func:`plot_dists` into a file, PNG, SVG or PDF by its suffix
    (:data:`PLOT_SUFFIXES`), with matplotlib's Agg renderer and no pyplot (no
    window, no change to the session's backend). An :class:`InputError` when
    matplotlib is missing, the suffix is another, or the file cannot be written."""
    suffix = str(path).rsplit(".", 1)[-1].lower() if "." in str(path) else ""
    if suffix not in PLOT_SUFFIXES:
        raise InputError(f"{path}: a plot is written as {', '.join(PLOT_SUFFIXES)} (by the file name's suffix)")
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise InputError("plotting needs matplotlib, which is not installed: pip install 'exactodds[plot]'") from None
    many = len(dists) > 1 and labels is not None
    fig = Figure(figsize=(8.5 if many else 7, 3.8), dpi=100)
    ax = fig.add_subplot()
    plot_dists(dists, labels, ax=ax, cumulative=cumulative, title=title, xlabel=xlabel)
    try:
        fig.savefig(path, format=suffix, bbox_inches="tight", dpi=120 if suffix == "png" else None)
    except OSError as e:
        raise InputError(f"{path}: cannot write the plot ({e.strerror or e})") from None


def plot_run(run: Any, key: Any = None, stages: list[str] | None = None, survival: bool = False,
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
        plot_dist(all_stages[name], ax=ax, title=name, survival=survival, **kwargs)
    for ax in flat[len(names):]:
        ax.set_visible(False)
    fig.tight_layout()
    return flat[: len(names)]


# --------------------------------------------------------------- pandas
def _pandas() -> Any:
    try:
        import pandas as pd  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError:
        raise InputError("to_pandas needs pandas, which is not installed: "
                         "pip install 'exactodds[notebook]' (or pip install pandas)") from None
    return pd


def dist_records(dist: Any) -> list[dict]:
    """One dict per outcome, columns as in the CLI's CSV: the outcome (one
    column per named-tuple field), ``p`` (exact Fraction), ``p_float``, and for
    numeric outcomes ``p_at_least`` and ``p_at_most`` (Fractions)."""
    fields = outcome_fields(dist)
    ordered = _is_ordered(dist)
    records = []
    below = Fraction(0)
    for x, p in dist.items():
        rec = dict(zip(fields, x)) if fields else {"outcome": x}
        rec["p"] = p
        rec["p_float"] = float(p)
        if ordered:
            below += p
            rec["p_at_least"] = 1 - below + p
            rec["p_at_most"] = below
        records.append(rec)
    return records


def dist_to_pandas(dist: Any) -> Any:
    """A DataFrame of :func:`dist_records` (needs pandas). ``p`` holds exact
    Fractions (object dtype); ``p_float`` is for plotting and sorting."""
    return _pandas().DataFrame(dist_records(dist))


def run_to_pandas(run: Any, key: Any = None) -> Any:
    """All stages in one long DataFrame: a ``stage`` column, then the columns of
    :func:`dist_records` (``key`` maps states first, as in :func:`plot_run`)."""
    stages = run.stages if key is None else run.marginals(key)
    rows = [{"stage": name, **rec} for name, d in stages.items() for rec in dist_records(d)]
    return _pandas().DataFrame(rows)
