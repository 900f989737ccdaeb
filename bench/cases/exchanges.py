"""(h) whole exchanges in 40K 6th edition, from the scenario files of
``examples/scenarios/``:

- (i) ten Marines (eight bolters, a plasma gun, a missile launcher, BS 4)
  shoot twenty Orks (T4, 6+), weapon group after weapon group;
- (ii) twenty Orks charge ten Marines from 7": Overwatch, the charge, three
  rounds of combat with morale and sweeping advance;
- (iii) two units shoot the same Orks for five turns;

and what a user does instead of (ii): a numpy Monte Carlo of the same assault
run until the standard error of P(Marines destroyed) is 1e-3 (about 70,000
assaults). Its time over the exact answer's is reported (no bound). No peer
library answers these questions.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from . import Case, dist_answer, need, relative, under

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "examples" / "scenarios"
FILES = {"fire": "mixed_weapons.toml", "assault": "assault_through_overwatch.toml",
         "turns": "two_units_five_turns.toml"}
STANDARD_ERROR = 1e-3


def scenario_end(name: str) -> Any:
    """exactodds: the joint end state (a Dist over worlds) of one scenario file."""
    load_scenario = need("exactodds.profiles.scenario", "load_scenario")
    return load_scenario(SCENARIOS / FILES[name]).run().final


def world_key(w: Any) -> list:
    """A world as JSON: each unit's wounds left per model, and its status."""
    return [[list(s.wounds), status] for s, status in zip(w.units, w.statuses, strict=True)]


def monte_carlo_assault(standard_error: float = STANDARD_ERROR, seed: int = 1, batch: int = 20_000) -> dict:
    """numpy: case (ii) simulated assault by assault (vectorised over a batch),
    until the standard error of P(Marines destroyed) is at most
    ``standard_error``. Returns the estimate, its standard error and the number
    of assaults.

    The Marines: a Sergeant (character, Look Out, Sir; A2, Ld 9) and nine
    Marines (A1, Ld 8), all WS4 I4 S4 T4 3+; Overwatch at 7": 16 bolter snap
    shots (S4 AP5), 2 plasma (S7 AP2), 1 missile (S8 AP3), hitting on 6s. The
    Orks: twenty Boyz WS4 I2 A2 (+1 charging) S3 T4 6+ Ld 7.
    """
    import numpy as np

    rng = np.random.default_rng(seed)

    def d6(n: int) -> Any:
        return rng.integers(1, 7, size=n)

    def binomial(n: Any, p: float) -> Any:
        return rng.binomial(n, p)

    destroyed = total = 0
    while True:
        n = batch
        orks = np.full(n, 20)
        # Overwatch: no save for the Orks against AP5, AP2, AP3 (6+ armour)
        kills = (binomial(binomial(16, 1 / 6 * np.ones(n)), 1 / 2) + binomial(binomial(2, 1 / 6 * np.ones(n)), 5 / 6)
                 + binomial(binomial(1, 1 / 6 * np.ones(n)), 5 / 6))
        orks = np.maximum(0, orks - kills)
        charged = (d6(n) + d6(n) >= 7) & (orks > 0)
        sergeant = np.ones(n, dtype=bool)
        marines = np.full(n, 9)
        locked = charged.copy()
        for r in range(3):
            alive_m = sergeant.astype(int) + marines
            # Marines at Initiative 4: hit 4+, wound 4+, Ork save 6+
            attacks = np.where(locked, 2 * sergeant + marines, 0)
            ork_losses = np.minimum(orks, binomial(binomial(binomial(attacks, 1 / 2), 1 / 2), 5 / 6))
            orks = orks - ork_losses
            # Orks at Initiative 2: hit 4+, S3 vs T4 wound 5+; each wound to the Sergeant first
            # (Look Out, Sir on 4+ moves it to a Marine), 3+ save
            wounds = binomial(binomial(np.where(locked & (orks > 0), orks * (3 if r == 0 else 2), 0), 1 / 2), 1 / 3)
            m_losses = np.zeros(n, dtype=int)
            for k in range(int(wounds.max(initial=0))):
                live = (k < wounds) & (sergeant | (marines > 0))
                to_sergeant = sergeant & ~((marines > 0) & (d6(n) >= 4))
                unsaved = live & (d6(n) < 3)
                hit_sergeant = unsaved & to_sergeant
                hit_marine = unsaved & ~to_sergeant & (marines > 0)
                sergeant = sergeant & ~hit_sergeant
                marines = marines - hit_marine
                m_losses += hit_sergeant | hit_marine
            alive_m = sergeant.astype(int) + marines
            both = locked & (orks > 0) & (alive_m > 0)
            diff = ork_losses - m_losses
            ld = np.where(diff > 0, 7, np.where(sergeant, 9, 8))
            a, b = d6(n), d6(n)
            fails = both & (diff != 0) & (a + b > ld - np.abs(diff)) & ~((a == 1) & (b == 1))
            # sweeping advance: D6 + the winner's Initiative >= D6 + the loser's
            marines_win = diff > 0
            caught = fails & np.where(marines_win, d6(n) + 4 >= d6(n) + 2, d6(n) + 2 >= d6(n) + 4)
            orks = np.where(caught & marines_win, 0, orks)
            wiped = caught & ~marines_win
            sergeant = sergeant & ~wiped
            marines = np.where(wiped, 0, marines)
            locked = both & ~fails
        destroyed += int(np.sum(~sergeant & (marines == 0)))
        total += n
        p = destroyed / total
        se = (max(p * (1 - p), 1e-12) / total) ** 0.5
        if se <= standard_error:
            return {"p": p, "standard_error": se, "assaults": total, "destroyed": destroyed}


def mc_answer(r: dict) -> dict:
    """The Monte Carlo's estimate as an answer: Marines destroyed (1) in so many assaults of all."""
    from ..timing import encode_answer

    return encode_answer([(1, r["destroyed"]), (0, r["assaults"] - r["destroyed"])], r["assaults"])


def cases(quick: bool = False) -> list[Case]:
    """Cases (h)."""
    return [
        Case("h.fire", "h", "40K 6th: 10 Marines (8 bolters, plasma, missile) shoot 20 Orks, group by group",
             compute=lambda: scenario_end("fire"), canon=lambda d: dist_answer(d, world_key), targets=[under(0.050)]),
        Case("h.assault", "h", "40K 6th: 20 Orks charge 10 Marines at 7\": Overwatch, 3 rounds, morale, sweeping "
             "advance", compute=lambda: scenario_end("assault"), canon=lambda d: dist_answer(d, world_key),
             targets=[under(2.0)]),
        Case("h.turns", "h", "40K 6th: two units shoot the same Orks for 5 turns",
             compute=lambda: scenario_end("turns"), canon=lambda d: dist_answer(d, world_key),
             targets=[under(1.0)]),
        Case("h.assault_monte_carlo", "h", "numpy Monte Carlo of h.assault to a standard error of 1e-3 on "
             "P(Marines destroyed)", compute=monte_carlo_assault, canon=mc_answer,
             targets=[relative("h.assault", 1e9, "reported: Monte Carlo time / exact time")],
             note="what a user does instead of h.assault; its time over the exact answer's is the ratio"),
    ]
