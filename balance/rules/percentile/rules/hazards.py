"""Seed 004's hazards outside a fight, as exact distributions: poison, falls, drowning, fire,
disease, acid, explosions, the Wine of Bakshaan and mental shock, shedding armour under
water. Each returns a :class:`Hazard`: the headline chance and the exact distribution of
hit points lost (a :class:`~balance.dice.Pmf`). ``balance hazard`` prints them.

Every percentile roll here (Jump, Swim, CON x N) follows the lab's success rule
(``rules.tables.success_range``: 01-05 always succeed, 96-00 always fail); the poison roll is the
Resistance Table (``balance.dice.resistance``), which has no such limits.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from balance.dice import Pmf, parse
from balance.rules.percentile.rules import tables as tb

SOAK_ROUNDS = 25     # lab's assumption: light armour soaks through in 25 rounds (5 minutes)


@dataclass(frozen=True)
class Hazard:
    """A hazard's result: ``p`` (its headline chance, named by ``event``) and the damage."""

    event: str
    p: float
    damage: Pmf

    def p_dead(self, hit_points: int) -> float:
        """The chance the damage reaches ``hit_points`` (0 or below is death)."""
        return float(self.damage.p_at_least(hit_points))


def pct(chance: int) -> float:
    """The probability of a plain percentile roll against ``chance`` succeeding."""
    return int(tb.success_range(chance)) / 100


def mixture(parts: Iterable[tuple[float, Pmf]]) -> Pmf:
    """The distribution that is ``pmf`` with probability ``w`` for each (w, pmf)."""
    out: dict[int, float] = {}
    for weight, pmf in parts:
        if weight <= 0:
            continue
        for x, p in pmf:
            out[x] = out.get(x, 0.0) + weight * p
    total = sum(out.values())
    return Pmf.from_dict({x: p / total for x, p in out.items()})


def d6s(n: int) -> Pmf:
    return Pmf.ndm(n, 6) if n > 0 else Pmf.constant(0)


def poison(pot: int, con: int, *, mild: bool = False,
           table: dict[str, int] | None = None) -> Hazard:
    """Seed 004: POT against CON on the Resistance Table (``table``: its numbers, as
    ``balance.dice.resistance`` takes them). Overcome: POT hit points lost; resisted: half
    the POT (rounded down; the lab's), or nothing for a ``mild`` poison."""
    chance = int(tb.poison_chance(pot, con, **(table or {})))
    resisted = 0 if mild else int(tb.poison_damage(pot, False))
    return Hazard("p_overcome", chance / 100, mixture([(chance / 100, Pmf.constant(pot)),
                                                       ((100 - chance) / 100,
                                                        Pmf.constant(resisted))]))


def fall(yards: float, *, jump: int | None = None, plate: bool = False) -> Hazard:
    """Seed 004: 1D6 per three yards (the first three, or any part, one die); a Jump roll
    before landing saves 1D6; armour does not help, and plate adds 1D6. ``p`` is the chance
    the Jump succeeds (0 without one)."""
    dice = int(tb.fall_dice(yards)) + (1 if plate and yards > 0 else 0)
    p_jump = pct(jump) if jump is not None and dice else 0.0
    return Hazard("p_jump", p_jump, mixture([(p_jump, d6s(dice - 1)), (1 - p_jump, d6s(dice))]))


def _crisis_start(rounds: int, weight: str | None, swim: int, soak_rounds: int,
                  never_soaks: bool, breath: bool) -> list[tuple[int, float, bool]]:
    """(first round of the crisis, its probability, a breath grabbed first) for a swimmer in
    armour: plate sinks at once; heavy armour needs a Swim roll each round (a failure starts
    the crisis without a breath); light armour floats until soaked, then is heavy."""
    if weight is None:
        return [(0, 1.0, breath)]
    if weight == "plate":
        return [(0, 1.0, False)]
    if weight == "none" or (weight == "light" and never_soaks):
        return []
    first = soak_rounds if weight == "light" else 0
    p_swim = pct(swim)
    starts, afloat = [], 1.0
    for r in range(first, rounds):
        starts.append((r, afloat * (1 - p_swim), False))
        afloat *= p_swim
    return starts


def drowning(con: int, rounds: int, *, breath: bool = True, weight: str | None = None,
             swim: int = 0, soak_rounds: int = SOAK_ROUNDS, never_soaks: bool = False) -> Hazard:
    """Seed 004, drowning and suffocation, over ``rounds`` combat rounds: a CON x 5 roll in
    the first round of the crisis (x 3 with no breath grabbed first), one multiplier less
    each round down to x 1; the first failure costs 1D6 that round and every round after.
    With ``weight`` (an armour class) the crisis starts as seed 004's swimming rules say.
    ``p`` is the chance of taking harm within the rounds."""
    failing: dict[int, float] = {}
    for start, p_start, had_breath in _crisis_start(rounds, weight, swim, soak_rounds,
                                                    never_soaks, breath):
        holding = p_start
        for r in range(start, rounds):
            mult = int(tb.drowning_multiplier(r - start, had_breath))
            ok = pct(mult * con)
            failing[rounds - r] = failing.get(rounds - r, 0.0) + holding * (1 - ok)
            holding *= ok
    p_hurt = sum(failing.values())
    parts = [(w, d6s(f)) for f, w in sorted(failing.items())]
    return Hazard("p_injured", p_hurt, mixture([*parts, (1 - p_hurt, Pmf.constant(0))]))


def fire(damage: str, rounds: int, *, armoured: bool = False) -> Hazard:
    """Seed 004: armour insulates against fire for 1D6 rounds, then the wearer burns as if
    unarmoured; ``damage`` is the fire's dice per round. ``p`` is the chance of any burn."""
    per_round = parse(damage).pmf()

    def burn(n: int) -> Pmf:
        return rounds_of(per_round, n)

    if not armoured:
        pmf = burn(rounds)
    else:
        pmf = mixture([(1 / 6, burn(rounds - k)) for k in range(1, 7)])
    return Hazard("p_burned", 1 - float(pmf.probs[0]) if pmf.min_outcome == 0 else 1.0, pmf)


def acid(damage: str, rounds: int) -> Hazard:
    """Seed 004: an acid's harm "depends more on its dilution than on the type of acid";
    only significant contact (a hand or arm immersed, the eyes) counts. ``damage`` is the
    acid's dice per round of such contact (the ``acids`` table, the lab's); armour gives no
    protection (the seed: acid can ruin armour outright). ``p`` is the chance of any harm."""
    pmf = rounds_of(parse(damage).pmf(), rounds)
    return Hazard("p_burned", 1 - float(pmf.probs[0]) if pmf.min_outcome == 0 else 1.0, pmf)


def explosion(dice: int, ring: float, distance: float) -> Hazard:
    """Seed 004: explosions do hit-point damage "in expanding rings, calculated in D6s". The
    lab's reading: ``dice`` D6 within the first ``ring`` yards of the centre, one D6 fewer in
    each further ring of ``ring`` yards (the ``explosions`` table). Damage before armour.
    ``p`` is the chance of any harm."""
    n = max(0, dice - int(distance // ring)) if ring > 0 else dice
    pmf = d6s(n)
    return Hazard("p_hurt", 1.0 if n else 0.0, pmf)


def luck_fails(pow_: int, event: str) -> Hazard:
    """A failed Luck roll (POW x 5, the family's Luck): no hit points, only the event."""
    return Hazard(event, 1 - pct(5 * pow_), Pmf.constant(0))


def wine_of_bakshaan(pow_: int) -> Hazard:
    """Seed 004's poison table: the Wine of Bakshaan has no POT; it brings hallucinations,
    "and madness on a failed POW x5 roll". ``p`` is the chance of madness."""
    return luck_fails(pow_, "p_madness")


def mental_shock(pow_: int) -> Hazard:
    """Seed 004, mental shock: "a Luck roll ends the effect immediately; failure lets it
    linger for days" (Luck is POW x 5 in the family). ``p`` is the chance it lingers."""
    return luck_fails(pow_, "p_lingers")


def shed_armour(dex: int, swim: int, rounds: int, *, cut: bool = False) -> Hazard:
    """Seed 004: armour comes off under water in as many rounds as it takes to put on
    (``rounds``), "with a successful Dexterity roll each round; failing that roll instead
    requires a successful Swim roll or the wearer starts to drown"; cutting the straps
    (``cut``) sheds it at once, lost for good. The lab's reading: a failed DEX roll (DEX x
    5) makes no progress that round. ``p`` is the chance of starting to drown before the
    armour is off: 1 - (d / (d + (1 - d)(1 - s)))^rounds for DEX roll d and Swim s."""
    if cut or rounds <= 0:
        return Hazard("p_drowning", 0.0, Pmf.constant(0))
    d, s = pct(5 * dex), pct(swim)
    drown = (1 - d) * (1 - s)
    p = 1 - (d / (d + drown)) ** rounds
    return Hazard("p_drowning", p, Pmf.constant(0))


def rounds_of(per_round: Pmf, n: int) -> Pmf:
    """The total of ``n`` independent rounds of ``per_round`` damage."""
    total = Pmf.constant(0)
    for _ in range(max(0, n)):
        total = total + per_round
    return total


def disease(con: int, *, major: bool = False, hours: int = 8) -> Hazard:
    """Seed 004: a failed CON x 5 roll after exposure catches it. A minor complaint costs a
    hit point or two (1D2, the lab's reading); a major disease 1D3 hit points an hour."""
    p = 1 - pct(5 * con)
    harm = Pmf.ndm(hours, 3) if major else Pmf.die(2)
    return Hazard("p_caught", p, mixture([(p, harm), (1 - p, Pmf.constant(0))]))
