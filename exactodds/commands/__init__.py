"""Questions as typed data: every command's parameters and compute function.

This layer sits between the rules and the interfaces, and knows nothing of
them: no click, no printing. For each command it holds a frozen parameter
class (:class:`Params`: typed fields with their help text, allowed values
and defaults, and the checks of their combinations) and a compute function
turning those parameters into an :class:`~exactodds.answer.Answer`. The
command line, query files, sweeps, validation and Python are all built from
it, so they accept the same parameters with the same defaults and messages.

In Python, :func:`ask` reads like the command line::

    from exactodds import ask
    ask("40k6", "hit", shots=1, bs=8).dist         # 0: 1/12, 1: 11/12
    ask("pool", n=3, hit="4+").mean                # 3/2

and a parameter class can be used directly::

    from exactodds.commands.pool import PoolParams, pool
    pool(PoolParams(n=3, hit="4+"))
"""

from __future__ import annotations

from typing import Any

from ..answer import FORMATS, Answer
from ..core import ExactOddsError, InputError, TooLargeError, state_limit
from ..core.limits import MAX_COMPARED, check_answer_digits, check_compared, check_digits, decimal_digits, fractions_in
from .params import FieldError, ParamError, Params, param
from .query import Query
from .registry import COMMANDS, SYSTEMS, Command, find, systems


def ask(system: str, command: str | None = None, /, **params: Any) -> Answer:
    """The exact answer to one question, with parameters named as in query files.

    ``ask("40k6", "shoot", shots=20, bs=4, strength=4, ap=5, target="unit.toml")``
    is ``exactodds 40k6 shoot --shots 20 --bs 4 --strength 4 --ap 5 --target
    unit.toml``; a system that is a single command takes no command name
    (``ask("pool", n=3, hit="4+")``). Bad values raise
    :class:`~exactodds.InputError` naming the parameter.
    """
    return find(system, command)(**params)


__all__ = ["COMMANDS", "FORMATS", "MAX_COMPARED", "SYSTEMS", "Answer", "Command", "ExactOddsError", "FieldError",
           "InputError", "ParamError", "Params", "Query", "TooLargeError", "ask", "check_answer_digits",
           "check_compared", "check_digits",
           "decimal_digits", "find", "fractions_in", "param", "state_limit", "systems"]
