"""pandas DataFrames of distributions and runs (pandas imported when one is made)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..core.errors import InputError
from .rows import is_ordered, outcome_fields


def require_pandas() -> Any:
    """The pandas module, or an InputError saying how to install it."""
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
    ordered = is_ordered(dist)
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
    return require_pandas().DataFrame(dist_records(dist))


def run_to_pandas(run: Any, key: Any = None) -> Any:
    """All stages in one long DataFrame: a ``stage`` column, then the columns of
    :func:`dist_records` (``key`` maps states first, as in :func:`plot_run`)."""
    stages = run.stages if key is None else run.marginals(key)
    rows = [{"stage": name, **rec} for name, d in stages.items() for rec in dist_records(d)]
    return require_pandas().DataFrame(rows)
