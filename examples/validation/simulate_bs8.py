"""A small Monte Carlo simulator of one 40K 6th edition shot at BS 8, to check
against the exact answer (6th-edition rules: BS 8 hits on 2+, and a roll of 1
is rerolled once, hitting on 4+; P(hit) = 5/6 + 1/6 * 1/2 = 11/12). From the
repository root:

    python examples/validation/simulate_bs8.py 20000 1 > correct.csv
    python examples/validation/simulate_bs8.py 20000 2 --forget-reroll --counts > forgot_reroll.csv
    exactodds validate examples/validation/bs8_query.toml correct.csv        # exit 0
    exactodds validate examples/validation/bs8_query.toml forgot_reroll.csv  # exit 1

(``examples/validation/bs8_samples_correct.csv`` and
``bs8_samples_forgot_reroll.csv`` were made by these two commands.)

It writes CSV with the column ``outcome`` (hits of the shot: 0 or 1), one row
per shot, or ``outcome,count`` rows with ``--counts``.
"""

from __future__ import annotations

import random
import sys


def shot(rng: random.Random, forget_reroll: bool) -> int:
    """Hits (0 or 1) of one shot at BS 8."""
    if rng.randint(1, 6) >= 2:
        return 1
    if forget_reroll:  # the bug: the 1 is not rerolled
        return 0
    return int(rng.randint(1, 6) >= 4)


def main(argv: list[str]) -> None:
    """``N SEED [--forget-reroll] [--counts]``: write N shots (SEED: the random seed) as CSV on standard output."""
    n, seed = int(argv[0]), int(argv[1])
    rng = random.Random(seed)
    hits = [shot(rng, "--forget-reroll" in argv) for _ in range(n)]
    if "--counts" in argv:
        print("outcome,count")
        for outcome in (0, 1):
            print(f"{outcome},{hits.count(outcome)}")
    else:
        print("outcome")
        print("\n".join(map(str, hits)))


if __name__ == "__main__":
    main(sys.argv[1:])
