"""core.checks (plain values, text read from files) and the work meter of core.limits."""

from __future__ import annotations

import gc
from fractions import Fraction

import pytest

from exactodds import Dist, InputError, TooLargeError
from exactodds.core import checks
from exactodds.core.limits import charge, state_limit, work_meter
from exactodds.dice import reroll_up_to
from exactodds.tomlfiles import check_toml_text


# ------------------------------------------------------------------ plain values
@pytest.mark.parametrize("value, whole", [(0, True), (-3, True), (10**40, True), (True, False), (False, False),
                                          (2.0, False), (Fraction(2), False), ("2", False), (None, False)])
def test_is_whole(value, whole):
    assert checks.is_whole(value) is whole


def test_whole_number_messages():
    assert checks.whole_number(3, "dice", 1, 6) == 3
    with pytest.raises(InputError, match=r"^dice 7 is not allowed: use a whole number from 1 to 6$"):
        checks.whole_number(7, "dice", 1, 6)
    with pytest.raises(InputError, match=r"^firepower True is not allowed: use a whole number 1 or more$"):
        checks.whole_number(True, "firepower", 1)
    with pytest.raises(InputError, match=r"^x 2.5 is not allowed: use a whole number 3 or less$"):
        checks.whole_number(2.5, "x", high=3)


def test_count_messages():
    assert checks.count(0, "n") == 0
    with pytest.raises(InputError, match=r"^n must be a whole number, not 1.5$"):
        checks.count(1.5, "n")
    with pytest.raises(InputError, match=r"^n must be 0 or more, not -1$"):
        checks.count(-1, "n")


def test_exact_number_and_probability():
    assert checks.exact_number("2/6", "p") == Fraction(1, 3)
    assert checks.probability(1, "p") == 1
    with pytest.raises(InputError, match="floats are refused"):
        checks.exact_number(0.5, "p")
    with pytest.raises(InputError, match=r"^p must be a probability from 0 to 1, not 3/2$"):
        checks.probability("3/2", "p")
    with pytest.raises(InputError, match="not a valid fraction"):
        checks.exact_number("1/0", "p")
    with pytest.raises(InputError, match="5,000 characters"):
        checks.exact_number("1" * 5000, "p")


# --------------------------------------------------------------- text of files
def test_long_number():
    assert checks.long_number("n = " + "9" * 30) is None
    assert checks.long_number("n = " + "9" * 31) == (4, 31)
    assert checks.long_number("x = 0." + "1" * 50) is None  # a decimal fraction's tail
    assert checks.long_number("x = ٣" * 40) is None  # not ASCII digits


def test_bracket_depth():
    assert checks.bracket_depth("[[1], {a = [2]}]") <= 4
    assert checks.bracket_depth("[" * 32 + "]" * 32) == 32
    assert checks.bracket_depth("[" * 10_000 + "]" * 10_000) == 33  # counted up to one past the limit
    assert checks.bracket_depth("[1]," * 1000) == 1


def test_toml_nesting_limit_is_exact_for_arrays():
    check_toml_text("x = " + "[" * 31 + "]" * 31, "f.toml")  # 31 arrays under one key: 32 levels
    with pytest.raises(InputError, match=r"^f.toml: arrays, tables and dotted keys nested more than 32"):
        check_toml_text("x = " + "[" * 32 + "]" * 32, "f.toml")


def test_toml_strings_and_comments_do_not_count():
    check_toml_text('x = "' + "[" * 100 + '"\n# ' + "{" * 100 + "\ny = '" + "9" * 100 + "'\n", "f.toml")
    check_toml_text('x = """\n' + "[" * 100 + '\n"""\n', "f.toml")


def test_toml_long_number_names_its_line():
    with pytest.raises(InputError, match=r"^f.toml: line 3: a number of 40 digits is far too large"):
        check_toml_text('a = """\n"""\nn = ' + "1" * 40 + "\n", "f.toml")


def test_toml_dotted_keys_and_headers_count():
    check_toml_text("[" + ".".join(["t"] * 31) + "]\nx = 1\n", "f.toml")
    with pytest.raises(InputError, match="nested more than 32"):
        check_toml_text("[" + ".".join(["t"] * 16) + "]\n" + ".".join(["k"] * 17) + " = 1\n", "f.toml")


# ---------------------------------------------------------------- work meter
def _growing(n: int) -> Dist:
    """n steps of a kernel that spreads each state over 3 next states: 2n + 1 states at the end."""
    d = Dist.constant(0)
    for _ in range(n):
        d = d.then(lambda x: Dist.uniform([x - 1, x, x + 1]))
    return d


def test_meter_stops_work_past_its_allowance():
    # step i costs 3 (2i - 1) terms: 150 steps cost 3 x 150^2 = 67,500 terms, over 2 x 10,000
    with state_limit(10_000), pytest.raises(TooLargeError, match=r"^growth \(counted as it ran\) would need about"):
        with work_meter("growth"):
            _growing(150)


def test_meter_lets_work_within_its_allowance_through():
    with state_limit(10_000), work_meter("growth"):
        assert len(_growing(50)) == 101  # 3 x 50^2 = 7,500 terms


def test_no_meter_no_count():
    with state_limit(10_000):
        assert len(_growing(150)) == 301


def test_inner_meter_adds_to_the_outer_one():
    with state_limit(10_000), pytest.raises(TooLargeError, match=r"^outer \(counted"):
        with work_meter("outer"):
            for _ in range(4):
                with work_meter("inner"):
                    _growing(50)  # 7,500 terms each, 30,000 in all


def test_charge_counts_big_weights_per_started_1024_bits():
    with state_limit(1_000), work_meter("w"):
        charge(1_000, 1024)  # 1,000 units
        charge(499, 2048)  # 998 more: 1,998, within 2 x 1,000
        with pytest.raises(TooLargeError):
            charge(1, 1025)  # 2 more: 2,000... and one more unit is over
            charge(1)


def test_the_outermost_meter_pauses_the_collector_and_turns_it_back_on():
    assert gc.isenabled()
    seen = []
    with pytest.raises(TooLargeError):
        with state_limit(10), work_meter("outer"):
            seen.append(gc.isenabled())
            with work_meter("inner"):
                seen.append(gc.isenabled())
            seen.append(gc.isenabled())
            charge(100)  # stopped inside: the collector is on again after
    assert seen == [False, False, False]
    assert gc.isenabled()


def test_a_meter_leaves_a_collector_the_caller_turned_off_off():
    gc.disable()
    try:
        with work_meter("w"):
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


# -------------------------------------------------------- reroll budgets
def test_reroll_up_to_every_die_is_a_binomial():
    # every failed die rerolled: each succeeds with p + (1 - p) p2
    assert reroll_up_to(7, 7, Fraction(1, 3), Fraction(1, 2)) == Dist.binomial(7, Fraction(2, 3))
    assert reroll_up_to(7, 100, Fraction(1, 3)) == Dist.binomial(7, Fraction(5, 9))


def test_reroll_up_to_one_short_keeps_the_all_failed_case():
    # 2 dice at 1/2, at most 1 rerolled: both fail (1/4) -> one reroll: 1 success with 1/8
    d = reroll_up_to(2, 1, Fraction(1, 2))
    assert d.pmf(0) == Fraction(1, 8)
    assert d.pmf(2) == Fraction(1, 4) + Fraction(1, 2) * Fraction(1, 2)
    assert d.pmf(1) == 1 - d.pmf(0) - d.pmf(2)


def test_reroll_up_to_refused_before_the_work():
    with pytest.raises(TooLargeError, match=r"rerolling up to 2999 failed dice \(4,504,500 terms"):
        reroll_up_to(3000, 2999, Fraction(1, 2))


def test_combine_refused_before_the_work():
    a = Dist.binomial(3000, Fraction(1, 3))
    with pytest.raises(TooLargeError, match=r"^combining 3,001 outcomes with 3,001"):
        a + a
