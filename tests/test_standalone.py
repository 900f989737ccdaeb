"""The documentation stands on its own: no page, docstring, comment, notebook,
example or ``--help`` text sends the reader to material a user does not have
(the French source texts, an internal rule reference, a shared folder, issue
numbers). A random seed (``--seed``, ``seed=``, "random seed") is a user's
concept and stays allowed.

The rules pages also carry the rules themselves: every French quotation there
is labelled as the original, beside our English.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from exactodds.cli import main

ROOT = Path(__file__).resolve().parents[1]

# Spans that are about random seeds: removed before looking for "seed".
RANDOM_SEED = re.compile(
    r"--seed\b"                     # the CLI option
    r"|\bseed="                     # a keyword argument
    r"|\brandom\s+seeds?\b"         # prose: "random seed(s)", "Random seed"
    r"|\bRandom\(seed\)"            # random.Random(seed)
    r"|\bseed:\s*int\b"             # a typed parameter
    r"|\bseed!r\b|\bisinstance\(seed\b|\bseed\s+is\s+not\s+None\b"
    r"|[(,]\s*seed\b"               # a positional parameter or argument: (n, seed ...)
    r"|``seed``"                    # the parameter named in a docstring
    r"|\b(?:same|new|another)\s+seed\b"  # "the same seed gives the same draws"
    r"|\bdifferent\s+seeds\b|\ba\s+seed\s+is\s+a\s+whole\s+number\b",  # Dist.sample's messages
    re.IGNORECASE,
)
RANDOM_SEED_METAVAR = re.compile(r"\bSEED\b")  # upper case: a command-line placeholder

FORBIDDEN = {
    "seed": re.compile(r"\bseeds?\b", re.IGNORECASE),
    "RULES.md": re.compile(r"RULES\.md", re.IGNORECASE),
    "shared/": re.compile(r"shared/", re.IGNORECASE),
    "issue number": re.compile(r"\bissues?\s*#?\s*\d+", re.IGNORECASE),
}


def findings(text: str) -> list[str]:
    """The forbidden words of ``text``, in order (with repeats), random-seed usages allowed."""
    found: list[tuple[int, str]] = []
    for line_start, line in _lines(text):
        cleaned = RANDOM_SEED_METAVAR.sub(" ", RANDOM_SEED.sub(lambda m: " " * len(m.group()), line))
        for name, pattern in FORBIDDEN.items():
            found += [(line_start + m.start(), m.group()) for m in pattern.finditer(cleaned)]
    return [word for _, word in sorted(found)]


def _lines(text: str) -> Iterator[tuple[int, str]]:
    start = 0
    for line in text.splitlines(keepends=True):
        yield start, line
        start += len(line)


# ---------------------------------------------------------------- the detector


@pytest.mark.parametrize("text", [
    "Seed `000_feef74f70f12f824` (Hell Dorado)",
    "the seed's worked example",
    "Choices where the seed is silent",
    "(`../shared/seeds/002_ef382606c9c055aa.txt`)",
    "restated in RULES.md section 2",
    "Issue 4: a double 1 always passes.",
    "see (issue 8)",
    "the seed: \"donc un des siens\"",
    "# Seed 002, \"Tirs au jugé\"",
    "The seeds name the tables",
])
def test_the_detector_flags_references_to_the_source_texts(text: str) -> None:
    assert findings(text), text


@pytest.mark.parametrize("text", [
    "$ exactodds sample q.toml -n 20000 --seed 1 --out shots.csv",
    "--seed INTEGER  Random seed: the same random seed gives the same draws.",
    "good = simulate(20_000, seed=1)",
    "def simulate(n, seed, **kw):",
    "    rng = random.Random(seed)",
    "def sample(self, n: int, seed: int | None = None) -> list:",
    '"""``n`` independent draws, reproducible for a given ``seed``.',
    "n, seed = int(argv[0]), int(argv[1])",
    "``N SEED [--forget-reroll] [--counts]``",
    "a correct simulator run with 200 random seeds",
    "the same text, shared by all, an issue of style",
])
def test_the_detector_allows_random_seeds_and_plain_words(text: str) -> None:
    assert findings(text) == [], text


def test_the_detector_reports_each_word_once_in_order() -> None:
    assert findings("RULES.md then the seed, then issue 4\n--seed 3 and shared/x") == \
        ["RULES.md", "seed", "issue 4", "shared/"]


# ---------------------------------------------------------------- files


def scanned_files() -> list[Path]:
    files = [ROOT / "README.md"]
    files += sorted(p for p in (ROOT / "docs").rglob("*") if p.suffix in {".md", ".py", ".yml"})
    files += sorted((ROOT / "exactodds").rglob("*.py"))
    files += sorted((ROOT / "notebooks").glob("*.ipynb"))
    files += sorted(p for p in (ROOT / "examples").rglob("*") if p.is_file() and p.suffix in {".py", ".toml", ".md", ".txt"})
    return files


def file_text(path: Path) -> str:
    """A notebook's cell sources (markdown, code and comments), else the file's text."""
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        return "\n".join("".join(c["source"]) for c in cells)
    return path.read_text(encoding="utf-8")


def test_the_scan_covers_every_kind_of_text() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in scanned_files()}
    for expected in ["README.md", "docs/hell_dorado.md", "docs/wh40k6.md", "docs/hh3.md", "docs/validating.md",
                     "exactodds/rules/hell_dorado/steps.py", "exactodds/cli/files.py", "exactodds/core/dist.py",
                     "notebooks/hell_dorado.ipynb", "notebooks/validating.ipynb",
                     "examples/validation/simulate_bs8.py"]:
        assert expected in names


def offending_lines(path: Path) -> list[str]:
    return [f"{path.relative_to(ROOT)}:{number}: {words}: {line.strip()[:100]}"
            for number, line in enumerate(file_text(path).splitlines(), 1) if (words := findings(line))]


@pytest.mark.parametrize("path", scanned_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_file_refers_to_material_users_do_not_have(path: Path) -> None:
    assert offending_lines(path) == []


# ---------------------------------------------------------------- the rules pages

RULES_PAGES = ["hell_dorado.md", "wh40k6.md", "hh3.md"]


def paragraphs(text: str) -> list[str]:
    """Paragraphs split on blank lines, a lone ``>`` counting as blank; code blocks dropped."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.MULTILINE | re.DOTALL)
    return [p for p in re.split(r"\n(?:>?[ \t]*\n)+", text) if p.strip()]


@pytest.mark.parametrize("page", RULES_PAGES + ["validating.md"])
def test_every_french_quotation_is_labelled_as_the_original(page: str) -> None:
    unlabelled = [p[:120] for p in paragraphs((ROOT / "docs" / page).read_text(encoding="utf-8"))
                  if "«" in p and "original" not in p[:p.index("«")].lower()]
    assert unlabelled == []


@pytest.mark.parametrize("page", RULES_PAGES)
def test_each_rules_page_gives_the_rules_in_english_beside_the_original(page: str) -> None:
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    originals = text.count("Original: «") + text.count("Original (fight sub-phase): «")
    assert originals >= 6
    assert "## Choices where the rules are silent" in text
    # every "Original:" comes after English of our own in the same rule: the text before it
    # (back to the previous "Original:" or heading) has an English sentence
    pieces = re.split(r"Original(?: \([^)]*\))?: «", text)
    for before in pieces[:-1]:
        tail = before.rsplit("»", 1)[-1]
        assert re.search(r"\b(the|a|an|is|are|of)\b", tail), tail[-200:]


def test_the_hell_dorado_rules_are_all_there_in_english() -> None:
    text = (ROOT / "docs" / "hell_dorado.md").read_text(encoding="utf-8")
    for english in ["highest of\nthe target's DEF", "at least as many even dice as odd dice",
                    "More odd dice than even ones", "the number of hits cannot be reduced",
                    "the line of sight is not blocked"]:
        assert english.replace("\n", " ") in text.replace("\n", " ").replace("At least", "at least"), english


# ---------------------------------------------------------------- --help texts


def command_paths(group: click.Group = main, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command under ``group``, groups included, found by walking it (not a fixed list)."""
    ctx = click.Context(group)
    paths = [prefix]
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if isinstance(command, click.Group):
            paths += command_paths(command, prefix + (name,))
        elif command is not None:
            paths.append(prefix + (name,))
    return paths


def help_text(path: tuple[str, ...]) -> str:
    result = CliRunner().invoke(main, [*path, "--help"])
    assert result.exit_code == 0, (path, result.output)
    return result.output


PATHS = command_paths()


def test_the_walk_finds_the_subcommands_of_every_group() -> None:
    names = {" ".join(p) for p in PATHS}
    assert {"", "pool", "hd", "hd shoot", "40k6", "40k6 hit", "hh3", "hh3 shoot", "sample", "validate"} <= names
    assert len(PATHS) >= 15
    assert all(help_text(p).startswith("Usage: ") for p in PATHS[:3])


@pytest.mark.parametrize("path", PATHS, ids=lambda p: " ".join(("exactodds",) + p))
def test_help_text_refers_to_nothing_users_do_not_have(path: tuple[str, ...]) -> None:
    assert findings(help_text(path)) == []
