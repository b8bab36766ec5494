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
# # Win probabilities across stances and rule options
#
# Which stance beats which, does skill change the answer, and how much does a rule option
# matter? This notebook sweeps stances against stances at two skill levels, ranks the stances
# as a round robin, and sweeps one rule option with adaptive precision.
#
# For rule systems with a harm threshold (Ymlad), the same cells take
# `rules.harm_threshold: [1, 2, 3]` as an axis; here we use the Yags option
# `rules.base_difficulty`.

# %% tags=["parameters"]
TRIALS = 20_000
PRECISION = 0.01
SEED = 41

# %%
from pathlib import Path

from IPython.display import Image, display

from balance.report import figures
from balance.report.roundrobin import round_robin
from balance.sweep import load_plan, run_sweep



def show(fig):
    """Show a report figure (balance draws on Figure objects, not pyplot)."""
    display(Image(figures.png_bytes(fig)))


ROOT = Path.cwd().parent if Path.cwd().name == "notebooks" else Path.cwd()
STANCES = ROOT / "scenarios" / "sweeps" / "stances.yaml"

# %% [markdown]
# ## Stance against stance, at skill 2 and 5

# %%
plan = load_plan(STANCES)
table = run_sweep(plan, trials=TRIALS, seed=SEED, out=None).table
table[["red.stance", "blue.stance", "skill", "p_red", "lo_red", "hi_red", "rounds_mean"]]

# %%
for skill in (2, 5):
    sub = table[table["skill"] == skill]
    grid = sub.pivot(index="red.stance", columns="blue.stance", values="p_red")
    lo = sub.pivot(index="red.stance", columns="blue.stance", values="lo_red")
    hi = sub.pivot(index="red.stance", columns="blue.stance", values="hi_red")
    show(figures.heatmap(grid.to_numpy(), list(grid.index), list(grid.columns),
                            title=f"P(red wins) by stance, skill {skill}",
                            row_label="red's stance", col_label="blue's stance",
                            scale_label="P(red wins), %", low=lo.to_numpy(), high=hi.to_numpy(),
                            note=f"{TRIALS:,} trials per cell, seed {SEED}"))

# %% [markdown]
# ## Stances as a round robin
# Pool both seatings: a stance's score against another is its wins as red plus its wins as
# blue, over both cells. The ranking flags a stance that beats (or loses to) every other.

# %%
for skill in (2, 5):
    rr = round_robin(table[table["skill"] == skill], ("red.stance", "blue.stance"),
                     ("red", "blue"))
    print(f"skill {skill}")
    display(rr.ranking)

# %% [markdown]
# ## A rule option, with adaptive precision
# `precision=0.01` runs each cell in blocks of 16,384 trials until every outcome's 95%
# interval is at most ±1 point wide, instead of a fixed count.

# %%
rule = run_sweep(STANCES, seed=SEED, precision=PRECISION, out=None,
                 sweep={"grid": {"rules.base_difficulty": [10, 15, 20],
                                 "sides.0.members.0.stance": ["normal", "aggressive"]}}).table
rule[["base_difficulty", "red.stance", "p_red", "lo_red", "hi_red", "trials",
      "precision_met"]]

# %%
series = {}
for stance in ("normal", "aggressive"):
    sub = rule[rule["red.stance"] == stance]
    series[f"red {stance}"] = (sub["p_red"], sub["lo_red"], sub["hi_red"])
show(figures.intervals([10, 15, 20], series, title="P(red wins) by base difficulty",
                          x_label="rules.base_difficulty", y_label="P(red wins), %",
                          note=f"95% half-width <= {PRECISION}, seed {SEED}"))
