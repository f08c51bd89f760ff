"""The action spaces of each API, and how a policy's per-action outputs and masks carry between them.

An action id means the same thing in every game and every API (the family's action table,
``engine.actions``). The spaces differ only in how many ids they hold:

| game | AEC ``env()``, ``gym.make`` and ``gym.make_vec`` | ``parallel_env()`` |
| --- | --- | --- |
| the four-seat game (``tressette``) | ``Discrete(161)``: its ids 0..160 | ``Discrete(256)`` |
| every other game | ``Discrete(255)``: the family's ids 0..254 | ``Discrete(256)`` |

Why they are not one size: a game's AEC and Gymnasium spaces hold the ids it can use (the
four-seat game's cards with their signals and the call-out; the shipped model and the batched
engine have 161 outputs, and a larger space would only add outputs that are never legal), and
the parallel API adds ``WAIT`` (255), the one legal action of an agent off turn, so that every
agent has a legal action at every step. An id a space lacks is never legal where the space is
used, so a policy's outputs carry from one space to another by cutting or padding their last
axis:

| helper | use |
| --- | --- |
| ``carry_logits(logits, size)`` | a policy's scores (logits) for a space of ``size`` ids: new ids get ``-inf``, ids past ``size`` are dropped |
| ``carry_mask(mask, size)`` | a legal-action mask for a space of ``size`` ids: new ids are illegal; cutting a legal id is refused |
| ``action_space_size(game, api)`` | the size of ``game``'s space in ``api`` (``"aec"``, ``"gymnasium"``, ``"parallel"``) |

A chosen action needs no carrying: an id legal in one space is the same id in the other (an
agent off turn in the parallel API plays ``WAIT``, which a turn-based API never asks for).

Example: the shipped four-seat model (161 outputs) playing the parallel API (256 ids):
    >>> import numpy as np
    >>> from tressette_env import tressette_v0
    >>> from tressette_env.learned.loading import shipped_model_path
    >>> from tressette_env.learned.mlp import MLPPolicy
    >>> policy = MLPPolicy.load(shipped_model_path())
    >>> env = tressette_v0.parallel_env()
    >>> observations, _ = env.reset(seed=0)
    >>> obs = observations[env.agent_on_turn]
    >>> logits = carry_logits(policy.logits(obs["observation"][None, :]), action_space_size("tressette", "parallel"))
    >>> scores = np.where(obs["action_mask"].astype(bool), logits[0], -np.inf)
    >>> bool(obs["action_mask"][int(scores.argmax())])
    True
"""

from __future__ import annotations

import numpy as np

from ..engine.actions import PARALLEL_NUM_ACTIONS

__all__ = ["APIS", "action_space_size", "carry_logits", "carry_mask"]

APIS = ("aec", "gymnasium", "parallel")
"""The APIs ``action_space_size`` knows: PettingZoo's AEC, Gymnasium's (single and vector), PettingZoo's parallel."""


def action_space_size(game: str, api: str = "aec") -> int:
    """The number of action ids of ``game``'s action space in ``api`` (see the module's table).

    Raises:
        ValueError: an unknown game or API.
    """
    from .spec import game_spec  # the catalog's games

    if api not in APIS:
        raise ValueError(f"api={api!r}: one of {', '.join(APIS)}")
    if api == "parallel":
        game_spec(game)  # an unknown game is refused all the same
        return PARALLEL_NUM_ACTIONS
    rules = game_spec(game).make_rules()
    return int(rules.game.num_actions)


def _checked(values: object, size: int, what: str) -> np.ndarray:
    array = np.asarray(values)
    if array.ndim < 1:
        raise ValueError(f"{what}: an array with the action ids on its last axis, not a scalar")
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or not 1 <= size <= PARALLEL_NUM_ACTIONS:
        raise ValueError(f"size={size!r}: a space's number of action ids, 1 to {PARALLEL_NUM_ACTIONS}")
    return array


def carry_logits(logits: object, size: int) -> np.ndarray:
    """``logits`` (action ids on the last axis) for a space of ``size`` ids: padded with ``-inf``, or cut.

    A cut drops the scores of ids the smaller space lacks; those are never legal where it is used.
    The result is a float array (a new one; ``logits`` is not changed).
    """
    array = _checked(logits, size, "logits").astype(np.result_type(np.asarray(logits).dtype, np.float32))
    n = array.shape[-1]
    if size <= n:
        return array[..., :size].copy()
    pad = np.full((*array.shape[:-1], size - n), -np.inf, dtype=array.dtype)
    return np.concatenate([array, pad], axis=-1)


def carry_mask(mask: object, size: int) -> np.ndarray:
    """A legal-action ``mask`` (action ids on the last axis) for a space of ``size`` ids, of the same dtype.

    New ids are illegal (0). Cutting is refused when an id past ``size`` is legal: that action
    has no id in the smaller space (a parallel agent's ``WAIT``, or another game's action).

    Raises:
        ValueError: a legal id would be cut, or ``size`` is not a space's size.
    """
    array = _checked(mask, size, "mask")
    n = array.shape[-1]
    if size <= n:
        cut = np.flatnonzero(array[..., size:].reshape(-1, n - size).any(axis=0)) if size < n else ()
        if len(cut):
            shown_ids = ", ".join(str(size + int(k)) for k in cut[:8]) + (
                f" and {len(cut) - 8} more" if len(cut) > 8 else ""
            )
            raise ValueError(
                f"action id(s) {shown_ids} legal in the mask but outside a space of {size} ids (0..{size - 1}): "
                "this mask does not carry to it"
            )
        return array[..., :size].copy()
    return np.concatenate([array, np.zeros((*array.shape[:-1], size - n), dtype=array.dtype)], axis=-1)
