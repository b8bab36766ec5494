"""User mistakes in plain words: YAML slips with the line and what to do, only close names
suggested, 'an entry', compile-time problems with line and column, a missing run folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from balance.cli import main
from balance.errors import ScenarioError
from balance.io import yamlfile
from balance.io.scenario import load_scenario
from balance.sweep.paths import PathError, parse_path, resolve_path

ROOT = Path(__file__).resolve().parents[2]
DUEL = (ROOT / "tests" / "data" / "duel.yaml").read_text()
PARSERS = {"python": yamlfile._PyLoader, "libyaml": yamlfile._libyaml_loader()}


@pytest.fixture(params=list(PARSERS))
def parser(request, monkeypatch):
    """Both parsers word their errors differently; the plain words must not."""
    if PARSERS[request.param] is None:
        pytest.skip("PyYAML was built without libyaml, so only its Python parser can be used")
    monkeypatch.setattr(yamlfile, "_Loader", PARSERS[request.param])


def problem_of(tmp_path: Path, text: str):
    (tmp_path / "s.yaml").write_text(text)
    with pytest.raises(ScenarioError) as caught:
        load_scenario(tmp_path / "s.yaml")
    (problem,) = caught.value.problems
    return problem


SIDES = "name: x\nruleset: yags\nsides:\n  - name: a\n"


@pytest.mark.parametrize(("text", "line", "words"), [
    (SIDES + "\tmembers: []\n", 5, ["line 5 is indented with a tab", "replace the tab"]),
    (SIDES + "    members:\n    - weapon: mace\n   armour: []\n", 7,
     ["line 7 ('armour') is indented by 3 spaces", "start a new item with '- '"]),
    (SIDES + "     members: []\n", 5,
     ["line 5 ('members') is indented more than the key on line 4", "column 5"]),
    (SIDES + "  members: []\n", 5, ["line 5 ('members') is indented by 2 spaces",
                                   "indent it like the other keys of its item"]),
    ("name: Duel: round two\nruleset: yags\n", 1, ["holds ': '", "put the value in quotes"]),
    # a nested key written on one line: the quoting hint alone misled
    ("name: x\nruleset: yags\nrules: reach: closing\n", 3,
     ["put the value in quotes", "if 'reach' is a key inside 'rules', write rules: "
      "{reach: closing} or put 'reach:' on its own line, indented under 'rules:'"]),
    ("name: x\nruleset yags\nsides: []\n", 2, ["line 2 has no ':' after its key"]),
    ("name: 'x\nruleset: yags\n", 1, ["the quote opened on line 1 is never closed"]),
])
def test_yaml_slips_in_plain_words(parser, tmp_path, text, line, words) -> None:
    problem = problem_of(tmp_path, text)
    assert problem.line == line, problem
    for w in words:
        assert w in problem.message, problem
    for jargon in ("indicator", "block collection", "not allowed here", "simple key"):
        assert jargon not in problem.message


def test_a_tab_between_key_and_value(parser) -> None:
    """PyYAML refuses a tab after 'name:' (libyaml reads it): then the message names it."""
    try:
        yamlfile.read_yaml("ruleset: yags\nname:\tx\n", "s.yaml")
    except ScenarioError as err:
        (problem,) = err.problems
        assert (problem.line, problem.column) == (2, 6)
        assert "tab character in column 6" in problem.message


def test_only_close_file_names_are_suggested(tmp_path, capsys) -> None:
    (tmp_path / "m2_indent.yaml").write_text(DUEL)
    (tmp_path / "duel.yaml").write_text(DUEL)
    assert main(["run", str(tmp_path / "nofile.yaml")]) == 2
    assert "did you mean" not in capsys.readouterr().err
    assert main(["run", str(tmp_path / "dual.yaml")]) == 2
    assert f"did you mean {str(tmp_path / 'duel.yaml')!r}" in capsys.readouterr().err


def test_only_close_names_are_suggested(tmp_path) -> None:
    problem = problem_of(tmp_path, DUEL.replace("stance: aggressive", "style: fencing"))
    assert "found 'fencing'" in problem.message and "did you mean" not in problem.message
    problem = problem_of(tmp_path, DUEL.replace("weapon: club", "weapon: clbu"))
    assert "did you mean 'club'" in problem.message


def test_a_real_key_in_the_wrong_place_says_where_it_belongs(tmp_path) -> None:
    """``rules: {step_back: false}`` once said only "unknown key 'step_back'": it is a
    policy key (issue 12), as ``reach`` under a member is a rule or a weapon field."""
    problem = problem_of(tmp_path, DUEL.replace("seed: 7", "seed: 7\nrules: {step_back: false}"))
    assert problem.message == ("unknown key 'step_back' here; it is a key of "
                               "sides[].members[].policy or sides[].policy")
    problem = problem_of(tmp_path, DUEL.replace("stance: aggressive", "reach: closing"))
    assert "unknown key 'reach' here; it is a key of rules or " in problem.message
    problem = problem_of(tmp_path, DUEL.replace("stance: aggressive", "stanse: aggressive"))
    assert problem.message == "unknown key 'stanse' (did you mean 'stance'?)"


def test_an_entry() -> None:
    from balance.models import SCENARIO_MODELS

    data = {"sides": [{"name": "red", "members": []}]}
    with pytest.raises(PathError, match="'green' is not an entry "):
        resolve_path(parse_path("sides.green.members"), SCENARIO_MODELS["yags"], data, {})


def test_compile_time_problems_have_line_and_column(tmp_path, capsys) -> None:
    """A great axe needs strength 4 (seed 000: more than two points short, it cannot be
    used); that shows only when the fighters are compiled, and still points at the field."""
    text = DUEL.replace("weapon: long_sword", "weapon: great_axe").replace(
        "strength: 4", "strength: 1")
    path = tmp_path / "heavy.yaml"
    path.write_text(text)
    line = text.splitlines().index("        weapon: great_axe") + 1
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{path}:{line}:17: sides[0].members[0].weapon: strength 1 is too "
                          "weak")


def test_report_of_a_missing_folder(tmp_path, capsys) -> None:
    assert main(["report", str(tmp_path / "nothing")]) == 2
    assert "nothing: no such folder" in capsys.readouterr().err


def test_a_sweep_file_given_to_run_says_so(tmp_path, capsys) -> None:
    """``balance run`` of a sweep file once said "unknown key 'sweep' (did you mean 'seed'?)"."""
    path = tmp_path / "s.yaml"
    path.write_text(DUEL + "sweep:\n  grid:\n    max_rounds: [5, 6]\n")
    assert main(["run", str(path)]) == 2
    err = capsys.readouterr().err
    assert "sweep: this file holds a sweep, and this command plays one fight: run the sweep " \
           "with 'balance sweep FILE'" in err and "did you mean" not in err
    assert main(["validate", str(path)]) == 0


def test_a_repeated_side_name_points_at_the_repeat(tmp_path, capsys) -> None:
    """A model-wide check once reported the file's first line; it now names the field."""
    text = DUEL.replace("name: brigands", "name: knight")
    path = tmp_path / "twice.yaml"
    path.write_text(text)
    line = [i for i, row in enumerate(text.splitlines(), 1) if row == "  - name: knight"][1]
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"twice.yaml:{line}:" in err
    assert "sides[1].name: side names must be unique; 'knight' is also sides[0].name" in err


@pytest.mark.parametrize(("text", "trials"), [("1e4", 10_000), ("2.5e3", 2_500),
                                              ("10_000", 10_000), ("10,000", 10_000)])
def test_trial_counts_as_designers_write_them(text, trials) -> None:
    from balance.commands._types import count
    assert count(text) == trials


@pytest.mark.parametrize("text", ["1.5", "abc", "1e", "", "2,5e5", "1,5", "1,00", ",100",
                                  "100,", "1__000"])
def test_a_trial_count_that_is_no_whole_number_is_a_usage_error(capsys, text) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["run", str(ROOT / "tests" / "data" / "duel.yaml"), "--trials", text])
    assert stop.value.code == 2
    assert "argument --trials: expected a whole number such as" in capsys.readouterr().err


def test_a_whole_number_from_python_is_a_count() -> None:
    """``balance.run(..., trials=1e4)`` and numpy integers count as the integers they are."""
    import numpy as np

    import balance

    duel = ROOT / "tests" / "data" / "duel.yaml"
    assert balance.run(duel, trials=2e3, seed=1).trials == 2000
    assert balance.run(duel, trials=np.int64(2000), seed=1).trials == 2000
    with pytest.raises(balance.errors.OptionError, match=r"got 1\.5"):
        balance.run(duel, trials=1.5)


@pytest.mark.parametrize("argv", [["sweep", "scenarios/sweeps/stances.yaml", "--precision",
                                   "0.05", "--max-trials", "0"],
                                  ["check", "scenarios/budget.yaml", "--max-trials", "1000"]])
def test_a_trial_cap_below_one_block_is_an_error(argv, capsys, tmp_path) -> None:
    """Both once ran as if no cap (or the default) had been given."""
    argv = [*argv[:1], str(ROOT / argv[1]), *argv[2:], "--out", str(tmp_path / "out")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "max_trials must be an integer >= 16384" in err or \
        "--max-trials must be at least 16,384" in err
