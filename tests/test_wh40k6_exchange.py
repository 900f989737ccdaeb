"""Whole exchanges in 40K 6th edition (several weapons in one shooting
attack, the whole assault, steps in sequence on shared unit states, turns),
against the independent die-by-die simulator of tests/test_wh40k6_brute.py,
by exact equality.

The random cases use its memoised engine (``DieByDie``): the whole assault at
2-4 models a side in 1-3 model lines (each its own close-combat profile), the
charged unit with 1-3 ranged weapons for Overwatch, 1-2 rounds; several
weapons (1-3, 2-4 firing models, 1-2 shots each) at 2-4 target models; random
Attacks at 2-4 models a side over 1-2 rounds. The memoised engine is itself
checked against the plain game tree (``tree``) on cases small enough for it
(2-3 models in all). The 80 random whole assaults are marked ``slow`` (they run when ``CI`` is true)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds import Dist, InputError
from exactodds.rules.allocation import UnitState
from exactodds.rules.scenario import Scenario, p_destroyed
from exactodds.rules.wh40k6 import Melee, Model, Unit
from exactodds.rules.wh40k6.exchange import (
    Assault, Fight, MoraleCheck, Shoot, assault, fire, p_caught, sweep_initiative, weapon_groups,
)
from exactodds.rules.wh40k6.units import Weapon
from tests.test_wh40k6_brute import DieByDie, caught_pairs, sim_assault, sim_blows, sim_fire, sim_loser_test, tree


def as_sim(unit: Unit) -> list[dict]:
    out = []
    for m in unit.models:
        for _ in range(m.count):
            d = dict(t=m.toughness, w=m.wounds, save=m.save, cover=m.cover, inv=m.invulnerable, char=m.character,
                     los=m.look_out_sir, line=m.name, gun=bool(m.weapons))
            if m.melee is not None:
                a = m.melee.attacks
                d.update(ws=m.melee.ws, i=m.melee.initiative, s=m.melee.strength, ap=m.melee.ap, ld=m.melee.leadership,
                         a=a if isinstance(a, int) else (a.dice, a.sides, a.plus))
            if m.rules or m.feel_no_pain is not None or m.eternal_warrior:
                d.update(rules=m.rules, fnp=m.feel_no_pain, ew=m.eternal_warrior)
            out.append(d)
    return out


@st.composite
def targets(draw: st.DrawFn, max_models: int = 4) -> Unit:
    """2-4 models in 1-2 lines (T 3-5, 1-2 wounds, a save or none, maybe an invulnerable or
    cover save, Feel No Pain, a Look Out, Sir character)."""
    n = draw(st.integers(1, 2))
    lines, total = [], 0
    for j in range(n):
        low = 2 - total if j == n - 1 else 1
        count = draw(st.integers(max(1, low), max(1, max_models - total - (n - j - 1))))
        total += count
        char = count == 1 and draw(st.booleans())
        lines.append(Model(draw(st.integers(3, 5)), draw(st.integers(1, 2)), f"L{j}", count,
                           draw(st.one_of(st.none(), st.integers(3, 6))),
                           draw(st.sampled_from([None, None, 4, 5])), draw(st.sampled_from([None, None, 4, 5])),
                           char, char and draw(st.booleans()), feel_no_pain=draw(st.sampled_from([None, None, 5]))))
    return Unit(tuple(lines), "target")


@st.composite
def splits(draw: st.DrawFn, total: int, parts: int) -> list[int]:
    """``total`` as ``parts`` whole numbers of at least 1, in order."""
    cuts = sorted(draw(st.lists(st.integers(1, total - 1), min_size=parts - 1, max_size=parts - 1, unique=True)))
    return [b - a for a, b in zip([0, *cuts], [*cuts, total])]


@st.composite
def weapon_lists(draw: st.DrawFn) -> list[tuple[Weapon, int, int]]:
    """1-3 weapons, each (profile, BS, models carrying it): 2-4 models in all, 1-2 shots each."""
    n = draw(st.integers(1, 3))
    out = []
    for j, models in enumerate(draw(splits(draw(st.integers(max(2, n), 4)), n))):
        rules = draw(st.sampled_from([(), ("twin-linked",), ("rending",)]))
        out.append((Weapon(f"w{j}", draw(st.integers(3, 8)), draw(st.integers(1, 2)),
                           draw(st.one_of(st.none(), st.integers(2, 6))), rules=rules),
                    draw(st.integers(2, 5)), models))
    return out


def firer(weapons: list[tuple[Weapon, int, int]]) -> Unit:
    lines = tuple(Model(4, 1, f"gun{j}", n, bs=bs, weapons=(w.name,)) for j, (w, bs, n) in enumerate(weapons))
    return Unit(lines, "firer", tuple(w for w, _, _ in weapons))


@settings(max_examples=40, deadline=None)
@given(weapon_lists(), targets())
def test_several_weapons_group_by_group_match_brute_force(weapons: list, target: Unit) -> None:
    got = fire(firer(weapons), target).final.map(lambda s: s.wounds)
    groups = [dict(shots=n * w.shots, bs=bs, s=w.strength, ap=w.ap, rules=w.rules) for w, bs, n in weapons]
    start = tuple(m.wounds for m in target.expanded())
    assert got.to_fractions() == DieByDie(as_sim(target)).fire("a", start, groups)


def test_the_memoised_simulator_matches_the_plain_tree_on_several_weapons() -> None:
    weapons = [(Weapon("a", 4, 2, 5, rules=("rending",)), 3, 1), (Weapon("b", 6, ap=3, rules=("twin-linked",)), 4, 1)]
    target = Unit((Model(3, 1, "m", 1, 5), Model(4, 2, "n", 2, 4, character=True, look_out_sir=True)), "T")
    groups = [dict(shots=n * w.shots, bs=bs, s=w.strength, ap=w.ap, rules=w.rules) for w, bs, n in weapons]
    plain = tree(lambda roll, chance: sim_fire(roll, chance, as_sim(target), [1, 2, 2], groups))
    assert DieByDie(as_sim(target)).fire("a", (1, 2, 2), groups) == plain
    assert fire(firer(weapons), target).final.map(lambda s: s.wounds).to_fractions() == plain


def test_an_earlier_group_wipes_the_target_out() -> None:
    # a single 1-wound model, no save; the first weapon (BS 5 hits 5/6, S10 wounds T3 on 2+) kills it
    target = Unit((Model(3, 1, "m"),), "one")
    unit = firer([(Weapon("big", 10), 5, 1), (Weapon("small", 3), 5, 1)])
    run = fire(unit, target)
    assert run["big x1 (BS 5)"].pmf(UnitState((0,), 1)) == F(25, 36)
    # the second weapon fires only at a survivor: S3 vs T3 wounds on 4+; a dead model stays as it is
    assert run.final.map(lambda s: s.wounds).pmf((0,)) == F(25, 36) + F(11, 36) * F(5, 6) * F(1, 2)
    assert run.final.map(lambda s: s.unsaved).support() == [0, 1]   # no wound on a dead model


def test_weapons_fire_in_file_order_or_the_order_asked() -> None:
    unit = firer([(Weapon("a", 4), 4, 1), (Weapon("b", 8), 4, 2)])
    assert [g.weapon.name for g in weapon_groups(unit)] == ["a", "b"]
    assert [g.weapon.name for g in weapon_groups(unit, order=["b"])] == ["b", "a"]
    with pytest.raises(InputError, match="not a weapon"):
        weapon_groups(unit, order=["c"])


def test_majority_toughness_is_taken_from_the_models_still_in_play() -> None:
    # two T3 models first, then three T6: the first group wounds T6 (majority); after the
    # T3 ones... the majority stays T6; one T6 model left alone: T6
    target = Unit((Model(3, 1, "weak", 2), Model(6, 1, "tough", 1)), "mixed")
    groups = [dict(shots=2, bs=5, s=5, ap=None), dict(shots=1, bs=5, s=5, ap=None)]
    unit = firer([(Weapon("a", 5), 5, 2), (Weapon("b", 5), 5, 1)])
    got = fire(unit, target).final.map(lambda s: s.wounds)
    assert got.to_fractions() == tree(lambda roll, chance: sim_fire(roll, chance, as_sim(target), [1, 1, 1], groups))


def fighter(name: str, count: int = 1, i: int = 4, a: int = 1, s: int = 4, t: int = 4, w: int = 1,
            save: int | None = None, ws: int = 4, ld: int = 8, gun: Weapon | None = None) -> Model:
    return Model(t, w, name, count, save, melee=Melee(ws, i, a, s, ld),
                 bs=4 if gun else None, weapons=(gun.name,) if gun else ())


@st.composite
def fighting_units(draw: st.DrawFn, prefix: str, guns: bool, max_count: int = 2) -> Unit:
    count = draw(st.integers(1, max_count))
    gun = Weapon("gun", draw(st.integers(3, 6)), ap=draw(st.one_of(st.none(), st.integers(3, 6)))) \
        if guns and draw(st.booleans()) else None
    m = fighter(f"{prefix}", count, i=draw(st.integers(1, 5)), s=draw(st.integers(3, 6)), t=draw(st.integers(3, 5)),
                save=draw(st.one_of(st.none(), st.integers(4, 6))), ws=draw(st.integers(2, 6)),
                ld=draw(st.integers(4, 9)), gun=gun)
    return Unit((m,), prefix, (gun,) if gun else ())


def engagement_tuple(e) -> tuple:  # noqa: ANN001
    return e.attacker.wounds, e.defender.wounds, e.attacker_status, e.defender_status


MELEE_RULES = [(), (), (), ("furious-charge",), ("rage",), ("counter-attack",), ("hatred",), ("fearless",),
               ("stubborn",)]


@st.composite
def overwatch_weapons(draw: st.DrawFn) -> tuple[Weapon, ...]:
    """1-3 ranged weapons: S3-8, 1-2 shots, maybe AP, Twin-linked, Rending or
    Rapid Fire, maybe a range (out of range at the charge distance: no
    Overwatch; Rapid Fire within half of it: two shots each)."""
    out = []
    for k in range(draw(st.integers(1, 3))):
        rules = draw(st.sampled_from([(), (), ("twin-linked",), ("rending",), ("rapid-fire",)]))
        out.append(Weapon(f"w{k}", draw(st.integers(3, 8)), draw(st.integers(1, 2)),
                          draw(st.one_of(st.none(), st.integers(2, 6))), rules=rules,
                          range=draw(st.one_of(st.none(), st.integers(4, 24)))))
    return tuple(out)


@st.composite
def assault_units(draw: st.DrawFn, prefix: str, guns: bool) -> Unit:
    """2-4 models in 1-3 lines, each line its own close-combat profile (WS,
    Initiative, 1, 2 or D3 Attacks, S, AP, Ld, maybe a close-combat rule),
    Toughness, 1-2 wounds, saves, maybe Feel No Pain or a Look Out, Sir
    character; ``guns``: 1-3 ranged weapons carried by its lines."""
    total = draw(st.integers(2, 4))
    n_lines = draw(st.integers(1, min(3, total)))
    counts = draw(splits(total, n_lines))
    weapons = draw(overwatch_weapons()) if guns else ()
    lines = []
    for j, count in enumerate(counts):
        carried = tuple(w.name for w in weapons if draw(st.booleans())) or ((weapons[j % len(weapons)].name,)
                                                                           if weapons else ())
        char = count == 1 and n_lines > 1 and draw(st.booleans())
        los = draw(st.sampled_from([True, False, f"{prefix}{(j + 1) % n_lines}"])) if char else False
        melee = Melee(draw(st.integers(2, 6)), draw(st.integers(1, 5)), draw(st.sampled_from([1, 1, 2, "D3"])),
                      draw(st.integers(3, 6)), draw(st.integers(4, 9)), draw(st.one_of(st.none(), st.integers(2, 6))))
        lines.append(Model(draw(st.integers(3, 5)), draw(st.integers(1, 2)), f"{prefix}{j}", count,
                           draw(st.one_of(st.none(), st.integers(3, 6))),
                           draw(st.one_of(st.none(), st.integers(4, 6))) if draw(st.booleans()) else None,
                           None, char, los, melee, draw(st.sampled_from([None, None, None, 5, 6])),
                           rules=draw(st.sampled_from(MELEE_RULES)),
                           bs=draw(st.integers(1, 5)) if carried else None, weapons=carried))
    return Unit(tuple(lines), prefix, weapons)


@st.composite
def assaults(draw: st.DrawFn) -> tuple[Unit, Unit, int, int]:
    """2-4 models a side, the charged unit with 1-3 ranged weapons for
    Overwatch, each side with 1-3 close-combat profiles; 1-2 rounds."""
    return (draw(assault_units("A", False)), draw(assault_units("D", True)), draw(st.integers(1, 12)),
            draw(st.integers(1, 2)))


def overwatch_groups(unit: Unit) -> list[dict]:
    """The charged unit's weapon groups for the simulator, in the unit's weapon
    order: the models of one BS carrying one weapon (the BS does not matter to
    snap shots, but each group is resolved on its own)."""
    groups = []
    for w in unit.weapons:
        by_bs: dict[int, int] = {}
        for m in unit.models:
            if w.name in m.weapons:
                by_bs[m.bs] = by_bs.get(m.bs, 0) + m.count   # type: ignore[index]
        groups += [dict(models=n, shots=w.shots, s=w.strength, ap=w.ap, rules=w.rules, range=w.range)
                   for n in by_bs.values()]
    return groups


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(assaults())
def test_the_whole_assault_matches_brute_force(case: tuple[Unit, Unit, int, int]) -> None:
    attacker, defender, distance, rounds = case
    got = assault(attacker, defender, distance, rounds).final.map(engagement_tuple)
    expected = DieByDie(as_sim(attacker), as_sim(defender)).assault(distance, rounds, overwatch_groups(defender))
    assert got.to_fractions() == expected


@st.composite
def tiny_assaults(draw: st.DrawFn) -> tuple[Unit, Unit, int, int]:
    """2-3 models in all, 1-2 rounds; two rounds with one model a side: small
    enough for tree() over sim_assault."""
    attacker = draw(fighting_units("A", False))
    defender = draw(fighting_units("D", True, max_count=3 - attacker.size))
    rounds = draw(st.integers(1, 2)) if attacker.size + defender.size == 2 else 1
    return attacker, defender, draw(st.integers(2, 12)), rounds


@pytest.mark.slow  # runs in CI (CI=true); the default run stays short on two cores
@settings(max_examples=15, deadline=None)
@given(tiny_assaults())
def test_the_memoised_simulator_matches_the_plain_tree(case: tuple[Unit, Unit, int, int]) -> None:
    attacker, defender, distance, rounds = case
    overwatch = [dict(shots=1, s=w.strength, ap=w.ap) for w in defender.weapons]
    plain = tree(lambda roll, chance: sim_assault(chance, roll, as_sim(attacker), as_sim(defender), distance,
                                                  rounds, overwatch))
    assert DieByDie(as_sim(attacker), as_sim(defender)).assault(distance, rounds, overwatch_groups(defender)) == plain


def test_the_memoised_simulator_matches_the_plain_tree_on_small_assaults() -> None:
    # tiny cases where tree() over sim_assault is quick: the memoised simulator, the plain
    # tree and the engine agree (Rending Overwatch, Hatred, 2 wounds, Look Out, Sir, Feel No Pain)
    gun = Weapon("gun", 5, ap=4, rules=("rending",))
    a = Unit((fighter("a", 1, i=3, a=1, s=4, t=4, save=4, ws=4, ld=7),), "A")
    hater = Unit((Model(4, 2, "a", 1, 4, melee=Melee(4, 3, 1, 4, 7), rules=("hatred",)),), "A")
    d = Unit((fighter("d", 1, i=4, s=3, t=3, save=5, ws=3, ld=6, gun=gun),), "D", (gun,))
    pair = Unit((Model(3, 1, "c", 1, 5, character=True, look_out_sir=True, melee=Melee(3, 4, 1, 3, 6)),
                 Model(3, 1, "e", 1, 5, melee=Melee(3, 2, 1, 3, 8), feel_no_pain=5)), "D")
    overwatch = [dict(shots=1, s=5, ap=4, rules=("rending",))]
    for attacker, defender, rounds in ((a, d, 2), (hater, d, 1), (a, pair, 1)):
        ow = overwatch if defender.weapons else []
        plain = tree(lambda roll, chance: sim_assault(chance, roll, as_sim(attacker), as_sim(defender), 6, rounds,
                                                      ow))
        memo = DieByDie(as_sim(attacker), as_sim(defender)).assault(6, rounds, overwatch_groups(defender))
        assert memo == plain
        assert assault(attacker, defender, 6, rounds).final.map(engagement_tuple).to_fractions() == plain


def test_sweeping_advance_uses_the_lowest_initiative_in_play() -> None:
    unit = Unit((fighter("fast", i=5), fighter("slow", i=2)), "mixed")
    assert sweep_initiative(unit, UnitState((1, 1))) == 2
    assert sweep_initiative(unit, UnitState((1, 0))) == 5
    for wi, li in [(4, 4), (2, 5), (6, 1)]:
        assert p_caught(wi, li) == F(caught_pairs(wi, li), 36)
    assert p_caught(4, 4) == F(21, 36)   # ties go to the winner


def test_a_destroyed_loser_does_not_test_and_combat_ends() -> None:
    # one 1-wound model each; the attacker strikes first and always kills: no morale, no sweep
    a = Unit((fighter("a", i=5, a=9, s=10, ws=10),), "A")
    d = Unit((fighter("d", i=1, ws=1, ld=2),), "D")
    run = assault(a, d, 0, rounds=2, overwatch=False)
    ends = run.final.map(engagement_tuple)
    for e in ends.support():   # destroyed: the combat is over, nobody tested; else still locked
        assert (e[2], e[3]) == (("", "") if 0 in (sum(e[0]), sum(e[1])) else ("locked", "locked"))
    assert run.final.prob(lambda e: not e.defender.alive()) < 1   # 9+1 attacks can all miss


def test_bad_assault_input() -> None:
    a = Unit((fighter("a"),), "A")
    for bad in (-1, 13):
        with pytest.raises(InputError):
            assault(a, a, bad)
    with pytest.raises(InputError, match="rounds"):
        assault(a, a, 6, rounds=0)


def test_steps_in_sequence_carry_the_state() -> None:
    # two units shoot the same target: the second shoots what the first left
    target = Unit((Model(3, 1, "m", 3),), "T")
    one, two = firer([(Weapon("a", 4), 4, 2)]), firer([(Weapon("b", 6, ap=3), 3, 2)])
    sc = Scenario({"one": one, "two": two, "t": target},
                  [Shoot("one", "t", morale=False), Shoot("two", "t", morale=False)])
    got = sc.run().final.map(lambda w: w.units[2].wounds)
    groups = [dict(shots=2, bs=4, s=4, ap=None), dict(shots=2, bs=3, s=6, ap=3)]
    assert got.to_fractions() == tree(lambda roll, chance: sim_fire(roll, chance, as_sim(target), [1, 1, 1], groups))


def test_turns_repeat_the_steps_and_report_each_turn() -> None:
    target = Unit((Model(3, 1, "m", 2),), "T")
    one = firer([(Weapon("a", 6), 5, 1)])   # hits 5/6, wounds T3 on 2+: 5/6; kills 25/36 per turn
    sc = Scenario({"one": one, "t": target}, [Shoot("one", "t", morale=False)], turns=3)
    run = sc.run()
    p = F(25, 36)
    by_turn = [p_destroyed(run[e], 1) for e in sc.turn_ends()]
    # destroyed by turn t: at least two kills among t independent shots
    expected = [1 - (1 - p) ** t - t * p * (1 - p) ** (t - 1) for t in (1, 2, 3)]
    assert by_turn == expected


def test_a_shooter_then_an_assault_then_morale() -> None:
    gun = Weapon("gun", 4)
    a = Unit((fighter("a", 2, gun=gun),), "A", (gun,))
    d = Unit((fighter("d", 2),), "D")
    sc = Scenario({"a": a, "d": d}, [Shoot("a", "d", morale=False), Assault("a", "d", 6, 1, overwatch=False),
                                      MoraleCheck("d", -1), Fight("a", "d", rounds=1)])
    run = sc.run()
    assert sum(run.final.to_fractions().values()) == 1
    assert "assault 2: charge" in run.stage_names()


def test_scenario_errors() -> None:
    a = Unit((fighter("a"),), "A")
    with pytest.raises(InputError, match="not a unit of the scenario"):
        Scenario({"a": a}, [Shoot("a", "zz")])
    with pytest.raises(InputError, match="cannot shoot"):
        Scenario({"a": a, "b": a}, [Shoot("a", "b")]).pipeline()
    with pytest.raises(InputError, match="turns"):
        Scenario({"a": a}, [MoraleCheck("a")], turns=0)


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(["D3", "D3+1", "2D3"]), st.integers(2, 4), st.integers(2, 4), st.booleans(), st.integers(1, 2))
def test_random_attacks_match_brute_force(expr: str, count: int, foes: int, charged: bool, rounds: int) -> None:
    """Random melee Attacks (D3 each model, rolled each round), 2-4 models a side, 1-2 rounds."""
    a = Unit((Model(4, 1, "a", count, 5, melee=Melee(4, 4, expr, 4, 7)),), "A")   # type: ignore[arg-type]
    d = Unit((Model(4, 1, "d", foes, 4, melee=Melee(3, 3, 1, 4, 6)),), "D")
    sc = Scenario({"a": a, "d": d}, [Fight("a", "d", charged=charged, rounds=rounds)])
    got = sc.run().final.map(lambda w: (w.units[0].wounds, w.units[1].wounds, w.statuses[0], w.statuses[1]))
    sim = DieByDie(as_sim(a), as_sim(d))
    start = {((1,) * count, (1,) * foes, "locked", "locked"): F(1)}
    assert got.to_fractions() == sim.fight_rounds(start, rounds, charged)


def test_the_memoised_simulator_matches_the_plain_tree_on_random_attacks() -> None:
    a = Unit((Model(4, 1, "a", 1, 5, melee=Melee(4, 4, "D3", 4, 7)),), "A")
    d = Unit((Model(4, 1, "d", 1, 4, melee=Melee(3, 3, 1, 4, 6)),), "D")
    sa, sd = as_sim(a), as_sim(d)

    def play(roll, chance):  # noqa: ANN001, ANN202 - one round after a charge, die by die
        left = {"a": [1], "d": [1]}
        unsaved = sim_blows(chance, sa, sd, True, left)
        falls = sim_loser_test(chance, sa, sd, left, unsaved)
        if not (any(left["a"]) and any(left["d"])):
            return tuple(left["a"]), tuple(left["d"]), "", ""
        if falls == "none":
            return tuple(left["a"]), tuple(left["d"]), "locked", "locked"
        loser, winner = ("a", "d") if falls == "attacker" else ("d", "a")
        if chance(caught_pairs({"a": 4, "d": 3}[winner], {"a": 4, "d": 3}[loser]), 36):
            left[loser] = [0] * len(left[loser])
            st_l = "swept"
        else:
            st_l = "falling back"
        return tuple(left["a"]), tuple(left["d"]), *((st_l, "") if loser == "a" else ("", st_l))
    start = {((1,), (1,), "locked", "locked"): F(1)}
    assert DieByDie(sa, sd).fight_rounds(start, 1, True) == tree(play)
