"""docs/wh40k6.md shows true answers: every ``$ exactodds`` line prints
exactly the lines under it, and every python block prints its text block."""

from __future__ import annotations

import shlex
import subprocess
import sys

import pytest

from tests.test_docs import ROOT, cli_env, console_examples, test_python_examples_run_and_print_what_is_shown

PAGE = "wh40k6.md"
EXAMPLES = console_examples(PAGE)


def test_the_page_has_console_examples() -> None:
    assert len(EXAMPLES) >= 8


@pytest.mark.parametrize(("command", "expected"), EXAMPLES, ids=[c for c, _ in EXAMPLES])
def test_console_examples_print_what_the_page_shows(command: str, expected: str) -> None:
    args = shlex.split(command)
    out = subprocess.run([sys.executable, "-m", "exactodds", *args[1:]], capture_output=True, text=True,
                         env=cli_env(), cwd=ROOT)
    assert (out.stdout + out.stderr).rstrip("\n") == expected.rstrip("\n")


def test_python_examples_print_what_the_page_shows(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    test_python_examples_run_and_print_what_is_shown(PAGE)
