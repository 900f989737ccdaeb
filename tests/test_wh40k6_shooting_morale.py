"""Pinning, morale after shooting and regrouping in 40K 6th edition scenarios,
against an independent die-by-die simulator (:func:`tests.test_wh40k6_brute.tree`),
and hand-worked figures.

The simulated scenario: unit A shoots unit B (``morale = true``), B shoots
back (snap shots when falling back or pinned), A shoots B again (a pinned B
has gone to ground: a 6+ cover save, having none), then B tries to regroup.
Every model has one wound, Toughness 4; A's models have no save.
"""

from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds import InputError
from exactodds.rules.scenario import Scenario
from exactodds.rules.wh40k6 import Melee, Model, Unit
from exactodds.rules.wh40k6.exchange import Assault, Shoot
from exactodds.rules.wh40k6.steps import Regroup, gone_to_ground
from exactodds.rules.wh40k6.units import Weapon
from tests.test_wh40k6_brute import BS, faces_at_least, tree, two_d6_pass_pairs, wound_needed

ROOT = Path(__file__).resolve().parent.parent


def sim_volley(chance, shots: int, bs: int, snap: bool, strength: int, alive: int,  # noqa: ANN001
               save: int | None) -> int:
    """Models removed from a unit of ``alive`` one-wound T4 models: hit, wound,
    then each wound on a model in play, saved on ``save``+ (no save rolled once
    none is left)."""
    first, again = BS[1 if snap else bs]
    hits = 0
    for _ in range(shots):
        if chance(faces_at_least(first)):
            hits += 1
        elif again is not None and chance(1, 6 - faces_at_least(first)) and chance(faces_at_least(again)):
            hits += 1  # the missed die was the 1, rerolled (BS 6+)
    wounds = sum(chance(faces_at_least(wound_needed(strength, 4))) for _ in range(hits))
    removed = 0
    for _ in range(wounds):
        if removed == alive:
            break
        if save is None or not chance(faces_at_least(save)):
            removed += 1
    return removed


def sim_scenario(chance, a: dict, b: dict) -> tuple[int, int, str]:  # noqa: ANN001
    """(A's models left, B's models left, B's status)."""
    na, nb, status = a["n"], b["n"], ""

    def fails(ld: int) -> bool:
        return not chance(two_d6_pass_pairs(ld), 36)

    def a_shoots(morale: bool) -> None:
        nonlocal nb, status
        if na == 0 or nb == 0:
            return
        start = nb
        cover = 6 if status == "pinned" else None  # gone to ground, no cover of its own
        save = b["save"] if cover is None else min(x for x in (b["save"], cover) if x is not None)
        lost = sim_volley(chance, na * a["shots"], a["bs"], False, a["s"], nb, save)
        nb -= lost
        if nb == 0 or b["fearless"]:
            return
        if a["pinning"] and lost and status == "" and fails(b["ld"]):
            status = "pinned"
        if morale and status in ("", "pinned") and 4 * (start - nb) >= start and fails(b["ld"]):
            status = "falling back"

    def b_shoots() -> None:
        nonlocal na
        if na == 0 or nb == 0:
            return
        na -= sim_volley(chance, nb, b["bs"], status in ("pinned", "falling back"), 4, na, None)

    a_shoots(True)
    b_shoots()
    a_shoots(False)
    if nb and status == "falling back":
        if b["no_fear"] or b["fearless"]:
            status = ""
        elif 4 * nb >= b["n"] and not fails(b["ld"]):
            status = ""
    return na, nb, status if nb else "destroyed"


def units(a: dict, b: dict) -> tuple[Unit, Unit]:
    melee = Melee(ws=4, initiative=4, attacks=1, strength=4, leadership=b["ld"])
    rules = tuple(r for r, on in (("fearless", b["fearless"]), ("and-they-shall-know-no-fear", b["no_fear"])) if on)
    ua = Unit((Model(toughness=4, wounds=1, count=a["n"], bs=a["bs"], weapons=("gun",), melee=melee),), "A",
              (Weapon("gun", a["s"], a["shots"], rules=("pinning",) if a["pinning"] else ()),))
    ub = Unit((Model(toughness=4, wounds=1, count=b["n"], save=b["save"], bs=b["bs"], weapons=("pistol",),
                     melee=melee, rules=rules),), "B", (Weapon("pistol", 4),))
    return ua, ub


def engine(a: dict, b: dict) -> dict:
    ua, ub = units(a, b)
    sc = Scenario({"a": ua, "b": ub}, [Shoot("a", "b", morale=True), Shoot("b", "a", morale=False),
                                       Shoot("a", "b", morale=False),
                                       Regroup("b")])
    final = sc.run().final
    return dict(final.map(lambda w: (w.units[0].survivors(), w.units[1].survivors(),
                                     w.statuses[1] if w.units[1].alive() else "destroyed")).to_fractions())


SIDES = st.fixed_dictionaries({
    "a": st.fixed_dictionaries({"n": st.just(1), "shots": st.integers(1, 2), "bs": st.integers(2, 6),
                                "s": st.integers(3, 6), "pinning": st.booleans()}),
    "b": st.fixed_dictionaries({"n": st.integers(2, 3), "save": st.sampled_from([None, 4, 6]),
                                "bs": st.integers(2, 4), "ld": st.integers(5, 9), "fearless": st.booleans(),
                                "no_fear": st.booleans()}),
})


@settings(max_examples=12, deadline=None)
@given(SIDES)
def test_pinning_morale_and_regroup_match_the_simulator(sides: dict) -> None:
    a, b = sides["a"], sides["b"]
    assert engine(a, b) == tree(lambda roll, chance: sim_scenario(chance, a, b))


def test_four_models_losing_one_test_morale_by_hand() -> None:
    """Four models, one S10 shot at BS 10 (2+, a 1 rerolled at 2+: 35/36),
    wounding on 2+ (5/6), no save: one lost (25%) tests at Ld 7 and fails on
    2D6 >= 8 (15/36)."""
    a = {"n": 1, "shots": 1, "bs": 10, "s": 10, "pinning": False}
    b = {"n": 4, "save": None, "bs": 4, "ld": 7, "fearless": False, "no_fear": False}
    ua, ub = units(a, b)
    final = Scenario({"a": ua, "b": ub}, [Shoot("a", "b", morale=True)]).run().final
    assert final.prob(lambda w: w.statuses[1] == "falling back") == F(35, 36) * F(5, 6) * F(15, 36)
    # with morale = false, no test
    final = Scenario({"a": ua, "b": ub}, [Shoot("a", "b", morale=False)]).run().final
    assert final.prob(lambda w: w.statuses[1] == "falling back") == 0


def test_a_pinned_unit_does_not_charge() -> None:
    a = {"n": 1, "shots": 1, "bs": 10, "s": 10, "pinning": True}
    b = {"n": 4, "save": None, "bs": 4, "ld": 7, "fearless": False, "no_fear": False}
    ua, ub = units(a, b)
    sc = Scenario({"a": ua, "b": ub}, [Shoot("a", "b", morale=False), Assault("b", "a", 0, overwatch=False)])
    final = sc.run().final
    # pinned: 35/36 x 5/6 x 15/36, and then never locked in combat
    assert final.prob(lambda w: w.statuses[1] == "pinned") == F(35, 36) * F(5, 6) * F(15, 36)
    assert final.prob(lambda w: w.statuses[1] == "pinned" and w.statuses[0] == "locked") == 0


def test_gone_to_ground_improves_cover() -> None:
    unit = Unit((Model(toughness=4, wounds=1, cover=4), Model(toughness=4, wounds=1), Model(toughness=4, wounds=1,
                                                                                          cover=2)))
    assert [m.cover for m in gone_to_ground(unit).models] == [3, 6, 2]


def test_a_morale_test_needs_leadership() -> None:
    ua, _ = units({"n": 1, "shots": 1, "bs": 4, "s": 4, "pinning": False},
                  {"n": 2, "save": None, "bs": 4, "ld": 7, "fearless": False, "no_fear": False})
    no_ld = Unit((Model(toughness=4, wounds=1, count=2),), "no ld")
    with pytest.raises(InputError, match="leadership"):
        Scenario({"a": ua, "b": no_ld}, [Shoot("a", "b", morale=True)]).run()


# --------------------------------------------------------------------------- a whole shooting phase
# Two units (A1, A2: one model each) shoot B in one shooting phase; B then
# fires back at A1 (its own phase: snap shots when falling back or pinned).
# B takes one morale check at the end of the first phase, against the models
# it had when the phase began, unless a step aimed at it says morale = false.


def sim_phase(chance, a1: dict, a2: dict, b: dict) -> tuple[int, int, str]:  # noqa: ANN001
    """(A1's models left, B's models left, B's status), die by die."""
    n1, nb, status, start = 1, b["n"], "", b["n"]

    def fails(ld: int) -> bool:
        return not chance(two_d6_pass_pairs(ld), 36)

    for a in (a1, a2):
        if nb == 0:
            break
        save = b["save"] if status != "pinned" else min(x for x in (b["save"], 6) if x is not None)
        lost = sim_volley(chance, a["shots"], a["bs"], False, a["s"], nb, save)
        nb -= lost
        if nb and a["pinning"] and lost and status == "" and not b["fearless"] and fails(b["ld"]):
            status = "pinned"
    tests = a1["morale"] and a2["morale"]
    if tests and nb and not b["fearless"] and 4 * (start - nb) >= start and fails(b["ld"]):
        status = "falling back"
    if nb:
        n1 -= sim_volley(chance, nb, b["bs"], status in ("pinned", "falling back"), 4, n1, None)
    return n1, nb, status if nb else "destroyed"


def phase_units(a1: dict, a2: dict, b: dict) -> dict[str, Unit]:
    melee = Melee(ws=4, initiative=4, attacks=1, strength=4, leadership=b["ld"])
    out = {}
    for name, a in (("a1", a1), ("a2", a2)):
        out[name] = Unit((Model(toughness=4, wounds=1, bs=a["bs"], weapons=("gun",), melee=melee),), name,
                         (Weapon("gun", a["s"], a["shots"], rules=("pinning",) if a["pinning"] else ()),))
    rules = ("fearless",) if b["fearless"] else ()
    out["b"] = Unit((Model(toughness=4, wounds=1, count=b["n"], save=b["save"], bs=b["bs"], weapons=("pistol",),
                           melee=melee, rules=rules),), "B", (Weapon("pistol", 4),))
    return out


def phase_engine(a1: dict, a2: dict, b: dict) -> dict:
    steps = [Shoot("a1", "b", morale=None if a1["morale"] else False),
             Shoot("a2", "b", morale=None if a2["morale"] else False), Shoot("b", "a1")]
    final = Scenario(phase_units(a1, a2, b), steps).run().final
    return dict(final.map(lambda w: (w.units[0].survivors(), w.units[2].survivors(),
                                     w.statuses[2] if w.units[2].alive() else "destroyed")).to_fractions())


FIRER = st.fixed_dictionaries({"shots": st.integers(1, 2), "bs": st.integers(2, 6), "s": st.integers(3, 6),
                               "pinning": st.booleans(), "morale": st.booleans()})
TARGET = st.fixed_dictionaries({"n": st.integers(3, 6), "save": st.sampled_from([None, 4, 6]), "bs": st.integers(2, 4),
                                "ld": st.integers(5, 9), "fearless": st.booleans()})


@pytest.mark.slow  # runs in CI (CI=true); the default run stays short on two cores
@settings(max_examples=10, deadline=None)
@given(FIRER, FIRER, TARGET)
def test_a_shooting_phase_of_two_steps_matches_the_simulator(a1: dict, a2: dict, b: dict) -> None:
    assert phase_engine(a1, a2, b) == tree(lambda roll, chance: sim_phase(chance, a1, a2, b))


SURE = {"shots": 1, "bs": 10, "s": 10, "pinning": False, "morale": True}
"""One shot at BS 10 (2+, a 1 rerolled at 2+: 35/36) with S 10 (wounds T 4 on 2+: 5/6): removes
one model without a save with chance 35/36 x 5/6 = 175/216."""


def test_four_models_one_lost_at_leadership_8() -> None:
    """4 models, 1 lost (25%), Ld 8: falls back on 2D6 > 8, 10/36."""
    sc = Scenario(phase_units(SURE, SURE, {"n": 4, "save": None, "bs": 4, "ld": 8, "fearless": False}),
                  [Shoot("a1", "b")])
    assert sc.run().final.prob(lambda w: w.statuses[2] == "falling back") == F(175, 216) * F(10, 36)


def test_two_steps_count_together_but_two_phases_do_not() -> None:
    """6 models: one lost (1/6), or one of the 5 left in a later phase (1/5), tests nothing;
    two lost in one phase (1/3) test at Ld 8 (10/36)."""
    units_ = phase_units(SURE, SURE, {"n": 6, "save": None, "bs": 4, "ld": 8, "fearless": False})

    def p_falls(steps: list) -> F:
        return Scenario(units_, steps).run().final.prob(lambda w: w.statuses[2] == "falling back")

    assert p_falls([Shoot("a1", "b"), Shoot("a2", "b")]) == F(175, 216) ** 2 * F(10, 36)
    # each step alone: never 25%
    assert p_falls([Shoot("a1", "b")]) == 0
    # a step of another kind between them ends the phase: two phases of one loss each
    assert p_falls([Shoot("a1", "b"), Regroup("a1"), Shoot("a2", "b")]) == 0
    # one step of the phase with morale = false turns the test off for that target
    assert p_falls([Shoot("a1", "b"), Shoot("a2", "b", morale=False)]) == 0
    # the unit firing back starts a new phase (B fired, so A1 shooting B again is the next phase)
    assert p_falls([Shoot("a1", "b"), Shoot("b", "a2"), Shoot("a2", "b")]) == 0


def test_a_unit_falling_back_does_not_test_again() -> None:
    units_ = phase_units(SURE, SURE, {"n": 4, "save": None, "bs": 4, "ld": 8, "fearless": False})
    sc = Scenario(units_, [Shoot("a1", "b"), Shoot("b", "a1", morale=False), Shoot("a2", "b")], turns=1)
    final = sc.run().final
    # tests after the first phase (1 of 4) and, when it passed, after the third (1 of 3 or 2 of 3)
    once = F(175, 216) * F(10, 36)
    passed = 1 - once
    again = passed * F(175, 216) * F(10, 36)
    assert final.prob(lambda w: w.statuses[2] == "falling back") == once + again


def test_the_orks_flee_example_is_the_phase_rule() -> None:
    """The Boyz (11, Ld 7) fall back at the end of the Devastators' and Scouts' phase with
    P(1 to 8 left, counting both steps' losses) x 15/36."""
    from dataclasses import replace

    from exactodds.profiles.scenario import load_scenario

    sc = load_scenario(ROOT / "examples/scenarios/orks_flee.toml", turns=1)
    assert isinstance(sc, Scenario)
    stage = "scouts shoot"
    falls = sc.run()[stage].prob(lambda w: w.statuses[2] == "falling back")
    off = replace(sc, steps=[replace(s, morale=False) if isinstance(s, Shoot) else s for s in sc.steps])
    left = off.run()[stage].prob(lambda w: 1 <= w.units[2].survivors() <= 8)
    assert falls == left * F(15, 36)
    assert falls != 0


def test_a_unit_falling_back_after_the_phase_does_not_charge() -> None:
    """4 models, one lost (25%), Ld 8: falls back with 175/216 x 10/36 and then never
    charges; every other world charges from 0" and is locked."""
    units_ = phase_units(SURE, SURE, {"n": 4, "save": None, "bs": 4, "ld": 8, "fearless": False})
    run = Scenario(units_, [Shoot("a1", "b"), Assault("b", "a1", 0, overwatch=False)]).run()
    charged = run["assault 2: charge"]  # before the fight's own morale test
    falls = F(175, 216) * F(10, 36)
    assert charged.prob(lambda w: w.statuses[2] == "falling back") == falls
    assert charged.prob(lambda w: w.statuses[2] == "falling back" and w.statuses[0] == "locked") == 0
    assert charged.prob(lambda w: w.statuses[0] == "locked") == 1 - falls


def test_a_phase_turned_off_leaves_no_count_behind() -> None:
    """6 models: one lost in a phase with morale = false, one more in a later phase
    (1 of 5, 20%): no test, ever; the phase turned off does not carry its count."""
    units_ = phase_units(SURE, SURE, {"n": 6, "save": None, "bs": 4, "ld": 8, "fearless": False})
    steps = [Shoot("a1", "b", morale=False), Shoot("b", "a2", morale=False), Shoot("a2", "b")]
    final = Scenario(units_, steps).run().final
    assert final.prob(lambda w: w.statuses[2] == "falling back") == 0
    assert all(w.marks == () for w in final.support())
