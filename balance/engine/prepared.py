"""What a rule system's kernel builds once per compiled fight, kept while the fight lives.

``RuleSystem.prepare(fight)`` turns a compiled fight into the arrays and tables its kernel
reads (per-fighter numbers stacked by place, outcome tables built from the rule functions).
The kernel owns that step, so the compiled fight never imports or caches kernel modules
(that habit made import circles between a system's fighters and its kernel). The engine
asks :func:`prepared` for it; a fight prepared once is not prepared again while it lives
(a sweep's cell or a question's variant is prepared once, not once a block). A kernel's own
tabulation of a fight (Ymlad's ``kernel.fight.static_of``, Yags's ``kernel.prepare.static_of``) is
kept the same way, by :func:`once`.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

_CACHE: dict[tuple[int, int], tuple[weakref.ref, Any, Any]] = {}


def once(build: Callable[[Any], Any], fight: Any, owner: Any = None) -> Any:
    """``build(fight)``, computed once per live fight object (and ``owner``, default
    ``build`` itself). Keyed by identity, not equality: two equal fights are built twice,
    but no fight is hashed and no entry outlives its fight."""
    owner = build if owner is None else owner
    key = (id(owner), id(fight))
    hit = _CACHE.get(key)
    if hit is not None and hit[0]() is fight and hit[1] is owner:
        return hit[2]
    value = build(fight)
    try:
        ref = weakref.ref(fight, lambda _, key=key, cache=_CACHE: cache.pop(key, None))
    except TypeError:       # a fight that cannot be weakly referenced: not cached
        return value
    _CACHE[key] = (ref, owner, value)
    return value


def prepared(system, fight) -> Any:
    """``system.prepare(fight)``, computed once per live fight object."""
    return once(system.prepare, fight, owner=system)
