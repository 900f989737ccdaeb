"""(e) the shipped Horus Heresy 3rd-edition examples (``examples/hh3/``).

One case per pair (every shipped attacker file against every shipped
target file): the whole attack, as ``exactodds hh3 shoot --attacker A
--target T`` computes it (read and check both files, build the fire groups,
run every stage), down to the casualties.
No peer answers these (fire groups, critical hits, mitigation and
allocation by the defender's choice): exactodds is reported alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from . import Case, NotAvailable, dist_answer, need, under

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "hh3"


def example_pairs() -> list[tuple[Path, Path]]:
    """(attacker file, target file) for every shipped pair; target files are
    those named ``target_*`` or describing a vehicle (``rhino``)."""
    if not EXAMPLES.is_dir():
        return []
    files = sorted(EXAMPLES.glob("*.toml"))
    targets = [p for p in files if p.stem.startswith("target_") or p.stem in VEHICLES]
    return [(a, t) for a in files if a not in targets for t in targets]


VEHICLES = ("rhino",)


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
    return [Case(f"e.{a.stem}>{t.stem.removeprefix('target_')}", "e", f"Horus Heresy: {a.name} shoots {t.name}",
                 compute=lambda a=a, t=t: run_example(a, t), canon=dist_answer, targets=[under(0.050)])
            for a, t in pairs]


def _missing() -> Any:
    raise NotAvailable("examples/hh3/ not there yet")
