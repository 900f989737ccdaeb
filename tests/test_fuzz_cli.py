"""Fuzzing the command line: every group and command found under
``exactodds.cli:main``, with well-formed, malformed and random command lines
(see tests/fuzzing.py for the generators and the contract each invocation
must meet: no uncaught exception, exit 0/1/2, one ``Error:`` line on exit 2,
probabilities summing to exactly 1 on every accepted JSON/CSV answer).

Also: the bad inputs documented in docs/errors.md really get the documented
message and exit status, and the size limit refuses with the right estimate.
The broken files of megabytes are marked ``slow`` (they run when ``CI`` is true).
"""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from exactodds.cli import main
from tests import fuzzing as fz

COMMANDS = fz.commands()
GROUPS = fz.groups()
ROOT = Path(__file__).resolve().parents[1]

# examples per command and per kind; x the number of commands (and EXACTODDS_FUZZ_SCALE)
N_WELL_FORMED = 40
N_BIG = 10
N_MALFORMED = 40
N_NOISE = 12
N_ROOT_NOISE = 150


def ids(nodes: list[fz.Node]) -> list[str]:
    return [n.id for n in nodes]


def test_walker_finds_the_commands() -> None:
    """The walker sees every command the CLI offers, each with its parameters."""
    found = {n.path for n in COMMANDS}
    assert ("pool",) in found
    for node in COMMANDS:
        assert fz.user_params(node.command), node.id
    assert len(COMMANDS) >= 1


@pytest.mark.parametrize("node", COMMANDS, ids=ids(COMMANDS))
def test_well_formed(node: fz.Node) -> None:
    """Valid values for every parameter: answered (exit 0) or refused cleanly
    (conflicting options, a size over --max-states); at least one is answered."""
    tally: dict[int, int] = {}

    @fz.fuzz_settings(N_WELL_FORMED)
    @given(inv=fz.well_formed(node))
    def run(inv: fz.Invocation) -> None:
        fz.run_and_check(inv, tally)

    run()
    assert tally.get(0, 0) > 0, f"no well-formed '{node.id}' query was answered: {tally}"


@pytest.mark.parametrize("node", COMMANDS, ids=ids(COMMANDS))
def test_well_formed_big_counts(node: fz.Node) -> None:
    """Counts anywhere in their range (up to ten million): refused by the size
    limit before the work, or answered; never a hang or a crash."""

    @fz.fuzz_settings(N_BIG)
    @given(inv=fz.well_formed(node, big=True))
    def run(inv: fz.Invocation) -> None:
        fz.run_and_check(inv)

    run()


@pytest.mark.parametrize("node", COMMANDS, ids=ids(COMMANDS))
def test_malformed(node: fz.Node) -> None:
    """Bad values, missing or repeated options, unknown options, conflicting
    flags, broken files: one clear error line and exit 2 (or an answer when the
    corruption happened to be harmless)."""
    tally: dict[int, int] = {}

    @fz.fuzz_settings(N_MALFORMED)
    @given(inv=fz.malformed(node))
    def run(inv: fz.Invocation) -> None:
        fz.run_and_check(inv, tally)

    run()
    assert tally.get(2, 0) > 0, f"no malformed '{node.id}' query was refused: {tally}"


@pytest.mark.parametrize("node", COMMANDS + GROUPS, ids=ids(COMMANDS + GROUPS))
def test_noise(node: fz.Node) -> None:
    """The command's path followed by random tokens."""

    @fz.fuzz_settings(N_NOISE)
    @given(inv=fz.noise(node))
    def run(inv: fz.Invocation) -> None:
        fz.run_and_check(inv)

    run()


def test_root_noise() -> None:
    """Random tokens from the whole CLI's vocabulary, in any order."""
    words = sorted({w for n in fz.walk() for w in fz.vocabulary(n)})
    tokens = st.one_of(st.sampled_from(words), st.sampled_from(fz.BAD_TOKENS), st.text(max_size=5))

    @fz.fuzz_settings(N_ROOT_NOISE)
    @given(args=st.lists(tokens, max_size=10))
    def run(args: list[str]) -> None:
        fz.run_and_check(fz.Invocation(["--max-states", str(fz.SMALL_LIMIT), *args], {}))

    run()


@pytest.mark.parametrize("node", GROUPS, ids=ids(GROUPS))
def test_bare_group_shows_its_help(node: fz.Node) -> None:
    """``exactodds`` or ``exactodds 40k6`` alone: the group's help, exit 0 (as ``--help``)."""
    r = fz.run_and_check(fz.Invocation(list(node.path), {}))
    assert r.exit_code == 0 and r.stdout.startswith("Usage:")


@pytest.mark.parametrize("node", COMMANDS + GROUPS, ids=ids(COMMANDS + GROUPS))
def test_help_of_every_command(node: fz.Node) -> None:
    r = fz.run_and_check(fz.Invocation([*node.path, "--help"], {}))
    assert r.exit_code == 0 and "Usage:" in r.stdout


# ------------------------------------------------------------------ files: specific cases
BIG_FILES = {"long-line", "at-size", "csv-line-at-limit"}
"""Broken files of megabytes, read by every command (15 to 35 s each): marked slow."""


@pytest.mark.parametrize("kind", [pytest.param(k, marks=pytest.mark.slow) if k in BIG_FILES else k
                                  for k in fz.BAD_FILE_KINDS])
def test_broken_files_everywhere(kind: str) -> None:
    """Each broken file, given to every file parameter of every command (the
    other parameters well-formed where they are simple)."""
    for node in COMMANDS:
        for p in fz.user_params(node.command):
            if not fz.is_path(p) or fz.is_output_path(p):
                continue
            suffix = ".csv" if kind.startswith(("csv", "jsonl")) else ".toml"
            path = str(fz.fixed_bad_file(kind, suffix))
            args = _minimal_args(node, {p.name: path})
            if args is not None:
                fz.run_and_check(fz.Invocation(["--max-states", str(fz.SMALL_LIMIT), *args], {}))


def _minimal_args(node: fz.Node, given_values: dict) -> list[str] | None:
    """A command line giving ``given_values`` and the first example value for
    every other required parameter (None when one has no obvious value)."""
    from hypothesis import find

    args: list[str] = list(node.path)
    tail: list[str] = []
    for p in fz.user_params(node.command):
        value = given_values.get(p.name)
        if value is None and not p.required:
            continue
        if value is None:
            try:
                value = find(fz.valid_value(node.path, p), lambda v: True)
            except Exception:  # noqa: BLE001 - no value found: skip this command
                return None
        if isinstance(p, click.Argument):
            tail.append(value)
        else:
            args += [fz.option_name(p), value]
    return args + tail


def test_toml_from_a_device_or_folder_is_refused() -> None:
    """A TOML path naming a folder or a character device is refused without reading it."""
    from exactodds import InputError
    from exactodds.tomlfiles import load_toml

    for path in (fz.tmp_dir(), Path("/dev/zero")):
        if not path.exists():
            continue
        with fz.watchdog(20, f"load_toml({path})"):
            with pytest.raises(InputError, match="not a regular file|is a folder"):
                load_toml(path)


# ------------------------------------------------------------------ bounded work
def test_over_large_query_is_refused_with_its_size() -> None:
    """A pool of ten million dice: refused before any work, the estimate in the message
    is the number of outcomes of the binomial (n + 1), and the way to raise the limit is named."""
    r = fz.run_and_check(fz.Invocation(["pool", "10000000", "--hit", "4+"], {}))
    assert r.exit_code == 2
    # 10,000,001 outcomes whose weights (below 2^10,000,000) count once per started 1,024 bits
    estimate = 10_000_001 * math.ceil(10_000_000 / 1024)
    assert r.stderr == ("Error: the successes of 10000000 trials (10,000,001 outcomes of 10,000,000-bit exact "
                        f"weights) would need about {estimate:,} states, over the limit of 2,000,000; raise it "
                        "with the environment variable EXACTODDS_MAX_STATES (or --max-states) if you have the "
                        "memory and time\n")
    small = fz.run_and_check(fz.Invocation(["--max-states", "100", "pool", "100", "--hit", "4+"], {}))
    assert "about 101 states, over the limit of 100" in small.stderr  # weights of 100 bits: one unit each


def test_over_large_answer_text_is_refused_with_its_size() -> None:
    """An answer small in states but huge in digits: 6,000 dice at 4+ have 6,001
    outcomes over the denominator 2^6000 (1,807 digits): refused before writing."""
    digits = len(str(2**6000))
    assert digits == 1807
    r = fz.run_and_check(fz.Invocation(["pool", "6000", "--hit", "4+"], {}))
    assert r.exit_code == 2
    assert f"about {(6001 + 1) * digits:,} digits" in r.stderr and "EXACTODDS_MAX_DIGITS" in r.stderr
    many = fz.run_and_check(fz.Invocation(["pool", "20000", "--hit", "4+"], {}))
    assert many.exit_code == 2 and f"about {math.floor(20000 * math.log10(2)) + 1:,} digits" in many.stderr
    assert f"limit of {sys.get_int_max_str_digits():,} digits" in many.stderr


def test_size_estimates_match_the_work() -> None:
    """The estimates in the refusals are the exact sizes of the refused state spaces."""
    from fractions import Fraction

    from exactodds import Dist, TooLargeError, d6, state_limit
    from exactodds.dice import pool_counts

    with state_limit(1000):
        with pytest.raises(TooLargeError, match=f"about {math.comb(30 + 5, 5):,} states"):
            pool_counts(30, d6)
    with state_limit(math.comb(30 + 5, 5)):
        assert len(pool_counts(30, d6)) == math.comb(30 + 5, 5)
    # big weights count once per started 1,024 bits: 1,000 dice over 3 categories have weights of
    # about 1000 x (log2 1000 + log2 6) < 1000 x (10 + 3) bits
    die3 = Dist.from_weights({0: 3, 1: 2, 2: 1})
    with pytest.raises(TooLargeError, match=f"about {math.comb(1002, 2) * math.ceil(13_000 / 1024):,} states"):
        pool_counts(1000, die3)
    with pytest.raises(TooLargeError, match=f"about {20_001 * math.ceil(20_000 * 6 / 1024):,} states"):
        Dist.binomial(20_000, Fraction(31, 36))


# ------------------------------------------------------------------ docs/errors.md
def _load_gen_errors():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("gen_errors", ROOT / "docs" / "gen_errors.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["gen_errors"] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_documented_errors_are_the_real_ones() -> None:
    """docs/errors.md is exactly what docs/gen_errors.py produces now: each documented
    command really prints the documented message with the documented exit status."""
    gen = _load_gen_errors()
    assert (ROOT / "docs" / "errors.md").read_text(encoding="utf-8") == gen.render(gen.run_cases()), \
        "docs/errors.md is out of date: run python docs/gen_errors.py"


def test_documented_cases_meet_the_contract() -> None:
    gen = _load_gen_errors()
    for case, result in gen.run_cases():
        assert result.exit_code == case.status, (case.args, result.stderr)
        if result.exit_code == 2:
            assert result.stderr.count("\n") == 1 and result.stderr.startswith("Error: "), case.args


def test_runner_catches_internal_errors_as_exit_3() -> None:
    """The contract's check does notice a bug: an exception in a command is exit 3."""
    runner = CliRunner()
    group = main

    @group.command("fuzz-selftest-boom", hidden=True)
    def boom() -> None:
        raise ZeroDivisionError("boom")

    try:
        r = runner.invoke(main, ["fuzz-selftest-boom"])
        assert r.exit_code == 3 and "internal error: ZeroDivisionError" in r.stderr
        with pytest.raises(AssertionError, match="exit 3"):
            fz.check_result(fz.Invocation(["fuzz-selftest-boom"], {}), r)
    finally:
        del group.commands["fuzz-selftest-boom"]
