"""Generate docs/errors.md: each kind of bad input, an example command, the
exact message it gets and the exit status.

Every row is produced by running the command (in-process, through click's
test runner, in a scratch folder holding a copy of ``examples/`` and the
broken files listed below), so the page cannot drift from the program:
``tests/test_fuzz_cli.py`` regenerates it and compares.

    python docs/gen_errors.py          # rewrite docs/errors.md
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from click.testing import CliRunner, Result

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "errors.md"

_PROFILE_0_WOUNDS = """name = "Broken squad"
[[models]]
name = "Space Marine"
count = 5
toughness = 4
wounds = 0
save = 3
"""

_HH3_UNKNOWN_WEAPON = """name = "Broken squad"
[[models]]
name = "Legionary"
count = 5
bs = 4
weapon = "plasma-lance"

[weapons.boltgun]
firepower = 2
strength = 4
ap = 5
damage = 1
"""

_QUERY_UNKNOWN_KEY = """system = "pool"
[params]
n = 3
hit = "4+"
rerol = 1
"""

_QUERY_WRONG_TYPE = """system = "pool"
[params]
n = "three"
hit = "4+"
"""

_QUERY_UNKNOWN_SYSTEM = """system = "warmachine"
command = "hit"
[params]
shots = 1
"""


def horde_toml(counts: list[int], bs: list[int] | None = None) -> str:
    """A Horus Heresy attacker: one line of ``counts[i]`` models at ``bs[i]`` (default 4) per
    entry, firing 13 weapons in turn (also used by tests/test_torture.py)."""
    lines = ['name = "Horde"', ""]
    for i, c in enumerate(counts):
        lines += ["[[models]]", f'name = "line {i}"', f"count = {c}", f"bs = {bs[i] if bs else 4}",
                  f'weapon = "w{i % 13}"', ""]
    for i in range(13):
        lines += [f"[weapons.w{i}]", "firepower = 1", f"strength = {4 + i % 4}", f"ap = {2 + i % 4}",
                  "damage = 1", ""]
    return "\n".join(lines)


CHAMPIONS_TOML = """name = "Twenty champions"
leadership = 7
cool = 7

[[models]]
name = "Champion"
count = 20
toughness = 5
wounds = 5
save = 3
"""


def _mixed_unit() -> str:
    """Ten 40K models of ten lines: Look Out, Sir, Instant Death and every Initiative."""
    out = ['name = "Mixed"', ""]
    for i in range(10):
        out += ["[[models]]", f'name = "line {i}"', f"toughness = {3 + i % 3}", "wounds = 2", f"save = {2 + i % 5}",
                f"ws = {1 + i % 9}", f"initiative = {1 + i}", "attacks = 3", f"strength = {8 - i % 3}",
                f"ap = {1 + i % 5}", "leadership = 8"] + (["character = true", "look_out_sir = true"] if i % 2 else [])
    return "\n".join(out) + "\n"


def _scenario(step: str, kind: str = "shoot",
              marines: str = "examples/40k6/tactical_squad_mixed_weapons.toml") -> bytes:
    """A scenario file (in the scratch folder) with one step."""
    return (f'[units.marines]\nfile = "{marines}"\n[units.orks]\nfile = "examples/40k6/ork_boyz_sluggas.toml"\n'
            f'[[steps]]\nkind = "{kind}"\n{step}\n').encode()


_UNARMED_HH3 = """name = "Unarmed"
leadership = 7
[[models]]
count = 2
toughness = 4
wounds = 1
"""


def _hh3_scenario(attacker: str, target: str) -> bytes:
    """A Horus Heresy scenario (in the scratch folder) with one exchange."""
    return (f'system = "hh3"\n[units.a]\nfile = "{attacker}"\n[units.b]\nfile = "{target}"\n'
            '[[steps]]\nkind = "exchange"\nattacker = "a"\ntarget = "b"\n').encode()


@dataclass
class Case:
    """One documented bad input: its kind, the command line after ``exactodds``,
    the expected exit status, extra environment, and files to create first."""

    section: str
    kind: str
    args: list[str]
    status: int = 2
    env: dict[str, str] = field(default_factory=dict)
    files: dict[str, bytes] = field(default_factory=dict)
    sparse: dict[str, int] = field(default_factory=dict)

    def command(self) -> str:
        env = " ".join(f"{k}={shlex.quote(v)}" for k, v in self.env.items())
        line = "exactodds " + " ".join(_quote(a) for a in self.args)
        return f"{env} {line}" if env else line


def _quote(arg: str) -> str:
    if len(arg) > 40:
        return shlex.quote(arg[:12]) + f"...({len(arg)} characters)"
    return shlex.quote(arg)


_ROSTER = ('<?xml version="1.0"?><roster xmlns="http://www.battlescribe.net/schema/rosterSchema" id="a" '
           'name="Army" gameSystemId="g" gameSystemName="Warhammer 40,000 7th Edition"><forces/></roster>')


def _zip(entries: dict[str, bytes]) -> bytes:
    import io
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries.items():
            z.writestr(name, data)
    return buf.getvalue()


SQUAD = "examples/40k6/tactical_squad.toml"
HH3_ATTACKER = "examples/hh3/heavy_support_squad.toml"
HH3_TARGET = "examples/hh3/target_tactical_squad.toml"
QUERY = "examples/validation/bs8_query.toml"

CASES: list[Case] = [
    # --- the command line itself
    Case("Command line", "unknown command", ["nosuch"]),
    Case("Command line", "unknown option", ["pool", "3", "--hit", "4+", "--rerol", "1"]),
    Case("Command line", "missing required option", ["pool", "3"]),
    Case("Command line", "missing argument", ["pool", "--hit", "4+"]),
    Case("Command line", "option without its value", ["pool", "3", "--hit"]),
    Case("Command line", "extra argument", ["pool", "3", "4", "--hit", "4+"]),
    Case("Command line", "value not among the choices", ["pool", "3", "--hit", "4+", "--format", "xml"]),
    Case("Command line", "negative count", ["pool", "-1", "--hit", "4+"]),
    Case("Command line", "non-integer count", ["pool", "2.5", "--hit", "4+"]),
    Case("Command line", "a number far too long", ["pool", "9" * 150, "--hit", "4+"]),
    Case("Command line", "target above the die", ["pool", "3", "--hit", "7+"]),
    Case("Command line", "target 0+ (or 1+)", ["pool", "3", "--hit", "0+"]),
    Case("Command line", "target not X+", ["pool", "3", "--hit", "four"]),
    Case("Command line", "face not on the die", ["pool", "3", "--hit", "4+", "--reroll", "7"]),
    Case("Command line", "option needing another", ["pool", "3", "--hit", "4+", "--reroll-hit", "5+"]),
    Case("Command line", "conflicting options", ["pool", "3", "--hit", "4+", "--reroll", "1", "--reroll-failed"]),
    Case("Command line", "BS 0", ["40k6", "hit", "--shots", "1", "--bs", "0"]),
    Case("Command line", "BS 11", ["40k6", "hit", "--shots", "1", "--bs", "11"]),
    Case("Command line", "BS missing", ["40k6", "hit", "--shots", "1"]),
    Case("Command line", "snap shot with a template weapon",
         ["40k6", "shoot", "--shots", "3", "--weapon-type", "template", "--snap", "--strength", "4",
          "--target", SQUAD]),
    Case("Command line", "negative charge distance", ["40k6", "charge", "--distance", "-3"]),
    Case("Command line", "firing-model flag without gets-hot",
         ["40k6", "hit", "--shots", "2", "--bs", "4", "--firer-save", "3+"]),
    Case("Command line", "gets-hot shots that do not split among the firing models",
         ["40k6", "hit", "--shots", "3", "--bs", "4", "--rules", "gets-hot", "--firers", "2"]),
    Case("Command line", "difficulty below 2", ["hd", "shoot", "--dice", "3", "--target-def", "1"]),
    Case("Command line", "option for another option's case",
         ["hh3", "shoot", "--attacker", HH3_ATTACKER, "--target", HH3_TARGET, "--medic-roll", "5+"]),
    Case("Command line", "no such stage", ["40k6", "shoot", "--shots", "3", "--bs", "4", "--strength", "4",
                                            "--target", SQUAD, "--stage", "saves"]),
    Case("Command line", "failed saves of models with different saves",
         ["40k6", "shoot", "--shots", "3", "--bs", "4", "--strength", "4", "--target",
          "examples/40k6/guard_squad_in_ruins.toml", "--outcome", "failed-saves"]),
    # --- plots and comparisons
    Case("Plots and comparisons", "plot file of another type", ["pool", "3", "--hit", "4+", "--plot", "hits.jpg"]),
    Case("Plots and comparisons", "--plot-at-least without --plot", ["pool", "3", "--hit", "4+", "--plot-at-least"]),
    Case("Plots and comparisons", "one query to compare", ["compare", "--query", "pool 3 --hit 4+"]),
    Case("Plots and comparisons", "numeric and composite outcomes compared",
         ["compare", "--query", "pool 3 --hit 4+", "--query", "hd shoot --dice 3 --target-def 4"]),
    Case("Plots and comparisons", "unclosed quote in --query",
         ["compare", "--query", "pool 3 --hit '4+", "--query", "pool 3 --hit 3+"]),
    # --- bounded work
    Case("Bounded work", "too many states", ["pool", "10000000", "--hit", "4+"]),
    Case("Bounded work", "too many states for the limit given",
         ["--max-states", "1000", "40k6", "shoot", "--shots", "10", "--bs", "4", "--strength", "4",
          "--target", SQUAD]),
    Case("Bounded work", "answer too long to write", ["pool", "6000", "--hit", "4+"]),
    Case("Bounded work", "fractions too long to write", ["pool", "20000", "--hit", "4+"]),
    Case("Bounded work", "rerolls up to K of many dice", ["pool", "3000", "--hit", "4+", "--reroll-up-to", "2999"]),
    Case("Bounded work", "master-crafted rerolls of many shots",
         ["40k6", "hit", "--shots", "3000", "--bs", "4", "--master-crafted", "2999"]),
    Case("Bounded work", "a huge Hell Dorado roll", ["hd", "shoot", "--dice", "20000", "--target-def", "4"]),
    Case("Bounded work", "a 1,000-model attacker in 125 fire groups",
         ["hh3", "shoot", "--attacker", "horde.toml", "--target", "champions.toml"],
         files={"horde.toml": horde_toml([8] * 125, [1 + i // 13 for i in range(125)]).encode(), "champions.toml": CHAMPIONS_TOML.encode()}),
    Case("Bounded work", "a fight outgrowing its estimate (stopped as it runs)",
         ["--max-states", "100000", "40k6", "fight", "--attacker", "mixed.toml", "--defender", "mixed.toml",
          "--attacker-charged"], files={"mixed.toml": _mixed_unit().encode()}),
    Case("Bounded work", "bad limit", ["--max-states", "0", "pool", "3", "--hit", "4+"]),
    Case("Bounded work", "bad limit in the environment", ["pool", "3", "--hit", "4+"],
         env={"EXACTODDS_MAX_STATES": "lots"}),
    Case("Bounded work", "bad digit limit in the environment", ["pool", "3", "--hit", "4+"],
         env={"EXACTODDS_MAX_DIGITS": "-5"}),
    # --- files
    Case("Files", "missing file", ["run", "nosuch.toml"]),
    Case("Files", "a folder", ["run", "examples"]),
    Case("Files", "scenario: a step naming an unknown unit", ["scenario", "s.toml"],
         files={"s.toml": _scenario('unit = "marines"\ntarget = "gretchin"')}),
    Case("Files", "scenario: a unit that cannot shoot", ["scenario", "s.toml"],
         files={"s.toml": _scenario('unit = "marines"\ntarget = "orks"', marines="examples/40k6/marines.toml")}),
    Case("Files", "scenario: a step kind that does not exist", ["scenario", "s.toml"],
         files={"s.toml": _scenario('unit = "marines"\ntarget = "orks"', kind="ambush")}),
    Case("Files", "scenario: a charge distance over 12 inches", ["scenario", "s.toml"],
         files={"s.toml": _scenario('attacker = "orks"\ndefender = "marines"\ndistance = 13', kind="assault")}),
    Case("Files", "scenario: a Horus Heresy step in a 40K scenario", ["scenario", "s.toml"],
         files={"s.toml": _scenario('attacker = "marines"\ntarget = "orks"', kind="exchange")}),
    Case("Files", "scenario: an exchange with a unit that cannot shoot", ["scenario", "s.toml"],
         files={"s.toml": _hh3_scenario("examples/hh3/unit_tactical_squad.toml", "unarmed.toml"),
                "unarmed.toml": _UNARMED_HH3.encode()}),
    Case("Files", "hh3 exchange: a unit file without target stats",
         ["hh3", "exchange", "--attacker", "examples/hh3/tactical_squad.toml", "--target",
          "examples/hh3/unit_heavy_support_squad.toml"]),
    Case("Bounded work", "scenario too large", ["scenario", "s.toml", "--turns", "20", "--rounds", "20"],
         files={"s.toml": _scenario('attacker = "orks"\ndefender = "marines"\ndistance = 7', kind="assault")}),
    Case("Files", "empty query file", ["run", "empty.toml"], files={"empty.toml": b""}),
    Case("Files", "binary file", ["run", "binary.toml"], files={"binary.toml": bytes(range(256))}),
    Case("Files", "not UTF-8", ["run", "latin1.toml"], files={"latin1.toml": "name = \"\xe9\"\n".encode("latin-1")}),
    Case("Files", "invalid TOML", ["run", "broken.toml"], files={"broken.toml": b"system = \"pool\n"}),
    Case("Files", "over-size TOML file (11 MB)", ["run", "huge.toml"], sparse={"huge.toml": 11 * 2**20}),
    Case("Files", "nested too deeply (a dotted key 100 deep)", ["run", "deep.toml"],
         files={"deep.toml": ('system = "pool"\n[params]\n' + ".".join(["a"] * 100) + " = 1\n").encode()}),
    Case("Files", "a number with too many digits", ["run", "digits.toml"],
         files={"digits.toml": ('system = "pool"\n[params]\nn = ' + "9" * 5000 + '\nhit = "4+"\n').encode()}),
    Case("Files", "a device (or a pipe)", ["run", "/dev/zero"]),
    Case("Files", "unknown key in a query", ["run", "typo.toml"], files={"typo.toml": _QUERY_UNKNOWN_KEY.encode()}),
    Case("Files", "wrong type in a query", ["run", "type.toml"], files={"type.toml": _QUERY_WRONG_TYPE.encode()}),
    Case("Files", "unknown system in a query", ["run", "system.toml"],
         files={"system.toml": _QUERY_UNKNOWN_SYSTEM.encode()}),
    Case("Files", "model with 0 wounds", ["40k6", "shoot", "--shots", "5", "--bs", "4", "--strength", "4",
                                          "--target", "zero.toml"], files={"zero.toml": _PROFILE_0_WOUNDS.encode()}),
    Case("Files", "unknown weapon in a profile", ["hh3", "shoot", "--attacker", "weapon.toml", "--target", HH3_TARGET],
         files={"weapon.toml": _HH3_UNKNOWN_WEAPON.encode()}),
    # --- samples
    Case("Samples", "empty sample file", ["validate", QUERY, "empty.csv"], files={"empty.csv": b""}),
    Case("Samples", "binary sample file", ["validate", QUERY, "binary.csv"], files={"binary.csv": bytes(range(256))}),
    Case("Samples", "unknown outcome field", ["validate", QUERY, "field.csv"],
         files={"field.csv": b"hits,count\n1,10\n"}),
    Case("Samples", "outcome not a number (an outcome the rule never gives)", ["validate", QUERY, "word.csv"],
         status=1, files={"word.csv": b"outcome\none\n"}),
    Case("Samples", "negative count", ["validate", QUERY, "neg.csv"], files={"neg.csv": b"outcome,count\n1,-5\n"}),
    Case("Samples", "a number with too many digits", ["validate", QUERY, "digits.csv"],
         files={"digits.csv": ("outcome\n" + "9" * 5000 + "\n").encode()}),
    Case("Samples", "JSON nested too deeply", ["validate", QUERY, "deep.jsonl"],
         files={"deep.jsonl": ("[" * 1000 + "]" * 1000 + "\n").encode()}),
    Case("Samples", "a near-integer is not the integer (an outcome the rule never gives)",
         ["validate", QUERY, "near.csv"], status=1, files={"near.csv": b"outcome\n1\n0.99999999999999999\n"}),
    Case("Samples", "a 1 GB line", ["validate", QUERY, "gigabyte.csv"], sparse={"gigabyte.csv": 2**30}),
    Case("Samples", "impossible outcome (a rejection, not bad input)", ["validate", QUERY, "three.csv"],
         status=1, files={"three.csv": b"outcome,count\n0,5\n1,50\n3,1\n"}),
    Case("Messages", "a 600 kB value quoted back (the line is cut)", ["run", "long.toml"],
         files={"long.toml": ("system = [" + ", ".join(["1"] * 200_000) + "]\n").encode()}),
    Case("Rosters", "not a roster (not XML)", ["import", "army.ros", "--out", "army"], files={"army.ros": b"my army"}),
    Case("Rosters", "a zip without a roster", ["import", "army.rosz", "--out", "army"],
         files={"army.rosz": _zip({"notes.txt": b"hi"})}),
    Case("Rosters", "another XML namespace", ["import", "army.ros", "--out", "army"],
         files={"army.ros": _ROSTER.replace("rosterSchema", "catalogueSchema").encode()}),
    Case("Rosters", "a game system not read", ["import", "army.ros", "--out", "army"],
         files={"army.ros": _ROSTER.replace("Warhammer 40,000 7th Edition", "Kill Team").encode()}),
    Case("Rosters", "a roster with no unit", ["import", "army.ros", "--out", "army"],
         files={"army.ros": _ROSTER.encode()}),
    Case("Rosters", "an entity declaration", ["import", "army.ros", "--out", "army"],
         files={"army.ros": b'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aa">]><r>&a;</r>'}),
    Case("Rosters", "a zip bomb", ["import", "army.rosz", "--out", "army"],
         files={"army.rosz": _zip({"army.ros": b" " * 1_000_000})}),
    Case("Rosters", "over-size roster (21 MB)", ["import", "huge.ros", "--out", "army"], sparse={"huge.ros": 21 * 2**20}),
    Case("Rosters", "importing over existing files", ["import", "examples/rosters/ork_boyz.rosz", "--out", "."],
         files={"klaw_boyz.toml": b"mine"}),
    Case("Rosters", "--per-points with 40k6 shoot",
         ["compare", "--per-points", "--query", f"40k6 shoot --shots 2 --bs 4 --strength 4 --target {SQUAD}",
          "--query", f"40k6 shoot --shots 3 --bs 4 --strength 4 --target {SQUAD}"]),
    Case("Rosters", "--per-points with an attacker file without points",
         ["compare", "--per-points", "--query", f"40k6 fire --attacker {SQUAD} --target {SQUAD}",
          "--query", f"40k6 fire --attacker {SQUAD} --target {SQUAD}"]),
]


@contextmanager
def scratch() -> Iterator[Path]:
    """A scratch folder holding a copy of examples/, as the current directory."""
    old = os.getcwd()
    tmp = Path(tempfile.mkdtemp(prefix="exactodds-errors-"))
    try:
        shutil.copytree(ROOT / "examples", tmp / "examples", ignore=shutil.ignore_patterns(".*", "__pycache__"))
        os.chdir(tmp)
        yield tmp
    finally:
        os.chdir(old)
        shutil.rmtree(tmp, ignore_errors=True)


def run_cases(cases: list[Case] = CASES) -> list[tuple[Case, Result]]:
    """Run every case in the scratch folder; return each with its result."""
    from exactodds.cli import main

    runner = CliRunner()
    clean = {"EXACTODDS_MAX_STATES": None, "EXACTODDS_MAX_DIGITS": None, "EXACTODDS_DEBUG": None}
    out = []
    with scratch() as tmp:
        for case in cases:
            for name, data in case.files.items():
                (tmp / name).write_bytes(data)
            for name, size in case.sparse.items():
                with open(tmp / name, "wb") as f:
                    f.truncate(size)
            result = runner.invoke(main, case.args, env={**clean, **case.env}, prog_name="exactodds")
            out.append((case, result))
            for name in [*case.files, *case.sparse]:
                (tmp / name).unlink()
    return out


def _cell(text: str) -> str:
    text = text.strip().replace("|", "\\|")
    return f"`{text}`" if "`" not in text else text


HEADER = """# Bad input and the messages it gets

exactodds never answers bad input with a traceback, never hangs on a question
it cannot answer in reasonable time, and never silently answers a different
question. Each bad input gets **one line on standard error**, starting
`Error:`, naming what is wrong, where (option, file, key or line) and what is
allowed.

| Exit status | Meaning |
|---|---|
| 0 | answered (or `validate`: the samples are consistent with the exact answer) |
| 1 | `validate`: the samples are rejected |
| 2 | bad input, or work over a limit (one `Error:` line) |
| 3 | an internal error: a bug in exactodds (rerun with `EXACTODDS_DEBUG=1` for the traceback, and report it) |

## Bounded work

Before computing, each rule estimates the size of its state space and refuses
above a limit, with the estimate and how to raise the limit:
`--max-states N` or the environment variable `EXACTODDS_MAX_STATES`
(default 2,000,000 states). A state whose exact weight is a big integer (the
weights of N dice share the denominator 6^N) counts once per started 1,024
bits of weight, so the limit also bounds memory (about 256 MB of weights) and
time: in Python, `successes(10000, Fraction(5, 6))` (10,001 outcomes of
30,000-bit weights) is computed in 0.1 s, while `exactodds pool 1818031 --hit
5+` (which used to run for hours) is refused at once. Before writing an answer, the command line also
checks the size of its exact fractions: at most `EXACTODDS_MAX_DIGITS` digits
in all (default 10,000,000; writing a fraction of d digits costs time in d^2)
and no single number longer than Python's own limit for integers as text
(4,300 digits; `PYTHONINTMAXSTRDIGITS`).

The refusal comes before the work. Measured by hand with `time` on the
development machine (2 cores shared with other jobs, load average about 1):
`exactodds pool 10000000 --hit 4+` prints its `Error: ... would need about
97,660,009,766 states ...` line in 0.25 to 0.34 s of wall time, the same as
`exactodds --version` (0.36 s): all of it is Python starting and importing
exactodds. In-process (click's test runner) the refusal itself takes 1.3 ms;
`40k6 hit --shots 1818031 --bs 3`, which used to run for hours, 2 ms; the
refusal of an answer too long to write (`pool 6000 --hit 4+`: computed, then
refused before writing 10.8 million digits) 30 ms. A 1 GB sample file with no
line break is refused after reading its first 1,000,001 characters, and an
11 MB TOML file from its size, without reading it (about 1 s of wall time
each, start-up included, measured under a load of 6).

### The contract, and what it costs

With the default limit, a question the engine accepts is answered within
30 s and 2 GB on a 2-core machine; anything bigger is refused before the
work, with its estimated size and the option that raises the limit. Each
estimate counts what costs: the bits of the exact weights, the states of a
reroll budget (n dice rerolling up to k: about n k terms), the rows of Hell
Dorado's parity table at large N, the joint (recipient, hits) over every
engaged fighter, and the sum of a Horus Heresy attack's fire groups. Where no
cheap estimate is tight (a 40K fight's joint states over its Initiative
steps, split by Look Out, Sir and Instant Death), the work is also counted as
it runs (each kernel's and each convolution's terms, weighted by their bits)
and stopped with the same message, marked "counted as it ran", once it
passes twice the limit in such terms (measured: about 1.8 us a term in the
40K fight and 4.4 us in the Horus Heresy attack on a quiet machine, so about
7 s and 18 s before the refusal; these are the only refusals that come after
some of the work rather than within a second).

Measured on the development machine (2 cores shared with other jobs), wall
time of the whole command, Python's start-up (about 0.1 s) included. "Before"
is what the same question cost before these bounds (blank: not measured, or
already fast):

| Question | Before | Now |
|---|---|---|
| `40k6 hit --shots 3000 --bs 4 --master-crafted 3000` | 83 s, 3.7 GB | answered in 0.8 s, 43 MB (every failed hit rerolled: a binomial) |
| `40k6 hit --shots 3000 --bs 4 --master-crafted 2999` | | refused in 0.10 s |
| `pool 3000 --hit 4+ --reroll-up-to 3000` | 42 s, 2.6 GB | answered in 0.5 s, 35 MB |
| `pool 4000 --hit 4+ --reroll-up-to 4000` | out of memory at 3.8 GB | answered in 0.9 s, 48 MB |
| `pool 2000 --hit 500+ --sides 1000 --reroll-up-to 2000` | out of memory | refused in 0.13 s (fractions too long to write) |
| `hh3 shoot`, 1,000 models with 13 weapons at 20 models of 5 Wounds | out of memory after 178 s | refused in 0.12 s |
| `hd shoot --dice 20000 --target-def 4` | over 90 s | refused in 0.11 s |
| `hd shoot --dice 30000 --target-def 4 --elevated` (or `--reroll-failed`) | over 90 s | refused in 0.11 s |
| `hd shoot --dice 800 --target-def 4` with 3,000 `--engaged-def` | | refused in 0.13 s |
| `hd shoot --dice 120 --target-def 4` with 30 `--engaged-def` | | answered in 0.24 s |
| `40k6 fight`, two units of 10 models with 3 Attacks and 2 Wounds | | answered in 0.12 s |
| `40k6 fight`, ten one-model lines each side (Look Out, Sir, Instant Death, every Initiative) | | answered in 4.9 s, 98 MB |
| the same with twelve or fourteen lines each side | | stopped as it ran after 9.7 to 11.7 s (load average 5), 140 to 320 MB |

Files are checked before they are parsed: TOML nested more than 32 levels
deep (arrays, tables and dotted keys together), JSON lines nested more than 32
deep, and whole numbers of more than 30 digits in TOML, CSV or JSON are each
refused with one line, in milliseconds (a 4 MB dotted key of 2,000,000 levels,
which used to take 12 s and 2.3 GB, in 0.15 s; 3,000,000 nested arrays in
0.24 s); only ASCII digits are digits. A sample value is a number only if it
is one exactly: `1e-400`, `0.99999999999999999` and `1.0000000000000001` are
outcomes the rule never gives, not 0 and 1. A file name with a NUL byte, `~`
without a home directory, a folder, a device or a pipe is one line naming the
file. Every TOML file, a scenario's unit files included, is read by one bounded reader:
a device, a pipe or a file over 10 MB is refused from its `stat` before a byte is read
(a 3 GB sparse file, a FIFO or a link to `/dev/zero` named as a unit's `file`: one line,
at once); a scenario reads only its units' `file` values as files, never other text that
happens to end in `.toml`, and a question is keyed by the bytes of every file it names,
whatever the files are called. Lists are bounded by their length before any value is
read: at most 1,000 values for a list parameter, and 100 engaged fighters and 100
candidates for a Hell Dorado shot (`hd shoot` with 100,000 `engaged_def` in a query file
used to run out of memory after 118 s; now refused in under a second). `compare` takes at
most 12 queries and counts them before answering any (200 `pool` queries used to be
refused after 73 s). `tests/test_torture.py` runs each of these as a command under a
2.5 GB memory cap.

Query files, profiles and sample files are data: read with `tomllib` and the
`csv`/`json` modules, never evaluated (no `eval`, `exec` or `pickle`; a test
checks the package source).

## Faults around a run

What the environment does to a run gets the same treatment as bad input: one
line naming what happened, exit 2, never a traceback (`tests/test_faults.py`
provokes each case in a subprocess). Measured on the development machine
(2 cores shared with other jobs):

| Fault | Message (one line) | Exit | Measured |
|---|---|---|---|
| the disk fills up, or the file size limit is reached, under `sweep --out x.csv` (or `.parquet`) | `Error: sweep stopped: cannot write x.csv: the file is too large (over the file size limit); the finished rows are kept in x.csv: run the same command again to resume` (`the disk is full (no space left on device)` for ENOSPC) | 2 | at once; the same command then resumes to a byte-identical file |
| the same under `sample --out s.csv` | `Error: s.csv: cannot write the file (File too large)` | 2 | at once |
| the same on standard output (`exactodds pool 300 --hit 4+ --all > out.txt`) | `Error: cannot write standard output: the file is too large (over the file size limit)` | 2 | at once (a short write is retried, so the error is seen even with `PYTHONUNBUFFERED`) |
| a sweep's worker process is killed (`kill -9`, out of memory) | `Error: sweep stopped: a worker process died (killed, or out of memory); the finished rows are kept in ...` | 2 | 0.07 to 0.2 s after the kill |
| the Dask scheduler is lost | `Error: sweep stopped: lost the Dask scheduler or its workers (FuturesCancelledError: ...); the finished rows are kept in ...` | 2 | 0.2 to 0.7 s |
| every Dask worker is lost | `Error: sweep stopped: the Dask cluster has no worker left (no progress for 60 s); ...` | 2 | after 60 s without a worker and without progress (a worker that rejoins in time carries on) |
| SIGTERM or SIGHUP to a sweep | `Error: sweep stopped by SIGTERM; the finished rows are kept in ...`; its workers are ended | 143, 129 | 0.05 to 0.1 s (acted on at the next poll, every 0.25 s); no worker left |
| SIGKILL to a sweep | (none: the process is gone) its workers see their parent gone and exit, so `timeout -s KILL 2 exactodds sweep ...` returns | -9 | workers gone 0.5 to 2.2 s later |
| a second sweep writing the same `--out` | `Error: x.csv: another sweep is writing this file now (it holds x.csv.lock); wait for it to finish, or choose another --out` | 2 | before any work |
| the reader of standard output leaves (`exactodds sample q.toml -n 1000000 \\| head -2`) | none | 0 | at once |
| a 1,000,000-point grid | rows from the start (the grid is streamed in batches of a few tasks per worker) | 0 | first row after 0.2 s; 26 MB for the sweep's process, 130 MB per worker (before: nothing for 280 s, workers at 3 GB) |

Every message goes out through one place, which keeps it to one line of at
most about 500 characters: a longer one keeps its start and its end (what
was expected) and says how many characters were cut (see the last case
below).

## In Python

Every bad argument to the public API raises an `exactodds.ExactOddsError`
(a `ValueError`): `InputError` with the same kind of message, or
`TooLargeError` with the size, never a bare `TypeError` or `AttributeError`.
Operators keep Python's convention: `d6 + "a"` is a `TypeError`.

```python
>>> from exactodds import Dist, successes
>>> successes(3, 0.5)
Traceback (most recent call last):
exactodds.core.errors.InputError: p must be an exact number (int, Fraction or 'a/b' string), not 0.5; floats are refused because they are not exact
```

## Fuzzing

The test suite checks all of this on every run, with reproducible
(derandomized) hypothesis tests: `tests/test_fuzz_cli.py` walks the click
command tree and runs about 2,100 well-formed, malformed and random command
lines and broken files through every command (commands added later are
picked up); `tests/test_fuzz_api.py` calls the Python API and every TOML
loader with junk and mutated files; `tests/test_invariants.py` checks the
rules' invariants (more dice never lower P(at least one hit), a better save
never raises casualties, a reroll never lowers the hit chance, every
distribution sums to exactly 1). `EXACTODDS_FUZZ_SCALE=10` runs ten times as
many cases; `EXACTODDS_FUZZ_SHRINK=1` shrinks a failing case to a minimal one.

## The messages

Generated by `python docs/gen_errors.py`, which runs each command; the test
suite checks that this page is what the program prints today. Commands run in
a folder holding the project's `examples/` and the small broken files named.
"""


def render(results: list[tuple[Case, Result]]) -> str:
    """The markdown page for the results of :func:`run_cases`."""
    lines = [HEADER]
    section = None
    for case, result in results:
        if case.section != section:
            section = case.section
            lines += ["", f"### {section}", "", "| Bad input | Command | Message | Exit |", "|---|---|---|---|"]
        message = (result.stderr.strip() or result.stdout.strip().splitlines()[-1:] or [""])
        text = message if isinstance(message, str) else message[0]
        if result.exit_code == 1:  # a rejection: its verdict line
            verdict = [ln for ln in result.stdout.splitlines() if "reject" in ln.lower()]
            text = verdict[0] if verdict else text
        lines.append(f"| {case.kind} | {_cell(case.command())} | {_cell(text)} | {result.exit_code} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    results = run_cases()
    bad = [(c, r) for c, r in results if r.exit_code != c.status]
    for c, r in bad:
        print(f"unexpected exit {r.exit_code} (expected {c.status}): {c.command()}\n  {r.stderr.strip()}",
              file=sys.stderr)
    OUT.write_text(render(results), encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)} ({len(results)} cases)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
