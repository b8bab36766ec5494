"""Suite-wide test set-up: the ``slow`` tier (tests/tiers.py)."""

from __future__ import annotations

import pytest

from tests.tiers import slow_ids


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests listed in tests/slow.txt as ``slow`` (``make test-fast`` skips them)."""
    slow = slow_ids()
    for item in items:
        if item.nodeid in slow:
            item.add_marker(pytest.mark.slow)
