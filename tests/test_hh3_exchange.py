"""Horus Heresy 3rd edition exchanges (the target returns fire) and attacks in
sequence, against the die-by-die simulator of ``tests/test_hh3_brute.py``.

The brute force below plays the steps one after another, every die in turn
(the attack, then the return fire, then the panic tests), with no use of the
independence of the two attacks that the engine relies on; expected values
come from it or from hand-worked fractions, never from the code under test.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction as F
from pathlib import Path
from typing import Any, Callable

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds import Dist, ask
from exactodds.cli import main
from exactodds.rules.hh3 import FiringModels, TargetModels, TargetUnit, Weapon
from exactodds.rules.hh3.exchange import Exchange, Shoot
from exactodds.rules.hh3.units import ShootingUnit
from exactodds.rules.scenario import Scenario
from tests.test_hh3_brute import G, M, Case, every_roll, simulate

ROOT = Path(__file__).resolve().parents[1]

# ------------------------------------------------------------ the brute force


@dataclass(frozen=True)
class Line:
    """A model line of a unit in the brute force: ``count`` models with T, W,
    save; firing (when ``bs``) ``fp`` shots each of S, AP at ``bs``."""

    count: int
    t: int = 4
    w: int = 1
    save: int | None = None
    bs: int | None = None
    fp: int = 1
    s: int = 4
    ap: int | None = None


@dataclass(frozen=True)
class U:
    lines: tuple[Line, ...]
    leadership: int = 7


def models_of(u: U, left: tuple[int, ...]) -> tuple[M, ...]:
    """The simulator's target models, each at its Wounds left."""
    per = [line for line in u.lines for _ in range(line.count)]
    return tuple(M(t=line.t, w=line.w, save=line.save, left=w) for line, w in zip(per, left))


def groups_of(u: U, left: tuple[int, ...]) -> tuple[G, ...]:
    """One fire group per armed line, its shots from the models of that line in play."""
    out, i = [], 0
    for line in u.lines:
        alive = sum(1 for w in left[i:i + line.count] if w > 0)
        i += line.count
        if line.bs is not None and alive:
            out.append(G(alive * line.fp, line.bs, line.s, line.ap))
    return tuple(out)


def two_d6_passes(ld: int) -> F:
    """P(2D6 <= Ld), counting the 36 pairs."""
    return F(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= ld), 36)


def attack(firer: U, firer_left: tuple[int, ...], target: U, target_left: tuple[int, ...],
           band: Callable, draw: Callable) -> tuple[tuple[int, ...], set[str]]:
    """One attack, die by die, then the target's panic test when due."""
    groups = groups_of(firer, firer_left)
    if not groups:
        return target_left, set()
    left, _ = simulate(Case(groups, models_of(target, target_left)), band)
    before = sum(1 for w in target_left if w > 0)
    after = sum(1 for w in left if w > 0)
    lost = before - after
    statuses: set[str] = set()
    if after and 4 * lost >= before:
        p = two_d6_passes(target.leadership)
        statuses.add("passed panic" if draw([(True, p), (False, 1 - p)]) else "routed")
    return left, statuses


def shown(statuses: set[str], left: tuple[int, ...]) -> frozenset[str]:
    """The documented display: nothing for a destroyed unit; routed implies the test."""
    if not any(left):
        return frozenset()
    return frozenset(statuses - ({"passed panic"} if "routed" in statuses else set()))


def play(units: tuple[U, U], steps: list[tuple[str, int, int]], turns: int, band: Callable,
         draw: Callable) -> tuple:
    """Every step of every turn in order: ("exchange", a, t) or ("shoot", f, t)."""
    left = [tuple(line.w for line in u.lines for _ in range(line.count)) for u in units]
    statuses: list[set[str]] = [set(), set()]
    for _ in range(turns):
        for kind, a, t in steps:
            if not (any(left[a]) and any(left[t])):
                continue
            start_a, start_t = left[a], left[t]
            left[t], got = attack(units[a], start_a, units[t], start_t, band, draw)
            statuses[t] |= got
            if kind == "exchange":  # every model the target had at the start fires back
                left[a], got = attack(units[t], start_t, units[a], start_a, band, draw)
                statuses[a] |= got
    return tuple(x for i in (0, 1) for x in (left[i], shown(statuses[i], left[i])))


def brute(units: tuple[U, U], steps: list[tuple[str, int, int]], turns: int = 1) -> dict:
    """The tree of every die rolled, with exact chances."""
    return every_roll(lambda band, draw: play(units, steps, turns, band, draw))


# ------------------------------------------------------------ the engine side


def engine_unit(u: U, name: str) -> ShootingUnit:
    targets, firing = [], []
    for i, line in enumerate(u.lines):
        targets.append(TargetModels(f"m{i}", line.count, toughness=line.t, wounds=line.w, save=line.save))
        firing.append(None if line.bs is None else
                      FiringModels(f"m{i}", line.count, line.bs, Weapon(f"{name} w{i}", line.fp, line.s, line.ap, 1)))
    return ShootingUnit(TargetUnit(name, u.leadership, tuple(targets)), tuple(firing))


def engine(units: tuple[U, U], steps: list[tuple[str, int, int]], turns: int = 1) -> dict:
    names = ["a", "b"]
    specs = [Exchange(names[a], names[t], name=f"s{i}") if kind == "exchange" else
             Shoot(names[a], names[t], name=f"s{i}") for i, (kind, a, t) in enumerate(steps)]
    sc = Scenario({n: engine_unit(u, n) for n, u in zip(names, units)}, specs, turns)
    final = sc.run().final

    def key(w: Any) -> tuple:
        return tuple(x for i in (0, 1) for x in (w.units[i].wounds,
                                                 frozenset(s for s in w.statuses[i].split(", ") if s)))

    return final.map(key).to_fractions()


# ------------------------------------------------------------ hand-worked identities


def test_one_shot_each_way_by_hand() -> None:
    # one model each, BS 4 (hits on 3+: 2/3), S4 against T4 (wounds on 4+: 1/2), no save:
    # each side kills the other with 1/3, independently, since the target fires back even
    # when it dies. A one-model unit that loses its model is destroyed (no test).
    # joint: both dead 1/9, one dead 2/9 each way, both standing 4/9
    one = U((Line(1, bs=4),))
    got = engine((one, one), [("exchange", 0, 1)])
    dead, alive = ((0,), frozenset()), ((1,), frozenset())
    assert got == {dead + dead: F(1, 9), alive + dead: F(2, 9), dead + alive: F(2, 9), alive + alive: F(4, 9)}
    assert brute((one, one), [("exchange", 0, 1)]) == got


def test_panic_test_of_the_unit_that_returns_fire_by_hand() -> None:
    # the attacker: one model, one shot, kills one of the two target models with 1/3;
    # the target then has lost 1 of 2 (50% >= 25%): a panic test, 2D6 <= 7 passes 21/36 = 7/12.
    # The target's two models both fire back (the dying one too): the attacker survives
    # with (2/3)^2 = 4/9.
    a, t = U((Line(1, bs=4),)), U((Line(2, bs=4),), leadership=7)
    got = engine((a, t), [("exchange", 0, 1)])
    none, panic, routed = frozenset(), frozenset({"passed panic"}), frozenset({"routed"})
    expected = {}
    for a_left, pa in (((1,), F(4, 9)), ((0,), F(5, 9))):
        expected[(a_left, none, (1, 1), none)] = pa * F(2, 3)
        expected[(a_left, none, (0, 1), panic)] = pa * F(1, 3) * F(7, 12)
        expected[(a_left, none, (0, 1), routed)] = pa * F(1, 3) * F(5, 12)
    assert got == expected
    assert sum(expected.values()) == 1


def test_return_fire_uses_the_models_at_the_start() -> None:
    # with return fire the attacker can fall to a target wiped out by the same exchange;
    # with a plain shoot step, never
    a, t = U((Line(1, bs=4),)), U((Line(1, bs=4),))
    both = engine((a, t), [("exchange", 0, 1)])
    assert sum(p for k, p in both.items() if not any(k[0]) and not any(k[2])) == F(1, 9)
    once = engine((a, t), [("shoot", 0, 1)])
    assert once == {((1,), frozenset(), (0,), frozenset()): F(1, 3), ((1,), frozenset(), (1,), frozenset()): F(2, 3)}


# ------------------------------------------------------------ against the brute force


def test_two_steps_and_two_turns_match_the_brute_force() -> None:
    # 2 models a side; a 2-Wound model with a save behind a plain one; 2 turns of an
    # exchange then a shot back: the survivors fire in later steps, wounded models carry over
    a = U((Line(1, bs=4, s=5),), leadership=6)
    b = U((Line(1, w=2, save=5, bs=3), Line(1)), leadership=8)
    steps = [("exchange", 0, 1), ("shoot", 1, 0)]
    assert engine((a, b), steps, turns=2) == brute((a, b), steps, turns=2)


def test_three_models_and_two_weapons_match_the_brute_force() -> None:
    a = U((Line(2, bs=3, s=3), Line(1, bs=5, s=6, ap=4)), leadership=7)
    b = U((Line(1, t=3, bs=4, fp=2),), leadership=9)
    steps = [("exchange", 0, 1)]
    assert engine((a, b), steps) == brute((a, b), steps)


@st.composite
def small_units(draw: Any) -> tuple[U, U]:
    """Two small units: 1-2 lines of 1-2 models, at most 2 shots a side (with
    their panic tests, at most some 6^6 leaves in the brute force's tree)."""
    def unit() -> U:
        lines = []
        for _ in range(draw(st.integers(1, 2))):
            lines.append(Line(draw(st.integers(1, 2)), t=draw(st.integers(3, 5)), w=draw(st.integers(1, 2)),
                              save=draw(st.none() | st.integers(3, 6)),
                              bs=draw(st.none() | st.integers(2, 8)) if lines else draw(st.integers(2, 8)),
                              s=draw(st.integers(3, 6)), ap=draw(st.none() | st.integers(2, 6))))
        while sum(line.count * line.fp for line in lines if line.bs is not None) > 2:
            lines.pop()
        return U(tuple(lines), draw(st.integers(4, 10)))
    return unit(), unit()


@settings(max_examples=15, deadline=None)
@given(small_units(), st.sampled_from([[("exchange", 0, 1)], [("exchange", 1, 0)],
                                       [("shoot", 0, 1), ("exchange", 1, 0)]]))
def test_random_small_exchanges_match_the_brute_force(units: tuple[U, U], steps: list) -> None:
    assert engine(units, steps) == brute(units, steps)


# ------------------------------------------------------------ the command and bad input


TACTICALS = str(ROOT / "examples/hh3/unit_tactical_squad.toml")
HEAVIES = str(ROOT / "examples/hh3/unit_heavy_support_squad.toml")


def test_command_is_the_scenario_of_one_exchange(tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["hh3", "exchange", "--attacker", TACTICALS, "--target", HEAVIES,
                                  "--format", "json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert sum(F(o["p"]) for o in data["outcomes"]) == 1
    scenario = tmp_path / "s.toml"
    scenario.write_text(f'system = "hh3"\n[units.attacker]\nfile = "{TACTICALS}"\n[units.target]\n'
                        f'file = "{HEAVIES}"\n[[steps]]\nkind = "exchange"\nattacker = "attacker"\n'
                        'target = "target"\n')
    s = json.loads(CliRunner().invoke(main, ["scenario", str(scenario), "--format", "json"]).output)
    assert s["outcomes"] == data["outcomes"] and s["p_destroyed"] == data["p_destroyed"]
    assert set(data["p_routed"]) == {"attacker", "target"}
    asked = ask("hh3", "exchange", attacker=TACTICALS, target=HEAVIES)
    assert asked.extras["p_destroyed"] == {k: F(v) for k, v in data["p_destroyed"].items()}
    query = tmp_path / "q.toml"
    query.write_text(f'system = "hh3"\ncommand = "exchange"\n[params]\nattacker = "{TACTICALS}"\n'
                     f'target = "{HEAVIES}"\n')
    q = json.loads(CliRunner().invoke(main, ["run", str(query), "--format", "json"]).output)
    assert q["outcomes"] == data["outcomes"]


def test_turns_give_monotone_destruction() -> None:
    a = ask("hh3", "exchange", attacker=TACTICALS, target=HEAVIES, turns=3)
    by_turn = list(a.extras["p_destroyed_by_turn"]["target"].values())
    assert len(by_turn) == 3 and by_turn == sorted(by_turn) and 0 < by_turn[0] < by_turn[-1] < 1


def test_sweep_of_turns_runs() -> None:
    r = CliRunner().invoke(main, ["sweep", str(ROOT / "examples/sweeps/hh3_exchange_turns.toml")])
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[0].startswith("turns,mean")


UNARMED = """name = "Unarmed"
leadership = 7
[[models]]
count = 2
toughness = 4
wounds = 1
"""


def _scenario(tmp_path: Path, steps: str, system: str = 'system = "hh3"\n') -> str:
    path = tmp_path / "sc.toml"
    (tmp_path / "unarmed.toml").write_text(UNARMED)
    path.write_text(f'{system}[units.tacticals]\nfile = "{TACTICALS}"\n[units.heavies]\nfile = "{HEAVIES}"\n'
                    f'[units.unarmed]\nfile = "unarmed.toml"\n{steps}')
    return str(path)


def _one_line_exit_2(args: list[str], needle: str) -> None:
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and needle in lines[0], lines


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path) -> None:
    unknown = _scenario(tmp_path, '[[steps]]\nkind = "exchange"\nattacker = "tacticals"\ntarget = "orks"\n')
    _one_line_exit_2(["scenario", unknown], "names the unit 'orks'")
    unarmed = _scenario(tmp_path, '[[steps]]\nkind = "exchange"\nattacker = "tacticals"\ntarget = "unarmed"\n')
    _one_line_exit_2(["scenario", unarmed], "unarmed cannot shoot")
    mixed = _scenario(tmp_path, '[[steps]]\nkind = "assault"\nattacker = "tacticals"\ndefender = "heavies"\n'
                                'distance = 6\n')
    _one_line_exit_2(["scenario", mixed], "does not mix systems")
    forty = _scenario(tmp_path, '[[steps]]\nkind = "exchange"\nattacker = "tacticals"\ntarget = "heavies"\n',
                      system="")
    _one_line_exit_2(["scenario", forty], "does not mix systems")
    attacker_only = str(ROOT / "examples/hh3/tactical_squad.toml")
    _one_line_exit_2(["hh3", "exchange", "--attacker", attacker_only, "--target", HEAVIES], "leadership is missing")
    _one_line_exit_2(["hh3", "exchange", "--attacker", TACTICALS, "--target", str(tmp_path / "unarmed.toml")],
                     "no model line fires")
    _one_line_exit_2(["hh3", "exchange", "--attacker", TACTICALS, "--target", HEAVIES, "--facing", "side"],
                     "applies to vehicles")


def test_mixing_systems_in_python_is_refused() -> None:
    import pytest

    from exactodds import InputError
    from exactodds.rules.wh40k6.exchange import Shoot as Shoot40k

    unit = engine_unit(U((Line(1, bs=4),)), "a")
    with pytest.raises(InputError, match="does not mix systems"):
        Scenario({"a": unit, "b": unit}, [Exchange("a", "b"), Shoot40k("a", "b")])


def test_a_combined_unit_file_reads_in_both_roles() -> None:
    from exactodds.profiles.hh3 import load_attacker, load_target

    firing, target = load_attacker(TACTICALS), load_target(TACTICALS)
    assert [m.count for m in firing.models] == [9, 1] and target.size() == 10
    r = CliRunner().invoke(main, ["hh3", "shoot", "--attacker", HEAVIES, "--target", TACTICALS])
    assert r.exit_code == 0, r.output


# ------------------------------------------------ the whole-distribution steps


def test_whole_distribution_steps_match_the_kernels_in_order() -> None:
    # each step on the whole Dist of worlds (Volley) against the per-world kernels
    # through Dist.then: the same outcomes, weights and denominator, in the same
    # order, turn after turn; three units, so each step leaves one out of its keys
    from exactodds.profiles.hh3 import load_unit
    from exactodds.rules.hh3.exchange import Fire, exchange_kernel, shoot_kernel
    from exactodds.rules.hh3.units import Conditions
    from exactodds.rules.scenario import TURN_CLEARED, p_destroyed

    names = ("tactical_squad", "heavy_support_squad", "terminators")
    units = {n: load_unit(ROOT / "examples" / "hh3" / f"unit_{n}.toml") for n in names}
    steps = [Exchange("tactical_squad", "heavy_support_squad", cover="light"),
             Shoot("terminators", "tactical_squad")]
    sc = Scenario(units, steps, turns=3)
    run = sc.run()
    tac, hvy, term = (units[n] for n in names)
    kernels = [exchange_kernel(Fire(tac, hvy, Conditions(cover="light")), Fire(hvy, tac, Conditions()), 0, 1),
               shoot_kernel(Fire(term, tac, Conditions()), 2, 0)]
    dist = Dist.constant(sc.start_world())
    for turn in range(3):
        if turn:
            dist = dist.map(lambda w: w._replace(statuses=tuple("" if s in TURN_CLEARED else s for s in w.statuses)))
        for kernel in kernels:
            dist = dist.then(kernel)
        got = run.stages[sc.turn_ends()[turn]]
        assert got.denominator == dist.denominator
        assert list(got.weights().items()) == list(dist.weights().items())
    assert all(p_destroyed(run.final, i) > 0 for i in (0, 1))  # worlds kept as they are, too


@pytest.mark.parametrize("both", [True, False], ids=["exchange", "shoot"])
def test_repeated_steps_run_as_plans_match_the_kernels_in_order(both: bool) -> None:
    # a step that meets the same sequence of worlds again runs its plan: turn after
    # turn the same outcomes, weights and order as the per-world kernels through Dist.then
    from exactodds.profiles.hh3 import load_unit
    from exactodds.rules.hh3.exchange import Fire, exchange_kernel, shoot_kernel, start_world_state
    from exactodds.rules.hh3.units import Conditions
    from exactodds.rules.hh3.volley import Volley
    from exactodds.rules.scenario import World

    tac, hvy = (load_unit(ROOT / "examples" / "hh3" / f"unit_{n}.toml") for n in ("tactical_squad",
                                                                                  "heavy_support_squad"))
    out, back = Fire(tac, hvy, Conditions()), Fire(hvy, tac, Conditions())
    volley = Volley([(out, 0, 1), (back, 1, 0)] if both else [(back, 1, 0)])
    kernel = exchange_kernel(out, back, 0, 1) if both else shoot_kernel(back, 1, 0)
    (s0, t0), (s1, t1) = start_world_state(tac), start_world_state(hvy)
    mine = theirs = Dist.constant(World((s0, s1), (t0, t1)))
    for _ in range(9):
        mine, theirs = volley(mine), theirs.then(kernel)
        assert mine.denominator == theirs.denominator
        assert list(mine.weights().items()) == list(theirs.weights().items())
    assert volley._plans  # the last turns ran as plans
