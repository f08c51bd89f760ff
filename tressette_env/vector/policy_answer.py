"""A batched policy's answer, checked before any deal plays it; and what a vector environment does when one fails.

The vector environments (``TressetteVectorEnv``, ``FamilyVectorEnv``) ask a callable
``policy(obs, mask)`` for the other seats' actions after the learner's action has been played.
``policy_actions`` calls it and checks what it returns, so that a bad answer is a ``ValueError``
that names it and what is allowed, before the batch plays any of it:

| the answer | read as |
| --- | --- |
| M integers (a list, a NumPy or torch array of any integer type; (M,), (M, 1) or (1, M), one value for one deal), each a legal action | the actions |
| M floats with integer values (``3.0``) | those integers |
| anything else: a wrong length, bools, fractions, NaN, text, None, an id out of range, an illegal action | a ``ValueError`` |

A policy that raises, or an answer refused, stops the environment's step halfway: the
learner's action is played and the others' are not, so the deals are not at the learner's turn.
``Stopped`` keeps why; the environment refuses ``step`` and ``action_masks`` with it until
``reset`` (a ``RuntimeError`` that says so) instead of playing the learner's next action in a
seat that is not its own.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..messages import reason, shown


def policy_actions(policy: Callable, obs: np.ndarray, mask: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """(M,) int64: ``policy(obs, mask)``'s actions for the deals ``rows`` (M of them), checked (module docstring).

    ``mask``: (M, A) their legal actions (nonzero: legal). Raises ``ValueError`` naming the first bad answer.
    """
    m, top = mask.shape
    answer = policy(obs, mask)
    try:
        chosen = np.asarray(answer)
    except Exception as error:  # a container NumPy cannot read (ragged lists, objects that refuse)
        raise ValueError(f"a policy returned {shown(answer)}, which is not {m} action ids ({reason(error)})") from None
    allowed = f"one action id 0..{top - 1} for each of the {m} deals asked"
    if chosen.size != m or chosen.ndim > 2:  # (M,), (M, 1), (1, M); one value when one deal is asked
        raise ValueError(f"a policy returned shape {chosen.shape} ({shown(answer)}): {allowed}")
    chosen = chosen.reshape(-1)
    kind = chosen.dtype.kind
    whole = kind == "f" and bool(np.isfinite(chosen).all()) and bool((chosen == np.round(chosen)).all())  # 3.0: 3
    if kind not in "iu" and not whole:
        raise ValueError(f"a policy returned {chosen.dtype} values ({shown(answer)}): {allowed}")
    out = chosen >= top if kind == "u" else (chosen >= top) | (chosen < 0)
    if out.any():
        bad = int(np.flatnonzero(out)[0])
        raise ValueError(f"a policy returned {shown(int(chosen[bad]))} for deal {int(rows[bad])}: {allowed}")
    chosen = chosen.astype(np.int64)
    legal = mask[np.arange(m), chosen] != 0
    if not legal.all():
        bad = int(np.flatnonzero(~legal)[0])
        raise ValueError(
            f"the policy {shown(policy)} chose illegal action {int(chosen[bad])} in deal {int(rows[bad])}; "
            f"legal: {shown(np.flatnonzero(mask[bad]).tolist(), 200)}"
        )
    return chosen


class Stopped:
    """Why a vector environment's last ``reset`` or ``step`` stopped halfway, if it did (module docstring)."""

    __slots__ = ("why",)

    def __init__(self) -> None:
        self.why: str | None = None
        """The error that stopped it, one line; None when the environment may play on."""

    def check(self, call: str) -> None:
        """Raise ``RuntimeError`` for ``call`` (``"step()"``...) if the last step stopped halfway."""
        if self.why is not None:
            raise RuntimeError(
                f"{call} after a reset or step that stopped halfway ({self.why}): the other players' turns were not "
                "all played, so the deals are not at the learner's turn; call reset()"
            )

    def run(self, play: Callable[[], None]) -> None:
        """``play()`` (the others' turns); if it raises, note why (``check`` refuses until ``clear``) and re-raise."""
        try:
            play()
        except BaseException as error:
            self.why = reason(error)
            raise

    def clear(self) -> None:
        self.why = None
