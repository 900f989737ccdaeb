"""``exactodds compare``: several queries side by side, and on one chart."""

from __future__ import annotations

import shlex
from typing import Any

import click

from ..commands import MAX_COMPARED, InputError, Query, check_compared
from .common import check_plot, format_option, plot_options
from .generate import query_from_args, with_max_states


def _query(text: str) -> tuple[Query, str | None]:
    """A query written as command-line words (``pool 3 --hit 4+``; a leading ``exactodds`` is allowed),
    and the unit its ``--unit NAME`` picks (None without)."""
    try:
        words = shlex.split(text)
    except ValueError as e:
        raise InputError(f"--query {text!r}: {e} (quote it as a shell would)") from None
    if words[:1] == ["exactodds"]:
        words = words[1:]
    if not words:
        raise InputError("--query '' is empty: write a query as on the command line, e.g. --query 'pool 3 --hit 4+'")
    asks = [w for w in words if w in HELP_OPTIONS]
    if asks:
        raise InputError(f"--query {text!r}: {asks[0]} is not part of a query; for a command's options, run "
                         "it with --help outside compare (e.g. 'exactodds pool --help')")
    ours = [w for w in words if w.split("=", 1)[0] in OWN_OPTIONS]
    if ours:
        raise InputError(f"--query {text!r}: {ours[0].split('=', 1)[0]} is not part of a query; give it to "
                         "compare itself (a query holds the question only)")
    unit = None
    for i, w in enumerate(words):
        if w == "--unit" or w.startswith("--unit="):
            value = w.split("=", 1)[1] if "=" in w else (words[i + 1] if i + 1 < len(words) else None)
            if not value:
                raise InputError(f"--query {text!r}: --unit needs a unit's name")
            unit, words = value, words[:i] + words[i + (1 if "=" in w else 2):]
            break
    return query_from_args(words), unit


OWN_OPTIONS = {"--format", "--plot", "--plot-at-least", "--all", "--exact", "--at-least", "--at-most", "--mean",
               "--max-states", "--per-points", "--joint"}
"""Options of the command line that say how to answer, not what: refused inside ``--query``."""

HELP_OPTIONS = {"--help", "-h", "--version"}
"""Options that ask about the program, not a question: refused inside ``--query``."""


@with_max_states
@plot_options
@click.command("compare")
@click.argument("query_files", nargs=-1, metavar="[QUERY.toml]...")
@click.option("--query", "queries", multiple=True, metavar="'SYSTEM [COMMAND] OPTIONS'",
              help="A query written as on the command line, e.g. --query 'pool 3 --hit 4+' (repeatable; "
                   "compared after the files, in the order given; at most "
                   f"{MAX_COMPARED} queries in all).")
@click.option("--label", "labels", multiple=True, metavar="NAME",
              help="Name the queries, one --label per query in order (default q1, q2, ...): in the table, "
                   "the plot's legend and its title.")
@click.option("--all", "all_rows", is_flag=True,
              help="Print every outcome (the table shows those holding the most probability by default).")
@click.option("--exact", "exact", is_flag=True,
              help="Print long exact fractions in full in the table (JSON and CSV always do).")
@click.option("--per-points", "per_points", is_flag=True,
              help="Rank the queries by what their attacking units do per 100 points (the unit files' "
                   "points): mean casualties (or Hull Points removed) and P(destroy), divided by the "
                   "points, times 100.")
@format_option
def compare(query_files: tuple[str, ...], queries: tuple[str, ...], labels: tuple[str, ...], all_rows: bool,
            exact: bool, fmt: str, plot: str | None, plot_at_least: bool, per_points: bool) -> None:
    """Show several queries side by side: the mean of each, P(outcome >= k)
    of each over every outcome any of them has (composite outcomes:
    P(outcome)), and the difference of each from the first (q2 - q1).

    Queries are TOML query files and --query options, named q1, q2, ... in
    that order (or by --label). A --query of an engagement may end in --unit
    NAME to compare that unit's models left. Example:

    \b
        exactodds compare --query 'pool 3 --hit 4+' --query 'pool 3 --hit 3+'
    """
    from ..comparison import compare as compare_answers

    check_plot(plot, plot_at_least)
    check_compared(len(query_files) + len(queries))  # before any query is read or answered
    items: list[Any] = [(Query.from_toml(f), None) for f in query_files] + [_query(q) for q in queries]
    if len(items) < 2:
        raise click.UsageError("compare needs at least two queries (QUERY.toml files or --query options); "
                               f"got {len(items)}")
    if labels and len(labels) != len(items):
        raise click.UsageError(f"--label names each query: give one per query ({len(items)}), not {len(labels)}")
    if per_points:
        from ..efficiency import per_points as per_points_table

        if plot is not None:
            raise click.UsageError("--plot draws the distributions, not --per-points: give one or the other")
        click.echo(per_points_table(*[q for q, _ in items]).render(fmt, exact=exact).rstrip("\n"))
        return
    result = compare_answers(*[q for q, _ in items], labels=list(labels) or None, units=[u for _, u in items])
    if plot is not None and plot_at_least and not result.numeric:
        raise click.UsageError("--plot-at-least needs numeric outcomes (P(outcome >= k)); these are composite: "
                               "drop --plot-at-least")
    click.echo(result.render(fmt, all_rows=all_rows, exact=exact).rstrip("\n"))
    if plot is not None:
        result.save_plot(plot, at_least=plot_at_least, title=" vs ".join(labels) if labels else None)
        click.echo(f"plot written to {plot}", err=True)
