"""Questions as typed data: the commands layer under every interface.

The parameter classes convert and check values whatever the spelling; a
query's key comes from its values (a profile file by its content); the work
limit is a context; ``run`` on a query file prints exactly what its flags
print; Python's :func:`exactodds.ask` answers as the command line does.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from fractions import Fraction as F
from pathlib import Path

import pytest
from click.testing import CliRunner

from exactodds import InputError, Query, Target, ask, max_states, state_limit
from exactodds.cli import main
from exactodds.commands import find, systems
from exactodds.commands.pool import PoolParams, pool
from exactodds.sweep import sweep

ROOT = Path(__file__).resolve().parent.parent

ONE_MODEL = """name = "Lone {name}"
[[models]]
name = "{name}"
toughness = 4
wounds = 1
{save}
"""


def unit(folder: Path, save: str = "", name: str = "Grot") -> Path:
    path = folder / "unit.toml"
    path.write_text(ONE_MODEL.format(save=save, name=name))
    return path


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    full = {**{k: v for k, v in os.environ.items() if not k.startswith("EXACTODDS_")}, **(env or {})}
    return subprocess.run([sys.executable, "-m", "exactodds", *args], capture_output=True, text=True, env=full,
                          cwd=ROOT)


# ------------------------------------------------------------ parameter classes
def test_a_parameter_class_converts_every_spelling() -> None:
    """``"4+"``, ``4`` and ``Target.at_least(4)`` are one value; the answer is Binomial(3, 1/2)."""
    a, b, c = PoolParams(n=3, hit="4+"), PoolParams(n="3", hit=4), PoolParams(n=3, hit=Target.at_least(4))
    assert a == b == c and hash(a) == hash(c) and a.hit == Target.at_least(4)
    assert pool(a).dist.to_fractions() == {0: F(1, 8), 1: F(3, 8), 2: F(3, 8), 3: F(1, 8)}


def test_parameter_classes_check_their_combinations_in_parameter_names() -> None:
    with pytest.raises(InputError, match=r"^reroll_hit needs reroll FACES, reroll_failed or reroll_up_to K$"):
        PoolParams(n=3, hit="4+", reroll_hit="5+")
    with pytest.raises(InputError, match=r"^hit: target '9\+' is not allowed"):
        PoolParams(n=3, hit="9+")


def test_every_field_carries_help_and_every_command_its_doc() -> None:
    for system, names in systems().items():
        for name in names or [None]:
            spec = find(system, name)
            assert spec.doc.strip(), spec.title
            for key, (field, _) in spec.params.specs().items():
                assert field.help.strip() and "--" not in field.help, (spec.title, key)


def test_numbers_are_ascii_digits_of_bounded_length() -> None:
    for bad in ["²", "٣", "1e3", "3.0", "9" * 31]:
        with pytest.raises(InputError, match="^n: "):
            PoolParams(n=bad, hit="4+")
    assert PoolParams(n="9" * 5, hit="4+").n == 99999


# ------------------------------------------------------------------ ask / Query
def test_ask_reads_like_the_command_line() -> None:
    """BS 8: 2+ with 1s rerolled at 4+: 5/6 + 1/6 * 1/2 = 11/12."""
    answer = ask("40k6", "hit", shots=1, bs=8)
    assert answer.dist.to_fractions() == {0: F(1, 12), 1: F(11, 12)}
    flags = CliRunner().invoke(main, ["40k6", "hit", "--shots", "1", "--bs", "8", "--format", "json"])
    assert json.loads(flags.output) == answer.to_json_obj()
    with pytest.raises(InputError, match="unknown key 'shot'"):
        ask("40k6", "hit", shot=1, bs=8)
    with pytest.raises(InputError, match="'hit' is required by exactodds pool and missing"):
        ask("pool", n=3)


def test_query_keys_are_values_not_spellings() -> None:
    q = Query("pool", None, {"n": 3, "hit": "4+"})
    assert q == Query("pool", None, {"n": "3", "hit": 4, "sides": 6, "reroll": []})
    assert q != Query("pool", None, {"n": 3, "hit": "5+"})
    assert Query.from_text(q.to_toml()) == q
    assert q.command_line() == "exactodds pool 3 --hit 4+"


# ---------------------------------------------------- profile files by content
def test_an_edited_unit_file_is_a_new_question_in_the_same_process(tmp_path: Path) -> None:
    """One shot at BS 4 (3+: 2/3), S4 vs T4 (4+: 1/2) at a lone 1-Wound model: 1/3 casualties on
    average with no save; with a 4+ armour save (AP none): 1/3 x 1/2 = 1/6."""
    path = unit(tmp_path)
    grid = {"base": {"system": "40k6", "command": "shoot",
                     "params": {"bs": 4, "strength": 4, "target": str(path)}},
            "vary": {"shots": [1]}, "report": {"mean": True}}
    first = sweep(grid, scheduler="local")
    assert F(first["mean"][0]) == F(1, 3)
    unit(tmp_path, save="save = 4")
    again = sweep(grid, scheduler="local")
    assert F(again["mean"][0]) == F(1, 6)


def test_two_paths_to_one_content_share_a_key(tmp_path: Path) -> None:
    a = unit(tmp_path)
    (tmp_path / "copy").mkdir()
    b = (tmp_path / "copy" / "same.toml")
    b.write_text(a.read_text())
    qa = Query("40k6", "shoot", {"shots": 2, "bs": 4, "strength": 4, "target": str(a)})
    qb = Query("40k6", "shoot", {"shots": 2, "bs": 4, "strength": 4, "target": str(b)})
    assert qa == qb and qa.key() == qb.key()
    assert qa.answer().query["target"] == str(a) and qb.answer().query["target"] == str(b)  # as written


# ------------------------------------------------------------------ work limit
def test_max_states_before_or_after_the_command() -> None:
    """3 dice need 4 states: a limit of 10 is enough... and of 3 is not."""
    for args in (["pool", "3", "--hit", "4+", "--max-states", "3"], ["--max-states", "3", "pool", "3", "--hit", "4+"]):
        r = CliRunner().invoke(main, args)
        assert r.exit_code == 2 and "about 4 states, over the limit of 3" in r.output, r.output
    for args in (["pool", "3", "--hit", "4+", "--max-states", "10"], ["--max-states", "10", "pool", "3", "--hit", "4+"]):
        assert CliRunner().invoke(main, args).exit_code == 0
    r = CliRunner().invoke(main, ["--max-states", "3", "pool", "3", "--hit", "4+", "--max-states", "4"])
    assert r.exit_code == 0  # the one after the command wins
    assert max_states() == 2_000_000  # nothing leaked out of the commands


def test_max_states_ten_refuses_with_the_size_from_the_shell() -> None:
    for args in (["pool", "3", "--hit", "4+", "--max-states", "10"], ["--max-states", "10", "pool", "3", "--hit", "4+"]):
        assert run_cli(*args).returncode == 0
    r = run_cli("pool", "30", "--hit", "4+", "--max-states", "10")
    assert r.returncode == 2 and r.stderr == ("Error: the successes of 30 trials would need about 31 states, over "
                                              "the limit of 10; raise it with the environment variable "
                                              "EXACTODDS_MAX_STATES (or --max-states) if you have the memory and "
                                              "time\n")
    assert run_cli("--max-states", "10", "pool", "30", "--hit", "4+").stderr == r.stderr


def test_the_limit_is_a_context_per_thread() -> None:
    seen: dict[str, int] = {}

    def worker() -> None:
        seen["thread"] = max_states()

    with state_limit(123):
        t = threading.Thread(target=worker)
        t.start()
        t.join()
        assert max_states() == 123
    assert seen["thread"] == 2_000_000 and max_states() == 2_000_000


# ------------------------------------------------------- run = the flags, byte for byte
QUERIES = [
    (["pool", "40", "--hit", "4+"], {"system": "pool", "params": {"n": 40, "hit": "4+"}}),
    (["pool", "200", "--hit", "4+"], {"system": "pool", "params": {"n": 200, "hit": "4+"}}),
    (["40k6", "shoot", "--shots", "10", "--bs", "4", "--strength", "4", "--ap", "5", "--target",
      str(ROOT / "examples/40k6/ork_boyz.toml")],
     {"system": "40k6", "command": "shoot",
      "params": {"shots": 10, "bs": 4, "strength": 4, "ap": 5, "target": str(ROOT / "examples/40k6/ork_boyz.toml")}}),
    (["hd", "shoot", "--dice", "3", "--target-def", "4", "--engaged-def", "3", "--engaged-def", "5:enemy"],
     {"system": "hd", "command": "shoot", "params": {"dice": 3, "target_def": 4, "engaged_def": [3, "5:enemy"]}}),
]


def toml_text(doc: dict) -> str:
    lines = [f'system = "{doc["system"]}"'] + ([f'command = "{doc["command"]}"'] if "command" in doc else [])
    lines.append("[params]")
    for k, v in doc["params"].items():
        lines.append(f"{k} = {json.dumps(v)}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("digits", [None, "1000"])
@pytest.mark.parametrize("flags,doc", QUERIES)
def test_run_prints_exactly_what_the_flags_print(flags: list[str], doc: dict, digits: str | None,
                                                 tmp_path: Path) -> None:
    """Output and exit status are the same, with the digit bound too (a 200-dice answer has
    fractions of about 156 digits: over 1,000 digits in all)."""
    path = tmp_path / "q.toml"  # the unit file's path is absolute, as in the flags
    path.write_text(toml_text(doc))
    env = {} if digits is None else {"EXACTODDS_MAX_DIGITS": digits}
    for fmt in ("table", "json", "csv"):
        by_flags = run_cli(*flags, "--format", fmt, env=env)
        by_file = run_cli("run", str(path), "--format", fmt, env=env)
        assert (by_file.returncode, by_file.stdout, by_file.stderr) == \
            (by_flags.returncode, by_flags.stdout, by_flags.stderr)
        assert by_flags.returncode == (2 if digits and "200" in flags else 0)


def test_the_query_line_shows_paths_as_written_in_the_file(tmp_path: Path) -> None:
    (tmp_path / "units").mkdir()
    unit(tmp_path / "units")
    query = tmp_path / "q.toml"
    query.write_text('system = "40k6"\ncommand = "shoot"\n[params]\nshots = 1\nbs = 4\nstrength = 4\n'
                     'target = "units/unit.toml"\n')
    out = run_cli("run", str(query), "--format", "json")
    assert out.returncode == 0 and json.loads(out.stdout)["query"]["target"] == "units/unit.toml"


def test_an_edited_unit_file_is_a_new_scenario(tmp_path: Path) -> None:
    """A scenario's key covers the unit files it names: after an edit, a sweep in the same
    process answers anew. One model with bolter-like shots (BS 4: 2/3 to hit, S4 v T4: 1/2)
    at a lone 1-Wound model: P(destroyed) = 1/3 with no save, 1/6 behind a 4+ armour save."""
    (tmp_path / "gun.toml").write_text('name = "Gunner"\n[[models]]\nname = "Gunner"\ntoughness = 4\nwounds = 1\n'
                                       'bs = 4\nweapon = "gun"\n[weapons.gun]\nshots = 1\nstrength = 4\n')
    target = unit(tmp_path)
    scenario = tmp_path / "s.toml"
    scenario.write_text(f'turns = 1\n[units.a]\nfile = "gun.toml"\n[units.b]\nfile = "{target.name}"\n'
                        '[[steps]]\nkind = "shoot"\nunit = "a"\ntarget = "b"\n')
    before = Query("scenario", None, {"file": str(scenario)})
    grid = {"base": {"system": "scenario", "params": {"file": str(scenario)}}, "vary": {"turns": [1]},
            "report": {"extras": ["p_destroyed"]}}
    first = sweep(grid, scheduler="local")
    unit(tmp_path, save="save = 4")
    assert Query("scenario", None, {"file": str(scenario)}) != before
    again = sweep(grid, scheduler="local")
    assert (F(first["p_destroyed"][0]["b"]), F(again["p_destroyed"][0]["b"])) == (F(1, 3), F(1, 6))
