"""``Answer``: one exact answer to one query, and its renderings.

Every query command (CLI flags or a TOML query file) produces an
:class:`Answer`: the exact distribution, the query's inputs, optional
top-level figures (e.g. ``p_success``) and optional inspectable stages.
This module renders it as a table, JSON or CSV in the shape shared by every
command::

    {"query": {...}, "outcomes": [{"outcome": ..., "p": "n/d", "p_float": f}, ...],
     "mean": "n/d", ...extras}
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from .core import Dist
from .core.display import dist_text, outcome_label

FORMATS = ("table", "json", "csv")


def frac_str(p: Fraction | int) -> str:
    """A reduced fraction always written ``num/den`` (``"1/1"`` for one)."""
    p = Fraction(p)
    return f"{p.numerator}/{p.denominator}"


def jsonable(value: Any) -> Any:
    """Turn query inputs and outcomes into JSON values (named tuples become objects)."""
    if hasattr(value, "_asdict"):
        return {k: jsonable(v) for k, v in value._asdict().items()}
    if isinstance(value, Fraction):
        return frac_str(value)
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, Path):
        return str(value)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def _numeric(dist: Dist) -> bool:
    return all(isinstance(x, int) and not isinstance(x, bool) for x in dist.support())


@dataclass
class Answer:
    """An exact answer: ``dist`` plus the query that produced it.

    ``mean`` defaults to the mean of ``dist`` for integer outcomes; a
    command with composite outcomes may give its own (or ``None``).
    ``extras`` are extra top-level figures (exact fractions or plain values).
    """

    dist: Dist
    query: dict = field(default_factory=dict)
    extras: dict = field(default_factory=dict)
    mean: Fraction | None = None
    stages: dict[str, Dist] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.mean is None and _numeric(self.dist):
            self.mean = self.dist.mean()

    def to_json_obj(self) -> dict:
        """The shared JSON shape (a dict ready for :func:`json.dumps`)."""
        obj: dict = {"query": jsonable(self.query), "outcomes": []}
        for x, p in self.dist.items():
            obj["outcomes"].append({"outcome": jsonable(x), "p": frac_str(p), "p_float": float(p)})
        obj["mean"] = None if self.mean is None else frac_str(self.mean)
        for k, v in self.extras.items():
            obj[k] = jsonable(v)
        return obj

    def to_json(self) -> str:
        """JSON text in the shared shape."""
        return json.dumps(self.to_json_obj(), indent=2)

    def to_csv(self) -> str:
        """One row per outcome: outcome column(s), ``p``, ``p_float`` (and
        ``p_at_least`` for integer outcomes). Composite outcomes get one column
        per field, named as in the JSON."""
        buf = io.StringIO()
        items = self.dist.items()
        first = items[0][0]
        fields = list(first._asdict()) if hasattr(first, "_asdict") else ["outcome"]
        numeric = _numeric(self.dist)
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(fields + ["p", "p_float"] + (["p_at_least"] if numeric else []))
        above = Fraction(1)
        for x, p in items:
            values = list(x._asdict().values()) if hasattr(x, "_asdict") else [outcome_label(x)]
            row = values + [frac_str(p), repr(float(p))]
            if numeric:
                row.append(frac_str(above))
            above -= p
            writer.writerow(row)
        return buf.getvalue()

    def to_table(self) -> str:
        """A plain-text table for terminals, with the query and extras."""
        lines = []
        if self.query:
            lines.append("query: " + ", ".join(f"{k}={_show(v)}" for k, v in self.query.items() if v not in (None, (), [], False)))
        lines.append(dist_text(self.dist))
        if self.mean is not None:
            lines.append(f"mean: {frac_str(self.mean)} ~ {float(self.mean):.6f}")
        for k, v in self.extras.items():
            shown = f"{frac_str(v)} ~ {float(v):.6f}" if isinstance(v, Fraction) else _show(v, top=True)
            lines.append(f"{k}: {shown}")
        return "\n".join(lines)

    def render(self, fmt: str) -> str:
        """Render in one of :data:`FORMATS`."""
        return {"table": self.to_table, "json": self.to_json, "csv": self.to_csv}[fmt]()

    def _repr_html_(self) -> str:
        return self.dist._repr_html_()


def _show(v: Any, top: bool = False) -> str:
    """A value for the text table: mappings as ``k=v`` pairs (in parentheses when nested)."""
    if isinstance(v, dict):
        pairs = ", ".join(f"{k}={_show(x)}" for k, x in v.items())
        return pairs if top else f"({pairs})"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_show(x) for x in v) + "]"
    if isinstance(v, Fraction):
        return frac_str(v)
    return str(v)
