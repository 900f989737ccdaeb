"""40K 6th edition fight sub-phase: Initiative steps, simultaneous strikes,
+1 Attack on the charge, combat result and the loser's morale test, against
an independent die-by-die simulator (tests/test_wh40k6_brute.py): its plain
game tree for 1-2 models a side, its memoised engine for 2-4 models a side."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds import Dist, InputError
from exactodds.rules.wh40k6 import FightEnd, Melee, Model, Survivors, Unit, fight
from tests.test_wh40k6_brute import DieByDie, sim_fight, tree
from tests.test_wh40k6_exchange import as_sim as sim_models
from tests.test_wh40k6_exchange import assault_units


def fighter(name: str = "m", count: int = 1, ws: int = 4, i: int = 4, a: int = 1, s: int = 4, ap: int | None = None,
            ld: int = 8, t: int = 4, w: int = 1, save: int | None = None, inv: int | None = None,
            char: bool = False, los: bool | str = False) -> Model:
    return Model(t, w, name, count, save, inv, None, char, los, Melee(ws, i, a, s, ld, ap))


def as_sim(unit: Unit) -> list[dict]:
    return [dict(t=m.toughness, w=m.wounds, save=m.save, cover=m.cover, inv=m.invulnerable, char=m.character,
                 los=m.look_out_sir, line=m.name, ws=m.melee.ws, i=m.melee.initiative, a=m.melee.attacks,
                 s=m.melee.strength, ap=m.melee.ap, ld=m.melee.leadership)
            for m in unit.models for _ in range(m.count)]


@st.composite
def small_units(draw: st.DrawFn, prefix: str, max_lines: int = 2) -> Unit:
    n = draw(st.integers(1, max_lines))
    lines = []
    for j in range(n):
        char = draw(st.booleans())
        lines.append(fighter(f"{prefix}{j}", ws=draw(st.integers(2, 9)), i=draw(st.integers(1, 3)),
                             s=draw(st.integers(2, 8)), ap=draw(st.one_of(st.none(), st.integers(2, 5))),
                             ld=draw(st.integers(5, 10)), t=draw(st.integers(3, 5)), w=draw(st.integers(1, 2)),
                             save=draw(st.one_of(st.none(), st.integers(3, 6))),
                             inv=draw(st.one_of(st.none(), st.just(5))), char=char,
                             los=char and draw(st.booleans())))
    return Unit(tuple(lines), prefix)


@settings(max_examples=10, deadline=None)
@given(small_units("A"), small_units("D", max_lines=1), st.booleans())
def test_fight_matches_brute_force(attacker: Unit, defender: Unit, charged: bool) -> None:
    got = fight(attacker, defender, charged).final
    expected = tree(lambda roll, chance: sim_fight(chance, as_sim(attacker), as_sim(defender), charged))
    assert got.to_fractions() == {FightEnd(*k): v for k, v in expected.items()}


@settings(max_examples=30, deadline=None)
@given(assault_units("A", False), assault_units("D", False), st.booleans())
def test_fight_matches_the_memoised_brute_force(attacker: Unit, defender: Unit, charged: bool) -> None:
    """2-4 models a side in 1-3 lines, close-combat rules, random Attacks, Feel No Pain."""
    got = fight(attacker, defender, charged).final
    expected = DieByDie(sim_models(attacker), sim_models(defender)).fight(charged)
    assert got.to_fractions() == {FightEnd(*k): v for k, v in expected.items()}


P_KILL = F(1, 2) * F(1, 2)   # WS 4 vs 4 hits on 4+, S4 vs T4 wounds on 4+, no save


def test_same_initiative_strikes_simultaneously() -> None:
    a, d = Unit((fighter("a", ld=10),)), Unit((fighter("d", ld=10),))
    surv = fight(a, d).survivors()
    # both can die: neither loses its attack to the other's blow at the same step
    assert surv.pmf(Survivors(0, 0)) == P_KILL * P_KILL
    assert surv.pmf(Survivors(1, 1)) == (1 - P_KILL) ** 2


def test_higher_initiative_strikes_first() -> None:
    a, d = Unit((fighter("a", i=5),)), Unit((fighter("d", i=1),))
    surv = fight(a, d).survivors()
    assert surv.pmf(Survivors(0, 0)) == 0
    assert surv.pmf(Survivors(0, 1)) == (1 - P_KILL) * P_KILL
    assert surv.pmf(Survivors(1, 0)) == P_KILL


def test_charging_adds_one_attack() -> None:
    a = Unit((fighter("a", a=1, i=1),))
    d = Unit((fighter("d", w=5, i=1, a=0),))   # absorbs everything, strikes back with nothing
    for charged, attacks in ((False, 1), (True, 2)):
        res = fight(a, d, charged)
        wounds = res.run.stages["combat result"].map(lambda r: r.attacker_inflicted)
        assert wounds == Dist.binomial(attacks, P_KILL)


def test_loser_tests_on_highest_leadership_minus_the_difference() -> None:
    # the attacker cannot be hurt (defender has no attacks) and the defender has 3 wounds
    a = Unit((fighter("a", a=1, ws=9, s=10),))          # hits on 3+, wounds on 2+
    d = Unit((fighter("d", a=0, w=3, t=4, ld=7), fighter("boss", a=0, w=3, ld=9)))
    res = fight(a, d)
    p_wound = F(2, 3) * F(5, 6)
    # one unsaved wound... which is Instant Death (S10 >= 2 x T4): the first model goes,
    # the difference is 1 and the survivor "boss" tests on Ld 9 - 1 = 8
    p_pass_8 = F(26, 36)
    assert res.p_falls_back("defender") == p_wound * (1 - p_pass_8)
    assert res.p_falls_back("attacker") == 0
    assert res.survivors() == Dist({Survivors(1, 1): p_wound, Survivors(1, 2): 1 - p_wound})


def test_draw_and_destroyed_units_take_no_test() -> None:
    a, d = Unit((fighter("a", i=5, a=0),)), Unit((fighter("d", a=0),))
    res = fight(a, d)
    assert res.final == Dist.constant(FightEnd(1, 1, "none"))
    # the defender is wiped out: nobody tests
    a = Unit((fighter("a", i=5, a=1, s=10, ws=9),))
    d = Unit((fighter("d", a=1, ld=2),))
    res = fight(a, d)
    assert res.final.prob(lambda e: e.defender_survivors == 0 and e.falls_back != "none") == 0


def test_stages() -> None:
    a, d = Unit((fighter("a", i=5),)), Unit((fighter("d", i=2),))
    names = fight(a, d).run.stage_names()
    assert names == ["start", "initiative 5", "initiative 2", "combat result", "morale"]


def test_fight_needs_close_combat_profiles() -> None:
    shooter = Unit((Model(4, 1, "gunner"),))
    with pytest.raises(InputError, match="close-combat profile"):
        fight(shooter, Unit((fighter(),)))


# ------------------------------------------------------------ assault rules
ASSAULT_RULES = ["furious-charge", "rage", "counter-attack", "hatred", "fearless", "stubborn"]


def with_rules(unit: Unit, rules: list[set[str]]) -> Unit:
    from dataclasses import replace
    return Unit(tuple(replace(m, rules=tuple(r)) for m, r in zip(unit.models, rules)), unit.name)


def as_sim_rules(unit: Unit) -> list[dict]:
    return [dict(d, rules=set(m.rules), fnp=m.feel_no_pain) for m in unit.models
            for d in as_sim(Unit((m,), unit.name))]


@settings(max_examples=15, deadline=None)
@given(small_units("A", max_lines=1), small_units("D", max_lines=1), st.booleans(),
       st.sets(st.sampled_from(ASSAULT_RULES), max_size=3), st.sets(st.sampled_from(ASSAULT_RULES), max_size=3))
def test_assault_rules_match_brute_force(attacker: Unit, defender: Unit, charged: bool, ra: set, rd: set) -> None:
    attacker, defender = with_rules(attacker, [ra]), with_rules(defender, [rd])
    got = fight(attacker, defender, charged).final
    expected = tree(lambda roll, chance: sim_fight(chance, as_sim_rules(attacker), as_sim_rules(defender), charged))
    assert got.to_fractions() == {FightEnd(*k): v for k, v in expected.items()}


def test_furious_charge_and_rage_by_hand() -> None:
    # one WS4 S3 model charging a T4 model: hits 1/2; S3 vs T4 wounds on 5+ (1/3), Furious Charge S4: 4+ (1/2)
    a = Unit((fighter("a", s=3, a=1),))
    d = Unit((fighter("d", i=1, a=0),))
    plain = fight(a, d, True).survivors().map(lambda s: s.defender_survivors).pmf(0)
    furious = fight(with_rules(a, [{"furious-charge"}]), d, True).survivors().map(
        lambda s: s.defender_survivors).pmf(0)
    assert plain == 1 - (1 - F(1, 2) * F(1, 3)) ** 2          # 2 attacks charging
    assert furious == 1 - (1 - F(1, 2) * F(1, 2)) ** 2
    rage = fight(with_rules(a, [{"rage"}]), d, True).survivors().map(lambda s: s.defender_survivors).pmf(0)
    assert rage == 1 - (1 - F(1, 2) * F(1, 3)) ** 3            # 3 attacks
