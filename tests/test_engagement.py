"""Engagement answers a player can read: per-unit marginals (JSON, CSV, Python,
``--unit``), the short default table, the plots, ``compare --label`` and the small
messages around them. Every marginal is checked against the joint distribution,
marginalised here, never against the code that computes it."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from collections import defaultdict
from fractions import Fraction as F
from pathlib import Path

import pytest

import exactodds
from exactodds.core import InputError

ROOT = Path(__file__).resolve().parent.parent
FLAGSHIP = ("40k6", "assault", "--attacker", "examples/40k6/ork_boyz_sluggas.toml",
            "--defender", "examples/40k6/tactical_squad_mixed_weapons.toml", "--distance", "7", "--rounds", "3")


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "exactodds", *args], capture_output=True, text=True, cwd=ROOT)


@pytest.fixture(scope="module")
def flagship_json() -> dict:
    out = run(*FLAGSHIP, "--format", "json")
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def _marginalise(outcomes: list[dict], key: str) -> dict:
    """The joint's outcomes summed by one field (exact)."""
    sums: dict = defaultdict(F)
    for o in outcomes:
        sums[o["outcome"][key]] += F(o["p"])
    return dict(sums)


def test_flagship_marginals_sum_to_one_and_agree_with_the_joint(flagship_json: dict) -> None:
    marginals = flagship_json["marginals"]
    assert list(marginals) == ["attacker", "defender"]
    joint = flagship_json["outcomes"]
    assert len(joint) == 630
    for unit in ("attacker", "defender"):
        got = {o["outcome"]: F(o["p"]) for o in marginals[unit]["outcomes"]}
        assert sum(got.values()) == 1
        assert got == _marginalise(joint, unit)
        assert [o["outcome"] for o in marginals[unit]["outcomes"]] == sorted(got)
        assert F(marginals[unit]["mean"]) == sum(k * p for k, p in got.items())
        status = {o["status"]: F(o["p"]) for o in marginals[unit]["status"]}
        assert status == _marginalise(joint, f"{unit}_status")
    assert set(_marginalise(joint, "defender")) == set(range(11))  # 0 to 10 Marines left
    assert F(marginals["attacker"]["outcomes"][0]["p"]) == F(flagship_json["p_destroyed"]["attacker"])


def test_unit_at_least_is_the_sum_over_the_joint(flagship_json: dict) -> None:
    expected = sum((F(o["p"]) for o in flagship_json["outcomes"] if o["outcome"]["defender"] >= 5), F(0))
    out = run(*FLAGSHIP, "--unit", "defender", "--at-least", "5", "--format", "json")
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert (got["figure"], got["k"], F(got["value"])) == ("at_least", 5, expected)
    assert got["query"]["unit"] == "defender"
    assert run(*FLAGSHIP, "--unit", "defender", "--at-least", "5").stdout == "≈ 0.5858 (exact: 626 digits, --exact)\n"


def test_unit_csv_is_the_marginal(flagship_json: dict) -> None:
    out = run(*FLAGSHIP, "--unit", "attacker", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out.stdout)))
    assert {int(r["outcome"]): F(r["p"]) for r in rows} == _marginalise(flagship_json["outcomes"], "attacker")
    assert F(rows[0]["p_status.charge failed"]) == F(5, 12)  # the charge roll alone: 2D6 short of 7


def test_a_bad_unit_name_is_one_line_naming_the_units() -> None:
    out = run(*FLAGSHIP, "--unit", "marines")
    assert (out.returncode, out.stdout) == (2, "")
    assert out.stderr == "Error: unit 'marines' is not in this answer; its units are attacker, defender\n"
    out = run(*FLAGSHIP, "--at-least", "1")
    assert out.returncode == 2
    assert out.stderr == ("Error: at least needs one number per outcome; this answer holds several units: choose "
                          "one with --unit NAME (unit=NAME), one of attacker, defender\n")


def test_the_default_engagement_table_is_short() -> None:
    out = run(*FLAGSHIP)
    lines = out.stdout.splitlines()
    assert len(lines) <= 45 and max(map(len, lines)) <= 100
    assert "attacker: Ork Boyz left (of 20)" in lines
    assert "defender: Tactical Squad left (of 10)" in lines
    assert "  P(destroyed)     0.1674     P(at least  6 left)  0.5233" in lines
    assert "  P(charge failed)  5/12 ≈ 0.4167    P(at least 17 left)  0.5496" in lines
    assert "digits)" not in "\n".join(lines[:-4])  # no shortened fraction in the blocks or the joint
    assert "… 620 less likely outcomes, total 0.4682 (--joint shows every outcome)" in lines
    joint = run(*FLAGSHIP, "--joint").stdout.splitlines()
    assert "… 605 less likely outcomes, total 0.2976" in joint


@pytest.mark.parametrize("args", [
    ("scenario", "examples/scenarios/hh3_exchange.toml"),
    ("scenario", "examples/scenarios/hd_shots_into_melee.toml"),
    ("40k6", "fight", "--attacker", "examples/40k6/assault_squad.toml", "--defender", "examples/40k6/ork_boyz.toml"),
    ("40k6", "fire", "--attacker", "examples/40k6/plasma_veterans.toml", "--target", "examples/40k6/marines.toml"),
])
def test_every_engagement_fits_the_screen(args: tuple[str, ...]) -> None:
    lines = run(*args).stdout.splitlines()
    assert len(lines) <= 45 and max(map(len, lines)) <= 100
    assert "most probable outcomes:" in lines


def test_scenario_marginals_per_unit_and_per_turn() -> None:
    answer = exactodds.ask("scenario", None, file="examples/scenarios/locked_fight.toml")
    orks = answer.marginal("orks")
    joint: dict = defaultdict(F)
    for x, p in answer.dist.items():
        joint[x.orks] += p
    assert dict(orks.items()) == dict(joint) and sum(joint.values()) == 1
    assert orks.pmf(0) == answer.extras["p_destroyed"]["orks"]
    assert answer.unit("orks").extras["p_status"]["swept"] == answer.dist.prob(lambda x: x.orks_status == "swept")
    five = exactodds.ask("scenario", None, file="examples/scenarios/two_units_five_turns.toml", turns=2)
    one = exactodds.ask("scenario", None, file="examples/scenarios/two_units_five_turns.toml", turns=1)
    assert five.marginal("orks", turn=1) == one.marginal("orks")  # turn 1 of two is the one-turn scenario
    assert five.marginal("orks", turn=2) == five.marginal("orks")
    assert five.marginal("alpha") == exactodds.Dist({10: 1})  # nobody shoots back
    with pytest.raises(InputError, match=r"^turn 3 is not allowed: this answer has turns 1 to 2$"):
        five.marginal("orks", turn=3)


def test_fight_and_gets_hot_units() -> None:
    fight = exactodds.ask("40k6", "fight", attacker="examples/40k6/assault_squad.toml",
                          defender="examples/40k6/ork_boyz.toml", attacker_charged=True)
    assert fight.unit_names() == ["attacker", "defender"]
    assert fight.marginal("attacker") == fight.dist.map(lambda x: x.attacker_survivors)
    assert fight.unit("defender").extras["p_falls_back"] == fight.extras["p_defender_falls_back"]
    shoot = exactodds.Query.from_toml(ROOT / "examples/queries/40k6_plasma_gets_hot.toml").answer()
    # three plasma guns, rapid fire: six shots, two per model; a 1 to hit wounds the firer (5+ save)
    assert shoot.marginal("target") == shoot.dist.map(lambda c: 5 - c)
    firing = shoot.marginal("firing")
    lost_one = 1 - (1 - F(1, 6) * F(2, 3)) ** 2  # a model is lost if either of its shots gets hot unsaved
    assert firing == exactodds.Dist({3 - k: F(3 if k in (1, 2) else 1) * lost_one ** k * (1 - lost_one) ** (3 - k)
                                     for k in range(4)})
    assert "marginals" in json.loads(shoot.to_json())


def test_single_answers_have_no_marginals() -> None:
    answer = exactodds.ask("pool", None, n=3, hit="4+")
    assert "marginals" not in answer.to_json() and not answer.composite
    with pytest.raises(InputError, match="this answer has no units"):
        answer.marginal("attacker")


def test_engagement_plots(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    path = tmp_path / "assault.png"
    out = run(*FLAGSHIP, "--plot", str(path))
    assert out.returncode == 0 and path.stat().st_size > 10_000
    answer = exactodds.ask("40k6", "fire", attacker="examples/40k6/plasma_veterans.toml",
                           target="examples/40k6/marines.toml")
    axes = answer.plot()
    assert [ax.get_xlabel() for ax in axes] == ["Marines left", "Plasma Veterans left", "Marines left"]
    assert axes[2].get_ylabel() == "Plasma Veterans left"
    import matplotlib.pyplot as plt

    plt.close("all")


def test_compare_labels_and_units(tmp_path: Path) -> None:
    a = " ".join(FLAGSHIP[:-4])
    out = run("compare", "--query", f"{a} --distance 7 --rounds 1 --unit defender", "--query",
              f"{a} --distance 4 --rounds 1 --unit defender", "--label", "7 inches", "--label", "4 inches")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("7 inches: exactodds 40k6 assault ") and lines[0].endswith(" --unit defender")
    assert lines[1].startswith("4 inches: ")
    assert "  4 inches - 7 inches" in out.stdout
    bad = run("compare", "--query", "pool 3 --hit 4+", "--query", "pool 3 --hit 3+", "--label", "a")
    assert bad.returncode == 2
    assert "--label names each query: give one per query (2), not 1" in bad.stderr


def test_small_messages() -> None:
    out = run("40k", "shoot")
    assert out.stderr.startswith("Error: No such command '40k'; did you mean '40k6'?")
    out = run("40k6", "shoot", "--shots", "3", "--bs", "4", "--strength", "4", "--ap", "-",
              "--target", "examples/40k6/marines.toml")
    assert out.returncode == 2 and "'-' is not an AP: use a whole number from 1 to 6; leave --ap out for no AP" \
        in out.stderr
    out = run("40k6", "assault", "--attacker", "examples/40k6/ork_boyz.toml", "--defender", "examples/40k6/rhino.toml",
              "--distance", "6", "--rounds", "2")
    assert out.returncode == 2 and "a charged vehicle is not locked in combat, so there is one round" in out.stderr
    help_lines = run("--help").stdout.splitlines()
    at = next(i for i, line in enumerate(help_lines) if line.lstrip().startswith("scenario"))
    shown = [help_lines[at].split("scenario", 1)[1].strip()] + [line.strip() for line in help_lines[at + 1:at + 3]]
    assert shown[0].startswith("The joint end state of a scenario") and not any("  " in x for x in shown)


def test_a_vehicle_counts_hull_points(tmp_path: Path) -> None:
    (tmp_path / "s.toml").write_text(
        f'system = "hh3"\n[units.heavies]\nfile = "{ROOT / "examples/hh3/unit_heavy_support_squad.toml"}"\n'
        f'[units.rhino]\nfile = "{ROOT / "examples/hh3/rhino.toml"}"\n'
        '[[steps]]\nkind = "shoot"\nname = "lascannons"\nunit = "heavies"\ntarget = "rhino"\n')
    answer = exactodds.ask("scenario", None, file=str(tmp_path / "s.toml"))
    hull = answer.marginal("rhino")
    assert set(hull.support()) == {0, 1, 2, 3}  # 3 Hull Points, never "casualties"
    assert hull == answer.dist.map(lambda x: x.rhino)
    assert hull.pmf(0) == answer.extras["p_destroyed"]["rhino"]
    assert "rhino: Legion Rhino: Hull Points left (of 3)" in answer.to_table().splitlines()
