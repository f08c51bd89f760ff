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

from collections.abc import Sequence
from typing import Any

from ..agents.base import Player
from ..agents.registry import as_player, players_of
from ..messages import shown
from .single_agent import PlayerLike, SingleAgentEnv


class SingleSeatEnv(SingleAgentEnv):
    """The four-seat game from one seat, the other seats played by ``partner`` and ``opponents``.

    Args:
        seat: the learner's seat 0..3, or ``"random"`` to draw it at every reset.
        partner: the player in the seat opposite the learner (a ``Player`` or a name
            such as ``"heuristic"``; the heuristic when not given).
        opponents: one player for both opponent seats, or two (the seat after the
            learner, then the seat before it); the heuristic when not given.
        others: instead of ``partner`` and ``opponents``, as the family's environments
            take it: one player for the three other seats, or three in turn order from the
            seat after the learner (opponent, partner, opponent).
        render_mode: None, ``"ansi"``, ``"human"`` or ``"rgb_array"`` (a picture of the table).
        dense_reward: pay the thirds as they are taken (see the module docstring).
        **rules: the rule switches (see ``tressette_env.engine.rules``).
    """

    _agent_option = "seat"
    _not_keywords = ("game", "agent")  # set here (the four-seat game; the learner's seat is seat=)

    def __init__(
        self,
        seat: int | str = "random",
        partner: PlayerLike | None = None,
        opponents: PlayerLike | Sequence[PlayerLike] | None = None,
        render_mode: str | None = None,
        dense_reward: bool = False,
        *,
        others: PlayerLike | Sequence[PlayerLike] | None = None,
        **rules: Any,
    ):
        if "agent" in rules:  # the other games' keyword: the base class's own argument, given twice
            raise TypeError(
                f"the four-seat game names the learner's seat seat=0..3 or 'random' (agent= is the other games' "
                f"keyword); got agent={shown(rules['agent'])}"
            )
        if others is not None:
            if partner is not None or opponents is not None:
                raise ValueError("give others (every other seat), or partner and opponents; not both")
            three = players_of(others, 3)  # the seats after the learner's
            opponents, partner = (three[0], three[2]), three[1]
        partner = "heuristic" if partner is None else partner
        opponents = "heuristic" if opponents is None else opponents
        partner_player, opponent_players = self._players_of(partner, opponents)
        super().__init__("tressette", seat, (opponent_players[0], partner_player, opponent_players[1]),
                         render_mode, dense_reward, **rules)  # fmt: skip
        self.partner, self.opponents = partner_player, opponent_players

    @property
    def seat_choice(self) -> int | str:
        """The seat given at construction (or ``"random"``)."""
        return self.agent_choice

    @staticmethod
    def _players_of(partner: PlayerLike, opponents: PlayerLike | Sequence[PlayerLike]) -> tuple[Player, tuple]:
        first, second = players_of(opponents, 2, "opponents")
        return as_player(partner, "partner"), (first, second)

    def set_players(self, partner: PlayerLike, opponents: PlayerLike | Sequence[PlayerLike]) -> None:
        """Change who plays the other seats (from the next reset on); e.g. new self-play snapshots."""
        self.partner, self.opponents = self._players_of(partner, opponents)
        self.set_others((self.opponents[0], self.partner, self.opponents[1]))
