"""Whether the compiled searches run: numba when it is installed, unless ``TRESSETTE_NUMBA=0`` turns it off.

The four-seat double-dummy solver (``solver_core``) and Tressette in due's endgame search
(``open_solver_two``) ask ``numba_module()`` once, when they are imported.
"""

from __future__ import annotations

import os
from types import ModuleType

__all__ = ["numba_module"]


def numba_module() -> ModuleType | None:
    """The numba module, or None when it is absent or ``TRESSETTE_NUMBA=0`` turns it off."""
    if os.environ.get("TRESSETTE_NUMBA", "1") == "0":
        return None
    try:
        import numba
    except ImportError:
        return None
    return numba
