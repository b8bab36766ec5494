"""The exact engine against Monte Carlo, in the same run: every bundled duel it covers.

For each bundled fight scenario the exact engine covers (``--engine auto`` would pick it),
times the exact answer (building the chain and stepping it; the scenario compiled once for
both) and a Monte Carlo run of 250,000 trials (standard error ~0.001 on a 50% outcome), the
best of ``--repeat`` timings each, alternating, on one core, and prints the states, the
transitions, both times and their ratio (the goal: the exact answer at least 10 times
faster). Speed is measured here, never asserted in a test.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_suite import HERE, fight_files  # noqa: E402

import balance  # noqa: E402
from balance.api import compile_scenario  # noqa: E402
from balance.engine.run import run_fight  # noqa: E402
from balance.exact.run import exact_or_reason  # noqa: E402


def best(fn, repeat: int) -> float:
    out = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out = min(out, time.perf_counter() - t0)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("paths", nargs="*", default=[str(HERE / "scenarios")])
    ap.add_argument("--trials", type=int, default=250_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = []
    for f in fight_files(args.paths):
        loaded = balance.load_scenario(f)
        system, fight = compile_scenario(loaded)
        tally, _ = exact_or_reason(system, fight)
        if tally is None:
            continue
        t_exact = t_mc = float("inf")
        for _ in range(args.repeat):     # alternating: both see the machine alike
            t_exact = min(t_exact, best(lambda s=system, f=fight: exact_or_reason(s, f), 1))
            t_mc = min(t_mc, best(lambda s=system, f=fight: run_fight(s, f, args.trials, 1), 1))
        rows.append({"scenario": str(Path(f).relative_to(HERE)), "states": tally.states,
                     "transitions": tally.transitions, "exact_s": t_exact, "mc_s": t_mc,
                     "speedup": t_mc / t_exact})
        r = rows[-1]
        print(f"{r['scenario']:<50} {r['states']:>8,} states {r['transitions']:>10,} "
              f"transitions  exact {1000 * t_exact:8.1f} ms  Monte Carlo "
              f"{1000 * t_mc:8.1f} ms  x{r['speedup']:.1f}")
    if rows:
        worst = min(rows, key=lambda r: r["speedup"])
        print(f"\n{len(rows)} duels: the exact answer {worst['speedup']:.1f}x faster than "
              f"{args.trials:,} Monte Carlo trials at worst ({worst['scenario']})")
    if args.json:
        print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
