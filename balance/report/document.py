"""A report as plain parts (sections of text, tables and figures), rendered two ways: a
self-contained HTML page (figures embedded as PNG data, no network needed) and Markdown for CI
job summaries (figures linked as the PNG files written beside it)."""

from __future__ import annotations

import base64
import html
from collections.abc import Sequence
from dataclasses import dataclass, field

from matplotlib.figure import Figure

from balance.report.figures import png_bytes


@dataclass
class Table:
    caption: str
    header: list[str]
    rows: list[list[str]]
    note: str = ""


@dataclass
class Picture:
    name: str                 # file name of the PNG
    figure: Figure
    alt: str
    png: bytes = b""

    def render(self) -> bytes:
        if not self.png:
            self.png = png_bytes(self.figure)
        return self.png


@dataclass
class Section:
    title: str
    text: list[str] = field(default_factory=list)
    pictures: list[Picture] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    code: list[tuple[str, str]] = field(default_factory=list)   # (language, text), e.g. YAML


@dataclass
class Document:
    title: str
    sections: list[Section] = field(default_factory=list)
    lead: list[str] = field(default_factory=list)   # paragraphs under the title (headline)


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A GitHub Markdown table (pipes in cells escaped)."""
    def cell(v: str) -> str:
        return str(v).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(cell(h) for h in header) + " |",
             "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def to_markdown(doc: Document, *, images: bool = True, max_rows: int = 200) -> str:
    """The report as Markdown; ``images=False`` leaves the figures out (job summaries)."""
    out = [f"# {doc.title}", ""]
    for para in doc.lead:
        out += [para, ""]
    for sec in doc.sections:
        out += [f"## {sec.title}", ""]
        for para in sec.text:
            out += [para, ""]
        for language, text in sec.code:
            fence = "````" if "```" in text else "```"
            out += [f"{fence}{language}", text.rstrip("\n"), fence, ""]
        if images:
            out += [f"![{p.alt}]({p.name})\n" for p in sec.pictures]
        for t in sec.tables:
            if t.caption:
                out += [f"**{t.caption}**", ""]
            out += [markdown_table(t.header, t.rows[:max_rows]), ""]
            if len(t.rows) > max_rows:
                out += [f"({len(t.rows) - max_rows} more rows in cells.csv)", ""]
            if t.note:
                out += [t.note, ""]
    return "\n".join(out).rstrip() + "\n"


_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;max-width:72rem;margin:2rem auto;
padding:0 1rem;color:#111;line-height:1.45}
h1{font-size:1.6rem}h2{font-size:1.25rem;border-bottom:1px solid #ccc;padding-bottom:.2rem;
margin-top:2rem}
table{border-collapse:collapse;margin:.6rem 0 1.2rem;font-size:.85rem}
th,td{border:1px solid #bbb;padding:.2rem .5rem;text-align:right}
th{background:#eee}td:first-child,th:first-child{text-align:left}
caption{caption-side:top;text-align:left;font-weight:600;padding:.3rem 0}
img{max-width:100%;height:auto;display:block;margin:.8rem 0}
.note{color:#555;font-size:.85rem}.lead{font-size:1.05rem}
pre{background:#f6f6f6;border:1px solid #ddd;padding:.6rem;overflow-x:auto;font-size:.8rem}
@media print{body{max-width:none}h2{break-after:avoid}img,table{break-inside:avoid}}
"""


def to_html(doc: Document) -> str:
    """The report as one HTML page with every figure embedded (opens offline)."""
    e = html.escape
    parts = ["<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>{e(doc.title)}</title><style>{_CSS}</style></head><body>",
             f"<h1>{e(doc.title)}</h1>"]
    parts += [f'<p class="lead">{e(t)}</p>' for t in doc.lead]
    for sec in doc.sections:
        parts.append(f"<h2>{e(sec.title)}</h2>")
        parts += [f"<p>{e(t)}</p>" for t in sec.text]
        parts += [f'<pre><code class="language-{e(lang)}">{e(text)}</code></pre>'
                  for lang, text in sec.code]
        for p in sec.pictures:
            data = base64.b64encode(p.render()).decode("ascii")
            parts.append(f'<img alt="{e(p.alt)}" src="data:image/png;base64,{data}">')
        for t in sec.tables:
            rows = "".join("<tr>" + "".join(f"<td>{e(str(v))}</td>" for v in row) + "</tr>"
                           for row in t.rows)
            head = "".join(f"<th>{e(h)}</th>" for h in t.header)
            cap = f"<caption>{e(t.caption)}</caption>" if t.caption else ""
            parts.append(f"<table>{cap}<thead><tr>{head}</tr></thead><tbody>{rows}</tbody>"
                         "</table>")
            if t.note:
                parts.append(f'<p class="note">{e(t.note)}</p>')
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
