"""The notebooks run top to bottom (with tiny trial counts) and their paired files agree."""

from __future__ import annotations

from pathlib import Path

import pytest

jupytext = pytest.importorskip("jupytext")
nbclient = pytest.importorskip("nbclient")

FOLDER = Path(__file__).resolve().parents[2] / "notebooks"
NOTEBOOKS = sorted(FOLDER.glob("*.py"))
SMALL = "\n# test run: tiny trial counts\nTRIALS = 400\nPRECISION = 0.05\n"


def test_there_are_notebooks() -> None:
    assert len(NOTEBOOKS) >= 2


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_top_to_bottom(path: Path) -> None:
    nb = jupytext.read(path)
    tagged = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(tagged) == 1, "a notebook has one cell tagged 'parameters'"
    tagged[0].source += SMALL
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                     resources={"metadata": {"path": str(FOLDER)}})
    client.execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors
    images = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if "image/png" in o.get("data", {})]
    assert images, "the notebook shows its figures"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_paired_notebook_matches_its_script(path: Path) -> None:
    """``.ipynb`` and ``.py`` are a jupytext pair: the same cells, the same sources."""
    ipynb = path.with_suffix(".ipynb")
    assert ipynb.is_file(), f"pair {path.name} with: jupytext --set-formats ipynb,py:percent"
    a, b = jupytext.read(path), jupytext.read(ipynb)
    assert [(c.cell_type, c.source) for c in a.cells] == \
        [(c.cell_type, c.source) for c in b.cells]
    assert all(not c.get("outputs") for c in b.cells if c.cell_type == "code"), \
        "commit notebooks without outputs"
