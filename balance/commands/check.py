"""``balance check BUDGET``: judge a balance budget's claims; exit 1 when one fails."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from balance.commands._types import add_set, count
from balance.sweep.executors import EXECUTORS


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "check", help="check a balance budget (CI gate): exit 1 when a claim fails",
        description="Run what each claim of the budget needs, print one line per claim "
                    "(pass / fail / inconclusive, with the interval), write check.md and "
                    "check.json to OUT, and exit 1 when a claim fails. Claims are judged by "
                    "intervals corrected for their cells, so noise alone does not fail a "
                    "build; inconclusive claims get more trials, up to the budget's cap.",
        epilog="Example: balance check scenarios/budget.yaml. See docs/sweeps.md.")
    p.add_argument("budget", metavar="BUDGET", help="balance budget YAML file")
    p.add_argument("--out", default="results",
                   help="results folder, as for balance sweep: check.md and check.json go to "
                        "OUT/RUN_ID/ (default: results, so results/check-budget/ for "
                        "budget.yaml); an OUT that is already a check folder (check.json and "
                        "check.md in it) is replaced as before issue 30, with a note")
    p.add_argument("--run-id", help="name of the check's folder under OUT (default: "
                                    "check-<budget file name without .yaml>)")
    p.add_argument("--junit", metavar="FILE",
                   help="also write the verdicts as JUnit XML for CI test views: one test "
                        "suite per claim, one test case per cell (inconclusive cells are "
                        "skipped, or failures with --strict)")
    p.add_argument("--seed", type=int, help="root seed (default: the budget's)")
    p.add_argument("--strict", action="store_true", help="exit 1 on an inconclusive claim too")
    p.add_argument("--max-trials", type=count, metavar="N",
                   help="cap on trials per cell for every claim, over the budget's max_trials "
                        "(to decide inconclusive claims)")
    p.add_argument("--executor", choices=EXECUTORS, default="local",
                   help="where cells run (as for balance sweep)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="Dask scheduler address")
    p.add_argument("--workers", type=int, metavar="K", help="worker processes")
    add_set(p)
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from balance.errors import MAX_TRIALS, OptionError
    from balance.gate import check_budget, to_markdown, write_results
    from balance.progress import progress_bar
    from balance.report.build import append_step_summary

    if args.max_trials is not None and args.max_trials < 1:
        raise OptionError(f"--max-trials must be a positive integer, got {args.max_trials}")
    if args.max_trials is not None and args.max_trials > MAX_TRIALS:
        raise OptionError(f"--max-trials must be at most {MAX_TRIALS:,}, got {args.max_trials:,}")
    from balance.sweep.run import SWEEP_BLOCK_TRIALS

    if args.max_trials is not None and args.max_trials < SWEEP_BLOCK_TRIALS:
        raise OptionError(f"--max-trials must be at least {SWEEP_BLOCK_TRIALS:,} (a cell plays "
                          f"whole blocks of {SWEEP_BLOCK_TRIALS:,} trials), got "
                          f"{args.max_trials:,}")
    from balance.io.atomic import check_replaceable

    out = check_folder(args.out, args.run_id, args.budget)
    check_replaceable(out)                # before the claims run, not after
    if args.junit:
        from balance.io.atomic import check_writable

        if Path(args.junit).is_dir():
            raise OptionError(f"--junit {args.junit}: is a folder; give a file name such as "
                              "check-junit.xml")
        check_writable(args.junit, what="file")
        if Path(args.junit).resolve().parent == out.resolve():
            raise OptionError(f"--junit {args.junit}: inside the output folder {out}, which is "
                              "replaced whole; put it beside it")
    from balance.sweep.overrides import note, parse_sets

    sets = parse_sets(args.sets)
    from balance.gate.run import prepare_all

    prepared = prepare_all(args.budget, sets)     # every problem of the budget, at once
    claims = len(prepared[0].model.claims)
    from balance.gate.run import rounding_notes

    for line in rounding_notes(prepared[0]):
        sys.stderr.write(f"note: {line}\n")
    if sets:
        sys.stdout.write(f"(every claim's scenario {note(sets)})\n")
    bar = progress_bar(claims, unit="claim", desc="balance check", delay=0.0)

    def show(result) -> None:
        bar.clear()
        sys.stdout.write("".join(f"{line}\n" for line in
                                 [result.line(), *(" " * 13 + d for d in result.details())]))
        sys.stdout.flush()
        bar.update(1)

    looked = [0]

    def cell(claim: int, _cell: object) -> None:
        looked[0] += 1      # every cell's look, as it finishes, under every executor
        bar.set_postfix_str(f"claim {claim + 1}: {looked[0]:,} cell looks", refresh=True)

    try:
        result = check_budget(args.budget, executor=args.executor, scheduler=args.scheduler,
                              workers=args.workers, seed=args.seed,
                              max_trials=args.max_trials, on_claim=show, on_cell=cell,
                              sets=sets, prepared=prepared)
    finally:
        bar.close()
    write_results(result, out)
    if args.junit:
        from balance.gate.junit import write_junit

        write_junit(result, args.junit, strict=args.strict)
    append_step_summary(to_markdown(result))
    c = result.counts()
    junit = f" and {args.junit}" if args.junit else ""
    sys.stdout.write(f"\n{c['pass']} passed, {c['fail']} failed, {c['inconclusive']} "
                     f"inconclusive; wrote {out / 'check.md'}{junit}\n")
    return 1 if result.failed or (args.strict and result.inconclusive) else 0


def check_folder(out: str, run_id: str | None, budget: str) -> Path:
    """Where check.md and check.json go: ``OUT/RUN_ID`` (``--out`` is the results folder, as
    for ``balance sweep``; the run id defaults to ``check-<budget name>``). Before issue 30
    ``--out`` named the check's folder itself; an ``--out`` that is such a folder (the lab's
    check.json and check.md in it) is still taken so, with a note on stderr."""
    import re

    from balance.errors import OptionError

    folder = Path(out)
    if run_id is None and (folder / "check.json").is_file() and \
            (folder / "check.md").is_file():
        sys.stderr.write(f"note: {folder} is a check folder, replaced as --out meant before "
                         f"issue 30; --out now names the results folder, as for balance "
                         f"sweep: write --out {folder.parent} --run-id {folder.name} for it\n")
        return folder
    run_id = run_id or f"check-{Path(budget).stem}"
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}", run_id):
        raise OptionError(f"--run-id must be letters, digits, '.', '_' or '-' (at most 100), "
                          f"got {run_id!r}")
    if folder.exists() and not folder.is_dir():
        raise OptionError(f"{folder}: is a file; the results folder (--out) must be a folder")
    return folder / run_id
