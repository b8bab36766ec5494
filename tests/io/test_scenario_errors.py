"""Bad scenario files: each mistake gives the right message at the right line and column.

Every case starts from the good file ``GOOD`` below (line numbers in the comments) and breaks
one thing. The property tests at the end feed the loader arbitrary text and data: whatever
comes in, the only exception out is :class:`ScenarioError`.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
import string
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from balance.errors import Problem, ScenarioError
from balance.io import yamlfile
from balance.io.scenario import load_scenario
from balance.io.yamlfile import MAX_BYTES, read_yaml

GOOD = """\
name: duel at dawn
ruleset: yags
trials: 1000
seed: 3
sides:
  - name: red
    members:
      - name: Ana
        skills: {single_weapon: 4}
        weapon: long_sword
        armour: [mail_hauberk, helm]
        stance: aggressive
  - name: blue
    members:
      - count: 2
        weapon: mace
        policy: {defences: 1}
"""
# lines: 1 name, 3 trials, 5 sides, 6 "- name: red", 10 weapon, 11 armour, 12 stance,
#        13 "- name: blue", 15 count, 16 weapon, 17 policy


def problems(tmp_path: Path, text: str, name: str = "s.yaml") -> tuple[Problem, ...]:
    """The problems that loading ``text`` from a file reports (it must fail)."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    assert all(p.file == str(path) for p in caught.value.problems)
    return caught.value.problems


def one(tmp_path: Path, text: str) -> Problem:
    (problem,) = problems(tmp_path, text)
    return problem


def where(problem: Problem) -> tuple[str, int | None, int | None]:
    return problem.path, problem.line, problem.column


def test_the_good_file_is_good(tmp_path):
    (tmp_path / "good.yaml").write_text(GOOD)
    assert load_scenario(tmp_path / "good.yaml").model.name == "duel at dawn"


# --- field problems: (change to GOOD, field path, line, column, message or its fragments) ----

CASES = {
    "unknown weapon": (
        ("weapon: long_sword", "weapon: long_swrod"), "sides[0].members[0].weapon", 10, 17,
        "'long_swrod' is not a known weapon (did you mean 'long_sword'"),
    "unknown armour": (
        ("helm]", "plate+]"), "sides[0].members[0].armour[1]", 11, 32,
        "'plate+' is not a known armour"),
    "wrong type": (
        ("trials: 1000", "trials: [1000]"), "trials", 3, 9,
        "expected an integer, found a list"),
    "no where a number belongs": (
        ("count: 2", "count: no"), "sides[1].members[0].count", 15, 16,
        "expected an integer, found False (YAML reads yes/no/on/off as true/false; "
        "quote it or use a number)"),
    "quoted number": (
        ("count: 2", "count: '2'"), "sides[1].members[0].count", 15, 16,
        "expected an integer, found '2' (remove the quotes)"),
    "1e6 is text in YAML": (
        ("trials: 1000", "trials: 1e6"), "trials", 3, 9,
        "expected an integer, found '1e6' (YAML reads 1e6 as text; write 1000000)"),
    "one side only": (
        ("  - name: blue\n    members:\n      - count: 2\n        weapon: mace\n"
         "        policy: {defences: 1}\n", ""), "sides", 6, 3,
        "a scenario needs at least 2 sides, found 1"),
    "negative trials": (
        ("trials: 1000", "trials: -5"), "trials", 3, 9,
        "should be greater than 0, found -5"),
    "unknown top-level key": (
        ("seed: 3", "sede: 3"), "", 4, 1, "unknown key 'sede' (did you mean 'seed'"),
    "unknown member key": (
        ("weapon: mace", "weapn: mace"), "sides[1].members[0]", 16, 9,
        "unknown key 'weapn' (did you mean 'weapon'?)"),
    "bad stance": (
        ("stance: aggressive", "stance: agressive"), "sides[0].members[0].stance", 12, 17,
        "expected one of 'normal', 'aggressive', 'defensive', found 'agressive' "
        "(did you mean 'aggressive'?)"),
    "missing side name": (
        ("  - name: blue\n    members:", "  - members:"), "sides[1]", 13, 5,
        "missing required key 'name'"),
    "a string for a list": (
        ("armour: [mail_hauberk, helm]", "armour: helm"), "sides[0].members[0].armour", 11, 17,
        "expected a list, found 'helm' (write [helm] for a list of one)"),
    "a key with no value": (
        ("weapon: mace", "weapon:"), "sides[1].members[0].weapon", 16, 16,
        "expected a string, found nothing (the key has no value)"),
    "union field out of range": (
        ("defences: 1", "defences: 9"), "sides[1].members[0].policy.defences", 17, 28,
        ("should be less than or equal to ", ", found 9")),
    "union field wrong type": (
        ("defences: 1", "defences: some"), "sides[1].members[0].policy.defences", 17, 28,
        "expected 'auto' or an integer, found 'some'"),
    "empty name": (
        ("name: red", "name: ''"), "sides[0].name", 6, 11, "must not be empty"),
    "unknown ruleset": (
        ("ruleset: yags", "ruleset: chess"), "ruleset", 2, 10,
        ("'chess' is not an available ruleset (available: ", "yags")),
    "misspelt ruleset": (
        ("ruleset: yags", "ruleset: yagz"), "ruleset", 2, 10,
        "'yagz' is not an available ruleset (did you mean 'yags'?"),
    "missing ruleset": (
        ("ruleset: yags\n", ""), "", 1, 1, ("missing required key 'ruleset' (one of: ", "yags")),
    "a boolean key": (
        ("seed: 3", "yes: 3"), "true", 4, 1,
        "key True is not text (YAML reads yes/no/on/off as true/false; quote it)"),
    "bad patch value": (
        ("seed: 3", "seed: 3\ntables: {weapons: {long_sword: {damage: 800}}}"),
        "tables.weapons.long_sword.damage", 5, 41,
        ("should be less than or equal to ", ", found 800")),
    "new weapon missing fields": (
        ("seed: 3", "seed: 3\ntables:\n  weapons:\n    laser_sword: {attack: 5}"),
        "tables.weapons.laser_sword", 7, 18, "a new weapon needs 'style'"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_field_problem_names_path_line_column_and_cause(tmp_path, case):
    (old, new), path, line, column, message = CASES[case]
    assert old in GOOD
    problem = one(tmp_path, GOOD.replace(old, new, 1))
    assert where(problem) == (path, line, column)
    for fragment in (message,) if isinstance(message, str) else message:
        assert fragment in problem.message


def test_missing_sides(tmp_path):
    problem = one(tmp_path, GOOD.split("sides:")[0])
    assert (problem.message, problem.path, problem.line) == ("missing required key 'sides'", "", 1)


def test_compiler_style_text(tmp_path):
    problem = one(tmp_path, GOOD.replace("weapon: mace", "weapn: mace"))
    assert str(problem) == (f"{tmp_path / 's.yaml'}:16:9: sides[1].members[0]: unknown key "
                            "'weapn' (did you mean 'weapon'?)")


def test_every_problem_of_a_file_is_reported_together_in_line_order(tmp_path):
    text = (GOOD.replace("trials: 1000", "trials: -1").replace("stance: aggressive", "stance: x")
            .replace("count: 2", "count: no").replace("weapon: mace", "weapn: mace"))
    found = problems(tmp_path, text)
    assert [p.line for p in found] == [3, 12, 15, 16]
    assert [p.path for p in found] == ["trials", "sides[0].members[0].stance",
                                       "sides[1].members[0].count", "sides[1].members[0]"]


def test_table_and_reference_problems_are_reported_together(tmp_path):
    text = GOOD.replace("weapon: mace", "weapon: maze").replace(
        "seed: 3", "seed: 3\ntables: {armour: {kevlar: {covers: [torso]}}}")
    found = problems(tmp_path, text)
    assert [(p.path, p.line) for p in found] == [
        ("tables.armour.kevlar", 5), ("sides[1].members[0].weapon", 17)]
    assert "a new armour needs 'protection'" in found[0].message
    assert "'maze' is not a known weapon (did you mean 'mace'?)" in found[1].message


def test_a_reference_to_a_broken_new_row_is_not_reported_twice(tmp_path):
    text = GOOD.replace("weapon: mace", "weapon: laser").replace(
        "seed: 3", "seed: 3\ntables: {weapons: {laser: {attack: 5}}}")
    assert one(tmp_path, text).path == "tables.weapons.laser"


def test_a_dict_reports_paths_without_lines():
    bad = {"name": "x", "ruleset": "yags", "trials": True,
           "sides": [{"name": "a", "members": [{}]}]}
    with pytest.raises(ScenarioError) as caught:
        load_scenario(bad)
    assert [(p.file, p.path, p.line) for p in caught.value.problems] == [
        ("<dict>", "trials", None), ("<dict>", "sides", None)]
    assert str(caught.value.problems[0]).startswith("<dict>: trials: expected an integer")


@pytest.mark.parametrize(("value", "message"), [
    (dt.date(2024, 5, 1), "found a date (2024-05-01"),
    ({1, 2}, "found a set (use a list)"),
    (b"raw", "found binary data"),
    (10**500, "far too large"),
])
def test_a_dict_with_values_no_scenario_can_hold(value, message):
    with pytest.raises(ScenarioError, match=re.escape(message)):
        load_scenario({"name": "x", "ruleset": "yags", "seed": value, "sides": []})


def test_a_dict_that_contains_itself():
    side = {"name": "a", "members": []}
    side["members"].append(side)
    with pytest.raises(ScenarioError, match="contains itself"):
        load_scenario({"name": "x", "ruleset": "yags", "sides": [side, side]})


def test_not_a_path_or_mapping():
    with pytest.raises(ScenarioError, match="file path or a mapping"):
        load_scenario(42)


# --- file and YAML problems ------------------------------------------------------------------
# Run on both parsers: libyaml's where PyYAML has it (the default), and PyYAML's pure Python.

PARSERS = {"python": yamlfile._PyLoader, "libyaml": yamlfile._libyaml_loader()}


@pytest.fixture(params=list(PARSERS), autouse=False)
def parser(request, monkeypatch):
    if PARSERS[request.param] is None:
        pytest.skip("PyYAML was built without libyaml")
    monkeypatch.setattr(yamlfile, "_Loader", PARSERS[request.param])
    return request.param



def test_yaml_syntax_error_says_what_to_do_where(parser, tmp_path):
    """The parser's words ("expected ',' or ']'") become the slip and its fix, at the line
    where the bracket was opened."""
    problem = one(tmp_path, GOOD.replace("[mail_hauberk, helm]", "[mail_hauberk, helm"))
    assert problem.line == 11 and problem.column is not None
    assert "the '[' opened on line 11 is not closed" in problem.message


def test_a_tab_in_indentation(parser, tmp_path):
    problem = one(tmp_path, "name: x\n\truleset: yags\n")
    assert (problem.line, problem.column) == (2, 1)
    assert "tab" in problem.message


def test_deeply_nested_brackets(parser, tmp_path):
    problem = one(tmp_path, "a: " + "[" * 5000)
    assert problem.message == "nesting too deep (more than 64 levels)"
    assert problem.line == 1


def test_nesting_through_aliases_is_counted(parser, tmp_path):
    text = "a: &a " + "[" * 40 + "]" * 40 + "\nb: " + "[" * 40 + "*a" + "]" * 40 + "\n"
    assert "nesting too deep" in one(tmp_path, text).message


def test_billion_laughs(parser, tmp_path):
    lines = ["a: &a [" + ", ".join(["lol"] * 9) + "]"]    # 9 levels of 9: 9**9 values
    lines += [f"{n}: &{n} [" + ", ".join([f"*{p}"] * 9) + "]"
              for p, n in itertools.pairwise("abcdefghi")]
    start = time.perf_counter()
    problem = one(tmp_path, "\n".join(lines) + "\n")
    assert time.perf_counter() - start < 2
    assert problem.message.startswith("too many aliases (alias bomb?)")
    assert problem.line is not None


def test_more_than_a_hundred_aliases(parser, tmp_path):
    problem = one(tmp_path, "x: &x 1\ny: [" + ", ".join(["*x"] * 101) + "]\n")
    assert problem.message.startswith("too many aliases (alias bomb?)")
    assert problem.line == 2


def test_an_alias_inside_its_own_anchor(parser, tmp_path):
    assert "contains it" in one(tmp_path, "a: &a [1, *a]\n").message


@pytest.mark.parametrize("text", ["", "   \n\n", "# only a comment\n", "~\n", "null\n", "---\n"])
def test_empty_file(tmp_path, text):
    problem = one(tmp_path, text)
    assert "empty" in problem.message or "holds no scenario" in problem.message


def test_file_over_one_mib(tmp_path):
    text = GOOD + ("# padding\n" * (MAX_BYTES // 10 + 1))
    assert "larger than 1 MiB" in one(tmp_path, text).message
    with pytest.raises(ScenarioError, match="larger than 1 MiB"):
        read_yaml(text, "big.yaml")


def test_duplicate_keys_name_both_lines(parser, tmp_path):
    text = GOOD.replace("weapon: mace", "weapon: mace\n        count: 3")
    problem = one(tmp_path, text)
    assert where(problem) == ("sides[1].members[0]", 17, 9)
    assert problem.message.startswith("duplicate key 'count' (first at line 15;")


def test_every_duplicate_key_is_reported(parser, tmp_path):
    text = GOOD.replace("seed: 3", "seed: 3\nseed: 4").replace("weapon: mace", "weapon: mace\n"
                                                             "        weapon: club")
    assert [p.line for p in problems(tmp_path, text)] == [5, 18]


def test_merge_keys_are_not_duplicates(parser, tmp_path):
    text = GOOD.replace("      - count: 2\n", "      - <<: {count: 1}\n        count: 2\n")
    (tmp_path / "m.yaml").write_text(text)
    assert load_scenario(tmp_path / "m.yaml").model.sides[1].members[0].count == 2


@pytest.mark.parametrize(("text", "found"), [
    ("- name: x\n- ruleset: yags\n", "found a list"),
    ("just text\n", "found 'just text'"),
])
def test_top_level_must_be_a_mapping(tmp_path, text, found):
    problem = one(tmp_path, text)
    assert problem.message.startswith("a scenario file must be a mapping")
    assert found in problem.message and problem.line == 1


def test_two_documents(parser, tmp_path):
    problem = one(tmp_path, GOOD + "---\nname: other\n")
    assert "one YAML document" in problem.message and problem.line == 18


def test_unsafe_and_bad_tags(parser, tmp_path):
    assert "could not determine a constructor" in one(
        tmp_path, "name: !!python/object/apply:os.system [ls]\n").message
    problem = one(tmp_path, "seed: !!int abc\n")
    assert (problem.line, problem.column) == (1, 7)
    assert "cannot read 'abc' as int" in problem.message


def test_control_characters(parser, tmp_path):
    problem = one(tmp_path, "name: é\x01b\n")    # columns count characters, not bytes
    assert (problem.line, problem.column) == (1, 8)
    assert "unacceptable character #x0001" in problem.message


def test_missing_file_directory_and_binary(tmp_path):
    (tmp_path / "duel.yaml").write_text(GOOD)
    with pytest.raises(ScenarioError, match=r"no such file \(did you mean .*duel\.yaml"):
        load_scenario(tmp_path / "duell.yaml")
    with pytest.raises(ScenarioError, match="is a directory"):
        load_scenario(tmp_path)
    (tmp_path / "bin.yaml").write_bytes(b"name: x\n\xff\xfe\n")
    with pytest.raises(ScenarioError, match="not UTF-8") as caught:
        load_scenario(tmp_path / "bin.yaml")
    assert (caught.value.problems[0].line, caught.value.problems[0].column) == (2, 1)


def test_a_broken_data_file_is_named(tmp_path, monkeypatch):
    import balance.io.tables as tables

    (tmp_path / "yags").mkdir()
    (tmp_path / "yags" / "weapons.yaml").write_text("fist: {style: brawl}\nclub: {style: bash}\n")
    (tmp_path / "yags" / "armour.yaml").write_text("helm: {protection: [2}\n")
    (tmp_path / "yags" / "missiles.yaml").write_text("sling: {range: 30}\n")
    monkeypatch.setattr(tables, "_data_dir", lambda: tmp_path)
    tables._shipped.cache_clear()
    try:
        with pytest.raises(ScenarioError) as caught:
            tables.shipped_rows("yags")
    finally:
        tables._shipped.cache_clear()
    weapons, armour = caught.value.problems
    assert (weapons.file, weapons.path, weapons.line) == (
        str(tmp_path / "yags" / "weapons.yaml"), "club.style", 2)
    assert armour.file == str(tmp_path / "yags" / "armour.yaml") and armour.line == 1


# --- properties: nothing but ScenarioError, whatever comes in --------------------------------

YAMLISH = st.text(alphabet=string.ascii_letters[:8] + string.digits[:4]
                  + " \n\t-:,[]{}&*!|>'\"#?.~%@\x00\u00e9\U0001f600", max_size=300)
SCALARS = (st.none() | st.booleans() | st.integers() | st.floats()
           | st.text(max_size=12) | st.sampled_from(["yags", "mace", "helm", "aggressive", "auto"]))
KEYS = st.sampled_from(["name", "ruleset", "sides", "members", "weapon", "armour", "count",
                        "trials", "tables", "weapons", "stance", "policy", "x"]) | st.integers()
DATA = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(KEYS, inner, max_size=4), max_leaves=30)
PROPERTY = settings(derandomize=True, max_examples=100, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _loads_or_scenario_error(source: object) -> None:
    try:
        load_scenario(source)
    except ScenarioError as err:
        assert err.problems and all(isinstance(p, Problem) for p in err.problems)


@PROPERTY
@given(text=YAMLISH | st.sampled_from([GOOD]).map(lambda g: g[: len(g) // 2]))
def test_any_text_gives_a_scenario_or_a_scenario_error(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("fuzz") / "s.yaml"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    _loads_or_scenario_error(path)


@PROPERTY
@given(data=st.dictionaries(KEYS, DATA, max_size=6))
def test_any_dict_gives_a_scenario_or_a_scenario_error(data):
    _loads_or_scenario_error({"ruleset": "yags", **data})


@PROPERTY
@given(path=st.sampled_from([("trials",), ("sides", 0, "name"), ("sides", 1, "members", 0),
                             ("sides", 0, "members", 0, "armour", 0), ("tables",),
                             ("sides", 1, "members", 0, "policy", "defences"),
                             ("sides", 1, "members", 0, "skills")]),
       value=DATA)
def test_any_value_anywhere_gives_a_scenario_or_a_scenario_error(path, value):
    import yaml

    data = yaml.safe_load(GOOD)
    *parents, last = path
    node = data
    for part in parents:
        node = node[part]
    node[last] = value
    _loads_or_scenario_error(data)
