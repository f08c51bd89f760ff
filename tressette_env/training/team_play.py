"""MaskablePPO with several agents: team self-play on the batched engine, ``TeamPlayPPO``.

sb3-contrib's MaskablePPO learns from a ``VecEnv`` whose rows each step together. In a
card game the seats act in turn, so ``TeamPlayPPO`` keeps MaskablePPO's algorithm (its
policy, its losses, its update) and replaces only how a rollout is collected: a
``vector.seats.SeatRows`` plays N deals on the batched engine, the policy choosing for
every learning seat, and each seat's decisions fill a row of the rollout buffer of their
own, with that seat's team's rewards. Every card of a self-play deal is a training sample
(four rows a deal), against one in four in a single-learner environment.

| keyword | meaning |
| --- | --- |
| ``num_deals`` | N deals played at once |
| ``learners`` | ``"all"``: all four seats learn (team self-play); ``"team"``: one team per deal, the other played by ``opponent`` |
| ``opponent`` | with ``"team"``: ``"heuristic"``, ``"random"``, a batched ``policy(obs, mask)``, ``"self"`` (a frozen copy of the learner), or a pool of them (a tuple: ``SeatRows``); ``snapshot_opponent()`` renews the copies (``SnapshotCallback`` every so many samples) |
| ``dense_reward`` | pay the thirds as they are taken (``SeatRows``) |
| ``n_steps`` | decisions per row per rollout, a multiple of 10 (whole hands; nothing to bootstrap) |
| ``seed``, ``rules`` | the deals' seed; the four-seat game's rule switches (``episode="hand"``, no ``calling_out``) |
| ``history`` | the history observation (1460 entries, ``encoders.history``); the saved policy (``policy_from_sb3``) records it |

Every other keyword is MaskablePPO's (``batch_size``, ``n_epochs``, ``learning_rate``,
``policy_kwargs``...). ``learn``, ``save``, ``policy_from_sb3`` and SB3's callbacks work as
usual; ``num_timesteps`` counts learner decisions.

Example:
    >>> from tressette_env.training.masking import MaskablePolicy
    >>> model = TeamPlayPPO(MaskablePolicy, num_deals=4, n_steps=10, batch_size=40, seed=0)
    >>> model.env.num_envs  # four seats of four deals
    16
    >>> model = model.learn(160)  # one rollout: ten decisions of 16 seats, then the update
    >>> model.num_timesteps
    160
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch as th
from gymnasium import spaces
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback, ProgressBarCallback
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from ..vector.seats import SeatRows
from .export import policy_from_sb3


class SeatRowsVecEnv(VecEnv):
    """The ``VecEnv`` face of a ``SeatRows``: its spaces and its rows, for SB3's bookkeeping.

    Its rows are not stepped one step at a time (the seats act in turn): ``TeamPlayPPO``
    collects them through ``rows.collect``; ``step`` says so.
    """

    def __init__(self, rows: SeatRows):
        self.rows = rows
        size = rows.batch.observation.size
        super().__init__(
            rows.num_rows, spaces.Box(0, 1, shape=(size,), dtype=np.int8), spaces.Discrete(rows.batch.num_actions)
        )

    def reset(self) -> np.ndarray:
        return np.zeros((self.num_envs, self.observation_space.shape[0]), dtype=np.int8)

    def step_async(self, actions: np.ndarray) -> None:
        raise NotImplementedError("the rows of SeatRows are played by TeamPlayPPO.collect_rollouts, not stepped")

    def step_wait(self):
        raise NotImplementedError("the rows of SeatRows are played by TeamPlayPPO.collect_rollouts, not stepped")

    def close(self) -> None:
        pass

    def get_attr(self, attr_name: str, indices: Any = None) -> list:
        value = None if attr_name == "render_mode" else getattr(self.rows, attr_name)  # no rendering
        return [value] * len(self._get_indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        setattr(self.rows, attr_name, value)

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> list:
        raise NotImplementedError(f"SeatRowsVecEnv has no per-row environments to call {method_name!r} on")

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False] * len(self._get_indices(indices))


class TeamPlayPPO(MaskablePPO):
    """MaskablePPO whose rollouts are the learning seats of N batched deals (see the module docstring)."""

    def __init__(
        self,
        policy: Any,
        num_deals: int = 256,
        learners: str = "all",
        opponent: Any = "heuristic",
        dense_reward: bool = False,
        n_steps: int = 20,
        seed: int | None = None,
        rules: dict | None = None,
        history: bool = False,
        game: str = "tressette",
        **kwargs: Any,
    ):

        pool = tuple(opponent) if isinstance(opponent, (list, tuple)) else (opponent,)
        self.snapshot_slots = tuple(k for k, member in enumerate(pool) if isinstance(member, str) and member == "self")
        """The members of the opponents' pool that are frozen copies of the learner (``"self"``)."""
        stand_in = tuple("random" if k in self.snapshot_slots else member for k, member in enumerate(pool))
        self.rows = SeatRows(
            num_deals, learners, stand_in, dense_reward, seed=seed, history=history, game=game, **dict(rules or {})
        )
        per_hand = self.rows.decisions_per_hand
        if n_steps % per_hand:
            raise ValueError(
                f"n_steps is decisions per seat per rollout, a multiple of {per_hand} (whole hands); got {n_steps}"
            )
        """The deals (``SeatRows``): ``rows.batch`` is the batched engine."""
        self.history = history
        """The policy reads the history observation (``policy_from_sb3`` records it)."""
        super().__init__(policy, SeatRowsVecEnv(self.rows), n_steps=n_steps, seed=seed, **kwargs)
        if self.snapshot_slots:
            self.snapshot_opponent()  # the copies start as the learner starts

    def _excluded_save_params(self) -> list[str]:
        return [*super()._excluded_save_params(), "rows"]  # the deals are the environment: not saved

    def learn(self, total_timesteps: int, callback: Any = None, *args: Any, progress_bar: bool = False, **kwargs: Any):
        """MaskablePPO's ``learn``; its progress bar counts samples (SB3's counts a step of every row per call)."""
        if progress_bar:
            bar = _SampleProgressBar()
            callback = [bar] if callback is None else [bar, *(callback if isinstance(callback, list) else [callback])]
        return super().learn(total_timesteps, callback, *args, progress_bar=False, **kwargs)

    def snapshot_opponent(self) -> None:
        """Make the ``"self"`` members of the pool (without any: the opponent) a frozen greedy copy of the learner now."""
        frozen = policy_from_sb3(self).best_actions
        if not self.snapshot_slots:
            self.rows.set_opponent(frozen)
        for slot in self.snapshot_slots:
            self.rows.set_opponent(frozen, slot=slot)

    def collect_rollouts(self, env, callback, rollout_buffer, n_rollout_steps: int, use_masking: bool = True) -> bool:
        """Fill the rollout buffer with ``n_rollout_steps`` decisions of every seat row (whole hands)."""
        if not use_masking:
            raise ValueError("TeamPlayPPO always masks: an unmasked policy's illegal cards are not played")
        self.policy.set_training_mode(False)
        rollout_buffer.reset()
        callback.on_rollout_start()
        going = True

        def act(obs: np.ndarray, masks: np.ndarray):
            nonlocal going
            with th.no_grad():
                actions, values, log_probs = self.policy(th.as_tensor(obs, device=self.device), action_masks=masks)
            self.num_timesteps += len(obs)
            callback.update_locals(locals())
            going = callback.on_step() and going
            return actions.cpu().numpy(), values.cpu().numpy().reshape(-1), log_probs.cpu().numpy()

        rollout = self.rows.collect(act, n_rollout_steps)
        values, log_probs = rollout.extras
        buffer = rollout_buffer
        buffer.observations[:] = rollout.observations.reshape(buffer.observations.shape)
        buffer.actions[:] = rollout.actions.reshape(buffer.actions.shape)
        buffer.rewards[:] = rollout.rewards
        buffer.episode_starts[:] = rollout.episode_starts
        buffer.values[:] = values
        buffer.log_probs[:] = log_probs
        buffer.action_masks[:] = rollout.action_masks.reshape(buffer.action_masks.shape)
        buffer.pos, buffer.full = buffer.buffer_size, True
        # Every row ends its rollout at the end of a hand: nothing to bootstrap.
        rows = self.rows.num_rows
        buffer.compute_returns_and_advantage(last_values=th.zeros(rows), dones=np.ones(rows))
        for hand in rollout.hand_rewards:
            self.ep_info_buffer.extend({"r": float(r), "l": self.rows.decisions_per_hand} for r in hand)
        callback.on_rollout_end()
        return going


class SnapshotCallback(BaseCallback):
    """Every ``every`` samples (at the end of a rollout), ``model.snapshot_opponent()``: the copies of the learner renewed."""

    def __init__(self, every: int, verbose: int = 1):
        super().__init__(verbose)
        if isinstance(every, bool) or not isinstance(every, int) or every < 1:
            raise ValueError(f"every is a number of samples, at least 1; got {every!r}")
        self.every = every
        self.next = every

    def _on_rollout_end(self) -> None:
        if self.model.num_timesteps >= self.next:
            self.model.snapshot_opponent()
            if self.verbose:
                print(f"snapshot: the opponent is now the learner at {self.model.num_timesteps} samples", flush=True)
            while self.next <= self.model.num_timesteps:
                self.next += self.every

    def _on_step(self) -> bool:
        return True


class _SampleProgressBar(ProgressBarCallback):
    """SB3's progress bar, moved on by the samples of each call (the deals whose seat on turn learns)."""

    def _on_step(self) -> bool:
        self.pbar.update(len(self.locals["obs"]))
        return True
