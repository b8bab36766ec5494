"""Packaging and the documented notebook command: an SPDX licence string (setuptools warns
on the old table form), and `jupyter execute` as the docs show it, working here."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_license_is_an_spdx_expression() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["license"] == "MIT"
    assert any(r.startswith("setuptools>=77") for r in project["build-system"]["requires"])
    assert any(r.startswith("nbclient") for r in project["project"]["optional-dependencies"]
               ["lab"])


def test_jupyter_execute_is_documented_and_runs(tmp_path) -> None:
    docs = (ROOT / "docs" / "sweeps.md").read_text()
    assert "jupyter execute --output=" in docs
    runner = Path(sys.executable).with_name("jupyter-execute")
    if not runner.is_file():
        pytest.skip("nbclient's jupyter-execute is not installed in this environment")
    nb = {"cells": [{"cell_type": "code", "execution_count": None, "id": "a", "metadata": {},
                     "outputs": [], "source": "import balance\nbalance.__version__"}],
          "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                      "language": "python"}},
          "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "tiny.ipynb").write_text(json.dumps(nb))
    subprocess.run([str(runner), "--output=ran", "tiny.ipynb"], cwd=tmp_path, check=True,
                   capture_output=True, timeout=120)
    ran = json.loads((tmp_path / "ran.ipynb").read_text())
    import balance

    shown = ran["cells"][0]["outputs"][0]["data"]["text/plain"]
    assert "".join(shown) == repr(balance.__version__)
