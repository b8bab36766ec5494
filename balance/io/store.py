"""The results store: ``results/<run-id>/`` holds one sweep's table, raw counts and manifest.

::

    results/<run-id>/
      cells.parquet   the tidy table, one row per cell (canonical; keeps axis order)
      cells.csv       the same table for spreadsheets
      tallies.json    every cell's integer counts (wins, rounds histogram, statuses)
      manifest.json   scenario text and hash, seed, block size, versions, git commit, times,
                      executor
      .balance-output the mark of a folder the lab wrote (and may replace whole)

The folder appears whole or not at all (:func:`balance.io.atomic.new_directory`). While a
sweep runs, each finished cell is saved to ``results/.<run-id>.partial/`` (one small file per
cell, each written atomically), which ``--resume`` reads to finish an interrupted sweep
without redoing its finished cells.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import json
import os
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from balance.engine.run import Tally
from balance.errors import BalanceError, OptionError, closest
from balance.io import jsonout
from balance.io.atomic import new_directory, write_text

FORMAT = "balance-sweep/1"
TABLE, CSV, TALLIES, MANIFEST = "cells.parquet", "cells.csv", "tallies.json", "manifest.json"


class StoreError(BalanceError):
    """A results folder that is missing, incomplete or not a balance run."""


def tally_to_dict(tally: Tally) -> dict[str, Any]:
    """A tally as plain JSON data: every field, integer counts only (arrays as lists); an
    exact tally (probabilities) says so (``"exact": true``)."""
    out = {}
    for f in dataclasses.fields(tally):
        value = getattr(tally, f.name)
        out[f.name] = value.tolist() if isinstance(value, np.ndarray) else value
    if tally.exact:
        out["exact"] = True
    return out


def tally_from_dict(data: Mapping[str, Any]) -> Tally:
    """The inverse of :func:`tally_to_dict`."""
    if data.get("exact"):
        from balance.exact.duel import ExactTally

        names = {f.name for f in dataclasses.fields(ExactTally)}
        return ExactTally(**{k: np.asarray(v, dtype=np.float64) if isinstance(v, list) else v
                             for k, v in data.items() if k in names and k != "extra"})
    names = {f.name for f in dataclasses.fields(Tally)}
    return Tally(**{k: np.asarray(v, dtype=np.int64) if isinstance(v, list) else v
                    for k, v in data.items() if k in names})


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def now_iso() -> str:
    """The current UTC time, to the second, as ISO 8601."""
    return dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat()


def git_commit(path: str | os.PathLike | None = None) -> str | None:
    """The git commit of the checkout holding ``path`` (default: this package), if any,
    with ``+dirty`` when it has uncommitted changes."""
    where = Path(path) if path is not None else Path(__file__).resolve().parents[2]
    try:
        head = subprocess.run(["git", "-C", str(where), "rev-parse", "HEAD"], capture_output=True,
                              text=True, timeout=5, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(where), "status", "--porcelain",
                                "--untracked-files=no"], capture_output=True, text=True,
                               timeout=5, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return head + ("+dirty" if dirty else "") if head else None


class Partial:
    """The finished cells of a running (or interrupted) sweep, saved one file per cell."""

    def __init__(self, out: str | os.PathLike, run_id: str, fingerprint: Mapping[str, Any], *,
                 resume: bool):
        self.path = Path(out) / f".{run_id}.partial"
        self.fingerprint = dict(fingerprint)
        cells = self.path / "cells"
        if resume:
            self._check_resumable(Path(out) / run_id)
        else:
            shutil.rmtree(self.path, ignore_errors=True)
            cells.mkdir(parents=True)
            write_text(self.path / "run.json", jsonout.dumps(self.fingerprint, indent=2) + "\n")

    def _check_resumable(self, final: Path) -> None:
        meta = self.path / "run.json"
        if not meta.is_file():
            done = " (it finished; its results are complete)" if (final / MANIFEST).is_file() \
                else ""
            raise OptionError(f"nothing to resume: no interrupted run at {self.path}{done}")
        before = json.loads(meta.read_text(encoding="utf-8"))
        changed = [k for k in sorted(set(before) | set(self.fingerprint))
                   if before.get(k) != self.fingerprint.get(k)]
        if changed:
            what = ", ".join(f"{k} {before.get(k)!r} -> {self.fingerprint.get(k)!r}"
                             for k in changed if k != "scenario_sha256")
            if "scenario_sha256" in changed:
                what = "the scenario file changed" + (f"; {what}" if what else "")
            raise OptionError(f"cannot resume {self.path}: the interrupted run differs ({what}); "
                              "run without --resume to start over")

    def finished(self) -> dict[str, dict[str, Any]]:
        """cell id -> its saved record (tally, blocks, seconds, precision_met)."""
        out = {}
        for f in sorted((self.path / "cells").glob("*.json")):
            try:
                out[f.stem] = json.loads(f.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue    # a file cut short by a crash is not a finished cell
        return out

    def save(self, cell_id: str, record: Mapping[str, Any]) -> None:
        write_text(self.path / "cells" / f"{cell_id}.json", jsonout.dumps(record) + "\n")

    def remove(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)


def write_run(run_dir: str | os.PathLike, table, manifest: Mapping[str, Any],
              tallies: Mapping[str, Mapping[str, Any]],
              extra: Mapping[str, Any] | None = None) -> Path:
    """Write a finished run's folder whole: Parquet and CSV tables, tallies, manifest, and
    ``extra`` JSON files by name (``paired.json``: counts paired with the baseline)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    run_dir = Path(run_dir)
    with new_directory(run_dir) as tmp:
        arrow = pa.Table.from_pandas(table, preserve_index=False)
        meta = {**(arrow.schema.metadata or {}),
                b"balance.manifest": jsonout.dumps(manifest).encode()}
        pq.write_table(arrow.replace_schema_metadata(meta), tmp / TABLE)
        table.to_csv(tmp / CSV, index=False)
        (tmp / TALLIES).write_text(jsonout.dumps(tallies) + "\n", encoding="utf-8")
        (tmp / MANIFEST).write_text(jsonout.dumps(manifest, indent=2) + "\n", encoding="utf-8")
        for name, data in (extra or {}).items():
            (tmp / name).write_text(jsonout.dumps(data) + "\n", encoding="utf-8")
        os.chmod(tmp, 0o755)
    return run_dir


def read_manifest(run_dir: str | os.PathLike) -> dict[str, Any]:
    """A run's manifest; a clean error for a folder that is not a finished run."""
    path = Path(run_dir) / MANIFEST
    if not path.is_file():
        partial = Path(run_dir).parent / f".{Path(run_dir).name}.partial"
        if partial.is_dir():
            what = "not a finished balance run (an interrupted run is there: finish it with " \
                   "--resume)"
        elif Path(run_dir).is_dir():
            what = f"not a finished balance run (no {MANIFEST})"
        elif Path(run_dir).exists():
            what = "is a file, not a run folder"
        else:
            what = f"no such folder{_near_folder(Path(run_dir))}"
        raise StoreError(f"{run_dir}: {what}")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise StoreError(f"{path}: cannot read the manifest: {err}") from None
    if manifest.get("format") != FORMAT:
        raise StoreError(f"{path}: not a {FORMAT} manifest")
    return manifest


def _near_folder(path: Path) -> str:
    """`` (did you mean 'results/weapon_vs_armour'?)`` for a run folder of a close name."""
    try:
        runs = [p.name for p in path.parent.iterdir() if (p / MANIFEST).is_file()]
    except OSError:
        return ""
    near = closest(path.name, runs, n=1)
    return f" (did you mean {str(path.parent / near[0])!r}?)" if near else ""


def load(run_dir: str | os.PathLike):
    """A run's tidy table as a pandas DataFrame (``df.attrs["manifest"]`` holds the manifest).

    One row per cell: each swept axis as a column (ordered categories for named options),
    then outcome probabilities with 95% intervals, rounds, trials and seed.
    """
    import pandas as pd

    manifest = read_manifest(run_dir)
    try:
        table = pd.read_parquet(Path(run_dir) / TABLE)
    except (OSError, ValueError) as err:
        raise StoreError(f"{run_dir}: cannot read {TABLE}: {err}") from None
    table.attrs["manifest"] = manifest
    return table


def load_tallies(run_dir: str | os.PathLike) -> dict[str, Tally]:
    """Every cell's raw counts, by cell id."""
    read_manifest(run_dir)
    data = json.loads((Path(run_dir) / TALLIES).read_text(encoding="utf-8"))
    return {cell: tally_from_dict(t) for cell, t in data.items()}
