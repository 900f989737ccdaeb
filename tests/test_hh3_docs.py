"""docs/hh3.md shows true answers: every ``$ exactodds`` line prints exactly the
lines under it, and every python block prints its text block.

The command lines run in-process through click's runner (standard output and
error together, as a terminal shows them), from the repository root."""

from __future__ import annotations

import shlex

import pytest
from click.testing import CliRunner

from exactodds.cli import main
from tests.test_docs import ROOT, console_examples, test_python_examples_run_and_print_what_is_shown

PAGE = "hh3.md"
EXAMPLES = console_examples(PAGE)


def test_the_page_has_console_examples() -> None:
    assert len(EXAMPLES) >= 10


@pytest.mark.parametrize(("command", "expected"), EXAMPLES, ids=[c for c, _ in EXAMPLES])
def test_console_examples_print_what_the_page_shows(command: str, expected: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    for var in ("EXACTODDS_MAX_STATES", "EXACTODDS_MAX_DIGITS"):
        monkeypatch.delenv(var, raising=False)
    args = shlex.split(command)
    assert args[0] == "exactodds"
    result = CliRunner().invoke(main, args[1:], prog_name="exactodds")
    assert result.output.rstrip("\n") == expected.rstrip("\n")


def test_python_examples_print_what_the_page_shows(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    test_python_examples_run_and_print_what_is_shown(PAGE)
