"""An independent brute-force simulator of the 40K 6th edition rules, for tests.

It knows nothing of the engine: it plays the rules die by die, as a player
would, and enumerates every branch of the game tree with Fractions
(:func:`tree`). ``roll()`` asks for one raw d6 (6 branches);
``chance(k)`` is one d6 compared with a threshold, counting its k winning
faces out of 6 (2 branches, to keep the tree small). The rule tables are
written again here from docs/wh40k6.md, not imported. Small cases only.

The module's own tests check the enumerator itself.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from tests.brute import enumerate_rolls

# The 6th-edition to-hit table, written again: BS -> (first roll, reroll of 1s or None)
BS = {1: (6, None), 2: (5, None), 3: (4, None), 4: (3, None), 5: (2, None),
      6: (2, 6), 7: (2, 5), 8: (2, 4), 9: (2, 3), 10: (2, 2)}


class _Need(Exception):
    pass


def tree(process: Callable[[Callable[[], int], Callable[[int], bool]], Any]) -> dict[Any, Fraction]:
    """Distribution of ``process(roll, chance)`` over every branch of its dice.

    ``roll()`` returns a raw d6 face; ``chance(k)`` returns True with
    probability k/6 (one d6 against a threshold with k winning faces), and
    ``chance(k, 36)`` k/36 (2D6 with k winning pairs, counted by the caller). The
    process is replayed from the start with each prefix of choices.
    """
    out: Counter = Counter()
    stack: list[tuple[tuple[Any, ...], Fraction]] = [((), Fraction(1))]
    while stack:
        prefix, weight = stack.pop()
        it = iter(prefix)
        pending: list = []

        def roll() -> int:
            for face in it:
                return face
            pending.append("roll")
            raise _Need

        def chance(k: int, n: int = 6) -> bool:
            if k <= 0:
                return False
            if k >= n:
                return True
            for b in it:
                return b
            pending.append(("chance", k, n))
            raise _Need

        try:
            result = process(roll, chance)
        except _Need:
            kind = pending[0]
            if kind == "roll":
                stack.extend((prefix + (f,), weight / 6) for f in range(1, 7))
            else:
                _, k, n = kind
                stack.append((prefix + (True,), weight * Fraction(k, n)))
                stack.append((prefix + (False,), weight * Fraction(n - k, n)))
            continue
        out[result] += weight
    return {k: v for k, v in out.items() if v}


def wound_needed(s: int, t: int) -> int | None:
    """The 6th-edition S vs T chart, written again: None when impossible."""
    diff = s - t
    if diff >= 2:
        return 2
    return {1: 3, 0: 4, -1: 5, -2: 6, -3: 6}.get(diff)


def faces_at_least(x: int | None) -> int:
    """Winning faces of a d6 needing x+ (None: never)."""
    return 0 if x is None else max(0, min(6, 7 - x))


def sim_hit(roll: Callable[[], int], bs: int, snap: bool, reroll_failed: bool = False) -> bool:
    """One shot, raw dice: the BS table (or a granted reroll at the same score)."""
    first, again = BS[1 if snap else bs]
    face = roll()
    if face >= first:
        return True
    if reroll_failed:
        return roll() >= first
    if again is not None and face == 1:
        return roll() >= again
    return False


def sim_hits_master(roll: Callable[[], int], n: int, bs: int, snap: bool, k: int) -> int:
    """n shots, then up to k failed ones rerolled at the first roll's score."""
    first = BS[1 if snap else bs][0]
    faces = [roll() for _ in range(n)]
    hits = sum(f >= first for f in faces)
    misses = n - hits
    return hits + sum(roll() >= first for _ in range(min(k, misses)))


def best_save(m: dict, ap: int | None, cover_allowed: bool = True) -> int | None:
    """The lowest X+ among armour (unless ap <= armour), cover, invulnerable."""
    opts = []
    if m.get("save") is not None and not (ap is not None and ap <= m["save"]):
        opts.append(m["save"])
    if cover_allowed and m.get("cover") is not None:
        opts.append(m["cover"])
    if m.get("inv") is not None:
        opts.append(m["inv"])
    return min(opts) if opts else None


def sim_allocate(at_least: Callable[[int], bool], models: list[dict], left: list[int], wounds: int,
                 strength: int, ap: int | None, focus: int | str | None = None, cover_allowed: bool = True) -> int:
    """Allocate ``wounds`` one at a time; models are dicts (t, w, save, cover,
    inv, char, los: False/True/line name, line; optional fnp: Feel No Pain X,
    ew: Eternal Warrior). ``at_least(x)`` rolls one d6 needing x+: a Look Out
    Sir d6 when needed, then a save d6, then a Feel No Pain d6 when the wound
    is not an Instant Death. Focus Fire ``"none"``: only models without cover.
    Mutates ``left``; returns the wounds suffered (past saves and Feel No Pain)."""
    unsaved = 0
    for _ in range(wounds):
        alive = [i for i in range(len(models)) if left[i] > 0]
        if not alive:
            break
        ok = [i for i in alive if focus is None or models[i].get("cover") is None
              or (focus != "none" and models[i]["cover"] >= focus)]
        if not ok:
            break
        i = ok[0]
        m = models[i]
        if m.get("char") and m.get("los"):
            others = [j for j in alive if j != i]
            if others:
                named = [j for j in others if models[j]["line"] == m["los"]] if isinstance(m["los"], str) else []
                dest = (named or others)[0]
                if at_least(4):
                    i = dest
        sv = best_save(models[i], ap, cover_allowed)
        if sv is not None and at_least(sv):
            continue
        instant_death = strength >= 2 * models[i]["t"] and not models[i].get("ew")
        if models[i].get("fnp") and not instant_death and at_least(models[i]["fnp"]):
            continue
        unsaved += 1
        left[i] = 0 if instant_death else left[i] - 1
    return unsaved


def majority(values: list[int]) -> int:
    """Most common, highest on a tie."""
    c = Counter(values)
    top = max(c.values())
    return max(v for v in c if c[v] == top)


def sim_shoot(roll: Callable[[], int], chance: Callable[[int], bool], models: list[dict], shots: int, bs: int,
              snap: bool, strength: int, ap: int | None, focus: int | None) -> tuple:
    """A whole shooting attack: raw hit dice (BS table), then wound and save
    dice against thresholds. Returns (hits, wounds, unsaved, casualties, left)."""
    n_hits = sum(sim_hit(roll, bs, snap) for _ in range(shots))
    t = majority([m["t"] for m in models])
    n_wounds = sum(chance(faces_at_least(wound_needed(strength, t))) for _ in range(n_hits))
    left = [m["w"] for m in models]
    unsaved = sim_allocate(lambda x: chance(7 - x), models, left, n_wounds, strength, ap, focus)
    return n_hits, n_wounds, unsaved, sum(1 for w in left if w == 0), tuple(left)


def sim_hit_rules(chance: Callable[..., bool], bs: int, snap: bool, rules: set[str]) -> bool:
    """One shot with weapon rules, one die at a time as its classes of faces
    (hit; else a 1 or another miss). Twin-linked rerolls any miss at the first
    roll's score; Preferred Enemy rerolls a 1 at the first roll's score (the
    better of the two rerolls of a 1 at BS 6+); else the table's reroll of 1s.
    A die is rerolled once."""
    first, again = BS[1 if snap else bs]
    if chance(7 - first):             # faces first..6
        return True
    if "twin-linked" in rules:
        return chance(7 - first)
    if "preferred-enemy" in rules or again is not None:
        if chance(1, first - 1):       # the miss is a 1 (one face of first - 1)
            return chance(7 - first) if "preferred-enemy" in rules else chance(7 - again)
    return False


def sim_wound_rules(chance: Callable[..., bool], strength: int, t: int, rules: set[str],
                    poisoned: int | None) -> str:
    """One to-wound die with weapon rules, as its classes of faces: "rend" (a
    natural 6 of a rending or sniper weapon), "wound" or "fail". The chart, else
    4+ for a sniper; Poisoned X unless the chart needs less. Shred rerolls a
    failure, Preferred Enemy a 1; the reroll is final."""
    needed = wound_needed(strength, t)
    if "sniper" in rules:
        needed = 4
    if poisoned is not None:
        needed = poisoned if needed is None else min(needed, poisoned)
    auto_six = "rending" in rules or "sniper" in rules

    def judge() -> tuple[str, bool]:
        """(result, whether a failure was a 1)."""
        if auto_six and chance(1):
            return "rend", False
        faces = 5 if auto_six else 6          # the faces left: 1..faces
        wounding = 0 if needed is None else max(0, faces - needed + 1)
        if chance(wounding, faces):
            return "wound", False
        return "fail", chance(1, faces - wounding)

    got, one = judge()
    if got == "fail" and ("shred" in rules or ("preferred-enemy" in rules and one)):
        got, _ = judge()
    return got


def sim_random(roll: Callable[[], int], expr: tuple[int, int, int]) -> int:
    """(dice, sides, plus): a D3 is a d6 halved, rounded up."""
    dice, sides, plus = expr
    return sum(roll() if sides == 6 else (roll() + 1) // 2 for _ in range(dice)) + plus


def sim_shoot_rules(roll: Callable[[], int], chance: Callable[[int], bool], models: list[dict], shots: int, bs: int,
                    snap: bool, strength: int, ap: int | None, focus: int | str | None, rules: set[str],
                    poisoned: int | None = None, random_shots: tuple[int, int, int] | None = None) -> tuple:
    """A whole shooting attack with weapon rules, die by die: random shots per
    model, hit dice, wound dice against the majority Toughness of the models in
    play, then the weapon's own wounds allocated, then the rending ones at AP2
    (when AP2 is better than the weapon's AP). Returns (hits, wounds, unsaved,
    casualties, left)."""
    if poisoned is None and "poisoned" in rules:
        poisoned = 4
    n = shots if random_shots is None else sum(sim_random(roll, random_shots) for _ in range(shots))
    n_hits = sum(sim_hit_rules(chance, bs, snap, rules) for _ in range(n))
    left = [m.get("left", m["w"]) for m in models]
    t = majority([m["t"] for m, w in zip(models, left) if w > 0])
    kinds = [sim_wound_rules(chance, strength, t, rules, poisoned) for _ in range(n_hits)]
    rend_ap2 = ap is None or ap > 2
    normal = sum(k == "wound" or (k == "rend" and not rend_ap2) for k in kinds)
    rend = sum(k == "rend" and rend_ap2 for k in kinds)
    cover = "ignores-cover" not in rules
    before = sum(1 for w in left if w == 0)
    unsaved = sim_allocate(lambda x: chance(7 - x), models, left, normal, strength, ap, focus, cover)
    unsaved += sim_allocate(lambda x: chance(7 - x), models, left, rend, strength, 2, focus, cover)
    return n_hits, normal + rend, unsaved, sum(1 for w in left if w == 0) - before, tuple(left)


# The Vehicle Damage table, written again: D6 + modifiers (7+ explodes)
DAMAGE = {1: "crew shaken", 2: "crew shaken", 3: "crew shaken", 4: "crew stunned", 5: "weapon destroyed",
          6: "immobilised"}


def sim_vehicle(roll: Callable[[], int], chance: Callable[..., bool], shots: int, bs: int, strength: int,
                ap: int | None, armour: int, hull: int, rules: set[str], cover: int | None = None,
                open_topped: bool = False) -> tuple:
    """Shots at a vehicle, die by die: hit dice, then for each hit in turn a
    penetration d6 (+D3 on a 6 with Rending) + S against the armour (equal:
    glancing, higher: penetrating), a cover save, one Hull Point lost, and for a
    penetrating hit a damage d6 + 2 (AP1) / + 1 (AP2) / + 1 (open-topped).
    Returns (hull points left, statuses or fate)."""
    n_hits = sum(sim_hit_rules(chance, bs, False, rules) for _ in range(shots))
    statuses: set[str] = set()
    for _ in range(n_hits):
        face = roll()
        total = face + strength + ((roll() + 1) // 2 if face == 6 and rules & {"rending", "sniper"} else 0)
        if total < armour:
            continue
        if cover is not None and "ignores-cover" not in rules and chance(7 - cover):
            continue
        hull -= 1
        if total > armour:
            result = roll() + {1: 2, 2: 1}.get(ap or 0, 0) + (1 if open_topped else 0)
            if result >= 7:
                return 0, "explodes"
            statuses.add(DAMAGE[result])
        if hull == 0:
            return 0, "wrecked"
    return hull, tuple(sorted(statuses))


def sim_die_chance(chance: Callable[..., bool], expr: tuple[int, int, int]) -> int:
    """(dice, sides, plus) rolled with ``chance`` alone: each die is 1 with
    chance 1/sides, else 2 with 1/(sides - 1), and so on."""
    dice, sides, plus = expr
    total = plus
    for _ in range(dice):
        face = sides
        for f in range(1, sides):
            if chance(1, sides - f + 1):
                face = f
                break
        total += face
    return total


def ws_needed(a: int, t: int) -> int:
    """The WS table, written again from the issue: 5+ when the target's WS is
    more than twice the attacker's, 3+ when the attacker's is higher, else 4+."""
    if t > 2 * a:
        return 5
    return 3 if a > t else 4


def two_d6_pass_pairs(value: int) -> int:
    """Pairs of d6 out of 36 passing a morale test at ``value``: total <= value, or a double 1."""
    return sum(1 for x in range(1, 7) for y in range(1, 7) if x + y <= value or (x, y) == (1, 1))


def sim_fight(chance: Callable[..., bool], a: list[dict], d: list[dict], charged: bool) -> tuple:
    """A whole fight sub-phase die by die: Initiative 10 to 1, both sides'
    attacks at a step from the models alive at its start, then allocation;
    combat result; the loser's morale test. Model dicts may carry ``rules``:
    furious-charge (+1 S charging), rage (+2 A charging instead of +1),
    counter-attack (+1 A when charged), hatred (reroll failed hits after a
    charge), fearless (no test), stubborn (no negative modifier); and ``fnp``.
    Returns (attacker survivors, defender survivors, who falls back)."""
    left = {"a": [m["w"] for m in a], "d": [m["w"] for m in d]}
    unsaved = sim_blows(chance, a, d, charged, left)
    return sum(1 for w in left["a"] if w > 0), sum(1 for w in left["d"] if w > 0), \
        sim_loser_test(chance, a, d, left, unsaved)


def sim_blows(chance: Callable[..., bool], a: list[dict], d: list[dict], charged: bool,
              left: dict[str, list[int]]) -> dict[str, int]:
    """The blows of one round, Initiative 10 to 1, from the wounds ``left``
    (mutated); returns the unsaved wounds each side suffered."""
    units = {"a": a, "d": d}
    unsaved = {"a": 0, "d": 0}   # suffered
    for step in range(10, 0, -1):
        start = {k: list(v) for k, v in left.items()}
        pending = []
        for side, foe in (("a", "d"), ("d", "a")):
            foe_alive = [i for i, w in enumerate(start[foe]) if w > 0]
            if not foe_alive:
                continue
            t_ws = majority([units[foe][i]["ws"] for i in foe_alive])
            t_t = majority([units[foe][i]["t"] for i in foe_alive])
            lines: list[str] = []
            for m in units[side]:
                if m["line"] not in lines:
                    lines.append(m["line"])
            for line in lines:
                idx = [i for i, m in enumerate(units[side]) if m["line"] == line and start[side][i] > 0
                       and m["i"] == step]
                if not idx:
                    continue
                m = units[side][idx[0]]
                rules = m.get("rules", ())
                charging, was_charged = charged and side == "a", charged and side == "d"
                bonus = (2 if "rage" in rules else 1) if charging else (
                    1 if was_charged and "counter-attack" in rules else 0)
                s = min(10, m["s"] + 1) if charging and "furious-charge" in rules else m["s"]
                if isinstance(m["a"], tuple):   # random Attacks (dice, sides, plus): one roll per model
                    n_att = sum(sim_die_chance(chance, m["a"]) + bonus for _ in idx)
                else:
                    n_att = len(idx) * (m["a"] + bonus)
                wounds = 0
                for _ in range(n_att):
                    need = 7 - ws_needed(m["ws"], t_ws)
                    hit = chance(need) or ("hatred" in rules and charged and chance(need))
                    if hit and chance(faces_at_least(wound_needed(s, t_t))):
                        wounds += 1
                pending.append((foe, wounds, s, m["ap"]))
        for foe, wounds, s, ap in pending:
            unsaved[foe] += sim_allocate(lambda x: chance(7 - x), units[foe], left[foe], wounds, s, ap,
                                         cover_allowed=False)
    return unsaved


def sim_loser_test(chance: Callable[..., bool], a: list[dict], d: list[dict], left: dict[str, list[int]],
                   unsaved: dict[str, int]) -> str:
    """Combat result and the loser's morale test: who falls back ("none" if nobody)."""
    units = {"a": a, "d": d}
    surv = {k: sum(1 for w in v if w > 0) for k, v in left.items()}
    inflicted_a, inflicted_d = unsaved["d"], unsaved["a"]
    falls = "none"
    if inflicted_a != inflicted_d and surv["a"] and surv["d"]:
        loser = "d" if inflicted_a > inflicted_d else "a"
        alive = [units[loser][i] for i, w in enumerate(left[loser]) if w > 0]
        ld = max(m["ld"] for m in alive)
        rules = {r for m in alive for r in m.get("rules", ())}
        value = ld if "stubborn" in rules else ld - abs(inflicted_a - inflicted_d)
        if "fearless" not in rules and not chance(two_d6_pass_pairs(value), 36):
            falls = "attacker" if loser == "a" else "defender"
    return falls


def sim_fire(roll: Callable[[], int], chance: Callable[..., bool], models: list[dict], left: list[int],
             groups: list[dict], snap: bool = False) -> tuple:
    """Several weapon groups fire one after another at the same unit, die by
    die: each group (dict: shots, bs, s, ap, rules) is a whole shooting attack
    on the models as the previous groups left them (wounds against the
    majority Toughness of the models in play); a unit wiped out takes nothing
    more. ``left`` is mutated; returns it as a tuple."""
    for g in groups:
        if not any(w > 0 for w in left):
            break
        current = [dict(m, left=w) for m, w in zip(models, left)]
        after = sim_shoot_rules(roll, chance, current, g["shots"], g["bs"], snap, g["s"], g["ap"], None,
                                set(g.get("rules", ())))[4]
        left[:] = after
    return tuple(left)


def charge_pairs(distance: int) -> int:
    """Pairs of d6 out of 36 whose total reaches ``distance``."""
    return sum(1 for x in range(1, 7) for y in range(1, 7) if x + y >= distance)


def caught_pairs(winner_i: int, loser_i: int) -> int:
    """Pairs (winner's d6, loser's d6) out of 36 with d6 + the winner's Initiative >= d6 + the loser's."""
    return sum(1 for x in range(1, 7) for y in range(1, 7) if x + winner_i >= y + loser_i)


def sim_assault(chance: Callable[..., bool], roll: Callable[[], int], a: list[dict], d: list[dict], distance: int,
                rounds: int, overwatch: list[dict]) -> tuple:
    """The whole assault, die by die: Overwatch (each defender model with a
    weapon fires it as snap shots at BS 1, group by group, casualties on the
    charger closest first), the 2D6 charge roll, then rounds of blows (the
    charger +1 Attack in the first only), the combat result and the loser's
    morale test; a loser that fails is caught by the sweeping advance when
    the winner's D6 + lowest Initiative in play is at least the loser's, else
    it falls back. Further rounds while both are locked and in play.
    ``overwatch``: the defender's weapon groups, shots per model.
    Returns (attacker wounds left, defender wounds left, attacker status, defender status)."""
    left = {"a": [m["w"] for m in a], "d": [m["w"] for m in d]}
    status = {"a": "", "d": ""}
    firing = sum(1 for m in d if m.get("gun"))
    groups = [dict(g, shots=g["shots"] * firing, bs=1) for g in overwatch if firing]
    sim_fire(roll, chance, a, left["a"], groups, snap=True)
    if not any(w > 0 for w in left["a"]):
        return tuple(left["a"]), tuple(left["d"]), "", ""
    if not chance(charge_pairs(distance), 36):
        return tuple(left["a"]), tuple(left["d"]), "charge failed", ""
    status = {"a": "locked", "d": "locked"}
    units = {"a": a, "d": d}
    for r in range(rounds):
        unsaved = sim_blows(chance, a, d, r == 0, left)
        falls = sim_loser_test(chance, a, d, left, unsaved)
        if not all(any(w > 0 for w in left[k]) for k in "ad"):
            status = {"a": "", "d": ""}
            break
        if falls != "none":
            loser = "a" if falls == "attacker" else "d"
            winner = "d" if loser == "a" else "a"
            lowest = {k: min(units[k][i]["i"] for i, w in enumerate(left[k]) if w > 0) for k in "ad"}
            status = {winner: ""}
            if chance(caught_pairs(lowest[winner], lowest[loser]), 36):
                left[loser] = [0] * len(left[loser])
                status[loser] = "swept"
            else:
                status[loser] = "falling back"
            break
    return tuple(left["a"]), tuple(left["d"]), status["a"], status["d"]


# ------------------------------------------------------------ self-checks
def test_tree_reproduces_two_d6() -> None:
    got = tree(lambda roll, chance: roll() + roll() >= 8)
    assert got[True] == Fraction(5, 12)
    assert got == enumerate_rolls(2, lambda r: r[0] + r[1] >= 8)


def test_tree_chance_branches() -> None:
    got = tree(lambda roll, chance: chance(4) + chance(2))
    assert got == {2: Fraction(8, 36), 1: Fraction(20, 36), 0: Fraction(8, 36)}


def test_simulated_bs_table_matches_the_published_chances() -> None:
    published = {6: Fraction(31, 36), 7: Fraction(8, 9), 8: Fraction(11, 12), 9: Fraction(17, 18), 10: Fraction(35, 36)}
    for bs, p in published.items():
        assert tree(lambda roll, chance, bs=bs: sim_hit(roll, bs, False))[True] == p


def test_simulated_twin_linked_and_feel_no_pain_identities() -> None:
    assert tree(lambda roll, chance: sim_hit_rules(chance, 3, False, {"twin-linked"}))[True] == Fraction(3, 4)
    assert tree(lambda roll, chance: sim_hit_rules(chance, 4, False, {"twin-linked"}))[True] == Fraction(8, 9)
    for bs in range(6, 11):  # no rule: the table's own reroll of 1s
        assert tree(lambda roll, chance, bs=bs: sim_hit_rules(chance, bs, False, set()))[True] == \
            tree(lambda roll, chance, bs=bs: sim_hit(roll, bs, False))[True]
    fnp = [dict(t=4, w=1, fnp=5)]

    def one_wound(roll, chance):  # noqa: ANN001, ANN202
        return sim_allocate(lambda x: chance(7 - x), fnp, [1], 1, 4, None)
    assert tree(one_wound)[1] == Fraction(2, 3)
