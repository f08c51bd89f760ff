"""Tressette col morto, two or three players with dummies face up, as a PettingZoo AEC environment (version 0).

Example:
    >>> from tressette_env import tressette_col_morto_v0
    >>> env = tressette_col_morto_v0.env(players=2)
    >>> env.possible_agents
    ['player_0', 'player_1']
"""

from .engine.game import IllegalActionError
from .envs.col_morto_aec import env, parallel_env, raw_env
from .envs.playing import RenuncioWarning
from .games.col_morto import ColMortoRules

__all__ = ["ColMortoRules", "IllegalActionError", "RenuncioWarning", "env", "parallel_env", "raw_env"]
