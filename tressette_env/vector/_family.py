"""What the family's own batched engines (``in_due``, ``a_perdere``) share: reading deals and actions, bit helpers.

Their cards are engine masks (bit c = card c), unlike ``TressetteBatch``'s reversed ones, so
the four-seat engine's tables do not serve them; these do.
"""

from __future__ import annotations

from typing import Any

import numpy as np

U64 = np.uint64
THERMO = np.array([(1 << v) - 1 for v in range(65)], dtype=U64)
"""v low bits set (a thermometer of v entries), v 0..64."""


def deal_indices(deals: Any, n: int, every: np.ndarray) -> np.ndarray:
    """(M,) int64 deal indices from None (``every``), a bool mask (N,) or indices; a clear ValueError otherwise."""
    if deals is None:
        return every
    d = np.asarray(deals)
    if d.dtype == bool:
        if d.shape != (n,):
            raise ValueError(f"a deal mask has shape ({n},); got {d.shape}")
        return np.flatnonzero(d)
    if d.size and not np.issubdtype(d.dtype, np.integer):
        raise ValueError(f"deals are indices 0..{n - 1} or a bool mask; got dtype {d.dtype}")
    d = d.astype(np.int64).reshape(-1)
    if ((d < 0) | (d >= n)).any():
        raise ValueError(f"deal indices are 0..{n - 1}; got {d[(d < 0) | (d >= n)][0]}")
    return d


def check_actions(actions: Any, active: np.ndarray, n: int, num_actions: int) -> np.ndarray:
    """The actions as int64 ids 0..num_actions-1; -1 is allowed (read as 0) where a deal does not play."""
    a = np.asarray(actions)
    if a.shape != (n,):
        raise ValueError(f"actions must have shape ({n},), one per deal; got {a.shape}")
    if a.dtype == bool or not np.issubdtype(a.dtype, np.integer):
        raise ValueError(f"actions are integer ids 0..{num_actions - 1}; got dtype {a.dtype}")
    if a.dtype.kind == "u":
        big = a >= num_actions
        if big.any():
            bad = int(np.flatnonzero(big)[0])
            raise ValueError(f"actions are ids 0..{num_actions - 1}; deal {bad} got {int(a[bad])}")
    a = a.astype(np.int64)
    out = (a < 0) | (a >= num_actions)
    idle = (a == -1) & ~active
    if (out & ~idle).any():
        bad = int(np.flatnonzero(out & ~idle)[0])
        raise ValueError(
            f"actions are ids 0..{num_actions - 1} (or -1 in a deal that does not play); deal {bad} got {int(a[bad])}"
        )
    return np.where(out, 0, a)


def popcount(x: np.ndarray) -> np.ndarray:
    """Set bits of each uint64 word, as int64."""
    return np.bitwise_count(x).astype(np.int64)


def select_low(words: np.ndarray, k: np.ndarray) -> np.ndarray:
    """The position (from bit 0) of the k-th lowest set bit (k from 0) of each uint64 word."""
    x = np.array(words, dtype=U64)
    k = np.array(k, dtype=np.int64)
    pos = np.zeros(len(x), dtype=np.int64)
    for half in (32, 16, 8, 4, 2, 1):  # binary search: is the bit in the upper half of the window?
        low = popcount(x & THERMO[half])
        up = k >= low
        k = k - low * up
        step = half * up
        pos += step
        x = x >> step.astype(U64)
    return pos
