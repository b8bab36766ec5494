"""The test tiers: ``make test`` runs everything; ``make test-fast`` leaves out the tests
marked ``slow``, for the inner loop (under 90 s on the 2-core machine).

A test is slow when it is marked ``@pytest.mark.slow`` or listed in ``tests/slow.txt``: the
tests that took half a second or more in a measured run of the whole suite (statistical
agreement runs, notebooks, the bundled-scenario invariants). Regenerate the list after
adding long tests:

    .venv/bin/python -m pytest -n 2 -q --durations=0 > /tmp/durations.log
    .venv/bin/python tests/tiers.py /tmp/durations.log

The hand-derived exact cases of each rule system, the units and the error messages stay in
the fast tier.
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from pathlib import Path

LIST = Path(__file__).with_name("slow.txt")
THRESHOLD = 0.5     # seconds of setup + call + teardown in the measured run


def slow_ids() -> frozenset[str]:
    """The node ids listed as slow."""
    if not LIST.exists():
        return frozenset()
    lines = LIST.read_text().splitlines()
    return frozenset(line.strip() for line in lines if line.strip() and not line.startswith("#"))


def update(durations_log: str) -> int:
    """Write ``slow.txt`` from a ``pytest --durations=0`` log."""
    spent: dict[str, float] = defaultdict(float)
    for line in Path(durations_log).read_text().splitlines():
        m = re.match(r"^([0-9.]+)s (call|setup|teardown)\s+(\S.*)$", line)
        if m:
            spent[m.group(3).strip()] += float(m.group(1))
    slow = sorted(k for k, v in spent.items() if v >= THRESHOLD)
    LIST.write_text("# tests that took >= 0.5 s in a measured run (tests/tiers.py)\n"
                    + "\n".join(slow) + "\n")
    print(f"{len(slow)} slow tests of {len(spent)} timed; wrote {LIST}")
    return 0


if __name__ == "__main__":
    sys.exit(update(sys.argv[1]))
