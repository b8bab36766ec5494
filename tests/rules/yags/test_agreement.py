"""The vectorised Yags kernel against the scalar reference: same rules, same distributions.

Each fight is played by the kernel and by the reference at fixed seeds; the winner, round and
final-status distributions must be homogeneous (chi-square test of the two count tables),
rejecting only at p < 1e-6 so that noise never fails a build while a real difference of a few
points in a win rate does. The basic fights are hand-written ``Fighter`` rows; the detailed
ones are scenarios, so the compile step is exercised too, and each is built so that the rules
it names decide a large share of its fights.

Power (``balance.rules.testing.detectable_shift``, one cell at 50%, alpha 1e-6): the basic
fights (5,000 reference trials against 100,000 kernel trials) find a shift of 3.5 points
half the time and 4.5 points nine times in ten; the detailed fights (4,000 against 100,000)
3.9 and 5.0 points. So these tests see whole fights, group choices and compaction, but only
shifts of several points; one attack's rules are checked exactly, at every dice
combination, by ``test_conformance.py``. A failure names the outcome, the fighter and
the bins that differ most (``helpers.differ``).
"""

from __future__ import annotations

import pytest

import balance
from balance.rules import get
from balance.rules.yags.compile import YagsFight, YagsRules
from balance.rules.yags.kernel.prepare import static_of
from tests.rules.helpers import (
    assert_stated_power,
)
from tests.rules.yags.fights import ALPHA, BASIC, DETAILED, agree


@pytest.mark.parametrize("name", sorted(BASIC))
def test_kernel_matches_reference(name: str) -> None:
    fs = BASIC[name]
    n_sides = len({f.side for f in fs})
    agree(YagsFight(tuple(fs), tuple(f"s{s}" for s in range(n_sides)), YagsRules(), 40),
          100_000, 5_000, name)


@pytest.mark.parametrize("name", sorted(DETAILED))
def test_kernel_matches_reference_detailed(name: str) -> None:
    loaded = balance.load_scenario(DETAILED[name])
    compiled = get("yags").compile(loaded.model, loaded.tables)
    assert static_of(compiled).on.any, f"{name}: no detailed rule can act"
    agree(compiled, 100_000, 4_000, name)


@pytest.mark.parametrize(("reference", "kernel", "half", "most"),
                         [(5_000, 100_000, 3.5, 4.5), (4_000, 100_000, 3.9, 5.0)])
def test_stated_power(reference: int, kernel: int, half: float, most: float) -> None:
    """The power the module docstring states is what ``detectable_shift`` gives."""
    assert_stated_power(__doc__, reference, kernel, half, most, ALPHA)
