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
from dataclasses import dataclass
from typing import NamedTuple

import pytest
from click.testing import CliRunner

from exactodds import Dist, InputError
from exactodds.answer import Answer
from exactodds.cli import main
from exactodds.cli.generate import query_from_args
from exactodds.commands import Params, Query, param, query as query_module, registry
from exactodds.commands import systems as query_systems
from exactodds.commands.kinds import Count, Flag, Many, ProfileFile, ProfileRef, Text

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
    from_file, from_flags = Query.from_toml(path), query_from_args(BS8_FLAGS)
    assert from_file == from_flags
    assert from_file.dist() == Dist({0: F(1, 12), 1: F(11, 12)})
    for fmt in ("json", "csv", "table"):
        assert invoke("run", str(path), "--format", fmt).output == invoke(*BS8_FLAGS, "--format", fmt).output


def test_a_different_value_is_a_different_query() -> None:
    q = Query.from_text(BS8_POOL)
    assert q != query_from_args(["pool", "1", "--hit", "2+", "--reroll", "1", "--reroll-hit", "5+"])
    # defaults written out are still the same query
    assert q == Query.from_text(BS8_POOL + "sides = 6\nreroll_failed = false\n")


def test_an_empty_list_leaves_the_option_out() -> None:
    q = Query.from_text('system = "pool"\n[params]\nn = 3\nhit = "4+"\nreroll = []\n')
    assert q.dist() == Dist.binomial(3, F(1, 2))


def test_flags_round_trip_through_toml() -> None:
    q = query_from_args(BS8_FLAGS)
    assert q.typed.plain() == {"n": 1, "hit": "2+", "reroll": [1], "reroll_hit": "4+"}  # values given
    again = Query.from_text(q.to_toml())
    assert again == q and again.dist() == q.dist()
    assert q.command_line() == "exactodds pool 1 --hit 2+ --reroll 1 --reroll-hit 4+"


def test_the_issue_example_40k6_hit_bs8() -> None:
    """``exactodds 40k6 hit --shots 1 --bs 8`` and its file are the same query (P(hit) = 11/12)."""
    text = 'system = "40k6"\ncommand = "hit"\n[params]\nshots = 1\nbs = 8\n'
    q = Query.from_text(text)
    assert q == query_from_args(["40k6", "hit", "--shots", "1", "--bs", "8"])
    assert q.dist() == Query.from_text(BS8_POOL).dist() == Dist({0: F(1, 12), 1: F(11, 12)})


def test_hd_shoot_engaged_fighters_as_a_list() -> None:
    """``engaged_def = [3, 5]`` is ``--engaged-def 3 --engaged-def 5``."""
    flags = ["hd", "shoot", "--dice", "3", "--target-def", "4", "--engaged-def", "3", "--engaged-def", "5",
             "--range-difficulty", "4"]
    q = Query.from_text('system = "hd"\ncommand = "shoot"\n[params]\ndice = 3\ntarget_def = 4\n'
                        'engaged_def = [3, 5]\nrange_difficulty = 4\n')
    assert q == query_from_args(flags) and query_from_args(flags).typed.plain()["engaged_def"] == [3, 5]
    p_target = sum(p for o, p in q.dist().items() if o.recipient == "target")
    assert p_target == F(19, 54)  # the figure of the rules' worked example


def test_every_registered_command_has_query_keys() -> None:
    """Every command of the registry loads, and its keys are its parameter names."""
    systems = query_systems()
    assert systems["pool"] is None
    for system, commands in systems.items():
        for command in commands or [None]:
            spec = registry.find(system, command)
            keys = list(spec.params.specs())
            assert keys and len(keys) == len(set(keys)) and "format" not in keys and "fmt" not in keys


# ------------------------------------- lists, flags, paths: a test command
class Echo(NamedTuple):
    value: int
    label: str


@dataclass(frozen=True, kw_only=True)
class EchoParams(Params):
    count: int = param(Count(0), "A count.", positional=True)
    engaged_def: tuple[int, ...] = param(Many(Count(1, 7)), "Repeated.", ())
    elevated: bool = param(Flag(), "A flag.", False)
    target: ProfileRef | None = param(ProfileFile(), "A profile.", None)
    name: str = param(Text(), "A name.", "x")


@pytest.fixture
def echo_group(monkeypatch: pytest.MonkeyPatch) -> dict:
    """A throwaway ``testsys echo`` command registered for one test."""
    seen: dict = {}
    monkeypatch.setitem(registry.COMMANDS, ("testsys", "echo"), "unused")
    monkeypatch.setattr(registry, "_DEFINED", dict(registry._DEFINED))

    @registry.define("testsys", "echo", EchoParams)
    def echo(p: EchoParams) -> Answer:
        """Record its parameters."""
        seen.update(count=p.count, engaged_def=p.engaged_def, elevated=p.elevated, target=p.target, name=p.name)
        return Answer(Dist.uniform([Echo(p.count, p.name), Echo(p.count + 1, p.name)]), {"count": p.count})

    return seen


def test_lists_repeat_options_and_booleans_are_flags(echo_group: dict, tmp_path: Path) -> None:
    text = ('system = "testsys"\ncommand = "echo"\n[params]\ncount = 2\nengaged_def = [3, 5]\n'
            'elevated = true\nname = "a b"\n')
    q = Query.from_toml(write(tmp_path, "q.toml", text))
    assert q.command_line() == "exactodds testsys echo 2 --engaged-def 3 --engaged-def 5 --elevated --name 'a b'"
    q.answer()
    assert echo_group == {"count": 2, "engaged_def": (3, 5), "elevated": True, "target": None, "name": "a b"}
    assert q == query_from_args(["testsys", "echo", "2", "--engaged-def", "3", "--engaged-def", "5",
                                 "--elevated", "--name", "a b"])
    r = invoke("testsys", "echo", "2", "--engaged-def", "8")
    assert r.exit_code == 2 and "Invalid value for '--engaged-def': 8 is out of range" in r.output


def test_relative_profile_paths_are_read_from_the_query_folder(echo_group: dict, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "queries"
    (folder / "units").mkdir(parents=True)
    write(folder / "units", "unit.toml", "a = 1\n")
    text = ('system = "testsys"\ncommand = "echo"\n[params]\ncount = 1\ntarget = "units/unit.toml"\n'
            'name = "plain.toml.txt"\n')
    write(folder, "q.toml", text)
    monkeypatch.chdir(tmp_path)  # elsewhere than the query file
    Query.from_toml(Path("queries") / "q.toml").answer()
    assert echo_group["target"].path.resolve() == (folder / "units" / "unit.toml").resolve()
    assert echo_group["target"].written == "units/unit.toml"  # as written, for the answer's query line
    assert echo_group["name"] == "plain.toml.txt"  # not a profile: left alone
    write(tmp_path, "abs.toml", "b = 2\n")
    absolute = text.replace('"units/unit.toml"', json.dumps(str(tmp_path / "abs.toml")))
    Query.from_toml(write(folder, "abs.toml", absolute)).answer()
    assert echo_group["target"].path == tmp_path / "abs.toml"
    line = one_error_line(invoke("run", str(write(folder, "bad.toml", text.replace("units/unit", "units/none")))))
    assert f"params.target: {folder.resolve() / 'units' / 'none.toml'}: cannot read the file" in line


def test_profiles_take_part_in_the_key_by_content(echo_group: dict, tmp_path: Path) -> None:
    """Two paths with the same content are the same question; an edited file is another one."""
    a, b = write(tmp_path, "a.toml", "x = 1\n"), write(tmp_path, "b.toml", "x = 1\n")
    qa = Query("testsys", "echo", {"count": 1, "target": str(a)})
    assert qa == Query("testsys", "echo", {"count": 1, "target": str(b)})
    a.write_text("x = 2\n")
    assert qa != Query("testsys", "echo", {"count": 1, "target": str(a)})
    assert qa.key() == Query("testsys", "echo", {"count": 1, "target": str(b)}).key()


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
def test_system_and_command_in_one_command_key(tmp_path: Path) -> None:
    """command = "40k6 hit" without system is system = "40k6" and command = "hit"."""
    one = write(tmp_path, "one.toml", 'command = "40k6 hit"\n[params]\nshots = 1\nbs = 8\n')
    two = write(tmp_path, "two.toml", 'system = "40k6"\ncommand = "hit"\n[params]\nshots = 1\nbs = 8\n')
    assert Query.from_toml(one) == Query.from_toml(two)
    assert invoke("run", str(one)).output.splitlines()[3] == "      1        11/12   0.9167  0.9167"


@pytest.mark.parametrize("text,needles", [
    (BS8_POOL + "hitt = 3\n", ["unknown key 'hitt'", "allowed keys are hit, n, reroll"]),
    ("system = \"pool\"\nformat = \"json\"\n", ["unknown key 'format'", "allowed keys are command"]),
    ("system = \"nosuch\"\n", ["system 'nosuch' is not known", "pool"]),
    ("command = \"hit\"\n", ["system is missing", 'e.g. system = "40k6" with command = "assault"',
                             'or both in one: command = "40k6 assault"']),
    ("command = \"40k6 nosuch\"\n", ["command 'nosuch' is not a command of '40k6'"]),
    ("system = \"pool\"\ncommand = \"x\"\n[params]\nn = 1\nhit = \"4+\"\n", ["single command", "remove command"]),
    ("system = \"pool\"\n[params]\nn = 1\n", ["'hit' is required"]),
    ("system = \"pool\"\n[params]\nn = 1\nhit = \"9+\"\n", ["params.hit", "2+ to 6+"]),
    ("system = \"pool\"\n[params]\nn = -1\nhit = \"4+\"\n", ["params.n", "-1"]),
    ("system = \"pool\"\n[params]\nn = 1\nhit = true\n", ["params.hit: True is not a target number"]),
    ("system = \"pool\"\n[params]\nn = 1\nhit = \"4+\"\nreroll_failed = \"yes\"\n", ["reroll_failed", "true or false"]),
    ("system = \"pool\"\n[params]\nn = 1\nhit = \"4+\"\nreroll = { a = 1 }\n", ["params.reroll", "not a list of faces"]),
    ("system = \"pool\"\n[params]\nn = 1\nhit = \"4+\"\nreroll_hit = \"5+\"\n", ["reroll_hit needs reroll FACES"]),
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
        Query("pool", None, {"nn": 1})
    with pytest.raises(InputError, match="needs a system"):
        query_from_args([])
    with pytest.raises(InputError, match="exactodds pool: .*--hit"):
        query_from_args(["pool", "1", "--hit", "9+"])


def test_each_interface_names_parameters_in_its_own_vocabulary(tmp_path: Path) -> None:
    """One check, three spellings: --reroll-up-to on the command line, reroll_up_to elsewhere."""
    from exactodds import ask

    cli = one_error_line(invoke("pool", "3", "--hit", "4+", "--reroll-failed", "--reroll-up-to", "1"))
    assert cli == "Error: --reroll-failed and --reroll-up-to are alternatives; give one"
    path = write(tmp_path, "q.toml", 'system = "pool"\n[params]\nn = 3\nhit = "4+"\nreroll_failed = true\n'
                                     'reroll_up_to = 1\n')
    assert one_error_line(invoke("run", str(path))) == \
        f"Error: {path}: reroll_failed and reroll_up_to are alternatives; give one"
    with pytest.raises(InputError, match="^reroll_failed and reroll_up_to are alternatives; give one$"):
        ask("pool", n=3, hit="4+", reroll_failed=True, reroll_up_to=1)


def test_negative_positional_is_refused_by_the_command_not_as_an_option() -> None:
    line = one_error_line(invoke("pool", "--hit", "4+", "--", "-1"))
    assert "Invalid value for 'N': -1 is out of range: use a whole number 0 or more" in line
    with pytest.raises(InputError, match="params.n: -1 is out of range"):
        Query("pool", None, {"n": -1, "hit": "4+"}, source="q.toml")


def test_queries_compare_without_raising() -> None:
    """Keys are plain values: queries of different commands compare unequal, never raise."""
    a = Query("pool", None, {"n": 3, "hit": "4+"})
    b = Query("40k6", "hit", {"shots": 3, "bs": 4})
    assert a != b and a != "pool" and len({a, b, Query("pool", None, {"n": 3, "hit": 4})}) == 2
    assert a.key() == ("pool", None, (3, 6, ("at_least", 4, 6), (), None, False, None))


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


def test_a_profile_file_is_read_once_per_question(tmp_path: Path) -> None:
    """The query reads the unit file once, when it is given: the answer comes from
    the bytes it hashed, so removing the file afterwards changes nothing."""
    unit = tmp_path / "unit.toml"
    unit.write_text('name = "Grots"\n[[models]]\ncount = 2\ntoughness = 2\nwounds = 1\n')
    query = Query("40k6", "shoot", {"shots": 1, "bs": 4, "strength": 4, "target": str(unit)})
    unit.unlink()
    answer = query.answer()
    # one shot: BS 4 hits on 3+ (2/3), S4 wounds T2 on 2+ (5/6), no save: a model removed 5/9
    assert answer.dist.pmf(1) == F(5, 9)
    ref = query.params.target
    from exactodds.profiles.wh40k6 import load_target
    assert ref.parsed(load_target) is ref.parsed(load_target)


@pytest.mark.parametrize("name", ["🎲 dice", "𝔇𝔦𝔠𝔢 \U0001F600\U00010348", 'quote " and \\ backslash',
                                  "tab\tnew\nline \x7f", "é ü 漢字 \U0002A6D6"])
def test_a_name_with_any_characters_round_trips_through_toml(echo_group: dict, name: str) -> None:
    import tomllib

    q = Query("testsys", "echo", {"count": 2, "engaged_def": [3, 5], "elevated": True, "name": name})
    text = q.to_toml()
    assert tomllib.loads(text) == {"system": "testsys", "command": "echo",
                                   "params": {"count": 2, "engaged_def": [3, 5], "elevated": True, "name": name}}
    again = Query.from_text(text)
    assert again == q and again.typed.plain()["name"] == name
