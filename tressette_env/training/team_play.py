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
| ``learners`` | ``"all"``: every seat learns (team self-play); ``"team"``: one team per deal, the other played by ``opponent`` (in a game without fixed partners, the players of one parity: below) |
| ``opponent`` | with ``"team"``: ``"heuristic"``, ``"random"``, a batched ``policy(obs, mask)``, ``"self"`` (a frozen copy of the learner), or a pool of them (a tuple: ``SeatRows``); ``snapshot_opponent()`` renews the copies (``SnapshotCallback`` every so many samples) |
| ``dense_reward`` | pay the thirds as they are taken (``SeatRows``) |
| ``n_steps`` | decisions per row per rollout, a multiple of the game's ``decisions_per_hand`` (10 in the four-seat game: whole hands, nothing to bootstrap); where the decisions per hand vary, at least that many on average (below) |
| ``seed``, ``rules`` | the deals' seed; the game's rule switches (``episode="hand"``, no ``calling_out``) |
| ``history`` | the history observation (1460 entries, ``encoders.history``); the saved policy (``policy_from_sb3``) records it |
| ``game`` | any game with a batched engine (the catalog's name; the four-seat game by default) |

**Games whose seats decide unequally often** (an auction, a call, a discard, a packet to choose:
Calabresella, a chiamare, in due's packet form, a perdere's dealer discards; the batch's
``decisions_per_hand`` is None). The rows are the learning players, and a rollout is whole
hands (``SeatRows.collect_hands``): the deals play hand after hand until the rows have made
``n_steps`` decisions each on average (rounded up to whole minibatches), the hands under way
are played to their end, and each sample's advantage and return are computed over its row's
hand (``whole_hand_advantages``, SB3's GAE with the hand's end as the episode's). The buffer
takes the largest multiple of ``batch_size`` of them, the few left over dropped at random.
Each row is paid what the game pays its player (``Game.returns``): Calabresella's stakes, with
the sides the auction set; a chiamare's, with the partner the called card made; a perdere's
charges. ``num_timesteps`` counts every learner decision played. ``learners="team"`` makes the
players of one parity learn (three of a chiamare's five in the even deals, two in the odd):
the auction or the called card then often puts learners on both sides of a hand, so it is
self-play with the opponent in the other seats, not one side against the opponent.

Every other keyword is MaskablePPO's (``batch_size``, ``n_epochs``, ``learning_rate``,
``policy_kwargs``...). ``learn``, ``save``, ``policy_from_sb3`` and SB3's callbacks work as
usual (a saved model loads with ``MaskablePPO.load``, or plays through ``policy_from_sb3`` and
``tressette eval``: the deals are the environment and are not saved, so ``TeamPlayPPO.load``
does not rebuild them); ``num_timesteps`` counts learner decisions.

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

from ..vector.seats import HandsRollout, SeatRows
from .export import policy_from_sb3
from .minibatches import without_single_samples


class SeatRowsVecEnv(VecEnv):
    """The ``VecEnv`` face of a ``SeatRows``: its spaces and its rows, for SB3's bookkeeping.

    Its rows are not stepped one step at a time (the seats act in turn): ``TeamPlayPPO``
    collects them through ``rows.collect`` (``rows.collect_hands`` where a hand's decisions vary); ``step`` says so.
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
        if per_hand is not None and n_steps % per_hand:
            raise ValueError(
                f"n_steps is decisions per seat per rollout, a multiple of {per_hand} (whole hands); got {n_steps}"
            )
        """The deals (``SeatRows``): ``rows.batch`` is the batched engine."""
        self.history = history
        """The policy reads the history observation (``policy_from_sb3`` records it)."""
        super().__init__(policy, SeatRowsVecEnv(self.rows), n_steps=n_steps, seed=seed, **kwargs)
        without_single_samples(self)  # no minibatch of one sample (NaN advantages)
        self._sample_rng = np.random.default_rng(seed)
        """Which samples of whole hands beyond whole minibatches are left out (``_fill_from_hands``)."""
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
        """Fill the rollout buffer with ``n_rollout_steps`` decisions of every row (on average: ``_fill_from_hands``)."""
        if not use_masking:
            raise ValueError("TeamPlayPPO always masks: an unmasked policy's illegal cards are not played")
        self.policy.set_training_mode(False)
        whole_hands = self.rows.decisions_per_hand is None
        if not whole_hands:  # whole hands: _fill_from_hands sizes and resets the buffer once their samples are in
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

        if whole_hands:
            wanted = -(-n_rollout_steps * self.rows.num_rows // self.batch_size) * self.batch_size  # whole minibatches
            self._fill_from_hands(self.rows.collect_hands(act, wanted), rollout_buffer)
            callback.on_rollout_end()
            return going
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

    def _fill_from_hands(self, rollout: HandsRollout, buffer: Any) -> None:
        """The buffer from whole hands of rows whose decisions vary: advantages computed by row, whole minibatches.

        Each sample's advantage and return come from its row's hand (``whole_hand_advantages``),
        so the buffer's own GAE is not run. The buffer is resized to the largest multiple of
        ``batch_size`` samples the rollout holds (all of them when fewer), one column of them
        (``MaskablePPO.train`` shuffles them anyway); the fewer than ``batch_size`` left over
        are dropped at random, which biases nothing as each kept sample has its own return,
        and leaves no short minibatch (MaskablePPO normalises each minibatch's advantages, a
        NaN for a minibatch of one).
        """
        values, log_probs = rollout.extras
        advantages, returns = whole_hand_advantages(
            values, rollout.rewards, rollout.rows, rollout.hand_ends, self.gamma, self.gae_lambda
        )
        size = len(values) if len(values) < self.batch_size else len(values) // self.batch_size * self.batch_size
        kept = np.sort(self._sample_rng.choice(len(values), size=size, replace=False))
        buffer.buffer_size, buffer.n_envs = size, 1
        buffer.reset()
        for name, source in (
            ("observations", rollout.observations), ("actions", rollout.actions), ("rewards", rollout.rewards),
            ("values", values), ("log_probs", log_probs), ("action_masks", rollout.action_masks),
            ("advantages", advantages), ("returns", returns),
        ):  # fmt: skip
            array = getattr(buffer, name)
            array[:] = source[kept].reshape(array.shape)
        buffer.pos, buffer.full = buffer.buffer_size, True
        for reward, decisions in zip(rollout.hand_rewards, rollout.hand_decisions, strict=True):
            if decisions:
                self.ep_info_buffer.append({"r": float(reward), "l": int(decisions)})


def whole_hand_advantages(
    values: np.ndarray, rewards: np.ndarray, rows: np.ndarray, hand_ends: np.ndarray, gamma: float, gae_lambda: float
) -> tuple[np.ndarray, np.ndarray]:
    """GAE(lambda) advantages and returns of samples in the order they were played, each row's hands whole.

    The same numbers as SB3's ``RolloutBuffer.compute_returns_and_advantage`` over each row's
    decisions with an episode end after each ``hand_ends`` (nothing to bootstrap): for
    sample t of a row and t + 1 its next in the same hand, ``delta = r_t + gamma V_{t+1} - V_t``
    (``gamma * 0`` at a hand's end) and ``A_t = delta + gamma lambda A_{t+1}``; returns are
    ``A + V``. One NumPy pass per decision of the longest hand.
    """
    values = np.asarray(values, dtype=np.float32).reshape(-1)
    rewards = np.asarray(rewards, dtype=np.float32)
    order = np.argsort(rows, kind="stable")  # each row's samples in the order played
    ends = np.asarray(hand_ends, dtype=bool)[order]
    if not ends[-1] or (np.diff(rows[order]) != 0)[~ends[:-1]].any():
        raise ValueError("every row's last sample must end a hand (whole hands)")
    hand = np.concatenate(([0], np.cumsum(ends)[:-1]))  # the hand of each sorted sample
    start = np.flatnonzero(np.concatenate(([True], ends[:-1])))
    step = np.arange(len(order)) - start[hand]
    width = int(step.max()) + 1
    v = np.zeros((len(start), width + 1), dtype=np.float32)  # a zero column after each hand's last decision
    r = np.zeros((len(start), width), dtype=np.float32)
    v[hand, step] = values[order]
    r[hand, step] = rewards[order]
    advantage = np.zeros((len(start), width + 1), dtype=np.float32)
    for t in range(width - 1, -1, -1):  # past a hand's end: values 0, rewards 0, so its last delta is r - V
        delta = r[:, t] + gamma * v[:, t + 1] - v[:, t]
        advantage[:, t] = delta + gamma * gae_lambda * advantage[:, t + 1]
    out = np.empty(len(order), dtype=np.float32)
    out[order] = advantage[hand, step]
    return out, out + values


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
