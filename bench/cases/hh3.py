"""(e) the shipped Horus Heresy 3rd-edition examples (``examples/hh3/``).

One case per example file: the whole attack of that file, as the ``hh3``
command would compute it (read the file, validate, run the pipeline).
No peer answers these (fire groups, critical hits, mitigation and
allocation by the defender's choice): exactodds is reported alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from . import Case, NotAvailable, dist_answer, need, under

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "hh3"


def example_files() -> list[Path]:
    """The shipped examples, sorted by name."""
    return sorted(EXAMPLES.glob("*.toml")) if EXAMPLES.is_dir() else []


def run_example(path: Path) -> Any:
    """exactodds: the answer of one example file."""
    need("exactodds.rules.hh3")
    raise NotAvailable("exactodds.rules.hh3 has no example runner wired yet")


def cases(quick: bool = False) -> list[Case]:
    """Case (e), one per example file."""
    files = example_files()
    if not files:
        return [Case("e.hh3", "e", "Horus Heresy examples (examples/hh3/ not there yet)",
                     compute=lambda: run_example(EXAMPLES), canon=dist_answer, targets=[under(0.050)])]
    return [Case(f"e.{p.stem}", "e", f"Horus Heresy example {p.name}",
                 compute=lambda p=p: run_example(p), canon=dist_answer, targets=[under(0.050)])
            for p in files]
