"""The figures a sweep writes for each query: the ``[report]`` table of a grid.

::

    [report]
    mean = true              # columns mean ("n/d") and mean_float
    var = true               # var, var_float
    at_least = [5]           # p_at_least_5, p_at_least_5_float: P(outcome >= 5)
    at_most = [0]            # p_at_most_0, p_at_most_0_float
    p_outcome = [3]          # p_outcome_3, p_outcome_3_float: P(outcome = 3)
    quantiles = [0.5, "9/10"]  # quantile_0.5, quantile_9/10: smallest x with P(<= x) >= q
    extras = ["p_success"]   # figures a command gives besides its distribution
    field = "casualties"     # for composite outcomes: the field the figures are about

Exact figures are reduced fractions written ``num/den``; each has a
``_float`` twin. Without a ``[report]`` table, the report is the mean.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from fractions import Fraction
from itertools import accumulate
from typing import TYPE_CHECKING, Any

from ..answer import frac_str, jsonable
from ..core import InputError
from ..tomlfiles import no_unknown_keys, optional

if TYPE_CHECKING:
    from ..answer import Answer
    from ..core import Dist

REPORT_KEYS = {"mean", "var", "at_least", "at_most", "p_outcome", "quantiles", "extras", "field"}


@dataclass(frozen=True)
class Report:
    """Which figures each row carries (see the module docstring for the columns)."""

    mean: bool = True
    var: bool = False
    at_least: tuple[int, ...] = ()
    at_most: tuple[int, ...] = ()
    p_outcome: tuple[Any, ...] = ()
    quantiles: tuple[tuple[str, Fraction], ...] = ()
    """``(label as written, q)`` pairs."""
    extras: tuple[str, ...] = ()
    field: str | None = None

    def columns(self) -> list[str]:
        """The figure columns, in order (after the parameter columns)."""
        cols: list[str] = []

        def exact(name: str) -> None:
            cols.extend([name, f"{name}_float"])

        if self.mean:
            exact("mean")
        if self.var:
            exact("var")
        for k in self.at_least:
            exact(f"p_at_least_{k}")
        for k in self.at_most:
            exact(f"p_at_most_{k}")
        for v in self.p_outcome:
            exact(f"p_outcome_{v}")
        cols.extend(f"quantile_{label}" for label, _ in self.quantiles)
        for name in self.extras:
            exact(name)
        return cols

    def figures(self, answer: Answer, what: str = "") -> dict[str, Any]:
        """The row's figures for one answer: ``{column: value}``.

        Cost: O(k) per figure for a distribution of k outcomes.
        """
        row: dict[str, Any] = {}

        def exact(name: str, p: Fraction) -> None:
            row[name] = frac_str(p)
            row[f"{name}_float"] = float(p)

        cache: list[Dist] = []
        table: list[Tails | Dist] = []

        def dist(numeric: bool = True) -> Dist:
            if not cache:
                cache.append(self._dist(answer, what))
            if numeric and not table:
                tails = Tails.of(cache[0])  # plain ints are numeric: no other check
                if tails is None:
                    _numeric(cache[0], what, self.field)
                table.append(tails or cache[0])
            return cache[0]

        def tails() -> Tails | Dist:
            """The numeric distribution, as a table of tails when its outcomes are ints."""
            dist()
            return table[0]

        if self.mean:
            given = answer.mean if self.field is None else None
            exact("mean", given if given is not None else dist().mean())
        if self.var:
            exact("var", dist().var())
        for k in self.at_least:
            exact(f"p_at_least_{k}", tails().at_least(k))
        for k in self.at_most:
            exact(f"p_at_most_{k}", tails().at_most(k))
        for v in self.p_outcome:
            exact(f"p_outcome_{v}", dist(numeric=False).pmf(v))
        for label, q in self.quantiles:
            row[f"quantile_{label}"] = jsonable(tails().ppf(q))
        for name in self.extras:
            if name not in answer.extras:
                raise InputError(f"{what}report.extras: {name!r} is not a figure of this command; it gives "
                                 f"{', '.join(answer.extras) or 'no extra figures'}")
            value = answer.extras[name]
            if isinstance(value, (Fraction, int)) and not isinstance(value, bool):
                exact(name, Fraction(value))
            else:
                row[name] = jsonable(value)
                row[f"{name}_float"] = float(value) if isinstance(value, float) else None
        return row

    def _dist(self, answer: Answer, what: str) -> Dist:
        if self.field is None:
            return answer.dist
        first = answer.dist.support()[0]
        fields = list(first._asdict()) if hasattr(first, "_asdict") else []
        if self.field not in fields:
            has = f"fields {', '.join(fields)}" if fields else "plain outcomes (remove report.field)"
            raise InputError(f"{what}report.field = {self.field!r}: the outcomes of this command have {has}")
        return answer.dist.marginal(self.field)


class Tails:
    """A distribution over plain ints with its outcomes sorted, for its tails.

    Built in O(k log k) for k outcomes (a C pass over their types and a C sort,
    already in order for most answers); :meth:`at_least` and :meth:`at_most`
    sum the shorter side of a bisection, :meth:`ppf` bisects a running sum built
    on first use: O(k) C-level additions at most, the same exact values as the
    :class:`Dist` methods.
    """

    __slots__ = ("outcomes", "weights", "total", "_cumulative")

    def __init__(self, outcomes: list[int], weights: dict[int, int], total: int) -> None:
        self.outcomes, self.weights, self.total = outcomes, weights, total
        self._cumulative: list[int] | None = None

    @classmethod
    def of(cls, dist: Dist) -> Tails | None:
        """The table of ``dist``, or ``None`` unless every outcome is a plain int."""
        weights = dist.weights()
        if set(map(type, weights)) != {int}:
            return None
        return cls(sorted(weights), weights, dist.denominator)

    def _below(self, i: int) -> int:
        """The weight of the ``i`` smallest outcomes."""
        if 2 * i <= len(self.outcomes):
            return sum(map(self.weights.__getitem__, self.outcomes[:i]))
        return self.total - sum(map(self.weights.__getitem__, self.outcomes[i:]))

    def at_least(self, x: int) -> Fraction:
        """P(X >= x)."""
        return Fraction(self.total - self._below(bisect_left(self.outcomes, x)), self.total)

    def at_most(self, x: int) -> Fraction:
        """P(X <= x)."""
        return Fraction(self._below(bisect_right(self.outcomes, x)), self.total)

    def ppf(self, q: Fraction) -> int:
        """The smallest outcome x with P(X <= x) >= q (``q`` from 0 to 1)."""
        if self._cumulative is None:
            self._cumulative = list(accumulate(map(self.weights.__getitem__, self.outcomes)))
        need = -(-q.numerator * self.total // q.denominator)  # the least whole weight w with w / total >= q
        return self.outcomes[min(bisect_left(self._cumulative, need), len(self.outcomes) - 1)]


def _numeric(dist: Dist, what: str, field: str | None) -> None:
    first = dist.support()[0]
    if isinstance(first, bool) or not isinstance(first, (int, Fraction)):
        fields = list(first._asdict()) if hasattr(first, "_asdict") else []
        hint = f"; set report.field to one of {', '.join(fields)}" if fields and field is None else ""
        raise InputError(f"{what}report: mean, var, at_least, at_most and quantiles need numeric outcomes, "
                         f"not {type(first).__name__} like {first!r}{hint}")


def _quantile(value: Any, source: str, i: int) -> tuple[str, Fraction]:
    where = f"{source}: report.quantiles[{i}] = {value!r}"
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise InputError(f"{where}: expected a number between 0 and 1 (e.g. 0.5) or a fraction like \"1/3\"")
    try:
        q = Fraction(str(value).strip())  # str() keeps a decimal exact: 0.1 -> 1/10
    except (ValueError, ZeroDivisionError):
        raise InputError(f"{where}: expected a number between 0 and 1 (e.g. 0.5) or a fraction like \"1/3\"") \
            from None
    if not 0 < q <= 1:
        raise InputError(f"{where}: must be more than 0 and at most 1")
    return str(value).strip(), q


def _list(table: dict, key: str, source: str, kinds: tuple[type, ...], what: str) -> tuple:
    values = optional(table, key, list, source, "report", default=[])
    for i, v in enumerate(values, 1):
        if isinstance(v, bool) and bool not in kinds or not isinstance(v, kinds):
            raise InputError(f"{source}: report.{key}[{i}] = {v!r}: expected {what}")
    if len({repr(v) for v in values}) != len(values):
        raise InputError(f"{source}: report.{key} lists a value twice")
    return tuple(values)


def parse_report(table: dict | None, source: str) -> Report:
    """Validate a ``[report]`` table (``None``: the default report, the mean)."""
    if table is None:
        return Report()
    no_unknown_keys(table, REPORT_KEYS, source, "report")
    quantiles = optional(table, "quantiles", list, source, "report", default=[])
    report = Report(
        mean=optional(table, "mean", bool, source, "report", default=False),
        var=optional(table, "var", bool, source, "report", default=False),
        at_least=_list(table, "at_least", source, (int,), "a whole number"),
        at_most=_list(table, "at_most", source, (int,), "a whole number"),
        p_outcome=_list(table, "p_outcome", source, (int, str, bool), "an outcome (a number or text)"),
        quantiles=tuple(_quantile(v, source, i) for i, v in enumerate(quantiles, 1)),
        extras=_list(table, "extras", source, (str,), "the name of a figure (text)"),
        field=optional(table, "field", str, source, "report"),
    )
    if not report.columns():
        raise InputError(f"{source}: report asks for no figures; set mean = true or give at_least, at_most, "
                         "p_outcome, quantiles or extras")
    if len(set(report.columns())) != len(report.columns()):
        raise InputError(f"{source}: report: two figures would have the same column name")
    return report
