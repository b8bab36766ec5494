"""The Yags kernel's prepare step: a compiled fight as the kernel reads it, built once.

``static.tabulate`` turns the compiled fight into arrays (``Static``); a basic fight (no
detailed rule can act in it) also gets its outcome tables (``basic.tables_of``, built by
evaluating the rule functions) and whether its blocks can be stacked. The result is kept
while the fight lives (``balance.engine.prepared.once``), so the compiled fight holds no
kernel arrays and ``static`` never imports ``basic`` (which reads ``Static``): the
static -> basic import circle is gone.
"""

from __future__ import annotations

import dataclasses

from balance.engine.prepared import once
from balance.rules.yags.compile import YagsFight
from balance.rules.yags.kernel.basic import tables_of
from balance.rules.yags.kernel.static import Static, stackable, tabulate


def static_of(fight: YagsFight) -> Static:
    """The kernel's arrays and tables for a compiled fight, computed once per live fight."""
    return once(_prepare, fight)


def _prepare(fight: YagsFight) -> Static:
    static = tabulate(fight)
    if not static.on.any:
        static = dataclasses.replace(static, basic=tables_of(static),
                                     stackable=stackable(static))
    return static
