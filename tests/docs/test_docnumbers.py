"""Every printed result in README.md and docs/ is what the code prints (balance.tools.docnumbers).

One test per documented example: the command runs as written (no smaller trial counts: the
numbers shown are the numbers checked) and a moved number fails with the document, its line
and the number, e.g. ``README.md:73: `balance run my_duel.yaml`: shows 70.00% where the code
prints 70.10%``. After a rule change, ``python -m balance.tools.docnumbers --update``
rewrites the documents (read the diff, and the prose around it, before committing).
Examples marked ``slow`` run only with ``BALANCE_DOCS_SLOW=1``. The harness itself is
checked on small made-up documents below.
"""

from __future__ import annotations

import os
import shutil
import textwrap
from pathlib import Path

import pytest

from balance.tools import docnumbers as dn

ROOT = Path(__file__).resolve().parents[2]
DOCS = [dn.read(p) for p in dn.documents(ROOT)]
EXAMPLES = [(doc, ex) for doc in DOCS for ex in doc.examples]


@pytest.mark.parametrize(("doc", "example"), EXAMPLES, ids=[ex.name for _, ex in EXAMPLES])
def test_the_docs_print_what_the_code_prints(doc, example, tmp_path):
    if example.slow and not os.environ.get("BALANCE_DOCS_SLOW"):
        pytest.skip("marked slow in the doc: BALANCE_DOCS_SLOW=1 (or python -m "
                    "balance.tools.docnumbers --slow) checks it")
    dn.link(tmp_path, ROOT)
    actual = dn.run(example, tmp_path, doc.files)
    diffs = dn.differences(example, actual)
    assert not diffs, ("\n".join(diffs) + "\n(after a rule change that moved them: python -m "
                       "balance.tools.docnumbers --update, then read the diff)")


def test_the_readme_tour_and_the_questions_are_covered():
    names = {ex.command for _, ex in EXAMPLES}
    assert "balance run my_duel.yaml" in names
    assert any(c.startswith("balance sensitivity") for c in names)
    assert any(c.startswith("balance dice") for c in names)
    assert len(EXAMPLES) >= 15


def test_every_printed_result_in_the_docs_is_an_example():
    """A plain fenced block that looks like output (not a command synopsis) is a checked
    example or says why not (``<!-- docnumbers: unchecked REASON -->``)."""
    missing = [line for path in dn.documents(ROOT) for line in dn.unchecked(path, ROOT)]
    assert missing == [], "printed output that no test checks:\n" + "\n".join(missing)


# ------------------------------------------------------------------ the harness itself
def _doc(tmp_path: Path, text: str) -> Path:
    (tmp_path / "docs").mkdir(exist_ok=True)
    path = tmp_path / "README.md"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    (tmp_path / "scenarios").symlink_to(ROOT / "scenarios")
    return path


DUEL = "balance dice 2d6"


def test_a_moved_number_is_named_with_its_doc_and_line(tmp_path):
    path = _doc(tmp_path, """\
        Roll:

        ```
        $ balance dice d20+12 --vs d20+10
        P(d20+12 >= d20+10) = 0.620000  (62.0000%)
        ```
        """)
    (ex,) = dn.read(path, tmp_path).examples
    diffs = dn.differences(ex, dn.run(ex, tmp_path, {}))
    assert diffs == ["README.md:5: `balance dice d20+12 --vs d20+10`: shows 0.620000 where the "
                     "code prints 0.617500, 62.0000% where the code prints 61.7500%"]


def test_ellipses_skip_lines_and_cut_lines_short(tmp_path):
    path = _doc(tmp_path, f"""\
        <!-- docnumbers: {DUEL} -->
        ```
        2d6
        outcome      P(=)      P(>=)
        ...
             12   2.7778%    2.7778%
        mean  7.000000
        sd    2.415229
        ```
        """)
    (ex,) = dn.read(path, tmp_path).examples
    assert dn.differences(ex, dn.run(ex, tmp_path, {})) == []
    ex.expected[-1] = "sd    2.41 ..."
    assert dn.differences(ex, dn.run(ex, tmp_path, {})) == []


def test_files_edits_and_update_rewrite_the_doc(tmp_path):
    path = _doc(tmp_path, """\
        <!-- docnumbers: file roll.txt -->
        ```
        unused
        ```

        <!-- docnumbers: balance dice 1d4 | edit roll.txt: unused => used -->
        ```
        1d4  (d4)
        outcome      P(=)      P(>=)
              1  25.0000%  100.0000%
              2  25.0000%   75.0000%
              3  25.0000%   50.0000%
              4  25.0000%   30.0000%
        mean  2.500000
        sd    1.118034
        ```
        """)
    doc = dn.read(path, tmp_path)
    assert doc.files == {"roll.txt": "unused\n"}
    assert dn.check([path], root=tmp_path, echo=lambda s: None) == 1
    assert dn.check([path], root=tmp_path, update=True, echo=lambda s: None) == 0
    assert "   4  25.0000%   25.0000%" in path.read_text(encoding="utf-8")
    assert dn.check([path], root=tmp_path, echo=lambda s: None) == 0


def test_a_changed_shape_is_reported_not_guessed(tmp_path):
    path = _doc(tmp_path, f"""\
        ```
        $ {DUEL}
        2d6
        a line the code never prints
        ```
        """)
    (ex,) = dn.read(path, tmp_path).examples
    (msg,) = dn.differences(ex, dn.run(ex, tmp_path, {}))
    assert "expected line 2 'a line the code never prints' is not printed" in msg
    shutil.rmtree(tmp_path / "docs")


def test_prose_numbers_are_checked_and_rewritten(tmp_path):
    """A marker before a paragraph ties a number in the prose to a JSON value: a wrong one
    is reported with its path, --update puts the printed number in marker and prose."""
    path = _doc(tmp_path, """\
        <!-- docnumbers: balance dice d20+12 --vs d20+10 --json | check p_at_least 62% -->
        Twelve against ten is at least as high 62% of the time.
        """)
    (ex,) = dn.read(path, tmp_path).examples
    assert ex.checks == [("p_at_least", "62%")] and "62%" in ex.prose
    assert dn.differences(ex, dn.run(ex, tmp_path, {})) == []     # 0.6175 shown as 62%
    assert dn.formatted(0.6175, "62%") == "62%" and dn.formatted(4.123, "4.1") == "4.1"
    # a claim to one decimal shows the difference, and --update fixes marker and prose
    path.write_text(path.read_text().replace("62%", "61.5%"))
    (ex,) = dn.read(path, tmp_path).examples
    (msg,) = dn.differences(ex, dn.run(ex, tmp_path, {}))
    assert msg.endswith("the text shows p_at_least as 61.5% where the code prints 61.7%")
    assert dn.check([path], root=tmp_path, update=True, echo=lambda s: None) == 0
    text = path.read_text()
    assert "check p_at_least 61.7%" in text and "high 61.7% of the time" in text
