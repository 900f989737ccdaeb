"""The calculator page: its generated forms and JSON answers (exactodds.webform), and the
page itself in a real browser (headless Chromium driven by Playwright), built as the docs
build builds it and served from 127.0.0.1.

The browser test (marked ``browser``) is skipped where Chromium or Playwright is
missing, except in CI (``CI`` set), where ``.ci/run`` installs both and a missing one is
a failure.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import shlex
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest

from exactodds import ask, webform, webrosters
from exactodds.commands import COMMANDS, Query

ROOT = Path(__file__).resolve().parent.parent
GUARD = "examples/40k6/guard_squad_in_ruins.toml"
SHOOT = {"shots": "20", "bs": "4", "strength": "4", "ap": "5", "target": GUARD}
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(autouse=True)
def _in_a_folder_with_the_examples(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Example unit files are named ``examples/...``, as on the page; pasted files are
    written to ``pasted/`` here, not in the repository."""
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    monkeypatch.chdir(tmp_path)


def _exact(rows: list[dict]) -> list[tuple[str, Fraction]]:
    return [(r["label"], Fraction(r["p"])) for r in rows]


# ------------------------------------------------------------ forms, no browser
def test_every_command_has_a_form_generated_from_its_specs() -> None:
    spec = webform.form_spec()
    ids = [c["id"] for c in spec["commands"]]
    assert sorted(ids) == sorted(webform.command_id(s, c) for s, c in COMMANDS)
    forms = {c["id"]: c for c in spec["commands"]}
    pool = {f["name"]: f for f in forms["pool"]["fields"]}
    assert pool["n"] == {**pool["n"], "input": "number", "min": 0, "required": True, "positional": True,
                         "flag": "N", "multiple": False}
    assert pool["sides"]["default"] == 6 and not pool["sides"]["required"]
    assert pool["reroll_failed"]["input"] == "checkbox"
    assert "'Hit'" in pool["reroll_hit"]["help"]  # {hit} spelled with the form's label
    shoot = {f["name"]: f for f in forms["40k6/shoot"]["fields"]}
    assert shoot["target"]["input"] == "file" and shoot["bs"]["max"] == 10
    assert shoot["outcome"]["choices"] and shoot["outcome"]["default"] == "casualties"
    charge = {f["name"]: f for f in forms["40k6/charge"]["fields"]}
    assert charge["roll"]["multiple"] and charge["roll"]["input"] == "select"
    json.dumps(spec)  # plain data


def test_each_form_starts_from_its_documented_example() -> None:
    forms = {c["id"]: c for c in webform.form_spec()["commands"]}
    example = forms["pool"]["example"]
    assert example == {"n": "40", "hit": "2+", "reroll": "1", "reroll_hit": "5+"}
    res = webform.run({"system": "pool", "params": example})
    # BS 7: 2+ with 1s rerolled at 5+, each die hits with 5/6 + 1/6 * 1/3 = 8/9
    assert Fraction(res["rows"][-1]["p"]) == Fraction(8, 9) ** 40 and Fraction(res["mean"]) == Fraction(320, 9)
    assert forms["hd/shoot"]["example"]["engaged_def"] == ["3", "5"]  # a repeated option
    assert forms["40k6/fight"]["example"]["attacker_charged"] is True  # a flag


def test_examples_are_unit_files_not_queries() -> None:
    examples = webform.example_files(ROOT / "examples")
    assert GUARD in examples["40k6"]
    assert "examples/hh3/rhino.toml" in examples["hh3"]
    assert not any("query" in p for ps in examples.values() for p in ps)


def test_run_answers_exactly() -> None:
    res = webform.run({"system": "pool", "params": {"n": "3", "hit": "4+"}})
    assert res["ok"] and res["command_line"] == "exactodds pool 3 --hit 4+"
    # 3 dice at 4+: 1/8, 3/8, 3/8, 1/8; P(>=): 1, 7/8, 1/2, 1/8
    assert _exact(res["rows"]) == [("0", Fraction(1, 8)), ("1", Fraction(3, 8)), ("2", Fraction(3, 8)),
                                   ("3", Fraction(1, 8))]
    assert [Fraction(r["at_least"]) for r in res["rows"]] == [1, Fraction(7, 8), Fraction(1, 2), Fraction(1, 8)]
    assert res["mean"] == "3/2" and res["window"] == [0, 1, 2, 3]
    assert Query.from_text(res["toml"]) == Query("pool", None, {"n": 3, "hit": "4+"})


def test_the_window_shows_the_most_probable_rows_first() -> None:
    res = webform.run({"system": "pool", "params": {"n": "100", "hit": "4+"}})
    assert len(res["rows"]) == 101 and len(res["window"]) == 25
    # Binomial(100, 1/2) is symmetric: the 25 most probable outcomes are 38..62
    assert [res["rows"][i]["label"] for i in res["window"]] == [str(k) for k in range(38, 63)]
    assert Fraction(res["rows"][50]["p"]) == Fraction(comb(100, 50), 2 ** 100)
    assert [g["where"] for g in res["gaps"]] == ["below", "above"]


def test_bad_input_is_one_line_naming_the_field() -> None:
    res = webform.run({"system": "40k6", "command": "shoot", "params": {**SHOOT, "bs": "11"}})
    assert res == {**res, "ok": False, "error": "input", "field": "bs",
                   "reason": "11 is out of range: use a whole number from 1 to 10",
                   "message": "'BS': 11 is out of range: use a whole number from 1 to 10"}
    res = webform.run({"system": "pool", "params": {"hit": "4+"}})
    assert res["field"] == "n" and res["message"] == "'N': a value is required"
    res = webform.run({"system": "40k6", "command": "shoot", "params": {**SHOOT, "target": "nowhere.toml"}})
    assert res["field"] == "target" and "nowhere.toml: cannot read the file" in res["message"]
    res = webform.run({"system": "40k6", "command": "shoot", "params": SHOOT,
                       "files": {"pasted/x.toml": "[[models]\n"}})
    assert res["ok"]  # an unused pasted file is only written
    res = webform.run({"system": "40k6", "command": "shoot", "params": {**SHOOT, "target": "pasted/x.toml"},
                       "files": {"pasted/x.toml": "name = [\n"}})
    assert not res["ok"] and res["field"] == "target" and "\n" not in res["message"]
    res = webform.run({"system": "pool", "params": {"n": "3", "hit": "4+"}, "files": {"../escape.toml": "x"}})
    assert not res["ok"] and "pasted/NAME.toml" in res["message"]
    assert not (Path.cwd().parent / "escape.toml").exists()
    assert json.loads(webform.run_json("{not json"))["ok"] is False
    assert webform.run("nonsense")["ok"] is False  # type: ignore[arg-type]


def test_over_the_limit_is_refused_with_its_size() -> None:
    res = webform.run({"system": "pool", "params": {"n": "5000", "hit": "4+", "reroll_up_to": "100"},
                       "max_states": "1000"})
    assert res["error"] == "too_large" and "over the limit of 1,000" in res["message"]


POOL = {"system": "pool", "params": {"n": "3", "hit": "4+"}}
FILE_NAME = "pasted/NAME.toml, NAME of at most 100 letters, digits, _, . and -"


@pytest.mark.parametrize(("request_", "field", "message"), [
    ({**POOL, "max_states": "lots"}, "max_states",
     "'Max states': 'lots' is not a state limit: use a whole number 1 or more"),
    ({**POOL, "max_states": "9" * 5000}, "max_states",
     "'Max states': '999999999999999999999999999999999999999...(5,002 characters) is far too large "
     "(5,000 digits): use a whole number 1 or more"),
    ({**POOL, "max_states": 10**5000}, "max_states",
     "'Max states': a number of 5,001 digits is far too large: use a whole number 1 or more"),
    ({**POOL, "max_states": [1]}, "max_states", "'Max states': [1] is not a state limit: use a whole number 1 or more"),
    ({**POOL, "max_states": 1.5}, "max_states", "'Max states': 1.5 is not a state limit: use a whole number 1 or more"),
    ({**POOL, "max_states": True}, "max_states",
     "'Max states': True is not a state limit: use a whole number 1 or more"),
    ({**POOL, "system": ["pool"]}, "system",
     "'System': ['pool'] is not a system; allowed are pool, hd, 40k6, scenario, hh3"),
    ({"system": "40k6", "command": ["shoot"]}, "command", "'Command': ['shoot'] is not a command's name"),
    ({"system": "pool", "params": ["n"]}, "params", "'Params': ['n'] is not a mapping of parameter names to values"),
    ({"system": "pool", "params": {5: "3"}}, "params",
     "'Params': {5: '3'} is not a mapping of parameter names to values"),
    ({**POOL, "files": ["x"]}, "files", "'Files': ['x'] is not a mapping of pasted file names to their text"),
    ({**POOL, "files": {"pasted/a.toml": b"x = 1"}}, "files", "'Files': pasted/a.toml: a pasted file is text, not bytes"),
    ({**POOL, "files": {"pasted/a\0.toml": "x = 1"}}, "files", f"'Files': 'pasted/a\\x00.toml': pasted files are "
                                                               f"written to {FILE_NAME}"),
    ({**POOL, "files": {"pasted/" + "a" * 295 + ".toml": "x = 1"}}, "files",
     f"'Files': 'pasted/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...(309 characters): pasted files are written to {FILE_NAME}"),
    ({**POOL, "files": {"pasted/a.toml": "x = '\ud800'"}}, "files",
     "'Files': pasted/a.toml: a pasted file is text that UTF-8 can write (it holds a lone surrogate)"),
    ({"system": "pool", "params": {"n": 10**5000, "hit": "4+"}}, "n",
     "'N': a number of 5,001 digits is far too large: use a whole number 0 or more"),
])
def test_hostile_requests_are_refused_by_their_field(request_: dict, field: str, message: str) -> None:
    """Each refusal is an input error naming the request's field, and nothing is written."""
    res = webform.run(request_)
    assert (res["ok"], res["error"], res["field"], res["message"]) == (False, "input", field, message)
    assert sorted(p.name for p in Path.cwd().iterdir()) == ["examples"]


@pytest.mark.parametrize(("text", "message"), [
    ('{"system": "pool", "params": {"n": "3", "hit": "4+"}, "max_states": 1e400}',
     "'Max states': inf is not a state limit: use a whole number 1 or more"),
    ("[" * 100_000 + "]" * 100_000,
     "the request is not allowed: JSON arrays and objects nested more than 32 levels deep (at most 32)"),
    ('{"system": "pool", "params": {"n": ' + "9" * 5000 + ', "hit": "4+"}}',
     "the request is not allowed: a number of 5,000 digits is far too large (at most 30 digits)"),
    ('{"system": "pool", "params": {"n": NaN, "hit": "4+"}}', "the request is not JSON: NaN is not a number JSON allows"),
])
def test_hostile_json_is_refused(text: str, message: str) -> None:
    res = json.loads(webform.run_json(text))
    assert (res["ok"], res["error"], res["message"]) == (False, "input", message)


def test_an_answer_too_long_to_write_is_refused_up_front_as_on_the_command_line() -> None:
    """20,000 dice at 4+: fractions of 6,021 digits, refused before they are written
    (the same check as ``exactodds pool 20000 --hit 4+``), in well under the 17 s writing them took."""
    from click.testing import CliRunner

    from exactodds.cli import main

    start = time.process_time()  # processor seconds: they do not grow on a busy machine
    res = webform.run({"system": "pool", "params": {"n": "20000", "hit": "4+"}})
    assert time.process_time() - start < 5  # generous: measured 0.2 s
    message = ("the answer has exact fractions of about 6,021 digits, over Python's limit of 4,300 digits for "
               "writing an integer as text; ask a smaller question, or raise it with the environment variable "
               "PYTHONINTMAXSTRDIGITS (0 = no limit)")
    assert (res["ok"], res["error"], res["message"]) == (False, "too_large", message)
    cli = CliRunner().invoke(main, ["pool", "20000", "--hit", "4+"])
    assert (cli.exit_code, cli.output) == (2, f"Error: {message}\n")


def test_a_pasted_unit_file_is_the_same_question_as_the_file(tmp_path: Path) -> None:
    text = (ROOT / GUARD).read_text()
    pasted = webform.run({"system": "40k6", "command": "shoot", "files": {"pasted/target.toml": text},
                          "params": {**SHOOT, "target": "pasted/target.toml"}})
    assert pasted["ok"] and (tmp_path / "pasted" / "target.toml").read_text() == text
    direct = ask("40k6", "shoot", shots=20, bs=4, strength=4, ap=5, target=str(ROOT / GUARD))
    assert _exact(pasted["rows"]) == [(str(x), p) for x, p in direct.dist.items()]


# ------------------------------------------------------------------ the page
def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The documentation site, built as the README says (mkdocs runs the calculator's build)."""
    out = tmp_path_factory.mktemp("site")
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", str(ROOT / "mkdocs.yml"),
                    "-d", str(out)], check=True, cwd=ROOT)
    return out


@pytest.fixture(scope="module")
def server(site: Path) -> Iterator[str]:
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}/calculator/"
    httpd.shutdown()
    thread.join(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    path = _chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sync_playwright = None
    if path is None or sync_playwright is None:
        missing = "chromium" if path is None else "the playwright package"
        if os.environ.get("CI"):
            pytest.fail(f"{missing} is not installed; .ci/run installs it for this test")
        pytest.skip(f"{missing} is not installed (apt-get install chromium; pip install playwright)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield b
        b.close()


LONG_TASKS = """window.eoLongTasks = []; window.eoScreenshots = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.eoLongTasks.push([e.startTime, e.duration]);
}).observe({ type: "longtask", buffered: true });"""
"""Every task over 50 ms on the page's thread (the browser reports no shorter one), with
when it started; and when the test took screenshots (the page's thread draws them)."""


def _open(browser: object, url: str, requests: list[str]) -> object:
    page = browser.new_page(viewport={"width": 1400, "height": 1800})  # type: ignore[attr-defined]
    page.set_default_timeout(120_000)  # a busy shared machine can keep the page's Python busy past 30 s
    page.on("request", lambda r: requests.append(r.url))
    page.add_init_script(LONG_TASKS)
    page.goto(url)
    page.wait_for_function("window.exactoddsCalculator && window.exactoddsCalculator.timings.firstAnswer !== null",
                           timeout=120_000)
    return page


def _answer(page: object, panel: int = 0) -> dict:
    """Answer the question on a panel's form now; the result the page showed. (The field
    being typed in is left first, as a person would, so its change is answered before.)"""
    return page.evaluate("document.activeElement && document.activeElement.blur(), "  # type: ignore[attr-defined]
                         f"window.exactoddsCalculator.panels[{panel}].answer()")


def _table(page: object, panel: int = 0) -> list[tuple[str, str]]:
    """The rows of a panel's table: each outcome and its exact probability (the cell shows
    a decimal; the exact fraction is its tooltip and ``data-exact``)."""
    return [(x, "1" if p == "1/1" else p) for x, p in page.evaluate(  # type: ignore[attr-defined]
        f"""[...document.querySelectorAll('[data-panel="{panel}"] .eo-table tbody tr:not(.eo-gap)')]
            .map(tr => [tr.dataset.outcome, tr.querySelector('.eo-p .eo-num').dataset.exact])""")]


def _longest_task(page: object) -> float:
    """The longest task on the page's thread so far, in ms (0: none over 50 ms), but for
    the test's own screenshots."""
    return page.evaluate(  # type: ignore[attr-defined]
        """Math.max(0, ...window.eoLongTasks
        .filter(([t, d]) => !window.eoScreenshots.some(([a, b]) => t + d > a && t < b)).map(([t, d]) => d))""")


def _task_bound() -> float:
    """The longest task the page's thread may run, in ms, after checking that Python never
    ran on it (:func:`_python_in_the_worker_only`): 1,000. The page's own tasks (a form, a
    table drawn 50 rows at a time) take tens of ms; Python's start or an answer computed on
    the page's thread takes seconds. No guess at the machine's load: a task's duration is
    wall time, so what is checked exactly is where Python runs."""
    return 1000


def _python_in_the_worker_only(page: object) -> None:
    """Python is loaded and run by the worker only: the page's thread has no Pyodide and
    fetched none of its files (its resource timings list its own fetches, not the worker's),
    and the worker has Pyodide. Independent of the machine's speed."""
    main = page.evaluate(  # type: ignore[attr-defined]
        """[typeof window.loadPyodide, typeof window.pyodide,
        performance.getEntriesByType("resource").map(e => e.name).filter(n => /pyodide/.test(n))]""")
    assert main == ["undefined", "undefined", []], main
    assert any(w.evaluate("typeof loadPyodide") == "function" for w in page.workers)  # type: ignore[attr-defined]


def _screenshot(page: object, path: Path) -> None:
    start = page.evaluate("performance.now()")  # type: ignore[attr-defined]
    page.screenshot(path=str(path), full_page=True)  # type: ignore[attr-defined]
    page.evaluate(f"window.eoScreenshots.push([{start}, performance.now()])")  # type: ignore[attr-defined]


def _fill_shoot(page: object, panel: int = 0) -> None:
    page.select_option(f'[data-panel="{panel}"] .eo-command', "40k6/shoot")  # type: ignore[attr-defined]
    for name, value in SHOOT.items():
        if name == "target":
            page.select_option(f"#eo-{panel}-target", value)  # type: ignore[attr-defined]
        else:
            page.fill(f"#eo-{panel}-{name}", value)  # type: ignore[attr-defined]


def _shown(value: Fraction) -> str:
    return "1" if value == 1 else f"{value.numerator}/{value.denominator}"


@pytest.mark.browser
def test_the_page_in_a_browser(browser: object, server: str, tmp_path: Path) -> None:
    shots = Path(os.environ.get("EXACTODDS_SCREENSHOTS") or tmp_path)
    requests: list[str] = []
    start = time.monotonic()
    page = _open(browser, server, requests)
    first = time.monotonic() - start
    timings = page.evaluate("window.exactoddsCalculator.timings")
    print(f"\ncalculator: first answer after {first:.1f} s (Python ready after {timings['ready'] / 1000:.1f} s; "
          f"in the worker, ms from its start: {timings['worker']}); longest task on the page: "
          f"{_longest_task(page):.0f} ms")
    assert first < 60  # about 4 s on an idle machine; generous for a loaded CI machine
    _python_in_the_worker_only(page)  # Python starts in a worker: the page never freezes
    assert _longest_task(page) < _task_bound()

    # a pool question: 4 dice hitting on 5+, C(4,k) (1/3)^k (2/3)^(4-k)
    page.fill("#eo-0-n", "4")
    page.fill("#eo-0-hit", "5+")
    res = _answer(page)
    assert res["ok"]
    binomial = [Fraction(comb(4, k) * 2 ** (4 - k), 3 ** 4) for k in range(5)]
    assert _table(page) == [(str(k), _shown(p)) for k, p in enumerate(binomial)]
    assert page.get_attribute('[data-panel="0"] .eo-mean', "data-exact") == "4/3"
    assert page.inner_text('[data-panel="0"] .eo-mean') == "1.333"  # decimals first
    assert page.inner_text('[data-panel="0"] [data-outcome="1"] .eo-p') == "0.3951"  # 32/81
    page.check("#eo-exact")  # exact fractions on request
    assert page.inner_text('[data-panel="0"] [data-outcome="1"] .eo-p') == "32/81"
    assert page.inner_text('[data-panel="0"] .eo-mean') == "4/3"
    page.uncheck("#eo-exact")
    page.fill('[data-panel="0"] .eo-k', "2")  # P(>= 2) = (24 + 8 + 1)/81 = 11/27
    assert page.get_attribute('[data-panel="0"] .eo-at-least', "data-exact") == "11/27"
    assert page.locator('[data-panel="0"] .eo-bar').count() == 5
    page.check('[data-panel="0"] .eo-at-least-view')
    assert "at least (P(X ≥ x))" in page.inner_text('[data-panel="0"] .eo-chart-head')
    assert page.locator('[data-panel="0"] svg.eo-cum .eo-bar').count() == 5

    # the 40K shooting question, against the CLI's exact answer
    _fill_shoot(page)
    t0 = time.monotonic()
    res = _answer(page)
    later = time.monotonic() - t0
    assert res["ok"], res
    print(f"calculator: 40k6 shoot answered in {later * 1000:.0f} ms")
    assert later < 60  # a hang, not a slow machine: well under 1 s here
    expected = ask("40k6", "shoot", shots=20, bs=4, strength=4, ap=5, target=GUARD)
    assert _table(page) == [(str(x), _shown(p)) for x, p in expected.dist.items()]
    assert page.get_attribute('[data-panel="0"] .eo-mean', "data-exact") == \
        f"{expected.mean.numerator}/{expected.mean.denominator}"
    assert Fraction(page.get_attribute('[data-panel="0"] dd[data-name="mean_hits"] .eo-num', "data-exact")) == \
        Fraction(40, 3)

    # Copy as CLI command and Download query TOML give what exactodds (run) accepts
    page.click('[data-panel="0"] .eo-copy-cli')
    cli = page.input_value(".eo-share-out")
    assert cli == "exactodds 40k6 shoot --shots 20 --bs 4 --strength 4 --ap 5 --target " + GUARD
    from exactodds.cli.generate import query_from_args

    assert query_from_args(shlex.split(cli)[1:]).answer().dist == expected.dist
    with page.expect_download() as download:
        page.click('[data-panel="0"] .eo-download')
    toml = Path(download.value.path()).read_text()
    (tmp_path / "query.toml").write_text(toml)
    run = subprocess.run([sys.executable, "-m", "exactodds", "run", str(tmp_path / "query.toml"), "--format", "json"],
                         capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert [Fraction(o["p"]) for o in json.loads(run.stdout)["outcomes"]] == [p for _, p in expected.dist.items()]

    # compare mode: a second question beside the first
    page.check("#eo-compare")
    page.wait_for_selector('[data-panel="1"] .eo-table')
    page.fill("#eo-1-bs", "3")
    res2 = _answer(page, 1)
    by_bs3 = ask("40k6", "shoot", shots=20, bs=3, strength=4, ap=5, target=GUARD)
    assert _table(page, 1) == [(str(x), _shown(p)) for x, p in by_bs3.dist.items()]
    assert res2["ok"] and _table(page, 0) == [(str(x), _shown(p)) for x, p in expected.dist.items()]
    # both answers on one chart, and their differences as `exactodds compare` gives them
    assert page.locator(".eo-compare-view svg .eo-bar.eo-s1").count() > 0
    mean_diff = by_bs3.mean - expected.mean
    assert Fraction(page.get_attribute(".eo-mean-diff .eo-num:last-child", "data-exact")) == mean_diff
    at_least = {k: sum((p for x, p in by_bs3.dist.items() if x >= k), Fraction(0))
                - sum((p for x, p in expected.dist.items() if x >= k), Fraction(0)) for k in (1, 5)}
    for k, d in at_least.items():
        assert Fraction(page.get_attribute(f'.eo-diff-table tr[data-k="{k}"] .eo-diff .eo-num', "data-exact")) == d
    _screenshot(page, shots / "calculator_compare.png")

    # the link reproduces both questions and their answers
    page.click(".eo-copy-link")
    link = page.input_value(".eo-share-out")
    assert link.startswith(server + "#q=")
    other = _open(browser, link, requests)
    other.wait_for_selector('[data-panel="1"] .eo-table')
    assert other.input_value("#eo-0-shots") == "20" and other.input_value("#eo-1-bs") == "3"
    assert other.input_value('[data-panel="0"] .eo-command') == "40k6/shoot"
    assert _table(other, 0) == _table(page, 0) and _table(other, 1) == _table(page, 1)
    other.close()

    # a pasted unit file travels in the link: the squad with one Guardsman in the open instead
    # of four (7 models instead of 10)
    page.uncheck("#eo-compare")
    text = (ROOT / GUARD).read_text()
    head, sep, tail = text.rpartition("count = 4")
    assert sep and 'name = "Guardsman (open)"' in head[-40:]
    edited = head + "count = 1" + tail
    page.select_option("#eo-0-target", "__paste__")
    page.fill('[data-panel="0"] .eo-toml', edited)
    res = _answer(page)
    assert res["ok"], res
    (tmp_path / "five.toml").write_text(edited)
    five = ask("40k6", "shoot", shots=20, bs=4, strength=4, ap=5, target=str(tmp_path / "five.toml"))
    assert _table(page) == [(str(x), _shown(p)) for x, p in five.dist.items()]
    assert max(x for x, _ in five.dist.items()) == 7
    page.click(".eo-copy-link")
    other = _open(browser, page.input_value(".eo-share-out"), requests)
    assert other.input_value('[data-panel="0"] .eo-toml') == edited
    assert _table(other) == _table(page)
    other.close()

    # a bad value: the command line's reason beside the field, nothing else answered
    page.select_option("#eo-0-target", GUARD)
    page.fill("#eo-0-bs", "11")
    res = _answer(page)
    reason = "11 is out of range: use a whole number from 1 to 10"
    cli = subprocess.run([sys.executable, "-m", "exactodds", "40k6", "shoot", "--shots", "20", "--bs", "11",
                          "--strength", "4", "--target", GUARD], capture_output=True, text=True, cwd=ROOT)
    assert cli.returncode == 2 and reason in cli.stderr
    assert page.inner_text('[data-name="bs"] .eo-field-error') == reason
    assert page.inner_text('[data-panel="0"] .eo-message') == "'BS': " + reason
    assert page.locator('[data-panel="0"] .eo-table').count() == 0
    assert "Traceback" not in page.inner_text("#exactodds-calculator")
    _screenshot(page, shots / "calculator_error.png")

    # every command has a working form: answered, or refused for a value left empty, beside its field
    commands_by_id = {c["id"]: c for c in webform.form_spec()["commands"]}
    ids = page.evaluate("[...document.querySelectorAll('[data-panel=\"0\"] .eo-command option')].map(o => o.value)")
    assert sorted(ids) == sorted(webform.command_id(s, c) for s, c in COMMANDS)
    for command_id in ids:
        page.select_option('[data-panel="0"] .eo-command', command_id)
        res = _answer(page)
        # (or refused for an example file that does not fit, e.g. a unit with no close-combat profile)
        assert res["ok"] or (res["error"] == "input" and res["field"] and "\n" not in res["message"]), \
            (command_id, res)
        assert page.locator('[data-panel="0"] .eo-field').count() == len(commands_by_id[command_id]["fields"])

    # over the work limit: refused with its size, at once
    page.select_option('[data-panel="0"] .eo-command', "pool")
    for name in ("reroll", "reroll_hit"):  # the form starts from the documented example
        page.fill(f"#eo-0-{name}", "")
    page.fill("#eo-0-n", "5000")
    page.fill("#eo-0-hit", "4+")
    page.fill("#eo-0-reroll_up_to", "100")
    page.fill("#eo-max-states", "1000")
    res = _answer(page)
    message = page.inner_text('[data-panel="0"] .eo-message')
    assert res["error"] == "too_large" and "over the limit of 1,000" in message
    assert "Work limit box" in message and "EXACTODDS_MAX_STATES" not in message
    page.fill("#eo-max-states", "")
    assert _longest_task(page) < _task_bound(), json.dumps(page.evaluate("window.eoLongTasks"))
    page.close()

    assert requests and all(u.startswith("http://127.0.0.1:") or u.startswith("blob:") for u in requests), \
        [u for u in requests if not u.startswith("http://127.0.0.1:")]


ASSAULT = {"attacker": "examples/40k6/ork_boyz_sluggas.toml", "defender": "examples/40k6/tactical_squad_mixed_weapons.toml",
           "distance": "7", "rounds": "3"}


@pytest.mark.slow  # runs in CI (CI=true); the default run stays short on two cores
@pytest.mark.browser
def test_composite_answers_scenarios_and_cancelling(browser: object, server: str, tmp_path: Path) -> None:
    shots = Path(os.environ.get("EXACTODDS_SCREENSHOTS") or tmp_path)
    import base64

    # a shared link to the flagship assault: Python starts once, and answers it
    state = {"v": 1, "q": [{"id": "40k6/assault", "values": ASSAULT, "files": {}}]}
    link = server + "#q=" + base64.urlsafe_b64encode(json.dumps(state).encode()).decode().rstrip("=")
    requests: list[str] = []
    page = _open(browser, link, requests)
    page.wait_for_selector('[data-panel="0"] .eo-marginal')
    assert sum(u.endswith("/worker.js") for u in requests) == 1
    assert sum(u.endswith("/pyodide.asm.wasm") for u in requests) == 1
    assert page.input_value("#eo-0-distance") == "7" and page.input_value("#eo-0-attacker") == ASSAULT["attacker"]
    # decimals, one small chart per part of the outcome, the 10 most probable outcomes: a short page
    assert page.evaluate("document.documentElement.scrollHeight") < 3000
    assert page.locator("#eo-0-vehicle_moved").is_hidden()  # asked only when the defender is a vehicle
    fields = page.evaluate("[...document.querySelectorAll('.eo-marginal')].map(f => f.dataset.field)")
    assert fields == ["attacker", "attacker_status", "defender", "defender_status"]
    assert page.locator('[data-panel="0"] .eo-table tbody tr').count() == 10
    expected = ask("40k6", "assault", attacker=ASSAULT["attacker"], defender=ASSAULT["defender"], distance=7, rounds=3)
    assert page.inner_text('[data-panel="0"] .eo-all') == f"Show all {len(expected.dist)} rows"
    # the charge fails with P 5/12 (the Boyz need 7 on 2D6: 21/36)
    status = {r["label"]: r for r in page.evaluate("window.exactoddsCalculator.panels[0].last.marginals[1].rows")}
    assert status["charge failed"]["p"] == "5/12"
    _screenshot(page, shots / "calculator_assault.png")
    assert _longest_task(page) < _task_bound(), page.evaluate("window.eoLongTasks")  # start-up and the answer
    page.click('[data-panel="0"] .eo-all')
    page.wait_for_function("document.querySelectorAll('[data-panel=\"0\"] .eo-table tbody tr').length === "
                           f"{len(expected.dist)}")  # drawn 50 rows at a time
    assert page.evaluate("Math.max(...[...document.querySelectorAll('.eo-table td')].map(td => td.offsetHeight))") < 60
    page.evaluate("window.eoLongTasks.length = 0")  # (drawing every row, on request, is no answer: not counted)

    # a question can be cancelled: Python restarts, and answers the next one
    page.evaluate("window.eoRunning = window.exactoddsCalculator.panels[0].answer(), 0")  # not awaited
    page.click(".eo-cancel")
    assert page.evaluate("window.eoRunning")["error"] == "cancelled"
    page.select_option('[data-panel="0"] .eo-command', "pool")
    assert _answer(page)["ok"]

    # the scenario form starts from a shipped scenario, answered
    page.select_option('[data-panel="0"] .eo-command', "scenario")
    scenarios = page.evaluate("[...document.querySelectorAll('#eo-0-file option')].map(o => o.value)")
    assert "examples/scenarios/firefight.toml" in scenarios
    assert page.input_value("#eo-0-file").startswith("examples/scenarios/")
    res = _answer(page)
    assert res["ok"], res
    assert len(res["marginals"]) >= 2
    page.wait_for_function(f"document.querySelectorAll('[data-panel=\"0\"] .eo-marginal').length === "
                           f"{len(res['marginals'])}")  # drawn in a task after the figures
    _screenshot(page, shots / "calculator_scenario.png")

    # Gets Hot's firer fields show with the rule only; Facing with a vehicle target only
    page.select_option('[data-panel="0"] .eo-command', "40k6/shoot")
    assert not page.is_visible('[data-panel="0"] [data-name="firer_wounds"]')
    page.select_option("#eo-0-target", "examples/40k6/rhino.toml")
    page.wait_for_selector('[data-panel="0"] [data-name="facing"]', state="visible")
    page.select_option("#eo-0-target", GUARD)
    page.wait_for_selector('[data-panel="0"] [data-name="facing"]', state="hidden")
    page.select_option('[data-panel="0"] .eo-command', "40k6/hit")
    assert not page.is_visible('[data-panel="0"] [data-name="firers"]')
    page.click('[data-panel="0"] [data-name="rules"] .eo-add')
    page.select_option('[data-panel="0"] [data-name="rules"] .eo-item:last-child select', "gets-hot")
    assert page.is_visible('[data-panel="0"] [data-name="firers"]')
    assert _longest_task(page) < _task_bound(), json.dumps(page.evaluate("window.eoLongTasks"))
    page.close()


# ------------------------------------------------------- rosters and unit blocks, no browser
ORK_ROSTER = ROOT / "examples" / "rosters" / "ork_boyz.rosz"


def test_a_dropped_roster_is_imported_as_exactodds_import_does(tmp_path: Path) -> None:
    import base64

    res = webrosters.import_roster_data({"name": "ork_boyz.rosz",
                                      "base64": base64.b64encode(ORK_ROSTER.read_bytes()).decode()})
    assert res["ok"] and res["roster"] == "ork_boyz.rosz" and res["system"] == "40k6"
    assert [(u["name"], u["file"], u["points"]) for u in res["units"]] == [("Klaw Boyz", "klaw_boyz.toml", 101),
                                                                          ("Shoota Mob", "shoota_mob.toml", 84)]
    assert "Klaw Boyz: rule not modelled: Mob Rule" in res["warnings"]
    # the same files as the command line writes
    r = subprocess.run([sys.executable, "-m", "exactodds", "import", str(ORK_ROSTER), "--out", str(tmp_path / "a")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert [u["text"] for u in res["units"]] == [(tmp_path / "a" / u["file"]).read_text() for u in res["units"]]
    # an imported unit answers as a pasted unit file
    run = webform.run({"system": "40k6", "command": "assault",
                       "params": {"attacker": "pasted/attacker.toml", "distance": "7",
                                  "defender": "examples/40k6/tactical_squad_mixed_weapons.toml"},
                       "files": {"pasted/attacker.toml": res["units"][0]["text"]}})
    assert run["ok"], run
    assert [b["unit"] for b in run["units"]] == ["attacker", "defender"]
    assert run["units"][0]["lines"][0] == "attacker: Klaw Boyz left (of 11)"  # 10 Boyz and their Nob


@pytest.mark.parametrize(("request_", "message"), [
    ({"name": "x.ros", "text": "hello"}, "x.ros: not a roster (not XML"),
    ({"name": "x.rosz", "base64": "!!"}, "x.rosz: the file's content did not arrive whole"),
    ({}, "no roster given"),
    ({"name": 3, "text": "<a/>"}, "a roster's name is text, not int"),
    ([], "a roster request is a JSON object"),
])
def test_a_bad_roster_is_one_line_naming_it(request_: object, message: str) -> None:
    res = webrosters.import_roster_data(request_)
    assert res["ok"] is False and message in res["message"] and "\n" not in res["message"]
    assert json.loads(webrosters.import_roster_json(json.dumps(request_))) == res


def test_engagement_answers_carry_the_command_lines_unit_blocks() -> None:
    assault = {"attacker": "examples/40k6/ork_boyz_sluggas.toml",
               "defender": "examples/40k6/tactical_squad_mixed_weapons.toml", "distance": "7", "rounds": "3"}
    res = webform.run({"system": "40k6", "command": "assault", "params": assault})
    cli = subprocess.run([sys.executable, "-m", "exactodds", "40k6", "assault", "--attacker", assault["attacker"],
                          "--defender", assault["defender"], "--distance", "7", "--rounds", "3"],
                         capture_output=True, text=True, cwd=ROOT)
    printed = cli.stdout.splitlines()
    blocks = [line for b in res["units"] for line in b["lines"]]
    at = printed.index("attacker: Ork Boyz left (of 20)")
    assert blocks == printed[at:at + len(blocks)] and printed[at + len(blocks)] == "most probable outcomes:"
    # the charge fails with 5/12 (7 or more on 2D6 succeeds with 21/36)
    assert "  P(charge failed)  5/12 ≈ 0.4167    P(at least 17 left)  0.5496" in res["units"][0]["lines"]
    assert "p_charge_fails" in res["covered"] and "p_destroyed" in res["covered"]  # left out of the figures
    assert webform.run({"system": "pool", "params": {"n": "3", "hit": "4+"}})["units"] == []


@pytest.mark.slow  # runs in CI (CI=true); the default run stays short on two cores
@pytest.mark.browser
def test_a_roster_on_the_page_gives_the_unit_pickers_its_units(browser: object, server: str, tmp_path: Path) -> None:
    shots = Path(os.environ.get("EXACTODDS_SCREENSHOTS") or tmp_path)
    requests: list[str] = []
    page = _open(browser, server, requests)
    page.click(".eo-roster summary")
    # a .rosz chosen with the file input
    page.set_input_files(".eo-roster-file", str(ORK_ROSTER))
    page.wait_for_selector(".eo-roster-units li")
    assert page.locator(".eo-roster-units li").all_inner_texts() == ["Klaw Boyz (101 points)", "Shoota Mob (84 points)"]
    page.click(".eo-roster-warnings summary")
    assert "Klaw Boyz: rule not modelled: Mob Rule" in page.inner_text(".eo-roster-warnings")
    # its units are offered to the assault's attacker, answered as the command line answers them
    page.select_option('[data-panel="0"] .eo-command', "40k6/assault")
    options = page.evaluate("[...document.querySelectorAll('#eo-0-attacker option')].map(o => [o.value, o.textContent])")
    klaw = next(v for v, t in options if t == "Klaw Boyz (101 pts, ork_boyz.rosz)")
    page.select_option("#eo-0-attacker", klaw)
    page.select_option("#eo-0-defender", ASSAULT["defender"])
    page.fill("#eo-0-distance", "7")
    page.fill("#eo-0-rounds", "3")
    res = _answer(page)
    assert res["ok"], res
    r = subprocess.run([sys.executable, "-m", "exactodds", "import", str(ORK_ROSTER), "--out", str(tmp_path / "army")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    cli = subprocess.run([sys.executable, "-m", "exactodds", "40k6", "assault", "--attacker",
                          str(tmp_path / "army" / "klaw_boyz.toml"), "--defender", ASSAULT["defender"],
                          "--distance", "7", "--rounds", "3"], capture_output=True, text=True, cwd=ROOT)
    assert cli.returncode == 0, cli.stderr
    page.wait_for_selector('[data-panel="0"] .eo-unit-block[data-unit="defender"]')
    shown = page.evaluate("[...document.querySelectorAll('[data-panel=\"0\"] .eo-unit-block')].map(b => b.textContent)")
    printed = cli.stdout
    assert len(shown) == 2 and all(block in printed for block in shown)
    assert shown[0].startswith("attacker: Klaw Boyz left (of 11)\n  P(destroyed)")
    page.wait_for_selector('[data-panel="0"] .eo-marginal')
    _screenshot(page, shots / "calculator_roster.png")
    page.click(".eo-roster summary")  # closed, the roster box is one line of the toolbar
    assert page.evaluate("document.documentElement.scrollHeight") < 3000
    page.click(".eo-roster summary")
    # a pasted scenario names the imported units by their files
    scenario = (ROOT / "examples" / "scenarios" / "firefight.toml").read_text(encoding="utf-8")
    scenario = scenario.replace("../40k6/ork_boyz_sluggas.toml", "klaw_boyz.toml").replace(
        "../40k6/tactical_squad_mixed_weapons.toml", "shoota_mob.toml")
    page.select_option('[data-panel="0"] .eo-command', "scenario")
    page.select_option("#eo-0-file", "__paste__")
    page.fill('[data-panel="0"] .eo-toml', scenario)
    res = _answer(page)
    assert res["ok"], res
    (tmp_path / "army" / "scenario.toml").write_text(scenario)
    cli = subprocess.run([sys.executable, "-m", "exactodds", "scenario", str(tmp_path / "army" / "scenario.toml"),
                          "--format", "json"], capture_output=True, text=True)
    assert cli.returncode == 0, cli.stderr
    assert [Fraction(o["p"]) for o in json.loads(cli.stdout)["outcomes"]] == [Fraction(r["p"]) for r in res["rows"]]
    # a .ros dropped on the drop zone
    text = (ROOT / "examples" / "rosters" / "space_marines.ros").read_text(encoding="utf-8")
    page.evaluate("""(text) => {
        const dt = new DataTransfer();
        dt.items.add(new File([text], "space_marines.ros"));
        document.querySelector(".eo-drop").dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
    }""", text)
    page.wait_for_function("document.querySelectorAll('.eo-roster-out p').length && "
                           "document.querySelector('.eo-roster-out p').textContent.startsWith('space_marines.ros')")
    page.select_option('[data-panel="0"] .eo-command', "40k6/assault")
    options = page.evaluate("[...document.querySelectorAll('#eo-0-defender option')].map(o => o.textContent)")
    assert any(t.endswith("pts, space_marines.ros)") for t in options)
    assert any(t.endswith("pts, ork_boyz.rosz)") for t in options)  # both rosters' units
    # a bad roster, pasted: the one-line refusal on the page
    page.fill(".eo-roster-text", "not a roster")
    page.click(".eo-roster-import")
    page.wait_for_selector(".eo-roster-error")
    assert page.inner_text(".eo-roster-error") == "pasted.ros: not a roster (not XML: syntax error: line 1, column 0)"
    assert "Traceback" not in page.inner_text("#exactodds-calculator")
    page.close()


# ------------------------------------------------ the engagement benchmarks, timed on the page
def test_a_bench_case_pasted_is_the_same_question_as_its_files() -> None:
    """The page's request of a benchmark scenario (its scenario and unit files pasted,
    bench/pyodide.py) answers as the scenario file itself does."""
    from bench.pyodide import SCENARIOS, page_request

    request = page_request("h.fire")
    assert sorted(request["files"]) == ["pasted/ork_boyz_sluggas.toml", "pasted/scenario.toml",
                                        "pasted/tactical_squad_mixed_weapons.toml"]
    pasted = webform.run(request)
    direct = ask("scenario", None, file=str(ROOT / SCENARIOS["h.fire"][0]))
    assert pasted["ok"] and [p for _, p in _exact(pasted["rows"])] == [p for _, p in direct.dist.items()]
    assert pasted["rows"][-1]["label"] == "marines=10, marines_status=-, orks=20, orks_status=-"


def _clear_caches_code() -> str:
    """Python that clears exactodds's functools caches, as the benchmark does before every call."""
    import inspect

    from bench.timing import clear_caches

    return ("from __future__ import annotations\nimport inspect, sys\nfrom collections.abc import Iterable\n"
            + inspect.getsource(clear_caches) + "clear_caches(['exactodds'])\n")


def _browser_processor_seconds() -> float:
    """Processor seconds run so far by every thread of this process's descendants (the
    browser: Playwright's driver and Chromium's processes, the worker's thread among them),
    from Linux's /proc/PID/task/TID/schedstat (nanoseconds); 0 without /proc. O(processes)."""
    parent: dict[int, int] = {}
    for d in Path("/proc").glob("[0-9]*"):
        try:
            parent[int(d.name)] = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
    ours, todo = set(), [os.getpid()]
    while todo:
        pid = todo.pop()
        kids = [p for p, pp in parent.items() if pp == pid and p not in ours]
        ours.update(kids)
        todo += kids
    ns = 0
    for pid in ours:
        for task in Path(f"/proc/{pid}/task").glob("*"):
            try:
                ns += int((task / "schedstat").read_text().split()[0])
            except (OSError, ValueError, IndexError):
                continue
    return ns / 1e9


@pytest.mark.slow  # runs in CI (CI=true); the default run stays short on two cores
@pytest.mark.browser
def test_the_engagement_benchmarks_on_the_page(browser: object, server: str) -> None:
    """Group h of the benchmark asked through the page's request path (the worker's
    webform.run_json, timed inside the worker) and of webform.run_json in this process,
    alternating: the answers' JSON texts are identical (SHA-256), the times go to
    bench/results/pyodide.json for ``python bench/pyodide.py`` (no time is asserted:
    a shared machine). Each case is timed again (at most 5 times) while its calls on both
    sides have taken under $EXACTODDS_PYODIDE_SECONDS seconds (default 2: the cases over
    a second, once; ``python bench/pyodide.py`` gives 10), so the test takes about a minute."""
    import hashlib
    import platform

    from bench.pyodide import QUESTIONS, RESULTS, WARM_UP, page_request, scenario_request
    from bench.timing import clear_caches

    load = os.getloadavg()
    page = _open(browser, server, [])
    worker = next(w for w in page.workers if w.evaluate("typeof instance") == "object")  # type: ignore[attr-defined]
    clear = _clear_caches_code()
    budget = float(os.environ.get("EXACTODDS_PYODIDE_SECONDS") or 2)

    def on_page(request: dict) -> tuple[str, float, float]:
        worker.evaluate("(code) => { instance.runPython(code); }", clear)
        cpu = _browser_processor_seconds()
        got = page.evaluate("(r) => window.exactoddsCalculator.ask(r)", request)  # type: ignore[attr-defined]
        return got["text"], got["ms"] / 1000, _browser_processor_seconds() - cpu

    def here(request: dict) -> tuple[str, float, float]:
        clear_caches(["exactodds"])
        t, cpu = time.perf_counter(), time.process_time()
        text = webform.run_json(json.dumps(request))
        return text, time.perf_counter() - t, time.process_time() - cpu

    def digest(text: str) -> str:
        return hashlib.sha256(text.encode()).hexdigest()

    for path in WARM_UP:
        request = scenario_request(path)
        assert json.loads(on_page(request)[0])["ok"] and json.loads(here(request)[0])["ok"]
    cases = {}
    for key in QUESTIONS:
        request = page_request(key)
        times: dict[str, list[float]] = {side: [] for side in ("pyodide", "cpython", "pyodide_cpu", "cpython_cpu")}
        while not times["pyodide"] or (len(times["pyodide"]) < 5 and sum(times["pyodide"] + times["cpython"]) < budget):
            (text, *browser_s), (expected, *cpython_s) = on_page(request), here(request)
            assert json.loads(expected)["ok"], (key, expected[:300])
            assert digest(text) == digest(expected), (key, text[:300])
            for side, (wall, cpu) in (("pyodide", browser_s), ("cpython", cpython_s)):
                times[side].append(wall)
                times[f"{side}_cpu"].append(cpu)
        cases[key] = {**times, "sha256": digest(expected)}
        print(f"{key}: " + ", ".join(f"{side} {min(ts):.3f} s" for side, ts in times.items()))
    pyodide = worker.evaluate("[instance.version, instance.runPython('import sys; sys.version.split()[0]')]")
    machine = {"when": time.strftime("%Y-%m-%d %H:%M"), "platform": platform.platform(), "cpus": os.cpu_count(),
               "load": list(load), "browser": f"Chromium {browser.version}",  # type: ignore[attr-defined]
               "pyodide": pyodide[0], "pyodide_python": pyodide[1], "python": platform.python_version()}
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({"machine": machine, "cases": cases}, indent=1) + "\n")
    page.close()
