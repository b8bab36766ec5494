"""Percentile fights per second, this checkout against a base git ref, as same-run ratios.

Run with ``python benchmarks/bench_percentile.py [--base REF] [--repeat K]``. The base
ref's ``balance`` package is exported (``git archive``) into a temporary directory; each
repeat times every case once with the base and once with this checkout, alternating, in
fresh processes pinned to one thread, and keeps each side's best CPU-time rate. Prints one
JSON line: the rates and ``ratio`` (this / base) per case; a ratio of 1.0 is no change.
Not part of ``make test``: speed is measured here, never asserted in a test.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MEMBER = {"characteristics": {"STR": 13, "CON": 13, "SIZ": 13, "DEX": 12},
          "skills": {"attack": 60, "shield": 55}, "weapon": "broadsword",
          "shield": "full_shield", "armour": "leather"}
FIVE = {"name": "5v5", "ruleset": "percentile", "max_rounds": 60,
        "sides": [{"name": "a", "members": [dict(MEMBER, count=5)]},
                  {"name": "b", "members": [dict(MEMBER, count=5)]}]}
CASES = {   # name: (scenario file or dict, trials)
    "duel": ("scenarios/percentile/sword_and_shield_duel.yaml", 131_072),
    "archer_vs_charge": ("scenarios/percentile/archer_vs_charging_spearman.yaml", 65_536),
    "fight_in_the_dark": ("scenarios/percentile/fight_in_the_dark.yaml", 65_536),
    "corridor_one_vs_five": ("scenarios/percentile/corridor.yaml", 32_768),
    "five_vs_five": (FIVE, 32_768),
}
TIMER = """
import json, sys, time
import balance
from balance import rules
from balance.engine.run import run_fight
spec, n = json.loads(sys.argv[1])
loaded = balance.load_scenario(spec)
system = rules.get("percentile")
fight = system.compile(loaded.model, loaded.tables)
run_fight(system, fight, 2048, seed=1)
t0 = time.process_time()
run_fight(system, fight, n, seed=1)
print(n / (time.process_time() - t0))
"""


def export(ref: str, into: Path) -> Path:
    """``ref``'s balance package, unpacked under ``into``."""
    archive = subprocess.run(["git", "archive", ref, "balance"], cwd=ROOT, check=True,
                             capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def rate(path: Path, spec: object, trials: int, timer: str = TIMER) -> float:
    """What ``timer`` prints for ``spec`` (a scenario file under the checkout, or a dict)
    and ``trials`` with ``path``'s balance, in a fresh one-thread process."""
    env = {**os.environ, "PYTHONPATH": str(path), "OMP_NUM_THREADS": "1",
           "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    if isinstance(spec, str):
        spec = str(ROOT / spec)
    # -P: no working directory on sys.path, so PYTHONPATH picks which ``balance`` is timed
    out = subprocess.run([sys.executable, "-P", "-c", timer, json.dumps([spec, trials])],
                         env=env, check=True, capture_output=True, text=True, cwd=ROOT)
    return float(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--base", default="HEAD", help="git ref to compare against (HEAD)")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        paths = {"base": export(args.base, Path(tmp)), "this": ROOT}
        best = {side: dict.fromkeys(CASES, 0.0) for side in paths}
        for _ in range(args.repeat):
            for case, (spec, trials) in CASES.items():
                for side, path in paths.items():
                    best[side][case] = max(best[side][case], rate(path, spec, trials))
    print(json.dumps({
        "benchmark": "percentile_vs_base", "base": args.base, "repeat": args.repeat,
        "cases": {case: {"base_per_s": round(best["base"][case]),
                         "this_per_s": round(best["this"][case]),
                         "ratio": round(best["this"][case] / best["base"][case], 3)}
                  for case in CASES}}))


if __name__ == "__main__":
    main()
