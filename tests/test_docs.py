"""The documentation site builds with no warning, and its examples are true.

- ``mkdocs build --strict`` into a temporary directory must succeed with no
  WARNING or ERROR line (the CLI reference is generated from click by
  mkdocs-click, the API reference from docstrings by mkdocstrings).
- On the pages in :data:`CHECKED_PAGES`, every ``python`` block runs (in
  order, in one namespace per page), a ``text`` block right after a python
  block is exactly what that block printed, and every ``$ exactodds ...``
  line of a ``console`` block prints exactly the lines under it (a line ``...``
  standing for any lines, none or more).
- On the pages in :data:`CHECKED_SECTIONS`, the same for the console blocks of
  one section.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
CHECKED_PAGES = ["index.md", "tutorial.md", "sweeps.md", "compare.md", "scenarios.md"]
CHECKED_SECTIONS = {"validating.md": "## Validating an engagement simulator"}
"""Pages of which the console examples of one section (its heading to the next ``## ``) are checked."""
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)


def fenced_blocks(page: str, section: str | None = None) -> list[tuple[str, str]]:
    """``(language, body)`` of every fenced block of a docs page (or of one of its
    sections, by its heading line), in order."""
    text = (DOCS / page).read_text()
    if section is not None:
        start = text.index(section + "\n")
        end = text.find("\n## ", start + len(section))
        text = text[start:] if end < 0 else text[start:end]
    return FENCE.findall(text)


def cli_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("EXACTODDS_")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


def test_site_builds_strictly_with_no_warning(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs")
    site = tmp_path / "site"
    out = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"), "-d", str(site)],
        cwd=ROOT, capture_output=True, text=True, env={**cli_env(), "MPLBACKEND": "Agg"},
    )
    log = out.stdout + out.stderr
    assert out.returncode == 0, log
    problems = [line for line in log.splitlines() if line.startswith(("WARNING", "ERROR"))]
    assert not problems, log
    for page in ("index.html", "tutorial/index.html", "design/index.html"):
        assert (site / page).exists(), page
    cli = (site / "cli" / "index.html").read_text()
    assert "exactodds pool" in cli and "--reroll-up-to" in cli
    api = (site / "api" / "index.html").read_text()
    assert "exactodds.core.dist" in api and "symbolic" in api and ":meth:" not in api


@pytest.mark.parametrize("page", CHECKED_PAGES)
def test_python_examples_run_and_print_what_is_shown(page: str) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
    except ImportError:
        pass
    namespace: dict = {"__name__": f"docs_{page}"}
    printed: str | None = None
    ran = 0
    for lang, body in fenced_blocks(page):
        if lang == "python":
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                exec(compile(body, f"docs/{page}", "exec"), namespace)  # noqa: S102 - our own docs
            printed = buf.getvalue()
            ran += 1
            continue
        if lang == "text" and printed is not None:
            assert printed == body, f"docs/{page}: the text block does not match what was printed"
        printed = None
    assert ran, f"docs/{page} has no python example"
    if "plt" in sys.modules or "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")


def console_examples(page: str, section: str | None = None) -> list[tuple[str, str]]:
    """``(command line, expected output)`` of every ``$ exactodds`` line of a page (or section)."""
    examples = []
    for lang, body in fenced_blocks(page, section):
        if lang != "console":
            continue
        command, expected = None, []
        for line in body.splitlines() + ["$ "]:
            if line.startswith("$ "):
                if command:
                    examples.append((command, "\n".join(expected)))
                command, expected = line[2:].strip(), []
            else:
                expected.append(line)
    return examples


EXAMPLES = [(page, cmd, out) for page in CHECKED_PAGES for cmd, out in console_examples(page)] + [
    (page, cmd, out) for page, section in CHECKED_SECTIONS.items() for cmd, out in console_examples(page, section)]


def shows(expected: str, printed: str) -> bool:
    """Whether ``printed`` is the ``expected`` lines, each line ``...`` standing for any lines."""
    parts = ["(?:.*\n)*?" if line == "..." else re.escape(line) + "\n" for line in expected.rstrip("\n").split("\n")]
    return re.fullmatch("".join(parts), printed.rstrip("\n") + "\n") is not None


@pytest.mark.parametrize(("page", "command", "expected"), EXAMPLES, ids=[f"{p}: {c}" for p, c, _ in EXAMPLES])
def test_console_examples_print_what_the_page_shows(page: str, command: str, expected: str) -> None:
    args = shlex.split(command)
    assert args[0] == "exactodds"
    out = subprocess.run([sys.executable, "-m", "exactodds", *args[1:]], capture_output=True, text=True,
                         env=cli_env(), cwd=ROOT)
    printed = out.stdout + out.stderr
    if "\n...\n" in f"\n{expected}\n":
        assert shows(expected, printed), printed
    else:
        assert printed.rstrip("\n") == expected.rstrip("\n")
