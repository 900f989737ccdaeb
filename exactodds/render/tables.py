"""Plain-text tables and one-line reprs, for terminals and ``print``."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..core.labels import Labelled
from .numbers import decimal, fraction_text, probability_cell
from .rows import TABLE_ROWS, Gap, is_ordered, outcome_fields, outcome_label, shown_rows


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
    ordered = is_ordered(dist)
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
    if is_ordered(dist):
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
