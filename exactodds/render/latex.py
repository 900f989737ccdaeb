"""LaTeX arrays of outcomes and probabilities (Jupyter's ``_repr_latex_``);
the fractions are typeset by sympy, imported when a table is drawn."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from .numbers import decimal
from .rows import MAX_ROWS, Gap, outcome_label, shown_rows


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
