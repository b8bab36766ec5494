"""Declared bit layouts: several small non-negative integers packed into one integer code.

Fast tables and exact chains key their entries by a few small numbers at once (a fighter's
slot, whether it is down, its wound and stun levels, ...). Packing them by hand (``a | b << 2
| c << 3``) hides the widths and lets a value overflow into its neighbour silently. A
:class:`Layout` names each field and its width once, computes the shifts, and checks every
value's range when codes are built (at table-build time, never inside a round loop), and that
the whole code fits the dtype it is stored in.

>>> body = Layout(wounds=3, stuns=3, down=1)
>>> code = body.pack(wounds=2, stuns=5, down=1)
>>> body.unpack(code)["stuns"]
array(5)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Field:
    """One field of a layout: ``width`` bits starting at bit ``shift``."""

    name: str
    width: int
    shift: int

    @property
    def limit(self) -> int:
        """One more than the largest value the field holds."""
        return 1 << self.width

    @property
    def mask(self) -> int:
        return (self.limit - 1) << self.shift


class LayoutError(ValueError):
    """A value does not fit its field, or a layout does not fit its dtype (a lab bug, or a
    scenario beyond what a table was built for: the message names the field)."""


class Layout:
    """Named fields of given bit widths, packed from the lowest bit up in the order given."""

    def __init__(self, **widths: int) -> None:
        fields, shift = [], 0
        for name, width in widths.items():
            if width < 1:
                raise LayoutError(f"field {name!r}: width must be at least 1 bit, got {width}")
            fields.append(Field(name, width, shift))
            shift += width
        self.fields: Mapping[str, Field] = {f.name: f for f in fields}
        self.bits = shift

    def __repr__(self) -> str:
        inner = ", ".join(f"{f.name}={f.width}" for f in self.fields.values())
        return f"Layout({inner})"

    @property
    def size(self) -> int:
        """How many distinct codes the layout can hold (a table's length)."""
        return 1 << self.bits

    def dtype(self) -> np.dtype:
        """The narrowest signed integer dtype that holds every code."""
        for dtype in (np.int8, np.int16, np.int32, np.int64):
            if self.bits < np.iinfo(dtype).bits:
                return np.dtype(dtype)
        raise LayoutError(f"{self!r} needs {self.bits} bits, more than an int64 holds")

    def check_fits(self, dtype: np.dtype | type) -> None:
        """Raise unless every code fits ``dtype`` (signed: the sign bit stays clear)."""
        info = np.iinfo(dtype)
        if self.size - 1 > info.max:
            raise LayoutError(f"{self!r} needs {self.bits} bits; {np.dtype(dtype).name} holds "
                              f"codes up to {info.max}")

    def pack(self, **values) -> np.ndarray:
        """The codes of arrays (or numbers) of field values, broadcast together, as int64.
        Every field must be given; a value outside ``0 .. 2**width - 1`` raises."""
        missing = set(self.fields) - set(values)
        extra = set(values) - set(self.fields)
        if missing or extra:
            raise LayoutError(f"{self!r}: missing fields {sorted(missing)}, unknown fields "
                              f"{sorted(extra)}")
        code = np.int64(0)
        for name, f in self.fields.items():
            v = np.asarray(values[name]).astype(np.int64)
            if v.size and (v.min() < 0 or v.max() >= f.limit):
                bad = v.min() if v.min() < 0 else v.max()
                raise LayoutError(f"field {name!r} holds 0..{f.limit - 1} ({f.width} bits), "
                                  f"got {int(bad)}")
            code = code | (v << f.shift)
        return np.asarray(code, dtype=np.int64)

    def get(self, codes: np.ndarray, name: str) -> np.ndarray:
        """Field ``name`` of every code (int64)."""
        f = self.fields[name]
        return (np.asarray(codes, dtype=np.int64) >> f.shift) & (f.limit - 1)

    def unpack(self, codes: np.ndarray) -> dict[str, np.ndarray]:
        """Every field of every code."""
        return {name: self.get(codes, name) for name in self.fields}

    def replace(self, codes: np.ndarray, **values) -> np.ndarray:
        """The codes with the given fields set to new values (range-checked)."""
        out = np.asarray(codes, dtype=np.int64).copy()
        for name, v in values.items():
            f = self.fields[name]
            v = np.asarray(v).astype(np.int64)
            if v.size and (v.min() < 0 or v.max() >= f.limit):
                bad = v.min() if v.min() < 0 else v.max()
                raise LayoutError(f"field {name!r} holds 0..{f.limit - 1} ({f.width} bits), "
                                  f"got {int(bad)}")
            out = (out & ~np.int64(f.mask)) | (v << f.shift)
        return out


def width_for(largest: int) -> int:
    """Bits needed for values ``0 .. largest``."""
    return max(int(largest), 1).bit_length()
