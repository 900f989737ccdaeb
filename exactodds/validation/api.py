"""``validate(query_or_dist, samples)``: check a simulator against the exact answer."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from pathlib import Path
from typing import IO, Any

from ..core import Dist, InputError
from .distances import distances
from .family import FigureTest, adjust, unit_family
from .gof import STATISTICS, adjusted_residual, detectable_effect, fit
from .result import OutcomeRow, ValidationResult
from .outcomes import outcome_fields, outcome_text
from .samples import Samples, read_samples


def resolve_subject(query_or_dist: Any) -> tuple[Dist, str, Any]:
    """``(exact distribution, description, answer)`` from a Dist, an Answer, a Query or a
    query file path (``answer`` is None for a Dist)."""
    from ..answer import Answer
    from ..commands import Query

    if isinstance(query_or_dist, Dist):
        return query_or_dist, "the given exact distribution", None
    if isinstance(query_or_dist, Answer):
        q = ", ".join(f"{k}={v}" for k, v in query_or_dist.query.items())
        return query_or_dist.dist, f"the answer ({q})" if q else "the given answer", query_or_dist
    if isinstance(query_or_dist, (str, Path)):
        query_or_dist = Query.from_toml(query_or_dist)
    if isinstance(query_or_dist, Query):
        described = query_or_dist.command_line()
        if query_or_dist.source:
            described = f"{query_or_dist.source} ({described})"
        answer = query_or_dist.answer()
        return answer.dist, described, answer
    raise InputError(f"validate needs a Dist, an Answer, a Query or the path of a query file, "
                     f"not {type(query_or_dist).__name__}")


def as_samples(samples: Any, dist: Dist, fmt: str = "auto", progress: bool = False) -> Samples:
    """Samples from a path, an open file, ``{outcome: count}``, a list of outcomes, or Samples."""
    if isinstance(samples, Samples):
        if samples.dist != dist:
            raise InputError("these Samples were counted against another distribution; read them again "
                             "with read_samples(path, dist)")
        return samples
    if isinstance(samples, (str, Path)) or hasattr(samples, "read"):
        return read_samples(samples, dist, fmt, progress)
    if isinstance(samples, Mapping):
        return Samples.from_counts(samples, dist)
    if isinstance(samples, Iterable):
        out = Samples.from_outcomes(samples, dist)
        if out.n == 0:
            raise InputError("no samples")
        return out
    raise InputError(f"samples must be a file path, an open file, {{outcome: count}} or a list of outcomes, "
                     f"not {type(samples).__name__}")


def validate(query_or_dist: Any, samples: str | Path | IO[str] | Mapping | Iterable | Samples,
             alpha: float = 0.05, statistic: str = "pearson", fmt: str = "auto",
             progress: bool = False) -> ValidationResult:
    """Do ``samples`` agree with the exact distribution of ``query_or_dist``?

    ``query_or_dist``: a :class:`~exactodds.core.Dist`, an Answer, a
    :class:`~exactodds.commands.Query` or the path of a TOML query file.
    ``samples``: a CSV or JSON lines file (path or open file, see
    :func:`read_samples`), ``{outcome: count}``, or a list of outcomes.
    ``statistic``: ``"pearson"`` or ``"g"`` for the chi-square family.

    Returns a :class:`ValidationResult` (its ``consistent`` is the verdict
    at ``alpha``; it prints as a report and displays as HTML in Jupyter).
    For an engagement (an answer declaring two units or more: an assault, a
    fight, a scenario), each unit's marginal and headline figures are tested
    too, the whole family corrected by Holm's method (:mod:`.family`); the
    verdict names the figures that depart.
    """
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not 0 < alpha < 1:
        raise InputError(f"alpha must be a number between 0 and 1 (e.g. 0.05), not {alpha!r}")
    if statistic not in STATISTICS:
        raise InputError(f"statistic {statistic!r} is not known; use {' or '.join(STATISTICS)}")
    dist, subject, answer = resolve_subject(query_or_dist)
    got = as_samples(samples, dist, fmt, progress)
    result_fit = fit(got, statistic, confidence=1 - alpha)
    n = got.n_possible
    fields = outcome_fields(dist)
    pooled_label = {}
    for cell in result_fit.pooled:
        for x in cell.outcomes:
            pooled_label[x] = cell.label
    rows = [OutcomeRow(x, outcome_text(x, fields), p, got.observed(x), float(p * n),
                       adjusted_residual(got.observed(x), n, p), pooled_label.get(x)) for x, p in dist.items()]
    rows.sort(key=lambda r: -abs(r.residual))
    impossible_rows = [OutcomeRow(i.value if i.value is not None else i.label, i.label, Fraction(0),
                                  i.count, 0.0, float("inf"), None, i.first_line) for i in got.impossible]
    detectable = None
    if result_fit.tests and n and len(dist) > 1:
        df = max(1, result_fit.cells - 1)
        detectable = detectable_effect(n, df, alpha / len(result_fit.tests))
    family, skipped = unit_family(answer, got, statistic, 1 - alpha)
    if family:
        family = [FigureTest("joint outcomes", None, t) for t in result_fit.tests] + family
        adjust(family, alpha)
    return ValidationResult(subject, dist, got, float(alpha), result_fit, impossible_rows + rows,
                            distances(dist, got), detectable, family, skipped)
