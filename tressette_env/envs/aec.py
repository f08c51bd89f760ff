"""One PettingZoo AEC environment for every game of the family: ``FamilyEnv``, a thin adapter over the engine.

Each game's module (``tressette_v0``, ``tressette_in_due_v0``, ...) subclasses it with the
game's ``GameSpec`` and its docstring. ``step`` does four things: handle a finished agent,
call ``engine.apply``, copy rewards and terminations out of the engine, and set
``agent_selection`` from the engine: the agent that plays the seat on turn
(``Table.controllers``; a live agent plays a dummy's seat).
"""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle, seeding
from numpy import frombuffer, int8, uint8, unpackbits
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..engine.game import apply, legal_actions_mask, legal_mask_for, new_game, next_hand, view
from ..engine.render import render_state
from ..engine.state import HAND_OVER, PLAYING, GameState, SeatView
from ..messages import shown
from .mirror import MirroredGame
from .playing import (
    action_id,
    check_flag,
    check_render_mode,
    check_seed,
    hand_info,
    no_agent_error,
    reset_options,
    take_action,
)
from .recording import EpisodeRecording, check_record_path
from .spec import GameSpec


class ActionSpaceError(ValueError, TypeError, AssertionError):
    """An action outside the action space sent to ``env()``; nothing changes.

    The message names the value and the allowed ids. It is a ``ValueError`` (out of range) and
    a ``TypeError`` (not an integer), as ``raw_env`` raises, and an ``AssertionError``, as
    PettingZoo's ``AssertOutOfBoundsWrapper`` raises, so code written for either catches it.
    """


class ActionChecks(wrappers.AssertOutOfBoundsWrapper):
    """PettingZoo's out-of-bounds check, with an error that names the action and the allowed ids.

    PettingZoo's own check says only "action is not in action space", and an int past int64
    (``10**30``, ``2**63``) can fail inside it with an ``OverflowError``.
    """

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if action is None and (self.terminations[agent] or self.truncations[agent]):
            super(wrappers.AssertOutOfBoundsWrapper, self).step(action)  # a finished agent's None
            return
        space = self.action_space(agent)
        try:
            action_id(action, int(space.n))
        except (TypeError, ValueError) as error:
            raise ActionSpaceError(f"{agent}: {error} (the action space is {space})") from None
        super(wrappers.AssertOutOfBoundsWrapper, self).step(action)


def _before_reset(name: str) -> AttributeError:
    return AttributeError(f"{name} cannot be accessed before reset")


def _served(name: str) -> property:
    """An attribute of the wrapped environment, read directly and refused before ``reset``.

    PettingZoo's ``__getattr__`` path costs two failed lookups a wrapper layer; the refusal is
    ``OrderEnforcingWrapper``'s.
    """

    def read(self: LeanWrapper) -> Any:
        if not self._has_reset:
            raise _before_reset(name)
        return getattr(self.env, name)

    return property(read, doc=f"The environment's ``{name}`` (after ``reset``).")


class LeanWrapper(wrappers.OrderEnforcingWrapper):
    """``env()``'s one wrapper: PettingZoo's order checks and the action-space check, in one layer.

    A subclass of ``OrderEnforcingWrapper`` (its checks, its ``agent_iter`` and ``isinstance``
    hold) that replaces ``OrderEnforcingWrapper(ActionChecks(env))``: the same errors, with the
    hot attributes (``agent_selection``, ``rewards``, ``terminations``, ``truncations``,
    ``infos``, ``agents``, the cumulative rewards) served by properties and ``step``, ``last``,
    ``observe`` and ``action_space`` calling the environment directly. Two PettingZoo wrapper
    layers cost a step about 161,000 instructions (30-36 µs) whatever the environment did;
    docs/benchmarks.md has this one's figures.
    """

    agent_selection = _served("agent_selection")
    rewards = _served("rewards")
    terminations = _served("terminations")
    truncations = _served("truncations")
    infos = _served("infos")
    agents = _served("agents")
    _cumulative_rewards = _served("_cumulative_rewards")

    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._space_n = int(env.action_space(env.possible_agents[0]).n)

    @property
    def num_agents(self) -> int:
        if not self._has_reset:
            raise _before_reset("num_agents")
        return len(self.env.agents)

    def step(self, action: Any) -> None:
        if not self._has_reset:
            wrappers.OrderEnforcingWrapper.step(self, action)  # PettingZoo's error
            return
        env = self.env
        if not env.agents:
            self._has_updated = True
            wrappers.OrderEnforcingWrapper.step(self, action)  # PettingZoo's warning
            return
        agent = env.agent_selection
        if not (action is None and (env.terminations[agent] or env.truncations[agent])):
            try:
                action_id(action, self._space_n)
            except (TypeError, ValueError) as error:
                raise ActionSpaceError(f"{agent}: {error} (the action space is {env.action_space(agent)})") from None
        self._has_updated = True
        env.step(action)

    def last(self, observe: bool = True) -> tuple:
        if not self._has_reset:
            raise _before_reset("agent_selection")
        return self.env.last(observe)

    def observe(self, agent: str) -> Any:
        if not self._has_reset:
            return wrappers.OrderEnforcingWrapper.observe(self, agent)  # PettingZoo's error
        return self.env.observe(agent)

    def action_space(self, agent: str) -> Any:
        return self.env.action_space(agent)

    def observation_space(self, agent: str) -> Any:
        return self.env.observation_space(agent)

    def __str__(self) -> str:
        return str(self.env)


def wrap(env: AECEnv) -> AECEnv:
    """``env()``'s wrapper (``LeanWrapper``): actions checked against the space, calls checked for order."""
    return LeanWrapper(env)


class FamilyEnv(MirroredGame, AECEnv, EzPickle):
    """The AEC environment of one game of the family (set ``spec`` in a subclass)."""

    spec_of_game: GameSpec
    metadata = {"name": "", "render_modes": ["ansi", "human", "rgb_array"], "is_parallelizable": False, "render_fps": 1}

    def __init__(
        self,
        render_mode: str | None = None,
        max_cycles: int | None = None,
        record: Any = None,
        history: bool = False,
        **rules: Any,
    ):
        EzPickle.__init__(self, render_mode=render_mode, max_cycles=max_cycles, record=record, history=history, **rules)
        super().__init__()
        check_render_mode(render_mode, self.metadata["render_modes"])
        if max_cycles is not None and (type(max_cycles) is not int or max_cycles < 1):
            raise ValueError(f"max_cycles is None (no limit) or an int >= 1; got {shown(max_cycles)}")
        self.max_cycles = max_cycles
        """Truncate the episode once every agent has had this many turns on average (None: never)."""
        spec = self.spec_of_game
        self.rules = spec.make_rules(**rules)
        path = check_record_path(record)
        self._recording = None if path is None else EpisodeRecording(path, spec.name, self.rules)
        """Where each episode's record goes (``record=FILE``; see ``envs.recording``), or None."""
        self.render_mode = render_mode
        self.history = check_flag("history", history)
        """The observation keeps the order of play (``encoders.history``); False: the default observation."""
        self._encoder = spec.observation_for(self.rules, history)
        self._state_encoder = spec.state(self.rules)
        self._num_actions = self.rules.game.num_actions
        names = spec.agent_names(self.rules)
        self.possible_agents = list(names)
        self._names = names
        self._index = {agent: i for i, agent in enumerate(names)}
        size = self._encoder.size
        # observe() unpacks the observation and the mask from one int: mask bits start at the next whole byte.
        self._mask_at = (size + 7) // 8 * 8
        self._unpacked = self._mask_at + self._num_actions
        self._obs_slice, self._mask_slice = slice(0, size), slice(self._mask_at, None)
        self._seat_bits = self._encoder.seat_bits
        self._public_bits = None if self._encoder.takes_private else self._encoder.bits
        """``seat_bits`` without its call, for an encoder of the hand and the public state alone."""
        self._packed_bytes = (self._unpacked + 7) // 8
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0, 1, shape=(size,), dtype=np.int8),
                    "action_mask": spaces.Box(0, 1, shape=(self._num_actions,), dtype=np.int8),
                }
            )
            for agent in names
        }
        self.action_spaces = {agent: spaces.Discrete(self._num_actions) for agent in names}
        self.state_space = spaces.Box(0, 1, shape=(self._state_encoder.size,), dtype=np.int8)
        self._rng: random.Random | None = None
        self._allow_mirror(self._recording is None)  # a recording reads every state
        self.game = None

    def observation_space(self, agent: str) -> spaces.Space:
        try:
            return self.observation_spaces[agent]
        except (KeyError, TypeError):  # (TypeError: an unhashable name)
            raise no_agent_error(self.possible_agents, agent) from None

    def action_space(self, agent: str) -> spaces.Space:
        try:
            return self.action_spaces[agent]
        except (KeyError, TypeError):
            raise no_agent_error(self.possible_agents, agent) from None

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        seed = check_seed(seed)  # a bad seed changes nothing
        game = self.rules.game
        options = reset_options(options, game.deal_options)
        deal = {key: value for key, value in options.items() if key in game.deal_options}
        game.check_deal_options(self.rules, deal)  # a bad deal changes nothing
        if seed is not None or self._rng is None:
            self.np_random, self.np_random_seed = seeding.np_random(seed)
            self._rng = random.Random(int(self.np_random.integers(2**63)))
        names = self._names
        recording = self._recording
        self._deal_rng = self._rng if recording is None else recording.start(self._rng, list(names), deal)
        self.game = new_game(self.rules, self._deal_rng, **deal)
        if recording is not None:
            recording.recorder.open_hand(self.game)
        self.agents = list(names)
        self.rewards = dict.fromkeys(names, 0.0)
        self._cumulative_rewards = dict.fromkeys(names, 0.0)
        self.terminations = dict.fromkeys(names, False)
        self.truncations = dict.fromkeys(names, False)
        self.infos = {agent: {} for agent in names}
        self._seat_table()
        self._legal = legal_actions_mask(self.game)
        self.agent_selection = self._agent_of_seat[self.game.public.turn]
        self._steps_left = -1 if self.max_cycles is None else self.max_cycles * len(names)
        self._start_mirror()

    def _seat_table(self) -> None:
        """Who plays which seat in this hand (a dummy's seat is played by its holder)."""
        table = self.game.public.table
        self._agent_of_seat = tuple(self._names[c] for c in table.controllers)
        self._seat_names = self.rules.game.seat_names(table, self._names)
        self._seat_of_agent = {agent: table.seat_of[i] for i, agent in enumerate(self._names)}
        self._watched = tuple(seat for seat in table.seat_of if seat >= 0)  # the seats a mirror keeps observations of

    def step(self, action: Any) -> None:
        if self._game is None:
            raise RuntimeError("step() before reset(): call reset() first")
        if not self.agents:
            raise RuntimeError("step() after the episode ended: every agent is done; call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if type(action) is not int or not 0 <= action < self._num_actions:  # action_id's own first test
            action = action_id(action, self._num_actions)
        self._play(agent, action)

    def _play(self, agent: str, action: int) -> None:
        """``agent`` (the agent to act) takes ``action``, an int id (legal or not: the rules say what follows).

        The hot path of every AEC step: a legal card that does not end the hand goes to the
        mirror where there is one (``envs.mirror``), any other legal action straight to
        ``apply``; PettingZoo's ``_deads_step_first`` runs only after a step that ended a hand
        or truncated the episode, the only steps after which an agent may be done (it is a
        no-op otherwise).
        """
        mirror = self._mirror
        if mirror is not None and self._legal >> action & 1 and mirror.takes(action):
            mirror.play(action)
            self._cumulative_rewards[agent] = 0.0
            turn = mirror.turn
            self._legal = legal_mask_for(mirror.hands[turn], mirror)
            ended = False
        else:
            ended = self._play_core(agent, action)
            turn = self._game.public.turn
        if turn >= 0:
            self.agent_selection = self._agent_of_seat[turn]
            self._steps_left -= 1
            if not self._steps_left:  # max_cycles reached: every agent left is truncated
                for other in self.agents:
                    self.truncations[other] = True
                if self._recording is not None:
                    self._recording.finish(self._game, truncated=True)
                ended = True
            if ended:
                self._deads_step_first()  # an agent just put out of the match takes its dead step first
        if self.render_mode == "human":
            self.render()

    def _play_core(self, agent: str, action: int) -> bool:
        """``_play`` by the rules core: the new state, the rewards of a hand that ended; True if one did."""
        before = self.game
        if self._legal >> action & 1:  # ``take_action``'s legal case, written out
            game, penalty = apply(before, action), None
        else:
            game, penalty = take_action(before, action, self._legal, agent, stacklevel=4)  # at step, as before
        self._cumulative_rewards[agent] = 0.0
        if self._recording is not None:
            self._recording.recorder.played(before, action, game, penalty is not None)
        ended = game.public.status != PLAYING
        if ended:
            game = self._end_hand(game, penalty)
        self.game = game
        self._legal = legal_actions_mask(game)
        self._start_mirror()
        return ended

    def _end_hand(self, game: GameState, penalty: dict | None) -> GameState:
        """Report the finished hand in the infos; deal the next one or end the episode."""
        p = game.public
        info = hand_info(p, penalty, self._agent_of_seat)
        for agent in self.agents:
            self.infos[agent] = dict(info)
        if p.status == HAND_OVER:
            game = next_hand(game, self._deal_rng)
            self.game = game
            if self._recording is not None:
                self._recording.recorder.open_hand(game)
            self._seat_table()
            # Agents the hand put out of the match (a perdere's elimination) end here, with their
            # final standing; each takes its dead step (action None) before the next card is played.
            table = game.public.table
            out = [a for a in self.agents if p.rules.game.out_of_match(table, self._index[a])]
            if out:
                rewards = p.rules.game.returns(p)
                for agent in out:
                    self.rewards[agent] = rewards[self._index[agent]]
                    self.terminations[agent] = True
                self._accumulate_rewards()
            return game
        rewards = p.rules.game.returns(p)
        for agent in self.agents:
            self.rewards[agent] = rewards[self._index[agent]]
            self.terminations[agent] = True
        self._accumulate_rewards()
        if self._recording is not None:
            self._recording.finish(game)
        return game

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if self._game is None:
            raise RuntimeError("observe() before reset(): call reset() first")
        if agent not in self.agents:
            if agent not in self._index:
                raise ValueError(f"agents are {self.possible_agents}; got {shown(agent)}")
            if self.rules.game.out_of_match(self.game.public.table, self._index[agent]):
                raise RuntimeError(f"{agent} is out of the match (eliminated) and has left the episode")
            raise RuntimeError(f"{agent} is done: the episode is over and every agent has left it; call reset()")
        seat = self._seat_of_agent[agent]
        mirror = self._mirror
        if seat < 0:  # no seat this hand (put out of the match, or sitting out the deal): nothing to see or do
            bits = 0
        elif mirror is not None:
            bits = mirror.obs[seat]
        elif self._public_bits is not None:
            game = self._game  # ``Encoded.seat_bits`` of an encoder that reads no private cards
            bits = self._public_bits(game.public, seat, game.hands[seat])
        else:
            bits = self._seat_bits(self._game, seat)
        if agent == self.agent_selection and seat >= 0:  # the agent to act (the mask is 0 once the episode is over)
            bits |= self._legal << self._mask_at
        # ``unpack(bits, self._unpacked)``, written out: one call fewer on the hot path.
        both = unpackbits(frombuffer(bits.to_bytes(self._packed_bytes, "little"), uint8), -1, self._unpacked, "little")
        both = both.view(int8)
        return {"observation": both[self._obs_slice], "action_mask": both[self._mask_slice]}

    def view(self, agent: str) -> SeatView:
        """What ``agent`` may know (its hand and the public state): the input of every ``Player``."""
        if agent not in self._index:
            raise ValueError(f"agents are {self.possible_agents}; got {shown(agent)}")
        seat = self._seat_of_agent[agent]
        if seat < 0:
            raise ValueError(f"{agent} is out of the match: it has no seat this hand")
        return view(self.game, seat)

    def state(self) -> np.ndarray:
        return self._state_encoder.encode(self.game)

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            warnings.warn(
                "render() was called without a render_mode; pass render_mode='ansi', 'human' or 'rgb_array'",
                stacklevel=2,
            )
            return None
        if self.render_mode == "rgb_array":
            from .picture import table_picture  # Pillow, only when a picture is asked for

            return table_picture(self.game, self._seat_names)
        text = render_state(self.game, self._seat_names)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
