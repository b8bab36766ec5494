"""Seed 004's DEX-rank rules and a few single-step rules, read off the kernel's state after
one step: who acts first, what drawing and a charge cost, shooting on the move, stunning,
and knockouts working on humanoids only. Deterministic or far beyond noise."""

from __future__ import annotations

import dataclasses

import numpy as np

import balance
from balance.engine.status import UNCONSCIOUS
from balance.rules import get
from balance.rules.percentile.kernel import fight as kernel
from balance.rules.percentile.kernel.prepare import static_of
from balance.rules.percentile.kernel.strike import Ctx
from tests.rules.helpers import percentile_member as member

N = 4000


def duel(a: dict, b: dict, **kw) -> dict:
    out = {"name": "ranks", "ruleset": "percentile", "trials": N, "seed": 1, "max_rounds": 20,
           "sides": [{"name": "a", "members": [a]}, {"name": "b", "members": [b]}]}
    out.update(kw)
    return out


def setup(scenario: dict, seed: int = 1, *, general: bool = False):
    """A fight's first-round state; ``general``: played by the general blow even if it is
    a plain duel (``kernel.duel`` plays only the states such a duel can reach)."""
    loaded = balance.load_scenario(scenario)
    fight = get("percentile").compile(loaded.model, loaded.tables)
    if general:
        fight = dataclasses.replace(fight, duel_by_table=False)
    rng = np.random.default_rng(seed)
    st = kernel.start(fight, N, rng)
    return fight, st, Ctx(fight, static_of(fight), st, rng, 1)


def keys_after_moving(scenario: dict) -> np.ndarray:
    """The DEX-rank keys (4 x rank) of round 1, after movement."""
    _fight, st, cx = setup(scenario)
    for step in (kernel.draw_order, kernel.choose_targets, kernel.move, kernel.declare):
        step(cx)
    return st.key // 4


def test_dex_ranks_moving_drawing_and_the_longer_weapon() -> None:
    """DEX ranks: DEX less a rank per yard moved; drawing costs five ranks ("drawing or
    sheathing a weapon is an action that costs five DEX-ranks"), nothing at 101%+; a closer
    with the shorter weapon strikes after the one it closes on ("a longer weapon is more
    likely to land the first blow")."""
    ranks = keys_after_moving(duel(member(characteristics={"DEX": 14}),
                                   member(characteristics={"DEX": 9},
                                          policy={"movement": "hold"}), distance=4))
    assert (ranks[0] == 14 - 3).all() and (ranks[1] == 9).all()
    spear = member(weapon="long_spear", shield=None, characteristics={"DEX": 8},
                   policy={"movement": "hold"})
    ranks = keys_after_moving(duel(member(characteristics={"DEX": 14}), spear, distance=2))
    assert (ranks[0] < ranks[1]).all()                     # 13, but after the spear's 8
    _fight, st, cx = setup(duel(member(characteristics={"DEX": 14}), member()))
    st.draw_pending[0] = True
    kernel.choose_targets(cx)
    kernel.declare(cx)
    assert (st.key[0] // 4 == 14 - 5).all() and not st.draw_pending.any()
    master = member(101, sidearm="dagger", skills={"sidearm": 101})
    assert get("percentile").compile(
        balance.load_scenario(duel(master, member())).model,
        balance.load_scenario(duel(master, member())).tables).fighters[0].items[2].draw_free


def test_a_full_move_charge_acts_on_the_last_rank() -> None:
    """Seed 004: "a charge is made at the end of a full movement": 12 yards ridden cost all
    12 ranks of a DEX 12 rider, and it still acts, on rank 1."""
    lancer = member(70, weapon="lance", shield=None, mount="warhorse", skills={"ride": 70},
                    characteristics={"DEX": 12})
    foot = member(50, policy={"movement": "hold"})
    ranks = keys_after_moving(duel(lancer, foot, distance=13))
    assert (ranks[0] == 1).all()
    on_foot = keys_after_moving(duel(dict(lancer, mount=None, move=12), foot, distance=13))
    assert (on_foot[0] == 0).all()                         # a footman's full move: no action


def test_no_shot_while_running_away_but_half_a_move_then_shoot() -> None:
    """Seed 004: "running while throwing or firing to the side isn't possible at all"; one
    may "move for half the round, then throw or shoot". A bowman backing away from a foe
    who closes runs more than half its move and shoots nothing that round; one who only
    needs to step back a little still shoots."""
    bow = member(90, weapon="self_bow", shield=None, policy={"movement": "keep_distance"})
    for distance, shoots in ((4, False), (27, True)):
        _fight, st, cx = setup(duel(bow, member(50, policy={"movement": "hold"}),
                                   distance=distance))
        for step in (kernel.draw_order, kernel.choose_targets, kernel.move, kernel.declare,
                     kernel.act):
            step(cx)
        assert bool(st.attacked[0].any()) == shoots, distance


def test_stunned_fighters_parry_but_do_not_attack() -> None:
    """Seed 004: a stunned adventurer "can still parry, dodge ... but can't attack"; each
    round a roll of CON x 5 or less ends it. (Only knock-backs and knockouts stun, so the
    stun is set by hand, and the duel played by the general blow.)"""
    _fight, st, cx = setup(duel(member(), member()), general=True)
    st.stunned[0] = True
    for step in (kernel.draw_order, kernel.recover_from_stun, kernel.choose_targets,
                 kernel.declare):
        step(cx)
    still = st.stunned[0].copy()      # (a fall later in the round may stun it anew)
    kernel.act(cx)
    assert 0.5 < 1 - still.mean() < 0.75                   # CON 12: 60% recover
    assert not st.attacked[0, still].any() and st.attacked[0, ~still].mean() > 0.9


def test_knockouts_work_on_humanoids_only() -> None:
    """Seed 004: a knockout "only works against humans and humanoids"."""
    club = member(95, weapon="club", shield=None, policy={"knockout": True},
                  characteristics={"STR": 18, "SIZ": 18, "DEX": 18})
    out = []
    for humanoid in (True, False):
        foe = member(30, shield=None, hit_points=8, armour="none", humanoid=humanoid,
                     policy={"defence": "none"})
        fight, st, _cx = setup(duel(club, foe))
        kernel.play_round(fight, st, np.random.default_rng(3), 1)
        out.append((st.wake_at[1] > 0).mean())
    assert out[0] > 0.3 and out[1] == 0.0
    assert (st.status[1] != UNCONSCIOUS).mean() < 1.0       # the blows still hurt


def test_the_longer_weapon_is_clumsier_up_close() -> None:
    """Seed 004: a longer weapon "is more likely to land the first blow ... but it's also
    clumsier to use up close": once both stand in reach without closing (here from the
    start), the shorter weapon strikes first whatever the DEX (rule ``up_close``)."""
    spear = member(weapon="long_spear", shield=None, characteristics={"DEX": 16})
    knife = member(weapon="dagger", shield=None, characteristics={"DEX": 8})
    ranks = keys_after_moving(duel(spear, knife))
    assert (ranks[0] < ranks[1]).all()
    ranks = keys_after_moving(duel(spear, knife, rules={"up_close": "none"}))
    assert (ranks[0] > ranks[1]).all()


def test_a_giant_strikes_every_foe_in_reach() -> None:
    """Seed 004: giants "can strike several targets at once with a single step or a single
    blow"; failing other guidance, "every ten points of it equal 1D6 points of damage dealt
    to every target caught in the area". A giant of STR 40 (4D6 a foe, no other damage)
    among three unarmoured men wounds more than one in a round, each by at least 4."""
    giant = member(90, weapon="club", shield=None, giant="STR",
                   characteristics={"STR": 40, "SIZ": 40, "CON": 40, "DEX": 18})
    men = member(40, shield=None, armour="none", count=3, hit_points=60,
                 policy={"defence": "none"})
    fight, st, _cx = setup(duel(giant, men))
    kernel.play_round(fight, st, np.random.default_rng(5), 1)
    lost = 60 - st.hp[1:]
    assert (lost > 0).sum(axis=0).mean() > 1.5
    assert lost[lost > 0].min() >= 4 and 12.5 < lost[lost > 0].mean() < 15.5   # 4D6: 14
