"""Tressette a chiamare: five players, an auction, a called card whose holder is a secret partner (version 0).

Example:
    >>> from tressette_env import tressette_a_chiamare_v0
    >>> env = tressette_a_chiamare_v0.env()
    >>> env.possible_agents
    ['player_0', 'player_1', 'player_2', 'player_3', 'player_4']
"""

from .engine.game import IllegalActionError
from .envs.a_chiamare_aec import env, parallel_env, raw_env
from .envs.playing import RenuncioWarning
from .games.a_chiamare import AChiamareRules

__all__ = ["AChiamareRules", "IllegalActionError", "RenuncioWarning", "env", "parallel_env", "raw_env"]
