"""The exact engine against Monte Carlo, in the same run: every bundled duel it covers.

For each bundled fight scenario the exact engine covers (``--engine exact`` plays it),
times the exact answer (building the chain and stepping it; the scenario compiled once for
both) and a Monte Carlo run of 250,000 trials (standard error ~0.001 on a 50% outcome), the
best of ``--repeat`` timings each, alternating, on one core, and prints the states, the
transitions, both times and their ratio (the goal: the exact answer at least 10 times
faster; ``build``/``solve``: the chain's own timings of its last run). Then a 10-value
sweep of the covered duel answered fastest (``max_rounds`` 10, 20, ...,
100, or ``--vary PATH`` around its value), exact against 250,000 trials a cell, in the
same run (the goal: at least 10 times faster). Speed is measured here, never asserted in a
test.
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
    ap.add_argument("--vary", help="the swept field of the sweep benchmark, 10 values from 4 "
                                   "below its own (default: max_rounds 10, 20, ..., 100)")
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
        rows.append({"scenario": str(Path(f).resolve().relative_to(HERE)), "states": tally.states,
                     "transitions": tally.transitions, "exact_s": t_exact, "mc_s": t_mc,
                     "build_s": tally.build_seconds, "solve_s": tally.solve_seconds,
                     "speedup": t_mc / t_exact, "ruleset": loaded.ruleset})
        r = rows[-1]
        print(f"{r['scenario']:<50} {r['states']:>8,} states {r['transitions']:>10,} "
              f"transitions  exact {1000 * t_exact:8.1f} ms (build {1000 * r['build_s']:.0f}, "
              f"solve {1000 * r['solve_s']:.0f})  Monte Carlo {1000 * t_mc:8.1f} ms  "
              f"x{r['speedup']:.2f}")
    if rows:
        worst = min(rows, key=lambda r: r["speedup"])
        print(f"\n{len(rows)} duels: the exact answer {worst['speedup']:.2f}x as fast as "
              f"{args.trials:,} Monte Carlo trials at worst ({worst['scenario']})")
        _by_system(rows, args.trials)
    if rows:     # the sweep: of the duel the exact engine answers fastest
        sweep_row = _sweep(min(rows, key=lambda r: r["exact_s"])["scenario"], args)
        rows_out = {"duels": rows, "sweep": sweep_row}
    else:
        rows_out = {"duels": rows}
    if args.json:
        print(json.dumps(rows_out))
    return 0


# --- by rule system (the Yags rows: issue 29) ------------------------------------------------


def _by_system(rows: list[dict], trials: int) -> None:
    """One line per rule system: its covered duels, their chain sizes and the range of the
    exact answer's speed against ``trials`` Monte Carlo trials (below 1: slower). The basic
    Yags duels' chains are large (~56,000 states, 2-3 million transitions) and the kernel's
    basic path is fast, so there the exact answer costs more than 250,000 fights."""
    for ruleset in sorted({r["ruleset"] for r in rows}):
        mine = [r for r in rows if r["ruleset"] == ruleset]
        lo = min(mine, key=lambda r: r["speedup"])
        hi = max(mine, key=lambda r: r["speedup"])
        print(f"{ruleset}: {len(mine)} duels, {min(r['states'] for r in mine):,}-"
              f"{max(r['states'] for r in mine):,} states, "
              f"{min(r['transitions'] for r in mine):,}-"
              f"{max(r['transitions'] for r in mine):,} transitions; the exact answer "
              f"x{lo['speedup']:.2f} ({lo['scenario']}) to x{hi['speedup']:.2f} against "
              f"{trials:,} trials")


def _sweep(scenario: str, args) -> dict:
    """A 10-value sweep of ``scenario``, exact against Monte Carlo (same run, best of
    ``--repeat``, alternating)."""
    import yaml

    from balance.sweep import run_sweep

    data = yaml.safe_load((HERE / scenario).read_text())
    path = args.vary or "max_rounds"
    if args.vary:
        start = _value_at(data, path)
        values = list(range(max(0, start - 4), max(0, start - 4) + 10))
    else:                       # valid in every rule system: 10, 20, ..., 100 rounds
        values = list(range(10, 101, 10))
    block = {"grid": {path: values}}
    t_exact = t_mc = float("inf")
    for _ in range(args.repeat):
        t_exact = min(t_exact, best(lambda: run_sweep(data, sweep=block, out=None,
                                                      engine="exact"), 1))
        t_mc = min(t_mc, best(lambda: run_sweep(data, sweep=block, out=None, engine="vector",
                                                trials=args.trials), 1))
    print(f"\n{len(values)}-value sweep of {path} in {scenario}: exact {t_exact:.2f} s, "
          f"Monte Carlo at {args.trials:,} trials a cell {t_mc:.2f} s: x{t_mc / t_exact:.1f}")
    return {"scenario": scenario, "path": path, "values": values, "exact_s": t_exact,
            "mc_s": t_mc, "speedup": t_mc / t_exact}


def _value_at(data: dict, path: str) -> int:
    node = data
    for part in path.split("."):
        node = node[int(part)] if isinstance(node, list) else node[part]
    return int(node)


if __name__ == "__main__":
    sys.exit(main())
