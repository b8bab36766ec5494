"""``balance dice EXPR [--vs EXPR] [--json] [--samples N --seed S]``: exact dice odds.

Prints the exact distribution of a dice expression (or the exact chance that it is at least
another one) and, with ``--samples``, a seeded Monte Carlo estimate beside it as a check.
``balance dice --resistance ACTIVE PASSIVE`` gives the percentile family's Resistance Table
chance instead (see :mod:`balance.dice.resistance`).
Sampling runs in blocks of at most :data:`BLOCK` rolls, block ``i`` drawing from its own
stream ``SeedSequence(seed, spawn_key=(i,))``, so memory stays bounded and the numbers for a
given seed and sample count never depend on anything else.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Mapping

import numpy as np

from balance.commands._types import count
from balance.dice import DiceExpr, Pmf, parse
from balance.dice.resistance import resistance_chance, resistance_roll
from balance.engine.run import block_rng, block_sizes
from balance.errors import MAX_TRIALS, OptionError
from balance.io import jsonout
from balance.report.stats import wilson

BLOCK = 1_000_000
"""Most rolls sampled at once; each block has its own stream."""
MIN_SHOWN = 1e-12
"""Outcomes less likely than this are left out of the table (truncated drift tails)."""
"""Two-sided 95% normal quantile, for the Wilson interval."""


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``dice`` sub-command to the ``balance`` parser."""
    parser = subparsers.add_parser(
        "dice",
        help="exact distribution of a dice expression",
        description="Exact distribution of a dice expression such as '2d6+1d4-1', 'd20+12', "
                    "'drift+3', 'd%', '4d6kh3' (keep the highest 3; kl, dh, dl), 'd6!' "
                    "(exploding), '5d10>=7' (how many dice show 7 or more) or 'd20+5>=15' "
                    "(1 if the total is at least 15), or the exact chance that it is at least "
                    "another. Quote expressions with '!', '<' or '>' in the shell.",
        epilog="An expression that starts with '-' goes after '--' "
               "(balance dice -- -1+d6) or as --vs=-1+d6.",
    )
    parser.add_argument("expr", metavar="EXPR", nargs="?",
                        help="dice expression (required unless --resistance is given)")
    parser.add_argument("--vs", metavar="EXPR",
                        help="print P(EXPR >= this expression), the two rolled independently")
    parser.add_argument("--resistance", nargs=2, type=int, metavar=("ACTIVE", "PASSIVE"),
                        help="exact chance that characteristic ACTIVE overcomes PASSIVE on "
                             "the percentile family's Resistance Table (50%% + 5%% a point)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--samples", type=count, metavar="N",
                        help="also estimate by rolling N times (a check on the exact values)")
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="root seed for --samples (default: 0)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Handle ``balance dice``: validate the options, compute, print; returns 0."""
    samples, seed = args.samples, args.seed
    if samples is not None and samples <= 0:
        raise OptionError(f"--samples must be a positive integer, got {samples}")
    if samples is not None and samples > MAX_TRIALS:
        raise OptionError(f"--samples must be at most {MAX_TRIALS:,}, got {samples:,}")
    if seed < 0:
        raise OptionError(f"--seed must be a non-negative integer, got {seed}")
    resistance = getattr(args, "resistance", None)
    if resistance is not None:
        if args.expr is not None or args.vs is not None:
            raise OptionError("--resistance takes no dice expression and no --vs")
        _resistance(*resistance, samples, seed, as_json=args.json)
        return 0
    if args.expr is None:
        raise OptionError("a dice expression is required (or --resistance ACTIVE PASSIVE)")
    expr = parse(args.expr)
    vs = parse(args.vs) if args.vs is not None else None
    if vs is None:
        _distribution(expr, samples, seed, as_json=args.json)
    else:
        _comparison(expr, vs, samples, seed, as_json=args.json)
    return 0


# ------------------------------------------------------------------------------ sampling
def sampled_counts(expr: DiceExpr, samples: int, seed: int, block: int = BLOCK) -> dict[int, int]:
    """Roll ``expr`` ``samples`` times: ``{outcome: count}``, ascending."""
    counts: dict[int, int] = {}
    for index, size in enumerate(block_sizes(samples, block)):
        rolls = expr.sample(block_rng(seed, index), size)
        lo = int(rolls.min())
        tally = np.bincount(rolls - lo)
        for offset in np.flatnonzero(tally):
            outcome = lo + int(offset)
            counts[outcome] = counts.get(outcome, 0) + int(tally[offset])
    return dict(sorted(counts.items()))


def sampled_at_least(expr: DiceExpr, vs: DiceExpr, samples: int, seed: int,
                     block: int = BLOCK) -> int:
    """How many of ``samples`` independent rolls of ``expr`` are at least a roll of ``vs``."""
    hits = 0
    for index, size in enumerate(block_sizes(samples, block)):
        rng = block_rng(seed, index)
        first = expr.sample(rng, size)
        hits += int(np.count_nonzero(first >= vs.sample(rng, size)))
    return hits


# ------------------------------------------------------------------------------- output
def _out(text: str = "") -> None:
    sys.stdout.write(text + "\n")


def _pct(p: float) -> str:
    return f"{100 * p:.4f}%" if p == 0 or p >= 5e-7 else f"{100 * p:.3e}%"


def _json_pmf(probs: Mapping[int, float]) -> dict[str, float]:
    return {str(k): float(v) for k, v in sorted(probs.items())}


def _moments(counts: Mapping[int, int]) -> tuple[float, float]:
    """Mean and (population) sd of a tally."""
    x = np.fromiter(counts.keys(), dtype=np.float64)
    w = np.fromiter(counts.values(), dtype=np.float64)
    mean = float(np.dot(x, w) / w.sum())
    return mean, math.sqrt(float(np.dot((x - mean) ** 2, w) / w.sum()))


def _distribution(expr: DiceExpr, samples: int | None, seed: int, *, as_json: bool) -> None:
    pmf = expr.pmf()
    counts = sampled_counts(expr, samples, seed) if samples else None
    if as_json:
        doc: dict[str, object] = {"expr": expr.text, "pmf": _json_pmf(pmf.to_dict()),
                                  "mean": pmf.mean(), "sd": pmf.sd()}
        if expr.left_out():
            doc["left_out"] = expr.left_out()
        if counts is not None:
            mean, sd = _moments(counts)
            doc |= {"samples": samples, "seed": seed, "sampled": {
                "pmf": _json_pmf({k: c / samples for k, c in counts.items()}),
                "mean": mean, "sd": sd}}
        _out(jsonout.dumps(doc))
        return
    _out(_table(expr, pmf, counts, samples, seed))


def _table(expr: DiceExpr, pmf: Pmf, counts: Mapping[int, int] | None,
           samples: int | None, seed: int) -> str:
    shown = pmf.probs >= MIN_SHOWN
    rows = [(str(x), _pct(p), _pct(s))
            for x, p, s, keep in zip(pmf.outcomes.tolist(), pmf.probs.tolist(),
                                     pmf.at_least().tolist(), shown.tolist(), strict=True)
            if keep]
    head = ("outcome", "P(=)", "P(>=)")
    if counts is not None:
        head += ("sampled P(=)",)
        rows = [(*row, _pct(counts.get(int(row[0]), 0) / samples)) for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)]
    lines = [str(expr) if str(expr) == expr.text.strip() else f"{expr.text.strip()}  ({expr})"]
    lines += [f"  {words}" for words in expr.describe()]
    lines += ["  ".join(c.rjust(w) for c, w in zip(row, widths, strict=True))
              for row in (head, *rows)]
    hidden = int(np.count_nonzero(~shown))
    if hidden:
        lines.append(f"({hidden} outcomes with probability below {MIN_SHOWN:g} not shown)")
    if expr.left_out():
        lines.append(_left_out(expr))
    mean, sd = f"mean  {pmf.mean():.6f}", f"sd    {pmf.sd():.6f}"
    if counts is not None:
        s_mean, s_sd = _moments(counts)
        mean, sd = f"{mean}   sampled {s_mean:.6f}", f"{sd}   sampled {s_sd:.6f}"
        lines += [mean, sd, f"sampled: {samples:,} rolls, seed {seed}"]
    else:
        lines += [mean, sd]
    return "\n".join(lines)


def _left_out(expr: DiceExpr) -> str:
    """The line saying how much probability the exact pmf leaves out, and why."""
    return (f"(left out of the exact table: {expr.left_out():.2g} of the probability, "
            f"{'; '.join(expr.cuts())})")


def _comparison(expr: DiceExpr, vs: DiceExpr, samples: int | None, seed: int, *,
                as_json: bool) -> None:
    p = expr.pmf().p_at_least(vs.pmf())
    hits = sampled_at_least(expr, vs, samples, seed) if samples else None
    if as_json:
        doc: dict[str, object] = {"expr": expr.text, "vs": vs.text, "p_at_least": p}
        if hits is not None:
            doc |= {"samples": samples, "seed": seed, "sampled_p_at_least": hits / samples}
        _out(jsonout.dumps(doc))
        return
    _out(f"P({expr} >= {vs}) = {p:.6f}  ({_pct(p)})")
    if hits is not None:
        lo, hi = wilson(hits, samples)
        _out(f"sampled: {hits / samples:.6f}  (95% Wilson {lo:.6f}..{hi:.6f}; "
             f"{samples:,} rolls, seed {seed})")


def _resistance(active: int, passive: int, samples: int | None, seed: int, *,
                as_json: bool) -> None:
    """The Resistance Table chance, exact, with a seeded sampled check if asked."""
    for name, value in (("ACTIVE", active), ("PASSIVE", passive)):
        if not 0 <= value <= 1000:
            raise OptionError(f"--resistance {name} must be between 0 and 1000, got {value}")
    p = int(resistance_chance(active, passive)) / 100
    hits = None
    if samples:
        hits = sum(int(np.count_nonzero(resistance_roll(block_rng(seed, index), active,
                                                        passive, size)))
                   for index, size in enumerate(block_sizes(samples, BLOCK)))
    if as_json:
        doc: dict[str, object] = {"active": active, "passive": passive, "p_success": p}
        if hits is not None:
            doc |= {"samples": samples, "seed": seed, "sampled_p_success": hits / samples}
        _out(jsonout.dumps(doc))
        return
    _out(f"P(active {active} overcomes passive {passive}) = {p:.2f}  ({_pct(p)})")
    if hits is not None:
        lo, hi = wilson(hits, samples)
        _out(f"sampled: {hits / samples:.6f}  (95% Wilson {lo:.6f}..{hi:.6f}; "
             f"{samples:,} rolls, seed {seed})")
