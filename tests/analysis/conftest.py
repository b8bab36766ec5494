"""Small mirror fights for the questions' known answers: one per rule system, and a group."""

from __future__ import annotations

import pytest

from balance.sweep.executors import SerialExecutor


@pytest.fixture
def local() -> SerialExecutor:
    return SerialExecutor()
