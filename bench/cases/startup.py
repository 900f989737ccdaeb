"""(f) the first call in a fresh process: ``import exactodds``, and the CLI
``exactodds pool 3 --hit 4+`` end to end.

Each is timed as a whole new process (interpreter start included), several
times, keeping the minimum; the bare interpreter (``python -c pass``) is
reported too so the import's own share can be read off. The peers' import
and an equivalent one-line answer are timed the same way in their
environment, for reference (their interpreter is another version, so these
are not ratios).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from . import Case, relative, under

PY = sys.executable


def cli_argv() -> list[str]:
    """The installed ``exactodds`` console script beside this interpreter (else
    on PATH; else ``python -m exactodds``)."""
    beside = Path(sys.executable).with_name("exactodds")
    if beside.exists():
        return [str(beside)]
    found = shutil.which("exactodds")
    return [found] if found else [PY, "-m", "exactodds"]


def cases(quick: bool = False) -> list[Case]:
    """Case (f): fresh processes; ``{peer python}`` is replaced by the peers' interpreter."""
    return [
        Case("f.python", "f", "bare interpreter start (python -c pass), reference",
             fresh={"exactodds": [PY, "-c", "pass"], "peers": ["{peer python}", "-c", "pass"]}),
        Case("f.import", "f", "import exactodds (fresh process; peers: import icepool / dyce)",
             fresh={"exactodds": [PY, "-c", "import exactodds"],
                    "icepool": ["{peer python}", "-c", "import icepool"],
                    "dyce": ["{peer python}", "-c", "import dyce"]},
             targets=[under(0.150)]),
        Case("f.cli", "f", "exactodds pool 3 --hit 4+ (fresh process, end to end; peers: the same answer by python -c)",
             fresh={"exactodds": [*cli_argv(), "pool", "3", "--hit", "4+"],
                    "icepool": ["{peer python}", "-c", "import icepool; print(3 @ (icepool.d6 >= 4))"],
                    "dyce": ["{peer python}", "-c", "from dyce import H; print(3 @ H(6).ge(4))"]},
             targets=[under(0.400), relative("f.python", 4, "<= 4x a bare python start (same run)")]),
    ]
