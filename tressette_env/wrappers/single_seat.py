"""One learning seat as a Gymnasium environment; the other three seats are played by given players.

The learner holds one seat (fixed, or drawn at every reset); its partner and the two
opponents are any ``Player`` (a baseline by name, a saved model, a frozen copy of the
learner). ``step`` plays the learner's action, then lets the others play until it is
the learner's turn again or the episode ends. The reward is the learner's *team's*
(``episode="hand"``: its points minus the other team's at the end of the hand,
partner's plays included; ``episode="match"``: +1/-1 at the end of the match).

- Observation: the AEC environment's observation vector (int8, 790 zeros and ones,
  see ``tressette_env.encoders``), from the learner's seat.
- Action: ``Discrete(161)``, the AEC action ids. ``action_masks()`` gives the legal
  ones (sb3-contrib's MaskablePPO finds it through any VecEnv, SubprocVecEnv included).
- An illegal action follows ``illegal_action`` as in the AEC environment: a renuncio by
  default (the hand is lost 11-0), so Gymnasium's and SB3's environment checkers,
  which send unmasked random actions, run.
- ``reset(options={"hands": ..., "dealer": ..., "seat": ...})`` plays a chosen deal
  from a chosen seat; another key is a ``ValueError``. ``reset`` always returns a position
  where the learner is to act: with ``calling_out=True``, a match that another seat's claim
  ends before the learner's first action is dealt again (as ``TressetteVectorEnv`` does).
- ``dense_reward=True`` (``episode="hand"`` only): each step also pays the thirds the teams
  took since the learner's last step, as points (team's minus the other's, divided by 3),
  and the last step pays the difference to the hand's result, so an episode still adds up
  to exactly the hand's points difference. Same optimum, far less variance for learning.

Registered as ``tressette_env/Tressette-v0`` when ``tressette_env`` is imported.

Example:
    >>> import gymnasium as gym
    >>> import tressette_env
    >>> env = gym.make("tressette_env/Tressette-v0", opponents="random")
    >>> obs, info = env.reset(seed=0)
    >>> obs.shape, env.unwrapped.action_masks().sum() > 0
    ((790,), np.True_)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..agents.base import Player
from ..agents.registry import make_player
from ..encoders.observation import SIZE, encode_seat_bits, unpack
from ..engine.actions import NUM_ACTIONS, actions_of
from ..engine.game import check_deal, check_seat, legal_actions_mask, new_game, next_hand, view
from ..engine.render import render_state
from ..engine.rules import make_rules
from ..engine.state import HAND_OVER, PLAYING, GameState
from ..envs.playing import action_id, check_render_mode, hand_info, reset_options, take_action, team_rewards
from ..envs.tressette_aec import AGENTS

PlayerLike = Player | str
_REDEALS = 1000


def _player(spec: PlayerLike) -> Player:
    return make_player(spec) if isinstance(spec, str) else spec


class SingleSeatEnv(gymnasium.Env):
    """The game from one seat, the other seats played by ``partner`` and ``opponents``.

    Args:
        seat: the learner's seat 0..3, or ``"random"`` to draw it at every reset.
        partner: the player in the seat opposite the learner (a ``Player`` or a name
            such as ``"heuristic"``).
        opponents: one player for both opponent seats, or two (the seat after the
            learner, then the seat before it).
        render_mode: None, ``"ansi"`` or ``"human"``.
        dense_reward: pay the thirds as they are taken (see the module docstring).
        **rules: the rule switches (see ``tressette_env.engine.rules``).
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(
        self,
        seat: int | str = "random",
        partner: PlayerLike = "heuristic",
        opponents: PlayerLike | Sequence[PlayerLike] = "heuristic",
        render_mode: str | None = None,
        dense_reward: bool = False,
        **rules: Any,
    ):
        self.rules = make_rules(**rules)
        if dense_reward and self.rules.is_match:
            raise ValueError('dense_reward=True needs episode="hand": a match pays only its result')
        self.dense_reward = dense_reward
        if seat != "random":
            seat = check_seat(seat, "seat")
        check_render_mode(render_mode, self.metadata["render_modes"])
        self.seat_choice = seat
        self.render_mode = render_mode
        self.set_players(partner, opponents)
        self.observation_space = spaces.Box(0, 1, shape=(SIZE,), dtype=np.int8)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._rng: random.Random | None = None
        self.game: GameState | None = None
        self.seat = 0
        self._legal = 0

    def set_players(self, partner: PlayerLike, opponents: PlayerLike | Sequence[PlayerLike]) -> None:
        """Change who plays the other seats (from the next action on); e.g. new self-play snapshots."""
        if isinstance(opponents, (str, Player)):
            opponents = (opponents, opponents)
        if len(opponents) != 2:
            raise ValueError(f"opponents is one player or two; got {len(opponents)}")
        self.partner = _player(partner)
        self.opponents = (_player(opponents[0]), _player(opponents[1]))

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        options = reset_options(options, ("hands", "dealer", "seat"))
        hands, dealer, seat = options.get("hands"), options.get("dealer"), options.get("seat")
        # Check a chosen deal before anything changes.
        if hands is not None:
            check_deal(hands)
        if dealer is not None:
            check_seat(dealer)
        if seat is not None:
            seat = check_seat(seat, "seat")
        super().reset(seed=seed)
        if seed is not None or self._rng is None:
            self._rng = random.Random(int(self.np_random.integers(2**63)))
        if seat is None:
            seat = self._rng.randrange(4) if self.seat_choice == "random" else self.seat_choice
        self.seat = seat
        self._players: list[Player | None] = [None] * 4
        self._players[(seat + 2) % 4] = self.partner
        self._players[(seat + 1) % 4], self._players[(seat + 3) % 4] = self.opponents
        for _ in range(_REDEALS):
            self.game = new_game(self.rules, self._rng, dealer=dealer, hands=hands)
            _, info = self._play_others()
            if self.game.public.status == PLAYING:
                break
            # Another seat's claim (calling_out) ended the match before the learner acted:
            # that episode had nothing to learn from, so a new one is dealt, as the batched
            # environment does.
        else:
            raise RuntimeError(f"the other seats ended {_REDEALS} matches in a row before the learner's first action")
        self._paid = self._thirds_lead()  # what dense rewards have paid so far this hand
        return self._observe(), info

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        if self.game is None or self.game.public.status != PLAYING:
            raise RuntimeError("step() after the episode ended: call reset()")
        action = action_id(action)
        game, penalty = take_action(self.game, action, self._legal, AGENTS[self.seat])
        self.game = game
        info: dict = {}
        reward = 0.0
        if game.public.status != PLAYING:
            reward, info = self._finish_hand(penalty)
        if self.game.public.status == PLAYING:
            more, more_info = self._play_others()
            reward += more
            info = {**info, **more_info}
        terminated = self.game.public.status != PLAYING
        if self.dense_reward and not terminated:
            lead = self._thirds_lead()
            reward, self._paid = lead - self._paid, lead
        elif self.dense_reward:
            reward -= self._paid  # the final step settles the difference with the hand's result
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, terminated, False, info

    def action_masks(self) -> np.ndarray:
        """The legal actions of the learner now, as a bool vector of 161 (all False once over)."""
        return unpack(self._legal, NUM_ACTIONS).astype(bool)

    def _play_others(self) -> tuple[float, dict]:
        """Let the other seats play until the learner is to act or the episode ends."""
        reward, info = 0.0, {}
        rng = self._rng
        while True:
            game = self.game
            p = game.public
            if p.status != PLAYING:
                break
            seat = p.turn
            if seat == self.seat:
                break
            legal = legal_actions_mask(game)
            action = self._players[seat].act(view(game, seat), actions_of(legal), rng)
            self.game, penalty = take_action(game, action, legal, AGENTS[seat])
            if self.game.public.status != PLAYING:
                reward, info = self._finish_hand(penalty)
        return reward, info

    def _finish_hand(self, penalty: dict | None) -> tuple[float, dict]:
        """Report a finished hand; deal the next one of a match, or compute the final reward."""
        p = self.game.public
        info = hand_info(p, penalty, AGENTS)
        if p.status == HAND_OVER:
            self.game = next_hand(self.game, self._rng)
            return 0.0, info
        return team_rewards(p, self.rules)[self.seat % 2], info

    def _thirds_lead(self) -> float:
        """The learner team's thirds minus the other team's, in points."""
        thirds = self.game.public.thirds
        team = self.seat % 2
        return (thirds[team] - thirds[1 - team]) / 3

    def _observe(self) -> np.ndarray:
        """The learner's observation; also notes its legal actions for ``action_masks``."""
        self._legal = legal_actions_mask(self.game)
        game = self.game
        return unpack(encode_seat_bits(game.public, self.seat, game.hands[self.seat]), SIZE)

    def render(self) -> str | None:
        if self.render_mode not in self.metadata["render_modes"]:
            gymnasium.logger.warn("render() was called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        text = render_state(self.game, AGENTS) + f"\nlearner: {AGENTS[self.seat]}"
        if self.render_mode == "human":
            print(text)
            return None
        return text
