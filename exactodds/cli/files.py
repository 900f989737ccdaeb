"""``exactodds run``, ``sample`` and ``validate``: commands on TOML query files.

A query file names a command and its parameters (see :mod:`exactodds.commands.query`);
``run`` answers it, ``sample`` draws exact samples from its answer, and
``validate`` checks a simulator's samples against it.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from ..commands import InputError, Query
from .common import EXIT_REJECTED, check_plot, emit_answer, format_option, output_options, plot_options
from .generate import plot_label, with_max_states

MAX_SAMPLES = 10_000_000  # about 16 s and 800 MB of CSV here: a bound on one call
"""Most draws ``exactodds sample`` makes in one run (the draws are held in memory, 8 bytes each)."""


@with_max_states
@plot_options
@output_options
@click.command("run")
@click.argument("query_file", metavar="QUERY.toml")
@format_option
def run(query_file: str, fmt: str, plot: str | None, plot_at_least: bool, **output: Any) -> None:
    """Answer the query in a TOML query file.

    The file names the command and its parameters, with the command's
    long options as keys (dashes written as underscores):

    \b
        system = "pool"
        [params]
        n = 3
        hit = "4+"

    is `exactodds pool 3 --hit 4+`. Relative profile paths are read from
    the query file's folder.
    """
    check_plot(plot, plot_at_least)
    query = Query.from_toml(query_file)
    emit_answer(query.answer(), fmt, output, plot, plot_at_least, title=query.command_line(),
                xlabel=plot_label(query.typed))


@with_max_states
@click.command("sample")
@click.argument("query_file", metavar="QUERY.toml")
@click.option("-n", "n", type=click.IntRange(min=1), required=True, metavar="N",
              help=f"Number of draws (1 to {MAX_SAMPLES:,}).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Random seed: the same seed gives the same draws.")
@click.option("--out", "out", default=None, metavar="FILE.csv",
              help="Write the CSV here (default: standard output).")
@click.option("--counts", is_flag=True,
              help="One row per outcome with its count (outcome,count) instead of one row per draw.")
def sample(query_file: str, n: int, seed: int, out: str | None, counts: bool) -> None:
    """Draw N outcomes from the exact answer of a query file, as CSV.

    Exact and reproducible (Dist.sample: each draw is a uniform integer
    below the common denominator). The columns are those `validate`
    reads: `outcome`, or one per field of composite outcomes, named as
    in the JSON output.
    """
    from ..validation import write_samples

    if n > MAX_SAMPLES:
        raise InputError(f"-n {n:,} is more than {MAX_SAMPLES:,} draws in one run; draw in several "
                         "runs with different --seed values")
    dist = Query.from_toml(query_file).dist()
    draws = dist.sample(n, seed)
    if out is None:
        write_samples(draws, dist, sys.stdout, counts)
        return
    try:
        with open(out, "w", encoding="utf-8", newline="") as handle:
            rows = write_samples(draws, dist, handle, counts)
    except OSError as e:
        raise InputError(f"{out}: cannot write the file ({e.strerror or e})") from None
    click.echo(f"wrote {n:,} draws ({rows:,} rows) to {out}", err=True)


@with_max_states
@click.command("validate")
@click.argument("query_file", metavar="QUERY.toml")
@click.argument("samples", metavar="SAMPLES.csv")
@click.option("--alpha", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.05,
              show_default=True, help="False-alarm rate: reject when the p-value is at most alpha.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True,
              help="A report for people, or JSON for programs.")
@click.option("--statistic", type=click.Choice(["pearson", "g"]), default="pearson", show_default=True,
              help="Chi-square statistic when a chi-square test is used: Pearson's or the G-test.")
@click.option("--samples-format", type=click.Choice(["auto", "csv", "jsonl"]), default="auto",
              show_default=True, help="Format of SAMPLES (auto: by suffix, else by first character).")
def validate(query_file: str, samples: str, alpha: float, fmt: str, statistic: str,
             samples_format: str) -> int:
    """Check a simulator's SAMPLES against the exact answer of a query file.

    SAMPLES.csv (a file, or - for standard input) is CSV with a header row:
    one outcome per row under `outcome` (or one column per field for
    composite outcomes, named as in the JSON output), optionally with a
    `count` column; or JSON lines (one outcome, or
    {"outcome": ..., "count": ...}, per line).

    Reports the test used and why, the statistic, p-value and verdict,
    and every outcome's observed vs expected count with standardised
    residuals, worst first. An impossible outcome rejects at once. For an
    engagement (an assault, a fight, a scenario) each unit's models left,
    status and headline figures are tested too, corrected together by
    Holm's method; the verdict names the figures that depart.

    Exit status: 0 consistent, 1 rejected, 2 bad input.
    """
    from ..validation import validate as run_validation

    result = run_validation(query_file, samples, alpha=alpha, statistic=statistic, fmt=samples_format,
                            progress=sys.stderr.isatty())
    click.echo(result.to_json() if fmt == "json" else result.to_text())
    return 0 if result.consistent else EXIT_REJECTED
