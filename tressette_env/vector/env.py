"""One learning seat per deal, the other three played by a batched policy: ``TressetteVectorEnv``.

A ``gymnasium.vector.VectorEnv`` over a ``TressetteBatch`` of N deals. In each deal
one seat (``learner_seat``: a seat, or ``"random"`` to draw one per episode) is the
learner; its partner and both opponents are played by batched policies, called
on every deal where one of them is on turn at once:

    policy(obs: (M, 790) int8, mask: (M, 161) int8) -> (M,) action ids

| ``opponent=`` / ``partner=`` | plays |
| --- | --- |
| ``"random"`` (the default) | uniformly random legal actions, straight from the engine's mask words (no observations built) |
| ``"heuristic"`` | ``HeuristicPlayer``'s actions, batched (``vector.heuristic.heuristic_actions``; no observations built) |
| a callable ``policy(obs, mask)`` | what it returns, e.g. a frozen copy of the learner |

``opponent`` plays both opponents (and the partner, unless ``partner=`` gives the
learner's partner another policy). A callable that returns an illegal action
raises ``ValueError`` (the rules' renuncio is for the learner only).

| | |
| --- | --- |
| observation | (N, 790) int8, the learner's ``encode(view(state, seat))`` (``single_observation_space`` Box(0, 1, (790,), int8)) |
| action | (N,) ids 0..160 (``single_action_space`` Discrete(161)); ``action_masks()`` is the (N, 161) bool mask |
| reward | float32, the learner's team's AEC reward: in ``episode="hand"`` team points minus the other team's when the hand ends (its partner's plays included), in ``"match"`` +1 / -1 when the match ends; with ``dense_reward=True`` as ``SingleSeatEnv``'s (below) |
| action mask | ``infos["action_mask"]`` of every ``reset`` and ``step``, (N, 161) bool, the same array as ``action_masks()`` |
| autoreset | ``AutoresetMode.SAME_STEP``: an episode that ends in a step is replaced in that step; ``infos["final_obs"]`` (an object array, None where no episode ended, with ``"_final_obs"``) holds the learner's last observation, ``infos["final_info"]`` the hand's result; the masks are always the new episodes' (never a row of zeros) |

``gym.make_vec("tressette_env/Tressette-v0", num_envs=N, vectorization_mode="vector_entry_point")``
builds this environment with ``gym.make``'s defaults (``make_vector_env``: a random seat, the
heuristic as partner and opponents).

The learner acts first in every step: after ``reset`` and after each ``step`` the
other seats have played until it is the learner's turn in every deal.

``dense_reward=True`` (``episode="hand"`` only) pays what ``SingleSeatEnv(dense_reward=True)``
pays: each step the thirds the teams took since the learner's last step, as points (its
team's minus the other's, divided by 3), and the last step of a hand the difference to the
hand's result, so that an episode still adds up to the hand's points difference.

Example:
    >>> env = TressetteVectorEnv(4, seed=0)
    >>> obs, infos = env.reset(seed=0)
    >>> obs.shape, env.action_masks().shape
    ((4, 790), (4, 161))
    >>> rng = np.random.default_rng(0)
    >>> total = np.zeros(4)
    >>> for _ in range(10):
    ...     obs, rewards, terminations, truncations, infos = env.step(sample_mask(env.action_masks(), rng))
    ...     total += rewards
    >>> bool(terminations.all()), infos["final_obs"][0].shape
    (True, (790,))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..engine.actions import NUM_ACTIONS
from ..engine.rules import Rules
from ..envs.playing import check_flag, check_render_mode, check_seed, refuse_unknown_keywords, reset_options
from ..messages import shown
from .engine import SeedLike, StepResult, TressetteBatch, sample_mask
from .heuristic import heuristic_actions
from .policy_answer import Stopped, policy_actions


class BatchedPolicy(Protocol):
    """Chooses one action per row: ``policy(obs (M, 790) int8, mask (M, 161) int8) -> (M,) ints``.

    Both arrays are fresh C-contiguous copies: the policy may keep or reshape them.
    """

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray: ...


class RandomPolicy:
    """A uniformly random legal action per row (the batched ``RandomPlayer``).

    Args:
        seed: an int, a ``numpy.random.Generator`` or None.
    """

    name = "random"

    def __init__(self, seed: SeedLike = None):
        self.rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return sample_mask(mask, self.rng)


Opponent = str | Callable[[np.ndarray, np.ndarray], np.ndarray]
"""``"random"``, ``"heuristic"`` or a batched policy ``policy(obs, mask) -> actions``."""
BUILTIN_POLICIES = ("random", "heuristic")


def _is_builtin(policy: Any) -> bool:
    return isinstance(policy, str) and policy in BUILTIN_POLICIES


class TressetteVectorEnv(VectorEnv):
    """N deals, one learning seat in each; see the module docstring.

    Args:
        num_envs: N.
        opponent: ``"random"``, ``"heuristic"`` or a batched policy for the seats the learner does not hold.
        partner: ``"random"``, ``"heuristic"`` or a batched policy for the learner's partner only;
            None: as ``opponent``.
        learner_seat: the learner's seat 0..3, or ``"random"`` (drawn per episode and deal).
        seed: seeds the deals, the random seats and the built-in random opponent.
        dense_reward: pay the thirds as they are taken (see the module docstring).
        history: the history observation (1460 entries: the default 790, then the order of play;
            ``encoders.history``), for the learner and for callable policies alike.
        **rules: rule switches of ``Rules`` (all supported).
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int,
        *,
        opponent: Opponent = "random",
        partner: Opponent | None = None,
        learner_seat: int | str = 0,
        seed: int | None = None,
        dense_reward: bool = False,
        history: bool = False,
        **rules: Any,
    ):
        dense_reward, history = check_flag("dense_reward", dense_reward), check_flag("history", history)
        self._np_random, self._np_random_seed = seeding.np_random(check_seed(seed))
        # The deals get their own stream, so that they and the random seats and opponents are independent.
        deals_seed = np.random.default_rng(self._np_random.integers(2**63))
        self.batch = TressetteBatch(num_envs, seed=deals_seed, history=history, **rules)
        self.history = history
        """The observations are the history observation (``encoders.history``)."""
        self.rules = self.batch.rules
        if dense_reward and self.rules.is_match:
            raise ValueError('dense_reward=True needs episode="hand": a match pays only its result')
        self.dense_reward = dense_reward
        self._paid = np.zeros(num_envs, dtype=np.float32)  # what the dense reward has paid this hand
        self.num_envs = num_envs
        self.single_observation_space = spaces.Box(0, 1, shape=(self.batch.observation.size,), dtype=np.int8)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        for name, policy in (("opponent", opponent), ("partner", partner)):
            if not (policy is None and name == "partner") and not _is_builtin(policy) and not callable(policy):
                raise ValueError(
                    f"{name} must be 'random', 'heuristic' or a callable policy(obs, mask) -> actions; got {shown(policy)}"
                )
        self.opponent = opponent
        self.partner = opponent if partner is None else partner
        _check_seat(learner_seat, "learner_seat")
        self.learner_seat = learner_seat
        self._seat = np.zeros(num_envs, dtype=np.int64)
        self._fresh = np.ones(num_envs, dtype=bool)  # the learner has not acted in this episode yet
        self._started = False
        self._stopped = Stopped()  # why the last step stopped halfway (a policy failed), if it did

    # ------------------------------------------------------------------ gymnasium API

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        """Deal new episodes everywhere; ``options`` may hold ``"hands"`` and ``"dealer"`` (as ``TressetteBatch.reset``)."""
        seed = check_seed(seed)
        options = reset_options(options, ("hands", "dealer"))
        super().reset(seed=seed, options=options)
        rng = self.np_random
        self.batch.reset(
            None if seed is None else np.random.default_rng(rng.integers(2**63)),
            hands=options.get("hands"),
            dealer=options.get("dealer"),
        )
        self._seat = self._draw_seats(self.num_envs)
        self._fresh[:] = True
        self._started = True
        self._stopped.clear()
        n = self.num_envs
        self._stopped.run(lambda: self._play_others(np.zeros(n, dtype=np.float32), np.zeros(n, dtype=bool), {}))
        if self.dense_reward:
            self._paid = self._thirds_lead()
        self._masks = self.batch.legal_masks(bool)
        return self.batch.observe(), {"action_mask": self._masks}

    def step(
        self, actions: Any, *, active: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        """The learner acts in every deal; then the others play until it is the learner's turn again.

        ``active`` ((N,) bool, default all): the deals where the learner acts; the others stand
        still (their actions are not read; no reward, no termination, the same observation), which
        is how ``NextStepVectorEnv`` holds a new episode back for a step.
        """
        if not self._started:
            raise RuntimeError("call reset() before step()")
        self._stopped.check("step()")
        batch = self.batch
        result = batch.step(np.asarray(actions), active=active, autoreset=False)
        if active is None:
            self._fresh[:] = False
        else:
            self._fresh[active] = False
        rewards = np.zeros(self.num_envs, dtype=np.float32)
        terminated = np.zeros(self.num_envs, dtype=bool)
        infos: dict = {}
        self._collect(result, rewards, terminated, infos)
        self._stopped.run(lambda: self._play_others(rewards, terminated, infos))  # a policy that fails stops here
        if self.dense_reward:
            # A hand that ended pays its result minus what it has paid; the others (and the
            # hands dealt in its place) the change of the thirds lead.
            lead = self._thirds_lead()
            rewards += np.where(terminated, 0.0, lead) - self._paid
            self._paid = lead
        self._masks = batch.legal_masks(bool)
        infos["action_mask"] = self._masks
        return batch.observe(), rewards, terminated, np.zeros(self.num_envs, dtype=bool), infos

    def action_masks(self) -> np.ndarray:
        """(N, 161) bool: the learner's legal actions in each deal (for sb3-contrib's MaskablePPO).

        The same array as the last ``reset``'s or ``step``'s ``infos["action_mask"]`` (built once a step).
        """
        if not self._started:
            raise RuntimeError("call reset() before action_masks()")
        self._stopped.check("action_masks()")
        return self._masks

    @property
    def seats(self) -> np.ndarray:
        """(N,) the learner's seat in each deal."""
        return self._seat.copy()

    # ------------------------------------------------------------------ inside

    def _thirds_lead(self) -> np.ndarray:
        """(N,) float32: the thirds the learner's team has taken this hand minus the other team's, in points."""
        return self.batch.lead(self._seat)

    def _draw_seats(self, m: int) -> np.ndarray:
        if self.learner_seat == "random":
            return self.np_random.integers(0, 4, m)
        return np.full(m, int(self.learner_seat), dtype=np.int64)

    def _collect(self, result: StepResult, rewards: np.ndarray, terminated: np.ndarray, infos: dict) -> None:
        """Add a batch step's rewards; close the finished episodes and deal new ones.

        An episode that ends before the learner's first action (an opponent's claim in
        ``calling_out`` matches) is dealt again without a reward or a termination.
        """
        ended = result.terminated
        if not ended.any():
            return
        real = ended & ~self._fresh
        done = np.flatnonzero(real)
        if len(done):
            rewards[done] += result.rewards[done, self._seat[done]]
            terminated[done] = True
            final_obs = infos.get("final_obs")
            if final_obs is None:
                final_obs = infos["final_obs"] = np.full(self.num_envs, None, dtype=object)
                infos["_final_obs"] = np.zeros(self.num_envs, dtype=bool)
                infos["final_info"] = self._empty_final_info()
                infos["_final_info"] = np.zeros(self.num_envs, dtype=bool)
            rows = self.batch.observe(seats=self._seat[done], deals=done)
            for i, row in zip(done, rows, strict=True):
                final_obs[i] = row
            infos["_final_obs"][done] = True
            infos["_final_info"][done] = True
            info = infos["final_info"]
            for key in ("hand_points", "card_thirds", "accusi", "match_score", "cappotto", "renuncio", "called_out"):
                info[key][done] = getattr(result, key)[done]
            info["winner"][done] = result.winner[done]
            info["learner_seat"][done] = self._seat[done]
            for key in list(info):
                if not key.startswith("_"):
                    info["_" + key][done] = True
        again = np.flatnonzero(ended)
        self.batch.reset(deals=again)
        self._seat[again] = self._draw_seats(len(again))
        self._fresh[again] = True

    def _empty_final_info(self) -> dict:
        n = self.num_envs
        info: dict = {}
        for key, shape, dtype in (
            ("hand_points", (n, 2), np.int64),
            ("card_thirds", (n, 2), np.int64),
            ("accusi", (n, 2), np.int64),
            ("match_score", (n, 2), np.int64),
            ("cappotto", (n,), np.int8),
            ("renuncio", (n,), np.int8),
            ("called_out", (n,), np.int8),
            ("winner", (n,), np.int8),
            ("learner_seat", (n,), np.int64),
        ):
            info[key] = np.zeros(shape, dtype=dtype)
            info["_" + key] = np.zeros(n, dtype=bool)
        return info

    def _play_others(self, rewards: np.ndarray, terminated: np.ndarray, infos: dict) -> None:
        """Play the seats other than the learner's until the learner is on turn in every deal."""
        batch = self.batch
        random_only = all(_is_builtin(p) and p == "random" for p in (self.opponent, self.partner))
        heuristic_only = all(_is_builtin(p) and p == "heuristic" for p in (self.opponent, self.partner))
        while True:
            turn = batch.turn
            others = turn != self._seat
            if not others.any():
                return
            if random_only:
                actions = batch.sample_actions(self.np_random)
            elif heuristic_only:  # one call for the three seats
                actions = np.zeros(self.num_envs, dtype=np.int64)
                rows = np.flatnonzero(others)
                actions[rows] = heuristic_actions(batch, rows)
            else:
                actions = self._policy_actions(others, turn)
            result = batch.step(actions, active=None if others.all() else others, autoreset=False)
            self._collect(result, rewards, terminated, infos)

    def _policy_actions(self, others: np.ndarray, turn: np.ndarray) -> np.ndarray:
        """Actions of the policies on turn (opponents, partner) in the deals ``others``."""
        batch = self.batch
        actions = np.zeros(self.num_envs, dtype=np.int64)
        masks = None
        partner_seat = (self._seat + 2) & 3
        for policy, who in ((self.opponent, others & (turn != partner_seat)), (self.partner, turn == partner_seat)):
            rows = np.flatnonzero(who)
            if not len(rows):
                continue
            if _is_builtin(policy) and policy == "heuristic":
                actions[rows] = heuristic_actions(batch, rows)
                continue
            if masks is None:
                masks = batch.legal_masks()
            mask = masks[rows]
            if _is_builtin(policy):  # "random"
                chosen = sample_mask(mask, self.np_random)
            else:
                obs = np.ascontiguousarray(batch.observe(deals=rows))  # a policy may reshape rows (torch .view)
                chosen = policy_actions(policy, obs, mask, rows)  # checked before any deal plays it
            actions[rows] = chosen
        return actions

    def render(self) -> None:
        """Not supported: render one deal with the AEC environment instead."""
        raise NotImplementedError("TressetteVectorEnv does not render; play a deal in tressette_v0.env to watch it")


def _check_seat(seat: Any, name: str, note: str = "") -> None:
    """A learner's seat 0..3 or ``"random"``; a ValueError in the caller's own keyword ``name`` otherwise."""
    if seat != "random" and (isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < 4):
        raise ValueError(f"{name} must be a seat 0..3 or 'random'{note}; got {shown(seat)}")


def make_vector_env(
    num_envs: int,
    seat: int | str = "random",
    partner: Opponent = "heuristic",
    opponents: Opponent | tuple = "heuristic",
    dense_reward: bool = False,
    render_mode: str | None = None,
    seed: int | None = None,
    **rules: Any,
) -> TressetteVectorEnv:
    """``gym.make_vec(..., vectorization_mode="vector_entry_point")``: N learning seats with ``gym.make``'s keywords.

    The keywords and defaults are ``SingleSeatEnv``'s (a random seat, the heuristic as partner
    and opponents), so the batched environment plays what N ``gym.make`` environments play.
    The batched engine plays ``"random"``, ``"heuristic"`` or a batched ``policy(obs, mask)``;
    one policy for both opponents.
    """
    check_render_mode(render_mode, [])
    if "record" in rules:
        raise TypeError(
            "record: the batched environment writes no game records; gym.make's environments (and the "
            "sync and async vector modes over them) take record=FILE"
        )
    own = ["seat", "partner", "opponents", "dense_reward", "render_mode", "seed", "history"]
    switches = {k: v for k, v in rules.items() if k != "history"}
    refuse_unknown_keywords("the batched environment (make_vec's vector entry point)", lambda: own, switches, Rules)
    if isinstance(opponents, (tuple, list)):
        if len(opponents) != 2 or opponents[0] != opponents[1]:
            raise ValueError(
                f"the batched environment plays one policy for both opponents; got opponents={shown(opponents)}"
            )
        opponents = opponents[0]
    for name, policy in (("partner", partner), ("opponents", opponents)):
        if not _is_builtin(policy) and not callable(policy):
            raise ValueError(
                f"the batched environment's {name} is 'random', 'heuristic' or a batched policy(obs, mask) -> actions "
                f"(other players, saved models included, play in gym.make's environments); got {shown(policy)}"
            )
    _check_seat(seat, "seat", " (gym.make's keyword)")
    return TressetteVectorEnv(
        num_envs, opponent=opponents, partner=partner, learner_seat=seat, seed=seed, dense_reward=dense_reward, **rules
    )
