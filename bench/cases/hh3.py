"""(e) the shipped Horus Heresy 3rd-edition examples (``examples/hh3/``).

One case per pair (every shipped attacker file against every shipped
target file): the whole attack, as ``exactodds hh3 shoot --attacker A
--target T`` computes it (read and check both files, build the fire groups,
run every stage), down to the casualties; and one case per shipped query
file (``exactodds run FILE``: read, validate, answer).
No peer answers these (fire groups, critical hits, mitigation and
allocation by the defender's choice): exactodds is reported alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from . import Case, NotAvailable, dist_answer, need, under

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "hh3"


def _kind(path: Path) -> str:
    """"query" (has ``system``), "attacker" (has ``weapons``) or "target"."""
    import tomllib

    data = tomllib.loads(path.read_text())
    return "query" if "system" in data else "attacker" if "weapons" in data else "target"


def _files(kind: str) -> list[Path]:
    if not EXAMPLES.is_dir():
        return []
    return [p for p in sorted(EXAMPLES.glob("*.toml")) if _kind(p) == kind]


def example_pairs() -> list[tuple[Path, Path]]:
    """(attacker file, target file) for every pair of shipped profiles."""
    return [(a, t) for a in _files("attacker") for t in _files("target")]


def query_files() -> list[Path]:
    """The shipped Horus Heresy query files."""
    return _files("query")


def run_query(path: Path) -> Any:
    """exactodds: the answer of one query file, as ``exactodds run FILE``."""
    Query = need("exactodds.commands", "Query")
    return Query.from_toml(path).answer()


def run_example(attacker: Path, target: Path) -> Any:
    """exactodds: casualties of the whole attack of ``attacker`` at ``target``."""
    load_attacker, load_target = need("exactodds.profiles.hh3", "load_attacker", "load_target")
    ShootingAttack, Conditions = need("exactodds.rules.hh3", "ShootingAttack", "Conditions")
    return ShootingAttack(load_attacker(str(attacker)), load_target(str(target)), Conditions()).run().casualties()


def cases(quick: bool = False) -> list[Case]:
    """Case (e), one per (attacker, target) pair of the shipped examples."""
    pairs = example_pairs()
    if not pairs:
        return [Case("e.hh3", "e", "Horus Heresy examples (examples/hh3/ not there yet)",
                     compute=lambda: _missing(), canon=dist_answer, targets=[under(0.050)])]
    out = [Case(f"e.{a.stem}>{t.stem.removeprefix('target_')}", "e", f"Horus Heresy: {a.name} shoots {t.name}",
                compute=lambda a=a, t=t: run_example(a, t), canon=dist_answer, targets=[under(0.050)])
           for a, t in pairs]
    out += [Case(f"e.{q.stem}", "e", f"Horus Heresy query file {q.name}",
                 compute=lambda q=q: run_query(q), canon=dist_answer, targets=[under(0.050)])
            for q in query_files()]
    return out


def _missing() -> Any:
    raise NotAvailable("examples/hh3/ not there yet")
