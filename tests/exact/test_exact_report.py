"""A report of an exact sweep (balance report): cells without trials weigh alike."""

from __future__ import annotations

import yaml

from balance.report.build import write_report
from balance.sweep import run_sweep


def test_an_exact_sweep_of_two_axes_has_a_report_and_a_headline(tmp_path) -> None:
    """Every cell exact (``trials`` 0): the headline's average over the other axis weighs
    the cells alike instead of dividing by no trials."""
    data = yaml.safe_load(open("scenarios/ymlad/duel_threshold_1.yaml"))
    grid = {"grid": {"max_rounds": [5, 10], "sides.0.members.0.skills.melee": [3, 5]}}
    res = run_sweep(data, sweep=grid, out=tmp_path, run_id="exact", engine="exact")
    assert bool(res.table["exact"].all())
    report = write_report(tmp_path / "exact")
    md = (report / "report.md").read_text()
    assert "averaged over the other axes" in md
