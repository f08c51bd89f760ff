"""The batched engines' compiled observations: numba's decorators for their kernels, and what the kernels share.

Where numba is installed (``pip install "tressette-env[fast]"``) and ``TRESSETTE_NUMBA`` is not
``0``, the ``observe`` of four family engines calls a kernel of its own that builds each observed row's
words in one compiled pass, instead of the NumPy code that fills the observation's fields over
the batch: the same fields, read from the same arrays and placed by the same convention, so the
same bytes. Each kernel is a second copy of its engine's NumPy observation;
``tests/vector/test_compiled_observations.py`` pins each to it on every rule set of the tests,
and the engines' own tests pin whichever path the process takes to the scalar encoders.

| engine | kernel |
| --- | --- |
| ``ColMortoBatch`` | ``_col_morto_words`` (the four-seat engine's words and col morto's pieces) |
| ``InDueBatch`` | ``_in_due_words`` |
| ``AChiamareBatch`` | ``_a_chiamare_words`` |
| ``CalabresellaBatch`` | ``_calabresella_words`` |

| numba | ``observe`` |
| --- | --- |
| installed | the kernel: compiled at its first observation (a few seconds) into numba's disk cache, which later processes load |
| absent, or ``TRESSETTE_NUMBA=0`` | the NumPy code (each kernel module is then never imported) |

An engine loads its kernel (``_family.compiled_kernel``), and with it numba, on its first
observation, so that a process that never observes a batch does not load numba.

``APerdereBatch`` has none: a kernel of its fields ran its observation 1.05 times as fast
(0.81 ms against 0.85 ms at N = 4096, its NumPy fields already cheap), not worth a second copy
(docs/batched.md).

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


@jit_inline
def card_bit(card_bits, card):  # noqa: ANN001, ANN201 - numba's types
    """The bit of a card id in ``card_bits`` (``_tricks.CARD_BIT``), 0 for -1 (no card): ``_tricks.card_bits``."""
    return card_bits[card if card >= 0 else 40]
