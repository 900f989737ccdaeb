"""numpy Monte Carlo versions of the engagements of group (h): what a user
writes instead of the exact answer, run until the standard error of the
headline probability (P(defender destroyed)) is at most a given figure.

Each simulates a batch of engagements at once (vectorised over the batch)
and goes on batch after batch; its result is the estimate, its standard
error, the number of engagements and how many ended with the defender
destroyed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

STANDARD_ERROR = 1e-3


@dataclass(frozen=True)
class Defender:
    """The charged unit as the Monte Carlo sees it (6th edition).

    ``sergeant``: a character (Look Out, Sir on 4+ onto another model; A2,
    Ld ``sergeant_ld``) besides ``models`` ordinary models (A1, Ld ``ld``);
    ``overwatch``: per weapon, (snap shots, P(a hit wounds and is not saved by
    an Ork)); ``hit_orks``, ``wound_orks``: its chance to hit and to wound an
    Ork in close combat (the Ork's 6+ save after); ``orks_hit``, ``orks_wound``,
    ``unsaved``: the Orks' chances against it; ``initiative`` (above the
    Orks' 2: it strikes first)."""

    models: int
    sergeant: bool
    ld: int
    sergeant_ld: int
    overwatch: tuple[tuple[int, float], ...]
    hit_orks: float
    wound_orks: float
    orks_hit: float
    orks_wound: float
    unsaved: float
    initiative: int


MARINES = Defender(models=9, sergeant=True, ld=8, sergeant_ld=9,
                   # 16 bolter snap shots (S4 AP5: wound 4+, no 6+ save), 2 plasma (S7 AP2), 1 missile (S8 AP3)
                   overwatch=((16, 1 / 2), (2, 5 / 6), (1, 5 / 6)),
                   hit_orks=1 / 2, wound_orks=1 / 2, orks_hit=1 / 2, orks_wound=1 / 3, unsaved=1 / 3, initiative=4)
"""Ten Marines (examples/40k6/tactical_squad_mixed_weapons.toml): WS4 I4 S4 T4 3+."""

GUARD = Defender(models=20, sergeant=False, ld=7, sergeant_ld=7,
                 # 40 lasgun snap shots (S3 AP-: wound T4 on 5+, then the Orks' 6+ save)
                 overwatch=((40, 1 / 3 * 5 / 6),),
                 hit_orks=1 / 2, wound_orks=1 / 3, orks_hit=2 / 3, orks_wound=1 / 2, unsaved=2 / 3, initiative=3)
"""Twenty Guardsmen (bench/units/guard_squad_20.toml): WS3 I3 S3 T3 5+, Ld 7."""


def monte_carlo_assault(orks: int = 20, defender: Defender = MARINES, rounds: int = 3,
                        standard_error: float = STANDARD_ERROR, seed: int = 1, batch: int = 20_000) -> dict:
    """``orks`` Ork Boyz (WS4 I2 A2, +1 charging, S3 T4 6+ Ld 7) charge
    ``defender`` from 7": Overwatch at snap shots (6s hit), the charge (2D6
    >= 7), then up to ``rounds`` rounds of combat, the defender striking
    first, each with the combat result, morale (Ld - the difference on 2D6,
    double 1 passes) and sweeping advance (D6 + Initiative). Simulated until
    the standard error of P(defender destroyed) is at most ``standard_error``.
    Cost: O(batch x (rounds x the most wounds in a round)) numpy work per batch."""
    import numpy as np

    rng = np.random.default_rng(seed)
    d = defender

    def d6(n: int) -> Any:
        return rng.integers(1, 7, size=n)

    def binomial(n: Any, p: float) -> Any:
        return rng.binomial(n, p)

    destroyed = total = 0
    while True:
        n = batch
        alive_o = np.full(n, orks)
        kills = sum(binomial(binomial(shots, 1 / 6 * np.ones(n)), p) for shots, p in d.overwatch)
        alive_o = np.maximum(0, alive_o - kills)
        locked = (d6(n) + d6(n) >= 7) & (alive_o > 0)
        sergeant = np.full(n, d.sergeant)
        models = np.full(n, d.models)
        for r in range(rounds):
            attacks = np.where(locked, 2 * sergeant + models, 0)
            ork_losses = np.minimum(alive_o, binomial(binomial(binomial(attacks, d.hit_orks), d.wound_orks), 5 / 6))
            alive_o = alive_o - ork_losses
            wounds = binomial(binomial(np.where(locked & (alive_o > 0), alive_o * (3 if r == 0 else 2), 0),
                                       d.orks_hit), d.orks_wound)
            if d.sergeant:
                losses = _wounds_on_sergeant(rng, wounds, sergeant, models, d.unsaved)
            else:
                losses = np.minimum(models, binomial(wounds, d.unsaved))
                models = models - losses
            alive_d = sergeant.astype(int) + models
            both = locked & (alive_o > 0) & (alive_d > 0)
            diff = ork_losses - losses
            ld = np.where(diff > 0, 7, np.where(sergeant, d.sergeant_ld, d.ld))
            a, b = d6(n), d6(n)
            fails = both & (diff != 0) & (a + b > ld - np.abs(diff)) & ~((a == 1) & (b == 1))
            defender_wins = diff > 0
            caught = fails & np.where(defender_wins, d6(n) + d.initiative >= d6(n) + 2,
                                      d6(n) + 2 >= d6(n) + d.initiative)
            alive_o = np.where(caught & defender_wins, 0, alive_o)
            wiped = caught & ~defender_wins
            sergeant = sergeant & ~wiped
            models = np.where(wiped, 0, models)
            locked = both & ~fails
        destroyed += int(np.sum(~sergeant & (models == 0)))
        total += n
        p = destroyed / total
        se = (max(p * (1 - p), 1e-12) / total) ** 0.5
        if se <= standard_error:
            return {"p": p, "standard_error": se, "assaults": total, "destroyed": destroyed}


def _wounds_on_sergeant(rng: Any, wounds: Any, sergeant: Any, models: Any, unsaved: float) -> Any:
    """Each wound to the sergeant first (Look Out, Sir on 4+ moves it to another
    model), then its save; ``sergeant`` and ``models`` updated in place. The
    models lost per engagement."""
    import numpy as np

    n = len(wounds)
    losses = np.zeros(n, dtype=int)
    for k in range(int(wounds.max(initial=0))):
        live = (k < wounds) & (sergeant | (models > 0))
        to_sergeant = sergeant & ~((models > 0) & (rng.integers(1, 7, size=n) >= 4))
        through = live & (rng.random(n) < unsaved)
        hit_sergeant = through & to_sergeant
        hit_model = through & ~to_sergeant & (models > 0)
        sergeant &= ~hit_sergeant
        models -= hit_model
        losses += hit_sergeant | hit_model
    return losses


def monte_carlo_hh3_exchange(turns: int = 20, standard_error: float = STANDARD_ERROR, seed: int = 1,
                             batch: int = 20_000) -> dict:
    """Horus Heresy: the Legion Tactical Squad (nine bolters, firepower 2, and
    the Sergeant's bolt pistol, BS 4) and the Heavy Support Squad (four heavy
    bolters, firepower 3, BS 4; the Sergeant's bolt pistol at BS 5; the
    Sergeant has 2 Wounds and is last in the file) exchange fire for ``turns``
    turns (``examples/hh3/unit_*.toml``), both firing from the same start each
    turn, every model in play firing. All T4 3+: a bolter or pistol hit (3+,
    2+ at BS 5) wounds on 4+, a heavy bolter on 3+; the 3+ save is taken
    against both. Wounds go to the first model in play, a wounded one first.
    Panic tests change no later roll (no cover, no Pinning here), so they are
    not simulated. Until the standard error of P(heavies destroyed by the
    last turn) is at most ``standard_error``."""
    import numpy as np

    rng = np.random.default_rng(seed)
    bolter, pistol5, heavy = 2 / 3 * 1 / 2 * 1 / 3, 5 / 6 * 1 / 2 * 1 / 3, 2 / 3 * 2 / 3 * 1 / 3
    destroyed = total = 0
    while True:
        n = batch
        tac = np.full(n, 10)  # models in play: nine Legionaries then the Sergeant
        hvy_wounds = np.full(n, 6)  # four 1-Wound Legionaries then the 2-Wound Sergeant
        for _ in range(turns):
            both = (tac > 0) & (hvy_wounds > 0)
            legionaries = np.maximum(tac - 1, 0)  # the Sergeant, last in the file, is removed last
            sergeant = tac > 0
            hvy_legionaries = np.maximum(hvy_wounds - 2, 0)
            hvy_sergeant = hvy_wounds > 0
            on_hvy = rng.binomial(2 * legionaries, bolter) + rng.binomial(sergeant.astype(int), bolter)
            on_tac = rng.binomial(3 * hvy_legionaries, heavy) + rng.binomial(hvy_sergeant.astype(int), pistol5)
            hvy_wounds = np.where(both, np.maximum(hvy_wounds - on_hvy, 0), hvy_wounds)
            tac = np.where(both, np.maximum(tac - on_tac, 0), tac)
        destroyed += int(np.sum(hvy_wounds == 0))
        total += n
        p = destroyed / total
        se = (max(p * (1 - p), 1e-12) / total) ** 0.5
        if se <= standard_error:
            return {"p": p, "standard_error": se, "assaults": total, "destroyed": destroyed}
