"""Parameter sweeps: many exact queries at once.

A grid file (or dict) names a base query and the parameters to vary;
:func:`sweep` runs every combination (locally in worker processes by
default, or on a Dask cluster) and returns one row per query with the
figures asked for, exact (``"num/den"``) and as decimals. See
``docs/sweeps.md`` and ``exactodds sweep --help``.

Modules: :mod:`.grid` (grid files), :mod:`.report` (the figures),
:mod:`.engines` (where queries run), :mod:`.cache` (what is computed once),
:mod:`.output` (streamed, resumable CSV/Parquet), :mod:`.run` (the API).
"""

from .cache import ANSWERS, AnswerCache
from .engines import SCHEDULERS
from .grid import Grid, load_grid, parse_grid
from .report import Report
from .run import SweepResult, run_sweep, sweep

__all__ = ["ANSWERS", "AnswerCache", "SCHEDULERS", "Grid", "Report", "SweepResult", "load_grid", "parse_grid",
           "run_sweep", "sweep"]
