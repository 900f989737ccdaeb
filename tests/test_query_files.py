"""Queries as TOML files: the file and the CLI flags are the same query.

``exactodds run QUERY.toml`` must give exactly what the flags give, through
the same click command and the same validation; lists are repeated options,
booleans are flags, relative profile paths are read from the query file's
folder; every bad file is one clear error (exit 2) naming the key.
Also ``exactodds sample``: exact, reproducible draws in the CSV shape that
``validate`` reads.
"""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction as F
from pathlib import Path
from typing import NamedTuple

import click
import pytest
from click.testing import CliRunner

from exactodds import Dist, InputError
from exactodds.answer import Answer
from exactodds.cli import main
from exactodds.cli.common import query_command
from exactodds.query import Query, params_to_args, query_systems

BS8_POOL = 'system = "pool"\n[params]\nn = 1\nhit = "2+"\nreroll = 1\nreroll_hit = "4+"\n'
BS8_FLAGS = ["pool", "1", "--hit", "2+", "--reroll", "1", "--reroll-hit", "4+"]


def invoke(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text)
    return path


def one_error_line(result) -> str:  # type: ignore[no-untyped-def]
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    assert "Traceback" not in result.output
    return lines[0]


# --------------------------------------------------------------- same query
def test_file_and_flags_are_the_same_query(tmp_path: Path) -> None:
    path = write(tmp_path, "bs8.toml", BS8_POOL)
    from_file, from_flags = Query.from_toml(path), Query.from_args(BS8_FLAGS)
    assert from_file == from_flags
    assert from_file.dist() == Dist({0: F(1, 12), 1: F(11, 12)})
    for fmt in ("json", "csv", "table"):
        assert invoke("run", str(path), "--format", fmt).output == invoke(*BS8_FLAGS, "--format", fmt).output


def test_a_different_value_is_a_different_query() -> None:
    q = Query.from_text(BS8_POOL)
    assert q != Query.from_args(["pool", "1", "--hit", "2+", "--reroll", "1", "--reroll-hit", "5+"])
    # defaults written out are still the same query
    assert q == Query.from_text(BS8_POOL + "sides = 6\nreroll_failed = false\n")


def test_an_empty_list_leaves_the_option_out() -> None:
    q = Query.from_text('system = "pool"\n[params]\nn = 3\nhit = "4+"\nreroll = []\n')
    assert q.dist() == Dist.binomial(3, F(1, 2))


def test_flags_round_trip_through_toml() -> None:
    q = Query.from_args(BS8_FLAGS)
    assert q.params == {"n": 1, "hit": "2+", "reroll": 1, "reroll_hit": "4+"}  # the words as typed
    again = Query.from_text(q.to_toml())
    assert again == q and again.dist() == q.dist()
    assert q.command_line() == "exactodds pool 1 --hit 2+ --reroll 1 --reroll-hit 4+"


def test_the_issue_example_40k6_hit_bs8() -> None:
    """``exactodds 40k6 hit --shots 1 --bs 8`` and its file are the same query (P(hit) = 11/12)."""
    text = 'system = "40k6"\ncommand = "hit"\n[params]\nshots = 1\nbs = 8\n'
    q = Query.from_text(text)
    assert q == Query.from_args(["40k6", "hit", "--shots", "1", "--bs", "8"])
    assert q.dist() == Query.from_text(BS8_POOL).dist() == Dist({0: F(1, 12), 1: F(11, 12)})


def test_hd_shoot_engaged_fighters_as_a_list() -> None:
    """``engaged_def = [3, 5]`` is ``--engaged-def 3 --engaged-def 5``."""
    flags = ["hd", "shoot", "--dice", "3", "--target-def", "4", "--engaged-def", "3", "--engaged-def", "5",
             "--range-difficulty", "4"]
    q = Query.from_text('system = "hd"\ncommand = "shoot"\n[params]\ndice = 3\ntarget_def = 4\n'
                        'engaged_def = [3, 5]\nrange_difficulty = 4\n')
    assert q == Query.from_args(flags) and Query.from_args(flags).params["engaged_def"] == [3, 5]
    p_target = sum(p for o, p in q.dist().items() if o.recipient == "target")
    assert p_target == F(19, 54)  # the figure of the rules' worked example


def test_every_registered_command_has_query_keys() -> None:
    """The walker finds each query command, and each key maps to one click parameter."""
    systems = query_systems()
    assert systems["pool"] is None
    for system, commands in systems.items():
        for command in commands or [None]:
            q = Query(system, command, {})
            keys = [k for k in _keys(q)]
            assert len(keys) == len(set(keys)) and "format" not in keys and "fmt" not in keys


def _keys(q: Query) -> list[str]:
    from exactodds.query import query_params

    return list(query_params(q.command_object()))


# ------------------------------------- lists, flags, paths: a test command
class Echo(NamedTuple):
    value: int
    label: str


@pytest.fixture
def echo_group(monkeypatch: pytest.MonkeyPatch) -> dict:
    """A throwaway ``testsys echo`` command registered on ``main`` for one test."""
    seen: dict = {}
    group = click.Group("testsys")

    @query_command(group, "echo")
    @click.argument("count", type=click.IntRange(min=0))
    @click.option("--engaged-def", type=click.IntRange(1, 7), multiple=True)
    @click.option("--elevated", is_flag=True)
    @click.option("--loud/--quiet", default=True)
    @click.option("--target", metavar="UNIT.toml", default=None)
    @click.option("--profile", type=click.Path(dir_okay=False), default=None)
    @click.option("--name", default="x")
    def echo(count: int, engaged_def: tuple, elevated: bool, loud: bool, target: str | None,
             profile: str | None, name: str) -> Answer:
        """Record its parameters."""
        seen.update(count=count, engaged_def=engaged_def, elevated=elevated, loud=loud, target=target,
                    profile=profile, name=name)
        return Answer(Dist.uniform([Echo(count, name), Echo(count + 1, name)]), {"count": count})

    monkeypatch.setitem(main.commands, "testsys", group)
    return seen


def test_lists_repeat_options_and_booleans_are_flags(echo_group: dict, tmp_path: Path) -> None:
    text = ('system = "testsys"\ncommand = "echo"\n[params]\ncount = 2\nengaged_def = [3, 5]\n'
            'elevated = true\nloud = false\nname = "a b"\n')
    q = Query.from_toml(write(tmp_path, "q.toml", text))
    assert q.args() == ["--engaged-def", "3", "--engaged-def", "5", "--elevated", "--quiet", "--name", "a b",
                        "--", "2"]
    q.answer()
    assert echo_group == {"count": 2, "engaged_def": (3, 5), "elevated": True, "loud": False, "target": None,
                          "profile": None, "name": "a b"}
    assert q == Query.from_args(["testsys", "echo", "2", "--engaged-def", "3", "--engaged-def", "5",
                                 "--elevated", "--quiet", "--name", "a b"])


def test_relative_profile_paths_are_read_from_the_query_folder(echo_group: dict, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "queries"
    folder.mkdir()
    text = ('system = "testsys"\ncommand = "echo"\n[params]\ncount = 1\ntarget = "units/unit.toml"\n'
            'profile = "data.txt"\nname = "plain.toml.txt"\n')
    path = write(folder, "q.toml", text)
    monkeypatch.chdir(tmp_path)  # elsewhere than the query file
    Query.from_toml(Path("queries") / "q.toml").answer()
    assert echo_group["target"] == str(folder.resolve() / "units" / "unit.toml")
    assert echo_group["profile"] == str(folder.resolve() / "data.txt")
    assert echo_group["name"] == "plain.toml.txt"  # not a profile: left alone
    absolute = text.replace('"units/unit.toml"', json.dumps(str(tmp_path / "abs.toml")))
    Query.from_toml(write(folder, "abs.toml", absolute)).answer()
    assert echo_group["target"] == str(tmp_path / "abs.toml")
    assert path.exists()


def test_sample_writes_one_column_per_field(echo_group: dict, tmp_path: Path) -> None:
    path = write(tmp_path, "q.toml", 'system = "testsys"\ncommand = "echo"\n[params]\ncount = 4\nname = "z"\n')
    r = invoke("sample", str(path), "-n", "6", "--seed", "3")
    rows = list(csv.reader(io.StringIO(r.output)))
    assert rows[0] == ["value", "label"]
    assert {tuple(x) for x in rows[1:]} <= {("4", "z"), ("5", "z")} and len(rows) == 7


def test_real_profile_command_from_a_query_file(tmp_path: Path) -> None:
    """A 40K shooting query whose target profile sits beside the query file."""
    unit = Path(__file__).resolve().parents[1] / "examples" / "40k6" / "tactical_squad.toml"
    (tmp_path / "unit.toml").write_text(unit.read_text())
    path = write(tmp_path, "q.toml", 'system = "40k6"\ncommand = "shoot"\n[params]\nshots = 5\nbs = 4\n'
                                     'strength = 4\ntarget = "unit.toml"\n')
    by_file = json.loads(invoke("run", str(path), "--format", "json").output)
    by_flags = json.loads(invoke("40k6", "shoot", "--shots", "5", "--bs", "4", "--strength", "4",
                                 "--target", str(tmp_path / "unit.toml"), "--format", "json").output)
    assert by_file["outcomes"] == by_flags["outcomes"]


# ------------------------------------------------------------ bad queries
@pytest.mark.parametrize("text,needles", [
    (BS8_POOL + "hitt = 3\n", ["unknown key 'hitt'", "allowed keys are hit, n, reroll"]),
    ("system = \"pool\"\nformat = \"json\"\n", ["unknown key 'format'", "allowed keys are command"]),
    ("system = \"nosuch\"\n", ["system 'nosuch' is not known", "pool"]),
    ("command = \"hit\"\n", ["system is missing"]),
    ("system = \"pool\"\ncommand = \"x\"\n[params]\nn = 1\nhit = \"4+\"\n", ["single command", "remove command"]),
    ("system = \"pool\"\n[params]\nn = 1\n", ["'hit' is required"]),
    ("system = \"pool\"\n[params]\nn = 1\nhit = \"9+\"\n", ["params.hit", "2+ to 6+"]),
    ("system = \"pool\"\n[params]\nn = -1\nhit = \"4+\"\n", ["params.n", "-1"]),
    ("system = \"pool\"\n[params]\nn = 1\nhit = true\n", ["params.hit = true", "not true or false"]),
    ("system = \"pool\"\n[params]\nn = 1\nhit = \"4+\"\nreroll_failed = \"yes\"\n", ["reroll_failed", "true or false"]),
    ("system = \"pool\"\n[params]\nn = 1\nhit = \"4+\"\nreroll = { a = 1 }\n", ["params.reroll", "not a table"]),
    ("system = \"pool\"\n[params]\nn = 1\nhit = \"4+\"\nreroll_hit = \"5+\"\n", ["needs --reroll"]),
    ("system = \"pool\"\nparams = 3\n", ["params", "expected a table"]),
    ("system = 5\n", ["system", "expected text"]),
    ("system = [\n", ["invalid TOML"]),
])
def test_bad_query_files_are_one_line_exit_2(tmp_path: Path, text: str, needles: list[str]) -> None:
    path = write(tmp_path, "q.toml", text)
    for command in (["run", str(path)], ["sample", str(path), "-n", "3"]):
        line = one_error_line(CliRunner().invoke(main, command))
        assert "q.toml" in line
        for needle in needles:
            assert needle in line, line


def test_group_system_needs_a_command(echo_group: dict, tmp_path: Path) -> None:
    line = one_error_line(CliRunner().invoke(main, ["run", str(write(tmp_path, "q.toml", 'system = "testsys"\n'))]))
    assert "needs a command" in line and "echo" in line
    line = one_error_line(CliRunner().invoke(main, ["run", str(write(tmp_path, "q.toml",
                                                                     'system = "testsys"\ncommand = "ech"\n'))]))
    assert "'ech' is not a command" in line and "echo" in line


def test_missing_and_odd_files(tmp_path: Path) -> None:
    assert "cannot read" in one_error_line(CliRunner().invoke(main, ["run", str(tmp_path / "none.toml")]))
    assert "folder" in one_error_line(CliRunner().invoke(main, ["run", str(tmp_path)]))
    (tmp_path / "bin.toml").write_bytes(bytes(range(256)))
    assert "UTF-8" in one_error_line(CliRunner().invoke(main, ["run", str(tmp_path / "bin.toml")]))


def test_python_api_errors_are_input_errors() -> None:
    with pytest.raises(InputError, match="unknown key 'nn'"):
        Query("pool", None, {"nn": 1}).answer()
    with pytest.raises(InputError, match="needs a system"):
        Query.from_args([])
    with pytest.raises(InputError, match="exactodds pool: .*--hit"):
        Query.from_args(["pool", "1", "--hit", "9+"])


def test_negative_positional_is_refused_by_the_command_not_as_an_option() -> None:
    assert params_to_args(Query("pool").command_object(), {"n": -1, "hit": "4+"}) == ["--hit", "4+", "--", "-1"]


# ------------------------------------------------------------------ sample
def test_sample_is_exact_and_reproducible(tmp_path: Path) -> None:
    path = write(tmp_path, "bs8.toml", BS8_POOL)
    a = invoke("sample", str(path), "-n", "500", "--seed", "7").output
    assert a == invoke("sample", str(path), "-n", "500", "--seed", "7").output
    assert a != invoke("sample", str(path), "-n", "500", "--seed", "8").output
    draws = Query.from_toml(path).dist().sample(500, 7)
    assert a.splitlines() == ["outcome"] + [str(x) for x in draws]
    counts = invoke("sample", str(path), "-n", "500", "--seed", "7", "--counts").output
    assert counts.splitlines() == ["outcome,count", f"0,{draws.count(0)}", f"1,{draws.count(1)}"]


def test_sample_out_file_and_errors(tmp_path: Path) -> None:
    path = write(tmp_path, "bs8.toml", BS8_POOL)
    out = tmp_path / "s.csv"
    r = CliRunner().invoke(main, ["sample", str(path), "-n", "20", "--out", str(out)])
    assert r.exit_code == 0 and "wrote 20 draws" in r.output
    assert out.read_text().splitlines()[0] == "outcome" and len(out.read_text().splitlines()) == 21
    assert "cannot write" in one_error_line(CliRunner().invoke(main, ["sample", str(path), "-n", "2", "--out",
                                                                      str(tmp_path)]))
    one_error_line(CliRunner().invoke(main, ["sample", str(path), "-n", "0"]))
    assert "10,000,000" in one_error_line(CliRunner().invoke(main, ["sample", str(path), "-n", "60000000"]))
