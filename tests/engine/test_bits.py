"""Declared bit layouts (``balance.engine.bits``) and the packed codes of the fast tables.

Every fast table that packs small numbers into one integer declares its layout, so the
shifts are computed, every layout is checked against the dtype it is stored in, and a value
too large for its field raises instead of spilling into its neighbour."""

from __future__ import annotations

import numpy as np
import pytest

from balance.engine.bits import Layout, LayoutError
from balance.rules.percentile.kernel import duel
from balance.rules.yags.kernel import basic


def test_layout_checks_ranges_and_dtypes():
    lay = Layout(a=2, b=3)
    assert lay.bits == 5 and lay.dtype() == np.int8
    codes = lay.pack(a=np.array([0, 3]), b=np.array([7, 1]))
    assert lay.get(codes, "a").tolist() == [0, 3] and lay.get(codes, "b").tolist() == [7, 1]
    with pytest.raises(LayoutError, match=r"field 'a' holds 0\.\.3"):
        lay.pack(a=4, b=0)
    with pytest.raises(LayoutError, match="int8 holds"):
        Layout(x=8).check_fits(np.int8)
    assert lay.replace(codes, b=2).tolist() == lay.pack(a=[0, 3], b=[2, 2]).tolist()


def test_the_percentile_duel_tables_codes_are_the_layouts_fields() -> None:
    """The outcome bits the plain duel reads (damage in the low six bits, then stand, fumble,
    parry fumble, dodge fumble, general, the item) and a fighter's code (64 codes in int8,
    the int8 limit the issue asked to be checked): shifts computed from the widths."""
    assert (duel.DAMAGE, duel.STAND, duel.FUMBLE, duel.PARRY_FUMBLE, duel.DODGE_FUMBLE,
            duel.GENERAL, duel.SLOT_AT) == (63, 64, 128, 256, 512, 1024, 11)
    assert duel.CODES == 64 and duel.CODE.dtype() == np.int8
    assert duel.SITUATION.size == 2 * 64 * 128 and duel.SITUATION.dtype() == np.int16
    code = duel.CODE.pack(slot=np.arange(4)[:, None], down=1, off_whole=0, no_parry=1,
                          forfeit=np.array([0, 1])[None, :])
    role = duel.attacker_role(code)
    assert (duel.ATTACKER.get(role, "slot") == np.arange(4)[:, None]).all()
    assert (duel.ATTACKER.get(role, "forfeit") == np.array([0, 1])).all()
    assert (duel.TARGET.get(duel.target_role(code), "no_parry") == 1).all()


def test_the_yags_track_codes_are_the_layouts_fields() -> None:
    assert (basic.WOUNDS_AT, basic.STUNS_AT, basic.CHECK_WOUNDS, basic.CHECK_STUNS,
            basic.RAW_WOUNDS_AT, basic.RAW_STUNS_AT, basic.PENALTY_AT) == (0, 3, 6, 7, 8, 16, 24)
    assert basic.TRACK_CODE.dtype() == np.int32
    with pytest.raises(LayoutError, match="'raw_wounds'"):
        basic.TRACK_CODE.pack(wounds=6, stuns=0, check_wounds=1, check_stuns=0,
                              raw_wounds=256, raw_stuns=0, penalty=0)
