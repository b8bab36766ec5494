"""The Yags speed goals of issue 19, this checkout against a base git ref, as same-run ratios.

Run with ``python benchmarks/bench_yags.py [--base REF] [--repeat K] [--scale X]``. The base
ref's ``balance`` package is exported (``git archive``) into a temporary directory; each
repeat times every case once with the base and once with this checkout, alternating, in
fresh processes pinned to one thread. Each timing is CPU time (the shared machine
deschedules long runs more than short ones, so wall clock reads 10-20% low) and is divided
by the rate at which the same process draws d20s (int8, in calls of 2^22 as
``bench_ratios`` draws them): fights per 1,000 d20. Prints one JSON line: per case, the
median of each side and the median of the per-repeat ratios (this / base; 1.0 is no
change). Speed is measured here, never asserted in a test.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
from pathlib import Path

from bench_percentile import ROOT, export, rate
from bench_ratios import BENCHMARKS

CASES = {name: (str(scenario) if isinstance(scenario, Path) else scenario, trials)
         for name, scenario, trials, _goal in BENCHMARKS if name.startswith("yags")}
TIMER = """
import json, sys, time
import numpy as np
import balance
from balance import rules
from balance.engine.run import run_fight
spec, n = json.loads(sys.argv[1])
loaded = balance.load_scenario(spec)
system = rules.get(loaded.ruleset)
fight = system.compile(loaded.model, loaded.tables)
run_fight(system, fight, 4096, seed=1)
rng = np.random.Generator(np.random.PCG64(1))
def d20():
    best = float("inf")
    for _ in range(5):
        t0 = time.process_time()
        rng.integers(1, 21, 1 << 22, dtype=np.int8)
        best = min(best, time.process_time() - t0)
    return (1 << 22) / best
before = d20()
t0 = time.process_time()
run_fight(system, fight, n, seed=1)
fights = n / (time.process_time() - t0)
print(fights / ((before + d20()) / 2) * 1000)
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--base", default="HEAD", help="git ref to compare against (HEAD)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--scale", type=float, default=0.5, help="multiply every trial count")
    ap.add_argument("--only", nargs="*", metavar="NAME", choices=list(CASES))
    args = ap.parse_args()
    cases = {k: v for k, v in CASES.items() if not args.only or k in args.only}
    with tempfile.TemporaryDirectory() as tmp:
        paths = {"base": export(args.base, Path(tmp)), "this": ROOT}
        per = {case: {"base": [], "this": []} for case in cases}
        for _ in range(args.repeat):
            for case, (spec, trials) in cases.items():
                n = max(1024, int(trials * args.scale))
                for side, path in paths.items():
                    per[case][side].append(rate(path, spec, n, TIMER))
    out = {}
    for case, runs in per.items():
        ratios = [t / b for b, t in zip(runs["base"], runs["this"], strict=True)]
        out[case] = {"base_per_1000_d20": round(statistics.median(runs["base"]), 3),
                     "this_per_1000_d20": round(statistics.median(runs["this"]), 3),
                     "ratio": round(statistics.median(ratios), 3),
                     "ratios": [round(r, 3) for r in ratios]}
    print(json.dumps({"benchmark": "yags_vs_base", "base": args.base, "repeat": args.repeat,
                      "scale": args.scale, "cases": out}))


if __name__ == "__main__":
    main()
