"""Workers import only what a cell needs; Dask and the report stack load only when asked."""

from __future__ import annotations

import subprocess
import sys


def imported_after(statement: str) -> set[str]:
    code = f"import sys; {statement}; print(' '.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    return {name.split(".")[0] for name in out.split()}


def test_the_worker_task_is_light() -> None:
    heavy = {"pandas", "pydantic", "yaml", "matplotlib", "dask", "distributed", "scipy",
             "pyarrow", "tqdm"}
    assert not imported_after("import balance.sweep.task") & heavy


def test_dask_is_imported_only_for_the_dask_executor() -> None:
    loaded = imported_after("import balance.sweep, balance.cli; balance.cli.build_parser(); "
                            "from balance.sweep import run_sweep, load_plan")
    assert not loaded & {"dask", "distributed", "matplotlib"}
