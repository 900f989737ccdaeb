"""A Monte Carlo simulator of the flagship assault (Warhammer 40,000 6th edition),
standalone (plain Python, every die rolled), to check against the exact answer:
twenty Ork Boyz (``examples/40k6/ork_boyz_sluggas.toml``) charge ten Space
Marines (``examples/40k6/tactical_squad_mixed_weapons.toml``) from 7 inches,
for up to three rounds of combat. From the repository root:

    python examples/validation/simulate_assault.py 100000 --seed 1 --counts > assault.csv
    exactodds validate examples/validation/assault_query.toml assault.csv    # exit 0
    python examples/validation/simulate_assault.py 100000 --seed 1 --counts --bug no-look-out-sir > bug.csv
    exactodds validate examples/validation/assault_query.toml bug.csv        # exit 1

``--bug NAME`` plants one wrong reading of the rules:

- ``no-look-out-sir``: the Sergeant never passes a wound on (no Look Out, Sir);
- ``sweep-tie-to-loser``: a sweeping advance catches the loser only when the
  winner's roll is higher, not on a tie;
- ``charge-bonus-every-round``: the Boyz' +1 Attack for charging in every round,
  not only the first.

The rules as read here (those of exactodds' 40K 6th edition pages):

1. **Overwatch.** Each Marine fires at the Boyz as snap shots (a hit on a 6):
   eight bolters two shots each (Rapid Fire within half range), the plasma gun
   two shots, the missile launcher one (krak); wounds on 4+ (bolter, S4 against
   T4) or 2+ (plasma S7, krak S8), and no save for an Ork (AP5, AP2 and AP3
   all ignore a 6+ armour save). Wounds go to the closest model, Boyz before
   the Nob; a krak missile wound kills the 2-Wound Nob outright (Instant Death).
2. **The charge.** 2D6 of at least 7 inches, or the charge fails.
3. **Each round of combat**, by Initiative, casualties removed after each step:
   - Initiative 4, the Marines: the Sergeant's two Attacks with his power sword
     (AP3: no save for an Ork), each other Marine's one Attack; WS 4 against WS 4
     hits on 4+, S4 against T4 wounds on 4+, the Boyz' 6+ save against the others;
   - Initiative 2, the Boyz: 2 Attacks, +1 for two close-combat weapons, +1 in the
     round of the charge; hits on 4+, S3 against T4 wounds on 5+, the Marines' 3+ save;
   - Initiative 1, the Nob with his power klaw (Unwieldy): 3 Attacks (+1 on the
     charge; no two-weapon Attack with a Specialist Weapon); hits on 4+, S8 wounds
     on 2+, AP2: no save.

   A wound on the Marines goes to the Sergeant (the closest model) while he is in
   play, and on a 4+ (Look Out, Sir) to the next Marine instead, if one is left.
   The side that inflicted more unsaved wounds wins the round; the loser tests
   Leadership (its highest in play: 7 for the Orks; 9 with the Sergeant, else 8,
   for the Marines) on 2D6 at most Ld minus the difference, a double 1 passing.
   A failed test falls back, and the winner's sweeping advance (D6 + its lowest
   Initiative in play, the Boyz 2, the Nob alone 3) catches the loser when at
   least the loser's D6 + Initiative (the Marines 4): caught Boyz are destroyed;
   caught Marines (And They Shall Know No Fear) stay locked in combat.
   A unit destroyed, or a unit falling back, ends the combat.

It writes CSV with the columns ``attacker,attacker_status,defender,defender_status``
(models left and status of each unit: ``-``, ``charge failed``, ``locked``,
``falling back``, ``swept`` or ``destroyed``), one row per assault, or with a
``count`` column (one row per outcome) with ``--counts``.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter

BUGS = ("no-look-out-sir", "sweep-tie-to-loser", "charge-bonus-every-round")


class Assault:
    """One assault, rolled die by die. ``boyz``: Boyz in play (the Nob is last);
    ``nob``: the Nob's Wounds left; ``sergeant``: the Sergeant in play;
    ``marines``: the other Marines in play."""

    def __init__(self, rng: random.Random, bug: str | None) -> None:
        self.rng, self.bug = rng, bug
        self.boyz, self.nob, self.sergeant, self.marines = 19, 2, True, 9

    def d6(self) -> int:
        """One six-sided die."""
        return int(self.rng.random() * 6) + 1

    def orks(self) -> int:
        """Orks in play."""
        return self.boyz + (self.nob > 0)

    def space_marines(self) -> int:
        """Marines in play."""
        return self.sergeant + self.marines

    # ------------------------------------------------------------- wounds
    def wound_orks(self, save: bool, instant_death: bool = False) -> int:
        """One wound on the closest Ork: 1 when unsaved (and a model took it), else 0."""
        if not self.orks():
            return 0
        if save and self.d6() >= 6:
            return 0
        if self.boyz:
            self.boyz -= 1
        else:
            self.nob = 0 if instant_death else self.nob - 1
        return 1

    def wound_marines(self, save: bool) -> int:
        """One wound on the closest Marine (the Sergeant, Look Out, Sir on a 4+):
        1 when unsaved (and a model took it), else 0."""
        if not self.space_marines():
            return 0
        on_sergeant = self.sergeant
        if on_sergeant and self.marines and self.bug != "no-look-out-sir" and self.d6() >= 4:
            on_sergeant = False  # Look Out, Sir: the next Marine takes it
        if save and self.d6() >= 3:
            return 0
        if on_sergeant:
            self.sergeant = False
        else:
            self.marines -= 1
        return 1

    # ---------------------------------------------------------- the steps
    def overwatch(self) -> None:
        """Snap shots (6s hit) of the bolters, the plasma gun and the missile launcher, in that order."""
        for shots, wound_on, save, instant_death in ((16, 4, False, False), (2, 2, False, False), (1, 2, False, True)):
            hits = sum(self.d6() == 6 for _ in range(shots))
            wounds = sum(self.d6() >= wound_on for _ in range(hits))
            for _ in range(wounds):
                self.wound_orks(save, instant_death)

    def wounds(self, attacks: int, hit_on: int, wound_on: int) -> int:
        """Hit and wound rolls of ``attacks`` Attacks: the wounds."""
        hits = sum(self.d6() >= hit_on for _ in range(attacks))
        return sum(self.d6() >= wound_on for _ in range(hits))

    def round(self, charged: bool) -> tuple[int, int]:
        """One round's blows by Initiative: (unsaved wounds on the Orks, on the Marines)."""
        bonus = 1 if charged or self.bug == "charge-bonus-every-round" else 0
        on_orks = on_marines = 0
        sword = self.wounds(2 * self.sergeant, 4, 4)  # Initiative 4: the Sergeant's line first
        others = self.wounds(self.marines, 4, 4)
        on_orks += sum(self.wound_orks(save=False) for _ in range(sword))
        on_orks += sum(self.wound_orks(save=True) for _ in range(others))
        boyz = self.wounds(self.boyz * (2 + 1 + bonus), 4, 5)  # Initiative 2
        on_marines += sum(self.wound_marines(save=True) for _ in range(boyz))
        klaw = self.wounds((3 + bonus) * (self.nob > 0), 4, 2)  # Initiative 1
        on_marines += sum(self.wound_marines(save=False) for _ in range(klaw))
        return on_orks, on_marines

    def caught(self, winner_initiative: int, loser_initiative: int) -> bool:
        """The sweeping advance: D6 + the winner's Initiative against D6 + the loser's."""
        winner, loser = self.d6() + winner_initiative, self.d6() + loser_initiative
        return winner > loser if self.bug == "sweep-tie-to-loser" else winner >= loser

    def fails(self, leadership: int) -> bool:
        """A morale test on 2D6 at most ``leadership`` (a double 1 passes)."""
        a, b = self.d6(), self.d6()
        return a + b > leadership and not (a == 1 and b == 1)

    def run(self) -> tuple[int, str, int, str]:
        """The whole assault: (Orks left, their status, Marines left, their status)."""
        self.overwatch()
        if not self.orks():
            return 0, "destroyed", self.space_marines(), "-"
        if self.d6() + self.d6() < 7:
            return self.orks(), "charge failed", self.space_marines(), "-"
        for r in range(3):
            on_orks, on_marines = self.round(charged=r == 0)
            if not (self.orks() and self.space_marines()):
                break
            diff = on_marines - on_orks  # above 0: the Orks won the round
            ork_initiative = 2 if self.boyz else 3  # the lowest Initiative in play
            if diff > 0 and self.fails((9 if self.sergeant else 8) - diff):
                if not self.caught(ork_initiative, 4):  # caught, the Marines fight on
                    return self.orks(), "-", self.space_marines(), "falling back"
            elif diff < 0 and self.fails(7 + diff):
                if self.caught(4, ork_initiative):
                    return 0, "swept", self.space_marines(), "-"
                return self.orks(), "falling back", self.space_marines(), "-"
        return self.ending()

    def ending(self) -> tuple[int, str, int, str]:
        """The outcome after the last round (or a unit destroyed)."""
        orks, marines = self.orks(), self.space_marines()
        if not orks:
            return 0, "destroyed", marines, "-"
        if not marines:
            return orks, "-", 0, "destroyed"
        return orks, "locked", marines, "locked"


def main(argv: list[str]) -> None:
    """``N [--seed S] [--bug NAME] [--counts]``: N assaults (S: the random seed, 1 by default) as CSV on standard output."""
    parser = argparse.ArgumentParser(description="Simulate the flagship assault (40K 6th edition).")
    parser.add_argument("n", type=int, help="number of assaults")
    parser.add_argument("--seed", dest="random_seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--bug", choices=BUGS, default=None, help="plant one wrong reading of the rules")
    parser.add_argument("--counts", action="store_true", help="one row per outcome, with its count")
    args = parser.parse_args(argv)
    rng = random.Random(args.random_seed)
    outcomes = (Assault(rng, args.bug).run() for _ in range(args.n))
    out = sys.stdout
    if args.counts:
        counted = Counter(outcomes)
        out.write("attacker,attacker_status,defender,defender_status,count\n")
        for (a, sa, d, sd), c in sorted(counted.items()):
            out.write(f"{a},{sa},{d},{sd},{c}\n")
    else:
        out.write("attacker,attacker_status,defender,defender_status\n")
        for a, sa, d, sd in outcomes:
            out.write(f"{a},{sa},{d},{sd}\n")


if __name__ == "__main__":
    main(sys.argv[1:])
