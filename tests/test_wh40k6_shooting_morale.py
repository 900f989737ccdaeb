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
