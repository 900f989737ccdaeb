"""Points efficiency: what several questions' attacking units do per 100 points.

``per_points(q1, q2, ...)`` answers each question and divides its figures by
its attacking unit's points (the unit file's ``points``), times 100, as exact
fractions:

- mean casualties (for a vehicle target asked with ``--show wounds-lost``:
  mean Hull Points removed), and
- P(destroy): the probability that the target unit is wiped out.

The rows are ranked by the first figure per 100 points, best first. The
attacker is the question's ``attacker`` file (``40k6 fight``, ``assault``,
``fire``, ``hh3 shoot``); a question without one is refused.

Cost: the questions' own answers, then O(questions) fraction operations.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .answer import frac_str
from .commands import InputError, Query, check_compared
from .commands.rosters import attacker_points, efficiency_figures
from .render import figure_text

PER = 100
"""Figures are given per this many points."""


@dataclass(frozen=True)
class PointsRow:
    """One question: its label, command line, attacker file and points, and its figures."""

    label: str
    what: str
    attacker: str
    points: int
    figures: dict[str, Fraction]

    def per_points(self, name: str) -> Fraction:
        """A figure per :data:`PER` points: figure / points x 100 (exact)."""
        return self.figures[name] * PER / self.points


@dataclass(frozen=True)
class PerPoints:
    """Questions' figures per 100 points of their attackers, best first."""

    rows: list[PointsRow]

    def render(self, fmt: str, exact: bool = False) -> str:
        """``table``, ``json`` or ``csv``."""
        return {"table": lambda: self.to_table(exact), "json": self.to_json, "csv": self.to_csv}[fmt]()

    def to_table(self, exact: bool = False) -> str:
        """One block per question, in rank order: its points and each figure, whole and per 100 points."""
        out = [f"per {PER} points of the attacking unit (figure / points x {PER}), best first"]
        for rank, row in enumerate(self.rows, 1):
            out += ["", f"{rank}. {row.label}: {row.what}", f"   attacker: {row.attacker}, {row.points} points"]
            width = max(len(name) for name in row.figures)
            for name, value in row.figures.items():
                out.append(f"   {name:<{width}}  {figure_text(value, exact)}  "
                           f"->  per {PER} points: {figure_text(row.per_points(name), exact)}")
        return "\n".join(out) + "\n"

    def to_json_obj(self) -> dict:
        """``per_points`` and the ranked ``rows``: label, query, attacker, points, and per figure
        its ``value`` and ``per_100_points`` (exact ``num/den``, each with a ``_float`` twin)."""
        rows = []
        for row in self.rows:
            figures = {name: {"value": frac_str(v), "value_float": float(v),
                              "per_100_points": frac_str(row.per_points(name)),
                              "per_100_points_float": float(row.per_points(name))}
                       for name, v in row.figures.items()}
            rows.append({"label": row.label, "query": row.what, "attacker": row.attacker, "points": row.points,
                         "figures": figures})
        return {"per_points": PER, "rows": rows}

    def to_json(self) -> str:
        return json.dumps(self.to_json_obj(), indent=2) + "\n"

    def to_csv(self) -> str:
        """One row per question and figure, in rank order."""
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(["rank", "label", "query", "attacker", "points", "figure", "value", "value_float",
                         "per_100_points", "per_100_points_float"])
        for rank, row in enumerate(self.rows, 1):
            for name, v in row.figures.items():
                per = row.per_points(name)
                writer.writerow([rank, row.label, row.what, row.attacker, row.points, name, frac_str(v),
                                 repr(float(v)), frac_str(per), repr(float(per))])
        return buf.getvalue()

    def __str__(self) -> str:
        return self.to_table()


def per_points(*queries: Any, labels: list[str] | None = None) -> PerPoints:
    """Each question's figures per 100 points of its attacking unit, ranked by the first
    figure per 100 points (ties: in the order given). ``queries``: Query objects or
    query file paths."""
    check_compared(len(queries))  # before any query is read or answered
    items = [q if isinstance(q, Query) else Query.from_toml(q) for q in queries]
    if not items:
        raise InputError("--per-points needs at least one query")
    labels = labels or [f"q{i + 1}" for i in range(len(items))]
    rows = []
    for label, query in zip(labels, items):
        attacker, points = attacker_points(query)
        rows.append(PointsRow(label, query.command_line(), attacker, points,
                              efficiency_figures(query, query.answer())))
    first = [row.per_points(next(iter(row.figures))) for row in rows]
    order = sorted(range(len(rows)), key=lambda i: -first[i])
    return PerPoints([rows[i] for i in order])


__all__ = ["PER", "PerPoints", "PointsRow", "per_points"]
