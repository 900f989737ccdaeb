"""`40k6 shoot --morale` and `40k6 fire --morale`: one shooting attack taken as the
whole shooting phase, then the 25% morale check; against an independent die-by-die
simulator and hand-worked figures."""

from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import exactodds
from exactodds import InputError
from tests.test_wh40k6_brute import tree, two_d6_pass_pairs
from tests.test_wh40k6_shooting_morale import sim_volley

ROOT = Path(__file__).resolve().parent.parent


def unit_file(tmp: Path, n: int, ld: int, save: int | None = None, rules: str = "") -> str:
    """A unit of ``n`` one-Wound T4 models with Leadership ``ld`` (and a gun, to fire too)."""
    path = tmp / f"u{n}_{ld}_{save}_{rules}.toml"
    path.write_text(f'name = "Squad"\n[[models]]\nname = "Trooper"\ncount = {n}\ntoughness = 4\nwounds = 1\n'
                    + (f"save = {save}\n" if save else "") + "ws = 4\ninitiative = 4\nattacks = 1\nstrength = 4\n"
                    f"leadership = {ld}\nbs = 10\nweapon = \"gun\"\n" + (f"rules = [\"{rules}\"]\n" if rules else "")
                    + "[weapons.gun]\nshots = 1\nstrength = 10\n")
    return str(path)


def test_four_models_one_lost_at_leadership_8(tmp_path: Path) -> None:
    """One shot at BS 10 (35/36) with S 10 (wounds T4 on 2+: 5/6), no save: one of 4 lost
    (25%) tests at Ld 8 and falls back on 2D6 > 8 (10/36)."""
    target = unit_file(tmp_path, 4, 8)
    answer = exactodds.ask("40k6", "shoot", shots=1, bs=10, strength=10, target=target, morale=True)
    lost = F(35, 36) * F(5, 6)
    assert answer.extras["p_falls_back"] == lost * F(10, 36)
    assert answer.dist.to_fractions() == {(0, "-"): 1 - lost, (1, "-"): lost * F(26, 36),
                                          (1, "falling back"): lost * F(10, 36)}
    # the unit's own block: its models left and its status
    assert answer.marginal("target").to_fractions() == {4: 1 - lost, 3: lost}


def test_fearless_and_below_a_quarter_never_fall_back(tmp_path: Path) -> None:
    fearless = unit_file(tmp_path, 4, 8, rules="fearless")
    five = unit_file(tmp_path, 5, 8)  # one of five is 20%
    for target in (fearless, five):
        answer = exactodds.ask("40k6", "shoot", shots=1, bs=10, strength=10, target=target, morale=True)
        assert answer.extras["p_falls_back"] == 0


def test_without_the_flag_the_answer_is_the_casualties(tmp_path: Path) -> None:
    """The joint's casualties are the answer without --morale, outcome by outcome."""
    target = str(ROOT / "examples/40k6/ork_boyz.toml")
    plain = exactodds.ask("40k6", "shoot", shots=12, bs=4, strength=5, ap=5, target=target)
    joint = exactodds.ask("40k6", "shoot", shots=12, bs=4, strength=5, ap=5, target=target, morale=True)
    assert joint.dist.map(lambda x: x.casualties) == plain.dist
    assert "p_falls_back" not in plain.extras and plain.query.get("morale") is None
    attacker = str(ROOT / "examples/40k6/tactical_squad_mixed_weapons.toml")
    plain = exactodds.ask("40k6", "fire", attacker=attacker, target=target, distance=10)
    joint = exactodds.ask("40k6", "fire", attacker=attacker, target=target, distance=10, morale=True)
    assert joint.dist.map(lambda x: x.casualties) == plain.dist


def sim_shoot(chance, shots: int, bs: int, s: int, n: int, save: int | None, ld: int):  # noqa: ANN001, ANN201
    """(casualties, status) of one attack at ``n`` one-Wound T4 models, die by die."""
    lost = sim_volley(chance, shots, bs, False, s, n, save)
    if lost == n:
        return lost, "destroyed"
    if 4 * lost >= n and not chance(two_d6_pass_pairs(ld), 36):
        return lost, "falling back"
    return lost, "-"


@settings(max_examples=10, deadline=None)
@given(st.integers(1, 3), st.integers(2, 6), st.integers(3, 6), st.integers(1, 5), st.sampled_from([None, 4, 6]),
       st.integers(5, 9))
def test_shoot_morale_matches_the_simulator(shots: int, bs: int, s: int, n: int, save: int | None, ld: int) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        target = unit_file(Path(tmp), n, ld, save)
        answer = exactodds.ask("40k6", "shoot", shots=shots, bs=bs, strength=s, target=target, morale=True)
    assert dict(answer.dist.map(tuple).to_fractions()) == tree(
        lambda roll, chance: sim_shoot(chance, shots, bs, s, n, save, ld))


def test_fire_morale_counts_every_group(tmp_path: Path) -> None:
    """Two sure shots from two weapon groups at 6 models: two lost (1/3) test at Ld 8,
    one lost (1/6) does not."""
    attacker = tmp_path / "two.toml"
    attacker.write_text('name = "Two"\n[[models]]\nname = "A"\ntoughness = 4\nwounds = 1\nbs = 10\nweapon = "gun"\n'
                        '[[models]]\nname = "B"\ntoughness = 4\nwounds = 1\nbs = 10\nweapon = "rifle"\n'
                        '[weapons.gun]\nshots = 1\nstrength = 10\n[weapons.rifle]\nshots = 1\nstrength = 10\n')
    target = unit_file(tmp_path, 6, 8)
    answer = exactodds.ask("40k6", "fire", attacker=str(attacker), target=target, morale=True)
    p = F(35, 36) * F(5, 6)
    assert answer.extras["p_falls_back"] == p * p * F(10, 36)


@pytest.mark.parametrize(("params", "message"), [
    ({"target": "examples/40k6/rhino.toml"}, "a vehicle takes no morale check"),
    ({"rules": ["gets-hot"]}, "gets-hot is not modelled"),
    ({"outcome": "unsaved-wounds"}, "reports casualties and status"),
])
def test_refused_combinations(params: dict, message: str) -> None:
    base = {"shots": 1, "bs": 4, "strength": 4, "target": str(ROOT / "examples/40k6/ork_boyz.toml"), "morale": True}
    if "target" in params:
        params = {**params, "target": str(ROOT / params["target"])}
    with pytest.raises(InputError, match=message):
        exactodds.ask("40k6", "shoot", **{**base, **params})


def test_a_unit_without_leadership_is_refused(tmp_path: Path) -> None:
    plain = tmp_path / "plain.toml"
    plain.write_text('name = "Plain"\n[[models]]\nname = "P"\ncount = 4\ntoughness = 4\nwounds = 1\n')
    with pytest.raises(InputError, match="leadership"):
        exactodds.ask("40k6", "shoot", shots=1, bs=4, strength=4, target=str(plain), morale=True)
