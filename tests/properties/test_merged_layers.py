"""Merging layers that are each valid (issue 30, item 5): a side's default ``policy`` under a
member's own, and in Ymlad a roster entry under the member, may break a rule that ties fields
together (a shield and an off-hand weapon; a contact style against the fighter's style; a
side's ``charge: true`` over a member on foot). A fuzz found Ymlad's ``resolve_member``
letting pydantic's error escape as a traceback, exit 1, from ``validate`` and ``run``.

Property, in every rule system, over random layers each valid alone: the layered file and
the same member written whole (its merged fields inline, no side policy, no roster) are
either both refused, the layered one with located problems (file, line, field path) only,
or both accepted and compiled to the very same fight. So a layer can never slip a
combination past the checks a whole member gets, and never crash them. Derandomised:
the same examples on every run (no flakes, no example database).
"""

from __future__ import annotations

import pickle
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from balance.api import compile_scenario
from balance.errors import ScenarioError
from balance.io.scenario import load_scenario
from balance.io.tables import shipped_rows
from balance.models.ymlad import NESTED
from tests.invariants.generate import (
    PCT_ARMOUR,
    PCT_SHIELDS,
    PCT_WEAPONS,
    YAGS_SHIELDS,
    YAGS_WEAPONS,
    YMLAD_SHIELDS,
    YMLAD_WEAPONS,
)

FIXED = settings(derandomize=True, deadline=None, database=None, max_examples=80,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def subset(options: dict[str, st.SearchStrategy]) -> st.SearchStrategy[dict]:
    """A mapping holding some of ``options``' keys (each drawn from its strategy)."""
    return st.fixed_dictionaries({}, optional=options)


YAGS_POLICY = {
    "target": st.sampled_from(["engage", "weakest", "spread", "first"]),
    "charge": st.booleans(), "attack_mount": st.booleans(),
    "manoeuvre": st.sampled_from(["none", "improved_damage", "knockdown", "disarm", "trip"]),
    "yield_at": st.sampled_from(["never", "heavy", "critical"]),
    "defences": st.sampled_from(["auto", 0, 2]), "step_back": st.booleans(),
}
YAGS_MEMBER = {
    "weapon": st.sampled_from(YAGS_WEAPONS),
    "off_hand": st.sampled_from([*YAGS_SHIELDS, "dagger"]),
    "stance": st.sampled_from(["normal", "aggressive", "defensive"]),
    "rank": st.sampled_from([1, 2]),
    "mount": subset({"warhorse": st.booleans()}),
    "skills": st.just({"single_weapon": 4, "riding": 3}),
    "policy": subset(YAGS_POLICY),
}
PCT_POLICY = {
    "defence": st.sampled_from(["auto", "parry", "dodge"]),
    "movement": st.sampled_from(["auto", "close", "hold"]), "disarm": st.booleans(),
    "knockback": st.booleans(), "entangle": st.booleans(), "brace": st.booleans(),
    "yield_at": st.sampled_from([0, 4, "major_wound"]), "target": st.sampled_from(["engage",
                                                                                   "first"]),
}
PCT_MEMBER = {
    "weapon": st.sampled_from(PCT_WEAPONS), "shield": st.sampled_from(PCT_SHIELDS),
    "off_hand": st.sampled_from(PCT_WEAPONS), "armour": st.sampled_from(PCT_ARMOUR),
    "skills": st.just({"attack": 60, "shield": 40}),
    "policy": subset(PCT_POLICY),
}
YMLAD_POLICY = {
    "style": st.sampled_from(["missile", "formation", "melee", "close"]),
    "contact_style": st.sampled_from(["formation", "melee", "close"]),
    "harm": st.sampled_from(["best", "stun", "grapple"]), "charge": st.booleans(),
    "lever": st.booleans(), "target": st.sampled_from(["engage", "first"]),
}
YMLAD_FIGHTER = {
    "weapon": st.sampled_from(YMLAD_WEAPONS), "shield": st.sampled_from(YMLAD_SHIELDS),
    "off_hand": st.sampled_from(["dagger", "knife", "short_sword", "long_sword"]),
    "missile": st.sampled_from(sorted(shipped_rows("ymlad")["missile_weapons"])),
    "mounted": st.sampled_from(["no", "walking"]),
    "skills": subset({"melee": st.integers(0, 6), "close": st.integers(0, 6)}),
    "policy": subset(YMLAD_POLICY),
}
ROSTER = sorted(shipped_rows("ymlad")["roster"])


@st.composite
def layers(draw, system: str) -> dict[str, Any]:
    """The side's policy, the member's own fields and (Ymlad) a roster entry or none."""
    if system == "yags":
        return {"side": draw(subset(YAGS_POLICY)), "member": draw(subset(YAGS_MEMBER))}
    if system == "percentile":
        return {"side": draw(subset(PCT_POLICY)), "member": draw(subset(PCT_MEMBER))}
    return {"side": draw(subset(YMLAD_POLICY)), "member": draw(subset(YMLAD_FIGHTER)),
            "roster": draw(st.none() | st.sampled_from(ROSTER))}


def scenario(system: str, member: dict, side_policy: dict | None = None) -> dict:
    side = {"name": "a", "members": [member]}
    if side_policy:
        side["policy"] = side_policy
    foe = {"yags": {"weapon": "long_sword", "skills": {"single_weapon": 4}},
           "percentile": {"weapon": "broadsword", "skills": {"attack": 60}},
           "ymlad": {"weapon": "battle_sword", "skills": {"melee": 4}}}[system]
    return {"name": "layers", "ruleset": system, "max_rounds": 10,
            "sides": [side, {"name": "b", "members": [foe]}]}


def layered(system: str, case: dict) -> dict:
    member = dict(case["member"])
    if case.get("roster"):
        member["roster"] = case["roster"]
    return scenario(system, member, case["side"])


def whole(system: str, case: dict) -> dict:
    """The same member written whole: every layer's fields merged into the member itself,
    as the rule system merges them (the member's keys win; nested blocks key by key)."""
    merged: dict[str, Any] = {}
    if case["side"]:
        merged["policy"] = dict(case["side"])
    stack = [case["member"]]
    if case.get("roster"):
        entry = dict(shipped_rows("ymlad")["roster"][case["roster"]])
        entry.pop("note", None)
        name = entry.pop("name", None)
        stack = [entry, {**({"name": name} if name else {}), **case["member"]}]
    for layer in stack:
        for key, value in layer.items():
            nested = key in NESTED or key == "policy"
            if nested and isinstance(merged.get(key), dict) and isinstance(value, dict):
                merged[key] = {**merged[key], **value}
            else:
                merged[key] = value
    return scenario(system, merged)


def outcome(data: dict, folder: Path) -> tuple[str, Any]:
    """("ok", the compiled fight's bytes) or ("refused", the problems) for a YAML file of
    ``data``; anything else escaping is the bug this test is about."""
    path = folder / "s.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    try:
        loaded = load_scenario(path)
        _, fight = compile_scenario(loaded)
    except ScenarioError as err:
        return "refused", err.problems
    return "ok", pickle.dumps(fight)


def valid_alone(system: str, case: dict, folder: Path) -> bool:
    """Each layer, on its own, is a valid scenario."""
    alone = [scenario(system, case["member"])]
    if case["side"]:
        alone.append(scenario(system, {}, case["side"]))
    if case.get("roster"):
        alone.append(scenario(system, {"roster": case["roster"]}))
    return all(outcome(d, folder)[0] == "ok" for d in alone)


@pytest.mark.parametrize("system", ["yags", "percentile", "ymlad"])
def test_layers_merge_like_a_member_written_whole(system: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)

        @FIXED
        @given(case=layers(system))
        def check(case: dict) -> None:
            assume(valid_alone(system, case, folder))
            got, detail = outcome(layered(system, case), folder)
            want, expected = outcome(whole(system, case), folder)
            assert got == want, (case, detail, expected)
            if got == "refused":
                for p in detail:
                    assert p.file.endswith("s.yaml") and p.line is not None and p.path, p
                    assert "Traceback" not in p.message and "pydantic" not in p.message
            else:
                assert detail == expected, case

        check()


@pytest.mark.parametrize("member, side, where", [
    ({"roster": "skeleton_warrior", "off_hand": "dagger"}, None,
     "sides[0].members[0].off_hand: a fighter cannot carry both a shield and an off-hand "
     "weapon"),
    ({"roster": "neelay", "policy": {"style": "close"}}, None,
     "sides[0].members[0].policy: contact_style is for missile users"),
    ({"roster": "skeleton_warrior"}, {"style": "missile", "contact_style": "close"}, None),
])
def test_the_issues_examples_are_located_problems(tmp_path, capsys, member, side,
                                                  where) -> None:
    """The two crashes of the issue, from ``validate`` and ``run`` alike: exit 2 and the
    problem at the member's field with its line (the third case merges fine)."""
    from balance.cli import main

    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(scenario("ymlad", member, side), sort_keys=False))
    for command in ("validate", "run"):
        code = main([command, str(path), "--trials", "64"] if command == "run"
                    else [command, str(path)])
        err = capsys.readouterr().err
        if where is None:
            assert code == 0, err
            continue
        assert code == 2 and "Traceback" not in err
        assert "s.yaml:" in err and where in err
        assert "roster entry" in err
