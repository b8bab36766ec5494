"""Sweep speed: a 100-cell sweep of Yags duels at 20,000 trials per cell, local vs processes.

Prints one JSON line. Targets (issue 8): ``processes`` finishes in under 20 s on the project's
2-core machine, and ``processes`` with 2 workers is at least 1.6x as fast as ``local``. Every
run writes its results folder (table, tallies, manifest), so the times are end to end; the
tables of all executors must be identical. CPU seconds (this process and its workers) are
printed too: on a machine shared with other jobs, wall times understate the speed-up.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time

import pandas as pd

from balance.sweep import load_plan, run_sweep

WEAPONS = ["knife", "dagger", "short_sword", "club", "hand_axe", "mace", "broad_sword",
           "battle_axe", "long_sword", "spear"]
ARMOUR = [[], ["leather_vest"], ["soft_leather_jacket"], ["padded_jacket"], ["mail_vest"],
          ["mail_hauberk"], ["mail_hauberk", "helm"], ["breastplate"],
          ["breastplate", "helm"], ["plate"]]
FIGHTER = {"attributes": {"dexterity": 3, "agility": 3, "strength": 3},
           "skills": {"brawl": 4, "single_weapon": 4, "longshaft": 4},
           "weapon": "long_sword", "armour": ["mail_hauberk"]}
SCENARIO = {
    "name": "bench: 100 weapon x armour duels", "ruleset": "yags", "trials": 20_000, "seed": 1,
    "sides": [{"name": "attacker", "members": [FIGHTER]},
              {"name": "defender", "members": [FIGHTER]}],
    "sweep": {"grid": {"sides.0.members.0.weapon": WEAPONS,
                       "sides.1.members.0.armour": ARMOUR}},
}


def cpu() -> float:
    """CPU seconds of this process and its finished children (the pool's workers)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def timed(plan, out: str, **kw) -> tuple[float, float, pd.DataFrame]:
    """Wall seconds, CPU seconds (all processes) and the table of one sweep."""
    start, used = time.perf_counter(), cpu()
    res = run_sweep(plan, out=out, run_id="bench", **kw)
    return time.perf_counter() - start, cpu() - used, res.table


def main() -> None:
    plan = load_plan(SCENARIO)
    assert len(plan.cells) == 100
    load_before = os.getloadavg()[0]     # other work on the machine skews parallel timings
    with tempfile.TemporaryDirectory() as out:
        t_local, c_local, local = timed(plan, out)
        t_two, c_two, two = timed(plan, out, executor="processes", workers=2)
        t_all, _, every = timed(plan, out, executor="processes")
    for other in (two, every):
        pd.testing.assert_frame_equal(local, other, check_exact=True)
    print(json.dumps({
        "bench": "sweep", "cells": 100, "trials_per_cell": 20_000, "cores": os.cpu_count(),
        "local_s": round(t_local, 2), "processes_2_s": round(t_two, 2),
        "processes_all_s": round(t_all, 2), "speedup_2": round(t_local / t_two, 2),
        "duels_per_s_processes": round(100 * 20_000 / t_all), "tables_identical": True,
        # CPU seconds of all processes: the work the pool adds (start-up, pickling); wall
        # times on a machine shared with other jobs understate the speed-up, these do not
        "local_cpu_s": round(c_local, 2), "processes_2_cpu_s": round(c_two, 2),
        "load_before": round(load_before, 2), "load_after": round(os.getloadavg()[0], 2),
        "python": sys.version.split()[0],
    }))


if __name__ == "__main__":
    main()
