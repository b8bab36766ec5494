"""docs/rules/yags-coverage.md stays true: its rows are whole, and every function a row names
runs when its rule acts.

The table maps each rule of seed 000 to its kernel function, its reference function and the
test that checks the rule itself; that every name points at something is the shared check
of every system's table (``balance.rules.coverage``, run by ``tests/rules/test_common.py``).
"""

from __future__ import annotations

import inspect
import sys
from functools import cache
from pathlib import Path

import pytest

from balance.rules import coverage
from tests.rules.yags import fights

ROOT = Path(__file__).resolve().parents[3]
ROWS = coverage.rows(coverage.table_path("yags", ROOT))


def test_the_table_has_every_section_and_a_test_or_a_reason_on_every_row() -> None:
    assert len(ROWS) >= 80
    for row in ROWS:
        assert list(row.cells) == ["rule", "seed's words", "kernel", "reference", "test"], row
        rule, words = row.cells["rule"], row.cells["seed's words"]
        assert rule and words, row
        assert row.left_out or row.tests, f"{rule}: no test named"
        assert row.left_out or (row.column("kernel") and row.column("reference")), rule


# --- Every row's functions are on its rule's path -------------------------------------------
#
# Existing is not enough: a row could name a function that never runs when its rule acts (the
# "fighting styles" row once named the stance modifiers' table). Each row below is played by
# the kernel (and, for the reference column, by the scalar reference) in a fight where its
# rule acts, with every Python call recorded; the row's named functions must be among them.
# The fights are the agreement tests' (``tests/rules/yags/fights.py``: basic, detailed, missile
# and group fights) and bundled scenario files, each played once (small trial counts: the
# calls, not the numbers, are checked).

KERNEL_TRIALS, REFERENCE_TRIALS = 1_000, 40

B, D, M, G, F, P = "basic:", "detailed:", "missile:", "group:", "file:", "path:"
# Fights of this file's own, for rules the agreement fights do not reach often enough.
PATH_FIGHTS = {
    # Even brawlers grappling each other: holds weak enough to escape from.
    "escape": {"name": "t", "ruleset": "yags", "max_rounds": 20, "sides": [
        {"name": "a", "members": [{"skills": {"brawl": 3}, "policy": {"manoeuvre": "grapple"}}]},
        {"name": "b", "members": [{"skills": {"brawl": 3}}]}]},
}
RULE_CASES: dict[str, tuple[str, ...]] = {
    "initiative": (B + "mirror",),
    "fumbled initiative": (B + "mirror",),
    "action order": (B + "two_guards_vs_hero",),
    "declaring defences": (B + "two_guards_vs_hero", D + "shield_vs_two_weapons"),
    "multiple-defence penalty": (B + "two_guards_vs_hero", D + "shield_vs_two_weapons"),
    "no defence declared": (B + "all_out_attack", D + "shield_vs_two_weapons"),
    "attack and defence rolls": (B + "mirror", D + "reach_spear_vs_dagger"),
    "base difficulty": (B + "all_out_attack", D + "shield_vs_two_weapons"),
    "damage and soak": (B + "mirror", D + "reach_spear_vs_dagger"),
    "wound penalties": (B + "mirror", D + "reach_spear_vs_dagger"),
    "fatal-wound check": (B + "mirror", D + "reach_spear_vs_dagger"),
    "fighting on at fatal": (B + "mirror", D + "reach_spear_vs_dagger"),
    "stuns do not add": (B + "stuns_vs_wounds", D + "trip_and_charge_through"),
    "beaten check": (B + "stuns_vs_wounds", D + "trip_and_charge_through"),
    "stuns into wounds": (B + "stuns_vs_wounds", D + "trip_and_charge_through"),
    "mixed damage": (B + "aggressive_mixed_vs_defensive", D + "soft_armour_strength_space"),
    "stances": (B + "aggressive_mixed_vs_defensive", D + "stance_plans"),
    "a stance each round (policy `stance_plan`)": (D + "stance_plans",),
    "declaring last with the higher initiative": (D + "stance_plans",),
    "movement": (M + "archer_vs_charge",),
    "end of a fight by yielding": (B + "yielding_fumbly",),
    "fatigue track": (B + "yielding_fumbly", D + "readings_of_issue_12"),
    "exhausted rest at once": (D + "other_actions",),
    "fatigue and exhaustion stack": (D + "readings_of_issue_12",),
    "size shifts": (D + "great_axe_vs_plate_and_size",),
    "ineffective damage": (D + "great_axe_vs_plate_and_size",),
    "explosions": (F + "scenarios/yags/grenade_into_melee.yaml",),
    "vehicle-scale damage": (F + "scenarios/yags/grenade_into_melee.yaml",),
    "stuns heal each morning": (F + "scenarios/yags/skirmish_aftermath.yaml",),
    "fighting styles": (D + "chain_and_wrong_style",),
    "wrong style": (D + "chain_and_wrong_style",),
    "weapon and shield": (D + "shield_vs_two_weapons",),
    "great weapon": (D + "great_axe_vs_plate_and_size",),
    "longshaft": (D + "reach_spear_vs_dagger",),
    "chain weapon": (D + "chain_and_wrong_style",),
    "minimum strength": (D + "soft_armour_strength_space",),
    "unarmed counter strike": (D + "reach_spear_vs_dagger",),
    "the hands of the attack": (D + "reach_spear_vs_dagger",),
    "crushing and knockback": (B + "mirror", D + "readings_of_issue_12"),
    "heavy, impaling, light": (D + "great_axe_vs_plate_and_size",),
    "thrusting": (D + "reach_spear_vs_dagger",),
    "reach: free strike on closing": (D + "reach_spear_vs_dagger",),
    "reach: inside the weapon's reach": (D + "reach_closing_and_retreat",),
    "reach: regaining distance": (D + "reach_closing_and_retreat",),
    "longer attacker ignores a strike": (D + "reach_spear_vs_dagger",),
    "confined space": (D + "soft_armour_strength_space",),
    "ranked fighting": (G + "three_vs_two_spread_weakest_ranks_morale",),
    "free strikes merge": (D + "grapple_and_break",),
    "automatic strike": (D + "grapple_and_break",),
    "armour: layering, heavy suits": (D + "soft_armour_strength_space",),
    "soft armour": (D + "soft_armour_strength_space",),
    "vitals": (D + "great_axe_vs_plate_and_size",),
    "restrictive armour": (D + "great_axe_vs_plate_and_size",),
    "prone": (D + "trip_and_charge_through",),
    "focused": (D + "shield_vs_two_weapons",),
    "grappled": (D + "grapple_and_break",),
    "fumbled attack": (B + "two_guards_vs_hero", D + "disarm_and_rearm"),
    "fumble results chosen": (B + "two_guards_vs_hero", D + "disarm_and_rearm"),
    "drawing a weapon": (D + "other_actions", D + "disarm_and_rearm"),
    "dropping and picking up": (D + "disarm_and_rearm",),
    "re-rolling initiative": (D + "other_actions",),
    "retreat": (D + "other_actions",),
    "stunts": (D + "other_actions",),
    "required success": (D + "damage_manoeuvres",),
    "manoeuvre fatigue": (D + "damage_manoeuvres",),
    "improved and massive damage": (D + "damage_manoeuvres",),
    "knockdown": (D + "damage_manoeuvres",),
    "vital strike": (D + "damage_manoeuvres", D + "readings_of_issue_12"),
    "disarm": (D + "disarm_and_rearm",),
    "overwhelming attack": (D + "damage_manoeuvres",),
    "grapple and holds": (D + "grapple_and_break",),
    "trip": (D + "trip_and_charge_through",),
    "charge through": (D + "trip_and_charge_through",),
    "escape hold": (D + "grapple_and_break", P + "escape"),
    "break limb, break neck": (D + "grapple_and_break", D + "grapple_switch_and_limbs"),
    "riding checks": (D + "riding_checks",),
    "mounted charge": (D + "mounted_charge_and_mount",),
    "fighting the mount": (D + "mounted_charge_and_mount",),
    "distance difficulty": (M + "archer_vs_charge",),
    "snap and careful shots": (M + "archer_vs_charge",),
    "defence against a shot": (M + "archer_vs_charge",),
    "threat bands": (M + "threat_bands_in_melee",),
    "giving ground out of a band": (M + "archer_vs_charge",),
    "Lo-0 weapons": (M + "archer_vs_charge",),
    "Lo-X loading": (M + "crossbows_vs_brute",),
    "rate of fire": (M + "rifle_magazine_and_ammunition",),
    "drawing a missile weapon": (M + "archer_vs_charge",),
    "range band damage": (M + "archer_vs_charge",),
    "missile fumbles": (M + "archer_vs_charge",),
    "archery from horseback": (M + "horse_archer_and_move_band",),
    "who attacks whom (default `engage`)": (F + "scenarios/groups/yags_two_guards_vs_hero.yaml",),
    "ties and the choosing order": (G + "three_vs_two_spread_weakest_ranks_morale",),
    "defence slots in seat order": (G + "five_vs_five_first_capped",),
    "morale at the end of the round": (G + "three_vs_two_spread_weakest_ranks_morale",),
    "free strikes on a runner": (G + "three_vs_two_spread_weakest_ranks_morale",),
    "very large animals as attackers": (D + "great_axe_vs_plate_and_size",),
}


def _fight_of(case: str):
    """The compiled fight of a case (compiling it is part of its path: the shared compile
    functions run there)."""
    import balance
    from balance.rules import get
    from balance.rules.yags.compile import YagsFight, YagsRules

    kind, name = case.split(":", 1)
    if kind == "basic":
        fs = fights.BASIC[name]
        sides = tuple(f"s{s}" for s in range(len({f.side for f in fs})))
        return YagsFight(tuple(fs), sides, YagsRules(), 40)
    if kind == "file":
        loaded = balance.load_scenario(ROOT / name)
    else:
        table = {"detailed": fights.DETAILED, "path": PATH_FIGHTS,
                 "missile": fights.MISSILE_FIGHTS,
                 "group": fights.GROUP_FIGHTS}[kind]
        loaded = balance.load_scenario(table[name])
    return get("yags").compile(loaded.model, loaded.tables)


def _calls(play) -> frozenset[tuple[str, str]]:
    """(file under the repository, qualified name) of every function of ``balance`` that
    ``play()`` calls (a trace of call events only: no line tracing)."""
    package = str(ROOT / "balance") + "/"
    seen: set[tuple[str, str]] = set()

    def tracer(frame, event, arg):
        code = frame.f_code
        if event == "call" and code.co_filename.startswith(package):
            seen.add((code.co_filename[len(str(ROOT)) + 1:], code.co_qualname))

    old = sys.gettrace()
    sys.settrace(tracer)
    try:
        play()
    finally:
        sys.settrace(old)
    return frozenset(seen)


@cache
def case_calls(case: str, engine: str) -> frozenset[tuple[str, str]]:
    """Every call made compiling the case and playing it by ``engine`` (kernel, reference)."""
    from balance.engine.run import run_fight, run_reference
    from balance.rules import get

    system = get("yags")

    def play():
        fight = _fight_of(case)
        if engine == "kernel":
            run_fight(system, fight, KERNEL_TRIALS, seed=5)
        else:
            run_reference(system, fight, REFERENCE_TRIALS, seed=5)

    return _calls(play)


def _named(names: list[str]) -> list[tuple[str, str]]:
    """The functions named, as (file from the repository's root, qualified name)."""
    out = []
    for name in names:
        obj = inspect.unwrap(coverage.resolve("yags", name))
        file = Path(inspect.getsourcefile(obj)).resolve().relative_to(ROOT)
        out.append((str(file), obj.__qualname__))
    return out


PATH_ROWS = [r for r in ROWS if not r.left_out]


def test_every_row_with_functions_has_a_fight_that_plays_its_rule() -> None:
    assert {r.rule for r in PATH_ROWS} == set(RULE_CASES)


# The hours after a fight are played once, vectorised, after the kernel's fight (the
# reference plays the fight only): a row's reference function there is checked on that path.
AFTER_THE_FIGHT = "balance/rules/yags/rules/aftermath.py"


def _runs(named: tuple[str, str], called: set[tuple[str, str]]) -> bool:
    """Was the function (or, for a class, any of its methods) called?"""
    file, name = named
    return any(f == file and (n == name or n.startswith(name + ".")) for f, n in called)


@pytest.mark.parametrize("row", PATH_ROWS, ids=lambda row: row.rule)
def test_every_named_function_runs_where_its_rule_acts(row: coverage.Row) -> None:
    """The kernel (reference) functions a row names are called when the kernel (reference)
    plays a fight in which the row's rule acts."""
    rule = row.rule
    for engine in ("kernel", "reference"):
        for named in _named(row.column(engine)):
            path = "kernel" if named[0] == AFTER_THE_FIGHT else engine
            called = set().union(*(case_calls(c, path) for c in RULE_CASES[rule]))
            assert _runs(named, called), \
                f"{rule}: the {path} never calls {':'.join(named)} in {RULE_CASES[rule]}"
