"""Encoders: a seat's view (or, for critics, the whole game) as a NumPy vector. Depends on engine + numpy only."""

from .global_state import STATE_LAYOUT, STATE_SIZE, STATE_SLICES, encode_state
from .layout import Piece, slices_of, table_of
from .observation import LAYOUT, SIZE, SLICES, encode, encode_bits, layout_table, piece_slices, unflatten, unpack

__all__ = [name for name in dir() if not name.startswith("_")]
