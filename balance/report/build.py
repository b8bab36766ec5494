"""``balance report``: a run folder in, ``report.html``, ``report.md`` and PNG figures out."""

from __future__ import annotations

import os
from pathlib import Path

from balance.errors import OptionError
from balance.io.atomic import new_directory
from balance.io.store import load, load_tallies
from balance.report.document import Document, to_html, to_markdown


def write_report(run_dir: str | os.PathLike, out: str | os.PathLike | None = None, *,
                 side: str | None = None) -> Path:
    """Write the report of a sweep run to ``out`` (default ``RUN_DIR/report``), whole.

    ``side`` picks whose win probability the heat maps show (default: the first side).
    With ``$GITHUB_STEP_SUMMARY`` set, the Markdown (without figures) is appended to it.
    """
    from balance.io.atomic import check_replaceable
    from balance.report.sweep import sweep_document

    target = Path(out) if out is not None else Path(run_dir) / "report"
    table = load(run_dir)
    check_replaceable(target)          # before the figures are drawn, not after
    manifest = table.attrs["manifest"]
    if side is not None and side not in manifest["sides"]:
        raise OptionError(f"side {side!r} is not a side of this run "
                          f"({', '.join(manifest['sides'])})")
    doc = sweep_document(table, manifest, load_tallies(run_dir), side)
    write_document(doc, target)
    return target


def write_document(doc: Document, target: Path, *, summary: bool = True) -> None:
    """The document's PNGs, HTML and Markdown into ``target`` (replaced whole)."""
    with new_directory(target) as tmp:
        for sec in doc.sections:
            for pic in sec.pictures:
                (tmp / pic.name).write_bytes(pic.render())
        (tmp / "report.html").write_text(to_html(doc), encoding="utf-8")
        (tmp / "report.md").write_text(to_markdown(doc), encoding="utf-8")
        os.chmod(tmp, 0o755)
    if summary:
        append_step_summary(to_markdown(doc, images=False))


def append_step_summary(markdown: str) -> None:
    """Append to the CI job summary when ``$GITHUB_STEP_SUMMARY`` names a file."""
    path = os.environ.get("GITHUB_STEP_SUMMARY")
    if not path:
        return
    try:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(markdown + "\n")
    except OSError:
        pass  # a summary is a courtesy; never fail a run over it
