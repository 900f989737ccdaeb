"""Render benchmark results: the console table and docs/performance.md.

Input is the report dict built by ``run.py`` (also saved as
bench/results/latest.json), so the page can be regenerated from a saved run
with ``python bench/report.py bench/results/latest.json``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGE = DOCS / "performance.md"
IMG = DOCS / "img"


def fmt_time(t: float | None) -> str:
    """Seconds as a short human figure (us, ms or s)."""
    if t is None:
        return "-"
    if t < 1e-3:
        return f"{t * 1e6:.0f} us"
    if t < 1:
        return f"{t * 1e3:.3g} ms" if t < 0.1 else f"{t * 1e3:.0f} ms"
    return f"{t:.2f} s"


def fmt_ratio(r: float | None) -> str:
    """exactodds / fastest peer, with the speed-up beside it."""
    if r is None:
        return "-"
    return f"{r:.4f} ({1 / r:.0f}x faster)" if r < 1 else f"{r:.2f} ({r:.1f}x slower)"


def fmt_answers(a: dict) -> str:
    """'same' / 'DIFFER: libs' / '-' (fewer than two answers)."""
    if a["same"] is None:
        return "-"
    return "same" if a["same"] else "DIFFER: " + ", ".join(a["differ"])


def fmt_targets(ts: list[dict]) -> str:
    """Each target with met / MISSED / n/a, and its measured ratio (each alternative's, for a
    target with a fallback)."""
    return "; ".join(f"{t['text']}: {'met' if t['met'] else 'n/a' if t['met'] is None else 'MISSED'}"
                     + _figures(t) for t in ts) or "-"


def _figures(t: dict) -> str:
    """`` (ratio)`` of a relative target, `` (ratio, else ratio)`` of one with a fallback, else ``""``."""
    values = t.get("values") or [t.get("value")]
    if not t.get("relative") or all(v is None for v in values):
        return ""
    return " (" + ", else ".join("-" if v is None else f"{v:.2f}" if v >= 0.1 else f"{v:.3f}" for v in values) + ")"


def exactodds_cell(row: dict) -> str:
    """exactodds's time, or why there is none."""
    ex = row["libraries"].get("exactodds", {})
    if "times" in ex:
        return fmt_time(ex["times"]["min"])
    return "not available yet" if "unavailable" in ex else ("error" if "error" in ex else "-")


def peer_cell(row: dict) -> str:
    """The fastest peer's time and name."""
    if not row["fastest_peer"]:
        return "-"
    return f"{fmt_time(row['fastest_peer_time'])} ({row['fastest_peer']})"


def table_rows(report: dict) -> list[list[str]]:
    """One list of cells per case (header first)."""
    out = [["case", "question", "exactodds", "fastest peer", "exactodds / peer", "answers", "targets"]]
    for r in report["rows"]:
        out.append([r["key"], r["title"], exactodds_cell(r), peer_cell(r), fmt_ratio(r["ratio"]),
                    fmt_answers(r["answers"]), fmt_targets(r["targets"])])
    return out


def render_table(report: dict) -> str:
    """A plain-text table for the console, then every library's time per case."""
    rows = table_rows(report)
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines.append("")
    lines.append("all libraries (min / median of repeats):")
    for r in report["rows"]:
        for lib, x in r["libraries"].items():
            if "times" in x:
                t = x["times"]
                lines.append(f"  {r['key']:<14} {lib:<26} {fmt_time(t['min']):>9} / {fmt_time(t['median']):>9}"
                             f"  ({t['repeats']} repeats)")
            else:
                lines.append(f"  {r['key']:<14} {lib:<26} {x.get('unavailable') or x.get('error')}")
    for r in report["rows"]:
        ex = r["libraries"].get("exactodds", {})
        if "error" in ex:
            lines.append(f"ERROR {r['key']}: {ex['error']}")
    return "\n".join(lines)


def md_table(rows: list[list[str]]) -> str:
    """Rows (header first) as a markdown table."""
    esc = [[c.replace("|", "\\|") for c in r] for r in rows]
    out = ["| " + " | ".join(esc[0]) + " |", "|" + "---|" * len(esc[0])]
    out += ["| " + " | ".join(r) + " |" for r in esc[1:]]
    return "\n".join(out)


def write_docs(report: dict) -> list[Path]:
    """Rewrite docs/performance.md (and its plots when matplotlib is there)."""
    from bench.curves import curve_tables, plot_curves

    images = plot_curves(report.get("curves", {}), IMG)
    PAGE.parent.mkdir(parents=True, exist_ok=True)
    PAGE.write_text(page_text(report, curve_tables(report.get("curves", {})), images))
    return [PAGE, *images]


def update_docs(report: dict) -> list[Path]:
    """Put the rows of a run of some cases (``--cases ... --docs``) into docs/performance.md:
    each case's row replaced, or added after the last row of its group; the count of
    targets met recomputed from the whole table; a line under the table says which rows
    were measured again, when and at what load. The rest of the page is left as it is."""
    lines = PAGE.read_text().split("\n")
    table = md_table(table_rows(report)).split("\n")
    start = lines.index(table[0])
    end = next(i for i in range(start, len(lines)) if not lines[i].startswith("|"))
    rows = merge_rows(lines[start + 2:end], table[2:])
    keys = [r["key"] for r in report["rows"]]
    m = report["machine"]
    load = ", ".join(f"{x:.2f}" for x in m["load"]) if m.get("load") else "?"
    tail = lines[end:]  # from the blank line after the table
    notes = []
    while len(tail) > 2 and tail[1].startswith("Measured again "):  # the notes of earlier partial runs
        notes.append(tail[1])
        del tail[1:3]
    notes = [n for n in notes if not set(_noted(n)) <= set(keys)]
    notes.append(f"Measured again {m['when']} (load average {load}): {', '.join(keys)}.")
    tail[1:1] = [x for n in notes for x in (n, "")]
    at = next((i for i, x in enumerate(tail) if x.startswith("Targets met in this run:")), None)
    if at is not None:
        tail[at] = _recount(rows) + tail[at][tail[at].index(" Answers compared"):]
    simulation = monte_carlo(report).strip()  # when h.assault and its Monte Carlo were measured again
    at = next((i for i, x in enumerate(tail) if x.startswith("**Exact against simulation.**")), None)
    if simulation and at is not None:
        tail[at] = simulation
    PAGE.write_text("\n".join(lines[:start + 2] + rows + tail))
    return [PAGE]


def merge_rows(rows: list[str], new_rows: list[str]) -> list[str]:
    """Markdown table rows with each of ``new_rows`` replacing the row of the same case,
    or added after the last row of its group (the key's letter)."""
    rows = list(rows)
    for new in new_rows:
        key = _cells(new)[0]
        at = [i for i, r in enumerate(rows) if _cells(r)[0] == key]
        if at:
            rows[at[0]] = new
        else:
            group = [i for i, r in enumerate(rows) if _cells(r)[0].split(".")[0] <= key.split(".")[0]]
            rows.insert(group[-1] + 1 if group else 0, new)
    return rows


def _cells(row: str) -> list[str]:
    """The cells of a markdown table row (escaped bars kept in their cell)."""
    return [c.strip().replace("\0", "\\|") for c in row.strip().strip("|").replace("\\|", "\0").split("|")]


def _noted(line: str) -> list[str]:
    """The case keys a "Measured again" line lists."""
    return line.rsplit(": ", 1)[-1].rstrip(".").split(", ")


def _recount(rows: list[str]) -> str:
    """"Targets met in this run: N of M." (and the missed ones) from the table's target cells."""
    met, missed = 0, []
    for row in rows:
        cells = _cells(row)
        for target in cells[-1].split("; "):
            state = target.rsplit(": ", 1)[-1]
            met += state.startswith("met")
            if state.startswith("MISSED"):
                missed.append(f"{cells[0]} ({target.rsplit(': ', 1)[0]})")
    out = f"Targets met in this run: {met} of {met + len(missed)}."
    return out + (" Missed: " + "; ".join(missed) + "." if missed else "")


KEPT = (("## Why exactodds is fast on these questions\n", "## The calculator page\n"),
        ("<!-- /pyodide-timings -->\n", "## How cost grows\n"))
"""Spans of the page (from one line to the next) written by hand: the analysis of
each round's measurements. A full rewrite takes them from the page as it is."""


def page_text(report: dict, curves_md: str, images: list[Path], page: Path = PAGE) -> str:
    """The whole docs page: the template filled in, with the spans of :data:`KEPT`
    as ``page`` holds them (the template's stand-ins when it has none)."""
    m = report["machine"]
    load = ", ".join(f"{x:.2f}" for x in m["load"]) if m.get("load") else "?"
    versions = ", ".join(f"{k} {v}" for k, v in m.get("versions", {}).items())
    pics = "\n\n".join(f"![{p.stem}](img/{p.name})" for p in images)
    text = PAGE_TEMPLATE.format(when=m["when"], platform=m["platform"], cpus=m["cpus"], load=load,
                                versions=versions, table=md_table(table_rows(report)),
                                verdict=verdict(report), curves=curves_md, pictures=pics, pyodide=pyodide_section())
    old = page.read_text() if page.exists() else ""
    for start, end in KEPT:
        if start in old and end in old[old.index(start):] and start in text:
            i, j = old.index(start), old.index(end, old.index(start))
            k, l = text.index(start), text.index(end, text.index(start))
            text = text[:k] + old[i:j] + text[l:]
    return text


def pyodide_section() -> str:
    """The calculator page's timings as docs/performance.md holds them (``bench/pyodide.py``
    writes them), kept when the rest of the page is rewritten."""
    from bench.pyodide import BEGIN, END

    text = PAGE.read_text() if PAGE.exists() else ""
    if BEGIN in text and END in text:
        return text[text.index(BEGIN):text.index(END) + len(END)]
    return f"{BEGIN}\nNot measured yet: `python bench/pyodide.py` measures them.\n{END}"


def verdict(report: dict) -> str:
    """One paragraph: targets met, missed, and whether every answer agreed."""
    met = [(r["key"], t["text"]) for r in report["rows"] for t in r["targets"] if t["met"]]
    missed = [(r["key"], t["text"]) for r in report["rows"] for t in r["targets"] if t["met"] is False]
    differ = [r["key"] for r in report["rows"] if r["answers"]["same"] is False]
    compared = [r["key"] for r in report["rows"] if r["answers"]["same"] is not None]
    out = [f"Targets met in this run: {len(met)} of {len(met) + len(missed)}."]
    if missed:
        out.append("Missed: " + "; ".join(f"{k} ({t})" for k, t in missed) + ".")
    out.append(f"Answers compared on {len(compared)} cases: "
               + ("every library gave the same exact distribution." if not differ
                  else "DIFFERENT answers in " + ", ".join(differ) + "."))
    return " ".join(out) + monte_carlo(report)


def monte_carlo(report: dict) -> str:
    """A paragraph on case h.assault against what a user writes instead, when both ran."""
    t = {r["key"]: r.get("exactodds") for r in report["rows"]}
    exact, simulated = t.get("h.assault"), t.get("h.assault_monte_carlo")
    if not exact or not simulated:
        return ""
    faster = (f"so the exact answer is {simulated / exact:.1f} times faster even for that one figure at that "
              "precision" if exact <= simulated else
              f"so the simulation is {exact / simulated:.1f} times faster for that one figure at that precision")
    return ("\n\n**Exact against simulation.** What a user writes instead of case h.assault is a numpy "
            "Monte Carlo: it reaches a standard error of 1e-3 on P(Marines destroyed) in "
            f"{fmt_time(simulated)}, against {fmt_time(exact)} for the exact answer, {faster}; each engagement's "
            "row above compares it with its own Monte Carlo (see [Battles](#battles-exact-against-simulation)). "
            "The exact answer is every end state's probability at once, with no error to report; a simulation "
            "to a standard error of 1e-5 needs 10,000 times as many games.")


PAGE_TEMPLATE = """# Performance

exactodds answers with exact fractions, and it aims to be the fastest exact
engine for the questions it covers. This page holds the figures measured by
the benchmark suite, side by side with the two best exact dice libraries for
Python, [icepool](https://pypi.org/project/icepool/) and
[dyce](https://pypi.org/project/dyce/), on the same questions in the same
run, with every library's answer checked to be the same exact distribution.

Run it yourself (from the repository, with the project's environment active):

```sh
python bench/run.py            # the table below
python bench/run.py --docs     # also the curves and memory; rewrites this page
```

The peers live in their own virtual environment (`bench/.venv-peers`, made on
first use with a Python 3.12 or newer when one is found; icepool 2.2 needs
3.12); they are benchmark-only dependencies, never runtime ones.

## How it is measured

- One untimed warm-up call per library and case (its answer is the one
  compared), then repeated timed calls until 0.5 s is spent (3 to 25 calls;
  one more call only for a call over 2 s). Figures are the **minimum**; the
  median is in `bench/results/latest.json` and in the console output.
- Before every call each library's `functools` caches are cleared and the
  dice are built afresh, so no call is answered from an earlier call's cache.
  The garbage collector is off during a timed call, as in `timeit`.
- Peers run in a subprocess under their own interpreter; exactodds under the
  project's. Both are CPython; the versions are below.
- Fresh-process cases (f) time a whole new process (interpreter start
  included), 9 times, minimum.
- Ratios are exactodds / fastest peer: 0.01 means 100 times faster.
- A case whose figure is a ratio to another exactodds case (g.sweep1000 to
  g.dice1000, each i.NAME.answer to its i.NAME.step) is timed with its calls
  alternating with that case's, so that both see the same load.
- A slow case another case's figure divides may fix its number of timed
  calls: the first benchmark's code on 40 Orks against 20 Guardsmen (about
  2 s a call), the reference of that case's fallback, is called 5 times.
- Each peer question is written the way a user of that library would write
  it, with its fastest idiom we found (see `bench/peer_impl.py`); where a
  library has two natural idioms both are timed.

Measured {when} on {platform}, {cpus} cores shared with other work (load
average at the start: {load}). Versions: {versions}.

## Side by side

{table}

{verdict}

Absolute times move with the machine's load (this run's is given above);
ratios are measured in the same run, on the same cores, and move much less.

**Known limit: the full joint at N = 1000.** The answer itself has
(N+1)^2 = 1,002,001 outcomes whose exact weights have about 2,600 bits each
(364 MiB, see the memory table). Building it costs about a million exact
big-integer divisions by a small integer in the row recurrence, plus a
dictionary of a million entries: CPython's own integer speed bounds it: about
1.0-1.4 s on a quiet machine (this run), over 4 s at a load average of 6. The Hell Dorado
answer for the same N needs only the tail "even >= odd" and takes about a
quarter of that.

## Why exactodds is fast on these questions

(The sections from here to "The calculator page" are written by hand in
docs/performance.md, with each round's measurements and what bought them;
a full rewrite of the page keeps them as they are there.)

## The calculator page

The [calculator](calculator.md) runs exactodds in the browser (Pyodide, in a Web
Worker, started from a memory snapshot of Python with exactodds imported). Its browser
test measures the time to the first answer with an empty cache: 2.8 to 4.3 s on this
2-core machine shared with other work (load average 7 to 9; 8 to 11 s when Python starts
afresh); the page's own thread runs no task over 200 ms while Python starts or
while it answers (the test checks it, with a 500 ms bound when the machine runs more than
twice as many processes as it has cores). See the calculator page for what it loads and
when.

### The engagement benchmarks on the page

What a user waits for when the page answers one of the engagements of
[Battles](#battles-exact-against-simulation) (group h of the benchmark), against
CPython on the same machine in the same session. The page's browser test asks
each one as the page asks a question, its scenario and unit files pasted, and
the same request of CPython in the test's own process, the two alternating; the
answers must be identical. `python bench/pyodide.py` measures them again and
rewrites this table (see `bench/README.md`).

{pyodide}

## How cost grows

{curves}

{pictures}
"""


if __name__ == "__main__":
    data = json.loads(Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "bench/results/latest.json").read_text())
    sys.path.insert(0, str(ROOT))
    for p in write_docs(data):
        print("wrote", p)
