"""balance sensitivity: ranked paired changes of one step (balance.analysis.sensitivities)."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import pytest

from balance.analysis.sensitivities import holm, sensitivity
from balance.cli import main
from balance.errors import OptionError
from tests.analysis.helpers import MIRRORS, YAGS, mirror

UNUSED = {"yags": "weapons:mace", "ymlad": "hand_weapons:claws",
          "percentile": "weapons:knife", "yags-group": "weapons:mace"}


@pytest.mark.parametrize("name", list(MIRRORS))
def test_an_unused_row_changes_nothing_and_skill_does(name: str) -> None:
    """Known answers: no fighter uses the row, so every moved version is the same fight on
    the same dice: each change is exactly 0, inside its interval, and never significant.
    A step of the red fighter's own skill moves P(red wins) the way it should (up for +1,
    down for -1); at 4,096 trials a Yags or Ymlad skill step is many sigmas, a percentile
    skill step of 10 percentiles likewise."""
    scenario, path, _ = mirror(name)
    step = 10 if name == "percentile" else 1
    res = sensitivity(scenario, paths=[path], rows=[UNUSED[name]], step=step, trials=4096,
                      block_trials=4096, seed=5)
    unused = [r for r in res.rows if r.path.startswith("tables.")]
    assert unused and all(r.delta == 0 and r.ci95[0] <= 0 <= r.ci95[1] and not r.significant
                          for r in unused)
    up, down = (next(r for r in res.rows if not r.path.startswith("tables.") and
                     (r.to > r.from_) == rising) for rising in (True, False))
    assert up.delta > 0 and up.significant and down.delta < 0 and down.significant
    assert [abs(r.delta) for r in res.rows] == sorted((abs(r.delta) for r in res.rows),
                                                      reverse=True)
    assert res.best is not None and res.best["path"] == up.path


def test_numbers_do_not_depend_on_the_executor() -> None:
    """Blocks run in parallel on threads give the very same sums as one after another."""
    kwargs = {"paths": ["sides.red.members.0.skills.single_weapon"], "trials": 4096,
              "block_trials": 1024, "seed": 9}
    serial = sensitivity(YAGS, **kwargs)
    with ThreadPoolExecutor(2) as pool:
        threaded = sensitivity(YAGS, executor=pool, **kwargs)
    assert serial.to_dict() == threaded.to_dict()


def test_holm_rejects_step_down() -> None:
    """Holm at 5% over 4: 0.01 <= 0.05/4 rejected, 0.02 <= 0.05/3 not (stop there)."""
    assert holm([0.01, 0.02, 0.04, 0.3]) == [True, False, False, False]
    assert holm([0.001, 0.012, 0.02, 0.3]) == [True, True, True, False]


def test_bad_input_is_a_clean_error() -> None:
    with pytest.raises(OptionError, match="did you mean 'mace'"):
        sensitivity(YAGS, rows=["weapons:macee"])
    with pytest.raises(OptionError, match="--paths PATH"):
        sensitivity(YAGS)
    with pytest.raises(OptionError, match="step must be a positive"):
        sensitivity(YAGS, paths=["max_rounds"], step=0)


def test_a_value_the_loader_rejects_is_skipped_with_its_reason() -> None:
    res = sensitivity(YAGS, rows=["weapons:long_sword"], fields=["attack"], step=20,
                      trials=1024, block_trials=1024)
    assert [s["to"] for s in res.skipped] and all(s["why"] for s in res.skipped)


def test_cli_writes_json_markdown_and_tornado(tmp_path, capsys) -> None:
    path = tmp_path / "duel.yaml"
    path.write_text(json.dumps(YAGS))
    out = tmp_path / "sens"
    assert main(["sensitivity", str(path), "--paths", "sides.red.members.0.skills.single_weapon",
                 "--rows", "weapons:mace", "--fields", "damage", "--trials", "2048", "--json",
                 "--out", str(out)]) == 0
    captured = capsys.readouterr()
    doc = json.loads(captured.out)
    assert [set(r) >= {"path", "from", "to", "delta", "ci95"} for r in doc["rows"]]
    assert len(doc["rows"]) == 4 and "sensitivity:" in captured.err
    assert (out / "tornado.png").read_bytes()[:4] == b"\x89PNG"
    assert "| rank |" in (out / "sensitivity.md").read_text()
    assert json.loads((out / "sensitivity.json").read_text()) == doc


def test_a_process_pool_gives_the_same_numbers() -> None:
    """Blocks shipped to worker processes (compiled fights pickled, as sweeps do) come back
    with the very sums the serial run makes."""
    kwargs = {"paths": ["sides.red.members.0.skills.single_weapon"], "both": False,
              "trials": 2048, "block_trials": 1024, "seed": 9}
    assert sensitivity(YAGS, executor="processes", workers=2, **kwargs).to_dict() == \
        sensitivity(YAGS, **kwargs).to_dict()


def test_the_worker_task_is_light() -> None:
    """Workers import the question's block task: numpy, the rules and the engine only."""
    from tests.sweep.helpers import imported_after

    heavy = {"pandas", "pydantic", "yaml", "matplotlib", "dask", "distributed", "scipy",
             "pyarrow", "tqdm"}
    assert not imported_after("import balance.analysis.task") & heavy


def test_the_runner_up_is_another_field_not_the_same_one_moved_down() -> None:
    """With one field, "ahead of the next" once compared skill +1 with skill -1 (a loss);
    the runner-up must be another field's change."""
    skill = "sides.red.members.0.skills.single_weapon"
    one = sensitivity(YAGS, paths=[skill], trials=4096, block_trials=4096, seed=5)
    assert one.best is None and "Largest gain" not in one.to_text()
    two = sensitivity(YAGS, paths=[skill, "sides.red.members.0.attributes.strength"],
                      trials=4096, block_trials=4096, seed=5)
    assert two.best is not None and "strength" in two.best["next"]


def test_a_non_numeric_field_is_blamed_on_the_flag_that_named_it() -> None:
    """``--rows weapons:long_sword --fields style`` once said "--paths: ... not a number"."""
    with pytest.raises(OptionError, match=r"^--fields: tables\.weapons\.long_sword\.style is "):
        sensitivity(YAGS, rows=["weapons:long_sword"], fields=["style"])
