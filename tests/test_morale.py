"""Side morale: breaking at a share of fighters down, and fleeing."""

import numpy as np

from balance.engine.morale import broken_sides, flee
from balance.engine.status import DEAD, FLED, STANDING, UNCONSCIOUS


def test_a_side_breaks_at_its_share_down() -> None:
    # one trial per column; places 0-2 side 0, place 3 side 1
    status = np.array([[DEAD, STANDING], [STANDING, STANDING], [STANDING, UNCONSCIOUS],
                       [STANDING, STANDING]], dtype=np.int8)
    side = np.array([[0, 0], [0, 0], [0, 0], [1, 1]], dtype=np.int8)
    assert broken_sides(status, side, [0.3, None]).tolist() == [[True, True], [False, False]]
    assert broken_sides(status, side, [0.5, 1.0]).tolist() == [[False, False], [False, False]]
    fled = flee(status, side, broken_sides(status, side, [0.3, None]))
    assert fled[:3].sum() == 4 and not fled[3].any()
    assert (status[:3] == FLED).sum() == 4 and status[0, 0] == DEAD
