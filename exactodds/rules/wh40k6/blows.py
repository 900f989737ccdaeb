"""The blows of one side in a fight round of Warhammer 40,000 6th edition.

:class:`Striker` holds what a unit strikes with against one target: per
model line, the :class:`~.melee.Blow` of each close-combat weapon it may
fight with (one, the line's own Strength and AP, when it names none), the
weapon each line fights with against the target as it stands at the start
of a round (:meth:`Striker.choose`), and the blows at one Initiative step
(:meth:`Striker.strike`). Hammer of Wrath hits come at Initiative 10 on the
charge; Concussive marks the models it wounds (``UnitState.marked``), which
then strike at Initiative 1.

Choosing a weapon (our reading; the rules leave it to the player): a model
with several close-combat weapons and no ``melee_uses`` fights with the one
that gives the most expected unsaved wounds per model against the target at
the start of the round: its Attacks (mean, with every bonus) x P(hit) x
(P(wound) x P(the closest model in play fails its save and Feel No Pain) +
P(rending wound) x the same at AP2), exact Fractions; the first in file order
on a tie. When it strikes does not enter the choice.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from fractions import Fraction
from functools import partial
from typing import Any

from ...core import Dist
from ...core.tables import mix
from ...dice import pool_counts, successes
from ..allocation import Numbering, UnitState, alive_per_line, wound_kernel
from ..common import wound_target
from .chain_tables import CappedWounds, Table, mixed, on_chain
from .casualties import IndexedKernel, alloc_models, instant_death_damage, majority_toughness, majority_ws, recipient
from .melee import HAMMER_OF_WRATH_INITIATIVE, Blow
from .strike_options import line_options, wound_chances
from .tables import ws_target
from .traits import FAIL, RENDING, RENDING_AP, WOUND, rending_changes_ap
from .units import Melee, Unit

CHARGE_BONUS = 1
"""+1 Attack for each model of the unit that charged."""
RAGE_BONUS = 2
"""Rage: +2 Attacks instead of +1 when charging."""
COUNTER_ATTACK_BONUS = 1
"""Counter-attack: +1 Attack when charged."""

Choice = tuple[int, ...]
"""The index of the option each model line fights with."""

_UNKNOWN: Any = object()
"""Not yet known (a memo whose values may be None)."""


class Striker:
    """One unit striking another in a fight round (see the module's docstring).

    ``charging``: it charged this turn (+1 Attack, +2 with Rage; Furious
    Charge +1 Strength; Hammer of Wrath); ``charged``: it was charged
    (Counter-attack); ``terrain``: it charged through difficult terrain
    (lines without assault grenades strike at Initiative 1). Kernels are
    cached per (Strength, AP, Concussive), in ``kernels`` when given (a
    dictionary shared with another Striker of the same unit at the same
    target: a kernel reads the target and the blow, not who charged), blows
    per (step, strikers, target state)."""

    def __init__(self, unit: Unit, target: Unit, charging: bool, charged: bool, terrain: bool = False,
                 kernels: dict[tuple, IndexedKernel] | None = None) -> None:
        self.unit, self.target = unit, target
        slowed = [charging and terrain and "assault" not in m.grenades for m in unit.models]
        self.options = line_options(unit, charging, slowed)
        self.attacks: list[Melee] = [m.melee for m in unit.models]  # type: ignore[misc]
        self.bonus = [(RAGE_BONUS if "rage" in m.rules else CHARGE_BONUS) if charging else
                      (COUNTER_ATTACK_BONUS if charged and "counter-attack" in m.rules else 0) for m in unit.models]
        self.hatred = [(charging or charged) and "hatred" in m.rules for m in unit.models]
        self.hammer = [charging and "hammer-of-wrath" in m.rules for m in unit.models]
        self.line = unit.line_of()
        self.choose_recipient = recipient(target)
        self.target_models = target.expanded()
        # the wound kernels (and the chains of states they keep) may be shared with another
        # Striker of the same unit at the same target: they read the target and the blow alone
        self._kernels: dict[tuple, IndexedKernel] = {} if kernels is None else kernels
        self._choices: dict[UnitState, Choice] = {}
        self._memo: dict[tuple, Dist] = {}
        self._tables: dict[tuple, tuple] = {}
        self._by_dist: dict[int, tuple[Dist, tuple]] = {}
        self._binomials: dict[tuple[Dist, Fraction], Dist] = {}
        self._passes: dict[tuple, list[Fraction]] = {}
        self._who: dict[tuple, tuple] = {}
        self._who_bare: dict[tuple, tuple] = {}
        self._who_ids: Numbering[tuple] = Numbering()
        self._alone: dict[UnitState, tuple] = {}
        self._as_dist: dict[UnitState, Dist] = {}
        self._sums: dict[tuple[int, int], tuple[Dist, Dist, Dist]] = {}
        self._thin_by: dict[tuple[int, int, int], tuple] = {}
        self._runs: dict[tuple, tuple] = {}
        self._hits: dict[tuple[int, int], Fraction] = {}
        self._interned: dict[Fraction, Fraction] = {}
        self._counts: dict[tuple[int, int, int], tuple[Dist, bool]] = {}
        self._chances: dict[tuple, tuple] = {}
        self._capped = CappedWounds()
        self._kills: dict[tuple[int, bool], tuple[Fraction, Fraction]] = {}
        self._chain_of: dict[tuple[int, UnitState], tuple[tuple[UnitState, ...], Fraction] | None] = {}
        self._alike_of: dict[tuple[int, int], tuple | None] = {}
        self._steady_chains: dict[int, tuple[tuple[UnitState, ...], bool]] = {}
        self._one_chain: dict[tuple[UnitState, ...], tuple[UnitState, ...]] = {}
        self._target_stats: dict[tuple[int, ...], tuple[int, int]] = {}
        self._stats_of: dict[UnitState, tuple[int, int]] = {}
        self._line_stats: dict[tuple, tuple[int, int]] = {}
        self._target_line = target.line_of()
        self._run_whos: dict[tuple, tuple] = {}
        self.concussive = any(b.concussive for opts in self.options for b in opts)

    def initiatives(self, choice: Choice, slowed: bool) -> set[int]:
        """The Initiative steps this unit strikes at with ``choice`` (``slowed``: some
        models may be concussed, at Initiative 1)."""
        steps = {self.options[j][c].initiative for j, c in enumerate(choice)}
        if slowed:
            steps.add(1)
        if any(self.hammer):
            steps.add(HAMMER_OF_WRATH_INITIATIVE)
        return steps

    def struck(self, step: int, choice: Choice, slow: frozenset[int]) -> Callable[[int], bool]:
        """Whether a model of this unit has struck this round by the end of ``step``."""
        def done(i: int) -> bool:
            j = self.line[i]
            return (1 if i in slow else self.options[j][choice[j]].initiative) >= step
        return done

    def kernel(self, strength: int, ap: int | None, concussive: bool) -> IndexedKernel:
        """One wound at ``strength`` and ``ap`` on the target (no cover in close
        combat; Instant Death from the Strength; Concussive marks the model)."""
        key = (strength, ap, concussive)
        k = self._kernels.get(key)
        if k is None:
            models = alloc_models(self.target, ap, cover_allowed=False, strength=strength)
            k = self._kernels[key] = IndexedKernel(wound_kernel(
                models, self.choose_recipient, instant_death_damage(self.target, strength), track_unsaved=True,
                mark=concussive))
        return k

    def choose(self, foe: UnitState) -> Choice:
        """The option each line fights with against the target in ``foe``. O(lines x weapons) per state."""
        got = self._choices.get(foe)
        if got is None:
            got = self._choices[foe] = tuple(self._best(j, foe) for j in range(len(self.options)))
        return got

    def _best(self, j: int, foe: UnitState) -> int:
        opts = self.options[j]
        alive = foe.alive()
        if len(opts) == 1 or not alive:
            return 0
        target_ws, toughness = self._stats(foe)
        p_hit = self._p_hit(j, target_ws)
        first = alive[0]
        best, best_value = 0, Fraction(-1)
        for k, b in enumerate(opts):
            p_wound, p_rend = wound_chances(b, toughness)
            through, through_ap2 = self._through(b.ap, b.strength, first), self._through(RENDING_AP, b.strength, first)
            attacks = Fraction(self.attacks[j].attack_counts(1, self.bonus[j] + b.extra_attacks).mean())
            value = attacks * p_hit * (p_wound * through + p_rend * through_ap2)
            if value > best_value:
                best, best_value = k, value
        return best

    def _through(self, ap: int | None, strength: int, model: int) -> Fraction:
        """P(a wound on the target's ``model`` gets past its save and Feel No Pain). Cached per (AP, Strength)."""
        key = (ap, strength)
        got = self._passes.get(key)
        if got is None:
            got = self._passes[key] = [m.p_unsaved() for m in alloc_models(self.target, ap, False, strength)]
        return got[model]

    def _p_hit(self, j: int, target_ws: int) -> Fraction:
        """P(a blow of line ``j`` hits a target of ``target_ws``). Memoised, equal
        chances as one object (lines striking alike are told by identity)."""
        got = self._hits.get((j, target_ws))
        if got is None:
            p = ws_target(self.attacks[j].ws, target_ws).chance()
            p = p + (1 - p) * p if self.hatred[j] else p  # Hatred: reroll failed to-hit rolls
            got = self._hits[j, target_ws] = self._interned.setdefault(p, p)  # equal chances: one object
        return got

    def _attack_counts(self, j: int, n: int, extra: int) -> tuple[Dist, bool]:
        """The Attacks of ``n`` models of line ``j`` with ``extra`` from their
        weapons, and whether they may make any. Memoised: O(1) when known."""
        key = (j, n, extra)
        got = self._counts.get(key)
        if got is None:
            attacks = self.attacks[j].attack_counts(n, self.bonus[j] + extra)
            got = self._counts[key] = (attacks, max(attacks.support()) > 0)
        return got

    def _strikers(self, initiative: int, own: UnitState, choice: Choice, slow: frozenset[int]) -> tuple:
        """Who strikes at ``initiative``: (models per line, the option of each
        line that strikes, or -1; Hammer of Wrath hits per line; nobody strikes;
        a number for this tuple). Memoised per (step, state, choice, concussed),
        O(1) (states keep their hash), and per (step, models in play and marked,
        choice, concussed): the strikers' unsaved-wound counter does not change
        who strikes. O(models) when new."""
        key = (initiative, own, choice, slow)
        who = self._who.get(key)
        if who is None:
            bare = (initiative, own.wounds, own.marked, choice, slow)
            who = self._who_bare.get(bare)
            if who is None:
                counts = [0] * len(self.options)
                hammers = [0] * len(self.options)
                for i in own.alive():
                    j = self.line[i]
                    at = 1 if (i in slow or i in own.marked) else self.options[j][choice[j]].initiative
                    if at == initiative:
                        counts[j] += 1
                    if initiative == HAMMER_OF_WRATH_INITIATIVE and self.hammer[j]:
                        hammers[j] += 1
                what = (tuple(counts), tuple(c if n else -1 for c, n in zip(choice, counts, strict=True)),
                        tuple(hammers))
                who = self._who_bare[bare] = (*what, not (any(counts) or any(hammers)), self._who_ids.number(what))
            self._who[key] = who
        return who

    def strike(self, initiative: int, own: UnitState, foe: UnitState, choice: Choice, slow: frozenset[int]) -> Dist:
        """Dist of the target's state after this unit's models of ``initiative``
        strike (``slow``: models concussed at the start of the round; models
        marked in ``own`` were concussed during it: both at Initiative 1).
        Memoised on (step, strikers per line and their options, target state)."""
        who = self._strikers(initiative, own, choice, slow)
        key = (initiative, who[4], foe)
        got = self._memo.get(key)
        if got is None:
            got = self._memo[key] = self._blows(who[0], choice, foe, who[2])
        return got

    def strike_table(self, initiative: int, own: UnitState, foe: UnitState, choice: Choice,
                     slow: frozenset[int]) -> Table:
        """:meth:`strike` as a table: ((target state, integer weight), ...) and
        their total. Nobody striking at this step leaves the target as it is (a
        table of one, one per target state); else memoised on (step, strikers,
        target state). O(1) when known."""
        who = self._who.get((initiative, own, choice, slow)) or self._strikers(initiative, own, choice, slow)
        return self._table(initiative, who, own, foe, choice, slow)

    def _table(self, initiative: int, who: tuple, own: UnitState, foe: UnitState, choice: Choice,
               slow: frozenset[int]) -> Table:
        """:meth:`strike_table` once ``who`` strikes is known (:meth:`_strikers`). O(1) when known."""
        if who[3]:
            return self.unchanged(foe)
        key = (initiative, who[4], foe)
        got = self._tables.get(key)
        if got is None:
            got = self._chain_table(who, foe) if not any(who[2]) else None
            if got is not None:
                self._tables[key] = got
                return got
            # one table per distinct blows (the Dists are memoised)
            got = self._tables[key] = self._dist_table(self.strike(initiative, own, foe, choice, slow))
        return got

    def unchanged(self, foe: UnitState) -> Table:
        """The table of blows that leave the target in ``foe`` as it is: one per state. O(1)."""
        got = self._alone.get(foe)
        if got is None:
            got = self._alone[foe] = ((foe, 1),), 1
        return got

    def run_table(self, steps: tuple[int, ...], own: UnitState, foe: UnitState, choice: Choice,
                  slow: frozenset[int]) -> Table:
        """The blows of this unit at each of ``steps`` in turn (Initiative steps at
        which the target does not strike back, so this unit's models in play do
        not change between them), as one table like :meth:`strike_table`: the
        target's states after the last, in the order the steps one after the
        other list them, over their common total (on one birth chain, the
        capped sum of the steps' wounds: :meth:`_run_on_chain`). Memoised per
        (steps, who strikes at each, target state); O(states x outcomes)
        multiply-adds per step the first time."""
        if len(steps) == 1:
            return self.strike_table(steps[0], own, foe, choice, slow)
        known = self._run_whos.get((steps, own, choice, slow))  # who strikes at each step (the same at every
        if known is None:  # state of the run) and their numbers, kept per (steps, state, choice, concussed)
            strikers = [self._strikers(i, own, choice, slow) for i in steps]
            known = self._run_whos[steps, own, choice, slow] = (strikers, tuple(who[4] for who in strikers))
        whos, ids = known
        key = (steps, ids, foe)
        got = self._runs.get(key)
        if got is None:
            got = self._run_on_chain(whos, choice, foe) if any(foe.wounds) else None
            if got is None:
                states: dict[UnitState, int] = {foe: 1}
                total = 1
                table = self._table
                for i, who in zip(steps, whos, strict=True):
                    states, lcm = mix([(w, table(i, who, own, st, choice, slow)) for st, w in states.items()])
                    total *= lcm
                got = (tuple(states.items()), total)
            self._runs[key] = got
        return got

    def run_tables(self, steps: tuple[int, ...], pairs: Iterable[tuple[UnitState, UnitState]], choice: Choice,
                   slow: frozenset[int]) -> list[Table]:
        """:meth:`run_table` for each (own state, target state) of ``pairs``, in
        order: one call for all of a round's states before its last step. O(1)
        each when known."""
        if len(steps) != 1:
            return [self.run_table(steps, own, foe, choice, slow) for own, foe in pairs]
        strike, i = self.strike_table, steps[0]
        return [strike(i, own, foe, choice, slow) for own, foe in pairs]

    def _chain_table(self, who: tuple, foe: UnitState) -> Table | None:
        """:meth:`_blows` as a table, without a Dist, when the lines striking
        (``who``, :meth:`_strikers`; no Hammer of Wrath) make one group of
        blows (:meth:`_blows`: lines striking alike summed on a birth chain)
        whose wounds thin on the target (:meth:`_thins`) along its birth chain
        (:meth:`_birth_table`) or, one line striking, its chain of saves
        (:meth:`_saved_table`). The same pairs, in the same order, over the
        same total as :meth:`strike_table` from :meth:`_blows`. None otherwise
        (then :meth:`_blows`). O(chain) when the binomial and the chain are
        known; the group, its chances and the chain looked up once each."""
        if not any(foe.wounds):
            return self.unchanged(foe)
        group = self._one_group(who, foe)
        if not group:
            return None if group is None else self.unchanged(foe)
        attacks, p_hit, b, toughness, lines = group
        _, _, thins, p, own = self._chance(b, toughness, p_hit)
        if not thins:
            return None
        chain = self._chain_under(own, foe)
        if chain is not None:
            return self._birth_table(attacks, p, chain)
        if lines > 1:  # lines striking alike are summed on a birth chain only (:meth:`_one_group`)
            return None
        return self._saved_table(attacks, p, own, foe)

    def _one_group(self, who: tuple, foe: UnitState) -> tuple | None:
        """The blows of the lines striking (``who``, :meth:`_strikers`) on ``foe`` as one group, as
        :meth:`_blows` groups them (lines striking alike, their attacks summed): (attacks, P(hit),
        blow, target's Toughness, lines); () when no line has an attack; None when they strike
        differently. :meth:`_blows` sums several lines only on a birth chain of ``foe``: the
        callers, which read that chain anyway, check it. The lines' group is kept per target WS
        (:meth:`_alike`): O(1) when known."""
        target_ws, toughness = self._stats(foe)
        alike = self._alike(who, target_ws)
        if not alike:
            return alike
        attacks, p_hit, b, lines = alike
        return attacks, p_hit, b, toughness, lines

    def _alike(self, who: tuple, target_ws: int) -> tuple | None:
        """The lines striking (``who``) at a target of ``target_ws`` as one group: (their
        attacks summed, P(hit), blow, lines with an attack); () when none has an
        attack; None when they hit or strike differently. Memoised: O(lines) when new."""
        key = (who[4], target_ws)
        got = self._alike_of.get(key, _UNKNOWN)
        if got is _UNKNOWN:
            got = self._alike_of[key] = self._lines_group(who[0], who[1], target_ws)
        return got  # type: ignore[no-any-return]

    def _lines_group(self, counts: tuple[int, ...], choice: tuple[int, ...], target_ws: int) -> tuple | None:
        """:meth:`_alike` when new. O(lines)."""
        group: tuple = ()  # the lines' attacks summed, P(hit), blow, lines
        for j, n in enumerate(counts):
            if not n:
                continue
            b = self.options[j][choice[j]]
            attacks, any_attack = self._attack_counts(j, n, b.extra_attacks)
            if not any_attack:
                continue
            p_hit = self._p_hit(j, target_ws)
            if not group:
                group = (attacks, p_hit, b, 1)
            elif group[1] is p_hit and group[2] == b:
                group = (self._summed(group[0], attacks), p_hit, b, group[3] + 1)
            else:
                return None
        return group

    def _run_on_chain(self, whos: list[tuple], choice: Choice,
                      foe: UnitState) -> Table | None:
        """The blows of a run of steps (``whos``: who strikes at each,
        :meth:`_strikers`) when at each step the strikers make one group whose
        wounds thin along the same birth chain of ``foe``, the target's WS and
        Toughness the same at every state of it (:meth:`_steady`): then k1
        wounds and k2 after them reach the chain's state min(k1 + k2, last),
        and the run is the capped sum of the steps' binomials (the same states
        in the same order as the steps one after the other, the same
        probabilities; weights reduced). None otherwise. O(chain) when the
        sums are known, against O(chain^2) multiply-adds one step after the other."""
        states: tuple[UnitState, ...] | None = None
        wounds: Dist | None = None
        for who in whos:
            if who[3]:  # nobody strikes at this step
                continue
            group = None if any(who[2]) else self._one_group(who, foe)
            if group is None:
                return None
            if not group:
                continue
            attacks, p_hit, b, toughness, _ = group  # lines striking alike: on a birth chain, checked here
            _, _, thins, p, own = self._chance(b, toughness, p_hit)
            chain = self._chain_under(own, foe) if thins else None
            if chain is None or (states is not None and chain[0] != states) or not self._steady(chain[0]):
                return None
            states = chain[0]
            step = self._thinned_by(attacks, p, self._one(chain[1]))
            if self._capped.suffixes(step) is None:  # outcomes not 0, 1, 2... in order: the order may differ
                return None
            wounds = step if wounds is None else self._summed(wounds, step)
        if states is None or wounds is None:
            return None
        return on_chain(states, self._capped(wounds, len(states)))

    def _steady(self, states: tuple[UnitState, ...]) -> bool:
        """The target's majority WS and Toughness are the same at every state of
        a chain with a model in play. O(chain) once per chain."""
        got = self._steady_chains.get(id(states))
        if got is None or got[0] is not states:
            stats = {self._stats(st) for st in states if any(st.wounds)}
            got = self._steady_chains[id(states)] = (states, len(stats) <= 1)
        return got[1]

    def _birth_table(self, attacks: Dist, p: Fraction,
                     chain: tuple[tuple[UnitState, ...], Fraction]) -> Table:
        """Each wound (``attacks`` each at chance ``p``) kills the next model of
        the birth chain or is saved: k wounds take it to its state min(k,
        last), the weights those of the capped binomial (:class:`~.chain_tables.CappedWounds`). O(chain)."""
        states, p_kill = chain
        return on_chain(states, self._capped(self._thinned_by(attacks, p, self._one(p_kill)), len(states)))

    def _saved_table(self, attacks: Dist, p: Fraction, own: IndexedKernel,
                     foe: UnitState) -> Table | None:
        """Each wound is saved at one chance q, else moves the target on
        (:meth:`~.casualties.IndexedKernel.saved_chain`): u unsaved wounds
        reach E_min(u, last), mixed over the capped binomial of the unsaved
        wounds, as :meth:`_wounds` mixes them (the same pairs, order and
        reduced total). None without such a chain. O(unsaved wounds x states)
        multiply-adds, charged as that mixture is."""
        saved = own.saved_chain(foe)
        if saved is None:
            return None
        q, after = saved
        pairs, total = self._capped(self._thinned_by(attacks, p, self._one(q, True)), len(after))
        return mixed([(v, after[u]) for u, v in pairs], total)

    def _dist_table(self, d: Dist) -> Table:
        """A Dist of target states as a table. Kept per Dist (the chains keep theirs). O(1) when known."""
        got = self._by_dist.get(id(d))
        if got is None or got[0] is not d:
            got = self._by_dist[id(d)] = (d, (tuple(d.weights().items()), d.denominator))
        return got[1]

    def _one(self, p: Fraction, complement: bool = False) -> Fraction:
        """``p`` (``complement``: 1 - p) as one object per value, so that
        :meth:`_thinned_by` knows it. Kept per object given. O(1) when known."""
        known = self._kills.get((id(p), complement))
        if known is None or known[0] is not p:
            x = 1 - p if complement else p
            known = self._kills[id(p), complement] = (p, self._interned.setdefault(x, x))
        return known[1]

    def _chain_under(self, own: IndexedKernel, foe: UnitState) -> tuple[tuple[UnitState, ...], Fraction] | None:
        """The birth chain of ``foe`` under the wound kernel ``own``, or None; equal chains of
        different kernels as one tuple (a run's steps compare theirs). O(1) when known, O(chain)
        hashes when new."""
        key = (id(own), foe)  # the kernels are kept (:meth:`kernel`): their ids are theirs
        got = self._chain_of.get(key, _UNKNOWN)
        if got is _UNKNOWN:
            got = own.birth_chain(foe)
            if got is not None:
                got = (self._one_chain.setdefault(got[0], got[0]), got[1])
            self._chain_of[key] = got
        return got

    def _blows(self, counts: list[int], choice: Choice, foe: UnitState, hammers: list[int]) -> Dist:
        result = self._as_dist.get(foe)
        if result is None:
            result = self._as_dist[foe] = Dist.constant(foe)
        if not any(foe.wounds) or not (any(counts) or any(hammers)):
            return result
        target_ws, toughness = self._stats(foe)
        for j, n in enumerate(hammers):
            if n:  # Hammer of Wrath: n automatic hits at the profile's Strength, no AP
                s = self.attacks[j].strength
                result = self.kernel(s, None, False).run(successes(n, wound_target(s, toughness).chance()), result)
        pending: list = []  # lines striking alike, their attacks summed: (attacks, P(hit), blow)
        for j, n in enumerate(counts):
            if not n:
                continue
            b = self.options[j][choice[j]]
            attacks, any_attack = self._attack_counts(j, n, b.extra_attacks)
            if not any_attack:
                continue
            p_hit = self._p_hit(j, target_ws)
            if pending and pending[1] is p_hit and pending[2] == b and self._thins(result, b, toughness, p_hit):
                pending[0] = self._summed(pending[0], attacks)
                continue
            if pending:
                result = self._wounds(result, pending[0], pending[1], pending[2], toughness)
            pending = [attacks, p_hit, b]
        return self._wounds(result, pending[0], pending[1], pending[2], toughness) if pending else result

    def _stats(self, foe: UnitState) -> tuple[int, int]:
        """The target's majority WS and Toughness among its models in play. Memoised per state,
        per Wounds left and per models in play per line (what they read; the line when only one
        is in play): O(models) when new."""
        got = self._stats_of.get(foe)  # states keep their hash: O(1)
        if got is None:
            got = self._target_stats.get(foe.wounds)
            if got is None:
                alive = alive_per_line(self._target_line, len(self.target.models), foe.wounds)
                lines = [j for j, n in enumerate(alive) if n]
                key = ("line", lines[0]) if len(lines) == 1 else alive  # one line in play: its own, whatever its size
                got = self._line_stats.get(key)
                if got is None:
                    got = self._line_stats[key] = (majority_ws(self.target, foe), majority_toughness(self.target, foe))
                self._target_stats[foe.wounds] = got
            self._stats_of[foe] = got
        return got

    def _thins(self, result: Dist, b: Blow, toughness: int, p_hit: Fraction) -> bool:
        """The blow's wounds on ``result`` (one state) are a binomial thinning
        (:meth:`_wounds`): then lines striking alike may sum their attacks, the
        chain of k1 wounds then k2 being the chain of k1 + k2, and its states
        listed in the same order (fewest casualties first). O(1) when known."""
        if len(result.weights()) != 1:
            return False
        _, _, thins, _, own = self._chance(b, toughness, p_hit)
        return thins and own.birth_chain(next(iter(result.weights()))) is not None

    def _summed(self, first: Dist, second: Dist) -> Dist:
        """The attacks of two lines striking alike, summed. Memoised (the Attacks are kept, :meth:`_attack_counts`)."""
        key = (id(first), id(second))
        got = self._sums.get(key)
        if got is None or got[0] is not first or got[1] is not second:
            got = self._sums[key] = (first, second, first.combine(second, operator.add))
        return got[2]

    def _chance(self, b: Blow, toughness: int, p_hit: Fraction) -> tuple:
        """(P(wound), P(rending wound), whether the wounds thin, P(hit) x P(wound
        or rending), the wound kernel) of blow ``b`` at ``toughness``. Memoised
        on the blow and the chance to hit (both kept: options, :meth:`_p_hit`)."""
        key = (id(b), toughness, id(p_hit))
        got = self._chances.get(key)
        if got is None or got[5] is not b or got[6] is not p_hit:
            p_wound, p_rend = wound_chances(b, toughness)
            thins = not p_rend or not rending_changes_ap(b.rules, b.ap)
            got = self._chances[key] = (p_wound, p_rend, thins, p_hit * (p_wound + p_rend),
                                        self.kernel(b.strength, b.ap, b.concussive), b, p_hit)
        return got[:5]

    def _on_chain(self, wounds: Dist, states: tuple[UnitState, ...]) -> Dist:
        """``wounds`` (a Dist over 0, 1, 2...) as the states of a birth chain: k
        wounds reach ``states[min(k, last)]`` (:func:`~.chain_tables.on_chain`). O(chain)."""
        pairs, total = on_chain(states, self._capped(wounds, len(states)))
        return Dist._make(dict(pairs), total, reduce=False)

    def _thinned_by(self, attacks: Dist, p: Fraction, p_then: Fraction) -> Dist:
        """:meth:`_thinned` at ``p x p_then``, memoised on the three objects (kept
        by the memos they come from), so no fraction is multiplied or hashed
        when known. O(1) when known."""
        key = (id(attacks), id(p), id(p_then))
        got = self._thin_by.get(key)
        if got is None or got[0] is not attacks or got[1] is not p or got[2] is not p_then:
            got = self._thin_by[key] = (attacks, p, p_then, self._thinned(attacks, p * p_then))
        return got[3]

    def _thinned(self, attacks: Dist, p: Fraction) -> Dist:
        """Binomial(attacks, p), mixed over the attacks. O(attacks) (random
        Attacks: O(attacks^2)), memoised per (attacks, p): the same strikers
        at the same chance against targets of different sizes share it."""
        key = (attacks, p)
        got = self._binomials.get(key)
        if got is None:
            got = self._binomials[key] = attacks.then(partial(successes, p=p))
        return got

    def _wounds(self, result: Dist, attacks: Dist, p_hit: Fraction, b: Blow, toughness: int) -> Dist:
        """Hit then wound, each attack independent: Binomial(attacks, p_hit p_wound),
        O(attacks) (random Attacks: mixed over their total, O(attacks^2)); with
        Rending a trinomial (wounds, rending wounds), O(attacks^2), the rending
        wounds allocated after the others at AP2. Allocation O(attacks x target states)."""
        p_wound, p_rend, thins, p, own = self._chance(b, toughness, p_hit)
        if thins:
            if len(result.weights()) == 1:
                chain = own.birth_chain(next(iter(result.weights())))
                if chain is not None:  # each wound kills the next model or is saved: O(attacks)
                    states, p_kill = chain
                    return self._on_chain(self._thinned_by(attacks, p, self._one(p_kill)), states)
                saved = own.saved_chain(next(iter(result.weights())))
                if saved is not None:  # each wound is saved at one chance, else moves on: O(unsaved wounds)
                    q, after = saved
                    last = len(after) - 1
                    unsaved = self._thinned_by(attacks, p, self._one(q, True))
                    return unsaved.map(lambda u: min(u, last)).then(lambda u: Dist._make(
                        dict(after[u][0]), after[u][1], reduce=False))
            return own.run(self._thinned(attacks, p), result)
        die = Dist.from_probs({WOUND: p_hit * p_wound, RENDING: p_hit * p_rend,
                               FAIL: 1 - p_hit * (p_wound + p_rend)})
        # a category of chance 0 (no wound but on a rending 6, when the Strength is too low)
        # is not on the die: count the others, and give it 0 in every (wounds, rending, fails)
        order = [c for c in (WOUND, RENDING, FAIL) if c in die.weights()]

        def category_counts(n: int) -> Dist:
            return pool_counts(n, die, order).map(
                lambda c: tuple(dict(zip(order, c)).get(k, 0) for k in (WOUND, RENDING, FAIL)))

        counts = attacks.then(category_counts)
        ap2 = self.kernel(b.strength, RENDING_AP, b.concussive)

        def by_rending(r: int) -> Dist:
            normal = counts.condition(lambda c: c[1] == r).map(lambda c: c[0])
            return ap2.run(Dist.constant(r), own.run(normal, result))

        return counts.map(lambda c: c[1]).then(by_rending)
