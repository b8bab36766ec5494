"""Explosions placed in a Yags fight (docs/rules/yags-explosions.md): one blast against exact
d20 convolutions, the rings, Size shifts, vehicle scale against heavy armour, a blast that
cannot act changing nothing, bigger charges never helping, names in ``at``, and the kernel
against the scalar reference. Every run is seeded; tolerances are stated in sigmas."""

from __future__ import annotations

import copy
import itertools
import math
from pathlib import Path

import numpy as np
import pytest
import yaml

import balance
from balance.engine.run import run_fight
from balance.engine.status import DEAD, STANDING
from balance.errors import ScenarioError
from balance.rules import get
from balance.rules.yags.compile import YagsFight, YagsRules
from balance.rules.yags.kernel import fight as kernel
from balance.rules.yags.kernel.blasts import explode, rings
from balance.rules.yags.kernel.prepare import static_of
from balance.rules.yags.reference.blasts import ring
from balance.rules.yags.rules.explosions import PlacedBlast
from balance.rules.yags.rules.tracks import MIXED, NO_DAMAGE, STUNS, WOUNDS
from tests.rules.yags.fights import agree, fighter

ROOT = Path(__file__).resolve().parents[3]
SIGMAS = 5
N = 200_000


# --- Exact answers ------------------------------------------------------------------------


def levels_pmf(damage: int, soak: int, *, halve: bool = False, no_soak: bool = False):
    """Exact P(levels = l), l = 0..: damage + d20 against soak + d20 (halved for vehicle
    scale against heavy armour; no soak roll at all without it), one level plus one per 5."""
    d = np.arange(1, 21)
    hit = damage + d[:, None]
    soak_roll = np.zeros((1, 1), dtype=int) if no_soak else soak + d[None, :]
    if halve:
        soak_roll = soak_roll // 2
    levels = np.where(hit >= soak_roll, 1 + (hit - soak_roll) // 5, 0)
    levels = np.broadcast_to(levels, (20, 20))
    return np.bincount(levels.ravel(), minlength=40) / 400


def close(counts: np.ndarray, p: np.ndarray, n: int) -> None:
    """Observed frequencies within SIGMAS standard errors of the exact probabilities."""
    freq = counts / n
    se = np.sqrt(p * (1 - p) / n)
    assert np.all(np.abs(freq - p) <= SIGMAS * se + 1e-12), (freq, p)


def blast(damage=20, radius=2.0, size=5, vehicle=False, distance=(1.0, 3.0, 5.0), **kw):
    return PlacedBlast(round=1, chance=kw.get("chance", 1.0), damage=damage, radius=radius,
                       size=size, vehicle=vehicle, distance=tuple(distance))


def hand_fight(*fighters, explosions=()) -> YagsFight:
    """Fighter rows by hand: the first on side 0, the rest on side 1."""
    fs = tuple(fighter(0 if i == 0 else 1, f"f{i}", **kw) for i, kw in enumerate(fighters))
    return YagsFight(fs, ("s0", "s1"), YagsRules(), 10, explosions=explosions)


def after_blast(fight: YagsFight, ex: PlacedBlast, n: int = N, seed: int = 3):
    """Each fighter's wounds, stuns and status right after one blast on a fresh fight."""
    rng = np.random.default_rng(seed)
    state = kernel.start(fight, n, rng)
    explode(ex, state, static_of(fight), rng)
    out = []
    for i in range(fight.n):
        mine = state.who == i
        out.append((state.wounds[mine], state.stuns[mine], state.status[mine]))
    return out


def test_one_blast_matches_the_exact_d20_convolution() -> None:
    """+20 against soak 12: wounds to 2 m, mixed (half stuns first) to 4 m, stuns to 6 m."""
    pmf = levels_pmf(20, 12)
    fight = hand_fight(dict(soak=12), dict(soak=12), dict(soak=12))
    (w0, s0, st0), (w1, s1, _), (w2, s2, _) = after_blast(fight, blast())
    # wounds ring: the wound track is the levels, held at fatal (6)
    exact = np.append(pmf[:6], pmf[6:].sum())
    close(np.bincount(w0, minlength=7), exact, N)
    assert not s0.any()
    # reaching fatal: health 3 x 4 + d20 against 20 + 5 per wound past 6; a 1 always fails
    d = np.arange(1, 21)
    dies = [np.mean((d == 1) | (12 + d < 20 + 5 * (lv - 6))) for lv in range(6, 40)]
    close(np.array([(st0 == DEAD).sum()]), np.array([pmf[6:] @ dies]), N)
    # mixed ring: stuns ceil(l / 2), wounds floor(l / 2)
    levels = np.arange(pmf.size)
    close(np.bincount(w1, minlength=7)[:5], np.bincount(levels // 2, pmf, 7)[:5], N)
    close(np.bincount(s1, minlength=7)[:5], np.bincount(levels - levels // 2, pmf, 7)[:5], N)
    # stun ring: stuns only
    assert not w2.any()
    close(np.bincount(s2, minlength=7)[:6], pmf[:6], N)


def test_soft_armour_is_doubled_in_the_stun_rings_only() -> None:
    """Soak against the blast: a non-impaling blow, stun-like in the mixed and stun rings."""
    soft = dict(soak=12, soak_vs=(16, 14, 16, 14, 20, 16, 20, 16))   # 12 + 4 soft leather
    fight = hand_fight(soft, soft, soft)
    (w0, _, _), (_, s1, _), (_, s2, _) = after_blast(fight, blast(), seed=4)
    close(np.bincount(w0, minlength=7)[:6], levels_pmf(20, 16)[:6], N)
    pmf = levels_pmf(20, 20)
    close(np.bincount(s2, minlength=7)[:6], pmf[:6], N)
    levels = np.arange(pmf.size)
    close(np.bincount(s1, minlength=7)[:5], np.bincount(levels - levels // 2, pmf, 7)[:5], N)


def test_size_shifts_the_rings_down_and_up() -> None:
    """A Size 20 body against a Size 5 grenade: two categories less (wounds become stuns,
    mixed ineffective: stuns halved, stuns nothing); a Size 1 body: unchanged (no type is
    above wounds), since only the type shifts."""
    big = dict(soak=12, size=20)
    fight = hand_fight(big, big, big)
    (w0, s0, _), (w1, s1, _), (w2, s2, _) = after_blast(fight, blast(), n=50_000)
    assert not (w0.any() or w1.any() or w2.any() or s2.any())
    pmf = levels_pmf(20, 12)
    close(np.bincount(s0, minlength=7)[:6], pmf[:6], 50_000)
    close(np.bincount(s1, minlength=7)[:6], np.bincount(np.arange(pmf.size) // 2, pmf, 7)[:6],
          50_000)


def test_vehicle_scale_against_heavy_armour() -> None:
    """A pound of TNT (+50, Ex-2, Size 10): no soak without heavy armour, the soak roll
    halved in it; 1000 lb (Size 20) shifts up two categories against Size 5 and ignores the
    heavy armour. Soak 80 (a storybook suit) keeps the levels in view."""
    plate, cloth = dict(soak=80, heavy_suit=True), dict(soak=80)
    fight = hand_fight(plate, cloth, plate)
    one = blast(damage=50, radius=2.0, size=10, vehicle=True, distance=(3.0, 3.0, 9.0))
    (w0, _, _), (w1, _, st1), (w2, _, _) = after_blast(fight, one, seed=5)
    exact = levels_pmf(50, 80, halve=True)
    close(np.bincount(w0, minlength=7), np.append(exact[:6], exact[6:].sum()), N)
    assert levels_pmf(50, 80, no_soak=True)[:11].sum() == 0      # 11+ levels: fatal
    assert (w1 == 6).all() and (st1 != STANDING).mean() > 0.99
    assert not w2.any()                                           # 9 m: beyond 2 x 2 m
    ton = blast(damage=150, radius=16.0, size=20, vehicle=True, distance=(40.0, 40.0, 65.0))
    (w0, _, _), (w1, _, _), (w2, _, _) = after_blast(fight, ton, n=20_000, seed=6)
    assert (w0 == 6).all() and (w1 == 6).all()                   # +50 at 40 m, no soak
    assert not w2.any()                                           # 65 m: -50, nothing


def test_rings_of_kernel_and_reference_agree_at_every_boundary() -> None:
    metres = sorted({0.0, 1.0, 2.0, 2.0001, 3.0, 4.0, 4.0001, 6.0, 6.0001, 16.0, 32.0, 33.0,
                     64.0, 64.5, 128.0, 128.1, 256.0, 1e5, math.inf})
    for ex in (blast(damage=30, radius=2.0, distance=metres),
               blast(damage=50, radius=2.0, vehicle=True, distance=metres),
               blast(damage=150, radius=16.0, vehicle=True, distance=metres),
               blast(damage=260, radius=32.0, vehicle=True, distance=metres)):
        damage, kind = rings(ex)
        for j, d in enumerate(metres):
            want = ring(ex, d)
            assert (int(damage[j]) if kind[j] != NO_DAMAGE else 0, int(kind[j])) == want, (ex, d)
            assert (kind[j] != NO_DAMAGE) == (d <= ex.reach)
    _, kind = rings(blast(damage=30, radius=2.0, distance=(2, 2.5, 4, 5, 6, 6.5)))
    assert kind.tolist() == [WOUNDS, MIXED, MIXED, STUNS, STUNS, NO_DAMAGE]
    # 1000 lb: +150 Ex-16; Minor to 32 m, +50 to 64 m, nothing beyond (seed: -100 a doubling)
    ton = blast(damage=150, radius=16.0, vehicle=True, distance=(16, 32, 33, 64, 65))
    damage, kind = rings(ton)
    assert damage.tolist()[:4] == [150, 150, 50, 50] and kind[4] == NO_DAMAGE


# --- Scenarios ----------------------------------------------------------------------------


def man(**kw) -> dict:
    base = {"attributes": {"dexterity": 3, "agility": 3, "strength": 3},
            "skills": {"single_weapon": 4}, "weapon": "short_sword", "armour": ["mail_vest"]}
    return {**base, **kw}


def scenario(explosions: list[dict], **kw) -> dict:
    sc = {"name": "b", "ruleset": "yags", "max_rounds": 30,
          "sides": [{"name": "a", "members": [man(name="A1"), man(name="A2")]},
                    {"name": "b", "members": [man(name="gob", count=2,
                                                  attributes={"size": 4})]}],
          "explosions": explosions}
    sc.update(kw)
    return sc


def compiled(sc: dict):
    loaded = balance.load_scenario(sc)
    return get("yags").compile(loaded.model, loaded.tables)


def tally(sc: dict, trials: int = 20_000, seed: int = 1):
    return run_fight(get("yags"), compiled(sc), trials, seed=seed)


def same(a, b) -> bool:
    return bool((a.wins == b.wins).all() and (a.rounds == b.rounds).all()
                and (a.status == b.status).all())


GRENADE = {"round": 2, "damage": 30, "radius": 2, "at": {"gob": 1, "A1": 3}}


def test_a_blast_that_cannot_act_changes_nothing() -> None:
    """chance 0, everyone beyond three radii, or a round the fight never reaches: the same
    numbers as the fight without the event, at the same seed (no dice are drawn)."""
    plain = tally(scenario([]))
    assert not same(plain, tally(scenario([GRENADE])))
    for ex in ({**GRENADE, "chance": 0}, {**GRENADE, "at": {"gob": 6.01, "A1": 100}},
               {**GRENADE, "round": 31}, {"tnt_lb": 1, "at": {"gob": 4.01}}):
        assert same(plain, tally(scenario([ex]))), ex


def test_names_in_at_a_member_places_all_copies_its_own_name_wins() -> None:
    fight = compiled(scenario([{**GRENADE, "at": {"gob": 1, "gob#2": 5, "A2": 0}}]))
    assert fight.explosions[0].distance == (math.inf, 0.0, 1.0, 5.0)
    ex = compiled(scenario([{"tnt_lb": 1000, "at": {"A1": 40}}])).explosions[0]
    assert (ex.damage, ex.radius, ex.size, ex.vehicle) == (150, 16.0, 20, True)
    ex = compiled(scenario([{"tnt_lb": 0.5, "size": 5, "at": {"A1": 1}}])).explosions[0]
    assert (ex.damage, ex.size, ex.vehicle) == (40, 5, False)


def test_an_unknown_name_is_a_clear_error() -> None:
    with pytest.raises(ScenarioError) as err:
        balance.run(scenario([GRENADE, {**GRENADE, "at": {"gobb": 1, "Boss": 2}}]), trials=10)
    text = str(err.value)
    assert "explosions[1].at.gobb: 'gobb' is not a known fighter (did you mean 'gob'" in text
    assert "explosions[1].at.Boss: 'Boss' is not a known fighter" in text
    assert "explosions[0]" not in text


@pytest.mark.parametrize("charges", [
    [{"damage": 10, "radius": 2}, {"damage": 25, "radius": 2}, {"damage": 40, "radius": 2}],
    [{"damage": 30, "radius": 1}, {"damage": 30, "radius": 2}, {"damage": 30, "radius": 4}],
    [{"tnt_lb": 0.25}, {"tnt_lb": 1}, {"tnt_lb": 100}],
])
def test_a_bigger_charge_never_helps_the_fighters_in_it(charges: list[dict]) -> None:
    """More damage, a wider radius or more TNT: right after the blast, each fighter in it
    is no more often standing, and its wounds are no smaller in distribution (P(wounds >= w)
    for every w), within 4 sigmas."""
    at = {"gob": 1.5, "A1": 3.5}
    n = 50_000
    seen = []
    for charge in charges:
        fight = compiled(scenario([{"round": 1, **charge, "at": at}]))
        seen.append(after_blast(fight, fight.explosions[0], n=n, seed=8))
    for before, after in itertools.pairwise(seen):
        for i in (0, 2, 3):                                   # A1 and both goblins
            (w0, _, st0), (w1, _, st1) = before[i], after[i]
            p0 = np.array([(st0 == STANDING).mean()] + [1 - (w0 >= w).mean() for w in range(7)])
            p1 = np.array([(st1 == STANDING).mean()] + [1 - (w1 >= w).mean() for w in range(7)])
            se = np.sqrt((p0 * (1 - p0) + p1 * (1 - p1)) / n)
            assert np.all(p1 <= p0 + 4 * se + 1e-12), (charge, i, p0, p1)


def test_the_grenade_scenario_helps_the_soldiers() -> None:
    path = ROOT / "scenarios" / "yags" / "grenade_into_melee.yaml"
    with_blast = balance.run(path, trials=20_000, seed=1).outcomes["soldiers"]
    loaded = balance.load_scenario(path)
    data = loaded.model.model_dump(mode="json", exclude_unset=True)
    dud = copy.deepcopy(data)
    dud["explosions"][0]["chance"] = 0
    without = balance.run(dud, trials=20_000, seed=1).outcomes["soldiers"]
    assert with_blast > without + 0.05


# --- Kernel against reference -------------------------------------------------------------

AGREEMENT = {
    # Basic rules: a grenade in round 2 that goes off half the time, every ring in use.
    "grenade_basic": scenario([{**GRENADE, "chance": 0.5,
                                "at": {"gob#1": 1, "gob#2": 3, "A1": 5, "A2": 7}}]),
    # Detailed: a rider and its horse (Size 15: the blast shifted down a category), a big
    # brute (Size 15), soft armour (doubled in the stun rings), a breastplate's vitals; two
    # blasts, the second vehicle scale against a heavy suit.
    "mounted_size_vitals_vehicle": {
        "name": "m", "ruleset": "yags", "max_rounds": 20,
        "sides": [
            {"name": "a", "members": [
                man(name="rider", skills={"single_weapon": 4, "riding": 3},
                    armour=["soft_leather_jacket", "soft_leather_trousers"], mount={}),
                man(name="plate", armour=["plate"], skills={"single_weapon": 3})]},
            {"name": "b", "members": [
                man(name="brute", attributes={"strength": 6, "size": 15, "health": 5},
                    weapon="fist", skills={"brawl": 4}),
                man(name="guard", armour=["breastplate"])]}],
        "explosions": [
            {"round": 1, "damage": 25, "radius": 2, "chance": 0.7,
             "at": {"rider": 2.5, "brute": 1, "guard": 4.5}},
            {"round": 3, "tnt_lb": 1, "chance": 0.5, "at": {"plate": 3, "guard": 5}}]},
    # A distance fight (docs/rules/yags-missiles.md): an archer shoots at a swordsman running
    # in from 40 m, who steps on a mine in round 2 (the blast's distances stay the scenario's).
    "distance_fight_mine": {
        "name": "d", "ruleset": "yags", "max_rounds": 20, "distance": 40,
        "sides": [
            {"name": "archer", "members": [man(
                name="Archer", armour=["soft_leather_jacket"], skills={"single_weapon": 2},
                missile={"weapon": "long_bow", "skill": 4})]},
            {"name": "swordsman", "members": [man(name="Swordsman", weapon="long_sword")]}],
        "explosions": [{"round": 2, "damage": 20, "radius": 1, "chance": 0.6,
                        "at": {"Swordsman": 1.5}}]},
    # Two blasts in one round, one on each side: the first often decides the fight, and the
    # second then does not go off (a decided fight is over); a Size 20 troll in plate under
    # a vehicle-scale blast still takes wounds (seed: heavy armour "always suffers wounds").
    "two_blasts_one_round_and_a_troll": {
        "name": "t", "ruleset": "yags", "max_rounds": 20,
        "sides": [
            {"name": "a", "members": [man(name="A1")]},
            {"name": "b", "members": [man(name="troll", armour=["plate"],
                                          attributes={"size": 20, "strength": 6})]}],
        "explosions": [{"round": 2, "damage": 40, "radius": 2, "chance": 0.6, "at": {"A1": 1}},
                       {"round": 2, "tnt_lb": 1, "chance": 0.8, "at": {"troll": 1}}]},
}


@pytest.mark.parametrize("name", sorted(AGREEMENT))
def test_kernel_matches_reference_with_blasts(name: str) -> None:
    agree(compiled(AGREEMENT[name]), 100_000, 4_000, name)


# --- A blast landing on a fighter, in a fight at a distance -----------------------------------


def crossbows_with_grenade(**blast) -> dict:
    """The bundled crossbowmen against the brute, with a grenade landing on the brute in
    round 3, when he has reached one of them (3 m away: the mixed ring of Ex-2)."""
    scenario = yaml.safe_load((ROOT / "scenarios" / "yags" / "crossbows_vs_brute.yaml")
                              .read_text())
    grenade = {"round": 3, "damage": 30, "radius": 2, "centre": "Brute", **blast}
    return {**scenario, "explosions": [grenade], "max_rounds": 30}


def test_a_blast_on_a_fighter_uses_the_positions_when_it_goes_off() -> None:
    """After two rounds the brute stands anywhere from 3 m to 16 m from each crossbowman:
    the blast on him hurts nobody farther than three radii, and him at ground zero."""
    system = get("yags")
    loaded = balance.load_scenario(crossbows_with_grenade())
    fight = system.compile(loaded.model, loaded.tables)
    assert fight.explosions[0].centre == 2 and fight.explosions[0].reaches_anyone
    n = 4000
    state = kernel.start(fight, n, np.random.default_rng(0))
    for round_no in (1, 2):
        kernel.play_round(fight, state, np.random.default_rng(round_no), round_no)
    cols = np.arange(n)
    gap = np.abs(state.pos - state.pos[(state.who == 2).argmax(axis=0), cols])
    before = state.wounds.copy(), state.stuns.copy(), state.status.copy()
    explode(fight.explosions[0], state, static_of(fight), np.random.default_rng(9))
    hurt = (state.wounds != before[0]) | (state.stuns != before[1])
    open_ = (before[2] == STANDING).sum(axis=0) >= 2
    assert not hurt[gap > 6].any()
    assert hurt[(gap == 0) & open_].mean() > 0.75 and hurt[(gap > 0) & (gap <= 6)].any()


def test_kernel_matches_reference_with_a_blast_on_a_fighter() -> None:
    loaded = balance.load_scenario(crossbows_with_grenade())
    agree(get("yags").compile(loaded.model, loaded.tables), 60_000, 3_000)


def test_the_grenade_on_the_brute_helps_the_crossbowmen() -> None:
    scenario = yaml.safe_load((ROOT / "scenarios" / "yags" / "crossbows_vs_brute.yaml")
                              .read_text())
    without = balance.run(scenario, trials=40_000, seed=4).outcomes["crossbowmen"]
    with_it = balance.run(crossbows_with_grenade(), trials=40_000, seed=4).outcomes[
        "crossbowmen"]
    assert with_it > without + SIGMAS * math.sqrt(0.5 / 40_000)


@pytest.mark.parametrize(("blast", "fight_at_distance", "message"), [
    ({"centre": "Brute", "at": {"Brute": 0}}, True, "one of the two"),
    ({"centre": "Crossbowman"}, True, "'Crossbowman' is 2 fighters; name one"),
    ({"centre": "Brut"}, True, "did you mean 'Brute'"),
    ({"centre": "Brute"}, False, "this fight has no positions"),
])
def test_a_blast_on_a_fighter_is_checked(blast, fight_at_distance, message) -> None:
    scenario = crossbows_with_grenade()
    scenario["explosions"] = [{"damage": 30, "radius": 2, **blast}]
    if not fight_at_distance:
        scenario["distance"] = 0
        for side in scenario["sides"]:
            for member in side["members"]:
                member.pop("missile", None)
    with pytest.raises(ScenarioError) as caught:
        loaded = balance.load_scenario(scenario)
        get("yags").compile(loaded.model, loaded.tables)
    assert message in str(caught.value)


def test_a_tnt_blast_keeps_the_tables_size_through_a_dump_and_reload() -> None:
    """The Size of a TNT blast is the TNT table's unless given, also after the scenario is
    written out and read back (as the Lanchester report and sweeps do)."""
    scenario = {**AGREEMENT["two_blasts_one_round_and_a_troll"]}
    loaded = balance.load_scenario(scenario)
    again = balance.load_scenario(loaded.model.model_dump(mode="json", exclude_none=True))
    for one in (loaded, again):
        f = get("yags").compile(one.model, one.tables)
        assert [b.size for b in f.explosions] == [5, 10]


def test_a_charge_too_small_to_hurt_reaches_nobody() -> None:
    loaded = balance.load_scenario({**AGREEMENT["grenade_basic"], "explosions": [
        {"tnt_lb": 1e-30, "chance": 0.5, "at": {"A1": 0}}]})
    f = get("yags").compile(loaded.model, loaded.tables)
    assert f.explosions[0].damage + 20 <= 0 and not f.explosions[0].reaches_anyone
