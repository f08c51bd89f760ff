"""The PettingZoo parallel API for every game: all agents step together, the agent on turn plays, the others wait.

``parallel_env()`` (in each game's module, next to ``env()`` and ``raw_env()``) builds a
``FamilyParallelEnv`` over the game's AEC environment. A card game is turn-based, so a
parallel step is one turn of the table:

| who | legal actions (``action_mask``, 256 entries) | what ``step`` does with its action |
| --- | --- | --- |
| the agent on turn (``env.agent_on_turn``) | its legal actions of the AEC environment | plays it (an illegal one follows ``illegal_action``, as in the AEC environment) |
| every other agent | ``WAIT`` (255) alone | nothing: ``WAIT``, ``None``, no entry, or any id of the space (not played) |

The action space is ``Discrete(256)`` in every game: the family's action ids (the four-seat
game's 0..160 among them) and ``WAIT``, so every agent always has a legal action. An agent off
turn cannot act, so its action is not used whatever it is (an id outside the space or not an
integer is still an error); PettingZoo's seed and ``max_cycles`` tests send every agent an
action sampled without the mask.

Rewards reach every agent at the step they accrue (a hand's rewards at the step that ends
it, to every agent at once), and an agent's episode ends in the step it is done: all agents
when the episode ends; an agent put out of an a perdere elimination match at the end of its
hand. ``max_cycles`` truncates the episode after that many steps. Observations, infos,
``state()``, the switches and ``record=FILE`` (see ``envs.recording``) are the AEC environment's.

Example:
    >>> from tressette_env import tressette_v0
    >>> env = tressette_v0.parallel_env()
    >>> observations, infos = env.reset(seed=0)
    >>> turn = env.agent_on_turn
    >>> actions = {agent: int(obs["action_mask"].nonzero()[0][0]) for agent, obs in observations.items()}
    >>> actions[turn] < 255 and all(a == 255 for agent, a in actions.items() if agent != turn)
    True
    >>> observations, rewards, terminations, truncations, infos = env.step(actions)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import ParallelEnv

from ..engine.actions import PARALLEL_NUM_ACTIONS, WAIT
from ..messages import shown
from .aec import FamilyEnv
from .playing import action_id, no_agent_error


class FamilyParallelEnv(ParallelEnv, EzPickle):
    """The parallel form of one game's AEC environment (see the module docstring)."""

    def __init__(self, aec_class: type[FamilyEnv], render_mode: str | None = None, max_cycles: int | None = None,
                 **rules: Any):  # fmt: skip
        EzPickle.__init__(self, aec_class, render_mode=render_mode, max_cycles=max_cycles, **rules)
        if max_cycles is not None and (type(max_cycles) is not int or max_cycles < 1):
            raise ValueError(f"max_cycles is None (no limit) or an int >= 1; got {shown(max_cycles)}")
        self.aec = aec_class(render_mode=render_mode, **rules)
        """The AEC environment underneath (its ``game`` is the engine state)."""
        self.max_cycles = max_cycles
        """Truncate the episode after this many steps (None: never)."""
        self.metadata = {**aec_class.metadata, "is_parallelizable": True}
        self.render_mode = render_mode
        self.rules = self.aec.rules
        self.possible_agents = list(self.aec.possible_agents)
        self.agents: list[str] = []
        self._num_actions = self.aec._num_actions
        size = self.aec._encoder.size
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0, 1, shape=(size,), dtype=np.int8),
                    "action_mask": spaces.Box(0, 1, shape=(PARALLEL_NUM_ACTIONS,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(PARALLEL_NUM_ACTIONS) for agent in self.possible_agents}
        self.state_space = self.aec.state_space
        self._steps = 0

    def observation_space(self, agent: str) -> spaces.Space:
        try:
            return self.observation_spaces[agent]
        except (KeyError, TypeError):  # (TypeError: an unhashable name)
            raise no_agent_error(self.possible_agents, agent) from None

    def action_space(self, agent: str) -> spaces.Space:
        try:
            return self.action_spaces[agent]  # (its own: the parallel API's actions include "wait")
        except (KeyError, TypeError):
            raise no_agent_error(self.possible_agents, agent) from None

    @property
    def agent_on_turn(self) -> str | None:
        """The agent whose action is played in the next step (None once the episode is over)."""
        return self.aec.agent_selection if self.agents else None

    def reset(self, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        self.aec.reset(seed=seed, options=options)
        self.agents = list(self.aec.agents)
        self._steps = 0
        return self._observations(self.agents), {agent: dict(self.aec.infos[agent]) for agent in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        aec = self.aec
        if aec.game is None:
            raise RuntimeError("step() before reset(): call reset() first")
        if not self.agents:
            raise RuntimeError("step() after the episode ended: every agent is done; call reset()")
        if not isinstance(actions, dict):
            raise TypeError(f"actions are a dict from agent to action id; got {type(actions).__name__}")
        turn = aec.agent_selection
        unknown = [agent for agent in actions if agent not in self.agents]
        if unknown:
            raise ValueError(f"actions for {unknown}, who are not in the episode; its agents are {self.agents}")
        for agent, action in actions.items():
            if agent != turn and action is not None:
                action_id(action, PARALLEL_NUM_ACTIONS)  # in the space, or a clear error; else not used
        if actions.get(turn) is None:
            raise ValueError(f"{turn} is on turn and has no action: give it one of its legal actions")
        action = action_id(actions[turn], PARALLEL_NUM_ACTIONS)
        before = list(self.agents)
        aec._play(turn, action)  # WAIT on turn is an illegal action: the rules' illegal_action says what follows
        rewards = dict.fromkeys(before, 0.0)
        for agent in before:
            if aec.terminations[agent]:
                rewards[agent] = float(aec.rewards[agent])
        self._steps += 1
        truncated = self.max_cycles is not None and self._steps >= self.max_cycles
        terminations = {agent: bool(aec.terminations[agent]) for agent in before}
        if truncated and aec._recording is not None:
            aec._recording.finish(aec.game, truncated=True)  # nothing if the episode ended in this step
        truncations = {agent: truncated and not terminations[agent] for agent in before}
        infos = {agent: dict(aec.infos[agent]) for agent in before}
        observations = self._observations(before)
        while aec.agents and (aec.terminations[aec.agent_selection] or aec.truncations[aec.agent_selection]):
            aec.step(None)  # the AEC environment's dead steps: the done agents leave it
        self.agents = [] if truncated else [a for a in before if not terminations[a]]
        return observations, rewards, terminations, truncations, infos

    def _observations(self, agents: list[str]) -> dict[str, dict[str, np.ndarray]]:
        """Each agent's AEC observation, with the mask widened to 256 ids: ``WAIT`` alone off turn."""
        aec = self.aec
        game = aec.game
        turn = aec._agent_of_seat[game.public.turn] if game.public.status == 0 else None
        out = {}
        for agent in agents:
            obs = aec.observe(agent)
            mask = np.zeros(PARALLEL_NUM_ACTIONS, dtype=np.int8)
            if agent == turn and not aec.terminations[agent]:
                # From the engine's legal set: the AEC env may still be giving done agents their dead steps.
                legal = np.frombuffer(aec._legal.to_bytes(PARALLEL_NUM_ACTIONS // 8, "little"), dtype=np.uint8)
                mask[:] = np.unpackbits(legal, bitorder="little")
            else:
                mask[WAIT] = 1
            out[agent] = {"observation": obs["observation"], "action_mask": mask}
        return out

    def state(self) -> np.ndarray:
        return self.aec.state()

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()


def parallel_factory(raw_env: type[FamilyEnv]) -> Callable[..., FamilyParallelEnv]:
    """The ``parallel_env(render_mode=None, max_cycles=None, **rules)`` function of a game's module."""

    def parallel_env(render_mode: str | None = None, max_cycles: int | None = None, **rules: Any) -> FamilyParallelEnv:
        return FamilyParallelEnv(raw_env, render_mode=render_mode, max_cycles=max_cycles, **rules)

    parallel_env.__doc__ = (
        f"{raw_env.metadata['name']} as a PettingZoo parallel environment: the agent on turn plays, the "
        "others wait (``tressette_env.envs.parallel``); the switches are the AEC environment's."
    )
    return parallel_env
