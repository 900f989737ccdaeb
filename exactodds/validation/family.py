"""A family of tests for engagement answers: each unit and headline figure on its own.

An engagement's answer (an assault, a fight, a scenario) is a joint distribution
over outcomes holding every unit's figures side by side, often hundreds of
them, most rare. One test over the joint outcomes has little power against a
bug that moves a single unit's figures, and does not say which. So, besides the
joint test, :func:`unit_family` tests, for every unit the answer declares
(:mod:`exactodds.units`):

- its marginal: the models left (the same tests as a one-figure answer: the
  pooled chi-square, or the exact multinomial test for few samples), and its
  status when it has one;
- its headline figures: P(destroyed), P(falling back), P(swept) (each the exact
  binomial test, :func:`scipy.stats.binomtest`), and its mean models left (the
  z-test of the sample mean against the exact mean and variance).

The exact marginals are those of :func:`exactodds.units.marginal` and
:func:`exactodds.units.status`; a sample's unit figures are read with the same
map (:func:`exactodds.units.unit_count`).

The tests of one family are corrected together by Holm's step-down method
(Holm-Bonferroni; :func:`holm`), which keeps the chance of any false alarm at
most alpha, like Bonferroni, and rejects at least as often.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..units import UnitFields, Units, marginal, status, unit_count
from .gof import TestResult, binomial_test, fit
from .samples import Samples

HEADLINE_STATUSES = ("falling back", "swept")
"""Statuses whose chance is tested on its own (besides P(destroyed)) when a unit has them."""


@dataclass
class FigureTest:
    """One test of the family: the figure it tests, and its Holm-adjusted p-value."""

    figure: str
    """What is tested, for people: ``"defender models left"``, ``"P(defender destroyed)"``."""
    unit: str | None
    """The unit (``None``: the joint outcomes)."""
    test: TestResult
    adjusted: float = 1.0
    """The p-value adjusted for the whole family (Holm)."""
    rejected: bool = False

    def to_json_obj(self) -> dict:
        """A JSON-ready dict: the figure, its unit, the test's fields, the adjusted p-value and verdict."""
        return {"figure": self.figure, "unit": self.unit, **self.test.to_json_obj(),
                "p_adjusted": self.adjusted, "rejected": self.rejected}


def holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given.

    Sorted ascending ``p(1) <= ... <= p(m)``, the adjusted ``p(i)`` is
    ``max over j <= i of min(1, (m - j + 1) p(j))`` (statsmodels'
    ``multipletests(method="holm")``; scipy has no Holm). Rejecting where the
    adjusted p-value is at most alpha keeps the family's false-alarm rate at most
    alpha. O(m log m).
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    out = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        out[i] = running
    return out


def adjust(family: list[FigureTest], alpha: float) -> None:
    """Fill in each test's Holm-adjusted p-value and verdict at ``alpha``. O(m log m)."""
    for t, p in zip(family, holm([t.test.p_value for t in family])):
        t.adjusted = p
        t.rejected = p <= alpha


def _observed(samples: Samples, key: Callable[[Any], Any]) -> dict[Any, int]:
    """The samples' counts of each value of ``key(outcome)``. O(outcomes)."""
    out: dict[Any, int] = {}
    for x, c in samples.counts.items():
        v = key(x)
        out[v] = out.get(v, 0) + c
    return out


def _what(unit: UnitFields) -> str:
    """What the unit's count is called in a figure's name: ``"models left"``, ``"Hull Points left"``."""
    return unit.what or ("models left" if unit.left else "count")


def _unit_tests(name: str, unit: UnitFields, answer: Any, samples: Samples, statistic: str,
                confidence: float) -> list[FigureTest]:
    """The tests of one unit: its marginal, its status, its headline figures. O(outcomes)."""
    out = []
    what = _what(unit)
    left = marginal(answer.dist, answer.stages, unit)
    counted = _observed(samples, unit_count(unit))
    left_fit = fit(Samples(left, counted, source=samples.source), statistic, confidence)
    for t in left_fit.tests:
        figure = f"{name} mean {what}" if t.name == "mean z-test" else f"{name} {what}"
        out.append(FigureTest(figure, name, t))
    n = samples.n_possible
    count = unit_count(unit)
    events: list[frozenset] = []  # a headline figure is tested once per event (swept may be destroyed)

    def headline(label: str, event: frozenset, word: str, said: str) -> None:
        p = answer.dist.prob(event.__contains__)
        if event in events or not 0 < p < 1:
            return
        events.append(event)
        seen = sum(samples.observed(x) for x in event)
        out.append(FigureTest(label, name, binomial_test(
            seen, n, p, f"{name} {word}", f"a headline figure: the count of samples with {said} is exactly "
            f"Binomial({n:,}, p)", confidence)))

    if unit.left:
        headline(f"P({name} destroyed)", frozenset(x for x in answer.dist.support() if count(x) == 0),
                 "destroyed", f"no {what}")
    st = status(answer.dist, answer.stages, unit)
    key = unit.status
    if st is not None and key is not None and len(st) > 1:
        seen = _observed(samples, lambda x: getattr(x, key))
        st_fit = fit(Samples(st, seen, source=samples.source), statistic, confidence)
        out.extend(FigureTest(f"{name} status", name, t) for t in st_fit.tests)
        for word in st.support():
            if str(word) in HEADLINE_STATUSES:
                headline(f"P({name} {word})", frozenset(x for x in answer.dist.support()
                                                         if getattr(x, key) == word), str(word),
                         f"{name} {word}")
    return out


def unit_family(answer: Any, samples: Samples, statistic: str = "pearson",
                confidence: float = 0.95) -> tuple[list[FigureTest], list[str]]:
    """The tests of every unit of a composite ``answer`` (:attr:`~exactodds.answer.Answer.units`),
    and the names of the units left out (counted at another stage than the joint
    outcomes, so the samples do not hold them). Not yet adjusted (see :func:`adjust`).
    O(units x outcomes)."""
    units: Units | None = getattr(answer, "units", None)
    if units is None or len(units.fields) < 2 or not samples.n_possible:
        return [], []
    out: list[FigureTest] = []
    skipped = []
    for name, unit in units.fields.items():
        if unit.stage is not None:
            skipped.append(name)
            continue
        out.extend(_unit_tests(name, unit, answer, samples, statistic, confidence))
    return out, skipped

