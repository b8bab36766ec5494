"""The dice core: samplers against exact pmfs, exact values, expression parsing and errors.

Sampler checks are chi-square goodness-of-fit tests at a fixed seed with n >= 200,000,
rejecting only at p < 1e-6 (bins pooled until each expects at least 5 rolls), so a real
bias fails and noise does not.
"""

from __future__ import annotations

import dataclasses
import math
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from balance.dice import (
    Constant,
    Dice,
    DiceExpr,
    Drift,
    Pmf,
    d20,
    d100,
    drift,
    ndm,
    parse,
)
from balance.dice import exact as exact_module
from balance.dice import sample as sample_module
from balance.errors import BalanceError, DiceExpressionError, OptionError

SEED = 20240607
N = 200_000
ALPHA = 1e-6
ROOT = Path(__file__).resolve().parents[2]


def rng(seed: int | None = None) -> np.random.Generator:
    """A fresh explicit generator (``SEED`` unless told otherwise)."""
    return np.random.Generator(np.random.PCG64(SEED if seed is None else seed))


def chi2_pvalue(rolls: np.ndarray, pmf: Pmf) -> float:
    """Chi-square p-value of ``rolls`` against ``pmf``, adjacent bins pooled to expect >= 5."""
    x = np.asarray(rolls).ravel().astype(np.int64)
    assert pmf.min_outcome <= x.min() and x.max() <= pmf.max_outcome, "roll outside support"
    observed = np.bincount(x - pmf.min_outcome, minlength=pmf.probs.size)
    expected = pmf.probs / pmf.probs.sum() * x.size
    obs, exp, o_acc, e_acc = [], [], 0, 0.0
    for o, e in zip(observed.tolist(), expected.tolist(), strict=True):
        o_acc, e_acc = o_acc + o, e_acc + e
        if e_acc >= 5:
            obs.append(o_acc)
            exp.append(e_acc)
            o_acc, e_acc = 0, 0.0
    obs[-1] += o_acc
    exp[-1] += e_acc
    assert len(obs) >= 2
    return float(stats.chisquare(obs, exp).pvalue)


# --------------------------------------------------------------------------- samplers
def test_d20_matches_uniform_and_fumble_flags_natural_ones():
    roll, fumble = d20(rng(), N)
    assert roll.dtype == np.int8 and fumble.dtype == np.bool_
    assert roll.shape == fumble.shape == (N,)
    np.testing.assert_array_equal(fumble, roll == 1)
    assert chi2_pvalue(roll, Pmf.d20()) > ALPHA


def test_d100_matches_uniform():
    roll = d100(rng(), N)
    assert roll.dtype == np.int16 and roll.shape == (N,)
    assert chi2_pvalue(roll, Pmf.d100()) > ALPHA


@pytest.mark.parametrize(("n", "m"), [(1, 6), (2, 6), (3, 6), (10, 20), (100, 6), (4, 300)])
def test_ndm_matches_exact_pmf(n: int, m: int):
    assert chi2_pvalue(ndm(rng(), n, m, N), Pmf.ndm(n, m)) > ALPHA


def test_ndm_in_many_chunks_still_matches(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(sample_module, "CHUNK_ELEMENTS", 1000)  # one die per draw
    rolls = ndm(rng(), 5, 6, (N // 4, 4))
    assert rolls.shape == (N // 4, 4)
    assert chi2_pvalue(rolls, Pmf.ndm(5, 6)) > ALPHA


def test_drift_matches_exact_pmf():
    rolls = drift(rng(), 1_000_000)
    assert rolls.dtype == np.int8 and rolls.shape == (1_000_000,)
    assert chi2_pvalue(rolls, Pmf.drift()) > ALPHA


@pytest.mark.parametrize("text", ["2d6+1d4-1", "drift+3", "d20-d20", "d%+2d10-drift", "3d6 - 2"])
def test_expression_sample_matches_its_pmf(text: str):
    expr = parse(text)
    rolls = expr.sample(rng(), N)
    assert rolls.dtype == np.int32
    assert chi2_pvalue(rolls, expr.pmf()) > ALPHA


@pytest.mark.parametrize("size", [7, (3, 4), (2, 0), ()])
def test_dtypes_and_shapes(size):
    shape = (size,) if isinstance(size, int) else size
    g = rng()
    roll, fumble = d20(g, size)
    assert (roll.shape, roll.dtype, fumble.shape) == (shape, np.int8, shape)
    assert (d100(g, size).shape, d100(g, size).dtype) == (shape, np.int16)
    assert (drift(g, size).shape, drift(g, size).dtype) == (shape, np.int8)
    assert (ndm(g, 2, 6, size).shape, ndm(g, 2, 6, size).dtype) == (shape, np.int16)
    assert parse("2d6+drift-1").sample(g, size).shape == shape
    assert parse("2d6+drift-1").sample(g, size).dtype == np.int32


@pytest.mark.parametrize(("n", "m", "dtype"), [
    (2, 6, np.int16), (1, 32767, np.int16), (1, 32768, np.int32), (1000, 10_000, np.int32),
    (0, 6, np.int16),
])
def test_ndm_dtype_widens_only_when_it_could_overflow(n: int, m: int, dtype):
    rolls = ndm(rng(), n, m, 1000)
    assert rolls.dtype == dtype
    assert n <= rolls.min() and rolls.max() <= n * m


def test_samplers_reproduce_with_the_same_seed_and_touch_no_global_state():
    # the legacy global state is exactly what must stay untouched
    np_state, py_state = np.random.get_state(), random.getstate()  # noqa: NPY002

    def draw(g: np.random.Generator) -> list[np.ndarray]:
        return [*d20(g, 500), d100(g, 500), ndm(g, 3, 6, 500), drift(g, 500),
                parse("2d6+drift-d%").sample(g, (10, 50))]

    first, second, other = draw(rng(1)), draw(rng(1)), draw(rng(2))
    for a, b in zip(first, second, strict=True):
        np.testing.assert_array_equal(a, b)
    assert any(not np.array_equal(a, b) for a, b in zip(first, other, strict=True))
    after = np.random.get_state()  # noqa: NPY002
    assert np_state[0] == after[0] and np.array_equal(np_state[1], after[1])
    assert random.getstate() == py_state


def test_samplers_take_keywords():
    g = rng()
    assert d20(rng=g, size=3)[0].shape == (3,)
    assert ndm(rng=g, n=2, m=6, size=(2, 2)).shape == (2, 2)
    assert d100(rng=g, size=1).shape == drift(rng=g, size=1).shape == (1,)


def test_dice_core_imports_numpy_and_the_standard_library_only():
    code = ("import sys, balance.dice; "
            "bad = sorted({'scipy', 'pandas', 'matplotlib', 'yaml'} & set(sys.modules)); "
            "sys.exit(str(bad) if bad else 0)")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


@pytest.mark.parametrize("size", [-1, (3, -2), "big", 2.5])
def test_bad_size_is_a_clean_error(size):
    with pytest.raises(OptionError, match="size"):
        d20(rng(), size)


def test_ndm_rejects_bad_counts():
    with pytest.raises(OptionError, match="faces"):
        ndm(rng(), 2, 0, 5)
    with pytest.raises(OptionError, match="dice"):
        ndm(rng(), -1, 6, 5)


# ------------------------------------------------------------------------ exact values
def test_2d6_pmf_is_the_triangle():
    assert Pmf.ndm(2, 6).to_dict() == pytest.approx(
        {k: (6 - abs(k - 7)) / 36 for k in range(2, 13)}, abs=1e-15)


def test_d20_and_d100_are_uniform():
    assert Pmf.d20().to_dict() == pytest.approx({k: 1 / 20 for k in range(1, 21)})
    assert Pmf.d100().to_dict() == pytest.approx({k: 1 / 100 for k in range(1, 101)})
    assert Pmf.d20().mean() == pytest.approx(10.5)


def test_drift_exact_values_and_truncation():
    pmf = Pmf.drift()
    p = pmf.to_dict()
    assert p[0] == pytest.approx(1 / 3, rel=1e-15)
    assert p[1] == p[-1] == pytest.approx(2 / 9, rel=1e-15)
    assert p[2] == p[-2] == pytest.approx(2 / 27, rel=1e-15)
    assert pmf.mean() == pytest.approx(0, abs=1e-15)
    assert pmf.sd() == pytest.approx(math.sqrt(2), rel=1e-12)  # Var = 2 sum k^2 (2/3) 3^-k = 2
    k = pmf.max_outcome
    assert pmf.min_outcome == -k
    assert 2 * 3.0 ** -(k + 1) < 1e-16 <= 2 * 3.0 ** -k  # the first cut with tail < 1e-16
    assert 1 - pmf.probs.sum() < 1e-15


def test_p_at_least_for_d20_plus_12_vs_d20_plus_10():
    # P(A + 12 >= B + 10) = 1 - P(B - A >= 3) = 1 - sum_{j=1}^{17} j / 400 = 1 - 153/400
    p = (Pmf.d20() + 12).p_at_least(Pmf.d20() + 10)
    assert p == pytest.approx(247 / 400, rel=1e-14)
    assert parse("d20+12").pmf().p_at_least(parse("d20+10").pmf()) == pytest.approx(247 / 400)


def test_p_at_least_against_constants_and_itself():
    d6 = Pmf.die(6)
    assert d6.p_at_least(4) == pytest.approx(0.5)
    assert d6.p_at_least(0) == pytest.approx(1.0) and d6.p_at_least(7) == 0.0
    assert d6.p_at_least(d6) == pytest.approx((1 + 1 / 6) / 2)
    np.testing.assert_allclose(d6.at_least(), np.arange(6, 0, -1) / 6)


def test_arithmetic_of_independent_pmfs():
    d6 = Pmf.die(6)
    assert (d6 + d6).to_dict() == pytest.approx(Pmf.ndm(2, 6).to_dict())
    diff = d6 - d6
    assert (diff.min_outcome, diff.max_outcome) == (-5, 5)
    assert diff.to_dict() == pytest.approx((-diff).to_dict())
    assert (3 - d6).to_dict() == pytest.approx({k: 1 / 6 for k in range(-3, 3)})
    assert (d6 + 2).to_dict() == (2 + d6).to_dict() == pytest.approx(
        {k: 1 / 6 for k in range(3, 9)})
    assert (d6 - 1).min_outcome == 0
    assert list(Pmf.constant(-4)) == [(-4, 1.0)]


def test_fft_convolution_agrees_with_direct(monkeypatch: pytest.MonkeyPatch):
    direct = Pmf.ndm(7, 12)
    monkeypatch.setattr(exact_module, "DIRECT_CONVOLVE_LIMIT", 0)
    np.testing.assert_allclose(Pmf.ndm(7, 12).probs, direct.probs, rtol=0, atol=1e-15)


def test_pmf_is_immutable_and_validated():
    pmf = Pmf.die(6)
    with pytest.raises(AttributeError):
        pmf._lo = 3  # type: ignore[misc]
    with pytest.raises(ValueError, match="read-only"):
        pmf.probs[0] = 1.0
    assert Pmf(5, [0.0, 0.25, 0.75, 0.0]).to_dict() == {6: 0.25, 7: 0.75}
    for bad in ([0.5, 0.6], [-0.5, 1.5], [], [[1.0]], [float("nan")]):
        with pytest.raises(OptionError):
            Pmf(0, bad)
    assert Pmf.from_dict({3: 0.5, 1: 0.5}).to_dict() == {1: 0.5, 3: 0.5}


# ------------------------------------------------------------------------- expressions
@pytest.mark.parametrize(("text", "canonical", "terms"), [
    ("2d6+1d4-1", "2d6+d4-1", ((1, Dice(2, 6)), (1, Dice(1, 4)), (-1, Constant(1)))),
    ("d20+12", "d20+12", ((1, Dice(1, 20)), (1, Constant(12)))),
    ("drift+3", "drift+3", ((1, Drift()), (1, Constant(3)))),
    ("-1+d6", "-1+d6", ((-1, Constant(1)), (1, Dice(1, 6)))),
    ("3d6 - 2", "3d6-2", ((1, Dice(3, 6)), (-1, Constant(2)))),
    ("  D% + DRIFT ", "d100+drift", ((1, Dice(1, 100)), (1, Drift()))),
    ("+d100", "d100", ((1, Dice(1, 100)),)),
    ("7", "7", ((1, Constant(7)),)),
    ("0001000d06-0", "1000d6-0", ((1, Dice(1000, 6)), (-1, Constant(0)))),
])
def test_parse_valid_expressions(text: str, canonical: str, terms):
    expr = parse(text)
    assert (expr.text, str(expr), expr.terms) == (text, canonical, terms)
    assert parse(str(expr)) == dataclasses.replace(expr, text=str(expr))
    assert parse(expr) is expr
    with pytest.raises(dataclasses.FrozenInstanceError):
        expr.text = "d6"  # type: ignore[misc]


def test_expression_pmf_is_the_sum_of_its_terms():
    got = parse("2d6+1d4-1").pmf().to_dict()
    assert got == pytest.approx((Pmf.ndm(2, 6) + Pmf.die(4) - 1).to_dict(), abs=1e-16)


@pytest.mark.parametrize(("text", "detail"), [
    ("2d6+x", "unexpected 'x' at column 5"),
    ("", "empty expression"),
    ("   ", "empty expression"),
    ("2d", "'2d' at column 1 is missing the number of faces"),
    ("d0", "'d0' at column 1 has a die with no faces (need at least 1)"),
    ("0d6", "'0d6' at column 1 rolls no dice (need at least 1)"),
    ("2d6++3", "unexpected '+' at column 5"),
    ("2d6+", "'+' at column 4 has no term after it"),
    ("2d6 - ", "'-' at column 5 has no term after it"),
    ("-", "'-' at column 1 has no term after it"),
    ("1d6 3", "unexpected '3' at column 5 (expected '+' or '-')"),
    ("3*2", "unexpected '*' at column 2"),
    ("d6+2.5", "unexpected '.' at column 5"),
    ("drifty", "unexpected 'drifty' at column 1"),
    ("1001d6", "'1001d6' at column 1 rolls more than 1000 dice"),
    ("d10001", "'d10001' at column 1 has more than 10000 faces"),
    ("99999999999999999999d6", "'99999999999999999999d6' at column 1 rolls more than 1000 dice"),
    ("1+2000000", "constant '2000000' at column 3 is larger than 1,000,000"),
    ("+".join(["d6"] * 51), "more than 50 terms ('d6' at column 151)"),
])
def test_bad_expressions_name_the_token_on_one_line(text: str, detail: str):
    with pytest.raises(DiceExpressionError) as info:
        parse(text)
    assert str(info.value) == f"bad dice expression {text!r}: {detail}"
    assert "\n" not in str(info.value)
    assert isinstance(info.value, BalanceError)


def test_non_string_and_too_wide_expressions_are_clean_errors():
    with pytest.raises(DiceExpressionError, match="must be a string"):
        parse(6)  # type: ignore[arg-type]
    wide = parse("1000d10000+1000d10000")
    with pytest.raises(DiceExpressionError, match="possible outcomes"):
        wide.pmf()
    assert wide.sample(rng(), 3).shape == (3,)


# -------------------------------------------------------------------------- properties
TERMS = st.one_of(
    st.builds(Constant, st.integers(0, 20)),
    st.builds(Dice, st.integers(1, 4), st.integers(1, 10)),
    st.just(Drift()),
)
EXPRS = st.lists(st.tuples(st.sampled_from([1, -1]), TERMS), min_size=1, max_size=5).map(
    lambda terms: DiceExpr("", tuple(terms)))


def _text(expr: DiceExpr, spaces: list[bool]) -> str:
    out = ""
    for (sign, term), space in zip(expr.terms, spaces + [False] * len(expr.terms), strict=False):
        gap = " " if space else ""
        out += f"{gap}{'-' if sign < 0 else '+'}{gap}{term}"
    return out


@settings(derandomize=True, max_examples=50, deadline=None)
@given(EXPRS, st.lists(st.booleans(), max_size=5))
def test_parsed_pmf_sums_to_one_and_moments_add(expr: DiceExpr, spaces: list[bool]):
    parsed = parse(_text(expr, spaces))
    assert parsed.terms == expr.terms
    pmf = parsed.pmf()
    assert pmf.probs.sum() == pytest.approx(1, abs=1e-12)
    term_pmfs = [term.pmf() for _, term in expr.terms]
    mean = sum(sign * p.mean() for (sign, _), p in zip(expr.terms, term_pmfs, strict=True))
    var = sum(p.sd() ** 2 for p in term_pmfs)
    assert pmf.mean() == pytest.approx(mean, abs=1e-9)
    assert pmf.sd() ** 2 == pytest.approx(var, rel=1e-9, abs=1e-12)


@settings(derandomize=True, max_examples=50, deadline=None)
@given(EXPRS, EXPRS)
def test_at_least_both_ways_covers_everything_once(x: DiceExpr, y: DiceExpr):
    px, py = x.pmf(), y.pmf()
    p_tie = (px - py).to_dict().get(0, 0.0)
    assert px.p_at_least(py) + py.p_at_least(px) == pytest.approx(1 + p_tie, abs=1e-12)
