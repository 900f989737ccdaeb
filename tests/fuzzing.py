"""Shared fuzzing machinery: a generic walk of the click command tree and
hypothesis strategies for well-formed and malformed command lines, broken
files, and junk Python values.

Nothing here names a command: :func:`walk` finds every group and command
under ``exactodds.cli:main`` (rule systems added later are picked up), and
the strategies are derived from each parameter's click type, or the kind of
value of the commands layer behind it (``p.type.kind``):

- :class:`~exactodds.commands.kinds.Count` -> whole numbers in its range (small,
  to keep accepted queries cheap), :class:`~exactodds.commands.kinds.TargetNumber`
  -> ``X+``/``auto``/``fail``, :class:`~exactodds.commands.kinds.Faces` ->
  ``1,2``-style lists, ``click.Choice`` -> its choices, flags -> present or
  not, profile files and ``click.Path``/``click.File`` -> example files (``examples/**``, copied
  to a temporary folder so relative paths inside them still resolve) or
  temporary files with broken content;
- any other type -> the tokens of a broad pool that the type's own
  ``convert`` (or kind's) accepts (so a new parameter type gets sensible values with no
  change here).

Malformed command lines start from a well-formed one and corrupt it: a bad
value for one parameter, a missing required parameter, an unknown option, a
repeated option, every flag at once, a stray token, a broken file.

:func:`check_result` holds the contract every invocation must meet (see its
docstring). The number of examples is scaled by the environment variable
``EXACTODDS_FUZZ_SCALE`` (default 1; e.g. 10 for a long local run).
"""

from __future__ import annotations

import atexit
import contextlib
import csv
import hashlib
import io
import json
import os
import re
import shlex
import shutil
import signal
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import click
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

from exactodds.cli import main
from exactodds.commands.kinds import Count, Faces, TargetNumber

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES_DIR = ROOT / "examples"
EXIT_CODES = {0, 1, 2}
"""The documented exit statuses: 0 answered, 1 a rejected validation, 2 bad input (3 is a bug)."""

SMALL_LIMIT = 20_000
"""``--max-states`` given to most fuzzed queries, so accepted ones stay cheap."""

WATCHDOG_SECONDS = 60
"""A fuzzed invocation still running after this long is reported as unbounded
work (a safety net against hanging CI, not a timing assertion)."""

SCALE = max(1, int(os.environ.get("EXACTODDS_FUZZ_SCALE", "1") or 1))

COUNTS = {"cli": 0, "api": 0}
"""Fuzz cases run in this process (printed at exit when ``EXACTODDS_FUZZ_COUNT=1``)."""


def _print_counts() -> None:
    if os.environ.get("EXACTODDS_FUZZ_COUNT"):
        print(f"\nfuzz cases: {COUNTS['cli']:,} CLI invocations, {COUNTS['api']:,} API calls")


atexit.register(_print_counts)


SHRINK = os.environ.get("EXACTODDS_FUZZ_SHRINK", "") not in ("", "0")


def fuzz_settings(max_examples: int) -> settings:
    """Reproducible hypothesis settings: no example database, derandomized, no deadline.

    No shrinking unless ``EXACTODDS_FUZZ_SHRINK=1``: a failing case is reported
    as found (command lines are short anyway), and a failure costs CI no extra
    minutes of shrinking."""
    phases = [Phase.explicit, Phase.generate] + ([Phase.shrink] if SHRINK else [])
    return settings(max_examples=max_examples * SCALE, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much],
                    print_blob=False, phases=phases)


# --------------------------------------------------------------------------- command tree
@dataclass(frozen=True)
class Node:
    """A group or command of the CLI, by its path of names (``()`` is the root)."""

    path: tuple[str, ...]
    command: click.Command

    @property
    def is_group(self) -> bool:
        return isinstance(self.command, click.Group)

    @property
    def id(self) -> str:
        return " ".join(self.path) or "(root)"


def walk(root: click.Command = main, path: tuple[str, ...] = ()) -> list[Node]:
    """Every group and command under ``root``, depth first, in name order."""
    out = [Node(path, root)]
    if isinstance(root, click.Group):
        ctx = click.Context(root, info_name=" ".join(("exactodds",) + path))
        for name in sorted(root.list_commands(ctx)):  # groups may build their commands on demand
            command = root.get_command(ctx, name)
            assert command is not None, name
            out.extend(walk(command, path + (name,)))
    return out


def commands() -> list[Node]:
    """The leaf commands (those that do something)."""
    return [n for n in walk() if not n.is_group]


def groups() -> list[Node]:
    """The groups, root included."""
    return [n for n in walk() if n.is_group]


def user_params(cmd: click.Command) -> list[click.Parameter]:
    """The command's parameters except ``--help`` and ``--version`` (eager, exit at once)."""
    return [p for p in cmd.params
            if not (isinstance(p, click.Option) and p.is_eager and p.expose_value is False)]


def option_name(p: click.Option) -> str:
    """The longest ``--long`` spelling of an option."""
    longs = [o for o in p.opts if o.startswith("--")]
    return max(longs or p.opts, key=len)


def is_flag(p: click.Parameter) -> bool:
    return isinstance(p, click.Option) and (p.is_flag or p.count)


def is_output_path(p: click.Parameter) -> bool:
    """An option naming a file the command writes (``--out``): fuzzed with fresh temporary paths."""
    t = p.type
    if isinstance(t, click.File) and "w" in t.mode:
        return True
    return (p.name or "") in {"out", "output", "out_file", "output_file", "plot"} or (
        isinstance(t, click.Path) and getattr(t, "writable", False) and not getattr(t, "readable", True))


_FILE_METAVAR = re.compile(r"(\.(toml|csv|jsonl?)\]?(\.\.\.)?$)|FILE|PATH", re.IGNORECASE)


def is_path(p: click.Parameter) -> bool:
    """A file parameter: a click Path/File, a type flagged ``is_path``, or a metavar like ``UNIT.toml``."""
    if isinstance(p.type, (click.Path, click.File)) or getattr(p.type, "is_path", False):
        return True
    return bool(p.metavar and _FILE_METAVAR.search(p.metavar))


# --------------------------------------------------------------------------- files
_TMP = Path(tempfile.mkdtemp(prefix="exactodds-fuzz-"))
_EXAMPLES_COPY = _TMP / "examples"
(_TMP / "out").mkdir()
atexit.register(shutil.rmtree, _TMP, ignore_errors=True)

STREAMING = {("sweep",)}
"""Commands that write each row as it completes: an error stops them after the rows already
written (each a right answer), so exit 2 may follow some output on stdout."""

SLOW_EXAMPLES = {"40k6_1000.toml"}
"""Examples too slow for a fuzz case (a sweep of 1,000 queries takes seconds); fuzzed only when mutated."""

PINNED = {"scheduler": "local", "workers": "1"}
"""Well-formed values pinned by parameter name: fuzz cases run in this process, never start
worker processes or clusters (the parameters are still fuzzed with bad values)."""


def tmp_dir() -> Path:
    """The fuzzers' private temporary folder (one per test process)."""
    return _TMP


def _copy_examples() -> None:
    if not _EXAMPLES_COPY.exists():
        if EXAMPLES_DIR.is_dir():
            shutil.copytree(EXAMPLES_DIR, _EXAMPLES_COPY, ignore=shutil.ignore_patterns(".*", "__pycache__"))
        else:
            _EXAMPLES_COPY.mkdir()


_EXAMPLE_CACHE: dict[str, list[Path]] = {}


def example_files(suffix: str) -> list[Path]:
    """The examples with this suffix, from the temporary copy of ``examples/``
    (listed once: the fuzzers' own files written beside them are not examples)."""
    if suffix not in _EXAMPLE_CACHE:
        _copy_examples()
        _EXAMPLE_CACHE[suffix] = sorted(p for p in _EXAMPLES_COPY.rglob(f"*{suffix}")
                                        if p.is_file() and not p.name.startswith("fuzz-"))
    return _EXAMPLE_CACHE[suffix]


def query_examples() -> list[Path]:
    """The example TOML files that are query files (a top-level ``system`` key)."""
    import tomllib

    out = []
    for f in example_files(".toml"):
        try:
            if "system" in tomllib.loads(f.read_text(encoding="utf-8")):
                out.append(f)
        except (tomllib.TOMLDecodeError, UnicodeDecodeError):
            continue
    return out


_SAMPLES: list[Path] = []


def sample_files() -> list[Path]:
    """CSV samples drawn (by the CLI's own ``sample`` command, when there is one) from
    each example query, so that ``validate`` gets well-formed sample files."""
    if not _SAMPLES and main.get_command(click.Context(main), "sample") is not None:
        for q in query_examples():
            out = _TMP / "samples" / f"{q.stem}.samples.csv"  # its query: :func:`sampled_pairs`
            out.parent.mkdir(exist_ok=True)
            r = CliRunner().invoke(main, ["sample", str(q), "-n", "300", "--seed", "1", "--out", str(out)])
            if r.exit_code == 0 and out.exists():
                _SAMPLES.append(out)
    return _SAMPLES


def sampled_pairs() -> list[tuple[Path, Path]]:
    """Each example query with the samples drawn from it by :func:`sample_files`."""
    by_stem = {q.stem: q for q in query_examples()}
    return [(by_stem[s.name.removesuffix(".samples.csv")], s) for s in sample_files()
            if s.name.removesuffix(".samples.csv") in by_stem]


def example_text(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


FIXED_BAD_CONTENT: dict[str, bytes] = {
    "empty": b"",
    "blank": b"\n\n   \n",
    "binary": bytes(range(256)) * 8,
    "nul": b"system = \"pool\"\x00\n",
    "latin-1": "name = \"\xe9p\xe9e\"\n".encode("latin-1"),
    "bom": b"\xef\xbb\xbfsystem = \"pool\"\n",
    "long-line": b"x" * 2_000_000,
    "toml-syntax": b"[[[\nsystem = \n",
    "toml-duplicate-key": b"system = \"pool\"\nsystem = \"pool\"\n",
    "toml-unclosed": b"x = [1, 2\n",
    "toml-wrong-shape": b"params = 3\nsystem = 5\n",
    "toml-unknown-system": b"system = \"nosuch\"\ncommand = \"x\"\n[params]\nn = 1\n",
    "toml-empty-params": b"system = \"pool\"\n[params]\n",
    "toml-deep": b"a = " + b"[" * 5000 + b"]" * 5000 + b"\n",
    "csv-header-only": b"outcome\n",
    "csv-garbage": b"outcome\nfoo\n\xff\xfe\n",
    "csv-ragged": b"a,b,c\n1,2\n1,2,3,4\n",
    "csv-negative-count": b"outcome,count\n1,-5\n",
    "csv-huge-count": b"outcome,count\n1," + b"9" * 5000 + b"\n",
    "csv-float-count": b"outcome,count\n1,1e9999\n2,nan\n",
    "csv-unknown-field": b"nosuch,other\n1,2\n",
    "csv-quotes": b"outcome\n\"1\n2\n",
    "jsonl-garbage": b"{\"outcome\": 1}\n{not json\n[1,2]\n",
    "csv-many-rows": b"outcome\n" + b"1\n2\n3\n" * 30_000,
    # at and just over each limit (nesting 32, numbers of 30 digits, lines of 1,000,000 characters)
    "toml-deep-at-limit": b"a = " + b"[" * 31 + b"]" * 31 + b"\n",
    "toml-deep-over-limit": b"a = " + b"[" * 33 + b"]" * 33 + b"\n",
    "toml-digits-at-limit": b"system = \"pool\"\n[params]\nn = " + b"9" * 30 + b"\nhit = \"4+\"\n",
    "toml-digits-over-limit": b"system = \"pool\"\n[params]\nn = " + b"9" * 31 + b"\nhit = \"4+\"\n",
    "toml-unicode-digits": "system = \"pool\"\n[params]\nn = \"\u0663\"\nhit = \"\uff14+\"\n".encode(),
    "toml-nul-in-string": b"system = \"po\x00ol\"\n[params]\nn = 3\n",
    "csv-unicode-digits": "outcome\n\u0663\n\uff14\n".encode(),
    "csv-nul": b"outcome\n1\x00\n2\n",
    "csv-digits-at-limit": b"outcome,count\n1," + b"9" * 30 + b"\n",
    "csv-line-at-limit": b"outcome\n" + b"x" * 999_999 + b"\n1\n",
    "jsonl-deep-at-limit": b"[" * 32 + b"]" * 32 + b"\n",
    "jsonl-deep-over-limit": b"[" * 33 + b"]" * 33 + b"\n",
}
"""Broken file contents, each written once (a sparse 11 MB file is added: over the TOML size limit; and a
valid query padded with a comment to exactly the limit)."""


def fixed_bad_file(kind: str, suffix: str) -> Path:
    """A temporary file holding ``FIXED_BAD_CONTENT[kind]`` (or the sparse over-size file)."""
    folder = _TMP / "bad"
    folder.mkdir(exist_ok=True)
    path = folder / f"{kind}{suffix}"
    if not path.exists():
        if kind == "over-size":
            with open(path, "wb") as f:  # sparse: 11 MB of NULs, instant to create, never read in full
                f.truncate(11 * 1024 * 1024)
        elif kind == "at-size":  # a query file of exactly the TOML size limit (read, parsed and answered)
            from exactodds.tomlfiles import MAX_FILE_BYTES

            head, tail = b"system = \"pool\"\n# ", b"\n[params]\nn = 3\nhit = \"4+\"\n"
            path.write_bytes(head + b"x" * (MAX_FILE_BYTES - len(head) - len(tail)) + tail)
        else:
            path.write_bytes(FIXED_BAD_CONTENT[kind])
    return path


BAD_FILE_KINDS = sorted(FIXED_BAD_CONTENT) + ["over-size", "at-size"]


def file_with(content: str, like: Path | None, suffix: str) -> Path:
    """Write ``content`` to a file named by its hash, beside ``like`` (so relative paths resolve)."""
    folder = like.parent if like is not None else _TMP / "gen"
    folder.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha1(content.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    path = folder / f"fuzz-{digest}{suffix}"
    if not path.exists():
        path.write_text(content, encoding="utf-8", errors="surrogatepass")
    return path


_ASSIGN = re.compile(r"^(\s*)([A-Za-z0-9_\-\"']+)(\s*=\s*)(.*)$")

TOML_VALUES = ["0", "-1", "1", "7", "11", "1000000000000", "99999999999999999999999", "1.5", "-0.0", "nan", "inf",
               "true", "false", '""', '"x"', '"4+"', '"0+"', '"7+"', '"auto"', '"nosuch"', '"../nosuch.toml"',
               '"/dev/null"', "[]", "[1, 2]", "[-3]", '["a", 1]', "{}", "{ a = 1 }", "1979-05-27", '"\u00e9\u263a"',
               '"\\u0000"', "[[1]]"]


@st.composite
def mutated_toml(draw: st.DrawFn, source: Path) -> Path:
    """A copy of the example ``source`` with one to three line-level mutations:
    a value replaced, a line deleted or repeated, an unknown key added, the
    text cut short. Written beside the example's copy so relative paths resolve."""
    lines = example_text(source).splitlines()
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["value", "value", "value", "delete", "repeat", "unknown", "truncate", "table"]))
        assigns = [i for i, line in enumerate(lines) if _ASSIGN.match(line) and not line.lstrip().startswith("#")]
        if op == "value" and assigns:
            i = draw(st.sampled_from(assigns))
            m = _ASSIGN.match(lines[i])
            assert m is not None
            lines[i] = m.group(1) + m.group(2) + m.group(3) + draw(st.sampled_from(TOML_VALUES))
        elif op == "delete" and lines:
            del lines[draw(st.integers(0, len(lines) - 1))]
        elif op == "repeat" and assigns:
            i = draw(st.sampled_from(assigns))
            lines.insert(i, lines[i])
        elif op == "unknown":
            lines.insert(draw(st.integers(0, len(lines))), "nosuch_key = 1")
        elif op == "truncate":
            text = "\n".join(lines)
            lines = text[:draw(st.integers(0, len(text)))].splitlines()
        elif op == "table":
            lines.insert(draw(st.integers(0, len(lines))), draw(st.sampled_from(["[params]", "[[models]]", "[x]"])))
    return file_with("\n".join(lines) + "\n", source, source.suffix)


CSV_CELLS = ["", "-1", "0", "1", "2", "99", "1.5", "1e9999", "nan", "x", "\u00e9", '"', '"a,b"', "9" * 40,
             "true", "{}", "[1]", "outcome", "count", " 1 "]


@st.composite
def mutated_csv(draw: st.DrawFn, source: Path) -> Path:
    """A copy of the sample file ``source`` with one to three mutations: a cell
    replaced, a column added, a line deleted, repeated or cut, a blank line."""
    lines = example_text(source).splitlines()[:400]
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["cell", "cell", "column", "delete", "repeat", "truncate", "blank"]))
        if not lines:
            break
        i = draw(st.integers(0, len(lines) - 1))
        if op == "cell":
            cells = lines[i].split(",")
            cells[draw(st.integers(0, len(cells) - 1))] = draw(st.sampled_from(CSV_CELLS))
            lines[i] = ",".join(cells)
        elif op == "column":
            lines[i] += "," + draw(st.sampled_from(CSV_CELLS))
        elif op == "delete":
            del lines[i]
        elif op == "repeat":
            lines.insert(i, lines[i])
        elif op == "truncate":
            lines[i] = lines[i][:draw(st.integers(0, len(lines[i])))]
            del lines[i + 1:]
        else:
            lines.insert(i, "")
    return file_with("\n".join(lines) + "\n", source, source.suffix)


# --------------------------------------------------------------------------- tokens
HUGE = ["9" * 40, "1" * 5000, str(2**64), "10000000", "2000001", "1e9", "1e400"]
NEGATIVE = ["-1", "-0", "-7", "-999999999999", "-4+"]
WEIRD = ["", " ", "\t", "abc", "None", "null", "nan", "inf", "-inf", "1.5", "0.0", "\u00bd", "\u0663", "\uff14",
         "\u00b2", "3 ", " 3", "+3", "0x10", "1_000", "\u00e9", "\U0001f3b2", "\x00", "\n", "--", "-", "=", "4++",
         "+", "7+", "0+", "1+", "4-", "4+5", "auto ", "AUTO", "FAIL", "a", "f", "true", "false", "yes", "[1,2]",
         "1,", ",1", "1,,2", "2d6", "d6", "D3", "3,5", "'", '"', "\\", "%s", "{}", "$HOME", "..", "/",
         "/nonexistent/file.toml", "x" * 300]
BAD_TOKENS = HUGE + NEGATIVE + WEIRD
PROBE_TOKENS = ([str(i) for i in range(0, 13)] + ["20", "24", "36", "100", "1000"]
                + [f"{i}+" for i in range(2, 7)] + ["auto", "fail", "1", "1,2", "6", "2d6", "d6", "D3", "d3",
                                                   "3,5", "4,4", "0.5", "1/2", "1/3", "2/3", "true", "false", "yes",
                                                   "no", "short", "long", "closest", "random", "optimal", "hits",
                                                   "none", "all", "even", "odd", "6\"", "12"])
"""Candidate values for parameter types this module does not know: kept when the type's ``convert`` accepts them."""


def _kind(p: click.Parameter) -> Any:
    """The commands layer's kind of value behind a generated parameter (None for others)."""
    return getattr(p.type, "kind", None)


def _accepts(p: click.Parameter, token: str) -> bool:
    try:
        kind = _kind(p)
        if kind is not None:
            kind.convert(token, {})
        else:
            p.type.convert(token, p, None)
    except Exception:  # noqa: BLE001 - a probe: any failure means "not a value of this type"
        return False
    return True


def probe_values(p: click.Parameter) -> list[str]:
    """The tokens of :data:`PROBE_TOKENS` that ``p``'s type accepts."""
    return [t for t in PROBE_TOKENS if _accepts(p, t)]


def count_values(t: Count, big: bool) -> st.SearchStrategy[str]:
    """Whole numbers in the Count's range: small, or anywhere (big) to exercise the size limit."""
    low = -5 if t.low is None else t.low
    high_small = low + 12 if t.high is None else min(t.high, low + 12)
    small = st.integers(low, high_small)
    if not big:
        return small.map(str)
    top = low + 10**7 if t.high is None else t.high
    return st.one_of(small, st.integers(low, top)).map(str)


_PATH_WORDS = re.compile(r"[a-z0-9]+")


def _words(text: str) -> set[str]:
    words = set(_PATH_WORDS.findall(text.lower()))
    return words | {w.rstrip("s") for w in words}


def examples_for(node_path: Sequence[str], p: click.Parameter) -> list[Path]:
    """Example files most likely meant for ``p``: same suffix, ranked by the words
    they share with the parameter's name and the command's path (all examples
    of the suffix when none share a word)."""
    if _words(f"{p.name} {p.metavar or ''}") & {"sample", "csv", "jsonl", "data"}:
        return example_files(".csv") + example_files(".jsonl") + sample_files()
    if _words(f"{p.name} {p.metavar or ''}") & {"roster"}:  # exactodds import: .ros and .rosz files
        return example_files(".ros") + example_files(".rosz")
    files = [f for f in example_files(".toml") if f.name not in SLOW_EXAMPLES]
    if not files:
        return []
    aliases = {"40k6": {"wh40k6", "40k", "wh40k"}, "wh40k6": {"40k6"}, "hd": {"hell", "dorado", "helldorado"}}
    system = _words(" ".join(node_path[:1]))
    for w in list(system):
        system |= aliases.get(w, set())
    name = _words(f"{p.name} {p.metavar or ''}")

    def score(f: Path) -> int:
        rel = f.relative_to(_EXAMPLES_COPY)
        return 10 * len(system & _words(str(rel.parent))) + len(name & _words(rel.stem))

    scored = [(score(f), f) for f in files]
    best = max(s for s, _ in scored)
    return [f for s, f in scored if s == best] if best else files


def valid_value(node_path: Sequence[str], p: click.Parameter, big: bool = False) -> st.SearchStrategy[str]:
    """One well-formed value for ``p`` (one token)."""
    t = p.type
    kind = _kind(p)
    if p.name in PINNED:
        return st.just(PINNED[p.name])
    if isinstance(kind, Count):
        return count_values(kind, big)
    if isinstance(kind, TargetNumber):
        return st.sampled_from([f"{i}+" for i in range(2, 7)] + ["auto", "fail"])
    if isinstance(kind, Faces):
        return st.sets(st.integers(1, 6), min_size=1, max_size=3).map(lambda s: ",".join(map(str, sorted(s))))
    if isinstance(t, click.Choice):
        return st.sampled_from([str(c) for c in t.choices])
    if isinstance(t, click.IntRange):
        lo = t.min if t.min is not None else -5
        hi = t.max if t.max is not None else lo + 12
        return st.integers(int(lo) + int(bool(t.min_open)), int(min(hi, lo + 12)) - int(bool(t.max_open))).map(str)
    if isinstance(t, click.FloatRange):
        lo = -5.0 if t.min is None else float(t.min)
        hi = lo + 12 if t.max is None else float(t.max)
        return st.floats(lo, hi, exclude_min=bool(t.min_open), exclude_max=bool(t.max_open)).map(lambda x: f"{x:.4g}")
    if isinstance(t, click.types.FloatParamType):
        return st.sampled_from(["0", "0.5", "1", "2.5", "6"])
    if is_output_path(p):
        return st.integers(0, 10**6).map(lambda i: str(_TMP / "out" / f"out-{i}.csv"))
    if p.name == "queries":  # compare --query: a query written as on the command line
        return st.sampled_from(QUERY_LINES)
    if is_path(p):
        files = examples_for(node_path, p)
        if files:
            return st.sampled_from([str(f) for f in files])
        return st.sampled_from([str(fixed_bad_file("empty", ".toml"))])
    if t is click.BOOL:
        return st.sampled_from(["true", "false"])
    found = probe_values(p)
    if found:
        return st.sampled_from(found)
    return st.sampled_from(PROBE_TOKENS)


def bad_value(node_path: Sequence[str], p: click.Parameter) -> st.SearchStrategy[str]:
    """A value for ``p`` likely to be refused (or at least odd)."""
    generic = st.one_of(st.sampled_from(BAD_TOKENS), st.text(max_size=8),
                        st.integers(-10**40, 10**40).map(str))
    if is_path(p) and not is_output_path(p):
        files = examples_for(node_path, p)
        broken = st.sampled_from(BAD_FILE_KINDS).map(lambda k: str(fixed_bad_file(k, ".toml" if "toml" in k or k in (
            "empty", "binary", "nul", "latin-1", "bom", "over-size", "long-line", "blank") else ".csv")))
        choices = [broken, st.sampled_from([str(_TMP), str(_TMP / "missing.toml"), "-", ""])]
        tomls = [f for f in files if f.suffix == ".toml"]
        tables = [f for f in files if f.suffix in (".csv", ".jsonl")]
        if tomls:
            choices.append(st.sampled_from(tomls).flatmap(mutated_toml).map(str))
        if tables:
            choices.append(st.sampled_from(tables).flatmap(mutated_csv).map(str))
        return st.one_of(*choices)
    if is_output_path(p):
        return st.sampled_from([str(_TMP), str(_TMP / "no" / "such" / "dir" / "x.csv"), "", "/dev/full"])
    return generic


# --------------------------------------------------------------------------- command lines
@dataclass
class Invocation:
    """A command line (after ``exactodds``) and the environment to run it in."""

    args: list[str]
    env: dict[str, str]
    head: int = 0
    """Index of the first token after the command's path."""

    def __repr__(self) -> str:
        env = " ".join(f"{k}={shlex.quote(v)}" for k, v in self.env.items())
        return f"{env + ' ' if env else ''}exactodds {shlex.join(self.args)}"


def _option_tokens(name: str, values: list[str], inline: bool) -> list[str]:
    if inline and len(values) == 1 and name.startswith("--"):
        return [f"{name}={values[0]}"]
    return [name, *values]


@st.composite
def global_prefix(draw: st.DrawFn, allow_bad: bool = True) -> tuple[list[str], dict[str, str]]:
    """``--max-states`` (small, mostly 20,000) or the environment variable, broken if ``allow_bad``."""
    how = draw(st.sampled_from(["option"] * 8 + ["env"] + (["env-bad"] if allow_bad else [])))
    if how == "option":
        return ["--max-states", str(draw(st.sampled_from([SMALL_LIMIT] * 6 + [1, 10, 500])))], {}
    if how == "env":
        return [], {"EXACTODDS_MAX_STATES": str(draw(st.sampled_from([SMALL_LIMIT, 50])))}
    return [], {"EXACTODDS_MAX_STATES": draw(st.sampled_from(["0", "-3", "abc", "1.5", "9" * 50, " "]))}


def _says_required(p: click.Parameter) -> bool:
    """An option its help calls required (``(required unless ...)``): given in well-formed lines."""
    return isinstance(p, click.Option) and "required" in (p.help or "").lower()


QUERY_LINES = ["pool 3 --hit 4+", "pool 2 --hit 3+ --reroll-failed", "40k6 hit --shots 2 --bs 8",
               "40k6 wound --strength 4 --toughness 5 --hits 2"]
"""Well-formed values of ``compare --query``."""


@st.composite
def well_formed(draw: st.DrawFn, node: Node, big: bool = False) -> Invocation:
    """Required parameters with valid values, optional ones sometimes, in a random order."""
    prefix, env = draw(global_prefix(allow_bad=False))
    options: list[list[str]] = []
    arguments: list[str] = []
    params = user_params(node.command)
    optional = [p for p in params if isinstance(p, click.Option) and not p.required
                and p.name not in ("fmt", "format") and not _says_required(p)]
    # few optional parameters most of the time (options often depend on each other), sometimes many
    how_many = draw(st.sampled_from([0, 1, 1, 2, 2, 3, len(optional)]))
    chosen = set(draw(st.lists(st.sampled_from(optional), unique_by=lambda p: p.name,
                               max_size=min(how_many, len(optional))))) if optional else set()
    for p in params:
        if isinstance(p, click.Argument):
            n = p.nargs if p.nargs > 0 else draw(st.integers(0 if not p.required else 1, 3))
            if p.required or p.nargs < 0 or draw(st.booleans()):
                arguments += [draw(valid_value(node.path, p, big)) for _ in range(n)]
            continue
        assert isinstance(p, click.Option)
        name = option_name(p)
        if p.name in ("fmt", "format"):
            if draw(st.integers(0, 3)):  # mostly json: its sum is checked
                options.append(_option_tokens(name, ["json"], draw(st.booleans())))
            else:
                options.append([name, draw(valid_value(node.path, p))])
            continue
        if not (p.required or p in chosen or _says_required(p)):
            continue
        repeats = draw(st.integers(1, 3)) if p.multiple else 1
        for _ in range(repeats):
            if is_flag(p):
                if p.secondary_opts and draw(st.booleans()):
                    options.append([p.secondary_opts[0]])
                else:
                    options.append([name])
            else:
                values = [draw(valid_value(node.path, p, big)) for _ in range(max(1, p.nargs))]
                options.append(_option_tokens(name, values, draw(st.integers(0, 4)) == 0))
    pairs = sampled_pairs() if node.path[-1:] == ("validate",) and len(arguments) == 2 else []
    if pairs and draw(st.booleans()):  # half the time a query with samples drawn from its own answer
        arguments = [str(f) for f in draw(st.sampled_from(pairs))]
    order = draw(st.permutations(options)) if options else []
    body = [tok for opt in order for tok in opt]
    if arguments and draw(st.booleans()):
        body = arguments + body
    else:
        body = body + arguments
    return Invocation(prefix + list(node.path) + body, env, len(prefix) + len(node.path))


@st.composite
def malformed(draw: st.DrawFn, node: Node) -> Invocation:
    """A well-formed command line with one to three corruptions."""
    inv = draw(well_formed(node))
    if draw(st.integers(0, 9)) == 0:  # a broken limit in the environment instead of the option
        inv = Invocation(inv.args[2:] if inv.args[:1] == ["--max-states"] else inv.args,
                         {"EXACTODDS_MAX_STATES": draw(st.sampled_from(["0", "-3", "abc", "1.5", "9" * 50, " "]))},
                         inv.head - (2 if inv.args[:1] == ["--max-states"] else 0))
    args = list(inv.args)
    params = user_params(node.command)
    head = inv.head
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["bad-value", "bad-value", "bad-value", "drop", "unknown", "repeat",
                                   "all-flags", "stray", "negative-argument"]))
        valued = [p for p in params if not is_flag(p)]
        if op == "bad-value" and valued:
            p = draw(st.sampled_from(valued))
            value = draw(bad_value(node.path, p))
            if isinstance(p, click.Argument):
                positions = [i for i in range(head, len(args)) if not args[i].startswith("-")
                             and (i == head or not args[i - 1].startswith("--"))]
                if positions:
                    args[draw(st.sampled_from(positions))] = value
                else:
                    args.append(value)
            else:
                args += [option_name(p), value]
        elif op == "drop" and len(args) > head:
            del args[draw(st.integers(head, len(args) - 1))]
        elif op == "unknown":
            args.insert(draw(st.integers(head, len(args))), draw(st.sampled_from(["--nosuch", "-z", "--hit=", "--"])))
        elif op == "repeat" and len(args) > head:
            i = draw(st.integers(head, len(args) - 1))
            args[i:i] = args[i:i + 2]
        elif op == "all-flags":
            args += [option_name(p) for p in params if is_flag(p)]
        elif op == "stray":
            args.insert(draw(st.integers(head, len(args))), draw(st.sampled_from(BAD_TOKENS)))
        elif op == "negative-argument":
            args.append(draw(st.sampled_from(NEGATIVE)))
    return Invocation(args, inv.env, head)


def vocabulary(node: Node) -> list[str]:
    """Tokens meaningful to ``node``: its option spellings, its subcommands, and good values."""
    words: list[str] = []
    for p in user_params(node.command):
        words += list(p.opts) + list(p.secondary_opts)
        if isinstance(p.type, click.Choice):
            words += [str(c) for c in p.type.choices]
    if isinstance(node.command, click.Group):
        words += sorted(node.command.commands)
    return words + ["--format", "json", "--help", "3", "4+", "auto"]


@st.composite
def noise(draw: st.DrawFn, node: Node) -> Invocation:
    """``node``'s path followed by random tokens (its own options, bad tokens, random text)."""
    prefix, env = draw(global_prefix())
    tokens = st.one_of(st.sampled_from(vocabulary(node)), st.sampled_from(BAD_TOKENS), st.text(max_size=6),
                       st.integers(-100, 10**6).map(str))
    return Invocation(prefix + list(node.path) + draw(st.lists(tokens, max_size=8)), env, len(prefix) + len(node.path))


# --------------------------------------------------------------------------- running and checking
class Hang(BaseException):
    """Raised by the watchdog; a BaseException so the CLI's catch-all cannot turn it into exit 3."""


@contextmanager
def watchdog(seconds: int = WATCHDOG_SECONDS, what: str = "") -> Iterator[None]:
    """Fail (with :class:`Hang`) if the block runs longer than ``seconds`` (POSIX main thread only)."""
    if not hasattr(signal, "setitimer"):
        yield
        return

    def on_alarm(signum: int, frame: Any) -> None:
        raise Hang(f"no answer after {seconds} s (unbounded work?): {what}")

    try:
        old = signal.signal(signal.SIGALRM, on_alarm)
    except ValueError:  # not the main thread
        yield
        return
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@contextmanager
def _in_scratch_folder() -> Iterator[None]:
    """Run in a fresh folder under the fuzzers' temporary folder, then come back."""
    old = os.getcwd()
    with tempfile.TemporaryDirectory(dir=_TMP) as folder:
        os.chdir(folder)
        try:
            yield
        finally:
            os.chdir(old)


def invoke(inv: Invocation, runner: CliRunner | None = None) -> Result:
    """Run the CLI in-process through click's test runner, under the watchdog."""
    COUNTS["cli"] += 1
    runner = runner or CliRunner()
    env = {"EXACTODDS_MAX_STATES": None, "EXACTODDS_MAX_DIGITS": None, "EXACTODDS_DEBUG": None, **inv.env}
    # exactodds import writes its folder where --out says (random text: relative to the current folder)
    where = _in_scratch_folder() if "import" in inv.args else contextlib.nullcontext()
    with where, watchdog(what=repr(inv)):
        return runner.invoke(main, inv.args, env=env, prog_name="exactodds")  # type: ignore[arg-type]


def _format_of(args: Sequence[str]) -> str | None:
    fmt = None
    for i, a in enumerate(args):
        if a == "--format" and i + 1 < len(args):
            fmt = args[i + 1]
        elif a.startswith("--format="):
            fmt = a.split("=", 1)[1]
    return fmt


def check_answer_json(obj: Any, where: str) -> int:
    """If ``obj`` has the shared answer shape, check its probabilities: reduced
    ``num/den`` strings, each positive, summing to exactly 1. Returns the number
    of outcomes checked (0 when ``obj`` is not an answer)."""
    outcomes = obj.get("outcomes") if isinstance(obj, dict) else None
    if not isinstance(outcomes, list) or not outcomes or not all(
            isinstance(o, dict) and set(o) == {"outcome", "p", "p_float"} for o in outcomes):
        return 0
    total = Fraction(0)
    for o in outcomes:
        assert re.fullmatch(r"[0-9]+/[0-9]+", o["p"]), f"{where}: probability {o['p']!r} is not num/den"
        p = Fraction(o["p"])
        assert f"{p.numerator}/{p.denominator}" == o["p"], f"{where}: {o['p']} is not reduced"
        assert p > 0, f"{where}: an outcome of probability 0 is listed: {o}"
        total += p
    assert total == 1, f"{where}: probabilities sum to {total}, not 1"
    return len(outcomes)


def check_answer_csv(text: str, where: str) -> int:
    """As :func:`check_answer_json` for the CSV shape (a ``p`` and a ``p_float`` column)."""
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or "p" not in rows[0] or "p_float" not in rows[0]:
        return 0
    col = rows[0].index("p")
    total = sum((Fraction(r[col]) for r in rows[1:]), Fraction(0))
    assert total == 1, f"{where}: CSV probabilities sum to {total}, not 1"
    return len(rows) - 1


def check_result(inv: Invocation, r: Result) -> None:
    """The contract of every invocation, whatever the arguments:

    - no uncaught exception (only ``SystemExit``);
    - exit status 0, 1 or 2 (3 is an internal error: a bug);
    - no traceback in the output;
    - exit 2: exactly one line on stderr, starting ``Error: ``, and nothing on stdout;
    - exit 0 with ``--format json`` (or csv) and an answer: probabilities exact, summing to 1.
    """
    where = repr(inv)
    exc = r.exception
    if exc is not None and not isinstance(exc, SystemExit):
        raise AssertionError(f"uncaught {type(exc).__name__}: {exc}\n  for: {where}") from exc
    out, err = r.stdout, r.stderr
    assert r.exit_code in EXIT_CODES, f"exit {r.exit_code} for: {where}\n  stderr: {err.strip()[:500]}"
    assert "Traceback" not in out + err, f"traceback for: {where}\n{out}{err}"
    if r.exit_code == 2:
        lines = err.splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: "), \
            f"exit 2 needs exactly one 'Error: ' line on stderr, for: {where}\n  stderr: {err[:800]!r}"
        streaming = any(tuple(inv.args[inv.head - len(p):inv.head]) == p for p in STREAMING)
        assert out == "" or streaming, f"exit 2 after writing output, for: {where}\n  stdout: {out[:300]!r}"
        assert "internal error" not in err
    if r.exit_code == 0 and not ({"--help", "-h", "--version"} & set(inv.args)):
        fmt = _format_of(inv.args)
        if fmt == "json" and out.strip():
            try:
                obj = json.loads(out)
            except json.JSONDecodeError:
                obj = None
                if out.lstrip().startswith(("{", "[")):
                    raise AssertionError(f"--format json gave invalid JSON, for: {where}\n{out[:300]}") from None
            check_answer_json(obj, where)
        elif fmt == "csv":
            check_answer_csv(out, where)


def run_and_check(inv: Invocation, tally: dict[int, int] | None = None) -> Result:
    """Invoke, check the contract, and count the exit status in ``tally``."""
    r = invoke(inv)
    check_result(inv, r)
    if tally is not None:
        tally[r.exit_code] = tally.get(r.exit_code, 0) + 1
    return r


# --------------------------------------------------------------------------- API junk
def junk() -> st.SearchStrategy[Any]:
    """Values of every kind a caller might pass by mistake."""
    from decimal import Decimal

    return st.one_of(
        st.none(), st.booleans(), st.integers(-10**30, 10**30), st.sampled_from([-1, 0, 1, 2, 7, 10**9]),
        st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=6), st.sampled_from(["4+", "1/2", "x", ""]),
        st.fractions(), st.just(Decimal("0.5")), st.complex_numbers(max_magnitude=3), st.just(object()),
        st.lists(st.integers(-2, 7), max_size=3), st.tuples(st.integers(), st.integers()),
        st.dictionaries(st.integers(-2, 7), st.integers(-2, 7), max_size=3), st.just(b"4+"),
        st.just(lambda x: x), st.just(float("nan")),
    )


def call_api(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call ``fn``; an ``ExactOddsError`` (InputError, TooLargeError) is a proper refusal
    and returns None; any other exception escapes (the test fails)."""
    from exactodds import ExactOddsError

    COUNTS["api"] += 1
    try:
        with watchdog(what=f"{getattr(fn, '__qualname__', fn)}{args!r:.200}"):
            return fn(*args, **kwargs)
    except ExactOddsError:
        return None


def assert_probability_distribution(dist: Any) -> None:
    """A Dist's probabilities are positive Fractions summing to exactly 1."""
    items = dist.items()
    assert items, "empty distribution"
    assert all(isinstance(p, Fraction) and p > 0 for _, p in items)
    assert sum(p for _, p in items) == 1
