"""numpy Monte Carlo versions of the engagements of group (h): what a user
writes instead of the exact answer, run until the standard error of the
headline probability (P(defender destroyed)) is at most a given figure.

Each simulates a batch of engagements at once (vectorised over the batch)
and goes on batch after batch; its result is the estimate, its standard
error, the number of engagements and how many ended with the defender
destroyed (the assaults also count the Orks destroyed and the models left
on each side, the shooting at the Orks the Orks left and, with Gets Hot, the
firing models' losses, to check them against the exact answer).
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
    an Ork)) (none of them can reach a Nob behind 29 Boyz with Instant Death:
    the Marines fire 19 shots); ``hit_orks``, ``wound_orks``: its chance to
    hit and to wound an Ork in close combat (the Ork's 6+ save after);
    ``orks_hit``, ``orks_wound``, ``unsaved``: a Boy's chances against it;
    ``klaw_wound``, ``klaw_unsaved``: a Nob's power klaw's (Strength 8, AP2);
    ``initiative`` (above the Orks' 2: it strikes first)."""

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
    klaw_wound: float = 5 / 6
    klaw_unsaved: float = 1.0


MARINES = Defender(models=9, sergeant=True, ld=8, sergeant_ld=9,
                   # 16 bolter snap shots (S4 AP5: wound 4+, no 6+ save), 2 plasma (S7 AP2), 1 missile (S8 AP3)
                   overwatch=((16, 1 / 2), (2, 5 / 6), (1, 5 / 6)),
                   hit_orks=1 / 2, wound_orks=1 / 2, orks_hit=1 / 2, orks_wound=1 / 3, unsaved=1 / 3, initiative=4)
"""Ten Marines (bench/units/tactical_squad_10.toml): WS4 I4 S4 T4 3+ (the
power klaw, S8 AP2: wound 2+, no save)."""

GUARD = Defender(models=20, sergeant=False, ld=7, sergeant_ld=7,
                 # 40 lasgun snap shots (S3 AP-: wound T4 on 5+, then the Orks' 6+ save)
                 overwatch=((40, 1 / 3 * 5 / 6),),
                 hit_orks=1 / 2, wound_orks=1 / 3, orks_hit=2 / 3, orks_wound=1 / 2, unsaved=2 / 3, initiative=3)
"""Twenty Guardsmen (bench/units/guard_squad_20.toml): WS3 I3 S3 T3 5+, Ld 7
(the power klaw, S8 AP2: wound 2+, no save)."""


@dataclass(frozen=True)
class Orks:
    """The charging Ork Boyz (6th edition: WS4 I2 S3 T4 6+ Ld 7): ``boyz`` Boyz
    of ``attacks`` Attacks (+1 on the charge); ``nob``: a Nob last in the file
    (2 Wounds, I3, 3 Attacks, +1 on the charge, with a power klaw: S8 AP2,
    Unwieldy, so he strikes at Initiative 1, and a Specialist Weapon, so no
    two-weapon Attack; against the Marines and the Guardsmen the klaw gives
    more expected unsaved wounds than his slugga, so he always fights with it)."""

    boyz: int
    attacks: int = 2
    nob: bool = False


NOB_WOUNDS, NOB_ATTACKS, NOB_INITIATIVE, BOY_INITIATIVE = 2, 3, 3, 2
"""The Nob's Wounds, Attacks and Initiative (his sweeping advance roll; he
strikes at 1), a Boy's Initiative."""


def sluggas(boyz: int) -> Orks:
    """``boyz`` Boyz with slugga and choppa (two close-combat weapons: A3) and
    their Nob with a power klaw (``bench/units/ork_boyz_30.toml``: 29 and the Nob)."""
    return Orks(boyz, 3, True)


def monte_carlo_assault(orks: int | Orks = 20, defender: Defender = MARINES, rounds: int = 3,
                        standard_error: float = STANDARD_ERROR, seed: int = 1, batch: int = 20_000) -> dict:
    """``orks`` (a number: that many plain Boyz, A2; else :class:`Orks`)
    charge ``defender`` from 7" (:func:`simulate_assaults`), batch after batch,
    until the standard error of P(defender destroyed) is at most
    ``standard_error``. The estimate ``p``, its standard error, the
    engagements (``assaults``), how many ended with the defender destroyed
    (``destroyed``) and with the Orks destroyed (``orks_destroyed``), and the
    models left summed over them (``defender_left``, ``orks_left``).
    Cost: O(batch x (rounds x the most wounds in a round)) numpy work per batch."""
    import numpy as np

    rng = np.random.default_rng(seed)
    who = Orks(orks) if isinstance(orks, int) else orks
    totals = dict.fromkeys(("destroyed", "orks_destroyed", "defender_left", "orks_left"), 0)
    total = 0
    while True:
        d_left, o_left = simulate_assaults(rng, who, defender, rounds, batch)
        for key, value in (("destroyed", d_left == 0), ("orks_destroyed", o_left == 0), ("defender_left", d_left),
                           ("orks_left", o_left)):
            totals[key] += int(np.sum(value))
        total += batch
        p = totals["destroyed"] / total
        se = (max(p * (1 - p), 1e-12) / total) ** 0.5
        if se <= standard_error:
            return {"p": p, "standard_error": se, "assaults": total, **totals}


def simulate_assaults(rng: Any, orks: Orks, defender: Defender, rounds: int, n: int) -> tuple[Any, Any]:
    """``n`` assaults of ``orks`` on ``defender`` from 7": Overwatch at snap
    shots (6s hit; casualties closest first: the Boyz, then the Nob), the
    charge (2D6 >= 7), then up to ``rounds`` rounds of combat: the defender
    strikes first, then the Boyz (Initiative 2), then the Nob (1); wounds on
    the Orks go to the Boyz, then the Nob. Each round the combat result
    (unsaved wounds: a Nob's wound that does not kill him counts), morale (Ld
    - the difference on 2D6, double 1 passes; Ld 7 for the Orks) and
    sweeping advance (D6 + Initiative; the Orks roll with the lowest among
    their models in play: 2, a lone Nob 3). The models left per assault:
    (the defender's, the Orks'). O(n x (rounds x the most wounds in a round))."""
    import numpy as np

    d = defender

    def d6() -> Any:
        return rng.integers(1, 7, size=n)

    boyz = np.full(n, orks.boyz)
    nob = np.full(n, NOB_WOUNDS if orks.nob else 0)  # the Nob's wounds left
    kills = sum(rng.binomial(rng.binomial(np.full(n, shots), 1 / 6), p) for shots, p in d.overwatch)
    boyz, nob, _ = _wounds_on_orks(boyz, nob, kills)
    locked = (d6() + d6() >= 7) & (boyz + nob > 0)
    sergeant = np.full(n, d.sergeant)
    models = np.full(n, d.models)
    for r in range(rounds):
        attacks = np.where(locked, 2 * sergeant + models, 0)
        boyz, nob, ork_losses = _wounds_on_orks(
            boyz, nob, rng.binomial(rng.binomial(rng.binomial(attacks, d.hit_orks), d.wound_orks), 5 / 6))
        charge = 1 if r == 0 else 0
        losses = np.zeros(n, dtype=int)
        steps = [(boyz * (orks.attacks + charge), d.orks_wound, d.unsaved)]  # Initiative 2, then 1
        if orks.nob:
            steps.append(((nob > 0) * (NOB_ATTACKS + charge), d.klaw_wound, d.klaw_unsaved))
        for strikers, wound, unsaved in steps:
            wounds = rng.binomial(rng.binomial(np.where(locked, strikers, 0), d.orks_hit), wound)
            if d.sergeant:
                losses += _wounds_on_sergeant(rng, wounds, sergeant, models, unsaved)
            else:
                lost = np.minimum(models, rng.binomial(wounds, unsaved))
                models = models - lost
                losses += lost
        alive_d = sergeant.astype(int) + models
        both = locked & (boyz + nob > 0) & (alive_d > 0)
        diff = ork_losses - losses
        ld = np.where(diff > 0, 7, np.where(sergeant, d.sergeant_ld, d.ld))
        a, b = d6(), d6()
        fails = both & (diff != 0) & (a + b > ld - np.abs(diff)) & ~((a == 1) & (b == 1))
        defender_wins = diff > 0
        ork_initiative = np.where(boyz > 0, BOY_INITIATIVE, NOB_INITIATIVE)
        caught = fails & np.where(defender_wins, d6() + d.initiative >= d6() + ork_initiative,
                                  d6() + ork_initiative >= d6() + d.initiative)
        boyz = np.where(caught & defender_wins, 0, boyz)
        nob = np.where(caught & defender_wins, 0, nob)
        wiped = caught & ~defender_wins
        sergeant = sergeant & ~wiped
        models = np.where(wiped, 0, models)
        locked = both & ~fails
    return sergeant.astype(int) + models, boyz + (nob > 0)


def _wounds_on_orks(boyz: Any, nob: Any, wounds: Any) -> tuple[Any, Any, Any]:
    """``wounds`` unsaved wounds (each removing one Wound) on the Orks, closest
    first: the Boyz, then the Nob. The Boyz and the Nob's wounds left, and
    the unsaved wounds they took (those beyond the last model are lost). O(n)."""
    import numpy as np

    on_boyz = np.minimum(boyz, wounds)
    on_nob = np.minimum(nob, wounds - on_boyz)
    return boyz - on_boyz, nob - on_nob, on_boyz + on_nob


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


# --------------------------------------------------------------------------- shooting at the Orks


@dataclass(frozen=True)
class Volley:
    """One weapon group's shots at the Ork Boyz of ``examples/40k6/ork_boyz_sluggas.toml``
    (nineteen Boyz, then the 2-Wound Nob last in the file, all T4 6+):
    ``shots`` in all, each hitting with ``hit`` and wounding with ``wound``
    (against T4); ``unsaved``: P(the Ork's 6+ save fails) (1: the weapon's AP
    is 6 or better, so no save); ``instant_death``: Strength 8 or more (double
    the Nob's Toughness) removes the Nob with one unsaved wound."""

    shots: int
    hit: float
    wound: float
    unsaved: float = 1.0
    instant_death: bool = False


BOYZ = 19
"""The Boyz before the Nob in ``examples/40k6/ork_boyz_sluggas.toml``."""


def marines_fire(half_range: bool) -> tuple[Volley, ...]:
    """A Tactical Squad of ``examples/40k6/tactical_squad_mixed_weapons.toml``
    (BS 4: hits on 3+) at the Orks, weapon group after weapon group in the
    file's weapon order: eight bolters (S4 AP5, Rapid Fire: two shots each
    within half range, else one; wound T4 on 4+), the plasma gun (S7 AP2,
    Rapid Fire; 2+), the missile launcher (krak: S8 AP3, Heavy, one shot, the
    squad stationary; 2+, Instant Death on the Nob). Every AP beats the 6+ save."""
    shots = 2 if half_range else 1
    return (Volley(8 * shots, 2 / 3, 1 / 2), Volley(shots, 2 / 3, 5 / 6),
            Volley(1, 2 / 3, 5 / 6, instant_death=True))


def _instant_death_on_orks(boyz: Any, nob: Any, wounds: Any) -> tuple[Any, Any]:
    """``wounds`` unsaved wounds of a Strength 8 weapon, closest first: one per
    Boy, then one removes the Nob whatever his wounds left (those beyond are
    lost). The Boyz and the Nob's wounds left. O(n)."""
    import numpy as np

    on_boyz = np.minimum(boyz, wounds)
    return boyz - on_boyz, np.where(wounds > on_boyz, 0, nob)


def fire_at_orks(rng: Any, boyz: Any, nob: Any, volleys: tuple[Volley, ...]) -> tuple[Any, Any]:
    """Each of ``volleys`` in turn at the Orks as the previous ones left them:
    hits, wounds, saves (binomials), the unsaved wounds on the Boyz, then the
    Nob (:func:`_wounds_on_orks`, :func:`_instant_death_on_orks`). The Boyz and
    the Nob's wounds left. O(n x volleys)."""
    import numpy as np

    for v in volleys:
        wounds = rng.binomial(rng.binomial(np.full(len(boyz), v.shots), v.hit), v.wound)
        if v.unsaved < 1:
            wounds = rng.binomial(wounds, v.unsaved)
        if v.instant_death:
            boyz, nob = _instant_death_on_orks(boyz, nob, wounds)
        else:
            boyz, nob, _ = _wounds_on_orks(boyz, nob, wounds)
    return boyz, nob


def _estimate(totals: dict, runs: int) -> dict:
    """P(the Orks destroyed) of ``totals["destroyed"]`` in ``runs`` engagements, its
    standard error (sqrt(max(p(1 - p), 1e-12) / runs), the convention of the
    functions above: at p = 0 or 1 it is 1e-6 / sqrt(runs), so the first batch
    ends the run) and the totals."""
    p = totals["destroyed"] / runs
    return {"p": p, "standard_error": (max(p * (1 - p), 1e-12) / runs) ** 0.5, "assaults": runs, **totals}


def monte_carlo_shooting(turn: tuple[tuple[Volley, ...], ...], turns: int = 1,
                         standard_error: float = STANDARD_ERROR, seed: int = 1, batch: int = 20_000) -> dict:
    """Units shoot the Orks of ``examples/40k6/ork_boyz_sluggas.toml`` (who do
    not shoot back) for ``turns`` turns, each turn every unit of ``turn`` (its
    volleys, :func:`marines_fire`) in order, the Orks as the previous volleys
    left them (no morale test); batch after batch, until the standard error
    of P(Orks destroyed by the last turn) is at most ``standard_error``. The
    estimate ``p``, its standard error, the engagements (``assaults``), how
    many ended with the Orks destroyed (``destroyed``) and the Orks' models
    left summed over them (``orks_left``). O(batch x turns x volleys) per batch."""
    def one_batch(rng: Any, boyz: Any, nob: Any, _: dict) -> tuple[Any, Any]:
        for _ in range(turns):
            for volleys in turn:
                boyz, nob = fire_at_orks(rng, boyz, nob, volleys)
        return boyz, nob

    return _orks_batches(one_batch, (), standard_error, seed, batch)


def _orks_batches(one_batch: Any, counts: tuple[str, ...], standard_error: float, seed: int, batch: int) -> dict:
    """Batches of ``batch`` engagements against the full Orks, ``one_batch(rng,
    boyz, nob, totals)`` giving the Boyz and the Nob's wounds left after each
    (and adding to ``totals``' ``counts``), until the standard error of
    P(Orks destroyed) is at most ``standard_error`` (:func:`_estimate`). O(one batch) each."""
    import numpy as np

    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(("destroyed", "orks_left", *counts), 0)
    runs = 0
    while True:
        boyz, nob = one_batch(rng, np.full(batch, BOYZ), np.full(batch, NOB_WOUNDS), totals)
        left = boyz + (nob > 0)
        totals["destroyed"] += int(np.sum(left == 0))
        totals["orks_left"] += int(np.sum(left))
        runs += batch
        got = _estimate(totals, runs)
        if got["standard_error"] <= standard_error:
            return got


def monte_carlo_mixed_fire(standard_error: float = STANDARD_ERROR, seed: int = 1, batch: int = 20_000) -> dict:
    """Bench case h.fire (``examples/scenarios/mixed_weapons.toml``): ten Marines
    shoot the Orks at 10" (half range of the bolters and the plasma gun), once."""
    return monte_carlo_shooting((marines_fire(True),), 1, standard_error, seed, batch)


def monte_carlo_two_units(turns: int = 5, standard_error: float = STANDARD_ERROR, seed: int = 1,
                          batch: int = 20_000) -> dict:
    """Bench case h.turns (``examples/scenarios/two_units_five_turns.toml``): each
    turn one Tactical Squad shoots the Orks at half range, then another at 20"
    (one shot per bolter and plasma gun; the missile launcher's 48" and the
    plasma gun's 24" reach), for ``turns`` turns."""
    return monte_carlo_shooting((marines_fire(True), marines_fire(False)), turns, standard_error, seed, batch)


@dataclass(frozen=True)
class HotGroup:
    """One Gets Hot weapon group of ``bench/units/plasma_crew_18.toml``: ``models``
    models (``wounds`` each, BS 4: 3+ hits, a final 1 gets hot; their 3+ save
    against it) firing ``shots`` each, S7 AP2 (wound T4 on 2+, no Ork save)."""

    models: int
    shots: int
    wounds: int = 3


PLASMA_CREWS = (HotGroup(6, 2), HotGroup(6, 1), HotGroup(6, 1))
"""Six plasma guns (Rapid Fire at half range: two shots each), six plasma
pistols, six plasma cannons (Heavy, the unit stationary: one shot), in the
file's weapon order."""


def hot_dice(faces: Any) -> tuple[Any, Any]:
    """To-hit dice of shape (runs, models, shots) at BS 4 (no reroll): per run the
    hits (3+), and per model its 1s (each a Gets Hot wound before its save). O(dice)."""
    return (faces >= 3).sum(axis=(1, 2)), (faces == 1).sum(axis=2)


def monte_carlo_gets_hot(groups: tuple[HotGroup, ...] = PLASMA_CREWS, standard_error: float = STANDARD_ERROR,
                         seed: int = 1, batch: int = 20_000) -> dict:
    """Bench case h.gets_hot_fire (``40k6 fire`` of ``bench/units/plasma_crew_18.toml``
    at the Orks, range half): each group in turn rolls to hit (:func:`hot_dice`;
    it rolls even at Orks already destroyed), its hits wound on 2+ with no save
    and go to the Boyz, then the Nob (S7: no Instant Death); each 1 costs its
    model a wound on a failed 3+ save (a model at 0 is removed). Until the
    standard error of P(Orks destroyed) is at most ``standard_error``. As
    :func:`monte_carlo_shooting`, plus the firing models removed
    (``firers_lost``) and their wounds lost (``wounds_lost``) summed over the
    engagements. O(batch x shots) per batch."""
    import numpy as np

    def one_batch(rng: Any, boyz: Any, nob: Any, totals: dict) -> tuple[Any, Any]:
        for g in groups:
            hits, ones = hot_dice(rng.integers(1, 7, size=(len(boyz), g.models, g.shots)))
            boyz, nob, _ = _wounds_on_orks(boyz, nob, rng.binomial(hits, 5 / 6))
            lost = np.minimum(rng.binomial(ones, 2 / 6), g.wounds)
            totals["wounds_lost"] += int(lost.sum())
            totals["firers_lost"] += int((lost == g.wounds).sum())
        return boyz, nob

    return _orks_batches(one_batch, ("firers_lost", "wounds_lost"), standard_error, seed, batch)
