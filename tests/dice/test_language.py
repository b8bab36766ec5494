"""The richer dice language (keep/drop, exploding dice, counts of successes, comparisons):
exact pmfs against icepool, an independent exact dice library used here as a test-only
oracle, and against brute-force enumeration; the samplers and the die-by-die rolls against
the exact pmfs; parse errors.

Oracle comparisons are of exact values (icepool counts in whole numbers), to 1e-12. Sampler
checks are chi-square tests at a fixed seed with 200,000 rolls rejecting only at p < 1e-6, so
a bias of a few tenths of a point in any outcome fails and noise never does.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats

from balance.dice import Compare, Dice, Group, Pmf, Pool, parse
from balance.dice.pool import EXPLODE_TAIL, explosions
from balance.errors import DiceExpressionError

icepool = pytest.importorskip("icepool")

SEED = 20250130
N = 200_000


def as_dict(pmf: Pmf) -> dict[int, float]:
    return {k: v for k, v in pmf.to_dict().items() if v > 0}


def oracle(die: object) -> dict[int, float]:
    """An icepool die as {outcome: probability} (True/False read as 1/0)."""
    total = die.denominator()
    return {int(k): q / total for k, q in die.items() if q}


def close(got: dict[int, float], want: dict[int, float], tol: float = 1e-12) -> None:
    keys = set(got) | set(want)
    worst = max(abs(got.get(k, 0.0) - want.get(k, 0.0)) for k in keys)
    assert worst < tol, f"differs by {worst:.3g}: {got} vs {want}"


def chi2_ok(rolls: np.ndarray, pmf: Pmf) -> float:
    """p-value of the rolls against the pmf (bins pooled to expect at least 5)."""
    x = np.asarray(rolls).ravel().astype(np.int64)
    lo = pmf.min_outcome
    inside = (x >= lo) & (x <= pmf.max_outcome)
    observed = np.bincount(x[inside] - lo, minlength=pmf.probs.size)
    expected = pmf.probs / pmf.probs.sum() * inside.sum()
    obs, exp, o_acc, e_acc = [], [], 0, 0.0
    for o, e in zip(observed.tolist(), expected.tolist(), strict=True):
        o_acc, e_acc = o_acc + o, e_acc + e
        if e_acc >= 5:
            obs.append(o_acc)
            exp.append(e_acc)
            o_acc, e_acc = 0, 0.0
    if obs:
        obs[-1] += o_acc
        exp[-1] += e_acc
    return float(stats.chisquare(obs, exp).pvalue)


# ------------------------------------------------------------------ keep and drop
@pytest.mark.parametrize(("text", "n", "m", "which"), [
    ("4d6kh3", 4, 6, slice(1, None)), ("4d6dl1", 4, 6, slice(1, None)),
    ("2d20kh1", 2, 20, slice(1, None)), ("2d20kl1", 2, 20, slice(None, 1)),
    ("2d20k", 2, 20, slice(1, None)), ("5d8dh2", 5, 8, slice(None, 3)),
    ("3d10kl2", 3, 10, slice(None, 2)), ("6d4kh6", 6, 4, slice(None)),
    ("10d6kh3", 10, 6, slice(7, None)),
])
def test_keep_and_drop_match_icepool(text: str, n: int, m: int, which: slice):
    """icepool keeps by sorted position: ``d(m).pool(n)[which]`` is the kept dice, summed."""
    got = as_dict(parse(text).pmf())
    close(got, oracle(icepool.d(m).pool(n)[which].sum()))


@pytest.mark.parametrize(("n", "m", "k", "highest"), [
    (n, m, k, h) for n in (1, 2, 3, 4) for m in (2, 3, 6) for k in range(1, n + 1)
    for h in (True, False)])
def test_keep_matches_brute_force_enumeration(n: int, m: int, k: int, highest: bool):
    """Every roll of every small pool enumerated: the exact definition of keeping."""
    counts: dict[int, int] = {}
    for roll in itertools.product(range(1, m + 1), repeat=n):
        kept = sorted(roll)[n - k:] if highest else sorted(roll)[:k]
        counts[sum(kept)] = counts.get(sum(kept), 0) + 1
    want = {s: c / m ** n for s, c in counts.items()}
    close(as_dict(parse(f"{n}d{m}{'kh' if highest else 'kl'}{k}").pmf()), want)


# ------------------------------------------------------------------------ exploding
@pytest.mark.parametrize(("text", "n", "m"), [("d6!", 1, 6), ("d10!", 1, 10), ("3d6!", 3, 6),
                                             ("2d4!", 2, 4), ("d2!", 1, 2)])
def test_exploding_dice_match_icepool_below_the_cut(text: str, n: int, m: int):
    """icepool's ``explode(depth=K)`` lumps the rolls past K re-rolls into its top outcomes;
    ours leaves them out. Both agree exactly on every outcome a roll can reach with fewer
    than K re-rolls of any die, i.e. below (K - n + 1) * m; the left-out mass is stated."""
    expr = parse(text)
    k = explosions(m)
    want = oracle(icepool.d(m).explode(depth=k).pool(n).sum()) if n > 1 else \
        oracle(icepool.d(m).explode(depth=k))
    got = as_dict(expr.pmf())
    below = (k - n + 1) * m
    close({o: p for o, p in got.items() if o < below},
          {o: p for o, p in want.items() if o < below})
    tail = float(m) ** -(k + 1)
    assert tail < EXPLODE_TAIL
    assert expr.left_out() == pytest.approx(1 - (1 - tail) ** n, rel=1e-6)
    assert sum(got.values()) == pytest.approx(1 - expr.left_out(), abs=1e-15)


def test_exploding_d6_by_hand():
    """d6!: 1-5 at 1/6 each; a 6 re-rolls and adds, so 7-11 at 1/36, 13-17 at 1/216; never
    6, 12, 18 (the top face always rolls again). The mean is 3.5 * 6/5 = 4.2."""
    pmf = parse("d6!").pmf().to_dict()
    assert [pmf.get(v, 0) for v in (1, 5, 6, 7, 11, 12, 13)] == pytest.approx(
        [1 / 6, 1 / 6, 0, 1 / 36, 1 / 36, 0, 1 / 216])
    assert parse("d6!").pmf().mean() == pytest.approx(4.2, abs=1e-12)


def test_exploding_then_keep_matches_icepool():
    k = explosions(6)
    want = oracle(icepool.d(6).explode(depth=k).pool(3)[1:].sum())
    got = as_dict(parse("3d6!kh2").pmf())
    below = (k - 2) * 6
    close({o: p for o, p in got.items() if o < below},
          {o: p for o, p in want.items() if o < below})


# ------------------------------------------------------------- counts and comparisons
@pytest.mark.parametrize(("text", "n", "m", "op", "t"), [
    ("5d10>=7", 5, 10, ">=", 7), ("6d6>4", 6, 6, ">", 4), ("4d6<=2", 4, 6, "<=", 2),
    ("3d8<3", 3, 8, "<", 3), ("4d6=6", 4, 6, "=", 6), ("4d6==6", 4, 6, "=", 6)])
def test_counts_of_successes_match_icepool(text: str, n: int, m: int, op: str, t: int):
    """A count is the sum of n dice each 1 when it meets the threshold: icepool's
    ``n @ (d(m) op t)``."""
    per_die = {">=": lambda d: d >= t, ">": lambda d: d > t, "<=": lambda d: d <= t,
               "<": lambda d: d < t, "=": lambda d: d == t}[op](icepool.d(m))
    close(as_dict(parse(text).pmf()), oracle(n @ per_die))


def test_count_among_kept_dice_matches_icepool():
    # icepool: keep the highest 3 of 4d6, then count those >= 5
    want = oracle(icepool.d(6).pool(4)[1:].expand().map(lambda t: sum(x >= 5 for x in t)))
    close(as_dict(parse("4d6kh3>=5").pmf()), want)


@pytest.mark.parametrize(("text", "die"), [
    ("(3d6)>=12", lambda: 3 @ icepool.d(6) >= 12),
    ("d20+5>=15", lambda: icepool.d(20) + 5 >= 15),
    ("d20>=15", lambda: icepool.d(20) >= 15),
    ("2d6>d6+3", lambda: 2 @ icepool.d(6) > icepool.d(6) + 3),
    ("(5d10)<=20", lambda: 5 @ icepool.d(10) <= 20),
    ("2d6+1d4=8", lambda: 2 @ icepool.d(6) + icepool.d(4) == 8),
])
def test_comparisons_of_totals_match_icepool(text: str, die):
    """A comparison of totals is 1 or 0, as AnyDice and icepool read ``3 @ d6 >= 12``."""
    expr = parse(text)
    assert isinstance(expr.terms[0][1], Compare)
    close(as_dict(expr.pmf()), oracle(die()))


def test_the_brief_examples_by_hand():
    """(3d6)>=12: 81 of the 216 rolls reach 12 (27+25+21+15+10+6+3+1... = 81), so 0.375;
    5d10>=7: Binomial(5, 0.4), P(2) = 10 * 0.16 * 0.216 = 0.3456; 4d6kh3: the mean of the
    best three of four d6 is 15869/1296 = 12.2446."""
    assert parse("(3d6)>=12").pmf().to_dict()[1] == pytest.approx(81 / 216, abs=1e-15)
    assert parse("5d10>=7").pmf().to_dict()[2] == pytest.approx(0.3456, abs=1e-15)
    assert parse("4d6kh3").pmf().mean() == pytest.approx(15869 / 1296, abs=1e-12)


def test_brackets_counts_and_sums_mix():
    expr = parse("(5d10>=7)+(d6!)-1")
    assert isinstance(expr.terms[0][1], Group) and isinstance(expr.terms[0][1].expr.terms[0][1],
                                                              Pool)
    want = icepool.d(10).map(lambda x: x >= 7)
    got = as_dict(parse("(5d10>=7)+2").pmf())
    close(got, {k + 2: v for k, v in oracle(5 @ want).items()})


# ----------------------------------------------------------------- parse and spell
@pytest.mark.parametrize(("text", "canonical"), [
    ("4D6KH3", "4d6kh3"), ("4d6 dl1".replace(" ", ""), "4d6dl1"), ("2d20k", "2d20kh1"),
    ("d6!", "d6!"), ("3d6! + 2", "3d6!+2"), ("5d10 >= 7", "5d10>=7"), ("5d10==7", "5d10=7"),
    ("( 3d6 ) >= 12", "(3d6)>=12"), ("d20 + 5 >= 15", "d20+5>=15"), ("4d6!kh3>=5", "4d6!kh3>=5"),
    ("-(d6)+3", "-(d6)+3"), ("d%!", "d100!"),
])
def test_canonical_spelling_round_trips(text: str, canonical: str):
    expr = parse(text)
    assert str(expr) == canonical
    assert str(parse(canonical)) == canonical
    assert parse(canonical).terms == expr.terms


def test_plain_dice_stay_dice_terms():
    """Existing fields keep their terms: a plain NdM is still a Dice, not a Pool."""
    assert parse("1D8+1").terms[0] == (1, Dice(1, 8))
    assert parse("1D8+1").plain and not parse("4d6kh3").plain and not parse("d20>=5").plain


@pytest.mark.parametrize(("text", "detail"), [
    ("3d6>=12", "3d6>=12 counts the dice of 3d6 that are >= 12, and no d6 can be; for whether "
                "the total is, bracket it: (3d6)>=12"),
    ("4d6kh5", "'4d6kh5' at column 1 keeps 5 of 4 dice (keep 1 to 4)"),
    ("4d6dl4", "'4d6dl4' at column 1 drops 4 of 4 dice (drop 0 to 3)"),
    ("d1!", "'d1!' at column 1 explodes a d1, which always shows its top face and would roll "
            "for ever"),
    ("(2d6", "'(' at column 1 is never closed"),
    ("2d6)", "unexpected ')' at column 4 (no '(' before it)"),
    ("d6>=", "'>=' at column 3 has nothing to compare with"),
    ("d6>=3>=2", "a second comparison '>=' at column 6 (bracket one side: (d6>=4)+(d6>=4)>=2)"),
    ("()", "'(' at column 1 has nothing inside"),
    ("4d6kx3", "unexpected 'kx3' at column 4 after '4d6' (dice take '!', then kh, kl, dh or dl "
               "and a count)"),
    ("201d6kh3", "'201d6kh3' at column 1 keeps or drops among more than 200 dice"),
    ("((((((((((((d6))))))))))))", "more than 10 brackets inside one another (column 11)"),
])
def test_bad_new_expressions_name_the_problem(text: str, detail: str):
    with pytest.raises(DiceExpressionError) as info:
        parse(text)
    assert str(info.value) == f"bad dice expression {text!r}: {detail}"


# ------------------------------------------------------------ samplers and rolls
@pytest.mark.parametrize("text", ["4d6kh3", "2d20kl1", "d6!", "3d6!kh2", "5d10>=7",
                                  "(3d6)>=12", "d20+5>=15", "(5d10>=7)+d4", "4d6!kh3>=5"])
def test_samplers_and_literal_rolls_follow_the_exact_pmf(text: str):
    """The vectorised sampler (200,000 rolls) and the die-by-die ``roll`` (20,000) each pass
    a chi-square test against the exact pmf at p > 1e-6."""
    expr = parse(text)
    pmf = expr.pmf()
    rng = np.random.Generator(np.random.PCG64(SEED))
    assert chi2_ok(expr.sample(rng, N), pmf) > 1e-6
    rolls = np.array([expr.roll(rng) for _ in range(20_000)])
    assert chi2_ok(rolls, pmf) > 1e-6


def test_pool_sampler_is_chunked_without_changing_the_law():
    """A pool larger than one chunk draws in pieces; the result still follows the pmf."""
    from balance.dice import pool as pool_module

    expr = parse("30d6kh10")
    rng = np.random.Generator(np.random.PCG64(SEED))
    old = pool_module.CHUNK_ELEMENTS
    pool_module.CHUNK_ELEMENTS = 300
    try:
        rolls = expr.sample(rng, (2, 50_000))
    finally:
        pool_module.CHUNK_ELEMENTS = old
    assert rolls.shape == (2, 50_000)
    assert chi2_ok(rolls, expr.pmf()) > 1e-6


def test_keep_pmf_of_a_large_pool_is_quick_and_sums_to_one():
    pmf = parse("100d20kh50").pmf()
    assert math.isclose(pmf.probs.sum(), 1, abs_tol=1e-9)
    assert 50 * 10.5 < pmf.mean() < 50 * 20
