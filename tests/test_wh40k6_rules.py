"""40K 6th edition special rules on shooting (twin-linked, Preferred Enemy,
Shred, Poisoned, Rending, Sniper, Ignores Cover, Feel No Pain, Eternal
Warrior, random shots, Rapid Fire, Heavy, Salvo, Relentless, wounds_left,
Focus Fire none): exact equality against the independent dice-by-dice
simulator of tests/test_wh40k6_brute.py, and identities computed by hand.
The random-shots property test is marked ``slow`` (it runs when ``CI`` is true)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds import InputError
from exactodds.rules.wh40k6 import Model, Shooting, Unit, hits, shoot, stage_counts
from exactodds.rules.wh40k6.shooting import UNSAVED, hit_chance
from tests.test_wh40k6_brute import sim_shoot_rules, tree

SAVES = st.one_of(st.none(), st.integers(2, 6))
HIT_RULES = ["twin-linked", "preferred-enemy"]
WOUND_RULES = ["shred", "poisoned", "rending", "sniper", "ignores-cover"]


@st.composite
def units(draw: st.DrawFn, max_lines: int = 2) -> tuple[Unit, list[dict]]:
    """A small random unit with Feel No Pain, Eternal Warrior and wounded models,
    and the same unit as the simulator's model dicts."""
    n = draw(st.integers(1, max_lines))
    lines = []
    for j in range(n):
        wounds = draw(st.integers(1, 2))
        lines.append(dict(name=f"L{j}", count=draw(st.integers(1, 2)), toughness=draw(st.integers(3, 5)),
                          wounds=wounds, save=draw(SAVES), cover=draw(st.one_of(st.none(), st.integers(3, 6))),
                          invulnerable=draw(st.one_of(st.none(), st.integers(4, 6))),
                          feel_no_pain=draw(st.one_of(st.none(), st.integers(2, 6))),
                          eternal_warrior=draw(st.booleans()),
                          wounds_left=draw(st.one_of(st.none(), st.integers(1, wounds)))))
    unit = Unit(tuple(Model(**kw) for kw in lines), "random")
    sim = [dict(t=kw["toughness"], w=kw["wounds"], save=kw["save"], cover=kw["cover"], inv=kw["invulnerable"],
                fnp=kw["feel_no_pain"], ew=kw["eternal_warrior"], line=kw["name"],
                left=kw["wounds"] if kw["wounds_left"] is None else kw["wounds_left"])
           for kw in lines for _ in range(kw["count"])]
    return unit, sim


def engine(attack: Shooting, unit: Unit, focus: int | str | None) -> tuple[dict, dict, dict]:
    run = shoot(attack, unit, focus)
    counts = stage_counts(run)
    joint = run[UNSAVED].map(lambda s: (s.unsaved, s.casualties(), s.wounds))  # no model starts removed
    return (dict(counts["hits"].to_fractions()), dict(counts["wounds"].to_fractions()),
            dict(joint.to_fractions()))


def brute(attack: dict, sim: list[dict], focus: int | str | None) -> tuple[dict, dict, dict]:
    out = tree(lambda roll, chance: sim_shoot_rules(roll, chance, sim, focus=focus, **attack))
    h: Counter = Counter()
    w: Counter = Counter()
    j: Counter = Counter()
    for (n_hits, n_wounds, unsaved, cas, left), p in out.items():
        h[n_hits] += p
        w[n_wounds] += p
        j[(unsaved, cas, left)] += p
    return dict(h), dict(w), dict(j)


@settings(max_examples=60, deadline=None)
@given(units(), st.integers(0, 3), st.integers(1, 10), st.booleans(), st.integers(3, 8),
       st.one_of(st.none(), st.integers(1, 6)), st.sets(st.sampled_from(HIT_RULES + WOUND_RULES), max_size=3),
       st.one_of(st.none(), st.integers(2, 6)), st.sampled_from([None, 2, 4, "none"]))
def test_shooting_with_rules_matches_the_dice_by_dice_simulator(unit_sim, shots, bs, snap, strength, ap, rules,
                                                                 poisoned, focus) -> None:
    unit, sim = unit_sim
    if "poisoned" not in rules:
        poisoned = None
    attack = Shooting(shots=shots, strength=strength, bs=bs, ap=ap, snap=snap, rules=tuple(rules), poisoned=poisoned)
    assert engine(attack, unit, focus) == brute(
        dict(shots=shots, bs=bs, snap=snap, strength=strength, ap=ap, rules=set(rules), poisoned=poisoned), sim, focus)


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(units(max_lines=1), st.sampled_from(["D3", "D3+1"]), st.integers(2, 5),
       st.sets(st.sampled_from(["twin-linked", "rending", "shred"]), max_size=2))
def test_random_shots_match_the_simulator(unit_sim, expr, bs, rules) -> None:
    unit, sim = unit_sim
    spelled = {"D3": (1, 3, 0), "D3+1": (1, 3, 1)}[expr]
    attack = Shooting(shots=1, strength=4, bs=bs, ap=None, rules=tuple(rules), random_shots=expr)
    got_hits = dict(stage_counts(shoot(attack, unit))["hits"].to_fractions())
    want = brute(dict(shots=1, bs=bs, snap=False, strength=4, ap=None, rules=set(rules), random_shots=spelled),
                 sim, None)
    assert got_hits == want[0]
    assert engine(attack, unit, None) == want


# ---------------------------------------------------------------- identities by hand
def test_twin_linked_identities() -> None:
    # BS 3 hits on 4+: 1/2 + 1/2 * 1/2 = 3/4; BS 4 on 3+: 2/3 + 1/3 * 2/3 = 8/9
    assert hits(Shooting(shots=1, strength=4, bs=3, rules=("twin-linked",))).pmf(1) == F(3, 4)
    assert hits(Shooting(shots=1, strength=4, bs=4, rules=("twin-linked",))).pmf(1) == F(8, 9)
    assert hit_chance(3, reroll_failed=True) == F(3, 4)


def test_preferred_enemy_hits_and_wounds() -> None:
    # BS 4: 2/3 + 1/6 * 2/3 = 7/9; S4 vs T4 wounds on 4+: 1/2 + 1/6 * 1/2 = 7/12
    assert hits(Shooting(shots=1, strength=4, bs=4, rules=("preferred-enemy",))).pmf(1) == F(7, 9)
    unit = Unit((Model(toughness=4, wounds=1, count=3),))
    run = shoot(Shooting(shots=1, strength=4, bs=5, rules=("preferred-enemy",)), unit)
    # BS 5 (2+): 5/6 + 1/6 * 5/6 = 35/36 hits; 7/12 wounds, no save
    assert run.final.pmf(1) == F(35, 36) * F(7, 12)


def test_feel_no_pain_lets_two_thirds_through() -> None:
    unit = Unit((Model(toughness=4, wounds=1, count=1, feel_no_pain=5),))
    run = shoot(Shooting(shots=1, strength=4, weapon_type="no-bs"), unit)
    # one automatic hit, wounds on 4+ (1/2), then Feel No Pain 5+ saves 1/3: 1/2 * 2/3
    assert run.final.pmf(1) == F(1, 3)
    # against Instant Death (S8 vs T4) no Feel No Pain: wounds on 2+
    run = shoot(Shooting(shots=1, strength=8, weapon_type="no-bs"), unit)
    assert run.final.pmf(1) == F(5, 6)


def test_eternal_warrior_is_immune_to_instant_death() -> None:
    w3 = Unit((Model(toughness=4, wounds=3, count=1),))
    ew = Unit((Model(toughness=4, wounds=3, count=1, eternal_warrior=True),))
    attack = Shooting(shots=1, strength=8, weapon_type="no-bs")
    assert shoot(attack, w3).final.pmf(1) == F(5, 6)
    assert shoot(attack, ew).final.pmf(1) == 0


def test_rending_and_sniper() -> None:
    # S3 vs T8 cannot wound; a rending 6 still wounds: 1/6 per hit
    unit = Unit((Model(toughness=8, wounds=1, count=1, save=2),))
    run = shoot(Shooting(shots=1, strength=3, weapon_type="no-bs", rules=("rending",)), unit)
    assert run.final.pmf(1) == F(1, 6)   # at AP2 the 2+ armour is ignored
    # sniper: 4+ whatever T (1/2), the 6 at AP2 ignores 2+ armour, 4-5 saved on 2+ (5/6)
    run = shoot(Shooting(shots=1, strength=1, weapon_type="no-bs", rules=("sniper",)), unit)
    assert run.final.pmf(1) == F(1, 6) + F(2, 6) * F(1, 6)


def test_poisoned_shred_and_ignores_cover() -> None:
    unit = Unit((Model(toughness=5, wounds=1, count=1, cover=4),))
    # S3 vs T5 needs 6+; Poisoned 4+ needs 4+: 1/2; the 4+ cover save halves it
    run = shoot(Shooting(shots=1, strength=3, weapon_type="no-bs", rules=("poisoned",)), unit)
    assert run.final.pmf(1) == F(1, 4)
    run = shoot(Shooting(shots=1, strength=3, weapon_type="no-bs", poisoned=2, rules=("ignores-cover",)), unit)
    assert run.final.pmf(1) == F(5, 6)
    # shred: 6+ rerolled: 1/6 + 5/6 * 1/6 = 11/36, cover halves it
    run = shoot(Shooting(shots=1, strength=3, weapon_type="no-bs", rules=("shred",)), unit)
    assert run.final.pmf(1) == F(11, 72)


def test_rapid_fire_heavy_salvo_relentless() -> None:
    def n_shots(**kw) -> dict:  # noqa: ANN003
        return dict(Shooting(strength=4, bs=4, **kw).shot_counts().to_fractions())
    assert n_shots(shots=3, rules=("rapid-fire",), range="half") == {6: 1}
    assert n_shots(shots=3, rules=("rapid-fire",), range="full") == {3: 1}
    assert n_shots(shots=4, rules=("salvo",), moved=True) == {2: 1}
    assert n_shots(shots=4, rules=("salvo", "relentless"), moved=True) == {4: 1}
    # Salvo 2/4 as the rulebook writes it: shots counts the firing models
    assert n_shots(shots=3, salvo=(2, 4), moved=True) == {6: 1}
    assert n_shots(shots=3, salvo=(2, 4)) == {12: 1}
    assert n_shots(shots=3, salvo="2/4", rules=("relentless",), moved=True) == {12: 1}
    # heavy after moving: snap shots (6 to hit)
    assert hits(Shooting(shots=1, strength=4, bs=4, rules=("heavy",), moved=True)).pmf(1) == F(1, 6)
    assert hits(Shooting(shots=1, strength=4, bs=4, rules=("heavy", "relentless"), moved=True)).pmf(1) == F(2, 3)


def test_random_shots_by_hand() -> None:
    # D3 shots, BS 5 (2+): mean 2 * 5/6
    assert hits(Shooting(shots=1, strength=4, bs=5, random_shots="D3")).mean() == F(5, 3)
    assert dict(Shooting(shots=2, strength=4, bs=5, random_shots="D3").shot_counts().to_fractions()) == {
        2: F(1, 9), 3: F(2, 9), 4: F(3, 9), 5: F(2, 9), 6: F(1, 9)}


def test_wounds_left_and_focus_fire_none() -> None:
    unit = Unit((Model(toughness=4, wounds=2, count=1, wounds_left=1, cover=4), Model(toughness=4, wounds=1)))
    # an automatic wound... S8 wounds on 2+; the wounded model with cover is closest; 4+ cover
    run = shoot(Shooting(shots=1, strength=5, weapon_type="no-bs"), unit)
    assert run.final.pmf(1) == F(2, 3) * F(1, 2)
    # Focus Fire none: only the model without cover can take it (wounds on 3+ = 2/3)
    assert shoot(Shooting(shots=1, strength=5, weapon_type="no-bs"), unit, "none").final.pmf(1) == F(2, 3)


@pytest.mark.parametrize("kw, words", [
    (dict(rules=("laser",)), "rules: 'laser' is not one of"),
    (dict(rules=("rapid-fire",)), "rapid-fire needs range"),
    (dict(rules=("heavy", "salvo")), "one type"),
    (dict(rules=("salvo",), salvo=(2, 4)), "one type"),
    (dict(salvo="4/2"), "lower \\(after moving\\) first"),
    (dict(salvo="2/4", random_shots="D6"), "cannot go with salvo"),
    (dict(random_shots="D7+"), "D3, D6, 2D6 or D6\\+1"),
    (dict(random_shots="0D6"), "D3, D6, 2D6 or D6\\+1"),
    (dict(rules=("twin-linked",), master_crafted=1), "at most once"),
])
def test_bad_weapon_rules_are_refused(kw: dict, words: str) -> None:
    with pytest.raises(InputError, match=words):
        Shooting(shots=1, strength=4, bs=4, **kw)


@pytest.mark.parametrize("fnp", [0, 1, 7])
def test_feel_no_pain_out_of_range_is_refused(fnp: int) -> None:
    with pytest.raises(InputError, match="2\\+ to 6\\+"):
        Model(toughness=4, wounds=1, feel_no_pain=fnp)


# ---------------------------------------------------------------- vehicles
from dataclasses import replace  # noqa: E402

from exactodds.rules.wh40k6.vehicles import Vehicle, penetration_result, shoot_vehicle  # noqa: E402
from tests.test_wh40k6_brute import sim_vehicle  # noqa: E402


def test_penetration_identity_d6_plus_8_against_av_12() -> None:
    # d6 + 8 against 12: 5 or 6 penetrate (1/3), 4 glances (1/6)
    run = shoot_vehicle(Shooting(shots=1, strength=8, weapon_type="no-bs"), Vehicle(12, 12, 12, 3), "front")
    hp = dict(run.final.map(lambda s: s.hull_points).to_fractions())
    assert hp == {3: F(1, 2), 2: F(1, 3) + F(1, 6)}
    glanced = run.final.map(lambda s: (s.hull_points, s.statuses)).pmf((2, ()))
    assert glanced == F(1, 6) + F(1, 3) * 0  # a penetrating hit always gains a status below 7


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2), st.integers(2, 5), st.integers(4, 10), st.one_of(st.none(), st.integers(1, 3)),
       st.integers(10, 14), st.integers(1, 3), st.sets(st.sampled_from(["rending", "twin-linked", "ignores-cover"])),
       st.one_of(st.none(), st.integers(3, 6)), st.booleans())
def test_vehicles_match_the_simulator(shots, bs, strength, ap, armour, hull, rules, cover, open_topped) -> None:
    vehicle = Vehicle(armour, 10, 10, hull, cover=cover, open_topped=open_topped)
    run = shoot_vehicle(Shooting(shots=shots, strength=strength, bs=bs, ap=ap, rules=tuple(rules)), vehicle, "front")
    got = dict(run.final.map(lambda s: (s.hull_points, s.fate or s.statuses)).to_fractions())
    want = tree(lambda roll, chance: sim_vehicle(roll, chance, shots, bs, strength, ap, armour, hull, set(rules),
                                                 cover, open_topped))
    assert got == want


def test_melta_at_half_range_penetrates_armour_12_at_strength_8_five_times_in_six() -> None:
    # 2D6 + 8 > 12 unless 2D6 <= 4 (6 of 36 pairs); 2D6 = 4 glances (3 pairs)
    melta = Shooting(shots=1, strength=8, weapon_type="no-bs", rules=("melta",), range="half")
    got = dict(penetration_result(melta, 12).to_fractions())
    assert got == {"penetrating": F(5, 6), "glancing": F(1, 12), "none": F(1, 12)}
    assert penetration_result(replace(melta, range="full"), 12).pmf("penetrating") == F(1, 3)
    assert penetration_result(replace(melta, range=None, rules=("armourbane",)), 12).pmf("penetrating") == F(5, 6)
    # Lance: armour 14 counts as 12, so S 8 penetrates on 5 or 6 and glances on 4
    lance = replace(melta, range=None, rules=("lance",))
    assert dict(penetration_result(lance, 14).to_fractions()) == \
        dict(penetration_result(replace(lance, rules=()), 12).to_fractions())
    assert penetration_result(lance, 11).pmf("penetrating") == F(1, 2)  # 11 stays 11


def test_rending_with_two_penetration_dice_is_refused() -> None:
    with pytest.raises(InputError, match="not modelled"):
        penetration_result(Shooting(shots=1, strength=8, weapon_type="no-bs", rules=("armourbane", "rending")), 12)


@pytest.mark.slow  # a property test of several seconds: runs in CI
@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2), st.integers(2, 5), st.integers(3, 9), st.one_of(st.none(), st.integers(1, 3)),
       st.integers(10, 14), st.integers(1, 3),
       st.sets(st.sampled_from(["melta", "armourbane", "lance", "twin-linked", "ignores-cover"])),
       st.one_of(st.none(), st.integers(4, 6)), st.booleans())
def test_melta_lance_armourbane_match_the_simulator(shots, bs, strength, ap, armour, hull, rules, cover,
                                                   half) -> None:
    vehicle = Vehicle(armour, 10, 10, hull, cover=cover)
    attack = Shooting(shots=shots, strength=strength, bs=bs, ap=ap, rules=tuple(sorted(rules)),
                      range="half" if half else "full")
    run = shoot_vehicle(attack, vehicle, "front")
    got = dict(run.final.map(lambda s: (s.hull_points, s.fate or s.statuses)).to_fractions())
    want = tree(lambda roll, chance: sim_vehicle(roll, chance, shots, bs, strength, ap, armour, hull, set(rules),
                                                 cover, False, half))
    assert got == want


@pytest.mark.parametrize("kw, words", [
    (dict(front=9), "from 10 to 14"), (dict(rear=15), "from 10 to 14"), (dict(hull_points=0), "hull_points"),
])
def test_bad_vehicles_are_refused(kw: dict, words: str) -> None:
    values = dict(front=11, side=11, rear=10, hull_points=3) | kw
    with pytest.raises(InputError, match=words):
        Vehicle(**values)


# ---------------------------------------------------------------- Fleet
from exactodds.rules.wh40k6.assault import fleet_decisions, p_charge  # noqa: E402
from tests.test_wh40k6_brute import sim_fleet_p_reach  # noqa: E402


def test_fleet_rerolls_the_best_dice_at_9_inches() -> None:
    assert p_charge(9, fleet=True) == F(41, 72)
    # rerolling the whole 2D6 when short would give 5/18 + 13/18 x 5/18
    assert F(5, 18) + F(13, 18) * F(5, 18) == F(155, 324) < F(41, 72)
    rows = {r.first_roll: r for r in fleet_decisions(9)}
    assert rows[(3, 4)].reroll == (3,) and rows[(3, 4)].p_reach == F(1, 3)  # keep the 4: a 5 or 6
    assert rows[(1, 2)].reroll == (1, 2) and rows[(1, 2)].p_reach == F(10, 36)
    assert rows[(4, 5)].reroll == () and rows[(4, 5)].p_reach == 1


def test_fleet_at_8_inches_by_hand() -> None:
    # short rolls by their higher die b: b <= 3 reroll both (15/36), else keep b: (b - 1)/6;
    # ordered pairs short of 8: 9 with b <= 3, 6 with b = 4, 4 with b = 5, 2 with b = 6
    by_hand = F(15, 36) + (9 * F(15, 36) + 6 * F(3, 6) + 4 * F(4, 6) + 2 * F(5, 6)) / 36
    assert p_charge(8, fleet=True) == by_hand == F(313, 432)


@pytest.mark.parametrize("method, keep", [("2d6", "all"), ("3d6kh2", "highest"), ("3d6kl2", "lowest")])
def test_fleet_matches_the_brute_force_choice(method: str, keep: str) -> None:
    dice = 2 if method == "2d6" else 3
    for distance in range(0, 14):
        assert p_charge(distance, (method,), fleet=True) == sim_fleet_p_reach(distance, dice, keep)


# ---------------------------------------------------------------- Pinning
from exactodds.rules.wh40k6 import Melee  # noqa: E402
from exactodds.rules.wh40k6.attack import shooting_attack  # noqa: E402
from exactodds.rules.wh40k6.inputs import OverwatchAttack, ShootingAttack  # noqa: E402
from tests.test_wh40k6_brute import two_d6_pass_pairs  # noqa: E402


def sim_pinned(roll, chance, sim: list[dict], lds: list[int], fearless: bool, **attack) -> bool:  # noqa: ANN001, ANN003
    """The shooting attack die by die, then the pinning test: at least one unsaved
    wound and a model in play, not Fearless; 2D6 at the highest Leadership in play."""
    _, _, unsaved, _, left = sim_shoot_rules(roll, chance, sim, focus=None, **attack)
    alive = [ld for ld, w in zip(lds, left) if w > 0]
    if not unsaved or not alive or fearless:
        return False
    return not chance(two_d6_pass_pairs(max(alive)), 36)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 2), st.integers(1, 2), st.sampled_from([None, 4, 6]), st.integers(5, 10)),
                min_size=1, max_size=2),
       st.integers(0, 3), st.integers(2, 5), st.integers(3, 6), st.one_of(st.none(), st.integers(3, 5)),
       st.booleans())
def test_pinning_matches_the_dice_by_dice_simulator(lines, shots, bs, strength, ap, fearless) -> None:
    models, sim, lds = [], [], []
    for j, (count, wounds, save, ld) in enumerate(lines):
        rules = ("fearless",) if fearless else ()
        models.append(Model(toughness=4, wounds=wounds, name=f"L{j}", count=count, save=save, rules=rules,
                            melee=Melee(ws=4, initiative=4, attacks=1, strength=4, leadership=ld)))
        for _ in range(count):
            sim.append(dict(t=4, w=wounds, save=save, cover=None, inv=None, fnp=None, ew=False, line=f"L{j}",
                            left=wounds))
            lds.append(ld)
    unit = Unit(tuple(models), "random")
    attack = ShootingAttack(shots=shots, strength=strength, bs=bs, ap=ap, rules=("pinning",))
    got = shooting_attack(attack, unit).extras["p_pinned"]
    want = tree(lambda roll, chance: sim_pinned(roll, chance, sim, lds, fearless, shots=shots, bs=bs, snap=False,
                                                strength=strength, ap=ap, rules=set()))
    assert got == want.get(True, 0)


def test_pinning_by_hand_and_not_in_overwatch() -> None:
    # one S4 AP- shot at BS 4 on a T4 model with no save: 2/3 x 1/2 = 1/3 unsaved;
    # Ld 7 fails on 2D6 of 8 or more: 15/36
    orks = Unit((Model(toughness=4, wounds=1, count=2,
                       melee=Melee(ws=4, initiative=2, attacks=2, strength=3, leadership=7)),), "orks")
    shot = dict(shots=1, strength=4, bs=4, rules=("pinning",))
    assert shooting_attack(ShootingAttack(**shot), orks).extras["p_pinned"] == F(1, 3) * F(15, 36)
    assert "p_pinned" not in shooting_attack(OverwatchAttack(**shot), orks).extras
    assert "p_pinned" not in shooting_attack(ShootingAttack(shots=1, strength=4, bs=4), orks).extras
    with pytest.raises(InputError, match="leadership"):
        shooting_attack(ShootingAttack(**shot), Unit((Model(toughness=4, wounds=1),), "no ld"))


# ---------------------------------------------------------------- Salvo X/Y from unit files, Relentless models
def test_salvo_from_a_unit_file_and_relentless_models(tmp_path) -> None:  # noqa: ANN001
    from exactodds.profiles.wh40k6 import load_unit
    from exactodds.rules.wh40k6.attack import unit_fire
    from exactodds.rules.wh40k6.inputs import UnitFire
    path = tmp_path / "u.toml"
    path.write_text('[[models]]\nname = "walker"\ntoughness = 4\nwounds = 1\nbs = 4\nweapon = "gun"\n'
                    'rules = ["relentless"]\n[[models]]\nname = "plain"\ntoughness = 4\nwounds = 1\nbs = 4\n'
                    'weapon = "gun"\n[weapons.gun]\nshots = "2/4"\nstrength = 4\n')
    firer = load_unit(path)
    target = Unit((Model(toughness=4, wounds=1, count=20),), "target")
    # one hit and wound with no save: 2/3 x 1/2 = 1/3 a shot
    moved = unit_fire(UnitFire(moved=True), firer, target)
    assert moved.facts["groups"] == ["gun x1 (BS 4, relentless)", "gun x1 (BS 4)"]
    assert moved.final.mean() == F(4 + 2, 3)  # the Relentless model fires 4, the other 2
    assert unit_fire(UnitFire(), firer, target).final.mean() == F(4 + 4, 3)
    path.write_text(path.read_text().replace('"2/4"', '"4/2"'))
    with pytest.raises(InputError, match="lower \\(after moving\\) first"):
        load_unit(path)
