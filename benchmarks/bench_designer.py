"""What a designer's duels run at, as same-run ratios to the benchmark duel.

The benchmark duel (``scenarios/yags/reference_duel.yaml``: no reach difference, no
knockback) is the fastest Yags fight; a designer's duel with the detailed melee rules at
work (reach, stepping back, knockback) is slower. This prints, for the benchmark, the
README's tour duel (``my_duel.yaml``, read from README.md) and the long sword against the
spear, fights per 1,000 d20s numpy draws on the same core and the ratio to the benchmark,
best of three alternating passes (``make bench``; the README's speed line comes from here).
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import numpy as np  # noqa: E402

import balance  # noqa: E402
from balance import rules  # noqa: E402
from balance.engine.run import run_fight  # noqa: E402
from balance.tools.docnumbers import read  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TRIALS = 131_072


def fights() -> dict[str, tuple]:
    tour = Path(tempfile.mkdtemp()) / "my_duel.yaml"
    tour.write_text(read(ROOT / "README.md").files["my_duel.yaml"], encoding="utf-8")
    paths = {"benchmark": ROOT / "scenarios/yags/reference_duel.yaml", "tour": tour,
             "longsword_vs_spear": ROOT / "scenarios/yags/longsword_vs_spear.yaml"}
    out = {}
    for name, path in paths.items():
        loaded = balance.load_scenario(path)
        system = rules.get(loaded.ruleset)
        out[name] = (system, system.compile(loaded.model, loaded.tables))
    return out


def main() -> None:
    rng = np.random.default_rng(1)
    todo = fights()
    best = dict.fromkeys(todo, float("inf"))
    d20 = 0.0
    for rep in range(3):
        for name, (system, fight) in todo.items():
            t0 = time.perf_counter()
            rng.integers(1, 21, 20_000_000, dtype=np.int8)
            d20 = max(d20, 20_000_000 / (time.perf_counter() - t0))
            t0 = time.perf_counter()
            run_fight(system, fight, TRIALS, seed=rep)
            best[name] = min(best[name], time.perf_counter() - t0)
    print(json.dumps({name: {"per_1000_d20": round(1000 * TRIALS / t / d20, 2),
                             "ratio_to_benchmark": round(best["benchmark"] / t, 3),
                             "duels_per_s_here": round(TRIALS / t)}
                      for name, t in best.items()}))


if __name__ == "__main__":
    main()
