"""Removing casualties in Warhammer 40,000 6th edition: who takes each wound.

Allocate each wound to the target model closest to the firing unit; keep
allocating unsaved wounds to the closest model until no wound is left or the
unit is gone. Original, "Retirez les pertes": "Allouez une blessure à la figurine de
l'unité ciblée la plus proche de l'unité qui tire. Continuez d'allouer les
blessures non sauvegardées à la figurine la plus proche jusqu'à ce qu'il ne
reste plus de blessures à allouer, ou que toutes les figurines de l'unité
ciblée aient été retirées comme pertes."

The sequential machinery (one wound at a time: recipient, save, damage) is
the shared :mod:`exactodds.rules.allocation`; this module supplies what is
40K's own: the recipient function (closest first, Focus Fire, Look Out Sir),
each model's save against the attack, and Instant Death.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from ...core import Dist, InputError, Kernel, iterate
from ...dice import Target
from ..allocation import AllocModel, Damage, Numbering, Recipient, UnitState, cleared, closest_in_play, wound_kernel
from ...core.checks import whole_number
from ..common import best_save, majority
from .chain_tables import Table, mixed
from .units import Melee, Model, Unit, require_type
from ...core.checks import is_whole

LOOK_OUT_SIR_ROLL = Target.at_least(4)
"""Look Out, Sir: on a 4+ the wound moves to another model of the owner's
choice, of the same unit and within 6". Original, "Attention, Chef": "Sur un 4+, la tentative réussit. La blessure est
résolue contre une autre figurine de votre choix, appartenant à la même unité
et dans un rayon de 6 ps"."""

FOCUS_FIRE_NONE = "none"
"""Focus Fire on the models with no cover save at all."""

FOCUS_FIRE_VALUES = range(2, 7)
"""Focus Fire: the firer picks a cover save value from 2+ to 6+. Original,
"Tir Sélectif": "choisissez une valeur de sauvegarde de couvert,
comprise entre 2+ et 6+"."""


def alloc_models(unit: Unit, ap: int | None, cover_allowed: bool = True,
                 strength: int | None = None) -> list[AllocModel]:
    """Each model's single best save against a weapon of ``ap`` (one save
    per wound, the best available of armour (ignored when weapon AP <= armour
    value), cover and invulnerable). No cover in close combat or against a
    weapon that ignores cover (``cover_allowed=False``).

    With the weapon's ``strength`` given, a model with Feel No Pain (X+) takes
    its roll after a failed save (the allocation's mitigation test), except
    against a wound that inflicts Instant Death on it. Without a strength,
    Feel No Pain is left out. O(models).
    """
    require_type(unit, Unit, "the target unit")
    if ap is not None:
        whole_number(ap, "AP", 1, 6)
    if strength is not None:
        whole_number(strength, "Strength", 1, 10)
    out = []
    for m in unit.models:  # one per line, repeated for its models: O(lines + models)
        fnp = Target.fail()
        if strength is not None and m.feel_no_pain is not None and not causes_instant_death(m, strength):
            fnp = Target.at_least(m.feel_no_pain)
        out += [AllocModel(m.wounds, best_save(m.save, ap, m.cover if cover_allowed else None, m.invulnerable),
                           fnp)] * m.count
    return out


def causes_instant_death(model: Model, strength: int) -> bool:
    """Instant Death: Strength at least double the model's Toughness, unless the
    model is an Eternal Warrior. O(1)."""
    return strength >= 2 * model.toughness and not model.eternal_warrior


def instant_death_damage(unit: Unit, strength: int) -> list[int]:
    """Wounds removed by one unsaved wound, per model: all of them when the
    Strength is at least double the model's own Toughness (Instant Death,
    6th edition; an Eternal Warrior is immune), else 1."""
    require_type(unit, Unit, "the target unit")
    whole_number(strength, "Strength", 1, 10)
    return [m.wounds if causes_instant_death(m, strength) else 1 for m in unit.expanded()]


def start_state(unit: Unit) -> UnitState:
    """The unit before the attack: each model's wounds left (``wounds_left`` for a
    model already wounded, else its Wounds). O(models)."""
    require_type(unit, Unit, "the target unit")
    return UnitState(tuple(m.wounds if m.wounds_left is None else m.wounds_left for m in unit.expanded()))


def majority_toughness(unit: Unit, state: UnitState | None = None) -> int:
    """The Toughness wound rolls are made against: the majority among the
    models in play (all of them when ``state`` is None), highest on a tie."""
    return majority([m.toughness for m in _in_play(unit, state)])


def majority_ws(unit: Unit, state: UnitState | None = None) -> int:
    """The WS close-combat hit rolls are made against: the majority among the
    models in play, highest on a tie. Every model needs a melee profile."""
    return majority([_melee(m).ws for m in _in_play(unit, state)])


def _in_play(unit: Unit, state: UnitState | None) -> list[Model]:
    """The models of ``unit`` in play in ``state`` (all of them when None)."""
    require_type(unit, Unit, "the unit")
    models = unit.expanded()
    if state is None:
        return models
    require_type(state, UnitState, "the unit state")
    if len(state.wounds) != len(models):
        raise InputError(f"the unit state has {len(state.wounds)} models, the unit {len(models)}")
    return [models[i] for i in state.alive()]


def _melee(m: Model) -> Melee:
    if m.melee is None:
        raise InputError(f"{m.name}: has no close-combat profile (ws, initiative, attacks, strength, leadership)")
    return m.melee


def check_focus_fire(value: int | str | None) -> int | str | None:
    """``value`` if it is a Focus Fire cover value 2 to 6, ``"none"`` (only
    models with no cover save), or None (no Focus Fire)."""
    if value is None or value == FOCUS_FIRE_NONE:
        return value
    if not is_whole(value) or value not in FOCUS_FIRE_VALUES:
        raise InputError(f"focus fire {value!r} is not allowed: declare a cover value from 2 (2+) to 6 (6+), "
                         "or none (models with no cover save)")
    return value


def recipient(unit: Unit, focus_fire: int | str | None = None, look_out_sir: bool = True) -> Recipient:
    """The 40K recipient of the next wound: ``state -> Dist`` over model indices.

    1. Closest first: the first model in play, in file order, that Focus
       Fire allows ("Les blessures causées ne peuvent être allouées qu'aux
       figurines bénéficiant d'une sauvegarde de couvert égale ou supérieure
       (moins bonne) à la valeur annoncée, ou d'aucune sauvegarde de
       couvert"); None when no such model is left (the wound is lost).
    2. Look Out, Sir: if that model is a character with ``look_out_sir``
       and another model is in play, a 4+ moves the wound to the other
       model (the named line's closest model in play, else the closest other
       model in play), with no further attempt ("Un seul attention, Chef !
       peut être tenté pour chaque blessure allouée"). Focus Fire does not
       limit where the wound goes ("même si cette figurine se trouve hors de
       portée ou hors de vue").

    Per state: O(models).
    """
    require_type(unit, Unit, "the target unit")
    models = unit.expanded()
    focus_fire = check_focus_fire(focus_fire)
    eligible = [focus_fire is None or m.cover is None
                or (isinstance(focus_fire, int) and m.cover >= focus_fire) for m in models]
    line = unit.line_of()
    names = [m.name for m in unit.models]
    preferred: list[int | None] = [
        names.index(m.look_out_sir) if isinstance(m.look_out_sir, str) else None for m in models]
    p_moved = LOOK_OUT_SIR_ROLL.chance()

    def other_model(wounds: Sequence[int], i: int) -> int | None:
        want = preferred[i]
        fallback = None
        for j, w in enumerate(wounds):
            if w > 0 and j != i:
                if want is None or line[j] == want:
                    return j
                if fallback is None:
                    fallback = j
        return fallback

    def attempt(state: UnitState, first: int | None) -> Dist:
        if first is None or not (look_out_sir and models[first].look_out_sir):
            return Dist.constant(first)
        other = other_model(state.wounds, first)
        if other is None:
            return Dist.constant(first)
        return Dist.bernoulli(p_moved, success=other, failure=first)

    def choose(state: UnitState) -> Dist:
        return attempt(state, closest_in_play(state, eligible.__getitem__))  # closest first, then Look Out, Sir

    return choose


class IndexedKernel:
    """A kernel on unit states run on small integer ids instead.

    The wound kernel does not change from one wound to the next, so it is
    computed once per distinct state (S kernel calls over N wounds, not
    N x S), and the chain of :func:`~exactodds.core.iterate` merges integer
    ids (cheap to hash) rather than :class:`UnitState` objects. The same
    ids serve every call of :meth:`run`, so a fight reuses them step after
    step.
    """

    def __init__(self, kernel: Kernel) -> None:
        self._kernel = kernel
        numbering: Numbering[UnitState] = Numbering()
        self._id = numbering.number
        self._states = numbering.values
        self._memo: dict[int, Dist] = {}
        self._chains: dict[Dist, list[Dist]] = {}
        self._births: dict[UnitState, tuple[tuple[UnitState, ...], Fraction | None] | None] = {}
        self._shifted: dict[tuple[int, int], tuple[tuple[UnitState, ...], tuple[UnitState, ...]]] = {}
        self._saved: dict[int, tuple[Fraction, list[Table]] | None] = {}
        self._moved: dict[int, tuple[int, int, Table | None]] = {}
        self._chances: dict[Fraction, Fraction] = {}
        self._paths: dict[UnitState, tuple[list[UnitState], int] | None] = {}

    def _interned(self, num: int, den: int) -> Fraction:
        """The chance ``num / den`` as one object per value, so that the chains of
        different states share theirs (callers memoise on it by identity). O(1)."""
        p = Fraction(num, den)
        return self._chances.setdefault(p, p)

    def _step(self, i: int) -> Dist:
        d = self._memo.get(i)
        if d is None:
            d = self._memo[i] = self._kernel(self._states[i]).map(self._id)
        return d

    def run(self, count: Dist, start: UnitState | Dist) -> Dist:
        """The states after ``count`` applications from ``start`` (Dist over
        counts; O(max count x distinct states) merges). The chain of states
        after 0, 1, 2... applications from one start (a state or a Dist) is
        kept for the next call from an equal start (e.g. the same target
        struck again by fewer models), which then costs only the mixture over
        ``count``, O(max count x distinct states)."""
        begin = start.map(self._id) if isinstance(start, Dist) else Dist.constant(self._id(start))
        chain = self._chains.setdefault(begin, [])
        return iterate(count, self._step, begin, chain).map(self._states.__getitem__)

    def saved_chain(self, start: UnitState) -> tuple[Fraction, list[Table]] | None:
        """When every application either leaves the state as it is with the same
        chance q from every state reachable from ``start`` (the wound is saved)
        or moves it (an unsaved wound): (q, [E_0, E_1, ...]), E_u the states
        after u moves (unsaved wounds) as a table (states, reduced integer
        weights, in the order ``Dist.then`` lists them), up to the first E_u
        with no move left (every model removed); else None. After k
        applications the state is then E_min(u, last) with u ~ Binomial(k,
        1 - q): one binomial over the unsaved wounds, not the chain over every
        wound. O(reachable states) kernel calls (memoised, as each state's
        moves are) and O(unsaved wounds x states) integer multiply-adds, once
        per start."""
        i0 = self._id(start)
        if i0 in self._saved:
            return self._saved[i0]
        self._saved[i0] = None
        moves: dict[UnitState, Table | None] = {}
        q: tuple[int, int] | None = None  # (stays, total) of the first state that moves
        frontier = [i0]
        while frontier:
            i = frontier.pop()
            if self._states[i] in moves:
                continue
            stay, total, moved = self._moves(i)
            moves[self._states[i]] = moved
            if moved is None:  # absorbing: no model left to take the wound
                continue
            if q is None:
                q = (stay, total)
            elif stay * q[1] != q[0] * total:
                return None
            frontier.extend(self._id(s) for s, _ in moved[0] if s not in moves)
        chain: list[Table] = [(((start, 1),), 1)]
        while any(moves[s] is not None for s, _ in chain[-1][0]):
            chain.append(mixed([(w, moves[s] or (((s, 1),), 1)) for s, w in chain[-1][0]], chain[-1][1]))
        got = self._saved[i0] = (self._interned(*q) if q else self._interned(0, 1), chain)
        return got

    def _moves(self, i: int) -> tuple[int, int, Table | None]:
        """One application from state ``i``: the weight of staying, the total, and
        the other states reached as a reduced table; None when it only stays.
        Memoised per state: O(1) when known."""
        got = self._moved.get(i)
        if got is None:
            d = self._step(i)
            w = d.weights()
            stay = w.pop(i, 0)
            moved = Dist.from_weights({self._states[j]: v for j, v in w.items()}) if w else None
            got = self._moved[i] = (stay, d.denominator,
                                    None if moved is None else (tuple(moved.weights().items()), moved.denominator))
        return got

    def certain_path(self, start: UnitState) -> tuple[list[UnitState], int] | None:
        """When from ``start`` (its counter at 0) every application moves the state
        to one next state, counting one unsaved wound, until a state it leaves
        as it is (no model left to take the wound): (the states of that path,
        counters at 0, and ``start``'s position in it); else None (a save, a
        Feel No Pain roll, Look Out, Sir: the wound branches). After k
        applications the state is then path[min(position + k, last)], its
        counter cleared. The path is shared by the states on it (one list, each
        with its position): O(1) memoised, O(m) kernel calls the first time for
        a path of m states.

        The same states, in the same order, as :meth:`birth_chain` at p = 1,
        but kept apart for what the shooting reads: its counters cleared (a
        birth chain's count 0, 1, 2...; clearing them would build m states
        per start), one list shared by every start on it (a birth chain is one
        tuple per start, O(m^2) states over a path), and an absorbing start
        is a path of one, not a chain at p = 0."""
        walked: list[UnitState] = []
        state = start
        while state not in self._paths:
            d = self._kernel(state)  # once per state: its path is kept
            nxt = next(iter(d.weights())) if len(d) == 1 else None
            if nxt == state:  # absorbing
                self._paths[state] = ([state], 0)
                break
            if nxt is None or nxt.unsaved != state.unsaved + 1 or nxt.marked != state.marked:
                self._paths[state] = None
                break
            walked.append(state)
            state = UnitState(nxt.wounds, 0, nxt.marked)
        rest = self._paths[state]
        if walked:
            got = None if rest is None else (walked + rest[0][rest[1]:], 0)
            for i, s in enumerate(walked):
                self._paths[s] = None if got is None else (got[0], i)
        return self._paths[start]

    def birth_chain(self, start: UnitState) -> tuple[tuple[UnitState, ...], Fraction] | None:
        """The states s_0 = ``start``, s_1, ... s_m and the chance p when, from
        each s_j (j < m), one application reaches s_(j+1) with chance p and
        stays at s_j otherwise, the same p at every step, and s_m stays; else
        None. After k applications the state is then s_min(m, Binomial(k, p)):
        a unit whose models in play each fall to one unsaved wound, closest
        first, at the same save.

        The kernels here are wound kernels, which never read a state's
        unsaved-wound counter and add 1 to it per unsaved wound: the chain is
        found from states without their counter (the next state's chain with
        one state in front, its counters raised by 1), and the chain from a
        counter of c is that chain with every counter raised by c. O(m) kernel
        calls (memoised) once per state without its counter, not once per
        (state, counter); O(m) states built per (chain, counter)."""
        chain = self._free_chain(cleared(start))
        if chain is None or not start.unsaved:
            return chain
        key = (id(chain[0]), start.unsaved)
        got = self._shifted.get(key)
        if got is None or got[0] is not chain[0]:
            u = start.unsaved
            got = self._shifted[key] = (chain[0],
                                        tuple([UnitState(s.wounds, s.unsaved + u, s.marked) for s in chain[0]]))
        return got[1], chain[1]

    def _free_chain(self, start: UnitState) -> tuple[tuple[UnitState, ...], Fraction] | None:
        """:meth:`birth_chain` from ``start``, its counter at 0. Memoised per state."""
        walked: list[tuple[UnitState, Fraction]] = []
        state = start
        while state not in self._births:
            d = self._step(self._id(state))
            after = {self._states[i]: v for i, v in d.weights().items()}
            if after.keys() == {state}:  # absorbing: no model left to take the wound
                self._births[state] = ((state,), None)
                break
            nxt = [s for s in after if s != state]
            if len(nxt) != 1 or nxt[0].unsaved != 1:  # branches, or a kernel that counts no wound
                self._births[state] = None
                break
            walked.append((state, self._interned(after[nxt[0]], d.denominator)))
            state = cleared(nxt[0])
        for s, p in reversed(walked):
            rest = self._births[state]
            ok = rest is not None and rest[1] in (None, p)
            shifted = [UnitState(r.wounds, r.unsaved + 1, r.marked) for r in rest[0]] if ok else []  # type: ignore[index]
            self._births[s] = ((s, *shifted), p) if ok else None
            state = s
        got = self._births[start]
        return None if got is None else (got[0], self._interned(0, 1) if got[1] is None else got[1])


def allocate_wounds(wounds: Dist, models: Sequence[AllocModel], choose: Recipient, damage: Damage,
                    start: UnitState | Dist) -> Dist:
    """The shared sequential allocation (:func:`~exactodds.rules.allocation.allocate`,
    unsaved wounds counted), the wound kernel computed once per state and
    the chain run on state ids (:class:`IndexedKernel`).

    O(max wounds x distinct states) integer merges + O(distinct states) kernel calls.
    """
    return allocation_kernel(models, choose, damage).run(wounds, start)


def allocation_kernel(models: Sequence[AllocModel], choose: Recipient, damage: Damage) -> IndexedKernel:
    """One wound (recipient, save, damage; unsaved wounds counted), as an :class:`IndexedKernel`."""
    return IndexedKernel(wound_kernel(models, choose, damage, track_unsaved=True))
