"""Run the benchmark suite: exactodds side by side with icepool and dyce.

    python bench/run.py              # every case, peers in bench/.venv-peers
    python bench/run.py --quick      # fewer repeats (a smoke run)
    python bench/run.py --cases b,d  # only the cases whose key starts so
    python bench/run.py --no-peers   # exactodds alone
    python bench/run.py --docs       # also the growth curves, memory, and
                                     # rewrite docs/performance.md (+ docs/img/)
    python bench/run.py --cases i --docs  # only these rows of docs/performance.md

Run it with the project's environment active (exactodds installed). The
peers' environment is created on first use (see bench/peers.py). Every case
prints exactodds's time, the fastest peer's, the ratio exactodds / fastest
peer, whether all answers are the same exact distribution, and its targets.
Results are also written as JSON to bench/results/latest.json. Exit status
1 when some library's answer differs from exactodds's (a target missed is
reported, not an error).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import peers  # noqa: E402
from bench.cases import Case, NotAvailable, all_cases  # noqa: E402
from bench.report import render_table  # noqa: E402
from bench.timing import clear_caches, decode_answer, measure, measure_pair  # noqa: E402

RESULTS = ROOT / "bench" / "results"


def machine() -> dict:
    """Where and when: load average, cores, interpreters."""
    try:
        load = os.getloadavg()
    except OSError:
        load = None
    return {"when": time.strftime("%Y-%m-%d %H:%M"), "platform": platform.platform(),
            "cpus": os.cpu_count(), "load": load, "python": platform.python_version()}


def run_exactodds(case: Case, quick: bool) -> dict:
    """Time exactodds on one case; its answer, or why there is none."""
    budget, max_rep = (0.1, 3) if quick else (case.budget or 0.5, 25)
    try:
        result, times = measure(case.compute, clear=lambda: (clear_caches(["exactodds"]), case.clear and case.clear()),
                                budget=budget, max_repeats=max_rep, repeats=0 if quick else case.repeats)
        return {"times": times, "answer": case.canon(result)}
    except NotAvailable as exc:
        return {"unavailable": str(exc)}
    except Exception as exc:  # reported in the table; the suite goes on
        return {"error": f"{type(exc).__name__}: {exc}"}


def run_pair(reference: Case, case: Case, quick: bool) -> tuple[dict, dict]:
    """Time a case and its reference with their calls alternating; each one's result."""
    budget, max_rep = (0.2, 3) if quick else (2 * (case.budget or 0.5), 25)

    def clear() -> None:
        clear_caches(["exactodds"])
        for c in (reference, case):
            if c.clear:
                c.clear()

    try:
        got = measure_pair((reference.compute, case.compute), clear=clear, budget=budget, max_repeats=max_rep)
    except NotAvailable as exc:
        return {"unavailable": str(exc)}, {"unavailable": str(exc)}
    except Exception as exc:  # reported in the table; the suite goes on
        error = {"error": f"{type(exc).__name__}: {exc}"}
        return error, error
    return tuple({"times": t, "answer": c.canon(r)} for c, (r, t) in zip((reference, case), got))  # type: ignore[return-value]


def compare(results: dict) -> dict:
    """Whether every library's answer is the same exact distribution.

    ``results``: library -> {"answer"?}. Returns {"same": bool | None,
    "differ": [libraries differing from the reference]}, the reference being
    exactodds's answer when there is one, else the first peer's.
    """
    answered = {lib: decode_answer(r["answer"]) for lib, r in results.items() if "answer" in r}
    if len(answered) < 2:
        return {"same": None, "differ": []}
    ref_lib = "exactodds" if "exactodds" in answered else next(iter(answered))
    ref = answered[ref_lib]
    differ = [lib for lib, a in answered.items() if a != ref]
    return {"same": not differ, "differ": differ, "reference": ref_lib}


def run_fresh(case: Case, peer_python: str | None, quick: bool) -> dict:
    """Time the fresh-process case for each library."""
    out = {}
    for lib, argv in (case.fresh or {}).items():
        if "{peer python}" in argv:
            if not peer_python:
                continue
            argv = [peer_python if a == "{peer python}" else a for a in argv]
        out[lib] = {"times": peers.fresh_process_times(argv, 3 if quick else 9)}
        if "error" in out[lib]["times"]:
            out[lib] = {"error": out[lib]["times"]["error"]}
    return out


def summarise(case: Case, libs: dict, times: dict[str, float | None]) -> dict:
    """Ratio to the fastest peer and the state of every target (``times``: exactodds's
    time per case, for targets relative to another case)."""
    ex = libs.get("exactodds", {})
    t_ex = ex.get("times", {}).get("min")
    peer_times = {lib: r["times"]["min"] for lib, r in libs.items()
                  if lib != "exactodds" and "times" in r and "min" in r["times"]}
    fastest = min(peer_times, key=peer_times.get) if peer_times else None
    ratio = t_ex / peer_times[fastest] if (t_ex is not None and fastest and not case.fresh) else None
    targets = [{"text": t.text, "met": t.check(t_ex, ratio, times), "value": t.value(t_ex, ratio, times),
                "relative": t.kind in ("relative", "either"), "values": t.values(t_ex, ratio, times)}
               for t in case.targets]
    return {"exactodds": t_ex, "fastest_peer": fastest,
            "fastest_peer_time": peer_times.get(fastest) if fastest else None,
            "ratio": ratio, "targets": targets}


def main(argv: list[str] | None = None) -> int:
    """Run the suite; print the table; write bench/results/latest.json."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer repeats; skip the slowest peer runs")
    ap.add_argument("--cases", default="", help="comma-separated key prefixes, e.g. a,b.joint,d")
    ap.add_argument("--no-peers", action="store_true", help="time exactodds alone")
    ap.add_argument("--docs", action="store_true",
                    help="also measure growth curves and memory, and rewrite docs/performance.md "
                         "(with --cases: only those cases' rows of its table)")
    args = ap.parse_args(argv)

    prefixes = tuple(p.strip() for p in args.cases.split(",") if p.strip())
    cases = [c for c in all_cases(args.quick) if not prefixes or c.key.startswith(prefixes)]
    info = machine()
    print(f"exactodds benchmark, {info['when']}, {info['platform']}, {info['cpus']} cpus, "
          f"load {info['load'] and ', '.join(f'{x:.2f}' for x in info['load'])}", flush=True)

    peer_versions: dict = {}
    if not args.no_peers:
        peer_versions = peers.ensure_env(log=lambda m: print(m, flush=True))
    peer_python = str(peers.venv_python()) if peer_versions else None
    import exactodds

    info["versions"] = {"exactodds": exactodds.__version__, **{f"peer {k}": v for k, v in peer_versions.items()}}
    print("versions: " + ", ".join(f"{k} {v}" for k, v in info["versions"].items()), flush=True)

    per_case: dict[str, dict] = {c.key: {} for c in cases}
    by_key = {c.key: c for c in cases}
    print("exactodds:", flush=True)
    for c in cases:
        if c.fresh or any(o.paired == c.key for o in cases):
            continue  # a reference is timed with the case that pairs with it
        if c.paired in by_key:
            ref, r = run_pair(by_key[c.paired], c, args.quick)
            per_case[c.paired]["exactodds"] = ref
            print(f"  {c.paired:<36} " + (f"{ref['times']['min'] * 1e3:10.3f} ms" if "times" in ref
                                          else ref["error"]), flush=True)
        else:
            r = run_exactodds(c, args.quick)
        per_case[c.key]["exactodds"] = r
        shown = (f"{r['times']['min'] * 1e3:10.3f} ms" if "times" in r
                 else r.get("unavailable") or r.get("error"))
        print(f"  {c.key:<36} {shown}", flush=True)

    jobs = [{"key": c.key, "case": c.peer[0], "params": c.peer[1],
             "skip": list(c.skip_peers) + (["dyce (n-fold sum)", "icepool (n-fold sum)"]
                                           if args.quick and c.peer[1].get("n", 0) >= 120 else [])}
            for c in cases if c.peer and peer_python]
    if jobs:
        print("peers:", flush=True)
        got = peers.run_peers(jobs, quick=args.quick)
        for key, by_variant in got["results"].items():
            per_case[key].update(by_variant)

    fresh = [c for c in cases if c.fresh]
    if fresh:
        print("fresh processes:", flush=True)
    for c in fresh:
        per_case[c.key].update(run_fresh(c, peer_python, args.quick))
        print(f"  {c.key:<14} " + ", ".join(f"{lib} {r['times']['min'] * 1e3:.0f} ms" if "times" in r
                                             else f"{lib} {r['error']}" for lib, r in per_case[c.key].items()),
              flush=True)

    rows = []
    times = {key: libs.get("exactodds", {}).get("times", {}).get("min") for key, libs in per_case.items()}
    for c in cases:
        libs = per_case[c.key]
        rows.append({"key": c.key, "group": c.group, "title": c.title, "fresh": bool(c.fresh),
                     "libraries": {lib: {k: v for k, v in r.items() if k != "answer"} for lib, r in libs.items()},
                     "answers": compare(libs), **summarise(c, libs, times)})
    report = {"machine": info, "quick": args.quick, "rows": rows}
    try:
        report["machine"]["load_after"] = os.getloadavg()
    except OSError:
        pass
    if args.docs and not prefixes:
        from bench.curves import measure_curves

        report["curves"] = measure_curves(peer_python, quick=args.quick)

    print()
    print(render_table(report))
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "latest.json").write_text(json.dumps(report, indent=1, default=str))
    if args.docs:
        from bench.report import update_docs, write_docs

        written = update_docs(report) if prefixes else write_docs(report)
        print("wrote " + ", ".join(str(p.relative_to(ROOT)) for p in written))
    differ = [r["key"] for r in rows if r["answers"]["same"] is False]
    if differ:
        print(f"ANSWERS DIFFER in: {', '.join(differ)}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
