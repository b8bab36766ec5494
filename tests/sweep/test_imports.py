"""Workers import only what a cell needs; Dask and the report stack load only when asked."""

from __future__ import annotations

from tests.sweep.helpers import imported_after


def test_the_worker_task_is_light() -> None:
    heavy = {"pandas", "pydantic", "yaml", "matplotlib", "dask", "distributed", "scipy",
             "pyarrow", "tqdm"}
    assert not imported_after("import balance.sweep.task") & heavy


def test_dask_is_imported_only_for_the_dask_executor() -> None:
    loaded = imported_after("import balance.sweep, balance.cli; balance.cli.build_parser(); "
                            "from balance.sweep import run_sweep, load_plan")
    assert not loaded & {"dask", "distributed", "matplotlib"}
