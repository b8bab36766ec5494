"""Every JSON the lab writes is strict JSON: no NaN, Infinity or -Infinity, which JavaScript,
jq and strict parsers reject. Each writer is run and its output read by a strict parser; a
source scan makes sure no new writer bypasses ``balance.io.jsonout``."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest
import yaml

from balance.cli import main
from balance.io import jsonout
from balance.io.store import Partial
from balance.sweep import run_sweep
from tests.sweep.helpers import GRID, duel
from tests.ux.strictjson import loads_strict

ROOT = Path(__file__).resolve().parents[2]
DUEL = ROOT / "tests" / "data" / "duel.yaml"
# json.dumps used for something other than writing JSON out: hashing keys and feeding
# pydantic's JSON validator.
NOT_WRITERS = {"balance/io/jsonout.py", "balance/sweep/cells.py", "balance/sweep/spec.py",
               "balance/sweep/plan.py", "balance/io/problems.py",
               "balance/rules/yags/compile.py", "balance/models/ymlad.py",
               "balance/analysis/explaining.py"}   # json.dumps as a key or for validation only


def test_strict_turns_non_finite_numbers_into_null() -> None:
    data = {"lo": -math.inf, "hi": math.inf, "mean": math.nan, "n": np.int64(3),
            "p": np.float64(0.25), "xs": np.array([1.0, np.nan]), "t": (1, math.inf)}
    text = jsonout.dumps(data)
    assert loads_strict(text) == {"lo": None, "hi": None, "mean": None, "n": 3, "p": 0.25,
                                  "xs": [1.0, None], "t": [1, None]}


def test_no_writer_bypasses_jsonout() -> None:
    found = []
    for path in sorted((ROOT / "balance").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel not in NOT_WRITERS and re.search(r"\bjson\.dumps?\(", path.read_text()):
            found.append(rel)
    assert found == [], "write JSON with balance.io.jsonout.dumps (strict JSON)"


@pytest.mark.parametrize("argv", [
    ["run", str(DUEL), "--trials", "300", "--json", "--quiet"],
    ["dice", "2d6+1", "--json", "--samples", "1000"],
    ["dice", "d20", "--vs", "d20+2", "--json"],
    ["dice", "--resistance", "12", "10", "--json"],
    ["hazard", "poison", "--poison", "arsenic", "--con", "12", "--hp", "10", "--json"],
    ["hazard", "fall", "--yards", "7", "--json"],
    ["tables", "yags", "--json"],
    ["schema", "--ruleset", "yags"],
    ["lanchester", str(DUEL), "--sizes", "1-2", "--vs", "1", "--trials", "200", "--json"],
])
def test_stdout_json_is_strict(argv: list[str], capsys) -> None:
    assert main(argv) == 0
    loads_strict(capsys.readouterr().out)


def test_files_are_strict(tmp_path, capsys) -> None:
    scenarios = tmp_path / "scenarios"
    scenarios.mkdir()
    (scenarios / "duel.yaml").write_text(DUEL.read_text())
    assert main(["demo", "--scenarios", str(scenarios), "--out", str(tmp_path),
                 "--trials", "200", "--quiet"]) == 0
    assert main(["lanchester", str(DUEL), "--sizes", "1-2", "--vs", "1", "--trials", "200",
                 "--out", str(tmp_path)]) == 0
    res = run_sweep(duel(GRID), trials=300, out=tmp_path / "runs", run_id="grid")
    Partial(tmp_path, "p", {"seed": 1, "precision": math.nan}, resume=False).save(
        "c1", {"tally": {"trials": 3}, "seconds": math.inf})
    capsys.readouterr()
    files = [*tmp_path.rglob("*.json"), *(tmp_path / ".p.partial").rglob("*.json")]
    names = {f.name for f in files}
    assert {"duel.json", "lanchester.json", "manifest.json", "tallies.json", "run.json",
            "c1.json"} <= names
    for f in files:
        loads_strict(f.read_text())
    assert res.run_dir is not None


def test_parquet_manifest_is_strict(tmp_path) -> None:
    import pyarrow.parquet as pq

    run_sweep(duel(GRID), trials=300, out=tmp_path, run_id="g")
    meta = pq.read_schema(tmp_path / "g" / "cells.parquet").metadata[b"balance.manifest"]
    loads_strict(meta.decode())


def test_budget_check_json(tmp_path) -> None:
    """Covered with -Infinity bounds in test_gate_output; here a two-sided range."""
    (tmp_path / "duel.yaml").write_text(yaml.safe_dump(duel(trials=500)))
    (tmp_path / "b.yaml").write_text(yaml.safe_dump({
        "name": "b", "trials": 500, "max_trials": 500, "claims": [
            {"claim": "rounds", "scenario": "duel.yaml", "metric": "rounds",
             "at_most": 100}]}))
    assert main(["check", str(tmp_path / "b.yaml"), "--out", str(tmp_path / "o")]) == 0
    doc = loads_strict((tmp_path / "o" / "check-b" / "check.json").read_text())
    assert doc["claims"][0]["bounds"] == [None, 100]
