"""Encoders: a seat's view (or, for critics, the whole game) as a NumPy vector. Depends on engine + numpy only."""

from .family import observation_of, state_of
from .global_state import (
    CLASSIC_STATE,
    STATE_LAYOUT,
    STATE_SIZE,
    STATE_SLICES,
    ExtraStatePiece,
    StateEncoder,
    encode_state,
)
from .history import HistoryObservation, history_pieces, with_history
from .layout import Piece, slices_of, table_of
from .observation import (
    CLASSIC,
    LAYOUT,
    SIZE,
    SLICES,
    ExtraPiece,
    Observation,
    encode,
    encode_bits,
    layout_table,
    piece_slices,
    unflatten,
    unpack,
)

__all__ = [name for name in dir() if not name.startswith("_")]
