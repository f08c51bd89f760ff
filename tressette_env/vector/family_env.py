"""One learning player per deal of any game with a batched engine: ``FamilyVectorEnv``.

The family's counterpart of ``TressetteVectorEnv``: a ``gymnasium.vector.VectorEnv`` over a
game's batched engine (the catalog's ``Entry.batch``: ``ColMortoBatch``...), N deals, one
learning player in each (``agent``: a player, or ``"random"`` to draw one per episode), the
other players played by one batched policy, called on every deal where one of them is on
turn at once:

| ``others=`` | plays |
| --- | --- |
| ``"random"`` | uniformly random legal actions, from the engine (no observations built) |
| ``"heuristic"`` | the game's heuristic, batched and decision for decision the scalar one (the batch's ``heuristic_actions``) |
| a callable ``policy(obs, mask)`` | what it returns for (M, size) int8 observations and (M, A) int8 masks |

| | |
| --- | --- |
| observation | (N, size) int8: the learner's observation from its own seat, as ``SingleAgentEnv`` gives it |
| action | (N,) family action ids (``single_action_space`` Discrete(game.num_actions)); ``action_masks()`` the (N, A) bool mask |
| reward | float32, the learner's reward from ``Game.returns`` when its episode ends, 0 before; with ``dense_reward=True`` as ``SingleAgentEnv``'s |
| autoreset | ``AutoresetMode.SAME_STEP``: ``infos["final_obs"]`` (an object array, with ``"_final_obs"``) holds the learner's last observation, ``infos["final_info"]`` the result |

A learner who holds a dummy (col morto) acts for it too: after ``reset`` and each ``step``
the others have played until the learner's player is on turn in every deal, for his own
seat or his dummy's (the observation's ``acting_for`` says which).

``gym.make_vec(id, num_envs=N, vectorization_mode="vector_entry_point")`` builds this
environment with ``gym.make``'s defaults (``make_vector_env``: a random learner, the heuristic
for the others) for every game whose catalog entry names that entry point (every game of the
package but the four-seat one, whose own is ``TressetteVectorEnv``); as for
the four-seat game, ``gym.make_vec(id, num_envs=N)`` without a mode then picks it too
(Gymnasium prefers a vector entry point): ask for ``vectorization_mode="sync"`` to get N
``gym.make`` environments with any players.

Example:
    >>> env = FamilyVectorEnv(4, "tressette_col_morto", seed=0)
    >>> obs, infos = env.reset(seed=0)
    >>> obs.shape, env.action_masks().shape
    ((4, 999), (4, 255))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..engine.game import check_seat
from ..envs.playing import check_flag, check_render_mode, check_seed, refuse_unknown_keywords, reset_options
from ..messages import shown
from .policy_answer import Stopped, policy_actions

Others = str | Callable[[np.ndarray, np.ndarray], np.ndarray]
_REDEALS = 1000
"""Episodes in a row that the others may end before the learner's first action (``SingleAgentEnv``'s bound)."""
BUILTIN = ("random", "heuristic")


def batch_type(game: str) -> type:
    """The batched engine of a game of the catalog (``Entry.batch``); a clear error where it has none."""
    from .. import catalog

    entry = catalog.entry(game)
    if entry.batch is None:
        with_batch = [e.name for e in catalog.entries() if e.batch is not None]
        own = (
            f"; {game}'s own batched environment: gym.make_vec({entry.gym_id!r}, num_envs=N, "
            'vectorization_mode="vector_entry_point")'
            if entry.gym_vector_entry_point
            else ""
        )
        raise ValueError(
            f"{game} has no batched engine for FamilyVectorEnv; games with one: {', '.join(with_batch)}{own}"
        )
    return entry.batch_type()


class FamilyVectorEnv(VectorEnv):
    """N deals of one game, one learning player in each (see the module docstring).

    Args:
        num_envs: N.
        game: the game's name in the catalog (its entry names a batched engine).
        others: ``"random"``, ``"heuristic"`` or a batched policy, for every player but the learner.
        agent: the learner's player index, or ``"random"`` (drawn per episode and deal).
        seed: seeds the deals, the learners drawn and the random players.
        dense_reward: pay the thirds as they are taken (``episode="hand"``; the batch's ``lead``).
        **rules: the game's rule switches (all that its batched engine takes).
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int,
        game: str,
        *,
        others: Others = "random",
        agent: int | str = 0,
        seed: int | None = None,
        dense_reward: bool = False,
        **rules: Any,
    ):
        dense_reward = check_flag("dense_reward", dense_reward)
        self._np_random, self._np_random_seed = seeding.np_random(check_seed(seed))
        deals_seed = np.random.default_rng(self._np_random.integers(2**63))
        self.batch = batch_type(game)(num_envs, seed=deals_seed, **rules)
        if getattr(self.batch, "players_drop_out", False):
            raise ValueError(
                f"{game} under these rules has players leave the table during an episode (an elimination match): "
                "FamilyVectorEnv does not follow a learner who drops out yet; gym.make's environment plays it"
            )
        self.game = game
        self.rules = self.batch.rules
        if dense_reward and self.rules.episode == "match":
            raise ValueError('dense_reward=True needs episode="hand": a match pays only its result')
        self.dense_reward = dense_reward
        self.num_envs = num_envs
        self.num_agents = self.batch.num_agents
        self.single_observation_space = spaces.Box(0, 1, shape=(self.batch.observation.size,), dtype=np.int8)
        self.single_action_space = spaces.Discrete(self.batch.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        if not (isinstance(others, str) and others in BUILTIN) and not callable(others):
            raise ValueError(
                f"others must be 'random', 'heuristic' or a callable policy(obs, mask); got {shown(others)}"
            )
        if others == "heuristic" and not hasattr(self.batch, "heuristic_actions"):
            raise ValueError(
                f"{game}'s batched engine has no batched heuristic yet: others='random' or a batched policy(obs, mask) "
                "(gym.make's environments play the heuristic)"
            )
        self.others = others
        if agent != "random" and (
            isinstance(agent, bool) or not isinstance(agent, (int, np.integer)) or not 0 <= agent < self.num_agents
        ):
            raise ValueError(f"agent must be a player 0..{self.num_agents - 1} or 'random'; got {shown(agent)}")
        self.agent_choice = agent
        self._agent = np.zeros(num_envs, dtype=np.int64)
        self._fresh = np.ones(num_envs, dtype=bool)  # the learner has not acted in the deal's episode yet
        self._redeals = np.zeros(num_envs, dtype=np.int64)  # episodes in a row the others ended before it acted
        self._paid = np.zeros(num_envs, dtype=np.float32)
        self._started = False
        self._stopped = Stopped()  # why the last step stopped halfway (a policy failed), if it did

    # ------------------------------------------------------------------ gymnasium API

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        """Deal new episodes everywhere.

        ``options`` may hold the batch's chosen-deal keys (``deal_options``) and ``"agent"``: the
        learner of these episodes (a player, in every deal), as ``SingleAgentEnv``'s option;
        the next episodes draw it again as the environment was made to.
        """
        seed = check_seed(seed)
        options = reset_options(options, (*self.batch.deal_options, "agent"))
        agent = options.pop("agent", None)
        if agent is not None:
            agent = check_seat(agent, "agent (the learner's player)", self.num_agents)
        super().reset(seed=seed, options=options)
        self.batch.reset(None if seed is None else np.random.default_rng(self.np_random.integers(2**63)), **options)
        self._agent = self._draw_agents(self.num_envs) if agent is None else np.full(self.num_envs, agent)
        self._redeals[:] = 0
        self._fresh[:] = True
        self._started = True
        self._stopped.clear()
        n = self.num_envs
        self._stopped.run(lambda: self._play_others(np.zeros(n, dtype=np.float32), np.zeros(n, dtype=bool), {}))
        if self.dense_reward:
            self._paid = self.batch.lead(self._agent)
        self._masks = self.batch.legal_masks(bool)
        return self.batch.observe(), {"action_mask": self._masks}

    def step(
        self, actions: Any, *, active: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        """The learner acts in every deal; then the others play until it is the learner's turn again.

        ``active`` ((N,) bool, default all): the deals where the learner acts; the others stand
        still (their actions are not read: -1 is allowed; no reward, no termination, the same
        observation), which is how ``NextStepVectorEnv`` holds a new episode back for a step.
        """
        if not self._started:
            raise RuntimeError("call reset() before step()")
        self._stopped.check("step()")
        if active is not None:
            active = np.asarray(active)
            if active.dtype != bool or active.shape != (self.num_envs,):
                raise ValueError(
                    f"active is a bool mask of shape ({self.num_envs},), one per deal; "
                    f"got {active.dtype} {active.shape}"
                )
        result = self.batch.step(np.asarray(actions), active=active, autoreset=False)
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
            lead = self.batch.lead(self._agent)
            rewards += np.where(terminated, 0.0, lead) - self._paid
            self._paid = lead
        self._masks = self.batch.legal_masks(bool)
        infos["action_mask"] = self._masks
        return self.batch.observe(), rewards, terminated, np.zeros(self.num_envs, dtype=bool), infos

    def action_masks(self) -> np.ndarray:
        """(N, A) bool: the learner's legal actions in each deal (the array of the last ``infos["action_mask"]``)."""
        if not self._started:
            raise RuntimeError("call reset() before action_masks()")
        self._stopped.check("action_masks()")
        return self._masks

    @property
    def agents(self) -> np.ndarray:
        """(N,) the learner's player in each deal."""
        return self._agent.copy()

    # ------------------------------------------------------------------ inside

    def _draw_agents(self, m: int) -> np.ndarray:
        if self.agent_choice == "random":
            return self.np_random.integers(0, self.num_agents, m)
        return np.full(m, int(self.agent_choice), dtype=np.int64)

    def _collect(self, result: Any, rewards: np.ndarray, terminated: np.ndarray, infos: dict) -> None:
        """Pay and close the episodes that ended; deal new ones (one that ends before the learner acts is dealt again)."""
        ended = result.terminated
        if not ended.any():
            return
        done = np.flatnonzero(ended & ~self._fresh)
        if len(done):
            rewards[done] += result.rewards[done, self._agent[done]]
            terminated[done] = True
            if "final_obs" not in infos:
                n = self.num_envs
                infos["final_obs"] = np.full(n, None, dtype=object)
                infos["_final_obs"] = np.zeros(n, dtype=bool)
                infos["final_info"] = {"agent": np.zeros(n, dtype=np.int64), "_agent": np.zeros(n, dtype=bool)}
                for key in ("hand_points", "match_score", "winner", "renuncio"):
                    value = getattr(result, key)
                    infos["final_info"][key] = np.zeros((n, *value.shape[1:]), dtype=value.dtype)
                    infos["final_info"]["_" + key] = np.zeros(n, dtype=bool)
                infos["_final_info"] = np.zeros(n, dtype=bool)
            rows = self.batch.observe(self._agent[done], deals=done)  # the observing agents, by position
            for i, row in zip(done, rows, strict=True):
                infos["final_obs"][i] = row
            infos["_final_obs"][done] = True
            infos["_final_info"][done] = True
            info = infos["final_info"]
            info["agent"][done] = self._agent[done]
            for key in ("hand_points", "match_score", "winner", "renuncio"):
                info[key][done] = getattr(result, key)[done]
            for key in [k for k in info if not k.startswith("_")]:
                info["_" + key][done] = True
        again = np.flatnonzero(ended)
        self._redeals[again] = np.where(self._fresh[again], self._redeals[again] + 1, 0)
        if (self._redeals >= _REDEALS).any():
            raise RuntimeError(
                f"the other players ended {_REDEALS} episodes in a row before the learner's first action "
                f"(deal {int(np.flatnonzero(self._redeals >= _REDEALS)[0])})"
            )
        self.batch.reset(deals=again)
        self._agent[again] = self._draw_agents(len(again))
        self._fresh[again] = True

    def _play_others(self, rewards: np.ndarray, terminated: np.ndarray, infos: dict) -> None:
        """Play every player but the learner until the learner is on turn in every deal."""
        batch = self.batch
        while True:
            others = batch.agent != self._agent
            if not others.any():
                return
            rows = np.flatnonzero(others)
            if self.others == "random":
                actions = batch.sample_actions(self.np_random)
            else:
                actions = np.zeros(self.num_envs, dtype=np.int64)
                if self.others == "heuristic":
                    actions[rows] = batch.heuristic_actions(rows)
                else:
                    actions[rows] = self._policy(rows)
            result = batch.step(actions, active=None if others.all() else others, autoreset=False)
            self._collect(result, rewards, terminated, infos)

    def _policy(self, rows: np.ndarray) -> np.ndarray:
        mask = self.batch.legal_masks()[rows]
        obs = np.ascontiguousarray(self.batch.observe(deals=rows))
        return policy_actions(self.others, obs, mask, rows)  # checked before any deal plays it

    def render(self) -> None:
        """Not supported: render one deal with the game's AEC environment instead."""
        raise NotImplementedError("FamilyVectorEnv does not render; play a deal in the game's AEC environment")


def make_vector_env(
    num_envs: int,
    game: str,
    agent: int | str = "random",
    others: Others | Sequence[Others] = "heuristic",
    render_mode: str | None = None,
    dense_reward: bool = False,
    seed: int | None = None,
    **rules: Any,
) -> FamilyVectorEnv:
    """``gym.make_vec(..., vectorization_mode="vector_entry_point")`` with ``gym.make``'s keywords and defaults.

    ``SingleAgentEnv``'s (a random learner, the heuristic for every other player). The batched
    engine plays ``"random"``, ``"heuristic"`` or a batched ``policy(obs, mask)``, one for every
    other player; saved models, search and game records play in ``gym.make``'s environments.
    """
    check_render_mode(render_mode, [])
    for key in ("record", "history"):
        if key in rules:
            raise TypeError(
                f"{key}: the batched environment takes neither game records nor the history observation; "
                "gym.make's environments (and the sync and async vector modes over them) do"
            )
    from .. import catalog  # (imported here: the catalog names this module's entry point)

    own = ["agent", "others", "render_mode", "dense_reward", "seed"]
    rules_type = catalog.entry(game).rules_type()
    refuse_unknown_keywords("the batched environment (make_vec's vector entry point)", lambda: own, rules, rules_type)
    if isinstance(others, (tuple, list)):
        if len(others) == 0 or any(o != others[0] for o in others):
            raise ValueError(f"the batched environment plays one policy for every other player; got {shown(others)}")
        others = others[0]
    if not (isinstance(others, str) and others in BUILTIN) and not callable(others):
        raise ValueError(
            "the batched environment's others are 'random', 'heuristic' or a batched policy(obs, mask) -> actions "
            f"(other players, saved models included, play in gym.make's environments); got {shown(others)}"
        )
    return FamilyVectorEnv(num_envs, game, others=others, agent=agent, seed=seed, dense_reward=dense_reward, **rules)
