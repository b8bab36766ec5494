"""Duels per second for the reference Yags duel: vectorised engine vs scalar reference.

Run with ``make bench`` (or ``python benchmarks/bench_duel.py [--trials N]``). Prints one JSON
line. Not part of ``make test``: speed is measured here, never asserted in a test. Pins
numpy's thread pools to one core, so the figure is per core.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import numpy as np  # noqa: E402

import balance  # noqa: E402
from balance import rules  # noqa: E402
from balance.engine.run import run_fight, run_reference  # noqa: E402

SCENARIO = Path(__file__).resolve().parent.parent / "scenarios" / "yags" / "reference_duel.yaml"


def rate(fn, trials: int, repeat: int) -> float:
    """Best of ``repeat`` timings, in trials per second."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(trials)
        best = min(best, time.perf_counter() - t0)
    return trials / best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--trials", type=int, default=1_048_576, help="vectorised trials per timing")
    ap.add_argument("--reference-trials", type=int, default=5_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    loaded = balance.load_scenario(SCENARIO)
    system = rules.get(loaded.ruleset)
    fight = system.compile(loaded.model, loaded.tables)
    vector = rate(lambda n: run_fight(system, fight, n, seed=1), args.trials, args.repeat)
    scalar = rate(lambda n: run_reference(system, fight, n, seed=1), args.reference_trials, 1)
    print(json.dumps({
        "benchmark": "yags_reference_duel",
        "vector_duels_per_s": round(vector),
        "reference_duels_per_s": round(scalar),
        "ratio": round(vector / scalar, 1),
        "trials": args.trials,
        "numpy": np.__version__,
        "python": platform.python_version(),
        "machine": platform.machine(),
    }))


if __name__ == "__main__":
    main()
