"""The code of the first benchmark of the larger engagements, timed in the
same run as the present code, for the fallback of a case that does not beat
its Monte Carlo: at least 10 times faster than that code.

That code is commit :data:`FIRST_CODE` of this repository (the engagements'
first benchmark was run on it; it predates close-combat weapons, so it
answers the cases with plain Boyz only). Its ``exactodds`` package is read
from the repository's git history (``git archive``) into a temporary
directory under the name :data:`PACKAGE`, imported beside the present code
(its imports are relative: nothing of it comes from the present package),
and asked the same scenario file with its work limit raised, so that no
estimate of its own refuses a question the present code answers (a limit
only refuses work; at its default limit it answers 40 Orks against 20
Guardsmen too). A copy without that history (an archive, a shallow clone)
has no such case: :class:`~bench.cases.NotAvailable`.
"""

from __future__ import annotations

import atexit
import importlib
import io
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from . import NotAvailable

FIRST_CODE = "0864ce6"
"""The commit whose code the engagements' first benchmark timed."""

PACKAGE = "exactodds_first"
"""The name its package is imported under (clear_caches("exactodds") clears its caches too)."""

LIMIT = "100000000"
"""Its work limit while it answers (``EXACTODDS_MAX_STATES``)."""

ROOT = Path(__file__).resolve().parents[2]
_loaded: list[Any] = []


def load_scenario() -> Any:
    """The first code's ``load_scenario``, its package extracted and imported once per process."""
    if not _loaded:
        _loaded.append(_import())
    return _loaded[0]


def _import() -> Any:
    import tarfile

    try:
        tar = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", FIRST_CODE, "exactodds"],
                             capture_output=True, check=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError) as exc:
        raise NotAvailable(f"the code of commit {FIRST_CODE} is not in this copy's git history ({exc})") from None
    where = Path(tempfile.mkdtemp(prefix="exactodds-first-code-"))
    atexit.register(shutil.rmtree, where, True)
    with tarfile.open(fileobj=io.BytesIO(tar)) as archive:
        if hasattr(tarfile, "data_filter"):  # Python 3.11.4 and later: files and directories only
            archive.extractall(where, filter="data")
        else:  # pragma: no cover
            archive.extractall(where)
    (where / "exactodds").rename(where / PACKAGE)
    sys.path.insert(0, str(where))
    return importlib.import_module(f"{PACKAGE}.profiles.scenario").load_scenario


def scenario_end(path: Path) -> Any:
    """The first code's joint end state (a Dist over worlds) of the scenario file ``path``."""
    load = load_scenario()
    before = os.environ.get("EXACTODDS_MAX_STATES")
    os.environ["EXACTODDS_MAX_STATES"] = LIMIT
    try:
        return load(path).run().final
    finally:
        if before is None:
            del os.environ["EXACTODDS_MAX_STATES"]
        else:
            os.environ["EXACTODDS_MAX_STATES"] = before
