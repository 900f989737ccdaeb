"""Horus Heresy 3rd edition: whole shooting attacks against an independent
brute-force simulator of the rules, die by die.

The simulator below reads the rules afresh (its own hit, wound and penetration
formulas, its own allocation loop) and knows nothing of the engine. Small
fixed attacks enumerate every raw roll with ``tests/brute.py``
(``enumerate_rolls``); the hypothesis tests walk the tree of the dice the
simulator actually rolls, each die branching on the bands of faces the rule
distinguishes (pass/fail; miss/hit/critical; ...) with their exact chances.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction as F
from typing import Any, Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds.dice import Target
from exactodds.rules.hh3 import (
    Armour,
    AttackingUnit,
    Conditions,
    FiringModels,
    ShootingAttack,
    TargetModels,
    TargetUnit,
    Weapon,
)
from tests.brute import enumerate_rolls

# ------------------------------------------------------------ the simulator


@dataclass(frozen=True)
class G:
    """A fire group for the simulator: shots at bs with S, AP (None: '-'), D.
    With ``firepower`` (``"D3"``, ``"D6"``, ``"D3+1"``...), ``shots`` models
    each roll that many shots. Traits: reroll failed hits, reroll failed
    wounds, heavy (snap shots after moving)."""

    shots: int
    bs: int
    s: int
    ap: int | None = None
    d: int = 1
    firepower: str | None = None
    reroll_hits: bool = False
    reroll_wounds: bool = False
    heavy: bool = False


@dataclass(frozen=True)
class M:
    """A target model: infantry (t, w) or a vehicle (av, hp)."""

    t: int = 4
    w: int = 1
    save: int | None = None
    inv: int | None = None
    shrouded: int | None = None
    fnp: int | None = None
    medic: bool = False
    av: int | None = None
    left: int | None = None  # already wounded: this many Wounds (Hull Points) left


@dataclass(frozen=True)
class Case:
    groups: tuple[G, ...]
    models: tuple[M, ...]
    snap: bool = False
    cover: str | None = None
    overwatch: bool = False
    reaction: str | None = None
    medic_roll: int | None = None
    crits_first: bool = True
    statuses: tuple[str, ...] = ()
    leadership: int = 7
    traits: tuple[str, ...] = field(default=())
    moved: bool = False
    majority_bs: bool = False


def needed_to_hit(bs: int, snap: bool) -> tuple[int, int]:
    """(natural roll to hit, natural roll for a Critical Hit); 7 = never, 1 = always."""
    if snap:
        return (7 - min(bs, 10) // 2, 7)
    if bs >= 10:
        return (1, 1)
    if bs >= 6:
        return (2, 12 - bs)
    return (7 - bs, 7)


def needed_to_wound(s: int, t: int) -> int:
    diff = s - t
    if diff <= -4:
        return 7
    return {-3: 6, -2: 6, -1: 5, 0: 4, 1: 3}.get(diff, 2)


def most_common(values: list[int]) -> int:
    c = Counter(values)
    return sorted(c, key=lambda v: (c[v], v))[-1]


def simulate(case: Case, band: Callable[[tuple[int, ...]], int]) -> tuple:
    """One attack. ``band(cuts)`` rolls a d6 and says how many of the
    ``cuts`` (ascending naturals) the face reaches: a test at x+ is
    ``band((x,)) == 1``."""

    def test(x: int) -> bool:
        return band((x,)) == 1

    models = case.models
    vehicle = models[0].av is not None
    left = [m.w if m.left is None else m.left for m in models]
    statuses = set(case.statuses)
    cover = {"light": 6, "medium": 5, "dense": 4}.get(case.cover) if not case.overwatch else None
    smoke = case.reaction == "smoke" and not case.overwatch

    def recipient() -> int | None:
        for i, w in enumerate(left):
            if 0 < w < models[i].w:
                return i
        return next((i for i, w in enumerate(left) if w > 0), None)

    def damage(dmg: int, ap: int | None) -> None:
        i = recipient()
        if i is None:
            return
        m = models[i]
        saves = [x for x in (m.inv, cover) if x is not None]
        if not vehicle and m.save is not None and (ap is None or ap > m.save):
            saves.append(m.save)
        if saves and test(min(saves)):
            return
        mits = [] if case.overwatch else [x for x in (m.shrouded, 5 if smoke else None) if x is not None]
        mits += [m.fnp] if m.fnp is not None else []
        if mits and test(min(mits)):
            return
        left[i] = max(0, left[i] - dmg)

    def glance() -> None:
        i = recipient()
        if i is None:
            return
        if smoke and test(5):
            return
        status = ("stunned", "pinned", "suppressed")[band((3, 5))]
        if status in statuses:
            left[i] -= 1
        else:
            statuses.add(status)

    def roll_count(text: str) -> int:
        """A random Firepower, one die at a time: "D3", "D6", "2D6", "D3+1"."""
        dice, _, rest = text.upper().partition("D")
        sides, _, plus = rest.partition("+")
        total = int(plus or 0)
        for _ in range(int(dice or 1)):
            total += band((2, 3, 4, 5, 6)) + 1 if sides == "6" else band((3, 5)) + 1  # D3: 1-2, 3-4, 5-6
        return total

    # the unit's majority BS: every firing model counted once, ties: the highest
    unit_bs = most_common([g.bs for g in case.groups for _ in range(g.shots)])
    for g in case.groups:
        snap = case.snap or (g.heavy and case.moved)
        hit_on, crit_on = needed_to_hit(unit_bs if case.majority_bs else g.bs, snap)
        hits = crits = 0
        shots = g.shots if g.firepower is None else sum(roll_count(g.firepower) for _ in range(g.shots))
        for _ in range(shots):
            if hit_on == 1:
                hits, crits = hits + 1, crits + 1
            elif hit_on <= 6:
                level = band((hit_on, crit_on))
                if level == 0 and g.reroll_hits:
                    level = band((hit_on, crit_on))
                hits += level >= 1
                crits += level >= 2
        alive = [i for i, w in enumerate(left) if w > 0]
        if not alive:
            continue
        if vehicle:
            av = most_common([models[i].av for i in alive])  # type: ignore[misc]
            pens = [0, 0]  # crit, other
            glances = 0
            for k in range(hits):
                level = band((av - g.s, av - g.s + 1))  # d6 + S: equal to AV, above AV
                if level == 2:
                    pens[0 if k < crits else 1] += 1
                elif level == 1:
                    glances += 1
            order = [(pens[0], g.d + 1), (pens[1], g.d)]
            for n, dmg in (order if case.crits_first else order[::-1]):
                for _ in range(n):
                    damage(dmg, None)
            for _ in range(glances):
                glance()
        else:
            t = most_common([models[i].t for i in alive])
            if case.reaction == "shield":
                t = min(t + 1, 10)
            need = needed_to_wound(g.s, t)
            wounds = sum(1 for _ in range(hits - crits)
                         if need <= 6 and (test(need) or (g.reroll_wounds and test(need))))
            order = [(crits, g.d + 1), (wounds, g.d)]
            for n, dmg in (order if case.crits_first else order[::-1]):
                for _ in range(n):
                    damage(dmg, g.ap)
    if case.reaction == "medic":
        for i, m in enumerate(models):
            if left[i] == 0 and not m.medic and test(case.medic_roll):  # type: ignore[arg-type]
                left[i] = 1
    return canonical(case, tuple(left)), tuple(sorted(statuses))


def canonical(case: Case, left: tuple[int, ...]) -> tuple[int, ...]:
    """Left per model with each run of identical models sorted (they are interchangeable)."""
    out: list[int] = []
    i = 0
    while i < len(left):
        j = i
        while j < len(left) and case.models[j] == case.models[i]:
            j += 1
        out += sorted(left[i:j])
        i = j
    return tuple(out)


def raw_enumeration(case: Case, n_dice: int) -> dict:
    """Every raw roll of n_dice d6 (dice consumed in order; unused ones are harmless)."""
    def outcome(roll: tuple[int, ...]) -> tuple:
        it = iter(roll)

        def band(cuts: tuple[int, ...]) -> int:
            face = next(it)
            return sum(face >= c for c in cuts)

        return simulate(case, band)
    return enumerate_rolls(n_dice, outcome)


class _Need(Exception):
    def __init__(self, options: list[tuple[Any, F]]) -> None:
        self.options = options


def every_roll(play: Callable[[Callable, Callable], Any]) -> dict:
    """The tree of the dice actually rolled by ``play(band, draw)``, each die
    branching on the bands of faces that the rule distinguishes (``band``) or
    on the given options (``draw``), with their exact chances: outcome -> chance."""
    out: dict = {}
    stack: list[tuple[tuple, F]] = [((), F(1))]
    while stack:
        prefix, p = stack.pop()
        pos = 0

        def draw(options: list[tuple[Any, F]]) -> Any:
            nonlocal pos
            if pos < len(prefix):
                pos += 1
                return prefix[pos - 1]
            raise _Need(options)

        def band(cuts: tuple[int, ...]) -> int:
            levels = Counter(sum(f >= c for c in cuts) for f in range(1, 7))
            return draw([(level, F(n, 6)) for level, n in levels.items()])

        try:
            result = play(band, draw)
        except _Need as need:
            stack.extend((prefix + (v,), p * w) for v, w in need.options if w)
            continue
        out[result] = out.get(result, 0) + p
    return out


def tree_enumeration(case: Case) -> dict:
    """Every roll of one attack (:func:`simulate`) with its exact chance."""
    return every_roll(lambda band, draw: simulate(case, band))


# ------------------------------------------------------------ the engine side


def engine(case: Case) -> tuple[dict, Any]:
    def traits(g: G) -> frozenset[str]:
        return frozenset(name for name, on in (("reroll-failed-hits", g.reroll_hits),
                                               ("reroll-failed-wounds", g.reroll_wounds), ("heavy", g.heavy)) if on)

    weapons = [Weapon(f"w{i}", g.firepower or 1, g.s, g.ap, g.d, traits(g)) for i, g in enumerate(case.groups)]
    firers = tuple(FiringModels(f"m{i}", g.shots, g.bs, w) for i, (g, w) in enumerate(zip(case.groups, weapons)))
    attacker = AttackingUnit("firer", firers, pinned=case.snap)
    entries = []
    for m in case.models:
        if m.av is not None:
            tm = TargetModels("v", armour=Armour(m.av, m.av, m.av), hull_points=m.w, invulnerable=m.inv,
                              shrouded=m.shrouded, hull_points_left=m.left)
        else:
            tm = TargetModels("i", toughness=m.t, wounds=m.w, save=m.save, invulnerable=m.inv,
                              shrouded=m.shrouded, feel_no_pain=m.fnp, medic=m.medic, wounds_left=m.left)
        if entries and entries[-1][0] == (m, tm):
            entries[-1][1] += 1
        else:
            entries.append([(m, tm), 1])
    from dataclasses import replace
    target = TargetUnit("target", case.leadership, tuple(replace(tm, count=n) for (_, tm), n in entries),
                        traits=frozenset(case.traits), statuses=frozenset(case.statuses))
    conditions = Conditions(cover=case.cover, overwatch=case.overwatch, reaction=case.reaction,
                            medic_roll=None if case.medic_roll is None else Target.at_least(case.medic_roll),
                            crits_first=case.crits_first, moved=case.moved, majority_bs=case.majority_bs)
    run = ShootingAttack(attacker, target, conditions).run()
    got = run.stage("remove casualties").map(lambda s: (canonical(case, s.left), s.statuses)).to_fractions()
    return got, run


def check(case: Case, brute: dict) -> None:
    got, run = engine(case)
    assert got == brute
    n = len(case.models)
    p_panic = sum((p for (left, _), p in brute.items() if n * F(1, 4) <= left.count(0) < n), F(0))
    fail = F(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b > case.leadership), 36)
    assert run.panic() == p_panic
    assert run.routed() == p_panic * fail
    assert run.destroyed() == sum((p for (left, _), p in brute.items() if left.count(0) == n), F(0))


# ------------------------------------------------------ fixed small attacks (raw rolls)


def test_mixed_saves_and_wounded_first_raw() -> None:
    # 2 shots BS 4, S4 AP4: a 2-wound model with 3+ armour (kept), then a 4+ one (ignored by AP4)
    case = Case((G(2, 4, 4, ap=4),), (M(w=2, save=3), M(w=1, save=4, inv=6)))
    check(case, raw_enumeration(case, 6))


def test_crits_with_plus_one_damage_raw() -> None:
    # BS 8: crits on 4+ wound automatically with D2; 2-wound models, 5+ save
    case = Case((G(2, 8, 3, d=1),), (M(t=5, w=2, save=5), M(t=5, w=2, save=5)))
    check(case, raw_enumeration(case, 6))


def test_crits_last_differs_and_matches_raw() -> None:
    case = Case((G(2, 9, 6, d=1),), (M(w=2), M(w=1)), crits_first=False)
    check(case, raw_enumeration(case, 4))


def test_shrouded_and_feel_no_pain_raw() -> None:
    # BS 10+: every shot a Critical Hit (no hit or wound dice): save then mitigation per wound
    case = Case((G(2, 10, 4),), (M(save=4, shrouded=5, fnp=6), M(save=4)))
    check(case, raw_enumeration(case, 4))


def test_medic_recovery_raw() -> None:
    case = Case((G(3, 10, 4),), (M(), M(), M(w=2, medic=True)), reaction="medic", medic_roll=4)
    check(case, raw_enumeration(case, 3))


def test_glancing_statuses_raw() -> None:
    # BS 10 (no hit dice), S 4 against AV 10: glancing on 6, penetrating never; already Pinned
    case = Case((G(3, 10, 4),), (M(w=2, av=10),), statuses=("pinned",))
    check(case, raw_enumeration(case, 6))


def test_smoke_against_glancing_and_penetrating_raw() -> None:
    case = Case((G(2, 10, 5),), (M(w=2, av=10),), reaction="smoke", traits=("smoke",))
    check(case, raw_enumeration(case, 6))


def test_cover_and_overwatch_raw() -> None:
    # BS 10: two automatic Critical Hits; AP 3 ignores the 3+ armour
    case = Case((G(2, 10, 4, ap=3),), (M(save=3, shrouded=4), M(save=3)), cover="dense")
    check(case, raw_enumeration(case, 4))
    ow = Case((G(2, 10, 4, ap=3),), (M(save=3, shrouded=4), M(save=3)), overwatch=True)
    check(ow, raw_enumeration(ow, 4))


def test_snap_shots_raw() -> None:
    case = Case((G(2, 7, 4), G(1, 1, 4)), (M(), M()), snap=True)
    check(case, raw_enumeration(case, 4))


def test_reroll_failed_hits_and_wounds_raw() -> None:
    # one shot BS 4 (3+), S4 vs T4 (4+), both rolls rerolled when failed: 8/9 x 3/4 = 2/3 unsaved
    case = Case((G(1, 4, 4, reroll_hits=True, reroll_wounds=True),), (M(),))
    brute = raw_enumeration(case, 4)
    check(case, brute)
    assert brute[((0,), ())] == F(2, 3)


def test_random_firepower_raw() -> None:
    # two models with D3 Firepower at BS 10: every shot a Critical Hit (no hit or wound dice), two dice
    case = Case((G(2, 10, 3, firepower="D3"),), (M(w=2, t=4), M(w=2, t=4), M(w=2, t=4)))
    check(case, raw_enumeration(case, 2))


@pytest.mark.slow  # runs in CI (CI=true); the default run stays short on two cores
def test_heavy_after_moving_and_majority_bs_raw() -> None:
    # the heavy group fires snap shots (BS 7: 4+, no crits); with the majority reading both
    # groups roll at BS 4 (two BS 4 models against one BS 7)
    groups = (G(1, 7, 5, heavy=True), G(2, 4, 4))
    for moved, majority in ((True, False), (False, True), (True, True), (False, False)):
        case = Case(groups, (M(), M(w=2)), moved=moved, majority_bs=majority)
        check(case, raw_enumeration(case, 6))


def test_wounded_model_first_raw() -> None:
    # a wounded 3-Wound model (1 left) behind a fresh one in the file: it takes the first wound
    case = Case((G(2, 4, 4, d=1),), (M(w=3), M(w=3, left=1, save=5)))
    check(case, raw_enumeration(case, 6))
    vehicle = Case((G(2, 10, 8),), (M(w=3, av=10), M(w=3, av=10, left=1)))
    check(vehicle, raw_enumeration(vehicle, 6))


def test_tree_enumerator_agrees_with_raw_rolls() -> None:
    case = Case((G(2, 6, 4, ap=5),), (M(save=4), M(w=2)))
    assert tree_enumeration(case) == raw_enumeration(case, 6)


# ------------------------------------------------------ random small attacks (dice tree)

saves = st.none() | st.integers(2, 6)


@st.composite
def infantry_cases(draw: Any) -> Case:
    n_groups = draw(st.integers(1, 2))
    groups = tuple(G(draw(st.integers(1, 2 if n_groups == 1 else 1)), draw(st.integers(1, 11)),
                     draw(st.integers(2, 8)), draw(st.none() | st.integers(2, 6)), draw(st.integers(1, 2)))
                   for _ in range(n_groups))
    models = tuple(M(t=draw(st.integers(3, 5)), w=draw(st.integers(1, 2)), save=draw(saves),
                     inv=draw(st.none() | st.integers(4, 6)), shrouded=draw(st.none() | st.integers(4, 6)),
                     fnp=draw(st.none() | st.integers(5, 6)), medic=draw(st.booleans()))
                   for _ in range(draw(st.integers(1, 3))))
    overwatch = draw(st.booleans())
    reaction = None if overwatch else draw(st.sampled_from([None, "shield", "smoke", "medic"]))
    if reaction == "medic" and not any(m.medic for m in models):
        reaction = None
    return Case(groups, models, snap=draw(st.booleans()),
                cover=None if overwatch else draw(st.sampled_from([None, "light", "medium", "dense"])),
                overwatch=overwatch, reaction=reaction,
                medic_roll=draw(st.integers(2, 6)) if reaction == "medic" else None,
                crits_first=draw(st.booleans()), leadership=draw(st.integers(2, 12)),
                traits=("shield", "smoke"))


@st.composite
def vehicle_cases(draw: Any) -> Case:
    n_groups = draw(st.integers(1, 2))
    groups = tuple(G(draw(st.integers(1, 3 - n_groups)), draw(st.integers(1, 11)), draw(st.integers(3, 9)),
                     None, draw(st.integers(1, 2))) for _ in range(n_groups))
    models = tuple(M(w=draw(st.integers(1, 3)), av=draw(st.integers(9, 12)), inv=draw(st.none() | st.integers(4, 6)),
                     shrouded=draw(st.none() | st.integers(4, 6)))
                   for _ in range(draw(st.integers(1, 2))))
    overwatch = draw(st.booleans())
    reaction = None if overwatch else draw(st.sampled_from([None, "smoke"]))
    return Case(groups, models, snap=draw(st.booleans()),
                cover=None if overwatch else draw(st.sampled_from([None, "medium"])),
                overwatch=overwatch, reaction=reaction, crits_first=draw(st.booleans()),
                statuses=tuple(sorted(draw(st.sets(st.sampled_from(["stunned", "pinned", "suppressed"]))))),
                traits=("smoke",))


@st.composite
def trait_cases(draw: Any) -> Case:
    """Small attacks with the dice traits: rerolls, random Firepower, Heavy,
    the majority-BS reading and wounded models."""
    n_groups = draw(st.integers(1, 2))
    groups = []
    for _ in range(n_groups):
        firepower = draw(st.sampled_from([None, None, "D3"])) if n_groups == 1 else None
        groups.append(G(draw(st.integers(1, 2 if n_groups == 1 and firepower is None else 1)),
                        draw(st.integers(1, 11)), draw(st.integers(3, 6)), draw(st.none() | st.integers(2, 6)),
                        draw(st.integers(1, 2)), firepower, draw(st.booleans()), draw(st.booleans()),
                        draw(st.booleans())))
    models = []
    for _ in range(draw(st.integers(1, 2))):
        w = draw(st.integers(1, 3))
        models.append(M(t=draw(st.integers(3, 5)), w=w, save=draw(saves),
                        left=draw(st.none() | st.integers(1, w - 1)) if w > 1 else None))
    return Case(tuple(groups), tuple(models), snap=draw(st.booleans()), moved=draw(st.booleans()),
                majority_bs=draw(st.booleans()), crits_first=draw(st.booleans()),
                leadership=draw(st.integers(2, 12)))


@settings(max_examples=40, deadline=None)
@given(trait_cases())
def test_random_attacks_with_dice_traits_match_the_simulator(case: Case) -> None:
    check(case, tree_enumeration(case))


@settings(max_examples=40, deadline=None)
@given(infantry_cases())
def test_random_infantry_attacks_match_the_simulator(case: Case) -> None:
    check(case, tree_enumeration(case))


@settings(max_examples=30, deadline=None)
@given(vehicle_cases())
def test_random_vehicle_attacks_match_the_simulator(case: Case) -> None:
    check(case, tree_enumeration(case))


@pytest.mark.parametrize("bs", range(1, 12))
@pytest.mark.parametrize("snap", [False, True])
def test_hit_rolls_of_three_dice_match_raw_rolls(bs: int, snap: bool) -> None:
    from exactodds.rules.hh3 import HitRoll, hit_rolls

    hit_on, crit_on = needed_to_hit(bs, snap)

    def outcome(roll: tuple[int, ...]) -> HitRoll:
        if hit_on == 1:
            return HitRoll(3, 3)
        return HitRoll(sum(f >= hit_on for f in roll), sum(f >= crit_on for f in roll))

    assert hit_rolls(3, bs, snap).to_fractions() == enumerate_rolls(3, outcome)
