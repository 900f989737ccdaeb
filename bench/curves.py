"""How cost grows: time against size for the pool, parity and allocation
cases, and peak memory against N for the parity case.

Called by ``python bench/run.py --docs``; the series go into
docs/performance.md as tables (and as plots under docs/img/ when matplotlib
is installed). Sizes are chosen so the whole run stays within minutes on
two shared cores: the peers are timed up to the sizes where they still
answer in seconds.
"""

from __future__ import annotations

import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench import peers
from bench.cases import NotAvailable
from bench.timing import clear_caches, measure

POOL_N = (10, 30, 100, 300, 1000, 3000)
POOL_PEER_N = (10, 30, 100, 300)
PARITY_N = (10, 20, 30, 45, 60, 120, 250, 500, 1000)
PARITY_PEER_N = (10, 20, 30, 45, 60)
WOUNDS = (5, 10, 20, 40, 80, 160)
SHOTS = (10, 20, 40, 80, 160)
MEMORY_N = (30, 60, 120, 250, 500, 1000)


def _time(fn: Callable[[], Any], quick: bool) -> float | None:
    try:
        _, t = measure(fn, clear=lambda: clear_caches(["exactodds"]), budget=0.05 if quick else 0.2,
                       max_repeats=3 if quick else 5)
    except NotAvailable:
        return None
    return t["min"]


def allocation(wounds: int, models: int = 10, wounds_each: int = 2, save: str = "4+") -> Any:
    """exactodds: ``wounds`` wounds allocated closest-first to ``models`` models of
    ``wounds_each`` wounds with a ``save`` save (rules/allocation.py)."""
    from exactodds import Dist, Target
    from exactodds.rules.allocation import AllocModel, allocate, closest_first

    unit = [AllocModel(wounds_each, Target.parse(save))] * models
    return allocate(Dist.constant(wounds), unit, closest_first)


def memory_profile(sizes: tuple[int, ...]) -> list[dict]:
    """Peak traced memory while computing the parity joint for each N, beside
    the answer's own size (outcomes, and bytes of its keys and weights)."""
    from bench.cases.parity import joint

    try:
        joint(4)  # imports and module-level set-up happen outside the traced calls
    except NotAvailable:
        return []
    out = []
    for n in sizes:
        clear_caches(["exactodds"])
        tracemalloc.start()
        try:
            d = joint(n)
        except NotAvailable:
            tracemalloc.stop()
            return []
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        w = d.weights()
        size = sum(sys.getsizeof(k) + sys.getsizeof(v) for k, v in w.items()) + sys.getsizeof(w)
        out.append({"n": n, "outcomes": len(w), "answer_bytes": size, "peak_bytes": peak})
    return out


def measure_curves(peer_python: str | None, quick: bool = False) -> dict:
    """Every series: {name: {"x": label, "series": {library: [[x, seconds], ...]}}}, plus memory."""
    from bench.cases.parity import joint
    from bench.cases.pools import successes_pool
    from bench.cases.wh40k6 import ATTACK, attack_casualties

    print("curves:", flush=True)
    curves: dict[str, dict] = {
        "pool": {"x": "N dice", "title": "successes on 4+ among N d6", "series": {
            "exactodds": [[n, _time(lambda n=n: successes_pool(n, 4), quick)] for n in POOL_N]}},
        "parity": {"x": "N dice", "title": "joint (5+ count, even - odd) over N d6", "series": {
            "exactodds": [[n, _time(lambda n=n: joint(n), quick)] for n in PARITY_N]}},
        "allocation": {"x": "wounds", "title": "W wounds allocated to 10 models of 2 wounds, save 4+",
                       "series": {"exactodds": [[w, _time(lambda w=w: allocation(w), quick)] for w in WOUNDS]}},
        "attack": {"x": "shots", "title": "40K 6th attack (d) with S shots", "series": {
            "exactodds": [[s, _time(lambda s=s: attack_casualties(**{**ATTACK, "shots": s}), quick)]
                          for s in SHOTS]}},
    }
    if peer_python:
        jobs = [{"key": f"pool:{n}", "case": "successes", "params": {"n": n, "hit": 4}} for n in POOL_PEER_N]
        jobs += [{"key": f"parity:{n}", "case": "joint", "params": {"n": n, "hit": 5}} for n in PARITY_PEER_N]
        got = peers.run_peers(jobs, quick=True)["results"]
        for key, by_variant in got.items():
            name, n = key.split(":")
            for variant, r in by_variant.items():
                if "times" in r:
                    curves[name]["series"].setdefault(variant, []).append([int(n), r["times"]["min"]])
    curves["memory"] = memory_profile(MEMORY_N[:3] if quick else MEMORY_N)
    return curves


def curve_tables(curves: dict) -> str:
    """Markdown: one table per series (x down, libraries across) and the memory table."""
    from bench.report import fmt_time, md_table

    parts = []
    for name in ("pool", "parity", "allocation", "attack"):
        c = curves.get(name)
        if not c:
            continue
        libs = list(c["series"])
        xs = sorted({x for s in c["series"].values() for x, _ in s})
        rows = [[c["x"], *libs]]
        for x in xs:
            rows.append([str(x)] + [fmt_time(dict(map(tuple, c["series"][lib])).get(x)) for lib in libs])
        parts.append(f"### {c['title']}\n\n{md_table(rows)}")
    mem = curves.get("memory")
    if mem:
        rows = [["N", "raw rolls 6^N", "outcomes", "answer size", "peak traced memory", "peak / answer"]]
        for m in mem:
            rows.append([str(m["n"]), f"~10^{m['n'] * 0.77815:.0f}", str(m["outcomes"]),
                         _kib(m["answer_bytes"]), _kib(m["peak_bytes"]), f"{m['peak_bytes'] / m['answer_bytes']:.2f}"])
        parts.append("### Memory of the parity joint (tracemalloc peak)\n\n"
                     "The peak follows the size of the answer (its outcomes and their exact weights), "
                     "not the 6^N raw rolls.\n\n" + md_table(rows))
    return "\n\n".join(parts) if parts else "(curves not measured in this run)"


def _kib(b: int) -> str:
    return f"{b / 1024:.0f} KiB" if b < 10 * 1024 * 1024 else f"{b / 1024 / 1024:.0f} MiB"


def plot_curves(curves: dict, img: Path) -> list[Path]:
    """Log-log plots of each series under ``img`` (none without matplotlib)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    img.mkdir(parents=True, exist_ok=True)
    written = []
    for name in ("pool", "parity", "allocation", "attack"):
        c = curves.get(name)
        if not c or not any(t for s in c["series"].values() for _, t in s if t):
            continue
        fig, ax = plt.subplots(figsize=(6, 4))
        for lib, pts in c["series"].items():
            pts = [(x, t) for x, t in pts if t]
            ax.plot([x for x, _ in pts], [t for _, t in pts], marker="o", label=lib)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(c["x"])
        ax.set_ylabel("seconds (min of repeats)")
        ax.set_title(c["title"])
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
        path = img / f"perf-{name}.png"
        fig.tight_layout()
        fig.savefig(path, dpi=90)
        plt.close(fig)
        written.append(path)
    return written
