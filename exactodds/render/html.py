"""HTML tables for Jupyter: a distribution, or a pipeline run stage by stage."""

from __future__ import annotations

import html
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .numbers import LONG_FRACTION, decimal
from .rows import (
    MAX_ROWS,
    STAGE_ROWS,
    Gap,
    is_ordered,
    outcome_fields,
    outcome_label,
    shown_rows,
)

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
    ordered = is_ordered(dist)
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
