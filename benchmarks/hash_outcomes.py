"""Per-trial outcome hashes of every bundled fight: the check that a refactor changed nothing.

For every fight scenario under ``scenarios/`` (or the files and folders given), plays
``--trials`` fights (default 20,000; ``--stacked`` adds a 300,000-trial run, which stacks
blocks where the system allows) at ``--seed`` (default 3) and hashes, per trial, the
winner, the deciding round, every fighter's final status and who went down first
(SHA-256 of the arrays' bytes, in block order). With ``--base REF`` the same is computed in
a fresh process on the tree of a git ref (exported with ``git archive``) and every scenario
is marked same or DIFFERENT; the exit status is 1 if any differs.

    python benchmarks/hash_outcomes.py --base main
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import tempfile
from pathlib import Path

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

HERE = Path(__file__).resolve().parent.parent


def hashes(files: list[str], trials: list[int], seed: int) -> dict[str, str]:
    """``{"<file>@<trials>": sha256}`` with whatever ``balance`` this process imports."""
    import numpy as np

    import balance
    from balance.api import compile_scenario
    from balance.engine.run import run_fight

    out = {}
    for f in files:
        try:
            system, fight = compile_scenario(balance.load_scenario(f))
        except Exception as err:
            for n in trials:
                out[f"{f}@{n}"] = f"cannot run: {type(err).__name__}"
            continue
        for n in trials:
            h = hashlib.sha256()

            def observe(block: int, o, h=h) -> None:
                h.update(np.int64(block).tobytes())
                for arr in (o.winner, o.rounds, o.status, o.first_down):
                    if arr is not None:
                        h.update(np.ascontiguousarray(arr).tobytes())

            run_fight(system, fight, n, seed, observe=observe)
            out[f"{f}@{n}"] = h.hexdigest()[:16]
    return out


def main() -> int:
    sys.path.insert(0, str(HERE / "benchmarks"))
    from bench_suite import export, fight_files, in_tree

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("paths", nargs="*", default=[str(HERE / "scenarios")])
    ap.add_argument("--trials", type=int, default=20_000)
    ap.add_argument("--stacked", action="store_true", help="also 300,000 trials")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--base", help="git ref to compare against")
    args = ap.parse_args()
    files = [str(Path(f).resolve().relative_to(HERE)) for f in fight_files(args.paths)]
    trials = [args.trials] + ([300_000] if args.stacked else [])
    new = in_tree(HERE, "hash_outcomes", "hashes", files, trials, args.seed)
    if not args.base:
        for k, v in new.items():
            print(f"{v}  {k}")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        old = in_tree(export(args.base, Path(tmp)), "hash_outcomes", "hashes", files, trials,
                      args.seed)
    differ = [k for k in new if old.get(k) != new[k]]
    for k in new:
        print(f"{'same     ' if k not in differ else 'DIFFERENT'}  {k}")
    print(f"\n{len(new) - len(differ)} of {len(new)} the same as {args.base}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
