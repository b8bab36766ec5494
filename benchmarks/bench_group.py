"""Fights per second for a 5-vs-5 Yags group fight (identical veterans), vectorised engine.

Run with ``make bench`` (beside the duel benchmark) or ``python benchmarks/bench_group.py``.
Prints one JSON line; pins numpy's thread pools to one core.
"""

from __future__ import annotations

import argparse
import json
import os
import time

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import balance  # noqa: E402
from balance import rules  # noqa: E402
from balance.engine.run import run_fight  # noqa: E402

VETERANS = {"attributes": {"dexterity": 3, "agility": 3, "strength": 3},
            "skills": {"single_weapon": 4}, "weapon": "long_sword", "armour": ["mail_hauberk"],
            "count": 5}
SCENARIO = {"name": "5 vs 5 veterans", "ruleset": "yags",
            "sides": [{"name": "red", "members": [VETERANS]},
                      {"name": "blue", "members": [VETERANS]}]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--trials", type=int, default=262_144)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    loaded = balance.load_scenario(SCENARIO)
    system = rules.get("yags")
    fight = system.compile(loaded.model, loaded.tables)
    best = float("inf")
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        tally = run_fight(system, fight, args.trials, seed=1)
        best = min(best, time.perf_counter() - t0)
    rounds = float((tally.rounds * range(len(tally.rounds))).sum() / tally.trials)
    print(json.dumps({"benchmark": "yags_5v5", "vector_fights_per_s": round(args.trials / best),
                      "mean_rounds": round(rounds, 2), "trials": args.trials}))


if __name__ == "__main__":
    main()
