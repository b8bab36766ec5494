# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Tuning a weapon table
#
# Change one number in the weapons table, re-run a sweep, and see the weapon-against-armour
# heat map move. Everything here goes through the public API (`balance.sweep`, `balance.load`,
# `balance.report`); the same sweep runs from the command line with
# `balance sweep scenarios/sweeps/weapon_vs_armour.yaml --report`.
#
# `TRIALS` is per cell: 20,000 gives intervals of about ±0.7 points; the tests run this
# notebook with far fewer.

# %% tags=["parameters"]
TRIALS = 20_000
SEED = 23

# %%
import copy
from pathlib import Path

import yaml
from IPython.display import Image, display

import balance
from balance.report import figures
from balance.sweep import compare, load_plan, run_sweep



def show(fig):
    """Show a report figure (balance draws on Figure objects, not pyplot)."""
    display(Image(figures.png_bytes(fig)))


ROOT = Path.cwd().parent if Path.cwd().name == "notebooks" else Path.cwd()
SWEEP = ROOT / "scenarios" / "sweeps" / "weapon_vs_armour.yaml"

# %% [markdown]
# ## The sweep as shipped
# An attacker with each weapon against a defender in each armour, at equal skill. The sweep
# block names the scenario fields it changes by path; `load_plan` checks every cell before
# anything runs.

# %%
plan = load_plan(SWEEP)
print(f"{len(plan.cells)} cells over {[a.name for a in plan.axes]}")
before = run_sweep(plan, trials=TRIALS, seed=SEED, out=None).table
before[["weapon", "armour", "p_attacker", "lo_attacker", "hi_attacker", "rounds_mean"]].head()


# %%
def heat(table, title, column="p_attacker", centre=0.5, scale="P(attacker wins), %"):
    """A weapon x armour heat map of one column of a sweep's table."""
    grid = table.pivot(index="weapon", columns="armour", values=column)
    return figures.heatmap(grid.to_numpy(), list(grid.index), list(grid.columns), title=title,
                           row_label="attacker's weapon", col_label="defender's armour",
                           scale_label=scale, centre=centre,
                           note=f"{TRIALS:,} trials per cell, seed {SEED}")


show(heat(before, "Shipped tables: P(attacker wins)"))

# %% [markdown]
# ## Edit a value and re-run
# Give the long sword one more point of damage (shipped: 6). A scenario changes a table row
# in its own `tables:` block; here we edit the scenario as data and run the same sweep.
# Every cell keeps its random streams (they are keyed by the cell's swept values), so the
# change you see is the change you made, not different dice.

# %%
data = yaml.safe_load(SWEEP.read_text())
data = copy.deepcopy(data)
data.setdefault("tables", {}).setdefault("weapons", {})["long_sword"] = {"damage": 7}
after = run_sweep(data, trials=TRIALS, seed=SEED, out=None).table
show(heat(after, "Long sword damage 7: P(attacker wins)"))

# %%
moved = after.copy()
moved["change"] = after["p_attacker"] - before["p_attacker"]
show(heat(moved, "Change in P(attacker wins) from long sword damage 6 -> 7",
             column="change", centre=0.0, scale="change, probability"))
moved.loc[moved["change"].abs().sort_values(ascending=False).index,
          ["weapon", "armour", "change"]].head(8)

# %% [markdown]
# The long sword's own row moves; so does every other row, because the **defender** fights
# with a long sword too.
#
# ## How sure is one difference? A paired comparison
# `compare` plays both versions from the same random streams and analyses the difference
# trial by trial (common random numbers), giving a paired 95% interval for it.

# %%
cell = next(i for i, c in enumerate(plan.cells)
            if c.values == {"weapon": "long_sword", "armour": "mail"})
base = plan.cell_data(plan.cells[cell])
longer = copy.deepcopy(base)
longer.setdefault("tables", {}).setdefault("weapons", {})["long_sword"] = {"damage": 7}
paired = compare(base, longer, metric="win", side="attacker", trials=TRIALS, seed=SEED)
lo, hi = paired.interval()
print(f"long sword vs mail: {100 * paired.a:.1f}% -> {100 * paired.b:.1f}%, change "
      f"{100 * paired.diff:+.1f} points [{100 * lo:+.1f}, {100 * hi:+.1f}] (paired); "
      f"independent runs would give [{100 * paired.independent_interval()[0]:+.1f}, "
      f"{100 * paired.independent_interval()[1]:+.1f}]")

# %% [markdown]
# ## Keep it
# Write a sweep to `results/` and make its report (the same as `balance sweep ... --report`):
#
# ```python
# res = run_sweep(data, trials=TRIALS, run_id="long_sword_7")
# from balance.report.build import write_report
# write_report(res.run_dir)            # results/long_sword_7/report/report.html
# table = balance.load("results/long_sword_7")
# ```

# %%
print(balance.__version__)
