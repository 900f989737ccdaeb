"""The Jupyter forms (exactodds.widgets), driven without a browser: build a form, set
values, read the answer, the table, the chart and the messages it shows."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

pytest.importorskip("ipywidgets")

from exactodds import widgets  # noqa: E402
from exactodds.commands import COMMANDS  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
GUARD = str(ROOT / "examples" / "40k6" / "guard_squad_in_ruins.toml")


def test_every_command_has_a_form_with_one_control_per_parameter() -> None:
    for system, command in COMMANDS:
        f = widgets.form(system, command)
        assert list(f.controls) == list(f.command.params.specs())
        # a form with required values left empty is refused, with the field named
        if f.error is not None:
            assert f.error["field"] in f.controls and "\n" not in f.error["message"]


def test_pool_form_answers_and_follows_changes() -> None:
    f = widgets.form("pool", n=3, hit="4+")
    # 3 dice at 4+: Binomial(3, 1/2)
    assert f.answer.dist.items() == [(0, Fraction(1, 8)), (1, Fraction(3, 8)), (2, Fraction(3, 8)),
                                     (3, Fraction(1, 8))]
    assert "3/8" in f.table.value and f.chart.value.count("<rect") == 4
    assert "exactodds pool 3 --hit 4+" in f.query_line.value
    f.set(n=4, hit="5+")  # 4 dice at 5+: C(4,k) (1/3)^k (2/3)^(4-k)
    assert f.answer.dist.items() == [(0, Fraction(16, 81)), (1, Fraction(32, 81)), (2, Fraction(24, 81)),
                                     (3, Fraction(8, 81)), (4, Fraction(1, 81))]
    assert f.answer.mean == Fraction(4, 3)
    assert "16/81" in f.table.value
    f.at_least.value = True  # P(>= k): 1, 65/81, 33/81, 9/81, 1/81
    assert "65/81" in f.chart.value and "#27ae60" in f.chart.value


def test_bad_value_shows_the_command_line_reason_beside_its_field() -> None:
    from click.testing import CliRunner

    from exactodds.cli import main

    f = widgets.form("40k6", "shoot", shots=20, bs=11, strength=4, target=GUARD)
    assert f.answer is None and f.error["field"] == "bs"
    reason = "11 is out of range: use a whole number from 1 to 10"
    assert f.error["reason"] == reason and reason in f.errors["bs"].value
    assert f.table.value == "" and f.errors["shots"].value == ""
    cli = CliRunner().invoke(main, ["40k6", "shoot", "--shots", "20", "--bs", "11", "--strength", "4",
                                    "--target", GUARD])
    assert cli.exit_code == 2 and reason in cli.output
    f.set(bs=4, ap=5)
    assert f.error is None and f.errors["bs"].value == ""
    assert f.answer.extras["mean_hits"] == Fraction(40, 3)  # 20 shots hitting on 3+: 20 * 2/3


def test_bad_combination_names_both_fields_by_label() -> None:
    f = widgets.form("pool", n=3, hit="4+", reroll_failed=True, reroll_up_to=2)
    assert f.error["fields"] == ["reroll_failed", "reroll_up_to"]
    assert f.error["message"] == "'Reroll failed' and 'Reroll up to' are alternatives; give one"


def test_several_values_and_choices() -> None:
    f = widgets.form("40k6", "charge", distance="7", roll=["2d6"])
    # 2d6 >= 7: 21/36
    assert f.answer.extras["p_success"] == Fraction(7, 12)
    f.set(roll=[])
    assert f.answer.extras["p_success"] == Fraction(7, 12)  # the default is 2d6


def test_over_the_work_limit_is_refused_with_its_size() -> None:
    from exactodds import state_limit

    with state_limit(1000):
        f = widgets.form("pool", n=5000, hit="4+", reroll_up_to=100)
    assert f.error["error"] == "too_large" and "states" in f.error["message"] and f.answer is None


TOO_LONG = ("the answer has exact fractions of about 6,021 digits, over Python's limit of 4,300 digits for writing "
            "an integer as text; ask a smaller question, or raise it with the environment variable "
            "PYTHONINTMAXSTRDIGITS (0 = no limit)")


def test_an_answer_too_long_to_write_shows_on_the_form() -> None:
    """20,000 dice: refused up front (it took 12 s, then raised ValueError)."""
    import time
    from html import escape

    start = time.process_time()  # processor seconds: they do not grow on a busy machine
    f = widgets.form("pool", n="20000", hit="4+")
    assert (f.answer, f.error["error"], f.error["message"]) == (None, "too_large", TOO_LONG)
    f = widgets.form("pool", n=3, hit="4+")
    f.set(n=20000)
    assert (f.answer, f.error["message"]) == (None, TOO_LONG) and escape(TOO_LONG) in f.message.value
    assert time.process_time() - start < 10  # generous: measured 1 s
    f.set(n=10**5000)  # text Python refuses to write: the count's own refusal, beside it
    assert f.error["field"] == "n" and "a number of 5,001 digits is far too large" in f.errors["n"].value
    f.set(n=3)
    assert f.error is None and f.answer.dist.items()[0] == (0, Fraction(1, 8))


def test_a_choice_not_offered_shows_on_the_form() -> None:
    reason = "'bogus' is not one of 'normal', 'template', 'blast', 'artillery', 'no-bs'"
    f = widgets.form("40k6", "hit", shots=3, bs=4, weapon_type="bogus")
    assert (f.answer, f.error["field"], f.error["reason"]) == (None, "weapon_type", reason)
    assert "is not one of" in f.errors["weapon_type"].value
    f.set(weapon_type="normal")
    assert f.error is None and f.answer.dist.items()[0] == (0, Fraction(1, 27))  # 3 shots at BS 4: hit on 3+
    f = widgets.form("pool", n=3, hit="4+", reroll_failed="yes")
    assert (f.error["field"], f.error["reason"]) == ("reroll_failed", "'yes' is not true or false (it is a flag)")


def test_an_unknown_parameter_raises_an_input_error() -> None:
    from exactodds import ExactOddsError

    f = widgets.form("pool", n=3, hit="4+")
    message = "exactodds pool has no parameter 'nosuch'; allowed are n, sides, hit, reroll, reroll_hit, " \
              "reroll_failed, reroll_up_to"
    with pytest.raises(ExactOddsError) as e:
        f.set(nosuch=1, n=4)
    assert str(e.value) == message and f.answer.dist.items()[0] == (0, Fraction(1, 8))  # nothing changed
    with pytest.raises(ExactOddsError) as e:
        widgets.form("pool", nosuch=1)
    assert str(e.value) == message


def test_an_engagement_shows_each_units_block_and_chart() -> None:
    """A fight's form shows what the command line prints: a block per unit, then the
    likeliest joint outcomes; and one chart per unit (its models left), not one of the joint."""
    f = widgets.form("40k6", "fight", attacker=str(ROOT / "examples" / "40k6" / "assault_squad.toml"),
                     defender=str(ROOT / "examples" / "40k6" / "ork_boyz.toml"))
    assert f.error is None
    for line in ("attacker: Assault Squad left (of 5)",
                 "  P(destroyed)   0.03477    P(at least 1 left)  0.9652",
                 "defender: Ork Boyz left (of 11)",
                 "most probable outcomes:"):
        assert line in f.table.value
    assert f.chart.value.count("<svg") == 2
    first, second = f.chart.value.split('<div class="exactodds-unit-chart">')[1:]
    assert first.startswith("<div><b>attacker</b>: Assault Squad left</div>")
    assert second.startswith("<div><b>defender</b>: Ork Boyz left</div>")
    assert first.count("<rect") == 6  # 0 to 5 Marines left, each possible
    assert "attacker=" not in f.chart.value  # no joint labels
