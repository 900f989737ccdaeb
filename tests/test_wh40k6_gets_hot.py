"""Gets Hot (40K 6th edition) against an independent die-by-die simulator.

The simulator below plays the rule as written in docs/wh40k6.md, one die at
a time: each firing model rolls its own shots (the BS table, the rerolls), a
final 1 costs that model a wound, saved on its best of armour and
invulnerable, then Feel No Pain; the hits are then rolled to wound and
allocated as in tests/test_wh40k6_brute.py. Nothing is taken from the engine.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from fractions import Fraction as F
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import exactodds
from exactodds import Dist, InputError
from exactodds.rules.wh40k6 import Melee, Model, Shooting, Unit
from exactodds.rules.wh40k6.casualties import start_state
from exactodds.rules.wh40k6.exchange import Sides, assault, fire_both_pipeline
from exactodds.rules.wh40k6.gets_hot import Firer, shoot_firers, volley, volley_removed
from exactodds.rules.wh40k6.units import Weapon
from exactodds.sweep import run_sweep
from tests.test_docs import ROOT, cli_env
from tests.test_wh40k6_brute import BS, faces_at_least, majority, sim_allocate, tree, wound_needed

# --------------------------------------------------------------------------- the simulator


def sim_shot(chance: Callable[..., bool], bs: int, snap: bool, rules: set[str]) -> str:
    """One shot: "hit", "hot" (the final roll is a 1) or "miss". A failed roll
    is first a class of faces: one of the misses is the 1."""
    first, again = BS[1 if snap else bs]

    def roll(need: int) -> str:
        if chance(7 - need):                # faces need..6
            return "hit"
        return "hot" if chance(1, need - 1) else "miss"   # one of the need - 1 missing faces is the 1

    got = roll(first)
    if got == "hit":
        return got
    if "twin-linked" in rules or "reroll-failed" in rules:
        return roll(first)
    if got == "hot" and "preferred-enemy" in rules:
        return roll(first)
    if got == "hot" and again is not None:
        return roll(again)
    return got


def sim_wound_self(chance: Callable[..., bool], firer: dict) -> bool:
    """One Gets Hot wound on its firer: True when it is suffered (best of armour
    and invulnerable, no AP, no cover; then Feel No Pain)."""
    saves = [v for v in (firer.get("save"), firer.get("inv")) if v is not None]
    if saves and chance(7 - min(saves)):
        return False
    return not (firer.get("fnp") and chance(7 - firer["fnp"]))


def sim_volley(chance: Callable[..., bool], firers: list[dict], shots_each: int, bs: int, snap: bool,
               rules: set[str], placed: bool = False) -> tuple[int, tuple[int, ...]]:
    """Every firing model's shots: (total hits, wounds left per firing model).
    A weapon that places its hits: one D6 per template before it is placed; a 1
    misfires (no hits) and wounds the firer; else ``shots_each`` models hit."""
    hits, left = 0, []
    for f in firers:
        w = f.get("left", f["w"])
        outcomes = (["hit"] * shots_each if chance(5) else ["hot"]) if placed else \
            [sim_shot(chance, bs, snap, rules) for _ in range(shots_each)]
        for o in outcomes:
            if o == "hot" and w > 0 and sim_wound_self(chance, f):
                w -= 1
        hits += outcomes.count("hit")
        left.append(w)
    return hits, tuple(left)


def sim_on_target(chance: Callable[..., bool], models: list[dict], left: list[int], hits: int, strength: int,
                  ap: int | None, rules: set[str] = frozenset()) -> None:  # type: ignore[assignment]
    """Wound rolls against the majority Toughness of the models in play
    (Preferred Enemy: a 1 rerolled), then allocation closest first (the brute
    simulator's); ``left`` changes."""
    alive = [m["t"] for m, w in zip(models, left) if w > 0]
    if not alive:
        return
    k = faces_at_least(wound_needed(strength, majority(alive)))

    def wound() -> bool:
        if chance(k):
            return True
        return "preferred-enemy" in rules and chance(1, 6 - k) and chance(k)
    wounds = sum(wound() for _ in range(hits))
    sim_allocate(lambda x: chance(7 - x), models, left, wounds, strength, ap)


def firer_dicts(n: int, wounds: int, save: int | None, inv: int | None, fnp: int | None) -> list[dict]:
    return [{"w": wounds, "save": save, "inv": inv, "fnp": fnp} for _ in range(n)]


# --------------------------------------------------------------------------- hand-worked figures


def test_one_plasma_gun_bs4_3plus_save() -> None:
    """BS 4 hits on 3+: a 1 is 1/6, saved on 3+ (2/3): 1/6 x 1/3 = 1/18.
    Twin-linked: the first roll misses on 1 or 2 (1/3), the reroll is a 1
    (1/6): 1/18 of a final 1, then 1/3 unsaved: 1/54."""
    for rules, p in (((), F(1, 18)), (("twin-linked",), F(1, 54))):
        attack = Shooting(shots=1, strength=7, bs=4, ap=2, rules=("gets-hot", *rules))
        v = volley(attack, [Firer(1, 3)])
        assert v.prob(lambda x: x[1] == (1,)) == p
    # BS 6 (2+, a 1 rerolled at 6+): the final die is a 1 only when both are: 1/36
    attack = Shooting(shots=1, strength=7, bs=6, ap=2, rules=("gets-hot",))
    assert volley(attack, [Firer()]).prob(lambda x: x[1] == (1,)) == F(1, 36)
    # snap shots: still a 1 in 6
    attack = Shooting(shots=1, strength=7, bs=4, ap=2, snap=True, rules=("gets-hot",))
    assert volley(attack, [Firer()]).prob(lambda x: x[1] == (1,)) == F(1, 6)


def test_gets_hot_leaves_the_hits_unchanged() -> None:
    from exactodds.rules.wh40k6 import hits
    for rules in ((), ("twin-linked",), ("preferred-enemy",)):
        for bs in range(1, 11):
            plain = Shooting(shots=3, strength=7, bs=bs, rules=rules)
            hot = Shooting(shots=3, strength=7, bs=bs, rules=("gets-hot", *rules))
            assert volley(hot, [Firer()] * 3).map(lambda x: x[0]) == hits(plain)


# --------------------------------------------------------------------------- the volley against the simulator

RULE_SETS = [set(), {"twin-linked"}, {"preferred-enemy"}]


@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 3), shots_each=st.integers(1, 2), bs=st.integers(1, 10), snap=st.booleans(),
       rules=st.sampled_from(RULE_SETS), wounds=st.integers(1, 2), save=st.sampled_from([None, 3, 5]),
       inv=st.sampled_from([None, 4]), fnp=st.sampled_from([None, 5]))
def test_volley_matches_brute_force(n: int, shots_each: int, bs: int, snap: bool, rules: set[str], wounds: int,
                                    save: int | None, inv: int | None, fnp: int | None) -> None:
    if n * shots_each > 4:
        shots_each = 1
    attack = Shooting(shots=n * shots_each, strength=7, bs=bs, ap=2, snap=snap, rules=("gets-hot", *rules))
    got = volley(attack, [Firer(wounds, save, inv, fnp)] * n).map(lambda x: (x[0], tuple(wounds - k for k in x[1])))
    expected = tree(lambda roll, chance: sim_volley(chance, firer_dicts(n, wounds, save, inv, fnp), shots_each, bs,
                                                    snap, rules))
    assert got.to_fractions() == expected


@settings(max_examples=20, deadline=None)
@given(n=st.integers(1, 3), shots_each=st.integers(1, 2), bs=st.integers(1, 10), rules=st.sampled_from(RULE_SETS),
       wounds=st.integers(1, 2), save=st.sampled_from([None, 3, 5]))
def test_models_removed_match_brute_force(n: int, shots_each: int, bs: int, rules: set[str], wounds: int,
                                          save: int | None) -> None:
    if n * shots_each > 4:
        shots_each = 1
    attack = Shooting(shots=n * shots_each, strength=7, bs=bs, ap=2, rules=("gets-hot", *rules))
    got = volley_removed(attack, [Firer(wounds, save)] * n)
    expected: dict = {}
    for (hits, left), p in tree(lambda roll, chance: sim_volley(chance, firer_dicts(n, wounds, save, None, None),
                                                                shots_each, bs, False, rules)).items():
        key = (hits, sum(1 for w in left if w == 0))
        expected[key] = expected.get(key, 0) + p
    assert got.to_fractions() == expected


def test_gets_hot_never_changes_the_number_of_shots_with_salvo_after_moving() -> None:
    """Two models, one shot each, the rule salvo, after moving: the group fires
    1 shot (2 halved) with or without Gets Hot. BS 4 hits on 3+: 2/3; the shot
    gets hot on a 1: 1/6, unsaved (no save)."""
    from exactodds.rules.wh40k6.attack import hit_attack
    from exactodds.rules.wh40k6.inputs import Volley
    plain = Volley(shots=2, bs=4, rules=("salvo",), moved=True)
    hot = Volley(shots=2, bs=4, rules=("salvo", "gets-hot"), moved=True, firers=2)
    assert hit_attack(plain).final.to_fractions() == {0: F(1, 3), 1: F(2, 3)}
    done = hit_attack(hot)
    assert done.final.to_fractions() == {0: F(1, 3), 1: F(2, 3)}
    assert done.stages["firing models lost"].to_fractions() == {0: F(5, 6), 1: F(1, 6)}
    # the total halved, then dealt out: 6 -> 3 among 3 models, 6 -> 3 among 2, 3 -> 1 among 3
    from exactodds.rules.wh40k6 import hits
    for n, each in ((3, 2), (2, 3), (3, 1)):
        plain = Shooting(shots=n * each, strength=7, bs=4, rules=("salvo",), moved=True)
        hot = Shooting(shots=n * each, strength=7, bs=4, rules=("salvo", "gets-hot"), moved=True)
        assert volley(hot, [Firer()] * n).map(lambda x: x[0]) == hits(plain)


@settings(max_examples=20, deadline=None)
@given(n=st.integers(1, 2), pair=st.sampled_from([(1, 2), (1, 1), (2, 2)]), moved=st.booleans(),
       relentless=st.booleans(), bs=st.integers(2, 6), wounds=st.integers(1, 2), save=st.sampled_from([None, 4]))
def test_salvo_x_y_volley_matches_brute_force(n: int, pair: tuple[int, int], moved: bool, relentless: bool, bs: int,
                                              wounds: int, save: int | None) -> None:
    rules = ("gets-hot", "relentless") if relentless else ("gets-hot",)
    attack = Shooting(shots=n, strength=7, bs=bs, ap=2, salvo=pair, moved=moved, rules=rules)
    got = volley(attack, [Firer(wounds, save)] * n).map(lambda x: (x[0], tuple(wounds - k for k in x[1])))
    each = pair[0] if moved and not relentless else pair[1]  # the lower after moving, unless Relentless
    expected = tree(lambda roll, chance: sim_volley(chance, firer_dicts(n, wounds, save, None, None), each, bs,
                                                    False, set()))
    assert got.to_fractions() == expected


def test_twenty_one_wound_firers_are_a_binomial() -> None:
    """Twenty one-Wound models (5+ armour) rapid-fire two plasma shots each at BS 4:
    a shot gets hot with chance 1/6 and the save fails with chance 2/3, so a model
    survives both shots with chance (8/9)^2 = 64/81, and the models removed are
    Binomial(20, 17/81). (The per-model loss tuples would be 2^20 states.)"""
    attack = Shooting(shots=40, strength=7, bs=4, ap=2, rules=("gets-hot",))
    removed = volley_removed(attack, [Firer(1, 5)] * 20).map(lambda x: x[1])
    assert removed == Dist.binomial(20, F(17, 81))
    assert removed.pmf(0) == F(64, 81) ** 20


@pytest.mark.parametrize("kind", ["blast", "template"])
def test_a_weapon_that_places_its_hits_rolls_a_d6_per_shot(kind: str) -> None:
    attack = Shooting(shots=6, strength=5, weapon_type=kind, rules=("gets-hot",))
    got = volley(attack, [Firer(1, 4)] * 2).map(lambda x: (x[0], tuple(1 - k for k in x[1])))
    expected = tree(lambda roll, chance: sim_volley(chance, firer_dicts(2, 1, 4, None, None), 3, 0, False, set(),
                                                    placed=True))
    assert got.to_fractions() == expected


def test_random_shots_each_model_rolls_its_own() -> None:
    attack = Shooting(shots=2, strength=7, bs=3, random_shots="D3", rules=("gets-hot",))
    got = volley(attack, [Firer()] * 2).map(lambda x: (x[0], tuple(1 - k for k in x[1])))

    def sim(roll: Callable[[], int], chance: Callable[..., bool]) -> tuple:
        hits, left = 0, []
        for _ in range(2):
            outcomes = [sim_shot(chance, 3, False, set()) for _ in range((roll() + 1) // 2)]
            hits += outcomes.count("hit")
            left.append(0 if "hot" in outcomes else 1)
        return hits, tuple(left)
    assert got.to_fractions() == tree(sim)


# --------------------------------------------------------------------------- one attack at a unit


def target_unit(n: int, t: int, save: int | None, wounds: int = 1) -> tuple[Unit, list[dict]]:
    unit = Unit((Model(t, wounds, "target", n, save),), "Target")
    return unit, [{"t": t, "w": wounds, "save": save, "line": "target"} for _ in range(n)]


@settings(max_examples=20, deadline=None)
@given(n=st.integers(1, 2), shots_each=st.integers(1, 2), bs=st.integers(2, 5),
       rules=st.sampled_from(RULE_SETS), save=st.sampled_from([None, 3]), targets=st.integers(1, 3),
       overwatch=st.booleans())
def test_shoot_joint_matches_brute_force(n: int, shots_each: int, bs: int, rules: set[str], save: int | None,
                                         targets: int, overwatch: bool) -> None:
    unit, models = target_unit(targets, 4, 4)
    attack = Shooting(shots=n * shots_each, strength=5, bs=bs, ap=4, rules=("gets-hot", *rules))
    _, joint = shoot_firers(attack, unit, [Firer(1, save)] * n, overwatch=overwatch)

    def sim(roll: Callable[[], int], chance: Callable[..., bool]) -> tuple:
        hits, left_f = sim_volley(chance, firer_dicts(n, 1, save, None, None), shots_each, bs, overwatch, rules)
        left = [1] * targets
        sim_on_target(chance, models, left, hits, 5, 4, rules)
        return left.count(0), left_f.count(0)
    assert joint.to_fractions() == tree(sim)


# --------------------------------------------------------------------------- a unit's weapons, Overwatch

MELEE = Melee(ws=4, initiative=4, attacks=1, strength=4, leadership=8)


def plasma_unit(pistol_too: bool, wounds: int, save: int | None) -> Unit:
    """A bolter model, then plasma models (the first also with a plasma pistol)."""
    gun = Weapon("plasma gun", 7, ap=2, rules=("gets-hot",))
    pistol = Weapon("plasma pistol", 7, ap=2, rules=("gets-hot",))
    bolter = Weapon("bolter", 4, ap=5)
    lines = [Model(4, 1, "bolter", 1, 3, melee=MELEE, bs=4, weapons=("bolter",)),
             Model(4, wounds, "gunner", 1, save, melee=MELEE, bs=4,
                   weapons=("plasma gun", "plasma pistol") if pistol_too else ("plasma gun",)),
             Model(4, wounds, "gunner 2", 1, save, melee=MELEE, bs=4, weapons=("plasma gun",))]
    return Unit(tuple(lines), "Plasma", (bolter, gun, pistol))


def sim_fire(chance: Callable[..., bool], pistol_too: bool, wounds: int, save: int | None, target: list[dict],
             snap: bool) -> tuple:
    """Groups in file order (bolter, plasma gun, plasma pistol), each fired by
    the models in play at the start; hits allocated on the target as the
    earlier groups left it; Gets Hot wounds taken from the firing model."""
    bs = 4
    left_f = [1, wounds, wounds]
    left_t = [m["w"] for m in target]
    groups = [("bolter", [0], False), ("plasma gun", [1, 2], True)]
    if pistol_too:
        groups.append(("plasma pistol", [1], True))
    strength = {"bolter": 4, "plasma gun": 7, "plasma pistol": 7}
    ap = {"bolter": 5, "plasma gun": 2, "plasma pistol": 2}
    for name, who, hot in groups:
        hits = 0
        for i in who:
            o = sim_shot(chance, bs, snap, set())
            if o == "hit":
                hits += 1
            elif o == "hot" and hot and left_f[i] > 0 and sim_wound_self(chance, {"save": save}):
                left_f[i] -= 1
        sim_on_target(chance, target, left_t, hits, strength[name], ap[name])
    return tuple(left_t), tuple(left_f)


@settings(max_examples=12, deadline=None)
@given(pistol_too=st.booleans(), wounds=st.integers(1, 2), save=st.sampled_from([None, 4]),
       targets=st.integers(1, 2))
def test_fire_with_gets_hot_matches_brute_force(pistol_too: bool, wounds: int, save: int | None,
                                                 targets: int) -> None:
    firer = plasma_unit(pistol_too, wounds, save)
    target, models = target_unit(targets, 4, 3)
    start = start_state(firer)
    got = fire_both_pipeline(firer, target, start)(Sides(start_state(target), start))
    expected = tree(lambda roll, chance: sim_fire(chance, pistol_too, wounds, save, models, False))
    assert got.map(lambda s: (s.target.wounds, s.firer.wounds)).to_fractions() == expected


def test_overwatch_with_gets_hot_matches_brute_force() -> None:
    """The charged unit's plasma (snap shots, within range) before the charge: both units' survivors."""
    defender = plasma_unit(True, 1, 4)
    attacker = Unit((Model(4, 1, "charger", 2, 3, melee=MELEE),), "Chargers")
    run = assault(attacker, defender, 6)
    got = run["overwatch"].map(lambda e: (e.attacker.survivors(), e.defender.survivors()))
    models = [{"t": 4, "w": 1, "save": 3, "line": "charger"}] * 2

    def sim(roll: Callable[[], int], chance: Callable[..., bool]) -> tuple:
        left_t, left_f = sim_fire(chance, True, 1, 4, models, True)
        return sum(1 for w in left_t if w), sum(1 for w in left_f if w)
    assert got.to_fractions() == tree(sim)


def test_a_model_removed_by_one_weapon_still_fires_its_others() -> None:
    """The gunner with a plasma gun and a plasma pistol, no save: both weapons
    fire whatever the first did, and a 1 with each is still one model lost."""
    firer = plasma_unit(True, 1, None)
    target, _ = target_unit(1, 10, 2)    # nothing wounds T10: only the firer's losses matter
    start = start_state(firer)
    got = fire_both_pipeline(firer, target, start)(Sides(start_state(target), start))
    lost_gunner = got.prob(lambda s: s.firer.wounds[1] == 0)
    assert lost_gunner == 1 - F(5, 6) ** 2


# --------------------------------------------------------------------------- interfaces


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "exactodds", *args], capture_output=True, text=True,
                          env=cli_env(), cwd=ROOT)


def test_cli_shoot_gives_the_firing_models_lost() -> None:
    out = run_cli("40k6", "shoot", "--shots", "1", "--bs", "4", "--strength", "7", "--ap", "2", "--rules",
                  "gets-hot", "--firer-save", "3+", "--target", "examples/40k6/marines.toml", "--format", "json")
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert got["p_firing_model_lost"] == "1/18"
    assert got["firing_models_lost"] == {"0": "17/18", "1": "1/18"}


def test_ask_from_python() -> None:
    a = exactodds.ask("40k6", "shoot", shots=2, bs=4, strength=7, ap=2, rules=["gets-hot", "rapid-fire"],
                      range="half", firers=2, firer_save=3, target="examples/40k6/marines.toml")
    assert a.extras["p_firing_model_lost"] == 1 - F(17, 18) ** 4


@pytest.mark.parametrize(("args", "message"), [
    (["--firer-save", "3+"], "--firer-save describes the firing models a weapon that Gets Hot wounds: "
                             "add --rules gets-hot, or leave it out"),
    (["--rules", "gets-hot", "--shots", "3", "--firers", "2"], "--shots 3 do not split evenly among --firers 2"),
    (["--rules", "gets-hot", "--master-crafted", "1"], "--master-crafted with --rules gets-hot is not modelled"),
    (["--rules", "gets-hot", "--firer-wounds", "0"], "--firer-wounds': 0 is out of range: use a whole number from 1 to 10"),
    (["--rules", "gets-hot", "--random-shots", "D6", "--firers", "3"], "--firers 3 with --random-shots"),
])
def test_bad_gets_hot_input_is_one_line_exit_2(args: list[str], message: str) -> None:
    base = ["40k6", "hit", "--bs", "4"] + ([] if "--shots" in args else ["--shots", "2"])
    out = run_cli(*base, *args)
    assert out.returncode == 2
    assert message in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_fire_command_joint_end_state() -> None:
    out = run_cli("40k6", "fire", "--attacker", "examples/40k6/plasma_veterans.toml", "--target",
                  "examples/40k6/marines.toml", "--range", "half", "--format", "json")
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    # each plasma gun: two shots, a 1 unsaved on 5+ is 1/6 x 2/3 = 1/9 a shot; the pistol one shot
    assert got["mean_attacker_lost"] == str(3 * (1 - F(8, 9) ** 2) + F(1, 9))
    assert set(got["outcomes"][0]["outcome"]) == {"casualties", "attacker_lost"}
    assert sum(F(o["p"]) for o in got["outcomes"]) == 1


def test_scenario_shoot_changes_the_firing_unit() -> None:
    from exactodds.profiles.wh40k6 import load_unit
    from exactodds.rules.scenario import Scenario
    from exactodds.rules.wh40k6.exchange import Shoot
    vets = load_unit(ROOT / "examples/40k6/plasma_veterans.toml")
    marines = load_unit(ROOT / "examples/40k6/marines.toml")
    sc = Scenario({"vets": vets, "marines": marines}, [Shoot("vets", "marines", range="half", morale=False)])
    end = sc.pipeline().run(sc.start_world()).final
    lost = end.map(lambda w: vets.size - w.units[0].survivors())
    assert lost.mean() == 3 * (1 - F(8, 9) ** 2) + F(1, 9)
    # the models removed are put after their line's models in play: few distinct states
    assert len({w.units[0] for w in end.support()}) <= 2 * 4 * 4


def test_no_gets_hot_without_the_rule() -> None:
    with pytest.raises(InputError, match="does not have gets-hot"):
        volley(Shooting(shots=1, strength=4, bs=4), [Firer()])
    with pytest.raises(InputError, match="master_crafted with rules gets-hot"):
        Shooting(shots=1, strength=4, bs=4, master_crafted=1, rules=("gets-hot",))
    assert Counter(w.name for w in plasma_unit(True, 1, 3).weapons)["plasma gun"] == 1


def test_a_placed_weapon_that_gets_hot_at_a_vehicle_is_refused() -> None:
    out = run_cli("40k6", "shoot", "--shots", "3", "--weapon-type", "blast", "--strength", "7", "--rules",
                  "gets-hot", "--target", "examples/40k6/rhino.toml")
    assert out.returncode == 2
    assert "gets-hot with a blast weapon at a vehicle is not modelled" in out.stderr


def test_a_weapon_rolling_to_hit_at_a_vehicle_gives_the_firers_losses() -> None:
    a = exactodds.ask("40k6", "shoot", shots=2, bs=4, strength=9, ap=1, rules=["gets-hot"], firers=1,
                      firer_wounds=2, target="examples/40k6/rhino.toml")
    assert a.extras["p_firing_model_lost"] == F(1, 36)


def test_query_file_and_sweep() -> None:
    out = run_cli("run", "examples/queries/40k6_plasma_gets_hot.toml", "--format", "json")
    assert out.returncode == 0, out.stderr
    # three models, two shots each, a 1 unsaved on 5+: 1/9 a shot
    assert F(json.loads(out.stdout)["p_firing_model_lost"]) == 1 - F(8, 9) ** 6

    with tempfile.TemporaryDirectory() as tmp:
        result = run_sweep(ROOT / "examples/sweeps/40k6_gets_hot.toml", Path(tmp) / "hot.csv", workers=1)
    rows = {(r["bs"], tuple(r["rules"])): F(r["p_firing_model_lost"]) for r in result.rows}
    assert rows[4, ("gets-hot",)] == F(1, 18) and rows[4, ("gets-hot", "twin-linked")] == F(1, 54)
    assert rows[6, ("gets-hot",)] == F(1, 108)      # BS 6+: a 1 rerolled, then 1/3 unsaved


def hot_veterans(weapons: int) -> Unit:
    """Six three-Wound models each carrying ``weapons`` plasma guns: every group is fired
    by the same six models, whose wounds must all be followed."""
    guns = tuple(Weapon(f"plasma {i}", 7, ap=2, rules=("gets-hot",)) for i in range(weapons))
    line = Model(4, 3, "veteran", 6, 3, melee=MELEE, bs=4, weapons=tuple(g.name for g in guns))
    return Unit((line,), "Veterans", guns)


def test_many_gets_hot_weapons_on_the_same_models_are_refused_before_any_work() -> None:
    """Three weapon groups fired by the same six three-Wound models at 20 one-Wound
    models: the estimate (each group: target states x firing states x hit totals x
    losses) refuses it at once; two groups are answered."""
    target, _ = target_unit(20, 4, 6)
    firer = hot_veterans(3)
    with exactodds.state_limit(2_000_000), pytest.raises(exactodds.TooLargeError) as e:
        fire_both_pipeline(firer, target, start_state(firer))
    assert str(e.value).startswith("the 3 weapon groups of 'Veterans' (weapons that get hot: each firing model's "
                                   "wounds followed) at a unit of 20 models would need about 35,574,784 states, "
                                   "over the limit of 2,000,000")
    two = hot_veterans(2)
    start = start_state(two)
    got = fire_both_pipeline(two, target, start)(Sides(start_state(target), start))
    # 12 shots hitting on 3+ and wounding on 2+, no save against AP2: 12 x 2/3 x 5/6 = 20/3 casualties
    assert got.map(lambda s: s.target.casualties()).mean() == F(20, 3)
    # a model fires two shots: at most two Gets Hot wounds, never its three
    assert got.prob(lambda s: s.firer.casualties() > 0) == 0
