"""The generic `exactodds pool` command, through click's runner."""

from __future__ import annotations

import json
from math import comb
from fractions import Fraction as F

import pytest
from click.testing import CliRunner

from exactodds import Dist
from exactodds.cli import main


def invoke(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def outcomes(result) -> dict:  # type: ignore[no-untyped-def]
    data = json.loads(result.output)
    return {o["outcome"]: F(o["p"]) for o in data["outcomes"]}


def test_pool_3_at_4_plus() -> None:
    r = invoke("pool", "3", "--hit", "4+", "--format", "json")
    assert r.exit_code == 0
    data = json.loads(r.output)
    assert [o["p"] for o in data["outcomes"]] == ["1/8", "3/8", "3/8", "1/8"]
    assert data["mean"] == "3/2"
    assert data["query"]["hit"] == "4+"


def test_pool_40_bs7_is_binomial() -> None:
    """Each die: 2+, a 1 rerolled at 5+: 5/6 + 1/6 * 2/6 = 8/9 (by the faces); 40 dice: Binomial(40, 8/9)."""
    per_die = F(sum(1 for a in range(1, 7) for b in range(1, 7) if a >= 2 or b >= 5), 36)
    assert per_die == F(8, 9)
    r = invoke("pool", "40", "--hit", "2+", "--reroll", "1", "--reroll-hit", "5+", "--format", "json")
    assert outcomes(r) == {k: comb(40, k) * per_die**k * (1 - per_die) ** (40 - k) for k in range(41)}


def test_certain_outcome_is_written_1_over_1() -> None:
    r = invoke("pool", "2", "--hit", "auto", "--format", "json")
    assert json.loads(r.output)["outcomes"] == [{"outcome": 2, "p": "1/1", "p_float": 1.0}]


def test_csv_and_table() -> None:
    r = invoke("pool", "2", "--hit", "4+", "--format", "csv")
    assert r.output.splitlines() == [
        "outcome,p,p_float,p_at_least,p_at_least_float,mean,mean_float",
        "0,1/4,0.25,1/1,1.0,1/1,1.0",
        "1,1/2,0.5,3/4,0.75,1/1,1.0",
        "2,1/4,0.25,1/4,0.25,1/1,1.0",
    ]
    t = invoke("pool", "2", "--hit", "4+")
    assert "mean: 1\n" in t.output and "mean: 1/1" not in t.output and "1/2" in t.output


def test_reroll_up_to_and_failed() -> None:
    assert outcomes(invoke("pool", "2", "--hit", "4+", "--reroll-failed", "--format", "json")) == \
        Dist.binomial(2, F(3, 4)).to_fractions()
    got = outcomes(invoke("pool", "2", "--hit", "4+", "--reroll-up-to", "1", "--format", "json"))
    assert got == {0: F(1, 8), 1: F(3, 8), 2: F(1, 2)}


@pytest.mark.parametrize("args,needle", [
    (["pool", "3", "--hit", "9+"], "2+ to 6+"),
    (["pool", "-1", "--hit", "4+"], "-1"),
    (["pool", "3", "--hit", "1+"], "auto"),
    (["pool", "3"], "--hit"),
    (["pool", "3", "--hit", "4+", "--reroll", "7"], "1 to 6"),
    (["pool", "3", "--hit", "4+", "--reroll-hit", "5+"], "needs --reroll"),
    (["pool", "3", "--hit", "4+", "--reroll", "1", "--reroll-failed"], "never rerolled twice"),
    (["pool", "3", "--hit", "4+", "--format", "xml"], "xml"),
])
def test_bad_input_is_one_line_and_exit_2(args: list, needle: str) -> None:
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and needle in lines[0]
    assert "Traceback" not in r.output


def test_size_limit_option() -> None:
    r = CliRunner().invoke(main, ["--max-states", "10", "pool", "100", "--hit", "4+"])
    assert r.exit_code == 2 and "about 101 states, over the limit of 10" in r.output
    assert invoke("--max-states", "101", "pool", "100", "--hit", "4+").exit_code == 0


def test_help_everywhere() -> None:
    assert invoke("--help").exit_code == 0
    assert "successes" in invoke("pool", "--help").output


def test_main_without_standalone_mode_returns_and_raises(capsys: pytest.CaptureFixture[str]) -> None:
    import click

    from exactodds.cli import main
    from exactodds.core import TooLargeError

    assert main.main(["pool", "2", "--hit", "4+", "--mean"], standalone_mode=False) is None
    assert capsys.readouterr().out == "1\n"
    with pytest.raises(click.BadParameter, match="4x"):
        main.main(["pool", "2", "--hit", "4x"], standalone_mode=False)
    with pytest.raises(click.UsageError, match="No such command 'nope'"):
        main.main(["nope"], standalone_mode=False)
    with pytest.raises(TooLargeError):
        main.main(["--max-states", "10", "pool", "100", "--hit", "4+", "--reroll-up-to", "50"],
                  standalone_mode=False)
