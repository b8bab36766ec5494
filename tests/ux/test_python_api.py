"""The Python API shows itself: dir(balance) and __all__ list it, every name resolves, and a
result prints as one line (repr), as the CLI's table (str) and as HTML in notebooks."""

from __future__ import annotations

from pathlib import Path

import balance

DUEL = Path(__file__).resolve().parents[2] / "scenarios" / "yags" / "reference_duel.yaml"


def test_dir_and_all_list_the_api() -> None:
    listed = set(dir(balance))
    wanted = {"run", "load_scenario", "load", "run_sweep", "load_plan", "check_budget",
              "write_report", "compile_scenario", "RunResult", "ScenarioError", "__version__"}
    assert wanted <= set(balance.__all__) <= listed
    assert {"sweep", "dice", "report", "analysis"} <= listed
    # the questions (issues 16, 17) are API too; balance.analysis once raised AttributeError
    assert {"solve", "sensitivity", "exchange", "explain", "compare_run",
            "autobalance"} <= set(balance.__all__)
    assert balance.analysis.solve is balance.solve and "solve" in dir(balance.analysis)
    assert callable(balance.autobalance)
    assert not {n for n in listed if n.startswith("_") and not n.startswith("__")}
    for name in balance.__all__:
        assert getattr(balance, name) is not None


def test_a_result_prints_briefly_as_a_table_and_as_html() -> None:
    res = balance.run(DUEL, trials=2000, seed=7)
    short = repr(res)
    assert short.startswith("<RunResult 'Reference duel") and "2,000 trials, seed 7" in short
    assert "array(" not in short and len(short) < 300 and "\n" not in short
    assert str(res) == res.to_text()
    page = res._repr_html_()
    assert page.startswith("<table>") and "95% interval" in page
    for outcome in res.outcomes:
        assert f">{outcome}</td>" in page
