"""The peers' side of every benchmark case: icepool and dyce versions.

Run by the harness in the peers' own virtual environment (Python 3.12 for
icepool 2.2), never imported by exactodds::

    bench/.venv-peers/bin/python bench/peer_impl.py < jobs.json > results.json

``jobs.json`` is ``{"jobs": [{"key", "case", "params"}], "quick": bool}``;
the output is ``{"versions": {...}, "results": {key: {variant: {"times",
"answer"} | {"error"}}}}`` with answers encoded by
:func:`timing.encode_answer` (exact integer weights, no floats).

Each case is written the way a user of that library would write it, using
the library's fastest idiom we found; where a library has two natural
idioms both are timed as separate variants (e.g. icepool's multiset
evaluator and its n-fold sum). Every call builds its dice afresh and the
library's functools caches are cleared before every call (see timing.py).

Case names and parameters (the harness's ``bench/cases`` use the same):

- ``successes``: ``n`` d6, count of dice >= ``hit``.
- ``reroll``: ``n`` d6 hitting on ``hit``; faces in ``reroll`` are rerolled
  once and then hit on ``reroll_hit`` (40K 6th BS 7: 2+, 1s rerolled at 5+).
- ``joint``: ``n`` d6 -> (count of dice >= ``hit``, even dice - odd dice).
- ``hd``: Hell Dorado shot into a melee: ``n`` d6 at difficulty ``hit``, a
  target engaged with ``engaged`` fighters -> (recipient, hits); no hit ->
  "none"; even >= odd -> "target"; else "engaged-i", uniformly.
- ``attack``: ``shots`` -> hits (``hit``+) -> wounds (``wound``+) -> unsaved
  (save ``save``+ fails) -> casualties among ``models`` models of
  ``wounds_each`` wounds (all alike, so casualties = min(models, unsaved //
  wounds_each)).
"""

from __future__ import annotations

import json
import sys
import warnings
from fractions import Fraction
from typing import Any, Callable

try:
    from .timing import clear_caches, encode_answer, measure
except ImportError:  # run as a script: bench/ is sys.path[0]
    from timing import clear_caches, encode_answer, measure

warnings.filterwarnings("ignore")  # dyce's "experimental" notice on expand()


def recipient_name(code: int) -> str:
    """0 -> none, 1 -> target, i + 1 -> engaged-i."""
    return "none" if code == 0 else "target" if code == 1 else f"engaged-{code - 1}"


def hd_codes(hits: int, diff: int, engaged: int) -> list[int]:
    """The equally likely recipient codes of a shot with ``hits`` hits and
    even - odd = ``diff`` (one entry, or one per engaged fighter on an impair)."""
    if hits == 0:
        return [0]
    if diff >= 0 or engaged == 0:
        return [1]
    return [1 + i for i in range(1, engaged + 1)]


# --------------------------------------------------------------------- icepool
def _icepool() -> Any:
    import icepool

    return icepool


def ice_d6() -> Any:
    return _icepool().Die(range(1, 7))


def ice_successes(p: dict) -> Any:
    hit = p["hit"]
    return p["n"] @ ice_d6().map(lambda f: 1 if f >= hit else 0)


def ice_reroll(p: dict) -> Any:
    d6 = ice_d6()
    faces, hit, again = set(p["reroll"]), p["hit"], p["reroll_hit"]
    second = d6.map(lambda g: 1 if g >= again else 0)
    one = d6.map(lambda f: second if f in faces else (1 if f >= hit else 0))
    return p["n"] @ one


def _ice_joint_evaluator_class() -> Any:
    icepool = _icepool()

    class Joint(icepool.MultisetEvaluator):
        """(count >= hit, even - odd) over a pool, outcome by outcome."""

        def __init__(self, hit: int) -> None:
            self.hit = hit

        def initial_state(self, order, outcomes, *sizes):  # noqa: ANN001, ANN201
            return (0, 0)

        def next_state(self, state, order, outcome, count):  # noqa: ANN001, ANN201
            h, diff = state
            if outcome >= self.hit:
                h += count
            return (h, diff + count if outcome % 2 == 0 else diff - count)

    return Joint


def ice_joint_pool(p: dict) -> Any:
    """icepool's multiset evaluator over ``d6.pool(n)``."""
    return _ice_joint_evaluator_class()(p["hit"]).evaluate(ice_d6().pool(p["n"]))


def ice_joint_sum(p: dict) -> Any:
    """icepool's n-fold sum of a die encoding (hit, +-1) as one integer."""
    n, hit, m = p["n"], p["hit"], 2 * p["n"] + 1
    enc = ice_d6().map(lambda f: (m if f >= hit else 0) + (1 if f % 2 == 0 else -1))
    return (n @ enc).map(lambda c: tuple_code(c, n, m))


def tuple_code(code: int, n: int, m: int) -> int:
    """Normalise an encoded sum ``hits * m + diff`` to ``hits * m + diff + n`` >= 0."""
    return code + n


def ice_hd(p: dict, joint: Callable[[dict], Any]) -> Any:
    icepool = _icepool()
    n, m, e = p["n"], 2 * p["n"] + 1, p["engaged"]
    j = joint(p)

    def recipient(o: Any) -> Any:
        h, diff = o if isinstance(o, tuple) else _split(o, n, m)
        codes = hd_codes(h, diff, e)
        return codes[0] * (n + 1) + h if len(codes) == 1 else icepool.Die([c * (n + 1) + h for c in codes])

    return j.map(recipient, star=False)


def ice_attack(p: dict) -> Any:
    d6 = ice_d6()

    def at_least(t: int) -> Any:
        return d6.map(lambda f: 1 if f >= t else 0)

    unsaved = ((p["shots"] @ at_least(p["hit"])) @ at_least(p["wound"])) @ d6.map(
        lambda f: 0 if f >= p["save"] else 1)
    return unsaved.map(lambda u: min(p["models"], u // p["wounds_each"]))


def ice_items(die: Any) -> tuple[list, int]:
    return list(die.items()), die.denominator()


# ------------------------------------------------------------------------ dyce
def dyce_d6() -> Any:
    from dyce import H

    return H(6)


def _expand(fn: Callable[[Any], Any], h: Any) -> Any:
    from dyce.evaluation import expand

    return expand(fn, h, min_path_probability=Fraction(0))


def dyce_successes(p: dict) -> Any:
    hit = p["hit"]
    return p["n"] @ dyce_d6().apply(lambda f: 1 if f >= hit else 0)


def dyce_reroll(p: dict) -> Any:
    d6 = dyce_d6()
    faces, hit, again = set(p["reroll"]), p["hit"], p["reroll_hit"]
    second = d6.apply(lambda g: 1 if g >= again else 0)
    one = _expand(lambda r: second if r.outcome in faces else (1 if r.outcome >= hit else 0), d6)
    return p["n"] @ one


def dyce_joint_sum(p: dict) -> Any:
    n, hit, m = p["n"], p["hit"], 2 * p["n"] + 1
    enc = dyce_d6().apply(lambda f: (m if f >= hit else 0) + (1 if f % 2 == 0 else -1))
    return (n @ enc).apply(lambda c: tuple_code(c, n, m))


def dyce_hd(p: dict, joint: Callable[[dict], Any]) -> Any:
    from dyce import H

    n, m, e = p["n"], 2 * p["n"] + 1, p["engaged"]
    j = joint(p)

    def recipient(r: Any) -> Any:
        h, diff = _split(r.outcome, n, m)
        codes = hd_codes(h, diff, e)
        return codes[0] * (n + 1) + h if len(codes) == 1 else H([c * (n + 1) + h for c in codes])

    return _expand(recipient, j)


def dyce_attack(p: dict) -> Any:
    d6 = dyce_d6()

    def at_least(t: int) -> Any:
        return d6.apply(lambda f: 1 if f >= t else 0)

    hit, wound = at_least(p["hit"]), at_least(p["wound"])
    fail = d6.apply(lambda f: 0 if f >= p["save"] else 1)
    hits = p["shots"] @ hit
    # 0 @ h is the empty histogram, which expand() reads as "eliminate this
    # branch": zero dice must be the constant 0 instead.
    wounds = _expand(lambda r: r.outcome @ wound if r.outcome else 0, hits)
    unsaved = _expand(lambda r: r.outcome @ fail if r.outcome else 0, wounds)
    return unsaved.apply(lambda u: min(p["models"], u // p["wounds_each"]))


def dyce_items(h: Any) -> tuple[list, int]:
    return list(h.items()), h.total


# -------------------------------------------------------------- registry
def _split(code: int, n: int, m: int) -> tuple[int, int]:
    """Encoded ``hits * m + diff + n`` -> (hits, diff)."""
    h, r = divmod(code, m)
    return h, r - n


def _key_int(o: Any, p: dict) -> Any:
    return int(o)


def _key_joint(o: Any, p: dict) -> Any:
    if isinstance(o, tuple):
        return [int(o[0]), int(o[1])]
    h, diff = _split(int(o), p["n"], 2 * p["n"] + 1)
    return [h, diff]


def _key_hd(o: Any, p: dict) -> Any:
    code, h = divmod(int(o), p["n"] + 1)
    return [recipient_name(code), h]


# case -> variant -> (compute(params), items(native) -> (pairs, total), key(outcome, params))
PEERS: dict[str, dict[str, tuple]] = {
    "successes": {"icepool": (ice_successes, ice_items, _key_int),
                  "dyce": (dyce_successes, dyce_items, _key_int)},
    "reroll": {"icepool": (ice_reroll, ice_items, _key_int),
               "dyce": (dyce_reroll, dyce_items, _key_int)},
    "joint": {"icepool (pool evaluator)": (ice_joint_pool, ice_items, _key_joint),
              "icepool (n-fold sum)": (ice_joint_sum, ice_items, _key_joint),
              "dyce (n-fold sum)": (dyce_joint_sum, dyce_items, _key_joint)},
    "hd": {"icepool (pool evaluator)": (lambda p: ice_hd(p, ice_joint_pool), ice_items, _key_hd),
           "dyce (n-fold sum)": (lambda p: dyce_hd(p, dyce_joint_sum), dyce_items, _key_hd)},
    "attack": {"icepool": (ice_attack, ice_items, _key_int),
               "dyce": (dyce_attack, dyce_items, _key_int)},
}


def library_of(variant: str) -> str:
    """``"icepool (n-fold sum)"`` -> ``"icepool"``."""
    return variant.split(" ")[0]


def run_variant(case: str, variant: str, params: dict, budget: float, max_repeats: int) -> dict:
    """Time one peer variant on one case; its answer encoded exactly."""
    compute, items, key = PEERS[case][variant]
    lib = library_of(variant)
    try:
        native, times = measure(lambda: compute(params), clear=lambda: clear_caches([lib]),
                                budget=budget, max_repeats=max_repeats)
        pairs, total = items(native)
        answer = encode_answer(((key(o, params), w) for o, w in pairs), total)
    except Exception as exc:  # a peer that cannot answer is reported, not fatal
        return {"error": f"{type(exc).__name__}: {exc}"}
    return {"times": times, "answer": answer}


def versions() -> dict:
    """Installed peer versions (absent ones omitted)."""
    out = {"python": sys.version.split()[0]}
    for lib in ("icepool", "dyce"):
        try:
            mod = __import__(lib)
            out[lib] = getattr(mod, "__version__", "?")
        except ImportError:
            pass
    return out


def main() -> None:
    """Read jobs as JSON on stdin, write results as JSON on stdout."""
    req = json.load(sys.stdin)
    budget, max_rep = (0.1, 3) if req.get("quick") else (0.5, 25)
    have = versions()
    results: dict[str, dict] = {}
    for job in req["jobs"]:
        out = results.setdefault(job["key"], {})
        for variant in PEERS[job["case"]]:
            if library_of(variant) not in have:
                continue
            if variant in job.get("skip", ()):
                continue
            out[variant] = run_variant(job["case"], variant, job["params"], budget, max_rep)
            print(f"  {job['key']:<14} {variant:<26} "
                  + (f"{out[variant]['times']['min'] * 1e3:10.2f} ms" if "times" in out[variant]
                     else out[variant]["error"]), file=sys.stderr, flush=True)
    json.dump({"versions": have, "results": results}, sys.stdout)


if __name__ == "__main__":
    main()
