"""Small sweeps for the tests: Yags duels, a few hundred to a few thousand trials a cell."""

from __future__ import annotations

import pytest

from tests.sweep.helpers import GRID, duel


@pytest.fixture
def grid_duel() -> dict:
    return duel(GRID)
