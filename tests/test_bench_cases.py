"""The benchmark suite (bench/) asks the right questions: each case's
exactodds answer equals an independent brute-force answer on a small size,
and the harness and the peers' runner import. No timing is asserted here.
"""

from __future__ import annotations

import json
from fractions import Fraction as F
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest

from bench import peer_impl, peers
from bench.cases import Case, all_cases, dist_answer  # noqa: F401
from bench.cases import hh3 as hh3_cases
from bench.cases import parity, pools, startup, wh40k6
from bench.timing import decode_answer, encode_answer
from tests.brute import enumerate_rolls


def answer_of(compute, key=lambda o: o) -> dict:  # noqa: ANN001
    """exactodds's answer through the bench's own encoding, as {json key: Fraction}."""
    return decode_answer(dist_answer(compute(), key))


def brute(n_dice: int, outcome) -> dict:  # noqa: ANN001
    """The enumerator's answer in the same encoding."""
    return {json.dumps(k): p for k, p in enumerate_rolls(n_dice, outcome).items()}


def test_harness_imports_and_lists_every_group() -> None:
    from bench import curves, report, run  # noqa: F401

    cases = all_cases(quick=True)
    assert {c.group for c in cases} == set("abcdefghi")
    assert len({c.key for c in cases}) == len(cases)
    assert all(isinstance(c, Case) and (c.compute or c.fresh) for c in cases)
    assert all(c.peer[0] in peer_impl.PEERS for c in cases if c.peer)


def test_g_the_sweep_and_the_loop_answer_the_same_5000_questions() -> None:
    from bench.cases import sweeps

    rows = sweeps.sweep().rows
    answers = sweeps.loop()
    assert len(rows) == len(answers) == 5000
    # row order: n slowest, then hit, then reroll_failed; pool 1 at 4+: mean 1/2; rerolling failed: 3/4
    assert (rows[4]["n"], rows[4]["hit"], rows[4]["reroll_failed"]) == (1, "4+", False)
    assert rows[4]["mean"] == "1/2" and answers[4].mean == F(1, 2)
    assert rows[5]["mean"] == "3/4" and answers[5].mean == F(3, 4)


def test_a_successes() -> None:
    got = answer_of(lambda: pools.successes_pool(4, 4))
    assert got == brute(4, lambda r: sum(f >= 4 for f in r))


def test_c_bs7_reroll() -> None:
    # die i is (first roll r[2i], reroll r[2i+1]); the reroll only counts on a 1
    def hits(r: tuple) -> int:
        return sum((r[i + 1] >= 5) if r[i] == 1 else (r[i] >= 2) for i in range(0, len(r), 2))

    assert answer_of(lambda: pools.rerolled_pool(3, 2, (1,), 5)) == brute(6, hits)


def _joint(r: tuple) -> tuple:
    even = sum(f % 2 == 0 for f in r)
    return (sum(f >= parity.HIT for f in r), even - (len(r) - even))


def test_b_joint() -> None:
    assert answer_of(lambda: parity.joint(4), parity.joint_key) == brute(4, _joint)


def test_b_hell_dorado() -> None:
    # the last die only picks the engaged fighter on an impair: 1-3 the first, 4-6 the second
    def shot(r: tuple) -> tuple:
        hits, diff = _joint(r[:-1])
        if hits == 0:
            return ("none", 0)
        return ("target", hits) if diff >= 0 else (f"engaged-{1 + (r[-1] > 3)}", hits)

    assert answer_of(lambda: parity.hd(4), parity.hd_key) == brute(5, shot)


def test_b_hell_dorado_worked_example_figures() -> None:
    got = answer_of(lambda: parity.hd(3), parity.hd_key)
    per = {}
    for k, p in got.items():
        name = json.loads(k)[0]
        per[name] = per.get(name, 0) + p
    assert per == {"target": Fraction(19, 54), "engaged-1": Fraction(19, 108),
                   "engaged-2": Fraction(19, 108), "none": Fraction(8, 27)}


@pytest.mark.parametrize("models,wounds_each", [(1, 2), (2, 1)])
def test_d_attack(models: int, wounds_each: int) -> None:
    a = {**wh40k6.ATTACK, "shots": 2, "models": models, "wounds_each": wounds_each}
    p = {**wh40k6.PEER, "shots": 2, "models": models, "wounds_each": wounds_each}

    # shot i rolls (hit r[3i], wound r[3i+1], save r[3i+2])
    def casualties(r: tuple) -> int:
        unsaved = sum(r[i] >= p["hit"] and r[i + 1] >= p["wound"] and r[i + 2] < p["save"]
                      for i in range(0, len(r), 3))
        return min(models, unsaved // wounds_each)

    assert answer_of(lambda: wh40k6.attack_casualties(**a)) == brute(6, casualties)


def test_e_hh3_examples_answer_as_the_cli() -> None:
    """The bench's call gives the CLI's answer (the hh3 tests check that one
    against brute force), on one shipped pair; every pair is listed."""
    pairs = hh3_cases.example_pairs()
    assert pairs, "examples/hh3/ has no attacker/target pair"
    assert len(pairs) + len(hh3_cases.query_files()) == len(hh3_cases.cases())
    from exactodds import ask

    attacker, target = pairs[0]
    got = answer_of(lambda: hh3_cases.run_example(attacker, target))
    want = ask("hh3", "shoot", attacker=str(attacker), target=str(target)).dist
    assert got == {json.dumps(k): p for k, p in want.to_fractions().items()}
    assert sum(got.values()) == 1
    for q in hh3_cases.query_files():
        assert sum(answer_of(lambda q=q: hh3_cases.run_query(q)).values()) == 1


def test_f_startup_commands_exist() -> None:
    for c in startup.cases():
        assert Path(c.fresh["exactodds"][0]).exists()
    assert Path(startup.cli_argv()[0]).exists()


def test_peer_helpers() -> None:
    assert [peer_impl.recipient_name(c) for c in range(4)] == ["none", "target", "engaged-1", "engaged-2"]
    assert peer_impl.hd_codes(0, -3, 2) == [0]
    assert peer_impl.hd_codes(2, 1, 2) == [1]
    assert peer_impl.hd_codes(2, -1, 2) == [2, 3]
    n, m = 5, 11
    for hits in range(n + 1):
        for diff in range(-n, n + 1, 2):
            assert peer_impl._split(hits * m + diff + n, n, m) == (hits, diff)


def test_encoding_is_exact() -> None:
    ans = encode_answer([((1, 2), 2), ((1, 2), 2), ("x", 4)])
    assert decode_answer(json.loads(json.dumps(ans))) == {"[1, 2]": Fraction(1, 2), '"x"': Fraction(1, 2)}


def test_peers_agree_on_small_cases_when_installed() -> None:
    """Runs the peer runner in bench/.venv-peers when it exists (never in a fresh CI clone)."""
    py = peers.venv_python()
    if not py.exists():
        pytest.skip("no peers' environment (python bench/run.py creates it)")
    jobs = [{"key": "a", "case": "successes", "params": {"n": 4, "hit": 4}},
            {"key": "b", "case": "joint", "params": {"n": 4, "hit": 5}}]
    res = subprocess.run([str(py), str(Path(peer_impl.__file__))], input=json.dumps({"jobs": jobs, "quick": True}),
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)["results"]
    want = {"a": brute(4, lambda r: sum(f >= 4 for f in r)), "b": brute(4, _joint)}
    for key, by_variant in out.items():
        for variant, r in by_variant.items():
            assert decode_answer(r["answer"]) == want[key], (key, variant)


def test_h_the_monte_carlo_of_the_assault_agrees_with_the_exact_answer() -> None:
    """The numpy Monte Carlo a user would write instead (bench case h) estimates the
    same P(Marines destroyed) as the exact scenario, within 5 standard errors."""
    from bench.cases import exchanges

    exact = exchanges.scenario_end("assault").prob(lambda w: not w.units[0].alive())
    mc = exchanges.monte_carlo_assault(standard_error=3e-3)
    assert abs(mc["p"] - float(exact)) < 5 * mc["standard_error"]
    fire = exchanges.scenario_end("fire")
    # 16 bolter shots hit on 3+ and wound T4 on 4+; 2 plasma and 1 krak missile wound on 2+; no Ork save
    assert fire.map(lambda w: w.units[1].casualties()).mean() == Fraction(16 * 2, 3 * 2) + Fraction(3 * 2 * 5, 3 * 6)


def test_g_the_small_sweep_and_the_dice_loop_answer_the_same_1000_questions() -> None:
    from bench.cases import sweeps

    sweeps.forget()
    lines = sweeps.small_sweep().splitlines()
    dists = sweeps.dice_loop()
    assert len(lines) - 1 == len(dists) == 1000
    assert lines[0] == "n,hit,reroll_failed,mean,mean_float,p_at_least_3,p_at_least_3_float"
    # row 5: pool 1 at 4+ rerolling failed dice: 3/4 (1 - (1/2)^2); at least 3 successes of 1 die: 0
    assert lines[6] == "1,4+,true,3/4,0.75,0/1,0.0"
    assert dists[5].mean() == F(3, 4)


def test_i_each_answer_is_its_rule_steps_distribution() -> None:
    from bench.cases import answers

    for system, command, params, step, _ in answers.QUESTIONS.values():
        got = decode_answer(answers.json_answer(answers.answer_json(system, command, params)))
        assert got == decode_answer(answers.step_answer(step()))


def test_i_pool_answer_against_the_enumerator() -> None:
    from bench.cases import answers

    got = decode_answer(answers.json_answer(answers.answer_json("pool", None, {"n": 3, "hit": "4+"})))
    assert got == brute(3, lambda r: sum(f >= 4 for f in r))


def test_docs_rows_of_a_partial_run_replace_or_join_their_group() -> None:
    from bench.report import _recount, merge_rows

    rows = ["| a.x | q | 1 ms | - | - | - | t: met |", "| c.y | q \\| z | 1 ms | - | - | - | t: MISSED (2.00); u: met |"]
    merged = merge_rows(rows, ["| b.z | q | 2 ms | - | - | - | - |", "| a.x | q | 3 ms | - | - | - | t: met |"])
    assert merged == ["| a.x | q | 3 ms | - | - | - | t: met |", "| b.z | q | 2 ms | - | - | - | - |", rows[1]]
    assert _recount(merged) == "Targets met in this run: 2 of 3. Missed: c.y (t)."


def test_the_simulation_paragraph_says_which_is_faster() -> None:
    from bench.report import monte_carlo

    def paragraph(exact: float, simulated: float) -> str:
        return monte_carlo({"rows": [{"key": "h.assault", "exactodds": exact},
                                     {"key": "h.assault_monte_carlo", "exactodds": simulated}]})

    assert "so the exact answer is 2.0 times faster even for that one figure" in paragraph(0.040, 0.080)
    assert "so the simulation is 1.5 times faster for that one figure" in paragraph(0.120, 0.080)


def test_a_full_rewrite_of_the_docs_keeps_the_hand_written_analysis(tmp_path: Path) -> None:
    """The page's analysis (from "Why exactodds is fast" to "The calculator page", and
    the text after the page's timings) is kept from the page as it is; without a page,
    the template's stand-ins."""
    from bench.report import KEPT, page_text

    report = {"machine": {"when": "now", "platform": "p", "cpus": 2, "load": None}, "rows": []}
    (start, end), (after, curves) = KEPT
    page = tmp_path / "performance.md"
    page.write_text(f"# Performance\n\n{start}\nBY HAND ONE\n\n{end}\nx\n{after}\nBY HAND TWO\n\n{curves}\n")
    text = page_text(report, "CURVES", [], page)
    assert f"{start}\nBY HAND ONE\n\n{end}" in text and f"{after}\nBY HAND TWO\n\n{curves}" in text
    assert "CURVES" in text and text.count(start) == 1
    alone = page_text(report, "CURVES", [], tmp_path / "none.md")
    assert "BY HAND" not in alone and "are written by hand in" in alone


def test_a_pair_is_timed_alternately_from_one_clear_each() -> None:
    from bench.timing import measure_pair

    calls: list[str] = []
    got = measure_pair((lambda: calls.append("a") or 1, lambda: calls.append("b") or 2),
                       clear=lambda: calls.append("clear"), budget=0.0, max_repeats=3)
    assert [r for r, _ in got] == [1, 2]
    assert all(t["repeats"] == 3 and t["min"] <= t["median"] for _, t in got)
    assert calls == ["clear", "a", "b"] + ["clear", "a", "clear", "b"] * 3


def test_a_case_may_ask_for_a_number_of_timed_calls() -> None:
    from bench.timing import measure

    calls: list[str] = []
    result, times = measure(lambda: calls.append("a") or 7, clear=lambda: calls.append("clear"), repeats=5)
    assert result == 7 and times["repeats"] == 5 and calls == ["clear", "a"] * 6
    _, times = measure(lambda: None, budget=0.0, max_repeats=4)
    assert times["repeats"] == 3  # by the budget: at least three


def test_a_target_with_a_fallback_is_met_by_either_and_shows_both_figures() -> None:
    """An engagement that does not beat its Monte Carlo meets its target when it is at
    least 10 times faster than the first benchmark's code, both measured in the run."""
    from bench.cases import either, relative
    from bench.report import fmt_targets

    target = either(relative("mc", 1.0, "no slower than its Monte Carlo"), relative("first", 0.1, "10 times faster"))
    assert target.text == "no slower than its Monte Carlo, or else 10 times faster"
    assert target.check(0.2, None, {"mc": 0.25, "first": 1.0}) is True  # 0.8: the first holds
    assert target.check(0.2, None, {"mc": 0.1, "first": 2.5}) is True  # 2.0, else 0.08: the fallback holds
    assert target.check(0.2, None, {"mc": 0.1, "first": 1.9}) is False  # 2.0, else 0.105
    assert target.check(0.2, None, {"mc": 0.1}) is None  # the fallback's reference did not run
    assert target.values(0.2, None, {"mc": 0.1, "first": 2.5}) == [2.0, 0.08]
    shown = {"text": target.text, "met": True, "relative": True, "values": [2.0, 0.08]}
    assert fmt_targets([shown]) == "no slower than its Monte Carlo, or else 10 times faster: met (2.00, else 0.080)"


def test_h_the_first_benchmarks_code_answers_as_the_present_code() -> None:
    """The fallback's reference is the same question on the code of the first
    benchmark, read from this repository's history: on h.assault's file (20 Orks
    charge 10 Marines, 3 rounds) it gives the present code's exact answer."""
    from bench.cases import NotAvailable, exchanges, first_code

    try:
        old = first_code.scenario_end(exchanges.FILES["assault"])
    except NotAvailable as exc:
        pytest.skip(str(exc))
    assert type(old).__module__.startswith(first_code.PACKAGE + ".")
    assert decode_answer(dist_answer(old, exchanges.world_key)) == decode_answer(
        dist_answer(exchanges.scenario_end("assault"), exchanges.world_key))


def test_h_three_gets_hot_groups_answer_exactly() -> None:
    """Bench case h.gets_hot_fire: 24 plasma shots at BS 4 (12 from six rapid-firing guns
    at half range, six pistols, six cannons), each hitting on 3+ and wounding T4 on 2+
    with no Ork save: no casualty is (1 - 2/3 x 5/6)^24 = (4/9)^24. A 3-Wound model fires
    at most two shots, so Gets Hot never removes one."""
    from bench.cases import exchanges

    answer = exchanges.gets_hot_fire().dist
    assert answer.pmf((0, 0)) == Fraction(4, 9) ** 24
    assert answer.prob(lambda x: x[1] == 0) == 1


@pytest.mark.slow
def test_h_the_monte_carlo_of_a_larger_assault_agrees_with_the_exact_answer() -> None:
    """Thirty Orks (29 Boyz with two weapons, a Nob with a power klaw) charge twenty
    Guardsmen (bench case h.orks30_guard_3): the numpy Monte Carlo estimates the
    exact P(Guardsmen destroyed) within 5 standard errors."""
    from bench.cases import exchanges, monte_carlo

    exact = exchanges.p_destroyed("orks30_guard_3", 0)
    mc = monte_carlo.monte_carlo_assault(monte_carlo.sluggas(29), monte_carlo.GUARD, 3, standard_error=3e-3)
    assert abs(mc["p"] - float(exact)) < 5 * mc["standard_error"]


def test_h_the_monte_carlo_wounds_the_boyz_then_the_nob() -> None:
    """Unsaved wounds on the Monte Carlo's Orks go to the Boyz first, then to the
    2-Wound Nob; a wound that does not kill him counts, those beyond the last model do not."""
    import numpy as np

    from bench.cases import monte_carlo

    boyz, nob, taken = monte_carlo._wounds_on_orks(np.array([3, 3, 3, 3]), np.array([2, 2, 2, 0]),
                                                   np.array([2, 4, 7, 5]))
    assert boyz.tolist() == [1, 0, 0, 0]
    assert nob.tolist() == [2, 1, 0, 0]
    assert taken.tolist() == [2, 4, 5, 3]
    assert monte_carlo.sluggas(29) == monte_carlo.Orks(29, 3, True)


def test_h_the_monte_carlo_of_the_twenty_turn_exchange_agrees_with_the_exact_answer() -> None:
    """The Horus Heresy exchange of bench case h.hh3_20_turns: the numpy Monte Carlo
    estimates the exact P(heavies destroyed by turn 20) within 5 standard errors."""
    from bench.cases import exchanges, monte_carlo

    exact = exchanges.p_destroyed("hh3_20_turns", 1)
    mc = monte_carlo.monte_carlo_hh3_exchange(standard_error=3e-3)
    assert abs(mc["p"] - float(exact)) < 5 * mc["standard_error"]


def test_h_the_shooting_monte_carlo_rolls_and_removes_as_the_rules_say() -> None:
    """The Monte Carlo of h.fire, h.turns and h.gets_hot_fire: a Strength 8 wound
    removes one Boy, or the whole 2-Wound Nob once the Boyz are gone (those beyond
    are lost); a BS 4 die hits on 3+ and gets hot on a 1; at half range the
    bolters and the plasma gun fire twice, at 20" once, the missile launcher once."""
    import numpy as np

    from bench.cases import monte_carlo

    boyz, nob = monte_carlo._instant_death_on_orks(np.array([3, 3, 0, 0, 1]), np.array([2, 2, 2, 1, 2]),
                                                   np.array([2, 4, 1, 0, 1]))
    assert boyz.tolist() == [1, 0, 0, 0, 0]
    assert nob.tolist() == [2, 0, 0, 1, 2]
    faces = np.array([[[1, 3], [2, 6]], [[1, 1], [5, 4]]])  # two runs of two models firing two shots
    hits, ones = monte_carlo.hot_dice(faces)
    assert hits.tolist() == [2, 2]
    assert ones.tolist() == [[1, 0], [2, 0]]
    assert [v.shots for v in monte_carlo.marines_fire(True)] == [16, 2, 1]
    assert [v.shots for v in monte_carlo.marines_fire(False)] == [8, 1, 1]
    assert [v.instant_death for v in monte_carlo.marines_fire(True)] == [False, False, True]


def test_h_the_shooting_monte_carlos_agree_with_the_exact_answers() -> None:
    """h.fire: 16 bolter shots (1/3 unsaved each) and 3 plasma and krak shots (5/9)
    leave 20 - 7 = 13 Orks on average (at most 19 wounds on 19 Boyz: none is
    lost, none reaches the Nob); one turn of h.turns and h.gets_hot_fire: the exact P(Orks destroyed)
    within 5 standard errors of the Monte Carlo's."""
    from bench.cases import exchanges, monte_carlo
    from exactodds.profiles.scenario import load_scenario

    fire = monte_carlo.monte_carlo_mixed_fire(batch=40_000)
    sd = (16 * 1 / 3 * 2 / 3 + 3 * 5 / 9 * 4 / 9) ** 0.5  # of the Orks left: a sum of independent Bernoullis
    assert fire["p"] == 0 and abs(fire["orks_left"] / fire["assaults"] - 13) < 5 * sd / 40_000 ** 0.5
    one_turn = load_scenario(exchanges.FILES["turns"], turns=1).run().final.prob(lambda w: not w.units[2].alive())
    assert 0 < one_turn < Fraction(1, 1000)
    turn = monte_carlo.monte_carlo_two_units(turns=1, standard_error=1e-4)
    assert abs(turn["p"] - float(one_turn)) < 5 * turn["standard_error"]
    hot_exact = exchanges.gets_hot_fire().dist.prob(lambda x: x[0] == 20)
    hot = monte_carlo.monte_carlo_gets_hot(standard_error=1e-4)
    assert abs(hot["p"] - float(hot_exact)) < 5 * hot["standard_error"]
    assert hot["firers_lost"] == 0
