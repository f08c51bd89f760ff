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
