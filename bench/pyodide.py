"""The engagement benchmarks (group h) on the calculator page: Pyodide against CPython.

    python bench/pyodide.py              # run the page's timing test, rewrite the docs' section
    python bench/pyodide.py --seconds 2  # fewer repeats (as CI: the cases over a second once)
    python bench/pyodide.py --docs-only  # rewrite the section from bench/results/pyodide.json

The timing itself is the browser test
``tests/test_calculator.py::test_the_engagement_benchmarks_on_the_page`` (marked
``slow``): it asks each case as the page's forms ask, through the page's own
request path (``window.exactoddsCalculator.ask``: the worker's
``exactodds.webform.run_json``, timed with ``performance.now()`` around the
Python call), and asks the same request of ``webform.run_json`` in the test's
CPython, the two alternating. The answers' JSON texts must be identical (SHA-256
compared in the test); the times go to :data:`RESULTS` (no time is asserted).
This module holds what both need: each case as a page request (its scenario
and unit files pasted, as a user pastes them), and the docs' section.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results" / "pyodide.json"
PAGE = ROOT / "docs" / "performance.md"
BEGIN, END = "<!-- pyodide-timings -->", "<!-- /pyodide-timings -->"
"""The lines around the section this module writes in docs/performance.md."""
TEST = "tests/test_calculator.py::test_the_engagement_benchmarks_on_the_page"

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
from bench.cases.exchanges import FILES  # noqa: E402  (the repository on the path first)

SCENARIOS = {f"h.{name}": (str(FILES[name].relative_to(ROOT)), question) for name, question in (
    ("fire", "10 Marines shoot 20 Orks, weapon group by group"),
    ("turns", "two units shoot 20 Orks for 5 turns"),
    ("assault", "20 Orks charge 10 Marines, 3 rounds"),
    ("orks30_marines_5", "30 Orks charge 10 Marines, 5 rounds"),
    ("orks30_guard_3", "30 Orks charge 20 Guardsmen, 3 rounds"),
    ("orks40_guard_5", "40 Orks charge 20 Guardsmen, 5 rounds"),
    ("hh3_20_turns", "Horus Heresy: tacticals and heavies exchange fire, 20 turns"))}
"""The scenario cases of ``bench/cases/exchanges.py``: (scenario file, question)."""
GETS_HOT = ("bench/units/plasma_crew_18.toml", "examples/40k6/ork_boyz_sluggas.toml")
QUESTIONS = {**{k: q for k, (_, q) in SCENARIOS.items()},
             "h.gets_hot_fire": "`40k6 fire`: three Gets Hot groups of six 3-Wound models at 20 Orks"}
"""Every case timed on the page, in the order timed and shown."""
WARM_UP = ("examples/scenarios/firefight.toml", "examples/scenarios/hh3_exchange.toml")
"""Small shipped scenarios asked first, untimed, so that no timed question imports a module."""
_FILE = re.compile(r'^(\s*file\s*=\s*)"([^"]+)"', re.MULTILINE)


def scenario_request(path: str) -> dict[str, Any]:
    """A scenario file (relative to the repository) as the page asks it when pasted:
    the scenario as ``pasted/scenario.toml`` and each unit file it names pasted beside it
    by its own name (the scenario's ``file =`` lines rewritten to that name). O(the files)."""
    folder = (ROOT / path).parent
    text = (ROOT / path).read_text(encoding="utf-8")
    files: dict[str, str] = {}

    def paste(m: re.Match[str]) -> str:
        unit = (folder / m.group(2)).resolve()
        name = f"pasted/{unit.name}"
        if files.setdefault(name, unit.read_text(encoding="utf-8")) != unit.read_text(encoding="utf-8"):
            raise ValueError(f"{path}: two unit files named {unit.name}")
        return f'{m.group(1)}"{unit.name}"'

    scenario = _FILE.sub(paste, text)
    return {"system": "scenario", "command": None, "params": {"file": "pasted/scenario.toml"},
            "files": {"pasted/scenario.toml": scenario, **files}}


def page_request(key: str) -> dict[str, Any]:
    """The case ``key`` of :data:`QUESTIONS` as the page's request (webform.run's argument)."""
    if key in SCENARIOS:
        return scenario_request(SCENARIOS[key][0])
    attacker, target = GETS_HOT
    return {"system": "40k6", "command": "fire",
            "params": {"attacker": "pasted/plasma_crew_18.toml", "target": target, "range": "half"},
            "files": {"pasted/plasma_crew_18.toml": (ROOT / attacker).read_text(encoding="utf-8")}}


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"


def section(results: dict[str, Any]) -> str:
    """The docs' section between :data:`BEGIN` and :data:`END`, from a run's results:
    processor seconds (wall seconds in brackets), each the least of a case's calls."""
    m = results["machine"]
    rows = ["| case | question | CPython (same session) | Pyodide | Pyodide / CPython |", "|---|---|---|---|---|"]
    for key, question in QUESTIONS.items():
        r = results["cases"].get(key)
        if r is None:
            rows.append(f"| {key} | {question} | not run | not run | - |")
            continue
        cpu = {side: min(r[f"{side}_cpu"]) for side in ("cpython", "pyodide")}
        wall = {side: min(r[side]) for side in ("cpython", "pyodide")}
        cells = [f"{_ms(cpu[side])} ({_ms(wall[side])})" for side in ("cpython", "pyodide")]
        rows.append(f"| {key} | {question} | {' | '.join(cells)} | {cpu['pyodide'] / cpu['cpython']:.1f} "
                    f"({wall['pyodide'] / wall['cpython']:.1f}) |")
    load = ", ".join(f"{x:.2f}" for x in m["load"])
    ratios = [min(r["pyodide_cpu"]) / min(r["cpython_cpu"]) for r in results["cases"].values()]
    return "\n".join([
        f"On the page each engagement takes {min(ratios):.1f} to {max(ratios):.1f} times CPython's processor "
        "time, at the page's default work limit (none is refused; the test raises no limit).",
        "",
        f"Measured {m['when']} on {m['platform']}, {m['cpus']} cores shared with other work (load average "
        f"at the start: {load}); {m['browser']} (headless), Pyodide {m['pyodide']} (Python "
        f"{m['pyodide_python']}) against CPython {m['python']} in the test's own process; every answer's "
        "JSON identical byte for byte. Processor seconds, wall seconds in brackets:",
        "",
        *rows,
        "",
        "Each figure is the least of a case's calls (" + ", ".join(
            f"{k} {len(r['pyodide'])}" for k, r in results["cases"].items()) + " on each side), alternating "
        "between the two sides. Processor seconds: in CPython the test process's, around "
        "`webform.run_json`; on the page every thread of the browser's processes (Chromium's and "
        "Playwright's driver's, from Linux's `/proc/PID/task/TID/schedstat`), around the request sent "
        "through the page's `window.exactoddsCalculator.ask`. Wall seconds: `performance.now()` in the worker "
        "around Python's call (reading the request and the pasted files, computing, writing the answer's "
        "JSON; the page's processor seconds also count its message and the page's parsing of the answer), "
        "and the same call in CPython. Other work on the machine stretches the wall times, not the "
        "processor times, so the ratio of processor times is the one to quote. exactodds's caches are "
        "cleared before every call on both sides, and a small scenario of each system is asked first, "
        "untimed, so that no timed call imports a module. A user waits for the wall time (on an idle "
        "machine about the processor time) plus drawing the answer (tens of ms); the first answer after "
        "opening the page also waits for the start-up above.",
    ])


def write_docs(results: dict[str, Any], page: Path = PAGE) -> Path:
    """Replace the text between :data:`BEGIN` and :data:`END` of docs/performance.md."""
    text = page.read_text(encoding="utf-8")
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    page.write_text(text[:start] + "\n" + section(results) + "\n" + text[end:], encoding="utf-8")
    return page


def main(argv: list[str] | None = None) -> int:
    """Run the page's timing test (unless ``--docs-only``), then rewrite the docs' section."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--docs-only", action="store_true", help=f"only rewrite the section from {RESULTS.name}")
    ap.add_argument("--seconds", type=float, default=10.0,
                    help="time a case again (at most 5 times) while its calls took under this (default 10)")
    args = ap.parse_args(argv)
    if not args.docs_only:
        # the test is marked slow: it runs where CI is true
        env = {**os.environ, "CI": "true", "EXACTODDS_PYODIDE_SECONDS": str(args.seconds)}
        run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:randomly", "-q", "-s", TEST],
                             cwd=ROOT, env=env)
        if run.returncode != 0:
            return run.returncode
    results = json.loads(RESULTS.read_text(encoding="utf-8"))
    print("wrote", write_docs(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
