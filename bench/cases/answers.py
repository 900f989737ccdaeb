"""(i) answers end to end: the JSON text of an answer from the command's
parameters, in this process, against the rule step that computes its
distribution.

Each question is a pair of cases: ``i.NAME.step`` times the rule step alone
(the dice or rule function a library user would call), ``i.NAME.answer`` times
what the command line does after start-up: the query built and checked from
its parameters, the command's compute function (the rule step, the
answer's figures), and the answer written as JSON (``--format json``). The
target bounds the answer's own cost: (answer time - step time) / step time,
both measured in the same run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from . import Case, dist_answer, need, relative

ROOT = Path(__file__).resolve().parents[2]
ORKS = str(ROOT / "examples" / "40k6" / "ork_boyz.toml")
OWN_COST = 3.0
"""The answer's own cost at most this many times its rule step's."""
BUDGET = 1.0
"""Seconds of timed calls for each case of a pair: the figure is a ratio of two minimums."""


def pool_step(n: int, hit: str) -> Any:
    """The rule step of ``exactodds pool N --hit X+``: the binomial of the die's chance."""
    from exactodds import Target, successes

    return successes(n, Target.parse(hit).chance())


def bs7_step() -> Any:
    """The rule step of ``pool 40 --hit 2+ --reroll 1 --reroll-hit 5+``."""
    from exactodds import Target, successes, target_with_reroll

    return successes(40, target_with_reroll(Target.parse("2+"), {1}, Target.parse("5+")))


def hd_step() -> Any:
    """The rule step of ``hd shoot --dice 120 --target-def 4 --engaged-def 5``: (recipient, hits)."""
    make_shot, shoot = need("exactodds.rules.hell_dorado", "make_shot", "shoot")
    return shoot(make_shot(120, 4, [5])).hits


_UNITS: dict[str, Any] = {}


def shoot40k_step() -> Any:
    """The rule step of ``40k6 shoot --shots 20 --bs 4 --strength 4 --target ork_boyz.toml``:
    the attack down to casualties (the unit file read once, before any timing: reading
    it is part of the answer's own cost)."""
    shoot = need("exactodds.rules.wh40k6.shooting", "shoot")
    Shooting = need("exactodds.rules.wh40k6.units", "Shooting")
    if ORKS not in _UNITS:
        _UNITS[ORKS] = need("exactodds.profiles.wh40k6", "load_target")(ORKS)
    return shoot(Shooting(shots=20, strength=4, bs=4), _UNITS[ORKS]).final


QUESTIONS: dict[str, tuple[str, str | None, dict[str, Any], Any, str]] = {
    "pool60": ("pool", None, {"n": 60, "hit": "4+"}, lambda: pool_step(60, "4+"),
               "pool 60 --hit 4+"),
    "bs7x40": ("pool", None, {"n": 40, "hit": "2+", "reroll": [1], "reroll_hit": "5+"}, bs7_step,
               "pool 40 --hit 2+ --reroll 1 --reroll-hit 5+"),
    "hd120": ("hd", "shoot", {"dice": 120, "target_def": 4, "engaged_def": [5]}, hd_step,
              "hd shoot --dice 120 --target-def 4 --engaged-def 5"),
    "shoot40k": ("40k6", "shoot", {"shots": 20, "bs": 4, "strength": 4, "target": ORKS}, shoot40k_step,
                 "40k6 shoot --shots 20 --bs 4 --strength 4 --target examples/40k6/ork_boyz.toml"),
}
"""name -> (system, command, parameters, rule step, command line)."""


def answer_json(system: str, command: str | None, params: dict[str, Any]) -> str:
    """exactodds: the answer's JSON text from the command's parameters, as the command line writes it."""
    Query = need("exactodds.commands", "Query")
    return str(Query(system, command, params).answer().to_json())


def json_answer(text: str) -> dict:
    """The outcomes of an answer's JSON text as the exact answer (outcome objects as lists)."""
    import json
    import math
    from fractions import Fraction

    from ..timing import encode_answer

    rows = [(r["outcome"], Fraction(r["p"])) for r in json.loads(text)["outcomes"]]
    total = math.lcm(*(p.denominator for _, p in rows))
    return encode_answer([(list(o.values()) if isinstance(o, dict) else o, int(p * total)) for o, p in rows], total)


def step_answer(dist: Any) -> dict:
    """The rule step's distribution as the exact answer (composite outcomes as lists, as in the JSON)."""
    return dist_answer(dist, lambda o: [v if isinstance(v, (int, str)) else str(v) for v in o]
                       if isinstance(o, tuple) else o)


def cases(quick: bool = False) -> list[Case]:
    """Cases (i): one pair per question."""
    out = []
    for name, (system, command, params, step, line) in QUESTIONS.items():
        out.append(Case(f"i.{name}.step", "i", f"rule step of exactodds {line} (reference)",
                        compute=step, canon=step_answer, budget=BUDGET))
        out.append(Case(f"i.{name}.answer", "i", f"exactodds {line} --format json, in-process from the parameters",
                        compute=lambda s=system, c=command, p=params: answer_json(s, c, p), canon=json_answer,
                        budget=BUDGET, paired=f"i.{name}.step",
                        targets=[relative(f"i.{name}.step", OWN_COST,
                                          f"own cost <= {OWN_COST:g}x the rule step's (same run)", offset=1.0)]))
    return out
