"""An independent brute-force simulator of the 40K 6th edition rules, for tests.

It knows nothing of the engine: it plays the rules die by die, as a player
would, and enumerates every branch of the game tree with Fractions
(:func:`tree`). ``roll()`` asks for one raw d6 (6 branches);
``chance(k)`` is one d6 compared with a threshold, counting its k winning
faces out of 6 (2 branches, to keep the tree small). The rule tables are
written again here from docs/wh40k6.md, not imported. The tree replays every
branch, so it is for small cases only (a few models and dice: 2-3 models in
all for the whole assault).

:class:`DieByDie` plays the same rules for the close combat, Overwatch, the
charge and several weapon groups one raw d6 at a time too (each face a
branch), as processes on hashable states, memoised per state: a partial
state reached by different rolls is explored once. Its close combat knows
the close-combat weapons (the weapon each line fights with, chosen at the
start of every round as :func:`sim_profile` reads the docs; two weapons,
Specialist Weapon, Unwieldy, the lance on the charge, rending, shred,
poisoned, sniper, Instant Death and Eternal Warrior from the final
Strength), Hammer of Wrath, Furious Charge, charging through difficult
terrain (assault grenades), Concussive into the next round and And They
Shall Know No Fear against the sweeping advance. It covers 2-4 models a
side, 1-3 weapons and 1-3 rounds of combat in a fraction of a second a case;
it is checked against :func:`tree` on the small cases (tests/test_wh40k6_exchange.py,
tests/test_wh40k6_melee_brute.py).

The module's own tests check the enumerators themselves.
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
                open_topped: bool = False, half: bool = False) -> tuple:
    """Shots at a vehicle, die by die: hit dice, then for each hit in turn a
    penetration d6 (+D3 on a 6 with Rending) + S against the armour (equal:
    glancing, higher: penetrating), a cover save, one Hull Point lost, and for a
    penetrating hit a damage d6 + 2 (AP1) / + 1 (AP2) / + 1 (open-topped).
    Melta within half range (``half``) and Armourbane roll a second
    penetration d6; Lance reads an armour above 12 as 12.
    Returns (hull points left, statuses or fate)."""
    n_hits = sum(sim_hit_rules(chance, bs, False, rules) for _ in range(shots))
    statuses: set[str] = set()
    if "lance" in rules and armour > 12:
        armour = 12
    two_dice = "armourbane" in rules or ("melta" in rules and half)
    for _ in range(n_hits):
        face = roll()
        if two_dice:
            face += roll()
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


def sim_fleet_p_reach(distance: int, dice: int, keep: str) -> Fraction:
    """P(a Fleet charge reaches ``distance``), by brute force: every ordered first
    roll of ``dice`` d6 (the distance: all added, or the two ``"highest"`` /
    ``"lowest"``); one short of it tries every set of die positions to reroll
    (each reroll enumerated face by face) and keeps the best chance."""
    from itertools import product

    def distance_of(faces: tuple[int, ...]) -> int:
        ordered = sorted(faces)
        return sum(ordered) if keep == "all" else sum(ordered[-2:] if keep == "highest" else ordered[:2])

    total = Fraction(0)
    for first in product(range(1, 7), repeat=dice):
        if distance_of(first) >= distance:
            total += Fraction(1, 6 ** dice)
            continue
        best = Fraction(0)
        for mask in product((False, True), repeat=dice):
            k = sum(mask)
            reach = 0
            for new in product(range(1, 7), repeat=k):
                it = iter(new)
                faces = tuple(next(it) if m else f for f, m in zip(first, mask))
                reach += distance_of(faces) >= distance
            best = max(best, Fraction(reach, 6 ** k))
        total += best / 6 ** dice
    return total


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


def sim_fight(chance: Callable[..., bool], a: list[dict], d: list[dict], charged: bool, terrain: bool = False) -> tuple:
    """A whole fight sub-phase die by die: Initiative 10 to 1, both sides'
    attacks at a step from the models alive at its start, then allocation;
    combat result; the loser's morale test. Model dicts may carry ``rules``:
    furious-charge (+1 S charging), rage (+2 A charging instead of +1),
    counter-attack (+1 A when charged), hatred (reroll failed hits after a
    charge), fearless (no test), stubborn (no negative modifier),
    hammer-of-wrath; ``fnp``; close-combat weapons (see :func:`sim_profile`)
    and ``grenades`` (assault grenades). ``terrain``: the attacker charged
    through difficult terrain. Returns (attacker survivors, defender
    survivors, who falls back)."""
    left = {"a": [m["w"] for m in a], "d": [m["w"] for m in d]}
    unsaved = sim_blows(chance, a, d, charged, left, terrain)
    return sum(1 for w in left["a"] if w > 0), sum(1 for w in left["d"] if w > 0), \
        sim_loser_test(chance, a, d, left, unsaved)


def sim_strength(mod: int | str, user: int) -> int:
    """A close-combat weapon's Strength on a wielder of Strength ``user``, at most 10."""
    if isinstance(mod, int):
        return min(10, mod)
    return min(10, {"user": user, "+1": user + 1, "+2": user + 2, "x2": 2 * user}[mod])


def exact(process: Callable[[Callable[..., bool]], Any]) -> dict[Any, Fraction]:
    """The exact distribution of a process that uses chance() only."""
    return tree(lambda roll, chance: process(chance))


def sim_pass_through(m: dict, ap: int | None, s: int) -> Fraction:
    """P(a wound on model ``m`` gets past its save and Feel No Pain) (no cover in close combat)."""
    sv = best_save(m, ap, cover_allowed=False)
    p = Fraction(1) if sv is None else Fraction(sv - 1, 6)
    instant_death = s >= 2 * m["t"] and not m.get("ew")
    if m.get("fnp") and not instant_death:
        p *= Fraction(m["fnp"] - 1, 6)
    return p


def mean_attacks(attacks: int | tuple[int, int, int]) -> Fraction:
    """The mean of a model's Attacks: a number, or (dice, sides, plus) (a D3: mean 2)."""
    if isinstance(attacks, int):
        return Fraction(attacks)
    dice, sides, plus = attacks
    return Fraction(dice * (sides + 1), 2) + plus


def sim_profile(m: dict, charging: bool, slowed: bool, bonus: int, p_hit: Fraction, t: int,
                first: dict) -> dict:
    """How a line strikes this round: i, s, ap, wound rules, poisoned, attacks
    added, concussive. ``m["melee"]``: its weapons (dicts: name, s ("user",
    "+1", "+2", "x2" or a number), ap, rules, optional cs/cap (Strength and AP
    when charging), poisoned); ``m["uses"]``: the one it fights with, else the
    one with most expected unsaved wounds on ``first`` (the closest target
    model), the first in order on a tie. Multiplications before Furious Charge."""
    rules = m.get("rules", ())
    furious = 1 if charging and "furious-charge" in rules else 0
    weapons = m.get("melee") or []
    if not weapons:
        return dict(i=1 if slowed else m["i"], s=min(10, m["s"] + furious), ap=m["ap"], rules=set(), poisoned=None,
                    extra=0, conc=False)
    names: list[str] = []
    for w in weapons:
        if w["name"] not in names:
            names.append(w["name"])
    if m.get("uses"):
        names = [m["uses"]]
    best, best_value = None, Fraction(-1)
    for n in names:
        w = next(x for x in weapons if x["name"] == n)
        mod = w["cs"] if charging and w.get("cs") is not None else w["s"]
        s = sim_strength(mod, m["s"]) + (furious if isinstance(mod, str) else 0)
        s = min(10, s)
        ap = w["cap"] if charging and w.get("cap") is not None else w.get("ap")
        wr = set(w.get("rules", ()))
        specialist = "specialist-weapon" in wr
        extra = 1 if len(weapons) >= 2 and (not specialist or
                                            sum("specialist-weapon" in x.get("rules", ()) for x in weapons) >= 2) else 0
        prof = dict(i=1 if slowed or "unwieldy" in wr else m["i"], s=s, ap=ap, rules=wr & {"rending", "shred", "sniper"},
                    poisoned=w.get("poisoned"), extra=extra, conc="concussive" in wr)
        die = exact(lambda chance: sim_melee_wound(chance, prof, t))
        value = (mean_attacks(m["a"]) + bonus + extra) * p_hit * (die.get("wound", 0) * sim_pass_through(first, ap, s)
                                                    + die.get("rend", 0) * sim_pass_through(first, 2, s))
        if value > best_value:
            best, best_value = prof, value
    assert best is not None
    return best


def sim_melee_wound(chance: Callable[..., bool], prof: dict, t: int) -> str:
    """One close-combat to-wound die: the shooting rules, and Poisoned rerolls a
    failure when the blow's Strength is higher than the Toughness."""
    rules = set(prof["rules"])
    if prof["poisoned"] is not None and prof["s"] > t:
        rules.add("shred")
    return sim_wound_rules(chance, prof["s"], t, rules, prof["poisoned"])


def sim_round_profiles(units: dict[str, list[dict]], lines: dict[str, list[str]], left: dict[str, list[int]],
                       charged: bool, terrain: bool) -> dict[tuple[str, str], dict]:
    """Each line's :func:`sim_profile` at the start of a round, with its Attack bonus
    (charge, Rage, Counter-attack) as ``bonus``."""
    profiles = {}
    for side, foe in (("a", "d"), ("d", "a")):
        foe_alive = [i for i, w in enumerate(left[foe]) if w > 0]
        for line in lines[side]:
            m = next(x for x in units[side] if x["line"] == line)
            rules = m.get("rules", ())
            charging, was_charged = charged and side == "a", charged and side == "d"
            bonus = (2 if "rage" in rules else 1) if charging else (
                1 if was_charged and "counter-attack" in rules else 0)
            p_hit = Fraction(0)
            t_t = 4
            if foe_alive:
                t_ws = majority([units[foe][i]["ws"] for i in foe_alive])
                t_t = majority([units[foe][i]["t"] for i in foe_alive])
                p = Fraction(7 - ws_needed(m["ws"], t_ws), 6)
                p_hit = p + (1 - p) * p if "hatred" in rules and charged else p
            first = units[foe][foe_alive[0]] if foe_alive else units[foe][0]
            slowed = charging and terrain and not m.get("grenades")
            profiles[side, line] = dict(sim_profile(m, charging, slowed, bonus, p_hit, t_t, first), bonus=bonus)
    return profiles


def sim_line_attacks(chance: Callable[..., bool], m: dict, models: int, prof: dict, charged: bool, t_ws: int,
                     t_t: int) -> tuple[int, int]:
    """The attacks of ``models`` models of one line, die by die: (wounds, rending wounds at AP2)."""
    rules = m.get("rules", ())
    bonus = prof["bonus"] + prof["extra"]
    if isinstance(m["a"], tuple):   # random Attacks (dice, sides, plus): one roll per model
        n_att = sum(sim_die_chance(chance, m["a"]) + bonus for _ in range(models))
    else:
        n_att = models * (m["a"] + bonus)
    wounds = rends = 0
    for _ in range(n_att):
        need = 7 - ws_needed(m["ws"], t_ws)
        hit = chance(need) or ("hatred" in rules and charged and chance(need))
        if not hit:
            continue
        if prof["rules"] or prof["poisoned"] is not None:
            got = sim_melee_wound(chance, prof, t_t)
            if got == "rend" and (prof["ap"] is None or prof["ap"] > 2):
                rends += 1
            elif got != "fail":
                wounds += 1
        elif chance(faces_at_least(wound_needed(prof["s"], t_t))):
            wounds += 1
    return wounds, rends


def sim_hammer_of_wrath(chance: Callable[..., bool], models: list[dict], lines: list[str], left: list[int],
                        foe: str, t: int) -> list[tuple]:
    """Hammer of Wrath, per line: one automatic hit per model in play with the rule, at
    its unmodified Strength, no AP; each hit's wound die. Pending allocations."""
    out = []
    for line in lines:
        hw = [i for i, m in enumerate(models) if m["line"] == line and left[i] > 0
              and "hammer-of-wrath" in m.get("rules", ())]
        if hw:
            s = models[hw[0]]["s"]
            out.append((foe, sum(chance(faces_at_least(wound_needed(s, t))) for _ in hw), s, None, False))
    return out


def sim_blows(chance: Callable[..., bool], a: list[dict], d: list[dict], charged: bool,
              left: dict[str, list[int]], terrain: bool = False,
              concussed: dict[str, set[int]] | None = None) -> dict[str, int]:
    """The blows of one round, Initiative 10 to 1, from the wounds ``left``
    (mutated); returns the unsaved wounds each side suffered. Weapons are
    chosen at the start of the round; Hammer of Wrath hits (charging, at
    Initiative 10, unmodified Strength, no AP) are allocated before that
    step's blows; rending wounds after the others at AP2. ``concussed`` (in:
    models concussed in the previous round; out: those concussed in this one):
    a concussed model that has not struck yet strikes at Initiative 1."""
    units = {"a": a, "d": d}
    unsaved = {"a": 0, "d": 0}   # suffered
    slow = concussed or {"a": set(), "d": set()}
    now: dict[str, set[int]] = {"a": set(), "d": set()}
    struck: dict[str, set[int]] = {"a": set(), "d": set()}
    lines = {k: list(dict.fromkeys(m["line"] for m in units[k])) for k in "ad"}
    profiles = sim_round_profiles(units, lines, left, charged, terrain)
    for step in range(10, 0, -1):
        start = {k: list(v) for k, v in left.items()}
        pending = []
        for side, foe in (("a", "d"), ("d", "a")):
            foe_alive = [i for i, w in enumerate(start[foe]) if w > 0]
            if not foe_alive:
                continue
            t_ws = majority([units[foe][i]["ws"] for i in foe_alive])
            t_t = majority([units[foe][i]["t"] for i in foe_alive])
            if step == 10 and charged and side == "a":
                pending.extend(sim_hammer_of_wrath(chance, units[side], lines[side], start[side], foe, t_t))
            for line in lines[side]:
                prof = profiles[side, line]
                idx = [i for i, m in enumerate(units[side]) if m["line"] == line and start[side][i] > 0
                       and i not in struck[side]
                       and (1 if (i in slow[side] or i in now[side]) else prof["i"]) == step]
                if not idx:
                    continue
                struck[side].update(idx)
                wounds, rends = sim_line_attacks(chance, units[side][idx[0]], len(idx), prof, charged, t_ws, t_t)
                pending.append((foe, wounds, prof["s"], prof["ap"], prof["conc"]))
                if rends:
                    pending.append((foe, rends, prof["s"], 2, prof["conc"]))
        for foe, wounds, s, ap, conc in pending:
            before = list(left[foe])
            unsaved[foe] += sim_allocate(lambda x: chance(7 - x), units[foe], left[foe], wounds, s, ap,
                                         cover_allowed=False)
            if conc:
                now[foe].update(i for i, (x, y) in enumerate(zip(before, left[foe])) if 0 < y < x)
    if concussed is not None:
        for k in "ad":
            concussed[k] = {i for i in now[k] if left[k][i] > 0}
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


def terrain_charge_triples(distance: int) -> int:
    """Triples of d6 out of 216 whose two lowest reach ``distance`` (difficult terrain)."""
    return sum(1 for x in range(1, 7) for y in range(1, 7) for z in range(1, 7)
               if x + y + z - max(x, y, z) >= distance)


def sim_assault(chance: Callable[..., bool], roll: Callable[[], int], a: list[dict], d: list[dict], distance: int,
                rounds: int, overwatch: list[dict], terrain: bool = False) -> tuple:
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
    made = chance(terrain_charge_triples(distance), 216) if terrain else chance(charge_pairs(distance), 36)
    if not made:
        return tuple(left["a"]), tuple(left["d"]), "charge failed", ""
    status = {"a": "locked", "d": "locked"}
    units = {"a": a, "d": d}
    concussed: dict[str, set[int]] = {"a": set(), "d": set()}
    for r in range(rounds):
        unsaved = sim_blows(chance, a, d, r == 0, left, terrain and r == 0, concussed)
        falls = sim_loser_test(chance, a, d, left, unsaved)
        if not all(any(w > 0 for w in left[k]) for k in "ad"):
            status = {"a": "", "d": ""}
            break
        if falls != "none":
            loser = "a" if falls == "attacker" else "d"
            winner = "d" if loser == "a" else "a"
            lowest = {k: min(units[k][i]["i"] for i, w in enumerate(left[k]) if w > 0) for k in "ad"}
            status = {winner: ""}
            fearless = any("and-they-shall-know-no-fear" in units[loser][i].get("rules", ())
                           for i, w in enumerate(left[loser]) if w > 0)
            if chance(caught_pairs(lowest[winner], lowest[loser]), 36):
                if fearless:   # not destroyed: still locked, the combat goes on
                    status = {"a": "locked", "d": "locked"}
                    continue
                left[loser] = [0] * len(left[loser])
                status[loser] = "swept"
            else:
                status[loser] = "falling back"
            break
    return tuple(left["a"]), tuple(left["d"]), status["a"], status["d"]


# ------------------------------------------------------------ the memoised die-by-die engine
# The same rules, played one d6 at a time, for cases too large for tree():
# each process below is a hashable state and an ``advance(state)`` giving the
# next states with their weights (one d6: its six faces, 1/6 each; a step
# with no die: one state of weight 1), or Done(result) when it is over.
# explore() follows every branch and memoises, per state, the distribution of
# its results, so the sub-tree of a state reached by different rolls is
# explored once; bind() chains processes, equal states merged. Every die is
# still rolled on its own, with its six faces; nothing is taken from the engine.

SIXTH = Fraction(1, 6)


class Done:
    """The end of a process, with its result."""

    __slots__ = ("result",)

    def __init__(self, result: Any) -> None:
        self.result = result


def d6_faces(to: Callable[[int], Any]) -> list[tuple[Fraction, Any]]:
    """One d6 rolled: each face 1/6, the state ``to(face)`` after it."""
    return [(SIXTH, to(face)) for face in range(1, 7)]


def explore(start: Any, advance: Callable[[Any], Any], memo: dict) -> dict[Any, Fraction]:
    """The distribution of the results of the process ``advance`` from ``start``
    (memo: state -> distribution, shared by the calls of one process)."""
    def go(s: Any) -> dict[Any, Fraction]:
        got = memo.get(s)
        if got is None:
            step = advance(s)
            if isinstance(step, Done):
                got = {step.result: Fraction(1)}
            else:
                acc: Counter = Counter()
                for w, t in step:
                    for result, p in go(t).items():
                        acc[result] += w * p
                got = dict(acc)
            memo[s] = got
        return got
    return go(start)


def bind(dist: dict[Any, Fraction], then: Callable[[Any], dict[Any, Fraction]]) -> dict[Any, Fraction]:
    """Each state of ``dist`` continued by ``then``, equal results merged."""
    out: Counter = Counter()
    for s, p in dist.items():
        for t, q in then(s).items():
            out[t] += p * q
    return {k: v for k, v in out.items() if v}


def project(dist: dict[Any, Fraction], f: Callable[[Any], Any]) -> dict[Any, Fraction]:
    """The distribution of ``f(state)``, equal results merged."""
    out: Counter = Counter()
    for s, p in dist.items():
        out[f(s)] += p
    return dict(out)


class DieByDie:
    """Two units ``a`` (the charger, or the firer's target alone) and ``d``
    (model dicts as for :func:`sim_allocate`, with the close-combat keys of
    :func:`sim_fight`), played die by die with memoised processes. A unit's
    state is its tuple of wounds left per model. Small cases: 2-4 models a
    side, a few weapons, a round or two."""

    def __init__(self, a: list[dict], d: list[dict] | None = None) -> None:
        self.units = {"a": a, "d": d or []}
        self.memo: dict[Any, dict] = {}

    def run(self, name: Any, start: Any, advance: Callable[[Any], Any]) -> dict[Any, Fraction]:
        return explore(start, advance, self.memo.setdefault(name, {}))

    def cached(self, key: Any, make: Callable[[], dict[Any, Fraction]]) -> dict[Any, Fraction]:
        got = self.memo.setdefault("composite", {}).get(key)
        if got is None:
            got = self.memo["composite"][key] = make()
        return got

    # ---------------------------------------------------------------- dice
    def dice(self, n: int) -> dict[tuple[int, ...], Fraction]:
        """n d6 rolled one after another: the faces in order."""
        def advance(faces: tuple[int, ...]) -> Any:
            return Done(faces) if len(faces) == n else d6_faces(lambda f: faces + (f,))
        return self.run(("dice", n), (), advance)

    def two_d6(self, passes: Callable[[int, int], bool]) -> dict[bool, Fraction]:
        return project(self.dice(2), lambda faces: passes(*faces))

    # ---------------------------------------------------------------- shooting
    def shot_hits(self, n: int, bs: int, snap: bool, rules: frozenset) -> dict[int, Fraction]:
        """Hits of n shots: a hit die each; a miss rerolled once (Twin-linked:
        any miss at the first roll's score; a 1 with Preferred Enemy at the
        first roll's score, else with the BS table's reroll of 1s)."""
        first, again = BS[1 if snap else bs]

        def advance(s: tuple) -> Any:
            hits, to_roll, pending = s
            if pending is not None:
                return d6_faces(lambda f: (hits + (f >= pending), to_roll, None))
            if not to_roll:
                return Done(hits)

            def after(f: int) -> tuple:
                if f >= first:
                    return hits + 1, to_roll - 1, None
                if "twin-linked" in rules:
                    return hits, to_roll - 1, first
                if f == 1 and "preferred-enemy" in rules:
                    return hits, to_roll - 1, first
                if f == 1 and again is not None:
                    return hits, to_roll - 1, again
                return hits, to_roll - 1, None
            return d6_faces(after)
        return self.run(("hits", bs, snap, rules), (0, n, None), advance)

    def wound_rolls(self, n: int, strength: int, t: int, rules: frozenset,
                    poisoned: int | None) -> dict[tuple[int, int], Fraction]:
        """(wounds, rending wounds) of n hits, a wound die each: a natural 6
        rends with Rending or Sniper; else the chart (Sniper 4+; Poisoned X
        unless the chart needs less); Shred rerolls a failure, Preferred Enemy a 1."""
        needed = 4 if "sniper" in rules else wound_needed(strength, t)
        if poisoned is not None:
            needed = poisoned if needed is None else min(needed, poisoned)
        auto_six = bool(rules & {"rending", "sniper"})

        def advance(s: tuple) -> Any:
            normal, rend, to_roll, rerolling = s
            if not to_roll:
                return Done((normal, rend))

            def after(f: int) -> tuple:
                if auto_six and f == 6:
                    return normal, rend + 1, to_roll - 1, False
                if needed is not None and f >= needed:
                    return normal + 1, rend, to_roll - 1, False
                if not rerolling and ("shred" in rules or ("preferred-enemy" in rules and f == 1)):
                    return normal, rend, to_roll, True     # the same hit, rolled again
                return normal, rend, to_roll - 1, False
            return d6_faces(after)
        return self.run(("wounds", needed, auto_six, rules), (0, 0, n, False), advance)

    def allocate(self, side: str, left: tuple[int, ...], wounds: int, strength: int, ap: int | None,
                 cover_allowed: bool) -> dict[tuple[tuple[int, ...], int], Fraction]:
        """(wounds left, unsaved) after ``wounds`` allocated one at a time to the
        closest model in play: a Look Out, Sir die (4+), a save die, a Feel
        No Pain die unless the wound is an Instant Death."""
        models = self.units[side]

        def advance(s: tuple) -> Any:
            left, to_go, unsaved, stage, i = s
            if stage == "next":
                alive = [j for j, w in enumerate(left) if w > 0]
                if not to_go or not alive:
                    return Done((left, unsaved))
                i, m = alive[0], models[alive[0]]
                others = alive[1:]
                if m.get("char") and m.get("los") and others:
                    named = [j for j in others if models[j]["line"] == m["los"]] if isinstance(m["los"], str) else []
                    dest = (named or others)[0]
                    return d6_faces(lambda f: (left, to_go, unsaved, "save", dest if f >= 4 else i))
                return [(1, (left, to_go, unsaved, "save", i))]
            m = models[i]
            if stage == "save":
                sv = best_save(m, ap, cover_allowed)
                if sv is None:
                    return [(1, (left, to_go, unsaved, "fnp", i))]
                return d6_faces(lambda f: (left, to_go - 1, unsaved, "next", None) if f >= sv
                                else (left, to_go, unsaved, "fnp", i))
            instant_death = strength >= 2 * m["t"] and not m.get("ew")
            hurt = left[:i] + ((0 if instant_death else left[i] - 1),) + left[i + 1:]
            if stage == "fnp" and m.get("fnp") and not instant_death:
                return d6_faces(lambda f: (left, to_go - 1, unsaved, "next", None) if f >= m["fnp"]
                                else (hurt, to_go - 1, unsaved + 1, "next", None))
            return [(1, (hurt, to_go - 1, unsaved + 1, "next", None))]
        return self.run(("allocate", side, strength, ap, cover_allowed), (left, wounds, 0, "next", None), advance)

    def fire_group(self, side: str, left: tuple[int, ...], g: dict, snap: bool) -> dict[tuple[int, ...], Fraction]:
        """One weapon group (shots in all, bs, s, ap, rules, poisoned) fired at
        ``side``: hits, wounds against the majority Toughness of its models in
        play, the weapon's wounds allocated, then the rending ones at AP2 (when
        better than the weapon's AP); a unit wiped out is left as it is."""
        models = self.units[side]
        if not any(left) or not g["shots"]:
            return {left: Fraction(1)}
        rules = frozenset(g.get("rules", ()))
        t = majority([m["t"] for m, w in zip(models, left) if w > 0])
        s, ap = g["s"], g["ap"]
        rend_ap2 = ap is None or ap > 2
        cover = "ignores-cover" not in rules
        poisoned = g.get("poisoned", 4 if "poisoned" in rules else None)

        def make() -> dict:
            def wounded(h: int) -> dict:
                return self.wound_rolls(h, s, t, rules, poisoned)

            def allocated(k: tuple[int, int]) -> dict:
                normal, rend = (k[0], k[1]) if rend_ap2 else (k[0] + k[1], 0)
                first = project(self.allocate(side, left, normal, s, ap, cover), lambda r: r[0])
                return bind(first, lambda w: project(self.allocate(side, w, rend, s, 2, cover), lambda r: r[0]))
            return bind(bind(self.shot_hits(g["shots"], g["bs"], snap, rules), wounded), allocated)
        return self.cached(("group", side, left, g["shots"], g["bs"], snap, s, ap, rules, poisoned), make)

    def fire(self, side: str, left: tuple[int, ...], groups: list[dict], snap: bool = False
             ) -> dict[tuple[int, ...], Fraction]:
        """Weapon groups one after another at ``side``, from ``left``."""
        dist = {left: Fraction(1)}
        for g in groups:
            dist = bind(dist, lambda w, g=g: self.fire_group(side, w, g, snap))
        return dist

    # ---------------------------------------------------------------- close combat
    def attack_count(self, n: int, attacks: int | tuple[int, int, int], bonus: int) -> dict[int, Fraction]:
        """The Attacks of n models: a number each, or (dice, sides, plus) rolled
        per model (a D3 is a d6 halved, rounded up); each with ``bonus`` more."""
        if not isinstance(attacks, tuple):
            return {n * (attacks + bonus): Fraction(1)}
        dice, sides, plus = attacks

        def advance(s: tuple) -> Any:
            to_roll, total = s
            if not to_roll:
                return Done(total)
            return d6_faces(lambda f: (to_roll - 1, total + (f if sides == 6 else (f + 1) // 2)))
        return self.run(("attacks", sides), (n * dice, n * (plus + bonus)), advance)

    def melee_hits(self, n: int, hit: int, hatred: bool) -> dict[int, Fraction]:
        """Hits of n attacks: a hit die each (``hit``+); Hatred rerolls a miss once."""
        def advance(s: tuple) -> Any:
            to_go, hits, again = s
            if not to_go:
                return Done(hits)

            def after(f: int) -> tuple:
                if f >= hit:
                    return to_go - 1, hits + 1, False
                if hatred and not again:
                    return to_go, hits, True      # the same attack, rolled again
                return to_go - 1, hits, False
            return d6_faces(after)
        return self.run(("melee hits", hit, hatred), (n, 0, False), advance)

    def dice_at_least(self, n: int, x: int | None) -> dict[int, Fraction]:
        """How many of n d6 roll ``x`` or more (None: none can)."""
        def advance(s: tuple) -> Any:
            to_go, got = s
            if not to_go:
                return Done(got)
            return d6_faces(lambda f: (to_go - 1, got + (x is not None and f >= x)))
        return self.run(("at least", x), (n, 0), advance)

    def profiles(self, la: tuple, ld: tuple, first: bool, terrain: bool) -> dict[tuple[str, str], dict]:
        """Each line's close-combat profile for a round starting from (a left, d
        left) (:func:`sim_round_profiles`: the weapon it fights with, its
        Initiative, Strength, AP, wound rules, Attacks added)."""
        key = ("profiles", la, ld, first, terrain)
        got = self.memo.setdefault("profiles", {}).get(key)
        if got is None:
            lines = {k: list(dict.fromkeys(m["line"] for m in self.units[k])) for k in "ad"}
            got = sim_round_profiles(self.units, lines, {"a": list(la), "d": list(ld)}, first, terrain)
            self.memo["profiles"][key] = got
        return got

    def line_wounds(self, m: dict, n: int, prof: dict, first: bool, t_ws: int, t_t: int
                    ) -> dict[tuple[int, int], Fraction]:
        """(wounds, rending wounds at AP2) of the n models of one line: Attacks,
        hit dice, then wound dice with the weapon's rules (Poisoned in close
        combat also rerolls a failure when its Strength beats the Toughness)."""
        hatred = first and "hatred" in m.get("rules", ())
        rules = frozenset(prof["rules"])
        if prof["poisoned"] is not None:
            rules |= {"poisoned"}
            if prof["s"] > t_t:
                rules |= {"shred"}
        rend_ap2 = prof["ap"] is None or prof["ap"] > 2

        def wounded(h: int) -> dict:
            return project(self.wound_rolls(h, prof["s"], t_t, rules, prof["poisoned"]),
                           lambda k: k if rend_ap2 else (k[0] + k[1], 0))
        hits = bind(self.attack_count(n, m["a"], prof["bonus"] + prof["extra"]),
                    lambda k: self.melee_hits(k, ws_needed(m["ws"], t_ws), hatred))
        return bind(hits, wounded)

    def hammer_wounds(self, n: int, s: int, t: int) -> dict[tuple[int, int], Fraction]:
        """Hammer of Wrath: n automatic hits at Strength s, a wound die each."""
        return project(self.dice_at_least(n, wound_needed(s, t)), lambda k: (k, 0))

    def blow_step(self, core: tuple, step: int, first: bool, terrain: bool, start: tuple) -> dict[tuple, Fraction]:
        """One Initiative step from ``core`` = (a left, d left, a's unsaved, d's
        unsaved, slow a, slow d, late a, late d, concussed a, concussed d):
        both sides' models that strike at ``step`` (their line's profile for
        the round begun at ``start``; Initiative 1 when slow, concussed in the
        previous round, or late, concussed in this one before striking), in
        play at its start, strike line by line; Hammer of Wrath hits first at
        Initiative 10 on the charge. Then each line's wounds allocated in turn,
        its rending ones after at AP2; a Concussive blow's unsaved wound on a
        model that survives concusses it."""
        left = {"a": core[0], "d": core[1]}
        slow = {"a": core[4] | core[6], "d": core[5] | core[7]}
        profs = self.profiles(*start, first, terrain)
        strikes = []
        for side, foe in (("a", "d"), ("d", "a")):
            models, foes = self.units[side], self.units[foe]
            foe_alive = [i for i, w in enumerate(left[foe]) if w > 0]
            if not foe_alive:
                continue
            t_ws = majority([foes[i]["ws"] for i in foe_alive])
            t_t = majority([foes[i]["t"] for i in foe_alive])
            lines = list(dict.fromkeys(m["line"] for m in models))
            if step == 10 and first and side == "a":
                for line in lines:
                    hw = [i for i, m in enumerate(models) if m["line"] == line and left[side][i] > 0
                          and "hammer-of-wrath" in m.get("rules", ())]
                    if hw:
                        s = models[hw[0]]["s"]
                        strikes.append((foe, self.hammer_wounds(len(hw), s, t_t), s, None, False))
            for line in lines:
                prof = profs[side, line]
                idx = [i for i, m in enumerate(models) if m["line"] == line and left[side][i] > 0
                       and (1 if i in slow[side] else prof["i"]) == step]
                if idx:
                    wounds = self.line_wounds(models[idx[0]], len(idx), prof, first, t_ws, t_t)
                    strikes.append((foe, wounds, prof["s"], prof["ap"], prof["conc"]))
        dist = {core: Fraction(1)}
        for foe, wounds, s, ap, conc in strikes:
            dist = bind(dist, lambda c, foe=foe, wounds=wounds, s=s, ap=ap, conc=conc: self.take(
                c, foe, wounds, s, ap, conc, step, profs))
        return dist

    def take(self, c: tuple, foe: str, wounds: dict, s: int, ap: int | None, conc: bool, step: int,
             profs: dict) -> dict[tuple, Fraction]:
        """``foe`` takes one line's (wounds, rending wounds) from ``c``: the
        wounds allocated, then the rending ones at AP2, each marking the models
        a Concussive blow wounds and leaves in play (late too when their line
        strikes after ``step``)."""
        k = 0 if foe == "a" else 1
        out: Counter = Counter()
        for (n, rend), p in wounds.items():
            first = self.allocate(foe, c[k], n, s, ap, False)
            both = bind(first, lambda r: project(self.allocate(foe, r[0], rend, s, 2, False),
                                                 lambda q, u=r[1]: (q[0], u + q[1])))
            for (after, unsaved), q in both.items():
                c2 = list(c)
                c2[k], c2[k + 2] = after, c[k + 2] + unsaved
                if conc:
                    hurt = {i for i, (x, y) in enumerate(zip(c[k], after)) if 0 < y < x}
                    models = self.units[foe]
                    late = {i for i in hurt if profs[foe, models[i]["line"]]["i"] < step}
                    c2[k + 6] = c[k + 6] | frozenset(late)
                    c2[k + 8] = c[k + 8] | frozenset(hurt)
                out[tuple(c2)] += p * q
        return dict(out)

    def blows(self, la: tuple, ld: tuple, first: bool, terrain: bool = False,
              slow: tuple[frozenset, frozenset] = (frozenset(), frozenset())) -> dict[tuple, Fraction]:
        """A round's blows, Initiative 10 to 1, ``slow``: each side's models
        concussed in the previous round. Returns (a left, d left, a's unsaved,
        d's unsaved, a concussed, d concussed), the concussed ones in play."""
        def make() -> dict:
            none = frozenset()
            dist = {(la, ld, 0, 0, *slow, none, none, none, none): Fraction(1)}
            for step in range(10, 0, -1):
                dist = bind(dist, lambda c, step=step: self.cached(
                    ("step", c, step, first, terrain, la, ld),
                    lambda: self.blow_step(c, step, first, terrain, (la, ld))))
            return project(dist, lambda c: c[:4] + tuple(frozenset(i for i in c[k] if c[k - 8][i] > 0)
                                                          for k in (8, 9)))
        return self.cached(("blows", la, ld, first, terrain, slow), make)

    def lowest_i(self, side: str, left: tuple) -> int:
        return min(self.units[side][i]["i"] for i, w in enumerate(left) if w > 0)

    def falls_back(self, core: tuple) -> dict[str, Fraction]:
        """The combat result and the loser's morale test after the blows of
        ``core``: "a" or "d" (the side that fails and falls back) or "" (a
        draw, a unit destroyed, a test passed). The loser (fewer unsaved wounds
        inflicted) rolls 2D6, one die then the other, against its highest
        Leadership in play minus the difference (Stubborn: no minus; Fearless:
        no test); a double 1 passes."""
        la, ld, ua, ud = core[:4]
        if not any(la) or not any(ld) or ua == ud:
            return {"": Fraction(1)}
        loser = "d" if ud > ua else "a"
        alive = [m for m, w in zip(self.units[loser], la if loser == "a" else ld) if w > 0]
        rules = {r for m in alive for r in m.get("rules", ())}
        if "fearless" in rules:
            return {"": Fraction(1)}
        best = max(m["ld"] for m in alive)
        value = best if "stubborn" in rules else best - abs(ua - ud)
        holds = self.two_d6(lambda x, y: x + y <= value or x == y == 1)
        return {("" if passed else loser): p for passed, p in holds.items()}

    def round_end(self, core: tuple) -> dict[tuple, Fraction]:
        """After the blows: (a left, d left, a status, d status, a concussed, d
        concussed). A unit destroyed ends the combat; a loser that fails its
        test falls back, and is caught when the winner's D6 + lowest Initiative
        in play is at least its own D6 + lowest Initiative in play: destroyed,
        or, with a model in play with And They Shall Know No Fear, still
        locked with all its models."""
        la, ld = core[:2]
        conc = core[4:6]
        if not any(la) or not any(ld):
            return {(la, ld, "", "", *conc): Fraction(1)}
        out: Counter = Counter()
        for loser, p in self.falls_back(core).items():
            if not loser:
                out[(la, ld, "locked", "locked", *conc)] += p
                continue
            winner = "d" if loser == "a" else "a"
            lleft, wleft = (la, ld) if loser == "a" else (ld, la)
            wi, li = self.lowest_i(winner, wleft), self.lowest_i(loser, lleft)
            no_fear = any("and-they-shall-know-no-fear" in m.get("rules", ())
                          for m, w in zip(self.units[loser], lleft) if w > 0)
            for caught, q in self.two_d6(lambda x, y: x + wi >= y + li).items():  # x: the winner's d6
                if caught and no_fear:
                    out[(la, ld, "locked", "locked", *conc)] += p * q
                    continue
                status = "swept" if caught else "falling back"
                gone = tuple(0 for _ in lleft) if caught else lleft
                out[(gone, ld, status, "", *conc) if loser == "a" else (la, gone, "", status, *conc)] += p * q
        return dict(out)

    def fight(self, charged: bool, terrain: bool = False) -> dict[tuple, Fraction]:
        """One fight of the full units, as :func:`sim_fight`: (a survivors, d
        survivors, who falls back: "attacker", "defender" or "none");
        ``terrain``: the attacker charged through difficult terrain."""
        full = tuple(m["w"] for m in self.units["a"]), tuple(m["w"] for m in self.units["d"])
        names = {"a": "attacker", "d": "defender", "": "none"}
        return bind(self.blows(*full, charged, terrain), lambda c: {
            (sum(1 for w in c[0] if w), sum(1 for w in c[1] if w), names[who]): p
            for who, p in self.falls_back(c).items()})

    def fight_rounds(self, dist: dict[tuple, Fraction], rounds: int, charged: bool,
                     terrain: bool = False) -> dict[tuple, Fraction]:
        """Up to ``rounds`` rounds of combat for each state (a left, d left, a
        status, d status) of ``dist`` while both are locked (``charged``: the
        first round follows the charge, through difficult terrain with
        ``terrain``); models concussed in a round strike at Initiative 1 in the next."""
        none = frozenset()
        dist = {s + (none, none): p for s, p in dist.items()}
        for r in range(rounds):
            def one(s: tuple, first: bool = charged and r == 0) -> dict:
                if s[2:4] != ("locked", "locked"):
                    return {s: Fraction(1)}
                return self.cached(("round", s, first, terrain), lambda: bind(
                    self.blows(s[0], s[1], first, terrain and first, s[4:6]), self.round_end))
            dist = bind(dist, one)
        return project(dist, lambda s: s[:4])

    def assault(self, distance: int, rounds: int, overwatch: list[dict], terrain: bool = False
                ) -> dict[tuple, Fraction]:
        """The whole assault of ``a`` on ``d``, as :func:`sim_assault`:
        Overwatch (each group's dict: models, shots per model, s, ap, rules,
        optional range in inches: out of range it does not fire, a Rapid Fire
        weapon fires twice within half of it), the charge roll (2D6, one die
        after the other; through difficult terrain, ``terrain``: 3D6, the
        highest discarded), then the rounds. Returns the distribution of (a's
        wounds left, d's wounds left, a's status, d's status)."""
        groups = []
        for g in overwatch:
            rng = g.get("range")
            if rng is not None and distance > rng:
                continue
            twice = "rapid-fire" in g.get("rules", ()) and rng is not None and 2 * distance <= rng
            groups.append(dict(g, shots=g["models"] * g["shots"] * (2 if twice else 1), bs=1))
        la0 = tuple(m["w"] for m in self.units["a"])
        ld0 = tuple(m["w"] for m in self.units["d"])
        dist = {(la, ld0, "", ""): p for la, p in self.fire("a", la0, groups, snap=True).items()}
        if terrain:
            reach = project(self.dice(3), lambda f: sum(f) - max(f) >= distance)
        else:
            reach = self.two_d6(lambda x, y: x + y >= distance)

        def charge(s: tuple) -> dict:
            if not any(s[0]):     # wiped out by Overwatch: no charge
                return {s: Fraction(1)}
            out = {(s[0], s[1], "locked", "locked"): reach.get(True, 0),
                   (s[0], s[1], "charge failed", ""): reach.get(False, 0)}
            return {k: v for k, v in out.items() if v}
        return self.fight_rounds(bind(dist, charge), rounds, True, terrain)


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


def test_memoised_engine_dice_and_tables() -> None:
    sim = DieByDie([dict(t=4, w=1, save=None, line="m", fnp=5)])
    assert sim.two_d6(lambda x, y: x + y >= 8)[True] == Fraction(5, 12)
    assert sim.dice(2) == {faces: Fraction(1, 36) for faces in enumerate_rolls(2, tuple)}
    for bs, p in {6: Fraction(31, 36), 10: Fraction(35, 36)}.items():   # the table's reroll of 1s
        assert sim.shot_hits(1, bs, False, frozenset())[1] == p
    assert sim.shot_hits(1, 3, False, frozenset({"twin-linked"}))[1] == Fraction(3, 4)
    assert sim.attack_count(1, (1, 3, 1), 1) == {3: Fraction(1, 3), 4: Fraction(1, 3), 5: Fraction(1, 3)}
    # Feel No Pain 5+ after no save: 1/3 of the wounds ignored, none against Instant Death (S8 vs T4)
    assert sim.allocate("a", (1,), 1, 4, None, True) == {((1,), 0): Fraction(1, 3), ((0,), 1): Fraction(2, 3)}
    assert sim.allocate("a", (1,), 1, 8, None, True) == {((0,), 1): Fraction(1)}
