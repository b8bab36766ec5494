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
# # The questions a designer asks, from Python
#
# A knight with a long sword meets a spearman (`scenarios/yags/longsword_vs_spear.yaml`).
# Which single +1 helps the knight most, and is the lead real? What spear damage makes the
# fight 50/50? What is +1 armour worth in skill? How does each long sword damage compare
# with the shipped one? How long do these fights last, and what numbers does each fighter
# really fight with? Each is one call of `balance.analysis` (the same as the commands in
# `docs/questions.md`). Every version of the scenario plays the same dice, and changes are
# analysed trial by trial.
#
# `TRIALS` is per version of the scenario; the tests run this notebook with far fewer.

# %% tags=["parameters"]
TRIALS = 100_000
SEED = 7

# %%
import tempfile
from pathlib import Path

import pandas as pd
from IPython.display import Image, display

import balance
from balance.analysis import exchange, explain, sensitivity, solve
from balance.analysis.compare import compare_run
from balance.report import figures
from balance.report.survival import survival_figure
from balance.report.tornado import tornado
from balance.sweep import run_sweep


def show(fig):
    """Show a report figure (balance draws on Figure objects, not pyplot)."""
    display(Image(figures.png_bytes(fig)))


ROOT = Path.cwd().parent if Path.cwd().name == "notebooks" else Path.cwd()
DUEL = ROOT / "scenarios" / "yags" / "longsword_vs_spear.yaml"
BLOCK = min(16_384, TRIALS)          # whole blocks; small runs use one small block
KNIGHT = "sides.knight.members.0"

# %% [markdown]
# ## Which single +1 helps most, and is the difference real?
# Each field moves up one step; the changes are ranked, each with a paired 95% interval and
# whether it survives Holm's correction over all of them. `best` compares the top gain with
# the runner-up on the same trials.

# %%
sens = sensitivity(DUEL, paths=[f"{KNIGHT}.skills.single_weapon",
                                f"{KNIGHT}.attributes.dexterity",
                                f"{KNIGHT}.attributes.strength", f"{KNIGHT}.attributes.agility"],
                   rows=["weapons:long_sword"], fields=["attack", "defence", "damage"],
                   both=False, side="knight", trials=TRIALS, seed=SEED, block_trials=BLOCK)
print(sens.headline()[-1])
show(tornado(sens))
pd.DataFrame([r.to_dict() for r in sens.rows])[["label", "from", "to", "delta", "ci95",
                                                 "significant"]]

# %% [markdown]
# ## What spear damage makes it 50/50?
# A sequential search: far values get one block, the values around the crossing get every
# trial. The interval is the range of values consistent with 50% at 95%. A whole-number field
# may jump across 50% between two values (the shipped duel does: docs/questions.md); the
# answer then names the closer one and says so.

# %%
even = solve(DUEL, "tables.weapons.spear.damage", 0.5, side="knight", trials=TRIALS,
             seed=SEED, block_trials=BLOCK)
print(even.to_text())

# %% [markdown]
# ## What is +1 armour worth in skill?
# The ratio of the two paired changes, with Fieller's interval.

# %%
worth = exchange(DUEL, give="tables.armour.helm.protection",
                 take=f"{KNIGHT}.skills.single_weapon", side="knight", trials=TRIALS,
                 seed=SEED, block_trials=BLOCK)
print(worth.sentence())

# %% [markdown]
# ## Every long sword damage against the shipped one
# The shipped sweep `long_sword_damage.yaml` names a baseline (damage 6); with common random
# numbers every cell's delta is paired with it. `compare_run` ranks them.

# %%
with tempfile.TemporaryDirectory() as tmp:
    res = run_sweep(ROOT / "scenarios" / "sweeps" / "long_sword_damage.yaml", trials=TRIALS,
                    block_trials=BLOCK, out=tmp)
    ranked = compare_run(res.run_dir)
print(ranked.to_text())

# %% [markdown]
# ## How long do these fights last?
# The survival curve: the share of fights still open after each round. Its sum is the mean
# length; the hazard says whether fights end at a steady rate.

# %%
run = balance.run(DUEL, trials=TRIALS, seed=SEED)
print(f"mean {run.rounds['mean']:.2f} rounds = sum of the curve {sum(run.survival):.2f}")
show(survival_figure({"long sword vs spear": run.tally.rounds},
                     title="Long sword vs spear: fights still open after each round",
                     note=f"{TRIALS:,} trials, seed {SEED}"))
hazard = run.hazard[:10]
pd.Series(hazard, index=range(1, len(hazard) + 1), name="hazard").to_frame().T

# %% [markdown]
# ## What numbers does each fighter really fight with?

# %%
doc = explain(DUEL)
pd.DataFrame({f["name"]: {k: f["numbers"][k] for k in f["headline"]}
              for f in doc["fighters"]})

# %%
print(balance.__version__)
