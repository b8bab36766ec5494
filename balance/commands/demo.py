"""``balance demo``: run every bundled scenario and write the results (``make demo``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from balance.api import run
from balance.commands._types import count
from balance.errors import OptionError
from balance.io.atomic import check_replaceable, new_directory


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("demo", help="run the bundled scenarios into results/",
                       description="Run every scenario under SCENARIOS (recursively) and write "
                                   "one JSON result per scenario plus summary.md to OUT/demo.")
    p.add_argument("--scenarios", default="scenarios", help="folder of scenario files")
    p.add_argument("--out", default="results", help="results folder (default: results)")
    p.add_argument("--trials", type=count, help="override every scenario's trial count")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    root = Path(args.scenarios)
    check_replaceable(Path(args.out) / "demo")
    files = sorted(p for p in root.rglob("*.yaml") if not p.name.startswith("_"))
    files = [p for p in files if _is_scenario(p)]
    if not files:
        raise OptionError(f"no scenario files under {root}/")
    rows = ["| scenario | file | trials | outcome probabilities (95% interval) | mean rounds |",
            "|---|---|---|---|---|"]
    with new_directory(Path(args.out) / "demo") as tmp:
        for path in files:
            result = run(path, trials=args.trials, progress=not args.quiet)
            rel = path.relative_to(root)
            target = tmp / rel.with_suffix(".json")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(result.to_json() + "\n", encoding="utf-8")
            sys.stdout.write(result.to_text() + "\n\n")
            ci = result.ci95
            cells = ", ".join(f"{k} {100 * p:.1f}% [{100 * ci[k][0]:.1f}, {100 * ci[k][1]:.1f}]"
                              for k, p in result.outcomes.items())
            if result.alive_after is not None:
                cells += "; alive after: " + ", ".join(
                    f"{k} {100 * p:.1f}%" for k, p in result.alive_after.items())
            rows.append(f"| {result.scenario} | {rel} | {result.trials:,} | {cells} | "
                        f"{result.rounds['mean']:.2f} |")
        (tmp / "summary.md").write_text("# Demo results\n\n" + "\n".join(rows) + "\n",
                                        encoding="utf-8")
    sys.stdout.write(f"wrote {len(files)} results to {Path(args.out) / 'demo'}/\n")
    return 0


def _is_scenario(path: Path) -> bool:
    """Scenario files have a top-level ``ruleset:`` key (budgets and rosters do not); sweep
    files (a top-level ``sweep:`` block) are run by ``balance sweep``, not here."""
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    return any(line.startswith("ruleset:") for line in lines) and \
        not any(line.startswith("sweep:") for line in lines)
