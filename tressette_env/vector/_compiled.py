"""The batched engines' compiled kernels: numba's decorators for them, or nothing without numba.

A kernel module (``_col_morto_words``, ``_in_due_words``) decorates its functions with
``jit`` or ``jit_inline`` and is imported by its engine on first use; ``COMPILED`` says
whether they run compiled (numba installed, ``TRESSETTE_NUMBA`` not ``0``). Without numba
the engines keep their NumPy code and never call a kernel.

| decorator | numba's options |
| --- | --- |
| ``jit`` | ``njit(cache=True, nogil=True, error_model="numpy")``: cached on disk, no zero-division checks |
| ``jit_inline`` | the same, and ``inline="always"``: a helper whose arguments are constants in its caller |
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..agents.numba_switch import numba_module

_nb = numba_module()
COMPILED = _nb is not None
"""True when the kernels run compiled (numba is installed and ``TRESSETTE_NUMBA`` is not 0)."""


def jit(function: Any) -> Any:
    """Compiled by numba (cached on disk) when it is there; otherwise the function itself, which no engine calls."""
    return _nb.njit(cache=True, nogil=True, error_model="numpy")(function) if COMPILED else function


def jit_inline(function: Any) -> Any:
    """``jit``, and numba inlines the function into its caller (each call's offsets are constants there)."""
    return _nb.njit(cache=True, nogil=True, inline="always", error_model="numpy")(function) if COMPILED else function


@jit_inline
def pack_row(out, i, f, places):  # noqa: ANN001, ANN201 - numba's types
    """Row ``i`` of ``out`` (M, words) uint64: the fields ``f`` shifted into little-endian words (``FamilyBatch._pack``).

    ``places``: ``_family.pack_places`` of the fields the rules fill, each at most 64 entries wide.
    """
    for k in range(out.shape[1]):
        out[i, k] = np.uint64(0)
    for p in range(places.shape[0]):
        value = f[places[p, 0]]
        q = places[p, 1]
        shift = places[p, 2]
        out[i, q] |= value << np.uint64(shift)
        if places[p, 3]:
            out[i, q + 1] |= value >> np.uint64(64 - shift)
