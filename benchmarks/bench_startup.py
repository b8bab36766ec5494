"""Start-up time of the ``balance`` command, as ratios to ``python -c "import numpy"``.

Run with ``make bench`` (or ``python benchmarks/bench_startup.py [--repeat N]``). Prints one
JSON line. Each command runs ``--repeat`` times, interleaved with the numpy baseline so a busy
machine slows all of them alike; the ratios use the medians. The target (issue 18): ``balance
--help`` and ``balance validate`` under 3x the numpy import. ``tests/ux/test_startup.py``
guards the import list that makes this so.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = Path(sys.executable).with_name("balance")       # the installed command
BALANCE = [str(SCRIPT)] if SCRIPT.is_file() else [sys.executable, "-m", "balance.cli"]
COMMANDS = {
    "numpy": [sys.executable, "-c", "import numpy"],
    "help": [*BALANCE, "--help"],
    "version": [*BALANCE, "--version"],
    "validate": [*BALANCE, "validate", str(ROOT / "scenarios" / "yags" / "reference_duel.yaml")],
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args()
    times: dict[str, list[float]] = {k: [] for k in COMMANDS}
    for _ in range(args.repeat):
        for name, command in COMMANDS.items():
            t0 = time.perf_counter()
            subprocess.run(command, stdout=subprocess.DEVNULL, check=True, cwd=ROOT)
            times[name].append(time.perf_counter() - t0)
    base = statistics.median(times["numpy"])
    print(json.dumps({
        "benchmark": "startup",
        **{f"{k}_over_numpy": round(statistics.median(v) / base, 2) for k, v in times.items()
           if k != "numpy"},
        "repeat": args.repeat,
        "python": platform.python_version(),
        "machine": platform.machine(),
    }))


if __name__ == "__main__":
    main()
