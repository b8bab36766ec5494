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
# # The metagame of a weapon table, and autobalance
#
# A table is balanced when no choice is always right, not when every duel is 50/50. This
# notebook reads the shipped Yags weapon round robin as a game: the equilibrium mix, the
# dominated weapons, what each weapon is worth to the metagame (restricted play). Then it
# searches attack bonuses that bring weapons of the same reach towards even, checks the
# result on fresh random numbers, and reads the metagame again. The same from the command
# line: `balance metagame scenarios/sweeps/weapon_round_robin.yaml` and `balance autobalance ...`
# (see docs/metagame.md).
#
# `TRIALS` is per cell: 20,000 gives each pooled match-up an interval of about ±0.5 points;
# the tests run this notebook with far fewer.

# %% tags=["parameters"]
TRIALS = 20_000
SEED = 17

# %%
from pathlib import Path

from IPython.display import Image, display

from balance.analysis.autobalance import autobalance
from balance.analysis.matrix import from_run
from balance.analysis.metagame import analyse
from balance.report import figures
from balance.report.metagame import matrix_heatmap, mix_figure, source_note
from balance.sweep import run_sweep



def show(fig):
    """Show a report figure (balance draws on Figure objects, not pyplot)."""
    display(Image(figures.png_bytes(fig)))


ROOT = Path.cwd().parent if Path.cwd().name == "notebooks" else Path.cwd()
SWEEP = ROOT / "scenarios" / "sweeps" / "weapon_round_robin.yaml"
SAME_REACH = ROOT / "scenarios" / "sweeps" / "weapon_round_robin_same_reach.csv"

# %% [markdown]
# ## The round robin as a game
# Every weapon against every other, both seatings pooled, a draw as half a win: the matrix
# of a symmetric game. `analyse` solves its equilibrium exactly (a linear program) and
# reports what follows from it.

# %%
res = run_sweep(SWEEP, trials=TRIALS, seed=SEED, out=None)
game = analyse(from_run(res.table, res.manifest))
for sentence in game.findings:
    print("-", sentence)

# %%
note = source_note(game.matrix)
show(matrix_heatmap(game.matrix, game.order(), "Row's win rate, by equilibrium weight", note))
show(mix_figure(game, note))

# %% [markdown]
# Restricted play: the best win rate a player can guarantee when forbidden one weapon (the
# opponent may still use it). The weapons whose loss costs the most carry the metagame.

# %%
for row in game.to_dict()["restricted_play"]:
    print(f"{row['option']:>12}: {100 * row['value_without']:5.1f}% without it "
          f"(costs {100 * row['loss']:.1f} points)")

# %% [markdown]
# ## Autobalance: even match-ups within each reach class
# Reach is the seed's (reach classes are rules, not numbers to tune), so a longer weapon may
# beat a shorter one; the target asks only that weapons of the same reach be even (the CSV
# leaves every other cell blank, and the makeshift club free). The search varies attack
# bonuses, one weapon of each same-reach pair it must move (the mace's too: it plays the
# short sword and the hand axe, and the search can move only what it may vary), with common
# random numbers between candidates; "after" is measured on fresh random numbers.
# docs/metagame.md gives the figures of a full run (20,000 trials per cell).

# %%
tuned = autobalance(SWEEP, ["tables.weapons.spear.attack", "tables.weapons.long_sword.attack",
                            "tables.weapons.battle_axe.attack", "tables.weapons.hand_axe.attack",
                            "tables.weapons.mace.attack"],
                    target=SAME_REACH, trials=TRIALS, seed=SEED)
for sentence in tuned.summary():
    print("-", sentence)
print(tuned.yaml_snippet())

# %%
for label, measured in (("Before", tuned.before), ("After", tuned.after)):
    show(matrix_heatmap(measured.matrix, range(len(measured.matrix.options)),
                        f"{label}: max deviation from the target "
                        f"{100 * measured.max_abs_dev:.1f} points", note))

# %% [markdown]
# ## The metagame after the retune
# The "after" matrix is a full round robin: read it as a game again.

# %%
after = analyse(tuned.after.matrix)
for sentence in after.findings:
    print("-", sentence)
show(mix_figure(after, note, title="Equilibrium mix after the retune"))
