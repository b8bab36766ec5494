"""A finished sweep in words: its cells as an aligned text table, and how long it took."""

from __future__ import annotations

SHOWN_CELLS = 40


def cells_text(n: int) -> str:
    """``1 cell``, ``6 cells``."""
    return f"{n} cell{'' if n == 1 else 's'}"


def workers_text(executor: dict) -> str:
    """``local, 1 worker``, ``processes, 2 workers``."""
    n = executor.get("workers") or 0
    return f"{executor['kind']}, {n} worker{'' if n == 1 else 's'}" if n else executor["kind"]


def timing(manifest: dict) -> str:
    """Wall time (what the designer waited) and compute time (the cells' own, summed over
    workers), and what ran them: ``wall 4.2 s, compute 7.9 s (processes, 2 workers)``."""
    wall, compute = manifest["seconds"], manifest.get("cell_seconds")
    cpu = f", compute {compute:.1f} s" if compute is not None else ""
    return f"wall {wall:.1f} s{cpu} ({workers_text(manifest['executor'])})"


def summary_text(table, manifest: dict) -> str:
    """The cells as an aligned text table: swept values, outcome probabilities, rounds."""
    axes = [a["name"] for a in manifest["axes"]]
    outcomes = manifest["outcomes"]
    exact = manifest.get("engine") == "exact"
    if exact:       # no intervals, no trials: every cell solved exactly (balance.exact)
        head = [*axes, *(f"{o} %" for o in outcomes), "rounds"]
    else:
        head = [*axes, *(f"{o} %" for o in outcomes), "95% interval (" + outcomes[0] + ")",
                "rounds", "trials"]
    rows = []
    for _, r in table.head(SHOWN_CELLS).iterrows():
        cells = [*(str(r[a]) for a in axes),
                 *(f"{100 * r[f'p_{o}']:.1f}" for o in outcomes)]
        if exact:
            rows.append([*cells, f"{r['rounds_mean']:.2f}"])
            continue
        rows.append([*cells,
                     f"[{100 * r[f'lo_{outcomes[0]}']:.1f}, {100 * r[f'hi_{outcomes[0]}']:.1f}]",
                     f"{r['rounds_mean']:.2f}", f"{int(r['trials']):,}"])
    widths = [max(len(h), *(len(row[i]) for row in rows)) if rows else len(h)
              for i, h in enumerate(head)]
    about = "exact" if exact else f"seed {manifest['seed']}"
    lines = [f"{manifest['scenario']}  ({manifest['ruleset']}, {cells_text(len(table))}, "
             f"{about})", ""]
    if manifest.get("set"):            # balance sweep --set: what the run changed
        lines[1:1] = ["  (with " + ", ".join(f"--set {s['path']}={_yaml(s['value'])}"
                                            for s in manifest["set"]) + ")"]
    lines.append("  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)).rstrip())
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
              for row in rows]
    if len(table) > SHOWN_CELLS:
        lines.append(f"... and {len(table) - SHOWN_CELLS} more cells (see cells.csv)")
    if manifest.get("engine_note"):
        lines += ["", manifest["engine_note"]]
    if manifest.get("crn_note") and not exact:
        lines += ["", manifest["crn_note"]]
    if manifest.get("reach"):          # who each swept table field reaches (issue 30)
        lines += ["", *(r["sentence"] for r in manifest["reach"])]
    return "\n".join(lines)


def _yaml(value: object) -> str:
    """A value as ``--set`` would take it (flow YAML: 6, aggressive, [a, b])."""
    from balance.io import jsonout

    return value if isinstance(value, str) else jsonout.dumps(value)
