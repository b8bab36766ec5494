"""A plain duel played through its outcome table (``kernel.duel``) against the general blow.

The table is the general blow's rules compiled for the fighters of one duel (issue 19:
speed), so both ways of playing must give one distribution of winners, deciding rounds and
final states: each fight is played both ways and compared by a chi-square test (bins pooled
as in the agreement test), rejecting only at p < 1e-6. The fights make every kind of table
outcome act: landed blows, parries and dodges, stand-ups, attack, parry and dodge fumbles
(a broken weapon drawing a sidearm, a dropped one, a fall), parries a great axe breaks (the
general blow's rows), criticals that need criticals or not, an attack over 100%, a fighter
that fights on while down, a draw that costs the whole round, a longer weapon holding off a
shorter one, a fighter getting up by its round's defence.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from balance.dice import parse
from balance.engine.run import run_fight
from balance.engine.status import STANDING
from balance.rules.percentile.kernel import fight as kernel
from balance.rules.percentile.kernel.prepare import duel_table_of, static_of
from balance.rules.percentile.kernel.strike import Ctx
from balance.rules.percentile.rules.damage import CountTable, PmfTable
from tests.rules.helpers import percentile_member as member
from tests.rules.percentile.helpers import ALPHA, FIGHTS, fight, load, pooled_p

TRIALS = 60_000


@pytest.mark.parametrize("name", sorted(FIGHTS))
def test_the_table_plays_the_general_blow(name: str) -> None:
    system, compiled = load(FIGHTS[name])
    assert compiled.plain_duel
    general = dataclasses.replace(compiled, duel_by_table=False)
    assert not general.plain_duel
    fast = run_fight(system, compiled, TRIALS, seed=11)
    slow = run_fight(system, general, TRIALS, seed=12)
    assert pooled_p(fast.wins, slow.wins) > ALPHA
    assert pooled_p(fast.rounds, slow.rounds) > ALPHA
    for i in range(2):
        assert pooled_p(fast.status[i], slow.status[i]) > ALPHA


def declared_order(fight) -> np.ndarray:
    """The old way of learning a duel's order (before issue 28): the general steps
    (``kernel.fight.choose_targets``, ``declare``) played on one trial per ``order_case``, both
    standing, read as ``kernel.fight.act`` orders them."""
    case = np.arange(128)
    st = kernel.start(fight, case.size, np.random.default_rng(0))   # no dice
    st.status[:] = STANDING
    st.wield[0], st.wield[1] = (case >> 2) & 3, (case >> 4) & 3
    st.draw_pending[0], st.draw_pending[1] = case & 1, (case >> 1) & 1
    st.order[0] = case >> 6
    st.order[1] = 1 - st.order[0]
    cx = Ctx(fight, static_of(fight), st, np.random.default_rng(0), 1)
    kernel.choose_targets(cx)
    kernel.declare(cx)
    acts = st.key >= 2
    slot_key = np.where(acts, st.key * 2 + st.order, -1)
    first = slot_key[0] > slot_key[1]
    return (first | acts.any(axis=0) << 1 | acts.all(axis=0) << 2).astype(np.int8)


ORDER_FIGHTS = {
    **FIGHTS,
    "up_close_none": fight([member(60, weapon="long_spear", shield=None)],
                           [member(60, weapon="dagger", shield=None, sidearm="dagger")],
                           rules={"up_close": "none"}),
    "dex_7_against_a_spear": fight([member(50, sidearm="dagger", characteristics={"DEX": 7})],
                                   [member(50, weapon="short_spear",
                                           characteristics={"DEX": 9})]),
    "equal_dex_spear_and_dagger": fight(
        [member(50, weapon="short_spear", sidearm="dagger", shield=None)],
        [member(50, weapon="dagger", sidearm="short_sword", shield=None)]),
}


@pytest.mark.parametrize("name", sorted(ORDER_FIGHTS))
def test_the_order_table_is_the_general_declaration(name: str) -> None:
    """``DuelTable.order``, built by evaluating the declaration's rule functions over the
    128 cases (``rules.tables.drawn_rank``, ``rank_key``, ``strikes_after``), equals what the
    general steps declare on one trial per case (issue 28: the table no longer runs the
    kernel to learn it)."""
    _, compiled = load(ORDER_FIGHTS[name])
    assert compiled.plain_duel
    assert np.array_equal(duel_table_of(compiled).order, declared_order(compiled))


def test_rare_rules_take_the_general_path() -> None:
    """Any optional rule, three fighters or no defence at all: the general blow."""
    duel = [member(60)], [member(60, policy={"knockback": True})]
    assert not load(fight(*duel))[1].plain_duel
    assert not load(fight([member(60)], [member(60), member(50)]))[1].plain_duel
    assert not load(fight([member(60)], [member(60)],
                          rules={"defences_per_round": 0}))[1].plain_duel


def test_counted_damage_is_the_exact_distribution() -> None:
    """``CountTable`` holds each roll as often as the dice give it: 1D8+1+1D4-1D8 over 256
    equally likely dice faces, 2D6+1D10 over 360, so one table of 11,520 (their lcm with
    1D6's 6) per pmf. Dice that need more than the limit (3D7+1D9: 3,087) are refused."""
    table = PmfTable()
    pmfs = [parse(text).pmf() for text in ("1D8+1+1D4-1D8", "2D6+1D10", "1D6-1")]
    for pmf in pmfs:
        table.add(pmf)
    counted = CountTable.of(table)
    assert counted is not None and counted.denominator == 11_520
    for k, pmf in enumerate(pmfs, start=1):
        rolls = counted._values[k * 11_520:(k + 1) * 11_520]
        got = np.bincount(rolls - pmf.min_outcome, minlength=pmf.probs.size) / 11_520
        assert np.abs(got - pmf.probs).max() < 1e-12
    sevens = PmfTable()
    sevens.add(parse("3D7+1D9").pmf())
    assert CountTable.of(sevens, limit=3_000) is None
    assert CountTable.of(sevens, limit=4_000).denominator == 3_087
