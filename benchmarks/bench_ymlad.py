"""Duels per second for a Ymlad reference duel: vectorised engine vs scalar reference.

Run with ``python benchmarks/bench_ymlad.py [--trials N]``. Prints one JSON line, measured like
``bench_duel.py`` (best of ``--repeat`` timings, numpy's thread pools pinned to one core). The
duel: ``scenarios/ymlad/duel_threshold_2.yaml`` (sword and shield against a great axe, harm
threshold 2, the seed's example campaign's), and the seed's party against skeletons as a group
fight.
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

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios" / "ymlad"


def rate(fn, trials: int, repeat: int) -> float:
    """Best of ``repeat`` timings, in trials per second."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(trials)
        best = min(best, time.perf_counter() - t0)
    return trials / best


def measure(name: str, trials: int, reference_trials: int, repeat: int) -> tuple[float, float]:
    loaded = balance.load_scenario(SCENARIOS / name)
    system = rules.get(loaded.ruleset)
    fight = system.compile(loaded.model, loaded.tables)
    vector = rate(lambda n: run_fight(system, fight, n, seed=1), trials, repeat)
    scalar = rate(lambda n: run_reference(system, fight, n, seed=1), reference_trials, 1)
    return vector, scalar


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--trials", type=int, default=1_048_576, help="vectorised trials per timing")
    ap.add_argument("--reference-trials", type=int, default=5_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    duel, duel_ref = measure("duel_threshold_2.yaml", args.trials, args.reference_trials,
                             args.repeat)
    group, group_ref = measure("party_vs_skeletons.yaml", args.trials // 8,
                               args.reference_trials // 5, args.repeat)
    print(json.dumps({
        "benchmark": "ymlad_duel_threshold_2",
        "vector_duels_per_s": round(duel),
        "reference_duels_per_s": round(duel_ref),
        "ratio": round(duel / duel_ref, 1),
        "party_vs_skeletons_fights_per_s": round(group),
        "party_vs_skeletons_reference_per_s": round(group_ref),
        "trials": args.trials,
        "numpy": np.__version__,
        "python": platform.python_version(),
        "machine": platform.machine(),
    }))


if __name__ == "__main__":
    main()
