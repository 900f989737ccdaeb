"""Scenarios and the 40k6 fire / assault commands through the command line, query
files, samples, validation and sweeps; bad input answered with one line, exit 2."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest

from exactodds import ask

ROOT = Path(__file__).resolve().parents[1]
SC = ROOT / "examples" / "scenarios"
MARINES = "examples/40k6/tactical_squad_mixed_weapons.toml"
ORKS = "examples/40k6/ork_boyz_sluggas.toml"


def cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "exactodds", *args], capture_output=True, text=True, cwd=cwd)


def test_mixed_weapons_mean_casualties_by_hand() -> None:
    # at 10": 16 bolter shots hit on 3+ and wound T4 on 4+, no save against AP5 for a 6+;
    # 2 plasma shots and 1 krak missile wound on 2+, no save: 16/3 + 10/9 + 5/9 = 7 casualties
    out = json.loads(cli("scenario", str(SC / "mixed_weapons.toml"), "--format", "json").stdout)
    assert F(out["mean_survivors"]["orks"]) == 13
    assert F(out["p_destroyed"]["orks"]) == 0
    fire = ask("40k6", "fire", attacker=MARINES, target=ORKS, distance=10)
    assert fire.mean == 7
    assert list(fire.extras["mean_casualties_after"].values()) == [F(16, 3), F(58, 9), 7]


def test_assault_charge_stage_and_figures() -> None:
    a = ask("40k6", "assault", attacker=ORKS, defender=MARINES, distance=7)
    assert a.extras["p_charge_fails"] == F(15, 36)   # 2D6 >= 7: 21 of 36
    charge = ask("40k6", "assault", attacker=ORKS, defender=MARINES, distance=7, stage="charge")
    assert charge.dist.prob(lambda x: x.attacker_status == "locked") == F(21, 36)
    with pytest.raises(Exception, match="not a stage"):
        ask("40k6", "assault", attacker=ORKS, defender=MARINES, distance=7, stage="round 9")


def test_turns_report_each_turn_and_stay_monotone() -> None:
    out = json.loads(cli("scenario", str(SC / "two_units_five_turns.toml"), "--format", "json").stdout)
    by_turn = [F(p) for p in out["p_destroyed_by_turn"]["orks"].values()]
    assert len(by_turn) == 5 and by_turn == sorted(by_turn) and by_turn[0] < by_turn[-1] < 1


def test_query_file_sample_and_validate(tmp_path: Path) -> None:
    q = tmp_path / "q.toml"
    q.write_text(f'system = "scenario"\n[params]\nfile = "{SC / "mixed_weapons.toml"}"\n')
    assert cli("run", str(q)).stdout == cli("scenario", str(SC / "mixed_weapons.toml")).stdout
    samples = cli("sample", str(q), "-n", "400", "--seed", "3")
    assert samples.returncode == 0, samples.stderr
    (tmp_path / "s.csv").write_text(samples.stdout)
    checked = cli("validate", str(q), str(tmp_path / "s.csv"))
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_a_sweep_varies_the_charge_distance(tmp_path: Path) -> None:
    out = tmp_path / "rows.csv"
    done = cli("sweep", "examples/sweeps/scenario_charge_distance.toml", "--out", str(out), "--scheduler", "local")
    assert done.returncode == 0, done.stderr
    rows = out.read_text().splitlines()[1:]
    means = {int(r.split(",")[0]): F(r.split(",")[1]) for r in rows}
    assert sorted(means) == [3, 6, 9]
    for d in (3, 9):
        one = ask("scenario", file=str(SC / "assault_through_overwatch.toml"), rounds=1, distance=d)
        assert one.dist.map(lambda x: x.marines).mean() == means[d]


BAD = {
    "unknown unit": ('[[steps]]\nkind = "shoot"\nunit = "marines"\ntarget = "gretchin"\n', "not a unit"),
    "cannot shoot": ('[[steps]]\nkind = "shoot"\nunit = "plain"\ntarget = "orks"\n', "cannot shoot"),
    "distance below 0": ('[[steps]]\nkind = "assault"\nattacker = "orks"\ndefender = "marines"\ndistance = -1\n',
                         "0 inches or more"),
    "distance over 12": ('[[steps]]\nkind = "assault"\nattacker = "orks"\ndefender = "marines"\ndistance = 13\n',
                         "over 12"),
    "unknown kind": ('[[steps]]\nkind = "ambush"\nunit = "orks"\n', "allowed kinds are"),
}


@pytest.mark.parametrize("case", BAD)
def test_bad_scenarios_get_one_line_and_exit_2(case: str, tmp_path: Path) -> None:
    steps, words = BAD[case]
    text = (f'[units.marines]\nfile = "{ROOT / MARINES}"\n[units.orks]\nfile = "{ROOT / ORKS}"\n'
            f'[units.plain]\nfile = "{ROOT / "examples/40k6/marines.toml"}"\n' + steps)
    (tmp_path / "s.toml").write_text(text)
    out = cli("scenario", "s.toml", cwd=tmp_path)
    assert out.returncode == 2 and out.stdout == ""
    assert len(out.stderr.strip().splitlines()) == 1 and words in out.stderr, out.stderr


def test_too_large_is_refused_with_its_size_before_work() -> None:
    out = cli("scenario", str(SC / "assault_through_overwatch.toml"), "--turns", "20", "--rounds", "20")
    assert out.returncode == 2 and "would need about" in out.stderr and "states" in out.stderr


def _squads_at_orks(tmp_path: Path, squads: int, turns: int, orks: int = 19) -> Path:
    """``squads`` Tactical Squads (never shot at) shoot one Ork mob of ``orks`` Boyz and a Nob for ``turns`` turns."""
    boyz = (ROOT / "examples/40k6/ork_boyz_sluggas.toml").read_text().replace("count = 19", f"count = {orks}")
    (tmp_path / "orks.toml").write_text(boyz)
    text = f'turns = {turns}\n[units.orks]\nfile = "orks.toml"\n'
    for i in range(squads):
        text += f'[units.s{i}]\nfile = "{ROOT / "examples/40k6/tactical_squad_mixed_weapons.toml"}"\n'
    for i in range(squads):
        text += f'[[steps]]\nkind = "shoot"\nunit = "s{i}"\ntarget = "orks"\nmorale = false\ndistance = 20\n'
    path = tmp_path / f"s{squads}_{turns}_{orks}.toml"
    path.write_text(text)
    return path


def test_the_work_bound_counts_only_units_a_step_can_wound(tmp_path: Path) -> None:
    """Squads that are never shot at keep one state each: a second identical squad
    shooting the same Orks doubles the bound (its steps' outcomes), not more."""
    from exactodds.profiles.scenario import load_scenario
    from exactodds.rules.wh40k6.system import scenario_work

    one, two = (load_scenario(_squads_at_orks(tmp_path, n, 5)) for n in (1, 2))
    assert scenario_work(two) == 2 * scenario_work(one)


def test_squads_shooting_80_orks_for_20_turns_answer_under_the_default_limit(tmp_path: Path) -> None:
    """About a second of work, under the default limit (the squads' own states no longer count)."""
    out = cli("scenario", str(_squads_at_orks(tmp_path, 2, 20, orks=79)), "--format", "json", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    p = json.loads(out.stdout)["p_destroyed"]["orks"]
    assert F(p) > F(999, 1000)


def test_stage_option_and_unknown_stage() -> None:
    ok = cli("scenario", str(SC / "firefight.toml"), "--stage", "orks test", "--format", "json")
    assert ok.returncode == 0
    assert json.loads(ok.stdout)["query"]["steps"] == ["orks test"]
    bad = cli("scenario", str(SC / "firefight.toml"), "--stage", "nope")
    assert bad.returncode == 2 and "stages are" in bad.stderr


def test_a_unit_file_named_twice_gives_two_equal_units() -> None:
    from exactodds.profiles.scenario import load_scenario

    sc = load_scenario(SC / "two_units_five_turns.toml")
    assert list(sc.units) == ["alpha", "bravo", "orks"]
    assert sc.units["alpha"] == sc.units["bravo"]
    assert sc.units["alpha"].size == 10 and sc.units["orks"].size == 20
