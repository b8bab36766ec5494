"""The survival curve figure: the share of fights still open after each round.

One line per scenario or cell (or group of cells), drawn as steps from the rounds histogram
(see :mod:`balance.analysis.lengths`): the area under each curve is the mean length.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from balance.analysis.lengths import survival
from balance.report.figures import DASHES, OKABE_ITO, _note

MAX_LINES = 10


def survival_figure(hists: Mapping[str, np.ndarray], *, title: str, note: str = "") -> Figure:
    """P(fight still open after round r) against r, one step line per histogram."""
    fig = Figure(figsize=(7.5, 4.2), layout="constrained")
    ax = fig.add_subplot()
    last = 1
    for n, (name, hist) in enumerate(list(hists.items())[:MAX_LINES]):
        curve = np.array([*survival(hist), 0.0])
        if curve.size < 2:
            continue
        shown = np.flatnonzero(curve >= 0.005)
        last = max(last, int(shown.max()) + 2 if shown.size else 1)
        ax.step(np.arange(curve.size), 100 * curve, where="post", label=name,
                color=OKABE_ITO[n % len(OKABE_ITO)], linestyle=DASHES[n % len(DASHES)],
                linewidth=1.4)
    ax.set_xlim(0, last)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylim(0, 102)
    ax.set_xlabel("round")
    ax.set_ylabel("fights still open after the round, %")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    if len(hists) > 1:
        ax.legend(fontsize=8, frameon=False, ncols=2 if len(hists) > 5 else 1)
    _note(fig, note)
    return fig
