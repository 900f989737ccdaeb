"""(h) whole exchanges in 40K 6th edition, from the scenario files of
``examples/scenarios/``:

- (i) ten Marines (eight bolters, a plasma gun, a missile launcher, BS 4)
  shoot twenty Orks (T4, 6+), weapon group after weapon group;
- (ii) twenty Orks charge ten Marines from 7": Overwatch, the charge, three
  rounds of combat with morale and sweeping advance (the units as
  ``bench/units/`` keeps them, as its Monte Carlo simulates them);
- (iii) two units shoot the same Orks for five turns;

- larger engagements (``bench/scenarios/``, ``bench/units/``): thirty Orks
  (29 Boyz with slugga and choppa and a Nob with a power klaw, as the
  benchmark specifies them) charge the ten Marines (5 rounds) or twenty
  Guardsmen (3 rounds); forty Orks charge twenty Guardsmen (5 rounds); a
  Legion Tactical Squad and a Heavy Support Squad exchange fire for twenty
  turns (Horus Heresy); ``40k6 fire`` with three Gets Hot groups of six
  3-Wound models;

the twenty Orks of (ii) and the forty are plain Boyz (2 Attacks, no
close-combat weapon, no Nob): those cases are specified without weapons;

and what a user does instead of each engagement: a numpy Monte Carlo of the
same question (:mod:`.monte_carlo`) run until the standard error of
P(defender destroyed) (by the last turn) is 1e-3 (70,000 to 260,000 runs for
the assaults; one batch of 20,000 for the shooting, whose P is 0, about 1 or
about 0.001, where the standard error sqrt(max(p(1 - p), 1e-12) / runs) is
met at once), timed with its calls alternating with the exact case's. Each
exact case's targets: under 2 s (stricter for h.fire and h.turns), and no
slower than its Monte Carlo in the same run. No peer library answers these
questions.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from . import Case, dist_answer, either, first_code, monte_carlo, need, relative, under

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "examples" / "scenarios"
BENCH = ROOT / "bench" / "scenarios"
FILES = {"fire": SCENARIOS / "mixed_weapons.toml", "assault": BENCH / "orks20_marines_3.toml",
         "turns": SCENARIOS / "two_units_five_turns.toml",
         "orks30_marines_5": BENCH / "orks30_marines_5.toml", "orks30_guard_3": BENCH / "orks30_guard_3.toml",
         "orks40_guard_5": BENCH / "orks40_guard_5.toml", "hh3_20_turns": BENCH / "hh3_twenty_turns.toml"}
ASSAULTS = {"orks30_marines_5": (monte_carlo.sluggas(29), monte_carlo.MARINES, 5,
                                 "30 Orks (two weapons, a Nob with a power klaw) charge 10 Marines at 7\", 5 rounds"),
            "orks30_guard_3": (monte_carlo.sluggas(29), monte_carlo.GUARD, 3,
                               "30 Orks (two weapons, a Nob with a power klaw) charge 20 Guardsmen at 7\", 3 rounds"),
            "orks40_guard_5": (40, monte_carlo.GUARD, 5, "40 Orks charge 20 Guardsmen at 7\", 5 rounds")}
"""The larger assaults: (the Orks (a number: plain Boyz), the charged unit, rounds, title), each with its Monte Carlo."""
GETS_HOT = (ROOT / "bench" / "units" / "plasma_crew_18.toml", ROOT / "examples" / "40k6" / "ork_boyz_sluggas.toml")
"""``40k6 fire``: three Gets Hot groups of six 3-Wound models at twenty Orks (half range)."""
STANDARD_ERROR = 1e-3


def scenario_end(name: str) -> Any:
    """exactodds: the joint end state (a Dist over worlds) of one scenario file."""
    load_scenario = need("exactodds.profiles.scenario", "load_scenario")
    return load_scenario(FILES[name]).run().final


def world_key(w: Any) -> list:
    """A world as JSON: each unit's wounds left per model, and its status."""
    return [[list(s.wounds), status] for s, status in zip(w.units, w.statuses, strict=True)]


def monte_carlo_assault(standard_error: float = STANDARD_ERROR, seed: int = 1, batch: int = 20_000) -> dict:
    """numpy: case (ii) simulated assault by assault (vectorised over a batch),
    until the standard error of P(Marines destroyed) is at most
    ``standard_error`` (:func:`.monte_carlo.monte_carlo_assault`: twenty Orks
    charge the ten Marines, 3 rounds)."""
    return monte_carlo.monte_carlo_assault(20, monte_carlo.MARINES, 3, standard_error, seed, batch)


def mc_answer(r: dict) -> dict:
    """The Monte Carlo's estimate as an answer: the defender destroyed (1) in so many engagements of all."""
    from ..timing import encode_answer

    return encode_answer([(1, r["destroyed"]), (0, r["assaults"] - r["destroyed"])], r["assaults"])


def gets_hot_fire() -> Any:
    """exactodds: ``40k6 fire`` of :data:`GETS_HOT` at half range: (casualties, firing models lost)."""
    Query = need("exactodds.commands", "Query")
    attacker, target = GETS_HOT
    return Query("40k6", "fire", {"attacker": str(attacker), "target": str(target), "range": "half"}).answer()


def p_destroyed(name: str, unit: int) -> Any:
    """The exact P(unit number ``unit`` has no model left) at the end of scenario ``name``."""
    return scenario_end(name).prob(lambda w: not w.units[unit].alive())


FALLBACK = ("orks40_guard_5",)
"""The engagements that do not beat their Monte Carlo: their target has the issue's
fallback, at least 10 times faster than the code of the first benchmark
(:mod:`.first_code`), timed in the same run."""


def larger_cases() -> list[Case]:
    """The larger engagements, each with its Monte Carlo (and, for those of
    :data:`FALLBACK`, the first benchmark's code on the same question)."""
    out = []
    for name, (orks, defender, rounds, title) in ASSAULTS.items():
        targets = engagement_targets(name)
        if name in FALLBACK:
            targets[1] = either(targets[1], relative(f"h.{name}_first_code", 0.1,
                                                     "at least 10 times faster than the first benchmark's code "
                                                     "(same run)"))
        out.append(Case(f"h.{name}", "h", f"40K 6th: {title}: Overwatch, morale, sweeping advance",
                        compute=lambda name=name: scenario_end(name), canon=lambda d: dist_answer(d, world_key),
                        targets=targets))
        out.append(monte_carlo_case(name, lambda o=orks, d=defender, r=rounds: monte_carlo.monte_carlo_assault(o, d, r),
                                    "P(defender destroyed)"))
        if name in FALLBACK:
            out.append(Case(f"h.{name}_first_code", "h", f"h.{name} on the code of the first benchmark "
                            f"({first_code.FIRST_CODE}, its work limit raised)",
                            compute=lambda name=name: first_code.scenario_end(FILES[name]),
                            canon=lambda d: dist_answer(d, world_key), targets=[], repeats=5,
                            note=f"the fallback's reference: h.{name}'s target divides by its time"))
    out.append(Case("h.hh3_20_turns", "h", "Horus Heresy: tacticals and heavies exchange fire for 20 turns",
                    compute=lambda: scenario_end("hh3_20_turns"), canon=lambda d: dist_answer(d, world_key),
                    targets=engagement_targets("hh3_20_turns")))
    out.append(monte_carlo_case("hh3_20_turns", monte_carlo.monte_carlo_hh3_exchange,
                                "P(heavies destroyed by the last turn)"))
    out.append(Case("h.gets_hot_fire", "h", "40k6 fire: three Gets Hot groups of six 3-Wound models at 20 Orks",
                    compute=gets_hot_fire, canon=dist_answer, targets=engagement_targets("gets_hot_fire")))
    out.append(monte_carlo_case("gets_hot_fire", monte_carlo.monte_carlo_gets_hot, "P(Orks destroyed)"))
    return out


def engagement_targets(name: str, seconds: float = 2.0) -> list:
    """An engagement's targets: under ``seconds``, and no slower than its numpy
    Monte Carlo in the same run (its time / the Monte Carlo's at most 1)."""
    return [under(seconds), relative(f"h.{name}_monte_carlo", 1.0, "no slower than its Monte Carlo (same run)")]


def monte_carlo_case(name: str, compute: Any, headline: str) -> Case:
    """The numpy Monte Carlo of case ``h.NAME`` (``compute``), timed paired with it
    (for longer when the exact case's fallback also divides its time)."""
    return Case(f"h.{name}_monte_carlo", "h", f"numpy Monte Carlo of h.{name} to a standard error of 1e-3 on "
                f"{headline}", compute=compute, canon=mc_answer, targets=[],
                note=f"what a user does instead of h.{name}; the exact case's target compares the two",
                paired=f"h.{name}", budget=2.0 if name in FALLBACK else None)


def cases(quick: bool = False) -> list[Case]:
    """Cases (h)."""
    return larger_cases() + [
        Case("h.fire", "h", "40K 6th: 10 Marines (8 bolters, plasma, missile) shoot 20 Orks, group by group",
             compute=lambda: scenario_end("fire"), canon=lambda d: dist_answer(d, world_key),
             targets=engagement_targets("fire", 0.050)),
        Case("h.assault", "h", "40K 6th: 20 Orks charge 10 Marines at 7\": Overwatch, 3 rounds, morale, sweeping "
             "advance", compute=lambda: scenario_end("assault"), canon=lambda d: dist_answer(d, world_key),
             targets=engagement_targets("assault")),
        Case("h.turns", "h", "40K 6th: two units shoot the same Orks for 5 turns",
             compute=lambda: scenario_end("turns"), canon=lambda d: dist_answer(d, world_key),
             targets=engagement_targets("turns", 1.0)),
        Case("h.assault_monte_carlo", "h", "numpy Monte Carlo of h.assault to a standard error of 1e-3 on "
             "P(Marines destroyed)", compute=monte_carlo_assault, canon=mc_answer, targets=[],
             note="what a user does instead of h.assault; the exact case's target compares the two",
             paired="h.assault"),
        monte_carlo_case("fire", monte_carlo.monte_carlo_mixed_fire, "P(Orks destroyed)"),
        monte_carlo_case("turns", monte_carlo.monte_carlo_two_units, "P(Orks destroyed by the last turn)"),
    ]
