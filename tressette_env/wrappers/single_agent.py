"""One learning agent as a Gymnasium environment, for any game of the family; the other agents are given players.

The learner is one agent (fixed, or drawn at every reset); every other agent is any
``Player`` (a baseline by name, a saved model, a frozen copy of the learner). ``step``
plays the learner's action, then lets the others play until it is the learner's turn
again or the episode ends. A live agent that holds a dummy plays the dummy's seat in its
turn (col morto): the learner then acts for the dummy too, and its observation says so.

- Observation: the game's observation vector of the learner's own seat (int8 zeros and
  ones, see the game's layout in ``tressette_env.encoders``).
- Action: ``Discrete(game.num_actions)``, the family's action ids; ``action_masks()`` gives
  the legal ones (sb3-contrib's MaskablePPO finds it through any VecEnv).
- Reward: the learner's reward from ``Game.returns`` when the episode ends (a hand: its
  side's points minus the other side's; a match: +1 for the winner), 0 before; with
  ``dense_reward=True`` (``episode="hand"``) each step also pays the thirds the sides took
  since the learner's last step, as points (``Game.lead``: its side's minus the other's,
  divided by 3; in a perdere minus its own), and the last step the difference to the hand's
  result, so an episode still adds up to exactly the hand's reward.
- An illegal action follows ``illegal_action`` (a renuncio by default), so Gymnasium's and
  SB3's environment checkers, which send unmasked random actions, run.
- ``reset(options=...)`` takes the game's chosen-deal keys (``hands``, ``dealer``, ...) and
  ``"agent"``; another key is a ``ValueError``. ``reset`` always returns a position where
  the learner is to act: an episode that the others end before its first action (a claim
  with ``calling_out``) is dealt again.

Example:
    >>> env = SingleAgentEnv("tressette", others="random")
    >>> obs, info = env.reset(seed=0)
    >>> obs.shape == env.observation_space.shape, bool(env.action_masks().any())
    (True, True)
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..agents.base import Player, mask_chooser
from ..agents.registry import players_of
from ..encoders.observation import unpack
from ..engine.actions import actions_of
from ..engine.game import action_int, check_seat, legal_actions_mask, legal_mask_for, new_game, next_hand, view
from ..engine.render import render_state
from ..engine.state import HAND_OVER, PLAYING, GameState
from ..envs.mirror import MirroredGame
from ..envs.playing import (
    UNMASKED_ADVICE,
    UNMASKED_HANDS,
    UnmaskedPolicyWarning,
    action_id,
    check_flag,
    check_keywords,
    check_render_mode,
    check_seed,
    hand_info,
    reset_options,
    take_action,
)
from ..envs.recording import EpisodeRecording, check_record_path
from ..envs.spec import GameSpec, game_spec

PlayerLike = Player | str
_REDEALS = 1000


class SingleAgentEnv(MirroredGame, gymnasium.Env):
    """One game of the family from one agent's side, the other agents played by ``others``.

    Args:
        game: the game's name (``"tressette_in_due"``, ``"tressette_col_morto"``...) or its ``GameSpec``.
        agent: the learner's agent index, or ``"random"`` to draw it at every reset.
        others: one player for every other agent, or one per other agent in play order
            from the learner (the agent after it first).
        render_mode: None, ``"ansi"``, ``"human"`` or ``"rgb_array"`` (a picture of the table).
        dense_reward: pay the thirds as they are taken (see the module docstring).
        record: None, or a file to append each episode's game record to (``envs.recording``).
        history: the history observation (``encoders.history``: the order of play too); False: the default one.
        **rules: the game's rule switches.
    """

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 1}

    def __init__(
        self,
        game: str | GameSpec = "tressette",
        agent: int | str = "random",
        others: PlayerLike | Sequence[PlayerLike] = "heuristic",
        render_mode: str | None = None,
        dense_reward: bool = False,
        record: Any = None,
        history: bool = False,
        **rules: Any,
    ):
        self.game_spec = game_spec(game) if isinstance(game, str) else game
        dense_reward, history = check_flag("dense_reward", dense_reward), check_flag("history", history)
        try:
            self.rules = self.game_spec.make_rules(**rules)
        except TypeError:  # an unknown keyword: named with this environment's own keywords too
            check_keywords(type(self), rules, type(self.game_spec.make_rules()))
            raise
        path = check_record_path(record)
        self._recording = None if path is None else EpisodeRecording(path, self.game_spec.name, self.rules)
        engine_game = self.rules.game
        self.agent_count = engine_game.agents(self.rules)
        if dense_reward and self.rules.episode == "match":
            raise ValueError('dense_reward=True needs episode="hand": a match pays only its result')
        self.dense_reward = dense_reward
        if agent != "random":
            agent = check_seat(agent, self._agent_option, self.agent_count)
        check_render_mode(render_mode, self.metadata["render_modes"])
        self.agent_choice = agent
        self.render_mode = render_mode
        self.names = self.game_spec.agent_names(self.rules)
        self.history = history
        self._encoder = self.game_spec.observation_for(self.rules, history)
        self._num_actions = engine_game.num_actions
        self.set_others(others)
        self.observation_space = spaces.Box(0, 1, shape=(self._encoder.size,), dtype=np.int8)
        self.action_space = spaces.Discrete(self._num_actions)
        self._rng: random.Random | None = None
        self._allow_mirror(self._recording is None)  # a recording reads every state (``envs.mirror.MirroredGame``)
        self.game: GameState | None = None
        self.agent = 0
        self._legal = 0
        self._renuncios = 0  # the learner's renuncios in a row; -1 once UnmaskedPolicyWarning was given

    def __copy__(self) -> SingleAgentEnv:
        """A shallow copy, as Python makes one, with a copy of the hand's mirror (``envs.mirror``).

        The mirror is mutable, where a ``GameState`` is not: shared, a step of the copy would
        change this environment's hand.
        """
        copied = object.__new__(type(self))
        copied.__dict__.update(self.__dict__)
        if self._mirror is not None:
            copied._mirror = self._mirror.copy()
        return copied

    def set_others(self, others: PlayerLike | Sequence[PlayerLike]) -> None:
        """Change who plays the other agents (from the next reset on); e.g. new self-play snapshots."""
        self.others = players_of("heuristic" if others is None else others, self.agent_count - 1)

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        seed = check_seed(seed)  # a bad seed changes nothing
        deal_keys = self.rules.game.deal_options
        options = reset_options(options, (*deal_keys, self._agent_option))
        deal = {key: value for key, value in options.items() if key in deal_keys}
        self.rules.game.check_deal_options(self.rules, deal)  # a bad deal changes nothing
        agent = options.get(self._agent_option)
        if agent is not None:
            agent = check_seat(agent, self._agent_option, self.agent_count)
        super().reset(seed=seed)
        if seed is not None or self._rng is None:
            self._rng = random.Random(int(self.np_random.integers(2**63)))
        if agent is None:
            agent = self._rng.randrange(self.agent_count) if self.agent_choice == "random" else self.agent_choice
        self.agent = agent
        self._players: list[Player | None] = [None] * self.agent_count
        for k, player in enumerate(self.others, start=1):
            self._players[(agent + k) % self.agent_count] = player
        recording = self._recording
        for _ in range(_REDEALS):
            if recording is None:
                self._deal_rng = self._rng
            else:
                names = [getattr(p, "name", type(p).__name__) if p else "learner" for p in self._players]
                self._deal_rng = recording.start(self._rng, names, deal)
            self.game = new_game(self.rules, self._deal_rng, **deal)
            if recording is not None:
                recording.recorder.open_hand(self.game)
            self._seat_table()
            self._start_mirror()
            _, info = self._play_others()
            if self._playing():
                break
            # The others ended the episode before the learner acted (a claim with calling_out):
            # that episode had nothing to learn from, so a new one is dealt, as the batched
            # environment does.
        else:
            raise RuntimeError(f"the other agents ended {_REDEALS} episodes in a row before the learner's first action")
        self._paid = self._thirds_lead() if self.dense_reward else 0.0  # what dense rewards have paid so far this hand
        return self._observe(), info

    _agent_option = "agent"
    """The reset option that chooses the learner (``"seat"`` in the four-seat ``SingleSeatEnv``)."""

    def _seat_table(self) -> None:
        """Who plays which seat in this hand."""
        table = self.game.public.table
        players, own = self._players, table.seat_of
        # By seat: who plays it (None: the learner), from which seat's view, under which name.
        self._player_at = tuple(None if c == self.agent else players[c] for c in table.controllers)
        self._view_seat = tuple(own[c] for c in table.controllers)
        self._mask_chooser_at = tuple(None if p is None else mask_chooser(p) for p in self._player_at)
        self._agent_of_seat = tuple(self.names[c] for c in table.controllers)
        self.seat = own[self.agent]
        self._watched = (self.seat,) if self.seat >= 0 else ()  # a mirror keeps the learner's observation only

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        if not self._playing():
            raise RuntimeError("step() after the episode ended: call reset()")
        action = action_id(action, self._num_actions)
        ended, penalty = self._take(self._turn(), action, self._legal)
        if self._renuncios >= 0:
            self._renuncios = self._renuncios + 1 if penalty is not None else 0
            if self._renuncios == UNMASKED_HANDS:
                self._renuncios = -1
                warnings.warn(
                    f"the learner's action was illegal in {UNMASKED_HANDS} hands in a row: {UNMASKED_ADVICE}",
                    UnmaskedPolicyWarning,
                    stacklevel=2,
                )
        info: dict = {}
        reward = 0.0
        if ended:
            reward, info = self._finish_hand(penalty)
        if self._playing():
            more, more_info = self._play_others()
            reward += more
            info = {**info, **more_info}
        terminated = not self._playing()
        if terminated and self._recording is not None:
            self._recording.finish(self.game)
        if self.dense_reward and not terminated:
            lead = self._thirds_lead()
            reward, self._paid = lead - self._paid, lead
        elif self.dense_reward:
            reward -= self._paid  # the final step settles the difference with the hand's result
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, terminated, False, info

    def action_masks(self) -> np.ndarray:
        """The legal actions of the learner now, as a bool vector (all False once over)."""
        return unpack(self._legal, self._num_actions).view(np.bool_)  # a fresh array (unpack makes one), seen as bool

    def _playing(self) -> bool:
        """Whether the hand is being played (a mirror plays only hands being played)."""
        return self._mirror is not None or self._game is not None and self._game.public.status == PLAYING

    def _turn(self) -> int:
        """The seat to act (-1: nobody)."""
        mirror = self._mirror
        return self._game.public.turn if mirror is None else mirror.turn

    def _legal_now(self) -> int:
        """The legal actions of the seat to act, as a bit mask (0 once the hand is over)."""
        mirror = self._mirror
        if mirror is None:
            return legal_actions_mask(self._game)
        return legal_mask_for(mirror.hands[mirror.turn], mirror)

    def _take(self, seat: int, action: int, legal: int) -> tuple[bool, dict | None]:
        """``seat``, on turn, takes ``action`` (legal or not): on the mirror where it can, else by the rules core.

        Returns whether the hand ended, and for a renuncio what happened (for the infos).
        """
        mirror = self._mirror
        if mirror is not None and legal >> action & 1 and mirror.takes(action):
            mirror.play(action)
            return False, None
        before = self.game
        game, penalty = take_action(before, action, legal, self._agent_of_seat[seat], stacklevel=4)
        if self._recording is not None:
            self._recording.recorder.played(before, action, game, penalty is not None)
        self.game = game
        ended = game.public.status != PLAYING
        if not ended:
            self._start_mirror()
        return ended, penalty

    def _play_others(self) -> tuple[float, dict]:
        """Let the other agents play until the learner is to act or the episode ends."""
        reward, info = 0.0, {}
        rng = self._rng
        while True:
            mirror = self._mirror
            if mirror is not None:  # (``_turn`` and ``_legal_now`` written out: the hot path)
                seat = mirror.turn
                legal = legal_mask_for(mirror.hands[seat], mirror)
            elif self._game.public.status == PLAYING:
                seat = self._game.public.turn
                legal = legal_actions_mask(self._game)
            else:
                break
            player = self._player_at[seat]
            if player is None:
                break
            choose = self._mask_chooser_at[seat]
            if choose is not None:  # a player that needs only the legal actions (the random one)
                action = choose(legal, rng)
                if mirror is not None and type(action) is int and legal >> action & 1 and mirror.takes(action):
                    mirror.play(action)  # (``_take``'s first case, written out: the hot path)
                    continue
            else:
                action = player.act(view(self.game, self._view_seat[seat]), actions_of(legal), rng)
            if type(action) is not int:  # a NumPy int (a model's argmax), as ``apply`` takes it
                action = action_int(action, self._num_actions)
            ended, penalty = self._take(seat, action, legal)
            if ended:
                reward, info = self._finish_hand(penalty)
        return reward, info

    def _finish_hand(self, penalty: dict | None) -> tuple[float, dict]:
        """Report a finished hand; deal the next one of a match, or compute the final reward."""
        p = self.game.public
        info = hand_info(p, penalty, self._agent_of_seat)
        if p.status == HAND_OVER:
            following = next_hand(self.game, self._deal_rng)
            if not p.rules.game.out_of_match(following.public.table, self.agent):
                self.game = following
                if self._recording is not None:
                    self._recording.recorder.open_hand(following)
                self._seat_table()
                self._start_mirror()
                return 0.0, info
            # The learner is out of the match (a perdere's elimination): its episode ends here,
            # on the hand that put it out, with its final standing. (A learner that only sits a
            # hand out, Calabresella's dealer, goes on: the others play that hand.)
        return p.rules.game.returns(p)[self.agent], info

    def _thirds_lead(self) -> float:
        """The learner side's thirds minus the other side's, in points (``Game.lead``)."""
        p = self.game.public
        return p.rules.game.lead(p, self.seat)

    def _observe(self) -> np.ndarray:
        """The learner's observation; also notes its legal actions for ``action_masks``."""
        self._legal = self._legal_now()
        seat = self.seat
        encoder = self._encoder
        if seat < 0:  # the learner sits this hand out (Calabresella's dealer with four players)
            return np.zeros(encoder.size, dtype=np.int8)
        mirror = self._mirror
        return unpack(encoder.seat_bits(self._game, seat) if mirror is None else mirror.obs[seat], encoder.size)

    def render(self) -> str | np.ndarray | None:
        if self.render_mode not in self.metadata["render_modes"]:
            gymnasium.logger.warn(
                "render() was called without a render_mode; pass render_mode='ansi', 'human' or 'rgb_array'"
            )
            return None
        names = self.rules.game.seat_names(self.game.public.table, self.names)
        if self.render_mode == "rgb_array":
            from ..envs.picture import table_picture  # Pillow, only when a picture is asked for

            return table_picture(self.game, names)
        text = render_state(self.game, names) + f"\nlearner: {self.names[self.agent]}"
        if self.render_mode == "human":
            print(text)
            return None
        return text
