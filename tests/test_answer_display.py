"""Answers people can read at a glance: the text tables of ``Answer`` and ``print(dist)``,
single figures, and the CSV extras.

Expected values are written out here (or computed from math.comb), never by the
code under test.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
import shlex
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest

from exactodds import Dist, d6, successes
from exactodds.answer import Answer
from exactodds.core import InputError
from exactodds.render import TABLE_ROWS, dist_text
from exactodds.core.labels import Labelled, Named

ROOT = Path(__file__).resolve().parent.parent


def cli(*args: str) -> str:
    out = subprocess.run([sys.executable, "-m", "exactodds", *args], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    return out.stdout


# ------------------------------------------------------------ the window
def test_pool_100_shows_the_likeliest_window_and_the_hidden_mass() -> None:
    """``pool 100 --hit 4+`` is Binomial(100, 1/2): the 25 likeliest consecutive outcomes are
    38..62; 0..37 and 63..100 (38 outcomes each) hold sum C(100, k) / 2^100 for k < 38."""
    out = cli("pool", "100", "--hit", "4+").splitlines()
    hidden = F(sum(math.comb(100, k) for k in range(38)), 2**100)
    assert f"{float(hidden):.4g}" == "0.006016"
    assert out[2] == "… 38 outcomes below, total 0.006016"
    rows = [line.split()[0] for line in out[3:3 + TABLE_ROWS]]
    assert rows == [str(k) for k in range(38, 63)] and "50" in rows
    assert out[3 + TABLE_ROWS] == "… 38 outcomes above, total 0.006016"
    assert not any(" 0.000000" in line or line.split()[0] in ("0", "100") for line in out[1:])
    # the row of 50: C(100, 50) / 2^100 = 0.07959, P(>= 50) = 0.5398
    row50 = next(line for line in out if line.split()[0] == "50").split()
    assert row50[-2:] == ["0.07959", "0.5398"]
    # with exact=True (CLI --exact) the hidden mass is also given as the exact fraction
    exact = Answer(successes(100, F(1, 2))).to_table(exact=True)
    assert f"… 38 outcomes below, total {hidden}  ≈ 0.006016" in exact
    assert str(F(math.comb(100, 50), 2**100)) in exact


def test_all_rows_shows_every_outcome() -> None:
    table = Answer(successes(100, F(1, 2))).to_table(all_rows=True)
    lines = table.splitlines()
    assert "…" not in table and sum(1 for line in lines if re.match(r"\s*\d+\s", line)) == 101
    assert Answer(successes(100, F(1, 2))).render("table", all_rows=True) == table


def test_short_supports_are_shown_whole() -> None:
    lines = dist_text(successes(24, F(1, 2))).splitlines()
    assert len(lines) == 26 and "…" not in "\n".join(lines)


def test_unordered_outcomes_keep_the_likeliest() -> None:
    dist = Dist.from_weights({f"face {i:02d}": i for i in range(1, 31)})
    lines = dist_text(dist, max_rows=5).splitlines()
    assert [line.split()[1] for line in lines[1:6]] == ["26", "27", "28", "29", "30"]
    assert lines[6] == f"… 25 less likely outcomes, total 65/93  ≈ 0.6989"  # (1 + ... + 25) / 465


# ---------------------------------------------------------- line lengths
def readme_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    cmds = []
    for block in re.findall(r"```console\n(.*?)```", readme, re.S):
        for line in block.splitlines():
            if line.startswith("$ exactodds "):
                cmd = line[2:].split("#")[0].strip()
                if not any(x in cmd for x in ("--out", "grid.toml", "--format", " validate ")):
                    cmds.append(cmd)
    return cmds


def test_readme_has_the_fight_example() -> None:
    assert any("40k6 fight" in c for c in readme_commands()) and len(readme_commands()) >= 14


@pytest.mark.parametrize("command", readme_commands())
def test_no_table_line_is_longer_than_100(command: str) -> None:
    out = cli(*shlex.split(command)[1:])
    assert max(len(line) for line in out.splitlines()) <= 100, out


def test_the_fight_reads_at_a_glance() -> None:
    words = ("40k6", "fight", "--attacker", "examples/40k6/assault_squad.toml",
             "--defender", "examples/40k6/ork_boyz.toml", "--attacker-charged")
    lines = cli(*words).splitlines()
    assert lines[2:4] == ["attacker: Assault Squad left (of 5)",
                          "  P(destroyed)   0.01241     P(at least 1 left)  0.9876"]
    assert "defender: Ork Boyz left (of 11)" in lines
    assert "attacker_survivors  defender_survivors  decimal" in lines
    assert "                 3                   6  0.06469" in lines  # the most probable first
    assert "… 55 less likely outcomes, total 0.4850 (--joint shows every outcome)" in lines
    assert len(lines) <= 45 and max(map(len, lines)) <= 100
    out = cli(*words, "--joint")  # the whole joint, as a single answer's table
    lines = out.splitlines()
    assert "attacker_survivors  defender_survivors  probability  decimal" in lines
    assert re.search(r"^p_fall_back: ≈ 0\.8012 \(exact: \d+ digits, --exact\)$", out, re.M)
    assert "… 40 less likely outcomes, total 0.1551" in lines
    assert max(map(len, lines)) <= 100


def test_exact_prints_long_fractions_whole() -> None:
    dist = successes(100, F(1, 2))
    big = F(math.comb(100, 50), 2**100)
    answer = Answer(dist, extras={"p_big": big})
    assert f"p_big: ≈ 0.07959 (exact: {len(str(big)) - 1} digits, --exact)" in answer.to_table()
    assert f"p_big: {big}  ≈ 0.07959" in answer.to_table(exact=True)


# --------------------------------------------------------------- figures
def test_whole_means_are_whole_in_tables_only() -> None:
    answer = Answer(d6 + d6)
    assert "\nmean: 7\n" in answer.to_table() + "\n"
    assert json.loads(answer.to_json())["mean"] == "7/1"
    assert "mean: 7/2  ≈ 3.500" in Answer(d6).to_table()


def test_single_figures() -> None:
    answer = Answer(d6 + d6, {"dice": "2d6"}, {"p_success": F(5, 12)})
    assert answer.figure("at_least", 8) == F(15, 36)
    assert answer.figure("at_most", 4) == F(6, 36)
    assert answer.figure("mean") == 7 and answer.figure("p_success") == F(5, 12)
    assert answer.render_figure("at_least", 8) == "5/12  ≈ 0.4167"
    assert answer.render_figure("at_most", 12) == "1"
    assert answer.render_figure("mean") == "7"
    assert json.loads(answer.render_figure("at_least", 8, "json")) == {
        "query": {"dice": "2d6"}, "figure": "at_least", "k": 8, "value": "5/12", "value_float": 5 / 12}
    assert answer.render_figure("at_most", 4, "csv").splitlines() == [
        "figure,k,value,value_float", f"at_most,4,1/6,{1 / 6!r}"]
    with pytest.raises(InputError, match="needs a number k"):
        answer.figure("at_least")
    with pytest.raises(InputError, match="not known; this answer has at_least, at_most, mean, p_success"):
        answer.figure("median")
    composite = Answer(Dist.uniform(["a", "b"]))
    with pytest.raises(InputError, match="needs numeric outcomes"):
        composite.figure("at_least", 1)
    with pytest.raises(InputError, match="no mean"):
        composite.figure("mean")


def test_long_single_figures_are_shortened_unless_exact() -> None:
    dist = successes(100, F(1, 2))
    tail = F(sum(math.comb(100, k) for k in range(60, 101)), 2**100)
    answer = Answer(dist)
    assert answer.figure("at_least", 60) == tail
    assert answer.render_figure("at_least", 60) == f"≈ 0.02844 (exact: {len(str(tail)) - 1} digits, --exact)"
    assert answer.render_figure("at_least", 60, exact=True) == f"{tail}  ≈ 0.02844"


# ------------------------------------------------------------------- CSV
def test_csv_carries_every_extra_with_a_float_twin() -> None:
    rows = list(csv.DictReader(io.StringIO(cli("40k6", "charge", "--distance", "8", "--format", "csv"))))
    assert list(rows[0]) == ["outcome", "p", "p_float", "p_at_least", "p_at_least_float", "mean", "mean_float",
                             "p_success", "p_success_float"]
    assert len(rows) == 11 and all(r["p_success"] == "5/12" and float(r["p_success_float"]) == 5 / 12 for r in rows)
    assert rows[6]["outcome"] == "8" and rows[6]["p_at_least"] == "5/12" and float(rows[6]["p_at_least_float"]) == 5 / 12
    assert rows[0]["mean"] == "7/1"


def test_csv_extras_of_a_composite_answer() -> None:
    rows = list(csv.DictReader(io.StringIO(cli(
        "hh3", "shoot", "--attacker", "examples/hh3/heavy_support_squad.toml",
        "--target", "examples/hh3/rhino.toml", "--format", "csv"))))
    for name in ("panic", "routed", "destroyed"):
        assert f"{name}_float" in rows[0] and len({r[name] for r in rows}) == 1
    assert rows[0]["panic"] == "0/1" and rows[0]["panic_float"] == "0.0"
    hd = list(csv.DictReader(io.StringIO(cli("hd", "shoot", "--dice", "3", "--target-def", "4", "--engaged-def", "3",
                                              "--engaged-def", "5", "--range-difficulty", "4", "--format", "csv"))))
    assert hd[0]["p_recipient.target"] == "19/54" and float(hd[0]["p_recipient.none_float"]) == 8 / 27
    assert hd[0]["p_friend_hit"] == "19/54" and hd[0]["difficulty"] == "5" and "difficulty_float" not in hd[0]


def test_pandas_reads_the_csv_with_no_options() -> None:
    pd = pytest.importorskip("pandas")
    df = pd.read_csv(io.StringIO(cli("40k6", "charge", "--distance", "8", "--format", "csv")))
    assert df.p_success[0] == "5/12" and df.p_success_float[0] == 5 / 12 and len(df) == 11


# ------------------------------------------------------ composite labels
def test_hull_points_left_name_their_models() -> None:
    out = cli("hh3", "shoot", "--attacker", "examples/hh3/heavy_support_squad.toml",
              "--target", "examples/hh3/rhino.toml", "--show", "left")
    lines = out.splitlines()
    at = lines.index("Hull Points left, per model (file order):")
    assert lines[at + 1].split() == ["Rhino", "probability", "decimal"]
    assert lines[at + 2].split() == ["0", "2167820/4782969", "0.4532"]
    data = json.loads(cli("hh3", "shoot", "--attacker", "examples/hh3/heavy_support_squad.toml",
                          "--target", "examples/hh3/rhino.toml", "--show", "left", "--format", "json"))
    assert data["outcomes"][0]["outcome"] == [0]  # JSON keeps the plain list


def test_wounds_left_merge_runs_of_one_model_name() -> None:
    names = ("Legionary",) * 3 + ("Apothecary",)
    dist = Dist.from_weights({Labelled((1, 1, 0, 2), names, "Wounds left"): 1,
                              Labelled((1, 1, 1, 2), names, "Wounds left"): 3})
    lines = dist_text(dist).splitlines()
    assert lines[0] == "Wounds left, per model (file order):"
    assert lines[1].split() == ["Legionary", "×3", "Apothecary", "probability", "decimal"]
    assert lines[2].split() == ["1", "1", "0", "2", "1/4", "0.2500"]
    assert Labelled((1, 2), ("a", "b"), "x") == (1, 2) and hash(Labelled((1, 2))) == hash((1, 2))


def test_hell_dorado_recipients_in_their_natural_order() -> None:
    out = cli("hd", "shoot", "--dice", "3", "--target-def", "4", "--engaged-def", "3", "--engaged-def", "5",
              "--range-difficulty", "4")
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("recipient  hits"))
    order = [line.split()[0] for line in lines[at + 1:at + 11]]
    assert order == ["target"] * 3 + ["engaged-1"] * 3 + ["engaged-2"] * 3 + ["none"]
    block = lines[lines.index("p_recipient:") + 1:lines.index("p_recipient:") + 5]
    assert [line.split()[0] for line in block] == ["target", "engaged-1", "engaged-2", "none"]
    assert Named("target", 3) == "target" and hash(Named("target", 3)) == hash("target")


# ----------------------------------------------------------- print(dist)
def test_str_of_a_dist_is_the_readable_table() -> None:
    assert str(d6 + d6) == """11 outcomes 2..12, mean 7
outcome  probability  decimal    P(>=)
      2         1/36  0.02778        1
      3         1/18  0.05556   0.9722
      4         1/12  0.08333   0.9167
      5          1/9   0.1111   0.8333
      6         5/36   0.1389   0.7222
      7          1/6   0.1667   0.5833
      8         5/36   0.1389   0.4167
      9          1/9   0.1111   0.2778
     10         1/12  0.08333   0.1667
     11         1/18  0.05556  0.08333
     12         1/36  0.02778  0.02778"""
    assert str(Dist.uniform(["hit", "miss", "miss"])) == """2 outcomes
outcome  probability  decimal
hit              1/3   0.3333
miss             2/3   0.6667"""
    big = str(successes(100, F(1, 2))).splitlines()
    assert big[0] == "101 outcomes 0..100, mean 50" and big[2] == "… 38 outcomes below, total 0.006016"
    assert big[-1].endswith("dist_text(dist, exact=True) prints it whole")
    assert repr(d6 + d6).startswith("Dist(11 outcomes")  # repr stays one line


def test_labelled_values_survive_pickling() -> None:
    """Sweeps send answers between processes."""
    import pickle

    named = pickle.loads(pickle.dumps(Named("engaged-1", 1)))
    assert named == "engaged-1" and named.position == 1 and isinstance(named, Named)
    left = pickle.loads(pickle.dumps(Labelled((3, 1), ("Rhino", "Rhino"), "Hull Points left")))
    assert left == (3, 1) and left.names == ("Rhino", "Rhino") and left.what == "Hull Points left"
