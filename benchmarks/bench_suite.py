"""Every bundled fight, timed as designers run it: fights per 1,000 d20 in the same run.

``make bench`` runs this first. For every fight scenario under ``scenarios/`` (not sweeps or
budgets; or every one in the folders and files given), it plays ``--trials`` fights (default
65,536, a designer's run) on one core, the best of ``--repeat`` timings, and divides the
rate by numpy's d20 rate timed alternately with it in the same process (machines here differ
about 2x, and the shared machine from minute to minute). It prints a line per scenario and a
summary: the median, the geometric mean and the worst, and the group fights' worst.

``--base REF`` measures this checkout against a git ref in the same run: each side plays
every scenario in a fresh process (``git worktree``-free: the ref's tree is exported with
``git archive`` into a temporary folder and imported from there), the two alternating
``--passes`` times; a scenario's ratio is the median over the passes of (this checkout's
rate / the ref's rate), each rate already relative to its own process's d20 rate. The
summary gives the geometric mean ratio, the median and the slowest scenario.

Speed is measured here, never asserted in a test.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

HERE = Path(__file__).resolve().parent.parent
CHUNK = 1 << 22


def fight_files(paths: list[str]) -> list[Path]:
    """The fight scenarios among ``paths`` (folders searched recursively): YAML files with a
    ``ruleset`` and ``sides`` and no ``sweep`` or ``claims``."""
    import yaml

    out = []
    for p in paths:
        p = Path(p)
        files = sorted(p.rglob("*.yaml")) if p.is_dir() else [p]
        for f in files:
            try:
                doc = yaml.safe_load(f.read_text())
            except yaml.YAMLError:
                continue
            if (isinstance(doc, dict) and "ruleset" in doc and "sides" in doc
                    and "sweep" not in doc and "claims" not in doc):
                out.append(f)
    return out


def measure(files: list[str], trials: int, repeat: int, seed: int = 1) -> list[dict]:
    """Each scenario's fights and d20s a second (best of ``repeat``, alternating), in this
    process, with whatever ``balance`` it imports."""
    import numpy as np

    import balance
    from balance.api import compile_scenario
    from balance.engine.run import run_fight

    rng = np.random.Generator(np.random.PCG64(1))

    def draw(calls: int) -> None:
        for _ in range(calls):
            rng.integers(1, 21, CHUNK, dtype=np.int8)

    def timed(fn) -> float:
        t0 = time.perf_counter()
        fn()
        return time.perf_counter() - t0

    out = []
    for f in files:
        loaded = balance.load_scenario(f)
        system, fight = compile_scenario(loaded)
        groups = len(fight.side_of) > 2

        def play(system=system, fight=fight) -> None:
            run_fight(system, fight, trials, seed)

        warm = timed(play)
        calls = max(1, round(warm / timed(lambda: draw(1))))
        best_f = best_d = math.inf
        for _ in range(repeat):
            best_d = min(best_d, timed(lambda calls=calls: draw(calls)))
            best_f = min(best_f, timed(play))
        fights, d20s = trials / best_f, calls * CHUNK / best_d
        out.append({"scenario": str(Path(f).relative_to(HERE)) if Path(f).is_absolute()
                    and HERE in Path(f).parents else str(f),
                    "ruleset": loaded.ruleset, "group": groups,
                    "fights_per_s": fights, "d20_per_s": d20s,
                    "per_1000_d20": 1000 * fights / d20s})
    return out


def in_tree(tree: Path, module: str, function: str, *args):
    """``module.function(*args)`` (a module of ``benchmarks/``) in a fresh process that
    imports ``balance`` from ``tree`` (this checkout, or a git ref's exported tree), run in
    that tree's folder; the arguments and the result travel as JSON."""
    code = ("import json, sys; sys.path.insert(0, sys.argv[1]); sys.path.insert(1, sys.argv[2]);"
            f"import {module} as m;"
            f"print(json.dumps(m.{function}(*json.loads(sys.argv[3]))))")
    env = dict(os.environ, PYTHONPATH=str(tree))
    res = subprocess.run([sys.executable, "-c", code, str(tree), str(HERE / "benchmarks"),
                          json.dumps(list(args))],
                         env=env, capture_output=True, text=True, check=True, cwd=tree)
    return json.loads(res.stdout.strip().splitlines()[-1])


def child(tree: Path, files: list[Path], trials: int, repeat: int) -> list[dict]:
    """``measure`` in a fresh process importing ``balance`` from ``tree``."""
    return in_tree(tree, "bench_suite", "measure", [str(f) for f in files], trials, repeat)


def export(ref: str, into: Path) -> Path:
    """The tree of git ``ref`` exported into ``into`` (no working tree needed)."""
    archive = subprocess.run(["git", "-C", str(HERE), "archive", ref], capture_output=True,
                             check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def geomean(xs: list[float]) -> float:
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else math.nan


def _num(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def summary(rows: list[dict]) -> dict:
    rates = [r["per_1000_d20"] for r in rows]
    groups = [r["per_1000_d20"] for r in rows if r["group"]]
    worst = min(rows, key=lambda r: r["per_1000_d20"])
    return {"scenarios": len(rows), "median": statistics.median(rates),
            "geomean": geomean(rates), "worst": worst["per_1000_d20"],
            "worst_scenario": worst["scenario"],
            "groups_worst": min(groups) if groups else None}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("paths", nargs="*", default=[str(HERE / "scenarios")],
                    help="scenario files or folders (default: the bundled scenarios)")
    ap.add_argument("--trials", type=int, default=65_536)
    ap.add_argument("--repeat", type=int, default=3, help="timings a scenario (best of)")
    ap.add_argument("--base", help="git ref to compare against, in the same run")
    ap.add_argument("--passes", type=int, default=2, help="alternations with --base")
    ap.add_argument("--json", action="store_true", help="one JSON object at the end")
    args = ap.parse_args()
    files = fight_files(args.paths)
    if not files:
        print("no fight scenarios found", file=sys.stderr)
        return 2
    if not args.base:
        rows = child(HERE, files, args.trials, args.repeat)
        for r in rows:
            print(f"{r['scenario']:<58} {r['per_1000_d20']:8.3f} per 1,000 d20 "
                  f"({r['fights_per_s']:,.0f} fights/s)")
        s = summary(rows)
        print(f"\n{s['scenarios']} scenarios at {args.trials:,} trials: median "
              f"{s['median']:.3f}, geometric mean {s['geomean']:.3f}, worst {s['worst']:.3f} "
              f"({s['worst_scenario']}); group fights' worst {_num(s['groups_worst'])}")
        if args.json:
            print(json.dumps({"rows": rows, "summary": s}))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        base = export(args.base, Path(tmp))
        runs = {"base": [], "new": []}
        for _ in range(args.passes):
            runs["base"].append(child(base, files, args.trials, args.repeat))
            runs["new"].append(child(HERE, files, args.trials, args.repeat))
    out = []
    for k in range(len(files)):
        ratios = [n[k]["per_1000_d20"] / b[k]["per_1000_d20"]
                  for b, n in zip(runs["base"], runs["new"], strict=True)]
        new = statistics.median(n[k]["per_1000_d20"] for n in runs["new"])
        old = statistics.median(b[k]["per_1000_d20"] for b in runs["base"])
        out.append({**runs["new"][0][k], "base": old, "new": new,
                    "ratio": statistics.median(ratios)})
        print(f"{out[-1]['scenario']:<58} {old:8.3f} -> {new:8.3f} per 1,000 d20  "
              f"x{out[-1]['ratio']:.2f}")
    ratios = [r["ratio"] for r in out]
    slowest = min(out, key=lambda r: r["ratio"])
    s = summary([{**r, "per_1000_d20": r["new"]} for r in out])
    print(f"\nagainst {args.base}: geometric mean x{geomean(ratios):.2f}, median "
          f"x{statistics.median(ratios):.2f}, slowest x{slowest['ratio']:.2f} "
          f"({slowest['scenario']}); now median {s['median']:.3f} per 1,000 d20, group "
          f"fights' worst {_num(s['groups_worst'])}")
    if args.json:
        print(json.dumps({"rows": out, "summary": s, "geomean_ratio": geomean(ratios)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
