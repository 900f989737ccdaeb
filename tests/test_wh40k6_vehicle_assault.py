"""Charging a vehicle in 40K 6th edition: blows on its rear armour, checked
against the die-by-die simulator of tests/brute.py, hand-worked values, the
command line and a scenario."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds.core import InputError
from exactodds.rules.wh40k6.melee import MeleeWeapon
from exactodds.rules.wh40k6.units import Melee, Model, Unit
from exactodds.rules.wh40k6.vehicle_assault import VehicleBlows, p_vehicle_hit
from exactodds.rules.wh40k6.vehicles import Vehicle, VehicleState
from tests.brute import blows_on_vehicle

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples"
HIT_ON = {"none": None, "combat": 4, "flat-out": 6}


def _unit(count: int, attacks: int, strength: int, weapon: MeleeWeapon | None = None, rules: tuple = ()) -> Unit:
    model = Model(4, 1, "Boy", count, melee=Melee(4, 2, attacks, strength, 7), rules=rules,
                  melee_weapons=(weapon.name,) if weapon else ())
    return Unit((model,), "Boyz", melee_weapons=(weapon,) if weapon else ())


def _engine(unit: Unit, vehicle: Vehicle, moved: str) -> dict:
    blows = VehicleBlows(unit, vehicle, moved)
    d = blows.strike((unit.models[0].count,), VehicleState(vehicle.hull_points, ()))
    out: dict = {}
    for v, p in d.to_fractions().items():
        key = (v.hull_points, v.fate or ", ".join(v.statuses))
        out[key] = out.get(key, 0) + p
    return out


def test_one_boy_three_blows_at_rear_armour_10() -> None:
    """One Ork Boy, S4, 2 Attacks +1 charging, against a vehicle that did not move:
    each blow hits; D6 + 4 against 10 glances on a 6 and never penetrates, so
    P(no glance) = (5/6)^3 and at most one... each glance is one Hull Point."""
    rhino = Vehicle(11, 11, 10, 3, "Rhino")
    got = _engine(_unit(1, 2, 4), rhino, "none")
    assert got == {(3, ""): Fraction(125, 216), (2, ""): Fraction(75, 216), (1, ""): Fraction(15, 216),
                   (0, "wrecked"): Fraction(1, 216)}
    assert 1 - got[(3, "")] == 1 - Fraction(5, 6) ** 3


def test_moving_vehicles_are_harder_to_hit() -> None:
    assert [p_vehicle_hit(m) for m in ("none", "combat", "flat-out")] == [1, Fraction(1, 2), Fraction(1, 6)]
    # a single S4 blow at AV10 of a vehicle that moved flat out: glances with 1/6 x 1/6
    got = _engine(_unit(1, 0, 4), Vehicle(11, 11, 10, 3), "flat-out")
    assert got[(2, "")] == Fraction(1, 36)
    with pytest.raises(InputError, match="vehicle_moved"):
        p_vehicle_hit("fast")


def test_power_klaw_penetrates_and_rolls_damage() -> None:
    """One S4 Nob with a klaw (x2: S8, AP2), 1 Attack +1 charging... he has one
    weapon, so 2 blows at S8 against AV10: D6 + 8 >= 11 penetrates on 3+ (4/6),
    glances on a 2 (1/6). A penetrating hit at AP2 rolls D6 + 1: explodes on 6."""
    klaw = MeleeWeapon("power klaw", "x2", 2, ("unwieldy", "specialist-weapon"))
    got = _engine(_unit(1, 1, 4, klaw), Vehicle(11, 11, 10, 3), "none")
    # explodes: a penetrating hit (4/6) rolling 6 (1/6), on the first blow, or the second after no explosion
    p_explode_one = Fraction(4, 6) * Fraction(1, 6)
    assert got[(0, "explodes")] == p_explode_one + (1 - p_explode_one) * p_explode_one
    assert sum(got.values()) == 1


def test_armourbane_rolls_two_dice() -> None:
    """S3 chainfist-like blow with Armourbane against AV10: 2D6 + 3 >= 10, P(glance or
    penetrate) = P(2D6 >= 7) = 21/36."""
    bane = MeleeWeapon("bane", "user", None, ("armourbane",))
    got = _engine(_unit(1, 0, 3, bane), Vehicle(11, 11, 10, 3), "none")
    assert 1 - got[(3, "")] == Fraction(21, 36)


@settings(max_examples=25, deadline=None)
@given(count=st.integers(1, 2), attacks=st.integers(0, 1), strength=st.integers(3, 9),
       ap=st.sampled_from([None, 1, 2, 4]), rule=st.sampled_from(["", "armourbane", "rending"]),
       moved=st.sampled_from(list(HIT_ON)), rear=st.integers(10, 12), hp=st.integers(1, 3),
       open_topped=st.booleans())
def test_blows_equal_the_die_by_die_simulator(count: int, attacks: int, strength: int, ap: int | None, rule: str,
                                              moved: str, rear: int, hp: int, open_topped: bool) -> None:
    weapon = MeleeWeapon("w", strength, ap, (rule,) if rule else ())
    unit = _unit(count, attacks, 4, weapon)
    vehicle = Vehicle(12, 12, rear, hp, open_topped=open_topped)
    blows = [(strength, ap, rule == "armourbane", rule == "rending")] * (count * (attacks + 1))
    assert _engine(unit, vehicle, moved) == blows_on_vehicle(blows, HIT_ON[moved], rear, hp, open_topped)


def test_hammer_of_wrath_strikes_first_at_unmodified_strength() -> None:
    """Hammer of Wrath: one automatic hit at S4 before the blows (Furious Charge does not add)."""
    unit = _unit(1, 0, 4, rules=("hammer-of-wrath", "furious-charge"))
    got = _engine(unit, Vehicle(11, 11, 10, 3), "flat-out")
    expected = blows_on_vehicle([(4, None, False, False)], None, 10, 3)
    expected = {k: p for k, p in expected.items()}
    after = {}
    for (hp, st_), p in expected.items():  # then the charge blow: S5 (Furious Charge) on 6+
        for k, q in blows_on_vehicle([(5, None, False, False)], 6, 10, hp).items() if hp else [((0, st_), 1)]:
            after[k] = after.get(k, 0) + p * q
    assert got == after


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "exactodds", *args], capture_output=True, text=True, cwd=ROOT)


def test_cli_charges_the_rhino() -> None:
    run = _cli("40k6", "assault", "--attacker", "examples/40k6/ork_boyz_sluggas.toml", "--defender",
               "examples/40k6/rhino.toml", "--distance", "7", "--format", "json")
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["query"]["vehicle_moved"] == "none" and "overwatch" not in out["query"]
    # the charge at 7": P(2D6 < 7) = 15/36
    assert Fraction(out["p_charge_fails"]) == Fraction(5, 12)


def test_cli_refusals_are_one_line() -> None:
    base = ["40k6", "assault", "--attacker", "examples/40k6/ork_boyz_sluggas.toml", "--distance", "7"]
    run = _cli(*base, "--defender", "examples/40k6/rhino.toml", "--rounds", "3")
    assert run.returncode == 2 and "one round of blows" in run.stderr and len(run.stderr.strip().splitlines()) == 1
    run = _cli(*base, "--defender", "examples/40k6/marines.toml", "--vehicle-moved", "combat")
    assert run.returncode == 2 and "--vehicle-moved" in run.stderr and len(run.stderr.strip().splitlines()) == 1


def test_scenario_charges_the_rhino() -> None:
    run = _cli("scenario", str(EX / "scenarios" / "orks_charge_rhino.toml"), "--format", "json")
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["query"]["steps"] == ["orks charge: charge", "orks charge: blows"]


def test_a_vehicle_only_defends_an_assault(tmp_path: Path) -> None:
    sc = tmp_path / "s.toml"
    sc.write_text(f'[units.orks]\nfile = "{EX / "40k6" / "ork_boyz.toml"}"\n'
                  f'[units.rhino]\nfile = "{EX / "40k6" / "rhino.toml"}"\n'
                  '[[steps]]\nkind = "morale"\nunit = "rhino"\n')
    run = _cli("scenario", str(sc))
    assert run.returncode == 2 and "can only be charged" in run.stderr


def test_docs_figures_by_hand() -> None:
    """The Rhino keeps its 3 Hull Points when the charge at 7" fails (5/12) or the Nob's
    4 klaw blows all fail: still (1/6)^4, or (7/12)^4 when it moved at combat speed."""
    run = _cli("40k6", "assault", "--attacker", "examples/40k6/ork_boyz_sluggas.toml", "--defender",
               "examples/40k6/rhino.toml", "--distance", "7", "--format", "json")
    defender = json.loads(run.stdout)["marginals"]["defender"]["outcomes"]
    assert Fraction(next(o["p"] for o in defender if o["outcome"] == 3)) == \
        Fraction(5, 12) + Fraction(7, 12) * Fraction(1, 6) ** 4 == Fraction(6487, 15552)
    run = _cli("scenario", str(EX / "scenarios" / "orks_charge_rhino.toml"), "--format", "json")
    rhino = json.loads(run.stdout)["marginals"]["rhino"]["outcomes"]
    assert Fraction(next(o["p"] for o in rhino if o["outcome"] == 3)) == \
        Fraction(5, 12) + Fraction(7, 12) * Fraction(7, 12) ** 4 == Fraction(120487, 248832)


def test_hammer_of_wrath_is_ignored_without_a_charge(tmp_path: Path) -> None:
    """Hammer of Wrath is a unit-file rule a unit keeps when it does not charge: a fight
    without --attacker-charged answers as if the line did not have it."""
    text = (EX / "40k6" / "assault_squad.toml").read_text()
    assert '"hammer-of-wrath"' in text
    plain = tmp_path / "plain.toml"
    plain.write_text(text.replace('"hammer-of-wrath", ', "").replace(', "hammer-of-wrath"', "")
                     .replace('"hammer-of-wrath"', ""))
    assert "hammer" not in plain.read_text()
    args = ["--defender", "examples/40k6/ork_boyz.toml", "--format", "json"]
    with_rule = json.loads(_cli("40k6", "fight", "--attacker", "examples/40k6/assault_squad.toml", *args).stdout)
    without = json.loads(_cli("40k6", "fight", "--attacker", str(plain), *args).stdout)
    assert with_rule["outcomes"] == without["outcomes"]
    charged = json.loads(_cli("40k6", "fight", "--attacker", "examples/40k6/assault_squad.toml", *args,
                              "--attacker-charged").stdout)
    assert charged["outcomes"] != without["outcomes"]
