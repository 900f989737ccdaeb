"""The README's two set-up commands stay true: CI runs the test one verbatim."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def _setup_commands() -> list[str]:
    section = README.split("## Set up on a fresh machine", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.+?)\n```", section)


def test_exactly_two_setup_commands() -> None:
    cmds = _setup_commands()
    assert len(cmds) == 2
    assert "exactodds " in cmds[0] and cmds[1].endswith("pytest")


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert _setup_commands()[1] in ci


def test_readme_example_query_runs() -> None:
    query = _setup_commands()[0].rsplit("&& ", 1)[1].split()
    assert query[0] == "exactodds"
    out = subprocess.run([sys.executable, "-m", "exactodds", *query[1:]], capture_output=True, text=True, check=True)
    assert "3/8" in out.stdout and "mean: 3/2" in out.stdout
