"""40K 6th edition close-combat weapons and assault rules: Strength modifiers,
AP, Unwieldy, two weapons, Specialist Weapon, Concussive, the choice among a
model's weapons, Hammer of Wrath, difficult terrain and And They Shall Know No
Fear, against the independent die-by-die simulator (tests/test_wh40k6_brute.py)
and by hand."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds import InputError
from exactodds.profiles.wh40k6 import load_unit
from exactodds.rules.wh40k6 import FightEnd, Melee, Model, Unit, fight
from exactodds.rules.wh40k6.exchange import assault
from exactodds.rules.wh40k6.melee import MeleeWeapon, apply_strength
from tests.test_wh40k6_brute import sim_assault, sim_fight, tree

ROOT = Path(__file__).resolve().parents[1]

ARMOURY = {
    "ccw": MeleeWeapon("ccw"),
    "pistol": MeleeWeapon("pistol"),
    "power sword": MeleeWeapon("power sword", ap=3),
    "power axe": MeleeWeapon("power axe", "+1", 2, ("unwieldy",)),
    "power maul": MeleeWeapon("power maul", "+2", 4, ("concussive",)),
    "power lance": MeleeWeapon("power lance", "user", 4, charge_strength="+1", charge_ap=3),
    "power fist": MeleeWeapon("power fist", "x2", 2, ("unwieldy", "specialist-weapon")),
    "chainfist": MeleeWeapon("chainfist", "x2", 2, ("unwieldy", "specialist-weapon", "armourbane")),
    "lightning claw": MeleeWeapon("lightning claw", "user", 3, ("shred", "specialist-weapon")),
    "thunder hammer": MeleeWeapon("thunder hammer", "x2", 2, ("concussive", "unwieldy", "specialist-weapon")),
    "rending claw": MeleeWeapon("rending claw", "user", None, ("rending",)),
    "poisoned blade": MeleeWeapon("poisoned blade", 3, None, ("poisoned",)),
}


def warrior(name: str, count: int = 1, ws: int = 4, i: int = 4, a: int = 1, s: int = 4, ld: int = 8, t: int = 4,
            w: int = 1, save: int | None = None, melee: tuple[str, ...] = (), uses: str | None = None,
            rules: tuple[str, ...] = (), grenades: tuple[str, ...] = (), ew: bool = False) -> Model:
    return Model(t, w, name, count, save, None, None, False, False, Melee(ws, i, a, s, ld), rules=rules,
                 melee_weapons=melee, melee_uses=uses, grenades=grenades, eternal_warrior=ew)


def armed(*models: Model, name: str = "unit") -> Unit:
    used = {n for m in models for n in m.melee_weapons}
    return Unit(models, name, melee_weapons=tuple(ARMOURY[n] for n in sorted(used)))


def weapon_dict(w: MeleeWeapon) -> dict:
    return dict(name=w.name, s=w.strength, ap=w.ap, rules=set(w.rules), cs=w.charge_strength, cap=w.charge_ap,
                poisoned=w.poisoned)


def as_sim(unit: Unit) -> list[dict]:
    out = []
    for m in unit.models:
        p = m.melee
        for _ in range(m.count):
            out.append(dict(t=m.toughness, w=m.wounds, save=m.save, cover=m.cover, inv=m.invulnerable,
                            char=m.character, los=m.look_out_sir, line=m.name, ws=p.ws, i=p.initiative, a=p.attacks,
                            s=p.strength, ap=p.ap, ld=p.leadership, rules=set(m.rules), fnp=m.feel_no_pain,
                            ew=m.eternal_warrior, gun=False, grenades="assault" in m.grenades,
                            melee=[weapon_dict(unit.melee_weapon(n)) for n in m.melee_weapons],
                            uses=m.melee_uses))
    return out


@st.composite
def armed_units(draw: st.DrawFn, prefix: str, max_lines: int = 2, rules: tuple[str, ...] = ()) -> Unit:
    n = draw(st.integers(1, max_lines))
    lines = []
    for j in range(n):
        melee = tuple(draw(st.lists(st.sampled_from(sorted(ARMOURY)), max_size=2)))
        uses = draw(st.one_of(st.none(), st.sampled_from(melee))) if melee else None
        lines.append(warrior(f"{prefix}{j}", ws=draw(st.integers(3, 5)), i=draw(st.integers(1, 5)),
                             s=draw(st.integers(3, 5)), ld=draw(st.integers(6, 9)), t=draw(st.integers(3, 5)),
                             w=draw(st.integers(1, 2)), save=draw(st.one_of(st.none(), st.integers(2, 6))),
                             melee=melee, uses=uses, ew=draw(st.booleans()),
                             rules=tuple(draw(st.sets(st.sampled_from(rules), max_size=2))) if rules else (),
                             grenades=("assault",) if draw(st.booleans()) else ()))
    return armed(*lines, name=prefix)


def final(attacker: Unit, defender: Unit, charged: bool, terrain: bool = False) -> dict:
    return fight(attacker, defender, charged, terrain).final.to_fractions()


@pytest.mark.slow  # runs in CI (CI=true); the default run stays short on two cores
@settings(max_examples=12, deadline=None)
@given(armed_units("A", rules=("hammer-of-wrath", "furious-charge")), armed_units("D", max_lines=1),
       st.booleans(), st.booleans())
def test_melee_weapons_match_brute_force(attacker: Unit, defender: Unit, charged: bool, terrain: bool) -> None:
    """Strength modifiers, AP, Unwieldy, two weapons, Specialist, Concussive, rending,
    shred, poisoned, the weapon choice, Hammer of Wrath and difficult terrain."""
    terrain = terrain and charged
    expected = tree(lambda roll, chance: sim_fight(chance, as_sim(attacker), as_sim(defender), charged, terrain))
    assert final(attacker, defender, charged, terrain) == {FightEnd(*k): v for k, v in expected.items()}


def _assault_final(attacker: Unit, defender: Unit, rounds: int, terrain: bool) -> dict:
    run = assault(attacker, defender, 6, rounds, overwatch=False, difficult_terrain=terrain)
    return run.final.map(lambda e: (e.attacker.wounds, e.defender.wounds, e.attacker_status,
                                    e.defender_status)).to_fractions()


@pytest.mark.slow  # up to minutes on a busy machine; the default run covers the same rules in test_wh40k6_melee_brute.py
@settings(max_examples=4, deadline=None)
@given(armed_units("A", max_lines=1, rules=("and-they-shall-know-no-fear",)),
       armed_units("D", max_lines=1, rules=("and-they-shall-know-no-fear",)), st.booleans())
def test_assaults_with_concussion_and_no_fear_match_brute_force(attacker: Unit, defender: Unit,
                                                                terrain: bool) -> None:
    """Two rounds: Concussive lasts into the next round; a unit with And They Shall
    Know No Fear caught by a sweeping advance fights on."""
    expected = tree(lambda roll, chance: sim_assault(chance, roll, as_sim(attacker), as_sim(defender), 6, 2, [],
                                                     terrain))
    got = _assault_final(attacker, defender, 2, terrain)
    assert got == {(k[0], k[1], k[2], k[3]): v for k, v in expected.items()}


@pytest.mark.slow
@settings(max_examples=3, deadline=None)
@given(armed_units("A", max_lines=1, rules=("hammer-of-wrath", "and-they-shall-know-no-fear", "furious-charge")),
       armed_units("D", max_lines=1, rules=("and-they-shall-know-no-fear", "counter-attack")), st.booleans())
def test_more_assaults_match_brute_force(attacker: Unit, defender: Unit, terrain: bool) -> None:
    expected = tree(lambda roll, chance: sim_assault(chance, roll, as_sim(attacker), as_sim(defender), 6, 2, [],
                                                     terrain))
    assert _assault_final(attacker, defender, 2, terrain) == {tuple(k): v for k, v in expected.items()}


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(armed_units("A", rules=("hammer-of-wrath", "furious-charge")),
       armed_units("D", max_lines=1, rules=("counter-attack",)), st.booleans(), st.booleans())
def test_more_fights_match_brute_force(attacker: Unit, defender: Unit, charged: bool, terrain: bool) -> None:
    terrain = terrain and charged
    expected = tree(lambda roll, chance: sim_fight(chance, as_sim(attacker), as_sim(defender), charged, terrain))
    assert final(attacker, defender, charged, terrain) == {FightEnd(*k): v for k, v in expected.items()}


def test_one_power_fist_blow_by_hand() -> None:
    # WS4 v WS4 hits on 4+ (1/2); S8 v T4 wounds on 2+ (5/6); AP2 ignores the 3+ save;
    # S8 is double T4: Instant Death takes both Wounds
    a = armed(warrior("fist", i=4, a=1, s=4, melee=("power fist",)))
    d = Unit((Model(4, 2, "target", 1, 3, None, None, False, False, Melee(4, 4, 0, 4, 8)),))
    removed = fight(a, d, False).survivors().map(lambda s: s.defender_survivors).pmf(0)
    assert removed == F(1, 2) * F(5, 6) == F(5, 12)


def test_rending_wounds_what_its_strength_cannot() -> None:
    # S3 v T7 never wounds on the chart; a rending 6 still does, at AP2 (the 3+ save is
    # ignored): WS4 v WS4 hits on 4+ (1/2), then a 6 (1/6): the model is removed 1/12
    a = armed(warrior("claw", i=4, a=1, s=3, melee=("rending claw",)))
    d = Unit((Model(7, 1, "target", 1, 3, None, None, False, False, Melee(4, 4, 0, 4, 8)),))
    removed = fight(a, d, False).survivors().map(lambda s: s.defender_survivors).pmf(0)
    assert removed == F(1, 2) * F(1, 6) == F(1, 12)


def test_strength_modifiers_are_capped_at_ten() -> None:
    assert [apply_strength(m, 6) for m in ("user", "+1", "+2", "x2", 3)] == [6, 7, 8, 10, 3]


def _p_removed(attacker: Unit, defender: Unit, charged: bool = False, terrain: bool = False) -> F:
    return fight(attacker, defender, charged, terrain).survivors().map(lambda s: s.defender_survivors).pmf(0)


def test_two_weapons_add_an_attack_unless_specialist() -> None:
    target = Unit((warrior("t", a=0, i=1),))
    one_hit = F(1, 2) * F(1, 2)                     # 4+ to hit, S4 v T4 4+, no save
    pair = armed(warrior("x", melee=("ccw", "pistol")))
    assert _p_removed(pair, target) == 1 - (1 - one_hit) ** 2
    fist_and_pistol = armed(warrior("x", melee=("power fist", "pistol"), uses="power fist"))
    assert _p_removed(fist_and_pistol, target) == F(1, 2) * F(5, 6)   # one attack: no bonus
    claws = armed(warrior("x", melee=("lightning claw", "lightning claw")))
    # S4 v T4 with Shred: 1/2 + 1/2 x 1/2 = 3/4 per hit; two attacks (a pair of claws)
    assert _p_removed(claws, target) == 1 - (1 - F(1, 2) * F(3, 4)) ** 2


def test_unwieldy_strikes_after_the_enemy() -> None:
    # the axe (I1) strikes after the defender's I3 blow, which kills it on 1/4
    a = armed(warrior("axe", i=5, melee=("power axe",)))
    d = Unit((warrior("d", i=3),))
    p_axe_lives = 1 - F(1, 4)
    assert _p_removed(a, d) == p_axe_lives * F(1, 2) * F(2, 3)        # S5 v T4 wounds on 3+


def test_hammer_of_wrath_and_difficult_terrain_by_hand() -> None:
    d = Unit((warrior("d", a=0, i=1),))
    jumper = armed(warrior("j", i=4, a=0, rules=("hammer-of-wrath",)))
    assert _p_removed(jumper, d, charged=True) == 1 - (1 - F(1, 2) * F(1, 2)) * (1 - F(1, 2))   # 1 + 1 A
    assert _p_removed(jumper, d, charged=False) == 0
    # through difficult terrain without assault grenades the charger strikes at I1: after the I3 foe
    foe = Unit((warrior("f", i=3, a=1),))
    slow = armed(warrior("s", i=4, a=1))
    fast = armed(warrior("s", i=4, a=1, grenades=("assault",)))
    assert _p_removed(fast, foe, True, True) == _p_removed(fast, foe, True, False) == 1 - (1 - F(1, 4)) ** 2
    assert _p_removed(slow, foe, True, True) == (1 - F(1, 4)) * (1 - (1 - F(1, 4)) ** 2)


def test_the_best_weapon_is_chosen_against_the_target() -> None:
    sword_or_fist = armed(warrior("x", i=4, melee=("power sword", "power fist")))
    # the fist is a Specialist Weapon and the sword not: with the sword the model has +1 Attack.
    # Against a 2+ save: the fist's 1 x 1/2 x 5/6 (AP2) beats the sword's 2 x 1/2 x 1/2 x 1/6
    armoured = Unit((warrior("t", a=0, i=1, save=2),))
    assert _p_removed(sword_or_fist, armoured) == F(5, 12)
    # against T3 with no save: the sword's 2 x 1/2 x 2/3 beats the fist's 1/2 x 5/6
    light = Unit((warrior("t", a=0, i=1, t=3),))
    assert _p_removed(sword_or_fist, light) == 1 - (1 - F(1, 2) * F(2, 3)) ** 2


def test_bad_melee_input(tmp_path) -> None:
    def run(text: str) -> subprocess.CompletedProcess:
        f = tmp_path / "u.toml"
        f.write_text(text)
        return subprocess.run([sys.executable, "-m", "exactodds", "40k6", "fight", "--attacker", str(f),
                               "--defender", "examples/40k6/ork_boyz.toml"], capture_output=True, text=True,
                              cwd=ROOT)
    line = "[[models]]\ntoughness = 4\nwounds = 1\nws = 4\ninitiative = 4\nattacks = 1\nstrength = 4\nleadership = 8\n"
    missing = run(line + 'melee = "power sword"\n')
    assert missing.returncode == 2 and "close-combat weapon 'power sword' has no profile" in missing.stderr
    assert len(missing.stderr.strip().splitlines()) == 1
    x2 = run(line + 'bs = 4\nweapon = "gun"\n[weapons.gun]\nstrength = "x2"\n')
    assert x2.returncode == 2 and "close-combat weapons: type = \"melee\"" in x2.stderr
    shots = run(line + 'melee = "axe"\n[weapons.axe]\ntype = "melee"\nstrength = "+1"\nshots = 2\n')
    assert shots.returncode == 2 and "shots" in shots.stderr
    as_gun = run(line + 'bs = 4\nweapon = "axe"\n[weapons.axe]\ntype = "melee"\nstrength = "+1"\n')
    assert as_gun.returncode == 2 and "is a close-combat weapon" in as_gun.stderr
    with pytest.raises(InputError, match="difficult terrain"):
        fight(Unit((warrior("a"),)), Unit((warrior("b"),)), False, True)


def test_one_user_weapon_fights_as_no_weapon_and_terminators_as_before() -> None:
    foe = Unit((warrior("f", count=2, save=5, i=3),))
    plain, with_ccw = Unit((warrior("x", a=2),)), armed(warrior("x", a=2, melee=("ccw",)))
    assert fight(plain, foe, True).final == fight(with_ccw, foe, True).final
    # the Terminators' old profile (S8 AP2 at I1 on the line) against their power fists
    old = Unit((Model(4, 1, "Terminator", 5, 2, 5, None, False, False, Melee(4, 1, 2, 8, 9, 2)),))
    new = load_unit(ROOT / "examples/40k6/terminators.toml", True)
    marines = load_unit(ROOT / "examples/40k6/tactical_squad_mixed_weapons.toml", True)
    assert fight(old, marines, True).final == fight(new, marines, True).final


def _terrain_reach(distance: int) -> F:
    """P(3D6 without the highest die reaches ``distance``), by counting the 216 triples."""
    hits = sum(1 for x in range(1, 7) for y in range(1, 7) for z in range(1, 7) if x + y + z - max(x, y, z) >= distance)
    return F(hits, 216)


def test_difficult_terrain_from_ask_and_scenario_files(tmp_path) -> None:
    from exactodds import ask
    args = dict(attacker="examples/40k6/assault_squad.toml", defender="examples/40k6/ork_boyz.toml", distance=7,
                no_overwatch=True)
    assert ask("40k6", "assault", **args).extras["p_charge_fails"] == F(5, 12)
    slowed = ask("40k6", "assault", difficult_terrain=True, **args)
    assert slowed.extras["p_charge_fails"] == 1 - _terrain_reach(7)
    root = tmp_path / "s.toml"
    here = ROOT
    root.write_text('[units.a]\nfile = "%s"\n[units.o]\nfile = "%s"\n[[steps]]\nkind = "assault"\nname = "x"\n'
                    'attacker = "a"\ndefender = "o"\ndistance = 7\noverwatch = false\ndifficult_terrain = true\n'
                    % (here / "examples/40k6/assault_squad.toml", here / "examples/40k6/ork_boyz.toml"))
    run = ask("scenario", None, file=str(root))
    assert run.stages["x: charge"].prob(lambda e: e.a_status == "charge failed") == 1 - _terrain_reach(7)
    assert run.dist.to_fractions() == slowed.dist.to_fractions()
