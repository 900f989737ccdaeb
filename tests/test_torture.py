"""Torture tests: questions far too big and files built to hurt, each run as a
real command in a subprocess with a memory cap and a timeout.

The contract (docs/errors.md, "Bounded work"): with the default limit, a
question the engine accepts is answered within 30 s and 2 GB; anything bigger
is refused before the work, with its size and the option that raises the
limit. Each case here either answers (exit 0) or is refused with exit 2 and
exactly one line on standard error, quickly. The limits asserted are generous,
and in processor seconds (5 s for a refusal), which do not grow on a busy machine
as the time on the clock does; the measured figures are in the docs. Unlike the
random fuzzers, every input is chosen by hand: the ones that used to run for
minutes or run out of memory, and their near neighbours.
"""

from __future__ import annotations

import importlib.util
import json
import os
import resource
import subprocess
import sys
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
QUERY = str(ROOT / "examples" / "validation" / "bs8_query.toml")
MEMORY_CAP = 2_500 * 2**20
REFUSAL_SECONDS = 5.0


def _cap_memory() -> None:  # runs in the child, before exec
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


@dataclass
class Ran:
    code: int
    out: str
    err: str
    seconds: float
    """Processor seconds the command used (not the time on the clock, which grows when other
    programs share the machine): a refusal before the work is cheap however busy it is."""


def run(*args: str, timeout: float = 600, env: dict[str, str] | None = None, cwd: Path | None = None) -> Ran:
    """``exactodds ARGS`` in a fresh interpreter with at most 2.5 GB of address space."""
    clean = {k: v for k, v in os.environ.items()
             if k not in ("EXACTODDS_MAX_STATES", "EXACTODDS_MAX_DIGITS", "EXACTODDS_DEBUG")}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([sys.executable, "-m", "exactodds", *args], capture_output=True, text=True,
                          timeout=timeout, preexec_fn=_cap_memory, env={**clean, **(env or {})},
                          cwd=cwd or ROOT)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return Ran(proc.returncode, proc.stdout, proc.stderr, cpu)


def refused(r: Ran, *words: str) -> None:
    """Exit 2, one line on stderr mentioning each of ``words``, within the time allowed."""
    lines = r.err.strip().splitlines()
    assert r.code == 2, (r.code, r.err[-2000:])
    assert len(lines) == 1, r.err[-2000:]
    assert lines[0].startswith("Error:"), lines[0]
    for w in words:
        assert w in lines[0], (w, lines[0])
    assert r.seconds < REFUSAL_SECONDS, (r.seconds, lines[0])


def too_large(r: Ran) -> None:
    """Refused for its size, naming the limit and how to raise it."""
    refused(r)
    line = r.err.strip()
    assert "over the limit" in line or "over Python's limit" in line, line
    assert "states" in line or "digits" in line, line


def answered(r: Ran) -> dict:
    """Exit 0 with a JSON answer (the command was given --format json)."""
    assert r.code == 0, (r.code, r.err[-2000:])
    assert r.err == "", r.err[-2000:]
    return json.loads(r.out)


# ------------------------------------------------------------ rerolls up to K
def test_master_crafted_for_every_shot_is_every_failed_hit_rerolled():
    # BS 4 hits on 3+ (2/3); every failed hit rerolled once: 2/3 + 1/3 x 2/3 = 8/9 per shot,
    # Binomial(3000, 8/9), mean 8000/3
    got = answered(run("40k6", "hit", "--shots", "3000", "--bs", "4", "--master-crafted", "3000",
                       "--format", "json"))
    assert got["mean"] == "8000/3"


def test_master_crafted_one_short_of_the_shots_is_refused_at_once():
    too_large(run("40k6", "hit", "--shots", "3000", "--bs", "4", "--master-crafted", "2999"))


@pytest.mark.parametrize("n, mean", [(3000, "2250/1"), (4000, "3000/1")])
def test_pool_reroll_up_to_every_die(n, mean):
    got = answered(run("pool", str(n), "--hit", "4+", "--reroll-up-to", str(n), "--format", "json"))
    assert got["mean"] == mean
    assert len(got["outcomes"]) == n + 1


@pytest.mark.parametrize("args", [
    ["pool", "3000", "--hit", "4+", "--reroll-up-to", "2999"],
    ["pool", "2000", "--hit", "4+", "--reroll-up-to", "1000"],
    ["pool", "2000", "--hit", "500+", "--sides", "1000", "--reroll-up-to", "2000"],  # fractions too long to write
    ["pool", "2000", "--hit", "500+", "--sides", "1000", "--reroll-up-to", "1999"],
])
def test_pool_reroll_up_to_too_large(args):
    too_large(run(*args))


def test_pool_reroll_up_to_near_the_limit_answers():
    # 1000 dice at 4+, up to 999 failed rerolled: about 500,000 terms, answered in under a second.
    # E = 1000 - E[F] + E[min(999, F)] / 2 with F ~ Bin(1000, 1/2) failures, and
    # min(999, F) = F except when all 1000 fail: E = 750 - 2^-1001
    got = answered(run("pool", "1000", "--hit", "4+", "--reroll-up-to", "999", "--format", "json"))
    mean = Fraction(750) - Fraction(1, 2 ** 1001)
    assert got["mean"] == f"{mean.numerator}/{mean.denominator}"
    assert len(got["outcomes"]) == 1001


# ---------------------------------------------------------------- Hell Dorado
@pytest.mark.parametrize("args", [
    ["--dice", "20000", "--target-def", "4"],
    ["--dice", "30000", "--target-def", "4", "--elevated"],
    ["--dice", "30000", "--target-def", "4", "--reroll-failed"],
    ["--dice", "12000", "--target-def", "4"],
    ["--dice", "2000", "--target-def", "4", "--engaged-def", "3"],
    ["--dice", "10000", "--target-def", "4", "--reroll-up-to", "1", "--policy", "odd-first"],
])
def test_hell_dorado_too_large(args):
    too_large(run("hd", "shoot", *args))


def test_hell_dorado_more_engaged_fighters_than_a_shot_takes_is_refused_from_the_count():
    refused(run("hd", "shoot", "--dice", "800", "--target-def", "4", *["--engaged-def", "3"] * 3000),
            "--engaged-def", "3,000 values", "at most 100")


def test_hell_dorado_many_engaged_fighters_answers():
    got = answered(run("hd", "shoot", "--dice", "3", "--target-def", "4", *["--engaged-def", "3"] * 40,
                       "--format", "json"))
    # 3 dice at difficulty 4: P(no hit) = 1/8; on an impair (more odd than even dice) each of
    # the 40 engaged fighters is equally likely
    misses = [o for o in got["outcomes"] if o["outcome"]["recipient"] == "none"]
    assert [o["p"] for o in misses] == ["1/8"]
    engaged = {o["outcome"]["recipient"] for o in got["outcomes"]} - {"none", "target"}
    assert len(engaged) == 40


# ------------------------------------------------------------------ Horus Heresy
def _gen_errors():  # type: ignore[no-untyped-def]
    """docs/gen_errors.py, which also documents the 1,000-model attacker and its target."""
    spec = importlib.util.spec_from_file_location("gen_errors_torture", ROOT / "docs" / "gen_errors.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules[spec.name] = module  # type: ignore[union-attr]  # dataclasses look their module up there
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


@pytest.mark.parametrize("counts, bs", [
    ([77] * 12 + [76], None),                                    # 13 weapons of 77 shots
    ([988] + [1] * 12, None),                                    # one big group first
    ([8] * 125, [1 + i // 13 for i in range(125)]),               # 125 small groups (13 weapons x BS)
    ([139] + [13] * 12, None),                                   # every group under the limit, not their sum
])
def test_hh3_thousand_model_attacker_is_refused_at_once(tmp_path, counts, bs):
    gen = _gen_errors()
    (tmp_path / "horde.toml").write_text(gen.horde_toml(counts, bs))
    (tmp_path / "target.toml").write_text(gen.CHAMPIONS_TOML)
    too_large(run("hh3", "shoot", "--attacker", str(tmp_path / "horde.toml"),
                  "--target", str(tmp_path / "target.toml")))


# ------------------------------------------------------------------ 40K fight
def _unit(n: int, lines: int = 1, mixed: bool = False) -> str:
    out = [f'name = "Unit of {n}"', ""]
    for i in range(lines):
        out += ["[[models]]", f'name = "line {i}"', f"count = {n // lines}",
                f"toughness = {3 + i % 3 if mixed else 4}", "wounds = 2", f"save = {2 + i % 5 if mixed else 4}",
                f"ws = {1 + i % 9 if mixed else 4}", f"initiative = {1 + i if mixed else 4}", "attacks = 3",
                f"strength = {8 - i % 3 if mixed else 4}", f"ap = {1 + i % 5 if mixed else 4}", "leadership = 8"]
        if mixed and i % 2:
            out += ["character = true", "look_out_sir = true"]
        out.append("")
    return "\n".join(out)


def test_fight_of_ten_against_ten_answers(tmp_path):
    (tmp_path / "ten.toml").write_text(_unit(10))
    got = answered(run("40k6", "fight", "--attacker", str(tmp_path / "ten.toml"),
                       "--defender", str(tmp_path / "ten.toml"), "--attacker-charged", "--format", "json"))
    total = sum(Fraction(o["p"]) for o in got["outcomes"])
    assert total == 1


def test_fight_growing_past_the_limit_is_stopped_as_it_runs(tmp_path):
    # ten lines of one model each, Look Out, Sir, Instant Death and every Initiative: the joint
    # states outgrow any cheap estimate, so the work is metered as it runs
    (tmp_path / "mixed.toml").write_text(_unit(10, lines=10, mixed=True))
    r = run("40k6", "fight", "--attacker", str(tmp_path / "mixed.toml"), "--defender", str(tmp_path / "mixed.toml"),
            "--attacker-charged", env={"EXACTODDS_MAX_STATES": "100000"})
    too_large(r)
    assert "counted as it ran" in r.err


@pytest.mark.slow
def test_mixed_fight_at_the_default_limit_answers_in_time(tmp_path):
    (tmp_path / "mixed.toml").write_text(_unit(8, lines=8, mixed=True))
    r = run("40k6", "fight", "--attacker", str(tmp_path / "mixed.toml"), "--defender", str(tmp_path / "mixed.toml"),
            "--attacker-charged", "--format", "json")
    answered(r)
    assert r.seconds < 30


# ---------------------------------------------------------------------- files
def test_deep_dotted_key_in_a_query_file(tmp_path):
    path = tmp_path / "deep.toml"
    path.write_text('system = "pool"\ncommand = "pool"\n[params]\n' + ".".join(["a"] * 1_000_000) + " = 1\n")
    refused(run("run", str(path)), "deep.toml", "deep")


@pytest.mark.parametrize("body", [
    "x = " + "[" * 100_000 + "]" * 100_000 + "\n",
    "x = " + "{a = " * 5_000 + "1" + "}" * 5_000 + "\n",
    "".join(f"[{'.'.join(['t'] * 40)}]\n"),
])
def test_deep_toml_profile(tmp_path, body):
    path = tmp_path / "unit.toml"
    path.write_text(body)
    refused(run("40k6", "shoot", "--shots", "3", "--bs", "4", "--strength", "4", "--target", str(path)),
            "unit.toml", "deep")


def test_nesting_at_the_limit_is_only_a_wrong_profile(tmp_path):
    path = tmp_path / "unit.toml"
    path.write_text("x = " + "[" * 30 + "]" * 30 + "\n")
    r = run("40k6", "shoot", "--shots", "3", "--bs", "4", "--strength", "4", "--target", str(path))
    refused(r, "unit.toml")
    assert "deep" not in r.err


@pytest.mark.parametrize("digits", [31, 5000])
def test_long_integer_in_a_query_file(tmp_path, digits):
    path = tmp_path / "long.toml"
    path.write_text(f'system = "pool"\ncommand = "pool"\n[params]\nn = {"9" * digits}\nhit = "4+"\n')
    refused(run("run", str(path)), "long.toml", f"{digits:,} digits")


def test_thirty_digits_in_a_query_file_is_only_a_large_number(tmp_path):
    path = tmp_path / "long.toml"
    path.write_text(f'system = "pool"\ncommand = "pool"\n[params]\nn = {"9" * 30}\nhit = "4+"\n')
    r = run("run", str(path))
    refused(r)  # too large a question, not a file refused for its text
    assert "at most 30 digits" not in r.err


def test_unicode_digit_in_a_query_file(tmp_path):
    path = tmp_path / "sup.toml"
    path.write_text('system = "pool"\ncommand = "pool"\n[params]\nn = ²\nhit = "4+"\n')
    refused(run("run", str(path)), "sup.toml")


@pytest.mark.parametrize("kind", ["folder", "fifo", "device"])
def test_not_a_regular_file(tmp_path, kind):
    if kind == "folder":
        path = tmp_path / "dir.toml"
        path.mkdir()
    elif kind == "fifo":
        path = tmp_path / "pipe.toml"
        os.mkfifo(path)
    else:
        path = Path("/dev/zero")
    refused(run("run", str(path)), path.name)
    refused(run("validate", QUERY, str(path)), path.name)


# -------------------------------------------------------------------- samples
@pytest.mark.parametrize("text", ["1e-400", "0.99999999999999999", "1.0000000000000001"])
def test_near_integers_are_not_counted_as_integers(tmp_path, text):
    path = tmp_path / "near.csv"
    path.write_text(f"outcome\n{text}\n1\n1\n")
    r = run("validate", QUERY, str(path))
    assert r.code == 1, (r.code, r.err)  # an outcome the rule never gives, not 0 or 1
    assert text in r.out


def test_exact_integers_written_as_decimals_are_counted(tmp_path):
    path = tmp_path / "ok.csv"
    path.write_text("outcome,count\n1.0,10\n1e0,1\n10e-1,1\n0.000,1\n")
    r = run("validate", QUERY, str(path))
    assert r.code in (0, 1), (r.code, r.err)
    assert "never gives" not in r.out


def test_count_written_one_e_minus_400_is_refused(tmp_path):
    path = tmp_path / "count.jsonl"
    path.write_text('{"outcome": 1, "count": 1e-400}\n')
    refused(run("validate", QUERY, str(path)), "count.jsonl", "line 1")


@pytest.mark.parametrize("name, body", [
    ("long.csv", "outcome\n" + "9" * 5000 + "\n"),
    ("long.jsonl", "9" * 5000 + "\n"),
    ("longcount.csv", "outcome,count\n1," + "9" * 5000 + "\n"),
    ("deep.jsonl", "[" * 200_000 + "]" * 200_000 + "\n"),
    ("deep.csv", "outcome\n\"" + "[" * 200_000 + "]" * 200_000 + "\"\n"),
])
def test_sample_file_too_long_or_deep(tmp_path, name, body):
    path = tmp_path / name
    path.write_text(body)
    refused(run("validate", QUERY, str(path)), name, "line")


def test_unicode_digits_are_not_numbers(tmp_path):
    path = tmp_path / "uni.csv"
    path.write_text("outcome\n²\n١\n1\n")  # superscript two, Arabic-Indic one
    r = run("validate", QUERY, str(path))
    assert r.code == 1, (r.code, r.err)
    assert "²" in r.out and "١" in r.out


# -------------------------------------------------------- 40K: weapon groups and Gets Hot
def hot_unit(groups: int, count: int = 6, wounds: int = 3, same_models: bool = True, rule: str = '"gets-hot"',
             extra: str = "") -> str:
    """A unit file: ``groups`` plasma weapons, carried all by one line of ``count`` models
    (``same_models``) or one line each."""
    line = ("[[models]]\nname = \"M{i}\"\ncount = {count}\ntoughness = 4\nwounds = {wounds}\nsave = 3\nws = 4\n"
            "initiative = 4\nattacks = 1\nstrength = 4\nleadership = 9\nbs = 4\nweapons = [{names}]\n\n")
    names = [f'"p{i}"' for i in range(groups)]
    text = 'name = "Hot"\n\n'
    if same_models:
        text += line.format(i=0, count=count, wounds=wounds, names=", ".join(names))
    else:
        text += "".join(line.format(i=i, count=count, wounds=wounds, names=n) for i, n in enumerate(names))
    return text + "".join(f"[weapons.p{i}]\nrange = 24\nshots = 1\nstrength = 7\nap = 2\nrules = [{rule}]\n{extra}\n"
                          for i in range(groups))


BOYZ = ('name = "Boyz"\n[[models]]\nname = "Boy"\ncount = {n}\ntoughness = 4\nwounds = {w}\nsave = 6\nws = 4\n'
        'initiative = 2\nattacks = 2\nstrength = 3\nleadership = 7\n')


@pytest.mark.parametrize("unit", [
    hot_unit(3),                                            # three guns on the same six 3-Wound models
    hot_unit(3, same_models=False, extra='random_shots = "2D6"'),  # three groups of six, 2D6 shots each
    hot_unit(40, count=1, wounds=1, same_models=False),     # forty one-model groups that get hot
])
def test_gets_hot_across_weapon_groups_is_refused_at_once(tmp_path, unit):
    (tmp_path / "hot.toml").write_text(unit)
    (tmp_path / "boyz.toml").write_text(BOYZ.format(n=20, w=1))
    r = run("40k6", "fire", "--attacker", "hot.toml", "--target", "boyz.toml", cwd=tmp_path)
    too_large(r)
    assert "weapon groups of 'Hot' (weapons that get hot" in r.err
    (tmp_path / "sc.toml").write_text('[units.hot]\nfile = "hot.toml"\n[units.boyz]\nfile = "boyz.toml"\n'
                                      '[[steps]]\nkind = "shoot"\nunit = "hot"\ntarget = "boyz"\n')
    too_large(run("scenario", "sc.toml", cwd=tmp_path))


@pytest.mark.slow  # runs in CI (CI=true); the default run stays short on two cores
def test_two_gets_hot_units_shooting_each_other_for_twenty_turns_are_refused_at_once(tmp_path):
    (tmp_path / "hot.toml").write_text(hot_unit(1, count=3, wounds=2).replace("shots = 1", "shots = 2"))
    (tmp_path / "sc.toml").write_text('turns = 20\n[units.a]\nfile = "hot.toml"\n[units.b]\nfile = "hot.toml"\n'
                                      '[[steps]]\nkind = "shoot"\nunit = "a"\ntarget = "b"\n'
                                      '[[steps]]\nkind = "shoot"\nunit = "b"\ntarget = "a"\n')
    r = run("scenario", "sc.toml", cwd=tmp_path)
    too_large(r)
    assert "a scenario of 2 units, 2 steps and 20 turns" in r.err
    assert run("scenario", "sc.toml", "--turns", "3", cwd=tmp_path).code == 0


def test_two_gets_hot_weapons_on_the_same_models_answer(tmp_path):
    (tmp_path / "hot.toml").write_text(hot_unit(2))
    (tmp_path / "boyz.toml").write_text(BOYZ.format(n=20, w=1))
    r = run("40k6", "fire", "--attacker", "hot.toml", "--target", "boyz.toml", "--mean", cwd=tmp_path)
    assert r.code == 0 and r.out.startswith("20/3"), r.err  # 12 shots x 2/3 to hit x 5/6 to wound, no save


def test_forty_weapon_groups_are_refused_before_the_work(tmp_path):
    """Forty groups of ten bolters... at fifty 2-Wound models: each group alone is small,
    their sum is not."""
    (tmp_path / "many.toml").write_text(hot_unit(40, count=10, wounds=1, same_models=False, rule=""))
    (tmp_path / "boyz.toml").write_text(BOYZ.format(n=50, w=2))
    r = run("40k6", "fire", "--attacker", "many.toml", "--target", "boyz.toml", cwd=tmp_path)
    too_large(r)
    assert "weapon groups of 'Hot' at a unit of 50 models" in r.err


# -------------------------------------------------------- in-process: file names
def test_nul_byte_in_a_file_name():
    from exactodds import InputError
    from exactodds.tomlfiles import load_toml
    from exactodds.validation import read_samples
    from exactodds import d6

    with pytest.raises(InputError, match="NUL byte"):
        load_toml("unit\x00.toml")
    with pytest.raises(InputError, match="NUL byte"):
        read_samples("samples\x00.csv", d6)


def test_tilde_without_a_home_directory(monkeypatch):
    from exactodds import InputError
    from exactodds.tomlfiles import load_toml

    def no_home(self):
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.setattr(Path, "expanduser", no_home)
    with pytest.raises(InputError, match="no home directory"):
        load_toml("~/unit.toml")


# ------------------------------------------------ scenario files, compare, query files
# Each case used to end in a traceback (exit 3), run out of memory, or hang for ever; each
# runs in a subprocess under the memory cap, with a 60 s cap on the clock (a cap, not a
# measure: a refusal is held to REFUSAL_SECONDS of processor time).
CAP = 60


@pytest.fixture
def scenarios(tmp_path: Path) -> Path:
    """A folder holding a copy of the examples' scenarios and 40k6 unit files; returns its
    ``scenarios`` folder, where ``mixed_weapons.toml`` fires one shoot step at 10"."""
    import shutil

    for sub in ("scenarios", "40k6"):
        shutil.copytree(ROOT / "examples" / sub, tmp_path / "examples" / sub)
    return tmp_path / "examples" / "scenarios"


def _variant(folder: Path, name: str, old: str, new: str, source: str = "mixed_weapons.toml") -> str:
    """A copy of the scenario ``source`` with ``old`` replaced by ``new`` (which must occur)."""
    text = (folder / source).read_text()
    assert old in text, (old, source)
    (folder / name).write_text(text.replace(old, new))
    return str(folder / name)


STEP_VALUES = {
    "shoot distance 1/0": ("distance = 10", 'distance = "1/0"', "distance"),
    "distance of 5,000 digits": ("distance = 10", f'distance = "{"1" * 5000}"', "distance"),
    "ratio of 5,000 digits": ("distance = 10", f'distance = "{"1" * 5000}/{"3" * 5000}"', "distance"),
    "focus fire superscript two": ("distance = 10", 'distance = 10\nfocus_fire = "²"', "focus_fire"),
    "focus fire Arabic-Indic three": ("distance = 10", 'distance = 10\nfocus_fire = "٣"', "focus_fire"),
}


@pytest.mark.parametrize("case", STEP_VALUES)
def test_scenario_step_values_refused_in_one_line(scenarios, case):
    old, new, key = STEP_VALUES[case]
    refused(run("scenario", _variant(scenarios, "s.toml", old, new), timeout=CAP), "s.toml", f"steps[1].{key}")


def test_assault_distance_one_over_zero_refused_in_a_scenario_and_its_sweep(scenarios, tmp_path):
    path = _variant(scenarios, "s.toml", "distance = 7", 'distance = "1/0"', "assault_through_overwatch.toml")
    refused(run("scenario", path, timeout=CAP), "s.toml", "distance", "zero denominator")
    grid = tmp_path / "grid.toml"
    grid.write_text(f'[base]\nsystem = "scenario"\n[base.params]\nfile = "{path}"\n[vary]\nturns = [1, 2]\n')
    for more in ([], ["--keep-going"]):  # the file is read when the sweep checks its first row
        out = tmp_path / "out.csv"
        refused(run("sweep", str(grid), "--out", str(out), *more, timeout=CAP), "distance", "zero denominator")
        assert not out.exists()


@pytest.mark.parametrize("names, word", [
    (("a", "a_status"), "status field of the unit 'a'"),
    (("marines", "_fields"), "starting with a letter"),
    (("marines", "_orks"), "starting with a letter"),
    (("marines", "class"), "Python keyword"),
])
def test_unit_names_the_answer_cannot_carry(scenarios, names, word):
    first, second = names
    text = (scenarios / "mixed_weapons.toml").read_text()
    text = text.replace("[units.marines]", f"[units.{first}]").replace('unit = "marines"', f'unit = "{first}"')
    text = text.replace("[units.orks]", f"[units.{second}]").replace('target = "orks"', f'target = "{second}"')
    (scenarios / "names.toml").write_text(text)
    refused(run("scenario", str(scenarios / "names.toml"), timeout=CAP), "names.toml", f"units.{names[1]}", word)


def _hostile(scenarios: Path, kind: str) -> str:
    """A file in the scenarios' folder, named for ``kind``: a symlink to /dev/zero, a FIFO,
    or a 3 GB sparse file (nothing on disk); returns its name, relative to the folder."""
    name = {"/dev/zero": "zero.toml", "fifo": "pipe.toml", "sparse": "huge.toml"}[kind]
    part = scenarios / name
    if kind == "/dev/zero":
        part.symlink_to("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(part)
    else:
        with open(part, "wb") as f:
            f.truncate(3 * 2**30)
    return name


UNIT_FILE = '"../40k6/ork_boyz_sluggas.toml"'


@pytest.mark.parametrize("kind, words", [
    ("/dev/zero", ("units.orks.file", "not a regular file")),
    ("fifo", ("units.orks.file", "not a regular file")),
    ("sparse", ("units.orks.file", "3,221,225,472 bytes is too large")),
])
def test_hostile_unit_file_is_refused_from_its_stat(scenarios, tmp_path, kind, words):
    name = _hostile(scenarios, kind)
    path = _variant(scenarios, "s.toml", UNIT_FILE, f'"{name}"')
    refused(run("scenario", path, timeout=CAP), name, *words)
    query = tmp_path / "q.toml"  # the same through a query file and a sweep
    query.write_text(f'system = "scenario"\n[params]\nfile = "{path}"\n')
    refused(run("run", str(query), timeout=CAP), name, *words)
    grid = tmp_path / "grid.toml"
    grid.write_text(f'[base]\nsystem = "scenario"\n[base.params]\nfile = "{path}"\n[vary]\nturns = [1, 2]\n')
    refused(run("sweep", str(grid), "--out", str(tmp_path / "o.csv"), "--keep-going", timeout=CAP),
            name, *words)
    assert not (tmp_path / "o.csv").exists()


def test_missing_home_in_a_unit_file_name_is_a_missing_file(scenarios):
    path = _variant(scenarios, "s.toml", UNIT_FILE, '"~nosuchuser/x.toml"')
    refused(run("scenario", path, timeout=CAP), "units.orks.file", "x.toml", "cannot read the file")


def _figures(r: Ran) -> dict:
    got = answered(r)
    return {k: got[k] for k in ("p_destroyed", "mean_survivors")}


def test_text_that_only_looks_like_a_file_name_is_never_read(scenarios):
    plain = _figures(run("scenario", str(scenarios / "mixed_weapons.toml"), "--format", "json", timeout=CAP))
    assert plain["p_destroyed"]["marines"] == "0/1" and plain["mean_survivors"]["marines"] == "10/1"  # not shot at
    names = [_hostile(scenarios, kind) for kind in ("/dev/zero", "fifo", "sparse")] + ["~nosuchuser/x.toml"]
    for name in names:  # a step's name and a description are text, not files
        named = _variant(scenarios, "named.toml", 'name = "marines shoot"', f'name = "{name}"')
        described = _variant(scenarios, "described.toml", "turns = 1", f'turns = 1\ndescription = "{name}"')
        for path in (named, described):
            assert _figures(run("scenario", path, "--format", "json", timeout=CAP)) == plain, (name, path)


def test_a_unit_file_is_keyed_by_its_bytes_whatever_its_name(scenarios):
    from exactodds import Query

    (scenarios / "orks.dat").write_text((scenarios.parent / "40k6" / "ork_boyz_sluggas.toml").read_text())
    path = _variant(scenarios, "s.toml", UNIT_FILE, '"orks.dat"')
    before = Query("scenario", None, {"file": path}).key()
    assert Query("scenario", None, {"file": path}).key() == before
    text = (scenarios / "orks.dat").read_text()
    (scenarios / "orks.dat").write_text(text.replace("save = 6", "save = 2", 1))
    assert "save = 2" in (scenarios / "orks.dat").read_text()
    assert Query("scenario", None, {"file": path}).key() != before


# ------------------------------------------------------------------------ compare
MIXED = "scenario examples/scenarios/mixed_weapons.toml"
HD_SHOOT = "hd shoot --dice 3 --target-def 4"
HD_SCENARIO = "scenario examples/scenarios/hd_shots_into_melee.toml"


@pytest.mark.parametrize("first, second", [(MIXED, HD_SHOOT), (HD_SCENARIO, HD_SHOOT), (MIXED, HD_SCENARIO)])
def test_compare_of_answers_with_different_fields_is_refused(first, second):
    refused(run("compare", "--query", first, "--query", second, timeout=CAP), "cannot compare q1 with q2",
            "not the same kind")


@pytest.mark.parametrize("option", ["--help", "-h", "--version", "--joint"])
def test_compare_refuses_options_that_ask_no_question_inside_a_query(option):
    r = run("compare", "--query", f"pool 3 --hit 4+ {option}", "--query", "pool 3 --hit 5+", timeout=CAP)
    refused(r, option, "not part of a query")
    assert r.out == ""


@pytest.mark.parametrize("queries", [
    [f"pool {4000 + i} --hit 4+" for i in range(200)],
    [MIXED] * 40,
    [MIXED] * 13,
])
def test_compare_counts_its_queries_before_answering_any(queries):
    args = [w for q in queries for w in ("--query", q)]
    refused(run("compare", *args, timeout=CAP), f"a comparison of {len(queries)} queries", "at most 12")


def test_hd_query_file_with_100000_engaged_fighters_is_refused_from_the_count(tmp_path):
    path = tmp_path / "q.toml"
    path.write_text('system = "hd"\ncommand = "shoot"\n[params]\ndice = 3\ntarget_def = 4\n'
                    f'engaged_def = [{", ".join(["3"] * 100_000)}]\n')
    refused(run("run", str(path), timeout=CAP), "q.toml", "engaged_def", "100,000 values", "at most 100")
