"""The batched four-seat environment with the next step's autoreset and the mask in the observation: ``NextStepVectorEnv``.

``TressetteVectorEnv`` replaces an episode that ends in the step that ends it (Gymnasium's
``AutoresetMode.SAME_STEP``, the last observation in ``infos["final_obs"]``). Libraries that
build their episodes from the observations a step returns, RLlib's ``SingleAgentEnvRunner``
among them, read Gymnasium's default instead, ``AutoresetMode.NEXT_STEP``:

| step | a row whose episode goes on | a row whose episode ended in this step | the step after that |
| --- | --- | --- | --- |
| observation | the learner's next one | the learner's last one of the hand | the new episode's first |
| reward, terminated | as the step pays | the hand's, True | 0, False: the row's action is not played |

and the observation is the dict RLlib's ``ActionMaskingTorchRLModule`` reads:
``{"observations": float32 (size,), "action_mask": float32 (actions,)}`` (790 and 161 in the
four-seat game; a row's mask is all zeros on
the step that ends its episode: the hand has no next decision). ``infos`` is empty (the hands'
results stay in the wrapped environment's ``infos["final_info"]``, which this does not pass
on: RLlib turns every info into one dict per row, a cost per step).

``make(config)`` builds one for a game of the catalog from a plain dict (``game``,
``num_envs`` and the game's ``gym.make_vec`` keywords), the form RLlib's ``vector_entry_point``
creators are called with. A game plugs in through its catalog entry's
``gym_vector_entry_point``, whose environment keeps the batched one's protocol: same-step
autoreset with ``infos["final_obs"]``, ``infos["action_mask"]``, ``action_masks()`` and
``step(actions, active=)``: the four-seat game's ``TressetteVectorEnv`` and the other games'
``FamilyVectorEnv`` (every other game of the package).

Example:
    >>> env = make({"num_envs": 4, "seed": 0, "opponents": "random", "partner": "random"})
    >>> obs, _ = env.reset(seed=0)
    >>> obs["observations"].shape, obs["action_mask"].shape
    ((4, 790), (4, 161))
    >>> rng = np.random.default_rng(0)
    >>> ended = np.zeros(4, dtype=bool)
    >>> for _ in range(10):
    ...     mask = np.where(ended[:, None], 1.0, obs["action_mask"])  # a finished row's action is not read
    ...     obs, rewards, terminated, truncated, infos = env.step(sample_mask(mask.astype(bool), rng))
    ...     ended = terminated
    >>> bool(terminated.all()), obs["action_mask"].any()
    (True, np.False_)
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..messages import shown
from .engine import sample_mask  # noqa: F401  (the example's)

__all__ = ["NextStepVectorEnv", "make"]


class NextStepVectorEnv(VectorEnv):
    """A batched environment with ``AutoresetMode.NEXT_STEP`` and the dict observation (module docstring).

    Args:
        env: the batched environment to wrap: a ``VectorEnv`` with same-step autoreset,
            ``infos["final_obs"]`` and ``infos["action_mask"]``, and ``step(actions, active=)``
            (``TressetteVectorEnv``, ``FamilyVectorEnv``).
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, env: VectorEnv):
        if not isinstance(env, VectorEnv) or env.metadata.get("autoreset_mode") != AutoresetMode.SAME_STEP:
            raise TypeError(
                f"env must be a batched VectorEnv with same-step autoreset (TressetteVectorEnv); got {type(env).__name__}"
            )
        self.env = env
        self.num_envs = env.num_envs
        size = env.single_observation_space.shape[0]
        actions = int(env.single_action_space.n)
        self.single_observation_space = spaces.Dict(
            {
                "observations": spaces.Box(0.0, 1.0, shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(0.0, 1.0, shape=(actions,), dtype=np.float32),
            }
        )
        self.single_action_space = spaces.Discrete(actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._pending = np.zeros(self.num_envs, dtype=bool)  # ended in the last step: the new episode waits
        self._next: tuple[np.ndarray, np.ndarray] | None = None  # the wrapped env's last observation and masks

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        """Deal new episodes everywhere (``seed`` and ``options`` as the wrapped environment's ``reset``)."""
        observations, infos = self.env.reset(seed=seed, options=options)
        self._pending[:] = False
        self._next = (observations, infos["action_mask"])
        return self._dict(*self._next), {}

    def step(self, actions: Any) -> tuple[dict, np.ndarray, np.ndarray, np.ndarray, dict]:
        """The learner acts in every row but those whose episode ended in the last step (they start the next)."""
        if self._next is None:
            raise RuntimeError("call reset() before step()")
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), one per row; got {actions.shape}")
        waiting = self._pending
        if waiting.all():  # every row starts its next episode: nothing to play
            observations, masks = self._next
            rewards = np.zeros(self.num_envs, dtype=np.float32)
            terminated, truncated = np.zeros(self.num_envs, dtype=bool), np.zeros(self.num_envs, dtype=bool)
        else:
            some = waiting.any()
            observations, rewards, terminated, truncated, infos = self.env.step(
                np.where(waiting, -1, actions) if some else actions, active=~waiting if some else None
            )
            masks = infos["action_mask"]
            self._next = (observations, masks)
            ended = terminated | truncated
            if ended.any():  # this step shows the episodes' last observations; the next one the new episodes'
                rows = np.flatnonzero(ended)
                observations, masks = observations.copy(), masks.copy()
                observations[rows] = np.stack(infos["final_obs"][rows])
                masks[rows] = False
        self._pending = terminated | truncated
        return self._dict(observations, masks), rewards, terminated, truncated, {}

    @staticmethod
    def _dict(observations: np.ndarray, masks: np.ndarray) -> dict:
        return {"observations": observations.astype(np.float32), "action_mask": masks.astype(np.float32)}

    def close_extras(self, **kwargs: Any) -> None:
        env = getattr(self, "env", None)  # None when the constructor refused its env
        if env is not None:
            env.close()


def make(config: Mapping[str, Any] | None = None) -> NextStepVectorEnv:
    """A ``NextStepVectorEnv`` of a game's batched engine from a dict (the module docstring).

    ``game`` (default ``"tressette"``), ``num_envs`` (default 1), and the game's ``gym.make_vec``
    keywords (the four-seat game's: ``seat``, ``partner``, ``opponents``, ``dense_reward``,
    ``seed`` and the rule switches; ``gym.make``'s defaults: a random seat, the heuristic as
    partner and opponents). RLlib's ``EnvContext`` (a dict) works as it is.

    Raises:
        ValueError: an unknown game, a game without a batched engine, or a bad ``num_envs``;
            a bad keyword raises the environment's own error.
    """
    from .. import catalog

    if config is not None and not isinstance(config, Mapping):
        raise TypeError(
            f"config is None or a dict: game, num_envs and the game's make_vec keywords; got {shown(config)}"
        )
    config = dict(config or {})
    game = config.pop("game", "tressette")
    if game not in catalog.names():
        raise ValueError(f"game={shown(game)}: one of {', '.join(catalog.names())}")
    entry = catalog.entry(game)
    if entry.gym_vector_entry_point is None:
        with_one = [e.name for e in catalog.entries() if e.gym_vector_entry_point]
        raise ValueError(
            f"game={shown(game)} has no batched vector environment with gym.make's defaults yet (games with one: "
            f"{', '.join(with_one)}): train it on TressetteMultiAgentEnv, with several environments a runner"
        )
    num_envs = config.pop("num_envs", 1)
    if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
        raise ValueError(f"num_envs={shown(num_envs)}: an integer >= 1")
    import gymnasium as gym

    import tressette_env  # noqa: F401  (registers the ids, whose kwargs name the game)

    module, _, name = entry.gym_vector_entry_point.partition(":")
    factory = getattr(importlib.import_module(module), name)
    registered = dict(gym.spec(entry.gym_id).kwargs)  # {"game": name} for a family game's shared entry point
    return NextStepVectorEnv(factory(int(num_envs), **{**registered, **config}))
