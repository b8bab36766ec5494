"""Fights per second for the bundled Yags distance fights (an archer against a charging
swordsman, two crossbowmen against a brute), vectorised engine against the scalar reference.

Run with ``make bench`` or ``python benchmarks/bench_missile.py``. Prints one JSON line per
scenario; pins numpy's thread pools to one core.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import balance  # noqa: E402
from balance import rules  # noqa: E402
from balance.engine.run import run_fight, run_reference  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ("archer_vs_charging_swordsman", "crossbows_vs_brute")


def best_of(repeat: int, job) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        job()
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--trials", type=int, default=262_144)
    ap.add_argument("--reference-trials", type=int, default=2_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    system = rules.get("yags")
    for name in SCENARIOS:
        loaded = balance.load_scenario(ROOT / "scenarios" / "yags" / f"{name}.yaml")
        fight = system.compile(loaded.model, loaded.tables)
        fast = best_of(args.repeat, lambda f=fight: run_fight(system, f, args.trials, seed=1))
        slow = best_of(1, lambda f=fight: run_reference(system, f, args.reference_trials,
                                                        seed=1))
        vector, scalar = args.trials / fast, args.reference_trials / slow
        print(json.dumps({"benchmark": f"yags_{name}", "vector_fights_per_s": round(vector),
                          "reference_fights_per_s": round(scalar),
                          "ratio": round(vector / scalar, 1), "trials": args.trials}))


if __name__ == "__main__":
    main()
