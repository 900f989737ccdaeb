"""``ValidationResult``: the verdict on a simulator's samples, explained.

Rendered as text (terminal), JSON (programs) and HTML (Jupyter). Written
for the simulator's author: the verdict first, then the test used and why,
then each outcome's observed and expected counts with standardised
residuals, worst first, so the bug's trace is at the top.
"""

from __future__ import annotations

import html
import json
import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..core import Dist
from .family import FigureTest
from .gof import Cell, Fit, TestResult, adjusted_residual, is_ordered, simplest_fraction
from .outcomes import outcome_fields, written_value
from .samples import ImpossibleOutcome, Samples

MAX_TEXT_ROWS = 20
"""Outcome rows shown in the text and HTML tables (worst first); JSON has them all."""

MAX_HINT_DENOMINATOR = 1296
"""A rejected two-outcome test names the simplest fraction in the confidence interval when its
denominator is at most this (6^4: the chances of dice rules)."""

NOTE_RESIDUAL = 2.0
"""Rows with a standardised residual at least this large are marked too many / too few."""

MAX_NAMED = 3
"""An engagement's rejected headline names at most this many figures (the table has them all)."""

DISTANCE_NAMES = {"total_variation": "total variation", "ks": "Kolmogorov-Smirnov",
                  "cramer_von_mises": "Cramér-von Mises"}


def _frac(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def _prob(p: Fraction) -> str:
    """An exact probability if short enough to read, else ``~`` and 4 significant digits."""
    text = "0" if p == 0 else _frac(p)
    return text if len(text) <= 15 else f"~{float(p):.4g}"


def _num(x: float) -> str:
    if x == 0:
        return "0"
    if abs(x) < 1e-3 or abs(x) >= 1e6:
        return f"{x:.3g}"
    return f"{x:.4g}"


def _stat(x: float) -> str:
    """A test statistic: a count in full (``16,780``), else as :func:`_num`."""
    return f"{x:,.0f}" if x.is_integer() and abs(x) > 1 else _num(x)


def _equals(p: float) -> str:
    """``= 0.0123`` or ``< 1e-300``: a p-value after its name."""
    text = _pval(p)
    return text if text.startswith("<") else f"= {text}"


def _pval(p: float) -> str:
    return "< 1e-300" if p < 1e-300 else (f"{p:.3g}" if p < 1e-3 else f"{p:.4f}")


@dataclass
class OutcomeRow:
    """One outcome: exact probability, observed and expected counts, residual."""

    outcome: Any
    label: str
    p: Fraction
    observed: int
    expected: float
    residual: float
    pooled_in: str | None = None
    first_line: int | None = None

    @property
    def impossible(self) -> bool:
        """Seen in the samples but of probability 0."""
        return self.p == 0 and self.observed > 0

    @property
    def ratio(self) -> float | None:
        """Observed over expected (None when nothing is expected)."""
        return self.observed / self.expected if self.expected else None

    def note(self) -> str:
        """``too many (1.98x)``, ``too few (0.91x)`` (when ``|residual| >= 2``) or ``impossible``."""
        if self.impossible:
            where = f", first at line {self.first_line}" if self.first_line else ""
            return f"IMPOSSIBLE (probability 0{where})"
        if self.ratio is None or abs(self.residual) < NOTE_RESIDUAL:
            return ""
        word = "too many" if self.observed > self.expected else "too few"
        return f"{word} ({self.ratio:.3g}x)"

    def to_json_obj(self) -> dict:
        """A JSON-ready dict."""
        from ..answer import jsonable

        return {"outcome": jsonable(self.outcome), "p": _frac(self.p), "observed": self.observed,
                "expected": self.expected,
                "residual": None if math.isinf(self.residual) else self.residual,
                "impossible": self.impossible, "pooled_in": self.pooled_in}


@dataclass
class ValidationResult:
    """The outcome of :func:`~exactodds.validation.validate`.

    ``consistent`` is the verdict at ``alpha``; ``exit_code`` is what the
    CLI returns (0 consistent, 1 rejected). ``rows`` are the outcomes, worst
    (largest absolute standardised residual) first, impossible ones on top.
    """

    subject: str
    dist: Dist
    samples: Samples
    alpha: float
    fit: Fit
    rows: list[OutcomeRow]
    distances: dict[str, Fraction] = field(default_factory=dict)
    detectable_w: float | None = None
    family: list[FigureTest] = field(default_factory=list)
    """For an engagement: the joint test, each unit's marginal and headline figures,
    with Holm-adjusted p-values (:mod:`.family`); empty for a one-figure answer."""
    skipped_units: list[str] = field(default_factory=list)
    """Units of the answer counted at another stage than its outcomes (not tested)."""

    # ------------------------------------------------------------ verdict
    @property
    def n(self) -> int:
        """The number of samples."""
        return self.samples.n

    @property
    def tests(self) -> list[TestResult]:
        """The tests run (on the possible outcomes)."""
        return self.fit.tests

    @property
    def pooled(self) -> list[Cell]:
        """Cells of the chi-square test that pool several outcomes."""
        return self.fit.pooled

    @property
    def impossible(self) -> list[ImpossibleOutcome]:
        """Outcomes seen that the exact distribution never gives."""
        return self.samples.impossible

    @property
    def level(self) -> float:
        """The level each test is held to: alpha over the number of tests (Bonferroni; with a
        :attr:`family`, the level of Holm's first step, which the smallest p-value is held to)."""
        return self.alpha / max(1, len(self.family) or len(self.tests))

    @property
    def p_value(self) -> float:
        """The smallest p-value of the tests (with a :attr:`family`, the smallest Holm-adjusted
        one; 0 when an impossible outcome was seen)."""
        if self.samples.n_impossible:
            return 0.0
        if self.family:
            return min(t.adjusted for t in self.family)
        return min((t.p_value for t in self.tests), default=1.0)

    @property
    def departing(self) -> list[FigureTest]:
        """The family's rejected tests, smallest adjusted p-value first."""
        return sorted((t for t in self.family if t.rejected), key=lambda t: t.adjusted)

    @property
    def consistent(self) -> bool:
        """True when no impossible outcome was seen and every test's p-value is above :attr:`level`
        (with a :attr:`family`: no Holm-adjusted p-value at most alpha)."""
        if self.family:
            return not self.samples.n_impossible and not self.departing
        return not self.samples.n_impossible and all(t.p_value > self.level for t in self.tests)

    @property
    def rejected(self) -> bool:
        """The opposite of :attr:`consistent`."""
        return not self.consistent

    @property
    def verdict(self) -> str:
        """``"consistent"`` or ``"rejected"``."""
        return "consistent" if self.consistent else "rejected"

    @property
    def exit_code(self) -> int:
        """0 consistent, 1 rejected (the CLI's exit status)."""
        return 0 if self.consistent else 1

    def mean_observed(self) -> Fraction | None:
        """The samples' mean over possible outcomes (ordered outcomes only)."""
        n = self.samples.n_possible
        if not is_ordered(self.dist) or not n:
            return None
        return Fraction(sum(x * c for x, c in self.samples.counts.items()), n)

    # -------------------------------------------------------- explanation
    def headline(self) -> str:
        """One sentence: the verdict and its main reason."""
        if self.samples.n_impossible:
            kinds = self.samples.impossible
            names = ", ".join(f"{i.label} ({i.count:,}x" + (f", first at line {i.first_line})" if i.first_line else ")")
                              for i in kinds[:5])
            more = f" and {len(kinds) - 5 + (1 if self.samples.impossible_more else 0)} more" if (
                len(kinds) > 5 or self.samples.impossible_more) else ""
            return (f"REJECTED: {self.samples.n_impossible:,} of {self.n:,} samples are outcomes the rule never "
                    f"gives (probability 0): {names}{more}. No test needed: a correct simulator never produces them.")
        p = _pval(self.p_value)
        if self.family:
            return self._family_headline(p)
        if self.consistent:
            return (f"consistent at alpha = {self.alpha:g}: no departure from the exact distribution detected "
                    f"(smallest p-value {p})")
        return (f"REJECTED at alpha = {self.alpha:g}: the samples do not follow the exact distribution "
                f"(p-value {p}{self._bonferroni_note()})")

    def _family_headline(self, p: str) -> str:
        """The headline of an engagement: the figures that depart, by name."""
        m = len(self.family)
        if self.consistent:
            return (f"consistent at alpha = {self.alpha:g}: no departure from the exact distribution detected "
                    f"in {m} tests of the joint outcomes, each unit and its headline figures (smallest "
                    f"Holm-adjusted p-value {p})")
        departing = self.departing
        named = "; ".join(f"{t.figure}: p {_equals(t.adjusted)}, rejected" for t in departing[:MAX_NAMED])
        more = f"; and {len(departing) - MAX_NAMED} more figures" if len(departing) > MAX_NAMED else ""
        return f"REJECTED at alpha = {self.alpha:g}: {named}{more} (Holm-adjusted p-values over {m} tests)"

    def _bonferroni_note(self) -> str:
        m = len(self.tests)
        return f", below alpha/{m} = {self.level:g}" if m > 1 else ""

    def advice(self) -> list[str]:
        """What the simulator's author should look at, in plain sentences."""
        out = []
        if self.samples.n_impossible:
            out.append("Find where your simulator can produce the outcomes named above: under the rule they "
                       "cannot happen at all (look at the first line given).")
        if self.consistent:
            if self.detectable_w is not None:
                text = (f"With {self.samples.n_possible:,} samples these tests detect, 4 times in 5, a departure "
                        f"of effect size w = {self.detectable_w:.3g} or more (Cohen's w = sqrt(sum (q - p)^2 / p))")
                if len(self.dist) == 2:
                    x, p = self.dist.items()[1]
                    shift = self.detectable_w * math.sqrt(float(p * (1 - p)))
                    text += (f", i.e. the probability of outcome {self.rows_by_outcome()[x].label} off by about "
                             f"±{shift:.2g}")
                out.append(text + ". Smaller bugs need more samples (docs/validating.md, power).")
            return out
        if self.samples.n_impossible and all(t.p_value > self.level for t in self.tests):
            return out
        worst = [r for r in self.rows if not r.impossible and abs(r.residual) >= 3][:3]
        if worst:
            parts = [f"{r.label} comes up {r.ratio:.3g}x as often as it should ({r.observed:,} seen, "
                     f"{r.expected:,.1f} expected, residual {r.residual:+.1f})" for r in worst if r.ratio is not None]
            out.append("Largest departures: " + "; ".join(parts) + ".")
        hint = self._chance_hint() or self._trial_hint()
        if hint:
            out.append(hint)
        out.extend(self._field_departures())
        mean = self.mean_observed()
        if mean is not None and len(self.dist) > 2:
            exact = self.dist.mean()
            if mean != exact:
                direction = "lower" if mean < exact else "higher"
                out.append(f"Your samples' mean is {float(mean):.5g}, {direction} than the exact mean "
                           f"{_frac(exact)} ~ {float(exact):.5g}: the simulator gives "
                           f"{'too little' if mean < exact else 'too much'} on average (a missing or extra "
                           "reroll, modifier or target number shifts the mean).")
        if self.pooled:
            out.append("Outcomes pooled for the chi-square test are still listed one by one; their residuals "
                       "rest on small expected counts.")
        return out

    def _ci_text(self, t: TestResult) -> str:
        n = self.samples.n_possible
        freq = (t.statistic or 0) / n if n else 0.0
        assert t.ci is not None  # only binomial tests, which have an interval, are described so
        return (f"frequency in the samples {freq:.5g}; {100 * (1 - self.alpha):g}% confidence interval of "
                f"the simulator's chance {t.ci[0]:.5g} to {t.ci[1]:.5g} (Clopper-Pearson)")

    def _chance_hint(self) -> str | None:
        """For a rejected binomial test: the simplest fraction the simulator's chance may be."""
        t = next((t for t in self.tests if t.ci is not None), None)
        if t is None or t.ci is None or t.p_value > self.level:
            return None
        guess = simplest_fraction(*t.ci)
        if guess.denominator > MAX_HINT_DENOMINATOR:
            return None
        label = t.statistic_name.removeprefix("count of ")
        exact = next((p for x, p in self.dist.items() if self.rows_by_outcome()[x].label == label), None)
        if exact is None:
            return None
        return (f"The samples show {label} with a chance between {t.ci[0]:.4g} and {t.ci[1]:.4g} "
                f"({100 * (1 - self.alpha):g}% confidence), not the exact {_frac(exact)} ~ {float(exact):.4g}; "
                f"the simplest fraction in that interval is {_frac(guess)}: is that the chance your simulator "
                "computes?")

    def trials(self) -> tuple[int, Fraction] | None:
        """``(n, p)`` when the exact distribution is Binomial(n, p) with n >= 2
        (successes among n independent trials of one chance p), else None."""
        if not is_ordered(self.dist) or len(self.dist) < 3:
            return None
        support = self.dist.support()
        n = support[-1]
        if support[0] != 0 or not isinstance(n, int) or len(support) != n + 1:
            return None
        p = self.dist.mean() / n
        return (n, p) if self.dist == Dist.binomial(n, p) else None

    def _trial_hint(self) -> str | None:
        """For a rejected binomial answer (several outcomes): the per-trial chance the
        samples show (successes over trials, with its Clopper-Pearson interval) and
        the simplest fraction in that interval."""
        from .stats import clopper_pearson

        trials = self.trials()
        mean = self.mean_observed()
        if trials is None or mean is None:
            return None
        n, p = trials
        count = self.samples.n_possible * n
        successes = int(mean * self.samples.n_possible)
        lo, hi = clopper_pearson(successes, count, 1 - self.alpha)
        if lo <= p <= hi:
            return None
        guess = simplest_fraction(lo, hi)
        if guess.denominator > MAX_HINT_DENOMINATOR:
            return None
        return (f"The exact answer is the successes of {n} independent trials of chance {_frac(p)} "
                f"(Binomial({n}, {_frac(p)})). Your samples show {successes:,} successes in {count:,} trials: "
                f"a per-trial chance between {lo:.4g} and {hi:.4g} ({100 * (1 - self.alpha):g}% confidence), "
                f"not {_frac(p)} ~ {float(p):.4g}; the simplest fraction in that interval is {_frac(guess)}: "
                "is that the per-trial chance your simulator computes?")

    def _field_departures(self) -> list[str]:
        """For composite outcomes: each field's values that depart most (|residual| >= 3)."""
        fields = outcome_fields(self.dist)
        n = self.samples.n_possible
        if fields is None or not n:
            return []
        out = []
        for name in fields:
            exact: dict[Any, Fraction] = {}
            seen: dict[Any, int] = {}
            for x, p in self.dist.items():
                v = getattr(x, name)
                exact[v] = exact.get(v, Fraction(0)) + p
                seen[v] = seen.get(v, 0) + self.samples.observed(x)
            worst = sorted(((adjusted_residual(seen[v], n, p), v, p) for v, p in exact.items()),
                           key=lambda t: -abs(t[0]))
            parts = [f"{written_value(v)} {seen[v]:,} seen, {float(p * n):,.1f} expected ({r:+.1f})"
                     for r, v, p in worst[:3] if abs(r) >= 3]
            if parts:
                out.append(f"By {name}: " + "; ".join(parts) + ".")
        return out

    def rows_by_outcome(self) -> dict[Any, OutcomeRow]:
        """Rows keyed by outcome."""
        return {r.outcome: r for r in self.rows}

    # ------------------------------------------------------------ renders
    def to_text(self) -> str:
        """The report for a terminal (``exactodds validate``)."""
        lines = [f"validation of {self.n:,} samples from {self.samples.source}",
                 f"against {self.subject}",
                 "",
                 f"verdict: {self.headline()}"]
        for t in self.tests:
            lines.append("")
            lines.append(f"test: {t.name} ({t.function})")
            lines.append(f"  why: {t.why}")
            figures = []
            if t.statistic is not None:
                stat = f"{t.statistic:,.0f}" if t.statistic.is_integer() and abs(t.statistic) > 1 else _num(t.statistic)
                figures.append(f"{t.statistic_name} = {stat}")
            if t.df is not None:
                figures.append(f"degrees of freedom {t.df}")
            figures.append(f"p-value {_pval(t.p_value)}")
            lines.append("  " + ", ".join(figures))
            if t.ci is not None:
                lines.append("  " + self._ci_text(t))
        if self.pooled:
            lines.append("pooled for the test: " + "; ".join(c.describe(12) for c in self.pooled))
        if self.family:
            lines.extend(self._family_lines())
        elif len(self.tests) > 1:
            lines.append(f"verdict rule: rejected when a p-value is at most alpha / {len(self.tests)} = "
                         f"{self.level:g} (Bonferroni over {len(self.tests)} tests, so false alarms stay at "
                         f"most {self.alpha:g})")
        if self.samples.n_impossible and self.tests:
            lines.append(f"(the tests above use the {self.samples.n_possible:,} samples with possible outcomes)")
        lines.append("")
        lines.append("outcomes, worst first (residual = (observed - expected) / sqrt(n p (1 - p)), about "
                     "standard normal when the samples agree: beyond ±3 is rare):")
        lines.extend(self._table_lines())
        mean = self.mean_observed()
        if mean is not None:
            exact = self.dist.mean()
            lines.append("")
            lines.append(f"mean: samples {float(mean):.6g}, exact {_frac(exact)} ~ {float(exact):.6g}")
        if self.distances:
            lines.append("distances to the exact distribution: " + ", ".join(
                f"{DISTANCE_NAMES.get(k, k)} {_num(float(v))}" for k, v in self.distances.items()))
        advice = self.advice()
        if advice:
            lines.append("")
            lines.extend(f"note: {a}" for a in advice)
        return "\n".join(lines)

    def _family_lines(self) -> list[str]:
        """The family's table: each figure, its test, p-value, Holm-adjusted p-value and verdict."""
        m = len(self.family)
        head = ["figure", "test", "statistic", "p-value", "adjusted", ""]
        body = [[t.figure, t.test.name, "" if t.test.statistic is None else
                 f"{t.test.statistic_name.split(' ')[0]} = {_stat(t.test.statistic)}",
                 _pval(t.test.p_value), _pval(t.adjusted), "REJECTED" if t.rejected else "ok"]
                for t in self.family]
        widths = [max(len(x[i]) for x in [head] + body) for i in range(6)]
        lines = ["", f"tests of the joint outcomes, of each unit (its marginal: models left, status) and of "
                 f"its headline figures (P(destroyed), P(falling back), P(swept), mean models left), "
                 f"corrected together by Holm's method (Holm-Bonferroni over {m} tests: a figure is "
                 f"rejected when its adjusted p-value is at most alpha = {self.alpha:g}, so false alarms "
                 f"stay at most {self.alpha:g}):"]
        lines += ["  " + "  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in [head] + body]
        if self.skipped_units:
            lines.append(f"not tested on their own (counted at another stage than the outcomes): "
                         f"{', '.join(self.skipped_units)}")
        return lines

    def _family_html(self, color: str) -> str:
        """The family's table as HTML (see :meth:`_family_lines`)."""
        head = "".join(f'<th style="text-align:left;padding:2px 8px;border-bottom:2px solid #888">{h}</th>'
                       for h in ("figure", "test", "statistic", "p-value", "adjusted (Holm)", ""))
        return ('<table style="border-collapse:collapse;margin:6px 0"><caption style="text-align:left">each unit '
                f"and headline figure, Holm-adjusted over {len(self.family)} tests</caption><thead><tr>{head}"
                "</tr></thead><tbody>" + "".join(_family_rows_html(self.family, color)) + "</tbody></table>")

    def _table_lines(self) -> list[str]:
        rows = self.rows[:MAX_TEXT_ROWS]
        head = ["outcome", "probability", "observed", "expected", "residual", ""]
        body = [[r.label, _prob(r.p), f"{r.observed:,}", f"{r.expected:,.1f}",
                 "impossible" if r.impossible else f"{r.residual:+.2f}",
                 r.note() + (f"  [pooled: {r.pooled_in}]" if r.pooled_in else "")] for r in rows]
        widths = [max(len(x[i]) for x in [head] + body) for i in range(5)]
        out = ["  ".join(h.rjust(w) for h, w in zip(head[:5], widths))]
        for b in body:
            out.append(("  ".join(c.rjust(w) for c, w in zip(b[:5], widths)) + "  " + b[5]).rstrip())
        hidden = len(self.rows) - len(rows)
        if hidden:
            out.append(f"... {hidden} more outcomes, each with |residual| <= {abs(self.rows[len(rows)].residual):.2f}")
        if self.samples.impossible_more:
            out.append(f"... and {self.samples.impossible_more:,} more samples with other impossible outcomes")
        return out

    def to_json_obj(self) -> dict:
        """A JSON-ready dict (``exactodds validate --format json``)."""
        mean = self.mean_observed()
        return {
            "subject": self.subject,
            "samples": self.samples.source,
            "n": self.n,
            "alpha": self.alpha,
            "verdict": self.verdict,
            "consistent": self.consistent,
            "p_value": self.p_value,
            "headline": self.headline(),
            "tests": [t.to_json_obj() for t in self.tests],
            "test_level": self.level,
            "correction": "holm" if self.family else "bonferroni",
            "family": [t.to_json_obj() for t in self.family],
            "units_not_tested": list(self.skipped_units),
            "pooled": [{"label": c.label, "outcomes": [r for r in _json_list(c.outcomes)],
                        "expected": c.expected(self.samples.n_possible), "observed": c.observed}
                       for c in self.pooled],
            "impossible": [{"outcome": i.label, "count": i.count, "first_line": i.first_line}
                           for i in self.impossible],
            "impossible_other_count": self.samples.impossible_more,
            "outcomes": [r.to_json_obj() for r in self.rows],
            "mean": None if mean is None else {"samples": float(mean), "exact": _frac(self.dist.mean()),
                                               "exact_float": float(self.dist.mean())},
            "distances": {k: {"exact": _frac(v), "float": float(v)} for k, v in self.distances.items()},
            "detectable_w": self.detectable_w,
            "advice": self.advice(),
        }

    def to_json(self) -> str:
        """JSON text of :meth:`to_json_obj`."""
        return json.dumps(self.to_json_obj(), indent=2)

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        p = _pval(self.p_value)
        return f"<ValidationResult {self.verdict}: n={self.n:,}, p{' ' if p.startswith('<') else '='}{p}, alpha={self.alpha:g}>"

    def _repr_html_(self) -> str:
        e = html.escape
        ok = self.consistent
        color = "#1a7f37" if ok else "#cf222e"
        parts = ['<div class="exactodds-validation" style="font-size:13px;line-height:1.4">',
                 f'<div style="font-weight:600;color:{color};margin-bottom:4px">{e(self.headline())}</div>',
                 f"<div>{self.n:,} samples from <code>{e(self.samples.source)}</code> against "
                 f"<code>{e(self.subject)}</code></div>"]
        if self.tests:
            parts.append('<table style="border-collapse:collapse;margin:6px 0"><thead><tr>'
                         + "".join(f'<th style="text-align:left;padding:2px 8px;border-bottom:2px solid #888">{h}</th>'
                                   for h in ("test", "why", "statistic", "df", "p-value")) + "</tr></thead><tbody>")
            for t in self.tests:
                stat = "" if t.statistic is None else f"{e(t.statistic_name)} = {_num(t.statistic)}"
                parts.append("<tr>" + "".join(f'<td style="padding:2px 8px;vertical-align:top">{c}</td>' for c in (
                    f"{e(t.name)}<br><small><code>{e(t.function)}</code></small>", e(t.why), stat,
                    "" if t.df is None else str(t.df), _pval(t.p_value))) + "</tr>")
            parts.append("</tbody></table>")
        if self.family:
            parts.append(self._family_html(color))
        parts.append('<table style="border-collapse:collapse;font-variant-numeric:tabular-nums;margin:6px 0">'
                     "<caption style='text-align:left'>outcomes, worst first (standardised residual "
                     "(O - E) / sqrt(n p (1 - p)))</caption><thead><tr>"
                     + "".join(f'<th style="text-align:right;padding:2px 8px;border-bottom:2px solid #888">{h}</th>'
                               for h in ("outcome", "probability", "observed", "expected", "residual", ""))
                     + "</tr></thead><tbody>")
        for r in self.rows[:MAX_TEXT_ROWS]:
            bad = r.impossible or abs(r.residual) >= 3
            style = f"padding:2px 8px;text-align:right;{'color:' + color if bad and not ok else ''}"
            cells = (e(r.label), _prob(r.p), f"{r.observed:,}", f"{r.expected:,.1f}",
                     "impossible" if r.impossible else f"{r.residual:+.2f}",
                     e(r.note() + (f" [pooled: {r.pooled_in}]" if r.pooled_in else "")))
            parts.append("<tr>" + "".join(f'<td style="{style}">{c}</td>' for c in cells) + "</tr>")
        if len(self.rows) > MAX_TEXT_ROWS:
            parts.append(f'<tr><td colspan="6"><i>{len(self.rows) - MAX_TEXT_ROWS} more outcomes</i></td></tr>')
        parts.append("</tbody></table>")
        if self.distances:
            parts.append("<div>distances: " + ", ".join(
                f"{DISTANCE_NAMES.get(k, k)} {_num(float(v))}" for k, v in self.distances.items()) + "</div>")
        for a in self.advice():
            parts.append(f"<div><i>{e(a)}</i></div>")
        parts.append("</div>")
        return "".join(parts)


def _family_rows_html(family: list[FigureTest], color: str) -> list[str]:
    """The rows of an engagement's family table (HTML), a rejected figure in ``color``."""
    e = html.escape
    rows = []
    for t in family:
        style = f"padding:2px 8px;{'color:' + color if t.rejected else ''}"
        stat = "" if t.test.statistic is None else f"{e(t.test.statistic_name.split(' ')[0])} = {_stat(t.test.statistic)}"
        cells = (e(t.figure), e(t.test.name), stat, _pval(t.test.p_value), _pval(t.adjusted),
                 "REJECTED" if t.rejected else "ok")
        rows.append("<tr>" + "".join(f'<td style="{style}">{c}</td>' for c in cells) + "</tr>")
    return rows


def _json_list(xs: list) -> list:
    from ..answer import jsonable

    return [jsonable(x) for x in xs]
